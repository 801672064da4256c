/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_roll.h - aclnn roll (libopapi.so): aclnnRoll.
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_ROLL_H
#define VNPU_ACLNNOP_ACLNN_ROLL_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* x rotated by shifts[i] along dims[i] (elements leaving one end enter the other); empty dims:
 * x flattened, rotated by shifts[0], in x's shape. Any type; out: x's shape and type. */
ACLNN_API aclnnStatus aclnnRollGetWorkspaceSize(const aclTensor *x, const aclIntArray *shifts, const aclIntArray *dims, aclTensor *out, uint64_t *workspaceSize,
	aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnRoll(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
	aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_ROLL_H */
