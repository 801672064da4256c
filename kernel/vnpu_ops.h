/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vnpu compute kernels ("operators").
 *
 * A self-contained library: it builds inside the kernel module and, with
 * VNPU_OPS_HOST defined, as ordinary userspace C for the host unit tests.
 *
 * Two objects make it up:
 *  - vnpu_ops.c, integer code compiled with the kernel's normal flags:
 *    vnpu_op_sizes() validates an operator and computes its buffer sizes,
 *    vnpu_op_run() splits the work into bounded chunks and runs each chunk
 *    inside its own FPU section, checking for cancellation and calling
 *    cond_resched() between chunks.
 *  - vnpu_ops_fp.c, compiled with SSE2 enabled: the float kernels. Every
 *    function in it may touch FPU/SSE registers, so in the kernel it must
 *    only be entered between kernel_fpu_begin() and kernel_fpu_end(). Only
 *    pointers and integers cross between the two objects.
 *
 * All tensors are row-major and contiguous. Every operand must be aligned
 * to its element size (the workspace to 4 bytes). The output may start at
 * the same address as an input (in place) for ADD, SUB, MUL, DIV, RELU,
 * ABS, REDUCE_*, SOFTMAX and a CAST whose output elements are not wider
 * than its input's; any other overlap between operands (MATMUL's output
 * and inputs, the workspace and anything) gives unspecified values, but
 * never an access outside the operands.
 */
#ifndef VNPU_OPS_H
#define VNPU_OPS_H

#ifdef VNPU_OPS_HOST
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;
#else
#include <linux/errno.h>
#include <linux/types.h>
#endif

/* The operator ABI: op codes, data types and flags. */
#include "vnpu_drm.h"

/* Limits enforced by vnpu_op_sizes(). */
#define VNPU_OPS_MAX_DIM (1ull << 31)
#define VNPU_OPS_MAX_BYTES (1ull << 40)

/**
 * struct vnpu_op_args - one operator invocation
 * @op: VNPU_OP_*.
 * @dtype: VNPU_DTYPE_* of the inputs (and of the output, except for CAST).
 * @out_dtype: CAST: VNPU_DTYPE_* of the output (0 is not allowed); other
 *	operators: 0 or @dtype.
 * @flags: VNPU_OP_F_* allowed for @op: SCALAR_IN0 or SCALAR_IN1 (not both)
 *	for ADD/SUB/MUL/DIV, TRANS_A and TRANS_B for MATMUL, none otherwise.
 * @dims: shape, all used entries >= 1 and <= VNPU_OPS_MAX_DIM, unused 0:
 *	element-wise and CAST {n}; REDUCE_* and SOFTMAX {rows, cols, inner}
 *	(the tensor is rows x cols x inner, worked along cols; inner 0 means
 *	1); MATMUL {m, n, k}.
 * @in0: first input (MATMUL: A).
 * @in1: second input of binary operators (MATMUL: B); NULL otherwise.
 * @out: output.
 * @ws: workspace, at least vnpu_op_sizes().ws bytes; may be NULL if that
 *	is 0.
 * @ws_size: bytes at @ws.
 */
struct vnpu_op_args {
	u32 op;
	u32 dtype;
	u32 out_dtype;
	u32 flags;
	u64 dims[3];
	const void *in0;
	const void *in1;
	void *out;
	void *ws;
	u64 ws_size;
};

/**
 * struct vnpu_op_sizes - bytes each operand of an operator must have
 * @in0: first input.
 * @in1: second input, 0 for unary operators.
 * @out: output.
 * @ws: workspace.
 */
struct vnpu_op_sizes {
	u64 in0;
	u64 in1;
	u64 out;
	u64 ws;
};

/**
 * struct vnpu_op_ctl - how a running operator is controlled
 * @should_stop: called between chunks (never inside an FPU section); a
 *	true return makes vnpu_op_run() return -ECANCELED. May be NULL.
 * @priv: argument for @should_stop.
 */
struct vnpu_op_ctl {
	bool (*should_stop)(void *priv);
	void *priv;
};

int vnpu_op_sizes(const struct vnpu_op_args *a, struct vnpu_op_sizes *sz);
int vnpu_op_run(const struct vnpu_op_args *a, const struct vnpu_op_ctl *ctl);

