// SPDX-License-Identifier: MIT
/*
 * op_reduce.c - the operators along axes: ReduceSumD, ReduceMaxD, SoftmaxV2.
 *
 *   ReduceSumD ReduceMaxD  1 input (real and integer types; ReduceMaxD also
 *                          bool); axes (required: any set, negative ones
 *                          counted from the end, [] is the identity),
 *                          keep_dims
 *   SoftmaxV2              1 real input (fp32 fp16 bf16 fp64); axes
 *                          (adjacent axes; default the last one),
 *                          half_to_float (false only)
 *
 * The input is seen as rows x cols x inner around the named axes: cols the
 * product of the named axes, rows of the dimensions before them, inner of
 * those after. Named axes that are one run are one primitive (kern_sched.c)
 * with the workspace of ops_prim_ws(). A reduction over axes that are not
 * adjacent is a chain of primitives run one after the other by one
 * descriptor: one reduction per run of adjacent axes, first run first, each
 * seeing the tensor the one before left as rows x cols x inner; sums of
 * fp16/bf16 run in fp32 between a CAST of the input and a CAST of the
 * result (rounded once, as one reduction would), maxima and the other
 * types keep the input's type (a maximum is exact in any type). Its
 * workspace is [0, region) for the reductions' own needs (the largest),
 * then intermediate buffers 0 and 1, each 64-byte aligned, used in turn.
 *
 * Sums of fp32 are compensated (Kahan) across chunks and pairwise within
 * them; maxima propagate NaN. In place: yes (a chain's first primitive
 * reads all of the input before its last one writes the output).
 *
 * The kernels take fp32, fp16, bf16 and int32 (version 1's types): for
 * them all of the above holds unchanged. Every other type runs on the
 * reduce family's engine (op_reduce2.c, ops_reduce.h) in one pass over
 * any set of axes, with no workspace: integers in int64 (sums wrap,
 * uint64 compared unsigned), fp64 in double (sums compensated), NaN
 * propagating through maxima. Views reach both through vops_run()'s dense
 * copies (no OPS_DEF_STRIDED: version 1's workspace for a view holds the
 * copy, and the kernels read dense memory).
 */
#include <inttypes.h>
#include <string.h>

#include "ops_int.h"
#include "ops_reduce.h"

static const char *const reduce_attrs[] = { "axes", "keep_dims", NULL };
static const char *const softmax_attrs[] = { "axes", "half_to_float", NULL };

#define CHAIN_USER (-1)			/* a step operand: the user's input or output */
#define CHAIN_MAX_STEPS ((VOPS_MAX_RANK + 1) / 2 + 2)
#define CHAIN_BUF_ALIGN 64

static bool axis_named(const struct ops_call *c, int i)
{
	return (c->at.axes.mask[i / 64] >> (i % 64)) & 1;
}

static bool is_softmax(const struct ops_call *c)
{
	return c->def->kind == OPS_K_SOFTMAX;
}

/* Do version 1's kernels take @c (its type is one of theirs)? */
static bool fast_type(const struct ops_call *c)
{
	return (ops_dtype_bit(c->in[0].dtype) & OPS_DT_ALL) != 0;
}

/* ---- CANN attributes ------------------------------------------------------------ */

/*
 * The axes attribute over a tensor of rank @rank as the call's mask
 * (negative axes count from the end). Out-of-range and repeated axes are
 * errors. Absent: @required decides; SoftmaxV2's default is the last axis.
 */
static enum vops_err parse_axes(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
				bool required, struct vops_error *err)
{
	const struct vops_attr *a = vops_attr_find(attrs, n, "axes");
	const char *name = c->def->name;
	int rank = c->in[0].ndim, count, i;
	const int64_t *v;
	int64_t one;

	if (!a) {
		if (required)
			return ops_fail(err, VOPS_ERR_ATTR, "%s needs the attribute axes", name);
		one = -1;
		v = &one;
		count = 1;
	} else if (a->kind == VOPS_ATTR_INT) {
		one = a->i;
		v = &one;
		count = 1;
	} else if (a->kind == VOPS_ATTR_LIST_INT) {
		v = a->li.v;
		count = a->li.n;
		if (count < 0 || (count && !v))
			return ops_fail(err, VOPS_ERR_ATTR, "%s: attribute axes has no values", name);
	} else {
		return ops_fail(err, VOPS_ERR_ATTR, "%s: attribute axes must be a list of ints", name);
	}
	for (i = 0; i < count; i++) {
		int64_t axis = v[i];

		if (rank < 1)
			return ops_fail(err, VOPS_ERR_ATTR, "%s: a scalar input has no axis %" PRId64, name, axis);
		if (axis < -(int64_t)rank || axis >= rank)
			return ops_fail(err, VOPS_ERR_ATTR,
					"%s: axis %" PRId64 " is out of range for rank %d ([%d, %d])", name, axis,
					rank, -rank, rank - 1);
		if (axis < 0)
			axis += rank;
		if (axis_named(c, (int)axis))
			return ops_fail(err, VOPS_ERR_ATTR, "%s: axes names axis %" PRId64 " twice", name, axis);
		c->at.axes.mask[axis / 64] |= 1ull << (axis % 64);
	}
	return VOPS_OK;
}

