// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for the vnpu compute kernels (kernel/vnpu_ops*.c).
 *
 * Every result is checked against a double-precision reference: the
 * number formats, element-wise ops and casts of the shared test reference
 * (tests/selftests/lib/vnpu_op_ref.c, which the guest selftests and the ACL
 * tests use too), and reductions, softmax and matmul written here in
 * double (libm exp for softmax). Inputs come from a fixed-seed generator.
 *
 * Tolerances (got vs. the double reference):
 *  - element-wise ADD/SUB/MUL/DIV, any float type: <= 1 ulp of the
 *    reference rounded to the output type (the ops are correctly rounded,
 *    so this is nearly exact);
 *  - RELU, ABS: exact bits, NaN included (they act on the sign);
 *  - CAST, REDUCE_MAX, all int32 results: exact (bits; NaN compared as
 *    "is a NaN", quiet for CAST);
 *  - REDUCE_SUM: fp32 |err| <= 1e-5 * sum|x| (and a 1M-element fp32 row of
 *    positive values within 1e-6 relative); fp16/bf16 <= 1 ulp of the
 *    rounded reference or |err| <= 1e-5 * sum|x| (fp32 accumulation under
 *    cancellation);
 *  - SOFTMAX: fp32 |err| <= 1e-5 * |ref| + 2^-126 (relative: outputs are
 *    often tiny, where an absolute bound says nothing; the 2^-126 admits
 *    results that underflow to fp32 subnormals or 0) and every row sums
 *    to 1 within 1e-5;
 *    fp16/bf16 <= 1 ulp of the rounded reference;
 *  - MATMUL: fp32 |err| <= 2e-5 * sum_k |a_ik * b_kj|; fp16/bf16 <= 1 ulp of
 *    the rounded reference or |err| <= 2e-5 * sum_k |a_ik * b_kj|.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vnpu_op_ref.h"
#include "vnpu_ops.h"

/*
 * Check's ck_assert*() records its location through a pipe on every call,
 * even when it passes; per-element checks use these instead, which only
 * call into Check on failure.
 */
