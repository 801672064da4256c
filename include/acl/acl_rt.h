/* SPDX-License-Identifier: MIT */
/*
 * vnpu — runtime part of the Ascend CANN ACL API: initialisation, devices,
 * contexts, streams, events, memory and host callbacks.
 *
 * Names, values and prototypes are CANN's. Each comment says what CANN
 * specifies and, marked "vnpu:", where vnpu's libascendcl differs or checks
 * more. General rules (see also acl_base.h):
 *  - Stream, event and memory calls act in the calling thread's current
 *    context, which aclrtSetDevice() or aclrtSetCurrentContext() establishes;
 *    without one they fail with ACL_ERROR_RT_CONTEXT_NULL.
 *  - Where a stream argument may be NULL it means the current context's
 *    default stream. A stream of another context is rejected with
 *    ACL_ERROR_RT_STREAM_CONTEXT, as in CANN.
 *  - A handle that is not a live object of its kind (never created,
 *    destroyed, or of another kind) is rejected with ACL_ERROR_INVALID_PARAM;
 *    vnpu validates every handle before using it.
 *  - "Async" calls only enqueue work: success means the task was accepted.
 *    A task that later fails marks its stream failed; the next synchronising
 *    call on that stream returns the error.
 */
#ifndef VNPU_ACL_ACL_RT_H
#define VNPU_ACL_ACL_RT_H

#include <stddef.h>
#include <stdint.h>

#include "acl_base.h"
#include "acl_rt_allocator.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Version of the ACL API these headers describe (aclrtGetVersion). */
#define ACL_MAJOR_VERSION 1
#define ACL_MINOR_VERSION 17
#define ACL_PATCH_VERSION 0

/* ---- Flags ----------------------------------------------------------------- */

/* aclrtCreateEventWithFlag() flags; may be OR-ed. */
#define ACL_EVENT_SYNC 0x00000001U
#define ACL_EVENT_CAPTURE_STREAM_PROGRESS 0x00000002U
#define ACL_EVENT_TIME_LINE 0x00000008U
#define ACL_EVENT_DEVICE_USE_ONLY 0x00000010U
#define ACL_EVENT_EXTERNAL 0x00000020U
#define ACL_EVENT_IPC 0x00000040U

/* aclrtRecordEventWithFlag() and aclrtStreamWaitEventWithFlag() flags. */
#define ACL_EVENT_RECORD_DEFAULT 0x0U
#define ACL_EVENT_RECORD_EXTERNAL 0x01U
#define ACL_EVENT_WAIT_DEFAULT 0x0U
#define ACL_EVENT_WAIT_EXTERNAL 0x01U

/* aclrtCreateStreamWithConfig() flags; may be OR-ed. */
#define ACL_STREAM_FAST_LAUNCH 0x00000001U
#define ACL_STREAM_FAST_SYNC 0x00000002U
#define ACL_STREAM_PERSISTENT 0x00000004U
#define ACL_STREAM_HUGE 0x00000008U
#define ACL_STREAM_CPU_SCHEDULE 0x00000010U
#define ACL_STREAM_DEVICE_USE_ONLY 0x00000020U

/*
 * aclrtValueWait() conditions, tested on the 64-bit word at devAddr:
 *   GEQ  (int64_t)(*devAddr - value) >= 0
 *   EQ   *devAddr == value
 *   AND  (*devAddr & value) != 0
 *   NOR  ~(*devAddr | value) != 0
 * CANN has published both spellings with the same values: ACL_VALUE_WAIT_*
 * in its API documentation, ACL_STREAM_WAIT_VALUE_* in its current headers.
 */
#define ACL_VALUE_WAIT_GEQ 0x0U
#define ACL_VALUE_WAIT_EQ 0x1U
#define ACL_VALUE_WAIT_AND 0x2U
#define ACL_VALUE_WAIT_NOR 0x3U
#define ACL_STREAM_WAIT_VALUE_GEQ 0x00000000U
#define ACL_STREAM_WAIT_VALUE_EQ 0x00000001U
#define ACL_STREAM_WAIT_VALUE_AND 0x00000002U
#define ACL_STREAM_WAIT_VALUE_NOR 0x00000003U

/* ---- Enumerations ---------------------------------------------------------- */

/* Where the application runs relative to the device (aclrtGetRunMode). */
typedef enum aclrtRunMode {
    ACL_DEVICE,
    ACL_HOST,
} aclrtRunMode;

/* aclrtStreamQuery() result. */
typedef enum aclrtStreamStatus {
    ACL_STREAM_STATUS_COMPLETE = 0,
    ACL_STREAM_STATUS_NOT_READY = 1,
    ACL_STREAM_STATUS_RESERVED = 0xFFFF,
} aclrtStreamStatus;

/* Stream life-cycle points of the stream-state callbacks
 * (aclrtRegStreamStateCallback). */
typedef enum {
    ACL_RT_STREAM_STATE_CREATE_POST = 1,
    ACL_RT_STREAM_STATE_DESTROY_PRE,
} aclrtStreamState;
typedef void (*aclrtStreamStateCallback)(aclrtStream stm, aclrtStreamState state, void *args);

/* Result of CANN's deprecated aclrtQueryEvent(). */
typedef enum aclrtEventStatus {
    ACL_EVENT_STATUS_COMPLETE = 0,
    ACL_EVENT_STATUS_NOT_READY = 1,
    ACL_EVENT_STATUS_RESERVED = 2,
} aclrtEventStatus;

/* aclrtQueryEventStatus() result. Note: numbered the other way round from
 * aclrtEventStatus. */
typedef enum aclrtEventRecordedStatus {
    ACL_EVENT_RECORDED_STATUS_NOT_READY = 0,
    ACL_EVENT_RECORDED_STATUS_COMPLETE = 1,
} aclrtEventRecordedStatus;

/* aclrtQueryEventWaitStatus() result. */
typedef enum aclrtEventWaitStatus {
    ACL_EVENT_WAIT_STATUS_COMPLETE = 0,
    ACL_EVENT_WAIT_STATUS_NOT_READY = 1,
    ACL_EVENT_WAIT_STATUS_RESERVED = 0xFFFF,
} aclrtEventWaitStatus;

/* Page-size and placement policy of aclrtMalloc(). Pass exactly one value. */
typedef enum aclrtMemMallocPolicy {
    ACL_MEM_MALLOC_HUGE_FIRST,          /* 0 */
    ACL_MEM_MALLOC_HUGE_ONLY,           /* 1 */
    ACL_MEM_MALLOC_NORMAL_ONLY,         /* 2 */
    ACL_MEM_MALLOC_HUGE_FIRST_P2P,      /* 3 */
    ACL_MEM_MALLOC_HUGE_ONLY_P2P,       /* 4 */
    ACL_MEM_MALLOC_NORMAL_ONLY_P2P,     /* 5 */
    ACL_MEM_MALLOC_HUGE1G_ONLY,         /* 6 */
    ACL_MEM_MALLOC_HUGE1G_ONLY_P2P,     /* 7 */
    ACL_MEM_TYPE_LOW_BAND_WIDTH = 0x0100,
    ACL_MEM_TYPE_HIGH_BAND_WIDTH = 0x1000,
    ACL_MEM_ACCESS_USER_SPACE_READONLY = 0x100000,
} aclrtMemMallocPolicy;

/* Direction of aclrtMemcpy()/aclrtMemcpyAsync(). */
typedef enum aclrtMemcpyKind {
    ACL_MEMCPY_HOST_TO_HOST,            /* 0 */
    ACL_MEMCPY_HOST_TO_DEVICE,          /* 1 */
    ACL_MEMCPY_DEVICE_TO_HOST,          /* 2 */
    ACL_MEMCPY_DEVICE_TO_DEVICE,        /* 3 */
    ACL_MEMCPY_DEFAULT,                 /* 4: inferred from the two addresses */
    ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE,   /* 5: host data staged; source reusable on return */
    ACL_MEMCPY_INNER_DEVICE_TO_DEVICE,  /* 6: within one device */
    ACL_MEMCPY_INTER_DEVICE_TO_DEVICE,  /* 7: between two devices */
} aclrtMemcpyKind;

/* Memory kind queried by aclrtGetMemInfo(). */
typedef enum aclrtMemAttr {
    ACL_DDR_MEM,
    ACL_HBM_MEM,
    ACL_DDR_MEM_HUGE,
    ACL_DDR_MEM_NORMAL,
    ACL_HBM_MEM_HUGE,
    ACL_HBM_MEM_NORMAL,
    ACL_DDR_MEM_P2P_HUGE,
    ACL_DDR_MEM_P2P_NORMAL,
    ACL_HBM_MEM_P2P_HUGE,
    ACL_HBM_MEM_P2P_NORMAL,
    ACL_HBM_MEM_HUGE1G,
    ACL_HBM_MEM_P2P_HUGE1G,
    ACL_MEM_NORMAL,
    ACL_MEM_HUGE,
    ACL_MEM_HUGE1G,
    ACL_MEM_P2P_NORMAL,
    ACL_MEM_P2P_HUGE,
    ACL_MEM_P2P_HUGE1G,
} aclrtMemAttr;

/* Whether a callback blocks the tasks queued after it (aclrtLaunchCallback). */
typedef enum aclrtCallbackBlockType {
    ACL_CALLBACK_NO_BLOCK,
    ACL_CALLBACK_BLOCK,
} aclrtCallbackBlockType;

/* Scope of aclrtGetLastError()/aclrtPeekAtLastError(). */
typedef enum aclrtLastErrLevel {
    ACL_RT_THREAD_LEVEL = 0,
} aclrtLastErrLevel;

/* Host function run by aclrtLaunchCallback() on the subscribed thread. */
typedef void (*aclrtCallback)(void *userData);

/* Host function run by aclrtLaunchHostFunc(). */
typedef void (*aclrtHostFunc)(void *args);

/* ---- Initialisation and errors -------------------------------------------- */

/*
 * Initialise the library; call it before any other ACL function. configPath
 * is NULL or a JSON configuration file ("{}" is valid).
 * Calling it again returns ACL_ERROR_REPEAT_INITIALIZE, which callers may
 * ignore: the first call's configuration stays in effect. Initialising again
 * after aclFinalize() with a different configuration than the first one
 * returns ACL_ERROR_INVALID_PARAM.
 * vnpu: a file that cannot be read fails with ACL_ERROR_INVALID_FILE, one
 * that is not valid JSON (or not a JSON object) with ACL_ERROR_PARSE_FILE
 * (CANN leaves the code unspecified). Keys vnpu does not use are ignored.
 * vnpu reads one option of its own, {"vnpu": {"hazard_policy":
 * "serialize" | "strict"}}: what the kernel does when an operator's
 * workspace is still in use by another stream's running work (wait for it,
 * or refuse the launch); a bad value fails with ACL_ERROR_FILE_ATTR_INVALID.
 * The environment variable VNPU_HAZARD_POLICY (same values) overrides the
 * file; an invalid value fails with ACL_ERROR_INVALID_PARAM. The policy
 * applies to streams created afterwards; the default is "serialize".
 * As in CANN, other runtime functions do not require aclInit(). Without it
 * VNPU_HAZARD_POLICY still applies: it is read once, when the first
 * stream's kernel side is made (at its first work), and an invalid value
 * then makes that fail with ACL_ERROR_INVALID_PARAM.
 */
ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath);

/*
 * Tear the library down: one call undoes any number of aclInit() calls.
 * A further call returns ACL_ERROR_REPEAT_FINALIZE. Release streams,
 * contexts and devices first.
 */
ACL_FUNC_VISIBILITY aclError aclFinalize(void);

/*
 * Reference-counted finalisation: drop one aclInit() reference and tear down
 * only when none is left. *refCount (if refCount is not NULL) receives the
 * references that remain. With no reference left, returns
 * ACL_ERROR_REPEAT_FINALIZE.
 */
ACL_FUNC_VISIBILITY aclError aclFinalizeReference(uint64_t *refCount);

/*
 * Return and clear the description of the calling thread's most recent
 * failed ACL call; NULL if there is none. The string stays valid until the
 * thread's next call of this function.
 */
