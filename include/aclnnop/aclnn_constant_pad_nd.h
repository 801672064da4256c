/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_constant_pad_nd.h - aclnn constant padding (libopapi.so):
 * aclnnConstantPadNd.
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_CONSTANT_PAD_ND_H
#define VNPU_ACLNNOP_ACLNN_CONSTANT_PAD_ND_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* self padded with value: pad holds (before, after) pairs from the last dimension
 * backwards, negative pads crop. Any type. */
ACLNN_API aclnnStatus aclnnConstantPadNdGetWorkspaceSize(const aclTensor *self, const aclIntArray *pad,
							 const aclScalar *value, aclTensor *out,
							 uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnConstantPadNd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
					 aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_CONSTANT_PAD_ND_H */
