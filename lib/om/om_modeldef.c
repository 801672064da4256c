// SPDX-License-Identifier: MIT
/*
 * om_modeldef.c - struct om_model to and from the MODEL_DEF partition, a
 * ge.proto.ModelDef (lib/om/ge_ir.proto). docs/om.md is the layout:
 *
 *   graph[0].op: one "Data" op per graph input (attr "index"), one "Const"
 *   op per constant (its bytes located by data_offset and weight_size),
 *   one op per node, in execution order, and a last "NetOutput" op whose
 *   inputs are the graph outputs. Every tensor is a TensorDescriptor
 *   named after its om_value; an op's inputs are GE's "op_name:port"
 *   strings with, in input_desc, the descriptors of the values they read.
 *
 * Writing builds protobuf-c's message tree in an arena (one release for
 * every piece of it) pointing into the model where it can. Reading takes
 * nothing on trust: each value is found by its descriptor's name, which
 * must be unique, and the "op_name:port" strings must say the same.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_base.h"
#include "ge_ir.pb-c.h"
#include "om_int.h"

/* The ModelDef's own attributes (docs/om.md). */
#define ATTR_VNPU_VERSION "vnpu_om_version"
#define ATTR_SOC_VERSION "soc_version"
#define ATTR_WEIGHT_SIZE "weight_size"
#define ATTR_DYNAMIC "vnpu_dynamic"
#define ATTR_GEARS "vnpu_gears"
/* A graph input's attribute and its TensorDescriptor's (GE's names). */
#define ATTR_INDEX "index"
#define ATTR_SHAPE_RANGE "shape_range"

typedef Ge__Proto__AttrDef AttrDef;
typedef Ge__Proto__AttrDef__ListValue ListValue;
typedef Ge__Proto__AttrDef__ListListInt ListListInt;
typedef Ge__Proto__AttrDef__ListListInt__ListInt ListInt;
typedef Ge__Proto__TensorDescriptor TensorDesc;
typedef Ge__Proto__OpDef OpDef;
typedef Ge__Proto__GraphDef GraphDef;
typedef Ge__Proto__ModelDef ModelDef;

#define LIST_INT GE__PROTO__ATTR_DEF__LIST_VALUE__LIST_VALUE_TYPE__VT_LIST_INT
#define LIST_FLOAT GE__PROTO__ATTR_DEF__LIST_VALUE__LIST_VALUE_TYPE__VT_LIST_FLOAT

/*
 * The four map entry types (ModelDef, GraphDef, OpDef, TensorDescriptor
 * attr) are the same message, {string key = 1; AttrDef value = 2;}; they
 * are reached through their descriptors' field offsets, not four copies
 * of the same code.
 */
static const char *entry_key(const void *e)
{
	const ProtobufCMessage *msg = e;
	const ProtobufCFieldDescriptor *f =
		protobuf_c_message_descriptor_get_field(msg->descriptor, 1);

	return *(char *const *)((const char *)e + f->offset);
}

static const AttrDef *entry_value(const void *e)
{
	const ProtobufCMessage *msg = e;
	const ProtobufCFieldDescriptor *f =
		protobuf_c_message_descriptor_get_field(msg->descriptor, 2);

	return *(AttrDef *const *)((const char *)e + f->offset);
}

/* ==== writing ================================================================== */

/* A bump allocator: blocks of at least ARENA_BLOCK bytes, freed together. */
#define ARENA_BLOCK (64u * 1024u)

struct arena_block {
	struct arena_block *next;
	size_t used, size;
	max_align_t data[];
};

struct packer {
	struct arena_block *blocks;
	const struct om_model *m;
	bool nomem;
};

static void *arena_alloc(struct packer *pk, size_t size)
{
	struct arena_block *b = pk->blocks;
	size_t need = (size + _Alignof(max_align_t) - 1) & ~(_Alignof(max_align_t) - 1);
	void *p;

	if (pk->nomem)
		return NULL;
	if (!b || b->size - b->used < need) {
		size_t bsize = need > ARENA_BLOCK ? need : ARENA_BLOCK;

		b = malloc(sizeof(*b) + bsize);
		if (!b) {
			pk->nomem = true;
			return NULL;
		}
		b->next = pk->blocks;
		b->used = 0;
		b->size = bsize;
		pk->blocks = b;
	}
	p = (char *)b->data + b->used;
	b->used += need;
	memset(p, 0, size);
	return p;
}

static void arena_free(struct packer *pk)
{
	while (pk->blocks) {
		struct arena_block *next = pk->blocks->next;

		free(pk->blocks);
		pk->blocks = next;
	}
}

/* An array of @n pointers (NULL, with nomem set, when out of memory). */
static void **ptr_array(struct packer *pk, size_t n)
{
	return arena_alloc(pk, (n ? n : 1) * sizeof(void *));
}

static void *msg_new(struct packer *pk, const ProtobufCMessageDescriptor *d)
{
	void *msg = arena_alloc(pk, d->sizeof_message);

	if (msg)
		protobuf_c_message_init(d, msg);
	return msg;
}

