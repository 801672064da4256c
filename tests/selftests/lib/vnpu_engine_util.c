// SPDX-License-Identifier: GPL-2.0
/*
 * A minimal engine server for the selftests (see vnpu_engine_util.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "vnpu_engine_util.h"
#include "vnpu_test.h"

int vnpu_test_engine_attach(unsigned int index, struct vnpu_test_engine *e)
{
	void *ctl;
	int ret;

	memset(e, 0, sizeof(*e));
	e->fd = -1;
	e->dev_fd = vnpu_open_device(index);
	if (e->dev_fd < 0)
		return -ENODEV;
	ret = vnpu_ioctl(e->dev_fd, DRM_IOCTL_VNPU_ENGINE_ATTACH, &e->info);
	if (ret)
		goto err_dev;
	e->fd = (int)e->info.fd;
	ctl = mmap(NULL, e->info.ctl_size, PROT_READ, MAP_SHARED, e->fd,
		   (off_t)e->info.ctl_offset);
	if (ctl == MAP_FAILED) {
		ret = -errno;
		goto err_fd;
	}
	e->ctl = ctl;
	e->events = malloc(VNPU_ENGINE_EVENTS_MIN);
	if (!e->events) {
		ret = -ENOMEM;
		goto err_ctl;
	}
	return 0;

err_ctl:
	munmap(ctl, e->info.ctl_size);
err_fd:
	close(e->fd);
	e->fd = -1;
err_dev:
	close(e->dev_fd);
	e->dev_fd = -1;
	return ret;
}

void vnpu_test_engine_close(struct vnpu_test_engine *e)
{
	while (e->nmaps)
		vnpu_test_engine_unmap(e, e->maps[e->nmaps - 1].id);
	if (e->ctl)
		munmap((void *)e->ctl, e->info.ctl_size);
	e->ctl = NULL;
	if (e->fd >= 0)
		close(e->fd);
	e->fd = -1;
	if (e->dev_fd >= 0)
		close(e->dev_fd);
	e->dev_fd = -1;
	free(e->events);
	e->events = NULL;
}

int vnpu_test_engine_run_raw(struct vnpu_test_engine *e, struct drm_vnpu_engine_run *args)
{
	int ret = vnpu_ioctl(e->fd, VNPU_ENGINE_IOCTL_RUN, args);

	e->event_count = ret ? 0 : args->event_count;
	e->events_used = ret ? 0 : args->events_used;
	return ret;
}

int vnpu_test_engine_run(struct vnpu_test_engine *e, const struct drm_vnpu_engine_done *done,
			 uint32_t ndone, uint32_t max_jobs, uint32_t flags)
{
	struct drm_vnpu_engine_run args = {
		.flags = flags,
		.done = (uint64_t)(uintptr_t)done,
		.done_count = ndone,
		.max_jobs = max_jobs,
		.events = (uint64_t)(uintptr_t)e->events,
		.events_size = VNPU_ENGINE_EVENTS_MIN,
	};

	return vnpu_test_engine_run_raw(e, &args);
}

int vnpu_test_engine_notify(struct vnpu_test_engine *e)
{
	struct drm_vnpu_engine_notify args = { 0 };

	return vnpu_ioctl(e->fd, VNPU_ENGINE_IOCTL_NOTIFY, &args);
}

const struct drm_vnpu_engine_event *vnpu_test_engine_first(const struct vnpu_test_engine *e)
{
	return e->event_count ? e->events : NULL;
}

const struct drm_vnpu_engine_event *vnpu_test_engine_next(const struct vnpu_test_engine *e,
							 const struct drm_vnpu_engine_event *ev)
{
	const uint8_t *next = (const uint8_t *)ev + ev->size;

	return next < (const uint8_t *)e->events + e->events_used ? (const void *)next : NULL;
}

const struct drm_vnpu_engine_job *vnpu_test_engine_job(const struct vnpu_test_engine *e)
{
	const struct drm_vnpu_engine_event *ev;

	for (ev = vnpu_test_engine_first(e); ev; ev = vnpu_test_engine_next(e, ev)) {
		if (ev->type == VNPU_ENGINE_EVENT_JOB)
			return (const struct drm_vnpu_engine_job *)ev;
		if (ev->type == VNPU_ENGINE_EVENT_BUFFER_GONE)
			vnpu_test_engine_unmap((struct vnpu_test_engine *)e,
					       ((const struct drm_vnpu_engine_gone *)ev)->buffer);
	}
	return NULL;
}

const struct drm_vnpu_engine_job *vnpu_test_engine_take(struct vnpu_test_engine *e,
							const struct drm_vnpu_engine_done *done)
{
	const struct drm_vnpu_engine_job *job;

	if (vnpu_test_engine_run(e, done, done ? 1 : 0, 1, 0))
		return NULL;
	for (;;) {
		job = vnpu_test_engine_job(e);
		if (job)
			return job;
		/* Only gone events, or a signal: wait on. */
		if (vnpu_test_engine_run(e, NULL, 0, 1, 0))
			return NULL;
	}
}

