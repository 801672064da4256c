// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of lib/ops' unary family (lib/ops/op_unary.c) through the
 * public API: vops_plan() a call, vops_run() its descriptor on host
 * memory, compare with values computed here in double (libm).
 *
 * Every operator on fp32 (within 4 ulp of the double reference rounded to
 * fp32); the half types and fp64 (exact: one rounding of the double
 * result); integers for Neg and Sign; bool outputs of IsNan and IsInf;
 * views (transposed, broadcast, offset); planning errors naming the
 * operator; descriptors whose parameters or shapes were corrupted
 * faulting without writing the output; empty tensors and cancellation.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_base.h"
#include "vnpu_drm.h"
#include "vnpu_ops.h"

/* ---- helpers --------------------------------------------------------------- */

static struct vops_attr fattr(const char *name, float v)
{
	return (struct vops_attr){ .name = (char *)name, .kind = VOPS_ATTR_FLOAT, .f = v };
}

static struct vops_attr battr(const char *name, bool v)
{
	return (struct vops_attr){ .name = (char *)name, .kind = VOPS_ATTR_BOOL, .b = v };
}

static struct vops_attr iattr(const char *name, int64_t v)
{
	return (struct vops_attr){ .name = (char *)name, .kind = VOPS_ATTR_INT, .i = v };
}

static struct vops_attr sattr(const char *name, const char *v)
{
	return (struct vops_attr){ .name = (char *)name, .kind = VOPS_ATTR_STRING, .s = (char *)v };
}

static struct vops_tensor tensor(int32_t dt, int ndim, const int64_t *dims)
{
	return (struct vops_tensor){ .dtype = dt, .ndim = ndim, .dims = dims };
}

/* Plan @type on @x; fails the test unless it plans. */
static void plan_ok(const char *type, const struct vops_tensor *x, const struct vops_attr *a,
		    unsigned int na, struct vops_plan *p)
{
	struct vops_error e;
	enum vops_err r = vops_plan(type, 1, x, 1, a, na, p, &e);

	ck_assert_msg(r == VOPS_OK, "%s: vops_plan %d: %s", type, r, e.msg);
}

/* Run descriptor @desc of plan @p on @x into @y (sizes from @p). */
static enum vops_run_status run_desc(const struct vops_plan *p, const void *desc, size_t size,
				     const void *x, void *y, const struct vops_ctl *ctl)
{
	struct vops_operand o[3] = {
		{ (void *)x, p->in_bytes[0], VNPU_OPERAND_READ },
		{ y, p->out[0].bytes, VNPU_OPERAND_WRITE },
	};
	char why[256];

	ck_assert_uint_eq(p->ws_bytes, 0);
	return vops_run(desc, size, o, 2, ctl, why, sizeof(why));
}

/* Plan and run @type on @x (of @t) into @y; must succeed. */
static void run_ok(const char *type, const struct vops_tensor *t, const struct vops_attr *a,
		   unsigned int na, const void *x, void *y)
{
	struct vops_plan *p = malloc(sizeof(*p));

	ck_assert_ptr_nonnull(p);
	plan_ok(type, t, a, na, p);
	ck_assert_int_eq(run_desc(p, p->desc, p->desc_size, x, y, NULL), VOPS_RUN_OK);
	free(p);
}

/* Planning @type on @x must fail with @code and a message naming @type. */
static void plan_fails(const char *type, const struct vops_tensor *x, const struct vops_attr *a,
		       unsigned int na, enum vops_err code)
{
	struct vops_plan *p = malloc(sizeof(*p));
	struct vops_error e = { 0 };

	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(vops_plan(type, 1, x, 1, a, na, p, &e), code);
	ck_assert_msg(strstr(e.msg, type), "message \"%s\" does not name %s", e.msg, type);
	free(p);
}

/* fp32 @got within 4 ulp of @want (NaN for NaN; infinities exactly). */
static bool close32(float got, double want)
{
	float w = (float)want;

	if (isnan(w))
		return isnan(got);
	if (isinf(w) || w == 0)
		return got == w || fabs((double)got - want) < 1e-37;
	return fabs((double)got - (double)w) <= 4 * (nextafterf(fabsf(w), INFINITY) - fabsf(w));
}

