// SPDX-License-Identifier: MIT
/*
 * ACL conformance: host callbacks (aclrtSubscribeReport, aclrtLaunchCallback,
 * aclrtProcessReport, aclrtUnSubscribeReport) and aclrtLaunchHostFunc.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "acl_optest.h"
#include "acl_test.h"

/* ---- a report thread ------------------------------------------------------ */

struct reporter {
	pthread_t thread;
	aclrtContext ctx;
	atomic_bool stop;
	atomic_int processed;
};

static void *report_loop(void *arg)
{
	struct reporter *r = arg;

	ACL_OK(aclrtSetCurrentContext(r->ctx));
	while (!atomic_load(&r->stop)) {
		aclError ret = aclrtProcessReport(20);

		if (ret == ACL_SUCCESS)
			atomic_fetch_add(&r->processed, 1);
		else
			ck_assert_msg(ret == ACL_ERROR_RT_REPORT_TIMEOUT || ret == ACL_ERROR_RT_THREAD_SUBSCRIBE,
				      "aclrtProcessReport = %d", ret);
	}
	return NULL;
}

static void reporter_start(struct reporter *r)
{
	memset(r, 0, sizeof(*r));
	ACL_OK(aclrtGetCurrentContext(&r->ctx));
	ck_assert_int_eq(pthread_create(&r->thread, NULL, report_loop, r), 0);
}

static void reporter_stop(struct reporter *r)
{
	atomic_store(&r->stop, true);
	pthread_join(r->thread, NULL);
}

/* ---- what callbacks record ------------------------------------------------ */

struct record {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int calls;
	pthread_t thread[16];
	int order[16];
	volatile uint64_t *word;	/* pinned word the test writes from the stream */
	uint64_t seen[16][2];		/* the word at the start and end of the call */
	int wait_for;			/* non-blocking: wait until the word reaches it */
	unsigned int sleep_ms;
};

static struct record rec;

static void record_init(void)
{
	memset(&rec, 0, sizeof(rec));
	pthread_mutex_init(&rec.lock, NULL);
	pthread_cond_init(&rec.cond, NULL);
}

static void callback(void *arg)
{
	int n;
	uint64_t start = rec.word ? *rec.word : 0, end;

	if (rec.wait_for) {
		uint64_t deadline = acl_test_now_ns() + 5000000000ull;

		while (*rec.word < (uint64_t)rec.wait_for && acl_test_now_ns() < deadline)
			acl_test_sleep_ms(1);
	}
	if (rec.sleep_ms)
		acl_test_sleep_ms(rec.sleep_ms);
	end = rec.word ? *rec.word : 0;
	pthread_mutex_lock(&rec.lock);
	n = rec.calls++;
	if (n < 16) {
		rec.thread[n] = pthread_self();
		rec.order[n] = (int)(intptr_t)arg;
		rec.seen[n][0] = start;
		rec.seen[n][1] = end;
	}
	pthread_cond_broadcast(&rec.cond);
	pthread_mutex_unlock(&rec.lock);
}

/* Wait (up to 10 s) until @n callbacks have run. */
static void wait_calls(int n)
{
	uint64_t deadline = acl_test_now_ns() + 10000000000ull;

	pthread_mutex_lock(&rec.lock);
	while (rec.calls < n && acl_test_now_ns() < deadline) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 10000000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&rec.cond, &rec.lock, &ts);
	}
	ck_assert_int_eq(rec.calls, n);
	pthread_mutex_unlock(&rec.lock);
}

/* ---- tests ----------------------------------------------------------------- */

START_TEST(callbacks_run_on_the_subscribed_thread_in_order)
{
	struct reporter r;
	aclrtStream s;
	int i;

	record_init();
	ACL_OK(aclrtCreateStream(&s));
	reporter_start(&r);
	ACL_OK(aclrtSubscribeReport((uint64_t)r.thread, s));
	for (i = 0; i < 6; i++)
		ACL_OK(aclrtLaunchCallback(callback, (void *)(intptr_t)i,
					   i % 2 ? ACL_CALLBACK_BLOCK : ACL_CALLBACK_NO_BLOCK, s));
	ACL_OK(aclrtSynchronizeStream(s));
	wait_calls(6);
	for (i = 0; i < 6; i++) {
		ck_assert(pthread_equal(rec.thread[i], r.thread));
		ck_assert_int_eq(rec.order[i], i);
	}
	ACL_OK(aclrtUnSubscribeReport((uint64_t)r.thread, s));
	reporter_stop(&r);
	ck_assert_int_eq(atomic_load(&r.processed), 6);
	ACL_OK(aclrtDestroyStream(s));
}
END_TEST