#define EXPECT(cond)								\
	do {									\
		if (!(cond))							\
			ck_abort_msg("Assertion '%s' failed", #cond);		\
	} while (0)
#define EXPECT_MSG(cond, ...)							\
	do {									\
		if (!(cond))							\
			ck_abort_msg(__VA_ARGS__);				\
	} while (0)

#define F32 VNPU_DTYPE_F32
#define F16 VNPU_DTYPE_F16
#define BF16 VNPU_DTYPE_BF16
#define I32 VNPU_DTYPE_I32

static const u32 all_dtypes[] = { F32, F16, BF16, I32 };
static const char *const dtype_name[] = { "?", "f32", "f16", "bf16", "i32" };

/* ---- random numbers --------------------------------------------------- */

static u64 rng;

static void rng_seed(u64 s)
{
	rng = s * 0x9e3779b97f4a7c15ull + 0x1234567;
}

static u64 rng_next(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dull;
}

static double rng_uniform(double lo, double hi)
{
	return lo + (hi - lo) * ((double)(rng_next() >> 11) / 9007199254740992.0);
}

/* ---- reference number formats ---------------------------------------- */

/*
 * Rounding to and decoding of fp32/fp16/bf16 (and int32) come from the
 * shared double-precision reference (tests/selftests/lib/vnpu_op_ref.c),
 * which the guest selftests and the ACL tests check the device against too.
 */

/* Ordered distance in units in the last place; big for NaN vs number. */
static u64 ulp_dist(u32 dt, u32 a, u32 b)
{
	u32 sign = (dt == F16 || dt == BF16) ? 0x8000 : 0x80000000u;
	s64 oa = (a & sign) ? -(s64)(a & (sign - 1)) : (s64)a;
	s64 ob = (b & sign) ? -(s64)(b & (sign - 1)) : (s64)b;

	return oa > ob ? (u64)(oa - ob) : (u64)(ob - oa);
}

/* ---- tensors ---------------------------------------------------------- */

static u32 esize(u32 dt)
{
	return (dt == F16 || dt == BF16) ? 2 : 4;
}

static void *xalloc(size_t bytes)
{
	void *p = malloc(bytes ? bytes : 1);

	ck_assert_ptr_nonnull(p);
	return p;
}

static u32 raw_get(const void *p, u32 dt, u64 i)
{
	if (esize(dt) == 2)
		return ((const u16 *)p)[i];
	return ((const u32 *)p)[i];
}

static void raw_set(void *p, u32 dt, u64 i, u32 b)
{
	if (esize(dt) == 2)
		((u16 *)p)[i] = (u16)b;
	else
		((u32 *)p)[i] = b;
}

/* ref_decode() of every fp16 and bf16 value, filled on first use */
static double *decode16[BF16 + 1];

static double get_val(const void *p, u32 dt, u64 i)
{
	u32 b;

	if (dt == I32)
		return (double)(s32)raw_get(p, dt, i);
	if (dt == F32)
		return ref_decode(raw_get(p, dt, i), F32);
	if (!decode16[dt]) {
		decode16[dt] = xalloc(0x10000 * sizeof(double));
		for (b = 0; b < 0x10000; b++)
			decode16[dt][b] = ref_decode(b, dt);
	}
	return decode16[dt][raw_get(p, dt, i)];
}

/* Stores v (rounded to the type; int32: v must be an integer in range). */
static void set_val(void *p, u32 dt, u64 i, double v)
{
	if (dt == I32)
		raw_set(p, dt, i, (u32)(s32)v);
	else
		raw_set(p, dt, i, ref_encode(v, dt));
}

/* Fills n random elements in [lo, hi] (int32: integers). */
static void *rand_tensor(u32 dt, u64 n, double lo, double hi)
{
	void *p = xalloc(n * esize(dt));
	u64 i;

	for (i = 0; i < n; i++) {
		double v = rng_uniform(lo, hi);

		set_val(p, dt, i, dt == I32 ? floor(v) : v);
	}
	return p;
}

static void *rand_i32_full(u64 n)
{
	u32 *p = xalloc(n * 4);
	u64 i;

	for (i = 0; i < n; i++)
		p[i] = (u32)rng_next();
	return p;
}

/*
 * Checks a float-typed result against a double reference: NaN must match
 * NaN, otherwise within 1 ulp of the rounded reference, or within @allow.
 */
static void check_fp(u32 dt, const void *out, u64 i, double ref, double allow, const char *what)
{
	u32 got = raw_get(out, dt, i);
	double g = get_val(out, dt, i);

	if (isnan(ref)) {
		EXPECT_MSG(isnan(g), "%s %s[%llu]: got %.9g, want NaN", what,
			      dtype_name[dt], (unsigned long long)i, g);
		return;
	}
	if (ulp_dist(dt, got, ref_encode(ref, dt)) <= 1 || fabs(g - ref) <= allow)
		return;
	ck_abort_msg("%s %s[%llu]: got %.9g (0x%x), want %.9g (0x%x), allow %g", what,
		     dtype_name[dt], (unsigned long long)i, g, got, ref, ref_encode(ref, dt), allow);
}

/* ---- running ops ------------------------------------------------------ */

static struct vnpu_op_args mk(u32 op, u32 dt, u64 d0, u64 d1, u64 d2)
{
	struct vnpu_op_args a = { .op = op, .dtype = dt, .dims = { d0, d1, d2 } };

	return a;
}

/* Validates, gives the op a fresh workspace of exactly the required size, runs it. */
static int run(struct vnpu_op_args *a)
{
	struct vnpu_op_sizes sz;
	int ret;

	ck_assert_int_eq(vnpu_op_sizes(a, &sz), 0);
	a->ws_size = sz.ws;
	a->ws = sz.ws ? xalloc(sz.ws) : NULL;
	ret = vnpu_op_run(a, NULL);
	free(a->ws);
	a->ws = NULL;
	return ret;
}

/* ---- vnpu_op_sizes ---------------------------------------------------- */

static int sizes_of(u32 op, u32 dt, u32 odt, u32 flags, u64 d0, u64 d1, u64 d2,
		    struct vnpu_op_sizes *sz)
{
	struct vnpu_op_args a = mk(op, dt, d0, d1, d2);

	a.out_dtype = odt;
	a.flags = flags;
	return vnpu_op_sizes(&a, sz);
}

static int sizes_ret(u32 op, u32 dt, u32 odt, u32 flags, u64 d0, u64 d1, u64 d2)
{
	struct vnpu_op_sizes sz;

	return sizes_of(op, dt, odt, flags, d0, d1, d2, &sz);
}

/* A valid example for each op: dims and out_dtype. */
static void valid_shape(u32 op, u64 d[3], u32 *odt)
{
	d[0] = 3;
	d[1] = op >= VNPU_OP_REDUCE_SUM ? 5 : 0;
	d[2] = op == VNPU_OP_MATMUL ? 7 : 0;
	*odt = op == VNPU_OP_CAST ? F16 : 0;
}

static u32 ndims_of(u32 op)
{
	return op == VNPU_OP_MATMUL ? 3 : op >= VNPU_OP_REDUCE_SUM ? 2 : 1;
}

START_TEST(sizes_valid_all_ops)
{
	u32 op, t;
	u64 d[3];
	u32 odt;

	for (op = VNPU_OP_ADD; op <= VNPU_OP_MATMUL; op++)
		for (t = 0; t < 4; t++) {
			if (op == VNPU_OP_SOFTMAX && all_dtypes[t] == I32)
				continue;
			valid_shape(op, d, &odt);
			ck_assert_int_eq(sizes_ret(op, all_dtypes[t], odt, 0, d[0], d[1], d[2]), 0);
		}
}
END_TEST

START_TEST(sizes_unknown_op)
{
	static const u32 bad[] = { 0, 12, 13, 100, 0x80000001u, 0xffffffffu };
	u32 i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_int_eq(sizes_ret(bad[i], F32, 0, 0, 3, 0, 0), -EINVAL);
}
END_TEST

START_TEST(sizes_bad_dtype)
{
	static const u32 bad[] = { 0, 5, 6, 255, 0xffffffffu };
	u32 op, i, odt;
	u64 d[3];

	for (op = VNPU_OP_ADD; op <= VNPU_OP_MATMUL; op++) {
		valid_shape(op, d, &odt);
		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
			ck_assert_int_eq(sizes_ret(op, bad[i], odt, 0, d[0], d[1], d[2]), -EINVAL);
	}
}
END_TEST

START_TEST(sizes_bad_out_dtype)
{
	u32 op;
	u64 d[3];
	u32 odt;

	for (op = VNPU_OP_ADD; op <= VNPU_OP_MATMUL; op++) {
		if (op == VNPU_OP_CAST)
			continue;
		valid_shape(op, d, &odt);
		/* 0 and the same type are fine */
		ck_assert_int_eq(sizes_ret(op, F32, 0, 0, d[0], d[1], d[2]), 0);
		ck_assert_int_eq(sizes_ret(op, F32, F32, 0, d[0], d[1], d[2]), 0);
		ck_assert_int_eq(sizes_ret(op, F32, F16, 0, d[0], d[1], d[2]), -EINVAL);
		ck_assert_int_eq(sizes_ret(op, F16, I32, 0, d[0], d[1], d[2]), -EINVAL);
		ck_assert_int_eq(sizes_ret(op, F32, 5, 0, d[0], d[1], d[2]), -EINVAL);
	}
	/* CAST needs an explicit, valid out_dtype */
	ck_assert_int_eq(sizes_ret(VNPU_OP_CAST, F32, 0, 0, 3, 0, 0), -EINVAL);
	ck_assert_int_eq(sizes_ret(VNPU_OP_CAST, F32, 5, 0, 3, 0, 0), -EINVAL);
	ck_assert_int_eq(sizes_ret(VNPU_OP_CAST, F32, 0xffffffffu, 0, 3, 0, 0), -EINVAL);
	ck_assert_int_eq(sizes_ret(VNPU_OP_CAST, F32, F32, 0, 3, 0, 0), 0);
}
END_TEST

START_TEST(sizes_flags_wrong_op)
{
	u32 op, bit, odt;
	u64 d[3];

	for (op = VNPU_OP_ADD; op <= VNPU_OP_MATMUL; op++) {
		u32 allowed = op <= VNPU_OP_DIV ? (VNPU_OP_F_SCALAR_IN0 | VNPU_OP_F_SCALAR_IN1) :
			      op == VNPU_OP_MATMUL ? (VNPU_OP_F_TRANS_A | VNPU_OP_F_TRANS_B) : 0;

		valid_shape(op, d, &odt);
		for (bit = 0; bit < 32; bit++) {
			u32 f = 1u << bit;
			int want = (f & allowed) ? 0 : -EINVAL;

			EXPECT_MSG(sizes_ret(op, F32, odt, f, d[0], d[1], d[2]) == want,
				      "op %u flag 0x%x", op, f);
		}
	}
}
END_TEST

START_TEST(sizes_both_scalar)
{
	u32 op;

	for (op = VNPU_OP_ADD; op <= VNPU_OP_DIV; op++)
		ck_assert_int_eq(sizes_ret(op, F32, 0, VNPU_OP_F_SCALAR_IN0 | VNPU_OP_F_SCALAR_IN1,
					   3, 0, 0), -EINVAL);
}
END_TEST

START_TEST(sizes_zero_dims)
{
	u32 op, i, odt;
	u64 d[3];

	for (op = VNPU_OP_ADD; op <= VNPU_OP_MATMUL; op++)
		for (i = 0; i < ndims_of(op); i++) {
			valid_shape(op, d, &odt);
			d[i] = 0;
			EXPECT_MSG(sizes_ret(op, F32, odt, 0, d[0], d[1], d[2]) == -EINVAL,
				      "op %u dim %u", op, i);
		}
}
END_TEST

START_TEST(sizes_unused_dims)
{
	u32 op, i, odt;
	u64 d[3];

	for (op = VNPU_OP_ADD; op <= VNPU_OP_MATMUL; op++)
		/* dims[2] of REDUCE_* and SOFTMAX is inner: optional, not unused */
		for (i = ndims_of(op) == 2 ? 3 : ndims_of(op); i < 3; i++) {
			valid_shape(op, d, &odt);
			d[i] = 1;
			EXPECT_MSG(sizes_ret(op, F32, odt, 0, d[0], d[1], d[2]) == -EINVAL,
				      "op %u dim %u", op, i);
		}
}
END_TEST

START_TEST(sizes_softmax_i32)
{
	ck_assert_int_eq(sizes_ret(VNPU_OP_SOFTMAX, I32, 0, 0, 2, 3, 0), -EINVAL);
	ck_assert_int_eq(sizes_ret(VNPU_OP_SOFTMAX, I32, I32, 0, 2, 3, 0), -EINVAL);
}
END_TEST

START_TEST(sizes_dim_limit)
{
	struct vnpu_op_sizes sz;
	u64 big = 1ull << 31;

	/* 2^31 is allowed, 2^31 + 1 is not, whatever the op */
	ck_assert_int_eq(sizes_of(VNPU_OP_ADD, F16, 0, 0, big, 0, 0, &sz), 0);
	ck_assert_uint_eq(sz.out, big * 2);
	ck_assert_int_eq(sizes_ret(VNPU_OP_ADD, F16, 0, 0, big + 1, 0, 0), -EOVERFLOW);
	ck_assert_int_eq(sizes_ret(VNPU_OP_RELU, F16, 0, 0, ~0ull, 0, 0), -EOVERFLOW);
	ck_assert_int_eq(sizes_ret(VNPU_OP_REDUCE_SUM, F32, 0, 0, 1, big + 1, 0), -EOVERFLOW);
	ck_assert_int_eq(sizes_ret(VNPU_OP_MATMUL, F32, 0, 0, 1, 1, big + 1), -EOVERFLOW);
	ck_assert_int_eq(sizes_ret(VNPU_OP_MATMUL, F32, 0, 0, 1ull << 63, 1, 1), -EOVERFLOW);
}
END_TEST

START_TEST(sizes_overflow)
{
	u64 big = 1ull << 31;

	/* m * k * 4 = 2^64 would wrap */
	ck_assert_int_eq(sizes_ret(VNPU_OP_MATMUL, F32, 0, 0, big, 1, big), -EOVERFLOW);
	ck_assert_int_eq(sizes_ret(VNPU_OP_MATMUL, F32, 0, 0, 1, big, big), -EOVERFLOW);
	ck_assert_int_eq(sizes_ret(VNPU_OP_MATMUL, F32, 0, 0, big, big, 1), -EOVERFLOW);
	/* byte sizes above 2^40 */
	ck_assert_int_eq(sizes_ret(VNPU_OP_REDUCE_SUM, F32, 0, 0, 1ull << 20, 1ull << 19, 0),
			 -EOVERFLOW);
	ck_assert_int_eq(sizes_ret(VNPU_OP_REDUCE_SUM, F32, 0, 0, 1ull << 19, 1ull << 19, 0), 0);
	ck_assert_int_eq(sizes_ret(VNPU_OP_SOFTMAX, F16, 0, 0, 1ull << 20, 1ull << 20, 0),
			 -EOVERFLOW);
	/* fp16 A is exactly 2^40 bytes, but its fp32 copy in the workspace is 2^41 */
	ck_assert_int_eq(sizes_ret(VNPU_OP_MATMUL, F16, 0, 0, 1ull << 20, 1, 1ull << 19),
			 -EOVERFLOW);
	ck_assert_int_eq(sizes_ret(VNPU_OP_MATMUL, F32, 0, 0, 1ull << 19, 1, 1ull << 19), 0);
	/* workspace parts each fit, their sum does not */
	ck_assert_int_eq(sizes_ret(VNPU_OP_MATMUL, F32, 0, VNPU_OP_F_TRANS_A | VNPU_OP_F_TRANS_B,
				   1ull << 19, 1ull << 19, 1ull << 19), -EOVERFLOW);
	ck_assert_int_eq(sizes_ret(VNPU_OP_MATMUL, F32, 0, VNPU_OP_F_TRANS_A,
				   1ull << 19, 1ull << 19, 1ull << 19), 0);
}
END_TEST

/* dims[2] = inner of REDUCE_* and SOFTMAX: sizes, workspace, limits. */
START_TEST(sizes_inner)
{
	static const u64 ws_words[] = { 2, 1, 3 };	/* SUM, MAX, SOFTMAX per inner */
	u64 big = 1ull << 31, rows = 3, cols = 5, inner = 7;
	struct vnpu_op_sizes sz, sz0;
	u32 op, t;

	for (t = 0; t < 4; t++) {
		u32 dt = all_dtypes[t];
		u64 es = esize(dt);

		for (op = VNPU_OP_REDUCE_SUM; op <= VNPU_OP_SOFTMAX; op++) {
			if (op == VNPU_OP_SOFTMAX && dt == I32)
				continue;
			ck_assert_int_eq(sizes_of(op, dt, 0, 0, rows, cols, inner, &sz), 0);
			EXPECT(sz.in0 == rows * cols * inner * es && sz.in1 == 0);
			EXPECT(sz.out == (op == VNPU_OP_SOFTMAX ? rows * cols * inner : rows * inner) * es);
			EXPECT(sz.ws == ws_words[op - VNPU_OP_REDUCE_SUM] * 4 * inner);
			/* inner 1 is the same as 0: the old formula */
			ck_assert_int_eq(sizes_of(op, dt, 0, 0, rows, cols, 1, &sz), 0);
			ck_assert_int_eq(sizes_of(op, dt, 0, 0, rows, cols, 0, &sz0), 0);
			EXPECT(!memcmp(&sz, &sz0, sizeof(sz)) && sz.ws == cols * 4);
		}
	}
	/* the limits: one dim, the product of three (no wrap), the workspace */
	ck_assert_int_eq(sizes_ret(VNPU_OP_REDUCE_SUM, F32, 0, 0, 1, 1, big), 0);
	ck_assert_int_eq(sizes_ret(VNPU_OP_REDUCE_SUM, F32, 0, 0, 1, 1, big + 1), -EOVERFLOW);
	ck_assert_int_eq(sizes_ret(VNPU_OP_SOFTMAX, F16, 0, 0, 1, 1, ~0ull), -EOVERFLOW);
	ck_assert_int_eq(sizes_ret(VNPU_OP_REDUCE_MAX, F32, 0, 0, big, big, big), -EOVERFLOW);
	ck_assert_int_eq(sizes_ret(VNPU_OP_REDUCE_MAX, I32, 0, 0, 1ull << 10, 1ull << 10,
				   1ull << 19), -EOVERFLOW);
	ck_assert_int_eq(sizes_ret(VNPU_OP_REDUCE_MAX, I32, 0, 0, 1ull << 10, 1ull << 10,
				   1ull << 18), 0);
	ck_assert_int_eq(sizes_ret(VNPU_OP_SOFTMAX, BF16, 0, 0, 1ull << 20, 1, 1ull << 20),
			 -EOVERFLOW);
	/* 2^31 x 2^31 x 2^2 elements: each factor fits, the product wraps u64 */
	ck_assert_int_eq(sizes_ret(VNPU_OP_REDUCE_SUM, F32, 0, 0, big, big, 4), -EOVERFLOW);
}
END_TEST

/* The workspace formula and operand sizes, spelled out independently. */
static void sizes_formula_1d(u32 dt, u64 n)
{
	struct vnpu_op_sizes sz;
	u64 es = esize(dt);
	u32 op, odt;

	for (op = VNPU_OP_ADD; op <= VNPU_OP_DIV; op++) {
		ck_assert_int_eq(sizes_of(op, dt, 0, 0, n, 0, 0, &sz), 0);
		EXPECT(sz.in0 == n * es && sz.in1 == n * es && sz.out == n * es && sz.ws == 0);
		ck_assert_int_eq(sizes_of(op, dt, dt, VNPU_OP_F_SCALAR_IN0, n, 0, 0, &sz), 0);
		EXPECT(sz.in0 == es && sz.in1 == n * es && sz.out == n * es);
		ck_assert_int_eq(sizes_of(op, dt, 0, VNPU_OP_F_SCALAR_IN1, n, 0, 0, &sz), 0);
		EXPECT(sz.in0 == n * es && sz.in1 == es && sz.out == n * es);
	}
	for (op = VNPU_OP_RELU; op <= VNPU_OP_ABS; op++) {
		ck_assert_int_eq(sizes_of(op, dt, 0, 0, n, 0, 0, &sz), 0);
		EXPECT(sz.in0 == n * es && sz.in1 == 0 && sz.out == n * es && sz.ws == 0);
	}
	for (odt = 1; odt <= 4; odt++) {
		ck_assert_int_eq(sizes_of(VNPU_OP_CAST, dt, odt, 0, n, 0, 0, &sz), 0);
		EXPECT(sz.in0 == n * es && sz.in1 == 0 && sz.out == n * esize(odt) && sz.ws == 0);
	}
}

static void sizes_formula_rows(u32 dt, u64 rows, u64 cols)
{
	struct vnpu_op_sizes sz;
	u64 es = esize(dt);
	u32 op;

	for (op = VNPU_OP_REDUCE_SUM; op <= VNPU_OP_SOFTMAX; op++) {
		if (op == VNPU_OP_SOFTMAX && dt == I32)
			continue;
		ck_assert_int_eq(sizes_of(op, dt, 0, 0, rows, cols, 0, &sz), 0);
		EXPECT(sz.in0 == rows * cols * es && sz.in1 == 0 && sz.ws == cols * 4);
		EXPECT(sz.out == (op == VNPU_OP_SOFTMAX ? rows * cols : rows) * es);
	}
}

static void sizes_formula_matmul(u32 dt, u64 m, u64 n, u64 k)
{
	bool lowp = dt == F16 || dt == BF16;
	struct vnpu_op_sizes sz;
	u64 es = esize(dt);
	u32 f;

	for (f = 0; f < 4; f++) {
		bool ta = f & 1, tb = f & 2;
		u32 flags = (ta ? VNPU_OP_F_TRANS_A : 0) | (tb ? VNPU_OP_F_TRANS_B : 0);
		u64 ws = 0;

		if (ta || lowp)
			ws += 4 * m * k;
		if (tb || lowp)
			ws += 4 * k * n;
		if (lowp)
			ws += 4 * n;
		ck_assert_int_eq(sizes_of(VNPU_OP_MATMUL, dt, 0, flags, m, n, k, &sz), 0);
		EXPECT(sz.in0 == m * k * es && sz.in1 == k * n * es && sz.out == m * n * es);
		EXPECT_MSG(sz.ws == ws, "ws %llu want %llu", (unsigned long long)sz.ws,
			   (unsigned long long)ws);
	}
}

START_TEST(sizes_formula)
{
	static const u64 dv[] = { 1, 2, 3, 17, 1000, 65537 };
	u32 t, i, j, l;

	for (t = 0; t < 4; t++)
		for (i = 0; i < 6; i++) {
			sizes_formula_1d(all_dtypes[t], dv[i]);
			for (j = 0; j < 6; j++) {
				sizes_formula_rows(all_dtypes[t], dv[i], dv[j]);
				for (l = 0; l < 6; l++)
					if (dv[i] * dv[j] * dv[l] <= (1ull << 36))
						sizes_formula_matmul(all_dtypes[t], dv[i], dv[j],
								     dv[l]);
			}
		}
}
END_TEST

/* vnpu_op_sizes() ignores the pointers (the kernel validates before mapping). */
START_TEST(sizes_ignores_pointers)
{
	struct vnpu_op_args a = mk(VNPU_OP_ADD, F32, 4, 0, 0);
	struct vnpu_op_sizes sz;

	a.in0 = (void *)1;
	a.ws_size = 12345;
	ck_assert_int_eq(vnpu_op_sizes(&a, &sz), 0);
	ck_assert_uint_eq(sz.out, 16);
}
END_TEST

/* ---- element-wise ----------------------------------------------------- */

static void binary_case(u32 op, u32 dt, u64 n, u32 flags)
{
	bool s0 = flags & VNPU_OP_F_SCALAR_IN0, s1 = flags & VNPU_OP_F_SCALAR_IN1;
	u64 n0 = s0 ? 1 : n, n1 = s1 ? 1 : n, i;
	struct vnpu_op_args a = mk(op, dt, n, 0, 0);
	void *x, *y, *o;
	char what[64];

	if (dt == I32 && op != VNPU_OP_DIV) {
		x = rand_i32_full(n0);
		y = rand_i32_full(n1);
	} else {
		x = rand_tensor(dt, n0, -100, 100);
		y = rand_tensor(dt, n1, -100, 100);
	}
	if (op == VNPU_OP_DIV)	/* keep divisors away from 0: |y| in [0.5, 4] */
		for (i = 0; i < n1; i++) {
			double v = rng_uniform(0.5, 4) * (rng_next() & 1 ? -1 : 1);

			set_val(y, dt, i, dt == I32 ? (v < 0 ? floor(v) : ceil(v)) : v);
		}
	o = xalloc(n * esize(dt));
	memset(o, 0xcd, n * esize(dt));
	a.flags = flags;
	a.in0 = x;
	a.in1 = y;
	a.out = o;
	ck_assert_int_eq(run(&a), 0);

	snprintf(what, sizeof(what), "op %u n %llu flags %u", op, (unsigned long long)n, flags);
	for (i = 0; i < n; i++) {
		double ref = ref_binary(op, dt, flags, x, y, i);

		if (dt == I32)
			EXPECT_MSG(get_val(o, dt, i) == ref, "%s [%llu]", what,
				      (unsigned long long)i);
		else
			check_fp(dt, o, i, ref, 0, what);
	}
	free(x);
	free(y);
	free(o);
}

static const u64 ew_sizes[] = { 1, 7, 8, 9, 33, 1001, 16385, 100000 };

static void binary_all(u32 op, u32 dt)
{
	static const u32 flags[] = { 0, VNPU_OP_F_SCALAR_IN0, VNPU_OP_F_SCALAR_IN1 };
	u32 s, f;

	rng_seed(op * 100 + dt);
	for (s = 0; s < sizeof(ew_sizes) / sizeof(ew_sizes[0]); s++)
		for (f = 0; f < 3; f++)
			if (ew_sizes[s] < 100000 || f == 0)	/* keep the run short */
				binary_case(op, dt, ew_sizes[s], flags[f]);
}

START_TEST(ew_add)
{
	binary_all(VNPU_OP_ADD, all_dtypes[_i]);
}
END_TEST

START_TEST(ew_sub)
{
	binary_all(VNPU_OP_SUB, all_dtypes[_i]);
}
END_TEST

START_TEST(ew_mul)
{
	binary_all(VNPU_OP_MUL, all_dtypes[_i]);
}
END_TEST

START_TEST(ew_div)
{
	binary_all(VNPU_OP_DIV, all_dtypes[_i]);
}
END_TEST

/* float special values through ADD/MUL/DIV: inf, NaN, signed zero, x/0 */
START_TEST(ew_float_specials)
{
	static const float xs[] = { 1.0f, -1.0f, 0.0f, INFINITY, INFINITY, NAN, 0.0f };
	static const float ys[] = { 0.0f, 0.0f, 0.0f, -INFINITY, 1.0f, 1.0f, -0.0f };
	u32 t, op, i, n = 7;

	for (t = 0; t < 3; t++) {
		u32 dt = all_dtypes[t];
		void *x = xalloc(n * 4), *y = xalloc(n * 4), *o = xalloc(n * 4);

		for (i = 0; i < n; i++) {
			set_val(x, dt, i, xs[i]);
			set_val(y, dt, i, ys[i]);
		}
		for (op = VNPU_OP_ADD; op <= VNPU_OP_DIV; op++) {
			struct vnpu_op_args a = mk(op, dt, n, 0, 0);

			a.in0 = x;
			a.in1 = y;
			a.out = o;
			ck_assert_int_eq(run(&a), 0);
			for (i = 0; i < n; i++) {
				double ref = ref_binary(op, dt, 0, x, y, i);
				double g = get_val(o, dt, i);

				if (isnan(ref))
					EXPECT_MSG(isnan(g), "%s op %u [%u]", dtype_name[dt], op,
						   i);
				else
					EXPECT_MSG(g == ref && !signbit(g) == !signbit(ref),
						      "%s op %u [%u]: %g vs %g", dtype_name[dt], op,
						      i, g, ref);
			}
		}
		free(x);
		free(y);
		free(o);
	}
}
END_TEST

START_TEST(ew_i32_div_by_zero)
{
	s32 x[6] = { 10, -10, 7, -7, INT32_MIN, 5 };
	s32 y[6] = { 3, 3, -2, -2, -1, 0 };
	s32 o[6] = { 0 };
	s32 zero = 0;
	struct vnpu_op_args a = mk(VNPU_OP_DIV, I32, 6, 0, 0);

	a.in0 = x;
	a.in1 = y;
	a.out = o;
	ck_assert_int_eq(run(&a), -EDOM);
	/* truncating division, INT_MIN / -1 wraps to INT_MIN; stops at the zero */
	ck_assert_int_eq(o[0], 3);
	ck_assert_int_eq(o[1], -3);
	ck_assert_int_eq(o[2], -3);
	ck_assert_int_eq(o[3], 3);
	ck_assert_int_eq(o[4], INT32_MIN);
	ck_assert_int_eq(o[5], 0);

	a.dims[0] = 5;
	ck_assert_int_eq(run(&a), 0);

	/* a zero scalar divisor */
	a.flags = VNPU_OP_F_SCALAR_IN1;
	a.in1 = &zero;
	ck_assert_int_eq(run(&a), -EDOM);
	/* a zero in the vector of divisors, scalar dividend */
	a.flags = VNPU_OP_F_SCALAR_IN0;
	a.dims[0] = 6;
	a.in0 = x;
	a.in1 = y;
	ck_assert_int_eq(run(&a), -EDOM);
}
END_TEST

START_TEST(ew_relu_abs)
{
	u32 dt = all_dtypes[_i], op, s;
	static const double specials[] = { 0.0, -0.0, 1.0, -1.0, INFINITY, -INFINITY, NAN,
					   -NAN, 5.9604644775390625e-08, -5.9604644775390625e-08 };

	rng_seed(500 + dt);
	for (op = VNPU_OP_RELU; op <= VNPU_OP_ABS; op++)
		for (s = 0; s < sizeof(ew_sizes) / sizeof(ew_sizes[0]); s++) {
			u64 n = ew_sizes[s] + 10, i;
			void *x = dt == I32 ? rand_i32_full(n) : rand_tensor(dt, n, -1000, 1000);
			void *o = xalloc(n * esize(dt));
			struct vnpu_op_args a = mk(op, dt, n, 0, 0);

			if (dt == I32) {
				((s32 *)x)[0] = INT32_MIN;
				((s32 *)x)[1] = INT32_MAX;
				((s32 *)x)[2] = 0;
				((s32 *)x)[3] = -1;
			} else {
				for (i = 0; i < 10; i++)
					set_val(x, dt, i, specials[i]);
			}
			a.in0 = x;
			a.out = o;
			ck_assert_int_eq(run(&a), 0);
			/* Bit-exact: RELU and ABS act on the sign, int32 ABS wraps. */
			for (i = 0; i < n; i++)
				EXPECT_MSG(raw_get(o, dt, i) ==
					   ref_unary_bits(op, dt, raw_get(x, dt, i)),
					   "%s op %u [%llu] 0x%x -> 0x%x", dtype_name[dt], op,
					   (unsigned long long)i, raw_get(x, dt, i), raw_get(o, dt, i));
			free(x);
			free(o);
		}
}
END_TEST

/* ADD and RELU with out == in0, CAST to a narrower or equal type in place */
START_TEST(ew_in_place)
{
	u64 n = 40000, i;
	u32 t;

	rng_seed(77);
	for (t = 0; t < 4; t++) {
		u32 dt = all_dtypes[t];
		void *x = rand_tensor(dt, n, -50, 50), *y = rand_tensor(dt, n, -50, 50);
		void *x0 = xalloc(n * esize(dt));
		struct vnpu_op_args a = mk(VNPU_OP_ADD, dt, n, 0, 0);

		memcpy(x0, x, n * esize(dt));
		a.in0 = x;
		a.in1 = y;
		a.out = x;
		ck_assert_int_eq(run(&a), 0);
		for (i = 0; i < n; i++) {
			double ref = get_val(x0, dt, i) + get_val(y, dt, i);

			if (dt == I32)
				EXPECT(get_val(x, dt, i) == ref);
			else
				check_fp(dt, x, i, ref, 0, "in-place add");
		}
		a = mk(VNPU_OP_RELU, dt, n, 0, 0);
		a.in0 = y;
		a.out = y;
		memcpy(x0, y, n * esize(dt));
		ck_assert_int_eq(run(&a), 0);
		for (i = 0; i < n; i++)
			EXPECT(raw_get(y, dt, i) ==
			       ref_unary_bits(VNPU_OP_RELU, dt, raw_get(x0, dt, i)));
		free(x);
		free(y);
		free(x0);
	}

	/* CAST in place where the output is not wider: f32 -> f16, f32 -> i32 */
	for (t = 0; t < 2; t++) {
		u32 odt = t ? I32 : F16;
		float *x = rand_tensor(F32, n, -1000, 1000);
		float *x0 = xalloc(n * 4);
		struct vnpu_op_args a = mk(VNPU_OP_CAST, F32, n, 0, 0);

		memcpy(x0, x, n * 4);
		a.out_dtype = odt;
		a.in0 = x;
		a.out = x;
		ck_assert_int_eq(run(&a), 0);
		for (i = 0; i < n; i++)
			EXPECT(raw_get(x, odt, i) == (odt == I32 ? (u32)(s32)trunc(x0[i]) :
						       ref_encode(x0[i], F16)));
		free(x);
		free(x0);
	}
}
END_TEST

/*
 * A broadcast scalar with the output starting at it: the first chunk
 * overwrites the scalar, yet every element must use its original value.
 * 40000 elements span three 16 Ki-element chunks.
 */
START_TEST(ew_scalar_in_place)
{
	u64 n = 40000, i;
	u32 t, s;

	rng_seed(78);
	for (t = 0; t < 4; t++) {
		u32 dt = all_dtypes[t];

		for (s = 0; s < 2; s++) {
			u32 flag = s ? VNPU_OP_F_SCALAR_IN1 : VNPU_OP_F_SCALAR_IN0;
			void *x = rand_tensor(dt, n, -50, 50);
			void *v = rand_tensor(dt, n, -50, 50);
			struct vnpu_op_args a = mk(VNPU_OP_ADD, dt, n, 0, 0);
			double sc;

			set_val(x, dt, 0, 5);
			sc = get_val(x, dt, 0);
			a.flags = flag;
			a.in0 = s ? v : x;
			a.in1 = s ? x : v;
			a.out = x;
			ck_assert_int_eq(run(&a), 0);
			for (i = 0; i < n; i++) {
				double ref = sc + get_val(v, dt, i);

				if (dt == I32)
					EXPECT_MSG(get_val(x, dt, i) == ref, "%s flag %u [%llu]",
						   dtype_name[dt], flag, (unsigned long long)i);
				else
					check_fp(dt, x, i, ref, 0, "scalar in place");
			}
			free(x);
			free(v);
		}
	}
}
END_TEST

/* ---- CAST --------------------------------------------------------------- */

/* Values that exercise every format's range, rounding and specials. */
static void fill_cast_inputs(void *x, u32 dt, u64 n)
{
	static const double specials[] = {
		0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.1, 65504, 65519, 65520,
		-65520, 1e10, -1e10, 3e38, 2147483520.0, -2147483648.0, 2147483648.0, 1e-8,
		5.9604644775390625e-08, 2.98023223876953125e-08, 6.103515625e-05, INFINITY,
		-INFINITY, NAN, 16777217.0, 16908289.0, 16973823.0, 1.00048828125,
		1.00146484375, 1.00390625, 1.01171875, 9.18354961579912115600575419705e-41,
	};
	u64 ns = sizeof(specials) / sizeof(specials[0]), i;

	for (i = 0; i < n; i++) {
		double v;

		if (i < ns) {
			v = specials[i];
		} else {
			switch (i % 4) {
			case 0:
				v = rng_uniform(-70000, 70000);
				break;
			case 1:
				v = rng_uniform(-1, 1) * ldexp(1.0, (int)(rng_next() % 60) - 30);
				break;
			case 2:
				v = rng_uniform(-1, 1) * ldexp(1.0, -(int)(rng_next() % 14) - 14);
				break;
			default:
				v = rng_uniform(-3e9, 3e9);
				break;
			}
		}
		if (dt == I32) {
			if (isnan(v) || isinf(v) || fabs(v) >= 2147483648.0)
				v = v < 0 ? INT32_MIN : INT32_MAX;
			set_val(x, dt, i, trunc(v));
		} else {
			set_val(x, dt, i, v);
		}
	}
}

START_TEST(cast_all_pairs)
{
	u32 sdt = all_dtypes[_i / 4], odt = all_dtypes[_i % 4];
	u64 n = 20011, i;
	void *x = xalloc(n * 4), *o = xalloc(n * 4);
	struct vnpu_op_args a = mk(VNPU_OP_CAST, sdt, n, 0, 0);

	rng_seed(1000 + _i);
	fill_cast_inputs(x, sdt, n);
	a.out_dtype = odt;
	a.in0 = x;
	a.out = o;
	ck_assert_int_eq(run(&a), 0);
	for (i = 0; i < n; i++) {
		double v = get_val(x, sdt, i);
		u32 want = ref_cast_bits(raw_get(x, sdt, i), sdt, odt);
		u32 got = raw_get(o, odt, i);

		if (odt != I32 && isnan(ref_decode(want, odt))) {
			u32 quiet = odt == F32 ? 0x400000 : odt == F16 ? 0x200 : 0x40;

			EXPECT_MSG(isnan(get_val(o, odt, i)) && (sdt == odt || (got & quiet)),
				      "%s->%s [%llu] NaN -> 0x%x", dtype_name[sdt],
				      dtype_name[odt], (unsigned long long)i, got);
		} else {
			EXPECT_MSG(got == want, "%s->%s [%llu] %.12g -> 0x%x, want 0x%x",
				   dtype_name[sdt], dtype_name[odt], (unsigned long long)i, v, got,
				   want);
		}
	}
	free(x);
	free(o);
}
END_TEST

struct edge16 {
	float f;
	u16 bits;
};

static float f_bits(u32 b)
{
	float f;

	memcpy(&f, &b, 4);
	return f;
}

static u32 bits_f(float f)
{
	u32 b;

	memcpy(&b, &f, 4);
	return b;
}

START_TEST(f16_edges)
{
	static const struct edge16 e[] = {
		{ 0.0f, 0x0000 }, { -0.0f, 0x8000 }, { 1.0f, 0x3c00 }, { -2.0f, 0xc000 },
		{ 0x1p-24f, 0x0001 },			/* smallest subnormal */
		{ -0x1p-24f, 0x8001 },
		{ 0x1p-25f, 0x0000 },			/* halfway to 2^-24: even is 0 */
		{ 0x1.8p-25f, 0x0001 },			/* above halfway */
		{ 0x1.8p-24f, 0x0002 },			/* 1.5 ulp: to even (2) */
		{ 0x1.4p-23f, 0x0002 },			/* 2.5 ulp: to even (2) */
		{ 1023 * 0x1p-24f, 0x03ff },		/* largest subnormal */
		{ 0x1.ffap-15f, 0x03ff },		/* 1023.25 ulp */
		{ 0x1.ffcp-15f, 0x0400 },		/* 1023.5 ulp: to even, normal */
		{ 0x1p-14f, 0x0400 },			/* smallest normal */
		{ 65504.0f, 0x7bff },			/* largest normal */
		{ 65519.0f, 0x7bff },
		{ 65520.0f, 0x7c00 },			/* halfway to 2^16: rounds to inf */
		{ 1e6f, 0x7c00 }, { -1e6f, 0xfc00 },
		{ INFINITY, 0x7c00 }, { -INFINITY, 0xfc00 },
		{ 1.00048828125f, 0x3c00 },		/* 1 + 2^-11: halfway, to even */
		{ 1.00146484375f, 0x3c02 },		/* 1 + 3*2^-11: halfway, to even */
		{ 0x1.002002p+0f, 0x3c01 },		/* just above halfway */
		{ 0.1f, 0x2e66 }, { 1e-8f, 0x0000 }, { -1e-8f, 0x8000 },
		{ 2049.0f, 0x6800 }, { 2051.0f, 0x6802 },	/* integers halfway */
	};
	u32 i, n = sizeof(e) / sizeof(e[0]);
	float in[64];
	u16 out[64];
	struct vnpu_op_args a = mk(VNPU_OP_CAST, F32, n, 0, 0);

	for (i = 0; i < n; i++) {
		EXPECT_MSG(vnpu_f32_to_f16(e[i].f) == e[i].bits, "%a -> 0x%x, want 0x%x",
			      e[i].f, vnpu_f32_to_f16(e[i].f), e[i].bits);
		/* cross-check the hand-written table with the reference rounding */
		ck_assert_uint_eq(ref_encode(e[i].f, F16), e[i].bits);
		/* the exact values come back exactly */
		if (fabsf(e[i].f) <= 65504.0f && e[i].f == (float)ref_decode(e[i].bits, F16))
			EXPECT(bits_f(vnpu_f16_to_f32(e[i].bits)) == bits_f(e[i].f));
		in[i] = e[i].f;
	}
	/* the same through the CAST operator */
	a.out_dtype = F16;
	a.in0 = in;
	a.out = out;
	ck_assert_int_eq(run(&a), 0);
	for (i = 0; i < n; i++)
		ck_assert_uint_eq(out[i], e[i].bits);

	/* decoding */
	EXPECT(vnpu_f16_to_f32(0x0001) == 0x1p-24f);
	EXPECT(vnpu_f16_to_f32(0x03ff) == 1023 * 0x1p-24f);
	EXPECT(vnpu_f16_to_f32(0x7bff) == 65504.0f);
	EXPECT(vnpu_f16_to_f32(0x7c00) == INFINITY);
	EXPECT(vnpu_f16_to_f32(0xfc00) == -INFINITY);
	EXPECT(isnan(vnpu_f16_to_f32(0x7e00)));
	EXPECT(isnan(vnpu_f16_to_f32(0x7c01)));
	EXPECT(signbit(vnpu_f16_to_f32(0x8000)) && vnpu_f16_to_f32(0x8000) == 0);
	/* every fp16 value round-trips */
	for (i = 0; i < 0x10000; i++) {
		float f = vnpu_f16_to_f32((u16)i);

		if (isnan(f)) {
			EXPECT((i & 0x7c00) == 0x7c00 && (i & 0x3ff));
			EXPECT((vnpu_f32_to_f16(f) & 0x7e00) == 0x7e00);
		} else {
			EXPECT_MSG(f == (float)ref_decode(i, F16), "0x%x", i);
			EXPECT(vnpu_f32_to_f16(f) == i);
		}
	}
	/* NaN payload top bits kept, made quiet */
	ck_assert_uint_eq(vnpu_f32_to_f16(f_bits(0x7f800001 | (0x155u << 13))), 0x7f55);
	ck_assert_uint_eq(vnpu_f32_to_f16(f_bits(0xffc00000)), 0xfe00);
	ck_assert_uint_eq(vnpu_f32_to_f16(f_bits(0x7f800001)), 0x7e00);
}
END_TEST

START_TEST(bf16_edges)
{
	static const struct {
		u32 f;
		u16 bits;
	} e[] = {
		{ 0x00000000, 0x0000 }, { 0x80000000, 0x8000 },
		{ 0x3f800000, 0x3f80 },	/* 1.0 */
		{ 0x3f808000, 0x3f80 },	/* 1 + 2^-8: halfway, to even */
		{ 0x3f818000, 0x3f82 },	/* 1 + 3*2^-8: halfway, to even */
		{ 0x3f808001, 0x3f81 },	/* just above halfway */
		{ 0x3f80ffff, 0x3f81 },
		{ 0x7f7fffff, 0x7f80 },	/* FLT_MAX rounds to inf */
		{ 0x7f7f7fff, 0x7f7f },	/* below halfway: largest finite bf16 */
		{ 0x7f7f8000, 0x7f80 },	/* halfway, odd: to inf */
		{ 0xff7fffff, 0xff80 },
		{ 0x7f800000, 0x7f80 }, { 0xff800000, 0xff80 },
		{ 0x00010000, 0x0001 },	/* smallest bf16 subnormal */
		{ 0x00008000, 0x0000 },	/* halfway below it: to even 0 */
		{ 0x00018000, 0x0002 },	/* halfway, odd: up */
		{ 0x00000001, 0x0000 },	/* smallest fp32 subnormal */
		{ 0x807fffff, 0x8080 },	/* largest fp32 subnormal -> smallest normal */
		{ 0x3dcccccd, 0x3dcd },	/* 0.1 */
	};
	u32 i, n = sizeof(e) / sizeof(e[0]);

	for (i = 0; i < n; i++) {
		EXPECT_MSG(vnpu_f32_to_bf16(f_bits(e[i].f)) == e[i].bits, "0x%x -> 0x%x", e[i].f,
			      vnpu_f32_to_bf16(f_bits(e[i].f)));
		/* cross-check the hand-written table with the reference rounding */
		ck_assert_uint_eq(ref_encode(f_bits(e[i].f), BF16), e[i].bits);
	}
	EXPECT((vnpu_f32_to_bf16(f_bits(0x7f800001)) & 0x7fc0) == 0x7fc0);
	EXPECT((vnpu_f32_to_bf16(f_bits(0xff812345)) & 0xffc0) == 0xffc0);
	for (i = 0; i < 0x10000; i++) {
		float f = vnpu_bf16_to_f32((u16)i);

		if (isnan(f))
			continue;
		EXPECT(f == (float)ref_decode(i, BF16));
		EXPECT(vnpu_f32_to_bf16(f) == i);
	}
}
END_TEST

START_TEST(cast_int_saturation)
{
	static const struct {
		u32 dt;
		double v;
		s32 want;
	} e[] = {
		{ F32, 3e9, INT32_MAX }, { F32, -3e9, INT32_MIN },
		{ F32, 2147483520.0, 2147483520 },
		{ F32, 2147483648.0, INT32_MAX }, { F32, -2147483648.0, INT32_MIN },
		{ F32, NAN, 0 }, { F32, -NAN, 0 }, { F32, INFINITY, INT32_MAX },
		{ F32, -INFINITY, INT32_MIN }, { F32, 1.9, 1 }, { F32, -1.9, -1 }, { F32, -0.5, 0 },
		{ F32, 1e-40, 0 }, { F16, INFINITY, INT32_MAX }, { F16, NAN, 0 },
		{ F16, 65504, 65504 }, { F16, -65504, -65504 }, { F16, -2.5, -2 },
		{ BF16, 3e38, INT32_MAX }, { BF16, -3e38, INT32_MIN }, { BF16, NAN, 0 },
		{ BF16, 2147483648.0, INT32_MAX }, { BF16, 2139095040.0, 2139095040 },
	};
	u32 i, n = sizeof(e) / sizeof(e[0]);

	for (i = 0; i < n; i++) {
		u32 in = 0;
		s32 out = 12345;
		struct vnpu_op_args a = mk(VNPU_OP_CAST, e[i].dt, 1, 0, 0);

		set_val(&in, e[i].dt, 0, e[i].v);
		a.out_dtype = I32;
		a.in0 = &in;
		a.out = &out;
		ck_assert_int_eq(run(&a), 0);
		EXPECT_MSG(out == e[i].want, "%s %g -> %d, want %d", dtype_name[e[i].dt], e[i].v,
			      out, e[i].want);
	}
}
END_TEST

/* int32 -> fp16/bf16 rounds to fp32 first (documented double rounding) */
START_TEST(cast_i32_via_f32)
{
	/* 2^24 + 3*2^16 - 1: fp32 rounds up to 2^24 + 3*2^16, a bf16 tie, even is up */
	s32 in[4] = { 16973823, 16777217, -65520, 65519 };
	u16 out[4];
	struct vnpu_op_args a = mk(VNPU_OP_CAST, I32, 4, 0, 0);

	a.in0 = in;
	a.out = out;
	a.out_dtype = BF16;
	ck_assert_int_eq(run(&a), 0);
	ck_assert_uint_eq(out[0], ref_encode(17039360.0, BF16));	/* 2^24 + 2^18 */
	ck_assert_uint_eq(out[1], 0x4b80);			/* 2^24 */
	a.out_dtype = F16;
	ck_assert_int_eq(run(&a), 0);
	ck_assert_uint_eq(out[0], 0x7c00);
	ck_assert_uint_eq(out[2], 0xfc00);
	ck_assert_uint_eq(out[3], 0x7bff);
}
END_TEST

/* ---- reductions ------------------------------------------------------- */

static void reduce_case(u32 op, u32 dt, u64 rows, u64 cols)
{
	u64 r, c;
	void *x = dt == I32 ? rand_i32_full(rows * cols) : rand_tensor(dt, rows * cols, -10, 10);
	void *o = xalloc(rows * esize(dt));
	struct vnpu_op_args a = mk(op, dt, rows, cols, 0);
	char what[64];

	a.in0 = x;
	a.out = o;
	ck_assert_int_eq(run(&a), 0);
	snprintf(what, sizeof(what), "op %u %llux%llu", op, (unsigned long long)rows,
		 (unsigned long long)cols);
	for (r = 0; r < rows; r++) {
		double s = 0, sa = 0, mx = -INFINITY;
		u32 su = 0;
		s32 mi = INT32_MIN;

		for (c = 0; c < cols; c++) {
			double v = get_val(x, dt, r * cols + c);

			s += v;
			sa += fabs(v);
			mx = v > mx ? v : mx;
			if (dt == I32) {
				su += ((u32 *)x)[r * cols + c];
				mi = (s32)v > mi ? (s32)v : mi;
			}
		}
		if (dt == I32) {
			EXPECT_MSG(((u32 *)o)[r] == (op == VNPU_OP_REDUCE_SUM ? su : (u32)mi),
				      "%s row %llu", what, (unsigned long long)r);
		} else if (op == VNPU_OP_REDUCE_MAX) {
			EXPECT_MSG(get_val(o, dt, r) == mx, "%s row %llu", what,
				      (unsigned long long)r);
		} else if (dt == F32) {
			EXPECT_MSG(fabs(get_val(o, dt, r) - s) <= 1e-5 * sa,
				      "%s row %llu: %.9g vs %.9g", what, (unsigned long long)r,
				      get_val(o, dt, r), s);
		} else {
			check_fp(dt, o, r, s, 1e-5 * sa, what);
		}
	}
	free(x);
	free(o);
}

static const u64 red_shapes[][2] = {
	{ 1, 1 }, { 3, 7 }, { 5, 9 }, { 2, 257 }, { 64, 1000 }, { 7, 16384 }, { 3, 40000 },
	{ 1, 16385 },
};

START_TEST(reduce_sum)
{
	u32 s;

	rng_seed(2000 + _i);
	for (s = 0; s < sizeof(red_shapes) / sizeof(red_shapes[0]); s++)
		reduce_case(VNPU_OP_REDUCE_SUM, all_dtypes[_i], red_shapes[s][0], red_shapes[s][1]);
}
END_TEST

START_TEST(reduce_max)
{
	u32 s;

	rng_seed(3000 + _i);
	for (s = 0; s < sizeof(red_shapes) / sizeof(red_shapes[0]); s++)
		reduce_case(VNPU_OP_REDUCE_MAX, all_dtypes[_i], red_shapes[s][0], red_shapes[s][1]);
}
END_TEST

/* 1M fp32 values summed in fp32: naive left-to-right summation is off by ~1e-4 here */
START_TEST(reduce_sum_f32_accuracy)
{
	u64 n = 1000000, i;
	float *x = xalloc(n * 4), out = 0, naive = 0;
	double s = 0;
	struct vnpu_op_args a = mk(VNPU_OP_REDUCE_SUM, F32, 1, n, 0);

	rng_seed(4242);
	for (i = 0; i < n; i++) {
		x[i] = (float)rng_uniform(0.0, 1.0);
		s += x[i];
		naive += x[i];
	}
	a.in0 = x;
	a.out = &out;
	ck_assert_int_eq(run(&a), 0);
	EXPECT_MSG(fabs(out - s) <= 1e-6 * s, "sum %.9g vs %.9g", out, s);
	/* the data set is hard enough to tell a naive sum from a good one */
	EXPECT(fabs(naive - s) > 1e-6 * s);
	free(x);
}
END_TEST

START_TEST(reduce_nan_inf)
{
	u64 cols[] = { 5, 40000 }, i, c;
	u32 t;

	for (t = 0; t < 3; t++) {
		u32 dt = all_dtypes[t];

		for (i = 0; i < 2; i++) {
			u64 n = 3 * cols[i];
			void *x = rand_tensor(dt, n, -10, 10);
			u32 o[3];
			struct vnpu_op_args a = mk(VNPU_OP_REDUCE_MAX, dt, 3, cols[i], 0);

			/* row 0: a NaN in the middle; row 1: all -inf; row 2: a +inf */
			set_val(x, dt, cols[i] / 2 + 1, NAN);
			for (c = 0; c < cols[i]; c++)
				set_val(x, dt, cols[i] + c, -INFINITY);
			set_val(x, dt, 2 * cols[i] + cols[i] - 1, INFINITY);
			a.in0 = x;
			a.out = o;
			ck_assert_int_eq(run(&a), 0);
			EXPECT(isnan(get_val(o, dt, 0)));
			EXPECT(get_val(o, dt, 1) == -INFINITY);
			EXPECT(get_val(o, dt, 2) == INFINITY);

			a.op = VNPU_OP_REDUCE_SUM;
			ck_assert_int_eq(run(&a), 0);
			EXPECT(isnan(get_val(o, dt, 0)));
			EXPECT(get_val(o, dt, 1) == -INFINITY);
			EXPECT(get_val(o, dt, 2) == INFINITY);
			free(x);
		}
	}
}
END_TEST

/*
 * Along the middle axis of rows x cols x inner: every (row, k) against a
 * double reference, with the tolerances of reduce_case(). @in_place puts
 * the output at the input's address.
 */
static void reduce_inner_case(u32 op, u32 dt, u64 rows, u64 cols, u64 inner, bool in_place)
{
	u64 n = rows * cols * inner, r, c, k;
	void *x = dt == I32 ? rand_i32_full(n) : rand_tensor(dt, n, -10, 10);
	void *x0 = xalloc(n * esize(dt));
	void *o = in_place ? x : xalloc(rows * inner * esize(dt));
	struct vnpu_op_args a = mk(op, dt, rows, cols, inner);
	char what[80];

	memcpy(x0, x, n * esize(dt));
	a.in0 = x;
	a.out = o;
	ck_assert_int_eq(run(&a), 0);
	snprintf(what, sizeof(what), "op %u %s %llux%llux%llu", op, dtype_name[dt],
		 (unsigned long long)rows, (unsigned long long)cols, (unsigned long long)inner);
	for (r = 0; r < rows; r++)
		for (k = 0; k < inner; k++) {
			double s = 0, sa = 0, mx = -INFINITY;
			u64 at = r * inner + k;
			u32 su = 0;
			s32 mi = INT32_MIN;

			for (c = 0; c < cols; c++) {
				u64 i = (r * cols + c) * inner + k;
				double v = get_val(x0, dt, i);

				s += v;
				sa += fabs(v);
				mx = v > mx ? v : mx;
				if (dt == I32) {
					su += ((u32 *)x0)[i];
					mi = (s32)v > mi ? (s32)v : mi;
				}
			}
			if (dt == I32)
				EXPECT_MSG(((u32 *)o)[at] == (op == VNPU_OP_REDUCE_SUM ? su : (u32)mi),
					   "%s [%llu,%llu]", what, (unsigned long long)r,
					   (unsigned long long)k);
			else if (op == VNPU_OP_REDUCE_MAX)
				EXPECT_MSG(get_val(o, dt, at) == mx, "%s [%llu,%llu]", what,
					   (unsigned long long)r, (unsigned long long)k);
			else if (dt == F32)
				EXPECT_MSG(fabs(get_val(o, dt, at) - s) <= 1e-5 * sa,
					   "%s [%llu,%llu]: %.9g vs %.9g", what, (unsigned long long)r,
					   (unsigned long long)k, get_val(o, dt, at), s);
			else
				check_fp(dt, o, at, s, 1e-5 * sa, what);
		}
	if (!in_place)
		free(o);
	free(x0);
	free(x);
}

/*
 * {rows, cols, inner}: whole rows per chunk, a row in column segments
 * (cols * inner > 16384), inner itself in blocks (inner > 16384), and
 * segments that do not divide the row evenly.
 */
static const u64 inner_shapes[][3] = {
	{ 1, 1, 2 }, { 3, 7, 5 }, { 5, 2, 3 }, { 2, 257, 9 }, { 4, 100, 200 },
	{ 2, 5000, 4 }, { 1, 3, 20000 }, { 3, 16385, 2 }, { 1, 2, 16384 }, { 6, 1, 3 },
};

START_TEST(reduce_inner)
{
	u32 s, op;

	rng_seed(2100 + _i);
	for (op = VNPU_OP_REDUCE_SUM; op <= VNPU_OP_REDUCE_MAX; op++)
		for (s = 0; s < sizeof(inner_shapes) / sizeof(inner_shapes[0]); s++)
			reduce_inner_case(op, all_dtypes[_i], inner_shapes[s][0], inner_shapes[s][1],
					  inner_shapes[s][2], s % 3 == 1);
}
END_TEST

/* A long column of positive fp32 values: compensated, not naive, summation. */
START_TEST(reduce_inner_f32_accuracy)
{
	u64 cols = 250000, inner = 4, i;
	float *x = xalloc(cols * inner * 4), out[4], naive = 0;
	double s = 0;
	struct vnpu_op_args a = mk(VNPU_OP_REDUCE_SUM, F32, 1, cols, inner);

	rng_seed(4343);
	for (i = 0; i < cols * inner; i++) {
		x[i] = (float)rng_uniform(0.0, 1.0);
		if (i % inner == 2) {
			s += x[i];
			naive += x[i];
		}
	}
	a.in0 = x;
	a.out = out;
	ck_assert_int_eq(run(&a), 0);
	EXPECT_MSG(fabs(out[2] - s) <= 1e-6 * s, "sum %.9g vs %.9g", out[2], s);
	EXPECT(fabs(naive - s) > 1e-6 * s);
	free(x);
}
END_TEST

/* NaN and infinities along the middle axis, in whole rows and in segments. */
START_TEST(reduce_inner_nan_inf)
{
	u64 cols[] = { 5, 20000 }, inner = 3, i, c;
	u32 t;

	for (t = 0; t < 3; t++) {
		u32 dt = all_dtypes[t];

		for (i = 0; i < 2; i++) {
			u64 n = cols[i] * inner;
			void *x = rand_tensor(dt, n, -10, 10);
			u32 o[3];
			struct vnpu_op_args a = mk(VNPU_OP_REDUCE_MAX, dt, 1, cols[i], inner);

			/* k 0: a NaN in the middle; k 1: all -inf; k 2: +inf, then big values */
			set_val(x, dt, (cols[i] / 2) * inner, NAN);
			for (c = 0; c < cols[i]; c++)
				set_val(x, dt, c * inner + 1, -INFINITY);
			set_val(x, dt, 2, INFINITY);
			a.in0 = x;
			a.out = o;
			ck_assert_int_eq(run(&a), 0);
			EXPECT(isnan(get_val(o, dt, 0)));
			EXPECT(get_val(o, dt, 1) == -INFINITY);
			EXPECT(get_val(o, dt, 2) == INFINITY);

			a.op = VNPU_OP_REDUCE_SUM;
			ck_assert_int_eq(run(&a), 0);
			EXPECT(isnan(get_val(o, dt, 0)));
			EXPECT(get_val(o, dt, 1) == -INFINITY);
			EXPECT(get_val(o, dt, 2) == INFINITY);
			free(x);
		}
	}
}
END_TEST

/* ---- softmax ---------------------------------------------------------- */

/*
 * fp32 softmax tolerance: |got - ref| <= 1e-5 * |ref| + 2^-126. Relative,
 * so a 1% error of exp on some elements fails however small they are;
 * 2^-126 (the smallest normal fp32) for results that underflow.
 */
#define SOFTMAX_F32_REL 1e-5
#define SOFTMAX_F32_TINY 0x1p-126

static void softmax_case(u32 dt, u64 rows, u64 cols, double lo, double hi, bool in_place)
{
	u64 r, c;
	void *x = rand_tensor(dt, rows * cols, lo, hi);
	void *x0 = xalloc(rows * cols * esize(dt));
	void *o = in_place ? x : xalloc(rows * cols * esize(dt));
	struct vnpu_op_args a = mk(VNPU_OP_SOFTMAX, dt, rows, cols, 0);
	double *ref = xalloc(cols * sizeof(double));

	memcpy(x0, x, rows * cols * esize(dt));
	a.in0 = x;
	a.out = o;
	ck_assert_int_eq(run(&a), 0);
	for (r = 0; r < rows; r++) {
		double mx = -INFINITY, s = 0, gs = 0;

		for (c = 0; c < cols; c++)
			mx = fmax(mx, get_val(x0, dt, r * cols + c));
		for (c = 0; c < cols; c++) {
			ref[c] = exp(get_val(x0, dt, r * cols + c) - mx);
			s += ref[c];
		}
		for (c = 0; c < cols; c++) {
			double g = get_val(o, dt, r * cols + c);

			EXPECT_MSG(!isnan(g), "NaN at %llu,%llu", (unsigned long long)r,
				      (unsigned long long)c);
			gs += g;
			if (dt == F32)
				EXPECT_MSG(fabs(g - ref[c] / s) <= SOFTMAX_F32_REL * (ref[c] / s) +
					   SOFTMAX_F32_TINY,
					      "%llux%llu [%llu,%llu] %.9g vs %.9g",
					      (unsigned long long)rows, (unsigned long long)cols,
					      (unsigned long long)r, (unsigned long long)c, g,
					      ref[c] / s);
			else
				check_fp(dt, o, r * cols + c, ref[c] / s, 0, "softmax");
		}
		if (dt == F32)
			EXPECT_MSG(fabs(gs - 1) <= 1e-5, "row sum %.9g", gs);
	}
	free(ref);
	free(x0);
	if (!in_place)
		free(o);
	free(x);
}

START_TEST(softmax_values)
{
	static const u64 shapes[][2] = {
		{ 1, 1 }, { 3, 7 }, { 2, 8 }, { 5, 33 }, { 64, 1000 }, { 2, 16384 }, { 2, 40000 },
	};
	u32 dt = all_dtypes[_i], s;

	rng_seed(5000 + _i);
	for (s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++)
		softmax_case(dt, shapes[s][0], shapes[s][1], -5, 5, false);
	/* large magnitudes: exp would overflow without subtracting the max */
	softmax_case(dt, 8, 100, -1000, 1000, false);
	softmax_case(dt, 1, 30000, -1000, 1000, false);
	softmax_case(dt, 4, 100, 990, 1000, true);
	/* the whole range of exp's argument, down to where it flushes to 0 */
	softmax_case(dt, 16, 500, -100, 0, false);
}
END_TEST

/* Softmax along the middle axis of rows x cols x inner, as softmax_case(). */
static void softmax_inner_case(u32 dt, u64 rows, u64 cols, u64 inner, double lo, double hi,
			       bool in_place)
{
	u64 n = rows * cols * inner, r, c, k;
	void *x = rand_tensor(dt, n, lo, hi);
	void *x0 = xalloc(n * esize(dt));
	void *o = in_place ? x : xalloc(n * esize(dt));
	struct vnpu_op_args a = mk(VNPU_OP_SOFTMAX, dt, rows, cols, inner);
	double *ref = xalloc(cols * sizeof(double));
	char what[80];

	memcpy(x0, x, n * esize(dt));
	a.in0 = x;
	a.out = o;
	ck_assert_int_eq(run(&a), 0);
	snprintf(what, sizeof(what), "softmax %s %llux%llux%llu", dtype_name[dt],
		 (unsigned long long)rows, (unsigned long long)cols, (unsigned long long)inner);
	for (r = 0; r < rows; r++)
		for (k = 0; k < inner; k++) {
			double mx = -INFINITY, s = 0, gs = 0;

			for (c = 0; c < cols; c++)
				mx = fmax(mx, get_val(x0, dt, (r * cols + c) * inner + k));
			for (c = 0; c < cols; c++) {
				ref[c] = exp(get_val(x0, dt, (r * cols + c) * inner + k) - mx);
				s += ref[c];
			}
			for (c = 0; c < cols; c++) {
				u64 i = (r * cols + c) * inner + k;
				double g = get_val(o, dt, i);

				gs += g;
				if (dt == F32)
					EXPECT_MSG(fabs(g - ref[c] / s) <= SOFTMAX_F32_REL * (ref[c] / s) +
						   SOFTMAX_F32_TINY, "%s [%llu,%llu,%llu] %.9g vs %.9g",
						   what, (unsigned long long)r, (unsigned long long)c,
						   (unsigned long long)k, g, ref[c] / s);
				else
					check_fp(dt, o, i, ref[c] / s, 0, what);
			}
			if (dt == F32)
				EXPECT_MSG(fabs(gs - 1) <= 1e-5, "%s sum %.9g", what, gs);
		}
	free(ref);
	free(x0);
	if (!in_place)
		free(o);
	free(x);
}

START_TEST(softmax_inner)
{
	u32 dt = all_dtypes[_i], s;

	rng_seed(5100 + _i);
	for (s = 0; s < sizeof(inner_shapes) / sizeof(inner_shapes[0]); s++)
		softmax_inner_case(dt, inner_shapes[s][0], inner_shapes[s][1], inner_shapes[s][2],
				   -5, 5, s % 3 == 2);
	softmax_inner_case(dt, 3, 100, 7, -1000, 1000, false);
	softmax_inner_case(dt, 2, 9000, 3, -100, 0, true);
}
END_TEST

START_TEST(softmax_rows_sum_to_one)
{
	u64 rows = 32, cols = 777, r, c;
	float *x = xalloc(rows * cols * 4), *o = xalloc(rows * cols * 4);
	struct vnpu_op_args a = mk(VNPU_OP_SOFTMAX, F32, rows, cols, 0);

	rng_seed(6000);
	for (r = 0; r < rows * cols; r++)
		x[r] = (float)rng_uniform(-1000, 1000) * (r % 3 ? 1.0f : 0.001f);
	x[5] = -INFINITY;	/* contributes exactly 0 */
	a.in0 = x;
	a.out = o;
	ck_assert_int_eq(run(&a), 0);
	EXPECT(o[5] == 0.0f);
	for (r = 0; r < rows; r++) {
		double s = 0;

		for (c = 0; c < cols; c++) {
			EXPECT(o[r * cols + c] >= 0 && o[r * cols + c] <= 1);
			s += o[r * cols + c];
		}
		EXPECT_MSG(fabs(s - 1) <= 1e-5, "row %llu sums to %.9g", (unsigned long long)r, s);
	}
	free(x);
	free(o);
}
END_TEST

/* exp of the whole relevant domain, through softmax over {0, x}: 1/(1+e^x) */
START_TEST(softmax_exp_accuracy)
{
	u64 rows = 20000, r;
	float *x = xalloc(rows * 2 * 4), *o = xalloc(rows * 2 * 4);
	struct vnpu_op_args a = mk(VNPU_OP_SOFTMAX, F32, rows, 2, 0);
	double worst = 0;

	for (r = 0; r < rows; r++) {
		x[2 * r] = 0;
		x[2 * r + 1] = (float)(-87.0 * r / rows);
	}
	a.in0 = x;
	a.out = o;
	ck_assert_int_eq(run(&a), 0);
	for (r = 0; r < rows; r++) {
		double e = exp((double)x[2 * r + 1]);
		double want = e / (1 + e), rel = fabs(o[2 * r + 1] - want) / want;

		worst = rel > worst ? rel : worst;
	}
	/* exp with < 2e-7 relative error, plus the division's rounding */
	EXPECT_MSG(worst < 2.5e-7, "worst relative error %g", worst);
	free(x);
	free(o);
}
END_TEST

/* ---- matmul ----------------------------------------------------------- */

static void matmul_case(u32 dt, u64 m, u64 n, u64 k, u32 flags)
{
	bool ta = flags & VNPU_OP_F_TRANS_A, tb = flags & VNPU_OP_F_TRANS_B;
	void *A = dt == I32 ? rand_i32_full(m * k) : rand_tensor(dt, m * k, -1, 1);
	void *B = dt == I32 ? rand_i32_full(k * n) : rand_tensor(dt, k * n, -1, 1);
	void *o = xalloc(m * n * esize(dt));
	struct vnpu_op_args a = mk(VNPU_OP_MATMUL, dt, m, n, k);
	u64 i, j, l;
	char what[80];

	a.flags = flags;
	a.in0 = A;
	a.in1 = B;
	a.out = o;
	ck_assert_int_eq(run(&a), 0);
	snprintf(what, sizeof(what), "matmul %llux%llux%llu flags %u", (unsigned long long)m,
		 (unsigned long long)n, (unsigned long long)k, flags);
	for (i = 0; i < m; i++)
		for (j = 0; j < n; j++) {
			double s = 0, sa = 0;
			u64 su = 0;

			for (l = 0; l < k; l++) {
				u64 ia = ta ? l * m + i : i * k + l;
				u64 ib = tb ? j * k + l : l * n + j;

				if (dt == I32) {
					su += (u64)((u32 *)A)[ia] * ((u32 *)B)[ib];
				} else {
					double p = get_val(A, dt, ia) * get_val(B, dt, ib);

					s += p;
					sa += fabs(p);
				}
			}
			if (dt == I32)
				EXPECT_MSG(((u32 *)o)[i * n + j] == (u32)su, "%s [%llu,%llu]",
					      what, (unsigned long long)i, (unsigned long long)j);
			else if (dt == F32)
				EXPECT_MSG(fabs(get_val(o, dt, i * n + j) - s) <= 2e-5 * sa,
					      "%s [%llu,%llu] %.9g vs %.9g", what,
					      (unsigned long long)i, (unsigned long long)j,
					      get_val(o, dt, i * n + j), s);
			else
				check_fp(dt, o, i * n + j, s, 2e-5 * sa, what);
		}
	free(A);
	free(B);
	free(o);
}

START_TEST(matmul_values)
{
	static const u64 shapes[][3] = {
		{ 1, 1, 1 }, { 33, 17, 29 }, { 1, 9, 3 }, { 7, 1, 13 }, { 128, 128, 128 },
		/* one output row is 2M multiply-adds: split into j and k blocks */
		{ 2, 2048, 1024 },
	};
	u32 dt = all_dtypes[_i], s, f;

	rng_seed(7000 + _i);
	for (s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++)
		for (f = 0; f < 4; f++)
			matmul_case(dt, shapes[s][0], shapes[s][1], shapes[s][2],
				    (f & 1 ? VNPU_OP_F_TRANS_A : 0) |
				    (f & 2 ? VNPU_OP_F_TRANS_B : 0));
}
END_TEST

/* an output row longer than one chunk: j blocks of 2^20 with k = 1 per block */
START_TEST(matmul_wide_row)
{
	rng_seed(7100);
	matmul_case(F32, 1, (1u << 20) + 3, 2, 0);
	matmul_case(BF16, 2, (1u << 20) + 1, 1, VNPU_OP_F_TRANS_B);
}
END_TEST

/* narrow rows with a long k: k blocks carry the accumulator between chunks */
START_TEST(matmul_long_k)
{
	u32 t;

	rng_seed(7200);
	for (t = 0; t < 4; t++) {
		matmul_case(all_dtypes[t], 3, 1, 100003, VNPU_OP_F_TRANS_A);
		matmul_case(all_dtypes[t], 2, 5, 300001, VNPU_OP_F_TRANS_B);
	}
}
END_TEST

/* ---- workspace use ------------------------------------------------------- */

#define WS_PAD 256
#define WS_FILL 0xa5

/* Runs @a with a workspace of exactly sz.ws bytes plus a guard area. */
static u8 *run_with_guarded_ws(struct vnpu_op_args *a, u64 *ws_bytes)
{
	struct vnpu_op_sizes sz;
	u8 *ws;
	u64 i;

	ck_assert_int_eq(vnpu_op_sizes(a, &sz), 0);
	ws = xalloc(sz.ws + WS_PAD);
	memset(ws, WS_FILL, sz.ws + WS_PAD);
	a->ws = ws;
	a->ws_size = sz.ws;
	ck_assert_int_eq(vnpu_op_run(a, NULL), 0);
	for (i = sz.ws; i < sz.ws + WS_PAD; i++)
		EXPECT_MSG(ws[i] == WS_FILL, "byte %llu past the workspace written",
			      (unsigned long long)i);
	*ws_bytes = sz.ws;
	return ws;
}

START_TEST(ws_reduce)
{
	u64 rows = 5, cols[] = { 100, 40000 }, c, i, wsb;
	u32 t, op;

	rng_seed(8000);
	for (t = 0; t < 4; t++)
		for (op = VNPU_OP_REDUCE_SUM; op <= VNPU_OP_REDUCE_MAX; op++)
			for (i = 0; i < 2; i++) {
				u32 dt = all_dtypes[t];
				void *x = rand_tensor(dt, rows * cols[i], -100, 100);
				u32 o[5];
				struct vnpu_op_args a = mk(op, dt, rows, cols[i], 0);
				u8 *ws;

				a.in0 = x;
				a.out = o;
				ws = run_with_guarded_ws(&a, &wsb);
				ck_assert_uint_eq(wsb, cols[i] * 4);
				/* the last row, as fp32 (int32), is in the workspace */
				for (c = 0; c < cols[i]; c++) {
					double v = get_val(x, dt, (rows - 1) * cols[i] + c);

					if (dt == I32)
						EXPECT(((s32 *)ws)[c] == (s32)v);
					else
						EXPECT(((float *)ws)[c] == (float)v);
				}
				free(ws);
				free(x);
			}
}
END_TEST

/* inner > 1: exactly the formula's workspace, nothing written past it. */
START_TEST(ws_inner)
{
	static const u64 shapes[][3] = { { 3, 10, 6 }, { 2, 3000, 7 }, { 1, 2, 20000 } };
	u64 i, wsb, k;
	u32 t, op;

	rng_seed(8200);
	for (t = 0; t < 4; t++)
		for (op = VNPU_OP_REDUCE_SUM; op <= VNPU_OP_SOFTMAX; op++)
			for (i = 0; i < 3; i++) {
				u32 dt = all_dtypes[t];
				u64 rows = shapes[i][0], cols = shapes[i][1], inner = shapes[i][2];
				u64 n = rows * cols * inner, words = op == VNPU_OP_REDUCE_MAX ? 1 :
					op == VNPU_OP_REDUCE_SUM ? 2 : 3;
				void *x, *o;
				struct vnpu_op_args a = mk(op, dt, rows, cols, inner);
				u8 *ws;

				if (op == VNPU_OP_SOFTMAX && dt == I32)
					continue;
				x = rand_tensor(dt, n, -100, 100);
				o = xalloc(n * esize(dt));
				a.in0 = x;
				a.out = o;
				ws = run_with_guarded_ws(&a, &wsb);
				ck_assert_uint_eq(wsb, words * 4 * inner);
				/* REDUCE_*: the first word of each inner is the last row's result */
				for (k = 0; op != VNPU_OP_SOFTMAX && dt != F16 && dt != BF16 &&
				     k < inner; k++)
					EXPECT(((u32 *)ws)[k] == raw_get(o, dt, (rows - 1) * inner + k));
				free(ws);
				free(o);
				free(x);
			}
}
END_TEST

START_TEST(ws_softmax)
{
	u64 rows = 3, cols[] = { 50, 40000 }, c, i, wsb;
	u32 t;

	rng_seed(8100);
	for (t = 0; t < 3; t++)
		for (i = 0; i < 2; i++) {
			u32 dt = all_dtypes[t];
			u64 last = (rows - 1) * cols[i];
			void *x = rand_tensor(dt, rows * cols[i], -5, 5);
			void *o = xalloc(rows * cols[i] * 4);
			struct vnpu_op_args a = mk(VNPU_OP_SOFTMAX, dt, rows, cols[i], 0);
			double mx = -INFINITY;
			u8 *ws;

			a.in0 = x;
			a.out = o;
			ws = run_with_guarded_ws(&a, &wsb);
			ck_assert_uint_eq(wsb, cols[i] * 4);
			/* exp(x - max) of the last row is left in the workspace */
			for (c = 0; c < cols[i]; c++)
				mx = fmax(mx, get_val(x, dt, last + c));
			for (c = 0; c < cols[i]; c++) {
				double want = exp(get_val(x, dt, last + c) - mx);

				EXPECT_MSG(fabs(((float *)ws)[c] - want) <= 1e-6 * want,
					      "ws[%llu] %.9g vs %.9g", (unsigned long long)c,
					      ((float *)ws)[c], want);
			}
			free(ws);
			free(o);
			free(x);
		}
}
END_TEST

/* Checks that ws holds @src (rows x cols, stored cols x rows if @trans) as fp32/int32. */
static void check_ws_matrix(const u32 *ws, const void *src, u32 dt, bool trans, u64 rows, u64 cols)
{
	u64 r, c;

	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++) {
			double v = get_val(src, dt, trans ? c * rows + r : r * cols + c);

			if (dt == I32)
				EXPECT((s32)ws[r * cols + c] == (s32)v);
			else
				EXPECT(f_bits(ws[r * cols + c]) == (float)v);
		}
}

