/* SPDX-License-Identifier: MIT */
/*
 * rt_allocreg.h - external allocator registration (acl_rt_allocator.h),
 * the pure half: allocator descriptors and the per-stream registration
 * slot.
 *
 * Descriptors (aclrtAllocatorDesc) are registry objects (rt_handle.h), so
 * a destroyed or foreign descriptor is rejected, never dereferenced.
 *
 * A registration is an immutable record: a copy of the descriptor's object
 * and callbacks plus the descriptor's address (what GetByStream returns).
 * Each stream has one slot, an atomic pointer to its current record.
 * Readers (the operator path, GetByStream) announce themselves in the
 * slot's reader count, load the pointer with no lock, use the record and
 * leave. Writers (register, unregister, stream destroy) serialise on the
 * slot's mutex, swap the pointer and retire the old record onto the slot's
 * list; retired records are freed by a writer that finds no reader inside
 * (then nobody can hold one: a reader counts itself before it loads the
 * pointer), and at the latest when the slot itself goes (the stream's last
 * reference: no reader can be left).
 *
 * Nothing here is process-global: every callback gets its own object (or
 * block) back, so a binding such as pyACL can register per-stream Python
 * allocators without trampolines keyed by callback kind.
 */
#ifndef VNPU_LIB_RT_ALLOCREG_H
#define VNPU_LIB_RT_ALLOCREG_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "acl/acl_rt_allocator.h"
#include "rt_handle.h"

/* The callbacks and object of an allocator. */
struct rt_allocfns {
	aclrtAllocator obj;
	aclrtAllocatorAllocFunc alloc;
	aclrtAllocatorFreeFunc free;
	aclrtAllocatorAllocAdviseFunc advise;
	aclrtAllocatorGetAddrFromBlockFunc get_addr;
};

/* What aclrtAllocatorDesc points to. */
struct rt_allocdesc {
	struct rt_obj obj;
	pthread_mutex_t lock;
	struct rt_allocfns fns;
};

/* One registration: never changes once published. */
struct rt_allocrec {
	struct rt_allocrec *retired_next;
	aclrtAllocatorDesc desc;	/* as passed to aclrtAllocatorRegister */
	struct rt_allocfns fns;
};

struct rt_allocslot {
	_Atomic(struct rt_allocrec *) cur;
	atomic_uint readers;
	pthread_mutex_t lock;		/* writers */
	struct rt_allocrec *retired;
	bool closed;			/* the stream is gone: no new record */
	unsigned long records_freed;	/* for the tests */
};

/* ---- descriptors ----------------------------------------------------------- */

/* A new, empty descriptor (registered, one reference: the handle's). */
struct rt_allocdesc *rt_allocdesc_new(void);
/* The live descriptor at @handle, referenced; NULL if there is none. */
struct rt_allocdesc *rt_allocdesc_lookup(const void *handle);
void rt_allocdesc_put(struct rt_allocdesc *d);
/* Unregister (aclrtAllocatorDestroyDesc); false if it was not live. */
bool rt_allocdesc_destroy(struct rt_allocdesc *d);
/* Copy of the descriptor's current contents. */
void rt_allocdesc_read(struct rt_allocdesc *d, struct rt_allocfns *out);

enum rt_allocdesc_field {
	RT_ALLOCDESC_OBJ,
	RT_ALLOCDESC_ALLOC,
	RT_ALLOCDESC_FREE,
	RT_ALLOCDESC_ADVISE,
	RT_ALLOCDESC_GET_ADDR,
};
/* Set @field of the descriptor to the same field of @val. */
void rt_allocdesc_set(struct rt_allocdesc *d, enum rt_allocdesc_field field, const struct rt_allocfns *val);

/* ---- slots ----------------------------------------------------------------- */

void rt_allocslot_init(struct rt_allocslot *slot);
/* Free every record; nobody may use the slot any more. */
void rt_allocslot_fini(struct rt_allocslot *slot);

/* A record for @fns (copied) registered through @desc; NULL if out of
 * memory. */
struct rt_allocrec *rt_allocrec_new(aclrtAllocatorDesc desc, const struct rt_allocfns *fns);

/*
 * Publish @rec (NULL: unregister) as the slot's registration; the previous
 * one is retired. Returns false (and frees @rec) if the slot is closed.
 */
bool rt_allocslot_set(struct rt_allocslot *slot, struct rt_allocrec *rec);
/* Unregister for good (the stream is being destroyed). */
void rt_allocslot_close(struct rt_allocslot *slot);

/*
 * Reader side, lock-free: enter, use the returned record (NULL: none
 * registered) for as long as needed, leave. The record stays valid until
 * the matching leave, whatever writers do meanwhile.
 */
const struct rt_allocrec *rt_allocslot_enter(struct rt_allocslot *slot);
void rt_allocslot_leave(struct rt_allocslot *slot);

#endif /* VNPU_LIB_RT_ALLOCREG_H */
