// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of lib/ops' move family (lib/ops/op_move.c) through the
 * public API: plan a call, run its descriptor on host memory, compare with
 * values computed here; planning errors (code and a message naming the
 * operator); descriptors with corrupted parameters or shapes faulting
 * without writing the output; cancellation.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_base.h"
#include "vnpu_drm.h"
#include "vnpu_ops.h"

#define MAXO 4

/* ---- harness ---------------------------------------------------------------- */

static struct vops_attr ai(const char *name, int64_t v)
{
	return (struct vops_attr){ .name = (char *)name, .kind = VOPS_ATTR_INT, .i = v };
}

static struct vops_attr af(const char *name, float v)
{
	return (struct vops_attr){ .name = (char *)name, .kind = VOPS_ATTR_FLOAT, .f = v };
}

static struct vops_attr as(const char *name, const char *v)
{
	return (struct vops_attr){ .name = (char *)name, .kind = VOPS_ATTR_STRING, .s = (char *)v };
}

static struct vops_attr al(const char *name, int n, const int64_t *v)
{
	return (struct vops_attr){ .name = (char *)name, .kind = VOPS_ATTR_LIST_INT,
				   .li = { n, (int64_t *)v } };
}

static struct vops_tensor tn(int32_t dt, int ndim, const int64_t *dims)
{
	return (struct vops_tensor){ .dtype = dt, .ndim = ndim, .dims = dims };
}

static struct vops_plan plan;
static struct vops_error perr;

static enum vops_err do_plan(const char *type, int nin, const struct vops_tensor *in, int nout,
			     const struct vops_attr *at, unsigned int nat)
{
	memset(&perr, 0, sizeof(perr));
	return vops_plan(type, nin, in, nout, at, nat, &plan, &perr);
}

/* Plan must fail with @code and a message naming @type. */
static void plan_fails(const char *type, int nin, const struct vops_tensor *in, int nout,
		       const struct vops_attr *at, unsigned int nat, enum vops_err code)
{
	enum vops_err e = do_plan(type, nin, in, nout, at, nat);

	ck_assert_msg(e == code, "%s: got %d (%s), want %d", type, e, perr.msg, code);
	ck_assert_msg(strstr(perr.msg, type), "%s: message \"%s\"", type, perr.msg);
}

static char *outs[MAXO];

/* Run the plan on @ins (sizes from the plan); outputs in outs[] (0xa5 filled first). */
static enum vops_run_status run_ctl(const void *const *ins, const struct vops_ctl *ctl)
{
	struct vops_operand ops[VOPS_MAX_INPUTS + MAXO + 1];
	unsigned int n = 0;
	void *ws = NULL;
	enum vops_run_status st;
	char why[256];
	int i;

	for (i = 0; i < plan.nin; i++)
		ops[n++] =
			(struct vops_operand){(void *)ins[i], plan.in_bytes[i], VNPU_OPERAND_READ};
	for (i = 0; i < plan.nout; i++) {
		free(outs[i]);
		outs[i] = aligned_alloc(64, (plan.out[i].bytes + 127) / 64 * 64);
		memset(outs[i], 0xa5, plan.out[i].bytes + 64);
		ops[n++] = (struct vops_operand){ outs[i], plan.out[i].bytes, VNPU_OPERAND_WRITE };
	}
	if (plan.ws_bytes) {
		ws = aligned_alloc(64, (plan.ws_bytes + 63) / 64 * 64);
		ops[n++] = (struct vops_operand){ ws, plan.ws_bytes, VNPU_OPERAND_WORKSPACE };
	}
	st = vops_run(plan.desc, plan.desc_size, ops, n, ctl, why, sizeof(why));
	free(ws);
	return st;
}

static void run_ok(const void *const *ins)
{
	enum vops_run_status st = run_ctl(ins, NULL);

	ck_assert_int_eq(st, VOPS_RUN_OK);
}

static void want_shape(int k, int ndim, const int64_t *dims)
{
	int d;

	ck_assert_int_eq(plan.out[k].ndim, ndim);
	for (d = 0; d < ndim; d++)
		ck_assert_int_eq(plan.out[k].dims[d], dims[d]);
}

static void teardown(void)
{
	int i;

	for (i = 0; i < MAXO; i++) {
		free(outs[i]);
		outs[i] = NULL;
	}
}

/* ---- shapes ------------------------------------------------------------------- */

START_TEST(reshape_basic)
{
	const int64_t d[] = { 2, 3, 4 }, sh[] = { 0, -1 }, sh2[] = { 4, -1, -1 }, sh3[] = { 5, 5 };
	const int64_t want[] = { 2, 12 };
	struct vops_tensor x = tn(ACL_FLOAT, 3, d);
	struct vops_attr at[] = { al("shape", 2, sh) };
	float in[24];
	const void *ins[] = { in };
	int i;

	for (i = 0; i < 24; i++)
		in[i] = (float)i * 0.5f;
	ck_assert_int_eq(do_plan("Reshape", 1, &x, 1, at, 1), VOPS_OK);
	want_shape(0, 2, want);
	ck_assert_int_eq(plan.in_place, 1);
	run_ok(ins);
	ck_assert(!memcmp(outs[0], in, sizeof(in)));
	at[0] = al("shape", 3, sh2);
	plan_fails("Reshape", 1, &x, 1, at, 1, VOPS_ERR_ATTR);
	at[0] = al("shape", 2, sh3);
	plan_fails("Reshape", 1, &x, 1, at, 1, VOPS_ERR_INPUT);
}
END_TEST

START_TEST(reshape_allowzero_and_partial)
{
	const int64_t d[] = { 0, 3 }, sh[] = { 3, 0 }, d2[] = { 2, 6, 5 }, sh2[] = { 3, 2 };
	const int64_t w2[] = { 2, 3, 2, 5 };
	struct vops_tensor x = tn(ACL_INT8, 2, d), y = tn(ACL_INT8, 3, d2);
	struct vops_attr at[] = { al("shape", 2, sh), ai("allowzero", 1) };
	struct vops_attr pt[] = { al("shape", 2, sh2), ai("axis", 1), ai("num_axes", 1) };

	ck_assert_int_eq(do_plan("Reshape", 1, &x, 1, at, 2), VOPS_OK);
	want_shape(0, 2, sh);
	ck_assert(plan.empty);
	/* CANN's partial reshape: dimension 1 becomes [3, 2]. */
	ck_assert_int_eq(do_plan("Reshape", 1, &y, 1, pt, 3), VOPS_OK);
	want_shape(0, 4, w2);
}
END_TEST

