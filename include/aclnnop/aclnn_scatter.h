/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_scatter.h - aclnn scattering along a dimension (libopapi.so):
 * aclnnScatter, aclnnScatterValue, aclnnInplaceScatter, aclnnInplaceScatterValue.
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_SCATTER_H
#define VNPU_ACLNNOP_ACLNN_SCATTER_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = self with src[i][j][k] put at [index[i][j][k]][j][k] for dim 0 (and so on):
 * replaced (reduce 0), added (1) or multiplied (2), in index order. index (int32 or
 * int64) is no larger than src, nor than self except along dim. Any type. */
ACLNN_API aclnnStatus aclnnScatterGetWorkspaceSize(const aclTensor *self, int64_t dim, const aclTensor *index,
						   const aclTensor *src, int64_t reduce, aclTensor *out,
						   uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnScatter(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
				   aclrtStream stream);

/* The same with every update the scalar value. */
ACLNN_API aclnnStatus aclnnScatterValueGetWorkspaceSize(const aclTensor *self, int64_t dim,
							const aclTensor *index, const aclScalar *value,
							int64_t reduce, aclTensor *out,
							uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnScatterValue(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
					aclrtStream stream);

/* aclnnScatter into selfRef itself. */
ACLNN_API aclnnStatus aclnnInplaceScatterGetWorkspaceSize(aclTensor *selfRef, int64_t dim,
							  const aclTensor *index, const aclTensor *src,
							  int64_t reduce, uint64_t *workspaceSize,
							  aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceScatter(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
					  aclrtStream stream);

/* aclnnScatterValue into selfRef itself. */
ACLNN_API aclnnStatus aclnnInplaceScatterValueGetWorkspaceSize(aclTensor *selfRef, int64_t dim,
							       const aclTensor *index, const aclScalar *value,
							       int64_t reduce, uint64_t *workspaceSize,
							       aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceScatterValue(void *workspace, uint64_t workspaceSize,
					       aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_SCATTER_H */
