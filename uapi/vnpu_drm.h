/* SPDX-License-Identifier: MIT */
/*
 * vnpu_drm.h - userspace ABI of vnpu, the virtual NPU.
 *
 * This header is the only contract between the vnpu kernel module and
 * userspace: the client ABI (libascendcl and the tools, on the device
 * node) and the engine ABI (the engine server, vnpu-engined, on an engine
 * file it gets from ENGINE_ATTACH). Everything crosses it as fixed-size
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
 *    module cannot be unloaded while any file of it (device node or engine
 *    file) is open, so no ioctl ever finds its device gone (none returns
 *    -ENODEV for that reason).
 *
 * The device and its engine server. The kernel module is the device's
 * front end: buffers, address spaces, streams, fences, pools, hazards,
 * limits and timeouts. Execution happens in a userspace engine server
 * attached to the device (struct drm_vnpu_engine_attach), as ublk and
 * VDUSE do for block and virtio devices. The kernel checks every address
 * a task names, schedules jobs in stream order and hands them to the
 * server with every address resolved to (buffer, offset, length); the
 * server executes the tasks and reports how each job ended. Operators
 * (VNPU_TASK_OP) are opaque to the kernel: a descriptor it copies but
 * never reads, and a list of operands it checks. Without an attached
 * server, SUBMIT fails with -ENOTCONN; when the server detaches or dies,
 * every unfinished job of the device fails (VNPU_STREAM_ERROR_ENGINE).
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
 *  2.0 - Execution moves into a userspace engine server: ENGINE_ATTACH and
 *        the engine file (RUN, NOTIFY, the control page, buffer mappings).
 *        VNPU_TASK_OP is generic: an opaque descriptor plus operands
 *        (struct drm_vnpu_operand) in the new SUBMIT data area; the
 *        VNPU_OP_* and VNPU_DTYPE_* values and the workspace formulas are
 *        gone from the ABI. SIGNAL: the host wrote memory that waits may
 *        watch (waits are no longer polled). SUBMIT fails with -ENOTCONN
 *        without a server; VNPU_STREAM_ERROR_ENGINE; GET_PARAM
 *        ENGINE_ATTACHED, ENGINE_ATTACHES and the operator bounds. Jobs
 *        that never started signal -ESRCH when their stream is destroyed,
 *        those that had started -ECANCELED.
 *  2.1 - STREAM_SET_PARAM VNPU_STREAM_PARAM_JOB_TIMEOUT_MS: a job timeout
 *        per stream.
 *  2.2 - STREAM_SET_PARAM VNPU_STREAM_PARAM_FAILURE_MODE (a stream may go
 *        on after a failed job); STREAM_QUERY grows @failed_jobs and the
 *        last failure's @last_error, @last_failed_task, @last_failed_seqno;
 *        STREAM_ABORT (discard a stream's jobs, or stop it:
 *        VNPU_STREAM_ERROR_CANCELED is now reported).
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

#define VNPU_ABI_MAJOR 2
#define VNPU_ABI_MINOR 3

/* Device VA window of every file (see the header comment). */
#define VNPU_VA_START (1ULL << 48)
#define VNPU_VA_END (1ULL << 52)
#define VNPU_VA_DEVICE_SPAN (1ULL << 46)

/* Bounds (also returned by GET_PARAM). */
#define VNPU_MAX_BO_SIZE (64ULL << 30)
#define VNPU_MAX_TASKS_PER_SUBMIT 4096
#define VNPU_MAX_IN_SYNCS 64
#define VNPU_MAX_POOL_RANGES 4096
/* Bytes of a SUBMIT's data area (operator descriptors and operands). */
#define VNPU_MAX_SUBMIT_DATA (1u << 20)
/* Bytes of one operator descriptor. */
#define VNPU_MAX_OP_DESC_SIZE (64u << 10)
/* Operands of one operator task, and of all operator tasks of a SUBMIT. */
#define VNPU_MAX_OP_OPERANDS 256
#define VNPU_MAX_SUBMIT_OPERANDS 16384