/* ---- references (written from the formulas, not from lib/ops) ------------- */

static double r_sign(double v) { return v > 0 ? 1 : v < 0 ? -1 : 0; }
static double r_round(double v)
{
	double r = round(v);

	/* round() takes halves away from zero; halves go to the even neighbour. */
	if (fabs(v - trunc(v)) == 0.5)
		r = 2 * round(v / 2);
	return r;
}
static double r_sigmoid(double v) { return 1 / (1 + exp(-v)); }
static double r_hsig(double v) { return fmin(1, fmax(0, 0.16666666 * v + 0.5)); }
static double r_hswish(double v) { return v * fmin(1, fmax(0, (v + 3) / 6)); }
static double r_elu(double v) { return v >= 0 ? v : exp(v) - 1; }
static double r_selu(double v)
{
	return 1.0507009873554804934 * (v >= 0 ? v : 1.6732632423543772848 * (exp(v) - 1));
}
static double r_celu(double v) { return fmax(0, v) + fmin(0, exp(v) - 1); }
static double r_softplus(double v) { return log(1 + exp(v)); }
static double r_softsign(double v) { return v / (1 + fabs(v)); }
static double r_trelu(double v) { return v > 1 ? v : 0; }
static double r_shrink(double v) { return v > 0.5 ? v : v < -0.5 ? v : 0; }
static double r_leaky(double v) { return v >= 0 ? v : 0; }
static double r_neg(double v) { return -v; }
static double r_recip(double v) { return 1 / v; }
static double r_gelu(double v)
{
	double c = sqrt(2 / M_PI);

	return v / 2 * (1 + tanh(c * (v + 0.044715 * pow(v, 3))));
}
static double r_gelu_erf(double v) { return v / 2 * (1 + erf(v / sqrt(2))); }
static double r_rsqrt(double v) { return 1 / sqrt(v); }
static double r_swish(double v) { return v / (1 + exp(-v)); }

/* One operator on fp32 with CANN's default attributes, inputs in [lo, hi]. */
static const struct fcase {
	const char *type;
	double (*ref)(double);
	double lo, hi;
} fcases[] = {
	{ "Neg", r_neg, -4, 4 },		{ "LeakyRelu", r_leaky, -4, 4 },
	{ "Sign", r_sign, -4, 4 },		{ "Ceil", ceil, -4, 4 },
	{ "Floor", floor, -4, 4 },		{ "Round", r_round, -4, 4 },
	{ "Reciprocal", r_recip, 0.25, 4 },	{ "Sqrt", sqrt, 0, 9 },
	{ "Exp", exp, -5, 5 },			{ "Log", log, 0.01, 10 },
	{ "Sin", sin, -4, 4 },			{ "Cos", cos, -4, 4 },
	{ "Tan", tan, -1.5, 1.5 },		{ "Asin", asin, -1, 1 },
	{ "Acos", acos, -1, 1 },		{ "Atan", atan, -9, 9 },
	{ "Sinh", sinh, -4, 4 },		{ "Cosh", cosh, -4, 4 },
	{ "Tanh", tanh, -4, 4 },		{ "Asinh", asinh, -9, 9 },
	{ "Acosh", acosh, 1, 9 },		{ "Atanh", atanh, -0.99, 0.99 },
	{ "Erf", erf, -3, 3 },			{ "Sigmoid", r_sigmoid, -8, 8 },
	{ "HardSigmoid", r_hsig, -5, 5 },	{ "HardSwish", r_hswish, -5, 5 },
	{ "Elu", r_elu, -4, 4 },		{ "Selu", r_selu, -4, 4 },
	{ "Celu", r_celu, -4, 4 },		{ "Softplus", r_softplus, -8, 8 },
	{ "Softsign", r_softsign, -8, 8 },	{ "ThresholdedRelu", r_trelu, -3, 3 },
	{ "Shrink", r_shrink, -2, 2 },		{ "Gelu", r_gelu, -4, 4 },
	{ "GeluV2", r_gelu_erf, -4, 4 },	{ "Rsqrt", r_rsqrt, 0.01, 9 },
	{ "Swish", r_swish, -8, 8 },		{ "Expm1", expm1, -4, 4 },
};

