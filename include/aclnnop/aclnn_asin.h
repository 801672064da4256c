/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_asin.h - aclnn: asin(self).
 *
 * Two-stage functions (aclnn/aclnn_base.h): XxxGetWorkspaceSize builds the executor and
 * says the workspace, Xxx launches it on a stream. Tensors may be any strided views; a NULL
 * required argument is ACLNN_ERR_PARAM_NULLPTR, bad shapes, types or values
 * ACLNN_ERR_PARAM_INVALID, each with a message (aclGetRecentErrMsg).
 */
#ifndef VNPU_ACLNNOP_ACLNN_ASIN_H
#define VNPU_ACLNNOP_ACLNN_ASIN_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out = asin(self); floats (fp32, fp16, bf16, fp64); integer and bool inputs compute in fp32
 * (PyTorch).
 */
ACLNN_API aclnnStatus aclnnAsinGetWorkspaceSize(const aclTensor *self, aclTensor *out,
                                                uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnAsin(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                aclrtStream stream);

/* selfRef = asin(selfRef). */
ACLNN_API aclnnStatus aclnnInplaceAsinGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize,
                                                       aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceAsin(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_ASIN_H */
