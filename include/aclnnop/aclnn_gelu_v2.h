/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_gelu_v2.h - aclnnGeluV2: GELU in its erf or tanh form.
 */
#ifndef VNPU_ACLNNOP_ACLNN_GELU_V2_H
#define VNPU_ACLNNOP_ACLNN_GELU_V2_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * y = x / 2 (1 + erf(x / sqrt 2)) (approximate 0) or the tanh approximation
 * x / 2 (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))) (approximate 1). Types fp32,
 * fp16, bf16.
 */
ACLNN_API aclnnStatus aclnnGeluV2GetWorkspaceSize(const aclTensor *x, int64_t approximate,
		aclTensor *y, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnGeluV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
		aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_GELU_V2_H */
