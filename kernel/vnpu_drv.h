/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vnpu: the device, the per-file state and the module parameters.
 */
#ifndef VNPU_DRV_H
#define VNPU_DRV_H

#include <linux/atomic.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/xarray.h>
#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_vma_manager.h>

#include "vnpu_drm.h"
#include "vnpu_compat.h"
#include "vnpu_fault.h"
#include "vnpu_sched.h"

#define VNPU_DRIVER_NAME "vnpu"
#define VNPU_MAX_DEVICES 8
#define VNPU_MAX_ENGINES 16

struct vnpu_job_quota;
struct vnpu_vm;

/* Module parameters (vnpu_drv.c); read at device creation unless noted. */
extern unsigned int vnpu_param_devices;
extern unsigned int vnpu_param_mem_mib;
extern unsigned int vnpu_param_engines;
extern unsigned int vnpu_param_job_timeout_ms;	/* read at each job start */
extern unsigned int vnpu_param_max_streams_per_file;
extern unsigned int vnpu_param_max_streams;
extern unsigned int vnpu_param_max_jobs_per_file;

/**
 * struct vnpu_device - one virtual NPU
 * @drm: the DRM device (embedded; its lifetime is the vnpu_device's)
 * @pdev: facade platform device the DRM device hangs off
 * @index: device index, 0 .. number of devices - 1
 * @mem_capacity: device memory capacity in bytes
 * @mem_used: device memory charged by live buffers, all files; changed only
 *	through vnpu_mem_charge()/vnpu_mem_uncharge() so it never exceeds
 *	@mem_capacity
 * @host_mem_used: bytes of VNPU_BO_HOST buffers
 * @num_engines: engines of the device: the workers its engine server runs
 * @sched: the scheduler (vnpu_sched.c)
 * @engine_mutex: serialises attaching and detaching engine servers
 * @engine_lock: protects the buffers' ids and mmap offsets for the engine
 *	server (struct vnpu_bo_engine, vnpu_engine.c); taken after the mmap
 *	lock of the server's process
 * @engine_vma: mmap offsets of buffers on the engine file
 * @engine_attaches: engine servers attached since the module was loaded
 * @num_streams: streams alive on the device, all files
 * @hazard_lock: protects the workspace-use records of every buffer of the
 *	device (&vnpu_bo.hazards); taken by submits inside a stream's
 *	submit_lock, never by engines or schedulers (vnpu_hazard.c)
 * @num_hazard_records: workspace-use records alive, all buffers (debugfs)
 * @fail_bo_alloc: fault injection point (debugfs fail_bo_alloc/): a buffer
 *	creation fails with -ENOMEM
 * @fail_job: fault injection point (debugfs fail_job/): a job handed to the
 *	engine for the first time faults at its first task instead
 * @hazard_rescan_delay_ms: test hook (debugfs): the next serializing hazard
 *	check that finds a collision sleeps this long between its two scans
 */
struct vnpu_device {
	struct drm_device drm;
	struct platform_device *pdev;
	unsigned int index;

	u64 mem_capacity;
	atomic64_t mem_used;
	atomic64_t host_mem_used;

	unsigned int num_engines;
	struct vnpu_sched sched;
	struct mutex engine_mutex;	/* attach and detach */
	struct mutex engine_lock;	/* buffer ids and mmap offsets */
	struct drm_vma_offset_manager engine_vma;
	atomic_t engine_attaches;
	atomic_t num_streams;

	struct mutex hazard_lock;	/* the hazard records */
	atomic_t num_hazard_records;

	struct vnpu_fault fail_bo_alloc;
	struct vnpu_fault fail_job;
	atomic_t hazard_rescan_delay_ms;
};

/**
 * struct vnpu_file - state of one open file of the device
 * @vdev: the device
 * @client_id: the drm-client-id shown in fdinfo, unique for the module's life
 * @vm: this file's device virtual address space (refcounted: jobs and pool
 *	bindings that outlive the file keep it)
 * @mem_used: bytes of device memory of buffers with a handle in this file
 * @host_mem_used: bytes of VNPU_BO_HOST buffers with a handle in this file
 * @streams: stream id -> struct vnpu_stream; the xarray's own lock protects it
 * @next_stream_id: where the search for a free stream id starts (ids are
 *	allocated cyclically, so a destroyed id is not reused at once)
 * @num_streams: number of entries in @streams
 * @engine_busy_ns: total time engines spent on this file's jobs
 * @job_quota: counts the file's unfinished jobs against
 *	vnpu_param_max_jobs_per_file (refcounted: streams share it)
 * @pool_totals: pool and workspace counters summed over all streams, ever
 *	(bytes_bound: over the streams alive)
 * @pool_totals_lock: protects @pool_totals and the counters of every
 *	stream of the file (&vnpu_pool.stats), so both change together
 */
struct vnpu_file {
	struct vnpu_device *vdev;
	u64 client_id;
	struct vnpu_vm *vm;

	atomic64_t mem_used;
	atomic64_t host_mem_used;

	struct xarray streams;
	u32 next_stream_id;
	atomic_t num_streams;
	atomic64_t engine_busy_ns;
	struct vnpu_job_quota *job_quota;

	spinlock_t pool_totals_lock;	/* the file's pool totals */
	struct drm_vnpu_pool_stats pool_totals;
};

/* The device's VA window (see the uapi header). */
static inline u64 vnpu_va_start(const struct vnpu_device *vdev)
{
	return VNPU_VA_START + (u64)vdev->index * VNPU_VA_DEVICE_SPAN;
}

static inline u64 vnpu_va_end(const struct vnpu_device *vdev)
{
	return vnpu_va_start(vdev) + VNPU_VA_DEVICE_SPAN;
}

static inline struct vnpu_device *to_vnpu_device(struct drm_device *drm)
{
	return container_of(drm, struct vnpu_device, drm);
}

static inline struct vnpu_file *to_vnpu_file(struct drm_file *file)
{
	return file->driver_priv;
}

int vnpu_mem_charge(struct vnpu_device *vdev, u64 bytes);
void vnpu_mem_uncharge(struct vnpu_device *vdev, u64 bytes);

/* ioctls, by file */
int vnpu_ioctl_get_param(struct drm_device *drm, void *data, struct drm_file *file);
int vnpu_ioctl_bo_create(struct drm_device *drm, void *data, struct drm_file *file);
int vnpu_ioctl_bo_info(struct drm_device *drm, void *data, struct drm_file *file);
int vnpu_ioctl_bo_userptr(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* VNPU_DRV_H */
