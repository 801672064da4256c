// SPDX-License-Identifier: MIT
/*
 * rt_model_exec.c - one model execution on a stream: the memory and the one
 * job.
 *
 * Memory. Without a registered allocator (and always for the synchronous
 * calls), the plan's arena is the caller's work memory (a static model
 * loaded with workPtr) or a block of the runtime's workspace pool for the
 * stream (rt_pool.c: reused by the stream's next job at once, by another
 * stream only once this job is done, so executions on two streams never
 * share an arena); outputs with NULL buffers get device memory as
 * aclrtMalloc gives it. With an allocator registered for the stream
 * (looked up at every execution, as rt_opexec.c does), the plan is walked
 * node by node in host order: alloc() + getAddrFromBlock() for each
 * intermediate value, each workspace and each output whose buffer is NULL,
 * free() as soon as the last node using a block is laid out -- before the
 * submit: the single job runs its tasks in order, so a block reused later
 * in the same job is safe, and a caching allocator reuses by liveness.
 * Every address is checked (device memory of the stream's device inside
 * one allocation, aligned, apart from the caller's buffers and the blocks
 * still live) and bound to the stream when not yet bound (one POOL_BIND
 * the first time). A NULL block fails with ACL_ERROR_BAD_ALLOC, nothing
 * queued, every block taken so far freed.
 *
 * The job. One VNPU_TASK_OP task per node that computes something, its
 * descriptor and operands back to back in one data area, then one
 * VNPU_TASK_COPY per output that is an input, a constant or a repeat: one
 * SUBMIT. A graph beyond the uapi's limits of one submit (tasks, data,
 * operands) is split into as many submits as it takes, in order.
 *
 * One model on two streams: CANN forbids it; vnpu serializes it, the
 * second execution's job waiting for the first's through an in-sync.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"
#include "rt_model.h"
#include "rt_op.h"
#include "rt_ri.h"

struct span {
	uint64_t addr, size;
};

struct exec {
	struct rt_model *m;
	struct rt_mplan *p;
	const aclmdlDataset *in;
	aclmdlDataset *out;
	struct rt_stream *s;
	uint64_t *in_addr, *out_addr;
	bool *out_new;			/* output buffers this execution fills */
	uint64_t base;			/* the arena (no allocator) */
	/* With an allocator: */
	const struct rt_allocfns *fns;
	uint64_t *val_addr, *ws_addr;
	void **val_block, **out_block;
	struct span *live;		/* caller buffers, then live blocks */
	void **live_block;
	uint32_t ncaller, nlive;
	/* Without: */
	void **out_mem;			/* rt_malloc'ed outputs */
	struct rt_wsblock *ws;
};

static uint64_t round8(uint64_t x)
{
	return (x + 7) & ~(uint64_t)7;
}

static uint64_t value_addr(const struct exec *e, uint32_t v)
{
	const struct rt_mvalue *mv = &e->p->values[v];

	switch (mv->loc) {
	case RT_MLOC_INPUT:
		return e->in_addr[mv->index];
	case RT_MLOC_CONST:
		return (uint64_t)(uintptr_t)e->m->weights + mv->offset;
	case RT_MLOC_OUTPUT:
		return e->out_addr[mv->index];
	case RT_MLOC_ARENA:
		return e->val_addr ? e->val_addr[v] : e->base + mv->offset;
	}
	return 0;
}

/* ---- the caller's buffers ------------------------------------------------------ */

static aclError check_dataset(const aclmdlDataset *d, const char *what, uint32_t want)
{
	if (!d)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%s must not be NULL", what);
	if (d->magic != RT_DATASET_MAGIC)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%s (%p) is not a dataset", what, (const void *)d);
	if (d->n != want)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%s holds %u buffers; the model has %u", what, d->n, want);
	return ACL_SUCCESS;
}

