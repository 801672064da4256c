// SPDX-License-Identifier: GPL-2.0
/*
 * The engine interface (ENGINE_ATTACH, the engine file, RUN, NOTIFY, the
 * control page, buffer mappings), with the test itself as the engine
 * server: every bad field with its errno, what a job looks like, parking
 * and waking without polling, cancellation, timeouts and the cancel grace,
 * buffers freed while mapped, and what detaching, dying and restarting do
 * to the device's work.
 *
 * Runs on a device without an engine server (vnpu-vm -E): it attaches its
 * own.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/harness.h"
#include "lib/vnpu_engine_util.h"
#include "lib/vnpu_stream_util.h"
#include "lib/vnpu_test.h"

#define MS (1000ull * 1000)

static uint64_t param(int fd, uint32_t p)
{
	uint64_t v = UINT64_MAX;

	vnpu_get_param(fd, p, &v);
	return v;
}

/* Block until the device has no jobs; the engine must report them first. */
static int wait_jobs_gone(void)
{
	return vnpu_wait_no_jobs(0, 10000 * MS);
}

/* ---------------------------------------------------------------- no engine */

TEST(no_engine_refuses_submits)
{
	struct drm_vnpu_task t = vnpu_task_nop();
	uint32_t stream;
	int fd = vnpu_open_device(0);

	ASSERT_GE(fd, 0);
	EXPECT_EQ(0, param(fd, VNPU_PARAM_ENGINE_ATTACHED));
	ASSERT_EQ(0, vnpu_stream_create(fd, VNPU_PRIORITY_NORMAL, &stream));
	EXPECT_EQ(-ENOTCONN, vnpu_submit(fd, stream, &t, 1, NULL, 0, 0, 0, NULL));
	/* A bad submit is still refused for what is wrong with it. */
	t.flags = 1;
	EXPECT_EQ(-EINVAL, vnpu_submit(fd, stream, &t, 1, NULL, 0, 0, 0, NULL));
	close(fd);
}

/* ---------------------------------------------------------------- attach */

/* vnpu-smi says a device has no server, and what to do about it. */
TEST(smi_shows_a_device_without_server)
{
	char out[8192];
	size_t n;
	FILE *p = popen("build/tools/vnpu-smi; build/tools/vnpu-smi --json", "r");

	ASSERT_NONNULL(p);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	EXPECT_EQ(0, pclose(p));
	EXPECT_NONNULL(strstr(out, "| NONE   |")) TH_LOG("%s", out);
	EXPECT_NONNULL(strstr(out, "start vnpu-engined")) TH_LOG("%s", out);
	EXPECT_NONNULL(strstr(out, "\"engine_server\":false,")) TH_LOG("%s", out);
}

TEST(attach_reports_and_counts)
{
	struct vnpu_test_engine e;
	int fd = vnpu_open_device(0);
	uint64_t before;

	ASSERT_GE(fd, 0);
	before = param(fd, VNPU_PARAM_ENGINE_ATTACHES);
	ASSERT_EQ(0, vnpu_test_engine_attach(0, &e));
	EXPECT_EQ(1, param(fd, VNPU_PARAM_ENGINE_ATTACHED));
	EXPECT_EQ(before + 1, param(fd, VNPU_PARAM_ENGINE_ATTACHES));
	EXPECT_EQ(param(fd, VNPU_PARAM_NUM_ENGINES), e.info.num_engines);
	EXPECT_EQ(VNPU_ENGINE_SLOTS, e.info.num_slots);
	EXPECT_EQ(getpagesize(), e.info.ctl_size);
	/* The buffer window: above the control page, 16 TiB of offsets. */
	EXPECT_LT(e.info.ctl_offset, e.info.buffers_offset);
	EXPECT_EQ(0, e.info.buffers_offset % getpagesize());
	EXPECT_EQ(1ull << 44, e.info.buffers_size);
	EXPECT_EQ(0, e.ctl->parked);
	EXPECT_EQ(FD_CLOEXEC, fcntl(e.fd, F_GETFD) & FD_CLOEXEC);
	vnpu_test_engine_close(&e);
	EXPECT_EQ(0, param(fd, VNPU_PARAM_ENGINE_ATTACHED));
	close(fd);
}

TEST(second_attach_busy)
{
	struct drm_vnpu_engine_attach a = { 0 };
	struct vnpu_test_engine e;
	int fd = vnpu_open_device(0);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, vnpu_test_engine_attach(0, &e));
	EXPECT_EQ(-EBUSY, vnpu_ioctl(fd, DRM_IOCTL_VNPU_ENGINE_ATTACH, &a));
	vnpu_test_engine_close(&e);
	/* Free again once the first one is gone. */
	ASSERT_EQ(0, vnpu_ioctl(fd, DRM_IOCTL_VNPU_ENGINE_ATTACH, &a));
	close((int)a.fd);
	close(fd);
}

TEST(attach_bad_flags)
{
	struct drm_vnpu_engine_attach a = { .flags = 1 };
	int fd = vnpu_open_device(0);

	ASSERT_GE(fd, 0);
	EXPECT_EQ(-EINVAL, vnpu_ioctl(fd, DRM_IOCTL_VNPU_ENGINE_ATTACH, &a));
	EXPECT_EQ(0, param(fd, VNPU_PARAM_ENGINE_ATTACHED));
	close(fd);
}

TEST(attach_bad_pad)
{
	struct drm_vnpu_engine_attach a = { .pad = 1 };
	int fd = vnpu_open_device(0);

	ASSERT_GE(fd, 0);
	EXPECT_EQ(-EINVAL, vnpu_ioctl(fd, DRM_IOCTL_VNPU_ENGINE_ATTACH, &a));
	close(fd);
}

/* An unprivileged process: no attaching, and no engine offsets to map. */
TEST(unprivileged_cannot_attach_or_map)
{
	struct vnpu_test_engine e;
	int fd = vnpu_open_device(0), status;
	pid_t pid;

	ASSERT_GE(fd, 0);
	/* A root engine exists, so its offsets are real. */
	ASSERT_EQ(0, vnpu_test_engine_attach(0, &e));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		struct drm_vnpu_engine_attach a = { 0 };
		void *p;

		close(e.fd);
		if (setgid(65534) || setuid(65534))
			_exit(10);
		if (vnpu_ioctl(fd, DRM_IOCTL_VNPU_ENGINE_ATTACH, &a) != -EACCES)
			_exit(11);
		/* The control page's offset through the device node maps nothing. */
		p = mmap(NULL, e.info.ctl_size, PROT_READ, MAP_SHARED, fd,
			 (off_t)e.info.ctl_offset);
		if (p != MAP_FAILED)
			_exit(12);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	vnpu_test_engine_close(&e);
	close(fd);
}

/* ---------------------------------------------------------------- jobs */

FIXTURE(eng) {
	struct vnpu_test_engine e;
	int fd;
	uint32_t stream;
	uint32_t sync;
	struct vnpu_buf buf;
};

FIXTURE_SETUP(eng)
{
	self->fd = -1;
	ASSERT_EQ(0, vnpu_test_engine_attach(0, &self->e));
	self->fd = vnpu_open_device(0);
	ASSERT_GE(self->fd, 0);
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &self->stream));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &self->sync));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, 1 << 16, &self->buf));
}

FIXTURE_TEARDOWN(eng)
{
	if (self->fd >= 0) {
		vnpu_buf_destroy(self->fd, &self->buf);
		close(self->fd);
	}
	vnpu_test_engine_close(&self->e);
	EXPECT_EQ(0, wait_jobs_gone());
}

static volatile uint32_t *word(FIXTURE_DATA(eng) *self, size_t off)
{
	return (volatile uint32_t *)((char *)self->buf.cpu + off);
}

/* Submit @t (one task) with the fixture's syncobj as out-fence. */
static int submit1(FIXTURE_DATA(eng) *self, struct drm_vnpu_task t)
{
	return vnpu_submit(self->fd, self->stream, &t, 1, NULL, 0, self->sync, 0, NULL);
}

TEST_F(eng, nop_job_as_the_server_sees_it)
{
	const struct drm_vnpu_engine_task *t;
	const struct drm_vnpu_engine_job *job;
	struct drm_vnpu_engine_done d = { 0 };

	ASSERT_EQ(0, submit1(self, vnpu_task_nop()));
	job = vnpu_test_engine_take(&self->e, NULL);
	ASSERT_NONNULL(job);
	EXPECT_EQ(VNPU_ENGINE_EVENT_JOB, job->hdr.type);
	EXPECT_EQ(sizeof(*job) + sizeof(*t), job->hdr.size);
	EXPECT_LT(job->slot, VNPU_ENGINE_SLOTS);
	EXPECT_EQ(1, job->task_count);
	EXPECT_EQ(0, job->first_task);
	EXPECT_EQ(0, job->operand_count);
	EXPECT_EQ(0, job->data_size);
	EXPECT_EQ(self->stream, job->stream);
	EXPECT_EQ(param(self->fd, VNPU_PARAM_CLIENT_ID), job->client);
	EXPECT_EQ(1, job->seqno);
	t = vnpu_test_job_tasks(job);
	EXPECT_EQ(VNPU_TASK_NOP, t->kind);
	EXPECT_EQ(0, t->operand_count);
	EXPECT_EQ(0, self->e.ctl->cancel[job->slot]);
	/* Not done until reported. */
	EXPECT_EQ(0, vnpu_syncobj_fence_status(self->fd, self->sync));
	EXPECT_EQ(1, vnpu_debugfs_streams_value(0, "running"));

	d.slot = job->slot;
	d.busy_ns = 12345;
	ASSERT_EQ(0, vnpu_test_engine_run(&self->e, &d, 1, 0, VNPU_ENGINE_RUN_NONBLOCK));
	EXPECT_EQ(0, self->e.event_count);
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, self->sync, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(1, vnpu_syncobj_fence_status(self->fd, self->sync));
	EXPECT_GE(vnpu_fdinfo_value(self->fd, "drm-engine-compute"), 12345);
}

