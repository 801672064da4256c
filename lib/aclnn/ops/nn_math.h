/* SPDX-License-Identifier: MIT */
/*
 * nn_math.h - what the element-wise aclnn functions (nn_math_*.c) share:
 * the builders of the binary, unary and comparison shapes, so that each
 * CANN function is a few lines naming its operator and its rules.
 *
 * The rules are aclnn's (PyTorch's): the computation type is the promotion
 * of the operands (nn_promote / nn_promote_scalar), the result is written
 * to an out of any type the result can be cast to (nnm_can_cast), the out
 * must have the broadcast shape (nn_store checks it).
 */
#ifndef VNPU_LIB_ACLNN_OPS_NN_MATH_H
#define VNPU_LIB_ACLNN_OPS_NN_MATH_H

#include <stdbool.h>
#include <stdint.h>

#include "nn.h"

/* Internal to libopapi.so: not exported. */
#define NNM_HIDDEN __attribute__((visibility("hidden")))

/* CANN's limit on the rank of an element-wise operand. */
#define NNM_MAX_RANK 8

/*
 * PyTorch's can_cast, aclnn's "conversion relationship": may a result of
 * type @from be written to an output of type @to? Not a float into an
 * integer or bool, not a number into bool.
 */
bool nnm_can_cast(aclDataType from, aclDataType to) NNM_HIDDEN;

/* ACLNN_ERR_PARAM_INVALID unless a result of @from may go to @out (named
 * @name); returns whether it may. */
bool nnm_check_out_type(struct nn_exec *x, aclDataType from, nn_val out, const char *name) NNM_HIDDEN;

/* ACLNN_ERR_PARAM_INVALID unless @v's rank is at most NNM_MAX_RANK. */
bool nnm_check_rank(struct nn_exec *x, nn_val v, const char *name) NNM_HIDDEN;

/* lib/ops' @op on (@a, @b), one output. */
nn_val nnm_op2(struct nn_exec *x, const char *op, nn_val a, nn_val b) NNM_HIDDEN;

/* ---- binary -------------------------------------------------------------- */

/* How a binary function computes (struct nnm_bin.flags). */
#define NNM_ALPHA (1u << 0)	/* self op alpha * other (alpha == 1: no Mul) */
#define NNM_SWAP (1u << 1)	/* other op self after alpha: Rsub */
#define NNM_TRUEDIV (1u << 2)	/* an integer or bool computation type becomes ACL_FLOAT */
#define NNM_BOOL_OUT (1u << 3)	/* the result is bool (comparisons) */
#define NNM_LOGICAL (1u << 4)	/* operands are taken as bool (nonzero), result bool */
#define NNM_NO_BOOL (1u << 5)	/* a bool computation type is refused */
#define NNM_BOOL_U8 (1u << 6)	/* bool computes as uint8, exact on 0/1 (Mul, Maximum) */
#define NNM_BOOL_OR (1u << 7)	/* bool computes as uint8, then nonzero is true (Add) */
#define NNM_INTEGRAL (1u << 8)	/* integer or bool computation types only (the bitwise ops) */

struct nnm_bin;

/* A computation other than one operator on (a, b) of type @ct, e.g.
 * DivMod's rounding; returns the result value. */
typedef nn_val (*nnm_build_fn)(struct nn_exec *x, const struct nnm_bin *b, nn_val a, nn_val c, aclDataType ct);

struct nnm_bin {
	const char *op;		/* the lib/ops operator of (a, b) */
	unsigned int flags;	/* NNM_* */
	nnm_build_fn build;	/* instead of @op when set */
	int mode;		/* for @build */
};

/*
 * One call of a binary function: self and other are each a tensor or a
 * host scalar (@self_s / @other_s when the function takes one: then
 * @self / @other are unused), @out is the output (selfRef for the in-place
 * forms). The names are CANN's parameter names, used in messages.
 */
struct nnm_call {
	const char *api;
	const aclTensor *self, *other, *out;
	const aclScalar *self_s, *other_s, *alpha;
	const char *self_name, *other_name, *out_name;
	bool scalar_self, scalar_other, inplace;
};

aclnnStatus nnm_binary(const struct nnm_bin *b, const struct nnm_call *c, uint64_t *ws,
		       aclOpExecutor **ex) NNM_HIDDEN;

