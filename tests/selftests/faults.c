// SPDX-License-Identifier: GPL-2.0
/*
 * Injected job failures (the fault injection point debugfs fail_job/,
 * armed for N: the next N jobs to start fault): the faulting job's stream fails with VNPU_STREAM_ERROR_FAULT at
 * task 0, skips its queued jobs and rejects new ones with -EIO; other
 * streams and other files are not affected, and a job that waits for the
 * faulting job's fence still runs. The debugfs file belongs to
 * the buffers work (vnpu_debugfs.c); without it the tests skip.
 *
 * Also what a stream does with failures (ABI 2.2): in
 * VNPU_FAILURE_CONTINUE mode the jobs behind a failed one run and the
 * failure is only counted; STREAM_ABORT discards unfinished jobs and
 * clears a failure, and with VNPU_STREAM_ABORT_STOP stops the stream.
 */
#include "harness/harness.h"
#include "lib/vnpu_stream_util.h"
#include "lib/vnpu_test.h"

FIXTURE(fault) {
	int fd;
	uint32_t stream, other;
	struct vnpu_buf buf;
};

FIXTURE_SETUP(fault)
{
	int ret;

	self->fd = vnpu_open_device(0);
	ASSERT_GE(self->fd, 0) TH_LOG("no vnpu render node");
	ret = vnpu_fault_arm(0, "fail_job", 0);
	if (ret == -ENOENT)
		SKIP(return, "no fail_job in debugfs");
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &self->stream));
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &self->other));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, 4096, &self->buf));
	memset(self->buf.cpu, 0, 4096);
}

FIXTURE_TEARDOWN(fault)
{
	vnpu_fault_arm(0, "fail_job", 0);
	vnpu_buf_destroy(self->fd, &self->buf);
	close(self->fd);
}

static volatile uint32_t *word(FIXTURE_DATA(fault) *self, size_t off)
{
	return (volatile uint32_t *)((char *)self->buf.cpu + off);
}

#define HOLD_WORD 64

/*
 * A syncobj whose fence signals only once release() stores to HOLD_WORD:
 * jobs that wait on it (and the jobs behind them on their stream) cannot
 * start before then, so several can be queued before the first runs. The
 * job behind it has started already, so it uses no injection.
 */
static uint32_t hold(struct th_metadata *_metadata, FIXTURE_DATA(fault) *self)
{
	struct drm_vnpu_task wait = vnpu_task_wait32(self->buf.va + HOLD_WORD, VNPU_WAIT_EQ, 1);
	uint32_t holder, sync = 0;

	*word(self, HOLD_WORD) = 0;
	EXPECT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &holder));
	EXPECT_EQ(0, vnpu_syncobj_create(self->fd, &sync));
	EXPECT_EQ(0, vnpu_submit(self->fd, holder, &wait, 1, NULL, 0, sync, 0, NULL));
	while (vnpu_debugfs_streams_value(0, "parked") != 1)
		usleep(1000);
	return sync;
}

static void release(FIXTURE_DATA(fault) *self)
{
	vnpu_buf_write32(self->fd, &self->buf, HOLD_WORD, 1);
}

TEST_F(fault, next_job_faults)
{
	struct drm_vnpu_task t[2] = {
		vnpu_task_write32(self->buf.va, 1),
		vnpu_task_write32(self->buf.va + 4, 1),
	};
	struct drm_vnpu_task later = vnpu_task_write32(self->buf.va + 8, 1);
	struct drm_vnpu_sync in = { .handle = hold(_metadata, self) };
	struct drm_vnpu_stream_query q;
	uint32_t s1, s2;

	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &s1));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &s2));
	ASSERT_EQ(0, vnpu_fault_arm(0, "fail_job", 1));
	ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, t, 2, &in, 1, s1, 0, NULL));
	ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, &later, 1, NULL, 0, s2, 0, NULL));
	release(self);
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, s2, VNPU_WAIT_FOREVER_NS));

	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->stream, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_FAULT, q.error);
	EXPECT_EQ(0, q.failed_task);
	EXPECT_EQ(1, q.failed_seqno);
	EXPECT_EQ(2, q.completed_seqno);
	EXPECT_EQ(-EIO, vnpu_syncobj_fence_status(self->fd, s1));
	EXPECT_EQ(-ECANCELED, vnpu_syncobj_fence_status(self->fd, s2));
	EXPECT_EQ(0, *word(self, 0));
	EXPECT_EQ(0, *word(self, 4));
	EXPECT_EQ(0, *word(self, 8));
	EXPECT_EQ(-EIO, vnpu_submit(self->fd, self->stream, &later, 1, NULL, 0, 0, 0, NULL));

	/* The injection was used up: the other stream works. */
	ASSERT_EQ(0, vnpu_submit_wait(self->fd, self->other, &later, 1, NULL));
	EXPECT_EQ(1, *word(self, 8));
	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->other, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_NONE, q.error);
}

