// SPDX-License-Identifier: MIT
/*
 * nn_reduce.c - aclnn's reductions: sums, means, extremes and their
 * indices, products, logical all/any, norms, cumulative sums and products, top-k and
 * sort, each over lib/ops' reduce family (docs/ops/reduce.md).
 *
 * The aclnn layer adds what aclnn defines over lib/ops' operators: an
 * empty dim list means every dimension (lib/ops' ReduceXxxD reduce
 * nothing then), the dtype argument is the type the sum is computed in
 * (self is cast first, as PyTorch's dtype=), scalars reduce as themselves,
 * and indices come in out's type. The reduction's result is stored into
 * out by nn_store (any view; the operator writes out directly when it can).
 */
#include "aclnnop/aclnn_all.h"
#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_amin.h"
#include "aclnnop/aclnn_any.h"
#include "aclnnop/aclnn_argmax.h"
#include "aclnnop/aclnn_argmin.h"
#include "aclnnop/aclnn_cumprod.h"
#include "aclnnop/aclnn_cumsum.h"
#include "aclnnop/aclnn_linalg_vector_norm.h"
#include "aclnnop/aclnn_max.h"
#include "aclnnop/aclnn_max_dim.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_min.h"
#include "aclnnop/aclnn_min_dim.h"
#include "aclnnop/aclnn_norm.h"
#include "aclnnop/aclnn_prod.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_sort.h"
#include "aclnnop/aclnn_topk.h"
#include "nn_shape_util.h"

/* ---- reductions over a set of dimensions ------------------------------------- */

/*
 * What one reduction takes from aclnn: the lib/ops operator, whether an
 * empty dim list is every dimension, the types self may have, and how the
 * computing type is found (dtype argument, self's type, or bool).
 */
enum red_type {
	RT_SELF,	/* self's type; out must have it */
	RT_DTYPE_OUT,	/* the dtype argument, which must be out's type */
	RT_DTYPE,	/* the dtype argument; out may differ (nn_store converts) */
	RT_BOOL,	/* self as bool (all / any); out any type */
};

struct red_def {
	const char *op;
	enum red_type type;
	const aclDataType *self_dts;
	int self_ndts;
};

static const struct red_def red_sum = { "ReduceSumD", RT_DTYPE_OUT, nns_all, NNS_COUNT_OF(nns_all) };
static const struct red_def red_mean = { "ReduceMeanD", RT_DTYPE, nns_all, NNS_COUNT_OF(nns_all) };
static const struct red_def red_prod = { "ReduceProdD", RT_DTYPE_OUT, nns_all, NNS_COUNT_OF(nns_all) };
static const struct red_def red_max = { "ReduceMaxD", RT_SELF, nns_all, NNS_COUNT_OF(nns_all) };
static const struct red_def red_min = { "ReduceMinD", RT_SELF, nns_all, NNS_COUNT_OF(nns_all) };
/* all: the minimum of self as bool; any: the maximum */
static const struct red_def red_all = { "ReduceMinD", RT_BOOL, nns_all, NNS_COUNT_OF(nns_all) };
static const struct red_def red_any = { "ReduceMaxD", RT_BOOL, nns_all, NNS_COUNT_OF(nns_all) };

/* The type @d computes in, checking the dtype argument @dtype against
 * out @o; ACL_DT_UNDEFINED after an error. ACL_DT_UNDEFINED as @dtype is
 * taken as out's type (callers pass it for "no dtype"). */
static aclDataType red_compute_type(struct nn_exec *x, const struct red_def *d, nn_val a, nn_val o,
				    aclDataType dtype)
{
	aclDataType ot = nn_view(x, o)->dtype;

	switch (d->type) {
	case RT_SELF:
		return nns_same_dtype(x, o, "out", a, "self") ? nn_view(x, a)->dtype : ACL_DT_UNDEFINED;
	case RT_BOOL:
		return ACL_BOOL;
	case RT_DTYPE_OUT:
	case RT_DTYPE:
		break;
	}
	if (dtype == ACL_DT_UNDEFINED)
		dtype = ot;
	for (int i = 0; i < NNS_COUNT_OF(nns_numeric); i++)
		if (nns_numeric[i] == dtype) {
			if (d->type == RT_DTYPE_OUT && dtype != ot) {
				nn_fail(x, ACLNN_ERR_PARAM_INVALID, "dtype %d is not out's type %d", (int)dtype,
					(int)ot);
				return ACL_DT_UNDEFINED;
			}
			return dtype;
		}
	nn_fail(x, ACLNN_ERR_PARAM_INVALID, "dtype %d is not a type the reduction computes in", (int)dtype);
	return ACL_DT_UNDEFINED;
}

