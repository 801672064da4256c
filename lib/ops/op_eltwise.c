// SPDX-License-Identifier: MIT
/*
 * op_eltwise.c - the element-wise operators: Add, Sub, Mul, RealDiv, Relu,
 * Abs and Cast.
 *
 *   Add Sub Mul RealDiv  2 inputs of one type; equal shapes, or one operand
 *                        with a single element (broadcast: the output has
 *                        the other's shape, at the larger rank)
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
#include <string.h>

#include "ops_int.h"

static const char *const no_attrs[] = { NULL };
static const char *const cast_attrs[] = { "dst_type", "truncate", NULL };

/* ---- binary ------------------------------------------------------------------- */

enum binary_shape {
	BIN_OK,
	BIN_TOO_LARGE,
	BIN_MISMATCH,
};

/*
 * The layout of a binary call: *@n output elements, *@flags the broadcast
 * operand (OPS_F_SCALAR_IN*, 0 for equal shapes).
 */
static enum binary_shape binary_layout(const struct ops_call *c, uint64_t *n, uint32_t *flags)
{
	const struct vops_tensor *a = &c->in[0], *b = &c->in[1];
	uint64_t ca, cb;

	*flags = 0;
	if (!ops_count(a, &ca) || !ops_count(b, &cb))
		return BIN_TOO_LARGE;
	if (a->ndim == b->ndim && (!a->ndim || !memcmp(a->dims, b->dims, (size_t)a->ndim * sizeof(*a->dims)))) {
		*n = ca;
		return BIN_OK;
	}
	if (cb != 1 && ca != 1)
		return BIN_MISMATCH;
	*flags = cb == 1 ? OPS_F_SCALAR_IN1 : OPS_F_SCALAR_IN0;
	*n = cb == 1 ? ca : cb;
	return BIN_OK;
}

static enum vops_err binary_infer(const struct ops_call *c, struct vops_plan *p, struct vops_error *err)
{
	const struct vops_tensor *a = &c->in[0], *b = &c->in[1];
	uint64_t n, bytes, es = ops_esize(a->dtype);
	char sa[96], sb[96];
	uint32_t flags;
	int rank, i;

	switch (binary_layout(c, &n, &flags)) {
	case BIN_TOO_LARGE:
		return ops_too_large(c->def, err);
	case BIN_MISMATCH:
		return ops_fail(err, VOPS_ERR_INPUT,
				"%s: input shapes %s and %s differ; vnpu broadcasts only an operand with a "
				"single element", c->def->name, vops_shape_str(sa, sizeof(sa), a->ndim, a->dims),
				vops_shape_str(sb, sizeof(sb), b->ndim, b->dims));
	case BIN_OK:
		break;
	}
	if (n > VOPS_MAX_DIM || !ops_bytes(n, es, &bytes))
		return ops_too_large(c->def, err);
	if (!flags) {
		ops_set_out(p, a->dtype, a->ndim, a->dims, bytes);
	} else {
		/* One side has a single element: the other's dimensions, at the larger rank. */
		rank = a->ndim > b->ndim ? a->ndim : b->ndim;
		for (i = 0; i < rank; i++) {
			int ia = a->ndim - rank + i, ib = b->ndim - rank + i;
			int64_t da = ia >= 0 ? a->dims[ia] : 1, db = ib >= 0 ? b->dims[ib] : 1;

			p->out[0].dims[i] = da > db ? da : db;
		}
		ops_set_out(p, a->dtype, rank, p->out[0].dims, bytes);
	}
	ops_set_in(p, c, 0, (flags & OPS_F_SCALAR_IN0) ? es : bytes);
	ops_set_in(p, c, 1, (flags & OPS_F_SCALAR_IN1) ? es : bytes);
	p->in_place = ((flags & OPS_F_SCALAR_IN0) ? 0 : 1u) | ((flags & OPS_F_SCALAR_IN1) ? 0 : 2u);
	p->empty = n == 0;
	return VOPS_OK;
}

static enum vops_run_status binary_run(const struct ops_call *c, const struct vops_plan *p,
				       const struct ops_bufs *b, struct ops_runner *r)
{
	struct ops_args a = {
		.kind = c->def->kind, .dt = c->in[0].dtype, .odt = c->in[0].dtype,
		.in0 = b->in[0], .in1 = b->in[1], .out = b->out[0],
	};

	(void)p;
	binary_layout(c, &a.d[0], &a.flags);
	return ops_prim_run(&a, r);
}

#define BINARY_OP(var, op_name, op_id, op_kind)						\
	const struct ops_def var = {							\
		.name = op_name, .id = op_id, .kind = op_kind, .nin = 2, .nout = 1,	\
		.attr_fmt = OPS_AF_NONE, .dtypes = OPS_DT_ALL, .attrs = no_attrs,	\
		.infer = binary_infer, .workspace = ops_ws_none, .run = binary_run,	\
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

static enum vops_err unary_infer(const struct ops_call *c, struct vops_plan *p, struct vops_error *err)
{
	const struct vops_tensor *x = &c->in[0];
	int32_t odt = unary_out_type(c);
	uint64_t n, in_bytes, out_bytes;

	if (!ops_count(x, &n) || n > VOPS_MAX_DIM || !ops_bytes(n, ops_esize(x->dtype), &in_bytes) ||
	    !ops_bytes(n, ops_esize(odt), &out_bytes))
		return ops_too_large(c->def, err);
	ops_set_out(p, odt, x->ndim, x->dims, out_bytes);
	ops_set_in(p, c, 0, in_bytes);
	p->in_place = ops_esize(odt) <= ops_esize(x->dtype) ? 1u : 0u;
	p->empty = n == 0;
	return VOPS_OK;
}

static enum vops_run_status unary_run(const struct ops_call *c, const struct vops_plan *p,
				      const struct ops_bufs *b, struct ops_runner *r)
{
	struct ops_args a = {
		.kind = c->def->kind, .dt = c->in[0].dtype, .odt = unary_out_type(c),
		.in0 = b->in[0], .out = b->out[0],
	};

	a.d[0] = p->in_bytes[0] / ops_esize(a.dt);
	return ops_prim_run(&a, r);
}

#define UNARY_OP(var, op_name, op_id, op_kind)						\
	const struct ops_def var = {							\
		.name = op_name, .id = op_id, .kind = op_kind, .nin = 1, .nout = 1,	\
		.attr_fmt = OPS_AF_NONE, .dtypes = OPS_DT_ALL, .attrs = no_attrs,	\
		.infer = unary_infer, .workspace = ops_ws_none, .run = unary_run,	\
	}

UNARY_OP(ops_def_relu, "Relu", OPS_ID_RELU, OPS_K_RELU);
UNARY_OP(ops_def_abs, "Abs", OPS_ID_ABS, OPS_K_ABS);

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
	if (!vops_dtype_size(c->at.dst))
		return ops_fail(err, VOPS_ERR_DTYPE,
				"Cast to %s (%d) is not supported (vnpu: ACL_FLOAT, ACL_FLOAT16, ACL_BF16, "
				"ACL_INT32)", vops_dtype_name(c->at.dst), (int)c->at.dst);
	return unary_infer(c, p, err);
}

const struct ops_def ops_def_cast = {
	.name = "Cast", .id = OPS_ID_CAST, .kind = OPS_K_CAST, .nin = 1, .nout = 1,
	.attr_fmt = OPS_AF_CAST, .dtypes = OPS_DT_ALL, .attrs = cast_attrs, .parse = cast_parse,
	.infer = cast_infer, .workspace = ops_ws_none, .run = unary_run,
};
