// SPDX-License-Identifier: MIT
/*
 * A CANN-style sample in plain C11: two streams ordered by an event, timing
 * with events, and the host-callback protocol (a report thread looping on
 * aclrtProcessReport, aclrtSubscribeReport, aclrtLaunchCallback,
 * aclrtUnSubscribeReport), plus aclrtLaunchHostFunc.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"

#define INFO_LOG(...) (printf("[INFO]  " __VA_ARGS__), printf("\n"))
#define ERROR_LOG(...) (printf("[ERROR] " __VA_ARGS__), printf("\n"))

#define CHECK(call)                                                                         \
	do {                                                                                \
		aclError r_ = (call);                                                       \
		if (r_ != ACL_SUCCESS) {                                                    \
			const char *m_ = aclGetRecentErrMsg();                              \
			ERROR_LOG("%s failed: %d (%s)", #call, r_, m_ ? m_ : "no message"); \
			exit(1);                                                            \
		}                                                                           \
	} while (0)

#define N (4u << 20)

static atomic_bool stop_reporting;
static atomic_int callbacks_done;
static pthread_t report_thread;
static aclrtContext context;

static void *report_main(void *arg)
{
	(void)arg;
	CHECK(aclrtSetCurrentContext(context));
	while (!atomic_load(&stop_reporting))
		(void)aclrtProcessReport(100);
	return NULL;
}

struct check {
	const unsigned char *host;
	size_t size;
	unsigned char expect;
	int ok;
};

/* Runs on the report thread once the stream reached it. */
static void verify_callback(void *arg)
{
	struct check *c = arg;
	size_t i;

	c->ok = pthread_equal(pthread_self(), report_thread);
	for (i = 0; i < c->size; i++)
		if (c->host[i] != c->expect)
			c->ok = 0;
	atomic_fetch_add(&callbacks_done, 1);
}

static void host_func(void *arg)
{
	atomic_int *counter = arg;

	atomic_fetch_add(counter, 1);
}

int main(void)
{
	aclrtStream producer, consumer;
	aclrtEvent produced, start, end;
	unsigned char *host;
	struct check check;
	atomic_int host_funcs = 0;
	void *a, *b;
	float ms = 0;

	CHECK(aclInit(NULL));
	CHECK(aclrtSetDevice(0));
	CHECK(aclrtGetCurrentContext(&context));
	CHECK(aclrtCreateStream(&producer));
	CHECK(aclrtCreateStream(&consumer));
	CHECK(aclrtCreateEvent(&produced));
	CHECK(aclrtCreateEventWithFlag(&start, ACL_EVENT_TIME_LINE));
	CHECK(aclrtCreateEventWithFlag(&end, ACL_EVENT_TIME_LINE));
	CHECK(aclrtMalloc(&a, N, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(aclrtMalloc(&b, N, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(aclrtMallocHost((void **)&host, N));

	if (pthread_create(&report_thread, NULL, report_main, NULL)) {
		ERROR_LOG("cannot start the report thread");
		return 1;
	}
	CHECK(aclrtSubscribeReport((uint64_t)report_thread, consumer));

	/* The producer fills a; the consumer copies it once the event fired. */
	CHECK(aclrtRecordEvent(start, producer));
	CHECK(aclrtMemsetAsync(a, N, 0x5c, N, producer));
	CHECK(aclrtRecordEvent(produced, producer));
	CHECK(aclrtStreamWaitEvent(consumer, produced));
	CHECK(aclrtMemcpyAsync(b, N, a, N, ACL_MEMCPY_DEVICE_TO_DEVICE, consumer));
	CHECK(aclrtMemcpyAsync(host, N, b, N, ACL_MEMCPY_DEVICE_TO_HOST, consumer));
	check.host = host;
	check.size = N;
	check.expect = 0x5c;
	check.ok = 0;
	CHECK(aclrtLaunchCallback(verify_callback, &check, ACL_CALLBACK_BLOCK, consumer));
	CHECK(aclrtLaunchHostFunc(consumer, host_func, &host_funcs));
	CHECK(aclrtRecordEvent(end, consumer));
	CHECK(aclrtSynchronizeStream(consumer));
	CHECK(aclrtSynchronizeEvent(end));

	CHECK(aclrtEventElapsedTime(&ms, start, end));
	INFO_LOG("producer -> consumer pipeline of %u bytes: %s", N, ms >= 0.0f ? "timed" : "negative time");
	INFO_LOG("callback ran on the report thread and saw the data: %s",
		 atomic_load(&callbacks_done) == 1 && check.ok ? "yes" : "no");
	INFO_LOG("host functions run: %d", atomic_load(&host_funcs));

	CHECK(aclrtUnSubscribeReport((uint64_t)report_thread, consumer));
	atomic_store(&stop_reporting, true);
	pthread_join(report_thread, NULL);

	CHECK(aclrtFreeHost(host));
	CHECK(aclrtFree(a));
	CHECK(aclrtFree(b));
	CHECK(aclrtDestroyEvent(produced));
	CHECK(aclrtDestroyEvent(start));
	CHECK(aclrtDestroyEvent(end));
	CHECK(aclrtDestroyStream(producer));
	CHECK(aclrtDestroyStream(consumer));
	CHECK(aclrtResetDevice(0));
	CHECK(aclFinalize());
	INFO_LOG("done");
	return 0;
}
