// SPDX-License-Identifier: MIT
/*
 * ops_plan.c - vops_plan(): a CANN operator call to a plan and its
 * descriptor, and the rules every operator shares (ops_int.h).
 *
 * The order of the checks, which decides the error when a call has more
 * than one thing wrong: the operator's name, the input count, the output
 * count, the attribute names, each input's rank, dimensions and type (the
 * first input's type before the others' agreement), the operator's own
 * attribute parsing, then its rules (infer, workspace). Messages name the
 * operator and the bad value; they keep the words libascendcl's planner
 * used before lib/ops, since applications and tests read them.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ops_int.h"

_Static_assert(ACL_FLOAT == 0 && ACL_FLOAT16 == 1 && ACL_INT32 == 3 && ACL_BF16 == 27,
	       "aclDataType values are CANN's");

enum vops_err ops_fail(struct vops_error *err, enum vops_err code, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		err->code = code;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return code;
}

enum vops_err ops_too_large(const struct ops_def *def, struct vops_error *err)
{
	return ops_fail(err, VOPS_ERR_INPUT, "%s: the tensors are too large for one vnpu operator "
			"(at most 2^31 rows, columns or elements, 2^40 bytes per operand)", def->name);
}

const char *vops_dtype_name(int32_t dtype)
{
	switch (dtype) {
	case ACL_DT_UNDEFINED: return "ACL_DT_UNDEFINED";
	case ACL_FLOAT: return "ACL_FLOAT";
	case ACL_FLOAT16: return "ACL_FLOAT16";
	case ACL_INT8: return "ACL_INT8";
	case ACL_INT32: return "ACL_INT32";
	case ACL_UINT8: return "ACL_UINT8";
	case ACL_INT16: return "ACL_INT16";
	case ACL_UINT16: return "ACL_UINT16";
	case ACL_UINT32: return "ACL_UINT32";
	case ACL_INT64: return "ACL_INT64";
	case ACL_UINT64: return "ACL_UINT64";
	case ACL_DOUBLE: return "ACL_DOUBLE";
	case ACL_BOOL: return "ACL_BOOL";
	case ACL_STRING: return "ACL_STRING";
	case ACL_COMPLEX64: return "ACL_COMPLEX64";
	case ACL_COMPLEX128: return "ACL_COMPLEX128";
	case ACL_BF16: return "ACL_BF16";
	default: return "an unsupported type";
	}
}

const char *vops_shape_str(char *buf, size_t n, int ndim, const int64_t *dims)
{
	size_t at = 0;
	int i;

	at += (size_t)snprintf(buf, n, "[");
	for (i = 0; i < ndim && at < n; i++)
		at += (size_t)snprintf(buf + at, n - at, "%s%" PRId64, i ? ", " : "", dims[i]);
	if (at < n)
		snprintf(buf + at, n - at, "]");
	return buf;
}

bool ops_count(const struct vops_tensor *t, uint64_t *count)
{
	uint64_t n = 1;
	int i;

	for (i = 0; i < t->ndim; i++)
		if (!ops_mul(n, (uint64_t)t->dims[i], &n))
			return false;
	*count = n;
	return true;
}

void ops_set_out(struct vops_plan *p, int32_t dtype, int ndim, const int64_t *dims, uint64_t bytes)
{
	p->out[0].dtype = dtype;
	p->out[0].ndim = ndim;
	if (ndim && dims != p->out[0].dims)
		memcpy(p->out[0].dims, dims, (size_t)ndim * sizeof(*dims));
	p->out[0].bytes = bytes;
	p->out[0].align = ops_esize(dtype);
}

void ops_set_in(struct vops_plan *p, const struct ops_call *c, int i, uint64_t bytes)
{
	p->in_bytes[i] = bytes;
	p->in_align[i] = ops_esize(c->in[i].dtype);
}

/* ---- attributes ------------------------------------------------------------ */

