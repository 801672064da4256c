// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers for the stream selftests and benchmarks.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include <linux/sync_file.h>
#include <xf86drm.h>

#include "vnpu_stream_util.h"
#include "vnpu_test.h"

uint64_t vnpu_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ---------------------------------------------------------------- streams */

int vnpu_stream_create(int fd, uint32_t priority, uint32_t *id)
{
	struct drm_vnpu_stream_create args = { .priority = priority };
	int ret = vnpu_ioctl(fd, DRM_IOCTL_VNPU_STREAM_CREATE, &args);

	if (!ret)
		*id = args.stream_id;
	return ret;
}

int vnpu_stream_destroy(int fd, uint32_t id)
{
	struct drm_vnpu_stream_destroy args = { .stream_id = id };

	return vnpu_ioctl(fd, DRM_IOCTL_VNPU_STREAM_DESTROY, &args);
}

int vnpu_stream_query(int fd, uint32_t id, struct drm_vnpu_stream_query *q)
{
	memset(q, 0, sizeof(*q));
	q->stream_id = id;
	return vnpu_ioctl(fd, DRM_IOCTL_VNPU_STREAM_QUERY, q);
}

int vnpu_stream_set_param(int fd, uint32_t id, uint32_t param, uint64_t value)
{
	struct drm_vnpu_stream_set_param args = {
		.stream_id = id, .param = param, .value = value,
	};

	return vnpu_ioctl(fd, DRM_IOCTL_VNPU_STREAM_SET_PARAM, &args);
}

int vnpu_stream_abort(int fd, uint32_t id, uint32_t flags, struct drm_vnpu_stream_abort *out)
{
	struct drm_vnpu_stream_abort args = { .stream_id = id, .flags = flags };
	int ret = vnpu_ioctl(fd, DRM_IOCTL_VNPU_STREAM_ABORT, &args);

	if (!ret && out)
		*out = args;
	return ret;
}

int vnpu_stream_wait_seqno(int fd, uint32_t stream, uint64_t seqno, uint64_t timeout_ns)
{
	uint64_t end = vnpu_now_ns() + timeout_ns;
	struct drm_vnpu_stream_query q;
	int ret;

	for (;;) {
		ret = vnpu_stream_query(fd, stream, &q);
		if (ret)
			return ret;
		if (q.completed_seqno >= seqno)
			return 0;
		if (vnpu_now_ns() > end)
			return -ETIME;
		usleep(200);
	}
}

/* ---------------------------------------------------------------- tasks */

struct drm_vnpu_task vnpu_task_nop(void)
{
	return (struct drm_vnpu_task){ .kind = VNPU_TASK_NOP };
}

struct drm_vnpu_task vnpu_task_copy(uint64_t dst, uint64_t src, uint64_t size)
{
	return (struct drm_vnpu_task){
		.kind = VNPU_TASK_COPY,
		.copy = { .dst = dst, .src = src, .size = size },
	};
}

struct drm_vnpu_task vnpu_task_fill(uint64_t dst, uint64_t size, uint32_t value)
{
	return (struct drm_vnpu_task){
		.kind = VNPU_TASK_FILL,
		.fill = { .dst = dst, .size = size, .value = value },
	};
}

struct drm_vnpu_task vnpu_task_write32(uint64_t addr, uint32_t value)
{
	return (struct drm_vnpu_task){
		.kind = VNPU_TASK_WRITE_VALUE,
		.value = { .addr = addr, .value = value },
	};
}

struct drm_vnpu_task vnpu_task_write64(uint64_t addr, uint64_t value)
{
	return (struct drm_vnpu_task){
		.kind = VNPU_TASK_WRITE_VALUE,
		.flags = VNPU_TASK_VALUE_64,
		.value = { .addr = addr, .value = value },
	};
}

struct drm_vnpu_task vnpu_task_wait32(uint64_t addr, uint32_t cmp, uint32_t value)
{
	return (struct drm_vnpu_task){
		.kind = VNPU_TASK_WAIT_VALUE,
		.value = { .addr = addr, .value = value, .cmp = cmp },
	};
}

