// SPDX-License-Identifier: MIT
/*
 * nn_math_binary.c - aclnn's arithmetic: Add, Sub, Rsub, Mul, Div, DivMod,
 * Pow, Maximum, Minimum, Remainder in their tensor, scalar and in-place
 * forms, the list sum AddN, and the binary builder the comparisons share
 * (nnm_binary).
 *
 * Every form is one nnm_binary() call: the operands are promoted (tensor
 * with tensor: nn_promote; with a host scalar: nn_promote_scalar, so an
 * int32 tensor plus 2.5 computes in float and an fp16 tensor plus 2.5
 * stays fp16), cast to that type, alpha multiplies the other operand
 * unless it is 1 (checked here, so alpha == 1 costs no step), one lib/ops
 * operator computes, and nn_store writes the out of any type the result
 * can be cast to, any view, overlapping the inputs or not.
 */
#include <stddef.h>

#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_add_n.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_floor_divide.h"
#include "aclnnop/aclnn_fmod_scalar.h"
#include "aclnnop/aclnn_fmod_tensor.h"
#include "aclnnop/aclnn_maximum.h"
#include "aclnnop/aclnn_minimum.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_pow_tensor_tensor.h"
#include "aclnnop/aclnn_remainder.h"
#include "aclnnop/aclnn_rsub.h"
#include "aclnnop/aclnn_sub.h"
#include "nn_math.h"
#include "nn_shape_util.h"

/* ---- shared checks -------------------------------------------------------- */

bool nnm_can_cast(aclDataType from, aclDataType to)
{
	if (nn_dt_float(from) && !nn_dt_float(to))
		return false;
	return from == ACL_BOOL || to != ACL_BOOL;
}

bool nnm_check_out_type(struct nn_exec *x, aclDataType from, nn_val out, const char *name)
{
	aclDataType to;

	if (!nn_ok(x))
		return false;
	to = nn_view(x, out)->dtype;
	if (nnm_can_cast(from, to))
		return true;
	nn_fail(x, ACLNN_ERR_PARAM_INVALID, "the result type %s cannot be cast to %s's type %s",
		vops_dtype_name(from), name, vops_dtype_name(to));
	return false;
}

bool nnm_check_rank(struct nn_exec *x, nn_val v, const char *name)
{
	return nn_check_rank(x, v, name, 0, NNM_MAX_RANK);
}

/* ---- the binary builder ------------------------------------------------- */

nn_val nnm_op2(struct nn_exec *x, const char *op, nn_val a, nn_val b)
{
	const nn_val in[2] = { a, b };

	return nn_op1(x, op, 2, in, NULL, 0);
}

static nn_val op1(struct nn_exec *x, const char *op, nn_val a)
{
	return nn_op1(x, op, 1, &a, NULL, 0);
}

/* Is alpha 1 in the computation? Exactly 1 only: anything else multiplies. */
static bool alpha_is_one(const aclScalar *alpha)
{
	if (nn_dt_float(alpha->dtype))
		return nn_scalar_f64(alpha) == 1.0;
	return nn_scalar_i64(alpha) == 1;
}

/* A tensor operand, or a host scalar's NULL check (its value is made once
 * the computation type is known). */
static nn_val take(struct nn_exec *x, bool scalar, const aclTensor *t, const aclScalar *s, const char *name)
{
	if (scalar) {
		nn_null(x, s, name);
		return NN_NONE;
	}
	return nn_in(x, t, name);
}

static aclDataType operand_type(struct nn_exec *x, bool scalar, const aclScalar *s, nn_val v)
{
	return scalar ? s->dtype : nn_view(x, v)->dtype;
}

/* The computation type of @c's operands under @b's rules (ACL_UINT8 for
 * bool where @b computes bool in it), its result type in *@rt. */
