// SPDX-License-Identifier: MIT
/*
 * kern_fp.c - lib/ops' kernels: one chunk of a primitive (ops_kern.h).
 *
 * Moved from the kernel module's vnpu_ops_fp.c, where it ran inside
 * kernel_fpu_begin() sections; here it is plain C and ops_prim_run()
 * (kern_sched.c) calls it once per chunk. Values carried between the
 * chunks of one long row travel as bit patterns in struct ops_chunk.
 *
 * Hot loops are written as blocks of 8 independent iterations (see
 * OPS_BLOCKED) over restrict pointers: gcc 12 at -O2 uses the "very-cheap"
 * vectoriser cost model, which vectorises such blocks into packed SSE
 * instructions but leaves plain loops with an unknown trip count scalar.
 * fp16/bf16 data is converted through fp32 tiles of OPS_TILE elements on
 * the stack; everything else intermediate lives in the workspace. exp is
 * the vectorisable exp_neg() below (relative error about 1e-7, tested
 * against libm), not libm's scalar expf(), which would stop the softmax
 * loops from vectorising.
 *
 * The float matrix products are kern_gemm.c's (BLAS); the int32 one stays
 * here.
 */
#include <string.h>

#include "ops_blocked.h"
#include "ops_kern.h"

/* Elements per on-stack fp32 tile; at most three tiles (384 bytes) live. */
#define OPS_TILE 32u

#define OPS_F32_NEG_INF 0xff800000u

union ops_f32_bits {
	float f;
	uint32_t u;
};

static inline uint32_t f2u(float f)
{
	union ops_f32_bits b = { .f = f };

	return b.u;
}

static inline float u2f(uint32_t u)
{
	union ops_f32_bits b = { .u = u };

	return b.f;
}

/*
 * cond ? a : b for a 0/1 cond, by masks: gcc turns ?: into branches and
 * then will not if-convert float arithmetic that ends up inside them
 * (-ftrapping-math), which stops vectorisation.
 */
static inline uint32_t sel_u32(uint32_t cond, uint32_t a, uint32_t b)
{
	uint32_t m = 0u - cond;

	return (a & m) | (b & ~m);
}

static inline uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* ---- scalar conversions -------------------------------------------- */

/*
 * fp32 -> fp16, round to nearest even, without branches so that gcc can
 * vectorise array conversions: every case is computed and the result picked
 * with sel_u32(). Subnormal results come from adding 0.5, which lines the
 * value up with the fp16 subnormal grid and lets the SSE adder round it.
 */
static inline uint16_t cvt_f32_f16(float f)
{
	uint32_t x = f2u(f);
	uint32_t sign = (x >> 16) & 0x8000;
	uint32_t ax = x & 0x7fffffff;
	/* NaN: top payload bits, quieted; >= 65520 (after rounding) inf */
	uint32_t special = ax > 0x7f800000 ? 0x7e00 | ((ax >> 13) & 0x3ff) : 0x7c00;
	/* normal: rebias 127 -> 15, round at bit 13 (may carry into inf) */
	uint32_t normal = (ax - 0x38000000 + 0xfff + ((ax >> 13) & 1)) >> 13;
	/* below 2^-14: the low bits of |f| + 0.5 are the rounded result */
	uint32_t sub = f2u(u2f(ax) + 0.5f) - 0x3f000000;
	uint32_t r = sel_u32(ax >= 0x47800000, special, normal);

	return sign | sel_u32(ax < 0x38800000, sub, r);
}

/* fp16 -> fp32, exact; branchless like cvt_f32_f16(). */
static inline float cvt_f16_f32(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000) << 16;
	uint32_t em = h & 0x7fff;
	uint32_t normal = (em << 13) + 0x38000000;
	uint32_t special = (em << 13) | 0x7f800000;	/* inf, NaN (payload kept) */
	uint32_t sub = f2u((float)(int32_t)em * 0x1p-24f);	/* zero, subnormal: exact */
	uint32_t r = sel_u32(em >= 0x7c00, special, normal);

	return u2f(sign | sel_u32(em < 0x0400, sub, r));
}

static inline uint16_t cvt_f32_bf16(float f)
{
	uint32_t x = f2u(f);

	if ((x & 0x7fffffff) > 0x7f800000)	/* NaN: quieted */
		return (x >> 16) | 0x40;
	/* round to nearest even; overflow carries into infinity */
	return (x + 0x7fff + ((x >> 16) & 1)) >> 16;
}

static inline float cvt_bf16_f32(uint16_t h)
{
	return u2f((uint32_t)h << 16);
}

/* Truncates like C, saturates, NaN -> 0. */
static inline int32_t cvt_f32_i32(float f)
{
	if (f != f)
		return 0;
	if (f >= 2147483648.0f)
		return 0x7fffffff;
	if (f <= -2147483648.0f)
		return -0x7fffffff - 1;
	return (int32_t)f;
}

/**
 * vops_f32_to_f16() - round an fp32 value to fp16
 * @f: the value.
 *
 * Rounds to nearest even, overflows to infinity, produces subnormals, keeps
 * NaN as a quiet NaN.
 *
 * Return: the fp16 bit pattern.
 */
