// SPDX-License-Identifier: MIT
/*
 * acl_mem_info.c - what the runtime knows about an address: its location
 * and page size (aclrtPointerGetAttributes), its memory type
 * (aclrtCheckMemType), its allocation (aclrtMemGetAddressRange), and the
 * cache maintenance calls that coherent memory does not need
 * (aclrtMemFlush, aclrtMemInvalidate), which check the range all the same.
 *
 * None needs a current context: an address is looked up in the current
 * device's allocations first, then in every open device's.
 */
#include <stdint.h>
#include <string.h>

#include "acl_internal.h"

#define PAGE_SMALL 4096u
#define PAGE_HUGE (2u << 20)

/* The allocation holding @ptr (referenced), or NULL with @ptr's error. */
static aclError holding(const void *ptr, const char *what, struct rt_alloc **out)
{
	struct rt_context *ctx = rt_context_current();
	aclError ret;

	ret = rt_alloc_holding(ctx ? ctx->dev : NULL, ptr, what, out);
	rt_context_put(ctx);
	return ret;
}

aclError aclrtPointerGetAttributes(const void *ptr, aclrtPtrAttributes *attributes)
{
	struct rt_alloc *a;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(ptr);
	ACL_REQUIRE(attributes);
	memset(attributes, 0, sizeof(*attributes));
	if (rt_va_device((uint64_t)(uintptr_t)ptr) < 0) {
		/* Host memory: pinned by the runtime, or not known to it. */
		bool quiet = rt_err_quiet(true);

		ret = holding(ptr, "ptr", &a);
		rt_err_quiet(quiet);
		if (ret) {
			attributes->location.type = ACL_MEM_LOCATION_TYPE_UNREGISTERED;
			return ACL_SUCCESS;
		}
	} else {
		ret = holding(ptr, "ptr", &a);
		if (ret)
			return ret;
	}
	if (a->host) {
		attributes->location.type = ACL_MEM_LOCATION_TYPE_HOST;
		attributes->pageSize = PAGE_SMALL;
	} else {
		attributes->location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
		attributes->location.id = a->dev->index;
		attributes->pageSize = a->huge ? PAGE_HUGE : PAGE_SMALL;
	}
	rt_alloc_put(a);
	return ACL_SUCCESS;
}

aclError aclrtCheckMemType(void **addrList, uint32_t size, uint32_t memType, uint32_t *checkResult, uint32_t reserve)
{
	const uint32_t known = ACL_RT_MEM_TYPE_DEV | ACL_RT_MEM_TYPE_DVPP | ACL_RT_MEM_TYPE_RSVD;
	uint32_t i, match = 1;
	bool quiet;

	ACL_ENTER();
	ACL_REQUIRE(addrList);
	ACL_REQUIRE(checkResult);
	if (reserve)
		return rt_err(ACL_ERROR_INVALID_PARAM, "reserve is %u, must be 0", reserve);
	if (!size)
		return rt_err(ACL_ERROR_INVALID_PARAM, "size must not be 0");
	if (!memType || memType & ~known)
		return rt_err(ACL_ERROR_INVALID_PARAM, "memType %#x is not a mask of ACL_RT_MEM_TYPE_DEV, _DVPP and _RSVD",
			      memType);
	/* Every device allocation is of the DEV type; nothing else matches. */
	quiet = rt_err_quiet(true);
	for (i = 0; i < size && match; i++) {
		struct rt_alloc *a;

		if (!(memType & ACL_RT_MEM_TYPE_DEV) || holding(addrList[i], "address", &a)) {
			match = 0;
			break;
		}
		if (a->host)
			match = 0;
		rt_alloc_put(a);
	}
	rt_err_quiet(quiet);
	*checkResult = match;
	return ACL_SUCCESS;
}

aclError aclrtMemGetAddressRange(void *ptr, void **pbase, size_t *psize)
{
	struct rt_alloc *a;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(ptr);
	ACL_REQUIRE(pbase);
	ACL_REQUIRE(psize);
	ret = holding(ptr, "ptr", &a);
	if (ret)
		return ret;
	*pbase = (void *)(uintptr_t)a->addr;
	*psize = (size_t)a->size;
	rt_alloc_put(a);
	return ACL_SUCCESS;
}

/* aclrtMemFlush and aclrtMemInvalidate: a range of one allocation. */
static aclError cache_range(void *devPtr, size_t size)
{
	struct rt_alloc *a;
	aclError ret;

	ACL_REQUIRE(devPtr);
	if (!size)
		return rt_err(ACL_ERROR_INVALID_PARAM, "size must not be 0");
	ret = holding(devPtr, "devPtr", &a);
	if (ret)
		return ret;
	if (size > a->size - ((uint64_t)(uintptr_t)devPtr - a->addr))
		ret = rt_err(ACL_ERROR_INVALID_PARAM, "[%p, +%zu bytes) leaves its allocation (%llu bytes at 0x%llx)",
			     devPtr, size, (unsigned long long)a->size, (unsigned long long)a->addr);
	rt_alloc_put(a);
	return ret;
}

aclError aclrtMemFlush(void *devPtr, size_t size)
{
	ACL_ENTER();
	return cache_range(devPtr, size);
}

aclError aclrtMemInvalidate(void *devPtr, size_t size)
{
	ACL_ENTER();
	return cache_range(devPtr, size);
}
