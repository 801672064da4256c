// SPDX-License-Identifier: MIT
/*
 * ACL conformance, issue 17's memory built-ins: configured allocation
 * (aclrtMallocWithCfg, aclrtMallocHostWithCfg), frees that synchronise the
 * device, pointer attributes, memory types and address ranges, 32-bit word
 * fills, copies whose addresses lie in memory (aclrtMemcpyAsyncWithOffset,
 * the memcpy descriptors), the batch copies without a failure index, and
 * the cache calls.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "acl_test.h"

#define MIB (1ul << 20)

/* ---- configured allocation ---------------------------------------------------- */

static aclrtMallocConfig one_attr(aclrtMallocAttribute *a, aclrtMallocAttrType type, uint32_t value)
{
	memset(a, 0, sizeof(*a));
	a->attr = type;
	if (type == ACL_RT_MEM_ATTR_MODULE_ID)
		a->value.moduleId = (uint16_t)value;
	else if (type == ACL_RT_MEM_ATTR_DEVICE_ID)
		a->value.deviceId = value;
	else
		a->value.vaFlag = value;
	return (aclrtMallocConfig){ .attrs = a, .numAttrs = 1 };
}

START_TEST(malloc_with_cfg_takes_cann_attributes)
{
	aclrtMallocAttribute a[2];
	aclrtMallocConfig cfg;
	uint32_t v = 0x12345678, got = 0;
	void *p = NULL;

	ACL_OK(aclrtMallocWithCfg(&p, 100, ACL_MEM_MALLOC_HUGE_FIRST, NULL));
	ACL_OK(aclrtMemcpy(p, 4, &v, 4, ACL_MEMCPY_HOST_TO_DEVICE));
	ACL_OK(aclrtMemcpy(&got, 4, p, 4, ACL_MEMCPY_DEVICE_TO_HOST));
	ck_assert_uint_eq(got, v);
	ACL_OK(aclrtFree(p));
	cfg = one_attr(&a[0], ACL_RT_MEM_ATTR_MODULE_ID, 33);
	ACL_OK(aclrtMallocWithCfg(&p, 4096, ACL_MEM_MALLOC_NORMAL_ONLY, &cfg));
	ACL_OK(aclrtFreeWithDevSync(p));
	cfg = one_attr(&a[0], ACL_RT_MEM_ATTR_DEVICE_ID, 0);
	ACL_OK(aclrtMallocWithCfg(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
	ACL_OK(aclrtFree(p));
	cfg = one_attr(&a[0], ACL_RT_MEM_ATTR_VA_FLAG, 0);
	ACL_OK(aclrtMallocWithCfg(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
	ACL_OK(aclrtFree(p));
	/* An empty configuration, and one of RSV. */
	cfg = (aclrtMallocConfig){ .attrs = NULL, .numAttrs = 0 };
	ACL_OK(aclrtMallocWithCfg(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
	ACL_OK(aclrtFree(p));
	cfg = one_attr(&a[0], ACL_RT_MEM_ATTR_RSV, 0);
	ACL_OK(aclrtMallocWithCfg(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
	ACL_OK(aclrtFree(p));
	ck_assert_uint_eq(acl_test_mem_used(), 0);
}
END_TEST

START_TEST(malloc_with_cfg_arguments)
{
	aclrtMallocAttribute a[2];
	aclrtMallocConfig cfg;
	void *p = NULL;

	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMallocWithCfg(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMallocWithCfg(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST, NULL));
	cfg = one_attr(&a[0], ACL_RT_MEM_ATTR_DEVICE_ID, 1);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMallocWithCfg(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
	cfg = one_attr(&a[0], ACL_RT_MEM_ATTR_VA_FLAG, 1);
	ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtMallocWithCfg(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
	cfg = one_attr(&a[0], ACL_RT_MEM_ATTR_VA_FLAG, 2);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMallocWithCfg(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
	cfg = one_attr(&a[0], (aclrtMallocAttrType)9, 0);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMallocWithCfg(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
	/* The second attribute is checked too. */
	one_attr(&a[0], ACL_RT_MEM_ATTR_MODULE_ID, 33);
	one_attr(&a[1], ACL_RT_MEM_ATTR_DEVICE_ID, 7);
	cfg = (aclrtMallocConfig){ .attrs = a, .numAttrs = 2 };
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMallocWithCfg(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
	cfg = (aclrtMallocConfig){ .attrs = NULL, .numAttrs = 1 };
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMallocWithCfg(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
	ck_assert_uint_eq(acl_test_mem_used(), 0);
}
END_TEST

START_TEST(malloc_host_with_cfg_is_cpu_memory)
{
	aclrtMallocAttribute a;
	aclrtMallocConfig cfg = one_attr(&a, ACL_RT_MEM_ATTR_MODULE_ID, 33);
	unsigned char *h = NULL;
	void *d = NULL;

	ACL_OK(aclrtMallocHostWithCfg((void **)&h, 8192, &cfg));
	memset(h, 0x5c, 8192);
	ACL_OK(aclrtMalloc(&d, 8192, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtMemcpy(d, 8192, h, 8192, ACL_MEMCPY_HOST_TO_DEVICE));
	memset(h, 0, 8192);
	ACL_OK(aclrtMemcpy(h, 8192, d, 8192, ACL_MEMCPY_DEVICE_TO_HOST));
	ck_assert_uint_eq(h[0], 0x5c);
	ck_assert_uint_eq(h[8191], 0x5c);
	ACL_OK(aclrtFreeHost(h));
	ACL_OK(aclrtMallocHostWithCfg((void **)&h, 1, NULL));
	ACL_OK(aclrtFreeHostWithDevSync(h));
	ACL_OK(aclrtFree(d));

	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMallocHostWithCfg(NULL, 64, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMallocHostWithCfg((void **)&h, 0, NULL));
	cfg = one_attr(&a, ACL_RT_MEM_ATTR_VA_FLAG, 1);
	ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtMallocHostWithCfg((void **)&h, 64, &cfg));
	cfg = one_attr(&a, ACL_RT_MEM_ATTR_DEVICE_ID, 3);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMallocHostWithCfg((void **)&h, 64, &cfg));
	ACL_ERR(ACL_ERROR_RT_MEMORY_ALLOCATION, aclrtMallocHostWithCfg((void **)&h, UINT64_MAX, NULL));
}
END_TEST

/* ---- frees with a device synchronisation -------------------------------------- */

struct opener {
	struct acl_gate *gate;
	atomic_int opened;
	aclrtContext ctx;
};

static void *open_later(void *arg)
{
	struct opener *o = arg;

	if (aclrtSetCurrentContext(o->ctx) != ACL_SUCCESS)
		return NULL;
	acl_test_sleep_ms(200);
	atomic_store(&o->opened, 1);
	acl_gate_open(o->gate, 1);
	return NULL;
}

/* The free returns only once the device is idle; a pointer that is not the
 * start of an allocation is refused at once, without waiting. */
static void free_waits(bool host)
{
	struct acl_gate gate;
	struct opener o = { .gate = &gate };
	aclrtStream s;
	aclrtStreamStatus st;
	void *buf, *src;
	pthread_t t;

	acl_gate_init(&gate);
	ACL_OK(aclrtGetCurrentContext(&o.ctx));
	ACL_OK(aclrtCreateStream(&s));
	if (host)
		ACL_OK(aclrtMallocHost(&buf, 4096));
	else
		ACL_OK(aclrtMalloc(&buf, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	src = acl_test_device_pattern(4096, 7);
	acl_gate_block(&gate, s, 1);
	ACL_OK(aclrtMemcpyAsync(buf, 4096, src, 4096, host ? ACL_MEMCPY_DEVICE_TO_HOST : ACL_MEMCPY_DEVICE_TO_DEVICE,
				s));
	/* Refusals do not wait for the gated stream. */
	if (host) {
		ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtFreeHostWithDevSync((char *)buf + 64));
		ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtFreeHostWithDevSync(src));
		ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtFreeWithDevSync(buf));
	} else {
		ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtFreeWithDevSync((char *)buf + 64));
		ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtFreeHostWithDevSync(buf));
	}
	ck_assert_int_eq(pthread_create(&t, NULL, open_later, &o), 0);
	if (host)
		ACL_OK(aclrtFreeHostWithDevSync(buf));
	else
		ACL_OK(aclrtFreeWithDevSync(buf));
	ck_assert_int_eq(atomic_load(&o.opened), 1);
	ACL_OK(aclrtStreamQuery(s, &st));
	ck_assert_int_eq(st, ACL_STREAM_STATUS_COMPLETE);
	pthread_join(t, NULL);
	/* Freed: a second free is refused. */
	if (host)
		ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtFreeHostWithDevSync(buf));
	else
		ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtFreeWithDevSync(buf));
	ACL_OK(aclrtFree(src));
	acl_gate_fini(&gate);
	ACL_OK(aclrtDestroyStream(s));
}

START_TEST(free_with_dev_sync_waits_for_the_device)
{
	free_waits(false);
	ck_assert_uint_eq(acl_test_mem_used(), 0);
}
END_TEST

START_TEST(free_host_with_dev_sync_waits_for_the_device)
{
	free_waits(true);
}
END_TEST

START_TEST(dev_sync_frees_need_a_pointer)
{
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtFreeWithDevSync(NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtFreeHostWithDevSync(NULL));
}
END_TEST

/* ---- what an address is --------------------------------------------------------- */

START_TEST(pointer_attributes_by_kind_of_memory)
{
	aclrtPtrAttributes at;
	void *small, *huge, *host;
	int pageable;

	ACL_OK(aclrtMalloc(&small, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
	ACL_OK(aclrtMalloc(&huge, 4096, ACL_MEM_MALLOC_HUGE_ONLY));
	ACL_OK(aclrtMallocHost(&host, 100));
	memset(&at, 0xff, sizeof(at));
	ACL_OK(aclrtPointerGetAttributes(small, &at));
	ck_assert_int_eq(at.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
	ck_assert_uint_eq(at.location.id, 0);
	ck_assert_uint_eq(at.pageSize, 4096);
	ck_assert_uint_eq(at.rsv[0] | at.rsv[1] | at.rsv[2] | at.rsv[3], 0);
	ACL_OK(aclrtPointerGetAttributes((char *)huge + 100, &at));
	ck_assert_int_eq(at.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
	ck_assert_uint_eq(at.pageSize, 2 * MIB);
	ACL_OK(aclrtPointerGetAttributes((char *)host + 99, &at));
	ck_assert_int_eq(at.location.type, ACL_MEM_LOCATION_TYPE_HOST);
	ck_assert_uint_eq(at.pageSize, 4096);
	ACL_OK(aclrtPointerGetAttributes(&pageable, &at));
	ck_assert_int_eq(at.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
	ck_assert_uint_eq(at.pageSize, 0);
	ACL_OK(aclrtFree(small));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtPointerGetAttributes(small, &at));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtPointerGetAttributes(NULL, &at));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtPointerGetAttributes(huge, NULL));
	ACL_OK(aclrtFree(huge));
	ACL_OK(aclrtFreeHost(host));
}
END_TEST

START_TEST(check_mem_type_matches_device_memory)
{
	void *a, *b, *host, *list[3];
	uint32_t r = 7;
	int pageable;

	ACL_OK(aclrtMalloc(&a, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtMallocWithCfg(&b, 64, ACL_MEM_MALLOC_HUGE_FIRST, NULL));
	ACL_OK(aclrtMallocHost(&host, 64));
	list[0] = a;
	list[1] = (char *)b + 10;
	ACL_OK(aclrtCheckMemType(list, 2, ACL_RT_MEM_TYPE_DEV, &r, 0));
	ck_assert_uint_eq(r, 1);
	r = 7;
	ACL_OK(aclrtCheckMemType(list, 2, ACL_RT_MEM_TYPE_DEV | ACL_RT_MEM_TYPE_DVPP, &r, 0));
	ck_assert_uint_eq(r, 1);
	ACL_OK(aclrtCheckMemType(list, 2, ACL_RT_MEM_TYPE_DVPP, &r, 0));
	ck_assert_uint_eq(r, 0);
	ACL_OK(aclrtCheckMemType(list, 2, ACL_RT_MEM_TYPE_RSVD, &r, 0));
	ck_assert_uint_eq(r, 0);
	list[2] = host;
	ACL_OK(aclrtCheckMemType(list, 3, ACL_RT_MEM_TYPE_DEV, &r, 0));
	ck_assert_uint_eq(r, 0);
	list[2] = &pageable;
	r = 7;
	ACL_OK(aclrtCheckMemType(list, 3, ACL_RT_MEM_TYPE_DEV, &r, 0));
	ck_assert_uint_eq(r, 0);

	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCheckMemType(list, 2, ACL_RT_MEM_TYPE_DEV, &r, 1));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCheckMemType(list, 0, ACL_RT_MEM_TYPE_DEV, &r, 0));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCheckMemType(list, 2, 0, &r, 0));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCheckMemType(list, 2, 0x1, &r, 0));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCheckMemType(list, 2, ACL_RT_MEM_TYPE_DEV | 0x100, &r, 0));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCheckMemType(NULL, 2, ACL_RT_MEM_TYPE_DEV, &r, 0));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCheckMemType(list, 2, ACL_RT_MEM_TYPE_DEV, NULL, 0));
	ACL_OK(aclrtFree(a));
	ACL_OK(aclrtFree(b));
	ACL_OK(aclrtFreeHost(host));
}
END_TEST

START_TEST(address_range_of_any_address_inside)
{
	void *d, *h, *base = NULL;
	size_t size = 0;
	int pageable;

	ACL_OK(aclrtMalloc(&d, 100, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtMemGetAddressRange(d, &base, &size));
	ck_assert_ptr_eq(base, d);
	ck_assert_uint_ge(size, 100);
	ACL_OK(aclrtMemGetAddressRange((char *)d + size - 1, &base, &size));
	ck_assert_ptr_eq(base, d);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemGetAddressRange((char *)d + size, &base, &size));
	ACL_OK(aclrtMallocHost(&h, 5000));
	ACL_OK(aclrtMemGetAddressRange((char *)h + 4999, &base, &size));
	ck_assert_ptr_eq(base, h);
	ck_assert_uint_eq(size, 5000);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemGetAddressRange((char *)h + 5000, &base, &size));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemGetAddressRange(&pageable, &base, &size));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemGetAddressRange(NULL, &base, &size));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemGetAddressRange(d, NULL, &size));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemGetAddressRange(d, &base, NULL));
	ACL_OK(aclrtFree(d));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemGetAddressRange(d, &base, &size));
	ACL_OK(aclrtFreeHost(h));
}
END_TEST