START_TEST(flatten_squeeze_unsqueeze)
{
	const int64_t d[] = { 2, 3, 4 }, w[] = { 6, 4 }, w0[] = { 1, 24 }, d1[] = { 1, 3, 1 };
	const int64_t ax[] = { -1 }, w1[] = { 1, 3 }, wall[] = { 3 }, uax[] = { 3, 0 };
	const int64_t wu[] = { 1, 1, 3, 1, 1 };
	struct vops_tensor x = tn(ACL_UINT16, 3, d), s = tn(ACL_BOOL, 3, d1);
	struct vops_attr at[] = { ai("axis", -1) };
	uint8_t in[3] = { 1, 0, 1 };
	const void *ins[] = { in };

	at[0] = ai("axis", 2);
	ck_assert_int_eq(do_plan("Flatten", 1, &x, 1, at, 1), VOPS_OK);
	want_shape(0, 2, w);
	at[0] = ai("axis", 0);
	ck_assert_int_eq(do_plan("Flatten", 1, &x, 1, at, 1), VOPS_OK);
	want_shape(0, 2, w0);
	at[0] = ai("axis", 4);
	plan_fails("Flatten", 1, &x, 1, at, 1, VOPS_ERR_ATTR);

	at[0] = al("axis", 1, ax);
	ck_assert_int_eq(do_plan("Squeeze", 1, &s, 1, at, 1), VOPS_OK);
	want_shape(0, 2, w1);
	ck_assert_int_eq(do_plan("Squeeze", 1, &s, 1, NULL, 0), VOPS_OK);
	want_shape(0, 1, wall);
	run_ok(ins);
	ck_assert(!memcmp(outs[0], in, 3));
	at[0] = al("axis", 1, (const int64_t[]){ 1 });
	plan_fails("Squeeze", 1, &s, 1, at, 1, VOPS_ERR_INPUT);

	at[0] = al("axes", 2, uax);
	ck_assert_int_eq(do_plan("Unsqueeze", 1, &s, 1, at, 1), VOPS_OK);
	want_shape(0, 5, wu);
	at[0] = al("axes", 2, (const int64_t[]){ 1, 1 });
	plan_fails("Unsqueeze", 1, &s, 1, at, 1, VOPS_ERR_ATTR);
}
END_TEST

/* ---- TransposeD ------------------------------------------------------------------- */

START_TEST(transpose_3d)
{
	const int64_t d[] = { 2, 3, 4 }, perm[] = { 2, 0, 1 }, w[] = { 4, 2, 3 };
	struct vops_tensor x = tn(ACL_INT16, 3, d);
	struct vops_attr at[] = { al("perm", 3, perm) };
	int16_t in[24];
	const void *ins[] = { in };
	int i, j, k;

	for (i = 0; i < 24; i++)
		in[i] = (int16_t)(i * 7 - 50);
	ck_assert_int_eq(do_plan("TransposeD", 1, &x, 1, at, 1), VOPS_OK);
	want_shape(0, 3, w);
	run_ok(ins);
	for (k = 0; k < 4; k++)
		for (i = 0; i < 2; i++)
			for (j = 0; j < 3; j++)
				ck_assert_int_eq(((int16_t *)outs[0])[(k * 2 + i) * 3 + j],
						 in[(i * 3 + j) * 4 + k]);
}
END_TEST

/* Each element size through the tiled 2-D path, rows and columns not multiples of the tile. */
START_TEST(transpose_2d_types)
{
	static const int32_t types[] = { ACL_UINT8, ACL_BF16, ACL_FLOAT, ACL_DOUBLE, ACL_INT64 };
	const int64_t d[] = { 67, 45 }, perm[] = { 1, 0 };
	struct vops_attr at[] = { al("perm", 2, perm) };
	unsigned char in[67 * 45 * 8];
	const void *ins[] = { in };
	size_t t, es, i, j;

	for (i = 0; i < sizeof(in); i++)
		in[i] = (unsigned char)(i * 31 + 7);
	for (t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
		struct vops_tensor x = tn(types[t], 2, d);

		es = vops_dtype_size(types[t]);
		ck_assert_int_eq(do_plan("TransposeD", 1, &x, 1, at, 1), VOPS_OK);
		run_ok(ins);
		for (i = 0; i < 67; i++)
			for (j = 0; j < 45; j++)
				ck_assert(!memcmp(outs[0] + (j * 67 + i) * es,
						  in + (i * 45 + j) * es, es));
	}
}
END_TEST

/* A view input: every other column of a [3, 8] matrix, transposed. */
START_TEST(transpose_view)
{
	const int64_t d[] = { 3, 4 }, st[] = { 8, 2 }, perm[] = { 1, 0 };
	struct vops_tensor x = {
		.dtype = ACL_FLOAT, .ndim = 2, .dims = d, .strides = st, .offset = 1};
	struct vops_attr at[] = { al("perm", 2, perm) };
	float in[24];
	const void *ins[] = { in };
	int i, j;

	for (i = 0; i < 24; i++)
		in[i] = (float)i;
	ck_assert_int_eq(do_plan("TransposeD", 1, &x, 1, at, 1), VOPS_OK);
	ck_assert_int_eq(plan.in_bytes[0], 24 * 4);
	run_ok(ins);
	for (j = 0; j < 4; j++)
		for (i = 0; i < 3; i++)
			ck_assert(((float *)outs[0])[j * 3 + i] == in[1 + i * 8 + j * 2]);
}
END_TEST

START_TEST(transpose_errors)
{
	const int64_t d[] = { 2, 3 }, p0[] = { 0, 0 }, p3[] = { 0, 1, 2 };
	struct vops_tensor x = tn(ACL_FLOAT, 2, d);
	struct vops_attr at[] = { al("perm", 2, p0) };

	plan_fails("TransposeD", 1, &x, 1, at, 1, VOPS_ERR_ATTR);
	ck_assert_str_eq(perr.msg,
			 "TransposeD: attribute perm [0, 0] is not a permutation of 2 axes");
	at[0] = al("perm", 3, p3);
	plan_fails("TransposeD", 1, &x, 1, at, 1, VOPS_ERR_ATTR);
	plan_fails("TransposeD", 1, &x, 1, NULL, 0, VOPS_ERR_ATTR);
	at[0] = ai("axes", 1);
	plan_fails("TransposeD", 1, &x, 1, at, 1, VOPS_ERR_ATTR);
	x.dtype = ACL_STRING;
	at[0] = al("perm", 2, (const int64_t[]){ 1, 0 });
	plan_fails("TransposeD", 1, &x, 1, at, 1, VOPS_ERR_DTYPE);
}
END_TEST

/* ---- ConcatD, SplitD, SplitVD ---------------------------------------------------- */

