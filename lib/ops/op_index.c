// SPDX-License-Identifier: MIT
/*
 * op_index.c - indexing and rearranging operators (the index family).
 *
 *   GatherV2D GatherElements GatherNd      gathers by int32/int64 indices
 *   ScatterElements TensorScatterUpdate    scatters into a copy of the data,
 *   TensorScatterAdd TensorScatterMul      with a reduction
 *   OneHotD Tril Triu                      masks and one-hot vectors
 *   DepthToSpace SpaceToDepth              block moves (4-D, NCHW or NHWC)
 *   ResizeD                                nearest, linear, cubic (kern_index.c)
 *
 * Data may be of any type (the moves copy bytes); indices are int32 or
 * int64, negative ones count from the end. Every index is checked when
 * the operator runs: one outside its dimension fails the run with
 * VOPS_RUN_ARITH (output partial) and nothing outside the operands is
 * touched. Every operator takes dense inputs (vops_run copies views) and
 * keeps its attributes as OPS_AF_PARAMS ints, which infer checks again.
 */
#include <inttypes.h>
#include <string.h>

#include "ops_int.h"

/* ResizeD, with its kernel in kern_index.c. */
extern const struct ops_def ops_index_resize_d;

/* ---- shared helpers ------------------------------------------------------------- */

/* Work done since the runner was last asked (about every OPS_EW_CHUNK elements). */
struct ix_work {
	struct ops_runner *r;
	uint64_t done;
};

static bool ix_is_index(int32_t dt)
{
	return dt == ACL_INT32 || dt == ACL_INT64;
}

static uint64_t ix_prod(const int64_t *dims, int from, int to)
{
	uint64_t n = 1;
	int d;

	for (d = from; d < to; d++)
		n *= (uint64_t)dims[d];
	return n;
}

static bool ix_norm(int64_t v, int64_t n, int64_t *out)
{
	if (v < 0)
		v += n;
	if (v < 0 || v >= n)
		return false;
	*out = v;
	return true;
}

static bool ix_work(struct ix_work *w, uint64_t n)
{
	w->done += n + 1;
	if (w->done < OPS_EW_CHUNK)
		return false;
	w->done = 0;
	return ops_should_stop(w->r);
}

static enum vops_err ix_params(const struct ops_call *c, uint32_t ni, uint32_t nf,
			       struct vops_error *err)
{
	if (c->at.pr.ni != ni || c->at.pr.nf != nf)
		return ops_fail(err, VOPS_ERR_ATTR,
				"%s: %u int and %u float parameters (%u and %u)", c->def->name,
				c->at.pr.ni, c->at.pr.nf, ni, nf);
	return VOPS_OK;
}

static enum vops_err ix_index_type(const struct ops_call *c, int i, const char *what,
				   struct vops_error *err)
{
	if (!ix_is_index(c->in[i].dtype))
		return ops_fail(err, VOPS_ERR_DTYPE,
				"%s: %s (input %d) is %s (vnpu: ACL_INT32, ACL_INT64)",
				c->def->name, what, i, vops_dtype_name(c->in[i].dtype));
	return VOPS_OK;
}

/* Input @i must have input 0's type. */
static enum vops_err same_type(const struct ops_call *c, int i, const char *what,
			       struct vops_error *err)
{
	if (c->in[i].dtype != c->in[0].dtype)
		return ops_fail(err, VOPS_ERR_INPUT, "%s: %s (input %d) is %s, the data %s",
				c->def->name, what, i, vops_dtype_name(c->in[i].dtype),
				vops_dtype_name(c->in[0].dtype));
	return VOPS_OK;
}

/* Output 0 of @dims, every input dense, empty when the output has no element. */
static enum vops_err set_out(const struct ops_call *c, struct vops_plan *p, int32_t dt, int ndim,
			     const int64_t *dims, struct vops_error *err)
{
	enum vops_err ret = ops_set_out_n(c, p, 0, dt, ndim, dims, err);
	int i;

	for (i = 0; !ret && i < c->nin; i++)
		ret = ops_set_in_dense(c, p, i, err);
	if (!ret)
		p->empty = ix_prod(dims, 0, ndim) == 0;
	return ret;
}

static enum vops_err need_rank(const struct ops_call *c, int i, const char *what, int min,
			       struct vops_error *err)
{
	if (c->in[i].ndim < min)
		return ops_fail(err, VOPS_ERR_INPUT, "%s: %s (input %d) has rank %d (at least %d)",
				c->def->name, what, i, c->in[i].ndim, min);
	return VOPS_OK;
}

/* An int attribute that must be there. */
static enum vops_err attr_int_req(const struct ops_call *c, const struct vops_attr *attrs,
				  unsigned int n, const char *name, int64_t *v,
				  struct vops_error *err)
{
	if (!vops_attr_find(attrs, n, name))
		return ops_fail(err, VOPS_ERR_ATTR, "%s needs the attribute %s", c->def->name,
				name);
	return ops_attr_int(c->def, attrs, n, name, 0, v, err);
}

/* String attribute @name (default @dflt) as its index in @names; ATTR otherwise. */
static enum vops_err attr_choice(const struct ops_call *c, const struct vops_attr *attrs,
				 unsigned int n, const char *name, const char *dflt,
				 const char *const *names, int64_t *v, struct vops_error *err)
{
	const char *s;
	enum vops_err ret = ops_attr_str(c->def, attrs, n, name, dflt, &s, err);
	int64_t k;

	if (ret)
		return ret;
	for (k = 0; names[k]; k++)
		if (!strcmp(names[k], s)) {
			*v = k;
			return VOPS_OK;
		}
	return ops_fail(err, VOPS_ERR_ATTR, "%s: attribute %s \"%s\" is not supported",
			c->def->name, name, s);
}

static char *ptr_at(void *base, uint64_t elem, uint32_t es)
{
	return (char *)base + elem * es;
}

