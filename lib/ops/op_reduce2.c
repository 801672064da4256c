// SPDX-License-Identifier: MIT
/*
 * op_reduce2.c - the reduce family: reductions over a set of axes, arg
 * max/min, top-k, the cumulative sum and product and the softmax family.
 *
 *   ReduceMeanD ReduceMinD ReduceProdD   axes (required; [] reduces nothing),
 *   ReduceLogSumD* ReduceLogSumExp*      keep_dims = false
 *   SquareSumV1                          axis (required), keep_dims = false
 *   LpNormV2                             p = 2, axes = [] (all), keepdim =
 *                                        false, epsilon = 1e-12 (a floor)
 *   ArgMaxD ArgMinD                      dimension (required), dtype = int64,
 *                                        keep_dims* = false,
 *                                        select_last_index* = false
 *   CumsumD                              axis = 0, exclusive, reverse
 *   CumprodD                             axis (required), exclusive, reverse
 *   TopKD                                k (required), dim = -1, largest =
 *                                        true, sorted = true, indices_dtype* =
 *                                        int32; outputs values, indices
 *   HardMax                              axis = -1
 *   LogSoftmaxV2                         axes = [-1]
 *
 * (* vnpu's extensions, docs/ops/reduce.md.) Version 1's ReduceSumD,
 * ReduceMaxD and SoftmaxV2 are op_reduce.c's; the types their kernels do
 * not take run on this engine (ops_red_run_axes(), ops_reduce.h).
 *
 * Every operator reads its input through its strides (views need no
 * copy) and needs no workspace but TopKD's. The canonical attributes are
 * OPS_AF_PARAMS: i[0] flags (RF_*), i[1 ..] the axes (normalised, strictly
 * increasing), then the operator's extras (ArgMaxD: the output type;
 * TopKD: k and the indices' type); LpNormV2 has f = {p, epsilon}.
 *
 * The engine: the input's dimensions split into kept and reduced ones; an
 * odometer over the kept dimensions visits each output element (or each
 * line of a same-shaped output), and a pass over its reduced elements
 * loads them in blocks of OPS_EW_BLOCK into doubles (float types) or
 * int64s (integers, bool; wrapping arithmetic, uint64 compared unsigned).
 * Sums are compensated (Neumaier) in double; half types round once.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "ops_int.h"
#include "ops_reduce.h"

/* ---- operators and their parameters ------------------------------------------------ */

enum red_op {
	R_SUM = 1, R_MEAN, R_PROD, R_MAX, R_MIN, R_LP, R_LOGSUM, R_LSE, R_SUMSQ,
	R_ARGMAX, R_ARGMIN, R_CUMSUM, R_TOPK, R_HARDMAX, R_SOFTMAX, R_LOGSOFTMAX, R_CUMPROD,
};

/* i[0] flags */
#define RF_KEEP (1 << 0)	/* keep the reduced axes as 1 */
#define RF_LAST (1 << 1)	/* ArgMaxD/ArgMinD: the last of equal extremes */
#define RF_EXCL (1 << 2)	/* CumsumD, CumprodD: exclusive */
#define RF_REV (1 << 3)		/* CumsumD, CumprodD: reverse */
#define RF_LARGEST (1 << 4)	/* TopKD: largest */
#define RF_SORTED (1 << 5)	/* TopKD: sorted (the output always is) */

/* What the rules of each operator expect of its parameters. */
struct red_info {
	uint8_t single;		/* exactly one axis */
	uint8_t extras;		/* ints after the axes */
	uint8_t nf;		/* floats */
	uint8_t same;		/* the output has the input's shape */
	uint32_t flags;		/* the flags it may have */
};

static const struct red_info red_infos[] = {
	[R_SUM] = { 0, 0, 0, 0, RF_KEEP },
	[R_MEAN] = { 0, 0, 0, 0, RF_KEEP },
	[R_PROD] = { 0, 0, 0, 0, RF_KEEP },
	[R_MAX] = { 0, 0, 0, 0, RF_KEEP },
	[R_MIN] = { 0, 0, 0, 0, RF_KEEP },
	[R_LP] = { 0, 0, 2, 0, RF_KEEP },
	[R_LOGSUM] = { 0, 0, 0, 0, RF_KEEP },
	[R_LSE] = { 0, 0, 0, 0, RF_KEEP },
	[R_SUMSQ] = { 0, 0, 0, 0, RF_KEEP },
	[R_ARGMAX] = { 1, 1, 0, 0, RF_KEEP | RF_LAST },
	[R_ARGMIN] = { 1, 1, 0, 0, RF_KEEP | RF_LAST },
	[R_CUMSUM] = { 1, 0, 0, 1, RF_EXCL | RF_REV },
	[R_CUMPROD] = { 1, 0, 0, 1, RF_EXCL | RF_REV },
	[R_TOPK] = { 1, 2, 0, 0, RF_LARGEST | RF_SORTED },
	[R_HARDMAX] = { 1, 0, 0, 1, 0 },
	[R_SOFTMAX] = { 0, 0, 0, 1, 0 },
	[R_LOGSOFTMAX] = { 0, 0, 0, 1, 0 },
};

/* The operators of this file, in id order (index i: OPS_ID_REDUCE + i). */
static const uint8_t red_ops_by_index[] = {
	R_MEAN, R_MIN, R_PROD, R_LP, R_LOGSUM, R_LSE, R_SUMSQ, R_ARGMAX, R_ARGMIN, R_CUMSUM,
	R_TOPK, R_HARDMAX, R_LOGSOFTMAX, R_CUMPROD,
};

static enum red_op red_op_of(const struct ops_def *def)
{
	unsigned int i = (unsigned int)def->id - OPS_ID_REDUCE;

