// SPDX-License-Identifier: MIT
/*
 * op_unary.c - one-input math and activations (the unary family).
 *
 * Every operator here is element-wise over one input of any shape and
 * view; the output has the input's shape and type (IsNan, IsInf: bool).
 * Floats compute in double and round once to the output type; integers
 * (Neg, Sign) in int64. Parameters (an activation's alpha, ...) are
 * OPS_AF_PARAMS: the float attributes as doubles in the order of their
 * table below, the bool and string ones as ints (0/1) before them.
 *
 * One table (un_attrs) says each operator's attributes; one parse, one
 * infer and one run serve them all, the block functions choosing the
 * formula by the operator's index in ops_unary_defs[] (once per block).
 */
#include <math.h>
#include <string.h>

#include "ops_int.h"

/* Index in ops_unary_defs[] (id OPS_ID_UNARY + index); append only. */
enum un_op {
	U_NEG, U_LEAKY_RELU, U_SIGN, U_CEIL, U_FLOOR, U_ROUND, U_RECIPROCAL, U_SQRT, U_EXP, U_LOG,
	U_SIN, U_COS, U_TAN, U_ASIN, U_ACOS, U_ATAN, U_SINH, U_COSH, U_TANH, U_ASINH, U_ACOSH,
	U_ATANH, U_ERF, U_SIGMOID, U_HARD_SIGMOID, U_HARD_SWISH, U_ELU, U_SELU, U_CELU, U_SOFTPLUS,
	U_SOFTSIGN, U_THRESHOLDED_RELU, U_SHRINK, U_IS_NAN, U_IS_INF, U_GELU, U_GELU_V2, U_RSQRT,
	U_SWISH, U_EXPM1, U_COUNT
};

#define UN_MAX_ATTRS 3

/* One CANN attribute: a float parameter, a bool (int 0/1) or GeluV2's approximate. */
enum un_kind { UK_NONE, UK_FLOAT, UK_BOOL, UK_APPROX };

struct un_attr {
	const char *name;
	enum un_kind kind;
	double dflt;
};

/* CANN's attributes and defaults; IsInf's two are a vnpu extension (docs/ops/unary.md). */
static const struct un_attr un_attrs[U_COUNT][UN_MAX_ATTRS] = {
	[U_LEAKY_RELU] = { { "negative_slope", UK_FLOAT, 0.0 } },
	[U_EXP] = { { "base", UK_FLOAT, -1.0 }, { "scale", UK_FLOAT, 1.0 },
		    { "shift", UK_FLOAT, 0.0 } },
	[U_LOG] = { { "base", UK_FLOAT, -1.0 }, { "scale", UK_FLOAT, 1.0 },
		    { "shift", UK_FLOAT, 0.0 } },
	[U_HARD_SIGMOID] = { { "alpha", UK_FLOAT, 0.16666666 }, { "beta", UK_FLOAT, 0.5 } },
	[U_ELU] = { { "alpha", UK_FLOAT, 1.0 }, { "scale", UK_FLOAT, 1.0 },
		    { "input_scale", UK_FLOAT, 1.0 } },
	[U_CELU] = { { "alpha1", UK_FLOAT, 1.0 }, { "alpha2", UK_FLOAT, 1.0 },
		     { "alpha3", UK_FLOAT, 1.0 } },
	[U_THRESHOLDED_RELU] = { { "alpha", UK_FLOAT, 1.0 } },
	[U_SHRINK] = { { "lambd", UK_FLOAT, 0.5 }, { "bias", UK_FLOAT, 0.0 } },
	[U_IS_INF] = { { "detect_positive", UK_BOOL, 1 }, { "detect_negative", UK_BOOL, 1 } },
	[U_GELU_V2] = { { "approximate", UK_APPROX, 0 } },
	[U_SWISH] = { { "scale", UK_FLOAT, 1.0 } },
};

/* Selu's fixed constants (CANN's, as ONNX's defaults). */
#define SELU_ALPHA 1.67326324235437728481
#define SELU_SCALE 1.05070098735548049342