const struct vops_attr *vops_attr_find(const struct vops_attr *attrs, unsigned int n, const char *name)
{
	unsigned int i;

	for (i = 0; attrs && i < n; i++)
		if (attrs[i].name && !strcmp(attrs[i].name, name))
			return &attrs[i];
	return NULL;
}

enum vops_err ops_attr_bool(const struct ops_def *def, const struct vops_attr *attrs, unsigned int n,
			    const char *name, bool dflt, bool *out, struct vops_error *err)
{
	const struct vops_attr *a = vops_attr_find(attrs, n, name);

	*out = dflt;
	if (!a)
		return VOPS_OK;
	if (a->kind == VOPS_ATTR_BOOL) {
		*out = a->b;
		return VOPS_OK;
	}
	if (a->kind == VOPS_ATTR_INT && (a->i == 0 || a->i == 1)) {
		*out = a->i != 0;
		return VOPS_OK;
	}
	return ops_fail(err, VOPS_ERR_ATTR, "%s: attribute %s must be a bool", def->name, name);
}

static enum vops_err check_attr_names(const struct ops_def *def, const struct vops_attr *attrs,
				      unsigned int n, struct vops_error *err)
{
	char names[128];
	size_t at = 0;
	unsigned int i;
	int j;

	for (i = 0; i < n; i++) {
		bool known = false;

		for (j = 0; attrs[i].name && def->attrs[j]; j++)
			known = known || !strcmp(def->attrs[j], attrs[i].name);
		if (known)
			continue;
		if (!attrs[i].name)
			return ops_fail(err, VOPS_ERR_ATTR, "%s: attribute %u has no name", def->name, i);
		names[0] = '\0';
		for (j = 0; def->attrs[j] && at < sizeof(names); j++)
			at += (size_t)snprintf(names + at, sizeof(names) - at, "%s%s", j ? ", " : "",
					       def->attrs[j]);
		return ops_fail(err, VOPS_ERR_ATTR, "%s has no attribute \"%s\" (it takes: %s)", def->name,
				attrs[i].name, j ? names : "none");
	}
	return VOPS_OK;
}

enum vops_err ops_ws_none(const struct ops_call *c, struct vops_plan *p, struct vops_error *err)
{
	(void)c;
	(void)err;
	p->ws_bytes = 0;
	return VOPS_OK;
}

/* ---- the rules every operator shares ------------------------------------------ */

/* "ACL_FLOAT, ACL_FLOAT16, ..." of @mask into @buf. */
static const char *dtype_list(char *buf, size_t n, uint32_t mask)
{
	static const int32_t order[] = {
		ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16,
		ACL_UINT16, ACL_INT32, ACL_UINT32, ACL_INT64, ACL_UINT64, ACL_BOOL,
	};
	size_t at = 0, i;

	buf[0] = '\0';
	for (i = 0; i < sizeof(order) / sizeof(order[0]) && at < n; i++)
		if (mask & ops_dtype_bit(order[i]))
			at += (size_t)snprintf(buf + at, n - at, "%s%s", at ? ", " : "",
					       vops_dtype_name(order[i]));
	return buf;
}

static enum vops_err check_inputs(const struct ops_call *c, struct vops_error *err)
{
	const struct ops_def *def = c->def;
	char list[256];
	int i, j;

