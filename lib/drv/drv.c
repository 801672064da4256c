// SPDX-License-Identifier: MIT
/*
 * drv.c - the driver layer: device discovery, buffers, streams, submission,
 * host signalling and syncobjs, each a thin wrapper around the vnpu uapi
 * through libdrm.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xf86drm.h>

#include "drv.h"

static int drv_ioctl(int fd, unsigned long request, void *arg)
{
	return drmIoctl(fd, request, arg) ? -errno : 0;
}

struct drv_pick {
	bool (*fn)(int fd, void *arg);
	void *arg;
	int fd;
};

static int drv_pick_node(const char *path, int fd, void *arg)
{
	struct drv_pick *p = arg;

	(void)path;
	if (!p->fn(fd, p->arg))
		return DRV_NODE_NEXT;
	p->fd = fd;
	return DRV_NODE_STOP;
}

/*
 * The first vnpu node @fn accepts, open; all others are closed. Returns
 * -ENODEV if @fn never accepted one.
 */
static int drv_scan(bool (*fn)(int fd, void *arg), void *arg)
{
	struct drv_pick p = { .fn = fn, .arg = arg, .fd = -ENODEV };

	return drv_nodes(drv_pick_node, &p) == DRV_NODE_STOP ? p.fd : -ENODEV;
}

static bool drv_any(int fd, void *arg)
{
	(void)fd;
	(void)arg;
	return true;
}

int drv_count(unsigned int *count)
{
	uint64_t n;
	int fd, ret;

	fd = drv_scan(drv_any, NULL);
	if (fd < 0)
		return fd;
	ret = drv_get_param(fd, VNPU_PARAM_NUM_DEVICES, &n);
	close(fd);
	if (ret)
		return ret;
	*count = (unsigned int)n;
	return 0;
}

static bool drv_has_index(int fd, void *arg)
{
	uint64_t index;

	return !drv_get_param(fd, VNPU_PARAM_DEVICE_INDEX, &index) &&
	       index == *(unsigned int *)arg;
}

int drv_open(unsigned int index)
{
	return drv_scan(drv_has_index, &index);
}

void drv_close(int fd)
{
	if (fd >= 0)
		close(fd);
}

int drv_bo_create(int fd, uint64_t size, uint32_t flags, uint32_t *handle, uint64_t *va)
{
	struct drm_vnpu_bo_create args = { .size = size, .flags = flags };
	int ret = drv_ioctl(fd, DRM_IOCTL_VNPU_BO_CREATE, &args);

	if (!ret) {
		*handle = args.handle;
		*va = args.va;
	}
	return ret;
}

int drv_bo_info(int fd, uint32_t handle, struct drm_vnpu_bo_info *info)
{
	memset(info, 0, sizeof(*info));
	info->handle = handle;
	return drv_ioctl(fd, DRM_IOCTL_VNPU_BO_INFO, info);
}

int drv_bo_userptr(int fd, void *ptr, uint64_t size, uint32_t *handle, uint64_t *va)
{
	struct drm_vnpu_bo_userptr args = {
		.user_ptr = (uint64_t)(uintptr_t)ptr,
		.size = size,
	};
	int ret = drv_ioctl(fd, DRM_IOCTL_VNPU_BO_USERPTR, &args);

	if (!ret) {
		*handle = args.handle;
		*va = args.va;
	}
	return ret;
}

int drv_bo_close(int fd, uint32_t handle)
{
	struct drm_gem_close args = { .handle = handle };

	return drv_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &args);
}

int drv_bo_mmap(int fd, uint32_t handle, uint64_t size, void **cpu)
{
	struct drm_vnpu_bo_info info;
	void *ptr;
	int ret;

	ret = drv_bo_info(fd, handle, &info);
	if (ret)
		return ret;
	if (!info.mmap_offset)
		return -EINVAL;
	ptr = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)info.mmap_offset);
	if (ptr == MAP_FAILED)
		return -errno;
	*cpu = ptr;
	return 0;
}

void drv_bo_munmap(void *cpu, uint64_t size)
{
	if (cpu)
		munmap(cpu, size);
}

int drv_prime_export(int fd, uint32_t handle, int *dmabuf_fd)
{
	return drmPrimeHandleToFD(fd, handle, DRM_CLOEXEC | DRM_RDWR, dmabuf_fd) ? -errno : 0;
}

int drv_prime_import(int fd, int dmabuf_fd, uint32_t *handle)
{
	return drmPrimeFDToHandle(fd, dmabuf_fd, handle) ? -errno : 0;
}

int drv_stream_create(int fd, uint32_t priority, uint32_t *stream_id)
{
	struct drm_vnpu_stream_create args = { .priority = priority };
	int ret = drv_ioctl(fd, DRM_IOCTL_VNPU_STREAM_CREATE, &args);

	if (!ret)
		*stream_id = args.stream_id;
	return ret;
}

