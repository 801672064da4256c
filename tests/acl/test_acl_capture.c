// SPDX-License-Identifier: MIT
/*
 * ACL conformance: captured task graphs (aclmdlRI*, docs/capture.md):
 * capture and replay of operators, copies and value tasks, replays as one
 * SUBMIT, multi-stream capture joined by events, task inspection and
 * update, forbidden calls, workspace owned by the graph, bad handles.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl_optest.h"
#include "acl_test.h"

/* A float vector of @n elements, all @v. */
static struct dtensor *vec(int64_t n, float v)
{
	struct dtensor *t = dt_new(ACL_FLOAT, 1, &n, 0, 0, 0);
	float *h = malloc((size_t)n * sizeof(float));
	int64_t i;

	ck_assert_ptr_nonnull(h);
	for (i = 0; i < n; i++)
		h[i] = v;
	ACL_OK(aclrtMemcpy(t->dev, t->bytes, h, t->bytes, ACL_MEMCPY_HOST_TO_DEVICE));
	free(h);
	return t;
}

/* Every element of @t is @want. */
static void expect_all(struct dtensor *t, float want)
{
	float *h = malloc(t->bytes);
	size_t i;

	ck_assert_ptr_nonnull(h);
	ACL_OK(aclrtMemcpy(h, t->bytes, t->dev, t->bytes, ACL_MEMCPY_DEVICE_TO_HOST));
	for (i = 0; i < t->count; i++)
		ck_assert_msg(h[i] == want, "element %zu is %g, expected %g", i, h[i], want);
	free(h);
}

static uint64_t read_word(void *dev)
{
	uint64_t v = 0;

	ACL_OK(aclrtMemcpy(&v, 8, dev, 8, ACL_MEMCPY_DEVICE_TO_HOST));
	return v;
}

/* Capture @n Adds alternating a = b + one, b = a + one on @s (starting
 * from a = b = 0, the last one written holds n after one replay). */
