// SPDX-License-Identifier: GPL-2.0
/*
 * Engines: CPU workers that execute the tasks of streams.
 *
 * Each engine of a device is a drm_sched scheduler plus a kernel thread.
 * The scheduler decides when a job may run (its in-fences have signalled)
 * and hands it over through run_job, which appends it to its stream's ring
 * (vnpu_ring_push()). The thread executes rings, not single jobs: it takes
 * the first ring of its highest-priority run queue and runs that ring's jobs
 * in order until the ring is empty, its head job waits for memory (the ring
 * is parked), or its turn is over (the ring goes to the back of its queue).
 * Every job ends by being retired: its ring records the outcome and its
 * hardware fence is signalled, with an error if it failed or was skipped.
 * A short job that finds its ring idle is run by run_job itself, in the
 * scheduler's thread (vnpu_engine_run_inline()): for a handful of value
 * writes or a NOP, two thread switches would cost more than the work.
 *
 * Parking. A WAIT_VALUE task whose condition does not hold parks its ring:
 * nothing spins and the engine serves other rings. Parked rings are checked
 * again right after any task on any engine of the device writes memory, and
 * by their own engine every VNPU_POLL_US while anything is parked, which
 * notices stores the CPU makes through mmap and enforces timeouts.
 *
 * Timeouts. A job gets its deadline when it starts executing: now plus the
 * job_timeout_ms parameter read at that moment. From then on the clock runs
 * whatever the job does: parked, or waiting in the run queue after its ring
 * yielded its turn (vnpu_engine_requeue()) or was unparked. The deadline is
 * checked between chunks of long tasks, every VNPU_TASKS_PER_CHECK short
 * tasks and by the poll of parked rings; a job past it fails its stream
 * with VNPU_STREAM_ERROR_TIMEOUT.
 *
 * Operators (VNPU_TASK_OP) run through vnpu_op_run() (vnpu_ops.c), which
 * does the float work in bounded chunks, each in its own FPU section, and
 * asks between chunks whether to stop: the stream was destroyed or the job
 * is past its deadline. An operator runs to its end (or its stop) in one
 * turn: the engine cannot resume it half-way, so other rings of the same
 * engine wait for it, though the CPU is shared (cond_resched() between
 * chunks). An int32 division by zero fails the stream with
 * VNPU_STREAM_ERROR_ARITH.
 * drm_sched's own timeout is disabled (MAX_SCHEDULE_TIMEOUT): a stream
 * waiting for memory is not a hung engine, and the engine can stop any job
 * itself, so there is nothing for a scheduler-level reset to do.
 *
 * Fences. Every ring has its own fence context and its fences carry the job
 * seqnos. One engine finishes the jobs of different streams in any order,
 * but a ring retires its jobs strictly in seqno order, so the fences of one
 * context signal in order, as dma_fence requires. (An engine-wide context
 * would signal out of order whenever one stream overtakes a parked one.)
 *
 * Locking order: &vnpu_ring.lock, then &vnpu_engine.lock. Neither is held
 * while tasks touch memory or fences are signalled.
 */
#include <linux/dma-fence.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <drm/drm_print.h>

#include "vnpu_drv.h"
#include "vnpu_engine.h"
#include "vnpu_job.h"
#include "vnpu_ops.h"
#include "vnpu_stream.h"

/*
 * Jobs one scheduler may have handed over and not yet seen finish. The
 * rings are the engines' real queues and cost nothing per job, so this
 * only has to be out of the way: a small limit would let one parked stream
 * with many queued jobs use up an engine's credits and starve every other
 * stream whose entity sits on that engine. A file may have at most half of
 * them unfinished (max_jobs_per_file, struct vnpu_job_quota).
 */
#define VNPU_ENGINE_CREDITS 65536
/* Copies and fills are done in chunks of this size. */
#define VNPU_CHUNK_BYTES SZ_1M
/* Parked rings are re-checked this often. */
#define VNPU_POLL_US 1000
/* A ring keeps its engine this long when others are waiting. */
#define VNPU_TURN_US 2000
/* Short tasks between two looks at the clock. */
#define VNPU_TASKS_PER_CHECK 32

/* How a turn on a job ended. */
enum vnpu_run {
	VNPU_RUN_RETIRE,	/* the job is done: retire it */
	VNPU_RUN_PARKED,	/* the ring was parked (or requeued) */
	VNPU_RUN_YIELD,		/* the turn is over, the job continues later */
};