/* Reduce input @a over @axes (@n, canonical) into out @o by @d. */
static void reduce_axes(struct nn_exec *x, const struct red_def *d, nn_val a, const int64_t *axes, int n, bool keep,
			aclDataType dtype, nn_val o)
{
	struct nn_view v_;
	const struct nn_view *v = &v_;
	int64_t dims[VOPS_MAX_RANK];
	aclDataType ct;
	bool empty = false;
	int r;

	if (!nn_check_dtype(x, a, "self", d->self_dts, d->self_ndts))
		return;
	ct = red_compute_type(x, d, a, o, dtype);
	if (ct == ACL_DT_UNDEFINED)
		return;
	v_ = *nn_view(x, a);
	for (int i = 0; i < n; i++)
		empty |= v->dims[axes[i]] == 0;
	/* lib/ops refuses extremes of empty axes; all of nothing is true,
	 * any of nothing false. */
	if (empty && d->type == RT_BOOL) {
		r = nns_reduced_shape(v, axes, n, keep, dims);
		if (nns_check_shape(x, o, "out", r, dims))
			nn_fill(x, o, d == &red_all ? 1 : 0);
		return;
	}
	{
		struct vops_attr at[] = { NN_ATTR_INTS("axes", n, axes), NN_ATTR_BOOL("keep_dims", keep) };
		nn_val c = nn_cast(x, a, ct);

		nn_store(x, nn_op1(x, d->op, 1, &c, at, NN_COUNT(at)), o);
	}
}

/* A reduction over the dim list @dim (empty: every dimension). */
static aclnnStatus reduce_dims(const char *api, const struct red_def *d, const aclTensor *self, const aclIntArray *dim,
			       bool keep, aclDataType dtype, aclTensor *out, uint64_t *ws, aclOpExecutor **ex)
{
	struct nn_exec *x = nn_begin(api);
	nn_val a = nn_in(x, self, "self"), o = nn_out(x, out, "out");
	int64_t axes[VOPS_MAX_RANK];
	int n = nns_axes(x, dim, "dim", nn_view(x, a)->ndim, true, axes);

	if (n >= 0)
		reduce_axes(x, d, a, axes, n, keep, dtype, o);
	return nn_finish(x, ws, ex);
}

/* A reduction over one dimension @dim (a scalar's is -1 or 0). */
static aclnnStatus reduce_dim(const char *api, const struct red_def *d, const aclTensor *self, int64_t dim, bool keep,
			      aclDataType dtype, aclTensor *out, uint64_t *ws, aclOpExecutor **ex)
{
	struct nn_exec *x = nn_begin(api);
	nn_val a = nn_in(x, self, "self"), o = nn_out(x, out, "out");
	int rank = nn_view(x, a)->ndim;
	int64_t axis = nn_axis(x, dim, rank, "dim");

	if (axis >= 0)
		reduce_axes(x, d, a, &axis, rank ? 1 : 0, keep, dtype, o);
	return nn_finish(x, ws, ex);
}

/* Every dimension into a zero-rank out. */
static aclnnStatus reduce_all(const char *api, const struct red_def *d, const aclTensor *self, aclDataType dtype,
			      aclTensor *out, uint64_t *ws, aclOpExecutor **ex)
{
	struct nn_exec *x = nn_begin(api);
	nn_val a = nn_in(x, self, "self"), o = nn_out(x, out, "out");
	int64_t axes[VOPS_MAX_RANK];
	int n = nn_view(x, a)->ndim;

	for (int i = 0; i < n; i++)
		axes[i] = i;
	reduce_axes(x, d, a, axes, n, false, dtype, o);
	return nn_finish(x, ws, ex);
}

aclnnStatus aclnnReduceSumGetWorkspaceSize(const aclTensor *self, const aclIntArray *dims, bool keepDims,
					   aclDataType dtype, aclTensor *out, uint64_t *workspaceSize,
					   aclOpExecutor **executor)
{
	return reduce_dims("aclnnReduceSum", &red_sum, self, dims, keepDims, dtype, out, workspaceSize, executor);
}
NN_LAUNCH(aclnnReduceSum)

aclnnStatus aclnnMeanGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool keepDim, aclDataType dtype,
				      aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
	return reduce_dims("aclnnMean", &red_mean, self, dim, keepDim, dtype, out, workspaceSize, executor);
}
NN_LAUNCH(aclnnMean)

