// SPDX-License-Identifier: GPL-2.0
/*
 * Generators of the DRM core ioctls a client reaches: the syncobj family,
 * GET_CAP, SET_CLIENT_CAP, VERSION, GET_UNIQUE, the GEM name ioctls a render
 * node refuses, unknown ioctl numbers and bad argument pointers.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <xf86drm.h>

#include "fuzz.h"

static uint32_t unknown_handle(struct fz_rng *r)
{
	return fz_chance(r, 1, 3) ? 0 : (1u << 30) + (uint32_t)fz_below(r, 1u << 30);
}

static void sync_create(struct fz_thread *t)
{
	struct drm_syncobj_create c = { 0 };
	struct fz_expect e;
	bool timeline = fz_chance(&t->rng, 1, 3);

	c.flags = timeline ? 0 : fz_flags(&t->rng, DRM_SYNCOBJ_CREATE_SIGNALED);
	c.handle = fz_any32(&t->rng);
	if (c.flags & ~DRM_SYNCOBJ_CREATE_SIGNALED)
		fz_expect_invalid(&e, "syncobj_create_flags", EINVAL, 0);
	else
		fz_expect_valid(&e, "syncobj_create", 0);
	fz_what(t, "SYNCOBJ_CREATE flags=%#x", c.flags);
	if (fz_judge(t, FZ_SYNCOBJ_CREATE, fz_ioctl(t->file->fd, FZ_SYNCOBJ_CREATE,
						    DRM_IOCTL_SYNCOBJ_CREATE, &c), &e))
		return;
	fz_check(t, "handle_nonzero_unique", c.handle && !fz_sync_live(t->file, c.handle),
		 "syncobj handle %u, still in the pool: %s", c.handle, t->file->where);
	if (!fz_add_sync(t->file, t->tid, c.handle, timeline,
			 c.flags & DRM_SYNCOBJ_CREATE_SIGNALED))
		drmSyncobjDestroy(t->file->fd, c.handle);
}

static void sync_destroy(struct fz_thread *t)
{
	struct drm_syncobj_destroy d = { 0 };
	struct fz_expect e;
	struct fz_sync y;
	bool known = fz_chance(&t->rng, 5, 6) && fz_pick_sync(t->file, &t->rng, t->tid, &y);

	d.handle = known ? y.handle : unknown_handle(&t->rng);
	d.pad = fz_chance(&t->rng, 1, 12) ? fz_any32(&t->rng) | 1 : 0;
	if (d.pad)
		fz_expect_invalid(&e, "syncobj_destroy_pad", EINVAL, 0);
	else if (!known)
		fz_expect_invalid(&e, "syncobj_destroy_unknown", EINVAL, ENOENT, 0);
	else
		fz_expect_valid(&e, "syncobj_destroy", 0);
	fz_what(t, "SYNCOBJ_DESTROY handle=%u pad=%#x", d.handle, d.pad);
	/*
	 * Out of the pool before the call: once the kernel frees the handle,
	 * another thread's SYNCOBJ_CREATE may get it at once. A destroy that
	 * fails leaves the syncobj out of the pool (it only leaks).
	 */
	if (known && !d.pad)
		fz_del_sync(t->file, d.handle);
	fz_judge(t, FZ_SYNCOBJ_DESTROY, fz_ioctl(t->file->fd, FZ_SYNCOBJ_DESTROY,
						 DRM_IOCTL_SYNCOBJ_DESTROY, &d), &e);
}

