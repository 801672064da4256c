// SPDX-License-Identifier: MIT
/*
 * nn_math_compare.c - aclnn's comparisons (Eq, Ne, Gt, Ge, Lt, Le in their
 * tensor, scalar and in-place forms), the logical functions, SWhere and
 * IsInf.
 *
 * A comparison promotes its operands as the arithmetic does (an int32
 * tensor against 2.5 compares in float) and gives bool, which any out
 * type takes (1/0); the in-place forms write it into selfRef's own type.
 * The logical functions take any type as nonzero-is-true. The bitwise
 * ones (And, Or, Xor) compute in the promoted type, integers or bool only
 * (on bool they are the logical ones), and write any out type it casts to.
 */
#include <stddef.h>

#include "aclnnop/aclnn_bitwise_and_scalar.h"
#include "aclnnop/aclnn_bitwise_and_tensor.h"
#include "aclnnop/aclnn_bitwise_or_scalar.h"
#include "aclnnop/aclnn_bitwise_or_tensor.h"
#include "aclnnop/aclnn_bitwise_xor_scalar.h"
#include "aclnnop/aclnn_bitwise_xor_tensor.h"
#include "aclnnop/aclnn_bitwiseand.h"
#include "aclnnop/aclnn_eq_scalar.h"
#include "aclnnop/aclnn_eq_tensor.h"
#include "aclnnop/aclnn_ge_scalar.h"
#include "aclnnop/aclnn_ge_tensor.h"
#include "aclnnop/aclnn_gt_scalar.h"
#include "aclnnop/aclnn_gt_tensor.h"
#include "aclnnop/aclnn_is_inf.h"
#include "aclnnop/aclnn_le_scalar.h"
#include "aclnnop/aclnn_le_tensor.h"
#include "aclnnop/aclnn_logical_and.h"
#include "aclnnop/aclnn_logical_not.h"
#include "aclnnop/aclnn_logical_or.h"
#include "aclnnop/aclnn_logical_xor.h"
#include "aclnnop/aclnn_lt_scalar.h"
#include "aclnnop/aclnn_lt_tensor.h"
#include "aclnnop/aclnn_ne_scalar.h"
#include "aclnnop/aclnn_ne_tensor.h"
#include "aclnnop/aclnn_s_where.h"
#include "nn_math.h"