START_TEST(concat_split)
{
	const int64_t a[] = {2, 1}, b[] = {2, 3}, c3[] = {2, 2}, w[] = {2, 6}, bad[] = {3, 3};
	struct vops_tensor x[3] = {tn(ACL_INT64, 2, a), tn(ACL_INT64, 2, b), tn(ACL_INT64, 2, c3)};
	struct vops_attr at[] = { ai("concat_dim", -1), ai("N", 3) };
	int64_t ia[2] = { 1, 2 }, ib[6] = { 3, 4, 5, 6, 7, 8 }, ic[4] = { 9, 10, 11, 12 };
	const int64_t want[12] = { 1, 3, 4, 5, 9, 10, 2, 6, 7, 8, 11, 12 };
	const void *ins[] = { ia, ib, ic };
	const int64_t sizes[] = { 1, -1, 2 }, one[] = { 2, 1 }, three[] = { 2, 3 };

	ck_assert_int_eq(do_plan("ConcatD", 3, x, 1, at, 2), VOPS_OK);
	want_shape(0, 2, w);
	run_ok(ins);
	ck_assert(!memcmp(outs[0], want, sizeof(want)));
	at[1] = ai("N", 2);
	plan_fails("ConcatD", 3, x, 1, at, 2, VOPS_ERR_ATTR);
	x[1] = tn(ACL_INT64, 2, bad);
	plan_fails("ConcatD", 3, x, 1, at, 1, VOPS_ERR_INPUT);

	/* Split the concatenation back: SplitVD [1, -1, 2], SplitD in 2 (rows). */
	{
		struct vops_tensor y = tn(ACL_INT64, 2, w);
		struct vops_attr sv[] = { al("size_splits", 3, sizes), ai("split_dim", 1),
					  ai("num_split", 3) };
		struct vops_attr sd[] = { ai("split_dim", 0), ai("num_split", 2) };
		const void *yin[] = { want };

		ck_assert_int_eq(do_plan("SplitVD", 1, &y, 3, sv, 3), VOPS_OK);
		want_shape(0, 2, one);
		want_shape(1, 2, three);
		run_ok(yin);
		ck_assert(!memcmp(outs[0], ia, sizeof(ia)));
		ck_assert(!memcmp(outs[1], ib, sizeof(ib)));
		ck_assert(!memcmp(outs[2], ic, sizeof(ic)));
		ck_assert_int_eq(do_plan("SplitD", 1, &y, 2, sd, 2), VOPS_OK);
		run_ok(yin);
		ck_assert(!memcmp(outs[1], want + 6, 6 * 8));
		sd[1] = ai("num_split", 3);
		plan_fails("SplitD", 1, &y, 3, sd, 2, VOPS_ERR_INPUT);
		plan_fails("SplitD", 1, &y, 2, sd, 2, VOPS_ERR_ATTR);
		sv[0] = al("size_splits", 3, (const int64_t[]){ 1, 1, 1 });
		plan_fails("SplitVD", 1, &y, 3, sv, 3, VOPS_ERR_ATTR);
	}
}
END_TEST

/* ---- StridedSliceD --------------------------------------------------------------- */

START_TEST(slice_steps)
{
	const int64_t d[] = { 5 }, d2[] = { 3, 4 }, w1[] = { 3 };
	const int64_t b1[] = { -1 }, e1[] = { INT64_MIN }, s1[] = { -2 };
	struct vops_tensor x = tn(ACL_FLOAT16, 1, d), y = tn(ACL_INT32, 2, d2);
	struct vops_attr at[] = { al("begin", 1, b1), al("end", 1, e1), al("strides", 1, s1),
				  ai("shrink_axis_mask", 0) };
	uint16_t in[5] = { 10, 11, 12, 13, 14 };
	int32_t in2[12];
	const void *ins[] = { in }, *ins2[] = { in2 };
	int i;

	ck_assert_int_eq(do_plan("StridedSliceD", 1, &x, 1, at, 3), VOPS_OK);
	want_shape(0, 1, w1);
	run_ok(ins);
	ck_assert_int_eq(((uint16_t *)outs[0])[0], 14);
	ck_assert_int_eq(((uint16_t *)outs[0])[1], 12);
	ck_assert_int_eq(((uint16_t *)outs[0])[2], 10);
	/* Out of bounds: clamped, and an empty slice. */
	at[0] = al("begin", 1, (const int64_t[]){ 10 });
	at[1] = al("end", 1, (const int64_t[]){ 20 });
	at[2] = al("strides", 1, (const int64_t[]){ 1 });
	ck_assert_int_eq(do_plan("StridedSliceD", 1, &x, 1, at, 3), VOPS_OK);
	ck_assert(plan.empty);
	at[2] = al("strides", 1, (const int64_t[]){ 0 });
	plan_fails("StridedSliceD", 1, &x, 1, at, 3, VOPS_ERR_ATTR);

	/* Row 1 shrunk, columns 3, 1 (negative step). */
	for (i = 0; i < 12; i++)
		in2[i] = i;
	at[0] = al("begin", 2, (const int64_t[]){ 1, 3 });
	at[1] = al("end", 2, (const int64_t[]){ 2, 0 });
	at[2] = al("strides", 2, (const int64_t[]){ 1, -2 });
	at[3] = ai("shrink_axis_mask", 1);
	ck_assert_int_eq(do_plan("StridedSliceD", 1, &y, 1, at, 4), VOPS_OK);
	want_shape(0, 1, (const int64_t[]){ 2 });
	run_ok(ins2);
	ck_assert_int_eq(((int32_t *)outs[0])[0], 7);
	ck_assert_int_eq(((int32_t *)outs[0])[1], 5);
}
END_TEST

/* ---- ExpandD, TileD --------------------------------------------------------------- */

START_TEST(expand_tile)
{
	const int64_t d[] = { 3, 1 }, sh[] = { 2, 1, 4 }, w[] = { 2, 3, 4 }, bad[] = { 2, 4 };
	const int64_t td[] = { 2, 3 }, m[] = { 2, 2 }, tw[] = { 4, 6 };
	struct vops_tensor x = tn(ACL_BOOL, 2, d), t = tn(ACL_INT8, 2, td);
	struct vops_attr at[] = { al("shape", 3, sh) };
	uint8_t in[3] = { 1, 0, 1 };
	int8_t tin[6] = { 1, 2, 3, 4, 5, 6 };
	const void *ins[] = { in }, *tins[] = { tin };
	int i, j, k;

	ck_assert_int_eq(do_plan("ExpandD", 1, &x, 1, at, 1), VOPS_OK);
	want_shape(0, 3, w);
	run_ok(ins);
	for (i = 0; i < 2; i++)
		for (j = 0; j < 3; j++)
			for (k = 0; k < 4; k++)
				ck_assert_int_eq(((uint8_t *)outs[0])[(i * 3 + j) * 4 + k], in[j]);
	at[0] = al("shape", 2, bad);
	plan_fails("ExpandD", 1, &x, 1, at, 1, VOPS_ERR_INPUT);

	at[0] = al("multiples", 2, m);
	ck_assert_int_eq(do_plan("TileD", 1, &t, 1, at, 1), VOPS_OK);
	want_shape(0, 2, tw);
	run_ok(tins);
	for (i = 0; i < 4; i++)
		for (j = 0; j < 6; j++)
			ck_assert_int_eq(((int8_t *)outs[0])[i * 6 + j], tin[(i % 2) * 3 + j % 3]);
	at[0] = al("multiples", 1, m);
	plan_fails("TileD", 1, &t, 1, at, 1, VOPS_ERR_ATTR);
}
END_TEST

