/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_adaptive_max_pool2d.h - aclnnAdaptiveMaxPool2d: adaptive 2-D max pooling.
 */
#ifndef VNPU_ACLNNOP_ACLNN_ADAPTIVE_MAX_POOL2D_H
#define VNPU_ACLNNOP_ACLNN_ADAPTIVE_MAX_POOL2D_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The maximum of each adaptive bin (as aclnnAdaptiveAvgPool2d's) into outputOut,
 * its position within the H x W plane into indicesOut (int64 or int32). Types fp32,
 * fp16, bf16.
 */
ACLNN_API aclnnStatus aclnnAdaptiveMaxPool2dGetWorkspaceSize(const aclTensor *self,
		const aclIntArray *outputSize, aclTensor *outputOut, aclTensor *indicesOut,
		uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnAdaptiveMaxPool2d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
		aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_ADAPTIVE_MAX_POOL2D_H */
