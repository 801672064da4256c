// SPDX-License-Identifier: GPL-2.0
/*
 * vnpu compute kernels: the float side.
 *
 * This object is compiled with SSE2 enabled and any function in it may use
 * FPU/SSE registers, also for integer work (gcc vectorises integer loops
 * and block copies with them). In the kernel everything here therefore
 * runs between kernel_fpu_begin() and kernel_fpu_end(): vnpu_ops.c enters
 * only through vnpu_ops_fp_chunk(), one bounded chunk per FPU section.
 * Nothing float crosses that boundary; values carried between the chunks
 * of one long row travel as bit patterns in struct vnpu_ops_chunk.
 *
 * No libm and no libgcc: exp, fabs and the fp16/bf16 conversions are
 * written out here, and there are no conversions between u64 and float.
 *
 * Hot loops are written as blocks of 8 independent iterations (see
 * VNPU_BLOCKED) over restrict pointers: gcc 12 at -O2 uses the "very-cheap"
 * vectoriser cost model, which vectorises such blocks into packed SSE
 * instructions but leaves plain loops with an unknown trip count scalar.
 * fp16/bf16 data is converted through fp32 tiles of VNPU_TILE elements on
 * the stack; everything else intermediate lives in the workspace.
 */
#define VNPU_OPS_INTERNAL
#define VNPU_OPS_FP_UNIT
#include "vnpu_ops.h"

#ifdef VNPU_OPS_HOST
#include <string.h>
#else
#include <linux/string.h>
#endif

/* Elements per on-stack fp32 tile; at most three tiles (384 bytes) live. */
#define VNPU_TILE 32u

#define VNPU_F32_NEG_INF 0xff800000u

/*
 * for (i = 0; i < n; i++) body; as blocks of 8 that gcc vectorises, then
 * a scalar tail. Iterations must be independent.
 */
#define VNPU_BLOCKED(i, n, body)					\
	do {								\
		u64 i##_end = (n) & ~7ull, i##_blk, i;			\
		u32 i##_lane;						\
		for (i##_blk = 0; i##_blk < i##_end; i##_blk += 8) {	\
			for (i##_lane = 0; i##_lane < 8; i##_lane++) {	\
				i = i##_blk + i##_lane;			\
				body;					\
			}						\
		}							\
		for (i = i##_end; i < (n); i++) {			\
			body;						\
		}							\
	} while (0)

union vnpu_f32_bits {
	float f;
	u32 u;
};

static inline u32 f2u(float f)
{
	union vnpu_f32_bits b = { .f = f };

	return b.u;
}

static inline float u2f(u32 u)
{
	union vnpu_f32_bits b = { .u = u };

	return b.f;
}

/*
 * cond ? a : b for a 0/1 cond, by masks: gcc turns ?: into branches and
 * then will not if-convert float arithmetic that ends up inside them
 * (-ftrapping-math), which stops vectorisation.
 */
static inline u32 sel_u32(u32 cond, u32 a, u32 b)
{
	u32 m = 0u - cond;

	return (a & m) | (b & ~m);
}

static inline u64 min_u64(u64 a, u64 b)
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
static inline u16 cvt_f32_f16(float f)
{
	u32 x = f2u(f);
	u32 sign = (x >> 16) & 0x8000;
	u32 ax = x & 0x7fffffff;
	/* NaN: top payload bits, quieted; >= 65520 (after rounding) inf */
	u32 special = ax > 0x7f800000 ? 0x7e00 | ((ax >> 13) & 0x3ff) : 0x7c00;
	/* normal: rebias 127 -> 15, round at bit 13 (may carry into inf) */
	u32 normal = (ax - 0x38000000 + 0xfff + ((ax >> 13) & 1)) >> 13;
	/* below 2^-14: the low bits of |f| + 0.5 are the rounded result */
	u32 sub = f2u(u2f(ax) + 0.5f) - 0x3f000000;
	u32 r = sel_u32(ax >= 0x47800000, special, normal);

	return sign | sel_u32(ax < 0x38800000, sub, r);
}

/* fp16 -> fp32, exact; branchless like cvt_f32_f16(). */
static inline float cvt_f16_f32(u16 h)
{
	u32 sign = (u32)(h & 0x8000) << 16;
	u32 em = h & 0x7fff;
	u32 normal = (em << 13) + 0x38000000;
	u32 special = (em << 13) | 0x7f800000;	/* inf, NaN (payload kept) */
	u32 sub = f2u((float)(s32)em * 0x1p-24f);	/* zero, subnormal: exact */
	u32 r = sel_u32(em >= 0x7c00, special, normal);

	return u2f(sign | sel_u32(em < 0x0400, sub, r));
}

static inline u16 cvt_f32_bf16(float f)
{
	u32 x = f2u(f);

	if ((x & 0x7fffffff) > 0x7f800000)	/* NaN: quieted */
		return (x >> 16) | 0x40;
	/* round to nearest even; overflow carries into infinity */
	return (x + 0x7fff + ((x >> 16) & 1)) >> 16;
}

