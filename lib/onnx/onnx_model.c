// SPDX-License-Identifier: MIT
/*
 * onnx_model.c - ModelProto to struct onnx_model: opsets, the graph (its
 * inputs, outputs, value_info, initializers and nodes, subgraphs of GRAPH
 * attributes likewise), and the lookups and attribute getters.
 *
 * Every conversion leaves what it filled freeable on failure: arrays are
 * zeroed and their counts set before they are filled, so one release
 * function per type frees a whole or a partial result.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_base.h"
#include "onnx_int.h"

_Static_assert((int)ONNX_ATTR_INTS == (int)ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS &&
	       (int)ONNX_ATTR_TYPE_PROTOS == (int)ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TYPE_PROTOS,
	       "enum onnx_attr_type is AttributeProto.AttributeType");

static const char *str(const char *s)
{
	return s ? s : "";
}

/* ---- release --------------------------------------------------------------- */

static void graph_release(struct onnx_graph *g);

static void value_info_release(struct onnx_value_info *v)
{
	if (!v)
		return;
	free(v->name);
	for (int32_t i = 0; v->dims && i < v->ndim; i++)
		free(v->dims[i].param);
	free(v->dims);
	value_info_release(v->elem);
	free(v->elem);
	memset(v, 0, sizeof(*v));
}

static void attr_release(struct onnx_attr *a)
{
	free(a->name);
	free(a->s);
	onnx_tensor_release(a->t);
	free(a->t);
	graph_release(a->g);
	free(a->g);
	free(a->ints);
	free(a->floats);
	for (size_t i = 0; a->strings && i < a->n; i++)
		free(a->strings[i]);
	free(a->strings);
	free(a->s_lens);
	for (size_t i = 0; a->tensors && i < a->n; i++)
		onnx_tensor_release(&a->tensors[i]);
	free(a->tensors);
	for (size_t i = 0; a->graphs && i < a->n; i++)
		graph_release(&a->graphs[i]);
	free(a->graphs);
	memset(a, 0, sizeof(*a));
}

static void node_release(struct onnx_node *n)
{
	free(n->name);
	free(n->op_type);
	free(n->domain);
	for (size_t i = 0; n->inputs && i < n->ninputs; i++)
		free(n->inputs[i]);
	free(n->inputs);
	for (size_t i = 0; n->outputs && i < n->noutputs; i++)
		free(n->outputs[i]);
	free(n->outputs);
	for (size_t i = 0; n->attrs && i < n->nattrs; i++)
		attr_release(&n->attrs[i]);
	free(n->attrs);
	memset(n, 0, sizeof(*n));
}

static void graph_release(struct onnx_graph *g)
{
	if (!g)
		return;
	free(g->name);
	for (size_t i = 0; g->inputs && i < g->ninputs; i++)
		value_info_release(&g->inputs[i]);
	free(g->inputs);
	for (size_t i = 0; g->outputs && i < g->noutputs; i++)
		value_info_release(&g->outputs[i]);
	free(g->outputs);
	for (size_t i = 0; g->value_info && i < g->nvalue_info; i++)
		value_info_release(&g->value_info[i]);
	free(g->value_info);
	for (size_t i = 0; g->inits && i < g->ninits; i++)
		onnx_tensor_release(&g->inits[i]);
	free(g->inits);
	for (size_t i = 0; g->nodes && i < g->nnodes; i++)
		node_release(&g->nodes[i]);
	free(g->nodes);
	memset(g, 0, sizeof(*g));
}

void onnx_model_free(struct onnx_model *m)
{
	if (!m)
		return;
	for (size_t i = 0; m->opsets && i < m->nopsets; i++)
		free(m->opsets[i].domain);
	free(m->opsets);
	free(m->producer_name);
	graph_release(&m->graph);
	free(m);
}

/* ---- conversion ------------------------------------------------------------ */

/* calloc of n elements (at least one, so that NULL means no memory). */
static void *alloc_array(size_t n, size_t size)
{
	return calloc(n ? n : 1, size);
}

static enum onnx_err strings_copy(char ***dst, char *const *src, size_t n,
				  struct onnx_error *err)
{
	*dst = alloc_array(n, sizeof(char *));
	if (!*dst)
		return onnx_nomem(err);
	for (size_t i = 0; i < n; i++) {
		(*dst)[i] = onnx_strdup(src[i]);
		if (!(*dst)[i])
			return onnx_nomem(err);
	}
	return ONNX_OK;
}

