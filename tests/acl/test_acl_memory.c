// SPDX-License-Identifier: MIT
/*
 * ACL conformance: device and pinned host memory, synchronous copies and
 * fills, memory information.
 */
#include <stdlib.h>
#include <string.h>

#include "acl_test.h"

#define MIB (1ul << 20)
#define VA_START (1ull << 48)
#define VA_END (1ull << 52)

static bool is_device_address(const void *p)
{
	uint64_t a = (uint64_t)(uintptr_t)p;

	return a >= VA_START && a < VA_END;
}

/* ---- allocation ------------------------------------------------------------- */

START_TEST(malloc_gives_aligned_device_addresses)
{
	static const size_t sizes[] = { 1, 31, 32, 33, 4095, 4096, 4097, MIB, 3 * MIB + 5 };
	unsigned int i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		void *p = NULL;

		ACL_OK(aclrtMalloc(&p, sizes[i], ACL_MEM_MALLOC_HUGE_FIRST));
		ck_assert_msg(is_device_address(p), "%p is not a device address", p);
		ck_assert_uint_eq((uintptr_t)p % 64, 0);
		ACL_OK(aclrtFree(p));
	}
}
END_TEST

START_TEST(malloc_accepts_every_policy)
{
	static const unsigned int policies[] = {
		ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEM_MALLOC_HUGE_ONLY, ACL_MEM_MALLOC_NORMAL_ONLY,
		ACL_MEM_MALLOC_HUGE_FIRST_P2P, ACL_MEM_MALLOC_HUGE_ONLY_P2P, ACL_MEM_MALLOC_NORMAL_ONLY_P2P,
		ACL_MEM_MALLOC_HUGE1G_ONLY, ACL_MEM_MALLOC_HUGE1G_ONLY_P2P,
		ACL_MEM_TYPE_HIGH_BAND_WIDTH | ACL_MEM_MALLOC_HUGE_FIRST,
		ACL_MEM_TYPE_LOW_BAND_WIDTH | ACL_MEM_MALLOC_NORMAL_ONLY,
		ACL_MEM_ACCESS_USER_SPACE_READONLY | ACL_MEM_MALLOC_HUGE_ONLY, 99,
	};
	unsigned int i;

	for (i = 0; i < sizeof(policies) / sizeof(policies[0]); i++) {
		void *a = NULL, *b = NULL, *c = NULL;

		ACL_OK(aclrtMalloc(&a, 100, (aclrtMemMallocPolicy)policies[i]));
		ACL_OK(aclrtMallocAlign32(&b, 3 * MIB, (aclrtMemMallocPolicy)policies[i]));
		ACL_OK(aclrtMallocCached(&c, 4096, (aclrtMemMallocPolicy)policies[i]));
		ck_assert(is_device_address(a) && is_device_address(b) && is_device_address(c));
		ACL_OK(aclrtFree(a));
		ACL_OK(aclrtFree(b));
		ACL_OK(aclrtFree(c));
	}
	ck_assert_uint_eq(acl_test_mem_used(), 0);
}
END_TEST

START_TEST(huge_policies_align_to_2mib)
{
	void *a, *b, *c;

	ACL_OK(aclrtMalloc(&a, 4096, ACL_MEM_MALLOC_HUGE_ONLY));
	ck_assert_uint_eq((uintptr_t)a % (2 * MIB), 0);
	/* HUGE_ONLY has 2 MiB granularity. */
	ck_assert_uint_eq(acl_test_mem_used(), 2 * MIB);
	ACL_OK(aclrtMalloc(&b, 4 * MIB, ACL_MEM_MALLOC_HUGE_FIRST));
	ck_assert_uint_eq((uintptr_t)b % (2 * MIB), 0);
	ACL_OK(aclrtMalloc(&c, 8 * MIB, (aclrtMemMallocPolicy)77));
	ck_assert_uint_eq((uintptr_t)c % (2 * MIB), 0);
	ACL_OK(aclrtFree(a));
	ACL_OK(aclrtFree(b));
	ACL_OK(aclrtFree(c));
}
END_TEST