static inline float cvt_bf16_f32(u16 h)
{
	return u2f((u32)h << 16);
}

/* Truncates like C, saturates, NaN -> 0. */
static inline s32 cvt_f32_i32(float f)
{
	if (f != f)
		return 0;
	if (f >= 2147483648.0f)
		return 0x7fffffff;
	if (f <= -2147483648.0f)
		return -0x7fffffff - 1;
	return (s32)f;
}

/**
 * vnpu_f32_to_f16() - round an fp32 value to fp16
 * @f: the value.
 *
 * Rounds to nearest even, overflows to infinity, produces subnormals, keeps
 * NaN as a quiet NaN. In the kernel: only inside an FPU section.
 *
 * Return: the fp16 bit pattern.
 */
u16 vnpu_f32_to_f16(float f)
{
	return cvt_f32_f16(f);
}

/**
 * vnpu_f16_to_f32() - widen an fp16 value to fp32 (exact)
 * @h: fp16 bit pattern.
 *
 * In the kernel: only inside an FPU section.
 *
 * Return: the value.
 */
float vnpu_f16_to_f32(u16 h)
{
	return cvt_f16_f32(h);
}

/**
 * vnpu_f32_to_bf16() - round an fp32 value to bf16
 * @f: the value.
 *
 * Rounds to nearest even, overflows to infinity, keeps NaN as a quiet NaN.
 * In the kernel: only inside an FPU section.
 *
 * Return: the bf16 bit pattern.
 */
u16 vnpu_f32_to_bf16(float f)
{
	return cvt_f32_bf16(f);
}

/**
 * vnpu_bf16_to_f32() - widen a bf16 value to fp32 (exact)
 * @h: bf16 bit pattern.
 *
 * In the kernel: only inside an FPU section.
 *
 * Return: the value.
 */
float vnpu_bf16_to_f32(u16 h)
{
	return cvt_bf16_f32(h);
}

/* ---- array conversions ---------------------------------------------- */

/* dst[0, n) = elements [off, off + n) of @src (of @dtype) as fp32. */
static void load_f32(float *restrict dst, const void *src, u32 dtype, u64 off, u64 n)
{
	const u16 *h = (const u16 *)src + off;
	const s32 *v = (const s32 *)src + off;

	switch (dtype) {
	case VNPU_DTYPE_F32:
		memcpy(dst, (const float *)src + off, n * 4);
		break;
	case VNPU_DTYPE_F16:
		VNPU_BLOCKED(i, n, dst[i] = cvt_f16_f32(h[i]));
		break;
	case VNPU_DTYPE_BF16:
		VNPU_BLOCKED(i, n, dst[i] = cvt_bf16_f32(h[i]));
		break;
	default:
		VNPU_BLOCKED(i, n, dst[i] = (float)v[i]);
		break;
	}
}

/* Elements [off, off + n) of @dst (of @dtype) = src[0, n), rounded. */
static void store_f32(void *dst, u32 dtype, u64 off, const float *restrict src, u64 n)
{
	u16 *h = (u16 *)dst + off;
	s32 *v = (s32 *)dst + off;
	u64 i;

	switch (dtype) {
	case VNPU_DTYPE_F32:
		memcpy((float *)dst + off, src, n * 4);
		break;
	case VNPU_DTYPE_F16:
		VNPU_BLOCKED(i, n, h[i] = cvt_f32_f16(src[i]));
		break;
	case VNPU_DTYPE_BF16:
		VNPU_BLOCKED(i, n, h[i] = cvt_f32_bf16(src[i]));
		break;
	default:
		for (i = 0; i < n; i++)
			v[i] = cvt_f32_i32(src[i]);
		break;
	}
}

static void fill_f32(float *restrict dst, float v, u64 n)
{
	VNPU_BLOCKED(i, n, dst[i] = v);
}

static void fill_u32(u32 *restrict dst, u32 v, u64 n)
{
	VNPU_BLOCKED(i, n, dst[i] = v);
}

/* ---- element-wise --------------------------------------------------- */

static void ew_f32(u32 op, float *restrict o, const float *restrict x,
		   const float *restrict y, u64 n)
{
	switch (op) {
	case VNPU_OP_ADD:
		VNPU_BLOCKED(i, n, o[i] = x[i] + y[i]);
		break;
	case VNPU_OP_SUB:
		VNPU_BLOCKED(i, n, o[i] = x[i] - y[i]);
		break;
	case VNPU_OP_MUL:
		VNPU_BLOCKED(i, n, o[i] = x[i] * y[i]);
		break;
	default:
		VNPU_BLOCKED(i, n, o[i] = x[i] / y[i]);
		break;
	}
}

