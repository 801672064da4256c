// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of vnpu-engined's RUN loop (tools/engined/worker.c)
 * against a fake engine file: this program defines ioctl() itself, so the
 * worker's RUN and NOTIFY calls land in a scripted "kernel" that hands out
 * prepared events and records every report. Buffers and the control page
 * are pages of a memfd, reached through the real buffer window (which
 * maps a little more than the memfd: pages past its end raise SIGBUS, as
 * a reset engine's do).
 */
#include <check.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "engined.h"

#define PAGE 4096
#define MEMFD_PAGES 64
#define MAX_ROUNDS 16

/* ---- the fake kernel ----------------------------------------------------------- */

struct round {
	int error;			/* RUN fails with this (positive errno), or 0 */
	void *events;			/* handed out by this RUN */
	uint32_t used, count;
};

struct call {
	struct drm_vnpu_engine_run run;
	struct drm_vnpu_engine_done done[VNPU_ENGINE_SLOTS];
};

static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int efd;
	struct round rounds[MAX_ROUNDS];
	unsigned int nrounds, next;	/* scripted, handed out */
	struct call calls[MAX_ROUNDS * 2];
	unsigned int ncalls;
	unsigned int notifies;
	unsigned int resets;
	int reset_answer;
	bool failed;
} K = { .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER };

static struct engined srv;
static struct device dev;
static struct drm_vnpu_engine_ctl *ctl_rw;	/* the test's writable view */
static int memfd;

static int fake_run(struct drm_vnpu_engine_run *run)
{
	struct call *c;
	int ret = 0;

	pthread_mutex_lock(&K.lock);
	/*
	 * A worker that ran jobs looks for more without sleeping for a while:
	 * those empty polls (nothing to report, nothing scripted) are not
	 * recorded, and take a little time as the kernel's would.
	 */
	if ((run->flags & VNPU_ENGINE_RUN_NONBLOCK) && !run->done_count && K.next == K.nrounds &&
	    !atomic_load(&srv.stop)) {
		pthread_mutex_unlock(&K.lock);
		usleep(20);
		run->event_count = 0;
		run->events_used = 0;
		return 0;
	}
	ck_assert_uint_lt(K.ncalls, sizeof(K.calls) / sizeof(K.calls[0]));
	c = &K.calls[K.ncalls++];
	c->run = *run;
	memcpy(c->done, (void *)(uintptr_t)run->done, run->done_count * sizeof(c->done[0]));
	pthread_cond_broadcast(&K.cond);
	/* Without a scripted round, wait as the kernel would: until a kick. */
	while (K.next == K.nrounds && !(run->flags & VNPU_ENGINE_RUN_NONBLOCK) &&
	       !atomic_load(&srv.stop)) {
		struct timespec t;

		clock_gettime(CLOCK_REALTIME, &t);
		t.tv_nsec += 2000000;
		if (t.tv_nsec >= 1000000000) {
			t.tv_sec++;
			t.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&K.cond, &K.lock, &t);
	}
	run->event_count = 0;
	run->events_used = 0;
	if (K.next < K.nrounds) {
		struct round *r = &K.rounds[K.next++];

		if (r->error) {
			ret = r->error;
		} else {
			memcpy((void *)(uintptr_t)run->events, r->events, r->used);
			run->event_count = r->count;
			run->events_used = r->used;
		}
	}
	pthread_mutex_unlock(&K.lock);
	if (ret) {
		errno = ret;
		return -1;
	}
	return 0;
}

/* The worker's system calls come here first. */
int ioctl(int fd, unsigned long request, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (fd == K.efd && request == VNPU_ENGINE_IOCTL_RUN)
		return fake_run(arg);
	if (fd == K.efd && request == VNPU_ENGINE_IOCTL_NOTIFY) {
		pthread_mutex_lock(&K.lock);
		K.notifies++;
		pthread_mutex_unlock(&K.lock);
		return 0;
	}
	return (int)syscall(SYS_ioctl, fd, request, arg);
}

