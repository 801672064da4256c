// SPDX-License-Identifier: MIT
/*
 * nn_net_norm.c - the normalisations: aclnnLayerNorm, aclnnRmsNorm,
 * aclnnBatchNorm (inference and training), aclnnGroupNorm, aclnnInstanceNorm
 * (lib/ops' InstanceNorm).
 *
 * LayerNorm is lib/ops' LayerNormV3 (mean and rstd outputs); GroupNorm is
 * LayerNormV3 over [N, group, C / group * HxW] followed by the per-channel
 * gamma and beta; BatchNorm's y is lib/ops' inference BatchNorm, in
 * training over the batch statistics computed here (ReduceMeanD of x and
 * of its squared distances, in fp32 or wider), which also update the
 * running statistics with momentum as PyTorch does (the running variance
 * takes the unbiased batch variance). Absent weights are ones, absent
 * biases zeros (stride-0 constants, no storage). Types fp32, fp16, bf16.
 */
#include <math.h>
#include <string.h>

#include "aclnnop/aclnn_batch_norm.h"
#include "aclnnop/aclnn_group_norm.h"
#include "aclnnop/aclnn_instance_norm.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "nn_net.h"

/* The type statistics are computed in: fp32 for the half types. */
static aclDataType stat_type(aclDataType dt)
{
	return dt == ACL_DOUBLE ? ACL_DOUBLE : ACL_FLOAT;
}

/* An optional parameter tensor (weight, bias) of shape @dims, or the constant @dflt of
 * type @dt when absent; checked against the shape, named @name. */
static nn_val param_or(struct nn_exec *x, nn_val v, const char *name, double dflt, aclDataType dt,
		       int ndim, const int64_t *dims)
{
	const struct nn_view *w;

	if (!nn_ok(x))
		return NN_NONE;
	if (v == NN_ABSENT)
		return nnn_const_shape(x, dflt, dt, ndim, dims);
	if (!nn_check_dtype(x, v, name, nnn_float_dts, NNN_NFLOAT))
		return NN_NONE;
	w = nn_view(x, v);
	if (w->ndim != ndim || memcmp(w->dims, dims, sizeof(dims[0]) * (size_t)ndim)) {
		char s[256];
		int len = 0, i;

		for (i = 0; i < ndim && len < (int)sizeof(s) - 24; i++)
			len += snprintf(s + len, sizeof(s) - (size_t)len, "%s%" PRId64, i ? ", " : "",
					dims[i]);
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "%s %s must be [%s]", name, nn_shape_str(x, v), s);
		return NN_NONE;
	}
	return v;
}

/* ---- LayerNorm ---------------------------------------------------------------- */

