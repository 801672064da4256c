/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scheduler: which job of which stream the engine server runs next.
 */
#ifndef VNPU_SCHED_H
#define VNPU_SCHED_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>

#include "vnpu_drm.h"

struct drm_device;
struct drm_file;
struct vnpu_device;
struct vnpu_engine;
struct vnpu_file;
struct vnpu_job;
struct vnpu_stream;
struct workqueue_struct;

/* Ready queues, served strictly in this order. */
enum vnpu_sched_prio {
	VNPU_SCHED_PRIO_HIGH,
	VNPU_SCHED_PRIO_NORMAL,
	VNPU_SCHED_PRIO_LOW,
	VNPU_SCHED_NUM_PRIOS
};

/**
 * struct vnpu_sched - the scheduling state of a device
 * @lock: protects everything below but the counters marked atomic, and
 *	the scheduling fields of every job and stream of the device (see
 *	struct vnpu_job and struct vnpu_stream); taken from fence callbacks
 *	and timers, so always with interrupts off; never held while a fence
 *	is signalled, a buffer freed or user memory touched
 * @ready: per priority, jobs that may run now (one per stream at most: a
 *	stream's head), oldest first
 * @num_ready: jobs on @ready
 * @parked: jobs stopped at a WAIT_VALUE whose condition did not hold
 * @num_parked: jobs on @parked (also shown to the server, see
 *	struct drm_vnpu_engine_ctl)
 * @busy: streams with unfinished jobs
 * @engine: the attached engine server, or NULL
 * @slots: per engine slot, the job the server holds in it, or NULL
 * @slots_used: non-NULL entries of @slots
 * @next_slot: where the search for a free slot starts
 * @workers: engine workers waiting in RUN for events
 * @waiting: workers on @workers (atomic; a hint for spreading work, the
 *	wake-ups themselves go by the wait queue)
 * @wait_checks: times the parked waits were looked at (debugfs; a
 *	poll would make it grow with time)
 * @num_jobs: jobs allocated and not yet freed (atomic)
 * @jobs_idle: woken when @num_jobs drops to zero
 * @wq: runs timeouts and engine resets, which need process context
 */
struct vnpu_sched {
	spinlock_t lock;	/* everything below but the atomics */
	struct list_head ready[VNPU_SCHED_NUM_PRIOS];
	unsigned int num_ready;
	struct list_head parked;
	unsigned int num_parked;
	struct list_head busy;
	struct vnpu_engine *engine;
	struct vnpu_job *slots[VNPU_ENGINE_SLOTS];
	unsigned int slots_used;
	unsigned int next_slot;
	wait_queue_head_t workers;
	atomic_t waiting;
	u64 wait_checks;
	atomic_t num_jobs;
	wait_queue_head_t jobs_idle;
	struct workqueue_struct *wq;
};

/**
 * struct vnpu_stream_status - a snapshot of a stream (STREAM_QUERY, fdinfo)
 * @completed_seqno: see &vnpu_stream.completed_seqno
 * @error: see &vnpu_stream.error
 * @failed_task: see &vnpu_stream.failed_task
 * @failed_seqno: see &vnpu_stream.failed_seqno
 * @running: 1 while the stream's head job is ready, on the engine or
 *	parked, else 0
 * @parked: the head job waits for a memory value
 * @failed_jobs: see &vnpu_stream.failed_jobs
 * @last_error: see &vnpu_stream.last_error
 * @last_failed_task: see &vnpu_stream.last_failed_task
 * @last_failed_seqno: see &vnpu_stream.last_failed_seqno
 */
struct vnpu_stream_status {
	u64 completed_seqno;
	u32 error;
	u32 failed_task;
	u64 failed_seqno;
	u32 running;
	bool parked;
	u32 failed_jobs;
	u32 last_error;
	u32 last_failed_task;
	u64 last_failed_seqno;
};

int vnpu_sched_init(struct vnpu_device *vdev);
void vnpu_sched_fini(struct vnpu_device *vdev);

void vnpu_sched_stream_init(struct vnpu_stream *stream, struct vnpu_file *vfile);
void vnpu_sched_stream_cancel(struct vnpu_stream *stream);
u64 vnpu_sched_stream_abort(struct vnpu_stream *stream, u64 upto, bool stop);
bool vnpu_sched_stream_failed(struct vnpu_stream *stream);
void vnpu_sched_stream_status(struct vnpu_stream *stream, struct vnpu_stream_status *status);
enum vnpu_sched_prio vnpu_sched_prio(u32 priority);

void vnpu_sched_job_init(struct vnpu_job *job);
int vnpu_sched_push(struct vnpu_job *job);
void vnpu_sched_deps_met(void *priv);

bool vnpu_sched_attach(struct vnpu_device *vdev, struct vnpu_engine *engine);
bool vnpu_sched_detach_begin(struct vnpu_device *vdev, struct vnpu_engine *engine);
void vnpu_sched_fail_all(struct vnpu_device *vdev);
bool vnpu_sched_attached(struct vnpu_device *vdev);
bool vnpu_sched_has_jobs(struct vnpu_device *vdev, struct vnpu_engine *engine);
unsigned int vnpu_sched_take(struct vnpu_engine *engine, u32 engine_index, unsigned int max,
			     struct vnpu_job **jobs);
void vnpu_sched_untake(struct vnpu_engine *engine, struct vnpu_job **jobs, unsigned int count);
int vnpu_sched_complete(struct vnpu_engine *engine, const struct drm_vnpu_engine_done *done,
			unsigned int count);
unsigned int vnpu_sched_check_waits(struct vnpu_device *vdev);

int vnpu_ioctl_signal(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* VNPU_SCHED_H */
