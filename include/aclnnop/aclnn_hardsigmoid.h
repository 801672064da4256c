/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_hardsigmoid.h - aclnn: max(0, min(1, self / 6 + 1/2)).
 *
 * Two-stage functions (aclnn/aclnn_base.h): XxxGetWorkspaceSize builds the executor and
 * says the workspace, Xxx launches it on a stream. Tensors may be any strided views; a NULL
 * required argument is ACLNN_ERR_PARAM_NULLPTR, bad shapes, types or values
 * ACLNN_ERR_PARAM_INVALID, each with a message (aclGetRecentErrMsg).
 */
#ifndef VNPU_ACLNNOP_ACLNN_HARDSIGMOID_H
#define VNPU_ACLNNOP_ACLNN_HARDSIGMOID_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = max(0, min(1, self / 6 + 1/2)); floats (fp32, fp16, bf16, fp64). */
ACLNN_API aclnnStatus aclnnHardsigmoidGetWorkspaceSize(const aclTensor *self, aclTensor *out,
                                                       uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnHardsigmoid(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                       aclrtStream stream);

/* selfRef = max(0, min(1, selfRef / 6 + 1/2)). */
ACLNN_API aclnnStatus aclnnInplaceHardsigmoidGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize,
                                                              aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceHardsigmoid(void *workspace, uint64_t workspaceSize,
                                              aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_HARDSIGMOID_H */
