// SPDX-License-Identifier: MIT
/*
 * op_norm.c - normalisations (the norm family): BatchNorm (inference),
 * LayerNorm, LayerNormV3, InstanceNorm, LRN, MVNV2 and RmsNorm (docs/ops/norm.md).
 *
 * The statistics operators (LayerNorm*, InstanceNorm, MVNV2) split x's
 * axes into kept ones (a group per position) and reduced ones. Their
 * generic path (every float type, views) computes each group's mean and
 * variance in double in two passes over x (the sum, then the squares about
 * the mean) into the workspace, then runs the normalisation element-wise
 * through ops_ew_run() with the statistics as broadcast double tensors,
 * rounding once. LayerNorm on dense fp32 with gamma over the normalised
 * axes has a fast path instead: rows in parallel pieces, float vector
 * lanes summed in blocks of 64 and the blocks added in double.
 */
#include <math.h>
#include <string.h>

#include "ops_int.h"

enum {
	NORM_ID_BATCH_NORM,
	NORM_ID_LAYER_NORM,
	NORM_ID_LAYER_NORM_V3,
	NORM_ID_INSTANCE_NORM,
	NORM_ID_LRN,
	NORM_ID_MVNV2,
	NORM_ID_RMS_NORM,
};

/* ---- shared helpers --------------------------------------------------------- */

/* The parameter counts a descriptor must bring. */
static enum vops_err check_params(const struct ops_call *c, uint32_t ni, uint32_t nf,
				  struct vops_error *err)
{
	if (c->at.pr.ni != ni || c->at.pr.nf != nf)
		return ops_fail(err, VOPS_ERR_ATTR,
				"%s: %u int and %u float parameters (%u and %u)", c->def->name,
				c->at.pr.ni, c->at.pr.nf, ni, nf);
	return VOPS_OK;
}

/* An epsilon must be a finite number >= 0. */
static enum vops_err check_eps(const struct ops_call *c, const char *name, double eps,
			       struct vops_error *err)
{
	if (!isfinite(eps) || eps < 0)
		return ops_fail(err, VOPS_ERR_ATTR, "%s: attribute %s %g must be finite and >= 0",
				c->def->name, name, eps);
	return VOPS_OK;
}

/* Parse an epsilon attribute into the call's float parameters. */
static enum vops_err parse_eps(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
			       const char *name, double dflt, struct vops_error *err)
{
	double eps;
	enum vops_err ret = ops_attr_float(c->def, attrs, n, name, dflt, &eps, err);

	if (!ret)
		ret = check_eps(c, name, eps, err);
	if (!ret)
		ops_param_f(c, eps);
	return ret;
}

/* data_format: 0 when the channel axis is 1 (NCHW, NCDHW), 1 when it is the last. */
static enum vops_err parse_format(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
				  const char *dflt, struct vops_error *err)
{
	const char *f;
	enum vops_err ret = ops_attr_str(c->def, attrs, n, "data_format", dflt, &f, err);

	if (ret)
		return ret;
	if (!strcmp(f, "NCHW") || !strcmp(f, "NCDHW"))
		ops_param_i(c, 0);
	else if (!strcmp(f, "NHWC") || !strcmp(f, "NDHWC"))
		ops_param_i(c, 1);
	else
		return ops_fail(err, VOPS_ERR_ATTR, "%s: attribute data_format \"%s\" is not "
				"supported (vnpu: NCHW, NCDHW, NHWC, NDHWC)", c->def->name, f);
	return VOPS_OK;
}

/* Inputs @first .. @last have type @dt. */
static enum vops_err same_types(const struct ops_call *c, int first, int last, int32_t dt,
				struct vops_error *err)
{
	int i;

	for (i = first; i <= last; i++)
		if (c->in[i].dtype != dt)
			return ops_fail(err, VOPS_ERR_INPUT,
					"%s: input %d is %s, input %d %s (they must agree)",
					c->def->name, i, vops_dtype_name(c->in[i].dtype), first,
					vops_dtype_name(dt));
	return VOPS_OK;
}

/* A parameter tensor's type: x's or ACL_FLOAT (CANN's rule). */
static enum vops_err param_type(const struct ops_call *c, int i, struct vops_error *err)
{
	int32_t dt = c->in[i].dtype;

	if (dt != c->in[0].dtype && dt != ACL_FLOAT)
		return ops_fail(err, VOPS_ERR_INPUT,
				"%s: input %d is %s; it must be x's type (%s) or ACL_FLOAT",
				c->def->name, i, vops_dtype_name(dt),
				vops_dtype_name(c->in[0].dtype));
	return VOPS_OK;
}

static enum vops_err all_dense_in(const struct ops_call *c, struct vops_plan *p,
				  struct vops_error *err)
{
	enum vops_err ret = VOPS_OK;
	int i;

	for (i = 0; i < c->nin && !ret; i++)
		ret = ops_set_in_dense(c, p, i, err);
	return ret;
}

static uint64_t prod(const int64_t *dims, int from, int to)
{
	uint64_t n = 1;
	int d;

	for (d = from; d < to; d++)
		n *= (uint64_t)dims[d];
	return n;
}

/* true at the start of every OPS_EW_CHUNK elements of work when the runner says stop. */
static bool tick(struct ops_runner *r, uint64_t *work, uint64_t n)
{
	bool stop = *work == 0 && ops_should_stop(r);

	*work += n;
	if (*work >= OPS_EW_CHUNK)
		*work = 0;
	return stop;
}

/* A 1-D tensor @t of x's channel count seen at x's rank for broadcasting:
 * [C, 1, ...] after axis 1 when the channel is axis 1, as is when last. */
static void channel_view(const struct vops_tensor *t, int rank, bool last, int64_t *dims,
			 int64_t *st, struct vops_tensor *v)
{
	int d;

	*v = *t;
	if (last)
		return;
	ops_strides(t, st);
	dims[0] = t->dims[0];
	for (d = 1; d < rank - 1; d++) {
		dims[d] = 1;
		st[d] = 0;
	}
	v->ndim = rank - 1;
	v->dims = dims;
	v->strides = st;
}

/* ---- group statistics (the generic path) ------------------------------------ */

/* What a statistics run works on: x, which axes are reduced, the groups. */
struct grp {
	const struct vops_tensor *x;
	const void *xb;
	bool red[VOPS_MAX_RANK];
	uint64_t ng, rc;		/* groups, elements per group */
	double *mean, *var, *scale;	/* ng each, in the workspace */
	int64_t kdims[VOPS_MAX_RANK];	/* x's shape, reduced axes 1 */
};

/*
 * One pass over x in the order kept axes, then reduced axes: pass 0 adds
 * up each group's elements into mean[], pass 1 the squares of their
 * distances from mean[] into var[].
 */
