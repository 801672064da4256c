// SPDX-License-Identifier: MIT
/*
 * ACL conformance: external allocator registration (acl_rt_allocator.h)
 * and the allocator flow of single operators. The registry rules are
 * CANN's (reference: acl-api.md §2, §5); the flow is vnpu's: every
 * workspace comes from the stream's registered allocator (alloc ->
 * getAddrFromBlock -> bound to the stream once -> submit -> free, on the
 * calling thread), or from the runtime's own pool without one.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl_optest.h"
#include "acl_test.h"

#define MIB (1ul << 20)

static void *dummy_alloc(aclrtAllocator a, size_t n)
{
	(void)a;
	(void)n;
	return NULL;
}

static void *dummy_alloc2(aclrtAllocator a, size_t n)
{
	(void)n;
	return a;
}

static void dummy_free(aclrtAllocator a, aclrtAllocatorBlock b)
{
	(void)a;
	(void)b;
}

static void *dummy_advise(aclrtAllocator a, size_t n, aclrtAllocatorAddr p)
{
	(void)a;
	(void)n;
	return p;
}

static void *dummy_addr(aclrtAllocatorBlock b)
{
	return b;
}

/* A descriptor with obj @obj and the callbacks selected by @mask
 * (1 alloc, 2 free, 4 advise, 8 getAddr). */
static aclrtAllocatorDesc make_desc(void *obj, unsigned int mask)
{
	aclrtAllocatorDesc d = aclrtAllocatorCreateDesc();

	ck_assert_ptr_nonnull(d);
	if (obj)
		ACL_OK(aclrtAllocatorSetObjToDesc(d, obj));
	if (mask & 1)
		ACL_OK(aclrtAllocatorSetAllocFuncToDesc(d, dummy_alloc));
	if (mask & 2)
		ACL_OK(aclrtAllocatorSetFreeFuncToDesc(d, dummy_free));
	if (mask & 4)
		ACL_OK(aclrtAllocatorSetAllocAdviseFuncToDesc(d, dummy_advise));
	if (mask & 8)
		ACL_OK(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, dummy_addr));
	return d;
}

/* ---- the registry ---------------------------------------------------------------- */

START_TEST(descriptor_setters_check_their_arguments)
{
	aclrtAllocatorDesc d = aclrtAllocatorCreateDesc();
	int obj;

	ck_assert_ptr_nonnull(d);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAllocatorSetObjToDesc(NULL, &obj));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAllocatorSetObjToDesc(d, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAllocatorSetAllocFuncToDesc(NULL, dummy_alloc));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAllocatorSetAllocFuncToDesc(d, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAllocatorSetFreeFuncToDesc(NULL, dummy_free));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAllocatorSetFreeFuncToDesc(d, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAllocatorSetAllocAdviseFuncToDesc(NULL, dummy_advise));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAllocatorSetAllocAdviseFuncToDesc(d, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAllocatorSetGetAddrFromBlockFuncToDesc(NULL, dummy_addr));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, NULL));
	/* A pointer that is no descriptor (here: an object on the stack). */
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAllocatorSetObjToDesc(&obj, &obj));
	ACL_OK(aclrtAllocatorSetObjToDesc(d, &obj));
	ACL_OK(aclrtAllocatorSetAllocFuncToDesc(d, dummy_alloc));
	ACL_OK(aclrtAllocatorSetFreeFuncToDesc(d, dummy_free));
	ACL_OK(aclrtAllocatorSetAllocAdviseFuncToDesc(d, dummy_advise));
	ACL_OK(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, dummy_addr));
	ACL_OK(aclrtAllocatorDestroyDesc(d));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAllocatorDestroyDesc(NULL));
	/* Destroyed: every use is refused, never a crash. */
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAllocatorDestroyDesc(d));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAllocatorSetObjToDesc(d, &obj));
}
END_TEST

START_TEST(register_needs_a_stream_a_descriptor_and_the_mandatory_callbacks)
{
	static const unsigned int masks[] = { 1 | 2 | 8, 2 | 4 | 8, 1 | 4 | 8, 1 | 2 | 4 };
	aclrtAllocatorDesc d;
	aclrtStream s;
	unsigned int i;
	int obj;

	ACL_OK(aclrtCreateStream(&s));
	/* obj, alloc, free and getAddrFromBlock are mandatory... */
	d = make_desc(NULL, 1 | 2 | 4 | 8);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAllocatorRegister(s, d));
	ACL_OK(aclrtAllocatorDestroyDesc(d));
	for (i = 1; i < 4; i++) {
		d = make_desc(&obj, masks[i]);
		ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAllocatorRegister(s, d));
		ACL_OK(aclrtAllocatorDestroyDesc(d));
	}
	/* ...allocAdvise is optional. */
	d = make_desc(&obj, masks[0]);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAllocatorRegister(NULL, d));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAllocatorRegister(s, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAllocatorRegister(&obj, d));
	ACL_OK(aclrtAllocatorRegister(s, d));
	ACL_OK(aclrtAllocatorUnregister(s));
	ACL_OK(aclrtAllocatorDestroyDesc(d));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAllocatorRegister(s, d));
	ACL_OK(aclrtDestroyStream(s));
}
END_TEST

START_TEST(registration_is_a_copy)
{
	aclrtAllocatorAllocFunc fa = NULL;
	aclrtAllocatorFreeFunc ff = NULL;
	aclrtAllocatorAllocAdviseFunc fv = (aclrtAllocatorAllocAdviseFunc)dummy_advise;
	aclrtAllocatorGetAddrFromBlockFunc fg = NULL;
	aclrtAllocatorDesc d, got = NULL;
	aclrtAllocator obj_got = NULL;
	aclrtStream s;
	int obj, other;

	ACL_OK(aclrtCreateStream(&s));
	d = make_desc(&obj, 1 | 2 | 8);
	ACL_OK(aclrtAllocatorRegister(s, d));
	/* Changing the descriptor later changes nothing registered. */
	ACL_OK(aclrtAllocatorSetObjToDesc(d, &other));
	ACL_OK(aclrtAllocatorSetAllocFuncToDesc(d, dummy_alloc2));
	ACL_OK(aclrtAllocatorGetByStream(s, &got, &obj_got, &fa, &ff, &fv, &fg));
	ck_assert_ptr_eq(got, d);
	ck_assert_ptr_eq(obj_got, &obj);
	ck_assert(fa == dummy_alloc);
	ck_assert(ff == dummy_free);
	ck_assert(fv == NULL); /* never set */
	ck_assert(fg == dummy_addr);
	/* Nor does destroying it. */
	ACL_OK(aclrtAllocatorDestroyDesc(d));
	got = NULL;
	ACL_OK(aclrtAllocatorGetByStream(s, &got, &obj_got, NULL, NULL, NULL, NULL));
	ck_assert_ptr_eq(got, d);
	ck_assert_ptr_eq(obj_got, &obj);
	ACL_OK(aclrtDestroyStream(s));
}
END_TEST