/* A map entry {key, value} of the entry type @d. */
static void *entry_new(struct packer *pk, const ProtobufCMessageDescriptor *d, const char *key,
		       AttrDef *value)
{
	char *e = msg_new(pk, d);

	if (!e || !value)
		return NULL;
	*(const char **)(e + protobuf_c_message_descriptor_get_field(d, 1)->offset) = key;
	*(AttrDef **)(e + protobuf_c_message_descriptor_get_field(d, 2)->offset) = value;
	return e;
}

static char *arena_printf(struct packer *pk, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static char *arena_printf(struct packer *pk, const char *fmt, ...)
{
	va_list ap;
	int n;
	char *s;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !(s = arena_alloc(pk, (size_t)n + 1)))
		return NULL;
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

static AttrDef *attr_int(struct packer *pk, int64_t i)
{
	AttrDef *a = msg_new(pk, &ge__proto__attr_def__descriptor);

	if (a) {
		a->value_case = GE__PROTO__ATTR_DEF__VALUE_I;
		a->i = i;
	}
	return a;
}

static AttrDef *attr_str(struct packer *pk, const char *s)
{
	AttrDef *a = msg_new(pk, &ge__proto__attr_def__descriptor);

	if (a) {
		a->value_case = GE__PROTO__ATTR_DEF__VALUE_S;
		a->s.len = strlen(s);
		a->s.data = (uint8_t *)(uintptr_t)s;
	}
	return a;
}

/* @rows lists of @cols int64 each, row r at v + r * cols (list_list_int). */
static AttrDef *attr_list_list(struct packer *pk, const int64_t *v, size_t rows, size_t cols)
{
	AttrDef *a = msg_new(pk, &ge__proto__attr_def__descriptor);
	ListListInt *ll = msg_new(pk, &ge__proto__attr_def__list_list_int__descriptor);
	ListInt **row = (ListInt **)ptr_array(pk, rows);

	if (!a || !ll || !row)
		return NULL;
	for (size_t r = 0; r < rows; r++) {
		if (!(row[r] = msg_new(pk, &ge__proto__attr_def__list_list_int__list_int__descriptor)))
			return NULL;
		row[r]->n_list_i = cols;
		row[r]->list_i = (int64_t *)(uintptr_t)(v + r * cols);
	}
	ll->n_list_list_i = rows;
	ll->list_list_i = row;
	a->value_case = GE__PROTO__ATTR_DEF__VALUE_LIST_LIST_INT;
	a->list_list_int = ll;
	return a;
}

/* A node attribute as GE holds it (docs/om.md, "attributes"). */
static AttrDef *attr_from_vops(struct packer *pk, const struct vops_attr *va)
{
	AttrDef *a = msg_new(pk, &ge__proto__attr_def__descriptor);
	ListValue *l;

	if (!a)
		return NULL;
	switch (va->kind) {
	case VOPS_ATTR_BOOL:
		a->value_case = GE__PROTO__ATTR_DEF__VALUE_B;
		a->b = va->b;
		break;
	case VOPS_ATTR_INT:
		a->value_case = GE__PROTO__ATTR_DEF__VALUE_I;
		a->i = va->i;
		break;
	case VOPS_ATTR_FLOAT:
		a->value_case = GE__PROTO__ATTR_DEF__VALUE_F;
		a->f = va->f;
		break;
	case VOPS_ATTR_STRING:
		a->value_case = GE__PROTO__ATTR_DEF__VALUE_S;
		a->s.len = strlen(va->s);
		a->s.data = (uint8_t *)va->s;
		break;
	case VOPS_ATTR_DTYPE:
		/* ge::DataType, whose numbers are aclDataType's (not the proto enum's). */
		a->value_case = GE__PROTO__ATTR_DEF__VALUE_DT;
		a->dt = va->dt;
		break;
	case VOPS_ATTR_LIST_INT:
	case VOPS_ATTR_LIST_FLOAT:
		if (!(l = msg_new(pk, &ge__proto__attr_def__list_value__descriptor)))
			return NULL;
		/* val_type says what an empty list is a list of. */
		if (va->kind == VOPS_ATTR_LIST_INT) {
			l->val_type = LIST_INT;
			l->n_i = (size_t)va->li.n;
			l->i = va->li.v;
		} else {
			l->val_type = LIST_FLOAT;
			l->n_f = (size_t)va->lf.n;
			l->f = va->lf.v;
		}
		a->value_case = GE__PROTO__ATTR_DEF__VALUE_LIST;
		a->list = l;
		break;
	}
	return a;
}

static TensorDesc *desc_new(struct packer *pk, const struct om_value *v)
{
	TensorDesc *t = msg_new(pk, &ge__proto__tensor_descriptor__descriptor);
	Ge__Proto__ShapeDef *s = msg_new(pk, &ge__proto__shape_def__descriptor);

	if (!t || !s)
		return NULL;
	t->name = v->name;
	t->dtype = (Ge__Proto__DataType)om_dtype_to_proto(v->dtype);
	s->n_dim = (size_t)v->ndim;
	s->dim = v->dims;
	t->shape = s;
	t->layout = (char *)(uintptr_t)om_format_name(v->format);
	t->size = (int64_t)om_value_bytes(v);
	if (v->kind == OM_VALUE_CONST) {
		t->data_offset = (int64_t)v->weight_offset;
		t->weight_size = (int64_t)v->weight_size;
	}
	if (v->range) {
		void **e = ptr_array(pk, 1);

		if (!e || !(e[0] = entry_new(pk, &ge__proto__tensor_descriptor__attr_entry__descriptor,
					     ATTR_SHAPE_RANGE,
					     attr_list_list(pk, v->range, (size_t)v->ndim, 2))))
			return NULL;
		t->n_attr = 1;
		t->attr = (Ge__Proto__TensorDescriptor__AttrEntry **)e;
	}
	return t;
}

/* GE's name of the op that makes value @x, and the port. */
static const char *producer(const struct om_model *m, uint32_t x, uint32_t *port)
{
	const struct om_value *v = &m->values[x];

	if (v->kind == OM_VALUE_NODE) {
		*port = v->port;
		return m->nodes[v->node].name;
	}
	*port = 0;
	return v->name;
}

/* Op @op's inputs: the values @in (@n of them), as strings and descriptors. */
static bool op_inputs(struct packer *pk, OpDef *op, const uint32_t *in, uint32_t n)
{
	char **s = (char **)ptr_array(pk, n);
	TensorDesc **d = (TensorDesc **)ptr_array(pk, n);

	if (!s || !d)
		return false;
	for (uint32_t k = 0; k < n; k++) {
		uint32_t port;
		const char *p = producer(pk->m, in[k], &port);

		if (!(s[k] = arena_printf(pk, "%s:%" PRIu32, p, port)) ||
		    !(d[k] = desc_new(pk, &pk->m->values[in[k]])))
			return false;
	}
	op->n_input = op->n_input_desc = n;
	op->input = s;
	op->input_desc = d;
	return true;
}

/* An op of @type named @name with the one output value @v (Data, Const). */
static OpDef *source_op(struct packer *pk, const char *type, const struct om_value *v)
{
	OpDef *op = msg_new(pk, &ge__proto__op_def__descriptor);
	TensorDesc **d = (TensorDesc **)ptr_array(pk, 1);

	if (!op || !d || !(d[0] = desc_new(pk, v)))
		return NULL;
	op->name = v->name;
	op->type = (char *)(uintptr_t)type;
	op->n_output_desc = 1;
	op->output_desc = d;
	return op;
}

static OpDef *data_op(struct packer *pk, uint32_t i)
{
	OpDef *op = source_op(pk, OM_OP_DATA, &pk->m->values[pk->m->inputs[i]]);
	void **e = ptr_array(pk, 1);

	if (!op || !e || !(e[0] = entry_new(pk, &ge__proto__op_def__attr_entry__descriptor,
					    ATTR_INDEX, attr_int(pk, i))))
		return NULL;
	op->n_attr = 1;
	op->attr = (Ge__Proto__OpDef__AttrEntry **)e;
	return op;
}

static OpDef *node_op(struct packer *pk, uint32_t i)
{
	const struct om_node *n = &pk->m->nodes[i];
	OpDef *op = msg_new(pk, &ge__proto__op_def__descriptor);
	TensorDesc **d = (TensorDesc **)ptr_array(pk, n->nout);
	void **e = ptr_array(pk, n->nattrs);

	if (!op || !d || !e || !op_inputs(pk, op, n->in, n->nin))
		return NULL;
	op->name = n->name;
	op->type = n->type;
	for (uint32_t k = 0; k < n->nout; k++)
		if (!(d[k] = desc_new(pk, &pk->m->values[n->out[k]])))
			return NULL;
	op->n_output_desc = n->nout;
	op->output_desc = d;
	for (unsigned int k = 0; k < n->nattrs; k++)
		if (!(e[k] = entry_new(pk, &ge__proto__op_def__attr_entry__descriptor,
				       n->attrs[k].name, attr_from_vops(pk, &n->attrs[k]))))
			return NULL;
	op->n_attr = n->nattrs;
	op->attr = (Ge__Proto__OpDef__AttrEntry **)e;
	return op;
}

static bool graph_fill(struct packer *pk, GraphDef *g)
{
	const struct om_model *m = pk->m;
	size_t nops = (size_t)m->ninputs + m->nnodes + 1, k = 0;
	OpDef **ops, *out;

	for (uint32_t i = 0; i < m->nvalues; i++)
		nops += m->values[i].kind == OM_VALUE_CONST;
	ops = (OpDef **)ptr_array(pk, nops);
	g->input = (char **)ptr_array(pk, m->ninputs);
	if (!ops || !g->input)
		return false;
	g->name = m->name;
	for (uint32_t i = 0; i < m->ninputs; i++) {
		if (!(ops[k++] = data_op(pk, i)))
			return false;
		g->input[i] = m->values[m->inputs[i]].name;
	}
	g->n_input = m->ninputs;
	for (uint32_t i = 0; i < m->nvalues; i++)
		if (m->values[i].kind == OM_VALUE_CONST &&
		    !(ops[k++] = source_op(pk, OM_OP_CONST, &m->values[i])))
			return false;
	for (uint32_t i = 0; i < m->nnodes; i++)
		if (!(ops[k++] = node_op(pk, i)))
			return false;
	out = msg_new(pk, &ge__proto__op_def__descriptor);
	if (!out || !op_inputs(pk, out, m->outputs, m->noutputs))
		return false;
	out->name = (char *)OM_OP_NETOUTPUT;
	out->type = (char *)OM_OP_NETOUTPUT;
	ops[k++] = out;
	/* GraphDef.output: the same "op:port" strings. */
	g->n_output = out->n_input;
	g->output = out->input;
	g->n_op = k;
	g->op = ops;
	return true;
}

static bool model_attrs(struct packer *pk, ModelDef *md)
{
	const struct om_model *m = pk->m;
	const ProtobufCMessageDescriptor *d = &ge__proto__model_def__attr_entry__descriptor;
	void **e = ptr_array(pk, 5);
	size_t n = 0;

	if (!e)
		return false;
	e[n++] = entry_new(pk, d, ATTR_VNPU_VERSION, attr_int(pk, OM_VNPU_VERSION));
	e[n++] = entry_new(pk, d, ATTR_SOC_VERSION, attr_str(pk, m->soc_version));
	e[n++] = entry_new(pk, d, ATTR_WEIGHT_SIZE, attr_int(pk, (int64_t)m->weights_size));
	e[n++] = entry_new(pk, d, ATTR_DYNAMIC, attr_int(pk, m->dynamic));
	if (m->ngears)
		e[n++] = entry_new(pk, d, ATTR_GEARS,
				   attr_list_list(pk, m->gears, m->ngears, m->gear_len));
	for (size_t k = 0; k < n; k++)
		if (!e[k])
			return false;
	md->n_attr = n;
	md->attr = (Ge__Proto__ModelDef__AttrEntry **)e;
	return true;
}

enum om_err om_modeldef_pack(const struct om_model *m, uint8_t **buf, size_t *len,
			     struct om_error *err)
{
	struct packer pk = { .m = m };
	ModelDef md = GE__PROTO__MODEL_DEF__INIT;
	GraphDef *g = msg_new(&pk, &ge__proto__graph_def__descriptor);
	GraphDef **graphs = (GraphDef **)ptr_array(&pk, 1);
	size_t n;
	uint8_t *out;

	*buf = NULL;
	*len = 0;
	if (!g || !graphs || !graph_fill(&pk, g) || !model_attrs(&pk, &md)) {
		arena_free(&pk);
		return om_fail(err, OM_ERR_NOMEM, "out of memory building the ModelDef of '%s'",
			       m->name);
	}
	md.name = m->name;
	graphs[0] = g;
	md.n_graph = 1;
	md.graph = graphs;
	n = ge__proto__model_def__get_packed_size(&md);
	out = malloc(n ? n : 1);
	if (!out) {
		arena_free(&pk);
		return om_fail(err, OM_ERR_NOMEM, "out of memory for a ModelDef of %zu bytes", n);
	}
	ge__proto__model_def__pack(&md, out);
	arena_free(&pk);
	*buf = out;
	*len = n;
	return OM_OK;
}

/* ==== reading ================================================================== */

#define BAD(...) om_fail(err, OM_ERR_FORMAT, __VA_ARGS__)

/* The entry called @key among the @n map entries @e, or NULL. */
static const AttrDef *attr_get(void *const *e, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(entry_key(e[i]), key))
			return entry_value(e[i]);
	return NULL;
}

