/* SPDX-License-Identifier: MIT */
/*
 * vnpu_drm.h - userspace ABI of vnpu, the virtual NPU.
 *
 * This header is the only contract between the vnpu kernel module and
 * userspace (libascendcl and the tools). Everything crosses it as fixed-size
 * integers; pointers are __u64. Rules that hold for every ioctl:
 *
 *  - Fields marked "must be zero" (pads, reserved words, unused flag bits)
 *    are checked: a nonzero value fails with -EINVAL.
 *  - Unknown GEM handles, stream ids and syncobj handles fail with -ENOENT.
 *  - A user pointer that cannot be read or written fails with -EFAULT.
 *  - Counts are bounded (the bounds are below and queryable with GET_PARAM);
 *    a count outside its bound fails with -EINVAL.
 *  - A device address (VA) range that is not entirely inside one live buffer
 *    of the calling file fails with -ENXIO; one whose end overflows 64 bits
 *    fails with -EOVERFLOW.
 *  - There is no unplug: a vnpu device lives as long as the module, and the
 *    module cannot be unloaded while any file of it is open, so no ioctl
 *    ever finds its device gone (none returns -ENODEV for that reason).
 *
 * Device addresses: every open file has its own device virtual address space.
 * A buffer gets a VA in the file that creates or imports it; VAs (and GEM
 * handles, and stream ids) of one file mean nothing in another. The VA window
 * of device N is [VNPU_VA_START + N * VNPU_VA_DEVICE_SPAN, + VNPU_VA_DEVICE_SPAN)
 * (GET_PARAM VA_START/VA_END), all inside [VNPU_VA_START, VNPU_VA_END) =
 * [2^48, 2^52): above every address an x86-64 or arm64 process gets from
 * mmap() by default, so a device address never equals a host pointer of the
 * same process, nor an address of another vnpu device (the runtime can tell
 * them all apart), and dereferencing one on the CPU faults instead of
 * reading memory; address 0 and low addresses are never mapped.
 * Buffers are at least page aligned (and so 64-byte aligned, as CANN's
 * aclrtMalloc promises); VNPU_BO_HUGE_ALIGN asks for 2 MiB alignment.
 *
 * Version history (VNPU_PARAM_ABI_VERSION is major << 16 | minor):
 *  1.0 - GET_PARAM, BO_CREATE, BO_INFO, BO_USERPTR, STREAM_CREATE,
 *        STREAM_DESTROY, SUBMIT, STREAM_QUERY, STREAM_SET_PARAM, POOL_BIND,
 *        POOL_UNBIND, POOL_QUERY.
 *  1.1 - GET_PARAM VNPU_PARAM_MAX_JOBS_PER_FILE and VNPU_PARAM_FILE_JOBS;
 *        SUBMIT flag VNPU_SUBMIT_NONBLOCK. OP tasks' unused union bytes
 *        are now checked to be zero, as documented and as for every other
 *        task kind (1.0 ignored them).
 *  1.2 - REDUCE_SUM, REDUCE_MAX and SOFTMAX take dims[2] = inner (work along
 *        a middle axis).
 *
 * New ioctls are only ever appended; existing structs only grow at the end,
 * announced by a minor version bump.
 */
#ifndef VNPU_DRM_H
#define VNPU_DRM_H

#include "drm.h"

