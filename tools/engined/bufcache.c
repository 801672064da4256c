// SPDX-License-Identifier: GPL-2.0
/*
 * bufcache.c - the buffers of one attachment, each mapped once.
 *
 * An open-addressing table from buffer id to the mapping of the whole
 * buffer. Workers look buffers up under the read lock; the first use of a
 * buffer maps it under the write lock (so two workers never map one buffer
 * twice), and BUFFER_GONE unmaps it. The kernel never frees a buffer a
 * held job uses, so a mapping handed out stays valid for the job that
 * asked for it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "engined.h"

enum { ENT_EMPTY = 0, ENT_LIVE, ENT_DEAD };

struct bufent {
	uint64_t id;
	uint64_t offset;
	uint64_t size;
	void *base;
	uint32_t state;
};

#define BUFCACHE_MIN 64

static uint32_t slot_of(uint64_t id, uint32_t cap)
{
	return (uint32_t)((id * 0x9e3779b97f4a7c15ull) >> 32) & (cap - 1);
}

/* The live entry of @id, or NULL. Called with the lock held. */
static struct bufent *find_locked(const struct bufcache *c, uint64_t id)
{
	uint32_t i, n;

	if (!c->cap)
		return NULL;
	for (i = slot_of(id, c->cap), n = 0; n < c->cap; i = (i + 1) & (c->cap - 1), n++) {
		struct bufent *e = &c->tab[i];

		if (e->state == ENT_EMPTY)
			return NULL;
		if (e->state == ENT_LIVE && e->id == id)
			return e;
	}
	return NULL;
}

/* A free entry for @id (the table has one: see make_room_locked()). */
static struct bufent *free_entry_locked(struct bufcache *c, uint64_t id)
{
	uint32_t i = slot_of(id, c->cap);

	while (c->tab[i].state == ENT_LIVE)
		i = (i + 1) & (c->cap - 1);
	if (c->tab[i].state == ENT_DEAD)
		c->dead--;
	return &c->tab[i];
}

/* Keep live and dead entries at most half the table, one more included. */
static int make_room_locked(struct bufcache *c)
{
	struct bufent *old = c->tab, *tab;
	uint32_t old_cap = c->cap, cap = BUFCACHE_MIN, i;

	if (c->cap && ((uint64_t)c->live + c->dead + 1) * 2 <= c->cap)
		return 0;
	while ((uint64_t)(c->live + 1) * 4 > cap) {
		if (cap > UINT32_MAX / 2)
			return -ENOMEM;
		cap *= 2;
	}
	tab = calloc(cap, sizeof(*tab));
	if (!tab)
		return -ENOMEM;
	c->tab = tab;
	c->cap = cap;
	c->dead = 0;
	for (i = 0; i < old_cap; i++)
		if (old[i].state == ENT_LIVE)
			*free_entry_locked(c, old[i].id) = old[i];
	free(old);
	return 0;
}

int bufcache_init(struct bufcache *c, int fd)
{
	pthread_rwlockattr_t attr;
	int ret;

	memset(c, 0, sizeof(*c));
	c->fd = fd;
	ret = pthread_rwlockattr_init(&attr);
	if (ret)
		return -ret;
	/* Misses are rare and short: do not let lookups starve them. */
	pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	ret = pthread_rwlock_init(&c->lock, &attr);
	pthread_rwlockattr_destroy(&attr);
	return -ret;
}

void bufcache_clear(struct bufcache *c, int fd)
{
	uint32_t i;

	pthread_rwlock_wrlock(&c->lock);
	for (i = 0; i < c->cap; i++)
		if (c->tab[i].state == ENT_LIVE)
			munmap(c->tab[i].base, c->tab[i].size);
	if (c->tab)
		memset(c->tab, 0, (size_t)c->cap * sizeof(*c->tab));
	c->live = 0;
	c->dead = 0;
	c->fd = fd;
	pthread_rwlock_unlock(&c->lock);
}

void bufcache_fini(struct bufcache *c)
{
	bufcache_clear(c, -1);
	free(c->tab);
	c->tab = NULL;
	c->cap = 0;
	pthread_rwlock_destroy(&c->lock);
}

/* Look @id up; returns 1 with *@base (NULL on a mismatch) when present. */
static int lookup_locked(const struct bufcache *c, uint64_t id, uint64_t offset, uint64_t size,
			 void **base)
{
	const struct bufent *e = find_locked(c, id);

	if (!e)
		return 0;
	*base = e->offset == offset && e->size == size ? e->base : NULL;
	return 1;
}

static void *map_locked(struct bufcache *c, uint64_t id, uint64_t offset, uint64_t size, int *err)
{
	struct bufent *e;
	void *p;
	int ret;

	ret = make_room_locked(c);
	if (ret) {
		*err = ret;
		return NULL;
	}
	p = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd, (off_t)offset);
	if (p == MAP_FAILED) {
		*err = -errno;
		return NULL;
	}
	e = free_entry_locked(c, id);
	*e = (struct bufent){ .id = id, .offset = offset, .size = size, .base = p,
			      .state = ENT_LIVE };
	c->live++;
	return p;
}

void *bufcache_get(struct bufcache *c, uint64_t id, uint64_t offset, uint64_t size, int *err)
{
	void *base = NULL;
	int found;

	*err = 0;
	if (!id || !size || size > SIZE_MAX || offset > INT64_MAX) {
		*err = -EINVAL;
		return NULL;
	}
	pthread_rwlock_rdlock(&c->lock);
	found = lookup_locked(c, id, offset, size, &base);
	pthread_rwlock_unlock(&c->lock);
	if (!found) {
		/* Another worker may have mapped it in between: look again. */
		pthread_rwlock_wrlock(&c->lock);
		found = lookup_locked(c, id, offset, size, &base);
		if (!found)
			base = map_locked(c, id, offset, size, err);
		pthread_rwlock_unlock(&c->lock);
	}
	if (found && !base)
		*err = -EINVAL;
	return base;
}

int bufcache_forget(struct bufcache *c, uint64_t id)
{
	struct bufent *e;
	uint64_t size = 0;
	void *base = NULL;

	pthread_rwlock_wrlock(&c->lock);
	e = find_locked(c, id);
	if (e) {
		base = e->base;
		size = e->size;
		e->state = ENT_DEAD;
		c->live--;
		c->dead++;
	}
	pthread_rwlock_unlock(&c->lock);
	if (!e)
		return -ENOENT;
	/* The kernel already took the pages away; only the range is left. */
	munmap(base, (size_t)size);
	return 0;
}

uint32_t bufcache_count(struct bufcache *c)
{
	uint32_t n;

	pthread_rwlock_rdlock(&c->lock);
	n = c->live;
	pthread_rwlock_unlock(&c->lock);
	return n;
}
