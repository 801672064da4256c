// SPDX-License-Identifier: MIT
/*
 * op_eltwise.c - the element-wise operators: Add, Sub, Mul, RealDiv, Relu,
 * Abs and Cast.
 *
 *   Add Sub Mul RealDiv  2 inputs of one type that broadcast (numpy); the
 *                        fast kernels take equal shapes or one operand of a
 *                        single element, everything else ops_elem's blocks
 *   Relu Abs             1 input
 *   Cast                 1 input; dst_type (a data type or an int), truncate
 *                        (accepted; float to int32 always truncates)
 *
 * Types: ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32 (a Cast's output
 * too). int32 wraps modulo 2^32; RealDiv of int32 truncates toward zero,
 * INT_MIN / -1 is INT_MIN and a zero divisor fails the run
 * (VOPS_RUN_ARITH). No workspace. In place: an input with as many elements
 * as the output (not a broadcast scalar), and a Cast's input when the
 * output's elements are not wider.
 */
#include <math.h>
#include <string.h>

#include "ops_int.h"

static const char *const no_attrs[] = { NULL };
static const char *const cast_attrs[] = { "dst_type", "truncate", NULL };

/* ---- binary ------------------------------------------------------------------- */

/*
 * The fast kernels' layout of a binary call, when it has one: dense
 * operands of version 1's types, equal shapes or one operand of a single
 * element. *@n output elements, *@flags the broadcast operand
 * (OPS_F_SCALAR_IN*, 0 for equal shapes).
 */
static bool binary_fast(const struct ops_call *c, uint64_t *n, uint32_t *flags)
{
	const struct vops_tensor *a = &c->in[0], *b = &c->in[1];
	uint64_t ca, cb;

	*flags = 0;
	if (!(ops_dtype_bit(a->dtype) & OPS_DT_ALL) || !ops_is_dense(a) || !ops_is_dense(b) ||
	    !ops_count(a, &ca) || !ops_count(b, &cb))
		return false;
	if (a->ndim == b->ndim && (!a->ndim || !memcmp(a->dims, b->dims, (size_t)a->ndim * sizeof(*a->dims)))) {
		*n = ca;
		return true;
	}
	if (cb != 1 && ca != 1)
		return false;
	*flags = cb == 1 ? OPS_F_SCALAR_IN1 : OPS_F_SCALAR_IN0;
	*n = cb == 1 ? ca : cb;
	return true;
}

/*
 * The output of an element-wise call of inputs @first .. @last
 * (broadcast), type @odt; the inputs' dense sizes; in place for a dense
 * input of the output's shape whose elements are as wide as the output's.
 */
enum vops_err ops_ew_infer(const struct ops_call *c, struct vops_plan *p, int first, int last,
			   int32_t odt, struct vops_error *err)
{
	int64_t dims[VOPS_MAX_RANK];
	uint64_t n = 1;
	int ndim, i, d;
	enum vops_err ret;

	ret = ops_broadcast(c, first, last, &ndim, dims, err);
	if (ret)
		return ret;
	for (d = 0; d < ndim; d++)
		if (!ops_mul(n, (uint64_t)dims[d], &n))
			return ops_too_large(c->def, err);
	if (n > VOPS_MAX_DIM)
		return ops_too_large(c->def, err);
	ret = ops_set_out_n(c, p, 0, odt, ndim, dims, err);
	for (i = 0; !ret && i < c->nin; i++) {
		const struct vops_tensor *t = &c->in[i];
		uint64_t cnt;

		ret = ops_set_in_dense(c, p, i, err);
		/* Broadcast to the output with as many elements: the same order. */
		if (!ret && i >= first && i <= last && ops_count(t, &cnt) && cnt == n &&
		    ops_esize(t->dtype) == ops_esize(odt))
			p->in_place |= 1u << i;
	}
	p->empty = n == 0;
	return ret;
}

enum vops_run_status ops_ew_call(const struct ops_call *c, const struct vops_plan *p,
				 const struct ops_bufs *b, int first, int last, enum ops_dom dom,
				 ops_ew_f64_fn f64, ops_ew_i64_fn i64, struct ops_runner *r)
{
	struct ops_ew e = {
		.c = c, .ndim = p->out[0].ndim, .dims = p->out[0].dims, .nin = last - first + 1,
		.in = &c->in[first], .x = (const void *const *)&b->in[first], .odt = p->out[0].dtype,
		.out = b->out[0], .dom = dom, .f64 = f64, .i64 = i64,
	};

	return ops_ew_run(&e, r);
}

