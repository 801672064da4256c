// SPDX-License-Identifier: MIT
/*
 * map_move.c - ONNX nodes of the move family to CANN operator calls
 * (onnx_map.h).
 *
 * Shape-defining inputs (Reshape's shape, Slice's starts/ends/axes/steps,
 * Expand's shape, Tile's repeats, Pad's pads, value and axes, Split's
 * split, Squeeze/Unsqueeze's axes from opset 13, ConstantOfShape's shape,
 * Range's start/limit/delta) must be constants: their values become the
 * attributes of CANN's attribute forms. ONNX's defaults are passed
 * explicitly where CANN's differ.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "onnx_map.h"
#include "acl/acl_base.h"

#define MAX_RANK VOPS_MAX_RANK

/* Input 0 and output 0 as the call's, of CANN type @type. */
static enum onnx_err one_to_one(struct onnx_map *m, const char *type)
{
	enum onnx_err ret;

	m->call->type = type;
	ret = onnx_map_inputs(m, 0, 0);
	return ret ? ret : onnx_map_outputs(m, 0, 0);
}

static int in_rank(const struct onnx_map *m)
{
	return onnx_map_has(m, 0) ? m->in[0].ndim : 0;
}

static enum onnx_err map_reshape(struct onnx_map *m)
{
	int64_t shape[MAX_RANK];
	int n;
	enum onnx_err ret = onnx_map_ints(m, 1, shape, MAX_RANK, &n);

	if (!ret)
		ret = one_to_one(m, "Reshape");
	if (!ret)
		ret = onnx_map_attr_ints(m, "shape", shape, n);
	return ret ? ret
		   : onnx_map_attr_int(m, "allowzero", onnx_attr_int(m->node, "allowzero", 0));
}

static enum onnx_err map_flatten(struct onnx_map *m)
{
	enum onnx_err ret = one_to_one(m, "Flatten");

	return ret ? ret : onnx_map_attr_int(m, "axis", onnx_attr_int(m->node, "axis", 1));
}

/* Axes from input 1 (opset 13 on) or attribute "axes"; *n -1 when neither. */
static enum onnx_err get_axes(struct onnx_map *m, int64_t *axes, int *n)
{
	const int64_t *a;
	size_t cnt;

	*n = -1;
	if (m->opset >= 13) {
		if (!onnx_map_has(m, 1))
			return ONNX_OK;
		return onnx_map_ints(m, 1, axes, MAX_RANK, n);
	}
	a = onnx_attr_ints(m->node, "axes", &cnt);
	if (!onnx_node_attr(m->node, "axes"))
		return ONNX_OK;
	if (cnt > MAX_RANK)
		return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "more than %d axes", MAX_RANK);
	if (cnt)
		memcpy(axes, a, cnt * sizeof(*a));
	*n = (int)cnt;
	return ONNX_OK;
}

static enum onnx_err map_squeeze(struct onnx_map *m)
{
	int64_t axes[MAX_RANK];
	int n;
	enum onnx_err ret = get_axes(m, axes, &n);

	if (!ret)
		ret = one_to_one(m, "Squeeze");
	return ret || n < 0 ? ret : onnx_map_attr_ints(m, "axis", axes, n);
}

static enum onnx_err map_unsqueeze(struct onnx_map *m)
{
	int64_t axes[MAX_RANK];
	int n;
	enum onnx_err ret = get_axes(m, axes, &n);

	if (!ret && n < 0)
		return onnx_map_fail(m, ONNX_ERR_INVALID, "no axes");
	if (!ret)
		ret = one_to_one(m, "Unsqueeze");
	return ret ? ret : onnx_map_attr_ints(m, "axes", axes, n);
}

/* ONNX's default perm reverses the axes. */
static enum onnx_err map_transpose(struct onnx_map *m)
{
	int64_t perm[MAX_RANK];
	const int64_t *p;
	size_t cnt;
	int r = in_rank(m), d;
	enum onnx_err ret = one_to_one(m, "TransposeD");

	if (ret)
		return ret;
	p = onnx_attr_ints(m->node, "perm", &cnt);
	if (onnx_node_attr(m->node, "perm"))
		return onnx_map_attr_ints(m, "perm", p, (int)cnt);
	for (d = 0; d < r; d++)
		perm[d] = r - 1 - d;
	return onnx_map_attr_ints(m, "perm", perm, r);
}