/* The four forms of comparison N on lib/ops' OP. */
#define CMP(N, OP)                                                                                 \
	static const struct nnm_bin N##_b = { .op = OP, .flags = NNM_BOOL_OUT };                   \
	NNM_DEF_TT(aclnn##N##Tensor, N##_b, "other", )                                             \
	NNM_DEF_ITT(aclnnInplace##N##Tensor, N##_b, "other", const)                                \
	NNM_DEF_TS(aclnn##N##Scalar, N##_b, "other", )                                             \
	NNM_DEF_ITS(aclnnInplace##N##Scalar, N##_b, "other", const)

CMP(Eq, "Equal")
CMP(Ne, "NotEqual")
CMP(Gt, "Greater")
CMP(Ge, "GreaterEqual")
CMP(Lt, "Less")
CMP(Le, "LessEqual")

static const struct nnm_bin and_b = { .op = "LogicalAnd", .flags = NNM_LOGICAL };
static const struct nnm_bin or_b = { .op = "LogicalOr", .flags = NNM_LOGICAL };
/* On bools, xor is inequality. */
static const struct nnm_bin xor_b = { .op = "NotEqual", .flags = NNM_LOGICAL };

NNM_DEF_TT(aclnnLogicalAnd, and_b, "other", )
NNM_DEF_ITT(aclnnInplaceLogicalAnd, and_b, "other", )
NNM_DEF_TT(aclnnLogicalOr, or_b, "other", )
NNM_DEF_ITT(aclnnInplaceLogicalOr, or_b, "other", )
NNM_DEF_TT(aclnnLogicalXor, xor_b, "other", )

/* The four forms of bitwise N on lib/ops' OP; Q: CANN's qualifier of the in-place selfRef. */
#define BITWISE(N, OP, Q)                                                                          \
	static const struct nnm_bin N##_b = { .op = OP, .flags = NNM_INTEGRAL };                   \
	NNM_DEF_TT(aclnn##N##Tensor, N##_b, "other", )                                             \
	NNM_DEF_ITT(aclnnInplace##N##Tensor, N##_b, "other", Q)                                    \
	NNM_DEF_TS(aclnn##N##Scalar, N##_b, "other", )                                             \
	NNM_DEF_ITS(aclnnInplace##N##Scalar, N##_b, "other", Q)

BITWISE(BitwiseAnd, "BitwiseAnd", const)
BITWISE(BitwiseOr, "BitwiseOr", )
BITWISE(BitwiseXor, "BitwiseXor", )

/* aclnn_bitwiseand.h's older names of the tensor forms; the in-place one calls its tensor self. */
NNM_DEF_TT(aclnnBitwiseAndTensorOut, BitwiseAnd_b, "other", )

aclnnStatus aclnnInplaceBitwiseAndTensorOutGetWorkspaceSize(const aclTensor *self, const aclTensor *other,
							    uint64_t *ws, aclOpExecutor **ex)
{
	struct nnm_call c = NNM_ITT("aclnnInplaceBitwiseAndTensorOut", self, other, NULL);

	c.self_name = c.out_name = "self";
	return nnm_binary(&BitwiseAnd_b, &c, ws, ex);
}
NN_LAUNCH(aclnnInplaceBitwiseAndTensorOut)

static aclnnStatus logical_not(const char *api, const aclTensor *self, const aclTensor *out, bool inplace,
			       uint64_t *ws, aclOpExecutor **ex)
{
	struct nn_exec *x = nn_begin(api);
	struct nnm_un_vals v;
	nn_val b;

	nnm_un_begin(x, self, out, inplace, &v);
	b = nn_cast(x, v.a, ACL_BOOL);
	nn_store(x, nn_op1(x, "LogicalNot", 1, &b, NULL, 0), v.o);
	return nn_finish(x, ws, ex);
}

aclnnStatus aclnnLogicalNotGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *ws, aclOpExecutor **ex)
{
	return logical_not("aclnnLogicalNot", self, out, false, ws, ex);
}
NN_LAUNCH(aclnnLogicalNot)

aclnnStatus aclnnInplaceLogicalNotGetWorkspaceSize(aclTensor *selfRef, uint64_t *ws, aclOpExecutor **ex)
{
	return logical_not("aclnnInplaceLogicalNot", selfRef, selfRef, true, ws, ex);
}
NN_LAUNCH(aclnnInplaceLogicalNot)

static const struct nnm_un is_inf_u = { .op = "IsInf", .kind = NNM_U_FLOAT_TEST };

aclnnStatus aclnnIsInfGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *ws, aclOpExecutor **ex)
{
	return nnm_unary("aclnnIsInf", &is_inf_u, self, out, false, NULL, 0, ws, ex);
}
NN_LAUNCH(aclnnIsInf)

/* out = condition ? self : other: SelectV2 over a bool condition and the
 * promoted operands, all three broadcasting. */
aclnnStatus aclnnSWhereGetWorkspaceSize(const aclTensor *condition, const aclTensor *self, const aclTensor *other,
					aclTensor *out, uint64_t *ws, aclOpExecutor **ex)
{
	static const aclDataType cond_types[] = { ACL_BOOL, ACL_UINT8 };
	struct nn_exec *x = nn_begin("aclnnSWhere");
	nn_val c = nn_in(x, condition, "condition"), a = nn_in(x, self, "self"), b = nn_in(x, other, "other");
	nn_val o = nn_out(x, out, "out"), in[3];
	int64_t dims[VOPS_MAX_RANK];
	aclDataType ct;

	if (!nn_ok(x))
		return nn_finish(x, ws, ex);
	nn_check_dtype(x, c, "condition", cond_types, (int)NN_COUNT(cond_types));
	nnm_check_rank(x, c, "condition");
	nnm_check_rank(x, a, "self");
	nnm_check_rank(x, b, "other");
	nn_broadcast(x, a, b, dims);
	nn_broadcast(x, c, a, dims);
	nn_broadcast(x, c, b, dims);
	ct = nn_promote(nn_view(x, a)->dtype, nn_view(x, b)->dtype);
	if (nn_ok(x) && ct == ACL_DT_UNDEFINED)
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "self (%s) and other (%s) have no common type",
			vops_dtype_name(nn_view(x, a)->dtype), vops_dtype_name(nn_view(x, b)->dtype));
	if (!nnm_check_out_type(x, ct, o, "out"))
		return nn_finish(x, ws, ex);
	in[0] = nn_cast(x, c, ACL_BOOL);
	in[1] = nn_cast(x, a, ct);
	in[2] = nn_cast(x, b, ct);
	nn_store(x, nn_op1(x, "SelectV2", 3, in, NULL, 0), o);
	return nn_finish(x, ws, ex);
}
NN_LAUNCH(aclnnSWhere)