/* What the rest of the server provides to the worker. */
enum vops_run_status vops_run(const void *desc, size_t desc_size, const struct vops_operand *ops,
			      unsigned int n, const struct vops_ctl *ctl, char *why, size_t why_size)
{
	(void)desc, (void)desc_size, (void)ops, (void)n, (void)ctl;
	snprintf(why, why_size, "no operators in this test");
	return VOPS_RUN_FAULT;
}

void engined_fail(struct engined *s)
{
	pthread_mutex_lock(&K.lock);
	K.failed = true;
	pthread_mutex_unlock(&K.lock);
	atomic_store(&s->stop, true);
}

int device_reset(struct device *d)
{
	(void)d;
	pthread_mutex_lock(&K.lock);
	K.resets++;
	pthread_mutex_unlock(&K.lock);
	return K.reset_answer;
}

/* ---- scripting --------------------------------------------------------------- */

struct events {
	unsigned char buf[8192] __attribute__((aligned(8)));
	uint32_t used, count;
};

static void *ev_add(struct events *e, uint32_t type, uint32_t size)
{
	struct drm_vnpu_engine_event *hdr = (void *)(e->buf + e->used);

	ck_assert_uint_le(e->used + size, sizeof(e->buf));
	memset(hdr, 0, size);
	hdr->type = type;
	hdr->size = size;
	e->used += size;
	e->count++;
	return hdr;
}

static void ev_gone(struct events *e, uint64_t buffer)
{
	struct drm_vnpu_engine_gone *g = ev_add(e, VNPU_ENGINE_EVENT_BUFFER_GONE, sizeof(*g));

	g->buffer = buffer;
}

/*
 * A job of @ntasks tasks over @nops operands, to be filled in by the
 * caller; each slot's job is of a stream of its own unless the caller
 * says otherwise.
 */
static struct drm_vnpu_engine_job *ev_job(struct events *e, uint32_t slot, uint32_t ntasks,
					  uint32_t nops, struct drm_vnpu_engine_task **tasks,
					  struct drm_vnpu_engine_operand **ops)
{
	uint32_t size = sizeof(struct drm_vnpu_engine_job) +
			ntasks * sizeof(struct drm_vnpu_engine_task) +
			nops * sizeof(struct drm_vnpu_engine_operand);
	struct drm_vnpu_engine_job *job = ev_add(e, VNPU_ENGINE_EVENT_JOB, size);

	job->slot = slot;
	job->client = 1;
	job->stream = slot;
	job->task_count = ntasks;
	job->operand_count = nops;
	*tasks = (void *)(job + 1);
	*ops = (void *)(*tasks + ntasks);
	return job;
}

/* Buffer @id: page @page of the memfd, @pages long. */
static struct drm_vnpu_engine_operand buffer_op(uint64_t id, uint64_t page, uint64_t pages,
						uint64_t offset, uint64_t size)
{
	return (struct drm_vnpu_engine_operand){
		.buffer = id, .buffer_offset = page * PAGE, .buffer_size = pages * PAGE,
		.offset = offset, .size = size, .access = VNPU_OPERAND_WRITE,
	};
}

static void script(const struct events *e)
{
	struct round *r;

	pthread_mutex_lock(&K.lock);
	ck_assert_uint_lt(K.nrounds, MAX_ROUNDS);
	r = &K.rounds[K.nrounds++];
	r->events = malloc(e->used ? e->used : 1);
	memcpy(r->events, e->buf, e->used);
	r->used = e->used;
	r->count = e->count;
	pthread_cond_broadcast(&K.cond);
	pthread_mutex_unlock(&K.lock);
}

static void script_error(int error)
{
	pthread_mutex_lock(&K.lock);
	K.rounds[K.nrounds++] = (struct round){ .error = error };
	pthread_cond_broadcast(&K.cond);
	pthread_mutex_unlock(&K.lock);
}