static aclDataType compute_type(struct nn_exec *x, const struct nnm_bin *b, const struct nnm_call *c,
				aclDataType ta, aclDataType tb, aclDataType *rt)
{
	aclDataType ct;

	if (c->scalar_other)
		ct = nn_promote_scalar(ta, tb);
	else if (c->scalar_self)
		ct = nn_promote_scalar(tb, ta);
	else
		ct = nn_promote(ta, tb);
	if (ct == ACL_DT_UNDEFINED) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "%s (%s) and %s (%s) have no common type", c->self_name,
			vops_dtype_name(ta), c->other_name, vops_dtype_name(tb));
		return ACL_DT_UNDEFINED;
	}
	if (b->flags & NNM_LOGICAL) {
		*rt = ACL_BOOL;
		return ACL_BOOL;
	}
	if ((b->flags & NNM_INTEGRAL) && !nn_dt_int(ct) && ct != ACL_BOOL) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "%s (%s) and %s (%s) compute in %s: integer or bool types only",
			c->self_name, vops_dtype_name(ta), c->other_name, vops_dtype_name(tb), vops_dtype_name(ct));
		return ACL_DT_UNDEFINED;
	}
	if ((b->flags & NNM_TRUEDIV) && !nn_dt_float(ct))
		ct = ACL_FLOAT;
	*rt = (b->flags & NNM_BOOL_OUT) ? ACL_BOOL : ct;
	if (ct != ACL_BOOL || (b->flags & NNM_BOOL_OUT))
		return ct;
	if (b->flags & (NNM_BOOL_U8 | NNM_BOOL_OR))
		return ACL_UINT8;
	if (b->flags & NNM_NO_BOOL) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "%s and %s are bool: not supported", c->self_name,
			c->other_name);
		return ACL_DT_UNDEFINED;
	}
	return ct;
}

aclnnStatus nnm_binary(const struct nnm_bin *b, const struct nnm_call *c, uint64_t *ws, aclOpExecutor **ex)
{
	struct nn_exec *x = nn_begin(c->api);
	nn_val a = take(x, c->scalar_self, c->self, c->self_s, c->self_name);
	nn_val o2 = take(x, c->scalar_other, c->other, c->other_s, c->other_name);
	nn_val o = nn_out(x, c->out, c->out_name), r;
	aclDataType ct, rt = ACL_DT_UNDEFINED, talpha;
	int64_t dims[VOPS_MAX_RANK];

	if (b->flags & NNM_ALPHA)
		nn_null(x, c->alpha, "alpha");
	if (!nn_ok(x))
		return nn_finish(x, ws, ex);
	if (!c->scalar_self)
		nnm_check_rank(x, a, c->self_name);
	if (!c->scalar_other)
		nnm_check_rank(x, o2, c->other_name);
	if (!c->scalar_self && !c->scalar_other)
		nn_broadcast(x, a, o2, dims);
	ct = compute_type(x, b, c, operand_type(x, c->scalar_self, c->self_s, a),
			  operand_type(x, c->scalar_other, c->other_s, o2), &rt);
	if (!nn_ok(x))
		return nn_finish(x, ws, ex);
	if (b->flags & NNM_ALPHA) {
		/* ct, not the uint8 of bool: a bool alpha goes with bool only. */
		aclDataType ct_alpha = ct == ACL_UINT8 && rt == ACL_BOOL ? ACL_BOOL : ct;

		talpha = c->alpha->dtype;
		if (!nnm_can_cast(talpha, ct_alpha)) {
			nn_fail(x, ACLNN_ERR_PARAM_INVALID, "alpha (%s) cannot be cast to the computation type %s",
				vops_dtype_name(talpha), vops_dtype_name(ct_alpha));
			return nn_finish(x, ws, ex);
		}
	}
	if (!nnm_check_out_type(x, rt, o, c->out_name))
		return nn_finish(x, ws, ex);

	a = c->scalar_self ? nn_scalar(x, c->self_s, ct, c->self_name) : nn_cast(x, a, ct);
	o2 = c->scalar_other ? nn_scalar(x, c->other_s, ct, c->other_name) : nn_cast(x, o2, ct);
	if ((b->flags & NNM_ALPHA) && !alpha_is_one(c->alpha)) {
		nn_val al = nn_scalar(x, c->alpha, ct, "alpha");

		if (b->flags & NNM_SWAP)
			a = nnm_op2(x, "Mul", a, al);
		else
			o2 = nnm_op2(x, "Mul", o2, al);
	}
	if (b->flags & NNM_SWAP) {
		nn_val t = a;

		a = o2;
		o2 = t;
	}
	r = b->build ? b->build(x, b, a, o2, ct) : nnm_op2(x, b->op, a, o2);
	if (b->flags & NNM_BOOL_OR)
		r = nn_cast(x, r, rt);
	nn_store(x, r, o);
	return nn_finish(x, ws, ex);
}