/**
 * DOC: vnpu ioctls
 *
 * On the device node (render or accel node), allowed to every user who
 * can open it unless noted. Each struct's documentation gives its fields'
 * rules and its errors; a call that fails changes nothing.
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
 *   write): a stream's hazard policy, pool requirement, job timeout or
 *   failure mode.
 * - DRM_IOCTL_VNPU_POOL_BIND, DRM_IOCTL_VNPU_POOL_UNBIND (struct
 *   drm_vnpu_pool_bind, write): bind or unbind device memory as a
 *   stream's workspace pool.
 * - DRM_IOCTL_VNPU_POOL_QUERY (struct drm_vnpu_pool_query, read-write): a
 *   stream's pool ranges and counters, or the file's totals.
 * - DRM_IOCTL_VNPU_SIGNAL (struct drm_vnpu_signal, read-write): the host
 *   wrote device memory; waits on it look again at once.
 * - DRM_IOCTL_VNPU_ENGINE_ATTACH (struct drm_vnpu_engine_attach,
 *   read-write): root only (CAP_SYS_ADMIN); become the device's engine
 *   server and get the engine file.
 * - DRM_IOCTL_VNPU_STREAM_ABORT (struct drm_vnpu_stream_abort,
 *   read-write): discard every job submitted so far on a stream (and
 *   recover a failed one), or stop the stream; never waits.
 *
 * Buffers are freed with DRM_IOCTL_GEM_CLOSE and shared with the PRIME
 * ioctls of the DRM core; in-syncs and out-syncs are DRM syncobjs. The
 * engine file has ioctls of its own (VNPU_ENGINE_IOCTL_RUN and
 * VNPU_ENGINE_IOCTL_NOTIFY, see "engine interface" below).
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
#define DRM_VNPU_SIGNAL 0x0c
#define DRM_VNPU_ENGINE_ATTACH 0x0d
#define DRM_VNPU_STREAM_ABORT 0x0e

/**
 * enum drm_vnpu_param - what DRM_IOCTL_VNPU_GET_PARAM can return
 *
 * @VNPU_PARAM_ABI_VERSION: VNPU_ABI_MAJOR << 16 | VNPU_ABI_MINOR.
 * @VNPU_PARAM_DEVICE_INDEX: index of this device among the vnpu devices
 *	(0 .. number of devices - 1), stable for the life of the module.
 * @VNPU_PARAM_NUM_DEVICES: number of vnpu devices the module created.
 * @VNPU_PARAM_NUM_ENGINES: number of execution engines of this device (the
 *	workers its engine server runs).
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
 *	then spends parked on WAIT_VALUE or queued behind other streams
 *	counts, time waiting for in-syncs or earlier jobs before it starts
 *	does not. Read when the job starts.
 * @VNPU_PARAM_CLIENT_ID: the calling file's drm-client-id (as in fdinfo).
 * @VNPU_PARAM_HOST_MEM_USED: bytes of VNPU_BO_HOST buffers of this device.
 * @VNPU_PARAM_MAX_JOBS_PER_FILE: unfinished jobs one file may have; a
 *	SUBMIT past it waits until one of the file's jobs ends.
 * @VNPU_PARAM_FILE_JOBS: the calling file's unfinished jobs: submitted
 *	and not yet ended (finished, failed or cancelled).
 * @VNPU_PARAM_ENGINE_ATTACHED: 1 while an engine server is attached to
 *	the device (SUBMIT works), else 0.
 * @VNPU_PARAM_ENGINE_ATTACHES: engine servers attached since the module
 *	was loaded (a restarted server counts again).
 * @VNPU_PARAM_MAX_SUBMIT_DATA: VNPU_MAX_SUBMIT_DATA.
 * @VNPU_PARAM_MAX_OP_DESC_SIZE: VNPU_MAX_OP_DESC_SIZE.
 * @VNPU_PARAM_MAX_OP_OPERANDS: VNPU_MAX_OP_OPERANDS.
 * @VNPU_PARAM_MAX_SUBMIT_OPERANDS: VNPU_MAX_SUBMIT_OPERANDS.
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
	VNPU_PARAM_ENGINE_ATTACHED = 18,
	VNPU_PARAM_ENGINE_ATTACHES = 19,
	VNPU_PARAM_MAX_SUBMIT_DATA = 20,
	VNPU_PARAM_MAX_OP_DESC_SIZE = 21,
	VNPU_PARAM_MAX_OP_OPERANDS = 22,
	VNPU_PARAM_MAX_SUBMIT_OPERANDS = 23,
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
 * Work of the stream that has not finished is cancelled: jobs that had
 * started executing signal their fences with -ECANCELED, jobs that never
 * started (waiting for their in-syncs or for their turn) with -ESRCH; a
 * waiting task stops waiting, and the engine stops an executing task at
 * its next chunk (1 MiB of a copy or fill, a bounded piece of an
 * operator). The call waits neither for in-syncs nor for a task that is
 * executing; all memory the stream's jobs and pool bindings hold is
 * released once they end. Closing the file does the same for all its
 * streams. Callers that want the work done synchronize first (wait on
 * the last submit's out-sync).
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
 * @VNPU_TASK_FILL: set @fill.size bytes at @fill.dst to the byte @fill.value,
 *	or, with VNPU_TASK_FILL_32 (ABI 2.3), store @fill.value as each
 *	32-bit word of the range (host byte order; @fill.dst and @fill.size
 *	multiples of 4).
 * @VNPU_TASK_WRITE_VALUE: store @value.value at @value.addr (32-bit, or
 *	64-bit with VNPU_TASK_VALUE_64).
 * @VNPU_TASK_WAIT_VALUE: wait until the 32- or 64-bit word at @value.addr
 *	satisfies @value.cmp against @value.value, then complete. The stream
 *	waits, the engine does not: other streams keep running. The word is
 *	looked at again whenever a task of the device writes memory and when
 *	the host says it wrote (DRM_IOCTL_VNPU_SIGNAL); nothing polls it, so
 *	a CPU store through an mmap alone is not seen. A wait that lasts past
 *	the job timeout fails the stream (VNPU_STREAM_ERROR_TIMEOUT).
 * @VNPU_TASK_TIMESTAMP: store the device time (CLOCK_MONOTONIC, ns, 64-bit)
 *	at @timestamp.addr when the task runs (8-byte aligned).
 * @VNPU_TASK_OP: run an operator on the engine (struct drm_vnpu_task_op).
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
/** VNPU_TASK_FILL_32: FILL repeats a 32-bit word, not a byte (ABI 2.3). */
#define VNPU_TASK_FILL_32 (1u << 1)

/*
 * Comparisons of VNPU_TASK_WAIT_VALUE (the same four CANN's aclrtValueWait
 * offers); "word" is the memory word, "value" the task's value.
 */