static const char *cptr_at(const void *base, uint64_t elem, uint32_t es)
{
	return (const char *)base + elem * es;
}

/* ---- GatherV2D -------------------------------------------------------------------- */

static const char *const gather_attrs[] = { "axis", NULL };

static enum vops_err axis_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
				struct vops_error *err)
{
	int64_t axis;
	enum vops_err ret = attr_int_req(c, attrs, n, "axis", &axis, err);

	if (!ret)
		ops_param_i(c, axis);
	return ret;
}

static enum vops_err gather_infer(const struct ops_call *c, struct vops_plan *p,
				  struct vops_error *err)
{
	const struct vops_tensor *x = &c->in[0], *ix = &c->in[1];
	int64_t dims[VOPS_MAX_RANK];
	enum vops_err ret;
	int axis, nd = 0, d;

	ret = ix_params(c, 1, 0, err);
	if (!ret)
		ret = ix_index_type(c, 1, "indices", err);
	if (!ret)
		ret = need_rank(c, 0, "x", 1, err);
	if (ret)
		return ret;
	if (!ops_axis(c->at.pr.i[0], x->ndim, &axis))
		return ops_fail(err, VOPS_ERR_ATTR,
				"%s: attribute axis %" PRId64 " is out of range for "
				"rank %d",
				c->def->name, c->at.pr.i[0], x->ndim);
	if (x->ndim - 1 + ix->ndim > VOPS_MAX_RANK)
		return ops_fail(err, VOPS_ERR_INPUT,
				"%s: the output would have more than %d dimensions", c->def->name,
				VOPS_MAX_RANK);
	for (d = 0; d < axis; d++)
		dims[nd++] = x->dims[d];
	for (d = 0; d < ix->ndim; d++)
		dims[nd++] = ix->dims[d];
	for (d = axis + 1; d < x->ndim; d++)
		dims[nd++] = x->dims[d];
	return set_out(c, p, x->dtype, nd, dims, err);
}

static enum vops_run_status gather_run(const struct ops_call *c, const struct vops_plan *p,
				       const struct ops_bufs *b, struct ops_runner *r)
{
	const struct vops_tensor *x = &c->in[0], *ix = &c->in[1];
	uint32_t es = ops_esize(x->dtype);
	struct ix_work w = { .r = r };
	uint64_t outer, inner, ni, o, j;
	int64_t n, v;
	int axis;

	(void)p;
	ops_axis(c->at.pr.i[0], x->ndim, &axis);
	outer = ix_prod(x->dims, 0, axis);
	inner = ix_prod(x->dims, axis + 1, x->ndim);
	n = x->dims[axis];
	ni = ix_prod(ix->dims, 0, ix->ndim);
	for (o = 0; o < outer; o++)
		for (j = 0; j < ni; j++) {
			if (!ix_norm(ops_get_i64(b->in[1], ix->dtype, (int64_t)j), n, &v))
				return VOPS_RUN_ARITH;
			memcpy(ptr_at(b->out[0], (o * ni + j) * inner, es),
			       cptr_at(b->in[0], (o * (uint64_t)n + (uint64_t)v) * inner, es),
			       inner * es);
			if (ix_work(&w, inner))
				return VOPS_RUN_CANCELED;
		}
	return VOPS_RUN_OK;
}

static const struct ops_def def_gather_v2d = {
	.name = "GatherV2D", .id = OPS_ID_INDEX + 0, .nin = 2, .nout = 1, .attr_fmt = OPS_AF_PARAMS,
	.flags = OPS_DEF_MIXED, .dtypes = OPS_DT_ANY, .attrs = gather_attrs, .parse = axis_parse,
	.infer = gather_infer, .workspace = ops_ws_none, .run = gather_run,
};

/* ---- GatherElements ----------------------------------------------------------------- */

static const char *const gather_el_attrs[] = { "dim", NULL };

static enum vops_err dim_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
			       struct vops_error *err)
{
	int64_t dim;
	enum vops_err ret = ops_attr_int(c->def, attrs, n, "dim", 0, &dim, err);

	if (!ret)
		ops_param_i(c, dim);
	return ret;
}

/*
 * The rules of an element-wise index @ix (input @ii) into @x along
 * parameter axis: the same rank, no larger along the other axes.
 */
static enum vops_err elements_check(const struct ops_call *c, const struct vops_tensor *x, int ii,
				    const char *aname, int *axis, struct vops_error *err)
{
	const struct vops_tensor *ix = &c->in[ii];
	char a[96], s[96];
	int d;

	if (!ops_axis(c->at.pr.i[0], x->ndim, axis))
		return ops_fail(err, VOPS_ERR_ATTR,
				"%s: attribute %s %" PRId64 " is out of range for "
				"rank %d",
				c->def->name, aname, c->at.pr.i[0], x->ndim);
	for (d = 0; d < x->ndim && ix->ndim == x->ndim; d++)
		if (d != *axis && ix->dims[d] > x->dims[d])
			break;
	if (ix->ndim != x->ndim || d < x->ndim)
		return ops_fail(err, VOPS_ERR_INPUT,
				"%s: indices %s do not fit the data %s (the same "
				"rank, no larger but along %s %d)",
				c->def->name, vops_shape_str(a, sizeof(a), ix->ndim, ix->dims),
				vops_shape_str(s, sizeof(s), x->ndim, x->dims), aname, *axis);
	return VOPS_OK;
}

static enum vops_err gather_el_infer(const struct ops_call *c, struct vops_plan *p,
				     struct vops_error *err)
{
	enum vops_err ret;
	int axis;

	ret = ix_params(c, 1, 0, err);
	if (!ret)
		ret = ix_index_type(c, 1, "index", err);
	if (!ret)
		ret = need_rank(c, 0, "x", 1, err);
	if (!ret)
		ret = elements_check(c, &c->in[0], 1, "dim", &axis, err);
	return ret ? ret : set_out(c, p, c->in[0].dtype, c->in[1].ndim, c->in[1].dims, err);
}

