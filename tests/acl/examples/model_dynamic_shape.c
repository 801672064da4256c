// SPDX-License-Identifier: MIT
/*
 * A CANN-style sample in plain C11, in the shape of CANN's "dynamic shape
 * input (set shape range)" flow: offline models whose batch dimension is
 * decided at execution run at several batch sizes, their intermediate
 * memory served by a caching allocator registered for the stream.
 *
 * The models were converted beforehand (tests/acl/examples/model_run.sh):
 *   vnpu-atc --model=mlp.onnx --framework=5 --output=mlp_dyn
 *            --input_shape="x:1~64,64" --soc_version=Ascend310P3
 *   vnpu-atc --model=cnn.onnx --framework=5 --output=cnn_dyn
 *            --input_shape="x:-1,1,8,8" --soc_version=Ascend310P3
 * (tests/onnx/models.h describes both; its weights and references are the
 * numbers the results are checked against.)
 *
 * The flow: aclInit, aclrtSetDevice, aclrtCreateStream; a counting caching
 * allocator registered for the stream (aclrtAllocatorRegister) before any
 * execution; aclmdlLoadFromFile, aclmdlCreateDesc + aclmdlGetDesc (inputs,
 * outputs, their dims with -1, the input's dims range); for batch 1, 7 and
 * 64: the input's shape with aclmdlSetDatasetTensorDesc, aclmdlExecuteAsync,
 * the output's shape read from aclmdlGetDatasetTensorDesc right after it
 * returns, aclrtSynchronizeStream, the result compared with the CPU (1e-4
 * relative) and the allocator's calls counted: every block given back, and
 * a warm run makes as many calls as the first run of its shape. Then one
 * run with an empty output buffer (the runtime provides the output), the
 * failures (batch 65 outside 1~64: ACL_ERROR_INVALID_PARAM; the allocator
 * returning NULL: ACL_ERROR_BAD_ALLOC with every block taken given back),
 * and runs on the runtime's own memory once the allocator is unregistered.
 *
 * usage: model_dynamic_shape MLP_OM CNN_OM
 * Prints a PASS or FAIL line per check and exits 0 only if all pass.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/acl_mdl.h"
#include "acl/acl_rt_allocator.h"

#include "../../onnx/models.h"

#define INFO_LOG(...) (printf("[INFO]  " __VA_ARGS__), printf("\n"))
#define ERROR_LOG(...) (printf("[ERROR] " __VA_ARGS__), printf("\n"))

/* Setup that must work for the checks to mean anything: exit on failure. */
#define CHECK(call)                                                                         \
	do {                                                                                \
		aclError r_ = (call);                                                       \
		if (r_ != ACL_SUCCESS) {                                                    \
			const char *m_ = aclGetRecentErrMsg();                              \
			ERROR_LOG("%s failed: %d (%s)", #call, r_, m_ ? m_ : "no message"); \
			exit(1);                                                            \
		}                                                                           \
	} while (0)

static unsigned int passed, failed;

/* One check: a PASS or FAIL line; returns @ok. */
static bool expect(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static bool expect(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s ", ok ? "PASS" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (ok)
		passed++;
	else
		failed++;
	return ok;
}

static const char *recent_msg(void)
{
	const char *m = aclGetRecentErrMsg();

	return m && *m ? m : "no message";
}

/* ---- a counting caching allocator -------------------------------------------------- */

#define ARENA_BYTES (16u << 20)
#define MIN_CLASS 8 /* 256 bytes */
#define CLASSES 17

struct caching_allocator;

struct block {
	struct block *next;
	struct caching_allocator *owner;
	void *addr;
	unsigned int cls;
};

/*
 * Blocks of power-of-two sizes cut from one arena of device memory, freed
 * blocks kept per size and reused (the runtime gives a block back as soon
 * as the last operator that uses it is queued: later work on the same
 * stream runs after it). @fail_at > 0 makes the fail_at-th alloc call from
 * now on return NULL, once.
 */
struct caching_allocator {
	char *arena;
	size_t used;
	struct block *free_list[CLASSES];
	unsigned long allocs, frees, get_addrs, carved, reused, failed;
	unsigned long fail_at;
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
	if (ca->fail_at && !--ca->fail_at) {
		ca->failed++;
		return NULL;
	}
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

static void *ca_get_addr(aclrtAllocatorBlock block)
{
	struct block *b = block;

	b->owner->get_addrs++;
	return b->addr;
}

static void ca_register(struct caching_allocator *ca, aclrtStream stream)
{
	aclrtAllocatorDesc desc = aclrtAllocatorCreateDesc();

	if (!desc) {
		ERROR_LOG("aclrtAllocatorCreateDesc failed");
		exit(1);
	}
	CHECK(aclrtAllocatorSetObjToDesc(desc, ca));
	CHECK(aclrtAllocatorSetAllocFuncToDesc(desc, ca_alloc));
	CHECK(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(desc, ca_get_addr));
	CHECK(aclrtAllocatorSetFreeFuncToDesc(desc, ca_free));
	CHECK(aclrtAllocatorRegister(stream, desc));
	CHECK(aclrtAllocatorDestroyDesc(desc)); /* the registration is a copy */
}

static void ca_destroy(struct caching_allocator *ca)
{
	unsigned int c;

	for (c = 0; c < CLASSES; c++)
		while (ca->free_list[c]) {
			struct block *b = ca->free_list[c];

			ca->free_list[c] = b->next;
			free(b);
		}
	CHECK(aclrtFree(ca->arena));
}

/* ---- the models --------------------------------------------------------------------- */

struct model {
	const char *name;
	const char *path;
	uint32_t id;
	aclmdlDesc *desc;
	int in_ndim;
	int64_t in_dims[4];		/* dims[0] is the batch */
	size_t in_row, out_row;		/* elements per batch entry */
	int64_t max_batch;		/* the range's upper end; -1: none */
	void (*ref)(const float *x, size_t n, double *y);
};

static struct mdl_mlp mlp_w;
static struct mdl_cnn cnn_w;

static void mlp_ref(const float *x, size_t n, double *y)
{
	mdl_mlp_ref(&mlp_w, x, n, y);
}

static void cnn_ref(const float *x, size_t n, double *y)
{
	mdl_cnn_ref(&cnn_w, x, n, y);
}

static void dims_str(char *buf, size_t size, size_t n, const int64_t *d)
{
	size_t at = 0, i;

	at += (size_t)snprintf(buf, size, "[");
	for (i = 0; i < n && at < size; i++)
		at += (size_t)snprintf(buf + at, size - at, "%s%lld", i ? "," : "", (long long)d[i]);
	if (at < size)
		snprintf(buf + at, size - at, "]");
}

/* Load @m and check what its description says. */
static void load(struct model *m)
{
	aclmdlIODims dims;
	aclmdlIODimsRange range;
	const char *name;
	char s[256];
	int k;
	bool ok;

	CHECK(aclmdlLoadFromFile(m->path, &m->id));
	m->desc = aclmdlCreateDesc();
	if (!m->desc) {
		ERROR_LOG("aclmdlCreateDesc failed");
		exit(1);
	}
	CHECK(aclmdlGetDesc(m->desc, m->id));
	INFO_LOG("%s: loaded %s as model %u: %zu input(s), %zu output(s)", m->name, m->path, m->id,
		 aclmdlGetNumInputs(m->desc), aclmdlGetNumOutputs(m->desc));
	expect(aclmdlGetNumInputs(m->desc) == 1 && aclmdlGetNumOutputs(m->desc) == 1,
	       "%s: one input, one output", m->name);

	memset(&dims, 0, sizeof(dims));
	ok = aclmdlGetInputDims(m->desc, 0, &dims) == ACL_SUCCESS && dims.dimCount == (size_t)m->in_ndim &&
	     dims.dims[0] == -1;
	for (k = 1; ok && k < m->in_ndim; k++)
		ok = dims.dims[k] == m->in_dims[k];
	dims_str(s, sizeof(s), dims.dimCount, dims.dims);
	name = aclmdlGetInputNameByIndex(m->desc, 0);
	expect(ok && !strcmp(dims.name, "x") && name && !strcmp(name, "x"),
	       "%s: input %s %s (the batch -1)", m->name, dims.name, s);
	expect(aclmdlGetInputDataType(m->desc, 0) == ACL_FLOAT && aclmdlGetOutputDataType(m->desc, 0) == ACL_FLOAT,
	       "%s: input and output are ACL_FLOAT", m->name);
	expect(aclmdlGetInputSizeByIndex(m->desc, 0) == 0, "%s: input size 0 (a dimension is -1), got %zu",
	       m->name, aclmdlGetInputSizeByIndex(m->desc, 0));

	memset(&range, 0, sizeof(range));
	ok = aclmdlGetInputDimsRange(m->desc, 0, &range) == ACL_SUCCESS && range.rangeCount == (size_t)m->in_ndim &&
	     range.range[0][0] == 1 && range.range[0][1] == m->max_batch;
	for (k = 1; ok && k < m->in_ndim; k++)
		ok = range.range[k][0] == m->in_dims[k] && range.range[k][1] == m->in_dims[k];
	expect(ok, "%s: input dims range: batch %lld~%lld, the other dimensions fixed", m->name,
	       (long long)range.range[0][0], (long long)range.range[0][1]);

	memset(&dims, 0, sizeof(dims));
	ok = aclmdlGetOutputDims(m->desc, 0, &dims) == ACL_SUCCESS && dims.dimCount == 2 && dims.dims[0] == -1 &&
	     dims.dims[1] == (int64_t)m->out_row;
	dims_str(s, sizeof(s), dims.dimCount, dims.dims);
	name = aclmdlGetOutputNameByIndex(m->desc, 0);
	expect(ok && name, "%s: output %s %s", m->name, name ? name : "(no name)", s);
}

static void unload(struct model *m)
{
	CHECK(aclmdlDestroyDesc(m->desc));
	CHECK(aclmdlUnload(m->id));
}

/* What one execution asked of the allocator. */
struct counts {
	unsigned long allocs, frees, get_addrs;
};

static struct counts since(const struct caching_allocator *ca, const struct counts *before)
{
	struct counts c = { ca->allocs - before->allocs, ca->frees - before->frees,
			    ca->get_addrs - before->get_addrs };

	return c;
}

static struct counts now(const struct caching_allocator *ca)
{
	struct counts c = { ca->allocs, ca->frees, ca->get_addrs };

	return c;
}

enum out_mode {
	OUT_BUFFER,	/* the caller's output buffer */
	OUT_EMPTY,	/* an empty data buffer: the runtime provides the memory */
};

/*
 * Run @m at batch @n on @stream: returns the execution's aclError (0 when it
 * ran and the checks were made) and the allocator calls it made in *@c.
 * @label names the run in the PASS/FAIL lines.
 */
static aclError run(struct model *m, int64_t n, enum out_mode mode, aclrtStream stream,
		    struct caching_allocator *ca, const char *label, struct counts *c)
{
	size_t in_count = (size_t)n * m->in_row, out_count = (size_t)n * m->out_row;
	size_t in_bytes = in_count * sizeof(float), out_bytes = out_count * sizeof(float);
	int64_t dims[4];
	float *x = malloc(in_bytes), *y = malloc(out_bytes ? out_bytes : 1);
	double *want = calloc(out_count ? out_count : 1, sizeof(double));
	void *dev_in, *dev_out = NULL;
	aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
	aclDataBuffer *in_buf, *out_buf;
	aclTensorDesc *in_desc, *out_desc;
	struct counts before = now(ca);
	aclError ret;
	bool ok;

	if (!x || !y || !want || !in || !out) {
		ERROR_LOG("out of memory");
		exit(1);
	}
	memcpy(dims, m->in_dims, sizeof(dims));
	dims[0] = n;
	mdl_input(x, in_count, (uint32_t)n);
	CHECK(aclrtMalloc(&dev_in, in_bytes, ACL_MEM_MALLOC_NORMAL_ONLY));
	CHECK(aclrtMemcpy(dev_in, in_bytes, x, in_bytes, ACL_MEMCPY_HOST_TO_DEVICE));
	in_buf = aclCreateDataBuffer(dev_in, in_bytes);
	if (mode == OUT_BUFFER)
		CHECK(aclrtMalloc(&dev_out, out_bytes, ACL_MEM_MALLOC_NORMAL_ONLY));
	out_buf = aclCreateDataBuffer(dev_out, mode == OUT_BUFFER ? out_bytes : 0);
	in_desc = aclCreateTensorDesc(ACL_FLOAT, m->in_ndim, dims, ACL_FORMAT_ND);
	if (!in_buf || !out_buf || !in_desc) {
		ERROR_LOG("out of memory");
		exit(1);
	}
	CHECK(aclmdlAddDatasetBuffer(in, in_buf));
	CHECK(aclmdlAddDatasetBuffer(out, out_buf));

	/* The shape to run with: checked against the range here or at the execution. */
	ret = aclmdlSetDatasetTensorDesc(in, in_desc, 0);
	if (ret == ACL_SUCCESS)
		ret = aclmdlExecuteAsync(m->id, in, out, stream);
	*c = since(ca, &before);
	if (ret != ACL_SUCCESS)
		goto out;

	/* The output's shape is known once the execution is queued. */
	out_desc = aclmdlGetDatasetTensorDesc(out, 0);
	{
		int64_t d0 = -2, d1 = -2;

		ok = out_desc && aclGetTensorDescNumDims(out_desc) == 2 &&
		     aclGetTensorDescDimV2(out_desc, 0, &d0) == ACL_SUCCESS &&
		     aclGetTensorDescDimV2(out_desc, 1, &d1) == ACL_SUCCESS && d0 == n && d1 == (int64_t)m->out_row;
		expect(ok, "%s: output tensor desc [%lld,%lld] right after aclmdlExecuteAsync", label, (long long)d0,
		       (long long)d1);
	}
	CHECK(aclrtSynchronizeStream(stream));
	*c = since(ca, &before);

	if (mode == OUT_EMPTY) {
		dev_out = aclGetDataBufferAddr(out_buf);
		expect(dev_out && aclGetDataBufferSizeV2(out_buf) == out_bytes,
		       "%s: the empty output buffer now holds %zu bytes at %p", label, aclGetDataBufferSizeV2(out_buf),
		       dev_out);
		/* The output's block stays the caller's until the buffer is destroyed. */
		expect(c->allocs == c->frees + 1, "%s: alloc=%lu free=%lu after sync (the output's block still held)",
		       label, c->allocs, c->frees);
	} else {
		expect(c->allocs == c->frees, "%s: alloc=%lu free=%lu getAddrFromBlock=%lu after sync", label,
		       c->allocs, c->frees, c->get_addrs);
	}
	if (dev_out)
		CHECK(aclrtMemcpy(y, out_bytes, dev_out, out_bytes, ACL_MEMCPY_DEVICE_TO_HOST));
	m->ref(x, (size_t)n, want);
	expect(dev_out && mdl_max_error(y, want, out_count) <= MDL_TOLERANCE,
	       "%s: results match the CPU (max relative error %.1e)", label,
	       dev_out ? mdl_max_error(y, want, out_count) : 1.0);
out:
	CHECK(aclmdlDestroyDataset(in));
	CHECK(aclmdlDestroyDataset(out));
	CHECK(aclDestroyDataBuffer(in_buf));
	CHECK(aclDestroyDataBuffer(out_buf)); /* an empty buffer's block goes back here */
	if (mode == OUT_EMPTY && ret == ACL_SUCCESS) {
		*c = since(ca, &before);
		expect(c->allocs == c->frees, "%s: alloc=%lu free=%lu once the output buffer is destroyed", label,
		       c->allocs, c->frees);
	}
	aclDestroyTensorDesc(in_desc);
	CHECK(aclrtFree(dev_in));
	if (mode == OUT_BUFFER)
		CHECK(aclrtFree(dev_out));
	free(x);
	free(y);
	free(want);
	return ret;
}

/* The three batch sizes, each run cold then warm. */
static void run_batches(struct model *m, aclrtStream stream, struct caching_allocator *ca)
{
	static const int64_t batches[] = { 1, 7, 64 };
	size_t i;

	for (i = 0; i < sizeof(batches) / sizeof(batches[0]); i++) {
		struct counts cold, warm;
		char label[96];
		aclError ret;

		snprintf(label, sizeof(label), "%s batch %lld (first run)", m->name, (long long)batches[i]);
		ret = run(m, batches[i], OUT_BUFFER, stream, ca, label, &cold);
		expect(ret == ACL_SUCCESS, "%s: aclmdlExecuteAsync returned %d%s%s", label, ret,
		       ret ? ": " : "", ret ? recent_msg() : "");
		INFO_LOG("%s: allocator alloc=%lu free=%lu getAddrFromBlock=%lu", label, cold.allocs, cold.frees,
			 cold.get_addrs);
		snprintf(label, sizeof(label), "%s batch %lld (warm run)", m->name, (long long)batches[i]);
		ret = run(m, batches[i], OUT_BUFFER, stream, ca, label, &warm);
		expect(ret == ACL_SUCCESS, "%s: aclmdlExecuteAsync returned %d%s%s", label, ret,
		       ret ? ": " : "", ret ? recent_msg() : "");
		INFO_LOG("%s: allocator alloc=%lu free=%lu getAddrFromBlock=%lu", label, warm.allocs, warm.frees,
			 warm.get_addrs);
		expect(warm.allocs == cold.allocs && warm.frees == cold.frees,
		       "%s batch %lld: the warm run's allocator calls equal the first run's (%lu)", m->name,
		       (long long)batches[i], cold.allocs);
	}
}

int main(int argc, char **argv)
{
	struct caching_allocator ca = { 0 };
	struct model mlp = {
		.name = "mlp", .in_ndim = 2, .in_dims = { -1, MDL_MLP_IN }, .in_row = MDL_MLP_IN,
		.out_row = MDL_MLP_OUT, .max_batch = 64, .ref = mlp_ref,
	};
	struct model cnn = {
		.name = "cnn", .in_ndim = 4, .in_dims = { -1, 1, MDL_CNN_HW, MDL_CNN_HW },
		.in_row = MDL_CNN_HW * MDL_CNN_HW, .out_row = MDL_CNN_OUT, .max_batch = -1, .ref = cnn_ref,
	};
	struct counts c, cold7;
	aclrtStream stream;
	aclError ret;

	if (argc != 3) {
		fprintf(stderr, "usage: model_dynamic_shape MLP_OM CNN_OM\n");
		return 2;
	}
	mlp.path = argv[1];
	cnn.path = argv[2];
	mdl_mlp_init(&mlp_w);
	mdl_cnn_init(&cnn_w);

	CHECK(aclInit(NULL));
	CHECK(aclrtSetDevice(0));
	CHECK(aclrtCreateStream(&stream));
	CHECK(aclrtMalloc((void **)&ca.arena, ARENA_BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
	ca_register(&ca, stream);
	INFO_LOG("caching allocator registered for the stream (arena of %u MiB from aclrtMalloc)",
		 ARENA_BYTES >> 20);

	load(&mlp);
	load(&cnn);

	run_batches(&mlp, stream, &ca);
	run_batches(&cnn, stream, &ca);

	/* An empty output buffer: the output's memory comes from the allocator too. */
	ret = run(&mlp, 7, OUT_BUFFER, stream, &ca, "mlp batch 7", &cold7);
	ret = ret ? ret : run(&mlp, 7, OUT_EMPTY, stream, &ca, "mlp batch 7, empty output buffer", &c);
	expect(ret == ACL_SUCCESS && c.allocs == cold7.allocs + 1,
	       "mlp batch 7, empty output buffer: %lu allocator calls, one more than with the caller's buffer (%lu)",
	       c.allocs, cold7.allocs);

	/* Outside the range the model was converted with. */
	ret = run(&mlp, 65, OUT_BUFFER, stream, &ca, "mlp batch 65", &c);
	expect(ret == ACL_ERROR_INVALID_PARAM, "mlp batch 65 (range 1~64): ACL_ERROR_INVALID_PARAM (%d): %s", ret,
	       recent_msg());
	expect(c.allocs == c.frees, "mlp batch 65: alloc=%lu free=%lu, nothing held", c.allocs, c.frees);

	/* The allocator fails: its first call, then a later one. */
	ca.fail_at = 1;
	ret = run(&mlp, 64, OUT_BUFFER, stream, &ca, "mlp batch 64, first alloc NULL", &c);
	expect(ret == ACL_ERROR_BAD_ALLOC, "mlp batch 64, first alloc returns NULL: ACL_ERROR_BAD_ALLOC (%d): %s", ret,
	       recent_msg());
	expect(c.allocs == c.frees + 1, "mlp batch 64, first alloc NULL: alloc=%lu free=%lu, every block back",
	       c.allocs, c.frees);
	ca.fail_at = 2;
	ret = run(&cnn, 64, OUT_BUFFER, stream, &ca, "cnn batch 64, second alloc NULL", &c);
	expect(ret == ACL_ERROR_BAD_ALLOC, "cnn batch 64, second alloc returns NULL: ACL_ERROR_BAD_ALLOC (%d): %s",
	       ret, recent_msg());
	expect(c.allocs == c.frees + 1, "cnn batch 64, second alloc NULL: alloc=%lu free=%lu, every block back",
	       c.allocs, c.frees);
	ca.fail_at = 0;
	ret = run(&cnn, 64, OUT_BUFFER, stream, &ca, "cnn batch 64 after the failures", &c);
	expect(ret == ACL_SUCCESS, "cnn batch 64 after the failures: runs again (%d)", ret);

	/* Without the allocator: the runtime's own memory. */
	CHECK(aclrtAllocatorUnregister(stream));
	INFO_LOG("allocator unregistered");
	ret = run(&mlp, 7, OUT_BUFFER, stream, &ca, "mlp batch 7, runtime memory", &c);
	expect(ret == ACL_SUCCESS && c.allocs == 0, "mlp batch 7, runtime memory: ran (%d), no allocator call (%lu)",
	       ret, c.allocs);
	ret = run(&cnn, 64, OUT_BUFFER, stream, &ca, "cnn batch 64, runtime memory", &c);
	expect(ret == ACL_SUCCESS && c.allocs == 0,
	       "cnn batch 64, runtime memory: ran (%d), no allocator call (%lu)", ret, c.allocs);

	unload(&mlp);
	unload(&cnn);
	INFO_LOG("allocator totals: alloc=%lu free=%lu getAddrFromBlock=%lu carved=%lu reused=%lu failed=%lu",
		 ca.allocs, ca.frees, ca.get_addrs, ca.carved, ca.reused, ca.failed);
	CHECK(aclrtDestroyStream(stream));
	ca_destroy(&ca); /* after the stream's work is done */
	CHECK(aclrtResetDevice(0));
	CHECK(aclFinalize());
	if (failed) {
		printf("FAIL: %u of %u checks failed\n", failed, passed + failed);
		return 1;
	}
	printf("PASS: all %u checks\n", passed);
	return 0;
}
