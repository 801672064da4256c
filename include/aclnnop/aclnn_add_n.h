/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_add_n.h - aclnn: the sum of a list of tensors (libopapi.so).
 *
 * Two stages: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_ADD_N_H
#define VNPU_ACLNNOP_ACLNN_ADD_N_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out = tensors[0] + tensors[1] + ...: one type (fp32, fp16, bf16, int32, int64) and one
 * shape for all, out of the same (no broadcast, no promotion). An empty list gives zeros.
 */
ACLNN_API aclnnStatus aclnnAddNGetWorkspaceSize(const aclTensorList *tensors, aclTensor *out,
                                                uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnAddN(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_ADD_N_H */
