// SPDX-License-Identifier: MIT
/*
 * nn_move2.c - more of aclnn's movement and indexing: flatten (a reshape
 * and one store), roll (per rolled dimension, ConcatD of the two windows
 * of the view: no gather, no index tensor), arange (a running count, then
 * start + i * step in double), GatherNd, ScatterNd and IndexPutImpl.
 */
#include <math.h>

#include "aclnnop/aclnn_arange.h"
#include "aclnnop/aclnn_flatten.h"
#include "aclnnop/aclnn_gather_nd.h"
#include "aclnnop/aclnn_index_put_impl.h"
#include "aclnnop/aclnn_roll.h"
#include "aclnnop/aclnn_scatter_nd.h"
#include "nn_shape_util.h"

aclnnStatus aclnnFlattenGetWorkspaceSize(const aclTensor *self, int64_t axis, aclTensor *out, uint64_t *workspaceSize,
					 aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnFlatten");
	nn_val a = nn_in(x, self, "self"), o = nn_out(x, out, "out");
	const struct nn_view v_ = *nn_view(x, a), *v = &v_;
	int ax = nn_axis(x, axis, v->ndim, "axis");
	int64_t d[2] = { 1, 1 };

	if (ax >= 0 && nns_same_dtype(x, o, "out", a, "self")) {
		for (int i = 0; i < v->ndim; i++)
			d[i >= ax] *= v->dims[i];
		nn_store(x, nn_reshape(x, a, 2, d), o);
	}
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnFlatten)

/* @a rotated by @shift along @axis: the last k elements first. */
static nn_val roll_axis(struct nn_exec *x, nn_val a, int axis, int64_t shift)
{
	const struct nn_view v_ = *nn_view(x, a), *v = &v_;
	int64_t size = v->dims[axis], k, st[VOPS_MAX_RANK], d0[VOPS_MAX_RANK], d1[VOPS_MAX_RANK];
	nn_val parts[2];

	if (!size)
		return a;
	k = ((shift % size) + size) % size;
	if (!k)
		return a;
	nns_strides(v, st);
	memcpy(d0, v->dims, sizeof(*d0) * (size_t)v->ndim);
	memcpy(d1, v->dims, sizeof(*d1) * (size_t)v->ndim);
	d0[axis] = k;
	d1[axis] = size - k;
	parts[0] = nns_view(x, a, v->ndim, d0, st, (size - k) * st[axis]);
	parts[1] = nns_view(x, a, v->ndim, d1, st, 0);
	{
		struct vops_attr at[] = { NN_ATTR_INT("concat_dim", axis), NN_ATTR_INT("N", 2) };

		return nn_op1(x, "ConcatD", 2, parts, at, NN_COUNT(at));
	}
}

aclnnStatus aclnnRollGetWorkspaceSize(const aclTensor *x_, const aclIntArray *shifts, const aclIntArray *dims,
				      aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnRoll");
	nn_val a = nn_in(x, x_, "x"), o = nn_out(x, out, "out");
	const struct nn_view v_ = *nn_view(x, a), *v = &v_;
	uint64_t ns = 0, nd = 0;
	const int64_t *sh = nn_ints(x, shifts, "shifts", &ns);
	/* NULL dims is the empty list */
	const int64_t *dm = dims ? nn_ints(x, dims, "dims", &nd) : NULL;

	if (!nn_ok(x) || !nns_same_dtype(x, o, "out", a, "x"))
		return nn_finish(x, workspaceSize, executor);
	if (nd ? ns != nd : ns != 1) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "shifts has %" PRIu64 " values, dims %" PRIu64
			" (an empty dims takes one shift)", ns, nd);
		return nn_finish(x, workspaceSize, executor);
	}
	if (!nd) {
		/* the flattened tensor rolled, back in x's shape */
		int64_t cnt = (int64_t)v->count;
		nn_val f = roll_axis(x, nn_reshape(x, a, 1, &cnt), 0, sh[0]);

		nn_store(x, nn_reshape(x, f, v->ndim, v->dims), o);
		return nn_finish(x, workspaceSize, executor);
	}
	{
		int64_t ax[VOPS_MAX_RANK];
		nn_val r = a;
		bool scalar = v->ndim == 0;
		static const int64_t one[] = { 1 };

		for (uint64_t i = 0; i < nd && i < VOPS_MAX_RANK; i++)
			if ((ax[i] = nn_axis(x, dm[i], v->ndim, "dims")) < 0)
				return nn_finish(x, workspaceSize, executor);
		if (nd > VOPS_MAX_RANK) {
			nn_fail(x, ACLNN_ERR_PARAM_INVALID, "dims has %" PRIu64 " values", nd);
			return nn_finish(x, workspaceSize, executor);
		}
		if (scalar)
			r = nn_reshape(x, a, 1, one);
		/* a dimension named twice rolls twice, as PyTorch's */
		for (uint64_t i = 0; i < nd; i++)
			r = roll_axis(x, r, (int)ax[i], sh[i]);
		nn_store(x, scalar ? nn_reshape(x, r, 0, NULL) : r, o);
	}
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnRoll)