static void ws_matmul_case(u32 dt, bool ta, bool tb)
{
	u64 m = 5, n = 6, k = 7, j, l, wsb;
	bool lowp = dt == F16 || dt == BF16;
	void *A = rand_tensor(dt, m * k, -4, 4), *B = rand_tensor(dt, k * n, -4, 4);
	void *o = xalloc(m * n * 4);
	struct vnpu_op_args a = mk(VNPU_OP_MATMUL, dt, m, n, k);
	u64 want_ws = (ta || lowp ? m * k : 0) + (tb || lowp ? k * n : 0) + (lowp ? n : 0);
	u32 *w;
	u8 *ws;

	a.flags = (ta ? VNPU_OP_F_TRANS_A : 0) | (tb ? VNPU_OP_F_TRANS_B : 0);
	a.in0 = A;
	a.in1 = B;
	a.out = o;
	ws = run_with_guarded_ws(&a, &wsb);
	ck_assert_uint_eq(wsb, want_ws * 4);
	w = (u32 *)ws;
	/* A as row-major m x k, fp32 (int32 stays int32), then B as k x n */
	if (ta || lowp) {
		check_ws_matrix(w, A, dt, ta, m, k);
		w += m * k;
	}
	if (tb || lowp) {
		check_ws_matrix(w, B, dt, tb, k, n);
		w += k * n;
	}
	/* the fp32 accumulator row holds the last output row unrounded */
	for (j = 0; lowp && j < n; j++) {
		double s = 0;

		for (l = 0; l < k; l++)
			s += get_val(A, dt, ta ? l * m + (m - 1) : (m - 1) * k + l) *
			     get_val(B, dt, tb ? j * k + l : l * n + j);
		EXPECT_MSG(fabs(f_bits(w[j]) - s) <= 1e-5 * (1 + fabs(s)), "acc[%llu] %.9g vs %.9g",
			   (unsigned long long)j, f_bits(w[j]), s);
	}
	free(ws);
	free(A);
	free(B);
	free(o);
}

