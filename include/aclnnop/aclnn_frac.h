/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_frac.h - aclnn: fractional part.
 *
 * Two-stage functions (aclnn/aclnn_base.h): XxxGetWorkspaceSize builds the executor and
 * says the workspace, Xxx launches it on a stream. Tensors may be any strided views; a NULL
 * required argument is ACLNN_ERR_PARAM_NULLPTR, bad shapes, types or values
 * ACLNN_ERR_PARAM_INVALID, each with a message (aclGetRecentErrMsg).
 */
#ifndef VNPU_ACLNNOP_ACLNN_FRAC_H
#define VNPU_ACLNNOP_ACLNN_FRAC_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = self - trunc(self), the dividend's sign; floats (fp32, fp16, bf16, fp64). */
ACLNN_API aclnnStatus aclnnFracGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnFrac(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/* the same in place. */
ACLNN_API aclnnStatus aclnnInplaceFracGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceFrac(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_FRAC_H */