ACL_FUNC_VISIBILITY const char *aclGetRecentErrMsg(void);

/* Return and clear the error code of the calling thread's most recent failed
 * call (ACL_SUCCESS if none). level must be ACL_RT_THREAD_LEVEL. */
ACL_FUNC_VISIBILITY aclError aclrtGetLastError(aclrtLastErrLevel level);

/* Like aclrtGetLastError() but leaves the error in place. */
ACL_FUNC_VISIBILITY aclError aclrtPeekAtLastError(aclrtLastErrLevel level);

/* Store the ACL API version (ACL_MAJOR_VERSION.ACL_MINOR_VERSION.
 * ACL_PATCH_VERSION) in the three outputs. ACL_ERROR_INVALID_PARAM for NULL.
 * (Newer CANN headers deprecate it in favour of aclSysGetVersion, which vnpu
 * does not provide.) */
ACL_FUNC_VISIBILITY aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion, int32_t *patchVersion);

/* ---- Devices --------------------------------------------------------------- */

/*
 * Bind device deviceId to the calling thread. The first call for a device
 * creates its default context (with its default stream), shared by all
 * threads that set that device, and makes it current. Calls are counted per
 * device; aclrtResetDevice() releases one count.
 * An id outside [0, aclrtGetDeviceCount()) fails with
 * ACL_ERROR_RT_INVALID_DEVICEID.
 */
ACL_FUNC_VISIBILITY aclError aclrtSetDevice(int32_t deviceId);

/*
 * Release one aclrtSetDevice() count. At zero the device's default context,
 * its default stream and the streams created in it are released after their
 * outstanding tasks finish. Destroy your events, streams and contexts first.
 * vnpu: at zero everything created on the device goes: every context,
 * stream and event (their handles become invalid) and all its memory
 * (aclrtMalloc and aclrtMallocHost). Resetting a device that is not set
 * succeeds and does nothing, also when contexts created on it with
 * aclrtCreateContext() are in use (aclrtResetDeviceForce() or aclFinalize()
 * releases those).
 */
ACL_FUNC_VISIBILITY aclError aclrtResetDevice(int32_t deviceId);

/* Release the device's resources as aclrtResetDevice() does at count zero,
 * whatever the count. */
ACL_FUNC_VISIBILITY aclError aclrtResetDeviceForce(int32_t deviceId);

/* Device of the calling thread's current context. Fails with
 * ACL_ERROR_RT_CONTEXT_NULL if the thread has none. */
ACL_FUNC_VISIBILITY aclError aclrtGetDevice(int32_t *deviceId);

/* Number of devices. vnpu: the number of vnpu devices the kernel module
 * created; fails with ACL_ERROR_RT_NO_DEVICE if the module is not loaded. */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCount(uint32_t *count);

/* Wait until every task on every stream of the current device has finished.
 * Returns the first error of a failed stream, if any; the other streams are
 * still waited for. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDevice(void);

/*
 * aclrtSynchronizeDevice() with a limit: timeout in milliseconds, -1 waits
 * forever. vnpu: on expiry returns ACL_ERROR_RT_STREAM_SYNC_TIMEOUT (also
 * when a stream has failed before) and stops waiting; the work keeps
 * running. 0 checks without waiting; below -1 is ACL_ERROR_RT_PARAM_INVALID.
 */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout);

/* Whether the application runs on the device or on a host. vnpu: always
 * ACL_HOST. */
ACL_FUNC_VISIBILITY aclError aclrtGetRunMode(aclrtRunMode *runMode);

/* ---- Contexts -------------------------------------------------------------- */

/* Create a context on deviceId and make it the calling thread's current
 * context. */
ACL_FUNC_VISIBILITY aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId);

/* Destroy a context created by aclrtCreateContext(); destroy its streams
 * and events first. A device's default context cannot be destroyed this way
 * (aclrtResetDevice releases it; ACL_ERROR_INVALID_PARAM).
 * vnpu: streams and events still alive in the context are destroyed with it
 * (after their work); a thread whose current context it was has none. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyContext(aclrtContext context);

/* Make context the calling thread's current context (last call wins). The
 * context's device must not have been reset. */
ACL_FUNC_VISIBILITY aclError aclrtSetCurrentContext(aclrtContext context);

/* The calling thread's current context. Fails with ACL_ERROR_RT_CONTEXT_NULL
 * if there is none. */
ACL_FUNC_VISIBILITY aclError aclrtGetCurrentContext(aclrtContext *context);

/* The default stream of the current context. */
ACL_FUNC_VISIBILITY aclError aclrtCtxGetCurrentDefaultStream(aclrtStream *stream);

/* ---- Streams --------------------------------------------------------------- */

/* Create a stream in the current context. Tasks on one stream run in the
 * order they were enqueued; tasks on different streams may run concurrently. */
ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream *stream);

/*
 * Create a stream with a priority (0 highest .. 7 lowest; values above 7 are
 * treated as 7) and ACL_STREAM_* flags. Unknown flag bits give an ordinary
 * stream, as in CANN. vnpu: the flags are performance hints of real hardware
 * and change nothing; the device scheduler has three levels: priority 0
 * (also aclrtCreateStream's and the default streams') is high, 1..3 normal,
 * 4..7 low. When the device has no stream left: ACL_ERROR_RT_NO_STREAM_RESOURCE.
 */
ACL_FUNC_VISIBILITY aclError aclrtCreateStreamWithConfig(aclrtStream *stream, uint32_t priority, uint32_t flag);

/* ---- stream configuration objects (issue 17) ----------------------------- */

/* What aclrtSetStreamConfigOpt() sets in a stream configuration. */
typedef enum {
    ACL_RT_STREAM_WORK_ADDR_PTR = 0,	/* void *: model work memory */
    ACL_RT_STREAM_WORK_SIZE,		/* size_t: its size */
    ACL_RT_STREAM_FLAG,			/* ACL_STREAM_* flags */
    ACL_RT_STREAM_PRIORITY,		/* uint32_t, as for aclrtCreateStreamWithConfig() */
} aclrtStreamConfigAttr;

/* A stream configuration: all zero when created. */
typedef struct aclrtStreamConfigHandle {
    void *workptr;
    size_t workSize;
    size_t flag;
    uint32_t priority;
} aclrtStreamConfigHandle;

/* A new configuration (NULL when out of memory); destroy it with
 * aclrtDestroyStreamConfigHandle() (NULL: ACL_ERROR_INVALID_PARAM). */
ACL_FUNC_VISIBILITY aclrtStreamConfigHandle *aclrtCreateStreamConfigHandle(void);
ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle *handle);
/*
 * Set one attribute from attrValue, valueSize bytes: a pointer for
 * ACL_RT_STREAM_WORK_ADDR_PTR, an unsigned integer of 4 or 8 bytes for the
 * others. NULL handle or attrValue, an unknown attribute, another size or
 * a flag or priority above UINT32_MAX: ACL_ERROR_INVALID_PARAM. vnpu: the
 * work memory is recorded but not used; a stream's operators and models
 * take their workspace from its registered allocator or the runtime pool.
 */
ACL_FUNC_VISIBILITY aclError aclrtSetStreamConfigOpt(aclrtStreamConfigHandle *handle, aclrtStreamConfigAttr attr,
                                                     const void *attrValue, size_t valueSize);
/* aclrtCreateStreamWithConfig() with the configuration's priority and
 * flags; a NULL handle creates a stream as aclrtCreateStream() does. */
ACL_FUNC_VISIBILITY aclError aclrtCreateStreamV2(aclrtStream *stream, const aclrtStreamConfigHandle *handle);

/*
 * Destroy a stream of the current context after its outstanding tasks have
 * finished (synchronising first is still recommended). The default stream
 * cannot be destroyed.
 * vnpu: also drops the stream's allocator registration
 * (aclrtAllocatorRegister) and the pool bindings made for it; CANN keeps a
 * stale registration entry until aclrtAllocatorUnregister().
 */
ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream);

/* Destroy a stream without waiting for its outstanding tasks: tasks that
 * have not started are discarded. Otherwise as aclrtDestroyStream(). */
ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamForce(aclrtStream stream);

/* Wait until every task enqueued on stream has finished. Returns the
 * stream's error if a task failed. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream);

/* aclrtSynchronizeStream() with a limit: timeout in milliseconds, -1 waits
 * forever. On expiry returns ACL_ERROR_RT_STREAM_SYNC_TIMEOUT; the work keeps
 * running. A timeout below -1 is ACL_ERROR_RT_PARAM_INVALID (as in CANN);
 * vnpu: 0 checks without waiting. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout);

/* ---- operator execution timeouts (issue 17) ------------------------------ */

/*
 * How long one task (operator, copy, wait...) may run before it is
 * cancelled and its stream fails with ACL_ERROR_RT_AICORE_TIMEOUT; for the
 * whole process, the last call wins, and it applies to work queued after
 * the call. vnpu: this is the kernel job timeout of every stream (a job is
 * one launch); it counts in milliseconds (values are rounded up to one)
 * and is at most one hour, which is also what 0 means. Without a call,
 * the device's job timeout (the job_timeout_ms module parameter) applies.
 */
ACL_FUNC_VISIBILITY aclError aclrtSetOpExecuteTimeOut(uint32_t timeout);	/* seconds */
ACL_FUNC_VISIBILITY aclError aclrtSetOpExecuteTimeOutWithMs(uint32_t timeout);	/* milliseconds */
/* Microseconds; *actualTimeout gets the timeout that applies, in
 * microseconds. ACL_ERROR_INVALID_PARAM for a NULL actualTimeout. */
ACL_FUNC_VISIBILITY aclError aclrtSetOpExecuteTimeOutV2(uint64_t timeout, uint64_t *actualTimeout);
/* The timeout in effect, in milliseconds: the one set, else the job
 * timeout of the current device (device 0 without a context). */
ACL_FUNC_VISIBILITY aclError aclrtGetOpExecuteTimeout(uint32_t *const timeoutMs);
/* The timeout's granularity in microseconds: 1000 on vnpu. */
ACL_FUNC_VISIBILITY aclError aclrtGetOpTimeOutInterval(uint64_t *interval);

/* Whether all tasks of stream have finished, without waiting. A failed
 * stream whose work has all ended returns its error. */
ACL_FUNC_VISIBILITY aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus *status);

/* Make later tasks on stream wait until the work recorded in event has
 * finished. Returns without waiting. vnpu: the wait is for the record made
 * before this call; an event never recorded (or reset) makes nothing wait;
 * an event of another device is rejected with ACL_ERROR_INVALID_PARAM. */
ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event);

/*
 * Enqueue on stream a write of the 64-bit value to device memory at devAddr
 * (8-byte aligned). flag is reserved and must be 0.
 * vnpu: devAddr must be 8-byte aligned and lie inside memory of the
 * stream's device: aclrtMalloc memory, or aclrtMallocHost memory (which the
 * host can then watch); anything else, and flag != 0, is rejected with
 * ACL_ERROR_INVALID_PARAM at enqueue.
 */
ACL_FUNC_VISIBILITY aclError aclrtValueWrite(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream);

/*
 * Enqueue on stream a wait until the 64-bit word at devAddr satisfies the
 * condition flag (ACL_VALUE_WAIT_*) against value; later tasks on the stream
 * run only after it. vnpu: devAddr is checked as for aclrtValueWrite(); an
 * unknown flag is rejected with ACL_ERROR_INVALID_PARAM; a wait that never
 * ends fails the stream (ACL_ERROR_RT_AICORE_TIMEOUT) when the device's job
 * timeout expires. GEQ compares as unsigned numbers (*devAddr >= value),
 * which differs from CANN's wrap-around comparison only for values 2^63 or
 * more apart.
 */
ACL_FUNC_VISIBILITY aclError aclrtValueWait(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream);

/* ---- Streams: identity and creation settings (issue 17, streams group) ---- */

/* The ID of stream (NULL: the current context's default stream): unique in
 * the process while it runs, never reused, >= 0. NULL streamId, or a stream
 * that is not live, is rejected with ACL_ERROR_INVALID_PARAM. */
