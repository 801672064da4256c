/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_log_softmax.h - aclnnLogSoftmax: log-softmax over one dimension.
 */
#ifndef VNPU_ACLNNOP_ACLNN_LOG_SOFTMAX_H
#define VNPU_ACLNNOP_ACLNN_LOG_SOFTMAX_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out = self - max - log(sum(exp(self - max))) along dim. Types as aclnnSoftmax's.
 */
ACLNN_API aclnnStatus aclnnLogSoftmaxGetWorkspaceSize(const aclTensor *self, int64_t dim,
		aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnLogSoftmax(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
		aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_LOG_SOFTMAX_H */