static aclError bind_buffers(struct exec *e)
{
	const struct om_model *om = e->m->om;
	const struct rt_mplan *p = e->p;
	uint64_t addr[2 * 64], len[2 * 64];
	const char *what[2 * 64];
	char names[2 * 64][32];
	unsigned int n = 0;
	aclError err;
	uint32_t i;

	for (i = 0; i < om->ninputs; i++) {
		const aclDataBuffer *b = e->in->bufs[i];
		const struct rt_mvalue *v = &p->values[om->inputs[i]];

		if (!b || b->magic != RT_BUFFER_MAGIC)
			return rt_err(ACL_ERROR_INVALID_PARAM, "input %u (%s) has no data buffer", i,
				      om->values[om->inputs[i]].name);
		e->in_addr[i] = (uint64_t)(uintptr_t)b->data;
		if (!v->used)
			continue;	/* the gear tensor: no node reads it */
		if (!b->data)
			return rt_err(ACL_ERROR_INVALID_PARAM, "input %u (%s) has no memory (NULL data)", i,
				      om->values[om->inputs[i]].name);
		if (b->size < v->bytes)
			return rt_err(ACL_ERROR_INVALID_PARAM, "input %u (%s) holds %zu bytes; its tensor needs %" PRIu64,
				      i, om->values[om->inputs[i]].name, b->size, v->bytes);
		if (n < 2 * 64) {
			snprintf(names[n], sizeof(names[n]), "input %u", i);
			addr[n] = e->in_addr[i];
			len[n++] = v->size;
		}
	}
	for (i = 0; i < om->noutputs; i++) {
		const aclDataBuffer *b = e->out->bufs[i];
		const struct rt_mvalue *v = &p->values[om->outputs[i]];

		if (!b || b->magic != RT_BUFFER_MAGIC)
			return rt_err(ACL_ERROR_INVALID_PARAM, "output %u (%s) has no data buffer", i,
				      om->values[om->outputs[i]].name);
		if (!b->data && !b->size) {
			e->out_new[i] = true;	/* the runtime provides it */
			continue;
		}
		if (!b->data)
			return rt_err(ACL_ERROR_INVALID_PARAM, "output %u (%s) has no memory (NULL data) but a size", i,
				      om->values[om->outputs[i]].name);
		if (b->size < v->bytes)
			return rt_err(ACL_ERROR_INVALID_PARAM, "output %u (%s) holds %zu bytes; its tensor needs %" PRIu64,
				      i, om->values[om->outputs[i]].name, b->size, v->bytes);
		e->out_addr[i] = (uint64_t)(uintptr_t)b->data;
		if (n < 2 * 64) {
			snprintf(names[n], sizeof(names[n]), "output %u", i);
			addr[n] = e->out_addr[i];
			len[n++] = v->size;
		}
	}
	for (i = 0; i < n; i++)
		what[i] = names[i];
	err = rt_device_ranges(e->s->dev, n, addr, len, what);
	if (err)
		return err;
	/* The allocator's blocks must keep apart from these. */
	for (i = 0; i < n; i++)
		e->live[i] = (struct span){ addr[i], len[i] };
	e->ncaller = n;
	return ACL_SUCCESS;
}

/* ---- memory with a registered allocator ------------------------------------------- */

static void free_block(struct exec *e, void *block)
{
	struct rt_errsave saved;

	rt_err_save(&saved);
	e->fns->free(e->fns->obj, block);
	rt_err_restore(&saved);
}

static void live_remove(struct exec *e, void *block)
{
	uint32_t i;

	for (i = 0; i < e->nlive; i++)
		if (e->live_block[i] == block) {
			e->live[e->ncaller + i] = e->live[e->ncaller + e->nlive - 1];
			e->live_block[i] = e->live_block[e->nlive - 1];
			e->nlive--;
			return;
		}
}

