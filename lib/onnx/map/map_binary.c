// SPDX-License-Identifier: MIT
/*
 * map_binary.c - ONNX nodes of the binary family to CANN operator calls
 * (onnx_map.h; docs/ops/binary.md).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_base.h"
#include "onnx_map.h"

static enum onnx_err map_add(struct onnx_map *m)
{
	return onnx_map_simple(m, "Add");
}

static enum onnx_err map_sub(struct onnx_map *m)
{
	return onnx_map_simple(m, "Sub");
}

static enum onnx_err map_mul(struct onnx_map *m)
{
	return onnx_map_simple(m, "Mul");
}

/* CANN's parser takes RealDiv; vnpu's truncates integers, as ONNX. */
static enum onnx_err map_div(struct onnx_map *m)
{
	return onnx_map_simple(m, "RealDiv");
}

static enum onnx_err map_pow(struct onnx_map *m)
{
	return onnx_map_simple(m, "Pow");
}

/* fmod 0: the divisor's sign (CANN Mod); 1: the dividend's (TruncateMod). */
static enum onnx_err map_mod(struct onnx_map *m)
{
	int64_t fmod = onnx_attr_int(m->node, "fmod", 0);

	if (fmod != 0 && fmod != 1)
		return onnx_map_fail(m, ONNX_ERR_INVALID, "attribute fmod is %lld (0 or 1)",
				     (long long)fmod);
	return onnx_map_simple(m, fmod ? "TruncateMod" : "Mod");
}

static enum onnx_err map_max(struct onnx_map *m)
{
	return onnx_map_simple(m, "MaxN");
}

/* CANN's parser folds Minimum over the inputs; vnpu's Min takes them all. */
static enum onnx_err map_min(struct onnx_map *m)
{
	return onnx_map_simple(m, m->nin == 2 ? "Minimum" : "Min");
}

static enum onnx_err map_sum(struct onnx_map *m)
{
	enum onnx_err ret = onnx_map_simple(m, "AccumulateNV2");

	return ret ? ret : onnx_map_attr_int(m, "N", m->call->nin);
}

/* CANN's parser: Muls(AccumulateNV2(x...), 1 / N); vnpu's Mean is one call. */
static enum onnx_err map_mean(struct onnx_map *m)
{
	return onnx_map_simple(m, "Mean");
}

/* ---- tensors the mapping makes ---------------------------------------------- */

/* The ONNX type of aclDataType @acl, or ONNX_UNDEFINED. */
static int32_t onnx_of_acl(int32_t acl)
{
	int32_t t;

	for (t = ONNX_FLOAT; t <= ONNX_BFLOAT16; t++)
		if (onnx_dtype_size(t) && onnx_dtype_to_acl(t) == acl)
			return t;
	return ONNX_UNDEFINED;
}

/* A new tensor of the call (type @acl, shape @dims), zero-filled; NULL and
 * the failure recorded when there is no room. */
static struct onnx_tensor *made_tensor(struct onnx_map *m, const char *name, int32_t acl, int ndim,
				       const int64_t *dims)
{
	struct onnx_call *c = m->call;
	int32_t dt = onnx_of_acl(acl);
	struct onnx_tensor *t;
	uint64_t count = 1;
	int d;

	if (dt == ONNX_UNDEFINED) {
		onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "no ONNX type for aclDataType %d", (int)acl);
		return NULL;
	}
	if (c->nmade >= ONNX_CALL_MAX_MADE || c->nin >= VOPS_MAX_INPUTS) {
		onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "more than %d tensors made",
			      ONNX_CALL_MAX_MADE);
		return NULL;
	}
	for (d = 0; d < ndim; d++)
		count *= (uint64_t)dims[d];
	t = &c->made[c->nmade];
	memset(t, 0, sizeof(*t));
	t->dtype = dt;
	t->acl_dtype = acl;
	t->ndim = ndim;
	t->count = count;
	t->size = (size_t)count * onnx_dtype_size(dt);
	t->name = strdup(name);
	t->dims = malloc(ndim ? (size_t)ndim * sizeof(int64_t) : 1);
	t->data = calloc(1, t->size ? t->size : 1);
	if (!t->name || !t->dims || !t->data) {
		onnx_tensor_release(t);
		onnx_map_fail(m, ONNX_ERR_NOMEM, "out of memory");
		return NULL;
	}
	if (ndim)
		memcpy(t->dims, dims, (size_t)ndim * sizeof(int64_t));
	c->in[c->nin++] = ONNX_CALL_MADE + c->nmade++;
	return t;
}

/* A bound of aclDataType @acl at @p: @v, or for @ext -1 / +1 the type's
 * lowest / highest value (-inf / inf for floats). */
