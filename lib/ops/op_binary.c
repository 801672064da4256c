// SPDX-License-Identifier: MIT
/*
 * op_binary.c - the binary family: arithmetic, comparisons, logic and
 * selection over inputs that broadcast (numpy), docs/ops/binary.md.
 *
 *   Pow                     x1 ^ x2 (x2 may be of another numeric type: vnpu)
 *   Mod FloorMod            remainder with the divisor's sign (Python %)
 *   TruncateMod             remainder with the dividend's sign (C fmod)
 *   Maximum Minimum         two inputs
 *   MaxN, Min (vnpu)        1 .. 32 inputs
 *   AccumulateNV2 AddN      the sum of N inputs (attribute N)
 *   Mean (vnpu)             their mean
 *   PRelu                   x < 0 ? weight * x : x
 *   LeftShift RightShift    integers
 *   LogicalAnd LogicalOr LogicalNot       bool
 *   BitwiseAnd BitwiseOr BitwiseXor       integers and bool
 *   Equal NotEqual Greater GreaterEqual Less LessEqual  -> bool
 *   SelectV2                condition ? then : else
 *   ClipByValue             min(max(x, lo), hi)
 *
 * Everything runs through ops_elem's element-wise blocks: floats in
 * double, rounded once to the output type; integers in int64 (uint64 as
 * its bits: comparisons know the type's signedness). Integer Mod of a zero
 * divisor fails the run (VOPS_RUN_ARITH). Inputs may be views.
 */
#include <math.h>
#include <string.h>

#include "ops_int.h"

static const char *const no_attrs[] = { NULL };
static const char *const n_attrs[] = { "N", NULL };

/* true when @c's computations on int64 see unsigned values (input 0's type). */
static bool uns(const struct ops_call *c)
{
	return ops_dt_unsigned(c->in[0].dtype);
}

/* Signed or unsigned a < b on int64 bits. */
static inline bool lt_i(bool u, int64_t a, int64_t b)
{
	return u ? (uint64_t)a < (uint64_t)b : a < b;
}

/* Output: every input broadcast, input 0's type. */
static enum vops_err same_infer(const struct ops_call *c, struct vops_plan *p,
				 struct vops_error *err)
{
	return ops_ew_infer(c, p, 0, c->nin - 1, c->in[0].dtype, err);
}

/* Output: every input broadcast, bool. */
static enum vops_err bool_infer(const struct ops_call *c, struct vops_plan *p,
				 struct vops_error *err)
{
	return ops_ew_infer(c, p, 0, c->nin - 1, ACL_BOOL, err);
}

/* Run every input of @c through @f / @i in input 0's domain. */
static enum vops_run_status ew_run(const struct ops_call *c, const struct vops_plan *p,
				   const struct ops_bufs *b, enum ops_dom dom, ops_ew_f64_fn f,
				   ops_ew_i64_fn i, struct ops_runner *r)
{
	return ops_ew_call(c, p, b, 0, c->nin - 1, dom, f, i, r);
}

#define BLOCK_F(name, expr)								\
	static void name(const struct ops_call *c, double *restrict o,			\
			 const double *const *restrict x, size_t n)			\
	{										\
		size_t j;								\
											\
		(void)c;								\
		for (j = 0; j < n; j++) {						\
			double a = x[0][j], b = x[1][j];				\
											\
			(void)b;							\
			o[j] = (expr);							\
		}									\
	}

#define BLOCK_I(name, expr)								\
	static void name(const struct ops_call *c, int64_t *restrict o,			\
			 const int64_t *const *restrict x, size_t n)			\
	{										\
		bool u = uns(c);							\
		size_t j;								\
											\
		(void)u;								\
		for (j = 0; j < n; j++) {						\
			int64_t a = x[0][j], b = x[1][j];				\
											\
			(void)b;							\
			o[j] = (expr);							\
		}									\
	}

/* ---- Pow ------------------------------------------------------------------- */

/* Integer power, wrapping; a negative exponent is 1 / a^-e truncated. */
static int64_t ipow(int64_t a, int64_t e, bool e_uns)
{
	uint64_t r = 1, base = (uint64_t)a, k = (uint64_t)e;

	if (!e_uns && e < 0) {
		if (a == 1)
			return 1;
		if (a == -1)
			return (e & 1) ? -1 : 1;
		return 0;
	}
	while (k) {
		if (k & 1)
			r *= base;
		base *= base;
		k >>= 1;
	}
	return (int64_t)r;
}

