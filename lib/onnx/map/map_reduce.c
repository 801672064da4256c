// SPDX-License-Identifier: MIT
/*
 * map_reduce.c - ONNX nodes of the reduce family to CANN operator calls
 * (onnx_map.h).
 *
 * Axes that ONNX gives as an input (ReduceSum from opset 13, the other
 * reductions from 18, CumSum's axis, TopK's k) must be constants: they
 * become the attributes of CANN's attribute forms. ONNX's defaults are
 * passed explicitly where CANN's differ (keepdims 1, keep_dims false).
 */
#include "acl/acl_base.h"
#include "onnx_map.h"

/* The reduced axes of a reduction node into @axes (*@n); all of them when
 * ONNX says so. *@noop: empty axes that reduce nothing. */
static enum onnx_err reduce_axes(struct onnx_map *m, int64_t axes_input_opset, int64_t *axes,
				 int *n, bool *noop)
{
	int rank = m->nin ? m->in[0].ndim : 0, i;
	enum onnx_err ret;
	size_t cnt = 0;
	const int64_t *a;

	*n = 0;
	*noop = false;
	if (m->opset >= axes_input_opset) {
		if (onnx_map_has(m, 1)) {
			ret = onnx_map_ints(m, 1, axes, VOPS_MAX_RANK, n);
			if (ret)
				return ret;
		}
	} else {
		a = onnx_attr_ints(m->node, "axes", &cnt);
		if (cnt > VOPS_MAX_RANK)
			return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "more than %d axes", VOPS_MAX_RANK);
		for (i = 0; i < (int)cnt; i++)
			axes[i] = a[i];
		*n = (int)cnt;
	}
	if (*n)
		return ONNX_OK;
	if (onnx_attr_int(m->node, "noop_with_empty_axes", 0)) {
		*noop = true;
		return ONNX_OK;
	}
	for (i = 0; i < rank; i++)
		axes[i] = i;
	*n = rank;
	return ONNX_OK;
}

/* A reduction: input 0 only, the axes as attribute @axes_name. */
static enum onnx_err map_reduction(struct onnx_map *m, const char *type, int64_t axes_input_opset,
				   const char *axes_name, const char *keep_name)
{
	int64_t axes[VOPS_MAX_RANK];
	enum onnx_err ret;
	bool noop;
	int n;

	m->call->type = type;
	ret = reduce_axes(m, axes_input_opset, axes, &n, &noop);
	if (!ret)
		ret = onnx_map_inputs(m, 0, 0);
	if (!ret)
		ret = onnx_map_outputs(m, 0, -1);
	if (!ret)
		ret = onnx_map_attr_ints(m, axes_name, axes, n);
	if (!ret)
		ret = onnx_map_attr_bool(m, keep_name, onnx_attr_int(m->node, "keepdims", 1) != 0);
	return ret;
}

static enum onnx_err map_reduce_sum(struct onnx_map *m)
{
	return map_reduction(m, "ReduceSumD", 13, "axes", "keep_dims");
}

static enum onnx_err map_reduce_mean(struct onnx_map *m)
{
	return map_reduction(m, "ReduceMeanD", 18, "axes", "keep_dims");
}

static enum onnx_err map_reduce_max(struct onnx_map *m)
{
	return map_reduction(m, "ReduceMaxD", 18, "axes", "keep_dims");
}

static enum onnx_err map_reduce_min(struct onnx_map *m)
{
	return map_reduction(m, "ReduceMinD", 18, "axes", "keep_dims");
}

static enum onnx_err map_reduce_prod(struct onnx_map *m)
{
	return map_reduction(m, "ReduceProdD", 18, "axes", "keep_dims");
}

static enum onnx_err map_reduce_log_sum(struct onnx_map *m)
{
	return map_reduction(m, "ReduceLogSumD", 18, "axes", "keep_dims");
}

static enum onnx_err map_reduce_log_sum_exp(struct onnx_map *m)
{
	return map_reduction(m, "ReduceLogSumExp", 18, "axes", "keep_dims");
}

static enum onnx_err map_reduce_sum_square(struct onnx_map *m)
{
	return map_reduction(m, "SquareSumV1", 18, "axis", "keep_dims");
}

