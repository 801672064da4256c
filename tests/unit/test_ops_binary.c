// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of lib/ops' binary family (lib/ops/op_binary.c): every
 * operator on a small input against values computed here, each class of
 * types, broadcasts and views, the variadic operators past one pass of
 * inputs (their workspace), planning errors, and descriptors whose
 * parameters or shapes were corrupted faulting without writing the output.
 * Inputs are copied to buffers of exactly the planned sizes, so that ASan
 * catches any read past them.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_base.h"
#include "vnpu_drm.h"
#include "vnpu_ops.h"

#define T(dt_, nd_, ...)							\
	((struct vops_tensor){ .dtype = dt_, .ndim = nd_,			\
			       .dims = (const int64_t[]){ __VA_ARGS__ } })
#define S(dt_) ((struct vops_tensor){ .dtype = dt_, .ndim = 0, .dims = NULL })

static struct vops_plan plan;
static struct vops_error err;

/* Plan @op; the code. */
static enum vops_err try_plan(const char *op, int nin, const struct vops_tensor *in,
			      const struct vops_attr *attrs, unsigned int na)
{
	memset(&err, 0, sizeof(err));
	return vops_plan(op, nin, in, 1, attrs, na, &plan, &err);
}

static void plan_ok(const char *op, int nin, const struct vops_tensor *in,
		    const struct vops_attr *attrs, unsigned int na)
{
	enum vops_err e = try_plan(op, nin, in, attrs, na);

	ck_assert_msg(e == VOPS_OK, "%s: %d %s", op, e, err.msg);
}

/* Planning fails with @code and a message naming @op. */
static void plan_fails(const char *op, int nin, const struct vops_tensor *in,
		       const struct vops_attr *attrs, unsigned int na, enum vops_err code)
{
	enum vops_err e = try_plan(op, nin, in, attrs, na);

	ck_assert_msg(e == code, "%s: got %d (%s), want %d", op, e, err.msg, code);
	ck_assert_msg(strstr(err.msg, op), "%s: message \"%s\"", op, err.msg);
}

/* Run the plan (or @desc of @dsize bytes) on copies of @data sized as
 * planned, into @out (filled with 0xa5 first, plan.out[0].bytes). */
static enum vops_run_status run_desc(const void *desc, size_t dsize, const void *const *data,
				     void *out, const struct vops_ctl *ctl)
{
	struct vops_operand ops[VOPS_MAX_INPUTS + 2];
	void *copies[VOPS_MAX_INPUTS] = { 0 }, *ws = NULL;
	enum vops_run_status st;
	char why[256];
	int i, n = 0;

	for (i = 0; i < plan.nin; i++) {
		copies[i] = malloc(plan.in_bytes[i] ? plan.in_bytes[i] : 1);
		memcpy(copies[i], data[i], plan.in_bytes[i]);
		ops[n++] = (struct vops_operand){ copies[i], plan.in_bytes[i], VNPU_OPERAND_READ };
	}
	memset(out, 0xa5, plan.out[0].bytes);
	ops[n++] = (struct vops_operand){ out, plan.out[0].bytes, VNPU_OPERAND_WRITE };
	if (plan.ws_bytes) {
		ws = aligned_alloc(64, (plan.ws_bytes + 63) & ~63ull);
		ops[n++] = (struct vops_operand){ ws, plan.ws_bytes, VNPU_OPERAND_WORKSPACE };
	}
	st = vops_run(desc, dsize, ops, (unsigned int)n, ctl, why, sizeof(why));
	for (i = 0; i < plan.nin; i++)
		free(copies[i]);
	free(ws);
	return st;
}

static void run_ok(const void *const *data, void *out)
{
	enum vops_run_status st = run_desc(plan.desc, plan.desc_size, data, out, NULL);

	ck_assert_msg(st == VOPS_RUN_OK, "%s: run status %d", plan.type, st);
}

static const struct vops_attr *attr_n(int64_t n)
{
	static struct vops_attr a;

	a = (struct vops_attr){ .name = "N", .kind = VOPS_ATTR_INT, .i = n };
	return &a;
}

/* ---- arithmetic --------------------------------------------------------------------- */