static enum vops_err reduce_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
				  struct vops_error *err)
{
	enum vops_err ret = parse_axes(c, attrs, n, true, err);
	bool keep;

	if (!ret)
		ret = ops_attr_bool(c->def, attrs, n, "keep_dims", false, &keep, err);
	if (!ret && keep)
		c->at.axes.flags |= OPS_AXES_KEEP_DIMS;
	return ret;
}

static enum vops_err softmax_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
				   struct vops_error *err)
{
	enum vops_err ret = parse_axes(c, attrs, n, false, err);
	bool half_to_float;

	if (!ret)
		ret = ops_attr_bool(c->def, attrs, n, "half_to_float", false, &half_to_float, err);
	if (!ret && half_to_float)
		ret = ops_fail(err, VOPS_ERR_ATTR,
			       "SoftmaxV2: half_to_float=true is not supported (the output has the input's type)");
	return ret;
}

/* ---- the rules ------------------------------------------------------------------ */

/* The input as rows x cols x inner around the named axes. */
struct rows_view {
	uint64_t rows, cols, inner, elems, outer;
	int naxes;
	bool adjacent;		/* the named axes are one run (or none) */
};

static bool rows_view(const struct ops_call *c, struct rows_view *v)
{
	const struct vops_tensor *x = &c->in[0];
	uint64_t d[3] = { 1, 1, 1 };
	int i, part = 0;

	v->adjacent = true;
	v->naxes = 0;
	for (i = 0; i < x->ndim; i++) {
		bool named = axis_named(c, i);
		int at;

		if (named && part == 2)
			v->adjacent = false;
		if (named)
			part = 1;
		else if (part == 1)
			part = 2;
		v->naxes += named;
		at = named ? 1 : part ? 2 : 0;
		if (!ops_mul(d[at], (uint64_t)x->dims[i], &d[at]))
			return false;
	}
	v->rows = d[0];
	v->cols = d[1];
	v->inner = d[2];
	return ops_mul(v->rows, v->cols, &v->elems) && ops_mul(v->elems, v->inner, &v->elems) &&
	       ops_mul(v->rows, v->inner, &v->outer);
}

static enum vops_err rows_infer(const struct ops_call *c, struct vops_plan *p, struct vops_error *err)
{
	const struct vops_tensor *x = &c->in[0];
	bool softmax = is_softmax(c), keep = c->at.axes.flags & OPS_AXES_KEEP_DIMS;
	uint64_t es = ops_esize(x->dtype), in_bytes;
	struct rows_view v;
	int i, nd;

	if (!rows_view(c, &v))
		return ops_too_large(c->def, err);
	if (softmax && !v.naxes)
		return ops_fail(err, VOPS_ERR_ATTR, "SoftmaxV2: axes must name at least one axis");
	if (softmax && !v.adjacent)
		return ops_fail(err, VOPS_ERR_ATTR,
				"SoftmaxV2: the axes are not adjacent; vnpu runs softmax along adjacent axes "
				"only (a single axis, or a run like [1, 2])");
	/* a chain checks the limits of each of its steps (chain_plan()) */
	if ((v.adjacent && (v.rows > VOPS_MAX_DIM || v.cols > VOPS_MAX_DIM || v.inner > VOPS_MAX_DIM)) ||
	    !ops_bytes(v.elems, es, &in_bytes))
		return ops_too_large(c->def, err);
	ops_set_in(p, c, 0, in_bytes);
	p->in_place = 1;
	if (softmax) {
		ops_set_out(p, x->dtype, x->ndim, x->dims, in_bytes);
		p->empty = v.elems == 0;
		return VOPS_OK;
	}
	/*
	 * The named axes go, or stay as 1 with keep_dims. No axes named: the
	 * identity, as TensorFlow's Sum (CANN's ReduceSumD follows it).
	 */
	for (i = 0, nd = 0; i < x->ndim; i++)
		if (!axis_named(c, i) || keep)
			p->out[0].dims[nd++] = axis_named(c, i) ? 1 : x->dims[i];
	ops_set_out(p, x->dtype, nd, p->out[0].dims, v.outer * es);	/* outer <= elems */
	if (v.outer && !v.cols)
		return ops_fail(err, VOPS_ERR_INPUT, "%s: reducing an empty axis is not supported", c->def->name);
	p->empty = v.outer == 0;
	return VOPS_OK;
}

