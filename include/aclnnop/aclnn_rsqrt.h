/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_rsqrt.h - aclnn: 1 / sqrt(self).
 *
 * Two-stage functions (aclnn/aclnn_base.h): XxxGetWorkspaceSize builds the executor and
 * says the workspace, Xxx launches it on a stream. Tensors may be any strided views; a NULL
 * required argument is ACLNN_ERR_PARAM_NULLPTR, bad shapes, types or values
 * ACLNN_ERR_PARAM_INVALID, each with a message (aclGetRecentErrMsg).
 */
#ifndef VNPU_ACLNNOP_ACLNN_RSQRT_H
#define VNPU_ACLNNOP_ACLNN_RSQRT_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out = 1 / sqrt(self); floats (fp32, fp16, bf16, fp64); integer and bool inputs compute in fp32
 * (PyTorch).
 */
ACLNN_API aclnnStatus aclnnRsqrtGetWorkspaceSize(const aclTensor *self, aclTensor *out,
                                                 uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnRsqrt(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                 aclrtStream stream);

/* selfRef = 1 / sqrt(selfRef). */
ACLNN_API aclnnStatus aclnnInplaceRsqrtGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize,
                                                        aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceRsqrt(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                        aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_RSQRT_H */
