/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_max_pool2d_with_indices.h - aclnnMaxPool2dWithIndices: 2-D max pooling with indices.
 */
#ifndef VNPU_ACLNNOP_ACLNN_MAX_POOL2D_WITH_INDICES_H
#define VNPU_ACLNNOP_ACLNN_MAX_POOL2D_WITH_INDICES_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * PyTorch's max_pool2d over self [N, C, H, W] or [C, H, W]: kernelSize, stride
 * (empty: the kernel), padding (both sides, at most half the kernel) and dilation
 * have 1 or 2 values; ceilMode rounds the output size up (a window must start inside
 * the input or its front pad). indices (int64 or int32) are the maxima's positions
 * within each H x W plane. Types fp32, fp16, bf16.
 */
ACLNN_API aclnnStatus aclnnMaxPool2dWithIndicesGetWorkspaceSize(const aclTensor *self,
		const aclIntArray *kernelSize, const aclIntArray *stride, const aclIntArray *padding,
		const aclIntArray *dilation, bool ceilMode, aclTensor *out, aclTensor *indices,
		uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnMaxPool2dWithIndices(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
		aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_MAX_POOL2D_WITH_INDICES_H */