static enum vops_run_status grp_pass(const struct grp *g, int pass, struct ops_runner *r)
{
	const struct vops_tensor *x = g->x;
	int64_t st[VOPS_MAX_RANK], pd[VOPS_MAX_RANK], ps[VOPS_MAX_RANK], off0 = x->offset;
	const int64_t *stp[1] = { ps };
	double buf[OPS_EW_BLOCK];
	uint64_t pos = 0, work = 0;
	struct ops_iter it;
	int n = 0, d, k;

	ops_strides(x, st);
	for (k = 0; k < 2; k++)
		for (d = 0; d < x->ndim; d++)
			if (g->red[d] == (k == 1)) {
				pd[n] = x->dims[d];
				ps[n++] = st[d];
			}
	ops_iter_init(&it, n, pd, 1, stp, &off0);
	if (!it.rows)
		return VOPS_RUN_OK;
	do {
		int64_t len = it.dims[it.ndim - 1], s = it.st[0][it.ndim - 1], off = it.off[0];

		while (len > 0) {
			uint64_t grp = pos / g->rc, left = g->rc - pos % g->rc;
			size_t m = (size_t)ops_min(ops_min((uint64_t)len, left), OPS_EW_BLOCK), j;
			double acc = 0;

			if (tick(r, &work, m))
				return VOPS_RUN_CANCELED;
			ops_load_f64(buf, g->xb, x->dtype, off, s, m);
			if (pass == 0) {
				for (j = 0; j < m; j++)
					acc += buf[j];
				g->mean[grp] += acc;
			} else {
				double mu = g->mean[grp];

				for (j = 0; j < m; j++)
					acc += (buf[j] - mu) * (buf[j] - mu);
				g->var[grp] += acc;
			}
			off += (int64_t)m * s;
			len -= (int64_t)m;
			pos += m;
		}
	} while (ops_iter_next(&it));
	return VOPS_RUN_OK;
}

/* mean[] and var[] (population variance) of every group. */
static enum vops_run_status grp_stats(struct grp *g, struct ops_runner *r)
{
	enum vops_run_status st;
	uint64_t i;

	memset(g->mean, 0, g->ng * sizeof(double));
	memset(g->var, 0, g->ng * sizeof(double));
	st = grp_pass(g, 0, r);
	if (st)
		return st;
	for (i = 0; i < g->ng; i++)
		g->mean[i] /= (double)g->rc;
	st = grp_pass(g, 1, r);
	for (i = 0; i < g->ng; i++)
		g->var[i] /= (double)g->rc;
	return st;
}

/* Set up @g over x (input 0 of @c, memory @b) with the workspace's three arrays. */
static void grp_init(struct grp *g, const struct ops_call *c, const struct ops_bufs *b,
		     const bool *red)
{
	const struct vops_tensor *x = &c->in[0];
	int d;

	g->x = x;
	g->xb = b->in[0];
	g->ng = 1;
	g->rc = 1;
	for (d = 0; d < x->ndim; d++) {
		g->red[d] = red[d];
		g->kdims[d] = red[d] ? 1 : x->dims[d];
		if (red[d])
			g->rc *= (uint64_t)x->dims[d];
		else
			g->ng *= (uint64_t)x->dims[d];
	}
	g->mean = b->ws;
	g->var = g->mean + g->ng;
	g->scale = g->var + g->ng;
}

/* Workspace of a statistics run: three doubles per group. */
static enum vops_err grp_ws(const struct ops_call *c, struct vops_plan *p, uint64_t ng,
			    struct vops_error *err)
{
	p->ws_bytes = 0;
	p->ws_align = 8;
	if (p->empty)
		return VOPS_OK;
	if (!ops_bytes(ng, 3 * sizeof(double), &p->ws_bytes))
		return ops_too_large(c->def, err);
	return VOPS_OK;
}

/* o = (x - mean) * scale * gamma + beta, and without gamma and beta. */
static void affine_f(const struct ops_call *c, double *restrict o, const double *const *restrict x,
		     size_t n)
{
	size_t j;

	(void)c;
	for (j = 0; j < n; j++)
		o[j] = (x[0][j] - x[1][j]) * x[2][j] * x[3][j] + x[4][j];
}

static void plain_f(const struct ops_call *c, double *restrict o, const double *const *restrict x,
		    size_t n)
{
	size_t j;

	(void)c;
	for (j = 0; j < n; j++)
		o[j] = (x[0][j] - x[1][j]) * x[2][j];
}

/*
 * y (output 0) from x and the group statistics: with @gamma and @beta
 * (tensors broadcast to x; NULL for none).
 */
static enum vops_run_status grp_apply(const struct ops_call *c, const struct ops_bufs *b,
				      const struct grp *g, const struct vops_tensor *gamma,
				      const void *gb, const struct vops_tensor *beta,
				      const void *bb, struct ops_runner *r)
{
	const struct vops_tensor *x = &c->in[0];
	struct vops_tensor in[5] = {
		*x,
		{ .dtype = ACL_DOUBLE, .ndim = x->ndim, .dims = g->kdims },
		{ .dtype = ACL_DOUBLE, .ndim = x->ndim, .dims = g->kdims },
	};
	const void *mem[5] = { g->xb, g->mean, g->scale, gb, bb };
	struct ops_ew e = {
		.c = c, .ndim = x->ndim, .dims = x->dims, .nin = gamma ? 5 : 3, .in = in, .x = mem,
		.odt = x->dtype, .out = b->out[0], .dom = OPS_DOM_F64,
		.f64 = gamma ? affine_f : plain_f,
	};

	if (gamma) {
		in[3] = *gamma;
		in[4] = *beta;
	}
	return ops_ew_run(&e, r);
}

/* Output @k (dense, its planned type) from @n doubles. */
static void store_out(const struct vops_plan *p, const struct ops_bufs *b, int k, const double *v,
		      uint64_t n)
{
	ops_store_f64(b->out[k], p->out[k].dtype, 0, 1, v, (size_t)n);
}

/*
 * The stats outputs' rule: x empty means y is; the plan is empty when
 * every output is, and statistics of no elements are refused.
 */
static enum vops_err grp_empty(const struct ops_call *c, struct vops_plan *p, uint64_t ng,
			       uint64_t rc, struct vops_error *err)
{
	char s[96];

	p->empty = !ng || (!rc && c->nout == 1);
	if (!p->empty && !rc)
		return ops_fail(err, VOPS_ERR_INPUT, "%s: x %s has no elements to normalise over",
				c->def->name,
				vops_shape_str(s, sizeof(s), c->in[0].ndim, c->in[0].dims));
	return VOPS_OK;
}

/* ---- BatchNorm (inference) --------------------------------------------------- */

