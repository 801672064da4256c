// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of lib/ops' nn family (lib/ops/op_nn.c): matrix
 * products, Einsum, convolutions and pooling, planned with vops_plan() and
 * run with vops_run() on host memory, each result against a reference this
 * file computes in double. Then views, the parallel hook, planning errors
 * and hostile descriptors (every byte of a descriptor changed: the run
 * faults without writing, or runs within its operands; ASan watches).
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

#define MAXT 6

/* One call: inputs (as doubles, converted to the type), attributes. */
struct call {
	const char *type;
	int nin, nout;
	struct vops_tensor in[MAXT];
	int64_t dims[MAXT][5];
	void *data[MAXT];
	uint64_t bytes[MAXT];
	struct vops_attr at[12];
	unsigned int nat;
	int64_t ilist[12][6];
	struct vops_plan plan;
	struct vops_error err;
	void *out[2];
	void *ws;
};

static void *alloc64(uint64_t n)
{
	return aligned_alloc(64, (n + 64) / 64 * 64);
}

static uint64_t count(int nd, const int64_t *d)
{
	uint64_t n = 1;

	for (int i = 0; i < nd; i++)
		n *= (uint64_t)d[i];
	return n;
}

/* A fixed-seed value in [-2, 2) with few mantissa bits (exact products). */
static double val(uint64_t i, int salt)
{
	uint64_t h = (i + 1) * 2654435761u + (uint64_t)salt * 40503u;

	return (double)((h >> 9) % 64) / 16.0 - 2.0;
}

static void store(void *p, int32_t dt, uint64_t i, double v)
{
	switch (dt) {
	case ACL_FLOAT: ((float *)p)[i] = (float)v; break;
	case ACL_DOUBLE: ((double *)p)[i] = v; break;
	case ACL_FLOAT16: ((uint16_t *)p)[i] = vops_f64_to_f16(v); break;
	case ACL_BF16: ((uint16_t *)p)[i] = vops_f64_to_bf16(v); break;
	case ACL_INT8: ((int8_t *)p)[i] = (int8_t)v; break;
	case ACL_UINT8: ((uint8_t *)p)[i] = (uint8_t)v; break;
	case ACL_INT32: ((int32_t *)p)[i] = (int32_t)v; break;
	case ACL_INT64: ((int64_t *)p)[i] = (int64_t)v; break;
	default: ck_abort_msg("type %d", dt);
	}
}

static double load(const void *p, int32_t dt, uint64_t i)
{
	switch (dt) {
	case ACL_FLOAT: return ((const float *)p)[i];
	case ACL_DOUBLE: return ((const double *)p)[i];
	case ACL_FLOAT16: return vops_f16_to_f32(((const uint16_t *)p)[i]);
	case ACL_BF16: return vops_bf16_to_f32(((const uint16_t *)p)[i]);
	case ACL_INT8: return ((const int8_t *)p)[i];
	case ACL_UINT8: return ((const uint8_t *)p)[i];
	case ACL_INT32: return ((const int32_t *)p)[i];
	case ACL_INT64: return (double)((const int64_t *)p)[i];
	default: ck_abort_msg("type %d", dt);
	}
	return 0;
}

/* Input @k: type, shape, values val(i, k) (or @v when not NULL). */
static void input(struct call *c, int32_t dt, int nd, const int64_t *d, const double *v)
{
	int k = c->nin++;
	uint64_t n = count(nd, d), i;

	memcpy(c->dims[k], d, (size_t)nd * sizeof(*d));
	c->in[k] = (struct vops_tensor){ .dtype = dt, .ndim = nd, .dims = c->dims[k] };
	c->bytes[k] = n * vops_dtype_size(dt);
	c->data[k] = alloc64(c->bytes[k]);
	for (i = 0; i < n; i++)
		store(c->data[k], dt, i, v ? v[i] : val(i, k));
}

static void attr_ints(struct call *c, const char *name, int n, const int64_t *v)
{
	unsigned int a = c->nat++;

	memcpy(c->ilist[a], v, (size_t)n * sizeof(*v));
	c->at[a] = (struct vops_attr){ .name = (char *)name, .kind = VOPS_ATTR_LIST_INT,
				       .li = { n, c->ilist[a] } };
}

static void attr_int(struct call *c, const char *name, int64_t v)
{
	c->at[c->nat++] = (struct vops_attr){ .name = (char *)name, .kind = VOPS_ATTR_INT, .i = v };
}

static void attr_bool(struct call *c, const char *name, bool v)
{
	c->at[c->nat++] = (struct vops_attr){ .name = (char *)name, .kind = VOPS_ATTR_BOOL, .b = v };
}

static void attr_str(struct call *c, const char *name, const char *v)
{
	c->at[c->nat++] = (struct vops_attr){ .name = (char *)name, .kind = VOPS_ATTR_STRING,
					      .s = (char *)v };
}

static enum vops_err plan(struct call *c)
{
	return vops_plan(c->type, c->nin, c->in, c->nout ? c->nout : 1, c->at, c->nat, &c->plan,
			 &c->err);
}

/* The operands of @c's plan, outputs filled with 0xa5. */
static unsigned int operands(struct call *c, struct vops_operand *o)
{
	unsigned int n = 0;
	int i;

	for (i = 0; i < c->nin; i++)
		o[n++] = (struct vops_operand){ c->data[i], c->plan.in_bytes[i], VNPU_OPERAND_READ };
	for (i = 0; i < c->plan.nout; i++) {
		if (!c->out[i])
			c->out[i] = alloc64(c->plan.out[i].bytes);
		memset(c->out[i], 0xa5, c->plan.out[i].bytes);
		o[n++] = (struct vops_operand){ c->out[i], c->plan.out[i].bytes, VNPU_OPERAND_WRITE };
	}
	if (c->plan.ws_bytes) {
		if (!c->ws)
			c->ws = alloc64(c->plan.ws_bytes);
		o[n++] = (struct vops_operand){ c->ws, c->plan.ws_bytes, VNPU_OPERAND_WORKSPACE };
	}
	return n;
}

static void run_ctl(struct call *c, const struct vops_ctl *ctl)
{
	struct vops_operand o[MAXT + 3];
	unsigned int n;
	char why[256];
	enum vops_run_status st;

	ck_assert_msg(plan(c) == VOPS_OK, "%s: %s", c->type, c->err.msg);
	n = operands(c, o);
	st = vops_run(c->plan.desc, c->plan.desc_size, o, n, ctl, why, sizeof(why));
	ck_assert_msg(st == VOPS_RUN_OK, "%s: run %d %s", c->type, st, why);
}

