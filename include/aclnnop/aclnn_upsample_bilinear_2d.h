/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_upsample_bilinear_2d.h - aclnnUpsampleBilinear2d: bilinear resize of an NCHW image.
 */
#ifndef VNPU_ACLNNOP_ACLNN_UPSAMPLE_BILINEAR_2D_H
#define VNPU_ACLNNOP_ACLNN_UPSAMPLE_BILINEAR_2D_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out [N, C, outputSize[0], outputSize[1]] interpolates self [N, C, H, W]
 * bilinearly (PyTorch's upsample_bilinear2d): alignCorners maps the corner pixels
 * onto each other; else pixel centres, source (o + 0.5) / scale - 0.5 with scale
 * scalesH / scalesW when positive, else the size ratio. Types fp32, fp16, bf16.
 */
ACLNN_API aclnnStatus aclnnUpsampleBilinear2dGetWorkspaceSize(const aclTensor *self, const aclIntArray *outputSize,
		const bool alignCorners, const double scalesH, const double scalesW, aclTensor *out,
		uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnUpsampleBilinear2d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
		aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_UPSAMPLE_BILINEAR_2D_H */
