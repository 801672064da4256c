/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_argmin.h - aclnn indices of minima (libopapi.so):
 * aclnnArgMin.
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_ARGMIN_H
#define VNPU_ACLNNOP_ACLNN_ARGMIN_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The index of the first minimum of self along dim (NaN counts as the minimum).
 * self: fp32, fp16, bf16, fp64, the integer types; out: int64 or int32. */
ACLNN_API aclnnStatus aclnnArgMinGetWorkspaceSize(const aclTensor *self, int64_t dim, bool keepdim,
						  aclTensor *out, uint64_t *workspaceSize,
						  aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnArgMin(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
				  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_ARGMIN_H */