static void run(struct call *c)
{
	run_ctl(c, NULL);
}

static void done(struct call *c)
{
	for (int i = 0; i < MAXT; i++)
		free(c->data[i]);
	free(c->out[0]);
	free(c->out[1]);
	free(c->ws);
}

/* Output 0 against @want (@n values): within @tol * (1 + |want|). */
static void check_out(struct call *c, const double *want, uint64_t n, double tol)
{
	ck_assert_uint_eq(c->plan.out[0].bytes, n * vops_dtype_size(c->plan.out[0].dtype));
	for (uint64_t i = 0; i < n; i++) {
		double g = load(c->out[0], c->plan.out[0].dtype, i);

		ck_assert_msg(fabs(g - want[i]) <= tol * (1 + fabs(want[i])), "%s: element %llu: %.9g, "
			      "want %.9g", c->type, (unsigned long long)i, g, want[i]);
	}
}

static double tol_of(int32_t dt)
{
	return dt == ACL_FLOAT16 ? 2e-3 : dt == ACL_BF16 ? 1e-2 : dt == ACL_FLOAT ? 1e-5 :
	       dt == ACL_DOUBLE ? 1e-12 : 0;
}

/* ---- products -------------------------------------------------------------------- */

/* x1 [2, 1, 3, 4] (adjoint: [.., 4, 3]) times x2 [3, 4, 5]: batches broadcast to [2, 3]. */
static void bmm_case(int32_t dt, bool adj1)
{
	struct call c = { .type = "BatchMatMulV2" };
	int64_t d1[4] = { 2, 1, adj1 ? 4 : 3, adj1 ? 3 : 4 }, d2[3] = { 3, 4, 5 };
	double want[2 * 3 * 3 * 5];
	int b0, b1, i, j, l;

	input(&c, dt, 4, d1, NULL);
	input(&c, dt, 3, d2, NULL);
	attr_bool(&c, "adj_x1", adj1);
	run(&c);
	ck_assert_int_eq(c.plan.out[0].ndim, 4);
	ck_assert_int_eq(c.plan.out[0].dims[1], 3);
	for (b0 = 0; b0 < 2; b0++)
		for (b1 = 0; b1 < 3; b1++)
			for (i = 0; i < 3; i++)
				for (j = 0; j < 5; j++) {
					double s = 0;

					for (l = 0; l < 4; l++) {
						uint64_t ia = (uint64_t)b0 * 12 + (adj1 ? l * 3 + i : i * 4 + l);

						s += load(c.data[0], dt, ia) *
						     load(c.data[1], dt, (uint64_t)b1 * 20 + l * 5 + j);
					}
					if (dt == ACL_INT8)	/* wraps to the output type */
						s = (double)(int8_t)(int64_t)s;
					want[((b0 * 3 + b1) * 3 + i) * 5 + j] = s;
				}
	check_out(&c, want, 90, tol_of(dt));
	done(&c);
}

START_TEST(bmm_types)
{
	bmm_case(ACL_FLOAT, false);
	bmm_case(ACL_FLOAT, true);
	bmm_case(ACL_FLOAT16, false);
	bmm_case(ACL_BF16, true);
	bmm_case(ACL_DOUBLE, false);
	bmm_case(ACL_INT32, true);
	bmm_case(ACL_INT8, false);
	bmm_case(ACL_INT64, false);
}
END_TEST

/* numpy's 1-D promotion: [4] x [2, 4, 3] -> [2, 3]; [2, 4] x [4] -> [2]. */
START_TEST(bmm_vectors)
{
	struct call c = { .type = "BatchMatMulV2" }, e = { .type = "BatchMatMulV2" };
	int64_t v[1] = { 4 }, m3[3] = { 2, 4, 3 }, m2[2] = { 2, 4 };
	double want[6];

	input(&c, ACL_FLOAT, 1, v, NULL);
	input(&c, ACL_FLOAT, 3, m3, NULL);
	run(&c);
	ck_assert_int_eq(c.plan.out[0].ndim, 2);
	for (int b = 0; b < 2; b++)
		for (int j = 0; j < 3; j++) {
			want[b * 3 + j] = 0;
			for (int l = 0; l < 4; l++)
				want[b * 3 + j] += val(l, 0) * val((uint64_t)(b * 12 + l * 3 + j), 1);
		}
	check_out(&c, want, 6, 1e-6);
	input(&e, ACL_FLOAT, 2, m2, NULL);
	input(&e, ACL_FLOAT, 1, v, NULL);
	run(&e);
	ck_assert_int_eq(e.plan.out[0].ndim, 1);
	for (int i = 0; i < 2; i++) {
		want[i] = 0;
		for (int l = 0; l < 4; l++)
			want[i] += val((uint64_t)(i * 4 + l), 0) * val(l, 1);
	}
	check_out(&e, want, 2, 1e-6);
	done(&c);
	done(&e);
}
END_TEST

/* GEMM: alpha * a^T b^T + beta * c, c a row [N] broadcast. */
static void gemm_case(int32_t dt)
{
	struct call c = { .type = "GEMM" };
	int64_t da[2] = { 4, 3 }, db[2] = { 5, 4 }, dc[1] = { 5 }, d0[1] = { 1 };
	double alpha = 0.5, beta = -2, want[15];

	input(&c, dt, 2, da, NULL);
	input(&c, dt, 2, db, NULL);
	input(&c, dt, 1, dc, NULL);
	input(&c, ACL_FLOAT, 1, d0, &alpha);
	input(&c, ACL_DOUBLE, 0, d0, &beta);
	attr_bool(&c, "transpose_a", true);
	attr_bool(&c, "transpose_b", true);
	run(&c);
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 5; j++) {
			double s = 0;

			for (int l = 0; l < 4; l++)
				s += load(c.data[0], dt, (uint64_t)(l * 3 + i)) *
				     load(c.data[1], dt, (uint64_t)(j * 4 + l));
			want[i * 5 + j] = alpha * s + beta * load(c.data[2], dt, (uint64_t)j);
		}
	check_out(&c, want, 15, tol_of(dt));
	done(&c);
}

