// SPDX-License-Identifier: GPL-2.0
/*
 * Per-file device virtual address spaces.
 *
 * Every open file gets its own drm_mm over [VNPU_VA_START, VNPU_VA_END).
 * A buffer is placed in a file's space when the file gets a handle to it
 * (creation or PRIME import), and its VA stays reserved until the last user
 * of the memory (handle, job or pool binding) lets go, so a VA never names
 * two buffers while work might still reach the first one.
 */
#include <linux/slab.h>

#include "vnpu_drv.h"
#include "vnpu_gem.h"
#include "vnpu_vm.h"

/**
 * vnpu_vm_create() - make an empty address space
 *
 * Return: the address space with one reference, or NULL.
 */
struct vnpu_vm *vnpu_vm_create(void)
{
	struct vnpu_vm *vm;

	vm = kzalloc(sizeof(*vm), GFP_KERNEL);
	if (!vm)
		return NULL;
	kref_init(&vm->refcount);
	mutex_init(&vm->lock);
	drm_mm_init(&vm->mm, VNPU_VA_START, VNPU_VA_END - VNPU_VA_START);
	return vm;
}

static void vnpu_vm_release(struct kref *kref)
{
	struct vnpu_vm *vm = container_of(kref, struct vnpu_vm, refcount);

	/* Every mapping holds a reference, so the space is empty by now. */
	drm_mm_takedown(&vm->mm);
	mutex_destroy(&vm->lock);
	kfree(vm);
}

/**
 * vnpu_vm_put() - drop a reference to an address space
 * @vm: address space
 */
void vnpu_vm_put(struct vnpu_vm *vm)
{
	kref_put(&vm->refcount, vnpu_vm_release);
}

/**
 * vnpu_mapping_create() - place a buffer in an address space
 * @vm: address space
 * @bo: buffer; the mapping takes a reference on its GEM object
 * @align: VA alignment in bytes (a power of two, at least PAGE_SIZE)
 *
 * Return: the mapping with one reference (the handle's), or an ERR_PTR:
 * -ENOMEM when memory or the VA window is exhausted.
 */
struct vnpu_mapping *vnpu_mapping_create(struct vnpu_vm *vm, struct vnpu_bo *bo,
					 u64 align)
{
	struct vnpu_mapping *mapping;
	int ret;

	mapping = kzalloc(sizeof(*mapping), GFP_KERNEL);
	if (!mapping)
		return ERR_PTR(-ENOMEM);

	mutex_lock(&vm->lock);
	ret = drm_mm_insert_node_in_range(&vm->mm, &mapping->node,
					  vnpu_bo_size(bo), align, 0,
					  VNPU_VA_START, VNPU_VA_END,
					  DRM_MM_INSERT_BEST);
	mutex_unlock(&vm->lock);
	if (ret) {
		kfree(mapping);
		return ERR_PTR(ret == -ENOSPC ? -ENOMEM : ret);
	}

	kref_init(&mapping->refcount);
	kref_get(&vm->refcount);
	mapping->vm = vm;
	drm_gem_object_get(vnpu_bo_gem(bo));
	mapping->bo = bo;
	INIT_LIST_HEAD(&mapping->bo_link);
	return mapping;
}

static void vnpu_mapping_release(struct kref *kref)
{
	struct vnpu_mapping *mapping =
		container_of(kref, struct vnpu_mapping, refcount);
	struct vnpu_vm *vm = mapping->vm;

	mutex_lock(&vm->lock);
	drm_mm_remove_node(&mapping->node);
	mutex_unlock(&vm->lock);

	drm_gem_object_put(vnpu_bo_gem(mapping->bo));
	vnpu_vm_put(vm);
	kfree(mapping);
}

/**
 * vnpu_mapping_put() - drop a reference to a mapping
 * @mapping: mapping; the last reference frees its VA and drops its buffer
 *
 * Must not be called with the mapping's @vm->lock held.
 */
void vnpu_mapping_put(struct vnpu_mapping *mapping)
{
	kref_put(&mapping->refcount, vnpu_mapping_release);
}

