// SPDX-License-Identifier: MIT
/*
 * op_move.c - data movement (the move family): shapes, views,
 * concatenation, splitting, slicing, broadcasting, tiling, padding, shape
 * queries, fills, ranges and strided stores (ViewCopyD).
 *
 * Every operator here moves elements without looking at them (copies by
 * element size), so every type lib/ops takes works; only RangeD computes,
 * and ViewCopyD converts types as Cast does.
 * All of them read their inputs through their views (OPS_DEF_STRIDED): a
 * transpose, a slice or a broadcast is a strided copy (ops_copy_run, or
 * mv_copy's typed tiles for 2-D transposes). Shape-defining values are
 * attributes (CANN's "D" forms; Reshape's shape is a vnpu extension), and
 * each operator's canonical parameters are the resolved values (output
 * dimensions, start/step/count per axis, ...), which infer checks in full,
 * since a descriptor may bring any.
 */
#include <math.h>
#include <string.h>

#include "ops_int.h"

static const char *const no_attrs[] = { NULL };

/* ---- shared helpers ----------------------------------------------------------- */

/* The call's parameters must be @ni ints and @nf floats. */
static enum vops_err want_params(const struct ops_call *c, uint32_t ni, uint32_t nf,
				 struct vops_error *err)
{
	if (c->at.pr.ni != ni || c->at.pr.nf != nf)
		return ops_fail(err, VOPS_ERR_ATTR,
				"%s: %u int and %u float parameters (%u and %u)", c->def->name,
				c->at.pr.ni, c->at.pr.nf, ni, nf);
	return VOPS_OK;
}

/* Append @n ints to the call's parameters. */
static enum vops_err put_params(struct ops_call *c, const int64_t *v, int n, struct vops_error *err)
{
	int k;

	for (k = 0; k < n; k++)
		if (!ops_param_i(c, v[k]))
			return ops_fail(err, VOPS_ERR_ATTR, "%s: too many parameters",
					c->def->name);
	return VOPS_OK;
}

/* Elements of a shape, false on overflow. */
static bool shape_count(int ndim, const int64_t *dims, uint64_t *n)
{
	int d;

	*n = 1;
	for (d = 0; d < ndim; d++)
		if (dims[d] < 0 || !ops_mul(*n, (uint64_t)dims[d], n))
			return false;
	return true;
}

/*
 * Output 0 of input 0's type and shape @dims; every input's dense size;
 * empty when it has no element; input 0 in place when @in_place (the
 * output is the input's elements in their order).
 */
static enum vops_err out_dense(const struct ops_call *c, struct vops_plan *p, int ndim,
			       const int64_t *dims, bool in_place, struct vops_error *err)
{
	enum vops_err ret = ops_set_out_n(c, p, 0, c->in[0].dtype, ndim, dims, err);
	uint64_t n;
	int i;

	for (i = 0; !ret && i < c->nin; i++)
		ret = ops_set_in_dense(c, p, i, err);
	if (ret)
		return ret;
	if (!shape_count(ndim, dims, &n))
		return ops_too_large(c->def, err);
	p->empty = n == 0;
	if (in_place)
		p->in_place = 1;
	return VOPS_OK;
}

/* Store element @s (of @es bytes) at @d. */
static inline void put_elem(char *d, const char *s, uint32_t es)
{
	switch (es) {
	case 1: *d = *s; break;
	case 2: memcpy(d, s, 2); break;
	case 4: memcpy(d, s, 4); break;
	case 8: memcpy(d, s, 8); break;
	default: memcpy(d, s, es); break;
	}
}

/* Tile of a 2-D transposing copy, in elements: 8 x 8 for 4- and 8-byte
 * elements (fastest by measurement on a 1024 x 1024 fp32 transpose), up to
 * 32 x 32 for bytes so that a tile row still spans part of a cache line. */
static inline int64_t mv_tile(uint32_t es)
{
	return es >= 4 ? 8 : 32 / es;
}

#define MV_TRANSPOSE_TILE(T)							\
	do {									\
		T *restrict dt = (T *)db;					\
		const T *restrict stp = (const T *)sb;				\
		for (i = i0; i < ie; i++)					\
			for (j = j0; j < je; j++)				\
				dt[i * ds_r + j] = stp[i + j * ss_c];		\
	} while (0)

/*
 * Copy shape @dims of @es-byte elements from @src (element strides @sst,
 * start @soff) to dense @dst. 2-D transposes (the source's unit stride on
 * the destination's rows) go by tiles with typed element moves; everything
 * else through ops_copy_run(). OK or CANCELED.
 */
static enum vops_run_status mv_copy(void *dst, const void *src, const int64_t *sst, int64_t soff,
				    int ndim, const int64_t *dims, uint32_t es,
				    struct ops_runner *r)
{
	int64_t dense[VOPS_MAX_RANK], s = 1, off0[2] = { 0, soff };
	const int64_t *st[2] = { dense, sst };
	struct ops_iter it;
	uint64_t outer, o, done = OPS_EW_CHUNK;
	int64_t rows, cols, ds_r, ss_c, i0, j0, i, j;
	int64_t tile = mv_tile(es);
	int d, n;

	for (d = ndim - 1; d >= 0; d--) {
		dense[d] = s;
		s *= dims[d];
	}
	ops_iter_init(&it, ndim, dims, 2, st, off0);
	n = it.ndim;
	if (!it.rows)
		return VOPS_RUN_OK;
	/* One long row (a dense copy): in chunks, asking between them. */
	if (n == 1 && it.dims[0] > (int64_t)OPS_EW_CHUNK) {
		struct ops_runner quiet = { .ctl = NULL, .started = false };
		int64_t at, k, one;

		for (at = 0; at < it.dims[0]; at += k) {
			if (at && ops_should_stop(r))
				return VOPS_RUN_CANCELED;
			k = (int64_t)ops_min((uint64_t)(it.dims[0] - at), OPS_EW_CHUNK);
			one = it.st[1][0];
			ops_copy_run((char *)dst + at * (int64_t)es, NULL, 0, src, &one,
				     soff + at * one, 1, &k, es, &quiet);
		}
		return VOPS_RUN_OK;
	}
	if (n < 2 || it.st[0][n - 1] != 1 || it.st[1][n - 1] == 1 || it.st[1][n - 2] != 1 ||
	    (es != 1 && es != 2 && es != 4 && es != 8))
		return ops_copy_run(dst, NULL, 0, src, sst, soff, ndim, dims, es, r);
	rows = it.dims[n - 2];
	cols = it.dims[n - 1];
	ds_r = it.st[0][n - 2];
	ss_c = it.st[1][n - 1];
	outer = it.rows / (uint64_t)rows;
	for (o = 0; o < outer; o++) {
		char *db = (char *)dst + it.off[0] * (int64_t)es;
		const char *sb = (const char *)src + it.off[1] * (int64_t)es;

		for (i0 = 0; i0 < rows; i0 += tile) {
			int64_t ie = i0 + tile < rows ? i0 + tile : rows;

			if (done >= OPS_EW_CHUNK) {
				if (ops_should_stop(r))
					return VOPS_RUN_CANCELED;
				done = 0;
			}
			for (j0 = 0; j0 < cols; j0 += tile) {
				int64_t je = j0 + tile < cols ? j0 + tile : cols;

				switch (es) {
				case 1: MV_TRANSPOSE_TILE(uint8_t); break;
				case 2: MV_TRANSPOSE_TILE(uint16_t); break;
				case 4: MV_TRANSPOSE_TILE(uint32_t); break;
				default: MV_TRANSPOSE_TILE(uint64_t); break;
				}
			}
			done += (uint64_t)(tile * cols);
		}
		/* On to the next 2-D slab. */
		for (i = 0; i < rows; i++)
			if (!ops_iter_next(&it))
				return VOPS_RUN_OK;
	}
	return VOPS_RUN_OK;
}

/* Input @i through its view, in row-major order, into dense @dst. */
static enum vops_run_status copy_input(const struct ops_call *c, const struct ops_bufs *b, int i,
				       void *dst, struct ops_runner *r)
{
	const struct vops_tensor *t = &c->in[i];
	int64_t st[VOPS_MAX_RANK];

	ops_strides(t, st);
	return mv_copy(dst, b->in[i], st, t->offset, t->ndim, t->dims, ops_esize(t->dtype), r);
}

/* Run of the operators whose output is input 0's elements in order. */
static enum vops_run_status same_order_run(const struct ops_call *c, const struct vops_plan *p,
					   const struct ops_bufs *b, struct ops_runner *r)
{
	(void)p;
	return copy_input(c, b, 0, b->out[0], r);
}

/* The output shape is the parameters (Reshape, ExpandD, FillD): at most
 * VOPS_MAX_RANK dimensions, none negative. */
static enum vops_err dims_params(const struct ops_call *c, struct vops_error *err)
{
	uint32_t k;

	if (c->at.pr.nf || c->at.pr.ni > VOPS_MAX_RANK)
		return ops_fail(err, VOPS_ERR_ATTR,
				"%s: %u int and %u float parameters (a shape of "
				"at most %d dimensions)",
				c->def->name, c->at.pr.ni, c->at.pr.nf, VOPS_MAX_RANK);
	for (k = 0; k < c->at.pr.ni; k++)
		if (c->at.pr.i[k] < 0)
			return ops_fail(err, VOPS_ERR_ATTR, "%s: output dimension %u is %lld",
					c->def->name, k, (long long)c->at.pr.i[k]);
	return VOPS_OK;
}

/* ---- Reshape (vnpu extension: the shape as an attribute) ------------------------- */

static const char *const reshape_attrs[] = { "shape", "axis", "num_axes", "allowzero", NULL };

/*
 * CANN's Reshape: dimensions [axis, axis + num_axes) of the input (all by
 * default) become @shape, where 0 copies the input's dimension at that
 * place (unless allowzero) and one -1 takes what is left.
 */