/* Wait until the worker made @n RUN calls. */
static void wait_calls(unsigned int n)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_sec += 10;
	pthread_mutex_lock(&K.lock);
	while (K.ncalls < n)
		ck_assert_int_eq(pthread_cond_timedwait(&K.cond, &K.lock, &t), 0);
	pthread_mutex_unlock(&K.lock);
}

/*
 * The report of slot @slot's job, waiting for it. A worker may report a
 * round's jobs over several RUNs (it flushes early when a round runs
 * long, as it may on a loaded host), so look in every call; a job is
 * reported once.
 */
static struct drm_vnpu_engine_done done_of(uint32_t slot)
{
	struct drm_vnpu_engine_done d = { 0 };
	unsigned int seen = 0;
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_sec += 10;
	pthread_mutex_lock(&K.lock);
	for (;;) {
		for (unsigned int i = 0; i < K.ncalls; i++)
			for (uint32_t j = 0; j < K.calls[i].run.done_count; j++)
				if (K.calls[i].done[j].slot == slot) {
					d = K.calls[i].done[j];
					seen++;
				}
		if (seen)
			break;
		ck_assert_int_eq(pthread_cond_timedwait(&K.cond, &K.lock, &t), 0);
	}
	pthread_mutex_unlock(&K.lock);
	ck_assert_uint_eq(seen, 1);
	return d;
}

/* How many job reports all RUN calls so far carried. */
static unsigned int done_total(void)
{
	unsigned int n = 0;

	pthread_mutex_lock(&K.lock);
	for (unsigned int i = 0; i < K.ncalls; i++)
		n += K.calls[i].run.done_count;
	pthread_mutex_unlock(&K.lock);
	return n;
}

static uint32_t read_word(uint64_t offset)
{
	uint32_t w = 0;

	ck_assert_int_eq(pread(memfd, &w, sizeof(w), (off_t)offset), sizeof(w));
	return w;
}

/* ---- fixture ------------------------------------------------------------------- */

static void setup(void)
{
	for (unsigned int i = 0; i < K.nrounds; i++)
		free(K.rounds[i].events);
	pthread_mutex_lock(&K.lock);
	memset(K.rounds, 0, sizeof(K.rounds));
	K.nrounds = K.next = K.ncalls = K.notifies = K.resets = 0;
	K.reset_answer = -1;
	K.failed = false;
	pthread_mutex_unlock(&K.lock);

	memfd = memfd_create("engined-worker-test", MFD_CLOEXEC);
	ck_assert_int_ge(memfd, 0);
	ck_assert_int_eq(ftruncate(memfd, MEMFD_PAGES * PAGE), 0);
	K.efd = memfd;

	memset(&srv, 0, sizeof(srv));
	atomic_init(&srv.stop, false);
	atomic_init(&srv.failed, false);
	srv.exit_efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	ck_assert_int_ge(srv.exit_efd, 0);

	memset(&dev, 0, sizeof(dev));
	dev.srv = &srv;
	dev.efd = memfd;
	dev.node_fd = -1;
	dev.num_engines = 1;
	dev.num_slots = VNPU_ENGINE_SLOTS;
	dev.ctl_size = PAGE;
	dev.ctl = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, memfd, 0);
	ck_assert_ptr_ne(dev.ctl, MAP_FAILED);
	ctl_rw = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
	ck_assert_ptr_ne(ctl_rw, MAP_FAILED);
	ck_assert_int_eq(window_map(&dev.window, memfd, 0, (MEMFD_PAGES + 16) * PAGE), 0);
	srv.devs = &dev;
	srv.ndevs = 1;
	ck_assert_int_eq(worker_signals_init(), 0);
}

static void start(void)
{
	ck_assert_int_eq(workers_start(&dev), 0);
}

