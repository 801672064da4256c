/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_embedding.h - aclnn embedding lookups (libopapi.so):
 * aclnnEmbedding.
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_EMBEDDING_H
#define VNPU_ACLNNOP_ACLNN_EMBEDDING_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out[i..., :] = weight[indices[i...], :] for a 2-D weight and int32 or int64
 * indices. Any type. */
ACLNN_API aclnnStatus aclnnEmbeddingGetWorkspaceSize(const aclTensor *weight, const aclTensor *indices,
						     const aclTensor *out, uint64_t *workspaceSize,
						     aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnEmbedding(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
				     aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_EMBEDDING_H */
