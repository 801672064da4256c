/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_threshold.h - aclnn: threshold.
 *
 * Two-stage functions (aclnn/aclnn_base.h): XxxGetWorkspaceSize builds the executor and
 * says the workspace, Xxx launches it on a stream. Tensors may be any strided views; a NULL
 * required argument is ACLNN_ERR_PARAM_NULLPTR, bad shapes, types or values
 * ACLNN_ERR_PARAM_INVALID, each with a message (aclGetRecentErrMsg).
 */
#ifndef VNPU_ACLNNOP_ACLNN_THRESHOLD_H
#define VNPU_ACLNNOP_ACLNN_THRESHOLD_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = self > threshold ? self : value, in self's type; floats and integers. */
ACLNN_API aclnnStatus aclnnThresholdGetWorkspaceSize(const aclTensor *self, const aclScalar *threshold, const aclScalar *value, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnThreshold(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/* the same in place. */
ACLNN_API aclnnStatus aclnnInplaceThresholdGetWorkspaceSize(aclTensor *selfRef, const aclScalar *threshold, const aclScalar *value, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceThreshold(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_THRESHOLD_H */
