// SPDX-License-Identifier: GPL-2.0
/*
 * bench_streams: what stream work costs, as ratios to baselines measured
 * in the same run (a benchmark, not a test: it never fails on numbers).
 *
 *  - round trip: SUBMIT of one NOP task with an out-syncobj, then
 *    drmSyncobjWait on it; against a no-op ioctl (GET_PARAM) and a pipe
 *    ping-pong between two processes.
 *  - per-task cost: jobs of 1, 16 and 256 NOP (and 4-byte WRITE_VALUE)
 *    tasks submitted back to back, the last one waited for; total time
 *    divided by the number of tasks.
 *  - copy bandwidth: one 64 MiB COPY task (submit + wait) against a
 *    userspace memcpy of 64 MiB.
 *
 * Output: BENCH lines (stream_* figures) for tests/bench/report.py, whose
 * ratios.conf relates them to bench_baseline's noop_ioctl, pipe_pingpong
 * and memcpy_64m, measured in the same boot.
 * usage: bench_streams [-q]; -q or VNPU_BENCH_MODE=smoke: few iterations.
 * Any failed operation is fatal (bench_fail()).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "lib/vnpu_stream_util.h"
#include "lib/vnpu_test.h"

static bool quick;

static unsigned int scaled(unsigned int full, unsigned int smoke)
{
	return quick ? smoke : full;
}

/* ---------------------------------------------------------------- streams */

static void bench_roundtrip(int fd, uint32_t stream, uint32_t sync)
{
	struct drm_vnpu_task t = vnpu_task_nop();
	struct bench_samples s;
	unsigned int rounds = scaled(2000, 50);

	/* Warm up: engines and schedulers awake, caches filled. */
	for (int i = 0; i < 20; i++) {
		BENCH_CHECK(vnpu_submit(fd, stream, &t, 1, NULL, 0, sync, 0, NULL));
		BENCH_CHECK(vnpu_syncobj_wait(fd, sync, VNPU_WAIT_FOREVER_NS));
	}
	bench_samples_init(&s, rounds);
	BENCH_LOOP(&s, rounds, 1, {
		BENCH_CHECK(vnpu_submit(fd, stream, &t, 1, NULL, 0, sync, 0, NULL));
		BENCH_CHECK(vnpu_syncobj_wait(fd, sync, VNPU_WAIT_FOREVER_NS));
	});
	bench_report(&s, "stream_nop_roundtrip", "ns");
}

/* The submit ioctl alone: one NOP job, no syncobjs, no waiting. */
static void bench_submit_only(int fd, uint32_t stream, uint32_t sync)
{
	struct drm_vnpu_task t = vnpu_task_nop();
	unsigned int rounds = scaled(100, 5), per = 64;
	struct bench_samples s;

	bench_samples_init(&s, rounds);
	for (unsigned int r = 0; r < rounds; r++) {
		uint64_t t0 = bench_now_ns();

		for (unsigned int i = 0; i < per; i++)
			BENCH_CHECK(vnpu_submit(fd, stream, &t, 1, NULL, 0, 0, 0, NULL));
		bench_add(&s, (double)(bench_now_ns() - t0) / per);
		/* Drain, untimed. */
		BENCH_CHECK(vnpu_submit(fd, stream, &t, 1, NULL, 0, sync, 0, NULL));
		BENCH_CHECK(vnpu_syncobj_wait(fd, sync, VNPU_WAIT_FOREVER_NS));
	}
	bench_report(&s, "stream_submit_nop", "ns");
}

/*
 * @jobs jobs of @batch tasks back to back, the last one waited for: the
 * time per task.
 */
static void bench_batch(int fd, uint32_t stream, uint32_t sync, const struct drm_vnpu_task *tasks,
			unsigned int batch, const char *name)
{
	unsigned int jobs = 4096 / batch < 16 ? 16 : 4096 / batch;
	unsigned int rounds = scaled(30, 3);
	struct bench_samples s;

	if (quick)
		jobs = jobs / 16 ? jobs / 16 : 1;
	bench_samples_init(&s, rounds);
	for (unsigned int r = 0; r < rounds; r++) {
		uint64_t t0 = bench_now_ns();

		for (unsigned int j = 0; j < jobs; j++)
			BENCH_CHECK(vnpu_submit(fd, stream, tasks, batch, NULL, 0,
						j == jobs - 1 ? sync : 0, 0, NULL));
		BENCH_CHECK(vnpu_syncobj_wait(fd, sync, VNPU_WAIT_FOREVER_NS));
		bench_add(&s, (double)(bench_now_ns() - t0) / ((double)jobs * batch));
	}
	bench_report(&s, name, "ns");
}

static void bench_batches(int fd, uint32_t stream, uint32_t sync, uint64_t va)
{
	static const unsigned int sizes[] = { 1, 16, 256 };
	static const char *const nop_names[] = {
		"stream_nop_task_b1", "stream_nop_task_b16", "stream_nop_task_b256",
	};
	static const char *const write_names[] = {
		"stream_write_task_b1", "stream_write_task_b16", "stream_write_task_b256",
	};
	struct drm_vnpu_task nops[256], writes[256];

	for (unsigned int i = 0; i < 256; i++) {
		nops[i] = vnpu_task_nop();
		writes[i] = vnpu_task_write32(va + 4 * i, i);
	}
	for (unsigned int i = 0; i < 3; i++)
		bench_batch(fd, stream, sync, nops, sizes[i], nop_names[i]);
	for (unsigned int i = 0; i < 3; i++)
		bench_batch(fd, stream, sync, writes, sizes[i], write_names[i]);
}

static void bench_copy_64m(int fd, uint32_t stream, uint32_t sync)
{
	struct vnpu_buf a, b;
	struct drm_vnpu_task t;
	struct bench_samples s;

	BENCH_CHECK(vnpu_buf_create(fd, 64 << 20, &a));
	BENCH_CHECK(vnpu_buf_create(fd, 64 << 20, &b));
	memset(a.cpu, 1, 64 << 20);
	memset(b.cpu, 2, 64 << 20);
	t = vnpu_task_copy(b.va, a.va, 64 << 20);
	bench_samples_init(&s, scaled(10, 2));
	BENCH_LOOP(&s, scaled(10, 2), 1, {
		BENCH_CHECK(vnpu_submit(fd, stream, &t, 1, NULL, 0, sync, 0, NULL));
		BENCH_CHECK(vnpu_syncobj_wait(fd, sync, VNPU_WAIT_FOREVER_NS));
	});
	bench_report(&s, "stream_copy_64m", "ns");
	vnpu_buf_destroy(fd, &a);
	vnpu_buf_destroy(fd, &b);
}

int main(int argc, char **argv)
{
	const char *mode = getenv("VNPU_BENCH_MODE");
	struct vnpu_buf words;
	uint32_t stream, sync;
	int fd;

	quick = (argc > 1 && !strcmp(argv[1], "-q")) || (mode && strstr(mode, "smoke"));
	fd = vnpu_open_device(0);
	if (fd < 0)
		bench_fail("opening vnpu device 0", ENODEV);
	BENCH_CHECK(vnpu_stream_create(fd, VNPU_PRIORITY_NORMAL, &stream));
	BENCH_CHECK(vnpu_syncobj_create(fd, &sync));
	BENCH_CHECK(vnpu_buf_create(fd, 4096, &words));

	bench_roundtrip(fd, stream, sync);
	bench_submit_only(fd, stream, sync);
	bench_batches(fd, stream, sync, words.va);
	bench_copy_64m(fd, stream, sync);

	vnpu_buf_destroy(fd, &words);
	close(fd);
	return 0;
}
