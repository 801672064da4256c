// SPDX-License-Identifier: MIT
/*
 * nn_reduce2.c - aclnn's statistics over lib/ops' reduce family: the
 * log-sum-exp (ReduceLogSumExp) and the variance and standard deviation
 * (composed: ReduceMeanD, Sub, Mul, ReduceSumD, RealDiv, Sqrt; lib/ops has
 * no variance operator).
 */
#include "aclnnop/aclnn_logsumexp.h"
#include "aclnnop/aclnn_std.h"
#include "aclnnop/aclnn_std_mean_correction.h"
#include "aclnnop/aclnn_var.h"
#include "aclnnop/aclnn_var_mean.h"
#include "nn_shape_util.h"

aclnnStatus aclnnLogSumExpGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool keepDim, aclTensor *out,
					   uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnLogSumExp");
	nn_val a = nn_in(x, self, "self"), o = nn_out(x, out, "out");
	int64_t axes[VOPS_MAX_RANK];
	int n = nns_axes(x, dim, "dim", nn_view(x, a)->ndim, true, axes);

	/* integer and bool inputs compute in out's float type (PyTorch's rule) */
	if (n >= 0 && nn_check_dtype(x, a, "self", nns_all, NNS_COUNT_OF(nns_all)) &&
	    nn_check_dtype(x, o, "out", nns_floats, NNS_COUNT_OF(nns_floats))) {
		struct vops_attr at[] = { NN_ATTR_INTS("axes", n, axes), NN_ATTR_BOOL("keep_dims", keepDim) };
		nn_val c = nn_cast(x, a, nn_view(x, o)->dtype);

		nn_store(x, nn_op1(x, "ReduceLogSumExp", 1, &c, at, NN_COUNT(at)), o);
	}
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnLogSumExp)

/*
 * The variance of @a over @dim (NULL or empty: every dimension) with
 * divisor max(0, N - @correction), its square root when @root, into @o;
 * the mean into @mo unless NN_ABSENT. fp16 and bf16 compute in fp32: the
 * squared deviations of fp16 values lose too much in fp16.
 */
static void var_into(struct nn_exec *x, nn_val a, const aclIntArray *dim, int64_t correction, bool keep, bool root,
		     nn_val o, nn_val mo)
{
	const struct nn_view v_ = *nn_view(x, a), *v = &v_;
	int64_t axes[VOPS_MAX_RANK], rdims[VOPS_MAX_RANK], n_elems = 1;
	int n, r;
	aclDataType ct;
	nn_val c, m, d, s, res;

	if (!nn_check_dtype(x, a, "self", nns_floats, NNS_COUNT_OF(nns_floats)) ||
	    !nn_check_dtype(x, o, root ? "stdOut" : "out", nns_floats, NNS_COUNT_OF(nns_floats)))
		return;
	if (mo != NN_ABSENT && !nn_check_dtype(x, mo, "meanOut", nns_floats, NNS_COUNT_OF(nns_floats)))
		return;
	if (dim) {
		n = nns_axes(x, dim, "dim", v->ndim, true, axes);
		if (n < 0)
			return;
	} else {
		for (n = 0; n < v->ndim; n++)
			axes[n] = n;
	}
	for (int i = 0; i < n; i++)
		n_elems *= v->dims[axes[i]];
	ct = v->dtype == ACL_DOUBLE ? ACL_DOUBLE : ACL_FLOAT;
	{
		struct vops_attr keep1[] = { NN_ATTR_INTS("axes", n, axes), NN_ATTR_BOOL("keep_dims", true) };
		struct vops_attr red[] = { NN_ATTR_INTS("axes", n, axes), NN_ATTR_BOOL("keep_dims", keep) };
		nn_val dd[2], q[2];

		c = nn_cast(x, a, ct);
		m = nn_op1(x, "ReduceMeanD", 1, &c, keep1, NN_COUNT(keep1));
		dd[0] = c;
		dd[1] = m;
		d = nn_op1(x, "Sub", 2, dd, NULL, 0);
		q[0] = d;
		q[1] = d;
		s = nn_op1(x, "ReduceSumD", 1, (nn_val[]){ nn_op1(x, "Mul", 2, q, NULL, 0) }, red, NN_COUNT(red));
	}
	{
		/* a divisor of 0 gives inf or NaN, as PyTorch's */
		int64_t den = n_elems - correction > 0 ? n_elems - correction : 0;
		nn_val sd[2] = { s, nn_const(x, (double)den, ct) };

		res = nn_op1(x, "RealDiv", 2, sd, NULL, 0);
	}
	if (root)
		res = nn_op1(x, "Sqrt", 1, &res, NULL, 0);
	nn_store(x, res, o);
	if (mo != NN_ABSENT) {
		r = nns_reduced_shape(v, axes, n, keep, rdims);
		nn_store(x, nn_reshape(x, m, r, rdims), mo);
	}
}

aclnnStatus aclnnVarGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool unbiased, bool keepdim,
				     aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnVar");
	nn_val a = nn_in(x, self, "self"), o = nn_out(x, out, "out");

	var_into(x, a, dim, unbiased ? 1 : 0, keepdim, false, o, NN_ABSENT);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnVar)

aclnnStatus aclnnStdGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, const int64_t correction,
				     bool keepdim, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnStd");
	nn_val a = nn_in(x, self, "self"), o = nn_out(x, out, "out");

	var_into(x, a, dim, correction, keepdim, true, o, NN_ABSENT);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnStd)

aclnnStatus aclnnStdMeanCorrectionGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, int64_t correction,
						   bool keepdim, aclTensor *stdOut, aclTensor *meanOut,
						   uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnStdMeanCorrection");
	nn_val a = nn_in(x, self, "self"), so = nn_out(x, stdOut, "stdOut"), mo = nn_out(x, meanOut, "meanOut");

	if (nn_ok(x))
		var_into(x, a, dim, correction, keepdim, true, so, mo);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnStdMeanCorrection)

aclnnStatus aclnnVarCorrectionGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, int64_t correction,
					       bool keepdim, aclTensor *out, uint64_t *workspaceSize,
					       aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnVarCorrection");
	nn_val a = nn_in(x, self, "self"), o = nn_out(x, out, "out");

	var_into(x, a, dim, correction, keepdim, false, o, NN_ABSENT);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnVarCorrection)

aclnnStatus aclnnVarMeanGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, int64_t correction,
					 bool keepdim, aclTensor *varOut, aclTensor *meanOut, uint64_t *workspaceSize,
					 aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnVarMean");
	nn_val a = nn_in(x, self, "self"), vo = nn_out(x, varOut, "varOut"), mo = nn_out(x, meanOut, "meanOut");

	if (nn_ok(x))
		var_into(x, a, dim, correction, keepdim, false, vo, mo);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnVarMean)
