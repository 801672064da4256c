// SPDX-License-Identifier: MIT
/*
 * A CANN-style sample in plain C11: a framework's caching allocator
 * registered for a stream with aclrtAllocatorRegister, serving the
 * workspace of a small chain of built-in operators
 *
 *     h = MatMul(a, b^T)    (fp32: BLAS takes the transpose itself, so
 *                            no workspace and no allocator call)
 *     p = SoftmaxV2(h)      (over the last axis: needs workspace)
 *     r = ReduceSumD(p)     (over the last axis: needs workspace)
 *
 * run a few times. The results are checked against a CPU reference in
 * double precision; then the allocator's call counts and the kernel's pool
 * counters of the process's streams (read from /proc/self/fdinfo, where
 * vnpu-smi --streams reads them too) are printed.
 *
 * The allocator: one arena of device memory (aclrtMalloc) cut into blocks
 * of power-of-two sizes, freed blocks kept per size and reused. The
 * runtime calls free() right after queueing each operator, while the
 * device may still use the block: reusing it for later work on the same
 * stream is safe (the stream runs in order); returning the arena to the
 * system needs aclrtSynchronizeStream first.
 */
#include <dirent.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/acl_rt_allocator.h"

#define INFO_LOG(...) (printf("[INFO]  " __VA_ARGS__), printf("\n"))
#define ERROR_LOG(...) (printf("[ERROR] " __VA_ARGS__), printf("\n"))

#define CHECK(call)                                                                         \
	do {                                                                                \
		aclError r_ = (call);                                                       \
		if (r_ != ACL_SUCCESS) {                                                    \
			const char *m_ = aclGetRecentErrMsg();                              \
			ERROR_LOG("%s failed: %d (%s)", #call, r_, m_ ? m_ : "no message"); \
			exit(1);                                                            \
		}                                                                           \
	} while (0)

/* ---- the caching allocator ------------------------------------------------------- */

#define ARENA_BYTES (4u << 20)
#define MIN_CLASS 12 /* 4 KiB */
#define CLASSES 20

struct caching_allocator;

struct block {
	struct block *next;
	struct caching_allocator *owner;
	void *addr;
	unsigned int cls;
};

struct caching_allocator {
	char *arena;		/* device memory */
	size_t used;
	struct block *free_list[CLASSES];
	unsigned long allocs, frees, get_addrs, advises, carved, reused, failed;
};

static unsigned int size_class(size_t size)
{
	unsigned int c = MIN_CLASS;

	while (c < MIN_CLASS + CLASSES - 1 && ((size_t)1 << c) < size)
		c++;
	return c;
}

static void *ca_alloc(aclrtAllocator obj, size_t size)
{
	struct caching_allocator *ca = obj;
	unsigned int c = size_class(size);
	struct block *b;

	ca->allocs++;
	if (((size_t)1 << c) < size) {
		ca->failed++;
		return NULL;
	}
	b = ca->free_list[c - MIN_CLASS];
	if (b) {
		ca->free_list[c - MIN_CLASS] = b->next;
		ca->reused++;
		return b;
	}
	if (ca->used + ((size_t)1 << c) > ARENA_BYTES) {
		ca->failed++;
		return NULL;
	}
	b = malloc(sizeof(*b));
	if (!b) {
		ca->failed++;
		return NULL;
	}
	b->owner = ca;
	b->addr = ca->arena + ca->used;
	b->cls = c;
	ca->used += (size_t)1 << c;
	ca->carved++;
	return b;
}

static void ca_free(aclrtAllocator obj, aclrtAllocatorBlock block)
{
	struct caching_allocator *ca = obj;
	struct block *b = block;

	ca->frees++;
	b->next = ca->free_list[b->cls - MIN_CLASS];
	ca->free_list[b->cls - MIN_CLASS] = b;
}

static void *ca_alloc_advise(aclrtAllocator obj, size_t size, aclrtAllocatorAddr addr)
{
	struct caching_allocator *ca = obj;

	(void)addr; /* a hint; this allocator does not place blocks */
	ca->advises++;
	return ca_alloc(obj, size);
}

static void *ca_get_addr(aclrtAllocatorBlock block)
{
	struct block *b = block;

	b->owner->get_addrs++;
	return b->addr;
}

static void ca_destroy(struct caching_allocator *ca)
{
	unsigned int c;

	for (c = 0; c < CLASSES; c++) {
		while (ca->free_list[c]) {
			struct block *b = ca->free_list[c];

			ca->free_list[c] = b->next;
			free(b);
		}
	}
	CHECK(aclrtFree(ca->arena));
}

/* ---- tensors ------------------------------------------------------------------------ */

struct tensor {
	int64_t dims[2];
	int ndims;
	size_t count;
	float *host;
	void *dev;
	aclTensorDesc *desc;
	aclDataBuffer *buf;
};

static void tensor_init(struct tensor *t, int ndims, int64_t d0, int64_t d1, unsigned int seed)
{
	size_t i;

	t->ndims = ndims;
	t->dims[0] = d0;
	t->dims[1] = d1;
	t->count = (size_t)d0 * (size_t)(ndims == 2 ? d1 : 1);
	t->host = calloc(t->count, sizeof(float));
	if (!t->host)
		exit(1);
	for (i = 0; seed && i < t->count; i++) {
		seed = seed * 1103515245u + 12345u;
		t->host[i] = (float)((seed >> 8) % 2001) / 1000.0f - 1.0f;
	}
	CHECK(aclrtMalloc(&t->dev, t->count * sizeof(float), ACL_MEM_MALLOC_NORMAL_ONLY));
	CHECK(aclrtMemcpy(t->dev, t->count * sizeof(float), t->host, t->count * sizeof(float),
			  ACL_MEMCPY_HOST_TO_DEVICE));
	t->desc = aclCreateTensorDesc(ACL_FLOAT, ndims, t->dims, ACL_FORMAT_ND);
	t->buf = aclCreateDataBuffer(t->dev, t->count * sizeof(float));
	if (!t->desc || !t->buf)
		exit(1);
}

static void tensor_fini(struct tensor *t)
{
	aclDestroyTensorDesc(t->desc);
	CHECK(aclDestroyDataBuffer(t->buf));
	CHECK(aclrtFree(t->dev));
	free(t->host);
}

static void run(const char *op, struct tensor *a, struct tensor *b, struct tensor *out, aclopAttr *attr,
		aclrtStream stream)
{
	aclTensorDesc *in_desc[2] = { a->desc, b ? b->desc : NULL }, *out_desc[1] = { out->desc };
	aclDataBuffer *in[2] = { a->buf, b ? b->buf : NULL }, *outs[1] = { out->buf };

	CHECK(aclopExecuteV2(op, b ? 2 : 1, in_desc, in, 1, out_desc, outs, attr, stream));
}

/* Largest |got - want| / (|want| + scale) over @n elements: relative
 * error, absolute for values well below @scale. */
static double max_error(const float *got, const double *want, size_t n, double scale)
{
	double worst = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		double e = fabs(got[i] - want[i]) / (fabs(want[i]) + scale);

		if (e > worst)
			worst = e;
	}
	return worst;
}