START_TEST(pow_types)
{
	float x[6] = { 1, 2, 3, -2, 0.5f, 4 }, e[3] = { 2, 3, 0.5f }, of[6];
	int32_t xi[4] = { 2, -3, 5, 1 }, ei[4] = { 10, 3, 0, -2 }, oi[4];
	int64_t e64[3] = { 2, 3, 1 };
	int32_t base[3] = { 2, 3, 4 };
	float ef[3] = { 2, 0.5f, 1.5f };
	struct vops_tensor in[2] = { T(ACL_FLOAT, 2, 2, 3), T(ACL_FLOAT, 1, 3) };
	int j;

	/* float, broadcast over rows */
	plan_ok("Pow", 2, in, NULL, 0);
	run_ok((const void *[]){ x, e }, of);
	for (j = 0; j < 6; j++)
		ck_assert_float_eq_tol(of[j], powf(x[j], e[j % 3]), 1e-6);
	/* integers: exact, wrapping; a negative exponent of |base| > 1 is 0 */
	in[0] = T(ACL_INT32, 1, 4);
	in[1] = T(ACL_INT32, 1, 4);
	plan_ok("Pow", 2, in, NULL, 0);
	run_ok((const void *[]){ xi, ei }, oi);
	ck_assert_int_eq(oi[0], 1024);
	ck_assert_int_eq(oi[1], -27);
	ck_assert_int_eq(oi[2], 1);
	ck_assert_int_eq(oi[3], 1);
	/* a float base with an int64 exponent (vnpu: ONNX's mixed types) */
	in[0] = T(ACL_FLOAT, 1, 3);
	in[1] = T(ACL_INT64, 1, 3);
	plan_ok("Pow", 2, in, NULL, 0);
	ck_assert_int_eq(plan.out[0].dtype, ACL_FLOAT);
	run_ok((const void *[]){ e, e64 }, of);
	ck_assert_float_eq(of[0], 4.0f);
	ck_assert_float_eq(of[1], 27.0f);
	ck_assert_float_eq(of[2], 0.5f);
	/* an int base with a float exponent: int32 out, truncated */
	in[0] = T(ACL_INT32, 1, 3);
	in[1] = T(ACL_FLOAT, 1, 3);
	plan_ok("Pow", 2, in, NULL, 0);
	run_ok((const void *[]){ base, ef }, oi);
	ck_assert_int_eq(oi[0], 4);
	ck_assert_int_eq(oi[1], 1);
	ck_assert_int_eq(oi[2], 8);
	/* bool exponent: no */
	in[1] = T(ACL_BOOL, 1, 3);
	plan_fails("Pow", 2, in, NULL, 0, VOPS_ERR_DTYPE);
}
END_TEST

START_TEST(mod_signs)
{
	int32_t a[6] = { 7, -7, 7, -7, INT32_MIN, 5 }, b[6] = { 3, 3, -3, -3, -1, 5 }, o[6];
	int32_t floor_want[6] = { 1, 2, -2, -1, 0, 0 }, trunc_want[6] = { 1, -1, 1, -1, 0, 0 };
	double fa[4] = { 5.5, -5.5, 5.5, -5.5 }, fb[4] = { 2, 2, -2, -2 }, fo[4];
	double ffloor[4] = { 1.5, 0.5, -0.5, -1.5 }, ftrunc[4] = { 1.5, -1.5, 1.5, -1.5 };
	uint8_t ua[3] = { 250, 7, 0 }, ub[3] = { 7, 250, 3 }, uo[3];
	int32_t z[2] = { 1, 0 };
	struct vops_tensor in[2] = { T(ACL_INT32, 1, 6), T(ACL_INT32, 1, 6) };
	const char *const floors[2] = { "Mod", "FloorMod" };
	int j, k;

	for (k = 0; k < 2; k++) {
		plan_ok(floors[k], 2, in, NULL, 0);
		run_ok((const void *[]){ a, b }, o);
		for (j = 0; j < 6; j++)
			ck_assert_int_eq(o[j], floor_want[j]);
	}
	plan_ok("TruncateMod", 2, in, NULL, 0);
	run_ok((const void *[]){ a, b }, o);
	for (j = 0; j < 6; j++)
		ck_assert_int_eq(o[j], trunc_want[j]);
	in[0] = T(ACL_DOUBLE, 1, 4);
	in[1] = T(ACL_DOUBLE, 1, 4);
	plan_ok("FloorMod", 2, in, NULL, 0);
	run_ok((const void *[]){ fa, fb }, fo);
	for (j = 0; j < 4; j++)
		ck_assert_double_eq(fo[j], ffloor[j]);
	plan_ok("TruncateMod", 2, in, NULL, 0);
	run_ok((const void *[]){ fa, fb }, fo);
	for (j = 0; j < 4; j++)
		ck_assert_double_eq(fo[j], ftrunc[j]);
	in[0] = T(ACL_UINT8, 1, 3);
	in[1] = T(ACL_UINT8, 1, 3);
	plan_ok("Mod", 2, in, NULL, 0);
	run_ok((const void *[]){ ua, ub }, uo);
	ck_assert_int_eq(uo[0], 250 % 7);
	ck_assert_int_eq(uo[1], 7);
	ck_assert_int_eq(uo[2], 0);
	/* an integer zero divisor fails the run */
	in[0] = T(ACL_INT32, 1, 2);
	in[1] = T(ACL_INT32, 1, 2);
	plan_ok("Mod", 2, in, NULL, 0);
	ck_assert_int_eq(run_desc(plan.desc, plan.desc_size, (const void *[]){ z, z }, o, NULL),
			 VOPS_RUN_ARITH);
}
END_TEST

