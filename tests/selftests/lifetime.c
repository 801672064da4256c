// SPDX-License-Identifier: GPL-2.0
/*
 * Teardown with work in flight: closing the file, SIGKILL, exit, stream
 * destroy with a parked wait or a long copy, buffers closed while jobs use
 * them. Each test checks afterwards that every job was freed (debugfs
 * "streams") and that the device memory charge is back where it started.
 *
 * The job timeout is raised to an hour for these tests, so a teardown that
 * waited for work to time out instead of cancelling it would hang and hit
 * the test's own timeout.
 */
#include <signal.h>
#include <sys/wait.h>
#include <xf86drm.h>

#include "harness/harness.h"
#include "lib/vnpu_stream_util.h"
#include "lib/vnpu_test.h"

#define QUEUED 100

FIXTURE(life) {
	int fd;
	unsigned long saved_timeout;
	uint64_t mem_base;
};

static uint64_t mem_used(int fd)
{
	uint64_t v = ~0ull;

	vnpu_get_param(fd, VNPU_PARAM_MEM_USED, &v);
	return v;
}

FIXTURE_SETUP(life)
{
	self->fd = vnpu_open_device(0);
	ASSERT_GE(self->fd, 0) TH_LOG("no vnpu render node");
	ASSERT_TRUE(vnpu_module_param("job_timeout_ms", &self->saved_timeout));
	ASSERT_EQ(0, vnpu_set_module_param("job_timeout_ms", VNPU_HOUR_MS));
	ASSERT_EQ(0, vnpu_wait_no_jobs(0, VNPU_WAIT_FOREVER_NS));
	self->mem_base = mem_used(self->fd);
}

FIXTURE_TEARDOWN(life)
{
	if (self->saved_timeout)
		vnpu_set_module_param("job_timeout_ms", self->saved_timeout);
	close(self->fd);
}

/* Everything the work held is released, without waiting for any timeout. */
static void expect_all_released(struct th_metadata *_metadata, FIXTURE_DATA(life) *self)
{
	uint64_t end = vnpu_now_ns() + VNPU_WAIT_FOREVER_NS;

	ASSERT_EQ(0, vnpu_wait_no_jobs(0, VNPU_WAIT_FOREVER_NS));
	while (mem_used(self->fd) != self->mem_base && vnpu_now_ns() < end)
		usleep(1000);
	EXPECT_EQ(self->mem_base, mem_used(self->fd));
	EXPECT_EQ(0, vnpu_debugfs_streams_value(0, "streams"));
	EXPECT_EQ(0, vnpu_debugfs_streams_value(0, "parked"));
}

/*
 * On @fd: a stream whose first job waits forever on a gate word, with
 * QUEUED copy jobs behind it, and a second stream busy with long copies.
 * The buffers' handles are closed afterwards: only the jobs hold them.
 */
static void load_work(struct th_metadata *_metadata, int fd)
{
	struct vnpu_buf gate, a, b;
	struct drm_vnpu_task wait, copy, big[4];
	uint32_t parked, busy;

	ASSERT_EQ(0, vnpu_buf_create(fd, 4096, &gate));
	ASSERT_EQ(0, vnpu_buf_create(fd, 32 << 20, &a));
	ASSERT_EQ(0, vnpu_buf_create(fd, 32 << 20, &b));
	ASSERT_EQ(0, vnpu_stream_create(fd, VNPU_PRIORITY_NORMAL, &parked));
	ASSERT_EQ(0, vnpu_stream_create(fd, VNPU_PRIORITY_NORMAL, &busy));

	wait = vnpu_task_wait32(gate.va, VNPU_WAIT_EQ, 1);
	ASSERT_EQ(0, vnpu_submit(fd, parked, &wait, 1, NULL, 0, 0, 0, NULL));
	for (unsigned int i = 0; i < QUEUED; i++) {
		copy = vnpu_task_copy(b.va + i * 4096, a.va, 4096);
		ASSERT_EQ(0, vnpu_submit(fd, parked, &copy, 1, NULL, 0, 0, 0, NULL));
	}
	for (unsigned int i = 0; i < 4; i++)
		big[i] = vnpu_task_copy(b.va, a.va, a.size);
	for (unsigned int i = 0; i < 8; i++)
		ASSERT_EQ(0, vnpu_submit(fd, busy, big, 4, NULL, 0, 0, 0, NULL));

	vnpu_buf_destroy(fd, &gate);
	vnpu_buf_destroy(fd, &a);
	vnpu_buf_destroy(fd, &b);
}