/* int32 arithmetic wraps modulo 2^32; DIV truncates, INT_MIN / -1 = INT_MIN. */
static int ew_i32(u32 op, u32 *restrict o, const u32 *restrict x,
		  const u32 *restrict y, u64 n)
{
	u64 i;

	switch (op) {
	case VNPU_OP_ADD:
		VNPU_BLOCKED(j, n, o[j] = x[j] + y[j]);
		return 0;
	case VNPU_OP_SUB:
		VNPU_BLOCKED(j, n, o[j] = x[j] - y[j]);
		return 0;
	case VNPU_OP_MUL:
		VNPU_BLOCKED(j, n, o[j] = x[j] * y[j]);
		return 0;
	}
	for (i = 0; i < n; i++) {
		s32 d = (s32)y[i];

		if (!d)
			return -EDOM;
		o[i] = d == -1 ? 0u - x[i] : (u32)((s32)x[i] / d);
	}
	return 0;
}

/*
 * The binary operators below take a broadcast scalar from @scalar (its
 * bits, read before the first chunk), never from the operand itself: the
 * output may have overwritten that by now.
 */
static int run_binary_i32(const struct vnpu_op_args *a, u32 scalar, u64 e0, u64 e1)
{
	const u32 *x = a->in0, *y = a->in1;
	u32 *o = a->out;
	u32 sc[VNPU_TILE];
	u64 t, len;
	int ret;

	if (!(a->flags & (VNPU_OP_F_SCALAR_IN0 | VNPU_OP_F_SCALAR_IN1)))
		return ew_i32(a->op, o + e0, x + e0, y + e0, e1 - e0);

	fill_u32(sc, scalar, VNPU_TILE);
	for (t = e0; t < e1; t += len) {
		len = min_u64(VNPU_TILE, e1 - t);
		if (a->flags & VNPU_OP_F_SCALAR_IN0)
			ret = ew_i32(a->op, o + t, sc, y + t, len);
		else
			ret = ew_i32(a->op, o + t, x + t, sc, len);
		if (ret)
			return ret;
	}
	return 0;
}

static void run_binary_f32(const struct vnpu_op_args *a, u32 scalar, u64 e0, u64 e1)
{
	const float *x = a->in0, *y = a->in1;
	float *o = a->out;
	float sc[VNPU_TILE];
	u64 t, len;

	if (!(a->flags & (VNPU_OP_F_SCALAR_IN0 | VNPU_OP_F_SCALAR_IN1))) {
		ew_f32(a->op, o + e0, x + e0, y + e0, e1 - e0);
		return;
	}

	fill_f32(sc, u2f(scalar), VNPU_TILE);
	for (t = e0; t < e1; t += len) {
		len = min_u64(VNPU_TILE, e1 - t);
		if (a->flags & VNPU_OP_F_SCALAR_IN0)
			ew_f32(a->op, o + t, sc, y + t, len);
		else
			ew_f32(a->op, o + t, x + t, sc, len);
	}
}

/* fp16/bf16: computed in fp32 tiles, rounded once to the output type. */
static void run_binary_lowp(const struct vnpu_op_args *a, u32 scalar, u64 e0, u64 e1)
{
	bool s0 = a->flags & VNPU_OP_F_SCALAR_IN0;
	bool s1 = a->flags & VNPU_OP_F_SCALAR_IN1;
	float x[VNPU_TILE], y[VNPU_TILE], o[VNPU_TILE];
	u16 sbits = scalar;
	u64 t, len;

	if (s0 || s1)
		load_f32(s0 ? x : y, &sbits, a->dtype, 0, 1);
	if (s0)
		fill_f32(x, x[0], VNPU_TILE);
	if (s1)
		fill_f32(y, y[0], VNPU_TILE);

	for (t = e0; t < e1; t += len) {
		len = min_u64(VNPU_TILE, e1 - t);
		if (!s0)
			load_f32(x, a->in0, a->dtype, t, len);
		if (!s1)
			load_f32(y, a->in1, a->dtype, t, len);
		ew_f32(a->op, o, x, y, len);
		store_f32(a->out, a->dtype, t, o, len);
	}
}

/*
 * RELU and ABS of the float types work on the bits, exactly as in fp32:
 * ABS clears the sign, RELU maps negative non-zero non-NaN values to +0
 * (-0 and NaN pass through).
 */
static void unary_bits32(u32 op, u32 *restrict o, const u32 *restrict x, u64 n)
{
	if (op == VNPU_OP_ABS)
		VNPU_BLOCKED(i, n, o[i] = x[i] & 0x7fffffff);
	else
		VNPU_BLOCKED(i, n, o[i] = (x[i] > 0x80000000u && x[i] <= 0xff800000u) ? 0 : x[i]);
}

