/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_reciprocal.h - aclnn: 1 / self.
 *
 * Two-stage functions (aclnn/aclnn_base.h): XxxGetWorkspaceSize builds the executor and
 * says the workspace, Xxx launches it on a stream. Tensors may be any strided views; a NULL
 * required argument is ACLNN_ERR_PARAM_NULLPTR, bad shapes, types or values
 * ACLNN_ERR_PARAM_INVALID, each with a message (aclGetRecentErrMsg).
 */
#ifndef VNPU_ACLNNOP_ACLNN_RECIPROCAL_H
#define VNPU_ACLNNOP_ACLNN_RECIPROCAL_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out = 1 / self; floats (fp32, fp16, bf16, fp64); integer and bool inputs compute in fp32
 * (PyTorch).
 */
ACLNN_API aclnnStatus aclnnReciprocalGetWorkspaceSize(const aclTensor *self, aclTensor *out,
                                                      uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnReciprocal(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                      aclrtStream stream);

/* selfRef = 1 / selfRef. */
ACLNN_API aclnnStatus aclnnInplaceReciprocalGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize,
                                                             aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceReciprocal(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_RECIPROCAL_H */
