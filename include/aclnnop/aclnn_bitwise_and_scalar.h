/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_bitwise_and_scalar.h - aclnn: bitwise and of a tensor and a scalar (libopapi.so).
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_BITWISE_AND_SCALAR_H
#define VNPU_ACLNNOP_ACLNN_BITWISE_AND_SCALAR_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out = self & other (a host scalar), in the promoted type of self and other (int8..int64,
 * uint8..uint64 or bool; on bool: logical and); out has self's shape.
 */
ACLNN_API aclnnStatus aclnnBitwiseAndScalarGetWorkspaceSize(const aclTensor *self,
                                                            const aclScalar *other, aclTensor *out,
                                                            uint64_t *workspaceSize,
                                                            aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnBitwiseAndScalar(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                            aclrtStream stream);

/* selfRef = selfRef & other. */
ACLNN_API aclnnStatus aclnnInplaceBitwiseAndScalarGetWorkspaceSize(const aclTensor *selfRef,
                                                                   const aclScalar *other,
                                                                   uint64_t *workspaceSize,
                                                                   aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceBitwiseAndScalar(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_BITWISE_AND_SCALAR_H */