aclnnStatus aclnnLayerNormGetWorkspaceSize(const aclTensor *input, const aclIntArray *normalizedShape,
					   const aclTensor *weightOptional, const aclTensor *biasOptional,
					   double eps, aclTensor *out, aclTensor *meanOutOptional,
					   aclTensor *rstdOutOptional, uint64_t *workspaceSize,
					   aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnLayerNorm");
	nn_val a = nn_in(x, input, "input"), w = nn_in_opt(x, weightOptional, "weightOptional");
	nn_val b = nn_in_opt(x, biasOptional, "biasOptional"), o = nn_out(x, out, "out");
	nn_val mo = meanOutOptional ? nn_out(x, meanOutOptional, "meanOutOptional") : NN_ABSENT;
	nn_val ro = rstdOutOptional ? nn_out(x, rstdOutOptional, "rstdOutOptional") : NN_ABSENT;
	uint64_t nns = 0;
	const int64_t *ns = nn_ints(x, normalizedShape, "normalizedShape", &nns);
	int rank, bna, i;
	aclDataType pt;

	nn_check_dtype(x, a, "input", nnn_float_dts, NNN_NFLOAT);
	nn_check_rank(x, a, "input", 1, 8);
	if (!nn_ok(x))
		return nn_finish(x, workspaceSize, executor);
	rank = nn_view(x, a)->ndim;
	if (nns < 1 || nns > (uint64_t)rank) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "normalizedShape has %" PRIu64 " values; input %s "
			"needs 1 to %d", nns, nn_shape_str(x, a), rank);
		return nn_finish(x, workspaceSize, executor);
	}
	bna = rank - (int)nns;
	for (i = 0; i < (int)nns; i++)
		if (ns[i] != nn_view(x, a)->dims[bna + i]) {
			nn_fail(x, ACLNN_ERR_PARAM_INVALID, "normalizedShape[%d] = %" PRId64 " is not "
				"input %s's trailing dimension", i, ns[i], nn_shape_str(x, a));
			return nn_finish(x, workspaceSize, executor);
		}
	/* gamma and beta: one type, input's or fp32 (LayerNormV3's rule); an absent one takes the other's */
	pt = w != NN_ABSENT ? nn_view(x, w)->dtype : b != NN_ABSENT ? nn_view(x, b)->dtype :
								       nn_view(x, a)->dtype;
	if (pt != nn_view(x, a)->dtype)
		pt = ACL_FLOAT;
	{
		int64_t bn = bna;
		struct vops_attr at[] = { NN_ATTR_INT("begin_norm_axis", bn), NN_ATTR_INT("begin_params_axis", bn),
					  NN_ATTR_FLOAT("epsilon", eps) };
		nn_val in[3], res[3];
		int nout = ro != NN_ABSENT ? 3 : mo != NN_ABSENT ? 2 : 1;

		in[0] = a;
		in[1] = nn_cast(x, param_or(x, w, "weightOptional", 1, pt, (int)nns, ns), pt);
		in[2] = nn_cast(x, param_or(x, b, "biasOptional", 0, pt, (int)nns, ns), pt);
		if (nn_op(x, "LayerNormV3", 3, in, at, NN_COUNT(at), nout, res) == 0) {
			nn_store(x, res[0], o);
			if (mo != NN_ABSENT)
				nn_store(x, res[1], mo);
			if (ro != NN_ABSENT)
				nn_store(x, res[2], ro);
		}
	}
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnLayerNorm)

/* ---- RmsNorm ------------------------------------------------------------------ */

/* lib/ops' RmsNorm: y = x * rstd * gamma over gamma's trailing dimensions. */
aclnnStatus aclnnRmsNormGetWorkspaceSize(const aclTensor *x_, const aclTensor *gamma, double epsilon,
					 const aclTensor *yOut, const aclTensor *rstdOut,
					 uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnRmsNorm");
	nn_val a = nn_in(x, x_, "x"), g = nn_in(x, gamma, "gamma");
	nn_val yo = nn_out(x, yOut, "yOut"), ro = nn_out(x, rstdOut, "rstdOut");
	const struct nn_view *va, *vg;
	int i;

	nn_check_dtype(x, a, "x", nnn_float_dts, NNN_NFLOAT);
	nn_check_dtype(x, g, "gamma", nnn_float_dts, NNN_NFLOAT);
	if (nn_ok(x)) {
		va = nn_view(x, a);
		vg = nn_view(x, g);
		for (i = 1; i <= vg->ndim && vg->ndim <= va->ndim; i++)
			if (vg->dims[vg->ndim - i] != va->dims[va->ndim - i])
				break;
		if (vg->ndim < 1 || vg->ndim > va->ndim || i <= vg->ndim)
			nn_fail(x, ACLNN_ERR_PARAM_INVALID, "gamma %s must be x %s's trailing dimensions",
				nn_shape_str(x, g), nn_shape_str(x, a));
	}
	if (nn_ok(x)) {
		struct vops_attr at[] = { NN_ATTR_FLOAT("epsilon", epsilon) };
		nn_val in[2], res[2];

		in[0] = a;
		/* gamma: x's type or fp32 (RmsNorm's rule); others become x's */
		in[1] = nn_view(x, g)->dtype == ACL_FLOAT ? g : nn_cast(x, g, nn_view(x, a)->dtype);
		if (nn_op(x, "RmsNorm", 2, in, at, NN_COUNT(at), 2, res) == 0) {
			nn_store(x, res[0], yo);
			nn_store(x, res[1], ro);
		}
	}
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnRmsNorm)

