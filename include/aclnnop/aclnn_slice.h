/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_slice.h - aclnn strided slices (libopapi.so):
 * aclnnSlice.
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_SLICE_H
#define VNPU_ACLNNOP_ACLNN_SLICE_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* self[..., start:end:step, ...] along dim (start and end negative from the end,
 * clamped to the dimension; step > 0). Any type. */
ACLNN_API aclnnStatus aclnnSliceGetWorkspaceSize(const aclTensor *self, int64_t dim, int64_t start,
						 int64_t end, int64_t step, aclTensor *out,
						 uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSlice(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
				 aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_SLICE_H */
