/* SPDX-License-Identifier: MIT */
/*
 * nn_net.h - what the neural-network operator functions (nn_net_*.c)
 * share beyond nn.h: the float types they compute in, cubeMathType, the
 * per-spatial-axis arrays of convolutions and pools, and a broadcast
 * constant of a shape. Static inline: libopapi.so exports only the aclnn
 * functions.
 */
#ifndef VNPU_ACLNN_OPS_NN_NET_H
#define VNPU_ACLNN_OPS_NN_NET_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "nn.h"

/* The types the matrix products, convolutions, pools and normalisations take. */
static const aclDataType nnn_float_dts[] = { ACL_FLOAT, ACL_FLOAT16, ACL_BF16 };
#define NNN_NFLOAT ((int)NN_COUNT(nnn_float_dts))

/*
 * cubeMathType: CANN's 0 KEEP_DTYPE, 1 ALLOW_FP32_DOWN_PRECISION, 2 USE_FP16,
 * 3 USE_HF32, 4 USE_FP32_ADD. Every one only allows a lower precision (or,
 * 4, a more careful sum) that the device may use; vnpu always computes at
 * the full precision of the type (fp32 accumulation), which each of them
 * permits. Anything else is ACLNN_ERR_PARAM_INVALID.
 */
static inline bool nnn_cube_math(struct nn_exec *x, int8_t cube_math_type)
{
	if (cube_math_type < 0 || cube_math_type > 4) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "cubeMathType %d is not one of 0 (KEEP_DTYPE) .. 4 "
			"(USE_FP32_ADD)", (int)cube_math_type);
		return false;
	}
	return true;
}

/*
 * The common type of two operands among nnn_float_dts, named @na and @nb
 * in messages. bf16 with another type is refused, as CANN does not deduce
 * one (nn_promote() would give fp32). ACL_DT_UNDEFINED after an error.
 */
static inline aclDataType nnn_float_type(struct nn_exec *x, nn_val a, nn_val b, const char *na,
					 const char *nb)
{
	aclDataType da, db;

	if (!nn_check_dtype(x, a, na, nnn_float_dts, NNN_NFLOAT) ||
	    (b != NN_ABSENT && !nn_check_dtype(x, b, nb, nnn_float_dts, NNN_NFLOAT)))
		return ACL_DT_UNDEFINED;
	da = nn_view(x, a)->dtype;
	db = b == NN_ABSENT ? da : nn_view(x, b)->dtype;
	if (da != db && (da == ACL_BF16 || db == ACL_BF16)) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "no common type of %s (bf16) with %s of another "
			"type: cast one of them first", da == ACL_BF16 ? na : nb,
			da == ACL_BF16 ? nb : na);
		return ACL_DT_UNDEFINED;
	}
	return nn_promote(da, db);
}

/*
 * An array of per-spatial-axis values (strides, pads, dilations, window
 * sizes): @nsp values, or one for every axis; @dflt (>= 0) for an empty or
 * NULL array, or -1 when the array is required (NULL:
 * ACLNN_ERR_PARAM_NULLPTR). Each value at least @lo. Returns success.
 */
static inline bool nnn_spatial(struct nn_exec *x, const aclIntArray *a, const char *name, int nsp,
			       int64_t dflt, int64_t lo, int64_t *out)
{
	const int64_t *v;
	uint64_t n = 0;
	int i;

	if (!nn_ok(x))
		return false;
	if (!a && dflt >= 0) {
		for (i = 0; i < nsp; i++)
			out[i] = dflt;
		return true;
	}
	v = nn_ints(x, a, name, &n);
	if (!nn_ok(x))
		return false;
	if (n == 0 && dflt >= 0) {
		for (i = 0; i < nsp; i++)
			out[i] = dflt;
		return true;
	}
	if (n != 1 && n != (uint64_t)nsp) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "%s has %" PRIu64 " values; it needs %d (one per "
			"spatial axis) or 1", name, n, nsp);
		return false;
	}
	for (i = 0; i < nsp; i++) {
		out[i] = v[n == 1 ? 0 : i];
		if (out[i] < lo) {
			nn_fail(x, ACLNN_ERR_PARAM_INVALID, "%s[%d] = %" PRId64 " must be at least %" PRId64,
				name, i, out[i], lo);
			return false;
		}
	}
	return true;
}

/* The constant @value of type @dt seen with shape @dims (a stride-0 view
 * of one element: no storage of the shape's size). */
static inline nn_val nnn_const_shape(struct nn_exec *x, double value, aclDataType dt, int ndim,
				     const int64_t *dims)
{
	int64_t zero[VOPS_MAX_RANK] = { 0 };
	nn_val c = nn_const(x, value, dt);

	return ndim ? nn_restride(x, c, ndim, dims, zero, nn_view(x, c)->offset) : c;
}

/* Does @v broadcast (numpy) to the shape @dims of rank @ndim? Else
 * ACLNN_ERR_PARAM_INVALID naming @name and both shapes. */
static inline bool nnn_broadcasts_to(struct nn_exec *x, nn_val v, const char *name, int ndim,
				     const int64_t *dims)
{
	const struct nn_view *w = nn_view(x, v);
	bool ok = w->ndim <= ndim;
	int i;

	if (!nn_ok(x))
		return false;
	for (i = 1; ok && i <= w->ndim; i++)
		ok = w->dims[w->ndim - i] == 1 || w->dims[w->ndim - i] == dims[ndim - i];
	if (!ok) {
		char s[256];
		int len = 0;

		for (i = 0; i < ndim && len < (int)sizeof(s) - 24; i++)
			len += snprintf(s + len, sizeof(s) - (size_t)len, "%s%" PRId64, i ? ", " : "",
					dims[i]);
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "%s %s does not broadcast to [%s]", name,
			nn_shape_str(x, v), s);
	}
	return ok;
}

/* @v's shape with axis @keep left and every other axis 1 (a channel
 * vector's broadcast shape): @dims gets it, returns the rank. */
static inline int nnn_channel_shape(int rank, int keep, int64_t c, int64_t *dims)
{
	int i;

	for (i = 0; i < rank; i++)
		dims[i] = i == keep ? c : 1;
	return rank;
}

#endif /* VNPU_ACLNN_OPS_NN_NET_H */
