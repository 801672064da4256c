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

/*
 * The reference's own codes for data types, operators and operator flags.
 * They keep the numbers of the 1.x uapi's VNPU_DTYPE_*, VNPU_OP_* and
 * VNPU_OP_F_*, which ABI 2.0 dropped (operators are lib/ops' business
 * now, with aclDataType types); the old names stay defined here for the
 * tests written with them.
 */
enum ref_dtype {
	REF_F32 = 1,
	REF_F16 = 2,
	REF_BF16 = 3,
	REF_I32 = 4,
};

enum ref_op {
	REF_OP_ADD = 1,
	REF_OP_SUB,
	REF_OP_MUL,
	REF_OP_DIV,
	REF_OP_RELU,
	REF_OP_ABS,
	REF_OP_CAST,
	REF_OP_REDUCE_SUM,
	REF_OP_REDUCE_MAX,
	REF_OP_SOFTMAX,
	REF_OP_MATMUL,
};

#define REF_F_SCALAR_IN0 (1u << 0)	/* in0 is one element, broadcast */
#define REF_F_SCALAR_IN1 (1u << 1)	/* in1 is one element, broadcast */
#define REF_F_TRANS_A (1u << 2)		/* MATMUL: in0 stored transposed */
#define REF_F_TRANS_B (1u << 3)		/* MATMUL: in1 stored transposed */

#ifndef VNPU_DTYPE_F32
#define VNPU_DTYPE_F32 REF_F32
#define VNPU_DTYPE_F16 REF_F16
#define VNPU_DTYPE_BF16 REF_BF16
#define VNPU_DTYPE_I32 REF_I32
#endif
#ifndef VNPU_OP_ADD
#define VNPU_OP_ADD REF_OP_ADD
#define VNPU_OP_SUB REF_OP_SUB
#define VNPU_OP_MUL REF_OP_MUL
#define VNPU_OP_DIV REF_OP_DIV
#define VNPU_OP_RELU REF_OP_RELU
#define VNPU_OP_ABS REF_OP_ABS
#define VNPU_OP_CAST REF_OP_CAST
#define VNPU_OP_REDUCE_SUM REF_OP_REDUCE_SUM
#define VNPU_OP_REDUCE_MAX REF_OP_REDUCE_MAX
#define VNPU_OP_SOFTMAX REF_OP_SOFTMAX
#define VNPU_OP_MATMUL REF_OP_MATMUL
#define VNPU_OP_F_SCALAR_IN0 REF_F_SCALAR_IN0
#define VNPU_OP_F_SCALAR_IN1 REF_F_SCALAR_IN1
#define VNPU_OP_F_TRANS_A REF_F_TRANS_A
#define VNPU_OP_F_TRANS_B REF_F_TRANS_B
#endif

/*
 * The reference code of an aclDataType (ACL_FLOAT 0, ACL_FLOAT16 1,
 * ACL_INT32 3, ACL_BF16 27), 0 for the others; and back (-1 for none).
 */
uint32_t ref_dtype_from_acl(int32_t acl_dtype);
int32_t ref_dtype_to_acl(uint32_t dtype);

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
/*
 * REDUCE_SUM/REDUCE_MAX of a row-major tensor of @ndim dimensions @dims
 * over the axes whose bits are set in @axes: element @o of the result (the
 * tensor without those axes, row-major). *@abs_sum gets sum |x| (may be NULL).
 */
double ref_reduce_axes(uint32_t op, uint32_t dtype, const void *in, unsigned int ndim,
		       const size_t *dims, uint64_t axes, size_t o, double *abs_sum);
/* MATMUL element (i, j) for dims {m, n, k}; *@abs_sum gets sum |a*b|. */
double ref_matmul(uint32_t dtype, uint32_t flags, const void *a, const void *b, size_t m,
		  size_t n, size_t k, size_t i, size_t j, double *abs_sum);

#endif /* VNPU_OP_REF_H */
