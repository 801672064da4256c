/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_prod.h - aclnn products (libopapi.so):
 * aclnnProd, aclnnProdDim.
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_PROD_H
#define VNPU_ACLNNOP_ACLNN_PROD_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The product of every element of self (a zero-rank out), computed in dtype, which must
 * be out's type. self: fp32, fp16, bf16, fp64, the integer types, bool. */
ACLNN_API aclnnStatus aclnnProdGetWorkspaceSize(const aclTensor *self, const aclDataType dtype,
						aclTensor *out, uint64_t *workspaceSize,
						aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnProd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
				aclrtStream stream);

/* The product of self along dim, computed in dtype (out's type). */
ACLNN_API aclnnStatus aclnnProdDimGetWorkspaceSize(const aclTensor *self, int64_t dim, bool keepDim,
						   const aclDataType dtype, aclTensor *out,
						   uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnProdDim(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
				   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_PROD_H */
