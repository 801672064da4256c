// SPDX-License-Identifier: MIT
/*
 * rt_pool.c - the runtime's workspace pool, for streams without a
 * registered allocator: runtime-owned device buffers kept per stream and
 * per device (rt_wspool.h has the reuse rules and the bounds). They are
 * never bound: such a stream does not require pool workspace.
 */
#include <errno.h>
#include <stdlib.h>

#include "rt.h"

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
