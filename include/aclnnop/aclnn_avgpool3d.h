/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_avgpool3d.h - aclnn: 3-D average pooling (libopapi.so).
 *
 * Two stages: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_AVGPOOL3D_H
#define VNPU_ACLNNOP_ACLNN_AVGPOOL3D_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out = the mean of each kernelSize window of self ([N, C, D, H, W] or [C, D, H, W]; fp32,
 * fp16, bf16; out of self's type), PyTorch's avg_pool3d: kernelSize and padding of 1 or 3
 * values (padding at most half the kernel), stride of 0 (the kernel), 1 or 3; ceilMode
 * rounds the output size up; countIncludePad counts the padding in the divisor;
 * divisorOverride, when not 0, is the divisor.
 */
ACLNN_API aclnnStatus aclnnAvgPool3dGetWorkspaceSize(const aclTensor *self, const aclIntArray *kernelSize,
                                                     const aclIntArray *stride, const aclIntArray *padding,
                                                     bool ceilMode, bool countIncludePad,
                                                     int64_t divisorOverride, aclTensor *out,
                                                     uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnAvgPool3d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                     aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_AVGPOOL3D_H */
