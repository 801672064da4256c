// SPDX-License-Identifier: MIT
/*
 * map_index.c - ONNX nodes of the index family to CANN operator calls
 * (onnx_map.h): gathers, scatters, OneHot, Trilu, DepthToSpace,
 * SpaceToDepth and Resize. Values that define shapes (OneHot's depth,
 * Trilu's k, Resize's roi, scales and sizes) are read from constant inputs
 * into attributes of CANN's attribute forms.
 */
#include <math.h>
#include <string.h>

#include "onnx_map.h"

/* The call @type of node inputs [first, last] and every output. */
static enum onnx_err map_some(struct onnx_map *m, const char *type, int first, int last)
{
	enum onnx_err ret;

	m->call->type = type;
	ret = onnx_map_inputs(m, first, last);
	return ret ? ret : onnx_map_outputs(m, 0, -1);
}

/* ONNX Gather's axis (default 0) is GatherV2D's. */
static enum onnx_err map_gather(struct onnx_map *m)
{
	enum onnx_err ret = onnx_map_simple(m, "GatherV2D");

	return ret ? ret : onnx_map_attr_int(m, "axis", onnx_attr_int(m->node, "axis", 0));
}

/* ONNX's axis is GatherElements' dim. */
static enum onnx_err map_gather_elements(struct onnx_map *m)
{
	enum onnx_err ret = onnx_map_simple(m, "GatherElements");

	return ret ? ret : onnx_map_attr_int(m, "dim", onnx_attr_int(m->node, "axis", 0));
}

/* batch_dims is a vnpu extension of GatherNd. */
static enum onnx_err map_gather_nd(struct onnx_map *m)
{
	enum onnx_err ret = onnx_map_simple(m, "GatherNd");

	return ret ? ret
		   : onnx_map_attr_int(m, "batch_dims", onnx_attr_int(m->node, "batch_dims", 0));
}

/* ScatterElements (and opset 9's Scatter): axis and reduction as they are. */
static enum onnx_err map_scatter_elements(struct onnx_map *m)
{
	enum onnx_err ret = onnx_map_simple(m, "ScatterElements");

	if (!ret)
		ret = onnx_map_attr_int(m, "axis", onnx_attr_int(m->node, "axis", 0));
	return ret ? ret : onnx_map_attr_str(m, "reduction",
					     onnx_attr_string(m->node, "reduction", "none"));
}

/* ScatterND's reduction picks the operator. */
static enum onnx_err map_scatter_nd(struct onnx_map *m)
{
	const char *red = onnx_attr_string(m->node, "reduction", "none");

	if (!strcmp(red, "none"))
		return onnx_map_simple(m, "TensorScatterUpdate");
	if (!strcmp(red, "add"))
		return onnx_map_simple(m, "TensorScatterAdd");
	if (!strcmp(red, "mul"))
		return onnx_map_simple(m, "TensorScatterMul");
	return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "reduction \"%s\" has no CANN operator", red);
}

/* Element @k of @t alone, as a scalar tensor the call owns. */
static enum onnx_err made_scalar(struct onnx_map *m, const struct onnx_tensor *t, uint64_t k)
{
	struct onnx_call *c = m->call;
	struct onnx_tensor *s;
	struct onnx_error err;
	size_t es;

	if (c->nmade >= ONNX_CALL_MAX_MADE || c->nin >= VOPS_MAX_INPUTS)
		return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "too many made tensors");
	s = &c->made[c->nmade];
	if (onnx_tensor_copy(s, t, &err))
		return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "values: %s", err.msg);
	c->nmade++;
	es = t->count ? t->size / t->count : 0;
	memmove(s->data, (const char *)s->data + k * es, es);
	s->ndim = 0;
	s->count = 1;
	s->size = es;
	c->in[c->nin++] = ONNX_CALL_MADE + c->nmade - 1;
	return ONNX_OK;
}

/* OneHot(indices, depth, values [off, on]) is OneHotD(x, on_value, off_value; depth). */
static enum onnx_err map_one_hot(struct onnx_map *m)
{
	const struct onnx_tensor *vals = onnx_map_has(m, 2) ? m->in[2].value : NULL;
	enum onnx_err ret;
	double depth;
	int n;

	ret = onnx_map_floats(m, 1, &depth, 1, &n);
	if (ret)
		return ret;
	if (n != 1 || !isfinite(depth))
		return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "depth must be one finite value");
	if (!vals || vals->count != 2)
		return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED,
				     "values must be two constants [off, on]");
	m->call->type = "OneHotD";
	ret = onnx_map_inputs(m, 0, 0);
	if (!ret)
		ret = made_scalar(m, vals, 1);
	if (!ret)
		ret = made_scalar(m, vals, 0);
	if (!ret)
		ret = onnx_map_outputs(m, 0, -1);
	if (!ret)
		ret = onnx_map_attr_int(m, "depth", (int64_t)depth);
	return ret ? ret : onnx_map_attr_int(m, "axis", onnx_attr_int(m->node, "axis", -1));
}

/* Trilu(x, k; upper) is Triu or Tril with diagonal k. */
static enum onnx_err map_trilu(struct onnx_map *m)
{
	int64_t k = 0;
	enum onnx_err ret;
	int n = 1;

	if (onnx_map_has(m, 1)) {
		ret = onnx_map_ints(m, 1, &k, 1, &n);
		if (ret)
			return ret;
		if (n != 1)
			return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "k must be one value");
	}
	ret = map_some(m, onnx_attr_int(m->node, "upper", 1) ? "Triu" : "Tril", 0, 0);
	return ret ? ret : onnx_map_attr_int(m, "diagonal", k);
}

static enum onnx_err map_depth_to_space(struct onnx_map *m)
{
	enum onnx_err ret = onnx_map_simple(m, "DepthToSpace");

