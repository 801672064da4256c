// SPDX-License-Identifier: MIT
/*
 * kern_sched.c - a primitive's workspace and its chunks (ops_kern.h).
 *
 * Moved from the kernel module's vnpu_ops.c, which cut an operator into
 * chunks so that each could run in its own kernel_fpu_begin() section and
 * cancellation could be polled between them. The FPU sections are gone;
 * the chunks stay, for the same second reason: vnpu-engined asks its
 * struct vops_ctl between two chunks (ops_should_stop()), so a timeout or
 * a killed client stops an operator within one chunk of work (about 64 KiB
 * of fp32 or 1M multiply-adds).
 */
#include <limits.h>
#include <stdatomic.h>

#include "ops_kern.h"

/* Element-wise chunks per piece when an operation is run in parallel. */
#define OPS_EW_PIECE_CHUNKS 4ull

/* *r = a * b * c * es bytes, false above VOPS_MAX_BYTES; a, b, c <= VOPS_MAX_DIM. */
static bool bytes3(uint64_t a, uint64_t b, uint64_t c, uint64_t es, uint64_t *r)
{
	uint64_t p = a * b;	/* at most 2^62: cannot wrap */

	if (c && p > VOPS_MAX_BYTES / es / c)
		return false;
	*r = p * c * es;
	return true;
}

bool ops_prim_ws(const struct ops_args *a, uint64_t *ws)
{
	uint64_t inner = a->d[2] ? a->d[2] : 1, part;

	*ws = 0;
	switch (a->kind) {
	case OPS_K_REDUCE_SUM:
	case OPS_K_REDUCE_MAX:
	case OPS_K_SOFTMAX:
		/* inner 1: a row's values; else per-inner accumulators */
		if (inner == 1)
			return bytes3(a->d[1], 1, 1, 4, ws);
		return bytes3(inner, a->kind == OPS_K_REDUCE_MAX ? 1 :
			      a->kind == OPS_K_REDUCE_SUM ? 2 : 3, 1, 4, ws);
	case OPS_K_MATMUL:
		if (a->dt != ACL_INT32)
			return ops_gemm_ws(a->dt, a->d[0], a->d[1], a->d[2], ws);
		if ((a->flags & OPS_F_TRANS_A) && !bytes3(a->d[0], a->d[2], 1, 4, ws))
			return false;
		if (!(a->flags & OPS_F_TRANS_B))
			return true;
		if (!bytes3(a->d[2], a->d[1], 1, 4, &part))
			return false;
		*ws += part;	/* both at most 2^40: cannot wrap */
		return *ws <= VOPS_MAX_BYTES;
	default:
		return true;
	}
}

/* Runs one chunk, unless the operator must stop before it. */
static enum vops_run_status step(const struct ops_args *a, struct ops_runner *r, struct ops_chunk *c)
{
	if (ops_should_stop(r))
		return VOPS_RUN_CANCELED;
	return ops_chunk_run(a, c);
}

/* Runs @c's phase over [from, to) in pieces of at most @step_len. */
static enum vops_run_status run_range(const struct ops_args *a, struct ops_runner *r,
				      struct ops_chunk *c, uint64_t from, uint64_t to,
				      uint64_t step_len)
{
	enum vops_run_status ret;
	uint64_t i;

	for (i = from; i < to; i += step_len) {
		c->row0 = i;
		c->row1 = i + ops_min(step_len, to - i);
		ret = step(a, r, c);
		if (ret)
			return ret;
	}
	return VOPS_RUN_OK;
}

/* Runs @c's phase over [0, total) in pieces of at most @step_len. */
static enum vops_run_status run_linear(const struct ops_args *a, struct ops_runner *r,
				       struct ops_chunk *c, uint64_t total, uint64_t step_len)
{
	return run_range(a, r, c, 0, total, step_len);
}

/* The pieces of one ops_run_pieces() call run through a parallel hook. */
struct ops_pieces {
	ops_piece_fn fn;
	const void *ctx;
	const struct vops_ctl *ctl;
	bool first_started;		/* the caller's runner had run a chunk */
	atomic_int status;		/* the first status that was not OK */
};

static void ops_piece(void *arg, unsigned int i)
{
	struct ops_pieces *p = arg;
	/* Piece 0 keeps the rule that the first chunk always runs. */
	struct ops_runner r = { .ctl = p->ctl, .started = i || p->first_started };
	enum vops_run_status st;
	int ok = VOPS_RUN_OK;

	if (atomic_load_explicit(&p->status, memory_order_relaxed) != VOPS_RUN_OK)
		return;
	st = p->fn(p->ctx, &r, i);
	if (st != VOPS_RUN_OK)
		atomic_compare_exchange_strong(&p->status, &ok, (int)st);
}