/* The call shapes of CANN's binary functions. */
#define NNM_TT(api_, s, o, a, out_) \
	{ .api = api_, .self = s, .other = o, .alpha = a, .out = out_, .self_name = "self", \
	  .other_name = "other", .out_name = "out" }
#define NNM_TS(api_, s, o, a, out_) \
	{ .api = api_, .self = s, .other_s = o, .scalar_other = true, .alpha = a, .out = out_, \
	  .self_name = "self", .other_name = "other", .out_name = "out" }
#define NNM_ITT(api_, s, o, a) \
	{ .api = api_, .self = s, .other = o, .alpha = a, .out = s, .inplace = true, \
	  .self_name = "selfRef", .other_name = "other", .out_name = "selfRef" }
#define NNM_ITS(api_, s, o, a) \
	{ .api = api_, .self = s, .other_s = o, .scalar_other = true, .alpha = a, .out = s, \
	  .inplace = true, .self_name = "selfRef", .other_name = "other", .out_name = "selfRef" }
#define NNM_ST(api_, s, o, out_) \
	{ .api = api_, .self_s = s, .scalar_self = true, .other = o, .out = out_, .self_name = "self", \
	  .other_name = "other", .out_name = "out" }

/* The definitions of the binary shapes (GetWorkspaceSize and the launch). */