static const char *const bn_attrs[] = {
	"epsilon", "data_format", "is_training", "exponential_avg_factor", NULL,
};

/* CANN's defaults: epsilon 1e-4, NHWC, training; vnpu runs inference only. */
static enum vops_err bn_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
			      struct vops_error *err)
{
	double factor;
	bool training;
	enum vops_err ret = ops_attr_bool(c->def, attrs, n, "is_training", true, &training, err);

	if (!ret && training)
		return ops_fail(err, VOPS_ERR_ATTR, "%s: is_training true is not supported (vnpu "
				"runs inference only: set is_training false)", c->def->name);
	if (!ret)
		ret = ops_attr_float(c->def, attrs, n, "exponential_avg_factor", 1.0, &factor, err);
	if (!ret && !isfinite(factor))
		return ops_fail(err, VOPS_ERR_ATTR,
				"%s: attribute exponential_avg_factor %g is not finite",
				c->def->name, factor);
	if (!ret)
		ret = parse_format(c, attrs, n, "NHWC", err);
	return ret ? ret : parse_eps(c, attrs, n, "epsilon", 1e-4, err);
}

static enum vops_err bn_infer(const struct ops_call *c, struct vops_plan *p, struct vops_error *err)
{
	static const char *const names[] = { "x", "scale", "offset", "mean", "variance" };
	const struct vops_tensor *x = &c->in[0];
	enum vops_err ret = check_params(c, 1, 1, err);
	char s[96];
	int64_t ch;
	int i, k;

	if (!ret && c->at.pr.i[0] != 0 && c->at.pr.i[0] != 1)
		ret = ops_fail(err, VOPS_ERR_ATTR, "%s: format parameter %lld (0 or 1)",
			       c->def->name, (long long)c->at.pr.i[0]);
	if (!ret)
		ret = check_eps(c, "epsilon", c->at.pr.f[0], err);
	if (!ret)
		ret = param_type(c, 1, err);
	if (!ret)
		ret = same_types(c, 1, 4, c->in[1].dtype, err);
	if (ret)
		return ret;
	if (x->ndim < 2)
		return ops_fail(err, VOPS_ERR_INPUT, "%s: x %s needs at least 2 dimensions",
				c->def->name, vops_shape_str(s, sizeof(s), x->ndim, x->dims));
	ch = x->dims[c->at.pr.i[0] ? x->ndim - 1 : 1];
	for (i = 1; i < 5; i++)
		if (c->in[i].ndim != 1 || c->in[i].dims[0] != ch)
			return ops_fail(err, VOPS_ERR_INPUT,
					"%s: %s %s must be [%lld], x's channels", c->def->name,
					names[i], vops_shape_str(s, sizeof(s), c->in[i].ndim,
								 c->in[i].dims), (long long)ch);
	ret = all_dense_in(c, p, err);
	if (!ret)
		ret = ops_set_out_n(c, p, 0, x->dtype, x->ndim, x->dims, err);
	/* batch_mean, batch_variance, reserve_space_1, _2: in inference the inputs' mean and
	 * variance, as TensorFlow's FusedBatchNorm gives them. */
	for (k = 1; k < c->nout && !ret; k++)
		ret = ops_set_out_n(c, p, k, c->in[3].dtype, 1, &ch, err);
	p->empty = true;
	for (k = 0; k < c->nout; k++)
		p->empty = p->empty && !p->out[k].bytes;
	p->in_place = 1u;
	return ret;
}

static enum vops_err bn_ws(const struct ops_call *c, struct vops_plan *p, struct vops_error *err)
{
	return grp_ws(c, p, p->empty ? 0 : (uint64_t)c->in[1].dims[0], err);
}

/* o = (x - mean) * a + offset, a = scale / sqrt(variance + epsilon) */
static void bn_f(const struct ops_call *c, double *restrict o, const double *const *restrict x,
		 size_t n)
{
	size_t j;

	(void)c;
	for (j = 0; j < n; j++)
		o[j] = (x[0][j] - x[1][j]) * x[2][j] + x[3][j];
}

static enum vops_run_status bn_run(const struct ops_call *c, const struct vops_plan *p,
				   const struct ops_bufs *b, struct ops_runner *r)
{
	const struct vops_tensor *x = &c->in[0];
	bool last = c->at.pr.i[0] != 0;
	int64_t vd[3][VOPS_MAX_RANK], vs[3][VOPS_MAX_RANK], st[5][1], ch = c->in[1].dims[0];
	struct vops_tensor in[4], adense = { .dtype = ACL_DOUBLE, .ndim = 1, .dims = &ch };
	const void *mem[4] = { b->in[0], b->in[3], b->ws, b->in[2] };
	double *a = b->ws, eps = c->at.pr.f[0];
	struct ops_ew e = {
		.c = c, .ndim = x->ndim, .dims = x->dims, .nin = 4, .in = in, .x = mem,
		.odt = x->dtype, .out = b->out[0], .dom = OPS_DOM_F64, .f64 = bn_f,
	};
	enum vops_run_status ret = VOPS_RUN_OK;
	int64_t k;
	int i;

	for (i = 1; i < 5; i++)
		ops_strides(&c->in[i], st[i]);
	for (k = 0; k < ch; k++) {
		double sc = ops_get_f64(b->in[1], c->in[1].dtype, c->in[1].offset + k * st[1][0]);
		double var = ops_get_f64(b->in[4], c->in[4].dtype, c->in[4].offset + k * st[4][0]);

		a[k] = sc / sqrt(var + eps);
	}
	in[0] = *x;
	channel_view(&c->in[3], x->ndim, last, vd[0], vs[0], &in[1]);
	channel_view(&adense, x->ndim, last, vd[1], vs[1], &in[2]);
	channel_view(&c->in[2], x->ndim, last, vd[2], vs[2], &in[3]);
	if (p->out[0].bytes)
		ret = ops_ew_run(&e, r);
	for (i = 1; i < c->nout && !ret; i++) {
		int src = i % 2 ? 3 : 4;

		ret = ops_copy_run(b->out[i], NULL, 0, b->in[src], st[src], c->in[src].offset, 1,
				   &ch, ops_esize(c->in[src].dtype), r);
	}
	return ret;
}

static const struct ops_def def_batch_norm = {
	.name = "BatchNorm", .id = OPS_ID_NORM + NORM_ID_BATCH_NORM, .nin = 5, .nout = 1,
	.nout_max = 5, .attr_fmt = OPS_AF_PARAMS, .flags = OPS_DEF_STRIDED | OPS_DEF_MIXED,
	.dtypes = OPS_DT_REAL, .attrs = bn_attrs, .parse = bn_parse, .infer = bn_infer,
	.workspace = bn_ws, .run = bn_run,
};

