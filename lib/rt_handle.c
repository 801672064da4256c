// SPDX-License-Identifier: MIT
/*
 * rt_handle.c - object reference counts and the handle registry: a hash set
 * of live object addresses under a reader-writer lock. Lookups hold the
 * lock only to find the object and take a reference.
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

static pthread_rwlock_t registry_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct entry *buckets[BUCKETS];
static unsigned long registered;
static atomic_uint_fast64_t next_serial = 1;

static unsigned int bucket_of(const void *p)
{
	uint64_t x = (uint64_t)(uintptr_t)p;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return (unsigned int)(x % BUCKETS);
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
	unsigned int b = bucket_of(obj);

	if (!e)
		return -ENOMEM;
	e->obj = obj;
	obj->serial = atomic_fetch_add(&next_serial, 1);
	rt_obj_get(obj);
	pthread_rwlock_wrlock(&registry_lock);
	e->next = buckets[b];
	buckets[b] = e;
	registered++;
	pthread_rwlock_unlock(&registry_lock);
	return 0;
}

bool rt_handle_remove(struct rt_obj *obj)
{
	unsigned int b = bucket_of(obj);
	struct entry **pp, *e = NULL;

	pthread_rwlock_wrlock(&registry_lock);
	for (pp = &buckets[b]; *pp; pp = &(*pp)->next) {
		if ((*pp)->obj == obj) {
			e = *pp;
			*pp = e->next;
			registered--;
			break;
		}
	}
	pthread_rwlock_unlock(&registry_lock);
	if (!e)
		return false;
	free(e);
	rt_obj_put(obj);
	return true;
}

struct rt_obj *rt_handle_lookup(const void *handle, uint32_t type)
{
	struct rt_obj *found = NULL;
	struct entry *e;

	if (!handle)
		return NULL;
	pthread_rwlock_rdlock(&registry_lock);
	for (e = buckets[bucket_of(handle)]; e; e = e->next) {
		if ((const void *)e->obj == handle) {
			if (e->obj->type == type) {
				found = e->obj;
				rt_obj_get(found);
			}
			break;
		}
	}
	pthread_rwlock_unlock(&registry_lock);
	return found;
}

unsigned long rt_handle_count(void)
{
	unsigned long n;

	pthread_rwlock_rdlock(&registry_lock);
	n = registered;
	pthread_rwlock_unlock(&registry_lock);
	return n;
}
