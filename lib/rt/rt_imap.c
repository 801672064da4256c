// SPDX-License-Identifier: MIT
/*
 * rt_imap.c - ordered map of disjoint address ranges (AVL tree keyed by the
 * range start). Because ranges never overlap, the range containing an
 * address is the one with the greatest start <= address, if it reaches that
 * far.
 */
#include <errno.h>
#include <stdlib.h>

#include "rt_imap.h"

void rt_imap_init(struct rt_imap *map)
{
	map->root = NULL;
	map->count = 0;
}

static void imap_free(struct rt_imap_node *node)
{
	while (node) {
		struct rt_imap_node *right = node->right;

		imap_free(node->left);
		free(node);
		node = right;
	}
}

void rt_imap_clear(struct rt_imap *map)
{
	imap_free(map->root);
	rt_imap_init(map);
}

static int height(const struct rt_imap_node *n)
{
	return n ? n->height : 0;
}

static void update(struct rt_imap_node *n)
{
	int l = height(n->left), r = height(n->right);

	n->height = (l > r ? l : r) + 1;
}

static struct rt_imap_node *rotate_right(struct rt_imap_node *n)
{
	struct rt_imap_node *l = n->left;

	n->left = l->right;
	l->right = n;
	update(n);
	update(l);
	return l;
}

static struct rt_imap_node *rotate_left(struct rt_imap_node *n)
{
	struct rt_imap_node *r = n->right;

	n->right = r->left;
	r->left = n;
	update(n);
	update(r);
	return r;
}

static struct rt_imap_node *rebalance(struct rt_imap_node *n)
{
	int balance;

	update(n);
	balance = height(n->left) - height(n->right);
	if (balance > 1) {
		if (height(n->left->left) < height(n->left->right))
			n->left = rotate_left(n->left);
		return rotate_right(n);
	}
	if (balance < -1) {
		if (height(n->right->right) < height(n->right->left))
			n->right = rotate_right(n->right);
		return rotate_left(n);
	}
	return n;
}

static struct rt_imap_node *insert(struct rt_imap_node *n, struct rt_imap_node *new)
{
	if (!n)
		return new;
	if (new->start < n->start)
		n->left = insert(n->left, new);
	else
		n->right = insert(n->right, new);
	return rebalance(n);
}

/* Greatest node with start <= addr. */
static struct rt_imap_node *floor_node(struct rt_imap_node *n, uint64_t addr)
{
	struct rt_imap_node *best = NULL;

	while (n) {
		if (n->start <= addr) {
			best = n;
			n = n->right;
		} else {
			n = n->left;
		}
	}
	return best;
}

/* Smallest node with start > addr. */
static struct rt_imap_node *above_node(struct rt_imap_node *n, uint64_t addr)
{
	struct rt_imap_node *best = NULL;

	while (n) {
		if (n->start > addr) {
			best = n;
			n = n->left;
		} else {
			n = n->right;
		}
	}
	return best;
}

int rt_imap_insert(struct rt_imap *map, uint64_t start, uint64_t size, void *value)
{
	struct rt_imap_node *prev, *next, *node;
	uint64_t last;

	if (!size || start + (size - 1) < start)
		return -EINVAL;
	last = start + (size - 1);
	prev = floor_node(map->root, start);
	if (prev && prev->start + (prev->size - 1) >= start)
		return -EEXIST;
	next = above_node(map->root, start);
	if (next && next->start <= last)
		return -EEXIST;

	node = calloc(1, sizeof(*node));
	if (!node)
		return -ENOMEM;
	node->start = start;
	node->size = size;
	node->value = value;
	node->height = 1;
	map->root = insert(map->root, node);
	map->count++;
	return 0;
}

static struct rt_imap_node *remove_min(struct rt_imap_node *n, struct rt_imap_node **min)
{
	if (!n->left) {
		*min = n;
		return n->right;
	}
	n->left = remove_min(n->left, min);
	return rebalance(n);
}

static struct rt_imap_node *remove_node(struct rt_imap_node *n, uint64_t start,
					struct rt_imap_node **removed)
{
	struct rt_imap_node *min;

	if (!n)
		return NULL;
	if (start < n->start) {
		n->left = remove_node(n->left, start, removed);
	} else if (start > n->start) {
		n->right = remove_node(n->right, start, removed);
	} else {
		*removed = n;
		if (!n->left)
			return n->right;
		if (!n->right)
			return n->left;
		n->right = remove_min(n->right, &min);
		min->left = n->left;
		min->right = n->right;
		return rebalance(min);
	}
	return rebalance(n);
}

void *rt_imap_remove(struct rt_imap *map, uint64_t start)
{
	struct rt_imap_node *removed = NULL;
	void *value;

	map->root = remove_node(map->root, start, &removed);
	if (!removed)
		return NULL;
	value = removed->value;
	free(removed);
	map->count--;
	return value;
}

const struct rt_imap_node *rt_imap_find(const struct rt_imap *map, uint64_t addr)
{
	const struct rt_imap_node *n = floor_node(map->root, addr);

	if (n && addr - n->start < n->size)
		return n;
	return NULL;
}

bool rt_imap_covers(const struct rt_imap *map, uint64_t start, uint64_t size)
{
	const struct rt_imap_node *n = rt_imap_find(map, start);

	if (!n || !size || start + (size - 1) < start)
		return false;
	return size <= n->size && start - n->start <= n->size - size;
}

static void walk(const struct rt_imap_node *n, void (*fn)(const struct rt_imap_node *, void *), void *arg)
{
	while (n) {
		walk(n->left, fn, arg);
		fn(n, arg);
		n = n->right;
	}
}

void rt_imap_for_each(const struct rt_imap *map, void (*fn)(const struct rt_imap_node *node, void *arg),
		      void *arg)
{
	walk(map->root, fn, arg);
}