TEST_F(eng, copy_operands_and_buffers)
{
	const struct drm_vnpu_engine_operand *op;
	const struct drm_vnpu_engine_task *t;
	const struct drm_vnpu_engine_job *job;
	struct drm_vnpu_engine_done d;

	memset(self->buf.cpu, 0x5a, 4096);
	ASSERT_EQ(0, submit1(self, vnpu_task_copy(self->buf.va + 8192, self->buf.va + 16, 100)));
	job = vnpu_test_engine_take(&self->e, NULL);
	ASSERT_NONNULL(job);
	ASSERT_EQ(2, job->operand_count);
	t = vnpu_test_job_tasks(job);
	EXPECT_EQ(VNPU_TASK_COPY, t->kind);
	EXPECT_EQ(0, t->operand);
	EXPECT_EQ(2, t->operand_count);
	op = vnpu_test_job_operands(job);
	EXPECT_EQ(VNPU_OPERAND_WRITE, op[0].access);
	EXPECT_EQ(8192, op[0].offset);
	EXPECT_EQ(100, op[0].size);
	EXPECT_EQ(VNPU_OPERAND_READ, op[1].access);
	EXPECT_EQ(16, op[1].offset);
	EXPECT_EQ(100, op[1].size);
	/* One buffer, one id, the whole buffer to map. */
	EXPECT_NE(0, op[0].buffer);
	EXPECT_EQ(op[0].buffer, op[1].buffer);
	EXPECT_EQ(op[0].buffer_offset, op[1].buffer_offset);
	EXPECT_EQ(self->buf.size, op[0].buffer_size);
	EXPECT_EQ(0, op[0].buffer_offset % getpagesize());
	EXPECT_EQ(1, vnpu_debugfs_streams_value(0, "buffers"));

	vnpu_test_engine_exec(&self->e, job, &d);
	ASSERT_EQ(VNPU_ENGINE_DONE_OK, d.status);
	ASSERT_EQ(0, vnpu_test_engine_run(&self->e, &d, 1, 0, VNPU_ENGINE_RUN_NONBLOCK));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, self->sync, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(0x5a5a5a5a, *word(self, 8192));
	EXPECT_EQ(0x5a5a5a5a, *word(self, 8192 + 96));
	EXPECT_EQ(0, *word(self, 8192 + 100));
}

TEST_F(eng, values_and_timestamp)
{
	struct drm_vnpu_task tasks[3] = {
		vnpu_task_write32(self->buf.va, 0xfffffff7),
		vnpu_task_write64(self->buf.va + 8, 0x1122334455667788ull),
		vnpu_task_timestamp(self->buf.va + 16),
	};
	const struct drm_vnpu_engine_task *t;
	const struct drm_vnpu_engine_job *job;
	struct drm_vnpu_engine_done d;

	tasks[0].value.value |= 0x300000000ull;	/* cut to 32 bits */
	ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, tasks, 3, NULL, 0, self->sync, 0, NULL));
	job = vnpu_test_engine_take(&self->e, NULL);
	ASSERT_NONNULL(job);
	t = vnpu_test_job_tasks(job);
	EXPECT_EQ(0xfffffff7, t[0].value);
	EXPECT_EQ(0, t[0].flags);
	EXPECT_EQ(0x1122334455667788ull, t[1].value);
	EXPECT_EQ(VNPU_TASK_VALUE_64, t[1].flags);
	EXPECT_EQ(8, vnpu_test_job_operands(job)[1].size);
	EXPECT_EQ(VNPU_TASK_TIMESTAMP, t[2].kind);
	EXPECT_EQ(2, t[2].operand);
	vnpu_test_engine_exec(&self->e, job, &d);
	ASSERT_EQ(0, vnpu_test_engine_run(&self->e, &d, 1, 0, VNPU_ENGINE_RUN_NONBLOCK));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, self->sync, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(0xfffffff7, *word(self, 0));
	EXPECT_NE(0, *(volatile uint64_t *)word(self, 16));
}

TEST_F(eng, fault_report_fails_the_stream)
{
	struct drm_vnpu_task tasks[2] = { vnpu_task_nop(), vnpu_task_nop() };
	const struct drm_vnpu_engine_job *job;
	struct drm_vnpu_engine_done d = { .status = VNPU_ENGINE_DONE_FAULT, .task = 1 };
	struct drm_vnpu_stream_query q;

	ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, tasks, 2, NULL, 0, self->sync, 0, NULL));
	job = vnpu_test_engine_take(&self->e, NULL);
	ASSERT_NONNULL(job);
	d.slot = job->slot;
	ASSERT_EQ(0, vnpu_test_engine_run(&self->e, &d, 1, 0, VNPU_ENGINE_RUN_NONBLOCK));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, self->sync, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(-EIO, vnpu_syncobj_fence_status(self->fd, self->sync));
	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->stream, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_FAULT, q.error);
	EXPECT_EQ(1, q.failed_task);
	EXPECT_EQ(1, q.failed_seqno);
	EXPECT_EQ(-EIO, submit1(self, vnpu_task_nop()));
}

TEST_F(eng, arith_report_fails_the_stream)
{
	const struct drm_vnpu_engine_job *job;
	struct drm_vnpu_engine_done d = { .status = VNPU_ENGINE_DONE_ARITH };
	struct drm_vnpu_stream_query q;

	ASSERT_EQ(0, submit1(self, vnpu_task_nop()));
	job = vnpu_test_engine_take(&self->e, NULL);
	ASSERT_NONNULL(job);
	d.slot = job->slot;
	ASSERT_EQ(0, vnpu_test_engine_run(&self->e, &d, 1, 0, VNPU_ENGINE_RUN_NONBLOCK));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, self->sync, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(-EDOM, vnpu_syncobj_fence_status(self->fd, self->sync));
	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->stream, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_ARITH, q.error);
}

/*
 * Highest priority first; within a priority, streams take turns, each
 * with the run of its jobs that may go now (handed out together, in order).
 */
TEST_F(eng, priorities_then_turns)
{
	uint32_t low, high, other;
	struct drm_vnpu_task t = vnpu_task_nop();
	const struct drm_vnpu_engine_event *ev;
	struct drm_vnpu_engine_done d[8];
	uint32_t order[8], n = 0, nd = 0, i;
	uint64_t seq[8];

	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_LOW, &low));
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_HIGH, &high));
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &other));
	ASSERT_EQ(0, vnpu_submit(self->fd, low, &t, 1, NULL, 0, 0, 0, NULL));
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, &t, 1, NULL, 0, 0, 0, NULL));
		ASSERT_EQ(0, vnpu_submit(self->fd, other, &t, 1, NULL, 0, 0, 0, NULL));
	}
	ASSERT_EQ(0, vnpu_submit(self->fd, high, &t, 1, NULL, 0, self->sync, 0, NULL));

	ASSERT_EQ(0, vnpu_test_engine_run(&self->e, NULL, 0, 8, 0));
	for (ev = vnpu_test_engine_first(&self->e); ev; ev = vnpu_test_engine_next(&self->e, ev)) {
		const struct drm_vnpu_engine_job *job = (const void *)ev;

		ASSERT_EQ(VNPU_ENGINE_EVENT_JOB, ev->type);
		seq[n] = job->seqno;
		order[n++] = job->stream;
		d[nd++] = (struct drm_vnpu_engine_done){ .slot = job->slot };
	}
	ASSERT_EQ(6, n);
	EXPECT_EQ(high, order[0]);
	EXPECT_EQ(self->stream, order[1]);
	EXPECT_EQ(self->stream, order[2]);
	EXPECT_EQ(other, order[3]);
	EXPECT_EQ(other, order[4]);
	EXPECT_EQ(low, order[5]);
	EXPECT_EQ(1, seq[1]);
	EXPECT_EQ(2, seq[2]);
	ASSERT_EQ(0, vnpu_test_engine_run(&self->e, d, nd, 0, VNPU_ENGINE_RUN_NONBLOCK));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, self->sync, VNPU_WAIT_FOREVER_NS));
}

/* Take one RUN's jobs into @jobs (at most @max); returns how many. */
static uint32_t take_all(struct vnpu_test_engine *e, const struct drm_vnpu_engine_job **jobs,
			 uint32_t max)
{
	const struct drm_vnpu_engine_event *ev;
	uint32_t n = 0;

	if (vnpu_test_engine_run(e, NULL, 0, max, 0))
		return 0;
	for (ev = vnpu_test_engine_first(e); ev && n < max; ev = vnpu_test_engine_next(e, ev))
		if (ev->type == VNPU_ENGINE_EVENT_JOB)
			jobs[n++] = (const void *)ev;
	return n;
}