/* What one step of a task did. */
enum vnpu_step {
	VNPU_STEP_DONE,		/* the task is complete */
	VNPU_STEP_PARTIAL,	/* a chunk was done, more remain */
	VNPU_STEP_BLOCKED,	/* a wait whose condition does not hold */
};

/**
 * struct vnpu_outcome - how a job ended
 * @fence_error: error for its fence, 0 on success
 * @stream_error: enum drm_vnpu_stream_error the job puts its stream in
 * @task: the failing task, with @stream_error
 */
struct vnpu_outcome {
	int fence_error;
	u32 stream_error;
	u32 task;
};

static void vnpu_engine_run_inline(struct vnpu_engine *engine, struct vnpu_ring *ring);

static const char *vnpu_fence_driver_name(struct dma_fence *fence)
{
	return VNPU_DRIVER_NAME;
}

static const char *vnpu_fence_timeline_name(struct dma_fence *fence)
{
	return "vnpu-stream";
}

static const struct dma_fence_ops vnpu_fence_ops = {
	.get_driver_name = vnpu_fence_driver_name,
	.get_timeline_name = vnpu_fence_timeline_name,
};

/* ---------------------------------------------------------------- tasks */

static bool vnpu_wait_satisfied(const struct vnpu_task *task)
{
	u64 value = task->value.value;
	u64 mask = U64_MAX;
	u64 word;

	if (task->flags & VNPU_TASK_VALUE_64) {
		word = READ_ONCE(*(u64 *)task->value.addr);
	} else {
		word = READ_ONCE(*(u32 *)task->value.addr);
		mask = U32_MAX;
	}

	switch (task->value.cmp) {
	case VNPU_WAIT_GEQ:
		return word >= value;
	case VNPU_WAIT_EQ:
		return word == value;
	case VNPU_WAIT_AND:
		return (word & value) != 0;
	case VNPU_WAIT_NOR:
		return (~(word | value) & mask) != 0;
	}
	return false;
}

/*
 * One chunk of a copy. When the destination overlaps the source from above,
 * chunks go from the end backwards, so the copy behaves like memmove.
 */
static enum vnpu_step vnpu_step_copy(struct vnpu_job *job, const struct vnpu_task *task)
{
	u8 *dst = task->copy.dst;
	const u8 *src = task->copy.src;
	u64 size = task->copy.size;
	u64 done = job->next_offset;
	u64 len = min_t(u64, size - done, VNPU_CHUNK_BYTES);
	u64 pos = done;

	if (dst > src && dst < src + size)
		pos = size - done - len;
	memmove(dst + pos, src + pos, len);
	job->next_offset = done + len;
	return job->next_offset == size ? VNPU_STEP_DONE : VNPU_STEP_PARTIAL;
}

static enum vnpu_step vnpu_step_fill(struct vnpu_job *job, const struct vnpu_task *task)
{
	u64 done = job->next_offset;
	u64 len = min_t(u64, task->fill.size - done, VNPU_CHUNK_BYTES);

	memset((u8 *)task->fill.dst + done, task->fill.value, len);
	job->next_offset = done + len;
	return job->next_offset == task->fill.size ? VNPU_STEP_DONE : VNPU_STEP_PARTIAL;
}

static enum vnpu_step vnpu_task_step(struct vnpu_job *job, const struct vnpu_task *task)
{
	switch (task->kind) {
	case VNPU_TASK_COPY:
		return vnpu_step_copy(job, task);
	case VNPU_TASK_FILL:
		return vnpu_step_fill(job, task);
	case VNPU_TASK_WRITE_VALUE:
		if (task->flags & VNPU_TASK_VALUE_64)
			WRITE_ONCE(*(u64 *)task->value.addr, task->value.value);
		else
			WRITE_ONCE(*(u32 *)task->value.addr, (u32)task->value.value);
		return VNPU_STEP_DONE;
	case VNPU_TASK_WAIT_VALUE:
		return vnpu_wait_satisfied(task) ? VNPU_STEP_DONE : VNPU_STEP_BLOCKED;
	case VNPU_TASK_TIMESTAMP:
		WRITE_ONCE(*task->timestamp.addr, ktime_get_ns());
		return VNPU_STEP_DONE;
	default:
		/* VNPU_TASK_NOP; the submit let no other kind through. */
		return VNPU_STEP_DONE;
	}
}

static bool vnpu_task_writes(const struct vnpu_task *task)
{
	return task->kind == VNPU_TASK_COPY || task->kind == VNPU_TASK_FILL ||
	       task->kind == VNPU_TASK_WRITE_VALUE || task->kind == VNPU_TASK_TIMESTAMP ||
	       task->kind == VNPU_TASK_OP;
}

