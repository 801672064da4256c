// SPDX-License-Identifier: MIT
/*
 * nn_math_act.c - aclnn's shrinks, thresholds and the other unary functions
 * whose parameters map onto a lib/ops operator's attributes (Celu, Shrink,
 * IsInf) or that lib/ops composes (Threshold, Trunc, Frac, BitwiseNot), behind the
 * unary builder of nn_math_unary.c.
 */
#include <stddef.h>

#include "aclnnop/aclnn_bitwise_not.h"
#include "aclnnop/aclnn_celu.h"
#include "aclnnop/aclnn_frac.h"
#include "aclnnop/aclnn_hardshrink.h"
#include "aclnnop/aclnn_isneginf.h"
#include "aclnnop/aclnn_isposinf.h"
#include "aclnnop/aclnn_softshrink.h"
#include "aclnnop/aclnn_threshold.h"
#include "aclnnop/aclnn_trunc.h"
#include "nn_math.h"

/* ---- Celu ------------------------------------------------------------------- */

static const struct nnm_un celu_u = { .op = "Celu", .kind = NNM_U_FLOAT };

/* PyTorch's celu is Celu with alpha1 = alpha2 = alpha, alpha3 = 1. */
static aclnnStatus celu(const char *api, const aclTensor *self, const aclScalar *alpha, const aclTensor *out,
			bool inplace, uint64_t *ws, aclOpExecutor **ex)
{
	struct nn_exec *x = nn_begin(api);
	struct nnm_un_vals v;
	struct vops_attr attrs[3] = { NN_ATTR_FLOAT("alpha1", 1), NN_ATTR_FLOAT("alpha2", 1),
				      NN_ATTR_FLOAT("alpha3", 1) };
	double a;

	nnm_un_begin(x, self, out, inplace, &v);
	a = nnm_scalar_attr(x, alpha, "alpha");
	if (nn_ok(x) && (float)a == 0.0f)
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "alpha is 0 (it divides self)");
	attrs[0].f = attrs[1].f = (float)a;
	nnm_un_apply(x, &celu_u, &v, attrs, NN_COUNT(attrs));
	return nn_finish(x, ws, ex);
}

aclnnStatus aclnnCeluGetWorkspaceSize(const aclTensor *self, const aclScalar *alpha, aclTensor *out, uint64_t *ws,
				      aclOpExecutor **ex)
{
	return celu("aclnnCelu", self, alpha, out, false, ws, ex);
}
NN_LAUNCH(aclnnCelu)

aclnnStatus aclnnInplaceCeluGetWorkspaceSize(aclTensor *selfRef, const aclScalar *alpha, uint64_t *ws,
					     aclOpExecutor **ex)
{
	return celu("aclnnInplaceCelu", selfRef, alpha, selfRef, true, ws, ex);
}
NN_LAUNCH(aclnnInplaceCelu)

/* ---- shrinks ------------------------------------------------------------------ */

static const struct nnm_un shrink_u = { .op = "Shrink", .kind = NNM_U_FLOAT };

/* Shrink moves the kept values toward 0 by its bias: lambd for the soft
 * shrink, 0 for the hard one. A negative lambd has no meaning (PyTorch
 * refuses it for the soft one; the hard one keeps everything). */
static aclnnStatus shrink(const char *api, const aclTensor *self, const aclScalar *lambd, const aclTensor *out,
			  bool soft, uint64_t *ws, aclOpExecutor **ex)
{
	struct nn_exec *x = nn_begin(api);
	struct nnm_un_vals v;
	struct vops_attr attrs[2] = { NN_ATTR_FLOAT("lambd", 0.5), NN_ATTR_FLOAT("bias", 0) };
	double l;

	nnm_un_begin(x, self, out, false, &v);
	l = nnm_scalar_attr(x, lambd, "lambd");
	if (nn_ok(x) && soft && l < 0)
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "lambd is %g: it must not be negative", l);
	attrs[0].f = (float)l;
	attrs[1].f = soft ? (float)l : 0.0f;
	nnm_un_apply(x, &shrink_u, &v, attrs, NN_COUNT(attrs));
	return nn_finish(x, ws, ex);
}