ACL_FUNC_VISIBILITY aclError aclrtStreamGetId(aclrtStream stream, int32_t *streamId);

/* The priority stream was created with (aclrtCreateStreamWithConfig's; 0
 * for aclrtCreateStream's and the default streams). Errors as for
 * aclrtStreamGetId(). */
ACL_FUNC_VISIBILITY aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t *priority);

/* The ACL_STREAM_* flags stream was created with, OR-ed (0: none; the
 * default streams have none). Errors as for aclrtStreamGetId(). */
ACL_FUNC_VISIBILITY aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t *flags);

/* How many more streams the current context's device can give this
 * process: the kernel's per-process stream limit less the streams the
 * process holds there (a default stream counts once it has queued work).
 * Other processes' streams also count against a device-wide limit that
 * this number does not see. ACL_ERROR_INVALID_PARAM for NULL;
 * ACL_ERROR_RT_CONTEXT_NULL without a current context. */
ACL_FUNC_VISIBILITY aclError aclrtGetStreamAvailableNum(uint32_t *streamCount);

/* ---- Streams: failure mode, attributes, abort (issue 17, streams group) ---- */

/* aclrtSetStreamFailureMode() modes (ACL_STREAM_ATTR_FAILURE_MODE values). */
#define ACL_CONTINUE_ON_FAILURE 0x00000000U
#define ACL_STOP_ON_FAILURE 0x00000001U

/* What aclrtSetStreamAttribute() / aclrtGetStreamAttribute() set or read. */
typedef enum {
    ACL_STREAM_ATTR_FAILURE_MODE = 1,
    ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK = 2,
    ACL_STREAM_ATTR_USER_CUSTOM_TAG = 3,
    ACL_STREAM_ATTR_CACHE_OP_INFO = 4,
    ACL_STREAM_ATTR_PRIORITY = 5,
} aclrtStreamAttr;

/* A stream attribute's value: the member named after the attribute. */
typedef union {
    uint64_t failureMode;
    uint32_t overflowSwitch;
    uint32_t userCustomTag;
    uint32_t cacheOpInfoSwitch;
    uint32_t streamPriority;
    uint32_t reserve[4];
} aclrtStreamAttrValue;

/*
 * What a failed task does to the later tasks of stream (NULL: the current
 * context's default stream), for tasks queued after the call:
 * ACL_CONTINUE_ON_FAILURE (the default) runs them, and the next
 * synchronisation covering the failure reports it once;
 * ACL_STOP_ON_FAILURE does not run them, and the stream accepts no new
 * task (ACL_ERROR_RT_AICORE_EXCEPTION or the failure's code) until
 * aclrtStreamAbort(). Another mode is ACL_ERROR_INVALID_PARAM. vnpu: a
 * second call changes the mode again (CANN allows one call per stream);
 * stopping one stream does not stop the other streams of its context.
 */
ACL_FUNC_VISIBILITY aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode);

/*
 * Set an attribute of stream (NULL: the default stream, except for
 * ACL_STREAM_ATTR_FAILURE_MODE, which default streams refuse with
 * ACL_ERROR_INVALID_PARAM as in CANN). FAILURE_MODE is
 * aclrtSetStreamFailureMode(). vnpu records FLOAT_OVERFLOW_CHECK (0 or 1),
 * USER_CUSTOM_TAG and CACHE_OP_INFO (0 or 1) for aclrtGetStreamAttribute()
 * without acting on them yet; PRIORITY is fixed at creation
 * (ACL_ERROR_RT_FEATURE_NOT_SUPPORT). NULL value, an unknown attribute or
 * a bad value: ACL_ERROR_INVALID_PARAM.
 */
ACL_FUNC_VISIBILITY aclError aclrtSetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
                                                     aclrtStreamAttrValue *value);

/* Read an attribute of stream (NULL: the default stream) into the member
 * of *value named after it (failureMode, overflowSwitch, userCustomTag,
 * cacheOpInfoSwitch, streamPriority). Errors as for the setter. */
ACL_FUNC_VISIBILITY aclError aclrtGetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
                                                     aclrtStreamAttrValue *value);

/*
 * Discard the tasks of stream that have not finished: a running task is
 * asked to stop, the others never run. Returns without waiting for the
 * running one. Waits (synchronize, event synchronize) for discarded work
 * return ACL_ERROR_RT_STREAM_ABORT; failures not reported yet are
 * forgotten. The stream then runs new tasks, also one that had stopped on a
 * failure or by aclrtStreamStop().
 * NULL stream: the default stream.
 */
ACL_FUNC_VISIBILITY aclError aclrtStreamAbort(aclrtStream stream);

/*
 * Stop stream: its running task is asked to stop and its queued tasks do
 * not run; until aclrtStreamAbort(), new tasks are refused and
 * synchronisations return ACL_ERROR_RT_STREAM_ABORT. The default stream
 * (NULL) is ACL_ERROR_INVALID_PARAM, as in CANN.
 */
ACL_FUNC_VISIBILITY aclError aclrtStreamStop(aclrtStream stream);

/*
 * Call callback(stream, state, args) right after a stream is created
 * (ACL_RT_STREAM_STATE_CREATE_POST) and right before one is destroyed
 * (ACL_RT_STREAM_STATE_DESTROY_PRE), for explicit and default streams,
 * in the thread that creates or destroys it. regName names the
 * registration: NULL or "" is ACL_ERROR_INVALID_PARAM; a name registered
 * already is ACL_ERROR_INVALID_PARAM (no repeated registration). A NULL
 * callback unregisters regName. At most 64 registrations.
 */
ACL_FUNC_VISIBILITY aclError aclrtRegStreamStateCallback(const char *regName, aclrtStreamStateCallback callback,
                                                         void *args);

/* ---- Notifies (issue 17, streams group) ------------------------------------ */

/*
 * A notify is a flag a stream sets and another (or the same) stream waits
 * for. Create one on the current device (flag reserved: must be 0, else
 * ACL_ERROR_INVALID_PARAM; no current context: ACL_ERROR_RT_CONTEXT_NULL).
 * vnpu: it is one 64-bit word of device memory, initially clear.
 */
ACL_FUNC_VISIBILITY aclError aclrtCreateNotify(aclrtNotify *notify, uint64_t flag);

/* Destroy a notify. No queued task may still use it. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyNotify(aclrtNotify notify);

/* Enqueue on stream (NULL: default) the setting of notify. */
ACL_FUNC_VISIBILITY aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream);

/*
 * Enqueue on stream a wait until notify is set, then its clearing; later
 * tasks of the stream run after it. timeout: seconds, 0 waits forever.
 * vnpu: a record made before the wait is not lost; the timeout is not
 * applied per wait yet: a wait that never ends fails the stream
 * (ACL_ERROR_RT_AICORE_TIMEOUT) when the device's job timeout expires.
 * The notify must be of the stream's device (else ACL_ERROR_INVALID_PARAM).
 */
ACL_FUNC_VISIBILITY aclError aclrtWaitAndResetNotify(aclrtNotify notify, aclrtStream stream, uint32_t timeout);

/* The ID of notify: unique in the process, never reused. */
ACL_FUNC_VISIBILITY aclError aclrtGetNotifyId(aclrtNotify notify, uint32_t *notifyId);

/* Clear the num notifies of notifies now, from the host (every one is
 * checked before any is cleared; num 0 is ACL_ERROR_INVALID_PARAM). */
ACL_FUNC_VISIBILITY aclError aclrtNotifyBatchReset(aclrtNotify *notifies, size_t num);

/* ---- Events ---------------------------------------------------------------- */

/* Create an event in the current context (ACL_ERROR_RT_CONTEXT_NULL without
 * one). */
ACL_FUNC_VISIBILITY aclError aclrtCreateEvent(aclrtEvent *event);

/* Create an event with ACL_EVENT_* flags. vnpu: every event records a
 * timestamp, so ACL_EVENT_TIME_LINE is implied; unknown bits are rejected
 * with ACL_ERROR_INVALID_PARAM. */
ACL_FUNC_VISIBILITY aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag);

/* Create an event with ACL_EVENT_* flags. CANN's "Ex" events differ from
 * aclrtCreateEventWithFlag's only in the device's limit on the number of
 * events; vnpu has no such limit, so the flag rules and the behaviour are
 * those of aclrtCreateEventWithFlag(). */
ACL_FUNC_VISIBILITY aclError aclrtCreateEventExWithFlag(aclrtEvent *event, uint32_t flag);

/* Enqueue on stream a task that marks event: the event completes when all
 * work enqueued on stream before it has finished. Re-recording replaces the
 * previous record. */
ACL_FUNC_VISIBILITY aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream);

/* aclrtRecordEvent() with a flag: ACL_EVENT_RECORD_DEFAULT is exactly
 * aclrtRecordEvent(). ACL_EVENT_RECORD_EXTERNAL (a record made while
 * capturing that is visible outside the graph) fails with
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT: vnpu's capture does not have it yet.
 * Other flags: ACL_ERROR_INVALID_PARAM. */
ACL_FUNC_VISIBILITY aclError aclrtRecordEventWithFlag(aclrtEvent event, aclrtStream stream, uint32_t flag);

/* Enqueue on stream a task that resets event to the not-recorded state.
 * vnpu: the event is not-recorded from the moment of the call (later waits
 * on it do not wait, its status is "not ready"); nothing runs on stream. */
ACL_FUNC_VISIBILITY aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream);

/* Wait until the work recorded in event has finished. An event never
 * recorded returns at once (as in CANN). If the recording stream failed,
 * returns its error. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEvent(aclrtEvent event);

/* aclrtSynchronizeEvent() with a limit: timeout in milliseconds, -1 waits
 * forever. On expiry returns ACL_ERROR_RT_EVENT_SYNC_TIMEOUT; a timeout
 * below -1 is ACL_ERROR_RT_PARAM_INVALID (as in CANN); vnpu: 0 checks
 * without waiting. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout);

/* Whether the work recorded in event has finished, without waiting. An event
 * never recorded is ACL_EVENT_RECORDED_STATUS_NOT_READY (as CANN's events
 * created with aclrtCreateEvent/aclrtCreateEventWithFlag). */
ACL_FUNC_VISIBILITY aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status);

/* Deprecated (CANN): aclrtQueryEventStatus() reporting in aclrtEventStatus,
 * whose numbering is the other way round: ACL_EVENT_STATUS_COMPLETE is 0,
 * ACL_EVENT_STATUS_NOT_READY 1. An event never recorded is
 * ACL_EVENT_STATUS_NOT_READY, as for aclrtQueryEventStatus(). */
ACL_DEPRECATED_MESSAGE("aclrtQueryEvent is deprecated, use aclrtQueryEventStatus instead")
ACL_FUNC_VISIBILITY aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus *status);

/* Whether the stream waits on event (aclrtStreamWaitEvent) have completed,
 * without waiting. */
ACL_FUNC_VISIBILITY aclError aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus *status);

/*
 * Milliseconds between two completed events, stored in *ms. Both must have
 * been recorded (CANN: on the same stream) and have completed; synchronise
 * first. As in CANN's runtime: an event never recorded (or reset) gives
 * ACL_ERROR_RT_INTERNAL_ERROR (CANN's "event recorder null"), a record not
 * yet complete ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID; an end recorded before
 * the start gives a negative time.
 */
ACL_FUNC_VISIBILITY aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent);

/* Time at which the work recorded in event completed, in microseconds of the
 * device clock, stored in *timestamp. Record, then synchronise, then query;
 * errors as for aclrtEventElapsedTime().
 * vnpu: the device clock is the kernel's monotonic clock (CLOCK_MONOTONIC). */
ACL_FUNC_VISIBILITY aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t *timestamp);

/* Destroy an event. Tasks waiting on it must have completed. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyEvent(aclrtEvent event);

/* The ID of event (issue 17, streams group): unique in the process, never
 * reused. NULL arguments, or an event that is not live, are rejected with
 * ACL_ERROR_INVALID_PARAM. */
ACL_FUNC_VISIBILITY aclError aclrtGetEventId(aclrtEvent event, uint32_t *eventId);

/* ---- Memory ---------------------------------------------------------------- */

