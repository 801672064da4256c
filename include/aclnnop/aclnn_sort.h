/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_sort.h - aclnn sorting along a dimension (libopapi.so):
 * aclnnSort.
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_SORT_H
#define VNPU_ACLNNOP_ACLNN_SORT_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* self sorted along dim (ascending unless descending), with the indices (int64 or
 * int32). Always stable; NaN sorts as the largest value. self: fp32, fp16, bf16,
 * fp64, the integer types. */
ACLNN_API aclnnStatus aclnnSortGetWorkspaceSize(const aclTensor *self, bool stable, int64_t dim,
						bool descending, aclTensor *valuesOut, aclTensor *indicesOut,
						uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSort(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
				aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_SORT_H */
