// SPDX-License-Identifier: GPL-2.0
/*
 * Buffer objects.
 *
 * Buffers are GEM shmem objects, pinned and mapped into the kernel for
 * their whole life, like device memory that never moves: the kernel reads
 * wait words through that mapping, and the engine server's mappings of a
 * buffer are made from it (vnpu_engine.c). Each file that holds a
 * handle to a buffer sees it at its own device VA (vnpu_vm.c). Process
 * memory made into a buffer (BO_USERPTR) lives in vnpu_userptr.c.
 *
 * Accounting: a buffer is charged once, when it is created, to the device
 * memory capacity (or, VNPU_BO_HOST, to the host budget), and uncharged
 * when its last reference goes, whoever holds that (a handle, an mmap, a
 * dma-buf, a job). Each file also counts the buffers it has a handle to,
 * per region, for GET_PARAM and fdinfo.
 */
#include <linux/dma-buf.h>
#include <linux/idr.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_prime.h>

#include "vnpu_drv.h"
#include "vnpu_engine.h"
#include "vnpu_gem.h"
#include "vnpu_vm.h"

/*
 * VNPU_BO_HOST buffers are pinned host RAM that no device capacity bounds.
 * Together, over all devices, they may take at most half of the RAM, so
 * that one request fails with -ENOMEM instead of waking the OOM killer.
 */
static atomic64_t vnpu_host_mem_total = ATOMIC64_INIT(0);

static int vnpu_host_mem_charge(u64 bytes)
{
	u64 limit = (u64)totalram_pages() << (PAGE_SHIFT - 1);
	s64 used = atomic64_read(&vnpu_host_mem_total);

	do {
		if (bytes > limit || used > limit - bytes)
			return -ENOMEM;
	} while (!atomic64_try_cmpxchg(&vnpu_host_mem_total, &used, used + bytes));
	return 0;
}

/* Charge a new buffer of @size bytes with creation @flags; 0 or -ENOMEM. */
static int vnpu_bo_charge(struct vnpu_device *vdev, u32 flags, u64 size)
{
	int ret;

	if (!(flags & VNPU_BO_HOST))
		return vnpu_mem_charge(vdev, size);

	ret = vnpu_host_mem_charge(size);
	if (!ret)
		atomic64_add(size, &vdev->host_mem_used);
	return ret;
}

static void vnpu_bo_uncharge(struct vnpu_device *vdev, u32 flags, u64 size)
{
	if (!(flags & VNPU_BO_HOST)) {
		vnpu_mem_uncharge(vdev, size);
		return;
	}
	atomic64_sub(size, &vdev->host_mem_used);
	WARN_ON(atomic64_sub_return(size, &vnpu_host_mem_total) < 0);
}

/* Find @vm's mapping of @bo. Caller holds @bo->mappings_lock. */
static struct vnpu_mapping *vnpu_bo_find_mapping(struct vnpu_bo *bo,
						 struct vnpu_vm *vm)
{
	struct vnpu_mapping *mapping;

	lockdep_assert_held(&bo->mappings_lock);
	list_for_each_entry(mapping, &bo->mappings, bo_link)
		if (mapping->vm == vm)
			return mapping;
	return NULL;
}

static void vnpu_file_account(struct vnpu_file *vfile, struct vnpu_bo *bo,
			      s64 delta)
{
	if (vnpu_bo_region(bo) == VNPU_REGION_VRAM)
		atomic64_add(delta, &vfile->mem_used);
	else
		atomic64_add(delta, &vfile->host_mem_used);
}

/**
 * vnpu_bo_open() - drm_gem_object_funcs.open: place the buffer in the VA
 * space of a file that just got a handle to it
 * @obj: the buffer
 * @file: the file
 *
 * Return: 0; -EOPNOTSUPP for an object the engines cannot reach (one not
 * made by our own creation paths, such as a dumb buffer); -EBUSY if the
 * file already has the buffer; -ENOMEM.
 */