static void sync_export(struct fz_thread *t)
{
	struct drm_syncobj_handle h = { 0 };
	struct fz_expect e;
	struct fz_sync y;
	bool known = fz_chance(&t->rng, 6, 7) && fz_pick_sync(t->file, &t->rng, t->tid, &y);
	bool file = fz_chance(&t->rng, 1, 2);

	/* A job's out-fence exported, then the device closed: known Oops at rmmod. */
	if (known && y.jobbed && !fz_opts.export_job_fences)
		return;
	h.handle = known ? y.handle : unknown_handle(&t->rng);
	h.flags = file ? DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE : 0;
	h.fd = (int)fz_any32(&t->rng);
	if (fz_chance(&t->rng, 1, 12)) {
		h.flags |= 2u << fz_below(&t->rng, 31);
		fz_expect_invalid(&e, "syncobj_handle_to_fd_flags", EINVAL, known ? 0 : ENOENT, 0);
	} else if (fz_chance(&t->rng, 1, 15)) {
		h.pad = fz_any32(&t->rng) | 1;
		fz_expect_invalid(&e, "syncobj_handle_to_fd_pad", EINVAL, known ? 0 : ENOENT, 0);
	} else if (!known) {
		fz_expect_invalid(&e, "syncobj_handle_to_fd_unknown", EINVAL, ENOENT, 0);
	} else if (file && (y.timeline || !y.has_fence)) {
		fz_expect_valid(&e, "syncobj_export_sync_file", EINVAL, 0);
	} else {
		fz_expect_valid(&e, "syncobj_handle_to_fd", EMFILE, 0);
	}
	fz_what(t, "SYNCOBJ_HANDLE_TO_FD handle=%u flags=%#x", h.handle, h.flags);
	if (fz_judge(t, FZ_SYNCOBJ_HANDLE_TO_FD, fz_ioctl(t->file->fd, FZ_SYNCOBJ_HANDLE_TO_FD,
							  DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h), &e))
		return;
	if (!fz_check(t, "syncobj_handle_to_fd_fd", h.fd >= 0, "fd %d", h.fd))
		return;
	{
		struct fz_xfd x = { .fd = h.fd, .kind = file ? FZ_FD_SYNC_FILE : FZ_FD_SYNCOBJ };

		if (!fz_add_xfd(t->file, &x))
			close(h.fd);
	}
}

static void sync_import(struct fz_thread *t)
{
	struct drm_syncobj_handle h = { 0 };
	struct fz_expect e;
	struct fz_sync y;
	struct fz_xfd x;
	bool file = fz_chance(&t->rng, 1, 2);
	bool known = fz_pick_xfd(t->file, &t->rng, file ? FZ_FD_SYNC_FILE : FZ_FD_SYNCOBJ, &x);

	if (known && fz_chance(&t->rng, 5, 6)) {
		h.fd = x.fd;
	} else {
		h.fd = fz_chance(&t->rng, 1, 2) ? -1 : t->file->fd;
		known = false;
	}
	if (file) {
		/* A sync_file's fence goes into an existing syncobj of ours. */
		if (!fz_pick_sync(t->file, &t->rng, t->tid, &y) || y.timeline)
			return;
		h.handle = y.handle;
		h.flags = DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE;
	}
	if (known)
		fz_expect_valid(&e, "syncobj_fd_to_handle", 0);
	else
		fz_expect_invalid(&e, "syncobj_fd_to_handle_bad_fd", EINVAL, EBADF, ENOENT, 0);
	if (fz_chance(&t->rng, 1, 12)) {
		h.flags |= 2u << fz_below(&t->rng, 31);
		fz_expect_invalid(&e, "syncobj_fd_to_handle_flags", EINVAL, EBADF, 0);
	}
	fz_what(t, "SYNCOBJ_FD_TO_HANDLE fd=%d flags=%#x handle=%u", h.fd, h.flags, h.handle);
	if (fz_judge(t, FZ_SYNCOBJ_FD_TO_HANDLE, fz_ioctl(t->file->fd, FZ_SYNCOBJ_FD_TO_HANDLE,
							  DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &h), &e))
		return;
	if (file) {
		/* The sync_file's fence may come from a job: count it as one. */
		fz_sync_fenced(t->file, h.handle, 0);
		return;
	}
	fz_check(t, "handle_nonzero_unique", h.handle && !fz_sync_live(t->file, h.handle),
		 "imported syncobj handle %u", h.handle);
	/* Its state is unknown here: not used as an in-sync, destroyed. */
	fz_count(FZ_SYNCOBJ_DESTROY, drmSyncobjDestroy(t->file->fd, h.handle) ? -errno : 0);
}

