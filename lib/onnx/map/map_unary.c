// SPDX-License-Identifier: MIT
/*
 * map_unary.c - ONNX nodes of the unary family to CANN operator calls
 * (onnx_map.h).
 *
 * Most are one input, one output and the same-named CANN operator
 * (IsNaN is CANN's IsNan). Where ONNX's attribute defaults differ from
 * CANN's (LeakyRelu, HardSigmoid, ...) the ONNX value is always passed.
 */
#include <string.h>

#include "onnx_map.h"

/* ONNX operators that are CANN's operator of the same inputs, no attributes. */
static const struct {
	const char *onnx, *cann;
} simple[] = {
	{ "Abs", "Abs" }, { "Neg", "Neg" }, { "Sign", "Sign" }, { "Ceil", "Ceil" },
	{ "Floor", "Floor" }, { "Round", "Round" }, { "Reciprocal", "Reciprocal" },
	{ "Sqrt", "Sqrt" }, { "Exp", "Exp" }, { "Log", "Log" }, { "Sin", "Sin" }, { "Cos", "Cos" },
	{ "Tan", "Tan" }, { "Asin", "Asin" }, { "Acos", "Acos" }, { "Atan", "Atan" },
	{ "Sinh", "Sinh" }, { "Cosh", "Cosh" }, { "Tanh", "Tanh" }, { "Asinh", "Asinh" },
	{ "Acosh", "Acosh" }, { "Atanh", "Atanh" }, { "Erf", "Erf" }, { "Sigmoid", "Sigmoid" },
	{ "HardSwish", "HardSwish" }, { "Relu", "Relu" }, { "Softplus", "Softplus" },
	{ "Softsign", "Softsign" }, { "IsNaN", "IsNan" },
};

static enum onnx_err map_simple(struct onnx_map *m)
{
	size_t i;

	for (i = 0; i < sizeof(simple) / sizeof(simple[0]); i++)
		if (!strcmp(m->node->op_type, simple[i].onnx))
			return onnx_map_simple(m, simple[i].cann);
	return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "no CANN operator");
}

/* ONNX's alpha (default 0.01) is CANN's negative_slope (default 0). */
static enum onnx_err map_leaky_relu(struct onnx_map *m)
{
	enum onnx_err ret = onnx_map_simple(m, "LeakyRelu");

	return ret ? ret : onnx_map_attr_float(m, "negative_slope",
					       onnx_attr_float(m->node, "alpha", 0.01f));
}

/* ONNX's alpha defaults to 0.2, CANN's to 1/6. */
static enum onnx_err map_hard_sigmoid(struct onnx_map *m)
{
	enum onnx_err ret = onnx_map_simple(m, "HardSigmoid");

	if (!ret)
		ret = onnx_map_attr_float(m, "alpha", onnx_attr_float(m->node, "alpha", 0.2f));
	return ret ? ret : onnx_map_attr_float(m, "beta", onnx_attr_float(m->node, "beta", 0.5f));
}

static enum onnx_err map_elu(struct onnx_map *m)
{
	enum onnx_err ret = onnx_map_simple(m, "Elu");

	return ret ? ret : onnx_map_attr_float(m, "alpha", onnx_attr_float(m->node, "alpha", 1.0f));
}

/* ONNX's Selu defaults. */
#define SELU_ALPHA 1.67326319217681884765625f
#define SELU_GAMMA 1.05070102214813232421875f

/*
 * CANN's Selu has its constants fixed; a node that sets its own is CANN's
 * Elu with alpha and scale (gamma), which is the same formula.
 */
static enum onnx_err map_selu(struct onnx_map *m)
{
	float alpha = onnx_attr_float(m->node, "alpha", SELU_ALPHA);
	float gamma = onnx_attr_float(m->node, "gamma", SELU_GAMMA);
	enum onnx_err ret;

	if (!onnx_node_attr(m->node, "alpha") && !onnx_node_attr(m->node, "gamma"))
		return onnx_map_simple(m, "Selu");
	ret = onnx_map_simple(m, "Elu");
	if (!ret)
		ret = onnx_map_attr_float(m, "alpha", alpha);
	return ret ? ret : onnx_map_attr_float(m, "scale", gamma);
}

