// SPDX-License-Identifier: MIT
/*
 * nn_move.c - aclnn's shape functions: permute, slice, expand, repeat,
 * cat, stack, split, flip and constant padding.
 *
 * Most of them are views: the result is a strided view of self (nn_restride:
 * permuted strides, a sliced offset, a stride of 0 for a broadcast) that one
 * nn_store writes into out, so the function costs exactly the one strided
 * copy out needs. Cat, stack and split store each part into (or from) a
 * restrided window of out (or self), one copy per part and no lib/ops
 * ConcatD/SplitVD staging. Only flip (a negative stride, which a view cannot
 * have) and padding compute through lib/ops (StridedSliceD, PadV3D).
 */
#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_constant_pad_nd.h"
#include "aclnnop/aclnn_expand.h"
#include "aclnnop/aclnn_flip.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_repeat.h"
#include "aclnnop/aclnn_slice.h"
#include "aclnnop/aclnn_split_tensor.h"
#include "aclnnop/aclnn_split_with_size.h"
#include "aclnnop/aclnn_stack.h"
#include "nn_shape_util.h"

/* Most tensors of a list (cat, stack, split): their values live on the
 * stack of the call. */
#define MOVE_MAX_LIST 1024

/* Begin a function whose out has self's type (a pure move). */
static bool move_types(struct nn_exec *x, nn_val a, nn_val o)
{
	return nn_check_dtype(x, a, "self", nns_all, NNS_COUNT_OF(nns_all)) &&
	       nns_same_dtype(x, o, "out", a, "self");
}

/* ---- views of self --------------------------------------------------------- */

aclnnStatus aclnnPermuteGetWorkspaceSize(const aclTensor *self, const aclIntArray *dims, aclTensor *out,
					 uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnPermute");
	nn_val a = nn_in(x, self, "self"), o = nn_out(x, out, "out");
	const struct nn_view v_ = *nn_view(x, a), *v = &v_;
	int64_t perm[VOPS_MAX_RANK], pd[VOPS_MAX_RANK], ps[VOPS_MAX_RANK], st[VOPS_MAX_RANK];
	int rank = v->ndim, n = nns_axes(x, dims, "dims", rank, false, perm);

	if (n < 0 || !move_types(x, a, o))
		return nn_finish(x, workspaceSize, executor);
	if (n != rank) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "dims has %d axes, self %d dimensions", n, rank);
		return nn_finish(x, workspaceSize, executor);
	}
	nns_strides(v, st);
	for (int i = 0; i < rank; i++) {
		pd[i] = v->dims[perm[i]];
		ps[i] = st[perm[i]];
	}
	nn_store(x, nns_view(x, a, rank, pd, ps, 0), o);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnPermute)

aclnnStatus aclnnSliceGetWorkspaceSize(const aclTensor *self, int64_t dim, int64_t start, int64_t end, int64_t step,
				       aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnSlice");
	nn_val a = nn_in(x, self, "self"), o = nn_out(x, out, "out");
	const struct nn_view v_ = *nn_view(x, a), *v = &v_;
	int64_t dims[VOPS_MAX_RANK], st[VOPS_MAX_RANK], size, off;
	int rank = v->ndim, d;

	if (!move_types(x, a, o) || !nn_check_rank(x, a, "self", 1, VOPS_MAX_RANK))
		return nn_finish(x, workspaceSize, executor);
	d = nn_axis(x, dim, rank, "dim");
	if (d < 0)
		return nn_finish(x, workspaceSize, executor);
	if (step <= 0) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "step %" PRId64 " is not positive", step);
		return nn_finish(x, workspaceSize, executor);
	}
	/* PyTorch's bounds: negative from the end, then clamped to [0, size] */
	size = v->dims[d];
	start = start < 0 ? start + size : start;
	end = end < 0 ? end + size : end;
	start = start < 0 ? 0 : start > size ? size : start;
	end = end < start ? start : end > size ? size : end;
	memcpy(dims, v->dims, sizeof(*dims) * (size_t)rank);
	nns_strides(v, st);
	dims[d] = (end - start + step - 1) / step;
	off = start * st[d];
	st[d] *= step;
	nn_store(x, nns_view(x, a, rank, dims, st, off), o);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnSlice)