static enum vops_err reshape_parse(struct ops_call *c, const struct vops_attr *attrs,
				   unsigned int n, struct vops_error *err)
{
	const struct vops_tensor *x = &c->in[0];
	const struct ops_def *def = c->def;
	int64_t shape[VOPS_MAX_RANK], out[VOPS_MAX_RANK], axis, num, zero, v;
	int ns, r = x->ndim, k = 0, j, d, neg = -1;
	uint64_t known = 1, cnt;
	enum vops_err ret;

	ret = ops_attr_ints(def, attrs, n, "shape", true, shape, VOPS_MAX_RANK, &ns, err);
	if (!ret)
		ret = ops_attr_int(def, attrs, n, "axis", 0, &axis, err);
	if (!ret)
		ret = ops_attr_int(def, attrs, n, "num_axes", -1, &num, err);
	if (!ret)
		ret = ops_attr_int(def, attrs, n, "allowzero", 0, &zero, err);
	if (ret)
		return ret;
	if (axis < 0)
		axis += r + 1;
	if (axis < 0 || axis > r)
		return ops_fail(err, VOPS_ERR_ATTR,
				"Reshape: attribute axis is out of range for rank %d", r);
	if (num == -1)
		num = r - axis;
	if (num < 0 || num > r - axis)
		return ops_fail(err, VOPS_ERR_ATTR,
				"Reshape: attribute num_axes %lld is out of range "
				"(axis %lld, rank %d)",
				(long long)num, (long long)axis, r);
	if (r - num + ns > VOPS_MAX_RANK)
		return ops_fail(err, VOPS_ERR_ATTR, "Reshape: the output would have more than %d "
				"dimensions", VOPS_MAX_RANK);
	for (d = 0; d < axis; d++)
		out[k++] = x->dims[d];
	for (j = 0; j < ns; j++) {
		v = shape[j];
		if (v == 0 && !zero) {
			if (axis + j >= r)
				return ops_fail(err, VOPS_ERR_ATTR,
						"Reshape: attribute shape[%d] is 0 "
						"(copy) but the input has no dimension %lld",
						j, (long long)(axis + j));
			v = x->dims[axis + j];
		} else if (v == -1) {
			if (neg >= 0)
				return ops_fail(err, VOPS_ERR_ATTR,
						"Reshape: attribute shape has more "
						"than one -1");
			neg = k;
			v = 1;
		} else if (v < 0) {
			return ops_fail(err, VOPS_ERR_ATTR, "Reshape: attribute shape[%d] is %lld",
					j, (long long)v);
		}
		out[k++] = v;
	}
	for (d = (int)(axis + num); d < r; d++)
		out[k++] = x->dims[d];
	for (d = 0; d < k; d++)
		if (!ops_mul(known, (uint64_t)out[d], &known))
			return ops_too_large(def, err);
	if (!ops_count(x, &cnt))
		return ops_too_large(def, err);
	if (neg >= 0) {
		if (!known || cnt % known)
			return ops_fail(err, VOPS_ERR_ATTR,
					"Reshape: attribute shape's -1 cannot be "
					"inferred (%llu elements, %llu known)",
					(unsigned long long)cnt, (unsigned long long)known);
		out[neg] = (int64_t)(cnt / known);
	}
	return put_params(c, out, k, err);
}

static enum vops_err reshape_infer(const struct ops_call *c, struct vops_plan *p,
				   struct vops_error *err)
{
	uint64_t n, cnt;
	char a[96], b[96];
	enum vops_err ret = dims_params(c, err);

	if (ret)
		return ret;
	if (!shape_count((int)c->at.pr.ni, c->at.pr.i, &n) || !ops_count(&c->in[0], &cnt))
		return ops_too_large(c->def, err);
	if (n != cnt)
		return ops_fail(err, VOPS_ERR_INPUT,
				"%s: shape %s has %llu elements, the input %s %llu", c->def->name,
				vops_shape_str(a, sizeof(a), (int)c->at.pr.ni, c->at.pr.i),
				(unsigned long long)n,
				vops_shape_str(b, sizeof(b), c->in[0].ndim, c->in[0].dims),
				(unsigned long long)cnt);
	return out_dense(c, p, (int)c->at.pr.ni, c->at.pr.i, true, err);
}

static const struct ops_def def_reshape = {
	.name = "Reshape",
	.id = OPS_ID_MOVE + 0,
	.nin = 1,
	.nout = 1,
	.attr_fmt = OPS_AF_PARAMS,
	.flags = OPS_DEF_STRIDED,
	.dtypes = OPS_DT_ANY,
	.attrs = reshape_attrs,
	.parse = reshape_parse,
	.infer = reshape_infer,
	.workspace = ops_ws_none,
	.run = same_order_run,
};

/* ---- Flatten ---------------------------------------------------------------- */

static const char *const flatten_attrs[] = { "axis", NULL };

static enum vops_err flatten_parse(struct ops_call *c, const struct vops_attr *attrs,
				   unsigned int n, struct vops_error *err)
{
	int r = c->in[0].ndim;
	int64_t axis;
	enum vops_err ret = ops_attr_int(c->def, attrs, n, "axis", 1, &axis, err);

	if (ret)
		return ret;
	if (axis < -(int64_t)r || axis > r)
		return ops_fail(err, VOPS_ERR_ATTR,
				"Flatten: attribute axis %lld is out of range for "
				"rank %d",
				(long long)axis, r);
	ops_param_i(c, axis < 0 ? axis + r : axis);
	return VOPS_OK;
}

static enum vops_err flatten_infer(const struct ops_call *c, struct vops_plan *p,
				   struct vops_error *err)
{
	const struct vops_tensor *x = &c->in[0];
	uint64_t lo = 1, hi = 1;
	int64_t dims[2], axis;
	int d;
	enum vops_err ret = want_params(c, 1, 0, err);

	if (ret)
		return ret;
	axis = c->at.pr.i[0];
	if (axis < 0 || axis > x->ndim)
		return ops_fail(err, VOPS_ERR_ATTR,
				"Flatten: axis %lld is out of range for rank %d", (long long)axis,
				x->ndim);
	for (d = 0; d < x->ndim; d++)
		if (!ops_mul(d < axis ? lo : hi, (uint64_t)x->dims[d], d < axis ? &lo : &hi))
			return ops_too_large(c->def, err);
	if (lo > INT64_MAX || hi > INT64_MAX)
		return ops_too_large(c->def, err);
	dims[0] = (int64_t)lo;
	dims[1] = (int64_t)hi;
	return out_dense(c, p, 2, dims, true, err);
}

static const struct ops_def def_flatten = {
	.name = "Flatten",
	.id = OPS_ID_MOVE + 1,
	.nin = 1,
	.nout = 1,
	.attr_fmt = OPS_AF_PARAMS,
	.flags = OPS_DEF_STRIDED,
	.dtypes = OPS_DT_ANY,
	.attrs = flatten_attrs,
	.parse = flatten_parse,
	.infer = flatten_infer,
	.workspace = ops_ws_none,
	.run = same_order_run,
};

/* ---- Squeeze, Unsqueeze ------------------------------------------------------------ */

/*
 * Axes attribute @name of rank @rank, normalised, each once, as sorted
 * parameters.
 */
static enum vops_err axes_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
				const char *name, int rank, int extra, struct vops_error *err)
{
	int64_t v[VOPS_MAX_RANK];
	bool seen[VOPS_MAX_RANK] = { false };
	int cnt, k, a;
	enum vops_err ret =
		ops_attr_ints(c->def, attrs, n, name, false, v, VOPS_MAX_RANK, &cnt, err);

	if (ret)
		return ret;
	if (extra && cnt > 0)
		rank += cnt;
	if (rank > VOPS_MAX_RANK)
		return ops_fail(err, VOPS_ERR_ATTR,
				"%s: the output would have more than %d dimensions", c->def->name,
				VOPS_MAX_RANK);
	for (k = 0; k < cnt; k++) {
		if (!ops_axis(v[k], rank, &a))
			return ops_fail(err, VOPS_ERR_ATTR,
					"%s: attribute %s has the axis %lld, out of "
					"range for rank %d",
					c->def->name, name, (long long)v[k], rank);
		if (seen[a])
			return ops_fail(err, VOPS_ERR_ATTR,
					"%s: attribute %s has the axis %d twice", c->def->name,
					name, a);
		seen[a] = true;
	}
	for (a = 0; a < rank; a++)
		if (seen[a])
			ops_param_i(c, a);
	return VOPS_OK;
}

/* Parameters: strictly increasing axes in [0, @rank). */
static enum vops_err axes_check(const struct ops_call *c, int rank, struct vops_error *err)
{
	uint32_t k;

	if (c->at.pr.nf || c->at.pr.ni > (uint32_t)rank)
		return ops_fail(err, VOPS_ERR_ATTR,
				"%s: %u int and %u float parameters (at most %d "
				"axes)",
				c->def->name, c->at.pr.ni, c->at.pr.nf, rank);
	for (k = 0; k < c->at.pr.ni; k++)
		if (c->at.pr.i[k] < 0 || c->at.pr.i[k] >= rank ||
		    (k && c->at.pr.i[k] <= c->at.pr.i[k - 1]))
			return ops_fail(err, VOPS_ERR_ATTR,
					"%s: the axes are not increasing within "
					"rank %d",
					c->def->name, rank);
	return VOPS_OK;
}

static const char *const squeeze_attrs[] = { "axis", NULL };

static enum vops_err squeeze_parse(struct ops_call *c, const struct vops_attr *attrs,
				   unsigned int n, struct vops_error *err)
{
	return axes_parse(c, attrs, n, "axis", c->in[0].ndim, 0, err);
}

/* No axes: every dimension of 1. */
static enum vops_err squeeze_infer(const struct ops_call *c, struct vops_plan *p,
				   struct vops_error *err)
{
	const struct vops_tensor *x = &c->in[0];
	int64_t dims[VOPS_MAX_RANK];
	uint32_t k = 0;
	int d, nd = 0;
	enum vops_err ret = axes_check(c, x->ndim, err);

	if (ret)
		return ret;
	for (d = 0; d < x->ndim; d++) {
		bool drop = c->at.pr.ni ? k < c->at.pr.ni && c->at.pr.i[k] == d : x->dims[d] == 1;

		if (drop && x->dims[d] != 1)
			return ops_fail(err, VOPS_ERR_INPUT,
					"Squeeze: axis %d has the dimension %lld, "
					"not 1",
					d, (long long)x->dims[d]);
		if (drop && c->at.pr.ni)
			k++;
		if (!drop)
			dims[nd++] = x->dims[d];
	}
	return out_dense(c, p, nd, dims, true, err);
}

static const struct ops_def def_squeeze = {
	.name = "Squeeze",
	.id = OPS_ID_MOVE + 2,
	.nin = 1,
	.nout = 1,
	.attr_fmt = OPS_AF_PARAMS,
	.flags = OPS_DEF_STRIDED,
	.dtypes = OPS_DT_ANY,
	.attrs = squeeze_attrs,
	.parse = squeeze_parse,
	.infer = squeeze_infer,
	.workspace = ops_ws_none,
	.run = same_order_run,
};

