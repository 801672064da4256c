/* SPDX-License-Identifier: MIT */
/*
 * nn_int.h - libnnopbase.so's own internals (not for lib/aclnn/ops/).
 */
#ifndef VNPU_LIB_ACLNN_NN_INT_H
#define VNPU_LIB_ACLNN_NN_INT_H

#include "nn.h"
#include "rt_private.h"

/* Record @code for @api with a message (the thread's ACL error state);
 * returns @code. */
aclnnStatus nn_err(aclnnStatus code, const char *api, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Is @t a live tensor made here? */
static inline bool nn_tensor_ok(const aclTensor *t)
{
	return t && t->magic == NN_TENSOR_MAGIC;
}

/* Bytes of one element of @dt aclnn computes with, 0 for others. */
size_t nn_dtype_size(aclDataType dt);

/* Elements from the storage start that the view reaches (0 if empty). */
uint64_t nn_reach(int ndim, const int64_t *dims, const int64_t *strides, int64_t offset);

#endif /* VNPU_LIB_ACLNN_NN_INT_H */
