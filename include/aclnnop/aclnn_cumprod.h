/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_cumprod.h - aclnn: cumulative product (libopapi.so).
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_CUMPROD_H
#define VNPU_ACLNNOP_ACLNN_CUMPROD_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The running product of input along dim (an integer scalar in [-rank, rank)), computed in
 * dtype (ACL_DT_UNDEFINED: input's type), which out must have. input: fp32, fp16, bf16, fp64,
 * the integer types (which wrap); out has input's shape.
 */
ACLNN_API aclnnStatus aclnnCumprodGetWorkspaceSize(const aclTensor *input, const aclScalar *dim,
                                                   const aclDataType dtype, aclTensor *out,
                                                   uint64_t *workspaceSize,
                                                   aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnCumprod(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                   aclrtStream stream);

/* input = its running product along dim, in its own type. */
ACLNN_API aclnnStatus aclnnInplaceCumprodGetWorkspaceSize(aclTensor *input, const aclScalar *dim,
                                                          uint64_t *workspaceSize,
                                                          aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceCumprod(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                          aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_CUMPROD_H */