#define NF 37

/* Every operator on fp32: NF points over its range (quarter steps hit halves and integers). */
START_TEST(f32_each_op)
{
	const struct fcase *fc = &fcases[_i];
	int64_t dims[1] = { NF };
	struct vops_tensor t = tensor(ACL_FLOAT, 1, dims);
	bool steps = !strcmp(fc->type, "Round") || !strcmp(fc->type, "Ceil") ||
		     !strcmp(fc->type, "Floor");
	float x[NF], y[NF];
	int j;

	/* The rounding operators on -4.5, -4.25, ..., 4.5. */
	for (j = 0; j < NF; j++)
		x[j] = steps ? (float)(j / 4.0 - 4.5) :
			       (float)(fc->lo + (fc->hi - fc->lo) * j / (NF - 1));
	run_ok(fc->type, &t, NULL, 0, x, y);
	for (j = 0; j < NF; j++)
		ck_assert_msg(close32(y[j], fc->ref(x[j])), "%s(%.9g) = %.9g, want %.9g", fc->type,
			      (double)x[j], (double)y[j], fc->ref(x[j]));
}
END_TEST

/* Expm1 keeps the digits exp(x) - 1 loses near 0 (why CANN has it):
 * fp64 at 1e-10 and fp32 at 1e-7, both within an ulp or two. */
START_TEST(expm1_small)
{
	int64_t d1[1] = { 2 };
	struct vops_tensor t = tensor(ACL_DOUBLE, 1, d1);
	double xd[2] = { 1e-10, -1e-12 }, yd[2];
	float xf[2] = { 1e-7f, -3e-8f }, yf[2];

	run_ok("Expm1", &t, NULL, 0, xd, yd);
	ck_assert(fabs(yd[0] - 1.00000000005e-10) < 1e-24);
	ck_assert(fabs(yd[1] - -9.999999999995e-13) < 1e-26);
	t.dtype = ACL_FLOAT;
	run_ok("Expm1", &t, NULL, 0, xf, yf);
	ck_assert(fabsf(yf[0] - 1.00000005e-7f) <= 2e-14f);
	ck_assert(fabsf(yf[1] - -2.99999996e-8f) <= 1e-14f);
	t.dtype = ACL_INT32;
	plan_fails("Expm1", &t, NULL, 0, VOPS_ERR_DTYPE);
}
END_TEST

/* Round: halves to even, the sign of zero kept. */
START_TEST(round_half_even)
{
	static const float x[] = { 0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 3.49f, 1e30f };
	static const float want[] = { 0, 2, 2, -0.0f, -2, -2, 3, 1e30f };
	int64_t dims[1] = { 8 };
	struct vops_tensor t = tensor(ACL_FLOAT, 1, dims);
	float y[8];
	int j;

	run_ok("Round", &t, NULL, 0, x, y);
	for (j = 0; j < 8; j++) {
		ck_assert_float_eq(y[j], want[j]);
		ck_assert_int_eq(!!signbit(y[j]), !!signbit(want[j]));
	}
}
END_TEST