/* Tasks long enough that the clock and the turn are checked after each. */
static bool vnpu_task_long(const struct vnpu_task *task)
{
	return task->kind == VNPU_TASK_COPY || task->kind == VNPU_TASK_FILL ||
	       task->kind == VNPU_TASK_OP;
}

/**
 * struct vnpu_op_watch - what a running operator checks between chunks
 * @ring: its stream's ring (destroyed: stop)
 * @job: its job (past the deadline: stop)
 */
struct vnpu_op_watch {
	struct vnpu_ring *ring;
	struct vnpu_job *job;
};

static bool vnpu_op_should_stop(void *priv)
{
	struct vnpu_op_watch *watch = priv;

	return READ_ONCE(watch->ring->cancelled) ||
	       ktime_after(ktime_get(), watch->job->deadline);
}

/* Run an operator task; 0, -ECANCELED (stopped) or -EDOM (int32 / 0). */
static int vnpu_task_run_op(struct vnpu_ring *ring, struct vnpu_job *job,
			    const struct vnpu_task *task)
{
	struct vnpu_op_watch watch = { .ring = ring, .job = job };
	const struct vnpu_op_ctl ctl = {
		.should_stop = vnpu_op_should_stop,
		.priv = &watch,
	};

	return vnpu_op_run(task->op.args, &ctl);
}

/* ---------------------------------------------------------------- queues */

static void vnpu_engine_enqueue_locked(struct vnpu_engine *engine, struct vnpu_ring *ring)
{
	lockdep_assert_held(&engine->lock);
	list_add_tail(&ring->link, &engine->runq[ring->prio]);
	engine->num_runnable++;
}

static void vnpu_engine_unpark_locked(struct vnpu_engine *engine, struct vnpu_ring *ring)
{
	lockdep_assert_held(&engine->lock);
	list_del(&ring->link);
	ring->parked = false;
	ring->wait = NULL;
	engine->num_parked--;
	atomic_dec(&engine->vdev->num_parked);
	vnpu_engine_enqueue_locked(engine, ring);
}

/*
 * Move every parked ring that can go on to the run queue: its wait holds,
 * its stream is gone, or (with @check_deadlines) its wait timed out.
 * Returns how many rings were moved.
 */
static unsigned int vnpu_engine_check_parked_locked(struct vnpu_engine *engine,
						    bool check_deadlines, ktime_t now)
{
	struct vnpu_ring *ring, *next;
	unsigned int moved = 0;

	lockdep_assert_held(&engine->lock);
	list_for_each_entry_safe(ring, next, &engine->parked, link) {
		if (READ_ONCE(ring->cancelled) || vnpu_wait_satisfied(ring->wait) ||
		    (check_deadlines && ktime_after(now, ring->wait_deadline))) {
			vnpu_engine_unpark_locked(engine, ring);
			moved++;
		}
	}
	return moved;
}

/*
 * A task just wrote memory: wake the parked rings whose wait now holds.
 * The full barrier orders the task's stores before the read of
 * num_parked; vnpu_engine_park() orders its increment before its own look
 * at memory. So either this sees the parked ring, or the parker sees the
 * stores.
 */
static void vnpu_engines_notify_write(struct vnpu_device *vdev)
{
	unsigned int i, moved;

	smp_mb();
	if (!atomic_read(&vdev->num_parked))
		return;

	for (i = 0; i < vdev->num_engines; i++) {
		struct vnpu_engine *engine = &vdev->engines[i];

		spin_lock(&engine->lock);
		moved = vnpu_engine_check_parked_locked(engine, false, 0);
		spin_unlock(&engine->lock);
		/* Not needed for the caller's own thread (it may be a scheduler's). */
		if (moved && engine->thread != current)
			wake_up_process(engine->thread);
	}
}

/*
 * Park @ring, whose head job waits on @task. The condition is checked once
 * more after the ring is visible as parked (see vnpu_engines_notify_write());
 * if it holds by then, or the stream is gone, the ring goes straight back to
 * the run queue. Either way the ring is off the caller's hands.
 */
static void vnpu_engine_park(struct vnpu_engine *engine, struct vnpu_ring *ring,
			     const struct vnpu_task *task, ktime_t deadline)
{
	spin_lock(&engine->lock);
	ring->wait = task;
	ring->wait_deadline = deadline;
	ring->parked = true;
	list_add_tail(&ring->link, &engine->parked);
	engine->num_parked++;
	atomic_inc(&engine->vdev->num_parked);
	smp_mb__after_atomic();
	if (READ_ONCE(ring->cancelled) || vnpu_wait_satisfied(task))
		vnpu_engine_unpark_locked(engine, ring);
	spin_unlock(&engine->lock);
}

