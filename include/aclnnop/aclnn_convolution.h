/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_convolution.h - aclnnConvolution: 1-D, 2-D and 3-D convolutions and their transposes.
 */
#ifndef VNPU_ACLNNOP_ACLNN_CONVOLUTION_H
#define VNPU_ACLNNOP_ACLNN_CONVOLUTION_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * PyTorch's convolution: input [N, Cin, L], [N, Cin, H, W] or [N, Cin, D, H, W];
 * weight [Cout, Cin / groups, k...] (transposed: [Cin, Cout / groups, k...]); bias
 * NULL or [Cout]. stride, padding (both sides of an axis), dilation and
 * outputPadding (transposed only; NULL: 0) have one value per spatial axis or one
 * for all. output's shape is the convolution's. Types fp32, fp16, bf16 (input and
 * weight of one type, or fp16 with fp32); output may be of another float type.
 * cubeMathType (0 .. 4) is accepted and changes nothing (full precision).
 */
ACLNN_API aclnnStatus aclnnConvolutionGetWorkspaceSize(const aclTensor *input,
		const aclTensor *weight, const aclTensor *bias, const aclIntArray *stride,
		const aclIntArray *padding, const aclIntArray *dilation, bool transposed,
		const aclIntArray *outputPadding, int64_t groups, aclTensor *output, int8_t cubeMathType,
		uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnConvolution(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
		aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_CONVOLUTION_H */