/* A malloc'd C string of the @len bytes at @data; NULL when they hold a NUL. */
static char *bytes_str(const uint8_t *data, size_t len, bool *nomem)
{
	char *s;

	*nomem = false;
	if (len && memchr(data, 0, len))
		return NULL;
	s = malloc(len + 1);
	if (!s) {
		*nomem = true;
		return NULL;
	}
	if (len)
		memcpy(s, data, len);
	s[len] = '\0';
	return s;
}

static enum om_err nomem(struct om_error *err, const char *what)
{
	return om_fail(err, OM_ERR_NOMEM, "out of memory reading %s", what);
}

static enum om_err dup_str(char **dst, const char *s, struct om_error *err)
{
	*dst = strdup(s ? s : "");
	return *dst ? OM_OK : nomem(err, "a name");
}

/* A model attribute that must be an int when present (*present says). */
static enum om_err model_int(const ModelDef *md, const char *key, int64_t *v, bool *present,
			     struct om_error *err)
{
	const AttrDef *a = attr_get((void *const *)md->attr, md->n_attr, key);

	*present = a != NULL;
	if (!a)
		return OM_OK;
	if (a->value_case != GE__PROTO__ATTR_DEF__VALUE_I)
		return BAD("ModelDef attribute '%s' is not an int (value case %d)", key,
			   (int)a->value_case);
	*v = a->i;
	return OM_OK;
}