#define VNPU_WAIT_GEQ 0 /* word >= value (unsigned) */
#define VNPU_WAIT_EQ 1 /* word == value */
#define VNPU_WAIT_AND 2 /* (word & value) != 0 */
#define VNPU_WAIT_NOR 3 /* ~(word | value) != 0 */

/**
 * vnpu_wait_cond_holds() - does a VNPU_TASK_WAIT_VALUE condition hold?
 * @cmp: VNPU_WAIT_*
 * @is64: nonzero for a 64-bit word (VNPU_TASK_VALUE_64), else 32 bits
 * @word: the memory word
 * @value: the task's value
 *
 * Both are cut to the word's width first. The one definition of the four
 * comparisons: the kernel decides parked waits with it, the engine server
 * the waits it meets.
 *
 * Return: 1 if it holds, 0 if not, -1 for an unknown @cmp.
 */
static inline int vnpu_wait_cond_holds(__u32 cmp, int is64, __u64 word, __u64 value)
{
	__u64 mask = is64 ? ~(__u64)0 : 0xffffffffull;

	word &= mask;
	value &= mask;
	switch (cmp) {
	case VNPU_WAIT_GEQ:
		return word >= value;
	case VNPU_WAIT_EQ:
		return word == value;
	case VNPU_WAIT_AND:
		return (word & value) != 0;
	case VNPU_WAIT_NOR:
		return (~(word | value) & mask) != 0;
	}
	return -1;
}

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
	/** @value: the byte to store, 0..255; with VNPU_TASK_FILL_32 the word. */
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

/*
 * How an operator uses an operand (struct drm_vnpu_operand @access).
 * READ: it may read the range; WRITE: it may read and write it (an
 * operator working in place names the range twice, once each way);
 * WORKSPACE: scratch memory, which is what pools and hazards are about.
 */
#define VNPU_OPERAND_READ 1
#define VNPU_OPERAND_WRITE 2
#define VNPU_OPERAND_WORKSPACE 3

/**
 * struct drm_vnpu_operand - one memory range an operator may touch
 *
 * The range must lie inside one live buffer of the file (-ENXIO;
 * -EOVERFLOW if its end wraps). A WORKSPACE range is looked up in the
 * stream's pool first, so it may lie in bound memory whose handle was
 * closed; on a stream that requires pool workspace
 * (VNPU_STREAM_PARAM_REQUIRE_POOL) it must lie inside one bound range (not
 * across a range's edge, nor merely in memory another stream bound), else
 * -EACCES. Every operand in bound memory, whatever its access, takes part
 * in the cross-stream hazard checks (VNPU_STREAM_PARAM_HAZARD_POLICY): a
 * model's intermediate tensors from an allocator are inputs and outputs.
 */
struct drm_vnpu_operand {
	/** @va: device VA of the first byte. */
	__u64 va;
	/** @size: bytes, nonzero. */
	__u64 size;
	/** @access: VNPU_OPERAND_READ, _WRITE or _WORKSPACE. */
	__u32 access;
	/** @pad: must be zero. */
	__u32 pad;
};

/**
 * struct drm_vnpu_task_op - VNPU_TASK_OP arguments
 *
 * An operator is a descriptor and a list of operands, both in the SUBMIT's
 * data area (struct drm_vnpu_submit @data). The descriptor says what to
 * compute in the engine server's own format (vnpu-engined: lib/ops/); the
 * kernel copies it to the server unread. The operands are every memory
 * range the operator may touch; the kernel checks each one, keeps its
 * buffer alive for the job and hands the server the checked ranges, and
 * the server lets the operator touch nothing else: a descriptor that asks
 * for more than its operands hold faults its own task
 * (VNPU_STREAM_ERROR_FAULT), as does one the server does not understand.
 *
 * Checks. Before any task is looked at, for every operator task of the
 * SUBMIT: @operand_count at most VNPU_MAX_OP_OPERANDS, and all of them
 * together at most VNPU_MAX_SUBMIT_OPERANDS (-EINVAL). Then, in the
 * task's turn and in this order: the task's flags and the bytes of the
 * task's union beyond this struct (must be zero), the descriptor's
 * placement (@desc_size 1 .. VNPU_MAX_OP_DESC_SIZE, @desc_offset a
 * multiple of 8, inside the data area), the operand list's placement
 * (@operand_offset a multiple of 8, inside the data area), each operand's
 * access, pad and size (-EINVAL), then each operand's range in order
 * (-ENXIO, -EOVERFLOW, -EACCES).
 */
struct drm_vnpu_task_op {
	/** @desc_offset: byte offset of the descriptor in the data area, a multiple of 8. */
	__u32 desc_offset;
	/** @desc_size: bytes of the descriptor, 1 .. VNPU_MAX_OP_DESC_SIZE. */
	__u32 desc_size;
	/**
	 * @operand_offset: byte offset in the data area of @operand_count
	 * struct drm_vnpu_operand, a multiple of 8.
	 */
	__u32 operand_offset;
	/** @operand_count: 0 .. VNPU_MAX_OP_OPERANDS. */
	__u32 operand_count;
};

/**
 * struct drm_vnpu_task - one task of a SUBMIT batch (96 bytes)
 *
 * Bytes of the union beyond the member that @kind uses must be zero.
 */
