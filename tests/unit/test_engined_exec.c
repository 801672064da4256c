// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of vnpu-engined's pure parts: walking a RUN's event
 * buffer (tools/engined/job.c), executing a job's tasks against fake
 * buffers (tools/engined/exec.c) and the buffer window over a memfd
 * (tools/engined/window.c). Every event and buffer lives in an exactly
 * sized allocation, so ASan catches any read or write past the ranges the
 * "kernel" gave.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "engined.h"

/* ---- a fake kernel's job events ---------------------------------------------- */

#define MAX_T 64
#define MAX_O 300

struct jobspec {
	uint32_t slot, first_task;
	struct drm_vnpu_engine_task tasks[MAX_T];
	uint32_t ntasks;
	struct drm_vnpu_engine_operand ops[MAX_O];
	uint32_t nops;
	unsigned char data[4096];
	uint32_t ndata;
};

/* A JOB event in an allocation of exactly its size (+ @extra bytes claimed). */
static struct drm_vnpu_engine_event *build(const struct jobspec *j, int extra)
{
	size_t tasks = j->ntasks * sizeof(j->tasks[0]), ops = j->nops * sizeof(j->ops[0]);
	size_t data = (j->ndata + 7) & ~7u;
	size_t size = sizeof(struct drm_vnpu_engine_job) + tasks + ops + data;
	struct drm_vnpu_engine_job *job = calloc(1, size);
	unsigned char *p = (unsigned char *)(job + 1);

	ck_assert_ptr_nonnull(job);
	job->hdr.type = VNPU_ENGINE_EVENT_JOB;
	job->hdr.size = (uint32_t)size;
	job->slot = j->slot;
	job->task_count = j->ntasks;
	job->first_task = j->first_task;
	job->operand_count = j->nops;
	job->data_size = j->ndata + (uint32_t)extra;
	job->stream = 7;
	job->seqno = 42;
	memcpy(p, j->tasks, tasks);
	memcpy(p + tasks, j->ops, ops);
	memcpy(p + tasks + ops, j->data, j->ndata);
	return &job->hdr;
}

static void add_task(struct jobspec *j, uint32_t kind, uint32_t first_op, uint32_t nops,
		     uint64_t value)
{
	j->tasks[j->ntasks++] = (struct drm_vnpu_engine_task){
		.kind = kind, .operand = first_op, .operand_count = nops, .value = value,
	};
}

/* ---- fake buffers and the rest of exec_env ----------------------------------- */

#define NBUF 4

static struct {
	unsigned char *mem[NBUF + 1];	/* by id 1..NBUF */
	uint64_t size[NBUF + 1];
	unsigned int maps;
	unsigned int notifies;
	uint32_t cancel;
	uint32_t parked;
	/* what the fake operator saw, and what it answers */
	unsigned int op_calls;
	struct vops_operand op_seen[VNPU_MAX_OP_OPERANDS];
	unsigned int op_nseen;
	const void *op_desc;		/* (the event is gone after run()) */
	unsigned char op_desc_head[8];
	size_t op_desc_size;
	enum vops_run_status op_answer;
	bool op_stop_seen;
} F;

static uint64_t buf_offset(uint64_t id)
{
	return id << 32;
}

static void setup(void)
{
	memset(&F, 0, sizeof(F));
	for (uint64_t id = 1; id <= NBUF; id++) {
		F.size[id] = 4096 * id;
		F.mem[id] = calloc(1, F.size[id]);
		ck_assert_ptr_nonnull(F.mem[id]);
	}
}

static void teardown(void)
{
	for (unsigned int id = 1; id <= NBUF; id++)
		free(F.mem[id]);
}

static struct drm_vnpu_engine_operand operand(uint64_t id, uint64_t offset, uint64_t size,
					      uint32_t access)
{
	return (struct drm_vnpu_engine_operand){
		.buffer = id, .buffer_offset = buf_offset(id), .buffer_size = F.size[id],
		.offset = offset, .size = size, .access = access,
	};
}

static void *fake_map(void *priv, const struct drm_vnpu_engine_operand *op)
{
	(void)priv;
	F.maps++;
	if (op->buffer < 1 || op->buffer > NBUF || op->buffer_offset != buf_offset(op->buffer) ||
	    op->buffer_size != F.size[op->buffer])
		return NULL;
	return F.mem[op->buffer];
}

static void fake_notify(void *priv)
{
	(void)priv;
	F.notifies++;
}

static enum vops_run_status fake_op(const void *desc, size_t desc_size,
				    const struct vops_operand *ops, unsigned int n,
				    const struct vops_ctl *ctl, char *why, size_t why_size)
{
	F.op_calls++;
	F.op_desc = desc;
	F.op_desc_size = desc_size;
	memcpy(F.op_desc_head, desc, desc_size < 8 ? desc_size : 8);
	F.op_nseen = n;
	memcpy(F.op_seen, ops, n * sizeof(*ops));
	F.op_stop_seen = ctl && ctl->should_stop(ctl->priv);
	/* Touch every byte it was given: ASan checks the ranges. */
	for (unsigned int i = 0; i < n; i++)
		if (ops[i].access != VNPU_OPERAND_READ)
			memset(ops[i].ptr, 0x5a, ops[i].size);
	snprintf(why, why_size, "fake says no");
	return F.op_answer;
}

static uint64_t scratch[VNPU_MAX_OP_DESC_SIZE / 8];

static struct exec_env env(void)
{
	return (struct exec_env){
		.map = fake_map, .notify = fake_notify, .run_op = fake_op,
		.cancel = &F.cancel, .parked = &F.parked, .desc_scratch = scratch,
	};
}