int vnpu_bo_open(struct drm_gem_object *obj, struct drm_file *file)
{
	struct vnpu_file *vfile = to_vnpu_file(file);
	struct vnpu_bo *bo = to_vnpu_bo(obj);
	struct vnpu_mapping *mapping;
	u64 align = bo->flags & VNPU_BO_HUGE_ALIGN ? SZ_2M : PAGE_SIZE;
	int ret = 0;

	/*
	 * Every buffer gets its kernel mapping before its first handle; one
	 * without (a dumb buffer made through the primary node) must never get
	 * a VA, or a job could make an engine touch memory that is not there.
	 */
	if (!vnpu_bo_vaddr(bo))
		return -EOPNOTSUPP;

	mutex_lock(&bo->mappings_lock);
	if (vnpu_bo_find_mapping(bo, vfile->vm)) {
		/* One handle per file and buffer is all the ABI hands out. */
		ret = -EBUSY;
		goto out_unlock;
	}
	mapping = vnpu_mapping_create(vfile->vm, bo, align);
	if (IS_ERR(mapping)) {
		ret = PTR_ERR(mapping);
		goto out_unlock;
	}
	list_add_tail(&mapping->bo_link, &bo->mappings);
	vnpu_file_account(vfile, bo, vnpu_bo_size(bo));
out_unlock:
	mutex_unlock(&bo->mappings_lock);
	return ret;
}

/**
 * vnpu_bo_close() - drm_gem_object_funcs.close: the file's handle is gone
 * @obj: the buffer
 * @file: the file
 *
 * The buffer's VA in @file stops resolving; the VA itself stays reserved
 * until jobs and pool bindings that use the memory let go of it.
 */
void vnpu_bo_close(struct drm_gem_object *obj, struct drm_file *file)
{
	struct vnpu_file *vfile = to_vnpu_file(file);
	struct vnpu_bo *bo = to_vnpu_bo(obj);
	struct vnpu_mapping *mapping;

	mutex_lock(&bo->mappings_lock);
	mapping = vnpu_bo_find_mapping(bo, vfile->vm);
	if (mapping)
		list_del_init(&mapping->bo_link);
	mutex_unlock(&bo->mappings_lock);

	if (!mapping)
		return;
	vnpu_file_account(vfile, bo, -(s64)vnpu_bo_size(bo));
	vnpu_mapping_close(mapping);
}

static void vnpu_bo_free(struct drm_gem_object *obj)
{
	struct vnpu_bo *bo = to_vnpu_bo(obj);
	struct vnpu_device *vdev = to_vnpu_device(obj->dev);

	WARN_ON(!list_empty(&bo->mappings));
	/* Out of the engine server's mappings before the pages go. */
	vnpu_engine_bo_free(bo);
	if (bo->map.vaddr)
		vnpu_shmem_vunmap(&bo->base, &bo->map);
	if (bo->charged)
		vnpu_bo_uncharge(vdev, bo->flags, bo->charged);
	vnpu_bo_fini(bo);
	drm_gem_shmem_free(&bo->base);
}

static const struct drm_gem_object_funcs vnpu_gem_funcs = {
	.free = vnpu_bo_free,
	.open = vnpu_bo_open,
	.close = vnpu_bo_close,
	.print_info = drm_gem_shmem_object_print_info,
	.pin = drm_gem_shmem_object_pin,
	.unpin = drm_gem_shmem_object_unpin,
	.get_sg_table = drm_gem_shmem_object_get_sg_table,
	.vmap = drm_gem_shmem_object_vmap,
	.vunmap = drm_gem_shmem_object_vunmap,
	.mmap = drm_gem_shmem_object_mmap,
	.vm_ops = &drm_gem_shmem_vm_ops,
};

/**
 * vnpu_bo_init() - initialise the vnpu part of a freshly allocated buffer
 * @bo: zeroed buffer
 */
void vnpu_bo_init(struct vnpu_bo *bo)
{
	mutex_init(&bo->mappings_lock);
	INIT_LIST_HEAD(&bo->mappings);
	INIT_LIST_HEAD(&bo->engine.link);
	vnpu_hazard_set_init(&bo->hazards);
}

/**
 * vnpu_bo_fini() - release the vnpu part of a buffer being freed
 * @bo: buffer whose last reference is gone
 */
void vnpu_bo_fini(struct vnpu_bo *bo)
{
	vnpu_hazard_set_fini(to_vnpu_device(vnpu_bo_gem(bo)->dev), &bo->hazards);
	mutex_destroy(&bo->mappings_lock);
}

/**
 * vnpu_gem_create_object() - drm_driver.gem_create_object
 * @drm: device
 * @size: object size (unused: the shmem helper records it)
 *
 * Every shmem object of ours, created or imported, is a vnpu_bo.
 *
 * Return: the embedded GEM object or ERR_PTR(-ENOMEM).
 */