/* A block of @size bytes for @what, checked and bound; kept live. */
static aclError take_block(struct exec *e, uint64_t size, uint32_t align, const char *what, uint32_t which,
			   void **block_out, uint64_t *addr_out)
{
	const struct rt_allocfns *fn = e->fns;
	struct rt_stream *s = e->s;
	struct rt_errsave saved;
	struct rt_alloc *a = NULL;
	uint64_t va;
	void *block, *addr;
	aclError err = ACL_SUCCESS;
	uint32_t i;

	rt_err_save(&saved);
	block = fn->alloc(fn->obj, (size_t)size);
	rt_err_restore(&saved);
	if (!block)
		return rt_err(ACL_ERROR_BAD_ALLOC,
			      "the allocator registered for stream %p returned no block for %" PRIu64 " bytes (%s %u); "
			      "nothing was queued", (void *)s, size, what, which);
	addr = fn->get_addr(block);
	rt_err_restore(&saved);
	va = (uint64_t)(uintptr_t)addr;
	if (!addr)
		err = rt_err(ACL_ERROR_INVALID_PARAM, "getAddrFromBlock of the allocator registered for stream %p "
			     "returned NULL for block %p (%s %u)", (void *)s, block, what, which);
	else if (align > 1 && va % align)
		err = rt_err(ACL_ERROR_MEMORY_ADDRESS_UNALIGNED, "the allocator's block at %p for %s %u is not %u-byte "
			     "aligned", addr, what, which, align);
	for (i = 0; !err && i < e->ncaller + e->nlive; i++)
		if (va < e->live[i].addr + e->live[i].size && e->live[i].addr < va + size)
			err = rt_err(ACL_ERROR_INVALID_PARAM, "the allocator's block [%p, +%" PRIu64 ") for %s %u "
				     "overlaps %s still in use", addr, size, what, which,
				     i < e->ncaller ? "one of the caller's buffers" : "another block");
	if (!err && !rt_pool_is_bound(s, va, size)) {
		err = rt_device_range(s->dev, addr, size, "an address from the registered allocator", &a);
		if (!err)
			err = rt_pool_bind(s, a);
		rt_alloc_put(a);
	}
	if (err) {
		rt_err_save(&saved);
		free_block(e, block);
		rt_err_restore(&saved);
		return err;
	}
	e->live[e->ncaller + e->nlive] = (struct span){ va, size };
	e->live_block[e->nlive++] = block;
	*block_out = block;
	*addr_out = va;
	return ACL_SUCCESS;
}

/* Give back everything still held after a failure. */
static void free_all_blocks(struct exec *e)
{
	struct rt_errsave saved;
	uint32_t i;

	rt_err_save(&saved);
	for (i = 0; i < e->nlive; i++)
		e->fns->free(e->fns->obj, e->live_block[i]);
	e->nlive = 0;
	rt_err_restore(&saved);
}

static aclError walk_allocator(struct exec *e)
{
	const struct rt_mplan *p = e->p;
	aclError err;
	uint32_t n, i;

	for (n = 0; n < p->nnodes; n++) {
		const struct rt_mnode *node = &p->nodes[n];
		void *ws_block = NULL;

		for (i = 0; i < (uint32_t)node->nout; i++) {
			uint32_t v = node->out[i];
			const struct rt_mvalue *mv = &p->values[v];

			if (mv->loc == RT_MLOC_ARENA)
				err = take_block(e, mv->size, mv->need_align, "value", v, &e->val_block[v],
						 &e->val_addr[v]);
			else if (mv->loc == RT_MLOC_OUTPUT && e->out_new[mv->index])
				err = take_block(e, mv->size, mv->need_align, "output", mv->index,
						 &e->out_block[mv->index], &e->out_addr[mv->index]);
			else
				continue;
			if (err)
				return err;
		}
		if (node->ws_bytes) {
			err = take_block(e, node->ws_bytes, node->ws_align > RT_MODEL_ALIGN ? node->ws_align : 1,
					 "the workspace of node", n, &ws_block, &e->ws_addr[n]);
			if (err)
				return err;
			live_remove(e, ws_block);
			free_block(e, ws_block);
		}
		for (i = 0; i < node->nfree; i++) {
			void *b = e->val_block[node->frees[i]];

			live_remove(e, b);
			free_block(e, b);
		}
	}
	for (i = 0; i < p->ncopies; i++) {
		uint32_t k = p->copies[i].output;

		if (e->out_new[k] && !e->out_block[k]) {
			err = take_block(e, p->values[p->copies[i].value].size, 1, "output", k, &e->out_block[k],
					 &e->out_addr[k]);
			if (err)
				return err;
		}
	}
	return ACL_SUCCESS;
}