START_TEST(max_min_binary)
{
	float a[4] = { 1, NAN, -3, 2 }, b[4] = { 2, 0, NAN, -1 }, o[4];
	uint64_t ua[2] = { UINT64_MAX, 1 }, ub[2] = { 1, 1ull << 63 }, uo[2];
	struct vops_tensor in[2] = { T(ACL_FLOAT, 1, 4), T(ACL_FLOAT, 1, 4) };

	plan_ok("Maximum", 2, in, NULL, 0);
	run_ok((const void *[]){ a, b }, o);
	ck_assert_float_eq(o[0], 2);
	ck_assert(isnan(o[1]) && isnan(o[2]));
	ck_assert_float_eq(o[3], 2);
	plan_ok("Minimum", 2, in, NULL, 0);
	run_ok((const void *[]){ a, b }, o);
	ck_assert_float_eq(o[0], 1);
	ck_assert(isnan(o[1]) && isnan(o[2]));
	ck_assert_float_eq(o[3], -1);
	/* uint64 compares unsigned */
	in[0] = T(ACL_UINT64, 1, 2);
	in[1] = T(ACL_UINT64, 1, 2);
	plan_ok("Maximum", 2, in, NULL, 0);
	run_ok((const void *[]){ ua, ub }, uo);
	ck_assert(uo[0] == UINT64_MAX && uo[1] == 1ull << 63);
	plan_ok("Minimum", 2, in, NULL, 0);
	run_ok((const void *[]){ ua, ub }, uo);
	ck_assert(uo[0] == 1 && uo[1] == 1);
}
END_TEST

/* ---- variadic -------------------------------------------------------------------------- */

#define NV 9	/* more than one pass of inputs (7) */

START_TEST(variadic_many)
{
	static const int64_t d3[1] = { 3 };
	struct vops_tensor in[NV];
	int32_t xi[NV][3];
	uint16_t xh[NV][3], oh[3];
	int32_t oi[3];
	const void *data[NV];
	int k, j;

	for (k = 0; k < NV; k++) {
		/* input k: [3] except input 4, a scalar (broadcast) */
		in[k] = (struct vops_tensor){
			.dtype = ACL_INT32, .ndim = k == 4 ? 0 : 1, .dims = d3,
		};
		for (j = 0; j < 3; j++) {
			xi[k][j] = (k * 7 + j * 3) % 11 - 5;
			xh[k][j] = vops_f32_to_f16((float)xi[k][j] / 4);
		}
		data[k] = xi[k];
	}
	plan_ok("MaxN", NV, in, NULL, 0);
	ck_assert_uint_eq(plan.ws_bytes, 3 * 8);
	run_ok(data, oi);
	for (j = 0; j < 3; j++) {
		int32_t mx = INT32_MIN, mn = INT32_MAX, sum = 0;

		for (k = 0; k < NV; k++) {
			int32_t v = xi[k][k == 4 ? 0 : j];

			mx = v > mx ? v : mx;
			mn = v < mn ? v : mn;
			sum += v;
		}
		ck_assert_int_eq(oi[j], mx);
		(void)mn;
		(void)sum;
	}
	plan_ok("Min", NV, in, NULL, 0);
	run_ok(data, oi);
	for (j = 0; j < 3; j++) {
		int32_t mn = INT32_MAX;

		for (k = 0; k < NV; k++)
			mn = xi[k][k == 4 ? 0 : j] < mn ? xi[k][k == 4 ? 0 : j] : mn;
		ck_assert_int_eq(oi[j], mn);
	}
	plan_ok("AccumulateNV2", NV, in, attr_n(NV), 1);
	run_ok(data, oi);
	for (j = 0; j < 3; j++) {
		int32_t sum = 0;

		for (k = 0; k < NV; k++)
			sum += xi[k][k == 4 ? 0 : j];
		ck_assert_int_eq(oi[j], sum);
	}
	/* Mean of fp16: summed in double, divided, rounded once */
	for (k = 0; k < NV; k++) {
		in[k].dtype = ACL_FLOAT16;
		data[k] = xh[k];
	}
	plan_ok("Mean", NV, in, NULL, 0);
	run_ok(data, oh);
	for (j = 0; j < 3; j++) {
		double sum = 0;

		for (k = 0; k < NV; k++)
			sum += vops_f16_to_f32(xh[k][k == 4 ? 0 : j]);
		ck_assert_uint_eq(oh[j], vops_f64_to_f16(sum / NV));
	}
}
END_TEST