static void add_f(const struct ops_call *c, double *restrict o, const double *const *restrict x, size_t n)
{
	size_t j;

	(void)c;
	for (j = 0; j < n; j++)
		o[j] = x[0][j] + x[1][j];
}

static void sub_f(const struct ops_call *c, double *restrict o, const double *const *restrict x, size_t n)
{
	size_t j;

	(void)c;
	for (j = 0; j < n; j++)
		o[j] = x[0][j] - x[1][j];
}

static void mul_f(const struct ops_call *c, double *restrict o, const double *const *restrict x, size_t n)
{
	size_t j;

	(void)c;
	for (j = 0; j < n; j++)
		o[j] = x[0][j] * x[1][j];
}

static void div_f(const struct ops_call *c, double *restrict o, const double *const *restrict x, size_t n)
{
	size_t j;

	(void)c;
	for (j = 0; j < n; j++)
		o[j] = x[0][j] / x[1][j];
}

/* Integer arithmetic wraps (done on the unsigned bits); the store keeps the low bits. */
static void add_i(const struct ops_call *c, int64_t *restrict o, const int64_t *const *restrict x, size_t n)
{
	size_t j;

	(void)c;
	for (j = 0; j < n; j++)
		o[j] = (int64_t)((uint64_t)x[0][j] + (uint64_t)x[1][j]);
}

static void sub_i(const struct ops_call *c, int64_t *restrict o, const int64_t *const *restrict x, size_t n)
{
	size_t j;

	(void)c;
	for (j = 0; j < n; j++)
		o[j] = (int64_t)((uint64_t)x[0][j] - (uint64_t)x[1][j]);
}

static void mul_i(const struct ops_call *c, int64_t *restrict o, const int64_t *const *restrict x, size_t n)
{
	size_t j;

	(void)c;
	for (j = 0; j < n; j++)
		o[j] = (int64_t)((uint64_t)x[0][j] * (uint64_t)x[1][j]);
}

/* Truncating division; a zero divisor is checked before the run starts. */
static void div_i(const struct ops_call *c, int64_t *restrict o, const int64_t *const *restrict x, size_t n)
{
	bool u = ops_dt_unsigned(c->in[0].dtype);
	size_t j;

	for (j = 0; j < n; j++) {
		int64_t a = x[0][j], d = x[1][j];

		if (!d)
			o[j] = 0;
		else if (u)
			o[j] = (int64_t)((uint64_t)a / (uint64_t)d);
		else if (d == -1)
			o[j] = (int64_t)(0 - (uint64_t)a);
		else
			o[j] = a / d;
	}
}

static const struct {
	ops_ew_f64_fn f;
	ops_ew_i64_fn i;
} binary_fns[] = {
	[OPS_K_ADD] = { add_f, add_i },
	[OPS_K_SUB] = { sub_f, sub_i },
	[OPS_K_MUL] = { mul_f, mul_i },
	[OPS_K_DIV] = { div_f, div_i },
};

/* true when some element of integer input @t (memory @x) is 0. */
bool ops_any_zero(const struct vops_tensor *t, const void *x)
{
	int64_t st[VOPS_MAX_RANK], v[OPS_EW_BLOCK], j0;
	const int64_t *stp = st;
	struct ops_iter it;

	ops_strides(t, st);
	ops_iter_init(&it, t->ndim, t->dims, 1, &stp, &t->offset);
	if (!it.rows)
		return false;
	do {
		int64_t len = it.dims[it.ndim - 1], s = it.st[0][it.ndim - 1];

		for (j0 = 0; j0 < len; j0 += OPS_EW_BLOCK) {
			size_t n = (size_t)ops_min((uint64_t)(len - j0), OPS_EW_BLOCK), j;

			ops_load_i64(v, x, t->dtype, it.off[0] + j0 * s, s, n);
			for (j = 0; j < n; j++)
				if (!v[j])
					return true;
		}
	} while (ops_iter_next(&it));
	return false;
}

