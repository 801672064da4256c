/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_baddbmm.h - aclnnBaddbmm, aclnnInplaceBaddbmm: beta self + alpha batch1 @ batch2.
 */
#ifndef VNPU_ACLNNOP_ACLNN_BADDBMM_H
#define VNPU_ACLNNOP_ACLNN_BADDBMM_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out [b, n, p] = beta * self + alpha * (batch1 [b, n, m] @ batch2 [b, m, p]); self
 * broadcasts to [b, n, p] and is not read when beta is 0. Types fp32, fp16, bf16;
 * cubeMathType as aclnnMatmul's.
 */
ACLNN_API aclnnStatus aclnnBaddbmmGetWorkspaceSize(const aclTensor *self, const aclTensor *batch1,
		const aclTensor *batch2, const aclScalar *beta, const aclScalar *alpha, aclTensor *out,
		int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnBaddbmm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
		aclrtStream stream);

/*
 * selfRef [b, n, p] = beta * selfRef + alpha * (batch1 @ batch2), in place.
 */
ACLNN_API aclnnStatus aclnnInplaceBaddbmmGetWorkspaceSize(const aclTensor *selfRef,
		const aclTensor *batch1, const aclTensor *batch2, const aclScalar *beta, const aclScalar *alpha,
		int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceBaddbmm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
		aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_BADDBMM_H */
