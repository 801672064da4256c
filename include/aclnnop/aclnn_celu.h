/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_celu.h - aclnn: continuously differentiable exponential linear unit.
 *
 * Two-stage functions (aclnn/aclnn_base.h): XxxGetWorkspaceSize builds the executor and
 * says the workspace, Xxx launches it on a stream. Tensors may be any strided views; a NULL
 * required argument is ACLNN_ERR_PARAM_NULLPTR, bad shapes, types or values
 * ACLNN_ERR_PARAM_INVALID, each with a message (aclGetRecentErrMsg).
 */
#ifndef VNPU_ACLNNOP_ACLNN_CELU_H
#define VNPU_ACLNNOP_ACLNN_CELU_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = max(0, self) + min(0, alpha * (e^(self / alpha) - 1)), alpha != 0; floats (fp32, fp16, bf16, fp64). */
ACLNN_API aclnnStatus aclnnCeluGetWorkspaceSize(const aclTensor *self, const aclScalar *alpha, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnCelu(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/* the same in place. */
ACLNN_API aclnnStatus aclnnInplaceCeluGetWorkspaceSize(aclTensor *selfRef, const aclScalar *alpha, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceCelu(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_CELU_H */
