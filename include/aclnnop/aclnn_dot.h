/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_dot.h - aclnnDot: the inner product of two vectors.
 */
#ifndef VNPU_ACLNNOP_ACLNN_DOT_H
#define VNPU_ACLNNOP_ACLNN_DOT_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out (0-D) = sum_i self[i] * tensor[i]; self and tensor 1-D of one length and one
 * type (fp32, fp16, bf16; halves accumulate in fp32).
 */
ACLNN_API aclnnStatus aclnnDotGetWorkspaceSize(const aclTensor *self, const aclTensor *tensor, aclTensor *out,
		uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnDot(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
		aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_DOT_H */
