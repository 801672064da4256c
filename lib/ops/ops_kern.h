/* SPDX-License-Identifier: MIT */
/*
 * ops_kern.h - lib/ops' compute kernels (private).
 *
 * The operator definitions (op_*.c) turn a planned call into one or more
 * primitives (struct ops_args): an element-wise operation or CAST over n
 * elements, a reduction or softmax over a rows x cols x inner view, or a
 * 2-D matrix product. ops_prim_run() (kern_sched.c) cuts a primitive into
 * chunks of bounded work and asks struct vops_ctl between them; the
 * kernels proper (kern_fp.c, kern_gemm.c) compute one chunk.
 *
 * Primitives are built only from plans that passed the operator's rules:
 * nothing here validates shapes, types or sizes again. All tensors are
 * row-major and contiguous, every operand aligned to its element size (the
 * workspace to 4 bytes). The output may start at an input (in place) for
 * the element-wise kinds, reductions, softmax and a CAST whose output
 * elements are not wider than its input's; other overlaps give unspecified
 * values but never an access outside the operands.
 */
#ifndef VNPU_LIB_OPS_KERN_H
#define VNPU_LIB_OPS_KERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"
#include "vnpu_ops.h"

/* What a primitive computes. */
enum ops_kind {
	OPS_K_ADD = 1,
	OPS_K_SUB,
	OPS_K_MUL,
	OPS_K_DIV,
	OPS_K_RELU,
	OPS_K_ABS,
	OPS_K_CAST,
	OPS_K_REDUCE_SUM,
	OPS_K_REDUCE_MAX,
	OPS_K_SOFTMAX,
	OPS_K_MATMUL,
};

/* Flags of a primitive. */
#define OPS_F_SCALAR_IN0 (1u << 0)	/* ADD..DIV: in0 is one element, broadcast */
#define OPS_F_SCALAR_IN1 (1u << 1)	/* ADD..DIV: in1 is one element, broadcast */
#define OPS_F_TRANS_A (1u << 2)		/* MATMUL: in0 is stored k x m */
#define OPS_F_TRANS_B (1u << 3)		/* MATMUL: in1 is stored n x k */

/* Chunk bounds: about 64 KiB of fp32 per chunk, 1M multiply-adds. */
#define OPS_EW_CHUNK 16384ull
#define OPS_ROW_CHUNK 16384ull
#define OPS_MAC_CHUNK (1ull << 20)

/**
 * struct ops_args - one primitive
 * @kind: enum ops_kind.
 * @dt: aclDataType of the inputs (and of the output, except for CAST).
 * @odt: CAST: aclDataType of the output; else @dt.
 * @flags: OPS_F_*.
 * @d: element-wise and CAST {n}; REDUCE_*, SOFTMAX {rows, cols, inner}
 *	(inner 0 means 1); MATMUL {m, n, k}.
 * @in0: first input (MATMUL: A).
 * @in1: second input of binary kinds (MATMUL: B), else NULL.
 * @out: output.
 * @ws: workspace (ops_prim_ws() bytes), NULL if that is 0.
 */
struct ops_args {
	uint32_t kind;
	int32_t dt, odt;
	uint32_t flags;
	uint64_t d[3];
	const void *in0;
	const void *in1;
	void *out;
	void *ws;
};

/* Drives the chunks of one operator: asks @ctl before every chunk but the first. */
struct ops_runner {
	const struct vops_ctl *ctl;
	bool started;
};

/* true if the operator must stop before its next chunk (never before the first). */
static inline bool ops_should_stop(struct ops_runner *r)
{
	if (!r->started) {
		r->started = true;
		return false;
	}
	return r->ctl && r->ctl->should_stop && r->ctl->should_stop(r->ctl->priv);
}

/*
 * Run pieces 0 .. @count - 1 of one phase: @fn(@ctx, runner, i) each, all
 * independent of each other when @independent. Through @r's parallel hook
 * (each piece with a runner of its own, asking the same struct vops_ctl)
 * when they are independent and at least VOPS_PARALLEL_MIN, else in order
 * on @r. Returns OK, or a status of a piece that was not OK (the pieces
 * not started by then are skipped).
 */
typedef enum vops_run_status (*ops_piece_fn)(const void *ctx, struct ops_runner *r, uint64_t i);

enum vops_run_status ops_run_pieces(struct ops_runner *r, uint64_t count, bool independent,
				    ops_piece_fn fn, const void *ctx);