/* ---- chains ------------------------------------------------------------------------ */

struct chain_step {
	uint32_t kind;
	int32_t dt, odt;
	uint64_t d[3];
	int src, dst;		/* CHAIN_USER, or buffer 0 or 1 */
};

struct chain {
	unsigned int n;
	struct chain_step st[CHAIN_MAX_STEPS];
	uint64_t region;	/* workspace of the steps themselves */
	uint64_t off[2], bytes[2];	/* the intermediate buffers */
	uint64_t total;
};

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

/* Append a step; false if its workspace is out of bounds. */
static bool add_step(struct chain *ch, uint32_t kind, int32_t dt, int32_t odt, uint64_t d0, uint64_t d1,
		     uint64_t d2, int src, int dst)
{
	struct chain_step *st = &ch->st[ch->n++];
	struct ops_args a = { .kind = kind, .dt = dt, .odt = odt, .d = { d0, d1, d2 } };
	uint64_t ws;

	st->kind = kind;
	st->dt = dt;
	st->odt = odt;
	st->d[0] = d0;
	st->d[1] = d1;
	st->d[2] = d2;
	st->src = src;
	st->dst = dst;
	if (!ops_prim_ws(&a, &ws))
		return false;
	if (ws > ch->region)
		ch->region = ws;
	return true;
}

/* The chain of a non-empty reduction over axes that are not adjacent. */
static enum vops_err chain_plan(const struct ops_call *c, const struct rows_view *v, struct chain *ch,
				struct vops_error *err)
{
	const struct vops_tensor *x = &c->in[0];
	int32_t dt = x->dtype;
	bool cast = c->def->kind == OPS_K_REDUCE_SUM && ops_lowp(dt);
	int32_t wdt = cast ? ACL_FLOAT : dt;
	uint64_t wes = ops_esize(wdt), seg[VOPS_MAX_RANK], rows = 1, cur = v->elems, bytes;
	bool red[VOPS_MAX_RANK];
	int nseg = 0, i, nred = 0, k = 0, src, dst;

	/* the shape as runs of kept and of named axes */
	for (i = 0; i < x->ndim; i++) {
		bool named = axis_named(c, i);

		if (nseg && red[nseg - 1] == named) {
			seg[nseg - 1] *= (uint64_t)x->dims[i];	/* within elems: no overflow */
			continue;
		}
		seg[nseg] = (uint64_t)x->dims[i];
		red[nseg++] = named;
		nred += named;
	}
	ch->n = 0;
	ch->region = 0;
	ch->bytes[0] = ch->bytes[1] = 0;
	if (cast) {
		if (v->elems > VOPS_MAX_DIM || !ops_bytes(v->elems, 4, &ch->bytes[0]) ||
		    !add_step(ch, OPS_K_CAST, dt, ACL_FLOAT, v->elems, 0, 0, CHAIN_USER, 0))
			return ops_too_large(c->def, err);
	}
	src = cast ? 0 : CHAIN_USER;
	for (i = 0; i < nseg; i++) {
		uint64_t cols = seg[i], inner;

		if (!red[i]) {
			rows *= seg[i];
			continue;
		}
		inner = cur / rows / cols;
		if (rows > VOPS_MAX_DIM || cols > VOPS_MAX_DIM || inner > VOPS_MAX_DIM)
			return ops_too_large(c->def, err);
		cur = rows * inner;
		k++;
		/* the last reduction writes the output, unless a CAST follows */
		dst = k == nred && !cast ? CHAIN_USER : src == 0 ? 1 : 0;
		if (!add_step(ch, c->def->kind, wdt, wdt, rows, cols, inner > 1 ? inner : 0, src, dst))
			return ops_too_large(c->def, err);
		if (dst >= 0 && !ops_bytes(cur, wes, &bytes))
			return ops_too_large(c->def, err);
		if (dst >= 0 && bytes > ch->bytes[dst])
			ch->bytes[dst] = bytes;
		src = dst;
	}
	if (cast && !add_step(ch, OPS_K_CAST, ACL_FLOAT, dt, cur, 0, 0, src, CHAIN_USER))
		return ops_too_large(c->def, err);
	ch->off[0] = align_up(ch->region, CHAIN_BUF_ALIGN);
	ch->off[1] = align_up(ch->off[0] + ch->bytes[0], CHAIN_BUF_ALIGN);
	ch->total = ch->off[1] + ch->bytes[1];
	if (ch->total > VOPS_MAX_BYTES)
		return ops_too_large(c->def, err);
	return VOPS_OK;
}

