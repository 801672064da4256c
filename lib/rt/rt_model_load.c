// SPDX-License-Identifier: MIT
/*
 * rt_model_load.c - loaded models: parsing a .om (lib/om), the weights in
 * device memory, the static plan, the table of model ids, unloading.
 *
 * Model ids count from 1 and are never reused while the process lives, so
 * a stale id is always ACL_ERROR_INVALID_MODEL_ID. The table is the one
 * piece of process-wide state, behind its own lock; a model found through
 * it is referenced, so an unload that races an execution frees nothing the
 * execution still reads (the execution's job holds the device memory it
 * uses alive in the kernel, and unload waits for the model's last job).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"
#include "rt_model.h"
#include "rt_op.h"

struct rt_outblk {
	struct rt_bufowner owner;
	atomic_uint refs;		/* the model's list and the buffer */
	atomic_bool live;		/* the block is not yet freed */
	struct rt_allocfns fns;
	void *block;
	struct rt_outblk *next;		/* in the model's list (its lock) */
};

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rt_model **table;		/* table_lock */
static uint32_t table_len, table_cap, next_id = 1;

aclError rt_model_parse(const void *buf, size_t len, struct om_model **out)
{
	struct om_error e = { 0 };
	enum om_err r;

	r = om_read(buf, len, out, &e);
	switch (r) {
	case OM_OK:
		return ACL_SUCCESS;
	case OM_ERR_NOMEM:
		return rt_err(ACL_ERROR_BAD_ALLOC, "out of host memory reading the model");
	case OM_ERR_FOREIGN:
		return rt_err(ACL_ERROR_PARSE_MODEL, "not a model vnpu can run: %s", e.msg);
	default:
		return rt_err(ACL_ERROR_PARSE_MODEL, "the model is not a valid vnpu .om: %s", e.msg);
	}
}

aclError rt_model_read_file(const char *path, void **buf, size_t *len)
{
	struct om_error e = { 0 };
	enum om_err r = om_load_file(path, buf, len, &e);

	if (r == OM_ERR_NOMEM)
		return rt_err(ACL_ERROR_BAD_ALLOC, "out of host memory reading %s", path);
	if (r)
		return rt_err(ACL_ERROR_READ_MODEL_FAILURE, "cannot read the model file %s: %s", path, e.msg);
	return ACL_SUCCESS;
}

aclError rt_model_new(struct om_model *om, struct rt_model **out)
{
	struct rt_model *m = calloc(1, sizeof(*m));

	if (!m) {
		om_model_free(om);
		return rt_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
	}
	atomic_init(&m->refs, 1);
	m->om = om;
	pthread_mutex_init(&m->lock, NULL);
	*out = m;
	return ACL_SUCCESS;
}

void rt_model_get(struct rt_model *m)
{
	atomic_fetch_add(&m->refs, 1);
}

/* Hand an output buffer's allocator block back (once, whoever is first). */
static void outblk_free_block(struct rt_outblk *b)
{
	struct rt_errsave saved;

	if (!atomic_exchange(&b->live, false))
		return;
	rt_err_save(&saved);
	b->fns.free(b->fns.obj, b->block);
	rt_err_restore(&saved);
}

static void outblk_put(struct rt_outblk *b)
{
	if (atomic_fetch_sub(&b->refs, 1) == 1)
		free(b);
}

static void outblk_release(struct rt_bufowner *o)
{
	struct rt_outblk *b = (struct rt_outblk *)o;

	outblk_free_block(b);
	outblk_put(b);
}

aclError rt_model_own_block(struct rt_model *m, aclDataBuffer *buf, const struct rt_allocfns *fns, void *block)
{
	struct rt_outblk *b = calloc(1, sizeof(*b));

	if (!b)
		return rt_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
	b->owner.release = outblk_release;
	atomic_init(&b->refs, 2);
	atomic_init(&b->live, true);
	b->fns = *fns;
	b->block = block;
	pthread_mutex_lock(&m->lock);
	b->next = m->blocks;
	m->blocks = b;
	pthread_mutex_unlock(&m->lock);
	rt_buffer_disown(buf);
	buf->owner = &b->owner;
	return ACL_SUCCESS;
}