/* ---- PadV3D -------------------------------------------------------------------- */

static void pad_1d(const char *mode, const int64_t *pads, const float *want, int n)
{
	const int64_t d[] = { 4 };
	struct vops_tensor x = tn(ACL_FLOAT, 1, d);
	struct vops_attr at[] = {al("paddings", 2, pads), as("mode", mode),
				 af("constant_values", 9)};
	const float in[4] = { 1, 2, 3, 4 };
	const void *ins[] = { in };
	int i;

	ck_assert_int_eq(do_plan("PadV3D", 1, &x, 1, at, 3), VOPS_OK);
	ck_assert_int_eq(plan.out[0].dims[0], n);
	run_ok(ins);
	for (i = 0; i < n; i++)
		ck_assert_msg(((float *)outs[0])[i] == want[i], "%s [%d]: %g, want %g", mode, i,
			      ((float *)outs[0])[i], want[i]);
}

START_TEST(pad_modes)
{
	const int64_t p[] = { 3, 2 }, neg[] = { -1, 1 };

	pad_1d("constant", p, (const float[]){ 9, 9, 9, 1, 2, 3, 4, 9, 9 }, 9);
	pad_1d("reflect", p, (const float[]){ 4, 3, 2, 1, 2, 3, 4, 3, 2 }, 9);
	pad_1d("edge", p, (const float[]){ 1, 1, 1, 1, 2, 3, 4, 4, 4 }, 9);
	pad_1d("circular", p, (const float[]){ 2, 3, 4, 1, 2, 3, 4, 1, 2 }, 9);
	pad_1d("constant", neg, (const float[]){ 2, 3, 4, 9 }, 4);
}
END_TEST

/* 2-D, ONNX's pads layout, int16 with an int value, a view input. */
START_TEST(pad_2d)
{
	const int64_t d[] = { 2, 2 }, st[] = { 1, 2 }, pads[] = { 1, 0, 0, 1 };
	struct vops_tensor x = { .dtype = ACL_INT16, .ndim = 2, .dims = d, .strides = st };
	struct vops_attr at[] = { al("paddings", 4, pads), ai("constant_values", -7),
				  ai("paddings_contiguous", 0), as("mode", "constant") };
	const int16_t in[4] = { 1, 2, 3, 4 };	/* the view is [[1, 3], [2, 4]] */
	const int16_t want[] = { -7, -7, -7, 1, 3, -7, 2, 4, -7 };
	const void *ins[] = { in };

	ck_assert_int_eq(do_plan("PadV3D", 1, &x, 1, at, 4), VOPS_OK);
	want_shape(0, 2, (const int64_t[]){ 3, 3 });
	run_ok(ins);
	ck_assert(!memcmp(outs[0], want, sizeof(want)));
	at[3] = as("mode", "symmetric");
	plan_fails("PadV3D", 1, &x, 1, at, 4, VOPS_ERR_ATTR);
	at[3] = as("mode", "edge");
	at[0] = al("paddings", 2, pads);
	plan_fails("PadV3D", 1, &x, 1, at, 4, VOPS_ERR_ATTR);
}
END_TEST

/* ---- Identity, Shape, Size, FillD, RangeD --------------------------------------------- */

START_TEST(identity_view)
{
	const int64_t d[] = { 2, 2 }, st[] = { 0, 1 };
	struct vops_tensor x = {
		.dtype = ACL_BF16, .ndim = 2, .dims = d, .strides = st, .offset = 1};
	const uint16_t in[3] = { 0x3f80, 0x4000, 0x4040 };
	const uint16_t want[4] = { 0x4000, 0x4040, 0x4000, 0x4040 };
	const void *ins[] = { in };

	ck_assert_int_eq(do_plan("Identity", 1, &x, 1, NULL, 0), VOPS_OK);
	ck_assert_int_eq(plan.in_place, 0);
	run_ok(ins);
	ck_assert(!memcmp(outs[0], want, sizeof(want)));
}
END_TEST

START_TEST(shape_size)
{
	const int64_t d[] = { 2, 3, 5, 7 };
	struct vops_tensor x = tn(ACL_DOUBLE, 4, d);
	struct vops_attr at[] = { ai("dtype", ACL_INT64), ai("start", 1), ai("end", -1) };
	const void *ins[] = { NULL };

	ck_assert_int_eq(do_plan("Shape", 1, &x, 1, at, 3), VOPS_OK);
	ck_assert_int_eq(plan.in_bytes[0], 0);
	want_shape(0, 1, (const int64_t[]){ 2 });
	run_ok(ins);
	ck_assert_int_eq(((int64_t *)outs[0])[0], 3);
	ck_assert_int_eq(((int64_t *)outs[0])[1], 5);
	ck_assert_int_eq(do_plan("Shape", 1, &x, 1, NULL, 0), VOPS_OK);
	ck_assert_int_eq(plan.out[0].dtype, ACL_INT32);
	run_ok(ins);
	ck_assert_int_eq(((int32_t *)outs[0])[3], 7);
	at[0] = ai("dtype", ACL_FLOAT);
	plan_fails("Shape", 1, &x, 1, at, 1, VOPS_ERR_ATTR);

	at[0] = ai("dtype", ACL_INT64);
	ck_assert_int_eq(do_plan("Size", 1, &x, 1, at, 1), VOPS_OK);
	ck_assert_int_eq(plan.out[0].ndim, 0);
	run_ok(ins);
	ck_assert_int_eq(((int64_t *)outs[0])[0], 210);
}
END_TEST