/*
 * Walks the elements of the index tensor @ix in order, keeping the
 * offset (in a tensor of strides @st) of its position with the axis
 * coordinate left out.
 */
struct ix_walk {
	int ndim, axis;
	const int64_t *dims;
	int64_t st[VOPS_MAX_RANK], pos[VOPS_MAX_RANK];
	uint64_t base;
};

static void walk_init(struct ix_walk *k, const struct vops_tensor *ix, const struct vops_tensor *x,
		      int axis)
{
	k->ndim = ix->ndim;
	k->axis = axis;
	k->dims = ix->dims;
	ops_strides(x, k->st);
	memset(k->pos, 0, sizeof(k->pos[0]) * (size_t)ix->ndim);
	k->base = 0;
}

static void walk_next(struct ix_walk *k)
{
	int d;

	for (d = k->ndim - 1; d >= 0; d--) {
		int64_t s = d == k->axis ? 0 : k->st[d];

		if (++k->pos[d] < k->dims[d]) {
			k->base += (uint64_t)s;
			return;
		}
		k->base -= (uint64_t)(s * (k->pos[d] - 1));
		k->pos[d] = 0;
	}
}

static enum vops_run_status gather_el_run(const struct ops_call *c, const struct vops_plan *p,
					  const struct ops_bufs *b, struct ops_runner *r)
{
	const struct vops_tensor *x = &c->in[0], *ix = &c->in[1];
	uint32_t es = ops_esize(x->dtype);
	struct ix_work w = { .r = r };
	struct ix_walk k;
	uint64_t n, j;
	int64_t v;
	int axis;

	(void)p;
	ops_axis(c->at.pr.i[0], x->ndim, &axis);
	walk_init(&k, ix, x, axis);
	n = ix_prod(ix->dims, 0, ix->ndim);
	for (j = 0; j < n; j++, walk_next(&k)) {
		if (!ix_norm(ops_get_i64(b->in[1], ix->dtype, (int64_t)j), x->dims[axis], &v))
			return VOPS_RUN_ARITH;
		memcpy(ptr_at(b->out[0], j, es), cptr_at(b->in[0], k.base + (uint64_t)v *
		       (uint64_t)k.st[axis], es), es);
		if (ix_work(&w, 0))
			return VOPS_RUN_CANCELED;
	}
	return VOPS_RUN_OK;
}

static const struct ops_def def_gather_elements = {
	.name = "GatherElements", .id = OPS_ID_INDEX + 1, .nin = 2, .nout = 1,
	.attr_fmt = OPS_AF_PARAMS, .flags = OPS_DEF_MIXED, .dtypes = OPS_DT_ANY,
	.attrs = gather_el_attrs, .parse = dim_parse, .infer = gather_el_infer,
	.workspace = ops_ws_none, .run = gather_el_run,
};

/* ---- GatherNd ------------------------------------------------------------------------- */

static const char *const gather_nd_attrs[] = { "batch_dims", NULL };

static enum vops_err gather_nd_parse(struct ops_call *c, const struct vops_attr *attrs,
				     unsigned int n, struct vops_error *err)
{
	int64_t bd;
	enum vops_err ret = ops_attr_int(c->def, attrs, n, "batch_dims", 0, &bd, err);

	if (!ret)
		ops_param_i(c, bd);
	return ret;
}

/*
 * The shape rules GatherNd and the TensorScatter operators share: data @x,
 * indices input 1 of shape [batch..., tuples..., q] with @bd batch
 * dimensions, the slice shape x.dims[bd + q:]. *@q the tuple length.
 */
static enum vops_err nd_check(const struct ops_call *c, int64_t bd, int *q, struct vops_error *err)
{
	const struct vops_tensor *x = &c->in[0], *ix = &c->in[1];
	char a[96], s[96];
	int d;

	if (ix->ndim < 1)
		return ops_fail(err, VOPS_ERR_INPUT,
				"%s: indices (input 1) are a scalar (rank >= 1)", c->def->name);
	if (bd < 0 || bd >= ix->ndim || bd > x->ndim)
		return ops_fail(err, VOPS_ERR_ATTR,
				"%s: attribute batch_dims %" PRId64 " is out of "
				"range (0 to %d)",
				c->def->name, bd,
				(ix->ndim - 1 < x->ndim ? ix->ndim - 1 : x->ndim));
	if (ix->dims[ix->ndim - 1] > x->ndim - bd)
		goto bad;
	*q = (int)ix->dims[ix->ndim - 1];
	for (d = 0; d < bd; d++)
		if (ix->dims[d] != x->dims[d])
			goto bad;
	return VOPS_OK;
bad:
	return ops_fail(err, VOPS_ERR_INPUT, "%s: indices %s do not index the data %s (batch_dims %"
			PRId64 ")", c->def->name, vops_shape_str(a, sizeof(a), ix->ndim, ix->dims),
			vops_shape_str(s, sizeof(s), x->ndim, x->dims), bd);
}

/* The shape of the slices an nd index picks: indices' but the last, data's after bd + q. */
static enum vops_err nd_shape(const struct ops_call *c, int64_t bd, int q, int *nd, int64_t *dims,
			      struct vops_error *err)
{
	const struct vops_tensor *x = &c->in[0], *ix = &c->in[1];
	int d;

	*nd = 0;
	if (ix->ndim - 1 + x->ndim - (int)bd - q > VOPS_MAX_RANK)
		return ops_fail(err, VOPS_ERR_INPUT,
				"%s: the result would have more than %d dimensions", c->def->name,
				VOPS_MAX_RANK);
	for (d = 0; d < ix->ndim - 1; d++)
		dims[(*nd)++] = ix->dims[d];
	for (d = (int)bd + q; d < x->ndim; d++)
		dims[(*nd)++] = x->dims[d];
	return VOPS_OK;
}

