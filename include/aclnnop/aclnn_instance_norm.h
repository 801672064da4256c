/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_instance_norm.h - aclnnInstanceNorm: each (sample, channel) normalised over its positions.
 */
#ifndef VNPU_ACLNNOP_ACLNN_INSTANCE_NORM_H
#define VNPU_ACLNNOP_ACLNN_INSTANCE_NORM_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * y = (x - mean) / sqrt(variance + eps) * gamma + beta, the statistics of each
 * (n, c) over x's spatial axes; x of rank >= 3 laid out as dataFormat says ("NCHW",
 * "NHWC", "NCDHW", "NDHWC"); gamma, beta [C]. mean and variance (biased) have x's
 * shape with the spatial axes 1. Types fp32, fp16, bf16 (gamma and beta x's type or
 * fp32).
 */
ACLNN_API aclnnStatus aclnnInstanceNormGetWorkspaceSize(const aclTensor *x, const aclTensor *gamma,
		const aclTensor *beta, const char *dataFormat, double eps, aclTensor *y, aclTensor *mean,
		aclTensor *variance, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInstanceNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
		aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_INSTANCE_NORM_H */