static void vnpu_engine_requeue(struct vnpu_engine *engine, struct vnpu_ring *ring)
{
	spin_lock(&engine->lock);
	vnpu_engine_enqueue_locked(engine, ring);
	spin_unlock(&engine->lock);
}

static struct vnpu_ring *vnpu_engine_next(struct vnpu_engine *engine)
{
	struct vnpu_ring *ring = NULL;
	unsigned int prio;

	spin_lock(&engine->lock);
	for (prio = 0; prio < VNPU_ENGINE_NUM_PRIOS && !ring; prio++)
		ring = list_first_entry_or_null(&engine->runq[prio], struct vnpu_ring, link);
	if (ring) {
		list_del_init(&ring->link);
		engine->num_runnable--;
	}
	spin_unlock(&engine->lock);
	return ring;
}

/* Time to let the other rings of the engine (or the parked-ring poll) in. */
static bool vnpu_engine_turn_over(struct vnpu_engine *engine, ktime_t turn_end, ktime_t now)
{
	return (READ_ONCE(engine->num_runnable) || READ_ONCE(engine->num_parked)) &&
	       ktime_after(now, turn_end);
}

/* ---------------------------------------------------------------- rings */

/**
 * vnpu_ring_init() - initialise the execution state of a new stream
 * @ring: the ring
 * @prio: engine run queue the ring uses
 * @vfile: file to charge engine time to
 */
void vnpu_ring_init(struct vnpu_ring *ring, enum vnpu_engine_prio prio,
		    struct vnpu_file *vfile)
{
	spin_lock_init(&ring->lock);
	INIT_LIST_HEAD(&ring->jobs);
	INIT_LIST_HEAD(&ring->link);
	ring->prio = prio;
	ring->vfile = vfile;
	ring->fence_context = dma_fence_context_alloc(1);
}

/**
 * vnpu_ring_push() - hand a job over to its ring (drm_sched run_job)
 * @engine: the engine whose scheduler runs the job
 * @ring: the job's stream's ring
 * @job: the job; its dependencies have signalled
 *
 * Initialises the job's hardware fence and appends the job to the ring. A
 * ring that had nothing to do becomes @engine's: a short job
 * (&vnpu_job.run_inline) is run right here, in the scheduler's thread,
 * which saves waking the engine thread and switching to it for work that
 * takes less time than the switch; any other job queues the ring on the
 * engine. A ring that still has jobs stays with the engine that owns it,
 * so it never runs on two engines at once. Allocates nothing.
 *
 * Return: the hardware fence, with a reference for the scheduler (it may
 * be signalled already).
 */
struct dma_fence *vnpu_ring_push(struct vnpu_engine *engine, struct vnpu_ring *ring,
				 struct vnpu_job *job)
{
	struct dma_fence *fence = job->hw_fence;
	bool queued = false, run_here = false;

	dma_fence_init(fence, &vnpu_fence_ops, &engine->fence_lock,
		       ring->fence_context, job->seqno);
	job->hw_fence_live = true;
	dma_fence_get(fence);

	spin_lock(&ring->lock);
	list_add_tail(&job->ring_link, &ring->jobs);
	if (!ring->owned) {
		ring->owned = true;
		ring->engine = engine;
		vnpu_stream_get(vnpu_ring_to_stream(ring));
		if (job->run_inline) {
			run_here = true;
		} else {
			spin_lock(&engine->lock);
			vnpu_engine_enqueue_locked(engine, ring);
			spin_unlock(&engine->lock);
			queued = true;
		}
	}
	spin_unlock(&ring->lock);

	if (run_here)
		vnpu_engine_run_inline(engine, ring);
	else if (queued)
		wake_up_process(engine->thread);
	return fence;
}

/**
 * vnpu_ring_cancel() - the stream is being destroyed: skip all its work
 * @ring: the ring
 *
 * Jobs in the ring and jobs handed over later are retired with -ECANCELED
 * without running; a job executing a long task stops at its next chunk; a
 * parked ring is woken so its waiting job is cancelled too. Engine time is
 * no longer charged to the file. Does not wait for anything.
 */