static enum vops_err gather_nd_infer(const struct ops_call *c, struct vops_plan *p,
				     struct vops_error *err)
{
	int64_t dims[VOPS_MAX_RANK];
	enum vops_err ret;
	int q = 0, nd = 0;

	ret = ix_params(c, 1, 0, err);
	if (!ret)
		ret = ix_index_type(c, 1, "indices", err);
	if (!ret)
		ret = nd_check(c, c->at.pr.i[0], &q, err);
	if (!ret)
		ret = nd_shape(c, c->at.pr.i[0], q, &nd, dims, err);
	return ret ? ret : set_out(c, p, c->in[0].dtype, nd, dims, err);
}

/*
 * Element offset in the data of index tuple @t (of @q) in batch @bi; false
 * for an index out of range.
 */
static bool nd_offset(const struct ops_call *c, const void *ixb, int bd, int q, uint64_t bi,
		      uint64_t t, uint64_t *off)
{
	const struct vops_tensor *x = &c->in[0], *ix = &c->in[1];
	uint64_t o = bi * ix_prod(x->dims, bd, x->ndim);
	int64_t v;
	int k;

	for (k = 0; k < q; k++) {
		if (!ix_norm(ops_get_i64(ixb, ix->dtype, (int64_t)(t * (uint64_t)q + (uint64_t)k)),
			     x->dims[bd + k], &v))
			return false;
		o += (uint64_t)v * ix_prod(x->dims, bd + k + 1, x->ndim);
	}
	*off = o;
	return true;
}

static enum vops_run_status gather_nd_run(const struct ops_call *c, const struct vops_plan *p,
					  const struct ops_bufs *b, struct ops_runner *r)
{
	const struct vops_tensor *x = &c->in[0], *ix = &c->in[1];
	int bd = (int)c->at.pr.i[0], q = (int)ix->dims[ix->ndim - 1];
	uint32_t es = ops_esize(x->dtype);
	uint64_t nb = ix_prod(x->dims, 0, bd), nt = ix_prod(ix->dims, bd, ix->ndim - 1);
	uint64_t slice = ix_prod(x->dims, bd + q, x->ndim), bi, t, off;
	struct ix_work w = { .r = r };

	(void)p;
	for (bi = 0; bi < nb; bi++)
		for (t = 0; t < nt; t++) {
			if (!nd_offset(c, b->in[1], bd, q, bi, bi * nt + t, &off))
				return VOPS_RUN_ARITH;
			memcpy(ptr_at(b->out[0], (bi * nt + t) * slice, es),
			       cptr_at(b->in[0], off, es), slice * es);
			if (ix_work(&w, slice + (uint64_t)q))
				return VOPS_RUN_CANCELED;
		}
	return VOPS_RUN_OK;
}

static const struct ops_def def_gather_nd = {
	.name = "GatherNd", .id = OPS_ID_INDEX + 2, .nin = 2, .nout = 1, .attr_fmt = OPS_AF_PARAMS,
	.flags = OPS_DEF_MIXED, .dtypes = OPS_DT_ANY, .attrs = gather_nd_attrs,
	.parse = gather_nd_parse, .infer = gather_nd_infer, .workspace = ops_ws_none,
	.run = gather_nd_run,
};

/* ---- reductions of the scatters -------------------------------------------------------- */

enum { RED_NONE, RED_ADD, RED_MUL, RED_MAX, RED_MIN, RED_COUNT };

static const char *const red_names[] = { "none", "add", "mul", "max", "min", NULL };

/* out[pos] = out[pos] (reduction @red) upd[k], in the type's domain. */
static void reduce_one(void *out, const void *upd, int32_t dt, uint64_t pos, uint64_t k, int red)
{
	if (red == RED_NONE) {
		uint32_t es = ops_esize(dt);

		memcpy(ptr_at(out, pos, es), cptr_at(upd, k, es), es);
	} else if (ops_dt_float(dt)) {
		double a = ops_get_f64(out, dt, (int64_t)pos), u = ops_get_f64(upd, dt, (int64_t)k);

		if (red == RED_ADD)
			a += u;
		else if (red == RED_MUL)
			a *= u;
		else if (red == RED_MAX)
			a = (a >= u || a != a) ? a : u;
		else
			a = (a <= u || a != a) ? a : u;
		ops_store_f64(out, dt, (int64_t)pos, 1, &a, 1);
	} else {
		int64_t a = ops_get_i64(out, dt, (int64_t)pos),
			u = ops_get_i64(upd, dt, (int64_t)k);
		bool un = ops_dt_unsigned(dt), gt = un ? (uint64_t)u > (uint64_t)a : u > a;

		if (red == RED_ADD)
			a = (int64_t)((uint64_t)a + (uint64_t)u);
		else if (red == RED_MUL)
			a = (int64_t)((uint64_t)a * (uint64_t)u);
		else if (red == RED_MAX)
			a = gt ? u : a;
		else
			a = (!gt && u != a) ? u : a;
		ops_store_i64(out, dt, (int64_t)pos, 1, &a, 1);
	}
}

/* The output of a scatter: a copy of the data (in place allowed). */
static void copy_data(const struct ops_call *c, const struct vops_plan *p, const struct ops_bufs *b)
{
	(void)c;
	if (b->out[0] != b->in[0])
		memcpy(b->out[0], b->in[0], p->out[0].bytes);
}

/* ---- ScatterElements --------------------------------------------------------------------- */

static const char *const scatter_el_attrs[] = { "axis", "reduction", NULL };

static enum vops_err scatter_el_parse(struct ops_call *c, const struct vops_attr *attrs,
				      unsigned int n, struct vops_error *err)
{
	int64_t axis, red;
	enum vops_err ret = ops_attr_int(c->def, attrs, n, "axis", 0, &axis, err);

	if (!ret)
		ret = attr_choice(c, attrs, n, "reduction", "none", red_names, &red, err);
	if (!ret) {
		ops_param_i(c, axis);
		ops_param_i(c, red);
	}
	return ret;
}

