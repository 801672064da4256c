// SPDX-License-Identifier: GPL-2.0
/*
 * bench_allocator: what an operator launch costs through the ACL API
 * (aclopExecuteV2), with a registered allocator and with the runtime's own
 * workspace pool, and how many ioctls it takes once warm (a benchmark, not
 * a test: it never fails on a time figure).
 *
 * The operator is a small SoftmaxV2 (4 x 64 fp32: 256 bytes of workspace),
 * so the figures are the launch path, not the compute:
 *
 *  - op_launch_user_alloc / op_launch_runtime_pool: ns per launch, 32
 *    launches back to back without waiting (the stream synchronised
 *    between rounds, outside the timing);
 *  - op_roundtrip_user_alloc / op_roundtrip_runtime_pool: launch plus
 *    aclrtSynchronizeStream, per operator;
 *  - op_launch_no_workspace: an Add of the same size (no allocator call);
 *  - ioctls_per_op_user_alloc / ioctls_per_op_runtime_pool (counts): DRM
 *    ioctls per warm launch, counted by interposing ioctl() in this
 *    program; the design says exactly 1 (the SUBMIT), and
 *    submits_per_op_* says how many of them were submits.
 *
 * tests/bench/ratios.conf relates them to each other and to bench_baseline
 * and bench_streams figures of the same boot.
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
#include "bench.h"
#include "vnpu_drm.h"

#define BURST 32

static bool quick;

static unsigned int scaled(unsigned int full, unsigned int smoke)
{
	return quick ? smoke : full;
}

#define CHECK(call)                                                                              \
	do {                                                                                     \
		aclError r_ = (call);                                                            \
		if (r_ != ACL_SUCCESS) {                                                         \
			const char *m_ = aclGetRecentErrMsg();                                   \
			fprintf(stderr, "%s failed: %d (%s)\n", #call, r_, m_ ? m_ : "no message"); \
			exit(1);                                                                 \
		}                                                                                \
	} while (0)

/* ---- counting ioctls ------------------------------------------------------------ */

static bool counting;
static unsigned long drm_ioctls, submits;

/* Interposes the C library's ioctl() for the whole process (libdrm too). */
int ioctl(int fd, unsigned long request, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (counting && _IOC_TYPE(request) == DRM_IOCTL_BASE) {
		drm_ioctls++;
		submits += _IOC_NR(request) == DRM_COMMAND_BASE + DRM_VNPU_SUBMIT;
	}
	return (int)syscall(SYS_ioctl, fd, request, arg);
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
};

static void launch(struct op *op, aclrtStream s)
{
	CHECK(aclopExecuteV2(op->type, op->nin, op->in_desc, op->in, 1, op->out_desc, op->out, NULL, s));
}

/* One burst of launches on @s, timed: ns per launch. */
static double burst(struct op *op, aclrtStream s)
{
	uint64_t t0 = bench_now_ns();
	unsigned int i;

	for (i = 0; i < BURST; i++)
		launch(op, s);
	t0 = bench_now_ns() - t0;
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

/*
 * The variants are measured round by round in turn, so that they see the
 * same conditions (under emulation the speed of the host drifts).
 */
static void bench_launches(struct op *softmax, struct op *add, aclrtStream user, aclrtStream pool)
{
	unsigned int rounds = scaled(200, 5), r;
	struct bench_samples lu, lp, ln, ru, rp;

	bench_samples_init(&lu, rounds);
	bench_samples_init(&lp, rounds);
	bench_samples_init(&ln, rounds);
	for (r = 0; r < rounds; r++) {
		bench_add(&lu, burst(softmax, user));
		bench_add(&lp, burst(softmax, pool));
		bench_add(&ln, burst(add, pool));
	}
	bench_report(&lu, "op_launch_user_alloc", "ns");
	bench_report(&lp, "op_launch_runtime_pool", "ns");
	bench_report(&ln, "op_launch_no_workspace", "ns");

	rounds = scaled(300, 5);
	bench_samples_init(&ru, rounds);
	bench_samples_init(&rp, rounds);
	for (r = 0; r < rounds; r++) {
		bench_add(&ru, roundtrip(softmax, user));
		bench_add(&rp, roundtrip(softmax, pool));
	}
	bench_report(&ru, "op_roundtrip_user_alloc", "ns");
	bench_report(&rp, "op_roundtrip_runtime_pool", "ns");
}

static void count_ioctls(struct op *op, aclrtStream s, const char *ioctl_name, const char *submit_name)
{
	unsigned int n = scaled(1000, 50), i;

	drm_ioctls = submits = 0;
	counting = true;
	for (i = 0; i < n; i++)
		launch(op, s);
	counting = false;
	CHECK(aclrtSynchronizeStream(s));
	bench_count(ioctl_name, (double)drm_ioctls / n);
	bench_count(submit_name, (double)submits / n);
}

int main(int argc, char **argv)
{
	const char *mode = getenv("VNPU_BENCH_MODE");
	const int64_t dims[2] = { 4, 64 };
	const size_t bytes = 4 * 64 * sizeof(float);
	struct one_block ob = { .size = 64 << 10 };
	struct op softmax = { .type = "SoftmaxV2", .nin = 1 }, add = { .type = "Add", .nin = 2 };
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
	softmax.in_desc[0] = aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND);
	softmax.out_desc[0] = aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND);
	softmax.in[0] = aclCreateDataBuffer(x, bytes);
	softmax.out[0] = aclCreateDataBuffer(y, bytes);
	add.in_desc[0] = add.in_desc[1] = softmax.in_desc[0];
	add.out_desc[0] = softmax.out_desc[0];
	add.in[0] = add.in[1] = softmax.in[0];
	add.out[0] = softmax.out[0];

	/* Warm: kernel streams, the pool binding, the runtime's block. */
	for (i = 0; i < scaled(200, 20); i++) {
		launch(&softmax, user);
		launch(&softmax, pool);
		launch(&add, pool);
	}
	CHECK(aclrtSynchronizeDevice());

	bench_launches(&softmax, &add, user, pool);
	count_ioctls(&softmax, user, "ioctls_per_op_user_alloc", "submits_per_op_user_alloc");
	count_ioctls(&softmax, pool, "ioctls_per_op_runtime_pool", "submits_per_op_runtime_pool");

	if (ob.allocs != ob.frees) {
		fprintf(stderr, "bench_allocator: %lu allocs but %lu frees\n", ob.allocs, ob.frees);
		return 1;
	}
	CHECK(aclrtAllocatorUnregister(user));
	CHECK(aclrtDestroyStream(user));
	CHECK(aclrtDestroyStream(pool));
	aclDestroyTensorDesc(softmax.in_desc[0]);
	aclDestroyTensorDesc(softmax.out_desc[0]);
	CHECK(aclDestroyDataBuffer(softmax.in[0]));
	CHECK(aclDestroyDataBuffer(softmax.out[0]));
	CHECK(aclrtFree(x));
	CHECK(aclrtFree(y));
	CHECK(aclrtFree(ob.mem));
	CHECK(aclrtResetDevice(0));
	CHECK(aclFinalize());
	return 0;
}
