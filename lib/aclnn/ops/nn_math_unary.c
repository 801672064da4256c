// SPDX-License-Identifier: MIT
/*
 * nn_math_unary.c - aclnn's unary math and activations (Abs ... Softplus)
 * and the clamps, each one lib/ops operator (or two, where aclnn has
 * parameters the operator lacks) behind the unary builder.
 *
 * Types follow PyTorch: the float functions (exp, log, sqrt, trig, erf,
 * sigmoid, reciprocal) compute an integer or bool input in fp32, so the
 * out (or selfRef) must be a float type; the activations take floats only;
 * floor, ceil and round leave integers as they are.
 */
#include <stddef.h>

#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_acos.h"
#include "aclnnop/aclnn_acosh.h"
#include "aclnnop/aclnn_asin.h"
#include "aclnnop/aclnn_asinh.h"
#include "aclnnop/aclnn_atan.h"
#include "aclnnop/aclnn_atanh.h"
#include "aclnnop/aclnn_ceil.h"
#include "aclnnop/aclnn_clamp.h"
#include "aclnnop/aclnn_cos.h"
#include "aclnnop/aclnn_cosh.h"
#include "aclnnop/aclnn_elu.h"
#include "aclnnop/aclnn_erf.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_exp2.h"
#include "aclnnop/aclnn_expm1.h"
#include "aclnnop/aclnn_floor.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_gelu_v2.h"
#include "aclnnop/aclnn_hardsigmoid.h"
#include "aclnnop/aclnn_hardswish.h"
#include "aclnnop/aclnn_hardtanh.h"
#include "aclnnop/aclnn_leaky_relu.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_log10.h"
#include "aclnnop/aclnn_log1p.h"
#include "aclnnop/aclnn_log2.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_reciprocal.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_round.h"
#include "aclnnop/aclnn_rsqrt.h"
#include "aclnnop/aclnn_selu.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_sign.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_sin.h"
#include "aclnnop/aclnn_sinh.h"
#include "aclnnop/aclnn_softplus.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_tan.h"
#include "aclnnop/aclnn_tanh.h"
#include "nn_math.h"

/* ---- the unary builder ------------------------------------------------------ */

static bool dt_sint(aclDataType dt)
{
	return dt == ACL_INT8 || dt == ACL_INT16 || dt == ACL_INT32 || dt == ACL_INT64;
}

aclDataType nnm_un_type(struct nn_exec *x, enum nnm_un_kind kind, aclDataType dt, const char *name)
{
	bool fl = nn_dt_float(dt), in = nn_dt_int(dt);

	switch (kind) {
	case NNM_U_FLOATFN:
	case NNM_U_FLOAT_TEST:
		if (fl)
			return dt;
		if (in || dt == ACL_BOOL)
			return ACL_FLOAT;
		break;
	case NNM_U_FLOAT:
		if (fl)
			return dt;
		break;
	case NNM_U_SIGNED:
		if (fl || dt_sint(dt))
			return dt;
		break;
	case NNM_U_ROUND:
	case NNM_U_NUMERIC:
	case NNM_U_RELU:
		if (fl || in)
			return dt;
		break;
	}
	nn_fail(x, ACLNN_ERR_PARAM_INVALID, "%s's type %s is not supported", name, vops_dtype_name(dt));
	return ACL_DT_UNDEFINED;
}

void nnm_un_begin(struct nn_exec *x, const aclTensor *self, const aclTensor *out, bool inplace,
		  struct nnm_un_vals *v)
{
	v->self_name = inplace ? "selfRef" : "self";
	v->out_name = inplace ? "selfRef" : "out";
	v->a = nn_in(x, self, v->self_name);
	v->o = nn_out(x, out, v->out_name);
	nnm_check_rank(x, v->a, v->self_name);
}

