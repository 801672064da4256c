/* SPDX-License-Identifier: MIT */
/*
 * rt.h - libascendcl's runtime core: devices, contexts, streams, events,
 * memory and host callbacks, between the ACL surface (acl_*.c: argument
 * checks, codes, messages) and the driver layer (drv.c: ioctls).
 *
 * Functions returning aclError record a message for aclGetRecentErrMsg()
 * whenever they fail (rt_err()), so callers just pass the code on.
 *
 * Lifetimes: contexts, streams and events are rt_obj's found through the
 * handle registry (rt_handle.h); every object holds a reference on its
 * rt_dev, whose file descriptor is closed when the last reference goes.
 * Lock order: g_dev_lock -> callback lock -> dev->lock -> stream submit_lock
 * -> stream pool_lock -> event lock -> dev->mem_lock -> slot pool lock;
 * a stream's ws_lock and alloc_slot.lock and a device's ws_lock are taken
 * alone. No runtime lock is ever held while an application callback runs.
 */
#ifndef VNPU_LIB_RT_H
#define VNPU_LIB_RT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "acl/acl.h"
#include "drv.h"
#include "rt_allocreg.h"
#include "rt_handle.h"
#include "rt_imap.h"
#include "rt_list.h"
#include "rt_wspool.h"

#define RT_MAX_DEVICES 64
#define RT_FOREVER INT64_MAX

/* ---- errors (rt_error.c) ------------------------------------------------ */