	for (i = 0; i < c->nin; i++) {
		const struct vops_tensor *t = &c->in[i];

		if (t->ndim < 0 || t->ndim > VOPS_MAX_RANK || (t->ndim && !t->dims))
			return ops_fail(err, VOPS_ERR_INPUT, "%s: input %d has %d dimensions (0 to %d)",
					def->name, i, t->ndim, VOPS_MAX_RANK);
		for (j = 0; j < t->ndim; j++)
			if (t->dims[j] < 0)
				return ops_fail(err, VOPS_ERR_INPUT,
						"%s: input %d has the dimension %" PRId64 " at %d; vnpu executes "
						"known shapes only", def->name, i, t->dims[j], j);
		/* Bounds every product of its dimensions (empty ones as 1) before
		 * any operator's arithmetic: a descriptor may say anything. */
		{
			uint64_t n = 1;

			for (j = 0; j < t->ndim; j++)
				if (!ops_mul(n, t->dims[j] ? (uint64_t)t->dims[j] : 1, &n) ||
				    n > VOPS_MAX_BYTES)
					return ops_too_large(def, err);
		}
		if (t->offset < 0 || (uint64_t)t->offset > VOPS_MAX_BYTES)
			return ops_fail(err, VOPS_ERR_INPUT, "%s: input %d has the offset %" PRId64
					" (elements, 0 to 2^40)", def->name, i, t->offset);
		for (j = 0; t->strides && j < t->ndim; j++)
			if (t->strides[j] < 0 || (uint64_t)t->strides[j] > VOPS_MAX_BYTES)
				return ops_fail(err, VOPS_ERR_INPUT,
						"%s: input %d has the stride %" PRId64 " at %d (elements, 0 to "
						"2^40)", def->name, i, t->strides[j], j);
	}
	if (!(ops_dtype_bit(c->in[0].dtype) & def->dtypes))
		return ops_fail(err, VOPS_ERR_DTYPE, "%s on %s is not supported (vnpu: %s)", def->name,
				vops_dtype_name(c->in[0].dtype), dtype_list(list, sizeof(list), def->dtypes));
	for (i = 1; i < c->nin && !(def->flags & OPS_DEF_MIXED); i++)
		if (c->in[i].dtype != c->in[0].dtype)
			return ops_fail(err, VOPS_ERR_INPUT, "%s: the inputs have different types (%s and %s)",
					def->name, vops_dtype_name(c->in[0].dtype),
					vops_dtype_name(c->in[i].dtype));
	return VOPS_OK;
}

/*
 * Inputs that are views: the bytes they reach, not in place; and for
 * operators that read dense inputs only, a dense copy of each in the
 * workspace, after the operator's own (64-byte aligned, in input order;
 * ops_view_copies() finds them again).
 */
static enum vops_err plan_views(const struct ops_call *c, struct vops_plan *p, uint64_t *op_ws,
				struct vops_error *err)
{
	uint64_t at = 0, bytes;
	int i;

	if (op_ws)
		*op_ws = p->ws_bytes;
	if (!ops_view_copies(c, p->ws_bytes, &at, NULL))
		return ops_too_large(c->def, err);
	for (i = 0; i < c->nin; i++) {
		const struct vops_tensor *t = &c->in[i];

		if (ops_is_dense(t))
			continue;
		if (!ops_bytes(ops_reach(t), ops_esize(t->dtype), &bytes))
			return ops_too_large(c->def, err);
		p->in_bytes[i] = bytes;
		p->in_place &= ~(1u << i);
	}
	if (at && !p->empty)
		p->ws_bytes = at;
	return VOPS_OK;
}

bool ops_view_copies(const struct ops_call *c, uint64_t op_ws, uint64_t *end, uint64_t *at)
{
	uint64_t pos = op_ws, bytes, n;
	bool any = false;
	int i;

	for (i = 0; i < c->nin; i++) {
		const struct vops_tensor *t = &c->in[i];

		if (at)
			at[i] = UINT64_MAX;
		if ((c->def->flags & OPS_DEF_STRIDED) || ops_is_dense(t))
			continue;
		if (!ops_count(t, &n) || !ops_bytes(n, ops_esize(t->dtype), &bytes))
			return false;
		pos = (pos + 63) & ~63ull;
		if (at)
			at[i] = pos;
		pos += bytes;
		any = true;
		if (pos > VOPS_MAX_BYTES)
			return false;
	}
	*end = any ? pos : 0;
	return true;
}

static enum vops_err plan_rules(const struct ops_call *c, struct vops_plan *p, uint64_t *op_ws,
				struct vops_error *err)
{
	const struct ops_def *def = c->def;
	enum vops_err ret;

