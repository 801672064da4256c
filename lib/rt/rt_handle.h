/* SPDX-License-Identifier: MIT */
/*
 * rt_handle.h - reference-counted runtime objects and the registry that
 * validates the opaque handles (aclrtContext, aclrtStream, aclrtEvent) the
 * application passes back.
 *
 * A handle is the address of an object. Before the runtime touches an object
 * named by a handle it looks the address up in the registry: an address that
 * is not a live object of the expected type (never created, already
 * destroyed, or of another type) is rejected without being dereferenced. A
 * successful lookup takes a reference, so another thread destroying the
 * object meanwhile only unregisters it; the memory stays valid until the
 * last reference is dropped.
 */
#ifndef VNPU_LIB_RT_HANDLE_H
#define VNPU_LIB_RT_HANDLE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

enum rt_obj_type {
	RT_OBJ_CONTEXT = 1,
	RT_OBJ_STREAM,
	RT_OBJ_EVENT,
	RT_OBJ_ALLOCDESC,
	RT_OBJ_RI,
	RT_OBJ_NOTIFY,		/* aclrtNotify (acl_notify.c) */
};

struct rt_obj {
	uint32_t type;
	atomic_uint refs;
	/* Unique for the life of the process (0 = never registered). */
	uint64_t serial;
	void (*release)(struct rt_obj *obj);
};

/* Initialise @obj with one reference (the creator's). */
void rt_obj_init(struct rt_obj *obj, uint32_t type, void (*release)(struct rt_obj *obj));
void rt_obj_get(struct rt_obj *obj);
/* Drop a reference; the last one calls release(). */
void rt_obj_put(struct rt_obj *obj);

/* Make @obj reachable through its address; takes a reference for the
 * registry. -ENOMEM if out of memory. */
int rt_handle_add(struct rt_obj *obj);
/* Unregister @obj and drop the registry's reference. Returns false if it was
 * not registered (someone else removed it first). */
bool rt_handle_remove(struct rt_obj *obj);
/* The live object of @type at @handle, with a reference taken; NULL if
 * there is none. */
struct rt_obj *rt_handle_lookup(const void *handle, uint32_t type);
/* Number of registered objects (for tests). */
unsigned long rt_handle_count(void);

#endif /* VNPU_LIB_RT_HANDLE_H */