	return i < sizeof(red_ops_by_index) ? (enum red_op)red_ops_by_index[i] : R_MEAN;
}

/* The input split into kept and reduced dimensions. */
struct red_geom {
	int rank, nk, nr;
	int64_t kd[VOPS_MAX_RANK], ks[VOPS_MAX_RANK], kos[VOPS_MAX_RANK];	/* kept */
	int64_t rd[VOPS_MAX_RANK], rs[VOPS_MAX_RANK], ros[VOPS_MAX_RANK];	/* reduced */
	uint64_t nout, nred;
};

/* The canonical form of a call: its operator, reduced axes and flags. */
struct red_call {
	enum red_op op;
	uint32_t flags;
	bool red[VOPS_MAX_RANK];
	int naxes, axis;	/* axis: the first (single-axis operators) */
	int64_t extra[2];
	double p, eps;
};

/* ---- parsing CANN attributes ----------------------------------------------------------- */

/* Axes @v (@n) over rank @rank into @c's parameters, sorted; repeats are errors. */
static enum vops_err put_axes(struct ops_call *c, const int64_t *v, int n, struct vops_error *err)
{
	const char *name = c->def->name;
	int rank = c->in[0].ndim, i, a;
	bool seen[VOPS_MAX_RANK] = { false };

	for (i = 0; i < n; i++) {
		if (!ops_axis(v[i], rank, &a))
			return ops_fail(err, VOPS_ERR_ATTR, "%s: axis %" PRId64 " is out of range for rank %d",
					name, v[i], rank);
		if (seen[a])
			return ops_fail(err, VOPS_ERR_ATTR, "%s: axis %" PRId64 " is named twice", name, v[i]);
		seen[a] = true;
	}
	for (a = 0; a < rank; a++)
		if (seen[a])
			ops_param_i(c, a);
	return VOPS_OK;
}

/* A list-of-ints attribute @attr as axes; absent: @dflt (@ndflt, -1: required). */
static enum vops_err parse_axes_attr(struct ops_call *c, const struct vops_attr *attrs,
				     unsigned int n, const char *attr, const int64_t *dflt, int ndflt,
				     struct vops_error *err)
{
	int64_t v[VOPS_MAX_RANK];
	int cnt;
	enum vops_err ret = ops_attr_ints(c->def, attrs, n, attr, ndflt < 0, v, VOPS_MAX_RANK, &cnt, err);

	if (ret)
		return ret;
	if (cnt < 0) {
		cnt = ndflt;
		memcpy(v, dflt, (size_t)cnt * sizeof(*v));
	}
	return put_axes(c, v, cnt, err);
}

static enum vops_err set_flag(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
			      const char *attr, bool dflt, uint32_t flag, struct vops_error *err)
{
	bool b;
	enum vops_err ret = ops_attr_bool(c->def, attrs, n, attr, dflt, &b, err);

	if (!ret && b)
		c->at.pr.i[0] |= flag;
	return ret;
}

/* ReduceMeanD and the like: axes, keep_dims. */
static enum vops_err axes_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
				struct vops_error *err)
{
	const char *attr = red_op_of(c->def) == R_SUMSQ ? "axis" : "axes";
	enum vops_err ret;

	ops_param_i(c, 0);
	ret = set_flag(c, attrs, n, "keep_dims", false, RF_KEEP, err);
	return ret ? ret : parse_axes_attr(c, attrs, n, attr, NULL, -1, err);
}

/* LpNormV2: p, axes ([]: every axis), keepdim, epsilon. */
static enum vops_err lp_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
			      struct vops_error *err)
{
	int64_t all[VOPS_MAX_RANK];
	double p, eps;
	int i, cnt;
	enum vops_err ret;

	ops_param_i(c, 0);
	ret = set_flag(c, attrs, n, "keepdim", false, RF_KEEP, err);
	if (!ret)
		ret = ops_attr_float(c->def, attrs, n, "p", 2.0, &p, err);
	if (!ret)
		ret = ops_attr_float(c->def, attrs, n, "epsilon", 1e-12, &eps, err);
	if (!ret)
		ret = ops_attr_ints(c->def, attrs, n, "axes", false, all, VOPS_MAX_RANK, &cnt, err);
	if (ret)
		return ret;
	if (cnt <= 0) {
		for (i = 0; i < c->in[0].ndim; i++)
			all[i] = i;
		cnt = c->in[0].ndim;
	}
	ret = put_axes(c, all, cnt, err);
	ops_param_f(c, p);
	ops_param_f(c, eps);
	return ret;
}

/* One axis attribute @attr (default @dflt; @required) into the parameters. */
static enum vops_err one_axis(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
			      const char *attr, bool required, int64_t dflt, struct vops_error *err)
{
	int64_t a;
	enum vops_err ret;

	if (required && !vops_attr_find(attrs, n, attr))
		return ops_fail(err, VOPS_ERR_ATTR, "%s needs the attribute %s", c->def->name, attr);
	ret = ops_attr_int(c->def, attrs, n, attr, dflt, &a, err);
	if (ret)
		return ret;
	if (c->in[0].ndim < 1)
		return ops_fail(err, VOPS_ERR_INPUT, "%s: a scalar input has no axis %" PRId64,
				c->def->name, a);
	return put_axes(c, &a, 1, err);
}

static enum vops_err int_dtype(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
			       const char *attr, int32_t dflt, struct vops_error *err)
{
	int32_t dt;
	enum vops_err ret = ops_attr_dtype(c->def, attrs, n, attr, dflt, &dt, err);

	if (!ret)
		ops_param_i(c, dt);
	return ret;
}

static enum vops_err arg_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
			       struct vops_error *err)
{
	enum vops_err ret;

