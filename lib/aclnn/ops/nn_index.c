// SPDX-License-Identifier: MIT
/*
 * nn_index.c - aclnn's indexing functions: index_select, embedding,
 * gather, scatter (and scatter_add), one_hot, tril/triu and masked_fill,
 * over lib/ops' index family (docs/ops/index.md) and SelectV2.
 *
 * What aclnn adds over the operators: PyTorch's shape rules (a scatter's
 * index may be smaller than src: the updates are src's leading window, a
 * restrided view and no copy), the value forms (a scalar broadcast by a
 * stride of 0), the in-place forms (selfRef read as an input, written as
 * the output) and out's type rules.
 */
#include "aclnnop/aclnn_embedding.h"
#include "aclnnop/aclnn_gather.h"
#include "aclnnop/aclnn_index_select.h"
#include "aclnnop/aclnn_masked_fill_scalar.h"
#include "aclnnop/aclnn_masked_fill_tensor.h"
#include "aclnnop/aclnn_one_hot.h"
#include "aclnnop/aclnn_scatter.h"
#include "aclnnop/aclnn_scatter_add.h"
#include "aclnnop/aclnn_tril.h"
#include "aclnnop/aclnn_triu.h"
#include "nn_shape_util.h"

/* Index tensors are int32 or int64 (lib/ops checks every index when it
 * runs: one outside its dimension fails the launch). */
static bool index_type(struct nn_exec *x, nn_val idx, const char *name)
{
	return nn_check_dtype(x, idx, name, nns_index, NNS_COUNT_OF(nns_index));
}

/* A GatherV2D of @a's slices along @axis named by @idx into @o. */
static void gather_slices(struct nn_exec *x, nn_val a, int axis, nn_val idx, nn_val o)
{
	struct vops_attr at[] = { NN_ATTR_INT("axis", axis) };
	nn_val in[2] = { a, idx };

	nn_store(x, nn_op1(x, "GatherV2D", 2, in, at, NN_COUNT(at)), o);
}

aclnnStatus aclnnIndexSelectGetWorkspaceSize(const aclTensor *self, int64_t dim, const aclTensor *index, aclTensor *out,
					     uint64_t *workspaceSize, aclOpExecutor **executor)
{
	static const int64_t one[] = { 1 };
	struct nn_exec *x = nn_begin("aclnnIndexSelect");
	nn_val a = nn_in(x, self, "self"), idx = nn_in(x, index, "index"), o = nn_out(x, out, "out");
	int d;

	if (!nn_check_dtype(x, a, "self", nns_all, NNS_COUNT_OF(nns_all)) || !nns_same_dtype(x, o, "out", a, "self") ||
	    !index_type(x, idx, "index") || !nn_check_rank(x, a, "self", 1, VOPS_MAX_RANK) ||
	    !nn_check_rank(x, idx, "index", 0, 1))
		return nn_finish(x, workspaceSize, executor);
	d = nn_axis(x, dim, nn_view(x, a)->ndim, "dim");
	if (d >= 0) {
		/* a scalar index selects one slice, keeping the dimension */
		if (!nn_view(x, idx)->ndim)
			idx = nn_reshape(x, idx, 1, one);
		gather_slices(x, a, d, idx, o);
	}
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnIndexSelect)

aclnnStatus aclnnEmbeddingGetWorkspaceSize(const aclTensor *weight, const aclTensor *indices, const aclTensor *out,
					   uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnEmbedding");
	nn_val w = nn_in(x, weight, "weight"), idx = nn_in(x, indices, "indices"), o = nn_out(x, out, "out");

	if (nn_check_dtype(x, w, "weight", nns_all, NNS_COUNT_OF(nns_all)) &&
	    nns_same_dtype(x, o, "out", w, "weight") && index_type(x, idx, "indices") &&
	    nn_check_rank(x, w, "weight", 2, 2))
		gather_slices(x, w, 0, idx, o);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnEmbedding)

