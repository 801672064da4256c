// SPDX-License-Identifier: MIT
/*
 * acl_stream.c - streams, stream configuration objects and stream value
 * operations.
 */
#include <stdlib.h>
#include <string.h>

#include "acl_internal.h"

static aclError create_stream(aclrtStream *stream, uint32_t priority, uint32_t flags)
{
	struct rt_context *ctx;
	struct rt_stream *s;
	aclError ret;

	ACL_REQUIRE(stream);
	ret = rt_context_require(&ctx);
	if (ret)
		return ret;
	ret = rt_stream_create(ctx->dev, ctx, priority, flags, false, &s);
	rt_context_put(ctx);
	if (ret)
		return ret;
	*stream = s;
	rt_stream_put(s);
	return ACL_SUCCESS;
}

aclError aclrtCreateStream(aclrtStream *stream)
{
	ACL_ENTER();
	return create_stream(stream, 0, 0);
}

aclError aclrtCreateStreamWithConfig(aclrtStream *stream, uint32_t priority, uint32_t flag)
{
	ACL_ENTER();
	return create_stream(stream, priority, flag);
}

aclrtStreamConfigHandle *aclrtCreateStreamConfigHandle(void)
{
	aclrtStreamConfigHandle *h;

	ACL_ENTER();
	h = calloc(1, sizeof(*h));
	if (!h)
		rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory for a stream configuration");
	return h;
}

aclError aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle *handle)
{
	ACL_ENTER();
	ACL_REQUIRE(handle);
	free(handle);
	return ACL_SUCCESS;
}

/* An unsigned integer of 4 or 8 bytes at @value, at most UINT32_MAX if
 * @narrow. */
static aclError config_uint(const void *value, size_t size, bool narrow, uint64_t *out)
{
	uint32_t v32;

	if (size == sizeof(uint32_t)) {
		memcpy(&v32, value, sizeof(v32));
		*out = v32;
	} else if (size == sizeof(uint64_t)) {
		memcpy(out, value, sizeof(*out));
	} else {
		return rt_err(ACL_ERROR_INVALID_PARAM, "a stream configuration value of %zu bytes (4 or 8 expected)",
			      size);
	}
	if (narrow && *out > UINT32_MAX)
		return rt_err(ACL_ERROR_INVALID_PARAM, "stream configuration value %llu is above UINT32_MAX",
			      (unsigned long long)*out);
	return ACL_SUCCESS;
}

aclError aclrtSetStreamConfigOpt(aclrtStreamConfigHandle *handle, aclrtStreamConfigAttr attr,
				 const void *attrValue, size_t valueSize)
{
	aclError ret;
	uint64_t v = 0;

	ACL_ENTER();
	ACL_REQUIRE(handle);
	ACL_REQUIRE(attrValue);
	switch (attr) {
	case ACL_RT_STREAM_WORK_ADDR_PTR:
		if (valueSize != sizeof(void *))
			return rt_err(ACL_ERROR_INVALID_PARAM, "ACL_RT_STREAM_WORK_ADDR_PTR takes a pointer, not "
				      "%zu bytes", valueSize);
		memcpy(&handle->workptr, attrValue, sizeof(void *));
		return ACL_SUCCESS;
	case ACL_RT_STREAM_WORK_SIZE:
	case ACL_RT_STREAM_FLAG:
	case ACL_RT_STREAM_PRIORITY:
		ret = config_uint(attrValue, valueSize, attr != ACL_RT_STREAM_WORK_SIZE, &v);
		if (ret)
			return ret;
		if (attr == ACL_RT_STREAM_WORK_SIZE)
			handle->workSize = (size_t)v;
		else if (attr == ACL_RT_STREAM_FLAG)
			handle->flag = (size_t)v;
		else
			handle->priority = (uint32_t)v;
		return ACL_SUCCESS;
	}
	return rt_err(ACL_ERROR_INVALID_PARAM, "%d is not an aclrtStreamConfigAttr", (int)attr);
}