/* ---- Add, Sub, Rsub, Mul, Div ------------------------------------------------ */

/* bool + bool is logical or (PyTorch): computed in uint8, nonzero is true. */
static const struct nnm_bin add_b = { .op = "Add", .flags = NNM_ALPHA | NNM_BOOL_OR };
static const struct nnm_bin sub_b = { .op = "Sub", .flags = NNM_ALPHA | NNM_NO_BOOL };
static const struct nnm_bin rsub_b = { .op = "Sub", .flags = NNM_ALPHA | NNM_SWAP | NNM_NO_BOOL };
static const struct nnm_bin mul_b = { .op = "Mul", .flags = NNM_BOOL_U8 };
static const struct nnm_bin div_b = { .op = "RealDiv", .flags = NNM_TRUEDIV };

NNM_DEF_TT_ALPHA(aclnnAdd, add_b)
NNM_DEF_TS_ALPHA(aclnnAdds, add_b)
NNM_DEF_ITT_ALPHA(aclnnInplaceAdd, add_b)
NNM_DEF_ITS_ALPHA(aclnnInplaceAdds, add_b)
NNM_DEF_TT_ALPHA(aclnnSub, sub_b)
NNM_DEF_TS_ALPHA(aclnnSubs, sub_b)
NNM_DEF_ITT_ALPHA(aclnnInplaceSub, sub_b)
NNM_DEF_ITS_ALPHA(aclnnInplaceSubs, sub_b)
NNM_DEF_TT_ALPHA(aclnnRsub, rsub_b)
NNM_DEF_TS_ALPHA(aclnnRsubs, rsub_b)
NNM_DEF_TT(aclnnMul, mul_b, "other", )
NNM_DEF_TS(aclnnMuls, mul_b, "other", )
NNM_DEF_ITT(aclnnInplaceMul, mul_b, "other", const)
NNM_DEF_ITS(aclnnInplaceMuls, mul_b, "other", const)
NNM_DEF_TT(aclnnDiv, div_b, "other", )
NNM_DEF_TS(aclnnDivs, div_b, "other", )
NNM_DEF_ITT(aclnnInplaceDiv, div_b, "other", )
NNM_DEF_ITS(aclnnInplaceDivs, div_b, "other", )

/* ---- DivMod ------------------------------------------------------------------ */

enum { DIVMOD_TRUE = 0, DIVMOD_TRUNC = 1, DIVMOD_FLOOR = 2 };

/*
 * The rounded quotients. Integers: RealDiv truncates; floor is
 * (a - floormod(a, b)) / b, exact. Floats: trunc is sign(q) * floor(|q|)
 * (infinities and -0 kept), floor is floor(a / b) of the rounded quotient.
 */
static nn_val divmod_build(struct nn_exec *x, const struct nnm_bin *b, nn_val a, nn_val c, aclDataType ct)
{
	nn_val q;

	switch (b->mode) {
	case DIVMOD_TRUE:
		return nnm_op2(x, "RealDiv", a, c);
	case DIVMOD_TRUNC:
		q = nnm_op2(x, "RealDiv", a, c);
		if (!nn_dt_float(ct))
			return q;
		return nnm_op2(x, "Mul", op1(x, "Sign", q), op1(x, "Floor", op1(x, "Abs", q)));
	case DIVMOD_FLOOR:
		if (!nn_dt_float(ct))
			return nnm_op2(x, "RealDiv", nnm_op2(x, "Sub", a, nnm_op2(x, "FloorMod", a, c)), c);
		return op1(x, "Floor", nnm_op2(x, "RealDiv", a, c));
	default:
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "mode is %d: 0 (true division), 1 (trunc) or 2 (floor)",
			b->mode);
		return NN_NONE;
	}
}