/*
 * The shape rules of gather and scatter (PyTorch's): @idx has @a's rank and
 * is no larger than @a except along @axis, nor (scatter) than @src in any
 * dimension. A scalar is taken as one element of rank 1: *@a, *@idx (and
 * *@src) become such views. Returns whether they hold.
 */
static bool index_shapes(struct nn_exec *x, nn_val *a, const char *a_name, int axis, nn_val *idx, nn_val *src)
{
	static const int64_t one[] = { 1 };
	const struct nn_view va_ = *nn_view(x, *a), vi_ = *nn_view(x, *idx), *va = &va_, *vi = &vi_;

	if (!nn_ok(x))
		return false;
	if (vi->ndim != va->ndim || (src && nn_view(x, *src)->ndim != va->ndim)) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "index %s%s%s and %s %s must have one rank", nn_shape_str(x, *idx),
			src ? ", src " : "", src ? nn_shape_str(x, *src) : "", a_name, nn_shape_str(x, *a));
		return false;
	}
	for (int i = 0; i < va->ndim; i++)
		if ((i != axis && vi->dims[i] > va->dims[i]) || (src && vi->dims[i] > nn_view(x, *src)->dims[i])) {
			nn_fail(x, ACLNN_ERR_PARAM_INVALID, "index %s is larger than %s %s%s%s (dimension %d)",
				nn_shape_str(x, *idx), a_name, nn_shape_str(x, *a), src ? " or src " : "",
				src ? nn_shape_str(x, *src) : "", i);
			return false;
		}
	if (!va->ndim) {
		*a = nn_reshape(x, *a, 1, one);
		*idx = nn_reshape(x, *idx, 1, one);
		if (src)
			*src = nn_reshape(x, *src, 1, one);
	}
	return nn_ok(x);
}

aclnnStatus aclnnGatherGetWorkspaceSize(const aclTensor *self, int64_t dim, const aclTensor *index, aclTensor *out,
					uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnGather");
	nn_val a = nn_in(x, self, "self"), idx = nn_in(x, index, "index"), o = nn_out(x, out, "out");
	int rank = nn_view(x, a)->ndim, d;

	if (!nn_check_dtype(x, a, "self", nns_all, NNS_COUNT_OF(nns_all)) || !nns_same_dtype(x, o, "out", a, "self") ||
	    !index_type(x, idx, "index"))
		return nn_finish(x, workspaceSize, executor);
	d = nn_axis(x, dim, rank, "dim");
	if (d >= 0 && index_shapes(x, &a, "self", d, &idx, NULL)) {
		struct vops_attr at[] = { NN_ATTR_INT("dim", d) };
		nn_val in[2] = { a, idx };
		nn_val r = nn_op1(x, "GatherElements", 2, in, at, NN_COUNT(at));

		nn_store(x, rank ? r : nn_reshape(x, r, 0, NULL), o);
	}
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnGather)

/* aclnn's reduce argument: 0 replaces, 1 adds, 2 multiplies. */
static const char *const scatter_reductions[] = { "none", "add", "mul" };

/*
 * @a with @src's leading window of @idx's shape (or, @src NN_NONE, the
 * scalar @value everywhere) scattered along @dim by @reduce, into @o.
 */
