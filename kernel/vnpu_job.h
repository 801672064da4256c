/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Jobs: one SUBMIT's batch of tasks, validated and resolved to kernel
 * addresses, and its life in drm_sched.
 */
#ifndef VNPU_JOB_H
#define VNPU_JOB_H

#include <linux/kref.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <drm/gpu_scheduler.h>

struct dma_fence;
struct drm_device;
struct drm_file;
struct vnpu_device;
struct vnpu_mapping;
struct vnpu_op_args;
struct vnpu_stream;
struct vnpu_ws_use;

/**
 * struct vnpu_task - one task, checked and with its device addresses
 *	resolved to kernel addresses of buffers the job holds
 * @kind: enum drm_vnpu_task_kind
 * @flags: VNPU_TASK_VALUE_64 for value tasks, else 0
 * @copy: VNPU_TASK_COPY: @copy.size bytes from @copy.src to @copy.dst
 * @fill: VNPU_TASK_FILL: @fill.size bytes of @fill.value at @fill.dst
 * @value: VNPU_TASK_WRITE_VALUE and VNPU_TASK_WAIT_VALUE: the word at
 *	@value.addr, the value (already cut to 32 bits for 32-bit words) and,
 *	for waits, the VNPU_WAIT_* comparison
 * @timestamp: VNPU_TASK_TIMESTAMP: where the 64-bit time goes
 * @op: VNPU_TASK_OP: the operator with its operands resolved (an entry of
 *	&vnpu_job.op_args) and its cost, a rough byte count used to decide
 *	whether the job is short
 */
struct vnpu_task {
	u32 kind;
	u32 flags;
	union {
		struct {
			void *dst;
			const void *src;
			u64 size;
		} copy;
		struct {
			void *dst;
			u64 size;
			u8 value;
		} fill;
		struct {
			void *addr;
			u64 value;
			u32 cmp;
		} value;
		struct {
			u64 *addr;
		} timestamp;
		struct {
			struct vnpu_op_args *args;
			u64 cost;
		} op;
	};
};

/**
 * struct vnpu_job - a submitted batch of tasks
 * @base: the drm_sched job
 * @refcount: one reference for the submit ioctl while it runs, one for the
 *	scheduler (dropped in free_job)
 * @vdev: the device
 * @stream: the stream it was submitted to (referenced)
 * @seqno: sequence number in the stream (1, 2, ...), assigned at push
 * @hw_fence: the fence the engine signals when the job is retired;
 *	allocated at submit, initialised by run_job (@hw_fence_live)
 * @hw_fence_live: @hw_fence was initialised and is refcounted now
 * @ring_link: entry in the stream's ring, under &vnpu_ring.lock
 * @run_inline: short enough to run in the scheduler thread when its ring
 *	is idle (few tasks, few bytes; see vnpu_ring_push())
 * @num_tasks: entries in @tasks
 * @tasks: the tasks, in order; like @mappings, taken over by the engine
 *	when the job is retired
 * @num_mappings: entries in @mappings
 * @mappings: a reference on the mapping of every buffer a task touches;
 *	handed to the engine when the job is retired (so buffers are released
 *	as soon as the work is done), else dropped when the job is freed
 * @num_ops: entries in @op_args
 * @op_args: the operator tasks' arguments (kvmalloc'ed), NULL if none;
 *	released with @tasks
 * @num_ws: entries in @ws
 * @ws: the workspace of every operator task that has one, as a buffer
 *	range, for the hazard checks (vnpu_hazard.c); freed with the job
 * @ws_bytes: the workspace sizes of the operator tasks, summed
 * @hazard_check: some workspace must be checked (or recorded) against
 *	other streams' use at push
 * @hazard_spare: records allocated for the push to fill in
 * @next_task: engine progress: the task to run next
 * @next_offset: engine progress: bytes of @next_task already done
 * @quota_taken: the job holds a unit of its file's job quota, given back
 *	when it is retired, or freed without being retired
 * @started: the engine has started the job (@deadline is valid)
 * @deadline: the job fails with VNPU_STREAM_ERROR_TIMEOUT after this
 */
struct vnpu_job {
	struct drm_sched_job base;
	struct kref refcount;
	struct vnpu_device *vdev;
	struct vnpu_stream *stream;
	u64 seqno;

	struct dma_fence *hw_fence;
	bool hw_fence_live;
	struct list_head ring_link;
	bool run_inline;

	u32 num_tasks;
	struct vnpu_task *tasks;
	u32 num_mappings;
	struct vnpu_mapping **mappings;

	u32 num_ops;
	struct vnpu_op_args *op_args;
	u32 num_ws;
	struct vnpu_ws_use *ws;
	u64 ws_bytes;
	bool hazard_check;
	struct list_head hazard_spare;

	u32 next_task;
	u64 next_offset;
	bool quota_taken;
	bool started;
	ktime_t deadline;
};

static inline struct vnpu_job *to_vnpu_job(struct drm_sched_job *sched_job)
{
	return container_of(sched_job, struct vnpu_job, base);
}

extern const struct drm_sched_backend_ops vnpu_sched_ops;

/**
 * struct vnpu_job_quota - the unfinished jobs of one open file
 * @refcount: one for the file and one per stream of it (jobs hold their
 *	stream), so jobs that outlive the file still find it
 * @unfinished: jobs submitted, or being submitted, and not yet retired
 *	(finished, failed or cancelled)
 * @wq: submitters waiting for @unfinished to fall below the limit
 *
 * Jobs can wait without bound (for memory, in-fences, engines). Without a
 * limit one file could queue enough of them to exhaust kernel memory, or
 * an engine's scheduler credits (parked jobs hold theirs), which would
 * stall every other file's streams on that engine.
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

void vnpu_job_put(struct vnpu_job *job);
void vnpu_job_give_quota(struct vnpu_job *job);
void vnpu_job_release_mappings(struct vnpu_mapping **mappings, u32 count);

int vnpu_ioctl_submit(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* VNPU_JOB_H */
