// SPDX-License-Identifier: MIT
/*
 * ACL conformance: task exceptions (issue 17, "errors and exceptions"):
 * the exception callbacks are told the real failed task (its id, stream,
 * queuing thread, device and error), once per failure; task ids per
 * thread; the error details of a failed device; bad arguments.
 *
 * The failing task is an int32 RealDiv by zero, which the engine reports
 * as an arithmetic error (VNPU_STREAM_ERROR_ARITH).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "acl_optest.h"
#include "acl_test.h"

#define NONE 0xFFFFFFFFu

/* What the callbacks saw. */
struct seen {
	int calls;
	uint32_t task, stream, thread, device, code;
};

static pthread_mutex_t seen_lock = PTHREAD_MUTEX_INITIALIZER;
static struct seen seen_set, seen_reg;

static void record(struct seen *s, aclrtExceptionInfo *info)
{
	pthread_mutex_lock(&seen_lock);
	s->calls++;
	s->task = aclrtGetTaskIdFromExceptionInfo(info);
	s->stream = aclrtGetStreamIdFromExceptionInfo(info);
	s->thread = aclrtGetThreadIdFromExceptionInfo(info);
	s->device = aclrtGetDeviceIdFromExceptionInfo(info);
	s->code = aclrtGetErrorCodeFromExceptionInfo(info);
	pthread_mutex_unlock(&seen_lock);
}

static void on_exception_set(aclrtExceptionInfo *info)
{
	record(&seen_set, info);
}

static void on_exception_reg(aclrtExceptionInfo *info)
{
	record(&seen_reg, info);
}

static void reset_seen(void)
{
	memset(&seen_set, 0, sizeof(seen_set));
	memset(&seen_reg, 0, sizeof(seen_reg));
}

static uint32_t my_tid(void)
{
	return (uint32_t)syscall(SYS_gettid);
}

/* Tensors for a good Add and a failing int32 division by zero. */
struct work {
	struct dtensor *fa, *fy, *ix, *iz, *iy;
};

static void work_new(struct work *w)
{
	const int64_t d[1] = { 16 };

	w->fa = dt_new(ACL_FLOAT, 1, d, 1, -1, 1);
	w->fy = dt_new(ACL_FLOAT, 1, d, 0, 0, 0);
	w->ix = dt_new(ACL_INT32, 1, d, 8, 1, 100);
	w->iz = dt_new(ACL_INT32, 1, d, 0, 0, 0);
	w->iy = dt_new(ACL_INT32, 1, d, 0, 0, 0);
}

static void work_free(struct work *w)
{
	dt_free(w->fa);
	dt_free(w->fy);
	dt_free(w->ix);
	dt_free(w->iz);
	dt_free(w->iy);
}

/* Queue a good Add and then the failing division on @s; the division's
 * task id. */
static uint32_t queue_failure(struct work *w, aclrtStream s)
{
	uint32_t good = 0, bad = 0;

	ACL_OK(run_op("Add", w->fa, w->fa, w->fy, NULL, s));
	ACL_OK(aclrtGetThreadLastTaskId(&good));
	ACL_OK(run_op("RealDiv", w->ix, w->iz, w->iy, NULL, s));
	ACL_OK(aclrtGetThreadLastTaskId(&bad));
	ck_assert_uint_ne(good, 0);
	ck_assert_uint_gt(bad, good);
	return bad;
}