enum vops_run_status ops_run_pieces(struct ops_runner *r, uint64_t count, bool independent,
				    ops_piece_fn fn, const void *ctx)
{
	enum vops_run_status st;
	uint64_t i;

	if (independent && count >= VOPS_PARALLEL_MIN && count <= UINT_MAX && r->ctl &&
	    r->ctl->parallel) {
		struct ops_pieces p = {
			.fn = fn,
			.ctx = ctx,
			.ctl = r->ctl,
			.first_started = r->started,
			.status = VOPS_RUN_OK,
		};

		r->started = true;
		r->ctl->parallel(r->ctl->priv, (unsigned int)count, ops_piece, &p);
		return (enum vops_run_status)atomic_load(&p.status);
	}
	for (i = 0; i < count; i++) {
		st = fn(ctx, r, i);
		if (st)
			return st;
	}
	return VOPS_RUN_OK;
}

struct ew_pieces {
	const struct ops_args *a;
	struct ops_chunk c;		/* the phase and the scalar's carry */
};

/* Piece @i of an element-wise run: OPS_EW_PIECE_CHUNKS chunks (or the rest). */
static enum vops_run_status ew_piece(const void *ctx, struct ops_runner *r, uint64_t i)
{
	const struct ew_pieces *p = ctx;
	const uint64_t len = OPS_EW_PIECE_CHUNKS * OPS_EW_CHUNK, start = i * len;
	struct ops_chunk c = p->c;

	return run_range(p->a, r, &c, start, start + ops_min(len, p->a->d[0] - start),
			 OPS_EW_CHUNK);
}

/*
 * Element-wise kinds and CAST. A broadcast scalar is read once, here, and
 * travels as bits in the chunk's carry: an in-place output starting at the
 * scalar overwrites it with the first chunk. Pieces are independent unless
 * a CAST changes the element size: in place, its output runs over input
 * that later elements still need.
 */
static enum vops_run_status run_ew(const struct ops_args *a, struct ops_runner *r)
{
	const uint64_t len = OPS_EW_PIECE_CHUNKS * OPS_EW_CHUNK;
	struct ew_pieces p = { .a = a, .c = { .phase = OPS_PH_EW } };
	const void *s = NULL;

	if (a->flags & OPS_F_SCALAR_IN0)
		s = a->in0;
	else if (a->flags & OPS_F_SCALAR_IN1)
		s = a->in1;
	if (s)
		p.c.carry[0] = ops_lowp(a->dt) ? *(const uint16_t *)s : *(const uint32_t *)s;
	return ops_run_pieces(r, (a->d[0] + len - 1) / len,
			      a->kind != OPS_K_CAST || ops_esize(a->odt) == ops_esize(a->dt),
			      ew_piece, &p);
}

/* Runs @phase over the columns of row @row in segments. */
static enum vops_run_status run_segments(const struct ops_args *a, struct ops_runner *r,
					 struct ops_chunk *c, uint32_t phase, uint64_t row,
					 uint64_t cols)
{
	enum vops_run_status ret;
	uint64_t j;

	c->phase = phase;
	c->row0 = row;
	c->row1 = row + 1;
	for (j = 0; j < cols; j += OPS_ROW_CHUNK) {
		c->col0 = j;
		c->col1 = j + ops_min(OPS_ROW_CHUNK, cols - j);
		ret = step(a, r, c);
		if (ret)
			return ret;
	}
	return VOPS_RUN_OK;
}

/*
 * REDUCE_* and SOFTMAX: several short rows per chunk, or one long row in
 * column segments, carrying the row's running max/sum between them.
 */
static enum vops_run_status run_rows(const struct ops_args *a, struct ops_runner *r)
{
	uint64_t rows = a->d[0], cols = a->d[1], row;
	bool softmax = a->kind == OPS_K_SOFTMAX;
	struct ops_chunk c = { .phase = 0 };
	enum vops_run_status ret;

	if (cols <= OPS_ROW_CHUNK) {
		c.phase = OPS_PH_ROWS;
		return run_linear(a, r, &c, rows, OPS_ROW_CHUNK / cols);
	}

	for (row = 0; row < rows; row++) {
		if (!softmax) {
			ret = run_segments(a, r, &c, OPS_PH_RED_SEG, row, cols);
			if (ret)
				return ret;
			continue;
		}
		ret = run_segments(a, r, &c, OPS_PH_SM_MAX, row, cols);
		if (!ret)
			ret = run_segments(a, r, &c, OPS_PH_SM_EXP, row, cols);
		if (!ret)
			ret = run_segments(a, r, &c, OPS_PH_SM_NORM, row, cols);
		if (ret)
			return ret;
	}
	return VOPS_RUN_OK;
}

/*
 * Runs @phase over every column segment of the block row @c->row0 x inner
 * [@c->k0, @c->k1), @step_len columns per chunk.
 */
static enum vops_run_status run_col_blocks(const struct ops_args *a, struct ops_runner *r,
					   struct ops_chunk *c, uint32_t phase, uint64_t step_len)
{
	uint64_t cols = a->d[1], j;
	enum vops_run_status ret;

