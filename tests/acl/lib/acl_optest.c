// SPDX-License-Identifier: MIT
/*
 * acl_optest.c - helpers of the operator and allocator suites.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "vnpu_op_ref.h"
#include "acl_optest.h"
#include "acl_test.h"

/* ---- ioctls ----------------------------------------------------------------- */

static atomic_bool counting;
static atomic_ulong counts[256];
static _Atomic uint64_t fake_abi;	/* 0: report the module's own */
static atomic_int fake_engine = -1;	/* -1: report the module's own */
static atomic_uint fail_nr;		/* 0: none */
static atomic_int fail_err;
static _Atomic uint32_t fake_stream_error;	/* 0: report the stream's own */

static _Thread_local unsigned int stall_nr;	/* armed on this thread (0: none) */
static pthread_mutex_t stall_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t stall_cond = PTHREAD_COND_INITIALIZER;
static bool stalled, stall_released;

static void stall_here(void)
{
	pthread_mutex_lock(&stall_lock);
	stalled = true;
	pthread_cond_broadcast(&stall_cond);
	while (!stall_released)
		pthread_cond_wait(&stall_cond, &stall_lock);
	pthread_mutex_unlock(&stall_lock);
}

int ioctl(int fd, unsigned long request, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (atomic_load(&counting) && _IOC_TYPE(request) == DRM_IOCTL_BASE)
		atomic_fetch_add(&counts[_IOC_NR(request)], 1);
	if (stall_nr && _IOC_TYPE(request) == DRM_IOCTL_BASE && _IOC_NR(request) == stall_nr) {
		stall_nr = 0;
		stall_here();
	}
	if (atomic_load(&fail_nr) && _IOC_TYPE(request) == DRM_IOCTL_BASE &&
	    _IOC_NR(request) == atomic_load(&fail_nr)) {
		errno = atomic_load(&fail_err);
		return -1;
	}
	if (request == DRM_IOCTL_VNPU_GET_PARAM && atomic_load(&fake_abi) &&
	    ((struct drm_vnpu_get_param *)arg)->param == VNPU_PARAM_ABI_VERSION) {
		((struct drm_vnpu_get_param *)arg)->value = atomic_load(&fake_abi);
		return 0;
	}
	if (request == DRM_IOCTL_VNPU_GET_PARAM && atomic_load(&fake_engine) >= 0 &&
	    ((struct drm_vnpu_get_param *)arg)->param == VNPU_PARAM_ENGINE_ATTACHED) {
		((struct drm_vnpu_get_param *)arg)->value = (uint64_t)atomic_load(&fake_engine);
		return 0;
	}
	if (request == DRM_IOCTL_VNPU_STREAM_QUERY && atomic_load(&fake_stream_error)) {
		struct drm_vnpu_stream_query *q = arg;
		int ret = (int)syscall(SYS_ioctl, fd, request, arg);

		if (!ret) {
			q->error = atomic_load(&fake_stream_error);
			q->failed_task = 0;
			q->failed_seqno = q->submitted_seqno ? q->submitted_seqno : 1;
		}
		return ret;
	}
	return (int)syscall(SYS_ioctl, fd, request, arg);
}

void ioctl_fake_abi_version(uint64_t abi)
{
	atomic_store(&fake_abi, abi);
}

void ioctl_fake_engine_attached(int attached)
{
	atomic_store(&fake_engine, attached);
}

void ioctl_fake_failure(unsigned int nr, int err)
{
	atomic_store(&fail_err, err);
	atomic_store(&fail_nr, nr);
}

void ioctl_fake_stream_error(uint32_t error)
{
	atomic_store(&fake_stream_error, error);
}

void ioctl_stall_arm(unsigned int nr)
{
	pthread_mutex_lock(&stall_lock);
	stalled = false;
	stall_released = false;
	pthread_mutex_unlock(&stall_lock);
	stall_nr = nr;
}

bool ioctl_stall_wait(unsigned int timeout_ms)
{
	struct timespec until;
	bool got;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += timeout_ms / 1000;
	until.tv_nsec += (long)(timeout_ms % 1000) * 1000000;
	if (until.tv_nsec >= 1000000000) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&stall_lock);
	while (!stalled && pthread_cond_timedwait(&stall_cond, &stall_lock, &until) == 0)
		;
	got = stalled;
	pthread_mutex_unlock(&stall_lock);
	return got;
}

