/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_group_norm.h - aclnnGroupNorm: group normalisation.
 */
#ifndef VNPU_ACLNNOP_ACLNN_GROUP_NORM_H
#define VNPU_ACLNNOP_ACLNN_GROUP_NORM_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * self [N, C, ...] (HxW elements after C) normalised per sample and group of C /
 * group channels, then out = y * gamma[c] + beta[c] (NULL: ones, zeros; [C]).
 * meanOut and rstdOut (1 / sqrt(var + eps)), when not NULL, are [N, group]. Types
 * fp32, fp16, bf16 (statistics in fp32).
 */
ACLNN_API aclnnStatus aclnnGroupNormGetWorkspaceSize(const aclTensor *self, const aclTensor *gamma,
		const aclTensor *beta, int64_t N, int64_t C, int64_t HxW, int64_t group, double eps,
		aclTensor *out, aclTensor *meanOut, aclTensor *rstdOut, uint64_t *workspaceSize,
		aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnGroupNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
		aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_GROUP_NORM_H */