/* The one primitive of an adjacent call. */
static void single_args(const struct ops_call *c, const struct rows_view *v, struct ops_args *a)
{
	memset(a, 0, sizeof(*a));
	a->kind = c->def->kind;
	a->dt = a->odt = c->in[0].dtype;
	a->d[0] = v->rows;
	a->d[1] = v->cols;
	a->d[2] = v->inner > 1 ? v->inner : 0;
}

static enum vops_err rows_workspace(const struct ops_call *c, struct vops_plan *p, struct vops_error *err)
{
	struct rows_view v;
	struct ops_args a;
	enum vops_err ret;
	struct chain ch;

	p->ws_bytes = 0;
	if (p->empty || !fast_type(c))	/* the generic engine needs none */
		return VOPS_OK;
	rows_view(c, &v);	/* succeeded in rows_infer() */
	if (!v.adjacent) {
		ret = chain_plan(c, &v, &ch, err);
		if (!ret)
			p->ws_bytes = ch.total;
		return ret;
	}
	single_args(c, &v, &a);
	if (!ops_prim_ws(&a, &p->ws_bytes))
		return ops_too_large(c->def, err);
	return VOPS_OK;
}

static enum vops_run_status rows_run(const struct ops_call *c, const struct vops_plan *p,
				     const struct ops_bufs *b, struct ops_runner *r)
{
	enum vops_run_status ret;
	struct rows_view v;
	struct ops_args a;
	struct chain ch;
	unsigned int i;

	if (!fast_type(c)) {
		bool red[VOPS_MAX_RANK];
		enum ops_red_kind kind = is_softmax(c) ? OPS_RED_SOFTMAX :
					 c->def->kind == OPS_K_REDUCE_MAX ? OPS_RED_MAX : OPS_RED_SUM;

		for (i = 0; i < (unsigned int)c->in[0].ndim; i++)
			red[i] = axis_named(c, (int)i);
		return ops_red_run_axes(c, kind, red, p, b, r);
	}
	rows_view(c, &v);
	if (v.adjacent) {
		single_args(c, &v, &a);
		a.in0 = b->in[0];
		a.out = b->out[0];
		a.ws = b->ws;
		return ops_prim_run(&a, r);
	}
	if (chain_plan(c, &v, &ch, NULL))	/* succeeded when planned */
		return VOPS_RUN_FAULT;
	for (i = 0; i < ch.n; i++) {
		const struct chain_step *st = &ch.st[i];

		memset(&a, 0, sizeof(a));
		a.kind = st->kind;
		a.dt = st->dt;
		a.odt = st->odt;
		memcpy(a.d, st->d, sizeof(a.d));
		a.in0 = st->src == CHAIN_USER ? b->in[0] : (const char *)b->ws + ch.off[st->src];
		a.out = st->dst == CHAIN_USER ? b->out[0] : (char *)b->ws + ch.off[st->dst];
		a.ws = b->ws;
		ret = ops_prim_run(&a, r);
		if (ret)
			return ret;
	}
	return VOPS_RUN_OK;
}

const struct ops_def ops_def_reduce_sum = {
	.name = "ReduceSumD", .id = OPS_ID_REDUCE_SUM, .kind = OPS_K_REDUCE_SUM, .nin = 1, .nout = 1,
	.attr_fmt = OPS_AF_AXES, .dtypes = OPS_DT_NUM, .attrs = reduce_attrs, .parse = reduce_parse,
	.infer = rows_infer, .workspace = rows_workspace, .run = rows_run,
};

const struct ops_def ops_def_reduce_max = {
	.name = "ReduceMaxD", .id = OPS_ID_REDUCE_MAX, .kind = OPS_K_REDUCE_MAX, .nin = 1, .nout = 1,
	.attr_fmt = OPS_AF_AXES, .dtypes = OPS_DT_ANY, .attrs = reduce_attrs, .parse = reduce_parse,
	.infer = rows_infer, .workspace = rows_workspace, .run = rows_run,
};

const struct ops_def ops_def_softmax = {
	.name = "SoftmaxV2", .id = OPS_ID_SOFTMAX, .kind = OPS_K_SOFTMAX, .nin = 1, .nout = 1,
	.attr_fmt = OPS_AF_AXES, .dtypes = OPS_DT_REAL, .attrs = softmax_attrs, .parse = softmax_parse,
	.infer = rows_infer, .workspace = rows_workspace, .run = rows_run,
};