static enum onnx_err map_concat(struct onnx_map *m)
{
	enum onnx_err ret = onnx_map_simple(m, "ConcatD");

	if (!ret && !onnx_node_attr(m->node, "axis"))
		return onnx_map_fail(m, ONNX_ERR_INVALID, "no axis");
	if (!ret)
		ret = onnx_map_attr_int(m, "concat_dim", onnx_attr_int(m->node, "axis", 0));
	return ret ? ret : onnx_map_attr_int(m, "N", m->call->nin);
}

/* With split sizes (input 1 from opset 13, else attribute split): SplitVD;
 * without: SplitD, equal parts. */
static enum onnx_err map_split(struct onnx_map *m)
{
	int64_t split[VOPS_MAX_OUTPUTS];
	const int64_t *a;
	int n = -1;
	size_t cnt;
	enum onnx_err ret;

	if (m->opset >= 13 && onnx_map_has(m, 1)) {
		ret = onnx_map_ints(m, 1, split, VOPS_MAX_OUTPUTS, &n);
		if (ret)
			return ret;
	} else if (m->opset < 13 && onnx_node_attr(m->node, "split")) {
		a = onnx_attr_ints(m->node, "split", &cnt);
		if (cnt > VOPS_MAX_OUTPUTS)
			return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "more than %d outputs",
					     VOPS_MAX_OUTPUTS);
		memcpy(split, a, cnt * sizeof(*a));
		n = (int)cnt;
	}
	m->call->type = n >= 0 ? "SplitVD" : "SplitD";
	ret = onnx_map_inputs(m, 0, 0);
	if (!ret)
		ret = onnx_map_outputs(m, 0, -1);
	if (!ret && n >= 0)
		ret = onnx_map_attr_ints(m, "size_splits", split, n);
	if (!ret)
		ret = onnx_map_attr_int(m, "split_dim", onnx_attr_int(m->node, "axis", 0));
	return ret ? ret : onnx_map_attr_int(m, "num_split", m->call->nout);
}

/*
 * Slice as StridedSliceD over every axis: the listed ones take ONNX's
 * starts, ends and steps (their clamping is TensorFlow's), the others
 * their whole range.
 */
static enum onnx_err map_slice(struct onnx_map *m)
{
	int64_t st[MAX_RANK], en[MAX_RANK], ax[MAX_RANK], sp[MAX_RANK];
	int64_t beg[MAX_RANK], end[MAX_RANK], str[MAX_RANK];
	bool set[MAX_RANK] = { false };
	int r = in_rank(m), ns, ne, na = -1, nsp = -1, k, a;
	const int64_t *v;
	size_t cnt;
	enum onnx_err ret = ONNX_OK;

	if (m->opset >= 10) {
		ret = onnx_map_ints(m, 1, st, MAX_RANK, &ns);
		if (!ret)
			ret = onnx_map_ints(m, 2, en, MAX_RANK, &ne);
		if (!ret && onnx_map_has(m, 3))
			ret = onnx_map_ints(m, 3, ax, MAX_RANK, &na);
		if (!ret && onnx_map_has(m, 4))
			ret = onnx_map_ints(m, 4, sp, MAX_RANK, &nsp);
		if (ret)
			return ret;
	} else {
		v = onnx_attr_ints(m->node, "starts", &cnt);
		ns = (int)(cnt > MAX_RANK ? MAX_RANK + 1 : cnt);
		if (ns <= MAX_RANK && cnt)
			memcpy(st, v, cnt * sizeof(*v));
		v = onnx_attr_ints(m->node, "ends", &cnt);
		ne = (int)(cnt > MAX_RANK ? MAX_RANK + 1 : cnt);
		if (ne <= MAX_RANK && cnt)
			memcpy(en, v, cnt * sizeof(*v));
		if (onnx_node_attr(m->node, "axes")) {
			v = onnx_attr_ints(m->node, "axes", &cnt);
			na = (int)(cnt > MAX_RANK ? MAX_RANK + 1 : cnt);
			if (na <= MAX_RANK && cnt)
				memcpy(ax, v, cnt * sizeof(*v));
		}
	}
	if (ns != ne || ns > r || (na >= 0 && na != ns) || (nsp >= 0 && nsp != ns))
		return onnx_map_fail(m, ONNX_ERR_INVALID, "starts, ends, axes and steps disagree");
	for (a = 0; a < r; a++) {
		beg[a] = 0;
		end[a] = INT64_MAX;
		str[a] = 1;
	}
	for (k = 0; k < ns; k++) {
		int64_t x = na >= 0 ? ax[k] : k;

		if (x < 0)
			x += r;
		if (x < 0 || x >= r || set[x])
			return onnx_map_fail(m, ONNX_ERR_INVALID,
					     "axis %lld is out of range or repeated",
					     (long long)(na >= 0 ? ax[k] : k));
		set[x] = true;
		beg[x] = st[k];
		end[x] = en[k];
		str[x] = nsp >= 0 ? sp[k] : 1;
	}
	ret = one_to_one(m, "StridedSliceD");
	if (!ret)
		ret = onnx_map_attr_ints(m, "begin", beg, r);
	if (!ret)
		ret = onnx_map_attr_ints(m, "end", end, r);
	return ret ? ret : onnx_map_attr_ints(m, "strides", str, r);
}

