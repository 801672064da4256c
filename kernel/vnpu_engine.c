// SPDX-License-Identifier: GPL-2.0
/*
 * The engine interface: the userspace engine server of a device.
 *
 * A device executes nothing itself. A root process (vnpu-engined) attaches
 * to it with DRM_IOCTL_VNPU_ENGINE_ATTACH and gets an engine file, its
 * attachment: one per device at a time. On that file the server's workers
 * loop on VNPU_ENGINE_IOCTL_RUN, which applies their reports on the jobs
 * they held (vnpu_sched_complete()) and hands out events: buffers that are
 * gone, and jobs (vnpu_sched_take()), each written out as the uapi's
 * struct drm_vnpu_engine_job with its tasks, its checked operands and its
 * descriptors.
 *
 * Buffers. An operand names its buffer by an id and an mmap offset on the
 * engine file, given to a buffer the first time a job of it is handed out
 * (vnpu_engine_name_buffers()), inside the buffer window. The server maps
 * the window once. The mapping holds no reference: its pages are inserted
 * by the fault handler (VM_PFNMAP) from the kernel mapping of the buffer
 * that owns the offset, under the device's engine lock, and when the
 * buffer is freed its pages are removed from every mapping
 * (unmap_mapping_range()) before they go back to the system, and a
 * buffer-gone event is queued. So a buffer is freed, and its memory
 * uncharged, as soon as no handle, job, pool or dma-buf uses it, whatever
 * the server maps; and a server that touches a freed buffer gets SIGBUS
 * (until its offset goes to a buffer named later, which only a job can
 * name). Pages are inserted by faults only, never at
 * mmap time: a fault runs on a mapping already linked into the file, where
 * the removal finds it; one made inside mmap() would not be linked yet.
 * The engine file shares the DRM device's address space (as every DRM file
 * does), its offsets in a range of their own above the GEM offsets.
 *
 * Detach. Closing the engine file (the server exits or dies) detaches it:
 * the device stops handing it jobs, every buffer leaves its mappings, and
 * every unfinished job of the device fails (vnpu_sched_detach()). A
 * server that keeps a cancelled job past the cancel grace is detached the
 * same way by the kernel (a reset): its ioctls then fail with -ENOTCONN
 * until it closes the file, and a new server may attach meanwhile.
 *
 * Locking: &vnpu_device.engine_mutex serialises attach and detach;
 * &vnpu_device.engine_lock protects the buffer ids and mmap offsets (every
 * struct vnpu_bo_engine, the attachment's buffer and gone lists). The mmap
 * lock of the server's process is taken before the engine lock (faults),
 * never after: nothing touches user memory under it.
 */
#include <linux/anon_inodes.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>

#include "vnpu_drv.h"
#include "vnpu_engine.h"
#include "vnpu_gem.h"
#include "vnpu_job.h"
#include "vnpu_sched.h"
#include "vnpu_stream.h"
#include "vnpu_vm.h"

/*
 * The engine file's mmap offsets: the control page, then the buffers' range
 * (pages), far above the GEM offsets of the same address space.
 */
#define VNPU_ENGINE_CTL_PGOFF ((1UL << 44) >> PAGE_SHIFT)
#define VNPU_ENGINE_BUF_PGOFF (VNPU_ENGINE_CTL_PGOFF + 1)
#define VNPU_ENGINE_BUF_PAGES ((1UL << 44) >> PAGE_SHIFT)

/* Jobs one RUN call hands out at most. */
#define VNPU_ENGINE_TAKE_MAX 16
/* Pages a fault maps at once (from the faulting one on). */
#define VNPU_ENGINE_FAULT_PAGES 256
/* Bytes of buffer-gone events one RUN call writes at most. */
#define VNPU_ENGINE_GONE_BYTES SZ_64K
/* Reports read on the stack; more go through the heap. */
#define VNPU_ENGINE_DONE_STACK 16