/*
 * An in-fence that signals with an error still releases the job waiting for
 * it: the dependent job on the other stream waits for the faulting job,
 * then runs, and neither its fence nor its stream carries the error.
 */
TEST_F(fault, failed_in_fence_does_not_stop_dependent_job)
{
	struct drm_vnpu_task ta = vnpu_task_write32(self->buf.va + 32, 1);
	struct drm_vnpu_task tb = vnpu_task_write32(self->buf.va + 36, 1);
	struct drm_vnpu_sync held = { .handle = hold(_metadata, self) };
	struct drm_vnpu_stream_query q;
	struct drm_vnpu_sync from_a;
	uint32_t sa, sb;

	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sa));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sb));
	ASSERT_EQ(0, vnpu_fault_arm(0, "fail_job", 1));
	ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, &ta, 1, &held, 1, sa, 0, NULL));
	from_a = (struct drm_vnpu_sync){ .handle = sa };
	ASSERT_EQ(0, vnpu_submit(self->fd, self->other, &tb, 1, &from_a, 1, sb, 0, NULL));

	/* B still waits for A, which has not started. */
	usleep(20000);
	EXPECT_EQ(0, vnpu_syncobj_fence_status(self->fd, sb));
	EXPECT_EQ(0, *word(self, 36));

	release(self);
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, sb, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(-EIO, vnpu_syncobj_fence_status(self->fd, sa));
	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->stream, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_FAULT, q.error);
	EXPECT_EQ(0, *word(self, 32));

	/* B ran after A failed, and succeeded. */
	EXPECT_EQ(1, vnpu_syncobj_fence_status(self->fd, sb));
	EXPECT_EQ(1, *word(self, 36));
	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->other, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_NONE, q.error);
	EXPECT_EQ(1, q.completed_seqno);
	vnpu_syncobj_destroy(self->fd, sa);
	vnpu_syncobj_destroy(self->fd, sb);
}

TEST_F(fault, count_of_jobs)
{
	enum { N = 3 };
	uint32_t ids[N + 1];

	ASSERT_EQ(0, vnpu_fault_arm(0, "fail_job", 3));
	for (int i = 0; i <= N; i++) {
		struct drm_vnpu_task t = vnpu_task_write32(self->buf.va + 4 * i, 1);
		struct drm_vnpu_stream_query q;

		ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &ids[i]));
		ASSERT_EQ(i < N ? -EIO : 0, vnpu_submit_wait(self->fd, ids[i], &t, 1, NULL));
		ASSERT_EQ(0, vnpu_stream_query(self->fd, ids[i], &q));
		EXPECT_EQ(i < N ? VNPU_STREAM_ERROR_FAULT : VNPU_STREAM_ERROR_NONE, q.error);
		EXPECT_EQ(i < N ? 0u : 1u, *word(self, 4 * i));
	}
}

/* A fault in one file leaves another file's streams alone. */
TEST_F(fault, other_file_unaffected)
{
	struct drm_vnpu_task t = vnpu_task_nop();
	struct drm_vnpu_stream_query q;
	int fd2 = vnpu_open_device(0);
	uint32_t s2;

	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, vnpu_stream_create(fd2, VNPU_PRIORITY_NORMAL, &s2));
	ASSERT_EQ(0, vnpu_fault_arm(0, "fail_job", 1));
	ASSERT_EQ(-EIO, vnpu_submit_wait(self->fd, self->stream, &t, 1, NULL));
	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->stream, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_FAULT, q.error);
	for (int i = 0; i < 10; i++)
		ASSERT_EQ(0, vnpu_submit_wait(fd2, s2, &t, 1, NULL));
	ASSERT_EQ(0, vnpu_stream_query(fd2, s2, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_NONE, q.error);
	EXPECT_EQ(10, q.completed_seqno);
	close(fd2);
}

/* A job skipped by a failed stream does not use up an injection. */
TEST_F(fault, skipped_jobs_do_not_consume)
{
	struct drm_vnpu_task t = vnpu_task_write32(self->buf.va + 16, 1);
	struct drm_vnpu_sync in = { .handle = hold(_metadata, self) };
	struct drm_vnpu_stream_query q;
	uint32_t sync;

	/* All five are queued before the first starts. */
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sync));
	ASSERT_EQ(0, vnpu_fault_arm(0, "fail_job", 2));
	for (int i = 0; i < 5; i++)
		ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, &t, 1, &in, i == 0, sync, 0, NULL));
	release(self);
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, sync, VNPU_WAIT_FOREVER_NS));
	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->stream, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_FAULT, q.error);
	EXPECT_EQ(1, q.failed_seqno);
	EXPECT_EQ(5, q.completed_seqno);
	/* One injection is left: the other stream's next job faults. */
	ASSERT_EQ(-EIO, vnpu_submit_wait(self->fd, self->other, &t, 1, NULL));
	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->other, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_FAULT, q.error);
	EXPECT_EQ(0, *word(self, 16));
}

