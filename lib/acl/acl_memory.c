// SPDX-License-Identifier: MIT
/*
 * acl_memory.c - device and pinned host memory (plain and configured
 * allocation, frees with and without a device synchronisation), copies and
 * fills of bytes and of 32-bit words.
 */
#include <stdint.h>

#include "acl_internal.h"
#include "rt_ri.h"

/*
 * Check an allocation configuration (NULL: none) for device @device; @what
 * names the call.
 */
static aclError check_cfg(const aclrtMallocConfig *cfg, uint32_t device, const char *what)
{
	size_t i;

	if (!cfg)
		return ACL_SUCCESS;
	if (cfg->numAttrs && !cfg->attrs)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%s: cfg->attrs is NULL with numAttrs %zu", what,
			      cfg->numAttrs);
	for (i = 0; i < cfg->numAttrs; i++) {
		const aclrtMallocAttribute *a = &cfg->attrs[i];

		switch (a->attr) {
		case ACL_RT_MEM_ATTR_RSV:
		case ACL_RT_MEM_ATTR_MODULE_ID:
			break;
		case ACL_RT_MEM_ATTR_DEVICE_ID:
			if (a->value.deviceId != device)
				return rt_err(ACL_ERROR_INVALID_PARAM,
					      "%s: attribute %zu names device %u, the current device is %u", what, i,
					      a->value.deviceId, device);
			break;
		case ACL_RT_MEM_ATTR_VA_FLAG:
			if (a->value.vaFlag > 1)
				return rt_err(ACL_ERROR_INVALID_PARAM, "%s: vaFlag %u is neither 0 nor 1", what,
					      a->value.vaFlag);
			if (a->value.vaFlag)
				return rt_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
					      "%s: vnpu has no host memory at one address on host and device (vaFlag 1)",
					      what);
			break;
		default:
			return rt_err(ACL_ERROR_INVALID_PARAM, "%s: attribute %zu has type %d, not an aclrtMallocAttrType",
				      what, i, (int)a->attr);
		}
	}
	return ACL_SUCCESS;
}

/* aclrtMalloc*() with the configuration @cfg (NULL: none) of call @what. */
static aclError malloc_device(void **devPtr, size_t size, aclrtMemMallocPolicy policy, bool align32_only,
			      const aclrtMallocConfig *cfg, const char *what)
{
	struct rt_context *ctx;
	aclError ret;

	ACL_REQUIRE(devPtr);
	if (!size)
		return rt_err(ACL_ERROR_INVALID_PARAM, "size must not be 0");
	ret = rt_context_require(&ctx);
	if (ret)
		return ret;
	ret = check_cfg(cfg, ctx->dev->index, what);
	if (!ret)
		ret = rt_malloc(ctx->dev, size, (uint32_t)policy, align32_only, devPtr);
	rt_context_put(ctx);
	return ret;
}

aclError aclrtMallocWithCfg(void **devPtr, size_t size, aclrtMemMallocPolicy policy, aclrtMallocConfig *cfg)
{
	ACL_ENTER();
	return malloc_device(devPtr, size, policy, false, cfg, "aclrtMallocWithCfg");
}

aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
	ACL_ENTER();
	return malloc_device(devPtr, size, policy, false, NULL, "aclrtMalloc");
}

aclError aclrtMallocAlign32(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
	ACL_ENTER();
	return malloc_device(devPtr, size, policy, true, NULL, "aclrtMallocAlign32");
}

aclError aclrtMallocCached(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
	ACL_ENTER();
	return malloc_device(devPtr, size, policy, false, NULL, "aclrtMallocCached");
}

/* aclrtFree*(): with @synced, after the device holding @ptr is idle. */
static aclError free_any(void *ptr, bool host, bool synced)
{
	struct rt_context *ctx = rt_context_current();
	struct rt_dev *dev = ctx ? ctx->dev : NULL;
	aclError ret;

	ret = synced ? rt_free_synced(dev, ptr, host) : rt_free(dev, ptr, host);
	rt_context_put(ctx);
	return ret;
}

