// SPDX-License-Identifier: GPL-2.0
/*
 * worker.c - one thread per engine, looping on VNPU_ENGINE_IOCTL_RUN.
 *
 * A round is one RUN: it reports how the jobs of the previous round ended
 * and returns new events (buffers gone, then jobs), which the worker
 * handles in order before the next round. Nothing on this path allocates
 * or takes a lock: buffers are reached through the attachment's window.
 *
 * A round's jobs are reported together at the next RUN, unless the round
 * runs long: then what is done is reported at once (worker_flush()), so a
 * short job never waits for a long one handed out with it.
 *
 * Stopping: main sets srv->stop and kicks the workers with SIGUSR1, which
 * ends a waiting RUN with no events. A worker that sees the flag reports
 * what it holds in one last non-blocking RUN that asks for no jobs, then
 * exits.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "engined.h"

static void on_kick(int sig)
{
	(void)sig;
}

int worker_signals_init(void)
{
	struct sigaction kick = { .sa_handler = on_kick };

	/* No SA_RESTART: the kick must end a waiting RUN (it returns 0 then). */
	sigemptyset(&kick.sa_mask);
	if (sigaction(SIGUSR1, &kick, NULL))
		return -errno;
	return guard_init();
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- the job's surroundings (struct exec_env) ------------------------------------ */

static void *worker_map(void *priv, const struct drm_vnpu_engine_operand *op)
{
	struct worker *w = priv;
	void *p = window_get(&w->dev->window, op->buffer_offset, op->buffer_size);

	if (!p)
		log_debug("vnpu device %u: buffer %llu: %llu bytes at %#llx are not in the "
			  "buffer window", w->dev->index, (unsigned long long)op->buffer,
			  (unsigned long long)op->buffer_size,
			  (unsigned long long)op->buffer_offset);
	return p;
}

static void worker_notify(void *priv)
{
	struct worker *w = priv;
	struct drm_vnpu_engine_notify args = { 0 };
	int ret;

	do
		ret = ioctl(w->dev->efd, VNPU_ENGINE_IOCTL_NOTIFY, &args);
	while (ret && errno == EINTR);
	/* -ENOTCONN: the engine was reset; the next RUN says so. */
	if (ret && errno != ENOTCONN)
		log_err("vnpu device %u engine %u: NOTIFY: %s", w->dev->index, w->engine,
			strerror(errno));
}

/* ---- one job ------------------------------------------------------------------ */

/* Mark @slot as reported this round: false if it already is. */
static bool take_slot(struct worker *w, uint32_t slot)
{
	uint64_t bit = 1ull << (slot % 64);

	if (w->slot_seen[slot / 64] & bit)
		return false;
	w->slot_seen[slot / 64] |= bit;
	return true;
}

static void drop_done(struct worker *w)
{
	uint32_t i;

	for (i = 0; i < w->ndone; i++)
		w->slot_seen[w->done[i].slot / 64] &= ~(1ull << (w->done[i].slot % 64));
	w->ndone = 0;
}

struct guarded_job {
	const struct job_view *view;
	const struct exec_env *env;
	struct exec_result *res;
};

static void guarded_exec(void *arg)
{
	const struct guarded_job *g = arg;

	exec_job(g->view, g->env, g->res);
}

/*
 * exec_job(), with a SIGBUS turned into a fault of the task it hit (the
 * result lives in the worker, not on this stack, and keeps the task).
 */
static void run_guarded(struct worker *w, const struct job_view *view, const struct exec_env *env)
{
	struct guarded_job g = { view, env, &w->res };

	w->res.task = view->first_task;
	if (!guard_call(guarded_exec, &g)) {
		w->res.status = VNPU_ENGINE_DONE_FAULT;
		snprintf(w->res.why, sizeof(w->res.why), "buffer memory went away (SIGBUS)");
	}
}

/* An operator's pieces, on this worker and the engines idle right now. */
static void worker_parallel(void *priv, unsigned int count, void (*fn)(void *arg, unsigned int i),
			    void *arg)
{
	struct worker *w = priv;
	struct device *dev = w->dev;
	unsigned int running = atomic_load(&dev->running);

	crew_parallel(&dev->crew, dev->num_engines > running ? dev->num_engines - running : 0,
		      count, fn, arg);
}