/* ONNX's alpha is CANN's alpha1 and alpha2; alpha3 (the positive side's scale) is 1. */
static enum onnx_err map_celu(struct onnx_map *m)
{
	float alpha = onnx_attr_float(m->node, "alpha", 1.0f);
	enum onnx_err ret = onnx_map_simple(m, "Celu");

	if (!ret)
		ret = onnx_map_attr_float(m, "alpha1", alpha);
	if (!ret)
		ret = onnx_map_attr_float(m, "alpha2", alpha);
	return ret ? ret : onnx_map_attr_float(m, "alpha3", 1.0f);
}

static enum onnx_err map_thresholded_relu(struct onnx_map *m)
{
	enum onnx_err ret = onnx_map_simple(m, "ThresholdedRelu");

	return ret ? ret : onnx_map_attr_float(m, "alpha", onnx_attr_float(m->node, "alpha", 1.0f));
}

static enum onnx_err map_shrink(struct onnx_map *m)
{
	enum onnx_err ret = onnx_map_simple(m, "Shrink");

	if (!ret)
		ret = onnx_map_attr_float(m, "lambd", onnx_attr_float(m->node, "lambd", 0.5f));
	return ret ? ret : onnx_map_attr_float(m, "bias", onnx_attr_float(m->node, "bias", 0.0f));
}

/* detect_positive / detect_negative: lib/ops' extension of CANN's IsInf (both by default). */
static enum onnx_err map_is_inf(struct onnx_map *m)
{
	enum onnx_err ret = onnx_map_simple(m, "IsInf");

	if (!ret)
		ret = onnx_map_attr_bool(m, "detect_positive",
					 onnx_attr_int(m->node, "detect_positive", 1) != 0);
	return ret ? ret : onnx_map_attr_bool(m, "detect_negative",
					      onnx_attr_int(m->node, "detect_negative", 1) != 0);
}

/* ONNX's Gelu (opset 20) is CANN's GeluV2: approximate "none" or "tanh". */
static enum onnx_err map_gelu(struct onnx_map *m)
{
	enum onnx_err ret = onnx_map_simple(m, "GeluV2");

	return ret ? ret : onnx_map_attr_str(m, "approximate",
					     onnx_attr_string(m->node, "approximate", "none"));
}

const struct onnx_map_entry onnx_map_unary[] = {
	{ "Abs", map_simple, "Abs" },
	{ "Neg", map_simple, "Neg" },
	{ "Sign", map_simple, "Sign" },
	{ "Ceil", map_simple, "Ceil" },
	{ "Floor", map_simple, "Floor" },
	{ "Round", map_simple, "Round" },
	{ "Reciprocal", map_simple, "Reciprocal" },
	{ "Sqrt", map_simple, "Sqrt" },
	{ "Exp", map_simple, "Exp" },
	{ "Log", map_simple, "Log" },
	{ "Sin", map_simple, "Sin" },
	{ "Cos", map_simple, "Cos" },
	{ "Tan", map_simple, "Tan" },
	{ "Asin", map_simple, "Asin" },
	{ "Acos", map_simple, "Acos" },
	{ "Atan", map_simple, "Atan" },
	{ "Sinh", map_simple, "Sinh" },
	{ "Cosh", map_simple, "Cosh" },
	{ "Tanh", map_simple, "Tanh" },
	{ "Asinh", map_simple, "Asinh" },
	{ "Acosh", map_simple, "Acosh" },
	{ "Atanh", map_simple, "Atanh" },
	{ "Erf", map_simple, "Erf" },
	{ "Sigmoid", map_simple, "Sigmoid" },
	{ "HardSwish", map_simple, "HardSwish" },
	{ "Relu", map_simple, "Relu" },
	{ "Softplus", map_simple, "Softplus" },
	{ "Softsign", map_simple, "Softsign" },
	{ "IsNaN", map_simple, "IsNan" },
	{ "LeakyRelu", map_leaky_relu, "LeakyRelu" },
	{ "HardSigmoid", map_hard_sigmoid, "HardSigmoid" },
	{ "Elu", map_elu, "Elu" },
	{ "Selu", map_selu, "Selu Elu" },
	{ "Celu", map_celu, "Celu" },
	{ "ThresholdedRelu", map_thresholded_relu, "ThresholdedRelu" },
	{ "Shrink", map_shrink, "Shrink" },
	{ "IsInf", map_is_inf, "IsInf" },
	{ "Gelu", map_gelu, "GeluV2" },
	{ NULL, NULL, NULL },
};
