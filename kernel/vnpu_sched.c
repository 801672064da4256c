// SPDX-License-Identifier: GPL-2.0
/*
 * The scheduler: one queue per stream.
 *
 * There is one scheduler, this one. Each stream keeps its unfinished jobs
 * in seqno order. The first, the head, becomes ready once its dependencies
 * (in-fences, colliding workspace of other streams: struct vnpu_deps) have
 * signalled, and waits on the device's ready queue of its priority. The
 * engine server's workers take ready jobs (VNPU_ENGINE_IOCTL_RUN,
 * vnpu_engine.c), highest priority first, oldest first within a priority;
 * so streams take turns. With a head the worker also takes the jobs right
 * behind it whose dependencies are met (a run of the stream, handed out in
 * order to one worker, which runs them in order): back-to-back small jobs
 * then cost one RUN per run, not per job. When the server reports a job
 * done, the job is retired (its fence signalled) and the stream's next job
 * may become ready. A job behind one that did not end well comes back
 * unrun (VNPU_ENGINE_DONE_NOT_RUN) and is queued again as if never handed
 * out. drm_sched is not used: its
 * entities pipeline jobs of one stream into an in-order hardware ring,
 * which an engine server serving many streams out of order is not, and
 * its credits, timeouts and entity teardown would all have to be worked
 * around (docs/engine.md says more).
 *
 * Waiting for values. The server stops a job at a WAIT_VALUE whose word
 * does not satisfy it and reports it BLOCKED; the job is parked here. The
 * parked waits are looked at again when the server reports jobs done, when
 * it says a running job wrote memory (NOTIFY) and when a client says the
 * host wrote memory (SIGNAL); a wait that holds sends its job back to the
 * ready queue, resuming after the wait. Nothing polls.
 *
 * Time. A job's deadline is set when it is first handed out: now plus its
 * stream's VNPU_STREAM_PARAM_JOB_TIMEOUT_MS as it was at submit, or the
 * job_timeout_ms parameter if that was 0. Its timer then fires at the deadline: a job
 * off the engine (ready or parked) fails at once; one on the engine is
 * asked to stop (its slot's cancel word) and fails when the server
 * reports it. A cancelled job the server still holds when the cancel grace
 * (VNPU_ENGINE_GRACE_MS) runs out makes the kernel reset the engine
 * server: it cannot be trusted to stop.
 *
 * Ending jobs. Exactly one thread decides how a job ends (it moves the
 * job to VNPU_JOB_ENDING, with &vnpu_job.end). Jobs are retired only as
 * their stream's head and under the stream's retire lock, by whichever
 * thread holds it: it retires every decided job at the head, in order
 * (vnpu_sched_flush()), so a stream's fences signal in seqno order
 * however many threads decide its jobs' ends. After a job that failed its
 * stream, or in a destroyed stream, the jobs behind it are skipped the
 * same way, one by one: their dependency callbacks are removed first,
 * outside the scheduler lock, as removing one may wait for a running
 * callback that wants that lock.
 *
 * Locking: &vnpu_stream.retire_lock, then &vnpu_sched.lock. Fences are
 * signalled, and job references dropped, outside the scheduler lock,
 * always in process context.
 */
#include <linux/dma-fence.h>
#include <linux/hrtimer.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "vnpu_deps.h"
#include "vnpu_drv.h"
#include "vnpu_engine.h"
#include "vnpu_gem.h"
#include "vnpu_job.h"
#include "vnpu_sched.h"
#include "vnpu_stream.h"
#include "vnpu_vm.h"

static struct vnpu_sched *vnpu_sched_of(struct vnpu_stream *stream)
{
	return &stream->vdev->sched;
}

/* ---------------------------------------------------------------- setup */

/**
 * vnpu_sched_init() - initialise a device's scheduler
 * @vdev: the device
 *
 * Return: 0 or -ENOMEM.
 */
int vnpu_sched_init(struct vnpu_device *vdev)
{
	struct vnpu_sched *sched = &vdev->sched;
	unsigned int prio;

	spin_lock_init(&sched->lock);
	for (prio = 0; prio < VNPU_SCHED_NUM_PRIOS; prio++)
		INIT_LIST_HEAD(&sched->ready[prio]);
	INIT_LIST_HEAD(&sched->parked);
	INIT_LIST_HEAD(&sched->busy);
	init_waitqueue_head(&sched->workers);
	atomic_set(&sched->waiting, 0);
	atomic_set(&sched->num_jobs, 0);
	init_waitqueue_head(&sched->jobs_idle);
	sched->wq = alloc_workqueue("vnpu%u", WQ_UNBOUND, 0, vdev->index);
	return sched->wq ? 0 : -ENOMEM;
}

/**
 * vnpu_sched_fini() - tear down a device's scheduler
 * @vdev: the device; every file is closed and no engine is attached, so
 *	every stream is destroyed and its jobs are ending
 *
 * Waits until the last job of the device is freed (only jobs still
 * waiting for their timeout work or another thread's retire can remain),
 * then for the work queue.
 */
void vnpu_sched_fini(struct vnpu_device *vdev)
{
	struct vnpu_sched *sched = &vdev->sched;

	wait_event(sched->jobs_idle, !atomic_read(&sched->num_jobs));
	destroy_workqueue(sched->wq);
	WARN_ON(sched->num_ready || sched->num_parked || !list_empty(&sched->busy));
}

/**
 * vnpu_sched_prio() - ready queue of a stream priority
 * @priority: VNPU_PRIORITY_*, already checked
 *
 * Return: the queue.
 */
enum vnpu_sched_prio vnpu_sched_prio(u32 priority)
{
	switch (priority) {
	case VNPU_PRIORITY_HIGH:
		return VNPU_SCHED_PRIO_HIGH;
	case VNPU_PRIORITY_LOW:
		return VNPU_SCHED_PRIO_LOW;
	default:
		return VNPU_SCHED_PRIO_NORMAL;
	}
}

/**
 * vnpu_sched_stream_init() - initialise the scheduling state of a stream
 * @stream: the new stream
 * @vfile: file to charge engine time to
 */
void vnpu_sched_stream_init(struct vnpu_stream *stream, struct vnpu_file *vfile)
{
	INIT_LIST_HEAD(&stream->jobs);
	INIT_LIST_HEAD(&stream->busy_link);
	mutex_init(&stream->retire_lock);
	stream->vfile = vfile;
	stream->fence_context = dma_fence_context_alloc(1);
}