struct drm_vnpu_task {
	/** @kind: enum drm_vnpu_task_kind. */
	__u32 kind;
	/**
	 * @flags: VNPU_TASK_VALUE_64 for value tasks, VNPU_TASK_FILL_32 for
	 * FILL; else must be zero.
	 */
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
 * Errors: -EINVAL for unknown @flags, @task_count 0 or above
 * VNPU_MAX_TASKS_PER_SUBMIT, @task_size not sizeof(struct drm_vnpu_task),
 * @in_sync_count above VNPU_MAX_IN_SYNCS, @data_size above
 * VNPU_MAX_SUBMIT_DATA, @data 0 with a nonzero @data_size, a malformed
 * task, or a timeline point that has no fence yet; -ENOENT for an unknown
 * stream or syncobj; -EFAULT for unreadable arrays; -ENXIO/-EOVERFLOW for
 * bad device ranges; -EACCES for workspace outside a pool-requiring
 * stream's pools; -EBUSY when a strict stream's workspace is still in use
 * by another stream's running job; -EIO when the stream has failed (see
 * STREAM_QUERY); -ENOTCONN when no engine server is attached to the device
 * (VNPU_PARAM_ENGINE_ATTACHED); -EINTR when a signal ends the wait for
 * room (unless the call is restarted: SA_RESTART, or libdrm's drmIoctl());
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
	/**
	 * @data_size: in, bytes at @data, 0 .. VNPU_MAX_SUBMIT_DATA: the
	 * operator tasks' descriptors and operand lists.
	 */
	__u32 data_size;
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
	/** @data: in, pointer to the data area, or 0 when @data_size is 0. */
	__u64 data;
};

/**
 * enum drm_vnpu_stream_error - why a stream failed (STREAM_QUERY @error)
 *
 * @VNPU_STREAM_ERROR_NONE: the stream has not failed.
 * @VNPU_STREAM_ERROR_TIMEOUT: a job ran past the job timeout and was
 *	cancelled; its fence carries -ETIMEDOUT.
 * @VNPU_STREAM_ERROR_FAULT: the device reported a fault while running a
 *	task (an operator descriptor the engine refused, or an access outside
 *	the task's operands); the job's fence carries -EIO.
 * @VNPU_STREAM_ERROR_ARITH: an operator hit an arithmetic error (integer
 *	division by zero); the job's fence carries -EDOM.
 * @VNPU_STREAM_ERROR_CANCELED: the stream was stopped (STREAM_ABORT with
 *	VNPU_STREAM_ABORT_STOP, ABI 2.2); its unfinished jobs end with
 *	-ECANCELED. Other cancelled work does not fail its stream: jobs
 *	cancelled by STREAM_DESTROY or file close signal their fences with
 *	-ECANCELED or -ESRCH, and a device is never torn down under an open
 *	file.
 * @VNPU_STREAM_ERROR_ENGINE: the engine server detached or died (or was
 *	reset for not answering) while the job was unfinished; its fence
 *	carries -EPIPE. Every stream of the device with unfinished work fails
 *	this way at once; streams without work are not affected.
 *
 * Once failed, a stream stays failed until STREAM_ABORT: jobs queued behind
 * the failing one are skipped (their fences signal with -ECANCELED) and new
 * submits fail with -EIO. Other streams and other files are not affected.
 * A job submitted while the stream's VNPU_STREAM_PARAM_FAILURE_MODE is
 * VNPU_FAILURE_CONTINUE does not fail its stream (except for
 * VNPU_STREAM_ERROR_ENGINE): its fence carries its error, STREAM_QUERY
 * counts it (@failed_jobs, @last_error) and the jobs behind it run.
 */
enum drm_vnpu_stream_error {
	VNPU_STREAM_ERROR_NONE = 0,
	VNPU_STREAM_ERROR_TIMEOUT = 1,
	VNPU_STREAM_ERROR_FAULT = 2,
	VNPU_STREAM_ERROR_ARITH = 3,
	VNPU_STREAM_ERROR_CANCELED = 4,
	VNPU_STREAM_ERROR_ENGINE = 5,
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
	/**
	 * @failed_jobs: out, how many jobs of the stream have failed (in
	 * either failure mode; jobs skipped or cancelled do not count),
	 * modulo 2^32. (ABI 2.2, as are the fields below.)
	 */
	__u32 failed_jobs;
	/** @last_error: out, enum drm_vnpu_stream_error of the last failed job. */
	__u32 last_error;
	/** @last_failed_seqno: out, seqno of the last failed job, or 0. */
	__u64 last_failed_seqno;
	/** @last_failed_task: out, index of the failing task in that job. */
	__u32 last_failed_task;
	/** @pad: out, zero. */
	__u32 pad;
};

/* Stream parameters (STREAM_SET_PARAM). */
/**
 * VNPU_STREAM_PARAM_HAZARD_POLICY: what a submit does when an operator's
 * operand (workspace, input or output) overlaps bound pool memory that a
 * still-running job of another stream uses as an operator operand:
 * VNPU_HAZARD_SERIALIZE (default) makes the new job wait for that job;
 * VNPU_HAZARD_STRICT fails the submit with -EBUSY and queues nothing. Both
 * count the hazard (POOL_QUERY), once per operator task that collides.
 *
 * "Bound pool memory" is a buffer with a pool range of any stream (of any
 * file sharing the buffer): an operator operand in such a buffer is
 * remembered, per byte range of the buffer, with the job that uses it,
 * until that job ends. Jobs of one stream run in order, so a stream's own
 * earlier use is never a hazard. Two streams that only read the same bound
 * memory are serialized too (the records do not say who writes). Operands
 * in a buffer that no stream has bound are not tracked.
 */