	ops_param_i(c, 0);
	ret = set_flag(c, attrs, n, "keep_dims", false, RF_KEEP, err);
	if (!ret)
		ret = set_flag(c, attrs, n, "select_last_index", false, RF_LAST, err);
	if (!ret)
		ret = one_axis(c, attrs, n, "dimension", true, 0, err);
	return ret ? ret : int_dtype(c, attrs, n, "dtype", ACL_INT64, err);
}

/* CumsumD's axis defaults to 0; CumprodD's is required (CANN's). */
static enum vops_err cum_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
			       bool axis_required, struct vops_error *err)
{
	enum vops_err ret;

	ops_param_i(c, 0);
	ret = set_flag(c, attrs, n, "exclusive", false, RF_EXCL, err);
	if (!ret)
		ret = set_flag(c, attrs, n, "reverse", false, RF_REV, err);
	return ret ? ret : one_axis(c, attrs, n, "axis", axis_required, 0, err);
}

static enum vops_err cumsum_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
				  struct vops_error *err)
{
	return cum_parse(c, attrs, n, false, err);
}

static enum vops_err cumprod_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
				   struct vops_error *err)
{
	return cum_parse(c, attrs, n, true, err);
}

static enum vops_err topk_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
				struct vops_error *err)
{
	int64_t k;
	enum vops_err ret;

	ops_param_i(c, 0);
	ret = set_flag(c, attrs, n, "largest", true, RF_LARGEST, err);
	if (!ret)
		ret = set_flag(c, attrs, n, "sorted", true, RF_SORTED, err);
	if (!ret)
		ret = one_axis(c, attrs, n, "dim", false, -1, err);
	if (!ret && !vops_attr_find(attrs, n, "k"))
		ret = ops_fail(err, VOPS_ERR_ATTR, "TopKD needs the attribute k");
	if (!ret)
		ret = ops_attr_int(c->def, attrs, n, "k", 0, &k, err);
	if (ret)
		return ret;
	ops_param_i(c, k);
	return int_dtype(c, attrs, n, "indices_dtype", ACL_INT32, err);
}

static enum vops_err hardmax_parse(struct ops_call *c, const struct vops_attr *attrs,
				   unsigned int n, struct vops_error *err)
{
	ops_param_i(c, 0);
	return one_axis(c, attrs, n, "axis", false, -1, err);
}

static enum vops_err logsoftmax_parse(struct ops_call *c, const struct vops_attr *attrs,
				      unsigned int n, struct vops_error *err)
{
	static const int64_t last = -1;

	ops_param_i(c, 0);
	if (c->in[0].ndim < 1)
		return ops_fail(err, VOPS_ERR_INPUT, "LogSoftmaxV2: a scalar input has no axis");
	return parse_axes_attr(c, attrs, n, "axes", &last, 1, err);
}

/* ---- the rules --------------------------------------------------------------------------- */

/* @c's parameters, checked (they may come from a descriptor), into @rc. */
static enum vops_err red_check_params(const struct ops_call *c, struct red_call *rc,
				      struct vops_error *err)
{
	const struct red_info *ri = &red_infos[rc->op];
	const struct ops_params *pr = &c->at.pr;
	const char *name = c->def->name;
	int rank = c->in[0].ndim, na, i;
	int64_t prev = -1;

	if (pr->ni < 1u + ri->extras || pr->nf != ri->nf)
		return ops_fail(err, VOPS_ERR_ATTR, "%s: %u int and %u float parameters", name, pr->ni,
				pr->nf);
	na = (int)pr->ni - 1 - ri->extras;
	if (na > rank || (ri->single && na != 1))
		return ops_fail(err, VOPS_ERR_ATTR, "%s: %d axes for rank %d", name, na, rank);
	if (pr->i[0] < 0 || ((uint64_t)pr->i[0] & ~(uint64_t)ri->flags))
		return ops_fail(err, VOPS_ERR_ATTR, "%s: flags 0x%" PRIx64 " unknown", name, pr->i[0]);
	rc->flags = (uint32_t)pr->i[0];
	memset(rc->red, 0, sizeof(rc->red));
	for (i = 0; i < na; i++) {
		int64_t a = pr->i[1 + i];

		if (a <= prev || a >= rank)
			return ops_fail(err, VOPS_ERR_ATTR, "%s: axis %" PRId64 " out of order or range "
					"(rank %d)", name, a, rank);
		rc->red[a] = true;
		prev = a;
	}
	rc->naxes = na;
	rc->axis = na ? (int)pr->i[1] : 0;
	for (i = 0; i < ri->extras; i++)
		rc->extra[i] = pr->i[1 + na + i];
	rc->p = ri->nf ? pr->f[0] : 0;
	rc->eps = ri->nf ? pr->f[1] : 0;
	return VOPS_OK;
}

static void red_geom_init(struct red_geom *g, const struct vops_tensor *t, const bool *red)
{
	int64_t st[VOPS_MAX_RANK], ds = 1;
	int d;

	ops_strides(t, st);
	g->rank = t->ndim;
	g->nk = g->nr = 0;
	g->nout = g->nred = 1;
	for (d = t->ndim - 1; d >= 0; d--) {
		g->kos[d] = ds;		/* dense strides, moved into place below */
		ds *= t->dims[d];
	}
	for (d = 0; d < t->ndim; d++) {
		if (red[d]) {
			g->rd[g->nr] = t->dims[d];
			g->rs[g->nr] = st[d];
			g->ros[g->nr++] = g->kos[d];
			g->nred *= (uint64_t)t->dims[d];
		} else {
			g->kd[g->nk] = t->dims[d];
			g->ks[g->nk] = st[d];
			g->kos[g->nk++] = g->kos[d];
			g->nout *= (uint64_t)t->dims[d];
		}
	}
}

static bool is_int_out(int32_t dt)
{
	return dt == ACL_INT32 || dt == ACL_INT64;
}

