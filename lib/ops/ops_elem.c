// SPDX-License-Identifier: MIT
/*
 * ops_elem.c - the generic compute layer: element conversions, the
 * odometer, element-wise blocks and strided copies (ops_elem.h).
 */
#include <math.h>
#include <string.h>

#include "ops_int.h"

/* ---- types ------------------------------------------------------------------ */

bool ops_dt_float(int32_t dt)
{
	return dt == ACL_FLOAT || dt == ACL_FLOAT16 || dt == ACL_BF16 || dt == ACL_DOUBLE;
}

bool ops_dt_unsigned(int32_t dt)
{
	return dt == ACL_UINT8 || dt == ACL_UINT16 || dt == ACL_UINT32 || dt == ACL_UINT64 ||
	       dt == ACL_BOOL;
}

size_t vops_dtype_size(int32_t dt)
{
	switch (dt) {
	case ACL_INT8:
	case ACL_UINT8:
	case ACL_BOOL:
		return 1;
	case ACL_FLOAT16:
	case ACL_BF16:
	case ACL_INT16:
	case ACL_UINT16:
		return 2;
	case ACL_FLOAT:
	case ACL_INT32:
	case ACL_UINT32:
		return 4;
	case ACL_DOUBLE:
	case ACL_INT64:
	case ACL_UINT64:
		return 8;
	default:
		return 0;
	}
}


uint32_t ops_dtype_bit(int32_t dtype)
{
	switch (dtype) {
	case ACL_FLOAT: return OPS_DT_F32;
	case ACL_FLOAT16: return OPS_DT_F16;
	case ACL_BF16: return OPS_DT_BF16;
	case ACL_INT32: return OPS_DT_I32;
	case ACL_DOUBLE: return OPS_DT_F64;
	case ACL_INT8: return OPS_DT_I8;
	case ACL_UINT8: return OPS_DT_U8;
	case ACL_INT16: return OPS_DT_I16;
	case ACL_UINT16: return OPS_DT_U16;
	case ACL_UINT32: return OPS_DT_U32;
	case ACL_INT64: return OPS_DT_I64;
	case ACL_UINT64: return OPS_DT_U64;
	case ACL_BOOL: return OPS_DT_BOOL;
	default: return 0;
	}
}

/* @d rounded to fp32 with the last bit "sticky" (round to odd): rounding
 * that to a narrower type is the same as rounding @d once. */
static float f64_to_f32_odd(double d)
{
	float f = (float)d;
	uint32_t bits;

	if ((double)f == d || isnan(d) || isinf(f))
		return f;
	/* Truncate toward zero, then make the last bit odd. */
	if (fabs((double)f) > fabs(d))
		f = nextafterf(f, 0.0f);
	memcpy(&bits, &f, sizeof(bits));
	bits |= 1;
	memcpy(&f, &bits, sizeof(f));
	return f;
}

uint16_t vops_f64_to_f16(double d)
{
	return vops_f32_to_f16(f64_to_f32_odd(d));
}

uint16_t vops_f64_to_bf16(double d)
{
	return vops_f32_to_bf16(f64_to_f32_odd(d));
}

/* ---- conversions ---------------------------------------------------------------- */

#define LOAD_LOOP(T, conv)							\
	do {									\
		const T *p = (const T *)base + off;				\
		for (j = 0; j < n; j++)						\
			dst[j] = conv(p[(int64_t)j * stride]);			\
	} while (0)

#define AS_IS(v) (v)

void ops_load_f64(double *restrict dst, const void *base, int32_t dt, int64_t off, int64_t stride,
		  size_t n)
{
	size_t j;

	switch (dt) {
	case ACL_FLOAT: LOAD_LOOP(float, (double)); break;
	case ACL_DOUBLE: LOAD_LOOP(double, AS_IS); break;
	case ACL_FLOAT16: LOAD_LOOP(uint16_t, (double)vops_f16_to_f32); break;
	case ACL_BF16: LOAD_LOOP(uint16_t, (double)vops_bf16_to_f32); break;
	case ACL_INT8: LOAD_LOOP(int8_t, (double)); break;
	case ACL_UINT8: LOAD_LOOP(uint8_t, (double)); break;
	case ACL_BOOL: LOAD_LOOP(uint8_t, (double)!!); break;
	case ACL_INT16: LOAD_LOOP(int16_t, (double)); break;
	case ACL_UINT16: LOAD_LOOP(uint16_t, (double)); break;
	case ACL_INT32: LOAD_LOOP(int32_t, (double)); break;
	case ACL_UINT32: LOAD_LOOP(uint32_t, (double)); break;
	case ACL_INT64: LOAD_LOOP(int64_t, (double)); break;
	case ACL_UINT64: LOAD_LOOP(uint64_t, (double)); break;
	default: memset(dst, 0, n * sizeof(*dst)); break;
	}
}