aclError aclrtFree(void *devPtr)
{
	ACL_ENTER();
	ACL_REQUIRE(devPtr);
	return free_any(devPtr, false, false);
}

aclError aclrtFreeWithDevSync(void *devPtr)
{
	ACL_ENTER();
	ACL_REQUIRE(devPtr);
	return free_any(devPtr, false, true);
}

static aclError malloc_host(void **hostPtr, uint64_t size, const aclrtMallocConfig *cfg, const char *what)
{
	struct rt_context *ctx;
	aclError ret;

	ACL_REQUIRE(hostPtr);
	if (!size)
		return rt_err(ACL_ERROR_INVALID_PARAM, "size must not be 0");
	if (size > SIZE_MAX)
		return rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "%llu bytes is more than a buffer can hold",
			      (unsigned long long)size);
	ret = rt_context_require(&ctx);
	if (ret)
		return ret;
	ret = check_cfg(cfg, ctx->dev->index, what);
	if (!ret)
		ret = rt_malloc_host(ctx->dev, (size_t)size, hostPtr);
	rt_context_put(ctx);
	return ret;
}

aclError aclrtMallocHost(void **hostPtr, size_t size)
{
	ACL_ENTER();
	return malloc_host(hostPtr, size, NULL, "aclrtMallocHost");
}

aclError aclrtMallocHostWithCfg(void **ptr, uint64_t size, aclrtMallocConfig *cfg)
{
	ACL_ENTER();
	return malloc_host(ptr, size, cfg, "aclrtMallocHostWithCfg");
}

aclError aclrtFreeHost(void *hostPtr)
{
	ACL_ENTER();
	ACL_REQUIRE(hostPtr);
	return free_any(hostPtr, true, false);
}

aclError aclrtFreeHostWithDevSync(void *hostPtr)
{
	ACL_ENTER();
	ACL_REQUIRE(hostPtr);
	return free_any(hostPtr, true, true);
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

/* aclrtMemset*() (@width 1: @count bytes of the byte @value) and
 * aclrtMemsetD32*() (@width 4: @count words). */
static aclError memset_common(void *devPtr, size_t maxCount, uint32_t value, size_t count, unsigned int width,
			      aclrtStream stream, bool async)
{
	struct rt_context *ctx;
	struct rt_stream *s = NULL;
	aclError ret;

	ACL_REQUIRE(devPtr);
	if (count > maxCount / width)
		return rt_err(ACL_ERROR_INVALID_PARAM, width == 1 ? "count %zu is larger than maxCount %zu" :
			      "%zu words do not fit in memSize %zu bytes", count, maxCount);
	/* CANN fills host memory of the word fill at once, off the stream. */
	if (async && width == 4 && rt_va_device((uint64_t)(uintptr_t)devPtr) < 0)
		async = false;
	ret = async ? ACL_SUCCESS : rt_ri_unsafe(width == 1 ? "aclrtMemset" : "aclrtMemsetD32");
	if (ret)
		return ret;
	if (async)
		ret = acl_stream_begin(stream, &ctx, &s);
	else
		ret = rt_context_require(&ctx);
	if (ret)
		return ret;
	if (width == 1)
		ret = rt_memset(ctx->dev, devPtr, maxCount, (int)value, count, s);
	else
		ret = rt_memset_d32(ctx->dev, devPtr, value, count, s);
	if (async)
		acl_stream_done(ctx, s);
	else
		rt_context_put(ctx);
	return ret;
}

aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count)
{
	ACL_ENTER();
	return memset_common(devPtr, maxCount, (uint32_t)value, count, 1, NULL, false);
}

aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream)
{
	ACL_ENTER();
	return memset_common(devPtr, maxCount, (uint32_t)value, count, 1, stream, true);
}

aclError aclrtMemsetD32(void *ptr, size_t memSize, uint32_t value, size_t N)
{
	ACL_ENTER();
	return memset_common(ptr, memSize, value, N, 4, NULL, false);
}

aclError aclrtMemsetD32Async(void *ptr, size_t memSize, uint32_t value, size_t N, aclrtStream stream)
{
	ACL_ENTER();
	return memset_common(ptr, memSize, value, N, 4, stream, true);
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
