/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_mv.h - aclnnMv: a matrix times a vector.
 */
#ifndef VNPU_ACLNNOP_ACLNN_MV_H
#define VNPU_ACLNNOP_ACLNN_MV_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out [n] = self [n, m] @ vec [m]. Types fp32, fp16, bf16; cubeMathType as
 * aclnnMatmul's.
 */
ACLNN_API aclnnStatus aclnnMvGetWorkspaceSize(const aclTensor *self, const aclTensor *vec, aclTensor *out,
		int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnMv(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
		aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_MV_H */