/* Stop as main does; returns the worker's last RUN. */
static struct call *stop(void)
{
	atomic_store(&srv.stop, true);
	for (int i = 0; i < 5000 && !workers_exited(&dev); i++) {
		workers_kick(&dev);
		usleep(1000);
	}
	ck_assert(workers_exited(&dev));
	workers_join(&dev);
	return K.ncalls ? &K.calls[K.ncalls - 1] : NULL;
}

static void teardown(void)
{
	window_unmap(&dev.window);
	munmap((void *)dev.ctl, PAGE);
	munmap(ctl_rw, PAGE);
	close(srv.exit_efd);
	close(memfd);
}

/* ---- tests --------------------------------------------------------------------- */

START_TEST(jobs_are_reported_in_the_next_run)
{
	struct drm_vnpu_engine_done d;
	struct drm_vnpu_engine_operand *ops;
	struct drm_vnpu_engine_task *t;
	struct events e = { 0 };
	struct call *c;

	ev_job(&e, 3, 1, 0, &t, &ops);
	t[0].kind = VNPU_TASK_NOP;
	ev_job(&e, 5, 1, 1, &t, &ops);
	t[0] = (struct drm_vnpu_engine_task){ .kind = VNPU_TASK_WRITE_VALUE, .operand_count = 1,
					      .value = 0xfeed };
	ops[0] = buffer_op(1, 2, 1, 16, 4);
	script(&e);
	start();
	wait_calls(2);
	c = &K.calls[0];
	ck_assert_uint_eq(c->run.engine, 0);
	ck_assert_uint_eq(c->run.done_count, 0);
	ck_assert_uint_eq(c->run.max_jobs, ENGINED_BATCH);
	ck_assert_uint_eq(c->run.flags, 0);
	ck_assert_uint_eq(c->run.events_size, VNPU_ENGINE_EVENTS_MIN);
	ck_assert_uint_eq(K.calls[1].run.done_count >= 1, 1);
	ck_assert_uint_eq(K.calls[1].done[0].slot, 3);
	ck_assert_uint_eq(done_of(3).status, VNPU_ENGINE_DONE_OK);
	d = done_of(5);
	ck_assert_uint_eq(d.status, VNPU_ENGINE_DONE_OK);
	ck_assert_uint_eq(d.task, 0);
	ck_assert_uint_eq(d.pad, 0);
	ck_assert_uint_eq(done_total(), 2);
	ck_assert_uint_eq(read_word(2 * PAGE + 16), 0xfeed);
	c = stop();
	/* The last RUN asks for nothing and does not wait. */
	ck_assert_uint_eq(c->run.max_jobs, 0);
	ck_assert_uint_eq(c->run.flags, VNPU_ENGINE_RUN_NONBLOCK);
	ck_assert(!K.failed);
}
END_TEST

START_TEST(stop_reports_jobs_held)
{
	struct drm_vnpu_engine_operand *ops;
	struct drm_vnpu_engine_task *t;
	struct events e = { 0 };
	bool reported = false;
	struct call *c;

	/* The stop comes while the job is out: its report still goes in. */
	ev_job(&e, 11, 1, 0, &t, &ops);
	t[0].kind = VNPU_TASK_NOP;
	script(&e);
	start();
	wait_calls(1);
	c = stop();
	for (unsigned int i = 1; i < K.ncalls; i++)
		reported |= K.calls[i].run.done_count == 1 && K.calls[i].done[0].slot == 11;
	ck_assert(reported);
	ck_assert_uint_eq(c->run.max_jobs, 0);
	ck_assert_uint_eq(c->run.flags, VNPU_ENGINE_RUN_NONBLOCK);
}
END_TEST

