// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for lib/ops' reduce family (op_reduce2.c) through the
 * public API: vops_plan() a call, vops_run() its descriptor on host
 * memory, compare with values computed here; planning errors; descriptors
 * with a corrupted parameter or shape.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_base.h"
#include "vnpu_drm.h"
#include "vnpu_ops.h"

#define MAXA 8

/* One call: input 0, attributes; outputs and workspace from the plan. */
struct call {
	struct vops_tensor in;
	struct vops_attr at[MAXA];
	unsigned int nat;
	int nout;
	struct vops_plan plan;
	struct vops_error err;
	void *out[2];
};

static struct vops_attr a_ints(const char *n, int cnt, int64_t *v)
{
	struct vops_attr a = { .name = (char *)n, .kind = VOPS_ATTR_LIST_INT };

	a.li.n = cnt;
	a.li.v = v;
	return a;
}

static struct vops_attr a_int(const char *n, int64_t v)
{
	return (struct vops_attr){ .name = (char *)n, .kind = VOPS_ATTR_INT, .i = v };
}

static struct vops_attr a_bool(const char *n, bool v)
{
	return (struct vops_attr){ .name = (char *)n, .kind = VOPS_ATTR_BOOL, .b = v };
}

static struct vops_attr a_float(const char *n, float v)
{
	return (struct vops_attr){ .name = (char *)n, .kind = VOPS_ATTR_FLOAT, .f = v };
}

static struct vops_attr a_dt(const char *n, int32_t v)
{
	return (struct vops_attr){ .name = (char *)n, .kind = VOPS_ATTR_DTYPE, .dt = v };
}

static enum vops_err plan(struct call *c, const char *op)
{
	return vops_plan(op, 1, &c->in, c->nout ? c->nout : 1, c->at, c->nat, &c->plan, &c->err);
}

/* Run @c's plan on input memory @x (@xbytes); outputs into c->out. */
static enum vops_run_status run(struct call *c, const void *x, uint64_t xbytes)
{
	struct vops_operand ops[4];
	unsigned int n = 0;
	void *ws = NULL;
	enum vops_run_status st;
	char why[256];
	int i;

	ops[n++] = (struct vops_operand){ (void *)x, xbytes, VNPU_OPERAND_READ };
	for (i = 0; i < c->plan.nout; i++) {
		c->out[i] = aligned_alloc(64, (c->plan.out[i].bytes + 64) / 64 * 64);
		memset(c->out[i], 0x5a, c->plan.out[i].bytes);
		ops[n++] = (struct vops_operand){ c->out[i], c->plan.out[i].bytes, VNPU_OPERAND_WRITE };
	}
	if (c->plan.ws_bytes) {
		ws = aligned_alloc(64, (c->plan.ws_bytes + 63) / 64 * 64);
		ops[n++] = (struct vops_operand){ ws, c->plan.ws_bytes, VNPU_OPERAND_WORKSPACE };
	}
	st = vops_run(c->plan.desc, c->plan.desc_size, ops, n, NULL, why, sizeof(why));
	free(ws);
	return st;
}

static void done(struct call *c)
{
	free(c->out[0]);
	free(c->out[1]);
	c->out[0] = c->out[1] = NULL;
}

/* Plan and run @op on f32 @x of shape @dims; expect output 0 = @want (f32). */
static void check_f32(const char *op, int nd, const int64_t *dims, const float *x, struct call *c,
		      int nwant, const float *want, double tol)
{
	uint64_t n = 1;
	int i;

	for (i = 0; i < nd; i++)
		n *= (uint64_t)dims[i];
	c->in = (struct vops_tensor){ .dtype = ACL_FLOAT, .ndim = nd, .dims = dims };
	ck_assert_msg(plan(c, op) == VOPS_OK, "%s: %s", op, c->err.msg);
	ck_assert_uint_eq(c->plan.out[0].bytes, (uint64_t)nwant * 4);
	ck_assert_int_eq(run(c, x, n * 4), VOPS_RUN_OK);
	for (i = 0; i < nwant; i++) {
		float g = ((float *)c->out[0])[i];

		ck_assert_msg(isnan(want[i]) ? isnan(g) : fabs(g - want[i]) <= tol * (1 + fabs(want[i])),
			      "%s: element %d is %.9g, want %.9g", op, i, g, want[i]);
	}
}

static const int64_t d23[] = { 2, 3 };
static const float x23[] = { 1, -2, 3, 4, 5, -6 };

