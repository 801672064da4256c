/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A CPU reference for the device's operators, written for the tests and
 * independent of the kernel's kernels: values are decoded to double, the
 * operation is done in double (exp from libm), and results are rounded to
 * the output format here, with explicit rules (round to nearest even,
 * overflow to infinity, subnormals kept; int32 wraps).
 *
 * Comparisons (ref_close()) accept a result within a number of positions
 * of the correctly rounded reference in the format's ordering (1 means
 * "the neighbour", infinity next to the largest finite value) or within an
 * absolute error; NaN matches any NaN; int32 must match exactly.
 */
#ifndef VNPU_OP_REF_H
#define VNPU_OP_REF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vnpu_drm.h"

/* Deterministic random numbers (xorshift64*). */
struct ref_rng {
	uint64_t s;
};

void ref_rng_seed(struct ref_rng *r, uint64_t seed);
uint64_t ref_rng_next(struct ref_rng *r);
/* Uniform in [lo, hi). */
double ref_rng_uniform(struct ref_rng *r, double lo, double hi);

/* Bits of element @i of @buf (of @dtype), zero-extended. */
uint32_t ref_bits(const void *buf, uint32_t dtype, size_t i);
void ref_put_bits(void *buf, uint32_t dtype, size_t i, uint32_t bits);
/* The value of a bit pattern of @dtype (int32 exactly). */
double ref_decode(uint32_t bits, uint32_t dtype);
/*
 * @x rounded to @dtype, as bits: floats to nearest even with overflow to
 * infinity and subnormals, NaN to a quiet NaN; int32 truncated toward zero
 * and saturated, NaN to 0.
 */
uint32_t ref_encode(double x, uint32_t dtype);
/* Element @i of @buf as a double. */
double ref_get(const void *buf, uint32_t dtype, size_t i);
/* Store @x rounded to @dtype at element @i. */
void ref_put(void *buf, uint32_t dtype, size_t i, double x);

/*
 * Fill @n elements with values from [lo, hi) that @dtype represents exactly
 * (int32: integers); @nonzero avoids 0 (divisors).
 */
void ref_fill(void *buf, uint32_t dtype, size_t n, double lo, double hi, bool nonzero,
	      struct ref_rng *r);

/* Is @got (bits of @dtype) an acceptable result for the exact value @want? */
bool ref_close(uint32_t got, uint32_t dtype, double want, unsigned int ulps, double abs_tol);

/* Unit roundoff of fp32 (the device's accumulation precision). */
#define REF_F32_EPS (1.0 / 16777216.0)

/*
 * Exact results. Element-wise: in0 op in1 of element @i (SCALAR flags
 * honoured); int32 wraps, DIV truncates (INT_MIN / -1 = INT_MIN), divisor 0
 * is the caller's business.
 */
double ref_binary(uint32_t op, uint32_t dtype, uint32_t flags, const void *in0, const void *in1,
		  size_t i);
/* RELU/ABS of a bit pattern: exact bits (they act on the bits). */
uint32_t ref_unary_bits(uint32_t op, uint32_t dtype, uint32_t bits);
/* CAST of a bit pattern from @from to @to, as bits (int32 -> fp16/bf16 via fp32). */
uint32_t ref_cast_bits(uint32_t bits, uint32_t from, uint32_t to);
/* REDUCE_SUM/REDUCE_MAX of row @row; *@abs_sum gets sum |x| (may be NULL). */
double ref_reduce(uint32_t op, uint32_t dtype, const void *in, size_t cols, size_t row,
		  double *abs_sum);
/* SOFTMAX of row @row into @out (cols doubles). */
void ref_softmax_row(uint32_t dtype, const void *in, size_t cols, size_t row, double *out);
/*
 * The same along the middle axis of a rows x cols x inner tensor: the
 * result for (@row, @k), and the softmax of the cols elements (@row, c, @k)
 * into @out (cols doubles).
 */
double ref_reduce_inner(uint32_t op, uint32_t dtype, const void *in, size_t cols, size_t inner,
			size_t row, size_t k, double *abs_sum);
void ref_softmax_inner(uint32_t dtype, const void *in, size_t cols, size_t inner, size_t row,
		       size_t k, double *out);
/* MATMUL element (i, j) for dims {m, n, k}; *@abs_sum gets sum |a*b|. */
double ref_matmul(uint32_t dtype, uint32_t flags, const void *a, const void *b, size_t m,
		  size_t n, size_t k, size_t i, size_t j, double *abs_sum);

#endif /* VNPU_OP_REF_H */