/* Name the ACL function the calling thread is in, for messages. */
void rt_api_enter(const char *name);
/* Record @code as the thread's last error with a message; returns @code. */
aclError rt_err(aclError code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* rt_err() with the ACL code of kernel errno @err and its text appended. */
aclError rt_err_errno(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* While quiet, failures of runtime-internal work record nothing in the
 * calling thread's error state. Returns the previous setting. */
bool rt_err_quiet(bool quiet);
/*
 * The calling thread's error state: the API name used in messages, the last
 * error and the pending message. Saved before an application callback that
 * may call ACL functions and restored after it, so what the callback's own
 * calls leave behind does not outlive it.
 */
#define RT_ERRMSG_MAX 512
struct rt_errsave {
	const char *api;
	aclError last;
	bool has_msg;
	char msg[RT_ERRMSG_MAX];
};
void rt_err_save(struct rt_errsave *save);
void rt_err_restore(const struct rt_errsave *save);
/* aclGetRecentErrMsg(): hand out and clear the thread's message. */
const char *rt_err_take_message(void);
/* aclrtGetLastError()/aclrtPeekAtLastError(). */
aclError rt_err_last(bool clear);

/* ---- time --------------------------------------------------------------- */

int64_t rt_now_ns(void);
/* Absolute deadline for a timeout in ms (-1: RT_FOREVER). */
int64_t rt_deadline(int32_t timeout_ms);

/* ---- library state (rt_init.c) ------------------------------------------ */

aclError rt_init(const char *config_path);
aclError rt_finalize(bool by_reference, uint64_t *remaining);
/* Is the library initialised (aclInit)? *@config (may be NULL) gets the
 * text of the first aclInit's configuration ("" for none), which stays
 * valid for the life of the process. */
bool rt_initialised(const char **config);
/*
 * The enum rt_hazard_policy in effect for new streams: aclInit's (its file,
 * overridden by VNPU_HAZARD_POLICY), or without aclInit VNPU_HAZARD_POLICY
 * read once, or serialize. ACL_ERROR_INVALID_PARAM if that variable is
 * invalid.
 */
aclError rt_hazard_policy(int *policy);

/* ---- device-visible words (rt_slot.c) ---------------------------------- */

/* An 8-byte word in runtime-owned, device-addressable host memory. */
struct rt_slot {
	uint64_t va;
	_Atomic uint64_t *cpu;
	struct rt_slotpage *page;
	unsigned int index;
};

struct rt_slotpool {
	pthread_mutex_t lock;
	struct rt_slotpage *pages;
};

struct rt_dev;
/* A zeroed word of @dev's runtime memory. */
aclError rt_slot_alloc(struct rt_dev *dev, struct rt_slot *slot);
void rt_slot_free(struct rt_dev *dev, struct rt_slot *slot);
/* Unmap and free every page (the device's last reference is going). */
void rt_slotpool_destroy(struct rt_dev *dev);

/* ---- devices (rt_device.c) ----------------------------------------------- */

struct rt_reporter;
struct rt_stream;
struct rt_context;

struct rt_dev {
	atomic_uint refs;
	int fd;
	unsigned int index;

	pthread_mutex_t lock;		/* the lists, dead */
	struct rt_list contexts;	/* struct rt_context.dev_link */
	struct rt_list streams;		/* struct rt_stream.dev_link, by dev_seq */
	uint64_t stream_seq;		/* the dev_seq of the last stream added */
	struct rt_list events;		/* struct rt_event.dev_link */
	struct rt_context *default_ctx;
	bool dead;			/* torn down: nothing new is created */

	pthread_rwlock_t mem_lock;
	struct rt_imap mem;		/* struct rt_alloc by address */
	bool mem_closed;		/* teardown emptied it: no new entries */

	struct rt_slotpool slots;

	struct rt_reporter *worker;	/* runs aclrtLaunchHostFunc functions */

	/* Workspace blocks any stream may take once their last use is done
	 * (rt_pool.c); each holds a reference on its owner stream. */
	pthread_mutex_t ws_lock;
	struct rt_wslist ws_idle;

	/* Bytes of the allocation table's entries, [0] device memory, [1]
	 * pinned host memory, and their highest values (under mem_lock,
	 * written with it held for writing): aclrtGetMemUsageInfo. */
	uint64_t mem_use[2], mem_peak[2];

	/* aclrtGetDeviceUtilizationRate's previous sample: when, and the
	 * engine time this file had used then (util_lock). */
	pthread_mutex_t util_lock;
	int64_t util_ns;
	uint64_t util_busy_ns;

	/* aclrtSetDeviceSatMode's aclrtFloatOverflowMode. */
	atomic_int sat_mode;
};

void rt_dev_get(struct rt_dev *dev);
void rt_dev_put(struct rt_dev *dev);

aclError rt_device_count(uint32_t *count);
/* aclrtSetDevice: count one use and make the default context current. */
aclError rt_device_set(int32_t index);
/* aclrtResetDevice(Force). */
aclError rt_device_reset(int32_t index, bool force);
/* Open device @index for an explicit context (no aclrtSetDevice count):
 * a referenced rt_dev. */
aclError rt_device_open(int32_t index, struct rt_dev **out);
/* The open device with index @index, referenced, or NULL. */
struct rt_dev *rt_device_get_open(int index);
/* Tear down every device (aclFinalize). */
void rt_device_reset_all(void);
aclError rt_device_synchronize(struct rt_dev *dev, int64_t deadline);
aclError rt_device_mem_info(struct rt_dev *dev, size_t *free, size_t *total);
/* ACL_SUCCESS if @index names a device, else ACL_ERROR_RT_INVALID_DEVICEID
 * (or ACL_ERROR_RT_NO_DEVICE-like messages) with a message. */
aclError rt_device_check_id(int32_t index);
/* GET_PARAM @param of device @index, through its open file or, if the
 * process has none, a file opened for the query. */
aclError rt_device_param(int32_t index, uint32_t param, uint64_t *value);
/* Is device @index set (aclrtSetDevice count above zero)? */
bool rt_device_is_set(int32_t index);


/* ---- contexts (rt_context.c) --------------------------------------------- */

#define RT_SYS_OPTS 2	/* aclSysParamOpt values */

struct rt_context {
	struct rt_obj obj;
	struct rt_dev *dev;
	struct rt_stream *default_stream;
	bool is_default;
	struct rt_list dev_link;
	/* aclrtCtxSetSysParamOpt values; unset ones are the process's. */
	_Atomic int64_t sys_opt[RT_SYS_OPTS];
	atomic_bool sys_opt_set[RT_SYS_OPTS];
};

aclError rt_context_create(struct rt_dev *dev, bool is_default, struct rt_context **out);
/* Unregister, destroy the context's streams and events, drop the list ref. */
void rt_context_destroy(struct rt_context *ctx);
/* The calling thread's current context, referenced; NULL if none. */
struct rt_context *rt_context_current(void);
/* rt_context_current() or ACL_ERROR_RT_CONTEXT_NULL. */
aclError rt_context_require(struct rt_context **out);
void rt_context_set_current(struct rt_context *ctx);
struct rt_context *rt_context_lookup(const void *handle);
void rt_context_put(struct rt_context *ctx);

/* ---- streams (rt_stream.c) ----------------------------------------------- */

/* A queue of host functions waiting for their point on one stream. */
struct rt_hostcb {
	struct rt_hostcb *next;
	void (*fn)(void *arg);
	void *arg;
	uint64_t point;			/* run once the stream reaches it */
	uint64_t ticket;		/* blocking: the stream waits for it */
	bool block;
};

struct rt_hostq {
	struct rt_hostcb *head, *tail;
	struct rt_reporter *rep;	/* serving thread, NULL if none */
	struct rt_list rep_link;	/* in rep->queues */
	struct rt_stream *stream;
};

#define RT_JOB_THREADS 64

struct rt_stream {
	struct rt_obj obj;
	struct rt_dev *dev;
	const struct rt_context *ctx;	/* identity only (never dereferenced) */
	_Atomic uint32_t id;		/* kernel stream id (0: none yet) */
	uint32_t syncobj;		/* timeline: point n = n-th submit done */
	uint32_t priority;		/* as requested (CANN's 0..7) */
	uint32_t flags;
	bool is_default;
	struct rt_list dev_link;
	uint64_t dev_seq;		/* its place in dev->streams (dev->lock) */

	pthread_mutex_t submit_lock;
	_Atomic uint64_t last_point;	/* written under submit_lock */
	bool kernel_destroyed;

	/* Host callbacks (rt_callback.c): the queues under the callback
	 * lock, the word and the ticket under submit_lock. */
	struct rt_hostq cbq;		/* aclrtLaunchCallback */
	struct rt_hostq hfq;		/* aclrtLaunchHostFunc */
	struct rt_slot word;		/* blocking callbacks wait on it */
	bool has_word;
	uint64_t ticket;

	/* The rt_op_timeout generation the kernel stream's job timeout was
	 * last set for (submit_lock; 0: never set, the device's). */
	unsigned int timeout_gen;
	/* Kernel VNPU_STREAM_PARAM_REQUIRE_POOL as last set (submit_lock). */
	bool require_pool;

	/*
	 * External allocator (rt_allocreg.h): the registration, read by
	 * operator launches without a lock.
	 */
	struct rt_allocslot alloc_slot;
	/*
	 * Allocations bound to the kernel stream with POOL_BIND, whole, by
	 * device address; each entry references its struct rt_alloc
	 * (rt_bind.c).
	 */
	pthread_mutex_t pool_lock;
	struct rt_imap pool_bound;
	/* The runtime's own workspace blocks last used by this stream. */
	pthread_mutex_t ws_lock;
	struct rt_wslist ws_cache;

	/* The graph this stream's jobs are captured into (rt_ri.h), or NULL;
	 * under submit_lock. */
	struct rt_ri *cap;

	/*
	 * Task exceptions (rt_except.c): the failed job last reported to the
	 * exception callbacks (UINT64_MAX: a failure with no job), and which
	 * thread queued each recent job (tid << 32 | low 32 bits of its
	 * seqno, at seqno % RT_JOB_THREADS). Atomics, no lock.
	 */
	_Atomic uint64_t except_seqno;
	_Atomic uint64_t job_threads[RT_JOB_THREADS];

	/*
	 * Failure handling (rt_stream.c). The CANN failure mode
	 * (ACL_CONTINUE_ON_FAILURE, the default, or ACL_STOP_ON_FAILURE) and
	 * whether the kernel stream has it (submit_lock; read atomically).
	 * The kernel's failed-job count (STREAM_QUERY failed_jobs) as last
	 * reported (atomic). The points the last aclrtStreamAbort discarded,
	 * [abort_first, abort_last] (written under submit_lock, read
	 * atomically; 0, 0: none).
	 */
	_Atomic uint32_t failure_mode;
	_Atomic uint32_t failures_seen;
	_Atomic uint64_t abort_first, abort_last;
	/* ACL_STREAM_ATTR_* values vnpu records without acting on them. */
	_Atomic uint32_t overflow_switch, user_tag, cache_op_info;
};

/* A stream of @ctx on @dev. */
aclError rt_stream_create(struct rt_dev *dev, const struct rt_context *ctx, uint32_t priority, uint32_t flags,
			  bool is_default, struct rt_stream **out);
/* Set the CANN failure mode of @s (checked by the caller) for work queued
 * afterwards: ACL_STOP_ON_FAILURE stops the stream at its first failed
 * task (later tasks are discarded, new ones refused until
 * rt_stream_abort()); ACL_CONTINUE_ON_FAILURE runs the later tasks and
 * reports each failure once, at the next synchronisation covering it. */
aclError rt_stream_set_failure_mode(struct rt_stream *s, uint32_t mode);
/* Discard every task queued on @s so far that has not finished (waits for
 * them say ACL_ERROR_RT_STREAM_ABORT) and let it run new ones, a stopped
 * stream too; with @stop, stop it instead: what is queued does not run,
 * and nothing new is accepted until an abort. */
aclError rt_stream_abort(struct rt_stream *s, bool stop);
/* Stream life-cycle callbacks (rt_stream_state.c, aclrtRegStreamStateCallback):
 * register (or, with a NULL @cb, unregister) under @name; @state is an
 * aclrtStreamState value. */
aclError rt_stream_state_register(const char *name, aclrtStreamStateCallback cb, void *arg);
void rt_stream_state_notify(struct rt_stream *s, aclrtStreamState state);
/* Unregister and destroy; wait for outstanding work unless @force. */
aclError rt_stream_destroy(struct rt_stream *s, bool force);
/* The stream named by @handle in @ctx (NULL: ctx's default stream),
 * referenced. */
aclError rt_stream_resolve(struct rt_context *ctx, const void *handle, struct rt_stream **out);
void rt_stream_put(struct rt_stream *s);

/*
 * A walk over the streams a device has when it begins, one at a time and
 * with no lock held in between. It allocates nothing, so it cannot stop
 * half-way for want of memory; streams destroyed meanwhile are skipped,
 * streams created meanwhile are not visited.
 */
struct rt_stream_walk {
	struct rt_dev *dev;
	uint64_t cursor, end;
};

void rt_stream_walk_begin(struct rt_stream_walk *w, struct rt_dev *dev);
/* aclrtGetStreamAvailableNum on @dev: the per-file stream limit less the
 * process's streams there that have a kernel stream. */
aclError rt_stream_available(struct rt_dev *dev, uint32_t *count);
/* The next stream, referenced (the caller puts it), or NULL at the end. */
struct rt_stream *rt_stream_walk_next(struct rt_stream_walk *w);

/* Queue one job (tasks without operators: no data area); *@point (may be
 * NULL) gets its timeline point. */
aclError rt_stream_submit(struct rt_stream *s, const struct drm_vnpu_task *tasks, uint32_t ntasks,
			  const struct drm_vnpu_sync *in, uint32_t nin, uint64_t *point);
/* The same with s->submit_lock already held. */
aclError rt_stream_submit_locked(struct rt_stream *s, const struct drm_vnpu_task *tasks, uint32_t ntasks,
				 const struct drm_vnpu_sync *in, uint32_t nin, uint64_t *point);
/* Wait until @point has signalled (RT_FOREVER or an absolute deadline):
 * ACL_SUCCESS, ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, or the stream's error. */
aclError rt_stream_wait_point(struct rt_stream *s, uint64_t point, int64_t deadline);
aclError rt_stream_synchronize(struct rt_stream *s, int64_t deadline);
/* Has @point signalled? (no waiting) */
bool rt_stream_point_done(struct rt_stream *s, uint64_t point);
/* Has a task of the stream failed, in either failure mode? (no message) */
bool rt_stream_has_failed(struct rt_stream *s);

/* ---- task exceptions (rt_except.c) ---- */

/* "No such value" in exception information (CANN's 0xFFFFFFFF). */
#define RT_EXCEPT_NONE UINT32_MAX
struct rtExceptionInfo;
/* Replace the aclrtSetExceptionInfoCallback() callback (NULL: none). */
void rt_except_set(aclrtExceptionInfoCallback cb);
/* Add (idempotent) or remove a registered callback; @cb not NULL. */
aclError rt_except_register(aclrtExceptionInfoCallback cb);
aclError rt_except_unregister(aclrtExceptionInfoCallback cb);
/* The process's operator execution timeout (aclrtSetOpExecuteTimeOut and
 * its variants) in ms, 1..VNPU_MAX_JOB_TIMEOUT_MS, 0 for none set (the
 * device's job timeout). Each stream applies a change to its kernel
 * stream at its next submit. */
void rt_op_timeout_set(uint32_t ms);
uint32_t rt_op_timeout_get(void);

/* Job @seqno of @s was queued by this thread (submit_lock held). */
void rt_except_job_queued(struct rt_stream *s, uint64_t seqno);
/* This thread's last queued task id, 0 before its first. */
uint32_t rt_except_last_task_id(void);
/* @s failed in job @failed_seqno (0: unknown) with @code: call the
 * callbacks, once per failure. No runtime lock may be held. */
void rt_except_report(struct rt_stream *s, uint64_t failed_seqno, aclError code);
uint32_t rt_except_task_id(const struct rtExceptionInfo *info);
uint32_t rt_except_stream_id(const struct rtExceptionInfo *info);
uint32_t rt_except_thread_id(const struct rtExceptionInfo *info);
uint32_t rt_except_device_id(const struct rtExceptionInfo *info);
uint32_t rt_except_error_code(const struct rtExceptionInfo *info);
/* aclrtStreamQuery. */
aclError rt_stream_query(struct rt_stream *s, bool *complete);
/* The kernel stream id of @s, created if it has none yet. */
aclError rt_stream_kernel_id(struct rt_stream *s, uint32_t *id);
/*
 * Queue one operator as one job: its VNPU_TASK_OP @task, whose descriptor
 * and operands are in @data (@data_size bytes, the submit's data area).
 * @pool: 1 = the workspace is bound pool memory (the kernel stream must
 * require pool workspace), 0 = runtime memory (it must not), -1 = no
 * workspace (leave the setting). On failure *@kerr is the kernel's errno
 * (0 if the failure was not the submit's); the message recorded is
 * generic, the caller may record a better one.
 */
aclError rt_stream_submit_op(struct rt_stream *s, const struct drm_vnpu_task *task, const void *data,
			     uint32_t data_size, int pool, uint64_t *point, int *kerr);
/* The same for @ntasks tasks (a model's job: operators and copies, their
 * descriptors and operands back to back in @data) after the in-syncs @in. */
aclError rt_stream_submit_ops(struct rt_stream *s, const struct drm_vnpu_task *tasks, uint32_t ntasks,
			      const void *data, uint32_t data_size, const struct drm_vnpu_sync *in, uint32_t nin,
			      int pool, uint64_t *point, int *kerr);

/* ---- events (rt_event.c) ------------------------------------------------- */

struct rt_event_wait {
	struct rt_stream *stream;	/* referenced */
	uint64_t point;
};

struct rt_event {
	struct rt_obj obj;
	struct rt_dev *dev;
	const struct rt_context *ctx;
	uint32_t flags;
	struct rt_list dev_link;

	pthread_mutex_t lock;
	struct rt_slot ts;		/* device timestamp of the last record */
	bool has_ts;
	bool recorded;
	struct rt_stream *rec_stream;	/* referenced while recorded */
	uint64_t rec_point;
	struct rt_event_wait *waits;	/* aclrtStreamWaitEvent not yet done */
	unsigned int nwaits, wait_cap;
};

aclError rt_event_create(struct rt_context *ctx, uint32_t flags, struct rt_event **out);
void rt_event_destroy(struct rt_event *ev);
struct rt_event *rt_event_lookup(const void *handle);
void rt_event_put(struct rt_event *ev);
aclError rt_event_record(struct rt_event *ev, struct rt_stream *s);
aclError rt_event_reset(struct rt_event *ev, struct rt_stream *s);
aclError rt_event_synchronize(struct rt_event *ev, int64_t deadline);
aclError rt_event_query(struct rt_event *ev, bool *complete);
aclError rt_event_query_wait(struct rt_event *ev, bool *complete);
aclError rt_event_elapsed(struct rt_event *start, struct rt_event *end, float *ms);
aclError rt_event_timestamp(struct rt_event *ev, uint64_t *us);
aclError rt_stream_wait_event(struct rt_stream *s, struct rt_event *ev);

/* ---- memory (rt_memory.c, rt_copy.c) ------------------------------------- */

struct rt_alloc {
	atomic_uint refs;
	struct rt_dev *dev;		/* referenced */
	uint64_t addr;			/* what the application sees */
	uint64_t size;			/* bytes the application may use */
	uint64_t bo_size;
	uint64_t va;			/* device address */
	uint32_t handle;
	bool host;			/* aclrtMallocHost */
	bool huge;			/* laid out in 2 MiB pages */
	pthread_mutex_t map_lock;
	_Atomic(void *) cpu;		/* runtime's CPU view of the memory */
	atomic_uint bound;		/* streams whose pool_bound holds it */
	atomic_bool freed;		/* aclrtFree'd: no new binding */
};

/* Where a pointer lies, resolved against the allocation tables. */
struct rt_ptr {
	struct rt_alloc *alloc;		/* referenced; NULL for pageable memory */
	uint64_t offset;
};

aclError rt_malloc(struct rt_dev *dev, size_t size, uint32_t policy, bool align32_only, void **out);
/* Free the allocation starting at @ptr, looked up in @dev (may be NULL)
 * first, then in every other open device. */
aclError rt_free(struct rt_dev *dev, void *ptr, bool host);
/* rt_free() once the device that holds @ptr has finished its work
 * (aclrtFreeWithDevSync): the memory is freed even when a stream of the
 * device failed, whose error is then returned. */
aclError rt_free_synced(struct rt_dev *dev, void *ptr, bool host);
/*
 * The allocation whose bytes [addr, addr + size) hold @ptr (looked up in
 * @dev first, then in every open device), referenced; NULL with
 * ACL_ERROR_INVALID_PARAM (message naming @what) when none does.
 */
aclError rt_alloc_holding(struct rt_dev *dev, const void *ptr, const char *what, struct rt_alloc **out);
aclError rt_malloc_host(struct rt_dev *dev, size_t size, void **out);
/* Free every allocation of @dev (teardown). */
void rt_memory_release_all(struct rt_dev *dev);
/*
 * Resolve [ptr, ptr + len) for @dev (then for the other open devices):
 * inside one allocation, or pageable host memory. A range that starts in
 * an allocation but leaves it, or a device address that is not allocated,
 * fails with ACL_ERROR_INVALID_PARAM (message names @what).
 */
aclError rt_ptr_resolve(struct rt_dev *dev, const void *ptr, uint64_t len, const char *what,
			struct rt_ptr *out);
void rt_ptr_release(struct rt_ptr *p);
/*
 * [ptr, ptr + len) must be device memory of @dev (aclrtMalloc*, not pinned
 * host memory): its allocation, referenced. ACL_ERROR_INVALID_PARAM with a
 * message naming @what otherwise.
 */
aclError rt_device_range(struct rt_dev *dev, const void *ptr, uint64_t len, const char *what,
			 struct rt_alloc **out);
/* rt_device_range() for @n ranges at once (one table lock), keeping no
 * reference. */
aclError rt_device_ranges(struct rt_dev *dev, unsigned int n, const uint64_t *addr, const uint64_t *len,
			  const char *const *what);
void rt_alloc_get(struct rt_alloc *a);
/* Device index whose VA window holds @addr, or -1 (a host address). */
int rt_va_device(uint64_t addr);
/* The CPU address of a resolved pointer (mapping device memory on demand). */
aclError rt_ptr_cpu(struct rt_ptr *p, const void *ptr, void **cpu);
void rt_alloc_put(struct rt_alloc *a);

/* One piece of a copy of several (aclrtMemcpy2d, aclrtMemcpyBatch). */
struct rt_copy_piece {
	void *dst;
	const void *src;
	size_t count;
	int kind;			/* aclrtMemcpyKind */
};

/*
 * Copy the @n pieces of @pc as one call, each checked as rt_memcpy()
 * checks one (on failure *@fail is the index of the piece at fault, else
 * SIZE_MAX). With @async, when every end is device-addressable memory of
 * the stream's device, one job of COPY tasks per VNPU_MAX_TASKS_PER_SUBMIT
 * pieces; otherwise (and without @async) the CPU copies, after the stream's
 * earlier work.
 */
aclError rt_memcpy_pieces(struct rt_dev *dev, const struct rt_copy_piece *pc, size_t n, struct rt_stream *async,
			  size_t *fail);
aclError rt_memcpy(struct rt_dev *dev, void *dst, size_t dst_max, const void *src, size_t count,
		   int kind, struct rt_stream *async);
aclError rt_memset(struct rt_dev *dev, void *dst, size_t max, int value, size_t count,
		   struct rt_stream *async);
/* Store the 32-bit @value at each of the @n words at @dst (4 * @n bytes);
 * as rt_memset() otherwise. A device fill is one FILL_32 task when @dst is
 * aligned to 4, else the CPU's after the stream's earlier work. */
aclError rt_memset_d32(struct rt_dev *dev, void *dst, uint32_t value, size_t n, struct rt_stream *async);
/* Bytes of device memory a memcpy descriptor takes. */
#define RT_MEMCPY_DESC_SIZE 64
/*
 * Copies whose addresses lie in memory, for one device: after @s's earlier
 * work, read the 8-byte bases at @dst_at and @src_at (device or host
 * memory) and enqueue the copy of @count bytes from base + @src_off to base
 * + @dst_off (rt_memcpy_offset), or read the descriptor at @desc
 * (rt_memcpy_desc_run) that rt_memcpy_desc_set() wrote.
 */
aclError rt_memcpy_offset(struct rt_stream *s, void *const *dst_at, uint64_t dst_off, const void *const *src_at,
			  uint64_t src_off, size_t count);
aclError rt_memcpy_desc_set(struct rt_dev *dev, void *desc, const void *src, void *dst, size_t count);
aclError rt_memcpy_desc_run(struct rt_stream *s, const void *desc);
aclError rt_value_op(struct rt_stream *s, void *addr, uint64_t value, uint32_t cmp, bool wait);
/* Fill @task as a 64-bit WAIT_VALUE (@wait, VNPU_WAIT_* @cmp) or
 * WRITE_VALUE of @value at device address @va. */
void rt_value_task(struct drm_vnpu_task *task, uint64_t va, uint64_t value, uint32_t cmp, bool wait);
/* The device address of the 8-byte word at @addr for value tasks: aligned,
 * memory of @dev. */
aclError rt_value_addr(struct rt_dev *dev, void *addr, uint64_t *va);
/* ACL_VALUE_WAIT_* @flag to the kernel's VNPU_WAIT_* and back. */
aclError rt_value_cmp(uint32_t flag, uint32_t *cmp);
uint32_t rt_value_flag(uint32_t cmp);

/* ---- bound pools (rt_bind.c) and the runtime's workspace pool (rt_pool.c) - */

/* Bind the allocation @a (all of it) to @s's kernel stream unless it is
 * already: one POOL_BIND the first time, nothing afterwards. */
aclError rt_pool_bind(struct rt_stream *s, struct rt_alloc *a);
/* Is [va, va + size) inside one allocation bound to @s? (The steady-state
 * check: one per-stream lock, no allocation-table lookup.) */
bool rt_pool_is_bound(struct rt_stream *s, uint64_t va, uint64_t size);
/* @a is being freed: unbind it from every stream that bound it. */
void rt_pool_alloc_freed(struct rt_alloc *a);
/* Drop @s's bindings (its kernel stream is gone); s->pool_lock held. */
void rt_pool_stream_unbound(struct rt_stream *s);
/* A runtime workspace block of at least @size bytes for @s. */
aclError rt_pool_ws_take(struct rt_stream *s, uint64_t size, struct rt_wsblock **out);
/* Give @b back after its use by the job at @point of @s. */
void rt_pool_ws_give(struct rt_stream *s, struct rt_wsblock *b, uint64_t point);
/* @s is being destroyed: its blocks go to the device (or are freed). */
void rt_pool_ws_stream_gone(struct rt_stream *s);
/* Free the blocks still kept by @s (its last reference is going). */
void rt_pool_ws_stream_release(struct rt_stream *s);
/* @dev is being torn down: free its idle blocks. */
void rt_pool_ws_device_gone(struct rt_dev *dev);

/* ---- operators (rt_opexec.c) --------------------------------------------- */

struct vops_plan;

/* aclopExecute / aclopExecuteV2 / aclopCompileAndExecuteV2 on @stream (NULL:
 * the current context's default stream). With @refresh (the V2 calls)
 * out_desc[0] gets the shape the operator produces; without it no
 * descriptor is written. */
aclError rt_op_execute(const char *type, int nin, aclTensorDesc *in_desc[], aclDataBuffer *in[], int nout,
		       aclTensorDesc *out_desc[], aclDataBuffer *out[], const aclopAttr *attr, const void *stream,
		       bool refresh);
/* Run an operator already planned (rt_op_plan()) with these buffers: the
 * second half of rt_op_execute(), which aclopExecWithHandle uses with the
 * plan its handle keeps. @plan is only read (threads may share a handle).
 * @refresh_desc, if not NULL, gets the output shapes (nout of them). */
aclError rt_op_run(const struct vops_plan *plan, int nin, aclDataBuffer *const in[], int nout,
		   aclDataBuffer *const out[], const void *stream, aclTensorDesc *const refresh_desc[]);

/* ---- host callbacks (rt_callback.c) -------------------------------------- */

aclError rt_subscribe(uint64_t thread, struct rt_stream *s);
aclError rt_unsubscribe(uint64_t thread, struct rt_stream *s);
aclError rt_launch_callback(struct rt_stream *s, void (*fn)(void *), void *arg, bool block);
aclError rt_launch_host_func(struct rt_stream *s, void (*fn)(void *), void *arg);
aclError rt_process_report(int32_t timeout_ms);
/* A stream is going away: drop its subscription and pending functions
 * (releasing any stream waits on them). */
void rt_callback_stream_gone(struct rt_stream *s);
/* A device is being torn down: stop its host-function worker. */
void rt_callback_device_gone(struct rt_dev *dev);

#endif /* VNPU_LIB_RT_H */
