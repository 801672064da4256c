// SPDX-License-Identifier: GPL-2.0
/*
 * The engine interface. Clients try ENGINE_ATTACH with random fields: with a
 * server attached it must fail (-EBUSY; -EACCES without CAP_SYS_ADMIN). In
 * an -E boot (--engine) the coordinator process is the device's engine
 * server: one thread serves engine 0 with RUN, runs the jobs' data tasks
 * (faulting operators and, at random, other jobs), and between RUNs feeds
 * RUN and NOTIFY invalid arguments, which must fail with -EINVAL and change
 * nothing.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "vnpu_engine_util.h"
#include "vnpu_test.h"

void fz_gen_engine_attach(struct fz_thread *t)
{
	struct drm_vnpu_engine_attach a = { 0 };
	struct fz_expect e;
	bool bad;

	a.flags = fz_chance(&t->rng, 1, 4) ? fz_any32(&t->rng) : 0;
	a.pad = fz_chance(&t->rng, 1, 4) ? fz_any32(&t->rng) : 0;
	a.fd = fz_any32(&t->rng);
	bad = a.flags || a.pad;
	if (!t->root)
		fz_expect_invalid(&e, "engine_attach_root_only", EACCES, 0);
	else if (t->engine_attached || fz_opts.engine)
		fz_expect_invalid(&e, "engine_attach_busy", EBUSY, bad ? EINVAL : EBUSY, 0);
	else if (bad)
		fz_expect_invalid(&e, "engine_attach_invalid", EINVAL, 0);
	else
		/* No server (an -E boot without --engine): another thread may have won. */
		fz_expect_valid(&e, "engine_attach", EBUSY, EMFILE, 0);
	fz_what(t, "ENGINE_ATTACH flags=%#x pad=%#x", a.flags, a.pad);
	if (fz_judge(t, FZ_ENGINE_ATTACH, fz_ioctl(t->file->fd, FZ_ENGINE_ATTACH,
						   DRM_IOCTL_VNPU_ENGINE_ATTACH, &a), &e))
		return;
	fz_check(t, "engine_attach_info", a.num_slots == VNPU_ENGINE_SLOTS && a.num_engines >= 1 &&
		 a.ctl_size >= sizeof(struct drm_vnpu_engine_ctl) && a.buffers_size,
		 "slots %u engines %u ctl %u buffers %llu", a.num_slots, a.num_engines, a.ctl_size,
		 (unsigned long long)a.buffers_size);
	/* Detach at once: every unfinished job fails with the engine error. */
	close((int)a.fd);
}

/* ---------------------------------------------------------------- the server */

static struct {
	struct vnpu_test_engine e;
	pthread_t thread;
	volatile int stop;
	struct fz_rng rng;
	struct fz_thread ft;	/* for violations */
	uint32_t engines;
} srv;

static void on_usr1(int sig)
{
	(void)sig;
}

/* Invalid RUN and NOTIFY calls: they must fail with EINVAL. */
static void engine_bad_calls(void)
{
	struct drm_vnpu_engine_run run = {
		.done = 0, .events = (uint64_t)(uintptr_t)srv.e.events,
		.events_size = VNPU_ENGINE_EVENTS_MIN, .flags = VNPU_ENGINE_RUN_NONBLOCK,
	};
	struct drm_vnpu_engine_done done[2] = { 0 };
	struct drm_vnpu_engine_notify nt = { 0 };
	struct fz_thread *t = &srv.ft;
	struct fz_expect e;
	int ret;

	switch (fz_below(&srv.rng, 8)) {
	case 0:
		run.engine = srv.engines + (uint32_t)fz_below(&srv.rng, 1000);
		break;
	case 1:
		run.flags |= 2u << fz_below(&srv.rng, 31);
		break;
	case 2:
		run.pad = fz_any32(&srv.rng) | 1;
		break;
	case 3:
		run.done_count = VNPU_ENGINE_SLOTS + 1 + (uint32_t)fz_below(&srv.rng, 100);
		run.done = (uint64_t)(uintptr_t)done;
		break;
	case 4:
		run.events_size = (uint32_t)fz_below(&srv.rng, VNPU_ENGINE_EVENTS_MIN);
		break;
	case 5:		/* a slot that holds no job (none is held between RUNs here) */
		done[0].slot = (uint32_t)fz_below(&srv.rng, VNPU_ENGINE_SLOTS + 100);
		done[0].status = (uint32_t)fz_below(&srv.rng, 8);
		run.done = (uint64_t)(uintptr_t)done;
		run.done_count = 1;
		break;
	case 6:
		nt.flags = fz_chance(&srv.rng, 1, 2) ? fz_any32(&srv.rng) | 1 : 0;
		nt.pad = nt.flags ? 0 : fz_any32(&srv.rng) | 1;
		fz_expect_invalid(&e, "engine_notify_invalid", EINVAL, 0);
		fz_what(t, "ENGINE NOTIFY flags=%#x pad=%#x", nt.flags, nt.pad);
		fz_judge(t, FZ_ENGINE_NOTIFY, fz_ioctl(srv.e.fd, FZ_ENGINE_NOTIFY,
						       VNPU_ENGINE_IOCTL_NOTIFY, &nt), &e);
		return;
	default:
		fz_expect_valid(&e, "engine_notify", 0);
		fz_what(t, "ENGINE NOTIFY");
		fz_judge(t, FZ_ENGINE_NOTIFY, fz_ioctl(srv.e.fd, FZ_ENGINE_NOTIFY,
						       VNPU_ENGINE_IOCTL_NOTIFY, &nt), &e);
		return;
	}
	fz_expect_invalid(&e, "engine_run_invalid", EINVAL, 0);
	fz_what(t, "ENGINE RUN engine=%u flags=%#x pad=%#x done_count=%u events_size=%u",
		run.engine, run.flags, run.pad, run.done_count, run.events_size);
	ret = fz_ioctl(srv.e.fd, FZ_ENGINE_RUN, VNPU_ENGINE_IOCTL_RUN, &run);
	fz_judge(t, FZ_ENGINE_RUN, ret, &e);
}

