// SPDX-License-Identifier: MIT
/*
 * map_index.c - ONNX nodes of the index family to CANN operator calls (onnx_map.h).
 */
#include "onnx_map.h"

const struct onnx_map_entry onnx_map_index[] = {
	{ NULL, NULL, NULL },
};
