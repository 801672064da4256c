// SPDX-License-Identifier: MIT
/*
 * rt_model_plan.c - a model's graph planned for one set of input shapes
 * (pure logic, rt_model.h): the input shapes from the dataset, a gear or
 * the model; every node through rt_op_plan(), the adapter aclopExecuteV2
 * uses, so a node fails with the code and words a single operator would
 * (prefixed with the node's name); then where every value lives.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"
#include "rt_model.h"
#include "rt_op.h"

bool rt_model_tensor_bytes(int32_t dtype, int32_t ndim, const int64_t *dims, uint64_t *bytes)
{
	uint64_t n = rt_dtype_size((aclDataType)dtype);
	int32_t i;

	if (!n)
		return false;
	for (i = 0; i < ndim; i++) {
		if (dims[i] < 0)
			return false;
		if (dims[i] && n > UINT64_MAX / (uint64_t)dims[i])
			return false;
		n *= (uint64_t)dims[i];
	}
	*bytes = n;
	return true;
}

const int64_t *rt_model_largest_gear(const struct om_model *m)
{
	const int64_t *best = NULL;
	double best_size = -1;
	uint32_t g, k;

	for (g = 0; g < m->ngears; g++) {
		const int64_t *row = m->gears + (size_t)g * m->gear_len;
		double size = 1;

		for (k = 0; k < m->gear_len; k++)
			size *= (double)row[k];
		if (size > best_size) {
			best_size = size;
			best = row;
		}
	}
	return best;
}

uint32_t rt_model_gear_dims(const struct om_model *m, const int64_t *gear, int64_t *out, uint32_t max)
{
	uint32_t i, n = 0, k = 0;
	int32_t d;

	for (i = 0; i < m->ninputs; i++) {
		const struct om_value *v = &m->values[m->inputs[i]];

		if (!strcmp(v->name, OM_DYNAMIC_TENSOR_NAME))
			continue;
		for (d = 0; d < v->ndim; d++) {
			if (n == max)
				return 0;
			out[n++] = v->dims[d] >= 0 ? v->dims[d] : (k < m->gear_len ? gear[k++] : -1);
		}
	}
	return n;
}

/* The gear's value for the @k-th unknown dimension of an input (@kin) and
 * of the whole model (@kall), as vnpu-atc lays gears out: a batch gear
 * fills every -1, an HW gear each input's -1 pair (H, then W), a dims gear
 * every -1 of the inputs in order. */
static bool gear_value(const struct om_model *m, const int64_t *gear, uint32_t kin, uint32_t kall, int64_t *out)
{
	switch (m->dynamic) {
	case OM_DYNAMIC_BATCH:
		*out = gear[0];
		return m->gear_len >= 1;
	case OM_DYNAMIC_HW:
		*out = gear[kin % 2];
		return m->gear_len >= 2;
	case OM_DYNAMIC_DIMS:
		if (kall >= m->gear_len)
			return false;
		*out = gear[kall];
		return true;
	default:
		return false;
	}
}