/* Attributes: each operator's parameters reach the formula. */
START_TEST(attributes)
{
	static const float x[] = { -3, -1, -0.25f, 0, 0.5f, 2 };
	int64_t dims[1] = { 6 };
	struct vops_tensor t = tensor(ACL_FLOAT, 1, dims);
	struct vops_attr a[3];
	float y[6];
	int j;

	a[0] = fattr("negative_slope", 0.1f);
	run_ok("LeakyRelu", &t, a, 1, x, y);
	for (j = 0; j < 6; j++)
		ck_assert(close32(y[j], x[j] < 0 ? 0.1f * x[j] : x[j]));

	a[0] = fattr("alpha", 0.2f), a[1] = fattr("beta", 0.4f);
	run_ok("HardSigmoid", &t, a, 2, x, y);
	for (j = 0; j < 6; j++)
		ck_assert(close32(y[j], fmin(1, fmax(0, (double)0.2f * x[j] + (double)0.4f))));

	a[0] = fattr("alpha", 2), a[1] = fattr("scale", 3), a[2] = fattr("input_scale", 0.5f);
	run_ok("Elu", &t, a, 3, x, y);
	for (j = 0; j < 6; j++)
		ck_assert(close32(y[j], x[j] > 0 ? 3 * x[j] : 6 * (exp(0.5 * x[j]) - 1)));

	a[0] = fattr("alpha1", 2), a[1] = fattr("alpha2", 4), a[2] = fattr("alpha3", 3);
	run_ok("Celu", &t, a, 3, x, y);
	for (j = 0; j < 6; j++)
		ck_assert(close32(y[j], 3 * fmax(0, x[j]) + fmin(0, 2 * (exp(x[j] / 4) - 1))));

	a[0] = fattr("alpha", 0.4f);
	run_ok("ThresholdedRelu", &t, a, 1, x, y);
	for (j = 0; j < 6; j++)
		ck_assert(close32(y[j], x[j] > 0.4f ? x[j] : 0));

	a[0] = fattr("lambd", 0.75f), a[1] = fattr("bias", 0.5f);
	run_ok("Shrink", &t, a, 2, x, y);
	for (j = 0; j < 6; j++)
		ck_assert(close32(y[j], x[j] < -0.75 ? x[j] + 0.5 : x[j] > 0.75 ? x[j] - 0.5 : 0));

	/* Exp: 2^(0.5 x + 1); Log: log_10(1 + 2 x) on x > -0.5. */
	a[0] = fattr("base", 2), a[1] = fattr("scale", 0.5f), a[2] = fattr("shift", 1);
	run_ok("Exp", &t, a, 3, x, y);
	for (j = 0; j < 6; j++)
		ck_assert(close32(y[j], pow(2, 0.5 * x[j] + 1)));
	a[0] = fattr("base", 10), a[1] = fattr("scale", 2), a[2] = fattr("shift", 1);
	run_ok("Log", &t, a, 3, x, y);
	for (j = 0; j < 6; j++)
		ck_assert(close32(y[j], log10(1 + 2.0 * x[j])));

	a[0] = sattr("approximate", "tanh");
	run_ok("GeluV2", &t, a, 1, x, y);
	for (j = 0; j < 6; j++)
		ck_assert(close32(y[j], r_gelu(x[j])));

	/* Swish: x / (1 + e^(-scale x)), and an Int scale */
	a[0] = fattr("scale", 1.5f);
	run_ok("Swish", &t, a, 1, x, y);
	for (j = 0; j < 6; j++)
		ck_assert(close32(y[j], x[j] / (1 + exp(-1.5 * x[j]))));
	a[0] = iattr("scale", -2);
	run_ok("Swish", &t, a, 1, x, y);
	for (j = 0; j < 6; j++)
		ck_assert(close32(y[j], x[j] / (1 + exp(2.0 * x[j]))));
}
END_TEST

/* fp16, bf16 and fp64: computed in double, rounded once (so exactly the rounded reference). */
START_TEST(half_and_double)
{
	static const char *const ops[] = { "Sqrt", "Exp", "Sigmoid", "Floor", "Neg", "Tanh",
					   "Rsqrt", "Swish" };
	static const double x[] = { 0, 0.125, 0.5, 1, 1.5, 2.75, 3, 7.5 };
	int64_t dims[1] = { 8 };
	unsigned int k;
	int j;

	for (k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
		double (*ref)(double) = NULL;
		uint16_t h[8], hy[8], b[8], by[8];
		double d[8], dy[8];
		struct vops_tensor t;
		unsigned int c;

		for (c = 0; c < sizeof(fcases) / sizeof(fcases[0]); c++)
			if (!strcmp(fcases[c].type, ops[k]))
				ref = fcases[c].ref;
		ck_assert_ptr_nonnull(ref);
		for (j = 0; j < 8; j++) {
			h[j] = vops_f32_to_f16((float)x[j]);
			b[j] = vops_f32_to_bf16((float)x[j]);
			d[j] = x[j];
		}
		t = tensor(ACL_FLOAT16, 1, dims);
		run_ok(ops[k], &t, NULL, 0, h, hy);
		t = tensor(ACL_BF16, 1, dims);
		run_ok(ops[k], &t, NULL, 0, b, by);
		t = tensor(ACL_DOUBLE, 1, dims);
		run_ok(ops[k], &t, NULL, 0, d, dy);
		for (j = 0; j < 8; j++) {
			ck_assert_uint_eq(hy[j], vops_f64_to_f16(ref(x[j])));
			ck_assert_uint_eq(by[j], vops_f64_to_bf16(ref(x[j])));
			ck_assert_msg(dy[j] == ref(x[j]) ||
					      fabs(dy[j] - ref(x[j])) <= 4e-16 * fabs(ref(x[j])),
				      "%s(%g) fp64 %.17g want %.17g", ops[k], x[j], dy[j],
				      ref(x[j]));
		}
	}
}
END_TEST

