/* SPDX-License-Identifier: MIT */
/*
 * ops_reduce.h - the reduce family's generic engine (op_reduce2.c) as
 * version 1's ReduceSumD, ReduceMaxD and SoftmaxV2 (op_reduce.c) use it
 * for the types their fast kernels do not take (private).
 */
#ifndef VNPU_LIB_OPS_REDUCE_H
#define VNPU_LIB_OPS_REDUCE_H

#include <stdbool.h>

#include "ops_int.h"

/* What the engine computes along the reduced axes. */
enum ops_red_kind {
	OPS_RED_SUM,		/* integers wrap; floats in double, compensated */
	OPS_RED_MAX,		/* NaN propagates; uint64 compared unsigned */
	OPS_RED_SOFTMAX,	/* the output has the input's shape; max-shifted */
};

/*
 * Run @kind over the axes @red (input 0's rank of them) of a planned,
 * non-empty call @c, the output dense (@p->out[0], of input 0's type),
 * reading input 0 through its strides and offset. No workspace; in place
 * is safe for a dense input (every element is read before the output
 * overwrites it). Cancellation is asked about every 16K elements.
 */
enum vops_run_status ops_red_run_axes(const struct ops_call *c, enum ops_red_kind kind,
				      const bool *red, const struct vops_plan *p,
				      const struct ops_bufs *b, struct ops_runner *r);

#endif /* VNPU_LIB_OPS_REDUCE_H */