/* The largest job must fit in the smallest event buffer a RUN accepts. */
static_assert(sizeof(struct drm_vnpu_engine_job) +
	      VNPU_MAX_TASKS_PER_SUBMIT * sizeof(struct drm_vnpu_engine_task) +
	      (2 * VNPU_MAX_TASKS_PER_SUBMIT + VNPU_MAX_SUBMIT_OPERANDS) *
	      sizeof(struct drm_vnpu_engine_operand) +
	      VNPU_MAX_SUBMIT_DATA + VNPU_ENGINE_GONE_BYTES <= VNPU_ENGINE_EVENTS_MIN);
static_assert(sizeof(struct drm_vnpu_engine_ctl) <= PAGE_SIZE);

/**
 * struct vnpu_engine_gone - a buffer-gone event not yet handed out
 * @link: entry in &vnpu_engine.gone
 * @event: the event
 */
struct vnpu_engine_gone {
	struct list_head link;
	struct drm_vnpu_engine_gone event;
};

static void vnpu_engine_release_kref(struct kref *kref)
{
	struct vnpu_engine *engine = container_of(kref, struct vnpu_engine, refcount);

	__free_page(engine->ctl_page);
	drm_dev_put(&engine->vdev->drm);
	kfree(engine);
}

static void vnpu_engine_put(struct vnpu_engine *engine)
{
	kref_put(&engine->refcount, vnpu_engine_release_kref);
}

/**
 * vnpu_engine_set_cancel() - write a slot's cancel word
 * @engine: the attachment
 * @slot: the slot
 * @cancel: stop the job in it (or clear, for a job just handed out)
 *
 * Caller holds the scheduler lock.
 */
void vnpu_engine_set_cancel(struct vnpu_engine *engine, u32 slot, bool cancel)
{
	WRITE_ONCE(engine->ctl->cancel[slot], cancel);
}

/**
 * vnpu_engine_set_parked() - tell the server how many waits are parked
 * @engine: the attachment
 * @parked: the count
 *
 * Caller holds the scheduler lock.
 */
void vnpu_engine_set_parked(struct vnpu_engine *engine, unsigned int parked)
{
	WRITE_ONCE(engine->ctl->parked, parked);
}

/* ---------------------------------------------------------------- buffers */

/* The device's mmap offsets of engine files; its address space. */
static struct address_space *vnpu_engine_mapping(struct vnpu_device *vdev)
{
	return vdev->drm.anon_inode->i_mapping;
}

/* Forget @bo's id: out of every mapping, offset free. Under engine_lock. */
static void vnpu_engine_forget_locked(struct vnpu_device *vdev, struct vnpu_bo *bo)
{
	struct vnpu_bo_engine *be = &bo->engine;

	lockdep_assert_held(&vdev->engine_lock);
	drm_vma_node_unmap(&be->node, vnpu_engine_mapping(vdev));
	drm_vma_offset_remove(&vdev->engine_vma, &be->node);
	list_del_init(&be->link);
	be->engine->num_buffers--;
	be->engine = NULL;
}

/**
 * vnpu_engine_bo_free() - a buffer is being freed
 * @bo: the buffer; its pages are still there
 *
 * Removes its pages from the engine server's mappings, before they are
 * released, and queues a buffer-gone event.
 */
void vnpu_engine_bo_free(struct vnpu_bo *bo)
{
	struct vnpu_device *vdev = to_vnpu_device(vnpu_bo_gem(bo)->dev);
	struct vnpu_bo_engine *be = &bo->engine;
	struct vnpu_engine_gone *gone;

	mutex_lock(&vdev->engine_lock);
	gone = be->gone;
	be->gone = NULL;
	if (be->engine) {
		gone->event.hdr.type = VNPU_ENGINE_EVENT_BUFFER_GONE;
		gone->event.hdr.size = sizeof(gone->event);
		gone->event.buffer = be->id;
		list_add_tail(&gone->link, &be->engine->gone);
		gone = NULL;
		vnpu_engine_forget_locked(vdev, bo);
	}
	mutex_unlock(&vdev->engine_lock);
	kfree(gone);
}