/* Build, check and run @j; returns the result. */
static struct exec_result run(const struct jobspec *j)
{
	struct drm_vnpu_engine_event *ev = build(j, 0);
	struct exec_env e = env();
	struct exec_result res;
	struct job_view v;

	ck_assert_int_eq(job_view_init(&v, ev), 0);
	memset(&res, 0xff, sizeof(res));
	exec_job(&v, &e, &res);
	free(ev);
	return res;
}

/* ---- the event buffer ---------------------------------------------------------- */

START_TEST(events_are_walked_in_order)
{
	uint64_t buf[8] = { 0 };
	struct drm_vnpu_engine_gone *g = (void *)buf;
	const struct drm_vnpu_engine_event *ev;
	struct ev_iter it;

	g[0].hdr = (struct drm_vnpu_engine_event){ VNPU_ENGINE_EVENT_BUFFER_GONE, sizeof(*g) };
	g[0].buffer = 11;
	g[1].hdr = (struct drm_vnpu_engine_event){ VNPU_ENGINE_EVENT_BUFFER_GONE, sizeof(*g) };
	g[1].buffer = 12;
	ev_iter_init(&it, buf, 2 * sizeof(*g), 2);
	ck_assert_int_eq(ev_iter_next(&it, &ev), 1);
	ck_assert_uint_eq(((const struct drm_vnpu_engine_gone *)ev)->buffer, 11);
	ck_assert_int_eq(ev_iter_next(&it, &ev), 1);
	ck_assert_uint_eq(((const struct drm_vnpu_engine_gone *)ev)->buffer, 12);
	ck_assert_int_eq(ev_iter_next(&it, &ev), 0);
	/* The count bounds the walk even when bytes are left. */
	ev_iter_init(&it, buf, 2 * sizeof(*g), 1);
	ck_assert_int_eq(ev_iter_next(&it, &ev), 1);
	ck_assert_int_eq(ev_iter_next(&it, &ev), 0);
}
END_TEST

START_TEST(event_sizes_that_lie_stop_the_walk)
{
	static const uint32_t bad[] = { 0, 4, 12, 17, 40, 1u << 31 };
	const struct drm_vnpu_engine_event *ev;
	struct ev_iter it;

	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		/* 32 bytes: one event header, claiming bad[i] bytes. */
		struct drm_vnpu_engine_event *hdr = calloc(1, 32);

		hdr->type = VNPU_ENGINE_EVENT_JOB;
		hdr->size = bad[i];
		ev_iter_init(&it, hdr, 32, 1);
		ck_assert_int_eq(ev_iter_next(&it, &ev), -EBADMSG);
		free(hdr);
	}
	/* More events counted than bytes used. */
	{
		struct drm_vnpu_engine_gone *g = calloc(1, sizeof(*g));

		g->hdr = (struct drm_vnpu_engine_event){ VNPU_ENGINE_EVENT_BUFFER_GONE, sizeof(*g) };
		ev_iter_init(&it, g, sizeof(*g), 3);
		ck_assert_int_eq(ev_iter_next(&it, &ev), 1);
		ck_assert_int_eq(ev_iter_next(&it, &ev), -EBADMSG);
		free(g);
	}
	/* Fewer bytes used than one header. */
	{
		uint64_t *w = calloc(1, 8);

		ev_iter_init(&it, w, 4, 1);
		ck_assert_int_eq(ev_iter_next(&it, &ev), -EBADMSG);
		free(w);
	}
}
END_TEST

START_TEST(job_too_small_for_its_header_cannot_be_reported)
{
	struct drm_vnpu_engine_event *ev = calloc(1, 16);
	struct job_view v;

	ev->type = VNPU_ENGINE_EVENT_JOB;
	ev->size = 16;
	ck_assert_int_eq(job_view_init(&v, ev), -EINVAL);
	free(ev);
}
END_TEST

START_TEST(job_arrays_past_the_event_are_malformed)
{
	struct jobspec j = { .slot = 9 };
	struct drm_vnpu_engine_event *ev;
	struct drm_vnpu_engine_job *job;
	struct job_view v;

	add_task(&j, VNPU_TASK_NOP, 0, 0, 0);
	add_task(&j, VNPU_TASK_NOP, 0, 0, 0);
	/* Data one byte beyond the event. */
	ev = build(&j, 1);
	ck_assert_int_eq(job_view_init(&v, ev), -EBADMSG);
	ck_assert_uint_eq(v.slot, 9);
	ck_assert_uint_eq(job_fault_task(&v), 0);
	free(ev);
	/* Counts whose byte sizes would wrap 32 bits. */
	ev = build(&j, 0);
	job = (struct drm_vnpu_engine_job *)ev;
	job->task_count = UINT32_MAX;
	ck_assert_int_eq(job_view_init(&v, ev), -EBADMSG);
	job->task_count = 2;
	job->operand_count = UINT32_MAX;
	ck_assert_int_eq(job_view_init(&v, ev), -EBADMSG);
	job->operand_count = 0;
	job->data_size = UINT32_MAX;
	ck_assert_int_eq(job_view_init(&v, ev), -EBADMSG);
	job->data_size = 0;
	/* A first task past the end. */
	job->first_task = 3;
	ck_assert_int_eq(job_view_init(&v, ev), -EBADMSG);
	ck_assert_uint_eq(job_fault_task(&v), 1);
	job->first_task = 2;
	ck_assert_int_eq(job_view_init(&v, ev), 0);
	free(ev);
}
END_TEST

