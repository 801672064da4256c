/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_arange.h - aclnn ranges (libopapi.so): aclnnArange.
 *
 * Two stages each: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_ARANGE_H
#define VNPU_ACLNNOP_ACLNN_ARANGE_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* start, start + step, ... up to end (excluded) into the 1-D out of ceil((end - start) / step)
 * elements. out: fp32, fp16, bf16, fp64, int32, int64 (and the other integer types). */
ACLNN_API aclnnStatus aclnnArangeGetWorkspaceSize(const aclScalar *start, const aclScalar *end, const aclScalar *step, aclTensor *out, uint64_t *workspaceSize,
	aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnArange(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
	aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_ARANGE_H */