/* ---- LayerNorm, LayerNormV3 ----------------------------------------------------- */

static const char *const ln_attrs[] = { "begin_norm_axis", "begin_params_axis", "epsilon", NULL };

static bool is_v3(const struct ops_call *c)
{
	return c->def->id == OPS_ID_NORM + NORM_ID_LAYER_NORM_V3;
}

/* Both forms: begin_norm_axis 0, begin_params_axis 0; epsilon 1e-7 (LayerNorm), 1e-5 (V3). */
static enum vops_err ln_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
			      struct vops_error *err)
{
	static const char *const names[] = { "begin_norm_axis", "begin_params_axis" };
	int rank = c->in[0].ndim, k, ax;
	enum vops_err ret;
	int64_t v;

	for (k = 0; k < 2; k++) {
		ret = ops_attr_int(c->def, attrs, n, names[k], 0, &v, err);
		if (ret)
			return ret;
		if (!ops_axis(v, rank, &ax))
			return ops_fail(err, VOPS_ERR_ATTR,
					"%s: attribute %s %lld is out of range for x of %d "
					"dimensions", c->def->name, names[k], (long long)v, rank);
		ops_param_i(c, ax);
	}
	return parse_eps(c, attrs, n, "epsilon", is_v3(c) ? 1e-5 : 1e-7, err);
}

static enum vops_err ln_infer(const struct ops_call *c, struct vops_plan *p, struct vops_error *err)
{
	const struct vops_tensor *x = &c->in[0], *g = &c->in[1];
	enum vops_err ret = check_params(c, 2, 1, err);
	int64_t kd[VOPS_MAX_RANK], bna, bpa;
	char s1[96], s2[96];
	int d, k;

	if (ret)
		return ret;
	bna = c->at.pr.i[0];
	bpa = c->at.pr.i[1];
	if (bna < 0 || bna >= x->ndim || bpa < 0 || bpa >= x->ndim)
		return ops_fail(err, VOPS_ERR_ATTR, "%s: begin_norm_axis %lld or begin_params_axis "
				"%lld is out of range for x of %d dimensions", c->def->name,
				(long long)bna, (long long)bpa, x->ndim);
	ret = check_eps(c, "epsilon", c->at.pr.f[0], err);
	if (!ret)
		ret = param_type(c, 1, err);
	if (!ret)
		ret = same_types(c, 1, 2, g->dtype, err);
	if (ret)
		return ret;
	for (k = 1; k < 3; k++) {
		const struct vops_tensor *t = &c->in[k];
		bool ok = t->ndim == x->ndim - bpa;

		for (d = 0; ok && d < t->ndim; d++)
			ok = t->dims[d] == x->dims[bpa + d];
		if (!ok)
			return ops_fail(err, VOPS_ERR_INPUT,
					"%s: %s %s must be x's shape %s from "
					"begin_params_axis %lld", c->def->name,
					k == 1 ? "gamma" : "beta",
					vops_shape_str(s1, sizeof(s1), t->ndim, t->dims),
					vops_shape_str(s2, sizeof(s2), x->ndim, x->dims),
					(long long)bpa);
	}
	ret = all_dense_in(c, p, err);
	if (!ret)
		ret = ops_set_out_n(c, p, 0, x->dtype, x->ndim, x->dims, err);
	for (d = 0; d < x->ndim; d++)
		kd[d] = d >= bna ? 1 : x->dims[d];
	/* mean and variance (LayerNorm: x's type) or rstd (V3: gamma's type) */
	for (k = 1; k < c->nout && !ret; k++)
		ret = ops_set_out_n(c, p, k, is_v3(c) ? g->dtype : x->dtype, x->ndim, kd, err);
	if (ret)
		return ret;
	p->in_place = 1u;
	return grp_empty(c, p, prod(x->dims, 0, (int)bna), prod(x->dims, (int)bna, x->ndim), err);
}

/* The fast path: dense fp32 x, gamma and beta over exactly the normalised axes. */
static bool ln_fast(const struct ops_call *c)
{
	int i;

	for (i = 0; i < 3; i++)
		if (c->in[i].dtype != ACL_FLOAT || !ops_is_dense(&c->in[i]))
			return false;
	return c->at.pr.i[0] == c->at.pr.i[1];
}

static enum vops_err ln_ws(const struct ops_call *c, struct vops_plan *p, struct vops_error *err)
{
	if (ln_fast(c)) {
		p->ws_bytes = 0;
		return VOPS_OK;
	}
	return grp_ws(c, p, prod(c->in[0].dims, 0, (int)c->at.pr.i[0]), err);
}

typedef float v4f __attribute__((vector_size(16)));

