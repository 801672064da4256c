// SPDX-License-Identifier: GPL-2.0
/*
 * bench_allocator: what an operator launch costs through the ACL API
 * (aclopExecuteV2), with a registered allocator and with the runtime's own
 * workspace pool, and how many ioctls it takes once warm (a benchmark, not
 * a test: it never fails on a time figure).
 *
 * The operator is the one bench_ops submits raw: ReduceSumD over 4 x 64
 * fp32 (256 bytes of workspace), so the compute is tiny and the figures
 * are the launch path:
 *
 *  - op_launch_user_alloc / op_launch_runtime_pool: ns per launch, 32
 *    launches back to back, not waited for (the stream is synchronised
 *    between rounds, outside the timing); op_launch_no_workspace: an Add
 *    of the same size (no allocator call);
 *  - op_user_ns_user_alloc / op_user_ns_runtime_pool: of those launches,
 *    the ns spent outside ioctl() (the interposed ioctl() times itself):
 *    the ACL layer's own cost, allocator callbacks included;
 *  - op_job_user_alloc / op_job_runtime_pool: as bench_ops' ops_small_job
 *    figures, 256 launches back to back and the last one waited for, per
 *    job (every ACL submit also signals the stream's timeline point);
 *  - op_roundtrip_user_alloc / op_roundtrip_runtime_pool: launch plus
 *    aclrtSynchronizeStream, per operator;
 *  - ioctls_per_op_user_alloc / ioctls_per_op_runtime_pool (counts): DRM
 *    ioctls per warm launch, counted by interposing ioctl() in this
 *    program; the design says exactly 1, the SUBMIT (submits_per_op_*
 *    count those).
 *
 * The variants are measured round by round in turn so that they see the
 * same conditions. tests/bench/ratios.conf relates the figures to each
 * other and to bench_ops, bench_streams and bench_baseline of the same
 * boot.
 * usage: bench_allocator [-q]; -q or VNPU_BENCH_MODE=smoke: few iterations.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl/acl_rt_allocator.h"
#include "bench_acl.h"
#include "bench.h"
#include "vnpu_drm.h"

#define BURST 32

static bool quick;

static unsigned int scaled(unsigned int full, unsigned int smoke)
{
	return quick ? smoke : full;
}




/* ---- a caching allocator: one block, reused (stream order) ---------------------- */

struct one_block {
	void *mem;
	size_t size;
	unsigned long allocs, frees;
};

static void *ob_alloc(aclrtAllocator obj, size_t size)
{
	struct one_block *ob = obj;

	ob->allocs++;
	return size <= ob->size ? ob : NULL;
}

static void ob_free(aclrtAllocator obj, aclrtAllocatorBlock block)
{
	struct one_block *ob = obj;

	(void)block;
	ob->frees++;
}

static void *ob_get_addr(aclrtAllocatorBlock block)
{
	return ((struct one_block *)block)->mem;
}

/* ---- the operator ------------------------------------------------------------------ */

struct op {
	const char *type;
	int nin;
	aclTensorDesc *in_desc[2], *out_desc[1];
	aclDataBuffer *in[2], *out[1];
	aclopAttr *attr;
};

static void launch(struct op *op, aclrtStream s)
{
	CHECK(aclopExecuteV2(op->type, op->nin, op->in_desc, op->in, 1, op->out_desc, op->out, op->attr, s));
}

/* One burst of launches on @s, timed: ns per launch; *@user gets the ns
 * per launch spent outside ioctl(). */
static double burst(struct op *op, aclrtStream s, double *user)
{
	uint64_t t0;
	unsigned int i;

	bench_ioctls.ns = 0;
	bench_ioctls.timing = true;
	t0 = bench_now_ns();
	for (i = 0; i < BURST; i++)
		launch(op, s);
	t0 = bench_now_ns() - t0;
	bench_ioctls.timing = false;
	*user = (double)(t0 - bench_ioctls.ns) / BURST;
	CHECK(aclrtSynchronizeStream(s));
	return (double)t0 / BURST;
}

