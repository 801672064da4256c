/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_cumsum.h - aclnn cumulative sums (libopapi.so):
 * aclnnCumsum, aclnnCumsumV2.
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_CUMSUM_H
#define VNPU_ACLNNOP_ACLNN_CUMSUM_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The running sum of self along dim, computed in dtype (out's type). self: fp32,
 * fp16, bf16, fp64, the integer types, bool. */
ACLNN_API aclnnStatus aclnnCumsumGetWorkspaceSize(const aclTensor *self, int64_t dim, aclDataType dtype,
						  aclTensor *out, uint64_t *workspaceSize,
						  aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnCumsum(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
				  aclrtStream stream);

/* The same in out's type; exclusive leaves each element out of its own sum, reverse
 * sums from the end. */
ACLNN_API aclnnStatus aclnnCumsumV2GetWorkspaceSize(const aclTensor *self, int64_t dim, bool exclusive,
						    bool reverse, aclTensor *out, uint64_t *workspaceSize,
						    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnCumsumV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
				    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_CUMSUM_H */
