// SPDX-License-Identifier: GPL-2.0
/*
 * How the cost of an operation grows with scale, and device copies of small
 * and medium sizes:
 *  - stream_copy_4k, stream_copy_1m: submit + wait of one COPY task;
 *  - scale_streams_N: per-operation cost of one NOP job on each of N busy
 *    streams (N = 1, 64, 1024), all submitted, then all waited for;
 *  - scale_buffers_N: submit + wait of a 64-byte COPY between two random
 *    buffers among N live ones (N = 1, 1k, 100k): the cost of resolving
 *    device addresses in a large address space.
 * VNPU_BENCH_MODE=smoke shrinks the counts so make check stays quick; the
 * figures keep their full-run names (so ratios.conf applies) and carry the
 * number of streams or buffers actually measured as "size".
 * Any failed operation is fatal (bench_fail()).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "lib/vnpu_stream_util.h"
#include "lib/vnpu_test.h"

static bool smoke;

static unsigned int scaled(unsigned int full, unsigned int quick)
{
	return smoke ? quick : full;
}

static void bench_copy(int fd, uint32_t stream, uint32_t sync, uint64_t size,
		       const char *name)
{
	struct vnpu_buf a, b;
	struct drm_vnpu_task t;
	struct bench_samples s;

	BENCH_CHECK(vnpu_buf_create(fd, size, &a));
	BENCH_CHECK(vnpu_buf_create(fd, size, &b));
	t = vnpu_task_copy(b.va, a.va, size);
	bench_samples_init(&s, scaled(200, 5));
	BENCH_LOOP(&s, scaled(200, 5), 1, {
		BENCH_CHECK(vnpu_submit(fd, stream, &t, 1, NULL, 0, sync, 0, NULL));
		BENCH_CHECK(vnpu_syncobj_wait(fd, sync, VNPU_WAIT_FOREVER_NS));
	});
	bench_report(&s, name, "ns");
	vnpu_buf_destroy(fd, &a);
	vnpu_buf_destroy(fd, &b);
}

/* One NOP job on each of @n streams, then wait for all: ns per job. */
static void bench_streams(int fd, unsigned int n, const char *name)
{
	uint32_t *streams = calloc(n, sizeof(*streams)), *syncs = calloc(n, sizeof(*syncs));
	struct drm_vnpu_task t = vnpu_task_nop();
	unsigned int rounds = scaled(n >= 64 ? 20 : 200, 3), i;
	struct bench_samples s;

	if (!streams || !syncs)
		bench_fail("allocating stream arrays", ENOMEM);
	for (i = 0; i < n; i++) {
		BENCH_CHECK(vnpu_stream_create(fd, VNPU_PRIORITY_NORMAL, &streams[i]));
		BENCH_CHECK(vnpu_syncobj_create(fd, &syncs[i]));
	}
	bench_samples_init(&s, rounds);
	BENCH_LOOP(&s, rounds, 1, {
		for (i = 0; i < n; i++)
			BENCH_CHECK(vnpu_submit(fd, streams[i], &t, 1, NULL, 0, syncs[i], 0, NULL));
		for (i = 0; i < n; i++)
			BENCH_CHECK(vnpu_syncobj_wait(fd, syncs[i], VNPU_WAIT_FOREVER_NS));
	});
	for (i = 0; i < s.n; i++)
		s.v[i] /= n;
	bench_report_size(&s, name, "ns", n);
	for (i = 0; i < n; i++) {
		BENCH_CHECK(vnpu_stream_destroy(fd, streams[i]));
		BENCH_CHECK(vnpu_syncobj_destroy(fd, syncs[i]));
	}
	free(streams);
	free(syncs);
}

/* Submit + wait of a 64-byte copy between random buffers among @n. */
static void bench_buffers(int fd, uint32_t stream, uint32_t sync, unsigned int n,
			  const char *name)
{
	uint32_t *handles = calloc(n, sizeof(*handles));
	uint64_t *vas = calloc(n, sizeof(*vas));
	unsigned int rounds = scaled(300, 5);
	struct bench_samples s;

	if (!handles || !vas)
		bench_fail("allocating buffer arrays", ENOMEM);
	for (unsigned int i = 0; i < n; i++)
		BENCH_CHECK(vnpu_bo_create(fd, 4096, 0, &handles[i], &vas[i]));
	srand(1);
	bench_samples_init(&s, rounds);
	BENCH_LOOP(&s, rounds, 1, {
		struct drm_vnpu_task t = vnpu_task_copy(vas[rand() % n], vas[rand() % n] + 64, 64);

		BENCH_CHECK(vnpu_submit(fd, stream, &t, 1, NULL, 0, sync, 0, NULL));
		BENCH_CHECK(vnpu_syncobj_wait(fd, sync, VNPU_WAIT_FOREVER_NS));
	});
	bench_report_size(&s, name, "ns", n);
	for (unsigned int i = 0; i < n; i++)
		BENCH_CHECK(vnpu_bo_close(fd, handles[i]));
	free(handles);
	free(vas);
}

int main(void)
{
	const char *mode = getenv("VNPU_BENCH_MODE");
	uint32_t stream, sync;
	int fd;

	smoke = mode && strstr(mode, "smoke");
	fd = vnpu_open_device(0);
	if (fd < 0)
		bench_fail("opening vnpu device 0", ENODEV);
	BENCH_CHECK(vnpu_stream_create(fd, VNPU_PRIORITY_NORMAL, &stream));
	BENCH_CHECK(vnpu_syncobj_create(fd, &sync));

	bench_copy(fd, stream, sync, 4096, "stream_copy_4k");
	bench_copy(fd, stream, sync, 1 << 20, "stream_copy_1m");

	bench_streams(fd, 1, "scale_streams_1");
	bench_streams(fd, 64, "scale_streams_64");
	bench_streams(fd, scaled(1024, 128), "scale_streams_1024");

	bench_buffers(fd, stream, sync, 1, "scale_buffers_1");
	bench_buffers(fd, stream, sync, 1000, "scale_buffers_1k");
	bench_buffers(fd, stream, sync, scaled(100000, 2000), "scale_buffers_100k");
	return 0;
}