#define VNPU_STREAM_PARAM_HAZARD_POLICY 1
/**
 * VNPU_STREAM_PARAM_REQUIRE_POOL: 1 = every operator workspace of this
 * stream must lie inside its bound pool ranges; 0 (default) = any memory.
 */
#define VNPU_STREAM_PARAM_REQUIRE_POOL 2
/**
 * VNPU_STREAM_PARAM_JOB_TIMEOUT_MS: how long a job of this stream may take
 * from its start (as for the job_timeout_ms module parameter, which the
 * default 0 means) before it is cancelled and fails the stream with
 * VNPU_STREAM_ERROR_TIMEOUT; 1 to VNPU_MAX_JOB_TIMEOUT_MS. Jobs keep the
 * value their stream had when they were submitted. (ABI 2.1)
 */
#define VNPU_STREAM_PARAM_JOB_TIMEOUT_MS 3
/* Largest VNPU_STREAM_PARAM_JOB_TIMEOUT_MS (one hour). */
#define VNPU_MAX_JOB_TIMEOUT_MS 3600000u
/**
 * VNPU_STREAM_PARAM_FAILURE_MODE: what a failed job does to its stream:
 * VNPU_FAILURE_STOP (default) fails the stream (enum drm_vnpu_stream_error:
 * later jobs are skipped, submits refused); VNPU_FAILURE_CONTINUE leaves it
 * running, the job's fence carrying the error. Jobs keep the mode their
 * stream had when they were submitted. An engine server that goes away
 * fails streams in either mode. (ABI 2.2)
 */
#define VNPU_STREAM_PARAM_FAILURE_MODE 4
#define VNPU_FAILURE_STOP 0
#define VNPU_FAILURE_CONTINUE 1

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

/* STREAM_ABORT flags. */
#define VNPU_STREAM_ABORT_STOP (1u << 0)

/**
 * struct drm_vnpu_stream_abort - discard a stream's jobs, or stop it
 *
 * Without flags: every job submitted so far (seqno up to @seqno) ends
 * without running (further): those off the engine at once, those the
 * engine holds when the server reports them after being asked to stop
 * (as for STREAM_DESTROY); their fences signal with -ECANCELED, in order
 * (a job that finishes before it sees the request ends as it finished).
 * A failed stream is failed no more: its error is cleared and it accepts
 * new jobs, which run after the discarded ones have ended.
 *
 * With VNPU_STREAM_ABORT_STOP: the stream fails with
 * VNPU_STREAM_ERROR_CANCELED (unless it failed already): its unfinished
 * jobs end the same way and new submits fail with -EIO until a
 * STREAM_ABORT without flags.
 *
 * Never waits for the engine. Errors: -EINVAL for unknown @flags;
 * -ENOENT for an unknown stream. (ABI 2.2)
 */