BLOCK_F(pow_f, pow(a, b))

static void pow_i(const struct ops_call *c, int64_t *restrict o, const int64_t *const *restrict x,
		  size_t n)
{
	bool eu = ops_dt_unsigned(c->in[1].dtype);
	size_t j;

	for (j = 0; j < n; j++)
		o[j] = ipow(x[0][j], x[1][j], eu);
}

/* The exponent may be of any numeric type (ONNX); CANN's takes x1's. */
static enum vops_err pow_infer(const struct ops_call *c, struct vops_plan *p,
				struct vops_error *err)
{
	if (!(ops_dtype_bit(c->in[1].dtype) & OPS_DT_NUM))
		return ops_fail(err, VOPS_ERR_DTYPE, "Pow: exponent x2 of type %s is not supported "
				"(vnpu: the float and integer types)",
				vops_dtype_name(c->in[1].dtype));
	return same_infer(c, p, err);
}

/* Integers with integers in int64; anything with a float in double. */
static enum vops_run_status pow_run(const struct ops_call *c, const struct vops_plan *p,
				    const struct ops_bufs *b, struct ops_runner *r)
{
	bool f = ops_dt_float(c->in[0].dtype) || ops_dt_float(c->in[1].dtype);

	return ew_run(c, p, b, f ? OPS_DOM_F64 : OPS_DOM_I64, pow_f, pow_i, r);
}

/* ---- Mod ------------------------------------------------------------------- */

static double floormod(double a, double b)
{
	double m = fmod(a, b);

	if (m != 0 && (m < 0) != (b < 0))
		m += b;
	return m;
}

/* Integer remainders; the divisor is never 0 here (checked before the run). */
static int64_t imod(int64_t a, int64_t b, bool u, bool floor)
{
	int64_t m;

	if (!b)
		return 0;
	if (u)
		return (int64_t)((uint64_t)a % (uint64_t)b);
	if (b == -1)
		return 0;
	m = a % b;
	if (floor && m != 0 && (m < 0) != (b < 0))
		m += b;
	return m;
}

BLOCK_F(floormod_f, floormod(a, b))
BLOCK_I(floormod_i, imod(a, b, u, true))
BLOCK_F(truncmod_f, fmod(a, b))
BLOCK_I(truncmod_i, imod(a, b, u, false))

static enum vops_run_status mod_run(const struct ops_call *c, const struct vops_plan *p,
				    const struct ops_bufs *b, bool floor, struct ops_runner *r)
{
	enum ops_dom dom = ops_dt_dom(c->in[0].dtype);

	if (dom == OPS_DOM_I64 && ops_any_zero(&c->in[1], b->in[1]))
		return VOPS_RUN_ARITH;
	return floor ? ew_run(c, p, b, dom, floormod_f, floormod_i, r) :
		       ew_run(c, p, b, dom, truncmod_f, truncmod_i, r);
}

static enum vops_run_status floormod_run(const struct ops_call *c, const struct vops_plan *p,
					 const struct ops_bufs *b, struct ops_runner *r)
{
	return mod_run(c, p, b, true, r);
}

static enum vops_run_status truncmod_run(const struct ops_call *c, const struct vops_plan *p,
					 const struct ops_bufs *b, struct ops_runner *r)
{
	return mod_run(c, p, b, false, r);
}

/* ---- variadic: MaxN, Min, AccumulateNV2, AddN, Mean --------------------------- */

/*
 * The block functions of the variadic operators reduce x[0 .. c->nin - 1]
 * (c is a copy of the call with the pass's count) and scale a float result
 * by c->at.pr.f[0] (Mean's 1 / N on the last pass, else 1).
 */
static void vmax_f(const struct ops_call *c, double *restrict o, const double *const *restrict x,
		   size_t n)
{
	size_t j;
	int k;

	for (j = 0; j < n; j++) {
		double v = x[0][j];

		/* NaN wins, as numpy's maximum. */
		for (k = 1; k < c->nin; k++)
			if (x[k][j] > v || isnan(x[k][j]))
				v = x[k][j];
		o[j] = v;
	}
}