static inline v4f ld4(const float *p)
{
	v4f v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline void st4(float *p, v4f v)
{
	memcpy(p, &v, sizeof(v));
}

static inline double hsum(v4f a)
{
	return ((double)a[0] + a[1]) + ((double)a[2] + a[3]);
}

/* Sum of x[0 .. n): float lanes within blocks of 64 elements, the blocks added in double. */
static double sum_f32(const float *x, size_t n)
{
	double s = 0;
	size_t j = 0, k;

	for (; j + 64 <= n; j += 64) {
		v4f a = ld4(x + j), b = ld4(x + j + 4);

		for (k = 8; k < 64; k += 8) {
			a += ld4(x + j + k);
			b += ld4(x + j + k + 4);
		}
		s += hsum(a + b);
	}
	for (; j < n; j++)
		s += x[j];
	return s;
}

/* Sums of d = x - m and of d * d, blocked as sum_f32. */
static void dev_f32(const float *x, size_t n, float m, double *s1, double *s2)
{
	const v4f mv = { m, m, m, m };
	size_t j = 0, k;

	for (; j + 64 <= n; j += 64) {
		v4f a = { 0 }, b = { 0 }, qa = { 0 }, qb = { 0 };

		for (k = 0; k < 64; k += 8) {
			v4f d0 = ld4(x + j + k) - mv, d1 = ld4(x + j + k + 4) - mv;

			a += d0;
			b += d1;
			qa += d0 * d0;
			qb += d1 * d1;
		}
		*s1 += hsum(a + b);
		*s2 += hsum(qa + qb);
	}
	for (; j < n; j++) {
		double d = (double)x[j] - m;

		*s1 += d;
		*s2 += d * d;
	}
}

/* y = (x - m) * (rs * g) + b over n elements. */
static void apply_f32(float *y, const float *x, const float *g, const float *b, size_t n, float m,
		      float rs)
{
	const v4f mv = { m, m, m, m }, rv = { rs, rs, rs, rs };
	size_t j = 0;

	for (; j + 4 <= n; j += 4)
		st4(y + j, (ld4(x + j) - mv) * (rv * ld4(g + j)) + ld4(b + j));
	for (; j < n; j++)
		y[j] = (x[j] - m) * (rs * g[j]) + b[j];
}

struct ln_fast_ctx {
	const struct ops_call *c;
	const struct vops_plan *p;
	const struct ops_bufs *b;
	uint64_t rows, cols, per_piece;
};

/* Segments of a row between two questions to the runner. */
#define LN_SEG 16384u

static enum vops_run_status ln_fast_piece(const void *ctx, struct ops_runner *r, uint64_t i)
{
	const struct ln_fast_ctx *f = ctx;
	const float *x = f->b->in[0], *g = f->b->in[1], *bb = f->b->in[2];
	float *y = f->b->out[0], *o1 = f->c->nout > 1 ? f->b->out[1] : NULL;
	float *o2 = f->c->nout > 2 ? f->b->out[2] : NULL;
	uint64_t row = i * f->per_piece, end = ops_min(row + f->per_piece, f->rows), work = 0, j, n;
	double eps = f->c->at.pr.f[0], cn = (double)f->cols;

	for (; row < end; row++) {
		const float *xr = x + row * f->cols;
		double s = 0, s1 = 0, s2 = 0, mean, var, rstd, dm;
		float *yr = y + row * f->cols, mf;

		for (j = 0; j < f->cols; j += n) {
			n = ops_min(LN_SEG, f->cols - j);
			if (tick(r, &work, n))
				return VOPS_RUN_CANCELED;
			s += sum_f32(xr + j, n);
		}
		mf = (float)(s / cn);
		for (j = 0; j < f->cols; j += n) {
			n = ops_min(LN_SEG, f->cols - j);
			if (tick(r, &work, n))
				return VOPS_RUN_CANCELED;
			dev_f32(xr + j, n, mf, &s1, &s2);
		}
		/* about mf: the mean is mf + s1 / n, the variance s2 / n less its square */
		dm = s1 / cn;
		mean = mf + dm;
		var = s2 / cn - dm * dm;
		if (var < 0)
			var = 0;
		rstd = 1.0 / sqrt(var + eps);
		for (j = 0; j < f->cols; j += n) {
			n = ops_min(LN_SEG, f->cols - j);
			if (tick(r, &work, n))
				return VOPS_RUN_CANCELED;
			apply_f32(yr + j, xr + j, g + j, bb + j, n, (float)mean, (float)rstd);
		}
		if (o1)
			o1[row] = (float)mean;
		if (o2)
			o2[row] = (float)(is_v3(f->c) ? rstd : var);
	}
	return VOPS_RUN_OK;
}

static enum vops_run_status ln_run(const struct ops_call *c, const struct vops_plan *p,
				   const struct ops_bufs *b, struct ops_runner *r)
{
	const struct vops_tensor *x = &c->in[0];
	int bna = (int)c->at.pr.i[0], d;
	bool red[VOPS_MAX_RANK];
	enum vops_run_status st;
	struct grp g;
	uint64_t i;

	if (ln_fast(c)) {
		struct ln_fast_ctx f = {
			.c = c, .p = p, .b = b, .rows = prod(x->dims, 0, bna),
			.cols = prod(x->dims, bna, x->ndim),
		};

		/* about four chunks of elements per piece */
		f.per_piece = 4 * OPS_EW_CHUNK / f.cols ? 4 * OPS_EW_CHUNK / f.cols : 1;
		return ops_run_pieces(r, (f.rows + f.per_piece - 1) / f.per_piece, true,
				      ln_fast_piece, &f);
	}
	for (d = 0; d < x->ndim; d++)
		red[d] = d >= bna;
	grp_init(&g, c, b, red);
	st = grp_stats(&g, r);
	if (st)
		return st;
	for (i = 0; i < g.ng; i++)
		g.scale[i] = 1.0 / sqrt(g.var[i] + c->at.pr.f[0]);
	st = grp_apply(c, b, &g, &c->in[1], b->in[1], &c->in[2], b->in[2], r);
	if (!st && c->nout > 1)
		store_out(p, b, 1, g.mean, g.ng);
	if (!st && c->nout > 2)
		store_out(p, b, 2, is_v3(c) ? g.scale : g.var, g.ng);
	return st;
}

static const struct ops_def def_layer_norm = {
	.name = "LayerNorm", .id = OPS_ID_NORM + NORM_ID_LAYER_NORM, .nin = 3, .nout = 1,
	.nout_max = 3, .attr_fmt = OPS_AF_PARAMS, .flags = OPS_DEF_STRIDED | OPS_DEF_MIXED,
	.dtypes = OPS_DT_REAL, .attrs = ln_attrs, .parse = ln_parse, .infer = ln_infer,
	.workspace = ln_ws, .run = ln_run,
};

static const struct ops_def def_layer_norm_v3 = {
	.name = "LayerNormV3", .id = OPS_ID_NORM + NORM_ID_LAYER_NORM_V3, .nin = 3, .nout = 1,
	.nout_max = 3, .attr_fmt = OPS_AF_PARAMS, .flags = OPS_DEF_STRIDED | OPS_DEF_MIXED,
	.dtypes = OPS_DT_REAL, .attrs = ln_attrs, .parse = ln_parse, .infer = ln_infer,
	.workspace = ln_ws, .run = ln_run,
};

/* ---- InstanceNorm ------------------------------------------------------------- */

static const char *const in_attrs[] = { "data_format", "epsilon", NULL };

/* CANN's defaults: NDHWC, epsilon 1e-6. */
static enum vops_err in_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
			      struct vops_error *err)
{
	enum vops_err ret = parse_format(c, attrs, n, "NDHWC", err);

	return ret ? ret : parse_eps(c, attrs, n, "epsilon", 1e-6, err);
}

/* Channel axis of InstanceNorm's x. */
static int in_chan(const struct ops_call *c)
{
	return c->at.pr.i[0] ? c->in[0].ndim - 1 : 1;
}

static enum vops_err in_infer(const struct ops_call *c, struct vops_plan *p, struct vops_error *err)
{
	const struct vops_tensor *x = &c->in[0];
	enum vops_err ret = check_params(c, 1, 1, err);
	int64_t kd[VOPS_MAX_RANK];
	char s[96];
	int d, k, ca;

