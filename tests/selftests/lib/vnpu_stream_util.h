/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the stream selftests and benchmarks: stream ioctls, task
 * builders, submit, syncobjs (through libdrm), mapped buffers, debugfs and
 * fdinfo readers. Functions return 0 or -errno unless noted.
 */
#ifndef VNPU_STREAM_UTIL_H
#define VNPU_STREAM_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vnpu_drm.h"

/* A generous wait for work that should finish promptly (ns). */
#define VNPU_WAIT_FOREVER_NS (60ull * 1000 * 1000 * 1000)

int vnpu_stream_create(int fd, uint32_t priority, uint32_t *id);
int vnpu_stream_destroy(int fd, uint32_t id);
int vnpu_stream_query(int fd, uint32_t id, struct drm_vnpu_stream_query *q);
int vnpu_stream_set_param(int fd, uint32_t id, uint32_t param, uint64_t value);
/* STREAM_ABORT with @flags; *@out (may be NULL) gets the ioctl's struct. */
int vnpu_stream_abort(int fd, uint32_t id, uint32_t flags, struct drm_vnpu_stream_abort *out);

/* Task builders. */
struct drm_vnpu_task vnpu_task_nop(void);
struct drm_vnpu_task vnpu_task_copy(uint64_t dst, uint64_t src, uint64_t size);
struct drm_vnpu_task vnpu_task_fill(uint64_t dst, uint64_t size, uint32_t value);
struct drm_vnpu_task vnpu_task_write32(uint64_t addr, uint32_t value);
struct drm_vnpu_task vnpu_task_write64(uint64_t addr, uint64_t value);
struct drm_vnpu_task vnpu_task_wait32(uint64_t addr, uint32_t cmp, uint32_t value);
struct drm_vnpu_task vnpu_task_wait64(uint64_t addr, uint32_t cmp, uint64_t value);
struct drm_vnpu_task vnpu_task_timestamp(uint64_t addr);

/* A submit with everything spelled out (the ioctl's own struct). */
struct drm_vnpu_submit vnpu_submit_args(uint32_t stream, const struct drm_vnpu_task *tasks,
					uint32_t count);
int vnpu_submit_raw(int fd, struct drm_vnpu_submit *args);

/*
 * Submit @count tasks to @stream; @out_handle (0: none) receives the job's
 * fence at @out_point (0: binary). @seqno may be NULL.
 */
int vnpu_submit(int fd, uint32_t stream, const struct drm_vnpu_task *tasks, uint32_t count,
		const struct drm_vnpu_sync *in, uint32_t in_count,
		uint32_t out_handle, uint64_t out_point, uint64_t *seqno);
/*
 * Submit and wait for the job to finish (through a temporary syncobj).
 * Returns 0 if the job succeeded, the submit's errno if it was rejected,
 * or the error its fence signalled with if it failed or was cancelled
 * (-EIO fault, -ETIMEDOUT, -EDOM, -ECANCELED, -ESRCH): note that -EIO is
 * both a rejected submit on a failed stream and an injected fault.
 */
int vnpu_submit_wait(int fd, uint32_t stream, const struct drm_vnpu_task *tasks,
		     uint32_t count, uint64_t *seqno);

/* Syncobjs (libdrm). Waits are relative to now; 0 or -errno (-ETIME). */
int vnpu_syncobj_create(int fd, uint32_t *handle);
int vnpu_syncobj_create_signaled(int fd, uint32_t *handle);
int vnpu_syncobj_destroy(int fd, uint32_t handle);
int vnpu_syncobj_wait(int fd, uint32_t handle, uint64_t timeout_ns);
int vnpu_syncobj_timeline_wait(int fd, uint32_t handle, uint64_t point, uint64_t timeout_ns);
/* Current payload of a timeline syncobj (last signalled point). */
int vnpu_syncobj_query(int fd, uint32_t handle, uint64_t *point);
/* Status of the fence in a syncobj: 1 signalled, 0 not, negative: its error. */
int vnpu_syncobj_fence_status(int fd, uint32_t handle);
/*
 * A fence status of a job cancelled by STREAM_DESTROY or file close:
 * -ECANCELED, or -ESRCH if the scheduler had not handed it over yet.
 */
bool vnpu_status_cancelled(int status);

/* A buffer with its device address and a CPU mapping. */
struct vnpu_buf {
	uint32_t handle;
	uint64_t va;
	uint64_t size;
	void *cpu;
};

int vnpu_buf_create(int fd, uint64_t size, struct vnpu_buf *buf);
/*
 * The host wrote [@va, @va + @size): waits on it look again (SIGNAL; the
 * device does not poll). Returns 0 or -errno; @woken (may be NULL) gets
 * how many waits that released.
 */
int vnpu_signal(int fd, uint64_t va, uint64_t size, uint32_t *woken);
/* Store @value at @off of @buf through its mapping and signal it. */
int vnpu_buf_write32(int fd, struct vnpu_buf *buf, size_t off, uint32_t value);
/* Unmap and close the handle (either part may already be gone). */
void vnpu_buf_destroy(int fd, struct vnpu_buf *buf);

/* Poll a stream until its completed seqno reaches @seqno; 0 or -ETIME. */
int vnpu_stream_wait_seqno(int fd, uint32_t stream, uint64_t seqno, uint64_t timeout_ns);

/* Value of "key<TAB>value" in the device's debugfs "streams" file; -1 on error. */
long long vnpu_debugfs_streams_value(unsigned int index, const char *key);
/* Wait until the device has no jobs alive; 0 or -ETIME. */
int vnpu_wait_no_jobs(unsigned int index, uint64_t timeout_ns);
/* Value of a "drm-...:" key of the fd's fdinfo (first number); -1 on error. */
long long vnpu_fdinfo_value(int fd, const char *key);

/* Monotonic time in ns. */
uint64_t vnpu_now_ns(void);

#endif /* VNPU_STREAM_UTIL_H */