aclnnStatus aclnnAmaxGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool keepDim, aclTensor *out,
				      uint64_t *workspaceSize, aclOpExecutor **executor)
{
	return reduce_dims("aclnnAmax", &red_max, self, dim, keepDim, ACL_DT_UNDEFINED, out, workspaceSize,
			   executor);
}
NN_LAUNCH(aclnnAmax)

aclnnStatus aclnnAminGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool keepDim, aclTensor *out,
				      uint64_t *workspaceSize, aclOpExecutor **executor)
{
	return reduce_dims("aclnnAmin", &red_min, self, dim, keepDim, ACL_DT_UNDEFINED, out, workspaceSize,
			   executor);
}
NN_LAUNCH(aclnnAmin)

aclnnStatus aclnnAllGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool keepdim, aclTensor *out,
				     uint64_t *workspaceSize, aclOpExecutor **executor)
{
	return reduce_dims("aclnnAll", &red_all, self, dim, keepdim, ACL_DT_UNDEFINED, out, workspaceSize,
			   executor);
}
NN_LAUNCH(aclnnAll)

aclnnStatus aclnnAnyGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool keepdim, aclTensor *out,
				     uint64_t *workspaceSize, aclOpExecutor **executor)
{
	return reduce_dims("aclnnAny", &red_any, self, dim, keepdim, ACL_DT_UNDEFINED, out, workspaceSize,
			   executor);
}
NN_LAUNCH(aclnnAny)

aclnnStatus aclnnProdGetWorkspaceSize(const aclTensor *self, const aclDataType dtype, aclTensor *out,
				      uint64_t *workspaceSize, aclOpExecutor **executor)
{
	return reduce_all("aclnnProd", &red_prod, self, dtype, out, workspaceSize, executor);
}
NN_LAUNCH(aclnnProd)

aclnnStatus aclnnProdDimGetWorkspaceSize(const aclTensor *self, int64_t dim, bool keepDim, const aclDataType dtype,
					 aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
	return reduce_dim("aclnnProdDim", &red_prod, self, dim, keepDim, dtype, out, workspaceSize, executor);
}
NN_LAUNCH(aclnnProdDim)

aclnnStatus aclnnMaxGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
				     aclOpExecutor **executor)
{
	return reduce_all("aclnnMax", &red_max, self, ACL_DT_UNDEFINED, out, workspaceSize, executor);
}
NN_LAUNCH(aclnnMax)

aclnnStatus aclnnMinGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
				     aclOpExecutor **executor)
{
	return reduce_all("aclnnMin", &red_min, self, ACL_DT_UNDEFINED, out, workspaceSize, executor);
}
NN_LAUNCH(aclnnMin)

/* ---- norms ------------------------------------------------------------------ */

/* The @p-norm of @a over @dims (empty: every dimension) computed in @ct
 * (a float type; ACL_DT_UNDEFINED: self's), into @o. */
static void norm_into(struct nn_exec *x, nn_val a, const aclScalar *p, const char *p_name, const aclIntArray *dims,
		      bool keep, aclDataType ct, nn_val o)
{
	int64_t axes[VOPS_MAX_RANK];
	int n;

	if (nn_null(x, p, p_name))
		return;
	n = nns_axes(x, dims, "dim", nn_view(x, a)->ndim, false, axes);
	if (n < 0 || !nn_check_dtype(x, a, "self", nns_all, NNS_COUNT_OF(nns_all)))
		return;
	if (ct == ACL_DT_UNDEFINED)
		ct = nn_view(x, a)->dtype;
	if (!nn_dt_float(ct)) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "a norm is computed in a float type, not type %d", (int)ct);
		return;
	}
	/* LpNormV2: [] is every axis; epsilon 0 makes its floor
	 * max(norm, epsilon) the norm itself. */
	{
		struct vops_attr at[] = {
			NN_ATTR_FLOAT("p", nn_scalar_f64(p)),
			NN_ATTR_INTS("axes", n, axes),
			NN_ATTR_BOOL("keepdim", keep),
			NN_ATTR_FLOAT("epsilon", 0),
		};
		nn_val c = nn_cast(x, a, ct);

		nn_store(x, nn_op1(x, "LpNormV2", 1, &c, at, NN_COUNT(at)), o);
	}
}

