/* SPDX-License-Identifier: MIT */
/*
 * nn_shape_util.h - what the reduction, movement and indexing functions
 * (nn_reduce.c, nn_move.c, nn_index.c) share: views of a value by
 * relative offsets, axis lists, shape checks and their type tables.
 * Static inline, so that libopapi.so exports none of it.
 *
 * The functions keep the views they hold as copies (struct nn_view by
 * value; its dims and strides stay the value's): they were written when
 * nn_view() returned one view per thread, valid until its next call, and
 * a copy stays right whatever the core's lifetime of the pointer.
 */
#ifndef VNPU_LIB_ACLNN_OPS_NN_SHAPE_UTIL_H
#define VNPU_LIB_ACLNN_OPS_NN_SHAPE_UTIL_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "nn.h"

/* Every numeric type lib/ops computes in. */
static const aclDataType nns_numeric[] = {
	ACL_FLOAT, ACL_FLOAT16, ACL_BF16,   ACL_DOUBLE, ACL_INT8,  ACL_UINT8,
	ACL_INT16, ACL_UINT16,	ACL_INT32,  ACL_UINT32, ACL_INT64, ACL_UINT64,
};
/* The same and bool: what a copy or a cast takes. */
static const aclDataType nns_all[] = {
	ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8,  ACL_UINT8,  ACL_INT16,
	ACL_UINT16, ACL_INT32,	ACL_UINT32, ACL_INT64, ACL_UINT64, ACL_BOOL,
};
static const aclDataType nns_floats[] = { ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE };
static const aclDataType nns_index[] = { ACL_INT64, ACL_INT32 };

#define NNS_COUNT_OF(a) ((int)NN_COUNT(a))

/* @v's strides (row-major ones when its view has none). */
static inline void nns_strides(const struct nn_view *v, int64_t *strides)
{
	int64_t s = 1;

	for (int i = v->ndim - 1; i >= 0; i--) {
		strides[i] = v->strides ? v->strides[i] : s;
		s *= v->dims[i];
	}
}

/* A view of @v's storage: @ndim dims and @strides from element @rel past
 * @v's first element (nn_restride counts from the storage's start). */
static inline nn_val nns_view(struct nn_exec *x, nn_val v, int ndim, const int64_t *dims, const int64_t *strides,
			      int64_t rel)
{
	return nn_restride(x, v, ndim, dims, strides, nn_view(x, v)->offset + rel);
}

/* "[2, 3]" of @n dims into @buf. */
static inline const char *nns_dims_str(char *buf, size_t size, int n, const int64_t *dims)
{
	size_t k = 0;

	k += (size_t)snprintf(buf + k, size - k, "[");
	for (int i = 0; i < n && k < size; i++)
		k += (size_t)snprintf(buf + k, size - k, "%s%" PRId64, i ? ", " : "", dims[i]);
	if (k < size)
		snprintf(buf + k, size - k, "]");
	return buf;
}

/* ACLNN_ERR_PARAM_INVALID unless @o (named @name) has the shape @dims:
 * for results whose shape the function knows before any step (a fill, a
 * list of stores into windows of @o). */
static inline bool nns_check_shape(struct nn_exec *x, nn_val o, const char *name, int ndim, const int64_t *dims)
{
	const struct nn_view v_ = *nn_view(x, o), *v = &v_;
	char want[256];

	if (!nn_ok(x))
		return false;
	if (v->ndim == ndim && !memcmp(v->dims, dims, sizeof(*dims) * (size_t)ndim))
		return true;
	nn_fail(x, ACLNN_ERR_PARAM_INVALID, "%s has shape %s, the result is %s", name, nn_shape_str(x, o),
		nns_dims_str(want, sizeof(want), ndim, dims));
	return false;
}

/* ACLNN_ERR_PARAM_INVALID unless @v has @dt (the type of @like, named
 * @like_name). */
static inline bool nns_same_dtype(struct nn_exec *x, nn_val v, const char *name, nn_val like, const char *like_name)
{
	aclDataType a, b;

	if (!nn_ok(x))
		return false;
	a = nn_view(x, v)->dtype;
	b = nn_view(x, like)->dtype;
	if (a == b)
		return true;
	nn_fail(x, ACLNN_ERR_PARAM_INVALID, "%s has type %d, %s %d: they must be the same", name, (int)a, like_name,
		(int)b);
	return false;
}

/*
 * The axes of array @dims (named @name) over a tensor of @rank into
 * @axes, each in [0, rank), in the array's order; a repeated axis is
 * ACLNN_ERR_PARAM_INVALID. An empty array is every axis when
 * @all_if_empty. A scalar (rank 0) has no axes to reduce: its list is
 * empty whatever @dims names (-1 or 0). Returns the count, -1 after an
 * error.
 */
static inline int nns_axes(struct nn_exec *x, const aclIntArray *dims, const char *name, int rank,
			   bool all_if_empty, int64_t *axes)
{
	bool seen[VOPS_MAX_RANK] = { false };
	uint64_t n = 0;
	const int64_t *v = nn_ints(x, dims, name, &n);
	int cnt = 0;

	if (!nn_ok(x))
		return -1;
	if (n > (uint64_t)(rank ? rank : 1)) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "%s has %" PRIu64 " axes, the tensor %d dimensions", name, n,
			rank);
		return -1;
	}
	for (uint64_t i = 0; i < n; i++) {
		int a = nn_axis(x, v[i], rank, name);

		if (a < 0)
			return -1;
		if (rank == 0)
			continue;
		if (seen[a]) {
			nn_fail(x, ACLNN_ERR_PARAM_INVALID, "%s names dimension %d twice", name, a);
			return -1;
		}
		seen[a] = true;
		axes[cnt++] = a;
	}
	if (!n && all_if_empty)
		for (cnt = 0; cnt < rank; cnt++)
			axes[cnt] = cnt;
	return cnt;
}

/* The shape of reducing @v's @axes (@n of them), keeping them as 1s or
 * dropping them, into @dims; returns its rank. */
static inline int nns_reduced_shape(const struct nn_view *v, const int64_t *axes, int n, bool keep, int64_t *dims)
{
	bool red[VOPS_MAX_RANK] = { false };
	int r = 0;

	for (int i = 0; i < n; i++)
		red[axes[i]] = true;
	for (int i = 0; i < v->ndim; i++)
		if (!red[i])
			dims[r++] = v->dims[i];
		else if (keep)
			dims[r++] = 1;
	return r;
}

#endif /* VNPU_LIB_ACLNN_OPS_NN_SHAPE_UTIL_H */