START_TEST(gemm_types)
{
	gemm_case(ACL_FLOAT);
	gemm_case(ACL_FLOAT16);
	gemm_case(ACL_DOUBLE);
}
END_TEST

/* ---- Einsum ----------------------------------------------------------------------------- */

START_TEST(einsum_forms)
{
	struct call c = { .type = "Einsum" }, d = { .type = "Einsum" }, e = { .type = "Einsum" };
	int64_t a[2] = { 2, 3 }, b[2] = { 3, 4 }, sq[3] = { 2, 3, 3 };
	double want[12];

	/* a product, integers */
	input(&c, ACL_INT32, 2, a, NULL);
	input(&c, ACL_INT32, 2, b, NULL);
	attr_str(&c, "equation", "ij,jk->ik");
	attr_int(&c, "N", 2);
	run(&c);
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < 4; k++) {
			want[i * 4 + k] = 0;
			for (int j = 0; j < 3; j++)
				want[i * 4 + k] += (double)(int32_t)val((uint64_t)(i * 3 + j), 0) *
						   (double)(int32_t)val((uint64_t)(j * 4 + k), 1);
		}
	check_out(&c, want, 8, 0);
	/* batched diagonals with an ellipsis */
	input(&d, ACL_FLOAT, 3, sq, NULL);
	attr_str(&d, "equation", "...ii ->...i");
	run(&d);
	for (int bt = 0; bt < 2; bt++)
		for (int i = 0; i < 3; i++)
			want[bt * 3 + i] = val((uint64_t)(bt * 9 + i * 4), 0);
	check_out(&d, want, 6, 0);
	/* implicit output: a sum over j, transposed by letter order */
	input(&e, ACL_DOUBLE, 2, b, NULL);
	attr_str(&e, "equation", "ji");
	run(&e);
	ck_assert_int_eq(e.plan.out[0].dims[0], 4);
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 3; j++)
			want[i * 3 + j] = val((uint64_t)(j * 4 + i), 0);
	check_out(&e, want, 12, 0);
	done(&c);
	done(&d);
	done(&e);
}
END_TEST

/* ---- convolutions ---------------------------------------------------------------------------- */

struct cw {
	int nsp;
	int64_t n, c, m, g, in[3], k[3], s[3], d[3], pb[3], pe[3], out[3];
};

/* A direct reference of a convolution (dims padded to 3 leading ones). */
static void conv_ref(const struct cw *w, const struct call *c, int32_t dt, bool bias, double *y)
{
	int64_t cg = w->c / w->g, mg = w->m / w->g;

	for (int64_t n = 0; n < w->n; n++)
	for (int64_t m = 0; m < w->m; m++)
	for (int64_t z = 0; z < w->out[0]; z++)
	for (int64_t yy = 0; yy < w->out[1]; yy++)
	for (int64_t x = 0; x < w->out[2]; x++) {
		double s = bias ? load(c->data[2], dt, (uint64_t)m) : 0;

		for (int64_t ci = 0; ci < cg; ci++)
		for (int64_t a = 0; a < w->k[0]; a++)
		for (int64_t b = 0; b < w->k[1]; b++)
		for (int64_t e = 0; e < w->k[2]; e++) {
			int64_t iz = z * w->s[0] - w->pb[0] + a * w->d[0];
			int64_t iy = yy * w->s[1] - w->pb[1] + b * w->d[1];
			int64_t ix = x * w->s[2] - w->pb[2] + e * w->d[2];

			if (iz < 0 || iz >= w->in[0] || iy < 0 || iy >= w->in[1] || ix < 0 ||
			    ix >= w->in[2])
				continue;
			s += load(c->data[0], dt, (uint64_t)((((n * w->c + m / mg * cg + ci) * w->in[0] +
								iz) * w->in[1] + iy) * w->in[2] + ix)) *
			     load(c->data[1], dt, (uint64_t)((((m * cg + ci) * w->k[0] + a) * w->k[1] + b) *
							     w->k[2] + e));
		}
		y[(((n * w->m + m) * w->out[0] + z) * w->out[1] + yy) * w->out[2] + x] = s;
	}
}

/* Conv2D / Conv3D of @w through the planner, against conv_ref(). */
static void conv_case(struct cw w, int32_t dt, bool bias, const struct vops_ctl *ctl)
{
	struct call c = { .type = w.nsp == 3 ? "Conv3D" : "Conv2D" };
	int full = w.nsp == 3 ? 5 : 4, lead = full - w.nsp, i, nd = 2 + w.nsp;
	int64_t xd[5] = { w.n, w.c }, fd[5] = { w.m, w.c / w.g }, bd[1] = { w.m };
	int64_t st[5] = { 1, 1, 1, 1, 1 }, dl[5] = { 1, 1, 1, 1, 1 }, pd[6] = { 0 };
	uint64_t ny;
	double *want;

	for (i = 0; i < 3 - w.nsp; i++)
		w.in[i] = w.k[i] = w.s[i] = w.d[i] = 1, w.pb[i] = w.pe[i] = 0;
	for (i = 0; i < 3; i++)
		w.out[i] = (w.in[i] + w.pb[i] + w.pe[i] - (w.k[i] - 1) * w.d[i] - 1) / w.s[i] + 1;
	for (i = 0; i < w.nsp; i++) {
		int a = 3 - w.nsp + i;

		xd[2 + i] = w.in[a];
		fd[2 + i] = w.k[a];
		st[lead + i] = w.s[a];
		dl[lead + i] = w.d[a];
		pd[2 * (lead - 2 + i)] = w.pb[a];
		pd[2 * (lead - 2 + i) + 1] = w.pe[a];
	}
	input(&c, dt, nd, xd, NULL);
	input(&c, dt, nd, fd, NULL);
	if (bias)
		input(&c, dt, 1, bd, NULL);
	attr_ints(&c, "strides", full, st);
	attr_ints(&c, "dilations", full, dl);
	attr_ints(&c, "pads", 2 * (full - 2), pd);
	attr_int(&c, "groups", w.g);
	attr_str(&c, "data_format", w.nsp == 3 ? "NCDHW" : "NCHW");
	run_ctl(&c, ctl);
	ny = (uint64_t)(w.n * w.m * w.out[0] * w.out[1] * w.out[2]);
	want = calloc(ny, sizeof(*want));
	conv_ref(&w, &c, dt, bias, want);
	check_out(&c, want, ny, dt == ACL_FLOAT ? 1e-5 : tol_of(dt) * 8);
	free(want);
	done(&c);
}