static void unary_bits16(u32 op, u16 inf, u16 *restrict o, const u16 *restrict x, u64 n)
{
	u16 neg_inf = 0x8000 | inf;

	if (op == VNPU_OP_ABS)
		VNPU_BLOCKED(i, n, o[i] = x[i] & 0x7fff);
	else
		VNPU_BLOCKED(i, n, o[i] = (x[i] > 0x8000 && x[i] <= neg_inf) ? 0 : x[i]);
}

/* int32: |INT_MIN| wraps to INT_MIN */
static void unary_i32(u32 op, u32 *restrict o, const u32 *restrict x, u64 n)
{
	if (op == VNPU_OP_ABS)
		VNPU_BLOCKED(i, n, o[i] = (s32)x[i] < 0 ? 0u - x[i] : x[i]);
	else
		VNPU_BLOCKED(i, n, o[i] = (s32)x[i] < 0 ? 0u : x[i]);
}

static void run_unary(const struct vnpu_op_args *a, u64 e0, u64 e1)
{
	switch (a->dtype) {
	case VNPU_DTYPE_F32:
		unary_bits32(a->op, (u32 *)a->out + e0, (const u32 *)a->in0 + e0, e1 - e0);
		break;
	case VNPU_DTYPE_I32:
		unary_i32(a->op, (u32 *)a->out + e0, (const u32 *)a->in0 + e0, e1 - e0);
		break;
	case VNPU_DTYPE_F16:
		unary_bits16(a->op, 0x7c00, (u16 *)a->out + e0, (const u16 *)a->in0 + e0,
			     e1 - e0);
		break;
	default:
		unary_bits16(a->op, 0x7f80, (u16 *)a->out + e0, (const u16 *)a->in0 + e0,
			     e1 - e0);
		break;
	}
}

static void run_cast(const struct vnpu_op_args *a, u64 e0, u64 e1)
{
	u32 es = (a->dtype == VNPU_DTYPE_F16 || a->dtype == VNPU_DTYPE_BF16) ? 2 : 4;
	float tile[VNPU_TILE];
	u64 t, len;

	if (a->dtype == a->out_dtype) {
		memmove((u8 *)a->out + e0 * es, (const u8 *)a->in0 + e0 * es,
			(e1 - e0) * es);
		return;
	}
	/* int32 -> fp16/bf16 rounds twice: to fp32, then to the output type */
	for (t = e0; t < e1; t += len) {
		len = min_u64(VNPU_TILE, e1 - t);
		load_f32(tile, a->in0, a->dtype, t, len);
		store_f32(a->out, a->out_dtype, t, tile, len);
	}
}

static int run_ew(const struct vnpu_op_args *a, const struct vnpu_ops_chunk *c)
{
	u64 e0 = c->row0, e1 = c->row1;

	switch (a->op) {
	case VNPU_OP_RELU:
	case VNPU_OP_ABS:
		run_unary(a, e0, e1);
		return 0;
	case VNPU_OP_CAST:
		run_cast(a, e0, e1);
		return 0;
	}
	switch (a->dtype) {
	case VNPU_DTYPE_I32:
		return run_binary_i32(a, c->carry[0], e0, e1);
	case VNPU_DTYPE_F32:
		run_binary_f32(a, c->carry[0], e0, e1);
		return 0;
	default:
		run_binary_lowp(a, c->carry[0], e0, e1);
		return 0;
	}
}

/* ---- reductions ----------------------------------------------------- */

/*
 * Pairwise sum: 8 lanes over at most 256 elements, halves above that.
 * Chunks are at most VNPU_OPS_ROW_CHUNK elements, so the recursion is at
 * most 7 deep.
 */