START_TEST(reduce_mean_min_prod)
{
	struct call c = { 0 };
	int64_t ax1[] = { 1 }, ax01[] = { 0, -1 };
	float mean1[] = { 2.0f / 3, 1 }, min0[] = { -6 }, prod1[] = { -6, -120 };

	c.at[0] = a_ints("axes", 1, ax1);
	c.at[1] = a_bool("keep_dims", true);
	c.nat = 2;
	check_f32("ReduceMeanD", 2, d23, x23, &c, 2, mean1, 1e-6);
	ck_assert_int_eq(c.plan.out[0].ndim, 2);
	ck_assert_int_eq(c.plan.out[0].dims[1], 1);
	done(&c);
	c.at[0] = a_ints("axes", 2, ax01);
	c.nat = 1;
	check_f32("ReduceMinD", 2, d23, x23, &c, 1, min0, 0);
	ck_assert_int_eq(c.plan.out[0].ndim, 0);
	done(&c);
	c.at[0] = a_ints("axes", 1, ax1);
	check_f32("ReduceProdD", 2, d23, x23, &c, 2, prod1, 0);
	done(&c);
}
END_TEST

START_TEST(reduce_norms_logs)
{
	struct call c = { 0 };
	int64_t ax1[] = { 1 };
	float l1[] = { 6, 15 }, l2[] = { sqrtf(14), sqrtf(77) }, linf[] = { 3, 6 };
	float sq[] = { 14, 77 };
	float big[] = { 1000, 1000, 1001, -1e30f, 0, 0 };
	float lse[] = { (float)(1001 + log(2 * exp(-1.0) + 1)), (float)log(2.0) };
	float pos[] = { 1, 2, 3, 4, 5, 6 }, ls[] = { (float)log(6.0), (float)log(15.0) };
	float eps[] = { 0.5f, 0.5f }, zero[6] = { 0 };

	c.at[0] = a_ints("axes", 1, ax1);
	c.at[1] = a_float("p", 1);
	c.at[2] = a_float("epsilon", 0);
	c.nat = 3;
	check_f32("LpNormV2", 2, d23, x23, &c, 2, l1, 1e-6);
	done(&c);
	c.at[1] = a_float("p", 2);
	check_f32("LpNormV2", 2, d23, x23, &c, 2, l2, 1e-6);
	done(&c);
	c.at[1] = a_float("p", INFINITY);
	check_f32("LpNormV2", 2, d23, x23, &c, 2, linf, 0);
	done(&c);
	/* epsilon is a floor of the norm */
	c.at[1] = a_float("p", 2);
	c.at[2] = a_float("epsilon", 0.5f);
	check_f32("LpNormV2", 2, d23, zero, &c, 2, eps, 0);
	done(&c);
	c.nat = 1;
	check_f32("ReduceLogSumExp", 2, d23, big, &c, 2, lse, 1e-6);
	done(&c);
	check_f32("ReduceLogSumD", 2, d23, pos, &c, 2, ls, 1e-6);
	done(&c);
	c.at[0] = a_ints("axis", 1, ax1);
	check_f32("SquareSumV1", 2, d23, x23, &c, 2, sq, 0);
	done(&c);
}
END_TEST

START_TEST(argmax_argmin)
{
	struct call c = { 0 };
	const int64_t dims[] = { 2, 4 };
	const float x[] = { 1, 3, 3, 0, NAN, 2, NAN, 7 };
	const int32_t xi[] = { 5, 1, 5, 1, -3, -3, 9, -3 };
	const int64_t *o;
	const int32_t *o32;

	c.in = (struct vops_tensor){ .dtype = ACL_FLOAT, .ndim = 2, .dims = dims };
	c.at[0] = a_int("dimension", -1);
	c.nat = 1;
	ck_assert_int_eq(plan(&c, "ArgMaxD"), VOPS_OK);
	ck_assert_int_eq(c.plan.out[0].dtype, ACL_INT64);
	ck_assert_int_eq(c.plan.out[0].ndim, 1);
	ck_assert_int_eq(run(&c, x, sizeof(x)), VOPS_RUN_OK);
	o = c.out[0];
	ck_assert_int_eq(o[0], 1);	/* the first of equal maxima */
	ck_assert_int_eq(o[1], 0);	/* NaN wins */
	done(&c);
	c.at[1] = a_bool("select_last_index", true);
	c.at[2] = a_bool("keep_dims", true);
	c.nat = 3;
	ck_assert_int_eq(plan(&c, "ArgMaxD"), VOPS_OK);
	ck_assert_int_eq(c.plan.out[0].ndim, 2);
	ck_assert_int_eq(run(&c, x, sizeof(x)), VOPS_RUN_OK);
	o = c.out[0];
	ck_assert_int_eq(o[0], 2);
	ck_assert_int_eq(o[1], 2);
	done(&c);
	/* integers, int32 indices, along axis 0 */
	c.in.dtype = ACL_INT32;
	c.at[0] = a_int("dimension", 0);
	c.at[1] = a_dt("dtype", ACL_INT32);
	c.nat = 2;
	ck_assert_int_eq(plan(&c, "ArgMinD"), VOPS_OK);
	ck_assert_int_eq(run(&c, xi, sizeof(xi)), VOPS_RUN_OK);
	o32 = c.out[0];
	ck_assert_int_eq(o32[0], 1);
	ck_assert_int_eq(o32[1], 1);
	ck_assert_int_eq(o32[2], 0);
	ck_assert_int_eq(o32[3], 1);
	done(&c);
}
END_TEST

