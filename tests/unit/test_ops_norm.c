// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for lib/ops' norm family (lib/ops/op_norm.c): BatchNorm,
 * LayerNorm, LayerNormV3, InstanceNorm, LRN and MVNV2 through vops_plan()
 * and vops_run(), each result checked against a double-precision reference
 * computed here; every float type, views, the LayerNorm fp32 fast path
 * (segments, parallel pieces, cancellation), planning errors and corrupted
 * descriptors.
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

static uint64_t rng = 88172645463325252ull;

static double urand(double lo, double hi)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return lo + (hi - lo) * (double)(rng >> 11) / 9007199254740992.0;
}

/* Element @i of @dt at @p as a double, and a double rounded to @dt. */
static double get(const void *p, int32_t dt, size_t i)
{
	switch (dt) {
	case ACL_FLOAT: return ((const float *)p)[i];
	case ACL_DOUBLE: return ((const double *)p)[i];
	case ACL_FLOAT16: return vops_f16_to_f32(((const uint16_t *)p)[i]);
	case ACL_BF16: return vops_bf16_to_f32(((const uint16_t *)p)[i]);
	default: ck_abort_msg("type %d", dt); return 0;
	}
}

static void put(void *p, int32_t dt, size_t i, double v)
{
	switch (dt) {
	case ACL_FLOAT: ((float *)p)[i] = (float)v; break;
	case ACL_DOUBLE: ((double *)p)[i] = v; break;
	case ACL_FLOAT16: ((uint16_t *)p)[i] = vops_f64_to_f16(v); break;
	case ACL_BF16: ((uint16_t *)p)[i] = vops_f64_to_bf16(v); break;
	default: ck_abort_msg("type %d", dt);
	}
}

/* Relative precision of @dt, for tolerances. */
static double prec(int32_t dt)
{
	return dt == ACL_FLOAT16 ? 1e-3 : dt == ACL_BF16 ? 8e-3 : dt == ACL_FLOAT ? 1e-6 : 1e-12;
}

/* A tensor of the test: shape, type, memory (the data as doubles too). */
struct tens {
	int32_t dt;
	int ndim;
	int64_t dims[8];
	size_t n;		/* elements of the memory */
	void *mem;
	double *v;		/* the values, rounded to dt */
};

static void tens_init(struct tens *t, int32_t dt, int ndim, const int64_t *dims, double lo,
		      double hi)
{
	size_t i;

	t->dt = dt;
	t->ndim = ndim;
	t->n = 1;
	for (i = 0; i < (size_t)ndim; i++) {
		t->dims[i] = dims[i];
		t->n *= (size_t)dims[i];
	}
	t->mem = calloc(t->n + 1, 8);
	t->v = calloc(t->n + 1, sizeof(double));
	ck_assert(t->mem && t->v);
	for (i = 0; i < t->n; i++) {
		put(t->mem, dt, i, urand(lo, hi));
		t->v[i] = get(t->mem, dt, i);
	}
}

static void tens_free(struct tens *t)
{
	free(t->mem);
	free(t->v);
}

static struct vops_tensor vt(const struct tens *t)
{
	return (struct vops_tensor){ .dtype = t->dt, .ndim = t->ndim, .dims = t->dims };
}

/* Run a plan on input memories @in (sizes @isz) into fresh outputs @out (freed by the caller). */
static enum vops_run_status run(const struct vops_plan *p, void *const *in, const size_t *isz,
				void **out, const struct vops_ctl *ctl)
{
	struct vops_operand ops[MAXT * 2 + 1];
	unsigned int n = 0;
	enum vops_run_status st;
	void *ws = NULL;
	char why[256];
	int i;

	for (i = 0; i < p->nin; i++)
		ops[n++] = (struct vops_operand){ in[i], isz[i], VNPU_OPERAND_READ };
	for (i = 0; i < p->nout; i++) {
		out[i] = malloc(p->out[i].bytes + 8);
		ck_assert(out[i]);
		memset(out[i], 0xa5, p->out[i].bytes + 8);
		ops[n++] = (struct vops_operand){ out[i], p->out[i].bytes, VNPU_OPERAND_WRITE };
	}
	if (p->ws_bytes) {
		ws = aligned_alloc(64, (p->ws_bytes + 63) & ~63ull);
		ck_assert(ws);
		ops[n++] = (struct vops_operand){ ws, p->ws_bytes, VNPU_OPERAND_WORKSPACE };
	}
	st = vops_run(p->desc, p->desc_size, ops, n, ctl, why, sizeof(why));
	free(ws);
	return st;
}

static void plan_ok(const char *type, int nin, const struct vops_tensor *in, int nout,
		    const struct vops_attr *at, unsigned int nat, struct vops_plan *p)
{
	struct vops_error e;
	enum vops_err r = vops_plan(type, nin, in, nout, at, nat, p, &e);

	ck_assert_msg(r == VOPS_OK, "%s: %d %s", type, r, e.msg);
}

static void plan_err(const char *type, int nin, const struct vops_tensor *in, int nout,
		     const struct vops_attr *at, unsigned int nat, enum vops_err want,
		     const char *words)
{
	struct vops_plan *p = malloc(sizeof(*p));
	struct vops_error e;
	enum vops_err r = vops_plan(type, nin, in, nout, at, nat, p, &e);

	free(p);
	ck_assert_msg(r == want, "%s: got %d (%s), want %d", type, r, e.msg, want);
	ck_assert_msg(strstr(e.msg, type) && strstr(e.msg, words),
		      "%s: message \"%s\" lacks \"%s\"", type, e.msg, words);
}

static void expect_near(double got, double want, double tol, const char *what, size_t i)
{
	ck_assert_msg(fabs(got - want) <= tol, "%s[%zu]: %.10g, want %.10g (tol %g)", what, i, got,
		      want, tol);
}

#define ATTR_I(n, v) { .name = (char *)(n), .kind = VOPS_ATTR_INT, .i = (v) }
#define ATTR_F(n, v) { .name = (char *)(n), .kind = VOPS_ATTR_FLOAT, .f = (v) }
#define ATTR_S(n, v) { .name = (char *)(n), .kind = VOPS_ATTR_STRING, .s = (char *)(v) }
#define ATTR_B(n, v) { .name = (char *)(n), .kind = VOPS_ATTR_BOOL, .b = (v) }

/* ---- LayerNorm ----------------------------------------------------------------- */