/* ReduceL1, ReduceL2: LpNormV2, whose empty axes are all of them. */
static enum onnx_err map_lp(struct onnx_map *m, float p)
{
	int64_t axes[VOPS_MAX_RANK];
	enum onnx_err ret;
	bool noop;
	int n;

	ret = reduce_axes(m, 18, axes, &n, &noop);
	if (!ret && noop)
		return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "LpNormV2 cannot reduce no axis "
				     "(noop_with_empty_axes with empty axes)");
	m->call->type = "LpNormV2";
	if (!ret)
		ret = onnx_map_inputs(m, 0, 0);
	if (!ret)
		ret = onnx_map_outputs(m, 0, -1);
	if (!ret)
		ret = onnx_map_attr_float(m, "p", p);
	if (!ret)
		ret = onnx_map_attr_ints(m, "axes", axes, n);
	if (!ret)
		ret = onnx_map_attr_bool(m, "keepdim", onnx_attr_int(m->node, "keepdims", 1) != 0);
	if (!ret)
		ret = onnx_map_attr_float(m, "epsilon", 0.0f);
	return ret;
}

static enum onnx_err map_reduce_l1(struct onnx_map *m)
{
	return map_lp(m, 1.0f);
}

static enum onnx_err map_reduce_l2(struct onnx_map *m)
{
	return map_lp(m, 2.0f);
}

/* ArgMax, ArgMin: ArgMaxD/ArgMinD with vnpu's keep_dims and select_last_index. */
static enum onnx_err map_arg(struct onnx_map *m, const char *type)
{
	enum onnx_err ret = onnx_map_simple(m, type);

	if (!ret)
		ret = onnx_map_attr_int(m, "dimension", onnx_attr_int(m->node, "axis", 0));
	if (!ret)
		ret = onnx_map_attr_dtype(m, "dtype", ACL_INT64);
	if (!ret)
		ret = onnx_map_attr_bool(m, "keep_dims", onnx_attr_int(m->node, "keepdims", 1) != 0);
	if (!ret)
		ret = onnx_map_attr_bool(m, "select_last_index",
					 onnx_attr_int(m->node, "select_last_index", 0) != 0);
	return ret;
}

static enum onnx_err map_argmax(struct onnx_map *m)
{
	return map_arg(m, "ArgMaxD");
}

static enum onnx_err map_argmin(struct onnx_map *m)
{
	return map_arg(m, "ArgMinD");
}

/* CumSum: the axis input (a constant scalar) is CumsumD's attribute. */
static enum onnx_err map_cumsum(struct onnx_map *m)
{
	int64_t axis;
	enum onnx_err ret;
	int n;

	ret = onnx_map_ints(m, 1, &axis, 1, &n);
	if (!ret && n != 1)
		return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "axis has %d values, not 1", n);
	m->call->type = "CumsumD";
	if (!ret)
		ret = onnx_map_inputs(m, 0, 0);
	if (!ret)
		ret = onnx_map_outputs(m, 0, -1);
	if (!ret)
		ret = onnx_map_attr_int(m, "axis", axis);
	if (!ret)
		ret = onnx_map_attr_bool(m, "exclusive", onnx_attr_int(m->node, "exclusive", 0) != 0);
	if (!ret)
		ret = onnx_map_attr_bool(m, "reverse", onnx_attr_int(m->node, "reverse", 0) != 0);
	return ret;
}

/* TopK: k (an input from opset 10) is TopKD's attribute; int64 indices. */
static enum onnx_err map_topk(struct onnx_map *m)
{
	int64_t k = onnx_attr_int(m->node, "k", -1);
	enum onnx_err ret = ONNX_OK;
	int n = 1;

	if (m->opset >= 10)
		ret = onnx_map_ints(m, 1, &k, 1, &n);
	if (!ret && n != 1)
		return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "k has %d values, not 1", n);
	m->call->type = "TopKD";
	if (!ret)
		ret = onnx_map_inputs(m, 0, 0);
	if (!ret)
		ret = onnx_map_outputs(m, 0, -1);
	if (!ret)
		ret = onnx_map_attr_int(m, "k", k);
	if (!ret)
		ret = onnx_map_attr_int(m, "dim", onnx_attr_int(m->node, "axis", -1));
	if (!ret)
		ret = onnx_map_attr_bool(m, "largest", onnx_attr_int(m->node, "largest", 1) != 0);
	if (!ret)
		ret = onnx_map_attr_bool(m, "sorted", onnx_attr_int(m->node, "sorted", 1) != 0);
	if (!ret)
		ret = onnx_map_attr_dtype(m, "indices_dtype", ACL_INT64);
	return ret;
}