/* ---- tasks ------------------------------------------------------------------- */

START_TEST(nop_job_is_ok_at_task_zero)
{
	struct jobspec j = { 0 };
	struct exec_result r;

	add_task(&j, VNPU_TASK_NOP, 0, 0, 0);
	r = run(&j);
	ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_OK);
	ck_assert_uint_eq(r.task, 0);
	ck_assert_uint_eq(F.maps, 0);
}
END_TEST

START_TEST(data_tasks_do_what_they_say)
{
	struct jobspec j = { 0 };
	struct timespec before, after;
	struct exec_result r;
	uint64_t ts, lo, hi;

	j.ops[j.nops++] = operand(1, 100, 50, VNPU_OPERAND_WRITE);	/* fill dst */
	j.ops[j.nops++] = operand(2, 0, 50, VNPU_OPERAND_WRITE);	/* copy dst */
	j.ops[j.nops++] = operand(1, 100, 50, VNPU_OPERAND_READ);	/* copy src */
	j.ops[j.nops++] = operand(3, 8, 4, VNPU_OPERAND_WRITE);		/* 32-bit word */
	j.ops[j.nops++] = operand(3, 16, 8, VNPU_OPERAND_WRITE);	/* 64-bit word */
	j.ops[j.nops++] = operand(3, 24, 8, VNPU_OPERAND_WRITE);	/* timestamp */
	add_task(&j, VNPU_TASK_FILL, 0, 1, 0xab);
	add_task(&j, VNPU_TASK_COPY, 1, 2, 0);
	add_task(&j, VNPU_TASK_WRITE_VALUE, 3, 1, 0xdeadbeef);
	add_task(&j, VNPU_TASK_WRITE_VALUE, 4, 1, 0x0123456789abcdefull);
	j.tasks[3].flags = VNPU_TASK_VALUE_64;
	add_task(&j, VNPU_TASK_TIMESTAMP, 5, 1, 0);
	clock_gettime(CLOCK_MONOTONIC, &before);
	r = run(&j);
	clock_gettime(CLOCK_MONOTONIC, &after);
	ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_OK);
	for (int i = 0; i < 50; i++) {
		ck_assert_uint_eq(F.mem[1][100 + i], 0xab);
		ck_assert_uint_eq(F.mem[2][i], 0xab);
	}
	ck_assert_uint_eq(F.mem[1][99], 0);
	ck_assert_uint_eq(F.mem[1][150], 0);
	ck_assert_uint_eq(F.mem[2][50], 0);
	ck_assert_uint_eq(*(uint32_t *)(F.mem[3] + 8), 0xdeadbeef);
	ck_assert_uint_eq(*(uint32_t *)(F.mem[3] + 12), 0);
	ck_assert_uint_eq(*(uint64_t *)(F.mem[3] + 16), 0x0123456789abcdefull);
	memcpy(&ts, F.mem[3] + 24, 8);
	lo = (uint64_t)before.tv_sec * 1000000000u + (uint64_t)before.tv_nsec;
	hi = (uint64_t)after.tv_sec * 1000000000u + (uint64_t)after.tv_nsec;
	ck_assert_uint_ge(ts, lo);
	ck_assert_uint_le(ts, hi);
	/* Three buffers, each mapped once for the whole job. */
	ck_assert_uint_eq(F.maps, 3);
}
END_TEST

START_TEST(operand_index_out_of_range_faults_that_task)
{
	struct jobspec j = { 0 };
	struct exec_result r;

	j.ops[j.nops++] = operand(1, 0, 4, VNPU_OPERAND_WRITE);
	add_task(&j, VNPU_TASK_WRITE_VALUE, 0, 1, 1);
	add_task(&j, VNPU_TASK_WRITE_VALUE, 1, 1, 2);		/* operand 1 of 1 */
	add_task(&j, VNPU_TASK_WRITE_VALUE, 0, 1, 3);
	r = run(&j);
	ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_FAULT);
	ck_assert_uint_eq(r.task, 1);
	ck_assert_uint_eq(*(uint32_t *)F.mem[1], 1);		/* task 2 never ran */
	/* An index whose sum with the count wraps 32 bits. */
	j.tasks[1].operand = UINT32_MAX;
	j.tasks[1].operand_count = 1;
	r = run(&j);
	ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_FAULT);
	ck_assert_uint_eq(r.task, 1);
}
END_TEST

START_TEST(operand_outside_its_buffer_faults_before_mapping)
{
	static const struct {
		uint64_t offset, size;
	} bad[] = { { 4096, 1 }, { 4000, 97 }, { 0, 4097 }, { UINT64_MAX, 2 }, { 8, UINT64_MAX },
		    { 0, 0 } };

	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct jobspec j = { 0 };
		struct exec_result r;

		j.ops[j.nops++] = operand(1, bad[i].offset, bad[i].size, VNPU_OPERAND_WRITE);
		add_task(&j, VNPU_TASK_FILL, 0, 1, 1);
		F.maps = 0;
		r = run(&j);
		ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_FAULT);
		ck_assert_uint_eq(r.task, 0);
		ck_assert_uint_eq(F.maps, 0);
	}
}
END_TEST

