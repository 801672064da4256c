// SPDX-License-Identifier: MIT
/*
 * A CANN-style sample in plain C11: the same three tasks queued twice on
 * one stream, an easy one (add 1 to a counter), a failing one (an int32
 * division by zero) and the easy one again. In CANN's default failure
 * mode the stream goes on past the failure and the counter reaches 2; in
 * ACL_STOP_ON_FAILURE the third task does not run and the counter stays
 * at 1. Then aclrtStreamStop and aclrtStreamAbort on a stream stuck on a
 * wait, and a stream-state callback that sees the streams come and go.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

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

#define N 16

static int created, destroyed;

static void on_stream_state(aclrtStream stream, aclrtStreamState state, void *args)
{
	(void)stream;
	(void)args;
	if (state == ACL_RT_STREAM_STATE_CREATE_POST)
		created++;
	else
		destroyed++;
}

/* out = a (op) b over N int32 values on @stream. */
static aclError binary(const char *op, void *a, void *b, void *out, aclrtStream stream)
{
	const int64_t dims[1] = { N };
	aclTensorDesc *desc = aclCreateTensorDesc(ACL_INT32, 1, dims, ACL_FORMAT_ND);
	aclDataBuffer *in[2] = { aclCreateDataBuffer(a, N * 4), aclCreateDataBuffer(b, N * 4) };
	aclDataBuffer *res[1] = { aclCreateDataBuffer(out, N * 4) };
	const aclTensorDesc *in_desc[2] = { desc, desc }, *out_desc[1] = { desc };
	aclopAttr *attr = aclopCreateAttr();
	aclError ret = aclopExecuteV2(op, 2, (aclTensorDesc **)in_desc, in, 1, (aclTensorDesc **)out_desc, res,
				      attr, stream);

	aclopDestroyAttr(attr);
	aclDestroyDataBuffer(in[0]);
	aclDestroyDataBuffer(in[1]);
	aclDestroyDataBuffer(res[0]);
	aclDestroyTensorDesc(desc);
	return ret;
}

struct bufs {
	void *counter, *ones, *zeros, *junk;
};

/* The easy task, the error task, the easy task; then the counter. */
static int32_t run_three(struct bufs *b, aclrtStream stream)
{
	int32_t host[N] = { 0 };
	aclError ret;

	CHECK(aclrtMemset(b->counter, sizeof(host), 0, sizeof(host)));
	CHECK(binary("Add", b->counter, b->ones, b->counter, stream));
	CHECK(binary("RealDiv", b->ones, b->zeros, b->junk, stream));
	/* A stream stopped at the failure may refuse this already. */
	(void)binary("Add", b->counter, b->ones, b->counter, stream);
	ret = aclrtSynchronizeStream(stream);
	INFO_LOG("aclrtSynchronizeStream returned %d", ret);
	CHECK(aclrtMemcpy(host, sizeof(host), b->counter, sizeof(host), ACL_MEMCPY_DEVICE_TO_HOST));
	return host[0];
}

/* A stream stuck on a wait that never holds; @then stops or aborts it. */
static void stuck_stream(const char *what, aclError (*then)(aclrtStream), void *gate)
{
	aclrtStream stream;
	aclError ret;

	CHECK(aclrtCreateStream(&stream));
	CHECK(aclrtValueWait(gate, 1, ACL_VALUE_WAIT_EQ, stream));
	CHECK(then(stream));
	ret = aclrtSynchronizeStream(stream);
	INFO_LOG("after %s, aclrtSynchronizeStream returned %d", what, ret);
	if (then == aclrtStreamStop)
		CHECK(aclrtStreamAbort(stream));
	CHECK(aclrtValueWrite(gate, 0, 0, stream));
	CHECK(aclrtSynchronizeStream(stream));
	INFO_LOG("after %s and an abort, the stream runs new tasks", what);
	CHECK(aclrtDestroyStream(stream));
}

int main(void)
{
	int32_t host[N];
	aclrtContext ctx;
	aclrtStream stream;
	struct bufs b;
	void *gate;
	int i;

	CHECK(aclInit(NULL));
	CHECK(aclrtRegStreamStateCallback("stream_failure_mode_sample", on_stream_state, NULL));
	CHECK(aclrtSetDevice(0));
	CHECK(aclrtCreateContext(&ctx, 0));
	CHECK(aclrtCreateStream(&stream));
	CHECK(aclrtMalloc(&b.counter, sizeof(host), ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(aclrtMalloc(&b.ones, sizeof(host), ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(aclrtMalloc(&b.zeros, sizeof(host), ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(aclrtMalloc(&b.junk, sizeof(host), ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(aclrtMalloc(&gate, 8, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(aclrtMemset(gate, 8, 0, 8));
	for (i = 0; i < N; i++)
		host[i] = 1;
	CHECK(aclrtMemcpy(b.ones, sizeof(host), host, sizeof(host), ACL_MEMCPY_HOST_TO_DEVICE));
	CHECK(aclrtMemset(b.zeros, sizeof(host), 0, sizeof(host)));

	INFO_LOG("assigning tasks without failure mode");
	INFO_LOG("without failure mode, the result is %d", run_three(&b, stream));
	CHECK(aclrtSetStreamFailureMode(stream, ACL_STOP_ON_FAILURE));
	INFO_LOG("assigning tasks with failure mode");
	INFO_LOG("with ACL_STOP_ON_FAILURE, the result is %d", run_three(&b, stream));
	CHECK(aclrtStreamAbort(stream));

	stuck_stream("aclrtStreamStop", aclrtStreamStop, gate);
	stuck_stream("aclrtStreamAbort", aclrtStreamAbort, gate);

	CHECK(aclrtFree(b.counter));
	CHECK(aclrtFree(b.ones));
	CHECK(aclrtFree(b.zeros));
	CHECK(aclrtFree(b.junk));
	CHECK(aclrtFree(gate));
	CHECK(aclrtDestroyStreamForce(stream));
	CHECK(aclrtDestroyContext(ctx));
	CHECK(aclrtRegStreamStateCallback("stream_failure_mode_sample", NULL, NULL));
	INFO_LOG("stream-state callbacks: %d created, %d destroyed", created, destroyed);
	CHECK(aclrtResetDeviceForce(0));
	CHECK(aclFinalize());
	INFO_LOG("run the stream_with_failure_mode sample successfully");
	return 0;
}
