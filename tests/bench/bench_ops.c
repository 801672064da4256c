// SPDX-License-Identifier: GPL-2.0
/*
 * bench_ops: what operators and pools cost, as ratios to figures measured
 * in the same run (a benchmark, not a test: it never fails on numbers).
 *
 *  - element-wise fp32 Add of 1 Mi elements on the device (submit + wait
 *    per operator) against the same loop in userspace C (this file is
 *    built at -O2);
 *  - 256 x 256 x 256 fp32 MatMul on the device (lib/ops, run by the engine server) (submit + wait) against the
 *    textbook i-j-k triple loop and the i-k-j loop in userspace C;
 *  - per-job cost of a small operator (ReduceSumD of 4 x 64 fp32, 256 bytes
 *    of workspace): pipelined jobs and submit-plus-wait round trips, once
 *    with the workspace in a buffer bound to no stream (stream without
 *    pool requirement) and once in the stream's bound pool with the stream
 *    requiring pool workspace (pool lookup plus hazard records);
 *  - a POOL_BIND + POOL_UNBIND pair of a 4 KiB range.
 *
 * Output: BENCH lines (ops_* and pool_* figures) for tests/bench/report.py,
 * whose ratios.conf relates them to each other and to bench_baseline's
 * noop_ioctl, measured in the same boot.
 * usage: bench_ops [-q]; -q or VNPU_BENCH_MODE=smoke: few iterations.
 * Any failed operation is fatal (bench_fail()).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "lib/vnpu_pool_util.h"
#include "lib/vnpu_stream_util.h"
#include "lib/vnpu_test.h"

#define ADD_N (1u << 20)
#define MM 256
#define SMALL_ROWS 4
#define SMALL_COLS 64

static bool quick;

static unsigned int scaled(unsigned int full, unsigned int smoke)
{
	return quick ? smoke : full;
}

static void record(struct bench_samples *s, const char *name)
{
	bench_report(s, name, "ns");
}

/* ---------------------------------------------------------------- userspace C */

static void cpu_add(float *restrict c, const float *restrict a, const float *restrict b,
		    unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		c[i] = a[i] + b[i];
}

static void cpu_matmul_ijk(float *restrict c, const float *restrict a, const float *restrict b,
			   unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		for (unsigned int j = 0; j < n; j++) {
			float sum = 0;

			for (unsigned int k = 0; k < n; k++)
				sum += a[i * n + k] * b[k * n + j];
			c[i * n + j] = sum;
		}
	}
}

static void cpu_matmul_ikj(float *restrict c, const float *restrict a, const float *restrict b,
			   unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		for (unsigned int j = 0; j < n; j++)
			c[i * n + j] = 0;
		for (unsigned int k = 0; k < n; k++) {
			float aik = a[i * n + k];

			for (unsigned int j = 0; j < n; j++)
				c[i * n + j] += aik * b[k * n + j];
		}
	}
}

static void fill(float *p, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		p[i] = (float)((i * 2654435761u) >> 20) / 4096.0f - 0.5f;
}

static void bench_cpu(void)
{
	float *a = malloc(ADD_N * 4), *b = malloc(ADD_N * 4), *c = malloc(ADD_N * 4);
	struct bench_samples s;

	if (!a || !b || !c)
		bench_fail("allocating CPU operands", ENOMEM);
	fill(a, ADD_N);
	fill(b, ADD_N);
	memset(c, 0, ADD_N * 4);

	bench_samples_init(&s, scaled(50, 3));
	BENCH_LOOP(&s, scaled(50, 3), 1,
		   { cpu_add(c, a, b, ADD_N); __asm__ volatile("" ::: "memory"); });
	record(&s, "ops_add_f32_1m_cpu");

	bench_samples_init(&s, scaled(10, 1));
	BENCH_LOOP(&s, scaled(10, 1), 1,
		   { cpu_matmul_ijk(c, a, b, MM); __asm__ volatile("" ::: "memory"); });
	record(&s, "ops_matmul256_cpu_ijk");

	bench_samples_init(&s, scaled(10, 1));
	BENCH_LOOP(&s, scaled(10, 1), 1,
		   { cpu_matmul_ikj(c, a, b, MM); __asm__ volatile("" ::: "memory"); });
	record(&s, "ops_matmul256_cpu_ikj");
	free(a);
	free(b);
	free(c);
}

/* ---------------------------------------------------------------- device */

static int run(int fd, uint32_t stream, uint32_t sync, const struct vnpu_op *op)
{
	int ret = vnpu_op_submit(fd, stream, op, sync, NULL);

	return ret ? ret : vnpu_syncobj_wait(fd, sync, VNPU_WAIT_FOREVER_NS);
}