static void scatter_into(struct nn_exec *x, nn_val a, int64_t dim, nn_val idx, nn_val src, const aclScalar *value,
			 int64_t reduce, nn_val o)
{
	int64_t st[VOPS_MAX_RANK] = { 0 };
	int rank = nn_view(x, a)->ndim, d;
	nn_val upd;

	if (!nn_check_dtype(x, a, "self", nns_all, NNS_COUNT_OF(nns_all)) || !index_type(x, idx, "index") ||
	    (src != NN_NONE && !nns_same_dtype(x, src, "src", a, "self")))
		return;
	if (reduce < 0 || reduce >= (int64_t)NN_COUNT(scatter_reductions)) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "reduce %" PRId64 " is not 0 (none), 1 (add) or 2 (mul)", reduce);
		return;
	}
	d = nn_axis(x, dim, rank, "dim");
	if (d < 0 || !index_shapes(x, &a, "self", d, &idx, src != NN_NONE ? &src : NULL))
		return;
	if (src != NN_NONE) {
		const struct nn_view vi_ = *nn_view(x, idx), *vi = &vi_;

		nns_strides(nn_view(x, src), st);
		upd = nns_view(x, src, vi->ndim, vi->dims, st, 0);
	} else {
		/* the scalar at every index: a stride of 0 in every dimension */
		nn_val s = nn_scalar(x, value, nn_view(x, a)->dtype, "value");

		upd = nns_view(x, s, nn_view(x, idx)->ndim, nn_view(x, idx)->dims, st, 0);
	}
	{
		struct vops_attr at[] = { NN_ATTR_INT("axis", d), NN_ATTR_STRING("reduction", scatter_reductions[reduce]) };
		nn_val in[3] = { a, idx, upd };
		nn_val r = nn_op1(x, "ScatterElements", 3, in, at, NN_COUNT(at));

		nn_store(x, rank ? r : nn_reshape(x, r, 0, NULL), o);
	}
}

aclnnStatus aclnnScatterGetWorkspaceSize(const aclTensor *self, int64_t dim, const aclTensor *index,
					 const aclTensor *src, int64_t reduce, aclTensor *out, uint64_t *workspaceSize,
					 aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnScatter");
	nn_val a = nn_in(x, self, "self"), idx = nn_in(x, index, "index"), s = nn_in(x, src, "src");
	nn_val o = nn_out(x, out, "out");

	if (nns_same_dtype(x, o, "out", a, "self"))
		scatter_into(x, a, dim, idx, s, NULL, reduce, o);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnScatter)

aclnnStatus aclnnScatterValueGetWorkspaceSize(const aclTensor *self, int64_t dim, const aclTensor *index,
					      const aclScalar *value, int64_t reduce, aclTensor *out,
					      uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnScatterValue");
	nn_val a = nn_in(x, self, "self"), idx = nn_in(x, index, "index"), o = nn_out(x, out, "out");

	if (!nn_null(x, value, "value") && nns_same_dtype(x, o, "out", a, "self"))
		scatter_into(x, a, dim, idx, NN_NONE, value, reduce, o);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnScatterValue)

aclnnStatus aclnnInplaceScatterGetWorkspaceSize(aclTensor *selfRef, int64_t dim, const aclTensor *index,
						const aclTensor *src, int64_t reduce, uint64_t *workspaceSize,
						aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnInplaceScatter");
	nn_val a = nn_in(x, selfRef, "selfRef"), idx = nn_in(x, index, "index"), s = nn_in(x, src, "src");
	nn_val o = nn_out(x, selfRef, "selfRef");

	scatter_into(x, a, dim, idx, s, NULL, reduce, o);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnInplaceScatter)

aclnnStatus aclnnInplaceScatterValueGetWorkspaceSize(aclTensor *selfRef, int64_t dim, const aclTensor *index,
						     const aclScalar *value, int64_t reduce, uint64_t *workspaceSize,
						     aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnInplaceScatterValue");
	nn_val a = nn_in(x, selfRef, "selfRef"), idx = nn_in(x, index, "index");
	nn_val o = nn_out(x, selfRef, "selfRef");

	if (!nn_null(x, value, "value"))
		scatter_into(x, a, dim, idx, NN_NONE, value, reduce, o);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnInplaceScatterValue)

aclnnStatus aclnnScatterAddGetWorkspaceSize(const aclTensor *self, int64_t dim, const aclTensor *index,
					    const aclTensor *src, aclTensor *out, uint64_t *workspaceSize,
					    aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnScatterAdd");
	nn_val a = nn_in(x, self, "self"), idx = nn_in(x, index, "index"), s = nn_in(x, src, "src");
	nn_val o = nn_out(x, out, "out");

	if (nns_same_dtype(x, o, "out", a, "self"))
		scatter_into(x, a, dim, idx, s, NULL, 1, o);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnScatterAdd)