/* The rules of every operator here, on a checked red_call. */
static enum vops_err red_rules(const struct ops_call *c, const struct red_call *rc,
			       struct vops_plan *p, struct vops_error *err)
{
	const struct vops_tensor *x = &c->in[0];
	const struct red_info *ri = &red_infos[rc->op];
	const char *name = c->def->name;
	int64_t dims[VOPS_MAX_RANK];
	uint64_t n, nred = 1;
	int i, nd = 0;
	enum vops_err ret;

	if (!ops_count(x, &n))
		return ops_too_large(c->def, err);
	for (i = 0; i < x->ndim; i++)
		if (rc->red[i])
			nred *= (uint64_t)x->dims[i];
	ret = ops_set_in_dense(c, p, 0, err);
	if (ret)
		return ret;
	if (ri->same) {
		ret = ops_set_out_n(c, p, 0, x->dtype, x->ndim, x->dims, err);
		p->in_place = 1;
		p->empty = n == 0;
		return ret;
	}
	if (rc->op == R_TOPK) {
		int64_t k = rc->extra[0];

		if (k < 0 || k > x->dims[rc->axis])
			return ops_fail(err, VOPS_ERR_ATTR, "%s: k %" PRId64 " is not within [0, %" PRId64
					"] (the size of dim %d)", name, k, x->dims[rc->axis], rc->axis);
		if (!is_int_out((int32_t)rc->extra[1]))
			return ops_fail(err, VOPS_ERR_ATTR, "%s: indices_dtype %s is not ACL_INT32 or "
					"ACL_INT64", name, vops_dtype_name((int32_t)rc->extra[1]));
		memcpy(dims, x->dims, (size_t)x->ndim * sizeof(*dims));
		dims[rc->axis] = k;
		ret = ops_set_out_n(c, p, 0, x->dtype, x->ndim, dims, err);
		if (!ret)
			ret = ops_set_out_n(c, p, 1, (int32_t)rc->extra[1], x->ndim, dims, err);
		p->empty = n == 0 || k == 0;
		return ret;
	}
	for (i = 0; i < x->ndim; i++)
		if (!rc->red[i] || (rc->flags & RF_KEEP))
			dims[nd++] = rc->red[i] ? 1 : x->dims[i];
	if (rc->op == R_ARGMAX || rc->op == R_ARGMIN) {
		if (!is_int_out((int32_t)rc->extra[0]))
			return ops_fail(err, VOPS_ERR_ATTR, "%s: dtype %s is not ACL_INT32 or ACL_INT64",
					name, vops_dtype_name((int32_t)rc->extra[0]));
		ret = ops_set_out_n(c, p, 0, (int32_t)rc->extra[0], nd, dims, err);
	} else {
		ret = ops_set_out_n(c, p, 0, x->dtype, nd, dims, err);
		if (ops_esize(x->dtype) == p->out[0].align)
			p->in_place = 1;
	}
	if (ret)
		return ret;
	if (!nred && rc->op != R_SUM && rc->op != R_MEAN && rc->op != R_PROD && rc->op != R_LP &&
	    rc->op != R_LOGSUM && rc->op != R_LSE && rc->op != R_SUMSQ && p->out[0].bytes)
		return ops_fail(err, VOPS_ERR_INPUT, "%s: reducing an empty axis has no value", name);
	p->empty = p->out[0].bytes == 0;
	return VOPS_OK;
}

static enum vops_err red_infer(const struct ops_call *c, struct vops_plan *p,
			       struct vops_error *err)
{
	struct red_call rc = { .op = red_op_of(c->def) };
	enum vops_err ret = red_check_params(c, &rc, err);

	return ret ? ret : red_rules(c, &rc, p, err);
}

/* TopKD: one line as values, order and merge buffer (8 bytes each). */
static enum vops_err topk_workspace(const struct ops_call *c, struct vops_plan *p,
				    struct vops_error *err)
{
	uint64_t line = (uint64_t)c->in[0].dims[c->at.pr.i[1]];

	p->ws_bytes = 0;
	if (p->empty)
		return VOPS_OK;
	if (line > VOPS_MAX_DIM || !ops_bytes(line, 24, &p->ws_bytes))
		return ops_too_large(c->def, err);
	p->ws_align = 8;
	return VOPS_OK;
}

/* ---- the engine ---------------------------------------------------------------------------- */

union red_blk {
	double f[OPS_EW_BLOCK];
	int64_t i[OPS_EW_BLOCK];
};

struct red_run {
	const struct red_call *rc;
	const struct red_geom *g;
	const void *x;
	int32_t dt;
	void *y;		/* a same-shaped output, or NULL */
	int32_t ydt;
	bool isf, u;		/* the domain is F64; unsigned integers */
	struct ops_runner *r;
	uint64_t work;
};

/* Count @n elements of work; false when the run must stop. */
static bool tick(struct red_run *rr, uint64_t n)
{
	rr->work += n;
	if (rr->work < OPS_EW_CHUNK)
		return true;
	rr->work = 0;
	return !ops_should_stop(rr->r);
}

/* One output element's accumulator. */
struct red_acc {
	int phase;
	double s, comp, m;
	int64_t i;
	uint64_t pos, best;
	bool have;
};

static void acc_add(struct red_acc *a, double v)
{
	double t = a->s + v;

	/* Neumaier: the low part lost by the larger addend */
	if (fabs(a->s) >= fabs(v))
		a->comp += (a->s - t) + v;
	else
		a->comp += (v - t) + a->s;
	a->s = t;
}

static bool gt_u(int64_t a, int64_t b, bool u)
{
	return u ? (uint64_t)a > (uint64_t)b : a > b;
}

