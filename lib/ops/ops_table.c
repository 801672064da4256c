// SPDX-License-Identifier: MIT
/*
 * ops_table.c - the operators vnpu knows, by CANN name and by descriptor id.
 *
 * Operators come in families, one file each (op_*.c), and every family
 * owns a range of descriptor ids: its list (NULL-terminated) holds the
 * operator of id base + i at index i, so ids stay stable as long as lists
 * are only appended to. Adding an operator: define its struct ops_def in
 * its family's file, append it to the family's list with the next id,
 * and describe it in docs/ops.md.
 */
#include <string.h>

#include "ops_int.h"

static const struct ops_def *const ops_v1_defs[] = {
	&ops_def_add, &ops_def_sub, &ops_def_mul, &ops_def_realdiv, &ops_def_relu, &ops_def_abs,
	&ops_def_cast, &ops_def_reduce_sum, &ops_def_reduce_max, &ops_def_softmax, &ops_def_matmul,
	NULL,
};

static const struct {
	uint16_t base;
	const struct ops_def *const *defs;
} ops_families[] = {
	{ OPS_ID_ADD, ops_v1_defs },
	{ OPS_ID_UNARY, ops_unary_defs },
	{ OPS_ID_BINARY, ops_binary_defs },
	{ OPS_ID_REDUCE, ops_reduce_defs },
	{ OPS_ID_NORM, ops_norm_defs },
	{ OPS_ID_NN, ops_nn_defs },
	{ OPS_ID_MOVE, ops_move_defs },
	{ OPS_ID_INDEX, ops_index_defs },
};

#define OPS_NFAMILIES (sizeof(ops_families) / sizeof(ops_families[0]))

const struct ops_def *ops_def_by_name(const char *name)
{
	const struct ops_def *const *d;
	size_t f;

	for (f = 0; f < OPS_NFAMILIES; f++)
		for (d = ops_families[f].defs; *d; d++)
			if (!strcmp((*d)->name, name))
				return *d;
	return NULL;
}

const struct ops_def *ops_def_by_id(unsigned int id)
{
	const struct ops_def *const *d;
	size_t f;

	for (f = 0; f < OPS_NFAMILIES; f++) {
		unsigned int base = ops_families[f].base, first = base / OPS_FAMILY_IDS * OPS_FAMILY_IDS, i;

		/* Family f owns [first, first + OPS_FAMILY_IDS) (version 1's start at 1). */
		if (id < first || id >= first + OPS_FAMILY_IDS)
			continue;
		if (id < base)
			return NULL;
		for (i = 0, d = ops_families[f].defs; *d && i < id - base; i++, d++)
			;
		return *d && (*d)->id == id ? *d : NULL;
	}
	return NULL;
}

static const struct ops_def *def_at(unsigned int i)
{
	const struct ops_def *const *d;
	size_t f;

	for (f = 0; f < OPS_NFAMILIES; f++)
		for (d = ops_families[f].defs; *d; d++)
			if (!i--)
				return *d;
	return NULL;
}

const char *vops_op_name(unsigned int i)
{
	const struct ops_def *d = def_at(i);

	return d ? d->name : NULL;
}

bool vops_op_info(unsigned int i, struct vops_op_info *info)
{
	static const int32_t order[] = {
		ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16,
		ACL_UINT16, ACL_INT32, ACL_UINT32, ACL_INT64, ACL_UINT64, ACL_BOOL,
	};
	const struct ops_def *d = def_at(i);
	size_t k;

	if (!d)
		return false;
	info->name = d->name;
	info->nin_min = d->nin;
	info->nin_max = ops_nin_max(d);
	info->nout_min = d->nout;
	info->nout_max = ops_nout_max(d);
	info->mixed = d->flags & OPS_DEF_MIXED;
	info->views = d->flags & OPS_DEF_STRIDED;
	info->ndtypes = 0;
	for (k = 0; k < sizeof(order) / sizeof(order[0]); k++)
		if (ops_dtype_bit(order[k]) & d->dtypes)
			info->dtypes[info->ndtypes++] = order[k];
	info->attrs = d->attrs;
	return true;
}
