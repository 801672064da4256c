// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for lib/ops' generic layer (lib/ops/ops_elem.c) through
 * the public API: every data type, numpy broadcasting, views (strides and
 * offsets) in plans, descriptors and runs, the dense copies vops_run()
 * makes of views for operators that read dense inputs only, conversions
 * that round once, integer wrap and division by zero, cancellation, and
 * descriptors whose view records or parameter blocks lie.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_base.h"
#include "vnpu_drm.h"
#include "vnpu_ops.h"

static struct vops_plan plan;
static struct vops_error perr;
static char why[512];

#define T(dt, nd, d) ((struct vops_tensor){ .dtype = (dt), .ndim = (nd), .dims = (d) })

/* Plan @type on @in and run it on host copies; the output in @out. */
static enum vops_run_status plan_run(const char *type, int nin, const struct vops_tensor *in,
				     const void *const *data, const size_t *sizes, void *out,
				     const struct vops_attr *attrs, unsigned int nattrs,
				     const struct vops_ctl *ctl)
{
	struct vops_operand ops[8];
	unsigned int n = 0;
	void *ws = NULL;
	enum vops_run_status st;
	int i;

	ck_assert_msg(vops_plan(type, nin, in, 1, attrs, nattrs, &plan, &perr) == VOPS_OK, "%s: %s",
		      type, perr.msg);
	for (i = 0; i < nin; i++)
		ops[n++] = (struct vops_operand){ (void *)data[i], sizes[i], VNPU_OPERAND_READ };
	ops[n++] = (struct vops_operand){ out, plan.out[0].bytes, VNPU_OPERAND_WRITE };
	if (plan.ws_bytes) {
		ck_assert_int_eq(posix_memalign(&ws, 64, plan.ws_bytes), 0);
		ops[n++] = (struct vops_operand){ ws, plan.ws_bytes, VNPU_OPERAND_WORKSPACE };
	}
	st = vops_run(plan.desc, plan.desc_size, ops, n, ctl, why, sizeof(why));
	free(ws);
	return st;
}

/* ---- conversions ----------------------------------------------------------------- */

START_TEST(round_once_from_double)
{
	/* Just above the halfway point between two fp16 (bf16) values: through
	 * fp32 rounded to nearest, the tail is lost and the tie goes to even. */
	ck_assert_uint_eq(vops_f64_to_f16(1.0 + 0x1p-11 + 0x1p-40), 0x3c01);
	ck_assert_uint_eq(vops_f64_to_f16(1.0 + 0x1p-11), 0x3c00);	/* a tie: even */
	ck_assert_uint_eq(vops_f64_to_f16(1.0 + 0x1p-11 - 0x1p-40), 0x3c00);
	ck_assert_uint_eq(vops_f64_to_bf16(1.0 + 0x1p-8 + 0x1p-40), 0x3f81);
	ck_assert_uint_eq(vops_f64_to_bf16(1.0 + 0x1p-8), 0x3f80);
	ck_assert_uint_eq(vops_f64_to_f16(65520.0), 0x7c00);		/* overflow: infinity */
	ck_assert_uint_eq(vops_f64_to_f16(0x1p-25 + 0x1p-40), 0x0001);	/* subnormal, up */
	ck_assert_uint_eq(vops_f64_to_f16(-0.0), 0x8000);
	ck_assert(isnan(vops_f16_to_f32(vops_f64_to_f16(NAN))));
	ck_assert_uint_eq(vops_dtype_size(ACL_INT64), 8);
	ck_assert_uint_eq(vops_dtype_size(ACL_BOOL), 1);
	ck_assert_uint_eq(vops_dtype_size(ACL_UINT16), 2);
	ck_assert_uint_eq(vops_dtype_size(ACL_COMPLEX64), 0);
}
END_TEST

