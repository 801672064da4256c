// SPDX-License-Identifier: MIT
/*
 * map_unary.c - ONNX nodes of the unary family to CANN operator calls
 * (onnx_map.h).
 */
#include "onnx_map.h"

static enum onnx_err map_neg(struct onnx_map *m)
{
	return onnx_map_simple(m, "Neg");
}

/* ONNX's alpha (default 0.01) is CANN's negative_slope (default 0). */
static enum onnx_err map_leaky_relu(struct onnx_map *m)
{
	enum onnx_err ret = onnx_map_simple(m, "LeakyRelu");

	return ret ? ret : onnx_map_attr_float(m, "negative_slope", onnx_attr_float(m->node, "alpha", 0.01f));
}

const struct onnx_map_entry onnx_map_unary[] = {
	{ "Neg", map_neg },
	{ "LeakyRelu", map_leaky_relu },
	{ NULL, NULL },
};