/**
 * vnpu_mapping_close() - the handle that owned the mapping is gone
 * @mapping: mapping; loses the handle's reference
 *
 * Later lookups by VA no longer find it; holders of other references keep
 * the memory and the VA.
 */
void vnpu_mapping_close(struct vnpu_mapping *mapping)
{
	mutex_lock(&mapping->vm->lock);
	mapping->closed = true;
	mutex_unlock(&mapping->vm->lock);
	vnpu_mapping_put(mapping);
}

/**
 * vnpu_vm_resolve_locked() - find the live buffer that holds a VA range
 * @vm: address space, with @vm->lock held
 * @va: start of the range
 * @len: length of the range in bytes, nonzero
 * @mapping: out, the mapping, with a new reference the caller must put
 *	(after dropping @vm->lock)
 * @offset: out, offset of @va in the buffer
 *
 * The range must lie entirely inside one buffer whose handle is still open
 * in this file. Lookup is O(log n) in the number of mappings (drm_mm keeps
 * its nodes in an interval tree).
 *
 * Return: 0, -EINVAL for @len 0, -EOVERFLOW if @va + @len wraps, -ENXIO if
 * no single live buffer holds the range.
 */
int vnpu_vm_resolve_locked(struct vnpu_vm *vm, u64 va, u64 len,
			   struct vnpu_mapping **mapping, u64 *offset)
{
	struct drm_mm_node *node;
	struct vnpu_mapping *found;
	u64 end;

	lockdep_assert_held(&vm->lock);

	if (!len)
		return -EINVAL;
	if (check_add_overflow(va, len, &end))
		return -EOVERFLOW;
	/*
	 * Outside the window there are no buffers, and the drm_mm range
	 * iterator is only defined inside it (past the end it would walk onto
	 * the allocator's head node).
	 */
	if (va < VNPU_VA_START || end > VNPU_VA_END)
		return -ENXIO;

	/* At most one node overlaps [va, va + 1): the only candidate. */
	drm_mm_for_each_node_in_range(node, &vm->mm, va, va + 1) {
		found = container_of(node, struct vnpu_mapping, node);
		if (found->closed || end > node->start + vnpu_bo_size(found->bo))
			return -ENXIO;
		*mapping = vnpu_mapping_get(found);
		*offset = va - node->start;
		return 0;
	}
	return -ENXIO;
}

/**
 * vnpu_vm_resolve() - vnpu_vm_resolve_locked() taking the lock itself
 * @vm: address space
 * @va: start of the range
 * @len: length of the range in bytes
 * @mapping: out, referenced mapping
 * @offset: out, offset of @va in the buffer
 *
 * Return: as vnpu_vm_resolve_locked().
 */
int vnpu_vm_resolve(struct vnpu_vm *vm, u64 va, u64 len,
		    struct vnpu_mapping **mapping, u64 *offset)
{
	int ret;

	mutex_lock(&vm->lock);
	ret = vnpu_vm_resolve_locked(vm, va, len, mapping, offset);
	mutex_unlock(&vm->lock);
	return ret;
}

/**
 * vnpu_vm_live_vas() - list the start VAs of the live buffers of a space
 * @vm: address space
 * @vas: out, up to @max VAs in increasing order
 * @max: capacity of @vas
 *
 * For debugfs test hooks (vnpu_debugfs.c), which need real VAs to look up.
 *
 * Return: the number of live mappings, which may exceed @max.
 */
unsigned long vnpu_vm_live_vas(struct vnpu_vm *vm, u64 *vas, unsigned long max)
{
	struct drm_mm_node *node;
	unsigned long n = 0;

	mutex_lock(&vm->lock);
	drm_mm_for_each_node(node, &vm->mm) {
		if (container_of(node, struct vnpu_mapping, node)->closed)
			continue;
		if (n < max)
			vas[n] = node->start;
		n++;
	}
	mutex_unlock(&vm->lock);
	return n;
}
