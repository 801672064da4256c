// SPDX-License-Identifier: MIT
/*
 * map_nn.c - ONNX nodes of the nn family to CANN operator calls (onnx_map.h).
 */
#include "onnx_map.h"

const struct onnx_map_entry onnx_map_nn[] = {
	{ NULL, NULL, NULL },
};
