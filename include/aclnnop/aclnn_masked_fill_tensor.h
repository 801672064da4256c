/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_masked_fill_tensor.h - aclnn filling where a mask is set, from a tensor (libopapi.so):
 * aclnnInplaceMaskedFillTensor.
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_MASKED_FILL_TENSOR_H
#define VNPU_ACLNNOP_ACLNN_MASKED_FILL_TENSOR_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The same with value a one-element tensor (any type, converted to selfRef's). */
ACLNN_API aclnnStatus aclnnInplaceMaskedFillTensorGetWorkspaceSize(aclTensor *selfRef, const aclTensor *mask,
								   const aclTensor *value,
								   uint64_t *workspaceSize,
								   aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceMaskedFillTensor(void *workspace, uint64_t workspaceSize,
						   aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_MASKED_FILL_TENSOR_H */