/* A protobuf bytes field as a NUL-terminated string. */
static char *bytes_copy(const ProtobufCBinaryData *b)
{
	char *s = malloc(b->len + 1);

	if (s) {
		if (b->len)
			memcpy(s, b->data, b->len);
		s[b->len] = '\0';
	}
	return s;
}

static enum onnx_err type_convert(const Onnx__TypeProto *tp, struct onnx_value_info *v,
				  unsigned int depth, struct onnx_error *err);

static enum onnx_err shape_convert(const Onnx__TensorShapeProto *sp, struct onnx_value_info *v,
				   struct onnx_error *err)
{
	if (!sp)
		return ONNX_OK;
	if (sp->n_dim > 1024)
		return onnx_fail(err, ONNX_ERR_UNSUPPORTED, "rank %zu is too large", sp->n_dim);
	v->dims = alloc_array(sp->n_dim, sizeof(*v->dims));
	if (!v->dims)
		return onnx_nomem(err);
	v->has_shape = true;
	v->ndim = (int32_t)sp->n_dim;
	for (size_t i = 0; i < sp->n_dim; i++) {
		const Onnx__TensorShapeProto__Dimension *d = sp->dim[i];
		struct onnx_dim *o = &v->dims[i];

		o->value = -1;
		if (d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE) {
			if (d->dim_value < 0)
				return onnx_fail(err, ONNX_ERR_INVALID,
						 "dimension %zu is %" PRId64, i, d->dim_value);
			o->value = d->dim_value;
		}
		o->param = onnx_strdup(d->value_case ==
				       ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM ?
				       d->dim_param : "");
		if (!o->param)
			return onnx_nomem(err);
	}
	return ONNX_OK;
}

static enum onnx_err elem_convert(const Onnx__TypeProto *tp, struct onnx_value_info *v,
				  unsigned int depth, struct onnx_error *err)
{
	if (!tp)
		return ONNX_OK;
	v->elem = calloc(1, sizeof(*v->elem));
	if (!v->elem)
		return onnx_nomem(err);
	v->elem->acl_dtype = ACL_DT_UNDEFINED;
	v->elem->name = onnx_strdup("");
	if (!v->elem->name)
		return onnx_nomem(err);
	return type_convert(tp, v->elem, depth + 1, err);
}

static enum onnx_err type_convert(const Onnx__TypeProto *tp, struct onnx_value_info *v,
				  unsigned int depth, struct onnx_error *err)
{
	if (depth > ONNX_MAX_DEPTH)
		return onnx_fail(err, ONNX_ERR_UNSUPPORTED, "types nested too deep");
	if (!tp)
		return ONNX_OK;
	switch (tp->value_case) {
	case ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE:
		v->kind = ONNX_VALUE_TENSOR;
		v->dtype = tp->tensor_type->has_elem_type ? tp->tensor_type->elem_type : 0;
		v->acl_dtype = onnx_dtype_to_acl(v->dtype);
		return shape_convert(tp->tensor_type->shape, v, err);
	case ONNX__TYPE_PROTO__VALUE_SPARSE_TENSOR_TYPE:
		v->kind = ONNX_VALUE_SPARSE_TENSOR;
		v->dtype = tp->sparse_tensor_type->has_elem_type ?
			   tp->sparse_tensor_type->elem_type : 0;
		v->acl_dtype = onnx_dtype_to_acl(v->dtype);
		return shape_convert(tp->sparse_tensor_type->shape, v, err);
	case ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE:
		v->kind = ONNX_VALUE_SEQUENCE;
		return elem_convert(tp->sequence_type->elem_type, v, depth, err);
	case ONNX__TYPE_PROTO__VALUE_OPTIONAL_TYPE:
		v->kind = ONNX_VALUE_OPTIONAL;
		return elem_convert(tp->optional_type->elem_type, v, depth, err);
	case ONNX__TYPE_PROTO__VALUE_MAP_TYPE:
		v->kind = ONNX_VALUE_MAP;
		return ONNX_OK;
	default:
		return ONNX_OK;
	}
}

static enum onnx_err value_info_convert(const Onnx__ValueInfoProto *p, struct onnx_value_info *v,
					struct onnx_error *err)
{
	v->acl_dtype = ACL_DT_UNDEFINED;
	v->name = onnx_strdup(p->name);
	if (!v->name)
		return onnx_nomem(err);
	return type_convert(p->type, v, 0, err);
}