START_TEST(malloc_arguments)
{
	void *p;

	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMalloc(NULL, 16, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMallocAlign32(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMallocCached(NULL, 1, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMallocHost(NULL, 16));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMallocHost(&p, 0));
}
END_TEST

START_TEST(malloc_beyond_capacity_fails_cleanly)
{
	size_t free_bytes, total;
	void *p = NULL, *q = NULL;

	ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total));
	ACL_ERR(ACL_ERROR_RT_MEMORY_ALLOCATION, aclrtMalloc(&p, total + 1, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_ERR(ACL_ERROR_RT_MEMORY_ALLOCATION, aclrtMalloc(&p, SIZE_MAX - 16, ACL_MEM_MALLOC_HUGE_FIRST));
	ck_assert_uint_eq(acl_test_mem_used(), 0);
	/* Filling the device exactly, then one byte more. */
	ACL_OK(aclrtMallocAlign32(&p, total, ACL_MEM_MALLOC_NORMAL_ONLY));
	ACL_ERR(ACL_ERROR_RT_MEMORY_ALLOCATION, aclrtMalloc(&q, 1, ACL_MEM_MALLOC_NORMAL_ONLY));
	ACL_OK(aclrtFree(p));
	ACL_OK(aclrtMalloc(&q, 1, ACL_MEM_MALLOC_NORMAL_ONLY));
	ACL_OK(aclrtFree(q));
}
END_TEST

START_TEST(memory_calls_need_a_context)
{
	void *p;
	size_t f, t;
	char buf[4];

	ACL_OK(aclrtResetDevice(0));
	ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtMalloc(&p, 16, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtMallocHost(&p, 16));
	ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetMemInfo(ACL_HBM_MEM, &f, &t));
	ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtMemcpy(buf, 4, buf + 2, 2, ACL_MEMCPY_HOST_TO_HOST));
	ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtMemset(buf, 4, 0, 4));
	ACL_OK(aclrtSetDevice(0));
}
END_TEST

START_TEST(free_rejects_what_it_did_not_allocate)
{
	void *p, *h;
	int local;

	ACL_OK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtMallocHost(&h, 4096));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtFree(NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtFree(&local));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtFree((char *)p + 64));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtFree((void *)(uintptr_t)(VA_START + 0x1000)));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtFree(h));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtFreeHost(p));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtFreeHost(NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtFreeHost(&local));
	ACL_OK(aclrtFree(p));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtFree(p));
	ACL_OK(aclrtFreeHost(h));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtFreeHost(h));
}
END_TEST

START_TEST(free_works_without_a_context)
{
	void *p;

	aclrtContext ctx, cur;

	ACL_OK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	/* Destroying the current context leaves the thread without one. */
	ACL_OK(aclrtCreateContext(&ctx, 0));
	ACL_OK(aclrtDestroyContext(ctx));
	ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetCurrentContext(&cur));
	ACL_OK(aclrtFree(p));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtFree(p));
}
END_TEST