aclError rt_model_input_dims(const struct om_model *m, aclTensorDesc *const *desc, uint32_t ndesc,
			     const int64_t *gear, int64_t **key, uint32_t *key_len)
{
	uint32_t i, len = 0, pos = 0, kall = 0;
	int64_t *k;

	for (i = 0; i < m->ninputs; i++)
		len += (uint32_t)m->values[m->inputs[i]].ndim;
	k = malloc((len ? len : 1) * sizeof(*k));
	if (!k)
		return rt_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
	for (i = 0; i < m->ninputs; i++) {
		const struct om_value *v = &m->values[m->inputs[i]];
		const aclTensorDesc *d = i < ndesc ? desc[i] : NULL;
		uint32_t kin = 0;
		int32_t j;

		if (d && d->magic != RT_TENSOR_MAGIC) {
			free(k);
			return rt_err(ACL_ERROR_INVALID_PARAM, "the tensor descriptor of input %u (%s) is not one", i,
				      v->name);
		}
		if (d && d->ndims != v->ndim) {
			free(k);
			return rt_err(ACL_ERROR_INVALID_PARAM,
				      "input %u (%s) has %d dimensions; its tensor descriptor gives %d", i, v->name,
				      (int)v->ndim, d->ndims);
		}
		for (j = 0; j < v->ndim; j++) {
			int64_t want = v->dims[j], got = want;

			if (d) {
				got = d->dims[j];
				if (want >= 0 && got != want) {
					free(k);
					return rt_err(ACL_ERROR_INVALID_PARAM,
						      "input %u (%s): dimension %d is %" PRId64 " in the model; its tensor "
						      "descriptor says %" PRId64, i, v->name, (int)j, want, got);
				}
			} else if (want < 0 && gear) {
				if (!gear_value(m, gear, kin, kall, &got)) {
					free(k);
					return rt_err(ACL_ERROR_INVALID_PARAM,
						      "input %u (%s): dimension %d has no value in the model's gears", i,
						      v->name, (int)j);
				}
			} else if (want < 0) {
				free(k);
				return rt_err(ACL_ERROR_INVALID_PARAM,
					      "input %u (%s): dimension %d is decided at execution (-1) and was not given: "
					      "set the input's shape with aclmdlSetDatasetTensorDesc", i, v->name, (int)j);
			}
			if (want < 0) {
				kin++;
				kall++;
			}
			if (got < 0) {
				free(k);
				return rt_err(ACL_ERROR_INVALID_PARAM, "input %u (%s): dimension %d is %" PRId64
					      ", not a size", i, v->name, (int)j, got);
			}
			if (want < 0 && v->range) {
				int64_t lo = v->range[2 * j], hi = v->range[2 * j + 1];

				if (got < lo || (hi >= 0 && got > hi)) {
					char hs[24];

					if (hi >= 0)
						snprintf(hs, sizeof(hs), "%" PRId64, hi);
					else
						snprintf(hs, sizeof(hs), "unbounded");
					free(k);
					return rt_err(ACL_ERROR_INVALID_PARAM,
						      "input %u (%s): dimension %d is %" PRId64 ", outside its range [%"
						      PRId64 ", %s]", i, v->name, (int)j, got, lo, hs);
				}
			}
			k[pos++] = got;
		}
	}
	*key = k;
	*key_len = len;
	return ACL_SUCCESS;
}

void rt_mplan_get(struct rt_mplan *p)
{
	atomic_fetch_add(&p->refs, 1);
}

void rt_mplan_put(struct rt_mplan *p)
{
	uint32_t n;

	if (!p || atomic_fetch_sub(&p->refs, 1) != 1)
		return;
	for (n = 0; p->nodes && n < p->nnodes; n++) {
		free(p->nodes[n].desc);
		free(p->nodes[n].frees);
	}
	free(p->nodes);
	free(p->values);
	free(p->copies);
	free(p->key);
	free(p->dims_pool);
	free(p);
}

/* Plan node @n with its input values' shapes into @vp; the failure says
 * which node. */
static aclError plan_node(const struct om_model *m, uint32_t n, const struct rt_mplan *p, struct vops_plan *vp)
{
	const struct om_node *node = &m->nodes[n];
	aclTensorDesc ind[VOPS_MAX_INPUTS], outd[VOPS_MAX_OUTPUTS];
	aclTensorDesc *inp[VOPS_MAX_INPUTS], *outp[VOPS_MAX_OUTPUTS];
	struct aclopAttr attr = { .magic = RT_ATTR_MAGIC, .items = node->attrs, .count = node->nattrs,
				  .cap = node->nattrs };
	struct rt_errsave saved;
	aclError err;
	uint32_t i;

	if (node->nin > VOPS_MAX_INPUTS || node->nout > VOPS_MAX_OUTPUTS)
		return rt_err(ACL_ERROR_PARSE_MODEL, "node %s (%s) has %u inputs and %u outputs; vnpu takes at most "
			      "%d and %d", node->name, node->type, node->nin, node->nout, VOPS_MAX_INPUTS,
			      VOPS_MAX_OUTPUTS);
	for (i = 0; i < node->nin; i++) {
		const struct rt_mvalue *v = &p->values[node->in[i]];

		ind[i] = (aclTensorDesc){ .magic = RT_TENSOR_MAGIC, .dtype = (aclDataType)v->dtype,
					  .format = (aclFormat)m->values[node->in[i]].format, .ndims = v->ndim,
					  .dims = v->dims };
		inp[i] = &ind[i];
	}
	for (i = 0; i < node->nout; i++) {
		const struct om_value *v = &m->values[node->out[i]];

		/* The model's shape of the output, -1 where it depends on the
		 * inputs: what lib/ops computes must agree. */
		outd[i] = (aclTensorDesc){ .magic = RT_TENSOR_MAGIC, .dtype = (aclDataType)v->dtype,
					   .format = (aclFormat)v->format, .ndims = v->ndim, .dims = v->dims };
		outp[i] = &outd[i];
	}
	/* The message is the operator's, named after the node. */
	rt_err_save(&saved);
	rt_api_enter(NULL);
	err = rt_op_plan(node->type, (int)node->nin, inp, (int)node->nout, outp, &attr, vp);
	if (err) {
		char msg[RT_ERRMSG_MAX];
		const char *why = rt_err_take_message();

		snprintf(msg, sizeof(msg), "%s", why ? why : "no reason given");
		rt_err_restore(&saved);
		return rt_err(err, "node %s (%s): %s", node->name, node->type, msg);
	}
	rt_err_restore(&saved);
	if (vp->nout != (int)node->nout)
		return rt_err(ACL_ERROR_OP_OUTPUT_NOT_MATCH, "node %s (%s) has %u outputs; the operator makes %d",
			      node->name, node->type, node->nout, vp->nout);
	for (i = 0; i < node->nin; i++)
		if (vp->in_bytes[i] > p->values[node->in[i]].bytes)
			return rt_err(ACL_ERROR_OP_INPUT_NOT_MATCH,
				      "node %s (%s): input %u (%s) holds %" PRIu64 " bytes; the operator reads %" PRIu64,
				      node->name, node->type, i, m->values[node->in[i]].name,
				      p->values[node->in[i]].bytes, vp->in_bytes[i]);
	return ACL_SUCCESS;
}