aclnnStatus aclnnLinalgVectorNormGetWorkspaceSize(const aclTensor *self, const aclScalar *ord, const aclIntArray *dims,
						  bool keepDims, const aclDataType dtype, aclTensor *out,
						  uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnLinalgVectorNorm");
	nn_val a = nn_in(x, self, "self"), o = nn_out(x, out, "out");

	norm_into(x, a, ord, "ord", dims, keepDims, dtype, o);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnLinalgVectorNorm)

aclnnStatus aclnnNormGetWorkspaceSize(const aclTensor *self, const aclScalar *pScalar, const aclIntArray *dim,
				      bool keepdim, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnNorm");
	nn_val a = nn_in(x, self, "self"), o = nn_out(x, out, "out");

	norm_into(x, a, pScalar, "pScalar", dim, keepdim, ACL_DT_UNDEFINED, o);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnNorm)

/* ---- along one dimension: arg extremes, values with indices, cumsum --------- */

/*
 * lib/ops' axis operators (ArgMaxD, CumsumD, TopKD) take no scalar: a
 * scalar is seen as one element of rank 1, reduced without keeping its
 * axis. Returns the canonical axis of @dim for @*a (replaced by the view
 * of rank 1 for a scalar; *@keep cleared then), -1 after an error.
 */
static int one_axis(struct nn_exec *x, nn_val *a, int64_t dim, bool *keep)
{
	static const int64_t one[] = { 1 };
	int rank = nn_view(x, *a)->ndim;
	int axis = nn_axis(x, dim, rank, "dim");

	if (axis >= 0 && rank == 0) {
		*a = nn_reshape(x, *a, 1, one);
		if (keep)
			*keep = false;
	}
	return nn_ok(x) ? axis : -1;
}

/* @v back to @rank dimensions when one_axis() made a scalar one. */
static nn_val back_to_rank(struct nn_exec *x, nn_val v, int rank)
{
	return rank ? v : nn_reshape(x, v, 0, NULL);
}

/* The index of the first extreme (ArgMaxD or ArgMinD: @op) along @axis
 * into @idx (int32 or int64). */
static void arg_into(struct nn_exec *x, const char *op, nn_val a, int axis, bool keep, nn_val idx, const char *idx_name)
{
	if (!nn_check_dtype(x, a, "self", nns_numeric, NNS_COUNT_OF(nns_numeric)) ||
	    !nn_check_dtype(x, idx, idx_name, nns_index, NNS_COUNT_OF(nns_index)))
		return;
	{
		struct vops_attr at[] = {
			NN_ATTR_INT("dimension", axis),
			NN_ATTR_DTYPE("dtype", nn_view(x, idx)->dtype),
			NN_ATTR_BOOL("keep_dims", keep),
		};

		nn_store(x, nn_op1(x, op, 1, &a, at, NN_COUNT(at)), idx);
	}
}

static aclnnStatus arg_extreme(const char *api, const char *op, const aclTensor *self, int64_t dim, bool keepdim,
			       aclTensor *out, uint64_t *ws, aclOpExecutor **ex)
{
	struct nn_exec *x = nn_begin(api);
	nn_val a = nn_in(x, self, "self"), o = nn_out(x, out, "out");
	int axis = one_axis(x, &a, dim, &keepdim);

	if (axis >= 0)
		arg_into(x, op, a, axis, keepdim, o, "out");
	return nn_finish(x, ws, ex);
}

aclnnStatus aclnnArgMaxGetWorkspaceSize(const aclTensor *self, int64_t dim, bool keepdim, aclTensor *out,
					uint64_t *workspaceSize, aclOpExecutor **executor)
{
	return arg_extreme("aclnnArgMax", "ArgMaxD", self, dim, keepdim, out, workspaceSize, executor);
}
NN_LAUNCH(aclnnArgMax)

aclnnStatus aclnnArgMinGetWorkspaceSize(const aclTensor *self, int64_t dim, bool keepdim, aclTensor *out,
					uint64_t *workspaceSize, aclOpExecutor **executor)
{
	return arg_extreme("aclnnArgMin", "ArgMinD", self, dim, keepdim, out, workspaceSize, executor);
}
NN_LAUNCH(aclnnArgMin)

/* The extreme along @dim (values: @red) and its index (@arg_op). Two
 * operators: both propagate NaN the same way (NaN is the extreme). */