/* Forget every buffer of a detached attachment and its pending events. */
static void vnpu_engine_forget_all(struct vnpu_engine *engine)
{
	struct vnpu_device *vdev = engine->vdev;
	struct vnpu_engine_gone *gone, *next;
	struct vnpu_bo_engine *be, *tmp;

	mutex_lock(&vdev->engine_lock);
	list_for_each_entry_safe(be, tmp, &engine->buffers, link)
		vnpu_engine_forget_locked(vdev, container_of(be, struct vnpu_bo, engine));
	list_for_each_entry_safe(gone, next, &engine->gone, link)
		kfree(gone);
	INIT_LIST_HEAD(&engine->gone);
	mutex_unlock(&vdev->engine_lock);
}

/* Give @bo an id and an mmap offset for @engine. Under engine_lock. */
static int vnpu_engine_name_locked(struct vnpu_engine *engine, struct vnpu_bo *bo)
{
	struct vnpu_device *vdev = engine->vdev;
	struct vnpu_bo_engine *be = &bo->engine;
	int ret;

	lockdep_assert_held(&vdev->engine_lock);
	if (!be->gone) {
		be->gone = kzalloc(sizeof(*be->gone), GFP_KERNEL);
		if (!be->gone)
			return -ENOMEM;
	}
	ret = drm_vma_offset_add(&vdev->engine_vma, &be->node, vnpu_bo_size(bo) >> PAGE_SHIFT);
	if (ret)
		return ret;
	be->engine = engine;
	be->id = ++engine->next_buffer_id;
	list_add_tail(&be->link, &engine->buffers);
	engine->num_buffers++;
	return 0;
}

/*
 * Fill in the buffer fields of @job's operands for @engine, naming the
 * buffers it has not seen yet.
 */
static int vnpu_engine_name_buffers(struct vnpu_engine *engine, struct vnpu_job *job)
{
	struct vnpu_device *vdev = engine->vdev;
	int ret = 0;
	u32 i;

	if (!job->num_operands)
		return 0;
	mutex_lock(&vdev->engine_lock);
	if (READ_ONCE(engine->dead)) {
		ret = -ENOTCONN;
		goto unlock;
	}
	for (i = 0; i < job->num_operands; i++) {
		struct drm_vnpu_engine_operand *op = &job->operands[i];
		struct vnpu_bo *bo = job->maps[i]->bo;

		if (bo->engine.engine != engine) {
			ret = vnpu_engine_name_locked(engine, bo);
			if (ret)
				break;
		}
		op->buffer = bo->engine.id;
		op->buffer_offset = drm_vma_node_offset_addr(&bo->engine.node);
		op->buffer_size = vnpu_bo_size(bo);
	}
unlock:
	mutex_unlock(&vdev->engine_lock);
	return ret;
}

/* ---------------------------------------------------------------- mmap */

/* The page frame of page @idx of @bo, or 0 if it cannot be mapped. */
static unsigned long vnpu_bo_pfn(struct vnpu_bo *bo, unsigned long idx)
{
	void *addr;

	if (bo->map.is_iomem || !vnpu_bo_vaddr(bo))
		return 0;
	addr = (u8 *)vnpu_bo_vaddr(bo) + (idx << PAGE_SHIFT);
	return is_vmalloc_addr(addr) ? vmalloc_to_pfn(addr) : PHYS_PFN(virt_to_phys(addr));
}