struct drm_gem_object *vnpu_gem_create_object(struct drm_device *drm, size_t size)
{
	struct vnpu_bo *bo;

	bo = kzalloc(sizeof(*bo), GFP_KERNEL);
	if (!bo)
		return ERR_PTR(-ENOMEM);
	bo->base.base.funcs = &vnpu_gem_funcs;
	/* The device is the CPU: cached mappings are coherent with it. */
	bo->base.map_wc = false;
	vnpu_bo_init(bo);
	return &bo->base.base;
}

/**
 * vnpu_gem_prime_import() - drm_driver.gem_prime_import
 * @drm: importing device
 * @dma_buf: buffer to import
 *
 * Our own buffers come back as themselves; anything else (including a
 * buffer of another vnpu device) becomes a new vnpu_bo over the dma-buf's
 * pages, mapped into the kernel like any other buffer (which can only
 * happen once the core has attached it, hence here and not in
 * gem_prime_import_sg_table). It is host memory to this device: not
 * charged to its capacity.
 *
 * Return: the GEM object or an ERR_PTR.
 */
struct drm_gem_object *vnpu_gem_prime_import(struct drm_device *drm,
					     struct dma_buf *dma_buf)
{
	struct drm_gem_object *obj;
	struct vnpu_bo *bo;
	int ret;

	obj = drm_gem_prime_import(drm, dma_buf);
	if (IS_ERR(obj) || !obj->import_attach)
		return obj;

	bo = to_vnpu_bo(obj);
	bo->flags |= VNPU_BO_IMPORTED;
	/*
	 * Every vnpu device exports through drm_gem_prime_export(), which
	 * names the exporting driver's module as the owner and the exported
	 * object as the private data.
	 */
	if (dma_buf->owner == THIS_MODULE)
		bo->user_memory = to_vnpu_bo(dma_buf->priv)->user_memory;
	ret = vnpu_shmem_vmap(&bo->base, &bo->map);
	if (ret) {
		drm_gem_object_put(obj);
		return ERR_PTR(ret);
	}
	return obj;
}

/**
 * vnpu_bo_publish() - give a new buffer its handle and VA in a file
 * @file: the file
 * @bo: buffer, kernel-mapped; the handle takes its own reference
 * @handle: out, the new handle
 * @va: out, the buffer's VA in @file
 *
 * Return: 0, or a negative errno with nothing published. -ENOENT means
 * another thread of the caller closed the handle before it was returned.
 *
 * This relies on the core calling gem open before the handle becomes
 * visible ("drm/gem: Fix race in drm_gem_handle_create_tail()", in 6.1.y
 * stable and Debian's 6.1.192): before that fix a close racing the create
 * could run before vnpu_bo_open() and leave its mapping behind.
 */
int vnpu_bo_publish(struct drm_file *file, struct vnpu_bo *bo, u32 *handle,
		    u64 *va)
{
	struct vnpu_file *vfile = to_vnpu_file(file);
	struct vnpu_mapping *mapping;
	u32 new_handle;
	int ret;

	ret = drm_gem_handle_create(file, vnpu_bo_gem(bo), &new_handle);
	if (ret)
		return ret;

	mutex_lock(&bo->mappings_lock);
	mapping = vnpu_bo_find_mapping(bo, vfile->vm);
	if (mapping)
		*va = vnpu_mapping_va(mapping);
	mutex_unlock(&bo->mappings_lock);
	if (!mapping)
		return -ENOENT;
	*handle = new_handle;
	return 0;
}

/**
 * vnpu_ioctl_bo_create() - DRM_IOCTL_VNPU_BO_CREATE
 * @drm: device
 * @data: struct drm_vnpu_bo_create
 * @file: calling file
 *
 * Validate, charge, allocate, pin and map, then publish (handle and VA):
 * a failure at any step leaves no charge, object or handle behind.
 *
 * Return: 0 or a negative errno (see the uapi header).
 */
