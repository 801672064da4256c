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
 *  - a POOL_BIND + POOL_UNBIND pair of a 4 KiB range;
 *  - the operator library's figures (issue 14), each device (submit + wait)
 *    over the obvious C loop at -O2: a 512^3 fp32 MatMul (i-k-j and the
 *    textbook i-j-k), an fp32
 *    Conv2D 3x3 of 64 to 64 channels on 56 x 56 (pad 1; the direct seven
 *    loops), SoftmaxV2 and LayerNorm over the rows of a 1024 x 1024 fp32
 *    matrix, and TransposeD of it.
 *
 * Output: BENCH lines (ops_* and pool_* figures) for tests/bench/report.py,
 * whose ratios.conf relates them to each other and to bench_baseline's
 * noop_ioctl, measured in the same boot.
 * usage: bench_ops [-q]; -q or VNPU_BENCH_MODE=smoke: few iterations.
 * Any failed operation is fatal (bench_fail()).
 */
#include <errno.h>
#include <math.h>
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
/* The operator library's figures. */
#define MM_BIG 512
#define CONV_C 64
#define CONV_HW 56
#define ROWS_N 1024

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

/* The same i-k-j loop on rectangular operands (m x k times k x n). */
static void cpu_matmul_mnk(float *restrict c, const float *restrict a, const float *restrict b,
			   unsigned int m, unsigned int n, unsigned int k)
{
	for (unsigned int i = 0; i < m; i++) {
		for (unsigned int j = 0; j < n; j++)
			c[i * n + j] = 0;
		for (unsigned int p = 0; p < k; p++) {
			float aip = a[i * k + p];

			for (unsigned int j = 0; j < n; j++)
				c[i * n + j] += aip * b[p * n + j];
		}
	}
}

/* The textbook i-j-k loop on rectangular operands. */
static void cpu_matmul_ijk_mnk(float *restrict c, const float *restrict a, const float *restrict b,
			       unsigned int m, unsigned int n, unsigned int k)
{
	for (unsigned int i = 0; i < m; i++)
		for (unsigned int j = 0; j < n; j++) {
			float sum = 0;

			for (unsigned int p = 0; p < k; p++)
				sum += a[i * k + p] * b[p * n + j];
			c[i * n + j] = sum;
		}
}

/* NCHW convolution, N = 1, C in and K out channels, 3 x 3, stride 1, pad 1. */
static void cpu_conv3x3(float *restrict y, const float *restrict x, const float *restrict w,
			unsigned int c, unsigned int k, unsigned int hw)
{
	for (unsigned int o = 0; o < k; o++)
		for (unsigned int i = 0; i < hw; i++)
			for (unsigned int j = 0; j < hw; j++) {
				float sum = 0;

				for (unsigned int ci = 0; ci < c; ci++)
					for (int di = -1; di <= 1; di++)
						for (int dj = -1; dj <= 1; dj++) {
							int yi = (int)i + di, xj = (int)j + dj;

							if (yi < 0 || xj < 0 || yi >= (int)hw || xj >= (int)hw)
								continue;
							sum += x[(ci * hw + (unsigned int)yi) * hw + (unsigned int)xj] *
							       w[((o * c + ci) * 3 + (unsigned int)(di + 1)) * 3 +
								 (unsigned int)(dj + 1)];
						}
				y[(o * hw + i) * hw + j] = sum;
			}
}

static void cpu_softmax_rows(float *restrict y, const float *restrict x, unsigned int rows,
			     unsigned int cols)
{
	for (unsigned int r = 0; r < rows; r++) {
		const float *xr = x + (size_t)r * cols;
		float *yr = y + (size_t)r * cols, max = xr[0], sum = 0;

		for (unsigned int j = 1; j < cols; j++)
			max = xr[j] > max ? xr[j] : max;
		for (unsigned int j = 0; j < cols; j++) {
			yr[j] = expf(xr[j] - max);
			sum += yr[j];
		}
		for (unsigned int j = 0; j < cols; j++)
			yr[j] /= sum;
	}
}

static void cpu_layernorm_rows(float *restrict y, const float *restrict x, const float *restrict g,
			       const float *restrict b, unsigned int rows, unsigned int cols, float eps)
{
	for (unsigned int r = 0; r < rows; r++) {
		const float *xr = x + (size_t)r * cols;
		float *yr = y + (size_t)r * cols, mean = 0, var = 0, inv;

		for (unsigned int j = 0; j < cols; j++)
			mean += xr[j];
		mean /= (float)cols;
		for (unsigned int j = 0; j < cols; j++)
			var += (xr[j] - mean) * (xr[j] - mean);
		inv = 1.0f / sqrtf(var / (float)cols + eps);
		for (unsigned int j = 0; j < cols; j++)
			yr[j] = (xr[j] - mean) * inv * g[j] + b[j];
	}
}

