/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_var_mean.h - aclnn variance with the mean (libopapi.so): aclnnVarMean.
 *
 * Two stages: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_VAR_MEAN_H
#define VNPU_ACLNNOP_ACLNN_VAR_MEAN_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnVarCorrection's result into varOut and the mean over the same dims into meanOut. fp32,
 * fp16, bf16, fp64. */
ACLNN_API aclnnStatus aclnnVarMeanGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, int64_t correction, bool keepdim, aclTensor *varOut, aclTensor *meanOut, uint64_t *workspaceSize,
	aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnVarMean(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
	aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_VAR_MEAN_H */