#if defined(__cplusplus)
extern "C" {
#endif

#define VNPU_ABI_MAJOR 1
#define VNPU_ABI_MINOR 2

/* Device VA window of every file (see the header comment). */
#define VNPU_VA_START (1ULL << 48)
#define VNPU_VA_END (1ULL << 52)
#define VNPU_VA_DEVICE_SPAN (1ULL << 46)

/* Bounds (also returned by GET_PARAM). */
#define VNPU_MAX_BO_SIZE (64ULL << 30)
#define VNPU_MAX_TASKS_PER_SUBMIT 4096
#define VNPU_MAX_IN_SYNCS 64
#define VNPU_MAX_POOL_RANGES 4096

/**
 * DOC: vnpu ioctls
 *
 * All are allowed on render nodes. Each struct's documentation gives its
 * fields' rules and its errors; a call that fails changes nothing.
 *
 * - DRM_IOCTL_VNPU_GET_PARAM (struct drm_vnpu_get_param, read-write):
 *   query a device or file property.
 * - DRM_IOCTL_VNPU_BO_CREATE (struct drm_vnpu_bo_create, read-write):
 *   create a buffer and give it a VA in the caller's address space.
 * - DRM_IOCTL_VNPU_BO_INFO (struct drm_vnpu_bo_info, read-write):
 *   size, flags, VA and mmap offset of a handle.
 * - DRM_IOCTL_VNPU_BO_USERPTR (struct drm_vnpu_bo_userptr, read-write):
 *   pin process memory into a buffer with a VA.
 * - DRM_IOCTL_VNPU_STREAM_CREATE (struct drm_vnpu_stream_create,
 *   read-write): create an in-order stream.
 * - DRM_IOCTL_VNPU_STREAM_DESTROY (struct drm_vnpu_stream_destroy, write):
 *   destroy a stream, cancelling its unfinished jobs; never waits.
 * - DRM_IOCTL_VNPU_SUBMIT (struct drm_vnpu_submit, read-write): queue a
 *   batch of tasks on a stream as one job; waits only while the file has
 *   VNPU_PARAM_MAX_JOBS_PER_FILE unfinished jobs.
 * - DRM_IOCTL_VNPU_STREAM_QUERY (struct drm_vnpu_stream_query,
 *   read-write): a stream's progress and failure state.
 * - DRM_IOCTL_VNPU_STREAM_SET_PARAM (struct drm_vnpu_stream_set_param,
 *   write): a stream's hazard policy or pool requirement.
 * - DRM_IOCTL_VNPU_POOL_BIND, DRM_IOCTL_VNPU_POOL_UNBIND (struct
 *   drm_vnpu_pool_bind, write): bind or unbind device memory as a
 *   stream's workspace pool.
 * - DRM_IOCTL_VNPU_POOL_QUERY (struct drm_vnpu_pool_query, read-write): a
 *   stream's pool ranges and counters, or the file's totals.
 *
 * Buffers are freed with DRM_IOCTL_GEM_CLOSE and shared with the PRIME
 * ioctls of the DRM core; in-syncs and out-syncs are DRM syncobjs.
 */
#define DRM_VNPU_GET_PARAM 0x00
#define DRM_VNPU_BO_CREATE 0x01
#define DRM_VNPU_BO_INFO 0x02
#define DRM_VNPU_BO_USERPTR 0x03
#define DRM_VNPU_STREAM_CREATE 0x04
#define DRM_VNPU_STREAM_DESTROY 0x05
#define DRM_VNPU_SUBMIT 0x06
#define DRM_VNPU_STREAM_QUERY 0x07
#define DRM_VNPU_STREAM_SET_PARAM 0x08
#define DRM_VNPU_POOL_BIND 0x09
#define DRM_VNPU_POOL_UNBIND 0x0a
#define DRM_VNPU_POOL_QUERY 0x0b

/**
 * enum drm_vnpu_param - what DRM_IOCTL_VNPU_GET_PARAM can return
 *
 * @VNPU_PARAM_ABI_VERSION: VNPU_ABI_MAJOR << 16 | VNPU_ABI_MINOR.
 * @VNPU_PARAM_DEVICE_INDEX: index of this device among the vnpu devices
 *	(0 .. number of devices - 1), stable for the life of the module.
 * @VNPU_PARAM_NUM_DEVICES: number of vnpu devices the module created.
 * @VNPU_PARAM_NUM_ENGINES: number of execution engines of this device.
 * @VNPU_PARAM_MEM_CAPACITY: device memory capacity in bytes.
 * @VNPU_PARAM_MEM_USED: device memory in use on this device, all files.
 * @VNPU_PARAM_FILE_MEM_USED: device memory in use by the calling file.
 * @VNPU_PARAM_VA_START: first VA a buffer of this device may get
 *	(VNPU_VA_START + device index * VNPU_VA_DEVICE_SPAN).
 * @VNPU_PARAM_VA_END: end of this device's VA window (start + span).
 * @VNPU_PARAM_MAX_BO_SIZE: largest buffer size (VNPU_MAX_BO_SIZE).
 * @VNPU_PARAM_MAX_STREAMS_PER_FILE: streams one file may have at once.
 * @VNPU_PARAM_MAX_STREAMS: streams the device may have at once, all files.
 * @VNPU_PARAM_MAX_TASKS_PER_SUBMIT: VNPU_MAX_TASKS_PER_SUBMIT.
 * @VNPU_PARAM_JOB_TIMEOUT_MS: a job is cancelled (VNPU_STREAM_ERROR_TIMEOUT)
 *	this many ms of wall-clock time after it starts executing; time it
 *	then spends parked on WAIT_VALUE or queued behind other streams on
 *	its engine counts, time waiting for in-syncs or earlier jobs before
 *	it starts does not. Read when the job starts.
 * @VNPU_PARAM_CLIENT_ID: the calling file's drm-client-id (as in fdinfo).
 * @VNPU_PARAM_HOST_MEM_USED: bytes of VNPU_BO_HOST buffers of this device.
 * @VNPU_PARAM_MAX_JOBS_PER_FILE: unfinished jobs one file may have; a
 *	SUBMIT past it waits until one of the file's jobs ends.
 * @VNPU_PARAM_FILE_JOBS: the calling file's unfinished jobs: submitted
 *	and not yet ended (finished, failed or cancelled).
 */
enum drm_vnpu_param {
	VNPU_PARAM_ABI_VERSION = 0,
	VNPU_PARAM_DEVICE_INDEX = 1,
	VNPU_PARAM_NUM_DEVICES = 2,
	VNPU_PARAM_NUM_ENGINES = 3,
	VNPU_PARAM_MEM_CAPACITY = 4,
	VNPU_PARAM_MEM_USED = 5,
	VNPU_PARAM_FILE_MEM_USED = 6,
	VNPU_PARAM_VA_START = 7,
	VNPU_PARAM_VA_END = 8,
	VNPU_PARAM_MAX_BO_SIZE = 9,
	VNPU_PARAM_MAX_STREAMS_PER_FILE = 10,
	VNPU_PARAM_MAX_STREAMS = 11,
	VNPU_PARAM_MAX_TASKS_PER_SUBMIT = 12,
	VNPU_PARAM_JOB_TIMEOUT_MS = 13,
	VNPU_PARAM_CLIENT_ID = 14,
	VNPU_PARAM_HOST_MEM_USED = 15,
	VNPU_PARAM_MAX_JOBS_PER_FILE = 16,
	VNPU_PARAM_FILE_JOBS = 17,
};

/**
 * struct drm_vnpu_get_param - query a device or file property
 *
 * Unknown @param values fail with -EINVAL.
 */
struct drm_vnpu_get_param {
	/** @param: in, one of enum drm_vnpu_param. */
	__u32 param;
	/** @pad: must be zero. */
	__u32 pad;
	/** @value: out, the property's value. */
	__u64 value;
};

/* Buffer creation flags. */
/** VNPU_BO_HUGE_ALIGN: give the buffer a 2 MiB aligned VA (CANN HUGE policies). */
#define VNPU_BO_HUGE_ALIGN (1u << 0)
/**
 * VNPU_BO_HOST: page-locked host memory the device can address (CANN's
 * aclrtMallocHost). It is accounted as host memory, not against the device
 * memory capacity, and is meant to be mmapped by its owner.
 */
#define VNPU_BO_HOST (1u << 1)
#define VNPU_BO_FLAGS (VNPU_BO_HUGE_ALIGN | VNPU_BO_HOST)
/** VNPU_BO_USERPTR: reported by BO_INFO for buffers made by BO_USERPTR. */
#define VNPU_BO_USERPTR (1u << 31)
/**
 * VNPU_BO_IMPORTED: reported by BO_INFO for buffers imported with PRIME from
 * another device (another vnpu device or another driver). Such memory is
 * not charged to this device's capacity. A buffer of this device imported
 * back (in any file) is the same buffer and keeps its own flags.
 */
#define VNPU_BO_IMPORTED (1u << 30)

/**
 * struct drm_vnpu_bo_create - create a buffer and map it in the file's VA space
 *
 * The size is rounded up to whole pages; the rounded size is charged to the
 * device's memory capacity (unless VNPU_BO_HOST) and shows in BO_INFO. The
 * contents start zeroed. Free it with DRM_IOCTL_GEM_CLOSE; its VA stays
 * reserved while running jobs or pool bindings still use the memory.
 *
 * Errors: -EINVAL for @size 0 or unknown @flags (including the BO_INFO-only
 * bits); -E2BIG for @size above VNPU_MAX_BO_SIZE; -ENOMEM when the device
 * memory capacity (or the VA window) cannot hold it, or, for VNPU_BO_HOST,
 * when the host buffers of all vnpu devices would exceed half of the
 * system's RAM. On any error nothing changes (no handle, no charge).
 */
struct drm_vnpu_bo_create {
	/** @size: in, bytes; 1 .. VNPU_MAX_BO_SIZE. */
	__u64 size;
	/** @flags: in, VNPU_BO_* creation flags. */
	__u32 flags;
	/** @handle: out, GEM handle. */
	__u32 handle;
	/** @va: out, device virtual address in this file's address space. */
	__u64 va;
};

/**
 * struct drm_vnpu_bo_info - describe a buffer by handle
 *
 * Errors: -ENOENT for an unknown @handle.
 */
struct drm_vnpu_bo_info {
	/** @handle: in, GEM handle (-ENOENT if unknown). */
	__u32 handle;
	/** @flags: out, creation flags plus VNPU_BO_USERPTR/VNPU_BO_IMPORTED. */
	__u32 flags;
	/** @size: out, size in bytes (whole pages). */
	__u64 size;
	/** @va: out, device virtual address in this file's address space. */
	__u64 va;
	/**
	 * @mmap_offset: out, offset to pass to mmap() on the device file for
	 * CPU access, or 0 for buffers that cannot be mapped: USERPTR
	 * buffers, and imports of another vnpu device's USERPTR buffers (the
	 * memory already belongs to a process).
	 */
	__u64 mmap_offset;
};

/**
 * struct drm_vnpu_bo_userptr - make process memory addressable by the device
 *
 * Pins the pages of [@user_ptr, @user_ptr + @size) for the life of the
 * buffer (long-term pin) and maps them at a device VA, as CANN's host memory
 * registration needs. The pinned pages are charged to the caller's
 * RLIMIT_MEMLOCK (as pinned memory, VmPin; CAP_IPC_LOCK lifts the limit)
 * until the buffer is freed, even if the process unmaps the range or exits
 * first. The buffer cannot be mmapped through the device or an exported
 * dma-buf (the process already has the memory) and is not charged to
 * device capacity; it can be shared with PRIME like any buffer.
 *
 * Errors: -EINVAL for a zero or unaligned (not page-aligned) pointer or size,
 * or nonzero @flags; -E2BIG above VNPU_MAX_BO_SIZE; -EFAULT if the range is
 * not user memory or any page of it is not mapped writable in the caller
 * (device mappings included); -ENOMEM over RLIMIT_MEMLOCK. On any error
 * nothing stays pinned or charged.
 */
struct drm_vnpu_bo_userptr {
	/** @user_ptr: in, page-aligned start of the process memory. */
	__u64 user_ptr;
	/** @size: in, page-aligned length in bytes. */
	__u64 size;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @handle: out, GEM handle. */
	__u32 handle;
	/** @va: out, device virtual address. */
	__u64 va;
};

/* Stream priorities (STREAM_CREATE). Higher runs first when engines are busy. */
#define VNPU_PRIORITY_LOW 0
#define VNPU_PRIORITY_NORMAL 1
#define VNPU_PRIORITY_HIGH 2

/**
 * struct drm_vnpu_stream_create - create a stream (an in-order task queue)
 *
 * Tasks submitted to one stream run one after the other in submission
 * order; different streams run concurrently on the device's engines.
 *
 * Errors: -EINVAL for an unknown @priority or nonzero @flags or @pad;
 * -ENOSPC when the file or the device already has its maximum number of
 * streams (VNPU_PARAM_MAX_STREAMS_PER_FILE, VNPU_PARAM_MAX_STREAMS).
 */
struct drm_vnpu_stream_create {
	/** @priority: in, VNPU_PRIORITY_*. */
	__u32 priority;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @stream_id: out, nonzero id, valid in this file only. */
	__u32 stream_id;
	/** @pad: must be zero. */
	__u32 pad;
};

/**
 * struct drm_vnpu_stream_destroy - destroy a stream
 *
 * Work of the stream that has not finished is cancelled: queued jobs are
 * skipped and signal their fences with -ECANCELED, or with -ESRCH for any
 * job the scheduler had not yet handed to an engine (whether it was waiting
 * for its in-syncs or only for its turn); a waiting task stops waiting, an
 * executing copy or fill stops at its next 1 MiB chunk. The call waits
 * neither for in-syncs nor for a task that is executing; all memory the
 * stream's jobs and pool bindings hold is released once they end. Closing
 * the file does the same for all its streams.
 * Callers that want the work done synchronize first (wait on the last
 * submit's out-sync).
 */
struct drm_vnpu_stream_destroy {
	/** @stream_id: in, stream to destroy (-ENOENT if unknown). */
	__u32 stream_id;
	/** @flags: in, must be zero. */
	__u32 flags;
};

/**
 * enum drm_vnpu_task_kind - what one task of a SUBMIT does
 *
 * @VNPU_TASK_NOP: nothing; completes at once (for fences and benchmarks).
 * @VNPU_TASK_COPY: copy @copy.size bytes from @copy.src to @copy.dst
 *	(device VAs; overlapping ranges behave like memmove).
 * @VNPU_TASK_FILL: set @fill.size bytes at @fill.dst to the byte @fill.value.
 * @VNPU_TASK_WRITE_VALUE: store @value.value at @value.addr (32-bit, or
 *	64-bit with VNPU_TASK_VALUE_64).
 * @VNPU_TASK_WAIT_VALUE: wait until the 32- or 64-bit word at @value.addr
 *	satisfies @value.cmp against @value.value, then complete. The stream
 *	waits, the engine does not: other streams keep running. A wait that
 *	lasts past the job timeout fails the stream (VNPU_STREAM_ERROR_TIMEOUT).
 * @VNPU_TASK_TIMESTAMP: store the device time (CLOCK_MONOTONIC, ns, 64-bit)
 *	at @timestamp.addr when the task runs (8-byte aligned).
 * @VNPU_TASK_OP: run a compute operator (struct drm_vnpu_task_op).
 */
enum drm_vnpu_task_kind {
	VNPU_TASK_NOP = 0,
	VNPU_TASK_COPY = 1,
	VNPU_TASK_FILL = 2,
	VNPU_TASK_WRITE_VALUE = 3,
	VNPU_TASK_WAIT_VALUE = 4,
	VNPU_TASK_TIMESTAMP = 5,
	VNPU_TASK_OP = 6,
};

/** VNPU_TASK_VALUE_64: WRITE_VALUE/WAIT_VALUE act on a 64-bit word. */
#define VNPU_TASK_VALUE_64 (1u << 0)

/*
 * Comparisons of VNPU_TASK_WAIT_VALUE (the same four CANN's aclrtValueWait
 * offers); "word" is the memory word, "value" the task's value.
 */
#define VNPU_WAIT_GEQ 0 /* word >= value (unsigned) */
#define VNPU_WAIT_EQ 1 /* word == value */
#define VNPU_WAIT_AND 2 /* (word & value) != 0 */
#define VNPU_WAIT_NOR 3 /* ~(word | value) != 0 */

/**
 * struct drm_vnpu_task_copy - VNPU_TASK_COPY arguments
 */
struct drm_vnpu_task_copy {
	/** @dst: destination device VA. */
	__u64 dst;
	/** @src: source device VA. */
	__u64 src;
	/** @size: bytes to copy, nonzero. */
	__u64 size;
};

/**
 * struct drm_vnpu_task_fill - VNPU_TASK_FILL arguments
 */
struct drm_vnpu_task_fill {
	/** @dst: destination device VA. */
	__u64 dst;
	/** @size: bytes to set, nonzero. */
	__u64 size;
	/** @value: the byte to store, 0..255. */
	__u32 value;
	/** @pad: must be zero. */
	__u32 pad;
};

/**
 * struct drm_vnpu_task_value - WRITE_VALUE and WAIT_VALUE arguments
 */
struct drm_vnpu_task_value {
	/** @addr: device VA of the word, aligned to its size. */
	__u64 addr;
	/** @value: value to store or compare with (low 32 bits unless 64-bit). */
	__u64 value;
	/** @cmp: WAIT_VALUE: one of VNPU_WAIT_*; WRITE_VALUE: must be zero. */
	__u32 cmp;
	/** @pad: must be zero. */
	__u32 pad;
};

/**
 * struct drm_vnpu_task_timestamp - VNPU_TASK_TIMESTAMP arguments
 */
struct drm_vnpu_task_timestamp {
	/** @addr: device VA of a 64-bit word, 8-byte aligned. */
	__u64 addr;
};

/* Operator data types. */
#define VNPU_DTYPE_F32 1
#define VNPU_DTYPE_F16 2
#define VNPU_DTYPE_BF16 3
#define VNPU_DTYPE_I32 4

/*
 * Operators. Shapes are row-major and contiguous; fp16/bf16 compute in fp32.
 *  ADD, SUB, MUL, DIV: dims[0] = n; in0 op in1 -> out (n elements each, but
 *	see VNPU_OP_F_SCALAR_IN*); int32 DIV by zero fails the task.
 *  RELU, ABS: dims[0] = n; in1 must be 0.
 *  CAST: dims[0] = n; dtype -> out_dtype among the four types (float to
 *	int32 truncates and saturates, NaN becomes 0).
 *  REDUCE_SUM, REDUCE_MAX: dims = {rows, cols, inner}; in0 is rows x cols
 *	x inner, reduced along cols; out is rows x inner. inner 0 means 1 (the
 *	last axis); nonzero inner since ABI 1.2.
 *  SOFTMAX: dims = {rows, cols, inner} as for REDUCE_*, along cols; out
 *	has in0's shape; float only.
 *  MATMUL: dims = {m, n, k}; out (m x n) = A (m x k) * B (k x n); A is in0,
 *	stored k x m with VNPU_OP_F_TRANS_A; B is in1, stored n x k with
 *	VNPU_OP_F_TRANS_B.
 * Unused dims and out_dtype (except for CAST, where 0 is not allowed) must
 * be 0 or, for out_dtype, equal to dtype.
 */
#define VNPU_OP_ADD 1
#define VNPU_OP_SUB 2
#define VNPU_OP_MUL 3
#define VNPU_OP_DIV 4
#define VNPU_OP_RELU 5
#define VNPU_OP_ABS 6
#define VNPU_OP_CAST 7
#define VNPU_OP_REDUCE_SUM 8
#define VNPU_OP_REDUCE_MAX 9
#define VNPU_OP_SOFTMAX 10
#define VNPU_OP_MATMUL 11

#define VNPU_OP_F_SCALAR_IN0 (1u << 0) /* in0 is one element, broadcast */
#define VNPU_OP_F_SCALAR_IN1 (1u << 1) /* in1 is one element, broadcast */
#define VNPU_OP_F_TRANS_A (1u << 2) /* MATMUL: in0 stored transposed */
#define VNPU_OP_F_TRANS_B (1u << 3) /* MATMUL: in1 stored transposed */

/**
 * struct drm_vnpu_task_op - VNPU_TASK_OP arguments
 *
 * The operator keeps its intermediate results in the workspace
 * [@ws, @ws + @ws_size), which must be at least the operator's requirement
 * (bytes; lowp means dtype F16 or BF16):
 *
 *  - ADD, SUB, MUL, DIV, RELU, ABS, CAST: 0 (then @ws and @ws_size may be 0)
 *  - REDUCE_SUM, REDUCE_MAX, SOFTMAX with inner 0 or 1: 4 * cols
 *  - with inner > 1: REDUCE_MAX 4 * inner, REDUCE_SUM 8 * inner, SOFTMAX
 *    12 * inner (per inner index: max; sum and compensation; max, sum
 *    and compensation)
 *  - MATMUL: 4*m*k if (TRANS_A or lowp) + 4*k*n if (TRANS_B or lowp)
 *    + 4*n if lowp
 *
 * The operator touches only the first requirement bytes; the whole range
 * counts for pools and hazards, so a runtime may name one block as the
 * workspace of several tasks and keep other data after the requirement.
 * A workspace that is too small fails the submit with -ENOSPC. On a stream
 * that requires pool workspace (VNPU_STREAM_PARAM_REQUIRE_POOL) every
 * nonzero workspace must lie inside one of the stream's bound pool ranges
 * (not merely inside memory bound to another stream, nor across a range's
 * edge), else the submit fails with -EACCES. Inputs, output and workspace
 * are checked like every other device address, each for the size the
 * operator reads or writes (the workspace for all of @ws_size).
 *
 * Operands must be aligned to their element size (4 bytes for F32 and I32,
 * 2 for F16 and BF16; for CAST the output to out_dtype's), the workspace
 * to 4 bytes. A dim may be at most 2^31 and no operand larger than 2^40
 * bytes (-EOVERFLOW). The checks run in this order, the first failing one
 * deciding the errno: task flags and the task's bytes beyond this struct
 * (must be zero), op, dtypes, op_flags and dims (-EINVAL, or -EOVERFLOW
 * for the limits), in1 given to a unary operator or exactly one of @ws and
 * @ws_size zero (-EINVAL), alignment
 * (-EINVAL), workspace size (-ENOSPC), then the addresses of in0, in1, out
 * and the workspace (-ENXIO, -EOVERFLOW, -EACCES).
 *
 * Semantics: fp16/bf16 values are computed in fp32 and rounded to nearest
 * even; int32 ADD, SUB, MUL, REDUCE_SUM and MATMUL wrap modulo 2^32, DIV
 * truncates toward zero (INT_MIN / -1 is INT_MIN) and fails the stream with
 * VNPU_STREAM_ERROR_ARITH on a zero divisor; RELU and ABS act on the sign
 * bit (RELU keeps -0 and NaN, ABS of INT_MIN is INT_MIN); REDUCE_MAX and
 * SOFTMAX propagate NaN; CAST from int32 to fp16/bf16 rounds through fp32.
 */
struct drm_vnpu_task_op {
	/** @op: VNPU_OP_*. */
	__u32 op;
	/** @dtype: VNPU_DTYPE_* of the inputs (and output, except CAST). */
	__u32 dtype;
	/** @out_dtype: CAST: VNPU_DTYPE_* of the output; else 0 or @dtype. */
	__u32 out_dtype;
	/** @op_flags: VNPU_OP_F_* valid for @op. */
	__u32 op_flags;
	/** @dims: shape, see the VNPU_OP_* comment; unused entries 0. */
	__u64 dims[3];
	/** @in0: device VA of the first input. */
	__u64 in0;
	/** @in1: device VA of the second input (binary ops, MATMUL), else 0. */
	__u64 in1;
	/** @out: device VA of the output. */
	__u64 out;
	/** @ws: device VA of the workspace, or 0 with @ws_size 0. */
	__u64 ws;
	/** @ws_size: workspace bytes. */
	__u64 ws_size;
};

/**
 * struct drm_vnpu_task - one task of a SUBMIT batch (96 bytes)
 *
 * Bytes of the union beyond the member that @kind uses must be zero.
 */
struct drm_vnpu_task {
	/** @kind: enum drm_vnpu_task_kind. */
	__u32 kind;
	/** @flags: VNPU_TASK_VALUE_64 for value tasks; else must be zero. */
	__u32 flags;
	union {
		/** @copy: VNPU_TASK_COPY. */
		struct drm_vnpu_task_copy copy;
		/** @fill: VNPU_TASK_FILL. */
		struct drm_vnpu_task_fill fill;
		/** @value: VNPU_TASK_WRITE_VALUE and VNPU_TASK_WAIT_VALUE. */
		struct drm_vnpu_task_value value;
		/** @timestamp: VNPU_TASK_TIMESTAMP. */
		struct drm_vnpu_task_timestamp timestamp;
		/** @op: VNPU_TASK_OP. */
		struct drm_vnpu_task_op op;
		/** @raw: the union as words, for zero checks. */
		__u64 raw[11];
	};
};

/**
 * struct drm_vnpu_sync - a syncobj and, for timelines, a point on it
 *
 * As an in-sync, its fence is waited for, not judged: a fence signalled
 * with an error releases the job like a successful one (see SUBMIT).
 */
struct drm_vnpu_sync {
	/** @handle: syncobj handle. */
	__u32 handle;
	/** @flags: must be zero. */
	__u32 flags;
	/** @point: timeline point, or 0 for a binary syncobj. */
	__u64 point;
};

/**
 * VNPU_SUBMIT_NONBLOCK: SUBMIT fails with -ENOBUFS rather than wait for
 * room (not -EAGAIN, which libdrm's drmIoctl() would retry at once).
 */
#define VNPU_SUBMIT_NONBLOCK (1u << 0)

/**
 * struct drm_vnpu_submit - queue a batch of tasks on a stream as one job
 *
 * The tasks run in order after every in-sync fence has signalled and after
 * the stream's earlier jobs. An in-sync fence that signals with an error
 * (its job failed, timed out or was cancelled) counts as signalled like any
 * other: the job still runs, its own fence does not inherit the error and
 * its stream does not fail. Check the in-fence's status (or STREAM_QUERY
 * the stream it came from) where a failure must stop dependent work.
 *
 * Every task is validated (and every device address resolved against the
 * file's buffers, which the job then keeps alive) before anything is
 * queued: if any task or sync is invalid the whole submit fails and nothing
 * runs. A valid submit waits while the file has VNPU_PARAM_MAX_JOBS_PER_FILE
 * unfinished jobs. On success the job's completion fence is installed in
 * @out_sync (if its handle is nonzero), replacing the fence of a binary
 * syncobj or adding @out_sync.point to a timeline.
 *
 * Errors: -EINVAL for unknown @flags, nonzero @pad, @task_count 0 or above
 * VNPU_MAX_TASKS_PER_SUBMIT, @task_size not sizeof(struct drm_vnpu_task),
 * @in_sync_count above VNPU_MAX_IN_SYNCS, a malformed task, or a timeline
 * point that has no fence yet; -ENOENT for an unknown stream or syncobj;
 * -EFAULT for unreadable arrays; -ENXIO/-EOVERFLOW for bad device ranges
 * (-EOVERFLOW also for operator dims or sizes beyond their limits);
 * -ENOSPC for a too small operator workspace; -EACCES for workspace outside
 * a pool-requiring stream's pools; -EBUSY when a strict stream's workspace
 * is still in use by another stream's running job; -EIO when the stream has
 * failed (see STREAM_QUERY); -EINTR when a signal ends the wait for room
 * (unless the call is restarted: SA_RESTART, or libdrm's drmIoctl());
 * -ENOBUFS instead of that wait with VNPU_SUBMIT_NONBLOCK.
 */
struct drm_vnpu_submit {
	/** @stream_id: in, target stream. */
	__u32 stream_id;
	/**
	 * @flags: in, 0 or VNPU_SUBMIT_NONBLOCK: fail with -ENOBUFS, queuing
	 * nothing, instead of waiting while the file has
	 * VNPU_PARAM_MAX_JOBS_PER_FILE unfinished jobs.
	 */
	__u32 flags;
	/** @tasks: in, pointer to @task_count struct drm_vnpu_task. */
	__u64 tasks;
	/** @task_count: in, 1 .. VNPU_MAX_TASKS_PER_SUBMIT. */
	__u32 task_count;
	/** @task_size: in, sizeof(struct drm_vnpu_task). */
	__u32 task_size;
	/** @in_syncs: in, pointer to @in_sync_count struct drm_vnpu_sync. */
	__u64 in_syncs;
	/** @in_sync_count: in, 0 .. VNPU_MAX_IN_SYNCS. */
	__u32 in_sync_count;
	/** @pad: must be zero. */
	__u32 pad;
	/**
	 * @out_sync: in, syncobj to receive the job's fence; handle 0: none.
	 * A timeline point is not checked against the syncobj's existing
	 * points: one at or below the last point is accepted and the fence
	 * joins the timeline at that last point, so waits for earlier points
	 * also wait for this job (docs/abi-streams.md). Use increasing points.
	 */
	struct drm_vnpu_sync out_sync;
	/** @seqno: out, the job's sequence number in its stream (1, 2, ...). */
	__u64 seqno;
};

/**
 * enum drm_vnpu_stream_error - why a stream failed (STREAM_QUERY @error)
 *
 * @VNPU_STREAM_ERROR_NONE: the stream has not failed.
 * @VNPU_STREAM_ERROR_TIMEOUT: a job ran past the job timeout and was cancelled.
 * @VNPU_STREAM_ERROR_FAULT: the device reported a fault while running a task.
 * @VNPU_STREAM_ERROR_ARITH: an operator hit an arithmetic error (int32
 *	division by zero); the job's fence carries -EDOM.
 * @VNPU_STREAM_ERROR_CANCELED: reserved, never reported by this driver.
 *	Cancelled work does not fail its stream: jobs cancelled by
 *	STREAM_DESTROY or file close signal their fences with -ECANCELED or
 *	-ESRCH, and a device is never torn down under an open file. The value
 *	is kept so that it keeps its meaning should a later version report it.
 *
 * Once failed, a stream stays failed: jobs queued behind the failing one are
 * skipped (their fences signal with an error) and new submits fail with
 * -EIO. Other streams and other files are not affected.
 */
enum drm_vnpu_stream_error {
	VNPU_STREAM_ERROR_NONE = 0,
	VNPU_STREAM_ERROR_TIMEOUT = 1,
	VNPU_STREAM_ERROR_FAULT = 2,
	VNPU_STREAM_ERROR_ARITH = 3,
	VNPU_STREAM_ERROR_CANCELED = 4,
};

/**
 * struct drm_vnpu_stream_query - progress and state of a stream
 */
struct drm_vnpu_stream_query {
	/** @stream_id: in, stream to query. */
	__u32 stream_id;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @submitted_seqno: out, seqno of the last job submitted (0: none). */
	__u64 submitted_seqno;
	/**
	 * @completed_seqno: out, every job up to this seqno has finished
	 * (successfully, failed or skipped).
	 */
	__u64 completed_seqno;
	/** @error: out, enum drm_vnpu_stream_error. */
	__u32 error;
	/** @failed_task: out, index of the failing task within its job. */
	__u32 failed_task;
	/** @failed_seqno: out, seqno of the job that failed the stream, or 0. */
	__u64 failed_seqno;
};

/* Stream parameters (STREAM_SET_PARAM). */
/**
 * VNPU_STREAM_PARAM_HAZARD_POLICY: what a submit does when an operator's
 * workspace overlaps bound pool memory that a still-running job of another
 * stream uses as workspace: VNPU_HAZARD_SERIALIZE (default) makes the new
 * job wait for that job; VNPU_HAZARD_STRICT fails the submit with -EBUSY
 * and queues nothing. Both count the hazard (POOL_QUERY), once per operator
 * task whose workspace collides.
 *
 * "Bound pool memory" is a buffer with a pool range of any stream (of any
 * file sharing the buffer): workspace in such a buffer is remembered, per
 * byte range of the buffer, with the job that uses it, until that job
 * ends. Jobs of one stream run in order, so a stream's own earlier use is
 * never a hazard. Workspace in a buffer that no stream has bound is not
 * tracked.
 */
#define VNPU_STREAM_PARAM_HAZARD_POLICY 1
/**
 * VNPU_STREAM_PARAM_REQUIRE_POOL: 1 = every operator workspace of this
 * stream must lie inside its bound pool ranges; 0 (default) = any memory.
 */
#define VNPU_STREAM_PARAM_REQUIRE_POOL 2

#define VNPU_HAZARD_SERIALIZE 0
#define VNPU_HAZARD_STRICT 1

/**
 * struct drm_vnpu_stream_set_param - change a stream's behaviour
 *
 * Takes effect for jobs submitted afterwards. Errors: -EINVAL for an
 * unknown @param or an invalid @value; -ENOENT for an unknown stream.
 */
struct drm_vnpu_stream_set_param {
	/** @stream_id: in, stream to change. */
	__u32 stream_id;
	/** @param: in, VNPU_STREAM_PARAM_*. */
	__u32 param;
	/** @value: in, the new value. */
	__u64 value;
};

/**
 * struct drm_vnpu_pool_bind - bind or unbind device memory as a stream's pool
 *
 * Used by DRM_IOCTL_VNPU_POOL_BIND and DRM_IOCTL_VNPU_POOL_UNBIND.
 *
 * A stream's pool is a set of device memory ranges its operators may use as
 * workspace. Binding adds [@va, @va + @size), which must lie inside one
 * live buffer of this file; ranges that overlap or touch on the same buffer
 * merge, so binding a range twice changes nothing. While bound, the memory
 * (and its VA) stays alive even if the buffer's handle is closed; it is
 * released when unbound and no job uses it any more.
 *
 * Unbinding removes the range from the pool for jobs submitted afterwards;
 * running jobs keep their memory. The whole range must lie inside one bound
 * range (else -ENOENT and nothing changes); cutting a range in the middle
 * splits it in two.
 *
 * Errors: -EINVAL for @size 0 or nonzero @flags; -ENOENT for an unknown
 * stream; -ENXIO/-EOVERFLOW for a bad range; -ENOSPC when the stream
 * already has VNPU_MAX_POOL_RANGES separate ranges and the bind would add
 * one more (or the unbind would split one). Checks run in this order:
 * flags and size, stream, range.
 */
struct drm_vnpu_pool_bind {
	/** @stream_id: in, stream whose pool changes. */
	__u32 stream_id;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @va: in, start of the range. */
	__u64 va;
	/** @size: in, bytes. */
	__u64 size;
};

/**
 * struct drm_vnpu_pool_range - one bound pool range (POOL_QUERY)
 */
struct drm_vnpu_pool_range {
	/** @va: start. */
	__u64 va;
	/** @size: bytes. */
	__u64 size;
};

/**
 * struct drm_vnpu_pool_stats - pool and workspace counters
 *
 * Counted since the stream (or, for the file totals, the file) was created.
 * The file totals include destroyed streams, except @bytes_bound, which is
 * what the file's live streams have bound now. Hazards are counted per
 * operator task; only submits that queue their job count workspace.
 */
struct drm_vnpu_pool_stats {
	/** @binds: successful POOL_BIND calls that added memory. */
	__u64 binds;
	/** @unbinds: successful POOL_UNBIND calls. */
	__u64 unbinds;
	/** @bytes_bound: bytes currently bound. */
	__u64 bytes_bound;
	/** @hazards_serialized: cross-stream workspace hazards turned into waits. */
	__u64 hazards_serialized;
	/** @hazards_rejected: cross-stream workspace hazards rejected (-EBUSY). */
	__u64 hazards_rejected;
	/** @ws_bytes_used: sum of the workspace sizes of submitted operators. */
	__u64 ws_bytes_used;
	/** @ws_tasks: operator tasks submitted with a nonzero workspace. */
	__u64 ws_tasks;
};

/**
 * struct drm_vnpu_pool_query - a stream's pool ranges and counters
 *
 * With @stream_id 0, returns the file's totals over all its streams
 * (including destroyed ones) and no ranges.
 */
struct drm_vnpu_pool_query {
	/** @stream_id: in, stream to query, or 0 for the file totals. */
	__u32 stream_id;
	/**
	 * @range_count: in, capacity of @ranges (may be 0); out, the number
	 * of ranges bound (may exceed the capacity: then only the first
	 * capacity entries were written).
	 */
	__u32 range_count;
	/** @ranges: in, pointer to struct drm_vnpu_pool_range array, or 0. */
	__u64 ranges;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @pad: must be zero. */
	__u32 pad;
	/** @stats: out, counters. */
	struct drm_vnpu_pool_stats stats;
};

#define DRM_IOCTL_VNPU_GET_PARAM \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VNPU_GET_PARAM, struct drm_vnpu_get_param)
#define DRM_IOCTL_VNPU_BO_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VNPU_BO_CREATE, struct drm_vnpu_bo_create)
#define DRM_IOCTL_VNPU_BO_INFO \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VNPU_BO_INFO, struct drm_vnpu_bo_info)
#define DRM_IOCTL_VNPU_BO_USERPTR \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VNPU_BO_USERPTR, struct drm_vnpu_bo_userptr)
#define DRM_IOCTL_VNPU_STREAM_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VNPU_STREAM_CREATE, struct drm_vnpu_stream_create)
#define DRM_IOCTL_VNPU_STREAM_DESTROY \
	DRM_IOW(DRM_COMMAND_BASE + DRM_VNPU_STREAM_DESTROY, struct drm_vnpu_stream_destroy)
#define DRM_IOCTL_VNPU_SUBMIT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VNPU_SUBMIT, struct drm_vnpu_submit)
#define DRM_IOCTL_VNPU_STREAM_QUERY \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VNPU_STREAM_QUERY, struct drm_vnpu_stream_query)
#define DRM_IOCTL_VNPU_STREAM_SET_PARAM \
	DRM_IOW(DRM_COMMAND_BASE + DRM_VNPU_STREAM_SET_PARAM, struct drm_vnpu_stream_set_param)
#define DRM_IOCTL_VNPU_POOL_BIND \
	DRM_IOW(DRM_COMMAND_BASE + DRM_VNPU_POOL_BIND, struct drm_vnpu_pool_bind)
#define DRM_IOCTL_VNPU_POOL_UNBIND \
	DRM_IOW(DRM_COMMAND_BASE + DRM_VNPU_POOL_UNBIND, struct drm_vnpu_pool_bind)
#define DRM_IOCTL_VNPU_POOL_QUERY \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VNPU_POOL_QUERY, struct drm_vnpu_pool_query)

#if defined(__cplusplus)
}
#endif

#endif /* VNPU_DRM_H */
