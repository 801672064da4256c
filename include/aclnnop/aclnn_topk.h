/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_topk.h - aclnn the k largest or smallest elements (libopapi.so):
 * aclnnTopk.
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_TOPK_H
#define VNPU_ACLNNOP_ACLNN_TOPK_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The k largest (or smallest) elements of self along dim and their indices (int64 or
 * int32). vnpu always returns them sorted, equal values by index. self: fp32, fp16,
 * bf16, fp64, the integer types. */
ACLNN_API aclnnStatus aclnnTopkGetWorkspaceSize(const aclTensor *self, int64_t k, int64_t dim, bool largest,
						bool sorted, aclTensor *valuesOut, aclTensor *indicesOut,
						uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnTopk(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
				aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_TOPK_H */
