// SPDX-License-Identifier: MIT
/*
 * map_reduce.c - ONNX nodes of the reduce family to CANN operator calls (onnx_map.h).
 */
#include "onnx_map.h"

const struct onnx_map_entry onnx_map_reduce[] = {
	{ NULL, NULL, NULL },
};
