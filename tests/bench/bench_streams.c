// SPDX-License-Identifier: GPL-2.0
/*
 * bench_streams: what stream work costs, as ratios to baselines measured
 * in the same run (a benchmark, not a test: it never fails on numbers).
 *
 *  - round trip: SUBMIT of one NOP task with an out-syncobj, then
 *    drmSyncobjWait on it; against a no-op ioctl (GET_PARAM) and a pipe
 *    ping-pong between two processes, both measured here too.
 *  - per-task cost: jobs of 1, 16 and 256 NOP (and 4-byte WRITE_VALUE)
 *    tasks submitted back to back, the last one waited for; total time
 *    divided by the number of tasks.
 *  - copy bandwidth: one 64 MiB COPY task (submit + wait) against a
 *    userspace memcpy of 64 MiB.
 *
 * Output: BENCH lines for tests/bench/report.py (stream_* figures; its
 * ratios.conf relates them to bench_baseline's noop_ioctl, pipe_pingpong
 * and memcpy_64m), then a table and one JSON line {"bench":"streams",...}
 * with this program's own baselines (streams_noop_ioctl, ...).
 * usage: bench_streams [-q]; -q or VNPU_BENCH_MODE=smoke: few iterations.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "lib/vnpu_stream_util.h"
#include "lib/vnpu_test.h"

#define MAX_FIGURES 32

struct figure {
	const char *name;
	const char *unit;
	double median, p99;
};

static struct figure figures[MAX_FIGURES];
static unsigned int num_figures;
static bool quick;

/* Record @s as figure @name (BENCH line too); frees the samples. */
static void record(struct bench_samples *s, const char *name)
{
	struct figure *f = &figures[num_figures++];

	f->name = name;
	f->unit = "ns";
	if (s->n) {
		qsort(s->v, s->n, sizeof(*s->v), bench_cmp_double);
		f->median = s->v[s->n / 2];
		f->p99 = s->v[(unsigned int)((s->n - 1) * 0.99)];
	}
	bench_report(s, name, "ns");
}

static const struct figure *find(const char *name)
{
	for (unsigned int i = 0; i < num_figures; i++)
		if (!strcmp(figures[i].name, name))
			return &figures[i];
	return NULL;
}

static unsigned int scaled(unsigned int full, unsigned int smoke)
{
	return quick ? smoke : full;
}

/* ---------------------------------------------------------------- baselines */

static void bench_noop_ioctl(int fd)
{
	struct bench_samples s;
	uint64_t v;

	bench_samples_init(&s, scaled(200, 20));
	BENCH_LOOP(&s, scaled(200, 20), 500, vnpu_get_param(fd, VNPU_PARAM_ABI_VERSION, &v));
	record(&s, "streams_noop_ioctl");
}

static void bench_pipe_pingpong(void)
{
	int to_child[2], to_parent[2];
	struct bench_samples s;
	char c = 0;
	pid_t pid;

	if (pipe(to_child) || pipe(to_parent))
		return;
	pid = fork();
	if (pid < 0)
		return;
	if (pid == 0) {
		close(to_child[1]);
		close(to_parent[0]);
		while (read(to_child[0], &c, 1) == 1)
			if (write(to_parent[1], &c, 1) != 1)
				break;
		_exit(0);
	}
	close(to_child[0]);
	close(to_parent[1]);
	bench_samples_init(&s, scaled(200, 20));
	BENCH_LOOP(&s, scaled(200, 20), 50, {
		if (write(to_child[1], &c, 1) != 1 || read(to_parent[0], &c, 1) != 1)
			break;
	});
	record(&s, "streams_pipe_pingpong");
	close(to_child[1]);
	close(to_parent[0]);
	waitpid(pid, NULL, 0);
}