/*
 * A list_list_int of @rows rows of @cols values each into a new array
 * (*out, rows * cols); @what names it in messages. @rows or @cols of 0
 * take the list's.
 */
static enum om_err list_list(const AttrDef *a, const char *what, size_t *rows, size_t *cols,
			     int64_t **out, struct om_error *err)
{
	const ListListInt *ll = a->list_list_int;
	size_t r, c;

	*out = NULL;
	if (a->value_case != GE__PROTO__ATTR_DEF__VALUE_LIST_LIST_INT || !ll)
		return BAD("%s is not a list_list_int (value case %d)", what, (int)a->value_case);
	r = ll->n_list_list_i;
	c = r ? ll->list_list_i[0]->n_list_i : 0;
	if ((*rows && r != *rows) || (*cols && c != *cols))
		return BAD("%s: %zu lists of %zu, wanted %zu of %zu", what, r, c, *rows, *cols);
	for (size_t k = 0; k < r; k++)
		if (ll->list_list_i[k]->n_list_i != c)
			return BAD("%s: list %zu holds %zu values, list 0 %zu", what, k,
				   ll->list_list_i[k]->n_list_i, c);
	/* r * c values are in the file: no overflow. */
	*out = malloc(r && c ? r * c * sizeof(int64_t) : 1);
	if (!*out)
		return nomem(err, what);
	for (size_t k = 0; c && k < r; k++)
		memcpy(*out + k * c, ll->list_list_i[k]->list_i, c * sizeof(int64_t));
	*rows = r;
	*cols = c;
	return OM_OK;
}