/* Even a job the last, non-blocking RUN brought gets its report. */
START_TEST(jobs_from_the_last_run_are_reported_too)
{
	struct drm_vnpu_engine_operand *ops;
	struct drm_vnpu_engine_task *t;
	struct events e = { 0 };
	struct call *c;

	ev_job(&e, 12, 1, 0, &t, &ops);
	t[0].kind = VNPU_TASK_NOP;
	script(&e);
	atomic_store(&srv.stop, true);
	start();
	c = stop();
	ck_assert_uint_eq(K.ncalls, 2);
	ck_assert_uint_eq(c->run.done_count, 1);
	ck_assert_uint_eq(c->done[0].slot, 12);
}
END_TEST

/*
 * Buffer-gone events need nothing of the server (the kernel takes the pages
 * out of the window): the worker goes on, and a later job at the same
 * offsets (another buffer now) runs.
 */
START_TEST(buffer_gone_needs_nothing_undone)
{
	struct drm_vnpu_engine_operand *ops;
	struct drm_vnpu_engine_task *t;
	struct events e = { 0 }, g = { 0 }, f = { 0 };
	struct call *c;

	ev_job(&e, 0, 1, 1, &t, &ops);
	t[0] = (struct drm_vnpu_engine_task){ .kind = VNPU_TASK_FILL, .operand_count = 1,
					      .value = 7 };
	ops[0] = buffer_op(42, 4, 2, 0, 2 * PAGE);
	script(&e);
	start();
	wait_calls(2);
	ck_assert_uint_eq(read_word(5 * PAGE + PAGE - 4), 0x07070707);
	ev_gone(&g, 42);
	ev_gone(&g, 43);			/* never seen: no different */
	script(&g);
	ev_job(&f, 1, 1, 1, &t, &ops);
	t[0] = (struct drm_vnpu_engine_task){ .kind = VNPU_TASK_FILL, .operand_count = 1,
					      .value = 9 };
	ops[0] = buffer_op(44, 4, 2, 0, 2 * PAGE);
	script(&f);
	done_of(1);
	c = stop();
	ck_assert_ptr_nonnull(c);
	ck_assert_uint_eq(read_word(5 * PAGE + PAGE - 4), 0x09090909);
}
END_TEST

/* An operand the window does not hold faults its task; nothing is touched. */
START_TEST(operand_outside_the_window_faults)
{
	struct drm_vnpu_engine_operand *ops;
	struct drm_vnpu_engine_task *t;
	struct events e = { 0 };
	struct call *c;

	ev_job(&e, 3, 2, 2, &t, &ops);
	t[0] = (struct drm_vnpu_engine_task){ .kind = VNPU_TASK_FILL, .operand_count = 1,
					      .value = 5 };
	t[1] = (struct drm_vnpu_engine_task){ .kind = VNPU_TASK_FILL, .operand = 1,
					      .operand_count = 1, .value = 6 };
	ops[0] = buffer_op(1, 2, 1, 0, 4);
	ops[1] = buffer_op(2, MEMFD_PAGES + 16, 1, 0, 4);	/* just past the window */
	script(&e);
	start();
	wait_calls(2);
	c = &K.calls[1];
	ck_assert_uint_eq(c->run.done_count, 1);
	ck_assert_uint_eq(c->done[0].status, VNPU_ENGINE_DONE_FAULT);
	ck_assert_uint_eq(c->done[0].task, 1);
	ck_assert_uint_eq(read_word(2 * PAGE), 0x05050505);
	stop();
}
END_TEST

START_TEST(cancel_word_cancels_and_parked_waits_are_notified)
{
	struct drm_vnpu_engine_operand *ops;
	struct drm_vnpu_engine_task *t;
	struct events e = { 0 };

	ctl_rw->cancel[9] = 1;
	ctl_rw->parked = 1;
	ev_job(&e, 9, 1, 0, &t, &ops);
	t[0].kind = VNPU_TASK_NOP;
	ev_job(&e, 10, 3, 1, &t, &ops);
	for (int i = 0; i < 3; i++)
		t[i] = (struct drm_vnpu_engine_task){ .kind = VNPU_TASK_WRITE_VALUE,
						      .operand_count = 1, .value = (uint64_t)i };
	ops[0] = buffer_op(1, 2, 1, 0, 4);
	script(&e);
	start();
	ck_assert_uint_eq(done_of(9).status, VNPU_ENGINE_DONE_CANCELED);
	ck_assert_uint_eq(done_of(9).task, 0);
	ck_assert_uint_eq(done_of(10).status, VNPU_ENGINE_DONE_OK);
	/* After the first and the second write, not the last. */
	ck_assert_uint_eq(K.notifies, 2);
	stop();
}
END_TEST