/* ---- the kernel's counters --------------------------------------------------------- */

/* Print the pool counters of each vnpu stream line in this process's
 * fdinfo (the DRM file the runtime opened). */
static void print_stream_counters(void)
{
	static const char *const keys[] = { "pool_ranges=", "pool_bytes=", "hazards_serialized=",
					     "hazards_rejected=", "ws_bytes=", "ws_tasks=", "require_pool=" };
	DIR *dir = opendir("/proc/self/fdinfo");
	struct dirent *e;
	unsigned int lines = 0;

	while (dir && (e = readdir(dir))) {
		char path[300], line[1024];
		FILE *f;

		snprintf(path, sizeof(path), "/proc/self/fdinfo/%s", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			char out[512];
			size_t at = 0, k;

			if (strncmp(line, "vnpu-stream-", 12))
				continue;
			at += (size_t)snprintf(out, sizeof(out), "%.*s", (int)strcspn(line, "\t"), line);
			for (k = 0; k < sizeof(keys) / sizeof(keys[0]) && at < sizeof(out); k++) {
				const char *v = strstr(line, keys[k]);

				if (v)
					at += (size_t)snprintf(out + at, sizeof(out) - at, " %.*s", (int)strcspn(v, " \n"), v);
			}
			INFO_LOG("  %s", out);
			lines++;
		}
		fclose(f);
	}
	if (dir)
		closedir(dir);
	if (!lines)
		INFO_LOG("  (no vnpu-stream lines in /proc/self/fdinfo)");
}

