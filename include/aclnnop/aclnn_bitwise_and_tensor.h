/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_bitwise_and_tensor.h - aclnn: bitwise and of two tensors (libopapi.so).
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_BITWISE_AND_TENSOR_H
#define VNPU_ACLNNOP_ACLNN_BITWISE_AND_TENSOR_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out = self & other, broadcast, in the promoted type of self and other (int8..int64,
 * uint8..uint64 or bool; on bool: logical and); out of that type or any it converts to.
 */
ACLNN_API aclnnStatus aclnnBitwiseAndTensorGetWorkspaceSize(const aclTensor *self,
                                                            const aclTensor *other, aclTensor *out,
                                                            uint64_t *workspaceSize,
                                                            aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnBitwiseAndTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                            aclrtStream stream);

/* selfRef = selfRef & other; other broadcasts to selfRef's shape. */
ACLNN_API aclnnStatus aclnnInplaceBitwiseAndTensorGetWorkspaceSize(const aclTensor *selfRef,
                                                                   const aclTensor *other,
                                                                   uint64_t *workspaceSize,
                                                                   aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceBitwiseAndTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_BITWISE_AND_TENSOR_H */