START_TEST(cast_every_way)
{
	const int64_t d4[1] = { 4 };
	struct vops_attr at = { .name = (char *)"dst_type", .kind = VOPS_ATTR_DTYPE };
	struct vops_tensor x = T(ACL_FLOAT, 1, d4);
	const float f[4] = { 1e10f, -3.7f, NAN, 127.5f };
	const void *data[1] = { f };
	size_t sz[1] = { sizeof(f) };
	int8_t i8[4];
	uint8_t b[4];
	double dbl[4];
	const uint8_t bools[4] = { 0, 1, 1, 0 };
	float fb[4];

	/* float to int8: truncated, saturated, NaN 0 */
	at.dt = ACL_INT8;
	ck_assert_int_eq(plan_run("Cast", 1, &x, data, sz, i8, &at, 1, NULL), VOPS_RUN_OK);
	ck_assert_int_eq(i8[0], 127);
	ck_assert_int_eq(i8[1], -3);
	ck_assert_int_eq(i8[2], 0);
	ck_assert_int_eq(i8[3], 127);
	/* to bool: not zero (NaN is not zero) */
	at.dt = ACL_BOOL;
	ck_assert_int_eq(plan_run("Cast", 1, &x, data, sz, b, &at, 1, NULL), VOPS_RUN_OK);
	ck_assert(b[0] == 1 && b[1] == 1 && b[2] == 1 && b[3] == 1);
	at.dt = ACL_DOUBLE;
	ck_assert_int_eq(plan_run("Cast", 1, &x, data, sz, dbl, &at, 1, NULL), VOPS_RUN_OK);
	ck_assert(dbl[1] == (double)-3.7f && isnan(dbl[2]));
	/* bool to float */
	x.dtype = ACL_BOOL;
	data[0] = bools;
	sz[0] = sizeof(bools);
	at.dt = ACL_FLOAT;
	ck_assert_int_eq(plan_run("Cast", 1, &x, data, sz, fb, &at, 1, NULL), VOPS_RUN_OK);
	ck_assert(fb[0] == 0 && fb[1] == 1 && fb[2] == 1 && fb[3] == 0);
}
END_TEST

/* ---- broadcasting and types ------------------------------------------------------- */

START_TEST(add_broadcasts_numpy)
{
	const int64_t da[3] = { 2, 3, 1 }, db[1] = { 4 };
	struct vops_tensor in[2] = { T(ACL_INT64, 3, da), T(ACL_INT64, 1, db) };
	int64_t a[6], b[4], o[24];
	const void *data[2] = { a, b };
	size_t sz[2] = { sizeof(a), sizeof(b) };
	int i, j;

	for (i = 0; i < 6; i++)
		a[i] = 1000 * i;
	for (j = 0; j < 4; j++)
		b[j] = j;
	ck_assert_int_eq(plan_run("Add", 2, in, data, sz, o, NULL, 0, NULL), VOPS_RUN_OK);
	ck_assert_int_eq(plan.out[0].ndim, 3);
	ck_assert_int_eq(plan.out[0].dims[2], 4);
	ck_assert_uint_eq(plan.in_place, 0);	/* neither input has the output's size */
	for (i = 0; i < 6; i++)
		for (j = 0; j < 4; j++)
			ck_assert_int_eq(o[i * 4 + j], 1000 * i + j);
}
END_TEST

START_TEST(integer_types_wrap)
{
	const int64_t d3[1] = { 3 };
	struct vops_tensor in[2] = { T(ACL_UINT8, 1, d3), T(ACL_UINT8, 1, d3) };
	const uint8_t a[3] = { 200, 255, 7 }, b[3] = { 100, 1, 9 };
	const int8_t c[3] = { -128, 100, -7 }, e[3] = { -1, 3, 2 };
	const void *data[2] = { a, b };
	size_t sz[2] = { 3, 3 };
	uint8_t o[3];
	int8_t q[3];

	ck_assert_int_eq(plan_run("Add", 2, in, data, sz, o, NULL, 0, NULL), VOPS_RUN_OK);
	ck_assert(o[0] == 44 && o[1] == 0 && o[2] == 16);
	ck_assert_int_eq(plan_run("Sub", 2, in, data, sz, o, NULL, 0, NULL), VOPS_RUN_OK);
	ck_assert(o[0] == 100 && o[1] == 254 && o[2] == 254);
	in[0].dtype = in[1].dtype = ACL_INT8;
	data[0] = c;
	data[1] = e;
	/* truncating division; the most negative value over -1 wraps */
	ck_assert_int_eq(plan_run("RealDiv", 2, in, data, sz, q, NULL, 0, NULL), VOPS_RUN_OK);
	ck_assert(q[0] == -128 && q[1] == 33 && q[2] == -3);
	ck_assert_int_eq(plan_run("Abs", 1, in, data, sz, q, NULL, 0, NULL), VOPS_RUN_OK);
	ck_assert(q[0] == -128 && q[1] == 100 && q[2] == 7);
}
END_TEST