START_TEST(unmappable_or_inconsistent_buffers_fault)
{
	struct jobspec j = { 0 };
	struct exec_result r;

	/* The map callback refuses it. */
	j.ops[j.nops++] = operand(1, 0, 4, VNPU_OPERAND_WRITE);
	j.ops[0].buffer_offset = 12345;
	add_task(&j, VNPU_TASK_WRITE_VALUE, 0, 1, 1);
	r = run(&j);
	ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_FAULT);
	/* One buffer named with two sizes in one job: the second faults. */
	memset(&j, 0, sizeof(j));
	j.ops[j.nops++] = operand(2, 0, 4, VNPU_OPERAND_WRITE);
	j.ops[j.nops++] = operand(2, 4, 4, VNPU_OPERAND_WRITE);
	j.ops[1].buffer_size *= 2;
	j.ops[1].offset = F.size[2];			/* would be past the real buffer */
	add_task(&j, VNPU_TASK_WRITE_VALUE, 0, 1, 1);
	add_task(&j, VNPU_TASK_WRITE_VALUE, 1, 1, 2);
	r = run(&j);
	ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_FAULT);
	ck_assert_uint_eq(r.task, 1);
}
END_TEST

START_TEST(writes_need_a_writable_operand)
{
	struct jobspec j = { 0 };
	struct exec_result r;

	j.ops[j.nops++] = operand(1, 0, 64, VNPU_OPERAND_READ);
	j.ops[j.nops++] = operand(1, 64, 64, VNPU_OPERAND_READ);
	add_task(&j, VNPU_TASK_COPY, 0, 2, 0);
	r = run(&j);
	ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_FAULT);
	/* Unknown access values too. */
	j.ops[0].access = 0;
	r = run(&j);
	ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_FAULT);
	j.ops[0].access = 4;
	r = run(&j);
	ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_FAULT);
	/* Workspace may be written. */
	j.ops[0].access = VNPU_OPERAND_WORKSPACE;
	r = run(&j);
	ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_OK);
}
END_TEST

START_TEST(malformed_data_tasks_fault)
{
	struct jobspec j;
	struct exec_result r;

	/* COPY with operands of two sizes, or with only the job's last one; a
	 * FILL with two. */
	memset(&j, 0, sizeof(j));
	j.ops[j.nops++] = operand(1, 0, 64, VNPU_OPERAND_WRITE);
	j.ops[j.nops++] = operand(2, 0, 65, VNPU_OPERAND_WRITE);
	add_task(&j, VNPU_TASK_COPY, 0, 2, 0);
	add_task(&j, VNPU_TASK_COPY, 1, 1, 0);
	add_task(&j, VNPU_TASK_FILL, 0, 2, 1);
	r = run(&j);
	ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_FAULT);
	ck_assert_uint_eq(r.task, 0);
	j.first_task = 1;
	r = run(&j);
	ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_FAULT);
	ck_assert_uint_eq(r.task, 1);
	j.first_task = 2;
	r = run(&j);
	ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_FAULT);
	ck_assert_uint_eq(r.task, 2);
	ck_assert_uint_eq(F.mem[1][0], 0);
	/* A word too small, or misaligned. */
	memset(&j, 0, sizeof(j));
	j.ops[j.nops++] = operand(1, 0, 4, VNPU_OPERAND_WRITE);
	j.ops[j.nops++] = operand(1, 2, 4, VNPU_OPERAND_WRITE);
	add_task(&j, VNPU_TASK_WRITE_VALUE, 0, 1, 1);
	j.tasks[0].flags = VNPU_TASK_VALUE_64;
	r = run(&j);
	ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_FAULT);
	j.tasks[0] = (struct drm_vnpu_engine_task){ .kind = VNPU_TASK_WRITE_VALUE, .operand = 1,
						    .operand_count = 1 };
	r = run(&j);
	ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_FAULT);
	j.tasks[0] = (struct drm_vnpu_engine_task){ .kind = VNPU_TASK_TIMESTAMP, .operand = 0,
						    .operand_count = 1 };
	r = run(&j);
	ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_FAULT);
	/* A fill value that is no byte. */
	j.tasks[0] = (struct drm_vnpu_engine_task){ .kind = VNPU_TASK_FILL, .operand = 0,
						    .operand_count = 1, .value = 256 };
	r = run(&j);
	ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_FAULT);
	/* Unknown kind, flags, comparison. */
	j.tasks[0] = (struct drm_vnpu_engine_task){ .kind = 7 };
	r = run(&j);
	ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_FAULT);
	j.tasks[0] = (struct drm_vnpu_engine_task){ .kind = VNPU_TASK_NOP, .flags = 2 };
	r = run(&j);
	ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_FAULT);
	j.tasks[0] = (struct drm_vnpu_engine_task){ .kind = VNPU_TASK_WAIT_VALUE, .operand = 0,
						    .operand_count = 1, .cmp = 4 };
	j.ops[0].access = VNPU_OPERAND_READ;
	r = run(&j);
	ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_FAULT);
	ck_assert_uint_eq(*(uint32_t *)F.mem[1], 0);
}
END_TEST

START_TEST(wait_that_does_not_hold_blocks_at_its_task)
{
	struct jobspec j = { 0 };
	struct exec_result r;

	j.ops[j.nops++] = operand(1, 0, 4, VNPU_OPERAND_WRITE);
	j.ops[j.nops++] = operand(1, 0, 4, VNPU_OPERAND_READ);
	j.ops[j.nops++] = operand(1, 4, 4, VNPU_OPERAND_WRITE);
	add_task(&j, VNPU_TASK_WRITE_VALUE, 0, 1, 5);
	add_task(&j, VNPU_TASK_WAIT_VALUE, 1, 1, 5);		/* 5 >= 5: holds */
	add_task(&j, VNPU_TASK_WAIT_VALUE, 1, 1, 6);		/* 5 >= 6: not */
	add_task(&j, VNPU_TASK_WRITE_VALUE, 2, 1, 9);
	r = run(&j);
	ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_BLOCKED);
	ck_assert_uint_eq(r.task, 2);
	ck_assert_uint_eq(*(uint32_t *)(F.mem[1] + 4), 0);
	/* Handed out again after the wait: it starts there. */
	*(uint32_t *)F.mem[1] = 0;
	j.first_task = 3;
	r = run(&j);
	ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_OK);
	ck_assert_uint_eq(*(uint32_t *)F.mem[1], 0);		/* task 0 did not run again */
	ck_assert_uint_eq(*(uint32_t *)(F.mem[1] + 4), 9);
}
END_TEST

