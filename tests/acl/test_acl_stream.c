// SPDX-License-Identifier: MIT
/*
 * ACL conformance: streams, async copies and fills, stream value writes and
 * waits, cross-stream waits on events, device synchronisation.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "acl_optest.h"
#include "acl_test.h"

#define MIB (1ul << 20)

/* ---- stream lifecycle ------------------------------------------------------- */

START_TEST(create_and_destroy_streams)
{
	aclrtStream s = NULL, def;
	uint32_t prio;

	ACL_OK(aclrtCreateStream(&s));
	ck_assert_ptr_nonnull(s);
	ACL_OK(aclrtCtxGetCurrentDefaultStream(&def));
	ck_assert_ptr_ne(s, def);
	ACL_OK(aclrtSynchronizeStream(s));
	ACL_OK(aclrtDestroyStream(s));
	for (prio = 0; prio <= 8; prio++) {
		ACL_OK(aclrtCreateStreamWithConfig(&s, prio, prio % 2 ? ACL_STREAM_FAST_LAUNCH : 0));
		ACL_OK(aclrtDestroyStream(s));
	}
	ACL_OK(aclrtCreateStreamWithConfig(&s, 1000, ACL_STREAM_FAST_SYNC | ACL_STREAM_HUGE | 0x8000u));
	ACL_OK(aclrtDestroyStreamForce(s));
}
END_TEST

START_TEST(stream_arguments)
{
	aclrtStream s, other, def;
	aclrtContext ctx, mine;
	aclrtStreamStatus st;
	int local;

	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateStream(NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateStreamWithConfig(NULL, 0, 0));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDestroyStream(NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDestroyStreamForce(NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDestroyStream(&local));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSynchronizeStream(&local));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtStreamQuery(NULL, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtStreamQuery(&local, &st));
	ACL_ERR(ACL_ERROR_RT_PARAM_INVALID, aclrtSynchronizeStreamWithTimeout(NULL, -2));
	ACL_OK(aclrtCtxGetCurrentDefaultStream(&def));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDestroyStream(def));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDestroyStreamForce(def));

	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtDestroyStream(s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDestroyStream(s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSynchronizeStream(s));

	/* Streams belong to their context. */
	ACL_OK(aclrtGetCurrentContext(&mine));
	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtCreateContext(&ctx, 0));
	ACL_OK(aclrtCreateStream(&other));
	ACL_ERR(ACL_ERROR_RT_STREAM_CONTEXT, aclrtDestroyStream(s));
	ACL_ERR(ACL_ERROR_RT_STREAM_CONTEXT, aclrtSynchronizeStream(s));
	ACL_ERR(ACL_ERROR_RT_STREAM_CONTEXT, aclrtStreamQuery(s, &st));
	ACL_OK(aclrtSetCurrentContext(mine));
	ACL_OK(aclrtDestroyStream(s));
	/* Destroying a context destroys its streams. */
	ACL_OK(aclrtDestroyContext(ctx));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDestroyStream(other));
}
END_TEST

START_TEST(streams_need_a_context)
{
	aclrtStream s;

	ACL_OK(aclrtResetDevice(0));
	ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtCreateStream(&s));
	ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtSynchronizeStream(NULL));
	ACL_OK(aclrtSetDevice(0));
}
END_TEST

START_TEST(synchronize_and_query_follow_the_work)
{
	struct acl_gate g;
	aclrtStreamStatus st = ACL_STREAM_STATUS_RESERVED;
	aclrtStream s;

	acl_gate_init(&g);
	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtStreamQuery(s, &st));
	ck_assert_int_eq(st, ACL_STREAM_STATUS_COMPLETE);
	acl_gate_block(&g, s, 1);
	ACL_OK(aclrtStreamQuery(s, &st));
	ck_assert_int_eq(st, ACL_STREAM_STATUS_NOT_READY);
	ACL_ERR(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, aclrtSynchronizeStreamWithTimeout(s, 50));
	ACL_ERR(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, aclrtSynchronizeStreamWithTimeout(s, 0));
	ACL_ERR(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, aclrtSynchronizeDeviceWithTimeout(50));
	acl_gate_open(&g, 1);
	ACL_OK(aclrtSynchronizeStreamWithTimeout(s, -1));
	ACL_OK(aclrtStreamQuery(s, &st));
	ck_assert_int_eq(st, ACL_STREAM_STATUS_COMPLETE);
	ACL_OK(aclrtSynchronizeStreamWithTimeout(s, 0));
	ACL_OK(aclrtDestroyStream(s));
	acl_gate_fini(&g);
}
END_TEST