static enum onnx_err graph_convert(const Onnx__GraphProto *p, struct onnx_graph *g,
				   unsigned int depth, struct onnx_error *err);

static enum onnx_err attr_convert(const Onnx__AttributeProto *p, struct onnx_attr *a,
				  unsigned int depth, struct onnx_error *err)
{
	enum onnx_err e;

	a->name = onnx_strdup(p->name);
	if (!a->name)
		return onnx_nomem(err);
	if (p->ref_attr_name && *p->ref_attr_name)
		return onnx_fail(err, ONNX_ERR_INVALID, "refers to a function's attribute \"%s\" "
				 "outside a function", p->ref_attr_name);
	if (!p->has_type || p->type == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__UNDEFINED)
		return onnx_fail(err, ONNX_ERR_UNSUPPORTED,
				 "no type (IR version 1 models are not supported)");
	a->type = (enum onnx_attr_type)p->type;
	switch (a->type) {
	case ONNX_ATTR_FLOAT:
		a->f = p->f;
		return ONNX_OK;
	case ONNX_ATTR_INT:
		a->i = p->i;
		return ONNX_OK;
	case ONNX_ATTR_STRING:
		a->s = bytes_copy(&p->s);
		a->s_len = p->s.len;
		return a->s ? ONNX_OK : onnx_nomem(err);
	case ONNX_ATTR_TENSOR:
		if (!p->t)
			return onnx_fail(err, ONNX_ERR_INVALID, "a TENSOR attribute without a tensor");
		a->t = calloc(1, sizeof(*a->t));
		if (!a->t)
			return onnx_nomem(err);
		return onnx_tensor_from_proto(p->t, a->t, err);
	case ONNX_ATTR_GRAPH:
		if (!p->g)
			return onnx_fail(err, ONNX_ERR_INVALID, "a GRAPH attribute without a graph");
		a->g = calloc(1, sizeof(*a->g));
		if (!a->g)
			return onnx_nomem(err);
		return graph_convert(p->g, a->g, depth + 1, err);
	case ONNX_ATTR_FLOATS:
		a->floats = alloc_array(p->n_floats, sizeof(float));
		if (!a->floats)
			return onnx_nomem(err);
		a->n = p->n_floats;
		if (a->n)
			memcpy(a->floats, p->floats, a->n * sizeof(float));
		return ONNX_OK;
	case ONNX_ATTR_INTS:
		a->ints = alloc_array(p->n_ints, sizeof(int64_t));
		if (!a->ints)
			return onnx_nomem(err);
		a->n = p->n_ints;
		if (a->n)
			memcpy(a->ints, p->ints, a->n * sizeof(int64_t));
		return ONNX_OK;
	case ONNX_ATTR_STRINGS:
		a->strings = alloc_array(p->n_strings, sizeof(char *));
		a->s_lens = alloc_array(p->n_strings, sizeof(size_t));
		if (!a->strings || !a->s_lens)
			return onnx_nomem(err);
		a->n = p->n_strings;
		for (size_t i = 0; i < a->n; i++) {
			a->strings[i] = bytes_copy(&p->strings[i]);
			a->s_lens[i] = p->strings[i].len;
			if (!a->strings[i])
				return onnx_nomem(err);
		}
		return ONNX_OK;
	case ONNX_ATTR_TENSORS:
		a->tensors = alloc_array(p->n_tensors, sizeof(*a->tensors));
		if (!a->tensors)
			return onnx_nomem(err);
		a->n = p->n_tensors;
		for (size_t i = 0; i < a->n; i++) {
			e = onnx_tensor_from_proto(p->tensors[i], &a->tensors[i], err);
			if (e)
				return onnx_wrap(err, "tensor %zu", i);
		}
		return ONNX_OK;
	case ONNX_ATTR_GRAPHS:
		a->graphs = alloc_array(p->n_graphs, sizeof(*a->graphs));
		if (!a->graphs)
			return onnx_nomem(err);
		a->n = p->n_graphs;
		for (size_t i = 0; i < a->n; i++) {
			e = graph_convert(p->graphs[i], &a->graphs[i], depth + 1, err);
			if (e)
				return onnx_wrap(err, "graph %zu", i);
		}
		return ONNX_OK;
	case ONNX_ATTR_SPARSE_TENSOR:
	case ONNX_ATTR_TYPE_PROTO:
		a->n = 1;
		return ONNX_OK;
	case ONNX_ATTR_SPARSE_TENSORS:
		a->n = p->n_sparse_tensors;
		return ONNX_OK;
	case ONNX_ATTR_TYPE_PROTOS:
		a->n = p->n_type_protos;
		return ONNX_OK;
	case ONNX_ATTR_UNDEFINED:
		break;
	}
	return onnx_fail(err, ONNX_ERR_UNSUPPORTED, "unknown attribute type %d", (int)p->type);
}