/* A thread that (subscribes @s to @report_thread and) launches a blocking
 * callback tagged @tag on @s, its submit ioctl held if @stall. */
struct launcher {
	aclrtContext ctx;
	aclrtStream s;
	uint64_t report_thread;
	bool subscribe, stall;
	int tag;
	aclError sub_ret, ret;
	atomic_bool done;
};

static void *launch_thread(void *arg)
{
	struct launcher *l = arg;

	ACL_OK(aclrtSetCurrentContext(l->ctx));
	l->sub_ret = l->subscribe ? aclrtSubscribeReport(l->report_thread, l->s) : ACL_SUCCESS;
	if (l->stall)
		ioctl_stall_arm(NR_SUBMIT);
	l->ret = aclrtLaunchCallback(callback, (void *)(intptr_t)l->tag, ACL_CALLBACK_BLOCK, l->s);
	atomic_store(&l->done, true);
	return NULL;
}

START_TEST(a_launch_inside_an_ioctl_holds_up_no_other_stream)
{
	struct launcher l1, l2;
	struct reporter r;
	aclrtStream s1, s2;
	uint64_t deadline;
	pthread_t t1, t2;
	bool done2;

	record_init();
	ACL_OK(aclrtCreateStream(&s1));
	ACL_OK(aclrtCreateStream(&s2));
	reporter_start(&r);
	ACL_OK(aclrtSubscribeReport((uint64_t)r.thread, s1));
	memset(&l1, 0, sizeof(l1));
	memset(&l2, 0, sizeof(l2));
	ACL_OK(aclrtGetCurrentContext(&l1.ctx));
	l2.ctx = l1.ctx;
	l1.s = s1;
	l1.tag = 1;
	l1.stall = true;
	l2.s = s2;
	l2.tag = 2;
	l2.subscribe = true;
	l2.report_thread = (uint64_t)r.thread;

	/* The launch on s1 is held inside its submit ioctl ... */
	ck_assert_int_eq(pthread_create(&t1, NULL, launch_thread, &l1), 0);
	ck_assert_msg(ioctl_stall_wait(10000), "the launch on s1 issued no submit");
	/* ... while s2 is subscribed to the same report thread, launched on,
	 * and its callback runs: no lock they share is held across it. */
	ck_assert_int_eq(pthread_create(&t2, NULL, launch_thread, &l2), 0);
	deadline = acl_test_now_ns() + 5000000000ull;
	while (!atomic_load(&l2.done) && acl_test_now_ns() < deadline)
		acl_test_sleep_ms(1);
	done2 = atomic_load(&l2.done);
	if (done2) {
		ACL_OK(l2.sub_ret);
		ACL_OK(l2.ret);
		wait_calls(1);
		ck_assert_int_eq(rec.order[0], 2);
	}
	ioctl_stall_release();
	ck_assert_int_eq(pthread_join(t1, NULL), 0);
	ck_assert_int_eq(pthread_join(t2, NULL), 0);
	ck_assert_msg(done2, "launching on s2 waited for an ioctl of a launch on s1");

	/* s1's callback runs once let go. */
	ACL_OK(l1.ret);
	wait_calls(2);
	ck_assert_int_eq(rec.order[1], 1);
	ACL_OK(aclrtSynchronizeStream(s1));
	ACL_OK(aclrtSynchronizeStream(s2));
	ACL_OK(aclrtUnSubscribeReport((uint64_t)r.thread, s1));
	ACL_OK(aclrtUnSubscribeReport((uint64_t)r.thread, s2));
	reporter_stop(&r);
	ck_assert_int_eq(atomic_load(&r.processed), 2);
	ACL_OK(aclrtDestroyStream(s1));
	ACL_OK(aclrtDestroyStream(s2));
}
END_TEST