uint16_t vops_f32_to_f16(float f)
{
	return cvt_f32_f16(f);
}

/**
 * vops_f16_to_f32() - widen an fp16 value to fp32 (exact)
 * @h: fp16 bit pattern.
 *
 *
 * Return: the value.
 */
float vops_f16_to_f32(uint16_t h)
{
	return cvt_f16_f32(h);
}

/**
 * vops_f32_to_bf16() - round an fp32 value to bf16
 * @f: the value.
 *
 * Rounds to nearest even, overflows to infinity, keeps NaN as a quiet NaN.
 *
 * Return: the bf16 bit pattern.
 */
uint16_t vops_f32_to_bf16(float f)
{
	return cvt_f32_bf16(f);
}

/**
 * vops_bf16_to_f32() - widen a bf16 value to fp32 (exact)
 * @h: bf16 bit pattern.
 *
 *
 * Return: the value.
 */
float vops_bf16_to_f32(uint16_t h)
{
	return cvt_bf16_f32(h);
}

/* ---- array conversions ---------------------------------------------- */

/* dst[0, n) = elements [off, off + n) of @src (of @dtype) as fp32. */
void ops_load_f32(float *restrict dst, const void *src, int32_t dtype, uint64_t off, uint64_t n)
{
	const uint16_t *h = (const uint16_t *)src + off;
	const int32_t *v = (const int32_t *)src + off;

	switch (dtype) {
	case ACL_FLOAT:
		memcpy(dst, (const float *)src + off, n * 4);
		break;
	case ACL_FLOAT16:
		OPS_BLOCKED(i, n, dst[i] = cvt_f16_f32(h[i]));
		break;
	case ACL_BF16:
		OPS_BLOCKED(i, n, dst[i] = cvt_bf16_f32(h[i]));
		break;
	default:
		OPS_BLOCKED(i, n, dst[i] = (float)v[i]);
		break;
	}
}

/* Elements [off, off + n) of @dst (of @dtype) = src[0, n), rounded. */
void ops_store_f32(void *dst, int32_t dtype, uint64_t off, const float *restrict src, uint64_t n)
{
	uint16_t *h = (uint16_t *)dst + off;
	int32_t *v = (int32_t *)dst + off;
	uint64_t i;

	switch (dtype) {
	case ACL_FLOAT:
		memcpy((float *)dst + off, src, n * 4);
		break;
	case ACL_FLOAT16:
		OPS_BLOCKED(i, n, h[i] = cvt_f32_f16(src[i]));
		break;
	case ACL_BF16:
		OPS_BLOCKED(i, n, h[i] = cvt_f32_bf16(src[i]));
		break;
	default:
		for (i = 0; i < n; i++)
			v[i] = cvt_f32_i32(src[i]);
		break;
	}
}

static void fill_f32(float *restrict dst, float v, uint64_t n)
{
	OPS_BLOCKED(i, n, dst[i] = v);
}

static void fill_u32(uint32_t *restrict dst, uint32_t v, uint64_t n)
{
	OPS_BLOCKED(i, n, dst[i] = v);
}

/* ---- element-wise --------------------------------------------------- */

static void ew_f32(uint32_t op, float *restrict o, const float *restrict x,
		   const float *restrict y, uint64_t n)
{
	switch (op) {
	case OPS_K_ADD:
		OPS_BLOCKED(i, n, o[i] = x[i] + y[i]);
		break;
	case OPS_K_SUB:
		OPS_BLOCKED(i, n, o[i] = x[i] - y[i]);
		break;
	case OPS_K_MUL:
		OPS_BLOCKED(i, n, o[i] = x[i] * y[i]);
		break;
	default:
		OPS_BLOCKED(i, n, o[i] = x[i] / y[i]);
		break;
	}
}

/* int32 arithmetic wraps modulo 2^32; DIV truncates, INT_MIN / -1 = INT_MIN. */
static enum vops_run_status ew_i32(uint32_t op, uint32_t *restrict o, const uint32_t *restrict x,
				   const uint32_t *restrict y, uint64_t n)
{
	uint64_t i;

	switch (op) {
	case OPS_K_ADD:
		OPS_BLOCKED(j, n, o[j] = x[j] + y[j]);
		return VOPS_RUN_OK;
	case OPS_K_SUB:
		OPS_BLOCKED(j, n, o[j] = x[j] - y[j]);
		return VOPS_RUN_OK;
	case OPS_K_MUL:
		OPS_BLOCKED(j, n, o[j] = x[j] * y[j]);
		return VOPS_RUN_OK;
	}
	for (i = 0; i < n; i++) {
		int32_t d = (int32_t)y[i];

		if (!d)
			return VOPS_RUN_ARITH;
		o[i] = d == -1 ? 0u - x[i] : (uint32_t)((int32_t)x[i] / d);
	}
	return VOPS_RUN_OK;
}

