// SPDX-License-Identifier: MIT
/*
 * acl_event.c - events.
 */
#include "acl_internal.h"

#define KNOWN_EVENT_FLAGS                                                                         \
	(ACL_EVENT_SYNC | ACL_EVENT_CAPTURE_STREAM_PROGRESS | ACL_EVENT_TIME_LINE |              \
	 ACL_EVENT_DEVICE_USE_ONLY | ACL_EVENT_EXTERNAL | ACL_EVENT_IPC)

static aclError create_event(aclrtEvent *event, uint32_t flag)
{
	struct rt_context *ctx;
	struct rt_event *ev;
	aclError ret;

	ACL_REQUIRE(event);
	ret = rt_context_require(&ctx);
	if (ret)
		return ret;
	ret = rt_event_create(ctx, flag, &ev);
	rt_context_put(ctx);
	if (ret)
		return ret;
	*event = ev;
	rt_event_put(ev);
	return ACL_SUCCESS;
}

aclError aclrtCreateEvent(aclrtEvent *event)
{
	ACL_ENTER();
	return create_event(event, ACL_EVENT_SYNC);
}

aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag)
{
	ACL_ENTER();
	if (flag & ~KNOWN_EVENT_FLAGS)
		return rt_err(ACL_ERROR_INVALID_PARAM, "flag 0x%x has unknown bits 0x%x", flag,
			      flag & ~KNOWN_EVENT_FLAGS);
	return create_event(event, flag);
}

/* CANN's "Ex" events differ in the device's event-count limits; vnpu has
 * none, so this is aclrtCreateEventWithFlag. */
aclError aclrtCreateEventExWithFlag(aclrtEvent *event, uint32_t flag)
{
	ACL_ENTER();
	if (flag & ~KNOWN_EVENT_FLAGS)
		return rt_err(ACL_ERROR_INVALID_PARAM, "flag 0x%x has unknown bits 0x%x", flag,
			      flag & ~KNOWN_EVENT_FLAGS);
	return create_event(event, flag);
}

static aclError lookup(aclrtEvent event, struct rt_event **ev)
{
	*ev = rt_event_lookup(event);
	if (!*ev)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%p is not an event (never created, or destroyed)", event);
	return ACL_SUCCESS;
}

/* Record or reset @event on @stream. */
static aclError mark(aclrtEvent event, aclrtStream stream, bool record)
{
	struct rt_context *ctx;
	struct rt_stream *s;
	struct rt_event *ev;
	aclError ret;

	ACL_REQUIRE(event);
	ret = lookup(event, &ev);
	if (ret)
		return ret;
	ret = acl_stream_begin(stream, &ctx, &s);
	if (ret) {
		rt_event_put(ev);
		return ret;
	}
	if (ev->dev != s->dev)
		ret = rt_err(ACL_ERROR_INVALID_PARAM, "event %p is on device %u, stream %p on device %u", event,
			     ev->dev->index, stream, s->dev->index);
	else if (record)
		ret = rt_event_record(ev, s);
	else
		ret = rt_event_reset(ev, s);
	acl_stream_done(ctx, s);
	rt_event_put(ev);
	return ret;
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream)
{
	ACL_ENTER();
	return mark(event, stream, true);
}

aclError aclrtRecordEventWithFlag(aclrtEvent event, aclrtStream stream, uint32_t flag)
{
	ACL_ENTER();
	if (flag == ACL_EVENT_RECORD_EXTERNAL)
		return rt_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			      "ACL_EVENT_RECORD_EXTERNAL (a captured record seen outside its graph) is not supported "
			      "by vnpu's capture yet");
	if (flag != ACL_EVENT_RECORD_DEFAULT)
		return rt_err(ACL_ERROR_INVALID_PARAM, "0x%x is not an ACL_EVENT_RECORD_* flag", flag);
	return mark(event, stream, true);
}

aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream)
{
	ACL_ENTER();
	return mark(event, stream, false);
}

static aclError synchronize_event(aclrtEvent event, int64_t deadline)
{
	struct rt_event *ev;
	aclError ret;

	ACL_REQUIRE(event);
	ret = lookup(event, &ev);
	if (ret)
		return ret;
	ret = rt_event_synchronize(ev, deadline);
	rt_event_put(ev);
	return ret;
}

aclError aclrtSynchronizeEvent(aclrtEvent event)
{
	ACL_ENTER();
	return synchronize_event(event, RT_FOREVER);
}

aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout)
{
	ACL_ENTER();
	if (timeout < -1)
		return rt_err(ACL_ERROR_RT_PARAM_INVALID, "timeout %d ms is invalid (-1 or >= 0)", timeout);
	return synchronize_event(event, rt_deadline(timeout));
}

/* Has the work recorded in @event finished? Never recorded: not complete. */
static aclError query_event(aclrtEvent event, bool *complete)
{
	struct rt_event *ev;
	aclError ret;

	ret = lookup(event, &ev);
	if (ret)
		return ret;
	ret = rt_event_query(ev, complete);
	rt_event_put(ev);
	return ret;
}

aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status)
{
	bool complete;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(event);
	ACL_REQUIRE(status);
	ret = query_event(event, &complete);
	if (!ret)
		*status = complete ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY;
	return ret;
}

/* Deprecated in CANN; aclrtQueryEventStatus with aclrtEventStatus's
 * numbering (COMPLETE is 0 here, 1 there). */
aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus *status)
{
	bool complete;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(event);
	ACL_REQUIRE(status);
	ret = query_event(event, &complete);
	if (!ret)
		*status = complete ? ACL_EVENT_STATUS_COMPLETE : ACL_EVENT_STATUS_NOT_READY;
	return ret;
}

aclError aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus *status)
{
	struct rt_event *ev;
	bool complete;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(event);
	ACL_REQUIRE(status);
	ret = lookup(event, &ev);
	if (ret)
		return ret;
	ret = rt_event_query_wait(ev, &complete);
	if (!ret)
		*status = complete ? ACL_EVENT_WAIT_STATUS_COMPLETE : ACL_EVENT_WAIT_STATUS_NOT_READY;
	rt_event_put(ev);
	return ret;
}

aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent)
{
	struct rt_event *start, *end;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(ms);
	ACL_REQUIRE(startEvent);
	ACL_REQUIRE(endEvent);
	ret = lookup(startEvent, &start);
	if (ret)
		return ret;
	ret = lookup(endEvent, &end);
	if (!ret) {
		ret = rt_event_elapsed(start, end, ms);
		rt_event_put(end);
	}
	rt_event_put(start);
	return ret;
}

aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t *timestamp)
{
	struct rt_event *ev;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(event);
	ACL_REQUIRE(timestamp);
	ret = lookup(event, &ev);
	if (ret)
		return ret;
	ret = rt_event_timestamp(ev, timestamp);
	rt_event_put(ev);
	return ret;
}

aclError aclrtDestroyEvent(aclrtEvent event)
{
	struct rt_event *ev;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(event);
	ret = lookup(event, &ev);
	if (ret)
		return ret;
	rt_event_destroy(ev);
	rt_event_put(ev);
	return ACL_SUCCESS;
}

/* ---- issue 17, streams and tasks: event identity ------------------------- */

aclError aclrtGetEventId(aclrtEvent event, uint32_t *eventId)
{
	struct rt_event *ev;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(event);
	ACL_REQUIRE(eventId);
	ret = lookup(event, &ev);
	if (ret)
		return ret;
	/* The handle registry's serial: unique in the process, never reused. */
	*eventId = (uint32_t)(ev->obj.serial & 0xffffffffu);
	rt_event_put(ev);
	return ACL_SUCCESS;
}