aclnnStatus aclnnSoftshrinkGetWorkspaceSize(const aclTensor *self, const aclScalar *lambd, aclTensor *out,
					    uint64_t *ws, aclOpExecutor **ex)
{
	return shrink("aclnnSoftshrink", self, lambd, out, true, ws, ex);
}
NN_LAUNCH(aclnnSoftshrink)

aclnnStatus aclnnHardshrinkGetWorkspaceSize(const aclTensor *self, const aclScalar *lambd, aclTensor *out,
					    uint64_t *ws, aclOpExecutor **ex)
{
	return shrink("aclnnHardshrink", self, lambd, out, false, ws, ex);
}
NN_LAUNCH(aclnnHardshrink)

/* ---- Threshold ---------------------------------------------------------------- */

/* self > threshold ? self : value in self's type (PyTorch: the scalars are
 * converted to it), so integers too: a comparison and a select. */
static aclnnStatus threshold(const char *api, const aclTensor *self, const aclScalar *thr, const aclScalar *value,
			     const aclTensor *out, bool inplace, uint64_t *ws, aclOpExecutor **ex)
{
	struct nn_exec *x = nn_begin(api);
	struct nnm_un_vals v;
	aclDataType ct;
	nn_val t, val;

	nnm_un_begin(x, self, out, inplace, &v);
	nn_null(x, thr, "threshold");
	nn_null(x, value, "value");
	if (!nn_ok(x))
		return nn_finish(x, ws, ex);
	ct = nnm_un_type(x, NNM_U_NUMERIC, nn_view(x, v.a)->dtype, v.self_name);
	if (!nnm_check_out_type(x, ct, v.o, v.out_name))
		return nn_finish(x, ws, ex);
	t = nn_scalar(x, thr, ct, "threshold");
	val = nn_scalar(x, value, ct, "value");
	{
		const nn_val in[3] = { nnm_op2(x, "Greater", v.a, t), v.a, val };

		nn_store(x, nn_op1(x, "SelectV2", 3, in, NULL, 0), v.o);
	}
	return nn_finish(x, ws, ex);
}

aclnnStatus aclnnThresholdGetWorkspaceSize(const aclTensor *self, const aclScalar *threshold_, const aclScalar *value,
					   aclTensor *out, uint64_t *ws, aclOpExecutor **ex)
{
	return threshold("aclnnThreshold", self, threshold_, value, out, false, ws, ex);
}
NN_LAUNCH(aclnnThreshold)

aclnnStatus aclnnInplaceThresholdGetWorkspaceSize(aclTensor *selfRef, const aclScalar *threshold_,
						  const aclScalar *value, uint64_t *ws, aclOpExecutor **ex)
{
	return threshold("aclnnInplaceThreshold", selfRef, threshold_, value, selfRef, true, ws, ex);
}
NN_LAUNCH(aclnnInplaceThreshold)

/* ---- IsPosInf, IsNegInf --------------------------------------------------------- */

static const struct vops_attr pos_inf_attrs[] = { NN_ATTR_BOOL("detect_positive", true),
						  NN_ATTR_BOOL("detect_negative", false) };
static const struct vops_attr neg_inf_attrs[] = { NN_ATTR_BOOL("detect_positive", false),
						  NN_ATTR_BOOL("detect_negative", true) };
static const struct nnm_un pos_inf_u = { .op = "IsInf", .kind = NNM_U_FLOAT_TEST, .attrs = pos_inf_attrs,
					 .nattrs = NN_COUNT(pos_inf_attrs) };
static const struct nnm_un neg_inf_u = { .op = "IsInf", .kind = NNM_U_FLOAT_TEST, .attrs = neg_inf_attrs,
					 .nattrs = NN_COUNT(neg_inf_attrs) };

aclnnStatus aclnnIsPosInfGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *ws, aclOpExecutor **ex)
{
	return nnm_unary("aclnnIsPosInf", &pos_inf_u, self, out, false, NULL, 0, ws, ex);
}
NN_LAUNCH(aclnnIsPosInf)

aclnnStatus aclnnIsNegInfGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *ws, aclOpExecutor **ex)
{
	return nnm_unary("aclnnIsNegInf", &neg_inf_u, self, out, false, NULL, 0, ws, ex);
}
NN_LAUNCH(aclnnIsNegInf)

/* ---- Trunc, Frac ------------------------------------------------------------------ */