static aclnnStatus value_index(const char *api, const struct red_def *red, const char *arg_op,
			       const aclTensor *self, int64_t dim, bool keepdim, aclTensor *out, aclTensor *indices,
			       uint64_t *ws, aclOpExecutor **ex)
{
	struct nn_exec *x = nn_begin(api);
	nn_val a = nn_in(x, self, "self"), o = nn_out(x, out, "out"), i = nn_out(x, indices, "indices");
	int64_t axis = one_axis(x, &a, dim, &keepdim);

	if (axis < 0 || !nn_check_dtype(x, a, "self", nns_numeric, NNS_COUNT_OF(nns_numeric)))
		return nn_finish(x, ws, ex);
	reduce_axes(x, red, a, &axis, 1, keepdim, ACL_DT_UNDEFINED, o);
	arg_into(x, arg_op, a, (int)axis, keepdim, i, "indices");
	return nn_finish(x, ws, ex);
}

aclnnStatus aclnnMaxDimGetWorkspaceSize(const aclTensor *self, int64_t dim, bool keepdim, aclTensor *out,
					aclTensor *indices, uint64_t *workspaceSize, aclOpExecutor **executor)
{
	return value_index("aclnnMaxDim", &red_max, "ArgMaxD", self, dim, keepdim, out, indices, workspaceSize,
			   executor);
}
NN_LAUNCH(aclnnMaxDim)

aclnnStatus aclnnMinDimGetWorkspaceSize(const aclTensor *self, int64_t dim, bool keepdim, aclTensor *out,
					aclTensor *indices, uint64_t *workspaceSize, aclOpExecutor **executor)
{
	return value_index("aclnnMinDim", &red_min, "ArgMinD", self, dim, keepdim, out, indices, workspaceSize,
			   executor);
}
NN_LAUNCH(aclnnMinDim)

/* What a cumulative function takes: lib/ops' operator, the input's name
 * and types. */
struct cum_def {
	const char *op, *in_name;
	const aclDataType *dts;
	int ndts;
};

static const struct cum_def cum_sum = { "CumsumD", "self", nns_all, NNS_COUNT_OF(nns_all) };
/* CANN's cumprod takes no bool. */
static const struct cum_def cum_prod = { "CumprodD", "input", nns_numeric, NNS_COUNT_OF(nns_numeric) };

/* The running sum or product (@d) of @a along @dim computed in @ct, into @o. */
static void cum_into(struct nn_exec *x, const struct cum_def *d, nn_val a, int64_t dim, aclDataType ct,
		     bool exclusive, bool reverse, nn_val o)
{
	int rank = nn_view(x, a)->ndim;
	int axis = one_axis(x, &a, dim, NULL);
	struct vops_attr at[] = {
		NN_ATTR_INT("axis", axis),
		NN_ATTR_BOOL("exclusive", exclusive),
		NN_ATTR_BOOL("reverse", reverse),
	};
	nn_val c;

	if (axis < 0 || !nn_check_dtype(x, a, d->in_name, d->dts, d->ndts))
		return;
	c = nn_cast(x, a, ct);
	nn_store(x, back_to_rank(x, nn_op1(x, d->op, 1, &c, at, NN_COUNT(at)), rank), o);
}

aclnnStatus aclnnCumsumGetWorkspaceSize(const aclTensor *self, int64_t dim, aclDataType dtype, aclTensor *out,
					uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnCumsum");
	nn_val a = nn_in(x, self, "self"), o = nn_out(x, out, "out");
	aclDataType ct = red_compute_type(x, &red_sum, a, o, dtype);

	if (ct != ACL_DT_UNDEFINED)
		cum_into(x, &cum_sum, a, dim, ct, false, false, o);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnCumsum)

aclnnStatus aclnnCumsumV2GetWorkspaceSize(const aclTensor *self, int64_t dim, bool exclusive, bool reverse,
					  aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnCumsumV2");
	nn_val a = nn_in(x, self, "self"), o = nn_out(x, out, "out");
	aclDataType ct = red_compute_type(x, &red_sum, a, o, ACL_DT_UNDEFINED);

	if (ct != ACL_DT_UNDEFINED)
		cum_into(x, &cum_sum, a, dim, ct, exclusive, reverse, o);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnCumsumV2)

/*
 * Cumprod's dim is a host scalar of an integer type; its dtype is the
 * computation type and out's, ACL_DT_UNDEFINED meaning input's own
 * (CANN's rules). The in-place form computes in input's type.
 */
