// SPDX-License-Identifier: MIT
/*
 * map_binary.c - ONNX nodes of the binary family to CANN operator calls (onnx_map.h).
 */
#include "onnx_map.h"

const struct onnx_map_entry onnx_map_binary[] = {
	{ NULL, NULL, NULL },
};
