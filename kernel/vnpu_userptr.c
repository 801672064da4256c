// SPDX-License-Identifier: GPL-2.0
/*
 * Process memory as device buffers (BO_USERPTR), for CANN's registered host
 * memory.
 *
 * A user-memory buffer is a vnpu_bo whose GEM object is a private object
 * (no shmem file behind it) with its own object functions, over pages
 * pinned long-term with pin_user_pages_fast() and mapped into the kernel
 * with vmap(). That gives the engines what every buffer gives them, a
 * kernel address that stays valid for the buffer's life, with nothing in
 * between.
 *
 * The other known route (ivpu's) wraps the pinned pages in a private dma-buf
 * and imports it through the PRIME path. Here that would build a second
 * object whose only purpose is to be unwrapped again, dma-map the pages for
 * a device that never does DMA, reach the kernel mapping through
 * dma_buf_vmap() and make the buffer look imported. Owning the pages
 * directly is less code and keeps the lifetime rules in one place; PRIME
 * export still works through the object functions below, so a user-memory
 * buffer can be shared like any other (but never mmapped: the process that
 * registered it already has the memory).
 *
 * Pinned pages are charged to the pinned_vm of the registering process's
 * address space against its RLIMIT_MEMLOCK (CAP_IPC_LOCK lifts the limit),
 * and uncharged when the buffer is freed, even if that process is gone by
 * then (the buffer holds the mm_struct with mmgrab()). The charge is a
 * lockless counter, so freeing never needs the mmap lock.
 */
#include <linux/capability.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <drm/drm_gem.h>
#include <drm/drm_prime.h>

#include "vnpu_drv.h"
#include "vnpu_engine.h"
#include "vnpu_gem.h"

static int vnpu_userptr_charge(struct mm_struct *mm, unsigned long npages)
{
	unsigned long limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
	u64 pinned = atomic64_add_return(npages, &mm->pinned_vm);

	if (pinned > limit && !capable(CAP_IPC_LOCK)) {
		atomic64_sub(npages, &mm->pinned_vm);
		return -ENOMEM;
	}
	return 0;
}

static void vnpu_userptr_uncharge(struct mm_struct *mm, unsigned long npages)
{
	atomic64_sub(npages, &mm->pinned_vm);
}

/*
 * Pin @npages writable pages from @start and map them into the kernel.
 * Return: the page array (with *vaddr set) or an ERR_PTR: -EFAULT if a page
 * is not mapped writable, -ENOMEM.
 */
static struct page **vnpu_userptr_pin(u64 start, unsigned long npages,
				      void **vaddr)
{
	struct page **pages;
	int pinned, ret;

	pages = kvmalloc_array(npages, sizeof(*pages), GFP_KERNEL | __GFP_NOWARN);
	if (!pages)
		return ERR_PTR(-ENOMEM);

	pinned = pin_user_pages_fast(start, npages, FOLL_WRITE | FOLL_LONGTERM,
				     pages);
	if (pinned < 0) {
		ret = pinned;
		goto err_free;
	}
	/* A short pin stopped at a page that is not there or not writable. */
	if (pinned < npages) {
		ret = -EFAULT;
		goto err_unpin;
	}

	*vaddr = vmap(pages, npages, VM_MAP, PAGE_KERNEL);
	if (!*vaddr) {
		ret = -ENOMEM;
		goto err_unpin;
	}
	return pages;

err_unpin:
	unpin_user_pages(pages, pinned);
err_free:
	kvfree(pages);
	return ERR_PTR(ret);
}

static void vnpu_userptr_free(struct drm_gem_object *obj)
{
	struct vnpu_bo *bo = to_vnpu_bo(obj);
	unsigned long npages = obj->size >> PAGE_SHIFT;

	WARN_ON(!list_empty(&bo->mappings));
	/* Out of the engine server's mappings before the pages go. */
	vnpu_engine_bo_free(bo);
	vunmap(bo->map.vaddr);
	/*
	 * The engine writes through a mapping of its own, a PFN map that
	 * leaves no dirty bit on the pages: mark them.
	 */
	unpin_user_pages_dirty_lock(bo->user_pages, npages, true);
	kvfree(bo->user_pages);
	vnpu_userptr_uncharge(bo->user_mm, npages);
	mmdrop(bo->user_mm);
	vnpu_bo_fini(bo);
	drm_gem_object_release(obj);
	kfree(bo);
}