START_TEST(cumsum)
{
	struct call c = { 0 };
	const double x[] = { 1, 2, 3, 4, 5, 6 };
	const int32_t xi[] = { 1, 2, 3, 4, 5, 6 };
	const double *o;
	const int32_t *oi;

	c.in = (struct vops_tensor){ .dtype = ACL_DOUBLE, .ndim = 2, .dims = d23 };
	c.at[0] = a_int("axis", 1);
	c.at[1] = a_bool("exclusive", true);
	c.at[2] = a_bool("reverse", true);
	c.nat = 3;
	ck_assert_int_eq(plan(&c, "CumsumD"), VOPS_OK);
	ck_assert_int_eq(run(&c, x, sizeof(x)), VOPS_RUN_OK);
	o = c.out[0];
	ck_assert(o[0] == 5 && o[1] == 3 && o[2] == 0 && o[3] == 11 && o[4] == 6 && o[5] == 0);
	done(&c);
	/* int32 along the default axis 0 */
	c.in.dtype = ACL_INT32;
	c.nat = 0;
	ck_assert_int_eq(plan(&c, "CumsumD"), VOPS_OK);
	ck_assert_int_eq(run(&c, xi, sizeof(xi)), VOPS_RUN_OK);
	oi = c.out[0];
	ck_assert(oi[0] == 1 && oi[2] == 3 && oi[3] == 5 && oi[5] == 9);
	done(&c);
}
END_TEST

START_TEST(topk)
{
	struct call c = { 0 };
	const int64_t dims[] = { 2, 5 };
	const float x[] = { 3, 1, 3, NAN, 2, -1, -2, -3, -4, -5 };
	const float *v;
	const int64_t *ix;

	c.in = (struct vops_tensor){ .dtype = ACL_FLOAT, .ndim = 2, .dims = dims };
	c.at[0] = a_int("k", 3);
	c.at[1] = a_dt("indices_dtype", ACL_INT64);
	c.nat = 2;
	c.nout = 2;
	ck_assert_msg(plan(&c, "TopKD") == VOPS_OK, "%s", c.err.msg);
	ck_assert_int_eq(c.plan.out[0].dims[1], 3);
	ck_assert_int_eq(c.plan.out[1].dtype, ACL_INT64);
	ck_assert_uint_gt(c.plan.ws_bytes, 0);
	ck_assert_int_eq(run(&c, x, sizeof(x)), VOPS_RUN_OK);
	v = c.out[0];
	ix = c.out[1];
	ck_assert(isnan(v[0]) && v[1] == 3 && v[2] == 3 && v[3] == -1 && v[4] == -2 && v[5] == -3);
	ck_assert(ix[0] == 3 && ix[1] == 0 && ix[2] == 2 && ix[3] == 0 && ix[4] == 1 && ix[5] == 2);
	done(&c);
	/* the smallest, int32 indices by CANN's default */
	c.at[1] = a_bool("largest", false);
	ck_assert_int_eq(plan(&c, "TopKD"), VOPS_OK);
	ck_assert_int_eq(c.plan.out[1].dtype, ACL_INT32);
	ck_assert_int_eq(run(&c, x, sizeof(x)), VOPS_RUN_OK);
	v = c.out[0];
	ck_assert(v[0] == 1 && v[1] == 2 && v[2] == 3 && v[3] == -5);
	ck_assert_int_eq(((int32_t *)c.out[1])[2], 0);
	done(&c);
	/* k = 0: nothing to compute */
	c.at[0] = a_int("k", 0);
	ck_assert_int_eq(plan(&c, "TopKD"), VOPS_OK);
	ck_assert(c.plan.empty);
}
END_TEST