START_TEST(callback_waits_for_earlier_work)
{
	struct reporter r;
	struct acl_gate g;
	aclrtStream s;

	record_init();
	acl_gate_init(&g);
	ACL_OK(aclrtCreateStream(&s));
	reporter_start(&r);
	ACL_OK(aclrtSubscribeReport((uint64_t)r.thread, s));
	acl_gate_block(&g, s, 1);
	ACL_OK(aclrtLaunchCallback(callback, NULL, ACL_CALLBACK_NO_BLOCK, s));
	acl_test_sleep_ms(100);
	pthread_mutex_lock(&rec.lock);
	ck_assert_int_eq(rec.calls, 0);
	pthread_mutex_unlock(&rec.lock);
	acl_gate_open(&g, 1);
	wait_calls(1);
	ACL_OK(aclrtSynchronizeStream(s));
	ACL_OK(aclrtUnSubscribeReport((uint64_t)r.thread, s));
	reporter_stop(&r);
	ACL_OK(aclrtDestroyStream(s));
	acl_gate_fini(&g);
}
END_TEST

START_TEST(blocking_callback_holds_back_later_work)
{
	struct reporter r;
	uint64_t *word;
	aclrtStream s;

	record_init();
	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtMallocHost((void **)&word, 8));
	*word = 0;
	rec.word = word;
	rec.sleep_ms = 100;
	reporter_start(&r);
	ACL_OK(aclrtSubscribeReport((uint64_t)r.thread, s));
	ioctl_count_start();
	ACL_OK(aclrtLaunchCallback(callback, NULL, ACL_CALLBACK_BLOCK, s));
	ACL_OK(aclrtValueWrite(word, 1, 0, s));
	ACL_OK(aclrtSynchronizeStream(s));
	ioctl_count_stop();
	ck_assert_uint_eq(*word, 1);
	wait_calls(1);
	/* The write after the callback had not happened while it ran. */
	ck_assert_uint_eq(rec.seen[0][0], 0);
	ck_assert_uint_eq(rec.seen[0][1], 0);
	/* The release raised the ticket word and told the kernel once: the
	 * parked wait looked again at once (nothing polls the word). */
	ck_assert_uint_eq(ioctl_count(NR_SIGNAL), 1);
	ACL_OK(aclrtUnSubscribeReport((uint64_t)r.thread, s));
	reporter_stop(&r);
	ACL_OK(aclrtFreeHost(word));
	ACL_OK(aclrtDestroyStream(s));
}
END_TEST

/*
 * More work queued behind blocking callbacks than the kernel lets one file
 * have unfinished (max_jobs_per_file; suite acl_callback_quota runs this
 * case with a small limit): the launching thread waits for room, and the
 * callbacks still release the work that fills it.
 */
START_TEST(callbacks_release_work_past_the_job_limit)
{
	unsigned long limit = 16384;
	struct reporter r;
	uint64_t *word;
	aclrtStream s;
	aclrtStream h;

	ck_assert(acl_test_param("max_jobs_per_file", &limit));
	if (limit > 64)
		return;	/* only meaningful with a small limit */
	record_init();
	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtCreateStream(&h));
	ACL_OK(aclrtMallocHost((void **)&word, 8));
	*word = 0;
	reporter_start(&r);
	ACL_OK(aclrtSubscribeReport((uint64_t)r.thread, s));
	for (unsigned long i = 0; i < 4 * limit; i++) {
		if (i % limit == 0)
			ACL_OK(aclrtLaunchCallback(callback, (void *)(intptr_t)i, ACL_CALLBACK_BLOCK, s));
		ACL_OK(aclrtValueWrite(word, i + 1, 0, s));
	}
	ACL_OK(aclrtSynchronizeStream(s));
	ck_assert_uint_eq(*word, 4 * limit);
	wait_calls(4);
	/* Host functions run by the runtime's own thread release work too. */
	for (unsigned long i = 0; i < 2 * limit; i++) {
		if (i % limit == 0)
			ACL_OK(aclrtLaunchHostFunc(h, callback, (void *)(intptr_t)i));
		ACL_OK(aclrtValueWrite(word, i + 1, 0, h));
	}
	ACL_OK(aclrtSynchronizeStream(h));
	ck_assert_uint_eq(*word, 2 * limit);
	wait_calls(6);
	ACL_OK(aclrtUnSubscribeReport((uint64_t)r.thread, s));
	reporter_stop(&r);
	ACL_OK(aclrtFreeHost(word));
	ACL_OK(aclrtDestroyStream(h));
	ACL_OK(aclrtDestroyStream(s));
}
END_TEST

