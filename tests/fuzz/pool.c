// SPDX-License-Identifier: GPL-2.0
/*
 * The pool of live objects of one open device file. Generators pick from it
 * so that calls reach the deep paths (a submit naming real buffers, a bind of
 * real memory), and record what the kernel accepted so that the oracle knows
 * what is live.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "vnpu_test.h"

int fz_file_open(struct fz_file *f, unsigned int dev)
{
	memset(f, 0, sizeof(*f));
	pthread_rwlock_init(&f->life, NULL);
	pthread_mutex_init(&f->mu, NULL);
	f->dev = dev;
	f->fd = vnpu_open_device(dev);
	if (f->fd < 0)
		return -ENODEV;
	if (vnpu_get_param(f->fd, VNPU_PARAM_VA_START, &f->va_start) ||
	    vnpu_get_param(f->fd, VNPU_PARAM_VA_END, &f->va_end))
		return -EIO;
	return 0;
}

void fz_file_forget(struct fz_file *f)
{
	unsigned int i;

	pthread_mutex_lock(&f->mu);
	for (i = 0; i < FZ_MAX_BUFS; i++) {
		if (f->bufs[i].live && f->bufs[i].uptr)
			munmap(f->bufs[i].uptr, f->bufs[i].ulen);
		f->bufs[i].live = false;
	}
	memset(f->streams, 0, sizeof(f->streams));
	memset(f->syncs, 0, sizeof(f->syncs));
	memset(f->fences, 0, sizeof(f->fences));
	pthread_mutex_unlock(&f->mu);
}

void fz_file_close(struct fz_file *f)
{
	unsigned int i;

	fz_file_forget(f);
	for (i = 0; i < FZ_MAX_FDS; i++)
		if (f->xfds[i].live)
			close(f->xfds[i].fd);
	for (i = 0; i < FZ_MAX_MAPS; i++)
		if (f->maps[i].live)
			munmap(f->maps[i].cpu, f->maps[i].size);
	memset(f->xfds, 0, sizeof(f->xfds));
	memset(f->maps, 0, sizeof(f->maps));
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}

/* Pick a random live entry of an array: the index, or -1. */
#define PICK(arr, n, r)							\
	({								\
		int _live[n], _nl = 0, _i;				\
		for (_i = 0; _i < (n); _i++)				\
			if ((arr)[_i].live)				\
				_live[_nl++] = _i;			\
		_nl ? _live[fz_below(r, (uint64_t)_nl)] : -1;		\
	})

#define FREE_SLOT(arr, n)						\
	({								\
		int _i, _s = -1;					\
		for (_i = 0; _i < (n); _i++)				\
			if (!(arr)[_i].live) {				\
				_s = _i;				\
				break;					\
			}						\
		_s;							\
	})

bool fz_pick_buf(struct fz_file *f, struct fz_rng *r, struct fz_buf *out)
{
	int i;

	pthread_mutex_lock(&f->mu);
	i = PICK(f->bufs, FZ_MAX_BUFS, r);
	if (i >= 0)
		*out = f->bufs[i];
	pthread_mutex_unlock(&f->mu);
	return i >= 0;
}

bool fz_pick_stream(struct fz_file *f, struct fz_rng *r, struct fz_stream *out)
{
	int i;

	pthread_mutex_lock(&f->mu);
	i = PICK(f->streams, FZ_MAX_STREAMS, r);
	if (i >= 0)
		*out = f->streams[i];
	pthread_mutex_unlock(&f->mu);
	return i >= 0;
}

bool fz_pick_sync(struct fz_file *f, struct fz_rng *r, unsigned int owner, struct fz_sync *out)
{
	int live[FZ_MAX_SYNCS], n = 0, i;

	pthread_mutex_lock(&f->mu);
	for (i = 0; i < FZ_MAX_SYNCS; i++)
		if (f->syncs[i].live && f->syncs[i].owner == owner)
			live[n++] = i;
	if (n)
		*out = f->syncs[live[fz_below(r, (uint64_t)n)]];
	pthread_mutex_unlock(&f->mu);
	return n > 0;
}

bool fz_pick_xfd(struct fz_file *f, struct fz_rng *r, enum fz_fd_kind kind, struct fz_xfd *out)
{
	int live[FZ_MAX_FDS], n = 0, i;

	pthread_mutex_lock(&f->mu);
	for (i = 0; i < FZ_MAX_FDS; i++)
		if (f->xfds[i].live && f->xfds[i].kind == kind)
			live[n++] = i;
	if (n)
		*out = f->xfds[live[fz_below(r, (uint64_t)n)]];
	pthread_mutex_unlock(&f->mu);
	return n > 0;
}

bool fz_handle_live(struct fz_file *f, uint32_t handle)
{
	bool found = false;
	int i;

	pthread_mutex_lock(&f->mu);
	for (i = 0; i < FZ_MAX_BUFS; i++)
		if (f->bufs[i].live && f->bufs[i].handle == handle)
			found = true;
	pthread_mutex_unlock(&f->mu);
	return found;
}