aclnnStatus aclnnExpandGetWorkspaceSize(const aclTensor *self, const aclIntArray *size, aclTensor *out,
					uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnExpand");
	nn_val a = nn_in(x, self, "self"), o = nn_out(x, out, "out");
	const struct nn_view v_ = *nn_view(x, a), *v = &v_;
	int64_t dims[VOPS_MAX_RANK], st[VOPS_MAX_RANK], vs[VOPS_MAX_RANK];
	uint64_t n = 0;
	const int64_t *sz = nn_ints(x, size, "size", &n);
	int rank = v->ndim;

	if (!nn_ok(x) || !move_types(x, a, o))
		return nn_finish(x, workspaceSize, executor);
	if (n < (uint64_t)rank || n > VOPS_MAX_RANK) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "size has %" PRIu64 " dimensions, self %d", n, rank);
		return nn_finish(x, workspaceSize, executor);
	}
	nns_strides(v, vs);
	for (int i = 0; i < (int)n; i++) {
		int j = i - ((int)n - rank);	/* self's dimension, right-aligned */
		int64_t want = sz[i];

		if (j >= 0 && (want == -1 || want == v->dims[j])) {
			dims[i] = v->dims[j];
			st[i] = vs[j];
		} else if (want >= 0 && (j < 0 || v->dims[j] == 1)) {
			dims[i] = want;
			st[i] = 0;
		} else {
			nn_fail(x, ACLNN_ERR_PARAM_INVALID, "self %s cannot expand to size[%d] = %" PRId64,
				nn_shape_str(x, a), i, want);
			return nn_finish(x, workspaceSize, executor);
		}
	}
	nn_store(x, nns_view(x, a, (int)n, dims, st, 0), o);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnExpand)

/*
 * Repeat: out[i] = self[i mod d] along each dimension. Seen as 2n
 * dimensions [r0, d0, r1, d1, ...], out (its own strides, d_k * os_k for
 * r_k) is self broadcast along every r_k (stride 0): one store.
 */
aclnnStatus aclnnRepeatGetWorkspaceSize(const aclTensor *self, const aclIntArray *repeats, aclTensor *out,
					uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnRepeat");
	nn_val a = nn_in(x, self, "self"), o = nn_out(x, out, "out");
	const struct nn_view v_ = *nn_view(x, a), *v = &v_;
	int64_t vs[VOPS_MAX_RANK], os[VOPS_MAX_RANK], od[VOPS_MAX_RANK];
	int64_t d2[VOPS_MAX_RANK], s2[VOPS_MAX_RANK], o2[VOPS_MAX_RANK];
	uint64_t n = 0;
	const int64_t *rep = nn_ints(x, repeats, "repeats", &n);
	int rank = v->ndim;

	if (!nn_ok(x) || !move_types(x, a, o))
		return nn_finish(x, workspaceSize, executor);
	if (n < (uint64_t)rank || 2 * n > VOPS_MAX_RANK) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "repeats has %" PRIu64 " values, self %d dimensions", n, rank);
		return nn_finish(x, workspaceSize, executor);
	}
	nns_strides(v, vs);
	for (int i = 0; i < (int)n; i++) {
		int j = i - ((int)n - rank);

		if (rep[i] < 0) {
			nn_fail(x, ACLNN_ERR_PARAM_INVALID, "repeats[%d] = %" PRId64 " is negative", i, rep[i]);
			return nn_finish(x, workspaceSize, executor);
		}
		d2[2 * i] = rep[i];
		d2[2 * i + 1] = j >= 0 ? v->dims[j] : 1;
		s2[2 * i] = 0;
		s2[2 * i + 1] = j >= 0 ? vs[j] : 0;
		od[i] = d2[2 * i] * d2[2 * i + 1];
	}
	if (!nns_check_shape(x, o, "out", (int)n, od))
		return nn_finish(x, workspaceSize, executor);
	nns_strides(nn_view(x, o), os);
	for (int i = 0; i < (int)n; i++) {
		o2[2 * i] = d2[2 * i + 1] * os[i];
		o2[2 * i + 1] = os[i];
	}
	nn_store(x, nns_view(x, a, 2 * (int)n, d2, s2, 0), nns_view(x, o, 2 * (int)n, d2, o2, 0));
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnRepeat)

