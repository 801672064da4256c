// SPDX-License-Identifier: MIT
/*
 * onnx_map.c - find and run an ONNX node's mapping to a CANN operator
 * call, and the helpers the mapping functions share (onnx_map.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx_map.h"

static const struct onnx_map_entry *const families[] = {
	onnx_map_unary, onnx_map_binary, onnx_map_reduce, onnx_map_norm, onnx_map_nn, onnx_map_move,
	onnx_map_index,
};

const struct onnx_map_entry *onnx_map_find(const char *onnx)
{
	const struct onnx_map_entry *e;
	size_t f;

	for (f = 0; f < sizeof(families) / sizeof(families[0]); f++)
		for (e = families[f]; e->onnx; e++)
			if (!strcmp(e->onnx, onnx))
				return e;
	return NULL;
}

const struct onnx_map_entry *onnx_map_first(void)
{
	size_t f;

	for (f = 0; f < sizeof(families) / sizeof(families[0]); f++)
		if (families[f]->onnx)
			return families[f];
	return NULL;
}

const struct onnx_map_entry *onnx_map_next(const struct onnx_map_entry *e)
{
	size_t f;

	if ((++e)->onnx)
		return e;
	/* The end of a family: the next family's first entry. */
	for (f = 0; f < sizeof(families) / sizeof(families[0]); f++) {
		const struct onnx_map_entry *x = families[f];

		while (x->onnx)
			x++;
		if (x == e)
			break;
	}
	for (f++; f < sizeof(families) / sizeof(families[0]); f++)
		if (families[f]->onnx)
			return families[f];
	return NULL;
}

bool onnx_map_lists(const struct onnx_map_entry *e, const char *cann)
{
	size_t n = strlen(cann);
	const char *p = e->cann;

	while (p && *p) {
		while (*p == ' ')
			p++;
		if (!strncmp(p, cann, n) && (p[n] == ' ' || !p[n]))
			return true;
		while (*p && *p != ' ')
			p++;
	}
	return false;
}

enum onnx_err onnx_map_fail(struct onnx_map *m, enum onnx_err code, const char *fmt, ...)
{
	va_list ap;
	int at;

	if (m->err) {
		m->err->code = code;
		at = snprintf(m->err->msg, sizeof(m->err->msg), "%s: ", m->node->op_type);
		if (at < 0 || (size_t)at >= sizeof(m->err->msg))
			at = 0;
		va_start(ap, fmt);
		vsnprintf(m->err->msg + at, sizeof(m->err->msg) - (size_t)at, fmt, ap);
		va_end(ap);
	}
	return code;
}

void onnx_call_release(struct onnx_call *call)
{
	int i;

	for (i = 0; i < call->nmade; i++)
		onnx_tensor_release(&call->made[i]);
	call->nmade = 0;
}

enum onnx_err onnx_map_node(const struct onnx_node *node, int64_t opset, const struct onnx_map_input *in,
			    size_t nin, struct onnx_call *call, struct onnx_error *err)
{
	struct onnx_map m = { .node = node, .opset = opset, .nin = nin, .in = in, .call = call, .err = err };
	const struct onnx_map_entry *e;
	enum onnx_err ret;

	memset(call, 0, offsetof(struct onnx_call, ipool));
	if (err) {
		err->code = ONNX_OK;
		err->msg[0] = '\0';
	}
	if (node->domain && node->domain[0] && strcmp(node->domain, "ai.onnx"))
		return onnx_map_fail(&m, ONNX_ERR_UNSUPPORTED, "domain %s has no CANN mapping", node->domain);
	e = onnx_map_find(node->op_type);
	if (!e)
		return onnx_map_fail(&m, ONNX_ERR_UNSUPPORTED, "no CANN operator is mapped to it");
	ret = e->map(&m);
	if (!ret && (!call->type || !onnx_map_lists(e, call->type)))
		ret = onnx_map_fail(&m, ONNX_ERR_INVALID, "mapped to %s, which its entry does not list (%s)",
				    call->type ? call->type : "no type", e->cann ? e->cann : "none");
	if (ret)
		onnx_call_release(call);
	return ret;
}

bool onnx_map_has(const struct onnx_map *m, size_t i)
{
	return i < m->nin && m->in[i].present;
}

enum onnx_err onnx_map_inputs(struct onnx_map *m, int first, int last)
{
	int i;

