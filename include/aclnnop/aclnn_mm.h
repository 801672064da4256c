/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_mm.h - aclnnMm: the product of two matrices.
 */
#ifndef VNPU_ACLNNOP_ACLNN_MM_H
#define VNPU_ACLNNOP_ACLNN_MM_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out [n, p] = self [n, m] @ mat2 [m, p]; both 2-D. Types and cubeMathType as
 * aclnnMatmul's.
 */
ACLNN_API aclnnStatus aclnnMmGetWorkspaceSize(const aclTensor *self, const aclTensor *mat2,
		aclTensor *out, int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnMm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
		aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_MM_H */