/* ---- lists: cat, stack, split ------------------------------------------------ */

/* Promote the types of @n values (@name) into one, or fail. */
static aclDataType list_type(struct nn_exec *x, const nn_val *vals, int n, const char *name)
{
	aclDataType t = nn_view(x, vals[0])->dtype;

	for (int i = 0; i < n && nn_ok(x); i++) {
		if (!nn_check_dtype(x, vals[i], name, nns_all, NNS_COUNT_OF(nns_all)))
			return ACL_DT_UNDEFINED;
		t = nn_promote(t, nn_view(x, vals[i])->dtype);
		if (t == ACL_DT_UNDEFINED)
			nn_fail(x, ACLNN_ERR_PARAM_INVALID, "%s[%d]'s type %d does not promote with the others", name,
				i, (int)nn_view(x, vals[i])->dtype);
	}
	return nn_ok(x) ? t : ACL_DT_UNDEFINED;
}

/* Do @a and @b (rank @rank) have the same dims except @skip (-1: none)? */
static bool same_dims_but(const struct nn_view *a, const struct nn_view *b, int skip)
{
	if (a->ndim != b->ndim)
		return false;
	for (int i = 0; i < a->ndim; i++)
		if (i != skip && a->dims[i] != b->dims[i])
			return false;
	return true;
}

/* Copy the inputs of @in (@n) that overlap @o first: a function storing
 * several parts reads every input before it writes a part. */
static void read_before_write(struct nn_exec *x, nn_val *in, int n, nn_val o)
{
	for (int i = 0; i < n; i++)
		if (nn_overlaps(x, in[i], o))
			in[i] = nn_dense(x, in[i], ACL_DT_UNDEFINED);
}

/* PyTorch's cat skips 1-D empty tensors whatever the others' shape. */
static bool cat_skipped(const struct nn_view *v)
{
	return v->ndim == 1 && v->dims[0] == 0;
}

aclnnStatus aclnnCatGetWorkspaceSize(const aclTensorList *tensors, int64_t dim, aclTensor *out,
				     uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnCat");
	nn_val in[MOVE_MAX_LIST];
	int n = nn_in_list(x, tensors, "tensors", in, MOVE_MAX_LIST, false);
	nn_val o = nn_out(x, out, "out");
	int64_t dims[VOPS_MAX_RANK], os[VOPS_MAX_RANK], at = 0;
	struct nn_view ref_;
	const struct nn_view *ref = &ref_;
	int r = 0, d;

	if (n < 0 || list_type(x, in, n, "tensors") == ACL_DT_UNDEFINED)
		return nn_finish(x, workspaceSize, executor);
	/* the shape every other tensor follows: the first one not skipped */
	while (r < n - 1 && cat_skipped(nn_view(x, in[r])))
		r++;
	ref_ = *nn_view(x, in[r]);
	if (!nn_check_rank(x, in[r], "tensors", 1, VOPS_MAX_RANK))
		return nn_finish(x, workspaceSize, executor);
	d = nn_axis(x, dim, ref->ndim, "dim");
	if (d < 0)
		return nn_finish(x, workspaceSize, executor);
	memcpy(dims, ref->dims, sizeof(*dims) * (size_t)ref->ndim);
	dims[d] = 0;
	for (int i = 0; i < n; i++) {
		const struct nn_view v_ = *nn_view(x, in[i]), *v = &v_;

		if (cat_skipped(v) && ref->ndim != 1)
			continue;
		if (!same_dims_but(v, ref, d)) {
			nn_fail(x, ACLNN_ERR_PARAM_INVALID,
				"tensors[%d] %s does not match tensors[%d] %s but along dim %d", i,
				nn_shape_str(x, in[i]), r, nn_shape_str(x, in[r]), d);
			return nn_finish(x, workspaceSize, executor);
		}
		dims[d] += v->dims[d];
	}
	if (!nns_check_shape(x, o, "out", ref->ndim, dims))
		return nn_finish(x, workspaceSize, executor);
	read_before_write(x, in, n, o);
	nns_strides(nn_view(x, o), os);
	for (int i = 0; i < n; i++) {
		const struct nn_view v_ = *nn_view(x, in[i]), *v = &v_;

		if (cat_skipped(v) && ref->ndim != 1)
			continue;
		nn_store(x, in[i], nns_view(x, o, v->ndim, v->dims, os, at * os[d]));
		at += v->dims[d];
	}
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnCat)

