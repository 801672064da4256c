/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_matmul.h - aclnnMatmul: the matrix product of PyTorch's matmul.
 */
#ifndef VNPU_ACLNNOP_ACLNN_MATMUL_H
#define VNPU_ACLNNOP_ACLNN_MATMUL_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out = self @ mat2 with PyTorch's matmul rules: 1-D x 1-D is a dot product (0-D),
 * a 1-D operand gains an axis of 1 that the result drops, batch axes broadcast.
 * Types fp32, fp16, bf16 (bf16 with another type is refused); out may be of another
 * float type (the result is cast). Views of any strides.
 * cubeMathType (0 KEEP_DTYPE .. 4 USE_FP32_ADD) is accepted and changes nothing:
 * vnpu computes at the type's full precision (fp32 accumulation), which each allows.
 */
ACLNN_API aclnnStatus aclnnMatmulGetWorkspaceSize(const aclTensor *self, const aclTensor *mat2,
		aclTensor *out, int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnMatmul(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
		aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_MATMUL_H */