void vnpu_ring_cancel(struct vnpu_ring *ring)
{
	struct vnpu_engine *engine = NULL;
	bool wake = false;

	spin_lock(&ring->lock);
	WRITE_ONCE(ring->cancelled, true);
	ring->vfile = NULL;
	if (ring->owned) {
		engine = ring->engine;
		spin_lock(&engine->lock);
		if (ring->parked) {
			vnpu_engine_unpark_locked(engine, ring);
			wake = true;
		}
		spin_unlock(&engine->lock);
	}
	spin_unlock(&ring->lock);

	if (wake)
		wake_up_process(engine->thread);
}

/**
 * vnpu_ring_failed() - has a job of the stream failed?
 * @ring: the ring
 *
 * Return: true once the stream is in an error state (it stays there).
 */
bool vnpu_ring_failed(struct vnpu_ring *ring)
{
	return READ_ONCE(ring->error) != VNPU_STREAM_ERROR_NONE;
}

/**
 * vnpu_ring_status() - snapshot of a ring's progress and error state
 * @ring: the ring
 * @status: out
 */
void vnpu_ring_status(struct vnpu_ring *ring, struct vnpu_ring_status *status)
{
	struct list_head *pos;

	spin_lock(&ring->lock);
	status->completed_seqno = ring->completed_seqno;
	status->error = ring->error;
	status->failed_task = ring->failed_task;
	status->failed_seqno = ring->failed_seqno;
	status->running = 0;
	list_for_each(pos, &ring->jobs)
		status->running++;
	/* Under the engine's lock, not this one: a snapshot is all status needs. */
	status->parked = READ_ONCE(ring->parked);
	spin_unlock(&ring->lock);
}

static void vnpu_ring_charge(struct vnpu_ring *ring, u64 busy_ns)
{
	spin_lock(&ring->lock);
	if (ring->vfile)
		atomic64_add(busy_ns, &ring->vfile->engine_busy_ns);
	spin_unlock(&ring->lock);
}

/* ---------------------------------------------------------------- jobs */

/**
 * struct vnpu_leftovers - what a retired job no longer needs
 * @mappings: its buffer references
 * @num_mappings: entries in @mappings
 * @tasks: its task array
 * @op_args: its operators' arguments
 *
 * drm_sched frees a scheduler's jobs in the order it handed them over, so a
 * finished job can wait long for free_job behind a parked one of another
 * stream. Everything big is therefore released as soon as a job is retired,
 * by the engine, outside the fence signalling section; free_job is left
 * with the small job struct.
 */
struct vnpu_leftovers {
	struct vnpu_mapping **mappings;
	u32 num_mappings;
	struct vnpu_task *tasks;
	struct vnpu_op_args *op_args;
};

static void vnpu_leftovers_release(struct vnpu_leftovers *left)
{
	vnpu_job_release_mappings(left->mappings, left->num_mappings);
	kvfree(left->tasks);
	kvfree(left->op_args);
}

/*
 * Retire the ring's head job: record the outcome in the ring, then signal
 * the hardware fence (drm_sched signals the job's finished fence from its
 * callback). The job's buffer references and tasks are handed to the
 * caller, to be released out of the signalling section; the job itself may
 * be freed by the scheduler as soon as the fence is signalled.
 */
static void vnpu_engine_retire(struct vnpu_ring *ring, struct vnpu_job *job,
			       const struct vnpu_outcome *out, u64 busy_ns,
			       struct vnpu_leftovers *left)
{
	struct dma_fence *fence = dma_fence_get(job->hw_fence);

	left->mappings = job->mappings;
	left->num_mappings = job->num_mappings;
	left->tasks = job->tasks;
	left->op_args = job->op_args;
	job->mappings = NULL;
	job->num_mappings = 0;
	job->tasks = NULL;
	job->op_args = NULL;

	spin_lock(&ring->lock);
	list_del_init(&job->ring_link);
	ring->completed_seqno = job->seqno;
	if (out->stream_error && ring->error == VNPU_STREAM_ERROR_NONE) {
		ring->failed_task = out->task;
		ring->failed_seqno = job->seqno;
		WRITE_ONCE(ring->error, out->stream_error);
	}
	if (ring->vfile)
		atomic64_add(busy_ns, &ring->vfile->engine_busy_ns);
	spin_unlock(&ring->lock);
	vnpu_job_give_quota(job);

	if (out->fence_error) {
		/*
		 * The finished fence is what userspace sees; not every kernel
		 * copies the hardware fence's error to it.
		 */
		dma_fence_set_error(&job->base.s_fence->finished, out->fence_error);
		dma_fence_set_error(fence, out->fence_error);
	}
	dma_fence_signal(fence);
	dma_fence_put(fence);
}