aclError aclrtCreateStreamV2(aclrtStream *stream, const aclrtStreamConfigHandle *handle)
{
	ACL_ENTER();
	if (!handle)
		return create_stream(stream, 0, 0);
	if (handle->flag > UINT32_MAX)
		return rt_err(ACL_ERROR_INVALID_PARAM, "stream flags 0x%zx are not ACL_STREAM_* flags", handle->flag);
	return create_stream(stream, handle->priority, (uint32_t)handle->flag);
}

static aclError destroy_stream(aclrtStream stream, bool force)
{
	struct rt_context *ctx;
	struct rt_stream *s;
	aclError ret;

	ACL_REQUIRE(stream);
	ret = acl_stream_begin(stream, &ctx, &s);
	if (ret)
		return ret;
	if (s->is_default)
		ret = rt_err(ACL_ERROR_INVALID_PARAM, "%p is a default stream, which cannot be destroyed", stream);
	else
		ret = rt_stream_destroy(s, force);
	acl_stream_done(ctx, s);
	return ret;
}

aclError aclrtDestroyStream(aclrtStream stream)
{
	ACL_ENTER();
	return destroy_stream(stream, false);
}

aclError aclrtDestroyStreamForce(aclrtStream stream)
{
	ACL_ENTER();
	return destroy_stream(stream, true);
}

static aclError synchronize_stream(aclrtStream stream, int64_t deadline)
{
	struct rt_context *ctx;
	struct rt_stream *s;
	aclError ret;

	ret = acl_stream_begin(stream, &ctx, &s);
	if (ret)
		return ret;
	ret = rt_stream_synchronize(s, deadline);
	acl_stream_done(ctx, s);
	return ret;
}

aclError aclrtSynchronizeStream(aclrtStream stream)
{
	ACL_ENTER();
	return synchronize_stream(stream, RT_FOREVER);
}

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout)
{
	ACL_ENTER();
	if (timeout < -1)
		return rt_err(ACL_ERROR_RT_PARAM_INVALID, "timeout %d ms is invalid (-1 or >= 0)", timeout);
	return synchronize_stream(stream, rt_deadline(timeout));
}

aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus *status)
{
	struct rt_context *ctx;
	struct rt_stream *s;
	bool complete;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(status);
	ret = acl_stream_begin(stream, &ctx, &s);
	if (ret)
		return ret;
	ret = rt_stream_query(s, &complete);
	if (!ret)
		*status = complete ? ACL_STREAM_STATUS_COMPLETE : ACL_STREAM_STATUS_NOT_READY;
	acl_stream_done(ctx, s);
	return ret;
}

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event)
{
	struct rt_context *ctx;
	struct rt_stream *s;
	struct rt_event *ev;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(event);
	ev = rt_event_lookup(event);
	if (!ev)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%p is not an event (never created, or destroyed)", event);
	ret = acl_stream_begin(stream, &ctx, &s);
	if (!ret) {
		ret = rt_stream_wait_event(s, ev);
		acl_stream_done(ctx, s);
	}
	rt_event_put(ev);
	return ret;
}

aclError aclrtValueWrite(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream)
{
	struct rt_context *ctx;
	struct rt_stream *s;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(devAddr);
	if (flag)
		return rt_err(ACL_ERROR_INVALID_PARAM, "flag 0x%x is reserved and must be 0", flag);
	ret = acl_stream_begin(stream, &ctx, &s);
	if (ret)
		return ret;
	ret = rt_value_op(s, devAddr, value, 0, false);
	acl_stream_done(ctx, s);
	return ret;
}

aclError aclrtValueWait(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream)
{
	struct rt_context *ctx;
	struct rt_stream *s;
	uint32_t cmp;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(devAddr);
	ret = rt_value_cmp(flag, &cmp);
	if (ret)
		return ret;
	ret = acl_stream_begin(stream, &ctx, &s);
	if (ret)
		return ret;
	ret = rt_value_op(s, devAddr, value, cmp, true);
	acl_stream_done(ctx, s);
	return ret;
}
