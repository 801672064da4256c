/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-file device virtual address spaces and the mappings that place a
 * buffer in one of them.
 */
#ifndef VNPU_VM_H
#define VNPU_VM_H

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <drm/drm_mm.h>

struct vnpu_bo;

/**
 * struct vnpu_vm - one file's device virtual address space
 * @refcount: the file holds one reference, every mapping another
 * @lock: protects @mm and the @closed flag of every mapping in it; never
 *	held while a mapping or buffer reference is dropped
 * @start: first VA of the window (the device's, see the uapi header)
 * @end: end of the window
 * @mm: VA allocator over [@start, @end)
 */
struct vnpu_vm {
	struct kref refcount;
	struct mutex lock;	/* the VA allocator and mappings */
	u64 start, end;
	struct drm_mm mm;
};

/**
 * struct vnpu_mapping - a buffer placed in a file's address space
 * @refcount: the file's GEM handle holds one reference; jobs and pool
 *	bindings that use the memory hold more
 * @vm: address space (referenced)
 * @bo: buffer (its GEM object referenced)
 * @node: the VA range; stays in @vm->mm until the last reference is gone,
 *	so the VA is not reused while anything still uses the memory
 * @bo_link: entry in @bo->mappings, under @bo->mappings_lock
 * @closed: the handle is gone; new lookups by VA skip this mapping
 *	(protected by @vm->lock)
 */
struct vnpu_mapping {
	struct kref refcount;
	struct vnpu_vm *vm;
	struct vnpu_bo *bo;
	struct drm_mm_node node;
	struct list_head bo_link;
	bool closed;
};

struct vnpu_vm *vnpu_vm_create(u64 start, u64 end);
void vnpu_vm_put(struct vnpu_vm *vm);

static inline struct vnpu_vm *vnpu_vm_get(struct vnpu_vm *vm)
{
	kref_get(&vm->refcount);
	return vm;
}

struct vnpu_mapping *vnpu_mapping_create(struct vnpu_vm *vm, struct vnpu_bo *bo,
					 u64 align);
void vnpu_mapping_close(struct vnpu_mapping *mapping);

static inline struct vnpu_mapping *vnpu_mapping_get(struct vnpu_mapping *mapping)
{
	kref_get(&mapping->refcount);
	return mapping;
}

void vnpu_mapping_put(struct vnpu_mapping *mapping);

static inline u64 vnpu_mapping_va(const struct vnpu_mapping *mapping)
{
	return mapping->node.start;
}

int vnpu_vm_resolve_locked(struct vnpu_vm *vm, u64 va, u64 len,
			   struct vnpu_mapping **mapping, u64 *offset);
int vnpu_vm_resolve(struct vnpu_vm *vm, u64 va, u64 len,
		    struct vnpu_mapping **mapping, u64 *offset);
unsigned long vnpu_vm_live_vas(struct vnpu_vm *vm, u64 *vas, unsigned long max);

#endif /* VNPU_VM_H */