static enum vnpu_run vnpu_fail(struct vnpu_outcome *out, int fence_error,
			       u32 stream_error, u32 task)
{
	out->fence_error = fence_error;
	out->stream_error = stream_error;
	out->task = task;
	return VNPU_RUN_RETIRE;
}

/* How an operator that returned @ret ends its job. */
static enum vnpu_run vnpu_op_failed(struct vnpu_ring *ring, struct vnpu_job *job,
				    int ret, struct vnpu_outcome *out)
{
	switch (ret) {
	case -EDOM:
		return vnpu_fail(out, -EDOM, VNPU_STREAM_ERROR_ARITH, job->next_task);
	case -ECANCELED:
		if (READ_ONCE(ring->cancelled))
			return vnpu_fail(out, -ECANCELED, VNPU_STREAM_ERROR_NONE, 0);
		return vnpu_fail(out, -ETIMEDOUT, VNPU_STREAM_ERROR_TIMEOUT, job->next_task);
	default:
		/* The submit checked everything vnpu_op_run() checks. */
		WARN_ONCE(1, "vnpu: operator failed with %d\n", ret);
		return vnpu_fail(out, -EIO, VNPU_STREAM_ERROR_FAULT, job->next_task);
	}
}

/*
 * Run @job, the head of @ring, from where it stopped, until it is done, it
 * fails, it waits for memory (the ring is parked) or the turn is over.
 */
static enum vnpu_run vnpu_engine_execute(struct vnpu_engine *engine, struct vnpu_ring *ring,
					 struct vnpu_job *job, ktime_t turn_end,
					 struct vnpu_outcome *out)
{
	struct vnpu_device *vdev = engine->vdev;
	unsigned int since_check = 0;
	ktime_t now;

	if (!job->started) {
		job->started = true;
		job->deadline = ktime_add_ms(ktime_get(),
					     READ_ONCE(vnpu_param_job_timeout_ms));
		if (atomic_add_unless(&vdev->fail_next_job, -1, 0))
			return vnpu_fail(out, -EIO, VNPU_STREAM_ERROR_FAULT, 0);
	}

	while (job->next_task < job->num_tasks) {
		const struct vnpu_task *task = &job->tasks[job->next_task];
		enum vnpu_step step;
		int ret;

		if (task->kind == VNPU_TASK_OP) {
			ret = vnpu_task_run_op(ring, job, task);
			if (ret)
				return vnpu_op_failed(ring, job, ret, out);
			step = VNPU_STEP_DONE;
		} else {
			step = vnpu_task_step(job, task);
		}

		switch (step) {
		case VNPU_STEP_DONE:
			job->next_task++;
			job->next_offset = 0;
			if (vnpu_task_writes(task))
				vnpu_engines_notify_write(vdev);
			if (!vnpu_task_long(task) && ++since_check < VNPU_TASKS_PER_CHECK)
				continue;
			if (job->next_task == job->num_tasks)
				return VNPU_RUN_RETIRE;
			break;
		case VNPU_STEP_PARTIAL:
			break;
		case VNPU_STEP_BLOCKED:
			if (READ_ONCE(ring->cancelled))
				return vnpu_fail(out, -ECANCELED, VNPU_STREAM_ERROR_NONE, 0);
			if (ktime_after(ktime_get(), job->deadline))
				return vnpu_fail(out, -ETIMEDOUT, VNPU_STREAM_ERROR_TIMEOUT,
						 job->next_task);
			vnpu_engine_park(engine, ring, task, job->deadline);
			return VNPU_RUN_PARKED;
		}

		/* Between chunks, or every few short tasks. */
		since_check = 0;
		if (READ_ONCE(ring->cancelled))
			return vnpu_fail(out, -ECANCELED, VNPU_STREAM_ERROR_NONE, 0);
		now = ktime_get();
		if (ktime_after(now, job->deadline))
			return vnpu_fail(out, -ETIMEDOUT, VNPU_STREAM_ERROR_TIMEOUT,
					 job->next_task);
		if (vnpu_engine_turn_over(engine, turn_end, now))
			return VNPU_RUN_YIELD;
		cond_resched();
	}
	return VNPU_RUN_RETIRE;
}

/* One turn on the head job of @ring; @skip retires it unrun (-ECANCELED). */
static enum vnpu_run vnpu_engine_run(struct vnpu_engine *engine, struct vnpu_ring *ring,
				     struct vnpu_job *job, bool skip, ktime_t turn_end)
{
	struct vnpu_outcome out = {};
	struct vnpu_leftovers left;
	ktime_t start = ktime_get();
	enum vnpu_run run;
	u64 busy_ns;
	bool cookie;

