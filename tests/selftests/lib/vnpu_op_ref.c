// SPDX-License-Identifier: GPL-2.0
/*
 * CPU reference for the device's operators (see vnpu_op_ref.h).
 */
#include <math.h>
#include <string.h>

#include "vnpu_op_ref.h"

/* ---------------------------------------------------------------- random */

void ref_rng_seed(struct ref_rng *r, uint64_t seed)
{
	r->s = seed * 0xd1342543de82ef95ull + 0x632be59bd9b4e019ull;
	if (!r->s)
		r->s = 1;
}

uint64_t ref_rng_next(struct ref_rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 2685821657736338717ull;
}

double ref_rng_uniform(struct ref_rng *r, double lo, double hi)
{
	/* 53 random bits as a fraction in [0, 1) */
	return lo + (hi - lo) * ldexp((double)(ref_rng_next(r) >> 11), -53);
}

/* ---------------------------------------------------------------- codes */

/* aclDataType values (include/acl/acl_base.h), kept here so that the
 * reference needs no header of the code it checks. */
#define REF_ACL_FLOAT 0
#define REF_ACL_FLOAT16 1
#define REF_ACL_INT32 3
#define REF_ACL_BF16 27

uint32_t ref_dtype_from_acl(int32_t acl_dtype)
{
	switch (acl_dtype) {
	case REF_ACL_FLOAT:
		return REF_F32;
	case REF_ACL_FLOAT16:
		return REF_F16;
	case REF_ACL_BF16:
		return REF_BF16;
	case REF_ACL_INT32:
		return REF_I32;
	}
	return 0;
}

int32_t ref_dtype_to_acl(uint32_t dtype)
{
	switch (dtype) {
	case REF_F32:
		return REF_ACL_FLOAT;
	case REF_F16:
		return REF_ACL_FLOAT16;
	case REF_BF16:
		return REF_ACL_BF16;
	case REF_I32:
		return REF_ACL_INT32;
	}
	return -1;
}

/* ---------------------------------------------------------------- formats */

/* A binary floating-point format: precision, exponent range, width. */
struct ref_fmt {
	int p;		/* significand bits, hidden bit included */
	int emin;	/* exponent of the smallest normal number */
	int emax;	/* exponent of the largest finite number (= bias) */
	int width;	/* bits in the encoding */
};

static const struct ref_fmt fmt_f32 = { 24, -126, 127, 32 };
static const struct ref_fmt fmt_f16 = { 11, -14, 15, 16 };
static const struct ref_fmt fmt_bf16 = { 8, -126, 127, 16 };

static const struct ref_fmt *fmt_of(uint32_t dtype)
{
	switch (dtype) {
	case VNPU_DTYPE_F16:
		return &fmt_f16;
	case VNPU_DTYPE_BF16:
		return &fmt_bf16;
	case VNPU_DTYPE_F32:
		return &fmt_f32;
	}
	return NULL;
}

static uint32_t fmt_sign(const struct ref_fmt *f)
{
	return 1u << (f->width - 1);
}

static uint32_t fmt_exp_all_ones(const struct ref_fmt *f)
{
	int ebits = f->width - f->p;

	return ((1u << ebits) - 1) << (f->p - 1);
}

static double fmt_decode(const struct ref_fmt *f, uint32_t bits)
{
	int ebits = f->width - f->p;
	uint32_t frac = bits & ((1u << (f->p - 1)) - 1);
	uint32_t e = (bits >> (f->p - 1)) & ((1u << ebits) - 1);
	double v;

	if (e == (1u << ebits) - 1)
		v = frac ? NAN : INFINITY;
	else if (e == 0)
		v = ldexp((double)frac, f->emin - (f->p - 1));
	else
		v = ldexp((double)(frac | (1u << (f->p - 1))), (int)e - f->emax - (f->p - 1));
	return (bits & fmt_sign(f)) ? -v : v;
}

