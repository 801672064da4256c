/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Engines: the CPU workers that execute jobs, and the per-stream rings they
 * execute them from.
 */
#ifndef VNPU_ENGINE_H
#define VNPU_ENGINE_H

#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <drm/gpu_scheduler.h>

struct dma_fence;
struct task_struct;
struct vnpu_device;
struct vnpu_file;
struct vnpu_job;
struct vnpu_task;

/* Engine run queues, served strictly in this order. */
enum vnpu_engine_prio {
	VNPU_ENGINE_PRIO_HIGH,
	VNPU_ENGINE_PRIO_NORMAL,
	VNPU_ENGINE_PRIO_LOW,
	VNPU_ENGINE_NUM_PRIOS
};

/**
 * struct vnpu_engine - one execution engine of a device
 * @vdev: the device
 * @index: engine index within the device
 * @sched: the drm_sched scheduler of this engine; it hands jobs over by
 *	calling run_job once their dependencies have signalled
 * @sched_name: name of @sched (its kthread's name)
 * @thread: the worker thread that executes the rings queued here
 * @fence_lock: lock of the hardware fences created on this engine
 * @lock: protects @runq, @parked, @num_runnable, @num_parked and, for every
 *	ring owned by this engine, its &vnpu_ring.link, &vnpu_ring.parked,
 *	&vnpu_ring.wait and &vnpu_ring.wait_deadline
 * @runq: rings with work to do, one FIFO per priority
 * @parked: rings whose head job waits for a value in memory
 * @num_runnable: rings on @runq
 * @num_parked: rings on @parked
 * @next_poll: when the worker next re-checks @parked (worker only)
 */
struct vnpu_engine {
	struct vnpu_device *vdev;
	unsigned int index;
	struct drm_gpu_scheduler sched;
	char sched_name[16];
	struct task_struct *thread;
	spinlock_t fence_lock;

	spinlock_t lock;
	struct list_head runq[VNPU_ENGINE_NUM_PRIOS];
	struct list_head parked;
	unsigned int num_runnable;
	unsigned int num_parked;

	ktime_t next_poll;
};

/**
 * struct vnpu_ring - the execution side of a stream
 * @lock: protects @jobs, @owned, @engine, @cancelled (written), @error,
 *	@failed_task, @failed_seqno, @completed_seqno and @vfile
 * @jobs: jobs handed over by run_job and not yet retired, in seqno order
 * @owned: the ring has jobs and sits on an engine (queued, parked or being
 *	run); the owner holds a reference on the stream
 * @engine: the owning engine while @owned
 * @cancelled: the stream is gone: skip every job (read locklessly by the
 *	engine between chunks)
 * @error: enum drm_vnpu_stream_error; once set, jobs are skipped
 * @failed_task: index of the failing task in its job
 * @failed_seqno: seqno of the job that failed the stream
 * @completed_seqno: every job up to this seqno has been retired
 * @vfile: file charged with engine time; NULL once the stream is destroyed
 * @prio: engine run queue of this ring
 * @fence_context: dma_fence context of the ring's hardware fences; their
 *	seqnos are the job seqnos, so they signal in seqno order
 * @link: entry in the owning engine's run queue or parked list
 * @parked: on the parked list
 * @wait: the WAIT_VALUE task the parked ring waits on
 * @wait_deadline: when that wait times out
 *
 * drm_sched calls run_job for the next job of a stream as soon as its
 * dependencies are met, without waiting for the previous job of the same
 * stream to finish (it assumes an in-order hardware ring). The ring is
 * that in-order queue: run_job appends, and the engine that owns the ring
 * runs its jobs strictly one after the other.
 */
struct vnpu_ring {
	spinlock_t lock;
	struct list_head jobs;
	bool owned;
	struct vnpu_engine *engine;
	bool cancelled;
	u32 error;
	u32 failed_task;
	u64 failed_seqno;
	u64 completed_seqno;
	struct vnpu_file *vfile;

	enum vnpu_engine_prio prio;
	u64 fence_context;

	struct list_head link;
	bool parked;
	const struct vnpu_task *wait;
	ktime_t wait_deadline;
};

/**
 * struct vnpu_ring_status - a snapshot of a ring (STREAM_QUERY)
 * @completed_seqno: see &vnpu_ring.completed_seqno
 * @error: see &vnpu_ring.error
 * @failed_task: see &vnpu_ring.failed_task
 * @failed_seqno: see &vnpu_ring.failed_seqno
 * @running: jobs handed to the engine (their in-fences signalled), the
 *	first one executing or waiting
 * @parked: the first job waits for a memory value
 */
struct vnpu_ring_status {
	u64 completed_seqno;
	u32 error;
	u32 failed_task;
	u64 failed_seqno;
	u32 running;
	bool parked;
};

int vnpu_engines_init(struct vnpu_device *vdev);
void vnpu_engines_fini(struct vnpu_device *vdev);

void vnpu_ring_init(struct vnpu_ring *ring, enum vnpu_engine_prio prio,
		    struct vnpu_file *vfile);
struct dma_fence *vnpu_ring_push(struct vnpu_engine *engine,
				 struct vnpu_ring *ring, struct vnpu_job *job);
void vnpu_ring_cancel(struct vnpu_ring *ring);
bool vnpu_ring_failed(struct vnpu_ring *ring);
void vnpu_ring_status(struct vnpu_ring *ring, struct vnpu_ring_status *status);

static inline struct vnpu_engine *to_vnpu_engine(struct drm_gpu_scheduler *sched)
{
	return container_of(sched, struct vnpu_engine, sched);
}

#endif /* VNPU_ENGINE_H */