aclnnStatus aclnnArangeGetWorkspaceSize(const aclScalar *start, const aclScalar *end, const aclScalar *step,
					aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnArange");
	nn_val o = nn_out(x, out, "out");
	double s, e, st, len;
	int64_t n;

	if (nn_null(x, start, "start") || nn_null(x, end, "end") || nn_null(x, step, "step") ||
	    !nn_check_dtype(x, o, "out", nns_numeric, NNS_COUNT_OF(nns_numeric)))
		return nn_finish(x, workspaceSize, executor);
	s = nn_scalar_f64(start);
	e = nn_scalar_f64(end);
	st = nn_scalar_f64(step);
	if (st == 0 || !isfinite(s) || !isfinite(e) || !isfinite(st) || (e - s) * st < 0) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "start %g, end %g and step %g make no range", s, e, st);
		return nn_finish(x, workspaceSize, executor);
	}
	len = ceil((e - s) / st);
	if (len > (double)INT32_MAX * 64) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "the range has %g elements", len);
		return nn_finish(x, workspaceSize, executor);
	}
	n = (int64_t)len;
	if (!nns_check_shape(x, o, "out", 1, &n) || !n)
		return nn_finish(x, workspaceSize, executor);
	{
		/* 0, 1, ..., n-1 as the exclusive running sum of ones, then
		 * start + i * step in double, cast once by the store */
		struct vops_attr fill[] = { NN_ATTR_INTS("dims", 1, &n) };
		struct vops_attr cum[] = { NN_ATTR_INT("axis", 0), NN_ATTR_BOOL("exclusive", true) };
		nn_val one = nn_const(x, 1, ACL_DOUBLE);
		nn_val i = nn_op1(x, "CumsumD", 1, (nn_val[]){ nn_op1(x, "FillD", 1, &one, fill, NN_COUNT(fill)) },
				  cum, NN_COUNT(cum));
		nn_val m = nn_op1(x, "Mul", 2, (nn_val[]){ i, nn_const(x, st, ACL_DOUBLE) }, NULL, 0);

		nn_store(x, nn_op1(x, "Add", 2, (nn_val[]){ m, nn_const(x, s, ACL_DOUBLE) }, NULL, 0), o);
	}
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnArange)

aclnnStatus aclnnGatherNdGetWorkspaceSize(const aclTensor *self, const aclTensor *indices, bool negativeIndexSupport,
					  aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnGatherNd");
	nn_val in[2] = { nn_in(x, self, "self"), nn_in(x, indices, "indices") }, o = nn_out(x, out, "out");

	/* lib/ops' GatherNd counts negative indices from the end and checks
	 * every index: without negativeIndexSupport a negative one is as
	 * undefined on CANN, so taking it the same way is one of its results */
	(void)negativeIndexSupport;
	if (nn_check_dtype(x, in[1], "indices", nns_index, NNS_COUNT_OF(nns_index)) &&
	    nn_check_rank(x, in[0], "self", 1, VOPS_MAX_RANK) && nn_check_rank(x, in[1], "indices", 1, VOPS_MAX_RANK) &&
	    nns_same_dtype(x, o, "out", in[0], "self"))
		nn_store(x, nn_op1(x, "GatherNd", 2, in, NULL, 0), o);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnGatherNd)