static vm_fault_t vnpu_engine_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct vnpu_engine *engine = vma->vm_private_data;
	struct vnpu_device *vdev = engine->vdev;
	unsigned long pgoff, idx, pages, addr, pfn;
	struct drm_vma_offset_node *node;
	vm_fault_t ret = VM_FAULT_SIGBUS;
	struct vnpu_bo *bo;
	unsigned int i;

	pgoff = vma->vm_pgoff + ((vmf->address - vma->vm_start) >> PAGE_SHIFT);
	mutex_lock(&vdev->engine_lock);
	drm_vma_offset_lock_lookup(&vdev->engine_vma);
	node = drm_vma_offset_lookup_locked(&vdev->engine_vma, pgoff, 1);
	drm_vma_offset_unlock_lookup(&vdev->engine_vma);
	if (!node || READ_ONCE(engine->dead))
		goto unlock;
	bo = container_of(node, struct vnpu_bo, engine.node);
	if (bo->engine.engine != engine)
		goto unlock;

	/* From the faulting page on, within the mapping and the buffer. */
	idx = pgoff - drm_vma_node_start(node);
	pages = min3((unsigned long)VNPU_ENGINE_FAULT_PAGES, drm_vma_node_size(node) - idx,
		     (vma->vm_end - vmf->address) >> PAGE_SHIFT);
	addr = vmf->address & PAGE_MASK;
	for (i = 0; i < pages; i++, addr += PAGE_SIZE) {
		pfn = vnpu_bo_pfn(bo, idx + i);
		if (!pfn) {
			ret = i ? VM_FAULT_NOPAGE : VM_FAULT_SIGBUS;
			break;
		}
		ret = vmf_insert_pfn(vma, addr, pfn);
		if (ret & VM_FAULT_ERROR)
			break;
	}
unlock:
	mutex_unlock(&vdev->engine_lock);
	return ret;
}

static const struct vm_operations_struct vnpu_engine_vm_ops = {
	.fault = vnpu_engine_fault,
};

static int vnpu_engine_mmap_ctl(struct vnpu_engine *engine, struct vm_area_struct *vma)
{
	if (vma_pages(vma) != 1 || (vma->vm_flags & (VM_WRITE | VM_EXEC)))
		return -EINVAL;
	vnpu_vm_flags_clear(vma, VM_MAYWRITE | VM_MAYEXEC);
	vnpu_vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP | VM_DONTCOPY);
	return vm_insert_page(vma, vma->vm_start, engine->ctl_page);
}

/*
 * mmap() of the engine file: the control page, or the buffer window or any
 * part of it, whatever buffers own its offsets now or later. Pages come in
 * at fault time (vnpu_engine_fault() finds the buffer by offset).
 */
static int vnpu_engine_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct vnpu_engine *engine = file->private_data;

	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	if (vma->vm_pgoff == VNPU_ENGINE_CTL_PGOFF)
		return vnpu_engine_mmap_ctl(engine, vma);
	if (vma->vm_flags & VM_EXEC)
		return -EINVAL;
	if (vma->vm_pgoff < VNPU_ENGINE_BUF_PGOFF ||
	    vma_pages(vma) > VNPU_ENGINE_BUF_PAGES - (vma->vm_pgoff - VNPU_ENGINE_BUF_PGOFF))
		return -ENXIO;
	if (READ_ONCE(engine->dead))
		return -ENOTCONN;

	vnpu_vm_flags_clear(vma, VM_MAYEXEC);
	vnpu_vm_flags_set(vma, VM_PFNMAP | VM_IO | VM_DONTEXPAND | VM_DONTDUMP | VM_DONTCOPY);
	vma->vm_ops = &vnpu_engine_vm_ops;
	vma->vm_private_data = engine;
	return 0;
}

/* ---------------------------------------------------------------- events */

/* Write pending buffer-gone events; returns bytes written or -EFAULT. */
static int vnpu_engine_put_gone(struct vnpu_engine *engine, u8 __user *dst, size_t room,
				u32 *count)
{
	struct vnpu_device *vdev = engine->vdev;
	struct vnpu_engine_gone *gone, *next;
	size_t size = sizeof(gone->event), used = 0;
	LIST_HEAD(taken);

	if (list_empty_careful(&engine->gone))
		return 0;
	room = min_t(size_t, room, VNPU_ENGINE_GONE_BYTES);
	mutex_lock(&vdev->engine_lock);
	list_for_each_entry_safe(gone, next, &engine->gone, link) {
		if (used + size > room)
			break;
		list_move_tail(&gone->link, &taken);
		used += size;
	}
	mutex_unlock(&vdev->engine_lock);

	used = 0;
	list_for_each_entry_safe(gone, next, &taken, link) {
		if (copy_to_user(dst + used, &gone->event, size)) {
			/* Give back what is left, in order. */
			mutex_lock(&vdev->engine_lock);
			list_splice(&taken, &engine->gone);
			mutex_unlock(&vdev->engine_lock);
			return -EFAULT;
		}
		used += size;
		(*count)++;
		list_del(&gone->link);
		kfree(gone);
	}
	return used;
}

