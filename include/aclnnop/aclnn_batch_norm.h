/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_batch_norm.h - aclnnBatchNorm: batch normalisation, inference and training.
 */
#ifndef VNPU_ACLNNOP_ACLNN_BATCH_NORM_H
#define VNPU_ACLNNOP_ACLNN_BATCH_NORM_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * output = (input - mean) / sqrt(var + eps) * weight + bias per channel (input's
 * dimension 1; input of rank 2 to 8). Inference: mean and var are runningMean and
 * runningVar (required). Training: the batch's mean and (biased) variance, written to
 * saveMean and saveInvstd (1 / sqrt(var + eps)) when not NULL; runningMean and
 * runningVar, when not NULL, become (1 - momentum) * running + momentum * batch (the
 * variance unbiased), in place. weight, bias: NULL (ones, zeros) or [C]. Types fp32,
 * fp16, bf16 (statistics in fp32).
 */
ACLNN_API aclnnStatus aclnnBatchNormGetWorkspaceSize(const aclTensor *input,
		const aclTensor *weight, const aclTensor *bias, aclTensor *runningMean, aclTensor *runningVar,
		bool training, double momentum, double eps, aclTensor *output, aclTensor *saveMean,
		aclTensor *saveInvstd, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnBatchNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
		aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_BATCH_NORM_H */