static const char *const unsqueeze_attrs[] = { "axes", NULL };

static enum vops_err unsqueeze_parse(struct ops_call *c, const struct vops_attr *attrs,
				     unsigned int n, struct vops_error *err)
{
	return axes_parse(c, attrs, n, "axes", c->in[0].ndim, 1, err);
}

/* The axes are the output's new dimensions of 1. */
static enum vops_err unsqueeze_infer(const struct ops_call *c, struct vops_plan *p,
				     struct vops_error *err)
{
	const struct vops_tensor *x = &c->in[0];
	int64_t dims[VOPS_MAX_RANK];
	int rank = x->ndim + (int)c->at.pr.ni, d, s = 0;
	uint32_t k = 0;
	enum vops_err ret;

	if (c->at.pr.ni > VOPS_MAX_RANK || rank > VOPS_MAX_RANK)
		return ops_fail(err, VOPS_ERR_ATTR, "Unsqueeze: the output would have more than %d "
				"dimensions", VOPS_MAX_RANK);
	ret = axes_check(c, rank, err);
	if (ret)
		return ret;
	for (d = 0; d < rank; d++) {
		if (k < c->at.pr.ni && c->at.pr.i[k] == d) {
			dims[d] = 1;
			k++;
		} else {
			dims[d] = x->dims[s++];
		}
	}
	return out_dense(c, p, rank, dims, true, err);
}

static const struct ops_def def_unsqueeze = {
	.name = "Unsqueeze", .id = OPS_ID_MOVE + 3, .nin = 1, .nout = 1, .attr_fmt = OPS_AF_PARAMS,
	.flags = OPS_DEF_STRIDED, .dtypes = OPS_DT_ANY, .attrs = unsqueeze_attrs,
	.parse = unsqueeze_parse, .infer = unsqueeze_infer, .workspace = ops_ws_none,
	.run = same_order_run,
};

/* ---- TransposeD ---------------------------------------------------------------- */

static const char *const transpose_attrs[] = { "perm", NULL };

static enum vops_err transpose_parse(struct ops_call *c, const struct vops_attr *attrs,
				     unsigned int n, struct vops_error *err)
{
	int64_t perm[VOPS_MAX_RANK];
	int cnt;
	enum vops_err ret = ops_attr_ints(c->def, attrs, n, "perm", true, perm, VOPS_MAX_RANK, &cnt,
					  err);

	return ret ? ret : put_params(c, perm, cnt, err);
}

static enum vops_err transpose_infer(const struct ops_call *c, struct vops_plan *p,
				     struct vops_error *err)
{
	const struct vops_tensor *x = &c->in[0];
	bool seen[VOPS_MAX_RANK] = { false };
	int64_t dims[VOPS_MAX_RANK], v;
	char s[128];
	int d;

	if (c->at.pr.nf || c->at.pr.ni != (uint32_t)x->ndim)
		goto bad;
	for (d = 0; d < x->ndim; d++) {
		v = c->at.pr.i[d];
		if (v < 0 || v >= x->ndim || seen[v])
			goto bad;
		seen[v] = true;
		dims[d] = x->dims[v];
	}
	return out_dense(c, p, x->ndim, dims, false, err);
bad:
	return ops_fail(err, VOPS_ERR_ATTR,
			"TransposeD: attribute perm %s is not a permutation of %d "
			"axes",
			vops_shape_str(s, sizeof(s),
				       c->at.pr.ni > VOPS_MAX_RANK ? 0 : (int)c->at.pr.ni,
				       c->at.pr.i),
			x->ndim);
}

static enum vops_run_status transpose_run(const struct ops_call *c, const struct vops_plan *p,
					  const struct ops_bufs *b, struct ops_runner *r)
{
	const struct vops_tensor *x = &c->in[0];
	int64_t st[VOPS_MAX_RANK], pst[VOPS_MAX_RANK];
	int d;

	ops_strides(x, st);
	for (d = 0; d < x->ndim; d++)
		pst[d] = st[c->at.pr.i[d]];
	return mv_copy(b->out[0], b->in[0], pst, x->offset, x->ndim, p->out[0].dims,
		       ops_esize(x->dtype), r);
}

static const struct ops_def def_transpose = {
	.name = "TransposeD", .id = OPS_ID_MOVE + 4, .nin = 1, .nout = 1, .attr_fmt = OPS_AF_PARAMS,
	.flags = OPS_DEF_STRIDED, .dtypes = OPS_DT_ANY, .attrs = transpose_attrs,
	.parse = transpose_parse, .infer = transpose_infer, .workspace = ops_ws_none,
	.run = transpose_run,
};

/* ---- ConcatD ------------------------------------------------------------------- */

static const char *const concat_attrs[] = { "concat_dim", "N", NULL };

static enum vops_err concat_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
				  struct vops_error *err)
{
	int64_t dim, nn;
	int a;
	enum vops_err ret = ops_attr_int(c->def, attrs, n, "concat_dim", 0, &dim, err);

	if (!ret && !vops_attr_find(attrs, n, "concat_dim"))
		return ops_fail(err, VOPS_ERR_ATTR, "ConcatD needs the attribute concat_dim");
	if (!ret)
		ret = ops_attr_int(c->def, attrs, n, "N", c->nin, &nn, err);
	if (ret)
		return ret;
	if (nn != c->nin)
		return ops_fail(err, VOPS_ERR_ATTR, "ConcatD: attribute N is %lld, the call has %d "
				"inputs", (long long)nn, c->nin);
	if (!ops_axis(dim, c->in[0].ndim, &a))
		return ops_fail(err, VOPS_ERR_ATTR,
				"ConcatD: attribute concat_dim %lld is out of range "
				"for rank %d",
				(long long)dim, c->in[0].ndim);
	ops_param_i(c, a);
	return VOPS_OK;
}

static enum vops_err concat_infer(const struct ops_call *c, struct vops_plan *p,
				  struct vops_error *err)
{
	const struct vops_tensor *x = &c->in[0];
	int64_t dims[VOPS_MAX_RANK], axis;
	char a[96], b[96];
	int i, d;
	enum vops_err ret = want_params(c, 1, 0, err);

	if (ret)
		return ret;
	axis = c->at.pr.i[0];
	if (axis < 0 || axis >= x->ndim)
		return ops_fail(err, VOPS_ERR_ATTR,
				"ConcatD: concat_dim %lld is out of range for rank "
				"%d",
				(long long)axis, x->ndim);
	memcpy(dims, x->dims, (size_t)x->ndim * sizeof(*dims));
	for (i = 1; i < c->nin; i++) {
		const struct vops_tensor *t = &c->in[i];
		bool ok = t->ndim == x->ndim;

		for (d = 0; ok && d < x->ndim; d++)
			ok = d == axis || t->dims[d] == x->dims[d];
		if (!ok)
			return ops_fail(err, VOPS_ERR_INPUT,
					"ConcatD: input %d's shape %s does not match "
					"input 0's %s but along concat_dim %lld",
					i, vops_shape_str(a, sizeof(a), t->ndim, t->dims),
					vops_shape_str(b, sizeof(b), x->ndim, x->dims),
					(long long)axis);
		if (t->dims[axis] > INT64_MAX - dims[axis])
			return ops_too_large(c->def, err);
		dims[axis] += t->dims[axis];
	}
	return out_dense(c, p, x->ndim, dims, false, err);
}

static enum vops_run_status concat_run(const struct ops_call *c, const struct vops_plan *p,
				       const struct ops_bufs *b, struct ops_runner *r)
{
	int64_t ost[VOPS_MAX_RANK], st[VOPS_MAX_RANK], s = 1, at = 0;
	int rank = p->out[0].ndim, axis = (int)c->at.pr.i[0], i, d;
	enum vops_run_status ret;

	for (d = rank - 1; d >= 0; d--) {
		ost[d] = s;
		s *= p->out[0].dims[d];
	}
	for (i = 0; i < c->nin; i++) {
		const struct vops_tensor *t = &c->in[i];

		ops_strides(t, st);
		ret = ops_copy_run(b->out[0], ost, at * ost[axis], b->in[i], st, t->offset, rank,
				   t->dims, ops_esize(t->dtype), r);
		if (ret)
			return ret;
		at += t->dims[axis];
	}
	return VOPS_RUN_OK;
}

static const struct ops_def def_concat = {
	.name = "ConcatD", .id = OPS_ID_MOVE + 5, .nin = 1, .nin_max = VOPS_MAX_INPUTS, .nout = 1,
	.attr_fmt = OPS_AF_PARAMS, .flags = OPS_DEF_STRIDED, .dtypes = OPS_DT_ANY,
	.attrs = concat_attrs, .parse = concat_parse, .infer = concat_infer,
	.workspace = ops_ws_none, .run = concat_run,
};

/* ---- SplitD, SplitVD ------------------------------------------------------------- */

static const char *const split_attrs[] = { "split_dim", "num_split", NULL };
static const char *const splitv_attrs[] = { "size_splits", "split_dim", "num_split", NULL };

/* split_dim and num_split (both required; num_split is the output count). */
static enum vops_err split_common(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
				  int *axis, struct vops_error *err)
{
	const char *name = c->def->name;
	int64_t dim, num;
	enum vops_err ret;

	if (!vops_attr_find(attrs, n, "split_dim") || !vops_attr_find(attrs, n, "num_split"))
		return ops_fail(err, VOPS_ERR_ATTR,
				"%s needs the attributes split_dim and num_split", name);
	ret = ops_attr_int(c->def, attrs, n, "split_dim", 0, &dim, err);
	if (!ret)
		ret = ops_attr_int(c->def, attrs, n, "num_split", 0, &num, err);
	if (ret)
		return ret;
	if (num != c->nout)
		return ops_fail(err, VOPS_ERR_ATTR,
				"%s: attribute num_split is %lld, the call has %d "
				"outputs",
				name, (long long)num, c->nout);
	if (!ops_axis(dim, c->in[0].ndim, axis))
		return ops_fail(err, VOPS_ERR_ATTR,
				"%s: attribute split_dim %lld is out of range for "
				"rank %d",
				name, (long long)dim, c->in[0].ndim);
	ops_param_i(c, *axis);
	return VOPS_OK;
}

static enum vops_err split_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
				 struct vops_error *err)
{
	int axis;

	return split_common(c, attrs, n, &axis, err);
}