/* Continue mode: the job behind a failed one runs; the failure is counted. */
TEST_F(fault, continue_mode_runs_the_jobs_behind)
{
	struct drm_vnpu_task t = vnpu_task_write32(self->buf.va, 1);
	struct drm_vnpu_task later = vnpu_task_write32(self->buf.va + 8, 1);
	struct drm_vnpu_sync in = { .handle = hold(_metadata, self) };
	struct drm_vnpu_stream_query q;
	uint32_t s1, s2;

	ASSERT_EQ(0, vnpu_stream_set_param(self->fd, self->stream, VNPU_STREAM_PARAM_FAILURE_MODE,
					   VNPU_FAILURE_CONTINUE));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &s1));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &s2));
	ASSERT_EQ(0, vnpu_fault_arm(0, "fail_job", 1));
	ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, &t, 1, &in, 1, s1, 0, NULL));
	ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, &later, 1, NULL, 0, s2, 0, NULL));
	release(self);
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, s2, VNPU_WAIT_FOREVER_NS));

	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->stream, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_NONE, q.error);
	EXPECT_EQ(0, q.failed_seqno);
	EXPECT_EQ(2, q.completed_seqno);
	EXPECT_EQ(1, q.failed_jobs);
	EXPECT_EQ(VNPU_STREAM_ERROR_FAULT, q.last_error);
	EXPECT_EQ(0, q.last_failed_task);
	EXPECT_EQ(1, q.last_failed_seqno);
	EXPECT_EQ(0, q.pad);
	EXPECT_EQ(-EIO, vnpu_syncobj_fence_status(self->fd, s1));
	EXPECT_EQ(1, vnpu_syncobj_fence_status(self->fd, s2));
	EXPECT_EQ(0, *word(self, 0));
	EXPECT_EQ(1, *word(self, 8));
	ASSERT_EQ(0, vnpu_submit_wait(self->fd, self->stream, &later, 1, NULL));

	/* The mode is the job's: back in stop mode, the next failure stops it. */
	ASSERT_EQ(0, vnpu_stream_set_param(self->fd, self->stream, VNPU_STREAM_PARAM_FAILURE_MODE,
					   VNPU_FAILURE_STOP));
	ASSERT_EQ(0, vnpu_fault_arm(0, "fail_job", 1));
	ASSERT_EQ(-EIO, vnpu_submit_wait(self->fd, self->stream, &t, 1, NULL));
	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->stream, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_FAULT, q.error);
	EXPECT_EQ(4, q.failed_seqno);
	EXPECT_EQ(2, q.failed_jobs);
	EXPECT_EQ(4, q.last_failed_seqno);
	EXPECT_EQ(-EIO, vnpu_submit(self->fd, self->stream, &later, 1, NULL, 0, 0, 0, NULL));
}

/* STREAM_ABORT clears a failure: the stream takes and runs new jobs. */
TEST_F(fault, abort_clears_a_failure)
{
	struct drm_vnpu_task t = vnpu_task_write32(self->buf.va, 1);
	struct drm_vnpu_task later = vnpu_task_write32(self->buf.va + 8, 1);
	struct drm_vnpu_stream_abort a;
	struct drm_vnpu_stream_query q;

	ASSERT_EQ(0, vnpu_fault_arm(0, "fail_job", 1));
	ASSERT_EQ(-EIO, vnpu_submit_wait(self->fd, self->stream, &t, 1, NULL));
	ASSERT_EQ(-EIO, vnpu_submit(self->fd, self->stream, &later, 1, NULL, 0, 0, 0, NULL));
	ASSERT_EQ(0, vnpu_stream_abort(self->fd, self->stream, 0, &a));
	EXPECT_EQ(1, a.seqno);
	EXPECT_EQ(1, a.completed_seqno);
	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->stream, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_NONE, q.error);
	EXPECT_EQ(0, q.failed_seqno);
	EXPECT_EQ(1, q.failed_jobs);
	ASSERT_EQ(0, vnpu_submit_wait(self->fd, self->stream, &later, 1, NULL));
	EXPECT_EQ(1, *word(self, 8));
}