START_TEST(mem_info_tracks_allocations)
{
	static const aclrtMemAttr attrs[] = {
		ACL_DDR_MEM, ACL_HBM_MEM, ACL_DDR_MEM_HUGE, ACL_DDR_MEM_NORMAL, ACL_HBM_MEM_HUGE,
		ACL_HBM_MEM_NORMAL, ACL_DDR_MEM_P2P_HUGE, ACL_DDR_MEM_P2P_NORMAL, ACL_HBM_MEM_P2P_HUGE,
		ACL_HBM_MEM_P2P_NORMAL, ACL_HBM_MEM_HUGE1G, ACL_HBM_MEM_P2P_HUGE1G, ACL_MEM_NORMAL,
		ACL_MEM_HUGE, ACL_MEM_HUGE1G, ACL_MEM_P2P_NORMAL, ACL_MEM_P2P_HUGE, ACL_MEM_P2P_HUGE1G,
	};
	unsigned long mib = 0;
	size_t f0, t0, f1, t1;
	unsigned int i;
	void *p;

	ck_assert(acl_test_param("mem_mib", &mib));
	for (i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		ACL_OK(aclrtGetMemInfo(attrs[i], &f0, &t0));
		ck_assert_uint_eq(t0, mib * MIB);
		ck_assert_uint_eq(f0, t0);
	}
	ACL_OK(aclrtMalloc(&p, 3 * MIB, ACL_MEM_MALLOC_NORMAL_ONLY));
	ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &f1, &t1));
	ck_assert_uint_eq(t1, t0);
	ck_assert_uint_eq(f0 - f1, 3 * MIB + 4096); /* 32 spare bytes take a page */
	ACL_OK(aclrtFree(p));
	ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &f1, &t1));
	ck_assert_uint_eq(f1, f0);
	/* Pinned host memory is not device memory. */
	ACL_OK(aclrtMallocHost(&p, 8 * MIB));
	ACL_OK(aclrtGetMemInfo(ACL_DDR_MEM, &f1, &t1));
	ck_assert_uint_eq(f1, f0);
	ACL_OK(aclrtFreeHost(p));

	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetMemInfo((aclrtMemAttr)(ACL_MEM_P2P_HUGE1G + 1), &f1, &t1));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetMemInfo((aclrtMemAttr)-1, &f1, &t1));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetMemInfo(ACL_HBM_MEM, NULL, &t1));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetMemInfo(ACL_HBM_MEM, &f1, NULL));
}
END_TEST

START_TEST(malloc_host_is_cpu_memory)
{
	unsigned char *h = NULL;

	ACL_OK(aclrtMallocHost((void **)&h, 3 * MIB + 1));
	ck_assert(!is_device_address(h));
	memset(h, 0xa5, 3 * MIB + 1);
	ck_assert_uint_eq(h[3 * MIB], 0xa5);
	ACL_OK(aclrtFreeHost(h));
}
END_TEST

/* ---- synchronous copies ------------------------------------------------------------ */

static const size_t size_classes[] = { 1, 7, 4095, 4096, 4097, MIB, 64 * MIB };

enum host_kind { PAGEABLE, PINNED };

static void *host_alloc(enum host_kind kind, size_t size)
{
	void *p = NULL;

	if (kind == PINNED)
		ACL_OK(aclrtMallocHost(&p, size));
	else
		p = malloc(size);
	ck_assert_ptr_nonnull(p);
	return p;
}

static void host_free(enum host_kind kind, void *p)
{
	if (kind == PINNED)
		ACL_OK(aclrtFreeHost(p));
	else
		free(p);
}