static enum vops_err binary_infer(const struct ops_call *c, struct vops_plan *p, struct vops_error *err)
{
	uint64_t n;
	uint32_t flags;

	if (binary_fast(c, &n, &flags)) {
		enum vops_err ret = ops_ew_infer(c, p, 0, 1, c->in[0].dtype, err);

		/* The fast kernels do not run in place on a broadcast scalar. */
		if (!ret && flags)
			p->in_place &= (flags & OPS_F_SCALAR_IN0) ? ~1u : ~2u;
		return ret;
	}
	return ops_ew_infer(c, p, 0, 1, c->in[0].dtype, err);
}

static enum vops_run_status binary_run(const struct ops_call *c, const struct vops_plan *p,
				       const struct ops_bufs *b, struct ops_runner *r)
{
	struct ops_args a = {
		.kind = c->def->kind, .dt = c->in[0].dtype, .odt = c->in[0].dtype,
		.in0 = b->in[0], .in1 = b->in[1], .out = b->out[0],
	};
	enum ops_dom dom = ops_dt_dom(a.dt);

	if (binary_fast(c, &a.d[0], &a.flags))
		return ops_prim_run(&a, r);
	if (dom == OPS_DOM_I64 && c->def->kind == OPS_K_DIV && ops_any_zero(&c->in[1], b->in[1]))
		return VOPS_RUN_ARITH;
	return ops_ew_call(c, p, b, 0, 1, dom, binary_fns[c->def->kind].f, binary_fns[c->def->kind].i, r);
}

#define BINARY_OP(var, op_name, op_id, op_kind)						\
	const struct ops_def var = {							\
		.name = op_name, .id = op_id, .kind = op_kind, .nin = 2, .nout = 1,	\
		.attr_fmt = OPS_AF_NONE, .flags = OPS_DEF_STRIDED, .dtypes = OPS_DT_NUM,	\
		.attrs = no_attrs, .infer = binary_infer, .workspace = ops_ws_none,	\
		.run = binary_run,							\
	}

BINARY_OP(ops_def_add, "Add", OPS_ID_ADD, OPS_K_ADD);
BINARY_OP(ops_def_sub, "Sub", OPS_ID_SUB, OPS_K_SUB);
BINARY_OP(ops_def_mul, "Mul", OPS_ID_MUL, OPS_K_MUL);
BINARY_OP(ops_def_realdiv, "RealDiv", OPS_ID_REALDIV, OPS_K_DIV);

/* ---- unary and Cast --------------------------------------------------------------- */

/* Output type of a unary call: a Cast's dst, else the input's. */
static int32_t unary_out_type(const struct ops_call *c)
{
	return c->def->id == OPS_ID_CAST ? c->at.dst : c->in[0].dtype;
}

/* The fast kernels take dense tensors of version 1's four types. */
static bool unary_fast(const struct ops_call *c)
{
	return (ops_dtype_bit(c->in[0].dtype) & OPS_DT_ALL) &&
	       (ops_dtype_bit(unary_out_type(c)) & OPS_DT_ALL) && ops_is_dense(&c->in[0]);
}

static enum vops_err unary_infer(const struct ops_call *c, struct vops_plan *p, struct vops_error *err)
{
	int32_t odt = unary_out_type(c);
	enum vops_err ret = ops_ew_infer(c, p, 0, 0, odt, err);

	if (!ret)
		p->in_place = ops_esize(odt) <= ops_esize(c->in[0].dtype) ? 1u : 0u;
	return ret;
}

static void relu_f(const struct ops_call *c, double *restrict o, const double *const *restrict x, size_t n)
{
	size_t j;

	(void)c;
	for (j = 0; j < n; j++)
		o[j] = x[0][j] < 0 ? 0.0 : x[0][j];
}

static void relu_i(const struct ops_call *c, int64_t *restrict o, const int64_t *const *restrict x, size_t n)
{
	size_t j;

	(void)c;
	for (j = 0; j < n; j++)
		o[j] = x[0][j] < 0 ? 0 : x[0][j];
}

static void abs_f(const struct ops_call *c, double *restrict o, const double *const *restrict x, size_t n)
{
	size_t j;

	(void)c;
	for (j = 0; j < n; j++)
		o[j] = fabs(x[0][j]);
}

