/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_gather_nd.h - aclnn N-dimensional gather (libopapi.so): aclnnGatherNd.
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_GATHER_ND_H
#define VNPU_ACLNNOP_ACLNN_GATHER_ND_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Slices of self at the index tuples of indices' last dimension: out is indices.dims[:-1] +
 * self.dims[indices.dims[-1]:]. self: any type; indices: int32, int64 (negative ones count from
 * the end when negativeIndexSupport). */
ACLNN_API aclnnStatus aclnnGatherNdGetWorkspaceSize(const aclTensor *self, const aclTensor *indices, bool negativeIndexSupport, aclTensor *out, uint64_t *workspaceSize,
	aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnGatherNd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
	aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_GATHER_ND_H */