static enum om_err model_header_attrs(const ModelDef *md, uint64_t weights_size,
				      struct om_model *m, struct om_error *err)
{
	const AttrDef *soc = attr_get((void *const *)md->attr, md->n_attr, ATTR_SOC_VERSION);
	const AttrDef *gears = attr_get((void *const *)md->attr, md->n_attr, ATTR_GEARS);
	int64_t ws = 0, dyn = 0;
	bool present, nm = false;
	enum om_err e;

	if (soc) {
		if (soc->value_case != GE__PROTO__ATTR_DEF__VALUE_S ||
		    !(m->soc_version = bytes_str(soc->s.data, soc->s.len, &nm)))
			return nm ? nomem(err, "soc_version")
				  : BAD("ModelDef attribute '%s' is not a string", ATTR_SOC_VERSION);
	} else if ((e = dup_str(&m->soc_version, "", err))) {
		return e;
	}
	if ((e = model_int(md, ATTR_WEIGHT_SIZE, &ws, &present, err)))
		return e;
	if (!present || ws < 0 || (uint64_t)ws != weights_size)
		return BAD("ModelDef attribute '%s' is %s%" PRId64 ", the WEIGHTS_DATA partition "
			   "holds %" PRIu64 " bytes", ATTR_WEIGHT_SIZE, present ? "" : "missing: ",
			   ws, weights_size);
	if ((e = model_int(md, ATTR_DYNAMIC, &dyn, &present, err)))
		return e;
	if (dyn < 0 || dyn > INT_MAX)
		return BAD("ModelDef attribute '%s' is %" PRId64, ATTR_DYNAMIC, dyn);
	m->dynamic = (enum om_dynamic)dyn;
	if (gears) {
		size_t rows = 0, cols = 0;

		if ((e = list_list(gears, "ModelDef attribute '" ATTR_GEARS "'", &rows, &cols,
				   &m->gears, err)))
			return e;
		if (rows > UINT32_MAX || cols > UINT32_MAX)
			return BAD("%zu gears of %zu values", rows, cols);
		m->ngears = (uint32_t)rows;
		m->gear_len = (uint32_t)cols;
	}
	return OM_OK;
}

/* The TensorDescriptor @t of value @v: name, type, layout, shape. */
static enum om_err value_from_desc(const TensorDesc *t, const char *op, struct om_value *v,
				   struct om_error *err)
{
	const Ge__Proto__ShapeDef *s = t->shape;
	enum om_err e;

	if ((e = dup_str(&v->name, t->name, err)))
		return e;
	v->dtype = om_dtype_from_proto((int32_t)t->dtype);
	if (v->dtype == ACL_DT_UNDEFINED)
		return BAD("op '%s': tensor '%s' has DataType %d, which is no aclDataType", op,
			   v->name, (int)t->dtype);
	v->format = om_format_from_name(t->layout);
	if (v->format == ACL_FORMAT_UNDEFINED)
		return BAD("op '%s': tensor '%s' has layout '%s', which is no aclFormat", op, v->name,
			   t->layout);
	if (s && s->n_dim > VOPS_MAX_RANK)
		return om_fail(err, OM_ERR_INVALID, "op '%s': tensor '%s' has %zu dimensions (at "
			       "most %d)", op, v->name, s->n_dim, VOPS_MAX_RANK);
	if (s && s->n_dim) {
		if (!(v->dims = malloc(s->n_dim * sizeof(*v->dims))))
			return nomem(err, "dimensions");
		memcpy(v->dims, s->dim, s->n_dim * sizeof(*v->dims));
		v->ndim = (int32_t)s->n_dim;
	}
	return OM_OK;
}

/* The one output descriptor of a Data or Const op. */
static const TensorDesc *single_output(const OpDef *op, struct om_error *err)
{
	if (op->n_output_desc != 1 || !op->output_desc[0]) {
		BAD("%s op '%s' has %zu output descriptors, not 1", op->type, op->name,
		    op->n_output_desc);
		return NULL;
	}
	return op->output_desc[0];
}