START_TEST(synchronize_device_waits_for_every_stream)
{
	struct acl_gate g;
	aclrtStream s[3];
	uint64_t *word;
	unsigned int i;

	acl_gate_init(&g);
	ACL_OK(aclrtMallocHost((void **)&word, 8));
	*word = 0;
	for (i = 0; i < 3; i++) {
		ACL_OK(aclrtCreateStream(&s[i]));
		acl_gate_block(&g, s[i], 1);
	}
	ACL_OK(aclrtValueWrite(word, 42, 0, s[2]));
	ACL_ERR(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, aclrtSynchronizeDeviceWithTimeout(20));
	ck_assert_uint_eq(*word, 0);
	acl_gate_open(&g, 1);
	ACL_OK(aclrtSynchronizeDevice());
	ck_assert_uint_eq(*word, 42);
	for (i = 0; i < 3; i++)
		ACL_OK(aclrtDestroyStream(s[i]));
	ACL_OK(aclrtFreeHost(word));
	acl_gate_fini(&g);
}
END_TEST

/* Destroy waits for the work; DestroyForce does not. */
START_TEST(destroy_waits_destroy_force_does_not)
{
	struct acl_gate g;
	aclrtStream s;
	uint64_t *word;

	acl_gate_init(&g);
	ACL_OK(aclrtMallocHost((void **)&word, 8));
	*word = 0;
	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtValueWrite(word, 7, 0, s));
	ACL_OK(aclrtDestroyStream(s));
	ck_assert_uint_eq(*word, 7);

	ACL_OK(aclrtCreateStream(&s));
	acl_gate_block(&g, s, 1);
	ACL_OK(aclrtValueWrite(word, 8, 0, s));
	ACL_OK(aclrtDestroyStreamForce(s));
	acl_gate_open(&g, 1);
	acl_test_sleep_ms(50);
	ck_assert_uint_eq(*word, 7);
	ACL_OK(aclrtFreeHost(word));
	acl_gate_fini(&g);
}
END_TEST

/* ---- async copies --------------------------------------------------------------- */

static const size_t size_classes[] = { 1, 7, 4095, 4096, 4097, MIB, 64 * MIB };

static void *host_alloc(bool pinned, size_t size)
{
	void *p = NULL;

	if (pinned)
		ACL_OK(aclrtMallocHost(&p, size));
	else
		p = malloc(size);
	ck_assert_ptr_nonnull(p);
	return p;
}

static void host_free(bool pinned, void *p)
{
	if (pinned)
		ACL_OK(aclrtFreeHost(p));
	else
		free(p);
}