START_TEST(wait_conditions)
{
	/* GEQ is unsigned. */
	ck_assert_int_eq(vnpu_wait_cond_holds(VNPU_WAIT_GEQ, false, 0xffffffff, 1), 1);
	ck_assert_int_eq(vnpu_wait_cond_holds(VNPU_WAIT_GEQ, false, 1, 2), 0);
	ck_assert_int_eq(vnpu_wait_cond_holds(VNPU_WAIT_GEQ, true, 1ull << 40, 1ull << 39), 1);
	ck_assert_int_eq(vnpu_wait_cond_holds(VNPU_WAIT_GEQ, true, 1ull << 39, 1ull << 40), 0);
	/* 32-bit words compare the low 32 bits of the value. */
	ck_assert_int_eq(vnpu_wait_cond_holds(VNPU_WAIT_EQ, false, 7, (1ull << 32) | 7), 1);
	ck_assert_int_eq(vnpu_wait_cond_holds(VNPU_WAIT_EQ, true, 7, (1ull << 32) | 7), 0);
	ck_assert_int_eq(vnpu_wait_cond_holds(VNPU_WAIT_AND, false, 0x10, 0x11), 1);
	ck_assert_int_eq(vnpu_wait_cond_holds(VNPU_WAIT_AND, false, 0x10, 0x01), 0);
	ck_assert_int_eq(vnpu_wait_cond_holds(VNPU_WAIT_AND, true, 1ull << 63, 1ull << 63), 1);
	/* NOR: some bit clear in both, within the word's width. */
	ck_assert_int_eq(vnpu_wait_cond_holds(VNPU_WAIT_NOR, false, 0xffff0000, 0x0000ffff), 0);
	ck_assert_int_eq(vnpu_wait_cond_holds(VNPU_WAIT_NOR, false, 0xffff0000, 0x0000fffe), 1);
	ck_assert_int_eq(vnpu_wait_cond_holds(VNPU_WAIT_NOR, true, 0xffff0000, 0x0000ffff), 1);
	ck_assert_int_eq(vnpu_wait_cond_holds(VNPU_WAIT_NOR, true, UINT64_MAX, 0), 0);
	ck_assert_int_eq(vnpu_wait_cond_holds(4, false, 0, 0), -1);
}
END_TEST

START_TEST(cancel_word_stops_the_job_before_its_next_task)
{
	struct jobspec j = { 0 };
	struct exec_result r;

	j.ops[j.nops++] = operand(1, 0, 4, VNPU_OPERAND_WRITE);
	add_task(&j, VNPU_TASK_NOP, 0, 0, 0);
	add_task(&j, VNPU_TASK_WRITE_VALUE, 0, 1, 1);
	j.first_task = 1;
	F.cancel = 1;
	r = run(&j);
	ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_CANCELED);
	ck_assert_uint_eq(r.task, 1);
	ck_assert_uint_eq(*(uint32_t *)F.mem[1], 0);
}
END_TEST

START_TEST(copy_and_fill_stop_between_chunks)
{
	size_t n = 3 * EXEC_CHUNK + 100;
	unsigned char *a = malloc(n), *b = calloc(1, n);
	uint32_t cancel = 1;

	memset(a, 0x11, n);
	ck_assert_int_eq(exec_copy(b, a, n, EXEC_CHUNK, &cancel), -ECANCELED);
	ck_assert_uint_eq(b[EXEC_CHUNK - 1], 0x11);
	ck_assert_uint_eq(b[EXEC_CHUNK], 0);
	ck_assert_int_eq(exec_fill(b, 0x22, 1, n, EXEC_CHUNK, &cancel), -ECANCELED);
	ck_assert_uint_eq(b[EXEC_CHUNK - 1], 0x22);
	ck_assert_uint_eq(b[EXEC_CHUNK], 0);
	cancel = 0;
	ck_assert_int_eq(exec_copy(b, a, n, EXEC_CHUNK, &cancel), 0);
	ck_assert_int_eq(memcmp(a, b, n), 0);
	ck_assert_int_eq(exec_fill(b, 0x33, 1, n, EXEC_CHUNK, NULL), 0);
	ck_assert_uint_eq(b[n - 1], 0x33);
	free(a);
	free(b);
}
END_TEST

/* FILL_32: the word repeats from the start of the range, at any alignment
 * and with any chunk size (pieces are rounded down to whole words); a
 * range that is no whole number of words, or a value wider than 32 bits,
 * is a fault that writes nothing. */