START_TEST(the_last_registration_wins)
{
	aclrtAllocatorDesc d1, d2, got = NULL;
	aclrtAllocator obj = NULL;
	aclrtStream s;
	int a, b;

	ACL_OK(aclrtCreateStream(&s));
	d1 = make_desc(&a, 1 | 2 | 8);
	d2 = make_desc(&b, 1 | 2 | 4 | 8);
	ACL_OK(aclrtAllocatorRegister(s, d1));
	ACL_OK(aclrtAllocatorRegister(s, d2));
	ACL_OK(aclrtAllocatorGetByStream(s, &got, &obj, NULL, NULL, NULL, NULL));
	ck_assert_ptr_eq(got, d2);
	ck_assert_ptr_eq(obj, &b);
	ACL_OK(aclrtAllocatorRegister(s, d1));
	ACL_OK(aclrtAllocatorGetByStream(s, &got, &obj, NULL, NULL, NULL, NULL));
	ck_assert_ptr_eq(got, d1);
	ck_assert_ptr_eq(obj, &a);
	ACL_OK(aclrtAllocatorDestroyDesc(d1));
	ACL_OK(aclrtAllocatorDestroyDesc(d2));
	ACL_OK(aclrtDestroyStream(s));
}
END_TEST

START_TEST(unregister_is_idempotent)
{
	aclrtAllocatorDesc d, got;
	aclrtStream s, never;
	int obj;

	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtCreateStream(&never));
	ACL_OK(aclrtAllocatorUnregister(never));
	ACL_OK(aclrtAllocatorUnregister(never));
	d = make_desc(&obj, 1 | 2 | 8);
	ACL_OK(aclrtAllocatorRegister(s, d));
	ACL_OK(aclrtAllocatorUnregister(s));
	ACL_OK(aclrtAllocatorUnregister(s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAllocatorGetByStream(s, &got, NULL, NULL, NULL, NULL, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAllocatorUnregister(NULL));
	ACL_OK(aclrtAllocatorRegister(s, d));
	ACL_OK(aclrtDestroyStream(s));
	/* A destroyed stream has nothing registered any more. */
	ACL_OK(aclrtAllocatorUnregister(s));
	ACL_OK(aclrtAllocatorDestroyDesc(d));
	ACL_OK(aclrtDestroyStream(never));
}
END_TEST

START_TEST(get_by_stream_reports_what_is_missing)
{
	aclrtAllocatorDesc d, got = NULL;
	aclrtStream s;
	const char *msg;
	int obj;

	ACL_OK(aclrtCreateStream(&s));
	ck_assert_int_eq(aclrtAllocatorGetByStream(s, &got, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
	msg = aclGetRecentErrMsg();
	ck_assert_ptr_nonnull(msg);
	ck_assert_msg(strstr(msg, "not registered"), "message: %s", msg);
	ck_assert_ptr_null(got);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAllocatorGetByStream(NULL, &got, NULL, NULL, NULL, NULL, NULL));
	/* A failed lookup with a NULL stream breaks nothing afterwards. */
	d = make_desc(&obj, 1 | 2 | 8);
	ACL_OK(aclrtAllocatorRegister(s, d));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAllocatorGetByStream(s, NULL, NULL, NULL, NULL, NULL, NULL));
	ACL_OK(aclrtAllocatorGetByStream(s, &got, NULL, NULL, NULL, NULL, NULL));
	ck_assert_ptr_eq(got, d);
	ACL_OK(aclrtAllocatorDestroyDesc(d));
	ACL_OK(aclrtDestroyStream(s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAllocatorGetByStream(s, &got, NULL, NULL, NULL, NULL, NULL));
}
END_TEST

START_TEST(every_kind_of_stream_takes_a_registration)
{
	aclrtStream s[4], def;
	aclrtContext ctx, mine;
	aclrtAllocatorDesc d, got;
	unsigned int i;
	int obj;

	d = make_desc(&obj, 1 | 2 | 8);
	ACL_OK(aclrtCreateStreamWithConfig(&s[0], 0, 0));
	ACL_OK(aclrtCreateStreamWithConfig(&s[1], 5, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC));
	ACL_OK(aclrtCreateStreamWithConfig(&s[2], 7, ACL_STREAM_HUGE));
	ACL_OK(aclrtCtxGetCurrentDefaultStream(&def));
	s[3] = def;
	for (i = 0; i < 4; i++) {
		ACL_OK(aclrtAllocatorRegister(s[i], d));
		ACL_OK(aclrtAllocatorGetByStream(s[i], &got, NULL, NULL, NULL, NULL, NULL));
		ck_assert_ptr_eq(got, d);
	}
	/* The registry is keyed by stream, whatever the current context. */
	ACL_OK(aclrtGetCurrentContext(&mine));
	ACL_OK(aclrtCreateContext(&ctx, 0));
	ACL_OK(aclrtAllocatorGetByStream(s[1], &got, NULL, NULL, NULL, NULL, NULL));
	ACL_OK(aclrtAllocatorUnregister(s[1]));
	ACL_OK(aclrtSetCurrentContext(mine));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAllocatorGetByStream(s[1], &got, NULL, NULL, NULL, NULL, NULL));
	ACL_OK(aclrtDestroyContext(ctx));
	for (i = 0; i < 3; i++)
		ACL_OK(aclrtDestroyStream(s[i]));
	ACL_OK(aclrtAllocatorUnregister(def));
	ACL_OK(aclrtAllocatorDestroyDesc(d));
}
END_TEST

#define REUSE_STREAMS 16

START_TEST(destroying_a_stream_drops_its_registration)
{
	aclrtAllocatorDesc d, got;
	struct test_alloc ta;
	aclrtStream s;
	int obj;

	d = make_desc(&obj, 1 | 2 | 8);
	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtAllocatorRegister(s, d));
	ACL_OK(aclrtDestroyStream(s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAllocatorGetByStream(s, &got, NULL, NULL, NULL, NULL, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAllocatorRegister(s, d));

	/*
	 * That much a dead handle alone would give. A handle is the stream's
	 * address, so streams created after others were destroyed get some of
	 * their handle values again: those live streams must have no
	 * registration (a registry keyed by handle value would still hold one).
	 */
	{
		aclrtStream old[REUSE_STREAMS], fresh[REUSE_STREAMS];
		unsigned int i, j, reused = 0;

		for (i = 0; i < REUSE_STREAMS; i++) {
			ACL_OK(aclrtCreateStream(&old[i]));
			ACL_OK(aclrtAllocatorRegister(old[i], d));
		}
		for (i = 0; i < REUSE_STREAMS; i++)
			ACL_OK(aclrtDestroyStream(old[i]));
		for (i = 0; i < REUSE_STREAMS; i++)
			ACL_OK(aclrtCreateStream(&fresh[i]));
		for (i = 0; i < REUSE_STREAMS; i++) {
			for (j = 0; j < REUSE_STREAMS; j++)
				reused += fresh[i] == old[j];
			ACL_ERR(ACL_ERROR_INVALID_PARAM,
				aclrtAllocatorGetByStream(fresh[i], &got, NULL, NULL, NULL, NULL, NULL));
		}
		ck_assert_msg(reused > 0, "no handle value came back among %d new streams: the test proves nothing",
			      REUSE_STREAMS);
		/* And they take registrations of their own. */
		for (i = 0; i < REUSE_STREAMS; i++) {
			ACL_OK(aclrtAllocatorRegister(fresh[i], d));
			ACL_OK(aclrtAllocatorGetByStream(fresh[i], &got, NULL, NULL, NULL, NULL, NULL));
			ck_assert_ptr_eq(got, d);
			ACL_OK(aclrtDestroyStream(fresh[i]));
		}
	}
	ACL_OK(aclrtAllocatorDestroyDesc(d));

	/* A stream with work and a registration, destroyed: the allocator
	 * is never called again and gets every block back. */
	ta_init(&ta, MIB, 2);
	ACL_OK(aclrtCreateStream(&s));
	ta_register(&ta, s);
	{
		const int64_t dims[2] = { 4, 64 };
		struct dtensor *x = dt_new(ACL_FLOAT, 2, dims, 1, -1, 1), *y = dt_new(ACL_FLOAT, 2, dims, 2, 0, 0);

		ACL_OK(run_op("SoftmaxV2", x, NULL, y, NULL, s));
		ACL_OK(aclrtDestroyStream(s));
		ck_assert_uint_eq(atomic_load(&ta.allocs), 1);
		ck_assert_uint_eq(atomic_load(&ta.frees), 1);
		dt_free(x);
		dt_free(y);
	}
	ta_fini(&ta);
}
END_TEST

START_TEST(registering_calls_no_callback)
{
	struct test_alloc ta;
	aclrtStream s;

	ta_init(&ta, MIB, 1);
	ACL_OK(aclrtCreateStream(&s));
	ta_register(&ta, s);
	ta_register(&ta, s);
	ACL_OK(aclrtAllocatorUnregister(s));
	ck_assert_uint_eq(atomic_load(&ta.allocs) + atomic_load(&ta.frees) + atomic_load(&ta.get_addrs) +
				  atomic_load(&ta.advises), 0);
	ACL_OK(aclrtDestroyStream(s));
	ta_fini(&ta);
}
END_TEST

/* ---- the allocator flow ----------------------------------------------------------- */

/*
 * Workspace by lib/ops' formulas (docs/ops.md), worked out here for the
 * shapes used: a softmax or sum over the last axis keeps a row's values; an
 * fp16/bf16 MatMul widens both operands to fp32 and keeps an fp32 output
 * tile, the whole output when m * n * k fits one chunk (2^20 multiply-adds);
 * an fp32 MatMul needs none, transposed or not.
 */
#define WS_SOFTMAX(cols) (4u * (cols))
#define WS_MATMUL_LOWP(m, n, k) (4u * ((m) * (k) + (k) * (n) + (m) * (n)))

START_TEST(a_counting_allocator_serves_every_workspace)
{
	const int64_t xd[2] = { 8, 100 }, rd[1] = { 8 }, ad[2] = { 24, 16 }, bd[2] = { 24, 32 }, od[2] = { 16, 32 };
	struct dtensor *x = dt_new(ACL_FLOAT, 2, xd, 3, -3, 3), *y = dt_new(ACL_FLOAT, 2, xd, 0, 0, 0);
	struct dtensor *r = dt_new(ACL_FLOAT, 1, rd, 0, 0, 0);
	struct dtensor *a = dt_new(ACL_FLOAT16, 2, ad, 4, -2, 2), *b = dt_new(ACL_FLOAT16, 2, bd, 5, -2, 2);
	struct dtensor *o = dt_new(ACL_FLOAT16, 2, od, 0, 0, 0);
	struct dtensor *fa = dt_new(ACL_FLOAT, 2, ad, 6, -2, 2), *fb = dt_new(ACL_FLOAT, 2, bd, 7, -2, 2);
	struct dtensor *fo = dt_new(ACL_FLOAT, 2, od, 0, 0, 0);
	aclopAttr *axes = attr_axes_last(false), *tr = attr_transpose(true, false);
	double want[8 * 100]; /* the largest result: the softmax */
	struct test_alloc ta;
	aclrtStream s;

	ta_init(&ta, MIB, 4);
	ACL_OK(aclrtCreateStream(&s));
	ta_register(&ta, s);

	/* Element-wise operators need no workspace: no callback. */
	ACL_OK(run_op("Add", x, x, y, NULL, s));
	ck_assert_uint_eq(atomic_load(&ta.allocs), 0);

	/* One alloc, one getAddrFromBlock, one free per operator, the
	 * formula's size, an address inside the pool. */
	ACL_OK(run_op("SoftmaxV2", x, NULL, y, NULL, s));
	ck_assert_uint_eq(atomic_load(&ta.allocs), 1);
	ck_assert_uint_eq(atomic_load(&ta.get_addrs), 1);
	ck_assert_uint_eq(atomic_load(&ta.frees), 1); /* right after the enqueue */
	ck_assert_uint_eq(atomic_load(&ta.last_size), WS_SOFTMAX(100));
	ACL_OK(run_op("ReduceSumD", x, NULL, r, axes, s));
	ck_assert_uint_eq(atomic_load(&ta.allocs), 2);
	ck_assert_uint_eq(atomic_load(&ta.last_size), WS_SOFTMAX(100));
	ACL_OK(run_op("MatMul", a, b, o, tr, s));
	ck_assert_uint_eq(atomic_load(&ta.allocs), 3);
	ck_assert_uint_eq(atomic_load(&ta.last_size), WS_MATMUL_LOWP(16, 32, 24));
	/* An fp32 MatMul, even transposed, needs none: no callback. */
	ACL_OK(run_op("MatMul", fa, fb, fo, tr, s));
	ck_assert_uint_eq(atomic_load(&ta.allocs), 3);
	ck_assert_uint_eq(atomic_load(&ta.outside_pool), 0);
	ck_assert_uint_eq(atomic_load(&ta.advises), 0);
	ACL_OK(aclrtSynchronizeStream(s));
	ck_assert_uint_eq(atomic_load(&ta.frees), atomic_load(&ta.allocs));
	ck_assert_uint_eq(atomic_load(&ta.wrong_thread), 0);

	host_softmax(x->host, 8, 100, want);
	dt_expect(y, want, 1e-3);
	host_reduce(x->host, 8, 100, false, want);
	dt_expect(r, want, 300);
	host_matmul(a->host, b->host, 16, 32, 24, true, false, want);
	dt_expect(o, want, 100);
	host_matmul(fa->host, fb->host, 16, 32, 24, true, false, want);
	dt_expect(fo, want, 100);

	ACL_OK(aclrtAllocatorUnregister(s));
	ACL_OK(aclrtDestroyStream(s));
	ta_fini(&ta);
	aclopDestroyAttr(axes);
	aclopDestroyAttr(tr);
	dt_free(x);
	dt_free(y);
	dt_free(r);
	dt_free(a);
	dt_free(b);
	dt_free(o);
	dt_free(fa);
	dt_free(fb);
	dt_free(fo);
}
END_TEST

START_TEST(steady_state_is_one_submit_per_operator)
{
	const int64_t xd[2] = { 4, 256 };
	struct dtensor *x = dt_new(ACL_FLOAT, 2, xd, 7, -2, 2), *y = dt_new(ACL_FLOAT, 2, xd, 0, 0, 0);
	struct drm_vnpu_pool_stats before, after;
	struct test_alloc ta;
	double want[4 * 256];
	aclrtStream s;
	unsigned long total;
	int i;

	ta_init(&ta, MIB, 2);
	ACL_OK(aclrtCreateStream(&s));
	ta_register(&ta, s);
	before = pool_stats(0);
	/* The first use binds the pool buffer: one POOL_BIND. */
	ioctl_count_start();
	ACL_OK(run_op("SoftmaxV2", x, NULL, y, NULL, s));
	ioctl_count_stop();
	ck_assert_uint_eq(ioctl_count(NR_POOL_BIND), 1);
	ck_assert_uint_eq(ioctl_count(NR_SUBMIT), 1);
	/* Afterwards exactly one ioctl per operator: the submit. */
	ioctl_count_start();
	for (i = 0; i < 50; i++)
		ACL_OK(run_op("SoftmaxV2", x, NULL, y, NULL, s));
	total = ioctl_count_stop();
	ck_assert_uint_eq(ioctl_count(NR_SUBMIT), 50);
	ck_assert_uint_eq(total, 50);
	ACL_OK(aclrtSynchronizeStream(s));
	after = pool_stats(0);
	ck_assert_uint_eq(after.binds - before.binds, 1);
	ck_assert_uint_eq(after.ws_tasks - before.ws_tasks, 51);
	ck_assert_uint_eq(after.ws_bytes_used - before.ws_bytes_used, 51ull * WS_SOFTMAX(256));
	ck_assert_uint_eq(atomic_load(&ta.frees), 51);
	host_softmax(x->host, 4, 256, want);
	dt_expect(y, want, 1e-3);

	ACL_OK(aclrtAllocatorUnregister(s));
	ACL_OK(aclrtDestroyStream(s));
	ta_fini(&ta);
	dt_free(x);
	dt_free(y);
}
END_TEST

START_TEST(callbacks_run_on_the_calling_thread_and_may_call_acl)
{
	const int64_t xd[2] = { 2, 64 };
	struct dtensor *x = dt_new(ACL_FLOAT, 2, xd, 8, -1, 1), *y = dt_new(ACL_FLOAT, 2, xd, 0, 0, 0);
	struct test_alloc ta;
	double want[128];
	aclrtStream s;
	int i;

	ta_init(&ta, MIB, 2);
	ACL_OK(aclrtCreateStream(&s));
	ta_register(&ta, s);
	/* alloc and free query, synchronise and fill on the operator's own
	 * stream, allocate and free device memory: with any runtime lock
	 * held this deadlocks (and the test times out). */
	ta.call_acl_on = s;
	for (i = 0; i < 5; i++)
		ACL_OK(run_op("SoftmaxV2", x, NULL, y, NULL, s));
	ACL_OK(aclrtSynchronizeStream(s));
	ck_assert_uint_eq(atomic_load(&ta.allocs), 5);
	ck_assert_uint_eq(atomic_load(&ta.acl_calls_failed), 0);
	ck_assert_uint_eq(atomic_load(&ta.wrong_thread), 0);
	host_softmax(x->host, 2, 64, want);
	dt_expect(y, want, 1e-3);
	ta.call_acl_on = NULL;
	ACL_OK(aclrtAllocatorUnregister(s));
	ACL_OK(aclrtDestroyStream(s));
	ta_fini(&ta);
	dt_free(x);
	dt_free(y);
}
END_TEST

START_TEST(a_failing_acl_call_in_a_callback_does_not_outlive_it)
{
	const int64_t xd[2] = { 2, 64 };
	struct dtensor *x = dt_new(ACL_FLOAT, 2, xd, 9, -1, 1), *y = dt_new(ACL_FLOAT, 2, xd, 0, 0, 0);
	struct test_alloc ta;
	double want[128];
	const char *m;
	aclrtStream s;

	ta_init(&ta, MIB, 2);
	ACL_OK(aclrtCreateStream(&s));
	ta_register(&ta, s);
	ta.call_failing_acl = true;

	/* alloc, getAddrFromBlock and free each make aclrtGetRunMode fail;
	 * the operator succeeds and leaves a clean state clean. */
	(void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
	(void)aclGetRecentErrMsg();
	ACL_OK(run_op("SoftmaxV2", x, NULL, y, NULL, s));
	ck_assert_uint_eq(atomic_load(&ta.failing_calls), 3);
	ck_assert_int_eq(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
	m = aclGetRecentErrMsg();
	ck_assert_msg(!m, "message left behind: %s", m);

	/* A failure from before the operator is still the one reported. */
	ck_assert_int_eq(aclrtGetDevice(NULL), ACL_ERROR_INVALID_PARAM);
	ACL_OK(run_op("SoftmaxV2", x, NULL, y, NULL, s));
	ck_assert_uint_eq(atomic_load(&ta.failing_calls), 6);
	ck_assert_int_eq(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_INVALID_PARAM);
	m = aclGetRecentErrMsg();
	ck_assert_msg(m && strstr(m, "aclrtGetDevice") && !strstr(m, "aclrtGetRunMode"), "message: %s",
		      m ? m : "none");

	/* The operator's own failure is reported, not the callback's. */
	ta.fail_alloc = true;
	ck_assert_int_eq(run_op("SoftmaxV2", x, NULL, y, NULL, s), ACL_ERROR_BAD_ALLOC);
	ck_assert_uint_eq(atomic_load(&ta.failing_calls), 7);
	ck_assert_int_eq(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_BAD_ALLOC);
	m = aclGetRecentErrMsg();
	ck_assert_msg(m && strstr(m, "no block") && !strstr(m, "aclrtGetRunMode"), "message: %s", m ? m : "none");
	ta.fail_alloc = false;
	ta.call_failing_acl = false;

	ACL_OK(aclrtSynchronizeStream(s));
	host_softmax(x->host, 2, 64, want);
	dt_expect(y, want, 1e-3);
	ACL_OK(aclrtAllocatorUnregister(s));
	ACL_OK(aclrtDestroyStream(s));
	ta_fini(&ta);
	dt_free(x);
	dt_free(y);
}
END_TEST

START_TEST(unregistered_streams_use_the_runtime_pool)
{
	const int64_t xd[2] = { 6, 128 }, rd[1] = { 6 };
	struct dtensor *x = dt_new(ACL_FLOAT, 2, xd, 9, -4, 4), *r = dt_new(ACL_FLOAT, 1, rd, 0, 0, 0);
	aclopAttr *axes = attr_axes_last(false);
	struct drm_vnpu_pool_stats before, after;
	struct test_alloc ta;
	double want[6];
	aclrtStream s;
	int i;

	ta_init(&ta, MIB, 2);
	ACL_OK(aclrtCreateStream(&s));
	ta_register(&ta, s);
	ACL_OK(run_op("ReduceMaxD", x, NULL, r, axes, s));
	ck_assert_uint_eq(atomic_load(&ta.allocs), 1);
	ACL_OK(aclrtAllocatorUnregister(s));
	/* From the next operator on: the runtime's pool, no callback, no
	 * binding; still one submit per operator once warm. */
	before = pool_stats(0);
	ACL_OK(run_op("ReduceMaxD", x, NULL, r, axes, s));
	ioctl_count_start();
	for (i = 0; i < 20; i++)
		ACL_OK(run_op("ReduceMaxD", x, NULL, r, axes, s));
	ck_assert_uint_eq(ioctl_count_stop(), 20);
	ck_assert_uint_eq(ioctl_count(NR_SUBMIT), 20);
	ACL_OK(aclrtSynchronizeStream(s));
	after = pool_stats(0);
	ck_assert_uint_eq(atomic_load(&ta.allocs) + atomic_load(&ta.get_addrs), 2);
	ck_assert_uint_eq(after.binds, before.binds);
	ck_assert_uint_eq(after.ws_tasks - before.ws_tasks, 21);
	host_reduce(x->host, 6, 128, true, want);
	dt_expect(r, want, 0);

	/* Registering again takes effect from the next operator. */
	ta_register(&ta, s);
	ACL_OK(run_op("ReduceMaxD", x, NULL, r, axes, s));
	ck_assert_uint_eq(atomic_load(&ta.allocs), 2);
	ACL_OK(aclrtSynchronizeStream(s));
	dt_expect(r, want, 0);
	ACL_OK(aclrtAllocatorUnregister(s));
	ACL_OK(aclrtDestroyStream(s));
	ta_fini(&ta);
	aclopDestroyAttr(axes);
	dt_free(x);
	dt_free(r);
}
END_TEST

START_TEST(re_registering_swaps_allocators)
{
	const int64_t xd[2] = { 3, 50 };
	struct dtensor *x = dt_new(ACL_FLOAT16, 2, xd, 10, -2, 2), *y = dt_new(ACL_FLOAT16, 2, xd, 0, 0, 0);
	struct test_alloc a, b;
	double want[150];
	aclrtStream s;

	ta_init(&a, MIB, 2);
	ta_init(&b, MIB, 2);
	ACL_OK(aclrtCreateStream(&s));
	ta_register(&a, s);
	ACL_OK(run_op("SoftmaxV2", x, NULL, y, NULL, s));
	ta_register(&b, s);
	ACL_OK(run_op("SoftmaxV2", x, NULL, y, NULL, s));
	ACL_OK(run_op("SoftmaxV2", x, NULL, y, NULL, s));
	ck_assert_uint_eq(atomic_load(&a.allocs), 1);
	ck_assert_uint_eq(atomic_load(&b.allocs), 2);
	ck_assert_uint_eq(atomic_load(&b.outside_pool), 0);
	ck_assert_uint_eq(atomic_load(&b.last_addr) - (uintptr_t)b.pool < b.pool_size, 1);
	ACL_OK(aclrtSynchronizeStream(s));
	host_softmax(x->host, 3, 50, want);
	dt_expect(y, want, 1e-3);
	ACL_OK(aclrtAllocatorUnregister(s));
	ACL_OK(aclrtDestroyStream(s));
	ta_fini(&a);
	ta_fini(&b);
	dt_free(x);
	dt_free(y);
}
END_TEST

START_TEST(the_default_stream_uses_its_registration)
{
	const int64_t xd[2] = { 2, 32 };
	struct dtensor *x = dt_new(ACL_FLOAT, 2, xd, 11, -1, 1), *y = dt_new(ACL_FLOAT, 2, xd, 0, 0, 0);
	struct test_alloc ta;
	double want[64];
	aclrtStream def;

	ta_init(&ta, MIB, 2);
	ACL_OK(aclrtCtxGetCurrentDefaultStream(&def));
	ta_register(&ta, def);
	/* NULL names the default stream in operator calls. */
	ACL_OK(run_op("SoftmaxV2", x, NULL, y, NULL, NULL));
	ck_assert_uint_eq(atomic_load(&ta.allocs), 1);
	ACL_OK(aclrtSynchronizeStream(NULL));
	host_softmax(x->host, 2, 32, want);
	dt_expect(y, want, 1e-3);
	ACL_OK(aclrtAllocatorUnregister(def));
	ta_fini(&ta);
	dt_free(x);
	dt_free(y);
}
END_TEST

/* ---- failures ------------------------------------------------------------------------ */

/* An operator whose allocator misbehaves fails with @code, queues nothing
 * and gets every block it took back to the allocator. */
static void expect_failure(struct test_alloc *ta, aclrtStream s, struct dtensor *x, struct dtensor *y,
			   aclError code, unsigned int frees)
{
	unsigned int allocs = atomic_load(&ta->allocs), freed = atomic_load(&ta->frees);

	ioctl_count_start();
	ACL_ERR(code, run_op("SoftmaxV2", x, NULL, y, NULL, s));
	ioctl_count_stop();
	ck_assert_uint_eq(ioctl_count(NR_SUBMIT), 0);
	ck_assert_uint_eq(atomic_load(&ta->allocs), allocs + 1);
	ck_assert_uint_eq(atomic_load(&ta->frees), freed + frees);
	ck_assert_uint_eq(atomic_load(&ta->live), 0);
}

START_TEST(allocator_failures_queue_nothing_and_leak_nothing)
{
	const int64_t xd[2] = { 2, 64 };
	struct dtensor *x = dt_new(ACL_FLOAT, 2, xd, 12, -1, 1), *y = dt_new(ACL_FLOAT, 2, xd, 0, 0, 0);
	struct test_alloc ta;
	double want[128];
	aclrtStream s;
	void *gone;

	ta_init(&ta, 4096, 2);
	ACL_OK(aclrtCreateStream(&s));
	ta_register(&ta, s);

	ta.fail_alloc = true; /* alloc returns NULL: no free either */
	expect_failure(&ta, s, x, y, ACL_ERROR_BAD_ALLOC, 0);
	ta.fail_alloc = false;

	ta.addr_mode = ADDR_NULL;
	expect_failure(&ta, s, x, y, ACL_ERROR_INVALID_PARAM, 1);
	ta.spare = malloc(4096);
	ta.addr_mode = ADDR_HOST;
	expect_failure(&ta, s, x, y, ACL_ERROR_INVALID_PARAM, 1);
	free(ta.spare);
	ACL_OK(aclrtMallocHost(&ta.spare, 4096));
	ta.addr_mode = ADDR_PINNED;
	expect_failure(&ta, s, x, y, ACL_ERROR_INVALID_PARAM, 1);
	ACL_OK(aclrtFreeHost(ta.spare));
	ACL_OK(aclrtMalloc(&gone, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
	ACL_OK(aclrtFree(gone));
	ta.freed = gone;
	ta.addr_mode = ADDR_FREED;
	expect_failure(&ta, s, x, y, ACL_ERROR_INVALID_PARAM, 1);
	ta.addr_mode = ADDR_PAST_END; /* 16 bytes left, 256 needed */
	expect_failure(&ta, s, x, y, ACL_ERROR_INVALID_PARAM, 1);
	ta.addr_mode = ADDR_UNALIGNED;
	expect_failure(&ta, s, x, y, ACL_ERROR_MEMORY_ADDRESS_UNALIGNED, 1);

	/* The stream is fine afterwards. */
	ta.addr_mode = ADDR_OK;
	ACL_OK(run_op("SoftmaxV2", x, NULL, y, NULL, s));
	ACL_OK(aclrtSynchronizeStream(s));
	host_softmax(x->host, 2, 64, want);
	dt_expect(y, want, 1e-3);
	ck_assert_uint_eq(atomic_load(&ta.frees), atomic_load(&ta.allocs) - 1);
	ACL_OK(aclrtAllocatorUnregister(s));
	ACL_OK(aclrtDestroyStream(s));
	ta_fini(&ta);
	dt_free(x);
	dt_free(y);
}
END_TEST

START_TEST(workspace_from_another_device_is_refused)
{
	const int64_t xd[2] = { 2, 64 };
	struct dtensor *x, *y;
	struct test_alloc ta;
	aclrtContext ctx0, ctx1;
	aclrtStream s;
	uint32_t n = 0;

	ACL_OK(aclrtGetDeviceCount(&n));
	if (n < 2)
		return; /* suite acl_allocator_multi boots with several devices */
	ACL_OK(aclrtGetCurrentContext(&ctx0));
	ACL_OK(aclrtCreateContext(&ctx1, 1));
	ta_init(&ta, MIB, 1); /* memory of device 1 */
	ACL_OK(aclrtSetCurrentContext(ctx0));
	x = dt_new(ACL_FLOAT, 2, xd, 13, -1, 1);
	y = dt_new(ACL_FLOAT, 2, xd, 0, 0, 0);
	ACL_OK(aclrtCreateStream(&s));
	ta.check_thread = false;
	ta_register(&ta, s);
	expect_failure(&ta, s, x, y, ACL_ERROR_INVALID_PARAM, 1);
	ACL_OK(aclrtAllocatorUnregister(s));
	ACL_OK(aclrtDestroyStream(s));
	ta_fini(&ta);
	dt_free(x);
	dt_free(y);
	ACL_OK(aclrtDestroyContext(ctx1));
}
END_TEST

/* ---- one allocator, two streams ------------------------------------------------------ */

/* S1 waits at a gate, then runs an operator on slot 0 of a shared
 * allocator; S2 runs one on the same slot while S1's is still pending. */
struct shared {
	struct acl_gate gate;
	struct test_alloc ta;
	aclrtStream s1, s2;
	struct dtensor *x1, *y1, *x2, *y2;
};

static void shared_setup(struct shared *sh)
{
	const int64_t xd[2] = { 4, 512 };

	acl_gate_init(&sh->gate);
	ta_init(&sh->ta, MIB, 1);
	sh->ta.reuse_first_slot = true;
	ACL_OK(aclrtCreateStream(&sh->s1));
	ACL_OK(aclrtCreateStream(&sh->s2));
	ta_register(&sh->ta, sh->s1);
	ta_register(&sh->ta, sh->s2);
	sh->x1 = dt_new(ACL_FLOAT, 2, xd, 21, -5, 5);
	sh->y1 = dt_new(ACL_FLOAT, 2, xd, 0, 0, 0);
	sh->x2 = dt_new(ACL_FLOAT, 2, xd, 22, -5, 5);
	sh->y2 = dt_new(ACL_FLOAT, 2, xd, 0, 0, 0);
	acl_gate_block(&sh->gate, sh->s1, 1);
	ACL_OK(run_op("SoftmaxV2", sh->x1, NULL, sh->y1, NULL, sh->s1));
}

static void shared_check_and_teardown(struct shared *sh, bool s2_ran)
{
	double want[4 * 512];

	ACL_OK(aclrtSynchronizeStream(sh->s1));
	ACL_OK(aclrtSynchronizeStream(sh->s2));
	host_softmax(sh->x1->host, 4, 512, want);
	dt_expect(sh->y1, want, 1e-3);
	if (s2_ran) {
		host_softmax(sh->x2->host, 4, 512, want);
		dt_expect(sh->y2, want, 1e-3);
	}
	ck_assert_uint_eq(atomic_load(&sh->ta.frees), atomic_load(&sh->ta.allocs));
	ACL_OK(aclrtAllocatorUnregister(sh->s1));
	ACL_OK(aclrtAllocatorUnregister(sh->s2));
	ACL_OK(aclrtDestroyStream(sh->s1));
	ACL_OK(aclrtDestroyStream(sh->s2));
	ta_fini(&sh->ta);
	acl_gate_fini(&sh->gate);
	dt_free(sh->x1);
	dt_free(sh->y1);
	dt_free(sh->x2);
	dt_free(sh->y2);
}

START_TEST(a_shared_allocator_is_serialised_by_default)
{
	struct drm_vnpu_pool_stats before, after;
	aclrtStreamStatus st;
	struct shared sh;

	shared_setup(&sh);
	before = pool_stats(0);
	ACL_OK(run_op("SoftmaxV2", sh.x2, NULL, sh.y2, NULL, sh.s2));
	after = pool_stats(0);
	ck_assert_uint_eq(after.hazards_serialized - before.hazards_serialized, 1);
	ck_assert_uint_eq(after.hazards_rejected, before.hazards_rejected);
	/* S2 now waits for S1's operator, which waits for the gate. */
	acl_test_sleep_ms(200);
	ACL_OK(aclrtStreamQuery(sh.s2, &st));
	ck_assert_int_eq(st, ACL_STREAM_STATUS_NOT_READY);
	acl_gate_open(&sh.gate, 1);
	shared_check_and_teardown(&sh, true);
}
END_TEST

static void strict_hazard(void)
{
	struct drm_vnpu_pool_stats before, after;
	unsigned int frees;
	struct shared sh;
	const char *msg;

	shared_setup(&sh);
	before = pool_stats(0);
	frees = atomic_load(&sh.ta.frees);
	ioctl_count_start();
	ck_assert_int_eq(run_op("SoftmaxV2", sh.x2, NULL, sh.y2, NULL, sh.s2), ACL_ERROR_RT_RESOURCE_ALLOC_FAIL);
	ioctl_count_stop();
	msg = aclGetRecentErrMsg();
	ck_assert_msg(msg && strstr(msg, "hazard"), "message: %s", msg ? msg : "none");
	after = pool_stats(0);
	ck_assert_uint_eq(after.hazards_rejected - before.hazards_rejected, 1);
	ck_assert_uint_eq(after.hazards_serialized, before.hazards_serialized);
	/* The block went back; the failed submit was the only attempt. */
	ck_assert_uint_eq(atomic_load(&sh.ta.frees), frees + 1);
	ck_assert_uint_eq(ioctl_count(NR_SUBMIT), 1);
	acl_gate_open(&sh.gate, 1);
	/* Once S1 is done the same call succeeds. */
	ACL_OK(aclrtSynchronizeStream(sh.s1));
	ACL_OK(run_op("SoftmaxV2", sh.x2, NULL, sh.y2, NULL, sh.s2));
	shared_check_and_teardown(&sh, true);
}

static void env_strict_setup(void)
{
	setenv("VNPU_HAZARD_POLICY", "strict", 1);
	acl_fixture_setup();
}

START_TEST(strict_policy_by_environment_rejects_the_hazard)
{
	strict_hazard();
}
END_TEST

/* aclInit is optional: the environment alone gives strict streams. */
static void env_strict_no_init_setup(void)
{
	setenv("VNPU_HAZARD_POLICY", "strict", 1);
	ACL_OK(aclrtSetDevice(0));
}

static void no_init_teardown(void)
{
	ACL_OK(aclrtResetDevice(0));
}

START_TEST(strict_policy_by_environment_without_acl_init)
{
	strict_hazard();
}
END_TEST

static char config_path[64];

static void config_strict_setup(void)
{
	FILE *f;

	unsetenv("VNPU_HAZARD_POLICY");
	snprintf(config_path, sizeof(config_path), "/tmp/vnpu-acl-strict-%d.json", (int)getpid());
	f = fopen(config_path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("{\"dump\": {}, \"vnpu\": {\"hazard_policy\": \"strict\"}}\n", f);
	fclose(f);
	ACL_OK(aclInit(config_path));
	ACL_OK(aclrtSetDevice(0));
}

static void config_strict_teardown(void)
{
	acl_fixture_teardown();
	unlink(config_path);
}

START_TEST(strict_policy_by_configuration_rejects_the_hazard)
{
	strict_hazard();
}
END_TEST

struct runner {
	aclrtContext ctx;
	aclrtStream s;
	struct dtensor *x, *y;
	int iters;
};

static void *run_softmaxes(void *arg)
{
	struct runner *r = arg;
	int i;

	ACL_OK(aclrtSetCurrentContext(r->ctx));
	for (i = 0; i < r->iters; i++)
		ACL_OK(run_op("SoftmaxV2", r->x, NULL, r->y, NULL, r->s));
	ACL_OK(aclrtSynchronizeStream(r->s));
	return NULL;
}

START_TEST(a_shared_allocator_on_concurrent_streams_stays_correct)
{
	const int64_t xd[2] = { 16, 2048 };
	struct runner r[2];
	struct test_alloc ta;
	aclrtContext ctx;
	pthread_t t[2];
	double want[16 * 2048];
	int i;

	ta_init(&ta, MIB, 1);
	ta.reuse_first_slot = true; /* both streams always get the same block */
	ta.check_thread = false;
	ACL_OK(aclrtGetCurrentContext(&ctx));
	for (i = 0; i < 2; i++) {
		r[i].ctx = ctx;
		r[i].iters = 30;
		ACL_OK(aclrtCreateStream(&r[i].s));
		ta_register(&ta, r[i].s);
		r[i].x = dt_new(ACL_FLOAT, 2, xd, 30 + (unsigned int)i, -8, 8);
		r[i].y = dt_new(ACL_FLOAT, 2, xd, 0, 0, 0);
	}
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, run_softmaxes, &r[i]), 0);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < 2; i++) {
		host_softmax(r[i].x->host, 16, 2048, want);
		dt_expect(r[i].y, want, 1e-3);
		ACL_OK(aclrtAllocatorUnregister(r[i].s));
		ACL_OK(aclrtDestroyStream(r[i].s));
		dt_free(r[i].x);
		dt_free(r[i].y);
	}
	ck_assert_uint_eq(atomic_load(&ta.allocs), 60);
	ck_assert_uint_eq(atomic_load(&ta.frees), 60);
	ta_fini(&ta);
}
END_TEST

/* ---- the user frees its pool --------------------------------------------------------- */

START_TEST(freeing_the_pool_after_synchronize_unbinds_it)
{
	const int64_t xd[2] = { 4, 128 };
	struct dtensor *x = dt_new(ACL_FLOAT, 2, xd, 40, -2, 2), *y = dt_new(ACL_FLOAT, 2, xd, 0, 0, 0);
	struct drm_vnpu_pool_stats before, after;
	struct test_alloc ta;
	aclrtStream s[2];
	size_t used;
	double want[512];
	int i;

	used = acl_test_mem_used();
	ta_init(&ta, MIB, 2);
	before = pool_stats(0);
	for (i = 0; i < 2; i++) {
		ACL_OK(aclrtCreateStream(&s[i]));
		ta_register(&ta, s[i]);
		ACL_OK(run_op("SoftmaxV2", x, NULL, y, NULL, s[i]));
		ACL_OK(aclrtSynchronizeStream(s[i]));
		ACL_OK(aclrtAllocatorUnregister(s[i]));
	}
	after = pool_stats(0);
	ck_assert_uint_eq(after.binds - before.binds, 2);
	/* aclrtFree unbinds from both streams; the memory goes back. */
	ioctl_count_start();
	ta_fini(&ta);
	ioctl_count_stop();
	ck_assert_uint_eq(ioctl_count(NR_POOL_UNBIND), 2);
	after = pool_stats(0);
	ck_assert_uint_eq(after.unbinds - before.unbinds, 2);
	ck_assert_uint_eq(after.bytes_bound, before.bytes_bound);
	ck_assert_uint_le(acl_test_mem_used(), used + 2 * 8192); /* dt buffers only */
	host_softmax(x->host, 4, 128, want);
	dt_expect(y, want, 1e-3);
	for (i = 0; i < 2; i++)
		ACL_OK(aclrtDestroyStream(s[i]));
	dt_free(x);
	dt_free(y);
}
END_TEST

START_TEST(freeing_the_pool_without_synchronize_is_safe)
{
	const int64_t xd[2] = { 8, 1024 };
	struct dtensor *x = dt_new(ACL_FLOAT, 2, xd, 41, -3, 3), *y = dt_new(ACL_FLOAT, 2, xd, 0, 0, 0);
	struct acl_gate gate;
	struct test_alloc ta;
	aclrtStream s;
	void *again[4];
	size_t used;
	double want[8 * 1024];
	int i;

	acl_gate_init(&gate);
	ta_init(&ta, MIB, 2);
	ACL_OK(aclrtCreateStream(&s));
	ta_register(&ta, s);
	used = acl_test_mem_used();
	acl_gate_block(&gate, s, 1);
	for (i = 0; i < 4; i++)
		ACL_OK(run_op("SoftmaxV2", x, NULL, y, NULL, s));
	/* Against CANN's advice: give the pool back while the operators
	 * that use it have not even started. */
	ACL_OK(aclrtAllocatorUnregister(s));
	ta_fini(&ta);
	/* New allocations must not get the memory the queued work uses:
	 * fill them with a pattern the operators would overwrite. */
	for (i = 0; i < 4; i++) {
		ACL_OK(aclrtMalloc(&again[i], MIB, ACL_MEM_MALLOC_HUGE_FIRST));
		ACL_OK(aclrtMemset(again[i], MIB, 0x5a, MIB));
	}
	acl_gate_open(&gate, 1);
	ACL_OK(aclrtSynchronizeStream(s));
	host_softmax(x->host, 8, 1024, want);
	dt_expect(y, want, 1e-3);
	for (i = 0; i < 4; i++) {
		unsigned char *host = malloc(MIB);
		size_t j;

		ck_assert_ptr_nonnull(host);
		ACL_OK(aclrtMemcpy(host, MIB, again[i], MIB, ACL_MEMCPY_DEVICE_TO_HOST));
		for (j = 0; j < MIB; j++)
			ck_assert_msg(host[j] == 0x5a, "new allocation %d changed at byte %zu", i, j);
		free(host);
		ACL_OK(aclrtFree(again[i]));
	}
	/* The old pool's memory went once its work was done. */
	ck_assert_uint_le(acl_test_mem_used(), used);
	ACL_OK(aclrtDestroyStream(s));
	acl_gate_fini(&gate);
	dt_free(x);
	dt_free(y);
}
END_TEST

/* ---- many threads, many streams ------------------------------------------------------ */

#define THREADS 8
#define STREAMS 8

struct worker {
	aclrtContext ctx;
	unsigned int id;
	int failures;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	const int64_t xd[2] = { 4, 96 }, rd[1] = { 4 };
	struct test_alloc ta[STREAMS];
	aclrtStream s[STREAMS];
	struct dtensor *x, *y[STREAMS], *r[STREAMS];
	aclopAttr *axes;
	double want_sm[4 * 96], want_r[4];
	unsigned int i, round;

	ACL_OK(aclrtSetCurrentContext(w->ctx));
	axes = attr_axes_last(false);
	x = dt_new(ACL_FLOAT, 2, xd, 100 + w->id, -3, 3);
	for (i = 0; i < STREAMS; i++) {
		ta_init(&ta[i], 64 << 10, 2);
		ACL_OK(aclrtCreateStream(&s[i]));
		ta_register(&ta[i], s[i]);
		y[i] = dt_new(ACL_FLOAT, 2, xd, 0, 0, 0);
		r[i] = dt_new(ACL_FLOAT, 1, rd, 0, 0, 0);
	}
	for (round = 0; round < 6; round++) {
		for (i = 0; i < STREAMS; i++) {
			ACL_OK(run_op("SoftmaxV2", x, NULL, y[i], NULL, s[i]));
			ACL_OK(run_op("ReduceSumD", y[i], NULL, r[i], axes, s[i]));
		}
	}
	host_softmax(x->host, 4, 96, want_sm);
	host_reduce(want_sm, 4, 96, false, want_r);
	for (i = 0; i < STREAMS; i++) {
		ACL_OK(aclrtSynchronizeStream(s[i]));
		dt_expect(r[i], want_r, 1);
		ck_assert_uint_eq(atomic_load(&ta[i].allocs), 12);
		ck_assert_uint_eq(atomic_load(&ta[i].frees), 12);
		ck_assert_uint_eq(atomic_load(&ta[i].wrong_thread), 0);
		ck_assert_uint_eq(atomic_load(&ta[i].outside_pool), 0);
		ACL_OK(aclrtAllocatorUnregister(s[i]));
		ACL_OK(aclrtDestroyStream(s[i]));
		ta_fini(&ta[i]);
		dt_free(y[i]);
		dt_free(r[i]);
	}
	dt_free(x);
	aclopDestroyAttr(axes);
	return NULL;
}

START_TEST(eight_threads_with_eight_streams_and_allocators_each)
{
	struct worker w[THREADS];
	pthread_t t[THREADS];
	aclrtContext ctx;
	unsigned int i;

	ACL_OK(aclrtGetCurrentContext(&ctx));
	for (i = 0; i < THREADS; i++) {
		w[i].ctx = ctx;
		w[i].id = i;
		ck_assert_int_eq(pthread_create(&t[i], NULL, worker_main, &w[i]), 0);
	}
	for (i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
}
END_TEST

static Suite *allocator_suite(void)
{
	Suite *s = suite_create("acl_allocator");
	TCase *tc;

	tc = acl_tcase("registry", true, 60);
	tcase_add_test(tc, descriptor_setters_check_their_arguments);
	tcase_add_test(tc, register_needs_a_stream_a_descriptor_and_the_mandatory_callbacks);
	tcase_add_test(tc, registration_is_a_copy);
	tcase_add_test(tc, the_last_registration_wins);
	tcase_add_test(tc, unregister_is_idempotent);
	tcase_add_test(tc, get_by_stream_reports_what_is_missing);
	tcase_add_test(tc, every_kind_of_stream_takes_a_registration);
	tcase_add_test(tc, destroying_a_stream_drops_its_registration);
	tcase_add_test(tc, registering_calls_no_callback);
	suite_add_tcase(s, tc);

	tc = acl_tcase("flow", true, 120);
	tcase_add_test(tc, a_counting_allocator_serves_every_workspace);
	tcase_add_test(tc, steady_state_is_one_submit_per_operator);
	tcase_add_test(tc, callbacks_run_on_the_calling_thread_and_may_call_acl);
	tcase_add_test(tc, a_failing_acl_call_in_a_callback_does_not_outlive_it);
	tcase_add_test(tc, unregistered_streams_use_the_runtime_pool);
	tcase_add_test(tc, re_registering_swaps_allocators);
	tcase_add_test(tc, the_default_stream_uses_its_registration);
	tcase_add_test(tc, allocator_failures_queue_nothing_and_leak_nothing);
	suite_add_tcase(s, tc);

	/* Does something only with two devices or more (suite acl_allocator_multi). */
	tc = acl_tcase("multidev", true, 60);
	tcase_add_test(tc, workspace_from_another_device_is_refused);
	suite_add_tcase(s, tc);

	tc = acl_tcase("shared", true, 120);
	tcase_add_test(tc, a_shared_allocator_is_serialised_by_default);
	tcase_add_test(tc, a_shared_allocator_on_concurrent_streams_stays_correct);
	tcase_add_test(tc, freeing_the_pool_after_synchronize_unbinds_it);
	tcase_add_test(tc, freeing_the_pool_without_synchronize_is_safe);
	tcase_add_test(tc, eight_threads_with_eight_streams_and_allocators_each);
	suite_add_tcase(s, tc);

	tc = acl_tcase("strict_env", false, 60);
	tcase_add_checked_fixture(tc, env_strict_setup, acl_fixture_teardown);
	tcase_add_test(tc, strict_policy_by_environment_rejects_the_hazard);
	suite_add_tcase(s, tc);

	tc = acl_tcase("strict_env_no_init", false, 60);
	tcase_add_checked_fixture(tc, env_strict_no_init_setup, no_init_teardown);
	tcase_add_test(tc, strict_policy_by_environment_without_acl_init);
	suite_add_tcase(s, tc);

	tc = acl_tcase("strict_config", false, 60);
	tcase_add_checked_fixture(tc, config_strict_setup, config_strict_teardown);
	tcase_add_test(tc, strict_policy_by_configuration_rejects_the_hazard);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return acl_test_run(allocator_suite());
}
