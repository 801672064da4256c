// SPDX-License-Identifier: MIT
/*
 * rt_handle.c - object reference counts and the handle registry: a hash set
 * of live object addresses, each bucket under its own reader-writer lock.
 * Lookups hold their bucket's lock only to find the object and take a
 * reference, so threads working on different objects (each its own stream,
 * say) share no lock.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "rt_handle.h"

#define BUCKETS 1024

struct entry {
	struct entry *next;
	struct rt_obj *obj;
};

static struct bucket {
	pthread_rwlock_t lock;
	struct entry *head;
} buckets[BUCKETS];
static pthread_once_t buckets_once = PTHREAD_ONCE_INIT;
static atomic_ulong registered;

static void buckets_init(void)
{
	unsigned int i;

	for (i = 0; i < BUCKETS; i++)
		pthread_rwlock_init(&buckets[i].lock, NULL);
}

static atomic_uint_fast64_t next_serial = 1;

static struct bucket *bucket_get(const void *p)
{
	uint64_t x = (uint64_t)(uintptr_t)p;

	pthread_once(&buckets_once, buckets_init);
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return &buckets[x % BUCKETS];
}

void rt_obj_init(struct rt_obj *obj, uint32_t type, void (*release)(struct rt_obj *obj))
{
	obj->type = type;
	atomic_init(&obj->refs, 1);
	obj->serial = 0;
	obj->release = release;
}

void rt_obj_get(struct rt_obj *obj)
{
	atomic_fetch_add_explicit(&obj->refs, 1, memory_order_relaxed);
}

void rt_obj_put(struct rt_obj *obj)
{
	if (obj && atomic_fetch_sub_explicit(&obj->refs, 1, memory_order_acq_rel) == 1)
		obj->release(obj);
}

int rt_handle_add(struct rt_obj *obj)
{
	struct entry *e = malloc(sizeof(*e));
	struct bucket *b = bucket_get(obj);

	if (!e)
		return -ENOMEM;
	e->obj = obj;
	obj->serial = atomic_fetch_add(&next_serial, 1);
	rt_obj_get(obj);
	pthread_rwlock_wrlock(&b->lock);
	e->next = b->head;
	b->head = e;
	pthread_rwlock_unlock(&b->lock);
	atomic_fetch_add(&registered, 1);
	return 0;
}

bool rt_handle_remove(struct rt_obj *obj)
{
	struct bucket *b = bucket_get(obj);
	struct entry **pp, *e = NULL;

	pthread_rwlock_wrlock(&b->lock);
	for (pp = &b->head; *pp; pp = &(*pp)->next) {
		if ((*pp)->obj == obj) {
			e = *pp;
			*pp = e->next;
			break;
		}
	}
	pthread_rwlock_unlock(&b->lock);
	if (!e)
		return false;
	atomic_fetch_sub(&registered, 1);
	free(e);
	rt_obj_put(obj);
	return true;
}

struct rt_obj *rt_handle_lookup(const void *handle, uint32_t type)
{
	struct rt_obj *found = NULL;
	struct bucket *b;
	struct entry *e;

	if (!handle)
		return NULL;
	b = bucket_get(handle);
	pthread_rwlock_rdlock(&b->lock);
	for (e = b->head; e; e = e->next) {
		if ((const void *)e->obj == handle) {
			if (e->obj->type == type) {
				found = e->obj;
				rt_obj_get(found);
			}
			break;
		}
	}
	pthread_rwlock_unlock(&b->lock);
	return found;
}

unsigned long rt_handle_count(void)
{
	return atomic_load(&registered);
}