static enum om_err data_value(const OpDef *op, uint32_t ndata, struct om_model *m,
			      struct om_error *err)
{
	const AttrDef *idx = attr_get((void *const *)op->attr, op->n_attr, ATTR_INDEX);
	const TensorDesc *t = single_output(op, err);
	const AttrDef *r;
	struct om_value *v;
	enum om_err e;

	if (!t)
		return OM_ERR_FORMAT;
	if (!idx || idx->value_case != GE__PROTO__ATTR_DEF__VALUE_I || idx->i < 0 ||
	    idx->i >= ndata)
		return BAD("Data op '%s': no int attribute 'index' in 0 .. %" PRIu32, op->name,
			   ndata - 1);
	v = &m->values[idx->i];
	if (v->name)
		return BAD("Data ops '%s' and '%s' have the same index %" PRId64, v->name, op->name,
			   idx->i);
	v->kind = OM_VALUE_INPUT;
	if ((e = value_from_desc(t, op->name, v, err)))
		return e;
	r = attr_get((void *const *)t->attr, t->n_attr, ATTR_SHAPE_RANGE);
	if (r) {
		size_t rows = (size_t)v->ndim, cols = 2;

		if (!rows)
			return BAD("Data op '%s': a shape_range on a scalar", op->name);
		if ((e = list_list(r, "a shape_range", &rows, &cols, &v->range, err)))
			return e;
	}
	return OM_OK;
}

static enum om_err const_value(const OpDef *op, struct om_value *v, struct om_error *err)
{
	const TensorDesc *t = single_output(op, err);
	enum om_err e;

	if (!t)
		return OM_ERR_FORMAT;
	v->kind = OM_VALUE_CONST;
	if ((e = value_from_desc(t, op->name, v, err)))
		return e;
	if (t->data_offset < 0 || t->weight_size < 0)
		return BAD("Const op '%s': data_offset %" PRId64 ", weight_size %" PRId64, op->name,
			   t->data_offset, t->weight_size);
	v->weight_offset = (uint64_t)t->data_offset;
	v->weight_size = (uint64_t)t->weight_size;
	return OM_OK;
}

/* A node attribute back into vops' form (docs/om.md, "attributes"). */
static enum om_err attr_to_vops(const void *entry, const char *op, struct vops_attr *va,
				struct om_error *err)
{
	const AttrDef *a = entry_value(entry);
	const ListValue *l;
	size_t n;
	bool nm;
	enum om_err e;

	if ((e = dup_str(&va->name, entry_key(entry), err)))
		return e;
	if (!a)
		return BAD("op '%s': attribute '%s' has no value", op, va->name);
	switch (a->value_case) {
	case GE__PROTO__ATTR_DEF__VALUE_B:
		va->kind = VOPS_ATTR_BOOL;
		va->b = a->b;
		return OM_OK;
	case GE__PROTO__ATTR_DEF__VALUE_I:
		va->kind = VOPS_ATTR_INT;
		va->i = a->i;
		return OM_OK;
	case GE__PROTO__ATTR_DEF__VALUE_F:
		va->kind = VOPS_ATTR_FLOAT;
		va->f = a->f;
		return OM_OK;
	case GE__PROTO__ATTR_DEF__VALUE_DT:
		if (a->dt < INT32_MIN || a->dt > INT32_MAX)
			return BAD("op '%s': attribute '%s' is the data type %" PRId64, op, va->name,
				   a->dt);
		va->kind = VOPS_ATTR_DTYPE;
		va->dt = (int32_t)a->dt;
		return OM_OK;
	case GE__PROTO__ATTR_DEF__VALUE_S:
		va->kind = VOPS_ATTR_STRING;
		if (!(va->s = bytes_str(a->s.data, a->s.len, &nm)))
			return nm ? nomem(err, "a string attribute")
				  : BAD("op '%s': string attribute '%s' holds a NUL", op, va->name);
		return OM_OK;
	case GE__PROTO__ATTR_DEF__VALUE_LIST:
		l = a->list;
		if (l->val_type == LIST_INT) {
			n = l->n_i;
			va->kind = VOPS_ATTR_LIST_INT;
			if (n > INT_MAX || !(va->li.v = malloc(n ? n * sizeof(int64_t) : 1)))
				return nomem(err, "a list attribute");
			if (n)
				memcpy(va->li.v, l->i, n * sizeof(int64_t));
			va->li.n = (int)n;
		} else if (l->val_type == LIST_FLOAT) {
			n = l->n_f;
			va->kind = VOPS_ATTR_LIST_FLOAT;
			if (n > INT_MAX || !(va->lf.v = malloc(n ? n * sizeof(float) : 1)))
				return nomem(err, "a list attribute");
			if (n)
				memcpy(va->lf.v, l->f, n * sizeof(float));
			va->lf.n = (int)n;
		} else {
			return BAD("op '%s': attribute '%s' is a list of val_type %d (vnpu takes "
				   "VT_LIST_INT and VT_LIST_FLOAT)", op, va->name, (int)l->val_type);
		}
		return OM_OK;
	default:
		return BAD("op '%s': attribute '%s' has value case %d, which vnpu's operators do "
			   "not take", op, va->name, (int)a->value_case);
	}
}