	p->type = def->name;
	p->nin = c->nin;
	p->nout = c->nout;
	p->in_place = 0;
	p->ws_bytes = 0;
	p->ws_align = 4;
	p->empty = false;
	p->desc_size = 0;
	ret = def->infer(c, p, err);
	if (!ret)
		ret = def->workspace(c, p, err);
	if (!ret)
		ret = plan_views(c, p, op_ws, err);
	return ret;
}

enum vops_err ops_plan_call(const struct ops_call *c, struct vops_plan *p, uint64_t *op_ws,
			    struct vops_error *err)
{
	enum vops_err ret = check_inputs(c, err);

	return ret ? ret : plan_rules(c, p, op_ws, err);
}

enum vops_err vops_plan(const char *type, int nin, const struct vops_tensor *in, int nout,
			const struct vops_attr *attrs, unsigned int nattrs, struct vops_plan *plan,
			struct vops_error *err)
{
	const struct ops_def *def = type ? ops_def_by_name(type) : NULL;
	struct ops_call c;
	enum vops_err ret;

	if (err) {
		err->code = VOPS_OK;
		err->msg[0] = '\0';
	}
	if (!def)
		return ops_fail(err, VOPS_ERR_NOT_FOUND, "operator type \"%s\" is not built into vnpu "
				"(docs/ops.md lists its operators)", type ? type : "(null)");
	if (nin < def->nin || nin > ops_nin_max(def)) {
		if (ops_nin_max(def) != def->nin)
			return ops_fail(err, VOPS_ERR_INPUT, "%s takes %d to %d inputs, got %d", def->name,
					def->nin, ops_nin_max(def), nin);
		return ops_fail(err, VOPS_ERR_INPUT, "%s takes %d input%s, got %d%s", def->name, def->nin,
				def->nin == 1 ? "" : "s", nin,
				def->id == OPS_ID_MATMUL && nin == 3 ? " (vnpu's MatMul has no bias input)" : "");
	}
	if (!in)
		return ops_fail(err, VOPS_ERR_INPUT, "%s: the inputs are missing (NULL)", def->name);
	if (nout < def->nout || nout > ops_nout_max(def)) {
		if (ops_nout_max(def) != def->nout)
			return ops_fail(err, VOPS_ERR_OUTPUT, "%s has %d to %d outputs, got %d", def->name,
					def->nout, ops_nout_max(def), nout);
		return ops_fail(err, VOPS_ERR_OUTPUT, "%s has %d output%s, got %d", def->name, def->nout,
				def->nout == 1 ? "" : "s", nout);
	}
	if (nattrs && !attrs)
		return ops_fail(err, VOPS_ERR_ATTR, "%s: %u attributes, but none given (NULL)", def->name,
				nattrs);
	ret = check_attr_names(def, attrs, nattrs, err);
	if (ret)
		return ret;

	c.def = def;
	c.nin = nin;
	c.nout = nout;
	c.in = in;
	memset(&c.at, 0, sizeof(c.at));
	ret = check_inputs(&c, err);
	if (!ret && def->parse)
		ret = def->parse(&c, attrs, nattrs, err);
	if (!ret)
		ret = plan_rules(&c, plan, NULL, err);
	if (!ret && !ops_desc_encode(&c, plan))
		ret = ops_fail(err, VOPS_ERR_INPUT, "%s: the call does not fit a descriptor of %d bytes",
			       def->name, VOPS_MAX_DESC);
	return ret;
}

/* ---- helpers for the operators ------------------------------------------------- */

enum vops_err ops_set_out_n(const struct ops_call *c, struct vops_plan *p, int i, int32_t dtype,
			    int ndim, const int64_t *dims, struct vops_error *err)
{
	uint64_t n = 1, bytes;
	int d;

	for (d = 0; d < ndim; d++)
		if (dims[d] < 0 || !ops_mul(n, (uint64_t)dims[d], &n))
			return ops_too_large(c->def, err);
	if (!ops_bytes(n, ops_esize(dtype), &bytes))
		return ops_too_large(c->def, err);
	p->out[i].dtype = dtype;
	p->out[i].ndim = ndim;
	if (ndim && dims != p->out[i].dims)
		memmove(p->out[i].dims, dims, (size_t)ndim * sizeof(*dims));
	p->out[i].bytes = bytes;
	p->out[i].align = ops_esize(dtype);
	return VOPS_OK;
}