static enum un_op un_index(const struct ops_call *c)
{
	return (enum un_op)(c->def->id - OPS_ID_UNARY);
}

/* Parameters of each kind operator @op has. */
static void un_counts(enum un_op op, uint32_t *ni, uint32_t *nf)
{
	int k;

	*ni = *nf = 0;
	for (k = 0; k < UN_MAX_ATTRS && un_attrs[op][k].name; k++) {
		if (un_attrs[op][k].kind == UK_FLOAT)
			(*nf)++;
		else
			(*ni)++;
	}
}

/* One CANN attribute @ua of @c's call into its parameter. */
static enum vops_err un_parse_one(struct ops_call *c, const struct un_attr *ua,
				  const struct vops_attr *attrs, unsigned int n,
				  struct vops_error *err)
{
	const struct ops_def *def = c->def;
	enum vops_err ret;
	const char *s;
	double f;
	bool b;

	switch (ua->kind) {
	case UK_FLOAT:
		ret = ops_attr_float(def, attrs, n, ua->name, ua->dflt, &f, err);
		if (!ret)
			ops_param_f(c, f);
		return ret;
	case UK_BOOL:
		ret = ops_attr_bool(def, attrs, n, ua->name, ua->dflt != 0, &b, err);
		if (!ret)
			ops_param_i(c, b);
		return ret;
	case UK_APPROX:
		ret = ops_attr_str(def, attrs, n, ua->name, "none", &s, err);
		if (ret)
			return ret;
		if (strcmp(s, "none") && strcmp(s, "tanh"))
			return ops_fail(err, VOPS_ERR_ATTR,
					"%s: attribute %s \"%.64s\" is not \"none\" or \"tanh\"",
					def->name, ua->name, s);
		ops_param_i(c, !strcmp(s, "tanh"));
		return VOPS_OK;
	default:
		return VOPS_OK;
	}
}

/* CANN attributes to parameters: the ints first (ops_param_i), then the floats. */
static enum vops_err un_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
			      struct vops_error *err)
{
	const struct un_attr *ua = un_attrs[un_index(c)];
	enum vops_err ret = VOPS_OK;
	int k, pass;

	for (pass = 0; pass < 2; pass++)
		for (k = 0; !ret && k < UN_MAX_ATTRS && ua[k].name; k++)
			if ((ua[k].kind == UK_FLOAT) == (pass == 1))
				ret = un_parse_one(c, &ua[k], attrs, n, err);
	return ret;
}

/* The parameters' values: what parse makes, checked again for a decoded descriptor. */
static enum vops_err un_check_params(const struct ops_call *c, struct vops_error *err)
{
	const struct ops_params *pr = &c->at.pr;
	enum un_op op = un_index(c);
	const struct un_attr *ua = un_attrs[op];
	const char *name = c->def->name;
	uint32_t ni, nf, i, f;
	int k;

	un_counts(op, &ni, &nf);
	if (pr->ni != ni || pr->nf != nf)
		return ops_fail(err, VOPS_ERR_ATTR,
				"%s: %u int and %u float parameters (%u and %u)", name, pr->ni,
				pr->nf, ni, nf);
	for (k = 0, i = 0, f = 0; k < UN_MAX_ATTRS && ua[k].name; k++) {
		if (ua[k].kind != UK_FLOAT) {
			if (pr->i[i] != 0 && pr->i[i] != 1)
				return ops_fail(err, VOPS_ERR_ATTR,
						"%s: attribute %s parameter %lld is not 0 or 1",
						name, ua[k].name, (long long)pr->i[i]);
			i++;
			continue;
		}
		if (!isfinite(pr->f[f]))
			return ops_fail(err, VOPS_ERR_ATTR, "%s: attribute %s %g is not finite",
					name, ua[k].name, pr->f[f]);
		f++;
	}
	/* base: -1 (e) or positive; a logarithm's not 1 either. */
	if ((op == U_EXP || op == U_LOG) && pr->f[0] != -1.0 &&
	    (pr->f[0] <= 0 || (op == U_LOG && pr->f[0] == 1.0)))
		return ops_fail(err, VOPS_ERR_ATTR, "%s: attribute base %g must be -1 (e) or %s",
				name, pr->f[0], op == U_LOG ? "positive and not 1" : "positive");
	if (op == U_CELU && pr->f[1] == 0)
		return ops_fail(err, VOPS_ERR_ATTR, "%s: attribute alpha2 must not be 0", name);
	return VOPS_OK;
}