START_TEST(fill_range)
{
	const int64_t one[] = { 1 }, dims[] = { 2, 3 }, n3[] = { 3 }, n4[] = { 4 };
	struct vops_tensor v = tn(ACL_UINT16, 0, NULL), a = tn(ACL_FLOAT, 1, n3);
	struct vops_attr at[] = { al("dims", 2, dims), af("limit", 5.5f), af("delta", 2) };
	const uint16_t val = 0xbeef;
	const float assist[4] = { 0, 1, 2, 3 };
	const int32_t iassist[4] = { 0, 1, 2, 3 };
	const void *ins[] = { &val }, *rin[] = { assist }, *iin[] = { iassist };
	int i;

	ck_assert_int_eq(do_plan("FillD", 1, &v, 1, at, 1), VOPS_OK);
	want_shape(0, 2, dims);
	run_ok(ins);
	for (i = 0; i < 6; i++)
		ck_assert_int_eq(((uint16_t *)outs[0])[i], 0xbeef);
	v = tn(ACL_UINT16, 1, n3);
	plan_fails("FillD", 1, &v, 1, at, 1, VOPS_ERR_INPUT);
	(void)one;

	/* RangeD: 0.5, 2.5, 4.5 over the assist 0, 1, 2. */
	at[0] = af("start", 0.5f);
	ck_assert_int_eq(do_plan("RangeD", 1, &a, 1, at, 3), VOPS_OK);
	run_ok(rin);
	for (i = 0; i < 3; i++)
		ck_assert(((float *)outs[0])[i] == 0.5f + 2.0f * (float)i);
	a = tn(ACL_FLOAT, 1, n4);
	plan_fails("RangeD", 1, &a, 1, at, 3, VOPS_ERR_INPUT);
	/* int32 10, 7, 4, 1 down to limit 0 with delta -3. */
	{
		struct vops_tensor ia = tn(ACL_INT32, 1, n4);
		struct vops_attr it[] = { ai("start", 10), ai("limit", 0), ai("delta", -3) };

		ck_assert_int_eq(do_plan("RangeD", 1, &ia, 1, it, 3), VOPS_OK);
		run_ok(iin);
		for (i = 0; i < 4; i++)
			ck_assert_int_eq(((int32_t *)outs[0])[i], 10 - 3 * i);
		it[2] = ai("delta", 0);
		plan_fails("RangeD", 1, &ia, 1, it, 3, VOPS_ERR_ATTR);
		ia.dtype = ACL_BOOL;
		plan_fails("RangeD", 1, &ia, 1, it, 3, VOPS_ERR_DTYPE);
	}
}
END_TEST

/* ---- ViewCopyD ---------------------------------------------------------------------- */

/* ViewCopyD's attributes: the view (@rank dims and strides), offset, storage size. */
static unsigned int vc_attrs(struct vops_attr *at, int rank, const int64_t *size, const int64_t *st,
			     int64_t off, int64_t ssize)
{
	at[0] = al("dst_size", rank, size);
	at[1] = al("dst_stride", rank, st);
	at[2] = ai("dst_storage_offset", off);
	at[3] = ai("dst_storage_size", ssize);
	return 4;
}

/* Run the plan with @storage (its real contents) as the output operand. */
static enum vops_run_status vc_run_ctl(const void *src, void *storage, const struct vops_ctl *ctl)
{
	struct vops_operand ops[2] = {
		{ (void *)src, plan.in_bytes[0], VNPU_OPERAND_READ },
		{ storage, plan.out[0].bytes, VNPU_OPERAND_WRITE },
	};
	char why[256];

	ck_assert_int_eq(plan.nout, 1);
	ck_assert_int_eq(plan.ws_bytes, 0);
	return vops_run(plan.desc, plan.desc_size, ops, 2, ctl, why, sizeof(why));
}

static void vc_run(const void *src, void *storage)
{
	ck_assert_int_eq(vc_run_ctl(src, storage, NULL), VOPS_RUN_OK);
}

/* Storage elements at and off the view: float values, -1 elsewhere. */
static void vc_fill(float *s, int n)
{
	int i;

	for (i = 0; i < n; i++)
		s[i] = -1.0f;
}

START_TEST(viewcopy_contiguous_and_untouched)
{
	const int64_t d[] = { 2, 3 }, st[] = { 3, 1 };
	struct vops_tensor x = tn(ACL_FLOAT, 2, d);
	struct vops_attr at[5];
	const float in[6] = { 1, 2, 3, 4, 5, 6 };
	float s[10];
	int i;

	ck_assert_int_eq(do_plan("ViewCopyD", 1, &x, 1, at, vc_attrs(at, 2, d, st, 2, 10)), VOPS_OK);
	ck_assert_int_eq(plan.out[0].dtype, ACL_FLOAT);
	want_shape(0, 1, (const int64_t[]){ 10 });
	ck_assert_int_eq(plan.out[0].bytes, 40);
	ck_assert_int_eq(plan.in_place, 0);
	vc_fill(s, 10);
	vc_run(in, s);
	for (i = 0; i < 10; i++)
		ck_assert_float_eq(s[i], i >= 2 && i < 8 ? in[i - 2] : -1.0f);
	/* the storage may be larger than the view; the offset defaults to 0 */
	at[2] = ai("dst_storage_size", 7);
	ck_assert_int_eq(do_plan("ViewCopyD", 1, &x, 1, at, 3), VOPS_OK);
	vc_fill(s, 10);
	vc_run(in, s);
	for (i = 0; i < 10; i++)
		ck_assert_float_eq(s[i], i < 6 ? in[i] : -1.0f);
}
END_TEST

START_TEST(viewcopy_transposed_sliced)
{
	/* dst: the transpose of a [3, 2] row-major storage at offset 1: element (i, j) at
	 * 1 + i + 2 * j, for a [2, 3] view */
	const int64_t d[] = { 2, 3 }, tst[] = { 1, 2 };
	/* src: a [2, 3] slice of a [3, 4] int32 matrix from (1, 1) */
	const int64_t sst[] = { 4, 1 };
	struct vops_tensor x = { .dtype = ACL_INT32, .ndim = 2, .dims = d, .strides = sst, .offset = 5 };
	struct vops_tensor xt = { .dtype = ACL_INT32, .ndim = 2, .dims = d,
				  .strides = (const int64_t[]){ 1, 2 } };
	struct vops_attr at[5];
	int32_t in[12], s[8];
	int i, j, k;

	for (i = 0; i < 12; i++)
		in[i] = 100 + i;
	ck_assert_int_eq(do_plan("ViewCopyD", 1, &x, 1, at, vc_attrs(at, 2, d, tst, 1, 8)), VOPS_OK);
	for (k = 0; k < 8; k++)
		s[k] = -7;
	vc_run(in, s);
	for (k = 0; k < 8; k++) {
		bool in_view = k >= 1 && k < 7;

		i = (k - 1) % 2;
		j = (k - 1) / 2;
		ck_assert_int_eq(s[k], in_view ? in[5 + 4 * i + j] : -7);
	}
	/* a transposed src into a dense dst: the element order of the view */
	ck_assert_int_eq(do_plan("ViewCopyD", 1, &xt, 1, at,
				 vc_attrs(at, 2, d, (const int64_t[]){ 3, 1 }, 0, 6)), VOPS_OK);
	vc_run(in, s);
	for (i = 0; i < 2; i++)
		for (j = 0; j < 3; j++)
			ck_assert_int_eq(s[3 * i + j], in[i + 2 * j]);
}
END_TEST