int drv_stream_destroy(int fd, uint32_t stream_id)
{
	struct drm_vnpu_stream_destroy args = { .stream_id = stream_id };

	return drv_ioctl(fd, DRM_IOCTL_VNPU_STREAM_DESTROY, &args);
}

int drv_stream_query(int fd, uint32_t stream_id, struct drm_vnpu_stream_query *query)
{
	memset(query, 0, sizeof(*query));
	query->stream_id = stream_id;
	return drv_ioctl(fd, DRM_IOCTL_VNPU_STREAM_QUERY, query);
}

int drv_stream_abort(int fd, uint32_t stream_id, uint32_t flags, uint64_t *seqno, uint64_t *completed)
{
	struct drm_vnpu_stream_abort args = { .stream_id = stream_id, .flags = flags };
	int ret = drv_ioctl(fd, DRM_IOCTL_VNPU_STREAM_ABORT, &args);

	if (!ret) {
		*seqno = args.seqno;
		*completed = args.completed_seqno;
	}
	return ret;
}

int drv_stream_set_param(int fd, uint32_t stream_id, uint32_t param, uint64_t value)
{
	struct drm_vnpu_stream_set_param args = {
		.stream_id = stream_id,
		.param = param,
		.value = value,
	};

	return drv_ioctl(fd, DRM_IOCTL_VNPU_STREAM_SET_PARAM, &args);
}

int drv_submit(int fd, uint32_t stream_id, uint32_t flags, const struct drm_vnpu_task *tasks,
	       uint32_t ntasks, const void *data, uint32_t data_size, const struct drm_vnpu_sync *in,
	       uint32_t nin, uint32_t out_handle, uint64_t out_point)
{
	struct drm_vnpu_submit args = {
		.stream_id = stream_id,
		.flags = flags,
		.tasks = (uint64_t)(uintptr_t)tasks,
		.task_count = ntasks,
		.task_size = sizeof(*tasks),
		.in_syncs = (uint64_t)(uintptr_t)in,
		.in_sync_count = nin,
		.data_size = data_size,
		.out_sync = { .handle = out_handle, .point = out_point },
		.data = data_size ? (uint64_t)(uintptr_t)data : 0,
	};

	return drv_ioctl(fd, DRM_IOCTL_VNPU_SUBMIT, &args);
}

int drv_signal(int fd, uint64_t va, uint64_t size, uint32_t *woken)
{
	struct drm_vnpu_signal args = { .va = va, .size = size };
	int ret = drv_ioctl(fd, DRM_IOCTL_VNPU_SIGNAL, &args);

	if (!ret && woken)
		*woken = args.woken;
	return ret;
}

static int drv_pool_op(int fd, unsigned long request, uint32_t stream_id, uint64_t va, uint64_t size)
{
	struct drm_vnpu_pool_bind args = {
		.stream_id = stream_id,
		.va = va,
		.size = size,
	};

	return drv_ioctl(fd, request, &args);
}

int drv_pool_bind(int fd, uint32_t stream_id, uint64_t va, uint64_t size)
{
	return drv_pool_op(fd, DRM_IOCTL_VNPU_POOL_BIND, stream_id, va, size);
}

int drv_pool_unbind(int fd, uint32_t stream_id, uint64_t va, uint64_t size)
{
	return drv_pool_op(fd, DRM_IOCTL_VNPU_POOL_UNBIND, stream_id, va, size);
}

int drv_pool_query(int fd, struct drm_vnpu_pool_query *query)
{
	return drv_ioctl(fd, DRM_IOCTL_VNPU_POOL_QUERY, query);
}

int drv_syncobj_create(int fd, uint32_t *handle)
{
	return drmSyncobjCreate(fd, 0, handle) ? -errno : 0;
}

int drv_syncobj_destroy(int fd, uint32_t handle)
{
	return drmSyncobjDestroy(fd, handle) ? -errno : 0;
}

int drv_syncobj_wait(int fd, const uint32_t *handles, const uint64_t *points, uint32_t count,
		     int64_t deadline_ns, bool any, uint32_t *first)
{
	unsigned int flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT;
	uint32_t signalled = 0;
	int ret;

	flags |= any ? 0 : DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL;
	/* libdrm takes non-const arrays but only reads them. */
	ret = drmSyncobjTimelineWait(fd, (uint32_t *)handles, (uint64_t *)points, count,
				     deadline_ns, flags, &signalled);
	if (ret)
		return ret < 0 && ret != -1 ? ret : -errno;
	if (first)
		*first = signalled;
	return 0;
}

int drv_syncobj_query(int fd, uint32_t handle, uint64_t *point)
{
	return drmSyncobjQuery(fd, &handle, point, 1) ? -errno : 0;
}

int drv_syncobj_signal(int fd, uint32_t handle)
{
	return drmSyncobjSignal(fd, &handle, 1) ? -errno : 0;
}

int drv_syncobj_reset(int fd, uint32_t handle)
{
	return drmSyncobjReset(fd, &handle, 1) ? -errno : 0;
}