/*
 * The binary operators below take a broadcast scalar from @scalar (its
 * bits, read before the first chunk), never from the operand itself: the
 * output may have overwritten that by now.
 */
static enum vops_run_status run_binary_i32(const struct ops_args *a, uint32_t scalar, uint64_t e0,
					   uint64_t e1)
{
	const uint32_t *x = a->in0, *y = a->in1;
	uint32_t *o = a->out;
	uint32_t sc[OPS_TILE];
	uint64_t t, len;
	enum vops_run_status ret;

	if (!(a->flags & (OPS_F_SCALAR_IN0 | OPS_F_SCALAR_IN1)))
		return ew_i32(a->kind, o + e0, x + e0, y + e0, e1 - e0);

	fill_u32(sc, scalar, OPS_TILE);
	for (t = e0; t < e1; t += len) {
		len = min_u64(OPS_TILE, e1 - t);
		if (a->flags & OPS_F_SCALAR_IN0)
			ret = ew_i32(a->kind, o + t, sc, y + t, len);
		else
			ret = ew_i32(a->kind, o + t, x + t, sc, len);
		if (ret)
			return ret;
	}
	return VOPS_RUN_OK;
}

static void run_binary_f32(const struct ops_args *a, uint32_t scalar, uint64_t e0, uint64_t e1)
{
	const float *x = a->in0, *y = a->in1;
	float *o = a->out;
	float sc[OPS_TILE];
	uint64_t t, len;

	if (!(a->flags & (OPS_F_SCALAR_IN0 | OPS_F_SCALAR_IN1))) {
		ew_f32(a->kind, o + e0, x + e0, y + e0, e1 - e0);
		return;
	}

	fill_f32(sc, u2f(scalar), OPS_TILE);
	for (t = e0; t < e1; t += len) {
		len = min_u64(OPS_TILE, e1 - t);
		if (a->flags & OPS_F_SCALAR_IN0)
			ew_f32(a->kind, o + t, sc, y + t, len);
		else
			ew_f32(a->kind, o + t, x + t, sc, len);
	}
}

/* fp16/bf16: computed in fp32 tiles, rounded once to the output type. */
static void run_binary_lowp(const struct ops_args *a, uint32_t scalar, uint64_t e0, uint64_t e1)
{
	bool s0 = a->flags & OPS_F_SCALAR_IN0;
	bool s1 = a->flags & OPS_F_SCALAR_IN1;
	float x[OPS_TILE], y[OPS_TILE], o[OPS_TILE];
	uint16_t sbits = scalar;
	uint64_t t, len;

	if (s0 || s1)
		ops_load_f32(s0 ? x : y, &sbits, a->dt, 0, 1);
	if (s0)
		fill_f32(x, x[0], OPS_TILE);
	if (s1)
		fill_f32(y, y[0], OPS_TILE);

	for (t = e0; t < e1; t += len) {
		len = min_u64(OPS_TILE, e1 - t);
		if (!s0)
			ops_load_f32(x, a->in0, a->dt, t, len);
		if (!s1)
			ops_load_f32(y, a->in1, a->dt, t, len);
		ew_f32(a->kind, o, x, y, len);
		ops_store_f32(a->out, a->dt, t, o, len);
	}
}

/*
 * RELU and ABS of the float types work on the bits, exactly as in fp32:
 * ABS clears the sign, RELU maps negative non-zero non-NaN values to +0
 * (-0 and NaN pass through).
 */
static void unary_bits32(uint32_t op, uint32_t *restrict o, const uint32_t *restrict x, uint64_t n)
{
	if (op == OPS_K_ABS)
		OPS_BLOCKED(i, n, o[i] = x[i] & 0x7fffffff);
	else
		OPS_BLOCKED(i, n, o[i] = (x[i] > 0x80000000u && x[i] <= 0xff800000u) ? 0 : x[i]);
}

static void unary_bits16(uint32_t op, uint16_t inf, uint16_t *restrict o, const uint16_t *restrict x,
			 uint64_t n)
{
	uint16_t neg_inf = 0x8000 | inf;

	if (op == OPS_K_ABS)
		OPS_BLOCKED(i, n, o[i] = x[i] & 0x7fff);
	else
		OPS_BLOCKED(i, n, o[i] = (x[i] > 0x8000 && x[i] <= neg_inf) ? 0 : x[i]);
}

/* int32: |INT_MIN| wraps to INT_MIN */
static void unary_i32(uint32_t op, uint32_t *restrict o, const uint32_t *restrict x, uint64_t n)
{
	if (op == OPS_K_ABS)
		OPS_BLOCKED(i, n, o[i] = (int32_t)x[i] < 0 ? 0u - x[i] : x[i]);
	else
		OPS_BLOCKED(i, n, o[i] = (int32_t)x[i] < 0 ? 0u : x[i]);
}