static uint64_t round8(uint64_t x)
{
	return (x + 7) & ~(uint64_t)7;
}

/* Values, their shapes and where graph inputs and constants are. */
static aclError init_values(const struct om_model *m, const int64_t *key, struct rt_mplan *p)
{
	uint64_t pool = 0, used = 0;
	uint32_t i, kpos = 0;

	for (i = 0; i < m->nvalues; i++)
		pool += (uint64_t)m->values[i].ndim;
	p->dims_pool = calloc(pool ? pool : 1, sizeof(int64_t));
	if (!p->dims_pool)
		return rt_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
	for (i = 0; i < m->nvalues; i++) {
		const struct om_value *mv = &m->values[i];
		struct rt_mvalue *v = &p->values[i];

		v->dtype = mv->dtype;
		v->ndim = mv->ndim;
		v->dims = p->dims_pool + used;
		used += (uint64_t)mv->ndim;
		if (mv->ndim)
			memcpy(v->dims, mv->dims, (size_t)mv->ndim * sizeof(int64_t));
		v->align = RT_MODEL_ALIGN;
		v->need_align = 1;
		v->loc = RT_MLOC_ARENA;
		if (mv->kind == OM_VALUE_CONST) {
			v->loc = RT_MLOC_CONST;
			v->offset = mv->weight_offset;
			if (!rt_model_tensor_bytes(mv->dtype, mv->ndim, mv->dims, &v->bytes) || v->bytes > mv->weight_size)
				return rt_err(ACL_ERROR_PARSE_MODEL, "constant %s: %" PRIu64 " bytes of weights do not "
					      "hold its tensor", mv->name, mv->weight_size);
		}
	}
	for (i = 0; i < m->ninputs; i++) {
		struct rt_mvalue *v = &p->values[m->inputs[i]];

		v->loc = RT_MLOC_INPUT;
		v->index = i;
		if (v->ndim)
			memcpy(v->dims, key + kpos, (size_t)v->ndim * sizeof(int64_t));
		kpos += (uint32_t)v->ndim;
		if (!rt_model_tensor_bytes(v->dtype, v->ndim, v->dims, &v->bytes))
			return rt_err(ACL_ERROR_INVALID_PARAM, "input %u (%s): its type has no byte size or its shape "
				      "is too large", i, m->values[m->inputs[i]].name);
	}
	for (i = 0; i < m->nvalues; i++)
		p->values[i].size = p->values[i].bytes ? p->values[i].bytes : 1;
	return ACL_SUCCESS;
}

/* Graph outputs: written in place by their node, or copied. */
static aclError place_outputs(const struct om_model *m, struct rt_mplan *p)
{
	uint32_t k;

	p->copies = calloc(m->noutputs ? m->noutputs : 1, sizeof(*p->copies));
	if (!p->copies)
		return rt_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
	for (k = 0; k < m->noutputs; k++) {
		uint32_t vi = m->outputs[k];
		struct rt_mvalue *v = &p->values[vi];

		v->used = true;
		if (m->values[vi].kind == OM_VALUE_NODE && v->loc == RT_MLOC_ARENA) {
			v->loc = RT_MLOC_OUTPUT;
			v->index = k;
			continue;
		}
		p->copies[p->ncopies++] = (struct rt_mcopy){ .output = k, .value = vi,
							     .from_output = v->loc == RT_MLOC_OUTPUT ? v->index : 0 };
	}
	return ACL_SUCCESS;
}

