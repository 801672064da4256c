/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_scatter_nd.h - aclnn N-dimensional scatter (libopapi.so): aclnnScatterNd.
 *
 * Two stages: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_SCATTER_ND_H
#define VNPU_ACLNNOP_ACLNN_SCATTER_ND_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A copy of data with the slices at the index tuples of indices' last dimension replaced by
 * updates (indices.dims[:-1] + data.dims[indices.dims[-1]:]). data, updates, out: one type, any;
 * indices: int32, int64. */
ACLNN_API aclnnStatus aclnnScatterNdGetWorkspaceSize(const aclTensor *data, const aclTensor *indices, const aclTensor *updates, aclTensor *out, uint64_t *workspaceSize,
	aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnScatterNd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
	aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_SCATTER_ND_H */