/* Host -> device -> device -> host, every hop checked byte for byte. */
static void round_trip(size_t size, enum host_kind hk, bool use_default)
{
	unsigned int seed = (unsigned int)size * 7 + hk;
	void *src = host_alloc(hk, size), *dst = host_alloc(hk, size);
	void *d1, *d2;

	acl_test_fill(src, size, seed);
	memset(dst, 0, size);
	ACL_OK(aclrtMalloc(&d1, size, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtMalloc(&d2, size, ACL_MEM_MALLOC_NORMAL_ONLY));
	ACL_OK(aclrtMemcpy(d1, size, src, size, use_default ? ACL_MEMCPY_DEFAULT : ACL_MEMCPY_HOST_TO_DEVICE));
	ACL_OK(aclrtMemcpy(d2, size, d1, size, use_default ? ACL_MEMCPY_DEFAULT : ACL_MEMCPY_DEVICE_TO_DEVICE));
	ACL_OK(aclrtMemcpy(dst, size, d2, size, use_default ? ACL_MEMCPY_DEFAULT : ACL_MEMCPY_DEVICE_TO_HOST));
	ck_assert_int_eq(acl_test_check(dst, size, seed), -1);
	/* And host to host. */
	memset(dst, 0, size);
	ACL_OK(aclrtMemcpy(dst, size, src, size, use_default ? ACL_MEMCPY_DEFAULT : ACL_MEMCPY_HOST_TO_HOST));
	ck_assert_int_eq(acl_test_check(dst, size, seed), -1);
	ACL_OK(aclrtFree(d1));
	ACL_OK(aclrtFree(d2));
	host_free(hk, src);
	host_free(hk, dst);
}

START_TEST(memcpy_all_directions_pageable)
{
	round_trip(size_classes[_i], PAGEABLE, false);
}
END_TEST

START_TEST(memcpy_all_directions_pinned)
{
	round_trip(size_classes[_i], PINNED, false);
}
END_TEST

START_TEST(memcpy_default_infers_direction)
{
	round_trip(size_classes[_i], _i % 2 ? PINNED : PAGEABLE, true);
}
END_TEST

START_TEST(memcpy_other_kinds)
{
	char host[64], back[64];
	void *a, *b;

	acl_test_fill(host, sizeof(host), 3);
	ACL_OK(aclrtMalloc(&a, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtMalloc(&b, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtMemcpy(a, 64, host, 64, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE));
	ACL_OK(aclrtMemcpy(b, 64, a, 64, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE));
	ACL_OK(aclrtMemcpy(a, 64, b, 64, ACL_MEMCPY_INTER_DEVICE_TO_DEVICE));
	ACL_OK(aclrtMemcpy(back, 64, a, 64, ACL_MEMCPY_DEVICE_TO_HOST));
	ck_assert_int_eq(acl_test_check(back, 64, 3), -1);
	ACL_OK(aclrtFree(a));
	ACL_OK(aclrtFree(b));
}
END_TEST

START_TEST(memcpy_kind_must_match_the_addresses)
{
	char host[64], host2[64];
	void *dev, *pinned;

	ACL_OK(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtMallocHost(&pinned, 64));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy(host, 64, dev, 64, ACL_MEMCPY_HOST_TO_DEVICE));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy(dev, 64, host, 64, ACL_MEMCPY_DEVICE_TO_HOST));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy(host, 64, host2, 64, ACL_MEMCPY_DEVICE_TO_DEVICE));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy(dev, 64, host, 64, ACL_MEMCPY_HOST_TO_HOST));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy(host, 64, dev, 64, ACL_MEMCPY_HOST_TO_HOST));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy(dev, 64, dev, 64, ACL_MEMCPY_HOST_TO_DEVICE));
	/* Pinned host memory is host memory. */
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy(pinned, 64, dev, 64, ACL_MEMCPY_DEVICE_TO_DEVICE));
	ACL_OK(aclrtMemcpy(pinned, 64, dev, 64, ACL_MEMCPY_DEVICE_TO_HOST));
	ACL_OK(aclrtMemcpy(host, 64, pinned, 64, ACL_MEMCPY_HOST_TO_HOST));
	/* Not a kind at all. */
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy(host, 64, host2, 64, (aclrtMemcpyKind)8));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy(host, 64, host2, 64, (aclrtMemcpyKind)-1));
	ACL_OK(aclrtFree(dev));
	ACL_OK(aclrtFreeHost(pinned));
}
END_TEST

START_TEST(memcpy_arguments)
{
	char host[64];
	void *dev;

	ACL_OK(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy(NULL, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy(dev, 64, NULL, 64, ACL_MEMCPY_HOST_TO_DEVICE));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy(dev, 63, host, 64, ACL_MEMCPY_HOST_TO_DEVICE));
	/* Nothing to copy is fine. */
	ACL_OK(aclrtMemcpy(dev, 64, host, 0, ACL_MEMCPY_HOST_TO_DEVICE));
	ACL_OK(aclrtFree(dev));
}
END_TEST

