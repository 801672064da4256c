// SPDX-License-Identifier: MIT
/*
 * rt_context.c - contexts and the calling thread's current context.
 *
 * Every context has a default stream. A device's default context (created
 * by the first aclrtSetDevice) is shared by all threads that set the device.
 * The current context is remembered per thread by address and serial
 * number, and revalidated through the handle registry on every use, so a
 * context destroyed by another thread (or by a device reset) simply stops
 * being current.
 */
#include <stdlib.h>

#include "rt.h"

static _Thread_local struct {
	const struct rt_context *ctx;
	uint64_t serial;
} current;

static void context_release(struct rt_obj *obj)
{
	struct rt_context *ctx = rt_container_of(obj, struct rt_context, obj);

	if (ctx->default_stream)
		rt_stream_put(ctx->default_stream);
	rt_dev_put(ctx->dev);
	free(ctx);
}

void rt_context_put(struct rt_context *ctx)
{
	if (ctx)
		rt_obj_put(&ctx->obj);
}

struct rt_context *rt_context_lookup(const void *handle)
{
	struct rt_obj *obj = rt_handle_lookup(handle, RT_OBJ_CONTEXT);

	return obj ? rt_container_of(obj, struct rt_context, obj) : NULL;
}

aclError rt_context_create(struct rt_dev *dev, bool is_default, struct rt_context **out)
{
	struct rt_context *ctx;
	struct rt_stream *s;
	aclError ret;

	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory");
	rt_obj_init(&ctx->obj, RT_OBJ_CONTEXT, context_release);
	rt_dev_get(dev);
	ctx->dev = dev;
	ctx->is_default = is_default;
	rt_list_init(&ctx->dev_link);

	pthread_mutex_lock(&dev->lock);
	if (dev->dead) {
		pthread_mutex_unlock(&dev->lock);
		rt_context_put(ctx);
		return rt_err(ACL_ERROR_RT_CONTEXT_RELEASE_ERROR, "device %u is being reset", dev->index);
	}
	rt_list_add_tail(&dev->contexts, &ctx->dev_link);
	pthread_mutex_unlock(&dev->lock);
	if (rt_handle_add(&ctx->obj)) {
		pthread_mutex_lock(&dev->lock);
		rt_list_del(&ctx->dev_link);
		pthread_mutex_unlock(&dev->lock);
		rt_context_put(ctx);
		return rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory");
	}

	ret = rt_stream_create(dev, ctx, 0, 0, true, &s);
	if (ret) {
		rt_context_destroy(ctx);
		rt_context_put(ctx);
		return ret;
	}
	ctx->default_stream = s;
	*out = ctx;
	return ACL_SUCCESS;
}

void rt_context_destroy(struct rt_context *ctx)
{
	struct rt_dev *dev = ctx->dev;

	if (!rt_handle_remove(&ctx->obj))
		return;
	pthread_mutex_lock(&dev->lock);
	rt_list_del(&ctx->dev_link);
	pthread_mutex_unlock(&dev->lock);

	/* Its streams (the default one included), then its events. */
	for (;;) {
		struct rt_stream *s = NULL;
		struct rt_list *pos;

		pthread_mutex_lock(&dev->lock);
		rt_list_for_each(pos, &dev->streams) {
			struct rt_stream *cand = rt_container_of(pos, struct rt_stream, dev_link);

			if (cand->ctx == ctx) {
				s = cand;
				rt_list_del(&s->dev_link);
				rt_obj_get(&s->obj);
				break;
			}
		}
		pthread_mutex_unlock(&dev->lock);
		if (!s)
			break;
		rt_stream_destroy(s, false);
		rt_stream_put(s);
	}
	for (;;) {
		struct rt_event *ev = NULL;
		struct rt_list *pos;

		pthread_mutex_lock(&dev->lock);
		rt_list_for_each(pos, &dev->events) {
			struct rt_event *cand = rt_container_of(pos, struct rt_event, dev_link);

			if (cand->ctx == ctx) {
				ev = cand;
				rt_list_del(&ev->dev_link);
				rt_obj_get(&ev->obj);
				break;
			}
		}
		pthread_mutex_unlock(&dev->lock);
		if (!ev)
			break;
		rt_event_destroy(ev);
		rt_event_put(ev);
	}
	if (current.ctx == ctx)
		current.ctx = NULL;
}

struct rt_context *rt_context_current(void)
{
	struct rt_context *ctx;

	if (!current.ctx)
		return NULL;
	ctx = rt_context_lookup(current.ctx);
	if (ctx && ctx->obj.serial != current.serial) {
		rt_context_put(ctx);
		ctx = NULL;
	}
	if (!ctx)
		current.ctx = NULL;
	return ctx;
}

aclError rt_context_require(struct rt_context **out)
{
	*out = rt_context_current();
	if (!*out)
		return rt_err(ACL_ERROR_RT_CONTEXT_NULL,
			      "the calling thread has no current context (call aclrtSetDevice or "
			      "aclrtSetCurrentContext first)");
	return ACL_SUCCESS;
}

void rt_context_set_current(struct rt_context *ctx)
{
	current.ctx = ctx;
	current.serial = ctx ? ctx->obj.serial : 0;
}