static void vmin_f(const struct ops_call *c, double *restrict o, const double *const *restrict x,
		   size_t n)
{
	size_t j;
	int k;

	for (j = 0; j < n; j++) {
		double v = x[0][j];

		for (k = 1; k < c->nin; k++)
			if (x[k][j] < v || isnan(x[k][j]))
				v = x[k][j];
		o[j] = v;
	}
}

static void vmax_i(const struct ops_call *c, int64_t *restrict o, const int64_t *const *restrict x,
		   size_t n)
{
	bool u = uns(c);
	size_t j;
	int k;

	for (j = 0; j < n; j++) {
		int64_t v = x[0][j];

		for (k = 1; k < c->nin; k++)
			if (lt_i(u, v, x[k][j]))
				v = x[k][j];
		o[j] = v;
	}
}

static void vmin_i(const struct ops_call *c, int64_t *restrict o, const int64_t *const *restrict x,
		   size_t n)
{
	bool u = uns(c);
	size_t j;
	int k;

	for (j = 0; j < n; j++) {
		int64_t v = x[0][j];

		for (k = 1; k < c->nin; k++)
			if (lt_i(u, x[k][j], v))
				v = x[k][j];
		o[j] = v;
	}
}

static void vsum_f(const struct ops_call *c, double *restrict o, const double *const *restrict x,
		   size_t n)
{
	double s = c->at.pr.f[0];
	size_t j;
	int k;

	for (j = 0; j < n; j++) {
		double v = x[0][j];

		for (k = 1; k < c->nin; k++)
			v += x[k][j];
		o[j] = v * s;
	}
}

/* Integer sums wrap. (Mean takes floats only.) */
static void vsum_i(const struct ops_call *c, int64_t *restrict o, const int64_t *const *restrict x,
		   size_t n)
{
	size_t j;
	int k;

	for (j = 0; j < n; j++) {
		uint64_t v = (uint64_t)x[0][j];

		for (k = 1; k < c->nin; k++)
			v += (uint64_t)x[k][j];
		o[j] = (int64_t)v;
	}
}

/* Inputs per element-wise pass. */
#define FOLD_MAX (OPS_ITER_MAX - 1)

/* More inputs than one pass takes: an accumulator of the output's shape,
 * in double or int64, in the workspace. */
static enum vops_err fold_ws(const struct ops_call *c, struct vops_plan *p, struct vops_error *err)
{
	uint64_t n = p->out[0].bytes / ops_esize(p->out[0].dtype);

	p->ws_bytes = 0;
	if (c->nin > FOLD_MAX && !p->empty && !ops_bytes(n, 8, &p->ws_bytes))
		return ops_too_large(c->def, err);
	p->ws_align = 8;
	return VOPS_OK;
}

/*
 * Reduce the inputs in passes of at most FOLD_MAX operands: the first
 * takes inputs 0 .., the next the accumulator and the inputs after; the
 * last writes the output, scaled by @scale.
 */
static enum vops_run_status fold_run(const struct ops_call *c, const struct vops_plan *p,
				     const struct ops_bufs *b, double scale, ops_ew_f64_fn f,
				     ops_ew_i64_fn i, struct ops_runner *r)
{
	enum ops_dom dom = ops_dt_dom(c->in[0].dtype);
	int32_t adt = dom == OPS_DOM_F64 ? ACL_DOUBLE : ACL_INT64;
	struct vops_tensor in[FOLD_MAX], acc = {
		.dtype = adt, .ndim = p->out[0].ndim, .dims = p->out[0].dims,
	};
	const void *x[FOLD_MAX];
	struct ops_call fc = *c;
	struct ops_ew e = {
		.c = &fc, .ndim = p->out[0].ndim, .dims = p->out[0].dims, .in = in, .x = x,
		.dom = dom, .f64 = f, .i64 = i,
	};
	enum vops_run_status st;
	int k = 0;

	fc.at.pr.ni = 0;
	fc.at.pr.nf = 1;
	while (k < c->nin) {
		int m = 0;
		bool last;

		if (k) {
			in[m] = acc;
			x[m++] = b->ws;
		}
		for (; m < FOLD_MAX && k < c->nin; m++, k++) {
			in[m] = c->in[k];
			x[m] = b->in[k];
		}
		last = k == c->nin;
		fc.nin = m;
		fc.at.pr.f[0] = last ? scale : 1.0;
		e.nin = m;
		e.odt = last ? p->out[0].dtype : adt;
		e.out = last ? b->out[0] : b->ws;
		st = ops_ew_run(&e, r);
		if (st)
			return st;
	}
	return VOPS_RUN_OK;
}

