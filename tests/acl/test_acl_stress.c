// SPDX-License-Identifier: MIT
/*
 * ACL conformance under load and failure: many threads and streams at once,
 * a process exiting with work in flight, a stream that fails.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acl_test.h"

#define THREADS 8
#define STREAMS 4
#define ROUNDS 12
#define BUF (64 * 1024)

struct worker {
	int index;
	int errors;
};

/* Each thread: its own streams and buffers, a chain of async work per
 * stream per round, every result checked. */
static void *stress_worker(void *arg)
{
	struct worker *w = arg;
	aclrtStream s[STREAMS];
	unsigned char *pinned[STREAMS], *pageable = malloc(BUF), *expect = malloc(BUF);
	void *a[STREAMS], *b[STREAMS];
	int i, r;

	ck_assert_ptr_nonnull(pageable);
	ck_assert_ptr_nonnull(expect);
	ACL_OK(aclrtSetDevice(0));
	for (i = 0; i < STREAMS; i++) {
		ACL_OK(aclrtCreateStreamWithConfig(&s[i], (uint32_t)i * 2, 0));
		ACL_OK(aclrtMalloc(&a[i], BUF, ACL_MEM_MALLOC_HUGE_FIRST));
		ACL_OK(aclrtMalloc(&b[i], BUF, ACL_MEM_MALLOC_NORMAL_ONLY));
		ACL_OK(aclrtMallocHost((void **)&pinned[i], BUF));
	}
	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < STREAMS; i++) {
			unsigned int seed = (unsigned int)(w->index * 1000 + r * 10 + i);

			acl_test_fill(pinned[i], BUF, seed);
			ACL_OK(aclrtMemsetAsync(a[i], BUF, 0, BUF, s[i]));
			ACL_OK(aclrtMemcpyAsync(a[i], BUF, pinned[i], BUF, ACL_MEMCPY_HOST_TO_DEVICE, s[i]));
			ACL_OK(aclrtMemcpyAsync(b[i], BUF, a[i], BUF, ACL_MEMCPY_DEVICE_TO_DEVICE, s[i]));
			ACL_OK(aclrtMemsetAsync(a[i], BUF, 0xee, BUF / 2, s[i]));
		}
		for (i = 0; i < STREAMS; i++) {
			unsigned int seed = (unsigned int)(w->index * 1000 + r * 10 + i);

			/* Pageable: completes before returning, after the work above. */
			ACL_OK(aclrtMemcpyAsync(pageable, BUF, b[i], BUF, ACL_MEMCPY_DEVICE_TO_HOST, s[i]));
			if (acl_test_check(pageable, BUF, seed) != -1)
				w->errors++;
			ACL_OK(aclrtMemcpyAsync(pinned[i], BUF, a[i], BUF, ACL_MEMCPY_DEVICE_TO_HOST, s[i]));
		}
		for (i = 0; i < STREAMS; i++) {
			unsigned int seed = (unsigned int)(w->index * 1000 + r * 10 + i);

			ACL_OK(aclrtSynchronizeStream(s[i]));
			/* a: the pattern, its first half then overwritten. */
			acl_test_fill(expect, BUF, seed);
			memset(expect, 0xee, BUF / 2);
			if (memcmp(pinned[i], expect, BUF))
				w->errors++;
		}
	}
	for (i = 0; i < STREAMS; i++) {
		ACL_OK(aclrtDestroyStream(s[i]));
		ACL_OK(aclrtFree(a[i]));
		ACL_OK(aclrtFree(b[i]));
		ACL_OK(aclrtFreeHost(pinned[i]));
	}
	ACL_OK(aclrtResetDevice(0));
	free(pageable);
	free(expect);
	return NULL;
}

START_TEST(threads_times_streams)
{
	struct worker w[THREADS];
	pthread_t t[THREADS];
	int i;

	for (i = 0; i < THREADS; i++) {
		w[i].index = i;
		w[i].errors = 0;
		ck_assert_int_eq(pthread_create(&t[i], NULL, stress_worker, &w[i]), 0);
	}
	for (i = 0; i < THREADS; i++) {
		pthread_join(t[i], NULL);
		ck_assert_msg(w[i].errors == 0, "thread %d saw %d wrong results", i, w[i].errors);
	}
	ck_assert_uint_eq(acl_test_mem_used(), 0);
}
END_TEST