static void bench_memcpy_64m(void)
{
	size_t size = 64 << 20;
	char *a = malloc(size), *b = malloc(size);
	struct bench_samples s;

	if (!a || !b)
		goto out;
	memset(a, 1, size);
	memset(b, 2, size);
	bench_samples_init(&s, scaled(10, 2));
	BENCH_LOOP(&s, scaled(10, 2), 1, memcpy(b, a, size); __asm__ volatile("" ::: "memory"));
	record(&s, "streams_memcpy_64m");
out:
	free(a);
	free(b);
}

/* ---------------------------------------------------------------- streams */

static void bench_roundtrip(int fd, uint32_t stream, uint32_t sync)
{
	struct drm_vnpu_task t = vnpu_task_nop();
	struct bench_samples s;
	unsigned int rounds = scaled(2000, 50);

	/* Warm up: engines and schedulers awake, caches filled. */
	for (int i = 0; i < 20; i++)
		if (vnpu_submit(fd, stream, &t, 1, NULL, 0, sync, 0, NULL) ||
		    vnpu_syncobj_wait(fd, sync, VNPU_WAIT_FOREVER_NS))
			return;
	bench_samples_init(&s, rounds);
	BENCH_LOOP(&s, rounds, 1, {
		if (vnpu_submit(fd, stream, &t, 1, NULL, 0, sync, 0, NULL) ||
		    vnpu_syncobj_wait(fd, sync, VNPU_WAIT_FOREVER_NS))
			break;
	});
	record(&s, "stream_nop_roundtrip");
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
			if (vnpu_submit(fd, stream, &t, 1, NULL, 0, 0, 0, NULL))
				goto out;
		bench_add(&s, (double)(bench_now_ns() - t0) / per);
		/* Drain, untimed. */
		if (vnpu_submit(fd, stream, &t, 1, NULL, 0, sync, 0, NULL) ||
		    vnpu_syncobj_wait(fd, sync, VNPU_WAIT_FOREVER_NS))
			goto out;
	}
out:
	record(&s, "stream_submit_nop");
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
			if (vnpu_submit(fd, stream, tasks, batch, NULL, 0,
					j == jobs - 1 ? sync : 0, 0, NULL))
				goto out;
		if (vnpu_syncobj_wait(fd, sync, VNPU_WAIT_FOREVER_NS))
			goto out;
		bench_add(&s, (double)(bench_now_ns() - t0) / ((double)jobs * batch));
	}
out:
	record(&s, name);
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

	if (vnpu_buf_create(fd, 64 << 20, &a))
		return;
	if (vnpu_buf_create(fd, 64 << 20, &b)) {
		vnpu_buf_destroy(fd, &a);
		return;
	}
	memset(a.cpu, 1, 64 << 20);
	memset(b.cpu, 2, 64 << 20);
	t = vnpu_task_copy(b.va, a.va, 64 << 20);
	bench_samples_init(&s, scaled(10, 2));
	BENCH_LOOP(&s, scaled(10, 2), 1, {
		if (vnpu_submit(fd, stream, &t, 1, NULL, 0, sync, 0, NULL) ||
		    vnpu_syncobj_wait(fd, sync, VNPU_WAIT_FOREVER_NS))
			break;
	});
	record(&s, "stream_copy_64m");
	vnpu_buf_destroy(fd, &a);
	vnpu_buf_destroy(fd, &b);
}

/* ---------------------------------------------------------------- report */

struct ratio {
	const char *name, *num, *den;
};

