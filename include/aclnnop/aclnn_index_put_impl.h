/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_index_put_impl.h - aclnn: writing or adding values at
 * indexed positions (PyTorch's index_put_; libopapi.so).
 *
 * Two stages: GetWorkspaceSize checks the arguments and builds the
 * executor, then the launch runs it on a stream. Tensors may be any strided
 * view. ACLNN_ERR_PARAM_NULLPTR for a NULL required argument,
 * ACLNN_ERR_PARAM_INVALID for a bad shape, type or value (with a message).
 */
#ifndef VNPU_ACLNNOP_ACLNN_INDEX_PUT_IMPL_H
#define VNPU_ACLNNOP_ACLNN_INDEX_PUT_IMPL_H

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * selfRef[indices[0][b], ..., indices[k-1][b], ...] = values[b, ...] (or += with accumulate)
 * for every position b of the broadcast shape B of the k index tensors (int32 or int64,
 * negative from the end; k at most selfRef's rank); values broadcast to B + selfRef's
 * dimensions after the k-th, of selfRef's type (fp32, fp16, bf16, fp64, int8..int64, uint8,
 * bool). Repeated positions: the last write wins, or every value adds. vnpu: bool (mask)
 * indices are refused (161002); an index out of range fails the launch whatever unsafe says.
 */
ACLNN_API aclnnStatus aclnnIndexPutImplGetWorkspaceSize(aclTensor *selfRef, const aclTensorList *indices,
                                                        const aclTensor *values, const bool accumulate,
                                                        const bool unsafe, uint64_t *workspaceSize,
                                                        aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnIndexPutImpl(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                        aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_INDEX_PUT_IMPL_H */
