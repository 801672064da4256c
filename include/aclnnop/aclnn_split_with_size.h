/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_split_with_size.h - aclnn splitting into given sizes (libopapi.so):
 * aclnnSplitWithSize.
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_SPLIT_WITH_SIZE_H
#define VNPU_ACLNNOP_ACLNN_SPLIT_WITH_SIZE_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* self cut along dim into parts of the sizes splitSize (their sum is the size of
 * dim), one per tensor of out. Any type. */
ACLNN_API aclnnStatus aclnnSplitWithSizeGetWorkspaceSize(const aclTensor *self, const aclIntArray *splitSize,
							 int64_t dim, aclTensorList *out,
							 uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSplitWithSize(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
					 aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_SPLIT_WITH_SIZE_H */
