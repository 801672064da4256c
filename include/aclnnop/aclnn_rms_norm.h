/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_rms_norm.h - aclnnRmsNorm: root-mean-square normalisation.
 */
#ifndef VNPU_ACLNNOP_ACLNN_RMS_NORM_H
#define VNPU_ACLNNOP_ACLNN_RMS_NORM_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * yOut = x * rstd * gamma, rstd = 1 / sqrt(mean(x^2) + epsilon) over the trailing
 * dimensions gamma's shape covers; rstdOut has x's shape with those dimensions 1.
 * Types fp32, fp16, bf16 (halves computed in fp32).
 */
ACLNN_API aclnnStatus aclnnRmsNormGetWorkspaceSize(const aclTensor *x, const aclTensor *gamma,
		double epsilon, const aclTensor *yOut, const aclTensor *rstdOut, uint64_t *workspaceSize,
		aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnRmsNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
		aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_RMS_NORM_H */