TEST_F(life, close_fd_with_jobs_in_flight)
{
	int fd = vnpu_open_device(0);

	ASSERT_GE(fd, 0);
	load_work(_metadata, fd);
	EXPECT_GT(vnpu_debugfs_streams_value(0, "jobs"), QUEUED);
	EXPECT_EQ(1, vnpu_debugfs_streams_value(0, "parked"));
	close(fd);
	expect_all_released(_metadata, self);
}

/* A child with work in flight; how it ends is up to @how. */
static void child_dies_with_work(struct th_metadata *_metadata, FIXTURE_DATA(life) *self,
				 int how)
{
	int ready[2], go[2];
	pid_t pid;
	int status;
	char c;

	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		int fd = vnpu_open_device(0);

		close(ready[0]);
		close(go[1]);
		if (fd < 0)
			_exit(2);
		load_work(_metadata, fd);
		if (write(ready[1], "r", 1) != 1)
			_exit(3);
		/* Stay until the parent has seen the work in flight. */
		if (read(go[0], &c, 1) != 1)
			_exit(5);
		if (how == 0)
			_exit(0);	/* exit without closing anything */
		pause();
		_exit(4);
	}
	close(ready[1]);
	close(go[0]);
	ASSERT_EQ(1, read(ready[0], &c, 1));
	close(ready[0]);
	EXPECT_GT(vnpu_debugfs_streams_value(0, "jobs"), 0);
	ASSERT_EQ(1, write(go[1], "g", 1));
	close(go[1]);
	if (how)
		ASSERT_EQ(0, kill(pid, how));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	if (how) {
		EXPECT_TRUE(WIFSIGNALED(status));
		EXPECT_EQ(how, WTERMSIG(status));
	} else {
		EXPECT_TRUE(WIFEXITED(status));
		EXPECT_EQ(0, WEXITSTATUS(status));
	}
	expect_all_released(_metadata, self);
	(void)self;
}

TEST_F(life, sigkill_with_100_jobs_in_flight)
{
	child_dies_with_work(_metadata, self, SIGKILL);
}

TEST_F(life, exit_with_jobs_in_flight)
{
	child_dies_with_work(_metadata, self, 0);
}

/* Eight processes killed at once. */
TEST_F(life, many_processes_killed_at_once)
{
	enum { N = 8 };
	pid_t pids[N];
	int ready[2];
	char c;

	ASSERT_EQ(0, pipe(ready));
	for (int i = 0; i < N; i++) {
		pids[i] = fork();
		ASSERT_GE(pids[i], 0);
		if (pids[i] == 0) {
			int fd = vnpu_open_device(0);
			struct vnpu_buf gate;
			struct drm_vnpu_task w;
			uint32_t s;

			if (fd < 0 || vnpu_buf_create(fd, 4096, &gate) ||
			    vnpu_stream_create(fd, VNPU_PRIORITY_NORMAL, &s))
				_exit(2);
			w = vnpu_task_wait32(gate.va, VNPU_WAIT_EQ, 1);
			for (int j = 0; j < 20; j++)
				if (vnpu_submit(fd, s, &w, 1, NULL, 0, 0, 0, NULL))
					_exit(3);
			if (write(ready[1], "r", 1) != 1)
				_exit(4);
			pause();
			_exit(5);
		}
	}
	for (int i = 0; i < N; i++)
		ASSERT_EQ(1, read(ready[0], &c, 1));
	for (int i = 0; i < N; i++)
		kill(pids[i], SIGKILL);
	for (int i = 0; i < N; i++)
		waitpid(pids[i], NULL, 0);
	close(ready[0]);
	close(ready[1]);
	expect_all_released(_metadata, self);
}