/* ---- one_hot ------------------------------------------------------------------- */

aclnnStatus aclnnOneHotGetWorkspaceSize(const aclTensor *self, int numClasses, const aclTensor *onValue,
					const aclTensor *offValue, int64_t axis, aclTensor *out, uint64_t *workspaceSize,
					aclOpExecutor **executor)
{
	static const aclDataType self_dts[] = { ACL_UINT8, ACL_INT32, ACL_INT64 };
	static const aclDataType val_dts[] = { ACL_FLOAT16, ACL_FLOAT, ACL_INT8, ACL_UINT8, ACL_INT32, ACL_INT64 };
	struct nn_exec *x = nn_begin("aclnnOneHot");
	nn_val a = nn_in(x, self, "self"), on = nn_in(x, onValue, "onValue"), off = nn_in(x, offValue, "offValue");
	nn_val o = nn_out(x, out, "out");
	const struct nn_view v_ = *nn_view(x, a), *v = &v_;
	int64_t dims[VOPS_MAX_RANK];
	int rank = v->ndim, ax;

	if (!nn_check_dtype(x, a, "self", self_dts, NNS_COUNT_OF(self_dts)) ||
	    !nn_check_dtype(x, o, "out", val_dts, NNS_COUNT_OF(val_dts)) ||
	    !nns_same_dtype(x, on, "onValue", o, "out") || !nns_same_dtype(x, off, "offValue", o, "out") ||
	    !nn_check_rank(x, a, "self", 1, VOPS_MAX_RANK - 1))
		return nn_finish(x, workspaceSize, executor);
	if (!nn_view(x, on)->count || !nn_view(x, off)->count) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "onValue and offValue need an element each");
		return nn_finish(x, workspaceSize, executor);
	}
	if (numClasses < 0 || (!numClasses && !v->count)) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "numClasses %d: at least 0, and 1 for an empty self", numClasses);
		return nn_finish(x, workspaceSize, executor);
	}
	if (axis < -1 || axis > rank) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "axis %" PRId64 " is not in [-1, %d]", axis, rank);
		return nn_finish(x, workspaceSize, executor);
	}
	ax = axis < 0 ? rank : (int)axis;
	for (int i = 0, j = 0; i <= rank; i++)
		dims[i] = i == ax ? numClasses : v->dims[j++];
	if (!nns_check_shape(x, o, "out", rank + 1, dims) || !numClasses)
		return nn_finish(x, workspaceSize, executor);
	{
		/* the first elements of onValue and offValue */
		struct vops_attr at[] = { NN_ATTR_INT("depth", numClasses), NN_ATTR_INT("axis", ax) };
		nn_val in[3] = { a, nns_view(x, on, 0, NULL, NULL, 0), nns_view(x, off, 0, NULL, NULL, 0) };

		nn_store(x, nn_op1(x, "OneHotD", 3, in, at, NN_COUNT(at)), o);
	}
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnOneHot)

/* ---- tril / triu ------------------------------------------------------------------ */

/* @a's triangle (Tril or Triu: @op) at @diagonal into @o of its type. */
static void triangle(struct nn_exec *x, const char *op, nn_val a, int64_t diagonal, nn_val o, const char *o_name)
{
	struct vops_attr at[] = { NN_ATTR_INT("diagonal", diagonal) };

	if (nn_check_dtype(x, a, "self", nns_all, NNS_COUNT_OF(nns_all)) && nns_same_dtype(x, o, o_name, a, "self") &&
	    nn_check_rank(x, a, "self", 2, VOPS_MAX_RANK))
		nn_store(x, nn_op1(x, op, 1, &a, at, NN_COUNT(at)), o);
}

