/* SPDX-License-Identifier: MIT */
/*
 * rt_list.h - intrusive doubly linked lists.
 */
#ifndef VNPU_LIB_RT_LIST_H
#define VNPU_LIB_RT_LIST_H

#include <stdbool.h>
#include <stddef.h>

struct rt_list {
	struct rt_list *prev, *next;
};

#define rt_container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))

static inline void rt_list_init(struct rt_list *head)
{
	head->prev = head->next = head;
}

static inline bool rt_list_empty(const struct rt_list *head)
{
	return head->next == head;
}

static inline void rt_list_add_tail(struct rt_list *head, struct rt_list *node)
{
	node->prev = head->prev;
	node->next = head;
	head->prev->next = node;
	head->prev = node;
}

static inline void rt_list_del(struct rt_list *node)
{
	node->prev->next = node->next;
	node->next->prev = node->prev;
	rt_list_init(node);
}

#define rt_list_for_each(pos, head) for ((pos) = (head)->next; (pos) != (head); (pos) = (pos)->next)

#endif /* VNPU_LIB_RT_LIST_H */