static void async_round_trip(size_t size, bool pinned, bool use_default, bool default_stream)
{
	unsigned int seed = (unsigned int)size + pinned * 3 + use_default * 5;
	void *src = host_alloc(pinned, size), *dst = host_alloc(pinned, size);
	aclrtStream s = NULL;
	void *d1, *d2;

	if (!default_stream)
		ACL_OK(aclrtCreateStream(&s));
	acl_test_fill(src, size, seed);
	memset(dst, 0, size);
	ACL_OK(aclrtMalloc(&d1, size, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtMalloc(&d2, size, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtMemcpyAsync(d1, size, src, size, use_default ? ACL_MEMCPY_DEFAULT : ACL_MEMCPY_HOST_TO_DEVICE,
				s));
	ACL_OK(aclrtMemcpyAsync(d2, size, d1, size,
				use_default ? ACL_MEMCPY_DEFAULT : ACL_MEMCPY_DEVICE_TO_DEVICE, s));
	ACL_OK(aclrtMemcpyAsync(dst, size, d2, size,
				use_default ? ACL_MEMCPY_DEFAULT : ACL_MEMCPY_DEVICE_TO_HOST, s));
	ACL_OK(aclrtSynchronizeStream(s));
	ck_assert_int_eq(acl_test_check(dst, size, seed), -1);
	memset(dst, 0, size);
	ACL_OK(aclrtMemcpyAsync(dst, size, src, size, use_default ? ACL_MEMCPY_DEFAULT : ACL_MEMCPY_HOST_TO_HOST,
				s));
	ACL_OK(aclrtSynchronizeStream(s));
	ck_assert_int_eq(acl_test_check(dst, size, seed), -1);
	ACL_OK(aclrtFree(d1));
	ACL_OK(aclrtFree(d2));
	host_free(pinned, src);
	host_free(pinned, dst);
	if (s)
		ACL_OK(aclrtDestroyStream(s));
}

START_TEST(memcpy_async_pageable)
{
	async_round_trip(size_classes[_i], false, false, false);
}
END_TEST

START_TEST(memcpy_async_pinned)
{
	async_round_trip(size_classes[_i], true, false, false);
}
END_TEST

START_TEST(memcpy_async_default_kind_and_stream)
{
	async_round_trip(size_classes[_i], _i % 2, true, true);
}
END_TEST

/* Pinned memory: the call only queues the copy. */
START_TEST(memcpy_async_pinned_is_asynchronous)
{
	struct acl_gate g;
	aclrtStreamStatus st;
	unsigned char *pinned;
	aclrtStream s;
	void *dev;

	acl_gate_init(&g);
	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtMallocHost((void **)&pinned, 4096));
	dev = acl_test_device_pattern(4096, 11);
	memset(pinned, 0, 4096);
	acl_gate_block(&g, s, 1);
	ACL_OK(aclrtMemcpyAsync(pinned, 4096, dev, 4096, ACL_MEMCPY_DEVICE_TO_HOST, s));
	ACL_OK(aclrtStreamQuery(s, &st));
	ck_assert_int_eq(st, ACL_STREAM_STATUS_NOT_READY);
	ck_assert_uint_eq(pinned[100], 0);
	acl_gate_open(&g, 1);
	ACL_OK(aclrtSynchronizeStream(s));
	ck_assert_int_eq(acl_test_check(pinned, 4096, 11), -1);
	ACL_OK(aclrtFree(dev));
	ACL_OK(aclrtFreeHost(pinned));
	ACL_OK(aclrtDestroyStream(s));
	acl_gate_fini(&g);
}
END_TEST

struct opener_arg {
	struct acl_gate *g;
	aclrtContext ctx;
};

static void *open_later(void *arg)
{
	struct opener_arg *a = arg;

	ACL_OK(aclrtSetCurrentContext(a->ctx));
	acl_test_sleep_ms(100);
	acl_gate_open(a->g, 1);
	return NULL;
}

/*
 * Pageable memory: the call returns after the copy is done, in stream order:
 * queued after a blocked fill, it waits for the fill and copies its result.
 */
START_TEST(memcpy_async_pageable_completes_in_order)
{
	struct opener_arg arg;
	unsigned char host[4096];
	struct acl_gate g;
	aclrtStream s;
	pthread_t t;
	void *dev;
	unsigned int i;

	acl_gate_init(&g);
	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtMemset(dev, 4096, 1, 4096));
	acl_gate_block(&g, s, 1);
	ACL_OK(aclrtMemsetAsync(dev, 4096, 0x77, 4096, s));
	memset(host, 0, sizeof(host));
	arg.g = &g;
	ACL_OK(aclrtGetCurrentContext(&arg.ctx));
	ck_assert_int_eq(pthread_create(&t, NULL, open_later, &arg), 0);
	ACL_OK(aclrtMemcpyAsync(host, 4096, dev, 4096, ACL_MEMCPY_DEVICE_TO_HOST, s));
	/* No synchronisation: the data is there. */
	for (i = 0; i < 4096; i++)
		ck_assert_uint_eq(host[i], 0x77);
	pthread_join(t, NULL);
	/* And the host source may be reused at once. */
	acl_test_fill(host, 4096, 5);
	ACL_OK(aclrtMemcpyAsync(dev, 4096, host, 4096, ACL_MEMCPY_HOST_TO_DEVICE, s));
	memset(host, 0, sizeof(host));
	ACL_OK(aclrtSynchronizeStream(s));
	ACL_OK(aclrtMemcpy(host, 4096, dev, 4096, ACL_MEMCPY_DEVICE_TO_HOST));
	ck_assert_int_eq(acl_test_check(host, 4096, 5), -1);
	ACL_OK(aclrtFree(dev));
	ACL_OK(aclrtDestroyStream(s));
	acl_gate_fini(&g);
}
END_TEST