static double roundtrip(struct op *op, aclrtStream s)
{
	uint64_t t0 = bench_now_ns();

	launch(op, s);
	CHECK(aclrtSynchronizeStream(s));
	return (double)(bench_now_ns() - t0);
}

/* @n launches back to back and the last one waited for: ns per job. */
static double jobs(struct op *op, aclrtStream s, unsigned int n)
{
	uint64_t t0 = bench_now_ns();
	unsigned int i;

	for (i = 0; i < n; i++)
		launch(op, s);
	CHECK(aclrtSynchronizeStream(s));
	return (double)(bench_now_ns() - t0) / n;
}

static void bench_launches(struct op *reduce, struct op *add, aclrtStream user, aclrtStream pool)
{
	unsigned int rounds = scaled(200, 5), r;
	struct bench_samples lu, lp, ln, uu, up, ju, jp, ru, rp;
	double user_ns;

	bench_samples_init(&lu, rounds);
	bench_samples_init(&lp, rounds);
	bench_samples_init(&ln, rounds);
	bench_samples_init(&uu, rounds);
	bench_samples_init(&up, rounds);
	for (r = 0; r < rounds; r++) {
		bench_add(&lu, burst(reduce, user, &user_ns));
		bench_add(&uu, user_ns);
		bench_add(&lp, burst(reduce, pool, &user_ns));
		bench_add(&up, user_ns);
		bench_add(&ln, burst(add, pool, &user_ns));
	}
	bench_report(&lu, "op_launch_user_alloc", "ns");
	bench_report(&lp, "op_launch_runtime_pool", "ns");
	bench_report(&ln, "op_launch_no_workspace", "ns");
	bench_report(&uu, "op_user_ns_user_alloc", "ns");
	bench_report(&up, "op_user_ns_runtime_pool", "ns");

	rounds = scaled(30, 2);
	bench_samples_init(&ju, rounds);
	bench_samples_init(&jp, rounds);
	for (r = 0; r < rounds; r++) {
		bench_add(&ju, jobs(reduce, user, scaled(256, 16)));
		bench_add(&jp, jobs(reduce, pool, scaled(256, 16)));
	}
	bench_report(&ju, "op_job_user_alloc", "ns");
	bench_report(&jp, "op_job_runtime_pool", "ns");

	rounds = scaled(300, 5);
	bench_samples_init(&ru, rounds);
	bench_samples_init(&rp, rounds);
	for (r = 0; r < rounds; r++) {
		bench_add(&ru, roundtrip(reduce, user));
		bench_add(&rp, roundtrip(reduce, pool));
	}
	bench_report(&ru, "op_roundtrip_user_alloc", "ns");
	bench_report(&rp, "op_roundtrip_runtime_pool", "ns");
}

static void count_ioctls(struct op *op, aclrtStream s, const char *ioctl_name, const char *submit_name)
{
	unsigned int n = scaled(1000, 50), i;

	bench_ioctls.drm = bench_ioctls.submits = 0;
	bench_ioctls.counting = true;
	for (i = 0; i < n; i++)
		launch(op, s);
	bench_ioctls.counting = false;
	CHECK(aclrtSynchronizeStream(s));
	bench_count(ioctl_name, (double)bench_ioctls.drm / n);
	bench_count(submit_name, (double)bench_ioctls.submits / n);
}