static uint32_t fmt_encode(const struct ref_fmt *f, double x)
{
	uint32_t sign = signbit(x) ? fmt_sign(f) : 0;
	uint32_t top = 1u << (f->p - 1);
	double a = fabs(x), q, r;
	int e;

	if (isnan(x))
		return fmt_exp_all_ones(f) | (top >> 1);	/* quiet NaN */
	/* At or above the largest finite value plus half an ulp: infinity. */
	if (a >= ldexp(2.0 * top - 0.5, f->emax - (f->p - 1)))
		return sign | fmt_exp_all_ones(f);
	if (a < ldexp(1.0, f->emin)) {
		/* Subnormal (or rounds up to the smallest normal: same encoding). */
		r = nearbyint(ldexp(a, (f->p - 1) - f->emin));
		return sign | (uint32_t)r;
	}
	frexp(a, &e);
	e -= 1;				/* a in [2^e, 2^(e+1)) */
	q = ldexp(a, (f->p - 1) - e);	/* in [top, 2 * top), exact */
	r = nearbyint(q);		/* to nearest, ties to even */
	if (r == 2.0 * top) {
		r = top;
		e++;
	}
	return sign | (uint32_t)(e + f->emax) << (f->p - 1) | ((uint32_t)r - top);
}

uint32_t ref_bits(const void *buf, uint32_t dtype, size_t i)
{
	if (dtype == VNPU_DTYPE_F16 || dtype == VNPU_DTYPE_BF16)
		return ((const uint16_t *)buf)[i];
	return ((const uint32_t *)buf)[i];
}

void ref_put_bits(void *buf, uint32_t dtype, size_t i, uint32_t bits)
{
	if (dtype == VNPU_DTYPE_F16 || dtype == VNPU_DTYPE_BF16)
		((uint16_t *)buf)[i] = (uint16_t)bits;
	else
		((uint32_t *)buf)[i] = bits;
}

double ref_decode(uint32_t bits, uint32_t dtype)
{
	if (dtype == VNPU_DTYPE_I32)
		return (double)(int32_t)bits;
	return fmt_decode(fmt_of(dtype), bits);
}

uint32_t ref_encode(double x, uint32_t dtype)
{
	if (dtype != VNPU_DTYPE_I32)
		return fmt_encode(fmt_of(dtype), x);
	if (isnan(x))
		return 0;
	if (x >= 2147483648.0)
		return 0x7fffffffu;
	if (x <= -2147483648.0)
		return 0x80000000u;
	return (uint32_t)(int32_t)trunc(x);
}

double ref_get(const void *buf, uint32_t dtype, size_t i)
{
	return ref_decode(ref_bits(buf, dtype, i), dtype);
}

void ref_put(void *buf, uint32_t dtype, size_t i, double x)
{
	ref_put_bits(buf, dtype, i, ref_encode(x, dtype));
}

void ref_fill(void *buf, uint32_t dtype, size_t n, double lo, double hi, bool nonzero,
	      struct ref_rng *r)
{
	for (size_t i = 0; i < n; i++) {
		double x;

		do {
			x = ref_rng_uniform(r, lo, hi);
			if (dtype == VNPU_DTYPE_I32)
				x = floor(x);
			ref_put(buf, dtype, i, x);
		} while (nonzero && ref_get(buf, dtype, i) == 0);
	}
}

/* Position of a value in the format's order: -0 and +0 are both 0. */
static int64_t fmt_ordinal(const struct ref_fmt *f, uint32_t bits)
{
	int64_t mag = bits & (fmt_sign(f) - 1);

	return (bits & fmt_sign(f)) ? -mag : mag;
}

bool ref_close(uint32_t got, uint32_t dtype, double want, unsigned int ulps, double abs_tol)
{
	const struct ref_fmt *f = fmt_of(dtype);
	int64_t d;
	double g;

	if (dtype == VNPU_DTYPE_I32)
		return (int32_t)got == (int32_t)want;
	g = fmt_decode(f, got);
	if (isnan(want) || isnan(g))
		return isnan(want) && isnan(g);
	d = fmt_ordinal(f, got) - fmt_ordinal(f, fmt_encode(f, want));
	if (d < 0)
		d = -d;
	if (d <= (int64_t)ulps)
		return true;
	return isfinite(g) && isfinite(want) && fabs(g - want) <= abs_tol;
}