START_TEST(variadic_small)
{
	int32_t a[2] = { INT32_MAX, 1 }, b[2] = { 1, 2 }, o[2];
	float f[2] = { 1, 2 }, fo[2];
	struct vops_tensor in[2] = { T(ACL_INT32, 1, 2), T(ACL_INT32, 1, 2) };

	/* AddN wraps int32; one pass, no workspace */
	plan_ok("AddN", 2, in, attr_n(2), 1);
	ck_assert_uint_eq(plan.ws_bytes, 0);
	run_ok((const void *[]){ a, b }, o);
	ck_assert_int_eq(o[0], INT32_MIN);
	ck_assert_int_eq(o[1], 3);
	/* N must be there and be the input count */
	plan_fails("AddN", 2, in, attr_n(3), 1, VOPS_ERR_ATTR);
	plan_fails("AccumulateNV2", 2, in, NULL, 0, VOPS_ERR_ATTR);
	/* one input: itself */
	in[0] = T(ACL_FLOAT, 1, 2);
	plan_ok("Mean", 1, in, NULL, 0);
	run_ok((const void *[]){ f }, fo);
	ck_assert(fo[0] == 1 && fo[1] == 2);
	/* Mean takes floats only */
	in[0] = T(ACL_INT32, 1, 2);
	plan_fails("Mean", 1, in, NULL, 0, VOPS_ERR_DTYPE);
}
END_TEST

/* ---- PRelu --------------------------------------------------------------------------- */

START_TEST(prelu_forms)
{
	float x[12], o[12], wc[3] = { 0.1f, 0.2f, 0.3f }, wl[2] = { 0.5f, 2.0f };
	struct vops_tensor in[2] = { T(ACL_FLOAT, 3, 2, 3, 2), T(ACL_FLOAT, 1, 3) };
	int j;

	for (j = 0; j < 12; j++)
		x[j] = (float)(j - 6);
	/* CANN's form: a 1-D weight of the channels (axis 1) */
	plan_ok("PRelu", 2, in, NULL, 0);
	run_ok((const void *[]){ x, wc }, o);
	for (j = 0; j < 12; j++)
		ck_assert_float_eq(o[j], x[j] < 0 ? x[j] * wc[(j / 2) % 3] : x[j]);
	/* a weight that broadcasts (numpy: the last axis) */
	in[1] = T(ACL_FLOAT, 1, 2);
	plan_ok("PRelu", 2, in, NULL, 0);
	run_ok((const void *[]){ x, wl }, o);
	for (j = 0; j < 12; j++)
		ck_assert_float_eq(o[j], x[j] < 0 ? x[j] * wl[j % 2] : x[j]);
	/* neither */
	in[1] = T(ACL_FLOAT, 1, 4);
	plan_fails("PRelu", 2, in, NULL, 0, VOPS_ERR_INPUT);
	/* a weight larger than x */
	in[1] = T(ACL_FLOAT, 4, 2, 2, 3, 2);
	plan_fails("PRelu", 2, in, NULL, 0, VOPS_ERR_INPUT);
	in[0].dtype = ACL_BOOL;
	in[1] = T(ACL_BOOL, 1, 3);
	plan_fails("PRelu", 2, in, NULL, 0, VOPS_ERR_DTYPE);
}
END_TEST

/* ---- shifts and logic ---------------------------------------------------------------- */