static enum vops_run_status max_run(const struct ops_call *c, const struct vops_plan *p,
				    const struct ops_bufs *b, struct ops_runner *r)
{
	return fold_run(c, p, b, 1.0, vmax_f, vmax_i, r);
}

static enum vops_run_status min_run(const struct ops_call *c, const struct vops_plan *p,
				    const struct ops_bufs *b, struct ops_runner *r)
{
	return fold_run(c, p, b, 1.0, vmin_f, vmin_i, r);
}

static enum vops_run_status sum_run(const struct ops_call *c, const struct vops_plan *p,
				    const struct ops_bufs *b, struct ops_runner *r)
{
	return fold_run(c, p, b, 1.0, vsum_f, vsum_i, r);
}

static enum vops_run_status mean_run(const struct ops_call *c, const struct vops_plan *p,
				     const struct ops_bufs *b, struct ops_runner *r)
{
	return fold_run(c, p, b, 1.0 / c->nin, vsum_f, vsum_i, r);
}

/* CANN's N: required, the number of inputs. */
static enum vops_err n_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
			     struct vops_error *err)
{
	int64_t v;
	enum vops_err ret;

	if (!vops_attr_find(attrs, n, "N"))
		return ops_fail(err, VOPS_ERR_ATTR,
				"%s needs the attribute N (the number of inputs)", c->def->name);
	ret = ops_attr_int(c->def, attrs, n, "N", 0, &v, err);
	if (!ret && v != c->nin)
		return ops_fail(err, VOPS_ERR_ATTR,
				"%s: attribute N is %lld, but there are %d inputs", c->def->name,
				(long long)v, c->nin);
	return ret;
}

/* ---- PRelu ------------------------------------------------------------------ */

/* CANN's form: a 1-D weight of x's channels (axis 1). */
static bool prelu_channels(const struct ops_call *c)
{
	const struct vops_tensor *x = &c->in[0], *w = &c->in[1];

	return w->ndim == 1 && x->ndim >= 2 && w->dims[0] == x->dims[1];
}

/* The weight: x's channels, or any shape that broadcasts to x (a scalar
 * too; the rest is vnpu's, for ONNX). */
static enum vops_err prelu_infer(const struct ops_call *c, struct vops_plan *p,
				  struct vops_error *err)
{
	const struct vops_tensor *x = &c->in[0], *w = &c->in[1];
	int64_t dims[VOPS_MAX_RANK];
	char sw[96], sx[96];
	int ndim;

	if (!prelu_channels(c) &&
	    (ops_broadcast(c, 0, 1, &ndim, dims, NULL) || ndim != x->ndim ||
	     (ndim && memcmp(dims, x->dims, (size_t)ndim * sizeof(*dims)))))
		return ops_fail(err, VOPS_ERR_INPUT,
				"PRelu: weight's shape %s is neither x's channels (axis 1) nor "
				"broadcasts to x's shape %s",
				vops_shape_str(sw, sizeof(sw), w->ndim, w->dims),
				vops_shape_str(sx, sizeof(sx), x->ndim, x->dims));
	return ops_ew_infer(c, p, 0, 0, x->dtype, err);
}

static void prelu_f(const struct ops_call *c, double *restrict o, const double *const *restrict x,
		    size_t n)
{
	size_t j;

	(void)c;
	for (j = 0; j < n; j++)
		o[j] = x[0][j] < 0 ? x[0][j] * x[1][j] : x[0][j];
}

static void prelu_i(const struct ops_call *c, int64_t *restrict o, const int64_t *const *restrict x,
		    size_t n)
{
	size_t j;

	(void)c;
	for (j = 0; j < n; j++)
		o[j] = x[0][j] < 0 ? (int64_t)((uint64_t)x[0][j] * (uint64_t)x[1][j]) : x[0][j];
}