/* Mode 0 divides truly (integers give float); the rounding modes keep an
 * integer type and take no bool. */
static struct nnm_bin divmod_spec(int mode)
{
	return (struct nnm_bin){ .build = divmod_build, .mode = mode,
				 .flags = mode == DIVMOD_TRUE ? NNM_TRUEDIV : NNM_NO_BOOL };
}

aclnnStatus aclnnDivModGetWorkspaceSize(const aclTensor *self, const aclTensor *other, int mode, aclTensor *out,
					uint64_t *ws, aclOpExecutor **ex)
{
	const struct nnm_bin b = divmod_spec(mode);
	const struct nnm_call c = NNM_TT("aclnnDivMod", self, other, NULL, out);

	return nnm_binary(&b, &c, ws, ex);
}
NN_LAUNCH(aclnnDivMod)

aclnnStatus aclnnDivModsGetWorkspaceSize(const aclTensor *self, const aclScalar *other, int mode, aclTensor *out,
					 uint64_t *ws, aclOpExecutor **ex)
{
	const struct nnm_bin b = divmod_spec(mode);
	const struct nnm_call c = NNM_TS("aclnnDivMods", self, other, NULL, out);

	return nnm_binary(&b, &c, ws, ex);
}
NN_LAUNCH(aclnnDivMods)

aclnnStatus aclnnInplaceDivModGetWorkspaceSize(aclTensor *selfRef, const aclTensor *other, int mode, uint64_t *ws,
					       aclOpExecutor **ex)
{
	const struct nnm_bin b = divmod_spec(mode);
	const struct nnm_call c = NNM_ITT("aclnnInplaceDivMod", selfRef, other, NULL);

	return nnm_binary(&b, &c, ws, ex);
}
NN_LAUNCH(aclnnInplaceDivMod)

aclnnStatus aclnnInplaceDivModsGetWorkspaceSize(aclTensor *selfRef, const aclScalar *other, int mode, uint64_t *ws,
						aclOpExecutor **ex)
{
	const struct nnm_bin b = divmod_spec(mode);
	const struct nnm_call c = NNM_ITS("aclnnInplaceDivMods", selfRef, other, NULL);

	return nnm_binary(&b, &c, ws, ex);
}
NN_LAUNCH(aclnnInplaceDivMods)

/* ---- Pow, Maximum, Minimum, Remainder ----------------------------------------- */

static const struct nnm_bin pow_b = { .op = "Pow", .flags = NNM_NO_BOOL };
/* max/min of 0/1 is 0/1: uint8 is exact for bool. */
static const struct nnm_bin max_b = { .op = "Maximum", .flags = NNM_BOOL_U8 };
static const struct nnm_bin min_b = { .op = "Minimum", .flags = NNM_BOOL_U8 };
/* Python's remainder: the divisor's sign. */
static const struct nnm_bin rem_b = { .op = "FloorMod", .flags = NNM_NO_BOOL };

NNM_DEF_TT(aclnnPowTensorTensor, pow_b, "exponent", const)
NNM_DEF_ITT(aclnnInplacePowTensorTensor, pow_b, "exponent", const)
NNM_DEF_TS(aclnnPowTensorScalar, pow_b, "exponent", const)
NNM_DEF_ITS(aclnnInplacePowTensorScalar, pow_b, "exponent", const)

aclnnStatus aclnnPowScalarTensorGetWorkspaceSize(const aclScalar *self, const aclTensor *exponent,
						 const aclTensor *out, uint64_t *ws, aclOpExecutor **ex)
{
	struct nnm_call c = NNM_ST("aclnnPowScalarTensor", self, exponent, out);

	c.other_name = "exponent";
	return nnm_binary(&pow_b, &c, ws, ex);
}
NN_LAUNCH(aclnnPowScalarTensor)

NNM_DEF_TT(aclnnMaximum, max_b, "other", )
NNM_DEF_TT(aclnnMinimum, min_b, "other", )

NNM_DEF_TT(aclnnRemainderTensorTensor, rem_b, "other", )
NNM_DEF_TS(aclnnRemainderTensorScalar, rem_b, "other", )
NNM_DEF_ITT(aclnnInplaceRemainderTensorTensor, rem_b, "other", )
NNM_DEF_ITS(aclnnInplaceRemainderTensorScalar, rem_b, "other", )