static void sync_wait(struct fz_thread *t, bool timeline)
{
	struct drm_syncobj_timeline_wait w = { 0 };
	uint32_t handles[4];
	uint64_t points[4];
	struct fz_expect e;
	uint32_t i, n = 1 + (uint32_t)fz_below(&t->rng, 3);
	bool bad = false;

	for (i = 0; i < n; i++) {
		struct fz_sync y;

		if (!fz_pick_sync(t->file, &t->rng, t->tid, &y) || fz_chance(&t->rng, 1, 15)) {
			handles[i] = (1u << 30) + (uint32_t)fz_below(&t->rng, 1u << 30);
			bad = true;
			points[i] = 0;
			continue;
		}
		handles[i] = y.handle;
		points[i] = timeline && y.timeline ? fz_below(&t->rng, y.last_point + 2) : 0;
	}
	w.handles = (uint64_t)(uintptr_t)handles;
	w.points = (uint64_t)(uintptr_t)points;
	w.count_handles = n;
	w.timeout_nsec = fz_chance(&t->rng, 1, 2) ? 0 : (int64_t)(fz_now_ns() + 1000000);
	w.flags = fz_flags(&t->rng, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL |
			   DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT |
			   (timeline ? DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE : 0));
	if (fz_chance(&t->rng, 1, 20)) {
		w.count_handles = 0;
		bad = true;
	}
	if (w.flags & ~(uint32_t)(DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL |
				  DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT |
				  (timeline ? DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE : 0)))
		bad = true;
	if (bad)
		fz_expect_invalid(&e, "syncobj_wait_invalid", EINVAL, ENOENT, 0);
	else
		fz_expect_valid(&e, "syncobj_wait", ETIME, EINVAL, 0);
	fz_what(t, "SYNCOBJ_%sWAIT count=%u flags=%#x", timeline ? "TIMELINE_" : "",
		w.count_handles, w.flags);
	if (timeline) {
		fz_judge(t, FZ_SYNCOBJ_TIMELINE_WAIT,
			 fz_ioctl(t->file->fd, FZ_SYNCOBJ_TIMELINE_WAIT,
				  DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w), &e);
	} else {
		struct drm_syncobj_wait bw = {
			.handles = w.handles, .timeout_nsec = w.timeout_nsec,
			.count_handles = w.count_handles, .flags = w.flags,
		};

		fz_judge(t, FZ_SYNCOBJ_WAIT, fz_ioctl(t->file->fd, FZ_SYNCOBJ_WAIT,
						      DRM_IOCTL_SYNCOBJ_WAIT, &bw), &e);
	}
}

/* SIGNAL, RESET (binary arrays), TIMELINE_SIGNAL, QUERY (timeline arrays). */
static void sync_array(struct fz_thread *t, enum fz_call call)
{
	struct drm_syncobj_timeline_array a = { 0 };
	uint32_t handles[3];
	uint64_t points[3];
	struct fz_sync ys[3];
	struct fz_expect e;
	uint32_t i, n = 1 + (uint32_t)fz_below(&t->rng, 3);
	bool want_tl = call == FZ_SYNCOBJ_TIMELINE_SIGNAL || call == FZ_SYNCOBJ_QUERY;
	bool bad = false;
	int ret;

	for (i = 0; i < n; i++) {
		bool ok = false;
		int tries;

		for (tries = 0; tries < 6 && !ok; tries++)
			ok = fz_pick_sync(t->file, &t->rng, t->tid, &ys[i]) &&
			     ys[i].timeline == want_tl;
		if (!ok || fz_chance(&t->rng, 1, 20)) {
			handles[i] = (1u << 30) + (uint32_t)fz_below(&t->rng, 1u << 30);
			ys[i].live = false;
			bad = true;
		} else {
			handles[i] = ys[i].handle;
		}
		points[i] = call == FZ_SYNCOBJ_TIMELINE_SIGNAL ? ys[i].last_point + 1 + i : 0;
	}
	a.handles = (uint64_t)(uintptr_t)handles;
	a.points = (uint64_t)(uintptr_t)points;
	a.count_handles = n;
	if (fz_chance(&t->rng, 1, 15)) {
		a.flags = 1u << fz_below(&t->rng, 32);
		if (call == FZ_SYNCOBJ_QUERY && a.flags == DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED)
			a.flags = 0;
		else
			bad = true;
	}
	if (bad)
		fz_expect_invalid(&e, "syncobj_array_invalid", EINVAL, ENOENT, 0);
	else
		fz_expect_valid(&e, "syncobj_array", 0);
	fz_what(t, "%s count=%u flags=%#x", fz_call_name[call], n, a.flags);
	switch (call) {
	case FZ_SYNCOBJ_SIGNAL:
	case FZ_SYNCOBJ_RESET: {
		struct drm_syncobj_array b = { .handles = a.handles, .count_handles = n,
					       .pad = a.flags };

		ret = fz_judge(t, call, fz_ioctl(t->file->fd, call, call == FZ_SYNCOBJ_SIGNAL ?
						 DRM_IOCTL_SYNCOBJ_SIGNAL : DRM_IOCTL_SYNCOBJ_RESET,
						 &b), &e);
		break;
	}
	case FZ_SYNCOBJ_TIMELINE_SIGNAL:
		ret = fz_judge(t, call, fz_ioctl(t->file->fd, call,
						 DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, &a), &e);
		break;
	default:
		ret = fz_judge(t, call, fz_ioctl(t->file->fd, call, DRM_IOCTL_SYNCOBJ_QUERY, &a),
			       &e);
		break;
	}
	if (ret)
		return;
	for (i = 0; i < n; i++) {
		if (!ys[i].live)
			continue;
		if (call == FZ_SYNCOBJ_SIGNAL)
			fz_sync_set(t->file, handles[i], true, 0);
		else if (call == FZ_SYNCOBJ_RESET)
			fz_sync_set(t->file, handles[i], false, 0);
		else if (call == FZ_SYNCOBJ_TIMELINE_SIGNAL)
			fz_sync_set(t->file, handles[i], true, points[i]);
		else if (!a.flags)
			fz_check(t, "syncobj_query_payload", points[i] <= ys[i].last_point,
				 "syncobj %u payload %llu above its last point %llu", handles[i],
				 (unsigned long long)points[i],
				 (unsigned long long)ys[i].last_point);
	}
}

