/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_fmod_tensor.h - aclnn: C remainder of two tensors.
 *
 * Two-stage functions (aclnn/aclnn_base.h): XxxGetWorkspaceSize builds the executor and
 * says the workspace, Xxx launches it on a stream. Tensors may be any strided views; a NULL
 * required argument is ACLNN_ERR_PARAM_NULLPTR, bad shapes, types or values
 * ACLNN_ERR_PARAM_INVALID, each with a message (aclGetRecentErrMsg).
 */
#ifndef VNPU_ACLNNOP_ACLNN_FMOD_TENSOR_H
#define VNPU_ACLNNOP_ACLNN_FMOD_TENSOR_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = fmod(self, other) (the dividend's sign), broadcast, promoted; floats and integers (a zero integer divisor fails the run). */
ACLNN_API aclnnStatus aclnnFmodTensorGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnFmodTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/* the same in place (other broadcasts to selfRef). */
ACLNN_API aclnnStatus aclnnInplaceFmodTensorGetWorkspaceSize(aclTensor *selfRef, const aclTensor *other, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceFmodTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_FMOD_TENSOR_H */