/* ---- memory of the runtime ---------------------------------------------------------- */

static aclError runtime_memory(struct exec *e)
{
	const struct om_model *om = e->m->om;
	aclError err;
	uint32_t k;

	for (k = 0; k < om->noutputs; k++) {
		if (!e->out_new[k])
			continue;
		err = rt_malloc(e->s->dev, (size_t)e->p->values[om->outputs[k]].size, 0, false, &e->out_mem[k]);
		if (err)
			return err;
		e->out_addr[k] = (uint64_t)(uintptr_t)e->out_mem[k];
	}
	if (!e->p->arena_bytes)
		return ACL_SUCCESS;
	if (e->p == e->m->static_plan && e->m->work) {
		e->base = (uint64_t)(uintptr_t)e->m->work;
		return ACL_SUCCESS;
	}
	err = rt_pool_ws_take(e->s, e->p->arena_bytes, &e->ws);
	if (!err)
		e->base = e->ws->va;
	return err;
}

/* ---- the job ------------------------------------------------------------------------- */

static uint32_t node_task(const struct exec *e, uint32_t n, uint32_t off, struct drm_vnpu_task *t,
			  unsigned char *data)
{
	const struct rt_mnode *node = &e->p->nodes[n];
	struct drm_vnpu_operand *ops;
	uint32_t opoff = off + (uint32_t)round8(node->desc_size), k = 0;
	int i;

	memcpy(data + off, node->desc, node->desc_size);
	memset(data + off + node->desc_size, 0, opoff - off - node->desc_size);
	ops = (struct drm_vnpu_operand *)(void *)(data + opoff);
	/* An operand of no bytes travels as the one byte at its address
	 * (rt_op_task()). */
	for (i = 0; i < node->nin; i++)
		ops[k++] = (struct drm_vnpu_operand){ .va = value_addr(e, node->in[i]),
						      .size = node->in_bytes[i] ? node->in_bytes[i] : 1,
						      .access = VNPU_OPERAND_READ };
	for (i = 0; i < node->nout; i++)
		ops[k++] = (struct drm_vnpu_operand){ .va = value_addr(e, node->out[i]),
						      .size = e->p->values[node->out[i]].size,
						      .access = VNPU_OPERAND_WRITE };
	if (node->ws_bytes)
		ops[k++] = (struct drm_vnpu_operand){ .va = e->ws_addr ? e->ws_addr[n] : e->base + node->ws_offset,
						      .size = node->ws_bytes, .access = VNPU_OPERAND_WORKSPACE };
	memset(t, 0, sizeof(*t));
	t->kind = VNPU_TASK_OP;
	t->op.desc_offset = off;
	t->op.desc_size = node->desc_size;
	t->op.operand_offset = opoff;
	t->op.operand_count = k;
	return opoff + k * (uint32_t)sizeof(*ops);
}

/* Better words for the submit's errors that concern the model's memory
 * (rt_opexec.c says the same of one operator's workspace). */