/*
 * Allocate size bytes of device memory on the current device; *devPtr
 * receives its address, aligned to at least 64 bytes. size 0 is rejected
 * with ACL_ERROR_INVALID_PARAM; exhaustion gives ACL_ERROR_RT_MEMORY_ALLOCATION.
 * The contents are not initialised; no stream or device is synchronised.
 * vnpu: *devPtr is a device virtual address, never a CPU pointer:
 * dereferencing it on the host is undefined. Use aclrtMemcpy/aclrtMemset to
 * access it. Every policy value is accepted. The page-size policies give
 * 2 MiB alignment as CANN's huge pages would (HUGE_FIRST above 1 MiB;
 * HUGE_ONLY and HUGE1G_ONLY always, with 2 MiB granularity; other values
 * from 2 MiB on); the memory-type bits are ignored. Device capacity is
 * enforced per device. Each device has its own address space, so addresses
 * of two devices may be equal; calls that take an address look it up in the
 * current device first.
 */
ACL_FUNC_VISIBILITY aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy);

/* As aclrtMalloc(), but the size is only rounded up to 32 bytes (CANN's
 * aclrtMalloc adds 32 spare bytes on some SoCs). */
ACL_FUNC_VISIBILITY aclError aclrtMallocAlign32(void **devPtr, size_t size, aclrtMemMallocPolicy policy);

/* As aclrtMalloc(), for memory the device may cache. vnpu: identical to
 * aclrtMalloc(). */
ACL_FUNC_VISIBILITY aclError aclrtMallocCached(void **devPtr, size_t size, aclrtMemMallocPolicy policy);

/*
 * Free device memory from aclrtMalloc*(). Does not wait for tasks that use
 * it; synchronise first.
 * vnpu: tasks already enqueued keep the memory alive until they finish, so
 * a premature free cannot corrupt other data; an address that is not the
 * start of a live allocation is rejected with ACL_ERROR_INVALID_PARAM. No
 * current context is needed.
 */
ACL_FUNC_VISIBILITY aclError aclrtFree(void *devPtr);

/*
 * Allocate size bytes of page-locked host memory; free it with
 * aclrtFreeHost(). Copies from or to it with aclrtMemcpyAsync() are truly
 * asynchronous.
 * vnpu: the memory is pinned host memory that the device can reach, and
 * async copies use it directly (CANN documents it as not directly usable by
 * the device).
 */
ACL_FUNC_VISIBILITY aclError aclrtMallocHost(void **hostPtr, size_t size);

/* Free memory from aclrtMallocHost(). Synchronise first with the streams
 * that copy from or to it. An address that is not the start of a live
 * aclrtMallocHost allocation is rejected with ACL_ERROR_INVALID_PARAM. */
ACL_FUNC_VISIBILITY aclError aclrtFreeHost(void *hostPtr);

/*
 * Copy count bytes from src to dst and wait for the copy; destMax is the
 * capacity at dst (count > destMax is rejected with ACL_ERROR_INVALID_PARAM).
 * No stream or device is synchronised.
 * vnpu: kind is checked against the two addresses (which lie in device
 * memory and which on the host) and a contradicting kind is rejected with
 * ACL_ERROR_INVALID_PARAM; ACL_MEMCPY_DEFAULT infers the direction. Device
 * ranges are bounds-checked against their allocations.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
                                         aclrtMemcpyKind kind);

/*
 * Enqueue on stream a copy of count bytes from src to dst; arguments and
 * checks as aclrtMemcpy(). With page-locked host memory (aclrtMallocHost) the
 * call only enqueues: keep the host memory unchanged and alive until the
 * stream is synchronised. With ordinary pageable host memory (malloc) the
 * call returns only after the copy has completed, as CANN documents.
 * vnpu: such a copy waits for the stream's earlier work and is then done by
 * the CPU, so it stays in stream order; the same holds for
 * ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE (the source is reusable on return) and
 * for copies between two devices. If the stream has failed, its error is
 * returned and nothing is copied.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count,
                                              aclrtMemcpyKind kind, aclrtStream stream);

/*
 * Copy a matrix of height rows of width bytes: row i goes from src + i *
 * spitch to dst + i * dpitch; width must not exceed either pitch (else
 * ACL_ERROR_INVALID_PARAM); an empty matrix copies nothing. Synchronous,
 * as aclrtMemcpy() (and checked as it, row by row).
 * vnpu: every kind aclrtMemcpy() takes works, not only CANN's
 * ACL_MEMCPY_HOST_TO_DEVICE and ACL_MEMCPY_DEVICE_TO_HOST.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                           size_t height, aclrtMemcpyKind kind);

/*
 * Enqueue on stream the copy aclrtMemcpy2d() performs, with
 * aclrtMemcpyAsync()'s rules for pageable memory.
 * vnpu: with device-addressable ends, one job of one copy task per row
 * (4096 rows per job at most).
 */
ACL_FUNC_VISIBILITY aclError aclrtMemcpy2dAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                                                size_t width, size_t height, aclrtMemcpyKind kind,
                                                aclrtStream stream);

/* Where memory lies (aclrtMemLocation.type). */
typedef enum aclrtMemLocationType {
    ACL_MEM_LOCATION_TYPE_HOST = 0,
    ACL_MEM_LOCATION_TYPE_DEVICE,
    ACL_MEM_LOCATION_TYPE_UNREGISTERED,
    ACL_MEM_LOCATION_TYPE_MANAGED,
    ACL_MEM_LOCATION_TYPE_HOST_NUMA = 4,
} aclrtMemLocationType;

/* A memory location: a device (id is its device id) or the host. */
typedef struct aclrtMemLocation {
    uint32_t id;
    aclrtMemLocationType type;
} aclrtMemLocation;

/* Where the two ends of the copies of a batch lie. */
typedef struct {
    aclrtMemLocation dstLoc;
    aclrtMemLocation srcLoc;
    uint8_t rsv[16];
} aclrtMemcpyBatchAttr;

/*
 * Copy numBatches pieces: sizes[i] bytes from srcs[i] to dsts[i], with room
 * destMaxs[i] there. attrs[k] gives the locations of copies attrsIndexes[k]
 * .. attrsIndexes[k + 1] - 1 (the last to the end): attrsIndexes[0] is 0,
 * each is larger than the one before and smaller than numBatches, and
 * 1 <= numAttrs <= numBatches. The copies of a batch are unordered. On a
 * failure that concerns one copy, *failIndex is its index, else SIZE_MAX.
 * vnpu: host locations (pageable or aclrtMallocHost memory) and the current
 * device's memory, in any of the four directions; a location naming
 * another device or another type fails that copy.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatch(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
                                              size_t numBatches, aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes,
                                              size_t numAttrs, size_t *failIndex);

/*
 * Enqueue on stream the copies aclrtMemcpyBatch() performs, with
 * aclrtMemcpyAsync()'s rules for pageable memory.
 * vnpu: with device-addressable ends, the whole batch is one job (one copy
 * task per piece, 4096 per job at most).
 */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatchAsync(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
                                                   size_t numBatches, aclrtMemcpyBatchAttr *attrs,
                                                   size_t *attrsIndexes, size_t numAttrs, size_t *failIndex,
                                                   aclrtStream stream);

/* aclrtMemcpyBatch() without the failing copy's index. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatchV2(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
                                                size_t numBatches, aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes,
                                                size_t numAttrs);

/* aclrtMemcpyBatchAsync() without the failing copy's index. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatchAsyncV2(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
                                                     size_t numBatches, aclrtMemcpyBatchAttr *attrs,
                                                     size_t *attrsIndexes, size_t numAttrs, aclrtStream stream);

/* Set count bytes at devPtr (host or device memory, told apart by address)
 * to the low byte of value and wait; maxCount is the capacity at devPtr
 * (count > maxCount is rejected with ACL_ERROR_INVALID_PARAM). */
ACL_FUNC_VISIBILITY aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count);

/* Enqueue on stream the fill that aclrtMemset() performs. */
ACL_FUNC_VISIBILITY aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count,
                                              aclrtStream stream);

/* Free and total bytes of the current device's memory of kind attr.
 * vnpu: the device has one kind of memory; every attr reports its capacity
 * and what remains of it. */
ACL_FUNC_VISIBILITY aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total);

/* ---- Memory: configured allocation, queries, word fills, indirect copies -- */

/* What one aclrtMallocAttribute sets. */
typedef enum {
    ACL_RT_MEM_ATTR_RSV = 0,
    ACL_RT_MEM_ATTR_MODULE_ID,      /* value.moduleId: who allocates (33: the application) */
    ACL_RT_MEM_ATTR_DEVICE_ID,      /* value.deviceId: must be the current device */
    ACL_RT_MEM_ATTR_VA_FLAG,        /* value.vaFlag: host memory at one address on both sides */
} aclrtMallocAttrType;

typedef union {
    uint16_t moduleId;
    uint32_t deviceId;
    uint32_t vaFlag;
    uint8_t rsv[8];
} aclrtMallocAttrValue;

typedef struct {
    aclrtMallocAttrType attr;
    aclrtMallocAttrValue value;
} aclrtMallocAttribute;

/* numAttrs attributes at attrs. */
typedef struct {
    aclrtMallocAttribute *attrs;
    size_t numAttrs;
} aclrtMallocConfig;

/*
 * aclrtMalloc() with a configuration (cfg may be NULL). Free the memory
 * with aclrtFree() or aclrtFreeWithDevSync().
 * vnpu: ACL_RT_MEM_ATTR_MODULE_ID and ACL_RT_MEM_ATTR_RSV are accepted
 * and ignored; ACL_RT_MEM_ATTR_DEVICE_ID must name the current device
 * (else ACL_ERROR_INVALID_PARAM); ACL_RT_MEM_ATTR_VA_FLAG 0 is accepted,
 * 1 is ACL_ERROR_RT_FEATURE_NOT_SUPPORT; another attribute type, or
 * numAttrs > 0 with attrs NULL, is ACL_ERROR_INVALID_PARAM.
 */
ACL_FUNC_VISIBILITY aclError aclrtMallocWithCfg(void **devPtr, size_t size, aclrtMemMallocPolicy policy,
                                                aclrtMallocConfig *cfg);

/* aclrtMallocHost() with a configuration, checked as aclrtMallocWithCfg()
 * checks it. vnpu: VA consistency (ACL_RT_MEM_ATTR_VA_FLAG 1, which CANN
 * supports on some products only) is ACL_ERROR_RT_FEATURE_NOT_SUPPORT, the
 * code CANN gives where it is missing. */
ACL_FUNC_VISIBILITY aclError aclrtMallocHostWithCfg(void **ptr, uint64_t size, aclrtMallocConfig *cfg);

/*
 * Free device memory after an implicit device synchronisation: the tasks
 * that use it have finished. As aclrtFree() otherwise (NULL, or an address
 * that is not the start of an allocation: ACL_ERROR_INVALID_PARAM, no
 * synchronisation).
 * vnpu: the device synchronised is the one that holds the memory. If one
 * of its streams failed, the memory is still freed and that stream's
 * error (as aclrtSynchronizeDevice() would report it) is returned.
 */
ACL_FUNC_VISIBILITY aclError aclrtFreeWithDevSync(void *devPtr);

/* aclrtFreeHost() after an implicit device synchronisation, as
 * aclrtFreeWithDevSync(). */
ACL_FUNC_VISIBILITY aclError aclrtFreeHostWithDevSync(void *hostPtr);

/* Where memory lies and its page size. */
typedef struct aclrtPtrAttributes {
    aclrtMemLocation location;
    uint32_t pageSize;
    uint32_t rsv[4];
} aclrtPtrAttributes;

/*
 * Attributes of the memory at ptr (any address inside an allocation).
 * vnpu: aclrtMalloc* memory is ACL_MEM_LOCATION_TYPE_DEVICE with id its
 * device and pageSize 2 MiB when laid out in huge pages (see aclrtMalloc),
 * else 4096; aclrtMallocHost* memory is ACL_MEM_LOCATION_TYPE_HOST (id 0,
 * pageSize 4096); other host memory, which CANN does not describe, is
 * ACL_MEM_LOCATION_TYPE_UNREGISTERED (id 0, pageSize 0). A device address
 * that is not allocated is ACL_ERROR_INVALID_PARAM. rsv is cleared.
 */
