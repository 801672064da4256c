/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_flip.h - aclnn reversing dimensions (libopapi.so):
 * aclnnFlip.
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_FLIP_H
#define VNPU_ACLNNOP_ACLNN_FLIP_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* self with the order of its elements along each of dims reversed. Any type. */
ACLNN_API aclnnStatus aclnnFlipGetWorkspaceSize(const aclTensor *self, const aclIntArray *dims,
						aclTensor *out, uint64_t *workspaceSize,
						aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnFlip(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
				aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_FLIP_H */
