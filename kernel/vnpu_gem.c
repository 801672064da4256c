// SPDX-License-Identifier: GPL-2.0
/*
 * Buffer objects.
 *
 * Buffers are GEM shmem objects, pinned and mapped into the kernel for
 * their whole life (the engines are CPUs and reach the memory through that
 * mapping, like device memory that never moves). Each file that holds a
 * handle to a buffer sees it at its own device VA (vnpu_vm.c).
 */
#include <linux/dma-buf.h>
#include <linux/slab.h>
#include <drm/drm_gem.h>
#include <drm/drm_prime.h>

#include "vnpu_drv.h"
#include "vnpu_gem.h"
#include "vnpu_vm.h"

static bool vnpu_bo_is_device_memory(const struct vnpu_bo *bo)
{
	return !(bo->flags & (VNPU_BO_HOST | VNPU_BO_USERPTR));
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
	if (vnpu_bo_is_device_memory(bo))
		atomic64_add(delta, &vfile->mem_used);
	else
		atomic64_add(delta, &vfile->host_mem_used);
}

/* A file got a handle to the buffer: place it in the file's VA space. */
static int vnpu_bo_open(struct drm_gem_object *obj, struct drm_file *file)
{
	struct vnpu_file *vfile = to_vnpu_file(file);
	struct vnpu_bo *bo = to_vnpu_bo(obj);
	struct vnpu_mapping *mapping;
	u64 align = bo->flags & VNPU_BO_HUGE_ALIGN ? SZ_2M : PAGE_SIZE;
	int ret = 0;

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

/* The file's handle is gone: its VA stops resolving. */
static void vnpu_bo_close(struct drm_gem_object *obj, struct drm_file *file)
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
	if (bo->map.vaddr)
		drm_gem_shmem_vunmap(&bo->base, &bo->map);
	if (bo->charged)
		vnpu_mem_uncharge(vdev, bo->charged);
	if (bo->flags & VNPU_BO_HOST)
		atomic64_sub(vnpu_bo_size(bo), &vdev->host_mem_used);
	mutex_destroy(&bo->mappings_lock);
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

/* drm_driver.gem_create_object: every shmem object of ours is a vnpu_bo. */
struct drm_gem_object *vnpu_gem_create_object(struct drm_device *drm, size_t size)
{
	struct vnpu_bo *bo;

	bo = kzalloc(sizeof(*bo), GFP_KERNEL);
	if (!bo)
		return ERR_PTR(-ENOMEM);
	bo->base.base.funcs = &vnpu_gem_funcs;
	/* The device is the CPU: cached mappings are coherent with it. */
	bo->base.map_wc = false;
	mutex_init(&bo->mappings_lock);
	INIT_LIST_HEAD(&bo->mappings);
	return &bo->base.base;
}

/**
 * vnpu_gem_prime_import() - drm_driver.gem_prime_import
 * @drm: importing device
 * @dma_buf: buffer to import
 *
 * Our own buffers come back as themselves; anything else becomes a new
 * vnpu_bo over the dma-buf's pages, mapped into the kernel like any other
 * buffer (which can only happen once the core has attached it, hence here
 * and not in gem_prime_import_sg_table).
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
	ret = drm_gem_shmem_vmap(&bo->base, &bo->map);
	if (ret) {
		drm_gem_object_put(obj);
		return ERR_PTR(ret);
	}
	return obj;
}

int vnpu_ioctl_bo_create(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct vnpu_device *vdev = to_vnpu_device(drm);
	struct vnpu_file *vfile = to_vnpu_file(file);
	struct drm_vnpu_bo_create *args = data;
	struct drm_gem_shmem_object *shmem;
	struct vnpu_mapping *mapping;
	struct vnpu_bo *bo;
	u64 size;
	u32 handle;
	int ret;

	if (!args->size || args->flags & ~VNPU_BO_FLAGS)
		return -EINVAL;
	if (args->size > VNPU_MAX_BO_SIZE)
		return -E2BIG;
	size = PAGE_ALIGN(args->size);

	if (atomic_add_unless(&vdev->fail_next_alloc, -1, 0))
		return -ENOMEM;

	if (!(args->flags & VNPU_BO_HOST)) {
		ret = vnpu_mem_charge(vdev, size);
		if (ret)
			return ret;
	}

	shmem = drm_gem_shmem_create(drm, size);
	if (IS_ERR(shmem)) {
		if (!(args->flags & VNPU_BO_HOST))
			vnpu_mem_uncharge(vdev, size);
		return PTR_ERR(shmem);
	}
	bo = container_of(shmem, struct vnpu_bo, base);
	bo->flags = args->flags;
	if (args->flags & VNPU_BO_HOST)
		atomic64_add(size, &vdev->host_mem_used);
	else
		bo->charged = size;

	/* Pin and map now: device memory does not appear on first touch. */
	ret = drm_gem_shmem_vmap(shmem, &bo->map);
	if (ret)
		goto out_put;

	ret = drm_gem_handle_create(file, &shmem->base, &handle);
	if (ret)
		goto out_put;

	mutex_lock(&bo->mappings_lock);
	mapping = vnpu_bo_find_mapping(bo, vfile->vm);
	args->va = vnpu_mapping_va(mapping);
	mutex_unlock(&bo->mappings_lock);
	args->handle = handle;
out_put:
	drm_gem_object_put(&shmem->base);
	return ret;
}

int vnpu_ioctl_bo_info(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct vnpu_file *vfile = to_vnpu_file(file);
	struct drm_vnpu_bo_info *args = data;
	struct vnpu_mapping *mapping;
	struct drm_gem_object *obj;
	struct vnpu_bo *bo;
	int ret = 0;

	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;
	bo = to_vnpu_bo(obj);

	mutex_lock(&bo->mappings_lock);
	mapping = vnpu_bo_find_mapping(bo, vfile->vm);
	args->va = mapping ? vnpu_mapping_va(mapping) : 0;
	mutex_unlock(&bo->mappings_lock);

	args->flags = bo->flags;
	args->size = vnpu_bo_size(bo);
	args->mmap_offset = 0;
	if (!(bo->flags & VNPU_BO_USERPTR)) {
		ret = drm_gem_create_mmap_offset(obj);
		if (!ret)
			args->mmap_offset = drm_vma_node_offset_addr(&obj->vma_node);
	}
	drm_gem_object_put(obj);
	return ret;
}