static aclError submit_error(const struct exec *e, int kerr, aclError err)
{
	switch (kerr) {
	case -EBUSY:
		return rt_err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL,
			      "model %u on stream %p: a workspace is still in use by another stream's unfinished work "
			      "(a workspace hazard; the hazard policy is strict). One allocator must not serve streams "
			      "that run concurrently: synchronize the other stream first", e->m->id, (void *)e->s);
	case -EACCES:
		return rt_err(ACL_ERROR_RT_NO_PERMISSION, "model %u on stream %p: a workspace is not in the stream's "
			      "bound pool (was the allocator's memory freed meanwhile?)", e->m->id, (void *)e->s);
	case -ENXIO:
		return rt_err(ACL_ERROR_INVALID_PARAM, "model %u on stream %p: a buffer%s is not live device memory "
			      "(freed meanwhile?)", e->m->id, (void *)e->s, e->fns ? " or an allocator block" : "");
	default:
		return err;
	}
}

static aclError submit_job(struct exec *e, int pool, uint64_t *point)
{
	const struct rt_mplan *p = e->p;
	struct drm_vnpu_task *tasks;
	unsigned char *data;
	struct drm_vnpu_sync in;
	uint32_t nin = 0, t = 0, t0 = 0, n;
	uint64_t pos = 0, pos0 = 0, nops = 0;
	aclError err = ACL_SUCCESS;
	int kerr;

	*point = 0;
	if (!p->ntasks)
		return ACL_SUCCESS;
	tasks = malloc(p->ntasks * sizeof(*tasks));
	data = malloc(p->data_bytes ? p->data_bytes : 8);
	if (!tasks || !data) {
		free(tasks);
		free(data);
		return rt_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
	}
	pthread_mutex_lock(&e->m->lock);
	/* Another stream's unfinished execution of this model goes first. */
	if (e->m->last_stream && e->m->last_stream != e->s && e->m->last_point) {
		in = (struct drm_vnpu_sync){ .handle = e->m->last_stream->syncobj, .point = e->m->last_point };
		nin = 1;
	}
	for (n = 0; n <= p->nnodes + p->ncopies && !err; n++) {
		bool last = n == p->nnodes + p->ncopies;
		uint64_t need_ops = 0, need_data = 0;
		bool is_node = n < p->nnodes;

		if (!last) {
			if (is_node && p->nodes[n].empty)
				continue;
			if (!is_node && !p->values[p->copies[n - p->nnodes].value].bytes)
				continue;
			if (is_node) {
				const struct rt_mnode *node = &p->nodes[n];

				need_ops = (uint64_t)node->nin + (uint64_t)node->nout + (node->ws_bytes ? 1 : 0);
				need_data = round8(node->desc_size) + need_ops * sizeof(struct drm_vnpu_operand);
			}
		}
		/* This submit is full (or everything is in): queue it. */
		if (t > t0 && (last || t - t0 + 1 > VNPU_MAX_TASKS_PER_SUBMIT ||
			       pos - pos0 + need_data > VNPU_MAX_SUBMIT_DATA ||
			       nops + need_ops > VNPU_MAX_SUBMIT_OPERANDS)) {
			err = rt_stream_submit_ops(e->s, tasks + t0, t - t0, data + pos0, (uint32_t)(pos - pos0),
						   nin ? &in : NULL, nin, pool, point, &kerr);
			if (err && kerr)
				err = submit_error(e, kerr, err);
			nin = 0;
			t0 = t;
			pos0 = pos;
			nops = 0;
		}
		if (last || err)
			break;
		if (is_node) {
			pos = pos0 + node_task(e, n, (uint32_t)(pos - pos0), &tasks[t], data + pos0);
			nops += need_ops;
		} else {
			const struct rt_mcopy *c = &p->copies[n - p->nnodes];
			const struct rt_mvalue *v = &p->values[c->value];

			memset(&tasks[t], 0, sizeof(tasks[t]));
			tasks[t].kind = VNPU_TASK_COPY;
			tasks[t].copy.dst = e->out_addr[c->output];
			tasks[t].copy.src = v->loc == RT_MLOC_OUTPUT ? e->out_addr[c->from_output] : value_addr(e, c->value);
			tasks[t].copy.size = v->bytes;
		}
		t++;
	}
	if (!err && *point) {
		if (e->m->last_stream != e->s) {
			rt_stream_put(e->m->last_stream);
			rt_obj_get(&e->s->obj);
			e->m->last_stream = e->s;
		}
		e->m->last_point = *point;
	}
	pthread_mutex_unlock(&e->m->lock);
	free(tasks);
	free(data);
	return err;
}

