/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_batch_matmul.h - aclnnBatchMatMul: batched matrix products.
 */
#ifndef VNPU_ACLNNOP_ACLNN_BATCH_MATMUL_H
#define VNPU_ACLNNOP_ACLNN_BATCH_MATMUL_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out [b, n, p] = self [b, n, m] @ mat2 [b, m, p]; both 3-D, equal batches (no
 * broadcasting: aclnnMatmul broadcasts). Types and cubeMathType as aclnnMatmul's.
 */
ACLNN_API aclnnStatus aclnnBatchMatMulGetWorkspaceSize(const aclTensor *self, const aclTensor *mat2,
		aclTensor *out, int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnBatchMatMul(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
		aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_BATCH_MATMUL_H */
