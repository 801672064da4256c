// SPDX-License-Identifier: GPL-2.0
/*
 * vnpu compute kernels: validation, sizes and chunk scheduling.
 *
 * This file is integer-only and compiled with the kernel's normal flags.
 * It never touches float state itself: vnpu_op_run() cuts an operator into
 * chunks of bounded work (struct vnpu_ops_chunk) and hands each one to
 * vnpu_ops_fp_chunk() inside its own vnpu_fpu_begin()/vnpu_fpu_end()
 * section. Between chunks, outside the FPU section, it polls for
 * cancellation and lets the scheduler run.
 */
#define VNPU_OPS_INTERNAL
#include "vnpu_ops.h"

#ifdef VNPU_OPS_HOST
#include <string.h>

static inline void vnpu_fpu_begin(void) { }
static inline void vnpu_fpu_end(void) { }
static inline void vnpu_ops_resched(void) { }
#else
#include <linux/sched.h>
#include <linux/string.h>
#include <asm/fpu/api.h>

static inline void vnpu_fpu_begin(void)
{
	kernel_fpu_begin();
}

static inline void vnpu_fpu_end(void)
{
	kernel_fpu_end();
}

static inline void vnpu_ops_resched(void)
{
	cond_resched();
}
#endif

static u64 vnpu_ops_min(u64 a, u64 b)
{
	return a < b ? a : b;
}

static u32 vnpu_dtype_size(u32 dtype)
{
	switch (dtype) {
	case VNPU_DTYPE_F32:
	case VNPU_DTYPE_I32:
		return 4;
	case VNPU_DTYPE_F16:
	case VNPU_DTYPE_BF16:
		return 2;
	default:
		return 0;
	}
}

static bool vnpu_dtype_lowp(u32 dtype)
{
	return dtype == VNPU_DTYPE_F16 || dtype == VNPU_DTYPE_BF16;
}

/* *r = a * b * es bytes; a and b are at most VNPU_OPS_MAX_DIM. */
static int vnpu_ops_bytes(u64 a, u64 b, u64 es, u64 *r)
{
	u64 p = a * b;	/* at most 2^62: cannot wrap */

	if (p > VNPU_OPS_MAX_BYTES / es)
		return -EOVERFLOW;
	*r = p * es;
	return 0;
}

/* *r = a * b * c * es bytes; a, b and c are at most VNPU_OPS_MAX_DIM. */
static int vnpu_ops_bytes3(u64 a, u64 b, u64 c, u64 es, u64 *r)
{
	u64 p = a * b;	/* at most 2^62: cannot wrap */

	if (p > VNPU_OPS_MAX_BYTES / es / c)
		return -EOVERFLOW;
	*r = p * c * es;
	return 0;
}

/* REDUCE_* and SOFTMAX: dims[2] is inner, 0 meaning 1. */
static u64 vnpu_ops_inner(const struct vnpu_op_args *a)
{
	return a->dims[2] ? a->dims[2] : 1;
}

static int vnpu_ops_add_bytes(u64 *acc, u64 v)
{
	/* both at most VNPU_OPS_MAX_BYTES: the sum cannot wrap */
	if (*acc + v > VNPU_OPS_MAX_BYTES)
		return -EOVERFLOW;
	*acc += v;
	return 0;
}

/**
 * vnpu_op_sizes() - validate an operator and compute its operand sizes
 * @a: the operator; op, dtype, out_dtype, flags and dims are checked, the
 *	pointers and ws_size are not looked at.
 * @sz: out: bytes that in0, in1, out and the workspace must have (in1 is 0
 *	for unary operators, ws 0 for operators without workspace).
 *
 * Pure integer code, safe anywhere. The workspace formula is part of the
 * ABI: for REDUCE_* and SOFTMAX with inner (dims[2]) 0 or 1, 4 * cols; with
 * inner > 1, 4 * inner for REDUCE_MAX, 8 * inner for REDUCE_SUM and
 * 12 * inner for SOFTMAX; for MATMUL 4*m*k if TRANS_A or lowp (F16, BF16),
 * plus 4*k*n if TRANS_B or lowp, plus 4*n if lowp; 0 for the others.
 *
 * Return: 0; -EINVAL for an unknown op or dtype, a bad out_dtype, flags not
 * allowed for the op (or both SCALAR flags), a zero used dim (dims[2] of
 * REDUCE_* and SOFTMAX may be 0), a nonzero unused dim, SOFTMAX on I32;
 * -EOVERFLOW if a dim exceeds VNPU_OPS_MAX_DIM or any byte size exceeds
 * VNPU_OPS_MAX_BYTES.
 */