static void put_bound(void *p, int32_t acl, double v, int ext)
{
#define PUT(T, lo, hi)									\
	do {										\
		T x = ext < 0 ? (lo) : ext > 0 ? (hi) : (T)v;				\
		memcpy(p, &x, sizeof(x));						\
	} while (0)
	uint16_t h;

	switch (acl) {
	case ACL_FLOAT: PUT(float, -INFINITY, INFINITY); break;
	case ACL_DOUBLE: PUT(double, -INFINITY, INFINITY); break;
	case ACL_INT8: PUT(int8_t, INT8_MIN, INT8_MAX); break;
	case ACL_UINT8: PUT(uint8_t, 0, UINT8_MAX); break;
	case ACL_INT16: PUT(int16_t, INT16_MIN, INT16_MAX); break;
	case ACL_UINT16: PUT(uint16_t, 0, UINT16_MAX); break;
	case ACL_INT32: PUT(int32_t, INT32_MIN, INT32_MAX); break;
	case ACL_UINT32: PUT(uint32_t, 0, UINT32_MAX); break;
	case ACL_INT64: PUT(int64_t, INT64_MIN, INT64_MAX); break;
	case ACL_UINT64: PUT(uint64_t, 0, UINT64_MAX); break;
	case ACL_FLOAT16:
		h = vops_f64_to_f16(ext < 0 ? -INFINITY : ext > 0 ? INFINITY : v);
		memcpy(p, &h, sizeof(h));
		break;
	case ACL_BF16:
		h = vops_f64_to_bf16(ext < 0 ? -INFINITY : ext > 0 ? INFINITY : v);
		memcpy(p, &h, sizeof(h));
		break;
	default:
		break;
	}
#undef PUT
}

/* ---- PRelu ------------------------------------------------------------------ */

/*
 * ONNX broadcasts slope numpy-style; CANN reads a 1-D weight as x's
 * channels (axis 1). A 1-D slope that would be read as channels but means
 * x's last axis is passed as [1, k] (its value must be known then).
 */
static enum onnx_err map_prelu(struct onnx_map *m)
{
	const struct onnx_map_input *x = &m->in[0], *w = &m->in[1];
	struct onnx_tensor *t;
	int64_t dims[2];

	if (m->nin != 2 || !x->present || !w->present)
		return onnx_map_fail(m, ONNX_ERR_INVALID, "takes 2 inputs, X and slope");
	if (!(w->ndim == 1 && x->ndim > 2 && w->dims[0] == x->dims[1] && w->dims[0] > 1))
		return onnx_map_simple(m, "PRelu");
	if (!w->value)
		return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED,
				     "a 1-D slope of X's last axis must be a constant (CANN's "
				     "PRelu reads a 1-D weight as channels)");
	m->call->type = "PRelu";
	m->call->in[m->call->nin++] = 0;
	dims[0] = 1;
	dims[1] = w->dims[0];
	t = made_tensor(m, "slope", w->acl_dtype, 2, dims);
	if (!t)
		return ONNX_ERR_UNSUPPORTED;
	if (t->size != w->value->size)
		return onnx_map_fail(m, ONNX_ERR_INVALID, "slope's value disagrees with its shape");
	memcpy(t->data, w->value->data, t->size);
	return onnx_map_outputs(m, 0, -1);
}

/* ---- shifts, logic, comparisons, selection ------------------------------------ */

static enum onnx_err map_bitshift(struct onnx_map *m)
{
	const char *dir = onnx_attr_string(m->node, "direction", "");

	if (!strcmp(dir, "LEFT"))
		return onnx_map_simple(m, "LeftShift");
	if (!strcmp(dir, "RIGHT"))
		return onnx_map_simple(m, "RightShift");
	return onnx_map_fail(m, ONNX_ERR_INVALID, "attribute direction is \"%s\" (LEFT or RIGHT)",
			     dir);
}

static enum onnx_err map_and(struct onnx_map *m)
{
	return onnx_map_simple(m, "LogicalAnd");
}

static enum onnx_err map_or(struct onnx_map *m)
{
	return onnx_map_simple(m, "LogicalOr");
}

/* CANN has no LogicalXor (its parser casts to int32 for BitwiseXor): on
 * bool, Xor is NotEqual. */
static enum onnx_err map_xor(struct onnx_map *m)
{
	return onnx_map_simple(m, "NotEqual");
}

static enum onnx_err map_not(struct onnx_map *m)
{
	return onnx_map_simple(m, "LogicalNot");
}

static enum onnx_err map_equal(struct onnx_map *m)
{
	return onnx_map_simple(m, "Equal");
}

static enum onnx_err map_greater(struct onnx_map *m)
{
	return onnx_map_simple(m, "Greater");
}

static enum onnx_err map_greater_equal(struct onnx_map *m)
{
	return onnx_map_simple(m, "GreaterEqual");
}

static enum onnx_err map_less(struct onnx_map *m)
{
	return onnx_map_simple(m, "Less");
}