static enum vops_err un_infer(const struct ops_call *c, struct vops_plan *p, struct vops_error *err)
{
	enum un_op op = un_index(c);
	int32_t odt = op == U_IS_NAN || op == U_IS_INF ? ACL_BOOL : c->in[0].dtype;
	enum vops_err ret;

	if (c->def->attr_fmt == OPS_AF_PARAMS) {
		ret = un_check_params(c, err);
		if (ret)
			return ret;
	}
	return ops_ew_infer(c, p, 0, 0, odt, err);
}

/* ---- formulas ----------------------------------------------------------------- */

/* Round half to even, keeping the sign of a zero result. */
static double round_even(double v)
{
	double r = floor(v), d = v - r;

	if (d > 0.5 || (d == 0.5 && fmod(r, 2.0) != 0.0))
		r += 1.0;
	return r == 0 ? copysign(0.0, v) : r;
}

static double sigmoid(double v)
{
	double e;

	if (v >= 0)
		return 1.0 / (1.0 + exp(-v));
	e = exp(v);
	return e / (1.0 + e);
}

/* log(1 + e^v) without overflow. */
static double softplus(double v)
{
	return v > 0 ? v + log1p(exp(-v)) : log1p(exp(v));
}

static double gelu_tanh(double v)
{
	const double k = 0.79788456080286535588;	/* sqrt(2 / pi) */

	return 0.5 * v * (1.0 + tanh(k * (v + 0.044715 * v * v * v)));
}

static double gelu_erf(double v)
{
	return 0.5 * v * (1.0 + erf(v * 0.70710678118654752440));
}

/* base^(scale * x + shift), base -1: e. */
static double exp_base(const double *f, double v)
{
	double t = f[1] * v + f[2];

	return f[0] == -1.0 ? exp(t) : pow(f[0], t);
}

/* log_base(shift + scale * x), base -1: e. */
static double log_base(const double *f, double v)
{
	double l = log(f[2] + f[1] * v);

	return f[0] == -1.0 ? l : l / log(f[0]);
}

static double is_inf(const int64_t *pi, double v)
{
	return isinf(v) && (v > 0 ? pi[0] : pi[1]) ? 1.0 : 0.0;
}

#define EACH(expr)					\
	do {						\
		for (j = 0; j < n; j++) {		\
			double v = x[j];		\
							\
			o[j] = (expr);			\
		}					\
	} while (0)