int vnpu_op_sizes(const struct vnpu_op_args *a, struct vnpu_op_sizes *sz)
{
	const u64 *d = a->dims;
	u32 allowed = 0, ndims, es, i;
	u64 inner;
	bool lowp;
	int ret;

	memset(sz, 0, sizeof(*sz));

	es = vnpu_dtype_size(a->dtype);
	if (!es)
		return -EINVAL;
	lowp = vnpu_dtype_lowp(a->dtype);

	switch (a->op) {
	case VNPU_OP_ADD:
	case VNPU_OP_SUB:
	case VNPU_OP_MUL:
	case VNPU_OP_DIV:
		allowed = VNPU_OP_F_SCALAR_IN0 | VNPU_OP_F_SCALAR_IN1;
		ndims = 1;
		break;
	case VNPU_OP_RELU:
	case VNPU_OP_ABS:
	case VNPU_OP_CAST:
		ndims = 1;
		break;
	case VNPU_OP_SOFTMAX:
	case VNPU_OP_REDUCE_SUM:
	case VNPU_OP_REDUCE_MAX:
		ndims = 3;	/* dims[2] (inner) may be 0 */
		break;
	case VNPU_OP_MATMUL:
		allowed = VNPU_OP_F_TRANS_A | VNPU_OP_F_TRANS_B;
		ndims = 3;
		break;
	default:
		return -EINVAL;
	}

	if (a->op == VNPU_OP_SOFTMAX && a->dtype == VNPU_DTYPE_I32)
		return -EINVAL;
	if (a->flags & ~allowed)
		return -EINVAL;
	if ((a->flags & VNPU_OP_F_SCALAR_IN0) && (a->flags & VNPU_OP_F_SCALAR_IN1))
		return -EINVAL;

	if (a->op == VNPU_OP_CAST) {
		if (!vnpu_dtype_size(a->out_dtype))
			return -EINVAL;
	} else if (a->out_dtype && a->out_dtype != a->dtype) {
		return -EINVAL;
	}

	for (i = 0; i < 3; i++) {
		if (i >= ndims) {
			if (d[i])
				return -EINVAL;
		} else if (!d[i] && !(i == 2 && a->op != VNPU_OP_MATMUL)) {
			return -EINVAL;
		}
	}
	for (i = 0; i < ndims; i++)
		if (d[i] > VNPU_OPS_MAX_DIM)
			return -EOVERFLOW;

	switch (a->op) {
	case VNPU_OP_ADD:
	case VNPU_OP_SUB:
	case VNPU_OP_MUL:
	case VNPU_OP_DIV:
		ret = vnpu_ops_bytes(d[0], 1, es, &sz->out);
		if (ret)
			return ret;
		sz->in0 = (a->flags & VNPU_OP_F_SCALAR_IN0) ? es : sz->out;
		sz->in1 = (a->flags & VNPU_OP_F_SCALAR_IN1) ? es : sz->out;
		return 0;
	case VNPU_OP_RELU:
	case VNPU_OP_ABS:
		ret = vnpu_ops_bytes(d[0], 1, es, &sz->out);
		sz->in0 = sz->out;
		return ret;
	case VNPU_OP_CAST:
		ret = vnpu_ops_bytes(d[0], 1, es, &sz->in0);
		if (!ret)
			ret = vnpu_ops_bytes(d[0], 1, vnpu_dtype_size(a->out_dtype),
					     &sz->out);
		return ret;
	case VNPU_OP_REDUCE_SUM:
	case VNPU_OP_REDUCE_MAX:
	case VNPU_OP_SOFTMAX:
		inner = vnpu_ops_inner(a);
		ret = vnpu_ops_bytes3(d[0], d[1], inner, es, &sz->in0);
		if (ret)
			return ret;
		if (a->op == VNPU_OP_SOFTMAX)
			sz->out = sz->in0;
		else
			ret = vnpu_ops_bytes(d[0], inner, es, &sz->out);
		if (ret)
			return ret;
		/* inner 1: a row's values; else per-inner accumulators */
		if (inner == 1)
			return vnpu_ops_bytes(d[1], 1, 4, &sz->ws);
		return vnpu_ops_bytes(inner, a->op == VNPU_OP_REDUCE_MAX ? 1 :
				      a->op == VNPU_OP_REDUCE_SUM ? 2 : 3, 4, &sz->ws);
	default: /* VNPU_OP_MATMUL: dims m, n, k */
		break;
	}

	ret = vnpu_ops_bytes(d[0], d[2], es, &sz->in0);
	if (!ret)
		ret = vnpu_ops_bytes(d[2], d[1], es, &sz->in1);
	if (!ret)
		ret = vnpu_ops_bytes(d[0], d[1], es, &sz->out);
	if (ret)
		return ret;

	if ((a->flags & VNPU_OP_F_TRANS_A) || lowp) {
		u64 b;

		ret = vnpu_ops_bytes(d[0], d[2], 4, &b);
		if (!ret)
			ret = vnpu_ops_add_bytes(&sz->ws, b);
	}
	if (!ret && ((a->flags & VNPU_OP_F_TRANS_B) || lowp)) {
		u64 b;

		ret = vnpu_ops_bytes(d[2], d[1], 4, &b);
		if (!ret)
			ret = vnpu_ops_add_bytes(&sz->ws, b);
	}
	if (!ret && lowp)
		ret = vnpu_ops_add_bytes(&sz->ws, d[1] * 4);
	return ret;
}

