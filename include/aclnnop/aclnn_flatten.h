/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_flatten.h - aclnn flatten (libopapi.so): aclnnFlatten.
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_FLATTEN_H
#define VNPU_ACLNNOP_ACLNN_FLATTEN_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* self as 2-D: [prod(dims before axis), prod(dims from axis)]; axis in [-rank, rank). Any type. */
ACLNN_API aclnnStatus aclnnFlattenGetWorkspaceSize(const aclTensor *self, int64_t axis, aclTensor *out, uint64_t *workspaceSize,
	aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnFlatten(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
	aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_FLATTEN_H */