static enum om_err node_from_op(const OpDef *op, uint32_t i, uint32_t first_out,
				struct om_model *m, struct om_error *err)
{
	struct om_node *n = &m->nodes[i];
	enum om_err e;

	if ((e = dup_str(&n->name, op->name, err)) || (e = dup_str(&n->type, op->type, err)))
		return e;
	if (op->n_input != op->n_input_desc)
		return BAD("op '%s': %zu inputs but %zu input descriptors", op->name, op->n_input,
			   op->n_input_desc);
	if (op->n_input_desc > VOPS_MAX_INPUTS || !op->n_output_desc ||
	    op->n_output_desc > VOPS_MAX_OUTPUTS)
		return om_fail(err, OM_ERR_INVALID, "node %" PRIu32 " '%s' (%s): %zu inputs, %zu "
			       "outputs (at most %d, 1 .. %d)", i, op->name, op->type,
			       op->n_input_desc, op->n_output_desc, VOPS_MAX_INPUTS, VOPS_MAX_OUTPUTS);
	n->in = calloc(op->n_input_desc ? op->n_input_desc : 1, sizeof(*n->in));
	n->out = calloc(op->n_output_desc, sizeof(*n->out));
	n->attrs = calloc(op->n_attr ? op->n_attr : 1, sizeof(*n->attrs));
	if (!n->in || !n->out || !n->attrs)
		return nomem(err, "a node");
	n->nin = (uint32_t)op->n_input_desc;
	n->nout = (uint32_t)op->n_output_desc;
	for (uint32_t k = 0; k < n->nout; k++) {
		struct om_value *v = &m->values[first_out + k];

		v->kind = OM_VALUE_NODE;
		v->node = i;
		v->port = k;
		n->out[k] = first_out + k;
		if (!op->output_desc[k])
			return BAD("op '%s': output descriptor %" PRIu32 " is empty", op->name, k);
		if ((e = value_from_desc(op->output_desc[k], op->name, v, err)))
			return e;
	}
	if (op->n_attr > UINT_MAX)
		return BAD("op '%s': %zu attributes", op->name, op->n_attr);
	n->nattrs = (unsigned int)op->n_attr;
	for (size_t k = 0; k < op->n_attr; k++)
		if ((e = attr_to_vops(op->attr[k], op->name, &n->attrs[k], err)))
			return e;
	return OM_OK;
}

/* Value names, sorted, for the lookups of the op inputs. */
struct name_ix {
	const char *name;
	uint32_t index;
};

static int name_ix_cmp(const void *a, const void *b)
{
	return strcmp(((const struct name_ix *)a)->name, ((const struct name_ix *)b)->name);
}

/*
 * Op @op's inputs into @dst: each the value its input descriptor names,
 * its "op:port" string the producer of that value.
 */
static enum om_err resolve_inputs(const OpDef *op, const struct om_model *m,
				  const struct name_ix *ix, uint32_t *dst, struct om_error *err)
{
	for (size_t k = 0; k < op->n_input_desc; k++) {
		const TensorDesc *t = op->input_desc[k];
		struct name_ix key = { .name = t ? t->name : "" };
		const struct name_ix *hit = bsearch(&key, ix, m->nvalues, sizeof(*ix), name_ix_cmp);
		const char *p, *s = op->input[k];
		char port_s[16];
		uint32_t port;
		size_t pl;

		if (!hit)
			return BAD("op '%s': input %zu is '%s', which no op makes", op->name, k,
				   key.name);
		p = producer(m, hit->index, &port);
		pl = strlen(p);
		snprintf(port_s, sizeof(port_s), "%" PRIu32, port);
		if (strncmp(s, p, pl) || s[pl] != ':' || strcmp(s + pl + 1, port_s))
			return BAD("op '%s': input %zu is '%s' but its descriptor names '%s', made "
				   "by '%s:%" PRIu32 "'", op->name, k, s, key.name, p, port);
		dst[k] = hit->index;
	}
	return OM_OK;
}

static enum om_err link_graph(const GraphDef *g, const OpDef *netout, struct om_model *m,
			      struct om_error *err)
{
	struct name_ix *ix = malloc((m->nvalues ? m->nvalues : 1) * sizeof(*ix));
	enum om_err e = OM_OK;
	uint32_t node = 0;

	if (!ix)
		return nomem(err, "the value names");
	for (uint32_t i = 0; i < m->nvalues; i++)
		ix[i] = (struct name_ix){ m->values[i].name, i };
	qsort(ix, m->nvalues, sizeof(*ix), name_ix_cmp);
	for (uint32_t i = 1; i < m->nvalues; i++)
		if (!strcmp(ix[i - 1].name, ix[i].name)) {
			e = om_fail(err, OM_ERR_INVALID, "two values are named '%s'", ix[i].name);
			goto out;
		}
	for (size_t k = 0; k < g->n_op; k++) {
		const OpDef *op = g->op[k];

		if (om_reserved_type(op->type))
			continue;
		if ((e = resolve_inputs(op, m, ix, m->nodes[node++].in, err)))
			goto out;
	}
	if (netout->n_input != netout->n_input_desc) {
		e = BAD("NetOutput op: %zu inputs but %zu input descriptors", netout->n_input,
			netout->n_input_desc);
		goto out;
	}
	m->outputs = calloc(netout->n_input_desc ? netout->n_input_desc : 1, sizeof(*m->outputs));
	if (!m->outputs) {
		e = nomem(err, "the outputs");
		goto out;
	}
	m->noutputs = (uint32_t)netout->n_input_desc;
	e = resolve_inputs(netout, m, ix, m->outputs, err);
out:
	free(ix);
	return e;
}