	if (!ret)
		ret = onnx_map_attr_int(m, "block_size", onnx_attr_int(m->node, "blocksize", 0));
	if (!ret)
		ret = onnx_map_attr_str(m, "mode", onnx_attr_string(m->node, "mode", "DCR"));
	return ret ? ret : onnx_map_attr_str(m, "data_format", "NCHW");
}

static enum onnx_err map_space_to_depth(struct onnx_map *m)
{
	enum onnx_err ret = onnx_map_simple(m, "SpaceToDepth");

	if (!ret)
		ret = onnx_map_attr_int(m, "block_size", onnx_attr_int(m->node, "blocksize", 0));
	return ret ? ret : onnx_map_attr_str(m, "data_format", "NCHW");
}

#define RS_MAX 64

/* A constant input with values, or none (absent or empty). */
static bool has_values(const struct onnx_map *m, size_t i)
{
	return onnx_map_has(m, i) && m->in[i].value && m->in[i].value->count;
}

/*
 * Resize(X, roi, scales, sizes) (opset 10 and Upsample: (X, scales),
 * Upsample 7: a scales attribute) is ResizeD(x; sizes, scales, roi, ...):
 * sizes from scales as ONNX computes them (floor of the float32 product),
 * scales only when ONNX has them.
 */
static enum onnx_err map_resize(struct onnx_map *m)
{
	const struct onnx_map_input *x = &m->in[0];
	bool old = m->opset < 11 || !strcmp(m->node->op_type, "Upsample");
	size_t si = old ? 1 : 2, zi = 3, ri = 1, na = 0;
	const float *fa = onnx_attr_floats(m->node, "scales", &na);
	double v[2 * RS_MAX];
	int64_t sizes[RS_MAX];
	float f[2 * RS_MAX];
	enum onnx_err ret;
	int n = 0, d;

	if (x->ndim > RS_MAX)
		return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "more than %d dimensions", RS_MAX);
	ret = map_some(m, "ResizeD", 0, 0);
	if (ret)
		return ret;
	if (fa || has_values(m, si)) {
		for (d = 0; fa && d < (int)na && d < RS_MAX; d++)
			v[n++] = fa[d];
		if (!fa)
			ret = onnx_map_floats(m, si, v, RS_MAX, &n);
		if (ret)
			return ret;
		if (n != x->ndim)
			return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "%d scales for %d dimensions",
					     n, x->ndim);
		for (d = 0; d < n; d++) {
			f[d] = (float)v[d];
			sizes[d] = (int64_t)floorf((float)x->dims[d] * f[d]);
		}
		ret = onnx_map_attr_floats(m, "scales", f, n);
	} else if (!old && has_values(m, zi)) {
		ret = onnx_map_ints(m, zi, sizes, RS_MAX, &n);
	} else {
		return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "needs constant scales or sizes");
	}
	if (!ret)
		ret = onnx_map_attr_ints(m, "sizes", sizes, n);
	/* Only tf_crop_and_resize reads the roi: it must be known then. */
	if (!ret && !old && onnx_map_has(m, ri) && !has_values(m, ri) &&
	    !strcmp(onnx_attr_string(m->node, "coordinate_transformation_mode", "half_pixel"),
		    "tf_crop_and_resize"))
		return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "needs a constant roi for tf_crop_and_resize");
	if (!ret && !old && has_values(m, ri)) {
		ret = onnx_map_floats(m, ri, v, 2 * RS_MAX, &n);
		for (d = 0; !ret && d < n; d++)
			f[d] = (float)v[d];
		if (!ret)
			ret = onnx_map_attr_floats(m, "roi", f, n);
	}
	if (!ret)
		ret = onnx_map_attr_str(m, "mode", onnx_attr_string(m->node, "mode", "nearest"));
	if (!ret)
		ret = onnx_map_attr_str(m, "coordinate_transformation_mode",
					onnx_attr_string(m->node, "coordinate_transformation_mode",
							 old ? "asymmetric" : "half_pixel"));
	if (!ret)
		ret = onnx_map_attr_str(m, "nearest_mode",
					onnx_attr_string(m->node, "nearest_mode",
							 old ? "floor" : "round_prefer_floor"));
	if (!ret)
		ret = onnx_map_attr_float(m, "cubic_coeff_a",
					  onnx_attr_float(m->node, "cubic_coeff_a", -0.75f));
	if (!ret)
		ret = onnx_map_attr_int(m, "exclude_outside",
					onnx_attr_int(m->node, "exclude_outside", 0));
	if (!ret)
		ret = onnx_map_attr_float(m, "extrapolation_value",
					  onnx_attr_float(m->node, "extrapolation_value", 0.0f));
	return ret ? ret : onnx_map_attr_str(m, "data_format", "NCHW");
}

const struct onnx_map_entry onnx_map_index[] = {
	{ "Gather", map_gather, "GatherV2D" },
	{ "GatherElements", map_gather_elements, "GatherElements" },
	{ "GatherND", map_gather_nd, "GatherNd" },
	{ "ScatterElements", map_scatter_elements, "ScatterElements" },
	{ "Scatter", map_scatter_elements, "ScatterElements" },
	{ "ScatterND", map_scatter_nd, "TensorScatterUpdate TensorScatterAdd TensorScatterMul" },
	{ "OneHot", map_one_hot, "OneHotD" },
	{ "Trilu", map_trilu, "Triu Tril" },
	{ "DepthToSpace", map_depth_to_space, "DepthToSpace" },
	{ "SpaceToDepth", map_space_to_depth, "SpaceToDepth" },
	{ "Resize", map_resize, "ResizeD" },
	{ "Upsample", map_resize, "ResizeD" },
	{ NULL, NULL, NULL },
};