	if (!ret && c->at.pr.i[0] != 0 && c->at.pr.i[0] != 1)
		ret = ops_fail(err, VOPS_ERR_ATTR, "%s: format parameter %lld (0 or 1)",
			       c->def->name, (long long)c->at.pr.i[0]);
	if (!ret)
		ret = check_eps(c, "epsilon", c->at.pr.f[0], err);
	if (!ret)
		ret = param_type(c, 1, err);
	if (!ret)
		ret = same_types(c, 1, 2, c->in[1].dtype, err);
	if (ret)
		return ret;
	if (x->ndim < 3)
		return ops_fail(err, VOPS_ERR_INPUT,
				"%s: x %s needs at least 3 dimensions (N, C and spatial ones)",
				c->def->name, vops_shape_str(s, sizeof(s), x->ndim, x->dims));
	ca = in_chan(c);
	/* gamma and beta: [C], or x's rank with C at the channel axis and 1 elsewhere */
	for (k = 1; k < 3; k++) {
		const struct vops_tensor *t = &c->in[k];
		bool ok = t->ndim == 1 && t->dims[0] == x->dims[ca];

		if (t->ndim == x->ndim) {
			ok = true;
			for (d = 0; d < x->ndim; d++)
				ok = ok && t->dims[d] == (d == ca ? x->dims[ca] : 1);
		}
		if (!ok)
			return ops_fail(err, VOPS_ERR_INPUT,
					"%s: %s %s must be [%lld] (x's channels)", c->def->name,
					k == 1 ? "gamma" : "beta",
					vops_shape_str(s, sizeof(s), t->ndim, t->dims),
					(long long)x->dims[ca]);
	}
	ret = all_dense_in(c, p, err);
	if (!ret)
		ret = ops_set_out_n(c, p, 0, x->dtype, x->ndim, x->dims, err);
	for (d = 0; d < x->ndim; d++)
		kd[d] = d == 0 || d == ca ? x->dims[d] : 1;
	for (k = 1; k < c->nout && !ret; k++)
		ret = ops_set_out_n(c, p, k, x->dtype, x->ndim, kd, err);
	if (ret)
		return ret;
	p->in_place = 1u;
	return grp_empty(c, p, (uint64_t)x->dims[0] * (uint64_t)x->dims[ca],
			 prod(x->dims, 0, x->ndim) ? prod(x->dims, 0, x->ndim) /
			 ((uint64_t)x->dims[0] * (uint64_t)x->dims[ca]) : 0, err);
}

static enum vops_err in_ws(const struct ops_call *c, struct vops_plan *p, struct vops_error *err)
{
	return grp_ws(c, p, (uint64_t)c->in[0].dims[0] * (uint64_t)c->in[0].dims[in_chan(c)], err);
}

static enum vops_run_status in_run(const struct ops_call *c, const struct vops_plan *p,
				   const struct ops_bufs *b, struct ops_runner *r)
{
	const struct vops_tensor *x = &c->in[0];
	int64_t vd[2][VOPS_MAX_RANK], vs[2][VOPS_MAX_RANK];
	struct vops_tensor gv, bv;
	bool red[VOPS_MAX_RANK];
	enum vops_run_status st;
	int d, ca = in_chan(c);
	struct grp g;
	uint64_t i;

	for (d = 0; d < x->ndim; d++)
		red[d] = d != 0 && d != ca;
	grp_init(&g, c, b, red);
	st = grp_stats(&g, r);
	if (st)
		return st;
	for (i = 0; i < g.ng; i++)
		g.scale[i] = 1.0 / sqrt(g.var[i] + c->at.pr.f[0]);
	if (c->in[1].ndim == 1)
		channel_view(&c->in[1], x->ndim, ca != 1, vd[0], vs[0], &gv);
	else
		gv = c->in[1];
	if (c->in[2].ndim == 1)
		channel_view(&c->in[2], x->ndim, ca != 1, vd[1], vs[1], &bv);
	else
		bv = c->in[2];
	st = grp_apply(c, b, &g, &gv, b->in[1], &bv, b->in[2], r);
	if (!st && c->nout > 1)
		store_out(p, b, 1, g.mean, g.ng);
	if (!st && c->nout > 2)
		store_out(p, b, 2, g.var, g.ng);
	return st;
}

static const struct ops_def def_instance_norm = {
	.name = "InstanceNorm", .id = OPS_ID_NORM + NORM_ID_INSTANCE_NORM, .nin = 3, .nout = 1,
	.nout_max = 3, .attr_fmt = OPS_AF_PARAMS, .flags = OPS_DEF_STRIDED | OPS_DEF_MIXED,
	.dtypes = OPS_DT_REAL, .attrs = in_attrs, .parse = in_parse, .infer = in_infer,
	.workspace = in_ws, .run = in_run,
};

/* ---- LRN ------------------------------------------------------------------------ */

static const char *const lrn_attrs[] = {
	"depth_radius", "bias", "alpha", "beta", "norm_region", NULL,
};

/* TensorFlow's form (CANN's defaults): depth_radius 5, bias 1, alpha 1, beta 0.5. */
static enum vops_err lrn_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
			       struct vops_error *err)
{
	static const char *const names[] = { "bias", "alpha", "beta" };
	static const double dflt[] = { 1.0, 1.0, 0.5 };
	const char *region;
	enum vops_err ret;
	int64_t radius;
	double v;
	int k;

	ret = ops_attr_str(c->def, attrs, n, "norm_region", "ACROSS_CHANNELS", &region, err);
	if (ret)
		return ret;
	if (strcmp(region, "ACROSS_CHANNELS"))
		return ops_fail(err, VOPS_ERR_ATTR, "%s: attribute norm_region \"%s\" is not "
				"supported (vnpu: ACROSS_CHANNELS)", c->def->name, region);
	ret = ops_attr_int(c->def, attrs, n, "depth_radius", 5, &radius, err);
	if (ret)
		return ret;
	ops_param_i(c, radius);
	for (k = 0; k < 3; k++) {
		ret = ops_attr_float(c->def, attrs, n, names[k], dflt[k], &v, err);
		if (ret)
			return ret;
		ops_param_f(c, v);
	}
	return VOPS_OK;
}

static enum vops_err lrn_infer(const struct ops_call *c, struct vops_plan *p,
			       struct vops_error *err)
{
	static const char *const names[] = { "bias", "alpha", "beta" };
	const struct vops_tensor *x = &c->in[0];
	enum vops_err ret = check_params(c, 1, 3, err);
	char s[96];
	int k;

	if (ret)
		return ret;
	if (c->at.pr.i[0] < 0 || c->at.pr.i[0] > INT32_MAX)
		return ops_fail(err, VOPS_ERR_ATTR, "%s: attribute depth_radius %lld must be 0 to "
				"2^31 - 1", c->def->name, (long long)c->at.pr.i[0]);
	for (k = 0; k < 3; k++)
		if (!isfinite(c->at.pr.f[k]))
			return ops_fail(err, VOPS_ERR_ATTR, "%s: attribute %s %g is not finite",
					c->def->name, names[k], c->at.pr.f[k]);
	if (x->ndim < 2)
		return ops_fail(err, VOPS_ERR_INPUT,
				"%s: x %s needs at least 2 dimensions (N, C, ...)", c->def->name,
				vops_shape_str(s, sizeof(s), x->ndim, x->dims));
	ret = ops_set_in_dense(c, p, 0, err);
	if (!ret)
		ret = ops_set_out_n(c, p, 0, x->dtype, x->ndim, x->dims, err);
	p->empty = !p->out[0].bytes;
	return ret;
}