START_TEST(integer_division_by_zero)
{
	const int64_t d3[1] = { 3 };
	struct vops_tensor in[2] = { T(ACL_INT64, 1, d3), T(ACL_INT64, 1, d3) };
	const int64_t a[3] = { 1, 2, 3 }, b[3] = { 1, 0, 1 };
	const void *data[2] = { a, b };
	size_t sz[2] = { sizeof(a), sizeof(b) };
	int64_t o[3];

	ck_assert_int_eq(plan_run("RealDiv", 2, in, data, sz, o, NULL, 0, NULL), VOPS_RUN_ARITH);
}
END_TEST

/* ---- views -------------------------------------------------------------------------- */

/* A [3, 2] view of a row-major [2, 3] matrix: its transpose, no copy. */
START_TEST(views_in_plans_and_runs)
{
	const int64_t d32[2] = { 3, 2 }, st[2] = { 1, 3 };
	float m[6] = { 0, 1, 2, 3, 4, 5 }, ones[6] = { 1, 1, 1, 1, 1, 1 }, o[6];
	struct vops_tensor in[2] = { T(ACL_FLOAT, 2, d32), T(ACL_FLOAT, 2, d32) };
	const void *data[2] = { m, ones };
	size_t sz[2] = { sizeof(m), sizeof(ones) };
	int i, j;

	in[0].strides = st;
	ck_assert_int_eq(plan_run("Add", 2, in, data, sz, o, NULL, 0, NULL), VOPS_RUN_OK);
	for (i = 0; i < 3; i++)
		for (j = 0; j < 2; j++)
			ck_assert_float_eq(o[i * 2 + j], m[j * 3 + i] + 1);
	ck_assert_uint_eq(plan.in_bytes[0], 24);
	ck_assert_uint_eq(plan.in_place, 2);	/* the view is never the output */
	ck_assert_uint_eq(plan.desc[16 + 3], 1);	/* input 0's record is layout 1 */
	ck_assert_uint_eq(plan.desc[16 + 4], 48);	/* 16 + 16 * rank bytes */

	/* An offset view: the last row [3, 4, 5] of the matrix, through Relu. */
	{
		const int64_t d3[1] = { 3 };
		struct vops_tensor row = T(ACL_FLOAT, 1, d3);

		m[4] = -4;
		row.offset = 3;
		ck_assert_int_eq(plan_run("Relu", 1, &row, data, sz, o, NULL, 0, NULL), VOPS_RUN_OK);
		ck_assert(o[0] == 3 && o[1] == 0 && o[2] == 5);
		ck_assert_uint_eq(plan.in_bytes[0], 24);
		/* a view that reaches past its operand faults */
		sz[0] = 20;
		ck_assert_int_eq(plan_run("Relu", 1, &row, data, sz, o, NULL, 0, NULL), VOPS_RUN_FAULT);
		ck_assert_ptr_nonnull(strstr(why, "bytes"));
	}
}
END_TEST

