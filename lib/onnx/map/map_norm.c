// SPDX-License-Identifier: MIT
/*
 * map_norm.c - ONNX nodes of the norm family to CANN operator calls (onnx_map.h).
 */
#include "onnx_map.h"

const struct onnx_map_entry onnx_map_norm[] = {
	{ NULL, NULL, NULL },
};
