/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_mean.h - aclnn means over dimensions (libopapi.so):
 * aclnnMean.
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_MEAN_H
#define VNPU_ACLNNOP_ACLNN_MEAN_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The mean of self over dim (empty: every dimension), computed in dtype (integer means
 * truncate) and written as out's type. self: fp32, fp16, bf16, fp64, the integer types. */
ACLNN_API aclnnStatus aclnnMeanGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool keepDim,
						aclDataType dtype, aclTensor *out, uint64_t *workspaceSize,
						aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnMean(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
				aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_MEAN_H */