enum vops_err ops_set_in_dense(const struct ops_call *c, struct vops_plan *p, int i,
			       struct vops_error *err)
{
	uint64_t n, bytes;

	if (!ops_count(&c->in[i], &n) || !ops_bytes(n, ops_esize(c->in[i].dtype), &bytes))
		return ops_too_large(c->def, err);
	ops_set_in(p, c, i, bytes);
	return VOPS_OK;
}

enum vops_err ops_attr_int(const struct ops_def *def, const struct vops_attr *attrs, unsigned int n,
			   const char *name, int64_t dflt, int64_t *out, struct vops_error *err)
{
	const struct vops_attr *a = vops_attr_find(attrs, n, name);

	*out = dflt;
	if (!a)
		return VOPS_OK;
	if (a->kind == VOPS_ATTR_INT)
		*out = a->i;
	else if (a->kind == VOPS_ATTR_BOOL)
		*out = a->b;
	else if (a->kind == VOPS_ATTR_LIST_INT && a->li.n == 1)
		*out = a->li.v[0];
	else
		return ops_fail(err, VOPS_ERR_ATTR, "%s: attribute %s must be an int", def->name, name);
	return VOPS_OK;
}

enum vops_err ops_attr_float(const struct ops_def *def, const struct vops_attr *attrs, unsigned int n,
			     const char *name, double dflt, double *out, struct vops_error *err)
{
	const struct vops_attr *a = vops_attr_find(attrs, n, name);

	*out = dflt;
	if (!a)
		return VOPS_OK;
	if (a->kind == VOPS_ATTR_FLOAT)
		*out = a->f;
	else if (a->kind == VOPS_ATTR_INT)
		*out = (double)a->i;
	else if (a->kind == VOPS_ATTR_LIST_FLOAT && a->lf.n == 1)
		*out = a->lf.v[0];
	else
		return ops_fail(err, VOPS_ERR_ATTR, "%s: attribute %s must be a float", def->name, name);
	return VOPS_OK;
}

enum vops_err ops_attr_ints(const struct ops_def *def, const struct vops_attr *attrs, unsigned int n,
			    const char *name, bool required, int64_t *out, int max, int *cnt,
			    struct vops_error *err)
{
	const struct vops_attr *a = vops_attr_find(attrs, n, name);
	int i;

	*cnt = -1;
	if (!a) {
		if (required)
			return ops_fail(err, VOPS_ERR_ATTR, "%s needs the attribute %s", def->name, name);
		return VOPS_OK;
	}
	if (a->kind == VOPS_ATTR_INT) {
		if (max < 1)
			goto too_long;
		out[0] = a->i;
		*cnt = 1;
		return VOPS_OK;
	}
	if (a->kind != VOPS_ATTR_LIST_INT)
		return ops_fail(err, VOPS_ERR_ATTR, "%s: attribute %s must be a list of ints", def->name,
				name);
	if (a->li.n > max)
		goto too_long;
	for (i = 0; i < a->li.n; i++)
		out[i] = a->li.v[i];
	*cnt = a->li.n;
	return VOPS_OK;
too_long:
	return ops_fail(err, VOPS_ERR_ATTR, "%s: attribute %s has more than %d values", def->name, name,
			max);
}

enum vops_err ops_attr_floats(const struct ops_def *def, const struct vops_attr *attrs, unsigned int n,
			      const char *name, bool required, double *out, int max, int *cnt,
			      struct vops_error *err)
{
	const struct vops_attr *a = vops_attr_find(attrs, n, name);
	int i;