/* size_splits: one per output, at most one -1 (the rest of the dimension). */
static enum vops_err splitv_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
				  struct vops_error *err)
{
	int64_t sizes[VOPS_MAX_OUTPUTS], dim, sum = 0;
	int cnt, axis, k, neg = -1;
	enum vops_err ret = ops_attr_ints(c->def, attrs, n, "size_splits", true, sizes,
					  VOPS_MAX_OUTPUTS, &cnt, err);

	if (!ret)
		ret = split_common(c, attrs, n, &axis, err);
	if (ret)
		return ret;
	if (cnt != c->nout)
		return ops_fail(err, VOPS_ERR_ATTR,
				"SplitVD: attribute size_splits has %d values, the "
				"call has %d outputs",
				cnt, c->nout);
	dim = c->in[0].dims[axis];
	for (k = 0; k < cnt; k++) {
		if (sizes[k] == -1 && neg < 0) {
			neg = k;
			continue;
		}
		if (sizes[k] < 0 || sizes[k] > dim - sum)
			return ops_fail(err, VOPS_ERR_ATTR,
					"SplitVD: attribute size_splits does not "
					"split the dimension %lld",
					(long long)dim);
		sum += sizes[k];
	}
	if (neg >= 0)
		sizes[neg] = dim - sum;
	return put_params(c, sizes, cnt, err);
}

/* Output k: the input's shape with sizes[k] along the axis. */
static enum vops_err split_outputs(const struct ops_call *c, struct vops_plan *p, int axis,
				   const int64_t *sizes, struct vops_error *err)
{
	const struct vops_tensor *x = &c->in[0];
	int64_t dims[VOPS_MAX_RANK];
	uint64_t n;
	int k;
	enum vops_err ret = ops_set_in_dense(c, p, 0, err);

	memcpy(dims, x->dims, (size_t)x->ndim * sizeof(*dims));
	for (k = 0; !ret && k < c->nout; k++) {
		dims[axis] = sizes ? sizes[k] : x->dims[axis] / c->nout;
		ret = ops_set_out_n(c, p, k, x->dtype, x->ndim, dims, err);
	}
	if (ret)
		return ret;
	if (!ops_count(x, &n))
		return ops_too_large(c->def, err);
	p->empty = n == 0;
	return VOPS_OK;
}

static enum vops_err split_infer(const struct ops_call *c, struct vops_plan *p,
				 struct vops_error *err)
{
	const struct vops_tensor *x = &c->in[0];
	int64_t axis;
	enum vops_err ret = want_params(c, 1, 0, err);

	if (ret)
		return ret;
	axis = c->at.pr.i[0];
	if (axis < 0 || axis >= x->ndim)
		return ops_fail(err, VOPS_ERR_ATTR,
				"SplitD: split_dim %lld is out of range for rank %d",
				(long long)axis, x->ndim);
	if (x->dims[axis] % c->nout)
		return ops_fail(err, VOPS_ERR_INPUT,
				"SplitD: dimension %lld (split_dim %lld) does not "
				"split into %d equal parts",
				(long long)x->dims[axis], (long long)axis, c->nout);
	return split_outputs(c, p, (int)axis, NULL, err);
}

static enum vops_err splitv_infer(const struct ops_call *c, struct vops_plan *p,
				  struct vops_error *err)
{
	const struct vops_tensor *x = &c->in[0];
	int64_t axis, sum = 0;
	int k;
	enum vops_err ret = want_params(c, 1 + (uint32_t)c->nout, 0, err);

	if (ret)
		return ret;
	axis = c->at.pr.i[0];
	if (axis < 0 || axis >= x->ndim)
		return ops_fail(err, VOPS_ERR_ATTR,
				"SplitVD: split_dim %lld is out of range for rank "
				"%d",
				(long long)axis, x->ndim);
	for (k = 0; k < c->nout; k++) {
		int64_t s = c->at.pr.i[1 + k];

		if (s < 0 || s > x->dims[axis] - sum)
			break;
		sum += s;
	}
	if (k < c->nout || sum != x->dims[axis])
		return ops_fail(err, VOPS_ERR_ATTR, "SplitVD: size_splits do not add up to the "
				"dimension %lld", (long long)x->dims[axis]);
	return split_outputs(c, p, (int)axis, &c->at.pr.i[1], err);
}

static enum vops_run_status split_run(const struct ops_call *c, const struct vops_plan *p,
				      const struct ops_bufs *b, struct ops_runner *r)
{
	const struct vops_tensor *x = &c->in[0];
	int64_t st[VOPS_MAX_RANK], at = 0;
	int axis = (int)c->at.pr.i[0], k;
	enum vops_run_status ret;

	ops_strides(x, st);
	for (k = 0; k < c->nout; k++) {
		ret = mv_copy(b->out[k], b->in[0], st, x->offset + at * st[axis], x->ndim,
			      p->out[k].dims, ops_esize(x->dtype), r);
		if (ret)
			return ret;
		at += p->out[k].dims[axis];
	}
	return VOPS_RUN_OK;
}

static const struct ops_def def_split = {
	.name = "SplitD", .id = OPS_ID_MOVE + 6, .nin = 1, .nout = 1, .nout_max = VOPS_MAX_OUTPUTS,
	.attr_fmt = OPS_AF_PARAMS, .flags = OPS_DEF_STRIDED, .dtypes = OPS_DT_ANY,
	.attrs = split_attrs, .parse = split_parse, .infer = split_infer, .workspace = ops_ws_none,
	.run = split_run,
};

static const struct ops_def def_splitv = {
	.name = "SplitVD", .id = OPS_ID_MOVE + 7, .nin = 1, .nout = 1, .nout_max = VOPS_MAX_OUTPUTS,
	.attr_fmt = OPS_AF_PARAMS, .flags = OPS_DEF_STRIDED, .dtypes = OPS_DT_ANY,
	.attrs = splitv_attrs, .parse = splitv_parse, .infer = splitv_infer,
	.workspace = ops_ws_none, .run = split_run,
};

/* ---- StridedSliceD ---------------------------------------------------------------- */

static const char *const sslice_attrs[] = {
	"begin", "end", "strides", "begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
	"shrink_axis_mask", NULL,
};

/* Parameters per axis: start, step, count (count -1: shrunk, one element). */
#define SS_MAX_RANK (OPS_MAX_IPARAMS / 3)

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/*
 * TensorFlow's (and ONNX Slice's) rules: a negative index counts from the
 * end; begin and end are clamped to [0, dim] for a positive stride and to
 * [-1, dim - 1] for a negative one; the masks' bit i takes axis i's whole
 * range (begin_mask, end_mask) or its element begin[i] without the axis
 * (shrink_axis_mask). Axes past the lists are taken whole.
 */
static enum vops_err sslice_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
				  struct vops_error *err)
{
	const struct vops_tensor *x = &c->in[0];
	int64_t beg[VOPS_MAX_RANK], end[VOPS_MAX_RANK], str[VOPS_MAX_RANK], bm, em, elm, nam, sm;
	int nb, ne, ns, d;
	enum vops_err ret;

	ret = ops_attr_ints(c->def, attrs, n, "begin", true, beg, VOPS_MAX_RANK, &nb, err);
	if (!ret)
		ret = ops_attr_ints(c->def, attrs, n, "end", true, end, VOPS_MAX_RANK, &ne, err);
	if (!ret)
		ret = ops_attr_ints(c->def, attrs, n, "strides", true, str, VOPS_MAX_RANK, &ns,
				    err);
	if (!ret)
		ret = ops_attr_int(c->def, attrs, n, "begin_mask", 0, &bm, err);
	if (!ret)
		ret = ops_attr_int(c->def, attrs, n, "end_mask", 0, &em, err);
	if (!ret)
		ret = ops_attr_int(c->def, attrs, n, "ellipsis_mask", 0, &elm, err);
	if (!ret)
		ret = ops_attr_int(c->def, attrs, n, "new_axis_mask", 0, &nam, err);
	if (!ret)
		ret = ops_attr_int(c->def, attrs, n, "shrink_axis_mask", 0, &sm, err);
	if (ret)
		return ret;
	if (elm || nam)
		return ops_fail(err, VOPS_ERR_ATTR,
				"StridedSliceD: ellipsis_mask and new_axis_mask are "
				"not supported by vnpu (0 only)");
	if (nb != ne || nb != ns || nb > x->ndim)
		return ops_fail(err, VOPS_ERR_ATTR,
				"StridedSliceD: attributes begin, end and strides "
				"have %d, %d and %d values (one each per axis, at most %d)",
				nb, ne, ns, x->ndim);
	if (x->ndim > SS_MAX_RANK)
		return ops_fail(err, VOPS_ERR_INPUT,
				"StridedSliceD: vnpu slices tensors of at most "
				"%d dimensions, got %d",
				SS_MAX_RANK, x->ndim);
	for (d = 0; d < x->ndim; d++) {
		int64_t D = x->dims[d], s = d < ns ? str[d] : 1, b, e, cnt;
		bool mb = d >= nb || (d < 63 && (bm >> d & 1)),
		     me = d >= nb || (d < 63 && (em >> d & 1));

		if (s == 0)
			return ops_fail(err, VOPS_ERR_ATTR,
					"StridedSliceD: attribute strides[%d] is 0", d);
		if (d < nb && d < 63 && (sm >> d & 1)) {
			b = beg[d] < 0 ? beg[d] + D : beg[d];
			if (b < 0 || b >= D)
				return ops_fail(err, VOPS_ERR_ATTR,
						"StridedSliceD: begin[%d] %lld is out "
						"of range for the shrunk dimension %lld",
						d, (long long)beg[d], (long long)D);
			ops_param_i(c, b);
			ops_param_i(c, 1);
			ops_param_i(c, -1);
			continue;
		}
		if (s > 0) {
			b = mb ? 0 : clamp64(beg[d] < 0 ? beg[d] + D : beg[d], 0, D);
			e = me ? D : clamp64(end[d] < 0 ? end[d] + D : end[d], 0, D);
			cnt = e > b ? (e - b - 1) / s + 1 : 0;
		} else {
			b = mb ? D - 1 : clamp64(beg[d] < 0 ? beg[d] + D : beg[d], -1, D - 1);
			e = me ? -1 : clamp64(end[d] < 0 ? end[d] + D : end[d], -1, D - 1);
			/* -s overflows for INT64_MIN: such a stride takes one element. */
			cnt = b <= e ? 0 : s == INT64_MIN ? 1 : (b - e - 1) / -s + 1;
		}
		if (cnt <= 1)
			s = 1;
		if (cnt == 0)
			b = 0;
		ops_param_i(c, b);
		ops_param_i(c, s);
		ops_param_i(c, cnt);
	}
	return VOPS_OK;
}