static float sum_f32(const float *restrict x, u64 n)
{
	float s[8] = { 0 };
	float r;
	u64 i = 0, h;
	u32 l;

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

static float max_f32(const float *restrict x, u64 n)
{
	float m[8], r;
	u64 i = 0;
	u32 l;

	for (l = 0; l < 8; l++)
		m[l] = u2f(VNPU_F32_NEG_INF);
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

static u32 sum_u32(const u32 *restrict x, u64 n)
{
	u32 s[8] = { 0 };
	u32 r = 0;
	u64 i = 0;
	u32 l;

	for (; i + 8 <= n; i += 8)
		for (l = 0; l < 8; l++)
			s[l] += x[i + l];
	for (l = 0; l < 8; l++)
		r += s[l];
	for (; i < n; i++)
		r += x[i];
	return r;
}

static s32 max_s32(const s32 *restrict x, u64 n)
{
	s32 m[8], r;
	u64 i = 0;
	u32 l;

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
static void carry_kahan(struct vnpu_ops_chunk *c, u32 s, float v, bool first)
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
static void run_reduce_rows(const struct vnpu_op_args *a, u64 r0, u64 r1)
{
	u64 cols = a->dims[1], r;
	float v;

	for (r = r0; r < r1; r++) {
		if (a->dtype == VNPU_DTYPE_I32) {
			u32 *w = a->ws;

			memcpy(w, (const u32 *)a->in0 + r * cols, cols * 4);
			((u32 *)a->out)[r] = a->op == VNPU_OP_REDUCE_SUM ?
					     sum_u32(w, cols) :
					     (u32)max_s32((const s32 *)w, cols);
			continue;
		}
		load_f32(a->ws, a->in0, a->dtype, r * cols, cols);
		v = a->op == VNPU_OP_REDUCE_SUM ? sum_f32(a->ws, cols) : max_f32(a->ws, cols);
		store_f32(a->out, a->dtype, r, &v, 1);
	}
}

/* One segment of a long row; the row's result is stored after its last one. */
static void run_reduce_seg(const struct vnpu_op_args *a, struct vnpu_ops_chunk *c)
{
	u64 cols = a->dims[1], row = c->row0, c0 = c->col0, len = c->col1 - c->col0;
	bool first = c0 == 0, last = c->col1 == cols;
	bool sum = a->op == VNPU_OP_REDUCE_SUM;
	float v;

	if (a->dtype == VNPU_DTYPE_I32) {
		u32 *w = (u32 *)a->ws + c0;
		u32 p;

		memcpy(w, (const u32 *)a->in0 + row * cols + c0, len * 4);
		p = sum ? sum_u32(w, len) : (u32)max_s32((const s32 *)w, len);
		if (first)
			c->carry[0] = p;
		else if (sum)
			c->carry[0] += p;
		else if ((s32)p > (s32)c->carry[0])
			c->carry[0] = p;
		if (last)
			((u32 *)a->out)[row] = c->carry[0];
		return;
	}

	load_f32((float *)a->ws + c0, a->in0, a->dtype, row * cols + c0, len);
	if (sum) {
		carry_kahan(c, 0, sum_f32((float *)a->ws + c0, len), first);
	} else {
		v = max_f32((float *)a->ws + c0, len);
		c->carry[0] = f2u(first ? v : max_nan(u2f(c->carry[0]), v));
	}
	if (last) {
		v = u2f(c->carry[0]);
		store_f32(a->out, a->dtype, row, &v, 1);
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
	u32 ax = f2u(x) & 0x7fffffff;
	u32 big = ax > 0x42d00000;		/* |x| > 104, inf or NaN */
	float xc = u2f(sel_u32(big, 0xc2d00000, f2u(x)));	/* -104 when big */
	float kf, r, p;
	s32 k, k1;

	kf = xc * 1.44269504f + 12582912.0f;	/* round to nearest integer */
	kf -= 12582912.0f;
	k = (s32)kf;				/* -150..150 */
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
	p *= u2f((u32)(k1 + 127) << 23);
	p *= u2f((u32)(k - k1 + 127) << 23);
	/* beyond -104 (or -inf): 0; NaN: p is NaN already */
	return u2f(sel_u32(big & (ax <= 0x7f800000), 0, f2u(p)));
}

/* w[j] = exp(w[j] - mx); returns their pairwise sum. */
static float exp_sum(float *restrict w, u64 n, float mx)
{
	VNPU_BLOCKED(i, n, w[i] = exp_neg(w[i] - mx));
	return sum_f32(w, n);
}

/* Elements [off, off + n) of out (of dtype) = w[0, n) / s. */
static void store_div(void *out, u32 dtype, u64 off, const float *restrict w, u64 n, float s)
{
	float tile[VNPU_TILE];
	u64 t, len;

	if (dtype == VNPU_DTYPE_F32) {
		float *restrict o = (float *)out + off;

		VNPU_BLOCKED(i, n, o[i] = w[i] / s);
		return;
	}
	for (t = 0; t < n; t += len) {
		len = min_u64(VNPU_TILE, n - t);
		VNPU_BLOCKED(i, len, tile[i] = w[t + i] / s);
		store_f32(out, dtype, off + t, tile, len);
	}
}

/* Whole rows: row -> workspace, max, exp in place, sum, normalise into out. */
static void run_softmax_rows(const struct vnpu_op_args *a, u64 r0, u64 r1)
{
	u64 cols = a->dims[1], r;
	float *w = a->ws;
	float mx, s;

	for (r = r0; r < r1; r++) {
		load_f32(w, a->in0, a->dtype, r * cols, cols);
		mx = max_f32(w, cols);
		s = exp_sum(w, cols, mx);
		store_div(a->out, a->dtype, r * cols, w, cols, s);
	}
}

/* A long row in three passes over segments; carry = max, sum, compensation. */
static void run_softmax_seg(const struct vnpu_op_args *a, struct vnpu_ops_chunk *c)
{
	u64 cols = a->dims[1], c0 = c->col0, len = c->col1 - c->col0;
	u64 off = c->row0 * cols + c0;
	float *w = (float *)a->ws + c0;
	bool first = c0 == 0;
	float v;

	switch (c->phase) {
	case VNPU_OPS_PH_SM_MAX:
		load_f32(w, a->in0, a->dtype, off, len);
		v = max_f32(w, len);
		c->carry[0] = f2u(first ? v : max_nan(u2f(c->carry[0]), v));
		break;
	case VNPU_OPS_PH_SM_EXP:
		carry_kahan(c, 1, exp_sum(w, len, u2f(c->carry[0])), first);
		break;
	default:
		store_div(a->out, a->dtype, off, w, len, u2f(c->carry[1]));
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
static inline u32 finite_f32(float f)
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
static void kahan_add_v(float *restrict s, float *restrict cp, const float *restrict x, u64 n)
{
	VNPU_BLOCKED(i, n, {
		float y = x[i] - cp[i];
		float t = s[i] + y;
		float e = (t - s[i]) - y;

		cp[i] = u2f(sel_u32(finite_f32(e), f2u(e), 0));
		s[i] = t;
	});
}

static void max_v_f32(float *restrict m, const float *restrict x, u64 n)
{
	VNPU_BLOCKED(i, n, m[i] = max_nan_sel(m[i], x[i]));
}

static void add_v_u32(u32 *restrict s, const u32 *restrict x, u64 n)
{
	VNPU_BLOCKED(i, n, s[i] += x[i]);
}

static void max_v_s32(s32 *restrict m, const s32 *restrict x, u64 n)
{
	VNPU_BLOCKED(i, n, m[i] = x[i] > m[i] ? x[i] : m[i]);
}

/* One column step of a float reduction over @n inner elements. */
static void red_step_f32(bool sum, bool first, float *restrict acc, float *restrict cp,
			 const float *restrict x, u64 n)
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
static void red_inner_block(const struct vnpu_op_args *a, u64 row, u64 c0, u64 c1,
			    u64 k0, u64 k1)
{
	u64 cols = a->dims[1], inner = a->dims[2], n = k1 - k0;
	u64 base = row * cols * inner + k0, c, t, len;
	bool sum = a->op == VNPU_OP_REDUCE_SUM;
	float *acc = (float *)a->ws + k0, *cp = (float *)a->ws + inner + k0;
	float tile[VNPU_TILE];

	if (a->dtype == VNPU_DTYPE_I32) {
		u32 *iacc = (u32 *)a->ws + k0;

		for (c = c0; c < c1; c++) {
			const u32 *x = (const u32 *)a->in0 + base + c * inner;

			if (!c)
				memcpy(iacc, x, n * 4);
			else if (sum)
				add_v_u32(iacc, x, n);
			else
				max_v_s32((s32 *)iacc, (const s32 *)x, n);
		}
		if (c1 == cols)
			memcpy((u32 *)a->out + row * inner + k0, iacc, n * 4);
		return;
	}

	for (c = c0; c < c1; c++) {
		if (a->dtype == VNPU_DTYPE_F32) {
			red_step_f32(sum, !c, acc, cp, (const float *)a->in0 + base + c * inner, n);
			continue;
		}
		for (t = 0; t < n; t += len) {
			len = min_u64(VNPU_TILE, n - t);
			load_f32(tile, a->in0, a->dtype, base + c * inner + t, len);
			red_step_f32(sum, !c, acc + t, cp + t, tile, len);
		}
	}
	if (c1 == cols)
		store_f32(a->out, a->dtype, row * inner + k0, acc, n);
}

/* e[i] = exp(x[i] - m[i]) */
static void exp_v(float *restrict e, const float *restrict x, const float *restrict m, u64 n)
{
	VNPU_BLOCKED(i, n, e[i] = exp_neg(x[i] - m[i]));
}

static void div_v(float *restrict e, const float *restrict s, u64 n)
{
	VNPU_BLOCKED(i, n, e[i] = e[i] / s[i]);
}

/*
 * SOFTMAX pass @phase (a VNPU_OPS_PH_IN_SM_* value) on columns [c0, c1) x
 * inner [k0, k1) of @row. The exponentials are computed again in the last
 * pass rather than kept: keeping them would take a workspace as large as
 * the tensor.
 */
static void sm_inner_block(const struct vnpu_op_args *a, u32 phase, u64 row, u64 c0, u64 c1,
			   u64 k0, u64 k1)
{
	u64 cols = a->dims[1], inner = a->dims[2], n = k1 - k0, c, t, len;
	float *mx = (float *)a->ws + k0, *sm = mx + inner, *cp = sm + inner;
	float x[VNPU_TILE], e[VNPU_TILE];

	for (c = c0; c < c1; c++) {
		u64 off = (row * cols + c) * inner + k0;

		for (t = 0; t < n; t += len) {
			len = min_u64(VNPU_TILE, n - t);
			load_f32(x, a->in0, a->dtype, off + t, len);
			switch (phase) {
			case VNPU_OPS_PH_IN_SM_MAX:
				red_step_f32(false, !c, mx + t, NULL, x, len);
				break;
			case VNPU_OPS_PH_IN_SM_EXP:
				exp_v(e, x, mx + t, len);
				red_step_f32(true, !c, sm + t, cp + t, e, len);
				break;
			default:
				exp_v(e, x, mx + t, len);
				div_v(e, sm + t, len);
				store_f32(a->out, a->dtype, off + t, e, len);
				break;
			}
		}
	}
}

/* Whole rows [r0, r1) with inner > 1. */
static void run_inner_rows(const struct vnpu_op_args *a, u64 r0, u64 r1)
{
	u64 cols = a->dims[1], inner = a->dims[2], r;

	for (r = r0; r < r1; r++) {
		if (a->op != VNPU_OP_SOFTMAX) {
			red_inner_block(a, r, 0, cols, 0, inner);
			continue;
		}
		sm_inner_block(a, VNPU_OPS_PH_IN_SM_MAX, r, 0, cols, 0, inner);
		sm_inner_block(a, VNPU_OPS_PH_IN_SM_EXP, r, 0, cols, 0, inner);
		sm_inner_block(a, VNPU_OPS_PH_IN_SM_NORM, r, 0, cols, 0, inner);
	}
}

/* ---- matmul --------------------------------------------------------- */

/* acc[j] += s0*b0[j] + s1*b1[j] + s2*b2[j] + s3*b3[j] */
static void axpy4_f32(float *restrict acc, const float *restrict b0,
		      const float *restrict b1, const float *restrict b2,
		      const float *restrict b3, const float *restrict s, u64 n)
{
	float s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];

	VNPU_BLOCKED(j, n, acc[j] += s0 * b0[j] + s1 * b1[j] + s2 * b2[j] + s3 * b3[j]);
}

static void axpy1_f32(float *restrict acc, const float *restrict b, float s, u64 n)
{
	VNPU_BLOCKED(j, n, acc[j] += s * b[j]);
}

static void axpy4_u32(u32 *restrict acc, const u32 *restrict b0,
		      const u32 *restrict b1, const u32 *restrict b2,
		      const u32 *restrict b3, const u32 *restrict s, u64 n)
{
	u32 s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];

	VNPU_BLOCKED(j, n, acc[j] += s0 * b0[j] + s1 * b1[j] + s2 * b2[j] + s3 * b3[j]);
}

static void axpy1_u32(u32 *restrict acc, const u32 *restrict b, u32 s, u64 n)
{
	VNPU_BLOCKED(j, n, acc[j] += s * b[j]);
}

/* Workspace layout: [A m x k][B k x n][acc n], each part only if used. */
struct mm_layout {
	const void *a;	/* row-major m x k: fp32 (or int32) */
	const void *b;	/* row-major k x n */
	void *a_ws;	/* repacked A, or NULL */
	void *b_ws;	/* repacked B, or NULL */
	float *acc;	/* fp32 accumulator row for fp16/bf16, or NULL */
};

static void mm_layout(const struct vnpu_op_args *a, struct mm_layout *l)
{
	u64 m = a->dims[0], n = a->dims[1], k = a->dims[2];
	bool lowp = a->dtype == VNPU_DTYPE_F16 || a->dtype == VNPU_DTYPE_BF16;
	u32 *ws = a->ws;

	l->a_ws = NULL;
	l->b_ws = NULL;
	l->acc = NULL;
	l->a = a->in0;
	l->b = a->in1;
	if ((a->flags & VNPU_OP_F_TRANS_A) || lowp) {
		l->a = l->a_ws = ws;
		ws += m * k;
	}
	if ((a->flags & VNPU_OP_F_TRANS_B) || lowp) {
		l->b = l->b_ws = ws;
		ws += k * n;
	}
	if (lowp)
		l->acc = (float *)ws;
}

/* One element of a matrix as the bits of its fp32 (or int32) value. */
static inline u32 mm_word(const void *src, u32 dtype, u64 idx)
{
	switch (dtype) {
	case VNPU_DTYPE_F16:
		return f2u(cvt_f16_f32(((const u16 *)src)[idx]));
	case VNPU_DTYPE_BF16:
		return (u32)((const u16 *)src)[idx] << 16;
	default:
		return ((const u32 *)src)[idx];
	}
}

/*
 * Repacks destination elements [e0, e1) of a rows x cols row-major matrix
 * from @src, which is stored cols x rows if @trans.
 */
static void mm_pack(u32 *dst, const void *src, u32 dtype, bool trans,
		    u64 rows, u64 cols, u64 e0, u64 e1)
{
	u64 r = e0 / cols, cl = e0 % cols, e;

	if (!trans) {
		load_f32((float *)dst + e0, src, dtype, e0, e1 - e0);
		return;
	}
	for (e = e0; e < e1; e++) {
		dst[e] = mm_word(src, dtype, cl * rows + r);
		if (++cl == cols) {
			cl = 0;
			r++;
		}
	}
}

/*
 * out[i][j] for rows [row0, row1), columns [col0, col1), adding the terms
 * k in [k0, k1) to the accumulator (zeroed at k0 == 0; fp16/bf16 rounded
 * into out at k1 == k). Loop order i-k-j, four k per pass over j.
 */
static void mm_compute(const struct vnpu_op_args *a, const struct vnpu_ops_chunk *c)
{
	u64 n = a->dims[1], k = a->dims[2];
	u64 j0 = c->col0, jn = c->col1 - c->col0, i, kk;
	struct mm_layout l;

	mm_layout(a, &l);

	if (a->dtype == VNPU_DTYPE_I32) {
		const u32 *A = l.a, *B = l.b;

		for (i = c->row0; i < c->row1; i++) {
			u32 *acc = (u32 *)a->out + i * n + j0;
			const u32 *ar = A + i * k;
			const u32 *b = B + j0;

			if (!c->k0)
				memset(acc, 0, jn * 4);
			for (kk = c->k0; kk + 4 <= c->k1; kk += 4)
				axpy4_u32(acc, b + kk * n, b + (kk + 1) * n,
					  b + (kk + 2) * n, b + (kk + 3) * n, ar + kk, jn);
			for (; kk < c->k1; kk++)
				axpy1_u32(acc, b + kk * n, ar[kk], jn);
		}
		return;
	}

	for (i = c->row0; i < c->row1; i++) {
		const float *A = l.a, *B = l.b;
		float *acc = l.acc ? l.acc + j0 : (float *)a->out + i * n + j0;
		const float *ar = A + i * k;
		const float *b = B + j0;

		if (!c->k0)
			memset(acc, 0, jn * 4);
		for (kk = c->k0; kk + 4 <= c->k1; kk += 4)
			axpy4_f32(acc, b + kk * n, b + (kk + 1) * n,
				  b + (kk + 2) * n, b + (kk + 3) * n, ar + kk, jn);
		for (; kk < c->k1; kk++)
			axpy1_f32(acc, b + kk * n, ar[kk], jn);
		if (l.acc && c->k1 == k)
			store_f32(a->out, a->dtype, i * n + j0, acc, jn);
	}
}

static void run_matmul(const struct vnpu_op_args *a, const struct vnpu_ops_chunk *c)
{
	u64 m = a->dims[0], n = a->dims[1], k = a->dims[2];
	struct mm_layout l;

	mm_layout(a, &l);
	switch (c->phase) {
	case VNPU_OPS_PH_MM_PACK_A:
		mm_pack(l.a_ws, a->in0, a->dtype, a->flags & VNPU_OP_F_TRANS_A,
			m, k, c->row0, c->row1);
		break;
	case VNPU_OPS_PH_MM_PACK_B:
		mm_pack(l.b_ws, a->in1, a->dtype, a->flags & VNPU_OP_F_TRANS_B,
			k, n, c->row0, c->row1);
		break;
	default:
		mm_compute(a, c);
		break;
	}
}

/* ---- entry ---------------------------------------------------------- */

/*
 * vnpu_ops_fp_chunk() - run one chunk planned by vnpu_op_run()
 *
 * Called with the FPU held, on arguments vnpu_op_run() has validated.
 * Returns 0 or -EDOM (int32 division by zero).
 */
int vnpu_ops_fp_chunk(const struct vnpu_op_args *a, struct vnpu_ops_chunk *c)
{
	switch (c->phase) {
	case VNPU_OPS_PH_EW:
		return run_ew(a, c);
	case VNPU_OPS_PH_ROWS:
		if (a->op == VNPU_OP_SOFTMAX)
			run_softmax_rows(a, c->row0, c->row1);
		else
			run_reduce_rows(a, c->row0, c->row1);
		return 0;
	case VNPU_OPS_PH_RED_SEG:
		run_reduce_seg(a, c);
		return 0;
	case VNPU_OPS_PH_SM_MAX:
	case VNPU_OPS_PH_SM_EXP:
	case VNPU_OPS_PH_SM_NORM:
		run_softmax_seg(a, c);
		return 0;
	case VNPU_OPS_PH_MM_PACK_A:
	case VNPU_OPS_PH_MM_PACK_B:
	case VNPU_OPS_PH_MM:
		run_matmul(a, c);
		return 0;
	case VNPU_OPS_PH_IN_ROWS:
		run_inner_rows(a, c->row0, c->row1);
		return 0;
	case VNPU_OPS_PH_IN_RED:
		red_inner_block(a, c->row0, c->col0, c->col1, c->k0, c->k1);
		return 0;
	case VNPU_OPS_PH_IN_SM_MAX:
	case VNPU_OPS_PH_IN_SM_EXP:
	case VNPU_OPS_PH_IN_SM_NORM:
		sm_inner_block(a, c->phase, c->row0, c->col0, c->col1, c->k0, c->k1);
		return 0;
	}
	return -EINVAL;
}
