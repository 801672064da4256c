/* SPDX-License-Identifier: MIT */
/*
 * acl_optest.h - helpers of the operator and allocator suites
 * (tests/acl/test_acl_op.c, test_acl_allocator.c): counting the process's
 * ioctls, the kernel's pool counters, tensors in device memory with their
 * values on the host, CPU references in double precision, and a counting
 * user allocator over device memory from aclrtMalloc.
 */
#ifndef VNPU_ACL_OPTEST_H
#define VNPU_ACL_OPTEST_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"
#include "acl/acl_op_compiler.h"
#include "acl/acl_rt_allocator.h"
#include "vnpu_drm.h"

/* ---- ioctls --------------------------------------------------------------- */

/*
 * This helper defines ioctl() for the test program, which interposes the C
 * library's for the whole process (libascendcl and libdrm included): no
 * LD_PRELOAD, no strace. Between start and stop it counts every DRM ioctl
 * by its number (_IOC_NR: DRM_COMMAND_BASE + DRM_VNPU_SUBMIT for submits).
 */
void ioctl_count_start(void);
/* Stop counting; the number of DRM ioctls counted. */
unsigned long ioctl_count_stop(void);
/* How many ioctls with number @nr were counted. */
unsigned long ioctl_count(unsigned int nr);
/*
 * Hold the calling thread's next DRM ioctl number @nr before it reaches the
 * kernel, until ioctl_stall_release(): a way to show which locks the
 * library holds across an ioctl (other threads must not wait for them).
 * One stall at a time.
 */
void ioctl_stall_arm(unsigned int nr);
/* Wait until the armed ioctl is held; false after @timeout_ms. */
bool ioctl_stall_wait(unsigned int timeout_ms);
void ioctl_stall_release(void);
/* Make GET_PARAM report @abi as the module's ABI version (0: the real one). */
void ioctl_fake_abi_version(uint64_t abi);
/* Make GET_PARAM VNPU_PARAM_ENGINE_ATTACHED report @attached (-1: the real
 * answer). */
void ioctl_fake_engine_attached(int attached);
/* Make every DRM ioctl number @nr fail with -@err, reaching no kernel
 * (@nr 0: stop). One such fault at a time. */
void ioctl_fake_failure(unsigned int nr, int err);
/* Make STREAM_QUERY report the stream failed with @error (enum
 * drm_vnpu_stream_error) in its last submitted job (0: the real state). */
void ioctl_fake_stream_error(uint32_t error);

#define NR_SUBMIT (DRM_COMMAND_BASE + DRM_VNPU_SUBMIT)
#define NR_SIGNAL (DRM_COMMAND_BASE + DRM_VNPU_SIGNAL)
#define NR_POOL_BIND (DRM_COMMAND_BASE + DRM_VNPU_POOL_BIND)
#define NR_POOL_UNBIND (DRM_COMMAND_BASE + DRM_VNPU_POOL_UNBIND)

/* The kernel's pool and workspace counters of this process's file of
 * device @device (POOL_QUERY, file totals over all streams). */
struct drm_vnpu_pool_stats pool_stats(int device);

/* ---- tensors ------------------------------------------------------------------ */

/* A tensor in device memory, with its values mirrored on the host. */
struct dtensor {
	aclDataType type;
	int ndims;
	int64_t dims[4];
	size_t count, bytes;
	void *dev;			/* aclrtMalloc */
	aclTensorDesc *desc;
	aclDataBuffer *buf;
	double *host;			/* the values (as stored) */
};

/* A tensor of @type and shape @dims filled with pseudo-random values in
 * [lo, hi) (integers for ACL_INT32), or zeros if lo == hi. */
struct dtensor *dt_new(aclDataType type, int ndims, const int64_t *dims, unsigned int seed, double lo, double hi);
/* Copy the device contents back into ->host. */
void dt_read(struct dtensor *t);
void dt_free(struct dtensor *t);

/* Relative tolerance of results of @type, and the check with it:
 * |got - want| <= tol * (|want| + scale) element by element. */
double dt_tolerance(aclDataType type);
void dt_expect(struct dtensor *out, const double *want, double scale);

/* Run @type on @stream with up to 2 inputs and one output. */
aclError run_op(const char *type, struct dtensor *a, struct dtensor *b, struct dtensor *out, aclopAttr *attr,
		aclrtStream stream);

/* References in double precision. */
void host_softmax(const double *x, size_t rows, size_t cols, double *out);
void host_reduce(const double *x, size_t rows, size_t cols, bool max, double *out);
/* out (m x n) = op(a) op(b), a stored k x m if ta, b stored n x k if tb. */
void host_matmul(const double *a, const double *b, size_t m, size_t n, size_t k, bool ta, bool tb, double *out);

/* The attributes of a last-axis reduction / of a MatMul. */
aclopAttr *attr_axes_last(bool keep_dims);
aclopAttr *attr_transpose(bool ta, bool tb);

/* ---- a counting user allocator ------------------------------------------------- */

enum test_addr_mode {
	ADDR_OK,		/* the block's device address */
	ADDR_NULL,		/* getAddrFromBlock returns NULL */
	ADDR_HOST,		/* a host pointer (malloc) */
	ADDR_PINNED,		/* aclrtMallocHost memory */
	ADDR_FREED,		/* device memory already freed */
	ADDR_PAST_END,		/* the last 16 bytes of the pool */
	ADDR_UNALIGNED,		/* the block's address + 2 */
};

#define TA_SLOTS 16

/*
 * A caching allocator as a framework would write one: a pool of device
 * memory (one aclrtMalloc) cut into equal slots; free() makes a slot
 * available at once (reuse on the same stream is safe in stream order).
 * Every callback is counted and checks that it runs on the thread that
 * executes operators (@caller) and may call ACL functions.
 */
struct test_alloc {
	void *pool;
	size_t pool_size, slot_size;
	unsigned int nslots;
	bool used[TA_SLOTS];
	bool reuse_first_slot;		/* every alloc gets slot 0 (shared) */
	pthread_mutex_t lock;

	atomic_uint allocs, frees, get_addrs, advises, live;
	atomic_uint wrong_thread, acl_calls_failed;
	atomic_size_t last_size;
	atomic_uintptr_t last_addr;
	atomic_uint outside_pool;	/* addresses handed out outside the pool */
	pthread_t caller;
	bool check_thread;
	bool fail_alloc;
	enum test_addr_mode addr_mode;
	void *spare;			/* host or pinned memory for the modes */
	void *freed;			/* a freed device address */
	aclrtStream call_acl_on;	/* callbacks call ACL functions on it */
	bool call_failing_acl;		/* callbacks make an ACL call fail */
	atomic_uint failing_calls;	/* ... and count the calls that did */
};

void ta_init(struct test_alloc *ta, size_t slot_size, unsigned int nslots);
/* Free the pool (after unregistering and synchronising). */
void ta_fini(struct test_alloc *ta);
/* Register @ta for @stream; the descriptor is destroyed right after
 * (the registration is a copy). Returns the (destroyed) descriptor. */
aclrtAllocatorDesc ta_register(struct test_alloc *ta, aclrtStream stream);

#endif /* VNPU_ACL_OPTEST_H */