static enum vops_err sslice_infer(const struct ops_call *c, struct vops_plan *p,
				  struct vops_error *err)
{
	const struct vops_tensor *x = &c->in[0];
	int64_t dims[VOPS_MAX_RANK], last;
	int d, nd = 0;
	enum vops_err ret;

	if (x->ndim > SS_MAX_RANK)
		return ops_fail(err, VOPS_ERR_INPUT,
				"StridedSliceD: vnpu slices tensors of at most "
				"%d dimensions, got %d",
				SS_MAX_RANK, x->ndim);
	ret = want_params(c, 3 * (uint32_t)x->ndim, 0, err);
	if (ret)
		return ret;
	for (d = 0; d < x->ndim; d++) {
		int64_t D = x->dims[d], b = c->at.pr.i[3 * d], s = c->at.pr.i[3 * d + 1];
		int64_t cnt = c->at.pr.i[3 * d + 2], k = cnt < 0 ? 1 : cnt;

		if (cnt < -1 || s == 0 || (k && (b < 0 || b >= D)) ||
		    (cnt > 0 && (__builtin_mul_overflow(k - 1, s, &last) ||
				 __builtin_add_overflow(b, last, &last) || last < 0 || last >= D)))
			return ops_fail(err, VOPS_ERR_ATTR,
					"StridedSliceD: axis %d's slice (start %lld, "
					"stride %lld, %lld elements) leaves the dimension %lld",
					d, (long long)b, (long long)s, (long long)cnt,
					(long long)D);
		if (cnt >= 0)
			dims[nd++] = cnt;
	}
	return out_dense(c, p, nd, dims, false, err);
}

static enum vops_run_status sslice_run(const struct ops_call *c, const struct vops_plan *p,
				       const struct ops_bufs *b, struct ops_runner *r)
{
	const struct vops_tensor *x = &c->in[0];
	int64_t st[VOPS_MAX_RANK], vst[VOPS_MAX_RANK], dims[VOPS_MAX_RANK], off = x->offset;
	const int64_t *pr = c->at.pr.i;
	int d;

	(void)p;
	ops_strides(x, st);
	for (d = 0; d < x->ndim; d++) {
		off += pr[3 * d] * st[d];
		vst[d] = pr[3 * d + 1] * st[d];
		dims[d] = pr[3 * d + 2] < 0 ? 1 : pr[3 * d + 2];
	}
	return mv_copy(b->out[0], b->in[0], vst, off, x->ndim, dims, ops_esize(x->dtype), r);
}

static const struct ops_def def_sslice = {
	.name = "StridedSliceD", .id = OPS_ID_MOVE + 8, .nin = 1, .nout = 1,
	.attr_fmt = OPS_AF_PARAMS, .flags = OPS_DEF_STRIDED, .dtypes = OPS_DT_ANY,
	.attrs = sslice_attrs, .parse = sslice_parse, .infer = sslice_infer,
	.workspace = ops_ws_none, .run = sslice_run,
};

/* ---- ExpandD ---------------------------------------------------------------------- */

static const char *const expand_attrs[] = { "shape", NULL };

/* ONNX's Expand: the input and shape broadcast both ways (numpy). */
static enum vops_err expand_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
				  struct vops_error *err)
{
	const struct vops_tensor *x = &c->in[0];
	int64_t shape[VOPS_MAX_RANK], out[VOPS_MAX_RANK];
	char a[96], b[96];
	int ns, rank, d;
	enum vops_err ret =
		ops_attr_ints(c->def, attrs, n, "shape", true, shape, VOPS_MAX_RANK, &ns, err);

	if (ret)
		return ret;
	rank = ns > x->ndim ? ns : x->ndim;
	for (d = 0; d < rank; d++) {
		int xi = x->ndim - rank + d, si = ns - rank + d;
		int64_t xv = xi < 0 ? 1 : x->dims[xi], sv = si < 0 ? 1 : shape[si];

		if (sv < 0)
			return ops_fail(err, VOPS_ERR_ATTR, "ExpandD: attribute shape[%d] is %lld",
					si, (long long)sv);
		if (xv != sv && xv != 1 && sv != 1)
			return ops_fail(err, VOPS_ERR_INPUT,
					"ExpandD: the input's shape %s does not "
					"broadcast to %s",
					vops_shape_str(a, sizeof(a), x->ndim, x->dims),
					vops_shape_str(b, sizeof(b), ns, shape));
		out[d] = xv == 1 ? sv : xv;
	}
	return put_params(c, out, rank, err);
}

static enum vops_err expand_infer(const struct ops_call *c, struct vops_plan *p,
				  struct vops_error *err)
{
	const struct vops_tensor *x = &c->in[0];
	int rank = (int)c->at.pr.ni, d;
	enum vops_err ret = dims_params(c, err);

	if (ret)
		return ret;
	if (rank < x->ndim)
		return ops_fail(err, VOPS_ERR_ATTR,
				"ExpandD: the output has %d dimensions, the input "
				"%d",
				rank, x->ndim);
	for (d = 0; d < x->ndim; d++) {
		int64_t xv = x->dims[d], ov = c->at.pr.i[rank - x->ndim + d];

		if (xv != ov && xv != 1)
			return ops_fail(err, VOPS_ERR_ATTR,
					"ExpandD: input dimension %d (%lld) does not "
					"broadcast to %lld",
					d, (long long)xv, (long long)ov);
	}
	return out_dense(c, p, rank, c->at.pr.i, false, err);
}

static enum vops_run_status expand_run(const struct ops_call *c, const struct vops_plan *p,
				       const struct ops_bufs *b, struct ops_runner *r)
{
	const struct vops_tensor *x = &c->in[0];
	int64_t st[VOPS_MAX_RANK];

	ops_bcast_strides(x, p->out[0].ndim, p->out[0].dims, st);
	return mv_copy(b->out[0], b->in[0], st, x->offset, p->out[0].ndim, p->out[0].dims,
		       ops_esize(x->dtype), r);
}

static const struct ops_def def_expand = {
	.name = "ExpandD",
	.id = OPS_ID_MOVE + 9,
	.nin = 1,
	.nout = 1,
	.attr_fmt = OPS_AF_PARAMS,
	.flags = OPS_DEF_STRIDED,
	.dtypes = OPS_DT_ANY,
	.attrs = expand_attrs,
	.parse = expand_parse,
	.infer = expand_infer,
	.workspace = ops_ws_none,
	.run = expand_run,
};

/* ---- TileD ------------------------------------------------------------------------- */

static const char *const tile_attrs[] = { "multiples", NULL };

static enum vops_err tile_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
				struct vops_error *err)
{
	int64_t m[VOPS_MAX_RANK];
	int cnt;
	enum vops_err ret =
		ops_attr_ints(c->def, attrs, n, "multiples", true, m, VOPS_MAX_RANK, &cnt, err);

	if (ret)
		return ret;
	if (cnt != c->in[0].ndim)
		return ops_fail(err, VOPS_ERR_ATTR,
				"TileD: attribute multiples has %d values, the input "
				"%d dimensions",
				cnt, c->in[0].ndim);
	return put_params(c, m, cnt, err);
}

static enum vops_err tile_infer(const struct ops_call *c, struct vops_plan *p,
				struct vops_error *err)
{
	const struct vops_tensor *x = &c->in[0];
	int64_t dims[VOPS_MAX_RANK];
	uint64_t v;
	int d;
	enum vops_err ret = want_params(c, (uint32_t)x->ndim, 0, err);

	if (ret)
		return ret;
	for (d = 0; d < x->ndim; d++) {
		if (c->at.pr.i[d] < 0)
			return ops_fail(err, VOPS_ERR_ATTR, "TileD: multiples[%d] is %lld", d,
					(long long)c->at.pr.i[d]);
		if (!ops_mul((uint64_t)x->dims[d], (uint64_t)c->at.pr.i[d], &v) || v > INT64_MAX)
			return ops_too_large(c->def, err);
		dims[d] = (int64_t)v;
	}
	return out_dense(c, p, x->ndim, dims, false, err);
}

/*
 * The input into the output's first block, then, axis by axis from the
 * last, the filled part repeated along the axis (copies within the
 * output, never overlapping).
 */
static enum vops_run_status tile_run(const struct ops_call *c, const struct vops_plan *p,
				     const struct ops_bufs *b, struct ops_runner *r)
{
	const struct vops_tensor *x = &c->in[0];
	int64_t ost[VOPS_MAX_RANK], st[VOPS_MAX_RANK], blk[VOPS_MAX_RANK], s = 1, k;
	uint32_t es = ops_esize(x->dtype);
	int rank = x->ndim, d, a;
	enum vops_run_status ret;

	for (d = rank - 1; d >= 0; d--) {
		ost[d] = s;
		s *= p->out[0].dims[d];
	}
	ops_strides(x, st);
	ret = ops_copy_run(b->out[0], ost, 0, b->in[0], st, x->offset, rank, x->dims, es, r);
	for (d = 0; d < rank; d++)
		blk[d] = x->dims[d];
	for (a = rank - 1; a >= 0 && !ret; a--) {
		for (k = 1; k < c->at.pr.i[a] && !ret; k++)
			ret = ops_copy_run(b->out[0], ost, k * x->dims[a] * ost[a], b->out[0], ost,
					   0, rank, blk, es, r);
		blk[a] = p->out[0].dims[a];
	}
	return ret;
}

static const struct ops_def def_tile = {
	.name = "TileD", .id = OPS_ID_MOVE + 10, .nin = 1, .nout = 1, .attr_fmt = OPS_AF_PARAMS,
	.flags = OPS_DEF_STRIDED, .dtypes = OPS_DT_ANY, .attrs = tile_attrs, .parse = tile_parse,
	.infer = tile_infer, .workspace = ops_ws_none, .run = tile_run,
};

/* ---- PadV3D ------------------------------------------------------------------------ */

static const char *const pad_attrs[] = {
	"paddings", "constant_values", "mode", "paddings_contiguous", NULL,
};

enum { PAD_CONSTANT, PAD_REFLECT, PAD_EDGE, PAD_CIRCULAR, PAD_MODES };