START_TEST(callbacks_name_the_failed_task)
{
	struct work w;
	aclrtStream s;
	uint32_t bad;

	reset_seen();
	work_new(&w);
	ACL_OK(aclrtSetExceptionInfoCallback(on_exception_set));
	ACL_OK(aclrtExceptionInfoCallbackRegister(on_exception_reg));
	ACL_OK(aclrtCreateStream(&s));
	bad = queue_failure(&w, s);
	ck_assert_int_eq(seen_set.calls, 0);
	ACL_ERR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(s));
	ck_assert_int_eq(seen_set.calls, 1);
	ck_assert_int_eq(seen_reg.calls, 1);
	ck_assert_uint_eq(seen_set.task, bad);
	ck_assert_uint_ne(seen_set.stream, NONE);
	ck_assert_uint_eq(seen_set.thread, my_tid());
	ck_assert_uint_eq(seen_set.device, 0);
	ck_assert_uint_eq(seen_set.code, ACL_ERROR_RT_AICORE_EXCEPTION);
	ck_assert_mem_eq(&seen_set, &seen_reg, sizeof(seen_set));
	/* One failure, one report: the stream went on past it
	 * (ACL_CONTINUE_ON_FAILURE), and looking again calls nobody. */
	ACL_OK(aclrtSynchronizeStream(s));
	ck_assert_int_eq(seen_set.calls, 1);
	ck_assert_int_eq(seen_reg.calls, 1);
	ACL_OK(aclrtDestroyStreamForce(s));
	work_free(&w);
}
END_TEST

START_TEST(each_failed_stream_is_reported_with_its_own_id)
{
	uint32_t first_stream;
	aclrtStream a, b;
	struct work w;
	uint32_t bad;

	reset_seen();
	work_new(&w);
	ACL_OK(aclrtExceptionInfoCallbackRegister(on_exception_reg));
	ACL_OK(aclrtCreateStream(&a));
	ACL_OK(aclrtCreateStream(&b));
	queue_failure(&w, a);
	ACL_ERR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(a));
	ck_assert_int_eq(seen_reg.calls, 1);
	first_stream = seen_reg.stream;
	bad = queue_failure(&w, b);
	ACL_ERR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(b));
	ck_assert_int_eq(seen_reg.calls, 2);
	ck_assert_uint_ne(seen_reg.stream, first_stream);
	ck_assert_uint_eq(seen_reg.task, bad);
	ACL_OK(aclrtDestroyStreamForce(a));
	ACL_OK(aclrtDestroyStreamForce(b));
	work_free(&w);
}
END_TEST

struct queuer {
	struct work *w;
	aclrtStream s;
	aclrtContext ctx;
	uint32_t bad, tid, first_id;
};

static void *queue_thread(void *arg)
{
	struct queuer *q = arg;

	ACL_OK(aclrtSetCurrentContext(q->ctx));
	ACL_OK(aclrtGetThreadLastTaskId(&q->first_id));
	q->tid = my_tid();
	q->bad = queue_failure(q->w, q->s);
	return NULL;
}

START_TEST(thread_id_is_the_thread_that_queued_the_task)
{
	struct queuer q;
	struct work w;
	pthread_t t;

	reset_seen();
	work_new(&w);
	ACL_OK(aclrtSetExceptionInfoCallback(on_exception_set));
	q.w = &w;
	ACL_OK(aclrtCreateStream(&q.s));
	ACL_OK(aclrtGetCurrentContext(&q.ctx));
	ck_assert_int_eq(pthread_create(&t, NULL, queue_thread, &q), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_uint_eq(q.first_id, 0);
	ACL_ERR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(q.s));
	ck_assert_int_eq(seen_set.calls, 1);
	ck_assert_uint_eq(seen_set.task, q.bad);
	ck_assert_uint_eq(seen_set.thread, q.tid);
	ck_assert_uint_ne(seen_set.thread, my_tid());
	ACL_OK(aclrtDestroyStreamForce(q.s));
	work_free(&w);
}
END_TEST

START_TEST(cleared_and_unregistered_callbacks_are_not_called)
{
	struct work w;
	aclrtStream s;

	reset_seen();
	work_new(&w);
	ACL_OK(aclrtSetExceptionInfoCallback(on_exception_set));
	ACL_OK(aclrtSetExceptionInfoCallback(NULL));
	ACL_OK(aclrtExceptionInfoCallbackRegister(on_exception_reg));
	ACL_OK(aclrtExceptionInfoCallbackRegister(on_exception_reg));
	ACL_OK(aclrtExceptionInfoCallbackUnregister(on_exception_reg));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtExceptionInfoCallbackUnregister(on_exception_reg));
	ACL_OK(aclrtCreateStream(&s));
	queue_failure(&w, s);
	ACL_ERR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(s));
	ck_assert_int_eq(seen_set.calls, 0);
	ck_assert_int_eq(seen_reg.calls, 0);
	ACL_OK(aclrtDestroyStreamForce(s));
	work_free(&w);
}
END_TEST