/* The block function of every float computation: the formula of the operator. */
static void un_f(const struct ops_call *c, double *restrict o, const double *const *restrict xs,
		 size_t n)
{
	const double *restrict x = xs[0];
	const double *f = c->at.pr.f;
	const int64_t *pi = c->at.pr.i;
	size_t j;

	switch (un_index(c)) {
	case U_NEG: EACH(-v); break;
	case U_LEAKY_RELU: EACH(v < 0 ? f[0] * v : v); break;
	case U_SIGN: EACH(v > 0 ? 1.0 : v < 0 ? -1.0 : v); break;
	case U_CEIL: EACH(ceil(v)); break;
	case U_FLOOR: EACH(floor(v)); break;
	case U_ROUND: EACH(round_even(v)); break;
	case U_RECIPROCAL: EACH(1.0 / v); break;
	case U_SQRT: EACH(sqrt(v)); break;
	case U_EXP: EACH(exp_base(f, v)); break;
	case U_LOG: EACH(log_base(f, v)); break;
	case U_SIN: EACH(sin(v)); break;
	case U_COS: EACH(cos(v)); break;
	case U_TAN: EACH(tan(v)); break;
	case U_ASIN: EACH(asin(v)); break;
	case U_ACOS: EACH(acos(v)); break;
	case U_ATAN: EACH(atan(v)); break;
	case U_SINH: EACH(sinh(v)); break;
	case U_COSH: EACH(cosh(v)); break;
	case U_TANH: EACH(tanh(v)); break;
	case U_ASINH: EACH(asinh(v)); break;
	case U_ACOSH: EACH(acosh(v)); break;
	case U_ATANH: EACH(atanh(v)); break;
	case U_ERF: EACH(erf(v)); break;
	case U_SIGMOID: EACH(sigmoid(v)); break;
	case U_HARD_SIGMOID: EACH(fmax(0.0, fmin(1.0, f[0] * v + f[1]))); break;
	case U_HARD_SWISH: EACH(v * fmax(0.0, fmin(1.0, v / 6.0 + 0.5))); break;
	case U_ELU: EACH(v > 0 ? f[1] * v : f[1] * f[0] * expm1(f[2] * v)); break;
	case U_SELU: EACH(SELU_SCALE * (v > 0 ? v : SELU_ALPHA * expm1(v))); break;
	case U_CELU: EACH(f[2] * fmax(0.0, v) + fmin(0.0, f[0] * expm1(v / f[1]))); break;
	case U_SOFTPLUS: EACH(softplus(v)); break;
	case U_SOFTSIGN: EACH(v / (1.0 + fabs(v))); break;
	case U_THRESHOLDED_RELU: EACH(v > f[0] ? v : 0.0); break;
	case U_SHRINK: EACH(v < -f[0] ? v + f[1] : v > f[0] ? v - f[1] : 0.0); break;
	case U_IS_NAN: EACH(isnan(v) ? 1.0 : 0.0); break;
	case U_IS_INF: EACH(is_inf(pi, v)); break;
	case U_GELU: EACH(gelu_tanh(v)); break;
	case U_GELU_V2: EACH(pi[0] ? gelu_tanh(v) : gelu_erf(v)); break;
	case U_RSQRT: EACH(1.0 / sqrt(v)); break;
	/* CANN's SiLU: x * sigmoid(scale * x) */
	case U_SWISH: EACH(v * sigmoid(f[0] * v)); break;
	/* libm's expm1 keeps the digits exp(v) - 1 cancels near 0 */
	case U_EXPM1: EACH(expm1(v)); break;
	default:
		for (j = 0; j < n; j++)
			o[j] = 0.0;
		break;
	}
}

#undef EACH

/* Integers (Neg, Sign): wrapping negation on the bits; unsigned values are never negative. */
static void un_i(const struct ops_call *c, int64_t *restrict o, const int64_t *const *restrict xs,
		 size_t n)
{
	const int64_t *restrict x = xs[0];
	bool u = ops_dt_unsigned(c->in[0].dtype);
	size_t j;

	for (j = 0; j < n; j++) {
		if (un_index(c) == U_NEG)
			o[j] = (int64_t)(0 - (uint64_t)x[j]);
		else if (un_index(c) == U_SIGN)
			o[j] = u ? x[j] != 0 : (x[j] > 0) - (x[j] < 0);
		else
			o[j] = 0;
	}
}

static enum vops_run_status un_run(const struct ops_call *c, const struct vops_plan *p,
				   const struct ops_bufs *b, struct ops_runner *r)
{
	return ops_ew_call(c, p, b, 0, 0, ops_dt_dom(c->in[0].dtype), un_f, un_i, r);
}

/* ---- the definitions ------------------------------------------------------------ */