START_TEST(non_blocking_callback_lets_later_work_run)
{
	struct reporter r;
	uint64_t *word;
	aclrtStream s;

	record_init();
	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtMallocHost((void **)&word, 8));
	*word = 0;
	rec.word = word;
	rec.wait_for = 1; /* the callback returns only once the later write landed */
	reporter_start(&r);
	ACL_OK(aclrtSubscribeReport((uint64_t)r.thread, s));
	ACL_OK(aclrtLaunchCallback(callback, NULL, ACL_CALLBACK_NO_BLOCK, s));
	ACL_OK(aclrtValueWrite(word, 1, 0, s));
	wait_calls(1);
	ck_assert_uint_eq(rec.seen[0][1], 1);
	ACL_OK(aclrtSynchronizeStream(s));
	ACL_OK(aclrtUnSubscribeReport((uint64_t)r.thread, s));
	reporter_stop(&r);
	ACL_OK(aclrtFreeHost(word));
	ACL_OK(aclrtDestroyStream(s));
}
END_TEST

START_TEST(one_thread_serves_several_streams)
{
	uint64_t self = (uint64_t)pthread_self();
	aclrtStream a, b;

	record_init();
	ACL_OK(aclrtCreateStream(&a));
	ACL_OK(aclrtCreateStream(&b));
	ACL_OK(aclrtSubscribeReport(self, a));
	ACL_OK(aclrtSubscribeReport(self, b));
	ACL_OK(aclrtSubscribeReport(self, NULL)); /* the default stream */
	ACL_OK(aclrtLaunchCallback(callback, (void *)1, ACL_CALLBACK_BLOCK, a));
	ACL_OK(aclrtLaunchCallback(callback, (void *)2, ACL_CALLBACK_NO_BLOCK, b));
	ACL_OK(aclrtLaunchCallback(callback, (void *)3, ACL_CALLBACK_BLOCK, NULL));
	ACL_OK(aclrtProcessReport(5000));
	ACL_OK(aclrtProcessReport(5000));
	ACL_OK(aclrtProcessReport(5000));
	ck_assert_int_eq(rec.calls, 3);
	ck_assert_int_eq(rec.order[0] + rec.order[1] + rec.order[2], 6);
	ACL_ERR(ACL_ERROR_RT_REPORT_TIMEOUT, aclrtProcessReport(20));
	ACL_OK(aclrtSynchronizeDevice());
	ACL_OK(aclrtUnSubscribeReport(self, a));
	ACL_OK(aclrtUnSubscribeReport(self, b));
	ACL_OK(aclrtUnSubscribeReport(self, NULL));
	ACL_ERR(ACL_ERROR_RT_THREAD_SUBSCRIBE, aclrtProcessReport(20));
	ACL_OK(aclrtDestroyStream(a));
	ACL_OK(aclrtDestroyStream(b));
}
END_TEST

static void *subscribe_elsewhere(void *arg)
{
	(void)arg;
	return NULL;
}