/* A job of a stream handed out behind one that did not end OK: not run. */
START_TEST(jobs_behind_a_stopped_one_come_back_unrun)
{
	struct drm_vnpu_engine_operand *ops;
	struct drm_vnpu_engine_task *t;
	struct drm_vnpu_engine_job *job;
	struct drm_vnpu_engine_done d;
	struct events e = { 0 };

	ctl_rw->cancel[20] = 1;
	ev_job(&e, 20, 1, 0, &t, &ops)->stream = 7;
	t[0].kind = VNPU_TASK_NOP;
	job = ev_job(&e, 21, 2, 1, &t, &ops);
	job->stream = 7;
	job->first_task = 1;
	for (int i = 0; i < 2; i++)
		t[i] = (struct drm_vnpu_engine_task){ .kind = VNPU_TASK_WRITE_VALUE,
						      .operand_count = 1, .value = 5 };
	ops[0] = buffer_op(1, 2, 1, 0, 4);
	ev_job(&e, 22, 1, 0, &t, &ops)->stream = 8;
	t[0].kind = VNPU_TASK_NOP;
	script(&e);
	start();
	ck_assert_uint_eq(done_of(20).status, VNPU_ENGINE_DONE_CANCELED);
	d = done_of(21);
	ck_assert_uint_eq(d.status, VNPU_ENGINE_DONE_NOT_RUN);
	ck_assert_uint_eq(d.task, 1);
	/* Another stream's job runs. */
	ck_assert_uint_eq(done_of(22).status, VNPU_ENGINE_DONE_OK);
	ck_assert_uint_eq(read_word(2 * PAGE), 0);	/* nothing written */
	stop();
	ctl_rw->cancel[20] = 0;
}
END_TEST

START_TEST(malformed_events_are_faulted_or_skipped_never_read_past)
{
	struct drm_vnpu_engine_operand *ops;
	struct drm_vnpu_engine_task *t;
	struct drm_vnpu_engine_job *job;
	struct events e = { 0 };

	/* Arrays larger than the event: FAULT. */
	job = ev_job(&e, 1, 1, 0, &t, &ops);
	t[0].kind = VNPU_TASK_NOP;
	job->operand_count = 1000;
	/* Slot out of range, then a slot twice: not reported. */
	ev_job(&e, VNPU_ENGINE_SLOTS, 1, 0, &t, &ops);
	ev_job(&e, 2, 1, 0, &t, &ops);
	ev_job(&e, 2, 1, 0, &t, &ops);
	/* Too small for a job header: not reported. */
	ev_add(&e, VNPU_ENGINE_EVENT_JOB, 16);
	/* An unknown event type: skipped. */
	ev_add(&e, 99, 8);
	/* Then an event whose size runs past the buffer: the walk stops. */
	job = ev_job(&e, 4, 1, 0, &t, &ops);
	job->hdr.size = 1u << 20;
	script(&e);
	start();
	ck_assert_uint_eq(done_of(1).status, VNPU_ENGINE_DONE_FAULT);
	ck_assert_uint_eq(done_of(2).status, VNPU_ENGINE_DONE_OK);
	stop();
	ck_assert_uint_eq(done_total(), 2);
}
END_TEST