static size_t vnpu_engine_job_size(const struct vnpu_job *job)
{
	return sizeof(struct drm_vnpu_engine_job) +
	       job->num_tasks * sizeof(*job->tasks) +
	       job->num_operands * sizeof(*job->operands) + ALIGN(job->data_size, 8);
}

/* Write @job as a VNPU_ENGINE_EVENT_JOB at @dst (room checked). */
static int vnpu_engine_put_job(struct vnpu_engine *engine, struct vnpu_job *job, u8 __user *dst)
{
	static const u8 zeros[8];
	struct drm_vnpu_engine_job hdr = {
		.hdr.type = VNPU_ENGINE_EVENT_JOB,
		.hdr.size = vnpu_engine_job_size(job),
		.slot = job->slot,
		.task_count = job->num_tasks,
		.first_task = job->first_task,
		.operand_count = job->num_operands,
		.data_size = ALIGN(job->data_size, 8),
		.stream = job->stream->id,
		.client = job->stream->client_id,
		.seqno = job->seqno,
	};
	size_t at = 0, n;
	int ret;

	ret = vnpu_engine_name_buffers(engine, job);
	if (ret)
		return ret;
	if (copy_to_user(dst, &hdr, sizeof(hdr)))
		return -EFAULT;
	at += sizeof(hdr);
	n = job->num_tasks * sizeof(*job->tasks);
	if (copy_to_user(dst + at, job->tasks, n))
		return -EFAULT;
	at += n;
	n = job->num_operands * sizeof(*job->operands);
	if (n && copy_to_user(dst + at, job->operands, n))
		return -EFAULT;
	at += n;
	if (job->data_size && copy_to_user(dst + at, job->data, job->data_size))
		return -EFAULT;
	at += job->data_size;
	n = ALIGN(job->data_size, 8) - job->data_size;
	if (n && copy_to_user(dst + at, zeros, n))
		return -EFAULT;
	return 0;
}

/*
 * Hand out up to @max jobs into the event buffer at @dst (@room bytes):
 * jobs that do not fit, or follow one that could not be written, go back.
 * A job with an injected fault is reported failed instead, and the jobs
 * taken after it go back. Returns bytes written, or a negative errno if
 * nothing could be.
 */
static long vnpu_engine_put_jobs(struct vnpu_engine *engine, u32 engine_index, u32 max,
				 u8 __user *dst, size_t room, u32 *count)
{
	struct vnpu_job *jobs[VNPU_ENGINE_TAKE_MAX];
	unsigned int n, i;
	size_t used = 0;
	int ret = 0;

	n = vnpu_sched_take(engine, engine_index, min_t(u32, max, VNPU_ENGINE_TAKE_MAX), jobs);
	for (i = 0; i < n; i++) {
		struct vnpu_job *job = jobs[i];
		size_t size = vnpu_engine_job_size(job);

		if (job->fault_injected) {
			const struct drm_vnpu_engine_done fault = {
				.slot = job->slot,
				.status = VNPU_ENGINE_DONE_FAULT,
				.task = job->first_task,
			};

			job->fault_injected = false;
			vnpu_sched_complete(engine, &fault, 1);
			vnpu_job_put(job);
			/* The rest goes back: the jobs behind it are skipped. */
			i++;
			break;
		}
		if (used + size > room)
			break;
		ret = vnpu_engine_put_job(engine, job, dst + used);
		if (ret)
			break;
		used += size;
		(*count)++;
		vnpu_job_put(job);
		jobs[i] = NULL;
	}
	if (i < n)
		vnpu_sched_untake(engine, jobs + i, n - i);
	return used || !ret ? (long)used : ret;
}