static void sync_transfer(struct fz_thread *t)
{
	struct drm_syncobj_transfer x = { 0 };
	struct fz_sync src, dst;
	struct fz_expect e;

	if (!fz_pick_sync(t->file, &t->rng, t->tid, &src) ||
	    !fz_pick_sync(t->file, &t->rng, t->tid, &dst))
		return;
	x.src_handle = src.handle;
	x.dst_handle = dst.handle;
	x.src_point = src.timeline ? fz_below(&t->rng, src.last_point + 1) : 0;
	x.dst_point = dst.timeline ? dst.last_point + 1 : 0;
	if (fz_chance(&t->rng, 1, 12)) {
		/* The DRM core of 6.1 does not check them: random, no rule. */
		x.flags = 2u << fz_below(&t->rng, 31);
		fz_expect_valid(&e, "syncobj_transfer", EINVAL, ENOENT, ETIME, 0);
	} else if (fz_chance(&t->rng, 1, 12)) {
		x.pad = fz_any32(&t->rng) | 1;
		fz_expect_invalid(&e, "syncobj_transfer_pad", EINVAL, 0);
	} else {
		fz_expect_valid(&e, "syncobj_transfer", EINVAL, ENOENT, 0);
	}
	fz_what(t, "SYNCOBJ_TRANSFER %u:%llu -> %u:%llu flags=%#x", x.src_handle,
		(unsigned long long)x.src_point, x.dst_handle, (unsigned long long)x.dst_point,
		x.flags);
	if (fz_judge(t, FZ_SYNCOBJ_TRANSFER, fz_ioctl(t->file->fd, FZ_SYNCOBJ_TRANSFER,
						      DRM_IOCTL_SYNCOBJ_TRANSFER, &x), &e))
		return;
	/* The fence may be a job's: count it as one. */
	if (src.has_fence || src.timeline)
		fz_sync_fenced(t->file, dst.handle, x.dst_point);
}

void fz_gen_syncobj(struct fz_thread *t)
{
	switch (fz_below(&t->rng, 12)) {
	case 0:
	case 1:
		sync_create(t);
		break;
	case 2:
		sync_destroy(t);
		break;
	case 3:
		sync_export(t);
		break;
	case 4:
		sync_import(t);
		break;
	case 5:
		sync_wait(t, false);
		break;
	case 6:
		sync_wait(t, true);
		break;
	case 7:
		sync_array(t, FZ_SYNCOBJ_SIGNAL);
		break;
	case 8:
		sync_array(t, FZ_SYNCOBJ_RESET);
		break;
	case 9:
		sync_array(t, FZ_SYNCOBJ_TIMELINE_SIGNAL);
		break;
	case 10:
		sync_array(t, FZ_SYNCOBJ_QUERY);
		break;
	default:
		sync_transfer(t);
		break;
	}
}

/* ---------------------------------------------------------------- misc */

