/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Jobs: one SUBMIT's batch of tasks, checked, with every device address
 * resolved to a range of a buffer the job holds, in the form the engine
 * server gets it.
 */
#ifndef VNPU_JOB_H
#define VNPU_JOB_H

#include <linux/dma-fence.h>
#include <linux/hrtimer.h>
#include <linux/kref.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "vnpu_drm.h"

struct drm_device;
struct drm_file;
struct vnpu_deps;
struct vnpu_device;
struct vnpu_mapping;
struct vnpu_stream;
struct vnpu_ws_use;

/**
 * struct vnpu_fence - the fence a job signals when it ends
 * @base: the fence; its context is the stream's, its seqno the job's
 * @lock: lock of @base, its own, so the fence outlives job and stream
 */
struct vnpu_fence {
	struct dma_fence base;
	spinlock_t lock;	/* the fence's own lock */
};

/**
 * struct vnpu_job_end - how a job ended
 * @fence_error: error for its fence, 0 on success
 * @stream_error: enum drm_vnpu_stream_error the job puts its stream in
 * @task: the failing task, with @stream_error
 * @busy_ns: engine time it took (fdinfo)
 */
struct vnpu_job_end {
	int fence_error;
	u32 stream_error;
	u32 task;
	u64 busy_ns;
};

/**
 * enum vnpu_job_state - where a job is (&vnpu_job.state)
 * @VNPU_JOB_QUEUED: submitted; waits for its dependencies or its turn
 * @VNPU_JOB_READY: the stream's head with its dependencies met, on a ready
 *	queue of the device
 * @VNPU_JOB_RUNNING: held by the engine server, in a slot
 * @VNPU_JOB_PARKED: the server stopped at a WAIT_VALUE that did not hold;
 *	on the device's parked list
 * @VNPU_JOB_ENDING: its end is decided and being carried out by one
 *	thread (a retire, a drain, a timeout); on no queue
 * @VNPU_JOB_DONE: retired: its fence is signalled or about to be
 */
enum vnpu_job_state {
	VNPU_JOB_QUEUED,
	VNPU_JOB_READY,
	VNPU_JOB_RUNNING,
	VNPU_JOB_PARKED,
	VNPU_JOB_ENDING,
	VNPU_JOB_DONE,
};

/**
 * struct vnpu_job - a submitted batch of tasks
 * @refcount: one reference for the submit ioctl while it runs, one for the
 *	scheduler from the push until the job is retired, one for a queued
 *	timeout work
 * @vdev: the device
 * @stream: the stream it was submitted to (referenced)
 * @seqno: sequence number in the stream (1, 2, ...), assigned at push
 * @fence: the job's fence (the job holds a reference); signalled when the
 *	job is retired, with an error if it failed or was skipped
 * @num_tasks: entries in @tasks
 * @tasks: the tasks as the engine server gets them
 * @num_operands: entries in @operands and @maps
 * @operands: the checked ranges of all tasks as the server gets them; the
 *	buffer fields are filled in when the job is handed out
 * @maps: per operand, a reference on the mapping of its buffer, which
 *	keeps the memory alive for the job
 * @data_size: bytes at @data
 * @data: the SUBMIT's data area (operator descriptors), or NULL
 * @num_ws: entries in @ws
 * @ws: the operators' operands (workspace, inputs, outputs) as buffer
 *	ranges, for the hazard checks (vnpu_hazard.c)
 * @ws_bytes: the workspace operand sizes, summed
 * @ws_tasks: operator tasks with at least one workspace operand
 * @hazard_check: some workspace must be checked (or recorded) against
 *	other streams' use at push
 * @hazard_spare: records allocated for the push to fill in
 * @deps: what the job waits for before it may run (in-fences, colliding
 *	jobs of other streams), or NULL
 * @quota_taken: the job holds a unit of its file's job quota, given back
 *	when it is retired, or freed without being pushed
 * @link: entry in the stream's job list
 * @queue_link: entry in a ready queue or the parked list
 * @state: enum vnpu_job_state
 * @deps_met: every dependency has signalled
 * @started: handed to the engine at least once (@deadline is valid)
 * @cancel: the engine was asked to stop the job (destroy or timeout); while
 *	the engine holds the job, its slot's cancel word says the same
 * @timed_out: the job ran past its deadline
 * @fault_injected: fail at its first hand-out (debugfs fail_job/)
 * @slot: engine slot while RUNNING
 * @engine_index: worker that holds it while RUNNING
 * @first_task: the first task the engine runs at the next hand-out
 * @timeout_ms: the stream's VNPU_STREAM_PARAM_JOB_TIMEOUT_MS when the job
 *	was submitted (0: the job_timeout_ms module parameter at its start)
 * @failure_mode: the stream's VNPU_STREAM_PARAM_FAILURE_MODE when the job
 *	was submitted
 * @deadline: when the job times out
 * @timer: fires at @deadline, and at the end of the cancel grace
 * @timeout_work: ends a job that timed out off the engine
 * @end: how the job ends, decided under the scheduler lock and carried
 *	out after it
 *
 * @link, @queue_link, @state, @deps_met, @started, @cancel, @timed_out,
 * @slot, @engine_index and @first_task are protected by the device's
 * scheduler lock (&vnpu_sched.lock).
 */