START_TEST(ws_matmul)
{
	u32 t, f;

	rng_seed(8200);
	for (t = 0; t < 4; t++)
		for (f = 0; f < 4; f++)
			ws_matmul_case(all_dtypes[t], f & 1, f & 2);
}
END_TEST

/* ops without workspace run with none at all */
START_TEST(ws_none)
{
	float x[3] = { 1, 2, 3 }, o[3];
	struct vnpu_op_args a = mk(VNPU_OP_ABS, F32, 3, 0, 0);

	a.in0 = x;
	a.out = o;
	ck_assert_int_eq(vnpu_op_run(&a, NULL), 0);
	EXPECT(o[2] == 3);
}
END_TEST

/* ---- vnpu_op_run argument checks ---------------------------------------- */

START_TEST(run_rejects_bad_buffers)
{
	u32 buf[64] = { 0 };
	float o[16];
	struct vnpu_op_args a = mk(VNPU_OP_ADD, F32, 4, 0, 0);

	a.in0 = buf;
	a.in1 = buf;
	a.out = o;
	ck_assert_int_eq(vnpu_op_run(&a, NULL), 0);
	a.in0 = (u8 *)buf + 2;		/* misaligned */
	ck_assert_int_eq(vnpu_op_run(&a, NULL), -EINVAL);
	a.in0 = buf;
	a.out = (u8 *)o + 1;
	ck_assert_int_eq(vnpu_op_run(&a, NULL), -EINVAL);
	a.out = o;
	a.in1 = NULL;			/* binary without in1 */
	ck_assert_int_eq(vnpu_op_run(&a, NULL), -EINVAL);
	a.in0 = NULL;
	a.in1 = buf;
	ck_assert_int_eq(vnpu_op_run(&a, NULL), -EINVAL);

	a = mk(VNPU_OP_RELU, F32, 4, 0, 0);	/* unary with in1 */
	a.in0 = buf;
	a.in1 = buf;
	a.out = o;
	ck_assert_int_eq(vnpu_op_run(&a, NULL), -EINVAL);

	a = mk(VNPU_OP_REDUCE_SUM, F32, 2, 8, 0);	/* workspace too small or missing */
	a.in0 = buf;
	a.out = o;
	a.ws = buf + 16;
	a.ws_size = 31;
	ck_assert_int_eq(vnpu_op_run(&a, NULL), -EINVAL);
	a.ws_size = 32;
	ck_assert_int_eq(vnpu_op_run(&a, NULL), 0);
	a.ws = (u8 *)(buf + 16) + 2;
	ck_assert_int_eq(vnpu_op_run(&a, NULL), -EINVAL);
	a.ws = NULL;
	ck_assert_int_eq(vnpu_op_run(&a, NULL), -EINVAL);

	a = mk(VNPU_OP_MATMUL, F32, 2, 2, 0);	/* fails vnpu_op_sizes() */
	a.in0 = buf;
	a.in1 = buf;
	a.out = o;
	ck_assert_int_eq(vnpu_op_run(&a, NULL), -EINVAL);
}
END_TEST