START_TEST(shifts)
{
	uint8_t a[4] = { 0x81, 1, 0xff, 3 }, s[4] = { 1, 7, 8, 200 }, o[4];
	int8_t sa[3] = { -128, -1, 64 }, ss[3] = { 3, 9, 6 }, so[3];
	uint64_t ua[2] = { 1, 1ull << 63 }, us[2] = { 63, 64 }, uo[2];
	struct vops_tensor in[2] = { T(ACL_UINT8, 1, 4), T(ACL_UINT8, 1, 4) };

	plan_ok("LeftShift", 2, in, NULL, 0);
	run_ok((const void *[]){ a, s }, o);
	ck_assert(o[0] == 0x02 && o[1] == 0x80 && o[2] == 0 && o[3] == 0);
	plan_ok("RightShift", 2, in, NULL, 0);
	run_ok((const void *[]){ a, s }, o);
	ck_assert(o[0] == 0x40 && o[1] == 0 && o[2] == 0 && o[3] == 0);
	/* signed right shifts are arithmetic */
	in[0] = T(ACL_INT8, 1, 3);
	in[1] = T(ACL_INT8, 1, 3);
	plan_ok("RightShift", 2, in, NULL, 0);
	run_ok((const void *[]){ sa, ss }, so);
	ck_assert(so[0] == -16 && so[1] == -1 && so[2] == 1);
	in[0] = T(ACL_UINT64, 1, 2);
	in[1] = T(ACL_UINT64, 1, 2);
	plan_ok("LeftShift", 2, in, NULL, 0);
	run_ok((const void *[]){ ua, us }, uo);
	ck_assert(uo[0] == 1ull << 63 && uo[1] == 0);
	in[0] = T(ACL_FLOAT, 1, 2);
	in[1] = T(ACL_FLOAT, 1, 2);
	plan_fails("LeftShift", 2, in, NULL, 0, VOPS_ERR_DTYPE);
}
END_TEST

START_TEST(logic)
{
	uint8_t a[4] = { 0, 0, 1, 1 }, b[2][1] = { { 1 }, { 0 } }, o[8];
	struct vops_tensor in[2] = { T(ACL_BOOL, 2, 1, 4), T(ACL_BOOL, 2, 2, 1) };
	int j;

	plan_ok("LogicalAnd", 2, in, NULL, 0);
	ck_assert_int_eq(plan.out[0].ndim, 2);
	ck_assert(plan.out[0].dims[0] == 2 && plan.out[0].dims[1] == 4);
	run_ok((const void *[]){ a, b }, o);
	for (j = 0; j < 8; j++)
		ck_assert_int_eq(o[j], a[j % 4] && b[j / 4][0]);
	plan_ok("LogicalOr", 2, in, NULL, 0);
	run_ok((const void *[]){ a, b }, o);
	for (j = 0; j < 8; j++)
		ck_assert_int_eq(o[j], a[j % 4] || b[j / 4][0]);
	plan_ok("LogicalNot", 1, in, NULL, 0);
	run_ok((const void *[]){ a }, o);
	for (j = 0; j < 4; j++)
		ck_assert_int_eq(o[j], !a[j]);
	in[0].dtype = ACL_INT32;
	plan_fails("LogicalNot", 1, in, NULL, 0, VOPS_ERR_DTYPE);
}
END_TEST

/* BitwiseAnd/Or/Xor: every integer width keeps its bits (signed ones
 * sign-extended, unsigned ones not), bool stays 0/1, inputs broadcast and
 * may be views; floats and mixed types are refused. */