/* Per stream of one RUN's jobs: did an earlier job of it not end OK? */
struct fz_seen {
	uint64_t client;
	uint32_t stream;
	bool broken;
};

static void *serve(void *arg)
{
	struct drm_vnpu_engine_done done[64];
	struct fz_seen seen[64];
	uint32_t ndone = 0;

	(void)arg;
	while (!srv.stop || ndone) {
		const struct drm_vnpu_engine_event *ev;
		struct drm_vnpu_engine_run run = {
			.done = (uint64_t)(uintptr_t)done, .done_count = ndone,
			.max_jobs = 1 + (uint32_t)fz_below(&srv.rng, 16),
			.events = (uint64_t)(uintptr_t)srv.e.events,
			.events_size = VNPU_ENGINE_EVENTS_MIN,
			.flags = srv.stop ? VNPU_ENGINE_RUN_NONBLOCK : 0,
		};
		unsigned int nseen = 0, i;
		int ret;

		if (srv.stop)
			run.max_jobs = 0;
		ret = vnpu_test_engine_run_raw(&srv.e, &run);
		fz_count(FZ_ENGINE_RUN, ret);
		if (ret) {
			fz_what(&srv.ft, "ENGINE RUN done=%u", ndone);
			fz_check(&srv.ft, "engine_run", ret == -ENOMEM, "RUN failed: %d", ret);
			if (ret != -ENOMEM)
				break;
			continue;
		}
		ndone = 0;
		for (ev = vnpu_test_engine_first(&srv.e); ev;
		     ev = vnpu_test_engine_next(&srv.e, ev)) {
			const struct drm_vnpu_engine_job *job = (const void *)ev;
			struct drm_vnpu_engine_done *d;
			struct fz_seen *s = NULL;

			if (ev->type == VNPU_ENGINE_EVENT_BUFFER_GONE) {
				vnpu_test_engine_unmap(&srv.e,
					((const struct drm_vnpu_engine_gone *)ev)->buffer);
				continue;
			}
			if (ev->type != VNPU_ENGINE_EVENT_JOB || ndone == 64)
				continue;
			for (i = 0; i < nseen; i++)
				if (seen[i].client == job->client && seen[i].stream == job->stream)
					s = &seen[i];
			if (!s && nseen < 64) {
				s = &seen[nseen++];
				*s = (struct fz_seen){ .client = job->client,
						       .stream = job->stream };
			}
			d = &done[ndone++];
			if (s && s->broken) {
				memset(d, 0, sizeof(*d));
				d->slot = job->slot;
				d->status = VNPU_ENGINE_DONE_NOT_RUN;
				d->task = job->first_task;
				continue;
			}
			if (fz_chance(&srv.rng, 1, 30)) {
				memset(d, 0, sizeof(*d));
				d->slot = job->slot;
				d->status = VNPU_ENGINE_DONE_FAULT;
				d->task = job->first_task;
			} else if (srv.e.ctl->cancel[job->slot % VNPU_ENGINE_SLOTS]) {
				memset(d, 0, sizeof(*d));
				d->slot = job->slot;
				d->status = VNPU_ENGINE_DONE_CANCELED;
				d->task = job->first_task;
			} else {
				vnpu_test_engine_exec(&srv.e, job, d);
			}
			if (d->status != VNPU_ENGINE_DONE_OK && s)
				s->broken = true;
		}
		if (!ndone && fz_chance(&srv.rng, 1, 2))
			engine_bad_calls();
	}
	return NULL;
}

int fz_engine_start(unsigned int dev, uint64_t seed)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	uint64_t n = 1;
	int ret;

	sigaction(SIGUSR1, &sa, NULL);
	fz_rng_seed(&srv.rng, seed ^ 0xe9e9e9e9ull);
	snprintf(srv.ft.what, sizeof(srv.ft.what), "engine server");
	srv.ft.proc = ~0u;
	ret = vnpu_test_engine_attach(dev, &srv.e);
	if (ret) {
		fprintf(stderr, "vnpu-fuzz: ENGINE_ATTACH: %s (an -E boot, as root?)\n",
			strerror(-ret));
		return ret;
	}
	vnpu_get_param(srv.e.dev_fd, VNPU_PARAM_NUM_ENGINES, &n);
	srv.engines = (uint32_t)n;
	return -pthread_create(&srv.thread, NULL, serve, NULL);
}

void fz_engine_stop(void)
{
	if (srv.e.fd < 0 || !srv.e.events)
		return;
	srv.stop = 1;
	pthread_kill(srv.thread, SIGUSR1);
	pthread_join(srv.thread, NULL);
	vnpu_test_engine_close(&srv.e);
}