/* Neg and Sign on integers: wrapping negation; unsigned values are never negative. */
START_TEST(integers)
{
	static const int8_t i8[] = { -128, -5, 0, 7, 127 };
	static const int64_t i64[] = { INT64_MIN, -9, 0, 1, INT64_MAX };
	static const uint8_t u8[] = { 0, 1, 128, 200, 255 };
	static const uint64_t u64[] = { 0, 1, 1ull << 63, 5, UINT64_MAX };
	static const int16_t i16[] = { -300, -1, 0, 2, 32767 };
	int64_t dims[1] = { 5 };
	struct vops_tensor t;
	int8_t y8[5];
	int64_t y64[5];
	uint8_t yu8[5];
	uint64_t yu64[5];
	int16_t y16[5];
	int j;

	t = tensor(ACL_INT8, 1, dims);
	run_ok("Neg", &t, NULL, 0, i8, y8);
	for (j = 0; j < 5; j++)
		ck_assert_int_eq(y8[j], (int8_t)(uint8_t)(0u - (uint8_t)i8[j]));
	run_ok("Sign", &t, NULL, 0, i8, y8);
	for (j = 0; j < 5; j++)
		ck_assert_int_eq(y8[j], (i8[j] > 0) - (i8[j] < 0));
	t = tensor(ACL_INT64, 1, dims);
	run_ok("Neg", &t, NULL, 0, i64, y64);
	ck_assert(y64[0] == INT64_MIN && y64[1] == 9 && y64[4] == -INT64_MAX);
	run_ok("Sign", &t, NULL, 0, i64, y64);
	for (j = 0; j < 5; j++)
		ck_assert_int_eq(y64[j], (i64[j] > 0) - (i64[j] < 0));
	t = tensor(ACL_UINT8, 1, dims);
	run_ok("Sign", &t, NULL, 0, u8, yu8);
	for (j = 0; j < 5; j++)
		ck_assert_uint_eq(yu8[j], u8[j] != 0);
	t = tensor(ACL_UINT64, 1, dims);
	run_ok("Sign", &t, NULL, 0, u64, yu64);
	for (j = 0; j < 5; j++)
		ck_assert_uint_eq(yu64[j], u64[j] != 0);
	t = tensor(ACL_INT16, 1, dims);
	run_ok("Sign", &t, NULL, 0, i16, y16);
	for (j = 0; j < 5; j++)
		ck_assert_int_eq(y16[j], (i16[j] > 0) - (i16[j] < 0));
	/* Unsigned Neg is not an operator CANN has. */
	t = tensor(ACL_UINT8, 1, dims);
	plan_fails("Neg", &t, NULL, 0, VOPS_ERR_DTYPE);
}
END_TEST

