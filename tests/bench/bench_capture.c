// SPDX-License-Identifier: MIT
/*
 * bench_capture: what a captured task graph saves (issue 19), as ratios to
 * figures measured in the same run (a benchmark, not a test).
 *
 *  - capture_launch_task_256: per operator, 256 small fp32 Adds (16
 *    elements) launched one by one with aclopExecuteV2 on one stream, then
 *    one synchronize;
 *  - capture_replay_task_256: per operator, the same 256 Adds captured once
 *    (aclmdlRICaptureBegin/End) and replayed with aclmdlRIExecuteAsync,
 *    then one synchronize;
 *  - capture_replay_off_task_256: per task, the same graph captured again
 *    with every task disabled (aclmdlRITaskDisable: NOPs), replayed: what
 *    the replay itself costs (one SUBMIT, the kernel, the engine server's
 *    walk over the tasks) without the operators' own work;
 *  - capture_replay_ioctls, capture_launch_ioctls: DRM ioctls per replay
 *    of the 256 and per single launch (counted by interposing ioctl()).
 *
 * Output: BENCH lines for tests/bench/report.py (ratios.conf).
 * usage: bench_capture [-q]; -q or VNPU_BENCH_MODE=smoke: few iterations.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "acl/acl.h"
#include "bench_acl.h"
#include "bench.h"

#define N 16
#define OPS 256




struct bufs {
	aclTensorDesc *desc;
	aclDataBuffer *a, *b;
	aclrtStream s;
};

/* b = a + b, in place on b (an element-wise operator's output may be an input). */
static void add(struct bufs *b)
{
	aclTensorDesc *in_desc[2] = { b->desc, b->desc }, *out_desc[1] = { b->desc };
	aclDataBuffer *in[2] = { b->a, b->b }, *out[1] = { b->b };

	CHECK(aclopExecuteV2("Add", 2, in_desc, in, 1, out_desc, out, NULL, b->s));
}

static double launch_all(struct bufs *b)
{
	uint64_t t0 = bench_now_ns();
	unsigned int i;

	for (i = 0; i < OPS; i++)
		add(b);
	CHECK(aclrtSynchronizeStream(b->s));
	return (double)(bench_now_ns() - t0) / OPS;
}

static double replay(struct bufs *b, aclmdlRI ri)
{
	uint64_t t0 = bench_now_ns();

	CHECK(aclmdlRIExecuteAsync(ri, b->s));
	CHECK(aclrtSynchronizeStream(b->s));
	return (double)(bench_now_ns() - t0) / OPS;
}

int main(int argc, char **argv)
{
	const char *mode = getenv("VNPU_BENCH_MODE");
	bool quick = (argc > 1 && !strcmp(argv[1], "-q")) || (mode && !strcmp(mode, "smoke"));
	unsigned int rounds = quick ? 3 : 30, r, i;
	struct bench_samples s_launch, s_replay, s_off;
	aclmdlRITask tasks[OPS];
	uint32_t ntasks = OPS;
	aclmdlRI off;
	int64_t dims[] = { N };
	float host[N];
	void *da, *db;
	struct bufs b;
	aclmdlRI ri;

	for (i = 0; i < N; i++)
		host[i] = (float)i;
	CHECK(aclInit(NULL));
	CHECK(aclrtSetDevice(0));
	CHECK(aclrtCreateStream(&b.s));
	CHECK(aclrtMalloc(&da, sizeof(host), ACL_MEM_MALLOC_NORMAL_ONLY));
	CHECK(aclrtMalloc(&db, sizeof(host), ACL_MEM_MALLOC_NORMAL_ONLY));
	CHECK(aclrtMemcpy(da, sizeof(host), host, sizeof(host), ACL_MEMCPY_HOST_TO_DEVICE));
	CHECK(aclrtMemcpy(db, sizeof(host), host, sizeof(host), ACL_MEMCPY_HOST_TO_DEVICE));
	b.desc = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
	b.a = aclCreateDataBuffer(da, sizeof(host));
	b.b = aclCreateDataBuffer(db, sizeof(host));
	if (!b.desc || !b.a || !b.b)
		bench_fail("creating tensors", ENOMEM);

	CHECK(aclmdlRICaptureBegin(b.s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	for (i = 0; i < OPS; i++)
		add(&b);
	CHECK(aclmdlRICaptureEnd(b.s, &ri));
	/* The same graph with its tasks disabled (the stream's tasks are
	 * those of its latest graph: this one). */
	CHECK(aclmdlRICaptureBegin(b.s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	for (i = 0; i < OPS; i++)
		add(&b);
	CHECK(aclmdlRICaptureEnd(b.s, &off));
	CHECK(aclmdlRIGetTasksByStream(b.s, tasks, &ntasks));
	for (i = 0; i < ntasks; i++)
		CHECK(aclmdlRITaskDisable(tasks[i]));

	/* Warm: the kernel stream, the caches, the replay's layout. */
	launch_all(&b);
	replay(&b, ri);
	replay(&b, off);

	bench_samples_init(&s_launch, rounds);
	bench_samples_init(&s_replay, rounds);
	bench_samples_init(&s_off, rounds);
	/* In turn, round by round, so that both see the same conditions. */
	for (r = 0; r < rounds; r++) {
		bench_add(&s_launch, launch_all(&b));
		bench_add(&s_replay, replay(&b, ri));
		bench_add(&s_off, replay(&b, off));
	}
	bench_report(&s_launch, "capture_launch_task_256", "ns");
	bench_report(&s_replay, "capture_replay_task_256", "ns");
	bench_report(&s_off, "capture_replay_off_task_256", "ns");

	bench_ioctls.drm = 0;
	bench_ioctls.counting = true;
	CHECK(aclmdlRIExecuteAsync(ri, b.s));
	bench_ioctls.counting = false;
	bench_count("capture_replay_ioctls", (double)bench_ioctls.drm);
	CHECK(aclrtSynchronizeStream(b.s));
	bench_ioctls.drm = 0;
	bench_ioctls.counting = true;
	add(&b);
	bench_ioctls.counting = false;
	bench_count("capture_launch_ioctls", (double)bench_ioctls.drm);
	CHECK(aclrtSynchronizeStream(b.s));

	CHECK(aclmdlRIDestroy(ri));
	CHECK(aclmdlRIDestroy(off));
	aclDestroyTensorDesc(b.desc);
	aclDestroyDataBuffer(b.a);
	aclDestroyDataBuffer(b.b);
	aclrtFree(da);
	aclrtFree(db);
	aclrtDestroyStream(b.s);
	aclrtResetDevice(0);
	aclFinalize();
	return 0;
}
