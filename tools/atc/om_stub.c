// SPDX-License-Identifier: MIT
/*
 * om_stub.c - om_model_free() and om_value_bytes() until lib/om's own
 * sources are merged (the converter only needs these two); removed then.
 */
#include <stdlib.h>

#include "vnpu_om.h"

uint64_t om_value_bytes(const struct om_value *v)
{
	uint64_t n = vops_dtype_size(v->dtype);
	int32_t d;

	for (d = 0; d < v->ndim; d++) {
		if (v->dims[d] < 0)
			return 0;
		n *= (uint64_t)v->dims[d];
	}
	return n;
}

void om_model_free(struct om_model *m)
{
	uint32_t i, k;

	if (!m)
		return;
	for (i = 0; m->values && i < m->nvalues; i++) {
		free(m->values[i].name);
		free(m->values[i].dims);
		free(m->values[i].range);
	}
	for (i = 0; m->nodes && i < m->nnodes; i++) {
		struct om_node *n = &m->nodes[i];

		free(n->name);
		free(n->type);
		free(n->in);
		free(n->out);
		for (k = 0; n->attrs && k < n->nattrs; k++) {
			free(n->attrs[k].name);
			if (n->attrs[k].kind == VOPS_ATTR_STRING)
				free(n->attrs[k].s);
			else if (n->attrs[k].kind == VOPS_ATTR_LIST_INT)
				free(n->attrs[k].li.v);
			else if (n->attrs[k].kind == VOPS_ATTR_LIST_FLOAT)
				free(n->attrs[k].lf.v);
		}
		free(n->attrs);
	}
	free(m->values);
	free(m->nodes);
	free(m->inputs);
	free(m->outputs);
	free(m->weights);
	free(m->gears);
	free(m->name);
	free(m->soc_version);
	free(m);
}