START_TEST(subscription_codes)
{
	uint64_t self = (uint64_t)pthread_self();
	aclrtStream s;
	pthread_t other;
	int local;

	ck_assert_int_eq(pthread_create(&other, NULL, subscribe_elsewhere, NULL), 0);
	pthread_join(other, NULL);
	ACL_OK(aclrtCreateStream(&s));
	ACL_ERR(ACL_ERROR_RT_THREAD_SUBSCRIBE, aclrtProcessReport(20));
	ACL_ERR(ACL_ERROR_RT_STREAM_NO_CB_REG, aclrtLaunchCallback(callback, NULL, ACL_CALLBACK_NO_BLOCK, s));
	ACL_ERR(ACL_ERROR_RT_THREAD_SUBSCRIBE, aclrtUnSubscribeReport(self, s));
	ACL_OK(aclrtSubscribeReport(self, s));
	/* One thread per stream. */
	ACL_ERR(ACL_ERROR_RT_STREAM_SUBSCRIBE, aclrtSubscribeReport(self, s));
	ACL_ERR(ACL_ERROR_RT_STREAM_SUBSCRIBE, aclrtSubscribeReport((uint64_t)other, s));
	ACL_ERR(ACL_ERROR_RT_STREAM_SUBSCRIBE, aclrtUnSubscribeReport(self, NULL));
	ACL_ERR(ACL_ERROR_RT_THREAD_SUBSCRIBE, aclrtUnSubscribeReport((uint64_t)other, s));
	ACL_ERR(ACL_ERROR_RT_REPORT_TIMEOUT, aclrtProcessReport(20));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtProcessReport(0));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtProcessReport(-2));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtLaunchCallback(NULL, NULL, ACL_CALLBACK_NO_BLOCK, s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtLaunchCallback(callback, NULL, (aclrtCallbackBlockType)2, s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtLaunchCallback(callback, NULL, ACL_CALLBACK_BLOCK, &local));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSubscribeReport(self, &local));
	ACL_OK(aclrtUnSubscribeReport(self, s));
	ACL_ERR(ACL_ERROR_RT_THREAD_SUBSCRIBE, aclrtUnSubscribeReport(self, s));
	/* Subscribing again works. */
	ACL_OK(aclrtSubscribeReport((uint64_t)other, s));
	ACL_OK(aclrtUnSubscribeReport((uint64_t)other, s));
	ACL_OK(aclrtDestroyStream(s));
}
END_TEST

/* Pending blocking callbacks do not hang a stream that loses its thread. */
START_TEST(unsubscribe_releases_the_stream)
{
	uint64_t self = (uint64_t)pthread_self();
	uint64_t *word;
	aclrtStream s;

	record_init();
	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtMallocHost((void **)&word, 8));
	*word = 0;
	ACL_OK(aclrtSubscribeReport(self, s));
	ACL_OK(aclrtLaunchCallback(callback, NULL, ACL_CALLBACK_BLOCK, s));
	ACL_OK(aclrtValueWrite(word, 3, 0, s));
	ACL_ERR(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, aclrtSynchronizeStreamWithTimeout(s, 50));
	ACL_OK(aclrtUnSubscribeReport(self, s));
	ACL_OK(aclrtSynchronizeStream(s));
	ck_assert_uint_eq(*word, 3);
	ck_assert_int_eq(rec.calls, 0);
	/* Destroying a subscribed stream with a pending callback is fine too. */
	ACL_OK(aclrtSubscribeReport(self, s));
	ACL_OK(aclrtLaunchCallback(callback, NULL, ACL_CALLBACK_BLOCK, s));
	ACL_OK(aclrtDestroyStreamForce(s));
	ACL_ERR(ACL_ERROR_RT_THREAD_SUBSCRIBE, aclrtProcessReport(20));
	ACL_OK(aclrtFreeHost(word));
}
END_TEST

START_TEST(host_func_runs_on_a_runtime_thread_and_blocks)
{
	uint64_t *word;
	aclrtStream s;

	record_init();
	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtMallocHost((void **)&word, 8));
	*word = 0;
	rec.word = word;
	rec.sleep_ms = 100;
	ACL_OK(aclrtLaunchHostFunc(s, callback, (void *)5));
	ACL_OK(aclrtValueWrite(word, 1, 0, s));
	ACL_OK(aclrtSynchronizeStream(s));
	ck_assert_uint_eq(*word, 1);
	ck_assert_int_eq(rec.calls, 1);
	ck_assert_int_eq(rec.order[0], 5);
	ck_assert(!pthread_equal(rec.thread[0], pthread_self()));
	ck_assert_uint_eq(rec.seen[0][1], 0);
	ACL_OK(aclrtFreeHost(word));
	ACL_OK(aclrtDestroyStream(s));
}
END_TEST