START_TEST(memcpy_ranges_must_stay_inside_allocations)
{
	char host[8192];
	void *dev, *pinned;

	/* aclrtMalloc(100) is usable up to 128 + 32 bytes (CANN's rounding). */
	ACL_OK(aclrtMalloc(&dev, 100, ACL_MEM_MALLOC_NORMAL_ONLY));
	ACL_OK(aclrtMemcpy(dev, 160, host, 160, ACL_MEMCPY_HOST_TO_DEVICE));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy(dev, 161, host, 161, ACL_MEMCPY_HOST_TO_DEVICE));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy((char *)dev + 159, 2, host, 2, ACL_MEMCPY_HOST_TO_DEVICE));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy(host, 2, (char *)dev + 159, 2, ACL_MEMCPY_DEVICE_TO_HOST));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy((char *)dev + 4096, 1, host, 1, ACL_MEMCPY_HOST_TO_DEVICE));
	ACL_OK(aclrtMemcpy((char *)dev + 159, 1, host, 1, ACL_MEMCPY_HOST_TO_DEVICE));
	ACL_OK(aclrtFree(dev));
	/* aclrtMallocAlign32 only rounds to 32. */
	ACL_OK(aclrtMallocAlign32(&dev, 100, ACL_MEM_MALLOC_NORMAL_ONLY));
	ACL_OK(aclrtMemcpy(dev, 128, host, 128, ACL_MEMCPY_HOST_TO_DEVICE));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy(dev, 129, host, 129, ACL_MEMCPY_HOST_TO_DEVICE));
	/* A freed allocation, or a device address never allocated. */
	ACL_OK(aclrtFree(dev));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy(dev, 1, host, 1, ACL_MEMCPY_HOST_TO_DEVICE));
	ACL_ERR(ACL_ERROR_INVALID_PARAM,
		aclrtMemcpy((void *)(uintptr_t)(VA_END - 4096), 1, host, 1, ACL_MEMCPY_DEFAULT));
	/* Pinned memory is checked the same way. */
	ACL_OK(aclrtMallocHost(&pinned, 4096));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy((char *)pinned + 4000, 200, host, 200, ACL_MEMCPY_HOST_TO_HOST));
	ACL_OK(aclrtFreeHost(pinned));
}
END_TEST

START_TEST(memcpy_interior_and_overlapping)
{
	unsigned char host[4096], back[4096];
	unsigned char *dev;
	unsigned int i;

	for (i = 0; i < sizeof(host); i++)
		host[i] = (unsigned char)i;
	ACL_OK(aclrtMalloc((void **)&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtMemcpy(dev, 4096, host, 4096, ACL_MEMCPY_HOST_TO_DEVICE));
	/* Overlapping device-to-device copy behaves like memmove. */
	ACL_OK(aclrtMemcpy(dev + 1, 4095, dev, 4000, ACL_MEMCPY_DEVICE_TO_DEVICE));
	ACL_OK(aclrtMemcpy(back, 4096, dev, 4096, ACL_MEMCPY_DEVICE_TO_HOST));
	ck_assert_uint_eq(back[0], 0);
	for (i = 0; i < 4000; i++)
		ck_assert_uint_eq(back[i + 1], (unsigned char)i);
	ck_assert_uint_eq(back[4001], (unsigned char)4001);
	ACL_OK(aclrtMemcpy(back, 10, dev + 2000, 10, ACL_MEMCPY_DEVICE_TO_HOST));
	ck_assert_uint_eq(back[0], (unsigned char)1999);
	ACL_OK(aclrtFree(dev));
}
END_TEST

START_TEST(memset_device_pinned_and_pageable)
{
	unsigned char *pinned, pageable[256], back[4096];
	void *dev;
	unsigned int i;

	ACL_OK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtMemset(dev, 4096, 0x5a, 4096));
	ACL_OK(aclrtMemset((char *)dev + 100, 3996, 0x1ff, 10)); /* low byte only */
	ACL_OK(aclrtMemcpy(back, 4096, dev, 4096, ACL_MEMCPY_DEVICE_TO_HOST));
	for (i = 0; i < 4096; i++)
		ck_assert_uint_eq(back[i], i >= 100 && i < 110 ? 0xff : 0x5a);
	ACL_OK(aclrtMallocHost((void **)&pinned, 256));
	ACL_OK(aclrtMemset(pinned, 256, 7, 256));
	ck_assert_uint_eq(pinned[255], 7);
	ACL_OK(aclrtMemset(pageable, 256, 9, 200));
	ck_assert_uint_eq(pageable[199], 9);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemset(dev, 10, 0, 11));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemset(NULL, 10, 0, 10));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemset((char *)dev + 4000, 8192, 0, 8192));
	ACL_OK(aclrtMemset(dev, 10, 0, 0));
	ACL_OK(aclrtFree(dev));
	ACL_OK(aclrtFreeHost(pinned));
}
END_TEST