/* Threads creating and destroying objects while others use theirs. */
static void *churn_worker(void *arg)
{
	int i;

	(void)arg;
	ACL_OK(aclrtSetDevice(0));
	for (i = 0; i < 40; i++) {
		aclrtStream s;
		aclrtEvent ev;
		void *p;

		ACL_OK(aclrtCreateStream(&s));
		ACL_OK(aclrtCreateEvent(&ev));
		ACL_OK(aclrtMalloc(&p, 4096 * (size_t)(i + 1), ACL_MEM_MALLOC_HUGE_FIRST));
		ACL_OK(aclrtMemsetAsync(p, 4096, i, 4096, s));
		ACL_OK(aclrtRecordEvent(ev, s));
		ACL_OK(aclrtStreamWaitEvent(NULL, ev));
		ACL_OK(aclrtSynchronizeEvent(ev));
		ACL_OK(aclrtFree(p));
		ACL_OK(aclrtDestroyEvent(ev));
		ACL_OK(aclrtDestroyStream(s));
	}
	ACL_OK(aclrtSynchronizeStream(NULL));
	ACL_OK(aclrtResetDevice(0));
	return NULL;
}

START_TEST(concurrent_create_and_destroy)
{
	pthread_t t[THREADS];
	int i;

	for (i = 0; i < THREADS; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, churn_worker, NULL), 0);
	for (i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	ck_assert_uint_eq(acl_test_mem_used(), 0);
}
END_TEST

/* ---- process exit with work in flight ------------------------------------ */

static void child_with_work(bool kill_self)
{
	aclrtStream s;
	void *word, *big[4];
	int i;

	if (aclInit(NULL) || aclrtSetDevice(0) || aclrtCreateStream(&s) ||
	    aclrtMalloc(&word, 8, ACL_MEM_MALLOC_NORMAL_ONLY) || aclrtMemset(word, 8, 0, 8))
		_exit(2);
	for (i = 0; i < 4; i++) {
		if (aclrtMalloc(&big[i], 64 << 20, ACL_MEM_MALLOC_HUGE_FIRST) ||
		    aclrtMemsetAsync(big[i], 64 << 20, i, 64 << 20, s))
			_exit(3);
	}
	for (i = 0; i < 3; i++)
		if (aclrtMemcpyAsync(big[i + 1], 64 << 20, big[i], 64 << 20, ACL_MEMCPY_DEVICE_TO_DEVICE, s))
			_exit(4);
	/* A wait nothing will satisfy: the stream is busy when we go. */
	if (aclrtValueWait(word, 1, ACL_VALUE_WAIT_EQ, s))
		_exit(5);
	if (kill_self)
		raise(SIGKILL);
	_exit(0);
}

static void exit_with_work(bool kill_self)
{
	uint64_t deadline;
	unsigned char back[16];
	int status;
	void *p;
	pid_t pid;

	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		child_with_work(kill_self);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	if (kill_self)
		ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	else
		ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status 0x%x", status);

	/* The device frees the child's memory once its work has ended. */
	ACL_OK(aclInit(NULL));
	ACL_OK(aclrtSetDevice(0));
	deadline = acl_test_now_ns() + 30000000000ull;
	while (acl_test_mem_used() && acl_test_now_ns() < deadline)
		acl_test_sleep_ms(20);
	ck_assert_uint_eq(acl_test_mem_used(), 0);
	/* And still works. */
	ACL_OK(aclrtMalloc(&p, 16, ACL_MEM_MALLOC_NORMAL_ONLY));
	ACL_OK(aclrtMemsetAsync(p, 16, 0x42, 16, NULL));
	ACL_OK(aclrtMemcpyAsync(back, 16, p, 16, ACL_MEMCPY_DEVICE_TO_HOST, NULL));
	ck_assert_uint_eq(back[15], 0x42);
	ACL_OK(aclrtFree(p));
	ACL_OK(aclrtResetDevice(0));
	ACL_OK(aclFinalize());
}

START_TEST(process_exit_with_work_in_flight)
{
	exit_with_work(false);
}
END_TEST

START_TEST(process_killed_with_work_in_flight)
{
	exit_with_work(true);
}
END_TEST

/* ---- a failing stream ------------------------------------------------------ */

static unsigned long saved_timeout;

static void short_job_timeout(void)
{
	ck_assert(acl_test_param("job_timeout_ms", &saved_timeout));
	ck_assert(acl_test_set_param("job_timeout_ms", 300));
}

static void restore_job_timeout(void)
{
	ck_assert(acl_test_set_param("job_timeout_ms", saved_timeout));
}