static enum vops_err scatter_el_infer(const struct ops_call *c, struct vops_plan *p,
				      struct vops_error *err)
{
	const struct vops_tensor *ix = &c->in[1], *u = &c->in[2];
	char a[96], s[96];
	enum vops_err ret;
	int axis;

	ret = ix_params(c, 2, 0, err);
	if (!ret && (c->at.pr.i[1] < 0 || c->at.pr.i[1] >= RED_COUNT))
		ret = ops_fail(err, VOPS_ERR_ATTR,
			       "%s: reduction %" PRId64 " is not one of none, add, "
			       "mul, max, min",
			       c->def->name, c->at.pr.i[1]);
	if (!ret)
		ret = ix_index_type(c, 1, "indices", err);
	if (!ret)
		ret = same_type(c, 2, "updates", err);
	if (!ret)
		ret = need_rank(c, 0, "data", 1, err);
	if (ret)
		return ret;
	if (u->ndim != ix->ndim || memcmp(u->dims, ix->dims, sizeof(*u->dims) * (size_t)u->ndim))
		return ops_fail(err, VOPS_ERR_INPUT,
				"%s: updates %s and indices %s differ in shape", c->def->name,
				vops_shape_str(a, sizeof(a), u->ndim, u->dims),
				vops_shape_str(s, sizeof(s), ix->ndim, ix->dims));
	ret = elements_check(c, &c->in[0], 1, "axis", &axis, err);
	if (!ret)
		ret = set_out(c, p, c->in[0].dtype, c->in[0].ndim, c->in[0].dims, err);
	if (!ret)
		p->in_place = 1;
	return ret;
}

static enum vops_run_status scatter_el_run(const struct ops_call *c, const struct vops_plan *p,
					   const struct ops_bufs *b, struct ops_runner *r)
{
	const struct vops_tensor *x = &c->in[0], *ix = &c->in[1];
	int red = (int)c->at.pr.i[1], axis;
	struct ix_work w = { .r = r };
	struct ix_walk k;
	uint64_t n, j;
	int64_t v;

	ops_axis(c->at.pr.i[0], x->ndim, &axis);
	copy_data(c, p, b);
	walk_init(&k, ix, x, axis);
	n = ix_prod(ix->dims, 0, ix->ndim);
	for (j = 0; j < n; j++, walk_next(&k)) {
		if (!ix_norm(ops_get_i64(b->in[1], ix->dtype, (int64_t)j), x->dims[axis], &v))
			return VOPS_RUN_ARITH;
		reduce_one(b->out[0], b->in[2], x->dtype,
			   k.base + (uint64_t)v * (uint64_t)k.st[axis], j, red);
		if (ix_work(&w, 0))
			return VOPS_RUN_CANCELED;
	}
	return VOPS_RUN_OK;
}

static const struct ops_def def_scatter_elements = {
	.name = "ScatterElements", .id = OPS_ID_INDEX + 3, .nin = 3, .nout = 1,
	.attr_fmt = OPS_AF_PARAMS, .flags = OPS_DEF_MIXED, .dtypes = OPS_DT_ANY,
	.attrs = scatter_el_attrs, .parse = scatter_el_parse, .infer = scatter_el_infer,
	.workspace = ops_ws_none, .run = scatter_el_run,
};

/* ---- TensorScatterUpdate, TensorScatterAdd, TensorScatterMul ------------------------------- */

static const char *const no_attrs[] = { NULL };

static enum vops_err scatter_nd_infer(const struct ops_call *c, struct vops_plan *p,
				      struct vops_error *err)
{
	const struct vops_tensor *u = &c->in[2];
	int64_t dims[VOPS_MAX_RANK];
	char a[96], s[96];
	enum vops_err ret;
	int q = 0, nd = 0;

	ret = ix_params(c, 0, 0, err);
	if (!ret)
		ret = ix_index_type(c, 1, "indices", err);
	if (!ret)
		ret = same_type(c, 2, "updates", err);
	if (!ret)
		ret = nd_check(c, 0, &q, err);
	if (!ret)
		ret = nd_shape(c, 0, q, &nd, dims, err);
	if (ret)
		return ret;
	if (u->ndim != nd || memcmp(u->dims, dims, sizeof(*dims) * (size_t)nd))
		return ops_fail(err, VOPS_ERR_INPUT, "%s: updates %s, the indices and data need %s",
				c->def->name, vops_shape_str(a, sizeof(a), u->ndim, u->dims),
				vops_shape_str(s, sizeof(s), nd, dims));
	ret = set_out(c, p, c->in[0].dtype, c->in[0].ndim, c->in[0].dims, err);
	if (!ret)
		p->in_place = 1;
	return ret;
}

static enum vops_run_status scatter_nd_run(const struct ops_call *c, const struct vops_plan *p,
					   const struct ops_bufs *b, struct ops_runner *r);

static const struct ops_def def_tscatter_update = {
	.name = "TensorScatterUpdate", .id = OPS_ID_INDEX + 4, .nin = 3, .nout = 1,
	.attr_fmt = OPS_AF_PARAMS, .flags = OPS_DEF_MIXED, .dtypes = OPS_DT_ANY, .attrs = no_attrs,
	.infer = scatter_nd_infer, .workspace = ops_ws_none, .run = scatter_nd_run,
};

static const struct ops_def def_tscatter_add = {
	.name = "TensorScatterAdd", .id = OPS_ID_INDEX + 5, .nin = 3, .nout = 1,
	.attr_fmt = OPS_AF_PARAMS, .flags = OPS_DEF_MIXED, .dtypes = OPS_DT_NUM, .attrs = no_attrs,
	.infer = scatter_nd_infer, .workspace = ops_ws_none, .run = scatter_nd_run,
};