/* IsNan and IsInf: bool outputs; IsInf's one-sided forms. */
START_TEST(nan_inf)
{
	float x[6] = { 1, NAN, INFINITY, -INFINITY, -0.0f, 3e38f };
	int64_t dims[1] = { 6 };
	struct vops_tensor t = tensor(ACL_FLOAT, 1, dims);
	struct vops_plan *p = malloc(sizeof(*p));
	struct vops_attr a[2];
	uint8_t y[6];
	uint16_t h[6];
	int j;

	ck_assert_ptr_nonnull(p);
	plan_ok("IsNan", &t, NULL, 0, p);
	ck_assert_int_eq(p->out[0].dtype, ACL_BOOL);
	ck_assert_uint_eq(p->out[0].bytes, 6);
	ck_assert_uint_eq(p->in_place, 0);
	free(p);
	run_ok("IsNan", &t, NULL, 0, x, y);
	for (j = 0; j < 6; j++)
		ck_assert_uint_eq(y[j], j == 1);
	run_ok("IsInf", &t, NULL, 0, x, y);
	for (j = 0; j < 6; j++)
		ck_assert_uint_eq(y[j], j == 2 || j == 3);
	a[0] = battr("detect_positive", false), a[1] = iattr("detect_negative", 1);
	run_ok("IsInf", &t, a, 2, x, y);
	for (j = 0; j < 6; j++)
		ck_assert_uint_eq(y[j], j == 3);
	a[0] = battr("detect_positive", true), a[1] = battr("detect_negative", false);
	run_ok("IsInf", &t, a, 2, x, y);
	for (j = 0; j < 6; j++)
		ck_assert_uint_eq(y[j], j == 2);
	for (j = 0; j < 6; j++)
		h[j] = vops_f32_to_f16(x[j]);
	t = tensor(ACL_FLOAT16, 1, dims);
	run_ok("IsInf", &t, NULL, 0, h, y);
	/* 3e38 is inf in fp16 already. */
	for (j = 0; j < 6; j++)
		ck_assert_uint_eq(y[j], j == 2 || j == 3 || j == 5);
}
END_TEST

/* Views: a transpose, a broadcast row (stride 0) and an offset. */
START_TEST(views)
{
	static const float buf[8] = { 9, 0, 1, 2, 3, 4, 5, 6 };
	int64_t dims[2] = { 3, 2 }, st[2] = { 1, 3 }, bst[2] = { 0, 1 };
	struct vops_tensor t = { .dtype = ACL_FLOAT, .ndim = 2, .dims = dims, .strides = st,
				 .offset = 2 };
	float y[6];
	int r, k;

	/* Transposed [2, 3] from element 2: y[r][k] = x[2 + r + 3 k]. */
	run_ok("Exp", &t, NULL, 0, buf, y);
	for (r = 0; r < 3; r++)
		for (k = 0; k < 2; k++)
			ck_assert(close32(y[r * 2 + k], exp(buf[2 + r + 3 * k])));
	/* One row of 2 read three times. */
	t.strides = bst;
	t.offset = 1;
	run_ok("Softsign", &t, NULL, 0, buf, y);
	for (r = 0; r < 3; r++)
		for (k = 0; k < 2; k++)
			ck_assert(close32(y[r * 2 + k], r_softsign(buf[1 + k])));
}
END_TEST

/* Plans: the output's shape and type, in place, empty tensors. */
START_TEST(plans)
{
	int64_t dims[3] = { 2, 0, 3 }, d2[2] = { 4, 5 };
	struct vops_tensor t = tensor(ACL_FLOAT, 3, dims);
	struct vops_plan *p = malloc(sizeof(*p));

	ck_assert_ptr_nonnull(p);
	plan_ok("Sigmoid", &t, NULL, 0, p);
	ck_assert(p->empty);
	ck_assert_int_eq(p->out[0].ndim, 3);
	ck_assert_int_eq(p->out[0].dims[1], 0);
	t = tensor(ACL_BF16, 2, d2);
	plan_ok("Celu", &t, NULL, 0, p);
	ck_assert(!p->empty);
	ck_assert_int_eq(p->out[0].dtype, ACL_BF16);
	ck_assert_uint_eq(p->out[0].bytes, 40);
	ck_assert_uint_eq(p->in_bytes[0], 40);
	ck_assert_uint_eq(p->in_place, 1);
	/* A scalar. */
	t = tensor(ACL_DOUBLE, 0, NULL);
	plan_ok("Atan", &t, NULL, 0, p);
	ck_assert_int_eq(p->out[0].ndim, 0);
	ck_assert_uint_eq(p->out[0].bytes, 8);
	free(p);
}
END_TEST

