/* SPDX-License-Identifier: MIT */
/*
 * rt_wspool.h - the runtime's own workspace pool (used for an operator's
 * workspace when its stream has no registered allocator), the pure half:
 * lists of device buffers and the rules for reusing them.
 *
 * A block is one runtime-owned device buffer. It remembers the stream that
 * used it last ("owner") and the point on that stream's timeline its last
 * job signals. Two kinds of list hold free blocks:
 *
 *  - each stream's own list: any block may be taken again at once by the
 *    next operator of the same stream, because the stream runs its jobs in
 *    order (the earlier job is done before the later one starts);
 *  - the device's idle list, fed by blocks a stream's list has no room for
 *    and by streams that go away: another stream may take a block only once
 *    the owner's point has signalled (the device no longer uses it).
 *
 * Takes are best fit; sizes come in classes (powers of two, 64 KiB at
 * least) so blocks fit later requests. Lists are bounded in blocks and
 * bytes; trimming removes the least recently returned blocks, which the
 * caller frees (the kernel keeps a buffer alive while a job uses it).
 */
#ifndef VNPU_LIB_RT_WSPOOL_H
#define VNPU_LIB_RT_WSPOOL_H

#include <stdbool.h>
#include <stdint.h>

#define RT_WS_MIN_BLOCK (64ull << 10)
/* A stream keeps at most this much for itself... */
#define RT_WS_STREAM_BLOCKS 4
#define RT_WS_STREAM_BYTES (64ull << 20)
/* ...and a device at most this much for all streams. */
#define RT_WS_IDLE_BLOCKS 16
#define RT_WS_IDLE_BYTES (128ull << 20)

struct rt_wsblock {
	struct rt_wsblock *next;
	uint64_t va, size;
	uint32_t handle;
	void *owner;			/* stream of the last use */
	uint64_t point;			/* its point of the last use */
};

struct rt_wslist {
	struct rt_wsblock *head;	/* most recently returned first */
	unsigned int count;
	uint64_t bytes;
};

void rt_wslist_init(struct rt_wslist *l);

/* The size of block to create for a request of @size bytes. */
uint64_t rt_ws_size_class(uint64_t size);

/*
 * Remove and return the smallest block of at least @size bytes for which
 * @usable (NULL: every block) returns true; NULL if none.
 */
struct rt_wsblock *rt_wslist_take(struct rt_wslist *l, uint64_t size,
				  bool (*usable)(const struct rt_wsblock *b, void *arg), void *arg);

/* Return @b to the front of the list. */
void rt_wslist_put(struct rt_wslist *l, struct rt_wsblock *b);

/* Remove the least recently returned blocks until at most @max_count
 * blocks and @max_bytes bytes remain; returns them as a chain. */
struct rt_wsblock *rt_wslist_trim(struct rt_wslist *l, unsigned int max_count, uint64_t max_bytes);

/* Remove every block; returns them as a chain. */
struct rt_wsblock *rt_wslist_take_all(struct rt_wslist *l);

#endif /* VNPU_LIB_RT_WSPOOL_H */