static void run_unary(const struct ops_args *a, uint64_t e0, uint64_t e1)
{
	switch (a->dt) {
	case ACL_FLOAT:
		unary_bits32(a->kind, (uint32_t *)a->out + e0, (const uint32_t *)a->in0 + e0, e1 - e0);
		break;
	case ACL_INT32:
		unary_i32(a->kind, (uint32_t *)a->out + e0, (const uint32_t *)a->in0 + e0, e1 - e0);
		break;
	case ACL_FLOAT16:
		unary_bits16(a->kind, 0x7c00, (uint16_t *)a->out + e0, (const uint16_t *)a->in0 + e0,
			     e1 - e0);
		break;
	default:
		unary_bits16(a->kind, 0x7f80, (uint16_t *)a->out + e0, (const uint16_t *)a->in0 + e0,
			     e1 - e0);
		break;
	}
}

static void run_cast(const struct ops_args *a, uint64_t e0, uint64_t e1)
{
	uint32_t es = (a->dt == ACL_FLOAT16 || a->dt == ACL_BF16) ? 2 : 4;
	float tile[OPS_TILE];
	uint64_t t, len;

	if (a->dt == a->odt) {
		memmove((uint8_t *)a->out + e0 * es, (const uint8_t *)a->in0 + e0 * es,
			(e1 - e0) * es);
		return;
	}
	/* int32 -> fp16/bf16 rounds twice: to fp32, then to the output type */
	for (t = e0; t < e1; t += len) {
		len = min_u64(OPS_TILE, e1 - t);
		ops_load_f32(tile, a->in0, a->dt, t, len);
		ops_store_f32(a->out, a->odt, t, tile, len);
	}
}

static enum vops_run_status run_ew(const struct ops_args *a, const struct ops_chunk *c)
{
	uint64_t e0 = c->row0, e1 = c->row1;

	switch (a->kind) {
	case OPS_K_RELU:
	case OPS_K_ABS:
		run_unary(a, e0, e1);
		return VOPS_RUN_OK;
	case OPS_K_CAST:
		run_cast(a, e0, e1);
		return VOPS_RUN_OK;
	}
	switch (a->dt) {
	case ACL_INT32:
		return run_binary_i32(a, c->carry[0], e0, e1);
	case ACL_FLOAT:
		run_binary_f32(a, c->carry[0], e0, e1);
		return VOPS_RUN_OK;
	default:
		run_binary_lowp(a, c->carry[0], e0, e1);
		return VOPS_RUN_OK;
	}
}

/* ---- reductions ----------------------------------------------------- */

/*
 * Pairwise sum: 8 lanes over at most 256 elements, halves above that.
 * Chunks are at most OPS_ROW_CHUNK elements, so the recursion is at
 * most 7 deep.
 */
static float sum_f32(const float *restrict x, uint64_t n)
{
	float s[8] = { 0 };
	float r;
	uint64_t i = 0, h;
	uint32_t l;

	if (n > 256) {
		h = (n / 2) & ~7ull;
		return sum_f32(x, h) + sum_f32(x + h, n - h);
	}
	for (; i + 8 <= n; i += 8)
		for (l = 0; l < 8; l++)
			s[l] += x[i + l];
	r = ((s[0] + s[4]) + (s[1] + s[5])) + ((s[2] + s[6]) + (s[3] + s[7]));
	for (; i < n; i++)
		r += x[i];
	return r;
}

/* max where NaN, once seen, sticks */
static inline float max_nan(float m, float v)
{
	return (v > m || v != v) ? v : m;
}

static float max_f32(const float *restrict x, uint64_t n)
{
	float m[8], r;
	uint64_t i = 0;
	uint32_t l;

	for (l = 0; l < 8; l++)
		m[l] = u2f(OPS_F32_NEG_INF);
	for (; i + 8 <= n; i += 8)
		for (l = 0; l < 8; l++)
			m[l] = max_nan(m[l], x[i + l]);
	r = m[0];
	for (l = 1; l < 8; l++)
		r = max_nan(r, m[l]);
	for (; i < n; i++)
		r = max_nan(r, x[i]);
	return r;
}

static uint32_t sum_u32(const uint32_t *restrict x, uint64_t n)
{
	uint32_t s[8] = { 0 };
	uint32_t r = 0;
	uint64_t i = 0;
	uint32_t l;

	for (; i + 8 <= n; i += 8)
		for (l = 0; l < 8; l++)
			s[l] += x[i + l];
	for (l = 0; l < 8; l++)
		r += s[l];
	for (; i < n; i++)
		r += x[i];
	return r;
}

static int32_t max_s32(const int32_t *restrict x, uint64_t n)
{
	int32_t m[8], r;
	uint64_t i = 0;
	uint32_t l;

	for (l = 0; l < 8; l++)
		m[l] = -0x7fffffff - 1;
	for (; i + 8 <= n; i += 8)
		for (l = 0; l < 8; l++)
			m[l] = x[i + l] > m[l] ? x[i + l] : m[l];
	r = m[0];
	for (l = 1; l < 8; l++)
		r = m[l] > r ? m[l] : r;
	for (; i < n; i++)
		r = x[i] > r ? x[i] : r;
	return r;
}