/* A double to an integer: truncated toward zero, saturated at @lo and @hi, NaN 0. */
static int64_t f64_to_int(double v, int64_t lo, int64_t hi)
{
	if (isnan(v))
		return 0;
	if (v <= (double)lo)
		return lo;
	/* (double)INT64_MAX is 2^63, which no int64 reaches. */
	if (v >= (double)hi)
		return hi;
	return (int64_t)v;
}

static uint64_t f64_to_u64(double v)
{
	if (isnan(v) || v <= 0)
		return 0;
	if (v >= 18446744073709551616.0)
		return UINT64_MAX;
	return (uint64_t)v;
}

void ops_load_i64(int64_t *restrict dst, const void *base, int32_t dt, int64_t off, int64_t stride,
		  size_t n)
{
	size_t j;

#define F2I(v) f64_to_int((double)(v), INT64_MIN, INT64_MAX)
#define H2I(v) F2I(vops_f16_to_f32(v))
#define B2I(v) F2I(vops_bf16_to_f32(v))
	switch (dt) {
	case ACL_INT8: LOAD_LOOP(int8_t, (int64_t)); break;
	case ACL_UINT8: LOAD_LOOP(uint8_t, (int64_t)); break;
	case ACL_BOOL: LOAD_LOOP(uint8_t, (int64_t)!!); break;
	case ACL_INT16: LOAD_LOOP(int16_t, (int64_t)); break;
	case ACL_UINT16: LOAD_LOOP(uint16_t, (int64_t)); break;
	case ACL_INT32: LOAD_LOOP(int32_t, (int64_t)); break;
	case ACL_UINT32: LOAD_LOOP(uint32_t, (int64_t)); break;
	case ACL_INT64: LOAD_LOOP(int64_t, AS_IS); break;
	case ACL_UINT64: LOAD_LOOP(uint64_t, (int64_t)); break;
	case ACL_FLOAT: LOAD_LOOP(float, F2I); break;
	case ACL_DOUBLE: LOAD_LOOP(double, F2I); break;
	case ACL_FLOAT16: LOAD_LOOP(uint16_t, H2I); break;
	case ACL_BF16: LOAD_LOOP(uint16_t, B2I); break;
	default: memset(dst, 0, n * sizeof(*dst)); break;
	}
#undef F2I
#undef H2I
#undef B2I
}

#define STORE_LOOP(T, conv)							\
	do {									\
		T *p = (T *)base + off;						\
		for (j = 0; j < n; j++)						\
			p[(int64_t)j * stride] = (T)conv(src[j]);		\
	} while (0)

#define TO_I8(v) f64_to_int(v, INT8_MIN, INT8_MAX)
#define TO_U8(v) f64_to_int(v, 0, UINT8_MAX)
#define TO_I16(v) f64_to_int(v, INT16_MIN, INT16_MAX)
#define TO_U16(v) f64_to_int(v, 0, UINT16_MAX)
#define TO_I32(v) f64_to_int(v, INT32_MIN, INT32_MAX)
#define TO_U32(v) f64_to_int(v, 0, UINT32_MAX)
#define TO_I64(v) f64_to_int(v, INT64_MIN, INT64_MAX)
#define TO_BOOL(v) ((v) != 0)

void ops_store_f64(void *base, int32_t dt, int64_t off, int64_t stride, const double *restrict src,
		   size_t n)
{
	size_t j;

	switch (dt) {
	case ACL_FLOAT: STORE_LOOP(float, AS_IS); break;
	case ACL_DOUBLE: STORE_LOOP(double, AS_IS); break;
	case ACL_FLOAT16: STORE_LOOP(uint16_t, vops_f64_to_f16); break;
	case ACL_BF16: STORE_LOOP(uint16_t, vops_f64_to_bf16); break;
	case ACL_INT8: STORE_LOOP(int8_t, TO_I8); break;
	case ACL_UINT8: STORE_LOOP(uint8_t, TO_U8); break;
	case ACL_BOOL: STORE_LOOP(uint8_t, TO_BOOL); break;
	case ACL_INT16: STORE_LOOP(int16_t, TO_I16); break;
	case ACL_UINT16: STORE_LOOP(uint16_t, TO_U16); break;
	case ACL_INT32: STORE_LOOP(int32_t, TO_I32); break;
	case ACL_UINT32: STORE_LOOP(uint32_t, TO_U32); break;
	case ACL_INT64: STORE_LOOP(int64_t, TO_I64); break;
	case ACL_UINT64: STORE_LOOP(uint64_t, f64_to_u64); break;
	default: break;
	}
}