START_TEST(memcpy_async_arguments)
{
	char host[64];
	aclrtStream s;
	void *dev;
	int local;

	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsync(NULL, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE, s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsync(dev, 64, NULL, 64, ACL_MEMCPY_HOST_TO_DEVICE, s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsync(dev, 32, host, 64, ACL_MEMCPY_HOST_TO_DEVICE, s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsync(dev, 64, host, 64, ACL_MEMCPY_DEVICE_TO_HOST, s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsync(dev, 64, host, 64, (aclrtMemcpyKind)42, s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsync(dev, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE, &local));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsync((char *)dev + 64, 64, host, 64, ACL_MEMCPY_DEFAULT, s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemsetAsync(NULL, 64, 0, 64, s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemsetAsync(dev, 63, 0, 64, s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemsetAsync(dev, 128, 0, 128, s));
	ACL_OK(aclrtMemcpyAsync(dev, 64, host, 0, ACL_MEMCPY_HOST_TO_DEVICE, s));
	ACL_OK(aclrtFree(dev));
	ACL_OK(aclrtDestroyStream(s));
}
END_TEST

START_TEST(memset_async)
{
	unsigned char *pinned, host[8192];
	aclrtStream s;
	void *dev;
	unsigned int i;

	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtMalloc(&dev, 8192, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtMallocHost((void **)&pinned, 8192));
	ACL_OK(aclrtMemsetAsync(dev, 8192, 0x33, 8192, s));
	ACL_OK(aclrtMemsetAsync((char *)dev + 4095, 4097, 0x44, 3, s));
	ACL_OK(aclrtMemsetAsync(pinned, 8192, 0x55, 8192, s));
	ACL_OK(aclrtMemcpyAsync(host, 8192, dev, 8192, ACL_MEMCPY_DEVICE_TO_HOST, s));
	ACL_OK(aclrtSynchronizeStream(s));
	for (i = 0; i < 8192; i++) {
		ck_assert_uint_eq(host[i], i >= 4095 && i < 4098 ? 0x44 : 0x33);
		ck_assert_uint_eq(pinned[i], 0x55);
	}
	memset(host, 0, sizeof(host));
	ACL_OK(aclrtMemsetAsync(host, sizeof(host), 0x66, 100, NULL));
	ck_assert_uint_eq(host[99], 0x66);
	ck_assert_uint_eq(host[100], 0);
	ACL_OK(aclrtFree(dev));
	ACL_OK(aclrtFreeHost(pinned));
	ACL_OK(aclrtDestroyStream(s));
}
END_TEST

/* Work on one stream runs in order: copies read what earlier tasks wrote. */
START_TEST(stream_order_is_kept)
{
	enum { ROUNDS = 50 };
	unsigned char *out;
	aclrtStream s;
	void *a, *b;
	unsigned int i;

	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtMalloc(&a, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtMalloc(&b, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtMallocHost((void **)&out, ROUNDS));
	for (i = 0; i < ROUNDS; i++) {
		ACL_OK(aclrtMemsetAsync(a, 4096, (int)i, 4096, s));
		ACL_OK(aclrtMemcpyAsync(b, 4096, a, 4096, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
		ACL_OK(aclrtMemcpyAsync(out + i, 1, (char *)b + i * 50, 1, ACL_MEMCPY_DEVICE_TO_HOST, s));
	}
	ACL_OK(aclrtSynchronizeStream(s));
	for (i = 0; i < ROUNDS; i++)
		ck_assert_uint_eq(out[i], i);
	ACL_OK(aclrtFree(a));
	ACL_OK(aclrtFree(b));
	ACL_OK(aclrtFreeHost(out));
	ACL_OK(aclrtDestroyStream(s));
}
END_TEST

/* ---- value write and wait --------------------------------------------------------- */

START_TEST(value_write_and_wait)
{
	uint64_t *word;
	aclrtStream a, b;
	void *dev;
	uint64_t v = 0;

	ACL_OK(aclrtCreateStream(&a));
	ACL_OK(aclrtCreateStream(&b));
	ACL_OK(aclrtMallocHost((void **)&word, 16));
	ACL_OK(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	word[0] = word[1] = 0;

	ACL_OK(aclrtValueWrite((char *)dev + 8, 0x1122334455667788ull, 0, a));
	ACL_OK(aclrtSynchronizeStream(a));
	ACL_OK(aclrtMemcpy(&v, 8, (char *)dev + 8, 8, ACL_MEMCPY_DEVICE_TO_HOST));
	ck_assert_uint_eq(v, 0x1122334455667788ull);

	/* a waits for b's write, then writes the second word. */
	ACL_OK(aclrtValueWait(&word[0], 5, ACL_VALUE_WAIT_EQ, a));
	ACL_OK(aclrtValueWrite(&word[1], 1, 0, a));
	acl_test_sleep_ms(20);
	ck_assert_uint_eq(word[1], 0);
	ACL_OK(aclrtValueWrite(&word[0], 4, 0, b));
	ACL_OK(aclrtSynchronizeStream(b));
	acl_test_sleep_ms(20);
	ck_assert_uint_eq(word[1], 0);
	ACL_OK(aclrtValueWrite(&word[0], 5, 0, b));
	ACL_OK(aclrtSynchronizeStream(a));
	ck_assert_uint_eq(word[1], 1);

	/* GEQ, AND, NOR. */
	ACL_OK(aclrtValueWait(&word[0], 3, ACL_VALUE_WAIT_GEQ, a));
	ACL_OK(aclrtValueWait(&word[0], 4, ACL_VALUE_WAIT_AND, a));
	ACL_OK(aclrtValueWait(&word[0], 0xf0, ACL_VALUE_WAIT_NOR, a));
	ACL_OK(aclrtValueWrite(&word[1], 2, 0, a));
	ACL_OK(aclrtSynchronizeStream(a));
	ck_assert_uint_eq(word[1], 2);
	ACL_OK(aclrtValueWait(&word[0], 2, ACL_STREAM_WAIT_VALUE_AND, a));
	ACL_OK(aclrtValueWrite(&word[1], 3, 0, a));
	acl_test_sleep_ms(20);
	ck_assert_uint_eq(word[1], 2);
	ACL_OK(aclrtValueWrite(&word[0], 7, 0, b));
	ACL_OK(aclrtSynchronizeStream(a));
	ck_assert_uint_eq(word[1], 3);

	ACL_OK(aclrtFree(dev));
	ACL_OK(aclrtFreeHost(word));
	ACL_OK(aclrtDestroyStream(a));
	ACL_OK(aclrtDestroyStream(b));
}
END_TEST

START_TEST(value_arguments)
{
	uint64_t host = 0;
	aclrtStream s;
	void *dev;

	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtValueWrite(NULL, 1, 0, s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtValueWrite(dev, 1, 1, s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtValueWrite((char *)dev + 4, 1, 0, s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtValueWrite(&host, 1, 0, s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtValueWrite((char *)dev + 4096, 1, 0, s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtValueWait(NULL, 1, ACL_VALUE_WAIT_EQ, s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtValueWait(dev, 1, 4, s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtValueWait((char *)dev + 1, 1, ACL_VALUE_WAIT_EQ, s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtValueWait(&host, 1, ACL_VALUE_WAIT_EQ, s));
	ACL_OK(aclrtFree(dev));
	ACL_OK(aclrtDestroyStream(s));
}
END_TEST

/*
 * A stream waiting for a word that the host writes with a synchronous
 * aclrtMemcpy or aclrtMemset goes on at once. The kernel polls nothing:
 * the runtime announces each CPU write into device-addressable memory with
 * one SIGNAL of the range written; without it the wait would last until
 * the job timeout (10 s by default) and these waits would time out.
 */
START_TEST(host_writes_release_value_waits)
{
	const uint64_t one = 1, three = 3;
	uint64_t *host, v = 0;
	aclrtStream s;
	void *dev;

	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtMallocHost((void **)&host, 16));
	host[0] = host[1] = 0;
	ACL_OK(aclrtMemset(dev, 64, 0, 64));

	/* Device memory, written by a copy from the host. */
	ACL_OK(aclrtValueWait(dev, 1, ACL_VALUE_WAIT_EQ, s));
	ACL_OK(aclrtValueWrite((char *)dev + 8, 7, 0, s));
	acl_test_sleep_ms(20);
	ACL_OK(aclrtMemcpy(&v, 8, (char *)dev + 8, 8, ACL_MEMCPY_DEVICE_TO_HOST));
	ck_assert_uint_eq(v, 0);	/* still waiting */
	ioctl_count_start();
	ACL_OK(aclrtMemcpy(dev, 8, &one, 8, ACL_MEMCPY_HOST_TO_DEVICE));
	ioctl_count_stop();
	ck_assert_uint_eq(ioctl_count(NR_SIGNAL), 1);
	ACL_OK(aclrtSynchronizeStreamWithTimeout(s, 5000));
	ACL_OK(aclrtMemcpy(&v, 8, (char *)dev + 8, 8, ACL_MEMCPY_DEVICE_TO_HOST));
	ck_assert_uint_eq(v, 7);

	/* By a memset: every byte 0x01. */
	ACL_OK(aclrtValueWait((char *)dev + 16, 0x0101010101010101ull, ACL_VALUE_WAIT_EQ, s));
	ACL_OK(aclrtValueWrite((char *)dev + 24, 8, 0, s));
	ACL_OK(aclrtMemset((char *)dev + 16, 8, 1, 8));
	ACL_OK(aclrtSynchronizeStreamWithTimeout(s, 5000));
	ACL_OK(aclrtMemcpy(&v, 8, (char *)dev + 24, 8, ACL_MEMCPY_DEVICE_TO_HOST));
	ck_assert_uint_eq(v, 8);

	/* Pinned host memory, written by a copy. */
	ACL_OK(aclrtValueWait(&host[0], 3, ACL_VALUE_WAIT_GEQ, s));
	ACL_OK(aclrtValueWrite(&host[1], 9, 0, s));
	ACL_OK(aclrtMemcpy(&host[0], 8, &three, 8, ACL_MEMCPY_HOST_TO_HOST));
	ACL_OK(aclrtSynchronizeStreamWithTimeout(s, 5000));
	ck_assert_uint_eq(host[1], 9);

	/* Copies into pageable memory announce nothing. */
	ioctl_count_start();
	ACL_OK(aclrtMemcpy(&v, 8, dev, 8, ACL_MEMCPY_DEVICE_TO_HOST));
	ioctl_count_stop();
	ck_assert_uint_eq(ioctl_count(NR_SIGNAL), 0);

	ACL_OK(aclrtFreeHost(host));
	ACL_OK(aclrtFree(dev));
	ACL_OK(aclrtDestroyStream(s));
}
END_TEST

/* ---- stream waits on events ----------------------------------------------------- */

START_TEST(stream_waits_for_an_event)
{
	aclrtEventWaitStatus ws;
	struct acl_gate g;
	aclrtStream a, b;
	aclrtEvent ev;
	uint64_t *word;

	acl_gate_init(&g);
	ACL_OK(aclrtCreateStream(&a));
	ACL_OK(aclrtCreateStream(&b));
	ACL_OK(aclrtCreateEvent(&ev));
	ACL_OK(aclrtMallocHost((void **)&word, 8));
	*word = 0;

	ACL_OK(aclrtQueryEventWaitStatus(ev, &ws));
	ck_assert_int_eq(ws, ACL_EVENT_WAIT_STATUS_COMPLETE);
	acl_gate_block(&g, a, 1);
	ACL_OK(aclrtRecordEvent(ev, a));
	ACL_OK(aclrtStreamWaitEvent(b, ev));
	ACL_OK(aclrtValueWrite(word, 9, 0, b));
	ACL_OK(aclrtQueryEventWaitStatus(ev, &ws));
	ck_assert_int_eq(ws, ACL_EVENT_WAIT_STATUS_NOT_READY);
	ACL_ERR(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, aclrtSynchronizeStreamWithTimeout(b, 50));
	ck_assert_uint_eq(*word, 0);
	acl_gate_open(&g, 1);
	ACL_OK(aclrtSynchronizeStream(b));
	ck_assert_uint_eq(*word, 9);
	ACL_OK(aclrtQueryEventWaitStatus(ev, &ws));
	ck_assert_int_eq(ws, ACL_EVENT_WAIT_STATUS_COMPLETE);

	/* NULL means the default stream; an unrecorded event does not block. */
	ACL_OK(aclrtResetEvent(ev, a));
	ACL_OK(aclrtStreamWaitEvent(NULL, ev));
	ACL_OK(aclrtSynchronizeStream(NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtStreamWaitEvent(b, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtStreamWaitEvent(b, word));

	ACL_OK(aclrtDestroyEvent(ev));
	ACL_OK(aclrtFreeHost(word));
	ACL_OK(aclrtDestroyStream(a));
	ACL_OK(aclrtDestroyStream(b));
	acl_gate_fini(&g);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_stream");
	unsigned int nsizes = sizeof(size_classes) / sizeof(size_classes[0]);
	TCase *tc;

	tc = acl_tcase("streams", true, 60);
	tcase_add_test(tc, create_and_destroy_streams);
	tcase_add_test(tc, stream_arguments);
	tcase_add_test(tc, streams_need_a_context);
	tcase_add_test(tc, synchronize_and_query_follow_the_work);
	tcase_add_test(tc, synchronize_device_waits_for_every_stream);
	tcase_add_test(tc, destroy_waits_destroy_force_does_not);
	tcase_add_test(tc, stream_waits_for_an_event);
	suite_add_tcase(s, tc);

	tc = acl_tcase("async", true, 120);
	tcase_add_loop_test(tc, memcpy_async_pageable, 0, (int)nsizes);
	tcase_add_loop_test(tc, memcpy_async_pinned, 0, (int)nsizes);
	tcase_add_loop_test(tc, memcpy_async_default_kind_and_stream, 0, (int)nsizes);
	tcase_add_test(tc, memcpy_async_pinned_is_asynchronous);
	tcase_add_test(tc, memcpy_async_pageable_completes_in_order);
	tcase_add_test(tc, memcpy_async_arguments);
	tcase_add_test(tc, memset_async);
	tcase_add_test(tc, stream_order_is_kept);
	suite_add_tcase(s, tc);

	tc = acl_tcase("values", true, 60);
	tcase_add_test(tc, value_write_and_wait);
	tcase_add_test(tc, value_arguments);
	tcase_add_test(tc, host_writes_release_value_waits);
	suite_add_tcase(s, tc);

	return acl_test_run(s);
}