static inline uint64_t ops_min(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static inline bool ops_lowp(int32_t dt)
{
	return dt == ACL_FLOAT16 || dt == ACL_BF16;
}

/* Bytes of one element (every type lib/ops takes; vops_dtype_size()). */
static inline uint32_t ops_esize(int32_t dt)
{
	return (uint32_t)vops_dtype_size(dt);
}

/*
 * *@ws = workspace bytes @a needs (its pointers are not looked at), 0 if
 * none: REDUCE_* and SOFTMAX with inner 0 or 1, 4 * cols; with inner > 1,
 * 4 * inner for REDUCE_MAX, 8 * inner for REDUCE_SUM and 12 * inner for
 * SOFTMAX; MATMUL: int32 4*m*k if TRANS_A plus 4*k*n if TRANS_B, the float
 * types ops_gemm_ws(). False if that exceeds VOPS_MAX_BYTES. @a's dims
 * must be within VOPS_MAX_DIM.
 */
bool ops_prim_ws(const struct ops_args *a, uint64_t *ws);

/*
 * Run @a in chunks; VOPS_RUN_OK, VOPS_RUN_ARITH (int32 division by zero)
 * or VOPS_RUN_CANCELED (output partial in both).
 */
enum vops_run_status ops_prim_run(const struct ops_args *a, struct ops_runner *r);

/* ---- kern_fp.c: one chunk ------------------------------------------------ */

/*
 * The chunk kinds ops_prim_run() hands to ops_chunk_run(), with the values
 * carried between the segments of one long row.
 */
enum ops_phase {
	OPS_PH_EW = 1,		/* element-wise or CAST: elements [row0, row1) */
	OPS_PH_ROWS,		/* REDUCE_*, SOFTMAX: whole rows [row0, row1) */
	OPS_PH_RED_SEG,		/* REDUCE_*: columns [col0, col1) of row0 */
	OPS_PH_SM_MAX,		/* SOFTMAX pass 1 (row max) on a segment */
	OPS_PH_SM_EXP,		/* SOFTMAX pass 2 (exp and sum) on a segment */
	OPS_PH_SM_NORM,		/* SOFTMAX pass 3 (normalise) on a segment */
	OPS_PH_MM_PACK_A,	/* int32 MATMUL: repack A elements [row0, row1) */
	OPS_PH_MM_PACK_B,	/* int32 MATMUL: repack B elements [row0, row1) */
	OPS_PH_MM,		/* int32 MATMUL: rows, columns and k range */
	OPS_PH_IN_ROWS,		/* inner > 1: whole rows [row0, row1) */
	OPS_PH_IN_RED,		/* inner > 1, REDUCE_*: a block of row0 */
	OPS_PH_IN_SM_MAX,	/* inner > 1, SOFTMAX pass 1 (max) on a block */
	OPS_PH_IN_SM_EXP,	/* inner > 1, SOFTMAX pass 2 (exp sum) */
	OPS_PH_IN_SM_NORM,	/* inner > 1, SOFTMAX pass 3 (normalise) */
};

/**
 * struct ops_chunk - one bounded piece of a primitive
 * @phase: enum ops_phase.
 * @carry: values carried between the segments of one long row, as the
 *	bit patterns of fp32 (or int32) values. OPS_PH_EW: carry[0] is the
 *	broadcast scalar of ADD..DIV (its bits, zero-extended), read once
 *	before the first chunk because an in-place output may overwrite it.
 * @row0: first row (or element) of the chunk.
 * @row1: end of the rows (or elements).
 * @col0: first column (MATMUL: j) of a segment.
 * @col1: end of the columns.
 * @k0: MATMUL: first k; REDUCE_*, SOFTMAX with inner > 1: first inner
 *	index of a block (a block is row0 x [col0, col1) x [k0, k1)).
 * @k1: MATMUL: end of k; REDUCE_*, SOFTMAX with inner > 1: end of inner.
 */
struct ops_chunk {
	uint32_t phase;
	uint32_t carry[3];
	uint64_t row0;
	uint64_t row1;
	uint64_t col0;
	uint64_t col1;
	uint64_t k0;
	uint64_t k1;
};

/* Run one chunk; VOPS_RUN_OK or VOPS_RUN_ARITH. */
enum vops_run_status ops_chunk_run(const struct ops_args *a, struct ops_chunk *c);

/*
 * Elements [off, off + n) of @src (of type @dt) as fp32 into dst[0, n),
 * and the reverse, rounded to nearest even (int32: truncated, saturated,
 * NaN to 0).
 */
void ops_load_f32(float *restrict dst, const void *src, int32_t dt, uint64_t off, uint64_t n);
void ops_store_f32(void *dst, int32_t dt, uint64_t off, const float *restrict src, uint64_t n);

/* ---- kern_gemm.c: fp32, fp16 and bf16 matrix products --------------------- */

/*
 * Tile of one chunk of a float MATMUL (m x n x k): rows, columns and k of
 * the output block one chunk computes, at most OPS_MAC_CHUNK multiply-adds
 * (at least one row, column and k).
 */
void ops_gemm_tile(uint64_t m, uint64_t n, uint64_t k, uint64_t *ib, uint64_t *jb, uint64_t *kb);

/*
 * *@ws = workspace of a float MATMUL: none for fp32; for fp16/bf16, A and
 * B as fp32 (4*m*k + 4*k*n, each in its stored order), then an fp32 output
 * tile (4 * ib * jb of ops_gemm_tile()). False if that exceeds
 * VOPS_MAX_BYTES.
 */
bool ops_gemm_ws(int32_t dt, uint64_t m, uint64_t n, uint64_t k, uint64_t *ws);

/* Run a float MATMUL primitive in chunks (ops_prim_run() calls it). */
enum vops_run_status ops_gemm_run(const struct ops_args *a, struct ops_runner *r);

#endif /* VNPU_LIB_OPS_KERN_H */