/* int64 to the float types: through double, except that fp16/bf16 of a
 * value beyond 2^53 round once as well (the double is exact or rounded to
 * odd before). */
static double i64_to_f64(int64_t v)
{
	return (double)v;
}

void ops_store_i64(void *base, int32_t dt, int64_t off, int64_t stride, const int64_t *restrict src,
		   size_t n)
{
	size_t j;

	switch (dt) {
	case ACL_INT8: STORE_LOOP(int8_t, AS_IS); break;
	case ACL_UINT8: STORE_LOOP(uint8_t, AS_IS); break;
	case ACL_BOOL: STORE_LOOP(uint8_t, TO_BOOL); break;
	case ACL_INT16: STORE_LOOP(int16_t, AS_IS); break;
	case ACL_UINT16: STORE_LOOP(uint16_t, AS_IS); break;
	case ACL_INT32: STORE_LOOP(int32_t, AS_IS); break;
	case ACL_UINT32: STORE_LOOP(uint32_t, AS_IS); break;
	case ACL_INT64: STORE_LOOP(int64_t, AS_IS); break;
	case ACL_UINT64: STORE_LOOP(uint64_t, AS_IS); break;
	case ACL_FLOAT: STORE_LOOP(float, i64_to_f64); break;
	case ACL_DOUBLE: STORE_LOOP(double, i64_to_f64); break;
	case ACL_FLOAT16: STORE_LOOP(uint16_t, vops_f64_to_f16); break;
	case ACL_BF16: STORE_LOOP(uint16_t, vops_f64_to_bf16); break;
	default: break;
	}
}

double ops_get_f64(const void *base, int32_t dt, int64_t off)
{
	double v;

	ops_load_f64(&v, base, dt, off, 1, 1);
	return v;
}

int64_t ops_get_i64(const void *base, int32_t dt, int64_t off)
{
	int64_t v;

	ops_load_i64(&v, base, dt, off, 1, 1);
	return v;
}

/* ---- shapes and strides ----------------------------------------------------------- */

void ops_strides(const struct vops_tensor *t, int64_t *st)
{
	int64_t s = 1;
	int d;

	for (d = t->ndim - 1; d >= 0; d--) {
		st[d] = t->strides ? t->strides[d] : s;
		s *= t->dims[d];
	}
}

bool ops_is_dense(const struct vops_tensor *t)
{
	int64_t s = 1;
	int d;

	if (t->offset)
		return false;
	if (!t->strides)
		return true;
	for (d = t->ndim - 1; d >= 0; d--) {
		if (t->dims[d] == 0)
			return true;
		if (t->dims[d] != 1 && t->strides[d] != s)
			return false;
		s *= t->dims[d];
	}
	return true;
}

uint64_t ops_reach(const struct vops_tensor *t)
{
	int64_t st[VOPS_MAX_RANK];
	uint64_t last = 0;
	int d;

	ops_strides(t, st);
	for (d = 0; d < t->ndim; d++) {
		if (!t->dims[d])
			return 0;
		last += (uint64_t)(t->dims[d] - 1) * (uint64_t)st[d];
	}
	return (uint64_t)t->offset + last + 1;
}

void ops_bcast_strides(const struct vops_tensor *t, int ndim, const int64_t *dims, int64_t *st)
{
	int64_t own[VOPS_MAX_RANK];
	int d, s;

	ops_strides(t, own);
	for (d = 0; d < ndim; d++) {
		s = t->ndim - ndim + d;
		st[d] = s < 0 || (t->dims[s] == 1 && dims[d] != 1) ? 0 : own[s];
	}
}

/* ---- the odometer ------------------------------------------------------------------ */