	*cnt = -1;
	if (!a) {
		if (required)
			return ops_fail(err, VOPS_ERR_ATTR, "%s needs the attribute %s", def->name, name);
		return VOPS_OK;
	}
	if (a->kind == VOPS_ATTR_FLOAT || a->kind == VOPS_ATTR_INT) {
		if (max < 1)
			goto too_long;
		out[0] = a->kind == VOPS_ATTR_FLOAT ? a->f : (double)a->i;
		*cnt = 1;
		return VOPS_OK;
	}
	if (a->kind != VOPS_ATTR_LIST_FLOAT)
		return ops_fail(err, VOPS_ERR_ATTR, "%s: attribute %s must be a list of floats",
				def->name, name);
	if (a->lf.n > max)
		goto too_long;
	for (i = 0; i < a->lf.n; i++)
		out[i] = a->lf.v[i];
	*cnt = a->lf.n;
	return VOPS_OK;
too_long:
	return ops_fail(err, VOPS_ERR_ATTR, "%s: attribute %s has more than %d values", def->name, name,
			max);
}

enum vops_err ops_attr_str(const struct ops_def *def, const struct vops_attr *attrs, unsigned int n,
			   const char *name, const char *dflt, const char **out, struct vops_error *err)
{
	const struct vops_attr *a = vops_attr_find(attrs, n, name);

	*out = dflt;
	if (!a)
		return VOPS_OK;
	if (a->kind != VOPS_ATTR_STRING || !a->s)
		return ops_fail(err, VOPS_ERR_ATTR, "%s: attribute %s must be a string", def->name, name);
	*out = a->s;
	return VOPS_OK;
}

enum vops_err ops_attr_dtype(const struct ops_def *def, const struct vops_attr *attrs, unsigned int n,
			     const char *name, int32_t dflt, int32_t *out, struct vops_error *err)
{
	const struct vops_attr *a = vops_attr_find(attrs, n, name);

	*out = dflt;
	if (!a)
		return VOPS_OK;
	if (a->kind == VOPS_ATTR_DTYPE)
		*out = a->dt;
	else if (a->kind == VOPS_ATTR_INT && a->i >= INT32_MIN && a->i <= INT32_MAX)
		*out = (int32_t)a->i;
	else
		return ops_fail(err, VOPS_ERR_ATTR, "%s: attribute %s must be a data type or an int",
				def->name, name);
	return VOPS_OK;
}

bool ops_param_i(struct ops_call *c, int64_t v)
{
	if (c->at.pr.ni >= OPS_MAX_IPARAMS)
		return false;
	c->at.pr.i[c->at.pr.ni++] = v;
	return true;
}

bool ops_param_f(struct ops_call *c, double v)
{
	if (c->at.pr.nf >= OPS_MAX_FPARAMS)
		return false;
	c->at.pr.f[c->at.pr.nf++] = v;
	return true;
}

bool ops_axis(int64_t a, int rank, int *out)
{
	if (a < -(int64_t)rank || a >= rank)
		return false;
	*out = (int)(a < 0 ? a + rank : a);
	return true;
}

enum vops_err ops_broadcast(const struct ops_call *c, int first, int last, int *ndim, int64_t *dims,
			    struct vops_error *err)
{
	char sa[96], sb[96];
	int rank = 0, i, d;

	for (i = first; i <= last; i++)
		if (c->in[i].ndim > rank)
			rank = c->in[i].ndim;
	for (d = 0; d < rank; d++)
		dims[d] = 1;
	for (i = first; i <= last; i++) {
		const struct vops_tensor *t = &c->in[i];

		for (d = 0; d < t->ndim; d++) {
			int64_t *o = &dims[rank - t->ndim + d], v = t->dims[d];

			if (v == *o || v == 1)
				continue;
			if (*o != 1) {
				const struct vops_tensor *u = &c->in[first];

				return ops_fail(err, VOPS_ERR_INPUT,
						"%s: input %d's shape %s does not broadcast with %s "
						"(input %d)", c->def->name, i,
						vops_shape_str(sa, sizeof(sa), t->ndim, t->dims),
						vops_shape_str(sb, sizeof(sb), u->ndim, u->dims), first);
			}
			*o = v;
		}
	}
	*ndim = rank;
	return VOPS_OK;
}