static void log_fault(const struct worker *w, const struct job_view *view)
{
	const struct drm_vnpu_engine_job *job = view->job;

	log_debug("vnpu device %u engine %u: client %llu stream %u job %llu task %u: fault: %s",
		  w->dev->index, w->engine, (unsigned long long)job->client, job->stream,
		  (unsigned long long)job->seqno, w->res.task, w->res.why);
}

/*
 * The streams of this round whose jobs must not run any more: after one of
 * a stream's jobs handed out together does not end OK, the kernel wants the
 * rest back unrun (VNPU_ENGINE_DONE_NOT_RUN).
 */
static bool stream_stopped(const struct worker *w, const struct drm_vnpu_engine_job *job)
{
	unsigned int i;

	for (i = 0; i < w->nstopped; i++)
		if (w->stopped[i].client == job->client && w->stopped[i].stream == job->stream)
			return true;
	return false;
}

static void stream_stop(struct worker *w, const struct drm_vnpu_engine_job *job)
{
	if (stream_stopped(w, job) || w->nstopped == ENGINED_BATCH)
		return;
	w->stopped[w->nstopped].client = job->client;
	w->stopped[w->nstopped].stream = job->stream;
	w->nstopped++;
}

static void worker_job(struct worker *w, const struct drm_vnpu_engine_event *ev)
{
	struct device *dev = w->dev;
	struct drm_vnpu_engine_done *done;
	struct job_view view;
	uint64_t start;
	int ret;

	ret = job_view_init(&view, ev);
	if (ret == -EINVAL) {
		log_err("vnpu device %u engine %u: a job event of %u bytes cannot be read",
			dev->index, w->engine, ev->size);
		return;
	}
	if (view.slot >= dev->num_slots || !take_slot(w, view.slot)) {
		log_err("vnpu device %u engine %u: a job in slot %u (of %u) twice or out of range",
			dev->index, w->engine, view.slot, dev->num_slots);
		return;
	}
	start = now_ns();
	if (!ret && stream_stopped(w, view.job)) {
		/* A job of its stream before it in this round did not end OK. */
		w->res.status = VNPU_ENGINE_DONE_NOT_RUN;
		w->res.task = view.first_task;
	} else if (ret) {
		/* The kernel's mistake, not the client's: always worth a line. */
		log_err("vnpu device %u engine %u: a job event of %u bytes cannot hold %u tasks "
			"(from %u), %u operands and %u data bytes: faulted", dev->index, w->engine,
			ev->size, view.task_count, view.first_task, view.operand_count,
			view.data_size);
		w->res.status = VNPU_ENGINE_DONE_FAULT;
		w->res.task = job_fault_task(&view);
		snprintf(w->res.why, sizeof(w->res.why), "malformed job event");
	} else {
		struct exec_env env = {
			.map = worker_map,
			.notify = worker_notify,
			.priv = w,
			.run_op = vops_run,
			.parallel = worker_parallel,
			.cancel = &dev->ctl->cancel[view.slot],
			.parked = &dev->ctl->parked,
			.desc_scratch = w->desc_scratch,
		};

		run_guarded(w, &view, &env);
	}
	done = &w->done[w->ndone++];
	*done = (struct drm_vnpu_engine_done){
		.slot = view.slot,
		.status = w->res.status,
		.task = w->res.task,
		.busy_ns = now_ns() - start,
	};
	if (w->res.status != VNPU_ENGINE_DONE_OK && !ret)
		stream_stop(w, view.job);
	if (w->res.status == VNPU_ENGINE_DONE_FAULT && log_enabled(LOG_DEBUG))
		log_fault(w, &view);
}

static void worker_gone(struct worker *w, const struct drm_vnpu_engine_event *ev)
{
	const struct drm_vnpu_engine_gone *gone = (const struct drm_vnpu_engine_gone *)ev;

	if (ev->size < sizeof(*gone)) {
		log_err("vnpu device %u engine %u: a buffer-gone event of %u bytes",
			w->dev->index, w->engine, ev->size);
		return;
	}
	/* The kernel took its pages out of the window: nothing to undo. */
	log_debug("vnpu device %u: buffer %llu is gone", w->dev->index,
		  (unsigned long long)gone->buffer);
}

/* ---- the loop ------------------------------------------------------------------ */