aclnnStatus aclnnScatterNdGetWorkspaceSize(const aclTensor *data, const aclTensor *indices, const aclTensor *updates,
					   aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnScatterNd");
	nn_val in[3] = { nn_in(x, data, "data"), nn_in(x, indices, "indices"), nn_in(x, updates, "updates") };
	nn_val o = nn_out(x, out, "out");

	/* TensorScatterUpdate checks the shapes and every index */
	if (nn_check_dtype(x, in[1], "indices", nns_index, NNS_COUNT_OF(nns_index)) &&
	    nn_check_rank(x, in[0], "data", 1, VOPS_MAX_RANK) &&
	    nns_same_dtype(x, in[2], "updates", in[0], "data") && nns_same_dtype(x, o, "out", in[0], "data"))
		nn_store(x, nn_op1(x, "TensorScatterUpdate", 3, in, NULL, 0), o);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnScatterNd)

/* ---- IndexPutImpl ------------------------------------------------------------ */

/* The most index tensors: CANN's rank limit. */
#define IP_MAX 8

/* *@nb / @bd broadcast (numpy) with @v's shape, or ACLNN_ERR_PARAM_INVALID
 * naming @name. */
static bool ip_broadcast(struct nn_exec *x, nn_val v, const char *name, int *nb, int64_t *bd)
{
	const struct nn_view v_ = *nn_view(x, v), *w = &v_;
	int n = w->ndim > *nb ? w->ndim : *nb;
	int64_t out[VOPS_MAX_RANK];

	for (int i = 0; i < n; i++) {
		int j = i - (n - w->ndim), l = i - (n - *nb);
		int64_t a = j >= 0 ? w->dims[j] : 1, b = l >= 0 ? bd[l] : 1;

		if (a != b && a != 1 && b != 1) {
			nn_fail(x, ACLNN_ERR_PARAM_INVALID, "%s %s does not broadcast with the other indices", name,
				nn_shape_str(x, v));
			return false;
		}
		out[i] = a == 1 ? b : a;
	}
	memcpy(bd, out, sizeof(*bd) * (size_t)n);
	*nb = n;
	return true;
}

/* The strides that show @v (right-aligned) as @nd dimensions @dims, 0
 * where it broadcasts; ACLNN_ERR_PARAM_INVALID naming @name when it
 * cannot. */
static bool ip_strides(struct nn_exec *x, nn_val v, const char *name, int nd, const int64_t *dims, int64_t *st)
{
	const struct nn_view v_ = *nn_view(x, v), *w = &v_;
	int64_t vs[VOPS_MAX_RANK];
	char want[256];

	nns_strides(w, vs);
	for (int i = 0; i < nd && w->ndim <= nd; i++) {
		int j = i - (nd - w->ndim);

		if (j < 0 || (w->dims[j] == 1 && dims[i] != 1))
			st[i] = 0;
		else if (w->dims[j] == dims[i])
			st[i] = vs[j];
		else
			break;
		if (i == nd - 1)
			return true;
	}
	if (!nd && !w->ndim)
		return true;
	nn_fail(x, ACLNN_ERR_PARAM_INVALID, "%s %s does not broadcast to %s", name, nn_shape_str(x, v),
		nns_dims_str(want, sizeof(want), nd, dims));
	return false;
}

/*
 * selfRef[i0, ..., ik-1] = values (TensorScatterUpdate) or += (TensorScatterAdd)
 * over the index tensors broadcast to one shape B: their int64 copies,
 * each seen as B + [1] (stride 0 where it broadcasts), side by side along
 * the last axis are lib/ops' index tuples [B..., k]; values are seen as
 * B + selfRef's trailing dimensions. Bool accumulates in uint8 (any
 * nonzero sum is true). lib/ops checks every index when the job runs,
 * so unsafe changes nothing.
 */