/* Version 1's reductions read dense inputs: vops_run() copies the view first. */
START_TEST(views_copied_for_dense_operators)
{
	const int64_t d32[2] = { 3, 2 }, st[2] = { 1, 3 };
	const float m[6] = { 0, 1, 2, 3, 4, 5 };
	struct vops_tensor x = T(ACL_FLOAT, 2, d32);
	const void *data[1] = { m };
	size_t sz[1] = { sizeof(m) };
	struct vops_attr axes = { .name = (char *)"axes", .kind = VOPS_ATTR_LIST_INT,
				  .li = { 1, (int64_t[]){ 1 } } };
	float o[3];

	x.strides = st;
	ck_assert_int_eq(plan_run("ReduceSumD", 1, &x, data, sz, o, &axes, 1, NULL), VOPS_RUN_OK);
	/* rows of the transpose: columns of m */
	ck_assert(o[0] == 3 && o[1] == 5 && o[2] == 7);
	/* The workspace holds the dense copy, 64-byte aligned after the reduction's own. */
	ck_assert_uint_ge(plan.ws_bytes, 24);
	/* Stride 0: a broadcast view, three copies of the first column. */
	x.strides = (const int64_t[]){ 0, 3 };
	ck_assert_int_eq(plan_run("ReduceSumD", 1, &x, data, sz, o, &axes, 1, NULL), VOPS_RUN_OK);
	ck_assert(o[0] == 3 && o[1] == 3 && o[2] == 3);
	ck_assert_uint_eq(plan.in_bytes[0], 16);
}
END_TEST

START_TEST(view_planning_errors)
{
	const int64_t d2[1] = { 2 }, neg[1] = { -1 };
	struct vops_tensor x = T(ACL_FLOAT, 1, d2);

	x.strides = neg;
	ck_assert_int_eq(vops_plan("Relu", 1, &x, 1, NULL, 0, &plan, &perr), VOPS_ERR_INPUT);
	ck_assert_ptr_nonnull(strstr(perr.msg, "stride"));
	x.strides = NULL;
	x.offset = -2;
	ck_assert_int_eq(vops_plan("Relu", 1, &x, 1, NULL, 0, &plan, &perr), VOPS_ERR_INPUT);
	ck_assert_ptr_nonnull(strstr(perr.msg, "offset"));
	/* a dense layout given as strides is a plain record */
	x.offset = 0;
	x.strides = (const int64_t[]){ 1 };
	ck_assert_int_eq(vops_plan("Relu", 1, &x, 1, NULL, 0, &plan, &perr), VOPS_OK);
	ck_assert_uint_eq(plan.desc[16 + 3], 0);
}
END_TEST

/* A view record or a parameter block that lies faults the task, writing nothing. */
START_TEST(lying_descriptors)
{
	const int64_t d3[1] = { 3 }, st[1] = { 2 };
	struct vops_tensor x = T(ACL_FLOAT, 1, d3);
	float in[5] = { 1, 2, 3, 4, 5 }, o[3] = { 7, 7, 7 };
	struct vops_operand ops[2] = {
		{ in, sizeof(in), VNPU_OPERAND_READ }, { o, sizeof(o), VNPU_OPERAND_WRITE },
	};
	struct vops_attr slope = { .name = (char *)"negative_slope", .kind = VOPS_ATTR_FLOAT, .f = 0.5f };
	unsigned char d[VOPS_MAX_DESC];
	uint64_t v;

	x.strides = st;
	ck_assert_int_eq(vops_plan("Relu", 1, &x, 1, NULL, 0, &plan, &perr), VOPS_OK);
	ck_assert_int_eq(vops_run(plan.desc, plan.desc_size, ops, 2, NULL, why, sizeof(why)), VOPS_RUN_OK);
	ck_assert(o[0] == 1 && o[1] == 3 && o[2] == 5);
	/* the stride (after the 8-byte record head, offset and dims) grows past the operand */
	memcpy(d, plan.desc, plan.desc_size);
	v = 3;
	memcpy(d + 16 + 8 + 8 + 8, &v, 8);
	o[0] = o[1] = o[2] = 7;
	ck_assert_int_eq(vops_run(d, plan.desc_size, ops, 2, NULL, why, sizeof(why)), VOPS_RUN_FAULT);
	ck_assert(o[0] == 7 && o[2] == 7);
	/* a negative stride */
	v = (uint64_t)-1;
	memcpy(d + 16 + 8 + 8 + 8, &v, 8);
	ck_assert_int_eq(vops_run(d, plan.desc_size, ops, 2, NULL, why, sizeof(why)), VOPS_RUN_FAULT);
	ck_assert_ptr_nonnull(strstr(why, "stride"));
	/* an offset that reaches past the operand */
	memcpy(d, plan.desc, plan.desc_size);
	v = 1;
	memcpy(d + 16 + 8, &v, 8);
	ck_assert_int_eq(vops_run(d, plan.desc_size, ops, 2, NULL, why, sizeof(why)), VOPS_RUN_FAULT);
	/* layout 2 is not a layout */
	memcpy(d, plan.desc, plan.desc_size);
	d[16 + 3] = 2;
	ck_assert_int_eq(vops_run(d, plan.desc_size, ops, 2, NULL, why, sizeof(why)), VOPS_RUN_FAULT);
	ck_assert_ptr_nonnull(strstr(why, "layout"));

	/* Parameters: LeakyRelu takes one float; a block claiming more, or none, faults. */
	x.strides = NULL;
	ck_assert_int_eq(vops_plan("LeakyRelu", 1, &x, 1, &slope, 1, &plan, &perr), VOPS_OK);
	ck_assert_int_eq(vops_run(plan.desc, plan.desc_size, ops, 2, NULL, why, sizeof(why)), VOPS_RUN_OK);
	memcpy(d, plan.desc, plan.desc_size);
	/* header, one 16-byte record, then u32 ni, u32 nf */
	d[16 + 16] = 200;
	ck_assert_int_eq(vops_run(d, plan.desc_size, ops, 2, NULL, why, sizeof(why)), VOPS_RUN_FAULT);
	memcpy(d, plan.desc, plan.desc_size);
	d[16 + 16 + 4] = 0xff;
	d[16 + 16 + 5] = 0xff;
	ck_assert_int_eq(vops_run(d, plan.desc_size, ops, 2, NULL, why, sizeof(why)), VOPS_RUN_FAULT);
	ck_assert_ptr_nonnull(strstr(why, "parameters"));
	memcpy(d, plan.desc, plan.desc_size);
	d[16 + 16 + 4] = 0;	/* nf 0: the block is shorter than the descriptor says */
	ck_assert_int_eq(vops_run(d, plan.desc_size, ops, 2, NULL, why, sizeof(why)), VOPS_RUN_FAULT);
}
END_TEST