/* ---------------------------------------------------------------- operators */

double ref_binary(uint32_t op, uint32_t dtype, uint32_t flags, const void *in0, const void *in1,
		  size_t i)
{
	size_t i0 = (flags & VNPU_OP_F_SCALAR_IN0) ? 0 : i;
	size_t i1 = (flags & VNPU_OP_F_SCALAR_IN1) ? 0 : i;

	if (dtype == VNPU_DTYPE_I32) {
		uint32_t a = ref_bits(in0, dtype, i0), b = ref_bits(in1, dtype, i1), r;

		switch (op) {
		case VNPU_OP_ADD:
			r = a + b;
			break;
		case VNPU_OP_SUB:
			r = a - b;
			break;
		case VNPU_OP_MUL:
			r = a * b;
			break;
		default:
			if ((int32_t)b == -1)
				r = 0u - a;	/* INT_MIN / -1 wraps to INT_MIN */
			else
				r = (uint32_t)((int32_t)a / (int32_t)b);
			break;
		}
		return (double)(int32_t)r;
	}

	double x = ref_get(in0, dtype, i0), y = ref_get(in1, dtype, i1);

	switch (op) {
	case VNPU_OP_ADD:
		return x + y;
	case VNPU_OP_SUB:
		return x - y;
	case VNPU_OP_MUL:
		return x * y;
	default:
		return x / y;
	}
}

uint32_t ref_unary_bits(uint32_t op, uint32_t dtype, uint32_t bits)
{
	if (dtype == VNPU_DTYPE_I32) {
		int32_t v = (int32_t)bits;

		if (op == VNPU_OP_ABS)
			return v < 0 ? 0u - bits : bits;
		return v < 0 ? 0 : bits;
	}
	if (op == VNPU_OP_ABS)
		return bits & ~fmt_sign(fmt_of(dtype));
	/* RELU: negative numbers become +0; -0 and NaN pass unchanged. */
	double v = ref_decode(bits, dtype);

	return (!isnan(v) && v < 0) ? 0 : bits;
}

uint32_t ref_cast_bits(uint32_t bits, uint32_t from, uint32_t to)
{
	double v;

	if (from == to)
		return bits;
	v = ref_decode(bits, from);
	if (from == VNPU_DTYPE_I32 && (to == VNPU_DTYPE_F16 || to == VNPU_DTYPE_BF16))
		v = ref_decode(ref_encode(v, VNPU_DTYPE_F32), VNPU_DTYPE_F32);
	return ref_encode(v, to);
}

double ref_reduce(uint32_t op, uint32_t dtype, const void *in, size_t cols, size_t row,
		  double *abs_sum)
{
	return ref_reduce_inner(op, dtype, in, cols, 1, row, 0, abs_sum);
}

double ref_reduce_inner(uint32_t op, uint32_t dtype, const void *in, size_t cols, size_t inner,
			size_t row, size_t k, double *abs_sum)
{
	size_t base = row * cols * inner + k;
	double acc = 0, mag = 0;

	if (dtype == VNPU_DTYPE_I32) {
		uint32_t s = 0;
		int32_t mx = INT32_MIN;

		for (size_t c = 0; c < cols; c++) {
			uint32_t b = ref_bits(in, dtype, base + c * inner);

			s += b;
			if ((int32_t)b > mx)
				mx = (int32_t)b;
		}
		if (abs_sum)
			*abs_sum = 0;
		return op == VNPU_OP_REDUCE_SUM ? (double)(int32_t)s : (double)mx;
	}

	if (op == VNPU_OP_REDUCE_MAX) {
		acc = -INFINITY;
		for (size_t c = 0; c < cols; c++) {
			double v = ref_get(in, dtype, base + c * inner);

			if (isnan(v))
				return NAN;
			if (v > acc)
				acc = v;
		}
		if (abs_sum)
			*abs_sum = 0;
		return acc;
	}
	for (size_t c = 0; c < cols; c++) {
		double v = ref_get(in, dtype, base + c * inner);

		acc += v;
		mag += fabs(v);
	}
	if (abs_sum)
		*abs_sum = mag;
	return acc;
}