/* Drives the chunks of one vnpu_op_run() call. */
struct vnpu_ops_runner {
	const struct vnpu_op_args *a;
	const struct vnpu_op_ctl *ctl;
	bool started;
};

/*
 * Runs one chunk in its own FPU section. Before every chunk but the first,
 * outside any FPU section, checks for cancellation and reschedules.
 */
static int vnpu_ops_step(struct vnpu_ops_runner *r, struct vnpu_ops_chunk *c)
{
	int ret;

	if (r->started) {
		if (r->ctl && r->ctl->should_stop && r->ctl->should_stop(r->ctl->priv))
			return -ECANCELED;
		vnpu_ops_resched();
	}
	r->started = true;

	vnpu_fpu_begin();
	ret = vnpu_ops_fp_chunk(r->a, c);
	vnpu_fpu_end();
	return ret;
}

/*
 * Runs @c's phase over [0, total) in pieces of at most @step; @c's carry
 * reaches every piece.
 */
static int vnpu_ops_run_linear(struct vnpu_ops_runner *r, struct vnpu_ops_chunk *c,
			       u64 total, u64 step)
{
	u64 i;
	int ret;

	for (i = 0; i < total; i += step) {
		c->row0 = i;
		c->row1 = i + vnpu_ops_min(step, total - i);
		ret = vnpu_ops_step(r, c);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Element-wise operators and CAST. A broadcast scalar is read once, here,
 * and travels as bits in the chunk's carry: an in-place output starting at
 * the scalar overwrites it with the first chunk.
 */
static int vnpu_ops_run_ew(struct vnpu_ops_runner *r)
{
	const struct vnpu_op_args *a = r->a;
	struct vnpu_ops_chunk c = { .phase = VNPU_OPS_PH_EW };
	const void *s = NULL;

	if (a->flags & VNPU_OP_F_SCALAR_IN0)
		s = a->in0;
	else if (a->flags & VNPU_OP_F_SCALAR_IN1)
		s = a->in1;
	if (s)
		c.carry[0] = vnpu_dtype_lowp(a->dtype) ? *(const u16 *)s : *(const u32 *)s;
	return vnpu_ops_run_linear(r, &c, a->dims[0], VNPU_OPS_EW_CHUNK);
}

/* Runs @phase over the columns of row @row in segments. */
static int vnpu_ops_run_segments(struct vnpu_ops_runner *r, struct vnpu_ops_chunk *c,
				 u32 phase, u64 row, u64 cols)
{
	u64 j;
	int ret;

	c->phase = phase;
	c->row0 = row;
	c->row1 = row + 1;
	for (j = 0; j < cols; j += VNPU_OPS_ROW_CHUNK) {
		c->col0 = j;
		c->col1 = j + vnpu_ops_min(VNPU_OPS_ROW_CHUNK, cols - j);
		ret = vnpu_ops_step(r, c);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * REDUCE_* and SOFTMAX: several short rows per chunk, or one long row in
 * column segments, carrying the row's running max/sum between them.
 */
static int vnpu_ops_run_rows(struct vnpu_ops_runner *r)
{
	u64 rows = r->a->dims[0], cols = r->a->dims[1], row;
	bool softmax = r->a->op == VNPU_OP_SOFTMAX;
	struct vnpu_ops_chunk c = { };
	int ret;

	if (cols <= VNPU_OPS_ROW_CHUNK) {
		c.phase = VNPU_OPS_PH_ROWS;
		return vnpu_ops_run_linear(r, &c, rows, VNPU_OPS_ROW_CHUNK / cols);
	}

	for (row = 0; row < rows; row++) {
		if (!softmax) {
			ret = vnpu_ops_run_segments(r, &c, VNPU_OPS_PH_RED_SEG, row, cols);
			if (ret)
				return ret;
			continue;
		}
		ret = vnpu_ops_run_segments(r, &c, VNPU_OPS_PH_SM_MAX, row, cols);
		if (!ret)
			ret = vnpu_ops_run_segments(r, &c, VNPU_OPS_PH_SM_EXP, row, cols);
		if (!ret)
			ret = vnpu_ops_run_segments(r, &c, VNPU_OPS_PH_SM_NORM, row, cols);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Runs @phase over every column segment of the block row @c->row0 x inner
 * [@c->k0, @c->k1), @step columns per chunk.
 */
static int vnpu_ops_run_col_blocks(struct vnpu_ops_runner *r, struct vnpu_ops_chunk *c,
				   u32 phase, u64 step)
{
	u64 cols = r->a->dims[1], j;
	int ret;

	c->phase = phase;
	for (j = 0; j < cols; j += step) {
		c->col0 = j;
		c->col1 = j + vnpu_ops_min(step, cols - j);
		ret = vnpu_ops_step(r, c);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * REDUCE_* and SOFTMAX with inner > 1 (rows x cols x inner, along cols):
 * several whole rows per chunk when a row is at most a chunk of elements;
 * otherwise each row in blocks of inner indices, each block's columns in
 * segments of at most a chunk of elements, the per-inner max and sums
 * carried between segments in the workspace.
 */
static int vnpu_ops_run_inner(struct vnpu_ops_runner *r)
{
	u64 rows = r->a->dims[0], cols = r->a->dims[1], inner = r->a->dims[2];
	bool softmax = r->a->op == VNPU_OP_SOFTMAX;
	struct vnpu_ops_chunk c = { };
	u64 row, k, kb, step;
	int ret;

	if (cols <= VNPU_OPS_ROW_CHUNK / inner) {
		c.phase = VNPU_OPS_PH_IN_ROWS;
		return vnpu_ops_run_linear(r, &c, rows, VNPU_OPS_ROW_CHUNK / (cols * inner));
	}

	kb = vnpu_ops_min(inner, VNPU_OPS_ROW_CHUNK);
	step = VNPU_OPS_ROW_CHUNK / kb;
	for (row = 0; row < rows; row++) {
		c.row0 = row;
		c.row1 = row + 1;
		for (k = 0; k < inner; k += kb) {
			c.k0 = k;
			c.k1 = k + vnpu_ops_min(kb, inner - k);
			if (!softmax) {
				ret = vnpu_ops_run_col_blocks(r, &c, VNPU_OPS_PH_IN_RED, step);
			} else {
				ret = vnpu_ops_run_col_blocks(r, &c, VNPU_OPS_PH_IN_SM_MAX, step);
				if (!ret)
					ret = vnpu_ops_run_col_blocks(r, &c, VNPU_OPS_PH_IN_SM_EXP,
								      step);
				if (!ret)
					ret = vnpu_ops_run_col_blocks(r, &c, VNPU_OPS_PH_IN_SM_NORM,
								      step);
			}
			if (ret)
				return ret;
		}
	}
	return 0;
}

/*
 * MATMUL: repack A and B into the workspace when needed, then compute whole
 * output rows per chunk or, when one row is more than a chunk of work, a
 * row in blocks of columns (j) and of k.
 */
static int vnpu_ops_run_matmul(struct vnpu_ops_runner *r)
{
	const struct vnpu_op_args *a = r->a;
	u64 m = a->dims[0], n = a->dims[1], k = a->dims[2];
	bool lowp = vnpu_dtype_lowp(a->dtype);
	struct vnpu_ops_chunk c = { };
	u64 i, j, kk, jb, kb;
	int ret;

	if ((a->flags & VNPU_OP_F_TRANS_A) || lowp) {
		c.phase = VNPU_OPS_PH_MM_PACK_A;
		ret = vnpu_ops_run_linear(r, &c, m * k, VNPU_OPS_EW_CHUNK);
		if (ret)
			return ret;
	}
	if ((a->flags & VNPU_OP_F_TRANS_B) || lowp) {
		c.phase = VNPU_OPS_PH_MM_PACK_B;
		ret = vnpu_ops_run_linear(r, &c, k * n, VNPU_OPS_EW_CHUNK);
		if (ret)
			return ret;
	}
	c.phase = VNPU_OPS_PH_MM;

	/* cost of a row: its multiply-adds plus a per-k overhead (short rows) */
	if (k * (n + 16) <= VNPU_OPS_MAC_CHUNK) {
		u64 step = vnpu_ops_min(VNPU_OPS_MAC_CHUNK / (k * (n + 16)),
					(VNPU_OPS_EW_CHUNK + n - 1) / n);

		c.col1 = n;
		c.k1 = k;
		for (i = 0; i < m; i += step) {
			c.row0 = i;
			c.row1 = i + vnpu_ops_min(step, m - i);
			ret = vnpu_ops_step(r, &c);
			if (ret)
				return ret;
		}
		return 0;
	}

	jb = vnpu_ops_min(n, VNPU_OPS_MAC_CHUNK);
	kb = VNPU_OPS_MAC_CHUNK / (jb + 16) + 1;
	for (i = 0; i < m; i++) {
		c.row0 = i;
		c.row1 = i + 1;
		for (j = 0; j < n; j += jb) {
			c.col0 = j;
			c.col1 = j + vnpu_ops_min(jb, n - j);
			for (kk = 0; kk < k; kk += kb) {
				c.k0 = kk;
				c.k1 = kk + vnpu_ops_min(kb, k - kk);
				ret = vnpu_ops_step(r, &c);
				if (ret)
					return ret;
			}
		}
	}
	return 0;
}

static bool vnpu_ops_misaligned(const void *p, u64 align)
{
	return (uintptr_t)p & (align - 1);
}

/**
 * vnpu_op_run() - run an operator
 * @a: the operator with its buffers: in0, in1 (binary ops and MATMUL) and
 *	out at least as large as vnpu_op_sizes() says, each aligned to its
 *	element size; ws_size at least the required workspace, ws 4-byte
 *	aligned (or NULL if none is needed).
 * @ctl: cancellation control, or NULL.
 *
 * Works in chunks of bounded size (about 64 KiB of output or 1M
 * multiply-adds), each inside its own FPU section; between chunks it calls
 * @ctl->should_stop and, in the kernel, cond_resched(). Must be called from
 * a context that may sleep; must not be called inside an FPU section.
 * Intermediate results live only in the workspace and in small on-stack
 * buffers (at most 512 bytes per frame).
 *
 * Return: 0; -ECANCELED if @ctl->should_stop returned true; -EDOM for an
 * I32 DIV by zero; in both cases the output is partially written.
 * -EINVAL (or -EOVERFLOW) if @a does not pass vnpu_op_sizes() or its
 * buffers are missing, misaligned or the workspace is too small.
 */
int vnpu_op_run(const struct vnpu_op_args *a, const struct vnpu_op_ctl *ctl)
{
	struct vnpu_ops_runner r = { .a = a, .ctl = ctl };
	struct vnpu_op_sizes sz;
	u32 es, oes;
	int ret;

	ret = vnpu_op_sizes(a, &sz);
	if (ret)
		return ret;

	es = vnpu_dtype_size(a->dtype);
	oes = a->op == VNPU_OP_CAST ? vnpu_dtype_size(a->out_dtype) : es;
	if (!a->in0 || !a->out || (sz.in1 && !a->in1) || (!sz.in1 && a->in1))
		return -EINVAL;
	if (a->ws_size < sz.ws || (sz.ws && !a->ws))
		return -EINVAL;
	if (vnpu_ops_misaligned(a->in0, es) || vnpu_ops_misaligned(a->in1, es) ||
	    vnpu_ops_misaligned(a->out, oes) || vnpu_ops_misaligned(a->ws, 4))
		return -EINVAL;

	switch (a->op) {
	case VNPU_OP_REDUCE_SUM:
	case VNPU_OP_REDUCE_MAX:
	case VNPU_OP_SOFTMAX:
		if (vnpu_ops_inner(a) > 1)
			return vnpu_ops_run_inner(&r);
		return vnpu_ops_run_rows(&r);
	case VNPU_OP_MATMUL:
		return vnpu_ops_run_matmul(&r);
	default:
		return vnpu_ops_run_ew(&r);
	}
}