/* ---------------------------------------------------------------- queues */

static struct vnpu_job *vnpu_stream_head_locked(struct vnpu_stream *stream)
{
	lockdep_assert_held(&vnpu_sched_of(stream)->lock);
	return list_first_entry_or_null(&stream->jobs, struct vnpu_job, link);
}

static struct vnpu_engine *vnpu_sched_engine_locked(struct vnpu_sched *sched)
{
	lockdep_assert_held(&sched->lock);
	return sched->engine;
}

/* Put @job, its stream's head with its dependencies met, on a ready queue. */
static void vnpu_sched_make_ready_locked(struct vnpu_sched *sched, struct vnpu_job *job)
{
	lockdep_assert_held(&sched->lock);
	job->state = VNPU_JOB_READY;
	list_add_tail(&job->queue_link, &sched->ready[vnpu_sched_prio(job->stream->priority)]);
	sched->num_ready++;
	/*
	 * A polling worker takes it in its next RUN: waking a sleeping one
	 * too would only cost a wake-up. Else one worker: each takes what it
	 * can, the next is woken for the rest.
	 */
	if (sched->engine && atomic_read(&sched->engine->pollers))
		return;
	if (wq_has_sleeper(&sched->workers))
		wake_up_sync(&sched->workers);
}

/* The job after @job in its stream, or NULL. */
static struct vnpu_job *vnpu_stream_next_locked(struct vnpu_job *job)
{
	struct vnpu_stream *stream = job->stream;

	lockdep_assert_held(&vnpu_sched_of(stream)->lock);
	return list_is_last(&job->link, &stream->jobs) ? NULL : list_next_entry(job, link);
}

/* The job before @job in its stream, or NULL. */
static struct vnpu_job *vnpu_stream_prev_locked(struct vnpu_job *job)
{
	struct vnpu_stream *stream = job->stream;

	lockdep_assert_held(&vnpu_sched_of(stream)->lock);
	return list_is_first(&job->link, &stream->jobs) ? NULL : list_prev_entry(job, link);
}

/*
 * Is @job of @stream to end without running (further)? Its stream is
 * destroyed or failed, or the job was discarded (STREAM_ABORT).
 */
static bool vnpu_sched_skips_locked(const struct vnpu_stream *stream, const struct vnpu_job *job)
{
	return stream->cancelled || stream->error != VNPU_STREAM_ERROR_NONE ||
	       job->seqno <= stream->abort_seqno;
}

/* Make @stream's head ready if it may run. */
static void vnpu_sched_advance_locked(struct vnpu_sched *sched, struct vnpu_stream *stream)
{
	struct vnpu_job *head = vnpu_stream_head_locked(stream);

	if (head && head->state == VNPU_JOB_QUEUED && head->deps_met &&
	    !vnpu_sched_skips_locked(stream, head))
		vnpu_sched_make_ready_locked(sched, head);
}

/* Take @job off the ready queue or the parked list, whichever it is on. */
static void vnpu_sched_unqueue_locked(struct vnpu_sched *sched, struct vnpu_job *job)
{
	lockdep_assert_held(&sched->lock);
	if (job->state == VNPU_JOB_READY) {
		list_del_init(&job->queue_link);
		sched->num_ready--;
	} else if (job->state == VNPU_JOB_PARKED) {
		list_del_init(&job->queue_link);
		sched->num_parked--;
		if (sched->engine)
			vnpu_engine_set_parked(sched->engine, sched->num_parked);
	}
}

/*
 * Ask the engine to stop @job, which it holds: set the slot's cancel word
 * and start the grace, at whose end the job's timer resets the engine if
 * the job is still held. The caller (re)arms the timer at the deadline.
 */
static void vnpu_sched_stop_locked(struct vnpu_sched *sched, struct vnpu_job *job)
{
	lockdep_assert_held(&sched->lock);
	job->cancel = true;
	if (sched->engine)
		vnpu_engine_set_cancel(sched->engine, job->slot, true);
	job->deadline = ktime_add_ms(ktime_get(), VNPU_ENGINE_GRACE_MS);
}

/*
 * @job failed with @error at its @task (no-op for error 0): count it and,
 * unless the job was discarded, or submitted to go on after a failure
 * (which an engine loss overrides), fail @stream, unless it failed already.
 */
static void vnpu_stream_fail_locked(struct vnpu_stream *stream, struct vnpu_job *job,
				    u32 error, u32 task)
{
	lockdep_assert_held(&vnpu_sched_of(stream)->lock);
	if (!error)
		return;
	stream->failed_jobs++;
	stream->last_error = error;
	stream->last_failed_task = task;
	stream->last_failed_seqno = job->seqno;
	if (job->seqno <= stream->abort_seqno || stream->error != VNPU_STREAM_ERROR_NONE)
		return;
	if (job->failure_mode == VNPU_FAILURE_CONTINUE && error != VNPU_STREAM_ERROR_ENGINE)
		return;
	stream->failed_task = task;
	stream->failed_seqno = job->seqno;
	WRITE_ONCE(stream->error, error);
}

/* ---------------------------------------------------------------- retire */

/* @job, taken off every queue and slot, ends with @end: mark it so. */
static void vnpu_sched_set_end_locked(struct vnpu_job *job, const struct vnpu_job_end *end)
{
	lockdep_assert_held(&job->vdev->sched.lock);
	job->state = VNPU_JOB_ENDING;
	job->end = *end;
}

/* The fence error of a job skipped in @stream: failed, destroyed or aborted. */
static int vnpu_sched_skip_error(struct vnpu_stream *stream, struct vnpu_job *job)
{
	if (stream->cancelled)
		return job->started ? -ECANCELED : -ESRCH;
	if (stream->error == VNPU_STREAM_ERROR_ENGINE)
		return -EPIPE;
	return -ECANCELED;
}

/*
 * Retire @job, the head of its stream, whose end is decided (ENDING): take
 * it off the stream, record the outcome, let the stream go on, signal the
 * fence. Drops the scheduler's reference. Caller holds the stream's retire
 * lock and a reference on the stream.
 */