/*
 * LayerNorm(V3) of x [rows, cols] reshaped as @dims (@ndim) at axis @bna with
 * gamma from @bpa, checked against the double reference; @xview: x read
 * through a transposing view of a [cols-ish] buffer is done separately.
 */
static void check_ln(const char *type, int32_t xdt, int32_t gdt, int ndim, const int64_t *dims,
		     int bna, int bpa, int nout, const struct vops_ctl *ctl)
{
	struct tens x, g, b;
	struct vops_tensor in[3];
	struct vops_plan *p = malloc(sizeof(*p));
	struct vops_attr at[3] = {
		ATTR_I("begin_norm_axis", bna), ATTR_I("begin_params_axis", bpa),
		ATTR_F("epsilon", 1e-3f),
	};
	void *mem[3], *out[3];
	size_t isz[3], rows = 1, cols = 1, pc = 1, i, j;
	bool v3 = !strcmp(type, "LayerNormV3");
	int d;

	for (d = 0; d < ndim; d++) {
		if (d < bna)
			rows *= (size_t)dims[d];
		else
			cols *= (size_t)dims[d];
		if (d >= bpa)
			pc *= (size_t)dims[d];
	}
	tens_init(&x, xdt, ndim, dims, -3, 5);
	tens_init(&g, gdt, ndim - bpa, dims + bpa, 0.5, 2);
	tens_init(&b, gdt, ndim - bpa, dims + bpa, -1, 1);
	in[0] = vt(&x);
	in[1] = vt(&g);
	in[2] = vt(&b);
	plan_ok(type, 3, in, nout, at, 3, p);
	mem[0] = x.mem, mem[1] = g.mem, mem[2] = b.mem;
	isz[0] = x.n * vops_dtype_size(xdt);
	isz[1] = isz[2] = g.n * vops_dtype_size(gdt);
	ck_assert_int_eq(p->nout, nout);
	ck_assert_int_eq(run(p, mem, isz, out, ctl), VOPS_RUN_OK);
	for (i = 0; i < rows; i++) {
		double mean = 0, var = 0, rstd;

		for (j = 0; j < cols; j++)
			mean += x.v[i * cols + j];
		mean /= (double)cols;
		for (j = 0; j < cols; j++)
			var += (x.v[i * cols + j] - mean) * (x.v[i * cols + j] - mean);
		var /= (double)cols;
		rstd = 1 / sqrt(var + (double)1e-3f);
		for (j = 0; j < cols; j++) {
			size_t k = i * cols + j, q = k % pc;
			double want = (x.v[k] - mean) * rstd * g.v[q] + b.v[q];

			expect_near(get(out[0], xdt, k), want,
				    4 * prec(xdt) * (fabs(want) + 1), "y", k);
		}
		if (nout > 1)
			expect_near(get(out[1], p->out[1].dtype, i), mean,
				    2 * prec(p->out[1].dtype) * (fabs(mean) + 1), "mean", i);
		if (nout > 2)
			expect_near(get(out[2], p->out[2].dtype, i), v3 ? rstd : var,
				    2 * prec(p->out[2].dtype) * (v3 ? rstd : var), "var", i);
	}
	ck_assert_int_eq(p->out[0].ndim, ndim);
	for (d = 1; d < nout; d++)
		ck_assert_int_eq(p->out[d].dtype, v3 ? gdt : xdt);
	for (d = 0; d < nout; d++)
		free(out[d]);
	tens_free(&x);
	tens_free(&g);
	tens_free(&b);
	free(p);
}

START_TEST(ln_fast_f32)
{
	static const int64_t d1[] = { 7, 300 }, d2[] = { 3, 20000 }, d3[] = { 2, 3, 5, 4 };

	check_ln("LayerNormV3", ACL_FLOAT, ACL_FLOAT, 2, d1, 1, 1, 3, NULL);
	check_ln("LayerNorm", ACL_FLOAT, ACL_FLOAT, 2, d1, 1, 1, 3, NULL);
	/* rows longer than a segment */
	check_ln("LayerNormV3", ACL_FLOAT, ACL_FLOAT, 2, d2, 1, 1, 2, NULL);
	check_ln("LayerNormV3", ACL_FLOAT, ACL_FLOAT, 4, d3, 1, 1, 1, NULL);
	check_ln("LayerNormV3", ACL_FLOAT, ACL_FLOAT, 4, d3, 0, 0, 3, NULL);
}
END_TEST

START_TEST(ln_generic_types)
{
	static const int64_t d[] = { 2, 3, 5, 4 };
	static const int32_t dts[] = { ACL_FLOAT16, ACL_BF16, ACL_DOUBLE };
	size_t i;

	for (i = 0; i < 3; i++) {
		check_ln("LayerNormV3", dts[i], dts[i], 4, d, 2, 2, 3, NULL);
		check_ln("LayerNorm", dts[i], dts[i], 4, d, 1, 1, 3, NULL);
	}
	/* fp16 x with fp32 gamma (CANN's mixed form): mean and rstd in gamma's type */
	check_ln("LayerNormV3", ACL_FLOAT16, ACL_FLOAT, 4, d, 3, 3, 3, NULL);
	/* gamma from another axis than the normalised ones */
	check_ln("LayerNormV3", ACL_FLOAT, ACL_FLOAT, 4, d, 2, 3, 3, NULL);
	check_ln("LayerNorm", ACL_FLOAT, ACL_FLOAT, 4, d, 2, 1, 3, NULL);
}
END_TEST

/* A parallel hook that runs the pieces in reverse order, counting them. */
static unsigned int pieces_seen;

static void rev_parallel(void *priv, unsigned int count, void (*fn)(void *arg, unsigned int i),
			 void *arg)
{
	(void)priv;
	pieces_seen += count;
	while (count--)
		fn(arg, count);
}

START_TEST(ln_fast_parallel)
{
	static const int64_t d[] = { 256, 1024 };
	struct vops_ctl ctl = { .parallel = rev_parallel };

	pieces_seen = 0;
	check_ln("LayerNormV3", ACL_FLOAT, ACL_FLOAT, 2, d, 1, 1, 3, &ctl);
	ck_assert_uint_eq(pieces_seen, 4);
}
END_TEST

static int stop_after;

static bool stop_soon(void *priv)
{
	(void)priv;
	return --stop_after < 0;
}