/* Parameters: i[0] mode, i[1] the value for integer types, then (before,
 * after) per axis; f[0] the value for float types. */
static enum vops_err pad_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
			       struct vops_error *err)
{
	static const char *const modes[] = { "constant", "reflect", "edge", "circular" };
	const struct vops_attr *cv = vops_attr_find(attrs, n, "constant_values");
	int64_t pads[2 * VOPS_MAX_RANK], iv = 0;
	int r = c->in[0].ndim, cnt, m, d;
	const char *mode;
	double fv = 0;
	bool contig;
	enum vops_err ret;

	ret = ops_attr_ints(c->def, attrs, n, "paddings", true, pads, 2 * VOPS_MAX_RANK, &cnt, err);
	if (!ret)
		ret = ops_attr_str(c->def, attrs, n, "mode", "constant", &mode, err);
	if (!ret)
		ret = ops_attr_bool(c->def, attrs, n, "paddings_contiguous", true, &contig, err);
	if (ret)
		return ret;
	for (m = 0; m < PAD_MODES && strcmp(mode, modes[m]); m++)
		;
	if (m == PAD_MODES)
		return ops_fail(err, VOPS_ERR_ATTR,
				"PadV3D: attribute mode \"%s\" is not constant, "
				"reflect, edge or circular",
				mode);
	if (cnt != 2 * r)
		return ops_fail(err, VOPS_ERR_ATTR, "PadV3D: attribute paddings has %d values, the "
				"input %d dimensions (2 per dimension)", cnt, r);
	if (cv && cv->kind == VOPS_ATTR_INT) {
		iv = cv->i;
		fv = (double)cv->i;
	} else if (cv) {
		ret = ops_attr_float(c->def, attrs, n, "constant_values", 0, &fv, err);
		if (ret)
			return ret;
		iv = isnan(fv)	     ? 0
		     : fv <= -9.2e18 ? INT64_MIN
		     : fv >= 9.2e18  ? INT64_MAX
				     : (int64_t)fv;
	}
	ops_param_i(c, m);
	ops_param_i(c, iv);
	for (d = 0; d < r; d++) {
		ops_param_i(c, contig ? pads[2 * d] : pads[d]);
		ops_param_i(c, contig ? pads[2 * d + 1] : pads[r + d]);
	}
	ops_param_f(c, fv);
	return VOPS_OK;
}

static enum vops_err pad_infer(const struct ops_call *c, struct vops_plan *p,
			       struct vops_error *err)
{
	const struct vops_tensor *x = &c->in[0];
	const int64_t lim = (int64_t)VOPS_MAX_BYTES;
	int64_t dims[VOPS_MAX_RANK];
	int d;
	enum vops_err ret = want_params(c, 2 + 2 * (uint32_t)x->ndim, 1, err);

	if (ret)
		return ret;
	if (c->at.pr.i[0] < 0 || c->at.pr.i[0] >= PAD_MODES)
		return ops_fail(err, VOPS_ERR_ATTR, "PadV3D: mode %lld is unknown",
				(long long)c->at.pr.i[0]);
	for (d = 0; d < x->ndim; d++) {
		int64_t bp = c->at.pr.i[2 + 2 * d], ap = c->at.pr.i[3 + 2 * d];

		if (bp < -lim || bp > lim || ap < -lim || ap > lim ||
		    __builtin_add_overflow(x->dims[d], bp + ap, &dims[d]) || dims[d] < 0)
			return ops_fail(err, VOPS_ERR_ATTR,
					"PadV3D: paddings (%lld, %lld) of dimension "
					"%d (%lld) are out of range",
					(long long)bp, (long long)ap, d, (long long)x->dims[d]);
		if (c->at.pr.i[0] != PAD_CONSTANT && !x->dims[d] && dims[d])
			return ops_fail(err, VOPS_ERR_INPUT,
					"PadV3D: dimension %d is 0, which mode %s "
					"cannot pad",
					d,
					c->at.pr.i[0] == PAD_EDGE      ? "edge"
					: c->at.pr.i[0] == PAD_REFLECT ? "reflect"
								       : "circular");
	}
	return out_dense(c, p, x->ndim, dims, false, err);
}

/* The input index output index @i of a dimension @n padded by @before
 * reads, -1 for the constant. */
static int64_t pad_src(int64_t i, int64_t n, int64_t before, int64_t mode)
{
	int64_t j = i - before, per;

	if (j >= 0 && j < n)
		return j;
	switch (mode) {
	case PAD_EDGE:
		return j < 0 ? 0 : n - 1;
	case PAD_REFLECT:
		if (n == 1)
			return 0;
		per = 2 * (n - 1);
		j %= per;
		if (j < 0)
			j += per;
		return j < n ? j : per - j;
	case PAD_CIRCULAR:
		j %= n;
		return j < 0 ? j + n : j;
	default:
		return -1;
	}
}

static enum vops_run_status pad_run(const struct ops_call *c, const struct vops_plan *p,
				    const struct ops_bufs *b, struct ops_runner *r)
{
	const struct vops_tensor *x = &c->in[0];
	const int64_t *pr = c->at.pr.i, *od = p->out[0].dims;
	int64_t st[VOPS_MAX_RANK], idx[VOPS_MAX_RANK] = { 0 }, mode = pr[0], len, i, j, off;
	uint32_t es = ops_esize(x->dtype);
	int rank = x->ndim, d;
	const char *src = b->in[0];
	char *dst = b->out[0], val[8];
	uint64_t done = OPS_EW_CHUNK;
	bool fill;

	if (ops_dt_float(x->dtype))
		ops_store_f64(val, x->dtype, 0, 1, &c->at.pr.f[0], 1);
	else
		ops_store_i64(val, x->dtype, 0, 1, &pr[1], 1);
	ops_strides(x, st);
	if (!rank) {
		put_elem(dst, src + x->offset * (int64_t)es, es);
		return VOPS_RUN_OK;
	}
	len = od[rank - 1];
	for (;;) {
		if (done >= OPS_EW_CHUNK) {
			if (ops_should_stop(r))
				return VOPS_RUN_CANCELED;
			done = 0;
		}
		done += (uint64_t)len + 16;
		off = x->offset;
		fill = false;
		for (d = 0; d < rank - 1 && !fill; d++) {
			j = pad_src(idx[d], x->dims[d], pr[2 + 2 * d], mode);
			fill = j < 0;
			off += j * st[d];
		}
		for (i = 0; i < len; i++, dst += es) {
			j = fill ? -1 : pad_src(i, x->dims[rank - 1], pr[2 + 2 * (rank - 1)], mode);
			put_elem(dst, j < 0 ? val : src + (off + j * st[rank - 1]) * (int64_t)es,
				 es);
		}
		for (d = rank - 2; d >= 0; d--) {
			if (++idx[d] < od[d])
				break;
			idx[d] = 0;
		}
		if (d < 0)
			return VOPS_RUN_OK;
	}
}

static const struct ops_def def_pad = {
	.name = "PadV3D", .id = OPS_ID_MOVE + 11, .nin = 1, .nout = 1, .attr_fmt = OPS_AF_PARAMS,
	.flags = OPS_DEF_STRIDED, .dtypes = OPS_DT_ANY, .attrs = pad_attrs, .parse = pad_parse,
	.infer = pad_infer, .workspace = ops_ws_none, .run = pad_run,
};

/* ---- Identity --------------------------------------------------------------------- */

static enum vops_err identity_infer(const struct ops_call *c, struct vops_plan *p,
				    struct vops_error *err)
{
	return out_dense(c, p, c->in[0].ndim, c->in[0].dims, true, err);
}

static const struct ops_def def_identity = {
	.name = "Identity", .id = OPS_ID_MOVE + 12, .nin = 1, .nout = 1, .attr_fmt = OPS_AF_NONE,
	.flags = OPS_DEF_STRIDED, .dtypes = OPS_DT_ANY, .attrs = no_attrs,
	.infer = identity_infer, .workspace = ops_ws_none, .run = same_order_run,
};

/* ---- Shape, Size: the input's dimensions, never its elements -------------------------- */

static const char *const shape_attrs[] = { "dtype", "start", "end", NULL };
static const char *const size_attrs[] = { "dtype", NULL };

/* CANN's dtype attribute: DT_INT32 (3, CANN's default) or DT_INT64 (9). */
static enum vops_err shape_dtype(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
				 struct vops_error *err)
{
	int32_t dt;
	enum vops_err ret = ops_attr_dtype(c->def, attrs, n, "dtype", ACL_INT32, &dt, err);

	if (!ret)
		ops_param_i(c, dt);
	return ret;
}

/* start and end (vnpu extensions, ONNX's Shape-15): dimensions [start, end),
 * negative from the end, clamped to the rank. */
static enum vops_err shape_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
				 struct vops_error *err)
{
	int64_t r = c->in[0].ndim, s, e;
	enum vops_err ret = shape_dtype(c, attrs, n, err);

	if (!ret)
		ret = ops_attr_int(c->def, attrs, n, "start", 0, &s, err);
	if (!ret)
		ret = ops_attr_int(c->def, attrs, n, "end", r, &e, err);
	if (ret)
		return ret;
	s = clamp64(s < 0 ? clamp64(s, -r, 0) + r : s, 0, r);
	e = clamp64(e < 0 ? clamp64(e, -r, 0) + r : e, 0, r);
	ops_param_i(c, s);
	ops_param_i(c, e < s ? s : e);
	return VOPS_OK;
}

/* The output type and, for ACL_INT32, that values @v (@n) fit. */
static enum vops_err shape_out(const struct ops_call *c, struct vops_plan *p, int ndim,
			       const int64_t *dims, const int64_t *v, int n, struct vops_error *err)
{
	int32_t dt = (int32_t)c->at.pr.i[0];
	int k;

	if (c->at.pr.i[0] != ACL_INT32 && c->at.pr.i[0] != ACL_INT64)
		return ops_fail(err, VOPS_ERR_ATTR,
				"%s: attribute dtype %lld is not DT_INT32 (3) or "
				"DT_INT64 (9)",
				c->def->name, (long long)c->at.pr.i[0]);
	for (k = 0; k < n && dt == ACL_INT32; k++)
		if (v[k] > INT32_MAX)
			return ops_fail(err, VOPS_ERR_INPUT, "%s: %lld does not fit DT_INT32",
					c->def->name, (long long)v[k]);
	/* Only the shape is read: the input needs no bytes. */
	ops_set_in(p, c, 0, 0);
	return ops_set_out_n(c, p, 0, dt, ndim, dims, err);
}

