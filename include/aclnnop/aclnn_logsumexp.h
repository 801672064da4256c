/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_logsumexp.h - aclnn log-sum-exp (libopapi.so): aclnnLogSumExp.
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_LOGSUMEXP_H
#define VNPU_ACLNNOP_ACLNN_LOGSUMEXP_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* log(sum(exp(self))) over dim (empty: every dimension), max-shifted, in out's float type. self:
 * fp32, fp16, bf16, fp64, the integer types, bool; out: fp32, fp16, bf16, fp64. */
ACLNN_API aclnnStatus aclnnLogSumExpGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool keepDim, aclTensor *out, uint64_t *workspaceSize,
	aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnLogSumExp(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
	aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_LOGSUMEXP_H */