/* Kahan-adds @v to the sum in carry[s] with its compensation in carry[s + 1]. */
static void carry_kahan(struct ops_chunk *c, uint32_t s, float v, bool first)
{
	float sum = u2f(c->carry[s]), comp = u2f(c->carry[s + 1]);
	float y, t;

	if (first) {
		sum = v;
		comp = 0.0f;
	} else {
		y = v - comp;
		t = sum + y;
		comp = (t - sum) - y;
		if (comp != comp)	/* the sum became inf or NaN */
			comp = 0.0f;
		sum = t;
	}
	c->carry[s] = f2u(sum);
	c->carry[s + 1] = f2u(comp);
}

/* Whole rows: each row is copied/converted into the workspace, reduced there. */
static void run_reduce_rows(const struct ops_args *a, uint64_t r0, uint64_t r1)
{
	uint64_t cols = a->d[1], r;
	float v;

	for (r = r0; r < r1; r++) {
		if (a->dt == ACL_INT32) {
			uint32_t *w = a->ws;

			memcpy(w, (const uint32_t *)a->in0 + r * cols, cols * 4);
			((uint32_t *)a->out)[r] = a->kind == OPS_K_REDUCE_SUM ?
					     sum_u32(w, cols) :
					     (uint32_t)max_s32((const int32_t *)w, cols);
			continue;
		}
		ops_load_f32(a->ws, a->in0, a->dt, r * cols, cols);
		v = a->kind == OPS_K_REDUCE_SUM ? sum_f32(a->ws, cols) : max_f32(a->ws, cols);
		ops_store_f32(a->out, a->dt, r, &v, 1);
	}
}

/* One segment of a long row; the row's result is stored after its last one. */
static void run_reduce_seg(const struct ops_args *a, struct ops_chunk *c)
{
	uint64_t cols = a->d[1], row = c->row0, c0 = c->col0, len = c->col1 - c->col0;
	bool first = c0 == 0, last = c->col1 == cols;
	bool sum = a->kind == OPS_K_REDUCE_SUM;
	float v;

	if (a->dt == ACL_INT32) {
		uint32_t *w = (uint32_t *)a->ws + c0;
		uint32_t p;

		memcpy(w, (const uint32_t *)a->in0 + row * cols + c0, len * 4);
		p = sum ? sum_u32(w, len) : (uint32_t)max_s32((const int32_t *)w, len);
		if (first)
			c->carry[0] = p;
		else if (sum)
			c->carry[0] += p;
		else if ((int32_t)p > (int32_t)c->carry[0])
			c->carry[0] = p;
		if (last)
			((uint32_t *)a->out)[row] = c->carry[0];
		return;
	}

	ops_load_f32((float *)a->ws + c0, a->in0, a->dt, row * cols + c0, len);
	if (sum) {
		carry_kahan(c, 0, sum_f32((float *)a->ws + c0, len), first);
	} else {
		v = max_f32((float *)a->ws + c0, len);
		c->carry[0] = f2u(first ? v : max_nan(u2f(c->carry[0]), v));
	}
	if (last) {
		v = u2f(c->carry[0]);
		ops_store_f32(a->out, a->dt, row, &v, 1);
	}
}

/* ---- softmax -------------------------------------------------------- */

/*
 * exp(x) for x <= 0 (softmax feeds it x - max): x = k*ln2 + r with
 * |r| <= ln2/2 (Cody-Waite), exp(r) by its degree-7 Taylor polynomial
 * (truncation < 1e-8 relative), times 2^k applied as two normal powers of
 * two so that subnormal results are rounded once, correctly. Below -104
 * the result is 0, NaN stays NaN; positive x is outside the domain (no
 * undefined behaviour, but meaningless results above 104). Relative error
 * about 1e-7. Branchless (sel_u32()) so that the softmax loop vectorises.
 */
static inline float exp_neg(float x)
{
	uint32_t ax = f2u(x) & 0x7fffffff;
	uint32_t big = ax > 0x42d00000;		/* |x| > 104, inf or NaN */
	float xc = u2f(sel_u32(big, 0xc2d00000, f2u(x)));	/* -104 when big */
	float kf, r, p;
	int32_t k, k1;

	kf = xc * 1.44269504f + 12582912.0f;	/* round to nearest integer */
	kf -= 12582912.0f;
	k = (int32_t)kf;				/* -150..150 */
	k1 = k / 2;
	r = x - kf * 0.693359375f;		/* ln2 high part: exact product */
	r = r - kf * -2.12194440e-4f;		/* ln2 low part */
	p = 1.0f / 5040.0f;
	p = p * r + 1.0f / 720.0f;
	p = p * r + 1.0f / 120.0f;
	p = p * r + 1.0f / 24.0f;
	p = p * r + 1.0f / 6.0f;
	p = p * r + 0.5f;
	p = p * r + 1.0f;
	p = p * r + 1.0f;
	p *= u2f((uint32_t)(k1 + 127) << 23);
	p *= u2f((uint32_t)(k - k1 + 127) << 23);
	/* beyond -104 (or -inf): 0; NaN: p is NaN already */
	return u2f(sel_u32(big & (ax <= 0x7f800000), 0, f2u(p)));
}

