/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_masked_fill_scalar.h - aclnn filling where a mask is set (libopapi.so):
 * aclnnInplaceMaskedFillScalar.
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_MASKED_FILL_SCALAR_H
#define VNPU_ACLNNOP_ACLNN_MASKED_FILL_SCALAR_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* selfRef[i] = value wherever mask (bool or uint8, broadcast to selfRef) is set. Any
 * type. */
ACLNN_API aclnnStatus aclnnInplaceMaskedFillScalarGetWorkspaceSize(aclTensor *selfRef, const aclTensor *mask,
								   const aclScalar *value,
								   uint64_t *workspaceSize,
								   aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceMaskedFillScalar(void *workspace, uint64_t workspaceSize,
						   aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_MASKED_FILL_SCALAR_H */
