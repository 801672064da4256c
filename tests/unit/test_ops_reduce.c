// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for lib/ops' reduce family (op_reduce2.c), and for
 * version 1's ReduceSumD, ReduceMaxD and SoftmaxV2 on the types that run
 * on its engine, through the public API: vops_plan() a call, vops_run() its descriptor on host
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

/* CumprodD: inclusive and exclusive, reversed, integers wrapping, the
 * axis required (CANN's) and in range. */
START_TEST(cumprod)
{
	struct call c = { 0 };
	const double x[] = { 1, 2, 3, 4, 5, 6 };
	const int32_t xi[] = { 1, 2, 3, 4, 5, 6 };
	const uint8_t xu[] = { 16, 16, 3 };
	const int64_t d3[] = { 3 };
	const double *o;
	const int32_t *oi;
	const uint8_t *ou;

	c.in = (struct vops_tensor){ .dtype = ACL_DOUBLE, .ndim = 2, .dims = d23 };
	c.at[0] = a_int("axis", 1);
	c.nat = 1;
	ck_assert_int_eq(plan(&c, "CumprodD"), VOPS_OK);
	ck_assert_int_eq(run(&c, x, sizeof(x)), VOPS_RUN_OK);
	o = c.out[0];
	ck_assert(o[0] == 1 && o[1] == 2 && o[2] == 6 && o[3] == 4 && o[4] == 20 && o[5] == 120);
	done(&c);
	c.at[1] = a_bool("exclusive", true);
	c.at[2] = a_bool("reverse", true);
	c.nat = 3;
	ck_assert_int_eq(plan(&c, "CumprodD"), VOPS_OK);
	ck_assert_int_eq(run(&c, x, sizeof(x)), VOPS_RUN_OK);
	o = c.out[0];
	ck_assert(o[0] == 6 && o[1] == 3 && o[2] == 1 && o[3] == 30 && o[4] == 6 && o[5] == 1);
	done(&c);
	/* int32 along axis -2 (0) */
	c.in.dtype = ACL_INT32;
	c.at[0] = a_int("axis", -2);
	c.nat = 1;
	ck_assert_int_eq(plan(&c, "CumprodD"), VOPS_OK);
	ck_assert_int_eq(run(&c, xi, sizeof(xi)), VOPS_RUN_OK);
	oi = c.out[0];
	ck_assert(oi[0] == 1 && oi[2] == 3 && oi[3] == 4 && oi[4] == 10 && oi[5] == 18);
	done(&c);
	/* uint8 wraps: 16 * 16 = 256 = 0 */
	c.in = (struct vops_tensor){ .dtype = ACL_UINT8, .ndim = 1, .dims = d3 };
	c.at[0] = a_int("axis", 0);
	ck_assert_int_eq(plan(&c, "CumprodD"), VOPS_OK);
	ck_assert_int_eq(run(&c, xu, sizeof(xu)), VOPS_RUN_OK);
	ou = c.out[0];
	ck_assert(ou[0] == 16 && ou[1] == 0 && ou[2] == 0);
	done(&c);
	c.nat = 0;
	ck_assert_int_eq(plan(&c, "CumprodD"), VOPS_ERR_ATTR);
	ck_assert_msg(strstr(c.err.msg, "axis"), "%s", c.err.msg);
	c.at[0] = a_int("axis", 1);
	c.nat = 1;
	ck_assert_int_eq(plan(&c, "CumprodD"), VOPS_ERR_ATTR);
	c.in.dtype = ACL_BOOL;
	c.at[0] = a_int("axis", 0);
	ck_assert_int_eq(plan(&c, "CumprodD"), VOPS_ERR_DTYPE);
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

/* ---- version 1's ReduceSumD, ReduceMaxD, SoftmaxV2 on the types their kernels do not take ---- */

static const int32_t v1_ints[] = {
	ACL_INT8, ACL_UINT8, ACL_INT16, ACL_UINT16, ACL_UINT32, ACL_INT64, ACL_UINT64,
};

static bool dt_unsigned(int32_t dt)
{
	return dt == ACL_UINT8 || dt == ACL_UINT16 || dt == ACL_UINT32 || dt == ACL_UINT64 ||
	       dt == ACL_BOOL;
}

/* Element @i of integer type @dt at @p: set to @v (its low bits), or read (as int64 bits). */
static void put_i(int32_t dt, void *p, uint64_t i, int64_t v)
{
	switch (dt) {
	case ACL_INT8: ((int8_t *)p)[i] = (int8_t)v; break;
	case ACL_UINT8: ((uint8_t *)p)[i] = (uint8_t)v; break;
	case ACL_BOOL: ((uint8_t *)p)[i] = v != 0; break;
	case ACL_INT16: ((int16_t *)p)[i] = (int16_t)v; break;
	case ACL_UINT16: ((uint16_t *)p)[i] = (uint16_t)v; break;
	case ACL_INT32: ((int32_t *)p)[i] = (int32_t)v; break;
	case ACL_UINT32: ((uint32_t *)p)[i] = (uint32_t)v; break;
	default: ((int64_t *)p)[i] = v; break;
	}
}

static int64_t get_i(int32_t dt, const void *p, uint64_t i)
{
	switch (dt) {
	case ACL_INT8: return ((const int8_t *)p)[i];
	case ACL_UINT8: case ACL_BOOL: return ((const uint8_t *)p)[i];
	case ACL_INT16: return ((const int16_t *)p)[i];
	case ACL_UINT16: return ((const uint16_t *)p)[i];
	case ACL_INT32: return ((const int32_t *)p)[i];
	case ACL_UINT32: return ((const uint32_t *)p)[i];
	default: return ((const int64_t *)p)[i];
	}
}

/* Wrap @v to type @dt, as the type holds it. */
static int64_t wrap_i(int32_t dt, int64_t v)
{
	int64_t b;

	put_i(dt, &b, 0, v);
	return get_i(dt, &b, 0);
}

static const int64_t d234[] = { 2, 3, 4 };

/* The output element of input element @i of [2, 3, 4] reduced over the axes @m (bits). */
static unsigned int out_index(unsigned int i, unsigned int m)
{
	unsigned int idx[3] = { i / 12, i / 4 % 3, i % 4 }, o = 0, d;

	for (d = 0; d < 3; d++)
		if (!(m & (1u << d)))
			o = o * (unsigned int)d234[d] + idx[d];
	return o;
}

/* ReduceSumD and ReduceMaxD of integer type @dt over [2, 3, 4] with the axes @m. */
static void check_int_reduce(int32_t dt, bool max, unsigned int m)
{
	const char *op = max ? "ReduceMaxD" : "ReduceSumD";
	int64_t x[24], want[24], ax[3];
	bool have[24] = { false };
	struct call c = { 0 };
	unsigned int i, n = 0, nout = 1, d;
	uint64_t es = vops_dtype_size(dt);

	for (d = 0; d < 3; d++)
		if (m & (1u << d))
			ax[n++] = d;
		else
			nout *= (unsigned int)d234[d];
	/* values that overflow the narrow types when summed, some negative, extremes at the ends */
	for (i = 0; i < 24; i++)
		put_i(dt, x, i, (int64_t)(i * 2654435761u) - (int64_t)(i % 3 ? 0 : 1ll << 31) * 9);
	put_i(dt, x, 5, dt_unsigned(dt) ? -1 : INT64_MAX);	/* the type's largest */
	put_i(dt, x, 17, dt_unsigned(dt) ? 0 : INT64_MIN);	/* the smallest */
	for (i = 0; i < 24; i++) {
		unsigned int o = out_index(i, m);
		int64_t v = get_i(dt, x, i);

		if (max)
			want[o] = !have[o] || (dt_unsigned(dt) ? (uint64_t)v > (uint64_t)want[o] :
					       v > want[o]) ? v : want[o];
		else
			want[o] = (int64_t)((uint64_t)(have[o] ? want[o] : 0) + (uint64_t)v);
		have[o] = true;
	}
	c.in = (struct vops_tensor){ .dtype = dt, .ndim = 3, .dims = d234 };
	c.at[0] = a_ints("axes", (int)n, ax);
	c.nat = 1;
	ck_assert_msg(plan(&c, op) == VOPS_OK, "%s %s: %s", op, vops_dtype_name(dt), c.err.msg);
	ck_assert_uint_eq(c.plan.out[0].dtype, dt);
	ck_assert_uint_eq(c.plan.out[0].bytes, nout * es);
	ck_assert_uint_eq(c.plan.ws_bytes, 0);	/* the generic engine: no chain, no workspace */
	ck_assert_int_eq(c.plan.in_place, 1);
	ck_assert_int_eq(run(&c, x, 24 * es), VOPS_RUN_OK);
	for (i = 0; i < nout; i++)
		ck_assert_msg(get_i(dt, c.out[0], i) == wrap_i(dt, want[i]),
			      "%s %s axes 0x%x: element %u is %lld, want %lld", op, vops_dtype_name(dt),
			      m, i, (long long)get_i(dt, c.out[0], i), (long long)wrap_i(dt, want[i]));
	done(&c);
}

START_TEST(v1_reduce_ints)
{
	static const unsigned int masks[] = { 1, 2, 4, 3, 5, 7, 0 };	/* 5: not adjacent; 0: [] */
	size_t t, k;

	for (t = 0; t < sizeof(v1_ints) / sizeof(v1_ints[0]); t++)
		for (k = 0; k < sizeof(masks) / sizeof(masks[0]); k++) {
			check_int_reduce(v1_ints[t], false, masks[k]);
			check_int_reduce(v1_ints[t], true, masks[k]);
		}
}
END_TEST

/* Wrapping and unsigned order at the edges of the types. */
START_TEST(v1_reduce_int_edges)
{
	struct call c = { 0 };
	int64_t ax[] = { 0 };
	const int64_t d2[] = { 2 }, d6[] = { 2, 3 };
	const uint8_t u8[] = { 200, 100 }, b[] = { 0, 0, 0, 0, 1, 0 };
	const int64_t i64[] = { INT64_MAX, 1 };
	const uint64_t u64[] = { 1ull << 63, UINT64_MAX - 1 };

	c.in = (struct vops_tensor){ .dtype = ACL_UINT8, .ndim = 1, .dims = d2 };
	c.at[0] = a_ints("axes", 1, ax);
	c.nat = 1;
	ck_assert_int_eq(plan(&c, "ReduceSumD"), VOPS_OK);
	ck_assert_int_eq(run(&c, u8, sizeof(u8)), VOPS_RUN_OK);
	ck_assert_int_eq(*(uint8_t *)c.out[0], 44);	/* 300 mod 256 */
	done(&c);
	c.in.dtype = ACL_INT64;
	ck_assert_int_eq(plan(&c, "ReduceSumD"), VOPS_OK);
	ck_assert_int_eq(run(&c, i64, sizeof(i64)), VOPS_RUN_OK);
	ck_assert(*(int64_t *)c.out[0] == INT64_MIN);
	done(&c);
	c.in.dtype = ACL_UINT64;
	ck_assert_int_eq(plan(&c, "ReduceMaxD"), VOPS_OK);
	ck_assert_int_eq(run(&c, u64, sizeof(u64)), VOPS_RUN_OK);
	ck_assert(*(uint64_t *)c.out[0] == UINT64_MAX - 1);
	done(&c);
	ck_assert_int_eq(plan(&c, "ReduceSumD"), VOPS_OK);
	ck_assert_int_eq(run(&c, u64, sizeof(u64)), VOPS_RUN_OK);
	ck_assert(*(uint64_t *)c.out[0] == (1ull << 63) - 2);
	done(&c);
	/* ReduceMaxD of bool: any; ReduceSumD refuses bool */
	ax[0] = 1;
	c.in = (struct vops_tensor){ .dtype = ACL_BOOL, .ndim = 2, .dims = d6 };
	ck_assert_int_eq(plan(&c, "ReduceMaxD"), VOPS_OK);
	ck_assert_int_eq(run(&c, b, sizeof(b)), VOPS_RUN_OK);
	ck_assert(((uint8_t *)c.out[0])[0] == 0 && ((uint8_t *)c.out[0])[1] == 1);
	done(&c);
	expect_err(&c, "ReduceSumD", VOPS_ERR_DTYPE, "ACL_BOOL");
	c.in.dtype = ACL_INT8;
	expect_err(&c, "SoftmaxV2", VOPS_ERR_DTYPE, "ACL_INT8");
	c.in.dtype = ACL_COMPLEX64;
	expect_err(&c, "ReduceMaxD", VOPS_ERR_DTYPE, "ACL_COMPLEX64");
	/* an empty axis stays an error, as for version 1's types */
	{
		const int64_t e[] = { 2, 0 };

		c.in = (struct vops_tensor){ .dtype = ACL_INT64, .ndim = 2, .dims = e };
		expect_err(&c, "ReduceSumD", VOPS_ERR_INPUT, "empty axis");
	}
}
END_TEST

/* fp64: sums in double (compensated), maxima propagate NaN, softmax in double. */
START_TEST(v1_fp64)
{
	static const unsigned int masks[] = { 1, 2, 4, 3, 5, 6, 7 };
	const int64_t d3[] = { 3 };
	const double big[] = { 1e16, 1, -1e16 };
	double x[24], s[24], mx[24], sm[24], z[24];
	struct call c = { 0 };
	int64_t ax[3];
	size_t k;
	unsigned int i, n, d;

	for (i = 0; i < 24; i++)
		x[i] = (double)((i * 7) % 24) * 0.375 - 4.0 + 1e-9 * i;
	for (k = 0; k < sizeof(masks) / sizeof(masks[0]); k++) {
		unsigned int m = masks[k], nout = 1;

		for (d = 0, n = 0; d < 3; d++)
			if (m & (1u << d))
				ax[n++] = d;
			else
				nout *= (unsigned int)d234[d];
		for (i = 0; i < 24; i++)
			s[i] = z[i] = 0, mx[i] = -INFINITY;
		for (i = 0; i < 24; i++) {
			s[out_index(i, m)] += x[i];
			mx[out_index(i, m)] = fmax(mx[out_index(i, m)], x[i]);
		}
		for (i = 0; i < 24; i++)
			z[out_index(i, m)] += exp(x[i] - mx[out_index(i, m)]);
		for (i = 0; i < 24; i++)
			sm[i] = exp(x[i] - mx[out_index(i, m)]) / z[out_index(i, m)];
		c.in = (struct vops_tensor){ .dtype = ACL_DOUBLE, .ndim = 3, .dims = d234 };
		c.at[0] = a_ints("axes", (int)n, ax);
		c.nat = 1;
		ck_assert_int_eq(plan(&c, "ReduceSumD"), VOPS_OK);
		ck_assert_uint_eq(c.plan.ws_bytes, 0);
		ck_assert_int_eq(run(&c, x, sizeof(x)), VOPS_RUN_OK);
		for (i = 0; i < nout; i++)
			ck_assert_msg(fabs(((double *)c.out[0])[i] - s[i]) <= 1e-14 * (1 + fabs(s[i])),
				      "sum axes 0x%x element %u: %.17g, want %.17g", m, i,
				      ((double *)c.out[0])[i], s[i]);
		done(&c);
		ck_assert_int_eq(plan(&c, "ReduceMaxD"), VOPS_OK);
		ck_assert_int_eq(run(&c, x, sizeof(x)), VOPS_RUN_OK);
		for (i = 0; i < nout; i++)
			ck_assert(((double *)c.out[0])[i] == mx[i]);
		done(&c);
		if (m == 5) {	/* not adjacent: SoftmaxV2 refuses, as before */
			expect_err(&c, "SoftmaxV2", VOPS_ERR_ATTR, "adjacent");
			continue;
		}
		ck_assert_msg(plan(&c, "SoftmaxV2") == VOPS_OK, "%s", c.err.msg);
		ck_assert_uint_eq(c.plan.ws_bytes, 0);
		ck_assert_int_eq(run(&c, x, sizeof(x)), VOPS_RUN_OK);
		for (i = 0; i < 24; i++)
			ck_assert_msg(fabs(((double *)c.out[0])[i] - sm[i]) <= 1e-15,
				      "softmax axes 0x%x element %u: %.17g, want %.17g", m, i,
				      ((double *)c.out[0])[i], sm[i]);
		done(&c);
	}
	/* compensated: 1e16 + 1 - 1e16 is 1 (a plain double loop says 0) */
	c.in = (struct vops_tensor){ .dtype = ACL_DOUBLE, .ndim = 1, .dims = d3 };
	ax[0] = 0;
	c.at[0] = a_ints("axes", 1, ax);
	ck_assert_int_eq(plan(&c, "ReduceSumD"), VOPS_OK);
	ck_assert_int_eq(run(&c, big, sizeof(big)), VOPS_RUN_OK);
	ck_assert(*(double *)c.out[0] == 1.0);
	done(&c);
	/* NaN propagates through a maximum and a softmax; the default axis is the last */
	x[1] = NAN;
	ck_assert_int_eq(plan(&c, "ReduceMaxD"), VOPS_OK);
	ck_assert_int_eq(run(&c, x, sizeof(big)), VOPS_RUN_OK);
	ck_assert(isnan(*(double *)c.out[0]));
	done(&c);
	c.nat = 0;
	ck_assert_int_eq(plan(&c, "SoftmaxV2"), VOPS_OK);
	ck_assert_int_eq(run(&c, x, sizeof(big)), VOPS_RUN_OK);
	ck_assert(isnan(((double *)c.out[0])[0]) && isnan(((double *)c.out[0])[2]));
	done(&c);
}
END_TEST

/* In place (the output on the input), and a view through vops_run()'s dense copy. */
START_TEST(v1_in_place_and_views)
{
	int16_t x[24], want[6] = { 0 };
	const int64_t tdims[] = { 3, 2 }, tst[] = { 1, 3 };
	const int8_t i8[] = { 100, 100, 7, -1, 2, 3 };
	struct vops_operand ops[2];
	struct call c = { 0 };
	int64_t ax[] = { 2 };
	char why[256];
	unsigned int i;

	for (i = 0; i < 24; i++) {
		x[i] = (int16_t)(i * 3001 - 20000);
		want[i / 4] = (int16_t)(want[i / 4] + x[i]);
	}
	c.in = (struct vops_tensor){ .dtype = ACL_INT16, .ndim = 3, .dims = d234 };
	c.at[0] = a_ints("axes", 1, ax);
	c.nat = 1;
	ck_assert_int_eq(plan(&c, "ReduceSumD"), VOPS_OK);
	ck_assert_int_eq(c.plan.in_place, 1);
	ops[0] = (struct vops_operand){ x, sizeof(x), VNPU_OPERAND_READ };
	ops[1] = (struct vops_operand){ x, c.plan.out[0].bytes, VNPU_OPERAND_WRITE };
	ck_assert_int_eq(vops_run(c.plan.desc, c.plan.desc_size, ops, 2, NULL, why, sizeof(why)),
			 VOPS_RUN_OK);
	for (i = 0; i < 6; i++)
		ck_assert_int_eq(x[i], want[i]);
	/* int8 [2, 3] seen as its transpose [3, 2]: sums of the columns, wrapped */
	c.in = (struct vops_tensor){ .dtype = ACL_INT8, .ndim = 2, .dims = tdims, .strides = tst };
	ax[0] = 1;
	ck_assert_int_eq(plan(&c, "ReduceSumD"), VOPS_OK);
	ck_assert_uint_ge(c.plan.ws_bytes, 6);	/* the dense copy */
	ck_assert_int_eq(run(&c, i8, sizeof(i8)), VOPS_RUN_OK);
	ck_assert(((int8_t *)c.out[0])[0] == 99 && ((int8_t *)c.out[0])[1] == 102 &&
		  ((int8_t *)c.out[0])[2] == 10);
	done(&c);
	ck_assert_int_eq(plan(&c, "ReduceMaxD"), VOPS_OK);
	ck_assert_int_eq(run(&c, i8, sizeof(i8)), VOPS_RUN_OK);
	ck_assert(((int8_t *)c.out[0])[0] == 100 && ((int8_t *)c.out[0])[1] == 100 &&
		  ((int8_t *)c.out[0])[2] == 7);
	done(&c);
}
END_TEST

/*
 * A descriptor of each new type: it runs; a first dimension larger than
 * the operand holds faults, writing nothing; so does a type the operator
 * does not take, and a wider type than the operand holds.
 */
static void v1_desc_case(const char *op, int32_t dt, int32_t refused)
{
	unsigned char x[24 * 8] = { 0 };
	struct call c = { 0 };
	int64_t ax[] = { 1 };

	c.in = (struct vops_tensor){ .dtype = dt, .ndim = 3, .dims = d234 };
	c.at[0] = a_ints("axes", 1, ax);
	c.nat = 1;
	ck_assert_msg(plan(&c, op) == VOPS_OK, "%s %s: %s", op, vops_dtype_name(dt), c.err.msg);
	ck_assert_int_eq(c.plan.desc[16] | c.plan.desc[17] << 8, dt);
	ck_assert_int_eq(run(&c, x, 24 * vops_dtype_size(dt)), VOPS_RUN_OK);
	done(&c);
	c.plan.desc[16 + 8] = 3;	/* dims[0] 2 -> 3 */
	expect_fault(&c, (const float *)x, 24 * vops_dtype_size(dt));
	ck_assert_int_eq(plan(&c, op), VOPS_OK);
	c.plan.desc[16] = (unsigned char)refused;
	c.plan.desc[17] = (unsigned char)(refused >> 8);
	expect_fault(&c, (const float *)x, sizeof(x));
	if (vops_dtype_size(dt) < 8) {
		ck_assert_int_eq(plan(&c, op), VOPS_OK);
		c.plan.desc[16] = ACL_DOUBLE;
		c.plan.desc[17] = 0;
		expect_fault(&c, (const float *)x, 24 * vops_dtype_size(dt));
	}
}

START_TEST(v1_descriptors)
{
	size_t t;

	for (t = 0; t < sizeof(v1_ints) / sizeof(v1_ints[0]); t++) {
		v1_desc_case("ReduceSumD", v1_ints[t], ACL_BOOL);
		v1_desc_case("ReduceMaxD", v1_ints[t], ACL_COMPLEX64);
	}
	v1_desc_case("ReduceSumD", ACL_DOUBLE, ACL_BOOL);
	v1_desc_case("ReduceMaxD", ACL_DOUBLE, ACL_STRING);
	v1_desc_case("ReduceMaxD", ACL_BOOL, ACL_COMPLEX64);
	v1_desc_case("SoftmaxV2", ACL_DOUBLE, ACL_INT64);
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
	tcase_add_test(tc, cumprod);
	tcase_add_test(tc, topk);
	tcase_add_test(tc, hardmax_logsoftmax);
	tcase_add_test(tc, dtype_classes);
	tcase_add_test(tc, views);
	tcase_add_test(tc, plan_errors);
	tcase_add_test(tc, hostile_descriptors);
	tcase_add_test(tc, v1_reduce_ints);
	tcase_add_test(tc, v1_reduce_int_edges);
	tcase_add_test(tc, v1_fp64);
	tcase_add_test(tc, v1_in_place_and_views);
	tcase_add_test(tc, v1_descriptors);
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