static void bench_device_ops(int fd, uint32_t stream, uint32_t sync)
{
	static struct vnpu_op op;
	struct vnpu_buf a, b, c;
	struct bench_samples s;

	BENCH_CHECK(vnpu_buf_create(fd, ADD_N * 4, &a));
	BENCH_CHECK(vnpu_buf_create(fd, ADD_N * 4, &b));
	BENCH_CHECK(vnpu_buf_create(fd, ADD_N * 4, &c));
	fill(a.cpu, ADD_N);
	fill(b.cpu, ADD_N);

	BENCH_CHECK(vnpu_op_eltwise(&op, "Add", ACL_FLOAT, ADD_N, ADD_N));
	vnpu_op_set_va(&op, a.va, b.va, c.va, 0);
	BENCH_CHECK(run(fd, stream, sync, &op));	/* warm up */
	bench_samples_init(&s, scaled(50, 3));
	BENCH_LOOP(&s, scaled(50, 3), 1, BENCH_CHECK(run(fd, stream, sync, &op)));
	record(&s, "ops_add_f32_1m_dev");

	BENCH_CHECK(vnpu_op_matmul(&op, ACL_FLOAT, MM, MM, MM, false, false));
	vnpu_op_set_va(&op, a.va, b.va, c.va, 0);
	BENCH_CHECK(run(fd, stream, sync, &op));	/* warm up */
	bench_samples_init(&s, scaled(10, 1));
	BENCH_LOOP(&s, scaled(10, 1), 1, BENCH_CHECK(run(fd, stream, sync, &op)));
	record(&s, "ops_matmul256_dev");

	vnpu_buf_destroy(fd, &a);
	vnpu_buf_destroy(fd, &b);
	vnpu_buf_destroy(fd, &c);
}

/*
 * The small operator on @stream with its workspace at @ws: @jobs jobs back
 * to back, the last waited for (time per job), then round trips.
 */
static void bench_small(int fd, uint32_t stream, uint32_t sync, const struct vnpu_buf *data,
			uint64_t ws, const char *pipelined, const char *roundtrip)
{
	static struct vnpu_op op;
	unsigned int jobs = scaled(256, 16), rounds = scaled(30, 2);
	struct bench_samples s;

	BENCH_CHECK(vnpu_op_rows(&op, "ReduceSumD", ACL_FLOAT, SMALL_ROWS, SMALL_COLS, 0));
	if (op.plan.ws_bytes != 4 * SMALL_COLS)
		bench_fail("ReduceSumD's workspace is not 4 x cols", EINVAL);
	vnpu_op_set_va(&op, data->va, 0, data->va + 4096, ws);
	for (int i = 0; i < 20; i++)
		BENCH_CHECK(run(fd, stream, sync, &op));
	bench_samples_init(&s, rounds);
	for (unsigned int r = 0; r < rounds; r++) {
		uint64_t t0 = bench_now_ns();

		for (unsigned int j = 0; j < jobs; j++)
			BENCH_CHECK(vnpu_op_submit(fd, stream, &op, j == jobs - 1 ? sync : 0,
						   NULL));
		BENCH_CHECK(vnpu_syncobj_wait(fd, sync, VNPU_WAIT_FOREVER_NS));
		bench_add(&s, (double)(bench_now_ns() - t0) / jobs);
	}
	record(&s, pipelined);

	bench_samples_init(&s, scaled(1000, 30));
	BENCH_LOOP(&s, scaled(1000, 30), 1, BENCH_CHECK(run(fd, stream, sync, &op)));
	record(&s, roundtrip);
}

static void bench_pool(int fd, uint32_t sync)
{
	struct vnpu_buf data, plain, pool;
	uint32_t s_plain, s_pool;
	struct bench_samples s;

	BENCH_CHECK(vnpu_buf_create(fd, 8192, &data));
	BENCH_CHECK(vnpu_buf_create(fd, 65536, &plain));
	BENCH_CHECK(vnpu_buf_create(fd, 65536, &pool));
	BENCH_CHECK(vnpu_stream_create(fd, VNPU_PRIORITY_NORMAL, &s_plain));
	BENCH_CHECK(vnpu_stream_create(fd, VNPU_PRIORITY_NORMAL, &s_pool));
	BENCH_CHECK(vnpu_pool_bind(fd, s_pool, pool.va, 65536));
	BENCH_CHECK(vnpu_stream_set_param(fd, s_pool, VNPU_STREAM_PARAM_REQUIRE_POOL, 1));
	fill(data.cpu, SMALL_ROWS * SMALL_COLS);
	bench_small(fd, s_plain, sync, &data, plain.va, "ops_small_job_nopool",
		    "ops_small_roundtrip_nopool");
	bench_small(fd, s_pool, sync, &data, pool.va, "ops_small_job_pool",
		    "ops_small_roundtrip_pool");

	bench_samples_init(&s, scaled(200, 10));
	BENCH_LOOP(&s, scaled(200, 10), 50, {
		BENCH_CHECK(vnpu_pool_bind(fd, s_plain, plain.va, 4096));
		BENCH_CHECK(vnpu_pool_unbind(fd, s_plain, plain.va, 4096));
	});
	record(&s, "pool_bind_unbind");

	vnpu_stream_destroy(fd, s_plain);
	vnpu_stream_destroy(fd, s_pool);
	vnpu_buf_destroy(fd, &data);
	vnpu_buf_destroy(fd, &plain);
	vnpu_buf_destroy(fd, &pool);
}

int main(int argc, char **argv)
{
	const char *mode = getenv("VNPU_BENCH_MODE");
	uint32_t stream, sync;
	int fd;

	quick = (argc > 1 && !strcmp(argv[1], "-q")) || (mode && strstr(mode, "smoke"));
	fd = vnpu_open_device(0);
	if (fd < 0)
		bench_fail("opening vnpu device 0", ENODEV);
	BENCH_CHECK(vnpu_stream_create(fd, VNPU_PRIORITY_NORMAL, &stream));
	BENCH_CHECK(vnpu_syncobj_create(fd, &sync));
	bench_cpu();
	bench_device_ops(fd, stream, sync);
	bench_pool(fd, sync);
	close(fd);
	return 0;
}
