/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_minimum.h - aclnn: element-wise minimum.
 *
 * Two-stage functions (aclnn/aclnn_base.h): XxxGetWorkspaceSize builds the executor and
 * says the workspace, Xxx launches it on a stream. Tensors may be any strided views; a NULL
 * required argument is ACLNN_ERR_PARAM_NULLPTR, bad shapes, types or values
 * ACLNN_ERR_PARAM_INVALID, each with a message (aclGetRecentErrMsg).
 */
#ifndef VNPU_ACLNNOP_ACLNN_MINIMUM_H
#define VNPU_ACLNNOP_ACLNN_MINIMUM_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out = min(self, other); broadcast and promotion; NaN wins; floats (fp32, fp16, bf16, fp64) and
 * integers, bool.
 */
ACLNN_API aclnnStatus aclnnMinimumGetWorkspaceSize(const aclTensor *self, const aclTensor *other,
                                                   aclTensor *out, uint64_t *workspaceSize,
                                                   aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnMinimum(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_MINIMUM_H */