static void vnpu_sched_end(struct vnpu_job *job)
{
	const struct vnpu_job_end *out = &job->end;
	struct vnpu_stream *stream = job->stream;
	struct vnpu_sched *sched = vnpu_sched_of(stream);
	struct dma_fence *fence = &job->fence->base;

	lockdep_assert_held(&stream->retire_lock);
	spin_lock_irq(&sched->lock);
	WARN_ON(job->state != VNPU_JOB_ENDING || vnpu_stream_head_locked(stream) != job);
	list_del_init(&job->link);
	job->state = VNPU_JOB_DONE;
	WRITE_ONCE(stream->completed_seqno, job->seqno);
	vnpu_stream_fail_locked(stream, job, out->stream_error, out->task);
	if (stream->vfile)
		atomic64_add(out->busy_ns, &stream->vfile->engine_busy_ns);
	if (list_empty(&stream->jobs))
		list_del_init(&stream->busy_link);
	else
		vnpu_sched_advance_locked(sched, stream);
	spin_unlock_irq(&sched->lock);

	vnpu_job_give_quota(job);
	if (out->fence_error)
		dma_fence_set_error(fence, out->fence_error);
	dma_fence_signal(fence);

	hrtimer_cancel(&job->timer);
	vnpu_job_put(job);
}

/*
 * Retire what can be retired at the head of @stream, in order: jobs whose
 * end is decided (by whichever thread decided it), and, once the stream
 * failed or is destroyed, or for discarded jobs, the jobs off the engine, skipped (their
 * dependency callbacks removed first: they may signal much later, or
 * never). Stops at a job the engine holds or one still to run. Caller
 * holds the stream's retire lock and a reference on it.
 */
static void vnpu_sched_flush(struct vnpu_stream *stream)
{
	struct vnpu_sched *sched = vnpu_sched_of(stream);
	struct vnpu_job *head;
	bool skip;

	lockdep_assert_held(&stream->retire_lock);
	for (;;) {
		spin_lock_irq(&sched->lock);
		head = vnpu_stream_head_locked(stream);
		skip = head && vnpu_sched_skips_locked(stream, head);
		if (!head || head->state == VNPU_JOB_RUNNING ||
		    (head->state != VNPU_JOB_ENDING && !skip)) {
			spin_unlock_irq(&sched->lock);
			return;
		}
		if (head->state != VNPU_JOB_ENDING) {
			vnpu_sched_unqueue_locked(sched, head);
			vnpu_sched_set_end_locked(head, &(struct vnpu_job_end){
				.fence_error = vnpu_sched_skip_error(stream, head) });
			spin_unlock_irq(&sched->lock);
			vnpu_deps_disarm(head->deps);
		} else {
			spin_unlock_irq(&sched->lock);
		}
		vnpu_sched_end(head);
	}
}

/* Retire what can be at the head of @stream, under its retire lock. */
static void vnpu_sched_flush_stream(struct vnpu_stream *stream)
{
	/* A job being retired may hold the last reference to its stream. */
	vnpu_stream_get(stream);
	mutex_lock(&stream->retire_lock);
	vnpu_sched_flush(stream);
	mutex_unlock(&stream->retire_lock);
	vnpu_stream_put(stream);
}

/*
 * The jobs on @ending (by queue_link; each with a reference of the caller,
 * dropped here) have their end decided: retire them, and what is behind
 * them. Another thread may retire one first, as part of its stream's head.
 */
static void vnpu_sched_finish_list(struct list_head *ending)
{
	struct vnpu_job *job, *next;

	list_for_each_entry_safe(job, next, ending, queue_link) {
		list_del_init(&job->queue_link);
		vnpu_sched_flush_stream(job->stream);
		vnpu_job_put(job);
	}
}

/* ---------------------------------------------------------------- streams */

/**
 * vnpu_sched_stream_failed() - has a job of the stream failed?
 * @stream: the stream
 *
 * Return: true once the stream is in an error state (it stays there until
 * STREAM_ABORT).
 */
bool vnpu_sched_stream_failed(struct vnpu_stream *stream)
{
	return READ_ONCE(stream->error) != VNPU_STREAM_ERROR_NONE;
}

/*
 * Ask every job of @stream that is to end (vnpu_sched_skips_locked()) and
 * that the engine holds to stop, and end those on a ready queue or parked;
 * queued ones are skipped by the flush, which removes their dependency
 * callbacks outside the lock. The caller marked the stream (destroyed,
 * failed, or its jobs discarded) in the same hold of the scheduler lock.
 */
static void vnpu_sched_stop_jobs_locked(struct vnpu_sched *sched, struct vnpu_stream *stream)
{
	struct vnpu_job *job;

	lockdep_assert_held(&sched->lock);
	list_for_each_entry(job, &stream->jobs, link) {
		if (!vnpu_sched_skips_locked(stream, job))
			continue;
		switch (job->state) {
		case VNPU_JOB_RUNNING:
			if (job->cancel)
				break;	/* asked already (a timeout) */
			vnpu_sched_stop_locked(sched, job);
			hrtimer_start(&job->timer, job->deadline, HRTIMER_MODE_ABS);
			break;
		case VNPU_JOB_READY:
		case VNPU_JOB_PARKED:
			/* Its dependencies have all signalled: nothing to disarm. */
			vnpu_sched_unqueue_locked(sched, job);
			vnpu_sched_set_end_locked(job, &(struct vnpu_job_end){
				.fence_error = vnpu_sched_skip_error(stream, job) });
			break;
		default:	/* QUEUED: skipped by the flush; ENDING: decided */
			break;
		}
	}
}

/**
 * vnpu_sched_stream_cancel() - the stream is being destroyed: end its work
 * @stream: the stream; nothing can be pushed to it any more
 *
 * Jobs off the engine end at once (-ESRCH, or -ECANCELED for one that had
 * started: ready again after a wait, or parked); jobs the engine holds are
 * asked to stop and end when the server reports them, the jobs behind
 * them right after. Engine time is no longer charged to the file. Never waits
 * for the engine.
 *
 * All of it happens in one hold of the scheduler lock, in which the stream
 * is marked cancelled: a job on a ready queue or the parked list could
 * otherwise be handed out (or woken and handed out) once the lock is
 * dropped and before the jobs off the engine are ended, and run with no
 * cancel word. Every job the engine holds is asked to stop, wherever it
 * is in the stream: behind a parked head (reported BLOCKED before the
 * jobs handed out with it were reported) or behind a head whose end is
 * being carried out, not only those in a row from the head. From then on
 * no job of the stream is handed out (nothing makes it ready), so a held
 * one reported BLOCKED ends instead of parking. The queued jobs are
 * skipped by the flush, which removes their dependency callbacks outside
 * the lock.
 */