ACL_FUNC_VISIBILITY aclError aclrtPointerGetAttributes(const void *ptr, aclrtPtrAttributes *attributes);

/* Device memory types (bit masks) for aclrtCheckMemType(). */
#define ACL_RT_MEM_TYPE_DEV (0X2U)      /* aclrtMalloc* memory */
#define ACL_RT_MEM_TYPE_DVPP (0X8U)     /* DVPP memory */
#define ACL_RT_MEM_TYPE_RSVD (0X10U)    /* reserved virtual memory */

/*
 * *checkResult is 1 when each of the size addresses in addrList is device
 * memory of a type in memType (a mask of ACL_RT_MEM_TYPE_*), else 0.
 * reserve must be 0; addrList or checkResult NULL, size 0, or a memType
 * with no or unknown bits: ACL_ERROR_INVALID_PARAM.
 * vnpu: all device memory is ACL_RT_MEM_TYPE_DEV (there is no DVPP or
 * reserved memory); host memory and unallocated addresses match nothing.
 */
ACL_FUNC_VISIBILITY aclError aclrtCheckMemType(void **addrList, uint32_t size, uint32_t memType,
                                               uint32_t *checkResult, uint32_t reserve);

/* Base address and size of the allocation (aclrtMalloc*, aclrtMallocHost*)
 * that ptr lies in; an address outside every allocation is
 * ACL_ERROR_INVALID_PARAM. vnpu: the size is the usable size the runtime
 * made (aclrtMalloc's rounding included). */
ACL_FUNC_VISIBILITY aclError aclrtMemGetAddressRange(void *ptr, void **pbase, size_t *psize);

/*
 * Set the N 32-bit words at ptr to value and wait; memSize, the bytes at
 * ptr, must be at least 4 * N (else ACL_ERROR_INVALID_PARAM). ptr is
 * aclrtMalloc or aclrtMallocHost memory. No stream or device is
 * synchronised.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemsetD32(void *ptr, size_t memSize, uint32_t value, size_t N);

/* Enqueue on stream (NULL: the default stream) the fill aclrtMemsetD32()
 * performs. Host memory is filled at once, as aclrtMemsetD32() does.
 * vnpu: device memory aligned to 4 bytes is one FILL task of 32-bit words;
 * otherwise the CPU fills it after the stream's earlier work. */
ACL_FUNC_VISIBILITY aclError aclrtMemsetD32Async(void *ptr, size_t memSize, uint32_t value, size_t N,
                                                 aclrtStream stream);

/*
 * Enqueue on stream a copy of count bytes from (*src + srcDataOffset) to
 * (*dst + dstDataOffset): dst and src hold the base addresses (a second
 * level of pointers). destMax is the room after *dst + dstDataOffset.
 * kind must be ACL_MEMCPY_INNER_DEVICE_TO_DEVICE.
 * vnpu: dst and src may be device memory or host memory. The base
 * addresses are read once the stream's earlier work is done (the call
 * waits for it), so a task enqueued before may write them; the copy is
 * then one COPY task.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsyncWithOffset(void **dst, size_t destMax, size_t dstDataOffset,
                                                        const void **src, size_t count, size_t srcDataOffset,
                                                        aclrtMemcpyKind kind, aclrtStream stream);

/* Bytes of device memory a memcpy descriptor takes; kind must be
 * ACL_MEMCPY_INNER_DEVICE_TO_DEVICE. */
ACL_FUNC_VISIBILITY aclError aclrtGetMemcpyDescSize(aclrtMemcpyKind kind, size_t *descSize);

/*
 * Record in the descriptor desc (device memory of aclrtGetMemcpyDescSize()
 * bytes) a copy of count bytes from srcAddr to dstAddr. kind must be
 * ACL_MEMCPY_INNER_DEVICE_TO_DEVICE and config NULL.
 * vnpu: the descriptor is written at once (as aclrtMemcpy() would); the
 * two ranges are checked when the copy is enqueued.
 */
ACL_FUNC_VISIBILITY aclError aclrtSetMemcpyDesc(void *desc, aclrtMemcpyKind kind, void *srcAddr, void *dstAddr,
                                                size_t count, void *config);

/* Enqueue on stream the copy the descriptor desc holds. vnpu: as
 * aclrtMemcpyAsyncWithOffset(), the descriptor is read once the stream's
 * earlier work is done; one that aclrtSetMemcpyDesc() did not write is
 * ACL_ERROR_INVALID_PARAM. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsyncWithDesc(void *desc, aclrtMemcpyKind kind, aclrtStream stream);

/*
 * Write back (aclrtMemFlush) or drop (aclrtMemInvalidate) the CPU cache of
 * size bytes at devPtr. size must not be 0.
 * vnpu: the device and the CPU share coherent memory, as CANN documents
 * for its current products, so nothing is to be done; the range is checked
 * to lie inside one allocation (else ACL_ERROR_INVALID_PARAM).
 */
ACL_FUNC_VISIBILITY aclError aclrtMemFlush(void *devPtr, size_t size);
ACL_FUNC_VISIBILITY aclError aclrtMemInvalidate(void *devPtr, size_t size);

/* ---- Host callbacks -------------------------------------------------------- */

/*
 * Make host thread threadId (a pthread_t value) the thread that runs the
 * callbacks launched on stream (NULL: the default stream); that thread must
 * loop on aclrtProcessReport(). A stream has at most one subscribed thread
 * (else ACL_ERROR_RT_STREAM_SUBSCRIBE, CANN's runtime code); a thread may
 * serve several streams of one device (a stream of another device:
 * ACL_ERROR_RT_THREAD_SUBSCRIBE), and at most 1024 threads are subscribed.
 */
ACL_FUNC_VISIBILITY aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream);

/*
 * Enqueue on stream a call of fn(userData) that runs on the stream's
 * subscribed thread once the tasks before it have finished. With
 * ACL_CALLBACK_BLOCK later tasks on the stream wait for fn to return. The
 * stream must be subscribed (else ACL_ERROR_RT_STREAM_NO_CB_REG, CANN's
 * runtime code). Callbacks must not allocate or free runtime resources,
 * synchronise, or launch tasks.
 * vnpu: a blocking callback holds the stream with a device wait, so one not
 * run within the device's job timeout fails the stream
 * (ACL_ERROR_RT_AICORE_TIMEOUT). A non-blocking callback does not hold the
 * stream, and synchronising the stream does not wait for it.
 */
ACL_FUNC_VISIBILITY aclError aclrtLaunchCallback(aclrtCallback fn, void *userData, aclrtCallbackBlockType blockType,
                                                 aclrtStream stream);

/*
 * Called in a loop by a subscribed thread: wait up to timeout milliseconds
 * (-1: forever; 0 or below -1 is ACL_ERROR_INVALID_PARAM) for a callback of
 * its streams and run it. As CANN's runtime: returns ACL_ERROR_RT_REPORT_TIMEOUT
 * if none became ready in time and ACL_ERROR_RT_THREAD_SUBSCRIBE if the
 * thread serves no stream.
 */
ACL_FUNC_VISIBILITY aclError aclrtProcessReport(int32_t timeout);

/* End the subscription of threadId to stream. A thread with no
 * subscription gives ACL_ERROR_RT_THREAD_SUBSCRIBE, a stream not subscribed
 * to that thread ACL_ERROR_RT_STREAM_SUBSCRIBE. vnpu: callbacks still
 * pending on the stream are dropped (blocking ones release the stream), as
 * when a subscribed stream is destroyed. */
ACL_FUNC_VISIBILITY aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream);

/*
 * Enqueue on stream a call of fn(args) on a runtime host thread once the
 * tasks before it have finished; later tasks wait for it to return. No
 * subscription is needed. The same restrictions as for aclrtLaunchCallback()
 * apply to fn. vnpu: each device has one runtime thread that runs the
 * functions of all its streams, each stream's in order; like a blocking
 * callback, a function not finished within the job timeout fails the stream.
 */
ACL_FUNC_VISIBILITY aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void *args);

/* ---- Captured task graphs: model runtime instances (aclmdlRI) ------------ */

/*
 * A stream's work captured once and replayed many times (docs/capture.md).
 * Between aclmdlRICaptureBegin() and aclmdlRICaptureEnd() every task queued
 * on the stream (operators of aclopExecute* and aclnn, async copies and
 * memsets, value writes and waits, event records and waits) is recorded
 * into the instance instead of run, and the calls return success; streams
 * that wait for an event recorded in the capture join it. vnpu: a replay
 * (aclmdlRIExecuteAsync) is one job on the replay stream holding every
 * captured task of every captured stream in capture order (more jobs only
 * when the graph exceeds the kernel's limits of one SUBMIT: 4096 tasks,
 * 1 MiB of descriptors, 16384 operands).
 */
typedef void *aclmdlRI;
/* Opaque: the types of aclmdlRIKernelTaskParams' members. */
typedef void *aclrtFuncHandle;
typedef struct aclrtLaunchKernelCfg aclrtLaunchKernelCfg;

/* Which threads may call unsafe functions (aclrtMemcpy, aclrtMemset, an
 * async copy that must finish before it returns) while a capture runs. */
typedef enum {
    ACL_MODEL_RI_CAPTURE_MODE_GLOBAL = 0,   /* no thread (unless it exchanged its mode) */
    ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL, /* not the capturing thread */
    ACL_MODEL_RI_CAPTURE_MODE_RELAXED,      /* every thread */
} aclmdlRICaptureMode;

typedef enum {
    ACL_MODEL_RI_CAPTURE_STATUS_NONE = 0,    /* the stream is not capturing */
    ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE,      /* capturing */
    ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED, /* capturing, but a forbidden call spoilt it */
} aclmdlRICaptureStatus;

typedef enum aclmdlRITaskType {
    ACL_MODEL_RI_TASK_DEFAULT,
    ACL_MODEL_RI_TASK_KERNEL,
    ACL_MODEL_RI_TASK_EVENT_RECORD,
    ACL_MODEL_RI_TASK_EVENT_WAIT,
    ACL_MODEL_RI_TASK_EVENT_RESET,
    ACL_MODEL_RI_TASK_VALUE_WRITE,
    ACL_MODEL_RI_TASK_VALUE_WAIT,
} aclmdlRITaskType;

typedef struct aclmdlRIKernelTaskParams {
    aclrtFuncHandle funcHandle;
    aclrtLaunchKernelCfg *cfg;
    void *args;
    uint32_t isHostArgs;
    size_t argsSize;
    uint32_t numBlocks;
    uint32_t rsv[10];
} aclmdlRIKernelTaskParams;

typedef struct aclmdlRIEventRecordTaskParams {
    aclrtEvent event;
    uint32_t eventFlag;  /* the event's creation flags */
    uint32_t recordFlag; /* 0 */
} aclmdlRIEventRecordTaskParams;

typedef struct aclmdlRIEventWaitTaskParams {
    aclrtEvent event;
    uint32_t eventFlag;
    uint32_t waitFlag;   /* 0 */
} aclmdlRIEventWaitTaskParams;

typedef struct aclmdlRIEventResetTaskParams {
    aclrtEvent event;
    uint32_t eventFlag;
    uint32_t resetFlag;
} aclmdlRIEventResetTaskParams;

typedef struct aclmdlRIValueWriteTaskParams {
    void *devAddr;
    uint64_t value;
} aclmdlRIValueWriteTaskParams;

typedef struct aclmdlRIValueWaitTaskParams {
    void *devAddr;
    uint64_t value;
    uint32_t flag;       /* ACL_VALUE_WAIT_* */
} aclmdlRIValueWaitTaskParams;

