// SPDX-License-Identifier: MIT
/*
 * acl_callback.c - host callbacks and host functions.
 */
#include "acl_internal.h"

aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream)
{
	struct rt_context *ctx;
	struct rt_stream *s;
	aclError ret;

	ACL_ENTER();
	ret = acl_stream_begin(stream, &ctx, &s);
	if (ret)
		return ret;
	ret = rt_subscribe(threadId, s);
	acl_stream_done(ctx, s);
	return ret;
}

aclError aclrtLaunchCallback(aclrtCallback fn, void *userData, aclrtCallbackBlockType blockType, aclrtStream stream)
{
	struct rt_context *ctx;
	struct rt_stream *s;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(fn);
	if (blockType != ACL_CALLBACK_NO_BLOCK && blockType != ACL_CALLBACK_BLOCK)
		return rt_err(ACL_ERROR_INVALID_PARAM, "blockType %d is not an aclrtCallbackBlockType", (int)blockType);
	ret = acl_stream_begin(stream, &ctx, &s);
	if (ret)
		return ret;
	ret = rt_launch_callback(s, fn, userData, blockType == ACL_CALLBACK_BLOCK);
	acl_stream_done(ctx, s);
	return ret;
}

aclError aclrtProcessReport(int32_t timeout)
{
	ACL_ENTER();
	if (timeout < -1 || timeout == 0)
		return rt_err(ACL_ERROR_INVALID_PARAM, "timeout %d ms is invalid (-1, or > 0)", timeout);
	return rt_process_report(timeout);
}

aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream)
{
	struct rt_context *ctx;
	struct rt_stream *s;
	aclError ret;

	ACL_ENTER();
	ret = acl_stream_begin(stream, &ctx, &s);
	if (ret)
		return ret;
	ret = rt_unsubscribe(threadId, s);
	acl_stream_done(ctx, s);
	return ret;
}

aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void *args)
{
	struct rt_context *ctx;
	struct rt_stream *s;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(fn);
	ret = acl_stream_begin(stream, &ctx, &s);
	if (ret)
		return ret;
	ret = rt_launch_host_func(s, fn, args);
	acl_stream_done(ctx, s);
	return ret;
}
