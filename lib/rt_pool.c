// SPDX-License-Identifier: MIT
/*
 * rt_pool.c - memory for operator workspace, per stream:
 *
 *  - Bound pools. Memory a registered allocator hands out must be bound to
 *    the stream's kernel stream (POOL_BIND) before an operator may use it
 *    as workspace. The runtime binds the whole allocation containing the
 *    block, once, and remembers it in the stream's pool_bound map, so an
 *    allocator that reuses its pool costs no ioctl after the first use of
 *    each pool buffer. aclrtFree unbinds the allocation from every stream
 *    that has it (POOL_UNBIND; jobs already queued keep the memory until
 *    they end); a stream's bindings go with its kernel stream.
 *
 *  - The runtime's workspace pool, for streams without an allocator:
 *    runtime-owned buffers kept per stream and per device (rt_wspool.h has
 *    the reuse rules). They are never bound: the stream then does not
 *    require pool workspace.
 */
#include <errno.h>
#include <stdlib.h>

#include "rt.h"

/* ---- bound pools ------------------------------------------------------------ */

bool rt_pool_is_bound(struct rt_stream *s, uint64_t va, uint64_t size)
{
	const struct rt_imap_node *node;
	bool ok = false;

	pthread_mutex_lock(&s->pool_lock);
	node = rt_imap_find(&s->pool_bound, va);
	if (node) {
		const struct rt_alloc *a = node->value;

		/* Entries are whole allocations, removed before they are
		 * freed: inside one, the range is live device memory. */
		ok = va - a->addr <= a->size && size <= a->size - (va - a->addr);
	}
	pthread_mutex_unlock(&s->pool_lock);
	return ok;
}

aclError rt_pool_bind(struct rt_stream *s, struct rt_alloc *a)
{
	struct rt_dev *dev = s->dev;
	aclError err = ACL_SUCCESS;
	uint32_t id;
	int ret;

	if (!atomic_load(&s->id)) {
		err = rt_stream_kernel_id(s, &id);
		if (err)
			return err;
	}
	pthread_mutex_lock(&s->pool_lock);
	if (rt_imap_covers(&s->pool_bound, a->va, a->bo_size))
		goto out;
	id = s->id;
	if (!id) {
		err = rt_err(ACL_ERROR_INVALID_PARAM, "stream %p has been destroyed", (void *)s);
		goto out;
	}
	/*
	 * Count the binding before looking at "freed", as rt_pool_alloc_freed()
	 * sets "freed" before looking at the count (both sequentially
	 * consistent): either it sees this binding and removes it, or this
	 * thread sees the memory freed and does not bind.
	 */
	atomic_fetch_add(&a->bound, 1);
	if (atomic_load(&a->freed)) {
		err = rt_err(ACL_ERROR_INVALID_PARAM, "the memory at 0x%llx has been freed",
			     (unsigned long long)a->va);
		goto undo;
	}
	ret = drv_pool_bind(dev->fd, id, a->va, a->bo_size);
	if (ret == -ENOSPC) {
		err = rt_err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL,
			     "stream %p has the most separate pool buffers bound (%d); an allocator should pool "
			     "fewer, larger buffers", (void *)s, VNPU_MAX_POOL_RANGES);
		goto undo;
	}
	if (ret) {
		err = rt_err_errno(ret, "cannot bind the memory at 0x%llx (%llu bytes) to stream %p",
				   (unsigned long long)a->va, (unsigned long long)a->bo_size, (void *)s);
		goto undo;
	}
	ret = rt_imap_insert(&s->pool_bound, a->va, a->bo_size, a);
	if (ret) {
		drv_pool_unbind(dev->fd, id, a->va, a->bo_size);
		err = rt_err_errno(ret, "cannot record the memory bound to stream %p", (void *)s);
		goto undo;
	}
	rt_alloc_get(a);
	goto out;
undo:
	atomic_fetch_sub(&a->bound, 1);
out:
	pthread_mutex_unlock(&s->pool_lock);
	return err;
}

void rt_pool_alloc_freed(struct rt_alloc *a)
{
	struct rt_dev *dev = a->dev;
	struct rt_stream **list = NULL;
	size_t n = 0, cap = 0, i;
	struct rt_list *pos;

	atomic_store(&a->freed, true);
	if (!atomic_load(&a->bound))
		return;

	pthread_mutex_lock(&dev->lock);
	rt_list_for_each(pos, &dev->streams) {
		if (n == cap) {
			struct rt_stream **bigger;

			cap = cap ? 2 * cap : 16;
			bigger = realloc(list, cap * sizeof(*list));
			if (!bigger)
				break;	/* the rest keep the memory until they go */
			list = bigger;
		}
		list[n] = rt_container_of(pos, struct rt_stream, dev_link);
		rt_obj_get(&list[n]->obj);
		n++;
	}
	pthread_mutex_unlock(&dev->lock);

	for (i = 0; i < n; i++) {
		struct rt_stream *s = list[i];
		bool had;

		pthread_mutex_lock(&s->pool_lock);
		had = rt_imap_remove(&s->pool_bound, a->va) != NULL;
		if (had && s->id)
			drv_pool_unbind(dev->fd, s->id, a->va, a->bo_size);
		pthread_mutex_unlock(&s->pool_lock);
		if (had) {
			atomic_fetch_sub(&a->bound, 1);
			rt_alloc_put(a);	/* the caller still holds one */
		}
		rt_stream_put(s);
	}
	free(list);
}

static void unbound_one(const struct rt_imap_node *node, void *arg)
{
	struct rt_alloc *a = node->value;

	(void)arg;
	atomic_fetch_sub(&a->bound, 1);
	rt_alloc_put(a);
}