/* y = x / (bias + alpha * sum of x^2 over channels c - r .. c + r)^beta, x dense. */
static enum vops_run_status lrn_run(const struct ops_call *c, const struct vops_plan *p,
				    const struct ops_bufs *b, struct ops_runner *r)
{
	const struct vops_tensor *x = &c->in[0];
	int64_t n = x->dims[0], ch = x->dims[1], rad = c->at.pr.i[0], i, k, q;
	uint64_t inner = prod(x->dims, 2, x->ndim), s, work = 0;
	double bias = c->at.pr.f[0], alpha = c->at.pr.f[1], beta = c->at.pr.f[2];
	double acc[OPS_EW_BLOCK], buf[OPS_EW_BLOCK];
	size_t m, j;

	(void)p;
	for (i = 0; i < n; i++)
		for (s = 0; s < inner; s += m) {
			m = (size_t)ops_min(inner - s, OPS_EW_BLOCK);
			for (k = 0; k < ch; k++) {
				int64_t lo = k > rad ? k - rad : 0;
				int64_t hi = ch - 1 - k > rad ? k + rad : ch - 1;
				int64_t at = (i * ch + k) * (int64_t)inner + (int64_t)s;

				if (tick(r, &work, m * (uint64_t)(hi - lo + 2)))
					return VOPS_RUN_CANCELED;
				memset(acc, 0, m * sizeof(double));
				for (q = lo; q <= hi; q++) {
					int64_t from = (i * ch + q) * (int64_t)inner + (int64_t)s;

					ops_load_f64(buf, b->in[0], x->dtype, from, 1, m);
					for (j = 0; j < m; j++)
						acc[j] += buf[j] * buf[j];
				}
				ops_load_f64(buf, b->in[0], x->dtype, at, 1, m);
				for (j = 0; j < m; j++)
					buf[j] /= pow(bias + alpha * acc[j], beta);
				ops_store_f64(b->out[0], x->dtype, at, 1, buf, m);
			}
		}
	return VOPS_RUN_OK;
}

static const struct ops_def def_lrn = {
	.name = "LRN", .id = OPS_ID_NORM + NORM_ID_LRN, .nin = 1, .nout = 1,
	.attr_fmt = OPS_AF_PARAMS, .dtypes = OPS_DT_REAL, .attrs = lrn_attrs, .parse = lrn_parse,
	.infer = lrn_infer, .workspace = ops_ws_none, .run = lrn_run,
};

/* ---- MVNV2 ---------------------------------------------------------------------- */

static const char *const mvn_attrs[] = { "eps", "axes", NULL };

/* CANN's defaults: eps 1e-9, axes [0, 2, 3]; negative axes count from the end. */
static enum vops_err mvn_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
			       struct vops_error *err)
{
	int64_t axes[VOPS_MAX_RANK] = { 0, 2, 3 };
	bool seen[VOPS_MAX_RANK] = { false };
	int rank = c->in[0].ndim, cnt, k, ax;
	enum vops_err ret;

	ret = ops_attr_ints(c->def, attrs, n, "axes", false, axes, VOPS_MAX_RANK, &cnt, err);
	if (ret)
		return ret;
	if (cnt < 0)
		cnt = 3;
	for (k = 0; k < cnt; k++) {
		if (!ops_axis(axes[k], rank, &ax))
			return ops_fail(err, VOPS_ERR_ATTR,
					"%s: attribute axes: axis %lld is out of range for x of %d "
					"dimensions", c->def->name, (long long)axes[k], rank);
		if (seen[ax])
			return ops_fail(err, VOPS_ERR_ATTR,
					"%s: attribute axes names axis %d twice", c->def->name, ax);
		seen[ax] = true;
	}
	for (k = 0; k < rank; k++)
		if (seen[k])
			ops_param_i(c, k);
	return parse_eps(c, attrs, n, "eps", 1e-9, err);
}

static enum vops_err mvn_infer(const struct ops_call *c, struct vops_plan *p,
			       struct vops_error *err)
{
	const struct vops_tensor *x = &c->in[0];
	enum vops_err ret;
	uint32_t k;

	if (c->at.pr.nf != 1 || c->at.pr.ni > (uint32_t)x->ndim)
		return ops_fail(err, VOPS_ERR_ATTR,
				"%s: %u int and %u float parameters (at most %d and 1)",
				c->def->name, c->at.pr.ni, c->at.pr.nf, x->ndim);
	/* the axes, ascending within x's rank */
	for (k = 0; k < c->at.pr.ni; k++)
		if (c->at.pr.i[k] < (k ? c->at.pr.i[k - 1] + 1 : 0) || c->at.pr.i[k] >= x->ndim)
			return ops_fail(err, VOPS_ERR_ATTR,
					"%s: axes parameter %u (%lld) is not an ascending axis of "
					"x's %d", c->def->name, k, (long long)c->at.pr.i[k],
					x->ndim);
	ret = check_eps(c, "eps", c->at.pr.f[0], err);
	if (!ret)
		ret = ops_set_in_dense(c, p, 0, err);
	if (!ret)
		ret = ops_set_out_n(c, p, 0, x->dtype, x->ndim, x->dims, err);
	if (ret)
		return ret;
	p->in_place = 1u;
	p->empty = !p->out[0].bytes;
	return VOPS_OK;
}

static void mvn_red(const struct ops_call *c, bool *red)
{
	uint32_t k;
	int d;

	for (d = 0; d < c->in[0].ndim; d++)
		red[d] = false;
	for (k = 0; k < c->at.pr.ni; k++)
		red[c->at.pr.i[k]] = true;
}

static enum vops_err mvn_ws(const struct ops_call *c, struct vops_plan *p, struct vops_error *err)
{
	bool red[VOPS_MAX_RANK];
	uint64_t ng = 1;
	int d;

	mvn_red(c, red);
	for (d = 0; d < c->in[0].ndim; d++)
		if (!red[d])
			ng *= (uint64_t)c->in[0].dims[d];
	return grp_ws(c, p, ng, err);
}

