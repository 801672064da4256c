// SPDX-License-Identifier: GPL-2.0
/*
 * window.c - the buffer window of one attachment, mapped once.
 *
 * Every buffer a job names lies in the engine file's buffer window, at its
 * operands' buffer offset, so one shared mapping of the window made at
 * attach reaches them all: no mapping per buffer, no table, no lock, and
 * nothing to do when a buffer is gone (the kernel takes its pages out of
 * the mapping itself). The kernel never frees a buffer a held job uses, so
 * what a job is given stays valid while the server holds the job.
 */
#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>

#include "engined.h"

int window_map(struct window *w, int fd, uint64_t offset, uint64_t size)
{
	void *p;

	w->base = NULL;
	w->offset = offset;
	w->size = size;
	if (!size || size > SIZE_MAX || offset > (uint64_t)INT64_MAX - size)
		return -EINVAL;
	p = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd,
		 (off_t)offset);
	if (p == MAP_FAILED)
		return -errno;
	w->base = p;
	return 0;
}

void window_unmap(struct window *w)
{
	if (w->base)
		munmap(w->base, (size_t)w->size);
	w->base = NULL;
}

void *window_get(const struct window *w, uint64_t offset, uint64_t size)
{
	if (!w->base || !size || offset < w->offset || offset - w->offset > w->size ||
	    size > w->size - (offset - w->offset))
		return NULL;
	return w->base + (offset - w->offset);
}