/* Each node's list of the arena values it is the last to use. */
static aclError list_frees(const struct om_model *m, struct rt_mplan *p)
{
	uint32_t i;

	for (i = 0; i < m->nvalues; i++)
		if (p->values[i].loc == RT_MLOC_ARENA && m->values[i].kind == OM_VALUE_NODE)
			p->nodes[p->values[i].last_use].nfree++;
	for (i = 0; i < m->nnodes; i++) {
		if (!p->nodes[i].nfree)
			continue;
		p->nodes[i].frees = malloc(p->nodes[i].nfree * sizeof(uint32_t));
		if (!p->nodes[i].frees)
			return rt_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
		p->nodes[i].nfree = 0;
	}
	for (i = 0; i < m->nvalues; i++)
		if (p->values[i].loc == RT_MLOC_ARENA && m->values[i].kind == OM_VALUE_NODE) {
			struct rt_mnode *n = &p->nodes[p->values[i].last_use];

			n->frees[n->nfree++] = i;
		}
	return ACL_SUCCESS;
}

aclError rt_mplan_build(const struct om_model *m, const int64_t *key, uint32_t key_len, struct rt_mplan **out)
{
	struct vops_plan *vp = NULL;
	struct rt_mplan *p;
	aclError err;
	uint32_t n, i;

	p = calloc(1, sizeof(*p));
	if (!p)
		return rt_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
	atomic_init(&p->refs, 1);
	p->nvalues = m->nvalues;
	p->nnodes = m->nnodes;
	p->ninputs = m->ninputs;
	p->noutputs = m->noutputs;
	p->values = calloc(m->nvalues ? m->nvalues : 1, sizeof(*p->values));
	p->nodes = calloc(m->nnodes ? m->nnodes : 1, sizeof(*p->nodes));
	p->key = malloc((key_len ? key_len : 1) * sizeof(int64_t));
	vp = malloc(sizeof(*vp));
	if (!p->values || !p->nodes || !p->key || !vp) {
		err = rt_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
		goto fail;
	}
	p->key_len = key_len;
	if (key_len)
		memcpy(p->key, key, key_len * sizeof(int64_t));
	err = init_values(m, key, p);
	if (err)
		goto fail;

	for (n = 0; n < m->nnodes; n++) {
		const struct om_node *node = &m->nodes[n];
		struct rt_mnode *pn = &p->nodes[n];

		err = plan_node(m, n, p, vp);
		if (err)
			goto fail;
		pn->type = node->type;
		pn->in = node->in;
		pn->out = node->out;
		pn->empty = vp->empty;
		pn->nin = vp->nin;
		pn->nout = vp->nout;
		memcpy(pn->in_bytes, vp->in_bytes, sizeof(pn->in_bytes));
		pn->ws_bytes = vp->empty ? 0 : vp->ws_bytes;
		pn->ws_align = vp->ws_align > RT_MODEL_ALIGN ? vp->ws_align : RT_MODEL_ALIGN;
		pn->desc_size = vp->desc_size;
		pn->desc = malloc(vp->desc_size ? vp->desc_size : 1);
		if (!pn->desc) {
			err = rt_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
			goto fail;
		}
		memcpy(pn->desc, vp->desc, vp->desc_size);
		for (i = 0; i < node->nout; i++) {
			struct rt_mvalue *v = &p->values[node->out[i]];

			memcpy(v->dims, vp->out[i].dims, (size_t)v->ndim * sizeof(int64_t));
			v->bytes = vp->out[i].bytes;
			v->size = v->bytes ? v->bytes : 1;
			v->need_align = vp->out[i].align ? vp->out[i].align : 1;
			if (vp->out[i].align > v->align)
				v->align = vp->out[i].align;
			v->last_use = n;
		}
		for (i = 0; i < node->nin; i++) {
			p->values[node->in[i]].last_use = n;
			p->values[node->in[i]].used = true;
		}
		if (!pn->empty) {
			uint64_t nops = (uint64_t)vp->nin + (uint64_t)vp->nout + (pn->ws_bytes ? 1 : 0);

			p->ntasks++;
			p->operands += nops;
			p->data_bytes += round8(vp->desc_size) + nops * sizeof(struct drm_vnpu_operand);
		}
	}
	err = place_outputs(m, p);
	if (!err)
		err = list_frees(m, p);
	if (err)
		goto fail;
	for (i = 0; i < p->ncopies; i++)
		if (p->values[p->copies[i].value].bytes)
			p->ntasks++;
	rt_mplan_layout(p);
	free(vp);
	*out = p;
	return ACL_SUCCESS;
fail:
	free(vp);
	rt_mplan_put(p);
	return err;
}
