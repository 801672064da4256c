/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_amax.h - aclnn maxima over dimensions (libopapi.so):
 * aclnnAmax.
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_AMAX_H
#define VNPU_ACLNNOP_ACLNN_AMAX_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The maximum of self over dim (empty: every dimension); NaN propagates. out has
 * self's type: fp32, fp16, bf16, fp64, the integer types, bool. */
ACLNN_API aclnnStatus aclnnAmaxGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool keepDim,
						aclTensor *out, uint64_t *workspaceSize,
						aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnAmax(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
				aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_AMAX_H */