/* LayerNorm (fast and generic) and LRN stop when asked. */
START_TEST(ln_cancel)
{
	static const int64_t d[] = { 64, 4096 };
	struct vops_ctl ctl = { .should_stop = stop_soon };
	struct vops_attr at[2] = { ATTR_I("begin_norm_axis", 1), ATTR_I("begin_params_axis", 1) };
	const char *type = _i ? "LRN" : "LayerNormV3";
	struct tens x, g;
	struct vops_tensor in[3];
	struct vops_plan *p = malloc(sizeof(*p));
	void *mem[3], *out[3];
	size_t isz[3];

	tens_init(&x, _i == 1 ? ACL_FLOAT16 : ACL_FLOAT, 2, d, -1, 1);
	tens_init(&g, x.dt, 1, d + 1, -1, 1);
	in[0] = vt(&x);
	in[1] = in[2] = vt(&g);
	mem[0] = x.mem;
	mem[1] = mem[2] = g.mem;
	isz[0] = x.n * vops_dtype_size(x.dt);
	isz[1] = isz[2] = g.n * vops_dtype_size(x.dt);
	if (_i < 2)
		plan_ok("LayerNormV3", 3, in, 1, at, 2, p);
	else
		plan_ok(type, 1, in, 1, NULL, 0, p);
	stop_after = 3;
	ck_assert_int_eq(run(p, mem, isz, out, &ctl), VOPS_RUN_CANCELED);
	free(out[0]);
	tens_free(&x);
	tens_free(&g);
	free(p);
}
END_TEST

/* x as a view: the transpose of a [cols, rows] buffer (generic path). */
START_TEST(ln_view)
{
	static const int64_t bd[] = { 6, 5 };
	int64_t xd[2] = { 5, 6 }, xs[2] = { 1, 5 };
	struct tens buf, g, b;
	struct vops_tensor in[3];
	struct vops_plan *p = malloc(sizeof(*p));
	struct vops_attr at[2] = { ATTR_I("begin_norm_axis", 1), ATTR_I("begin_params_axis", 1) };
	void *mem[3], *out[3];
	size_t isz[3], i, j;

	tens_init(&buf, ACL_FLOAT, 2, bd, -2, 2);
	tens_init(&g, ACL_FLOAT, 1, xd + 1, 0.5, 2);
	tens_init(&b, ACL_FLOAT, 1, xd + 1, -1, 1);
	in[0] = (struct vops_tensor){ .dtype = ACL_FLOAT, .ndim = 2, .dims = xd, .strides = xs };
	in[1] = vt(&g);
	in[2] = vt(&b);
	plan_ok("LayerNormV3", 3, in, 3, at, 2, p);
	ck_assert_uint_ne(p->ws_bytes, 0);
	mem[0] = buf.mem, mem[1] = g.mem, mem[2] = b.mem;
	isz[0] = 30 * 4, isz[1] = isz[2] = 24;
	ck_assert_int_eq(run(p, mem, isz, out, NULL), VOPS_RUN_OK);
	for (i = 0; i < 5; i++) {
		double mean = 0, var = 0;

		for (j = 0; j < 6; j++)
			mean += buf.v[j * 5 + i] / 6;
		for (j = 0; j < 6; j++)
			var += (buf.v[j * 5 + i] - mean) * (buf.v[j * 5 + i] - mean) / 6;
		for (j = 0; j < 6; j++) {
			double w = (buf.v[j * 5 + i] - mean) / sqrt(var + 1e-5) * g.v[j] + b.v[j];

			expect_near(((float *)out[0])[i * 6 + j], w, 1e-5 * (fabs(w) + 1), "y",
				    i * 6 + j);
		}
		expect_near(((float *)out[1])[i], mean, 1e-6, "mean", i);
	}
	for (i = 0; i < 3; i++)
		free(out[i]);
	tens_free(&buf);
	tens_free(&g);
	tens_free(&b);
	free(p);
}
END_TEST

/* ---- BatchNorm ------------------------------------------------------------------- */

static void check_bn(int32_t xdt, int32_t pdt, bool last, bool view)
{
	int64_t xd[4] = { 2, 3, 4, 5 }, cd[1], pst[1] = { 2 };
	struct tens x, prm[4];
	struct vops_tensor in[5];
	struct vops_plan *p = malloc(sizeof(*p));
	struct vops_attr at[3] = {
		ATTR_F("epsilon", 0.01f), ATTR_S("data_format", last ? "NHWC" : "NCHW"),
		ATTR_B("is_training", false),
	};
	void *mem[5], *out[5];
	size_t isz[5], i, k;
	int64_t ch;

	if (last)
		xd[3] = 3, xd[1] = 5;
	ch = 3;
	cd[0] = view ? 2 * ch : ch;
	tens_init(&x, xdt, 4, xd, -3, 3);
	mem[0] = x.mem;
	isz[0] = x.n * vops_dtype_size(xdt);
	in[0] = vt(&x);
	for (k = 0; k < 4; k++) {
		tens_init(&prm[k], pdt, 1, cd, k == 3 ? 0.1 : -2, 2);
		in[k + 1] = vt(&prm[k]);
		in[k + 1].dims = &ch;
		if (view)
			in[k + 1].strides = pst;
		mem[k + 1] = prm[k].mem;
		isz[k + 1] = prm[k].n * vops_dtype_size(pdt);
	}
	plan_ok("BatchNorm", 5, in, 5, at, 3, p);
	ck_assert_int_eq(run(p, mem, isz, out, NULL), VOPS_RUN_OK);
	for (i = 0; i < x.n; i++) {
		size_t c = last ? i % 3 : i / 20 % 3, q = view ? 2 * c : c;
		double w = (x.v[i] - prm[2].v[q]) / sqrt(prm[3].v[q] + (double)0.01f) *
			prm[0].v[q] + prm[1].v[q];

		expect_near(get(out[0], xdt, i), w, 4 * prec(xdt) * (fabs(w) + 1), "y", i);
	}
	/* batch_mean, batch_variance and the reserve spaces: the inputs' mean and variance */
	for (k = 1; k < 5; k++)
		for (i = 0; i < 3; i++)
			ck_assert(get(out[k], pdt, i) == prm[k % 2 ? 2 : 3].v[view ? 2 * i : i]);
	for (k = 0; k < 5; k++)
		free(out[k]);
	for (k = 0; k < 4; k++)
		tens_free(&prm[k]);
	tens_free(&x);
	free(p);
}

