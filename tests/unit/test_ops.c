// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for vnpu's operator library, lib/ops, through its public
 * API (lib/ops/vnpu_ops.h): vops_plan() a call, run its descriptor with
 * vops_run() on host memory, compare with a double-precision reference.
 *
 * The compute cases are the kernel's former ones (kernel/vnpu_ops*.c moved
 * to lib/ops), each still at the level it was written for: an operator,
 * a type and dims {d0, d1, d2} (element-wise {n}; reductions and softmax
 * {rows, cols, inner}, along cols; matmul {m, n, k}), which run_op() turns
 * into the CANN call that means exactly that (shapes [n], [rows, cols(,
 * inner)] with axes [1], MatMul with its transposes). Every result is
 * checked against a double-precision reference: the number formats,
 * element-wise ops and casts of the shared test reference
 * (tests/selftests/lib/vnpu_op_ref.c, which the guest selftests and the
 * ACL tests use too), and reductions, softmax and matmul written here in
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
 *
 * Then what lib/ops adds: every planning error class of every operator,
 * the plan's sizes, alignments and in-place rules, the descriptor's format
 * and every way to break it (truncated, oversized, garbage, each field
 * wrong, every bit flipped, shapes larger than the operands), the operand
 * checks (count, access, alignment, size), reductions over axes that are
 * not adjacent as one descriptor, and matrix products from several threads
 * at once (one engine worker per thread). ASan and UBSan (make unit) catch
 * any access outside the operands.
 */
#include <check.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_base.h"
#include "vnpu_drm.h"
#include "vnpu_op_ref.h"
#include "vnpu_ops.h"

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;

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

/* The reference's type codes (vnpu_op_ref.h); acl() gives the aclDataType. */
#define F32 REF_F32
#define F16 REF_F16
#define BF16 REF_BF16
#define I32 REF_I32

static const u32 all_dtypes[] = { F32, F16, BF16, I32 };
static const char *const dtype_name[] = { "?", "f32", "f16", "bf16", "i32" };

static int32_t acl(u32 dt)
{
	return ref_dtype_to_acl(dt);
}

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

/* ---- calls ------------------------------------------------------------ */

/* Tensors and attributes, for the planning tests. */
#define TEN(dt, ...)								\
	((struct vops_tensor){ .dtype = (dt),						\
			       .ndim = (int32_t)(sizeof((int64_t[]){ __VA_ARGS__ }) / 8),	\
			       .dims = (const int64_t[]){ __VA_ARGS__ } })
#define SCALAR(dt) ((struct vops_tensor){ .dtype = (dt), .ndim = 0, .dims = NULL })
#define AT_BOOL(nm, v) ((struct vops_attr){ .name = (char *)(nm), .kind = VOPS_ATTR_BOOL, .b = (v) })
#define AT_INT(nm, v) ((struct vops_attr){ .name = (char *)(nm), .kind = VOPS_ATTR_INT, .i = (v) })
#define AT_FLOAT(nm, v) ((struct vops_attr){ .name = (char *)(nm), .kind = VOPS_ATTR_FLOAT, .f = (v) })
#define AT_DT(nm, v) ((struct vops_attr){ .name = (char *)(nm), .kind = VOPS_ATTR_DTYPE, .dt = (v) })
#define AT_LIST(nm, ...)							\
	((struct vops_attr){ .name = (char *)(nm), .kind = VOPS_ATTR_LIST_INT,	\
			     .li = { (int)(sizeof((int64_t[]){ __VA_ARGS__ }) / 8),	\
				     (int64_t[]){ __VA_ARGS__ } } })
#define AT_EMPTY_LIST(nm)							\
	((struct vops_attr){ .name = (char *)(nm), .kind = VOPS_ATTR_LIST_INT, .li = { 0, NULL } })

static struct vops_plan plan;
static struct vops_error perr;
static char why[512];

/*
 * An operator at the level of the kernel's former tests: @op (REF_OP_*),
 * @dtype (REF_*), @out_dtype (CAST), @flags (REF_F_*), @dims.
 */
struct prim {
	u32 op, dtype, out_dtype, flags;
	u64 dims[3];
	const void *in0, *in1;
	void *out;
};

static struct prim mk(u32 op, u32 dt, u64 d0, u64 d1, u64 d2)
{
	struct prim a = { .op = op, .dtype = dt, .dims = { d0, d1, d2 } };

	return a;
}

/* The CANN call a prim means. */
struct call {
	const char *type;
	int nin;
	struct vops_tensor in[2];
	int64_t dims[2][3];
	struct vops_attr attrs[2];
	unsigned int nattrs;
	int64_t axes;
};

static void call_of(const struct prim *a, struct call *c)
{
	static const char *const names[] = {
		NULL, "Add", "Sub", "Mul", "RealDiv", "Relu", "Abs", "Cast", "ReduceSumD",
		"ReduceMaxD", "SoftmaxV2", "MatMul",
	};
	bool ta = a->flags & REF_F_TRANS_A, tb = a->flags & REF_F_TRANS_B;
	u64 m = a->dims[0], n = a->dims[1], k = a->dims[2];
	int i;

	memset(c, 0, sizeof(*c));
	ck_assert_uint_ge(a->op, REF_OP_ADD);
	ck_assert_uint_le(a->op, REF_OP_MATMUL);
	c->type = names[a->op];
	c->nin = a->op <= REF_OP_DIV || a->op == REF_OP_MATMUL ? 2 : 1;
	for (i = 0; i < 2; i++) {
		c->in[i].dtype = acl(a->dtype);
		c->in[i].dims = c->dims[i];
	}
	switch (a->op) {
	case REF_OP_ADD: case REF_OP_SUB: case REF_OP_MUL: case REF_OP_DIV:
		c->in[0].ndim = c->in[1].ndim = 1;
		c->dims[0][0] = (a->flags & REF_F_SCALAR_IN0) ? 1 : (int64_t)m;
		c->dims[1][0] = (a->flags & REF_F_SCALAR_IN1) ? 1 : (int64_t)m;
		break;
	case REF_OP_RELU: case REF_OP_ABS:
		c->in[0].ndim = 1;
		c->dims[0][0] = (int64_t)m;
		break;
	case REF_OP_CAST:
		c->in[0].ndim = 1;
		c->dims[0][0] = (int64_t)m;
		c->attrs[c->nattrs++] = AT_DT("dst_type", acl(a->out_dtype));
		break;
	case REF_OP_REDUCE_SUM: case REF_OP_REDUCE_MAX: case REF_OP_SOFTMAX:
		c->in[0].ndim = k ? 3 : 2;
		c->dims[0][0] = (int64_t)m;
		c->dims[0][1] = (int64_t)n;
		c->dims[0][2] = (int64_t)k;
		c->axes = 1;
		c->attrs[c->nattrs++] = (struct vops_attr){ .name = (char *)"axes",
			.kind = VOPS_ATTR_LIST_INT, .li = { 1, &c->axes } };
		break;
	default: /* MATMUL {m, n, k} */
		c->in[0].ndim = c->in[1].ndim = 2;
		c->dims[0][0] = (int64_t)(ta ? k : m);
		c->dims[0][1] = (int64_t)(ta ? m : k);
		c->dims[1][0] = (int64_t)(tb ? n : k);
		c->dims[1][1] = (int64_t)(tb ? k : n);
		c->attrs[c->nattrs++] = AT_BOOL("transpose_x1", ta);
		c->attrs[c->nattrs++] = AT_BOOL("transpose_x2", tb);
		break;
	}
}

/* Plans @a into the global plan; the error code. */
static enum vops_err plan_prim(const struct prim *a)
{
	struct call c;

	call_of(a, &c);
	return vops_plan(c.type, c.nin, c.in, 1, c.attrs, c.nattrs, &plan, &perr);
}

static void plan_ok(const struct prim *a)
{
	enum vops_err e = plan_prim(a);

	ck_assert_msg(e == VOPS_OK, "vops_plan: %d: %s", e, perr.msg);
}

/* The operands of the planned @a with workspace @ws. */
static unsigned int operands_of(const struct prim *a, void *ws, struct vops_operand *o)
{
	unsigned int n = 0;

	o[n++] = (struct vops_operand){ (void *)a->in0, plan.in_bytes[0], VNPU_OPERAND_READ };
	if (plan.nin == 2)
		o[n++] = (struct vops_operand){ (void *)a->in1, plan.in_bytes[1], VNPU_OPERAND_READ };
	o[n++] = (struct vops_operand){ a->out, plan.out[0].bytes, VNPU_OPERAND_WRITE };
	if (plan.ws_bytes)
		o[n++] = (struct vops_operand){ ws, plan.ws_bytes, VNPU_OPERAND_WORKSPACE };
	ck_assert_uint_eq(n, vops_plan_operands(&plan));
	return n;
}

/* Runs the planned @a with workspace @ws under @ctl; the status. */
static enum vops_run_status run_planned(const struct prim *a, void *ws, const struct vops_ctl *ctl)
{
	struct vops_operand o[4];
	unsigned int n = operands_of(a, ws, o);
	enum vops_run_status st = vops_run(plan.desc, plan.desc_size, o, n, ctl, why, sizeof(why));

	ck_assert_msg(st != VOPS_RUN_FAULT, "vops_run: FAULT: %s", why);
	return st;
}

/* Plans @a, gives it a fresh workspace of exactly the planned size, runs it. */
static enum vops_run_status run_ctl(struct prim *a, const struct vops_ctl *ctl)
{
	enum vops_run_status st;
	void *ws;

	plan_ok(a);
	ws = plan.ws_bytes ? xalloc(plan.ws_bytes) : NULL;
	st = run_planned(a, ws, ctl);
	free(ws);
	return st;
}

static enum vops_run_status run(struct prim *a)
{
	return run_ctl(a, NULL);
}

/* ---- element-wise ----------------------------------------------------- */

