/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_min_dim.h - aclnn minima along a dimension, with their indices (libopapi.so):
 * aclnnMinDim.
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_MIN_DIM_H
#define VNPU_ACLNNOP_ACLNN_MIN_DIM_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The minimum of self along dim into out (self's type) and its first index into
 * indices (int64 or int32). self: fp32, fp16, bf16, fp64, the integer types. */
ACLNN_API aclnnStatus aclnnMinDimGetWorkspaceSize(const aclTensor *self, int64_t dim, bool keepdim,
						  aclTensor *out, aclTensor *indices, uint64_t *workspaceSize,
						  aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnMinDim(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
				  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_MIN_DIM_H */