	cookie = dma_fence_begin_signalling();
	if (skip)
		run = vnpu_fail(&out, -ECANCELED, VNPU_STREAM_ERROR_NONE, 0);
	else
		run = vnpu_engine_execute(engine, ring, job, turn_end, &out);
	busy_ns = skip ? 0 : ktime_to_ns(ktime_sub(ktime_get(), start));

	if (run != VNPU_RUN_RETIRE) {
		vnpu_ring_charge(ring, busy_ns);
		dma_fence_end_signalling(cookie);
		return run;
	}
	vnpu_engine_retire(ring, job, &out, busy_ns, &left);
	dma_fence_end_signalling(cookie);

	vnpu_leftovers_release(&left);
	return run;
}

/*
 * Serve @ring, just taken off the run queue: run its jobs in order until it
 * is empty (the engine lets go of it), parked, or its turn is over.
 */
static void vnpu_engine_serve(struct vnpu_engine *engine, struct vnpu_ring *ring)
{
	ktime_t turn_end = ktime_add_us(ktime_get(), VNPU_TURN_US);
	struct vnpu_job *job;
	enum vnpu_run run;
	bool skip;

	for (;;) {
		spin_lock(&ring->lock);
		job = list_first_entry_or_null(&ring->jobs, struct vnpu_job, ring_link);
		if (!job)
			ring->owned = false;
		skip = ring->cancelled || ring->error != VNPU_STREAM_ERROR_NONE;
		spin_unlock(&ring->lock);

		if (!job) {
			/* The reference vnpu_ring_push() took for the owner. */
			vnpu_stream_put(vnpu_ring_to_stream(ring));
			return;
		}

		run = vnpu_engine_run(engine, ring, job, skip, turn_end);
		if (run == VNPU_RUN_PARKED)
			return;
		if (run == VNPU_RUN_YIELD ||
		    vnpu_engine_turn_over(engine, turn_end, ktime_get())) {
			vnpu_engine_requeue(engine, ring);
			return;
		}
	}
}

/*
 * Run the head job of @ring, just made @engine's by vnpu_ring_push(), in
 * the calling scheduler thread. Whatever is left to do afterwards (the job
 * parked or yielded, or another job arrived meanwhile) is left to the
 * engine thread, which is woken for it.
 */
static void vnpu_engine_run_inline(struct vnpu_engine *engine, struct vnpu_ring *ring)
{
	struct vnpu_job *job;
	enum vnpu_run run;
	bool skip, idle;

	spin_lock(&ring->lock);
	job = list_first_entry(&ring->jobs, struct vnpu_job, ring_link);
	skip = ring->cancelled || ring->error != VNPU_STREAM_ERROR_NONE;
	spin_unlock(&ring->lock);

	run = vnpu_engine_run(engine, ring, job, skip,
			      ktime_add_us(ktime_get(), VNPU_TURN_US));
	if (run == VNPU_RUN_RETIRE) {
		spin_lock(&ring->lock);
		idle = list_empty(&ring->jobs);
		if (idle)
			ring->owned = false;
		spin_unlock(&ring->lock);
		if (idle) {
			/* The owner's reference; the job running here holds another. */
			vnpu_stream_put(vnpu_ring_to_stream(ring));
			return;
		}
		vnpu_engine_requeue(engine, ring);
	} else if (run == VNPU_RUN_YIELD) {
		vnpu_engine_requeue(engine, ring);
	}
	/* Queued, or parked (the thread must start polling for it). */
	wake_up_process(engine->thread);
}

/* ---------------------------------------------------------------- threads */

/* Re-check the parked rings if they are due: deadlines, CPU stores. */
static void vnpu_engine_poll(struct vnpu_engine *engine)
{
	ktime_t now;

	if (!READ_ONCE(engine->num_parked))
		return;
	now = ktime_get();
	if (ktime_before(now, engine->next_poll))
		return;
	engine->next_poll = ktime_add_us(now, VNPU_POLL_US);

	spin_lock(&engine->lock);
	vnpu_engine_check_parked_locked(engine, true, now);
	spin_unlock(&engine->lock);
}