/* ---- cancellation ------------------------------------------------------- */

struct stop_ctl {
	int calls;
	int stop_at;
};

static bool stop_cb(void *priv)
{
	struct stop_ctl *s = priv;

	return ++s->calls == s->stop_at;
}

START_TEST(cancel_add)
{
	u64 n = 1000000, i;
	float *x = xalloc(n * 4), *o = xalloc(n * 4);
	struct stop_ctl st = { .stop_at = 2 };
	struct vnpu_op_ctl ctl = { .should_stop = stop_cb, .priv = &st };
	struct vnpu_op_args a = mk(VNPU_OP_ADD, F32, n, 0, 0);

	for (i = 0; i < n; i++)
		x[i] = (float)i;
	for (i = 0; i < n; i++)
		o[i] = -1;
	a.in0 = x;
	a.in1 = x;
	a.out = o;
	ck_assert_int_eq(vnpu_op_run(&a, &ctl), -ECANCELED);
	ck_assert_int_eq(st.calls, 2);
	EXPECT(o[0] == 0 && o[1] == 2);	/* the first chunk ran */
	EXPECT(o[n - 1] == -1);		/* the last did not */

	/* never stopping: asked between every two chunks, finishes */
	st.calls = 0;
	st.stop_at = -1;
	ck_assert_int_eq(vnpu_op_run(&a, &ctl), 0);
	ck_assert_int_ge(st.calls, 2);
	EXPECT(o[n - 1] == 2.0f * (n - 1));
	free(x);
	free(o);
}
END_TEST

