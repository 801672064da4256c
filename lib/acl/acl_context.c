// SPDX-License-Identifier: MIT
/*
 * acl_context.c - contexts.
 */
#include "acl_internal.h"

aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId)
{
	struct rt_context *ctx;
	struct rt_dev *dev;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(context);
	ret = rt_device_open(deviceId, &dev);
	if (ret)
		return ret;
	ret = rt_context_create(dev, false, &ctx);
	rt_dev_put(dev);
	if (ret)
		return ret;
	rt_context_set_current(ctx);
	*context = ctx;
	rt_context_put(ctx);
	return ACL_SUCCESS;
}

aclError aclrtDestroyContext(aclrtContext context)
{
	struct rt_context *ctx;

	ACL_ENTER();
	ACL_REQUIRE(context);
	ctx = rt_context_lookup(context);
	if (!ctx)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%p is not a context (never created, or destroyed)", context);
	if (ctx->is_default) {
		rt_context_put(ctx);
		return rt_err(ACL_ERROR_INVALID_PARAM,
			      "%p is the default context of device %u; aclrtResetDevice releases it", context,
			      ctx->dev->index);
	}
	rt_context_destroy(ctx);
	rt_context_put(ctx);
	return ACL_SUCCESS;
}

aclError aclrtSetCurrentContext(aclrtContext context)
{
	struct rt_context *ctx;

	ACL_ENTER();
	ACL_REQUIRE(context);
	ctx = rt_context_lookup(context);
	if (!ctx)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%p is not a context (never created, or destroyed)", context);
	rt_context_set_current(ctx);
	rt_context_put(ctx);
	return ACL_SUCCESS;
}

aclError aclrtGetCurrentContext(aclrtContext *context)
{
	struct rt_context *ctx;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(context);
	ret = rt_context_require(&ctx);
	if (ret)
		return ret;
	*context = ctx;
	rt_context_put(ctx);
	return ACL_SUCCESS;
}

aclError aclrtCtxGetCurrentDefaultStream(aclrtStream *stream)
{
	struct rt_context *ctx;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(stream);
	ret = rt_context_require(&ctx);
	if (ret)
		return ret;
	*stream = ctx->default_stream;
	rt_context_put(ctx);
	return ACL_SUCCESS;
}