	c->phase = phase;
	for (j = 0; j < cols; j += step_len) {
		c->col0 = j;
		c->col1 = j + ops_min(step_len, cols - j);
		ret = step(a, r, c);
		if (ret)
			return ret;
	}
	return VOPS_RUN_OK;
}

/*
 * REDUCE_* and SOFTMAX with inner > 1 (rows x cols x inner, along cols):
 * several whole rows per chunk when a row is at most a chunk of elements;
 * otherwise each row in blocks of inner indices, each block's columns in
 * segments of at most a chunk of elements, the per-inner max and sums
 * carried between segments in the workspace.
 */
static enum vops_run_status run_inner(const struct ops_args *a, struct ops_runner *r)
{
	uint64_t rows = a->d[0], cols = a->d[1], inner = a->d[2];
	bool softmax = a->kind == OPS_K_SOFTMAX;
	struct ops_chunk c = { .phase = 0 };
	enum vops_run_status ret;
	uint64_t row, k, kb, step_len;

	if (cols <= OPS_ROW_CHUNK / inner) {
		c.phase = OPS_PH_IN_ROWS;
		return run_linear(a, r, &c, rows, OPS_ROW_CHUNK / (cols * inner));
	}

	kb = ops_min(inner, OPS_ROW_CHUNK);
	step_len = OPS_ROW_CHUNK / kb;
	for (row = 0; row < rows; row++) {
		c.row0 = row;
		c.row1 = row + 1;
		for (k = 0; k < inner; k += kb) {
			c.k0 = k;
			c.k1 = k + ops_min(kb, inner - k);
			if (!softmax) {
				ret = run_col_blocks(a, r, &c, OPS_PH_IN_RED, step_len);
			} else {
				ret = run_col_blocks(a, r, &c, OPS_PH_IN_SM_MAX, step_len);
				if (!ret)
					ret = run_col_blocks(a, r, &c, OPS_PH_IN_SM_EXP, step_len);
				if (!ret)
					ret = run_col_blocks(a, r, &c, OPS_PH_IN_SM_NORM, step_len);
			}
			if (ret)
				return ret;
		}
	}
	return VOPS_RUN_OK;
}

/*
 * int32 MATMUL: repack a transposed A or B into the workspace, then
 * compute whole output rows per chunk or, when one row is more than a
 * chunk of work, a row in blocks of columns (j) and of k.
 */
static enum vops_run_status run_matmul_i32(const struct ops_args *a, struct ops_runner *r)
{
	uint64_t m = a->d[0], n = a->d[1], k = a->d[2];
	struct ops_chunk c = { .phase = 0 };
	enum vops_run_status ret;
	uint64_t i, j, kk, jb, kb;

	if (a->flags & OPS_F_TRANS_A) {
		c.phase = OPS_PH_MM_PACK_A;
		ret = run_linear(a, r, &c, m * k, OPS_EW_CHUNK);
		if (ret)
			return ret;
	}
	if (a->flags & OPS_F_TRANS_B) {
		c.phase = OPS_PH_MM_PACK_B;
		ret = run_linear(a, r, &c, k * n, OPS_EW_CHUNK);
		if (ret)
			return ret;
	}
	c.phase = OPS_PH_MM;

	/* cost of a row: its multiply-adds plus a per-k overhead (short rows) */
	if (k * (n + 16) <= OPS_MAC_CHUNK) {
		uint64_t rows = ops_min(OPS_MAC_CHUNK / (k * (n + 16)),
					(OPS_EW_CHUNK + n - 1) / n);

		c.col1 = n;
		c.k1 = k;
		for (i = 0; i < m; i += rows) {
			c.row0 = i;
			c.row1 = i + ops_min(rows, m - i);
			ret = step(a, r, &c);
			if (ret)
				return ret;
		}
		return VOPS_RUN_OK;
	}

	jb = ops_min(n, OPS_MAC_CHUNK);
	kb = OPS_MAC_CHUNK / (jb + 16) + 1;
	for (i = 0; i < m; i++) {
		c.row0 = i;
		c.row1 = i + 1;
		for (j = 0; j < n; j += jb) {
			c.col0 = j;
			c.col1 = j + ops_min(jb, n - j);
			for (kk = 0; kk < k; kk += kb) {
				c.k0 = kk;
				c.k1 = kk + ops_min(kb, k - kk);
				ret = step(a, r, &c);
				if (ret)
					return ret;
			}
		}
	}
	return VOPS_RUN_OK;
}

enum vops_run_status ops_prim_run(const struct ops_args *a, struct ops_runner *r)
{
	switch (a->kind) {
	case OPS_K_REDUCE_SUM:
	case OPS_K_REDUCE_MAX:
	case OPS_K_SOFTMAX:
		if (a->d[2] > 1)
			return run_inner(a, r);
		return run_rows(a, r);
	case OPS_K_MATMUL:
		if (a->dt == ACL_INT32)
			return run_matmul_i32(a, r);
		return ops_gemm_run(a, r);
	default:
		return run_ew(a, r);
	}
}