typedef struct aclmdlRITaskParams {
    aclmdlRITaskType type;
    uint32_t rsv0[3];
    aclrtTaskGrp taskGrp;
    void *opInfoPtr;
    size_t opInfoSize;
    uint8_t rsv1[32];
    union {
        uint8_t rsv2[128];
        struct aclmdlRIKernelTaskParams kernelTaskParams;
        struct aclmdlRIEventRecordTaskParams eventRecordTaskParams;
        struct aclmdlRIEventWaitTaskParams eventWaitTaskParams;
        struct aclmdlRIEventResetTaskParams eventResetTaskParams;
        struct aclmdlRIValueWriteTaskParams valueWriteTaskParams;
        struct aclmdlRIValueWaitTaskParams valueWaitTaskParams;
    };
} aclmdlRITaskParams;

/* aclmdlRIDebugJsonPrint flags. */
#define ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY 0x0UL
#define ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE 0x1UL

/*
 * Start capturing stream's tasks into a new model runtime instance (found
 * with aclmdlRICaptureGetInfo). A stream already capturing gives
 * ACL_ERROR_RT_STREAM_CAPTURED, a mode out of range ACL_ERROR_INVALID_PARAM.
 * While capturing, aclrtSynchronizeStream / aclrtStreamQuery of a captured
 * stream, host callbacks, model executions, an async copy that would have
 * to finish on return (pageable memory), and the unsafe functions the mode
 * forbids fail with ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT and invalidate the
 * capture: later tasks fail with ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED and
 * aclmdlRICaptureEnd() returns that code and destroys the instance.
 */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode);

/* The capture state of stream and, when capturing, its instance (modelRI
 * NULL otherwise). Either output may be NULL. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus *status,
                                                    aclmdlRI *modelRI);

/*
 * End the capture begun on stream: *modelRI gets the instance, ready to be
 * executed. ACL_ERROR_RT_STREAM_NOT_CAPTURED if stream is not capturing,
 * ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED for a stream that only joined the
 * capture, ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD from another thread than
 * the one that began it (unless its mode was RELAXED). The capture ends
 * and its instance is destroyed (*modelRI NULL) with
 * ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED when it was invalidated and with
 * ACL_ERROR_RT_STREAM_UNJOINED when a stream that joined it did not join
 * back (its last task followed, through events, by a task of stream).
 */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI *modelRI);

/*
 * Mark the operator calls captured on stream (capturing) until
 * aclmdlRICaptureTaskGrpEnd as a task group, which *handle then names:
 * aclmdlRICaptureTaskUpdateBegin/End may replace its tasks later. Only
 * operator calls are allowed in a group (ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT);
 * one group open per stream (ACL_ERROR_STREAM_TASK_GROUP_STATUS).
 */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp *handle);

/*
 * Update a task group: the operator calls made on stream (which must not be
 * capturing) until aclmdlRICaptureTaskUpdateEnd are not run; they replace
 * the group's tasks, one for one, from the instance's next replay on. The
 * count and types must match (ACL_ERROR_RT_MODEL_UPDATE_FAILED at the end
 * otherwise, nothing changed). vnpu applies the update when End is called.
 */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle);
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream);

/* Set the calling thread's capture mode to *mode; *mode gets the previous
 * one (threads start with GLOBAL). */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode *mode);

/*
 * Replay modelRI on stream (NULL: the current context's default stream):
 * the captured tasks run in capture order after the stream's earlier work.
 * vnpu: one SUBMIT, whatever the task count (within the kernel's per-job
 * limits); a replay on another stream than the previous one waits for that
 * one. An instance still capturing gives ACL_ERROR_RT_MODEL_CAPTURED; a
 * stream that is itself capturing fails as a forbidden call.
 */
ACL_FUNC_VISIBILITY aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream);

/* Replay modelRI on the stream it was captured on and wait up to timeout
 * ms (-1: forever) for it: ACL_ERROR_RT_STREAM_SYNC_TIMEOUT when late. */
ACL_FUNC_VISIBILITY aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout);

/*
 * Building an instance from persistent streams (CANN's "build" mode):
 * aclmdlRIBuildBegin makes an empty instance (flag: 0, reserved), each
 * stream created with ACL_STREAM_PERSISTENT and bound to it by
 * aclmdlRIBindStream (flag: ACL_MODEL_STREAM_FLAG_HEAD or _DEFAULT) has its
 * tasks recorded into it, not run, until aclmdlRIEndTask on that stream;
 * aclmdlRIBuildEnd (reserve: NULL) makes it replayable. vnpu: the bound
 * streams' tasks replay in the order they were issued (DEFAULT streams run
 * from the start as HEAD ones do; there is no stream activation), and
 * aclmdlRIExecute replays on the first stream bound. A stream binds to one
 * instance; aclmdlRIUnbindStream releases it (before destroying it).
 * Calls that cannot be captured invalidate the build, as they do a capture:
 * aclmdlRIBuildEnd then returns ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED and
 * destroys the instance.
 */
ACL_FUNC_VISIBILITY aclError aclmdlRIBuildBegin(aclmdlRI *modelRI, uint32_t flag);
ACL_FUNC_VISIBILITY aclError aclmdlRIBindStream(aclmdlRI modelRI, aclrtStream stream, uint32_t flag);
ACL_FUNC_VISIBILITY aclError aclmdlRIEndTask(aclmdlRI modelRI, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclmdlRIBuildEnd(aclmdlRI modelRI, void *reserve);
ACL_FUNC_VISIBILITY aclError aclmdlRIUnbindStream(aclmdlRI modelRI, aclrtStream stream);

/* Stop modelRI's replay in flight. vnpu: a replay is one job the engine
 * runs to its end, so this waits until it is done (then replays may start
 * again); ACL_ERROR_RT_MODEL_CAPTURED while it is captured or built. */
ACL_FUNC_VISIBILITY aclError aclmdlRIAbort(aclmdlRI modelRI);

/* Destroy modelRI: vnpu waits for its replays still in flight, runs the
 * destroy callbacks, then gives back the workspace it owned. */
ACL_FUNC_VISIBILITY aclError aclmdlRIDestroy(aclmdlRI modelRI);

/* Have func(userData) called when modelRI is destroyed (in registration
 * order, on the destroying thread). */
ACL_FUNC_VISIBILITY aclError aclmdlRIDestroyRegisterCallback(aclmdlRI modelRI, aclrtCallback func, void *userData);

/* The instance's id (unique in the process, from 1). */
ACL_FUNC_VISIBILITY aclError aclmdlRIGetId(aclmdlRI modelRI, uint32_t *modelRIId);

/* Name the instance (the last call wins; copied, at most 127 bytes kept). */
ACL_FUNC_VISIBILITY aclError aclmdlRISetName(aclmdlRI modelRI, const char *name);

/* Its name ("" if never set) into name[maxLen]: ACL_ERROR_INVALID_PARAM if
 * it does not fit with its terminating NUL. */
ACL_FUNC_VISIBILITY aclError aclmdlRIGetName(aclmdlRI modelRI, uint32_t maxLen, char *name);

/* The streams captured into modelRI (the one that began the capture first).
 * streams NULL: *numStreams gets the count; else *numStreams is the array's
 * size (ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY if too small). */
ACL_FUNC_VISIBILITY aclError aclmdlRIGetStreams(aclmdlRI modelRI, aclrtStream *streams, uint32_t *numStreams);

/* The tasks captured on stream into its latest instance (not destroyed),
 * in capture order; counts as for aclmdlRIGetStreams(). A stream of no
 * instance gives ACL_ERROR_RT_STREAM_MODEL. */
ACL_FUNC_VISIBILITY aclError aclmdlRIGetTasksByStream(aclrtStream stream, aclmdlRITask *tasks, uint32_t *numTasks);

/* A task's type: operators are KERNEL, copies and memsets DEFAULT. */
ACL_FUNC_VISIBILITY aclError aclmdlRITaskGetType(aclmdlRITask task, aclmdlRITaskType *type);

/* A task's place in its instance's capture order (from 0, all streams). */
ACL_FUNC_VISIBILITY aclError aclmdlRITaskGetSeqId(aclmdlRITask task, uint32_t *id);

/* A task's parameters. vnpu: an operator's kernel parameters are all zero
 * (vnpu has no kernel binaries); devAddr is the device address. */
ACL_FUNC_VISIBILITY aclError aclmdlRITaskGetParams(aclmdlRITask task, aclmdlRITaskParams *params);

/*
 * Change a task's parameters from the next replay on: value writes (address,
 * value), value waits (address, value, flag) and event records and waits
 * (event). params->type must be the task's; other types give
 * ACL_ERROR_FEATURE_UNSUPPORTED.
 */
ACL_FUNC_VISIBILITY aclError aclmdlRITaskSetParams(aclmdlRITask task, aclmdlRITaskParams *params);

/* Skip the task from the next replay on. */
ACL_FUNC_VISIBILITY aclError aclmdlRITaskDisable(aclmdlRITask task);

/* Apply the task changes made since the last replay (vnpu applies them at
 * the next replay anyway: this only makes it now). */
ACL_FUNC_VISIBILITY aclError aclmdlRIUpdate(aclmdlRI modelRI);

/* Print the instance (streams, tasks) on stdout. */
ACL_FUNC_VISIBILITY aclError aclmdlRIDebugPrint(aclmdlRI modelRI);

/* Write the instance as JSON to the file path: its streams, tasks and
 * dependencies (stream order and events); flags ACL_MDLRI_DEBUG_JSON_PRINT_*
 * (VERBOSE adds each task's device arguments). tools/vnpu-ri2dot turns it
 * into Graphviz dot. */
ACL_FUNC_VISIBILITY aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char *path, uint32_t flags);
/* ==== Device and system queries (acl_query.c, acl_limits.c, acl_version.c,
 * acl_hooks.c) ============================================================= */

/* aclrtGetDeviceCapability() answers. */
#define ACL_DEV_FEATURE_SUPPORT 0x00000001
#define ACL_DEV_FEATURE_NOT_SUPPORT 0x00000000

/* aclrtGetDevicesTopo() links, a bit each. */
#define ACL_RT_DEVS_TOPOLOGY_HCCS 0x01ULL
#define ACL_RT_DEVS_TOPOLOGY_PIX 0x02ULL
#define ACL_RT_DEVS_TOPOLOGY_PIB 0x04ULL
#define ACL_RT_DEVS_TOPOLOGY_PHB 0x08ULL
#define ACL_RT_DEVS_TOPOLOGY_SYS 0x10ULL
#define ACL_RT_DEVS_TOPOLOGY_SIO 0x20ULL
#define ACL_RT_DEVS_TOPOLOGY_HCCS_SW 0x40ULL

/* ACL_DEV_ATTR_HD_CONNECT_TYPE values. */
#define ACL_HOST_DEVICE_CONNECT_TYPE_PCIE 0
#define ACL_HOST_DEVICE_CONNECT_TYPE_HCCS 1
#define ACL_HOST_DEVICE_CONNECT_TYPE_UB 2

/* ACL_DEV_ATTR_DEVICE_FORM_FACTOR values. */
#define ACL_DEVICE_FORM_FACTOR_POD 0
#define ACL_DEVICE_FORM_FACTOR_A_K 1
#define ACL_DEVICE_FORM_FACTOR_A_X 2
#define ACL_DEVICE_FORM_FACTOR_PCIE_CARD 3

/* Sizes of aclCANNPackageVersion's strings and of aclsysGetVersionStr()'s
 * buffer. */
#define ACL_PKG_VERSION_MAX_SIZE 128
#define ACL_PKG_VERSION_PARTS_MAX_SIZE 64

/* Attributes of aclrtGetDeviceInfo(). Numbered in groups: 1 AI CPU, 1xx AI
 * Core, 2xx vector cores, 3xx memory, 4xx placement, 5xx virtualisation,
 * 6xx architecture. */