aclnnStatus aclnnTrilGetWorkspaceSize(const aclTensor *self, int64_t diagonal, aclTensor *out, uint64_t *workspaceSize,
				      aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnTril");
	nn_val a = nn_in(x, self, "self"), o = nn_out(x, out, "out");

	triangle(x, "Tril", a, diagonal, o, "out");
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnTril)

aclnnStatus aclnnInplaceTrilGetWorkspaceSize(aclTensor *selfRef, int64_t diagonal, uint64_t *workspaceSize,
					     aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnInplaceTril");
	nn_val a = nn_in(x, selfRef, "selfRef"), o = nn_out(x, selfRef, "selfRef");

	triangle(x, "Tril", a, diagonal, o, "selfRef");
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnInplaceTril)

aclnnStatus aclnnTriuGetWorkspaceSize(const aclTensor *self, int64_t diagonal, aclTensor *out, uint64_t *workspaceSize,
				      aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnTriu");
	nn_val a = nn_in(x, self, "self"), o = nn_out(x, out, "out");

	triangle(x, "Triu", a, diagonal, o, "out");
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnTriu)

aclnnStatus aclnnInplaceTriuGetWorkspaceSize(aclTensor *selfRef, int64_t diagonal, uint64_t *workspaceSize,
					     aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnInplaceTriu");
	nn_val a = nn_in(x, selfRef, "selfRef"), o = nn_out(x, selfRef, "selfRef");

	triangle(x, "Triu", a, diagonal, o, "selfRef");
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnInplaceTriu)

/* ---- masked_fill ------------------------------------------------------------------- */

/* selfRef = where(mask, v, selfRef): SelectV2 broadcasts mask and the
 * zero-rank @v; the result must keep selfRef's shape (nn_store checks: a
 * mask larger than selfRef is refused). */
static void masked_fill(struct nn_exec *x, nn_val a, nn_val mask, nn_val v, nn_val o)
{
	static const aclDataType mask_dts[] = { ACL_BOOL, ACL_UINT8 };
	nn_val in[3];

	if (!nn_check_dtype(x, a, "selfRef", nns_all, NNS_COUNT_OF(nns_all)) ||
	    !nn_check_dtype(x, mask, "mask", mask_dts, NNS_COUNT_OF(mask_dts)))
		return;
	in[0] = nn_cast(x, mask, ACL_BOOL);
	in[1] = v;
	in[2] = a;
	nn_store(x, nn_op1(x, "SelectV2", 3, in, NULL, 0), o);
}

aclnnStatus aclnnInplaceMaskedFillScalarGetWorkspaceSize(aclTensor *selfRef, const aclTensor *mask,
							 const aclScalar *value, uint64_t *workspaceSize,
							 aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnInplaceMaskedFillScalar");
	nn_val a = nn_in(x, selfRef, "selfRef"), m = nn_in(x, mask, "mask"), o = nn_out(x, selfRef, "selfRef");

	masked_fill(x, a, m, nn_scalar(x, value, nn_view(x, a)->dtype, "value"), o);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnInplaceMaskedFillScalar)

aclnnStatus aclnnInplaceMaskedFillTensorGetWorkspaceSize(aclTensor *selfRef, const aclTensor *mask,
							 const aclTensor *value, uint64_t *workspaceSize,
							 aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnInplaceMaskedFillTensor");
	nn_val a = nn_in(x, selfRef, "selfRef"), m = nn_in(x, mask, "mask"), v = nn_in(x, value, "value");
	nn_val o = nn_out(x, selfRef, "selfRef");

	if (nn_ok(x) && nn_view(x, v)->count != 1)
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "value %s must have one element", nn_shape_str(x, v));
	else if (nn_check_dtype(x, v, "value", nns_all, NNS_COUNT_OF(nns_all))) {
		aclDataType dt = nn_view(x, a)->dtype;

		masked_fill(x, a, m, nn_cast(x, nns_view(x, v, 0, NULL, NULL, 0), dt), o);
	}
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnInplaceMaskedFillTensor)
