// SPDX-License-Identifier: MIT
/*
 * nn_exec.c - building an executor (nn.h): values, steps, the workspace
 * layout, and the job the launch submits.
 *
 * Values are views; only roots own a storage location (a caller's tensor
 * slot or a workspace offset), and a view's operands are resolved through
 * its root when the build ends, so that a temporary moved onto an output
 * (nn_store()'s retargeting) moves every view of it too.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn_exec.h"

static const int64_t no_dims[1];
static const struct nn_view none_view = { .dtype = ACL_FLOAT, .dims = no_dims, .strides = no_dims, .dense = true,
					  .count = 1 };

bool nn_ok(const struct nn_exec *x)
{
	return x && !x->status;
}

aclnnStatus nn_fail(struct nn_exec *x, aclnnStatus code, const char *fmt, ...)
{
	va_list ap;

	if (!x)
		return ACLNN_ERR_INNER_CREATE_EXECUTOR;
	if (x->status)
		return code;
	x->status = code;
	va_start(ap, fmt);
	vnpu_rt_error(code, x->api, fmt, ap);
	va_end(ap);
	return code;
}

#define CHUNK_BYTES 8192u

void *nn_alloc(struct nn_exec *x, size_t n)
{
	struct nn_chunk *c = x->arena;
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (!c || c->cap - c->used < n) {
		size_t cap = n > CHUNK_BYTES ? n : CHUNK_BYTES;

		c = malloc(sizeof(*c) + cap);
		if (!c) {
			nn_fail(x, ACLNN_ERR_INNER, "out of memory");
			return NULL;
		}
		c->next = x->arena;
		c->used = 0;
		c->cap = cap;
		x->arena = c;
	}
	p = c->data + c->used;
	c->used += n;
	return p;
}

struct nn_exec *nn_begin(const char *api)
{
	/* The executor and its first arena chunk in one allocation: a small
	 * operator's build is then one malloc and its end one free. */
	const size_t at = (sizeof(struct nn_exec) + _Alignof(struct nn_chunk) - 1) & ~(_Alignof(struct nn_chunk) - 1);
	struct nn_exec *x = malloc(at + sizeof(struct nn_chunk) + CHUNK_BYTES);
	struct nn_chunk *c;

	if (!x) {
		nn_err(ACLNN_ERR_INNER_CREATE_EXECUTOR, api, "out of memory");
		return NULL;
	}
	memset(x, 0, sizeof(*x));
	c = (struct nn_chunk *)(void *)((unsigned char *)x + at);
	c->next = NULL;
	c->used = 0;
	c->cap = CHUNK_BYTES;
	x->arena = c;
	x->api = api;
	x->device = vnpu_rt_current_device();
	pthread_mutex_init(&x->lock, NULL);
	return x;
}

void nn_exec_free(struct nn_exec *x)
{
	if (!x)
		return;
	/* The last chunk is the one inside @x's own allocation. */
	while (x->arena->next) {
		struct nn_chunk *c = x->arena;

		x->arena = c->next;
		free(c);
	}
	pthread_mutex_destroy(&x->lock);
	free(x);
}

/* Grow an array of @size-byte items to hold one more (in the arena: the
 * old copy stays there until the executor goes). */
static bool grow(struct nn_exec *x, void **arr, int n, int *cap, size_t size)
{
	void *p;
	int c;

	if (n < *cap)
		return true;
	c = *cap ? *cap * 2 : 8;
	p = nn_alloc(x, (size_t)c * size);
	if (!p)
		return false;
	if (n)
		memcpy(p, *arr, (size_t)n * size);
	*arr = p;
	*cap = c;
	return true;
}

static struct nn_value *val(const struct nn_exec *x, nn_val v)
{
	return &x->values[v];
}

static struct nn_value *root_of(const struct nn_exec *x, nn_val v)
{
	return &x->values[x->values[v].root];
}

static bool row_major(int ndim, const int64_t *dims, const int64_t *strides)
{
	int64_t s = 1;
	int i;

	for (i = ndim - 1; i >= 0; i--) {
		if (dims[i] != 1 && strides[i] != s)
			return false;
		s *= dims[i];
	}
	return true;
}

/* A new value of @ndim dimensions (strides NULL: row-major); its root is
 * itself until the caller says otherwise. NN_NONE after an error. */
static nn_val new_value(struct nn_exec *x, aclDataType dt, int ndim, const int64_t *dims, const int64_t *strides,
			int64_t offset)
{
	struct nn_value *v;
	uint64_t count = 1;
	int i;

	if (!nn_ok(x))
		return NN_NONE;
	if (ndim < 0 || ndim > VOPS_MAX_RANK) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "rank %d is not in [0, %d]", ndim, VOPS_MAX_RANK);
		return NN_NONE;
	}
	if (!grow(x, (void **)&x->values, x->nvalues, &x->cap_values, sizeof(*x->values)))
		return NN_NONE;
	v = &x->values[x->nvalues];
	memset(v, 0, sizeof(*v));
	/* One block: the view callers get (stable while the executor lives,
	 * whatever values come after), then the dimensions and strides. */
	v->view = nn_alloc(x, sizeof(*v->view) + (2 * (size_t)ndim + 1) * sizeof(int64_t));
	if (!v->view)
		return NN_NONE;
	v->dims = (int64_t *)(v->view + 1);
	v->strides = v->dims + ndim;
	v->dtype = dt;
	v->ndim = ndim;
	if (ndim)
		memcpy(v->dims, dims, (size_t)ndim * sizeof(int64_t));
	if (strides) {
		if (ndim)
			memcpy(v->strides, strides, (size_t)ndim * sizeof(int64_t));
	} else {
		int64_t s = 1;

		for (i = ndim - 1; i >= 0; i--) {
			v->strides[i] = s;
			s *= dims[i] ? dims[i] : 1;
		}
	}
	for (i = 0; i < ndim; i++)
		count *= (uint64_t)dims[i];
	v->count = count;
	v->offset = offset;
	v->reach = nn_reach(ndim, v->dims, v->strides, offset);
	v->dense = row_major(ndim, v->dims, v->strides);
	v->root = x->nvalues;
	v->producer = -1;
	v->retargeted = -1;
	*v->view = (struct nn_view){ .dtype = dt, .ndim = ndim, .dims = v->dims, .strides = v->strides,
				     .offset = offset, .dense = v->dense, .count = count };
	return x->nvalues++;
}

/* A dense temporary in the workspace. */
static nn_val new_temp(struct nn_exec *x, aclDataType dt, int ndim, const int64_t *dims)
{
	nn_val v = new_value(x, dt, ndim, dims, NULL, 0);
	struct nn_value *p;

	if (v < 0)
		return NN_NONE;
	/* Its place in the workspace is given when the build ends, to the
	 * temporaries a step still uses (not those moved onto an output). */
	p = val(x, v);
	p->base = NN_BASE_WS;
	p->bound = p->count;
	return v;
}

const struct nn_view *nn_view(const struct nn_exec *x, nn_val v)
{
	if (!x || v < 0 || v >= x->nvalues)
		return &none_view;
	return val(x, v)->view;
}

const char *nn_shape_str(struct nn_exec *x, nn_val v)
{
	char *buf;

	if (!x)
		return "[]";
	buf = x->shape_buf[x->shape_next++ % NN_SHAPE_BUFS];
	if (v < 0 || v >= x->nvalues)
		return strcpy(buf, "[]");
	return vops_shape_str(buf, sizeof(x->shape_buf[0]), val(x, v)->ndim, val(x, v)->dims);
}

/* ---- the caller's tensors ---------------------------------------------------------- */

static nn_val tensor_value(struct nn_exec *x, const aclTensor *t, const char *name, bool out, int ir, int pos)
{
	struct nn_value *p;
	struct nn_slot *s;
	uint64_t storage = UINT64_MAX;
	size_t es;
	nn_val v;
	int i;

	if (!nn_ok(x))
		return NN_NONE;
	if (!t) {
		nn_fail(x, ACLNN_ERR_PARAM_NULLPTR, "%s is NULL", name);
		return NN_NONE;
	}
	if (!nn_tensor_ok(t)) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "%s (%p) is not an aclTensor", name, (const void *)t);
		return NN_NONE;
	}
	es = vops_dtype_size(t->dtype);
	if (!es) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "%s has type %s, which aclnn does not compute with", name,
			vops_dtype_name(t->dtype));
		return NN_NONE;
	}
	if (!vnpu_rt_format_plain(t->format)) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "%s has format %d: only plain layouts (ND, NCHW, NHWC, ...) are "
			"supported", name, (int)t->format);
		return NN_NONE;
	}
	for (i = 0; i < t->ndim; i++)
		if (t->strides[i] < 0) {
			nn_fail(x, ACLNN_ERR_PARAM_INVALID, "%s has a negative stride (%lld in dimension %d)", name,
				(long long)t->strides[i], i);
			return NN_NONE;
		}
	if (t->sdim) {
		storage = 1;
		for (i = 0; i < t->sdim; i++)
			storage *= (uint64_t)t->sdims[i];
	}
	v = new_value(x, t->dtype, t->ndim, t->dims, t->strides, t->offset);
	if (v < 0)
		return NN_NONE;
	p = val(x, v);
	if (p->reach > storage) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "%s reaches element %llu of its storage, which holds %llu", name,
			(unsigned long long)p->reach - 1, (unsigned long long)storage);
		return NN_NONE;
	}
	if (p->reach && !t->data) {
		nn_fail(x, ACLNN_ERR_PARAM_NULLPTR, "%s has no device address", name);
		return NN_NONE;
	}
	if (!grow(x, (void **)&x->slots, x->nslots, &x->cap_slots, sizeof(*x->slots)))
		return NN_NONE;
	s = &x->slots[x->nslots];
	s->addr = (uint64_t)(uintptr_t)t->data;
	s->reach_bytes = p->reach * es;
	s->name = name;
	s->ir = ir;
	s->ir_pos = pos;
	s->out = out;
	p->base = out ? NN_BASE_OUT : NN_BASE_IN;
	p->slot = x->nslots++;
	p->bound = storage == UINT64_MAX ? p->reach : storage;
	return v;
}

nn_val nn_in(struct nn_exec *x, const aclTensor *t, const char *name)
{
	nn_val v = tensor_value(x, t, name, false, x ? x->nin_ir : 0, 0);

	if (x)
		x->nin_ir++;
	return v;
}

nn_val nn_in_opt(struct nn_exec *x, const aclTensor *t, const char *name)
{
	if (!t) {
		if (x)
			x->nin_ir++;
		return nn_ok(x) ? NN_ABSENT : NN_NONE;
	}
	return nn_in(x, t, name);
}

nn_val nn_out(struct nn_exec *x, const aclTensor *t, const char *name)
{
	nn_val v = tensor_value(x, t, name, true, x ? x->nout_ir : 0, 0);

	if (x)
		x->nout_ir++;
	return v;
}

static int tensor_list(struct nn_exec *x, const aclTensorList *l, const char *name, nn_val *vals, int max,
		       bool allow_empty, bool out)
{
	int ir, i;

	if (!nn_ok(x))
		return -1;
	ir = out ? x->nout_ir++ : x->nin_ir++;
	if (!l) {
		nn_fail(x, ACLNN_ERR_PARAM_NULLPTR, "%s is NULL", name);
		return -1;
	}
	if (l->magic != NN_LIST_MAGIC) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "%s (%p) is not an aclTensorList", name, (const void *)l);
		return -1;
	}
	if (!l->size && !allow_empty) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "%s is empty", name);
		return -1;
	}
	if (l->size > (uint64_t)max) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "%s has %llu tensors, at most %d are supported", name,
			(unsigned long long)l->size, max);
		return -1;
	}
	for (i = 0; i < (int)l->size; i++) {
		vals[i] = tensor_value(x, l->v[i], name, out, ir, i);
		if (vals[i] < 0)
			return -1;
	}
	return (int)l->size;
}

int nn_in_list(struct nn_exec *x, const aclTensorList *l, const char *name, nn_val *vals, int max, bool allow_empty)
{
	return tensor_list(x, l, name, vals, max, allow_empty, false);
}

int nn_out_list(struct nn_exec *x, const aclTensorList *l, const char *name, nn_val *vals, int max,
		bool allow_empty)
{
	return tensor_list(x, l, name, vals, max, allow_empty, true);
}

/* ---- steps ---------------------------------------------------------------------------- */

static struct nn_step *new_step(struct nn_exec *x, enum nn_step_kind kind)
{
	struct nn_step *s;

	if (!grow(x, (void **)&x->steps, x->nsteps, &x->cap_steps, sizeof(*x->steps)))
		return NULL;
	s = &x->steps[x->nsteps++];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->value = -1;
	return s;
}

/* The bytes of a scalar of @dt holding @d (floats) or @i (integers), as the
 * low bytes of a word. */
static uint64_t scalar_word(aclDataType dt, double d, int64_t i, bool from_float)
{
	union {
		uint64_t w;
		float f;
		double d;
		uint16_t h;
		int8_t i8;
		int16_t i16;
		int32_t i32;
		int64_t i64;
		uint8_t b;
	} u = { .w = 0 };
	int64_t iv = from_float ? nn_f64_to_i64(d) : i;
	double dv = from_float ? d : (double)i;

	switch (dt) {
	case ACL_FLOAT: u.f = (float)dv; break;
	case ACL_DOUBLE: u.d = dv; break;
	case ACL_FLOAT16: u.h = vops_f64_to_f16(dv); break;
	case ACL_BF16: u.h = vops_f64_to_bf16(dv); break;
	case ACL_BOOL: u.b = from_float ? d != 0 : i != 0; break;
	case ACL_INT8: case ACL_UINT8: u.i8 = (int8_t)iv; break;
	case ACL_INT16: case ACL_UINT16: u.i16 = (int16_t)iv; break;
	case ACL_INT32: case ACL_UINT32: u.i32 = (int32_t)iv; break;
	default: u.i64 = iv; break;
	}
	return u.w;
}

static nn_val write_scalar(struct nn_exec *x, aclDataType dt, uint64_t word)
{
	nn_val v;
	struct nn_step *s;

	if (!vops_dtype_size(dt)) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "a scalar of type %s", vops_dtype_name(dt));
		return NN_NONE;
	}
	v = new_temp(x, dt, 0, NULL);
	if (v < 0)
		return NN_NONE;
	s = new_step(x, NN_STEP_WRITE);
	if (!s)
		return NN_NONE;
	s->value = v;
	s->word = word;
	s->wide = vops_dtype_size(dt) == 8;
	val(x, v)->producer = x->nsteps - 1;
	return v;
}

nn_val nn_scalar(struct nn_exec *x, const aclScalar *s, aclDataType dt, const char *name)
{
	if (!nn_ok(x))
		return NN_NONE;
	if (!s) {
		nn_fail(x, ACLNN_ERR_PARAM_NULLPTR, "%s is NULL", name);
		return NN_NONE;
	}
	if (s->magic != NN_SCALAR_MAGIC) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "%s (%p) is not an aclScalar", name, (const void *)s);
		return NN_NONE;
	}
	if (nn_dt_float(s->dtype))
		return write_scalar(x, dt, scalar_word(dt, s->f, 0, true));
	return write_scalar(x, dt, scalar_word(dt, 0, nn_scalar_i64(s), false));
}

nn_val nn_const(struct nn_exec *x, double value, aclDataType dt)
{
	if (!nn_ok(x))
		return NN_NONE;
	return write_scalar(x, dt, scalar_word(dt, value, 0, true));
}

nn_val nn_restride(struct nn_exec *x, nn_val v, int ndim, const int64_t *dims, const int64_t *strides, int64_t offset)
{
	struct nn_value *r;
	nn_val w;
	int i;

	if (!nn_ok(x) || v < 0)
		return NN_NONE;
	for (i = 0; i < ndim; i++)
		if (dims[i] < 0 || (strides && strides[i] < 0)) {
			nn_fail(x, ACLNN_ERR_PARAM_INVALID, "a view with a negative dimension or stride");
			return NN_NONE;
		}
	if (offset < 0) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "a view with a negative offset");
		return NN_NONE;
	}
	w = new_value(x, val(x, v)->dtype, ndim, dims, strides, offset);
	if (w < 0)
		return NN_NONE;
	r = root_of(x, v);
	if (val(x, w)->reach > r->bound) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "a view reaching element %llu of a storage of %llu",
			(unsigned long long)val(x, w)->reach - 1, (unsigned long long)r->bound);
		return NN_NONE;
	}
	val(x, w)->root = val(x, v)->root;
	return w;
}

nn_val nn_reshape(struct nn_exec *x, nn_val v, int ndim, const int64_t *dims)
{
	uint64_t count = 1;
	int i;

	if (!nn_ok(x) || v < 0)
		return NN_NONE;
	for (i = 0; i < ndim; i++) {
		if (dims[i] < 0) {
			nn_fail(x, ACLNN_ERR_PARAM_INVALID, "a shape with dimension %lld", (long long)dims[i]);
			return NN_NONE;
		}
		count *= (uint64_t)dims[i];
	}
	if (count != val(x, v)->count) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "cannot reshape %s (%llu elements) to %llu elements",
			nn_shape_str(x, v), (unsigned long long)val(x, v)->count, (unsigned long long)count);
		return NN_NONE;
	}
	if (!val(x, v)->dense)
		v = nn_dense(x, v, ACL_DT_UNDEFINED);
	if (v < 0)
		return NN_NONE;
	return nn_restride(x, v, ndim, dims, NULL, val(x, v)->offset);
}

static void vt_of(const struct nn_exec *x, nn_val v, struct vops_tensor *t)
{
	const struct nn_value *p = val(x, v);

	t->dtype = p->dtype;
	t->ndim = p->ndim;
	t->dims = p->dims;
	t->strides = p->dense ? NULL : p->strides;
	t->offset = p->offset;
}

int nn_op(struct nn_exec *x, const char *type, int nin, const nn_val *in, const struct vops_attr *attrs,
	  unsigned int nattrs, int nout, nn_val *out)
{
	struct vops_tensor t[VOPS_MAX_INPUTS];
	/* On the stack as aclopExecuteV2's (tens of KiB; no malloc per call). */
	struct vops_plan planned;
	struct nn_memo_out outs[VOPS_MAX_OUTPUTS];
	struct nn_memo_plan fresh;
	const struct nn_memo_plan *plan;
	struct nn_memo_key key;
	struct vops_error err;
	struct nn_step *s;
	int i, n;

	for (i = 0; i < nout; i++)
		out[i] = NN_NONE;
	if (!nn_ok(x))
		return -1;
	if (nin < 0 || nin > VOPS_MAX_INPUTS || nout < 0 || nout > VOPS_MAX_OUTPUTS) {
		nn_fail(x, ACLNN_ERR_INNER, "%s with %d inputs and %d outputs", type, nin, nout);
		return -1;
	}
	for (i = 0; i < nin; i++) {
		if (in[i] < 0 || in[i] >= x->nvalues) {
			nn_fail(x, ACLNN_ERR_INNER, "%s: input %d is not a value", type, i);
			return -1;
		}
		vt_of(x, in[i], &t[i]);
	}
	plan = nn_memo_find(&key, type, nin, t, nout, attrs, nattrs);
	if (!plan) {
		nn_memo_counted_plan();
		if (vops_plan(type, nin, t, nout, attrs, nattrs, &planned, &err)) {
			nn_fail(x, ACLNN_ERR_PARAM_INVALID, "%s", err.msg);
			return -1;
		}
		nn_memo_from_plan(&planned, outs, &fresh);
		nn_memo_put(&key, &fresh);
		plan = &fresh;
	}
	for (i = 0; i < plan->nout; i++) {
		out[i] = new_temp(x, plan->out[i].dtype, plan->out[i].ndim, plan->out[i].dims);
		if (out[i] < 0)
			return -1;
	}
	if (plan->empty)
		return 0;
	s = new_step(x, NN_STEP_OP);
	if (!s)
		return -1;
	n = plan->nops;
	s->type = plan->type;
	s->desc = nn_alloc(x, plan->desc_size);
	s->ops = nn_alloc(x, (size_t)n * sizeof(*s->ops));
	if (!s->desc || !s->ops)
		return -1;
	memcpy(s->desc, plan->desc, plan->desc_size);
	s->desc_size = plan->desc_size;
	s->nops = n;
	s->nin = nin;
	s->in_place = plan->in_place;
	s->ws_bytes = plan->ws_bytes;
	s->ws_align = plan->ws_align;
	for (i = 0; i < nin; i++)
		s->ops[i] = (struct nn_operand){ .value = in[i], .bytes = plan->in_bytes[i],
						 .access = VNPU_OPERAND_READ };
	for (i = 0; i < plan->nout; i++) {
		s->ops[nin + i] = (struct nn_operand){ .value = out[i], .bytes = plan->out[i].bytes,
						       .access = VNPU_OPERAND_WRITE, .at_offset = true };
		val(x, out[i])->producer = x->nsteps - 1;
	}
	if (plan->ws_bytes)
		s->ops[n - 1] = (struct nn_operand){ .value = -1, .bytes = plan->ws_bytes,
						     .access = VNPU_OPERAND_WORKSPACE };
	return 0;
}

nn_val nn_op1(struct nn_exec *x, const char *type, int nin, const nn_val *in, const struct vops_attr *attrs,
	      unsigned int nattrs)
{
	nn_val out[VOPS_MAX_OUTPUTS];

	if (nn_op(x, type, nin, in, attrs, nattrs, 1, out))
		return NN_NONE;
	return out[0];
}

nn_val nn_cast(struct nn_exec *x, nn_val v, aclDataType dt)
{
	struct vops_attr a[] = { NN_ATTR_DTYPE("dst_type", dt) };

	if (!nn_ok(x) || v < 0)
		return NN_NONE;
	if (val(x, v)->dtype == dt)
		return v;
	return nn_op1(x, "Cast", 1, &v, a, NN_COUNT(a));
}

nn_val nn_dense(struct nn_exec *x, nn_val v, aclDataType dt)
{
	if (!nn_ok(x) || v < 0)
		return NN_NONE;
	if (dt != ACL_DT_UNDEFINED && dt != val(x, v)->dtype)
		return nn_cast(x, v, dt);
	return nn_op1(x, "Identity", 1, &v, NULL, 0);
}

/* ---- writing outputs --------------------------------------------------------------------- */

/* The byte range a value covers at build time: [*lo, *hi). Workspace
 * values: false (they overlap no caller's tensor). */
static bool value_range(const struct nn_exec *x, nn_val v, uint64_t *lo, uint64_t *hi)
{
	const struct nn_value *p = val(x, v), *r = root_of(x, v);
	size_t es = vops_dtype_size(p->dtype);
	uint64_t at;

	if (r->base == NN_BASE_WS || !p->count)
		return false;
	at = x->slots[r->slot].addr + r->delta;
	*lo = at + (uint64_t)p->offset * es;
	*hi = at + p->reach * es;
	return true;
}

static bool overlap(const struct nn_exec *x, nn_val a, nn_val b)
{
	uint64_t alo, ahi, blo, bhi;

	if (!value_range(x, a, &alo, &ahi) || !value_range(x, b, &blo, &bhi))
		return false;
	return alo < bhi && blo < ahi;
}

bool nn_overlaps(const struct nn_exec *x, nn_val a, nn_val b)
{
	if (!x || a < 0 || b < 0 || a >= x->nvalues || b >= x->nvalues)
		return false;
	return overlap(x, a, b);
}

/* May temporary @v (a dense root written by one operator) be moved onto
 * dense output view @o? Every step from its producer on must read no
 * caller memory that @o overlaps, except the producer's in-place input
 * at exactly @o's place. */
static bool can_retarget(const struct nn_exec *x, nn_val v, nn_val o)
{
	const struct nn_value *p = val(x, v), *q = val(x, o);
	int i, j;

	if (p->root != v || p->base != NN_BASE_WS || p->producer < 0 || p->retargeted >= 0 || !q->dense ||
	    p->dtype != q->dtype || p->count != q->count || x->steps[p->producer].kind != NN_STEP_OP)
		return false;
	for (i = p->producer; i < x->nsteps; i++) {
		const struct nn_step *s = &x->steps[i];

		for (j = 0; j < s->nops; j++) {
			const struct nn_operand *op = &s->ops[j];
			const struct nn_value *in;

			if (op->value < 0 || !overlap(x, op->value, o))
				continue;
			in = val(x, op->value);
			/* The producer reading its own in-place input where @o
			 * is: allowed when lib/ops says so. */
			if (i == p->producer && op->access == VNPU_OPERAND_READ && (s->in_place & (1u << j)) &&
			    s->ops[s->nin].value == v && in->dense && in->dtype == q->dtype && in->count == q->count) {
				uint64_t a, b, c, d;

				value_range(x, op->value, &a, &b);
				value_range(x, o, &c, &d);
				if (a == c)
					continue;
			}
			return false;
		}
	}
	return true;
}

static void retarget(struct nn_exec *x, nn_val v, nn_val o)
{
	struct nn_value *p = val(x, v), *q = val(x, o), *r = root_of(x, o);

	p->base = r->base;
	p->slot = r->slot;
	p->delta = r->delta + (uint64_t)q->offset * vops_dtype_size(q->dtype);
	p->bound = q->count;
	p->retargeted = o;
}

static bool same_shape(const struct nn_exec *x, nn_val a, nn_val b)
{
	const struct nn_value *p = val(x, a), *q = val(x, b);

	return p->ndim == q->ndim && !memcmp(p->dims, q->dims, (size_t)p->ndim * sizeof(int64_t));
}

/* The strided store of @v into view @o (ViewCopyD: casts and broadcasts). */
static void view_copy(struct nn_exec *x, nn_val v, nn_val o)
{
	struct nn_value *q = val(x, o);
	struct vops_attr a[] = {
		NN_ATTR_INTS("dst_size", q->ndim, q->dims),
		NN_ATTR_INTS("dst_stride", q->ndim, q->strides),
		/* The operand starts at the view's first element, so that it
		 * covers what the view touches, not the whole storage. */
		NN_ATTR_INT("dst_storage_offset", 0),
		NN_ATTR_INT("dst_storage_size", (int64_t)q->reach - q->offset),
		NN_ATTR_DTYPE("dst_type", q->dtype),
	};
	uint64_t first = (uint64_t)q->offset * vops_dtype_size(q->dtype);
	struct nn_value *p, *root;
	nn_val t;

	/* New values may move the array: @q is not used past this point. */
	t = nn_op1(x, "ViewCopyD", 1, &v, a, NN_COUNT(a));
	if (t < 0)
		return;
	/* Its output is @o's storage from @o's first element. */
	p = val(x, t);
	root = root_of(x, o);
	p->base = root->base;
	p->slot = root->slot;
	p->delta = root->delta + first;
	p->bound = p->count;
	p->retargeted = o;
}

static void store(struct nn_exec *x, nn_val v, nn_val o, bool bcast)
{
	struct nn_value *q;
	aclDataType dt;
	bool dense;
	nn_val w;
	int i;

	if (!nn_ok(x) || v < 0 || o < 0)
		return;
	q = val(x, o);
	if (root_of(x, o)->base != NN_BASE_OUT) {
		nn_fail(x, ACLNN_ERR_INNER, "a store into a value that is not an output");
		return;
	}
	if (!same_shape(x, v, o)) {
		const struct nn_value *p = val(x, v);
		bool ok = bcast && p->ndim <= q->ndim;

		for (i = 0; ok && i < p->ndim; i++) {
			int64_t d = p->dims[p->ndim - 1 - i];

			ok = d == 1 || d == q->dims[q->ndim - 1 - i];
		}
		if (!ok) {
			nn_fail(x, ACLNN_ERR_PARAM_INVALID, "out has shape %s, the result %s%s", nn_shape_str(x, o),
				nn_shape_str(x, v), bcast ? " (which does not broadcast to it)" : "");
			return;
		}
	} else if (can_retarget(x, v, o)) {
		retarget(x, v, o);
		return;
	}
	if (!q->count)
		return;
	/* New values may move the array: @q is not used past this point. */
	dense = q->dense;
	dt = q->dtype;
	w = v;
	if (overlap(x, w, o))
		w = nn_dense(x, w, ACL_DT_UNDEFINED);	/* read it all before writing */
	if (w < 0)
		return;
	if (dense && same_shape(x, w, o)) {
		w = nn_dense(x, w, dt);
		if (w >= 0 && can_retarget(x, w, o))
			retarget(x, w, o);
		else if (w >= 0)
			view_copy(x, w, o);
		return;
	}
	view_copy(x, w, o);
}

void nn_store(struct nn_exec *x, nn_val v, nn_val out)
{
	store(x, v, out, false);
}

void nn_copy(struct nn_exec *x, nn_val v, nn_val out)
{
	store(x, v, out, true);
}

void nn_fill(struct nn_exec *x, nn_val out, double value)
{
	struct nn_step *s;
	nn_val c;

	if (!nn_ok(x) || out < 0)
		return;
	if (!val(x, out)->count)
		return;
	if (value == 0 && !signbit(value) && val(x, out)->dense) {
		s = new_step(x, NN_STEP_FILL);
		if (s)
			s->value = out;
		return;
	}
	c = nn_const(x, value, val(x, out)->dtype);
	if (c >= 0)
		view_copy(x, c, out);
}

/* ---- checks ------------------------------------------------------------------------------ */

bool nn_null(struct nn_exec *x, const void *p, const char *name)
{
	if (!p)
		nn_fail(x, ACLNN_ERR_PARAM_NULLPTR, "%s is NULL", name);
	return !p;
}

bool nn_check_dtype(struct nn_exec *x, nn_val v, const char *name, const aclDataType *dts, int n)
{
	aclDataType dt;
	int i;

	if (!nn_ok(x) || v < 0)
		return false;
	dt = val(x, v)->dtype;
	for (i = 0; i < n; i++)
		if (dts[i] == dt)
			return true;
	nn_fail(x, ACLNN_ERR_PARAM_INVALID, "%s has type %s, which this function does not support", name,
		vops_dtype_name(dt));
	return false;
}

bool nn_check_rank(struct nn_exec *x, nn_val v, const char *name, int lo, int hi)
{
	int r;

	if (!nn_ok(x) || v < 0)
		return false;
	r = val(x, v)->ndim;
	if (r >= lo && r <= hi)
		return true;
	if (lo == hi)
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "%s has rank %d (shape %s), %d is required", name, r,
			nn_shape_str(x, v), lo);
	else
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "%s has rank %d (shape %s), not in [%d, %d]", name, r,
			nn_shape_str(x, v), lo, hi);
	return false;
}

int nn_broadcast(struct nn_exec *x, nn_val a, nn_val b, int64_t *dims)
{
	const struct nn_value *p, *q;
	int n, i;

	if (!nn_ok(x) || a < 0 || b < 0)
		return -1;
	p = val(x, a);
	q = val(x, b);
	n = p->ndim > q->ndim ? p->ndim : q->ndim;
	for (i = 0; i < n; i++) {
		int64_t da = i < p->ndim ? p->dims[p->ndim - 1 - i] : 1;
		int64_t db = i < q->ndim ? q->dims[q->ndim - 1 - i] : 1;

		if (da != db && da != 1 && db != 1) {
			nn_fail(x, ACLNN_ERR_PARAM_INVALID, "shapes %s and %s do not broadcast", nn_shape_str(x, a),
				nn_shape_str(x, b));
			return -1;
		}
		dims[n - 1 - i] = da == 1 ? db : da;
	}
	return n;
}

int nn_axis(struct nn_exec *x, int64_t axis, int rank, const char *name)
{
	int64_t r = rank ? rank : 1;

	if (!nn_ok(x))
		return -1;
	if (axis < -r || axis >= r) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "%s %lld is out of range for rank %d", name, (long long)axis, rank);
		return -1;
	}
	return (int)(axis < 0 ? axis + r : axis);
}

#define ARRAY_GET(fn, type, ctype, akind, what)                                                     \
	const ctype *fn(struct nn_exec *x, const type *a, const char *name, uint64_t *n)          \
	{                                                                                          \
		*n = 0;                                                                            \
		if (!nn_ok(x))                                                                     \
			return NULL;                                                               \
		if (!a) {                                                                          \
			nn_fail(x, ACLNN_ERR_PARAM_NULLPTR, "%s is NULL", name);                   \
			return NULL;                                                               \
		}                                                                                  \
		if (a->magic != NN_ARRAY_MAGIC || a->kind != (akind)) {                            \
			nn_fail(x, ACLNN_ERR_PARAM_INVALID, "%s (%p) is not an " what, name,       \
				(const void *)a);                                                  \
			return NULL;                                                               \
		}                                                                                  \
		*n = a->size;                                                                      \
		return a->v;                                                                       \
	}

ARRAY_GET(nn_ints, aclIntArray, int64_t, NN_ARRAY_INT, "aclIntArray")
ARRAY_GET(nn_floats, aclFloatArray, float, NN_ARRAY_FLOAT, "aclFloatArray")
ARRAY_GET(nn_bools, aclBoolArray, bool, NN_ARRAY_BOOL, "aclBoolArray")