static enum vops_run_status prelu_run(const struct ops_call *c, const struct vops_plan *p,
				      const struct ops_bufs *b, struct ops_runner *r)
{
	const struct vops_tensor *x = &c->in[0], *w = &c->in[1];
	int64_t dims[VOPS_MAX_RANK], st[VOPS_MAX_RANK];
	struct vops_tensor in[2] = { *x, *w };
	struct ops_ew e = {
		.c = c, .ndim = p->out[0].ndim, .dims = p->out[0].dims, .nin = 2, .in = in,
		.x = (const void *const *)b->in, .odt = p->out[0].dtype, .out = b->out[0],
		.dom = ops_dt_dom(x->dtype), .f64 = prelu_f, .i64 = prelu_i,
	};
	int d;

	/* Channels: the weight seen as [1, C, 1, ...]. */
	if (prelu_channels(c)) {
		for (d = 0; d < x->ndim; d++) {
			dims[d] = d == 1 ? w->dims[0] : 1;
			st[d] = d == 1 ? (w->strides ? w->strides[0] : 1) : 0;
		}
		in[1].ndim = x->ndim;
		in[1].dims = dims;
		in[1].strides = st;
	}
	return ops_ew_run(&e, r);
}

/* ---- shifts ------------------------------------------------------------------ */

/* Bits of input 0's type; a shift by that or more (or by a negative
 * amount) shifts everything out. */
static uint64_t type_bits(const struct ops_call *c)
{
	return 8u * ops_esize(c->in[0].dtype);
}

static void lsh_i(const struct ops_call *c, int64_t *restrict o, const int64_t *const *restrict x,
		  size_t n)
{
	uint64_t w = type_bits(c);
	size_t j;

	for (j = 0; j < n; j++) {
		uint64_t s = (uint64_t)x[1][j];

		o[j] = s >= w ? 0 : (int64_t)((uint64_t)x[0][j] << s);
	}
}

static void rsh_i(const struct ops_call *c, int64_t *restrict o, const int64_t *const *restrict x,
		  size_t n)
{
	uint64_t w = type_bits(c);
	bool u = uns(c);
	size_t j;

	for (j = 0; j < n; j++) {
		uint64_t s = (uint64_t)x[1][j];
		int64_t a = x[0][j];

		if (u)
			o[j] = s >= w ? 0 : (int64_t)((uint64_t)a >> s);
		else
			o[j] = s >= w ? (a < 0 ? -1 : 0) : a >> s;
	}
}

static enum vops_run_status lsh_run(const struct ops_call *c, const struct vops_plan *p,
				    const struct ops_bufs *b, struct ops_runner *r)
{
	return ew_run(c, p, b, OPS_DOM_I64, NULL, lsh_i, r);
}

static enum vops_run_status rsh_run(const struct ops_call *c, const struct vops_plan *p,
				    const struct ops_bufs *b, struct ops_runner *r)
{
	return ew_run(c, p, b, OPS_DOM_I64, NULL, rsh_i, r);
}

/* ---- logic ------------------------------------------------------------------- */

BLOCK_I(and_i, a && b)
BLOCK_I(or_i, a || b)

static void not_i1(const struct ops_call *c, int64_t *restrict o, const int64_t *const *restrict x,
		   size_t n)
{
	size_t j;

	(void)c;
	for (j = 0; j < n; j++)
		o[j] = !x[0][j];
}

static enum vops_run_status and_run(const struct ops_call *c, const struct vops_plan *p,
				    const struct ops_bufs *b, struct ops_runner *r)
{
	return ew_run(c, p, b, OPS_DOM_I64, NULL, and_i, r);
}

static enum vops_run_status or_run(const struct ops_call *c, const struct vops_plan *p,
				   const struct ops_bufs *b, struct ops_runner *r)
{
	return ew_run(c, p, b, OPS_DOM_I64, NULL, or_i, r);
}

static enum vops_run_status not_run(const struct ops_call *c, const struct vops_plan *p,
				    const struct ops_bufs *b, struct ops_runner *r)
{
	return ew_run(c, p, b, OPS_DOM_I64, NULL, not_i1, r);
}

