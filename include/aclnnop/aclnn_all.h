/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_all.h - aclnn logical and over dimensions (libopapi.so):
 * aclnnAll.
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_ALL_H
#define VNPU_ACLNNOP_ACLNN_ALL_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Whether every element of self over dim (empty: every dimension) is nonzero. self:
 * any type; out: bool (or any type, 0/1). */
ACLNN_API aclnnStatus aclnnAllGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool keepdim,
					       aclTensor *out, uint64_t *workspaceSize,
					       aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnAll(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
			       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_ALL_H */