START_TEST(hardmax_logsoftmax)
{
	struct call c = { 0 };
	const float x[] = { 1, 3, 3, 0, 0, -1 };
	float hm[] = { 0, 1, 0, 1, 0, 0 };
	float ls[6];
	int64_t ax[] = { 1 };
	int i;

	for (i = 0; i < 6; i++) {
		int r = i / 3;
		double m = r ? 0 : 3, s = 0;
		int j;

		for (j = 0; j < 3; j++)
			s += exp(x[r * 3 + j] - m);
		ls[i] = (float)(x[i] - m - log(s));
	}
	check_f32("HardMax", 2, d23, x, &c, 6, hm, 0);
	done(&c);
	c.at[0] = a_ints("axes", 1, ax);
	c.nat = 1;
	check_f32("LogSoftmaxV2", 2, d23, x, &c, 6, ls, 1e-6);
	done(&c);
	c.nat = 0;	/* the default axis is the last */
	check_f32("LogSoftmaxV2", 2, d23, x, &c, 6, ls, 1e-6);
	done(&c);
}
END_TEST

/* Each dtype class: fp16, bf16 (rounded once), int8 and uint64 (exact). */
START_TEST(dtype_classes)
{
	struct call c = { 0 };
	int64_t ax[] = { 0 };
	const int64_t d4[] = { 4 };
	uint16_t h[4], b[4];
	const int8_t i8[] = { -128, 127, 5, -7 };
	const uint64_t u64[] = { 1ull << 63, 5, UINT64_MAX, 0 };
	const float f[] = { 1, 2, 4, 0.5f };
	int i;

	for (i = 0; i < 4; i++) {
		h[i] = vops_f32_to_f16(f[i]);
		b[i] = vops_f32_to_bf16(f[i]);
	}
	c.in = (struct vops_tensor){ .dtype = ACL_FLOAT16, .ndim = 1, .dims = d4 };
	c.at[0] = a_ints("axes", 1, ax);
	c.nat = 1;
	ck_assert_int_eq(plan(&c, "ReduceMeanD"), VOPS_OK);
	ck_assert_int_eq(run(&c, h, sizeof(h)), VOPS_RUN_OK);
	ck_assert(vops_f16_to_f32(*(uint16_t *)c.out[0]) == 1.875f);
	done(&c);
	c.in.dtype = ACL_BF16;
	ck_assert_int_eq(plan(&c, "ReduceProdD"), VOPS_OK);
	ck_assert_int_eq(run(&c, b, sizeof(b)), VOPS_RUN_OK);
	ck_assert(vops_bf16_to_f32(*(uint16_t *)c.out[0]) == 4.0f);
	done(&c);
	c.in.dtype = ACL_INT8;
	ck_assert_int_eq(plan(&c, "ReduceMinD"), VOPS_OK);
	ck_assert_int_eq(run(&c, i8, sizeof(i8)), VOPS_RUN_OK);
	ck_assert_int_eq(*(int8_t *)c.out[0], -128);
	done(&c);
	/* int8 means truncate toward zero: (-128 + 127 + 5 - 7) / 4 = -0.75 */
	ck_assert_int_eq(plan(&c, "ReduceMeanD"), VOPS_OK);
	ck_assert_int_eq(run(&c, i8, sizeof(i8)), VOPS_RUN_OK);
	ck_assert_int_eq(*(int8_t *)c.out[0], 0);
	done(&c);
	c.in.dtype = ACL_UINT64;
	ck_assert_int_eq(plan(&c, "ReduceMinD"), VOPS_OK);
	ck_assert_int_eq(run(&c, u64, sizeof(u64)), VOPS_RUN_OK);
	ck_assert(*(uint64_t *)c.out[0] == 0);
	done(&c);
	c.at[0] = a_int("dimension", 0);
	ck_assert_int_eq(plan(&c, "ArgMaxD"), VOPS_OK);
	ck_assert_int_eq(run(&c, u64, sizeof(u64)), VOPS_RUN_OK);
	ck_assert_int_eq(*(int64_t *)c.out[0], 2);
	done(&c);
}
END_TEST