static enum onnx_err node_convert(const Onnx__NodeProto *p, struct onnx_node *n,
				  unsigned int depth, struct onnx_error *err)
{
	enum onnx_err e;

	n->name = onnx_strdup(p->name);
	n->op_type = onnx_strdup(p->op_type);
	n->domain = onnx_strdup(p->domain);
	if (!n->name || !n->op_type || !n->domain)
		return onnx_nomem(err);
	if (!*n->op_type)
		return onnx_fail(err, ONNX_ERR_INVALID, "no op_type");
	n->ninputs = p->n_input;
	e = strings_copy(&n->inputs, p->input, p->n_input, err);
	if (e)
		return e;
	n->noutputs = p->n_output;
	e = strings_copy(&n->outputs, p->output, p->n_output, err);
	if (e)
		return e;
	n->attrs = alloc_array(p->n_attribute, sizeof(*n->attrs));
	if (!n->attrs)
		return onnx_nomem(err);
	n->nattrs = p->n_attribute;
	for (size_t i = 0; i < p->n_attribute; i++) {
		e = attr_convert(p->attribute[i], &n->attrs[i], depth, err);
		if (e)
			return onnx_wrap(err, "attribute \"%s\"", str(p->attribute[i]->name));
	}
	return ONNX_OK;
}

static enum onnx_err value_infos_convert(Onnx__ValueInfoProto *const *p, size_t n,
					 struct onnx_value_info **v, size_t *nv,
					 const char *what, struct onnx_error *err)
{
	*v = alloc_array(n, sizeof(**v));
	if (!*v)
		return onnx_nomem(err);
	*nv = n;
	for (size_t i = 0; i < n; i++)
		if (value_info_convert(p[i], &(*v)[i], err))
			return onnx_wrap(err, "%s %zu \"%s\"", what, i, str(p[i]->name));
	return ONNX_OK;
}

static enum onnx_err graph_convert(const Onnx__GraphProto *p, struct onnx_graph *g,
				   unsigned int depth, struct onnx_error *err)
{
	enum onnx_err e;

	if (depth > ONNX_MAX_DEPTH)
		return onnx_fail(err, ONNX_ERR_UNSUPPORTED, "subgraphs nested too deep");
	g->name = onnx_strdup(p->name);
	if (!g->name)
		return onnx_nomem(err);
	if (p->n_sparse_initializer)
		return onnx_fail(err, ONNX_ERR_UNSUPPORTED, "graph \"%s\": sparse initializers "
				 "are not supported", g->name);
	e = value_infos_convert(p->input, p->n_input, &g->inputs, &g->ninputs, "input", err);
	if (!e)
		e = value_infos_convert(p->output, p->n_output, &g->outputs, &g->noutputs,
					"output", err);
	if (!e)
		e = value_infos_convert(p->value_info, p->n_value_info, &g->value_info,
					&g->nvalue_info, "value_info", err);
	if (e)
		return onnx_wrap(err, "graph \"%s\"", g->name);
	g->inits = alloc_array(p->n_initializer, sizeof(*g->inits));
	if (!g->inits)
		return onnx_nomem(err);
	g->ninits = p->n_initializer;
	for (size_t i = 0; i < p->n_initializer; i++)
		if (onnx_tensor_from_proto(p->initializer[i], &g->inits[i], err))
			return onnx_wrap(err, "graph \"%s\": initializer %zu \"%s\"", g->name, i,
					 str(p->initializer[i]->name));
	g->nodes = alloc_array(p->n_node, sizeof(*g->nodes));
	if (!g->nodes)
		return onnx_nomem(err);
	g->nnodes = p->n_node;
	for (size_t i = 0; i < p->n_node; i++)
		if (node_convert(p->node[i], &g->nodes[i], depth, err))
			return onnx_wrap(err, "graph \"%s\": node %zu (%s \"%s\")", g->name, i,
					 str(p->node[i]->op_type), str(p->node[i]->name));
	return ONNX_OK;
}

static bool default_domain(const char *d)
{
	return !d || !*d || !strcmp(d, "ai.onnx");
}