static const char *const no_attrs[] = { NULL };
static const char *const leaky_attrs[] = { "negative_slope", NULL };
static const char *const exp_attrs[] = { "base", "scale", "shift", NULL };
static const char *const hsig_attrs[] = { "alpha", "beta", NULL };
static const char *const elu_attrs[] = { "alpha", "scale", "input_scale", NULL };
static const char *const celu_attrs[] = { "alpha1", "alpha2", "alpha3", NULL };
static const char *const alpha_attrs[] = { "alpha", NULL };
static const char *const shrink_attrs[] = { "lambd", "bias", NULL };
static const char *const isinf_attrs[] = { "detect_positive", "detect_negative", NULL };
static const char *const gelu2_attrs[] = { "approximate", NULL };
static const char *const swish_attrs[] = { "scale", NULL };

#define UN_FLOAT OPS_DT_REAL
#define UN_SIGNED (OPS_DT_REAL | OPS_DT_SINT)
#define UN_NUM (OPS_DT_REAL | OPS_DT_INTS)

/* An operator without attributes, and one with (un_attrs). */
#define UN_DEF(var, op_name, idx, types)						\
	static const struct ops_def var = {						\
		.name = op_name, .id = OPS_ID_UNARY + (idx), .nin = 1, .nout = 1,	\
		.attr_fmt = OPS_AF_NONE, .flags = OPS_DEF_STRIDED, .dtypes = types,	\
		.attrs = no_attrs, .infer = un_infer, .workspace = ops_ws_none,		\
		.run = un_run,								\
	}
#define UN_DEF_P(var, op_name, idx, types, names)					\
	static const struct ops_def var = {						\
		.name = op_name, .id = OPS_ID_UNARY + (idx), .nin = 1, .nout = 1,	\
		.attr_fmt = OPS_AF_PARAMS, .flags = OPS_DEF_STRIDED, .dtypes = types,	\
		.attrs = names, .parse = un_parse, .infer = un_infer,			\
		.workspace = ops_ws_none, .run = un_run,				\
	}

UN_DEF(def_neg, "Neg", U_NEG, UN_SIGNED);
UN_DEF_P(def_leaky_relu, "LeakyRelu", U_LEAKY_RELU, UN_FLOAT, leaky_attrs);
UN_DEF(def_sign, "Sign", U_SIGN, UN_NUM);
UN_DEF(def_ceil, "Ceil", U_CEIL, UN_FLOAT);
UN_DEF(def_floor, "Floor", U_FLOOR, UN_FLOAT);
UN_DEF(def_round, "Round", U_ROUND, UN_FLOAT);
UN_DEF(def_reciprocal, "Reciprocal", U_RECIPROCAL, UN_FLOAT);
UN_DEF(def_sqrt, "Sqrt", U_SQRT, UN_FLOAT);
UN_DEF_P(def_exp, "Exp", U_EXP, UN_FLOAT, exp_attrs);
UN_DEF_P(def_log, "Log", U_LOG, UN_FLOAT, exp_attrs);
UN_DEF(def_sin, "Sin", U_SIN, UN_FLOAT);
UN_DEF(def_cos, "Cos", U_COS, UN_FLOAT);
UN_DEF(def_tan, "Tan", U_TAN, UN_FLOAT);
UN_DEF(def_asin, "Asin", U_ASIN, UN_FLOAT);
UN_DEF(def_acos, "Acos", U_ACOS, UN_FLOAT);
UN_DEF(def_atan, "Atan", U_ATAN, UN_FLOAT);
UN_DEF(def_sinh, "Sinh", U_SINH, UN_FLOAT);
UN_DEF(def_cosh, "Cosh", U_COSH, UN_FLOAT);
UN_DEF(def_tanh, "Tanh", U_TANH, UN_FLOAT);
UN_DEF(def_asinh, "Asinh", U_ASINH, UN_FLOAT);
UN_DEF(def_acosh, "Acosh", U_ACOSH, UN_FLOAT);
UN_DEF(def_atanh, "Atanh", U_ATANH, UN_FLOAT);
UN_DEF(def_erf, "Erf", U_ERF, UN_FLOAT);
UN_DEF(def_sigmoid, "Sigmoid", U_SIGMOID, UN_FLOAT);
UN_DEF_P(def_hard_sigmoid, "HardSigmoid", U_HARD_SIGMOID, UN_FLOAT, hsig_attrs);
UN_DEF(def_hard_swish, "HardSwish", U_HARD_SWISH, UN_FLOAT);
UN_DEF_P(def_elu, "Elu", U_ELU, UN_FLOAT, elu_attrs);
UN_DEF(def_selu, "Selu", U_SELU, UN_FLOAT);
UN_DEF_P(def_celu, "Celu", U_CELU, UN_FLOAT, celu_attrs);
UN_DEF(def_softplus, "Softplus", U_SOFTPLUS, UN_FLOAT);
UN_DEF(def_softsign, "Softsign", U_SOFTSIGN, UN_FLOAT);
UN_DEF_P(def_thresholded_relu, "ThresholdedRelu", U_THRESHOLDED_RELU, UN_FLOAT, alpha_attrs);
UN_DEF_P(def_shrink, "Shrink", U_SHRINK, UN_FLOAT, shrink_attrs);
UN_DEF(def_is_nan, "IsNan", U_IS_NAN, UN_FLOAT);
UN_DEF_P(def_is_inf, "IsInf", U_IS_INF, UN_FLOAT, isinf_attrs);
UN_DEF(def_gelu, "Gelu", U_GELU, UN_FLOAT);
UN_DEF_P(def_gelu_v2, "GeluV2", U_GELU_V2, UN_FLOAT, gelu2_attrs);
UN_DEF(def_rsqrt, "Rsqrt", U_RSQRT, UN_FLOAT);
UN_DEF_P(def_swish, "Swish", U_SWISH, UN_FLOAT, swish_attrs);
UN_DEF(def_expm1, "Expm1", U_EXPM1, UN_FLOAT);