START_TEST(bn_types)
{
	check_bn(ACL_FLOAT, ACL_FLOAT, false, false);
	check_bn(ACL_FLOAT, ACL_FLOAT, true, false);
	check_bn(ACL_FLOAT16, ACL_FLOAT, false, false);
	check_bn(ACL_BF16, ACL_BF16, true, false);
	check_bn(ACL_DOUBLE, ACL_DOUBLE, false, true);
	check_bn(ACL_FLOAT, ACL_FLOAT, true, true);
}
END_TEST

/* ---- InstanceNorm ---------------------------------------------------------------- */

static void check_in(int32_t dt, bool last, bool full_gamma)
{
	int64_t xd[4] = { 2, 3, 4, 5 }, gd[4] = { 1, 3, 1, 1 }, c3 = 3;
	struct tens x, g, b;
	struct vops_tensor in[3];
	struct vops_plan *p = malloc(sizeof(*p));
	struct vops_attr at[2] = {
		ATTR_S("data_format", last ? "NHWC" : "NCHW"), ATTR_F("epsilon", 1e-2f),
	};
	void *mem[3], *out[3];
	size_t isz[3], n, c, k;

	if (last) {
		xd[1] = 4, xd[2] = 5, xd[3] = 3;
		gd[1] = 1, gd[3] = 3;
	}
	tens_init(&x, dt, 4, xd, -2, 4);
	if (full_gamma) {
		tens_init(&g, dt, 4, gd, 0.5, 2);
		tens_init(&b, dt, 4, gd, -1, 1);
	} else {
		tens_init(&g, dt, 1, &c3, 0.5, 2);
		tens_init(&b, dt, 1, &c3, -1, 1);
	}
	in[0] = vt(&x), in[1] = vt(&g), in[2] = vt(&b);
	mem[0] = x.mem, mem[1] = g.mem, mem[2] = b.mem;
	isz[0] = x.n * vops_dtype_size(dt), isz[1] = isz[2] = 3 * vops_dtype_size(dt);
	plan_ok("InstanceNorm", 3, in, 3, at, 2, p);
	ck_assert_int_eq(p->out[1].dims[last ? 3 : 1], 3);
	ck_assert_int_eq(p->out[1].dims[2], 1);
	ck_assert_int_eq(run(p, mem, isz, out, NULL), VOPS_RUN_OK);
	for (n = 0; n < 2; n++)
		for (c = 0; c < 3; c++) {
			double mean = 0, var = 0;

			for (k = 0; k < 20; k++) {
				size_t at_ = last ? n * 60 + k * 3 + c : n * 60 + c * 20 + k;

				mean += x.v[at_] / 20;
			}
			for (k = 0; k < 20; k++) {
				size_t at_ = last ? n * 60 + k * 3 + c : n * 60 + c * 20 + k;

				var += (x.v[at_] - mean) * (x.v[at_] - mean) / 20;
			}
			for (k = 0; k < 20; k++) {
				size_t at_ = last ? n * 60 + k * 3 + c : n * 60 + c * 20 + k;
				double w = (x.v[at_] - mean) / sqrt(var + (double)1e-2f) * g.v[c] +
					b.v[c];

				expect_near(get(out[0], dt, at_), w, 4 * prec(dt) * (fabs(w) + 1),
					    "y", at_);
			}
			expect_near(get(out[1], dt, n * 3 + c), mean,
				    2 * prec(dt) * (fabs(mean) + 1), "mean", n * 3 + c);
			expect_near(get(out[2], dt, n * 3 + c), var, 2 * prec(dt) * var, "var",
				    n * 3 + c);
		}
	for (k = 0; k < 3; k++)
		free(out[k]);
	tens_free(&x);
	tens_free(&g);
	tens_free(&b);
	free(p);
}

START_TEST(in_types)
{
	check_in(ACL_FLOAT, false, false);
	check_in(ACL_FLOAT, true, false);
	check_in(ACL_FLOAT16, false, true);
	check_in(ACL_BF16, true, true);
	check_in(ACL_DOUBLE, false, false);
}
END_TEST

/* ---- LRN ------------------------------------------------------------------------- */

static void check_lrn(int32_t dt, int radius)
{
	static const int64_t xd[4] = { 2, 7, 3, 2 };
	struct tens x;
	struct vops_tensor in[1];
	struct vops_plan *p = malloc(sizeof(*p));
	struct vops_attr at[4] = {
		ATTR_I("depth_radius", radius), ATTR_F("bias", 2.0f), ATTR_F("alpha", 0.3f),
		ATTR_F("beta", 0.75f),
	};
	void *mem[1], *out[1];
	size_t isz[1], i;

	tens_init(&x, dt, 4, xd, -2, 2);
	in[0] = vt(&x);
	mem[0] = x.mem;
	isz[0] = x.n * vops_dtype_size(dt);
	plan_ok("LRN", 1, in, 1, at, 4, p);
	ck_assert_int_eq(run(p, mem, isz, out, NULL), VOPS_RUN_OK);
	for (i = 0; i < x.n; i++) {
		long c = (long)(i / 6 % 7), q;
		double s = 0, w;

		for (q = c - radius; q <= c + radius; q++)
			if (q >= 0 && q < 7) {
				double v = x.v[i + (size_t)((q - c) * 6)];

				s += v * v;
			}
		w = x.v[i] / pow(2.0 + (double)0.3f * s, 0.75);
		expect_near(get(out[0], dt, i), w, 2 * prec(dt) * (fabs(w) + 1e-3), "y", i);
	}
	free(out[0]);
	tens_free(&x);
	free(p);
}

START_TEST(lrn_types)
{
	check_lrn(ACL_FLOAT, 1);
	check_lrn(ACL_FLOAT, 0);
	check_lrn(ACL_FLOAT16, 2);
	check_lrn(ACL_BF16, 10);
	check_lrn(ACL_DOUBLE, 3);
}
END_TEST

/* ---- MVNV2 ----------------------------------------------------------------------- */

/* MVNV2 over @axes (NULL: the default [0, 2, 3]) of x [2, 3, 4, 2]; @view: x's last two
 * axes swapped in memory. */