START_TEST(word_fill_repeats_a_32bit_word)
{
	static const uint64_t chunks[] = { 1, 3, 4, 7, 1000 };
	uint32_t word = 0x11223344, got;
	unsigned char buf[70];
	struct jobspec j = { 0 };
	struct exec_result r;
	size_t c, i;

	for (c = 0; c < sizeof(chunks) / sizeof(chunks[0]); c++) {
		memset(buf, 0, sizeof(buf));
		ck_assert_int_eq(exec_fill(buf + 1, word, 4, 64, chunks[c], NULL), 0);
		for (i = 0; i < 64; i += 4) {
			memcpy(&got, buf + 1 + i, 4);
			ck_assert_uint_eq(got, word);
		}
		ck_assert_uint_eq(buf[0], 0);
		ck_assert_uint_eq(buf[65], 0);
	}
	j.ops[j.nops++] = operand(1, 8, 40, VNPU_OPERAND_WRITE);
	j.ops[j.nops++] = operand(2, 0, 6, VNPU_OPERAND_WRITE);
	add_task(&j, VNPU_TASK_FILL, 0, 1, 0xcafef00d);
	j.tasks[0].flags = VNPU_TASK_FILL_32;
	r = run(&j);
	ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_OK);
	for (i = 0; i < 40; i += 4) {
		memcpy(&got, F.mem[1] + 8 + i, 4);
		ck_assert_uint_eq(got, 0xcafef00d);
	}
	ck_assert_uint_eq(F.mem[1][7], 0);
	ck_assert_uint_eq(F.mem[1][48], 0);
	j.tasks[0] = (struct drm_vnpu_engine_task){ .kind = VNPU_TASK_FILL, .flags = VNPU_TASK_FILL_32,
						    .operand = 1, .operand_count = 1, .value = 1 };
	r = run(&j);
	ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_FAULT);
	j.tasks[0] = (struct drm_vnpu_engine_task){ .kind = VNPU_TASK_FILL, .flags = VNPU_TASK_FILL_32,
						    .operand = 0, .operand_count = 1, .value = 1ull << 32 };
	r = run(&j);
	ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_FAULT);
	for (i = 0; i < 6; i++)
		ck_assert_uint_eq(F.mem[2][i], 0);
}
END_TEST

/* Every overlap, both directions, with chunks smaller than the shift and not. */
START_TEST(chunked_copy_overlaps_like_memmove)
{
	static const uint64_t chunks[] = { 1, 3, 7, 64, 1000 };
	enum { N = 512 };
	unsigned char *got = malloc(2 * N), *want = malloc(2 * N);

	for (unsigned int c = 0; c < sizeof(chunks) / sizeof(chunks[0]); c++) {
		for (unsigned int src = 0; src <= N; src += 37) {
			for (unsigned int dst = 0; dst <= N; dst += 13) {
				for (unsigned int i = 0; i < 2 * N; i++)
					got[i] = want[i] = (unsigned char)(i * 7 + 1);
				memmove(want + dst, want + src, N);
				ck_assert_int_eq(exec_copy(got + dst, got + src, N, chunks[c], NULL), 0);
				ck_assert_msg(!memcmp(got, want, 2 * N), "chunk %llu dst %u src %u",
					      (unsigned long long)chunks[c], dst, src);
			}
		}
	}
	free(got);
	free(want);
}
END_TEST

START_TEST(copy_task_overlapping_in_one_buffer)
{
	struct jobspec j = { 0 };
	unsigned char want[4096 * 2];
	struct exec_result r;

	for (unsigned int i = 0; i < F.size[2]; i++)
		F.mem[2][i] = want[i] = (unsigned char)i;
	memmove(want + 100, want + 50, 4000);
	j.ops[j.nops++] = operand(2, 100, 4000, VNPU_OPERAND_WRITE);
	j.ops[j.nops++] = operand(2, 50, 4000, VNPU_OPERAND_READ);
	add_task(&j, VNPU_TASK_COPY, 0, 2, 0);
	r = run(&j);
	ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_OK);
	ck_assert_int_eq(memcmp(F.mem[2], want, F.size[2]), 0);
}
END_TEST

START_TEST(writes_notify_only_while_waits_are_parked_and_tasks_follow)
{
	struct jobspec j = { 0 };

	j.ops[j.nops++] = operand(1, 0, 4, VNPU_OPERAND_WRITE);
	j.ops[j.nops++] = operand(1, 0, 4, VNPU_OPERAND_READ);
	add_task(&j, VNPU_TASK_WRITE_VALUE, 0, 1, 1);	/* notify */
	add_task(&j, VNPU_TASK_NOP, 0, 0, 0);		/* writes nothing */
	add_task(&j, VNPU_TASK_WAIT_VALUE, 1, 1, 1);	/* writes nothing */
	add_task(&j, VNPU_TASK_FILL, 0, 1, 2);		/* notify */
	add_task(&j, VNPU_TASK_WRITE_VALUE, 0, 1, 3);	/* last: the job's end tells */
	F.parked = 0;
	ck_assert_uint_eq(run(&j).status, VNPU_ENGINE_DONE_OK);
	ck_assert_uint_eq(F.notifies, 0);
	F.parked = 2;
	ck_assert_uint_eq(run(&j).status, VNPU_ENGINE_DONE_OK);
	ck_assert_uint_eq(F.notifies, 2);
}
END_TEST

/* ---- operators ----------------------------------------------------------------- */

static void op_job(struct jobspec *j, uint32_t desc_offset, uint32_t desc_size)
{
	memset(j, 0, sizeof(*j));
	j->ops[j->nops++] = operand(4, 0, 10, VNPU_OPERAND_WRITE);	/* unused by the op */
	j->ops[j->nops++] = operand(1, 16, 64, VNPU_OPERAND_READ);
	j->ops[j->nops++] = operand(2, 128, 32, VNPU_OPERAND_WRITE);
	j->ops[j->nops++] = operand(3, 4096, 4096, VNPU_OPERAND_WORKSPACE);
	for (int i = 0; i < 64; i++)
		j->data[i] = (unsigned char)(0xc0 + i);
	j->ndata = 64;
	add_task(j, VNPU_TASK_OP, 1, 3, 0);
	j->tasks[0].desc_offset = desc_offset;
	j->tasks[0].desc_size = desc_size;
}

