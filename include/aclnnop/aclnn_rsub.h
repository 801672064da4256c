/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_rsub.h - aclnn: reversed subtraction.
 *
 * Two-stage functions (aclnn/aclnn_base.h): XxxGetWorkspaceSize builds the executor and
 * says the workspace, Xxx launches it on a stream. Tensors may be any strided views; a NULL
 * required argument is ACLNN_ERR_PARAM_NULLPTR, bad shapes, types or values
 * ACLNN_ERR_PARAM_INVALID, each with a message (aclGetRecentErrMsg).
 */
#ifndef VNPU_ACLNNOP_ACLNN_RSUB_H
#define VNPU_ACLNNOP_ACLNN_RSUB_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out = other - alpha * self; broadcast and promotion as aclnnAdd; floats (fp32, fp16, bf16, fp64)
 * and integers (not bool).
 */
ACLNN_API aclnnStatus aclnnRsubGetWorkspaceSize(const aclTensor *self, const aclTensor *other,
                                                const aclScalar *alpha, aclTensor *out,
                                                uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnRsub(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                aclrtStream stream);

/* out = other - alpha * self, host scalar other. */
ACLNN_API aclnnStatus aclnnRsubsGetWorkspaceSize(const aclTensor *self, const aclScalar *other,
                                                 const aclScalar *alpha, aclTensor *out,
                                                 uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnRsubs(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                 aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_RSUB_H */