static const struct ops_def def_tscatter_mul = {
	.name = "TensorScatterMul", .id = OPS_ID_INDEX + 6, .nin = 3, .nout = 1,
	.attr_fmt = OPS_AF_PARAMS, .flags = OPS_DEF_MIXED, .dtypes = OPS_DT_NUM, .attrs = no_attrs,
	.infer = scatter_nd_infer, .workspace = ops_ws_none, .run = scatter_nd_run,
};

static enum vops_run_status scatter_nd_run(const struct ops_call *c, const struct vops_plan *p,
					   const struct ops_bufs *b, struct ops_runner *r)
{
	const struct vops_tensor *x = &c->in[0], *ix = &c->in[1];
	int q = (int)ix->dims[ix->ndim - 1];
	int red = c->def == &def_tscatter_add ? RED_ADD : c->def == &def_tscatter_mul ? RED_MUL :
		  RED_NONE;
	uint64_t nt = ix_prod(ix->dims, 0, ix->ndim - 1), slice = ix_prod(x->dims, q, x->ndim);
	struct ix_work w = { .r = r };
	uint64_t t, off, e;

	copy_data(c, p, b);
	for (t = 0; t < nt; t++) {
		if (!nd_offset(c, b->in[1], 0, q, 0, t, &off))
			return VOPS_RUN_ARITH;
		for (e = 0; e < slice; e++)
			reduce_one(b->out[0], b->in[2], x->dtype, off + e, t * slice + e, red);
		if (ix_work(&w, slice + (uint64_t)q))
			return VOPS_RUN_CANCELED;
	}
	return VOPS_RUN_OK;
}

/* ---- OneHotD ------------------------------------------------------------------------------ */

static const char *const one_hot_attrs[] = { "depth", "axis", NULL };

static enum vops_err one_hot_parse(struct ops_call *c, const struct vops_attr *attrs,
				   unsigned int n, struct vops_error *err)
{
	int64_t depth, axis;
	enum vops_err ret = attr_int_req(c, attrs, n, "depth", &depth, err);

	if (!ret)
		ret = ops_attr_int(c->def, attrs, n, "axis", -1, &axis, err);
	if (!ret) {
		ops_param_i(c, depth);
		ops_param_i(c, axis);
	}
	return ret;
}

static enum vops_err one_hot_infer(const struct ops_call *c, struct vops_plan *p,
				   struct vops_error *err)
{
	const struct vops_tensor *x = &c->in[0];
	int64_t dims[VOPS_MAX_RANK], depth = c->at.pr.i[0];
	enum vops_err ret;
	uint64_t n;
	int axis, d, i;

	ret = ix_params(c, 2, 0, err);
	if (ret)
		return ret;
	if (depth < 0 || (uint64_t)depth > VOPS_MAX_DIM)
		return ops_fail(err, VOPS_ERR_ATTR,
				"%s: attribute depth %" PRId64 " is out of range "
				"(0 to 2^31)",
				c->def->name, depth);
	if (x->ndim >= VOPS_MAX_RANK)
		return ops_fail(err, VOPS_ERR_INPUT, "%s: x has rank %d (less than %d)",
				c->def->name, x->ndim, VOPS_MAX_RANK);
	if (!ops_axis(c->at.pr.i[1], x->ndim + 1, &axis))
		return ops_fail(err, VOPS_ERR_ATTR,
				"%s: attribute axis %" PRId64 " is out of range for "
				"rank %d",
				c->def->name, c->at.pr.i[1], x->ndim + 1);
	for (i = 1; i < 3; i++) {
		if (!(ops_dtype_bit(c->in[i].dtype) & OPS_DT_ANY))
			return ops_fail(err, VOPS_ERR_DTYPE, "%s on values of %s is not supported",
					c->def->name, vops_dtype_name(c->in[i].dtype));
		if (!ops_count(&c->in[i], &n) || n != 1)
			return ops_fail(err, VOPS_ERR_INPUT,
					"%s: %s (input %d) must have one element", c->def->name,
					i == 1 ? "on_value" : "off_value", i);
	}
	if (c->in[2].dtype != c->in[1].dtype)
		return ops_fail(err, VOPS_ERR_INPUT, "%s: on_value is %s, off_value %s",
				c->def->name, vops_dtype_name(c->in[1].dtype),
				vops_dtype_name(c->in[2].dtype));
	for (d = 0, i = 0; d <= x->ndim; d++)
		dims[d] = d == axis ? depth : x->dims[i++];
	return set_out(c, p, c->in[1].dtype, x->ndim + 1, dims, err);
}

static enum vops_run_status one_hot_run(const struct ops_call *c, const struct vops_plan *p,
					const struct ops_bufs *b, struct ops_runner *r)
{
	const struct vops_tensor *x = &c->in[0];
	int64_t depth = c->at.pr.i[0], v;
	uint32_t es = ops_esize(p->out[0].dtype);
	struct ix_work w = { .r = r };
	uint64_t outer, inner, o, i;
	int axis;

	ops_axis(c->at.pr.i[1], x->ndim + 1, &axis);
	outer = ix_prod(x->dims, 0, axis);
	inner = ix_prod(x->dims, axis, x->ndim);
	for (o = 0; o < outer; o++) {
		ops_fill(ptr_at(b->out[0], o * (uint64_t)depth * inner, es),
			 (uint64_t)depth * inner, b->in[2], es);
		for (i = 0; i < inner; i++) {
			/* Out of range (after wrapping negatives): all off. */
			if (ix_norm(ops_get_i64(b->in[0], x->dtype, (int64_t)(o * inner + i)),
				    depth, &v))
				memcpy(ptr_at(b->out[0],
					      (o * (uint64_t)depth + (uint64_t)v) * inner + i, es),
				       b->in[1], es);
		}
		if (ix_work(&w, (uint64_t)depth * inner + inner))
			return VOPS_RUN_CANCELED;
	}
	return VOPS_RUN_OK;
}