	if (last < 0)
		last = (int)m->nin - 1;
	for (i = first; i <= last; i++) {
		if (!onnx_map_has(m, (size_t)i))
			continue;
		if (m->call->nin >= VOPS_MAX_INPUTS)
			return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "more than %d inputs", VOPS_MAX_INPUTS);
		m->call->in[m->call->nin++] = i;
	}
	return ONNX_OK;
}

enum onnx_err onnx_map_outputs(struct onnx_map *m, int first, int last)
{
	int i;

	if (last < 0)
		last = (int)m->node->noutputs - 1;
	for (i = first; i <= last; i++) {
		if (m->call->nout >= VOPS_MAX_OUTPUTS)
			return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "more than %d outputs", VOPS_MAX_OUTPUTS);
		m->call->out[m->call->nout++] = i;
	}
	return ONNX_OK;
}

enum onnx_err onnx_map_simple(struct onnx_map *m, const char *type)
{
	enum onnx_err ret;

	m->call->type = type;
	ret = onnx_map_inputs(m, 0, -1);
	return ret ? ret : onnx_map_outputs(m, 0, -1);
}

/* Element @k of integer tensor @t as an int64; false for other types. */
static bool int_at(const struct onnx_tensor *t, uint64_t k, int64_t *v)
{
	switch (t->dtype) {
	case ONNX_INT64: *v = ((const int64_t *)t->data)[k]; return true;
	case ONNX_INT32: *v = ((const int32_t *)t->data)[k]; return true;
	case ONNX_UINT32: *v = ((const uint32_t *)t->data)[k]; return true;
	case ONNX_INT16: *v = ((const int16_t *)t->data)[k]; return true;
	case ONNX_UINT16: *v = ((const uint16_t *)t->data)[k]; return true;
	case ONNX_INT8: *v = ((const int8_t *)t->data)[k]; return true;
	case ONNX_UINT8:
	case ONNX_BOOL: *v = ((const uint8_t *)t->data)[k]; return true;
	case ONNX_UINT64: *v = (int64_t)((const uint64_t *)t->data)[k]; return true;
	default: return false;
	}
}

/* Input @i's value, checked to be known and to have at most @max elements. */
static const struct onnx_tensor *value_of(struct onnx_map *m, size_t i, int max)
{
	const struct onnx_tensor *t = onnx_map_has(m, i) ? m->in[i].value : NULL;

	if (!t) {
		onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "input %zu must be a constant", i);
		return NULL;
	}
	if (t->count > (uint64_t)max) {
		onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "input %zu has more than %d values", i, max);
		return NULL;
	}
	return t;
}

enum onnx_err onnx_map_ints(struct onnx_map *m, size_t i, int64_t *v, int max, int *n)
{
	const struct onnx_tensor *t = value_of(m, i, max);
	uint64_t k;

	if (!t)
		return ONNX_ERR_UNSUPPORTED;
	for (k = 0; k < t->count; k++)
		if (!int_at(t, k, &v[k]))
			return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "input %zu is %s, not integers", i,
					     onnx_dtype_name(t->dtype));
	*n = (int)t->count;
	return ONNX_OK;
}

enum onnx_err onnx_map_floats(struct onnx_map *m, size_t i, double *v, int max, int *n)
{
	const struct onnx_tensor *t = value_of(m, i, max);
	uint64_t k;
	int64_t iv;

	if (!t)
		return ONNX_ERR_UNSUPPORTED;
	for (k = 0; k < t->count; k++) {
		switch (t->dtype) {
		case ONNX_FLOAT: v[k] = ((const float *)t->data)[k]; break;
		case ONNX_DOUBLE: v[k] = ((const double *)t->data)[k]; break;
		case ONNX_FLOAT16: v[k] = vops_f16_to_f32(((const uint16_t *)t->data)[k]); break;
		case ONNX_BFLOAT16: v[k] = vops_bf16_to_f32(((const uint16_t *)t->data)[k]); break;
		default:
			if (!int_at(t, k, &iv))
				return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "input %zu is %s, not numbers",
						     i, onnx_dtype_name(t->dtype));
			v[k] = (double)iv;
		}
	}
	*n = (int)t->count;
	return ONNX_OK;
}

static struct vops_attr *new_attr(struct onnx_map *m, const char *name, enum vops_attr_kind kind)
{
	struct onnx_call *c = m->call;
	struct vops_attr *a;