/* out = self op alpha * other, tensor other . */
#define NNM_DEF_TT_ALPHA(fn, spec)                                                                     \
	aclnnStatus fn##GetWorkspaceSize(const aclTensor *self, const aclTensor *other,              \
					 const aclScalar *alpha, aclTensor *out, uint64_t *ws,       \
					 aclOpExecutor **ex)                                          \
	{                                                                                          \
		const struct nnm_call c = NNM_TT(#fn, self, other, alpha, out);                   \
		return nnm_binary(&(spec), &c, ws, ex);                                            \
	}                                                                                          \
	NN_LAUNCH(fn)
#define NNM_DEF_TS_ALPHA(fn, spec)                                                                     \
	aclnnStatus fn##GetWorkspaceSize(const aclTensor *self, const aclScalar *other,              \
					 const aclScalar *alpha, aclTensor *out, uint64_t *ws,       \
					 aclOpExecutor **ex)                                          \
	{                                                                                          \
		const struct nnm_call c = NNM_TS(#fn, self, other, alpha, out);                   \
		return nnm_binary(&(spec), &c, ws, ex);                                            \
	}                                                                                          \
	NN_LAUNCH(fn)
#define NNM_DEF_ITT_ALPHA(fn, spec)                                                                    \
	aclnnStatus fn##GetWorkspaceSize(const aclTensor *selfRef, const aclTensor *other,           \
					 const aclScalar *alpha, uint64_t *ws, aclOpExecutor **ex)   \
	{                                                                                          \
		const struct nnm_call c = NNM_ITT(#fn, selfRef, other, alpha);                    \
		return nnm_binary(&(spec), &c, ws, ex);                                            \
	}                                                                                          \
	NN_LAUNCH(fn)
#define NNM_DEF_ITS_ALPHA(fn, spec)                                                                    \
	aclnnStatus fn##GetWorkspaceSize(const aclTensor *selfRef, const aclScalar *other,           \
					 const aclScalar *alpha, uint64_t *ws, aclOpExecutor **ex)   \
	{                                                                                          \
		const struct nnm_call c = NNM_ITS(#fn, selfRef, other, alpha);                    \
		return nnm_binary(&(spec), &c, ws, ex);                                            \
	}                                                                                          \
	NN_LAUNCH(fn)

/* Without alpha; SELFQ/OUTQ are CANN's qualifiers, ONAME the other's name. */
#define NNM_DEF_TT(fn, spec, ONAME, OUTQ)                                                              \
	aclnnStatus fn##GetWorkspaceSize(const aclTensor *self, const aclTensor *other,              \
					 OUTQ aclTensor *out, uint64_t *ws, aclOpExecutor **ex)       \
	{                                                                                          \
		struct nnm_call c = NNM_TT(#fn, self, other, NULL, out);                          \
		c.other_name = ONAME;                                                             \
		return nnm_binary(&(spec), &c, ws, ex);                                            \
	}                                                                                          \
	NN_LAUNCH(fn)
#define NNM_DEF_TS(fn, spec, ONAME, OUTQ)                                                              \
	aclnnStatus fn##GetWorkspaceSize(const aclTensor *self, const aclScalar *other,              \
					 OUTQ aclTensor *out, uint64_t *ws, aclOpExecutor **ex)       \
	{                                                                                          \
		struct nnm_call c = NNM_TS(#fn, self, other, NULL, out);                          \
		c.other_name = ONAME;                                                             \
		return nnm_binary(&(spec), &c, ws, ex);                                            \
	}                                                                                          \
	NN_LAUNCH(fn)
#define NNM_DEF_ITT(fn, spec, ONAME, SELFQ)                                                            \
	aclnnStatus fn##GetWorkspaceSize(SELFQ aclTensor *selfRef, const aclTensor *other,           \
					 uint64_t *ws, aclOpExecutor **ex)                            \
	{                                                                                          \
		struct nnm_call c = NNM_ITT(#fn, selfRef, other, NULL);                           \
		c.other_name = ONAME;                                                             \
		return nnm_binary(&(spec), &c, ws, ex);                                            \
	}                                                                                          \
	NN_LAUNCH(fn)
#define NNM_DEF_ITS(fn, spec, ONAME, SELFQ)                                                            \
	aclnnStatus fn##GetWorkspaceSize(SELFQ aclTensor *selfRef, const aclScalar *other,           \
					 uint64_t *ws, aclOpExecutor **ex)                            \
	{                                                                                          \
		struct nnm_call c = NNM_ITS(#fn, selfRef, other, NULL);                           \
		c.other_name = ONAME;                                                             \
		return nnm_binary(&(spec), &c, ws, ex);                                            \
	}                                                                                          \
	NN_LAUNCH(fn)

/* ---- unary --------------------------------------------------------------- */

/* Which input types a unary function takes (struct nnm_un.kind). */
enum nnm_un_kind {
	NNM_U_FLOATFN = 1,	/* floats; integers and bool compute in ACL_FLOAT (PyTorch's exp) */
	NNM_U_FLOAT,		/* floats only */
	NNM_U_ROUND,		/* floats; integers are their own result (floor, ceil, round) */
	NNM_U_SIGNED,		/* floats and signed integers (neg) */
	NNM_U_NUMERIC,		/* floats and integers (abs, sign) */
	NNM_U_RELU,		/* floats and signed integers; unsigned ones are their own result */
	NNM_U_FLOAT_TEST,	/* bool result; integers are never the tested value (isinf) */
};

struct nnm_un {
	const char *op;
	enum nnm_un_kind kind;
	const struct vops_attr *attrs;	/* fixed attributes of @op */
	unsigned int nattrs;
};

/* A unary call's values: the input and the output (self for the in-place
 * forms, which name it selfRef). */
struct nnm_un_vals {
	nn_val a, o;
	const char *self_name, *out_name;
};

/* Take self and out (in that order: the argument order). */
void nnm_un_begin(struct nn_exec *x, const aclTensor *self, const aclTensor *out, bool inplace,
		  struct nnm_un_vals *v) NNM_HIDDEN;
/* out = op(self) by @u's type rules, with @nattrs @attrs (NULL: @u's). */
void nnm_un_apply(struct nn_exec *x, const struct nnm_un *u, const struct nnm_un_vals *v,
		  const struct vops_attr *attrs, unsigned int nattrs) NNM_HIDDEN;
/* Both, for the functions without host arguments. */
aclnnStatus nnm_unary(const char *api, const struct nnm_un *u, const aclTensor *self, const aclTensor *out,
		      bool inplace, const struct vops_attr *attrs, unsigned int nattrs, uint64_t *ws,
		      aclOpExecutor **ex) NNM_HIDDEN;
/* The computation type of a unary function of @u's kind on @dt, or
 * ACL_DT_UNDEFINED with ACLNN_ERR_PARAM_INVALID naming @name. */
aclDataType nnm_un_type(struct nn_exec *x, enum nnm_un_kind kind, aclDataType dt, const char *name) NNM_HIDDEN;

/* A host scalar's value as a float attribute, or ACLNN_ERR_PARAM_NULLPTR
 * naming @name (then 0). */
double nnm_scalar_attr(struct nn_exec *x, const aclScalar *s, const char *name) NNM_HIDDEN;

#endif /* VNPU_LIB_ACLNN_OPS_NN_MATH_H */