static aclmdlRI capture_adds(aclrtStream s, unsigned int n, struct dtensor *a, struct dtensor *b,
			     struct dtensor *one)
{
	aclmdlRICaptureStatus st;
	aclmdlRI ri = NULL, cur = NULL;
	unsigned int i;

	ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	ACL_OK(aclmdlRICaptureGetInfo(s, &st, &cur));
	ck_assert_int_eq(st, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
	ck_assert_ptr_nonnull(cur);
	for (i = 0; i < n; i++)
		ACL_OK(i % 2 ? run_op("Add", a, one, b, NULL, s) : run_op("Add", b, one, a, NULL, s));
	ACL_OK(aclmdlRICaptureEnd(s, &ri));
	ck_assert_ptr_eq(ri, cur);
	ACL_OK(aclmdlRICaptureGetInfo(s, &st, &cur));
	ck_assert_int_eq(st, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
	ck_assert_ptr_null(cur);
	return ri;
}

static void replay_n(unsigned int n, unsigned long want_submits)
{
	struct dtensor *a = vec(64, 0), *b = vec(64, 0), *one = vec(64, 1);
	struct dtensor *last = n % 2 ? a : b;
	aclrtStream s;
	aclmdlRI ri;
	uint32_t ntasks = 0;

	ACL_OK(aclrtCreateStream(&s));
	ri = capture_adds(s, n, a, b, one);
	/* Recorded, not run. */
	ACL_OK(aclrtSynchronizeStream(s));
	expect_all(last, 0);
	ACL_OK(aclmdlRIGetTasksByStream(s, NULL, &ntasks));
	ck_assert_uint_eq(ntasks, n);

	ioctl_count_start();
	ACL_OK(aclmdlRIExecuteAsync(ri, s));
	ck_assert_uint_eq(ioctl_count_stop(), want_submits);
	ck_assert_uint_eq(ioctl_count(NR_SUBMIT), want_submits);
	ACL_OK(aclrtSynchronizeStream(s));
	expect_all(last, (float)n);
	/* The graph replays from the current contents (one Add alone
	 * writes the same again). */
	ACL_OK(aclmdlRIExecute(ri, -1));
	expect_all(last, (float)(n == 1 ? 1 : 2 * n));
	ACL_OK(aclmdlRIDestroy(ri));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIExecuteAsync(ri, s));
	ACL_OK(aclrtDestroyStream(s));
	dt_free(a);
	dt_free(b);
	dt_free(one);
}

START_TEST(one_operator_replays_as_one_submit)
{
	replay_n(1, 1);
}
END_TEST

START_TEST(a_hundred_operators_replay_as_one_submit)
{
	replay_n(100, 1);
}
END_TEST

/* 10 000 tasks exceed one SUBMIT's 4096: as few jobs as the limit allows. */
START_TEST(ten_thousand_operators_replay_in_three_submits)
{
	replay_n(10000, 3);
}
END_TEST

START_TEST(copies_memsets_and_values_are_captured)
{
	struct dtensor *src = vec(256, 3), *dst = vec(256, 0), *fill = vec(256, 0);
	void *word;
	aclrtStream s;
	aclmdlRI ri;

	ACL_OK(aclrtMalloc(&word, 8, ACL_MEM_MALLOC_NORMAL_ONLY));
	ACL_OK(aclrtMemset(word, 8, 0, 8));
	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
	ACL_OK(aclrtMemcpyAsync(dst->dev, dst->bytes, src->dev, src->bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
	ACL_OK(aclrtMemsetAsync(fill->dev, fill->bytes, 0x3f, fill->bytes, s));
	ACL_OK(aclrtValueWrite(word, 41, 0, s));
	ACL_OK(aclrtValueWait(word, 41, ACL_VALUE_WAIT_EQ, s));
	ACL_OK(aclrtValueWrite(word, 42, 0, s));
	ACL_OK(aclmdlRICaptureEnd(s, &ri));
	expect_all(dst, 0);
	ck_assert_uint_eq(read_word(word), 0);
	ACL_OK(aclmdlRIExecuteAsync(ri, s));
	ACL_OK(aclrtSynchronizeStream(s));
	expect_all(dst, 3);
	{
		unsigned char bytes[1024];
		size_t i;

		ACL_OK(aclrtMemcpy(bytes, sizeof(bytes), fill->dev, fill->bytes, ACL_MEMCPY_DEVICE_TO_HOST));
		for (i = 0; i < fill->bytes; i++)
			ck_assert_uint_eq(bytes[i], 0x3f);
	}
	ck_assert_uint_eq(read_word(word), 42);
	ACL_OK(aclmdlRIDestroy(ri));
	ACL_OK(aclrtDestroyStream(s));
	ACL_OK(aclrtFree(word));
	dt_free(src);
	dt_free(dst);
	dt_free(fill);
}
END_TEST

/* CANN's pattern: record on the capturing stream, wait on another one
 * (which joins the capture), and join back the same way. */
START_TEST(two_streams_joined_by_events_keep_their_order)
{
	struct dtensor *x = vec(128, 1), *y = vec(128, 0), *z = vec(128, 0), *w = vec(128, 0), *one = vec(128, 1);
	aclrtStream s1, s2, got[2];
	aclrtEvent e1, e2;
	aclmdlRICaptureStatus st;
	aclmdlRI ri, cur;
	uint32_t n = 0, n1 = 0, n2 = 0;

	ACL_OK(aclrtCreateStream(&s1));
	ACL_OK(aclrtCreateStream(&s2));
	ACL_OK(aclrtCreateEvent(&e1));
	ACL_OK(aclrtCreateEvent(&e2));
	ACL_OK(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	ACL_OK(run_op("Add", x, one, y, NULL, s1));		/* y = 2 */
	ACL_OK(aclrtRecordEvent(e1, s1));
	ACL_OK(aclrtStreamWaitEvent(s2, e1));			/* s2 joins */
	ACL_OK(aclmdlRICaptureGetInfo(s2, &st, &cur));
	ck_assert_int_eq(st, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
	ACL_OK(run_op("Add", y, one, z, NULL, s2));		/* z = 3 */
	ACL_OK(aclrtRecordEvent(e2, s2));
	ACL_OK(aclrtStreamWaitEvent(s1, e2));
	ACL_OK(run_op("Add", z, one, w, NULL, s1));		/* w = 4 */
	/* Only the stream that began the capture ends it. */
	ACL_ERR(ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED, aclmdlRICaptureEnd(s2, &ri));
	ACL_OK(aclmdlRICaptureEnd(s1, &ri));
	ck_assert_ptr_eq(ri, cur);
	ACL_OK(aclmdlRICaptureGetInfo(s2, &st, NULL));
	ck_assert_int_eq(st, ACL_MODEL_RI_CAPTURE_STATUS_NONE);

	ACL_OK(aclmdlRIGetStreams(ri, NULL, &n));
	ck_assert_uint_eq(n, 2);
	n = 1;
	ACL_ERR(ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY, aclmdlRIGetStreams(ri, got, &n));
	n = 2;
	ACL_OK(aclmdlRIGetStreams(ri, got, &n));
	ck_assert_ptr_eq(got[0], s1);
	ck_assert_ptr_eq(got[1], s2);
	ACL_OK(aclmdlRIGetTasksByStream(s1, NULL, &n1));
	ACL_OK(aclmdlRIGetTasksByStream(s2, NULL, &n2));
	ck_assert_uint_eq(n1, 4);	/* Add, record, wait, Add */
	ck_assert_uint_eq(n2, 3);	/* wait, Add, record */

	expect_all(w, 0);
	ACL_OK(aclmdlRIExecuteAsync(ri, s1));
	ACL_OK(aclrtSynchronizeStream(s1));
	expect_all(y, 2);
	expect_all(z, 3);
	expect_all(w, 4);
	/* The events were recorded by the replay. */
	ACL_OK(aclrtSynchronizeEvent(e2));
	ACL_OK(aclmdlRIDestroy(ri));

	/* A joined stream must join back before the end. */
	ACL_OK(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	ACL_OK(aclrtRecordEvent(e1, s1));
	ACL_OK(aclrtStreamWaitEvent(s2, e1));
	ACL_OK(run_op("Add", y, one, z, NULL, s2));
	ACL_ERR(ACL_ERROR_RT_STREAM_UNJOINED, aclmdlRICaptureEnd(s1, &ri));
	ck_assert_ptr_null(ri);
	ACL_OK(aclmdlRICaptureGetInfo(s2, &st, NULL));
	ck_assert_int_eq(st, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
	ACL_OK(aclrtSynchronizeStream(s2));
	expect_all(z, 3);	/* nothing ran */
	ACL_OK(aclrtDestroyEvent(e1));
	ACL_OK(aclrtDestroyEvent(e2));
	ACL_OK(aclrtDestroyStream(s1));
	ACL_OK(aclrtDestroyStream(s2));
	dt_free(x);
	dt_free(y);
	dt_free(z);
	dt_free(w);
	dt_free(one);
}
END_TEST

START_TEST(a_replay_runs_on_another_stream)
{
	struct dtensor *a = vec(64, 0), *b = vec(64, 0), *one = vec(64, 1);
	aclrtStream s, t;
	aclmdlRI ri;

	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtCreateStream(&t));
	ri = capture_adds(s, 10, a, b, one);
	ACL_OK(aclmdlRIExecuteAsync(ri, t));
	/* The next replay elsewhere waits for this one. */
	ACL_OK(aclmdlRIExecuteAsync(ri, NULL));
	ACL_OK(aclrtSynchronizeStream(NULL));
	ACL_OK(aclrtSynchronizeStream(t));
	expect_all(b, 20);
	ACL_OK(aclmdlRIDestroy(ri));
	ACL_OK(aclrtDestroyStream(s));
	ACL_OK(aclrtDestroyStream(t));
	dt_free(a);
	dt_free(b);
	dt_free(one);
}
END_TEST

/* The tasks of @s's instance, whose count must be @n. */
static aclmdlRITask *tasks_of(aclrtStream s, uint32_t n)
{
	aclmdlRITask *t = calloc(n, sizeof(*t));
	uint32_t got = 0;

	ck_assert_ptr_nonnull(t);
	ACL_OK(aclmdlRIGetTasksByStream(s, NULL, &got));
	ck_assert_uint_eq(got, n);
	if (n > 1) {
		got = n - 1;
		ACL_ERR(ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY, aclmdlRIGetTasksByStream(s, t, &got));
	}
	got = n;
	ACL_OK(aclmdlRIGetTasksByStream(s, t, &got));
	return t;
}

START_TEST(set_params_and_disable_take_effect_on_the_next_replay)
{
	struct dtensor *a = vec(64, 0), *one = vec(64, 1);
	void *w1, *w2, *w3;
	aclmdlRITaskParams p;
	aclmdlRITaskType type;
	aclmdlRITask *t;
	aclrtStream s;
	aclmdlRI ri;
	uint32_t seq;

	ACL_OK(aclrtMalloc(&w1, 8, ACL_MEM_MALLOC_NORMAL_ONLY));
	ACL_OK(aclrtMalloc(&w2, 8, ACL_MEM_MALLOC_NORMAL_ONLY));
	ACL_OK(aclrtMalloc(&w3, 8, ACL_MEM_MALLOC_NORMAL_ONLY));
	ACL_OK(aclrtMemset(w1, 8, 0, 8));
	ACL_OK(aclrtMemset(w2, 8, 0, 8));
	ACL_OK(aclrtMemset(w3, 8, 0, 8));
	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	ACL_OK(aclrtValueWrite(w1, 5, 0, s));
	ACL_OK(run_op("Add", a, one, a, NULL, s));
	ACL_OK(aclrtValueWrite(w2, 9, 0, s));
	ACL_OK(aclmdlRICaptureEnd(s, &ri));
	t = tasks_of(s, 3);

	ACL_OK(aclmdlRITaskGetType(t[0], &type));
	ck_assert_int_eq(type, ACL_MODEL_RI_TASK_VALUE_WRITE);
	ACL_OK(aclmdlRITaskGetType(t[1], &type));
	ck_assert_int_eq(type, ACL_MODEL_RI_TASK_KERNEL);
	ACL_OK(aclmdlRITaskGetSeqId(t[2], &seq));
	ck_assert_uint_eq(seq, 2);
	ACL_OK(aclmdlRITaskGetParams(t[0], &p));
	ck_assert_int_eq(p.type, ACL_MODEL_RI_TASK_VALUE_WRITE);
	ck_assert_ptr_eq(p.valueWriteTaskParams.devAddr, w1);
	ck_assert_uint_eq(p.valueWriteTaskParams.value, 5);

	ACL_OK(aclmdlRIExecute(ri, 10000));
	ck_assert_uint_eq(read_word(w1), 5);
	ck_assert_uint_eq(read_word(w2), 9);
	expect_all(a, 1);

	/* New value and address for task 0, task 1 skipped. */
	p.valueWriteTaskParams.value = 7;
	p.valueWriteTaskParams.devAddr = w3;
	ACL_OK(aclmdlRITaskSetParams(t[0], &p));
	ACL_OK(aclmdlRITaskDisable(t[1]));
	p.type = ACL_MODEL_RI_TASK_KERNEL;
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRITaskSetParams(t[0], &p));
	ACL_ERR(ACL_ERROR_FEATURE_UNSUPPORTED, aclmdlRITaskSetParams(t[1], &p));
	ACL_OK(aclmdlRIUpdate(ri));
	ACL_OK(aclmdlRIExecute(ri, 10000));
	ck_assert_uint_eq(read_word(w3), 7);
	ck_assert_uint_eq(read_word(w1), 5);
	expect_all(a, 1);	/* the Add did not run again */

	ACL_OK(aclmdlRIDestroy(ri));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRITaskDisable(t[0]));	/* the handle died with it */
	free(t);
	ACL_OK(aclrtDestroyStream(s));
	ACL_OK(aclrtFree(w1));
	ACL_OK(aclrtFree(w2));
	ACL_OK(aclrtFree(w3));
	dt_free(a);
	dt_free(one);
}
END_TEST

struct other {
	void *dst, *src;
	aclrtContext ctx;
	aclError ret;
};

static void *other_thread_copy(void *arg)
{
	struct other *o = arg;

	o->ret = aclrtSetCurrentContext(o->ctx);
	if (!o->ret)
		o->ret = aclrtMemcpy(o->dst, 8, o->src, 8, ACL_MEMCPY_HOST_TO_DEVICE);
	return NULL;
}

/* A synchronous copy from another thread: what the capture mode allows. */
static aclError copy_elsewhere(void *dev)
{
	static uint64_t v = 1;
	struct other o = { dev, &v, NULL, ACL_SUCCESS };
	pthread_t th;

	ACL_OK(aclrtGetCurrentContext(&o.ctx));
	ck_assert_int_eq(pthread_create(&th, NULL, other_thread_copy, &o), 0);
	pthread_join(th, NULL);
	return o.ret;
}

START_TEST(a_forbidden_call_invalidates_the_capture)
{
	struct dtensor *a = vec(64, 0), *one = vec(64, 1);
	aclmdlRICaptureMode mode;
	aclmdlRICaptureStatus st;
	aclmdlRI ri = NULL;
	aclrtStream s;
	uint64_t v = 3;
	void *word, *pageable = malloc(64);

	ck_assert_ptr_nonnull(pageable);
	ACL_OK(aclrtMalloc(&word, 8, ACL_MEM_MALLOC_NORMAL_ONLY));
	ACL_OK(aclrtCreateStream(&s));

	/* Synchronizing the capturing stream. */
	ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	ACL_OK(run_op("Add", a, one, a, NULL, s));
	ACL_ERR(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, aclrtSynchronizeStream(s));
	ACL_OK(aclmdlRICaptureGetInfo(s, &st, NULL));
	ck_assert_int_eq(st, ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED);
	ACL_ERR(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, run_op("Add", a, one, a, NULL, s));
	ACL_ERR(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, aclmdlRICaptureEnd(s, &ri));
	ck_assert_ptr_null(ri);
	ACL_OK(aclrtSynchronizeStream(s));
	expect_all(a, 0);	/* nothing ran */

	/* An async copy from pageable memory must finish on return. */
	ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	ACL_ERR(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
		aclrtMemcpyAsync(word, 8, &v, 8, ACL_MEMCPY_HOST_TO_DEVICE, s));
	ACL_ERR(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, aclmdlRICaptureEnd(s, &ri));

	/* GLOBAL: no thread may make a synchronous copy... */
	ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	ck_assert_int_eq(copy_elsewhere(word), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
	ACL_ERR(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, aclmdlRICaptureEnd(s, &ri));
	/* ...unless it relaxed its own mode. */
	ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
	ACL_OK(aclmdlRICaptureThreadExchangeMode(&mode));
	ck_assert_int_eq(mode, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);
	ACL_OK(aclrtMemcpy(word, 8, &v, 8, ACL_MEMCPY_HOST_TO_DEVICE));
	ACL_OK(aclmdlRICaptureThreadExchangeMode(&mode));
	ck_assert_int_eq(mode, ACL_MODEL_RI_CAPTURE_MODE_RELAXED);
	ACL_OK(aclmdlRICaptureEnd(s, &ri));
	ACL_OK(aclmdlRIDestroy(ri));
	/* THREAD_LOCAL: only the capturing thread is held back. */
	ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
	ck_assert_int_eq(copy_elsewhere(word), ACL_SUCCESS);
	ACL_ERR(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, aclrtMemset(word, 8, 0, 8));
	ACL_ERR(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, aclmdlRICaptureEnd(s, &ri));
	/* RELAXED: everyone may. */
	ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	ACL_OK(aclrtMemset(word, 8, 0, 8));
	ck_assert_int_eq(copy_elsewhere(word), ACL_SUCCESS);
	/* Host functions cannot be captured. */
	ACL_ERR(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, aclrtLaunchHostFunc(s, free, NULL));
	ACL_ERR(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, aclmdlRICaptureEnd(s, &ri));
	/* Nothing is left capturing. */
	ACL_OK(aclrtMemcpy(word, 8, &v, 8, ACL_MEMCPY_HOST_TO_DEVICE));

	ACL_OK(aclrtDestroyStream(s));
	ACL_OK(aclrtFree(word));
	free(pageable);
	dt_free(a);
	dt_free(one);
}
END_TEST

struct opener {
	struct acl_gate *g;
	aclrtContext ctx;
};

static void *open_later(void *arg)
{
	struct opener *o = arg;

	ACL_OK(aclrtSetCurrentContext(o->ctx));
	acl_test_sleep_ms(300);
	acl_gate_open(o->g, 1);
	return NULL;
}

static void count_destroy(void *arg)
{
	atomic_fetch_add((atomic_uint *)arg, 1);
}

START_TEST(destroy_waits_for_a_replay_in_flight)
{
	struct dtensor *a = vec(64, 0), *b = vec(64, 0), *one = vec(64, 1);
	static atomic_uint destroyed;
	struct acl_gate g;
	struct opener o;
	aclrtStream s, t;
	aclmdlRI ri;
	pthread_t th;
	uint64_t t0;

	acl_gate_init(&g);
	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtCreateStream(&t));
	ri = capture_adds(s, 6, a, b, one);
	ACL_OK(aclmdlRIDestroyRegisterCallback(ri, count_destroy, &destroyed));
	ACL_OK(aclmdlRIDestroyRegisterCallback(ri, count_destroy, &destroyed));
	acl_gate_block(&g, t, 1);
	ACL_OK(aclmdlRIExecuteAsync(ri, t));	/* held behind the gate */
	o.g = &g;
	ACL_OK(aclrtGetCurrentContext(&o.ctx));
	ck_assert_int_eq(pthread_create(&th, NULL, open_later, &o), 0);
	t0 = acl_test_now_ns();
	ACL_OK(aclmdlRIDestroy(ri));
	ck_assert_uint_ge(acl_test_now_ns() - t0, 200 * 1000000ull);
	ck_assert_uint_eq(atomic_load(&destroyed), 2);
	pthread_join(th, NULL);
	/* The replay completed before the graph went. */
	ck_assert(aclrtSynchronizeStream(t) == ACL_SUCCESS);
	expect_all(b, 6);
	ACL_OK(aclrtDestroyStream(s));
	ACL_OK(aclrtDestroyStream(t));
	acl_gate_fini(&g);
	dt_free(a);
	dt_free(b);
	dt_free(one);
}
END_TEST

/* A bump allocator over one device buffer that counts its calls. */
struct bump {
	void *pool;
	size_t size, used;
	atomic_uint allocs, frees;
};

struct bump_block {
	void *addr;
};

static void *bump_alloc(aclrtAllocator a, size_t n)
{
	struct bump *b = a;
	struct bump_block *blk;

	if (b->used + n > b->size)
		return NULL;
	blk = malloc(sizeof(*blk));
	if (!blk)
		return NULL;
	blk->addr = (char *)b->pool + b->used;
	b->used += (n + 255) & ~(size_t)255;
	atomic_fetch_add(&b->allocs, 1);
	return blk;
}

static void bump_free(aclrtAllocator a, aclrtAllocatorBlock block)
{
	struct bump *b = a;

	free(block);
	atomic_fetch_add(&b->frees, 1);
}

static void *bump_addr(aclrtAllocatorBlock block)
{
	return ((struct bump_block *)block)->addr;
}

static void softmax_replays(aclrtStream s, struct dtensor *x, struct dtensor *y, aclmdlRI ri)
{
	double want[4 * 50];

	host_softmax(x->host, 4, 50, want);
	ACL_OK(aclmdlRIExecuteAsync(ri, s));
	ACL_OK(aclrtSynchronizeStream(s));
	dt_expect(y, want, 1e-3);
	ACL_OK(aclrtMemset(y->dev, y->bytes, 0, y->bytes));
	ACL_OK(aclmdlRIExecuteAsync(ri, s));
	ACL_OK(aclrtSynchronizeStream(s));
	dt_expect(y, want, 1e-3);
}

START_TEST(workspace_is_owned_by_the_graph)
{
	const int64_t d[2] = { 4, 50 };
	struct dtensor *x = dt_new(ACL_FLOAT, 2, d, 9, -3, 3), *y = dt_new(ACL_FLOAT, 2, d, 0, 0, 0);
	struct bump b = { .size = 1u << 20 };
	aclrtAllocatorDesc desc;
	aclrtStream s;
	aclmdlRI ri;

	ACL_OK(aclrtCreateStream(&s));
	/* The runtime's pool. */
	ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	ACL_OK(run_op("SoftmaxV2", x, NULL, y, NULL, s));
	ACL_OK(aclmdlRICaptureEnd(s, &ri));
	/* Operators outside the graph do not get its block. */
	ACL_OK(run_op("SoftmaxV2", x, NULL, y, NULL, s));
	softmax_replays(s, x, y, ri);
	ACL_OK(aclmdlRIDestroy(ri));

	/* A registered allocator: alloc at capture, free at destroy. */
	ACL_OK(aclrtMalloc(&b.pool, b.size, ACL_MEM_MALLOC_NORMAL_ONLY));
	desc = aclrtAllocatorCreateDesc();
	ck_assert_ptr_nonnull(desc);
	ACL_OK(aclrtAllocatorSetObjToDesc(desc, &b));
	ACL_OK(aclrtAllocatorSetAllocFuncToDesc(desc, bump_alloc));
	ACL_OK(aclrtAllocatorSetFreeFuncToDesc(desc, bump_free));
	ACL_OK(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(desc, bump_addr));
	ACL_OK(aclrtAllocatorRegister(s, desc));
	ACL_OK(aclrtAllocatorDestroyDesc(desc));
	ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	ACL_OK(run_op("SoftmaxV2", x, NULL, y, NULL, s));
	ACL_OK(aclmdlRICaptureEnd(s, &ri));
	ck_assert_uint_eq(atomic_load(&b.allocs), 1);
	ck_assert_uint_eq(atomic_load(&b.frees), 0);
	softmax_replays(s, x, y, ri);
	ck_assert_uint_eq(atomic_load(&b.frees), 0);
	ACL_OK(aclmdlRIDestroy(ri));
	ck_assert_uint_eq(atomic_load(&b.frees), 1);
	ACL_OK(aclrtAllocatorUnregister(s));
	ACL_OK(aclrtDestroyStream(s));
	ACL_OK(aclrtFree(b.pool));
	dt_free(x);
	dt_free(y);
}
END_TEST

START_TEST(bad_handles_and_modes)
{
	struct dtensor *a = vec(64, 0), *one = vec(64, 1);
	aclmdlRICaptureMode mode = (aclmdlRICaptureMode)7;
	aclmdlRITaskParams p;
	aclmdlRITaskType type;
	aclmdlRI ri, cur;
	aclrtStream s;
	char name[8];
	uint32_t id = 0, id2 = 0, n;
	int local;

	ACL_OK(aclrtCreateStream(&s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRICaptureBegin(s, (aclmdlRICaptureMode)3));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRICaptureBegin(&local, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRICaptureThreadExchangeMode(NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRICaptureThreadExchangeMode(&mode));
	ACL_ERR(ACL_ERROR_RT_STREAM_NOT_CAPTURED, aclmdlRICaptureEnd(s, &ri));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRICaptureEnd(s, NULL));

	ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	ACL_ERR(ACL_ERROR_RT_STREAM_CAPTURED, aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	ACL_OK(aclmdlRICaptureGetInfo(s, NULL, &cur));
	ACL_ERR(ACL_ERROR_RT_MODEL_CAPTURED, aclmdlRIExecuteAsync(cur, NULL));
	ACL_ERR(ACL_ERROR_RT_MODEL_CAPTURED, aclmdlRIDestroy(cur));
	ACL_OK(run_op("Add", a, one, a, NULL, s));
	ACL_OK(aclmdlRICaptureEnd(s, &ri));

	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIExecuteAsync(NULL, s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIExecuteAsync(&local, s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIExecute(ri, -2));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIGetId(ri, NULL));
	ACL_OK(aclmdlRIGetId(ri, &id));
	ck_assert_uint_ne(id, 0);
	ACL_OK(aclmdlRIGetName(ri, sizeof(name), name));
	ck_assert_str_eq(name, "");
	ACL_OK(aclmdlRISetName(ri, "graph"));
	ACL_OK(aclmdlRIGetName(ri, sizeof(name), name));
	ck_assert_str_eq(name, "graph");
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIGetName(ri, 5, name));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIGetStreams(ri, NULL, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRITaskGetType(&local, &type));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRITaskGetParams(NULL, &p));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIDebugJsonPrint(ri, "/tmp/ri.json", 2));
	ACL_ERR(ACL_ERROR_WRITE_FILE, aclmdlRIDebugJsonPrint(ri, "/nonexistent/dir/ri.json", 0));
	ACL_OK(aclmdlRIDebugJsonPrint(ri, "/tmp/ri.json", ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE));
	ACL_OK(aclmdlRIDebugPrint(ri));
	ACL_OK(aclmdlRIDestroy(ri));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIDestroy(ri));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIGetId(ri, &id2));
	/* The stream's tasks went with the instance. */
	ACL_ERR(ACL_ERROR_RT_STREAM_MODEL, aclmdlRIGetTasksByStream(s, NULL, &n));

	/* Destroying the capturing stream ends its capture. */
	ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	ACL_OK(aclmdlRICaptureGetInfo(s, NULL, &cur));
	ACL_OK(aclrtDestroyStream(s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIExecuteAsync(cur, NULL));
	dt_free(a);
	dt_free(one);
}
END_TEST

START_TEST(debug_json_lists_tasks_streams_and_dependencies)
{
	struct dtensor *a = vec(16, 0), *one = vec(16, 1);
	aclrtStream s1, s2;
	aclrtEvent e;
	aclmdlRI ri;
	char buf[8192];
	size_t len;
	FILE *f;

	ACL_OK(aclrtCreateStream(&s1));
	ACL_OK(aclrtCreateStream(&s2));
	ACL_OK(aclrtCreateEvent(&e));
	ACL_OK(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	ACL_OK(run_op("Add", a, one, a, NULL, s1));
	ACL_OK(aclrtRecordEvent(e, s1));
	ACL_OK(aclrtStreamWaitEvent(s2, e));
	ACL_OK(run_op("Add", a, one, a, NULL, s2));
	ACL_OK(aclrtRecordEvent(e, s2));
	ACL_OK(aclrtStreamWaitEvent(s1, e));
	ACL_OK(aclmdlRICaptureEnd(s1, &ri));
	ACL_OK(aclmdlRIDebugJsonPrint(ri, "/tmp/ri2.json", ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY));
	f = fopen("/tmp/ri2.json", "r");
	ck_assert_ptr_nonnull(f);
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = 0;
	ck_assert_ptr_nonnull(strstr(buf, "\"tasks\""));
	ck_assert_ptr_nonnull(strstr(buf, "\"type\": \"KERNEL\""));
	ck_assert_ptr_nonnull(strstr(buf, "{\"from\": 1, \"to\": 2, \"kind\": \"event\"}"));
	ck_assert_ptr_nonnull(strstr(buf, "{\"from\": 4, \"to\": 5, \"kind\": \"event\"}"));
	ck_assert_ptr_nonnull(strstr(buf, "{\"from\": 0, \"to\": 1, \"kind\": \"stream\"}"));
	ACL_OK(aclmdlRIExecute(ri, -1));
	expect_all(a, 2);
	ACL_OK(aclmdlRIDestroy(ri));
	ACL_OK(aclrtDestroyEvent(e));
	ACL_OK(aclrtDestroyStream(s1));
	ACL_OK(aclrtDestroyStream(s2));
	dt_free(a);
	dt_free(one);
}
END_TEST

/* The update-capture mode: a task group's operators replaced by others. */
START_TEST(a_task_group_is_updated_by_a_later_capture)
{
	struct dtensor *a = vec(64, 5), *b = vec(64, 0), *one = vec(64, 1), *two = vec(64, 2), *x = vec(64, 0);
	aclrtTaskGrp g = NULL;
	aclrtStream s, u;
	aclmdlRI ri, empty;

	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtCreateStream(&u));
	ACL_ERR(ACL_ERROR_RT_STREAM_NOT_CAPTURED, aclmdlRICaptureTaskGrpBegin(s));
	ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	ACL_ERR(ACL_ERROR_STREAM_TASK_GROUP_STATUS, aclmdlRICaptureTaskGrpEnd(s, &g));
	ACL_OK(run_op("Add", a, one, x, NULL, s));		/* x = 6, not in the group */
	ACL_OK(aclmdlRICaptureTaskGrpBegin(s));
	ACL_ERR(ACL_ERROR_STREAM_TASK_GROUP_STATUS, aclmdlRICaptureTaskGrpBegin(s));
	ACL_OK(run_op("Add", a, one, b, NULL, s));		/* b = a + 1 */
	ACL_ERR(ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT, aclrtMemsetAsync(b->dev, b->bytes, 0, b->bytes, s));
	ACL_OK(aclmdlRICaptureTaskGrpEnd(s, &g));
	ck_assert_ptr_nonnull(g);
	ACL_OK(aclmdlRICaptureEnd(s, &ri));
	ACL_OK(aclmdlRIExecute(ri, -1));
	expect_all(b, 6);
	expect_all(x, 6);

	/* The update's stream must not be capturing, and its calls do not run. */
	ACL_OK(aclmdlRICaptureBegin(u, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	ACL_ERR(ACL_ERROR_RT_STREAM_CAPTURED, aclmdlRICaptureTaskUpdateBegin(u, g));
	ACL_OK(aclmdlRICaptureEnd(u, &empty));
	ACL_OK(aclmdlRIExecuteAsync(empty, u));		/* nothing to submit */
	ACL_OK(aclmdlRIDestroy(empty));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRICaptureTaskUpdateBegin(u, &g));
	ACL_OK(aclmdlRICaptureTaskUpdateBegin(u, g));
	ACL_OK(run_op("Add", a, two, b, NULL, u));		/* b = a + 2 from now on */
	ACL_OK(aclmdlRICaptureTaskUpdateEnd(u));
	ACL_OK(aclrtSynchronizeStream(u));
	expect_all(b, 6);
	ACL_OK(aclmdlRIExecute(ri, -1));
	expect_all(b, 7);

	/* A mismatch changes nothing. */
	ACL_OK(aclmdlRICaptureTaskUpdateBegin(u, g));
	ACL_OK(run_op("Add", a, one, b, NULL, u));
	ACL_OK(run_op("Add", a, one, b, NULL, u));
	ACL_ERR(ACL_ERROR_RT_MODEL_UPDATE_FAILED, aclmdlRICaptureTaskUpdateEnd(u));
	ACL_ERR(ACL_ERROR_RT_STREAM_NOT_CAPTURED, aclmdlRICaptureTaskUpdateEnd(u));
	ACL_OK(aclmdlRICaptureTaskUpdateBegin(u, g));
	ACL_OK(aclrtValueWrite(a->dev, 1, 0, u));
	ACL_ERR(ACL_ERROR_RT_MODEL_UPDATE_FAILED, aclmdlRICaptureTaskUpdateEnd(u));
	ACL_OK(aclmdlRIExecute(ri, -1));
	expect_all(b, 7);

	ACL_OK(aclmdlRIDestroy(ri));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRICaptureTaskUpdateBegin(u, g));
	ACL_OK(aclrtDestroyStream(s));
	ACL_OK(aclrtDestroyStream(u));
	dt_free(a);
	dt_free(b);
	dt_free(one);
	dt_free(two);
	dt_free(x);
}
END_TEST

/* CANN's build mode: a persistent stream bound to an instance records its
 * tasks until aclmdlRIEndTask; the built instance replays as one SUBMIT. */
START_TEST(a_built_instance_replays_its_bound_streams)
{
	struct dtensor *a = vec(64, 0), *b = vec(64, 0), *one = vec(64, 1);
	aclrtStream p, q, plain;
	aclmdlRI ri, other, none;
	aclrtStreamStatus qs;
	unsigned int i;

	ACL_OK(aclrtCreateStreamWithConfig(&p, 0, ACL_STREAM_PERSISTENT));
	ACL_OK(aclrtCreateStreamWithConfig(&q, 0, ACL_STREAM_PERSISTENT));
	ACL_OK(aclrtCreateStream(&plain));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIBuildBegin(NULL, 0));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIBuildBegin(&ri, 1));
	ACL_OK(aclmdlRIBuildBegin(&ri, 0));
	ACL_OK(aclmdlRIBuildBegin(&other, 0));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIBindStream(ri, NULL, ACL_MODEL_STREAM_FLAG_HEAD));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIBindStream(NULL, p, ACL_MODEL_STREAM_FLAG_HEAD));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIBindStream(ri, p, 5));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIBindStream(ri, plain, ACL_MODEL_STREAM_FLAG_HEAD));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIEndTask(ri, p));	/* not bound */
	ACL_OK(aclmdlRIBindStream(ri, p, ACL_MODEL_STREAM_FLAG_HEAD));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIBindStream(ri, p, ACL_MODEL_STREAM_FLAG_HEAD));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIBindStream(other, p, ACL_MODEL_STREAM_FLAG_HEAD));
	ACL_OK(aclmdlRIBindStream(ri, q, ACL_MODEL_STREAM_FLAG_DEFAULT));
	/* Recorded, not run; and not replayable while building. */
	for (i = 0; i < 4; i++)
		ACL_OK(i % 2 ? run_op("Add", a, one, b, NULL, p) : run_op("Add", b, one, a, NULL, p));
	ACL_ERR(ACL_ERROR_RT_MODEL_CAPTURED, aclmdlRIExecuteAsync(ri, plain));
	ACL_ERR(ACL_ERROR_RT_MODEL_CAPTURED, aclmdlRIAbort(ri));
	ACL_ERR(ACL_ERROR_RT_STREAM_NOT_CAPTURED, aclmdlRICaptureEnd(p, &none));
	ACL_OK(aclmdlRIEndTask(ri, p));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIEndTask(ri, p));
	ACL_OK(aclmdlRIEndTask(ri, q));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIBuildEnd(ri, (void *)1));
	ACL_OK(aclmdlRIBuildEnd(ri, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIBuildEnd(ri, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIBindStream(ri, plain, ACL_MODEL_STREAM_FLAG_HEAD));
	ACL_OK(aclrtSynchronizeStream(p));
	expect_all(b, 0);

	ioctl_count_start();
	ACL_OK(aclmdlRIExecuteAsync(ri, plain));
	ioctl_count_stop();
	ck_assert_uint_eq(ioctl_count(NR_SUBMIT), 1);
	ACL_OK(aclrtSynchronizeStream(plain));
	expect_all(b, 4);
	ACL_OK(aclmdlRIExecute(ri, -1));
	expect_all(b, 8);
	ACL_OK(aclmdlRIExecuteAsync(ri, plain));
	ACL_OK(aclmdlRIAbort(ri));		/* waits: the replay is done */
	ACL_OK(aclrtStreamQuery(plain, &qs));
	ck_assert_int_eq(qs, ACL_STREAM_STATUS_COMPLETE);
	expect_all(b, 12);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIAbort(NULL));

	ACL_OK(aclmdlRIUnbindStream(ri, p));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIUnbindStream(ri, p));
	ACL_OK(aclmdlRIUnbindStream(ri, q));
	/* Unbound: the stream runs its work again, and may bind elsewhere. */
	ACL_OK(run_op("Add", b, one, a, NULL, p));
	ACL_OK(aclrtSynchronizeStream(p));
	expect_all(a, 13);
	ACL_OK(aclmdlRIBindStream(other, p, ACL_MODEL_STREAM_FLAG_HEAD));
	ACL_OK(aclmdlRIEndTask(other, p));
	ACL_OK(aclmdlRIBuildEnd(other, NULL));
	ACL_OK(aclmdlRIExecute(other, -1));	/* nothing recorded */
	ACL_OK(aclmdlRIUnbindStream(other, p));
	ACL_OK(aclmdlRIDestroy(other));
	ACL_OK(aclmdlRIDestroy(ri));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIAbort(ri));
	ACL_OK(aclrtDestroyStream(p));
	ACL_OK(aclrtDestroyStream(q));
	ACL_OK(aclrtDestroyStream(plain));
	dt_free(a);
	dt_free(b);
	dt_free(one);
}
END_TEST

