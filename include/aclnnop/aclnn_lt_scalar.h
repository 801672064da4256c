/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_lt_scalar.h - aclnn: comparison < with a host scalar.
 *
 * Two-stage functions (aclnn/aclnn_base.h): XxxGetWorkspaceSize builds the executor and
 * says the workspace, Xxx launches it on a stream. Tensors may be any strided views; a NULL
 * required argument is ACLNN_ERR_PARAM_NULLPTR, bad shapes, types or values
 * ACLNN_ERR_PARAM_INVALID, each with a message (aclGetRecentErrMsg).
 */
#ifndef VNPU_ACLNNOP_ACLNN_LT_SCALAR_H
#define VNPU_ACLNNOP_ACLNN_LT_SCALAR_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out = self < other (a host scalar; an integer tensor with a float scalar compares in float).
 */
ACLNN_API aclnnStatus aclnnLtScalarGetWorkspaceSize(const aclTensor *self, const aclScalar *other,
                                                    aclTensor *out, uint64_t *workspaceSize,
                                                    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnLtScalar(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                    aclrtStream stream);

/* selfRef = selfRef < other, as 1/0 in selfRef's type. */
ACLNN_API aclnnStatus aclnnInplaceLtScalarGetWorkspaceSize(const aclTensor *selfRef, const aclScalar *other,
                                                           uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceLtScalar(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                           aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_LT_SCALAR_H */