int main(void)
{
	enum { M = 64, K = 128, N = 256, ROUNDS = 3 };
	struct caching_allocator ca = { 0 };
	struct tensor a, b, h, p, r;
	aclrtAllocatorDesc desc;
	aclopAttr *mm_attr, *red_attr;
	const int64_t last_axis[1] = { -1 };
	double *ref_h, *ref_p, *ref_r, worst = 0;
	aclrtStream stream;
	size_t i, j, q;
	int round;

	CHECK(aclInit(NULL));
	CHECK(aclrtSetDevice(0));
	CHECK(aclrtCreateStream(&stream));

	CHECK(aclrtMalloc((void **)&ca.arena, ARENA_BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
	desc = aclrtAllocatorCreateDesc();
	if (!desc)
		return 1;
	CHECK(aclrtAllocatorSetObjToDesc(desc, &ca));
	CHECK(aclrtAllocatorSetAllocFuncToDesc(desc, ca_alloc));
	CHECK(aclrtAllocatorSetFreeFuncToDesc(desc, ca_free));
	CHECK(aclrtAllocatorSetAllocAdviseFuncToDesc(desc, ca_alloc_advise));
	CHECK(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(desc, ca_get_addr));
	CHECK(aclrtAllocatorRegister(stream, desc));
	CHECK(aclrtAllocatorDestroyDesc(desc)); /* the registration is a copy */
	INFO_LOG("caching allocator registered for the stream (arena of %u MiB from aclrtMalloc)",
		 ARENA_BYTES >> 20);

	tensor_init(&a, 2, M, K, 1);
	tensor_init(&b, 2, N, K, 2); /* stored transposed: N x K */
	tensor_init(&h, 2, M, N, 0);
	tensor_init(&p, 2, M, N, 0);
	tensor_init(&r, 1, M, 0, 0);
	mm_attr = aclopCreateAttr();
	red_attr = aclopCreateAttr();
	if (!mm_attr || !red_attr)
		return 1;
	CHECK(aclopSetAttrBool(mm_attr, "transpose_x1", 0));
	CHECK(aclopSetAttrBool(mm_attr, "transpose_x2", 1));
	CHECK(aclopSetAttrListInt(red_attr, "axes", 1, last_axis));
	CHECK(aclopSetAttrBool(red_attr, "keep_dims", 0));

	for (round = 0; round < ROUNDS; round++) {
		run("MatMul", &a, &b, &h, mm_attr, stream);
		run("SoftmaxV2", &h, NULL, &p, NULL, stream);
		run("ReduceSumD", &p, NULL, &r, red_attr, stream);
	}
	CHECK(aclrtSynchronizeStream(stream));

	/* The CPU's answer, in double precision. */
	ref_h = calloc(M * N, sizeof(double));
	ref_p = calloc(M * N, sizeof(double));
	ref_r = calloc(M, sizeof(double));
	if (!ref_h || !ref_p || !ref_r)
		return 1;
	for (i = 0; i < M; i++) {
		double mx = -INFINITY, sum = 0;

		for (j = 0; j < N; j++) {
			double s = 0;

			for (q = 0; q < K; q++)
				s += (double)a.host[i * K + q] * b.host[j * K + q];
			ref_h[i * N + j] = s;
			mx = fmax(mx, s);
		}
		for (j = 0; j < N; j++)
			sum += exp(ref_h[i * N + j] - mx);
		for (j = 0; j < N; j++) {
			ref_p[i * N + j] = exp(ref_h[i * N + j] - mx) / sum;
			ref_r[i] += ref_p[i * N + j];
		}
	}
	CHECK(aclrtMemcpy(h.host, M * N * sizeof(float), h.dev, M * N * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST));
	CHECK(aclrtMemcpy(p.host, M * N * sizeof(float), p.dev, M * N * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST));
	CHECK(aclrtMemcpy(r.host, M * sizeof(float), r.dev, M * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST));
	/* fp32 results: a MatMul entry is a sum of K products of values in
	 * [-1, 1], so its error is absolute (about K ulps of 1); the softmax
	 * and the sums are relative. */
	worst = fmax(worst, max_error(h.host, ref_h, M * N, 1.0));
	worst = fmax(worst, max_error(p.host, ref_p, M * N, 1e-6));
	worst = fmax(worst, max_error(r.host, ref_r, M, 1e-6));
	if (worst > 1e-4) {
		ERROR_LOG("results differ from the CPU: max relative error %.3g", worst);
		return 1;
	}
	INFO_LOG("MatMul -> SoftmaxV2 -> ReduceSumD, %d rounds: results match the CPU (max relative error %.1e)",
		 ROUNDS, worst);
	INFO_LOG("allocator calls: alloc=%lu free=%lu getAddrFromBlock=%lu allocAdvise=%lu",
		 ca.allocs, ca.frees, ca.get_addrs, ca.advises);
	INFO_LOG("allocator blocks: carved=%lu reused=%lu failed=%lu", ca.carved, ca.reused, ca.failed);
	INFO_LOG("kernel counters of this process's streams (/proc/self/fdinfo):");
	print_stream_counters();

	CHECK(aclrtAllocatorUnregister(stream));
	CHECK(aclrtDestroyStream(stream));
	ca_destroy(&ca); /* after the stream's work is done */
	aclopDestroyAttr(mm_attr);
	aclopDestroyAttr(red_attr);
	tensor_fini(&a);
	tensor_fini(&b);
	tensor_fini(&h);
	tensor_fini(&p);
	tensor_fini(&r);
	free(ref_h);
	free(ref_p);
	free(ref_r);
	CHECK(aclrtResetDevice(0));
	CHECK(aclFinalize());
	INFO_LOG("done");
	return 0;
}
