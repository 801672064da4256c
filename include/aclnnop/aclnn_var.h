/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_var.h - aclnn variance (libopapi.so): aclnnVar, aclnnVarCorrection.
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_VAR_H
#define VNPU_ACLNNOP_ACLNN_VAR_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* sum((self - mean)^2) / max(0, N - unbiased) over dim (NULL or empty: every dimension).
 * self, out: fp32, fp16, bf16, fp64. */
ACLNN_API aclnnStatus aclnnVarGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool unbiased, bool keepdim, aclTensor *out, uint64_t *workspaceSize,
	aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnVar(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
	aclrtStream stream);

/* The same with divisor max(0, N - correction). */
ACLNN_API aclnnStatus aclnnVarCorrectionGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, int64_t correction, bool keepdim, aclTensor *out, uint64_t *workspaceSize,
	aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnVarCorrection(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
	aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_VAR_H */
