/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_gather.h - aclnn gathering along a dimension (libopapi.so):
 * aclnnGather.
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_GATHER_H
#define VNPU_ACLNNOP_ACLNN_GATHER_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out[i][j][k] = self[index[i][j][k]][j][k] for dim 0 (and so on): index (int32 or
 * int64) has self's rank and is no larger except along dim; out has index's shape.
 * Any type. */
ACLNN_API aclnnStatus aclnnGatherGetWorkspaceSize(const aclTensor *self, int64_t dim, const aclTensor *index,
						  aclTensor *out, uint64_t *workspaceSize,
						  aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnGather(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
				  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_GATHER_H */