START_TEST(failed_stream_reports_its_error)
{
	aclrtStream bad, good;
	aclrtStreamStatus st;
	struct acl_gate g;
	aclrtEvent ev;
	uint64_t *word;
	const char *m;
	char host[16];

	acl_gate_init(&g);
	ACL_OK(aclrtCreateStream(&bad));
	/* Stop at the failure (CANN's default goes on past it). */
	ACL_OK(aclrtSetStreamFailureMode(bad, ACL_STOP_ON_FAILURE));
	ACL_OK(aclrtCreateStream(&good));
	ACL_OK(aclrtCreateEvent(&ev));
	ACL_OK(aclrtMallocHost((void **)&word, 8));
	*word = 0;
	/* Never satisfied: the device's job timeout fails the stream. */
	acl_gate_block(&g, bad, 1);
	ACL_OK(aclrtValueWrite(word, 1, 0, bad));
	ACL_OK(aclrtRecordEvent(ev, bad));

	ck_assert_int_eq(aclrtSynchronizeStream(bad), ACL_ERROR_RT_AICORE_TIMEOUT);
	m = aclGetRecentErrMsg();
	ck_assert_msg(m && strstr(m, "aclrtSynchronizeStream") && strstr(m, "timeout"), "message: %s",
		      m ? m : "none");
	/* Work queued behind the failure did not run. */
	ck_assert_uint_eq(*word, 0);
	ACL_ERR(ACL_ERROR_RT_AICORE_TIMEOUT, aclrtStreamQuery(bad, &st));
	ACL_ERR(ACL_ERROR_RT_AICORE_TIMEOUT, aclrtSynchronizeStreamWithTimeout(bad, 1000));
	ACL_ERR(ACL_ERROR_RT_AICORE_TIMEOUT, aclrtSynchronizeEvent(ev));
	ACL_ERR(ACL_ERROR_RT_AICORE_TIMEOUT, aclrtSynchronizeDevice());
	/* New work on it is refused with the same error. */
	ACL_ERR(ACL_ERROR_RT_AICORE_TIMEOUT, aclrtMemsetAsync(word, 8, 1, 8, bad));
	ACL_ERR(ACL_ERROR_RT_AICORE_TIMEOUT, aclrtMemcpyAsync(host, 16, host + 8, 8, ACL_MEMCPY_HOST_TO_HOST, bad));
	ck_assert_int_eq(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_AICORE_TIMEOUT);

	/* Other streams are not affected. */
	ACL_OK(aclrtValueWrite(word, 2, 0, good));
	ACL_OK(aclrtSynchronizeStream(good));
	ck_assert_uint_eq(*word, 2);
	/* A failed stream is still destroyed. */
	ACL_OK(aclrtDestroyStream(bad));
	ACL_OK(aclrtSynchronizeDevice());
	ACL_OK(aclrtDestroyEvent(ev));
	ACL_OK(aclrtDestroyStream(good));
	ACL_OK(aclrtFreeHost(word));
	acl_gate_fini(&g);
}
END_TEST

/* ---- synchronising a device that has a failed stream ------------------------ */

static void longer_job_timeout(void)
{
	ck_assert(acl_test_param("job_timeout_ms", &saved_timeout));
	ck_assert(acl_test_set_param("job_timeout_ms", 2000));
}

struct late_open {
	struct acl_gate *gate;
	aclrtContext ctx;
	unsigned int after_ms;
	uint64_t value;
};

static void *open_later(void *arg)
{
	struct late_open *lo = arg;

	ACL_OK(aclrtSetCurrentContext(lo->ctx));
	acl_test_sleep_ms(lo->after_ms);
	acl_gate_open(lo->gate, lo->value);
	return NULL;
}

/*
 * A failed stream (stopped at its failure) listed first (streams are
 * synchronised in creation order)
 * and a busy one behind it: @busy waits for gate @later, then writes 7 to
 * @word. Returns the failed stream.
 */
static aclrtStream failed_then_busy(struct acl_gate *never, struct acl_gate *later, aclrtStream *busy,
				    uint64_t *word)
{
	aclrtStream bad;

	ACL_OK(aclrtCreateStream(&bad));
	ACL_OK(aclrtSetStreamFailureMode(bad, ACL_STOP_ON_FAILURE));
	ACL_OK(aclrtCreateStream(busy));
	acl_gate_block(never, bad, 1);
	ck_assert_int_eq(aclrtSynchronizeStream(bad), ACL_ERROR_RT_AICORE_TIMEOUT);
	(void)aclGetRecentErrMsg();
	*word = 0;
	acl_gate_block(later, *busy, 1);
	ACL_OK(aclrtValueWrite(word, 7, 0, *busy));
	return bad;
}

