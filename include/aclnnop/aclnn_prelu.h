/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_prelu.h - aclnnPrelu: the parametric ReLU.
 */
#ifndef VNPU_ACLNNOP_ACLNN_PRELU_H
#define VNPU_ACLNNOP_ACLNN_PRELU_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out = self > 0 ? self : weight * self; weight has one element or one per channel
 * (self's dimension 1). Types fp32, fp16, bf16.
 */
ACLNN_API aclnnStatus aclnnPreluGetWorkspaceSize(const aclTensor *self, const aclTensor *weight,
		aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnPrelu(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
		aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_PRELU_H */