/* ---- bitwise ----------------------------------------------------------------- */

/*
 * On the int64 the element loads make (narrow signed types sign-extended,
 * unsigned ones zero-extended), &, | and ^ give the bits of the narrow
 * result, and the store keeps the type's low bits; bool's 0/1 stay 0/1.
 */
BLOCK_I(band_i, a & b)
BLOCK_I(bor_i, a | b)
BLOCK_I(bxor_i, a ^ b)

static enum vops_run_status band_run(const struct ops_call *c, const struct vops_plan *p,
				     const struct ops_bufs *b, struct ops_runner *r)
{
	return ew_run(c, p, b, OPS_DOM_I64, NULL, band_i, r);
}

static enum vops_run_status bor_run(const struct ops_call *c, const struct vops_plan *p,
				    const struct ops_bufs *b, struct ops_runner *r)
{
	return ew_run(c, p, b, OPS_DOM_I64, NULL, bor_i, r);
}

static enum vops_run_status bxor_run(const struct ops_call *c, const struct vops_plan *p,
				     const struct ops_bufs *b, struct ops_runner *r)
{
	return ew_run(c, p, b, OPS_DOM_I64, NULL, bxor_i, r);
}

/* ---- comparisons ------------------------------------------------------------- */

BLOCK_F(eq_f, a == b)
BLOCK_I(eq_i, a == b)
BLOCK_F(ne_f, a != b)
BLOCK_I(ne_i, a != b)
BLOCK_F(gt_f, a > b)
BLOCK_I(gt_i, lt_i(u, b, a))
BLOCK_F(ge_f, a >= b)
BLOCK_I(ge_i, !lt_i(u, a, b))
BLOCK_F(lt_f, a < b)
BLOCK_I(lt_i_, lt_i(u, a, b))
BLOCK_F(le_f, a <= b)
BLOCK_I(le_i, !lt_i(u, b, a))

/* Binary operators in input 0's domain by their block functions. */
static const struct {
	ops_ew_f64_fn f;
	ops_ew_i64_fn i;
} cmp_fns[] = {
	{ eq_f, eq_i }, { ne_f, ne_i }, { gt_f, gt_i }, { ge_f, ge_i }, { lt_f, lt_i_ },
	{ le_f, le_i },
	/* Maximum, Minimum */
	{ vmax_f, vmax_i }, { vmin_f, vmin_i },
};

enum { CMP_EQ, CMP_NE, CMP_GT, CMP_GE, CMP_LT, CMP_LE, CMP_MAX, CMP_MIN };

/* Which cmp_fns entry an operator uses: its index in the list, below. */
static int cmp_index(const struct ops_def *def);

static enum vops_run_status cmp_run(const struct ops_call *c, const struct vops_plan *p,
				    const struct ops_bufs *b, struct ops_runner *r)
{
	int k = cmp_index(c->def);

	return ew_run(c, p, b, ops_dt_dom(c->in[0].dtype), cmp_fns[k].f, cmp_fns[k].i, r);
}

/* ---- SelectV2 ---------------------------------------------------------------- */

/* condition is bool (ops_def.dtypes); then and else of one type. */
static enum vops_err select_infer(const struct ops_call *c, struct vops_plan *p,
				   struct vops_error *err)
{
	const struct vops_tensor *t = &c->in[1], *e = &c->in[2];

	if (!ops_dtype_bit(t->dtype))
		return ops_fail(err, VOPS_ERR_DTYPE, "SelectV2 on %s is not supported (vnpu: the "
				"float, integer and bool types)", vops_dtype_name(t->dtype));
	if (e->dtype != t->dtype)
		return ops_fail(err, VOPS_ERR_INPUT,
				"SelectV2: then (%s) and else (%s) have different types",
				vops_dtype_name(t->dtype), vops_dtype_name(e->dtype));
	return ops_ew_infer(c, p, 0, 2, t->dtype, err);
}

static void select_f(const struct ops_call *c, double *restrict o, const double *const *restrict x,
		     size_t n)
{
	size_t j;

	(void)c;
	for (j = 0; j < n; j++)
		o[j] = x[0][j] != 0 ? x[1][j] : x[2][j];
}