typedef enum {
    ACL_DEV_ATTR_AICPU_CORE_NUM = 1,
    ACL_DEV_ATTR_AICORE_CORE_NUM = 101,
    ACL_DEV_ATTR_CUBE_CORE_NUM = 102,
    ACL_DEV_ATTR_VECTOR_CORE_NUM = 201,
    ACL_DEV_ATTR_WARP_SIZE = 202,
    ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE = 203,
    ACL_DEV_ATTR_LOCAL_MEM_PER_VECTOR_CORE = 204,   /* old name of UBUF_PER_VECTOR_CORE */
    ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE = 204,
    ACL_DEV_ATTR_MAX_GRID_DIM_X = 205,
    ACL_DEV_ATTR_MAX_GRID_DIM_Y = 206,
    ACL_DEV_ATTR_MAX_GRID_DIM_Z = 207,
    ACL_DEV_ATTR_MAX_BLOCK_PER_GRID = 208,
    ACL_DEV_ATTR_MAX_THREADS_PER_BLOCK = 209,
    ACL_DEV_ATTR_MAX_BLOCK_DIM_X = 210,
    ACL_DEV_ATTR_MAX_BLOCK_DIM_Y = 211,
    ACL_DEV_ATTR_MAX_BLOCK_DIM_Z = 212,
    ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE = 301,
    ACL_DEV_ATTR_L2_CACHE_SIZE = 302,
    ACL_DEV_ATTR_SMP_ID = 401U,
    ACL_DEV_ATTR_PHY_CHIP_ID = 402U,
    ACL_DEV_ATTR_SUPER_POD_DEVIDE_ID = 403U,        /* old spelling of SUPER_POD_DEVICE_ID */
    ACL_DEV_ATTR_SUPER_POD_DEVICE_ID = 403U,
    ACL_DEV_ATTR_SUPER_POD_SERVER_ID = 404U,
    ACL_DEV_ATTR_SUPER_POD_ID = 405U,
    ACL_DEV_ATTR_CUST_OP_PRIVILEGE = 406U,
    ACL_DEV_ATTR_MAINBOARD_ID = 407U,
    ACL_DEV_ATTR_HD_CONNECT_TYPE = 408U,
    ACL_DEV_ATTR_DEVICE_FORM_FACTOR = 409U,
    ACL_DEV_ATTR_SUPER_POD_CHASSIS_ID = 410U,
    ACL_DEV_ATTR_IS_VIRTUAL = 501U,
    ACL_DEV_ATTR_NPU_ARCH = 601U,
} aclrtDevAttr;

/* Features of aclrtGetDeviceCapability(). */
typedef enum {
    ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV = 1,
    ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV = 21,
} aclrtDevFeatureType;

/* Resources of the device resource limits. */
typedef enum {
    ACL_RT_DEV_RES_CUBE_CORE = 0,
    ACL_RT_DEV_RES_VECTOR_CORE,
} aclrtDevResLimitType;

/* Limits of aclrtDeviceSetLimit() / aclrtDeviceGetLimit(), in bytes. */
typedef enum tagAclrtDeviceLimit {
    ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE = 0,
    ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE = 1,
    ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE = 2,
    ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE = 3,
    ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE = 4,
} aclrtDeviceLimit;

/* How floating-point results that overflow are delivered. */
typedef enum aclrtFloatOverflowMode {
    ACL_RT_OVERFLOW_MODE_SATURATION = 0,
    ACL_RT_OVERFLOW_MODE_INFNAN,
    ACL_RT_OVERFLOW_MODE_UNDEF,
} aclrtFloatOverflowMode;

/* aclrtQueryDeviceStatus() result. */
typedef enum aclrtDeviceStatus {
    ACL_RT_DEVICE_STATUS_NORMAL = 0,
    ACL_RT_DEVICE_STATUS_ABNORMAL,
    ACL_RT_DEVICE_STATUS_END = 0xFFFF,
} aclrtDeviceStatus;

/* Busy shares in percent (0-100); -1 where the unit does not exist or is
 * not measured. utilizationExtend is reserved and must be NULL. */
typedef struct aclrtUtilizationExtendInfo aclrtUtilizationExtendInfo;
typedef struct aclrtUtilizationInfo {
    int32_t cubeUtilization;
    int32_t vectorUtilization;
    int32_t aicpuUtilization;
    int32_t memoryUtilization;
    aclrtUtilizationExtendInfo *utilizationExtend;
} aclrtUtilizationInfo;

/* One component's memory use (aclrtGetMemUsageInfo()), in bytes. */
typedef struct aclrtMemUsageInfo {
    char name[32];
    uint64_t curMemSize;
    uint64_t memPeakSize;
    size_t reserved[8];
} aclrtMemUsageInfo;

/* A device's identity (aclrtDeviceGetUuid()). */
typedef struct aclrtUuid {
    char bytes[16];
} aclrtUuid;

/* When a device state callback runs. */
typedef enum {
    ACL_RT_DEVICE_STATE_SET_PRE = 0,
    ACL_RT_DEVICE_STATE_SET_POST,
    ACL_RT_DEVICE_STATE_RESET_PRE,
    ACL_RT_DEVICE_STATE_RESET_POST,
} aclrtDeviceState;

typedef void (*aclrtDeviceStateCallback)(int32_t deviceId, aclrtDeviceState state, void *args);

/* Packages of aclsysGetCANNVersion(). */
typedef enum aclCANNPackageName {
    ACL_PKG_NAME_CANN,
    ACL_PKG_NAME_RUNTIME,
    ACL_PKG_NAME_COMPILER,
    ACL_PKG_NAME_HCCL,
    ACL_PKG_NAME_TOOLKIT,
    ACL_PKG_NAME_OPP,
    ACL_PKG_NAME_OPP_KERNEL,
    ACL_PKG_NAME_DRIVER
} aclCANNPackageName;

/* A package version, whole and in parts, as strings. */
typedef struct aclCANNPackageVersion {
    char version[ACL_PKG_VERSION_MAX_SIZE];
    char majorVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
    char minorVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
    char releaseVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
    char patchVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
    char reserved[ACL_PKG_VERSION_MAX_SIZE];
} aclCANNPackageVersion;

/* Who registers an init/finalize callback. */
typedef enum aclRegisterCallbackType {
    ACL_REG_TYPE_ACL_MODEL,
    ACL_REG_TYPE_ACL_OP_EXECUTOR,
    ACL_REG_TYPE_ACL_OP_CBLAS,
    ACL_REG_TYPE_ACL_OP_COMPILER,
    ACL_REG_TYPE_ACL_TDT_CHANNEL,
    ACL_REG_TYPE_ACL_TDT_QUEUE,
    ACL_REG_TYPE_ACL_DVPP,
    ACL_REG_TYPE_ACL_RETR,
    ACL_REG_TYPE_OTHER = 0xFFFF,
} aclRegisterCallbackType;

/* configStr/len: the text of aclInit()'s configuration file ("" for none). */
typedef aclError (*aclInitCallbackFunc)(const char *configStr, size_t len, void *userData);
typedef aclError (*aclFinalizeCallbackFunc)(void *userData);

/* Device error details (aclrtGetErrorVerbose()). */
typedef enum {
    ACL_RT_NO_ERROR = 0,
    ACL_RT_ERROR_MEMORY = 1,
    ACL_RT_ERROR_L2 = 2,
    ACL_RT_ERROR_AICORE = 3,
    ACL_RT_ERROR_LINK = 4,
    ACL_RT_ERROR_L3_PORT = 5,
    ACL_RT_ERROR_OTHERS = 0xFFFF,
} aclrtErrorType;

typedef enum aclrtAicoreErrorType {
    ACL_RT_AICORE_ERROR_UNKNOWN,
    ACL_RT_AICORE_ERROR_SW,
    ACL_RT_AICORE_ERROR_HW_LOCAL,
} aclrtAicoreErrorType;

#define MAX_MEM_UCE_INFO_ARRAY_SIZE 128
#define UCE_INFO_RESERVED_SIZE 14
#define ACL_RT_MEM_UCE_INFO_MAX_NUM 20

typedef struct aclrtMemUceInfo {
    void *addr;
    size_t len;
    size_t reserved[UCE_INFO_RESERVED_SIZE];
} aclrtMemUceInfo;

typedef struct {
    size_t arraySize;
    aclrtMemUceInfo memUceInfoArray[ACL_RT_MEM_UCE_INFO_MAX_NUM];
} aclrtMemUceInfoArray;

typedef union aclrtErrorInfoDetail {
    aclrtMemUceInfoArray uceInfo;
    aclrtAicoreErrorType aicoreErrType;
} aclrtErrorInfoDetail;

typedef struct aclrtErrorInfo {
    uint8_t tryRepair;
    uint8_t hasDetail;
    uint8_t reserved[2];
    aclrtErrorType errorType;
    aclrtErrorInfoDetail detail;
} aclrtErrorInfo;

/*
 * Common rules of this block: deviceId is an index in [0,
 * aclrtGetDeviceCount()), else ACL_ERROR_RT_INVALID_DEVICEID; the device
 * need not be set unless the comment says so. An enum value that is not
 * one of the type's is ACL_ERROR_RT_PARAM_INVALID; an attribute or limit
 * vnpu has no figure for is ACL_ERROR_RT_FEATURE_NOT_SUPPORT.
 */

/*
 * *value = attribute attr of device deviceId. vnpu: AI Core, cube and
 * vector core counts are the device's engines, no AI CPU (0), memory the
 * device capacity, no L2 cache (0), PHY_CHIP_ID the index, SMP_ID,
 * MAINBOARD_ID and CUST_OP_PRIVILEGE 0, a PCIe card (HD_CONNECT_TYPE,
 * DEVICE_FORM_FACTOR), not virtual (0). The SIMT figures (warps, threads,
 * grids, blocks, unified buffer), the super pod ids and NPU_ARCH are
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT.
 */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t *value);

/* *value = ACL_DEV_FEATURE_SUPPORT or ACL_DEV_FEATURE_NOT_SUPPORT. vnpu
 * supports neither feature. */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCapability(int32_t deviceId, aclrtDevFeatureType devFeatureType,
                                                      int32_t *value);

/* Whether device deviceId can take work. vnpu: ABNORMAL while no engine
 * server (vnpu-engined) is attached to it. */
ACL_FUNC_VISIBILITY aclError aclrtQueryDeviceStatus(int32_t deviceId, aclrtDeviceStatus *deviceStatus);

/*
 * Busy shares of device deviceId. vnpu: cube and vector utilisation are
 * the share of the device's engine time this process's jobs used since the
 * previous call for the device (or since the device was first opened),
 * from the kernel's engine time (fdinfo drm-engine-compute); jobs count
 * when they end. Work of other processes is not included. AI CPU and
 * memory utilisation are -1 (not measured). A device the process has not
 * opened reports 0. utilizationExtend must be NULL (ACL_ERROR_INVALID_PARAM).
 */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceUtilizationRate(int32_t deviceId, aclrtUtilizationInfo *utilizationInfo);

/* Stream priorities: the lowest (*leastPriority, 7) and the highest
 * (*greatestPriority, 0), as aclrtCreateStreamWithConfig() takes them. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetStreamPriorityRange(int32_t *leastPriority, int32_t *greatestPriority);

/*
 * Process-wide device limits in bytes, best set before aclrtSetDevice().
 * vnpu: only the SIMD limits exist (the SIMT ones are
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT, as on Atlas A2/A3). SIMD_STACK_SIZE:
 * at most 192 KiB (else ACL_ERROR_RT_PARAM_INVALID), up to 32 KiB keeps the
 * default 32 KiB, more is rounded up to 16 KiB; PRINTF_FIFO_SIZE_PER_CORE:
 * 1 KiB..64 MiB (else ACL_ERROR_RT_PARAM_INVALID), rounded up to 8 bytes,
 * default 1 MiB. vnpu's operators use neither; the values are kept and
 * reported.
 */
ACL_FUNC_VISIBILITY aclError aclrtDeviceSetLimit(aclrtDeviceLimit limit, size_t value);
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetLimit(aclrtDeviceLimit limit, size_t *value);

/*
 * This process's limit on the cube or vector cores of device deviceId:
 * 1 up to the device's engines (else ACL_ERROR_RT_PARAM_INVALID); the
 * default and what aclrtResetDeviceResLimit() restores is all of them.
 * vnpu: recorded and reported (aclrtGetResInCurrentThread()); the kernel
 * does not restrict the engines a process's jobs run on.
 */
ACL_FUNC_VISIBILITY aclError aclrtSetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t value);
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t *value);
ACL_FUNC_VISIBILITY aclError aclrtResetDeviceResLimit(int32_t deviceId);