static void binary_case(u32 op, u32 dt, u64 n, u32 flags)
{
	bool s0 = flags & VNPU_OP_F_SCALAR_IN0, s1 = flags & VNPU_OP_F_SCALAR_IN1;
	u64 n0 = s0 ? 1 : n, n1 = s1 ? 1 : n, i;
	struct prim a = mk(op, dt, n, 0, 0);
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
			struct prim a = mk(op, dt, n, 0, 0);

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
	struct prim a = mk(VNPU_OP_DIV, I32, 6, 0, 0);

	a.in0 = x;
	a.in1 = y;
	a.out = o;
	ck_assert_int_eq(run(&a), VOPS_RUN_ARITH);
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
	ck_assert_int_eq(run(&a), VOPS_RUN_ARITH);
	/* a zero in the vector of divisors, scalar dividend */
	a.flags = VNPU_OP_F_SCALAR_IN0;
	a.dims[0] = 6;
	a.in0 = x;
	a.in1 = y;
	ck_assert_int_eq(run(&a), VOPS_RUN_ARITH);
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
			struct prim a = mk(op, dt, n, 0, 0);

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
		struct prim a = mk(VNPU_OP_ADD, dt, n, 0, 0);

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
		struct prim a = mk(VNPU_OP_CAST, F32, n, 0, 0);

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
			struct prim a = mk(VNPU_OP_ADD, dt, n, 0, 0);
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
	struct prim a = mk(VNPU_OP_CAST, sdt, n, 0, 0);

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
	struct prim a = mk(VNPU_OP_CAST, F32, n, 0, 0);

	for (i = 0; i < n; i++) {
		EXPECT_MSG(vops_f32_to_f16(e[i].f) == e[i].bits, "%a -> 0x%x, want 0x%x",
			      e[i].f, vops_f32_to_f16(e[i].f), e[i].bits);
		/* cross-check the hand-written table with the reference rounding */
		ck_assert_uint_eq(ref_encode(e[i].f, F16), e[i].bits);
		/* the exact values come back exactly */
		if (fabsf(e[i].f) <= 65504.0f && e[i].f == (float)ref_decode(e[i].bits, F16))
			EXPECT(bits_f(vops_f16_to_f32(e[i].bits)) == bits_f(e[i].f));
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
	EXPECT(vops_f16_to_f32(0x0001) == 0x1p-24f);
	EXPECT(vops_f16_to_f32(0x03ff) == 1023 * 0x1p-24f);
	EXPECT(vops_f16_to_f32(0x7bff) == 65504.0f);
	EXPECT(vops_f16_to_f32(0x7c00) == INFINITY);
	EXPECT(vops_f16_to_f32(0xfc00) == -INFINITY);
	EXPECT(isnan(vops_f16_to_f32(0x7e00)));
	EXPECT(isnan(vops_f16_to_f32(0x7c01)));
	EXPECT(signbit(vops_f16_to_f32(0x8000)) && vops_f16_to_f32(0x8000) == 0);
	/* every fp16 value round-trips */
	for (i = 0; i < 0x10000; i++) {
		float f = vops_f16_to_f32((u16)i);

		if (isnan(f)) {
			EXPECT((i & 0x7c00) == 0x7c00 && (i & 0x3ff));
			EXPECT((vops_f32_to_f16(f) & 0x7e00) == 0x7e00);
		} else {
			EXPECT_MSG(f == (float)ref_decode(i, F16), "0x%x", i);
			EXPECT(vops_f32_to_f16(f) == i);
		}
	}
	/* NaN payload top bits kept, made quiet */
	ck_assert_uint_eq(vops_f32_to_f16(f_bits(0x7f800001 | (0x155u << 13))), 0x7f55);
	ck_assert_uint_eq(vops_f32_to_f16(f_bits(0xffc00000)), 0xfe00);
	ck_assert_uint_eq(vops_f32_to_f16(f_bits(0x7f800001)), 0x7e00);
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
		EXPECT_MSG(vops_f32_to_bf16(f_bits(e[i].f)) == e[i].bits, "0x%x -> 0x%x", e[i].f,
			      vops_f32_to_bf16(f_bits(e[i].f)));
		/* cross-check the hand-written table with the reference rounding */
		ck_assert_uint_eq(ref_encode(f_bits(e[i].f), BF16), e[i].bits);
	}
	EXPECT((vops_f32_to_bf16(f_bits(0x7f800001)) & 0x7fc0) == 0x7fc0);
	EXPECT((vops_f32_to_bf16(f_bits(0xff812345)) & 0xffc0) == 0xffc0);
	for (i = 0; i < 0x10000; i++) {
		float f = vops_bf16_to_f32((u16)i);

		if (isnan(f))
			continue;
		EXPECT(f == (float)ref_decode(i, BF16));
		EXPECT(vops_f32_to_bf16(f) == i);
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
		struct prim a = mk(VNPU_OP_CAST, e[i].dt, 1, 0, 0);

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
	struct prim a = mk(VNPU_OP_CAST, I32, 4, 0, 0);

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
	struct prim a = mk(op, dt, rows, cols, 0);
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
	struct prim a = mk(VNPU_OP_REDUCE_SUM, F32, 1, n, 0);

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
			struct prim a = mk(VNPU_OP_REDUCE_MAX, dt, 3, cols[i], 0);

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
	struct prim a = mk(op, dt, rows, cols, inner);
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
	struct prim a = mk(VNPU_OP_REDUCE_SUM, F32, 1, cols, inner);

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
			struct prim a = mk(VNPU_OP_REDUCE_MAX, dt, 1, cols[i], inner);

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
	struct prim a = mk(VNPU_OP_SOFTMAX, dt, rows, cols, 0);
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
	struct prim a = mk(VNPU_OP_SOFTMAX, dt, rows, cols, inner);
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
	struct prim a = mk(VNPU_OP_SOFTMAX, F32, rows, cols, 0);

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
	struct prim a = mk(VNPU_OP_SOFTMAX, F32, rows, 2, 0);
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
	struct prim a = mk(VNPU_OP_MATMUL, dt, m, n, k);
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

/* Runs @a with a workspace of exactly the planned bytes plus a guard area. */
static u8 *run_with_guarded_ws(struct prim *a, u64 *ws_bytes)
{
	u8 *ws;
	u64 i;

	plan_ok(a);
	ws = xalloc(plan.ws_bytes + WS_PAD);
	memset(ws, WS_FILL, plan.ws_bytes + WS_PAD);
	ck_assert_int_eq(run_planned(a, ws, NULL), VOPS_RUN_OK);
	for (i = plan.ws_bytes; i < plan.ws_bytes + WS_PAD; i++)
		EXPECT_MSG(ws[i] == WS_FILL, "byte %llu past the workspace written",
			      (unsigned long long)i);
	*ws_bytes = plan.ws_bytes;
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
				struct prim a = mk(op, dt, rows, cols[i], 0);
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
				struct prim a = mk(op, dt, rows, cols, inner);
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
			struct prim a = mk(VNPU_OP_SOFTMAX, dt, rows, cols[i], 0);
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

/*
 * MatMul's workspace: none for fp32 (BLAS reads the operands as they are);
 * int32 repacks a transposed operand row-major (A, then B); fp16/bf16
 * widen A and B to fp32 in their stored order, then an fp32 output tile
 * (here the whole 5 x 6 output, unrounded).
 */
static void ws_matmul_case(u32 dt, bool ta, bool tb)
{
	u64 m = 5, n = 6, k = 7, i, j, l, wsb;
	bool lowp = dt == F16 || dt == BF16;
	void *A = rand_tensor(dt, m * k, -4, 4), *B = rand_tensor(dt, k * n, -4, 4);
	void *o = xalloc(m * n * 4);
	struct prim a = mk(VNPU_OP_MATMUL, dt, m, n, k);
	u64 want_ws = lowp ? m * k + k * n + m * n : dt == I32 ? (ta ? m * k : 0) + (tb ? k * n : 0) : 0;
	u32 *w;
	u8 *ws;

	a.flags = (ta ? VNPU_OP_F_TRANS_A : 0) | (tb ? VNPU_OP_F_TRANS_B : 0);
	a.in0 = A;
	a.in1 = B;
	a.out = o;
	ws = run_with_guarded_ws(&a, &wsb);
	ck_assert_uint_eq(wsb, want_ws * 4);
	w = (u32 *)ws;
	if (dt == I32) {
		/* A as row-major m x k, then B as k x n, each only if transposed */
		if (ta) {
			check_ws_matrix(w, A, dt, ta, m, k);
			w += m * k;
		}
		if (tb)
			check_ws_matrix(w, B, dt, tb, k, n);
	} else if (lowp) {
		/* A and B as fp32 in their stored order: element i is element i */
		for (i = 0; i < m * k; i++)
			EXPECT(f_bits(w[i]) == (float)get_val(A, dt, i));
		w += m * k;
		for (i = 0; i < k * n; i++)
			EXPECT(f_bits(w[i]) == (float)get_val(B, dt, i));
		w += k * n;
		/* the fp32 tile holds the output unrounded */
		for (i = 0; i < m; i++)
			for (j = 0; j < n; j++) {
				double s = 0;

				for (l = 0; l < k; l++)
					s += get_val(A, dt, ta ? l * m + i : i * k + l) *
					     get_val(B, dt, tb ? j * k + l : l * n + j);
				EXPECT_MSG(fabs(f_bits(w[i * n + j]) - s) <= 1e-5 * (1 + fabs(s)),
					   "tile[%llu,%llu] %.9g vs %.9g", (unsigned long long)i,
					   (unsigned long long)j, f_bits(w[i * n + j]), s);
			}
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
	struct prim a = mk(VNPU_OP_ABS, F32, 3, 0, 0);

	a.in0 = x;
	a.out = o;
	plan_ok(&a);
	ck_assert_uint_eq(plan.ws_bytes, 0);
	ck_assert_uint_eq(vops_plan_operands(&plan), 2);
	ck_assert_int_eq(run_planned(&a, NULL, NULL), VOPS_RUN_OK);
	EXPECT(o[2] == 3);
}
END_TEST

/* ---- pieces on several threads (struct vops_ctl's parallel) --------------- */

/*
 * Two hooks: one that runs the pieces backwards on the calling thread (so
 * any order dependence shows), one that shares them with three threads.
 * Both count their calls and pieces.
 */
struct par_state {
	atomic_uint calls, pieces;
	unsigned int last_count;
	bool threads;
	/* the threaded hook's current posting */
	void (*fn)(void *arg, unsigned int i);
	void *arg;
	unsigned int count;
	atomic_uint next;
};

static void *par_helper(void *p)
{
	struct par_state *st = p;
	unsigned int i;

	while ((i = atomic_fetch_add(&st->next, 1)) < st->count) {
		st->fn(st->arg, i);
		atomic_fetch_add(&st->pieces, 1);
	}
	return NULL;
}

static void par_hook(void *priv, unsigned int count, void (*fn)(void *arg, unsigned int i), void *arg)
{
	struct par_state *st = priv;
	pthread_t th[3];
	int t;

	atomic_fetch_add(&st->calls, 1);
	st->last_count = count;
	if (!st->threads) {
		for (unsigned int i = count; i-- > 0;) {
			fn(arg, i);
			atomic_fetch_add(&st->pieces, 1);
		}
		return;
	}
	st->fn = fn;
	st->arg = arg;
	st->count = count;
	atomic_store(&st->next, 0);
	for (t = 0; t < 3; t++)
		ck_assert_int_eq(pthread_create(&th[t], NULL, par_helper, st), 0);
	par_helper(st);
	for (t = 0; t < 3; t++)
		pthread_join(th[t], NULL);
}

/* Runs @a serially into @a->out, then with the hook into @out2: same bytes. */
static void par_compare(struct prim *a, void *out2, u64 out_bytes, bool threads, unsigned int want_calls)
{
	struct par_state st = { .threads = threads };
	struct vops_ctl ctl = { .priv = &st, .parallel = par_hook };
	void *out1 = a->out;

	ck_assert_int_eq(run(a), VOPS_RUN_OK);
	a->out = out2;
	ck_assert_int_eq(run_ctl(a, &ctl), VOPS_RUN_OK);
	a->out = out1;
	ck_assert_uint_eq(atomic_load(&st.calls), want_calls);
	if (want_calls)
		ck_assert_uint_eq(atomic_load(&st.pieces), st.last_count);
	ck_assert(!memcmp(out1, out2, out_bytes));
}

START_TEST(parallel_matmul_tiles)
{
	static const struct { u64 m, n, k; u32 flags; } sh[] = {
		{ 256, 256, 256, 0 },
		{ 300, 200, 150, REF_F_TRANS_A },
		{ 129, 515, 64, REF_F_TRANS_B },
		{ 64, 64, 4096, REF_F_TRANS_A | REF_F_TRANS_B },
	};

	for (unsigned int i = 0; i < sizeof(sh) / sizeof(sh[0]); i++) {
		u64 m = sh[i].m, n = sh[i].n, k = sh[i].k;
		struct prim a = mk(VNPU_OP_MATMUL, F32, m, n, k);
		float *x = rand_tensor(F32, m * k, -1, 1), *y = rand_tensor(F32, k * n, -1, 1);
		float *o1 = xalloc(m * n * 4), *o2 = xalloc(m * n * 4);

		a.flags = sh[i].flags;
		a.in0 = x;
		a.in1 = y;
		a.out = o1;
		par_compare(&a, o2, m * n * 4, _i, 1);
		free(x);
		free(y);
		free(o1);
		free(o2);
	}
}
END_TEST

START_TEST(parallel_eltwise_blocks)
{
	u64 n = (1u << 20) + 77;
	float *x = rand_tensor(F32, n, -4, 4), *y = rand_tensor(F32, n, -4, 4);
	float *o1 = xalloc(n * 4), *o2 = xalloc(n * 4), *c1, *c2;
	struct prim a = mk(VNPU_OP_ADD, F32, n, 0, 0);

	a.in0 = x;
	a.in1 = y;
	a.out = o1;
	par_compare(&a, o2, n * 4, _i, 1);
	/* a broadcast scalar */
	a = mk(VNPU_OP_MUL, F32, n, 0, 0);
	a.flags = REF_F_SCALAR_IN1;
	a.in0 = x;
	a.in1 = y;
	a.out = o1;
	par_compare(&a, o2, n * 4, _i, 1);
	/* in place: each piece reads what it writes, nothing else */
	c1 = xalloc(n * 4);
	c2 = xalloc(n * 4);
	memcpy(c1, x, n * 4);
	memcpy(c2, x, n * 4);
	a = mk(VNPU_OP_RELU, F32, n, 0, 0);
	a.in0 = c1;
	a.out = c1;
	ck_assert_int_eq(run(&a), VOPS_RUN_OK);
	{
		struct par_state st = { .threads = _i };
		struct vops_ctl ctl = { .priv = &st, .parallel = par_hook };

		a.in0 = c2;
		a.out = c2;
		ck_assert_int_eq(run_ctl(&a, &ctl), VOPS_RUN_OK);
		ck_assert_uint_eq(atomic_load(&st.calls), 1);
	}
	ck_assert(!memcmp(c1, c2, n * 4));
	free(c1);
	free(c2);
	free(x);
	free(y);
	free(o1);
	free(o2);
}
END_TEST

/* What must not be split: too little work, a narrowing CAST, fp16 tiles. */
START_TEST(parallel_only_where_independent)
{
	u64 n = 1u << 20;
	float *x = rand_tensor(F32, n, -4, 4), *y = rand_tensor(F32, n, -4, 4);
	void *o1 = xalloc(n * 4), *o2 = xalloc(n * 4);
	struct prim a;

	/* 3 pieces' worth: below VOPS_PARALLEL_MIN */
	a = mk(VNPU_OP_ADD, F32, 3 * 4 * 16384, 0, 0);
	a.in0 = x;
	a.in1 = y;
	a.out = o1;
	par_compare(&a, o2, 3 * 4 * 16384 * 4, true, 0);
	/* fp32 -> fp16 may run in place over its own input: in order only */
	a = mk(VNPU_OP_CAST, F32, n, 0, 0);
	a.out_dtype = F16;
	a.in0 = x;
	a.out = o1;
	par_compare(&a, o2, n * 2, true, 0);
	/* fp32 -> int32 keeps the element size: split */
	a.out_dtype = I32;
	par_compare(&a, o2, n * 4, true, 1);
	/* fp16 tiles share the fp32 tile in the workspace */
	{
		void *h = rand_tensor(F16, 256 * 256, -1, 1);

		a = mk(VNPU_OP_MATMUL, F16, 256, 256, 256);
		a.in0 = h;
		a.in1 = h;
		a.out = o1;
		par_compare(&a, o2, 256 * 256 * 2, true, 0);
		free(h);
	}
	free(x);
	free(y);
	free(o1);
	free(o2);
}
END_TEST

struct stop_par {
	struct par_state par;
	atomic_int asked;
	int stop_after;
};

static bool stop_par_cb(void *priv)
{
	struct stop_par *sp = priv;

	return atomic_fetch_add(&sp->asked, 1) + 1 >= sp->stop_after;
}

static void stop_par_hook(void *priv, unsigned int count, void (*fn)(void *arg, unsigned int i), void *arg)
{
	struct stop_par *sp = priv;

	par_hook(&sp->par, count, fn, arg);
}

/* Pieces ask should_stop too; once one says stop, the rest are skipped. */
START_TEST(parallel_cancel)
{
	u64 m = 512;
	float *x = rand_tensor(F32, m * m, -1, 1), *o = xalloc(m * m * 4);
	struct stop_par sp = { .par = { .threads = _i }, .stop_after = 3 };
	struct vops_ctl ctl = { .should_stop = stop_par_cb, .priv = &sp, .parallel = stop_par_hook };
	struct prim a = mk(VNPU_OP_MATMUL, F32, m, m, m);

	a.in0 = x;
	a.in1 = x;
	a.out = o;
	ck_assert_int_eq(run_ctl(&a, &ctl), VOPS_RUN_CANCELED);
	ck_assert_uint_eq(atomic_load(&sp.par.calls), 1);
	/* 64 tiles; stopped after a few of them asked */
	ck_assert_uint_lt(atomic_load(&sp.asked), sp.par.last_count);
	free(x);
	free(o);
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
	struct vops_ctl ctl = { .should_stop = stop_cb, .priv = &st };
	struct prim a = mk(VNPU_OP_ADD, F32, n, 0, 0);

	for (i = 0; i < n; i++)
		x[i] = (float)i;
	for (i = 0; i < n; i++)
		o[i] = -1;
	a.in0 = x;
	a.in1 = x;
	a.out = o;
	ck_assert_int_eq(run_ctl(&a, &ctl), VOPS_RUN_CANCELED);
	ck_assert_int_eq(st.calls, 2);
	EXPECT(o[0] == 0 && o[1] == 2);	/* the first chunk ran */
	EXPECT(o[n - 1] == -1);		/* the last did not */

	/* never stopping: asked between every two chunks, finishes */
	st.calls = 0;
	st.stop_at = -1;
	ck_assert_int_eq(run_ctl(&a, &ctl), VOPS_RUN_OK);
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
	struct vops_ctl ctl = { .should_stop = stop_cb, .priv = &st };
	struct prim a = mk(VNPU_OP_MATMUL, F32, m, m, m);

	for (i = 0; i < m * m; i++)
		x[i] = 1;
	for (i = 0; i < m * m; i++)
		o[i] = -1;
	a.flags = VNPU_OP_F_TRANS_A;
	a.in0 = x;
	a.in1 = x;
	a.out = o;
	ck_assert_int_eq(run_ctl(&a, &ctl), VOPS_RUN_CANCELED);
	ck_assert_int_eq(st.calls, 2);
	EXPECT(o[0] == (float)m);	/* the first tile of rows ran */
	EXPECT(o[m * m - 1] == -1);	/* the last did not */

	/* bf16: stopped while widening the operands, before any output */
	{
		u16 *h = xalloc(m * m * 2), *ho = xalloc(m * m * 2);

		for (i = 0; i < m * m; i++) {
			h[i] = 0x3f80;	/* 1.0 */
			ho[i] = 0xffff;
		}
		st.calls = 0;
		a = mk(VNPU_OP_MATMUL, BF16, m, m, m);
		a.in0 = h;
		a.in1 = h;
		a.out = ho;
		ck_assert_int_eq(run_ctl(&a, &ctl), VOPS_RUN_CANCELED);
		ck_assert_int_eq(st.calls, 2);
		for (i = 0; i < m * m; i++)
			EXPECT(ho[i] == 0xffff);
		st.stop_at = -1;
		ck_assert_int_eq(run_ctl(&a, &ctl), VOPS_RUN_OK);
		EXPECT(ho[0] == 0x4380 && ho[m * m - 1] == 0x4380);	/* 256 */
		st.stop_at = 2;
		free(h);
		free(ho);
	}

	/* a softmax over one long row stops between its segments */
	for (i = 0; i < m * m; i++)
		o[i] = -1;
	st.calls = 0;
	a = mk(VNPU_OP_SOFTMAX, F32, 1, m * m, 0);
	a.in0 = x;
	a.out = o;
	ck_assert_int_eq(run_ctl(&a, &ctl), VOPS_RUN_CANCELED);
	ck_assert_int_eq(st.calls, 2);
	EXPECT(o[0] == -1);	/* stopped before the normalising pass */

	/* ... and one along a long middle axis, between its column segments */
	st.calls = 0;
	a = mk(VNPU_OP_SOFTMAX, F32, 1, m * m / 4, 4);
	a.in0 = x;
	a.out = o;
	ck_assert_int_eq(run_ctl(&a, &ctl), VOPS_RUN_CANCELED);
	ck_assert_int_eq(plan.ws_bytes, 3 * 4 * 4);
	ck_assert_int_eq(st.calls, 2);
	EXPECT(o[0] == -1);
	/* ... and a reduction over axes that are not adjacent, between its steps */
	{
		struct vops_tensor t = TEN(ACL_FLOAT, 2, 16384, 2);	/* 6 chunks: 4, then 2 */
		struct vops_attr ax = AT_LIST("axes", 0, 2);
		struct vops_operand ops[3];
		void *ws;

		ck_assert_int_eq(vops_plan("ReduceSumD", 1, &t, 1, &ax, 1, &plan, &perr), VOPS_OK);
		ws = xalloc(plan.ws_bytes);
		ops[0] = (struct vops_operand){ x, plan.in_bytes[0], VNPU_OPERAND_READ };
		ops[1] = (struct vops_operand){ o, plan.out[0].bytes, VNPU_OPERAND_WRITE };
		ops[2] = (struct vops_operand){ ws, plan.ws_bytes, VNPU_OPERAND_WORKSPACE };
		for (i = 0; i < 3; i++) {
			st.calls = 0;
			st.stop_at = (int)i + 2;
			ck_assert_int_eq(vops_run(plan.desc, plan.desc_size, ops, 3, &ctl, why, sizeof(why)),
					 VOPS_RUN_CANCELED);
			ck_assert_int_eq(st.calls, (int)i + 2);
			EXPECT(o[0] == -1);	/* the last step never started */
		}
		st.stop_at = -1;
		ck_assert_int_eq(vops_run(plan.desc, plan.desc_size, ops, 3, &ctl, why, sizeof(why)), VOPS_RUN_OK);
		EXPECT(o[0] == 4 && o[16383] == 4);
		free(ws);
	}
	free(x);
	free(o);
}
END_TEST

/* ---- planning: sizes, alignments, in place --------------------------------- */

/* A valid example for each op: dims and out_dtype. */
static void valid_shape(u32 op, u64 d[3], u32 *odt)
{
	d[0] = 3;
	d[1] = op >= VNPU_OP_REDUCE_SUM ? 5 : 0;
	d[2] = op == VNPU_OP_MATMUL ? 7 : 0;
	*odt = op == VNPU_OP_CAST ? F16 : 0;
}

START_TEST(plan_valid_all_ops)
{
	u32 op, t, odt;
	u64 d[3];

	for (op = VNPU_OP_ADD; op <= VNPU_OP_MATMUL; op++)
		for (t = 0; t < 4; t++) {
			struct prim a;

			if (op == VNPU_OP_SOFTMAX && all_dtypes[t] == I32)
				continue;
			valid_shape(op, d, &odt);
			a = mk(op, all_dtypes[t], d[0], d[1], d[2]);
			a.out_dtype = odt;
			plan_ok(&a);
			ck_assert_int_eq(plan.nin, op <= VNPU_OP_DIV || op == VNPU_OP_MATMUL ? 2 : 1);
			ck_assert_int_eq(plan.nout, 1);
			ck_assert(!plan.empty);
			ck_assert_uint_gt(plan.desc_size, 16);
			ck_assert_uint_le(plan.desc_size, VOPS_MAX_DESC);
			ck_assert_uint_eq(plan.ws_align, 4);
			ck_assert_uint_eq(plan.in_align[0], esize(all_dtypes[t]));
			ck_assert_uint_eq(plan.out[0].align, esize(op == VNPU_OP_CAST ? odt : all_dtypes[t]));
			ck_assert_int_eq(plan.out[0].dtype, acl(op == VNPU_OP_CAST ? odt : all_dtypes[t]));
		}
}
END_TEST

/* The workspace formula and operand sizes, spelled out independently. */
static void sizes_formula_1d(u32 dt, u64 n)
{
	u64 es = esize(dt);
	struct prim a;
	u32 op, t;

	for (op = VNPU_OP_ADD; op <= VNPU_OP_DIV; op++) {
		a = mk(op, dt, n, 0, 0);
		plan_ok(&a);
		EXPECT(plan.in_bytes[0] == n * es && plan.in_bytes[1] == n * es &&
		       plan.out[0].bytes == n * es && plan.ws_bytes == 0 && plan.in_place == 3);
		a.flags = VNPU_OP_F_SCALAR_IN0;
		plan_ok(&a);
		EXPECT(plan.in_bytes[0] == es && plan.in_bytes[1] == n * es && plan.out[0].bytes == n * es);
		/* a broadcast scalar never starts at the output */
		EXPECT(n == 1 ? plan.in_place == 3 : plan.in_place == 2);
		a.flags = VNPU_OP_F_SCALAR_IN1;
		plan_ok(&a);
		EXPECT(plan.in_bytes[0] == n * es && plan.in_bytes[1] == es && plan.out[0].bytes == n * es);
		EXPECT(n == 1 ? plan.in_place == 3 : plan.in_place == 1);
	}
	for (op = VNPU_OP_RELU; op <= VNPU_OP_ABS; op++) {
		a = mk(op, dt, n, 0, 0);
		plan_ok(&a);
		EXPECT(plan.nin == 1 && plan.in_bytes[0] == n * es && plan.out[0].bytes == n * es &&
		       plan.ws_bytes == 0 && plan.in_place == 1);
	}
	for (t = 0; t < 4; t++) {
		u32 odt = all_dtypes[t];

		a = mk(VNPU_OP_CAST, dt, n, 0, 0);
		a.out_dtype = odt;
		plan_ok(&a);
		EXPECT(plan.in_bytes[0] == n * es && plan.out[0].bytes == n * esize(odt) &&
		       plan.ws_bytes == 0);
		/* in place only when the output is not wider */
		EXPECT(plan.in_place == (esize(odt) <= es ? 1u : 0u));
	}
}

static void sizes_formula_rows(u32 dt, u64 rows, u64 cols)
{
	u64 es = esize(dt);
	u32 op;

	for (op = VNPU_OP_REDUCE_SUM; op <= VNPU_OP_SOFTMAX; op++) {
		struct prim a = mk(op, dt, rows, cols, 0);

		if (op == VNPU_OP_SOFTMAX && dt == I32)
			continue;
		plan_ok(&a);
		EXPECT(plan.in_bytes[0] == rows * cols * es && plan.ws_bytes == cols * 4);
		EXPECT(plan.out[0].bytes == (op == VNPU_OP_SOFTMAX ? rows * cols : rows) * es);
		EXPECT(plan.in_place == 1);
	}
}

/*
 * MatMul: fp32 needs no workspace, int32 a repacked copy of a transposed
 * operand, fp16/bf16 both operands in fp32 plus an fp32 output tile of at
 * most 2^20 elements (a whole output this small).
 */
static void sizes_formula_matmul(u32 dt, u64 m, u64 n, u64 k)
{
	bool lowp = dt == F16 || dt == BF16;
	u64 es = esize(dt);
	u32 f;

	for (f = 0; f < 4; f++) {
		bool ta = f & 1, tb = f & 2;
		struct prim a = mk(VNPU_OP_MATMUL, dt, m, n, k);
		u64 ws = 0;

		a.flags = (ta ? VNPU_OP_F_TRANS_A : 0) | (tb ? VNPU_OP_F_TRANS_B : 0);
		if (dt == I32)
			ws = (ta ? 4 * m * k : 0) + (tb ? 4 * k * n : 0);
		plan_ok(&a);
		EXPECT(plan.in_bytes[0] == m * k * es && plan.in_bytes[1] == k * n * es &&
		       plan.out[0].bytes == m * n * es && plan.in_place == 0);
		if (lowp) {
			u64 tile = plan.ws_bytes - 4 * (m * k + k * n);

			EXPECT_MSG(plan.ws_bytes > 4 * (m * k + k * n) && tile % 4 == 0 &&
				   tile <= 4 * m * n && tile <= 4ull << 20,
				   "ws %llu for %llux%llux%llu", (unsigned long long)plan.ws_bytes,
				   (unsigned long long)m, (unsigned long long)n, (unsigned long long)k);
			if (m * n * k <= (1u << 20))
				EXPECT(tile == 4 * m * n);
		} else {
			EXPECT_MSG(plan.ws_bytes == ws, "ws %llu want %llu",
				   (unsigned long long)plan.ws_bytes, (unsigned long long)ws);
		}
	}
}

START_TEST(plan_sizes_formula)
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

/* dims[2] = inner of REDUCE_* and SOFTMAX: sizes, workspace, limits. */
START_TEST(plan_sizes_inner)
{
	static const u64 ws_words[] = { 2, 1, 3 };	/* SUM, MAX, SOFTMAX per inner */
	u64 big = 1ull << 31, rows = 3, cols = 5, inner = 7;
	struct prim a;
	u32 op, t;

	for (t = 0; t < 4; t++) {
		u32 dt = all_dtypes[t];
		u64 es = esize(dt);

		for (op = VNPU_OP_REDUCE_SUM; op <= VNPU_OP_SOFTMAX; op++) {
			if (op == VNPU_OP_SOFTMAX && dt == I32)
				continue;
			a = mk(op, dt, rows, cols, inner);
			plan_ok(&a);
			EXPECT(plan.in_bytes[0] == rows * cols * inner * es);
			EXPECT(plan.out[0].bytes ==
			       (op == VNPU_OP_SOFTMAX ? rows * cols * inner : rows * inner) * es);
			EXPECT(plan.ws_bytes == ws_words[op - VNPU_OP_REDUCE_SUM] * 4 * inner);
			/* a trailing axis of 1 is the plain row formula */
			a = mk(op, dt, rows, cols, 1);
			plan_ok(&a);
			EXPECT(plan.ws_bytes == cols * 4);
		}
	}
	/* the limits: one dim, the product of three (no wrap), the workspace */
	a = mk(VNPU_OP_REDUCE_SUM, F32, 1, 1, big);
	ck_assert_int_eq(plan_prim(&a), VOPS_OK);
	a = mk(VNPU_OP_REDUCE_SUM, F32, 1, 1, big + 1);
	ck_assert_int_eq(plan_prim(&a), VOPS_ERR_INPUT);
	a = mk(VNPU_OP_SOFTMAX, F16, 1, 1, 1ull << 62);
	ck_assert_int_eq(plan_prim(&a), VOPS_ERR_INPUT);
	a = mk(VNPU_OP_REDUCE_MAX, F32, big, big, big);
	ck_assert_int_eq(plan_prim(&a), VOPS_ERR_INPUT);
	a = mk(VNPU_OP_REDUCE_MAX, I32, 1ull << 10, 1ull << 10, 1ull << 19);
	ck_assert_int_eq(plan_prim(&a), VOPS_ERR_INPUT);
	a = mk(VNPU_OP_REDUCE_MAX, I32, 1ull << 10, 1ull << 10, 1ull << 18);
	ck_assert_int_eq(plan_prim(&a), VOPS_OK);
	a = mk(VNPU_OP_SOFTMAX, BF16, 1ull << 20, 1, 1ull << 20);
	ck_assert_int_eq(plan_prim(&a), VOPS_ERR_INPUT);
	/* 2^31 x 2^31 x 2^2 elements: each factor fits, the product wraps u64 */
	a = mk(VNPU_OP_REDUCE_SUM, F32, big, big, 4);
	ck_assert_int_eq(plan_prim(&a), VOPS_ERR_INPUT);
	ck_assert_ptr_nonnull(strstr(perr.msg, "too large"));
}
END_TEST

START_TEST(plan_dim_limit)
{
	u64 big = 1ull << 31;
	struct prim a;

	/* 2^31 is allowed, 2^31 + 1 is not, whatever the op */
	a = mk(VNPU_OP_ADD, F16, big, 0, 0);
	ck_assert_int_eq(plan_prim(&a), VOPS_OK);
	ck_assert_uint_eq(plan.out[0].bytes, big * 2);
	a = mk(VNPU_OP_ADD, F16, big + 1, 0, 0);
	ck_assert_int_eq(plan_prim(&a), VOPS_ERR_INPUT);
	a = mk(VNPU_OP_RELU, F16, (u64)INT64_MAX, 0, 0);
	ck_assert_int_eq(plan_prim(&a), VOPS_ERR_INPUT);
	a = mk(VNPU_OP_REDUCE_SUM, F32, 1, big + 1, 0);
	ck_assert_int_eq(plan_prim(&a), VOPS_ERR_INPUT);
	a = mk(VNPU_OP_MATMUL, F32, 1, 1, big + 1);
	ck_assert_int_eq(plan_prim(&a), VOPS_ERR_INPUT);
	a = mk(VNPU_OP_MATMUL, F32, 1, 1, big);
	ck_assert_int_eq(plan_prim(&a), VOPS_OK);
	a = mk(VNPU_OP_MATMUL, F32, 1ull << 62, 1, 1);
	ck_assert_int_eq(plan_prim(&a), VOPS_ERR_INPUT);
	ck_assert_ptr_nonnull(strstr(perr.msg, "MatMul"));
}
END_TEST

START_TEST(plan_overflow)
{
	u64 big = 1ull << 31;
	struct prim a;

	/* m * k * 4 = 2^64 would wrap */
	a = mk(VNPU_OP_MATMUL, F32, big, 1, big);
	ck_assert_int_eq(plan_prim(&a), VOPS_ERR_INPUT);
	a = mk(VNPU_OP_MATMUL, F32, 1, big, big);
	ck_assert_int_eq(plan_prim(&a), VOPS_ERR_INPUT);
	a = mk(VNPU_OP_MATMUL, F32, big, big, 1);
	ck_assert_int_eq(plan_prim(&a), VOPS_ERR_INPUT);
	/* byte sizes above 2^40 */
	a = mk(VNPU_OP_REDUCE_SUM, F32, 1ull << 20, 1ull << 19, 0);
	ck_assert_int_eq(plan_prim(&a), VOPS_ERR_INPUT);
	a = mk(VNPU_OP_REDUCE_SUM, F32, 1ull << 19, 1ull << 19, 0);
	ck_assert_int_eq(plan_prim(&a), VOPS_OK);
	a = mk(VNPU_OP_SOFTMAX, F16, 1ull << 20, 1ull << 20, 0);
	ck_assert_int_eq(plan_prim(&a), VOPS_ERR_INPUT);
	/* fp16 A is exactly 2^40 bytes, but its fp32 copy in the workspace is 2^41 */
	a = mk(VNPU_OP_MATMUL, F16, 1ull << 20, 1, 1ull << 19);
	ck_assert_int_eq(plan_prim(&a), VOPS_ERR_INPUT);
	a = mk(VNPU_OP_MATMUL, F32, 1ull << 19, 1, 1ull << 19);
	ck_assert_int_eq(plan_prim(&a), VOPS_OK);
	/* int32 workspace parts each fit, their sum does not */
	a = mk(VNPU_OP_MATMUL, I32, 1ull << 19, 1ull << 19, 1ull << 19);
	a.flags = VNPU_OP_F_TRANS_A | VNPU_OP_F_TRANS_B;
	ck_assert_int_eq(plan_prim(&a), VOPS_ERR_INPUT);
	a.flags = VNPU_OP_F_TRANS_A;
	ck_assert_int_eq(plan_prim(&a), VOPS_OK);
	/* element counts whose product wraps 64 bits */
	{
		struct vops_tensor x = TEN(ACL_FLOAT, 1ll << 40, 1ll << 40), y = TEN(ACL_FLOAT, 1);

		ck_assert_int_eq(vops_plan("Relu", 1, &x, 1, NULL, 0, &plan, &perr), VOPS_ERR_INPUT);
		ck_assert_int_eq(vops_plan("Add", 2, (struct vops_tensor[]){ x, y }, 1, NULL, 0, &plan,
					   &perr), VOPS_ERR_INPUT);
	}
}
END_TEST

/* Zero-size tensors: nothing to compute (libacl queues nothing), no workspace. */
START_TEST(plan_empty)
{
	struct vops_tensor x0 = TEN(ACL_FLOAT, 2, 0, 5), x = TEN(ACL_FLOAT, 2, 3, 5);
	struct vops_tensor m0 = TEN(ACL_FLOAT, 0, 4), m1 = TEN(ACL_FLOAT, 4, 3), k0 = TEN(ACL_FLOAT, 3, 0);
	struct vops_tensor k0b = TEN(ACL_FLOAT, 0, 2);
	struct vops_attr ax0 = AT_LIST("axes", 0), ax1 = AT_LIST("axes", 1), ax02 = AT_LIST("axes", 0, 2);
	u32 op;

	for (op = 0; op < 2; op++) {
		ck_assert_int_eq(vops_plan(op ? "Abs" : "Add", op ? 1 : 2,
					   (struct vops_tensor[]){ x0, x0 }, 1, NULL, 0, &plan, &perr), VOPS_OK);
		ck_assert(plan.empty);
		ck_assert_uint_eq(plan.out[0].bytes, 0);
	}
	/* a reduction over a kept empty axis: empty output */
	ck_assert_int_eq(vops_plan("ReduceSumD", 1, &x0, 1, &ax0, 1, &plan, &perr), VOPS_OK);
	ck_assert(plan.empty);
	ck_assert_uint_eq(plan.ws_bytes, 0);
	ck_assert_int_eq(vops_plan("ReduceMaxD", 1, &x0, 1, &ax02, 1, &plan, &perr), VOPS_OK);
	ck_assert(plan.empty);
	ck_assert_int_eq(plan.out[0].ndim, 1);
	ck_assert_int_eq(plan.out[0].dims[0], 0);
	/* reducing the empty axis itself: refused (no identity for max) */
	ck_assert_int_eq(vops_plan("ReduceSumD", 1, &x0, 1, &ax1, 1, &plan, &perr), VOPS_ERR_INPUT);
	ck_assert_ptr_nonnull(strstr(perr.msg, "empty axis"));
	ck_assert_int_eq(vops_plan("SoftmaxV2", 1, &x0, 1, &ax1, 1, &plan, &perr), VOPS_OK);
	ck_assert(plan.empty);
	ck_assert_int_eq(vops_plan("SoftmaxV2", 1, &x, 1, &ax1, 1, &plan, &perr), VOPS_OK);
	ck_assert(!plan.empty);
	/* MatMul: m = 0 is empty; k = 0 with a non-empty output is refused */
	ck_assert_int_eq(vops_plan("MatMul", 2, (struct vops_tensor[]){ m0, m1 }, 1, NULL, 0, &plan, &perr),
			 VOPS_OK);
	ck_assert(plan.empty);
	ck_assert_int_eq(plan.out[0].dims[0], 0);
	ck_assert_int_eq(plan.out[0].dims[1], 3);
	ck_assert_int_eq(vops_plan("MatMul", 2, (struct vops_tensor[]){ k0, k0b }, 1, NULL, 0, &plan, &perr),
			 VOPS_ERR_INPUT);
	ck_assert_ptr_nonnull(strstr(perr.msg, "inner dimension of 0"));
}
END_TEST

/* Output shapes: broadcasts, reductions (keep_dims), softmax, matmul, cast. */
START_TEST(plan_output_shapes)
{
	struct vops_tensor a = TEN(ACL_FLOAT, 2, 3), one = TEN(ACL_FLOAT, 1), s = SCALAR(ACL_FLOAT);
	struct vops_tensor ones = TEN(ACL_FLOAT, 1, 1, 1), v3 = TEN(ACL_FLOAT, 3), x = TEN(ACL_INT32, 2, 3, 4, 5);
	struct vops_attr at[2];

	ck_assert_int_eq(vops_plan("Mul", 2, (struct vops_tensor[]){ a, a }, 1, NULL, 0, &plan, &perr), VOPS_OK);
	ck_assert_int_eq(plan.out[0].ndim, 2);
	ck_assert_int_eq(plan.out[0].dims[1], 3);
	ck_assert_int_eq(vops_plan("Sub", 2, (struct vops_tensor[]){ a, one }, 1, NULL, 0, &plan, &perr),
			 VOPS_OK);
	ck_assert_int_eq(plan.out[0].ndim, 2);
	ck_assert_uint_eq(plan.in_bytes[1], 4);
	ck_assert_int_eq(vops_plan("RealDiv", 2, (struct vops_tensor[]){ s, a }, 1, NULL, 0, &plan, &perr),
			 VOPS_OK);
	ck_assert_int_eq(plan.out[0].ndim, 2);
	ck_assert_uint_eq(plan.in_place, 2);
	/* a single element of higher rank broadcasts to that rank */
	ck_assert_int_eq(vops_plan("Add", 2, (struct vops_tensor[]){ ones, v3 }, 1, NULL, 0, &plan, &perr),
			 VOPS_OK);
	ck_assert_int_eq(plan.out[0].ndim, 3);
	ck_assert_int_eq(plan.out[0].dims[0], 1);
	ck_assert_int_eq(plan.out[0].dims[2], 3);
	/* reductions */
	at[0] = AT_LIST("axes", 0, -1);
	ck_assert_int_eq(vops_plan("ReduceSumD", 1, &x, 1, at, 1, &plan, &perr), VOPS_OK);
	ck_assert_int_eq(plan.out[0].ndim, 2);
	ck_assert_int_eq(plan.out[0].dims[0], 3);
	ck_assert_int_eq(plan.out[0].dims[1], 4);
	ck_assert_int_eq(plan.out[0].dtype, ACL_INT32);
	at[1] = AT_BOOL("keep_dims", true);
	ck_assert_int_eq(vops_plan("ReduceMaxD", 1, &x, 1, at, 2, &plan, &perr), VOPS_OK);
	ck_assert_int_eq(plan.out[0].ndim, 4);
	ck_assert_int_eq(plan.out[0].dims[0], 1);
	ck_assert_int_eq(plan.out[0].dims[1], 3);
	ck_assert_int_eq(plan.out[0].dims[3], 1);
	at[1] = AT_INT("keep_dims", 0);
	ck_assert_int_eq(vops_plan("ReduceMaxD", 1, &x, 1, at, 2, &plan, &perr), VOPS_OK);
	ck_assert_int_eq(plan.out[0].ndim, 2);
	/* no axes: the identity */
	at[0] = AT_EMPTY_LIST("axes");
	ck_assert_int_eq(vops_plan("ReduceSumD", 1, &x, 1, at, 1, &plan, &perr), VOPS_OK);
	ck_assert_int_eq(plan.out[0].ndim, 4);
	ck_assert_uint_eq(plan.out[0].bytes, 4 * 120);
	/* all axes: a scalar, or all ones with keep_dims */
	at[0] = AT_LIST("axes", 3, 1, 0, 2);
	ck_assert_int_eq(vops_plan("ReduceSumD", 1, &x, 1, at, 1, &plan, &perr), VOPS_OK);
	ck_assert_int_eq(plan.out[0].ndim, 0);
	ck_assert_uint_eq(plan.out[0].bytes, 4);
	/* an int axes attribute is one axis */
	at[0] = AT_INT("axes", -2);
	ck_assert_int_eq(vops_plan("ReduceSumD", 1, &x, 1, at, 1, &plan, &perr), VOPS_OK);
	ck_assert_int_eq(plan.out[0].ndim, 3);
	ck_assert_int_eq(plan.out[0].dims[2], 5);
	/* softmax keeps the shape; its default axis is the last */
	ck_assert_int_eq(vops_plan("SoftmaxV2", 1, (struct vops_tensor[]){ TEN(ACL_BF16, 4, 9) }, 1, NULL, 0,
				   &plan, &perr), VOPS_OK);
	ck_assert_int_eq(plan.out[0].ndim, 2);
	ck_assert_uint_eq(plan.ws_bytes, 36);
	ck_assert_uint_eq(plan.out[0].bytes, 72);
	at[0] = AT_LIST("axes", 0);
	ck_assert_int_eq(vops_plan("SoftmaxV2", 1, (struct vops_tensor[]){ TEN(ACL_BF16, 4, 9) }, 1, at, 1,
				   &plan, &perr), VOPS_OK);
	ck_assert_uint_eq(plan.ws_bytes, 12 * 9);
	/* matmul with transposes */
	at[0] = AT_BOOL("transpose_x1", true);
	at[1] = AT_INT("transpose_x2", 1);
	ck_assert_int_eq(vops_plan("MatMul", 2, (struct vops_tensor[]){ TEN(ACL_FLOAT, 4, 3),
								   TEN(ACL_FLOAT, 5, 4) }, 1, at, 2,
				   &plan, &perr), VOPS_OK);
	ck_assert_int_eq(plan.out[0].dims[0], 3);
	ck_assert_int_eq(plan.out[0].dims[1], 5);
	ck_assert_uint_eq(plan.ws_bytes, 0);	/* fp32: BLAS transposes itself */
	/* cast: the output type, by data type or int */
	at[0] = AT_INT("dst_type", ACL_BF16);
	at[1] = AT_BOOL("truncate", true);
	ck_assert_int_eq(vops_plan("Cast", 1, &a, 1, at, 2, &plan, &perr), VOPS_OK);
	ck_assert_int_eq(plan.out[0].dtype, ACL_BF16);
	ck_assert_uint_eq(plan.out[0].bytes, 12);
	ck_assert_uint_eq(plan.out[0].align, 2);
}
END_TEST

/* ---- planning: every error class of every operator -------------------------- */

/* A valid call of each operator, to break one way at a time. */
struct good_call {
	const char *type;
	int nin;
	struct vops_tensor in[2];
	struct vops_attr at[2];
	unsigned int nat;
};

static void good_call(const char *type, struct good_call *g)
{
	static const int64_t d23[] = { 2, 3 }, d32[] = { 3, 2 };

	memset(g, 0, sizeof(*g));
	g->type = type;
	g->nin = 1;
	g->in[0] = (struct vops_tensor){ .dtype = ACL_FLOAT, .ndim = 2, .dims = d23 };
	g->in[1] = g->in[0];
	if (!strcmp(type, "Add") || !strcmp(type, "Sub") || !strcmp(type, "Mul") || !strcmp(type, "RealDiv"))
		g->nin = 2;
	if (!strcmp(type, "MatMul")) {
		g->nin = 2;
		g->in[1].dims = d32;
	}
	if (!strcmp(type, "Cast"))
		g->at[g->nat++] = AT_DT("dst_type", ACL_FLOAT16);
	if (!strncmp(type, "Reduce", 6))
		g->at[g->nat++] = AT_LIST("axes", 1);
}

static enum vops_err plan_good(const struct good_call *g)
{
	return vops_plan(g->type, g->nin, g->in, 1, g->at, g->nat, &plan, &perr);
}

static const char *const op_names[] = {
	"Add", "Sub", "Mul", "RealDiv", "Relu", "Abs", "Cast", "ReduceSumD", "ReduceMaxD", "SoftmaxV2", "MatMul",
};

#define N_OPS (sizeof(op_names) / sizeof(op_names[0]))

/* @got must be @want, with a message that names the operator. */
static void expect_err(enum vops_err got, enum vops_err want, const char *op, const char *what)
{
	EXPECT_MSG(got == want, "%s, %s: error %d, want %d (%s)", op, what, got, want, perr.msg);
	EXPECT_MSG(perr.code == want, "%s, %s: err.code %d", op, what, perr.code);
	if (want != VOPS_OK)
		EXPECT_MSG(strstr(perr.msg, op), "%s, %s: message \"%s\" does not name it", op, what,
			   perr.msg);
}

START_TEST(plan_not_found)
{
	static const char *const bad[] = { "NoSuchOp", "add", "", "Add ", "MatMulV9", "ReduceSumX" };
	struct vops_tensor x = TEN(ACL_FLOAT, 2);
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(vops_plan(bad[i], 1, &x, 1, NULL, 0, &plan, &perr), VOPS_ERR_NOT_FOUND);
		ck_assert_int_eq(perr.code, VOPS_ERR_NOT_FOUND);
		/* the message says where the list is */
		ck_assert_ptr_nonnull(strstr(perr.msg, "docs/ops.md"));
	}
	ck_assert_int_eq(vops_plan(NULL, 1, &x, 1, NULL, 0, &plan, &perr), VOPS_ERR_NOT_FOUND);
	/* err may be NULL */
	ck_assert_int_eq(vops_plan("NoSuchOperator", 1, &x, 1, NULL, 0, &plan, NULL), VOPS_ERR_NOT_FOUND);
	/* vops_op_name() lists the operators vops_plan() knows, version 1's first */
	for (i = 0; i < N_OPS; i++)
		ck_assert_str_eq(vops_op_name(i), op_names[i]);
	for (i = 0; vops_op_name(i); i++) {
		ck_assert_int_ne(vops_plan(vops_op_name(i), 0, &x, 0, NULL, 0, &plan, &perr),
				 VOPS_ERR_NOT_FOUND);
	}
}
END_TEST

START_TEST(plan_bad_counts)
{
	const char *op = op_names[_i];
	struct vops_tensor three[3];
	struct good_call g;

	good_call(op, &g);
	expect_err(plan_good(&g), VOPS_OK, op, "valid");
	three[0] = three[1] = three[2] = g.in[0];
	/* inputs: one fewer, one more, none, negative */
	expect_err(vops_plan(op, g.nin - 1, three, 1, g.at, g.nat, &plan, &perr), VOPS_ERR_INPUT, op,
		   "one input too few");
	expect_err(vops_plan(op, g.nin + 1, three, 1, g.at, g.nat, &plan, &perr), VOPS_ERR_INPUT, op,
		   "one input too many");
	expect_err(vops_plan(op, -1, three, 1, g.at, g.nat, &plan, &perr), VOPS_ERR_INPUT, op, "-1 inputs");
	expect_err(vops_plan(op, g.nin, NULL, 1, g.at, g.nat, &plan, &perr), VOPS_ERR_INPUT, op, "NULL inputs");
	/* outputs: none, two */
	expect_err(vops_plan(op, g.nin, g.in, 0, g.at, g.nat, &plan, &perr), VOPS_ERR_OUTPUT, op, "0 outputs");
	expect_err(vops_plan(op, g.nin, g.in, 2, g.at, g.nat, &plan, &perr), VOPS_ERR_OUTPUT, op, "2 outputs");
	expect_err(vops_plan(op, g.nin, g.in, -1, g.at, g.nat, &plan, &perr), VOPS_ERR_OUTPUT, op,
		   "-1 outputs");
	if (!strcmp(op, "MatMul")) {
		vops_plan(op, 3, three, 1, g.at, g.nat, &plan, &perr);
		ck_assert_ptr_nonnull(strstr(perr.msg, "bias"));
	}
}
END_TEST

START_TEST(plan_bad_dtype)
{
	static const int32_t bad[] = { ACL_DT_UNDEFINED, ACL_COMPLEX64, ACL_STRING, 2000, -7, ACL_DOUBLE,
				       ACL_INT8, ACL_INT64, ACL_UINT32, ACL_BOOL };
	const char *op = op_names[_i];
	struct good_call g;
	size_t i, n = sizeof(bad) / sizeof(bad[0]);

	/*
	 * The element-wise operators take every real, integer (and Cast bool)
	 * type; ReduceSumD every real and integer one, ReduceMaxD bool too,
	 * SoftmaxV2 every real one; MatMul none of the last five.
	 */
	if (!strcmp(op, "Add") || !strcmp(op, "Sub") || !strcmp(op, "Mul") || !strcmp(op, "RealDiv") ||
	    !strcmp(op, "Relu") || !strcmp(op, "Abs") || !strcmp(op, "Cast"))
		n = 5;
	for (i = 0; i < n; i++) {
		bool takes = false;

		if (i >= 5 && !strcmp(op, "ReduceSumD"))
			takes = bad[i] != ACL_BOOL;
		else if (i >= 5 && !strcmp(op, "ReduceMaxD"))
			takes = true;
		else if (i >= 5 && !strcmp(op, "SoftmaxV2"))
			takes = bad[i] == ACL_DOUBLE;
		good_call(op, &g);
		g.in[0].dtype = g.in[1].dtype = bad[i];
		expect_err(plan_good(&g), takes ? VOPS_OK : VOPS_ERR_DTYPE, op,
			   takes ? "a type it takes" : "bad input type");
	}
	/* the first input's type decides; disagreeing inputs are an input error */
	good_call(op, &g);
	if (g.nin == 2) {
		g.in[1].dtype = ACL_FLOAT16;
		expect_err(plan_good(&g), VOPS_ERR_INPUT, op, "mixed types");
		ck_assert_ptr_nonnull(strstr(perr.msg, "different types"));
		g.in[1].dtype = ACL_DOUBLE;
		expect_err(plan_good(&g), VOPS_ERR_INPUT, op, "second input double");
	}
	/* int32 everywhere but SoftmaxV2 */
	good_call(op, &g);
	g.in[0].dtype = g.in[1].dtype = ACL_INT32;
	expect_err(plan_good(&g), strcmp(op, "SoftmaxV2") ? VOPS_OK : VOPS_ERR_DTYPE, op, "int32");
	if (!strcmp(op, "SoftmaxV2"))
		ck_assert_ptr_null(strstr(perr.msg, "(vnpu: ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32)"));
	/* a Cast to a type vnpu does not compute */
	if (!strcmp(op, "Cast")) {
		good_call(op, &g);
		g.at[0] = AT_DT("dst_type", ACL_COMPLEX64);
		expect_err(plan_good(&g), VOPS_ERR_DTYPE, op, "dst_type complex64");
		g.at[0] = AT_INT("dst_type", 2000);
		expect_err(plan_good(&g), VOPS_ERR_DTYPE, op, "dst_type 2000");
	}
}
END_TEST

START_TEST(plan_bad_attrs)
{
	const char *op = op_names[_i];
	struct good_call g;

	/* an attribute the operator does not take, by name */
	good_call(op, &g);
	g.at[g.nat++] = AT_BOOL("bogus", true);
	expect_err(plan_good(&g), VOPS_ERR_ATTR, op, "unknown attribute");
	ck_assert_ptr_nonnull(strstr(perr.msg, "bogus"));
	good_call(op, &g);
	g.at[g.nat++] = AT_BOOL("keepdims", true);	/* close, but not CANN's name */
	expect_err(plan_good(&g), VOPS_ERR_ATTR, op, "keepdims");
	good_call(op, &g);
	g.at[g.nat++] = (struct vops_attr){ .name = NULL, .kind = VOPS_ATTR_BOOL };
	expect_err(plan_good(&g), VOPS_ERR_ATTR, op, "nameless attribute");
	good_call(op, &g);
	expect_err(vops_plan(op, g.nin, g.in, 1, NULL, 1, &plan, &perr), VOPS_ERR_ATTR, op, "NULL attrs");

	/* each operator's own attributes, wrong */
	good_call(op, &g);
	if (!strcmp(op, "Cast")) {
		g.nat = 0;
		expect_err(plan_good(&g), VOPS_ERR_ATTR, op, "no dst_type");
		g.at[0] = AT_FLOAT("dst_type", 1.0f);
		g.nat = 1;
		expect_err(plan_good(&g), VOPS_ERR_ATTR, op, "float dst_type");
		g.at[0] = AT_INT("dst_type", 1ll << 40);
		expect_err(plan_good(&g), VOPS_ERR_ATTR, op, "huge dst_type");
		g.at[0] = AT_DT("dst_type", ACL_INT32);
		g.at[1] = AT_INT("truncate", 2);
		g.nat = 2;
		expect_err(plan_good(&g), VOPS_ERR_ATTR, op, "truncate 2");
	} else if (!strncmp(op, "Reduce", 6) || !strcmp(op, "SoftmaxV2")) {
		bool softmax = !strcmp(op, "SoftmaxV2");
		static const int64_t out_of_range[] = { 2, -3, 1ll << 40 };
		size_t i;

		g.nat = 1;
		for (i = 0; i < 3; i++) {
			g.at[0] = (struct vops_attr){ .name = (char *)"axes", .kind = VOPS_ATTR_LIST_INT,
						      .li = { 1, (int64_t *)&out_of_range[i] } };
			expect_err(plan_good(&g), VOPS_ERR_ATTR, op, "axis out of range");
		}
		g.at[0] = AT_LIST("axes", 1, -1);
		expect_err(plan_good(&g), VOPS_ERR_ATTR, op, "axis twice");
		ck_assert_ptr_nonnull(strstr(perr.msg, "twice"));
		g.at[0] = AT_FLOAT("axes", 1.0f);
		expect_err(plan_good(&g), VOPS_ERR_ATTR, op, "float axes");
		g.at[0] = (struct vops_attr){ .name = (char *)"axes", .kind = VOPS_ATTR_LIST_INT,
					      .li = { 2, NULL } };
		expect_err(plan_good(&g), VOPS_ERR_ATTR, op, "axes without values");
		g.at[0] = AT_LIST("axes", 1);
		g.at[1] = softmax ? AT_BOOL("half_to_float", true) : AT_FLOAT("keep_dims", 1.0f);
		g.nat = 2;
		expect_err(plan_good(&g), VOPS_ERR_ATTR, op, softmax ? "half_to_float" : "float keep_dims");
		if (softmax) {
			g.at[1] = AT_BOOL("half_to_float", false);
			expect_err(plan_good(&g), VOPS_OK, op, "half_to_float false");
			g.at[0] = AT_EMPTY_LIST("axes");
			g.nat = 1;
			expect_err(plan_good(&g), VOPS_ERR_ATTR, op, "no axis");
			/* a scalar has no axis, not even the default one */
			g.in[0] = SCALAR(ACL_FLOAT);
			g.nat = 0;
			expect_err(plan_good(&g), VOPS_ERR_ATTR, op, "scalar");
			g.in[0] = TEN(ACL_FLOAT, 2, 3, 4);
			g.at[0] = AT_LIST("axes", 0, 2);
			g.nat = 1;
			expect_err(plan_good(&g), VOPS_ERR_ATTR, op, "not adjacent");
			ck_assert_ptr_nonnull(strstr(perr.msg, "adjacent"));
		} else {
			g.nat = 0;
			expect_err(plan_good(&g), VOPS_ERR_ATTR, op, "no axes");
		}
	} else if (!strcmp(op, "MatMul")) {
		g.at[0] = AT_INT("transpose_x1", 2);
		g.nat = 1;
		expect_err(plan_good(&g), VOPS_ERR_ATTR, op, "transpose_x1 2");
		g.at[0] = AT_FLOAT("transpose_x2", 0.0f);
		expect_err(plan_good(&g), VOPS_ERR_ATTR, op, "float transpose_x2");
		g.at[0] = AT_INT("offset_x", 1);
		expect_err(plan_good(&g), VOPS_ERR_ATTR, op, "offset_x 1");
		g.at[0] = AT_BOOL("offset_x", false);
		expect_err(plan_good(&g), VOPS_ERR_ATTR, op, "bool offset_x");
		g.at[0] = AT_INT("offset_x", 0);
		expect_err(plan_good(&g), VOPS_OK, op, "offset_x 0");
	} else {
		/* attributes of other operators are unknown here */
		g.at[0] = AT_LIST("axes", 0);
		g.nat = 1;
		expect_err(plan_good(&g), VOPS_ERR_ATTR, op, "axes");
		ck_assert_ptr_nonnull(strstr(perr.msg, "none"));
	}
}
END_TEST

START_TEST(plan_bad_shapes)
{
	const char *op = op_names[_i];
	struct good_call g;

	/* a rank beyond 128, a negative (unknown) dimension */
	good_call(op, &g);
	g.in[0].ndim = VOPS_MAX_RANK + 1;
	expect_err(plan_good(&g), VOPS_ERR_INPUT, op, "rank 129");
	good_call(op, &g);
	g.in[0].ndim = -1;
	expect_err(plan_good(&g), VOPS_ERR_INPUT, op, "rank -1");
	good_call(op, &g);
	g.in[0] = TEN(ACL_FLOAT, 2, -1);
	expect_err(plan_good(&g), VOPS_ERR_INPUT, op, "dimension -1");
	good_call(op, &g);
	g.in[g.nin - 1] = TEN(ACL_FLOAT, -2);
	expect_err(plan_good(&g), VOPS_ERR_INPUT, op, "dimension -2");

	good_call(op, &g);
	if (g.nin == 2 && strcmp(op, "MatMul")) {
		/* numpy broadcasting */
		g.in[1] = TEN(ACL_FLOAT, 2);
		expect_err(plan_good(&g), VOPS_ERR_INPUT, op, "shapes differ");
		ck_assert_ptr_nonnull(strstr(perr.msg, "[2, 3]"));
		g.in[1] = TEN(ACL_FLOAT, 3, 2);
		expect_err(plan_good(&g), VOPS_ERR_INPUT, op, "shapes transposed");
		g.in[1] = TEN(ACL_FLOAT, 1, 3);
		expect_err(plan_good(&g), VOPS_OK, op, "numpy broadcast");
		g.in[1] = TEN(ACL_FLOAT, 4, 1, 1);
		expect_err(plan_good(&g), VOPS_OK, op, "numpy broadcast to a larger rank");
		g.in[1] = TEN(ACL_FLOAT, 1, 1, 1, 1);
		expect_err(plan_good(&g), VOPS_OK, op, "single element");
	}
	if (!strcmp(op, "MatMul")) {
		g.in[1] = TEN(ACL_FLOAT, 2, 3);
		expect_err(plan_good(&g), VOPS_ERR_INPUT, op, "inner dimensions disagree");
		ck_assert_ptr_nonnull(strstr(perr.msg, "inner dimension"));
		g.at[0] = AT_BOOL("transpose_x2", true);
		g.nat = 1;
		expect_err(plan_good(&g), VOPS_OK, op, "x2 transposed");
		g.in[1] = TEN(ACL_FLOAT, 1, 2, 3);
		expect_err(plan_good(&g), VOPS_ERR_INPUT, op, "3-D input");
		ck_assert_ptr_nonnull(strstr(perr.msg, "2-D"));
		g.in[0] = TEN(ACL_FLOAT, 6);
		expect_err(plan_good(&g), VOPS_ERR_INPUT, op, "1-D input");
	}
	if (!strncmp(op, "Reduce", 6)) {
		g.in[0] = TEN(ACL_FLOAT, 2, 0);
		expect_err(plan_good(&g), VOPS_ERR_INPUT, op, "empty axis");
	}
}
END_TEST

/* ---- the descriptor ----------------------------------------------------------------- */

static u32 le32(const u8 *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (u32)p[3] << 24;
}

static void put_le32(u8 *p, u32 v)
{
	p[0] = (u8)v;
	p[1] = (u8)(v >> 8);
	p[2] = (u8)(v >> 16);
	p[3] = (u8)(v >> 24);
}

/* The documented layout (docs/ops.md): header, records, attributes. */
START_TEST(desc_format)
{
	struct vops_tensor v = TEN(ACL_FLOAT, 1000), x3 = TEN(ACL_FLOAT16, 2, 3, 4);
	struct vops_tensor mm[2] = { TEN(ACL_FLOAT, 3, 4), TEN(ACL_FLOAT, 5, 4) };
	struct vops_attr at[2];
	const u8 *d = plan.desc;

	ck_assert_int_eq(vops_plan("Add", 2, (struct vops_tensor[]){ v, v }, 1, NULL, 0, &plan, &perr), VOPS_OK);
	ck_assert_uint_eq(plan.desc_size, 16 + 2 * (8 + 8));
	ck_assert(!memcmp(d, "vOPS", 4));
	ck_assert_uint_eq(d[4] | d[5] << 8, 1);			/* version */
	ck_assert_uint_eq(d[6] | d[7] << 8, 1);			/* Add */
	ck_assert_uint_eq(le32(d + 8), plan.desc_size);
	ck_assert_uint_eq(d[12], 2);				/* nin */
	ck_assert_uint_eq(d[13], 1);				/* nout */
	ck_assert_uint_eq(d[14] | d[15] << 8, 0);		/* no attributes */
	ck_assert_uint_eq(d[16] | d[17] << 8, ACL_FLOAT);
	ck_assert_uint_eq(d[18], 1);				/* rank */
	ck_assert_uint_eq(d[19], 0);				/* layout */
	ck_assert_uint_eq(le32(d + 20), 16);			/* record bytes */
	ck_assert_uint_eq(le32(d + 24), 1000);
	ck_assert_uint_eq(le32(d + 28), 0);

	ck_assert_int_eq(vops_plan("Relu", 1, &v, 1, NULL, 0, &plan, &perr), VOPS_OK);
	ck_assert_uint_eq(plan.desc_size, 32);
	ck_assert_uint_eq(d[6], 5);

	at[0] = AT_INT("dst_type", ACL_INT32);
	ck_assert_int_eq(vops_plan("Cast", 1, &v, 1, at, 1, &plan, &perr), VOPS_OK);
	ck_assert_uint_eq(plan.desc_size, 40);
	ck_assert_uint_eq(d[14], 8);
	ck_assert_uint_eq(le32(d + 32), ACL_INT32);

	at[0] = AT_LIST("axes", 0, 2);
	at[1] = AT_BOOL("keep_dims", true);
	ck_assert_int_eq(vops_plan("ReduceSumD", 1, &x3, 1, at, 2, &plan, &perr), VOPS_OK);
	ck_assert_uint_eq(plan.desc_size, 16 + 8 + 24 + 16);	/* one descriptor, not a chain */
	ck_assert_uint_eq(d[6], 8);
	ck_assert_uint_eq(le32(d + 48), 1);			/* keep_dims */
	ck_assert_uint_eq(le32(d + 56), 5);			/* axes 0 and 2 */

	at[0] = AT_BOOL("transpose_x2", true);
	ck_assert_int_eq(vops_plan("MatMul", 2, mm, 1, at, 1, &plan, &perr), VOPS_OK);
	ck_assert_uint_eq(plan.desc_size, 16 + 2 * 24 + 8);
	ck_assert_uint_eq(d[6], 11);
	ck_assert_uint_eq(le32(d + 64), 2);			/* transpose_x2 */

	/* a rank-128 tensor: two words of axes */
	{
		int64_t dims[VOPS_MAX_RANK];
		struct vops_tensor big = { .dtype = ACL_FLOAT, .ndim = VOPS_MAX_RANK, .dims = dims };
		int i;

		for (i = 0; i < VOPS_MAX_RANK; i++)
			dims[i] = 1;
		at[0] = AT_LIST("axes", 127, 0);
		ck_assert_int_eq(vops_plan("ReduceMaxD", 1, &big, 1, at, 1, &plan, &perr), VOPS_OK);
		ck_assert_uint_eq(plan.desc_size, 16 + 8 + 8 * 128 + 8 + 16);
		ck_assert_int_eq(plan.out[0].ndim, 126);
	}
}
END_TEST

/* Plans Relu on [4] fp32 into the global plan; operands x (in) and o (out). */
static void relu4(float *x, float *o, struct vops_operand ops[2])
{
	struct vops_tensor t = TEN(ACL_FLOAT, 4);

	ck_assert_int_eq(vops_plan("Relu", 1, &t, 1, NULL, 0, &plan, &perr), VOPS_OK);
	ops[0] = (struct vops_operand){ x, 16, VNPU_OPERAND_READ };
	ops[1] = (struct vops_operand){ o, 16, VNPU_OPERAND_WRITE };
}

/* @desc (@size bytes) must fault without touching @o (16 bytes of 0x5a). */
static void expect_fault(const void *desc, size_t size, struct vops_operand *ops, unsigned int n, float *o,
			 const char *what)
{
	enum vops_run_status st;
	unsigned int i;

	memset(o, 0x5a, 16);
	why[0] = '\0';
	st = vops_run(desc, size, ops, n, NULL, why, sizeof(why));
	EXPECT_MSG(st == VOPS_RUN_FAULT, "%s: status %d, want FAULT", what, st);
	EXPECT_MSG(why[0], "%s: FAULT without a reason", what);
	for (i = 0; i < 16; i++)
		EXPECT_MSG(((u8 *)o)[i] == 0x5a, "%s: output written", what);
}

START_TEST(desc_truncated_oversized)
{
	float x[4] = { -1, 2, -3, 4 }, o[4];
	struct vops_operand ops[2];
	u8 buf[64];
	size_t len;

	relu4(x, o, ops);
	memcpy(buf, plan.desc, plan.desc_size);
	/* the descriptor itself runs */
	ck_assert_int_eq(vops_run(buf, plan.desc_size, ops, 2, NULL, why, sizeof(why)), VOPS_RUN_OK);
	ck_assert(o[0] == 0 && o[3] == 4);
	/* at any address: the descriptor has no alignment */
	{
		u8 odd[80];

		memcpy(odd + 1, plan.desc, plan.desc_size);
		ck_assert_int_eq(vops_run(odd + 1, plan.desc_size, ops, 2, NULL, why, sizeof(why)),
				 VOPS_RUN_OK);
	}
	/* every shorter prefix faults, as does a longer buffer */
	for (len = 0; len < plan.desc_size; len++)
		expect_fault(buf, len, ops, 2, o, "truncated");
	buf[plan.desc_size] = 0;
	expect_fault(buf, plan.desc_size + 1, ops, 2, o, "one byte more");
	/* the header's size agrees with the longer buffer: trailing garbage */
	put_le32(buf + 8, plan.desc_size + 1);
	expect_fault(buf, plan.desc_size + 1, ops, 2, o, "trailing byte");
	/* larger than any descriptor lib/ops makes */
	{
		u8 *big = xalloc(VOPS_MAX_DESC + 8);

		memset(big, 0, VOPS_MAX_DESC + 8);
		memcpy(big, plan.desc, plan.desc_size);
		put_le32(big + 8, VOPS_MAX_DESC + 8);
		expect_fault(big, VOPS_MAX_DESC + 8, ops, 2, o, "oversized");
		free(big);
	}
	expect_fault(NULL, 0, ops, 2, o, "NULL descriptor");
	expect_fault(NULL, 32, ops, 2, o, "NULL descriptor with a size");
	/* why may be NULL or empty */
	ck_assert_int_eq(vops_run(buf, 3, ops, 2, NULL, NULL, 0), VOPS_RUN_FAULT);
	ck_assert_int_eq(vops_run(buf, 3, ops, 2, NULL, why, 0), VOPS_RUN_FAULT);
}
END_TEST

/* One field of a valid descriptor changed at a time: each faults. */
START_TEST(desc_bad_fields)
{
	float x[4] = { 1, 2, 3, 4 }, o[4];
	struct vops_operand ops[2];
	struct {
		unsigned int at, width;
		u64 value;
		const char *what;
	} const relu_bad[] = {
		{ 0, 1, 'w', "magic" }, { 3, 1, 0, "magic" }, { 4, 2, 0, "version 0" },
		{ 4, 2, 2, "version 2" }, { 6, 2, 0, "op 0" }, { 6, 2, 12, "op 12" },
		{ 6, 2, 0xffff, "op 65535" }, { 6, 2, 1, "op Add (two inputs)" },
		{ 6, 2, 7, "op Cast (attributes)" }, { 8, 4, 31, "size 31" }, { 8, 4, 33, "size 33" },
		{ 12, 1, 0, "nin 0" }, { 12, 1, 2, "nin 2" }, { 12, 1, 255, "nin 255" }, { 13, 1, 0, "nout 0" },
		{ 13, 1, 2, "nout 2" }, { 14, 2, 8, "attr_size 8" }, { 14, 2, 0xfff0, "attr_size huge" },
		{ 16, 2, ACL_DOUBLE, "dtype double" }, { 16, 2, 0xffff, "dtype -1" },
		{ 16, 2, ACL_COMPLEX64, "dtype complex64" }, { 18, 1, 0, "rank 0 (size disagrees)" },
		{ 18, 1, 2, "rank 2" }, { 18, 1, 129, "rank 129" }, { 18, 1, 255, "rank 255" },
		{ 19, 1, 1, "layout 1" }, { 20, 4, 8, "record size 8" }, { 20, 4, 24, "record size 24" },
		{ 20, 4, 0xffffffff, "record size huge" }, { 24, 8, 5, "dims 5 (more than the operands)" },
		{ 24, 8, 1ull << 31, "dims 2^31" }, { 24, 8, (u64)-1, "dims -1" },
		{ 24, 8, 1ull << 63, "dims -2^63" },
	};
	u8 buf[128];
	size_t i;

	relu4(x, o, ops);
	for (i = 0; i < sizeof(relu_bad) / sizeof(relu_bad[0]); i++) {
		unsigned int b;

		memcpy(buf, plan.desc, plan.desc_size);
		for (b = 0; b < relu_bad[i].width; b++)
			buf[relu_bad[i].at + b] = (u8)(relu_bad[i].value >> (8 * b));
		expect_fault(buf, plan.desc_size, ops, 2, o, relu_bad[i].what);
	}

	/* attribute blocks: flags, reserved words, axes beyond the rank */
	{
		struct vops_tensor v = TEN(ACL_FLOAT, 4), v2 = TEN(ACL_FLOAT, 2, 2), m = TEN(ACL_FLOAT, 2, 2);
		struct vops_attr at = AT_INT("dst_type", ACL_FLOAT);
		struct vops_operand mops[4] = {
			{ x, 16, VNPU_OPERAND_READ }, { x, 16, VNPU_OPERAND_READ },
			{ o, 16, VNPU_OPERAND_WRITE },
		};
		u32 ws[8];

		ck_assert_int_eq(vops_plan("Cast", 1, &v, 1, &at, 1, &plan, &perr), VOPS_OK);
		memcpy(buf, plan.desc, plan.desc_size);
		put_le32(buf + 32, ACL_DOUBLE);
		expect_fault(buf, plan.desc_size, ops, 2, o, "Cast to double");
		memcpy(buf, plan.desc, plan.desc_size);
		put_le32(buf + 36, 1);
		expect_fault(buf, plan.desc_size, ops, 2, o, "Cast reserved word");
		memcpy(buf, plan.desc, plan.desc_size);
		ck_assert_int_eq(vops_run(buf, plan.desc_size, ops, 2, NULL, why, sizeof(why)), VOPS_RUN_OK);

		ck_assert_int_eq(vops_plan("MatMul", 2, (struct vops_tensor[]){ m, m }, 1, NULL, 0, &plan, &perr),
				 VOPS_OK);
		memcpy(buf, plan.desc, plan.desc_size);
		put_le32(buf + 64, 4);
		expect_fault(buf, plan.desc_size, mops, 3, o, "MatMul flag 4");
		memcpy(buf, plan.desc, plan.desc_size);
		put_le32(buf + 68, 1);
		expect_fault(buf, plan.desc_size, mops, 3, o, "MatMul reserved");
		memcpy(buf, plan.desc, plan.desc_size);
		buf[14] = 16;	/* attr_size */
		expect_fault(buf, plan.desc_size, mops, 3, o, "MatMul attr_size");
		/* x2 3 x 2: the inner dimensions disagree */
		memcpy(buf, plan.desc, plan.desc_size);
		buf[48] = 3;
		expect_fault(buf, plan.desc_size, mops, 3, o, "MatMul k disagrees");
		ck_assert_ptr_nonnull(strstr(why, "inner dimension"));

		at = AT_LIST("axes", 1);
		ck_assert_int_eq(vops_plan("ReduceSumD", 1, &v2, 1, &at, 1, &plan, &perr), VOPS_OK);
		ck_assert_uint_eq(plan.ws_bytes, 8);
		mops[0] = (struct vops_operand){ x, 16, VNPU_OPERAND_READ };
		mops[1] = (struct vops_operand){ o, 8, VNPU_OPERAND_WRITE };
		mops[2] = (struct vops_operand){ ws, sizeof(ws), VNPU_OPERAND_WORKSPACE };
		memcpy(buf, plan.desc, plan.desc_size);
		ck_assert_int_eq(vops_run(buf, plan.desc_size, mops, 3, NULL, why, sizeof(why)), VOPS_RUN_OK);
		ck_assert(o[0] == 3 && o[1] == 7);
		memcpy(buf, plan.desc, plan.desc_size);
		put_le32(buf + 40, 2);	/* flag 2 */
		expect_fault(buf, plan.desc_size, mops, 3, o, "axes flag 2");
		memcpy(buf, plan.desc, plan.desc_size);
		put_le32(buf + 44, 1);
		expect_fault(buf, plan.desc_size, mops, 3, o, "axes reserved");
		memcpy(buf, plan.desc, plan.desc_size);
		buf[48] = 4;	/* axis 2 of a rank-2 tensor */
		expect_fault(buf, plan.desc_size, mops, 3, o, "axis beyond the rank");
		memcpy(buf, plan.desc, plan.desc_size);
		buf[55] = 0x80;	/* axis 63 */
		expect_fault(buf, plan.desc_size, mops, 3, o, "axis 63");
		memcpy(buf, plan.desc, plan.desc_size);
		put_le32(buf + 40, 1);	/* keep_dims: the output is 2 x 1, still 8 bytes */
		ck_assert_int_eq(vops_run(buf, plan.desc_size, mops, 3, NULL, why, sizeof(why)), VOPS_RUN_OK);
		memcpy(buf, plan.desc, plan.desc_size);
		buf[48] = 3;	/* axes 0 and 1: a scalar output, 4 bytes; still runs */
		ck_assert_int_eq(vops_run(buf, plan.desc_size, mops, 3, NULL, why, sizeof(why)), VOPS_RUN_OK);
		ck_assert(o[0] == 10);

		/* SoftmaxV2 has no keep_dims flag and refuses no axis */
		ck_assert_int_eq(vops_plan("SoftmaxV2", 1, &v2, 1, NULL, 0, &plan, &perr), VOPS_OK);
		mops[1].size = 16;
		memcpy(buf, plan.desc, plan.desc_size);
		put_le32(buf + 40, 1);
		expect_fault(buf, plan.desc_size, mops, 3, o, "softmax keep_dims");
		memcpy(buf, plan.desc, plan.desc_size);
		buf[48] = 0;
		expect_fault(buf, plan.desc_size, mops, 3, o, "softmax without an axis");
	}
}
END_TEST

/* Random bytes, and random bytes behind a valid-looking header: FAULT, always. */
START_TEST(desc_garbage)
{
	float x[4] = { 1, 2, 3, 4 }, o[4];
	struct vops_operand ops[2];
	u8 buf[256];
	unsigned int i, j, len;

	relu4(x, o, ops);
	rng_seed(99);
	for (i = 0; i < 2000; i++) {
		len = (unsigned int)(rng_next() % sizeof(buf));
		for (j = 0; j < len; j++)
			buf[j] = (u8)rng_next();
		if (i & 1) {
			memcpy(buf, "vOPS\1\0", len < 6 ? len : 6);
			if (len >= 12)
				put_le32(buf + 8, len);
		}
		expect_fault(buf, len, ops, 2, o, "garbage");
	}
}
END_TEST

/*
 * Every bit of valid descriptors flipped, run on operands and workspace
 * of exactly the original plan's sizes: whatever the result, ASan sees no
 * access outside them, and a run that is not refused computes within them.
 */
static void flip_all_bits(const struct vops_plan *p0, float *in, float *out, void *ws)
{
	struct vops_operand ops[4];
	unsigned int n = 0, bit;
	u8 buf[128];

	ck_assert_uint_le(p0->desc_size, sizeof(buf));
	for (int i = 0; i < p0->nin; i++)
		ops[n++] = (struct vops_operand){ in, p0->in_bytes[i], VNPU_OPERAND_READ };
	ops[n++] = (struct vops_operand){ out, p0->out[0].bytes, VNPU_OPERAND_WRITE };
	if (p0->ws_bytes)
		ops[n++] = (struct vops_operand){ ws, p0->ws_bytes, VNPU_OPERAND_WORKSPACE };
	for (bit = 0; bit < p0->desc_size * 8; bit++) {
		enum vops_run_status st;

		memcpy(buf, p0->desc, p0->desc_size);
		buf[bit / 8] ^= (u8)(1u << (bit % 8));
		st = vops_run(buf, p0->desc_size, ops, n, NULL, why, sizeof(why));
		EXPECT_MSG(st == VOPS_RUN_FAULT || st == VOPS_RUN_OK || st == VOPS_RUN_ARITH,
			   "bit %u: status %d", bit, st);
	}
}

START_TEST(desc_bit_flips)
{
	struct vops_tensor x = TEN(ACL_FLOAT, 4, 6, 5), m = TEN(ACL_INT32, 6, 6), v = TEN(ACL_FLOAT16, 120);
	struct vops_attr at[2] = { AT_LIST("axes", 0, 2), AT_INT("dst_type", ACL_BF16) };
	struct vops_plan *p0 = xalloc(sizeof(*p0));
	float *in = xalloc(480), *out = xalloc(480);
	void *ws;
	int i;

	for (i = 0; i < 120; i++)
		in[i] = (float)(i % 7) - 3;
	ck_assert_int_eq(vops_plan("ReduceSumD", 1, &x, 1, at, 1, p0, &perr), VOPS_OK);
	ws = xalloc(p0->ws_bytes);
	flip_all_bits(p0, in, out, ws);
	free(ws);
	ck_assert_int_eq(vops_plan("MatMul", 2, (struct vops_tensor[]){ m, m }, 1, NULL, 0, p0, &perr),
			 VOPS_OK);
	flip_all_bits(p0, in, out, NULL);
	ck_assert_int_eq(vops_plan("Cast", 1, &v, 1, &at[1], 1, p0, &perr), VOPS_OK);
	flip_all_bits(p0, in, out, NULL);
	ck_assert_int_eq(vops_plan("Mul", 2, (struct vops_tensor[]){ v, TEN(ACL_FLOAT16, 1) }, 1, NULL, 0, p0,
				   &perr), VOPS_OK);
	flip_all_bits(p0, in, out, NULL);
	free(in);
	free(out);
	free(p0);
}
END_TEST

/*
 * A descriptor that lies about its shapes: it describes more than its
 * operands hold (as a buggy or hostile client could send). Its task
 * faults and writes nothing; ASan checks nothing was read either.
 */
START_TEST(desc_lies_about_shapes)
{
	struct vops_tensor small = TEN(ACL_FLOAT, 10), big = TEN(ACL_FLOAT, 1000);
	struct vops_tensor mm_big[2] = { TEN(ACL_FLOAT, 64, 64), TEN(ACL_FLOAT, 64, 64) };
	struct vops_attr ax = AT_LIST("axes", 1);
	float *x = xalloc(40), *y = xalloc(40), *o = xalloc(40), *ws = xalloc(40);
	struct vops_operand ops[4];
	unsigned int i;

	for (i = 0; i < 10; i++)
		x[i] = y[i] = (float)i;
	/* Add planned for 1000 elements, operands of 10 */
	ck_assert_int_eq(vops_plan("Add", 2, (struct vops_tensor[]){ big, big }, 1, NULL, 0, &plan, &perr),
			 VOPS_OK);
	ops[0] = (struct vops_operand){ x, 40, VNPU_OPERAND_READ };
	ops[1] = (struct vops_operand){ y, 40, VNPU_OPERAND_READ };
	ops[2] = (struct vops_operand){ o, 40, VNPU_OPERAND_WRITE };
	memset(o, 0x5a, 40);
	ck_assert_int_eq(vops_run(plan.desc, plan.desc_size, ops, 3, NULL, why, sizeof(why)), VOPS_RUN_FAULT);
	ck_assert_ptr_nonnull(strstr(why, "4000"));
	for (i = 0; i < 40; i++)
		ck_assert_uint_eq(((u8 *)o)[i], 0x5a);
	/* the same operands with the true descriptor */
	ck_assert_int_eq(vops_plan("Add", 2, (struct vops_tensor[]){ small, small }, 1, NULL, 0, &plan, &perr),
			 VOPS_OK);
	ck_assert_int_eq(vops_run(plan.desc, plan.desc_size, ops, 3, NULL, why, sizeof(why)), VOPS_RUN_OK);
	ck_assert(o[9] == 18);
	/* a broadcast that claims its scalar operand is the full tensor */
	ck_assert_int_eq(vops_plan("Add", 2, (struct vops_tensor[]){ small, small }, 1, NULL, 0, &plan, &perr),
			 VOPS_OK);
	ops[1].size = 4;
	ck_assert_int_eq(vops_run(plan.desc, plan.desc_size, ops, 3, NULL, why, sizeof(why)), VOPS_RUN_FAULT);
	ops[1].size = 40;
	/* a MatMul larger than its operands; a reduction's workspace too small */
	ck_assert_int_eq(vops_plan("MatMul", 2, mm_big, 1, NULL, 0, &plan, &perr), VOPS_OK);
	ck_assert_int_eq(vops_run(plan.desc, plan.desc_size, ops, 3, NULL, why, sizeof(why)), VOPS_RUN_FAULT);
	ck_assert_int_eq(vops_plan("ReduceSumD", 1, (struct vops_tensor[]){ TEN(ACL_FLOAT, 1, 10) }, 1, &ax, 1,
				   &plan, &perr), VOPS_OK);
	ck_assert_uint_eq(plan.ws_bytes, 40);
	ops[1] = (struct vops_operand){ o, 4, VNPU_OPERAND_WRITE };
	ops[2] = (struct vops_operand){ ws, 39, VNPU_OPERAND_WORKSPACE };
	ck_assert_int_eq(vops_run(plan.desc, plan.desc_size, ops, 3, NULL, why, sizeof(why)), VOPS_RUN_FAULT);
	ck_assert_ptr_nonnull(strstr(why, "workspace"));
	ops[2].size = 40;
	ck_assert_int_eq(vops_run(plan.desc, plan.desc_size, ops, 3, NULL, why, sizeof(why)), VOPS_RUN_OK);
	ck_assert(o[0] == 45);
	free(x);
	free(y);
	free(o);
	free(ws);
}
END_TEST

/* ---- operands --------------------------------------------------------------------- */

START_TEST(run_bad_operands)
{
	struct vops_tensor t = TEN(ACL_FLOAT, 2, 8);
	struct vops_attr ax = AT_LIST("axes", 1);
	u32 *buf = xalloc(256), *o = xalloc(64), *ws = xalloc(64);
	static const u32 accesses[] = { 0, VNPU_OPERAND_READ, VNPU_OPERAND_WRITE, VNPU_OPERAND_WORKSPACE, 4,
					0xffffffffu };
	struct vops_operand good[3], ops[4];
	unsigned int i, j;

	memset(buf, 0, 256);
	ck_assert_int_eq(vops_plan("ReduceSumD", 1, &t, 1, &ax, 1, &plan, &perr), VOPS_OK);
	ck_assert_uint_eq(vops_plan_operands(&plan), 3);
	good[0] = (struct vops_operand){ buf, 64, VNPU_OPERAND_READ };
	good[1] = (struct vops_operand){ o, 8, VNPU_OPERAND_WRITE };
	good[2] = (struct vops_operand){ ws, 32, VNPU_OPERAND_WORKSPACE };
	ck_assert_int_eq(vops_run(plan.desc, plan.desc_size, good, 3, NULL, why, sizeof(why)), VOPS_RUN_OK);

	/* count: one fewer (no workspace), one more, none */
	expect_fault(plan.desc, plan.desc_size, good, 2, (float *)o, "2 operands");
	memcpy(ops, good, sizeof(good));
	ops[3] = good[2];
	expect_fault(plan.desc, plan.desc_size, ops, 4, (float *)o, "4 operands");
	expect_fault(plan.desc, plan.desc_size, NULL, 0, (float *)o, "no operands");
	expect_fault(plan.desc, plan.desc_size, NULL, 3, (float *)o, "NULL operands");
	/* access: every wrong value on every operand */
	for (i = 0; i < 3; i++)
		for (j = 0; j < sizeof(accesses) / sizeof(accesses[0]); j++) {
			if (accesses[j] == good[i].access)
				continue;
			memcpy(ops, good, sizeof(good));
			ops[i].access = accesses[j];
			expect_fault(plan.desc, plan.desc_size, ops, 3, (float *)o, "access");
		}
	/* alignment: each operand one and two bytes off */
	for (i = 0; i < 3; i++)
		for (j = 1; j <= 2; j++) {
			memcpy(ops, good, sizeof(good));
			ops[i].ptr = (u8 *)ops[i].ptr + j;
			expect_fault(plan.desc, plan.desc_size, ops, 3, (float *)o, "misaligned");
			ck_assert_ptr_nonnull(strstr(why, "aligned"));
		}
	/* size: each operand one byte short, or without memory */
	for (i = 0; i < 3; i++) {
		memcpy(ops, good, sizeof(good));
		ops[i].size--;
		expect_fault(plan.desc, plan.desc_size, ops, 3, (float *)o, "short");
		memcpy(ops, good, sizeof(good));
		ops[i].ptr = NULL;
		expect_fault(plan.desc, plan.desc_size, ops, 3, (float *)o, "NULL");
	}
	/* larger operands are fine (buffers are whole allocations) */
	memcpy(ops, good, sizeof(good));
	ops[0].size = 256;
	ops[1].size = 64;
	ck_assert_int_eq(vops_run(plan.desc, plan.desc_size, ops, 3, NULL, why, sizeof(why)), VOPS_RUN_OK);
	/* an fp16 operand needs 2-byte alignment only */
	{
		struct vops_tensor h = TEN(ACL_FLOAT16, 4);
		struct vops_operand hops[2] = { { (u8 *)buf + 2, 8, VNPU_OPERAND_READ },
						{ (u8 *)o + 6, 8, VNPU_OPERAND_WRITE } };

		ck_assert_int_eq(vops_plan("Abs", 1, &h, 1, NULL, 0, &plan, &perr), VOPS_OK);
		ck_assert_uint_eq(plan.in_align[0], 2);
		ck_assert_int_eq(vops_run(plan.desc, plan.desc_size, hops, 2, NULL, why, sizeof(why)),
				 VOPS_RUN_OK);
	}
	free(buf);
	free(o);
	free(ws);
}
END_TEST

/* An empty plan runs as nothing (libacl never queues one). */
START_TEST(run_empty)
{
	struct vops_tensor t = TEN(ACL_FLOAT, 0, 3);
	struct vops_operand ops[3] = { { NULL, 0, VNPU_OPERAND_READ }, { NULL, 0, VNPU_OPERAND_READ },
				       { NULL, 0, VNPU_OPERAND_WRITE } };

	ck_assert_int_eq(vops_plan("Add", 2, (struct vops_tensor[]){ t, t }, 1, NULL, 0, &plan, &perr), VOPS_OK);
	ck_assert(plan.empty);
	ck_assert_int_eq(vops_run(plan.desc, plan.desc_size, ops, 3, NULL, why, sizeof(why)), VOPS_RUN_OK);
}
END_TEST

/* ---- reductions over axes that are not adjacent ------------------------------------ */

/*
 * ReduceSumD/ReduceMaxD of @dt over the axes @axes (bitmask) of @shape, as
 * one descriptor, against a double reference over the index space.
 */
static void chain_case(const char *type, u32 dt, int rank, const int64_t *shape, u32 axes, bool keep,
		       bool in_place)
{
	bool sum = !strcmp(type, "ReduceSumD");
	int64_t ax[8];
	struct vops_attr at[2];
	struct vops_tensor t = { .dtype = acl(dt), .ndim = rank, .dims = shape };
	u64 n = 1, outn, i, strides[8], ostrides[8];
	int naxes = 0, d;
	void *x, *x0, *o, *ws;
	double *ref, *mag;
	struct prim p = { .op = 0 };
	char what[96];

	for (d = 0; d < rank; d++) {
		n *= (u64)shape[d];
		if (axes & (1u << d))
			ax[naxes++] = d;
	}
	at[0] = (struct vops_attr){ .name = (char *)"axes", .kind = VOPS_ATTR_LIST_INT, .li = { naxes, ax } };
	at[1] = AT_BOOL("keep_dims", keep);
	ck_assert_int_eq(vops_plan(type, 1, &t, 1, at, 2, &plan, &perr), VOPS_OK);
	outn = plan.out[0].bytes / esize(dt);
	x = dt == I32 ? rand_i32_full(n) : rand_tensor(dt, n, -10, 10);
	x0 = xalloc(n * esize(dt));
	memcpy(x0, x, n * esize(dt));
	o = in_place ? x : xalloc(outn * esize(dt));
	ws = xalloc(plan.ws_bytes);
	ref = xalloc(outn * sizeof(double));
	mag = xalloc(outn * sizeof(double));

	/* the reference: each input element into its output index */
	for (d = rank - 1, i = 1; d >= 0; d--) {
		strides[d] = i;
		i *= (u64)shape[d];
	}
	for (d = rank - 1, i = 1; d >= 0; d--) {
		ostrides[d] = (axes & (1u << d)) ? 0 : i;
		if (!(axes & (1u << d)))
			i *= (u64)shape[d];
	}
	for (i = 0; i < outn; i++) {
		ref[i] = sum ? 0 : -INFINITY;
		mag[i] = 0;
	}
	{
		u32 *iref = xalloc(outn * 4);
		s32 *imax = xalloc(outn * 4);

		for (i = 0; i < outn; i++) {
			iref[i] = 0;
			imax[i] = INT32_MIN;
		}
		for (i = 0; i < n; i++) {
			u64 oi = 0;
			double v = get_val(x0, dt, i);

			for (d = 0; d < rank; d++)
				oi += (i / strides[d]) % (u64)shape[d] * ostrides[d];
			if (dt == I32) {
				iref[oi] += ((u32 *)x0)[i];
				imax[oi] = (s32)v > imax[oi] ? (s32)v : imax[oi];
			} else if (sum) {
				ref[oi] += v;
				mag[oi] += fabs(v);
			} else {
				ref[oi] = v > ref[oi] ? v : ref[oi];
			}
		}
		p.in0 = x;
		p.out = o;
		ck_assert_int_eq(run_planned(&p, ws, NULL), VOPS_RUN_OK);
		snprintf(what, sizeof(what), "%s %s axes 0x%x%s", type, dtype_name[dt], axes, keep ? " keep" : "");
		for (i = 0; i < outn; i++) {
			if (dt == I32)
				EXPECT_MSG(((u32 *)o)[i] == (sum ? iref[i] : (u32)imax[i]), "%s [%llu]", what,
					   (unsigned long long)i);
			else if (!sum)
				EXPECT_MSG(get_val(o, dt, i) == ref[i], "%s [%llu]", what, (unsigned long long)i);
			else if (dt == F32)
				EXPECT_MSG(fabs(get_val(o, dt, i) - ref[i]) <= 1e-5 * mag[i], "%s [%llu]: %.9g vs %.9g",
					   what, (unsigned long long)i, get_val(o, dt, i), ref[i]);
			else
				check_fp(dt, o, i, ref[i], 1e-5 * mag[i], what);
		}
		free(iref);
		free(imax);
	}
	free(mag);
	free(ref);
	free(ws);
	if (!in_place)
		free(o);
	free(x0);
	free(x);
}

START_TEST(reduce_chains)
{
	static const int64_t s4[] = { 2, 3, 4, 5 }, s5[] = { 2, 3, 4, 5, 6 }, s3[] = { 3, 40000, 2 };
	static const int64_t s6[] = { 3, 1, 7, 1, 5, 2 };
	u32 dt = all_dtypes[_i], r;

	rng_seed(9000 + _i);
	for (r = 0; r < 2; r++) {
		const char *type = r ? "ReduceMaxD" : "ReduceSumD";

		chain_case(type, dt, 4, s4, 0x5, false, false);		/* [0, 2] */
		chain_case(type, dt, 4, s4, 0xa, true, false);		/* [1, 3] */
		chain_case(type, dt, 4, s4, 0xb, false, true);		/* [0, 1, 3], in place */
		chain_case(type, dt, 4, s4, 0x9, true, false);		/* [0, 3] */
		chain_case(type, dt, 5, s5, 0x15, false, false);		/* [0, 2, 4] */
		chain_case(type, dt, 5, s5, 0x1b, true, true);		/* [0, 1, 3, 4] */
		chain_case(type, dt, 3, s3, 0x5, false, false);		/* long inner rows */
		chain_case(type, dt, 6, s6, 0x2a, false, false);		/* axes of 1 */
		chain_case(type, dt, 4, s4, 0x6, false, false);		/* adjacent [1, 2] */
		chain_case(type, dt, 4, s4, 0xf, true, false);		/* all: one value */
		chain_case(type, dt, 4, s4, 0x0, false, true);		/* none: the identity */
	}
}
END_TEST

/* The chain's workspace: the reductions' region, then two 64-byte aligned buffers. */
START_TEST(reduce_chain_workspace)
{
	struct vops_tensor x = TEN(ACL_FLOAT, 2, 3, 5), h = TEN(ACL_FLOAT16, 2, 3, 5);
	struct vops_attr at[2] = { AT_LIST("axes", 0, 2), AT_BOOL("keep_dims", true) };

	/* {1, 2, 15} (8 * 15 bytes) into buffer 0 at 128 (4 * 15), then {3, 5, 1} */
	ck_assert_int_eq(vops_plan("ReduceSumD", 1, &x, 1, at, 1, &plan, &perr), VOPS_OK);
	ck_assert_uint_eq(plan.ws_bytes, 192);
	ck_assert_uint_eq(plan.out[0].bytes, 12);
	ck_assert_uint_eq(plan.in_place, 1);
	ck_assert_int_eq(vops_plan("ReduceMaxD", 1, &x, 1, at, 1, &plan, &perr), VOPS_OK);
	ck_assert_uint_eq(plan.ws_bytes, 64 + 64);	/* 4 * 15 -> 64, then 60 bytes */
	/* fp16 sums: a cast to fp32 (buffer 0: 120 bytes), two sums, a cast back */
	ck_assert_int_eq(vops_plan("ReduceSumD", 1, &h, 1, at, 2, &plan, &perr), VOPS_OK);
	ck_assert_uint_eq(plan.ws_bytes, 256 + 60);
	ck_assert_uint_eq(plan.out[0].bytes, 6);
	ck_assert_int_eq(plan.out[0].ndim, 3);
}
END_TEST

/* ---- several workers at once ------------------------------------------------------ */

struct mm_job {
	u32 dt;
	const void *a, *b;
	void *out;
	int reps;
	int bad;
};

static void *mm_worker(void *arg)
{
	struct mm_job *j = arg;
	struct vops_tensor t = { .dtype = acl(j->dt), .ndim = 2, .dims = (const int64_t[]){ 96, 96 } };
	struct vops_plan *p = malloc(sizeof(*p));
	void *ws = NULL;
	char w[256];
	int r;

	if (!p || vops_plan("MatMul", 2, (struct vops_tensor[]){ t, t }, 1, NULL, 0, p, NULL)) {
		j->bad = -1;
		free(p);
		return NULL;
	}
	ws = p->ws_bytes ? malloc(p->ws_bytes) : NULL;
	for (r = 0; r < j->reps; r++) {
		struct vops_operand ops[4] = {
			{ (void *)j->a, p->in_bytes[0], VNPU_OPERAND_READ },
			{ (void *)j->b, p->in_bytes[1], VNPU_OPERAND_READ },
			{ j->out, p->out[0].bytes, VNPU_OPERAND_WRITE },
			{ ws, p->ws_bytes, VNPU_OPERAND_WORKSPACE },
		};

		if (vops_run(p->desc, p->desc_size, ops, vops_plan_operands(p), NULL, w, sizeof(w)))
			j->bad++;
	}
	free(ws);
	free(p);
	return NULL;
}

/*
 * One engine worker per thread: matrix products (BLAS) from several
 * threads at once give the results one thread gives.
 */
START_TEST(matmul_concurrent)
{
	u32 dt = _i ? BF16 : F32;
	u64 n = 96 * 96, es = esize(dt);
	void *a = rand_tensor(dt, n, -1, 1), *b = rand_tensor(dt, n, -1, 1), *want = xalloc(n * es);
	struct mm_job jobs[3];
	pthread_t th[3];
	int i;

	rng_seed(123);
	jobs[0] = (struct mm_job){ .dt = dt, .a = a, .b = b, .out = want, .reps = 1 };
	mm_worker(&jobs[0]);
	ck_assert_int_eq(jobs[0].bad, 0);
	for (i = 0; i < 3; i++) {
		jobs[i] = (struct mm_job){ .dt = dt, .a = a, .b = b, .out = xalloc(n * es), .reps = 40 };
		ck_assert_int_eq(pthread_create(&th[i], NULL, mm_worker, &jobs[i]), 0);
	}
	for (i = 0; i < 3; i++) {
		ck_assert_int_eq(pthread_join(th[i], NULL), 0);
		ck_assert_int_eq(jobs[i].bad, 0);
		ck_assert(!memcmp(jobs[i].out, want, n * es));
		free(jobs[i].out);
	}
	free(a);
	free(b);
	free(want);
}
END_TEST

/* ---- suite -------------------------------------------------------------- */

static Suite *ops_suite(void)
{
	Suite *s = suite_create("vnpu_ops");
	TCase *tc;

	tc = tcase_create("plan");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, plan_valid_all_ops);
	tcase_add_test(tc, plan_sizes_formula);
	tcase_add_test(tc, plan_sizes_inner);
	tcase_add_test(tc, plan_dim_limit);
	tcase_add_test(tc, plan_overflow);
	tcase_add_test(tc, plan_empty);
	tcase_add_test(tc, plan_output_shapes);
	tcase_add_test(tc, plan_not_found);
	tcase_add_loop_test(tc, plan_bad_counts, 0, N_OPS);
	tcase_add_loop_test(tc, plan_bad_dtype, 0, N_OPS);
	tcase_add_loop_test(tc, plan_bad_attrs, 0, N_OPS);
	tcase_add_loop_test(tc, plan_bad_shapes, 0, N_OPS);
	suite_add_tcase(s, tc);

	tc = tcase_create("descriptor");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, desc_format);
	tcase_add_test(tc, desc_truncated_oversized);
	tcase_add_test(tc, desc_bad_fields);
	tcase_add_test(tc, desc_garbage);
	tcase_add_test(tc, desc_bit_flips);
	tcase_add_test(tc, desc_lies_about_shapes);
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
	tcase_add_loop_test(tc, reduce_chains, 0, 4);
	tcase_add_test(tc, reduce_chain_workspace);
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
	tcase_add_loop_test(tc, matmul_concurrent, 0, 2);
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
	tcase_add_test(tc, run_bad_operands);
	tcase_add_test(tc, run_empty);
	tcase_add_test(tc, cancel_add);
	tcase_add_test(tc, cancel_matmul_softmax);
	suite_add_tcase(s, tc);

	tc = tcase_create("parallel");
	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, parallel_matmul_tiles, 0, 2);
	tcase_add_loop_test(tc, parallel_eltwise_blocks, 0, 2);
	tcase_add_test(tc, parallel_only_where_independent);
	tcase_add_loop_test(tc, parallel_cancel, 0, 2);
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