static void worker_events(struct worker *w, void *events, const struct drm_vnpu_engine_run *run);

/*
 * Report the jobs done so far now, without taking new ones: a job that
 * finishes early in a round must not wait for the long ones after it. The
 * events of this RUN (buffers gone only) go to a buffer of their own, the
 * round's are still being walked.
 */
static void worker_flush(struct worker *w)
{
	struct drm_vnpu_engine_run run = {
		.engine = w->engine,
		.flags = VNPU_ENGINE_RUN_NONBLOCK,
		.done = (uintptr_t)w->done,
		.done_count = w->ndone,
		.events = (uintptr_t)w->flush_events,
		.events_size = VNPU_ENGINE_EVENTS_MIN,
	};

	/* A failure (a reset) shows in the round's own next RUN. */
	if (ioctl(w->dev->efd, VNPU_ENGINE_IOCTL_RUN, &run))
		return;
	drop_done(w);
	worker_events(w, w->flush_events, &run);
}

static void worker_events(struct worker *w, void *events, const struct drm_vnpu_engine_run *run)
{
	const struct drm_vnpu_engine_event *ev;
	struct ev_iter it;
	uint32_t used = run->events_used < run->events_size ? run->events_used : run->events_size;
	uint64_t round_start = now_ns();
	int ret;

	if (events == w->events)
		w->nstopped = 0;	/* a new round */
	ev_iter_init(&it, events, used, run->event_count);
	while ((ret = ev_iter_next(&it, &ev)) > 0) {
		switch (ev->type) {
		case VNPU_ENGINE_EVENT_JOB:
			worker_job(w, ev);
			if (it.count && w->ndone && now_ns() - round_start > ENGINED_FLUSH_NS) {
				worker_flush(w);
				round_start = now_ns();
			}
			break;
		case VNPU_ENGINE_EVENT_BUFFER_GONE:
			worker_gone(w, ev);
			break;
		default:
			log_debug("vnpu device %u engine %u: event type %u ignored", w->dev->index,
				  w->engine, ev->type);
			break;
		}
	}
	if (ret < 0)
		log_err("vnpu device %u engine %u: malformed event after %u of %u events: the "
			"rest is ignored", w->dev->index, w->engine, run->event_count - it.count,
			run->event_count);
}

/*
 * One RUN and its events: the number of events, or the RUN's -errno. A
 * worker that is @spinning does not wait in the kernel for work.
 */
static int worker_round(struct worker *w, bool stopping, bool spinning)
{
	struct drm_vnpu_engine_run run = {
		.engine = w->engine,
		.flags = stopping || spinning ? VNPU_ENGINE_RUN_NONBLOCK : 0,
		.done = (uintptr_t)w->done,
		.done_count = w->ndone,
		.max_jobs = stopping ? 0 : ENGINED_BATCH,
		.events = (uintptr_t)w->events,
		.events_size = VNPU_ENGINE_EVENTS_MIN,
	};

	if (ioctl(w->dev->efd, VNPU_ENGINE_IOCTL_RUN, &run))
		return -errno;
	drop_done(w);
	if (run.event_count) {
		atomic_fetch_add(&w->dev->running, 1);
		worker_events(w, w->events, &run);
		atomic_fetch_sub(&w->dev->running, 1);
	}
	return (int)run.event_count;
}

/*
 * Should the worker look for work again without sleeping? Right after it
 * ran jobs, for a little while (ENGINED_SPIN_NS), one worker per device at
 * a time: a client that submits its next job as soon as the last one ended
 * then finds a worker awake, instead of paying a wake-up (an IPI to an idle
 * CPU, the dearest part of a short job's round trip). The others sleep.
 */