START_TEST(task_ids_count_the_jobs_of_a_stream)
{
	uint32_t a = 0, b = 0, c = 0;
	aclrtStream s;
	void *p;

	ACL_OK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtMemsetAsync(p, 4096, 1, 4096, s));
	ACL_OK(aclrtGetThreadLastTaskId(&a));
	ACL_OK(aclrtMemsetAsync(p, 4096, 2, 4096, s));
	ACL_OK(aclrtGetThreadLastTaskId(&b));
	ACL_OK(aclrtMemsetAsync(p, 4096, 3, 4096, s));
	ACL_OK(aclrtGetThreadLastTaskId(&c));
	ck_assert_uint_ne(a, 0);
	ck_assert_uint_eq(b, a + 1);
	ck_assert_uint_eq(c, b + 1);
	ACL_OK(aclrtSynchronizeStream(s));
	ACL_OK(aclrtDestroyStream(s));
	ACL_OK(aclrtFree(p));
}
END_TEST

START_TEST(error_verbose_follows_the_failure)
{
	aclrtErrorInfo info;
	struct work w;
	aclrtStream s;

	work_new(&w);
	ACL_OK(aclrtGetErrorVerbose(0, &info));
	ck_assert_int_eq(info.errorType, ACL_RT_NO_ERROR);
	ACL_OK(aclrtCreateStream(&s));
	queue_failure(&w, s);
	ACL_ERR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(s));
	ACL_OK(aclrtGetErrorVerbose(0, &info));
	ck_assert_int_eq(info.errorType, ACL_RT_ERROR_AICORE);
	ck_assert_int_eq(info.hasDetail, 1);
	ck_assert_int_eq(info.detail.aicoreErrType, ACL_RT_AICORE_ERROR_SW);
	ACL_OK(aclrtDestroyStreamForce(s));
	ACL_OK(aclrtGetErrorVerbose(0, &info));
	ck_assert_int_eq(info.errorType, ACL_RT_NO_ERROR);
	work_free(&w);
}
END_TEST

START_TEST(bad_arguments)
{
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtExceptionInfoCallbackRegister(NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtExceptionInfoCallbackUnregister(NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtExceptionInfoCallbackUnregister(on_exception_reg));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetThreadLastTaskId(NULL));
	ck_assert_uint_eq(aclrtGetTaskIdFromExceptionInfo(NULL), NONE);
	ck_assert_uint_eq(aclrtGetStreamIdFromExceptionInfo(NULL), NONE);
	ck_assert_uint_eq(aclrtGetThreadIdFromExceptionInfo(NULL), NONE);
	ck_assert_uint_eq(aclrtGetDeviceIdFromExceptionInfo(NULL), NONE);
	ck_assert_uint_eq(aclrtGetErrorCodeFromExceptionInfo(NULL), NONE);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_except");
	TCase *tc;

	tc = acl_tcase("callbacks", true, 120);
	tcase_add_test(tc, callbacks_name_the_failed_task);
	tcase_add_test(tc, each_failed_stream_is_reported_with_its_own_id);
	tcase_add_test(tc, thread_id_is_the_thread_that_queued_the_task);
	tcase_add_test(tc, cleared_and_unregistered_callbacks_are_not_called);
	tcase_add_test(tc, task_ids_count_the_jobs_of_a_stream);
	tcase_add_test(tc, error_verbose_follows_the_failure);
	suite_add_tcase(s, tc);

	tc = acl_tcase("arguments", false, 30);
	tcase_add_test(tc, bad_arguments);
	suite_add_tcase(s, tc);

	return acl_test_run(s);
}