START_TEST(sigbus_in_a_job_faults_it)
{
	struct drm_vnpu_engine_operand *ops;
	struct drm_vnpu_engine_task *t;
	struct events e = { 0 };
	struct call *c;

	/* Pages past the memfd's end raise SIGBUS, as a reset engine's do. */
	ev_job(&e, 6, 2, 1, &t, &ops);
	t[0] = (struct drm_vnpu_engine_task){ .kind = VNPU_TASK_NOP };
	t[1] = (struct drm_vnpu_engine_task){ .kind = VNPU_TASK_FILL, .operand_count = 1 };
	ops[0] = buffer_op(8, MEMFD_PAGES - 1, 4, 0, 4 * PAGE);
	script(&e);
	start();
	wait_calls(2);
	c = &K.calls[1];
	ck_assert_uint_eq(c->run.done_count, 1);
	ck_assert_uint_eq(c->done[0].slot, 6);
	ck_assert_uint_eq(c->done[0].status, VNPU_ENGINE_DONE_FAULT);
	ck_assert_uint_eq(c->done[0].task, 1);
	stop();
}
END_TEST

START_TEST(enotconn_drops_reports_and_resets)
{
	struct drm_vnpu_engine_operand *ops;
	struct drm_vnpu_engine_task *t;
	struct events e = { 0 };

	ev_job(&e, 1, 1, 0, &t, &ops);
	t[0].kind = VNPU_TASK_NOP;
	script(&e);
	script_error(ENOTCONN);
	K.reset_answer = 0;		/* attached again */
	start();
	wait_calls(3);
	/* The report of the lost job is not sent to the new attachment. */
	ck_assert_uint_eq(K.calls[1].run.done_count, 1);
	ck_assert_uint_eq(K.calls[2].run.done_count, 0);
	ck_assert_uint_eq(K.resets, 1);
	stop();
	ck_assert(!K.failed);
}
END_TEST

START_TEST(eintr_retries_with_the_same_reports)
{
	struct drm_vnpu_engine_operand *ops;
	struct drm_vnpu_engine_task *t;
	struct events e = { 0 };

	ev_job(&e, 1, 1, 0, &t, &ops);
	t[0].kind = VNPU_TASK_NOP;
	script(&e);
	script_error(EINTR);
	start();
	wait_calls(3);
	ck_assert_uint_eq(K.calls[1].run.done_count, 1);
	ck_assert_uint_eq(K.calls[2].run.done_count, 1);
	ck_assert_uint_eq(K.calls[2].done[0].slot, 1);
	stop();
}
END_TEST

START_TEST(other_errors_end_the_server)
{
	uint64_t n = 0;

	script_error(EINVAL);
	start();
	for (int i = 0; i < 5000 && !workers_exited(&dev); i++)
		usleep(1000);
	ck_assert(workers_exited(&dev));
	ck_assert(K.failed);
	ck_assert_int_eq(read(srv.exit_efd, &n, sizeof(n)), sizeof(n));
	ck_assert_uint_eq(n, 1);
	stop();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("engined_worker");
	TCase *tc = tcase_create("engined_worker");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, jobs_are_reported_in_the_next_run);
	tcase_add_test(tc, stop_reports_jobs_held);
	tcase_add_test(tc, jobs_from_the_last_run_are_reported_too);
	tcase_add_test(tc, buffer_gone_needs_nothing_undone);
	tcase_add_test(tc, operand_outside_the_window_faults);
	tcase_add_test(tc, cancel_word_cancels_and_parked_waits_are_notified);
	tcase_add_test(tc, jobs_behind_a_stopped_one_come_back_unrun);
	tcase_add_test(tc, malformed_events_are_faulted_or_skipped_never_read_past);
	tcase_add_test(tc, sigbus_in_a_job_faults_it);
	tcase_add_test(tc, enotconn_drops_reports_and_resets);
	tcase_add_test(tc, eintr_retries_with_the_same_reports);
	tcase_add_test(tc, other_errors_end_the_server);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