void ioctl_stall_release(void)
{
	pthread_mutex_lock(&stall_lock);
	stall_released = true;
	pthread_cond_broadcast(&stall_cond);
	pthread_mutex_unlock(&stall_lock);
}

void ioctl_count_start(void)
{
	unsigned int i;

	for (i = 0; i < 256; i++)
		atomic_store(&counts[i], 0);
	atomic_store(&counting, true);
}

unsigned long ioctl_count_stop(void)
{
	unsigned long total = 0;
	unsigned int i;

	atomic_store(&counting, false);
	for (i = 0; i < 256; i++)
		total += atomic_load(&counts[i]);
	return total;
}

unsigned long ioctl_count(unsigned int nr)
{
	return atomic_load(&counts[nr & 255]);
}

/* The library's descriptor of vnpu device @device (found in /proc/self/fd). */
static int vnpu_fd(int device)
{
	DIR *dir = opendir("/proc/self/fd");
	struct dirent *e;
	int found = -1;

	ck_assert_ptr_nonnull(dir);
	while ((e = readdir(dir)) && found < 0) {
		char path[300], target[256];
		struct drm_vnpu_get_param p = { .param = VNPU_PARAM_DEVICE_INDEX };
		ssize_t n;
		int fd = atoi(e->d_name);

		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		n = readlink(path, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		if (strncmp(target, "/dev/dri/renderD", 16) && strncmp(target, "/dev/accel/accel", 16))
			continue;
		if (!syscall(SYS_ioctl, fd, DRM_IOCTL_VNPU_GET_PARAM, &p) && (int)p.value == device)
			found = fd;
	}
	closedir(dir);
	ck_assert_msg(found >= 0, "no open vnpu device %d in this process", device);
	return found;
}

struct drm_vnpu_pool_stats pool_stats(int device)
{
	struct drm_vnpu_pool_query q = { .stream_id = 0 };

	ck_assert_msg(!syscall(SYS_ioctl, vnpu_fd(device), DRM_IOCTL_VNPU_POOL_QUERY, &q), "POOL_QUERY failed");
	return q.stats;
}

/* ---- tensors ------------------------------------------------------------------ */

static uint16_t enc_f16(float f)
{
	return (uint16_t)ref_encode(f, REF_F16);
}

static double dec_f16(uint16_t h)
{
	return ref_decode(h, REF_F16);
}

static uint16_t enc_bf16(float f)
{
	return (uint16_t)ref_encode(f, REF_BF16);
}

static double dec_bf16(uint16_t h)
{
	return ref_decode(h, REF_BF16);
}

static size_t type_size(aclDataType t)
{
	return t == ACL_FLOAT16 || t == ACL_BF16 ? 2 : 4;
}

/* Store @v at index @i of @raw in type @t; returns the value stored. */
static double store(aclDataType t, void *raw, size_t i, double v)
{
	switch (t) {
	case ACL_FLOAT:
		((float *)raw)[i] = (float)v;
		return (float)v;
	case ACL_FLOAT16:
		((uint16_t *)raw)[i] = enc_f16((float)v);
		return dec_f16(((uint16_t *)raw)[i]);
	case ACL_BF16:
		((uint16_t *)raw)[i] = enc_bf16((float)v);
		return dec_bf16(((uint16_t *)raw)[i]);
	default:
		((int32_t *)raw)[i] = (int32_t)v;
		return (int32_t)v;
	}
}

static double load(aclDataType t, const void *raw, size_t i)
{
	switch (t) {
	case ACL_FLOAT:
		return ((const float *)raw)[i];
	case ACL_FLOAT16:
		return dec_f16(((const uint16_t *)raw)[i]);
	case ACL_BF16:
		return dec_bf16(((const uint16_t *)raw)[i]);
	default:
		return ((const int32_t *)raw)[i];
	}
}

struct dtensor *dt_new(aclDataType type, int ndims, const int64_t *dims, unsigned int seed, double lo, double hi)
{
	struct dtensor *t = calloc(1, sizeof(*t));
	uint32_t s = seed * 2654435761u + 1;
	void *raw;
	size_t i;
	int d;

	ck_assert_ptr_nonnull(t);
	ck_assert_int_le(ndims, 4);
	t->type = type;
	t->ndims = ndims;
	t->count = 1;
	for (d = 0; d < ndims; d++) {
		t->dims[d] = dims[d];
		t->count *= (size_t)dims[d];
	}
	t->bytes = t->count * type_size(type);
	t->host = calloc(t->count ? t->count : 1, sizeof(double));
	raw = calloc(1, t->bytes ? t->bytes : 1);
	ck_assert(t->host && raw);
	for (i = 0; i < t->count; i++) {
		double v = 0;

		if (hi > lo) {
			s = s * 1103515245u + 12345u;
			v = lo + (hi - lo) * ((s >> 8) % 100000) / 100000.0;
			if (type == ACL_INT32)
				v = floor(v);
		}
		t->host[i] = store(type, raw, i, v);
	}
	ACL_OK(aclrtMalloc(&t->dev, t->bytes ? t->bytes : 1, ACL_MEM_MALLOC_NORMAL_ONLY));
	if (t->bytes)
		ACL_OK(aclrtMemcpy(t->dev, t->bytes, raw, t->bytes, ACL_MEMCPY_HOST_TO_DEVICE));
	free(raw);
	t->desc = aclCreateTensorDesc(type, ndims, dims, ACL_FORMAT_ND);
	t->buf = aclCreateDataBuffer(t->dev, t->bytes);
	ck_assert(t->desc && t->buf);
	return t;
}

void dt_read(struct dtensor *t)
{
	void *raw = malloc(t->bytes ? t->bytes : 1);
	size_t i;

	ck_assert_ptr_nonnull(raw);
	if (t->bytes)
		ACL_OK(aclrtMemcpy(raw, t->bytes, t->dev, t->bytes, ACL_MEMCPY_DEVICE_TO_HOST));
	for (i = 0; i < t->count; i++)
		t->host[i] = load(t->type, raw, i);
	free(raw);
}

void dt_free(struct dtensor *t)
{
	if (!t)
		return;
	aclDestroyTensorDesc(t->desc);
	ACL_OK(aclDestroyDataBuffer(t->buf));
	ACL_OK(aclrtFree(t->dev));
	free(t->host);
	free(t);
}

double dt_tolerance(aclDataType type)
{
	switch (type) {
	case ACL_FLOAT16:
		return 2e-3;	/* 2^-10 output rounding, plus fp32 arithmetic */
	case ACL_BF16:
		return 1.6e-2;	/* 2^-7 */
	case ACL_INT32:
		return 0;	/* exact */
	default:
		return 2e-5;	/* fp32 accumulation over short rows */
	}
}

void dt_expect(struct dtensor *out, const double *want, double scale)
{
	double tol = dt_tolerance(out->type);
	size_t i;

	dt_read(out);
	for (i = 0; i < out->count; i++)
		ck_assert_msg(fabs(out->host[i] - want[i]) <= tol * (fabs(want[i]) + scale),
			      "element %zu of %zu: got %.9g, want %.9g (type %d)", i, out->count, out->host[i],
			      want[i], out->type);
}

aclError run_op(const char *type, struct dtensor *a, struct dtensor *b, struct dtensor *out, aclopAttr *attr,
		aclrtStream stream)
{
	aclTensorDesc *in_desc[2] = { a->desc, b ? b->desc : NULL }, *out_desc[1] = { out->desc };
	aclDataBuffer *in[2] = { a->buf, b ? b->buf : NULL }, *outs[1] = { out->buf };

	return aclopExecuteV2(type, b ? 2 : 1, in_desc, in, 1, out_desc, outs, attr, stream);
}

void host_softmax(const double *x, size_t rows, size_t cols, double *out)
{
	size_t r, c;

	for (r = 0; r < rows; r++) {
		const double *row = x + r * cols;
		double mx = row[0], sum = 0;

		for (c = 1; c < cols; c++)
			mx = fmax(mx, row[c]);
		for (c = 0; c < cols; c++)
			sum += exp(row[c] - mx);
		for (c = 0; c < cols; c++)
			out[r * cols + c] = exp(row[c] - mx) / sum;
	}
}

void host_reduce(const double *x, size_t rows, size_t cols, bool max, double *out)
{
	size_t r, c;

	for (r = 0; r < rows; r++) {
		double acc = max ? x[r * cols] : 0;

		for (c = max ? 1 : 0; c < cols; c++)
			acc = max ? fmax(acc, x[r * cols + c]) : acc + x[r * cols + c];
		out[r] = acc;
	}
}

void host_matmul(const double *a, const double *b, size_t m, size_t n, size_t k, bool ta, bool tb, double *out)
{
	size_t i, j, p;

	for (i = 0; i < m; i++) {
		for (j = 0; j < n; j++) {
			double s = 0;

			for (p = 0; p < k; p++)
				s += a[ta ? p * m + i : i * k + p] * b[tb ? j * k + p : p * n + j];
			out[i * n + j] = s;
		}
	}
}

aclopAttr *attr_axes_last(bool keep_dims)
{
	aclopAttr *a = aclopCreateAttr();
	const int64_t axes[1] = { -1 };

	ck_assert_ptr_nonnull(a);
	ACL_OK(aclopSetAttrListInt(a, "axes", 1, axes));
	ACL_OK(aclopSetAttrBool(a, "keep_dims", keep_dims));
	return a;
}

aclopAttr *attr_transpose(bool ta, bool tb)
{
	aclopAttr *a = aclopCreateAttr();

	ck_assert_ptr_nonnull(a);
	ACL_OK(aclopSetAttrBool(a, "transpose_x1", ta));
	ACL_OK(aclopSetAttrBool(a, "transpose_x2", tb));
	return a;
}

/* ---- the counting allocator ---------------------------------------------------- */

struct ta_block {
	struct test_alloc *ta;
	unsigned int slot;
};

/* The callbacks' own ACL calls: they must not deadlock (no runtime lock is
 * held) and must work (not a runtime worker thread). */
static void call_acl(struct test_alloc *ta)
{
	aclrtAllocatorDesc desc = NULL;
	aclrtStreamStatus st;
	void *scratch = NULL;

	if (!ta->call_acl_on)
		return;
	if (aclrtStreamQuery(ta->call_acl_on, &st) != ACL_SUCCESS ||
	    aclrtAllocatorGetByStream(ta->call_acl_on, &desc, NULL, NULL, NULL, NULL, NULL) != ACL_SUCCESS ||
	    aclrtMalloc(&scratch, 4096, ACL_MEM_MALLOC_NORMAL_ONLY) != ACL_SUCCESS ||
	    aclrtMemsetAsync(scratch, 4096, 0, 4096, ta->call_acl_on) != ACL_SUCCESS ||
	    aclrtSynchronizeStream(ta->call_acl_on) != ACL_SUCCESS || aclrtFree(scratch) != ACL_SUCCESS)
		atomic_fetch_add(&ta->acl_calls_failed, 1);
}

/* A deliberately failing ACL call inside a callback. */
static void call_failing_acl(struct test_alloc *ta)
{
	if (ta->call_failing_acl && aclrtGetRunMode(NULL) == ACL_ERROR_INVALID_PARAM)
		atomic_fetch_add(&ta->failing_calls, 1);
}

static void check_thread(struct test_alloc *ta)
{
	if (ta->check_thread && !pthread_equal(pthread_self(), ta->caller))
		atomic_fetch_add(&ta->wrong_thread, 1);
}

static void *ta_alloc(aclrtAllocator obj, size_t size)
{
	struct test_alloc *ta = obj;
	struct ta_block *b = NULL;
	unsigned int i;

	check_thread(ta);
	atomic_fetch_add(&ta->allocs, 1);
	atomic_store(&ta->last_size, size);
	call_acl(ta);
	call_failing_acl(ta);
	if (ta->fail_alloc || size > ta->slot_size)
		return NULL;
	pthread_mutex_lock(&ta->lock);
	for (i = 0; i < ta->nslots; i++) {
		if (ta->reuse_first_slot || !ta->used[i]) {
			ta->used[i] = true;
			b = malloc(sizeof(*b));
			if (b) {
				b->ta = ta;
				b->slot = ta->reuse_first_slot ? 0 : i;
			}
			break;
		}
	}
	pthread_mutex_unlock(&ta->lock);
	if (b)
		atomic_fetch_add(&ta->live, 1);
	return b;
}

static void *ta_advise(aclrtAllocator obj, size_t size, aclrtAllocatorAddr addr)
{
	struct test_alloc *ta = obj;

	(void)addr;
	atomic_fetch_add(&ta->advises, 1);
	return ta_alloc(obj, size);
}

static void ta_free(aclrtAllocator obj, aclrtAllocatorBlock block)
{
	struct test_alloc *ta = obj;
	struct ta_block *b = block;

	check_thread(ta);
	atomic_fetch_add(&ta->frees, 1);
	call_acl(ta);
	call_failing_acl(ta);
	if (!b || b->ta != ta) {
		atomic_fetch_add(&ta->outside_pool, 1);
		return;
	}
	pthread_mutex_lock(&ta->lock);
	if (!ta->reuse_first_slot)
		ta->used[b->slot] = false;
	pthread_mutex_unlock(&ta->lock);
	atomic_fetch_sub(&ta->live, 1);
	free(b);
}

static void *ta_get_addr(aclrtAllocatorBlock block)
{
	struct ta_block *b = block;
	struct test_alloc *ta = b->ta;
	char *addr = (char *)ta->pool + (size_t)b->slot * ta->slot_size;

	check_thread(ta);
	atomic_fetch_add(&ta->get_addrs, 1);
	call_failing_acl(ta);
	switch (ta->addr_mode) {
	case ADDR_NULL:
		addr = NULL;
		break;
	case ADDR_HOST:
	case ADDR_PINNED:
		addr = ta->spare;
		break;
	case ADDR_FREED:
		addr = ta->freed;
		break;
	case ADDR_PAST_END:
		addr = (char *)ta->pool + ta->pool_size - 16;
		break;
	case ADDR_UNALIGNED:
		addr += 2;
		break;
	case ADDR_OK:
		break;
	}
	atomic_store(&ta->last_addr, (uintptr_t)addr);
	if (ta->addr_mode == ADDR_OK &&
	    ((uintptr_t)addr < (uintptr_t)ta->pool || (uintptr_t)addr >= (uintptr_t)ta->pool + ta->pool_size))
		atomic_fetch_add(&ta->outside_pool, 1);
	return addr;
}

void ta_init(struct test_alloc *ta, size_t slot_size, unsigned int nslots)
{
	memset(ta, 0, sizeof(*ta));
	ck_assert_uint_le(nslots, TA_SLOTS);
	ta->slot_size = slot_size;
	ta->nslots = nslots;
	ta->pool_size = slot_size * nslots;
	pthread_mutex_init(&ta->lock, NULL);
	ta->caller = pthread_self();
	ta->check_thread = true;
	ACL_OK(aclrtMalloc(&ta->pool, ta->pool_size, ACL_MEM_MALLOC_HUGE_FIRST));
}

void ta_fini(struct test_alloc *ta)
{
	ck_assert_uint_eq(atomic_load(&ta->live), 0);
	ACL_OK(aclrtFree(ta->pool));
	pthread_mutex_destroy(&ta->lock);
}

aclrtAllocatorDesc ta_register(struct test_alloc *ta, aclrtStream stream)
{
	aclrtAllocatorDesc desc = aclrtAllocatorCreateDesc();

	ck_assert_ptr_nonnull(desc);
	ACL_OK(aclrtAllocatorSetObjToDesc(desc, ta));
	ACL_OK(aclrtAllocatorSetAllocFuncToDesc(desc, ta_alloc));
	ACL_OK(aclrtAllocatorSetFreeFuncToDesc(desc, ta_free));
	ACL_OK(aclrtAllocatorSetAllocAdviseFuncToDesc(desc, ta_advise));
	ACL_OK(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(desc, ta_get_addr));
	ACL_OK(aclrtAllocatorRegister(stream, desc));
	ACL_OK(aclrtAllocatorDestroyDesc(desc));
	return desc;
}