START_TEST(flush_and_invalidate_check_the_range)
{
	void *d, *h;
	int pageable;

	ACL_OK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
	ACL_OK(aclrtMallocHost(&h, 4096));
	ACL_OK(aclrtMemFlush(d, 4096));
	ACL_OK(aclrtMemInvalidate((char *)d + 100, 100));
	ACL_OK(aclrtMemFlush(h, 1));
	ACL_OK(aclrtMemInvalidate(h, 4096));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemFlush(d, 0));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemInvalidate(d, 0));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemFlush(h, 4097));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemInvalidate((char *)h + 4000, 97));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemFlush(NULL, 4));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemInvalidate(&pageable, 4));
	ACL_OK(aclrtFree(d));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemFlush(d, 4));
	ACL_OK(aclrtFreeHost(h));
}
END_TEST

/* ---- 32-bit word fills --------------------------------------------------------- */

/* @n words at @p (host memory) hold @v, and the word after still @after. */
static void check_words(const void *p, size_t n, uint32_t v, uint32_t after)
{
	uint32_t w;
	size_t i;

	for (i = 0; i < n; i++) {
		memcpy(&w, (const char *)p + 4 * i, 4);
		ck_assert_msg(w == v, "word %zu is %#x, not %#x", i, w, v);
	}
	memcpy(&w, (const char *)p + 4 * n, 4);
	ck_assert_uint_eq(w, after);
}