/*
 * Scalar conversions, from vnpu_ops_fp.c. They take or return float, so in
 * the kernel only float-compiled code inside an FPU section may call them;
 * the declarations are hidden from everything else.
 */
#if defined(VNPU_OPS_HOST) || defined(VNPU_OPS_FP_UNIT)
u16 vnpu_f32_to_f16(float f);
float vnpu_f16_to_f32(u16 h);
u16 vnpu_f32_to_bf16(float f);
float vnpu_bf16_to_f32(u16 h);
#endif

#ifdef VNPU_OPS_INTERNAL
/*
 * Between vnpu_ops.c and vnpu_ops_fp.c only: one chunk of work, described
 * with integers. vnpu_ops_fp_chunk() runs it; the caller holds the FPU.
 */
enum vnpu_ops_phase {
	VNPU_OPS_PH_EW = 1,	/* element-wise or CAST: elements [row0, row1) */
	VNPU_OPS_PH_ROWS,	/* REDUCE_*, SOFTMAX: whole rows [row0, row1) */
	VNPU_OPS_PH_RED_SEG,	/* REDUCE_*: columns [col0, col1) of row0 */
	VNPU_OPS_PH_SM_MAX,	/* SOFTMAX pass 1 (row max) on a segment */
	VNPU_OPS_PH_SM_EXP,	/* SOFTMAX pass 2 (exp and sum) on a segment */
	VNPU_OPS_PH_SM_NORM,	/* SOFTMAX pass 3 (normalise) on a segment */
	VNPU_OPS_PH_MM_PACK_A,	/* MATMUL: repack A elements [row0, row1) */
	VNPU_OPS_PH_MM_PACK_B,	/* MATMUL: repack B elements [row0, row1) */
	VNPU_OPS_PH_MM,		/* MATMUL: rows, columns and k range */
	VNPU_OPS_PH_IN_ROWS,	/* inner > 1: whole rows [row0, row1) */
	VNPU_OPS_PH_IN_RED,	/* inner > 1, REDUCE_*: a block of row0 */
	VNPU_OPS_PH_IN_SM_MAX,	/* inner > 1, SOFTMAX pass 1 (max) on a block */
	VNPU_OPS_PH_IN_SM_EXP,	/* inner > 1, SOFTMAX pass 2 (exp sum) */
	VNPU_OPS_PH_IN_SM_NORM,	/* inner > 1, SOFTMAX pass 3 (normalise) */
};

/* Chunk bounds: about 64 KiB of fp32 per chunk, 1M multiply-adds. */
#define VNPU_OPS_EW_CHUNK 16384ull
#define VNPU_OPS_ROW_CHUNK 16384ull
#define VNPU_OPS_MAC_CHUNK (1ull << 20)

/**
 * struct vnpu_ops_chunk - one bounded piece of an operator
 * @phase: enum vnpu_ops_phase.
 * @carry: values carried between the segments of one long row, as the
 *	bit patterns of fp32 (or int32) values; only the float side
 *	interprets them. VNPU_OPS_PH_EW: carry[0] is the broadcast scalar of
 *	ADD..DIV (its bits, zero-extended), read once before the first chunk
 *	because an in-place output may overwrite it.
 * @row0: first row (or element) of the chunk.
 * @row1: end of the rows (or elements).
 * @col0: first column (MATMUL: j) of a segment.
 * @col1: end of the columns.
 * @k0: MATMUL: first k; REDUCE_*, SOFTMAX with inner > 1: first inner
 *	index of a block (a block is row0 x [col0, col1) x [k0, k1)).
 * @k1: MATMUL: end of k; REDUCE_*, SOFTMAX with inner > 1: end of inner.
 */
struct vnpu_ops_chunk {
	u32 phase;
	u32 carry[3];
	u64 row0;
	u64 row1;
	u64 col0;
	u64 col1;
	u64 k0;
	u64 k1;
};

int vnpu_ops_fp_chunk(const struct vnpu_op_args *a, struct vnpu_ops_chunk *c);
#endif /* VNPU_OPS_INTERNAL */

#endif /* VNPU_OPS_H */
