// SPDX-License-Identifier: MIT
/*
 * rt_wspool.c - free lists of the runtime's workspace pool (pure logic;
 * the buffers, the locks and the "has this point signalled" question live
 * in rt_opexec.c).
 */
#include <stddef.h>

#include "rt_wspool.h"

void rt_wslist_init(struct rt_wslist *l)
{
	l->head = NULL;
	l->count = 0;
	l->bytes = 0;
}

uint64_t rt_ws_size_class(uint64_t size)
{
	uint64_t c = RT_WS_MIN_BLOCK;

	while (c < size && c <= UINT64_MAX / 2)
		c *= 2;
	return c < size ? size : c;
}

static void unlink_block(struct rt_wslist *l, struct rt_wsblock **link)
{
	struct rt_wsblock *b = *link;

	*link = b->next;
	b->next = NULL;
	l->count--;
	l->bytes -= b->size;
}

struct rt_wsblock *rt_wslist_take(struct rt_wslist *l, uint64_t size,
				  bool (*usable)(const struct rt_wsblock *b, void *arg), void *arg)
{
	struct rt_wsblock **link, **best = NULL, *b;

	for (link = &l->head; *link; link = &(*link)->next) {
		b = *link;
		if (b->size < size || (best && b->size >= (*best)->size))
			continue;
		if (usable && !usable(b, arg))
			continue;
		best = link;
	}
	if (!best)
		return NULL;
	b = *best;
	unlink_block(l, best);
	return b;
}

void rt_wslist_put(struct rt_wslist *l, struct rt_wsblock *b)
{
	b->next = l->head;
	l->head = b;
	l->count++;
	l->bytes += b->size;
}

struct rt_wsblock *rt_wslist_trim(struct rt_wslist *l, unsigned int max_count, uint64_t max_bytes)
{
	struct rt_wsblock *out = NULL;

	while (l->count > max_count || l->bytes > max_bytes) {
		struct rt_wsblock **link = &l->head, *b;

		while ((*link)->next)
			link = &(*link)->next;
		b = *link;
		unlink_block(l, link);
		b->next = out;
		out = b;
	}
	return out;
}

struct rt_wsblock *rt_wslist_take_all(struct rt_wslist *l)
{
	struct rt_wsblock *all = l->head;

	rt_wslist_init(l);
	return all;
}