/* Views: a transposed input (strides), and a broadcast one (stride 0). */
START_TEST(views)
{
	struct call c = { 0 };
	const int64_t dims[] = { 3, 2 }, tst[] = { 1, 3 }, bdims[] = { 4, 3 }, bst[] = { 0, 1 };
	int64_t ax[] = { 1 };
	const float *o;

	/* x23 seen as its transpose [3, 2] */
	c.in = (struct vops_tensor){ .dtype = ACL_FLOAT, .ndim = 2, .dims = dims, .strides = tst };
	c.at[0] = a_ints("axes", 1, ax);
	c.nat = 1;
	ck_assert_int_eq(plan(&c, "ReduceMeanD"), VOPS_OK);
	ck_assert_int_eq(run(&c, x23, sizeof(x23)), VOPS_RUN_OK);
	o = c.out[0];
	ck_assert(o[0] == 2.5f && o[1] == 1.5f && o[2] == -1.5f);
	done(&c);
	c.at[0] = a_int("axis", 1);
	ck_assert_int_eq(plan(&c, "CumsumD"), VOPS_OK);
	ck_assert_int_eq(run(&c, x23, sizeof(x23)), VOPS_RUN_OK);
	o = c.out[0];
	ck_assert(o[0] == 1 && o[1] == 5 && o[2] == -2 && o[3] == 3 && o[4] == 3 && o[5] == -3);
	done(&c);
	/* row 0 of x23 broadcast to 4 rows, offset 3: row 1 */
	c.in = (struct vops_tensor){ .dtype = ACL_FLOAT, .ndim = 2, .dims = bdims, .strides = bst,
				     .offset = 3 };
	c.at[0] = a_int("dimension", 1);
	ck_assert_int_eq(plan(&c, "ArgMinD"), VOPS_OK);
	ck_assert_uint_eq(c.plan.in_bytes[0], 24);
	ck_assert_int_eq(run(&c, x23, sizeof(x23)), VOPS_RUN_OK);
	ck_assert_int_eq(((int64_t *)c.out[0])[3], 2);
	done(&c);
}
END_TEST

static void expect_err(struct call *c, const char *op, enum vops_err code, const char *word)
{
	ck_assert_int_eq(plan(c, op), code);
	ck_assert_msg(strstr(c->err.msg, op) && strstr(c->err.msg, word), "%s: \"%s\" lacks %s", op,
		      c->err.msg, word);
}

START_TEST(plan_errors)
{
	struct call c = { 0 };
	int64_t bad[] = { 2 }, twice[] = { 1, -1 };

	c.in = (struct vops_tensor){ .dtype = ACL_INT32, .ndim = 2, .dims = d23 };
	c.at[0] = a_ints("axes", 1, bad);
	c.nat = 1;
	expect_err(&c, "LpNormV2", VOPS_ERR_DTYPE, "ACL_INT32");
	c.nat = 0;
	expect_err(&c, "HardMax", VOPS_ERR_DTYPE, "ACL_INT32");
	c.nat = 1;
	c.in.dtype = ACL_COMPLEX64;
	expect_err(&c, "ReduceMeanD", VOPS_ERR_DTYPE, "ACL_COMPLEX64");
	c.in.dtype = ACL_FLOAT;
	expect_err(&c, "ReduceMeanD", VOPS_ERR_ATTR, "axis 2");
	c.at[0] = a_ints("axes", 2, twice);
	expect_err(&c, "ReduceProdD", VOPS_ERR_ATTR, "twice");
	c.nat = 0;
	expect_err(&c, "ReduceMinD", VOPS_ERR_ATTR, "axes");
	expect_err(&c, "SquareSumV1", VOPS_ERR_ATTR, "axis");
	expect_err(&c, "ArgMaxD", VOPS_ERR_ATTR, "dimension");
	c.nout = 2;
	expect_err(&c, "TopKD", VOPS_ERR_ATTR, "k");
	c.at[0] = a_int("k", 4);
	c.nat = 1;
	expect_err(&c, "TopKD", VOPS_ERR_ATTR, "k 4");
	c.at[1] = a_dt("indices_dtype", ACL_FLOAT);
	c.at[0] = a_int("k", 1);
	c.nat = 2;
	expect_err(&c, "TopKD", VOPS_ERR_ATTR, "indices_dtype");
	c.nout = 1;
	c.at[0] = a_int("dimension", 0);
	c.at[1] = a_dt("dtype", ACL_INT16);
	expect_err(&c, "ArgMinD", VOPS_ERR_ATTR, "dtype");
	c.at[0] = a_int("axis", 5);
	c.nat = 1;
	expect_err(&c, "CumsumD", VOPS_ERR_ATTR, "axis 5");
	c.at[0] = a_int("keep_dims", 1);
	expect_err(&c, "HardMax", VOPS_ERR_ATTR, "keep_dims");
	/* a maximum over an empty axis has no value */
	{
		const int64_t e[] = { 2, 0 };
		int64_t ax[] = { 1 };

		c.in.dims = e;
		c.at[0] = a_ints("axes", 1, ax);
		expect_err(&c, "ReduceMinD", VOPS_ERR_INPUT, "empty");
		ck_assert_int_eq(plan(&c, "ReduceMeanD"), VOPS_OK);
		ck_assert(!c.plan.empty);
	}
}
END_TEST