aclnnStatus aclnnStackGetWorkspaceSize(const aclTensorList *tensors, int64_t dim, aclTensor *out,
				       uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnStack");
	nn_val in[MOVE_MAX_LIST];
	int n = nn_in_list(x, tensors, "tensors", in, MOVE_MAX_LIST, false);
	nn_val o = nn_out(x, out, "out");
	int64_t dims[VOPS_MAX_RANK], os[VOPS_MAX_RANK], ws[VOPS_MAX_RANK];
	struct nn_view ref_;
	const struct nn_view *ref = &ref_;
	int rank, d;

	if (n < 0 || list_type(x, in, n, "tensors") == ACL_DT_UNDEFINED)
		return nn_finish(x, workspaceSize, executor);
	ref_ = *nn_view(x, in[0]);
	rank = ref->ndim;
	if (rank + 1 > VOPS_MAX_RANK) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "tensors have %d dimensions: stacking adds one", rank);
		return nn_finish(x, workspaceSize, executor);
	}
	d = nn_axis(x, dim, rank + 1, "dim");
	if (d < 0)
		return nn_finish(x, workspaceSize, executor);
	for (int i = 1; i < n; i++)
		if (!same_dims_but(nn_view(x, in[i]), ref, -1)) {
			nn_fail(x, ACLNN_ERR_PARAM_INVALID, "tensors[%d] %s is not the shape of tensors[0] %s", i,
				nn_shape_str(x, in[i]), nn_shape_str(x, in[0]));
			return nn_finish(x, workspaceSize, executor);
		}
	for (int i = 0, j = 0; i <= rank; i++)
		dims[i] = i == d ? n : ref->dims[j++];
	if (!nns_check_shape(x, o, "out", rank + 1, dims))
		return nn_finish(x, workspaceSize, executor);
	/* tensor i is out's window at index i of dim: out's strides without d */
	nns_strides(nn_view(x, o), os);
	for (int i = 0, j = 0; i <= rank; i++)
		if (i != d)
			ws[j++] = os[i];
	read_before_write(x, in, n, o);
	for (int i = 0; i < n; i++)
		nn_store(x, in[i], nns_view(x, o, rank, ref->dims, ws, i * os[d]));
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnStack)

/* Store the parts of @a along @d, of the sizes @sizes (@n), into the
 * tensors of list @out; the list must have @n tensors of self's type. */
static void split_into(struct nn_exec *x, nn_val a, int d, const int64_t *sizes, int n, const aclTensorList *out)
{
	struct nn_view v_;
	const struct nn_view *v = &v_;
	nn_val parts[MOVE_MAX_LIST];
	int64_t dims[VOPS_MAX_RANK], st[VOPS_MAX_RANK], at = 0;
	int m = nn_out_list(x, out, "out", parts, MOVE_MAX_LIST, false);

	if (m < 0)
		return;
	if (m != n) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "out has %d tensors, the split %d parts", m, n);
		return;
	}
	/* A part that overlaps self would change what later parts read. */
	for (int i = 0; i < n; i++)
		if (nn_overlaps(x, a, parts[i])) {
			a = nn_dense(x, a, ACL_DT_UNDEFINED);
			break;
		}
	v_ = *nn_view(x, a);
	memcpy(dims, v->dims, sizeof(*dims) * (size_t)v->ndim);
	nns_strides(v, st);
	for (int i = 0; i < n; i++) {
		if (!nns_same_dtype(x, parts[i], "out", a, "self"))
			return;
		dims[d] = sizes[i];
		nn_store(x, nns_view(x, a, v->ndim, dims, st, at * st[d]), parts[i]);
		at += sizes[i];
	}
}