static void select_i(const struct ops_call *c, int64_t *restrict o,
		     const int64_t *const *restrict x, size_t n)
{
	size_t j;

	(void)c;
	for (j = 0; j < n; j++)
		o[j] = x[0][j] ? x[1][j] : x[2][j];
}

static enum vops_run_status select_run(const struct ops_call *c, const struct vops_plan *p,
				       const struct ops_bufs *b, struct ops_runner *r)
{
	return ew_run(c, p, b, ops_dt_dom(c->in[1].dtype), select_f, select_i, r);
}

/* ---- ClipByValue ------------------------------------------------------------- */

/* The bounds broadcast to x; the output is x's shape. */
static enum vops_err clip_infer(const struct ops_call *c, struct vops_plan *p,
				 struct vops_error *err)
{
	const struct vops_tensor *x = &c->in[0];
	int64_t dims[VOPS_MAX_RANK];
	char s[3][96];
	int ndim;
	enum vops_err ret = ops_broadcast(c, 0, 2, &ndim, dims, err);

	if (ret)
		return ret;
	if (ndim != x->ndim || (ndim && memcmp(dims, x->dims, (size_t)ndim * sizeof(*dims))))
		return ops_fail(err, VOPS_ERR_INPUT,
				"ClipByValue: clip_value_min %s and clip_value_max %s do not "
				"broadcast to x's shape %s",
				vops_shape_str(s[0], sizeof(s[0]), c->in[1].ndim, c->in[1].dims),
				vops_shape_str(s[1], sizeof(s[1]), c->in[2].ndim, c->in[2].dims),
				vops_shape_str(s[2], sizeof(s[2]), x->ndim, x->dims));
	return ops_ew_infer(c, p, 0, 2, x->dtype, err);
}

/* NaN stays NaN; min > max gives max (numpy's clip). */
static void clip_f(const struct ops_call *c, double *restrict o, const double *const *restrict x,
		   size_t n)
{
	size_t j;

	(void)c;
	for (j = 0; j < n; j++) {
		double v = x[0][j];

		if (v < x[1][j])
			v = x[1][j];
		if (v > x[2][j])
			v = x[2][j];
		o[j] = v;
	}
}

static void clip_i(const struct ops_call *c, int64_t *restrict o, const int64_t *const *restrict x,
		   size_t n)
{
	bool u = uns(c);
	size_t j;

	for (j = 0; j < n; j++) {
		int64_t v = x[0][j];

		if (lt_i(u, v, x[1][j]))
			v = x[1][j];
		if (lt_i(u, x[2][j], v))
			v = x[2][j];
		o[j] = v;
	}
}

static enum vops_run_status clip_run(const struct ops_call *c, const struct vops_plan *p,
				     const struct ops_bufs *b, struct ops_runner *r)
{
	return ew_run(c, p, b, ops_dt_dom(c->in[0].dtype), clip_f, clip_i, r);
}

/* ---- the list ------------------------------------------------------------------ */

#define OP(var, nm, idx, ni, nimax, fl, types, at, prs, inf, wsf, rn)			\
	static const struct ops_def var = {						\
		.name = nm, .id = OPS_ID_BINARY + (idx), .nin = ni, .nout = 1,		\
		.nin_max = nimax, .attr_fmt = OPS_AF_NONE, .flags = OPS_DEF_STRIDED | (fl),	\
		.dtypes = types, .attrs = at, .parse = prs, .infer = inf,		\
		.workspace = wsf, .run = rn,						\
	}

#define BIN(var, nm, idx, types, inf, rn)						\
	OP(var, nm, idx, 2, 0, 0, types, no_attrs, NULL, inf, ops_ws_none, rn)

OP(def_pow, "Pow", 0, 2, 0, OPS_DEF_MIXED, OPS_DT_NUM, no_attrs, NULL, pow_infer, ops_ws_none,
   pow_run);