static const struct cw conv_a = {
	.nsp = 2, .n = 2, .c = 4, .m = 6, .g = 2, .in = { 1, 7, 9 }, .k = { 1, 3, 2 },
	.s = { 1, 2, 1 }, .d = { 1, 1, 2 }, .pb = { 0, 1, 0 }, .pe = { 0, 2, 1 },
};

START_TEST(conv2d_types)
{
	conv_case(conv_a, ACL_FLOAT, true, NULL);
	conv_case(conv_a, ACL_FLOAT16, true, NULL);
	conv_case(conv_a, ACL_BF16, false, NULL);
	conv_case(conv_a, ACL_DOUBLE, true, NULL);
}
END_TEST

START_TEST(conv_1d_3d_pointwise)
{
	struct cw w1 = { .nsp = 1, .n = 1, .c = 3, .m = 2, .g = 1, .in = { 1, 1, 10 },
			 .k = { 1, 1, 3 }, .s = { 1, 1, 2 }, .d = { 1, 1, 1 }, .pb = { 0, 0, 1 },
			 .pe = { 0, 0, 1 } };
	struct cw w3 = { .nsp = 3, .n = 1, .c = 2, .m = 3, .g = 1, .in = { 4, 5, 3 },
			 .k = { 2, 2, 2 }, .s = { 1, 2, 1 }, .d = { 2, 1, 1 }, .pb = { 1, 0, 1 },
			 .pe = { 0, 1, 1 } };
	struct cw pw = { .nsp = 2, .n = 2, .c = 8, .m = 5, .g = 1, .in = { 1, 6, 6 },
			 .k = { 1, 1, 1 }, .s = { 1, 1, 1 }, .d = { 1, 1, 1 } };

	conv_case(w1, ACL_FLOAT, true, NULL);
	conv_case(w3, ACL_FLOAT, false, NULL);
	conv_case(w3, ACL_DOUBLE, true, NULL);
	conv_case(pw, ACL_FLOAT, true, NULL);
}
END_TEST

/* The parallel hook gets the pieces (backwards here): the same results. */
static void backwards(void *priv, unsigned int count, void (*fn)(void *arg, unsigned int i),
		      void *arg)
{
	(*(unsigned int *)priv)++;
	for (unsigned int i = count; i-- > 0;)
		fn(arg, i);
}

START_TEST(conv_parallel)
{
	unsigned int calls = 0;
	struct vops_ctl ctl = { .parallel = backwards, .priv = &calls };
	struct cw big = { .nsp = 2, .n = 2, .c = 32, .m = 32, .g = 1, .in = { 1, 48, 48 },
			  .k = { 1, 3, 3 }, .s = { 1, 1, 1 }, .d = { 1, 1, 1 }, .pb = { 0, 1, 1 },
			  .pe = { 0, 1, 1 } };

	conv_case(big, ACL_FLOAT, true, &ctl);
	ck_assert_uint_ge(calls, 1);
}
END_TEST

/* Conv2DTransposeD: stride 2, pads, output padding, groups 2, bias. */
START_TEST(conv_transpose)
{
	struct call c = { .type = "Conv2DTransposeD" };
	int64_t xd[4] = { 1, 4, 3, 2 }, fd[4] = { 4, 1, 3, 2 }, bd[1] = { 2 };
	int64_t st[4] = { 1, 1, 2, 3 }, pd[4] = { 1, 0, 0, 1 }, op[4] = { 0, 0, 1, 0 };
	int64_t oh = 2 * 2 + 1 + 3 - 1, ow = 3 * 1 + 0 + 2 - 1, isz[4] = { 1, 2, oh, ow };
	double want[2 * 7 * 4] = { 0 };

	input(&c, ACL_FLOAT, 4, xd, NULL);
	input(&c, ACL_FLOAT, 4, fd, NULL);
	input(&c, ACL_FLOAT, 1, bd, NULL);
	attr_ints(&c, "input_size", 4, isz);
	attr_ints(&c, "strides", 4, st);
	attr_ints(&c, "pads", 4, pd);
	attr_ints(&c, "output_padding", 4, op);
	attr_int(&c, "groups", 2);
	attr_str(&c, "data_format", "NCHW");
	run(&c);
	ck_assert_int_eq(c.plan.out[0].dims[2], 7);
	ck_assert_int_eq(c.plan.out[0].dims[3], 4);
	for (int m = 0; m < 2; m++)
		for (int i = 0; i < 28; i++)
			want[m * 28 + i] = val((uint64_t)m, 2);
	for (int ci = 0; ci < 4; ci++)
		for (int y = 0; y < 3; y++)
			for (int x = 0; x < 2; x++)
				for (int a = 0; a < 3; a++)
					for (int b = 0; b < 2; b++) {
						int oy = y * 2 - 1 + a, ox = x * 3 - 0 + b, m = ci / 2;

						if (oy < 0 || oy >= 7 || ox < 0 || ox >= 4)
							continue;
						want[(m * 7 + oy) * 4 + ox] += val((uint64_t)((ci * 3 + y) * 2 + x), 0) *
							val((uint64_t)(ci * 6 + a * 2 + b), 1);
					}
	check_out(&c, want, 56, 1e-6);
	done(&c);
}
END_TEST

/* ---- pooling ------------------------------------------------------------------------------ */