static void get_cap(struct fz_thread *t)
{
	static const uint64_t caps[] = { DRM_CAP_SYNCOBJ, DRM_CAP_SYNCOBJ_TIMELINE, DRM_CAP_PRIME,
					 DRM_CAP_DUMB_BUFFER, DRM_CAP_TIMESTAMP_MONOTONIC };
	struct drm_get_cap c = { 0 };
	struct fz_expect e;

	c.capability = fz_chance(&t->rng, 4, 5) ? caps[fz_below(&t->rng, 5)] : fz_any64(&t->rng);
	fz_expect_valid(&e, "get_cap", EINVAL, EOPNOTSUPP, 0);
	fz_what(t, "GET_CAP %#llx", (unsigned long long)c.capability);
	if (fz_judge(t, FZ_GET_CAP, fz_ioctl(t->file->fd, FZ_GET_CAP, DRM_IOCTL_GET_CAP, &c), &e))
		return;
	if (c.capability == DRM_CAP_SYNCOBJ || c.capability == DRM_CAP_SYNCOBJ_TIMELINE)
		fz_check(t, "get_cap_syncobj", c.value == 1, "cap %#llx = %llu",
			 (unsigned long long)c.capability, (unsigned long long)c.value);
	if (c.capability == DRM_CAP_PRIME)
		fz_check(t, "get_cap_prime",
			 (c.value & (DRM_PRIME_CAP_IMPORT | DRM_PRIME_CAP_EXPORT)) ==
			 (DRM_PRIME_CAP_IMPORT | DRM_PRIME_CAP_EXPORT), "PRIME cap %#llx",
			 (unsigned long long)c.value);
}

static void version(struct fz_thread *t)
{
	char name[64], date[64], desc[128];
	struct drm_version v = { 0 };
	struct fz_expect e;
	bool bad = fz_chance(&t->rng, 1, 10);

	v.name = bad ? (char *)(uintptr_t)0x10 : name;
	v.name_len = bad ? 8 : sizeof(name) - 1;
	v.date = date;
	v.date_len = fz_below(&t->rng, sizeof(date));
	v.desc = desc;
	v.desc_len = fz_below(&t->rng, sizeof(desc));
	memset(name, 0, sizeof(name));
	if (bad)
		fz_expect_invalid(&e, "version_bad_pointer", EFAULT, 0);
	else
		fz_expect_valid(&e, "version", 0);
	fz_what(t, "VERSION%s", bad ? " (bad pointer)" : "");
	if (fz_judge(t, FZ_VERSION, fz_ioctl(t->file->fd, FZ_VERSION, DRM_IOCTL_VERSION, &v), &e))
		return;
	fz_check(t, "version_name", v.name_len == 4 && !memcmp(name, "vnpu", 4), "name %.*s",
		 (int)(v.name_len < sizeof(name) ? v.name_len : sizeof(name)), name);
}

/* Every vnpu ioctl with an argument pointer no memory is at. */
static void bad_pointer(struct fz_thread *t)
{
	static const struct { enum fz_call call; unsigned long req; } reqs[] = {
		{ FZ_GET_PARAM, DRM_IOCTL_VNPU_GET_PARAM },
		{ FZ_BO_CREATE, DRM_IOCTL_VNPU_BO_CREATE },
		{ FZ_BO_INFO, DRM_IOCTL_VNPU_BO_INFO },
		{ FZ_BO_USERPTR, DRM_IOCTL_VNPU_BO_USERPTR },
		{ FZ_STREAM_CREATE, DRM_IOCTL_VNPU_STREAM_CREATE },
		{ FZ_STREAM_DESTROY, DRM_IOCTL_VNPU_STREAM_DESTROY },
		{ FZ_SUBMIT, DRM_IOCTL_VNPU_SUBMIT },
		{ FZ_STREAM_QUERY, DRM_IOCTL_VNPU_STREAM_QUERY },
		{ FZ_STREAM_SET_PARAM, DRM_IOCTL_VNPU_STREAM_SET_PARAM },
		{ FZ_POOL_BIND, DRM_IOCTL_VNPU_POOL_BIND },
		{ FZ_POOL_UNBIND, DRM_IOCTL_VNPU_POOL_UNBIND },
		{ FZ_POOL_QUERY, DRM_IOCTL_VNPU_POOL_QUERY },
		{ FZ_SIGNAL, DRM_IOCTL_VNPU_SIGNAL },
		{ FZ_ENGINE_ATTACH, DRM_IOCTL_VNPU_ENGINE_ATTACH },
		{ FZ_STREAM_ABORT, DRM_IOCTL_VNPU_STREAM_ABORT },
		{ FZ_SYNCOBJ_CREATE, DRM_IOCTL_SYNCOBJ_CREATE },
		{ FZ_GEM_CLOSE, DRM_IOCTL_GEM_CLOSE },
	};
	unsigned int i = (unsigned int)fz_below(&t->rng, sizeof(reqs) / sizeof(reqs[0]));
	struct fz_expect e;

	fz_expect_invalid(&e, "bad_argument_pointer", EFAULT, 0);
	if (reqs[i].call == FZ_ENGINE_ATTACH)
		fz_expect_also(&e, EACCES, 0);
	fz_what(t, "%s arg=%#llx", fz_call_name[reqs[i].call], 0x10ull);
	fz_judge(t, reqs[i].call, fz_ioctl(t->file->fd, reqs[i].call, reqs[i].req,
					   (void *)(uintptr_t)0x10), &e);
}