static const struct ratio ratios[] = {
	{ "roundtrip/noop_ioctl", "stream_nop_roundtrip", "streams_noop_ioctl" },
	{ "roundtrip/pipe_pingpong", "stream_nop_roundtrip", "streams_pipe_pingpong" },
	{ "submit_nop/noop_ioctl", "stream_submit_nop", "streams_noop_ioctl" },
	{ "nop_task_b1/noop_ioctl", "stream_nop_task_b1", "streams_noop_ioctl" },
	{ "nop_task_b16/noop_ioctl", "stream_nop_task_b16", "streams_noop_ioctl" },
	{ "nop_task_b256/noop_ioctl", "stream_nop_task_b256", "streams_noop_ioctl" },
	{ "write_task_b1/noop_ioctl", "stream_write_task_b1", "streams_noop_ioctl" },
	{ "write_task_b16/noop_ioctl", "stream_write_task_b16", "streams_noop_ioctl" },
	{ "write_task_b256/noop_ioctl", "stream_write_task_b256", "streams_noop_ioctl" },
	/* Time ratio inverted: device bandwidth over memcpy bandwidth. */
	{ "copy_64m_bw/memcpy_64m_bw", "streams_memcpy_64m", "stream_copy_64m" },
};

static void print_report(void)
{
	const size_t mib64 = 64 << 20;
	const struct figure *f;

	printf("%-28s %14s %14s  unit\n", "figure", "median", "p99");
	for (unsigned int i = 0; i < num_figures; i++)
		printf("%-28s %14.1f %14.1f  %s\n", figures[i].name, figures[i].median,
		       figures[i].p99, figures[i].unit);
	f = find("stream_copy_64m");
	if (f && f->median > 0)
		printf("%-28s %14.2f %14s  GB/s\n", "stream_copy_64m_bw", mib64 / f->median, "");
	f = find("streams_memcpy_64m");
	if (f && f->median > 0)
		printf("%-28s %14.2f %14s  GB/s\n", "streams_memcpy_64m_bw", mib64 / f->median, "");
	printf("\n%-28s %10s\n", "ratio (medians)", "value");
	for (unsigned int i = 0; i < sizeof(ratios) / sizeof(ratios[0]); i++) {
		const struct figure *n = find(ratios[i].num), *d = find(ratios[i].den);

		if (n && d && d->median > 0)
			printf("%-28s %10.3f\n", ratios[i].name, n->median / d->median);
	}

	printf("{\"bench\":\"streams\",\"quick\":%s,\"figures\":{", quick ? "true" : "false");
	for (unsigned int i = 0; i < num_figures; i++)
		printf("%s\"%s\":{\"unit\":\"%s\",\"median\":%.3f,\"p99\":%.3f}", i ? "," : "",
		       figures[i].name, figures[i].unit, figures[i].median, figures[i].p99);
	printf("},\"ratios\":{");
	for (unsigned int i = 0, first = 1; i < sizeof(ratios) / sizeof(ratios[0]); i++) {
		const struct figure *n = find(ratios[i].num), *d = find(ratios[i].den);

		if (!n || !d || d->median <= 0)
			continue;
		printf("%s\"%s\":%.4f", first ? "" : ",", ratios[i].name, n->median / d->median);
		first = 0;
	}
	printf("}}\n");
}

int main(int argc, char **argv)
{
	const char *mode = getenv("VNPU_BENCH_MODE");
	struct vnpu_buf words;
	uint32_t stream, sync;
	int fd;

	quick = (argc > 1 && !strcmp(argv[1], "-q")) || (mode && strstr(mode, "smoke"));
	fd = vnpu_open_device(0);
	if (fd < 0) {
		fprintf(stderr, "bench_streams: no vnpu device\n");
		return 1;
	}
	if (vnpu_stream_create(fd, VNPU_PRIORITY_NORMAL, &stream) ||
	    vnpu_syncobj_create(fd, &sync) || vnpu_buf_create(fd, 4096, &words)) {
		fprintf(stderr, "bench_streams: setup failed\n");
		return 1;
	}

	bench_noop_ioctl(fd);
	bench_pipe_pingpong();
	bench_memcpy_64m();
	bench_roundtrip(fd, stream, sync);
	bench_submit_only(fd, stream, sync);
	bench_batches(fd, stream, sync, words.va);
	bench_copy_64m(fd, stream, sync);

	print_report();
	vnpu_buf_destroy(fd, &words);
	close(fd);
	return 0;
}
