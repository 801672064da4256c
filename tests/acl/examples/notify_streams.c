// SPDX-License-Identifier: MIT
/*
 * A CANN-style sample in plain C11: a producer stream and a consumer
 * stream handing data over with a notify. The producer fills a buffer and
 * records the notify; the consumer waits for it (and resets it) before it
 * copies the buffer on. Both are queued before either runs; the host
 * synchronises once at the end. Also prints the streams' IDs, priorities
 * and flags.
 */
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

#define SIZE 4096
#define ROUNDS 3

int main(void)
{
	aclrtStream producer, consumer;
	aclrtNotify ready;
	unsigned char *host;
	void *src, *dst;
	uint32_t prio, flags, nid;
	int32_t pid, cid;

	CHECK(aclInit(NULL));
	CHECK(aclrtSetDevice(0));
	CHECK(aclrtCreateStreamWithConfig(&producer, 1, 0));
	CHECK(aclrtCreateStream(&consumer));
	CHECK(aclrtStreamGetId(producer, &pid));
	CHECK(aclrtStreamGetId(consumer, &cid));
	CHECK(aclrtStreamGetPriority(producer, &prio));
	CHECK(aclrtStreamGetFlags(producer, &flags));
	INFO_LOG("producer stream id %d priority %u flags 0x%x, consumer stream id %d", (int)pid, prio, flags,
		 (int)cid);

	CHECK(aclrtCreateNotify(&ready, 0));
	CHECK(aclrtGetNotifyId(ready, &nid));
	INFO_LOG("notify id %u", nid);
	CHECK(aclrtMalloc(&src, SIZE, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(aclrtMalloc(&dst, SIZE, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(aclrtMallocHost((void **)&host, SIZE));

	for (int round = 1; round <= ROUNDS; round++) {
		/* Consumer first: it waits on the device, not on the host. */
		CHECK(aclrtWaitAndResetNotify(ready, consumer, 0));
		CHECK(aclrtMemcpyAsync(dst, SIZE, src, SIZE, ACL_MEMCPY_DEVICE_TO_DEVICE, consumer));
		CHECK(aclrtMemsetAsync(src, SIZE, round, SIZE, producer));
		CHECK(aclrtRecordNotify(ready, producer));
		CHECK(aclrtSynchronizeStream(consumer));
		CHECK(aclrtMemcpy(host, SIZE, dst, SIZE, ACL_MEMCPY_DEVICE_TO_HOST));
		for (int i = 0; i < SIZE; i++) {
			if (host[i] != round) {
				ERROR_LOG("round %d: byte %d is %u", round, i, host[i]);
				return 1;
			}
		}
		INFO_LOG("round %d: the consumer copied the producer's %d bytes of %d", round, SIZE, round);
		CHECK(aclrtSynchronizeStream(producer));
	}

	CHECK(aclrtFreeHost(host));
	CHECK(aclrtFree(dst));
	CHECK(aclrtFree(src));
	CHECK(aclrtDestroyNotify(ready));
	CHECK(aclrtDestroyStream(consumer));
	CHECK(aclrtDestroyStream(producer));
	CHECK(aclrtResetDevice(0));
	CHECK(aclFinalize());
	INFO_LOG("notify_streams done");
	return 0;
}