/* Destroying a stream whose job waits cancels it and everything behind it. */
TEST_F(life, destroy_stream_with_parked_wait)
{
	struct vnpu_buf buf;
	struct drm_vnpu_task wait, mark;
	uint32_t s, other, first, last;

	ASSERT_EQ(0, vnpu_buf_create(self->fd, 4096, &buf));
	memset(buf.cpu, 0, 4096);
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &s));
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &other));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &first));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &last));
	wait = vnpu_task_wait32(buf.va, VNPU_WAIT_EQ, 1);
	mark = vnpu_task_write32(buf.va + 4, 1);
	ASSERT_EQ(0, vnpu_submit(self->fd, s, &wait, 1, NULL, 0, first, 0, NULL));
	for (int i = 0; i < 10; i++)
		ASSERT_EQ(0, vnpu_submit(self->fd, s, &mark, 1, NULL, 0, last, 0, NULL));
	/* Wait until the engine has actually parked it. */
	while (vnpu_debugfs_streams_value(0, "parked") != 1)
		usleep(1000);

	ASSERT_EQ(0, vnpu_stream_destroy(self->fd, s));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, last, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(-ECANCELED, vnpu_syncobj_fence_status(self->fd, first));
	EXPECT_TRUE(vnpu_status_cancelled(vnpu_syncobj_fence_status(self->fd, last)));
	EXPECT_EQ(0, *(volatile uint32_t *)((char *)buf.cpu + 4));
	/* Opening the gate now changes nothing. */
	vnpu_buf_write32(self->fd, &buf, 0, 1);
	mark = vnpu_task_write32(buf.va + 8, 2);
	ASSERT_EQ(0, vnpu_submit_wait(self->fd, other, &mark, 1, NULL));
	EXPECT_EQ(2, *(volatile uint32_t *)((char *)buf.cpu + 8));
	EXPECT_EQ(0, *(volatile uint32_t *)((char *)buf.cpu + 4));
	ASSERT_EQ(0, vnpu_stream_destroy(self->fd, other));
	vnpu_buf_destroy(self->fd, &buf);
	expect_all_released(_metadata, self);
}

/* Destroying a stream in the middle of long copies stops them between chunks. */
TEST_F(life, destroy_stream_while_copying)
{
	struct vnpu_buf a, b;
	struct drm_vnpu_task big[16];
	uint32_t s, done;

	ASSERT_EQ(0, vnpu_buf_create(self->fd, 64 << 20, &a));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, 64 << 20, &b));
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &s));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &done));
	for (int i = 0; i < 16; i++)
		big[i] = vnpu_task_copy(b.va, a.va, a.size);
	for (int i = 0; i < 4; i++)
		ASSERT_EQ(0, vnpu_submit(self->fd, s, big, 16, NULL, 0, done, 0, NULL));
	ASSERT_EQ(0, vnpu_stream_destroy(self->fd, s));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, done, VNPU_WAIT_FOREVER_NS));
	EXPECT_TRUE(vnpu_status_cancelled(vnpu_syncobj_fence_status(self->fd, done)));
	vnpu_buf_destroy(self->fd, &a);
	vnpu_buf_destroy(self->fd, &b);
	expect_all_released(_metadata, self);
}

/*
 * Buffers whose handles are closed while queued jobs use them stay alive
 * (and charged) until the jobs are done; the jobs see the right data.
 */
TEST_F(life, close_buffers_while_jobs_use_them)
{
	struct vnpu_buf gate, src, dst;
	struct drm_vnpu_task wait, t[2];
	uint64_t charged;
	uint32_t s, done;
	unsigned char *view;

	ASSERT_EQ(0, vnpu_buf_create(self->fd, 4096, &gate));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, 1 << 20, &src));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, 1 << 20, &dst));
	memset(gate.cpu, 0, 4096);
	memset(src.cpu, 0x5e, 1 << 20);
	memset(dst.cpu, 0, 1 << 20);
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &s));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &done));
	wait = vnpu_task_wait32(gate.va, VNPU_WAIT_EQ, 1);
	t[0] = vnpu_task_copy(dst.va, src.va, 1 << 20);
	t[1] = vnpu_task_fill(src.va, 1 << 20, 0);
	ASSERT_EQ(0, vnpu_submit(self->fd, s, &wait, 1, NULL, 0, 0, 0, NULL));
	ASSERT_EQ(0, vnpu_submit(self->fd, s, t, 2, NULL, 0, done, 0, NULL));

	/* Keep a CPU view of dst (the mapping holds the memory too), drop the rest. */
	view = dst.cpu;
	dst.cpu = NULL;
	charged = mem_used(self->fd);
	vnpu_buf_destroy(self->fd, &src);
	vnpu_buf_destroy(self->fd, &dst);
	/* The jobs still hold src and dst: nothing was uncharged. */
	EXPECT_EQ(charged, mem_used(self->fd));
	/* Their addresses are gone for new submits. */
	EXPECT_EQ(-ENXIO, vnpu_submit(self->fd, s, t, 1, NULL, 0, 0, 0, NULL));

	vnpu_buf_write32(self->fd, &gate, 0, 1);
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, done, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(1, vnpu_syncobj_fence_status(self->fd, done));
	EXPECT_EQ(0x5e, view[0]);
	EXPECT_EQ(0x5e, view[(1 << 20) - 1]);
	munmap(view, 1 << 20);
	vnpu_buf_destroy(self->fd, &gate);
	vnpu_stream_destroy(self->fd, s);
	expect_all_released(_metadata, self);
}

