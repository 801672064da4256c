// SPDX-License-Identifier: MIT
/*
 * bench_aclnn: what an aclnn launch costs (issue 16), as ratios to figures
 * measured in the same run (a benchmark, not a test).
 *
 *  - aclnn_add_small: one small fp32 Add (16 elements) the way frameworks
 *    call aclnn, aclnnAddGetWorkspaceSize then aclnnAdd, warm, pipelined;
 *  - aclnn_add_repeat: the same executor made repeatable and launched
 *    again (the launch alone);
 *  - aclop_add_small: the same Add through aclopExecuteV2, warm,
 *    pipelined;
 *  - aclnn_launch_ioctls, aclnn_call_ioctls: DRM ioctls per warm launch
 *    and per warm two-stage call (counted by interposing ioctl()).
 *
 * Output: BENCH lines for tests/bench/report.py (ratios.conf).
 * usage: bench_aclnn [-q]; -q or VNPU_BENCH_MODE=smoke: few iterations.
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
#include "aclnnop/aclnn_add.h"
#include "bench_acl.h"
#include "bench.h"

#define N 16

static bool quick;



static unsigned int scaled(unsigned int full, unsigned int smoke)
{
	return quick ? smoke : full;
}

struct bufs {
	void *a, *b, *c;
	aclTensor *ta, *tb, *tc;
	aclScalar *alpha;
	aclTensorDesc *desc;
	aclDataBuffer *da, *db, *dc;
	aclrtStream s;
};

static void aclnn_call(struct bufs *b)
{
	uint64_t ws;
	aclOpExecutor *ex;

	CHECK(aclnnAddGetWorkspaceSize(b->ta, b->tb, b->alpha, b->tc, &ws, &ex));
	CHECK(aclnnAdd(NULL, ws, ex, b->s));
}

static void aclop_call(struct bufs *b)
{
	aclTensorDesc *in_desc[2] = { b->desc, b->desc }, *out_desc[1] = { b->desc };
	aclDataBuffer *in[2] = { b->da, b->db }, *out[1] = { b->dc };

	CHECK(aclopExecuteV2("Add", 2, in_desc, in, 1, out_desc, out, NULL, b->s));
}

static aclOpExecutor *repeat_ex;

static void aclnn_repeat(struct bufs *b)
{
	CHECK(aclnnAdd(NULL, 0, repeat_ex, b->s));
}

/* ns per call of @fn over @k pipelined calls and one synchronize. */
static double burst(struct bufs *b, void (*fn)(struct bufs *), unsigned int k)
{
	uint64_t t0 = bench_now_ns();
	unsigned int i;

	for (i = 0; i < k; i++)
		fn(b);
	CHECK(aclrtSynchronizeStream(b->s));
	return (double)(bench_now_ns() - t0) / k;
}

static double count(struct bufs *b, void (*fn)(struct bufs *), unsigned int k)
{
	unsigned int i;

	bench_ioctls.drm = 0;
	bench_ioctls.counting = true;
	for (i = 0; i < k; i++)
		fn(b);
	bench_ioctls.counting = false;
	CHECK(aclrtSynchronizeStream(b->s));
	return (double)bench_ioctls.drm / k;
}

int main(int argc, char **argv)
{
	const char *mode = getenv("VNPU_BENCH_MODE");
	int64_t dims[] = { N };
	float one = 1, host[N];
	unsigned int rounds, k, r, i;
	struct bench_samples s_nn, s_rep, s_op;
	struct bufs b;
	uint64_t ws;

	quick = (argc > 1 && !strcmp(argv[1], "-q")) || (mode && !strcmp(mode, "smoke"));
	rounds = scaled(30, 3);
	k = scaled(64, 8);
	for (i = 0; i < N; i++)
		host[i] = (float)i;
	CHECK(aclInit(NULL));
	CHECK(aclrtSetDevice(0));
	CHECK(aclrtCreateStream(&b.s));
	CHECK(aclrtMalloc(&b.a, sizeof(host), ACL_MEM_MALLOC_NORMAL_ONLY));
	CHECK(aclrtMalloc(&b.b, sizeof(host), ACL_MEM_MALLOC_NORMAL_ONLY));
	CHECK(aclrtMalloc(&b.c, sizeof(host), ACL_MEM_MALLOC_NORMAL_ONLY));
	CHECK(aclrtMemcpy(b.a, sizeof(host), host, sizeof(host), ACL_MEMCPY_HOST_TO_DEVICE));
	CHECK(aclrtMemcpy(b.b, sizeof(host), host, sizeof(host), ACL_MEMCPY_HOST_TO_DEVICE));
	b.ta = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, b.a);
	b.tb = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, b.b);
	b.tc = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, b.c);
	b.alpha = aclCreateScalar(&one, ACL_FLOAT);
	b.desc = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
	b.da = aclCreateDataBuffer(b.a, sizeof(host));
	b.db = aclCreateDataBuffer(b.b, sizeof(host));
	b.dc = aclCreateDataBuffer(b.c, sizeof(host));
	if (!b.ta || !b.tb || !b.tc || !b.alpha || !b.desc || !b.da || !b.db || !b.dc)
		bench_fail("creating tensors", ENOMEM);
	CHECK(aclnnAddGetWorkspaceSize(b.ta, b.tb, b.alpha, b.tc, &ws, &repeat_ex));
	if (ws)
		bench_fail("a small Add asked for workspace", EINVAL);
	CHECK(aclSetAclOpExecutorRepeatable(repeat_ex));

	/* Warm: the kernel stream, the caches. */
	aclnn_call(&b);
	aclop_call(&b);
	aclnn_repeat(&b);
	CHECK(aclrtSynchronizeStream(b.s));

	bench_samples_init(&s_nn, rounds);
	bench_samples_init(&s_rep, rounds);
	bench_samples_init(&s_op, rounds);
	/* In turn, round by round, so that all see the same conditions. */
	for (r = 0; r < rounds; r++) {
		bench_add(&s_nn, burst(&b, aclnn_call, k));
		bench_add(&s_rep, burst(&b, aclnn_repeat, k));
		bench_add(&s_op, burst(&b, aclop_call, k));
	}
	bench_report(&s_nn, "aclnn_add_small", "ns");
	bench_report(&s_rep, "aclnn_add_repeat", "ns");
	bench_report(&s_op, "aclop_add_small", "ns");
	bench_count("aclnn_launch_ioctls", count(&b, aclnn_repeat, scaled(200, 20)));
	bench_count("aclnn_call_ioctls", count(&b, aclnn_call, scaled(200, 20)));
	bench_count("aclop_call_ioctls", count(&b, aclop_call, scaled(200, 20)));

	CHECK(aclDestroyAclOpExecutor(repeat_ex));
	aclDestroyTensor(b.ta);
	aclDestroyTensor(b.tb);
	aclDestroyTensor(b.tc);
	aclDestroyScalar(b.alpha);
	aclDestroyTensorDesc(b.desc);
	aclDestroyDataBuffer(b.da);
	aclDestroyDataBuffer(b.db);
	aclDestroyDataBuffer(b.dc);
	aclrtFree(b.a);
	aclrtFree(b.b);
	aclrtFree(b.c);
	aclrtDestroyStream(b.s);
	aclrtResetDevice(0);
	aclFinalize();
	return 0;
}
