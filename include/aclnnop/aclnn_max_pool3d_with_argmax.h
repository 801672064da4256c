/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_max_pool3d_with_argmax.h - aclnn: 3-D max pooling with the
 * positions of the maxima (libopapi.so).
 *
 * Two stages: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_MAX_POOL3D_WITH_ARGMAX_H
#define VNPU_ACLNNOP_ACLNN_MAX_POOL3D_WITH_ARGMAX_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out = the maximum of each window of self ([N, C, D, H, W] or [C, D, H, W]; fp32, fp16,
 * bf16), indices = its position, flat within each D x H x W plane (int32 or int64):
 * PyTorch's max_pool3d with return_indices. kernelSize, padding (at most half the kernel)
 * and dilation (NULL: 1) of 1 or 3 values, stride of 0 (the kernel), 1 or 3.
 */
ACLNN_API aclnnStatus aclnnMaxPool3dWithArgmaxGetWorkspaceSize(const aclTensor *self, const aclIntArray *kernelSize,
                                                               const aclIntArray *stride,
                                                               const aclIntArray *padding,
                                                               const aclIntArray *dilation, bool ceilMode,
                                                               aclTensor *out, aclTensor *indices,
                                                               uint64_t *workspaceSize,
                                                               aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnMaxPool3dWithArgmax(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                               aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_MAX_POOL3D_WITH_ARGMAX_H */