START_TEST(cancel_matmul_softmax)
{
	u64 m = 256, i;
	float *x = xalloc(m * m * 4), *o = xalloc(m * m * 4);
	struct stop_ctl st = { .stop_at = 2 };
	struct vnpu_op_ctl ctl = { .should_stop = stop_cb, .priv = &st };
	struct vnpu_op_args a = mk(VNPU_OP_MATMUL, F32, m, m, m);
	struct vnpu_op_sizes sz;

	for (i = 0; i < m * m; i++)
		x[i] = 1;
	for (i = 0; i < m * m; i++)
		o[i] = -1;
	a.flags = VNPU_OP_F_TRANS_A;
	a.in0 = x;
	a.in1 = x;
	a.out = o;
	ck_assert_int_eq(vnpu_op_sizes(&a, &sz), 0);
	a.ws = xalloc(sz.ws);
	a.ws_size = sz.ws;
	ck_assert_int_eq(vnpu_op_run(&a, &ctl), -ECANCELED);
	ck_assert_int_eq(st.calls, 2);
	EXPECT(o[m * m - 1] == -1);
	free(a.ws);

	/* a softmax over one long row stops between its segments */
	st.calls = 0;
	a = mk(VNPU_OP_SOFTMAX, F32, 1, m * m, 0);
	a.in0 = x;
	a.out = o;
	a.ws = xalloc(m * m * 4);
	a.ws_size = m * m * 4;
	ck_assert_int_eq(vnpu_op_run(&a, &ctl), -ECANCELED);
	ck_assert_int_eq(st.calls, 2);
	EXPECT(o[0] == -1);	/* stopped before the normalising pass */
	free(a.ws);

	/* ... and one along a long middle axis, between its column segments */
	st.calls = 0;
	a = mk(VNPU_OP_SOFTMAX, F32, 1, m * m / 4, 4);
	a.in0 = x;
	a.out = o;
	a.ws = xalloc(3 * 4 * 4);
	a.ws_size = 3 * 4 * 4;
	ck_assert_int_eq(vnpu_op_run(&a, &ctl), -ECANCELED);
	ck_assert_int_eq(st.calls, 2);
	EXPECT(o[0] == -1);
	free(a.ws);
	free(x);
	free(o);
}
END_TEST