START_TEST(op_gets_its_operands_and_descriptor)
{
	struct jobspec j;
	struct exec_result r;

	op_job(&j, 8, 24);
	F.op_answer = VOPS_RUN_OK;
	r = run(&j);
	ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_OK);
	ck_assert_uint_eq(F.op_calls, 1);
	ck_assert_uint_eq(F.op_nseen, 3);
	ck_assert_ptr_eq(F.op_seen[0].ptr, F.mem[1] + 16);
	ck_assert_uint_eq(F.op_seen[0].size, 64);
	ck_assert_uint_eq(F.op_seen[0].access, VNPU_OPERAND_READ);
	ck_assert_ptr_eq(F.op_seen[1].ptr, F.mem[2] + 128);
	ck_assert_uint_eq(F.op_seen[1].size, 32);
	ck_assert_uint_eq(F.op_seen[1].access, VNPU_OPERAND_WRITE);
	ck_assert_ptr_eq(F.op_seen[2].ptr, F.mem[3] + 4096);
	ck_assert_uint_eq(F.op_seen[2].access, VNPU_OPERAND_WORKSPACE);
	ck_assert_uint_eq(F.op_desc_size, 24);
	ck_assert_uint_eq(F.op_desc_head[0], 0xc8);
	ck_assert_uint_eq(F.mem[4][0], 0);		/* not its operand */
	ck_assert(!F.op_stop_seen);
}
END_TEST

START_TEST(op_descriptor_not_aligned_is_passed_aligned)
{
	struct jobspec j;

	op_job(&j, 3, 5);
	F.op_answer = VOPS_RUN_OK;
	ck_assert_uint_eq(run(&j).status, VNPU_ENGINE_DONE_OK);
	ck_assert_ptr_eq(F.op_desc, scratch);
	ck_assert_uint_eq(F.op_desc_head[0], 0xc3);
	ck_assert_uint_eq(F.op_desc_head[4], 0xc7);
}
END_TEST

START_TEST(op_descriptor_out_of_range_faults_without_running)
{
	static const uint32_t bad[][2] = { { 0, 0 }, { 60, 5 }, { 64, 1 }, { UINT32_MAX, 2 },
					   { 0, VNPU_MAX_OP_DESC_SIZE + 1 } };

	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct jobspec j;
		struct exec_result r;

		op_job(&j, bad[i][0], bad[i][1]);
		F.op_calls = 0;
		r = run(&j);
		ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_FAULT);
		ck_assert_uint_eq(r.task, 0);
		ck_assert_uint_eq(F.op_calls, 0);
	}
}
END_TEST

START_TEST(op_operands_out_of_range_fault_without_running)
{
	struct jobspec j;
	struct exec_result r;

	op_job(&j, 0, 8);
	j.tasks[0].operand_count = 4;			/* 1..4 of 4 */
	r = run(&j);
	ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_FAULT);
	ck_assert_uint_eq(F.op_calls, 0);
	op_job(&j, 0, 8);
	j.ops[2].offset = 4096 * 2 - 16;		/* 32 bytes from 16 before the end */
	r = run(&j);
	ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_FAULT);
	ck_assert_uint_eq(F.op_calls, 0);
}
END_TEST

START_TEST(op_most_operands)
{
	struct jobspec j = { 0 };
	struct exec_result r;

	for (unsigned int i = 0; i <= VNPU_MAX_OP_OPERANDS; i++)
		j.ops[j.nops++] = operand(1, i * 8, 8, VNPU_OPERAND_READ);
	j.ndata = 8;
	add_task(&j, VNPU_TASK_OP, 0, VNPU_MAX_OP_OPERANDS, 0);
	j.tasks[0].desc_size = 8;
	add_task(&j, VNPU_TASK_OP, 0, VNPU_MAX_OP_OPERANDS + 1, 0);
	j.tasks[1].desc_size = 8;
	F.op_answer = VOPS_RUN_OK;
	r = run(&j);
	ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_FAULT);
	ck_assert_uint_eq(r.task, 1);
	ck_assert_uint_eq(F.op_calls, 1);
	ck_assert_uint_eq(F.op_nseen, VNPU_MAX_OP_OPERANDS);
}
END_TEST

START_TEST(op_statuses_map_to_done_statuses)
{
	struct jobspec j;
	struct exec_result r;

	op_job(&j, 0, 8);
	F.op_answer = VOPS_RUN_FAULT;
	r = run(&j);
	ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_FAULT);
	ck_assert_ptr_nonnull(strstr(r.why, "fake says no"));
	F.op_answer = VOPS_RUN_ARITH;
	ck_assert_uint_eq(run(&j).status, VNPU_ENGINE_DONE_ARITH);
	/* CANCELED only counts once the cancel word says so. */
	F.op_answer = VOPS_RUN_CANCELED;
	ck_assert_uint_eq(run(&j).status, VNPU_ENGINE_DONE_FAULT);
	F.op_answer = (enum vops_run_status)99;
	ck_assert_uint_eq(run(&j).status, VNPU_ENGINE_DONE_FAULT);
}
END_TEST

