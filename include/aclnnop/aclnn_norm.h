/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_norm.h - aclnn p-norms (libopapi.so):
 * aclnnNorm.
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_NORM_H
#define VNPU_ACLNNOP_ACLNN_NORM_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The pScalar-norm of self over dim (empty: every dimension), as
 * aclnnLinalgVectorNorm, computed in self's type (fp32, fp16, bf16, fp64). */
ACLNN_API aclnnStatus aclnnNormGetWorkspaceSize(const aclTensor *self, const aclScalar *pScalar,
						const aclIntArray *dim, bool keepdim, aclTensor *out,
						uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
				aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_NORM_H */