static enum vops_err shape_infer(const struct ops_call *c, struct vops_plan *p,
				 struct vops_error *err)
{
	const struct vops_tensor *x = &c->in[0];
	int64_t s, e, len;
	enum vops_err ret = want_params(c, 3, 0, err);

	if (ret)
		return ret;
	s = c->at.pr.i[1];
	e = c->at.pr.i[2];
	if (s < 0 || s > e || e > x->ndim)
		return ops_fail(err, VOPS_ERR_ATTR, "Shape: dimensions [%lld, %lld) of rank %d",
				(long long)s, (long long)e, x->ndim);
	len = e - s;
	p->empty = len == 0;
	return shape_out(c, p, 1, &len, x->dims + s, (int)len, err);
}

static enum vops_run_status shape_run(const struct ops_call *c, const struct vops_plan *p,
				      const struct ops_bufs *b, struct ops_runner *r)
{
	(void)r;
	ops_store_i64(b->out[0], p->out[0].dtype, 0, 1, c->in[0].dims + c->at.pr.i[1],
		      (size_t)p->out[0].dims[0]);
	return VOPS_RUN_OK;
}

static const struct ops_def def_shape = {
	.name = "Shape", .id = OPS_ID_MOVE + 13, .nin = 1, .nout = 1, .attr_fmt = OPS_AF_PARAMS,
	.flags = OPS_DEF_STRIDED, .dtypes = OPS_DT_ANY, .attrs = shape_attrs, .parse = shape_parse,
	.infer = shape_infer, .workspace = ops_ws_none, .run = shape_run,
};

static enum vops_err size_infer(const struct ops_call *c, struct vops_plan *p,
				struct vops_error *err)
{
	uint64_t n;
	int64_t v;
	enum vops_err ret = want_params(c, 1, 0, err);

	if (ret)
		return ret;
	if (!ops_count(&c->in[0], &n) || n > INT64_MAX)
		return ops_too_large(c->def, err);
	v = (int64_t)n;
	return shape_out(c, p, 0, NULL, &v, 1, err);
}

static enum vops_run_status size_run(const struct ops_call *c, const struct vops_plan *p,
				     const struct ops_bufs *b, struct ops_runner *r)
{
	uint64_t n;
	int64_t v;

	(void)r;
	ops_count(&c->in[0], &n);
	v = (int64_t)n;
	ops_store_i64(b->out[0], p->out[0].dtype, 0, 1, &v, 1);
	return VOPS_RUN_OK;
}

static const struct ops_def def_size = {
	.name = "Size", .id = OPS_ID_MOVE + 14, .nin = 1, .nout = 1, .attr_fmt = OPS_AF_PARAMS,
	.flags = OPS_DEF_STRIDED, .dtypes = OPS_DT_ANY, .attrs = size_attrs, .parse = shape_dtype,
	.infer = size_infer, .workspace = ops_ws_none, .run = size_run,
};

/* ---- FillD ----------------------------------------------------------------------- */

static const char *const fill_attrs[] = { "dims", NULL };

static enum vops_err fill_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
				struct vops_error *err)
{
	int64_t dims[VOPS_MAX_RANK];
	int cnt;
	enum vops_err ret = ops_attr_ints(c->def, attrs, n, "dims", true, dims, VOPS_MAX_RANK, &cnt,
					  err);

	return ret ? ret : put_params(c, dims, cnt, err);
}

static enum vops_err fill_infer(const struct ops_call *c, struct vops_plan *p,
				struct vops_error *err)
{
	uint64_t n;
	enum vops_err ret = dims_params(c, err);

	if (ret)
		return ret;
	if (!ops_count(&c->in[0], &n) || n != 1)
		return ops_fail(err, VOPS_ERR_INPUT, "FillD: input value must have one element");
	return out_dense(c, p, (int)c->at.pr.ni, c->at.pr.i, false, err);
}

static enum vops_run_status fill_run(const struct ops_call *c, const struct vops_plan *p,
				     const struct ops_bufs *b, struct ops_runner *r)
{
	uint32_t es = ops_esize(c->in[0].dtype);
	const char *v = (const char *)b->in[0] + c->in[0].offset * (int64_t)es;
	uint64_t n, at, k;

	shape_count(p->out[0].ndim, p->out[0].dims, &n);
	for (at = 0; at < n; at += k) {
		if (at && ops_should_stop(r))
			return VOPS_RUN_CANCELED;
		k = ops_min(n - at, OPS_EW_CHUNK);
		ops_fill((char *)b->out[0] + at * es, k, v, es);
	}
	return VOPS_RUN_OK;
}

static const struct ops_def def_fill = {
	.name = "FillD", .id = OPS_ID_MOVE + 15, .nin = 1, .nout = 1, .attr_fmt = OPS_AF_PARAMS,
	.flags = OPS_DEF_STRIDED, .dtypes = OPS_DT_ANY, .attrs = fill_attrs, .parse = fill_parse,
	.infer = fill_infer, .workspace = ops_ws_none, .run = fill_run,
};

/* ---- RangeD ---------------------------------------------------------------------- */

static const char *const range_attrs[] = { "start", "limit", "delta", NULL };

/* CANN's RangeD: y = x * delta + start over the assist input x (0, 1, ...,
 * n - 1), whose length must be the range's. */
static enum vops_err range_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
				 struct vops_error *err)
{
	static const char *const names[] = { "start", "limit", "delta" };
	double v;
	int k;
	enum vops_err ret;

	for (k = 0; k < 3; k++) {
		if (!vops_attr_find(attrs, n, names[k]))
			return ops_fail(err, VOPS_ERR_ATTR, "RangeD needs the attribute %s",
					names[k]);
		ret = ops_attr_float(c->def, attrs, n, names[k], 0, &v, err);
		if (ret)
			return ret;
		ops_param_f(c, v);
	}
	return VOPS_OK;
}

static enum vops_err range_infer(const struct ops_call *c, struct vops_plan *p,
				 struct vops_error *err)
{
	const struct vops_tensor *x = &c->in[0];
	const double *f = c->at.pr.f;
	double len;
	int k;
	enum vops_err ret = want_params(c, 0, 3, err);

	if (ret)
		return ret;
	for (k = 0; k < 3; k++)
		if (!isfinite(f[k]) || (!ops_dt_float(x->dtype) &&
					(f[k] != floor(f[k]) || fabs(f[k]) > 0x1p62)))
			return ops_fail(err, VOPS_ERR_ATTR,
					"RangeD: start, limit and delta (%g, %g, "
					"%g) must be finite%s",
					f[0], f[1], f[2],
					ops_dt_float(x->dtype) ? "" : " integers");
	if (f[2] == 0)
		return ops_fail(err, VOPS_ERR_ATTR, "RangeD: attribute delta is 0");
	len = ceil((f[1] - f[0]) / f[2]);
	if (len < 0)
		len = 0;
	if (x->ndim != 1 || (double)x->dims[0] != len)
		return ops_fail(err, VOPS_ERR_INPUT,
				"RangeD: the assist input must be 1-D with %.0f "
				"elements",
				len);
	return ops_ew_infer(c, p, 0, 0, x->dtype, err);
}

static void range_f(const struct ops_call *c, double *restrict o, const double *const *restrict x,
		    size_t n)
{
	double start = c->at.pr.f[0], delta = c->at.pr.f[2];
	size_t j;

	for (j = 0; j < n; j++)
		o[j] = x[0][j] * delta + start;
}

static void range_i(const struct ops_call *c, int64_t *restrict o, const int64_t *const *restrict x,
		    size_t n)
{
	uint64_t start = (uint64_t)(int64_t)c->at.pr.f[0], delta = (uint64_t)(int64_t)c->at.pr.f[2];
	size_t j;

	for (j = 0; j < n; j++)
		o[j] = (int64_t)((uint64_t)x[0][j] * delta + start);
}

static enum vops_run_status range_run(const struct ops_call *c, const struct vops_plan *p,
				      const struct ops_bufs *b, struct ops_runner *r)
{
	return ops_ew_call(c, p, b, 0, 0, ops_dt_dom(c->in[0].dtype), range_f, range_i, r);
}

static const struct ops_def def_range = {
	.name = "RangeD", .id = OPS_ID_MOVE + 16, .nin = 1, .nout = 1, .attr_fmt = OPS_AF_PARAMS,
	.flags = OPS_DEF_STRIDED, .dtypes = OPS_DT_REAL | OPS_DT_SINT, .attrs = range_attrs,
	.parse = range_parse, .infer = range_infer, .workspace = ops_ws_none, .run = range_run,
};

/* ---- ViewCopyD: a store into a strided view of a destination's storage -------------- */

static const char *const viewcopy_attrs[] = {
	"dst_size", "dst_stride", "dst_storage_offset", "dst_storage_size", "dst_type", NULL,
};

/* Parameters: i[0] dst_type, i[1] dst_storage_offset, i[2] dst_storage_size, then
 * dst_size[rank] and dst_stride[rank]. */
#define VC_FIXED 3u

/*
 * CANN's ViewCopy with its shape inputs as attributes: the output operand is
 * the destination's whole storage (dense, 1-D), of which src fills the view
 * (dst_size, dst_stride, dst_storage_offset) and nothing else. aclnn stores
 * every result into a caller's view through it.
 */
static enum vops_err viewcopy_parse(struct ops_call *c, const struct vops_attr *attrs,
				    unsigned int n, struct vops_error *err)
{
	int64_t size[VOPS_MAX_RANK], stride[VOPS_MAX_RANK], off, ssize;
	int ns, nt;
	int32_t dt;
	enum vops_err ret;

	ret = ops_attr_ints(c->def, attrs, n, "dst_size", true, size, VOPS_MAX_RANK, &ns, err);
	if (!ret)
		ret = ops_attr_ints(c->def, attrs, n, "dst_stride", true, stride, VOPS_MAX_RANK, &nt,
				    err);
	if (!ret)
		ret = ops_attr_int(c->def, attrs, n, "dst_storage_offset", 0, &off, err);
	if (!ret && !vops_attr_find(attrs, n, "dst_storage_size"))
		return ops_fail(err, VOPS_ERR_ATTR, "ViewCopyD needs the attribute dst_storage_size");
	if (!ret)
		ret = ops_attr_int(c->def, attrs, n, "dst_storage_size", 0, &ssize, err);
	if (!ret)
		ret = ops_attr_dtype(c->def, attrs, n, "dst_type", c->in[0].dtype, &dt, err);
	if (ret)
		return ret;
	if (ns != nt)
		return ops_fail(err, VOPS_ERR_ATTR,
				"ViewCopyD: attribute dst_size has %d values, dst_stride %d (one "
				"stride per dimension)", ns, nt);
	ops_param_i(c, dt);
	ops_param_i(c, off);
	ops_param_i(c, ssize);
	ret = put_params(c, size, ns, err);
	return ret ? ret : put_params(c, stride, nt, err);
}

