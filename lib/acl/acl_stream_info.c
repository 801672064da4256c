// SPDX-License-Identifier: MIT
/*
 * acl_stream_info.c - what a stream was created with, and its identity
 * (aclrtStreamGetId, aclrtStreamGetPriority, aclrtStreamGetFlags), and how
 * many more streams the device can give (aclrtGetStreamAvailableNum).
 */
#include "acl_internal.h"

/* Read one property of @stream (NULL: the current context's default). */
enum stream_prop { PROP_ID, PROP_PRIORITY, PROP_FLAGS };

static aclError stream_prop(aclrtStream stream, enum stream_prop prop, uint32_t *out)
{
	struct rt_context *ctx;
	struct rt_stream *s;
	aclError ret;

	ret = acl_stream_begin(stream, &ctx, &s);
	if (ret)
		return ret;
	switch (prop) {
	case PROP_ID:
		/* The handle registry's serial: unique in the process for
		 * as long as it runs, never reused (kept below 2^31). */
		*out = (uint32_t)(s->obj.serial & 0x7fffffffu);
		break;
	case PROP_PRIORITY:
		*out = s->priority;
		break;
	case PROP_FLAGS:
		*out = s->flags;
		break;
	}
	acl_stream_done(ctx, s);
	return ACL_SUCCESS;
}

aclError aclrtStreamGetId(aclrtStream stream, int32_t *streamId)
{
	uint32_t id;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(streamId);
	ret = stream_prop(stream, PROP_ID, &id);
	if (!ret)
		*streamId = (int32_t)id;
	return ret;
}

aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t *priority)
{
	ACL_ENTER();
	ACL_REQUIRE(priority);
	return stream_prop(stream, PROP_PRIORITY, priority);
}

aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t *flags)
{
	ACL_ENTER();
	ACL_REQUIRE(flags);
	return stream_prop(stream, PROP_FLAGS, flags);
}

aclError aclrtGetStreamAvailableNum(uint32_t *streamCount)
{
	struct rt_context *ctx;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(streamCount);
	ret = rt_context_require(&ctx);
	if (ret)
		return ret;
	ret = rt_stream_available(ctx->dev, streamCount);
	rt_context_put(ctx);
	return ret;
}
