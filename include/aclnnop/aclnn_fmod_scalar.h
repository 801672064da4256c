/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_fmod_scalar.h - aclnn: C remainder by a scalar.
 *
 * Two-stage functions (aclnn/aclnn_base.h): XxxGetWorkspaceSize builds the executor and
 * says the workspace, Xxx launches it on a stream. Tensors may be any strided views; a NULL
 * required argument is ACLNN_ERR_PARAM_NULLPTR, bad shapes, types or values
 * ACLNN_ERR_PARAM_INVALID, each with a message (aclGetRecentErrMsg).
 */
#ifndef VNPU_ACLNNOP_ACLNN_FMOD_SCALAR_H
#define VNPU_ACLNNOP_ACLNN_FMOD_SCALAR_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = fmod(self, other) (the dividend's sign), promoted as PyTorch; floats and integers. */
ACLNN_API aclnnStatus aclnnFmodScalarGetWorkspaceSize(const aclTensor *self, const aclScalar *other, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnFmodScalar(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/* the same in place. */
ACLNN_API aclnnStatus aclnnInplaceFmodScalarGetWorkspaceSize(aclTensor *selfRef, const aclScalar *other, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceFmodScalar(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_FMOD_SCALAR_H */