/* Free the allocator blocks still given to output buffers. */
static void release_blocks(struct rt_model *m)
{
	struct rt_outblk *b;

	pthread_mutex_lock(&m->lock);
	b = m->blocks;
	m->blocks = NULL;
	pthread_mutex_unlock(&m->lock);
	while (b) {
		struct rt_outblk *next = b->next;

		outblk_free_block(b);
		outblk_put(b);
		b = next;
	}
}

void rt_model_put(struct rt_model *m)
{
	if (!m || atomic_fetch_sub(&m->refs, 1) != 1)
		return;
	release_blocks(m);
	if (m->own_weights && m->weights)
		(void)rt_free(m->dev, m->weights, false);
	rt_mplan_put(m->static_plan);
	rt_mplan_cache_clear(&m->cache);
	rt_stream_put(m->last_stream);
	if (m->dev)
		rt_dev_put(m->dev);
	free(m->cur_dims);
	om_model_free(m->om);
	pthread_mutex_destroy(&m->lock);
	free(m);
}

static bool is_static(const struct om_model *om)
{
	return !om->dynamic_shape && om->dynamic == OM_DYNAMIC_NONE;
}

aclError rt_model_query_size(const struct om_model *om, size_t *work, size_t *weight)
{
	const int64_t *gear = om->dynamic != OM_DYNAMIC_NONE ? rt_model_largest_gear(om) : NULL;
	struct rt_mplan *p;
	uint32_t len;
	int64_t *key;
	aclError err;

	if (om->dynamic_shape && om->dynamic == OM_DYNAMIC_NONE)
		return rt_err(ACL_ERROR_FEATURE_UNSUPPORTED,
			      "model %s has dimensions decided at execution: its memory cannot be queried (load it "
			      "with runtime-managed memory: aclmdlLoadFromFile or aclmdlLoadFromMem)", om->name);
	err = rt_model_input_dims(om, NULL, 0, gear, &key, &len);
	if (err)
		return err;
	err = rt_mplan_build(om, key, len, &p);
	free(key);
	if (err)
		return err;
	if (work)
		*work = (size_t)p->arena_bytes;
	if (weight)
		*weight = (size_t)om->weights_size;
	rt_mplan_put(p);
	return ACL_SUCCESS;
}

/* The weights in device memory: the caller's or the runtime's. */
static aclError upload_weights(struct rt_model *m, void *weight, size_t weight_size)
{
	uint64_t size = m->om->weights_size;
	struct rt_alloc *a = NULL;
	aclError err;

	if (!size)
		return ACL_SUCCESS;
	if (weight) {
		if (weight_size < size)
			return rt_err(ACL_ERROR_INVALID_PARAM, "weightSize %zu is smaller than the model's weights (%"
				      PRIu64 " bytes, aclmdlQuerySize)", weight_size, size);
		err = rt_device_range(m->dev, weight, size, "weightPtr", &a);
		if (err)
			return err;
		rt_alloc_put(a);
		m->weights = weight;
	} else {
		err = rt_malloc(m->dev, (size_t)size, 0, false, &m->weights);
		if (err)
			return err;
		m->own_weights = true;
	}
	return rt_memcpy(m->dev, m->weights, (size_t)size, m->om->weights, (size_t)size, ACL_MEMCPY_HOST_TO_DEVICE,
			 NULL);
}

static aclError plan_static(struct rt_model *m, void *work, size_t work_size)
{
	struct rt_alloc *a = NULL;
	uint32_t len;
	int64_t *key;
	aclError err;

	if (!is_static(m->om))
		return ACL_SUCCESS;	/* planned per execution */
	err = rt_model_input_dims(m->om, NULL, 0, NULL, &key, &len);
	if (err)
		return err;
	err = rt_mplan_build(m->om, key, len, &m->static_plan);
	free(key);
	if (err || !work)
		return err;
	if (work_size < m->static_plan->arena_bytes)
		return rt_err(ACL_ERROR_INVALID_PARAM, "workSize %zu is smaller than the model's work memory (%" PRIu64
			      " bytes, aclmdlQuerySize)", work_size, m->static_plan->arena_bytes);
	if (m->static_plan->arena_bytes) {
		err = rt_device_range(m->dev, work, m->static_plan->arena_bytes, "workPtr", &a);
		if (err)
			return err;
		rt_alloc_put(a);
	}
	m->work = work;
	m->work_size = work_size;
	return ACL_SUCCESS;
}

