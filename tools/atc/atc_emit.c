// SPDX-License-Identifier: MIT
/*
 * atc_emit.c - the converted graph's live part as a struct om_model
 * (vnpu_om.h): the inputs in ONNX order (and the gear input last), the
 * constants in the weights at 64-byte offsets, the nodes in execution
 * order, the graph outputs by their ONNX names.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_base.h"
#include "atc_conv.h"

#define WEIGHT_ALIGN 64u

/* The model's name: --output's file name without ".om", else the graph's. */
static char *model_name(const struct atc_conv *c)
{
	const char *out = c->o->output, *base;
	size_t n;
	char *s;

	if (!out || !*out)
		return strdup(c->onnx->graph.name[0] ? c->onnx->graph.name : "model");
	base = strrchr(out, '/');
	base = base ? base + 1 : out;
	n = strlen(base);
	if (n > 3 && !strcmp(base + n - 3, ".om"))
		n -= 3;
	s = malloc(n + 1);
	if (s) {
		memcpy(s, base, n);
		s[n] = '\0';
	}
	return s;
}

/*
 * Node @i's name, made unique against every value and every node before
 * it: the .om names its ops after both and refers to "op:port".
 */
static char *node_name(const struct atc_conv *c, const struct om_model *m, uint32_t ni, const char *base)
{
	size_t len = strlen(base) + 24;
	char *s = malloc(len);
	unsigned int k = 0;
	bool clash = true;
	uint32_t j;

	while (s && clash) {
		if (k)
			snprintf(s, len, "%s_%u", base, k);
		else
			snprintf(s, len, "%s", base);
		k++;
		clash = atc_find(c, s) >= 0;
		for (j = 0; j < ni && !clash; j++)
			clash = !strcmp(m->nodes[j].name, s);
	}
	return s;
}

/* Value @a of the conversion into model value @w. */
static bool emit_value(const struct atc_conv *c, const struct atc_val *a, struct om_value *w)
{
	bool dynamic = false;
	int d;

	w->name = strdup(a->name);
	w->kind = a->kind;
	w->dtype = a->dtype;
	w->format = a->format;
	w->ndim = a->ndim;
	if (a->ndim) {
		w->dims = malloc((size_t)a->ndim * sizeof(int64_t));
		if (!w->dims)
			return false;
		for (d = 0; d < a->ndim; d++) {
			w->dims[d] = atc_dim(c, a, d);
			dynamic |= w->dims[d] < 0;
		}
	}
	if (a->kind == OM_VALUE_INPUT && dynamic) {
		w->range = malloc((size_t)a->ndim * 2 * sizeof(int64_t));
		if (!w->range)
			return false;
		for (d = 0; d < a->ndim; d++) {
			w->range[2 * d] = w->dims[d] < 0 ? a->range[2 * d] : w->dims[d];
			w->range[2 * d + 1] = w->dims[d] < 0 ? a->range[2 * d + 1] : w->dims[d];
		}
	}
	return w->name != NULL;
}

static enum atc_err fail_nomem(const struct atc_conv *c, struct om_model *m)
{
	om_model_free(m);
	atc_say(c->m, "out of memory");
	return ATC_ERR_NOMEM;
}

enum atc_err atc_emit(struct atc_conv *c, struct om_model **out)
{
	const struct onnx_graph *g = &c->onnx->graph;
	const struct atc_options *o = c->o;
	struct om_model *m = calloc(1, sizeof(*m));
	uint32_t nvalues = 0, nnodes = 0, vi = 0, ni = 0, k;
	uint64_t wsize = 0;
	bool gear = o->dynamic != OM_DYNAMIC_NONE;
	size_t i;
	int j;