/* A call that cannot be captured on a bound stream spoils the build. */
START_TEST(a_forbidden_call_invalidates_a_build)
{
	aclrtStream p;
	aclmdlRI ri;

	ACL_OK(aclrtCreateStreamWithConfig(&p, 0, ACL_STREAM_PERSISTENT));
	ACL_OK(aclmdlRIBuildBegin(&ri, 0));
	ACL_OK(aclmdlRIBindStream(ri, p, ACL_MODEL_STREAM_FLAG_HEAD));
	ACL_ERR(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, aclrtSynchronizeStream(p));
	ACL_OK(aclmdlRIEndTask(ri, p));
	ACL_ERR(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, aclmdlRIBuildEnd(ri, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIExecute(ri, -1));
	ACL_OK(aclrtDestroyStream(p));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_capture");
	TCase *tc = acl_tcase("capture", true, 80);

	tcase_add_test(tc, one_operator_replays_as_one_submit);
	tcase_add_test(tc, a_hundred_operators_replay_as_one_submit);
	tcase_add_test(tc, ten_thousand_operators_replay_in_three_submits);
	tcase_add_test(tc, copies_memsets_and_values_are_captured);
	tcase_add_test(tc, two_streams_joined_by_events_keep_their_order);
	tcase_add_test(tc, a_replay_runs_on_another_stream);
	tcase_add_test(tc, set_params_and_disable_take_effect_on_the_next_replay);
	tcase_add_test(tc, a_forbidden_call_invalidates_the_capture);
	tcase_add_test(tc, destroy_waits_for_a_replay_in_flight);
	tcase_add_test(tc, workspace_is_owned_by_the_graph);
	tcase_add_test(tc, bad_handles_and_modes);
	tcase_add_test(tc, debug_json_lists_tasks_streams_and_dependencies);
	tcase_add_test(tc, a_task_group_is_updated_by_a_later_capture);
	tcase_add_test(tc, a_built_instance_replays_its_bound_streams);
	tcase_add_test(tc, a_forbidden_call_invalidates_a_build);
	suite_add_tcase(s, tc);
	return acl_test_run(s);
}