/* ---- BatchNorm ---------------------------------------------------------------- */

/* a * @fa + b * @fb (type @dt) */
static nn_val axpby(struct nn_exec *x, nn_val a, double fa, nn_val b, double fb, aclDataType dt)
{
	nn_val m1[] = { a, nn_const(x, fa, dt) }, m2[] = { b, nn_const(x, fb, dt) };
	nn_val s[2];

	s[0] = nn_op1(x, "Mul", 2, m1, NULL, 0);
	s[1] = nn_op1(x, "Mul", 2, m2, NULL, 0);
	return nn_op1(x, "Add", 2, s, NULL, 0);
}

aclnnStatus aclnnBatchNormGetWorkspaceSize(const aclTensor *input, const aclTensor *weight,
					   const aclTensor *bias, aclTensor *runningMean,
					   aclTensor *runningVar, bool training, double momentum, double eps,
					   aclTensor *output, aclTensor *saveMean, aclTensor *saveInvstd,
					   uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnBatchNorm");
	nn_val a = nn_in(x, input, "input"), w = nn_in_opt(x, weight, "weight");
	nn_val b = nn_in_opt(x, bias, "bias");
	nn_val rm = training ? nn_in_opt(x, runningMean, "runningMean") : nn_in(x, runningMean, "runningMean");
	nn_val rv = training ? nn_in_opt(x, runningVar, "runningVar") : nn_in(x, runningVar, "runningVar");
	nn_val o = nn_out(x, output, "output");
	/* statistics are written in training only; the running ones are updated in place */
	nn_val smo = training && saveMean ? nn_out(x, saveMean, "saveMean") : NN_ABSENT;
	nn_val sio = training && saveInvstd ? nn_out(x, saveInvstd, "saveInvstd") : NN_ABSENT;
	nn_val rmo = training && runningMean ? nn_out(x, runningMean, "runningMean") : NN_ABSENT;
	nn_val rvo = training && runningVar ? nn_out(x, runningVar, "runningVar") : NN_ABSENT;
	int64_t ch, axes[8], n;
	nn_val mean, var, in[5];
	int rank, na = 0, i;
	aclDataType st;

	nn_check_dtype(x, a, "input", nnn_float_dts, NNN_NFLOAT);
	nn_check_rank(x, a, "input", 2, 8);
	if (!nn_ok(x))
		return nn_finish(x, workspaceSize, executor);
	if (!isfinite(eps) || eps < 0) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "eps %g must be finite and >= 0", eps);
		return nn_finish(x, workspaceSize, executor);
	}
	rank = nn_view(x, a)->ndim;
	ch = nn_view(x, a)->dims[1];
	n = (int64_t)nn_view(x, a)->count / (ch ? ch : 1);
	st = stat_type(nn_view(x, a)->dtype);
	for (i = 0; i < rank; i++) {
		if (i != 1)
			axes[na++] = i;
	}
	in[0] = a;
	in[1] = nn_cast(x, param_or(x, w, "weight", 1, st, 1, &ch), st);
	in[2] = nn_cast(x, param_or(x, b, "bias", 0, st, 1, &ch), st);
	if (rm != NN_ABSENT)
		rm = nn_cast(x, param_or(x, rm, "runningMean", 0, st, 1, &ch), st);
	if (rv != NN_ABSENT)
		rv = nn_cast(x, param_or(x, rv, "runningVar", 1, st, 1, &ch), st);
	if (!nn_ok(x))
		return nn_finish(x, workspaceSize, executor);
	if (!training) {
		mean = rm;
		var = rv;
	} else {
		struct vops_attr at[] = { NN_ATTR_INTS("axes", na, axes), NN_ATTR_BOOL("keep_dims", true) };
		nn_val xs = nn_cast(x, a, st), d[2], m;

		if (n < 2) {
			nn_fail(x, ACLNN_ERR_PARAM_INVALID, "training needs more than one value per "
				"channel (input %s)", nn_shape_str(x, a));
			return nn_finish(x, workspaceSize, executor);
		}
		/* two passes: the mean, then the mean squared distance from it */
		m = nn_op1(x, "ReduceMeanD", 1, &xs, at, NN_COUNT(at));
		d[0] = xs;
		d[1] = m;
		d[0] = nn_op1(x, "Sub", 2, d, NULL, 0);
		d[1] = d[0];
		d[0] = nn_op1(x, "Mul", 2, d, NULL, 0);
		var = nn_reshape(x, nn_op1(x, "ReduceMeanD", 1, &d[0], at, NN_COUNT(at)), 1, &ch);
		mean = nn_reshape(x, m, 1, &ch);
		if (sio != NN_ABSENT) {
			nn_val e[] = { var, nn_const(x, eps, st) }, s;

			s = nn_op1(x, "Add", 2, e, NULL, 0);
			nn_store(x, nn_op1(x, "Rsqrt", 1, &s, NULL, 0), sio);
		}
		if (smo != NN_ABSENT)
			nn_store(x, mean, smo);
		if (rmo != NN_ABSENT)
			nn_store(x, axpby(x, rm, 1 - momentum, mean, momentum, st), rmo);
		if (rvo != NN_ABSENT)
			nn_store(x, axpby(x, rv, 1 - momentum, var, momentum * (double)n / (double)(n - 1), st),
				 rvo);
	}
	{
		struct vops_attr at[] = { NN_ATTR_FLOAT("epsilon", eps), NN_ATTR_STRING("data_format", "NCHW"),
					  NN_ATTR_BOOL("is_training", false) };

		in[3] = mean;
		in[4] = var;
		nn_store(x, nn_op1(x, "BatchNorm", 5, in, at, NN_COUNT(at)), o);
	}
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnBatchNorm)