const struct drm_vnpu_engine_task *vnpu_test_job_tasks(const struct drm_vnpu_engine_job *job)
{
	return (const void *)(job + 1);
}

const struct drm_vnpu_engine_operand *vnpu_test_job_operands(const struct drm_vnpu_engine_job *job)
{
	return (const void *)(vnpu_test_job_tasks(job) + job->task_count);
}

const uint8_t *vnpu_test_job_data(const struct drm_vnpu_engine_job *job)
{
	return (const void *)(vnpu_test_job_operands(job) + job->operand_count);
}

void *vnpu_test_engine_ptr(struct vnpu_test_engine *e, const struct drm_vnpu_engine_operand *op)
{
	struct vnpu_test_map *m;
	unsigned int i;
	void *cpu;

	for (i = 0; i < e->nmaps; i++)
		if (e->maps[i].id == op->buffer)
			return (uint8_t *)e->maps[i].cpu + op->offset;
	if (e->nmaps == VNPU_TEST_ENGINE_MAPS)
		return NULL;
	cpu = mmap(NULL, op->buffer_size, PROT_READ | PROT_WRITE, MAP_SHARED, e->fd,
		   (off_t)op->buffer_offset);
	if (cpu == MAP_FAILED)
		return NULL;
	m = &e->maps[e->nmaps++];
	m->id = op->buffer;
	m->cpu = cpu;
	m->size = op->buffer_size;
	return (uint8_t *)cpu + op->offset;
}

void vnpu_test_engine_unmap(struct vnpu_test_engine *e, uint64_t id)
{
	unsigned int i;

	for (i = 0; i < e->nmaps; i++) {
		if (e->maps[i].id != id)
			continue;
		munmap(e->maps[i].cpu, e->maps[i].size);
		e->maps[i] = e->maps[--e->nmaps];
		return;
	}
}

static bool wait_holds(const struct drm_vnpu_engine_task *t, const void *word)
{
	uint64_t w = t->flags & VNPU_TASK_VALUE_64 ? *(volatile const uint64_t *)word
						   : *(volatile const uint32_t *)word;
	uint64_t mask = t->flags & VNPU_TASK_VALUE_64 ? UINT64_MAX : UINT32_MAX;

	switch (t->cmp) {
	case VNPU_WAIT_GEQ: return w >= t->value;
	case VNPU_WAIT_EQ: return w == t->value;
	case VNPU_WAIT_AND: return (w & t->value) != 0;
	default: return (~(w | t->value) & mask) != 0;
	}
}

void vnpu_test_engine_exec(struct vnpu_test_engine *e, const struct drm_vnpu_engine_job *job,
			   struct drm_vnpu_engine_done *done)
{
	const struct drm_vnpu_engine_task *tasks = vnpu_test_job_tasks(job);
	const struct drm_vnpu_engine_operand *ops = vnpu_test_job_operands(job);
	uint32_t i;

	memset(done, 0, sizeof(*done));
	done->slot = job->slot;
	for (i = job->first_task; i < job->task_count; i++) {
		const struct drm_vnpu_engine_task *t = &tasks[i];
		void *p0 = t->operand_count ? vnpu_test_engine_ptr(e, &ops[t->operand]) : NULL;
		void *p1 = t->operand_count > 1 ? vnpu_test_engine_ptr(e, &ops[t->operand + 1]) : NULL;
		struct timespec ts;

		if ((t->operand_count && !p0) || (t->operand_count > 1 && !p1)) {
			done->status = VNPU_ENGINE_DONE_FAULT;
			done->task = i;
			return;
		}
		switch (t->kind) {
		case VNPU_TASK_NOP:
			break;
		case VNPU_TASK_COPY:
			memmove(p0, p1, ops[t->operand].size);
			break;
		case VNPU_TASK_FILL:
			memset(p0, (int)t->value, ops[t->operand].size);
			break;
		case VNPU_TASK_WRITE_VALUE:
			if (t->flags & VNPU_TASK_VALUE_64)
				*(volatile uint64_t *)p0 = t->value;
			else
				*(volatile uint32_t *)p0 = (uint32_t)t->value;
			break;
		case VNPU_TASK_TIMESTAMP:
			clock_gettime(CLOCK_MONOTONIC, &ts);
			*(volatile uint64_t *)p0 = (uint64_t)ts.tv_sec * 1000000000ull +
						   (uint64_t)ts.tv_nsec;
			break;
		case VNPU_TASK_WAIT_VALUE:
			if (wait_holds(t, p0))
				break;
			done->status = VNPU_ENGINE_DONE_BLOCKED;
			done->task = i;
			return;
		default:
			done->status = VNPU_ENGINE_DONE_FAULT;
			done->task = i;
			return;
		}
	}
}
