/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_addmm.h - aclnnAddmm, aclnnInplaceAddmm: beta self + alpha mat1 @ mat2.
 */
#ifndef VNPU_ACLNNOP_ACLNN_ADDMM_H
#define VNPU_ACLNNOP_ACLNN_ADDMM_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out [n, p] = beta * self + alpha * (mat1 [n, m] @ mat2 [m, p]); self broadcasts to
 * [n, p] and is not read when beta is 0. Types fp32, fp16, bf16 (self's type joins
 * the product's); cubeMathType as aclnnMatmul's.
 */
ACLNN_API aclnnStatus aclnnAddmmGetWorkspaceSize(const aclTensor *self, const aclTensor *mat1,
		const aclTensor *mat2, const aclScalar *beta, const aclScalar *alpha, aclTensor *out,
		int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnAddmm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
		aclrtStream stream);

/*
 * selfRef [n, p] = beta * selfRef + alpha * (mat1 @ mat2), in place.
 */
ACLNN_API aclnnStatus aclnnInplaceAddmmGetWorkspaceSize(const aclTensor *selfRef,
		const aclTensor *mat1, const aclTensor *mat2, const aclScalar *beta, const aclScalar *alpha,
		int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceAddmm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
		aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_ADDMM_H */
