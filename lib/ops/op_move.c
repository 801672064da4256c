// SPDX-License-Identifier: MIT
/*
 * op_move.c - (family of operators; see ops_int.h and docs/ops.md).
 */
#include "ops_int.h"

const struct ops_def *const ops_move_defs[] = {
	NULL,
};
