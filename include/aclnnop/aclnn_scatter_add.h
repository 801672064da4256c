/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_scatter_add.h - aclnn scattered sums (libopapi.so):
 * aclnnScatterAdd.
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_SCATTER_ADD_H
#define VNPU_ACLNNOP_ACLNN_SCATTER_ADD_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnScatter with reduce 1: src added at the positions index names. */
ACLNN_API aclnnStatus aclnnScatterAddGetWorkspaceSize(const aclTensor *self, int64_t dim,
						      const aclTensor *index, const aclTensor *src,
						      aclTensor *out, uint64_t *workspaceSize,
						      aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnScatterAdd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
				      aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_SCATTER_ADD_H */
