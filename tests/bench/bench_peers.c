// SPDX-License-Identifier: GPL-2.0
/*
 * bench_peers: what a user would write instead of a device stream, doing
 * the same NOPs, measured in the same boot as the stream figures:
 *
 *  - a worker thread behind a mutex and two condition variables (a
 *    request queue and a completion count): the round trip of one NOP
 *    (queue it, wake the worker, wait for it) and the per-NOP cost of
 *    batches of 256 queued back to back, the last waited for;
 *  - io_uring NOPs forced to the kernel's async worker threads
 *    (IOSQE_ASYNC): the round trip of one (submit and wait) and the
 *    per-NOP cost of batches of 256 in one submit.
 *
 * The stream figures (bench_streams: stream_nop_roundtrip,
 * stream_nop_task_b256) are read against these in ratios.conf.
 * usage: bench_peers [-q]; -q or VNPU_BENCH_MODE=smoke: few iterations.
 */
#include <errno.h>
#include <liburing.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static bool quick;

#define BATCH 256

/* ---------------------------------------------------------------- condvar */

struct cv_queue {
	pthread_mutex_t lock;
	pthread_cond_t work;	/* queued > taken, or stop */
	pthread_cond_t done;	/* completed moved */
	unsigned long queued, completed;
	bool stop;
};

static void *cv_worker(void *arg)
{
	struct cv_queue *q = arg;

	pthread_mutex_lock(&q->lock);
	for (;;) {
		while (q->completed == q->queued && !q->stop)
			pthread_cond_wait(&q->work, &q->lock);
		if (q->stop)
			break;
		/* A NOP per queued request: run them, then say so. */
		q->completed = q->queued;
		pthread_cond_signal(&q->done);
	}
	pthread_mutex_unlock(&q->lock);
	return NULL;
}

/* Queue @n NOPs and wait until they are all done. */
static void cv_run(struct cv_queue *q, unsigned int n)
{
	unsigned long want;

	pthread_mutex_lock(&q->lock);
	for (unsigned int i = 0; i < n; i++) {
		q->queued++;
		pthread_cond_signal(&q->work);
	}
	want = q->queued;
	while (q->completed < want)
		pthread_cond_wait(&q->done, &q->lock);
	pthread_mutex_unlock(&q->lock);
}

static void bench_condvar(void)
{
	struct cv_queue q = {
		.lock = PTHREAD_MUTEX_INITIALIZER,
		.work = PTHREAD_COND_INITIALIZER,
		.done = PTHREAD_COND_INITIALIZER,
	};
	unsigned int rounds = quick ? 20 : 2000, batches = quick ? 5 : 30;
	struct bench_samples s;
	pthread_t worker;
	int err;

	err = pthread_create(&worker, NULL, cv_worker, &q);
	if (err)
		bench_fail("starting the condvar worker", err);
	for (int i = 0; i < 20; i++)
		cv_run(&q, 1);
	bench_samples_init(&s, rounds);
	BENCH_LOOP(&s, rounds, 1, cv_run(&q, 1));
	bench_report(&s, "peer_condvar_roundtrip", "ns");

	bench_samples_init(&s, batches);
	for (unsigned int b = 0; b < batches; b++) {
		uint64_t t0 = bench_now_ns();

		cv_run(&q, BATCH);
		bench_add(&s, (double)(bench_now_ns() - t0) / BATCH);
	}
	bench_report(&s, "peer_condvar_task_b256", "ns");

	pthread_mutex_lock(&q.lock);
	q.stop = true;
	pthread_cond_signal(&q.work);
	pthread_mutex_unlock(&q.lock);
	pthread_join(worker, NULL);
}

/* ---------------------------------------------------------------- io_uring */

/* Submit @n NOPs forced to io-wq workers and reap them all. */
static void uring_run(struct io_uring *ring, unsigned int n)
{
	struct io_uring_cqe *cqe;
	int ret;

	for (unsigned int i = 0; i < n; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

		if (!sqe)
			bench_fail("io_uring_get_sqe", EBUSY);
		io_uring_prep_nop(sqe);
		io_uring_sqe_set_flags(sqe, IOSQE_ASYNC);
	}
	ret = io_uring_submit_and_wait(ring, n);
	if (ret < 0)
		bench_fail("io_uring_submit_and_wait", ret);
	for (unsigned int i = 0; i < n; i++) {
		ret = io_uring_wait_cqe(ring, &cqe);
		if (ret)
			bench_fail("io_uring_wait_cqe", ret);
		if (cqe->res < 0)
			bench_fail("an io_uring NOP", cqe->res);
		io_uring_cqe_seen(ring, cqe);
	}
}

static void bench_uring(void)
{
	unsigned int rounds = quick ? 20 : 2000, batches = quick ? 5 : 30;
	struct bench_samples s;
	struct io_uring ring;
	int ret;

	ret = io_uring_queue_init(BATCH, &ring, 0);
	if (ret)
		bench_fail("io_uring_queue_init", ret);
	for (int i = 0; i < 20; i++)
		uring_run(&ring, 1);
	bench_samples_init(&s, rounds);
	BENCH_LOOP(&s, rounds, 1, uring_run(&ring, 1));
	bench_report(&s, "peer_uring_async_roundtrip", "ns");

	bench_samples_init(&s, batches);
	for (unsigned int b = 0; b < batches; b++) {
		uint64_t t0 = bench_now_ns();

		uring_run(&ring, BATCH);
		bench_add(&s, (double)(bench_now_ns() - t0) / BATCH);
	}
	bench_report(&s, "peer_uring_async_task_b256", "ns");
	io_uring_queue_exit(&ring);
}

int main(int argc, char **argv)
{
	const char *mode = getenv("VNPU_BENCH_MODE");

	quick = (argc > 1 && !strcmp(argv[1], "-q")) || (mode && !strcmp(mode, "smoke"));
	bench_condvar();
	bench_uring();
	return 0;
}