/* Is @v (at a later position) a better arg extreme than @b? NaN wins. */
static bool better_f(double v, double b, bool max, bool last)
{
	if (isnan(b))
		return last && isnan(v);
	if (isnan(v))
		return true;
	return max ? (last ? v >= b : v > b) : (last ? v <= b : v < b);
}

static bool better_i(int64_t v, int64_t b, bool max, bool last, bool u)
{
	if (v == b)
		return last;
	return max ? gt_u(v, b, u) : gt_u(b, v, u);
}

static void fold_f(const struct red_run *rr, struct red_acc *a, const double *x, double *o,
		   size_t n)
{
	const struct red_call *rc = rr->rc;
	size_t j;

	for (j = 0; j < n; j++, a->pos++) {
		double v = x[j];

		switch (rc->op) {
		case R_SUM: case R_MEAN: case R_LOGSUM:
			acc_add(a, v);
			break;
		case R_SUMSQ:
			acc_add(a, v * v);
			break;
		case R_PROD:
			a->s *= v;
			break;
		case R_LP:
			if (isinf(rc->p)) {
				v = fabs(v);
				if (!a->have || isnan(v) || (rc->p > 0 ? v > a->s : v < a->s))
					a->s = isnan(a->s) ? a->s : v;
				a->have = true;
			} else if (rc->p == 0) {
				a->s += v != 0;
			} else {
				acc_add(a, rc->p == 1 ? fabs(v) : rc->p == 2 ? v * v : pow(fabs(v), rc->p));
			}
			break;
		case R_MAX: case R_MIN:
			if (!a->have || isnan(v) || (rc->op == R_MAX ? v > a->s : v < a->s))
				a->s = isnan(a->s) ? a->s : v;
			a->have = true;
			break;
		case R_ARGMAX: case R_ARGMIN: case R_HARDMAX:
			if (rc->op == R_HARDMAX && a->phase) {
				o[j] = a->pos == a->best;
				break;
			}
			if (!a->have || better_f(v, a->m, rc->op != R_ARGMIN, rc->flags & RF_LAST)) {
				a->m = v;
				a->best = a->pos;
			}
			a->have = true;
			break;
		case R_LSE: case R_SOFTMAX: case R_LOGSOFTMAX:
			if (a->phase == 0) {
				if (!a->have || isnan(v) || v > a->m)
					a->m = isnan(a->m) ? a->m : v;
				a->have = true;
			} else if (a->phase == 1) {
				acc_add(a, exp(v - a->m));
			} else if (rc->op == R_SOFTMAX) {
				o[j] = exp(v - a->m) / a->s;
			} else {
				o[j] = v - a->m - log(a->s);
			}
			break;
		default:
			break;
		}
	}
}

static void fold_i(const struct red_run *rr, struct red_acc *a, const int64_t *x, int64_t *o,
		   size_t n)
{
	const struct red_call *rc = rr->rc;
	size_t j;

	for (j = 0; j < n; j++, a->pos++) {
		int64_t v = x[j];

		switch (rc->op) {
		case R_SUM: case R_MEAN:
			a->i = (int64_t)((uint64_t)a->i + (uint64_t)v);
			break;
		case R_SUMSQ:
			a->i = (int64_t)((uint64_t)a->i + (uint64_t)v * (uint64_t)v);
			break;
		case R_PROD:
			a->i = (int64_t)((uint64_t)a->i * (uint64_t)v);
			break;
		case R_MAX: case R_MIN:
			if (!a->have || (rc->op == R_MAX ? gt_u(v, a->i, rr->u) : gt_u(a->i, v, rr->u)))
				a->i = v;
			a->have = true;
			break;
		case R_ARGMAX: case R_ARGMIN:
			if (!a->have || better_i(v, a->i, rc->op == R_ARGMAX, rc->flags & RF_LAST, rr->u)) {
				a->i = v;
				a->best = a->pos;
			}
			a->have = true;
			break;
		default:
			break;
		}
	}
	(void)o;
}

/*
 * One pass over the reduced elements of the output element whose first
 * input element is at @ioff (and, for same-shaped outputs, whose first
 * output element is at @ooff); @write stores what the pass computes.
 */
static bool red_pass(struct red_run *rr, struct red_acc *a, int64_t ioff, int64_t ooff, bool write)
{
	const struct red_geom *g = rr->g;
	const int64_t *st[2] = { g->rs, g->ros };
	int64_t off0[2] = { ioff, ooff };
	union red_blk xb, ob;
	struct ops_iter it;

	a->pos = 0;
	ops_iter_init(&it, g->nr, g->rd, 2, st, off0);
	if (!it.rows)
		return true;
	do {
		int64_t len = it.dims[it.ndim - 1], sx = it.st[0][it.ndim - 1], so = it.st[1][it.ndim - 1];
		int64_t j0;

		for (j0 = 0; j0 < len; j0 += OPS_EW_BLOCK) {
			size_t n = (size_t)ops_min((uint64_t)(len - j0), OPS_EW_BLOCK);

			if (!tick(rr, n))
				return false;
			if (rr->isf) {
				ops_load_f64(xb.f, rr->x, rr->dt, it.off[0] + j0 * sx, sx, n);
				fold_f(rr, a, xb.f, ob.f, n);
				if (write)
					ops_store_f64(rr->y, rr->ydt, it.off[1] + j0 * so, so, ob.f, n);
			} else {
				ops_load_i64(xb.i, rr->x, rr->dt, it.off[0] + j0 * sx, sx, n);
				fold_i(rr, a, xb.i, ob.i, n);
			}
		}
	} while (ops_iter_next(&it));
	return true;
}