static bool vnpu_engine_has_events(struct vnpu_engine *engine)
{
	return vnpu_sched_has_jobs(engine->vdev, engine) || !list_empty_careful(&engine->gone);
}

/* ---------------------------------------------------------------- ioctls */

static int vnpu_engine_check_run(struct vnpu_engine *engine, const struct drm_vnpu_engine_run *args)
{
	BUILD_BUG_ON(VNPU_MAX_ENGINES > BITS_PER_LONG);	/* &vnpu_engine.polling */
	if (args->engine >= engine->vdev->num_engines)
		return -EINVAL;
	if ((args->flags & ~VNPU_ENGINE_RUN_NONBLOCK) || args->pad)
		return -EINVAL;
	if (args->done_count > VNPU_ENGINE_SLOTS || args->events_size < VNPU_ENGINE_EVENTS_MIN)
		return -EINVAL;
	return 0;
}

/* Read and apply the reports of a RUN call. */
static int vnpu_engine_apply_done(struct vnpu_engine *engine,
				  const struct drm_vnpu_engine_run *args)
{
	struct drm_vnpu_engine_done stack[VNPU_ENGINE_DONE_STACK], *done = stack;
	size_t size = array_size(args->done_count, sizeof(*done));
	int ret;

	if (!args->done_count)
		return 0;
	if (args->done_count > ARRAY_SIZE(stack)) {
		done = kvmalloc(size, GFP_KERNEL);
		if (!done)
			return -ENOMEM;
	}
	ret = copy_from_user(done, u64_to_user_ptr(args->done), size) ? -EFAULT : 0;
	if (!ret)
		ret = vnpu_sched_complete(engine, done, args->done_count);
	if (done != stack)
		kvfree(done);
	return ret;
}

static long vnpu_engine_ioctl_run(struct vnpu_engine *engine, void __user *uarg)
{
	struct vnpu_sched *sched = &engine->vdev->sched;
	struct drm_vnpu_engine_run args;
	u8 __user *events;
	size_t used = 0;
	u32 count = 0;
	long ret;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	ret = vnpu_engine_check_run(engine, &args);
	if (ret)
		return ret;
	if (READ_ONCE(engine->dead))
		return -ENOTCONN;
	/* A polling worker is back: new work may wake sleepers again. */
	if (test_and_clear_bit(args.engine, &engine->polling))
		atomic_dec(&engine->pollers);
	ret = vnpu_engine_apply_done(engine, &args);
	if (ret)
		return ret;

	events = u64_to_user_ptr(args.events);
	for (;;) {
		ret = vnpu_engine_put_gone(engine, events, args.events_size, &count);
		if (ret < 0)
			return ret;
		used = ret;
		if (args.max_jobs) {
			ret = vnpu_engine_put_jobs(engine, args.engine, args.max_jobs,
						   events + used, args.events_size - used,
						   &count);
			if (ret < 0)
				return ret;
			used += ret;
		}
		if (count || (args.flags & VNPU_ENGINE_RUN_NONBLOCK) || READ_ONCE(engine->dead))
			break;
		atomic_inc(&sched->waiting);
		ret = wait_event_interruptible_exclusive(sched->workers,
							 vnpu_engine_has_events(engine));
		atomic_dec(&sched->waiting);
		if (ret)
			break;	/* a signal: no events, and no error (done was applied) */
	}
	if (READ_ONCE(engine->dead) && !count)
		return -ENOTCONN;
	/* Asked for jobs without waiting and got none: it will ask again. */
	if (!count && (args.flags & VNPU_ENGINE_RUN_NONBLOCK) && args.max_jobs &&
	    !test_and_set_bit(args.engine, &engine->polling))
		atomic_inc(&engine->pollers);
	args.event_count = count;
	args.events_used = used;
	if (copy_to_user(uarg, &args, sizeof(args)))
		return -EFAULT;
	return 0;
}

