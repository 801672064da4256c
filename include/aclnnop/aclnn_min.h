/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_min.h - aclnn the minimum of a tensor (libopapi.so):
 * aclnnMin.
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_MIN_H
#define VNPU_ACLNNOP_ACLNN_MIN_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The minimum of every element of self into a zero-rank out of self's type; NaN
 * propagates. self: fp32, fp16, bf16, fp64, the integer types, bool; not empty. */
ACLNN_API aclnnStatus aclnnMinGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
					       aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnMin(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
			       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_MIN_H */
