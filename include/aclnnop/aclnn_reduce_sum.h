/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_reduce_sum.h - aclnn sums over dimensions (libopapi.so):
 * aclnnReduceSum.
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_REDUCE_SUM_H
#define VNPU_ACLNNOP_ACLNN_REDUCE_SUM_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The sum of self over dims (empty: every dimension), computed in dtype, which must be
 * out's type. self: fp32, fp16, bf16, fp64, the integer types, bool. */
ACLNN_API aclnnStatus aclnnReduceSumGetWorkspaceSize(const aclTensor *self, const aclIntArray *dims,
						     bool keepDims, aclDataType dtype, aclTensor *out,
						     uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnReduceSum(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
				     aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_REDUCE_SUM_H */