/* Wraps: the absolute value of the most negative integer is itself. */
static void abs_i(const struct ops_call *c, int64_t *restrict o, const int64_t *const *restrict x, size_t n)
{
	size_t j;

	(void)c;
	for (j = 0; j < n; j++)
		o[j] = x[0][j] < 0 ? (int64_t)(0 - (uint64_t)x[0][j]) : x[0][j];
}

void ops_copy_f(const struct ops_call *c, double *restrict o, const double *const *restrict x, size_t n)
{
	(void)c;
	memcpy(o, x[0], n * sizeof(*o));
}

void ops_copy_i(const struct ops_call *c, int64_t *restrict o, const int64_t *const *restrict x, size_t n)
{
	(void)c;
	memcpy(o, x[0], n * sizeof(*o));
}

static enum vops_run_status unary_run(const struct ops_call *c, const struct vops_plan *p,
				      const struct ops_bufs *b, struct ops_runner *r)
{
	struct ops_args a = {
		.kind = c->def->kind, .dt = c->in[0].dtype, .odt = unary_out_type(c),
		.in0 = b->in[0], .out = b->out[0],
	};
	enum ops_dom dom = ops_dt_dom(a.dt);

	if (unary_fast(c)) {
		a.d[0] = p->in_bytes[0] / ops_esize(a.dt);
		return ops_prim_run(&a, r);
	}
	switch (c->def->kind) {
	case OPS_K_RELU:
		return ops_ew_call(c, p, b, 0, 0, dom, relu_f, relu_i, r);
	case OPS_K_ABS:
		return ops_ew_call(c, p, b, 0, 0, dom, abs_f, abs_i, r);
	default:
		return ops_ew_call(c, p, b, 0, 0, dom, ops_copy_f, ops_copy_i, r);
	}
}

#define UNARY_OP(var, op_name, op_id, op_kind, types)					\
	const struct ops_def var = {							\
		.name = op_name, .id = op_id, .kind = op_kind, .nin = 1, .nout = 1,	\
		.attr_fmt = OPS_AF_NONE, .flags = OPS_DEF_STRIDED, .dtypes = types,	\
		.attrs = no_attrs, .infer = unary_infer, .workspace = ops_ws_none,	\
		.run = unary_run,							\
	}

UNARY_OP(ops_def_relu, "Relu", OPS_ID_RELU, OPS_K_RELU, OPS_DT_REAL | OPS_DT_SINT);
UNARY_OP(ops_def_abs, "Abs", OPS_ID_ABS, OPS_K_ABS, OPS_DT_NUM);

static enum vops_err cast_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
				struct vops_error *err)
{
	const struct vops_attr *a = vops_attr_find(attrs, n, "dst_type");
	bool truncate;

	if (!a)
		return ops_fail(err, VOPS_ERR_ATTR, "Cast needs the attribute dst_type (the output type)");
	if (a->kind == VOPS_ATTR_DTYPE)
		c->at.dst = a->dt;
	else if (a->kind == VOPS_ATTR_INT && a->i >= INT32_MIN && a->i <= INT32_MAX)
		c->at.dst = (int32_t)a->i;
	else
		return ops_fail(err, VOPS_ERR_ATTR, "Cast: attribute dst_type must be a data type or an int");
	/* vnpu's float to int32 conversion always truncates (toward zero). */
	return ops_attr_bool(c->def, attrs, n, "truncate", false, &truncate, err);
}

static enum vops_err cast_infer(const struct ops_call *c, struct vops_plan *p, struct vops_error *err)
{
	if (!ops_dtype_bit(c->at.dst))
		return ops_fail(err, VOPS_ERR_DTYPE,
				"Cast to %s (%d) is not supported (vnpu: the float, integer and bool types)",
				vops_dtype_name(c->at.dst), (int)c->at.dst);
	return unary_infer(c, p, err);
}

const struct ops_def ops_def_cast = {
	.name = "Cast", .id = OPS_ID_CAST, .kind = OPS_K_CAST, .nin = 1, .nout = 1,
	.attr_fmt = OPS_AF_CAST, .flags = OPS_DEF_STRIDED, .dtypes = OPS_DT_ANY, .attrs = cast_attrs,
	.parse = cast_parse,
	.infer = cast_infer, .workspace = ops_ws_none, .run = unary_run,
};
