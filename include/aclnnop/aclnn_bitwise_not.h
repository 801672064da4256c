/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_bitwise_not.h - aclnn: bitwise not.
 *
 * Two-stage functions (aclnn/aclnn_base.h): XxxGetWorkspaceSize builds the executor and
 * says the workspace, Xxx launches it on a stream. Tensors may be any strided views; a NULL
 * required argument is ACLNN_ERR_PARAM_NULLPTR, bad shapes, types or values
 * ACLNN_ERR_PARAM_INVALID, each with a message (aclGetRecentErrMsg).
 */
#ifndef VNPU_ACLNNOP_ACLNN_BITWISE_NOT_H
#define VNPU_ACLNNOP_ACLNN_BITWISE_NOT_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = ~self (logical not for bool); int8, int16, int32, int64, uint8, bool. */
ACLNN_API aclnnStatus aclnnBitwiseNotGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                                      aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnBitwiseNot(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                      aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_BITWISE_NOT_H */
