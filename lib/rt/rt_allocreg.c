// SPDX-License-Identifier: MIT
/*
 * rt_allocreg.c - allocator descriptors and per-stream registration slots
 * (see rt_allocreg.h for the reclamation rule).
 */
#include <stdlib.h>

#include "rt_allocreg.h"
#include "rt_list.h"

/* ---- descriptors ----------------------------------------------------------- */

static void desc_release(struct rt_obj *obj)
{
	struct rt_allocdesc *d = rt_container_of(obj, struct rt_allocdesc, obj);

	pthread_mutex_destroy(&d->lock);
	free(d);
}

struct rt_allocdesc *rt_allocdesc_new(void)
{
	struct rt_allocdesc *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	rt_obj_init(&d->obj, RT_OBJ_ALLOCDESC, desc_release);
	pthread_mutex_init(&d->lock, NULL);
	if (rt_handle_add(&d->obj)) {
		rt_obj_put(&d->obj);
		return NULL;
	}
	/* The registry holds the handle's reference; drop the creator's. */
	rt_obj_put(&d->obj);
	return d;
}

struct rt_allocdesc *rt_allocdesc_lookup(const void *handle)
{
	struct rt_obj *obj = rt_handle_lookup(handle, RT_OBJ_ALLOCDESC);

	return obj ? rt_container_of(obj, struct rt_allocdesc, obj) : NULL;
}

void rt_allocdesc_put(struct rt_allocdesc *d)
{
	if (d)
		rt_obj_put(&d->obj);
}

bool rt_allocdesc_destroy(struct rt_allocdesc *d)
{
	return rt_handle_remove(&d->obj);
}

void rt_allocdesc_read(struct rt_allocdesc *d, struct rt_allocfns *out)
{
	pthread_mutex_lock(&d->lock);
	*out = d->fns;
	pthread_mutex_unlock(&d->lock);
}

void rt_allocdesc_set(struct rt_allocdesc *d, enum rt_allocdesc_field field, const struct rt_allocfns *val)
{
	pthread_mutex_lock(&d->lock);
	switch (field) {
	case RT_ALLOCDESC_OBJ:
		d->fns.obj = val->obj;
		break;
	case RT_ALLOCDESC_ALLOC:
		d->fns.alloc = val->alloc;
		break;
	case RT_ALLOCDESC_FREE:
		d->fns.free = val->free;
		break;
	case RT_ALLOCDESC_ADVISE:
		d->fns.advise = val->advise;
		break;
	case RT_ALLOCDESC_GET_ADDR:
		d->fns.get_addr = val->get_addr;
		break;
	}
	pthread_mutex_unlock(&d->lock);
}

/* ---- slots ----------------------------------------------------------------- */

struct rt_allocrec *rt_allocrec_new(aclrtAllocatorDesc desc, const struct rt_allocfns *fns)
{
	struct rt_allocrec *rec = calloc(1, sizeof(*rec));

	if (!rec)
		return NULL;
	rec->desc = desc;
	rec->fns = *fns;
	return rec;
}

void rt_allocslot_init(struct rt_allocslot *slot)
{
	atomic_init(&slot->cur, NULL);
	atomic_init(&slot->readers, 0);
	pthread_mutex_init(&slot->lock, NULL);
	slot->retired = NULL;
	slot->closed = false;
	slot->records_freed = 0;
}

static void free_retired(struct rt_allocslot *slot)
{
	while (slot->retired) {
		struct rt_allocrec *rec = slot->retired;

		slot->retired = rec->retired_next;
		free(rec);
		slot->records_freed++;
	}
}

void rt_allocslot_fini(struct rt_allocslot *slot)
{
	free(atomic_load(&slot->cur));
	atomic_store(&slot->cur, NULL);
	free_retired(slot);
	pthread_mutex_destroy(&slot->lock);
}

/* Swap in @rec; slot->lock held. */
static void slot_swap(struct rt_allocslot *slot, struct rt_allocrec *rec)
{
	struct rt_allocrec *old = atomic_exchange(&slot->cur, rec);

	if (old) {
		old->retired_next = slot->retired;
		slot->retired = old;
	}
	/*
	 * A reader counts itself before loading cur (both sequentially
	 * consistent), so if none is counted now, any reader still to come
	 * loads the new pointer: nobody holds a retired record.
	 */
	if (!atomic_load(&slot->readers))
		free_retired(slot);
}

bool rt_allocslot_set(struct rt_allocslot *slot, struct rt_allocrec *rec)
{
	bool ok;

	pthread_mutex_lock(&slot->lock);
	ok = !slot->closed;
	if (ok)
		slot_swap(slot, rec);
	pthread_mutex_unlock(&slot->lock);
	if (!ok)
		free(rec);
	return ok;
}

void rt_allocslot_close(struct rt_allocslot *slot)
{
	pthread_mutex_lock(&slot->lock);
	slot->closed = true;
	slot_swap(slot, NULL);
	pthread_mutex_unlock(&slot->lock);
}

const struct rt_allocrec *rt_allocslot_enter(struct rt_allocslot *slot)
{
	atomic_fetch_add(&slot->readers, 1);
	return atomic_load(&slot->cur);
}

void rt_allocslot_leave(struct rt_allocslot *slot)
{
	atomic_fetch_sub(&slot->readers, 1);
}
