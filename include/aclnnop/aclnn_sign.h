/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_sign.h - aclnn: sign(self) (-1, 0, 1; NaN stays NaN).
 *
 * Two-stage functions (aclnn/aclnn_base.h): XxxGetWorkspaceSize builds the executor and
 * says the workspace, Xxx launches it on a stream. Tensors may be any strided views; a NULL
 * required argument is ACLNN_ERR_PARAM_NULLPTR, bad shapes, types or values
 * ACLNN_ERR_PARAM_INVALID, each with a message (aclGetRecentErrMsg).
 */
#ifndef VNPU_ACLNNOP_ACLNN_SIGN_H
#define VNPU_ACLNNOP_ACLNN_SIGN_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = sign(self) (-1, 0, 1; NaN stays NaN); floats (fp32, fp16, bf16, fp64) and integers. */
ACLNN_API aclnnStatus aclnnSignGetWorkspaceSize(const aclTensor *self, aclTensor *out,
                                                uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSign(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_SIGN_H */
