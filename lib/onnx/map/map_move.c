// SPDX-License-Identifier: MIT
/*
 * map_move.c - ONNX nodes of the move family to CANN operator calls (onnx_map.h).
 */
#include "onnx_map.h"

const struct onnx_map_entry onnx_map_move[] = {
	{ NULL, NULL, NULL },
};