static enum onnx_err model_convert(const Onnx__ModelProto *p, struct onnx_model *m,
				   struct onnx_error *err)
{
	m->ir_version = p->has_ir_version ? p->ir_version : 0;
	m->producer_name = onnx_strdup(p->producer_name);
	m->opsets = alloc_array(p->n_opset_import, sizeof(*m->opsets));
	if (!m->producer_name || !m->opsets)
		return onnx_nomem(err);
	m->nopsets = p->n_opset_import;
	for (size_t i = 0; i < p->n_opset_import; i++) {
		const Onnx__OperatorSetIdProto *o = p->opset_import[i];

		m->opsets[i].domain = onnx_strdup(o->domain);
		if (!m->opsets[i].domain)
			return onnx_nomem(err);
		m->opsets[i].version = o->has_version ? o->version : 0;
		if (default_domain(o->domain) && m->opsets[i].version > m->opset)
			m->opset = m->opsets[i].version;
	}
	m->nfunctions = p->n_functions;
	if (!p->graph)
		return onnx_fail(err, ONNX_ERR_INVALID, "no graph");
	return graph_convert(p->graph, &m->graph, 0, err);
}

enum onnx_err onnx_model_parse(const void *buf, size_t len, struct onnx_model **model,
			       struct onnx_error *err)
{
	struct onnx_error local;
	Onnx__ModelProto *p;
	struct onnx_model *m;
	enum onnx_err e;

	if (!err)
		err = &local;
	*model = NULL;
	p = onnx__model_proto__unpack(NULL, len, buf);
	if (!p)
		return onnx_fail(err, ONNX_ERR_PARSE, "not an ONNX model (protobuf decoding failed)");
	m = calloc(1, sizeof(*m));
	if (!m) {
		onnx__model_proto__free_unpacked(p, NULL);
		return onnx_nomem(err);
	}
	e = model_convert(p, m, err);
	onnx__model_proto__free_unpacked(p, NULL);
	if (e) {
		onnx_model_free(m);
		return e;
	}
	*model = m;
	return ONNX_OK;
}

enum onnx_err onnx_model_load(const char *path, struct onnx_model **model,
			      struct onnx_error *err)
{
	struct onnx_error local;
	enum onnx_err e;
	uint8_t *buf;
	size_t len;

	if (!err)
		err = &local;
	*model = NULL;
	e = onnx_read_file(path, &buf, &len, err);
	if (e)
		return e;
	e = onnx_model_parse(buf, len, model, err);
	free(buf);
	if (e)
		onnx_wrap(err, "%s", path);
	return e;
}

/* ---- lookups --------------------------------------------------------------- */

const struct onnx_attr *onnx_node_attr(const struct onnx_node *node, const char *name)
{
	for (size_t i = 0; i < node->nattrs; i++)
		if (!strcmp(node->attrs[i].name, name))
			return &node->attrs[i];
	return NULL;
}

const struct onnx_tensor *onnx_graph_init(const struct onnx_graph *graph, const char *name)
{
	for (size_t i = 0; i < graph->ninits; i++)
		if (!strcmp(graph->inits[i].name, name))
			return &graph->inits[i];
	return NULL;
}

static const struct onnx_value_info *value_find(const struct onnx_value_info *v, size_t n,
						const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return &v[i];
	return NULL;
}

const struct onnx_value_info *onnx_graph_input(const struct onnx_graph *graph, const char *name)
{
	return value_find(graph->inputs, graph->ninputs, name);
}

const struct onnx_value_info *onnx_graph_output(const struct onnx_graph *graph, const char *name)
{
	return value_find(graph->outputs, graph->noutputs, name);
}

const struct onnx_value_info *onnx_graph_feed(const struct onnx_graph *graph, size_t k)
{
	for (size_t i = 0; i < graph->ninputs; i++) {
		if (onnx_graph_init(graph, graph->inputs[i].name))
			continue;
		if (!k--)
			return &graph->inputs[i];
	}
	return NULL;
}

static const struct onnx_attr *attr_typed(const struct onnx_node *node, const char *name,
					  enum onnx_attr_type type)
{
	const struct onnx_attr *a = onnx_node_attr(node, name);

	return a && a->type == type ? a : NULL;
}

int64_t onnx_attr_int(const struct onnx_node *node, const char *name, int64_t def)
{
	const struct onnx_attr *a = attr_typed(node, name, ONNX_ATTR_INT);

	return a ? a->i : def;
}

