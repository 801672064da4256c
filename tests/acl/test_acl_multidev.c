// SPDX-License-Identifier: MIT
/*
 * ACL conformance with several devices (run with the module parameter devices >= 2).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "acl_test.h"

static void setup(void)
{
	ACL_OK(aclInit(NULL));
}

static void teardown(void)
{
	ACL_OK(aclFinalize());
}

START_TEST(two_devices)
{
	uint32_t count = 0;
	int32_t dev = -1;

	ACL_OK(aclrtGetDeviceCount(&count));
	ck_assert_uint_ge(count, 2);
	ACL_OK(aclrtSetDevice(1));
	ACL_OK(aclrtGetDevice(&dev));
	ck_assert_int_eq(dev, 1);
	ACL_OK(aclrtSetDevice(0));
	ACL_OK(aclrtGetDevice(&dev));
	ck_assert_int_eq(dev, 0);
	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtSetDevice((int32_t)count));
	ACL_OK(aclrtResetDevice(1));
	ACL_OK(aclrtGetDevice(&dev));
	ck_assert_int_eq(dev, 0);
	ACL_OK(aclrtResetDevice(0));
}
END_TEST

START_TEST(memory_is_per_device)
{
	size_t f0, t0, f1, t1;
	void *p0, *p1;

	ACL_OK(aclrtSetDevice(1));
	ACL_OK(aclrtMalloc(&p1, 8 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtSetDevice(0));
	ACL_OK(aclrtMalloc(&p0, 1 << 20, ACL_MEM_MALLOC_NORMAL_ONLY));
	ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &f0, &t0));
	ACL_OK(aclrtSetDevice(1));
	ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &f1, &t1));
	ck_assert_uint_eq(t0 - f0, (1 << 20) + 4096);
	ck_assert_uint_eq(t1 - f1, (8 << 20) + 4096); /* 32 spare bytes take a page */
	ACL_OK(aclrtFree(p1));
	ACL_OK(aclrtSetDevice(0));
	ACL_OK(aclrtFree(p0));
	ACL_OK(aclrtResetDevice(0));
	ACL_OK(aclrtResetDevice(0));
	ACL_OK(aclrtResetDevice(1));
	ACL_OK(aclrtResetDevice(1));
}
END_TEST

START_TEST(contexts_select_the_device)
{
	aclrtContext c0, c1;
	int32_t dev;

	ACL_OK(aclrtCreateContext(&c0, 0));
	ACL_OK(aclrtCreateContext(&c1, 1));
	ACL_OK(aclrtGetDevice(&dev));
	ck_assert_int_eq(dev, 1);
	ACL_OK(aclrtSetCurrentContext(c0));
	ACL_OK(aclrtGetDevice(&dev));
	ck_assert_int_eq(dev, 0);
	ACL_OK(aclrtDestroyContext(c1));
	ACL_OK(aclrtDestroyContext(c0));
}
END_TEST

START_TEST(copies_between_devices)
{
	unsigned char host[4096];
	void *dummy, *p0, *p1;
	aclrtStream s;

	ACL_OK(aclrtSetDevice(1));
	/* Keep the two devices' addresses apart (each device has its own
	 * address space, starting at the same place). */
	ACL_OK(aclrtMalloc(&dummy, 4 << 20, ACL_MEM_MALLOC_HUGE_ONLY));
	ACL_OK(aclrtMalloc(&p1, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtSetDevice(0));
	ACL_OK(aclrtMalloc(&p0, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	ck_assert_ptr_ne(p0, p1);
	ACL_OK(aclrtCreateStream(&s));
	acl_test_fill(host, sizeof(host), 9);
	ACL_OK(aclrtMemcpy(p0, 4096, host, 4096, ACL_MEMCPY_HOST_TO_DEVICE));
	ACL_OK(aclrtMemcpy(p1, 4096, p0, 4096, ACL_MEMCPY_INTER_DEVICE_TO_DEVICE));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy(p1, 4096, p0, 4096, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE));
	memset(host, 0, sizeof(host));
	ACL_OK(aclrtMemcpy(host, 4096, p1, 4096, ACL_MEMCPY_DEVICE_TO_HOST));
	ck_assert_int_eq(acl_test_check(host, 4096, 9), -1);
	/* Async across devices completes before returning. */
	ACL_OK(aclrtMemset(p0, 4096, 0x31, 4096));
	ACL_OK(aclrtMemcpyAsync(p1, 4096, p0, 4096, ACL_MEMCPY_DEFAULT, s));
	ACL_OK(aclrtMemcpy(host, 4096, p1, 4096, ACL_MEMCPY_DEVICE_TO_HOST));
	ck_assert_uint_eq(host[4095], 0x31);
	ACL_OK(aclrtDestroyStream(s));
	ACL_OK(aclrtFree(p1));
	ACL_OK(aclrtFree(dummy));
	ACL_OK(aclrtFree(p0));
	ACL_OK(aclrtResetDevice(0));
	ACL_OK(aclrtResetDevice(1));
}
END_TEST

START_TEST(streams_and_events_stay_on_their_device)
{
	aclrtStream s0, s1;
	aclrtContext c1;
	aclrtEvent e1;

	ACL_OK(aclrtSetDevice(1));
	ACL_OK(aclrtGetCurrentContext(&c1));
	ACL_OK(aclrtCreateStream(&s1));
	ACL_OK(aclrtCreateEvent(&e1));
	ACL_OK(aclrtRecordEvent(e1, s1));
	ACL_OK(aclrtSetDevice(0));
	ACL_OK(aclrtCreateStream(&s0));
	ACL_ERR(ACL_ERROR_RT_STREAM_CONTEXT, aclrtSynchronizeStream(s1));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtStreamWaitEvent(s0, e1));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtRecordEvent(e1, s0));
	ACL_OK(aclrtSynchronizeEvent(e1));
	ACL_OK(aclrtDestroyStream(s0));
	ACL_OK(aclrtSetCurrentContext(c1));
	ACL_OK(aclrtDestroyStream(s1));
	ACL_OK(aclrtDestroyEvent(e1));
	ACL_OK(aclrtResetDevice(1));
	ACL_OK(aclrtResetDevice(0));
}
END_TEST

START_TEST(resetting_one_device_leaves_the_other)
{
	aclrtStream s0;
	void *p0, *p1;
	int32_t dev;

	ACL_OK(aclrtSetDevice(0));
	ACL_OK(aclrtCreateStream(&s0));
	ACL_OK(aclrtMalloc(&p0, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtSetDevice(1));
	ACL_OK(aclrtMalloc(&p1, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtResetDeviceForce(1));
	ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&dev));
	ACL_OK(aclrtSetDevice(0));
	ACL_OK(aclrtMemsetAsync(p0, 4096, 1, 4096, s0));
	ACL_OK(aclrtSynchronizeStream(s0));
	ACL_OK(aclrtDestroyStream(s0));
	ACL_OK(aclrtFree(p0));
	ACL_OK(aclrtResetDevice(0));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_multidev");
	TCase *tc = acl_tcase("multidev", false, 60);

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, two_devices);
	tcase_add_test(tc, memory_is_per_device);
	tcase_add_test(tc, contexts_select_the_device);
	tcase_add_test(tc, copies_between_devices);
	tcase_add_test(tc, streams_and_events_stay_on_their_device);
	tcase_add_test(tc, resetting_one_device_leaves_the_other);
	suite_add_tcase(s, tc);
	return acl_test_run(s);
}
