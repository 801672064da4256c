// SPDX-License-Identifier: MIT
/*
 * acl_memory.c - device and pinned host memory, copies and fills.
 */
#include "acl_internal.h"
#include "rt_ri.h"

static aclError malloc_device(void **devPtr, size_t size, aclrtMemMallocPolicy policy, bool align32_only)
{
	struct rt_context *ctx;
	aclError ret;

	ACL_REQUIRE(devPtr);
	if (!size)
		return rt_err(ACL_ERROR_INVALID_PARAM, "size must not be 0");
	ret = rt_context_require(&ctx);
	if (ret)
		return ret;
	ret = rt_malloc(ctx->dev, size, (uint32_t)policy, align32_only, devPtr);
	rt_context_put(ctx);
	return ret;
}

aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
	ACL_ENTER();
	return malloc_device(devPtr, size, policy, false);
}

aclError aclrtMallocAlign32(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
	ACL_ENTER();
	return malloc_device(devPtr, size, policy, true);
}

aclError aclrtMallocCached(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
	ACL_ENTER();
	return malloc_device(devPtr, size, policy, false);
}

static aclError free_any(void *ptr, bool host)
{
	struct rt_context *ctx = rt_context_current();
	aclError ret;

	ret = rt_free(ctx ? ctx->dev : NULL, ptr, host);
	rt_context_put(ctx);
	return ret;
}

aclError aclrtFree(void *devPtr)
{
	ACL_ENTER();
	ACL_REQUIRE(devPtr);
	return free_any(devPtr, false);
}

aclError aclrtMallocHost(void **hostPtr, size_t size)
{
	struct rt_context *ctx;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(hostPtr);
	if (!size)
		return rt_err(ACL_ERROR_INVALID_PARAM, "size must not be 0");
	ret = rt_context_require(&ctx);
	if (ret)
		return ret;
	ret = rt_malloc_host(ctx->dev, size, hostPtr);
	rt_context_put(ctx);
	return ret;
}

aclError aclrtFreeHost(void *hostPtr)
{
	ACL_ENTER();
	ACL_REQUIRE(hostPtr);
	return free_any(hostPtr, true);
}

static aclError memcpy_common(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind,
			      aclrtStream stream, bool async)
{
	struct rt_copy_piece pc = { .dst = dst, .src = src, .count = count, .kind = (int)kind };
	size_t fail;

	ACL_REQUIRE(dst);
	ACL_REQUIRE(src);
	if (count > destMax)
		return rt_err(ACL_ERROR_INVALID_PARAM, "count %zu is larger than destMax %zu", count, destMax);
	return acl_copy_pieces(async ? "aclrtMemcpyAsync" : "aclrtMemcpy", &pc, 1, stream, async, &fail);
}

aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind)
{
	ACL_ENTER();
	return memcpy_common(dst, destMax, src, count, kind, NULL, false);
}

aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind,
			  aclrtStream stream)
{
	ACL_ENTER();
	return memcpy_common(dst, destMax, src, count, kind, stream, true);
}

static aclError memset_common(void *devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream,
			      bool async)
{
	struct rt_context *ctx;
	struct rt_stream *s = NULL;
	aclError ret;

	ACL_REQUIRE(devPtr);
	if (count > maxCount)
		return rt_err(ACL_ERROR_INVALID_PARAM, "count %zu is larger than maxCount %zu", count, maxCount);
	ret = async ? ACL_SUCCESS : rt_ri_unsafe("aclrtMemset");
	if (ret)
		return ret;
	if (async)
		ret = acl_stream_begin(stream, &ctx, &s);
	else
		ret = rt_context_require(&ctx);
	if (ret)
		return ret;
	ret = rt_memset(ctx->dev, devPtr, maxCount, value, count, s);
	if (async)
		acl_stream_done(ctx, s);
	else
		rt_context_put(ctx);
	return ret;
}

aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count)
{
	ACL_ENTER();
	return memset_common(devPtr, maxCount, value, count, NULL, false);
}

aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream)
{
	ACL_ENTER();
	return memset_common(devPtr, maxCount, value, count, stream, true);
}

aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total)
{
	struct rt_context *ctx;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(free);
	ACL_REQUIRE(total);
	if ((int)attr < (int)ACL_DDR_MEM || (int)attr > (int)ACL_MEM_P2P_HUGE1G)
		return rt_err(ACL_ERROR_INVALID_PARAM, "attr %d is not an aclrtMemAttr", (int)attr);
	ret = rt_context_require(&ctx);
	if (ret)
		return ret;
	ret = rt_device_mem_info(ctx->dev, free, total);
	rt_context_put(ctx);
	return ret;
}
