/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_upsample_nearest_2d.h - aclnnUpsampleNearest2d: nearest-neighbour resize of an NCHW image.
 */
#ifndef VNPU_ACLNNOP_ACLNN_UPSAMPLE_NEAREST_2D_H
#define VNPU_ACLNNOP_ACLNN_UPSAMPLE_NEAREST_2D_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out [N, C, outputSize[0], outputSize[1]] takes self [N, C, H, W] at
 * (floor(h * H / oh), floor(w * W / ow)) (PyTorch's nearest). Types fp32, fp16,
 * bf16, fp64, uint8.
 */
ACLNN_API aclnnStatus aclnnUpsampleNearest2dGetWorkspaceSize(const aclTensor *self, const aclIntArray *outputSize,
		aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnUpsampleNearest2d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
		aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_UPSAMPLE_NEAREST_2D_H */