START_TEST(host_func_waits_for_earlier_work)
{
	struct acl_gate g;
	aclrtStream s;
	int i;

	record_init();
	acl_gate_init(&g);
	ACL_OK(aclrtCreateStream(&s));
	acl_gate_block(&g, s, 1);
	for (i = 0; i < 4; i++)
		ACL_OK(aclrtLaunchHostFunc(i % 2 ? s : NULL, callback, (void *)(intptr_t)i));
	acl_test_sleep_ms(100);
	/* The default stream's functions ran; s's wait for the gate. */
	wait_calls(2);
	ck_assert_int_eq(rec.order[0], 0);
	ck_assert_int_eq(rec.order[1], 2);
	acl_gate_open(&g, 1);
	ACL_OK(aclrtSynchronizeStream(s));
	ck_assert_int_eq(rec.calls, 4);
	ck_assert_int_eq(rec.order[2], 1);
	ck_assert_int_eq(rec.order[3], 3);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtLaunchHostFunc(s, NULL, NULL));
	ACL_OK(aclrtDestroyStream(s));
	acl_gate_fini(&g);
}
END_TEST

/*
 * realloc() as libascendcl sees it: the C library's, unless a test makes
 * it fail for a while (each test runs in a process of its own).
 */
static atomic_bool realloc_fails;

void *realloc(void *p, size_t size)
{
	static void *(*next)(void *, size_t);

	if (atomic_load(&realloc_fails))
		return NULL;
	if (!next)
		next = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
	return next(p, size);
}

static sem_t hold_sem, releaser_up;

static void held_host_func(void *arg)
{
	(void)arg;
	sem_wait(&hold_sem);
	callback((void *)0);
}

static void *release_later(void *arg)
{
	(void)arg;
	sem_post(&releaser_up);
	acl_test_sleep_ms(300);
	sem_post(&hold_sem);
	return NULL;
}

/*
 * A reset drops the host functions its worker will not run, from every
 * stream, and lets each stream go on, also when no memory can be had
 * (the worker is held in the first one while the reset begins).
 */
START_TEST(reset_drops_queued_host_funcs_even_without_memory)
{
	aclrtStream s[20];
	pthread_t releaser;
	int i;

	record_init();
	ck_assert_int_eq(sem_init(&hold_sem, 0, 0), 0);
	ck_assert_int_eq(sem_init(&releaser_up, 0, 0), 0);
	for (i = 0; i < 20; i++) {
		ACL_OK(aclrtCreateStream(&s[i]));
		ACL_OK(aclrtLaunchHostFunc(s[i], i ? callback : held_host_func,
					   (void *)(intptr_t)i));
	}
	ck_assert_int_eq(pthread_create(&releaser, NULL, release_later, NULL), 0);
	sem_wait(&releaser_up);		/* a thread starting needs realloc() */
	atomic_store(&realloc_fails, true);
	ACL_OK(aclrtResetDevice(0));
	atomic_store(&realloc_fails, false);
	pthread_join(releaser, NULL);
	/* The held one ran; the worker had stopped before the others. */
	ck_assert_int_eq(rec.calls, 1);
	ACL_OK(aclrtSetDevice(0));
	sem_destroy(&hold_sem);
	sem_destroy(&releaser_up);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_callback");
	TCase *tc = acl_tcase("callbacks", true, 60);

	tcase_add_test(tc, callbacks_run_on_the_subscribed_thread_in_order);
	tcase_add_test(tc, callback_waits_for_earlier_work);
	tcase_add_test(tc, blocking_callback_holds_back_later_work);
	tcase_add_test(tc, non_blocking_callback_lets_later_work_run);
	tcase_add_test(tc, one_thread_serves_several_streams);
	tcase_add_test(tc, a_launch_inside_an_ioctl_holds_up_no_other_stream);
	tcase_add_test(tc, subscription_codes);
	tcase_add_test(tc, unsubscribe_releases_the_stream);
	tcase_add_test(tc, host_func_runs_on_a_runtime_thread_and_blocks);
	tcase_add_test(tc, host_func_waits_for_earlier_work);
	tcase_add_test(tc, reset_drops_queued_host_funcs_even_without_memory);
	suite_add_tcase(s, tc);

	tc = acl_tcase("job_limit", true, 60);
	tcase_add_test(tc, callbacks_release_work_past_the_job_limit);
	suite_add_tcase(s, tc);
	return acl_test_run(s);
}