/* lib/ops has no Trunc: sign(x) * floor(|x|) keeps infinities, NaN and -0
 * (and is exact). Frac is x - trunc(x), exact too (PyTorch's formula:
 * an infinity gives NaN). Integers are their own trunc. */
static aclnnStatus trunc_frac(const char *api, const aclTensor *self, const aclTensor *out, bool inplace, bool frac,
			      uint64_t *ws, aclOpExecutor **ex)
{
	struct nn_exec *x = nn_begin(api);
	struct nnm_un_vals v;
	aclDataType ct;
	nn_val t;

	nnm_un_begin(x, self, out, inplace, &v);
	if (!nn_ok(x))
		return nn_finish(x, ws, ex);
	ct = nnm_un_type(x, frac ? NNM_U_FLOAT : NNM_U_ROUND, nn_view(x, v.a)->dtype, v.self_name);
	if (!nnm_check_out_type(x, ct, v.o, v.out_name))
		return nn_finish(x, ws, ex);
	if (!nn_dt_float(ct)) {
		nn_store(x, v.a, v.o);
		return nn_finish(x, ws, ex);
	}
	t = nn_op1(x, "Abs", 1, &v.a, NULL, 0);
	t = nn_op1(x, "Floor", 1, &t, NULL, 0);
	t = nnm_op2(x, "Mul", nn_op1(x, "Sign", 1, &v.a, NULL, 0), t);
	nn_store(x, frac ? nnm_op2(x, "Sub", v.a, t) : t, v.o);
	return nn_finish(x, ws, ex);
}

aclnnStatus aclnnTruncGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *ws, aclOpExecutor **ex)
{
	return trunc_frac("aclnnTrunc", self, out, false, false, ws, ex);
}
NN_LAUNCH(aclnnTrunc)

aclnnStatus aclnnInplaceTruncGetWorkspaceSize(aclTensor *selfRef, uint64_t *ws, aclOpExecutor **ex)
{
	return trunc_frac("aclnnInplaceTrunc", selfRef, selfRef, true, false, ws, ex);
}
NN_LAUNCH(aclnnInplaceTrunc)

aclnnStatus aclnnFracGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *ws, aclOpExecutor **ex)
{
	return trunc_frac("aclnnFrac", self, out, false, true, ws, ex);
}
NN_LAUNCH(aclnnFrac)

aclnnStatus aclnnInplaceFracGetWorkspaceSize(aclTensor *selfRef, uint64_t *ws, aclOpExecutor **ex)
{
	return trunc_frac("aclnnInplaceFrac", selfRef, selfRef, true, true, ws, ex);
}
NN_LAUNCH(aclnnInplaceFrac)

/* ---- BitwiseNot ------------------------------------------------------------------ */

/* lib/ops has no bitwise operators, but ~x is -1 - x in two's complement
 * (Sub wraps: ~INT_MIN is INT_MAX), 255 - x for uint8, and logical not
 * for bool. CANN takes these types only. */
aclnnStatus aclnnBitwiseNotGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *ws, aclOpExecutor **ex)
{
	struct nn_exec *x = nn_begin("aclnnBitwiseNot");
	struct nnm_un_vals v;
	aclDataType dt;
	nn_val r;

	nnm_un_begin(x, self, out, false, &v);
	if (!nn_ok(x))
		return nn_finish(x, ws, ex);
	dt = nn_view(x, v.a)->dtype;
	if (dt != ACL_INT8 && dt != ACL_INT16 && dt != ACL_INT32 && dt != ACL_INT64 && dt != ACL_UINT8 &&
	    dt != ACL_BOOL) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "self's type %s is not supported (int8..int64, uint8, bool)",
			vops_dtype_name(dt));
		return nn_finish(x, ws, ex);
	}
	if (!nnm_check_out_type(x, dt, v.o, "out"))
		return nn_finish(x, ws, ex);
	if (dt == ACL_BOOL)
		r = nn_op1(x, "LogicalNot", 1, &v.a, NULL, 0);
	else
		r = nnm_op2(x, "Sub", nn_const(x, dt == ACL_UINT8 ? 255 : -1, dt), v.a);
	nn_store(x, r, v.o);
	return nn_finish(x, ws, ex);
}
NN_LAUNCH(aclnnBitwiseNot)
