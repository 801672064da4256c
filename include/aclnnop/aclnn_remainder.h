/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_remainder.h - aclnn: Python's remainder (the divisor's sign).
 *
 * Two-stage functions (aclnn/aclnn_base.h): XxxGetWorkspaceSize builds the executor and
 * says the workspace, Xxx launches it on a stream. Tensors may be any strided views; a NULL
 * required argument is ACLNN_ERR_PARAM_NULLPTR, bad shapes, types or values
 * ACLNN_ERR_PARAM_INVALID, each with a message (aclGetRecentErrMsg).
 */
#ifndef VNPU_ACLNNOP_ACLNN_REMAINDER_H
#define VNPU_ACLNNOP_ACLNN_REMAINDER_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out = self - floor(self / other) * other; broadcast and promotion; floats (fp32, fp16, bf16,
 * fp64) and integers; an integer zero divisor fails the launch.
 */
ACLNN_API aclnnStatus aclnnRemainderTensorTensorGetWorkspaceSize(const aclTensor *self,
                                                                 const aclTensor *other, aclTensor *out,
                                                                 uint64_t *workspaceSize,
                                                                 aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnRemainderTensorTensor(void *workspace, uint64_t workspaceSize,
                                                 aclOpExecutor *executor, aclrtStream stream);

/* the same with a host scalar divisor. */
ACLNN_API aclnnStatus aclnnRemainderTensorScalarGetWorkspaceSize(const aclTensor *self,
                                                                 const aclScalar *other, aclTensor *out,
                                                                 uint64_t *workspaceSize,
                                                                 aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnRemainderTensorScalar(void *workspace, uint64_t workspaceSize,
                                                 aclOpExecutor *executor, aclrtStream stream);

/* the same with a host scalar dividend. */
ACLNN_API aclnnStatus aclnnRemainderScalarTensorGetWorkspaceSize(const aclScalar *self,
                                                                 const aclTensor *other, aclTensor *out,
                                                                 uint64_t *workspaceSize,
                                                                 aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnRemainderScalarTensor(void *workspace, uint64_t workspaceSize,
                                                 aclOpExecutor *executor, aclrtStream stream);

/* selfRef = remainder(selfRef, other). */
ACLNN_API aclnnStatus aclnnInplaceRemainderTensorTensorGetWorkspaceSize(aclTensor *selfRef,
                                                                        const aclTensor *other,
                                                                        uint64_t *workspaceSize,
                                                                        aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceRemainderTensorTensor(void *workspace, uint64_t workspaceSize,
                                                        aclOpExecutor *executor, aclrtStream stream);

/* selfRef = remainder(selfRef, other), host scalar other. */
ACLNN_API aclnnStatus aclnnInplaceRemainderTensorScalarGetWorkspaceSize(aclTensor *selfRef,
                                                                        const aclScalar *other,
                                                                        uint64_t *workspaceSize,
                                                                        aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceRemainderTensorScalar(void *workspace, uint64_t workspaceSize,
                                                        aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_REMAINDER_H */
