// SPDX-License-Identifier: MIT
/*
 * rt_bind.c - memory bound to streams as operator workspace pools.
 *
 * Memory a registered allocator hands out must be bound to the stream's
 * kernel stream (POOL_BIND) before an operator may use it as workspace.
 * The runtime binds the whole allocation containing the block, once, and
 * remembers it in the stream's pool_bound map, so an allocator that reuses
 * its pool costs no ioctl after the first use of each pool buffer.
 * aclrtFree unbinds the allocation from every stream that has it
 * (POOL_UNBIND; jobs already queued keep the memory until they end); a
 * stream's bindings go with its kernel stream.
 */
#include <errno.h>
#include <stdlib.h>

#include "rt.h"

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
	struct rt_stream_walk walk;
	struct rt_stream *s;

	atomic_store(&a->freed, true);
	if (!atomic_load(&a->bound))
		return;

	rt_stream_walk_begin(&walk, a->dev);
	while ((s = rt_stream_walk_next(&walk))) {
		bool had;

		pthread_mutex_lock(&s->pool_lock);
		had = rt_imap_remove(&s->pool_bound, a->va) != NULL;
		if (had && s->id)
			drv_pool_unbind(a->dev->fd, s->id, a->va, a->bo_size);
		pthread_mutex_unlock(&s->pool_lock);
		if (had) {
			atomic_fetch_sub(&a->bound, 1);
			rt_alloc_put(a);	/* the caller still holds one */
		}
		rt_stream_put(s);
	}
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
