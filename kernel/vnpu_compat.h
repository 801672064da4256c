/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel API differences, decided by the compile probes in kernel/probes/
 * (VNPU_HAVE_* from the generated vnpu_config.h), never by version numbers:
 * distribution kernels backport API changes (Debian's 6.1 has the 6.15
 * drm_sched_init() argument struct). The rest of the driver calls only the
 * wrappers below.
 */
#ifndef VNPU_COMPAT_H
#define VNPU_COMPAT_H

#include <linux/dma-resv.h>
#include <linux/module.h>
#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/gpu_scheduler.h>

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

#ifdef VNPU_HAVE_SCHED_STAT_NOMINAL
#define VNPU_SCHED_STAT_HANDLED DRM_GPU_SCHED_STAT_NOMINAL
#else
#define VNPU_SCHED_STAT_HANDLED DRM_GPU_SCHED_STAT_RESET
#endif

#ifdef VNPU_HAVE_SCHED_PRIO_MIN
#define VNPU_SCHED_PRIORITY_LOW DRM_SCHED_PRIORITY_MIN
#else
#define VNPU_SCHED_PRIORITY_LOW DRM_SCHED_PRIORITY_LOW
#endif

/**
 * vnpu_sched_job_not_hung() - timedout_job's answer for a job that is fine
 * @job: the job drm_sched thinks timed out
 *
 * drm_sched takes the job off its pending list before calling timedout_job.
 * Kernels with DRM_GPU_SCHED_STAT_NO_HANG put it back when told so; older
 * ones expect the driver to have done it (drm_sched_stop() does, as part of
 * a reset), so it is done here.
 *
 * Return: the status to return from timedout_job.
 */
static inline enum drm_gpu_sched_stat vnpu_sched_job_not_hung(struct drm_sched_job *job)
{
#ifdef VNPU_HAVE_SCHED_STAT_NO_HANG
	return DRM_GPU_SCHED_STAT_NO_HANG;
#else
	struct drm_gpu_scheduler *sched = job->sched;

	spin_lock(&sched->job_list_lock);
	list_add(&job->list, &sched->pending_list);
	spin_unlock(&sched->job_list_lock);
	return VNPU_SCHED_STAT_HANDLED;
#endif
}

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

/**
 * vnpu_sched_init() - drm_sched_init() in whichever form the kernel has
 * @sched: scheduler to initialise
 * @ops: backend operations
 * @credit_limit: jobs the scheduler may have in flight
 * @timeout: job timeout in jiffies
 * @name: scheduler name
 * @dev: device, for messages
 *
 * Return: 0 or a negative errno.
 */
static inline int vnpu_sched_init(struct drm_gpu_scheduler *sched,
				  const struct drm_sched_backend_ops *ops,
				  u32 credit_limit, long timeout,
				  const char *name, struct device *dev)
{
#if defined(VNPU_HAVE_SCHED_INIT_ARGS)
	const struct drm_sched_init_args args = {
		.ops = ops,
		.credit_limit = credit_limit,
		.timeout = timeout,
		.name = name,
		.dev = dev,
	};

	return drm_sched_init(sched, &args);
#elif defined(VNPU_HAVE_SCHED_INIT_9ARGS)
	return drm_sched_init(sched, ops, credit_limit, 0, timeout, NULL, NULL,
			      name, dev);
#else
#error "unsupported drm_sched_init() form: add a probe and a branch here"
#endif
}

/**
 * vnpu_sched_job_init() - drm_sched_job_init() for a one-credit job
 * @job: job to initialise
 * @entity: entity it will be pushed to
 * @owner: owner cookie (the file)
 *
 * Return: 0 or a negative errno.
 */
static inline int vnpu_sched_job_init(struct drm_sched_job *job,
				      struct drm_sched_entity *entity,
				      void *owner)
{
#ifdef VNPU_HAVE_SCHED_JOB_INIT_3ARGS
	return drm_sched_job_init(job, entity, owner);
#else
	return drm_sched_job_init(job, entity, 1, owner);
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