aclnnStatus aclnnRemainderScalarTensorGetWorkspaceSize(const aclScalar *self, const aclTensor *other, aclTensor *out,
						       uint64_t *ws, aclOpExecutor **ex)
{
	const struct nnm_call c = NNM_ST("aclnnRemainderScalarTensor", self, other, out);

	return nnm_binary(&rem_b, &c, ws, ex);
}
NN_LAUNCH(aclnnRemainderScalarTensor)

/* ---- Fmod, FloorDivide ---------------------------------------------------------- */

/* C's fmod: the remainder takes the dividend's sign. */
static const struct nnm_bin fmod_b = { .op = "TruncateMod", .flags = NNM_NO_BOOL };

NNM_DEF_TT(aclnnFmodTensor, fmod_b, "other", )
NNM_DEF_TS(aclnnFmodScalar, fmod_b, "other", )
NNM_DEF_ITT(aclnnInplaceFmodTensor, fmod_b, "other", )
NNM_DEF_ITS(aclnnInplaceFmodScalar, fmod_b, "other", )

/* PyTorch's floor_divide: DivMod's floor mode. */
static const struct nnm_bin floor_div_b = { .build = divmod_build, .mode = DIVMOD_FLOOR, .flags = NNM_NO_BOOL };

NNM_DEF_TT(aclnnFloorDivide, floor_div_b, "other", )
NNM_DEF_TS(aclnnFloorDivides, floor_div_b, "other", )
NNM_DEF_ITT(aclnnInplaceFloorDivide, floor_div_b, "other", )
NNM_DEF_ITS(aclnnInplaceFloorDivides, floor_div_b, "other", )

/* ---- AddN ------------------------------------------------------------------------ */

/* The most tensors one call takes (lib/ops' AddN takes VOPS_MAX_INPUTS a step). */
#define ADDN_MAX 1024

/*
 * The sum of a list of tensors of one type and one shape (CANN's rules:
 * no broadcast, no promotion, out of their type). More than lib/ops' AddN
 * takes at once are summed in steps, each adding the previous partial sum.
 * An empty list sums to zeros (vnpu's choice; CANN gives an empty out).
 */
aclnnStatus aclnnAddNGetWorkspaceSize(const aclTensorList *tensors, aclTensor *out, uint64_t *ws, aclOpExecutor **ex)
{
	static const aclDataType dts[] = { ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT64 };
	struct nn_exec *x = nn_begin("aclnnAddN");
	nn_val in[ADDN_MAX], o = nn_out(x, out, "out"), acc = NN_NONE;
	int n = nn_in_list(x, tensors, "tensors", in, ADDN_MAX, true), k = 0;
	const struct nn_view *v0;

	if (n < 0 || !nn_ok(x))
		return nn_finish(x, ws, ex);
	if (!n) {
		nn_fill(x, o, 0);
		return nn_finish(x, ws, ex);
	}
	v0 = nn_view(x, in[0]);
	nn_check_dtype(x, in[0], "tensors", dts, (int)NN_COUNT(dts));
	nnm_check_rank(x, in[0], "tensors");
	for (int i = 1; i < n; i++) {
		nns_same_dtype(x, in[i], "a tensor of tensors", in[0], "tensors[0]");
		nns_check_shape(x, in[i], "a tensor of tensors", v0->ndim, v0->dims);
	}
	nns_same_dtype(x, o, "out", in[0], "tensors[0]");
	while (nn_ok(x) && k < n) {
		nn_val part[VOPS_MAX_INPUTS];
		int m = 0;

		if (k)
			part[m++] = acc;
		while (m < VOPS_MAX_INPUTS && k < n)
			part[m++] = in[k++];
		{
			const struct vops_attr at[] = { NN_ATTR_INT("N", m) };

			acc = nn_op1(x, "AddN", m, part, at, NN_COUNT(at));
		}
	}
	nn_store(x, acc, o);
	return nn_finish(x, ws, ex);
}
NN_LAUNCH(aclnnAddN)