START_TEST(bitwise)
{
	static const char *const ops[3] = { "BitwiseAnd", "BitwiseOr", "BitwiseXor" };
	int8_t a8[4] = { -1, -128, 0x55, 7 }, b8[4] = { 0x0f, -1, 0x33, -8 }, o8[4];
	uint64_t a64[2] = { ~0ull, 1ull << 63 }, b64[1] = { 0xf0f0f0f0f0f0f0f0ull }, o64[2];
	uint8_t ab[4] = { 0, 0, 1, 1 }, bb[2][1] = { { 1 }, { 0 } }, ob[8];
	int32_t m[6] = { 12, 0, 10, 0, 6, 0 }, mo[3];
	const int32_t k32[1] = { 10 };
	struct vops_tensor in[2] = { T(ACL_INT8, 1, 4), T(ACL_INT8, 1, 4) };
	int op, j;

	for (op = 0; op < 3; op++) {
		plan_ok(ops[op], 2, in, NULL, 0);
		ck_assert_int_eq(plan.out[0].dtype, ACL_INT8);
		run_ok((const void *[]){ a8, b8 }, o8);
		for (j = 0; j < 4; j++) {
			int8_t w = op == 0 ? (int8_t)(a8[j] & b8[j]) : op == 1 ? (int8_t)(a8[j] | b8[j]) :
								    (int8_t)(a8[j] ^ b8[j]);

			ck_assert_msg(o8[j] == w, "%s int8 %d: %d, want %d", ops[op], j, o8[j], w);
		}
	}
	/* uint64, the other broadcast from one element */
	in[0] = T(ACL_UINT64, 1, 2);
	in[1] = T(ACL_UINT64, 1, 1);
	plan_ok("BitwiseXor", 2, in, NULL, 0);
	run_ok((const void *[]){ a64, b64 }, o64);
	ck_assert(o64[0] == 0x0f0f0f0f0f0f0f0full && o64[1] == 0x70f0f0f0f0f0f0f0ull);
	plan_ok("BitwiseAnd", 2, in, NULL, 0);
	run_ok((const void *[]){ a64, b64 }, o64);
	ck_assert(o64[0] == b64[0] && o64[1] == 1ull << 63);
	/* bool broadcast [1, 4] with [2, 1]: logical results */
	in[0] = T(ACL_BOOL, 2, 1, 4);
	in[1] = T(ACL_BOOL, 2, 2, 1);
	for (op = 0; op < 3; op++) {
		plan_ok(ops[op], 2, in, NULL, 0);
		ck_assert(plan.out[0].dims[0] == 2 && plan.out[0].dims[1] == 4);
		run_ok((const void *[]){ ab, bb }, ob);
		for (j = 0; j < 8; j++) {
			int x = ab[j % 4], y = bb[j / 4][0];

			ck_assert_int_eq(ob[j], op == 0 ? (x & y) : op == 1 ? (x | y) : (x ^ y));
		}
	}
	/* a strided view (every other int32) with a scalar */
	in[0] = (struct vops_tensor){ .dtype = ACL_INT32, .ndim = 1, .dims = (const int64_t[]){ 3 },
				      .strides = (const int64_t[]){ 2 } };
	in[1] = S(ACL_INT32);
	plan_ok("BitwiseOr", 2, in, NULL, 0);
	run_ok((const void *[]){ m, k32 }, mo);
	ck_assert(mo[0] == 14 && mo[1] == 10 && mo[2] == 14);
	in[0] = T(ACL_FLOAT, 1, 2);
	in[1] = T(ACL_FLOAT, 1, 2);
	plan_fails("BitwiseAnd", 2, in, NULL, 0, VOPS_ERR_DTYPE);
	in[0] = T(ACL_INT32, 1, 2);
	in[1] = T(ACL_INT16, 1, 2);
	ck_assert_int_ne(try_plan("BitwiseOr", 2, in, NULL, 0), VOPS_OK);
}
END_TEST

/* ---- comparisons ------------------------------------------------------------------- */

START_TEST(comparisons)
{
	static const char *const ops[6] = {
		"Equal", "NotEqual", "Greater", "GreaterEqual", "Less", "LessEqual",
	};
	float a[4] = { 1, 2, NAN, -1 }, b = 2;
	uint64_t ua[2] = { UINT64_MAX, 5 }, ub[2] = { 1, 5 };
	uint16_t ha[2], hb[2];
	uint8_t o[4];
	struct vops_tensor in[2] = { T(ACL_FLOAT, 1, 4), S(ACL_FLOAT) };
	int k, j;

	for (k = 0; k < 6; k++) {
		plan_ok(ops[k], 2, in, NULL, 0);
		ck_assert_int_eq(plan.out[0].dtype, ACL_BOOL);
		run_ok((const void *[]){ a, &b }, o);
		for (j = 0; j < 4; j++) {
			bool w[6] = {
				a[j] == b, a[j] != b, a[j] > b, a[j] >= b, a[j] < b, a[j] <= b,
			};

			ck_assert_int_eq(o[j], w[k]);
		}
	}
	in[0] = T(ACL_UINT64, 1, 2);
	in[1] = T(ACL_UINT64, 1, 2);
	plan_ok("Greater", 2, in, NULL, 0);
	run_ok((const void *[]){ ua, ub }, o);
	ck_assert(o[0] == 1 && o[1] == 0);
	plan_ok("LessEqual", 2, in, NULL, 0);
	run_ok((const void *[]){ ua, ub }, o);
	ck_assert(o[0] == 0 && o[1] == 1);
	ha[0] = vops_f32_to_f16(0.5f);
	ha[1] = vops_f32_to_f16(-3);
	hb[0] = vops_f32_to_f16(0.5f);
	hb[1] = vops_f32_to_f16(-2);
	in[0] = T(ACL_FLOAT16, 1, 2);
	in[1] = T(ACL_FLOAT16, 1, 2);
	plan_ok("Less", 2, in, NULL, 0);
	run_ok((const void *[]){ ha, hb }, o);
	ck_assert(o[0] == 0 && o[1] == 1);
	in[1].dtype = ACL_FLOAT;
	plan_fails("Equal", 2, in, NULL, 0, VOPS_ERR_INPUT);
	in[1] = T(ACL_FLOAT16, 1, 3);
	plan_fails("Greater", 2, in, NULL, 0, VOPS_ERR_INPUT);
}
END_TEST

