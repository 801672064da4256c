// SPDX-License-Identifier: MIT
/*
 * A CANN-style sample in plain C11: a task exception handled the way
 * CANN's callback_exception sample does. An exception callback is set, a
 * good task and a failing one (an int32 division by zero) are queued, the
 * stream's synchronisation fails, and the callback has named the failed
 * task, its stream, thread, device and error; then the last error, the
 * recent error message and the device's error details.
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

#define N 64

static int exceptions;
static uint32_t failed_task;

static void on_exception(aclrtExceptionInfo *info)
{
	exceptions++;
	failed_task = aclrtGetTaskIdFromExceptionInfo(info);
	INFO_LOG("exception occurred, callback called");
	INFO_LOG("the error task id is %u", failed_task);
	INFO_LOG("the error stream id is %u", aclrtGetStreamIdFromExceptionInfo(info));
	INFO_LOG("the error thread id is %u", aclrtGetThreadIdFromExceptionInfo(info));
	INFO_LOG("the error device id is %u", aclrtGetDeviceIdFromExceptionInfo(info));
	INFO_LOG("the error code is %u", aclrtGetErrorCodeFromExceptionInfo(info));
}

/* out = a / b over N int32 values on @stream. */
static aclError divide(void *a, void *b, void *out, aclrtStream stream)
{
	const int64_t dims[1] = { N };
	aclTensorDesc *desc = aclCreateTensorDesc(ACL_INT32, 1, dims, ACL_FORMAT_ND);
	aclDataBuffer *in[2] = { aclCreateDataBuffer(a, N * 4), aclCreateDataBuffer(b, N * 4) };
	aclDataBuffer *res[1] = { aclCreateDataBuffer(out, N * 4) };
	const aclTensorDesc *in_desc[2] = { desc, desc }, *out_desc[1] = { desc };
	aclopAttr *attr = aclopCreateAttr();
	aclError ret = aclopExecuteV2("RealDiv", 2, (aclTensorDesc **)in_desc, in, 1, (aclTensorDesc **)out_desc,
				      res, attr, stream);

	aclopDestroyAttr(attr);
	aclDestroyDataBuffer(in[0]);
	aclDestroyDataBuffer(in[1]);
	aclDestroyDataBuffer(res[0]);
	aclDestroyTensorDesc(desc);
	return ret;
}

int main(void)
{
	int32_t host[N];
	void *a, *ones, *zeros, *out;
	uint32_t good_task, bad_task;
	aclrtErrorInfo verbose;
	aclrtContext ctx;
	aclrtStream stream;
	const char *msg;
	aclError ret;
	int i;

	CHECK(aclInit(NULL));
	CHECK(aclrtSetDevice(0));
	CHECK(aclrtCreateContext(&ctx, 0));
	CHECK(aclrtCreateStream(&stream));
	CHECK(aclrtSetExceptionInfoCallback(on_exception));

	for (i = 0; i < N; i++)
		host[i] = i * 3;
	CHECK(aclrtMalloc(&a, sizeof(host), ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(aclrtMalloc(&ones, sizeof(host), ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(aclrtMalloc(&zeros, sizeof(host), ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(aclrtMalloc(&out, sizeof(host), ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(aclrtMemcpy(a, sizeof(host), host, sizeof(host), ACL_MEMCPY_HOST_TO_DEVICE));
	for (i = 0; i < N; i++)
		host[i] = 1;
	CHECK(aclrtMemcpy(ones, sizeof(host), host, sizeof(host), ACL_MEMCPY_HOST_TO_DEVICE));
	CHECK(aclrtMemset(zeros, sizeof(host), 0, sizeof(host)));

	INFO_LOG("begin an easy task and an error task, the error task will call back");
	CHECK(divide(a, ones, out, stream));
	CHECK(aclrtGetThreadLastTaskId(&good_task));
	CHECK(divide(a, zeros, out, stream));
	CHECK(aclrtGetThreadLastTaskId(&bad_task));
	INFO_LOG("the last task id is %u (the easy one was %u)", bad_task, good_task);

	ret = aclrtSynchronizeStream(stream);
	ERROR_LOG("aclrtSynchronizeStream(stream) returned error code %d", ret);
	msg = aclGetRecentErrMsg();
	INFO_LOG("recent error message: %s", msg ? "present" : "none");
	INFO_LOG("thread's last error: %d", aclrtGetLastError(ACL_RT_THREAD_LEVEL));
	CHECK(aclrtGetErrorVerbose(0, &verbose));
	INFO_LOG("device error type: %d", verbose.errorType);
	INFO_LOG("callbacks: %d, the failed task was the error task: %s", exceptions,
		 exceptions == 1 && failed_task == bad_task ? "yes" : "no");

	CHECK(aclrtSetExceptionInfoCallback(NULL));
	CHECK(aclrtFree(a));
	CHECK(aclrtFree(ones));
	CHECK(aclrtFree(zeros));
	CHECK(aclrtFree(out));
	CHECK(aclrtDestroyStreamForce(stream));
	CHECK(aclrtDestroyContext(ctx));
	CHECK(aclrtResetDeviceForce(0));
	CHECK(aclFinalize());
	INFO_LOG("run the callback_exception sample successfully");
	return 0;
}