/* The resource of type the calling thread may use on its current device:
 * the process's device limit (vnpu has no stream limits yet). Needs a
 * current context (ACL_ERROR_RT_CONTEXT_NULL). */
ACL_FUNC_VISIBILITY aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type, uint32_t *value);

/* A 16-byte identity of device deviceId, stable across boots and processes.
 * vnpu: "vnpu" in the first bytes, the index in the last two, shaped as an
 * RFC 9562 version 8 UUID. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetUuid(int32_t deviceId, aclrtUuid *uuid);

/* The PCI bus id "dddd:bb:dd.f" (12 characters and a NUL; len must be at
 * least 13, else ACL_ERROR_INVALID_PARAM). vnpu: "0000:bb:00.0" with bus
 * bb = index + 1, in hexadecimal. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetPCIBusId(int32_t deviceId, char *pciBusId, int32_t len);

/* The device whose PCI bus id is pciBusId ("dddd:bb:dd.f" or "bb:dd.f",
 * hexadecimal, any case). Malformed: ACL_ERROR_INVALID_PARAM; no such
 * device: ACL_ERROR_RT_INVALID_DEVICEID. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetByPCIBusId(const char *pciBusId, int32_t *deviceId);

/* How two devices are linked (ACL_RT_DEVS_TOPOLOGY_* bits). vnpu: the
 * devices of one module behave as cards behind one PCIe switch
 * (ACL_RT_DEVS_TOPOLOGY_PIX); deviceId == otherDeviceId is
 * ACL_ERROR_INVALID_PARAM. */
ACL_FUNC_VISIBILITY aclError aclrtGetDevicesTopo(uint32_t deviceId, uint32_t otherDeviceId, uint64_t *value);

/*
 * Device id mappings. CANN's user ids are the indices aclrtSetDevice()
 * takes, logical ids what ASCEND_RT_VISIBLE_DEVICES maps them to and
 * physical ids the chips. vnpu: ASCEND_RT_VISIBLE_DEVICES is not read and
 * there are no containers, so the three are the same index; an id outside
 * [0, count) is ACL_ERROR_RT_INVALID_DEVICEID.
 */
ACL_FUNC_VISIBILITY aclError aclrtGetLogicDevIdByUserDevId(const int32_t userDevid, int32_t *const logicDevId);
ACL_FUNC_VISIBILITY aclError aclrtGetUserDevIdByLogicDevId(const int32_t logicDevId, int32_t *const userDevid);
ACL_FUNC_VISIBILITY aclError aclrtGetLogicDevIdByPhyDevId(const int32_t phyDevId, int32_t *const logicDevId);
ACL_FUNC_VISIBILITY aclError aclrtGetPhyDevIdByLogicDevId(const int32_t logicDevId, int32_t *const phyDevId);
ACL_FUNC_VISIBILITY aclError aclrtGetUserDevIdByPhyDevId(const int32_t phyDevId, int32_t *const userDevId);
ACL_FUNC_VISIBILITY aclError aclrtGetPhyDevIdByUserDevId(const int32_t userDevId, int32_t *const phyDevId);

/* *canCompatible = 1 if operators built for socVersion run here, else 0.
 * vnpu: only its own SoC name (aclrtGetSocName()) is compatible; an empty
 * string is ACL_ERROR_INVALID_PARAM. */
ACL_FUNC_VISIBILITY aclError aclrtCheckArchCompatibility(const char *socVersion, int32_t *canCompatible);

/* *active = 1 while device deviceId's default context exists (the device
 * is set), else 0; *flags (may be NULL) = 0, the only flags vnpu has. */
ACL_FUNC_VISIBILITY aclError aclrtGetPrimaryCtxState(int32_t deviceId, uint32_t *flags, int32_t *active);

/*
 * Register callback under regName (unique, not NULL or empty), or with a
 * NULL callback remove regName's. A name already registered is
 * ACL_ERROR_INVALID_PARAM, removing an unknown one too; at most 32
 * registrations (ACL_ERROR_RT_RESOURCE_ALLOC_FAIL). vnpu: aclrtSetDevice()
 * calls every callback with SET_PRE before and SET_POST after it succeeds;
 * aclrtResetDevice() and aclrtResetDeviceForce() with RESET_PRE and
 * RESET_POST; in the calling thread, in registration order, without a
 * runtime lock held.
 */
ACL_FUNC_VISIBILITY aclError aclrtRegDeviceStateCallback(const char *regName, aclrtDeviceStateCallback callback,
                                                         void *args);

/* The floating-point overflow mode of the current device (needs a current
 * context); streams created afterwards take it. vnpu: the default is
 * ACL_RT_OVERFLOW_MODE_INFNAN; the mode is recorded and reported, but
 * vnpu's operators always produce IEEE results (inf/NaN). UNDEF or other
 * values: ACL_ERROR_RT_PARAM_INVALID. */
ACL_FUNC_VISIBILITY aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode);
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode *mode);

/*
 * Memory use by component of device deviceId, largest first: at most
 * inputNum entries in memUsageInfo (inputNum 0: ACL_ERROR_INVALID_PARAM),
 * *outputNum the number written. vnpu's components, for this process:
 * "device" (aclrtMalloc memory) and "host" (aclrtMallocHost memory), in
 * bytes the application may use (aclrtMalloc adds 32 to the size), with
 * their peaks since the device was opened; all 0 for a device the process
 * has not opened.
 */
ACL_FUNC_VISIBILITY aclError aclrtGetMemUsageInfo(int32_t deviceId, aclrtMemUsageInfo *memUsageInfo, size_t inputNum,
                                                  size_t *outputNum);

/*
 * Runtime options of the process (aclrtSetSysParamOpt) and of the current
 * context (aclrtCtx*, needing one: ACL_ERROR_RT_CONTEXT_NULL). Values 0 or
 * 1 (else ACL_ERROR_RT_PARAM_INVALID); the default is 0. A context's value,
 * until set, is the process's. vnpu's operators are deterministic and have
 * no debug kernels: the values are kept and reported.
 */
ACL_FUNC_VISIBILITY aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value);
ACL_FUNC_VISIBILITY aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t *value);
ACL_FUNC_VISIBILITY aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt, int64_t value);
ACL_FUNC_VISIBILITY aclError aclrtCtxGetSysParamOpt(aclSysParamOpt opt, int64_t *value);

/*
 * Package versions. vnpu provides "cann", "runtime", "opp" and
 * "opp_kernel" (all the CANN release these headers follow, 9.0.0) and
 * "driver" (the vnpu module's ABI as major.minor.0, read from device 0).
 * Other packages are not installed: ACL_ERROR_INVALID_FILE. The number is
 * major * 10000000 + minor * 100000 + patch * 1000. versionStr must hold
 * ACL_PKG_VERSION_MAX_SIZE bytes.
 */
ACL_DEPRECATED_MESSAGE("aclsysGetCANNVersion is deprecated, use aclsysGetVersionStr and aclsysGetVersionNum instead")
ACL_FUNC_VISIBILITY aclError aclsysGetCANNVersion(aclCANNPackageName name, aclCANNPackageVersion *version);
ACL_FUNC_VISIBILITY aclError aclsysGetVersionStr(char *pkgName, char *versionStr);
ACL_FUNC_VISIBILITY aclError aclsysGetVersionNum(char *pkgName, int32_t *versionNum);

/*
 * Init and finalize callbacks, one per (type, cbFunc): registering it again
 * replaces userData; unregistering one not registered succeeds and does
 * nothing. An init callback registered before aclInit() runs at its end
 * (aclInit returns the first callback's failure, the library staying
 * initialised); registered after it, it runs at once and Register returns
 * its result. Finalize callbacks run when aclFinalize() (or the last
 * aclFinalizeReference()) has torn the library down, which then returns
 * the first callback's failure. Callbacks run in the calling thread, in
 * registration order, without a runtime lock held. At most 32 of each
 * (ACL_ERROR_RT_RESOURCE_ALLOC_FAIL). An unknown type is
 * ACL_ERROR_INVALID_PARAM.
 */
ACL_FUNC_VISIBILITY aclError aclInitCallbackRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc,
                                                     void *userData);
ACL_FUNC_VISIBILITY aclError aclInitCallbackUnRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc);
ACL_FUNC_VISIBILITY aclError aclFinalizeCallbackRegister(aclRegisterCallbackType type, aclFinalizeCallbackFunc cbFunc,
                                                         void *userData);
ACL_FUNC_VISIBILITY aclError aclFinalizeCallbackUnRegister(aclRegisterCallbackType type,
                                                           aclFinalizeCallbackFunc cbFunc);

/*
 * Details of the latest device error of device deviceId in this process.
 * vnpu: ACL_RT_NO_ERROR, or, once a task of the device has failed (a
 * task error, a job timeout, an engine server lost; whether its stream
 * stopped or went on),
 * ACL_RT_ERROR_AICORE with detail.aicoreErrType ACL_RT_AICORE_ERROR_SW
 * (hasDetail 1); tryRepair is always 0 (vnpu repairs nothing).
 */
ACL_FUNC_VISIBILITY aclError aclrtGetErrorVerbose(int32_t deviceId, aclrtErrorInfo *errorInfo);

/* ---- task exceptions (issue 17, "errors and exceptions") ---------------- */

/*
 * What the runtime knows about a task that failed. Opaque: read it with
 * the aclrtGet*FromExceptionInfo() functions, only inside the callback
 * that received it.
 *
 * vnpu: a task is one job the runtime queues on a stream (one operator
 * launch, one asynchronous copy or memset, one event record or wait, one
 * host callback...), and its task id is the job's number on its stream
 * (1 for the first job, counting every queued job, truncated to 32 bits).
 * The stream id is the kernel's id of the stream.
 */
typedef struct rtExceptionInfo aclrtExceptionInfo;
typedef void (*aclrtExceptionInfoCallback)(aclrtExceptionInfo *exceptionInfo);

/*
 * Set the process's one exception callback (NULL: none), called once for
 * each task that fails a stream. vnpu: the runtime notices a failure when
 * it next looks at the stream (synchronising it, querying it, waiting for
 * one of its events, queueing more work on it that finds it failed, or
 * aclrtGetErrorVerbose()) and calls the callback then, in that thread,
 * before the call that noticed returns.
 */
ACL_FUNC_VISIBILITY aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback);
/* Add a callback to those called for a failed task (as above); adding one
 * already registered changes nothing. ACL_ERROR_INVALID_PARAM for NULL. */
ACL_FUNC_VISIBILITY aclError aclrtExceptionInfoCallbackRegister(aclrtExceptionInfoCallback callback);
/* Remove a callback that aclrtExceptionInfoCallbackRegister() added;
 * ACL_ERROR_INVALID_PARAM for NULL or one not registered. */
ACL_FUNC_VISIBILITY aclError aclrtExceptionInfoCallbackUnregister(aclrtExceptionInfoCallback callback);

/* The failed task's id, its stream's id, the id (Linux thread id) of the
 * thread that queued it, its device's id, and the error (the aclError that
 * synchronising the stream returns); each 0xFFFFFFFF when info is NULL. */
ACL_FUNC_VISIBILITY uint32_t aclrtGetTaskIdFromExceptionInfo(const aclrtExceptionInfo *info);
ACL_FUNC_VISIBILITY uint32_t aclrtGetStreamIdFromExceptionInfo(const aclrtExceptionInfo *info);
ACL_FUNC_VISIBILITY uint32_t aclrtGetThreadIdFromExceptionInfo(const aclrtExceptionInfo *info);
ACL_FUNC_VISIBILITY uint32_t aclrtGetDeviceIdFromExceptionInfo(const aclrtExceptionInfo *info);
ACL_FUNC_VISIBILITY uint32_t aclrtGetErrorCodeFromExceptionInfo(const aclrtExceptionInfo *info);

/* The id of the last task this thread queued (see aclrtExceptionInfo for
 * what a task is); 0 before its first. ACL_ERROR_INVALID_PARAM for NULL. */
ACL_FUNC_VISIBILITY aclError aclrtGetThreadLastTaskId(uint32_t *taskId);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACL_ACL_RT_H */