/*
 * A finished job lets go of its buffers at once, even while an older job of
 * another stream (on the same engine, with engines=1) is still parked and
 * holds up drm_sched's in-order freeing of jobs.
 */
TEST_F(life, buffers_released_when_job_ends_not_when_freed)
{
	struct vnpu_buf gate, x;
	struct drm_vnpu_task wait, copy;
	struct drm_vnpu_stream_query q;
	uint32_t a, b, done;
	uint64_t with_gate;

	ASSERT_EQ(0, vnpu_buf_create(self->fd, 4096, &gate));
	memset(gate.cpu, 0, 4096);
	with_gate = mem_used(self->fd);
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &a));
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &b));
	wait = vnpu_task_wait32(gate.va, VNPU_WAIT_EQ, 1);
	ASSERT_EQ(0, vnpu_submit(self->fd, a, &wait, 1, NULL, 0, 0, 0, NULL));
	while (vnpu_debugfs_streams_value(0, "parked") != 1)
		usleep(1000);

	ASSERT_EQ(0, vnpu_buf_create(self->fd, 4 << 20, &x));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &done));
	copy = vnpu_task_copy(x.va, x.va + (2 << 20), 2 << 20);
	ASSERT_EQ(0, vnpu_submit(self->fd, b, &copy, 1, NULL, 0, done, 0, NULL));
	vnpu_buf_destroy(self->fd, &x);
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, done, VNPU_WAIT_FOREVER_NS));
	/* The copy's buffer is gone while A still waits (hangs here if not). */
	while (mem_used(self->fd) != with_gate)
		usleep(1000);
	ASSERT_EQ(0, vnpu_stream_query(self->fd, a, &q));
	EXPECT_EQ(0, q.completed_seqno);

	vnpu_buf_write32(self->fd, &gate, 0, 1);
	ASSERT_EQ(0, vnpu_stream_wait_seqno(self->fd, a, 1, VNPU_WAIT_FOREVER_NS));
	vnpu_stream_destroy(self->fd, a);
	vnpu_stream_destroy(self->fd, b);
	vnpu_buf_destroy(self->fd, &gate);
	expect_all_released(_metadata, self);
}

/*
 * A closed file's job that waits on another file's parked job: the killed
 * job is freed once its dependency signals, without hanging anything.
 */
TEST_F(life, close_fd_with_job_waiting_on_other_file)
{
	struct vnpu_buf gate;
	struct drm_vnpu_task wait, t;
	struct drm_vnpu_sync in;
	uint32_t s, s2, held, imported;
	int fd2, sync_fd;

	ASSERT_EQ(0, vnpu_buf_create(self->fd, 4096, &gate));
	memset(gate.cpu, 0, 4096);
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &s));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &held));
	wait = vnpu_task_wait32(gate.va, VNPU_WAIT_EQ, 1);
	ASSERT_EQ(0, vnpu_submit(self->fd, s, &wait, 1, NULL, 0, held, 0, NULL));

	fd2 = vnpu_open_device(0);
	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, drmSyncobjHandleToFD(self->fd, held, &sync_fd));
	ASSERT_EQ(0, drmSyncobjFDToHandle(fd2, sync_fd, &imported));
	close(sync_fd);
	ASSERT_EQ(0, vnpu_stream_create(fd2, VNPU_PRIORITY_NORMAL, &s2));
	t = vnpu_task_nop();
	in = (struct drm_vnpu_sync){ .handle = imported };
	for (int i = 0; i < 10; i++)
		ASSERT_EQ(0, vnpu_submit(fd2, s2, &t, 1, &in, 1, 0, 0, NULL));
	close(fd2);
	EXPECT_EQ(1, vnpu_debugfs_streams_value(0, "streams"));

	vnpu_buf_write32(self->fd, &gate, 0, 1);
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, held, VNPU_WAIT_FOREVER_NS));
	vnpu_stream_destroy(self->fd, s);
	vnpu_buf_destroy(self->fd, &gate);
	expect_all_released(_metadata, self);
}

TEST_HARNESS_MAIN