/* A run of a stream's jobs after a fault: the rest comes back unrun and is skipped. */
TEST_F(eng, not_run_after_a_fault_is_skipped)
{
	struct drm_vnpu_task t = vnpu_task_write32(self->buf.va, 5);
	const struct drm_vnpu_engine_job *jobs[4];
	struct drm_vnpu_engine_done d[3];
	uint32_t s2, s3;

	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &s2));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &s3));
	ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, &t, 1, NULL, 0, self->sync, 0, NULL));
	ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, &t, 1, NULL, 0, s2, 0, NULL));
	ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, &t, 1, NULL, 0, s3, 0, NULL));
	ASSERT_EQ(3, take_all(&self->e, jobs, 4));
	EXPECT_EQ(1, jobs[0]->seqno);
	EXPECT_EQ(3, jobs[2]->seqno);
	EXPECT_EQ(3, vnpu_debugfs_streams_value(0, "running"));

	/* Out of order: the second ran before the first. */
	d[0] = (struct drm_vnpu_engine_done){ .slot = jobs[1]->slot,
		.status = VNPU_ENGINE_DONE_OK };
	EXPECT_EQ(-EINVAL, vnpu_test_engine_run(&self->e, d, 1, 0, VNPU_ENGINE_RUN_NONBLOCK));
	/* NOT_RUN must name the job's first task. */
	d[0] = (struct drm_vnpu_engine_done){ .slot = jobs[0]->slot,
		.status = VNPU_ENGINE_DONE_NOT_RUN, .task = 1 };
	EXPECT_EQ(-EINVAL, vnpu_test_engine_run(&self->e, d, 1, 0, VNPU_ENGINE_RUN_NONBLOCK));

	d[0] = (struct drm_vnpu_engine_done){ .slot = jobs[0]->slot,
		.status = VNPU_ENGINE_DONE_FAULT };
	d[1] = (struct drm_vnpu_engine_done){ .slot = jobs[1]->slot,
		.status = VNPU_ENGINE_DONE_NOT_RUN };
	ASSERT_EQ(0, vnpu_test_engine_run(&self->e, d, 2, 0, VNPU_ENGINE_RUN_NONBLOCK));
	EXPECT_EQ(-EIO, vnpu_syncobj_fence_status(self->fd, self->sync));
	EXPECT_EQ(-ECANCELED, vnpu_syncobj_fence_status(self->fd, s2));
	/* The third, reported later, is skipped the same way. */
	EXPECT_EQ(0, vnpu_syncobj_fence_status(self->fd, s3));
	d[0] = (struct drm_vnpu_engine_done){ .slot = jobs[2]->slot,
		.status = VNPU_ENGINE_DONE_NOT_RUN };
	ASSERT_EQ(0, vnpu_test_engine_run(&self->e, d, 1, 0, VNPU_ENGINE_RUN_NONBLOCK));
	EXPECT_EQ(-ECANCELED, vnpu_syncobj_fence_status(self->fd, s3));
	EXPECT_EQ(0, vnpu_debugfs_streams_value(0, "running"));
}

/* A run whose head blocks: the rest comes back unrun and follows the wait. */
TEST_F(eng, not_run_after_a_wait_follows_it)
{
	struct drm_vnpu_task wait = vnpu_task_wait32(self->buf.va, VNPU_WAIT_EQ, 1);
	struct drm_vnpu_task mark = vnpu_task_write32(self->buf.va + 4, 7);
	const struct drm_vnpu_engine_job *jobs[4];
	struct drm_vnpu_engine_done d[2];

	*word(self, 0) = 0;
	ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, &wait, 1, NULL, 0, 0, 0, NULL));
	ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, &mark, 1, NULL, 0, self->sync, 0, NULL));
	ASSERT_EQ(2, take_all(&self->e, jobs, 4));
	vnpu_test_engine_exec(&self->e, jobs[0], &d[0]);
	ASSERT_EQ(VNPU_ENGINE_DONE_BLOCKED, d[0].status);
	d[1] = (struct drm_vnpu_engine_done){ .slot = jobs[1]->slot,
		.status = VNPU_ENGINE_DONE_NOT_RUN };
	ASSERT_EQ(0, vnpu_test_engine_run(&self->e, d, 2, 4, VNPU_ENGINE_RUN_NONBLOCK));
	EXPECT_EQ(0, self->e.event_count);
	EXPECT_EQ(1, vnpu_debugfs_streams_value(0, "parked"));

	ASSERT_EQ(0, vnpu_buf_write32(self->fd, &self->buf, 0, 1));
	/* Both again, the wait's job past its wait. */
	ASSERT_EQ(2, take_all(&self->e, jobs, 4));
	EXPECT_EQ(1, jobs[0]->first_task);
	EXPECT_EQ(2, jobs[1]->seqno);
	EXPECT_EQ(0, jobs[1]->first_task);
	vnpu_test_engine_exec(&self->e, jobs[0], &d[0]);
	vnpu_test_engine_exec(&self->e, jobs[1], &d[1]);
	ASSERT_EQ(0, vnpu_test_engine_run(&self->e, d, 2, 0, VNPU_ENGINE_RUN_NONBLOCK));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, self->sync, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(1, vnpu_syncobj_fence_status(self->fd, self->sync));
	EXPECT_EQ(7, *word(self, 4));
}

/*
 * The blocked head of a run is reported first (a worker reports what it
 * has early) and, its wait holding, handed out and run again before the
 * server says the job behind it did not run: that report still counts.
 */
TEST_F(eng, not_run_after_the_blocked_job_ran_again)
{
	struct drm_vnpu_task wait = vnpu_task_wait32(self->buf.va, VNPU_WAIT_EQ, 1);
	struct drm_vnpu_task mark = vnpu_task_write32(self->buf.va + 4, 7);
	const struct drm_vnpu_engine_job *jobs[4];
	struct drm_vnpu_engine_done d;
	uint32_t behind;

	*word(self, 0) = 0;
	ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, &wait, 1, NULL, 0, 0, 0, NULL));
	ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, &mark, 1, NULL, 0, self->sync, 0, NULL));
	ASSERT_EQ(2, take_all(&self->e, jobs, 4));
	behind = jobs[1]->slot;
	vnpu_test_engine_exec(&self->e, jobs[0], &d);
	ASSERT_EQ(VNPU_ENGINE_DONE_BLOCKED, d.status);
	ASSERT_EQ(0, vnpu_test_engine_run(&self->e, &d, 1, 0, VNPU_ENGINE_RUN_NONBLOCK));

	ASSERT_EQ(0, vnpu_buf_write32(self->fd, &self->buf, 0, 1));
	/* The wait's job alone: the one behind it is still held. */
	ASSERT_EQ(1, take_all(&self->e, jobs, 4));
	EXPECT_EQ(1, jobs[0]->seqno);
	EXPECT_EQ(1, jobs[0]->first_task);
	vnpu_test_engine_exec(&self->e, jobs[0], &d);
	EXPECT_EQ(VNPU_ENGINE_DONE_OK, d.status);

	/* Now the first round's NOT_RUN, then the second round's OK. */
	ASSERT_EQ(0, vnpu_test_engine_run(&self->e, &(struct drm_vnpu_engine_done){
		.slot = behind, .status = VNPU_ENGINE_DONE_NOT_RUN }, 1, 0,
		VNPU_ENGINE_RUN_NONBLOCK));
	ASSERT_EQ(0, vnpu_test_engine_run(&self->e, &d, 1, 0, VNPU_ENGINE_RUN_NONBLOCK));

	/* The job behind it goes out again, from its start. */
	ASSERT_EQ(1, take_all(&self->e, jobs, 4));
	EXPECT_EQ(2, jobs[0]->seqno);
	EXPECT_EQ(0, jobs[0]->first_task);
	vnpu_test_engine_exec(&self->e, jobs[0], &d);
	ASSERT_EQ(0, vnpu_test_engine_run(&self->e, &d, 1, 0, VNPU_ENGINE_RUN_NONBLOCK));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, self->sync, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(1, vnpu_syncobj_fence_status(self->fd, self->sync));
	EXPECT_EQ(7, *word(self, 4));
}

/* A second worker, sleeping in a blocking RUN on engine 1. */
struct sleeper {
	int fd;
	void *events;
	atomic_bool back;
	int ret;
	uint32_t count;
	uint32_t slot;
};

static void *sleeper_run(void *arg)
{
	struct sleeper *sl = arg;
	struct drm_vnpu_engine_run run = {
		.engine = 1,
		.max_jobs = 4,
		.events = (uintptr_t)sl->events,
		.events_size = VNPU_ENGINE_EVENTS_MIN,
	};

	sl->ret = ioctl(sl->fd, VNPU_ENGINE_IOCTL_RUN, &run) ? -errno : 0;
	sl->count = run.event_count;
	if (run.event_count)
		sl->slot = ((const struct drm_vnpu_engine_job *)sl->events)->slot;
	atomic_store(&sl->back, true);
	return NULL;
}

/*
 * A worker whose non-blocking RUN found nothing is polling: new work goes
 * to it, and the worker asleep in RUN is not woken for it. Once nobody
 * polls, new work wakes the sleeper.
 */
