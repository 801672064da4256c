/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_hardtanh.h - aclnn: hard tanh (a clamp).
 *
 * Two-stage functions (aclnn/aclnn_base.h): XxxGetWorkspaceSize builds the executor and
 * says the workspace, Xxx launches it on a stream. Tensors may be any strided views; a NULL
 * required argument is ACLNN_ERR_PARAM_NULLPTR, bad shapes, types or values
 * ACLNN_ERR_PARAM_INVALID, each with a message (aclGetRecentErrMsg).
 */
#ifndef VNPU_ACLNNOP_ACLNN_HARDTANH_H
#define VNPU_ACLNNOP_ACLNN_HARDTANH_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = min(max(self, clipValueMin), clipValueMax) (a min above the max gives the max); floats and integers, promoted with the bounds. */
ACLNN_API aclnnStatus aclnnHardtanhGetWorkspaceSize(const aclTensor *self, const aclScalar *clipValueMin, const aclScalar *clipValueMax, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnHardtanh(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/* the same in place. */
ACLNN_API aclnnStatus aclnnInplaceHardtanhGetWorkspaceSize(aclTensor *selfRef, const aclScalar *clipValueMin, const aclScalar *clipValueMax, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceHardtanh(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_HARDTANH_H */