int main(int argc, char **argv)
{
	const char *mode = getenv("VNPU_BENCH_MODE");
	const int64_t dims[2] = { 4, 64 }, rows[1] = { 4 }, last_axis[1] = { -1 };
	const size_t bytes = 4 * 64 * sizeof(float);
	struct one_block ob = { .size = 64 << 10 };
	struct op reduce = { .type = "ReduceSumD", .nin = 1 }, add = { .type = "Add", .nin = 2 };
	void *r;
	aclrtStream user, pool;
	aclrtAllocatorDesc desc;
	void *x, *y;
	float host[4 * 64];
	unsigned int i;

	quick = (argc > 1 && !strcmp(argv[1], "-q")) || (mode && strstr(mode, "smoke"));
	if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
		fprintf(stderr, "bench_allocator: no vnpu device\n");
		return 1;
	}
	CHECK(aclrtCreateStream(&user));
	CHECK(aclrtCreateStream(&pool));
	CHECK(aclrtMalloc(&ob.mem, ob.size, ACL_MEM_MALLOC_NORMAL_ONLY));
	desc = aclrtAllocatorCreateDesc();
	CHECK(aclrtAllocatorSetObjToDesc(desc, &ob));
	CHECK(aclrtAllocatorSetAllocFuncToDesc(desc, ob_alloc));
	CHECK(aclrtAllocatorSetFreeFuncToDesc(desc, ob_free));
	CHECK(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(desc, ob_get_addr));
	CHECK(aclrtAllocatorRegister(user, desc));
	CHECK(aclrtAllocatorDestroyDesc(desc));

	for (i = 0; i < 4 * 64; i++)
		host[i] = (float)(i % 17) / 8.0f;
	CHECK(aclrtMalloc(&x, bytes, ACL_MEM_MALLOC_NORMAL_ONLY));
	CHECK(aclrtMalloc(&y, bytes, ACL_MEM_MALLOC_NORMAL_ONLY));
	CHECK(aclrtMemcpy(x, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
	CHECK(aclrtMalloc(&r, 4 * sizeof(float), ACL_MEM_MALLOC_NORMAL_ONLY));
	reduce.in_desc[0] = aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND);
	reduce.out_desc[0] = aclCreateTensorDesc(ACL_FLOAT, 1, rows, ACL_FORMAT_ND);
	reduce.in[0] = aclCreateDataBuffer(x, bytes);
	reduce.out[0] = aclCreateDataBuffer(r, 4 * sizeof(float));
	reduce.attr = aclopCreateAttr();
	CHECK(aclopSetAttrListInt(reduce.attr, "axes", 1, last_axis));
	add.in_desc[0] = add.in_desc[1] = reduce.in_desc[0];
	add.out_desc[0] = aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND);
	add.in[0] = add.in[1] = reduce.in[0];
	add.out[0] = aclCreateDataBuffer(y, bytes);

	/* Warm: kernel streams, the pool binding, the runtime's block. */
	for (i = 0; i < scaled(200, 20); i++) {
		launch(&reduce, user);
		launch(&reduce, pool);
		launch(&add, pool);
	}
	CHECK(aclrtSynchronizeDevice());

	bench_launches(&reduce, &add, user, pool);
	count_ioctls(&reduce, user, "ioctls_per_op_user_alloc", "submits_per_op_user_alloc");
	count_ioctls(&reduce, pool, "ioctls_per_op_runtime_pool", "submits_per_op_runtime_pool");

	if (ob.allocs != ob.frees) {
		fprintf(stderr, "bench_allocator: %lu allocs but %lu frees\n", ob.allocs, ob.frees);
		return 1;
	}
	CHECK(aclrtAllocatorUnregister(user));
	CHECK(aclrtDestroyStream(user));
	CHECK(aclrtDestroyStream(pool));
	aclDestroyTensorDesc(reduce.in_desc[0]);
	aclDestroyTensorDesc(reduce.out_desc[0]);
	aclDestroyTensorDesc(add.out_desc[0]);
	CHECK(aclDestroyDataBuffer(reduce.in[0]));
	CHECK(aclDestroyDataBuffer(reduce.out[0]));
	CHECK(aclDestroyDataBuffer(add.out[0]));
	aclopDestroyAttr(reduce.attr);
	CHECK(aclrtFree(r));
	CHECK(aclrtFree(x));
	CHECK(aclrtFree(y));
	CHECK(aclrtFree(ob.mem));
	CHECK(aclrtResetDevice(0));
	CHECK(aclFinalize());
	return 0;
}