START_TEST(pools)
{
	struct call mx = { .type = "MaxPoolV3", .nout = 2 }, av = { .type = "AvgPoolV2" };
	struct call in8 = { .type = "MaxPoolV3" }, ga = { .type = "GlobalAveragePool" };
	struct call gm = { .type = "GlobalMaxPool" };
	int64_t xd[4] = { 1, 2, 4, 5 }, ks[4] = { 1, 1, 3, 3 }, st[4] = { 1, 1, 2, 2 };
	int64_t pd[4] = { 1, 1, 1, 0 };
	double want[2 * 2 * 2], wa[8], wi[8], gav[2], gmx[2];

	input(&mx, ACL_FLOAT, 4, xd, NULL);
	attr_ints(&mx, "ksize", 4, ks);
	attr_ints(&mx, "strides", 4, st);
	attr_ints(&mx, "pads", 4, pd);
	run(&mx);
	input(&av, ACL_FLOAT, 4, xd, NULL);
	attr_ints(&av, "ksize", 4, ks);
	attr_ints(&av, "strides", 4, st);
	attr_ints(&av, "pads", 4, pd);
	attr_bool(&av, "exclusive", false);
	run(&av);
	/* out: (4 + 2 - 3) / 2 + 1 = 2 rows, (5 + 1 - 3) / 2 + 1 = 2 columns */
	ck_assert_int_eq(mx.plan.out[0].dims[2], 2);
	ck_assert_int_eq(mx.plan.out[1].dtype, ACL_INT64);
	for (int ch = 0; ch < 2; ch++) {
		gav[ch] = 0;
		gmx[ch] = -INFINITY;
		for (int i = 0; i < 20; i++) {
			gav[ch] += val((uint64_t)(ch * 20 + i), 0) / 20;
			gmx[ch] = fmax(gmx[ch], val((uint64_t)(ch * 20 + i), 0));
		}
		for (int oy = 0; oy < 2; oy++)
			for (int ox = 0; ox < 2; ox++) {
				double best = -INFINITY, sum = 0;
				int64_t arg = -1;
				int q = (ch * 2 + oy) * 2 + ox, padded = 0;

				for (int a = 0; a < 3; a++)
					for (int b = 0; b < 3; b++) {
						int y = oy * 2 - 1 + a, x = ox * 2 - 1 + b;

						padded += y < 5 && x < 5;
						if (y < 0 || y >= 4 || x < 0 || x >= 5)
							continue;
						double v = val((uint64_t)(ch * 20 + y * 5 + x), 0);

						sum += v;
						if (v > best) {
							best = v;
							arg = ch * 20 + y * 5 + x;
						}
					}
				want[q] = best;
				wi[q] = (double)arg;
				wa[q] = sum / padded;
			}
	}
	check_out(&mx, want, 8, 0);
	for (int q = 0; q < 8; q++)
		ck_assert_int_eq(((int64_t *)mx.out[1])[q], (int64_t)wi[q]);
	check_out(&av, wa, 8, 1e-6);
	/* integers */
	input(&in8, ACL_INT8, 4, xd, NULL);
	attr_ints(&in8, "ksize", 4, ks);
	attr_ints(&in8, "strides", 4, st);
	attr_ints(&in8, "pads", 4, pd);
	run(&in8);
	for (int q = 0; q < 8; q++)
		want[q] = (double)(int8_t)want[q];
	check_out(&in8, want, 8, 0);
	input(&ga, ACL_FLOAT16, 4, xd, NULL);
	run(&ga);
	ck_assert_int_eq(ga.plan.out[0].dims[3], 1);
	check_out(&ga, gav, 2, 2e-3);
	input(&gm, ACL_DOUBLE, 4, xd, NULL);
	run(&gm);
	check_out(&gm, gmx, 2, 0);
	done(&mx);
	done(&av);
	done(&in8);
	done(&ga);
	done(&gm);
}
END_TEST

/* ---- adaptive pooling ---------------------------------------------------------------- */

static bool stop_always(void *priv)
{
	(void)priv;
	return true;
}

/*
 * AdaptiveAvgPool2d and AdaptiveMaxPool2d (with argmax) of x @xd (rank
 * @nd, NCHW or CHW; a view with strides @xs over @bufn elements when @xs)
 * to @oh x @ow, against PyTorch's bins worked out here with floor and ceil.
 */
static void adaptive_case(int32_t dt, int nd, const int64_t *xd, const int64_t *xs, uint64_t bufn,
			  int64_t oh, int64_t ow, const struct vops_ctl *ctl)
{
	struct call av = { .type = "AdaptiveAvgPool2d" };
	struct call mx = { .type = "AdaptiveMaxPool2d", .nout = 2 };
	int64_t os[2] = { oh, ow }, h = xd[nd - 2], w = xd[nd - 1], bd[1] = { (int64_t)bufn };
	int64_t planes = nd == 4 ? xd[0] * xd[1] : xd[0], st[4];
	uint64_t n = (uint64_t)(planes * oh * ow);
	double *wa = calloc(n, sizeof(double)), *wm = calloc(n, sizeof(double));
	int64_t *wi = calloc(n, sizeof(int64_t));
	struct call *cs[2] = { &av, &mx };

	for (int k = 0; k < 2; k++) {
		if (xs) {
			input(cs[k], dt, 1, bd, NULL);
			cs[k]->in[0].ndim = nd;
			memcpy(cs[k]->dims[0], xd, (size_t)nd * sizeof(*xd));
			cs[k]->in[0].strides = xs;
		} else {
			input(cs[k], dt, nd, xd, NULL);
		}
		attr_ints(cs[k], "output_size", 2, os);
		run_ctl(cs[k], ctl);
		ck_assert_int_eq(cs[k]->plan.out[0].ndim, nd);
		ck_assert_int_eq(cs[k]->plan.out[0].dims[nd - 2], oh);
		ck_assert_int_eq(cs[k]->plan.out[0].dims[nd - 1], ow);
		ck_assert_int_eq(cs[k]->plan.out[0].dims[nd - 3], xd[nd - 3]);
	}
	ck_assert_int_eq(mx.plan.out[1].dtype, ACL_INT64);
	for (int d = nd - 1, s1 = 1; d >= 0; s1 *= (int)xd[d], d--)
		st[d] = xs ? xs[d] : s1;
	for (int64_t pl = 0; pl < planes; pl++) {
		int64_t base = nd == 4 ? (pl / xd[1]) * st[0] + (pl % xd[1]) * st[1] : pl * st[0];

		for (int64_t y = 0; y < oh; y++)
			for (int64_t x = 0; x < ow; x++) {
				int64_t y0 = (int64_t)floor((double)(y * h) / (double)oh);
				int64_t y1 = (int64_t)ceil((double)((y + 1) * h) / (double)oh);
				int64_t x0 = (int64_t)floor((double)(x * w) / (double)ow);
				int64_t x1 = (int64_t)ceil((double)((x + 1) * w) / (double)ow);
				double sum = 0, best = -INFINITY;
				int64_t arg = y0 * w + x0;
				uint64_t q = (uint64_t)((pl * oh + y) * ow + x);

				for (int64_t i = y0; i < y1; i++)
					for (int64_t j = x0; j < x1; j++) {
						double v = load(av.data[0], dt,
								(uint64_t)(base + i * st[nd - 2] +
									   j * st[nd - 1]));

						sum += v;
						if (v > best || isnan(v)) {
							best = v;
							arg = i * w + j;
						}
					}
				wa[q] = sum / (double)((y1 - y0) * (x1 - x0));
				wm[q] = best;
				wi[q] = arg;
			}
	}
	check_out(&av, wa, n, tol_of(dt));
	check_out(&mx, wm, n, 0);
	for (uint64_t q = 0; q < n; q++)
		ck_assert_int_eq(((int64_t *)mx.out[1])[q], wi[q]);
	free(wa);
	free(wm);
	free(wi);
	done(&av);
	done(&mx);
}