struct drm_vnpu_task vnpu_task_wait64(uint64_t addr, uint32_t cmp, uint64_t value)
{
	return (struct drm_vnpu_task){
		.kind = VNPU_TASK_WAIT_VALUE,
		.flags = VNPU_TASK_VALUE_64,
		.value = { .addr = addr, .value = value, .cmp = cmp },
	};
}

struct drm_vnpu_task vnpu_task_timestamp(uint64_t addr)
{
	return (struct drm_vnpu_task){
		.kind = VNPU_TASK_TIMESTAMP,
		.timestamp = { .addr = addr },
	};
}

/* ---------------------------------------------------------------- submit */

struct drm_vnpu_submit vnpu_submit_args(uint32_t stream, const struct drm_vnpu_task *tasks,
					uint32_t count)
{
	return (struct drm_vnpu_submit){
		.stream_id = stream,
		.tasks = (uintptr_t)tasks,
		.task_count = count,
		.task_size = sizeof(*tasks),
	};
}

int vnpu_submit_raw(int fd, struct drm_vnpu_submit *args)
{
	return vnpu_ioctl(fd, DRM_IOCTL_VNPU_SUBMIT, args);
}

int vnpu_submit(int fd, uint32_t stream, const struct drm_vnpu_task *tasks, uint32_t count,
		const struct drm_vnpu_sync *in, uint32_t in_count,
		uint32_t out_handle, uint64_t out_point, uint64_t *seqno)
{
	struct drm_vnpu_submit args = vnpu_submit_args(stream, tasks, count);
	int ret;

	args.in_syncs = (uintptr_t)in;
	args.in_sync_count = in_count;
	args.out_sync.handle = out_handle;
	args.out_sync.point = out_point;
	ret = vnpu_submit_raw(fd, &args);
	if (!ret && seqno)
		*seqno = args.seqno;
	return ret;
}

int vnpu_submit_wait(int fd, uint32_t stream, const struct drm_vnpu_task *tasks,
		     uint32_t count, uint64_t *seqno)
{
	uint32_t sync;
	int ret;

	ret = vnpu_syncobj_create(fd, &sync);
	if (ret)
		return ret;
	ret = vnpu_submit(fd, stream, tasks, count, NULL, 0, sync, 0, seqno);
	if (!ret)
		ret = vnpu_syncobj_wait(fd, sync, VNPU_WAIT_FOREVER_NS);
	if (!ret) {
		/* 1: signalled without error; negative: the job's error. */
		ret = vnpu_syncobj_fence_status(fd, sync);
		if (ret > 0)
			ret = 0;
		else if (!ret)
			ret = -EBUSY;	/* cannot be: the wait returned */
	}
	vnpu_syncobj_destroy(fd, sync);
	return ret;
}

/* ---------------------------------------------------------------- syncobjs */

int vnpu_syncobj_create(int fd, uint32_t *handle)
{
	return drmSyncobjCreate(fd, 0, handle) ? -errno : 0;
}

int vnpu_syncobj_create_signaled(int fd, uint32_t *handle)
{
	return drmSyncobjCreate(fd, DRM_SYNCOBJ_CREATE_SIGNALED, handle) ? -errno : 0;
}

int vnpu_syncobj_destroy(int fd, uint32_t handle)
{
	return drmSyncobjDestroy(fd, handle) ? -errno : 0;
}

static int64_t abs_timeout(uint64_t timeout_ns)
{
	return (int64_t)(vnpu_now_ns() + timeout_ns);
}

int vnpu_syncobj_wait(int fd, uint32_t handle, uint64_t timeout_ns)
{
	return drmSyncobjWait(fd, &handle, 1, abs_timeout(timeout_ns),
			      DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL, NULL) < 0 ? -errno : 0;
}

