// SPDX-License-Identifier: MIT
/*
 * op_nn.c - (family of operators; see ops_int.h and docs/ops.md).
 */
#include "ops_int.h"

const struct ops_def *const ops_nn_defs[] = {
	NULL,
};
