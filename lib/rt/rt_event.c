// SPDX-License-Identifier: MIT
/*
 * rt_event.c - events.
 *
 * Recording an event queues a TIMESTAMP task on the stream that writes the
 * device time into the event's own word of runtime memory; the event keeps
 * the stream and the timeline point of that job. Waiting for the event is
 * waiting for that point; another stream waits for it with a NOP job whose
 * in-fence is that point. Elapsed time and timestamps are read from the
 * words once the points have signalled.
 *
 * Behaviour follows CANN's runtime: synchronising an event that was never
 * recorded succeeds at once; its status is "not ready"; elapsed time and
 * timestamp queries fail for an event never recorded
 * (ACL_ERROR_RT_INTERNAL_ERROR, CANN's "event recorder null") and for a
 * record not yet complete (ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID).
 */
#include <stdlib.h>
#include <string.h>

#include "rt.h"
#include "rt_ri.h"

static void event_release(struct rt_obj *obj)
{
	struct rt_event *ev = rt_container_of(obj, struct rt_event, obj);
	unsigned int i;

	/*
	 * The word is reused only if no TIMESTAMP task can still write it;
	 * otherwise it stays allocated until the device is reset.
	 */
	if (ev->has_ts && (!ev->rec_stream || rt_stream_point_done(ev->rec_stream, ev->rec_point)))
		rt_slot_free(ev->dev, &ev->ts);
	if (ev->rec_stream)
		rt_stream_put(ev->rec_stream);
	for (i = 0; i < ev->nwaits; i++)
		rt_stream_put(ev->waits[i].stream);
	free(ev->waits);
	pthread_mutex_destroy(&ev->lock);
	rt_dev_put(ev->dev);
	free(ev);
}

void rt_event_put(struct rt_event *ev)
{
	if (ev)
		rt_obj_put(&ev->obj);
}

struct rt_event *rt_event_lookup(const void *handle)
{
	struct rt_obj *obj = rt_handle_lookup(handle, RT_OBJ_EVENT);

	return obj ? rt_container_of(obj, struct rt_event, obj) : NULL;
}

aclError rt_event_create(struct rt_context *ctx, uint32_t flags, struct rt_event **out)
{
	struct rt_dev *dev = ctx->dev;
	struct rt_event *ev;
	aclError ret;

	ev = calloc(1, sizeof(*ev));
	if (!ev)
		return rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory");
	rt_obj_init(&ev->obj, RT_OBJ_EVENT, event_release);
	rt_dev_get(dev);
	ev->dev = dev;
	ev->ctx = ctx;
	ev->flags = flags;
	rt_list_init(&ev->dev_link);
	pthread_mutex_init(&ev->lock, NULL);

	ret = rt_slot_alloc(dev, &ev->ts);
	if (ret) {
		rt_event_put(ev);
		return ret;
	}
	ev->has_ts = true;

	pthread_mutex_lock(&dev->lock);
	if (dev->dead) {
		pthread_mutex_unlock(&dev->lock);
		rt_event_put(ev);
		return rt_err(ACL_ERROR_RT_CONTEXT_RELEASE_ERROR, "device %u is being reset", dev->index);
	}
	rt_list_add_tail(&dev->events, &ev->dev_link);
	pthread_mutex_unlock(&dev->lock);
	if (rt_handle_add(&ev->obj)) {
		pthread_mutex_lock(&dev->lock);
		rt_list_del(&ev->dev_link);
		pthread_mutex_unlock(&dev->lock);
		rt_event_put(ev);
		return rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory");
	}
	*out = ev;
	return ACL_SUCCESS;
}

void rt_event_destroy(struct rt_event *ev)
{
	if (!rt_handle_remove(&ev->obj))
		return;
	pthread_mutex_lock(&ev->dev->lock);
	rt_list_del(&ev->dev_link);
	pthread_mutex_unlock(&ev->dev->lock);
}

aclError rt_event_record(struct rt_event *ev, struct rt_stream *s)
{
	struct drm_vnpu_task task;
	struct rt_stream *old;
	uint64_t point;
	bool captured;
	aclError ret;

	/* Into a capture: the graph's replays record it (rt_ri.c). */
	ret = rt_ri_event_record(s, ev, &captured);
	if (ret || captured)
		return ret;
	memset(&task, 0, sizeof(task));
	task.kind = VNPU_TASK_TIMESTAMP;
	task.timestamp.addr = ev->ts.va;
	ret = rt_stream_submit(s, &task, 1, NULL, 0, &point);
	if (ret)
		return ret;

	rt_obj_get(&s->obj);
	pthread_mutex_lock(&ev->lock);
	old = ev->rec_stream;
	ev->rec_stream = s;
	ev->rec_point = point;
	ev->recorded = true;
	pthread_mutex_unlock(&ev->lock);
	rt_stream_put(old);
	return ACL_SUCCESS;
}

aclError rt_event_reset(struct rt_event *ev, struct rt_stream *s)
{
	(void)s;
	pthread_mutex_lock(&ev->lock);
	ev->recorded = false;
	pthread_mutex_unlock(&ev->lock);
	return ACL_SUCCESS;
}

/* The stream and point of the event's record (stream referenced), or false
 * if it is not recorded. */
