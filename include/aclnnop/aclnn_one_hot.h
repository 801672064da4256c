/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_one_hot.h - aclnn one-hot encoding (libopapi.so):
 * aclnnOneHot.
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_ONE_HOT_H
#define VNPU_ACLNNOP_ACLNN_ONE_HOT_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out has a new dimension of numClasses at axis (-1: last): onValue where self's
 * element equals the position, offValue elsewhere (and for every element outside
 * [0, numClasses)). self: uint8, int32, int64; onValue, offValue: out's type (their
 * first element is used). */
ACLNN_API aclnnStatus aclnnOneHotGetWorkspaceSize(const aclTensor *self, int numClasses,
						  const aclTensor *onValue, const aclTensor *offValue,
						  int64_t axis, aclTensor *out, uint64_t *workspaceSize,
						  aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnOneHot(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
				  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_ONE_HOT_H */