/* Park the stream's head on a wait that does not hold, a write behind it. */
static void park_two(struct th_metadata *_metadata, FIXTURE_DATA(fault) *self, uint32_t *s1, uint32_t *s2)
{
	struct drm_vnpu_task wait = vnpu_task_wait32(self->buf.va + HOLD_WORD, VNPU_WAIT_EQ, 1);
	struct drm_vnpu_task write = vnpu_task_write32(self->buf.va + 8, 1);

	*word(self, HOLD_WORD) = 0;
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, s1));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, s2));
	ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, &wait, 1, NULL, 0, *s1, 0, NULL));
	ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, &write, 1, NULL, 0, *s2, 0, NULL));
	while (vnpu_debugfs_streams_value(0, "parked") != 1)
		usleep(1000);
}

/* STREAM_ABORT ends the unfinished jobs unrun; later jobs run. */
TEST_F(fault, abort_discards_unfinished_jobs)
{
	struct drm_vnpu_task write = vnpu_task_write32(self->buf.va + 8, 1);
	struct drm_vnpu_stream_abort a;
	struct drm_vnpu_stream_query q;
	uint32_t s1, s2;

	park_two(_metadata, self, &s1, &s2);
	ASSERT_EQ(0, vnpu_stream_abort(self->fd, self->stream, 0, &a));
	EXPECT_EQ(2, a.seqno);
	EXPECT_EQ(0, a.completed_seqno);
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, s2, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(-ECANCELED, vnpu_syncobj_fence_status(self->fd, s1));
	EXPECT_EQ(-ECANCELED, vnpu_syncobj_fence_status(self->fd, s2));
	EXPECT_EQ(0, *word(self, 8));
	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->stream, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_NONE, q.error);
	EXPECT_EQ(2, q.completed_seqno);
	EXPECT_EQ(0, q.failed_jobs);
	release(self);
	ASSERT_EQ(0, vnpu_submit_wait(self->fd, self->stream, &write, 1, NULL));
	EXPECT_EQ(1, *word(self, 8));
	/* Nothing unfinished: an abort ends nothing. */
	ASSERT_EQ(0, vnpu_stream_abort(self->fd, self->stream, 0, &a));
	EXPECT_EQ(3, a.seqno);
	EXPECT_EQ(3, a.completed_seqno);
}

/* VNPU_STREAM_ABORT_STOP fails the stream (CANCELED) until an abort. */
TEST_F(fault, stop_fails_the_stream_until_abort)
{
	struct drm_vnpu_task write = vnpu_task_write32(self->buf.va + 8, 1);
	struct drm_vnpu_stream_abort a;
	struct drm_vnpu_stream_query q;
	uint32_t s1, s2;

	park_two(_metadata, self, &s1, &s2);
	ASSERT_EQ(0, vnpu_stream_abort(self->fd, self->stream, VNPU_STREAM_ABORT_STOP, &a));
	EXPECT_EQ(2, a.seqno);
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, s2, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(-ECANCELED, vnpu_syncobj_fence_status(self->fd, s1));
	EXPECT_EQ(-ECANCELED, vnpu_syncobj_fence_status(self->fd, s2));
	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->stream, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_CANCELED, q.error);
	EXPECT_EQ(1, q.failed_seqno);
	EXPECT_EQ(0, q.failed_jobs);
	EXPECT_EQ(-EIO, vnpu_submit(self->fd, self->stream, &write, 1, NULL, 0, 0, 0, NULL));
	EXPECT_EQ(0, *word(self, 8));
	/* The other stream goes on. */
	ASSERT_EQ(0, vnpu_submit_wait(self->fd, self->other, &write, 1, NULL));
	ASSERT_EQ(0, vnpu_stream_abort(self->fd, self->stream, 0, NULL));
	ASSERT_EQ(0, vnpu_submit_wait(self->fd, self->stream, &write, 1, NULL));

	/* An idle stream stops too; stopping twice keeps the first state. */
	ASSERT_EQ(0, vnpu_stream_abort(self->fd, self->stream, VNPU_STREAM_ABORT_STOP, NULL));
	ASSERT_EQ(0, vnpu_stream_abort(self->fd, self->stream, VNPU_STREAM_ABORT_STOP, NULL));
	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->stream, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_CANCELED, q.error);
	EXPECT_EQ(0, q.failed_seqno);
	EXPECT_EQ(-EIO, vnpu_submit(self->fd, self->stream, &write, 1, NULL, 0, 0, 0, NULL));
	ASSERT_EQ(0, vnpu_stream_abort(self->fd, self->stream, 0, NULL));
	ASSERT_EQ(0, vnpu_submit_wait(self->fd, self->stream, &write, 1, NULL));
}

TEST_HARNESS_MAIN