aclnnStatus aclnnSplitTensorGetWorkspaceSize(const aclTensor *self, uint64_t splitSections, int64_t dim,
					     aclTensorList *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnSplitTensor");
	nn_val a = nn_in(x, self, "self");
	int64_t sizes[MOVE_MAX_LIST], size, left;
	int d = -1, n = 0;

	if (nn_check_dtype(x, a, "self", nns_all, NNS_COUNT_OF(nns_all)) &&
	    nn_check_rank(x, a, "self", 1, VOPS_MAX_RANK))
		d = nn_axis(x, dim, nn_view(x, a)->ndim, "dim");
	if (d < 0)
		return nn_finish(x, workspaceSize, executor);
	size = nn_view(x, a)->dims[d];
	if (!splitSections && size) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "splitSections is 0 for a dimension of %" PRId64, size);
		return nn_finish(x, workspaceSize, executor);
	}
	/* parts of splitSections, the last one what is left; an empty
	 * dimension is one empty part */
	left = size;
	do {
		if (n == MOVE_MAX_LIST) {
			nn_fail(x, ACLNN_ERR_PARAM_INVALID, "more than %d parts", MOVE_MAX_LIST);
			return nn_finish(x, workspaceSize, executor);
		}
		sizes[n] = (uint64_t)left < splitSections ? left : (int64_t)splitSections;
		left -= sizes[n++];
	} while (left > 0);
	split_into(x, a, d, sizes, n, out);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnSplitTensor)

aclnnStatus aclnnSplitWithSizeGetWorkspaceSize(const aclTensor *self, const aclIntArray *splitSize, int64_t dim,
					       aclTensorList *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnSplitWithSize");
	nn_val a = nn_in(x, self, "self");
	uint64_t n = 0;
	const int64_t *sizes = nn_ints(x, splitSize, "splitSize", &n);
	int64_t sum = 0;
	int d = -1;

	if (nn_ok(x) && nn_check_dtype(x, a, "self", nns_all, NNS_COUNT_OF(nns_all)) &&
	    nn_check_rank(x, a, "self", 1, VOPS_MAX_RANK))
		d = nn_axis(x, dim, nn_view(x, a)->ndim, "dim");
	if (d < 0)
		return nn_finish(x, workspaceSize, executor);
	for (uint64_t i = 0; i < n; i++) {
		if (sizes[i] < 0) {
			nn_fail(x, ACLNN_ERR_PARAM_INVALID, "splitSize[%" PRIu64 "] = %" PRId64 " is negative", i,
				sizes[i]);
			return nn_finish(x, workspaceSize, executor);
		}
		sum += sizes[i];
	}
	if (!n || n > MOVE_MAX_LIST || sum != nn_view(x, a)->dims[d]) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID,
			"splitSize's %" PRIu64 " sizes add up to %" PRId64 ", dim %d of self has %" PRId64, n, sum, d,
			nn_view(x, a)->dims[d]);
		return nn_finish(x, workspaceSize, executor);
	}
	split_into(x, a, d, sizes, (int)n, out);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnSplitWithSize)

/* ---- through lib/ops: flip, pad ------------------------------------------------ */

