/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_pow_tensor_tensor.h - aclnn: element-wise powers.
 *
 * Two-stage functions (aclnn/aclnn_base.h): XxxGetWorkspaceSize builds the executor and
 * says the workspace, Xxx launches it on a stream. Tensors may be any strided views; a NULL
 * required argument is ACLNN_ERR_PARAM_NULLPTR, bad shapes, types or values
 * ACLNN_ERR_PARAM_INVALID, each with a message (aclGetRecentErrMsg).
 */
#ifndef VNPU_ACLNNOP_ACLNN_POW_TENSOR_TENSOR_H
#define VNPU_ACLNNOP_ACLNN_POW_TENSOR_TENSOR_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out = self ** exponent; broadcast and promotion; floats (fp32, fp16, bf16, fp64) and integers.
 */
ACLNN_API aclnnStatus aclnnPowTensorTensorGetWorkspaceSize(const aclTensor *self, const aclTensor *exponent,
                                                           const aclTensor *out, uint64_t *workspaceSize,
                                                           aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnPowTensorTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                           aclrtStream stream);

/* self = self ** exponent. */
ACLNN_API aclnnStatus aclnnInplacePowTensorTensorGetWorkspaceSize(const aclTensor *selfRef,
                                                                  const aclTensor *exponent,
                                                                  uint64_t *workspaceSize,
                                                                  aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplacePowTensorTensor(void *workspace, uint64_t workspaceSize,
                                                  aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_POW_TENSOR_TENSOR_H */
