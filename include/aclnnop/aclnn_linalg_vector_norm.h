/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_linalg_vector_norm.h - aclnn vector norms (libopapi.so):
 * aclnnLinalgVectorNorm.
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_LINALG_VECTOR_NORM_H
#define VNPU_ACLNNOP_ACLNN_LINALG_VECTOR_NORM_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The ord-norm of self over dims (empty: every dimension): (sum |x|^ord)^(1/ord), ord
 * inf the maximum of |x|, -inf the minimum, 0 the count of nonzeros; computed in dtype
 * (fp32, fp16, bf16, fp64), written as out's type. */
ACLNN_API aclnnStatus aclnnLinalgVectorNormGetWorkspaceSize(const aclTensor *self, const aclScalar *ord,
							    const aclIntArray *dims, bool keepDims,
							    const aclDataType dtype, aclTensor *out,
							    uint64_t *workspaceSize,
							    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnLinalgVectorNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
					    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_LINALG_VECTOR_NORM_H */