/* ---- SelectV2, ClipByValue -------------------------------------------------------------- */

START_TEST(select_views)
{
	/* then: the transpose of a 3 x 2 matrix, a view (strides 1, 2) */
	int64_t mat[6] = { 0, 1, 2, 3, 4, 5 }, els = -1, o[6];
	uint8_t cond[3] = { 1, 0, 1 };
	const int64_t tdims[2] = { 2, 3 }, tst[2] = { 1, 2 };
	struct vops_tensor in[3] = {
		T(ACL_BOOL, 1, 3),
		{ .dtype = ACL_INT64, .ndim = 2, .dims = tdims, .strides = tst },
		S(ACL_INT64),
	};
	int i, j;

	plan_ok("SelectV2", 3, in, NULL, 0);
	ck_assert_int_eq(plan.out[0].dtype, ACL_INT64);
	ck_assert_uint_eq(plan.in_bytes[1], 6 * 8);
	run_ok((const void *[]){ cond, mat, &els }, o);
	for (i = 0; i < 2; i++)
		for (j = 0; j < 3; j++)
			ck_assert_int_eq(o[i * 3 + j], cond[j] ? mat[j * 2 + i] : -1);
	in[2] = S(ACL_INT32);
	plan_fails("SelectV2", 3, in, NULL, 0, VOPS_ERR_INPUT);
	in[2] = S(ACL_INT64);
	in[0].dtype = ACL_FLOAT;
	plan_fails("SelectV2", 3, in, NULL, 0, VOPS_ERR_DTYPE);
}
END_TEST

START_TEST(clip)
{
	int8_t x[5] = { -128, -5, 0, 5, 127 }, lo = -4, hi = 4, o[5];
	float fx[3] = { NAN, -10, 10 }, flo[3] = { 0, 0, 0 }, fhi = 1, fo[3];
	struct vops_tensor in[3] = { T(ACL_INT8, 1, 5), S(ACL_INT8), S(ACL_INT8) };
	int j;

	plan_ok("ClipByValue", 3, in, NULL, 0);
	run_ok((const void *[]){ x, &lo, &hi }, o);
	for (j = 0; j < 5; j++)
		ck_assert_int_eq(o[j], x[j] < lo ? lo : x[j] > hi ? hi : x[j]);
	/* a bound per element; NaN stays NaN */
	in[0] = T(ACL_FLOAT, 1, 3);
	in[1] = T(ACL_FLOAT, 1, 3);
	in[2] = S(ACL_FLOAT);
	plan_ok("ClipByValue", 3, in, NULL, 0);
	run_ok((const void *[]){ fx, flo, &fhi }, fo);
	ck_assert(isnan(fo[0]) && fo[1] == 0 && fo[2] == 1);
	/* bounds that would grow the output */
	in[1] = T(ACL_FLOAT, 2, 2, 3);
	plan_fails("ClipByValue", 3, in, NULL, 0, VOPS_ERR_INPUT);
}
END_TEST

/* ---- errors and descriptors ------------------------------------------------------------- */

START_TEST(plan_errors)
{
	struct vops_tensor in[2] = { T(ACL_FLOAT, 1, 3), T(ACL_FLOAT, 1, 3) };
	struct vops_attr bad = { .name = "axis", .kind = VOPS_ATTR_INT, .i = 0 };

	plan_fails("Maximum", 2, in, &bad, 1, VOPS_ERR_ATTR);
	plan_fails("Mod", 1, in, NULL, 0, VOPS_ERR_INPUT);
	in[1] = T(ACL_FLOAT, 1, 2);
	plan_fails("Mod", 2, in, NULL, 0, VOPS_ERR_INPUT);
	in[0].dtype = ACL_STRING;
	in[1] = T(ACL_STRING, 1, 3);
	plan_fails("Equal", 2, in, NULL, 0, VOPS_ERR_DTYPE);
}
END_TEST