static enum onnx_err map_less_equal(struct onnx_map *m)
{
	return onnx_map_simple(m, "LessEqual");
}

static enum onnx_err map_where(struct onnx_map *m)
{
	return onnx_map_simple(m, "SelectV2");
}

/* ---- Clip ------------------------------------------------------------------- */

/*
 * ClipByValue takes both bounds as tensors of x's type: a bound left out
 * (opset 11+: an absent input; before: the attributes min, max) becomes a
 * scalar of the type's extreme value (-inf / inf for floats; CANN's parser
 * uses +-3.4e38).
 */
static enum onnx_err map_clip(struct onnx_map *m)
{
	static const char *const names[2] = { "min", "max" };
	int32_t acl = m->in[0].acl_dtype;
	int k;

	if (!m->nin || !m->in[0].present)
		return onnx_map_fail(m, ONNX_ERR_INVALID, "input is missing");
	m->call->type = "ClipByValue";
	m->call->in[m->call->nin++] = 0;
	for (k = 0; k < 2; k++) {
		const struct onnx_attr *a =
			m->opset < 11 ? onnx_node_attr(m->node, names[k]) : NULL;
		struct onnx_tensor *t;

		if (m->opset >= 11 && onnx_map_has(m, (size_t)k + 1)) {
			m->call->in[m->call->nin++] = k + 1;
			continue;
		}
		t = made_tensor(m, names[k], acl, 0, NULL);
		if (!t)
			return ONNX_ERR_UNSUPPORTED;
		if (a && a->type == ONNX_ATTR_FLOAT)
			put_bound(t->data, acl, a->f, 0);
		else
			put_bound(t->data, acl, 0, k ? 1 : -1);
	}
	return onnx_map_outputs(m, 0, -1);
}

/* ---- Cast ------------------------------------------------------------------- */

/* ONNX's to (a TensorProto type) as CANN's dst_type (an aclDataType). */
static enum onnx_err map_cast(struct onnx_map *m)
{
	const struct onnx_attr *to = onnx_node_attr(m->node, "to");
	int32_t acl = to && to->type == ONNX_ATTR_INT ? onnx_dtype_to_acl((int32_t)to->i) : -1;
	enum onnx_err ret;

	if (!to || to->type != ONNX_ATTR_INT)
		return onnx_map_fail(m, ONNX_ERR_INVALID, "needs the int attribute to");
	if (acl == ACL_DT_UNDEFINED)
		return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "to %lld has no aclDataType",
				     (long long)to->i);
	ret = onnx_map_simple(m, "Cast");
	return ret ? ret : onnx_map_attr_int(m, "dst_type", acl);
}

/* CastLike: a Cast to the type of input 1, resolved here. */
static enum onnx_err map_cast_like(struct onnx_map *m)
{
	enum onnx_err ret;

	if (m->nin != 2 || !m->in[0].present || !m->in[1].present)
		return onnx_map_fail(m, ONNX_ERR_INVALID, "takes 2 inputs, input and target_type");
	if (m->in[1].acl_dtype == ACL_DT_UNDEFINED)
		return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "target_type has no aclDataType");
	m->call->type = "Cast";
	ret = onnx_map_inputs(m, 0, 0);
	if (!ret)
		ret = onnx_map_outputs(m, 0, -1);
	return ret ? ret : onnx_map_attr_int(m, "dst_type", m->in[1].acl_dtype);
}

const struct onnx_map_entry onnx_map_binary[] = {
	{ "Add", map_add, "Add" },
	{ "Sub", map_sub, "Sub" },
	{ "Mul", map_mul, "Mul" },
	{ "Div", map_div, "RealDiv" },
	{ "Pow", map_pow, "Pow" },
	{ "Mod", map_mod, "Mod TruncateMod" },
	{ "Max", map_max, "MaxN" },
	{ "Min", map_min, "Minimum Min" },
	{ "Sum", map_sum, "AccumulateNV2" },
	{ "Mean", map_mean, "Mean" },
	{ "PRelu", map_prelu, "PRelu" },
	{ "BitShift", map_bitshift, "LeftShift RightShift" },
	{ "And", map_and, "LogicalAnd" },
	{ "Or", map_or, "LogicalOr" },
	{ "Xor", map_xor, "NotEqual" },
	{ "Not", map_not, "LogicalNot" },
	{ "Equal", map_equal, "Equal" },
	{ "Greater", map_greater, "Greater" },
	{ "GreaterOrEqual", map_greater_equal, "GreaterEqual" },
	{ "Less", map_less, "Less" },
	{ "LessOrEqual", map_less_equal, "LessEqual" },
	{ "Where", map_where, "SelectV2" },
	{ "Clip", map_clip, "ClipByValue" },
	{ "Cast", map_cast, "Cast" },
	{ "CastLike", map_cast_like, "Cast" },
	{ NULL, NULL, NULL },
};