START_TEST(viewcopy_broadcast)
{
	const int64_t d[] = { 2, 3 }, st[] = { 4, 1 }, row[] = { 3 }, one[] = { 2, 1 };
	struct vops_tensor r = tn(ACL_FLOAT16, 1, row), c = tn(ACL_FLOAT16, 2, one);
	struct vops_tensor sc = tn(ACL_FLOAT16, 0, NULL);
	/* a stride-0 src view: one element seen as [2, 3] */
	struct vops_tensor z = { .dtype = ACL_FLOAT16, .ndim = 2, .dims = d,
				 .strides = (const int64_t[]){ 0, 0 }, .offset = 1 };
	struct vops_attr at[5];
	uint16_t in[3], s[8];
	int i, j;

	for (i = 0; i < 3; i++)
		in[i] = vops_f32_to_f16((float)(i + 1));
	ck_assert_int_eq(do_plan("ViewCopyD", 1, &r, 1, at, vc_attrs(at, 2, d, st, 0, 8)), VOPS_OK);
	memset(s, 0, sizeof(s));
	vc_run(in, s);
	for (i = 0; i < 2; i++) {
		for (j = 0; j < 3; j++)
			ck_assert_int_eq(s[4 * i + j], in[j]);
		ck_assert_int_eq(s[4 * i + 3], 0);
	}
	ck_assert_int_eq(do_plan("ViewCopyD", 1, &c, 1, at, vc_attrs(at, 2, d, st, 0, 8)), VOPS_OK);
	vc_run(in, s);
	for (i = 0; i < 2; i++)
		for (j = 0; j < 3; j++)
			ck_assert_int_eq(s[4 * i + j], in[i]);
	ck_assert_int_eq(do_plan("ViewCopyD", 1, &sc, 1, at, vc_attrs(at, 2, d, st, 0, 8)), VOPS_OK);
	vc_run(in + 2, s);
	for (i = 0; i < 2; i++)
		for (j = 0; j < 3; j++)
			ck_assert_int_eq(s[4 * i + j], in[2]);
	ck_assert_int_eq(do_plan("ViewCopyD", 1, &z, 1, at, vc_attrs(at, 2, d, st, 0, 8)), VOPS_OK);
	vc_run(in, s);
	for (i = 0; i < 2; i++)
		for (j = 0; j < 3; j++)
			ck_assert_int_eq(s[4 * i + j], in[1]);
	/* [3] does not broadcast to [3, 2]; rank 3 src into a 2-D view neither */
	plan_fails("ViewCopyD", 1, &r, 1, at,
		   vc_attrs(at, 2, (const int64_t[]){ 3, 2 }, (const int64_t[]){ 2, 1 }, 0, 6),
		   VOPS_ERR_INPUT);
	r.ndim = 3;
	r.dims = (const int64_t[]){ 1, 2, 3 };
	plan_fails("ViewCopyD", 1, &r, 1, at, vc_attrs(at, 2, d, st, 0, 8), VOPS_ERR_INPUT);
}
END_TEST

/*
 * Every pair of nine types: the values of each element converted as Cast
 * converts them (its dense output is the reference), written into a
 * transposed view at an offset; the storage's other elements untouched.
 */
START_TEST(viewcopy_dtype_pairs)
{
	static const int32_t types[] = {
		ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT64, ACL_INT8, ACL_UINT8,
		ACL_BOOL, ACL_DOUBLE,
	};
	const double vals[20] = {
		0.0, 1.0, -1.0, 2.5, -2.5, 3.75, 127.0, 128.0, 255.0, 256.0, -129.0, 1000.3,
		65504.0, 65520.0, 1e10, -1e10, 0.1, 1.0 + 0x1p-10 + 0x1p-12, 300.5, -0.0,
	};
	const int64_t d[] = { 4, 5 }, vst[] = { 1, 6 }, n20[] = { 20 };
	const int64_t off = 3, ssize = 3 + 3 * 1 + 4 * 6 + 1 + 2;
	struct vops_tensor f64 = tn(ACL_DOUBLE, 2, d), src = tn(ACL_FLOAT, 2, d);
	struct vops_tensor flat = tn(ACL_FLOAT, 1, n20);
	struct vops_attr ct[1], at[5];
	unsigned char sbuf[20 * 8], want[20 * 8], stor[40 * 8], sentinel[8];
	size_t a, b;
	int i, j, k;

	memset(sentinel, 0x5a, sizeof(sentinel));
	for (a = 0; a < sizeof(types) / sizeof(types[0]); a++) {
		size_t es = vops_dtype_size(types[a]);

		/* the source values, as Cast makes them from doubles */
		ct[0] = ai("dst_type", types[a]);
		ck_assert_int_eq(do_plan("Cast", 1, &f64, 1, ct, 1), VOPS_OK);
		run_ok((const void *const[]){ vals });
		memcpy(sbuf, outs[0], 20 * es);
		src.dtype = types[a];
		flat.dtype = types[a];
		for (b = 0; b < sizeof(types) / sizeof(types[0]); b++) {
			size_t ed = vops_dtype_size(types[b]);

			if (types[a] == types[b]) {
				memcpy(want, sbuf, 20 * es);	/* the bits as they are */
			} else {
				ct[0] = ai("dst_type", types[b]);
				ck_assert_int_eq(do_plan("Cast", 1, &flat, 1, ct, 1), VOPS_OK);
				run_ok((const void *const[]){ sbuf });
				memcpy(want, outs[0], 20 * ed);
			}
			vc_attrs(at, 2, d, vst, off, ssize);
			at[4] = ai("dst_type", types[b]);
			ck_assert_int_eq(do_plan("ViewCopyD", 1, &src, 1, at, 5), VOPS_OK);
			ck_assert_int_eq(plan.out[0].dtype, types[b]);
			ck_assert_int_eq(plan.out[0].bytes, ssize * (int64_t)ed);
			memset(stor, 0x5a, sizeof(stor));
			vc_run(sbuf, stor);
			for (k = 0; k < ssize; k++) {
				int rel = k - (int)off;
				bool in_view = rel >= 0 && rel % 6 < 4 && rel / 6 < 5;

				i = rel % 6;
				j = rel / 6;
				ck_assert_msg(!memcmp(stor + (size_t)k * ed,
						      in_view ? want + (size_t)(5 * i + j) * ed : sentinel,
						      ed),
					      "%s -> %s: storage element %d", vops_dtype_name(types[a]),
					      vops_dtype_name(types[b]), k);
			}
		}
	}
}
END_TEST