START_TEST(adaptive_pools)
{
	static const int32_t dts[] = { ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE };
	int64_t x4[4] = { 2, 3, 7, 5 }, x3[3] = { 3, 4, 6 }, up[4] = { 1, 2, 3, 2 };
	int64_t xt[4] = { 2, 3, 5, 7 }, ts[4] = { 105, 35, 1, 5 };

	for (size_t k = 0; k < sizeof(dts) / sizeof(dts[0]); k++) {
		/* bins of 2 and 3 rows that overlap; columns 5 into 4 */
		adaptive_case(dts[k], 4, x4, NULL, 0, 3, 4, NULL);
		adaptive_case(dts[k], 3, x3, NULL, 0, 4, 6, NULL);
	}
	/* more outputs than inputs: bins of one element, repeated */
	adaptive_case(ACL_FLOAT, 4, up, NULL, 0, 5, 4, NULL);
	/* global: [1, 1] */
	adaptive_case(ACL_DOUBLE, 4, x4, NULL, 0, 1, 1, NULL);
	/* x a view: H and W transposed in its storage */
	adaptive_case(ACL_FLOAT, 4, xt, ts, 210, 2, 3, NULL);
}
END_TEST

/* Max: a NaN wins its bin (PyTorch's rule), -inf bins keep their first index. */
START_TEST(adaptive_nan)
{
	struct call mx = { .type = "AdaptiveMaxPool2d", .nout = 2 };
	int64_t xd[4] = { 1, 1, 2, 4 }, os[2] = { 1, 2 };
	double v[8] = { 1, NAN, 3, 2, -INFINITY, -INFINITY, 7, NAN };

	input(&mx, ACL_FLOAT, 4, xd, v);
	v[0] = -INFINITY, v[1] = -INFINITY;
	attr_ints(&mx, "output_size", 2, os);
	run(&mx);
	ck_assert(isnan(((float *)mx.out[0])[0]) && isnan(((float *)mx.out[0])[1]));
	ck_assert_int_eq(((int64_t *)mx.out[1])[0], 1);
	ck_assert_int_eq(((int64_t *)mx.out[1])[1], 7);
	done(&mx);
	mx = (struct call){ .type = "AdaptiveMaxPool2d", .nout = 2 };
	input(&mx, ACL_FLOAT, 4, xd, v);
	attr_ints(&mx, "output_size", 2, os);
	run(&mx);
	ck_assert(isinf(((float *)mx.out[0])[0]));
	ck_assert_int_eq(((int64_t *)mx.out[1])[0], 0);
	done(&mx);
}
END_TEST

START_TEST(adaptive_parallel_cancel)
{
	unsigned int calls = 0;
	struct vops_ctl par = { .parallel = backwards, .priv = &calls };
	struct vops_ctl stop = { .should_stop = stop_always };
	int64_t big[4] = { 4, 16, 64, 64 }, os[2] = { 7, 7 };
	struct call c = { .type = "AdaptiveAvgPool2d" };
	struct vops_operand o[MAXT + 3];
	char why[256];
	unsigned int n;

	adaptive_case(ACL_FLOAT, 4, big, NULL, 0, 7, 7, &par);
	ck_assert_uint_ge(calls, 2);
	input(&c, ACL_FLOAT, 4, big, NULL);
	attr_ints(&c, "output_size", 2, os);
	ck_assert_int_eq(plan(&c), VOPS_OK);
	n = operands(&c, o);
	ck_assert_int_eq(vops_run(c.plan.desc, c.plan.desc_size, o, n, &stop, why, sizeof(why)),
			 VOPS_RUN_CANCELED);
	done(&c);
}
END_TEST

/* ---- views ------------------------------------------------------------------------------ */

/* A transposed view as x1, a view with an offset as Conv2D's x: the planner copies them. */
START_TEST(views)
{
	struct call c = { .type = "BatchMatMulV2" }, v = { .type = "Conv2D" };
	int64_t d1[2] = { 3, 2 }, st1[2] = { 1, 3 }, d2[2] = { 2, 4 }, xd[4] = { 1, 1, 3, 3 };
	int64_t fd[4] = { 1, 1, 2, 2 }, xs[4] = { 9, 9, 3, 1 }, one[4] = { 1, 1, 1, 1 }, z[4] = { 0 };
	double want[12], wc[4];

	input(&c, ACL_FLOAT, 2, d1, NULL);
	input(&c, ACL_FLOAT, 2, d2, NULL);
	c.in[0].strides = st1;		/* element (i, l) at l * 3 + i */
	run(&c);
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 4; j++) {
			want[i * 4 + j] = 0;
			for (int l = 0; l < 2; l++)
				want[i * 4 + j] += val((uint64_t)(l * 3 + i), 0) * val((uint64_t)(l * 4 + j), 1);
		}
	check_out(&c, want, 12, 1e-6);
	input(&v, ACL_FLOAT, 4, xd, NULL);
	input(&v, ACL_FLOAT, 4, fd, NULL);
	v.in[0].strides = xs;
	v.in[0].offset = 0;
	attr_ints(&v, "strides", 4, one);
	attr_ints(&v, "pads", 4, z);
	attr_str(&v, "data_format", "NCHW");
	run(&v);
	for (int y = 0; y < 2; y++)
		for (int x = 0; x < 2; x++) {
			wc[y * 2 + x] = 0;
			for (int a = 0; a < 2; a++)
				for (int b = 0; b < 2; b++)
					wc[y * 2 + x] += val((uint64_t)((y + a) * 3 + x + b), 0) *
							 val((uint64_t)(a * 2 + b), 1);
		}
	check_out(&v, wc, 4, 1e-6);
	done(&c);
	done(&v);
}
END_TEST

