// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of lib/ops' index family (lib/ops/op_index.c,
 * kern_index.c) through the public API: plan a call with vops_plan(), run
 * its descriptor with vops_run() on host memory, compare with values the
 * test computes itself. Per operator a small case, the dtype classes
 * (float, half, integer, bool), a view input, the planning errors (code
 * and a message naming the operator), an index out of range failing the
 * run, and corrupted descriptors faulting without writing the output.
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

#define EXPECT(cond)								\
	do {									\
		if (!(cond))							\
			ck_abort_msg("Assertion '%s' failed", #cond);		\
	} while (0)

#define N_(a) (sizeof(a) / sizeof((a)[0]))

/* A dense tensor description. */
static struct vops_tensor T(int32_t dt, int ndim, const int64_t *dims)
{
	return (struct vops_tensor){ .dtype = dt, .ndim = ndim, .dims = dims };
}

static struct vops_attr A_int(const char *name, int64_t v)
{
	return (struct vops_attr){ .name = (char *)name, .kind = VOPS_ATTR_INT, .i = v };
}

static struct vops_attr A_str(const char *name, const char *v)
{
	return (struct vops_attr){ .name = (char *)name, .kind = VOPS_ATTR_STRING, .s = (char *)v };
}

static struct vops_attr A_ints(const char *name, int64_t *v, int n)
{
	return (struct vops_attr){ .name = (char *)name, .kind = VOPS_ATTR_LIST_INT,
				   .li = { .n = n, .v = v } };
}

static struct vops_attr A_floats(const char *name, float *v, int n)
{
	return (struct vops_attr){ .name = (char *)name, .kind = VOPS_ATTR_LIST_FLOAT,
				   .lf = { .n = n, .v = v } };
}

/* Bytes a tensor's operand needs (its reach for views). */
static uint64_t bytes_of(const struct vops_tensor *t)
{
	uint64_t n = 1, last = 0;
	int d;

	if (!t->strides) {
		for (d = 0; d < t->ndim; d++)
			n *= (uint64_t)t->dims[d];
		return n * vops_dtype_size(t->dtype);
	}
	for (d = 0; d < t->ndim; d++)
		last += (uint64_t)(t->dims[d] - 1) * (uint64_t)t->strides[d];
	return ((uint64_t)t->offset + last + 1) * vops_dtype_size(t->dtype);
}

/* Plan @type; the plan is returned (calloc'd), NULL with @err set on failure. */
static struct vops_plan *plan(const char *type, int nin, const struct vops_tensor *in,
			      const struct vops_attr *at, unsigned int nat, struct vops_error *err)
{
	struct vops_plan *p = calloc(1, sizeof(*p));

	ck_assert_ptr_nonnull(p);
	if (vops_plan(type, nin, in, 1, at, nat, p, err)) {
		free(p);
		return NULL;
	}
	return p;
}

/* Run plan @p on inputs @x into @out (p->out[0].bytes); the status. */
static enum vops_run_status run(const struct vops_plan *p, const void *desc, size_t dsize, int nin,
				const struct vops_tensor *in, const void *const *x, void *out)
{
	struct vops_operand ops[8];
	unsigned int n = 0;
	void *ws = NULL;
	enum vops_run_status st;
	char why[256];
	int i;

	for (i = 0; i < nin; i++)
		ops[n++] = (struct vops_operand){(void *)x[i], bytes_of(&in[i]), VNPU_OPERAND_READ};
	ops[n++] = (struct vops_operand){ out, p->out[0].bytes, VNPU_OPERAND_WRITE };
	if (p->ws_bytes) {
		ws = aligned_alloc(64, (p->ws_bytes + 63) & ~63ull);
		ck_assert_ptr_nonnull(ws);
		ops[n++] = (struct vops_operand){ ws, p->ws_bytes, VNPU_OPERAND_WORKSPACE };
	}
	st = vops_run(desc, dsize, ops, n, NULL, why, sizeof(why));
	free(ws);
	return st;
}

/* Plan and run, expecting OK; the plan (caller frees). */
static struct vops_plan *go(const char *type, int nin, const struct vops_tensor *in,
			    const void *const *x, const struct vops_attr *at, unsigned int nat,
			    void *out)
{
	struct vops_error err;
	struct vops_plan *p = plan(type, nin, in, at, nat, &err);

	ck_assert_msg(p, "%s: %s", type, err.msg);
	ck_assert_int_eq(run(p, p->desc, p->desc_size, nin, in, x, out), VOPS_RUN_OK);
	return p;
}

/* Planning fails with @code and a message naming @type. */
static void plan_fails(const char *type, int nin, const struct vops_tensor *in,
		       const struct vops_attr *at, unsigned int nat, enum vops_err code)
{
	struct vops_plan p;
	struct vops_error err;

	ck_assert_int_eq(vops_plan(type, nin, in, 1, at, nat, &p, &err), code);
	ck_assert_msg(strstr(err.msg, type), "message \"%s\" does not name %s", err.msg, type);
}

/* ---- gathers ------------------------------------------------------------------- */

START_TEST(gather_v2d_values)
{
	static const int64_t xd[] = { 3, 2 }, id[] = { 2, 2 };
	float x[6] = { 1, 2, 3, 4, 5, 6 }, out[8];
	int64_t ix[4] = { 0, 2, -1, 1 };
	struct vops_tensor in[] = { T(ACL_FLOAT, 2, xd), T(ACL_INT64, 2, id) };
	const void *xs[] = { x, ix };
	struct vops_attr at[] = { A_int("axis", 0) };
	struct vops_plan *p = go("GatherV2D", 2, in, xs, at, 1, out);
	float want[8] = { 1, 2, 5, 6, 5, 6, 3, 4 };

	ck_assert_int_eq(p->out[0].ndim, 3);
	ck_assert_int_eq(p->out[0].dims[2], 2);
	ck_assert_mem_eq(out, want, sizeof(want));
	free(p);
}
END_TEST

/* axis 1, int32 indices, every element size. */
START_TEST(gather_v2d_types)
{
	static const int32_t dts[] = { ACL_FLOAT16, ACL_INT8, ACL_INT64, ACL_BOOL, ACL_DOUBLE };
	static const int64_t xd[] = { 2, 3 }, id[] = { 2 };
	int32_t ix[2] = { 2, -3 };
	size_t t;

	for (t = 0; t < N_(dts); t++) {
		size_t es = vops_dtype_size(dts[t]);
		unsigned char x[6 * 8], out[4 * 8];
		struct vops_tensor in[] = { T(dts[t], 2, xd), T(ACL_INT32, 1, id) };
		const void *xs[] = { x, ix };
		struct vops_attr at[] = { A_int("axis", 1) };
		struct vops_plan *p;
		size_t i;

		for (i = 0; i < sizeof(x); i++)
			x[i] = (unsigned char)(dts[t] == ACL_BOOL ? i / es % 2 : i * 7 + 1);
		p = go("GatherV2D", 2, in, xs, at, 1, out);
		/* [[x02, x00], [x12, x10]] */
		ck_assert_mem_eq(out, x + 2 * es, es);
		ck_assert_mem_eq(out + es, x, es);
		ck_assert_mem_eq(out + 2 * es, x + 5 * es, es);
		ck_assert_mem_eq(out + 3 * es, x + 3 * es, es);
		free(p);
	}
}
END_TEST

START_TEST(gather_elements_values)
{
	static const int64_t xd[] = { 2, 3 }, id[] = { 2, 2 };
	int32_t x[6] = { 1, 2, 3, 4, 5, 6 }, out[4];
	int64_t ix[4] = { 2, 0, -1, 1 };
	struct vops_tensor in[] = { T(ACL_INT32, 2, xd), T(ACL_INT64, 2, id) };
	const void *xs[] = { x, ix };
	struct vops_attr at[] = { A_int("dim", 1) };
	struct vops_plan *p = go("GatherElements", 2, in, xs, at, 1, out);
	int32_t want[4] = { 3, 1, 6, 5 };

	ck_assert_mem_eq(out, want, sizeof(want));
	free(p);
}
END_TEST

/* A transposed view of the data: vops_run hands the operator a dense copy. */
START_TEST(gather_elements_view)
{
	static const int64_t xd[] = { 3, 2 }, xst[] = { 1, 3 }, id[] = { 1, 2 };
	float x[6] = { 1, 2, 3, 4, 5, 6 }, out[2];	/* the view is [[1, 4], [2, 5], [3, 6]] */
	int64_t ix[2] = { 2, 1 };
	struct vops_tensor in[] = { T(ACL_FLOAT, 2, xd), T(ACL_INT64, 2, id) };
	const void *xs[] = { x, ix };
	struct vops_attr at[] = { A_int("dim", 0) };
	struct vops_plan *p;

	in[0].strides = xst;
	p = go("GatherElements", 2, in, xs, at, 1, out);
	ck_assert_float_eq(out[0], 3);
	ck_assert_float_eq(out[1], 5);
	free(p);
}
END_TEST

START_TEST(gather_nd_values)
{
	static const int64_t xd[] = { 2, 2, 2 }, id[] = { 2, 1, 2 }, bd[] = { 2, 1 };
	float x[8] = { 0, 1, 2, 3, 4, 5, 6, 7 }, out[4];
	int32_t ix[4] = { 0, 1, 1, 0 };
	int64_t ib[2] = { 1, 0 };
	struct vops_tensor in[] = { T(ACL_FLOAT, 3, xd), T(ACL_INT32, 3, id) };
	const void *xs[] = { x, ix };
	struct vops_attr at[] = { A_int("batch_dims", 1) };
	struct vops_plan *p = go("GatherNd", 2, in, xs, NULL, 0, out);
	float want[4] = { 2, 3, 4, 5 };

	ck_assert_int_eq(p->out[0].ndim, 3);
	ck_assert_mem_eq(out, want, sizeof(want));
	free(p);
	/* batch_dims 1: batch b picks x[b][ib[b]]. */
	in[1] = T(ACL_INT64, 2, bd);
	xs[1] = ib;
	p = go("GatherNd", 2, in, xs, at, 1, out);
	ck_assert_int_eq(p->out[0].ndim, 2);
	ck_assert_float_eq(out[0], 2);
	ck_assert_float_eq(out[1], 3);
	ck_assert_float_eq(out[2], 4);
	ck_assert_float_eq(out[3], 5);
	free(p);
}
END_TEST

/* ---- scatters ------------------------------------------------------------------ */

START_TEST(scatter_elements_reductions)
{
	static const int64_t xd[] = { 1, 4 }, id[] = { 1, 3 };
	static const char *const reds[] = { "none", "add", "mul", "max", "min" };
	static const float want[][4] = {
		{ 1, 5, 3, 7 }, { 1, 14, 3, 11 }, { 1, 70, 3, 28 }, { 1, 7, 3, 7 }, { 1, 2, 3, 4 },
	};
	float x[4] = { 1, 2, 3, 4 }, u[3] = { 7, 5, 7 }, out[4];
	int64_t ix[3] = { 1, -3, 3 };
	struct vops_tensor in[] = { T(ACL_FLOAT, 2, xd), T(ACL_INT64, 2, id), T(ACL_FLOAT, 2, id) };
	const void *xs[] = { x, ix, u };
	size_t r;

	for (r = 0; r < N_(reds); r++) {
		struct vops_attr at[] = { A_int("axis", 1), A_str("reduction", reds[r]) };
		struct vops_plan *p = go("ScatterElements", 3, in, xs, at, 2, out);

		ck_assert_msg(!memcmp(out, want[r], sizeof(out)), "reduction %s: %g %g %g %g",
			      reds[r], out[0], out[1], out[2], out[3]);
		ck_assert_uint_eq(p->in_place, 1);
		free(p);
	}
}
END_TEST

/* Integers wrap, fp16 rounds once. */
START_TEST(scatter_elements_types)
{
	static const int64_t xd[] = { 2 }, id[] = { 1 };
	int8_t x8[2] = { 100, 1 }, u8[1] = { 100 }, o8[2];
	uint16_t xh[2], uh[1], oh[2];
	int32_t ix[1] = { 0 };
	struct vops_tensor in[] = { T(ACL_INT8, 1, xd), T(ACL_INT32, 1, id), T(ACL_INT8, 1, id) };
	const void *xs[] = { x8, ix, u8 };
	struct vops_attr at[] = { A_str("reduction", "add") };
	struct vops_plan *p = go("ScatterElements", 3, in, xs, at, 1, o8);

	ck_assert_int_eq(o8[0], (int8_t)200 - 0);
	ck_assert_int_eq(o8[1], 1);
	free(p);
	xh[0] = vops_f32_to_f16(1.5f);
	xh[1] = vops_f32_to_f16(2.0f);
	uh[0] = vops_f32_to_f16(0.25f);
	in[0].dtype = in[2].dtype = ACL_FLOAT16;
	xs[0] = xh;
	xs[2] = uh;
	p = go("ScatterElements", 3, in, xs, at, 1, oh);
	ck_assert_float_eq(vops_f16_to_f32(oh[0]), 1.75f);
	ck_assert_float_eq(vops_f16_to_f32(oh[1]), 2.0f);
	free(p);
}
END_TEST

START_TEST(tensor_scatter_values)
{
	static const int64_t xd[] = { 3, 2 }, id[] = { 2, 1 }, ud[] = { 2, 2 };
	static const char *const ops[] = { "TensorScatterUpdate", "TensorScatterAdd",
					   "TensorScatterMul" };
	static const int64_t want[][6] = {
		{ 1, 2, 30, 40, 10, 20 }, { 1, 2, 33, 44, 15, 26 }, { 1, 2, 90, 160, 50, 120 },
	};
	int64_t x[6] = { 1, 2, 3, 4, 5, 6 }, u[4] = { 10, 20, 30, 40 }, out[6];
	int32_t ix[2] = { -1, 1 };
	struct vops_tensor in[] = { T(ACL_INT64, 2, xd), T(ACL_INT32, 2, id), T(ACL_INT64, 2, ud) };
	const void *xs[] = { x, ix, u };
	size_t k;

	for (k = 0; k < N_(ops); k++) {
		struct vops_plan *p = go(ops[k], 3, in, xs, NULL, 0, out);

		ck_assert_msg(!memcmp(out, want[k], sizeof(out)), "%s", ops[k]);
		free(p);
	}
}
END_TEST

/* ---- OneHotD, Tril, Triu ------------------------------------------------------- */

START_TEST(one_hot_values)
{
	static const int64_t xd[] = { 4 };
	int64_t x[4] = { 0, 2, -1, 5 };
	float on = 3, off = -1, out[12];
	struct vops_tensor in[] = {T(ACL_INT64, 1, xd), T(ACL_FLOAT, 0, NULL),
				   T(ACL_FLOAT, 0, NULL)};
	const void *xs[] = { x, &on, &off };
	struct vops_attr at[] = { A_int("depth", 3), A_int("axis", 0) };
	struct vops_plan *p = go("OneHotD", 3, in, xs, at, 2, out);
	int i, d;

	ck_assert_int_eq(p->out[0].dims[0], 3);
	ck_assert_int_eq(p->out[0].dims[1], 4);
	/* -1 wraps to 2; 5 is out of range: all off. */
	for (d = 0; d < 3; d++)
		for (i = 0; i < 4; i++) {
			int64_t v = x[i] < 0 ? x[i] + 3 : x[i];

			ck_assert_float_eq(out[d * 4 + i], v == d ? on : off);
		}
	free(p);
}
END_TEST

START_TEST(tri_values)
{
	static const int64_t xd[] = { 2, 3, 4 };
	static const int32_t dts[] = { ACL_FLOAT, ACL_BF16, ACL_UINT8, ACL_INT64 };
	static const int64_t ks[] = { 0, 1, -1, 9, -9 };
	size_t t, k;

	for (t = 0; t < N_(dts); t++)
		for (k = 0; k < N_(ks) * 2; k++) {
			size_t es = vops_dtype_size(dts[t]), e;
			unsigned char x[24 * 8], out[24 * 8], zero[8] = { 0 };
			struct vops_tensor in[] = { T(dts[t], 3, xd) };
			const void *xs[] = { x };
			struct vops_attr at[] = { A_int("diagonal", ks[k / 2]) };
			bool up = k % 2;
			struct vops_plan *p;

			for (e = 0; e < sizeof(x); e++)
				x[e] = (unsigned char)(e % 7 + 1);
			p = go(up ? "Triu" : "Tril", 1, in, xs, at, 1, out);
			for (e = 0; e < 24; e++) {
				int64_t i = (int64_t)e / 4 % 3, j = (int64_t)e % 4;
				bool keep = up ? j - i >= ks[k / 2] : j - i <= ks[k / 2];

				EXPECT(!memcmp(out + e * es, keep ? x + e * es : zero, es));
			}
			free(p);
		}
}
END_TEST

/* ---- DepthToSpace, SpaceToDepth ------------------------------------------------------ */

/* Element [n][c][h][w] of NCHW @dims. */
static int64_t at4(const int64_t *d, int64_t n, int64_t c, int64_t h, int64_t w)
{
	return ((n * d[1] + c) * d[2] + h) * d[3] + w;
}

START_TEST(depth_space_values)
{
	static const int64_t xd[] = { 2, 8, 2, 3 }, yd[] = { 2, 2, 4, 6 };
	static const char *const modes[] = { "DCR", "CRD" };
	int32_t x[96], out[96], back[96];
	size_t m;
	int i;

	for (i = 0; i < 96; i++)
		x[i] = i * 3 + 1;
	for (m = 0; m < 2; m++) {
		struct vops_tensor in[] = { T(ACL_INT32, 4, xd) };
		const void *xs[] = { x };
		struct vops_attr at[] = { A_int("block_size", 2), A_str("mode", modes[m]),
					  A_str("data_format", "NCHW") };
		struct vops_plan *p = go("DepthToSpace", 1, in, xs, at, 3, out);
		int64_t n, c, h, w;

		ck_assert_int_eq(p->out[0].dims[1], 2);
		ck_assert_int_eq(p->out[0].dims[2], 4);
		ck_assert_int_eq(p->out[0].dims[3], 6);
		for (n = 0; n < 2; n++)
			for (c = 0; c < 2; c++)
				for (h = 0; h < 4; h++)
					for (w = 0; w < 6; w++) {
						int64_t bi = h % 2, bj = w % 2;
						int64_t ci = m ? c * 4 + bi * 2 + bj
							       : (bi * 2 + bj) * 2 + c;

						EXPECT(out[at4(yd, n, c, h, w)] ==
						       x[at4(xd, n, ci, h / 2, w / 2)]);
					}
		free(p);
		/* SpaceToDepth undoes DCR. */
		if (!m) {
			struct vops_tensor in2[] = { T(ACL_INT32, 4, yd) };
			const void *ys[] = { out };
			struct vops_attr at2[] = {A_int("block_size", 2),
						  A_str("data_format", "NCHW")};

			p = go("SpaceToDepth", 1, in2, ys, at2, 2, back);
			ck_assert_mem_eq(back, x, sizeof(x));
			free(p);
		}
	}
}
END_TEST

/* NHWC (CANN's default format): DepthToSpace then SpaceToDepth is the identity. */
START_TEST(depth_space_nhwc)
{
	static const int64_t xd[] = { 1, 2, 3, 12 };
	uint16_t x[72], out[72], back[72];
	int64_t yd[4];
	struct vops_tensor in[] = { T(ACL_FLOAT16, 4, xd) };
	const void *xs[] = { x };
	struct vops_attr at[] = { A_int("block_size", 2) };
	struct vops_plan *p;
	int i;

	for (i = 0; i < 72; i++)
		x[i] = (uint16_t)(i * 11);
	p = go("DepthToSpace", 1, in, xs, at, 1, out);
	ck_assert_int_eq(p->out[0].dims[1], 4);
	ck_assert_int_eq(p->out[0].dims[3], 3);
	/* y[0][h][w][c] = x[0][h/2][w/2][((h%2)*2 + w%2)*3 + c] */
	ck_assert_uint_eq(out[(1 * 6 + 3) * 3 + 2], x[(0 * 3 + 1) * 12 + (1 * 2 + 1) * 3 + 2]);
	memcpy(yd, p->out[0].dims, sizeof(yd));
	in[0].dims = yd;
	xs[0] = out;
	free(p);
	p = go("SpaceToDepth", 1, in, xs, at, 1, back);
	ck_assert_mem_eq(back, x, sizeof(x));
	free(p);
}
END_TEST

/* ---- ResizeD ----------------------------------------------------------------------- */

START_TEST(resize_nearest_linear)
{
	static const int64_t xd[] = { 1, 1, 2, 2 };
	float x[4] = { 1, 2, 3, 4 }, out[16];
	int64_t sizes[4] = { 1, 1, 4, 4 };
	struct vops_tensor in[] = { T(ACL_FLOAT, 4, xd) };
	const void *xs[] = { x };
	struct vops_attr at[] = { A_ints("sizes", sizes, 4), A_str("mode", "nearest"),
				  A_str("coordinate_transformation_mode", "asymmetric"),
				  A_str("nearest_mode", "floor") };
	struct vops_plan *p = go("ResizeD", 1, in, xs, at, 4, out);
	int i, j;

	for (i = 0; i < 4; i++)
		for (j = 0; j < 4; j++)
			ck_assert_float_eq(out[i * 4 + j], x[i / 2 * 2 + j / 2]);
	free(p);
	/* Linear, align_corners: out[i][j] = bilinear at (i / 3, j / 3). */
	at[1] = A_str("mode", "linear");
	at[2] = A_str("coordinate_transformation_mode", "align_corners");
	p = go("ResizeD", 1, in, xs, at, 3, out);
	for (i = 0; i < 4; i++)
		for (j = 0; j < 4; j++) {
			double u = i / 3.0, v = j / 3.0;
			double want = (1 - u) * ((1 - v) * 1 + v * 2) + u * ((1 - v) * 3 + v * 4);

			ck_assert_double_eq_tol(out[i * 4 + j], want, 1e-6);
		}
	free(p);
}
END_TEST

/* Cubic (Keys) of a ramp is the ramp; tf_crop_and_resize outside the crop: extrapolation. */
START_TEST(resize_cubic_crop)
{
	static const int64_t xd[] = { 8 };
	double x[8], out[5];
	int64_t sizes[1] = { 5 };
	float roi[2] = { 0.25f, 1.5f };
	struct vops_tensor in[] = { T(ACL_DOUBLE, 1, xd) };
	const void *xs[] = { x };
	struct vops_attr at[] = {A_ints("sizes", sizes, 1),
				 A_str("mode", "cubic"),
				 A_str("coordinate_transformation_mode", "align_corners"),
				 A_floats("roi", roi, 2),
				 {.name = "extrapolation_value", .kind = VOPS_ATTR_FLOAT, .f = -9}};
	struct vops_attr ca[] = {at[0],
				 at[1],
				 at[2],
				 {.name = "cubic_coeff_a", .kind = VOPS_ATTR_FLOAT, .f = -0.5f}};
	struct vops_plan *p;
	int i;

	for (i = 0; i < 8; i++)
		x[i] = 2.0 * i + 1;
	p = go("ResizeD", 1, in, xs, ca, 4, out);
	/* Coordinates 0, 1.75, 3.5, 5.25, 7; a = -0.5 reproduces a ramp exactly. */
	ck_assert_double_eq_tol(out[1], 2 * 1.75 + 1, 1e-9);
	ck_assert_double_eq_tol(out[2], 2 * 3.5 + 1, 1e-9);
	ck_assert_double_eq_tol(out[3], 2 * 5.25 + 1, 1e-9);
	ck_assert_double_eq_tol(out[0], 1, 1e-9);
	ck_assert_double_eq_tol(out[4], 15, 1e-9);
	free(p);
	at[1] = A_str("mode", "linear");
	at[2] = A_str("coordinate_transformation_mode", "tf_crop_and_resize");
	p = go("ResizeD", 1, in, xs, at, 5, out);
	/* roi 0.25 .. 1.5 of 7: coordinates 1.75, 3.9375, 6.125, 8.3125 (out), 10.5 (out). */
	ck_assert_double_eq_tol(out[0], 2 * 1.75 + 1, 1e-9);
	ck_assert_double_eq_tol(out[2], 2 * 6.125 + 1, 1e-9);
	ck_assert_double_eq(out[3], -9);
	ck_assert_double_eq(out[4], -9);
	ck_assert_uint_gt(p->ws_bytes, 0);
	free(p);
}
END_TEST

/* ---- errors ------------------------------------------------------------------------ */

START_TEST(plan_errors)
{
	static const int64_t xd[] = { 3, 2 }, id[] = { 2 }, d4[] = { 1, 3, 2, 2 };
	struct vops_tensor in[] = { T(ACL_FLOAT, 2, xd), T(ACL_FLOAT, 1, id), T(ACL_FLOAT, 1, id) };
	struct vops_attr ax0[] = { A_int("axis", 0) }, ax5[] = { A_int("axis", 5) };
	struct vops_attr bad[] = { A_int("axes", 0) }, red[] = { A_str("reduction", "avg") };
	struct vops_attr bs[] = { A_int("block_size", 2), A_str("data_format", "NCHW") };
	int64_t sizes[2] = { 3, 2 };
	struct vops_attr rs[] = { A_ints("sizes", sizes, 1) };
	struct vops_attr rm[] = { A_ints("sizes", sizes, 2), A_str("mode", "area") };

	/* Float indices, missing axis, axis out of range, unknown attribute. */
	plan_fails("GatherV2D", 2, in, ax0, 1, VOPS_ERR_DTYPE);
	in[1].dtype = ACL_INT32;
	plan_fails("GatherV2D", 2, in, NULL, 0, VOPS_ERR_ATTR);
	plan_fails("GatherV2D", 2, in, ax5, 1, VOPS_ERR_ATTR);
	plan_fails("GatherV2D", 2, in, bad, 1, VOPS_ERR_ATTR);
	/* GatherElements: ranks differ. */
	plan_fails("GatherElements", 2, in, NULL, 0, VOPS_ERR_INPUT);
	/* ScatterElements: updates of another type, unknown reduction. */
	in[2].dtype = ACL_INT32;
	plan_fails("ScatterElements", 3, in, NULL, 0, VOPS_ERR_INPUT);
	in[2].dtype = ACL_FLOAT;
	plan_fails("ScatterElements", 3, in, red, 1, VOPS_ERR_ATTR);
	/* TensorScatterUpdate: indices [2] index 2 dims, updates must be [] */
	plan_fails("TensorScatterUpdate", 3, in, NULL, 0, VOPS_ERR_INPUT);
	/* Tril of a vector; DepthToSpace of 3 channels by 2; ResizeD sizes short, mode unknown. */
	plan_fails("Tril", 1, &in[1], NULL, 0, VOPS_ERR_INPUT);
	in[0] = T(ACL_FLOAT, 4, d4);
	plan_fails("DepthToSpace", 1, in, bs, 2, VOPS_ERR_INPUT);
	in[0] = T(ACL_FLOAT, 2, xd);
	plan_fails("ResizeD", 1, in, rs, 1, VOPS_ERR_ATTR);
	plan_fails("ResizeD", 1, in, rm, 2, VOPS_ERR_ATTR);
	/* OneHotD needs depth; bool data is no index. */
	in[0] = T(ACL_INT32, 1, id);
	in[1] = T(ACL_FLOAT, 0, NULL);
	in[2] = T(ACL_FLOAT, 0, NULL);
	plan_fails("OneHotD", 3, in, NULL, 0, VOPS_ERR_ATTR);
	in[0].dtype = ACL_BOOL;
	plan_fails("OneHotD", 3, in, NULL, 0, VOPS_ERR_DTYPE);
}
END_TEST

/* An index out of range fails the run (ARITH) and reads nothing outside. */
START_TEST(index_out_of_range)
{
	static const int64_t xd[] = { 3 }, id[] = { 2 };
	float x[3] = { 1, 2, 3 }, u[2] = { 0, 0 }, out[3];
	int64_t ix[2] = { 1, 3 }, neg[2] = { 0, -4 };
	struct vops_tensor in[] = { T(ACL_FLOAT, 1, xd), T(ACL_INT64, 1, id), T(ACL_FLOAT, 1, id) };
	const void *xs[] = { x, ix, u };
	struct vops_attr at[] = { A_int("axis", 0) };
	static const char *const ops[] = { "GatherV2D", "GatherElements", "ScatterElements" };
	struct vops_error err;
	size_t k;

	for (k = 0; k < N_(ops) * 2; k++) {
		struct vops_plan *p;

		xs[1] = k % 2 ? neg : ix;
		p = plan(ops[k / 2], k / 2 == 2 ? 3 : 2, in, k / 2 == 0 ? at : NULL, k / 2 == 0,
			 &err);
		ck_assert_msg(p, "%s", err.msg);
		ck_assert_int_eq(run(p, p->desc, p->desc_size, p->nin, in, xs, out),
				 VOPS_RUN_ARITH);
		free(p);
	}
}
END_TEST

/*
 * Descriptors that lie: a parameter changed (axis, block size, a resize
 * size) or a shape grown beyond the operands fault without writing.
 */
START_TEST(corrupt_descriptors)
{
	static const int64_t xd[] = { 4, 2 }, id[] = { 2 }, d4[] = { 1, 4, 2, 2 };
	float x[16] = { 0 }, out[64];
	int64_t ix[2] = { 0, 1 }, sizes[2] = { 8, 4 };
	struct vops_tensor in[] = { T(ACL_FLOAT, 2, xd), T(ACL_INT64, 1, id) };
	const void *xs[] = { x, ix };
	struct vops_attr at[] = { A_int("axis", 1) };
	struct vops_attr bs[] = { A_int("block_size", 2), A_str("data_format", "NCHW") };
	struct vops_attr rs[] = { A_ints("sizes", sizes, 2) };
	struct {
		const char *type;
		int nin;
		const struct vops_tensor *t;
		const struct vops_attr *at;
		unsigned int nat;
		int64_t value;		/* written over the last parameter */
	} cases[] = {
		{ "GatherV2D", 2, in, at, 1, 7 },
		{ "DepthToSpace", 1, NULL, bs, 2, 3 },	/* the format: last int */
		{ "ResizeD", 1, in, rs, 1, 0 },		/* roi end bits */
	};
	struct vops_tensor t4[] = { T(ACL_FLOAT, 4, d4) };
	struct vops_error err;
	size_t k;

	cases[1].t = t4;
	for (k = 0; k < N_(cases); k++) {
		struct vops_plan *p = plan(cases[k].type, cases[k].nin, cases[k].t, cases[k].at,
					   cases[k].nat, &err);
		unsigned char d[VOPS_MAX_DESC];
		size_t n;

		ck_assert_msg(p, "%s: %s", cases[k].type, err.msg);
		n = p->desc_size;
		/* A parameter: the last 8 bytes hold the last int (or float) parameter. */
		memcpy(d, p->desc, n);
		if (k == 2) {
			double nan = NAN;

			memcpy(d + n - 16 - 8, &nan, 8); /* the last roi: before the 2 floats */
		} else {
			memcpy(d + n - 8, &cases[k].value, 8);
		}
		memset(out, 0x5a, sizeof(out));
		ck_assert_int_eq(run(p, d, n, cases[k].nin, cases[k].t, xs, out), VOPS_RUN_FAULT);
		EXPECT(((unsigned char *)out)[0] == 0x5a);
		/* A shape: the first dimension of input 0 (after the header and record head). */
		memcpy(d, p->desc, n);
		{
			int64_t big = 1000;

			memcpy(d + 16 + 8, &big, 8);
		}
		ck_assert_int_eq(run(p, d, n, cases[k].nin, cases[k].t, xs, out), VOPS_RUN_FAULT);
		EXPECT(((unsigned char *)out)[0] == 0x5a);
		free(p);
	}
}
END_TEST

static Suite *index_suite(void)
{
	Suite *s = suite_create("ops_index");
	TCase *tc = tcase_create("index");

	tcase_add_test(tc, gather_v2d_values);
	tcase_add_test(tc, gather_v2d_types);
	tcase_add_test(tc, gather_elements_values);
	tcase_add_test(tc, gather_elements_view);
	tcase_add_test(tc, gather_nd_values);
	tcase_add_test(tc, scatter_elements_reductions);
	tcase_add_test(tc, scatter_elements_types);
	tcase_add_test(tc, tensor_scatter_values);
	tcase_add_test(tc, one_hot_values);
	tcase_add_test(tc, tri_values);
	tcase_add_test(tc, depth_space_values);
	tcase_add_test(tc, depth_space_nhwc);
	tcase_add_test(tc, resize_nearest_linear);
	tcase_add_test(tc, resize_cubic_crop);
	tcase_add_test(tc, plan_errors);
	tcase_add_test(tc, index_out_of_range);
	tcase_add_test(tc, corrupt_descriptors);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(index_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