aclnnStatus aclnnFlipGetWorkspaceSize(const aclTensor *self, const aclIntArray *dims, aclTensor *out,
				      uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnFlip");
	nn_val a = nn_in(x, self, "self"), o = nn_out(x, out, "out");
	const struct nn_view v_ = *nn_view(x, a), *v = &v_;
	int64_t axes[VOPS_MAX_RANK], begin[VOPS_MAX_RANK], end[VOPS_MAX_RANK], step[VOPS_MAX_RANK];
	int rank = v->ndim, n = nns_axes(x, dims, "dims", rank, false, axes);
	int64_t end_mask = 0;

	if (n < 0 || !move_types(x, a, o))
		return nn_finish(x, workspaceSize, executor);
	if (!n) {
		nn_store(x, a, o);
		return nn_finish(x, workspaceSize, executor);
	}
	/* end_mask is a bit per axis of an int64 */
	if (rank > 63) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "self has %d dimensions, flip takes at most 63", rank);
		return nn_finish(x, workspaceSize, executor);
	}
	for (int i = 0; i < rank; i++) {
		begin[i] = 0;
		end[i] = v->dims[i];
		step[i] = 1;
	}
	/* a flipped axis runs from its last element (-1) to past its first
	 * (the end_mask bit) by -1 */
	for (int i = 0; i < n; i++) {
		begin[axes[i]] = -1;
		end[axes[i]] = 0;
		step[axes[i]] = -1;
		end_mask |= (int64_t)1 << axes[i];
	}
	{
		struct vops_attr at[] = {
			NN_ATTR_INTS("begin", rank, begin),
			NN_ATTR_INTS("end", rank, end),
			NN_ATTR_INTS("strides", rank, step),
			NN_ATTR_INT("end_mask", end_mask),
		};

		nn_store(x, nn_op1(x, "StridedSliceD", 1, &a, at, NN_COUNT(at)), o);
	}
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnFlip)

aclnnStatus aclnnConstantPadNdGetWorkspaceSize(const aclTensor *self, const aclIntArray *pad, const aclScalar *value,
					       aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnConstantPadNd");
	nn_val a = nn_in(x, self, "self"), o = nn_out(x, out, "out");
	const struct nn_view v_ = *nn_view(x, a), *v = &v_;
	int64_t pads[2 * VOPS_MAX_RANK] = { 0 };
	uint64_t n = 0;
	const int64_t *p = nn_ints(x, pad, "pad", &n);
	int rank = v->ndim;
	bool any = false;

	if (nn_null(x, value, "value") || !nn_ok(x) || !move_types(x, a, o))
		return nn_finish(x, workspaceSize, executor);
	if (n % 2 || n > 2 * (uint64_t)rank) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "pad has %" PRIu64 " values: pairs, at most 2 per dimension (%d)",
			n, rank);
		return nn_finish(x, workspaceSize, executor);
	}
	/* pad's pairs go from the last dimension backwards; PadV3D's
	 * contiguous paddings are [before0, after0, before1, ...] */
	for (uint64_t k = 0; k < n / 2; k++) {
		int d = rank - 1 - (int)k;

		pads[2 * d] = p[2 * k];
		pads[2 * d + 1] = p[2 * k + 1];
		if (v->dims[d] + p[2 * k] + p[2 * k + 1] < 0) {
			nn_fail(x, ACLNN_ERR_PARAM_INVALID, "pad crops dimension %d of %" PRId64 " below 0", d,
				v->dims[d]);
			return nn_finish(x, workspaceSize, executor);
		}
		any |= p[2 * k] || p[2 * k + 1];
	}
	if (!any) {
		nn_store(x, a, o);
		return nn_finish(x, workspaceSize, executor);
	}
	{
		/* an Int value keeps integers exact (a Float attribute is fp32) */
		struct vops_attr at[] = {
			NN_ATTR_INTS("paddings", 2 * rank, pads),
			nn_dt_float(v->dtype) ? (struct vops_attr)NN_ATTR_FLOAT("constant_values", nn_scalar_f64(value))
					      : (struct vops_attr)NN_ATTR_INT("constant_values", nn_scalar_i64(value)),
		};

		nn_store(x, nn_op1(x, "PadV3D", 1, &a, at, NN_COUNT(at)), o);
	}
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnConstantPadNd)