/* ---- GroupNorm ---------------------------------------------------------------- */

aclnnStatus aclnnGroupNormGetWorkspaceSize(const aclTensor *self, const aclTensor *gamma, const aclTensor *beta,
					   int64_t N, int64_t C, int64_t HxW, int64_t group, double eps,
					   aclTensor *out, aclTensor *meanOut, aclTensor *rstdOut,
					   uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnGroupNorm");
	nn_val a = nn_in(x, self, "self"), g = nn_in_opt(x, gamma, "gamma"), b = nn_in_opt(x, beta, "beta");
	nn_val o = nn_out(x, out, "out");
	nn_val mo = meanOut ? nn_out(x, meanOut, "meanOut") : NN_ABSENT;
	nn_val ro = rstdOut ? nn_out(x, rstdOut, "rstdOut") : NN_ABSENT;
	const struct nn_view *v;
	int64_t dims[VOPS_MAX_RANK], gd[3], cd[2], sd[2];
	aclDataType st;
	int rank;

	nn_check_dtype(x, a, "self", nnn_float_dts, NNN_NFLOAT);
	nn_check_rank(x, a, "self", 2, 8);
	if (!nn_ok(x))
		return nn_finish(x, workspaceSize, executor);
	v = nn_view(x, a);
	rank = v->ndim;
	memcpy(dims, v->dims, sizeof(dims[0]) * (size_t)rank);
	if (N < 0 || C < 1 || HxW < 0 || dims[0] != N || dims[1] != C ||
	    v->count != (uint64_t)N * (uint64_t)C * (uint64_t)HxW) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "self %s is not [N %" PRId64 ", C %" PRId64 ", ...] "
			"with HxW %" PRId64 " elements after C", nn_shape_str(x, a), N, C, HxW);
		return nn_finish(x, workspaceSize, executor);
	}
	if (group < 1 || C % group) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "group %" PRId64 " does not divide C %" PRId64,
			group, C);
		return nn_finish(x, workspaceSize, executor);
	}
	st = stat_type(v->dtype);
	gd[0] = N;
	gd[1] = group;
	gd[2] = C / group * HxW;
	cd[0] = C;
	cd[1] = 1;
	sd[0] = N;
	sd[1] = group;
	{
		struct vops_attr at[] = { NN_ATTR_INT("begin_norm_axis", 2), NN_ATTR_INT("begin_params_axis", 2),
					  NN_ATTR_FLOAT("epsilon", eps) };
		nn_val in[3], res[3], y;
		int64_t nch[3] = { N, C, HxW };

		/* each (n, group) normalised over its channels and positions, in fp32 for halves */
		in[0] = nn_cast(x, nn_reshape(x, a, 3, gd), st);
		in[1] = nnn_const_shape(x, 1, st, 1, &gd[2]);
		in[2] = nnn_const_shape(x, 0, st, 1, &gd[2]);
		if (nn_op(x, "LayerNormV3", 3, in, at, NN_COUNT(at), 3, res))
			return nn_finish(x, workspaceSize, executor);
		y = nn_reshape(x, res[0], 3, nch);
		if (g != NN_ABSENT) {
			nn_val m[] = { y, nn_reshape(x, nn_cast(x, param_or(x, g, "gamma", 1, st, 1, &C), st),
						     2, cd) };

			y = nn_op1(x, "Mul", 2, m, NULL, 0);
		}
		if (b != NN_ABSENT) {
			nn_val s[] = { y, nn_reshape(x, nn_cast(x, param_or(x, b, "beta", 0, st, 1, &C), st),
						     2, cd) };

			y = nn_op1(x, "Add", 2, s, NULL, 0);
		}
		nn_store(x, nn_reshape(x, y, rank, dims), o);
		if (mo != NN_ABSENT)
			nn_store(x, nn_reshape(x, res[1], 2, sd), mo);
		if (ro != NN_ABSENT)
			nn_store(x, nn_reshape(x, res[2], 2, sd), ro);
	}
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnGroupNorm)

