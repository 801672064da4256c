/* SPDX-License-Identifier: MIT */
/*
 * rt_imap.h - a map of disjoint address ranges [start, start + size) to
 * values, ordered by start (an AVL tree): insert, remove and "which range
 * contains this address" are O(log n). Not thread-safe; callers lock.
 */
#ifndef VNPU_LIB_RT_IMAP_H
#define VNPU_LIB_RT_IMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rt_imap_node {
	struct rt_imap_node *left, *right;
	uint64_t start, size;
	void *value;
	int height;
};

struct rt_imap {
	struct rt_imap_node *root;
	size_t count;
};

void rt_imap_init(struct rt_imap *map);
/* Free every node (not the values). */
void rt_imap_clear(struct rt_imap *map);

/*
 * Add [start, start + size) -> value. Fails with -EINVAL for size 0 or a
 * range that wraps around, -EEXIST if it overlaps a range already in the
 * map, -ENOMEM if out of memory.
 */
int rt_imap_insert(struct rt_imap *map, uint64_t start, uint64_t size, void *value);

/* Remove the range that starts exactly at @start; returns its value or NULL. */
void *rt_imap_remove(struct rt_imap *map, uint64_t start);

/* The range containing @addr, or NULL. */
const struct rt_imap_node *rt_imap_find(const struct rt_imap *map, uint64_t addr);

/* Is [start, start + size) (size >= 1, not wrapping) inside one range? */
bool rt_imap_covers(const struct rt_imap *map, uint64_t start, uint64_t size);

/* Call @fn on every range in address order (the map must not change). */
void rt_imap_for_each(const struct rt_imap *map, void (*fn)(const struct rt_imap_node *node, void *arg),
		      void *arg);

#endif /* VNPU_LIB_RT_IMAP_H */
