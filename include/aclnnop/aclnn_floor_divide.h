/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_floor_divide.h - aclnn: floor division.
 *
 * Two-stage functions (aclnn/aclnn_base.h): XxxGetWorkspaceSize builds the executor and
 * says the workspace, Xxx launches it on a stream. Tensors may be any strided views; a NULL
 * required argument is ACLNN_ERR_PARAM_NULLPTR, bad shapes, types or values
 * ACLNN_ERR_PARAM_INVALID, each with a message (aclGetRecentErrMsg).
 */
#ifndef VNPU_ACLNNOP_ACLNN_FLOOR_DIVIDE_H
#define VNPU_ACLNNOP_ACLNN_FLOOR_DIVIDE_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = floor(self / other), broadcast, promoted; floats and integers (exact for integers; a zero integer divisor fails the run). */
ACLNN_API aclnnStatus aclnnFloorDivideGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnFloorDivide(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/* the same by a scalar. */
ACLNN_API aclnnStatus aclnnFloorDividesGetWorkspaceSize(const aclTensor *self, const aclScalar *other, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnFloorDivides(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/* aclnnFloorDivide in place. */
ACLNN_API aclnnStatus aclnnInplaceFloorDivideGetWorkspaceSize(aclTensor *selfRef, const aclTensor *other, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceFloorDivide(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/* aclnnFloorDivides in place. */
ACLNN_API aclnnStatus aclnnInplaceFloorDividesGetWorkspaceSize(aclTensor *selfRef, const aclScalar *other, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceFloorDivides(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_FLOOR_DIVIDE_H */