static enum onnx_err map_expand(struct onnx_map *m)
{
	int64_t shape[MAX_RANK];
	int n;
	enum onnx_err ret = onnx_map_ints(m, 1, shape, MAX_RANK, &n);

	if (!ret)
		ret = one_to_one(m, "ExpandD");
	return ret ? ret : onnx_map_attr_ints(m, "shape", shape, n);
}

static enum onnx_err map_tile(struct onnx_map *m)
{
	int64_t rep[MAX_RANK];
	int n;
	enum onnx_err ret = onnx_map_ints(m, 1, rep, MAX_RANK, &n);

	if (!ret)
		ret = one_to_one(m, "TileD");
	return ret ? ret : onnx_map_attr_ints(m, "multiples", rep, n);
}

/*
 * Pad as PadV3D: ONNX's pads [b0, b1, ..., e0, e1, ...] (input 1 from
 * opset 11, for the listed axes from opset 18) with paddings_contiguous
 * false; the value (input 2 or attribute value) as an int for integer
 * types, else a float; ONNX's mode "wrap" is CANN's "circular".
 */
static enum onnx_err map_pad(struct onnx_map *m)
{
	int64_t pads[2 * MAX_RANK], full[2 * MAX_RANK] = { 0 }, ax[MAX_RANK];
	int r = in_rank(m), n, na = -1, k;
	const char *mode = onnx_attr_string(m->node, "mode", "constant");
	bool is_int = false;
	double val = 0;
	const int64_t *v;
	size_t cnt;
	enum onnx_err ret = ONNX_OK;

	if (onnx_map_has(m, 0))
		is_int = m->in[0].acl_dtype != ACL_FLOAT && m->in[0].acl_dtype != ACL_FLOAT16 &&
			 m->in[0].acl_dtype != ACL_BF16 && m->in[0].acl_dtype != ACL_DOUBLE;
	if (m->opset >= 11) {
		ret = onnx_map_ints(m, 1, pads, 2 * MAX_RANK, &n);
		if (!ret && onnx_map_has(m, 2)) {
			double cv[1];
			int one;

			ret = onnx_map_floats(m, 2, cv, 1, &one);
			if (!ret && one == 1)
				val = cv[0];
		}
		if (!ret && onnx_map_has(m, 3))
			ret = onnx_map_ints(m, 3, ax, MAX_RANK, &na);
		if (ret)
			return ret;
	} else {
		v = onnx_attr_ints(m->node, "pads", &cnt);
		if (cnt > 2 * MAX_RANK)
			return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "more than %d pads",
					     2 * MAX_RANK);
		if (cnt)
			memcpy(pads, v, cnt * sizeof(*v));
		n = (int)cnt;
		val = onnx_attr_float(m->node, "value", 0.0f);
	}
	if (na >= 0) {
		if (n != 2 * na)
			return onnx_map_fail(m, ONNX_ERR_INVALID, "%d pads for %d axes", n, na);
		for (k = 0; k < na; k++) {
			int64_t a = ax[k] < 0 ? ax[k] + r : ax[k];

			if (a < 0 || a >= r)
				return onnx_map_fail(m, ONNX_ERR_INVALID,
						     "axis %lld is out of range", (long long)ax[k]);
			full[a] = pads[k];
			full[r + a] = pads[na + k];
		}
		n = 2 * r;
	} else {
		memcpy(full, pads, (size_t)n * sizeof(*pads));
	}
	if (!strcmp(mode, "wrap"))
		mode = "circular";
	ret = one_to_one(m, "PadV3D");
	if (!ret)
		ret = onnx_map_attr_ints(m, "paddings", full, n);
	if (!ret)
		ret = onnx_map_attr_str(m, "mode", mode);
	if (!ret)
		ret = onnx_map_attr_bool(m, "paddings_contiguous", false);
	if (!ret && is_int && fabs(val) < 0x1p63)
		return onnx_map_attr_int(m, "constant_values", (int64_t)val);
	return ret ? ret : onnx_map_attr_float(m, "constant_values", (float)val);
}