/* Index i holds id OPS_ID_UNARY + i; append only. */
const struct ops_def *const ops_unary_defs[] = {
	[U_NEG] = &def_neg,
	[U_LEAKY_RELU] = &def_leaky_relu,
	[U_SIGN] = &def_sign,
	[U_CEIL] = &def_ceil,
	[U_FLOOR] = &def_floor,
	[U_ROUND] = &def_round,
	[U_RECIPROCAL] = &def_reciprocal,
	[U_SQRT] = &def_sqrt,
	[U_EXP] = &def_exp,
	[U_LOG] = &def_log,
	[U_SIN] = &def_sin,
	[U_COS] = &def_cos,
	[U_TAN] = &def_tan,
	[U_ASIN] = &def_asin,
	[U_ACOS] = &def_acos,
	[U_ATAN] = &def_atan,
	[U_SINH] = &def_sinh,
	[U_COSH] = &def_cosh,
	[U_TANH] = &def_tanh,
	[U_ASINH] = &def_asinh,
	[U_ACOSH] = &def_acosh,
	[U_ATANH] = &def_atanh,
	[U_ERF] = &def_erf,
	[U_SIGMOID] = &def_sigmoid,
	[U_HARD_SIGMOID] = &def_hard_sigmoid,
	[U_HARD_SWISH] = &def_hard_swish,
	[U_ELU] = &def_elu,
	[U_SELU] = &def_selu,
	[U_CELU] = &def_celu,
	[U_SOFTPLUS] = &def_softplus,
	[U_SOFTSIGN] = &def_softsign,
	[U_THRESHOLDED_RELU] = &def_thresholded_relu,
	[U_SHRINK] = &def_shrink,
	[U_IS_NAN] = &def_is_nan,
	[U_IS_INF] = &def_is_inf,
	[U_GELU] = &def_gelu,
	[U_GELU_V2] = &def_gelu_v2,
	[U_RSQRT] = &def_rsqrt,
	[U_SWISH] = &def_swish,
	[U_EXPM1] = &def_expm1,
	[U_COUNT] = NULL,
};