/* y = (x - mean) / (sqrt(variance) + eps): Caffe's MVN, which CANN's MVNV2 follows. */
static enum vops_run_status mvn_run(const struct ops_call *c, const struct vops_plan *p,
				    const struct ops_bufs *b, struct ops_runner *r)
{
	bool red[VOPS_MAX_RANK];
	enum vops_run_status st;
	struct grp g;
	uint64_t i;

	(void)p;
	mvn_red(c, red);
	grp_init(&g, c, b, red);
	st = grp_stats(&g, r);
	if (st)
		return st;
	for (i = 0; i < g.ng; i++)
		g.scale[i] = 1.0 / (sqrt(g.var[i]) + c->at.pr.f[0]);
	return grp_apply(c, b, &g, NULL, NULL, NULL, NULL, r);
}

static const struct ops_def def_mvnv2 = {
	.name = "MVNV2", .id = OPS_ID_NORM + NORM_ID_MVNV2, .nin = 1, .nout = 1,
	.attr_fmt = OPS_AF_PARAMS, .flags = OPS_DEF_STRIDED, .dtypes = OPS_DT_REAL,
	.attrs = mvn_attrs, .parse = mvn_parse, .infer = mvn_infer, .workspace = mvn_ws,
	.run = mvn_run,
};

/* ---- RmsNorm ---------------------------------------------------------------------- */

static const char *const rms_attrs[] = { "epsilon", NULL };

/* CANN's default: epsilon 1e-6. */
static enum vops_err rms_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
			       struct vops_error *err)
{
	return parse_eps(c, attrs, n, "epsilon", 1e-6, err);
}

/* The axes gamma covers: x's last gamma-rank ones. */
static int rms_first(const struct ops_call *c)
{
	return c->in[0].ndim - c->in[1].ndim;
}

/*
 * x and gamma (x's trailing dimensions, x's type or ACL_FLOAT); y x's
 * shape and type; rstd x's shape with the normalised axes 1, ACL_FLOAT as
 * CANN's (ACL_DOUBLE for an ACL_DOUBLE x: vnpu).
 */
static enum vops_err rms_infer(const struct ops_call *c, struct vops_plan *p,
			       struct vops_error *err)
{
	const struct vops_tensor *x = &c->in[0], *g = &c->in[1];
	enum vops_err ret = check_params(c, 0, 1, err);
	int64_t kd[VOPS_MAX_RANK];
	char s1[96], s2[96];
	bool ok;
	int d, first;

	if (!ret)
		ret = check_eps(c, "epsilon", c->at.pr.f[0], err);
	if (!ret)
		ret = param_type(c, 1, err);
	if (ret)
		return ret;
	ok = g->ndim >= 1 && g->ndim <= x->ndim;
	first = x->ndim - g->ndim;
	for (d = 0; ok && d < g->ndim; d++)
		ok = g->dims[d] == x->dims[first + d];
	if (!ok)
		return ops_fail(err, VOPS_ERR_INPUT,
				"%s: gamma %s must be x's last dimensions (x %s)", c->def->name,
				vops_shape_str(s1, sizeof(s1), g->ndim, g->dims),
				vops_shape_str(s2, sizeof(s2), x->ndim, x->dims));
	ret = all_dense_in(c, p, err);
	if (!ret)
		ret = ops_set_out_n(c, p, 0, x->dtype, x->ndim, x->dims, err);
	for (d = 0; d < x->ndim; d++)
		kd[d] = d >= first ? 1 : x->dims[d];
	if (!ret && c->nout > 1)
		ret = ops_set_out_n(c, p, 1, x->dtype == ACL_DOUBLE ? ACL_DOUBLE : ACL_FLOAT,
				    x->ndim, kd, err);
	if (ret)
		return ret;
	p->in_place = 1u;
	return grp_empty(c, p, prod(x->dims, 0, first), prod(x->dims, first, x->ndim), err);
}

static enum vops_err rms_ws(const struct ops_call *c, struct vops_plan *p, struct vops_error *err)
{
	return grp_ws(c, p, prod(c->in[0].dims, 0, rms_first(c)), err);
}

/* o = x * rstd * gamma */
static void rms_f(const struct ops_call *c, double *restrict o, const double *const *restrict x,
		  size_t n)
{
	size_t j;

	(void)c;
	for (j = 0; j < n; j++)
		o[j] = x[0][j] * x[1][j] * x[2][j];
}

/*
 * Each group's sum of squares (the variance pass about a mean of 0), rstd
 * = 1 / sqrt(sum / n + epsilon), then y element-wise with rstd and gamma
 * broadcast to x (gamma is x's trailing shape), rounding once.
 */
static enum vops_run_status rms_run(const struct ops_call *c, const struct vops_plan *p,
				    const struct ops_bufs *b, struct ops_runner *r)
{
	const struct vops_tensor *x = &c->in[0];
	int first = rms_first(c), d;
	bool red[VOPS_MAX_RANK];
	enum vops_run_status st;
	struct grp g;
	uint64_t i;

	for (d = 0; d < x->ndim; d++)
		red[d] = d >= first;
	grp_init(&g, c, b, red);
	memset(g.mean, 0, g.ng * sizeof(double));
	memset(g.var, 0, g.ng * sizeof(double));
	st = grp_pass(&g, 1, r);
	if (st)
		return st;
	for (i = 0; i < g.ng; i++)
		g.scale[i] = 1.0 / sqrt(g.var[i] / (double)g.rc + c->at.pr.f[0]);
	if (p->out[0].bytes) {
		struct vops_tensor in[3] = {
			*x, { .dtype = ACL_DOUBLE, .ndim = x->ndim, .dims = g.kdims }, c->in[1],
		};
		const void *mem[3] = { b->in[0], g.scale, b->in[1] };
		struct ops_ew e = {
			.c = c, .ndim = x->ndim, .dims = x->dims, .nin = 3, .in = in, .x = mem,
			.odt = x->dtype, .out = b->out[0], .dom = OPS_DOM_F64, .f64 = rms_f,
		};

		st = ops_ew_run(&e, r);
	}
	if (!st && c->nout > 1)
		store_out(p, b, 1, g.scale, g.ng);
	return st;
}

static const struct ops_def def_rms_norm = {
	.name = "RmsNorm", .id = OPS_ID_NORM + NORM_ID_RMS_NORM, .nin = 2, .nout = 1,
	.nout_max = 2, .attr_fmt = OPS_AF_PARAMS, .flags = OPS_DEF_STRIDED | OPS_DEF_MIXED,
	.dtypes = OPS_DT_REAL, .attrs = rms_attrs, .parse = rms_parse, .infer = rms_infer,
	.workspace = rms_ws, .run = rms_run,
};

/* Index i holds id OPS_ID_NORM + i; append only. */
const struct ops_def *const ops_norm_defs[] = {
	&def_batch_norm,
	&def_layer_norm,
	&def_layer_norm_v3,
	&def_instance_norm,
	&def_lrn,
	&def_mvnv2,
	&def_rms_norm,
	NULL,
};
