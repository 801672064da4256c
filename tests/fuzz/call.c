// SPDX-License-Identifier: GPL-2.0
/*
 * Every call the fuzzer makes is counted here, per call and per errno, in
 * memory shared by all its processes.
 */
#include <errno.h>
#include <xf86drm.h>

#include "fuzz.h"

struct fz_stats *fz_stats;

const char *const fz_call_name[FZ_NCALLS] = {
	[FZ_GET_PARAM] = "VNPU_GET_PARAM",
	[FZ_BO_CREATE] = "VNPU_BO_CREATE",
	[FZ_BO_INFO] = "VNPU_BO_INFO",
	[FZ_BO_USERPTR] = "VNPU_BO_USERPTR",
	[FZ_STREAM_CREATE] = "VNPU_STREAM_CREATE",
	[FZ_STREAM_DESTROY] = "VNPU_STREAM_DESTROY",
	[FZ_SUBMIT] = "VNPU_SUBMIT",
	[FZ_STREAM_QUERY] = "VNPU_STREAM_QUERY",
	[FZ_STREAM_SET_PARAM] = "VNPU_STREAM_SET_PARAM",
	[FZ_POOL_BIND] = "VNPU_POOL_BIND",
	[FZ_POOL_UNBIND] = "VNPU_POOL_UNBIND",
	[FZ_POOL_QUERY] = "VNPU_POOL_QUERY",
	[FZ_SIGNAL] = "VNPU_SIGNAL",
	[FZ_ENGINE_ATTACH] = "VNPU_ENGINE_ATTACH",
	[FZ_STREAM_ABORT] = "VNPU_STREAM_ABORT",
	[FZ_ENGINE_RUN] = "VNPU_ENGINE_IOCTL_RUN",
	[FZ_ENGINE_NOTIFY] = "VNPU_ENGINE_IOCTL_NOTIFY",
	[FZ_GEM_CLOSE] = "GEM_CLOSE",
	[FZ_PRIME_HANDLE_TO_FD] = "PRIME_HANDLE_TO_FD",
	[FZ_PRIME_FD_TO_HANDLE] = "PRIME_FD_TO_HANDLE",
	[FZ_SYNCOBJ_CREATE] = "SYNCOBJ_CREATE",
	[FZ_SYNCOBJ_DESTROY] = "SYNCOBJ_DESTROY",
	[FZ_SYNCOBJ_HANDLE_TO_FD] = "SYNCOBJ_HANDLE_TO_FD",
	[FZ_SYNCOBJ_FD_TO_HANDLE] = "SYNCOBJ_FD_TO_HANDLE",
	[FZ_SYNCOBJ_WAIT] = "SYNCOBJ_WAIT",
	[FZ_SYNCOBJ_TIMELINE_WAIT] = "SYNCOBJ_TIMELINE_WAIT",
	[FZ_SYNCOBJ_SIGNAL] = "SYNCOBJ_SIGNAL",
	[FZ_SYNCOBJ_TIMELINE_SIGNAL] = "SYNCOBJ_TIMELINE_SIGNAL",
	[FZ_SYNCOBJ_RESET] = "SYNCOBJ_RESET",
	[FZ_SYNCOBJ_QUERY] = "SYNCOBJ_QUERY",
	[FZ_SYNCOBJ_TRANSFER] = "SYNCOBJ_TRANSFER",
	[FZ_GET_CAP] = "GET_CAP",
	[FZ_SET_CLIENT_CAP] = "SET_CLIENT_CAP",
	[FZ_VERSION] = "VERSION",
	[FZ_GET_UNIQUE] = "GET_UNIQUE",
	[FZ_GEM_FLINK] = "GEM_FLINK",
	[FZ_GEM_OPEN] = "GEM_OPEN",
	[FZ_SYNC_FILE_INFO] = "SYNC_IOC_FILE_INFO",
	[FZ_BAD_IOCTL] = "(unknown ioctl nr)",
	[FZ_MMAP] = "mmap",
	[FZ_MUNMAP] = "munmap",
	[FZ_FORK] = "fork",
	[FZ_REOPEN] = "close+reopen",
	[FZ_KILL_CHILD] = "SIGKILL child",
};

void fz_count(enum fz_call call, int ret)
{
	int e = -ret;

	if (!ret) {
		__atomic_fetch_add(&fz_stats->ok[call], 1, __ATOMIC_RELAXED);
		return;
	}
	if (e <= 0 || e >= FZ_NERRNO)
		e = 0;
	__atomic_fetch_add(&fz_stats->err[call][e], 1, __ATOMIC_RELAXED);
}

int fz_ioctl(int fd, enum fz_call call, unsigned long request, void *arg)
{
	int ret = drmIoctl(fd, request, arg) ? -errno : 0;

	fz_count(call, ret);
	return ret;
}
