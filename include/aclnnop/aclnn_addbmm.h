/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_addbmm.h - aclnnAddbmm, aclnnInplaceAddbmm: beta self + alpha sum of batch1[b] @ batch2[b].
 */
#ifndef VNPU_ACLNNOP_ACLNN_ADDBMM_H
#define VNPU_ACLNNOP_ACLNN_ADDBMM_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out [n, p] = beta * self + alpha * sum_b (batch1 [b, n, m] @ batch2 [b, m, p]); self
 * broadcasts to [n, p] and is not read when beta is 0. Types fp32, fp16, bf16;
 * cubeMathType as aclnnMatmul's.
 */
ACLNN_API aclnnStatus aclnnAddbmmGetWorkspaceSize(const aclTensor *self, const aclTensor *batch1,
		const aclTensor *batch2, const aclScalar *beta, const aclScalar *alpha, aclTensor *out,
		int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnAddbmm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
		aclrtStream stream);

/*
 * selfRef [n, p] = beta * selfRef + alpha * sum_b (batch1[b] @ batch2[b]), in place.
 */
ACLNN_API aclnnStatus aclnnInplaceAddbmmGetWorkspaceSize(aclTensor *selfRef, const aclTensor *batch1,
		const aclTensor *batch2, const aclScalar *beta, const aclScalar *alpha, int8_t cubeMathType,
		uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceAddbmm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
		aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_ADDBMM_H */