TEST_F(eng, a_polling_worker_takes_new_work)
{
	struct drm_vnpu_engine_run a = {
		.flags = VNPU_ENGINE_RUN_NONBLOCK,
		.max_jobs = 4,
		.events = (uintptr_t)self->e.events,
		.events_size = VNPU_ENGINE_EVENTS_MIN,
	};
	struct sleeper sl = { .fd = self->e.fd };
	struct drm_vnpu_engine_done d;
	pthread_t thread;
	uint32_t s2;

	if (self->e.info.num_engines < 2)
		SKIP(return, "needs two engines");
	sl.events = malloc(VNPU_ENGINE_EVENTS_MIN);
	ASSERT_NE(NULL, sl.events);
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &s2));
	ASSERT_EQ(0, vnpu_test_engine_run_raw(&self->e, &a));	/* now polling */
	ASSERT_EQ(0, a.event_count);
	ASSERT_EQ(0, pthread_create(&thread, NULL, sleeper_run, &sl));
	usleep(50 * 1000);
	ASSERT_EQ(0, submit1(self, vnpu_task_nop()));
	usleep(100 * 1000);
	EXPECT_FALSE(atomic_load(&sl.back)) TH_LOG("the sleeping worker was woken");
	ASSERT_EQ(0, vnpu_test_engine_run_raw(&self->e, &a));
	ASSERT_EQ(1, a.event_count);
	vnpu_test_engine_exec(&self->e, vnpu_test_engine_job(&self->e), &d);
	/* Reporting without asking for jobs: no longer polling. */
	ASSERT_EQ(0, vnpu_test_engine_run(&self->e, &d, 1, 0, VNPU_ENGINE_RUN_NONBLOCK));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, self->sync, VNPU_WAIT_FOREVER_NS));

	ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, &(struct drm_vnpu_task){ .kind =
				 VNPU_TASK_NOP }, 1, NULL, 0, s2, 0, NULL));
	ASSERT_EQ(0, pthread_join(thread, NULL));
	ASSERT_EQ(0, sl.ret);
	ASSERT_EQ(1, sl.count);
	d = (struct drm_vnpu_engine_done){ .slot = sl.slot };
	ASSERT_EQ(0, vnpu_test_engine_run(&self->e, &d, 1, 0, VNPU_ENGINE_RUN_NONBLOCK));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, s2, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(1, vnpu_syncobj_fence_status(self->fd, s2));
	free(sl.events);
}

/* ---------------------------------------------------------------- bad RUNs */

/* A RUN struct for @e with valid fields (@done of @n entries). */
static struct drm_vnpu_engine_run run_args(struct vnpu_test_engine *e,
					   const struct drm_vnpu_engine_done *done, uint32_t n)
{
	return (struct drm_vnpu_engine_run){
		.flags = VNPU_ENGINE_RUN_NONBLOCK,
		.done = (uintptr_t)done,
		.done_count = n,
		.events = (uintptr_t)e->events,
		.events_size = VNPU_ENGINE_EVENTS_MIN,
	};
}

TEST_F(eng, run_bad_fields)
{
	struct drm_vnpu_engine_run a;

	a = run_args(&self->e, NULL, 0);
	a.engine = self->e.info.num_engines;
	EXPECT_EQ(-EINVAL, vnpu_test_engine_run_raw(&self->e, &a));
	a = run_args(&self->e, NULL, 0);
	a.flags = 2;
	EXPECT_EQ(-EINVAL, vnpu_test_engine_run_raw(&self->e, &a));
	a = run_args(&self->e, NULL, 0);
	a.pad = 1;
	EXPECT_EQ(-EINVAL, vnpu_test_engine_run_raw(&self->e, &a));
	a = run_args(&self->e, NULL, VNPU_ENGINE_SLOTS + 1);
	EXPECT_EQ(-EINVAL, vnpu_test_engine_run_raw(&self->e, &a));
	a = run_args(&self->e, NULL, 0);
	a.events_size = VNPU_ENGINE_EVENTS_MIN - 1;
	EXPECT_EQ(-EINVAL, vnpu_test_engine_run_raw(&self->e, &a));
	a = run_args(&self->e, (void *)8, 1);
	EXPECT_EQ(-EFAULT, vnpu_test_engine_run_raw(&self->e, &a));
	a = run_args(&self->e, NULL, 0);
	EXPECT_EQ(0, vnpu_test_engine_run_raw(&self->e, &a));
}

/* Each bad report fails the RUN and changes nothing: the job stays held. */
TEST_F(eng, run_bad_reports)
{
	struct drm_vnpu_task tasks[2] = { vnpu_task_nop(), vnpu_task_nop() };
	const struct drm_vnpu_engine_job *job;
	struct drm_vnpu_engine_done d[2];
	struct drm_vnpu_engine_run a;
	uint32_t slot;

	ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, tasks, 2, NULL, 0, self->sync, 0, NULL));
	job = vnpu_test_engine_take(&self->e, NULL);
	ASSERT_NONNULL(job);
	slot = job->slot;

#define BAD_REPORT(...) do {							\
		d[0] = (struct drm_vnpu_engine_done){ __VA_ARGS__ };		\
		a = run_args(&self->e, d, 1);					\
		EXPECT_EQ(-EINVAL, vnpu_test_engine_run_raw(&self->e, &a));	\
	} while (0)
	BAD_REPORT(.slot = (slot + 1) % VNPU_ENGINE_SLOTS);	/* no job there */
	BAD_REPORT(.slot = VNPU_ENGINE_SLOTS);
	BAD_REPORT(.slot = slot, .status = 99);
	BAD_REPORT(.slot = slot, .pad = 1);
	BAD_REPORT(.slot = slot, .status = VNPU_ENGINE_DONE_OK, .task = 1);
	BAD_REPORT(.slot = slot, .status = VNPU_ENGINE_DONE_FAULT, .task = 2);
	BAD_REPORT(.slot = slot, .status = VNPU_ENGINE_DONE_ARITH, .task = 2);
	/* Never asked to stop. */
	BAD_REPORT(.slot = slot, .status = VNPU_ENGINE_DONE_CANCELED, .task = 0);
	/* Not a wait. */
	BAD_REPORT(.slot = slot, .status = VNPU_ENGINE_DONE_BLOCKED, .task = 0);
#undef BAD_REPORT
	/* Named twice: neither applies. */
	d[0] = d[1] = (struct drm_vnpu_engine_done){ .slot = slot };
	a = run_args(&self->e, d, 2);
	EXPECT_EQ(-EINVAL, vnpu_test_engine_run_raw(&self->e, &a));
	EXPECT_EQ(0, vnpu_syncobj_fence_status(self->fd, self->sync));
	EXPECT_EQ(1, vnpu_debugfs_streams_value(0, "running"));

	a = run_args(&self->e, d, 1);
	ASSERT_EQ(0, vnpu_test_engine_run_raw(&self->e, &a));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, self->sync, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(1, vnpu_syncobj_fence_status(self->fd, self->sync));
}

/* An event buffer the kernel cannot write: the job goes back to its queue. */
TEST_F(eng, run_unwritable_events)
{
	struct drm_vnpu_engine_run a;
	void *ro = mmap(NULL, VNPU_ENGINE_EVENTS_MIN, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	const struct drm_vnpu_engine_job *job;
	struct drm_vnpu_engine_done d = { 0 };

	ASSERT_NE(MAP_FAILED, ro);
	ASSERT_EQ(0, submit1(self, vnpu_task_nop()));
	a = run_args(&self->e, NULL, 0);
	a.events = (uintptr_t)ro;
	a.max_jobs = 1;
	EXPECT_EQ(-EFAULT, vnpu_test_engine_run_raw(&self->e, &a));
	munmap(ro, VNPU_ENGINE_EVENTS_MIN);
	EXPECT_EQ(0, vnpu_debugfs_streams_value(0, "running"));
	EXPECT_EQ(1, vnpu_debugfs_streams_value(0, "ready"));

	job = vnpu_test_engine_take(&self->e, NULL);
	ASSERT_NONNULL(job);
	EXPECT_EQ(1, job->seqno);
	d.slot = job->slot;
	ASSERT_EQ(0, vnpu_test_engine_run(&self->e, &d, 1, 0, VNPU_ENGINE_RUN_NONBLOCK));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, self->sync, VNPU_WAIT_FOREVER_NS));
}

TEST_F(eng, notify_bad_fields)
{
	struct drm_vnpu_engine_notify n = { .flags = 1 };

	EXPECT_EQ(-EINVAL, vnpu_ioctl(self->e.fd, VNPU_ENGINE_IOCTL_NOTIFY, &n));
	n = (struct drm_vnpu_engine_notify){ .pad = 1 };
	EXPECT_EQ(-EINVAL, vnpu_ioctl(self->e.fd, VNPU_ENGINE_IOCTL_NOTIFY, &n));
	EXPECT_EQ(0, vnpu_test_engine_notify(&self->e));
	EXPECT_EQ(-ENOTTY, vnpu_ioctl(self->e.fd, _IO(VNPU_ENGINE_IOCTL_BASE, 0x7f), NULL));
}

static sigjmp_buf bus_env;

static void on_sigbus(int sig)
{
	(void)sig;
	siglongjmp(bus_env, 1);
}