static void unknown_nr(struct fz_thread *t)
{
	uint64_t arg[16] = { 0 };
	/* Past the last vnpu ioctl (DRM_VNPU_STREAM_ABORT, ABI 2.2). */
	unsigned int nr = DRM_COMMAND_BASE + DRM_VNPU_STREAM_ABORT + 1 +
			  (unsigned int)fz_below(&t->rng, DRM_COMMAND_END - DRM_COMMAND_BASE -
						 DRM_VNPU_STREAM_ABORT - 1);
	unsigned long req = DRM_IOWR(nr, uint64_t[1 + fz_below(&t->rng, 16)]);
	struct fz_expect e;

	fz_expect_invalid(&e, "unknown_ioctl_nr", EINVAL, ENOTTY, 0);
	fz_what(t, "ioctl nr %#x", nr);
	fz_judge(t, FZ_BAD_IOCTL, fz_ioctl(t->file->fd, FZ_BAD_IOCTL, req, arg), &e);
}

void fz_gen_drm_misc(struct fz_thread *t)
{
	struct fz_expect e;

	switch (fz_below(&t->rng, 8)) {
	case 0:
	case 1:
		get_cap(t);
		break;
	case 2:
		version(t);
		break;
	case 3: {
		struct drm_set_client_cap c = { .capability = fz_below(&t->rng, 8),
						.value = fz_below(&t->rng, 3) };

		fz_expect_valid(&e, "set_client_cap", 0);
		e.nerr = 0;	/* any errno: render nodes refuse most */
		fz_what(t, "SET_CLIENT_CAP %llu=%llu", (unsigned long long)c.capability,
			(unsigned long long)c.value);
		fz_judge(t, FZ_SET_CLIENT_CAP, fz_ioctl(t->file->fd, FZ_SET_CLIENT_CAP,
							DRM_IOCTL_SET_CLIENT_CAP, &c), &e);
		break;
	}
	case 4: {
		char buf[64];
		struct drm_unique u = { .unique_len = sizeof(buf), .unique = buf };

		fz_expect_valid(&e, "get_unique", 0);
		e.nerr = 0;
		fz_what(t, "GET_UNIQUE");
		fz_judge(t, FZ_GET_UNIQUE, fz_ioctl(t->file->fd, FZ_GET_UNIQUE,
						    DRM_IOCTL_GET_UNIQUE, &u), &e);
		break;
	}
	case 5: {
		struct fz_buf b;
		struct drm_gem_flink fl = { 0 };
		struct drm_gem_open op = { .name = 1 + (uint32_t)fz_below(&t->rng, 100) };

		if (fz_pick_buf(t->file, &t->rng, &b))
			fl.handle = b.handle;
		/* Render nodes have no global names. */
		fz_expect_invalid(&e, "render_node_no_flink", 0);
		fz_what(t, "GEM_FLINK handle=%u", fl.handle);
		fz_judge(t, FZ_GEM_FLINK, fz_ioctl(t->file->fd, FZ_GEM_FLINK, DRM_IOCTL_GEM_FLINK,
						   &fl), &e);
		fz_what(t, "GEM_OPEN name=%u", op.name);
		fz_judge(t, FZ_GEM_OPEN, fz_ioctl(t->file->fd, FZ_GEM_OPEN, DRM_IOCTL_GEM_OPEN,
						  &op), &e);
		break;
	}
	case 6:
		bad_pointer(t);
		break;
	default:
		unknown_nr(t);
		break;
	}
}