/* The parameter block starts 8 + 8 * (ni + nf) bytes before the end. */
static void corrupt_param(struct call *c, unsigned int ni, unsigned int nf, unsigned int k,
			  int64_t v)
{
	unsigned char *d = c->plan.desc + c->plan.desc_size - 8 * (ni + nf) + 8 * k;
	int b;

	for (b = 0; b < 8; b++)
		d[b] = (unsigned char)((uint64_t)v >> (8 * b));
}

static void expect_fault(struct call *c, const float *x, uint64_t xbytes)
{
	int i;

	ck_assert_int_eq(run(c, x, xbytes), VOPS_RUN_FAULT);
	for (i = 0; i < c->plan.nout; i++) {
		const unsigned char *o = c->out[i];
		uint64_t j;

		for (j = 0; j < c->plan.out[i].bytes; j++)
			ck_assert_int_eq(o[j], 0x5a);
	}
	done(c);
}

START_TEST(hostile_descriptors)
{
	struct call c = { 0 };
	int64_t ax[] = { 1 };

	c.in = (struct vops_tensor){ .dtype = ACL_FLOAT, .ndim = 2, .dims = d23 };
	c.at[0] = a_ints("axes", 1, ax);
	c.nat = 1;
	/* ReduceMeanD: i = {flags, 1}; an axis past the rank, then unknown flags */
	ck_assert_int_eq(plan(&c, "ReduceMeanD"), VOPS_OK);
	corrupt_param(&c, 2, 0, 1, 7);
	expect_fault(&c, x23, sizeof(x23));
	ck_assert_int_eq(plan(&c, "ReduceMeanD"), VOPS_OK);
	corrupt_param(&c, 2, 0, 0, 0x100);
	expect_fault(&c, x23, sizeof(x23));
	/* a larger first dimension than the operand holds */
	ck_assert_int_eq(plan(&c, "ReduceMeanD"), VOPS_OK);
	c.plan.desc[16 + 8] = 200;
	ck_assert_int_eq(run(&c, x23, sizeof(x23)), VOPS_RUN_FAULT);
	done(&c);
	/* TopKD: i = {flags, axis, k, indices type}; k past the dimension */
	c.at[0] = a_int("k", 2);
	c.nout = 2;
	ck_assert_int_eq(plan(&c, "TopKD"), VOPS_OK);
	corrupt_param(&c, 4, 0, 2, 100);
	expect_fault(&c, x23, sizeof(x23));
	/* ArgMaxD: i = {flags, axis, dtype}; an output type that is not an index */
	c.nout = 1;
	c.at[0] = a_int("dimension", 1);
	c.nat = 1;
	ck_assert_int_eq(plan(&c, "ArgMaxD"), VOPS_OK);
	corrupt_param(&c, 3, 0, 2, ACL_FLOAT);
	expect_fault(&c, x23, sizeof(x23));
}
END_TEST

static Suite *reduce_suite(void)
{
	Suite *s = suite_create("vnpu_ops_reduce");
	TCase *tc = tcase_create("reduce");

	tcase_add_test(tc, reduce_mean_min_prod);
	tcase_add_test(tc, reduce_norms_logs);
	tcase_add_test(tc, argmax_argmin);
	tcase_add_test(tc, cumsum);
	tcase_add_test(tc, topk);
	tcase_add_test(tc, hardmax_logsoftmax);
	tcase_add_test(tc, dtype_classes);
	tcase_add_test(tc, views);
	tcase_add_test(tc, plan_errors);
	tcase_add_test(tc, hostile_descriptors);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(reduce_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