TEST_F(eng, mmap_rules)
{
	const struct drm_vnpu_engine_operand *op;
	const struct drm_vnpu_engine_job *job;
	struct drm_vnpu_engine_done d;
	long page = getpagesize();
	uint8_t *win, *p;
	uint64_t at;

	/* The control page: shared and read-only. */
	p = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, self->e.fd,
		 (off_t)self->e.info.ctl_offset);
	EXPECT_EQ(MAP_FAILED, p);
	p = mmap(NULL, page, PROT_READ, MAP_PRIVATE, self->e.fd, (off_t)self->e.info.ctl_offset);
	EXPECT_EQ(MAP_FAILED, p);
	p = mmap(NULL, 2 * page, PROT_READ, MAP_SHARED, self->e.fd, (off_t)self->e.info.ctl_offset);
	EXPECT_EQ(MAP_FAILED, p);
	/* Below the buffer window, and past its end. */
	p = mmap(NULL, page, PROT_READ, MAP_SHARED, self->e.fd,
		 (off_t)self->e.info.ctl_offset - page);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(ENXIO, errno);
	p = mmap(NULL, 2 * page, PROT_READ, MAP_SHARED, self->e.fd,
		 (off_t)(self->e.info.buffers_offset + self->e.info.buffers_size) - page);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(ENXIO, errno);
	/* The whole window: shared, not executable. */
	win = mmap(NULL, self->e.info.buffers_size, PROT_READ, MAP_PRIVATE, self->e.fd,
		   (off_t)self->e.info.buffers_offset);
	EXPECT_EQ(MAP_FAILED, win);
	win = mmap(NULL, self->e.info.buffers_size, PROT_READ | PROT_EXEC, MAP_SHARED, self->e.fd,
		   (off_t)self->e.info.buffers_offset);
	EXPECT_EQ(MAP_FAILED, win);
	win = mmap(NULL, self->e.info.buffers_size, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_NORESERVE, self->e.fd, (off_t)self->e.info.buffers_offset);
	ASSERT_NE(MAP_FAILED, win);

	ASSERT_EQ(0, submit1(self, vnpu_task_fill(self->buf.va, 64, 1)));
	job = vnpu_test_engine_take(&self->e, NULL);
	ASSERT_NONNULL(job);
	op = vnpu_test_job_operands(job);
	ASSERT_GE(op->buffer_offset, self->e.info.buffers_offset);
	ASSERT_LE(op->buffer_offset + op->buffer_size,
		  self->e.info.buffers_offset + self->e.info.buffers_size);
	at = op->buffer_offset - self->e.info.buffers_offset;
	/* A part of the window on its own is fine too. */
	p = mmap(NULL, page, PROT_READ, MAP_SHARED, self->e.fd, (off_t)op->buffer_offset);
	ASSERT_NE(MAP_FAILED, p);
	/* Not through the device node. */
	EXPECT_EQ(MAP_FAILED, mmap(NULL, op->buffer_size, PROT_READ, MAP_SHARED, self->fd,
				   (off_t)op->buffer_offset));

	vnpu_test_engine_exec(&self->e, job, &d);
	ASSERT_EQ(0, vnpu_test_engine_run(&self->e, &d, 1, 0, VNPU_ENGINE_RUN_NONBLOCK));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, self->sync, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(0x01010101, *word(self, 0));
	/* Both mappings see the buffer. */
	EXPECT_EQ(1, win[at + op->offset]);
	EXPECT_EQ(1, p[op->offset]);
	munmap(p, page);

	/* A page of the window no buffer owns reaches nothing. */
	signal(SIGBUS, on_sigbus);
	if (!sigsetjmp(bus_env, 1)) {
		(void)*(volatile uint8_t *)(win + self->e.info.buffers_size - page);
		EXPECT_TRUE(false) TH_LOG("a page no buffer owns could be read");
	}
	signal(SIGBUS, SIG_DFL);
	munmap(win, self->e.info.buffers_size);
}

/*
 * A freed buffer leaves the server's mapping at once (memory is uncharged
 * right away, whatever the server maps), and the server is told.
 */
TEST_F(eng, freed_buffer_leaves_the_mapping)
{
	const struct drm_vnpu_engine_event *ev;
	const struct drm_vnpu_engine_job *job;
	struct drm_vnpu_engine_done d;
	struct vnpu_buf b;
	volatile uint8_t *p;
	uint64_t id, used;
	bool gone = false;

	ASSERT_EQ(0, vnpu_buf_create(self->fd, 1 << 20, &b));
	used = param(self->fd, VNPU_PARAM_MEM_USED);
	ASSERT_EQ(0, submit1(self, vnpu_task_fill(b.va, 4096, 7)));
	job = vnpu_test_engine_take(&self->e, NULL);
	ASSERT_NONNULL(job);
	id = vnpu_test_job_operands(job)->buffer;
	p = vnpu_test_engine_ptr(&self->e, vnpu_test_job_operands(job));
	ASSERT_NONNULL(p);
	vnpu_test_engine_exec(&self->e, job, &d);
	ASSERT_EQ(0, vnpu_test_engine_run(&self->e, &d, 1, 0, VNPU_ENGINE_RUN_NONBLOCK));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, self->sync, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(7, p[4095]);
	EXPECT_EQ(7, ((uint8_t *)b.cpu)[4095]);

	EXPECT_EQ(1, vnpu_debugfs_streams_value(0, "buffers"));
	vnpu_buf_destroy(self->fd, &b);
	EXPECT_EQ(used - (1 << 20), param(self->fd, VNPU_PARAM_MEM_USED));
	EXPECT_EQ(0, vnpu_debugfs_streams_value(0, "buffers"));

	ASSERT_EQ(0, vnpu_test_engine_run(&self->e, NULL, 0, 0, VNPU_ENGINE_RUN_NONBLOCK));
	for (ev = vnpu_test_engine_first(&self->e); ev; ev = vnpu_test_engine_next(&self->e, ev)) {
		ASSERT_EQ(VNPU_ENGINE_EVENT_BUFFER_GONE, ev->type);
		ASSERT_EQ(sizeof(struct drm_vnpu_engine_gone), ev->size);
		gone = gone || ((const struct drm_vnpu_engine_gone *)ev)->buffer == id;
	}
	EXPECT_TRUE(gone);

	/* The old mapping reaches nothing now. */
	signal(SIGBUS, on_sigbus);
	if (!sigsetjmp(bus_env, 1)) {
		(void)p[0];
		EXPECT_TRUE(false) TH_LOG("reading a freed buffer through its old mapping worked");
	}
	signal(SIGBUS, SIG_DFL);
}

/* A buffer freed while the engine holds a job on it lives until the report. */
TEST_F(eng, buffer_freed_under_a_held_job)
{
	const struct drm_vnpu_engine_job *job;
	struct drm_vnpu_engine_done d;
	struct vnpu_buf b;
	uint64_t used;

	ASSERT_EQ(0, vnpu_buf_create(self->fd, 1 << 20, &b));
	used = param(self->fd, VNPU_PARAM_MEM_USED);
	ASSERT_EQ(0, submit1(self, vnpu_task_fill(b.va, 1 << 20, 9)));
	job = vnpu_test_engine_take(&self->e, NULL);
	ASSERT_NONNULL(job);
	vnpu_buf_destroy(self->fd, &b);
	EXPECT_EQ(used, param(self->fd, VNPU_PARAM_MEM_USED));
	vnpu_test_engine_exec(&self->e, job, &d);	/* still reachable */
	ASSERT_EQ(VNPU_ENGINE_DONE_OK, d.status);
	ASSERT_EQ(0, vnpu_test_engine_run(&self->e, &d, 1, 0, VNPU_ENGINE_RUN_NONBLOCK));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, self->sync, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(used - (1 << 20), param(self->fd, VNPU_PARAM_MEM_USED));
}

/* ---------------------------------------------------------------- waits */

/* Park a WAIT_VALUE on the fixture's word 0 (== 1); returns the job's slot. */
static uint32_t park(struct th_metadata *_metadata, FIXTURE_DATA(eng) *self)
{
	struct drm_vnpu_task tasks[2] = {
		vnpu_task_wait32(self->buf.va, VNPU_WAIT_EQ, 1),
		vnpu_task_write32(self->buf.va + 4, 2),
	};
	const struct drm_vnpu_engine_job *job;
	struct drm_vnpu_engine_done d;
	uint32_t slot;

	*word(self, 0) = 0;
	EXPECT_EQ(0, vnpu_submit(self->fd, self->stream, tasks, 2, NULL, 0, self->sync, 0, NULL));
	job = vnpu_test_engine_take(&self->e, NULL);
	EXPECT_NONNULL(job);
	if (!job)
		return 0;
	slot = job->slot;
	vnpu_test_engine_exec(&self->e, job, &d);
	EXPECT_EQ(VNPU_ENGINE_DONE_BLOCKED, d.status);
	EXPECT_EQ(0, d.task);
	EXPECT_EQ(0, vnpu_test_engine_run(&self->e, &d, 1, 1, VNPU_ENGINE_RUN_NONBLOCK));
	EXPECT_EQ(0, self->e.event_count);
	EXPECT_EQ(1, vnpu_debugfs_streams_value(0, "parked"));
	EXPECT_EQ(1, self->e.ctl->parked);
	return slot;
}