static long vnpu_engine_ioctl_notify(struct vnpu_engine *engine, void __user *uarg)
{
	struct drm_vnpu_engine_notify args;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags || args.pad)
		return -EINVAL;
	if (READ_ONCE(engine->dead))
		return -ENOTCONN;
	vnpu_sched_check_waits(engine->vdev);
	return 0;
}

static long vnpu_engine_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct vnpu_engine *engine = file->private_data;

	switch (cmd) {
	case VNPU_ENGINE_IOCTL_RUN:
		return vnpu_engine_ioctl_run(engine, (void __user *)arg);
	case VNPU_ENGINE_IOCTL_NOTIFY:
		return vnpu_engine_ioctl_notify(engine, (void __user *)arg);
	default:
		return -ENOTTY;
	}
}

static __poll_t vnpu_engine_poll(struct file *file, poll_table *wait)
{
	struct vnpu_engine *engine = file->private_data;

	poll_wait(file, &engine->vdev->sched.workers, wait);
	if (READ_ONCE(engine->dead))
		return EPOLLHUP | EPOLLERR;
	return vnpu_engine_has_events(engine) ? EPOLLIN | EPOLLRDNORM : 0;
}

/* ---------------------------------------------------------------- attach */

/* Detach @engine if it still is attached. Caller holds engine_mutex. */
static void vnpu_engine_detach_locked(struct vnpu_engine *engine)
{
	struct vnpu_device *vdev = engine->vdev;

	lockdep_assert_held(&vdev->engine_mutex);
	if (!vnpu_sched_detach_begin(vdev, engine))
		return;
	vnpu_engine_forget_all(engine);
	vnpu_sched_fail_all(vdev);
}

static int vnpu_engine_release(struct inode *inode, struct file *file)
{
	struct vnpu_engine *engine = file->private_data;
	struct vnpu_device *vdev = engine->vdev;

	mutex_lock(&vdev->engine_mutex);
	vnpu_engine_detach_locked(engine);
	mutex_unlock(&vdev->engine_mutex);
	drm_dbg(&vdev->drm, "engine server %d detached\n", engine->pid);
	vnpu_engine_put(engine);
	return 0;
}

static const struct file_operations vnpu_engine_fops = {
	.owner = THIS_MODULE,
	.release = vnpu_engine_release,
	.unlocked_ioctl = vnpu_engine_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.mmap = vnpu_engine_mmap,
	.poll = vnpu_engine_poll,
	.llseek = noop_llseek,
};

static void vnpu_engine_reset_work(struct work_struct *work)
{
	struct vnpu_engine *engine = container_of(work, struct vnpu_engine, reset_work);
	struct vnpu_device *vdev = engine->vdev;

	mutex_lock(&vdev->engine_mutex);
	if (!READ_ONCE(engine->dead))
		drm_warn(&vdev->drm,
			 "engine server %d kept a cancelled job %u ms past its deadline: resetting it\n",
			 engine->pid, VNPU_ENGINE_GRACE_MS);
	vnpu_engine_detach_locked(engine);
	mutex_unlock(&vdev->engine_mutex);
	vnpu_engine_put(engine);
}

/**
 * vnpu_engine_schedule_reset() - reset an engine that does not stop a job
 * @engine: the attachment; it is attached (the caller holds the scheduler
 *	lock and found it there)
 *
 * Any context. The reset happens in the device's work queue.
 */
void vnpu_engine_schedule_reset(struct vnpu_engine *engine)
{
	kref_get(&engine->refcount);
	if (!queue_work(engine->vdev->sched.wq, &engine->reset_work))
		kref_put(&engine->refcount, vnpu_engine_release_kref);
}

static struct vnpu_engine *vnpu_engine_create(struct vnpu_device *vdev)
{
	struct vnpu_engine *engine;

