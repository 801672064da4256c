/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Buffer objects: GEM shmem objects the device addresses by VA.
 */
#ifndef VNPU_GEM_H
#define VNPU_GEM_H

#include <linux/iosys-map.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <drm/drm_gem_shmem_helper.h>

struct vnpu_vm;
struct vnpu_mapping;

/**
 * struct vnpu_bo - a vnpu buffer
 * @base: the shmem GEM object (pages, or an imported dma-buf)
 * @flags: VNPU_BO_* flags, including VNPU_BO_USERPTR / VNPU_BO_IMPORTED
 * @map: kernel mapping of the whole buffer, made when the buffer is
 *	created or imported and kept until it is freed: the engines reach the
 *	memory through it
 * @charged: bytes charged to the device memory capacity (0 for host,
 *	imported and user memory)
 * @mappings_lock: protects @mappings
 * @mappings: every struct vnpu_mapping of this buffer, one per file
 */
struct vnpu_bo {
	struct drm_gem_shmem_object base;
	u32 flags;
	struct iosys_map map;
	u64 charged;
	struct mutex mappings_lock;
	struct list_head mappings;
};

static inline struct vnpu_bo *to_vnpu_bo(struct drm_gem_object *obj)
{
	return container_of(to_drm_gem_shmem_obj(obj), struct vnpu_bo, base);
}

static inline struct drm_gem_object *vnpu_bo_gem(struct vnpu_bo *bo)
{
	return &bo->base.base;
}

static inline u64 vnpu_bo_size(const struct vnpu_bo *bo)
{
	return bo->base.base.size;
}

/* Kernel virtual address of the buffer's first byte; valid for its life. */
static inline void *vnpu_bo_vaddr(const struct vnpu_bo *bo)
{
	return bo->map.vaddr;
}

struct drm_gem_object *vnpu_gem_create_object(struct drm_device *drm, size_t size);
struct drm_gem_object *vnpu_gem_prime_import(struct drm_device *drm,
					     struct dma_buf *dma_buf);

#endif /* VNPU_GEM_H */
