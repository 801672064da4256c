/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_einsum.h - aclnnEinsum: a sum of products named by an equation.
 */
#ifndef VNPU_ACLNNOP_ACLNN_EINSUM_H
#define VNPU_ACLNNOP_ACLNN_EINSUM_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * output = the contraction of tensors named by equation ("ij,jk->ik", the
 * implicit form "ij,jk", "..." and repeated letters). The tensors share one type:
 * fp32, fp16, bf16, int16, uint16, int32, uint32, int64, uint64; the result is
 * converted to output's type.
 */
ACLNN_API aclnnStatus aclnnEinsumGetWorkspaceSize(const aclTensorList *tensors, const char *equation,
		aclTensor *output, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnEinsum(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
		aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_EINSUM_H */