float onnx_attr_float(const struct onnx_node *node, const char *name, float def)
{
	const struct onnx_attr *a = attr_typed(node, name, ONNX_ATTR_FLOAT);

	return a ? a->f : def;
}

const char *onnx_attr_string(const struct onnx_node *node, const char *name, const char *def)
{
	const struct onnx_attr *a = attr_typed(node, name, ONNX_ATTR_STRING);

	return a ? a->s : def;
}

const struct onnx_tensor *onnx_attr_tensor(const struct onnx_node *node, const char *name)
{
	const struct onnx_attr *a = attr_typed(node, name, ONNX_ATTR_TENSOR);

	return a ? a->t : NULL;
}

const int64_t *onnx_attr_ints(const struct onnx_node *node, const char *name, size_t *n)
{
	const struct onnx_attr *a = attr_typed(node, name, ONNX_ATTR_INTS);

	*n = a ? a->n : 0;
	return a ? a->ints : NULL;
}

const float *onnx_attr_floats(const struct onnx_node *node, const char *name, size_t *n)
{
	const struct onnx_attr *a = attr_typed(node, name, ONNX_ATTR_FLOATS);

	*n = a ? a->n : 0;
	return a ? a->floats : NULL;
}

char *const *onnx_attr_strings(const struct onnx_node *node, const char *name, size_t *n)
{
	const struct onnx_attr *a = attr_typed(node, name, ONNX_ATTR_STRINGS);

	*n = a ? a->n : 0;
	return a ? a->strings : NULL;
}

/* ---- Constant -------------------------------------------------------------- */

enum onnx_err onnx_node_constant(const struct onnx_node *node, struct onnx_tensor *t,
				 struct onnx_error *err)
{
	const char *name = node->noutputs ? node->outputs[0] : "";
	const struct onnx_attr *a;
	int64_t n;
	enum onnx_err e;

	memset(t, 0, sizeof(*t));
	if (strcmp(node->op_type, "Constant") || !default_domain(node->domain))
		return onnx_fail(err, ONNX_ERR_INVALID, "node \"%s\" is a %s, not a Constant",
				 node->name, node->op_type);
	if (node->nattrs != 1)
		return onnx_fail(err, ONNX_ERR_INVALID, "Constant \"%s\": %zu attributes, not one",
				 node->name, node->nattrs);
	a = &node->attrs[0];
	if (!strcmp(a->name, "value") && a->type == ONNX_ATTR_TENSOR) {
		e = onnx_tensor_copy(t, a->t, err);
		if (!e && strcmp(t->name, name)) {
			char *c = onnx_strdup(name);

			if (!c) {
				onnx_tensor_release(t);
				return onnx_nomem(err);
			}
			free(t->name);
			t->name = c;
		}
		return e;
	}
	if (!strcmp(a->name, "value_float") && a->type == ONNX_ATTR_FLOAT) {
		e = onnx_tensor_make(t, name, ONNX_FLOAT, 0, NULL, err);
		if (!e)
			memcpy(t->data, &a->f, sizeof(float));
		return e;
	}
	if (!strcmp(a->name, "value_int") && a->type == ONNX_ATTR_INT) {
		e = onnx_tensor_make(t, name, ONNX_INT64, 0, NULL, err);
		if (!e)
			memcpy(t->data, &a->i, sizeof(int64_t));
		return e;
	}
	n = (int64_t)a->n;
	if (!strcmp(a->name, "value_floats") && a->type == ONNX_ATTR_FLOATS) {
		e = onnx_tensor_make(t, name, ONNX_FLOAT, 1, &n, err);
		if (!e && n)
			memcpy(t->data, a->floats, t->size);
		return e;
	}
	if (!strcmp(a->name, "value_ints") && a->type == ONNX_ATTR_INTS) {
		e = onnx_tensor_make(t, name, ONNX_INT64, 1, &n, err);
		if (!e && n)
			memcpy(t->data, a->ints, t->size);
		return e;
	}
	if (!strcmp(a->name, "value_string") || !strcmp(a->name, "value_strings") ||
	    !strcmp(a->name, "sparse_value"))
		return onnx_fail(err, ONNX_ERR_UNSUPPORTED, "Constant \"%s\": %s is not supported",
				 node->name, a->name);
	return onnx_fail(err, ONNX_ERR_INVALID, "Constant \"%s\": attribute %s of type %d",
			 node->name, a->name, (int)a->type);
}
