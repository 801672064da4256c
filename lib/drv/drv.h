/* SPDX-License-Identifier: MIT */
/*
 * drv.h - libascendcl's driver layer: the only code that talks to the vnpu
 * kernel module.
 *
 * Every function is a thin wrapper around one ioctl (through libdrm), one
 * mmap or one device-node scan. They return 0 or a negative errno and never
 * print; the runtime above turns errnos into ACL error codes and messages.
 * A device is named by the file descriptor drv_open() returned: GEM handles,
 * device addresses, stream ids and syncobj handles are all per file.
 */
#ifndef VNPU_LIB_DRV_H
#define VNPU_LIB_DRV_H

#include <stdbool.h>
#include <stdint.h>

#include "vnpu_drm.h"

/* Number of vnpu devices the module created (-ENODEV if none is reachable). */
int drv_count(unsigned int *count);

/* Open the vnpu device with VNPU_PARAM_DEVICE_INDEX @index: a file
 * descriptor, or -ENODEV if there is no such device. */
int drv_open(unsigned int index);
void drv_close(int fd);

int drv_get_param(int fd, uint32_t param, uint64_t *value);

/* Engine time the jobs of the DRM client behind @fd have used, in ns: the
 * kernel's fdinfo key drm-engine-compute (jobs count when they end). */
int drv_engine_busy_ns(int fd, uint64_t *ns);

/* Device nodes (drv_node.c, shared with the tools). */

/* Is @fd a node of the vnpu driver? */
bool drv_is_vnpu(int fd);

/* What a drv_nodes() callback returns. */
#define DRV_NODE_NEXT 0		/* close this node, go on */
#define DRV_NODE_KEEP 1		/* the callback keeps the fd; go on */
#define DRV_NODE_STOP 2		/* the callback keeps the fd; stop */
#define DRV_NODE_PATH_MAX 64

/*
 * Call @fn on every vnpu node (accel nodes first, then render nodes), each
 * opened read-write: with its path and fd, which @fn closes or keeps by
 * what it returns. A negative return stops the walk (the fd is closed) and
 * is returned; DRV_NODE_STOP returns DRV_NODE_STOP; else 0.
 */
int drv_nodes(int (*fn)(const char *path, int fd, void *arg), void *arg);

/* Buffers. */
int drv_bo_create(int fd, uint64_t size, uint32_t flags, uint32_t *handle, uint64_t *va);
int drv_bo_info(int fd, uint32_t handle, struct drm_vnpu_bo_info *info);
int drv_bo_userptr(int fd, void *ptr, uint64_t size, uint32_t *handle, uint64_t *va);
int drv_bo_close(int fd, uint32_t handle);
/* Map @size bytes of the buffer for the CPU (read-write, shared). */
int drv_bo_mmap(int fd, uint32_t handle, uint64_t size, void **cpu);
void drv_bo_munmap(void *cpu, uint64_t size);
int drv_prime_export(int fd, uint32_t handle, int *dmabuf_fd);
int drv_prime_import(int fd, int dmabuf_fd, uint32_t *handle);

/* Streams and submission. */
int drv_stream_create(int fd, uint32_t priority, uint32_t *stream_id);
int drv_stream_destroy(int fd, uint32_t stream_id);
int drv_stream_query(int fd, uint32_t stream_id, struct drm_vnpu_stream_query *query);
int drv_stream_set_param(int fd, uint32_t stream_id, uint32_t param, uint64_t value);
/* STREAM_ABORT (VNPU_STREAM_ABORT_* @flags): the last job submitted before it
 * and the last completed one. */
int drv_stream_abort(int fd, uint32_t stream_id, uint32_t flags, uint64_t *seqno, uint64_t *completed);
/*
 * Queue @ntasks tasks on @stream_id as one job, after the fences of @in
 * (@nin syncs); install the job's fence at @out_point of timeline syncobj
 * @out_handle (0: none). @data (@data_size bytes, NULL when 0) is the
 * submit's data area: the operator tasks' descriptors and operand lists.
 * @flags: 0, or VNPU_SUBMIT_NONBLOCK for -ENOBUFS instead of waiting while
 * the file has its limit of unfinished jobs. -ENOTCONN: the device has no
 * engine server.
 */
int drv_submit(int fd, uint32_t stream_id, uint32_t flags, const struct drm_vnpu_task *tasks,
	       uint32_t ntasks, const void *data, uint32_t data_size, const struct drm_vnpu_sync *in,
	       uint32_t nin, uint32_t out_handle, uint64_t out_point);
/*
 * The host wrote [@va, @va + @size) of device-addressable memory: parked
 * waits on words in it look again before this returns (waits are never
 * polled). *@woken (may be NULL) gets how many it released.
 */
int drv_signal(int fd, uint64_t va, uint64_t size, uint32_t *woken);

/* Pools (used by the allocator work). */
int drv_pool_bind(int fd, uint32_t stream_id, uint64_t va, uint64_t size);
int drv_pool_unbind(int fd, uint32_t stream_id, uint64_t va, uint64_t size);
int drv_pool_query(int fd, struct drm_vnpu_pool_query *query);

/* Syncobjs. */
int drv_syncobj_create(int fd, uint32_t *handle);
int drv_syncobj_destroy(int fd, uint32_t handle);
/*
 * Wait until the points (0 for binary syncobjs) have signalled: all of them,
 * or with @any the first, whose index goes to *@first. @deadline_ns is an
 * absolute CLOCK_MONOTONIC time (INT64_MAX: forever). Syncobjs without a
 * fence yet are waited for. Returns -ETIME when the deadline passed.
 */
int drv_syncobj_wait(int fd, const uint32_t *handles, const uint64_t *points, uint32_t count,
		     int64_t deadline_ns, bool any, uint32_t *first);
/* Last signalled point of a timeline syncobj. */
int drv_syncobj_query(int fd, uint32_t handle, uint64_t *point);
int drv_syncobj_signal(int fd, uint32_t handle);
int drv_syncobj_reset(int fd, uint32_t handle);

#endif /* VNPU_LIB_DRV_H */