void ops_iter_init(struct ops_iter *it, int ndim, const int64_t *dims, int nop,
		   const int64_t *const *st, const int64_t *off0)
{
	int d, k, n = 0;

	it->nop = nop;
	it->rows = 1;
	it->row = 0;
	/* Keep dimensions other than 1, merging each into the one before when
	 * every operand steps over it as over a run of the inner one. */
	for (d = 0; d < ndim; d++) {
		bool merge = n > 0;

		if (dims[d] == 1)
			continue;
		for (k = 0; merge && k < nop; k++)
			merge = st[k][d] * dims[d] == it->st[k][n - 1];
		if (merge) {
			it->dims[n - 1] *= dims[d];
			for (k = 0; k < nop; k++)
				it->st[k][n - 1] = st[k][d];
			continue;
		}
		it->dims[n] = dims[d];
		for (k = 0; k < nop; k++)
			it->st[k][n] = st[k][d];
		n++;
	}
	if (!n) {
		it->dims[0] = 1;
		for (k = 0; k < nop; k++)
			it->st[k][0] = 0;
		n = 1;
	}
	it->ndim = n;
	for (d = 0; d < n; d++) {
		it->idx[d] = 0;
		if (d < n - 1)
			it->rows *= (uint64_t)it->dims[d];
	}
	for (d = 0; d < ndim; d++)
		if (!dims[d])
			it->rows = 0;
	if (!it->dims[n - 1])
		it->rows = 0;
	for (k = 0; k < nop; k++)
		it->off[k] = off0 ? off0[k] : 0;
}

bool ops_iter_next(struct ops_iter *it)
{
	int d, k;

	if (++it->row >= it->rows)
		return false;
	for (d = it->ndim - 2; d >= 0; d--) {
		if (++it->idx[d] < it->dims[d]) {
			for (k = 0; k < it->nop; k++)
				it->off[k] += it->st[k][d];
			return true;
		}
		for (k = 0; k < it->nop; k++)
			it->off[k] -= it->st[k][d] * (it->dims[d] - 1);
		it->idx[d] = 0;
	}
	return true;
}

/* ---- element-wise blocks ------------------------------------------------------------- */

/*
 * Elements per chunk between two should_stop questions: rows shorter
 * than a chunk are taken together.
 */
enum vops_run_status ops_ew_run(const struct ops_ew *e, struct ops_runner *r)
{
	union blk {
		double f[OPS_EW_BLOCK];
		int64_t i[OPS_EW_BLOCK];
	};
	union blk xb[OPS_ITER_MAX - 1], ob;
	int64_t stv[OPS_ITER_MAX][VOPS_MAX_RANK], off0[OPS_ITER_MAX];
	const int64_t *st[OPS_ITER_MAX];
	const double *xf[OPS_ITER_MAX];
	const int64_t *xi[OPS_ITER_MAX];
	struct ops_iter it;
	uint64_t done = OPS_EW_CHUNK;
	int k, d;

	for (k = 0; k < e->nin; k++) {
		ops_bcast_strides(&e->in[k], e->ndim, e->dims, stv[k]);
		st[k] = stv[k];
		off0[k] = e->in[k].offset;
		xf[k] = xb[k].f;
		xi[k] = xb[k].i;
	}
	/* The output, dense. */
	{
		int64_t s = 1;

		for (d = e->ndim - 1; d >= 0; d--) {
			stv[e->nin][d] = s;
			s *= e->dims[d];
		}
		st[e->nin] = stv[e->nin];
		off0[e->nin] = 0;
	}
	ops_iter_init(&it, e->ndim, e->dims, e->nin + 1, st, off0);
	if (!it.rows)
		return VOPS_RUN_OK;
	do {
		int64_t len = it.dims[it.ndim - 1], j0;

		for (j0 = 0; j0 < len; j0 += OPS_EW_BLOCK) {
			size_t n = (size_t)ops_min((uint64_t)(len - j0), OPS_EW_BLOCK);

			if (done >= OPS_EW_CHUNK) {
				if (ops_should_stop(r))
					return VOPS_RUN_CANCELED;
				done = 0;
			}
			done += n;
			for (k = 0; k < e->nin; k++) {
				int64_t sk = it.st[k][it.ndim - 1], o = it.off[k] + j0 * sk;

				if (e->dom == OPS_DOM_F64)
					ops_load_f64(xb[k].f, e->x[k], e->in[k].dtype, o, sk, n);
				else
					ops_load_i64(xb[k].i, e->x[k], e->in[k].dtype, o, sk, n);
			}
			if (e->dom == OPS_DOM_F64) {
				e->f64(e->c, ob.f, xf, n);
				ops_store_f64(e->out, e->odt, it.off[e->nin] + j0, 1, ob.f, n);
			} else {
				e->i64(e->c, ob.i, xi, n);
				ops_store_i64(e->out, e->odt, it.off[e->nin] + j0, 1, ob.i, n);
			}
		}
		/* Short rows: count a row as a block at least. */
	} while (ops_iter_next(&it));
	return VOPS_RUN_OK;
}

/* ---- copies ------------------------------------------------------------------------- */