static enum onnx_err map_identity(struct onnx_map *m)
{
	return one_to_one(m, "Identity");
}

/* ONNX's Shape and Size are int64 (CANN's default DT_INT32). */
static enum onnx_err map_shape(struct onnx_map *m)
{
	enum onnx_err ret = one_to_one(m, "Shape");

	if (!ret)
		ret = onnx_map_attr_int(m, "dtype", ACL_INT64);
	if (!ret)
		ret = onnx_map_copy_attr(m, "start", "start");
	return ret ? ret : onnx_map_copy_attr(m, "end", "end");
}

static enum onnx_err map_size(struct onnx_map *m)
{
	enum onnx_err ret = one_to_one(m, "Size");

	return ret ? ret : onnx_map_attr_int(m, "dtype", ACL_INT64);
}

/* A tensor the call owns: @ndim dims, elements of ONNX type @dtype. */
static struct onnx_tensor *made_tensor(struct onnx_map *m, int32_t dtype, int ndim,
				       const int64_t *dims, uint64_t count)
{
	struct onnx_call *c = m->call;
	struct onnx_tensor *t;
	size_t es = onnx_dtype_size(dtype);

	if (c->nmade >= ONNX_CALL_MAX_MADE || !es || onnx_dtype_to_acl(dtype) < 0) {
		onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "cannot make a tensor of %s",
			      onnx_dtype_name(dtype));
		return NULL;
	}
	t = &c->made[c->nmade];
	memset(t, 0, sizeof(*t));
	t->dtype = dtype;
	t->acl_dtype = onnx_dtype_to_acl(dtype);
	t->ndim = ndim;
	t->dims = calloc((size_t)(ndim ? ndim : 1), sizeof(*t->dims));
	t->count = count;
	t->size = (size_t)count * es;
	t->data = calloc(t->size ? t->size : 1, 1);
	if (!t->dims || !t->data) {
		onnx_tensor_release(t);
		onnx_map_fail(m, ONNX_ERR_NOMEM, "out of memory");
		return NULL;
	}
	if (ndim)
		memcpy(t->dims, dims, (size_t)ndim * sizeof(*dims));
	c->in[c->nin++] = ONNX_CALL_MADE + c->nmade++;
	return t;
}

/* ConstantOfShape as FillD: the value attribute (default a float 0) as the
 * value input, the shape input's values as dims. */
static enum onnx_err map_constant_of_shape(struct onnx_map *m)
{
	const struct onnx_tensor *val = onnx_attr_tensor(m->node, "value");
	struct onnx_tensor *t;
	struct onnx_error e;
	int64_t dims[MAX_RANK];
	int n;
	enum onnx_err ret = onnx_map_ints(m, 0, dims, MAX_RANK, &n);