/* ---- planning errors ------------------------------------------------------------------------ */

static void expect(struct call *c, enum vops_err code, const char *word)
{
	ck_assert_int_eq(plan(c), code);
	ck_assert_msg(strstr(c->err.msg, c->type) && strstr(c->err.msg, word), "%s", c->err.msg);
	done(c);
}

START_TEST(plan_errors)
{
	int64_t x4[4] = { 1, 2, 5, 5 }, f4[4] = { 3, 2, 3, 3 }, f4b[4] = { 3, 3, 3, 3 };
	int64_t one[4] = { 1, 1, 1, 1 }, z[4] = { 0 }, m1[2] = { 2, 3 }, m2[2] = { 4, 2 };
	int64_t k3[3] = { 1, 1, 2 };
	struct call c;

	/* CANN's default data_format is NHWC */
	c = (struct call){ .type = "Conv2D" };
	input(&c, ACL_FLOAT, 4, x4, NULL);
	input(&c, ACL_FLOAT, 4, f4, NULL);
	attr_ints(&c, "strides", 4, one);
	attr_ints(&c, "pads", 4, z);
	expect(&c, VOPS_ERR_ATTR, "data_format");
	c = (struct call){ .type = "Conv2D" };
	input(&c, ACL_INT32, 4, x4, NULL);
	input(&c, ACL_INT32, 4, f4, NULL);
	attr_ints(&c, "strides", 4, one);
	attr_ints(&c, "pads", 4, z);
	attr_str(&c, "data_format", "NCHW");
	expect(&c, VOPS_ERR_DTYPE, "ACL_INT32");
	c = (struct call){ .type = "Conv2D" };
	input(&c, ACL_FLOAT, 4, x4, NULL);
	input(&c, ACL_FLOAT, 4, f4b, NULL);
	attr_ints(&c, "strides", 4, one);
	attr_ints(&c, "pads", 4, z);
	attr_str(&c, "data_format", "NCHW");
	expect(&c, VOPS_ERR_INPUT, "filter");
	c = (struct call){ .type = "Conv2D" };
	input(&c, ACL_FLOAT, 4, x4, NULL);
	input(&c, ACL_FLOAT, 4, f4, NULL);
	attr_ints(&c, "strides", 4, z);
	attr_ints(&c, "pads", 4, z);
	attr_str(&c, "data_format", "NCHW");
	expect(&c, VOPS_ERR_ATTR, "stride");
	c = (struct call){ .type = "BatchMatMulV2" };
	input(&c, ACL_FLOAT, 2, m1, NULL);
	input(&c, ACL_FLOAT, 2, m2, NULL);
	expect(&c, VOPS_ERR_INPUT, "inner");
	c = (struct call){ .type = "Einsum" };
	input(&c, ACL_FLOAT, 2, m1, NULL);
	attr_str(&c, "equation", "ijk->i");
	expect(&c, VOPS_ERR_ATTR, "equation");
	c = (struct call){ .type = "AvgPoolV2" };
	input(&c, ACL_FLOAT, 4, x4, NULL);
	attr_ints(&c, "ksize", 3, k3);
	attr_ints(&c, "strides", 4, one);
	expect(&c, VOPS_ERR_ATTR, "ksize");
	c = (struct call){ .type = "GEMM" };
	input(&c, ACL_FLOAT, 2, m1, NULL);
	input(&c, ACL_FLOAT, 2, m1, NULL);
	input(&c, ACL_FLOAT, 2, m1, NULL);
	input(&c, ACL_FLOAT, 1, one, NULL);
	input(&c, ACL_FLOAT, 1, one, NULL);
	expect(&c, VOPS_ERR_INPUT, "inner");
}
END_TEST

/* ---- hostile descriptors ------------------------------------------------------------- */

/*
 * Every byte of @c's descriptor set to a few values: the run faults
 * without touching the outputs, or runs (on what the changed descriptor
 * still describes within the operands).
 */
static void corrupt_all(struct call *c)
{
	static const int vals[] = { 0x00, 0xff, 0x7f, 0x01 };
	struct vops_operand o[MAXT + 3];
	unsigned int n, i, v, faults = 0;
	unsigned char *desc;
	char why[256];

	ck_assert_msg(plan(c) == VOPS_OK, "%s", c->err.msg);
	desc = malloc(c->plan.desc_size);
	n = operands(c, o);
	for (i = 0; i < c->plan.desc_size; i++)
		for (v = 0; v < sizeof(vals) / sizeof(vals[0]); v++) {
			enum vops_run_status st;

			memcpy(desc, c->plan.desc, c->plan.desc_size);
			if (desc[i] == vals[v])
				continue;
			desc[i] = (unsigned char)vals[v];
			for (int k = 0; k < c->plan.nout; k++)
				memset(c->out[k], 0xa5, c->plan.out[k].bytes);
			st = vops_run(desc, c->plan.desc_size, o, n, NULL, why, sizeof(why));
			ck_assert_msg(st == VOPS_RUN_OK || st == VOPS_RUN_FAULT, "byte %u: %d", i, st);
			if (st != VOPS_RUN_FAULT)
				continue;
			faults++;
			for (int k = 0; k < c->plan.nout; k++)
				for (uint64_t b = 0; b < c->plan.out[k].bytes; b++)
					ck_assert_msg(((unsigned char *)c->out[k])[b] == 0xa5,
						      "%s: byte %u faulted after writing", c->type, i);
		}
	ck_assert_uint_gt(faults, 0);
	free(desc);
	done(c);
}