/* ---- chunks ------------------------------------------------------------------------- */

static int asked;

static bool stop_second(void *priv)
{
	(void)priv;
	return ++asked >= 2;
}

START_TEST(generic_ops_cancel_between_chunks)
{
	const int64_t d[1] = { 200000 };
	struct vops_tensor in[2] = { T(ACL_INT64, 1, d), T(ACL_INT64, 1, d) };
	int64_t *a = calloc(200000, 8), *o = calloc(200000, 8);
	const void *data[2] = { a, a };
	size_t sz[2] = { 200000 * 8, 200000 * 8 };
	struct vops_ctl ctl = { .should_stop = stop_second };

	asked = 0;
	ck_assert_int_eq(plan_run("Add", 2, in, data, sz, o, NULL, 0, &ctl), VOPS_RUN_CANCELED);
	ck_assert_int_eq(asked, 2);
	asked = 0;
	ck_assert_int_eq(plan_run("Add", 2, in, data, sz, o, NULL, 0, NULL), VOPS_RUN_OK);
	free(a);
	free(o);
}
END_TEST

/* The operator list names every operator once, and each plans by its name. */
START_TEST(operator_names)
{
	unsigned int i, j;

	for (i = 0; vops_op_name(i); i++)
		for (j = 0; j < i; j++)
			ck_assert_str_ne(vops_op_name(i), vops_op_name(j));
	ck_assert_uint_ge(i, 13);
}
END_TEST

static Suite *elem_suite(void)
{
	Suite *s = suite_create("vnpu_ops_elem");
	TCase *tc = tcase_create("elem");

	tcase_add_test(tc, round_once_from_double);
	tcase_add_test(tc, cast_every_way);
	tcase_add_test(tc, add_broadcasts_numpy);
	tcase_add_test(tc, integer_types_wrap);
	tcase_add_test(tc, integer_division_by_zero);
	tcase_add_test(tc, views_in_plans_and_runs);
	tcase_add_test(tc, views_copied_for_dense_operators);
	tcase_add_test(tc, view_planning_errors);
	tcase_add_test(tc, lying_descriptors);
	tcase_add_test(tc, generic_ops_cancel_between_chunks);
	tcase_add_test(tc, operator_names);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(elem_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