/*
 * No two elements of the view (@dims, @st, @rank) share a place: sorted
 * by stride, each dimension's stride is at least the extent of the ones
 * with smaller strides. (Sufficient, not necessary: a few exotic
 * interleavings that do not overlap are refused too.) Dimensions of 1
 * step nowhere and do not count.
 */
static bool view_disjoint(int rank, const int64_t *dims, const int64_t *st)
{
	int order[VOPS_MAX_RANK], n = 0, d, k;
	uint64_t extent = 1;

	for (d = 0; d < rank; d++) {
		if (dims[d] <= 1)
			continue;
		for (k = n; k > 0 && st[order[k - 1]] > st[d]; k--)
			order[k] = order[k - 1];
		order[k] = d;
		n++;
	}
	for (k = 0; k < n; k++) {
		d = order[k];
		if ((uint64_t)st[d] < extent)
			return false;
		/* no overflow: the caller checked that the view's reach is within 2^40 */
		extent += (uint64_t)(dims[d] - 1) * (uint64_t)st[d];
		if (extent > VOPS_MAX_BYTES)
			return false;
	}
	return true;
}

static enum vops_err viewcopy_infer(const struct ops_call *c, struct vops_plan *p,
				    struct vops_error *err)
{
	const struct vops_tensor *x = &c->in[0];
	const int64_t *pr = c->at.pr.i;
	const int64_t lim = (int64_t)VOPS_MAX_BYTES;
	int rank, d;
	uint64_t n = 1, reach, step;
	const int64_t *dims, *st;
	char a[96], b[96];
	enum vops_err ret;
	int32_t dt;

	if (c->at.pr.nf || c->at.pr.ni < VC_FIXED || (c->at.pr.ni - VC_FIXED) % 2 ||
	    (c->at.pr.ni - VC_FIXED) / 2 > VOPS_MAX_RANK)
		return ops_fail(err, VOPS_ERR_ATTR, "ViewCopyD: %u int and %u float parameters (3 and "
				"two per dimension, at most %d dimensions)", c->at.pr.ni,
				c->at.pr.nf, VOPS_MAX_RANK);
	rank = (int)((c->at.pr.ni - VC_FIXED) / 2);
	dims = pr + VC_FIXED;
	st = dims + rank;
	if (pr[0] < INT32_MIN || pr[0] > INT32_MAX || !ops_dtype_bit((int32_t)pr[0]))
		return ops_fail(err, VOPS_ERR_DTYPE, "ViewCopyD to %s (%lld) is not supported (vnpu: "
				"the float, integer and bool types)",
				vops_dtype_name(pr[0] < INT32_MIN || pr[0] > INT32_MAX ? -1 : (int32_t)pr[0]),
				(long long)pr[0]);
	dt = (int32_t)pr[0];
	if (pr[1] < 0 || pr[1] > lim)
		return ops_fail(err, VOPS_ERR_ATTR, "ViewCopyD: attribute dst_storage_offset %lld "
				"(0 to 2^40)", (long long)pr[1]);
	if (pr[2] < 0 || pr[2] > lim)
		return ops_fail(err, VOPS_ERR_ATTR, "ViewCopyD: attribute dst_storage_size %lld "
				"(0 to 2^40)", (long long)pr[2]);
	for (d = 0; d < rank; d++) {
		if (dims[d] < 0 || dims[d] > lim)
			return ops_fail(err, VOPS_ERR_ATTR, "ViewCopyD: attribute dst_size[%d] is %lld",
					d, (long long)dims[d]);
		if (st[d] < 0 || st[d] > lim)
			return ops_fail(err, VOPS_ERR_ATTR, "ViewCopyD: attribute dst_stride[%d] is "
					"%lld (elements, 0 to 2^40)", d, (long long)st[d]);
		if (!ops_mul(n, (uint64_t)dims[d], &n) || n > VOPS_MAX_BYTES)
			return ops_too_large(c->def, err);
	}
	/* src broadcasts (numpy) to the view's shape */
	if (x->ndim > rank)
		goto no_bcast;
	for (d = 0; d < x->ndim; d++)
		if (x->dims[d] != 1 && x->dims[d] != dims[rank - x->ndim + d])
			goto no_bcast;
	if (n) {
		/* offset + sum((d - 1) * stride) + 1, each term at most 2^40: no overflow */
		reach = (uint64_t)pr[1] + 1;
		for (d = 0; d < rank; d++) {
			if (!ops_mul((uint64_t)(dims[d] - 1), (uint64_t)st[d], &step) ||
			    step > VOPS_MAX_BYTES) {
				reach = UINT64_MAX;
				break;
			}
			reach += step;
		}
		if (reach > (uint64_t)pr[2])
			return ops_fail(err, VOPS_ERR_ATTR, "ViewCopyD: the view %s (strides %s, "
					"offset %lld) reaches past dst_storage_size %lld",
					vops_shape_str(a, sizeof(a), rank, dims),
					vops_shape_str(b, sizeof(b), rank, st), (long long)pr[1],
					(long long)pr[2]);
		if (!view_disjoint(rank, dims, st))
			return ops_fail(err, VOPS_ERR_ATTR, "ViewCopyD: the view %s with strides %s "
					"has elements that overlap (a destination must not)",
					vops_shape_str(a, sizeof(a), rank, dims),
					vops_shape_str(b, sizeof(b), rank, st));
	}
	ret = ops_set_in_dense(c, p, 0, err);
	if (!ret)
		ret = ops_set_out_n(c, p, 0, dt, 1, &pr[2], err);
	p->empty = n == 0;
	return ret;
no_bcast:
	return ops_fail(err, VOPS_ERR_INPUT, "ViewCopyD: src %s does not broadcast to dst_size %s",
			vops_shape_str(a, sizeof(a), x->ndim, x->dims),
			vops_shape_str(b, sizeof(b), rank, dims));
}

/*
 * A copy of shape @dims from @src (type @sdt, strides @sst, start @soff)
 * into @dst (type @ddt, strides @dst_st, start @doff), every element
 * converted as Cast converts one: loaded into the source type's domain
 * (double or int64), stored rounding once. OK or CANCELED.
 */
static enum vops_run_status convert_copy(void *dst, int32_t ddt, const int64_t *dst_st, int64_t doff,
					 const void *src, int32_t sdt, const int64_t *sst,
					 int64_t soff, int ndim, const int64_t *dims,
					 struct ops_runner *r)
{
	const int64_t *st[2] = { dst_st, sst };
	const int64_t off0[2] = { doff, soff };
	const bool f = ops_dt_dom(sdt) == OPS_DOM_F64;
	union {
		double f[OPS_EW_BLOCK];
		int64_t i[OPS_EW_BLOCK];
	} buf;
	uint64_t done = OPS_EW_CHUNK;
	struct ops_iter it;

	ops_iter_init(&it, ndim, dims, 2, st, off0);
	if (!it.rows)
		return VOPS_RUN_OK;
	do {
		int64_t len = it.dims[it.ndim - 1], ds = it.st[0][it.ndim - 1];
		int64_t ss = it.st[1][it.ndim - 1], j0;

		for (j0 = 0; j0 < len; j0 += OPS_EW_BLOCK) {
			size_t m = (size_t)ops_min((uint64_t)(len - j0), OPS_EW_BLOCK);

			if (done >= OPS_EW_CHUNK) {
				if (ops_should_stop(r))
					return VOPS_RUN_CANCELED;
				done = 0;
			}
			done += m;
			if (f) {
				ops_load_f64(buf.f, src, sdt, it.off[1] + j0 * ss, ss, m);
				ops_store_f64(dst, ddt, it.off[0] + j0 * ds, ds, buf.f, m);
			} else {
				ops_load_i64(buf.i, src, sdt, it.off[1] + j0 * ss, ss, m);
				ops_store_i64(dst, ddt, it.off[0] + j0 * ds, ds, buf.i, m);
			}
		}
		/* Short rows: a row costs its setup too. */
		done += 16;
	} while (ops_iter_next(&it));
	return VOPS_RUN_OK;
}

static enum vops_run_status viewcopy_run(const struct ops_call *c, const struct vops_plan *p,
					 const struct ops_bufs *b, struct ops_runner *r)
{
	const struct vops_tensor *x = &c->in[0];
	int rank = (int)((c->at.pr.ni - VC_FIXED) / 2);
	const int64_t *dims = c->at.pr.i + VC_FIXED, *st = dims + rank;
	int32_t dt = p->out[0].dtype;
	int64_t sst[VOPS_MAX_RANK];

	ops_bcast_strides(x, rank, dims, sst);
	/* The same type: element moves by size, bits as they are. */
	if (dt == x->dtype)
		return ops_copy_run(b->out[0], st, c->at.pr.i[1], b->in[0], sst, x->offset, rank,
				    dims, ops_esize(dt), r);
	return convert_copy(b->out[0], dt, st, c->at.pr.i[1], b->in[0], x->dtype, sst, x->offset,
			    rank, dims, r);
}

static const struct ops_def def_viewcopy = {
	.name = "ViewCopyD", .id = OPS_ID_MOVE + 17, .nin = 1, .nout = 1,
	.attr_fmt = OPS_AF_PARAMS, .flags = OPS_DEF_STRIDED, .dtypes = OPS_DT_ANY,
	.attrs = viewcopy_attrs, .parse = viewcopy_parse, .infer = viewcopy_infer,
	.workspace = ops_ws_none, .run = viewcopy_run,
};

/* Index i holds id OPS_ID_MOVE + i; append only. */
const struct ops_def *const ops_move_defs[] = {
	&def_reshape,
	&def_flatten,
	&def_squeeze,
	&def_unsqueeze,
	&def_transpose,
	&def_concat,
	&def_split,
	&def_splitv,
	&def_sslice,
	&def_expand,
	&def_tile,
	&def_pad,
	&def_identity,
	&def_shape,
	&def_size,
	&def_fill,
	&def_range,
	&def_viewcopy,
	NULL,
};