uint64_t fz_handle_gen(struct fz_file *f, uint32_t handle)
{
	uint64_t gen = 0;
	int i;

	pthread_mutex_lock(&f->mu);
	for (i = 0; i < FZ_MAX_BUFS; i++)
		if (f->bufs[i].live && f->bufs[i].handle == handle)
			gen = f->bufs[i].gen;
	pthread_mutex_unlock(&f->mu);
	return gen;
}

bool fz_stream_live(struct fz_file *f, uint32_t id)
{
	bool found = false;
	int i;

	pthread_mutex_lock(&f->mu);
	for (i = 0; i < FZ_MAX_STREAMS; i++)
		if (f->streams[i].live && f->streams[i].id == id)
			found = true;
	pthread_mutex_unlock(&f->mu);
	return found;
}

bool fz_sync_live(struct fz_file *f, uint32_t handle)
{
	bool found = false;
	int i;

	pthread_mutex_lock(&f->mu);
	for (i = 0; i < FZ_MAX_SYNCS; i++)
		if (f->syncs[i].live && f->syncs[i].handle == handle) {
			found = true;
			snprintf(f->where, sizeof(f->where), "syncs[%d] owner %u timeline %d",
				 i, f->syncs[i].owner, f->syncs[i].timeline);
		}
	for (i = 0; i < FZ_MAX_FENCES; i++)
		if (f->fences[i].live && f->fences[i].sync == handle) {
			found = true;
			snprintf(f->where, sizeof(f->where), "fences[%d] stream %u age %llu ms",
				 i, f->fences[i].stream,
				 (unsigned long long)(fz_now_ns() - f->fences[i].submit_ns) / 1000000);
		}
	pthread_mutex_unlock(&f->mu);
	return found;
}

bool fz_add_buf(struct fz_file *f, const struct fz_buf *b)
{
	int i;

	pthread_mutex_lock(&f->mu);
	i = FREE_SLOT(f->bufs, FZ_MAX_BUFS);
	if (i >= 0) {
		f->bufs[i] = *b;
		f->bufs[i].live = true;
		f->bufs[i].gen = ++f->gen;
	}
	pthread_mutex_unlock(&f->mu);
	return i >= 0;
}

bool fz_add_stream(struct fz_file *f, uint32_t id)
{
	int i;

	pthread_mutex_lock(&f->mu);
	i = FREE_SLOT(f->streams, FZ_MAX_STREAMS);
	if (i >= 0) {
		memset(&f->streams[i], 0, sizeof(f->streams[i]));
		f->streams[i].live = true;
		f->streams[i].id = id;
	}
	pthread_mutex_unlock(&f->mu);
	return i >= 0;
}

bool fz_add_sync(struct fz_file *f, unsigned int owner, uint32_t handle, bool timeline,
		 bool has_fence)
{
	int i;

	pthread_mutex_lock(&f->mu);
	i = FREE_SLOT(f->syncs, FZ_MAX_SYNCS);
	if (i >= 0) {
		f->syncs[i] = (struct fz_sync){ .live = true, .owner = owner, .handle = handle,
						.timeline = timeline, .has_fence = has_fence };
	}
	pthread_mutex_unlock(&f->mu);
	return i >= 0;
}

bool fz_add_xfd(struct fz_file *f, const struct fz_xfd *x)
{
	int i;

	pthread_mutex_lock(&f->mu);
	i = FREE_SLOT(f->xfds, FZ_MAX_FDS);
	if (i >= 0) {
		f->xfds[i] = *x;
		f->xfds[i].live = true;
	}
	pthread_mutex_unlock(&f->mu);
	return i >= 0;
}

bool fz_add_map(struct fz_file *f, void *cpu, uint64_t size)
{
	int i;

	pthread_mutex_lock(&f->mu);
	i = FREE_SLOT(f->maps, FZ_MAX_MAPS);
	if (i >= 0)
		f->maps[i] = (struct fz_map){ .live = true, .cpu = cpu, .size = size };
	pthread_mutex_unlock(&f->mu);
	return i >= 0;
}

bool fz_add_fence(struct fz_file *f, uint32_t sync, uint32_t stream, uint64_t now)
{
	int i;

	pthread_mutex_lock(&f->mu);
	i = FREE_SLOT(f->fences, FZ_MAX_FENCES);
	if (i >= 0)
		f->fences[i] = (struct fz_fence){ .live = true, .sync = sync, .submit_ns = now,
						  .stream = stream };
	pthread_mutex_unlock(&f->mu);
	return i >= 0;
}

bool fz_del_buf(struct fz_file *f, uint32_t handle)
{
	bool found = false;
	int i;

	pthread_mutex_lock(&f->mu);
	for (i = 0; i < FZ_MAX_BUFS; i++) {
		if (!f->bufs[i].live || f->bufs[i].handle != handle)
			continue;
		if (f->bufs[i].uptr)
			munmap(f->bufs[i].uptr, f->bufs[i].ulen);
		f->bufs[i].live = false;
		found = true;
	}
	pthread_mutex_unlock(&f->mu);
	return found;
}