BIN(def_mod, "Mod", 1, OPS_DT_NUM, same_infer, floormod_run);
BIN(def_floormod, "FloorMod", 2, OPS_DT_NUM, same_infer, floormod_run);
BIN(def_truncmod, "TruncateMod", 3, OPS_DT_NUM, same_infer, truncmod_run);
BIN(def_maximum, "Maximum", 4, OPS_DT_NUM, same_infer, cmp_run);
BIN(def_minimum, "Minimum", 5, OPS_DT_NUM, same_infer, cmp_run);
OP(def_maxn, "MaxN", 6, 1, VOPS_MAX_INPUTS, 0, OPS_DT_NUM, no_attrs, NULL, same_infer, fold_ws,
   max_run);
OP(def_min, "Min", 7, 1, VOPS_MAX_INPUTS, 0, OPS_DT_NUM, no_attrs, NULL, same_infer, fold_ws,
   min_run);
OP(def_accn, "AccumulateNV2", 8, 1, VOPS_MAX_INPUTS, 0, OPS_DT_NUM, n_attrs, n_parse, same_infer,
   fold_ws, sum_run);
OP(def_addn, "AddN", 9, 1, VOPS_MAX_INPUTS, 0, OPS_DT_NUM, n_attrs, n_parse, same_infer, fold_ws,
   sum_run);
OP(def_mean, "Mean", 10, 1, VOPS_MAX_INPUTS, 0, OPS_DT_REAL, no_attrs, NULL, same_infer, fold_ws,
   mean_run);
BIN(def_prelu, "PRelu", 11, OPS_DT_REAL | OPS_DT_SINT, prelu_infer, prelu_run);
BIN(def_lsh, "LeftShift", 12, OPS_DT_INTS, same_infer, lsh_run);
BIN(def_rsh, "RightShift", 13, OPS_DT_INTS, same_infer, rsh_run);
BIN(def_and, "LogicalAnd", 14, OPS_DT_BOOL, same_infer, and_run);
BIN(def_or, "LogicalOr", 15, OPS_DT_BOOL, same_infer, or_run);
OP(def_not, "LogicalNot", 16, 1, 0, 0, OPS_DT_BOOL, no_attrs, NULL, same_infer, ops_ws_none,
   not_run);
BIN(def_eq, "Equal", 17, OPS_DT_ANY, bool_infer, cmp_run);
BIN(def_ne, "NotEqual", 18, OPS_DT_ANY, bool_infer, cmp_run);
BIN(def_gt, "Greater", 19, OPS_DT_ANY, bool_infer, cmp_run);
BIN(def_ge, "GreaterEqual", 20, OPS_DT_ANY, bool_infer, cmp_run);
BIN(def_lt, "Less", 21, OPS_DT_ANY, bool_infer, cmp_run);
BIN(def_le, "LessEqual", 22, OPS_DT_ANY, bool_infer, cmp_run);
OP(def_select, "SelectV2", 23, 3, 0, OPS_DEF_MIXED, OPS_DT_BOOL, no_attrs, NULL, select_infer,
   ops_ws_none, select_run);
OP(def_clip, "ClipByValue", 24, 3, 0, 0, OPS_DT_NUM, no_attrs, NULL, clip_infer, ops_ws_none,
   clip_run);
BIN(def_band, "BitwiseAnd", 25, OPS_DT_INTS | OPS_DT_BOOL, same_infer, band_run);
BIN(def_bor, "BitwiseOr", 26, OPS_DT_INTS | OPS_DT_BOOL, same_infer, bor_run);
BIN(def_bxor, "BitwiseXor", 27, OPS_DT_INTS | OPS_DT_BOOL, same_infer, bxor_run);

static int cmp_index(const struct ops_def *def)
{
	switch (def->id - OPS_ID_BINARY) {
	case 4: return CMP_MAX;
	case 5: return CMP_MIN;
	default: return CMP_EQ + (def->id - OPS_ID_BINARY - 17);
	}
}

/* Index i holds id OPS_ID_BINARY + i; append only. */
const struct ops_def *const ops_binary_defs[] = {
	&def_pow, &def_mod, &def_floormod, &def_truncmod, &def_maximum, &def_minimum, &def_maxn,
	&def_min, &def_accn, &def_addn, &def_mean, &def_prelu, &def_lsh, &def_rsh, &def_and,
	&def_or, &def_not, &def_eq, &def_ne, &def_gt, &def_ge, &def_lt, &def_le, &def_select,
	&def_clip, &def_band, &def_bor, &def_bxor,
	NULL,
};
