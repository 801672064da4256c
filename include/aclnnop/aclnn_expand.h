/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_expand.h - aclnn broadcasting to a shape (libopapi.so):
 * aclnnExpand.
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_EXPAND_H
#define VNPU_ACLNNOP_ACLNN_EXPAND_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* self broadcast to size (as many or more dimensions; -1 keeps a dimension, a
 * dimension of 1 repeats). Any type. */
ACLNN_API aclnnStatus aclnnExpandGetWorkspaceSize(const aclTensor *self, const aclIntArray *size,
						  aclTensor *out, uint64_t *workspaceSize,
						  aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnExpand(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
				  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_EXPAND_H */
