/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_expm1.h - aclnn: exp(x) - 1 (libopapi.so).
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_EXPM1_H
#define VNPU_ACLNNOP_ACLNN_EXPM1_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out = e^self - 1, exact near 0 where exp(self) - 1 is not. self: fp32, fp16, bf16, fp64,
 * integers and bool (computed in fp32); out: a float type.
 */
ACLNN_API aclnnStatus aclnnExpm1GetWorkspaceSize(const aclTensor *self, aclTensor *out,
                                                 uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnExpm1(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                 aclrtStream stream);

/* selfRef = e^selfRef - 1 (a float type). */
ACLNN_API aclnnStatus aclnnInplaceExpm1GetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize,
                                                        aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceExpm1(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                        aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_EXPM1_H */