/* Nothing runnable: sleep until woken, or until the next poll is due. */
static void vnpu_engine_sleep(struct vnpu_engine *engine)
{
	unsigned int runnable, parked;

	set_current_state(TASK_IDLE);
	spin_lock(&engine->lock);
	runnable = engine->num_runnable;
	parked = engine->num_parked;
	spin_unlock(&engine->lock);

	if (runnable || kthread_should_stop()) {
		__set_current_state(TASK_RUNNING);
		return;
	}
	if (parked) {
		ktime_t timeout = ktime_sub(engine->next_poll, ktime_get());

		if (ktime_to_ns(timeout) > 0)
			schedule_hrtimeout(&timeout, HRTIMER_MODE_REL);
	} else {
		schedule();
	}
	__set_current_state(TASK_RUNNING);
}

static int vnpu_engine_thread(void *data)
{
	struct vnpu_engine *engine = data;
	struct vnpu_ring *ring;

	while (!kthread_should_stop()) {
		vnpu_engine_poll(engine);
		ring = vnpu_engine_next(engine);
		if (!ring) {
			vnpu_engine_sleep(engine);
			continue;
		}
		vnpu_engine_serve(engine, ring);
		cond_resched();
	}
	return 0;
}

/* ---------------------------------------------------------------- setup */

static int vnpu_engine_init(struct vnpu_device *vdev, struct vnpu_engine *engine,
			    unsigned int index)
{
	unsigned int prio;
	int ret;

	engine->vdev = vdev;
	engine->index = index;
	spin_lock_init(&engine->fence_lock);
	spin_lock_init(&engine->lock);
	for (prio = 0; prio < VNPU_ENGINE_NUM_PRIOS; prio++)
		INIT_LIST_HEAD(&engine->runq[prio]);
	INIT_LIST_HEAD(&engine->parked);
	snprintf(engine->sched_name, sizeof(engine->sched_name), "vnpu%u-sched%u",
		 vdev->index, index);

	ret = vnpu_sched_init(&engine->sched, &vnpu_sched_ops, VNPU_ENGINE_CREDITS,
			      MAX_SCHEDULE_TIMEOUT, engine->sched_name, vdev->drm.dev);
	if (ret)
		return ret;

	engine->thread = kthread_run(vnpu_engine_thread, engine, "vnpu%u-engine%u",
				     vdev->index, index);
	if (IS_ERR(engine->thread)) {
		ret = PTR_ERR(engine->thread);
		drm_sched_fini(&engine->sched);
		return ret;
	}
	return 0;
}

static void vnpu_engine_fini(struct vnpu_engine *engine)
{
	drm_sched_fini(&engine->sched);
	kthread_stop(engine->thread);
	WARN_ON(engine->num_runnable || engine->num_parked);
}

/**
 * vnpu_engines_init() - create the engines of a device
 * @vdev: the device, with @vdev->num_engines set
 *
 * Return: 0 or a negative errno (and nothing created).
 */
int vnpu_engines_init(struct vnpu_device *vdev)
{
	unsigned int i;
	int ret;

	atomic_set(&vdev->num_parked, 0);
	atomic_set(&vdev->num_jobs, 0);
	init_waitqueue_head(&vdev->jobs_idle);

	vdev->engines = kcalloc(vdev->num_engines, sizeof(*vdev->engines), GFP_KERNEL);
	vdev->scheds = kcalloc(vdev->num_engines, sizeof(*vdev->scheds), GFP_KERNEL);
	if (!vdev->engines || !vdev->scheds) {
		ret = -ENOMEM;
		goto err_free;
	}

	for (i = 0; i < vdev->num_engines; i++) {
		ret = vnpu_engine_init(vdev, &vdev->engines[i], i);
		if (ret)
			goto err_fini;
		vdev->scheds[i] = &vdev->engines[i].sched;
	}
	return 0;

err_fini:
	while (i--)
		vnpu_engine_fini(&vdev->engines[i]);
err_free:
	kfree(vdev->scheds);
	kfree(vdev->engines);
	vdev->scheds = NULL;
	vdev->engines = NULL;
	return ret;
}

/**
 * vnpu_engines_fini() - stop and free the engines of a device
 * @vdev: the device; every file is closed, so every stream is destroyed
 *
 * Waits until the last job of the device has been retired and freed (the
 * jobs of destroyed streams are cancelled, so this does not wait for work
 * to run; only jobs still waiting for another driver's fence could delay
 * it), then stops the schedulers and the engine threads.
 */
void vnpu_engines_fini(struct vnpu_device *vdev)
{
	unsigned int i;

	wait_event(vdev->jobs_idle, !atomic_read(&vdev->num_jobs));
	for (i = vdev->num_engines; i-- > 0;)
		vnpu_engine_fini(&vdev->engines[i]);
	kfree(vdev->scheds);
	kfree(vdev->engines);
	vdev->scheds = NULL;
	vdev->engines = NULL;
}