static void cpu_transpose(float *restrict y, const float *restrict x, unsigned int rows,
			  unsigned int cols)
{
	for (unsigned int i = 0; i < rows; i++)
		for (unsigned int j = 0; j < cols; j++)
			y[(size_t)j * rows + i] = x[(size_t)i * cols + j];
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

	/* The operator library's figures; the operands are all within 1 Mi floats. */
	bench_samples_init(&s, scaled(5, 1));
	BENCH_LOOP(&s, scaled(5, 1), 1, {
		cpu_matmul_mnk(c, a, b, quick ? 64 : MM_BIG, MM_BIG, MM_BIG);
		__asm__ volatile("" ::: "memory");
	});
	record(&s, "ops_matmul512_cpu_ikj");
	bench_samples_init(&s, scaled(3, 1));
	BENCH_LOOP(&s, scaled(3, 1), 1, {
		cpu_matmul_ijk_mnk(c, a, b, quick ? 64 : MM_BIG, MM_BIG, MM_BIG);
		__asm__ volatile("" ::: "memory");
	});
	record(&s, "ops_matmul512_cpu_ijk");
	bench_samples_init(&s, scaled(5, 1));
	BENCH_LOOP(&s, scaled(5, 1), 1, {
		cpu_conv3x3(c, a, b, CONV_C, quick ? 4 : CONV_C, CONV_HW);
		__asm__ volatile("" ::: "memory");
	});
	record(&s, "ops_conv3x3_cpu");
	bench_samples_init(&s, scaled(10, 1));
	BENCH_LOOP(&s, scaled(10, 1), 1,
		   { cpu_softmax_rows(c, a, ROWS_N, ROWS_N); __asm__ volatile("" ::: "memory"); });
	record(&s, "ops_softmax1k_cpu");
	bench_samples_init(&s, scaled(10, 1));
	BENCH_LOOP(&s, scaled(10, 1), 1, {
		cpu_layernorm_rows(c, a, b, b + ROWS_N, ROWS_N, ROWS_N, 1e-5f);
		__asm__ volatile("" ::: "memory");
	});
	record(&s, "ops_layernorm1k_cpu");
	bench_samples_init(&s, scaled(10, 1));
	BENCH_LOOP(&s, scaled(10, 1), 1,
		   { cpu_transpose(c, a, ROWS_N, ROWS_N); __asm__ volatile("" ::: "memory"); });
	record(&s, "ops_transpose1k_cpu");
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

#define T2(d) { .dtype = ACL_FLOAT, .ndim = (int)(sizeof(d) / sizeof((d)[0])), .dims = (d) }

/*
 * Plan @type on @nin fp32 inputs with @nout outputs, give operand i the
 * address va[i] (the inputs, then the outputs; the workspace in @ws), warm
 * up, time @iters submit + wait round trips as @name.
 */
static void bench_call(int fd, uint32_t stream, uint32_t sync, const char *name, const char *type,
		       int nin, const struct vops_tensor *in, int nout, const struct vops_attr *attrs,
		       unsigned int nattrs, const uint64_t *va, struct vnpu_buf *ws, unsigned int iters)
{
	static struct vnpu_op op;
	struct bench_samples s;
	unsigned int i;

	if (vnpu_op_plan_n(&op, type, nin, in, nout, attrs, nattrs))
		bench_fail(op.err.msg, EINVAL);
	for (i = 0; i < (unsigned int)(nin + nout); i++)
		op.operands[i].va = va[i];
	if (op.plan.ws_bytes) {
		if (op.plan.ws_bytes > ws->size)
			bench_fail("the workspace buffer is too small", ENOSPC);
		op.operands[nin + nout].va = ws->va;
	}
	vnpu_op_encode(&op);
	BENCH_CHECK(run(fd, stream, sync, &op));	/* warm up */
	bench_samples_init(&s, iters);
	BENCH_LOOP(&s, iters, 1, BENCH_CHECK(run(fd, stream, sync, &op)));
	record(&s, name);
}

/* The operator library's figures on the device (see bench_cpu for the loops). */
static void bench_device_lib(int fd, uint32_t stream, uint32_t sync)
{
	const int64_t mm_a[2] = { quick ? 64 : MM_BIG, MM_BIG }, mm_b[2] = { MM_BIG, MM_BIG };
	const int64_t cx[4] = { 1, CONV_C, CONV_HW, CONV_HW }, cw[4] = { quick ? 4 : CONV_C, CONV_C, 3, 3 };
	const int64_t sq[2] = { ROWS_N, ROWS_N }, row[1] = { ROWS_N };
	const int64_t ones4[4] = { 1, 1, 1, 1 }, last[1] = { -1 }, perm[2] = { 1, 0 };
	struct vops_tensor mm[2] = { T2(mm_a), T2(mm_b) }, conv[2] = { T2(cx), T2(cw) };
	struct vops_tensor x = T2(sq), ln[3] = { T2(sq), T2(row), T2(row) };
	struct vops_attr conv_at[4] = {
		{ .name = (char *)"strides", .kind = VOPS_ATTR_LIST_INT, .li = { 4, (int64_t *)ones4 } },
		{ .name = (char *)"pads", .kind = VOPS_ATTR_LIST_INT, .li = { 4, (int64_t *)ones4 } },
		{ .name = (char *)"dilations", .kind = VOPS_ATTR_LIST_INT, .li = { 4, (int64_t *)ones4 } },
		{ .name = (char *)"data_format", .kind = VOPS_ATTR_STRING, .s = (char *)"NCHW" },
	};
	struct vops_attr sm_at = { .name = (char *)"axes", .kind = VOPS_ATTR_LIST_INT,
				   .li = { 1, (int64_t *)last } };
	struct vops_attr ln_at[3] = {
		{ .name = (char *)"begin_norm_axis", .kind = VOPS_ATTR_INT, .i = -1 },
		{ .name = (char *)"begin_params_axis", .kind = VOPS_ATTR_INT, .i = -1 },
		{ .name = (char *)"epsilon", .kind = VOPS_ATTR_FLOAT, .f = 1e-5f },
	};
	struct vops_attr tr_at = { .name = (char *)"perm", .kind = VOPS_ATTR_LIST_INT,
				   .li = { 2, (int64_t *)perm } };
	struct vnpu_buf a, b, c, ws;
	uint64_t va[6];

	BENCH_CHECK(vnpu_buf_create(fd, ADD_N * 4, &a));
	BENCH_CHECK(vnpu_buf_create(fd, ADD_N * 4, &b));
	BENCH_CHECK(vnpu_buf_create(fd, ADD_N * 4, &c));
	/* im2col of the convolution: 9 * C x H * W floats (7 MiB) */
	BENCH_CHECK(vnpu_buf_create(fd, 32u << 20, &ws));
	fill(a.cpu, ADD_N);
	fill(b.cpu, ADD_N);

	va[0] = a.va, va[1] = b.va, va[2] = c.va;
	bench_call(fd, stream, sync, "ops_matmul512_dev", "MatMul", 2, mm, 1, NULL, 0, va, &ws,
		   scaled(5, 1));
	bench_call(fd, stream, sync, "ops_conv3x3_dev", "Conv2D", 2, conv, 1, conv_at, 4, va, &ws,
		   scaled(5, 1));
	va[1] = c.va;
	bench_call(fd, stream, sync, "ops_softmax1k_dev", "SoftmaxV2", 1, &x, 1, &sm_at, 1, va, &ws,
		   scaled(10, 1));
	bench_call(fd, stream, sync, "ops_transpose1k_dev", "TransposeD", 1, &x, 1, &tr_at, 1, va, &ws,
		   scaled(10, 1));
	/* LayerNorm: gamma and beta are the first 2 Ki floats of b; three outputs
	 * (y, and each row's mean and variance in a), as CANN's. */
	va[1] = b.va, va[2] = b.va + 4 * ROWS_N, va[3] = c.va, va[4] = a.va + (ADD_N - 2 * ROWS_N) * 4;
	va[5] = va[4] + 4 * ROWS_N;
	bench_call(fd, stream, sync, "ops_layernorm1k_dev", "LayerNorm", 3, ln, 3, ln_at, 3, va, &ws,
		   scaled(10, 1));

	vnpu_buf_destroy(fd, &a);
	vnpu_buf_destroy(fd, &b);
	vnpu_buf_destroy(fd, &c);
	vnpu_buf_destroy(fd, &ws);
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
	bench_device_lib(fd, stream, sync);
	bench_pool(fd, sync);
	close(fd);
	return 0;
}
