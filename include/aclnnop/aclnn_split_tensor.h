/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_split_tensor.h - aclnn splitting into equal parts (libopapi.so):
 * aclnnSplitTensor.
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_SPLIT_TENSOR_H
#define VNPU_ACLNNOP_ACLNN_SPLIT_TENSOR_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* self cut along dim into parts of splitSections (the last may be smaller): out has
 * ceil(size / splitSections) tensors. Any type. */
ACLNN_API aclnnStatus aclnnSplitTensorGetWorkspaceSize(const aclTensor *self, uint64_t splitSections,
						       int64_t dim, aclTensorList *out,
						       uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSplitTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
				       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_SPLIT_TENSOR_H */