/* The operator sees the cancel word through should_stop. */
static enum vops_run_status cancel_then_stop(const void *desc, size_t desc_size,
					     const struct vops_operand *ops, unsigned int n,
					     const struct vops_ctl *ctl, char *why, size_t why_size)
{
	(void)desc, (void)desc_size, (void)ops, (void)n, (void)why, (void)why_size;
	if (ctl->should_stop(ctl->priv))
		return VOPS_RUN_FAULT;
	F.cancel = 1;			/* the kernel cancels mid-operator */
	return ctl->should_stop(ctl->priv) ? VOPS_RUN_CANCELED : VOPS_RUN_OK;
}

START_TEST(op_should_stop_reads_the_cancel_word)
{
	struct drm_vnpu_engine_event *ev;
	struct exec_env e = env();
	struct exec_result r;
	struct job_view v;
	struct jobspec j;

	op_job(&j, 0, 8);
	add_task(&j, VNPU_TASK_NOP, 0, 0, 0);
	ev = build(&j, 0);
	ck_assert_int_eq(job_view_init(&v, ev), 0);
	e.run_op = cancel_then_stop;
	exec_job(&v, &e, &r);
	ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_CANCELED);
	ck_assert_uint_eq(r.task, 0);
	free(ev);
}
END_TEST

/* ---- the buffer window ----------------------------------------------------------- */

static int memfd(size_t size)
{
	int fd = memfd_create("engined-test", MFD_CLOEXEC);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, (off_t)size), 0);
	return fd;
}

START_TEST(window_reaches_what_it_maps)
{
	long page = sysconf(_SC_PAGESIZE);
	int fd = memfd(64 * (size_t)page);
	struct window w;
	uint32_t word = 0;
	char *a;

	/* The file's pages [4, 68): a window need not start at 0. */
	ck_assert_int_eq(window_map(&w, fd, 4 * page, 64 * page), 0);
	a = window_get(&w, 6 * page, 3 * page);
	ck_assert_ptr_nonnull(a);
	a[page] = 0x42;
	ck_assert_int_eq(pread(fd, &word, 1, 7 * page), 1);
	ck_assert_uint_eq(word, 0x42);
	ck_assert_ptr_eq(window_get(&w, 6 * page, page), a);
	/* The last byte, not one more. */
	ck_assert_ptr_nonnull(window_get(&w, 67 * page, page));
	ck_assert_ptr_null(window_get(&w, 67 * page, page + 1));
	ck_assert_ptr_null(window_get(&w, 68 * page, 1));
	/* Before it, empty, wrapping. */
	ck_assert_ptr_null(window_get(&w, 3 * page, page));
	ck_assert_ptr_null(window_get(&w, 5 * page, 0));
	ck_assert_ptr_null(window_get(&w, 5 * page, UINT64_MAX));
	ck_assert_ptr_null(window_get(&w, UINT64_MAX, 2));
	window_unmap(&w);
	ck_assert_ptr_null(window_get(&w, 6 * page, page));
	window_unmap(&w);			/* twice is fine */
	close(fd);
}
END_TEST

START_TEST(window_map_errors_are_returned)
{
	long page = sysconf(_SC_PAGESIZE);
	struct window w;

	ck_assert_int_eq(window_map(&w, -1, 0, page), -EBADF);
	ck_assert_ptr_null(window_get(&w, 0, 1));
	ck_assert_int_eq(window_map(&w, -1, 0, 0), -EINVAL);
	ck_assert_int_eq(window_map(&w, -1, (uint64_t)INT64_MAX, page), -EINVAL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("engined_exec");
	TCase *tc = tcase_create("engined_exec");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, events_are_walked_in_order);
	tcase_add_test(tc, event_sizes_that_lie_stop_the_walk);
	tcase_add_test(tc, job_too_small_for_its_header_cannot_be_reported);
	tcase_add_test(tc, job_arrays_past_the_event_are_malformed);
	tcase_add_test(tc, nop_job_is_ok_at_task_zero);
	tcase_add_test(tc, data_tasks_do_what_they_say);
	tcase_add_test(tc, operand_index_out_of_range_faults_that_task);
	tcase_add_test(tc, operand_outside_its_buffer_faults_before_mapping);
	tcase_add_test(tc, unmappable_or_inconsistent_buffers_fault);
	tcase_add_test(tc, writes_need_a_writable_operand);
	tcase_add_test(tc, malformed_data_tasks_fault);
	tcase_add_test(tc, wait_that_does_not_hold_blocks_at_its_task);
	tcase_add_test(tc, wait_conditions);
	tcase_add_test(tc, cancel_word_stops_the_job_before_its_next_task);
	tcase_add_test(tc, copy_and_fill_stop_between_chunks);
	tcase_add_test(tc, word_fill_repeats_a_32bit_word);
	tcase_add_test(tc, chunked_copy_overlaps_like_memmove);
	tcase_add_test(tc, copy_task_overlapping_in_one_buffer);
	tcase_add_test(tc, writes_notify_only_while_waits_are_parked_and_tasks_follow);
	tcase_add_test(tc, op_gets_its_operands_and_descriptor);
	tcase_add_test(tc, op_descriptor_not_aligned_is_passed_aligned);
	tcase_add_test(tc, op_descriptor_out_of_range_faults_without_running);
	tcase_add_test(tc, op_operands_out_of_range_fault_without_running);
	tcase_add_test(tc, op_most_operands);
	tcase_add_test(tc, op_statuses_map_to_done_statuses);
	tcase_add_test(tc, op_should_stop_reads_the_cancel_word);
	tcase_add_test(tc, window_reaches_what_it_maps);
	tcase_add_test(tc, window_map_errors_are_returned);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