/*
 * The axes of Softmax, LogSoftmax and Hardmax: from opset 13 one axis
 * (default -1); before, the input flattened to 2-D at axis (default 1),
 * that is every axis from axis on, normalised into @axes (*@n).
 */
static enum onnx_err softmax_axes(struct onnx_map *m, int64_t *axes, int *n)
{
	int rank = m->nin ? m->in[0].ndim : 0, i;
	int64_t axis;

	if (m->opset >= 13) {
		axes[0] = onnx_attr_int(m->node, "axis", -1);
		*n = 1;
		return ONNX_OK;
	}
	axis = onnx_attr_int(m->node, "axis", 1);
	if (axis < 0)
		axis += rank;
	if (axis < 0 || axis > rank)
		return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "axis %lld is out of range for rank %d",
				     (long long)onnx_attr_int(m->node, "axis", 1), rank);
	for (i = 0; i < rank - (int)axis; i++)
		axes[i] = axis + i;
	*n = rank - (int)axis;
	if (!*n)
		return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "flattening at axis %d of rank %d leaves "
				     "no axis to normalise", (int)axis, rank);
	return ONNX_OK;
}

static enum onnx_err map_softmax_like(struct onnx_map *m, const char *type)
{
	int64_t axes[VOPS_MAX_RANK];
	int n;
	enum onnx_err ret = softmax_axes(m, axes, &n);

	if (!ret)
		ret = onnx_map_simple(m, type);
	return ret ? ret : onnx_map_attr_ints(m, "axes", axes, n);
}

static enum onnx_err map_softmax(struct onnx_map *m)
{
	return map_softmax_like(m, "SoftmaxV2");
}

static enum onnx_err map_log_softmax(struct onnx_map *m)
{
	return map_softmax_like(m, "LogSoftmaxV2");
}

/* Hardmax: HardMax takes one axis; before opset 13 only the last one is one axis. */
static enum onnx_err map_hardmax(struct onnx_map *m)
{
	int64_t axes[VOPS_MAX_RANK];
	int n;
	enum onnx_err ret = softmax_axes(m, axes, &n);

	if (!ret && n != 1)
		return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "before opset 13 Hardmax flattens %d axes "
				     "into one; HardMax takes a single axis", n);
	if (!ret)
		ret = onnx_map_simple(m, "HardMax");
	return ret ? ret : onnx_map_attr_int(m, "axis", axes[0]);
}

const struct onnx_map_entry onnx_map_reduce[] = {
	{ "ReduceSum", map_reduce_sum, "ReduceSumD" },
	{ "ReduceMean", map_reduce_mean, "ReduceMeanD" },
	{ "ReduceMax", map_reduce_max, "ReduceMaxD" },
	{ "ReduceMin", map_reduce_min, "ReduceMinD" },
	{ "ReduceProd", map_reduce_prod, "ReduceProdD" },
	{ "ReduceL1", map_reduce_l1, "LpNormV2" },
	{ "ReduceL2", map_reduce_l2, "LpNormV2" },
	{ "ReduceLogSum", map_reduce_log_sum, "ReduceLogSumD" },
	{ "ReduceLogSumExp", map_reduce_log_sum_exp, "ReduceLogSumExp" },
	{ "ReduceSumSquare", map_reduce_sum_square, "SquareSumV1" },
	{ "ArgMax", map_argmax, "ArgMaxD" },
	{ "ArgMin", map_argmin, "ArgMinD" },
	{ "CumSum", map_cumsum, "CumsumD" },
	{ "TopK", map_topk, "TopKD" },
	{ "Hardmax", map_hardmax, "HardMax" },
	{ "Softmax", map_softmax, "SoftmaxV2" },
	{ "LogSoftmax", map_log_softmax, "LogSoftmaxV2" },
	{ NULL, NULL, NULL },
};
