/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Buffer objects: GEM shmem objects (or pinned process memory) the device
 * addresses by VA.
 */
#ifndef VNPU_GEM_H
#define VNPU_GEM_H

#include <linux/iosys-map.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <drm/drm_gem_shmem_helper.h>

#include "vnpu_drm.h"
#include "vnpu_engine.h"
#include "vnpu_hazard.h"

struct drm_file;
struct mm_struct;
struct seq_file;
struct vnpu_vm;
struct vnpu_mapping;

/**
 * enum vnpu_mem_region - where a buffer's memory lives, for accounting
 * @VNPU_REGION_VRAM: device memory of this device, charged to its capacity
 * @VNPU_REGION_SYSTEM: host memory: VNPU_BO_HOST buffers, user memory
 *	(BO_USERPTR) and buffers imported from another device or driver
 * @VNPU_REGION_COUNT: number of regions
 */
enum vnpu_mem_region {
	VNPU_REGION_VRAM,
	VNPU_REGION_SYSTEM,
	VNPU_REGION_COUNT,
};

/**
 * struct vnpu_bo - a vnpu buffer
 * @base: the shmem GEM object (pages, or an imported dma-buf). For user
 *	memory only @base.base is used: the object is a private GEM object
 *	with its own functions (vnpu_userptr.c), never handed to the shmem
 *	helpers
 * @flags: VNPU_BO_* flags, including VNPU_BO_USERPTR / VNPU_BO_IMPORTED
 * @map: kernel mapping of the whole buffer, made when the buffer is
 *	created or imported and kept until it is freed: the kernel reads wait
 *	words through it and maps the pages for the engine server from it
 * @user_memory: the pages are a process's own memory (BO_USERPTR, or an
 *	import of another vnpu device's BO_USERPTR buffer): never mapped
 *	through the device file, as the process already has them
 * @charged: bytes charged at creation (to the device capacity, or for
 *	VNPU_BO_HOST to the host budget); 0 for imported and user memory
 * @user_pages: BO_USERPTR only: the pinned pages, size >> PAGE_SHIFT of them
 * @user_mm: BO_USERPTR only: the address space whose pinned_vm is charged
 *	(held with mmgrab())
 * @mappings_lock: protects @mappings; taken before a VA space's lock
 *	(vnpu_vm.lock), never while holding one
 * @mappings: every struct vnpu_mapping of this buffer, one per file that
 *	has a handle to it
 * @hazards: pool bindings on this buffer and its workspace-use records
 *	(vnpu_hazard.c)
 * @engine: the buffer's id and mmap offset for the engine server
 *	(vnpu_engine.c)
 */
struct vnpu_bo {
	struct drm_gem_shmem_object base;
	u32 flags;
	bool user_memory;
	struct iosys_map map;
	u64 charged;
	struct page **user_pages;
	struct mm_struct *user_mm;
	struct mutex mappings_lock;	/* the buffer's VA mappings */
	struct list_head mappings;
	struct vnpu_hazard_set hazards;
	struct vnpu_bo_engine engine;
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

static inline enum vnpu_mem_region vnpu_bo_region(const struct vnpu_bo *bo)
{
	if (bo->flags & (VNPU_BO_HOST | VNPU_BO_USERPTR | VNPU_BO_IMPORTED))
		return VNPU_REGION_SYSTEM;
	return VNPU_REGION_VRAM;
}

void vnpu_bo_init(struct vnpu_bo *bo);
void vnpu_bo_fini(struct vnpu_bo *bo);
int vnpu_bo_open(struct drm_gem_object *obj, struct drm_file *file);
void vnpu_bo_close(struct drm_gem_object *obj, struct drm_file *file);
int vnpu_bo_publish(struct drm_file *file, struct vnpu_bo *bo, u32 *handle,
		    u64 *va);

struct drm_gem_object *vnpu_gem_create_object(struct drm_device *drm, size_t size);
struct drm_gem_object *vnpu_gem_prime_import(struct drm_device *drm,
					     struct dma_buf *dma_buf);
void vnpu_gem_show_fdinfo(struct seq_file *m, struct drm_file *file);

#endif /* VNPU_GEM_H */