/* The value of a finished reduction (floats). */
static double red_final_f(const struct red_run *rr, const struct red_acc *a)
{
	const struct red_call *rc = rr->rc;
	double s = a->s + a->comp, v;

	switch (rc->op) {
	case R_MEAN:
		return s / (double)rr->g->nred;
	case R_PROD: case R_MAX: case R_MIN:
		return a->s;
	case R_LOGSUM:
		return log(s);
	case R_LSE:
		if (!a->have)
			return -INFINITY;
		return isinf(a->m) ? a->m : a->m + log(s);
	case R_LP:
		if (isinf(rc->p) || rc->p == 0 || rc->p == 1)
			v = isinf(rc->p) ? a->s : s;
		else
			v = rc->p == 2 ? sqrt(s) : pow(s, 1.0 / rc->p);
		return v < rc->eps ? rc->eps : v;
	default:
		return s;
	}
}

static int64_t red_final_i(const struct red_run *rr, const struct red_acc *a)
{
	uint64_t n = rr->g->nred;

	if (rr->rc->op == R_ARGMAX || rr->rc->op == R_ARGMIN)
		return (int64_t)a->best;
	if (rr->rc->op != R_MEAN)
		return a->i;
	if (!n)
		return 0;
	/* truncating, as a float mean cast back would */
	if (rr->u)
		return (int64_t)((uint64_t)a->i / n);
	return a->i / (int64_t)n;
}

static void acc_start(const struct red_run *rr, struct red_acc *a)
{
	memset(a, 0, sizeof(*a));
	if (rr->rc->op == R_PROD) {
		a->s = 1;
		a->i = 1;
	}
}

/* One step of a cumulative product at element @j of the block: the
 * running product before it into @ob (exclusive) or after (inclusive).
 * Floats multiply in double, integers wrap as uint64. */
static inline void prod_step(bool isf, bool excl, double *pf, uint64_t *pi, const union red_blk *xb,
			     union red_blk *ob, size_t j)
{
	if (isf) {
		if (excl)
			ob->f[j] = *pf;
		*pf *= xb->f[j];
		if (!excl)
			ob->f[j] = *pf;
	} else {
		if (excl)
			ob->i[j] = (int64_t)*pi;
		*pi *= (uint64_t)xb->i[j];
		if (!excl)
			ob->i[j] = (int64_t)*pi;
	}
}

/* CumsumD or CumprodD along one line at @ioff / @ooff. */
static bool cumsum_line(struct red_run *rr, int64_t ioff, int64_t ooff)
{
	const struct red_geom *g = rr->g;
	int64_t len = g->rd[0], sx = g->rs[0], so = g->ros[0], b;
	int64_t nb = (len + OPS_EW_BLOCK - 1) / OPS_EW_BLOCK;
	bool rev = rr->rc->flags & RF_REV, excl = rr->rc->flags & RF_EXCL;
	bool prod = rr->rc->op == R_CUMPROD;
	double s = prod ? 1 : 0, comp = 0;
	union red_blk xb, ob;
	uint64_t si = prod ? 1 : 0;

	for (b = 0; b < nb; b++) {
		int64_t j0 = rev ? (nb - 1 - b) * OPS_EW_BLOCK : b * OPS_EW_BLOCK;
		size_t n = (size_t)ops_min((uint64_t)(len - j0), OPS_EW_BLOCK), k;

		if (!tick(rr, n))
			return false;
		if (rr->isf)
			ops_load_f64(xb.f, rr->x, rr->dt, ioff + j0 * sx, sx, n);
		else
			ops_load_i64(xb.i, rr->x, rr->dt, ioff + j0 * sx, sx, n);
		for (k = 0; k < n; k++) {
			size_t j = rev ? n - 1 - k : k;

			if (prod) {
				prod_step(rr->isf, excl, &s, &si, &xb, &ob, j);
			} else if (rr->isf) {
				double v = xb.f[j], t = s + v;

				if (excl)
					ob.f[j] = s + comp;
				comp += fabs(s) >= fabs(v) ? (s - t) + v : (v - t) + s;
				s = t;
				if (!excl)
					ob.f[j] = s + comp;
			} else {
				if (excl)
					ob.i[j] = (int64_t)si;
				si += (uint64_t)xb.i[j];
				if (!excl)
					ob.i[j] = (int64_t)si;
			}
		}
		if (rr->isf)
			ops_store_f64(rr->y, rr->ydt, ooff + j0 * so, so, ob.f, n);
		else
			ops_store_i64(rr->y, rr->ydt, ooff + j0 * so, so, ob.i, n);
	}
	return true;
}

/* TopKD's order: does element a come before element b? */
struct topk_ctx {
	const double *vf;
	const int64_t *vi;
	bool isf, u, largest;
};

static bool topk_before(const struct topk_ctx *t, int64_t a, int64_t b)
{
	if (t->isf) {
		double x = t->vf[a], y = t->vf[b];

		/* NaN is the largest value */
		if (isnan(x) || isnan(y))
			return t->largest ? isnan(x) && !isnan(y) : isnan(y) && !isnan(x);
		return t->largest ? x > y : x < y;
	}
	return t->largest ? gt_u(t->vi[a], t->vi[b], t->u) : gt_u(t->vi[b], t->vi[a], t->u);
}

/* A stable bottom-up merge sort of @idx (@n) through @tmp; the sorted order ends in *@out. */
static bool topk_sort(struct red_run *rr, const struct topk_ctx *t, int64_t *idx, int64_t *tmp,
		      uint64_t n, int64_t **out)
{
	int64_t *src = idx, *dst = tmp, *sw;
	uint64_t w, lo;

	for (w = 1; w < n; w *= 2) {
		for (lo = 0; lo < n; lo += 2 * w) {
			uint64_t mid = ops_min(lo + w, n), hi = ops_min(lo + 2 * w, n), i = lo, j = mid, k = lo;

			if (!tick(rr, hi - lo))
				return false;
			while (i < mid && j < hi)
				dst[k++] = topk_before(t, src[j], src[i]) ? src[j++] : src[i++];
			while (i < mid)
				dst[k++] = src[i++];
			while (j < hi)
				dst[k++] = src[j++];
		}
		sw = src;
		src = dst;
		dst = sw;
	}
	*out = src;
	return true;
}

