/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal engine server for the selftests of the engine interface: the
 * tests play the server themselves, one RUN call at a time, so they decide
 * exactly what the kernel is told and when. Functions return 0 or -errno
 * unless noted.
 */
#ifndef VNPU_ENGINE_UTIL_H
#define VNPU_ENGINE_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vnpu_drm.h"

#define VNPU_TEST_ENGINE_MAPS 64

/* One buffer the test engine has mapped. */
struct vnpu_test_map {
	uint64_t id;
	void *cpu;
	uint64_t size;
};

struct vnpu_test_engine {
	int dev_fd;			/* the device node it attached through */
	int fd;				/* the engine file, or -1 */
	struct drm_vnpu_engine_attach info;
	const struct drm_vnpu_engine_ctl *ctl;
	void *events;			/* VNPU_ENGINE_EVENTS_MIN bytes */
	uint32_t event_count;		/* of the last RUN */
	uint32_t events_used;
	struct vnpu_test_map maps[VNPU_TEST_ENGINE_MAPS];
	unsigned int nmaps;
};

/* Attach to device @index as its engine server (needs root). */
int vnpu_test_engine_attach(unsigned int index, struct vnpu_test_engine *e);
/* Unmap everything and close the engine file (detach) and the device. */
void vnpu_test_engine_close(struct vnpu_test_engine *e);

/* RUN: report @ndone jobs, take up to @max_jobs; events land in e->events. */
int vnpu_test_engine_run(struct vnpu_test_engine *e, const struct drm_vnpu_engine_done *done,
			 uint32_t ndone, uint32_t max_jobs, uint32_t flags);
/* RUN with everything spelled out (the ioctl's own struct). */
int vnpu_test_engine_run_raw(struct vnpu_test_engine *e, struct drm_vnpu_engine_run *args);
int vnpu_test_engine_notify(struct vnpu_test_engine *e);

/* Events of the last RUN: the first, and the one after @ev (NULL at the end). */
const struct drm_vnpu_engine_event *vnpu_test_engine_first(const struct vnpu_test_engine *e);
const struct drm_vnpu_engine_event *vnpu_test_engine_next(const struct vnpu_test_engine *e,
							 const struct drm_vnpu_engine_event *ev);
/* The first job event of the last RUN, or NULL. */
const struct drm_vnpu_engine_job *vnpu_test_engine_job(const struct vnpu_test_engine *e);
/*
 * Wait (RUN, blocking, one job at a time) for a job, reporting @done first
 * if not NULL; NULL if the call failed or brought none.
 */
const struct drm_vnpu_engine_job *vnpu_test_engine_take(struct vnpu_test_engine *e,
							const struct drm_vnpu_engine_done *done);

/* Parts of a job event. */
const struct drm_vnpu_engine_task *vnpu_test_job_tasks(const struct drm_vnpu_engine_job *job);
const struct drm_vnpu_engine_operand *vnpu_test_job_operands(const struct drm_vnpu_engine_job *job);
const uint8_t *vnpu_test_job_data(const struct drm_vnpu_engine_job *job);

/* The CPU address of an operand's first byte (mapping its buffer); NULL on failure. */
void *vnpu_test_engine_ptr(struct vnpu_test_engine *e, const struct drm_vnpu_engine_operand *op);
/* Forget (and unmap) buffer @id, as for a BUFFER_GONE event. */
void vnpu_test_engine_unmap(struct vnpu_test_engine *e, uint64_t id);

/*
 * Run a job's data tasks from first_task on as a server would (NOP, COPY,
 * FILL, WRITE_VALUE, TIMESTAMP; WAIT_VALUE ends it BLOCKED if its word does
 * not hold; OP faults), filling in @done.
 */
void vnpu_test_engine_exec(struct vnpu_test_engine *e, const struct drm_vnpu_engine_job *job,
			   struct drm_vnpu_engine_done *done);

#endif /* VNPU_ENGINE_UTIL_H */