/* Run the woken job to its end. */
static void finish_woken(struct th_metadata *_metadata, FIXTURE_DATA(eng) *self)
{
	const struct drm_vnpu_engine_job *job = vnpu_test_engine_take(&self->e, NULL);
	struct drm_vnpu_engine_done d;

	ASSERT_NONNULL(job);
	EXPECT_EQ(1, job->first_task);
	EXPECT_EQ(0, vnpu_debugfs_streams_value(0, "parked"));
	EXPECT_EQ(0, self->e.ctl->parked);
	vnpu_test_engine_exec(&self->e, job, &d);
	ASSERT_EQ(0, vnpu_test_engine_run(&self->e, &d, 1, 0, VNPU_ENGINE_RUN_NONBLOCK));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, self->sync, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(2, *word(self, 4));
}

static int signal_va(int fd, uint64_t va, uint64_t size, uint32_t *woken)
{
	struct drm_vnpu_signal s = { .va = va, .size = size };
	int ret = vnpu_ioctl(fd, DRM_IOCTL_VNPU_SIGNAL, &s);

	if (woken)
		*woken = s.woken;
	return ret;
}

TEST_F(eng, signal_wakes_a_parked_wait)
{
	uint32_t woken = 99;

	park(_metadata, self);
	*word(self, 0) = 1;
	ASSERT_EQ(0, signal_va(self->fd, self->buf.va, 4, &woken));
	EXPECT_EQ(1, woken);
	finish_woken(_metadata, self);
}

/* Nothing looks at a parked wait until something says memory changed. */
TEST_F(eng, parked_waits_are_not_polled)
{
	long long before, after;
	uint32_t woken = 99;

	park(_metadata, self);
	*word(self, 0) = 1;	/* a CPU store alone is not seen */
	before = vnpu_debugfs_streams_value(0, "wait_checks");
	usleep(300 * 1000);
	after = vnpu_debugfs_streams_value(0, "wait_checks");
	EXPECT_EQ(before, after);
	EXPECT_EQ(1, vnpu_debugfs_streams_value(0, "parked"));
	ASSERT_EQ(0, vnpu_test_engine_run(&self->e, NULL, 0, 1, VNPU_ENGINE_RUN_NONBLOCK));
	EXPECT_EQ(0, self->e.event_count);

	ASSERT_EQ(0, signal_va(self->fd, self->buf.va + 4, 4, &woken));
	EXPECT_EQ(1, woken);
	EXPECT_EQ(before + 1, vnpu_debugfs_streams_value(0, "wait_checks"));
	finish_woken(_metadata, self);
}

TEST_F(eng, signal_bad_fields)
{
	struct drm_vnpu_signal s = { .va = self->buf.va, .size = 4, .flags = 1 };

	EXPECT_EQ(-EINVAL, vnpu_ioctl(self->fd, DRM_IOCTL_VNPU_SIGNAL, &s));
	EXPECT_EQ(-EINVAL, signal_va(self->fd, self->buf.va, 0, NULL));
	EXPECT_EQ(-ENXIO, signal_va(self->fd, self->buf.va + self->buf.size, 4, NULL));
	EXPECT_EQ(-ENXIO, signal_va(self->fd, self->buf.va, self->buf.size + 1, NULL));
	EXPECT_EQ(-ENXIO, signal_va(self->fd, 4096, 4, NULL));
	EXPECT_EQ(-EOVERFLOW, signal_va(self->fd, UINT64_MAX - 2, 4, NULL));
	EXPECT_EQ(-EFAULT, vnpu_ioctl(self->fd, DRM_IOCTL_VNPU_SIGNAL, (void *)8));
}

/* Another stream's job that writes the word releases the wait when reported. */
TEST_F(eng, a_reported_write_wakes)
{
	struct drm_vnpu_task w = vnpu_task_write32(self->buf.va, 1);
	const struct drm_vnpu_engine_job *job;
	struct drm_vnpu_engine_done d;
	uint32_t other;

	park(_metadata, self);
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &other));
	ASSERT_EQ(0, vnpu_submit(self->fd, other, &w, 1, NULL, 0, 0, 0, NULL));
	job = vnpu_test_engine_take(&self->e, NULL);
	ASSERT_NONNULL(job);
	EXPECT_EQ(other, job->stream);
	vnpu_test_engine_exec(&self->e, job, &d);
	ASSERT_EQ(0, vnpu_test_engine_run(&self->e, &d, 1, 0, VNPU_ENGINE_RUN_NONBLOCK));
	finish_woken(_metadata, self);
}

/* NOTIFY: a job the engine still holds wrote the word. */
TEST_F(eng, notify_wakes_before_the_writer_ends)
{
	struct drm_vnpu_task w = vnpu_task_nop();
	const struct drm_vnpu_engine_job *writer;
	struct drm_vnpu_engine_done d = { 0 };
	uint32_t other;

	park(_metadata, self);
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &other));
	ASSERT_EQ(0, vnpu_submit(self->fd, other, &w, 1, NULL, 0, 0, 0, NULL));
	writer = vnpu_test_engine_take(&self->e, NULL);
	ASSERT_NONNULL(writer);
	d.slot = writer->slot;
	*word(self, 0) = 1;	/* as the writer's task would */
	ASSERT_EQ(0, vnpu_test_engine_notify(&self->e));
	EXPECT_EQ(0, vnpu_debugfs_streams_value(0, "parked"));
	finish_woken(_metadata, self);
	ASSERT_EQ(0, vnpu_test_engine_run(&self->e, &d, 1, 0, VNPU_ENGINE_RUN_NONBLOCK));
}

/* ---------------------------------------------------------------- cancel */

TEST_F(eng, destroy_cancels_the_held_job)
{
	const struct drm_vnpu_engine_job *job;
	struct drm_vnpu_engine_done d;
	struct drm_vnpu_task t = vnpu_task_nop();
	uint32_t second;

	ASSERT_EQ(0, submit1(self, vnpu_task_nop()));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &second));
	ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, &t, 1, NULL, 0, second, 0, NULL));
	job = vnpu_test_engine_take(&self->e, NULL);
	ASSERT_NONNULL(job);
	ASSERT_EQ(0, vnpu_stream_destroy(self->fd, self->stream));
	EXPECT_EQ(1, self->e.ctl->cancel[job->slot]);
	/* Both still wait for the engine to let go of the first. */
	EXPECT_EQ(0, vnpu_syncobj_fence_status(self->fd, self->sync));
	EXPECT_EQ(0, vnpu_syncobj_fence_status(self->fd, second));

	d = (struct drm_vnpu_engine_done){ .slot = job->slot,
		.status = VNPU_ENGINE_DONE_CANCELED, .task = 0 };
	ASSERT_EQ(0, vnpu_test_engine_run(&self->e, &d, 1, 1, VNPU_ENGINE_RUN_NONBLOCK));
	EXPECT_EQ(0, self->e.event_count);
	EXPECT_EQ(-ECANCELED, vnpu_syncobj_fence_status(self->fd, self->sync));
	EXPECT_EQ(-ESRCH, vnpu_syncobj_fence_status(self->fd, second));
}

/*
 * A job the engine holds behind a parked head (the head was reported
 * BLOCKED early, the job behind it is not reported yet) is asked to stop
 * too: every held job of a destroyed stream gets its cancel word, not only
 * those in a row from the head.
 */
TEST_F(eng, destroy_cancels_a_job_held_behind_a_parked_head)
{
	struct drm_vnpu_task wait = vnpu_task_wait32(self->buf.va, VNPU_WAIT_EQ, 1);
	const struct drm_vnpu_engine_job *jobs[4];
	struct drm_vnpu_task t = vnpu_task_nop();
	struct drm_vnpu_engine_done d;
	uint32_t second, behind;

	*word(self, 0) = 0;
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &second));
	ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, &wait, 1, NULL, 0, self->sync, 0, NULL));
	ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, &t, 1, NULL, 0, second, 0, NULL));
	ASSERT_EQ(2, take_all(&self->e, jobs, 4));
	behind = jobs[1]->slot;
	vnpu_test_engine_exec(&self->e, jobs[0], &d);
	ASSERT_EQ(VNPU_ENGINE_DONE_BLOCKED, d.status);
	ASSERT_EQ(0, vnpu_test_engine_run(&self->e, &d, 1, 0, VNPU_ENGINE_RUN_NONBLOCK));
	EXPECT_EQ(1, vnpu_debugfs_streams_value(0, "parked"));

	ASSERT_EQ(0, vnpu_stream_destroy(self->fd, self->stream));
	/* The parked head ends at once; the held job is asked to stop. */
	EXPECT_EQ(-ECANCELED, vnpu_syncobj_fence_status(self->fd, self->sync));
	EXPECT_EQ(0, vnpu_syncobj_fence_status(self->fd, second));
	EXPECT_EQ(1, self->e.ctl->cancel[behind]);
	d = (struct drm_vnpu_engine_done){ .slot = behind, .status = VNPU_ENGINE_DONE_CANCELED };
	ASSERT_EQ(0, vnpu_test_engine_run(&self->e, &d, 1, 0, VNPU_ENGINE_RUN_NONBLOCK));
	EXPECT_EQ(-ECANCELED, vnpu_syncobj_fence_status(self->fd, second));
	EXPECT_EQ(0, vnpu_debugfs_streams_value(0, "parked"));
}