	engine = kzalloc(sizeof(*engine), GFP_KERNEL);
	if (!engine)
		return NULL;
	engine->ctl_page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	if (!engine->ctl_page) {
		kfree(engine);
		return NULL;
	}
	engine->ctl = page_address(engine->ctl_page);
	kref_init(&engine->refcount);
	engine->vdev = vdev;
	engine->pid = task_tgid_vnr(current);
	INIT_LIST_HEAD(&engine->buffers);
	INIT_LIST_HEAD(&engine->gone);
	INIT_WORK(&engine->reset_work, vnpu_engine_reset_work);
	drm_dev_get(&vdev->drm);
	return engine;
}

/**
 * vnpu_ioctl_engine_attach() - DRM_IOCTL_VNPU_ENGINE_ATTACH
 * @drm: device
 * @data: struct drm_vnpu_engine_attach
 * @file: caller (with CAP_SYS_ADMIN: the ioctl is DRM_ROOT_ONLY)
 *
 * Return: 0 with the engine file installed, or a negative errno.
 */
int vnpu_ioctl_engine_attach(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct vnpu_device *vdev = to_vnpu_device(drm);
	struct drm_vnpu_engine_attach *args = data;
	struct vnpu_engine *engine;
	struct file *efile;
	int fd, ret;

	if (args->flags || args->pad)
		return -EINVAL;

	engine = vnpu_engine_create(vdev);
	if (!engine)
		return -ENOMEM;
	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0) {
		ret = fd;
		goto err_put;
	}
	efile = anon_inode_getfile("[vnpu-engine]", &vnpu_engine_fops, engine, O_RDWR);
	if (IS_ERR(efile)) {
		ret = PTR_ERR(efile);
		goto err_fd;
	}
	/* The file's reference from here on (dropped by its release). */
	efile->f_mapping = vnpu_engine_mapping(vdev);

	mutex_lock(&vdev->engine_mutex);
	if (!vnpu_sched_attach(vdev, engine)) {
		mutex_unlock(&vdev->engine_mutex);
		fput(efile);
		put_unused_fd(fd);
		return -EBUSY;
	}
	atomic_inc(&vdev->engine_attaches);
	mutex_unlock(&vdev->engine_mutex);

	args->fd = fd;
	args->num_engines = vdev->num_engines;
	args->num_slots = VNPU_ENGINE_SLOTS;
	args->ctl_offset = (u64)VNPU_ENGINE_CTL_PGOFF << PAGE_SHIFT;
	args->ctl_size = PAGE_SIZE;
	args->buffers_offset = (u64)VNPU_ENGINE_BUF_PGOFF << PAGE_SHIFT;
	args->buffers_size = (u64)VNPU_ENGINE_BUF_PAGES << PAGE_SHIFT;
	fd_install(fd, efile);
	drm_dbg(drm, "engine server %d attached\n", engine->pid);
	return 0;

err_fd:
	put_unused_fd(fd);
err_put:
	vnpu_engine_put(engine);
	return ret;
}

/* ---------------------------------------------------------------- device */

/**
 * vnpu_engine_dev_init() - set up the engine interface of a device
 * @vdev: the device
 *
 * Return: 0.
 */
int vnpu_engine_dev_init(struct vnpu_device *vdev)
{
	mutex_init(&vdev->engine_mutex);
	mutex_init(&vdev->engine_lock);
	atomic_set(&vdev->engine_attaches, 0);
	drm_vma_offset_manager_init(&vdev->engine_vma, VNPU_ENGINE_BUF_PGOFF,
				    VNPU_ENGINE_BUF_PAGES);
	return 0;
}

/**
 * vnpu_engine_dev_fini() - tear it down
 * @vdev: the device: no engine file is open (each holds the module), every
 *	buffer is freed
 */
void vnpu_engine_dev_fini(struct vnpu_device *vdev)
{
	drm_vma_offset_manager_destroy(&vdev->engine_vma);
	mutex_destroy(&vdev->engine_lock);
	mutex_destroy(&vdev->engine_mutex);
}