/* Counts of the ops of each kind; the totals are bounded by the file's size. */
static enum om_err count_ops(const GraphDef *g, size_t *ndata, size_t *nconst, size_t *nnodes,
			     uint64_t *nvalues, const OpDef **netout, struct om_error *err)
{
	*ndata = *nconst = *nnodes = 0;
	*nvalues = 0;
	*netout = NULL;
	for (size_t k = 0; k < g->n_op; k++) {
		const OpDef *op = g->op[k];

		if (!strcmp(op->type, OM_OP_DATA)) {
			++*ndata;
		} else if (!strcmp(op->type, OM_OP_CONST)) {
			++*nconst;
		} else if (!strcmp(op->type, OM_OP_NETOUTPUT)) {
			if (*netout)
				return BAD("two NetOutput ops ('%s', '%s')", (*netout)->name, op->name);
			*netout = op;
			continue;
		} else {
			++*nnodes;
			*nvalues += op->n_output_desc;
			continue;
		}
		++*nvalues;
	}
	if (!*netout)
		return BAD("the graph has no NetOutput op");
	if (*nvalues > UINT32_MAX || *nnodes > UINT32_MAX)
		return BAD("%" PRIu64 " values", *nvalues);
	return OM_OK;
}

static enum om_err graph_read(const GraphDef *g, struct om_model *m, struct om_error *err)
{
	size_t ndata, nconst, nnodes;
	uint64_t nvalues;
	const OpDef *netout;
	uint32_t cval, nval, node = 0;
	enum om_err e;

	if ((e = count_ops(g, &ndata, &nconst, &nnodes, &nvalues, &netout, err)))
		return e;
	m->values = calloc(nvalues ? nvalues : 1, sizeof(*m->values));
	m->nodes = calloc(nnodes ? nnodes : 1, sizeof(*m->nodes));
	m->inputs = calloc(ndata ? ndata : 1, sizeof(*m->inputs));
	if (!m->values || !m->nodes || !m->inputs)
		return nomem(err, "the graph");
	m->nvalues = (uint32_t)nvalues;
	m->nnodes = (uint32_t)nnodes;
	m->ninputs = (uint32_t)ndata;
	/* Values: the inputs by their index, the constants, the node outputs. */
	for (uint32_t i = 0; i < m->ninputs; i++)
		m->inputs[i] = i;
	cval = (uint32_t)ndata;
	nval = (uint32_t)(ndata + nconst);
	for (size_t k = 0; k < g->n_op; k++) {
		const OpDef *op = g->op[k];

		if (!strcmp(op->type, OM_OP_DATA))
			e = data_value(op, m->ninputs, m, err);
		else if (!strcmp(op->type, OM_OP_CONST))
			e = const_value(op, &m->values[cval++], err);
		else if (op == netout)
			continue;
		else {
			e = node_from_op(op, node++, nval, m, err);
			nval += (uint32_t)op->n_output_desc;
		}
		if (e)
			return e;
	}
	return link_graph(g, netout, m, err);
}

enum om_err om_modeldef_unpack(const uint8_t *buf, size_t len, uint64_t weights_size,
			       struct om_model *m, struct om_error *err)
{
	ModelDef *md = ge__proto__model_def__unpack(NULL, len, buf);
	int64_t ver = 0;
	bool present;
	enum om_err e;

	if (!md)
		return BAD("the MODEL_DEF partition (%zu bytes) is not a ModelDef", len);
	if ((e = model_int(md, ATTR_VNPU_VERSION, &ver, &present, err)))
		goto out;
	if (!present) {
		e = om_fail(err, OM_ERR_FOREIGN, "model '%s' is an offline model for Ascend "
			    "hardware (its ModelDef has no '%s'); vnpu runs models converted from "
			    "ONNX by vnpu-atc", md->name, ATTR_VNPU_VERSION);
		goto out;
	}
	if (ver > OM_VNPU_VERSION) {
		e = om_fail(err, OM_ERR_FOREIGN, "model '%s' was written by a newer vnpu-atc (%s "
			    "%" PRId64 "; this vnpu reads up to %d)", md->name, ATTR_VNPU_VERSION, ver,
			    OM_VNPU_VERSION);
		goto out;
	}
	if (ver < 1) {
		e = BAD("model '%s': %s is %" PRId64, md->name, ATTR_VNPU_VERSION, ver);
		goto out;
	}
	if (md->n_graph != 1) {
		e = BAD("model '%s' has %zu graphs, not 1", md->name, md->n_graph);
		goto out;
	}
	if ((e = dup_str(&m->name, md->name, err)) ||
	    (e = model_header_attrs(md, weights_size, m, err)))
		goto out;
	e = graph_read(md->graph[0], m, err);
out:
	ge__proto__model_def__free_unpacked(md, NULL);
	return e;
}
