// SPDX-License-Identifier: MIT
/*
 * ops_table.c - the operators vnpu knows, by CANN name and by descriptor id.
 *
 * Adding an operator: define its struct ops_def next to its family
 * (op_*.c), give it the next enum ops_id, list it here and in
 * vops_op_names(), and describe it in docs/ops.md.
 */
#include <string.h>

#include "ops_int.h"

/* Indexed by enum ops_id. */
static const struct ops_def *const ops_table[] = {
	[OPS_ID_ADD] = &ops_def_add,
	[OPS_ID_SUB] = &ops_def_sub,
	[OPS_ID_MUL] = &ops_def_mul,
	[OPS_ID_REALDIV] = &ops_def_realdiv,
	[OPS_ID_RELU] = &ops_def_relu,
	[OPS_ID_ABS] = &ops_def_abs,
	[OPS_ID_CAST] = &ops_def_cast,
	[OPS_ID_REDUCE_SUM] = &ops_def_reduce_sum,
	[OPS_ID_REDUCE_MAX] = &ops_def_reduce_max,
	[OPS_ID_SOFTMAX] = &ops_def_softmax,
	[OPS_ID_MATMUL] = &ops_def_matmul,
};

#define OPS_TABLE_LEN (sizeof(ops_table) / sizeof(ops_table[0]))

const struct ops_def *ops_def_by_name(const char *name)
{
	size_t i;

	for (i = 1; i < OPS_TABLE_LEN; i++)
		if (!strcmp(ops_table[i]->name, name))
			return ops_table[i];
	return NULL;
}

const struct ops_def *ops_def_by_id(unsigned int id)
{
	return id && id < OPS_TABLE_LEN ? ops_table[id] : NULL;
}

const char *vops_op_names(void)
{
	return "Add, Sub, Mul, RealDiv, Relu, Abs, Cast, ReduceSumD, ReduceMaxD, SoftmaxV2, MatMul";
}