/* A descriptor with an input's type or dimension changed: vops_run faults
 * and leaves the output alone. */
START_TEST(desc_corrupt)
{
	uint8_t cond[4] = { 1, 0, 1, 0 }, out[64];
	float t[4] = { 1, 2, 3, 4 }, e[4] = { 5, 6, 7, 8 };
	struct vops_tensor in[3] = { T(ACL_BOOL, 1, 4), T(ACL_FLOAT, 1, 4), T(ACL_FLOAT, 1, 4) };
	unsigned char desc[VOPS_MAX_DESC];
	uint16_t dt = ACL_FLOAT;
	int64_t dim = 8;
	size_t j;

	plan_ok("SelectV2", 3, in, NULL, 0);
	/* condition (the record at byte 16) said to be float */
	memcpy(desc, plan.desc, plan.desc_size);
	memcpy(desc + 16, &dt, 2);
	ck_assert_int_eq(run_desc(desc, plan.desc_size, (const void *[]){ cond, t, e }, out, NULL),
			 VOPS_RUN_FAULT);
	for (j = 0; j < plan.out[0].bytes; j++)
		ck_assert_int_eq(out[j], 0xa5);
	/* then's dimension doubled: more than its operand holds */
	memcpy(desc, plan.desc, plan.desc_size);
	memcpy(desc + 16 + 16 + 8, &dim, 8);
	ck_assert_int_eq(run_desc(desc, plan.desc_size, (const void *[]){ cond, t, e }, out, NULL),
			 VOPS_RUN_FAULT);
	for (j = 0; j < plan.out[0].bytes; j++)
		ck_assert_int_eq(out[j], 0xa5);
	/* a MaxN input's dimension changed so that the inputs do not broadcast */
	in[0] = T(ACL_FLOAT, 1, 4);
	plan_ok("MaxN", 3, in, NULL, 0);
	memcpy(desc, plan.desc, plan.desc_size);
	dim = 3;
	memcpy(desc + 16 + 8, &dim, 8);
	ck_assert_int_eq(run_desc(desc, plan.desc_size, (const void *[]){ t, t, e }, out, NULL),
			 VOPS_RUN_FAULT);
	for (j = 0; j < plan.out[0].bytes; j++)
		ck_assert_int_eq(out[j], 0xa5);
	/* the intact one runs */
	ck_assert_int_eq(run_desc(plan.desc, plan.desc_size, (const void *[]){ t, t, e }, out,
				  NULL), VOPS_RUN_OK);
}
END_TEST

static bool stop_now(void *priv)
{
	(void)priv;
	return true;
}

/* Long runs ask should_stop. */
START_TEST(cancel)
{
	enum { N = 100000 };
	float *a = calloc(N, sizeof(float)), *o = malloc(N * sizeof(float));
	struct vops_tensor in[2] = { T(ACL_FLOAT, 1, N), S(ACL_FLOAT) };
	struct vops_ctl ctl = { .should_stop = stop_now };
	float b = 1;

	plan_ok("Pow", 2, in, NULL, 0);
	ck_assert_int_eq(run_desc(plan.desc, plan.desc_size, (const void *[]){ a, &b }, o, &ctl),
			 VOPS_RUN_CANCELED);
	free(a);
	free(o);
}
END_TEST

static Suite *binary_suite(void)
{
	Suite *s = suite_create("ops_binary");
	TCase *tc = tcase_create("binary");

	tcase_add_test(tc, pow_types);
	tcase_add_test(tc, mod_signs);
	tcase_add_test(tc, max_min_binary);
	tcase_add_test(tc, variadic_many);
	tcase_add_test(tc, variadic_small);
	tcase_add_test(tc, prelu_forms);
	tcase_add_test(tc, shifts);
	tcase_add_test(tc, logic);
	tcase_add_test(tc, bitwise);
	tcase_add_test(tc, comparisons);
	tcase_add_test(tc, select_views);
	tcase_add_test(tc, clip);
	tcase_add_test(tc, plan_errors);
	tcase_add_test(tc, desc_corrupt);
	tcase_add_test(tc, cancel);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(binary_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