/* ---- InstanceNorm ------------------------------------------------------------- */

/*
 * lib/ops' InstanceNorm (statistics per (n, c) over the spatial axes, its
 * three outputs). gamma and beta go in as they are when they share x's
 * type or fp32, which the operator reads; otherwise both become x's type.
 */
aclnnStatus aclnnInstanceNormGetWorkspaceSize(const aclTensor *x, const aclTensor *gamma, const aclTensor *beta,
					      const char *dataFormat, double eps, aclTensor *y, aclTensor *mean,
					      aclTensor *variance, uint64_t *workspaceSize,
					      aclOpExecutor **executor)
{
	struct nn_exec *e = nn_begin("aclnnInstanceNorm");
	nn_val a = nn_in(e, x, "x"), g = nn_in(e, gamma, "gamma"), b = nn_in(e, beta, "beta");
	nn_val o = nn_out(e, y, "y"), mo = nn_out(e, mean, "mean"), vo = nn_out(e, variance, "variance");
	aclDataType dt, gt, bt;

	if (nn_null(e, dataFormat, "dataFormat") || !nn_check_dtype(e, a, "x", nnn_float_dts, NNN_NFLOAT) ||
	    !nn_check_dtype(e, g, "gamma", nnn_float_dts, NNN_NFLOAT) ||
	    !nn_check_dtype(e, b, "beta", nnn_float_dts, NNN_NFLOAT) || !nn_check_rank(e, a, "x", 3, 8))
		return nn_finish(e, workspaceSize, executor);
	if (!(eps > 0)) {
		nn_fail(e, ACLNN_ERR_PARAM_INVALID, "eps %g must be positive", eps);
		return nn_finish(e, workspaceSize, executor);
	}
	dt = nn_view(e, a)->dtype;
	gt = nn_view(e, g)->dtype;
	bt = nn_view(e, b)->dtype;
	if (gt != bt || (gt != dt && gt != ACL_FLOAT)) {
		g = nn_cast(e, g, dt);
		b = nn_cast(e, b, dt);
	}
	{
		struct vops_attr at[] = { NN_ATTR_STRING("data_format", dataFormat), NN_ATTR_FLOAT("epsilon", eps) };
		nn_val in[] = { a, g, b }, res[3];

		if (!nn_op(e, "InstanceNorm", 3, in, at, NN_COUNT(at), 3, res)) {
			nn_store(e, res[0], o);
			nn_store(e, res[1], mo);
			nn_store(e, res[2], vo);
		}
	}
	return nn_finish(e, workspaceSize, executor);
}
NN_LAUNCH(aclnnInstanceNorm)