struct drm_vnpu_stream_abort {
	/** @stream_id: in, the stream. */
	__u32 stream_id;
	/** @flags: in, VNPU_STREAM_ABORT_*. */
	__u32 flags;
	/** @seqno: out, seqno of the last job submitted before the abort. */
	__u64 seqno;
	/**
	 * @completed_seqno: out, every job up to this seqno had ended before
	 * the abort: the jobs after it, up to @seqno, are the ones it ended.
	 */
	__u64 completed_seqno;
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
	/** @ws_bytes_used: sum of the workspace operand sizes of submitted operators. */
	__u64 ws_bytes_used;
	/** @ws_tasks: operator tasks submitted with at least one workspace operand. */
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

/**
 * struct drm_vnpu_signal - the host wrote device memory
 *
 * A CPU store through an mmap of a buffer is invisible to the device until
 * it is announced: WAIT_VALUE tasks are evaluated when a task of the device
 * writes memory and when this ioctl names memory they may watch, never by
 * polling. After the call returns, every parked wait on a word in
 * [@va, @va + @size) has looked at the word again (and goes on if its
 * condition now holds).
 *
 * Errors: -EINVAL for @size 0 or nonzero @flags; -ENXIO/-EOVERFLOW for a
 * range that is not inside one live buffer of this file.
 */
struct drm_vnpu_signal {
	/** @va: in, start of the written range. */
	__u64 va;
	/** @size: in, bytes, nonzero. */
	__u64 size;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @woken: out, waits this call released. */
	__u32 woken;
};

/**
 * DOC: engine interface
 *
 * The engine server executes the device's work. It opens the device node
 * as root (CAP_SYS_ADMIN) and calls DRM_IOCTL_VNPU_ENGINE_ATTACH, which
 * makes it the device's one engine server and gives it an engine file
 * (struct drm_vnpu_engine_attach). Everything else happens on that file:
 *
 * - VNPU_ENGINE_IOCTL_RUN (struct drm_vnpu_engine_run): report how the
 *   jobs it had ended, and receive events: jobs to execute and buffers
 *   that are gone. Each of the server's workers (one per engine,
 *   VNPU_PARAM_NUM_ENGINES) loops on it.
 * - VNPU_ENGINE_IOCTL_NOTIFY (struct drm_vnpu_engine_notify): a running
 *   job wrote memory: parked waits look again now rather than at the
 *   job's end. Worth calling only while the control page says waits are
 *   parked.
 * - mmap() at @ctl_offset: the control page (struct drm_vnpu_engine_ctl,
 *   read-only): the cancel word of every slot and the count of parked
 *   waits.
 * - mmap() of the buffer window (@buffers_offset, @buffers_size, or any
 *   page range inside it; MAP_SHARED, read-write): every buffer a job
 *   names lies in it, at its operands' @buffer_offset, so one mapping made
 *   at attach serves them all. Pages come in at fault time from the buffer
 *   that owns the offset; a page no buffer owns raises SIGBUS. When a
 *   buffer is freed the kernel removes its pages from every mapping at
 *   once (an access raises SIGBUS, until the offset is given to a buffer
 *   named later) and queues a VNPU_ENGINE_EVENT_BUFFER_GONE event. No
 *   buffer is ever freed while a job the server holds uses it.
 * - close(): detaches the server. Every unfinished job of the device
 *   fails (VNPU_STREAM_ERROR_ENGINE, fence error -EPIPE); a new server may
 *   attach at once. The same happens when the server dies, and when it
 *   holds a cancelled job past the cancel grace (VNPU_ENGINE_GRACE_MS) at
 *   the job's deadline: the kernel then resets the engine, removes every
 *   buffer from the server's mappings and fails its ioctls with -ENOTCONN.
 *
 * Jobs. The kernel hands a stream's jobs out in stream order, a job once
 * its in-syncs and hazards are done and every earlier job of the stream is
 * done or handed out with it; streams run concurrently, by priority
 * (higher first, round-robin within a priority). One RUN may hand out
 * several consecutive jobs of one stream, in order: the server runs them
 * in that order, and once one of them does not end OK (a fault, an
 * arithmetic error, a cancel, a wait that blocks) it runs none of the
 * stream's later jobs of that RUN and reports each VNPU_ENGINE_DONE_NOT_RUN.
 * A stream's jobs that ran are reported in the order they were handed
 * out. A job arrives in a slot (0 .. VNPU_ENGINE_SLOTS - 1) and stays
 * there until the server reports it (struct drm_vnpu_engine_done), which
 * it may do from any worker. When the job's stream is destroyed or the
 * job's time is up, the kernel sets the slot's cancel word: the server
 * stops the job between chunks of bounded work and reports
 * VNPU_ENGINE_DONE_CANCELED.
 *
 * A WAIT_VALUE task whose condition does not hold ends the job's turn:
 * the server reports VNPU_ENGINE_DONE_BLOCKED, the kernel parks the job
 * (nothing spins, nothing polls) and hands it out again, from the task
 * after the wait, once the condition holds. Only the kernel decides that:
 * a server that reports BLOCKED for a wait that holds only costs a turn.
 */
/** VNPU_ENGINE_SLOTS: jobs an engine server may hold at once. */
#define VNPU_ENGINE_SLOTS 512
/** VNPU_ENGINE_GRACE_MS: how long a cancelled job may run past its deadline. */
#define VNPU_ENGINE_GRACE_MS 5000
/**
 * VNPU_ENGINE_EVENTS_MIN: event buffer bytes that always hold the largest
 * job (VNPU_MAX_TASKS_PER_SUBMIT tasks, two operands for each and
 * VNPU_MAX_SUBMIT_OPERANDS more, VNPU_MAX_SUBMIT_DATA of descriptors).
 */
#define VNPU_ENGINE_EVENTS_MIN (4u << 20)

/**
 * struct drm_vnpu_engine_attach - become the device's engine server
 *
 * Only with CAP_SYS_ADMIN (else -EACCES, from the DRM core). The engine
 * file is a new file descriptor (close-on-exec) of the calling process; it
 * holds the module while open.
 *
 * Errors: -EINVAL for nonzero @flags or @pad; -EBUSY while another engine
 * server is attached to the device (a server the kernel reset no longer
 * counts, even while it still holds its engine file); -ENOMEM, -EMFILE.
 */
struct drm_vnpu_engine_attach {
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @fd: out, the engine file descriptor. */
	__u32 fd;
	/** @num_engines: out, workers the server should run (VNPU_PARAM_NUM_ENGINES). */
	__u32 num_engines;
	/** @num_slots: out, VNPU_ENGINE_SLOTS. */
	__u32 num_slots;
	/** @ctl_offset: out, mmap offset of the control page on the engine file. */
	__u64 ctl_offset;
	/** @ctl_size: out, bytes of the control page mapping. */
	__u32 ctl_size;
	/** @pad: must be zero. */
	__u32 pad;
	/**
	 * @buffers_offset: out, mmap offset of the buffer window on the
	 * engine file: every operand's @buffer_offset lies in
	 * [@buffers_offset, @buffers_offset + @buffers_size).
	 */
	__u64 buffers_offset;
	/** @buffers_size: out, bytes of the buffer window. */
	__u64 buffers_size;
};

/**
 * struct drm_vnpu_engine_ctl - the control page (read-only for the server)
 *
 * Written by the kernel, read by the server without locks.
 */
struct drm_vnpu_engine_ctl {
	/**
	 * @parked: waits parked on the device right now. While nonzero, a
	 * job that writes memory may VNPU_ENGINE_IOCTL_NOTIFY after the write
	 * (otherwise the waits look again only when the job ends).
	 */
	__u32 parked;
	/** @reserved: zero. */
	__u32 reserved[15];
	/**
	 * @cancel: per slot: nonzero once the job in the slot should stop;
	 * cleared before a job is handed out in it.
	 */
	__u32 cancel[VNPU_ENGINE_SLOTS];
};

/* How a job ended (struct drm_vnpu_engine_done @status). */
/** VNPU_ENGINE_DONE_OK: every task ran. */
#define VNPU_ENGINE_DONE_OK 0
/** VNPU_ENGINE_DONE_FAULT: @task faulted (bad descriptor or access); the rest did not run. */
#define VNPU_ENGINE_DONE_FAULT 1
/** VNPU_ENGINE_DONE_ARITH: @task hit an arithmetic error (integer division by zero). */
#define VNPU_ENGINE_DONE_ARITH 2
/** VNPU_ENGINE_DONE_CANCELED: the cancel word was set; @task is the first task not finished. */
#define VNPU_ENGINE_DONE_CANCELED 3
/** VNPU_ENGINE_DONE_BLOCKED: @task is a WAIT_VALUE whose condition did not hold. */
#define VNPU_ENGINE_DONE_BLOCKED 4
/**
 * VNPU_ENGINE_DONE_NOT_RUN: not started, as it follows a job of its stream
 * handed out with it that did not end OK; @task is its first_task. It is
 * handed out again later (or skipped, if its stream failed).
 */
#define VNPU_ENGINE_DONE_NOT_RUN 5

/**
 * struct drm_vnpu_engine_done - how one job the server held ended
 *
 * Tasks before @task ran (for OK: all of them). Rules (else the RUN fails
 * with -EINVAL): OK has @task 0; FAULT, ARITH and BLOCKED name a task at
 * or after the job's @first_task and before its end, BLOCKED a WAIT_VALUE;
 * CANCELED (@task up to the task count) only once the slot's cancel word
 * is set; NOT_RUN has @task equal to @first_task; and, unless it is
 * NOT_RUN, every job of the stream handed out before this one was reported
 * before it (in an earlier RUN, or earlier in the same @done array). A job
 * reported BLOCKED may be handed out again while the server still holds
 * the jobs behind it: their NOT_RUN reports may come after that.
 */
struct drm_vnpu_engine_done {
	/** @slot: the job's slot. */
	__u32 slot;
	/** @status: VNPU_ENGINE_DONE_*. */
	__u32 status;
	/** @task: index of the task the status is about; 0 for OK. */
	__u32 task;
	/** @pad: must be zero. */
	__u32 pad;
	/** @busy_ns: time the server spent on the job this turn (fdinfo drm-engine-compute). */
	__u64 busy_ns;
};

/* Event types (struct drm_vnpu_engine_event @type). */
/** VNPU_ENGINE_EVENT_JOB: a job to run (struct drm_vnpu_engine_job). */
#define VNPU_ENGINE_EVENT_JOB 1
/** VNPU_ENGINE_EVENT_BUFFER_GONE: a buffer was freed (struct drm_vnpu_engine_gone). */
#define VNPU_ENGINE_EVENT_BUFFER_GONE 2

/**
 * struct drm_vnpu_engine_event - header of every event
 */
struct drm_vnpu_engine_event {
	/** @type: VNPU_ENGINE_EVENT_*. */
	__u32 type;
	/** @size: bytes of the whole event, a multiple of 8; the next one follows. */
	__u32 size;
};

/**
 * struct drm_vnpu_engine_gone - VNPU_ENGINE_EVENT_BUFFER_GONE
 *
 * The buffer's pages are already gone from the server's mappings; the id
 * is never used again by this attachment.
 */
struct drm_vnpu_engine_gone {
	/** @hdr: type VNPU_ENGINE_EVENT_BUFFER_GONE. */
	struct drm_vnpu_engine_event hdr;
	/** @buffer: the buffer's id. */
	__u64 buffer;
};

/**
 * struct drm_vnpu_engine_operand - a checked memory range of a task
 *
 * The range [@offset, @offset + @size) of buffer @buffer, which the server
 * reaches by mapping @buffer_size bytes of the engine file at
 * @buffer_offset (once per buffer).
 */
struct drm_vnpu_engine_operand {
	/** @buffer: the buffer's id for this attachment (nonzero, never reused). */
	__u64 buffer;
	/** @buffer_offset: mmap offset of the buffer on the engine file. */
	__u64 buffer_offset;
	/** @buffer_size: bytes of the buffer (whole pages). */
	__u64 buffer_size;
	/** @offset: first byte of the range in the buffer. */
	__u64 offset;
	/** @size: bytes of the range, nonzero. */
	__u64 size;
	/** @access: VNPU_OPERAND_READ, _WRITE or _WORKSPACE. */
	__u32 access;
	/** @pad: zero. */
	__u32 pad;
};

/**
 * struct drm_vnpu_engine_task - one task of a job, as the server gets it
 *
 * Operands by kind: COPY [dst (WRITE), src (READ)] of the copy's size;
 * FILL [dst (WRITE)]; WRITE_VALUE [word (WRITE)]; WAIT_VALUE [word (READ)];
 * TIMESTAMP [word (WRITE)]; NOP none; OP the task's operands in the
 * client's order.
 */
struct drm_vnpu_engine_task {
	/** @kind: enum drm_vnpu_task_kind. */
	__u32 kind;
	/** @flags: the task's flags (VNPU_TASK_VALUE_64, VNPU_TASK_FILL_32). */
	__u32 flags;
	/** @operand: index of the task's first operand in the job's operands. */
	__u32 operand;
	/** @operand_count: operands of the task. */
	__u32 operand_count;
	/** @desc_offset: OP: byte offset of the descriptor in the job's data. */
	__u32 desc_offset;
	/** @desc_size: OP: bytes of the descriptor; else 0. */
	__u32 desc_size;
	/** @cmp: WAIT_VALUE: VNPU_WAIT_*; else 0. */
	__u32 cmp;
	/** @pad: zero. */
	__u32 pad;
	/**
	 * @value: FILL: the byte (with FILL_32 the 32-bit word); WRITE_VALUE,
	 * WAIT_VALUE: the value (cut to 32 bits unless VALUE_64).
	 */
	__u64 value;
};

/**
 * struct drm_vnpu_engine_job - VNPU_ENGINE_EVENT_JOB
 *
 * Followed by @task_count struct drm_vnpu_engine_task, @operand_count
 * struct drm_vnpu_engine_operand and @data_size bytes of descriptors
 * (padded to a multiple of 8).
 */
struct drm_vnpu_engine_job {
	/** @hdr: type VNPU_ENGINE_EVENT_JOB. */
	struct drm_vnpu_engine_event hdr;
	/** @slot: where the job is held; report it with this slot. */
	__u32 slot;
	/** @task_count: tasks of the job. */
	__u32 task_count;
	/** @first_task: the first task to run (the ones before it are done). */
	__u32 first_task;
	/** @operand_count: operands of all tasks. */
	__u32 operand_count;
	/** @data_size: bytes of descriptors after the operands (a multiple of 8). */
	__u32 data_size;
	/** @stream: the stream's id in its file (for logs and profiles). */
	__u32 stream;
	/** @client: the submitting file's drm-client-id. */
	__u64 client;
	/** @seqno: the job's seqno in its stream. */
	__u64 seqno;
};

/**
 * VNPU_ENGINE_RUN_NONBLOCK: return at once when there is no event. A
 * worker whose non-blocking RUN asked for jobs (@max_jobs nonzero) and got
 * no event is polling until it calls RUN again: while any worker polls,
 * new work wakes no sleeping worker, the polling one takes it. So a worker
 * that polls must call RUN again soon (a blocking RUN when it stops).
 */
#define VNPU_ENGINE_RUN_NONBLOCK (1u << 0)

/**
 * struct drm_vnpu_engine_run - report finished jobs, receive events
 *
 * First every entry of @done is checked (-EINVAL for an unknown status, a
 * nonzero pad, a slot that holds no job, a slot named twice, a task out of
 * range or a status the rules of struct drm_vnpu_engine_done forbid; then
 * nothing is applied) and applied. Then events are written to @events:
 * every pending buffer-gone event that fits, then up to @max_jobs jobs
 * (fewer when other workers are waiting, so work spreads). Without any,
 * the call waits (unless VNPU_ENGINE_RUN_NONBLOCK) until there is one or a
 * signal comes; a signal ends the wait with 0 and no events (never
 * -EINTR: @done was applied).
 *
 * Errors: -EINVAL for @engine not below the device's engine count, unknown
 * @flags, nonzero @pad, @done_count above VNPU_ENGINE_SLOTS, @events_size
 * below VNPU_ENGINE_EVENTS_MIN, or a bad @done entry; -EFAULT for
 * unreadable or unwritable arrays (after @done was applied, the jobs taken
 * go back to the front of their queue); -ENOMEM when @done cannot be
 * copied in (nothing was applied) or a job's buffers cannot be given mmap
 * offsets (the job goes back): call again; -ENOTCONN once the engine was
 * reset (close the file). A reset also removes the buffers from the
 * server's mappings under a job it is running: its accesses raise SIGBUS.
 */
struct drm_vnpu_engine_run {
	/** @engine: in, the calling worker's engine index. */
	__u32 engine;
	/** @flags: in, 0 or VNPU_ENGINE_RUN_NONBLOCK. */
	__u32 flags;
	/** @done: in, pointer to @done_count struct drm_vnpu_engine_done. */
	__u64 done;
	/** @done_count: in, 0 .. VNPU_ENGINE_SLOTS. */
	__u32 done_count;
	/** @max_jobs: in, most jobs to receive (0: events only). */
	__u32 max_jobs;
	/** @events: in, pointer to the event buffer. */
	__u64 events;
	/** @events_size: in, bytes at @events, at least VNPU_ENGINE_EVENTS_MIN. */
	__u32 events_size;
	/** @event_count: out, events written. */
	__u32 event_count;
	/** @events_used: out, bytes written. */
	__u32 events_used;
	/** @pad: must be zero. */
	__u32 pad;
};

/**
 * struct drm_vnpu_engine_notify - a running job wrote memory
 *
 * Parked waits look at their words again. Errors: -EINVAL for nonzero
 * @flags or @pad; -ENOTCONN once the engine was reset.
 */
struct drm_vnpu_engine_notify {
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @pad: must be zero. */
	__u32 pad;
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
#define DRM_IOCTL_VNPU_SIGNAL \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VNPU_SIGNAL, struct drm_vnpu_signal)
#define DRM_IOCTL_VNPU_ENGINE_ATTACH \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VNPU_ENGINE_ATTACH, struct drm_vnpu_engine_attach)
#define DRM_IOCTL_VNPU_STREAM_ABORT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VNPU_STREAM_ABORT, struct drm_vnpu_stream_abort)

/* Ioctls of the engine file (not a DRM file: its own number space). */
#define VNPU_ENGINE_IOCTL_BASE 0xA7
#define VNPU_ENGINE_IOCTL_RUN \
	_IOWR(VNPU_ENGINE_IOCTL_BASE, 0x01, struct drm_vnpu_engine_run)
#define VNPU_ENGINE_IOCTL_NOTIFY \
	_IOW(VNPU_ENGINE_IOCTL_BASE, 0x02, struct drm_vnpu_engine_notify)

#if defined(__cplusplus)
}
#endif

#endif /* VNPU_DRM_H */