void vnpu_sched_stream_cancel(struct vnpu_stream *stream)
{
	struct vnpu_sched *sched = vnpu_sched_of(stream);

	mutex_lock(&stream->retire_lock);
	spin_lock_irq(&sched->lock);
	stream->cancelled = true;
	stream->vfile = NULL;
	vnpu_sched_stop_jobs_locked(sched, stream);
	spin_unlock_irq(&sched->lock);
	vnpu_sched_flush(stream);
	mutex_unlock(&stream->retire_lock);
}

/**
 * vnpu_sched_stream_abort() - discard a stream's jobs, or stop the stream
 * @stream: the stream
 * @upto: seqno of the last job submitted before the abort
 * @stop: fail the stream (VNPU_STREAM_ERROR_CANCELED) instead of
 *	discarding jobs up to @upto and clearing its failure
 *
 * The jobs end as in vnpu_sched_stream_cancel(), with -ECANCELED, in one
 * hold of the scheduler lock that also marks them: none is handed out
 * afterwards. Jobs pushed later, with later seqnos, run once these have
 * ended (unless @stop failed the stream). Never waits for the engine.
 *
 * Return: the stream's completed seqno before the abort.
 */
u64 vnpu_sched_stream_abort(struct vnpu_stream *stream, u64 upto, bool stop)
{
	struct vnpu_sched *sched = vnpu_sched_of(stream);
	struct vnpu_job *head;
	u64 completed;

	mutex_lock(&stream->retire_lock);
	spin_lock_irq(&sched->lock);
	completed = stream->completed_seqno;
	if (!stop) {
		stream->abort_seqno = max(stream->abort_seqno, upto);
		stream->failed_task = 0;
		stream->failed_seqno = 0;
		WRITE_ONCE(stream->error, VNPU_STREAM_ERROR_NONE);
	} else if (stream->error == VNPU_STREAM_ERROR_NONE) {
		head = vnpu_stream_head_locked(stream);
		stream->failed_task = head ? head->first_task : 0;
		stream->failed_seqno = head ? head->seqno : 0;
		WRITE_ONCE(stream->error, VNPU_STREAM_ERROR_CANCELED);
	}
	vnpu_sched_stop_jobs_locked(sched, stream);
	spin_unlock_irq(&sched->lock);
	vnpu_sched_flush(stream);
	mutex_unlock(&stream->retire_lock);
	return completed;
}

/**
 * vnpu_sched_stream_status() - snapshot of a stream's progress and state
 * @stream: the stream
 * @status: out
 */
void vnpu_sched_stream_status(struct vnpu_stream *stream, struct vnpu_stream_status *status)
{
	struct vnpu_sched *sched = vnpu_sched_of(stream);
	struct vnpu_job *head;

	spin_lock_irq(&sched->lock);
	status->completed_seqno = stream->completed_seqno;
	status->error = stream->error;
	status->failed_task = stream->failed_task;
	status->failed_seqno = stream->failed_seqno;
	status->failed_jobs = stream->failed_jobs;
	status->last_error = stream->last_error;
	status->last_failed_task = stream->last_failed_task;
	status->last_failed_seqno = stream->last_failed_seqno;
	head = vnpu_stream_head_locked(stream);
	status->running = head && (head->state == VNPU_JOB_READY ||
				   head->state == VNPU_JOB_RUNNING ||
				   head->state == VNPU_JOB_PARKED);
	status->parked = head && head->state == VNPU_JOB_PARKED;
	spin_unlock_irq(&sched->lock);
}

/* ---------------------------------------------------------------- jobs */

static void vnpu_job_timeout_work(struct work_struct *work)
{
	struct vnpu_job *job = container_of(work, struct vnpu_job, timeout_work);

	vnpu_sched_flush_stream(job->stream);
	vnpu_job_put(job);	/* the work's own */
}

/*
 * The job's deadline, or the end of its cancel grace. A job off the engine
 * times out here (its end needs process context: the work queue); one on
 * the engine is asked to stop; one that was asked and is still held at the
 * end of the grace gets the engine reset.
 */
static enum hrtimer_restart vnpu_job_timer(struct hrtimer *timer)
{
	struct vnpu_job *job = container_of(timer, struct vnpu_job, timer);
	struct vnpu_sched *sched = &job->vdev->sched;
	enum hrtimer_restart ret = HRTIMER_NORESTART;
	unsigned long flags;

	spin_lock_irqsave(&sched->lock, flags);
	/* Handed back unrun meanwhile: the clock starts again at hand-out. */
	if (!job->started)
		goto unlock;
	if (ktime_before(ktime_get(), job->deadline)) {
		/* Moved (a cancel set the grace) while this one fired. */
		hrtimer_set_expires(timer, job->deadline);
		ret = HRTIMER_RESTART;
		goto unlock;
	}
	switch (job->state) {
	case VNPU_JOB_READY:
	case VNPU_JOB_PARKED:
		vnpu_sched_unqueue_locked(sched, job);
		job->timed_out = true;
		vnpu_sched_set_end_locked(job, &(struct vnpu_job_end){
			.fence_error = -ETIMEDOUT,
			.stream_error = VNPU_STREAM_ERROR_TIMEOUT,
			.task = job->first_task });
		queue_work(sched->wq, &vnpu_job_get(job)->timeout_work);
		break;
	case VNPU_JOB_QUEUED:
		/* Its wait is over, the job before it is being retired: soon ready. */
		hrtimer_forward_now(timer, ms_to_ktime(1));
		ret = HRTIMER_RESTART;
		break;
	case VNPU_JOB_RUNNING:
		if (!job->cancel) {
			job->timed_out = true;
			vnpu_sched_stop_locked(sched, job);
			hrtimer_set_expires(timer, job->deadline);
			ret = HRTIMER_RESTART;
		} else if (sched->engine) {
			vnpu_engine_schedule_reset(sched->engine);
		}
		break;
	default:
		break;
	}
unlock:
	spin_unlock_irqrestore(&sched->lock, flags);
	return ret;
}