int vnpu_syncobj_timeline_wait(int fd, uint32_t handle, uint64_t point, uint64_t timeout_ns)
{
	return drmSyncobjTimelineWait(fd, &handle, &point, 1, abs_timeout(timeout_ns),
				      DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL, NULL) < 0 ? -errno : 0;
}

int vnpu_syncobj_query(int fd, uint32_t handle, uint64_t *point)
{
	return drmSyncobjQuery(fd, &handle, point, 1) ? -errno : 0;
}

int vnpu_syncobj_fence_status(int fd, uint32_t handle)
{
	struct sync_file_info info;
	int sync_fd, ret;

	if (drmSyncobjExportSyncFile(fd, handle, &sync_fd))
		return -errno;
	memset(&info, 0, sizeof(info));
	ret = ioctl(sync_fd, SYNC_IOC_FILE_INFO, &info) ? -errno : info.status;
	close(sync_fd);
	return ret;
}

bool vnpu_status_cancelled(int status)
{
	return status == -ECANCELED || status == -ESRCH;
}

/* ---------------------------------------------------------------- buffers */

int vnpu_buf_create(int fd, uint64_t size, struct vnpu_buf *buf)
{
	int ret;

	memset(buf, 0, sizeof(*buf));
	ret = vnpu_bo_create(fd, size, 0, &buf->handle, &buf->va);
	if (ret)
		return ret;
	buf->size = size;
	buf->cpu = vnpu_bo_mmap(fd, buf->handle, size);
	if (!buf->cpu) {
		vnpu_bo_close(fd, buf->handle);
		buf->handle = 0;
		return -ENOMEM;
	}
	return 0;
}

int vnpu_signal(int fd, uint64_t va, uint64_t size, uint32_t *woken)
{
	struct drm_vnpu_signal args = { .va = va, .size = size };
	int ret = vnpu_ioctl(fd, DRM_IOCTL_VNPU_SIGNAL, &args);

	if (!ret && woken)
		*woken = args.woken;
	return ret;
}

int vnpu_buf_write32(int fd, struct vnpu_buf *buf, size_t off, uint32_t value)
{
	*(volatile uint32_t *)((char *)buf->cpu + off) = value;
	return vnpu_signal(fd, buf->va + off, sizeof(value), NULL);
}

void vnpu_buf_destroy(int fd, struct vnpu_buf *buf)
{
	if (buf->cpu)
		munmap(buf->cpu, buf->size);
	if (buf->handle)
		vnpu_bo_close(fd, buf->handle);
	memset(buf, 0, sizeof(*buf));
}

/* ---------------------------------------------------------------- debugfs */

static long long key_value(FILE *f, const char *key)
{
	char line[256];
	size_t len = strlen(key);
	long long v = -1;

	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, len) && (line[len] == '\t' || line[len] == ':')) {
			char *p = line + len + 1;

			while (*p == ' ' || *p == '\t')
				p++;
			v = strtoll(p, NULL, 10);
			break;
		}
	}
	return v;
}

long long vnpu_debugfs_streams_value(unsigned int index, const char *key)
{
	char path[128];
	int card = vnpu_primary_minor(index);
	long long v;
	FILE *f;

	if (card < 0)
		return -1;
	snprintf(path, sizeof(path), "/sys/kernel/debug/dri/%d/streams", card);
	f = fopen(path, "r");
	if (!f)
		return -1;
	v = key_value(f, key);
	fclose(f);
	return v;
}

int vnpu_wait_no_jobs(unsigned int index, uint64_t timeout_ns)
{
	uint64_t end = vnpu_now_ns() + timeout_ns;

	while (vnpu_debugfs_streams_value(index, "jobs") != 0) {
		if (vnpu_now_ns() > end)
			return -ETIME;
		usleep(1000);
	}
	return 0;
}

long long vnpu_fdinfo_value(int fd, const char *key)
{
	char path[64];
	long long v;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return -1;
	v = key_value(f, key);
	fclose(f);
	return v;
}