int vnpu_ioctl_bo_create(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct vnpu_device *vdev = to_vnpu_device(drm);
	struct drm_vnpu_bo_create *args = data;
	struct drm_gem_shmem_object *shmem;
	struct vnpu_bo *bo;
	u64 size, va;
	u32 handle;
	int ret;

	if (!args->size || args->flags & ~VNPU_BO_FLAGS)
		return -EINVAL;
	if (args->size > VNPU_MAX_BO_SIZE)
		return -E2BIG;
	size = PAGE_ALIGN(args->size);

	if (vnpu_fault_hit(&vdev->fail_bo_alloc))
		return -ENOMEM;

	ret = vnpu_bo_charge(vdev, args->flags, size);
	if (ret)
		return ret;

	shmem = drm_gem_shmem_create(drm, size);
	if (IS_ERR(shmem)) {
		vnpu_bo_uncharge(vdev, args->flags, size);
		return PTR_ERR(shmem);
	}
	/* From here the buffer's free uncharges it. */
	bo = container_of(shmem, struct vnpu_bo, base);
	bo->flags = args->flags;
	bo->charged = size;

	/* Pin and map now: device memory does not appear on first touch. */
	ret = vnpu_shmem_vmap(shmem, &bo->map);
	if (ret)
		goto out_put;

	ret = vnpu_bo_publish(file, bo, &handle, &va);
	if (ret)
		goto out_put;
	args->handle = handle;
	args->va = va;
out_put:
	drm_gem_object_put(vnpu_bo_gem(bo));
	return ret;
}

/**
 * vnpu_ioctl_bo_info() - DRM_IOCTL_VNPU_BO_INFO
 * @drm: device
 * @data: struct drm_vnpu_bo_info
 * @file: calling file
 *
 * Return: 0, -ENOENT for an unknown handle, or -ENOMEM.
 */
int vnpu_ioctl_bo_info(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct vnpu_file *vfile = to_vnpu_file(file);
	struct drm_vnpu_bo_info *args = data;
	struct vnpu_mapping *mapping;
	struct drm_gem_object *obj;
	struct vnpu_bo *bo;
	u64 va, offset = 0;
	int ret = 0;

	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;
	bo = to_vnpu_bo(obj);

	if (!bo->user_memory) {
		ret = drm_gem_create_mmap_offset(obj);
		if (ret)
			goto out_put;
		offset = drm_vma_node_offset_addr(&obj->vma_node);
	}

	mutex_lock(&bo->mappings_lock);
	mapping = vnpu_bo_find_mapping(bo, vfile->vm);
	va = mapping ? vnpu_mapping_va(mapping) : 0;
	mutex_unlock(&bo->mappings_lock);

	args->flags = bo->flags;
	args->size = vnpu_bo_size(bo);
	args->va = va;
	args->mmap_offset = offset;
out_put:
	drm_gem_object_put(obj);
	return ret;
}

/*
 * A buffer is shared when more than one file has a handle to it or it has
 * been exported or imported as a dma-buf (the PRIME paths set
 * obj->dma_buf). Read without the core's lock: a statistic may be stale.
 */
static bool vnpu_bo_is_shared(struct drm_gem_object *obj)
{
	return READ_ONCE(obj->handle_count) > 1 || READ_ONCE(obj->dma_buf);
}

/**
 * vnpu_gem_show_fdinfo() - print a file's memory usage statistics
 * @m: the fdinfo file
 * @file: the DRM file
 *
 * Keys of the DRM client usage statistics convention, for the regions
 * "vram" (this device's memory) and "system" (host memory). Every buffer
 * is pinned from creation to free, so resident equals total;
 * drm-memory-<region> is the older name of the same number.
 */
void vnpu_gem_show_fdinfo(struct seq_file *m, struct drm_file *file)
{
	static const char * const names[VNPU_REGION_COUNT] = {
		[VNPU_REGION_VRAM] = "vram",
		[VNPU_REGION_SYSTEM] = "system",
	};
	u64 total[VNPU_REGION_COUNT] = {}, shared[VNPU_REGION_COUNT] = {};
	struct drm_gem_object *obj;
	int id, r;

	spin_lock(&file->table_lock);
	idr_for_each_entry(&file->object_idr, obj, id) {
		r = vnpu_bo_region(to_vnpu_bo(obj));
		total[r] += obj->size;
		if (vnpu_bo_is_shared(obj))
			shared[r] += obj->size;
	}
	spin_unlock(&file->table_lock);

	for (r = 0; r < VNPU_REGION_COUNT; r++) {
		seq_printf(m, "drm-memory-%s:\t%llu KiB\n", names[r], total[r] >> 10);
		seq_printf(m, "drm-total-%s:\t%llu KiB\n", names[r], total[r] >> 10);
		seq_printf(m, "drm-shared-%s:\t%llu KiB\n", names[r], shared[r] >> 10);
		seq_printf(m, "drm-resident-%s:\t%llu KiB\n", names[r], total[r] >> 10);
	}
}