/* w[j] = exp(w[j] - mx); returns their pairwise sum. */
static float exp_sum(float *restrict w, uint64_t n, float mx)
{
	OPS_BLOCKED(i, n, w[i] = exp_neg(w[i] - mx));
	return sum_f32(w, n);
}

/* Elements [off, off + n) of out (of dtype) = w[0, n) / s. */
static void store_div(void *out, int32_t dtype, uint64_t off, const float *restrict w, uint64_t n,
		      float s)
{
	float tile[OPS_TILE];
	uint64_t t, len;

	if (dtype == ACL_FLOAT) {
		float *restrict o = (float *)out + off;

		OPS_BLOCKED(i, n, o[i] = w[i] / s);
		return;
	}
	for (t = 0; t < n; t += len) {
		len = min_u64(OPS_TILE, n - t);
		OPS_BLOCKED(i, len, tile[i] = w[t + i] / s);
		ops_store_f32(out, dtype, off + t, tile, len);
	}
}

/* Whole rows: row -> workspace, max, exp in place, sum, normalise into out. */
static void run_softmax_rows(const struct ops_args *a, uint64_t r0, uint64_t r1)
{
	uint64_t cols = a->d[1], r;
	float *w = a->ws;
	float mx, s;

	for (r = r0; r < r1; r++) {
		ops_load_f32(w, a->in0, a->dt, r * cols, cols);
		mx = max_f32(w, cols);
		s = exp_sum(w, cols, mx);
		store_div(a->out, a->dt, r * cols, w, cols, s);
	}
}

/* A long row in three passes over segments; carry = max, sum, compensation. */
static void run_softmax_seg(const struct ops_args *a, struct ops_chunk *c)
{
	uint64_t cols = a->d[1], c0 = c->col0, len = c->col1 - c->col0;
	uint64_t off = c->row0 * cols + c0;
	float *w = (float *)a->ws + c0;
	bool first = c0 == 0;
	float v;

	switch (c->phase) {
	case OPS_PH_SM_MAX:
		ops_load_f32(w, a->in0, a->dt, off, len);
		v = max_f32(w, len);
		c->carry[0] = f2u(first ? v : max_nan(u2f(c->carry[0]), v));
		break;
	case OPS_PH_SM_EXP:
		carry_kahan(c, 1, exp_sum(w, len, u2f(c->carry[0])), first);
		break;
	default:
		store_div(a->out, a->dt, off, w, len, u2f(c->carry[1]));
		break;
	}
}

/* ---- reductions and softmax with inner > 1 -------------------------- */

/*
 * The tensor is rows x cols x inner and the work runs along cols, so the
 * loops step through the columns and handle a vector of inner elements per
 * step. The workspace holds one array of inner words per running value:
 * REDUCE_MAX the max; REDUCE_SUM the sum and its Kahan compensation;
 * SOFTMAX the max, the sum of exponentials and its compensation. A block
 * (columns [c0, c1) x inner [k0, k1) of one row) starts the values at
 * column 0 and the last block of a column run writes the result.
 */

/* 1 if @f is neither infinite nor NaN */
static inline uint32_t finite_f32(float f)
{
	return (f2u(f) & 0x7fffffff) < 0x7f800000;
}

/* max_nan() without a branch */
static inline float max_nan_sel(float m, float v)
{
	return u2f(sel_u32((v > m) | (v != v), f2u(v), f2u(m)));
}

/*
 * s[i] += x[i] with the Kahan compensation in cp[i]; a compensation that is
 * not finite (the sum overflowed or is NaN) is dropped, so an infinite sum
 * stays infinite instead of turning into NaN.
 */
static void kahan_add_v(float *restrict s, float *restrict cp, const float *restrict x, uint64_t n)
{
	OPS_BLOCKED(i, n, {
		float y = x[i] - cp[i];
		float t = s[i] + y;
		float e = (t - s[i]) - y;

		cp[i] = u2f(sel_u32(finite_f32(e), f2u(e), 0));
		s[i] = t;
	});
}

static void max_v_f32(float *restrict m, const float *restrict x, uint64_t n)
{
	OPS_BLOCKED(i, n, m[i] = max_nan_sel(m[i], x[i]));
}

static void add_v_u32(uint32_t *restrict s, const uint32_t *restrict x, uint64_t n)
{
	OPS_BLOCKED(i, n, s[i] += x[i]);
}

static void max_v_s32(int32_t *restrict m, const int32_t *restrict x, uint64_t n)
{
	OPS_BLOCKED(i, n, m[i] = x[i] > m[i] ? x[i] : m[i]);
}

/* One column step of a float reduction over @n inner elements. */
static void red_step_f32(bool sum, bool first, float *restrict acc, float *restrict cp,
			 const float *restrict x, uint64_t n)
{
	if (first) {
		memcpy(acc, x, n * 4);
		if (sum)
			fill_f32(cp, 0.0f, n);
	} else if (sum) {
		kahan_add_v(acc, cp, x, n);
	} else {
		max_v_f32(acc, x, n);
	}
}

