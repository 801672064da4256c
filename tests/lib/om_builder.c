// SPDX-License-Identifier: MIT
/*
 * om_builder.c - hand-built offline models for tests (om_builder.h).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "om_builder.h"

static char *dup(const char *s)
{
	char *d = strdup(s);

	ck_assert_ptr_nonnull(d);
	return d;
}

static void *zalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	ck_assert_ptr_nonnull(p);
	return p;
}

void omb_init(struct omb *b, const char *name, uint32_t cap_values, uint32_t cap_nodes)
{
	memset(b, 0, sizeof(*b));
	b->cap_values = cap_values;
	b->cap_nodes = cap_nodes;
	b->m.name = dup(name);
	b->m.soc_version = dup("");
	b->m.values = zalloc(cap_values, sizeof(struct om_value));
	b->m.nodes = zalloc(cap_nodes, sizeof(struct om_node));
	b->m.inputs = zalloc(16, sizeof(uint32_t));
	b->m.outputs = zalloc(16, sizeof(uint32_t));
}

uint32_t omb_value(struct omb *b, const char *name, enum om_value_kind kind, int ndim, const int64_t *dims)
{
	uint32_t i = b->m.nvalues++;
	struct om_value *v = &b->m.values[i];

	ck_assert_uint_lt(i, b->cap_values);
	v->name = dup(name);
	v->kind = kind;
	v->dtype = ACL_FLOAT;
	v->format = ACL_FORMAT_ND;
	v->ndim = ndim;
	v->dims = zalloc((size_t)ndim, sizeof(int64_t));
	if (ndim)
		memcpy(v->dims, dims, (size_t)ndim * sizeof(int64_t));
	return i;
}

uint32_t omb_input(struct omb *b, const char *name, int ndim, const int64_t *dims, const int64_t *range)
{
	uint32_t v = omb_value(b, name, OM_VALUE_INPUT, ndim, dims);

	if (range) {
		b->m.values[v].range = zalloc(2 * (size_t)ndim, sizeof(int64_t));
		memcpy(b->m.values[v].range, range, 2 * (size_t)ndim * sizeof(int64_t));
	}
	ck_assert_uint_lt(b->m.ninputs, 16);
	b->m.inputs[b->m.ninputs++] = v;
	return v;
}

uint32_t omb_const(struct omb *b, const char *name, int ndim, const int64_t *dims, const float *vals)
{
	uint32_t v = omb_value(b, name, OM_VALUE_CONST, ndim, dims);
	uint64_t n = 1, off = (b->m.weights_size + 63) / 64 * 64;
	int i;

	for (i = 0; i < ndim; i++)
		n *= (uint64_t)dims[i];
	b->m.weights = realloc(b->m.weights, off + n * 4);
	ck_assert_ptr_nonnull(b->m.weights);
	memset((char *)b->m.weights + b->m.weights_size, 0, off - b->m.weights_size);
	memcpy((char *)b->m.weights + off, vals, n * 4);
	b->m.weights_size = off + n * 4;
	b->m.values[v].weight_offset = off;
	b->m.values[v].weight_size = n * 4;
	return v;
}

uint32_t omb_node(struct omb *b, const char *type, uint32_t nin, const uint32_t *in, int ndim, const int64_t *dims)
{
	uint32_t n = b->m.nnodes++;
	struct om_node *node = &b->m.nodes[n];
	char name[32];
	uint32_t v;

	ck_assert_uint_lt(n, b->cap_nodes);
	snprintf(name, sizeof(name), "n%u", n);
	node->name = dup(name);
	node->type = dup(type);
	node->nin = nin;
	node->in = zalloc(nin, sizeof(uint32_t));
	memcpy(node->in, in, nin * sizeof(uint32_t));
	snprintf(name, sizeof(name), "v%u", n);
	v = omb_value(b, name, OM_VALUE_NODE, ndim, dims);
	b->m.values[v].node = n;
	node->nout = 1;
	node->out = zalloc(1, sizeof(uint32_t));
	node->out[0] = v;
	return v;
}

void omb_attr_axes(struct omb *b, uint32_t node, int64_t axis)
{
	struct om_node *n = &b->m.nodes[node];

	n->attrs = zalloc(1, sizeof(struct vops_attr));
	n->nattrs = 1;
	n->attrs[0].name = dup("axes");
	n->attrs[0].kind = VOPS_ATTR_LIST_INT;
	n->attrs[0].li.n = 1;
	n->attrs[0].li.v = zalloc(1, sizeof(int64_t));
	n->attrs[0].li.v[0] = axis;
}

void omb_output(struct omb *b, uint32_t v)
{
	ck_assert_uint_lt(b->m.noutputs, 16);
	b->m.outputs[b->m.noutputs++] = v;
}

void omb_free(struct omb *b)
{
	uint32_t i, j;

	for (i = 0; i < b->m.nvalues; i++) {
		free(b->m.values[i].name);
		free(b->m.values[i].dims);
		free(b->m.values[i].range);
	}
	for (i = 0; i < b->m.nnodes; i++) {
		struct om_node *n = &b->m.nodes[i];

		free(n->name);
		free(n->type);
		free(n->in);
		free(n->out);
		for (j = 0; j < n->nattrs; j++) {
			free(n->attrs[j].name);
			if (n->attrs[j].kind == VOPS_ATTR_LIST_INT)
				free(n->attrs[j].li.v);
			else if (n->attrs[j].kind == VOPS_ATTR_LIST_FLOAT)
				free(n->attrs[j].lf.v);
			else if (n->attrs[j].kind == VOPS_ATTR_STRING)
				free(n->attrs[j].s);
		}
		free(n->attrs);
	}
	free(b->m.values);
	free(b->m.nodes);
	free(b->m.inputs);
	free(b->m.outputs);
	free(b->m.weights);
	free(b->m.gears);
	free(b->m.name);
	free(b->m.soc_version);
	memset(b, 0, sizeof(*b));
}