struct vnpu_job {
	struct kref refcount;
	struct vnpu_device *vdev;
	struct vnpu_stream *stream;
	u64 seqno;
	struct vnpu_fence *fence;

	u32 num_tasks;
	struct drm_vnpu_engine_task *tasks;
	u32 num_operands;
	struct drm_vnpu_engine_operand *operands;
	struct vnpu_mapping **maps;
	u32 data_size;
	void *data;

	u32 num_ws;
	struct vnpu_ws_use *ws;
	u64 ws_bytes;
	u32 ws_tasks;
	bool hazard_check;
	struct list_head hazard_spare;

	struct vnpu_deps *deps;
	bool quota_taken;

	struct list_head link;
	struct list_head queue_link;
	enum vnpu_job_state state;
	bool deps_met;
	bool started;
	bool cancel;
	bool timed_out;
	bool fault_injected;
	u32 slot;
	u32 engine_index;
	u32 first_task;
	u32 timeout_ms;
	u32 failure_mode;
	ktime_t deadline;
	struct hrtimer timer;
	struct work_struct timeout_work;
	struct vnpu_job_end end;
};

/**
 * struct vnpu_job_quota - the unfinished jobs of one open file
 * @refcount: one for the file and one per stream of it (jobs hold their
 *	stream), so jobs that outlive the file still find it
 * @unfinished: jobs submitted, or being submitted, and not yet retired
 *	(finished, failed or cancelled)
 * @wq: submitters waiting for @unfinished to fall below the limit
 *
 * Jobs can wait without bound (for memory, in-fences, engines). Without a
 * limit one file could queue enough of them to exhaust kernel memory.
 */
struct vnpu_job_quota {
	struct kref refcount;
	atomic_t unfinished;
	wait_queue_head_t wq;
};

struct vnpu_job_quota *vnpu_job_quota_create(void);
void vnpu_job_quota_put(struct vnpu_job_quota *quota);

static inline struct vnpu_job_quota *vnpu_job_quota_get(struct vnpu_job_quota *quota)
{
	kref_get(&quota->refcount);
	return quota;
}

static inline struct vnpu_job *vnpu_job_get(struct vnpu_job *job)
{
	kref_get(&job->refcount);
	return job;
}

void vnpu_job_put(struct vnpu_job *job);
void vnpu_job_give_quota(struct vnpu_job *job);
void *vnpu_job_operand_kaddr(struct vnpu_job *job, u32 operand);

int vnpu_ioctl_submit(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* VNPU_JOB_H */