	if (ret)
		return ret;
	m->call->type = "FillD";
	if (val && val->count != 1)
		return onnx_map_fail(m, ONNX_ERR_INVALID, "value has %llu elements",
				     (unsigned long long)val->count);
	t = made_tensor(m, val ? val->dtype : ONNX_FLOAT, 0, NULL, 1);
	if (!t)
		return ONNX_ERR_UNSUPPORTED;
	if (val) {
		free(t->data);
		free(t->dims);
		t->data = NULL;
		t->dims = NULL;
		if (onnx_tensor_copy(t, val, &e))
			return onnx_map_fail(m, e.code, "%s", e.msg);
	}
	ret = onnx_map_outputs(m, 0, 0);
	return ret ? ret : onnx_map_attr_ints(m, "dims", dims, n);
}

#define RANGE_MAX (1 << 26)

/*
 * Range as RangeD: start, limit and delta (scalar inputs) as attributes
 * (ints for integer types, exact), and the assist input 0, 1, ..., n - 1
 * of the inputs' type made here.
 */
static enum onnx_err map_range(struct onnx_map *m)
{
	double v[3], len;
	struct onnx_tensor *t;
	int64_t n64;
	uint64_t i;
	int k, one;
	enum onnx_err ret = ONNX_OK;
	int32_t dt;

	for (k = 0; k < 3 && !ret; k++) {
		ret = onnx_map_floats(m, (size_t)k, &v[k], 1, &one);
		if (!ret && one != 1)
			return onnx_map_fail(m, ONNX_ERR_INVALID, "input %d is not a scalar", k);
	}
	if (ret)
		return ret;
	if (v[2] == 0 || !isfinite(v[0]) || !isfinite(v[1]) || !isfinite(v[2]))
		return onnx_map_fail(m, ONNX_ERR_INVALID, "start %g, limit %g, delta %g", v[0],
				     v[1], v[2]);
	len = ceil((v[1] - v[0]) / v[2]);
	if (len < 0)
		len = 0;
	if (len > RANGE_MAX)
		return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "more than %d elements", RANGE_MAX);
	n64 = (int64_t)len;
	dt = m->in[0].value->dtype;
	m->call->type = "RangeD";
	t = made_tensor(m, dt, 1, &n64, (uint64_t)n64);
	if (!t)
		return ONNX_ERR_UNSUPPORTED;
	for (i = 0; i < (uint64_t)n64; i++) {
		switch (dt) {
		case ONNX_FLOAT: ((float *)t->data)[i] = (float)i; break;
		case ONNX_DOUBLE: ((double *)t->data)[i] = (double)i; break;
		case ONNX_INT16: ((int16_t *)t->data)[i] = (int16_t)i; break;
		case ONNX_INT32: ((int32_t *)t->data)[i] = (int32_t)i; break;
		case ONNX_INT64: ((int64_t *)t->data)[i] = (int64_t)i; break;
		default:
			return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "Range of %s",
					     onnx_dtype_name(dt));
		}
	}
	ret = onnx_map_outputs(m, 0, 0);
	for (k = 0; k < 3 && !ret; k++) {
		static const char *const names[] = { "start", "limit", "delta" };

		if (dt == ONNX_FLOAT || dt == ONNX_DOUBLE)
			ret = onnx_map_attr_float(m, names[k], (float)v[k]);
		else
			ret = onnx_map_attr_int(m, names[k], (int64_t)v[k]);
	}
	return ret;
}

const struct onnx_map_entry onnx_map_move[] = {
	{ "Reshape", map_reshape, "Reshape" },
	{ "Flatten", map_flatten, "Flatten" },
	{ "Squeeze", map_squeeze, "Squeeze" },
	{ "Unsqueeze", map_unsqueeze, "Unsqueeze" },
	{ "Transpose", map_transpose, "TransposeD" },
	{ "Concat", map_concat, "ConcatD" },
	{ "Split", map_split, "SplitD SplitVD" },
	{ "Slice", map_slice, "StridedSliceD" },
	{ "Expand", map_expand, "ExpandD" },
	{ "Tile", map_tile, "TileD" },
	{ "Pad", map_pad, "PadV3D" },
	{ "Identity", map_identity, "Identity" },
	{ "Shape", map_shape, "Shape" },
	{ "Size", map_size, "Size" },
	{ "ConstantOfShape", map_constant_of_shape, "FillD" },
	{ "Range", map_range, "RangeD" },
	{ NULL, NULL, NULL },
};
