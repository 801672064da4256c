/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engine interface: how the userspace engine server attaches to a
 * device, receives jobs, maps buffers and reports how jobs ended.
 */
#ifndef VNPU_ENGINE_H
#define VNPU_ENGINE_H

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <drm/drm_vma_manager.h>

#include "vnpu_drm.h"

struct drm_device;
struct drm_file;
struct page;
struct vnpu_bo;
struct vnpu_device;

/**
 * struct vnpu_engine - one attachment of an engine server to a device
 * @refcount: the engine file holds one reference, a queued reset another
 * @vdev: the device (its DRM device referenced)
 * @pid: the attaching process's pid number (debugfs)
 * @dead: detached: the device no longer hands it jobs and its ioctls
 *	fail with -ENOTCONN (written under the scheduler lock, read
 *	locklessly by its own ioctls)
 * @ctl_page: the control page
 * @ctl: the control page's kernel address; its words are written under
 *	the scheduler lock
 * @buffers: every buffer that has an id for this attachment (struct
 *	vnpu_bo_engine.link)
 * @gone: buffer-gone events not yet handed out (struct vnpu_engine_gone)
 * @num_buffers: entries on @buffers (debugfs)
 * @next_buffer_id: the id the next buffer gets
 * @reset_work: resets the attachment when a cancelled job outstays the
 *	grace (scheduled from the job's timer)
 * @polling: bit per engine index, set while that worker polls: its last RUN
 *	was non-blocking, asked for jobs and got no event, and it has not
 *	called RUN again yet (atomic bit operations)
 * @pollers: bits set in @polling (atomic): while nonzero, new work wakes
 *	no sleeping worker, a polling one takes it
 *
 * @buffers, @gone, @num_buffers and @next_buffer_id are protected by the
 * device's &vnpu_device.engine_lock.
 */
struct vnpu_engine {
	struct kref refcount;
	struct vnpu_device *vdev;
	pid_t pid;
	bool dead;
	struct page *ctl_page;
	struct drm_vnpu_engine_ctl *ctl;
	struct list_head buffers;
	struct list_head gone;
	unsigned int num_buffers;
	u64 next_buffer_id;
	struct work_struct reset_work;
	unsigned long polling;
	atomic_t pollers;
};

/**
 * struct vnpu_bo_engine - what the attached engine knows of a buffer
 * @engine: the attachment that gave the buffer an id, or NULL
 * @id: the buffer's id for @engine
 * @node: the buffer's place among the engine file's mmap offsets
 * @link: entry in @engine's buffer list
 * @gone: the event to queue when the buffer is freed, allocated with the id
 *
 * Embedded in struct vnpu_bo; protected by &vnpu_device.engine_lock.
 */
struct vnpu_bo_engine {
	struct vnpu_engine *engine;
	u64 id;
	struct drm_vma_offset_node node;
	struct list_head link;
	struct vnpu_engine_gone *gone;
};

int vnpu_engine_dev_init(struct vnpu_device *vdev);
void vnpu_engine_dev_fini(struct vnpu_device *vdev);
void vnpu_engine_bo_free(struct vnpu_bo *bo);
void vnpu_engine_schedule_reset(struct vnpu_engine *engine);
void vnpu_engine_set_cancel(struct vnpu_engine *engine, u32 slot, bool cancel);
void vnpu_engine_set_parked(struct vnpu_engine *engine, unsigned int parked);

int vnpu_ioctl_engine_attach(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* VNPU_ENGINE_H */