/* Planning errors: types, input counts, attributes; each message names the operator. */
START_TEST(plan_errors)
{
	int64_t dims[1] = { 4 };
	struct vops_tensor t = tensor(ACL_INT32, 1, dims), f = tensor(ACL_FLOAT, 1, dims);
	struct vops_tensor two[2] = { f, f };
	struct vops_plan *p = malloc(sizeof(*p));
	struct vops_error e = { 0 };
	struct vops_attr a[2];

	ck_assert_ptr_nonnull(p);
	plan_fails("Sqrt", &t, NULL, 0, VOPS_ERR_DTYPE);
	plan_fails("IsNan", &t, NULL, 0, VOPS_ERR_DTYPE);
	t.dtype = ACL_BOOL;
	plan_fails("Sign", &t, NULL, 0, VOPS_ERR_DTYPE);
	ck_assert_int_eq(vops_plan("Tanh", 2, two, 1, NULL, 0, p, &e), VOPS_ERR_INPUT);
	a[0] = fattr("alpha", 1);
	plan_fails("Sqrt", &f, a, 1, VOPS_ERR_ATTR);
	a[0] = fattr("base", -2);
	plan_fails("Exp", &f, a, 1, VOPS_ERR_ATTR);
	a[0] = fattr("base", 1);
	plan_fails("Log", &f, a, 1, VOPS_ERR_ATTR);
	a[0] = fattr("alpha2", 0);
	plan_fails("Celu", &f, a, 1, VOPS_ERR_ATTR);
	a[0] = fattr("alpha", NAN);
	plan_fails("Elu", &f, a, 1, VOPS_ERR_ATTR);
	a[0] = sattr("alpha", "big");
	plan_fails("HardSigmoid", &f, a, 1, VOPS_ERR_ATTR);
	a[0] = sattr("approximate", "fast");
	plan_fails("GeluV2", &f, a, 1, VOPS_ERR_ATTR);
	a[0] = iattr("detect_positive", 2);
	plan_fails("IsInf", &f, a, 1, VOPS_ERR_ATTR);
	a[0] = fattr("lambd", INFINITY);
	plan_fails("Shrink", &f, a, 1, VOPS_ERR_ATTR);
	a[0] = fattr("scale", NAN);
	plan_fails("Swish", &f, a, 1, VOPS_ERR_ATTR);
	a[0] = fattr("alpha", 1);
	plan_fails("Swish", &f, a, 1, VOPS_ERR_ATTR);
	plan_fails("Rsqrt", &f, a, 1, VOPS_ERR_ATTR);
	plan_fails("Rsqrt", &t, NULL, 0, VOPS_ERR_DTYPE);
	plan_fails("Swish", &t, NULL, 0, VOPS_ERR_DTYPE);
	free(p);
}
END_TEST

/* Planned @type's descriptor with the 8 bytes at @at (from the attribute block) set to @v. */
static void corrupt_faults(const char *type, const struct vops_attr *a, unsigned int na,
			   uint32_t at, uint64_t v)
{
	int64_t dims[1] = { 4 };
	struct vops_tensor t = tensor(ACL_FLOAT, 1, dims);
	struct vops_plan *p = malloc(sizeof(*p));
	unsigned char desc[VOPS_MAX_DESC];
	float x[4] = { 1, 2, 3, 4 }, y[4] = { -7, -7, -7, -7 };
	uint32_t ab = 16 + 16;		/* header, one rank-1 dense record */
	int j;

	ck_assert_ptr_nonnull(p);
	plan_ok(type, &t, a, na, p);
	ck_assert_uint_ge(p->desc_size, ab + at + 8);
	memcpy(desc, p->desc, p->desc_size);
	memcpy(desc + ab + at, &v, sizeof(v));
	ck_assert_int_eq(run_desc(p, desc, p->desc_size, x, y, NULL), VOPS_RUN_FAULT);
	for (j = 0; j < 4; j++)
		ck_assert_float_eq(y[j], -7);
	free(p);
}