bool fz_del_stream(struct fz_file *f, uint32_t id)
{
	bool found = false;
	int i;

	pthread_mutex_lock(&f->mu);
	for (i = 0; i < FZ_MAX_STREAMS; i++) {
		if (f->streams[i].live && f->streams[i].id == id) {
			f->streams[i].live = false;
			found = true;
		}
	}
	pthread_mutex_unlock(&f->mu);
	return found;
}

bool fz_del_sync(struct fz_file *f, uint32_t handle)
{
	bool found = false;
	int i;

	pthread_mutex_lock(&f->mu);
	for (i = 0; i < FZ_MAX_SYNCS; i++) {
		if (f->syncs[i].live && f->syncs[i].handle == handle) {
			f->syncs[i].live = false;
			found = true;
		}
	}
	pthread_mutex_unlock(&f->mu);
	return found;
}

int fz_take_xfd(struct fz_file *f, struct fz_rng *r, enum fz_fd_kind kind)
{
	int live[FZ_MAX_FDS], n = 0, i, fd = -1;

	pthread_mutex_lock(&f->mu);
	for (i = 0; i < FZ_MAX_FDS; i++)
		if (f->xfds[i].live && f->xfds[i].kind == kind)
			live[n++] = i;
	if (n) {
		i = live[fz_below(r, (uint64_t)n)];
		fd = f->xfds[i].fd;
		f->xfds[i].live = false;
	}
	pthread_mutex_unlock(&f->mu);
	return fd;
}

bool fz_take_map(struct fz_file *f, struct fz_rng *r, struct fz_map *out)
{
	int i;

	pthread_mutex_lock(&f->mu);
	i = PICK(f->maps, FZ_MAX_MAPS, r);
	if (i >= 0) {
		*out = f->maps[i];
		f->maps[i].live = false;
	}
	pthread_mutex_unlock(&f->mu);
	return i >= 0;
}

bool fz_take_fence(struct fz_file *f, struct fz_rng *r, struct fz_fence *out)
{
	int i;

	pthread_mutex_lock(&f->mu);
	i = PICK(f->fences, FZ_MAX_FENCES, r);
	if (i >= 0) {
		*out = f->fences[i];
		f->fences[i].live = false;
	}
	pthread_mutex_unlock(&f->mu);
	return i >= 0;
}

void fz_stream_seqno(struct fz_file *f, uint32_t id, uint64_t seqno)
{
	int i;

	pthread_mutex_lock(&f->mu);
	for (i = 0; i < FZ_MAX_STREAMS; i++)
		if (f->streams[i].live && f->streams[i].id == id &&
		    f->streams[i].max_seqno < seqno)
			f->streams[i].max_seqno = seqno;
	pthread_mutex_unlock(&f->mu);
}

void fz_stream_param(struct fz_file *f, uint32_t id, uint32_t param, uint64_t value)
{
	int i;

	pthread_mutex_lock(&f->mu);
	for (i = 0; i < FZ_MAX_STREAMS; i++) {
		if (!f->streams[i].live || f->streams[i].id != id)
			continue;
		if (param == VNPU_STREAM_PARAM_HAZARD_POLICY)
			f->streams[i].strict = value == VNPU_HAZARD_STRICT;
		else if (param == VNPU_STREAM_PARAM_REQUIRE_POOL)
			f->streams[i].require_pool = value == 1;
	}
	pthread_mutex_unlock(&f->mu);
}

void fz_sync_fenced(struct fz_file *f, uint32_t handle, uint64_t point)
{
	int i;

	pthread_mutex_lock(&f->mu);
	for (i = 0; i < FZ_MAX_SYNCS; i++) {
		if (!f->syncs[i].live || f->syncs[i].handle != handle)
			continue;
		f->syncs[i].has_fence = true;
		f->syncs[i].jobbed = true;
		if (point > f->syncs[i].last_point)
			f->syncs[i].last_point = point;
	}
	pthread_mutex_unlock(&f->mu);
}

uint64_t fz_count_bufs(struct fz_file *f)
{
	uint64_t n = 0;
	int i;

	pthread_mutex_lock(&f->mu);
	for (i = 0; i < FZ_MAX_BUFS; i++)
		n += f->bufs[i].live;
	pthread_mutex_unlock(&f->mu);
	return n;
}

void fz_sync_set(struct fz_file *f, uint32_t handle, bool has_fence, uint64_t point)
{
	int i;

	pthread_mutex_lock(&f->mu);
	for (i = 0; i < FZ_MAX_SYNCS; i++) {
		if (!f->syncs[i].live || f->syncs[i].handle != handle)
			continue;
		f->syncs[i].has_fence = has_fence;
		if (point > f->syncs[i].last_point)
			f->syncs[i].last_point = point;
	}
	pthread_mutex_unlock(&f->mu);
}