/* REDUCE_*: columns [c0, c1) x inner [k0, k1) of @row. */
static void red_inner_block(const struct ops_args *a, uint64_t row, uint64_t c0, uint64_t c1,
			    uint64_t k0, uint64_t k1)
{
	uint64_t cols = a->d[1], inner = a->d[2], n = k1 - k0;
	uint64_t base = row * cols * inner + k0, c, t, len;
	bool sum = a->kind == OPS_K_REDUCE_SUM;
	float *acc = (float *)a->ws + k0, *cp = (float *)a->ws + inner + k0;
	float tile[OPS_TILE];

	if (a->dt == ACL_INT32) {
		uint32_t *iacc = (uint32_t *)a->ws + k0;

		for (c = c0; c < c1; c++) {
			const uint32_t *x = (const uint32_t *)a->in0 + base + c * inner;

			if (!c)
				memcpy(iacc, x, n * 4);
			else if (sum)
				add_v_u32(iacc, x, n);
			else
				max_v_s32((int32_t *)iacc, (const int32_t *)x, n);
		}
		if (c1 == cols)
			memcpy((uint32_t *)a->out + row * inner + k0, iacc, n * 4);
		return;
	}

	for (c = c0; c < c1; c++) {
		if (a->dt == ACL_FLOAT) {
			red_step_f32(sum, !c, acc, cp, (const float *)a->in0 + base + c * inner, n);
			continue;
		}
		for (t = 0; t < n; t += len) {
			len = min_u64(OPS_TILE, n - t);
			ops_load_f32(tile, a->in0, a->dt, base + c * inner + t, len);
			red_step_f32(sum, !c, acc + t, cp + t, tile, len);
		}
	}
	if (c1 == cols)
		ops_store_f32(a->out, a->dt, row * inner + k0, acc, n);
}

/* e[i] = exp(x[i] - m[i]) */
static void exp_v(float *restrict e, const float *restrict x, const float *restrict m, uint64_t n)
{
	OPS_BLOCKED(i, n, e[i] = exp_neg(x[i] - m[i]));
}

static void div_v(float *restrict e, const float *restrict s, uint64_t n)
{
	OPS_BLOCKED(i, n, e[i] = e[i] / s[i]);
}

/*
 * SOFTMAX pass @phase (a OPS_PH_IN_SM_* value) on columns [c0, c1) x
 * inner [k0, k1) of @row. The exponentials are computed again in the last
 * pass rather than kept: keeping them would take a workspace as large as
 * the tensor.
 */
static void sm_inner_block(const struct ops_args *a, uint32_t phase, uint64_t row, uint64_t c0, uint64_t c1,
			   uint64_t k0, uint64_t k1)
{
	uint64_t cols = a->d[1], inner = a->d[2], n = k1 - k0, c, t, len;
	float *mx = (float *)a->ws + k0, *sm = mx + inner, *cp = sm + inner;
	float x[OPS_TILE], e[OPS_TILE];

	for (c = c0; c < c1; c++) {
		uint64_t off = (row * cols + c) * inner + k0;

		for (t = 0; t < n; t += len) {
			len = min_u64(OPS_TILE, n - t);
			ops_load_f32(x, a->in0, a->dt, off + t, len);
			switch (phase) {
			case OPS_PH_IN_SM_MAX:
				red_step_f32(false, !c, mx + t, NULL, x, len);
				break;
			case OPS_PH_IN_SM_EXP:
				exp_v(e, x, mx + t, len);
				red_step_f32(true, !c, sm + t, cp + t, e, len);
				break;
			default:
				exp_v(e, x, mx + t, len);
				div_v(e, sm + t, len);
				ops_store_f32(a->out, a->dt, off + t, e, len);
				break;
			}
		}
	}
}

/* Whole rows [r0, r1) with inner > 1. */
static void run_inner_rows(const struct ops_args *a, uint64_t r0, uint64_t r1)
{
	uint64_t cols = a->d[1], inner = a->d[2], r;

	for (r = r0; r < r1; r++) {
		if (a->kind != OPS_K_SOFTMAX) {
			red_inner_block(a, r, 0, cols, 0, inner);
			continue;
		}
		sm_inner_block(a, OPS_PH_IN_SM_MAX, r, 0, cols, 0, inner);
		sm_inner_block(a, OPS_PH_IN_SM_EXP, r, 0, cols, 0, inner);
		sm_inner_block(a, OPS_PH_IN_SM_NORM, r, 0, cols, 0, inner);
	}
}

/* ---- int32 matmul ------------------------------------------------------ */

static void axpy4_u32(uint32_t *restrict acc, const uint32_t *restrict b0,
		      const uint32_t *restrict b1, const uint32_t *restrict b2,
		      const uint32_t *restrict b3, const uint32_t *restrict s, uint64_t n)
{
	uint32_t s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];

	OPS_BLOCKED(j, n, acc[j] += s0 * b0[j] + s1 * b1[j] + s2 * b2[j] + s3 * b3[j]);
}