static bool event_record_of(struct rt_event *ev, struct rt_stream **s, uint64_t *point)
{
	bool recorded;

	pthread_mutex_lock(&ev->lock);
	recorded = ev->recorded;
	if (recorded) {
		*s = ev->rec_stream;
		*point = ev->rec_point;
		rt_obj_get(&(*s)->obj);
	}
	pthread_mutex_unlock(&ev->lock);
	return recorded;
}

aclError rt_event_synchronize(struct rt_event *ev, int64_t deadline)
{
	struct rt_stream *s;
	uint64_t point;
	aclError ret;

	if (!event_record_of(ev, &s, &point))
		return ACL_SUCCESS;
	ret = rt_stream_wait_point(s, point, deadline);
	if (ret == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT)
		ret = rt_err(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, "event %p did not complete in time", (void *)ev);
	rt_stream_put(s);
	return ret;
}

aclError rt_event_query(struct rt_event *ev, bool *complete)
{
	struct rt_stream *s;
	uint64_t point;

	*complete = false;
	if (!event_record_of(ev, &s, &point))
		return ACL_SUCCESS;
	*complete = rt_stream_point_done(s, point);
	rt_stream_put(s);
	return ACL_SUCCESS;
}

/* Forget the waits that have completed. ev->lock held. */
static void prune_waits(struct rt_event *ev)
{
	unsigned int i = 0;

	while (i < ev->nwaits) {
		struct rt_event_wait *w = &ev->waits[i];

		if (rt_stream_point_done(w->stream, w->point)) {
			rt_stream_put(w->stream);
			*w = ev->waits[--ev->nwaits];
		} else {
			i++;
		}
	}
}

aclError rt_event_query_wait(struct rt_event *ev, bool *complete)
{
	pthread_mutex_lock(&ev->lock);
	prune_waits(ev);
	*complete = ev->nwaits == 0;
	pthread_mutex_unlock(&ev->lock);
	return ACL_SUCCESS;
}

aclError rt_stream_wait_event(struct rt_stream *s, struct rt_event *ev)
{
	struct drm_vnpu_sync in;
	struct drm_vnpu_task task;
	struct rt_stream *rs;
	uint64_t point, waited;
	bool captured;
	aclError ret;

	if (ev->dev != s->dev)
		return rt_err(ACL_ERROR_INVALID_PARAM, "event %p belongs to device %u, stream %p to device %u",
			      (void *)ev, ev->dev->index, (void *)s, s->dev->index);
	/* Inside a capture, or joining one (rt_ri.c). */
	ret = rt_ri_event_wait(s, ev, &captured);
	if (ret || captured)
		return ret;
	/* Waiting for an event that was never recorded does not wait. */
	if (!event_record_of(ev, &rs, &point))
		return ACL_SUCCESS;
	if (rs == s || rt_stream_point_done(rs, point)) {
		rt_stream_put(rs);
		return ACL_SUCCESS;
	}
	memset(&task, 0, sizeof(task));
	task.kind = VNPU_TASK_NOP;
	memset(&in, 0, sizeof(in));
	in.handle = rs->syncobj;
	in.point = point;
	ret = rt_stream_submit(s, &task, 1, &in, 1, &waited);
	rt_stream_put(rs);
	if (ret)
		return ret;

	pthread_mutex_lock(&ev->lock);
	if (ev->nwaits >= 16)
		prune_waits(ev);
	if (ev->nwaits == ev->wait_cap) {
		unsigned int cap = ev->wait_cap ? 2 * ev->wait_cap : 4;
		struct rt_event_wait *bigger = realloc(ev->waits, cap * sizeof(*bigger));

		if (!bigger) {
			pthread_mutex_unlock(&ev->lock);
			return ACL_SUCCESS; /* the wait is queued; only the bookkeeping is lost */
		}
		ev->waits = bigger;
		ev->wait_cap = cap;
	}
	rt_obj_get(&s->obj);
	ev->waits[ev->nwaits].stream = s;
	ev->waits[ev->nwaits].point = waited;
	ev->nwaits++;
	pthread_mutex_unlock(&ev->lock);
	return ACL_SUCCESS;
}

/* The device time of the event's completed record, in ns. */
static aclError event_time(struct rt_event *ev, uint64_t *ns)
{
	struct rt_stream *s;
	uint64_t point;
	bool done;

	if (!event_record_of(ev, &s, &point))
		return rt_err(ACL_ERROR_RT_INTERNAL_ERROR, "event %p has not been recorded", (void *)ev);
	done = rt_stream_point_done(s, point);
	rt_stream_put(s);
	if (!done)
		return rt_err(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
			      "the record of event %p has not completed (synchronise first)", (void *)ev);
	*ns = atomic_load(ev->ts.cpu);
	return ACL_SUCCESS;
}

aclError rt_event_elapsed(struct rt_event *start, struct rt_event *end, float *ms)
{
	uint64_t t0, t1;
	aclError ret;

	ret = event_time(start, &t0);
	if (!ret)
		ret = event_time(end, &t1);
	if (ret)
		return ret;
	*ms = (float)(((double)t1 - (double)t0) / 1e6);
	return ACL_SUCCESS;
}

aclError rt_event_timestamp(struct rt_event *ev, uint64_t *us)
{
	uint64_t ns;
	aclError ret;

	ret = event_time(ev, &ns);
	if (!ret)
		*us = ns / 1000;
	return ret;
}