/* Hostile descriptors: parameters of the wrong count or value, a shape larger than the operands. */
START_TEST(corrupt_descriptors)
{
	uint64_t nan_bits = 0x7ff8000000000000ull, neg2 = 0xc000000000000000ull;
	struct vops_attr a[1] = { fattr("alpha", 0.5f) };
	int64_t dims[1] = { 4 };
	struct vops_tensor t = tensor(ACL_FLOAT, 1, dims);
	struct vops_plan *p = malloc(sizeof(*p));
	unsigned char desc[VOPS_MAX_DESC];
	float x[4] = { 1, 2, 3, 4 }, y[4] = { -7, -7, -7, -7 };
	int64_t big = 1000;

	/* ni = 0, nf = 2 -> ni = 1, nf = 1: still the same length, the wrong split. */
	corrupt_faults("HardSigmoid", NULL, 0, 0, 1ull | 1ull << 32);
	corrupt_faults("HardSigmoid", NULL, 0, 8, nan_bits);
	corrupt_faults("ThresholdedRelu", a, 1, 8, nan_bits);
	corrupt_faults("Exp", NULL, 0, 8, neg2);
	corrupt_faults("Log", NULL, 0, 8, 0x3ff0000000000000ull);	/* base 1 */
	corrupt_faults("Celu", NULL, 0, 16, 0);				/* alpha2 0 */
	corrupt_faults("IsInf", NULL, 0, 8, 5);
	corrupt_faults("GeluV2", NULL, 0, 8, (uint64_t)-1);
	corrupt_faults("Swish", NULL, 0, 8, nan_bits);

	/* Input 0's dimension 4 -> 1000: larger than the operands. */
	ck_assert_ptr_nonnull(p);
	plan_ok("Sqrt", &t, NULL, 0, p);
	memcpy(desc, p->desc, p->desc_size);
	memcpy(desc + 16 + 8, &big, sizeof(big));
	ck_assert_int_eq(run_desc(p, desc, p->desc_size, x, y, NULL), VOPS_RUN_FAULT);
	ck_assert_float_eq(y[0], -7);
	free(p);
}
END_TEST

static bool stop_now(void *priv)
{
	(*(int *)priv)++;
	return true;
}

/* A long run asks should_stop and stops. */
START_TEST(cancel)
{
	int64_t dims[1] = { 1 << 18 };
	struct vops_tensor t = tensor(ACL_FLOAT, 1, dims);
	struct vops_plan *p = malloc(sizeof(*p));
	float *x = calloc((size_t)dims[0], sizeof(float)), *y = malloc((size_t)dims[0] * 4);
	int asked = 0;
	struct vops_ctl ctl = { .should_stop = stop_now, .priv = &asked };

	ck_assert(p && x && y);
	plan_ok("Cosh", &t, NULL, 0, p);
	ck_assert_int_eq(run_desc(p, p->desc, p->desc_size, x, y, &ctl), VOPS_RUN_CANCELED);
	ck_assert_int_gt(asked, 0);
	ck_assert_int_eq(run_desc(p, p->desc, p->desc_size, x, y, NULL), VOPS_RUN_OK);
	ck_assert_float_eq(y[(1 << 18) - 1], 1);
	free(p);
	free(x);
	free(y);
}
END_TEST

static Suite *unary_suite(void)
{
	Suite *s = suite_create("ops_unary");
	TCase *tc = tcase_create("unary");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, f32_each_op, 0, sizeof(fcases) / sizeof(fcases[0]));
	tcase_add_test(tc, expm1_small);
	tcase_add_test(tc, round_half_even);
	tcase_add_test(tc, attributes);
	tcase_add_test(tc, half_and_double);
	tcase_add_test(tc, integers);
	tcase_add_test(tc, nan_inf);
	tcase_add_test(tc, views);
	tcase_add_test(tc, plans);
	tcase_add_test(tc, plan_errors);
	tcase_add_test(tc, corrupt_descriptors);
	tcase_add_test(tc, cancel);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(unary_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
