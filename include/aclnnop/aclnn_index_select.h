/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_index_select.h - aclnn selecting slices by index (libopapi.so):
 * aclnnIndexSelect.
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_INDEX_SELECT_H
#define VNPU_ACLNNOP_ACLNN_INDEX_SELECT_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The slices of self along dim named by index (1-D or a scalar, int32 or int64;
 * negative indices count from the end). Any type. */
ACLNN_API aclnnStatus aclnnIndexSelectGetWorkspaceSize(const aclTensor *self, int64_t dim,
						       const aclTensor *index, aclTensor *out,
						       uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnIndexSelect(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
				       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_INDEX_SELECT_H */