/**
 * vnpu_sched_job_init() - initialise the scheduling state of a new job
 * @job: the job
 */
void vnpu_sched_job_init(struct vnpu_job *job)
{
	INIT_LIST_HEAD(&job->link);
	INIT_LIST_HEAD(&job->queue_link);
	job->state = VNPU_JOB_QUEUED;
	hrtimer_init(&job->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	job->timer.function = vnpu_job_timer;
	INIT_WORK(&job->timeout_work, vnpu_job_timeout_work);
	atomic_inc(&job->vdev->sched.num_jobs);
}

/**
 * vnpu_sched_push() - queue a job at the end of its stream
 * @job: the job, with its seqno and fence set and its dependencies armed
 *	but not released; the scheduler takes a reference
 *
 * Caller holds the stream's submit lock and checked that the stream is
 * not destroyed. Allocates nothing, so the only failures are states.
 *
 * Return: 0; -ENOTCONN without an engine server, -EIO if the stream has
 * failed (nothing queued).
 */
int vnpu_sched_push(struct vnpu_job *job)
{
	struct vnpu_stream *stream = job->stream;
	struct vnpu_sched *sched = vnpu_sched_of(stream);
	int ret = 0;

	spin_lock_irq(&sched->lock);
	if (!vnpu_sched_engine_locked(sched)) {
		ret = -ENOTCONN;
	} else if (stream->error != VNPU_STREAM_ERROR_NONE) {
		ret = -EIO;
	} else {
		if (list_empty(&stream->jobs))
			list_add_tail(&stream->busy_link, &sched->busy);
		list_add_tail(&job->link, &stream->jobs);
		vnpu_job_get(job);	/* the scheduler's, put at retire */
	}
	spin_unlock_irq(&sched->lock);
	return ret;
}

/**
 * vnpu_sched_deps_met() - every dependency of a job has signalled
 * @priv: the job
 *
 * Called once per job (struct vnpu_deps), in any context; for a job
 * without dependencies by the submit.
 */
void vnpu_sched_deps_met(void *priv)
{
	struct vnpu_job *job = priv;
	struct vnpu_sched *sched = &job->vdev->sched;
	unsigned long flags;

	spin_lock_irqsave(&sched->lock, flags);
	job->deps_met = true;
	if (job->state == VNPU_JOB_QUEUED && vnpu_stream_head_locked(job->stream) == job)
		vnpu_sched_advance_locked(sched, job->stream);
	spin_unlock_irqrestore(&sched->lock, flags);
}

/* ---------------------------------------------------------------- waits */

/* Does the word of @job's current WAIT_VALUE task satisfy it? */
static bool vnpu_wait_holds(struct vnpu_job *job)
{
	const struct drm_vnpu_engine_task *t = &job->tasks[job->first_task];
	void *addr = vnpu_job_operand_kaddr(job, t->operand);
	bool is64 = t->flags & VNPU_TASK_VALUE_64;
	u64 word = is64 ? READ_ONCE(*(u64 *)addr) : READ_ONCE(*(u32 *)addr);

	return vnpu_wait_cond_holds(t->cmp, is64, word, t->value) > 0;
}

/*
 * @job's wait holds: ready again, or, while the job before it (reported
 * with it) is still being retired, queued: that job's retire makes it
 * ready.
 */
static void vnpu_sched_wait_over_locked(struct vnpu_sched *sched, struct vnpu_job *job)
{
	if (vnpu_stream_head_locked(job->stream) == job) {
		vnpu_sched_make_ready_locked(sched, job);
	} else {
		job->state = VNPU_JOB_QUEUED;
		job->deps_met = true;
	}
}

/* Send the parked jobs whose wait now holds back to the ready queues. */
static unsigned int vnpu_sched_check_waits_locked(struct vnpu_sched *sched)
{
	struct vnpu_job *job, *next;
	unsigned int woken = 0;

	lockdep_assert_held(&sched->lock);
	if (!sched->num_parked)
		return 0;
	sched->wait_checks++;
	list_for_each_entry_safe(job, next, &sched->parked, queue_link) {
		if (!vnpu_wait_holds(job))
			continue;
		vnpu_sched_unqueue_locked(sched, job);
		job->first_task++;
		vnpu_sched_wait_over_locked(sched, job);
		woken++;
	}
	return woken;
}

/**
 * vnpu_sched_check_waits() - memory was written: look at the parked waits
 * @vdev: the device
 *
 * Return: how many waits now hold (their jobs are ready again).
 */
unsigned int vnpu_sched_check_waits(struct vnpu_device *vdev)
{
	struct vnpu_sched *sched = &vdev->sched;
	unsigned int woken;

	spin_lock_irq(&sched->lock);
	woken = vnpu_sched_check_waits_locked(sched);
	spin_unlock_irq(&sched->lock);
	return woken;
}

/* The server stopped @job (RUNNING, out of its slot) at WAIT_VALUE @task. */
static void vnpu_sched_park_locked(struct vnpu_sched *sched, struct vnpu_job *job, u32 task)
{
	lockdep_assert_held(&sched->lock);
	job->first_task = task;
	/* A write may have come between the server's look and now. */
	if (vnpu_wait_holds(job)) {
		job->first_task++;
		vnpu_sched_wait_over_locked(sched, job);
		return;
	}
	job->state = VNPU_JOB_PARKED;
	list_add_tail(&job->queue_link, &sched->parked);
	sched->num_parked++;
	if (sched->engine)
		vnpu_engine_set_parked(sched->engine, sched->num_parked);
}

/* ---------------------------------------------------------------- engine */

/**
 * vnpu_sched_attach() - an engine server attaches
 * @vdev: the device
 * @engine: the new attachment
 *
 * Return: true, or false if another one is attached.
 */
bool vnpu_sched_attach(struct vnpu_device *vdev, struct vnpu_engine *engine)
{
	struct vnpu_sched *sched = &vdev->sched;
	bool ok;

	spin_lock_irq(&sched->lock);
	ok = !sched->engine;
	if (ok) {
		sched->engine = engine;
		vnpu_engine_set_parked(engine, sched->num_parked);
	}
	spin_unlock_irq(&sched->lock);
	return ok;
}

/**
 * vnpu_sched_attached() - is an engine server attached?
 * @vdev: the device
 *
 * Return: true if one is.
 */
bool vnpu_sched_attached(struct vnpu_device *vdev)
{
	return !!READ_ONCE(vdev->sched.engine);
}

/* Take @job, RUNNING, out of its slot. */
static void vnpu_sched_free_slot_locked(struct vnpu_sched *sched, struct vnpu_job *job)
{
	lockdep_assert_held(&sched->lock);
	sched->slots[job->slot] = NULL;
	sched->slots_used--;
}

/**
 * vnpu_sched_fail_all() - fail every unfinished job of the device
 * @vdev: the device, whose engine was detached (vnpu_sched_detach_begin())
 *	and no longer reaches any buffer
 *
 * Every stream with unfinished jobs fails with VNPU_STREAM_ERROR_ENGINE
 * (unless it failed or was destroyed already); every job ends with fence
 * error -EPIPE, those the engine held first. A job another thread is
 * ending (a timeout) is left to it: that thread skips the rest after it.
 * Nothing can be queued meanwhile: a submit without an engine fails.
 */
void vnpu_sched_fail_all(struct vnpu_device *vdev)
{
	const struct vnpu_job_end lost = {
		.fence_error = -EPIPE,
		.stream_error = VNPU_STREAM_ERROR_ENGINE,
	};
	struct vnpu_sched *sched = &vdev->sched;
	struct vnpu_stream *stream;
	struct vnpu_job *head, *job;
	LIST_HEAD(todo);

	spin_lock_irq(&sched->lock);
	list_splice_init(&sched->busy, &todo);
	while (!list_empty(&todo)) {
		/* Back on the busy list; it leaves it once it has no job. */
		stream = list_first_entry(&todo, struct vnpu_stream, busy_link);
		list_move_tail(&stream->busy_link, &sched->busy);
		vnpu_stream_get(stream);
		spin_unlock_irq(&sched->lock);

		mutex_lock(&stream->retire_lock);
		spin_lock_irq(&sched->lock);
		head = vnpu_stream_head_locked(stream);
		if (head && head->state != VNPU_JOB_ENDING && !stream->cancelled)
			vnpu_stream_fail_locked(stream, head, lost.stream_error, head->first_task);
		/*
		 * Every job the engine lost ends here, wherever it is in the
		 * stream (behind a parked head, or one another thread is
		 * ending, too: no server is left to report it); the rest is
		 * skipped.
		 */
		list_for_each_entry(job, &stream->jobs, link) {
			if (job->state != VNPU_JOB_RUNNING)
				continue;
			vnpu_sched_free_slot_locked(sched, job);
			vnpu_sched_set_end_locked(job, &lost);
		}
		spin_unlock_irq(&sched->lock);
		vnpu_sched_flush(stream);
		mutex_unlock(&stream->retire_lock);
		vnpu_stream_put(stream);
		spin_lock_irq(&sched->lock);
	}
	spin_unlock_irq(&sched->lock);
}

/**
 * vnpu_sched_detach_begin() - the engine server detaches, dies or is reset
 * @vdev: the device
 * @engine: the attachment
 *
 * The device stops handing it jobs and taking its reports (its ioctls
 * fail with -ENOTCONN) and its waiting workers are woken. The caller then
 * takes the buffers out of its mappings and fails the device's unfinished
 * jobs (vnpu_sched_fail_all()).
 *
 * Return: true if @engine was attached (and is not any more).
 */
bool vnpu_sched_detach_begin(struct vnpu_device *vdev, struct vnpu_engine *engine)
{
	struct vnpu_sched *sched = &vdev->sched;
	bool was;

	spin_lock_irq(&sched->lock);
	was = sched->engine == engine;
	if (was) {
		WRITE_ONCE(engine->dead, true);
		sched->engine = NULL;
	}
	spin_unlock_irq(&sched->lock);
	if (was)
		wake_up_all(&sched->workers);
	return was;
}

/**
 * vnpu_sched_has_jobs() - is there a job for the engine to take?
 * @vdev: the device
 * @engine: the attachment asking
 *
 * Return: true if a job is ready or @engine was detached (its worker must
 * stop waiting).
 */
bool vnpu_sched_has_jobs(struct vnpu_device *vdev, struct vnpu_engine *engine)
{
	return READ_ONCE(vdev->sched.num_ready) || READ_ONCE(engine->dead);
}

/* A free slot; there is one (the caller checked slots_used). */
static u32 vnpu_sched_slot_locked(struct vnpu_sched *sched)
{
	u32 slot = sched->next_slot;

	lockdep_assert_held(&sched->lock);
	while (sched->slots[slot])
		slot = (slot + 1) % VNPU_ENGINE_SLOTS;
	sched->next_slot = (slot + 1) % VNPU_ENGINE_SLOTS;
	return slot;
}

/*
 * Hand @job, ready (@head, off its queue already) or queued right behind a
 * job handed out with it, to the engine in a free slot; the first time,
 * start its clock. Injected faults (debugfs) hit heads only: the caller
 * reports them failed before handing out anything behind them.
 */
static void vnpu_sched_hand_out_locked(struct vnpu_sched *sched, struct vnpu_job *job,
				       u32 engine_index, bool head)
{
	struct vnpu_device *vdev = job->vdev;

	lockdep_assert_held(&sched->lock);
	job->state = VNPU_JOB_RUNNING;
	job->engine_index = engine_index;
	job->slot = vnpu_sched_slot_locked(sched);
	sched->slots[job->slot] = job;
	sched->slots_used++;
	/*
	 * The slot's word says whether the job was asked to stop: a head
	 * given back after a timeout asked it (vnpu_sched_give_back_locked()
	 * keeps &vnpu_job.cancel) is still asked, not handed out with a clear
	 * word that no later cancel would set (they skip a job asked already).
	 */
	vnpu_engine_set_cancel(sched->engine, job->slot, job->cancel);
	if (job->started)
		return;
	job->started = true;
	job->deadline = ktime_add_ms(ktime_get(), job->timeout_ms ?: READ_ONCE(vnpu_param_job_timeout_ms));
	hrtimer_start(&job->timer, job->deadline, HRTIMER_MODE_ABS);
	if (head && vnpu_fault_hit(&vdev->fail_job))
		job->fault_injected = true;
}

/* May @job, the one behind a job just handed out, go with it? */
static bool vnpu_sched_may_follow_locked(const struct vnpu_job *job)
{
	const struct vnpu_stream *stream = job->stream;

	return job->state == VNPU_JOB_QUEUED && job->deps_met &&
	       !vnpu_sched_skips_locked(stream, job);
}

/**
 * vnpu_sched_take() - hand ready jobs to an engine worker
 * @engine: the worker's attachment
 * @engine_index: the worker
 * @max: most jobs to take
 * @jobs: out, the jobs, each with a reference for the caller
 *
 * Takes ready jobs, highest priority first, each followed by the jobs of
 * its stream right behind it whose dependencies are met (they could only
 * run after it anyway); but while other workers wait, only this worker's
 * share of the ready heads (their number over the workers, rounded up),
 * so that work
 * spreads over the engines. The jobs are RUNNING in their
 * slots, a stream's in order; the caller hands them to the server or
 * gives them back (vnpu_sched_untake()). A job marked
 * &vnpu_job.fault_injected must be reported failed by the caller instead.
 *
 * Return: how many jobs were taken (0 if @engine is detached).
 */
unsigned int vnpu_sched_take(struct vnpu_engine *engine, u32 engine_index, unsigned int max,
			     struct vnpu_job **jobs)
{
	struct vnpu_sched *sched = &engine->vdev->sched;
	unsigned int n = 0, prio, heads = 0, max_heads = max, waiting;
	struct vnpu_job *job;

	spin_lock_irq(&sched->lock);
	if (sched->engine != engine)
		goto unlock;
	waiting = atomic_read(&sched->waiting);
	if (waiting)
		max_heads = DIV_ROUND_UP(sched->num_ready, waiting + 1);
	for (prio = 0; prio < VNPU_SCHED_NUM_PRIOS; prio++) {
		while (n < max && heads < max_heads && sched->slots_used < VNPU_ENGINE_SLOTS) {
			job = list_first_entry_or_null(&sched->ready[prio], struct vnpu_job,
						       queue_link);
			if (!job)
				break;
			list_del_init(&job->queue_link);
			sched->num_ready--;
			heads++;
			vnpu_sched_hand_out_locked(sched, job, engine_index, true);
			jobs[n++] = vnpu_job_get(job);
			for (;;) {
				job = vnpu_stream_next_locked(job);
				if (!job || n == max || sched->slots_used == VNPU_ENGINE_SLOTS ||
				    !vnpu_sched_may_follow_locked(job))
					break;
				vnpu_sched_hand_out_locked(sched, job, engine_index, false);
				jobs[n++] = vnpu_job_get(job);
			}
		}
	}
	if (sched->num_ready && wq_has_sleeper(&sched->workers))
		wake_up(&sched->workers);
unlock:
	spin_unlock_irq(&sched->lock);
	return n;
}

/*
 * @job, RUNNING, goes back unrun: a head to the front of its ready queue,
 * a job behind one (also going back, or parked, or failed) to its stream
 * as if never handed out: its clock starts again when it is. Or, if its
 * stream is destroyed or failed meanwhile, or the job discarded, it ends
 * (returns true).
 */
static bool vnpu_sched_give_back_locked(struct vnpu_sched *sched, struct vnpu_job *job)
{
	struct vnpu_stream *stream = job->stream;
	struct vnpu_job *prev = vnpu_stream_prev_locked(job);

	lockdep_assert_held(&sched->lock);
	vnpu_sched_free_slot_locked(sched, job);
	if (prev) {
		job->state = VNPU_JOB_QUEUED;
		job->started = false;
		job->cancel = false;
		job->timed_out = false;
		hrtimer_try_to_cancel(&job->timer);
	}
	if (vnpu_sched_skips_locked(stream, job)) {
		vnpu_sched_set_end_locked(job, &(struct vnpu_job_end){
			.fence_error = job->timed_out ? -ETIMEDOUT :
				       vnpu_sched_skip_error(stream, job),
			.stream_error = job->timed_out ? VNPU_STREAM_ERROR_TIMEOUT : 0,
			.task = job->first_task });
		return true;
	}
	if (!prev) {
		job->state = VNPU_JOB_READY;
		list_add(&job->queue_link, &sched->ready[vnpu_sched_prio(stream->priority)]);
		sched->num_ready++;
	}
	return false;
}

/**
 * vnpu_sched_untake() - give back jobs the caller could not hand over
 * @engine: the attachment that took them
 * @jobs: the jobs, in the order taken; their references are dropped
 * @count: entries in @jobs
 *
 * They go back as if never taken: heads to the front of their ready
 * queues, in their order; those whose stream was destroyed or failed
 * meanwhile end instead.
 */
void vnpu_sched_untake(struct vnpu_engine *engine, struct vnpu_job **jobs, unsigned int count)
{
	struct vnpu_sched *sched = &engine->vdev->sched;
	struct vnpu_job *job;
	LIST_HEAD(ending);
	unsigned int i;

	spin_lock_irq(&sched->lock);
	/* Last first: a job behind another is given back before it. */
	for (i = count; i-- > 0;) {
		job = jobs[i];
		if (job->state != VNPU_JOB_RUNNING || sched->slots[job->slot] != job)
			continue;	/* the engine was detached meanwhile */
		if (vnpu_sched_give_back_locked(sched, job))
			list_add(&vnpu_job_get(job)->queue_link, &ending);
	}
	spin_unlock_irq(&sched->lock);

	vnpu_sched_finish_list(&ending);
	for (i = 0; i < count; i++)
		vnpu_job_put(jobs[i]);
}

/* Is @d a report the rules of struct drm_vnpu_engine_done allow for @job? */
static bool vnpu_done_valid(const struct drm_vnpu_engine_done *d, const struct vnpu_job *job)
{
	const struct vnpu_job *prev;

	if (d->pad || job->state != VNPU_JOB_RUNNING)
		return false;
	/*
	 * Every job before it in the stream was reported already, unless it
	 * comes back unrun: a job ahead of it reported BLOCKED may be handed
	 * out again, and run, before the server gets to say so.
	 */
	prev = vnpu_stream_prev_locked((struct vnpu_job *)job);
	if (prev && prev->state == VNPU_JOB_RUNNING && d->status != VNPU_ENGINE_DONE_NOT_RUN)
		return false;
	switch (d->status) {
	case VNPU_ENGINE_DONE_OK:
		return !d->task;
	case VNPU_ENGINE_DONE_FAULT:
	case VNPU_ENGINE_DONE_ARITH:
		return d->task >= job->first_task && d->task < job->num_tasks;
	case VNPU_ENGINE_DONE_CANCELED:
		return job->cancel && d->task >= job->first_task && d->task <= job->num_tasks;
	case VNPU_ENGINE_DONE_BLOCKED:
		return d->task >= job->first_task && d->task < job->num_tasks &&
		       job->tasks[d->task].kind == VNPU_TASK_WAIT_VALUE;
	case VNPU_ENGINE_DONE_NOT_RUN:
		return d->task == job->first_task;
	}
	return false;
}

/* How a job the server reported with @d (not BLOCKED, not NOT_RUN) ends. */
static void vnpu_done_end(const struct drm_vnpu_engine_done *d, const struct vnpu_job *job,
			  struct vnpu_job_end *end)
{
	*end = (struct vnpu_job_end){ .task = d->task, .busy_ns = d->busy_ns };
	switch (d->status) {
	case VNPU_ENGINE_DONE_OK:
		break;
	case VNPU_ENGINE_DONE_FAULT:
		end->fence_error = -EIO;
		end->stream_error = VNPU_STREAM_ERROR_FAULT;
		break;
	case VNPU_ENGINE_DONE_ARITH:
		end->fence_error = -EDOM;
		end->stream_error = VNPU_STREAM_ERROR_ARITH;
		break;
	default:	/* CANCELED, or BLOCKED in a job asked to stop */
		if (job->timed_out) {
			end->fence_error = -ETIMEDOUT;
			end->stream_error = VNPU_STREAM_ERROR_TIMEOUT;
		} else {
			end->fence_error = -ECANCELED;
		}
		break;
	}
}

/* Apply the server's (checked) report @d on @job; true if the job ends. */
static bool vnpu_sched_apply_locked(struct vnpu_sched *sched, struct vnpu_job *job,
				    const struct drm_vnpu_engine_done *d)
{
	struct vnpu_job_end end;

	lockdep_assert_held(&sched->lock);
	if (d->status == VNPU_ENGINE_DONE_NOT_RUN) {
		job->state = VNPU_JOB_RUNNING;	/* as the give-back expects */
		return vnpu_sched_give_back_locked(sched, job);
	}
	vnpu_sched_free_slot_locked(sched, job);
	/*
	 * Every held job of a destroyed stream was asked to stop
	 * (vnpu_sched_stream_cancel()); one parked there would wait for its
	 * deadline.
	 */
	if (d->status == VNPU_ENGINE_DONE_BLOCKED && !job->cancel &&
	    !WARN_ON_ONCE(job->stream->cancelled)) {
		if (job->stream->vfile)
			atomic64_add(d->busy_ns, &job->stream->vfile->engine_busy_ns);
		vnpu_sched_park_locked(sched, job, d->task);
		return false;
	}
	vnpu_done_end(d, job, &end);
	vnpu_sched_set_end_locked(job, &end);
	return true;
}

/**
 * vnpu_sched_complete() - apply the server's reports on jobs it held
 * @engine: the reporting attachment
 * @done: the reports (kernel memory)
 * @count: entries in @done
 *
 * All reports are checked before any is applied. A job that ended is
 * retired; a BLOCKED one is parked (or ready again at once if its wait
 * holds by now); a NOT_RUN one goes back to its stream. Then the parked
 * waits are looked at: the jobs may have written what they wait for.
 * Process context.
 *
 * Return: 0; -EINVAL for a bad report (nothing applied); -ENOTCONN if
 * @engine is detached.
 */
int vnpu_sched_complete(struct vnpu_engine *engine, const struct drm_vnpu_engine_done *done,
			unsigned int count)
{
	struct vnpu_sched *sched = &engine->vdev->sched;
	struct vnpu_job *job;
	LIST_HEAD(ending);
	unsigned int i;
	int ret = 0;

	if (!count)
		return 0;
	spin_lock_irq(&sched->lock);
	if (sched->engine != engine) {
		ret = -ENOTCONN;
		goto unlock;
	}
	/*
	 * Check all, marking each job as reported (ENDING) as we go: that
	 * finds a job reported twice, and lets the next job of its stream be
	 * reported after it.
	 */
	for (i = 0; i < count; i++) {
		const struct drm_vnpu_engine_done *d = &done[i];

		job = d->slot < VNPU_ENGINE_SLOTS ? sched->slots[d->slot] : NULL;
		if (!job || !vnpu_done_valid(d, job)) {
			while (i-- > 0)
				sched->slots[done[i].slot]->state = VNPU_JOB_RUNNING;
			ret = -EINVAL;
			goto unlock;
		}
		job->state = VNPU_JOB_ENDING;
	}
	for (i = 0; i < count; i++) {
		job = sched->slots[done[i].slot];
		if (vnpu_sched_apply_locked(sched, job, &done[i]))
			list_add_tail(&vnpu_job_get(job)->queue_link, &ending);
	}
	vnpu_sched_check_waits_locked(sched);
unlock:
	spin_unlock_irq(&sched->lock);

	vnpu_sched_finish_list(&ending);
	return ret;
}

/**
 * vnpu_ioctl_signal() - DRM_IOCTL_VNPU_SIGNAL
 * @drm: device
 * @data: struct drm_vnpu_signal
 * @file: caller
 *
 * The parked waits look again (all of them: a superset of those on the
 * named memory, and cheap).
 *
 * Return: 0 with @data's woken set; -EINVAL, -ENXIO, -EOVERFLOW.
 */
int vnpu_ioctl_signal(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct vnpu_file *vfile = to_vnpu_file(file);
	struct drm_vnpu_signal *args = data;
	struct vnpu_mapping *mapping;
	u64 offset;
	int ret;

	if (!args->size || args->flags)
		return -EINVAL;
	ret = vnpu_vm_resolve(vfile->vm, args->va, args->size, &mapping, &offset);
	if (ret)
		return ret;
	vnpu_mapping_put(mapping);
	args->woken = vnpu_sched_check_waits(to_vnpu_device(drm));
	return 0;
}
