/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_permute.h - aclnn reordering dimensions (libopapi.so):
 * aclnnPermute.
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_PERMUTE_H
#define VNPU_ACLNNOP_ACLNN_PERMUTE_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out[i...] = self with its dimensions in the order dims (a permutation of
 * 0..rank-1, negative ones from the end). Any type. */
ACLNN_API aclnnStatus aclnnPermuteGetWorkspaceSize(const aclTensor *self, const aclIntArray *dims,
						   aclTensor *out, uint64_t *workspaceSize,
						   aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnPermute(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
				   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_PERMUTE_H */