START_TEST(viewcopy_refusals)
{
	const int64_t d[] = { 2, 3 }, st[] = { 3, 1 };
	struct vops_tensor x = tn(ACL_FLOAT, 2, d), e = tn(ACL_FLOAT, 2, (const int64_t[]){ 0, 3 });
	struct vops_attr at[5];

	/* elements that overlap: a 0 stride on a dimension > 1, equal strides, a stride
	 * shorter than the extent of the dimension inside it */
	plan_fails("ViewCopyD", 1, &x, 1, at,
		   vc_attrs(at, 2, d, (const int64_t[]){ 0, 1 }, 0, 8), VOPS_ERR_ATTR);
	ck_assert_ptr_nonnull(strstr(perr.msg, "overlap"));
	plan_fails("ViewCopyD", 1, &x, 1, at,
		   vc_attrs(at, 2, d, (const int64_t[]){ 1, 1 }, 0, 8), VOPS_ERR_ATTR);
	plan_fails("ViewCopyD", 1, &x, 1, at,
		   vc_attrs(at, 2, d, (const int64_t[]){ 2, 1 }, 0, 8), VOPS_ERR_ATTR);
	/* but a transposed view is no overlap, nor a 0 stride on a dimension of 1, nor a
	 * padded row */
	ck_assert_int_eq(do_plan("ViewCopyD", 1, &x, 1, at,
				 vc_attrs(at, 2, d, (const int64_t[]){ 1, 2 }, 0, 6)), VOPS_OK);
	ck_assert_int_eq(do_plan("ViewCopyD", 1, &x, 1, at,
				 vc_attrs(at, 3, (const int64_t[]){ 1, 2, 3 },
					  (const int64_t[]){ 0, 4, 1 }, 0, 7)), VOPS_OK);
	/* negative values */
	plan_fails("ViewCopyD", 1, &x, 1, at,
		   vc_attrs(at, 2, d, (const int64_t[]){ 3, -1 }, 2, 8), VOPS_ERR_ATTR);
	plan_fails("ViewCopyD", 1, &x, 1, at, vc_attrs(at, 2, d, st, -1, 8), VOPS_ERR_ATTR);
	plan_fails("ViewCopyD", 1, &x, 1, at, vc_attrs(at, 2, d, st, 0, -1), VOPS_ERR_ATTR);
	plan_fails("ViewCopyD", 1, &x, 1, at,
		   vc_attrs(at, 2, (const int64_t[]){ 2, -3 }, st, 0, 8), VOPS_ERR_ATTR);
	/* ranks that differ */
	vc_attrs(at, 2, d, st, 0, 8);
	at[1] = al("dst_stride", 1, st);
	plan_fails("ViewCopyD", 1, &x, 1, at, 4, VOPS_ERR_ATTR);
	/* a storage too small for the view; any storage for an empty view */
	plan_fails("ViewCopyD", 1, &x, 1, at, vc_attrs(at, 2, d, st, 2, 7), VOPS_ERR_ATTR);
	ck_assert_int_eq(do_plan("ViewCopyD", 1, &e, 1, at,
				 vc_attrs(at, 2, (const int64_t[]){ 0, 3 }, (const int64_t[]){ 0, 0 },
					  5, 0)), VOPS_OK);
	ck_assert(plan.empty);
	/* required attributes, a type lib/ops does not take */
	plan_fails("ViewCopyD", 1, &x, 1, at, vc_attrs(at, 2, d, st, 0, 6) - 1, VOPS_ERR_ATTR);
	plan_fails("ViewCopyD", 1, &x, 1, at + 1, 3, VOPS_ERR_ATTR);
	vc_attrs(at, 2, d, st, 0, 6);
	at[4] = ai("dst_type", ACL_COMPLEX64);
	plan_fails("ViewCopyD", 1, &x, 1, at, 5, VOPS_ERR_DTYPE);
	at[4] = ai("dst_type", ACL_BF16);
	ck_assert_int_eq(do_plan("ViewCopyD", 1, &x, 1, at, 5), VOPS_OK);
	ck_assert_int_eq(plan.out[0].bytes, 12);
}
END_TEST

/* ---- hostile descriptors, cancellation ------------------------------------------------ */

/* Set int parameter @k (of @ni, the last block of the descriptor) to @v. */
static void poke_param(uint32_t ni, uint32_t k, int64_t v)
{
	memcpy(plan.desc + plan.desc_size - 8 * (ni - k), &v, 8);
}

static void run_faults(const void *const *ins)
{
	enum vops_run_status st = run_ctl(ins, NULL);
	unsigned char c = 0xa5;
	uint64_t i;

	ck_assert_int_eq(st, VOPS_RUN_FAULT);
	for (i = 0; i < plan.out[0].bytes; i++)
		ck_assert(!memcmp(outs[0] + i, &c, 1));
}

START_TEST(corrupt_descriptors)
{
	const int64_t d[] = { 4, 4 }, perm[] = { 1, 0 }, sh[] = { 16 }, pads[] = { 1, 1, 1, 1 };
	const int64_t beg[] = { 0, 0 }, end[] = { 4, 4 }, str[] = { 1, 1 };
	struct vops_tensor x = tn(ACL_FLOAT, 2, d);
	struct vops_attr at[] = { al("perm", 2, perm) };
	struct vops_attr sl[] = { al("begin", 2, beg), al("end", 2, end), al("strides", 2, str) };
	float in[16] = { 0 };
	const void *ins[] = { in };
	int64_t big = 1000;

	/* perm [0, 0] */
	ck_assert_int_eq(do_plan("TransposeD", 1, &x, 1, at, 1), VOPS_OK);
	poke_param(2, 0, 0);
	run_faults(ins);
	/* A shape larger than the input operand (the input record's dims[0]). */
	ck_assert_int_eq(do_plan("TransposeD", 1, &x, 1, at, 1), VOPS_OK);
	memcpy(plan.desc + 16 + 8, &big, 8);
	run_faults(ins);
	/* Reshape's dims: more elements than the input. */
	at[0] = al("shape", 1, sh);
	ck_assert_int_eq(do_plan("Reshape", 1, &x, 1, at, 1), VOPS_OK);
	poke_param(1, 0, 17);
	run_faults(ins);
	/* A slice start past the dimension, a step that leaves it. */
	ck_assert_int_eq(do_plan("StridedSliceD", 1, &x, 1, sl, 3), VOPS_OK);
	poke_param(6, 0, 1);
	run_faults(ins);
	ck_assert_int_eq(do_plan("StridedSliceD", 1, &x, 1, sl, 3), VOPS_OK);
	poke_param(6, 4, 2);
	run_faults(ins);
	/* A pad mode out of range, a TileD multiple. */
	at[0] = al("paddings", 4, pads);
	ck_assert_int_eq(do_plan("PadV3D", 1, &x, 1, at, 1), VOPS_OK);
	memcpy(plan.desc + plan.desc_size - 8 * 7, &big, 8);
	run_faults(ins);
	at[0] = al("multiples", 2, perm);
	ck_assert_int_eq(do_plan("TileD", 1, &x, 1, at, 1), VOPS_OK);
	poke_param(2, 1, 3);
	run_faults(ins);
	/* ViewCopyD: strides that overlap, a storage smaller than the view, a bad type */
	{
		struct vops_attr vc[4];

		ck_assert_int_eq(do_plan("ViewCopyD", 1, &x, 1, vc,
					 vc_attrs(vc, 2, d, (const int64_t[]){ 4, 1 }, 0, 16)),
				 VOPS_OK);
		poke_param(7, 5, 0);
		run_faults(ins);
		ck_assert_int_eq(do_plan("ViewCopyD", 1, &x, 1, vc,
					 vc_attrs(vc, 2, d, (const int64_t[]){ 4, 1 }, 0, 16)),
				 VOPS_OK);
		poke_param(7, 1, 1);
		run_faults(ins);
		ck_assert_int_eq(do_plan("ViewCopyD", 1, &x, 1, vc,
					 vc_attrs(vc, 2, d, (const int64_t[]){ 4, 1 }, 0, 16)),
				 VOPS_OK);
		poke_param(7, 0, ACL_STRING);
		run_faults(ins);
	}
}
END_TEST