static void cumprod_build(struct nn_exec *x, nn_val a, const aclScalar *dim, aclDataType dtype, nn_val o,
			  const char *out_name)
{
	aclDataType ct, ot;

	if (nn_null(x, dim, "dim") || !nn_ok(x))
		return;
	if (!nn_dt_int(dim->dtype)) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "dim's type %s is not an integer type", vops_dtype_name(dim->dtype));
		return;
	}
	ct = dtype == ACL_DT_UNDEFINED ? nn_view(x, a)->dtype : dtype;
	ot = nn_view(x, o)->dtype;
	if (ot != ct) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "%s's type %s is not the computation type %s", out_name,
			vops_dtype_name(ot), vops_dtype_name(ct));
		return;
	}
	if (nn_check_dtype(x, o, out_name, cum_prod.dts, cum_prod.ndts))
		cum_into(x, &cum_prod, a, nn_scalar_i64(dim), ct, false, false, o);
}

aclnnStatus aclnnCumprodGetWorkspaceSize(const aclTensor *input, const aclScalar *dim, const aclDataType dtype,
					 aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnCumprod");
	nn_val a = nn_in(x, input, "input"), o = nn_out(x, out, "out");

	cumprod_build(x, a, dim, dtype, o, "out");
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnCumprod)

aclnnStatus aclnnInplaceCumprodGetWorkspaceSize(aclTensor *input, const aclScalar *dim, uint64_t *workspaceSize,
						aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnInplaceCumprod");
	nn_val a = nn_in(x, input, "input"), o = nn_out(x, input, "input");

	cumprod_build(x, a, dim, ACL_DT_UNDEFINED, o, "input");
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnInplaceCumprod)

/* ---- top-k and sort ----------------------------------------------------------- */

/* The @k largest (or smallest) along @dim into @vo (self's type) and @io
 * (int32 or int64); TopKD always sorts, equal values by index. */
static void topk_into(struct nn_exec *x, nn_val a, int64_t k, int64_t dim, bool largest, nn_val vo, nn_val io)
{
	int rank = nn_view(x, a)->ndim;
	int axis = one_axis(x, &a, dim, NULL);
	int64_t size;
	nn_val r[2];

	if (axis < 0 || !nn_check_dtype(x, a, "self", nns_numeric, NNS_COUNT_OF(nns_numeric)) ||
	    !nns_same_dtype(x, vo, "valuesOut", a, "self") ||
	    !nn_check_dtype(x, io, "indicesOut", nns_index, NNS_COUNT_OF(nns_index)))
		return;
	size = nn_view(x, a)->dims[axis];
	if (k < 0 || k > size) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "k %" PRId64 " is not in [0, %" PRId64 "] (the size of dim %d)",
			k, size, axis);
		return;
	}
	{
		struct vops_attr at[] = {
			NN_ATTR_INT("k", k),
			NN_ATTR_INT("dim", axis),
			NN_ATTR_BOOL("largest", largest),
			NN_ATTR_BOOL("sorted", true),
			NN_ATTR_DTYPE("indices_dtype", nn_view(x, io)->dtype),
		};

		if (nn_op(x, "TopKD", 1, &a, at, NN_COUNT(at), 2, r) < 0)
			return;
	}
	nn_store(x, back_to_rank(x, r[0], rank), vo);
	nn_store(x, back_to_rank(x, r[1], rank), io);
}

aclnnStatus aclnnTopkGetWorkspaceSize(const aclTensor *self, int64_t k, int64_t dim, bool largest, bool sorted,
				      aclTensor *valuesOut, aclTensor *indicesOut, uint64_t *workspaceSize,
				      aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnTopk");
	nn_val a = nn_in(x, self, "self"), vo = nn_out(x, valuesOut, "valuesOut");
	nn_val io = nn_out(x, indicesOut, "indicesOut");

	/* unsorted results may come in any order: sorted ones are such an order */
	(void)sorted;
	topk_into(x, a, k, dim, largest, vo, io);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnTopk)

aclnnStatus aclnnSortGetWorkspaceSize(const aclTensor *self, bool stable, int64_t dim, bool descending,
				      aclTensor *valuesOut, aclTensor *indicesOut, uint64_t *workspaceSize,
				      aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnSort");
	nn_val a = nn_in(x, self, "self"), vo = nn_out(x, valuesOut, "valuesOut");
	nn_val io = nn_out(x, indicesOut, "indicesOut");
	const struct nn_view v_ = *nn_view(x, a), *v = &v_;
	int axis = nn_axis(x, dim, v->ndim, "dim");

	/* TopKD of every element is a stable sort: an unstable one may be stable */
	(void)stable;
	if (axis >= 0)
		topk_into(x, a, v->ndim ? v->dims[axis] : 1, dim, descending, vo, io);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnSort)
