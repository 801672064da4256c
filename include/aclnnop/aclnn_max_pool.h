/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_max_pool.h - aclnnMaxPool: 2-D max pooling with ONNX-style arguments.
 */
#ifndef VNPU_ACLNNOP_ACLNN_MAX_POOL_H
#define VNPU_ACLNNOP_ACLNN_MAX_POOL_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Max pooling of self [N, C, H, W] or [C, H, W]: kernelShape (1 or 2 values),
 * strides (0 to 2; empty: 1), autoPad 0 (NOTSET) only, pads (0, 1, 2 or 4 values:
 * top, left, bottom, right; an axis's two at most its kernel), dilations (0, 1, 2 or
 * 4 values), ceilMode (not 0: round up). Types fp32, fp16, bf16, int8, uint8, int16,
 * uint16, int32, int64.
 */
ACLNN_API aclnnStatus aclnnMaxPoolGetWorkspaceSize(const aclTensor *self,
		const aclIntArray *kernelShape, const aclIntArray *strides, const int64_t autoPad,
		const aclIntArray *pads, const aclIntArray *dilations, const int64_t ceilMode, aclTensor *out,
		uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnMaxPool(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
		aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_MAX_POOL_H */