static bool topk_line(struct red_run *rr, const struct vops_plan *p, const struct ops_bufs *b,
		      int64_t ioff, int64_t ooff)
{
	const struct red_geom *g = rr->g;
	uint64_t len = (uint64_t)g->rd[0], k = (uint64_t)rr->rc->extra[0], j0, j;
	int64_t *vals = b->ws, *idx = vals + len, *tmp = idx + len, *ord;
	int64_t sx = g->rs[0], so = g->ros[0];
	struct topk_ctx t = {
		.vf = (const double *)vals, .vi = vals, .isf = rr->isf, .u = rr->u,
		.largest = rr->rc->flags & RF_LARGEST,
	};

	for (j0 = 0; j0 < len; j0 += OPS_EW_BLOCK) {
		size_t n = (size_t)ops_min(len - j0, OPS_EW_BLOCK);

		if (!tick(rr, n))
			return false;
		if (rr->isf)
			ops_load_f64((double *)vals + j0, rr->x, rr->dt, ioff + (int64_t)j0 * sx, sx, n);
		else
			ops_load_i64(vals + j0, rr->x, rr->dt, ioff + (int64_t)j0 * sx, sx, n);
		for (j = j0; j < j0 + n; j++)
			idx[j] = (int64_t)j;
	}
	if (!topk_sort(rr, &t, idx, tmp, len, &ord))
		return false;
	for (j = 0; j < k; j++) {
		int64_t o = ooff + (int64_t)j * so, at = ord[j];

		if (rr->isf)
			ops_store_f64(b->out[0], p->out[0].dtype, o, 1, (const double *)vals + at, 1);
		else
			ops_store_i64(b->out[0], p->out[0].dtype, o, 1, vals + at, 1);
		ops_store_i64(b->out[1], p->out[1].dtype, o, 1, &at, 1);
	}
	return true;
}

/* Run a planned call of @rc on @b. */
static enum vops_run_status red_exec(const struct ops_call *c, const struct red_call *rc,
				     const struct vops_plan *p, const struct ops_bufs *b,
				     struct ops_runner *r)
{
	const struct vops_tensor *x = &c->in[0];
	const struct red_info *ri = &red_infos[rc->op];
	struct red_geom g;
	struct red_run rr = {
		.rc = rc, .g = &g, .x = b->in[0], .dt = x->dtype, .y = b->out[0],
		.ydt = p->out[0].dtype, .u = ops_dt_unsigned(x->dtype), .r = r,
	};
	int64_t idx[VOPS_MAX_RANK] = { 0 }, ioff = x->offset, ooff = 0, os[VOPS_MAX_RANK];
	union red_blk ob;
	size_t nb = 0;
	uint64_t o;
	int d;

	/* sums, means, products, extremes of integers stay integers */
	rr.isf = ops_dt_float(x->dtype) || rc->op == R_LP || rc->op == R_LOGSUM || rc->op == R_LSE ||
		 rc->op == R_HARDMAX || rc->op == R_SOFTMAX || rc->op == R_LOGSOFTMAX;
	red_geom_init(&g, x, rc->red);
	if (rc->op == R_TOPK) {
		/* the outputs are dense in their shape: strides with k along the axis */
		int64_t s = 1;

		for (d = x->ndim - 1; d >= 0; d--) {
			os[d] = s;
			s *= p->out[0].dims[d];
		}
		for (d = 0, g.nk = 0; d < x->ndim; d++)
			if (d != rc->axis)
				g.kos[g.nk++] = os[d];
			else
				g.ros[0] = os[d];
	}
	for (o = 0; o < g.nout; o++) {
		struct red_acc a;

		if (!tick(&rr, 1))
			return VOPS_RUN_CANCELED;
		acc_start(&rr, &a);
		if (rc->op == R_CUMSUM || rc->op == R_CUMPROD) {
			if (!cumsum_line(&rr, ioff, ooff))
				return VOPS_RUN_CANCELED;
		} else if (rc->op == R_TOPK) {
			if (!topk_line(&rr, p, b, ioff, ooff))
				return VOPS_RUN_CANCELED;
		} else if (ri->same) {
			if (!red_pass(&rr, &a, ioff, ooff, false))
				return VOPS_RUN_CANCELED;
			a.phase = 1;
			if (!red_pass(&rr, &a, ioff, ooff, rc->op == R_HARDMAX))
				return VOPS_RUN_CANCELED;
			a.phase = 2;
			if (rc->op != R_HARDMAX && !red_pass(&rr, &a, ioff, ooff, true))
				return VOPS_RUN_CANCELED;
		} else {
			if (!red_pass(&rr, &a, ioff, 0, false))
				return VOPS_RUN_CANCELED;
			if (rc->op == R_LSE) {
				a.phase = 1;
				if (a.have && !isinf(a.m) && !red_pass(&rr, &a, ioff, 0, false))
					return VOPS_RUN_CANCELED;
			}
			/* integer results: arg indices, or reductions of integers */
			if (rr.isf && rc->op != R_ARGMAX && rc->op != R_ARGMIN)
				ob.f[nb++] = red_final_f(&rr, &a);
			else
				ob.i[nb++] = red_final_i(&rr, &a);
			if (nb == OPS_EW_BLOCK || o + 1 == g.nout) {
				int64_t at = (int64_t)(o + 1 - nb);

				if (rr.isf && rc->op != R_ARGMAX && rc->op != R_ARGMIN)
					ops_store_f64(b->out[0], p->out[0].dtype, at, 1, ob.f, nb);
				else
					ops_store_i64(b->out[0], p->out[0].dtype, at, 1, ob.i, nb);
				nb = 0;
			}
		}
		for (d = g.nk - 1; d >= 0; d--) {
			if (++idx[d] < g.kd[d]) {
				ioff += g.ks[d];
				ooff += g.kos[d];
				break;
			}
			ioff -= g.ks[d] * (g.kd[d] - 1);
			ooff -= g.kos[d] * (g.kd[d] - 1);
			idx[d] = 0;
		}
	}
	return VOPS_RUN_OK;
}