/*
 * STREAM_DESTROY against a worker's RUN that takes the stream's ready head
 * at the same moment, many times: the take must come wholly before the
 * cancel (the job is held and gets its cancel word) or wholly after (the
 * job ended unrun, nothing is handed out). A job handed out after the
 * cancel looked and before it ended the jobs off the engine is held with no
 * cancel word: its wait, reported BLOCKED, would park it in the destroyed
 * stream until its deadline. The worker's RUN is started a moment before or
 * after the destroy, the moment moving towards where the outcome flips (and
 * jittered around it), so most rounds hit the window. Bounded: about 3 s.
 */
struct take_racer {
	struct vnpu_test_engine *e;
	atomic_uint go;		/* round to run, set by the test */
	atomic_uint started;	/* round seen, spinning towards the RUN */
	atomic_uint done;	/* last round run */
	atomic_long delay_ns;	/* spin this long before the RUN */
	atomic_bool stop;
	int ret;
	uint32_t slot;		/* of the job taken, if event_count */
	uint32_t count;
};

static void spin_ns(long ns)
{
	uint64_t end = vnpu_now_ns() + (uint64_t)(ns > 0 ? ns : 0);

	while (vnpu_now_ns() < end)
		;
}

static void pin_to(unsigned int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static void *take_racer_run(void *arg)
{
	struct take_racer *r = arg;
	unsigned int round = 0;

	pin_to(1);
	for (;;) {
		while (atomic_load(&r->go) == round && !atomic_load(&r->stop))
			;
		if (atomic_load(&r->stop))
			return NULL;
		round = atomic_load(&r->go);
		atomic_store(&r->started, round);
		spin_ns(atomic_load(&r->delay_ns));
		r->ret = vnpu_test_engine_run(r->e, NULL, 0, 1, VNPU_ENGINE_RUN_NONBLOCK);
		r->count = r->e->event_count;
		if (!r->ret && r->count)
			r->slot = vnpu_test_engine_job(r->e)->slot;
		atomic_store(&r->done, round);
	}
}

TEST_F_TIMEOUT(eng, destroy_races_a_take, 120)
{
	struct take_racer r = { .e = &self->e };
	const uint64_t end = vnpu_now_ns() + 3000 * MS;
	unsigned int round, taken = 0, skipped = 0;
	unsigned int seed = (unsigned int)getpid();
	long bias = 0;		/* the engine's head start, ns (negative: late) */
	bool ok = true;
	pthread_t th;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	*word(self, 0) = 0;
	pin_to(0);
	ASSERT_EQ(0, pthread_create(&th, NULL, take_racer_run, &r));
	/* No ASSERT until the racer is stopped: it uses this frame. */
	for (round = 1; ok && vnpu_now_ns() < end; round++) {
		struct drm_vnpu_task wait = vnpu_task_wait32(self->buf.va, VNPU_WAIT_EQ, 1);
		long engine_wait = 20000 - bias + (long)(rand_r(&seed) % 20001) - 10000;
		struct drm_vnpu_engine_done d;
		uint32_t s;
		int st;

		ok = !vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &s) &&
		     !vnpu_submit(self->fd, s, &wait, 1, NULL, 0, self->sync, 0, NULL);
		EXPECT_TRUE(ok) TH_LOG("round %u: stream or submit failed", round);
		if (!ok)
			break;
		/*
		 * Both sides spin from the moment both run: the RUN and the
		 * destroy start close together.
		 */
		atomic_store(&r.delay_ns, engine_wait > 0 ? engine_wait : 0);
		atomic_store(&r.go, round);
		while (atomic_load(&r.started) != round)
			;
		spin_ns(20000 + (engine_wait < 0 ? -engine_wait : 0));
		EXPECT_EQ(0, vnpu_stream_destroy(self->fd, s));
		while (atomic_load(&r.done) != round)
			;
		EXPECT_EQ(0, r.ret);
		if (r.ret)
			break;
		if (!r.count) {
			/* Not handed out: it ended with the destroy, unrun. */
			skipped++;
			if (bias < 100000)
				bias += 500;	/* the engine goes earlier */
			st = vnpu_syncobj_fence_status(self->fd, self->sync);
			ok = st == -ESRCH;
			EXPECT_EQ(-ESRCH, st) TH_LOG("round %u", round);
			continue;
		}
		taken++;
		if (bias > -100000)
			bias -= 500;
		/* Handed out, so before the destroy returned: it must be asked to stop. */
		ok = self->e.ctl->cancel[r.slot] == 1;
		EXPECT_TRUE(ok) TH_LOG("round %u: the job was handed out during the destroy and "
				       "is held with no cancel word", round);
		d = (struct drm_vnpu_engine_done){ .slot = r.slot,
			.status = VNPU_ENGINE_DONE_BLOCKED, .task = 0 };
		EXPECT_EQ(0, vnpu_test_engine_run(&self->e, &d, 1, 0, VNPU_ENGINE_RUN_NONBLOCK));
		st = vnpu_syncobj_fence_status(self->fd, self->sync);
		if (st != -ECANCELED)
			ok = false;
		EXPECT_EQ(-ECANCELED, st)
			TH_LOG("round %u: a held job of a destroyed stream reported BLOCKED did "
			       "not end (%d): parked until its deadline", round, st);
	}
	atomic_store(&r.stop, true);
	pthread_join(th, NULL);
	printf("# %u rounds: %u taken before the cancel, %u ended unrun (head start %ld ns)\n",
	       round - 1, taken, skipped, bias);
}

TEST_F(eng, timeout_cancels_the_held_job)
{
	const struct drm_vnpu_engine_job *job;
	struct drm_vnpu_engine_done d;
	struct drm_vnpu_stream_query q;
	unsigned long old;
	uint64_t end;

	ASSERT_TRUE(vnpu_module_param("job_timeout_ms", &old));
	ASSERT_EQ(0, vnpu_set_module_param("job_timeout_ms", 100));
	ASSERT_EQ(0, submit1(self, vnpu_task_nop()));
	job = vnpu_test_engine_take(&self->e, NULL);
	vnpu_set_module_param("job_timeout_ms", old);
	ASSERT_NONNULL(job);
	end = vnpu_now_ns() + 5000 * MS;
	while (!self->e.ctl->cancel[job->slot] && vnpu_now_ns() < end)
		usleep(10 * 1000);
	ASSERT_EQ(1, self->e.ctl->cancel[job->slot]);
	d = (struct drm_vnpu_engine_done){ .slot = job->slot,
		.status = VNPU_ENGINE_DONE_CANCELED, .task = 0 };
	ASSERT_EQ(0, vnpu_test_engine_run(&self->e, &d, 1, 0, VNPU_ENGINE_RUN_NONBLOCK));
	EXPECT_EQ(-ETIMEDOUT, vnpu_syncobj_fence_status(self->fd, self->sync));
	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->stream, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_TIMEOUT, q.error);
}

/* A parked wait times out without the engine. */
TEST_F(eng, timeout_of_a_parked_wait)
{
	struct drm_vnpu_stream_query q;
	unsigned long old;

	ASSERT_TRUE(vnpu_module_param("job_timeout_ms", &old));
	ASSERT_EQ(0, vnpu_set_module_param("job_timeout_ms", 200));
	park(_metadata, self);
	vnpu_set_module_param("job_timeout_ms", old);
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, self->sync, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(-ETIMEDOUT, vnpu_syncobj_fence_status(self->fd, self->sync));
	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->stream, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_TIMEOUT, q.error);
	EXPECT_EQ(0, q.failed_task);
	EXPECT_EQ(0, vnpu_debugfs_streams_value(0, "parked"));
}

/* A server that keeps a cancelled job past the grace is reset. */
TEST_F_TIMEOUT(eng, grace_over_resets_the_engine, 60)
{
	const struct drm_vnpu_engine_job *job;
	struct drm_vnpu_stream_query q;
	unsigned long old;
	uint64_t start;
	int ret;

	ASSERT_TRUE(vnpu_module_param("job_timeout_ms", &old));
	ASSERT_EQ(0, vnpu_set_module_param("job_timeout_ms", 100));
	ASSERT_EQ(0, submit1(self, vnpu_task_nop()));
	job = vnpu_test_engine_take(&self->e, NULL);
	vnpu_set_module_param("job_timeout_ms", old);
	ASSERT_NONNULL(job);
	start = vnpu_now_ns();
	/* The worker waits; the kernel detaches it when the grace is over. */
	ret = vnpu_test_engine_run(&self->e, NULL, 0, 1, 0);
	EXPECT_EQ(-ENOTCONN, ret);
	EXPECT_GE(vnpu_now_ns() - start, (VNPU_ENGINE_GRACE_MS - 200) * MS);
	EXPECT_EQ(0, param(self->fd, VNPU_PARAM_ENGINE_ATTACHED));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, self->sync, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(-EPIPE, vnpu_syncobj_fence_status(self->fd, self->sync));
	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->stream, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_ENGINE, q.error);
	EXPECT_EQ(-ENOTCONN, vnpu_test_engine_notify(&self->e));
	/* Its old file still holds nothing of the device; a new server may come. */
	vnpu_test_engine_close(&self->e);
	ASSERT_EQ(0, vnpu_test_engine_attach(0, &self->e));
}