static aclError table_add(struct rt_model *m, uint32_t *id)
{
	pthread_mutex_lock(&table_lock);
	if (table_len == table_cap) {
		uint32_t cap = table_cap ? 2 * table_cap : 16;
		struct rt_model **t = realloc(table, cap * sizeof(*t));

		if (!t) {
			pthread_mutex_unlock(&table_lock);
			return rt_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
		}
		table = t;
		table_cap = cap;
	}
	m->id = next_id++;
	table[table_len++] = m;
	*id = m->id;
	pthread_mutex_unlock(&table_lock);
	return ACL_SUCCESS;
}

aclError rt_model_load(struct om_model *om, void *work, size_t work_size, void *weight, size_t weight_size,
		       uint32_t priority, uint32_t *id)
{
	struct rt_context *ctx;
	struct rt_model *m;
	aclError err;

	err = rt_context_require(&ctx);
	if (err) {
		om_model_free(om);
		return err;
	}
	err = rt_model_new(om, &m);
	if (err) {
		rt_context_put(ctx);
		return err;
	}
	rt_dev_get(ctx->dev);
	m->dev = ctx->dev;
	rt_context_put(ctx);
	m->priority = priority;
	m->loaded = true;
	m->cur_dims = calloc(1, sizeof(int64_t) * (1 + VOPS_MAX_RANK * (size_t)om->noutputs));
	if (!m->cur_dims)
		err = rt_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
	if (!err)
		err = plan_static(m, work, work_size);
	if (!err)
		err = upload_weights(m, weight, weight_size);
	if (!err)
		err = table_add(m, id);
	if (err)
		rt_model_put(m);
	return err;
}

aclError rt_model_lookup(uint32_t id, struct rt_model **out)
{
	uint32_t i;

	pthread_mutex_lock(&table_lock);
	for (i = 0; i < table_len; i++)
		if (table[i]->id == id) {
			rt_model_get(table[i]);
			*out = table[i];
			pthread_mutex_unlock(&table_lock);
			return ACL_SUCCESS;
		}
	pthread_mutex_unlock(&table_lock);
	return rt_err(ACL_ERROR_INVALID_MODEL_ID, "model id %u is not a loaded model (never loaded, or unloaded)", id);
}

aclError rt_model_unload(uint32_t id)
{
	struct rt_model *m = NULL;
	struct rt_stream *s;
	uint64_t point;
	aclError err = ACL_SUCCESS;
	uint32_t i;

	pthread_mutex_lock(&table_lock);
	for (i = 0; i < table_len; i++)
		if (table[i]->id == id) {
			m = table[i];
			table[i] = table[--table_len];
			break;
		}
	pthread_mutex_unlock(&table_lock);
	if (!m)
		return rt_err(ACL_ERROR_INVALID_MODEL_ID, "model id %u is not a loaded model (never loaded, or unloaded)",
			      id);
	pthread_mutex_lock(&m->lock);
	m->unloaded = true;
	s = m->last_stream;
	m->last_stream = NULL;
	point = m->last_point;
	pthread_mutex_unlock(&m->lock);
	/* Its memory is freed once its last job is done. A failed job is the
	 * execution's error, not this call's. */
	if (s) {
		bool quiet = rt_err_quiet(true);

		(void)rt_stream_wait_point(s, point, RT_FOREVER);
		rt_err_quiet(quiet);
		rt_stream_put(s);
	}
	/* Even while a description still holds the model. */
	release_blocks(m);
	rt_model_put(m);
	return err;
}