static void check_mvn(int32_t dt, const int64_t *axes, int naxes, bool view)
{
	int64_t xd[4] = { 2, 3, 4, 2 }, vs[4] = { 24, 8, 1, 4 };
	bool red[4] = { true, false, true, true };
	struct tens x;
	struct vops_tensor in[1];
	struct vops_plan *p = malloc(sizeof(*p));
	struct vops_attr at[2] = { ATTR_F("eps", 1e-9f) };
	void *mem[1], *out[1];
	size_t isz[1], i, j;
	int k;

	tens_init(&x, dt, 4, xd, -1, 3);
	in[0] = vt(&x);
	if (view)
		in[0].strides = vs;
	if (axes) {
		at[1] = (struct vops_attr){ .name = (char *)"axes", .kind = VOPS_ATTR_LIST_INT,
					    .li = { naxes, (int64_t *)axes } };
		for (k = 0; k < 4; k++)
			red[k] = false;
		for (k = 0; k < naxes; k++)
			red[axes[k] < 0 ? axes[k] + 4 : axes[k]] = true;
	}
	mem[0] = x.mem;
	isz[0] = x.n * vops_dtype_size(dt);
	plan_ok("MVNV2", 1, in, 1, at, axes ? 2 : 1, p);
	ck_assert_int_eq(run(p, mem, isz, out, NULL), VOPS_RUN_OK);
	for (i = 0; i < x.n; i++) {
		size_t ix[4] = { i / 24, i / 8 % 3, i / 2 % 4, i % 2 }, cnt = 0;
		double mean = 0, var = 0, w, xi = 0;

		/* every element of i's group: its kept coordinates, any reduced ones */
		for (j = 0; j < x.n; j++) {
			size_t jx[4] = { j / 24, j / 8 % 3, j / 2 % 4, j % 2 }, mo;
			bool same = true;

			for (k = 0; k < 4; k++)
				same = same && (red[k] || jx[k] == ix[k]);
			if (!same)
				continue;
			mo = view ? jx[0] * 24 + jx[1] * 8 + jx[2] + jx[3] * 4 : j;
			mean += x.v[mo];
			var += x.v[mo] * x.v[mo];
			cnt++;
			if (j == i)
				xi = x.v[mo];
		}
		mean /= (double)cnt;
		var = var / (double)cnt - mean * mean;
		w = (xi - mean) / (sqrt(var > 0 ? var : 0) + (double)1e-9f);
		expect_near(get(out[0], dt, i), w, 8 * prec(dt) * (fabs(w) + 1), "y", i);
	}
	free(out[0]);
	tens_free(&x);
	free(p);
}

START_TEST(mvn_types)
{
	static const int64_t a1[] = { 1 }, a2[] = { -1, 0 }, a0[1] = { 0 };

	check_mvn(ACL_FLOAT, NULL, 0, false);
	check_mvn(ACL_FLOAT, a1, 1, false);
	check_mvn(ACL_FLOAT16, a2, 2, false);
	check_mvn(ACL_BF16, NULL, 0, true);
	check_mvn(ACL_DOUBLE, a2, 2, true);
	check_mvn(ACL_FLOAT, a0, 0, false);
}
END_TEST

/* ---- planning errors ----------------------------------------------------------------- */

/* ---- RmsNorm -------------------------------------------------------------------- */

/*
 * RmsNorm of x (@dims, @ndim; a view when @xst: strides over a buffer of
 * @bufn elements) with gamma over its last @gr dimensions, against the
 * double reference: rstd = 1 / sqrt(mean(x^2) + eps), y = x * rstd * gamma.
 */
static void check_rms(int32_t xdt, int32_t gdt, int ndim, const int64_t *dims, int gr,
		      const int64_t *xst, size_t bufn, int nout)
{
	struct tens xb, g;
	struct vops_tensor in[2];
	struct vops_plan *p = malloc(sizeof(*p));
	struct vops_attr at[1] = { ATTR_F("epsilon", 1e-2f) };
	int64_t bd[1] = { (int64_t)bufn }, kd[8], pos[8] = { 0 };
	void *mem[2], *out[2];
	size_t isz[2], rows = 1, cols = 1, i, j;
	int d, rdt = xdt == ACL_DOUBLE ? ACL_DOUBLE : ACL_FLOAT;

	for (d = 0; d < ndim; d++) {
		if (d < ndim - gr)
			rows *= (size_t)dims[d];
		else
			cols *= (size_t)dims[d];
		kd[d] = d < ndim - gr ? dims[d] : 1;
	}
	if (xst)
		tens_init(&xb, xdt, 1, bd, -3, 3);
	else
		tens_init(&xb, xdt, ndim, dims, -3, 3);
	tens_init(&g, gdt, gr, dims + ndim - gr, 0.5, 2);
	in[0] = (struct vops_tensor){ .dtype = xdt, .ndim = ndim, .dims = dims, .strides = xst };
	in[1] = vt(&g);
	plan_ok("RmsNorm", 2, in, nout, at, 1, p);
	ck_assert_int_eq(p->out[0].dtype, xdt);
	ck_assert_int_eq(p->out[0].ndim, ndim);
	if (nout > 1) {
		ck_assert_int_eq(p->out[1].dtype, rdt);
		ck_assert_int_eq(p->out[1].ndim, ndim);
		for (d = 0; d < ndim; d++)
			ck_assert_int_eq(p->out[1].dims[d], kd[d]);
	}
	mem[0] = xb.mem, mem[1] = g.mem;
	isz[0] = xb.n * vops_dtype_size(xdt);
	isz[1] = g.n * vops_dtype_size(gdt);
	ck_assert_int_eq(run(p, mem, isz, out, NULL), VOPS_RUN_OK);
	for (i = 0; i < rows; i++) {
		double ss = 0, rstd, xv[64];

		ck_assert_uint_le(cols, 64);
		for (j = 0; j < cols; j++) {
			/* element (i, j) of x in row-major order, through its view */
			size_t k = i * cols + j, at_ = k, rem = k;

			if (xst) {
				for (d = ndim - 1; d >= 0; d--) {
					pos[d] = (int64_t)(rem % (size_t)dims[d]);
					rem /= (size_t)dims[d];
				}
				for (at_ = 0, d = 0; d < ndim; d++)
					at_ += (size_t)(pos[d] * xst[d]);
			}
			xv[j] = xb.v[at_];
			ss += xv[j] * xv[j];
		}
		rstd = 1 / sqrt(ss / (double)cols + (double)1e-2f);
		for (j = 0; j < cols; j++) {
			double want = xv[j] * rstd * g.v[j];

			expect_near(get(out[0], xdt, i * cols + j), want,
				    2 * prec(xdt) * (fabs(want) + 1e-3), "y", i * cols + j);
		}
		if (nout > 1)
			expect_near(get(out[1], rdt, i), rstd, 2 * prec(rdt) * rstd, "rstd", i);
	}
	for (d = 0; d < nout; d++)
		free(out[d]);
	tens_free(&xb);
	tens_free(&g);
	free(p);
}