/* ---------------------------------------------------------------- detach */

/*
 * Closing the engine file fails every unfinished job of the device, held,
 * ready or still waiting for its in-fence; streams without work go on.
 */
TEST_F(eng, detach_fails_all_unfinished_work)
{
	struct drm_vnpu_task t = vnpu_task_nop();
	struct drm_vnpu_sync gate;
	struct drm_vnpu_stream_query q;
	uint32_t ready, waiting, idle, s_ready, s_wait, never;
	const struct drm_vnpu_engine_job *job;
	struct drm_vnpu_engine_done d = { 0 };

	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &ready));
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &waiting));
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &idle));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &s_ready));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &s_wait));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &never));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &gate.handle));
	gate.flags = 0;
	gate.point = 0;

	/* idle: a job that ends before the detach. */
	ASSERT_EQ(0, vnpu_submit(self->fd, idle, &t, 1, NULL, 0, 0, 0, NULL));
	job = vnpu_test_engine_take(&self->e, NULL);
	ASSERT_NONNULL(job);
	d.slot = job->slot;
	ASSERT_EQ(0, vnpu_test_engine_run(&self->e, &d, 1, 0, VNPU_ENGINE_RUN_NONBLOCK));

	/* A fence that will never signal before the detach: a job on another stream. */
	ASSERT_EQ(0, submit1(self, vnpu_task_nop()));
	job = vnpu_test_engine_take(&self->e, NULL);	/* held */
	ASSERT_NONNULL(job);
	gate.handle = self->sync;
	ASSERT_EQ(0, vnpu_submit(self->fd, waiting, &t, 1, &gate, 1, s_wait, 0, NULL));
	ASSERT_EQ(0, vnpu_submit(self->fd, ready, &t, 1, NULL, 0, s_ready, 0, NULL));

	vnpu_test_engine_close(&self->e);
	EXPECT_EQ(0, param(self->fd, VNPU_PARAM_ENGINE_ATTACHED));
	EXPECT_EQ(-EPIPE, vnpu_syncobj_fence_status(self->fd, self->sync));
	EXPECT_EQ(-EPIPE, vnpu_syncobj_fence_status(self->fd, s_ready));
	EXPECT_EQ(-EPIPE, vnpu_syncobj_fence_status(self->fd, s_wait));
	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->stream, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_ENGINE, q.error);
	ASSERT_EQ(0, vnpu_stream_query(self->fd, ready, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_ENGINE, q.error);
	ASSERT_EQ(0, vnpu_stream_query(self->fd, idle, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_NONE, q.error);
	EXPECT_EQ(0, wait_jobs_gone());
	EXPECT_EQ(-ENOTCONN, vnpu_submit(self->fd, idle, &t, 1, NULL, 0, 0, 0, NULL));

	/* A new server: the idle stream works again, failed ones stay failed. */
	ASSERT_EQ(0, vnpu_test_engine_attach(0, &self->e));
	EXPECT_EQ(-EIO, vnpu_submit(self->fd, ready, &t, 1, NULL, 0, 0, 0, NULL));
	ASSERT_EQ(0, vnpu_submit(self->fd, idle, &t, 1, NULL, 0, never, 0, NULL));
	job = vnpu_test_engine_take(&self->e, NULL);
	ASSERT_NONNULL(job);
	d.slot = job->slot;
	ASSERT_EQ(0, vnpu_test_engine_run(&self->e, &d, 1, 0, VNPU_ENGINE_RUN_NONBLOCK));
	EXPECT_EQ(1, vnpu_syncobj_fence_status(self->fd, never));
}

/*
 * The server goes away holding a job behind a parked head (the head was
 * reported BLOCKED early): that job ends too (-EPIPE), it does not stay in
 * its slot with no server to report it.
 */
TEST_F(eng, detach_ends_a_job_held_behind_a_parked_head)
{
	struct drm_vnpu_task wait = vnpu_task_wait32(self->buf.va, VNPU_WAIT_EQ, 1);
	const struct drm_vnpu_engine_job *jobs[4];
	struct drm_vnpu_task t = vnpu_task_nop();
	struct drm_vnpu_engine_done d;
	uint32_t second;

	*word(self, 0) = 0;
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &second));
	ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, &wait, 1, NULL, 0, self->sync, 0, NULL));
	ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, &t, 1, NULL, 0, second, 0, NULL));
	ASSERT_EQ(2, take_all(&self->e, jobs, 4));
	vnpu_test_engine_exec(&self->e, jobs[0], &d);
	ASSERT_EQ(VNPU_ENGINE_DONE_BLOCKED, d.status);
	ASSERT_EQ(0, vnpu_test_engine_run(&self->e, &d, 1, 0, VNPU_ENGINE_RUN_NONBLOCK));
	EXPECT_EQ(1, vnpu_debugfs_streams_value(0, "parked"));

	vnpu_test_engine_close(&self->e);
	EXPECT_EQ(-EPIPE, vnpu_syncobj_fence_status(self->fd, self->sync));
	EXPECT_EQ(-EPIPE, vnpu_syncobj_fence_status(self->fd, second));
	EXPECT_EQ(0, wait_jobs_gone());
}

/* The server process dies (SIGKILL) holding jobs of several processes. */
TEST_F(eng, killed_server_fails_its_jobs)
{
	struct drm_vnpu_task t = vnpu_task_nop();
	const struct drm_vnpu_engine_job *job;
	struct drm_vnpu_engine_done d = { 0 };
	int ready_pipe[2], status, i, fd2;
	uint32_t other_sync, other_stream;
	pid_t server;
	char c;

	/* The fixture's engine goes; a child process becomes the server. */
	vnpu_test_engine_close(&self->e);
	ASSERT_EQ(0, pipe(ready_pipe));
	server = fork();
	ASSERT_GE(server, 0);
	if (!server) {
		struct vnpu_test_engine e;
		int held = 0;

		if (vnpu_test_engine_attach(0, &e))
			_exit(1);
		if (write(ready_pipe[1], "a", 1) != 1)
			_exit(2);
		/* Take jobs and never report them. */
		while (held < 2 && !vnpu_test_engine_run(&e, NULL, 0, 4, 0))
			held += (int)e.event_count;
		if (write(ready_pipe[1], "h", 1) != 1)
			_exit(3);
		pause();
		_exit(0);
	}
	ASSERT_EQ(1, read(ready_pipe[0], &c, 1));

	/* Work from this process and from a second client file. */
	ASSERT_EQ(0, submit1(self, vnpu_task_nop()));
	fd2 = vnpu_open_device(0);
	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, vnpu_stream_create(fd2, VNPU_PRIORITY_NORMAL, &other_stream));
	ASSERT_EQ(0, vnpu_syncobj_create(fd2, &other_sync));
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, vnpu_submit(fd2, other_stream, &t, 1, NULL, 0, other_sync, 0, NULL));
	ASSERT_EQ(1, read(ready_pipe[0], &c, 1));
	EXPECT_GE(vnpu_debugfs_streams_value(0, "running"), 2);

	kill(server, SIGKILL);
	ASSERT_EQ(server, waitpid(server, &status, 0));
	ASSERT_EQ(0, vnpu_syncobj_wait(fd2, other_sync, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(-EPIPE, vnpu_syncobj_fence_status(fd2, other_sync));
	close(fd2);
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, self->sync, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(-EPIPE, vnpu_syncobj_fence_status(self->fd, self->sync));
	EXPECT_EQ(0, param(self->fd, VNPU_PARAM_ENGINE_ATTACHED));
	EXPECT_EQ(0, wait_jobs_gone());
	EXPECT_EQ(0, vnpu_debugfs_streams_value(0, "buffers"));
	close(ready_pipe[0]);
	close(ready_pipe[1]);

	/* Restart. */
	ASSERT_EQ(0, vnpu_test_engine_attach(0, &self->e));
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &other_stream));
	ASSERT_EQ(0, vnpu_submit(self->fd, other_stream, &t, 1, NULL, 0, 0, 0, NULL));
	job = vnpu_test_engine_take(&self->e, NULL);
	ASSERT_NONNULL(job);
	d.slot = job->slot;
	ASSERT_EQ(0, vnpu_test_engine_run(&self->e, &d, 1, 0, VNPU_ENGINE_RUN_NONBLOCK));
}

/* The engine file holds the module. */
TEST(engine_file_holds_the_module)
{
	struct vnpu_test_engine e;
	char line[256];
	long before = -1, during = -1;
	FILE *f;

	f = fopen("/sys/module/vnpu/refcnt", "r");
	ASSERT_NONNULL(f);
	if (fgets(line, sizeof(line), f))
		before = atol(line);
	fclose(f);
	ASSERT_EQ(0, vnpu_test_engine_attach(0, &e));
	close(e.dev_fd);	/* the engine file alone */
	e.dev_fd = -1;
	f = fopen("/sys/module/vnpu/refcnt", "r");
	ASSERT_NONNULL(f);
	if (fgets(line, sizeof(line), f))
		during = atol(line);
	fclose(f);
	EXPECT_EQ(before + 1, during);
	vnpu_test_engine_close(&e);
}

TEST_HARNESS_MAIN