	if (c->nattrs >= ONNX_CALL_MAX_ATTRS) {
		onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "more than %d attributes", ONNX_CALL_MAX_ATTRS);
		return NULL;
	}
	a = &c->attrs[c->nattrs++];
	memset(a, 0, sizeof(*a));
	a->name = (char *)name;
	a->kind = kind;
	return a;
}

#define NEW_ATTR(a, kind)						\
	do {								\
		a = new_attr(m, name, kind);				\
		if (!a)							\
			return ONNX_ERR_UNSUPPORTED;			\
	} while (0)

enum onnx_err onnx_map_attr_int(struct onnx_map *m, const char *name, int64_t v)
{
	struct vops_attr *a;

	NEW_ATTR(a, VOPS_ATTR_INT);
	a->i = v;
	return ONNX_OK;
}

enum onnx_err onnx_map_attr_bool(struct onnx_map *m, const char *name, bool v)
{
	struct vops_attr *a;

	NEW_ATTR(a, VOPS_ATTR_BOOL);
	a->b = v;
	return ONNX_OK;
}

enum onnx_err onnx_map_attr_float(struct onnx_map *m, const char *name, float v)
{
	struct vops_attr *a;

	NEW_ATTR(a, VOPS_ATTR_FLOAT);
	a->f = v;
	return ONNX_OK;
}

enum onnx_err onnx_map_attr_str(struct onnx_map *m, const char *name, const char *v)
{
	struct onnx_call *c = m->call;
	size_t len = strlen(v) + 1;
	struct vops_attr *a;

	if (len > (size_t)(ONNX_CALL_SPOOL - c->ns))
		return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "attribute strings longer than %d bytes",
				     ONNX_CALL_SPOOL);
	NEW_ATTR(a, VOPS_ATTR_STRING);
	a->s = memcpy(c->spool + c->ns, v, len);
	c->ns += (int)len;
	return ONNX_OK;
}

enum onnx_err onnx_map_attr_dtype(struct onnx_map *m, const char *name, int32_t acl_dtype)
{
	struct vops_attr *a;

	NEW_ATTR(a, VOPS_ATTR_DTYPE);
	a->dt = acl_dtype;
	return ONNX_OK;
}

enum onnx_err onnx_map_attr_ints(struct onnx_map *m, const char *name, const int64_t *v, int n)
{
	struct onnx_call *c = m->call;
	struct vops_attr *a;

	if (n < 0 || n > ONNX_CALL_IPOOL - c->ni)
		return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "more than %d attribute ints", ONNX_CALL_IPOOL);
	NEW_ATTR(a, VOPS_ATTR_LIST_INT);
	a->li.n = n;
	a->li.v = c->ipool + c->ni;
	if (n)
		memcpy(a->li.v, v, (size_t)n * sizeof(*v));
	c->ni += n;
	return ONNX_OK;
}

enum onnx_err onnx_map_attr_floats(struct onnx_map *m, const char *name, const float *v, int n)
{
	struct onnx_call *c = m->call;
	struct vops_attr *a;

	if (n < 0 || n > ONNX_CALL_FPOOL - c->nf)
		return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "more than %d attribute floats",
				     ONNX_CALL_FPOOL);
	NEW_ATTR(a, VOPS_ATTR_LIST_FLOAT);
	a->lf.n = n;
	a->lf.v = c->fpool + c->nf;
	if (n)
		memcpy(a->lf.v, v, (size_t)n * sizeof(*v));
	c->nf += n;
	return ONNX_OK;
}

enum onnx_err onnx_map_copy_attr(struct onnx_map *m, const char *onnx_name, const char *cann_name)
{
	const struct onnx_attr *a = onnx_node_attr(m->node, onnx_name);

	if (!a)
		return ONNX_OK;
	switch (a->type) {
	case ONNX_ATTR_INT:
		return onnx_map_attr_int(m, cann_name, a->i);
	case ONNX_ATTR_FLOAT:
		return onnx_map_attr_float(m, cann_name, a->f);
	case ONNX_ATTR_STRING: {
		char buf[256];

		snprintf(buf, sizeof(buf), "%.*s", (int)a->s_len, a->s);
		return onnx_map_attr_str(m, cann_name, buf);
	}
	case ONNX_ATTR_INTS:
		return onnx_map_attr_ints(m, cann_name, a->ints, (int)a->n);
	case ONNX_ATTR_FLOATS:
		return onnx_map_attr_floats(m, cann_name, a->floats, (int)a->n);
	default:
		return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "attribute %s of ONNX type %d", onnx_name,
				     (int)a->type);
	}
}