START_TEST(rms_types)
{
	static const int64_t d2[] = { 5, 12 }, d4[] = { 2, 3, 4, 6 }, d1[] = { 16 };
	static const int32_t dts[] = { ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE };
	size_t k;

	for (k = 0; k < sizeof(dts) / sizeof(dts[0]); k++) {
		check_rms(dts[k], dts[k], 2, d2, 1, NULL, 0, 2);
		/* gamma over the last two axes; rstd [2, 3, 1, 1] */
		check_rms(dts[k], dts[k], 4, d4, 2, NULL, 0, 2);
		check_rms(dts[k], dts[k], 1, d1, 1, NULL, 0, 1);
		/* half x with an fp32 gamma (CANN's mixed form) */
		if (dts[k] != ACL_FLOAT)
			check_rms(dts[k], ACL_FLOAT, 2, d2, 1, NULL, 0, 2);
	}
}
END_TEST

/* x a transposed view of a [12, 5] buffer, and a broadcast one (stride 0 rows). */
START_TEST(rms_view)
{
	static const int64_t d[] = { 5, 12 }, tst[] = { 1, 5 }, bst[] = { 0, 1 };

	check_rms(ACL_FLOAT, ACL_FLOAT, 2, d, 1, tst, 60, 2);
	check_rms(ACL_FLOAT16, ACL_FLOAT, 2, d, 1, bst, 12, 2);
}
END_TEST

/* y in place of x: every statistic is taken before y is written. */
START_TEST(rms_in_place)
{
	static const int64_t d[] = { 3, 8 };
	struct tens x, g;
	struct vops_tensor in[2];
	struct vops_plan *p = malloc(sizeof(*p));
	struct vops_operand ops[5];
	double want[24];
	float rstd[3];
	char why[128];
	size_t i, j;
	void *ws;

	tens_init(&x, ACL_FLOAT, 2, d, -2, 2);
	tens_init(&g, ACL_FLOAT, 1, d + 1, 0.5, 2);
	in[0] = vt(&x);
	in[1] = vt(&g);
	plan_ok("RmsNorm", 2, in, 2, NULL, 0, p);
	ck_assert_uint_eq(p->in_place, 1);
	for (i = 0; i < 3; i++) {
		double ss = 0;

		for (j = 0; j < 8; j++)
			ss += x.v[i * 8 + j] * x.v[i * 8 + j];
		for (j = 0; j < 8; j++)
			want[i * 8 + j] = x.v[i * 8 + j] / sqrt(ss / 8 + 1e-6) * g.v[j];
	}
	ws = aligned_alloc(64, (p->ws_bytes + 63) & ~63ull);
	ops[0] = (struct vops_operand){ x.mem, 96, VNPU_OPERAND_READ };
	ops[1] = (struct vops_operand){ g.mem, 32, VNPU_OPERAND_READ };
	ops[2] = (struct vops_operand){ x.mem, 96, VNPU_OPERAND_WRITE };
	ops[3] = (struct vops_operand){ rstd, 12, VNPU_OPERAND_WRITE };
	ops[4] = (struct vops_operand){ ws, p->ws_bytes, VNPU_OPERAND_WORKSPACE };
	ck_assert_int_eq(vops_run(p->desc, p->desc_size, ops, 5, NULL, why, sizeof(why)),
			 VOPS_RUN_OK);
	for (i = 0; i < 24; i++)
		expect_near(((float *)x.mem)[i], want[i], 1e-5 * (fabs(want[i]) + 1), "y", i);
	free(ws);
	tens_free(&x);
	tens_free(&g);
	free(p);
}
END_TEST

START_TEST(rms_errors)
{
	int64_t xd[2] = { 4, 6 }, gd[2] = { 4, 6 }, g5[1] = { 5 }, g3[3] = { 1, 4, 6 };
	int64_t e0[2] = { 4, 0 }, e1[2] = { 0, 6 };
	struct vops_tensor in[2] = {
		{ .dtype = ACL_FLOAT16, .ndim = 2, .dims = xd },
		{ .dtype = ACL_FLOAT16, .ndim = 1, .dims = gd + 1 },
	};
	struct vops_attr neg[1] = { ATTR_F("epsilon", -1.0f) };
	struct vops_attr nan[1] = { ATTR_F("epsilon", NAN) };
	struct vops_attr unk[1] = { ATTR_I("axis", 1) };
	struct vops_plan *p = malloc(sizeof(*p));

	/* gamma: not x's trailing shape, of more dimensions, a scalar */
	in[1].dims = g5;
	plan_err("RmsNorm", 2, in, 2, NULL, 0, VOPS_ERR_INPUT, "gamma");
	in[1].ndim = 3, in[1].dims = g3;
	plan_err("RmsNorm", 2, in, 2, NULL, 0, VOPS_ERR_INPUT, "gamma");
	in[1].ndim = 0;
	plan_err("RmsNorm", 2, in, 2, NULL, 0, VOPS_ERR_INPUT, "gamma");
	in[1].ndim = 2, in[1].dims = gd;
	plan_ok("RmsNorm", 2, in, 2, NULL, 0, p);
	ck_assert_int_eq(p->out[1].ndim, 2);
	ck_assert_int_eq(p->out[1].dims[0], 1);
	/* types: gamma x's or fp32; x a float type */
	in[1].dtype = ACL_BF16;
	plan_err("RmsNorm", 2, in, 2, NULL, 0, VOPS_ERR_INPUT, "ACL_BF16");
	in[1].dtype = ACL_FLOAT;
	plan_ok("RmsNorm", 2, in, 2, NULL, 0, p);
	ck_assert_int_eq(p->out[0].dtype, ACL_FLOAT16);
	ck_assert_int_eq(p->out[1].dtype, ACL_FLOAT);
	in[0].dtype = in[1].dtype = ACL_INT32;
	plan_err("RmsNorm", 2, in, 2, NULL, 0, VOPS_ERR_DTYPE, "ACL_INT32");
	in[0].dtype = in[1].dtype = ACL_FLOAT;
	/* attributes, counts */
	plan_err("RmsNorm", 2, in, 2, neg, 1, VOPS_ERR_ATTR, "epsilon");
	plan_err("RmsNorm", 2, in, 2, nan, 1, VOPS_ERR_ATTR, "epsilon");
	plan_err("RmsNorm", 2, in, 2, unk, 1, VOPS_ERR_ATTR, "axis");
	plan_err("RmsNorm", 1, in, 2, NULL, 0, VOPS_ERR_INPUT, "input");
	plan_err("RmsNorm", 2, in, 3, NULL, 0, VOPS_ERR_OUTPUT, "output");
	/* empty: no rows is an empty plan; rows of nothing have no statistics */
	in[0].dims = e1, in[1].ndim = 1, in[1].dims = e1 + 1;
	plan_ok("RmsNorm", 2, in, 2, NULL, 0, p);
	ck_assert(p->empty);
	in[0].dims = e0, in[1].dims = e0 + 1;
	plan_err("RmsNorm", 2, in, 2, NULL, 0, VOPS_ERR_INPUT, "no elements");
	free(p);
}
END_TEST