START_TEST(synchronize_device_waits_past_a_failed_stream)
{
	struct acl_gate never, later;
	struct late_open lo = { .gate = &later, .after_ms = 300, .value = 1 };
	aclrtStream bad, busy;
	char name[32];
	uint64_t *word;
	const char *m;
	pthread_t t;

	acl_gate_init(&never);
	acl_gate_init(&later);
	ACL_OK(aclrtMallocHost((void **)&word, 8));
	bad = failed_then_busy(&never, &later, &busy, word);
	ACL_OK(aclrtGetCurrentContext(&lo.ctx));
	ck_assert_int_eq(pthread_create(&t, NULL, open_later, &lo), 0);

	/* The failure is reported, but only once the busy stream is done. */
	ck_assert_int_eq(aclrtSynchronizeDevice(), ACL_ERROR_RT_AICORE_TIMEOUT);
	ck_assert_uint_eq(__atomic_load_n(word, __ATOMIC_SEQ_CST), 7);
	m = aclGetRecentErrMsg();
	snprintf(name, sizeof(name), "%p", bad);
	ck_assert_msg(m && strstr(m, "aclrtSynchronizeDevice") && strstr(m, name), "message: %s", m ? m : "none");
	ck_assert_int_eq(pthread_join(t, NULL), 0);

	/* The same with a limit that is long enough. */
	*word = 0;
	acl_gate_block(&later, busy, 2);
	ACL_OK(aclrtValueWrite(word, 7, 0, busy));
	lo.after_ms = 200;
	lo.value = 2;
	ck_assert_int_eq(pthread_create(&t, NULL, open_later, &lo), 0);
	ck_assert_int_eq(aclrtSynchronizeDeviceWithTimeout(1500), ACL_ERROR_RT_AICORE_TIMEOUT);
	ck_assert_uint_eq(__atomic_load_n(word, __ATOMIC_SEQ_CST), 7);
	ck_assert_int_eq(pthread_join(t, NULL), 0);

	ACL_OK(aclrtDestroyStream(bad));
	ACL_OK(aclrtDestroyStream(busy));
	ACL_OK(aclrtFreeHost(word));
	acl_gate_fini(&later);
	acl_gate_fini(&never);
}
END_TEST

START_TEST(synchronize_device_timeout_wins_over_a_failed_stream)
{
	struct acl_gate never, later;
	aclrtStream bad, busy;
	uint64_t *word;

	acl_gate_init(&never);
	acl_gate_init(&later);
	ACL_OK(aclrtMallocHost((void **)&word, 8));
	bad = failed_then_busy(&never, &later, &busy, word);

	/* The busy stream outlasts the limit: the caller learns that it did. */
	ACL_ERR(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, aclrtSynchronizeDeviceWithTimeout(200));
	ck_assert_uint_eq(__atomic_load_n(word, __ATOMIC_SEQ_CST), 0);
	ACL_ERR(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, aclrtSynchronizeDeviceWithTimeout(0));

	acl_gate_open(&later, 1);
	ACL_ERR(ACL_ERROR_RT_AICORE_TIMEOUT, aclrtSynchronizeDevice());
	ck_assert_uint_eq(__atomic_load_n(word, __ATOMIC_SEQ_CST), 7);

	ACL_OK(aclrtDestroyStream(bad));
	ACL_OK(aclrtDestroyStream(busy));
	ACL_OK(aclrtFreeHost(word));
	acl_gate_fini(&later);
	acl_gate_fini(&never);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_stress");
	TCase *tc;

	tc = acl_tcase("load", true, 300);
	tcase_add_test(tc, threads_times_streams);
	tcase_add_test(tc, concurrent_create_and_destroy);
	suite_add_tcase(s, tc);

	tc = acl_tcase("exit", false, 120);
	tcase_add_test(tc, process_exit_with_work_in_flight);
	tcase_add_test(tc, process_killed_with_work_in_flight);
	suite_add_tcase(s, tc);

	tc = acl_tcase("failure", true, 60);
	tcase_add_unchecked_fixture(tc, short_job_timeout, restore_job_timeout);
	tcase_add_test(tc, failed_stream_reports_its_error);
	suite_add_tcase(s, tc);

	tc = acl_tcase("failure_sync", true, 60);
	tcase_add_unchecked_fixture(tc, longer_job_timeout, restore_job_timeout);
	tcase_add_test(tc, synchronize_device_waits_past_a_failed_stream);
	tcase_add_test(tc, synchronize_device_timeout_wins_over_a_failed_stream);
	suite_add_tcase(s, tc);

	return acl_test_run(s);
}
