// SPDX-License-Identifier: MIT
/*
 * op_index.c - (family of operators; see ops_int.h and docs/ops.md).
 */
#include "ops_int.h"

const struct ops_def *const ops_index_defs[] = {
	NULL,
};