/*
 * ViewCopyD writes a strided view of its output: every byte of its
 * descriptor changed, the run faults without writing or stays within the
 * storage it was given (ASan watches the guard bytes after it too).
 */
START_TEST(viewcopy_hostile_bytes)
{
	const int64_t d[] = { 3, 4 }, st[] = { 1, 5 };
	static const unsigned char vals[] = { 0x00, 0xff, 0x7f, 0x01, 0x80 };
	struct vops_tensor x = { .dtype = ACL_INT16, .ndim = 2, .dims = d,
				 .strides = (const int64_t[]){ 1, 3 } };
	struct vops_attr at[5];
	unsigned char desc[VOPS_MAX_DESC], stor[64 + 16], guard[16];
	int16_t in[12];
	unsigned int i, v, faults = 0;
	char why[256];

	for (i = 0; i < 12; i++)
		in[i] = (int16_t)(i * 7 - 20);
	vc_attrs(at, 2, d, st, 2, 32);
	at[4] = ai("dst_type", ACL_FLOAT16);
	ck_assert_int_eq(do_plan("ViewCopyD", 1, &x, 1, at, 5), VOPS_OK);
	ck_assert_int_eq(plan.out[0].bytes, 64);
	memset(guard, 0x3c, sizeof(guard));
	for (i = 0; i < plan.desc_size; i++)
		for (v = 0; v < sizeof(vals); v++) {
			struct vops_operand ops[2] = {
				{ in, plan.in_bytes[0], VNPU_OPERAND_READ },
				{ stor, plan.out[0].bytes, VNPU_OPERAND_WRITE },
			};
			enum vops_run_status rs;

			memcpy(desc, plan.desc, plan.desc_size);
			if (desc[i] == vals[v])
				continue;
			desc[i] = vals[v];
			memset(stor, 0xa5, 64);
			memcpy(stor + 64, guard, sizeof(guard));
			rs = vops_run(desc, plan.desc_size, ops, 2, NULL, why, sizeof(why));
			ck_assert_msg(rs == VOPS_RUN_OK || rs == VOPS_RUN_FAULT, "byte %u: %d", i, rs);
			ck_assert_msg(!memcmp(stor + 64, guard, sizeof(guard)),
				      "byte %u: wrote past the storage", i);
			if (rs != VOPS_RUN_FAULT)
				continue;
			faults++;
			for (unsigned int b = 0; b < 64; b++)
				ck_assert_msg(stor[b] == 0xa5, "byte %u faulted after writing", i);
		}
	ck_assert_uint_gt(faults, 0);
}
END_TEST

static bool stop_now(void *priv)
{
	(void)priv;
	return true;
}

START_TEST(cancel)
{
	const int64_t d[] = { 512, 512 }, perm[] = { 1, 0 };
	struct vops_tensor x = tn(ACL_FLOAT, 2, d);
	struct vops_attr at[] = { al("perm", 2, perm) };
	struct vops_ctl ctl = { .should_stop = stop_now };
	float *in = calloc(512 * 512, sizeof(float));
	const void *ins[] = { in };

	ck_assert_int_eq(do_plan("TransposeD", 1, &x, 1, at, 1), VOPS_OK);
	ck_assert_int_eq(run_ctl(ins, &ctl), VOPS_RUN_CANCELED);
	at[0] = al("multiples", 2, (const int64_t[]){ 2, 2 });
	ck_assert_int_eq(do_plan("TileD", 1, &x, 1, at, 1), VOPS_OK);
	ck_assert_int_eq(run_ctl(ins, &ctl), VOPS_RUN_CANCELED);
	at[0] = al("paddings", 4, (const int64_t[]){ 0, 0, 0, 0 });
	ck_assert_int_eq(do_plan("PadV3D", 1, &x, 1, at, 1), VOPS_OK);
	ck_assert_int_eq(run_ctl(ins, &ctl), VOPS_RUN_CANCELED);
	/* A dense copy is one long row: still asked between chunks. */
	ck_assert_int_eq(do_plan("Identity", 1, &x, 1, NULL, 0), VOPS_OK);
	ck_assert_int_eq(run_ctl(ins, &ctl), VOPS_RUN_CANCELED);
	ck_assert_int_eq(run_ctl(ins, NULL), VOPS_RUN_OK);
	ck_assert(!memcmp(outs[0], in, 512 * 512 * sizeof(float)));
	/* ViewCopyD into a transposed view, by element size and converting */
	{
		struct vops_attr vc[5];
		float *stor = calloc(512 * 512, sizeof(float));

		vc_attrs(vc, 2, d, (const int64_t[]){ 1, 512 }, 0, 512 * 512);
		ck_assert_int_eq(do_plan("ViewCopyD", 1, &x, 1, vc, 4), VOPS_OK);
		ck_assert_int_eq(vc_run_ctl(in, stor, &ctl), VOPS_RUN_CANCELED);
		vc[4] = ai("dst_type", ACL_FLOAT16);
		ck_assert_int_eq(do_plan("ViewCopyD", 1, &x, 1, vc, 5), VOPS_OK);
		ck_assert_int_eq(vc_run_ctl(in, stor, &ctl), VOPS_RUN_CANCELED);
		free(stor);
	}
	free(in);
}
END_TEST

static Suite *move_suite(void)
{
	Suite *s = suite_create("ops_move");
	TCase *tc = tcase_create("move");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, reshape_basic);
	tcase_add_test(tc, reshape_allowzero_and_partial);
	tcase_add_test(tc, flatten_squeeze_unsqueeze);
	tcase_add_test(tc, transpose_3d);
	tcase_add_test(tc, transpose_2d_types);
	tcase_add_test(tc, transpose_view);
	tcase_add_test(tc, transpose_errors);
	tcase_add_test(tc, concat_split);
	tcase_add_test(tc, slice_steps);
	tcase_add_test(tc, expand_tile);
	tcase_add_test(tc, pad_modes);
	tcase_add_test(tc, pad_2d);
	tcase_add_test(tc, identity_view);
	tcase_add_test(tc, shape_size);
	tcase_add_test(tc, fill_range);
	tcase_add_test(tc, viewcopy_contiguous_and_untouched);
	tcase_add_test(tc, viewcopy_transposed_sliced);
	tcase_add_test(tc, viewcopy_broadcast);
	tcase_add_test(tc, viewcopy_dtype_pairs);
	tcase_add_test(tc, viewcopy_refusals);
	tcase_add_test(tc, corrupt_descriptors);
	tcase_add_test(tc, viewcopy_hostile_bytes);
	tcase_add_test(tc, cancel);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(move_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
