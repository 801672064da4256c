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

/* A double as an int64: truncated toward zero, saturated at the type's
 * ends, NaN as 0 (a host scalar converted for an integer computation). */
static inline int64_t nn_f64_to_i64(double d)
{
	if (d != d)
		return 0;
	if (d >= 9.2233720368547758e18)
		return INT64_MAX;
	if (d <= -9.2233720368547758e18)
		return INT64_MIN;
	return (int64_t)d;
}

/* Elements from the storage start that the view reaches (0 if empty). */
uint64_t nn_reach(int ndim, const int64_t *dims, const int64_t *strides, int64_t offset);

#endif /* VNPU_LIB_ACLNN_NN_INT_H */