static void copy_row(char *dst, int64_t dstep, const char *src, int64_t sstep, int64_t n,
		     uint32_t es)
{
	int64_t j;

	if (dstep == (int64_t)es && sstep == (int64_t)es) {
		memmove(dst, src, (size_t)n * es);
		return;
	}
	switch (es) {
	case 1:
		for (j = 0; j < n; j++)
			dst[j * dstep] = src[j * sstep];
		break;
	case 2:
		for (j = 0; j < n; j++)
			memcpy(dst + j * dstep, src + j * sstep, 2);
		break;
	case 4:
		for (j = 0; j < n; j++)
			memcpy(dst + j * dstep, src + j * sstep, 4);
		break;
	case 8:
		for (j = 0; j < n; j++)
			memcpy(dst + j * dstep, src + j * sstep, 8);
		break;
	default:
		for (j = 0; j < n; j++)
			memcpy(dst + j * dstep, src + j * sstep, es);
		break;
	}
}

/* Tile of a 2-D transposing copy: rows and columns. */
#define OPS_COPY_TILE 32

enum vops_run_status ops_copy_run(void *dst, const int64_t *dst_st, int64_t doff, const void *src,
				  const int64_t *sst, int64_t soff, int ndim, const int64_t *dims,
				  uint32_t esize, struct ops_runner *r)
{
	int64_t dense[VOPS_MAX_RANK], s = 1, off0[2] = { doff, soff };
	const int64_t *st[2];
	struct ops_iter it;
	uint64_t done = OPS_EW_CHUNK;
	int d;

	if (!dst_st) {
		for (d = ndim - 1; d >= 0; d--) {
			dense[d] = s;
			s *= dims[d];
		}
		dst_st = dense;
	}
	st[0] = dst_st;
	st[1] = sst;
	ops_iter_init(&it, ndim, dims, 2, st, off0);
	if (!it.rows)
		return VOPS_RUN_OK;
	/*
	 * A transposing copy (the source's inner stride is not 1, the
	 * destination's is, and the dimension before is the source's unit one):
	 * by tiles, so that both sides stay in cache.
	 */
	if (it.ndim >= 2 && it.st[0][it.ndim - 1] == 1 && it.st[1][it.ndim - 1] != 1 &&
	    it.st[1][it.ndim - 2] == 1) {
		int64_t rows = it.dims[it.ndim - 2], cols = it.dims[it.ndim - 1];
		int64_t ds_r = it.st[0][it.ndim - 2], ss_c = it.st[1][it.ndim - 1];
		uint64_t outer = it.rows / (uint64_t)rows, o;
		int64_t i0, j0, i, j;

		for (o = 0; o < outer; o++) {
			char *db = (char *)dst + it.off[0] * (int64_t)esize;
			const char *sb = (const char *)src + it.off[1] * (int64_t)esize;

			for (i0 = 0; i0 < rows; i0 += OPS_COPY_TILE) {
				if (done >= OPS_EW_CHUNK) {
					if (ops_should_stop(r))
						return VOPS_RUN_CANCELED;
					done = 0;
				}
				for (j0 = 0; j0 < cols; j0 += OPS_COPY_TILE) {
					int64_t ie = i0 + OPS_COPY_TILE < rows ? i0 + OPS_COPY_TILE : rows;
					int64_t je = j0 + OPS_COPY_TILE < cols ? j0 + OPS_COPY_TILE : cols;

					for (i = i0; i < ie; i++)
						for (j = j0; j < je; j++)
							memcpy(db + (i * ds_r + j) * (int64_t)esize,
							       sb + (i + j * ss_c) * (int64_t)esize, esize);
				}
				done += (uint64_t)(OPS_COPY_TILE * cols);
			}
			/* Skip the rest of this 2-D slab's rows in the odometer. */
			for (i = 0; i < rows; i++)
				if (!ops_iter_next(&it))
					return VOPS_RUN_OK;
		}
		return VOPS_RUN_OK;
	}
	do {
		int64_t len = it.dims[it.ndim - 1];

		if (done >= OPS_EW_CHUNK) {
			if (ops_should_stop(r))
				return VOPS_RUN_CANCELED;
			done = 0;
		}
		done += (uint64_t)len + 16;
		copy_row((char *)dst + it.off[0] * (int64_t)esize, it.st[0][it.ndim - 1] * (int64_t)esize,
			 (const char *)src + it.off[1] * (int64_t)esize,
			 it.st[1][it.ndim - 1] * (int64_t)esize, len, esize);
	} while (ops_iter_next(&it));
	return VOPS_RUN_OK;
}

void ops_fill(void *dst, uint64_t n, const void *val, uint32_t esize)
{
	char *p = dst;
	uint64_t j;

	for (j = 0; j < n; j++)
		memcpy(p + j * esize, val, esize);
}
