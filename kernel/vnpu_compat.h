/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel API differences, decided by the compile probes in kernel/probes/
 * (VNPU_HAVE_* from the generated vnpu_config.h), never by version numbers:
 * distribution kernels backport API changes. The rest of the driver calls
 * only the wrappers below.
 */
#ifndef VNPU_COMPAT_H
#define VNPU_COMPAT_H

#include <linux/dma-resv.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_gem_shmem_helper.h>

#ifdef VNPU_HAVE_IMPORT_NS_IDENT
#define VNPU_IMPORT_NS_DMA_BUF() MODULE_IMPORT_NS(DMA_BUF)
#else
#define VNPU_IMPORT_NS_DMA_BUF() MODULE_IMPORT_NS("DMA_BUF")
#endif

#ifdef VNPU_HAVE_DRM_ACCEL
#include <drm/drm_accel.h>
#define VNPU_DRIVER_NODE_FEATURE DRIVER_COMPUTE_ACCEL
#define VNPU_FOPS_BASE ACCEL_FOPS
#else
#define VNPU_DRIVER_NODE_FEATURE DRIVER_RENDER
#define VNPU_FOPS_BASE DRM_GEM_FOPS
#endif

#ifdef VNPU_HAVE_DRIVER_DATE
#define VNPU_DRIVER_DATE(d) .date = (d),
#else
#define VNPU_DRIVER_DATE(d)
#endif

/**
 * vnpu_debugfs_root() - the debugfs directory of a DRM device
 * @drm: the device, registered
 *
 * Return: the directory (the primary minor's where minors have their own).
 */
static inline struct dentry *vnpu_debugfs_root(struct drm_device *drm)
{
#ifdef VNPU_HAVE_MINOR_DEBUGFS_ROOT
	return drm->primary->debugfs_root;
#else
	return drm->debugfs_root;
#endif
}

/*
 * VMA flags: set through vm_flags_set()/vm_flags_clear() where the kernel
 * has them (they take the VMA lock's assertions), written directly before.
 */
static inline void vnpu_vm_flags_set(struct vm_area_struct *vma, vm_flags_t flags)
{
#ifdef VNPU_HAVE_VM_FLAGS_SET
	vm_flags_set(vma, flags);
#else
	vma->vm_flags |= flags;
#endif
}

static inline void vnpu_vm_flags_clear(struct vm_area_struct *vma, vm_flags_t flags)
{
#ifdef VNPU_HAVE_VM_FLAGS_SET
	vm_flags_clear(vma, flags);
#else
	vma->vm_flags &= ~flags;
#endif
}

/*
 * Newer shmem helpers want the reservation lock held around vmap and
 * vunmap; the driver maps a buffer once, at creation or import, and unmaps
 * it when the buffer is freed, so taking the lock here costs nothing.
 */
static inline int vnpu_shmem_vmap(struct drm_gem_shmem_object *shmem, struct iosys_map *map)
{
#ifdef VNPU_HAVE_SHMEM_VMAP_LOCKED
	int ret;

	dma_resv_lock(shmem->base.resv, NULL);
	ret = drm_gem_shmem_vmap_locked(shmem, map);
	dma_resv_unlock(shmem->base.resv);
	return ret;
#else
	return drm_gem_shmem_vmap(shmem, map);
#endif
}

static inline void vnpu_shmem_vunmap(struct drm_gem_shmem_object *shmem, struct iosys_map *map)
{
#ifdef VNPU_HAVE_SHMEM_VMAP_LOCKED
	dma_resv_lock(shmem->base.resv, NULL);
	drm_gem_shmem_vunmap_locked(shmem, map);
	dma_resv_unlock(shmem->base.resv);
#else
	drm_gem_shmem_vunmap(shmem, map);
#endif
}

#endif /* VNPU_COMPAT_H */