double ref_reduce_axes(uint32_t op, uint32_t dtype, const void *in, unsigned int ndim,
		       const size_t *dims, uint64_t axes, size_t o, double *abs_sum)
{
	size_t coord[64] = { 0 }, n = 1, base = 0, stride = 1;
	double acc = op == VNPU_OP_REDUCE_MAX ? -INFINITY : 0, mag = 0;
	bool nan = false;
	uint32_t s = 0;
	int32_t mx = INT32_MIN;

	if (ndim > 64)
		return NAN;
	/* The first input element of output @o: its kept coordinates, 0 elsewhere. */
	for (unsigned int d = ndim; d-- > 0;) {
		if (!(axes >> d & 1)) {
			base += (o % dims[d]) * stride;
			o /= dims[d];
		} else {
			n *= dims[d];
		}
		stride *= dims[d];
	}
	for (size_t i = 0; i < n; i++) {
		size_t at = base, st = 1;

		for (unsigned int d = ndim; d-- > 0;) {
			if (axes >> d & 1)
				at += coord[d] * st;
			st *= dims[d];
		}
		if (dtype == VNPU_DTYPE_I32) {
			uint32_t b = ref_bits(in, dtype, at);

			s += b;
			if ((int32_t)b > mx)
				mx = (int32_t)b;
		} else {
			double v = ref_get(in, dtype, at);

			nan |= isnan(v);
			if (op == VNPU_OP_REDUCE_MAX) {
				if (v > acc)
					acc = v;
			} else {
				acc += v;
				mag += fabs(v);
			}
		}
		/* the next coordinate over the reduced axes, last axis fastest */
		for (unsigned int d = ndim; d-- > 0;) {
			if (!(axes >> d & 1))
				continue;
			if (++coord[d] < dims[d])
				break;
			coord[d] = 0;
		}
	}
	if (abs_sum)
		*abs_sum = mag;
	if (dtype == VNPU_DTYPE_I32)
		return op == VNPU_OP_REDUCE_SUM ? (double)(int32_t)s : (double)mx;
	if (nan && op == VNPU_OP_REDUCE_MAX)
		return NAN;
	return acc;
}

void ref_softmax_row(uint32_t dtype, const void *in, size_t cols, size_t row, double *out)
{
	ref_softmax_inner(dtype, in, cols, 1, row, 0, out);
}

void ref_softmax_inner(uint32_t dtype, const void *in, size_t cols, size_t inner, size_t row,
		       size_t k, double *out)
{
	size_t base = row * cols * inner + k;
	double mx = -INFINITY, sum = 0;

	for (size_t c = 0; c < cols; c++)
		mx = fmax(mx, ref_get(in, dtype, base + c * inner));
	for (size_t c = 0; c < cols; c++) {
		out[c] = exp(ref_get(in, dtype, base + c * inner) - mx);
		sum += out[c];
	}
	for (size_t c = 0; c < cols; c++)
		out[c] /= sum;
}

double ref_matmul(uint32_t dtype, uint32_t flags, const void *a, const void *b, size_t m,
		  size_t n, size_t k, size_t i, size_t j, double *abs_sum)
{
	bool ta = flags & VNPU_OP_F_TRANS_A, tb = flags & VNPU_OP_F_TRANS_B;
	double acc = 0, mag = 0;
	uint32_t iacc = 0;

	for (size_t kk = 0; kk < k; kk++) {
		size_t ia = ta ? kk * m + i : i * k + kk;	/* A is m x k, or stored k x m */
		size_t ib = tb ? j * k + kk : kk * n + j;	/* B is k x n, or stored n x k */

		if (dtype == VNPU_DTYPE_I32) {
			iacc += ref_bits(a, dtype, ia) * ref_bits(b, dtype, ib);
		} else {
			double p = ref_get(a, dtype, ia) * ref_get(b, dtype, ib);

			acc += p;
			mag += fabs(p);
		}
	}
	if (abs_sum)
		*abs_sum = mag;
	return dtype == VNPU_DTYPE_I32 ? (double)(int32_t)iacc : acc;
}
