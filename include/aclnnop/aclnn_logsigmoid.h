/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_logsigmoid.h - aclnnLogSigmoid: log(sigmoid(x)).
 */
#ifndef VNPU_ACLNNOP_ACLNN_LOGSIGMOID_H
#define VNPU_ACLNNOP_ACLNN_LOGSIGMOID_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out = log(1 / (1 + exp(-self))) = -softplus(-self), without overflow. Types
 * fp32, fp16, bf16 (halves computed in fp32).
 */
ACLNN_API aclnnStatus aclnnLogSigmoidGetWorkspaceSize(const aclTensor *self, aclTensor *out,
		uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnLogSigmoid(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
		aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_LOGSIGMOID_H */