START_TEST(plan_errors)
{
	int64_t xd[2] = { 4, 6 }, gd[1] = { 6 }, bad[1] = { 5 }, x4[4] = { 2, 3, 4, 5 };
	int64_t c3[1] = { 3 };
	int64_t e0[2] = { 2, 0 }, e1[2] = { 0, 6 };
	struct vops_tensor x = { .dtype = ACL_FLOAT, .ndim = 2, .dims = xd };
	struct vops_tensor g = { .dtype = ACL_FLOAT, .ndim = 1, .dims = gd };
	struct vops_tensor in[5] = { x, g, g };
	struct vops_attr ln1[2] = { ATTR_I("begin_norm_axis", 1), ATTR_I("begin_params_axis", 1) };
	struct vops_attr ln2[2] = { ATTR_I("begin_norm_axis", 2) };
	struct vops_attr ln3[2] = { ATTR_I("begin_norm_axis", 1), ATTR_F("epsilon", -1.0f) };
	struct vops_attr ln4[2] = { ATTR_I("begin_norm_axis", 1), ATTR_S("epsilon", "x") };
	struct vops_attr bn1[1] = { ATTR_S("data_format", "NCHW") };
	struct vops_attr bn2[2] = { ATTR_B("is_training", false), ATTR_S("data_format", "HWCN") };
	struct vops_attr lrn1[1] = { ATTR_S("norm_region", "WITHIN_CHANNEL") };
	struct vops_attr lrn2[1] = { ATTR_I("depth_radius", -1) };
	int64_t dup[2] = { 1, -3 };
	struct vops_attr mvn1[1] = { { .name = (char *)"axes", .kind = VOPS_ATTR_LIST_INT,
				       .li = { 2, dup } } };
	struct vops_attr unk[1] = { ATTR_I("axis", 1) };
	struct vops_plan *p = malloc(sizeof(*p));

	/* types */
	in[0].dtype = ACL_INT32;
	plan_err("LayerNormV3", 3, in, 3, ln1, 2, VOPS_ERR_DTYPE, "ACL_INT32");
	plan_err("MVNV2", 1, in, 1, NULL, 0, VOPS_ERR_DTYPE, "ACL_INT32");
	plan_err("LRN", 1, in, 1, NULL, 0, VOPS_ERR_DTYPE, "ACL_INT32");
	in[0].dtype = ACL_FLOAT16;
	in[1].dtype = ACL_BF16;
	plan_err("LayerNorm", 3, in, 1, ln1, 2, VOPS_ERR_INPUT, "ACL_BF16");
	in[0].dtype = ACL_FLOAT;
	in[1].dtype = ACL_FLOAT16;
	plan_err("LayerNorm", 3, in, 1, ln1, 2, VOPS_ERR_INPUT, "ACL_FLOAT16");
	in[1].dtype = ACL_FLOAT;
	/* shapes */
	in[1].dims = bad;
	plan_err("LayerNormV3", 3, in, 3, ln1, 2, VOPS_ERR_INPUT, "gamma [5]");
	in[1].dims = gd;
	in[2].dims = bad;
	plan_err("LayerNormV3", 3, in, 3, ln1, 2, VOPS_ERR_INPUT, "beta [5]");
	in[2].dims = gd;
	plan_err("LayerNormV3", 3, in, 3, NULL, 0, VOPS_ERR_INPUT, "gamma [6]");
	in[0].dims = e0;
	in[1].dims = &e0[1];
	in[2].dims = &e0[1];
	plan_err("LayerNormV3", 3, in, 3, ln1, 2, VOPS_ERR_INPUT, "no elements");
	plan_ok("LayerNormV3", 3, in, 1, ln1, 2, p);
	ck_assert(p->empty);
	in[0].dims = e1;
	in[1].dims = in[2].dims = gd;
	plan_ok("LayerNormV3", 3, in, 3, ln1, 2, p);
	ck_assert(p->empty);
	ck_assert_uint_eq(p->ws_bytes, 0);
	in[0].dims = xd;
	/* attributes */
	plan_err("LayerNormV3", 3, in, 3, ln2, 1, VOPS_ERR_ATTR, "begin_norm_axis 2");
	plan_err("LayerNormV3", 3, in, 3, ln3, 2, VOPS_ERR_ATTR, "epsilon -1");
	plan_err("LayerNormV3", 3, in, 3, ln4, 2, VOPS_ERR_ATTR, "epsilon");
	plan_err("LayerNormV3", 3, in, 3, unk, 1, VOPS_ERR_ATTR, "axis");
	plan_err("LRN", 1, in, 1, lrn1, 1, VOPS_ERR_ATTR, "WITHIN_CHANNEL");
	plan_err("LRN", 1, in, 1, lrn2, 1, VOPS_ERR_ATTR, "depth_radius -1");
	in[0].dims = x4;
	in[0].ndim = 4;
	plan_err("MVNV2", 1, in, 1, mvn1, 1, VOPS_ERR_ATTR, "twice");
	/* BatchNorm: training is CANN's default; channel counts; formats */
	in[1].dims = in[2].dims = in[3].dims = in[4].dims = c3;
	in[1].ndim = in[2].ndim = in[3].ndim = in[4].ndim = 1;
	in[1].dtype = in[2].dtype = in[3].dtype = in[4].dtype = ACL_FLOAT;
	plan_err("BatchNorm", 5, in, 1, bn1, 1, VOPS_ERR_ATTR, "is_training");
	plan_err("BatchNorm", 5, in, 1, bn2, 2, VOPS_ERR_ATTR, "HWCN");
	bn2[1] = (struct vops_attr)ATTR_S("data_format", "NHWC");
	plan_err("BatchNorm", 5, in, 1, bn2, 2, VOPS_ERR_INPUT, "[5]");
	bn2[1] = (struct vops_attr)ATTR_S("data_format", "NCHW");
	plan_ok("BatchNorm", 5, in, 1, bn2, 2, p);
	in[4].dtype = ACL_DOUBLE;
	plan_err("BatchNorm", 5, in, 1, bn2, 2, VOPS_ERR_INPUT, "ACL_DOUBLE");
	in[4].dtype = ACL_FLOAT;
	plan_err("BatchNorm", 3, in, 1, bn2, 2, VOPS_ERR_INPUT, "5 input");
	/* InstanceNorm */
	plan_err("InstanceNorm", 3, in, 1, bn2, 2, VOPS_ERR_ATTR, "is_training");
	plan_ok("InstanceNorm", 3, in, 3, bn1, 1, p);
	plan_err("InstanceNorm", 3, in, 3, NULL, 0, VOPS_ERR_INPUT, "gamma [3]");
	in[0].ndim = 2;
	plan_err("InstanceNorm", 3, in, 3, bn1, 1, VOPS_ERR_INPUT, "3 dimensions");
	plan_err("LayerNormV3", 3, in, 4, ln1, 2, VOPS_ERR_OUTPUT, "outputs");
	free(p);
}
END_TEST