static const struct ops_def def_one_hot_d = {
	.name = "OneHotD",
	.id = OPS_ID_INDEX + 7,
	.nin = 3,
	.nout = 1,
	.attr_fmt = OPS_AF_PARAMS,
	.flags = OPS_DEF_MIXED,
	.dtypes = OPS_DT_NUM,
	.attrs = one_hot_attrs,
	.parse = one_hot_parse,
	.infer = one_hot_infer,
	.workspace = ops_ws_none,
	.run = one_hot_run,
};

/* ---- Tril, Triu ------------------------------------------------------------------------------ */

static const char *const tri_attrs[] = { "diagonal", NULL };

static enum vops_err tri_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
			       struct vops_error *err)
{
	int64_t k;
	enum vops_err ret = ops_attr_int(c->def, attrs, n, "diagonal", 0, &k, err);

	if (!ret)
		ops_param_i(c, k);
	return ret;
}

static enum vops_err tri_infer(const struct ops_call *c, struct vops_plan *p,
			       struct vops_error *err)
{
	enum vops_err ret = ix_params(c, 1, 0, err);

	if (!ret)
		ret = need_rank(c, 0, "x", 2, err);
	if (!ret)
		ret = set_out(c, p, c->in[0].dtype, c->in[0].ndim, c->in[0].dims, err);
	if (!ret)
		p->in_place = 1;
	return ret;
}

static const struct ops_def def_triu;

/* Keeps j - i >= k (Triu) or j - i <= k (Tril) of every matrix, zeroes the rest. */
static enum vops_run_status tri_run(const struct ops_call *c, const struct vops_plan *p,
				    const struct ops_bufs *b, struct ops_runner *r)
{
	const struct vops_tensor *x = &c->in[0];
	int64_t h = x->dims[x->ndim - 2], wd = x->dims[x->ndim - 1], k = c->at.pr.i[0], i, lo, hi;
	uint64_t nm = ix_prod(x->dims, 0, x->ndim - 2), m;
	uint32_t es = ops_esize(x->dtype);
	bool upper = c->def == &def_triu;
	struct ix_work w = { .r = r };

	(void)p;
	/* Beyond +-(h + w) every k means the same. */
	if (k > h + wd)
		k = h + wd;
	if (k < -(h + wd))
		k = -(h + wd);
	for (m = 0; m < nm; m++)
		for (i = 0; i < h; i++) {
			uint64_t row = (m * (uint64_t)h + (uint64_t)i) * (uint64_t)wd;
			char *o = ptr_at(b->out[0], row, es);
			const char *s = cptr_at(b->in[0], row, es);

			/* The kept columns are [lo, hi). */
			lo = upper ? i + k : 0;
			hi = upper ? wd : i + k + 1;
			lo = lo < 0 ? 0 : lo > wd ? wd : lo;
			hi = hi < lo ? lo : hi > wd ? wd : hi;
			memset(o, 0, (size_t)lo * es);
			memmove(o + lo * es, s + lo * es, (size_t)(hi - lo) * es);
			memset(o + hi * es, 0, (size_t)(wd - hi) * es);
			if (ix_work(&w, (uint64_t)wd))
				return VOPS_RUN_CANCELED;
		}
	return VOPS_RUN_OK;
}

static const struct ops_def def_tril = {
	.name = "Tril", .id = OPS_ID_INDEX + 8, .nin = 1, .nout = 1, .attr_fmt = OPS_AF_PARAMS,
	.dtypes = OPS_DT_ANY, .attrs = tri_attrs, .parse = tri_parse, .infer = tri_infer,
	.workspace = ops_ws_none, .run = tri_run,
};

static const struct ops_def def_triu = {
	.name = "Triu", .id = OPS_ID_INDEX + 9, .nin = 1, .nout = 1, .attr_fmt = OPS_AF_PARAMS,
	.dtypes = OPS_DT_ANY, .attrs = tri_attrs, .parse = tri_parse, .infer = tri_infer,
	.workspace = ops_ws_none, .run = tri_run,
};

/* ---- DepthToSpace, SpaceToDepth ------------------------------------------------- */

static const char *const d2s_attrs[] = { "block_size", "mode", "data_format", NULL };
static const char *const s2d_attrs[] = { "block_size", "data_format", NULL };
static const char *const d2s_modes[] = { "DCR", "CRD", NULL };
static const char *const formats[] = { "NCHW", "NHWC", NULL };

static const struct ops_def def_depth_to_space;

static enum vops_err block_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
				 struct vops_error *err)
{
	int64_t bs, mode = 0, fmt;
	enum vops_err ret = attr_int_req(c, attrs, n, "block_size", &bs, err);

	if (!ret && c->def == &def_depth_to_space)
		ret = attr_choice(c, attrs, n, "mode", "DCR", d2s_modes, &mode, err);
	if (!ret)
		ret = attr_choice(c, attrs, n, "data_format", "NHWC", formats, &fmt, err);
	if (!ret) {
		ops_param_i(c, bs);
		ops_param_i(c, mode);
		ops_param_i(c, fmt);
	}
	return ret;
}

/*
 * Both as one 6-D strided copy: the output seen as @od (6 dims) reads the
 * input at strides @st. DepthToSpace NCHW out [N, C', H, b, W, b], NHWC
 * [N, H, b, W, b, C']; SpaceToDepth NCHW [N, b, b, C, H', W'], NHWC
 * [N, H', W', b, b, C].
 */