aclnnStatus aclnnIndexPutImplGetWorkspaceSize(aclTensor *selfRef, const aclTensorList *indices, const aclTensor *values,
					      const bool accumulate, const bool unsafe, uint64_t *workspaceSize,
					      aclOpExecutor **executor)
{
	static const aclDataType dts[] = {
		ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8, ACL_BOOL,
	};
	struct nn_exec *x = nn_begin("aclnnIndexPutImpl");
	nn_val s = nn_in(x, selfRef, "selfRef"), idx[IP_MAX], parts[IP_MAX], v, o, in[3];
	int k = nn_in_list(x, indices, "indices", idx, IP_MAX, false), nb = 0, nv;
	int64_t bd[VOPS_MAX_RANK + 1], vd[VOPS_MAX_RANK], st[VOPS_MAX_RANK + 1];
	struct nn_view sv;
	aclDataType ct;

	(void)unsafe;
	v = nn_in(x, values, "values");
	o = nn_out(x, selfRef, "selfRef");
	if (k < 0 || !nn_ok(x) || !nn_check_dtype(x, s, "selfRef", dts, (int)NN_COUNT(dts)) ||
	    !nn_check_rank(x, s, "selfRef", 1, IP_MAX) || !nns_same_dtype(x, v, "values", s, "selfRef"))
		return nn_finish(x, workspaceSize, executor);
	sv = *nn_view(x, s);
	if (k > sv.ndim) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "indices has %d tensors, more than selfRef's %d dimensions", k,
			sv.ndim);
		return nn_finish(x, workspaceSize, executor);
	}
	for (int i = 0; i < k && nn_ok(x); i++) {
		if (nn_view(x, idx[i])->dtype == ACL_BOOL)
			nn_fail(x, ACLNN_ERR_PARAM_INVALID, "indices[%d] is bool: masks are not supported (vnpu: "
				"their positions are known only when the job runs)", i);
		else if (nn_check_dtype(x, idx[i], "indices", nns_index, NNS_COUNT_OF(nns_index)))
			ip_broadcast(x, idx[i], "indices", &nb, bd);
	}
	if (!nn_ok(x) || nb + sv.ndim - k > VOPS_MAX_RANK)
		return nn_finish(x, workspaceSize, executor);
	bd[nb] = 1;
	for (int i = 0; i < k; i++) {
		nn_val c = nn_cast(x, idx[i], ACL_INT64);

		if (!ip_strides(x, c, "indices", nb, bd, st))
			return nn_finish(x, workspaceSize, executor);
		st[nb] = 0;
		parts[i] = nns_view(x, c, nb + 1, bd, st, 0);
	}
	if (k > 1) {
		struct vops_attr at[] = { NN_ATTR_INT("concat_dim", nb), NN_ATTR_INT("N", k) };

		parts[0] = nn_op1(x, "ConcatD", k, parts, at, NN_COUNT(at));
	}
	memcpy(vd, bd, sizeof(*vd) * (size_t)nb);
	memcpy(vd + nb, sv.dims + k, sizeof(*vd) * (size_t)(sv.ndim - k));
	nv = nb + sv.ndim - k;
	if (!ip_strides(x, v, "values", nv, vd, st))
		return nn_finish(x, workspaceSize, executor);
	ct = accumulate && sv.dtype == ACL_BOOL ? ACL_UINT8 : sv.dtype;
	in[0] = nn_cast(x, s, ct);
	in[1] = parts[0];
	in[2] = nn_cast(x, nns_view(x, v, nv, vd, st, 0), ct);
	nn_store(x, nn_op1(x, accumulate ? "TensorScatterAdd" : "TensorScatterUpdate", 3, in, NULL, 0), o);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnIndexPutImpl)