static enum vops_run_status red_run(const struct ops_call *c, const struct vops_plan *p,
				    const struct ops_bufs *b, struct ops_runner *r)
{
	struct red_call rc = { .op = red_op_of(c->def) };

	if (red_check_params(c, &rc, NULL))	/* checked when planned */
		return VOPS_RUN_FAULT;
	return red_exec(c, &rc, p, b, r);
}

/* Version 1's operators on the types their kernels do not take (ops_reduce.h). */
enum vops_run_status ops_red_run_axes(const struct ops_call *c, enum ops_red_kind kind,
				      const bool *red, const struct vops_plan *p,
				      const struct ops_bufs *b, struct ops_runner *r)
{
	static const uint8_t ops[] = {
		[OPS_RED_SUM] = R_SUM, [OPS_RED_MAX] = R_MAX, [OPS_RED_SOFTMAX] = R_SOFTMAX,
	};
	struct red_call rc = { .op = (enum red_op)ops[kind] };
	int i;

	for (i = 0; i < c->in[0].ndim; i++) {
		rc.red[i] = red[i];
		if (red[i] && !rc.naxes++)
			rc.axis = i;
	}
	return red_exec(c, &rc, p, b, r);
}

/* ---- the definitions ------------------------------------------------------------------------ */

static const char *const axes_attrs[] = { "axes", "keep_dims", NULL };
static const char *const sumsq_attrs[] = { "axis", "keep_dims", NULL };
static const char *const lp_attrs[] = { "p", "axes", "keepdim", "epsilon", NULL };
static const char *const arg_attrs[] = {
	"dimension", "dtype", "keep_dims", "select_last_index", NULL,
};
static const char *const cumsum_attrs[] = { "axis", "exclusive", "reverse", NULL };
static const char *const topk_attrs[] = { "k", "sorted", "dim", "largest", "indices_dtype", NULL };
static const char *const hardmax_attrs[] = { "axis", NULL };
static const char *const logsoftmax_attrs[] = { "axes", NULL };

#define RED_DEF(var, nm, idx, dts, at, prs)						\
	static const struct ops_def var = {						\
		.name = nm, .id = OPS_ID_REDUCE + (idx), .nin = 1, .nout = 1,		\
		.attr_fmt = OPS_AF_PARAMS, .flags = OPS_DEF_STRIDED, .dtypes = (dts),	\
		.attrs = at, .parse = prs, .infer = red_infer, .workspace = ops_ws_none,	\
		.run = red_run,								\
	}

RED_DEF(def_mean, "ReduceMeanD", 0, OPS_DT_NUM, axes_attrs, axes_parse);
RED_DEF(def_min, "ReduceMinD", 1, OPS_DT_ANY, axes_attrs, axes_parse);
RED_DEF(def_prod, "ReduceProdD", 2, OPS_DT_NUM, axes_attrs, axes_parse);
RED_DEF(def_lp, "LpNormV2", 3, OPS_DT_REAL, lp_attrs, lp_parse);
RED_DEF(def_logsum, "ReduceLogSumD", 4, OPS_DT_REAL, axes_attrs, axes_parse);
RED_DEF(def_lse, "ReduceLogSumExp", 5, OPS_DT_REAL, axes_attrs, axes_parse);
RED_DEF(def_sumsq, "SquareSumV1", 6, OPS_DT_NUM, sumsq_attrs, axes_parse);
RED_DEF(def_argmax, "ArgMaxD", 7, OPS_DT_NUM, arg_attrs, arg_parse);
RED_DEF(def_argmin, "ArgMinD", 8, OPS_DT_NUM, arg_attrs, arg_parse);
RED_DEF(def_cumsum, "CumsumD", 9, OPS_DT_NUM, cumsum_attrs, cumsum_parse);

static const struct ops_def def_topk = {
	.name = "TopKD", .id = OPS_ID_REDUCE + 10, .nin = 1, .nout = 2, .attr_fmt = OPS_AF_PARAMS,
	.flags = OPS_DEF_STRIDED, .dtypes = OPS_DT_NUM, .attrs = topk_attrs, .parse = topk_parse,
	.infer = red_infer, .workspace = topk_workspace, .run = red_run,
};

RED_DEF(def_hardmax, "HardMax", 11, OPS_DT_REAL, hardmax_attrs, hardmax_parse);
RED_DEF(def_logsoftmax, "LogSoftmaxV2", 12, OPS_DT_REAL, logsoftmax_attrs, logsoftmax_parse);
RED_DEF(def_cumprod, "CumprodD", 13, OPS_DT_NUM, cumsum_attrs, cumprod_parse);

/* Index i holds id OPS_ID_REDUCE + i; append only. */
const struct ops_def *const ops_reduce_defs[] = {
	&def_mean,
	&def_min,
	&def_prod,
	&def_lp,
	&def_logsum,
	&def_lse,
	&def_sumsq,
	&def_argmax,
	&def_argmin,
	&def_cumsum,
	&def_topk,
	&def_hardmax,
	&def_logsoftmax,
	&def_cumprod,
	NULL,
};