static void block_layout(const struct ops_call *c, int64_t *od, int64_t *st)
{
	const int64_t *x = c->in[0].dims;
	int64_t bs = c->at.pr.i[0], mode = c->at.pr.i[1];
	bool nhwc = c->at.pr.i[2] == 1, d2s = c->def == &def_depth_to_space;
	int64_t n = x[0], ch = nhwc ? x[3] : x[1], h = nhwc ? x[1] : x[2], w = nhwc ? x[2] : x[3];
	int64_t cs = nhwc ? 1 : h * w, hs = nhwc ? w * ch : w, ws = nhwc ? ch : 1, nst = ch * h * w;

	if (d2s) {
		int64_t co = ch / (bs * bs);
		/* Input channel of (c', i, j): DCR (i * b + j) * C' + c',
		 * CRD c' * b * b + i * b + j. */
		int64_t sc = mode ? bs * bs * cs : cs, si = mode ? bs * cs : bs * co * cs;
		int64_t sj = mode ? cs : co * cs;
		int64_t o6[6] = { n, co, h, bs, w, bs }, s6[6] = { nst, sc, hs, si, ws, sj };
		int64_t o6h[6] = { n, h, bs, w, bs, co }, s6h[6] = { nst, hs, si, ws, sj, sc };

		memcpy(od, nhwc ? o6h : o6, sizeof(o6));
		memcpy(st, nhwc ? s6h : s6, sizeof(s6));
	} else {
		/* Output channel (i * b + j) * C + c reads row h' * b + i, column w' * b + j. */
		int64_t o6[6] = { n, bs, bs, ch, h / bs, w / bs };
		int64_t s6[6] = { nst, hs, ws, cs, bs * hs, bs * ws };
		int64_t o6h[6] = { n, h / bs, w / bs, bs, bs, ch };
		int64_t s6h[6] = { nst, bs * hs, bs * ws, hs, ws, cs };

		memcpy(od, nhwc ? o6h : o6, sizeof(o6));
		memcpy(st, nhwc ? s6h : s6, sizeof(s6));
	}
}

static enum vops_err block_infer(const struct ops_call *c, struct vops_plan *p,
				 struct vops_error *err)
{
	const struct vops_tensor *x = &c->in[0];
	bool d2s = c->def == &def_depth_to_space;
	int64_t bs = c->at.pr.i[0], dims[4], ch, h, w;
	enum vops_err ret = ix_params(c, 3, 0, err);
	bool nhwc;

	if (ret)
		return ret;
	if (bs < 1 || bs > (1 << 20) || c->at.pr.i[1] < 0 || c->at.pr.i[1] > 1 ||
	    c->at.pr.i[2] < 0 || c->at.pr.i[2] > 1 || (!d2s && c->at.pr.i[1]))
		return ops_fail(err, VOPS_ERR_ATTR, "%s: block_size %" PRId64 " (1 to 2^20), mode %"
				PRId64 " or data_format %" PRId64 " is invalid", c->def->name, bs,
				c->at.pr.i[1], c->at.pr.i[2]);
	if (x->ndim != 4)
		return ops_fail(err, VOPS_ERR_INPUT, "%s: x has rank %d (4)", c->def->name,
				x->ndim);
	nhwc = c->at.pr.i[2] == 1;
	ch = nhwc ? x->dims[3] : x->dims[1];
	h = nhwc ? x->dims[1] : x->dims[2];
	w = nhwc ? x->dims[2] : x->dims[3];
	if (d2s ? ch % (bs * bs) : (h % bs || w % bs))
		return ops_fail(err, VOPS_ERR_INPUT,
				"%s: %s of x (%" PRId64 ", %" PRId64 ", %" PRId64
				") not divisible by block_size %" PRId64,
				c->def->name, d2s ? "channels" : "height or width", ch, h, w, bs);
	if (d2s) {
		uint64_t hb, wb;

		if (!ops_mul((uint64_t)h, (uint64_t)bs, &hb) || hb > VOPS_MAX_BYTES ||
		    !ops_mul((uint64_t)w, (uint64_t)bs, &wb) || wb > VOPS_MAX_BYTES)
			return ops_too_large(c->def, err);
		ch /= bs * bs;
		h *= bs;
		w *= bs;
	} else {
		uint64_t cb;

		if (!ops_mul((uint64_t)ch, (uint64_t)(bs * bs), &cb) || cb > VOPS_MAX_BYTES)
			return ops_too_large(c->def, err);
		ch *= bs * bs;
		h /= bs;
		w /= bs;
	}
	dims[0] = x->dims[0];
	dims[nhwc ? 3 : 1] = ch;
	dims[nhwc ? 1 : 2] = h;
	dims[nhwc ? 2 : 3] = w;
	return set_out(c, p, x->dtype, 4, dims, err);
}

static enum vops_run_status block_run(const struct ops_call *c, const struct vops_plan *p,
				      const struct ops_bufs *b, struct ops_runner *r)
{
	int64_t od[6], st[6];

	(void)p;
	block_layout(c, od, st);
	return ops_copy_run(b->out[0], NULL, 0, b->in[0], st, 0, 6, od, ops_esize(c->in[0].dtype),
			    r);
}

static const struct ops_def def_depth_to_space = {
	.name = "DepthToSpace", .id = OPS_ID_INDEX + 10, .nin = 1, .nout = 1,
	.attr_fmt = OPS_AF_PARAMS, .dtypes = OPS_DT_ANY, .attrs = d2s_attrs, .parse = block_parse,
	.infer = block_infer, .workspace = ops_ws_none, .run = block_run,
};

static const struct ops_def def_space_to_depth = {
	.name = "SpaceToDepth", .id = OPS_ID_INDEX + 11, .nin = 1, .nout = 1,
	.attr_fmt = OPS_AF_PARAMS, .dtypes = OPS_DT_ANY, .attrs = s2d_attrs, .parse = block_parse,
	.infer = block_infer, .workspace = ops_ws_none, .run = block_run,
};

/* Index i holds id OPS_ID_INDEX + i; append only. */
const struct ops_def *const ops_index_defs[] = {
	&def_gather_v2d,
	&def_gather_elements,
	&def_gather_nd,
	&def_scatter_elements,
	&def_tscatter_update,
	&def_tscatter_add,
	&def_tscatter_mul,
	&def_one_hot_d,
	&def_tril,
	&def_triu,
	&def_depth_to_space,
	&def_space_to_depth,
	&ops_index_resize_d,
	NULL,
};