void nnm_un_apply(struct nn_exec *x, const struct nnm_un *u, const struct nnm_un_vals *v,
		  const struct vops_attr *attrs, unsigned int nattrs)
{
	aclDataType dt, ct;
	nn_val a;

	if (!nn_ok(x))
		return;
	dt = nn_view(x, v->a)->dtype;
	ct = nnm_un_type(x, u->kind, dt, v->self_name);
	if (!nnm_check_out_type(x, u->kind == NNM_U_FLOAT_TEST ? ACL_BOOL : ct, v->o, v->out_name))
		return;
	/* floor(int) and relu(uint) are the input itself: a copy, no operator. */
	if ((u->kind == NNM_U_ROUND && !nn_dt_float(dt)) || (u->kind == NNM_U_RELU && nn_dt_int(dt) && !dt_sint(dt))) {
		nn_store(x, v->a, v->o);
		return;
	}
	if (!attrs) {
		attrs = u->attrs;
		nattrs = u->nattrs;
	}
	a = nn_cast(x, v->a, ct);
	nn_store(x, nn_op1(x, u->op, 1, &a, attrs, nattrs), v->o);
}

aclnnStatus nnm_unary(const char *api, const struct nnm_un *u, const aclTensor *self, const aclTensor *out,
		      bool inplace, const struct vops_attr *attrs, unsigned int nattrs, uint64_t *ws,
		      aclOpExecutor **ex)
{
	struct nn_exec *x = nn_begin(api);
	struct nnm_un_vals v;

	nnm_un_begin(x, self, out, inplace, &v);
	nnm_un_apply(x, u, &v, attrs, nattrs);
	return nn_finish(x, ws, ex);
}

double nnm_scalar_attr(struct nn_exec *x, const aclScalar *s, const char *name)
{
	return nn_null(x, s, name) ? 0.0 : nn_scalar_f64(s);
}

/* ---- the plain functions ---------------------------------------------------- */

/* aclnnXxx(self, out) on lib/ops' @op; @INPLACE_Q: CANN's qualifier of selfRef. */
#define UN(N, OP, KIND)                                                                            \
	static const struct nnm_un N##_u = { .op = OP, .kind = KIND };                              \
	UN_FN(N)