START_TEST(memset_d32_fills_words)
{
	uint32_t back[1100];
	void *d, *h;

	ACL_OK(aclrtMalloc(&d, sizeof(back), ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtMemset(d, sizeof(back), 0, sizeof(back)));
	ACL_OK(aclrtMemsetD32(d, sizeof(back), 0xa1b2c3d4, 1000));
	ACL_OK(aclrtMemcpy(back, sizeof(back), d, sizeof(back), ACL_MEMCPY_DEVICE_TO_HOST));
	check_words(back, 1000, 0xa1b2c3d4, 0);
	/* At an address not aligned to 4 bytes too. */
	ACL_OK(aclrtMemsetD32((char *)d + 1, 13, 0x01020304, 3));
	ACL_OK(aclrtMemcpy(back, sizeof(back), d, sizeof(back), ACL_MEMCPY_DEVICE_TO_HOST));
	check_words((char *)back + 1, 3, 0x01020304, 0xd4a1b2c3);
	ACL_OK(aclrtMallocHost(&h, 64));
	memset(h, 0, 64);
	ACL_OK(aclrtMemsetD32(h, 64, 0xffffffff, 15));
	check_words(h, 15, 0xffffffff, 0);
	ACL_OK(aclrtMemsetD32(h, 64, 5, 0));
	check_words(h, 15, 0xffffffff, 0);

	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemsetD32(d, 15, 1, 4));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemsetD32(d, SIZE_MAX, 1, SIZE_MAX / 2));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemsetD32(NULL, 16, 1, 4));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemsetD32(d, 4800, 1, 1200));
	ACL_OK(aclrtFree(d));
	ACL_OK(aclrtFreeHost(h));
}
END_TEST