/* ---- suite -------------------------------------------------------------- */

static Suite *ops_suite(void)
{
	Suite *s = suite_create("vnpu_ops");
	TCase *tc;

	tc = tcase_create("sizes");
	tcase_add_test(tc, sizes_valid_all_ops);
	tcase_add_test(tc, sizes_unknown_op);
	tcase_add_test(tc, sizes_bad_dtype);
	tcase_add_test(tc, sizes_bad_out_dtype);
	tcase_add_test(tc, sizes_flags_wrong_op);
	tcase_add_test(tc, sizes_both_scalar);
	tcase_add_test(tc, sizes_zero_dims);
	tcase_add_test(tc, sizes_unused_dims);
	tcase_add_test(tc, sizes_softmax_i32);
	tcase_add_test(tc, sizes_dim_limit);
	tcase_add_test(tc, sizes_overflow);
	tcase_add_test(tc, sizes_formula);
	tcase_add_test(tc, sizes_inner);
	tcase_add_test(tc, sizes_ignores_pointers);
	suite_add_tcase(s, tc);

	tc = tcase_create("elementwise");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, ew_add, 0, 4);
	tcase_add_loop_test(tc, ew_sub, 0, 4);
	tcase_add_loop_test(tc, ew_mul, 0, 4);
	tcase_add_loop_test(tc, ew_div, 0, 4);
	tcase_add_test(tc, ew_float_specials);
	tcase_add_test(tc, ew_i32_div_by_zero);
	tcase_add_loop_test(tc, ew_relu_abs, 0, 4);
	tcase_add_test(tc, ew_in_place);
	tcase_add_test(tc, ew_scalar_in_place);
	suite_add_tcase(s, tc);

	tc = tcase_create("cast");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, cast_all_pairs, 0, 16);
	tcase_add_test(tc, f16_edges);
	tcase_add_test(tc, bf16_edges);
	tcase_add_test(tc, cast_int_saturation);
	tcase_add_test(tc, cast_i32_via_f32);
	suite_add_tcase(s, tc);

	tc = tcase_create("reduce");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, reduce_sum, 0, 4);
	tcase_add_loop_test(tc, reduce_max, 0, 4);
	tcase_add_test(tc, reduce_sum_f32_accuracy);
	tcase_add_test(tc, reduce_nan_inf);
	tcase_add_loop_test(tc, reduce_inner, 0, 4);
	tcase_add_test(tc, reduce_inner_f32_accuracy);
	tcase_add_test(tc, reduce_inner_nan_inf);
	suite_add_tcase(s, tc);

	tc = tcase_create("softmax");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, softmax_values, 0, 3);
	tcase_add_test(tc, softmax_rows_sum_to_one);
	tcase_add_loop_test(tc, softmax_inner, 0, 3);
	tcase_add_test(tc, softmax_exp_accuracy);
	suite_add_tcase(s, tc);

	tc = tcase_create("matmul");
	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, matmul_values, 0, 4);
	tcase_add_test(tc, matmul_wide_row);
	tcase_add_test(tc, matmul_long_k);
	suite_add_tcase(s, tc);

	tc = tcase_create("workspace");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, ws_reduce);
	tcase_add_test(tc, ws_softmax);
	tcase_add_test(tc, ws_inner);
	tcase_add_test(tc, ws_matmul);
	tcase_add_test(tc, ws_none);
	suite_add_tcase(s, tc);

	tc = tcase_create("run");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, run_rejects_bad_buffers);
	tcase_add_test(tc, cancel_add);
	tcase_add_test(tc, cancel_matmul_softmax);
	suite_add_tcase(s, tc);

	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(ops_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