START_TEST(many_allocations_resolve)
{
	enum { N = 2000 };
	void **ptrs = calloc(N, sizeof(*ptrs));
	unsigned int i;

	for (i = 0; i < N; i++) {
		uint32_t v = i;

		ACL_OK(aclrtMalloc(&ptrs[i], 64, ACL_MEM_MALLOC_NORMAL_ONLY));
		ACL_OK(aclrtMemcpy((char *)ptrs[i] + 60, 4, &v, 4, ACL_MEMCPY_HOST_TO_DEVICE));
	}
	for (i = 0; i < N; i += 2)
		ACL_OK(aclrtFree(ptrs[i]));
	for (i = 1; i < N; i += 2) {
		uint32_t v = 0;

		ACL_OK(aclrtMemcpy(&v, 4, (char *)ptrs[i] + 60, 4, ACL_MEMCPY_DEVICE_TO_HOST));
		ck_assert_uint_eq(v, i);
		ACL_OK(aclrtFree(ptrs[i]));
	}
	ck_assert_uint_eq(acl_test_mem_used(), 0);
	free(ptrs);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_memory");
	unsigned int nsizes = sizeof(size_classes) / sizeof(size_classes[0]);
	TCase *tc;

	tc = acl_tcase("alloc", true, 60);
	tcase_add_test(tc, malloc_gives_aligned_device_addresses);
	tcase_add_test(tc, malloc_accepts_every_policy);
	tcase_add_test(tc, huge_policies_align_to_2mib);
	tcase_add_test(tc, malloc_arguments);
	tcase_add_test(tc, malloc_beyond_capacity_fails_cleanly);
	tcase_add_test(tc, memory_calls_need_a_context);
	tcase_add_test(tc, free_rejects_what_it_did_not_allocate);
	tcase_add_test(tc, free_works_without_a_context);
	tcase_add_test(tc, mem_info_tracks_allocations);
	tcase_add_test(tc, malloc_host_is_cpu_memory);
	tcase_add_test(tc, many_allocations_resolve);
	suite_add_tcase(s, tc);

	tc = acl_tcase("copy", true, 120);
	tcase_add_loop_test(tc, memcpy_all_directions_pageable, 0, (int)nsizes);
	tcase_add_loop_test(tc, memcpy_all_directions_pinned, 0, (int)nsizes);
	tcase_add_loop_test(tc, memcpy_default_infers_direction, 0, (int)nsizes);
	tcase_add_test(tc, memcpy_other_kinds);
	tcase_add_test(tc, memcpy_kind_must_match_the_addresses);
	tcase_add_test(tc, memcpy_arguments);
	tcase_add_test(tc, memcpy_ranges_must_stay_inside_allocations);
	tcase_add_test(tc, memcpy_interior_and_overlapping);
	tcase_add_test(tc, memset_device_pinned_and_pageable);
	suite_add_tcase(s, tc);

	return acl_test_run(s);
}