void rt_pool_stream_unbound(struct rt_stream *s)
{
	rt_imap_for_each(&s->pool_bound, unbound_one, NULL);
	rt_imap_clear(&s->pool_bound);
}

/* ---- the runtime's workspace pool ------------------------------------------- */

static void block_free(struct rt_dev *dev, struct rt_wsblock *b)
{
	/* A job still using the buffer keeps it alive in the kernel. */
	drv_bo_close(dev->fd, b->handle);
	free(b);
}

/* Free a chain of blocks taken from the device's idle list. */
static void free_idle_chain(struct rt_dev *dev, struct rt_wsblock *b)
{
	while (b) {
		struct rt_wsblock *next = b->next;
		struct rt_stream *owner = b->owner;

		block_free(dev, b);
		rt_stream_put(owner);
		b = next;
	}
}

static bool block_done(const struct rt_wsblock *b, void *arg)
{
	(void)arg;
	return rt_stream_point_done(b->owner, b->point);
}

/* Hand a chain of @s's blocks to the device's idle list. */
static void to_idle(struct rt_dev *dev, struct rt_stream *s, struct rt_wsblock *b)
{
	struct rt_wsblock *extra;

	pthread_mutex_lock(&dev->ws_lock);
	while (b) {
		struct rt_wsblock *next = b->next;

		rt_obj_get(&s->obj);
		b->owner = s;
		rt_wslist_put(&dev->ws_idle, b);
		b = next;
	}
	extra = rt_wslist_trim(&dev->ws_idle, RT_WS_IDLE_BLOCKS, RT_WS_IDLE_BYTES);
	pthread_mutex_unlock(&dev->ws_lock);
	free_idle_chain(dev, extra);
}

static int create_block(struct rt_dev *dev, uint64_t size, struct rt_wsblock **out)
{
	uint64_t cls = rt_ws_size_class(size);
	struct rt_wsblock *b;
	int ret;

	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	ret = drv_bo_create(dev->fd, cls, 0, &b->handle, &b->va);
	if (ret) {
		free(b);
		return ret;
	}
	b->size = cls;
	*out = b;
	return 0;
}

aclError rt_pool_ws_take(struct rt_stream *s, uint64_t size, struct rt_wsblock **out)
{
	struct rt_dev *dev = s->dev;
	struct rt_wsblock *b;
	int ret;

	/* The stream's own blocks: reusable at once (stream order). */
	pthread_mutex_lock(&s->ws_lock);
	b = rt_wslist_take(&s->ws_cache, size, NULL, NULL);
	pthread_mutex_unlock(&s->ws_lock);
	if (b)
		goto found;

	/* Another stream's: only once its last use is done. */
	pthread_mutex_lock(&dev->ws_lock);
	b = rt_wslist_take(&dev->ws_idle, size, block_done, NULL);
	pthread_mutex_unlock(&dev->ws_lock);
	if (b) {
		rt_stream_put(b->owner);
		goto found;
	}

	ret = create_block(dev, size, &b);
	if (ret == -ENOMEM || ret == -E2BIG) {
		/* Give back what the device keeps idle, then try once more. */
		pthread_mutex_lock(&dev->ws_lock);
		b = rt_wslist_take_all(&dev->ws_idle);
		pthread_mutex_unlock(&dev->ws_lock);
		free_idle_chain(dev, b);
		ret = create_block(dev, size, &b);
	}
	if (ret == -ENOMEM || ret == -E2BIG)
		return rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION,
			      "device %u has no room for %llu bytes of operator workspace", dev->index,
			      (unsigned long long)size);
	if (ret)
		return rt_err_errno(ret, "cannot allocate operator workspace on device %u", dev->index);
found:
	b->owner = s;
	*out = b;
	return ACL_SUCCESS;
}

void rt_pool_ws_give(struct rt_stream *s, struct rt_wsblock *b, uint64_t point)
{
	struct rt_wsblock *extra;

	b->owner = s;
	b->point = point;
	pthread_mutex_lock(&s->ws_lock);
	rt_wslist_put(&s->ws_cache, b);
	extra = rt_wslist_trim(&s->ws_cache, RT_WS_STREAM_BLOCKS, RT_WS_STREAM_BYTES);
	pthread_mutex_unlock(&s->ws_lock);
	if (extra)
		to_idle(s->dev, s, extra);
}

void rt_pool_ws_stream_gone(struct rt_stream *s)
{
	struct rt_dev *dev = s->dev;
	struct rt_wsblock *all;
	bool dead;

	pthread_mutex_lock(&s->ws_lock);
	all = rt_wslist_take_all(&s->ws_cache);
	pthread_mutex_unlock(&s->ws_lock);
	if (!all)
		return;
	pthread_mutex_lock(&dev->lock);
	dead = dev->dead;
	pthread_mutex_unlock(&dev->lock);
	if (!dead) {
		to_idle(dev, s, all);
		return;
	}
	while (all) {
		struct rt_wsblock *next = all->next;

		block_free(dev, all);
		all = next;
	}
}

void rt_pool_ws_stream_release(struct rt_stream *s)
{
	struct rt_wsblock *b = rt_wslist_take_all(&s->ws_cache);

	while (b) {
		struct rt_wsblock *next = b->next;

		block_free(s->dev, b);
		b = next;
	}
}

void rt_pool_ws_device_gone(struct rt_dev *dev)
{
	struct rt_wsblock *all;

	pthread_mutex_lock(&dev->ws_lock);
	all = rt_wslist_take_all(&dev->ws_idle);
	pthread_mutex_unlock(&dev->ws_lock);
	free_idle_chain(dev, all);
}