START_TEST(memset_d32_async_runs_in_stream_order)
{
	struct acl_gate gate;
	uint32_t back[65];
	aclrtStream s;
	void *d, *h;

	acl_gate_init(&gate);
	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtMalloc(&d, sizeof(back), ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtMemset(d, sizeof(back), 0, sizeof(back)));
	ACL_OK(aclrtMallocHost(&h, 64));
	memset(h, 0, 64);
	acl_gate_block(&gate, s, 1);
	ACL_OK(aclrtMemsetD32Async(d, sizeof(back), 0x600df00d, 64, s));
	/* Host memory is filled at once, off the stream. */
	ACL_OK(aclrtMemsetD32Async(h, 64, 0x77, 16, s));
	check_words(h, 15, 0x77, 0x77);
	/* The device fills wait behind the gate. */
	ACL_OK(aclrtMemcpy(back, sizeof(back), d, sizeof(back), ACL_MEMCPY_DEVICE_TO_HOST));
	check_words(back, 64, 0, 0);
	acl_gate_open(&gate, 1);
	ACL_OK(aclrtSynchronizeStream(s));
	ACL_OK(aclrtMemcpy(back, sizeof(back), d, sizeof(back), ACL_MEMCPY_DEVICE_TO_HOST));
	check_words(back, 64, 0x600df00d, 0);
	/* Not aligned to 4 bytes: after the stream's earlier work. */
	ACL_OK(aclrtMemsetD32Async((char *)d + 2, 8, 0x11111111, 1, s));
	ACL_OK(aclrtSynchronizeStream(s));
	ACL_OK(aclrtMemcpy(back, sizeof(back), d, sizeof(back), ACL_MEMCPY_DEVICE_TO_HOST));
	check_words((char *)back + 2, 1, 0x11111111, 0xf00d600d);
	check_words(back + 2, 62, 0x600df00d, 0);
	/* The default stream. */
	ACL_OK(aclrtMemsetD32Async(d, 8, 3, 2, NULL));
	ACL_OK(aclrtSynchronizeStream(NULL));
	ACL_OK(aclrtMemcpy(back, 8, d, 8, ACL_MEMCPY_DEVICE_TO_HOST));
	ck_assert_uint_eq(back[0], 3);
	ck_assert_uint_eq(back[1], 3);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemsetD32Async(d, 7, 1, 2, s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemsetD32Async(NULL, 8, 1, 2, s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemsetD32Async((char *)d + 1000, 8, 1, 2, s));
	ACL_OK(aclrtFree(d));
	ACL_OK(aclrtFreeHost(h));
	acl_gate_fini(&gate);
	ACL_OK(aclrtDestroyStream(s));
}
END_TEST

/* ---- copies whose addresses lie in memory ---------------------------------------- */

START_TEST(memcpy_with_offset_reads_the_bases_in_stream_order)
{
	unsigned char back[256];
	void *src, *dst, *slots, *pinned, *dst_base, *src_base;
	aclrtStream s;

	ACL_OK(aclrtCreateStream(&s));
	src = acl_test_device_pattern(256, 3);
	ACL_OK(aclrtMalloc(&dst, 256, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtMemset(dst, 256, 0, 256));
	/* The destination base in device memory, written by the stream itself
	 * just before; the source base in a host variable. */
	ACL_OK(aclrtMalloc(&slots, 16, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtMemset(slots, 16, 0, 16));
	ACL_OK(aclrtMallocHost(&pinned, 8));
	dst_base = dst;
	memcpy(pinned, &dst_base, 8);
	src_base = src;
	ACL_OK(aclrtMemcpyAsync(slots, 8, pinned, 8, ACL_MEMCPY_HOST_TO_DEVICE, s));
	ACL_OK(aclrtMemcpyAsyncWithOffset((void **)slots, 200, 16, (const void **)&src_base, 100, 40,
					  ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, s));
	ACL_OK(aclrtSynchronizeStream(s));
	ACL_OK(aclrtMemcpy(back, 256, dst, 256, ACL_MEMCPY_DEVICE_TO_HOST));
	{
		unsigned char want[256];

		acl_test_fill(want, 256, 3);
		ck_assert_int_eq(memcmp(back + 16, want + 40, 100), 0);
		ck_assert_uint_eq(back[15], 0);
		ck_assert_uint_eq(back[116], 0);
	}
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsyncWithOffset((void **)slots, 99, 0, (const void **)&src_base,
								    100, 0, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsyncWithOffset((void **)slots, 100, 0, (const void **)&src_base,
								    100, 0, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsyncWithOffset(NULL, 100, 0, (const void **)&src_base, 100, 0,
								    ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsyncWithOffset((void **)slots, 100, 0, NULL, 100, 0,
								    ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, s));
	/* The copy leaves the destination allocation. */
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsyncWithOffset((void **)slots, 100, 200, (const void **)&src_base,
								    100, 0, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, s));
	/* A base that is host memory is not an inner-device copy. */
	src_base = back;
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsyncWithOffset((void **)slots, 100, 0, (const void **)&src_base,
								    100, 0, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, s));
	ACL_OK(aclrtFree(src));
	ACL_OK(aclrtFree(dst));
	ACL_OK(aclrtFree(slots));
	ACL_OK(aclrtFreeHost(pinned));
	ACL_OK(aclrtDestroyStream(s));
}
END_TEST

START_TEST(memcpy_descriptors)
{
	unsigned char back[128], want[128];
	void *src, *dst, *desc, *blank;
	aclrtStream s;
	size_t size = 0;

	ACL_OK(aclrtGetMemcpyDescSize(ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, &size));
	ck_assert_uint_ge(size, 32);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetMemcpyDescSize(ACL_MEMCPY_DEVICE_TO_DEVICE, &size));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetMemcpyDescSize(ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, NULL));
	ACL_OK(aclrtCreateStream(&s));
	src = acl_test_device_pattern(128, 9);
	ACL_OK(aclrtMalloc(&dst, 128, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtMemset(dst, 128, 0, 128));
	ACL_OK(aclrtMalloc(&desc, size, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtMalloc(&blank, size, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtMemset(blank, size, 0, size));
	ACL_OK(aclrtSetMemcpyDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, (char *)src + 8, (char *)dst + 4, 64, NULL));
	ACL_OK(aclrtMemcpyAsyncWithDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, s));
	ACL_OK(aclrtSynchronizeStream(s));
	ACL_OK(aclrtMemcpy(back, 128, dst, 128, ACL_MEMCPY_DEVICE_TO_HOST));
	acl_test_fill(want, 128, 9);
	ck_assert_int_eq(memcmp(back + 4, want + 8, 64), 0);
	ck_assert_uint_eq(back[3], 0);
	ck_assert_uint_eq(back[68], 0);

	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsyncWithDesc(blank, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsyncWithDesc(desc, ACL_MEMCPY_HOST_TO_DEVICE, s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsyncWithDesc(NULL, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsyncWithDesc(back, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetMemcpyDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, src, dst, 8,
							    (void *)1));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetMemcpyDesc(desc, ACL_MEMCPY_DEFAULT, src, dst, 8, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetMemcpyDesc(back, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, src, dst, 8,
							    NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetMemcpyDesc((char *)desc + 40, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, src,
							    dst, 8, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetMemcpyDesc(NULL, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, src, dst, 8,
							    NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetMemcpyDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, NULL, dst, 8,
							    NULL));
	/* A descriptor whose copy leaves its source is refused when it runs. */
	ACL_OK(aclrtSetMemcpyDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, src, dst, 4096, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsyncWithDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, s));
	ACL_OK(aclrtFree(src));
	ACL_OK(aclrtFree(dst));
	ACL_OK(aclrtFree(desc));
	ACL_OK(aclrtFree(blank));
	ACL_OK(aclrtDestroyStream(s));
}
END_TEST

/* ---- batches without a failure index ------------------------------------------- */

START_TEST(memcpy_batch_v2_both_ways)
{
	unsigned char h[2][64], back[2][64];
	void *d[2], *dsts[2], *srcs[2];
	size_t max[2] = { 64, 64 }, sizes[2] = { 64, 32 }, idx[1] = { 0 };
	aclrtMemcpyBatchAttr attr;
	aclrtStream s;
	int i;

	ACL_OK(aclrtCreateStream(&s));
	memset(&attr, 0, sizeof(attr));
	attr.dstLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	attr.srcLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
	for (i = 0; i < 2; i++) {
		acl_test_fill(h[i], 64, (unsigned int)i + 20);
		ACL_OK(aclrtMalloc(&d[i], 64, ACL_MEM_MALLOC_HUGE_FIRST));
		ACL_OK(aclrtMemset(d[i], 64, 0, 64));
		dsts[i] = d[i];
		srcs[i] = h[i];
	}
	ACL_OK(aclrtMemcpyBatchV2(dsts, max, srcs, sizes, 2, &attr, idx, 1));
	memset(back, 0, sizeof(back));
	attr.dstLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
	attr.srcLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	for (i = 0; i < 2; i++) {
		dsts[i] = back[i];
		srcs[i] = d[i];
	}
	ACL_OK(aclrtMemcpyBatchAsyncV2(dsts, max, srcs, max, 2, &attr, idx, 1, s));
	ACL_OK(aclrtSynchronizeStream(s));
	ck_assert_int_eq(memcmp(back[0], h[0], 64), 0);
	ck_assert_int_eq(memcmp(back[1], h[1], 32), 0);
	ck_assert_uint_eq(back[1][32], 0);
	/* The same checks as the V1 calls. */
	sizes[1] = 65;
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatchV2(dsts, max, srcs, sizes, 2, &attr, idx, 1));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatchAsyncV2(dsts, max, srcs, max, 2, &attr, idx, 0, s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatchV2(NULL, max, srcs, max, 2, &attr, idx, 1));
	for (i = 0; i < 2; i++)
		ACL_OK(aclrtFree(d[i]));
	ACL_OK(aclrtDestroyStream(s));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_memext");
	TCase *tc;

	tc = acl_tcase("alloc", true, 60);
	tcase_add_test(tc, malloc_with_cfg_takes_cann_attributes);
	tcase_add_test(tc, malloc_with_cfg_arguments);
	tcase_add_test(tc, malloc_host_with_cfg_is_cpu_memory);
	tcase_add_test(tc, free_with_dev_sync_waits_for_the_device);
	tcase_add_test(tc, free_host_with_dev_sync_waits_for_the_device);
	tcase_add_test(tc, dev_sync_frees_need_a_pointer);
	suite_add_tcase(s, tc);

	tc = acl_tcase("query", true, 60);
	tcase_add_test(tc, pointer_attributes_by_kind_of_memory);
	tcase_add_test(tc, check_mem_type_matches_device_memory);
	tcase_add_test(tc, address_range_of_any_address_inside);
	tcase_add_test(tc, flush_and_invalidate_check_the_range);
	suite_add_tcase(s, tc);

	tc = acl_tcase("fill_copy", true, 120);
	tcase_add_test(tc, memset_d32_fills_words);
	tcase_add_test(tc, memset_d32_async_runs_in_stream_order);
	tcase_add_test(tc, memcpy_with_offset_reads_the_bases_in_stream_order);
	tcase_add_test(tc, memcpy_descriptors);
	tcase_add_test(tc, memcpy_batch_v2_both_ways);
	suite_add_tcase(s, tc);

	return acl_test_run(s);
}