/* ---- results -------------------------------------------------------------------------- */

static aclError set_output_desc(aclmdlDataset *d, uint32_t k, const struct rt_mvalue *v, int32_t format)
{
	aclTensorDesc *t = d->descs[k];

	if (!t) {
		t = calloc(1, sizeof(*t));
		if (!t)
			return rt_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
		t->magic = RT_TENSOR_MAGIC;
		t->dims = t->inline_dims;
		d->descs[k] = t;
	}
	t->dtype = (aclDataType)v->dtype;
	t->format = (aclFormat)format;
	return rt_tensor_set_shape(t, v->ndim, v->dims);
}

static aclError finish_outputs(struct exec *e)
{
	const struct om_model *om = e->m->om;
	aclError err = ACL_SUCCESS, e2;
	uint32_t k;

	for (k = 0; k < om->noutputs; k++) {
		const struct rt_mvalue *v = &e->p->values[om->outputs[k]];
		aclDataBuffer *b = e->out->bufs[k];

		if (e->out_new[k]) {
			if (e->fns) {
				e2 = rt_model_own_block(e->m, b, e->fns, e->out_block[k]);
				if (e2) {
					free_block(e, e->out_block[k]);
					err = err ? err : e2;
				}
			} else {
				rt_buffer_disown(b);
			}
			b->data = (void *)(uintptr_t)e->out_addr[k];
			b->size = (size_t)v->bytes;
		}
		e2 = set_output_desc(e->out, k, v, om->values[om->outputs[k]].format);
		err = err ? err : e2;
	}
	pthread_mutex_lock(&e->m->lock);
	for (k = 0; k < om->noutputs; k++) {
		const struct rt_mvalue *v = &e->p->values[om->outputs[k]];

		memcpy(e->m->cur_dims + (size_t)k * VOPS_MAX_RANK, v->dims, (size_t)v->ndim * sizeof(int64_t));
	}
	e->m->has_cur = true;
	pthread_mutex_unlock(&e->m->lock);
	return err;
}

aclError rt_model_plan_for(struct rt_model *m, const aclmdlDataset *input, struct rt_mplan **out)
{
	const struct om_model *om = m->om;
	const int64_t *gear = NULL;
	struct rt_mplan *p;
	uint32_t len;
	int64_t *key;
	aclError err;

	if (m->static_plan) {
		rt_mplan_get(m->static_plan);
		*out = m->static_plan;
		return ACL_SUCCESS;
	}
	if (om->dynamic != OM_DYNAMIC_NONE)
		gear = input->gear >= 0 && (uint32_t)input->gear < om->ngears ?
			       om->gears + (size_t)input->gear * om->gear_len : rt_model_largest_gear(om);
	err = rt_model_input_dims(om, input->descs, input->n, gear, &key, &len);
	if (err)
		return err;
	pthread_mutex_lock(&m->lock);
	p = rt_mplan_cache_find(&m->cache, key, len);
	if (!p) {
		err = rt_mplan_build(om, key, len, &p);
		if (!err)
			rt_mplan_cache_add(&m->cache, p);
	}
	if (!err) {
		rt_mplan_get(p);
		*out = p;
	}
	pthread_mutex_unlock(&m->lock);
	free(key);
	return err;
}

