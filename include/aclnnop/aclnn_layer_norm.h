/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_layer_norm.h - aclnnLayerNorm: layer normalisation.
 */
#ifndef VNPU_ACLNNOP_ACLNN_LAYER_NORM_H
#define VNPU_ACLNNOP_ACLNN_LAYER_NORM_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out = (input - E[input]) / sqrt(Var[input] + eps) * weight + bias over the trailing
 * dimensions normalizedShape names (1 to input's rank of them). weight and bias are
 * NULL (ones, zeros) or of shape normalizedShape, input's type or fp32. meanOutOptional
 * and rstdOutOptional (1 / sqrt(Var + eps)), when not NULL, have input's shape with the
 * normalised dimensions 1. Types fp32, fp16, bf16.
 */
ACLNN_API aclnnStatus aclnnLayerNormGetWorkspaceSize(const aclTensor *input,
		const aclIntArray *normalizedShape, const aclTensor *weightOptional,
		const aclTensor *biasOptional, double eps, aclTensor *out, aclTensor *meanOutOptional,
		aclTensor *rstdOutOptional, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnLayerNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
		aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_LAYER_NORM_H */
