/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_eq_tensor.h - aclnn: comparison == of two tensors.
 *
 * Two-stage functions (aclnn/aclnn_base.h): XxxGetWorkspaceSize builds the executor and
 * says the workspace, Xxx launches it on a stream. Tensors may be any strided views; a NULL
 * required argument is ACLNN_ERR_PARAM_NULLPTR, bad shapes, types or values
 * ACLNN_ERR_PARAM_INVALID, each with a message (aclGetRecentErrMsg).
 */
#ifndef VNPU_ACLNNOP_ACLNN_EQ_TENSOR_H
#define VNPU_ACLNNOP_ACLNN_EQ_TENSOR_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out = self == other (true/false, written in out's type: bool or any other); the operands
 * broadcast and compare in their promoted type; floats (fp32, fp16, bf16, fp64) and integers, bool.
 */
ACLNN_API aclnnStatus aclnnEqTensorGetWorkspaceSize(const aclTensor *self, const aclTensor *other,
                                                    aclTensor *out, uint64_t *workspaceSize,
                                                    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnEqTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                    aclrtStream stream);

/* selfRef = selfRef == other, as 1/0 in selfRef's type. */
ACLNN_API aclnnStatus aclnnInplaceEqTensorGetWorkspaceSize(const aclTensor *selfRef, const aclTensor *other,
                                                           uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceEqTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                           aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_EQ_TENSOR_H */