static bool worker_spin(struct worker *w, int events, uint64_t *until)
{
	struct device *dev = w->dev;
	uint64_t now = now_ns();
	struct worker *none = NULL;

	if (events > 0)
		*until = now + ENGINED_SPIN_NS;
	if (now >= *until) {
		/* Done spinning: let another worker have the turn. */
		atomic_compare_exchange_strong(&dev->spinner, &w, none);
		return false;
	}
	if (atomic_load(&dev->spinner) == w)
		return true;
	return atomic_compare_exchange_strong(&dev->spinner, &none, w);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct device *dev = w->dev;
	struct engined *srv = dev->srv;
	uint64_t one = 1, spin_until = 0;
	bool spinning = false;

	for (;;) {
		bool stopping = atomic_load(&srv->stop);
		int ret = worker_round(w, stopping, spinning);

		if (ret >= 0) {
			if (stopping && !w->ndone)
				break;
			spinning = worker_spin(w, ret, &spin_until);
			continue;
		}
		spinning = false;
		atomic_compare_exchange_strong(&dev->spinner, &(struct worker *){ w }, NULL);
		if (ret == -EINTR || ret == -EAGAIN)
			continue;
		if (ret == -ENOMEM) {
			/* Nothing lost: the reports are sent again, jobs wait. */
			usleep(1000);
			continue;
		}
		if (ret == -ENOTCONN) {
			/* The kernel failed the jobs we held: nothing to report. */
			drop_done(w);
			if (stopping || device_reset(dev))
				break;
			continue;
		}
		log_err("vnpu device %u engine %u: RUN: %s", dev->index, w->engine, strerror(-ret));
		engined_fail(srv);
		break;
	}
	atomic_store(&w->exited, true);
	if (write(srv->exit_efd, &one, sizeof(one)) < 0)
		log_err("vnpu device %u engine %u: cannot tell main it ended", dev->index, w->engine);
	return NULL;
}

static int worker_alloc(struct worker *w)
{
	w->events = aligned_alloc(64, VNPU_ENGINE_EVENTS_MIN);
	w->flush_events = aligned_alloc(64, VNPU_ENGINE_EVENTS_MIN);
	w->done = calloc(VNPU_ENGINE_SLOTS, sizeof(*w->done));
	w->desc_scratch = aligned_alloc(64, VNPU_MAX_OP_DESC_SIZE);
	return w->events && w->flush_events && w->done && w->desc_scratch ? 0 : -ENOMEM;
}

static void worker_free(struct worker *w)
{
	free(w->events);
	free(w->flush_events);
	free(w->done);
	free(w->desc_scratch);
	w->events = NULL;
	w->flush_events = NULL;
	w->done = NULL;
	w->desc_scratch = NULL;
}

int workers_start(struct device *dev)
{
	unsigned int i;
	int ret;

	atomic_init(&dev->running, 0);
	ret = crew_start(&dev->crew, dev->num_engines - 1);
	if (ret) {
		log_err("vnpu device %u: starting its helpers: %s", dev->index, strerror(-ret));
		return ret;
	}
	dev->workers = calloc(dev->num_engines, sizeof(*dev->workers));
	if (!dev->workers)
		return -ENOMEM;
	for (i = 0; i < dev->num_engines; i++) {
		struct worker *w = &dev->workers[i];

		w->dev = dev;
		w->engine = i;
		atomic_init(&w->started, false);
		atomic_init(&w->exited, false);
		ret = worker_alloc(w);
		if (!ret)
			ret = -pthread_create(&w->thread, NULL, worker_main, w);
		if (ret) {
			log_err("vnpu device %u: starting worker %u: %s", dev->index, i,
				strerror(-ret));
			return ret;
		}
		atomic_store(&w->started, true);
	}
	return 0;
}

void workers_kick(struct device *dev)
{
	unsigned int i;

	if (!dev->workers)
		return;
	for (i = 0; i < dev->num_engines; i++) {
		struct worker *w = &dev->workers[i];

		if (atomic_load(&w->started) && !atomic_load(&w->exited))
			pthread_kill(w->thread, SIGUSR1);
	}
}

bool workers_exited(struct device *dev)
{
	unsigned int i;

	if (!dev->workers)
		return true;
	for (i = 0; i < dev->num_engines; i++)
		if (atomic_load(&dev->workers[i].started) && !atomic_load(&dev->workers[i].exited))
			return false;
	return true;
}

void workers_join(struct device *dev)
{
	unsigned int i;

	if (dev->workers) {
		for (i = 0; i < dev->num_engines; i++) {
			struct worker *w = &dev->workers[i];

			if (atomic_load(&w->started))
				pthread_join(w->thread, NULL);
			worker_free(w);
		}
		free(dev->workers);
		dev->workers = NULL;
	}
	/* After the workers: none of them is inside crew_parallel() now. */
	if (dev->crew.threads)
		crew_stop(&dev->crew);
}
