/* SPDX-License-Identifier: MIT */
/*
 * ops_elem.h - the generic compute layer of lib/ops (private): every data
 * type, strided operands, numpy broadcasting.
 *
 * The first eleven operators have fast kernels for dense fp32, fp16, bf16
 * and int32 tensors (ops_kern.h). Everything else computes through this
 * layer, which sees elements, not bytes:
 *
 *  - element conversions: a run of @n elements of any type lib/ops takes,
 *    @stride elements apart, loaded into doubles or int64s (a *domain*) and
 *    stored back, rounding once (to nearest even for floats; to integers:
 *    truncation toward zero, saturated, NaN as 0; to bool: != 0);
 *  - struct ops_iter, an odometer over a shape with one stride set per
 *    operand, adjacent dimensions merged where every operand allows, so
 *    that a dense call is one long row;
 *  - ops_ew_run(), an element-wise operation over a broadcast output in
 *    blocks of OPS_EW_BLOCK elements: load every input's block, call the
 *    operator's block function, store;
 *  - ops_copy_run(), a strided copy of any element size (data movement,
 *    and the dense copy vops_run() makes of a view for operators that do
 *    not read views themselves).
 *
 * Chunks: ops_ew_run() and ops_copy_run() ask the runner before every
 * OPS_EW_CHUNK elements but the first, as the primitives do.
 */
#ifndef VNPU_LIB_OPS_ELEM_H
#define VNPU_LIB_OPS_ELEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vnpu_ops.h"

struct ops_runner;
struct ops_call;

/* What a block function computes in. */
enum ops_dom {
	OPS_DOM_F64 = 1,	/* doubles (float types; integers up to 2^53 exactly) */
	OPS_DOM_I64,		/* int64 (integer types and bool; uint64 as its bits) */
};

/* Elements per block of ops_ew_run(). */
#define OPS_EW_BLOCK 256

/* true for the float types (fp32, fp16, bf16, double). */
bool ops_dt_float(int32_t dt);
/* true for the unsigned integer types and bool. */
bool ops_dt_unsigned(int32_t dt);
/* The domain values of @dt are computed in: F64 for floats, else I64. */
static inline enum ops_dom ops_dt_dom(int32_t dt)
{
	return ops_dt_float(dt) ? OPS_DOM_F64 : OPS_DOM_I64;
}


/*
 * dst[j] = element off + j * stride of @base (type @dt), j < @n; and the
 * stores back (ops_store_*: element off + j * stride of @base = src[j]).
 */
void ops_load_f64(double *restrict dst, const void *base, int32_t dt, int64_t off, int64_t stride,
		  size_t n);
void ops_load_i64(int64_t *restrict dst, const void *base, int32_t dt, int64_t off, int64_t stride,
		  size_t n);
void ops_store_f64(void *base, int32_t dt, int64_t off, int64_t stride, const double *restrict src,
		   size_t n);
void ops_store_i64(void *base, int32_t dt, int64_t off, int64_t stride, const int64_t *restrict src,
		   size_t n);
/* One element, for scalars and indices. */
double ops_get_f64(const void *base, int32_t dt, int64_t off);
int64_t ops_get_i64(const void *base, int32_t dt, int64_t off);

/* Strides of @t in elements (its own, or the dense ones) into @st. */
void ops_strides(const struct vops_tensor *t, int64_t *st);
/* true when @t is dense row-major (no strides, or the dense ones; offset 0). */
bool ops_is_dense(const struct vops_tensor *t);
/* Elements from @t's element 0 to one past its last (offset included), 0 if empty. */
uint64_t ops_reach(const struct vops_tensor *t);

/*
 * Strides of input @t seen at output rank @ndim with output shape @dims
 * (numpy broadcasting: dimensions right-aligned, a dimension of 1 or a
 * missing one has stride 0) into @st.
 */
void ops_bcast_strides(const struct vops_tensor *t, int ndim, const int64_t *dims, int64_t *st);

#define OPS_ITER_MAX 8		/* operands of one iteration */

/**
 * struct ops_iter - an odometer over a shape, one stride set per operand
 * @ndim: dimensions after merging (at least 1).
 * @nop: operands.
 * @dims: the merged shape; dims[ndim - 1] is the row.
 * @st: st[k][d]: stride of operand k along merged dimension d.
 * @idx: the position of the current row (all but the last dimension).
 * @off: off[k]: element offset of the current row's first element in k.
 * @rows: rows in all; @row: the current one.
 */
struct ops_iter {
	int ndim, nop;
	int64_t dims[VOPS_MAX_RANK];
	int64_t st[OPS_ITER_MAX][VOPS_MAX_RANK];
	int64_t idx[VOPS_MAX_RANK];
	int64_t off[OPS_ITER_MAX];
	uint64_t rows, row;
};

/*
 * Start @it over shape @dims (@ndim, may be 0: one element) with @nop
 * operands whose strides are st[k] and start offsets off0[k]. Empty
 * shapes have rows = 0.
 */
void ops_iter_init(struct ops_iter *it, int ndim, const int64_t *dims, int nop,
		   const int64_t *const *st, const int64_t *off0);
/* Advance to the next row (it->row + 1); false after the last. */
bool ops_iter_next(struct ops_iter *it);

/*
 * A block function: @n output values from @n values of each input, all in
 * the domain of the call (ops_ew.dom). @c is the call (its parameters).
 */
typedef void (*ops_ew_f64_fn)(const struct ops_call *c, double *restrict o,
			      const double *const *restrict x, size_t n);
typedef void (*ops_ew_i64_fn)(const struct ops_call *c, int64_t *restrict o,
			      const int64_t *const *restrict x, size_t n);

/**
 * struct ops_ew - one element-wise operation
 * @c: the call (for the block function's parameters).
 * @ndim: output rank; @dims: output shape.
 * @nin: inputs (at most OPS_ITER_MAX - 1), broadcast to the output.
 * @in: their tensors (types, shapes, strides and offsets).
 * @x: their memory.
 * @odt: output type; @out: output (dense).
 * @dom: the domain the inputs are loaded into and @f64 or @i64 computes in.
 * @f64: block function for OPS_DOM_F64; @i64: for OPS_DOM_I64.
 */
struct ops_ew {
	const struct ops_call *c;
	int ndim;
	const int64_t *dims;
	int nin;
	const struct vops_tensor *in;
	const void *const *x;
	int32_t odt;
	void *out;
	enum ops_dom dom;
	ops_ew_f64_fn f64;
	ops_ew_i64_fn i64;
};

/* Run @e; OK or CANCELED (output partial). */
enum vops_run_status ops_ew_run(const struct ops_ew *e, struct ops_runner *r);

/*
 * Copy a shape @dims (@ndim) of @esize-byte elements from @src (element
 * strides @sst, start @soff) to @dst (strides @dst_st, NULL: dense; start
 * @doff). OK or CANCELED.
 */
enum vops_run_status ops_copy_run(void *dst, const int64_t *dst_st, int64_t doff, const void *src,
				  const int64_t *sst, int64_t soff, int ndim, const int64_t *dims,
				  uint32_t esize, struct ops_runner *r);

/* Fill @n elements of @esize bytes at @dst with the element at @val. */
void ops_fill(void *dst, uint64_t n, const void *val, uint32_t esize);

#endif /* VNPU_LIB_OPS_ELEM_H */