	if (!m)
		return fail_nomem(c, NULL);
	if (gear && atc_find(c, OM_DYNAMIC_TENSOR_NAME) >= 0) {
		atc_say(c->m, "the model has a value named %s, the name of the gear input", OM_DYNAMIC_TENSOR_NAME);
		free(m);
		return ATC_ERR_UNSUPPORTED;
	}
	m->name = model_name(c);
	m->soc_version = strdup(o->soc_version ? o->soc_version : "");
	if (!m->name || !m->soc_version)
		return fail_nomem(c, m);
	/* What is emitted: every input, the live constants and the live nodes. */
	for (i = 0; i < c->nv; i++) {
		struct atc_val *a = &c->v[i];

		if (a->kind == OM_VALUE_CONST && a->live) {
			if (a->dtype < 0 || !vops_dtype_size(a->dtype)) {
				atc_say(c->m, "constant %s is %s, which vnpu's operators do not take", a->name,
					onnx_dtype_name(a->t->dtype));
				om_model_free(m);
				return ATC_ERR_UNSUPPORTED;
			}
			wsize = (wsize + WEIGHT_ALIGN - 1) / WEIGHT_ALIGN * WEIGHT_ALIGN + a->t->size;
		}
		if (a->kind == OM_VALUE_INPUT || (a->kind == OM_VALUE_CONST && a->live) ||
		    (a->kind == OM_VALUE_NODE && c->n[a->node].live))
			nvalues++;
	}
	for (i = 0; i < c->nn; i++)
		nnodes += c->n[i].live;
	m->nvalues = nvalues + gear;
	m->nnodes = nnodes;
	m->ninputs = (uint32_t)c->ninputs + gear;
	m->noutputs = (uint32_t)g->noutputs;
	m->values = calloc(m->nvalues ? m->nvalues : 1, sizeof(*m->values));
	m->nodes = calloc(nnodes ? nnodes : 1, sizeof(*m->nodes));
	m->inputs = calloc(m->ninputs ? m->ninputs : 1, sizeof(uint32_t));
	m->outputs = calloc(m->noutputs ? m->noutputs : 1, sizeof(uint32_t));
	m->weights = wsize ? calloc(1, wsize) : NULL;
	m->weights_size = wsize;
	if (!m->values || !m->nodes || !m->inputs || !m->outputs || (wsize && !m->weights))
		return fail_nomem(c, m);
	/* Inputs first, in ONNX order. */
	for (k = 0; k < c->ninputs; k++)
		for (i = 0; i < c->nv; i++) {
			struct atc_val *a = &c->v[i];

			if (a->kind != OM_VALUE_INPUT || a->input != (int)k)
				continue;
			a->om = vi;
			m->inputs[k] = vi;
			if (!emit_value(c, a, &m->values[vi++]))
				return fail_nomem(c, m);
		}
	if (gear) {
		struct om_value *w = &m->values[vi];

		w->name = strdup(OM_DYNAMIC_TENSOR_NAME);
		w->kind = OM_VALUE_INPUT;
		w->dtype = ACL_INT64;
		w->format = ACL_FORMAT_ND;
		w->ndim = 1;
		w->dims = malloc(sizeof(int64_t));
		if (!w->name || !w->dims)
			return fail_nomem(c, m);
		w->dims[0] = o->gear_len;
		m->inputs[c->ninputs] = vi++;
		m->dynamic = o->dynamic;
		m->ngears = o->ngears;
		m->gear_len = o->gear_len;
		m->gears = malloc((size_t)o->ngears * o->gear_len * sizeof(int64_t));
		if (!m->gears)
			return fail_nomem(c, m);
		memcpy(m->gears, o->gears, (size_t)o->ngears * o->gear_len * sizeof(int64_t));
	}
	/* The constants, their bytes at aligned offsets of the weights. */
	wsize = 0;
	for (i = 0; i < c->nv; i++) {
		struct atc_val *a = &c->v[i];
		struct om_value *w = &m->values[vi];

		if (a->kind != OM_VALUE_CONST || !a->live)
			continue;
		a->om = vi++;
		if (!emit_value(c, a, w))
			return fail_nomem(c, m);
		wsize = (wsize + WEIGHT_ALIGN - 1) / WEIGHT_ALIGN * WEIGHT_ALIGN;
		w->weight_offset = wsize;
		w->weight_size = a->t->size;
		if (a->t->size)
			memcpy((char *)m->weights + wsize, a->t->data, a->t->size);
		wsize += a->t->size;
	}
	/* The nodes in execution order, each followed by its outputs. */
	for (i = 0; i < c->nn; i++) {
		struct atc_node *n = &c->n[i];
		struct om_node *w = &m->nodes[ni];

		if (!n->live)
			continue;
		w->name = node_name(c, m, ni, n->name);
		w->type = strdup(n->type);
		w->nin = (uint32_t)n->nin;
		w->nout = (uint32_t)n->nout;
		w->in = calloc(n->nin ? (size_t)n->nin : 1, sizeof(uint32_t));
		w->out = calloc(n->nout ? (size_t)n->nout : 1, sizeof(uint32_t));
		if (!w->name || !w->type || !w->in || !w->out)
			return fail_nomem(c, m);
		/* The attributes move: the conversion frees what is left of them. */
		w->attrs = n->attrs;
		w->nattrs = n->nattrs;
		n->attrs = NULL;
		n->nattrs = 0;
		for (j = 0; j < n->nin; j++)
			w->in[j] = c->v[n->in[j]].om;
		for (j = 0; j < n->nout; j++) {
			struct atc_val *a = &c->v[n->out[j]];
			struct om_value *wv = &m->values[vi];

			a->om = vi++;
			if (!emit_value(c, a, wv))
				return fail_nomem(c, m);
			wv->node = ni;
			wv->port = (uint32_t)j;
			w->out[j] = a->om;
		}
		ni++;
	}
	m->nnodes = ni;
	for (i = 0; i < g->noutputs; i++)
		m->outputs[i] = c->v[atc_find(c, g->outputs[i].name)].om;
	for (i = 0; i < m->nvalues; i++)
		for (j = 0; j < m->values[i].ndim; j++)
			m->dynamic_shape |= m->values[i].dims[j] < 0;
	*out = m;
	return ATC_OK;
}
