/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_softmax.h - aclnnSoftmax: softmax over one dimension.
 */
#ifndef VNPU_ACLNNOP_ACLNN_SOFTMAX_H
#define VNPU_ACLNNOP_ACLNN_SOFTMAX_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out = exp(self - max) / sum(exp(self - max)) along dim (in [-rank, rank)).
 * Types fp32, fp16, bf16, fp64; out of self's shape, any float type.
 */
ACLNN_API aclnnStatus aclnnSoftmaxGetWorkspaceSize(const aclTensor *self, int64_t dim,
		aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSoftmax(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
		aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_SOFTMAX_H */