aclError rt_model_execute(struct rt_model *m, const aclmdlDataset *input, aclmdlDataset *output, const void *stream,
			  bool sync, int32_t timeout_ms)
{
	const struct om_model *om = m->om;
	const struct rt_allocrec *rec = NULL;
	struct rt_context *ctx = NULL;
	struct exec e = { .m = m, .in = input, .out = output };
	uint64_t point = 0;
	aclError err;
	int pool;
	uint32_t k;

	err = check_dataset(input, "input", om->ninputs);
	if (!err)
		err = check_dataset(output, "output", om->noutputs);
	if (err)
		return err;
	err = rt_context_require(&ctx);
	if (err)
		return err;
	err = rt_stream_resolve(ctx, stream, &e.s);
	if (err) {
		rt_context_put(ctx);
		return err;
	}
	if (e.s->dev != m->dev) {
		err = rt_err(ACL_ERROR_INVALID_PARAM, "model %u was loaded on device %u; the stream is of device %u",
			     m->id, m->dev->index, e.s->dev->index);
		goto out;
	}
	/* The arena's lifetime is the execution's, not a graph's. */
	err = rt_ri_forbid(e.s, "a model execution");
	if (err)
		goto out;
	err = rt_model_plan_for(m, input, &e.p);
	if (err)
		goto out;
	e.in_addr = calloc(om->ninputs + 1, sizeof(uint64_t));
	e.out_addr = calloc(om->noutputs + 1, sizeof(uint64_t));
	e.out_new = calloc(om->noutputs + 1, sizeof(bool));
	e.out_mem = calloc(om->noutputs + 1, sizeof(void *));
	e.out_block = calloc(om->noutputs + 1, sizeof(void *));
	e.live = calloc(2 * 64 + (size_t)e.p->nvalues + 2, sizeof(*e.live));
	e.live_block = calloc((size_t)e.p->nvalues + 2, sizeof(void *));
	if (!e.in_addr || !e.out_addr || !e.out_new || !e.out_mem || !e.out_block || !e.live || !e.live_block) {
		err = rt_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
		goto out;
	}
	err = bind_buffers(&e);
	if (err)
		goto out;

	if (!sync)
		rec = rt_allocslot_enter(&e.s->alloc_slot);
	if (rec) {
		e.fns = &rec->fns;
		e.val_addr = calloc(e.p->nvalues + 1, sizeof(uint64_t));
		e.val_block = calloc(e.p->nvalues + 1, sizeof(void *));
		e.ws_addr = calloc(e.p->nnodes + 1, sizeof(uint64_t));
		if (!e.val_addr || !e.val_block || !e.ws_addr)
			err = rt_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
		if (!err)
			err = walk_allocator(&e);
		pool = 1;
	} else {
		err = runtime_memory(&e);
		pool = 0;
	}
	if (!err)
		err = submit_job(&e, pool, &point);
	if (err && e.fns)
		free_all_blocks(&e);	/* the outputs' blocks too: nothing was queued */
	if (e.ws)
		rt_pool_ws_give(e.s, e.ws, err || !point ? atomic_load(&e.s->last_point) : point);
	if (!err)
		err = finish_outputs(&e);
	else
		for (k = 0; k < om->noutputs; k++)
			if (e.out_mem[k])
				(void)rt_free(e.s->dev, e.out_mem[k], false);
	if (rec)
		rt_allocslot_leave(&e.s->alloc_slot);
	if (!err && sync && point)
		err = rt_stream_wait_point(e.s, point, rt_deadline(timeout_ms));
out:
	rt_mplan_put(e.p);
	free(e.in_addr);
	free(e.out_addr);
	free(e.out_new);
	free(e.out_mem);
	free(e.out_block);
	free(e.live);
	free(e.live_block);
	free(e.val_addr);
	free(e.val_block);
	free(e.ws_addr);
	rt_stream_put(e.s);
	rt_context_put(ctx);
	return err;
}