#define UN_ATTRS(N, OP, KIND, ...)                                                                 \
	static const struct vops_attr N##_attrs[] = { __VA_ARGS__ };                               \
	static const struct nnm_un N##_u = { .op = OP, .kind = KIND, .attrs = N##_attrs,             \
					     .nattrs = NN_COUNT(N##_attrs) };                         \
	UN_FN(N)
#define UN_FN(N)                                                                                   \
	aclnnStatus aclnn##N##GetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *ws,  \
					       aclOpExecutor **ex)                                    \
	{                                                                                          \
		return nnm_unary("aclnn" #N, &N##_u, self, out, false, NULL, 0, ws, ex);           \
	}                                                                                          \
	NN_LAUNCH(aclnn##N)
#define UN_INPLACE(N)                                                                              \
	aclnnStatus aclnnInplace##N##GetWorkspaceSize(aclTensor *selfRef, uint64_t *ws, aclOpExecutor **ex) \
	{                                                                                          \
		return nnm_unary("aclnnInplace" #N, &N##_u, selfRef, selfRef, true, NULL, 0, ws, ex); \
	}                                                                                          \
	NN_LAUNCH(aclnnInplace##N)

UN(Abs, "Abs", NNM_U_NUMERIC)
UN(Neg, "Neg", NNM_U_SIGNED)
UN_INPLACE(Neg)
UN(Exp, "Exp", NNM_U_FLOATFN)
UN_INPLACE(Exp)
UN_ATTRS(Exp2, "Exp", NNM_U_FLOATFN, NN_ATTR_FLOAT("base", 2.0))
UN_INPLACE(Exp2)
UN(Expm1, "Expm1", NNM_U_FLOATFN)
UN_INPLACE(Expm1)
UN(Log, "Log", NNM_U_FLOATFN)
UN_INPLACE(Log)
UN_ATTRS(Log2, "Log", NNM_U_FLOATFN, NN_ATTR_FLOAT("base", 2.0))
UN_INPLACE(Log2)
UN_ATTRS(Log10, "Log", NNM_U_FLOATFN, NN_ATTR_FLOAT("base", 10.0))
UN_INPLACE(Log10)
UN_ATTRS(Log1p, "Log", NNM_U_FLOATFN, NN_ATTR_FLOAT("shift", 1.0))
UN_INPLACE(Log1p)
UN(Sqrt, "Sqrt", NNM_U_FLOATFN)
UN_INPLACE(Sqrt)
UN(Rsqrt, "Rsqrt", NNM_U_FLOATFN)
UN_INPLACE(Rsqrt)
UN(Sin, "Sin", NNM_U_FLOATFN)
UN_INPLACE(Sin)
UN(Cos, "Cos", NNM_U_FLOATFN)
UN_INPLACE(Cos)
UN(Tan, "Tan", NNM_U_FLOATFN)
UN_INPLACE(Tan)
UN(Tanh, "Tanh", NNM_U_FLOATFN)
UN_INPLACE(Tanh)
UN(Asin, "Asin", NNM_U_FLOATFN)
UN_INPLACE(Asin)
UN(Acos, "Acos", NNM_U_FLOATFN)
UN_INPLACE(Acos)
UN(Atan, "Atan", NNM_U_FLOATFN)
UN_INPLACE(Atan)
UN(Sinh, "Sinh", NNM_U_FLOATFN)
UN_INPLACE(Sinh)
UN(Cosh, "Cosh", NNM_U_FLOATFN)
UN_INPLACE(Cosh)
UN(Asinh, "Asinh", NNM_U_FLOATFN)
UN_INPLACE(Asinh)
UN(Acosh, "Acosh", NNM_U_FLOATFN)
UN_INPLACE(Acosh)
UN(Atanh, "Atanh", NNM_U_FLOATFN)
UN_INPLACE(Atanh)
UN(Erf, "Erf", NNM_U_FLOATFN)
UN_INPLACE(Erf)
UN(Sigmoid, "Sigmoid", NNM_U_FLOATFN)
UN_INPLACE(Sigmoid)
UN(Reciprocal, "Reciprocal", NNM_U_FLOATFN)
UN_INPLACE(Reciprocal)
UN(Relu, "Relu", NNM_U_RELU)
UN_INPLACE(Relu)
UN(Floor, "Floor", NNM_U_ROUND)
UN_INPLACE(Floor)
UN(Ceil, "Ceil", NNM_U_ROUND)
UN_INPLACE(Ceil)
UN(Round, "Round", NNM_U_ROUND)
UN_INPLACE(Round)
UN(Sign, "Sign", NNM_U_NUMERIC)
/* CANN's Gelu operator is the tanh form. */
UN(Gelu, "Gelu", NNM_U_FLOAT)
/* SiLU is CANN's Swish with scale 1. */
UN(Silu, "Swish", NNM_U_FLOAT)
/* PyTorch's hardsigmoid: x / 6 + 1/2, clipped to [0, 1]. */
UN_ATTRS(Hardsigmoid, "HardSigmoid", NNM_U_FLOAT, NN_ATTR_FLOAT("alpha", 1.0 / 6.0), NN_ATTR_FLOAT("beta", 0.5))
UN_INPLACE(Hardsigmoid)
UN(Hardswish, "HardSwish", NNM_U_FLOAT)
UN_INPLACE(Hardswish)
/* Selu's constants are fixed in the operator (CANN's, PyTorch's). */
UN(Selu, "Selu", NNM_U_FLOAT)
UN_INPLACE(Selu)

/* ---- with host parameters ------------------------------------------------------ */

static const struct nnm_un gelu_v2_u = { .op = "GeluV2", .kind = NNM_U_FLOAT };

aclnnStatus aclnnGeluV2GetWorkspaceSize(const aclTensor *x_, int64_t approximate, aclTensor *y, uint64_t *ws,
					aclOpExecutor **ex)
{
	struct nn_exec *x = nn_begin("aclnnGeluV2");
	const struct vops_attr attrs[] = { NN_ATTR_STRING("approximate", approximate == 1 ? "tanh" : "none") };
	struct nnm_un_vals v = { .self_name = "x", .out_name = "y" };

	v.a = nn_in(x, x_, "x");
	v.o = nn_out(x, y, "y");
	nnm_check_rank(x, v.a, "x");
	if (nn_ok(x) && approximate != 0 && approximate != 1)
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "approximate is %lld: 0 (erf) or 1 (tanh)", (long long)approximate);
	nnm_un_apply(x, &gelu_v2_u, &v, attrs, NN_COUNT(attrs));
	return nn_finish(x, ws, ex);
}
NN_LAUNCH(aclnnGeluV2)

static const struct nnm_un leaky_u = { .op = "LeakyRelu", .kind = NNM_U_FLOAT };

static aclnnStatus leaky_relu(const char *api, const aclTensor *self, const aclScalar *slope, const aclTensor *out,
			      bool inplace, uint64_t *ws, aclOpExecutor **ex)
{
	struct nn_exec *x = nn_begin(api);
	struct nnm_un_vals v;
	struct vops_attr attrs[1] = { NN_ATTR_FLOAT("negative_slope", 0) };

	nnm_un_begin(x, self, out, inplace, &v);
	attrs[0].f = (float)nnm_scalar_attr(x, slope, "negativeSlope");
	nnm_un_apply(x, &leaky_u, &v, attrs, NN_COUNT(attrs));
	return nn_finish(x, ws, ex);
}

aclnnStatus aclnnLeakyReluGetWorkspaceSize(const aclTensor *self, const aclScalar *negativeSlope, aclTensor *out,
					   uint64_t *ws, aclOpExecutor **ex)
{
	return leaky_relu("aclnnLeakyRelu", self, negativeSlope, out, false, ws, ex);
}
NN_LAUNCH(aclnnLeakyRelu)

aclnnStatus aclnnInplaceLeakyReluGetWorkspaceSize(aclTensor *selfRef, const aclScalar *negativeSlope, uint64_t *ws,
						  aclOpExecutor **ex)
{
	return leaky_relu("aclnnInplaceLeakyRelu", selfRef, negativeSlope, selfRef, true, ws, ex);
}
NN_LAUNCH(aclnnInplaceLeakyRelu)

static const struct nnm_un elu_u = { .op = "Elu", .kind = NNM_U_FLOAT };

static aclnnStatus elu(const char *api, const aclTensor *self, const aclScalar *alpha, const aclScalar *scale,
		       const aclScalar *input_scale, const aclTensor *out, bool inplace, uint64_t *ws,
		       aclOpExecutor **ex)
{
	struct nn_exec *x = nn_begin(api);
	struct nnm_un_vals v;
	struct vops_attr attrs[3] = { NN_ATTR_FLOAT("alpha", 0), NN_ATTR_FLOAT("scale", 0),
				      NN_ATTR_FLOAT("input_scale", 0) };

	nnm_un_begin(x, self, out, inplace, &v);
	attrs[0].f = (float)nnm_scalar_attr(x, alpha, "alpha");
	attrs[1].f = (float)nnm_scalar_attr(x, scale, "scale");
	attrs[2].f = (float)nnm_scalar_attr(x, input_scale, "inputScale");
	nnm_un_apply(x, &elu_u, &v, attrs, NN_COUNT(attrs));
	return nn_finish(x, ws, ex);
}

aclnnStatus aclnnEluGetWorkspaceSize(const aclTensor *self, const aclScalar *alpha, const aclScalar *scale,
				     const aclScalar *inputScale, aclTensor *out, uint64_t *ws, aclOpExecutor **ex)
{
	return elu("aclnnElu", self, alpha, scale, inputScale, out, false, ws, ex);
}
NN_LAUNCH(aclnnElu)

aclnnStatus aclnnInplaceEluGetWorkspaceSize(aclTensor *selfRef, const aclScalar *alpha, const aclScalar *scale,
					    const aclScalar *inputScale, uint64_t *ws, aclOpExecutor **ex)
{
	return elu("aclnnInplaceElu", selfRef, alpha, scale, inputScale, selfRef, true, ws, ex);
}
NN_LAUNCH(aclnnInplaceElu)

/*
 * Softplus: log(1 + e^(beta x)) / beta, and x itself where beta x >
 * threshold. lib/ops' Softplus has neither parameter: beta scales around
 * it (no step for beta 1) and a select applies the threshold. Beyond a
 * threshold of 16 the two sides differ by less than e^-16 / 16 relative
 * (7e-9), under half an ulp of fp32 and the half types: the select is only
 * built for fp64 or a lower threshold.
 */
aclnnStatus aclnnSoftplusGetWorkspaceSize(const aclTensor *self, const aclScalar *beta, const aclScalar *threshold,
					  aclTensor *out, uint64_t *ws, aclOpExecutor **ex)
{
	struct nn_exec *x = nn_begin("aclnnSoftplus");
	struct nnm_un_vals v;
	double b, t;
	aclDataType ct;
	nn_val a, bx, y;

	nnm_un_begin(x, self, out, false, &v);
	b = nnm_scalar_attr(x, beta, "beta");
	t = nnm_scalar_attr(x, threshold, "threshold");
	if (!nn_ok(x))
		return nn_finish(x, ws, ex);
	ct = nnm_un_type(x, NNM_U_FLOAT, nn_view(x, v.a)->dtype, "self");
	if (b == 0.0)
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "beta is 0");
	if (!nnm_check_out_type(x, ct, v.o, "out"))
		return nn_finish(x, ws, ex);
	a = v.a;
	bx = b == 1.0 ? a : nnm_op2(x, "Mul", a, nn_const(x, b, ct));
	y = nn_op1(x, "Softplus", 1, &bx, NULL, 0);
	if (b != 1.0)
		y = nnm_op2(x, "RealDiv", y, nn_const(x, b, ct));
	if (ct == ACL_DOUBLE || t < 16.0) {
		const nn_val in[3] = { nnm_op2(x, "Greater", bx, nn_const(x, t, ct)), a, y };

		y = nn_op1(x, "SelectV2", 3, in, NULL, 0);
	}
	nn_store(x, y, v.o);
	return nn_finish(x, ws, ex);
}
NN_LAUNCH(aclnnSoftplus)

/* ---- clamps ----------------------------------------------------------------- */

/* One clamp call: scalar or tensor bounds (a NULL one is absent). */
struct clamp_call {
	const char *api;
	const aclTensor *self, *out;
	const aclTensor *tmin, *tmax;
	const aclScalar *smin, *smax;
	const char *min_name, *max_name;
	bool tensors, inplace;
	bool need_min, need_max;	/* required (ClampMin...) rather than optional */
};

static aclDataType bound_type(struct nn_exec *x, const struct clamp_call *c, aclDataType ct, nn_val t,
			      const aclScalar *s, bool present)
{
	if (!present)
		return ct;
	return c->tensors ? nn_promote(ct, nn_view(x, t)->dtype) : nn_promote_scalar(ct, s->dtype);
}

/* out = min(max(self, min), max): ClipByValue for scalar bounds (one
 * step), Maximum then Minimum for tensors (they broadcast both ways);
 * either way a min above the max gives the max. */
static aclnnStatus clamp(const struct clamp_call *c, uint64_t *ws, aclOpExecutor **ex)
{
	struct nn_exec *x = nn_begin(c->api);
	struct nnm_un_vals v;
	nn_val tmin = NN_ABSENT, tmax = NN_ABSENT, lo, hi, r;
	bool has_min, has_max;
	int64_t dims[VOPS_MAX_RANK];
	aclDataType ct;

	nnm_un_begin(x, c->self, c->out, c->inplace, &v);
	if (c->tensors) {
		tmin = c->need_min ? nn_in(x, c->tmin, c->min_name) : nn_in_opt(x, c->tmin, c->min_name);
		tmax = c->need_max ? nn_in(x, c->tmax, c->max_name) : nn_in_opt(x, c->tmax, c->max_name);
		has_min = tmin != NN_ABSENT;
		has_max = tmax != NN_ABSENT;
	} else {
		if (c->need_min)
			nn_null(x, c->smin, c->min_name);
		if (c->need_max)
			nn_null(x, c->smax, c->max_name);
		has_min = c->smin;
		has_max = c->smax;
	}
	if (nn_ok(x) && !has_min && !has_max)
		nn_fail(x, ACLNN_ERR_PARAM_NULLPTR, "%s and %s are both NULL", c->min_name, c->max_name);
	if (!nn_ok(x))
		return nn_finish(x, ws, ex);
	if (has_min && c->tensors && nnm_check_rank(x, tmin, c->min_name))
		nn_broadcast(x, v.a, tmin, dims);
	if (has_max && c->tensors && nnm_check_rank(x, tmax, c->max_name))
		nn_broadcast(x, v.a, tmax, dims);
	ct = nn_view(x, v.a)->dtype;
	ct = bound_type(x, c, ct, tmin, c->smin, has_min);
	ct = bound_type(x, c, ct, tmax, c->smax, has_max);
	if (nn_ok(x) && !nn_dt_float(ct) && !nn_dt_int(ct))
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "the type %s is not supported", vops_dtype_name(ct));
	if (!nnm_check_out_type(x, ct, v.o, v.out_name))
		return nn_finish(x, ws, ex);
	r = nn_cast(x, v.a, ct);
	lo = !has_min ? NN_ABSENT : c->tensors ? nn_cast(x, tmin, ct) : nn_scalar(x, c->smin, ct, c->min_name);
	hi = !has_max ? NN_ABSENT : c->tensors ? nn_cast(x, tmax, ct) : nn_scalar(x, c->smax, ct, c->max_name);
	if (has_min && has_max && !c->tensors) {
		const nn_val in[3] = { r, lo, hi };

		r = nn_op1(x, "ClipByValue", 3, in, NULL, 0);
	} else {
		if (has_min)
			r = nnm_op2(x, "Maximum", r, lo);
		if (has_max)
			r = nnm_op2(x, "Minimum", r, hi);
	}
	nn_store(x, r, v.o);
	return nn_finish(x, ws, ex);
}

/* CANN names the bounds clipValueMin and clipValueMax, but "max" in the
 * ClampMaxTensor forms. */
#define CLAMP_CALL(fn, maxname, ...)                                                               \
	const struct clamp_call c = { .api = fn, .min_name = "clipValueMin", .max_name = maxname,    \
				      __VA_ARGS__ };                                                 \
	return clamp(&c, ws, ex)

aclnnStatus aclnnClampGetWorkspaceSize(const aclTensor *self, const aclScalar *clipValueMin,
				       const aclScalar *clipValueMax, aclTensor *out, uint64_t *ws, aclOpExecutor **ex)
{
	CLAMP_CALL("aclnnClamp", "clipValueMax", .self = self, .out = out, .smin = clipValueMin,
		   .smax = clipValueMax);
}
NN_LAUNCH(aclnnClamp)

aclnnStatus aclnnClampMinGetWorkspaceSize(const aclTensor *self, const aclScalar *clipValueMin, aclTensor *out,
					  uint64_t *ws, aclOpExecutor **ex)
{
	CLAMP_CALL("aclnnClampMin", "clipValueMax", .self = self, .out = out, .smin = clipValueMin,
		   .need_min = true);
}
NN_LAUNCH(aclnnClampMin)

aclnnStatus aclnnClampMaxGetWorkspaceSize(const aclTensor *self, const aclScalar *clipValueMax, aclTensor *out,
					  uint64_t *ws, aclOpExecutor **ex)
{
	CLAMP_CALL("aclnnClampMax", "clipValueMax", .self = self, .out = out, .smax = clipValueMax,
		   .need_max = true);
}
NN_LAUNCH(aclnnClampMax)

aclnnStatus aclnnInplaceClampMaxGetWorkspaceSize(const aclTensor *selfRef, const aclScalar *clipValueMax,
						 uint64_t *ws, aclOpExecutor **ex)
{
	CLAMP_CALL("aclnnInplaceClampMax", "clipValueMax", .self = selfRef, .out = selfRef,
		   .inplace = true, .smax = clipValueMax, .need_max = true);
}
NN_LAUNCH(aclnnInplaceClampMax)

aclnnStatus aclnnClampTensorGetWorkspaceSize(const aclTensor *self, const aclTensor *clipValueMin,
					     const aclTensor *clipValueMax, aclTensor *out, uint64_t *ws,
					     aclOpExecutor **ex)
{
	CLAMP_CALL("aclnnClampTensor", "clipValueMax", .self = self, .out = out, .tensors = true,
		   .tmin = clipValueMin, .tmax = clipValueMax);
}
NN_LAUNCH(aclnnClampTensor)

aclnnStatus aclnnClampMinTensorGetWorkspaceSize(const aclTensor *self, const aclTensor *clipValueMin, aclTensor *out,
						uint64_t *ws, aclOpExecutor **ex)
{
	CLAMP_CALL("aclnnClampMinTensor", "clipValueMax", .self = self, .out = out, .tensors = true,
		   .tmin = clipValueMin, .need_min = true);
}
NN_LAUNCH(aclnnClampMinTensor)

aclnnStatus aclnnInplaceClampMinTensorGetWorkspaceSize(aclTensor *selfRef, const aclTensor *clipValueMin,
						       uint64_t *ws, aclOpExecutor **ex)
{
	CLAMP_CALL("aclnnInplaceClampMinTensor", "clipValueMax", .self = selfRef, .out = selfRef,
		   .inplace = true, .tensors = true, .tmin = clipValueMin, .need_min = true);
}
NN_LAUNCH(aclnnInplaceClampMinTensor)

aclnnStatus aclnnClampMaxTensorGetWorkspaceSize(const aclTensor *self, const aclTensor *max, aclTensor *out,
						uint64_t *ws, aclOpExecutor **ex)
{
	CLAMP_CALL("aclnnClampMaxTensor", "max", .self = self, .out = out, .tensors = true,
		   .tmax = max, .need_max = true);
}
NN_LAUNCH(aclnnClampMaxTensor)

aclnnStatus aclnnInplaceClampMaxTensorGetWorkspaceSize(aclTensor *selfRef, const aclTensor *max, uint64_t *ws,
						       aclOpExecutor **ex)
{
	CLAMP_CALL("aclnnInplaceClampMaxTensor", "max", .self = selfRef, .out = selfRef,
		   .inplace = true, .tensors = true, .tmax = max, .need_max = true);
}
NN_LAUNCH(aclnnInplaceClampMaxTensor)

/* Hardtanh is the clamp with both bounds required. */
aclnnStatus aclnnHardtanhGetWorkspaceSize(const aclTensor *self, const aclScalar *clipValueMin,
					  const aclScalar *clipValueMax, aclTensor *out, uint64_t *ws,
					  aclOpExecutor **ex)
{
	CLAMP_CALL("aclnnHardtanh", "clipValueMax", .self = self, .out = out, .smin = clipValueMin,
		   .smax = clipValueMax, .need_min = true, .need_max = true);
}
NN_LAUNCH(aclnnHardtanh)

aclnnStatus aclnnInplaceHardtanhGetWorkspaceSize(aclTensor *selfRef, const aclScalar *clipValueMin,
						 const aclScalar *clipValueMax, uint64_t *ws, aclOpExecutor **ex)
{
	CLAMP_CALL("aclnnInplaceHardtanh", "clipValueMax", .self = selfRef, .out = selfRef, .inplace = true,
		   .smin = clipValueMin, .smax = clipValueMax, .need_min = true, .need_max = true);
}
NN_LAUNCH(aclnnInplaceHardtanh)
