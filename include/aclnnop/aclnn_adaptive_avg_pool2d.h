/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_adaptive_avg_pool2d.h - aclnnAdaptiveAvgPool2d: adaptive 2-D average pooling.
 */
#ifndef VNPU_ACLNNOP_ACLNN_ADAPTIVE_AVG_POOL2D_H
#define VNPU_ACLNNOP_ACLNN_ADAPTIVE_AVG_POOL2D_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out [..., oH, oW] (outputSize: 2 values, or 1 for both): the mean of each of
 * PyTorch's adaptive bins of self [N, C, H, W] or [C, H, W] (rows floor(i H / oH) to
 * ceil((i + 1) H / oH), columns alike). Types fp32, fp16, bf16.
 */
ACLNN_API aclnnStatus aclnnAdaptiveAvgPool2dGetWorkspaceSize(const aclTensor *self,
		const aclIntArray *outputSize, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnAdaptiveAvgPool2d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
		aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_ADAPTIVE_AVG_POOL2D_H */