START_TEST(adaptive_errors)
{
	int64_t x4[4] = { 1, 2, 5, 5 }, x2[2] = { 5, 5 }, e4[4] = { 1, 2, 0, 5 }, os[2] = { 2, 2 };
	int64_t z[2] = { 0, 2 }, n0[4] = { 0, 2, 5, 5 };
	struct call c;

	c = (struct call){ .type = "AdaptiveAvgPool2d" };
	input(&c, ACL_FLOAT, 4, x4, NULL);
	expect(&c, VOPS_ERR_ATTR, "output_size");
	c = (struct call){ .type = "AdaptiveAvgPool2d" };
	input(&c, ACL_FLOAT, 4, x4, NULL);
	attr_ints(&c, "output_size", 1, os);
	expect(&c, VOPS_ERR_ATTR, "output_size");
	c = (struct call){ .type = "AdaptiveMaxPool2d" };
	input(&c, ACL_FLOAT, 4, x4, NULL);
	attr_ints(&c, "output_size", 2, z);
	expect(&c, VOPS_ERR_ATTR, "output_size");
	c = (struct call){ .type = "AdaptiveAvgPool2d" };
	input(&c, ACL_FLOAT, 2, x2, NULL);
	attr_ints(&c, "output_size", 2, os);
	expect(&c, VOPS_ERR_INPUT, "NCHW");
	c = (struct call){ .type = "AdaptiveMaxPool2d" };
	input(&c, ACL_INT32, 4, x4, NULL);
	attr_ints(&c, "output_size", 2, os);
	expect(&c, VOPS_ERR_DTYPE, "ACL_INT32");
	c = (struct call){ .type = "AdaptiveAvgPool2d", .nout = 2 };
	input(&c, ACL_FLOAT, 4, x4, NULL);
	attr_ints(&c, "output_size", 2, os);
	expect(&c, VOPS_ERR_OUTPUT, "output");
	c = (struct call){ .type = "AdaptiveMaxPool2d", .nout = 3 };
	input(&c, ACL_FLOAT, 4, x4, NULL);
	attr_ints(&c, "output_size", 2, os);
	expect(&c, VOPS_ERR_OUTPUT, "output");
	c = (struct call){ .type = "AdaptiveMaxPool2d" };
	input(&c, ACL_FLOAT, 4, e4, NULL);
	attr_ints(&c, "output_size", 2, os);
	expect(&c, VOPS_ERR_INPUT, "empty");
	c = (struct call){ .type = "AdaptiveMaxPool2d" };
	input(&c, ACL_FLOAT, 4, x4, NULL);
	attr_ints(&c, "output_size", 2, os);
	attr_int(&c, "ksize", 2);
	expect(&c, VOPS_ERR_ATTR, "ksize");
	/* no planes: an empty plan */
	c = (struct call){ .type = "AdaptiveAvgPool2d" };
	input(&c, ACL_FLOAT, 4, n0, NULL);
	attr_ints(&c, "output_size", 2, os);
	ck_assert_int_eq(plan(&c), VOPS_OK);
	ck_assert(c.plan.empty);
	done(&c);
}
END_TEST

START_TEST(hostile_descriptors)
{
	int64_t x4[4] = { 1, 2, 5, 5 }, f4[4] = { 4, 1, 3, 3 }, b1[1] = { 4 }, st[4] = { 1, 1, 2, 1 };
	int64_t pd[4] = { 1, 0, 1, 1 }, ks[4] = { 1, 1, 2, 3 }, m1[3] = { 2, 2, 3 }, m2[2] = { 3, 2 };
	int64_t isz[4] = { 1, 2, 8, 3 }, ft[4] = { 2, 1, 3, 3 }, one[4] = { 1, 1, 1, 1 };
	int64_t xt[4] = { 1, 2, 4, 3 };
	struct call c;

	c = (struct call){ .type = "Conv2D" };
	input(&c, ACL_FLOAT, 4, x4, NULL);
	input(&c, ACL_FLOAT, 4, f4, NULL);
	input(&c, ACL_FLOAT, 1, b1, NULL);
	attr_ints(&c, "strides", 4, st);
	attr_ints(&c, "pads", 4, pd);
	attr_int(&c, "groups", 2);
	attr_str(&c, "data_format", "NCHW");
	corrupt_all(&c);
	c = (struct call){ .type = "Conv2DTransposeD" };
	input(&c, ACL_FLOAT16, 4, xt, NULL);
	input(&c, ACL_FLOAT16, 4, ft, NULL);
	attr_ints(&c, "input_size", 4, isz);
	attr_ints(&c, "strides", 4, st);
	attr_ints(&c, "pads", 4, pd);
	attr_int(&c, "groups", 2);
	attr_str(&c, "data_format", "NCHW");
	corrupt_all(&c);
	c = (struct call){ .type = "MaxPoolV3", .nout = 2 };
	input(&c, ACL_FLOAT, 4, x4, NULL);
	attr_ints(&c, "ksize", 4, ks);
	attr_ints(&c, "strides", 4, st);
	attr_ints(&c, "pads", 4, pd);
	corrupt_all(&c);
	c = (struct call){ .type = "AvgPoolV2" };
	input(&c, ACL_BF16, 4, x4, NULL);
	attr_ints(&c, "ksize", 4, ks);
	attr_ints(&c, "strides", 4, one);
	corrupt_all(&c);
	c = (struct call){ .type = "BatchMatMulV2" };
	input(&c, ACL_INT32, 3, m1, NULL);
	input(&c, ACL_INT32, 2, m2, NULL);
	corrupt_all(&c);
	c = (struct call){ .type = "Einsum" };
	input(&c, ACL_FLOAT, 3, m1, NULL);
	input(&c, ACL_FLOAT, 2, m2, NULL);
	attr_str(&c, "equation", "bij,jk->bik");
	attr_int(&c, "N", 2);
	corrupt_all(&c);
	c = (struct call){ .type = "AdaptiveMaxPool2d", .nout = 2 };
	input(&c, ACL_FLOAT16, 4, x4, NULL);
	attr_ints(&c, "output_size", 2, m2);
	corrupt_all(&c);
}
END_TEST

static Suite *nn_suite(void)
{
	Suite *s = suite_create("vnpu_ops_nn");
	TCase *tc = tcase_create("nn");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, bmm_types);
	tcase_add_test(tc, bmm_vectors);
	tcase_add_test(tc, gemm_types);
	tcase_add_test(tc, einsum_forms);
	tcase_add_test(tc, conv2d_types);
	tcase_add_test(tc, conv_1d_3d_pointwise);
	tcase_add_test(tc, conv_parallel);
	tcase_add_test(tc, conv_transpose);
	tcase_add_test(tc, pools);
	tcase_add_test(tc, adaptive_pools);
	tcase_add_test(tc, adaptive_nan);
	tcase_add_test(tc, adaptive_parallel_cancel);
	tcase_add_test(tc, adaptive_errors);
	tcase_add_test(tc, views);
	tcase_add_test(tc, plan_errors);
	tcase_add_test(tc, hostile_descriptors);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(nn_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
