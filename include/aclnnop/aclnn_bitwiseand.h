/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_bitwiseand.h - aclnn: bitwise and, the TensorOut forms (libopapi.so).
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_BITWISEAND_H
#define VNPU_ACLNNOP_ACLNN_BITWISEAND_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The same as aclnnBitwiseAndTensor: out = self & other, broadcast. */
ACLNN_API aclnnStatus aclnnBitwiseAndTensorOutGetWorkspaceSize(const aclTensor *self,
                                                               const aclTensor *other,
                                                               aclTensor *out,
                                                               uint64_t *workspaceSize,
                                                               aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnBitwiseAndTensorOut(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                               aclrtStream stream);

/* self = self & other (the same as aclnnInplaceBitwiseAndTensor). */
ACLNN_API aclnnStatus aclnnInplaceBitwiseAndTensorOutGetWorkspaceSize(const aclTensor *self,
                                                                      const aclTensor *other,
                                                                      uint64_t *workspaceSize,
                                                                      aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceBitwiseAndTensorOut(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                      aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_BITWISEAND_H */