static void axpy1_u32(uint32_t *restrict acc, const uint32_t *restrict b, uint32_t s, uint64_t n)
{
	OPS_BLOCKED(j, n, acc[j] += s * b[j]);
}

/* Workspace layout: [A m x k][B k x n], each part only if stored transposed. */
struct mm_layout {
	const uint32_t *a;	/* row-major m x k */
	const uint32_t *b;	/* row-major k x n */
	uint32_t *a_ws;		/* repacked A, or NULL */
	uint32_t *b_ws;		/* repacked B, or NULL */
};

static void mm_layout(const struct ops_args *a, struct mm_layout *l)
{
	uint64_t m = a->d[0], k = a->d[2];
	uint32_t *ws = a->ws;

	l->a_ws = NULL;
	l->b_ws = NULL;
	l->a = a->in0;
	l->b = a->in1;
	if (a->flags & OPS_F_TRANS_A) {
		l->a = l->a_ws = ws;
		ws += m * k;
	}
	if (a->flags & OPS_F_TRANS_B)
		l->b = l->b_ws = ws;
}

/*
 * Repacks destination elements [e0, e1) of a rows x cols row-major matrix
 * from @src, which is stored cols x rows.
 */
static void mm_pack(uint32_t *dst, const uint32_t *src, uint64_t rows, uint64_t cols, uint64_t e0,
		    uint64_t e1)
{
	uint64_t r = e0 / cols, cl = e0 % cols, e;

	for (e = e0; e < e1; e++) {
		dst[e] = src[cl * rows + r];
		if (++cl == cols) {
			cl = 0;
			r++;
		}
	}
}

/*
 * out[i][j] for rows [row0, row1), columns [col0, col1), adding the terms
 * k in [k0, k1) to the output (zeroed at k0 == 0). Loop order i-k-j, four
 * k per pass over j; int32 wraps modulo 2^32.
 */
static void mm_compute(const struct ops_args *a, const struct ops_chunk *c)
{
	uint64_t n = a->d[1], k = a->d[2];
	uint64_t j0 = c->col0, jn = c->col1 - c->col0, i, kk;
	struct mm_layout l;

	mm_layout(a, &l);
	for (i = c->row0; i < c->row1; i++) {
		uint32_t *acc = (uint32_t *)a->out + i * n + j0;
		const uint32_t *ar = l.a + i * k;
		const uint32_t *b = l.b + j0;

		if (!c->k0)
			memset(acc, 0, jn * 4);
		for (kk = c->k0; kk + 4 <= c->k1; kk += 4)
			axpy4_u32(acc, b + kk * n, b + (kk + 1) * n, b + (kk + 2) * n,
				  b + (kk + 3) * n, ar + kk, jn);
		for (; kk < c->k1; kk++)
			axpy1_u32(acc, b + kk * n, ar[kk], jn);
	}
}

static void run_matmul(const struct ops_args *a, const struct ops_chunk *c)
{
	uint64_t m = a->d[0], n = a->d[1], k = a->d[2];
	struct mm_layout l;

	mm_layout(a, &l);
	switch (c->phase) {
	case OPS_PH_MM_PACK_A:
		mm_pack(l.a_ws, a->in0, m, k, c->row0, c->row1);
		break;
	case OPS_PH_MM_PACK_B:
		mm_pack(l.b_ws, a->in1, k, n, c->row0, c->row1);
		break;
	default:
		mm_compute(a, c);
		break;
	}
}

/* ---- entry ---------------------------------------------------------------- */

/*
 * ops_chunk_run() - run one chunk planned by ops_prim_run()
 *
 * Returns VOPS_RUN_OK or VOPS_RUN_ARITH (int32 division by zero).
 */
enum vops_run_status ops_chunk_run(const struct ops_args *a, struct ops_chunk *c)
{
	switch (c->phase) {
	case OPS_PH_EW:
		return run_ew(a, c);
	case OPS_PH_ROWS:
		if (a->kind == OPS_K_SOFTMAX)
			run_softmax_rows(a, c->row0, c->row1);
		else
			run_reduce_rows(a, c->row0, c->row1);
		break;
	case OPS_PH_RED_SEG:
		run_reduce_seg(a, c);
		break;
	case OPS_PH_SM_MAX:
	case OPS_PH_SM_EXP:
	case OPS_PH_SM_NORM:
		run_softmax_seg(a, c);
		break;
	case OPS_PH_MM_PACK_A:
	case OPS_PH_MM_PACK_B:
	case OPS_PH_MM:
		run_matmul(a, c);
		break;
	case OPS_PH_IN_ROWS:
		run_inner_rows(a, c->row0, c->row1);
		break;
	case OPS_PH_IN_RED:
		red_inner_block(a, c->row0, c->col0, c->col1, c->k0, c->k1);
		break;
	case OPS_PH_IN_SM_MAX:
	case OPS_PH_IN_SM_EXP:
	case OPS_PH_IN_SM_NORM:
		sm_inner_block(a, c->phase, c->row0, c->col0, c->col1, c->k0, c->k1);
		break;
	}
	return VOPS_RUN_OK;
}