/* PRIME export: a fresh table each time, as drm_gem_map_dma_buf() wants. */
static struct sg_table *vnpu_userptr_get_sg_table(struct drm_gem_object *obj)
{
	return drm_prime_pages_to_sg(obj->dev, to_vnpu_bo(obj)->user_pages,
				     obj->size >> PAGE_SHIFT);
}

/* The kernel mapping exists for the buffer's whole life: share it. */
static int vnpu_userptr_vmap(struct drm_gem_object *obj, struct iosys_map *map)
{
	iosys_map_set_vaddr(map, vnpu_bo_vaddr(to_vnpu_bo(obj)));
	return 0;
}

static void vnpu_userptr_vunmap(struct drm_gem_object *obj, struct iosys_map *map)
{
}

/* Neither the device file nor an exported dma-buf maps user memory. */
static int vnpu_userptr_mmap(struct drm_gem_object *obj, struct vm_area_struct *vma)
{
	return -EINVAL;
}

static const struct drm_gem_object_funcs vnpu_userptr_funcs = {
	.free = vnpu_userptr_free,
	.open = vnpu_bo_open,
	.close = vnpu_bo_close,
	.get_sg_table = vnpu_userptr_get_sg_table,
	.vmap = vnpu_userptr_vmap,
	.vunmap = vnpu_userptr_vunmap,
	.mmap = vnpu_userptr_mmap,
};

/**
 * vnpu_ioctl_bo_userptr() - DRM_IOCTL_VNPU_BO_USERPTR
 * @drm: device
 * @data: struct drm_vnpu_bo_userptr
 * @file: calling file
 *
 * Validate, charge RLIMIT_MEMLOCK, pin and map the pages, wrap them in a
 * buffer, then publish it (handle and VA). Failures unwind in reverse.
 *
 * Return: 0 or a negative errno (see the uapi header).
 */
int vnpu_ioctl_bo_userptr(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_vnpu_bo_userptr *args = data;
	struct mm_struct *mm = current->mm;
	unsigned long npages;
	struct page **pages;
	struct vnpu_bo *bo;
	void *vaddr;
	u64 va;
	u32 handle;
	int ret;

	if (args->flags || !args->user_ptr || !args->size ||
	    !PAGE_ALIGNED(args->user_ptr) || !PAGE_ALIGNED(args->size))
		return -EINVAL;
	if (args->size > VNPU_MAX_BO_SIZE)
		return -E2BIG;
	if (!access_ok(u64_to_user_ptr(args->user_ptr), args->size))
		return -EFAULT;
	npages = args->size >> PAGE_SHIFT;

	ret = vnpu_userptr_charge(mm, npages);
	if (ret)
		return ret;

	pages = vnpu_userptr_pin(args->user_ptr, npages, &vaddr);
	if (IS_ERR(pages)) {
		ret = PTR_ERR(pages);
		goto err_uncharge;
	}

	bo = kzalloc(sizeof(*bo), GFP_KERNEL);
	if (!bo) {
		ret = -ENOMEM;
		goto err_unpin;
	}
	vnpu_bo_gem(bo)->funcs = &vnpu_userptr_funcs;
	drm_gem_private_object_init(drm, vnpu_bo_gem(bo), args->size);
	vnpu_bo_init(bo);
	bo->flags = VNPU_BO_USERPTR;
	bo->user_memory = true;
	bo->user_pages = pages;
	iosys_map_set_vaddr(&bo->map, vaddr);
	mmgrab(mm);
	bo->user_mm = mm;

	/* From here the buffer's free unpins and uncharges. */
	ret = vnpu_bo_publish(file, bo, &handle, &va);
	if (!ret) {
		args->handle = handle;
		args->va = va;
	}
	drm_gem_object_put(vnpu_bo_gem(bo));
	return ret;

err_unpin:
	vunmap(vaddr);
	unpin_user_pages(pages, npages);
	kvfree(pages);
err_uncharge:
	vnpu_userptr_uncharge(mm, npages);
	return ret;
}