/* ---- corrupted descriptors ------------------------------------------------------------ */

/* Run @p after @patch changed its descriptor: a fault, nothing written. */
static void expect_fault(struct vops_plan *p, void *const *mem, const size_t *isz)
{
	void *out[3];
	int k;
	size_t i;

	ck_assert_int_eq(run(p, mem, isz, out, NULL), VOPS_RUN_FAULT);
	for (k = 0; k < p->nout; k++) {
		for (i = 0; i < p->out[k].bytes; i++)
			ck_assert_uint_eq(((unsigned char *)out[k])[i], 0xa5);
		free(out[k]);
	}
}

START_TEST(desc_corrupt)
{
	static const int64_t xd[2] = { 4, 6 }, x4[4] = { 2, 3, 2, 2 };
	struct tens x, g, x2;
	struct vops_tensor in[3];
	struct vops_plan *p = malloc(sizeof(*p)), *q = malloc(sizeof(*q));
	struct vops_attr at[2] = { ATTR_I("begin_norm_axis", 1), ATTR_I("begin_params_axis", 1) };
	void *mem[3];
	size_t isz[3];
	double nan = NAN;
	int64_t big = 7, three = 3;

	tens_init(&x, ACL_FLOAT, 2, xd, -1, 1);
	tens_init(&g, ACL_FLOAT, 1, xd + 1, -1, 1);
	in[0] = vt(&x);
	in[1] = in[2] = vt(&g);
	mem[0] = x.mem;
	mem[1] = mem[2] = g.mem;
	isz[0] = 24 * 4, isz[1] = isz[2] = 6 * 4;
	plan_ok("LayerNormV3", 3, in, 3, at, 2, p);
	/* epsilon (the last 8 bytes) a NaN */
	*q = *p;
	memcpy(q->desc + q->desc_size - 8, &nan, 8);
	expect_fault(q, mem, isz);
	/* begin_norm_axis (the first int parameter, 24 bytes from the end) out of range */
	*q = *p;
	memcpy(q->desc + q->desc_size - 24, &big, 8);
	expect_fault(q, mem, isz);
	/* x's first dimension (after the 16-byte header and 8 record bytes) larger than x */
	*q = *p;
	memcpy(q->desc + 24, &big, 8);
	expect_fault(q, mem, isz);
	/* MVNV2: an axis parameter beyond x's rank */
	tens_init(&x2, ACL_FLOAT, 4, x4, -1, 1);
	in[0] = vt(&x2);
	plan_ok("MVNV2", 1, in, 1, NULL, 0, p);
	mem[0] = x2.mem;
	isz[0] = 24 * 4;
	*q = *p;
	memcpy(q->desc + q->desc_size - 16, &big, 8);
	expect_fault(q, mem, isz);
	/* the axes out of order */
	*q = *p;
	memcpy(q->desc + q->desc_size - 24, &three, 8);
	expect_fault(q, mem, isz);
	/* LRN: a negative depth_radius */
	plan_ok("LRN", 1, in, 1, NULL, 0, p);
	*q = *p;
	big = -1;
	memcpy(q->desc + q->desc_size - 32, &big, 8);
	expect_fault(q, mem, isz);
	/* RmsNorm: a negative epsilon, an int parameter it does not have */
	in[0] = vt(&x);
	in[1] = vt(&g);
	mem[0] = x.mem, mem[1] = g.mem;
	isz[0] = 24 * 4, isz[1] = 6 * 4;
	plan_ok("RmsNorm", 2, in, 2, NULL, 0, p);
	*q = *p;
	nan = -1.0;
	memcpy(q->desc + q->desc_size - 8, &nan, 8);
	expect_fault(q, mem, isz);
	*q = *p;
	three = 1 | 1ll << 32;	/* ni 1, nf 1 */
	memcpy(q->desc + q->desc_size - 16, &three, 8);
	expect_fault(q, mem, isz);
	tens_free(&x);
	tens_free(&g);
	tens_free(&x2);
	free(p);
	free(q);
}
END_TEST

static Suite *norm_suite(void)
{
	Suite *s = suite_create("ops_norm");
	TCase *tc = tcase_create("norm");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, ln_fast_f32);
	tcase_add_test(tc, ln_generic_types);
	tcase_add_test(tc, ln_fast_parallel);
	tcase_add_loop_test(tc, ln_cancel, 0, 3);
	tcase_add_test(tc, ln_view);
	tcase_add_test(tc, bn_types);
	tcase_add_test(tc, in_types);
	tcase_add_test(tc, lrn_types);
	tcase_add_test(tc, mvn_types);
	tcase_add_test(tc, rms_types);
	tcase_add_test(tc, rms_view);
	tcase_add_test(tc, rms_in_place);
	tcase_add_test(tc, rms_errors);
	tcase_add_test(tc, plan_errors);
	tcase_add_test(tc, desc_corrupt);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(norm_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
