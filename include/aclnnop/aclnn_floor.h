/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_floor.h - aclnn: floor(self).
 *
 * Two-stage functions (aclnn/aclnn_base.h): XxxGetWorkspaceSize builds the executor and
 * says the workspace, Xxx launches it on a stream. Tensors may be any strided views; a NULL
 * required argument is ACLNN_ERR_PARAM_NULLPTR, bad shapes, types or values
 * ACLNN_ERR_PARAM_INVALID, each with a message (aclGetRecentErrMsg).
 */
#ifndef VNPU_ACLNNOP_ACLNN_FLOOR_H
#define VNPU_ACLNNOP_ACLNN_FLOOR_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = floor(self); floats; integers are their own result. */
ACLNN_API aclnnStatus aclnnFloorGetWorkspaceSize(const aclTensor *self, aclTensor *out,
                                                 uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnFloor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                 aclrtStream stream);

/* selfRef = floor(selfRef). */
ACLNN_API aclnnStatus aclnnInplaceFloorGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize,
                                                        aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceFloor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                        aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_FLOOR_H */
