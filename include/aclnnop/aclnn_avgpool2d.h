/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_avgpool2d.h - aclnnAvgPool2d: 2-D average pooling.
 */
#ifndef VNPU_ACLNNOP_ACLNN_AVGPOOL2D_H
#define VNPU_ACLNNOP_ACLNN_AVGPOOL2D_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * PyTorch's avg_pool2d over self [N, C, H, W] or [C, H, W]: kernelSize, strides
 * (empty: the kernel) and paddings (at most half the kernel) have 1 or 2 values. The
 * divisor is divisorOverride when not 0, else the window's positions inside the
 * padded input (countIncludePad) or inside the input. cubeMathType (0 .. 4) is
 * accepted and changes nothing. Types fp32, fp16, bf16.
 */
ACLNN_API aclnnStatus aclnnAvgPool2dGetWorkspaceSize(const aclTensor *self,
		const aclIntArray *kernelSize, const aclIntArray *strides, const aclIntArray *paddings,
		const bool ceilMode, const bool countIncludePad, const int64_t divisorOverride,
		const int8_t cubeMathType, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnAvgPool2d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
		aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_AVGPOOL2D_H */
