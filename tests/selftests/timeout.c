// SPDX-License-Identifier: GPL-2.0
/*
 * Job timeouts, with job_timeout_ms lowered at runtime (sysfs) and put back
 * afterwards: a wait that is never satisfied and a long copy are cancelled,
 * their stream fails with VNPU_STREAM_ERROR_TIMEOUT and rejects new work
 * with -EIO, while the engines keep serving other streams. The timeout is
 * read when a job starts executing; time spent waiting for in-fences does
 * not count. A stream's own timeout (VNPU_STREAM_PARAM_JOB_TIMEOUT_MS)
 * overrides the parameter for the jobs submitted after it is set.
 */
#include "harness/harness.h"
#include "lib/vnpu_stream_util.h"
#include "lib/vnpu_test.h"

#define SHORT_MS 200

FIXTURE(to) {
	int fd;
	unsigned long saved_timeout;
	uint32_t stream, other;
	struct vnpu_buf buf;
};

FIXTURE_SETUP(to)
{
	self->fd = vnpu_open_device(0);
	ASSERT_GE(self->fd, 0) TH_LOG("no vnpu render node");
	ASSERT_TRUE(vnpu_module_param("job_timeout_ms", &self->saved_timeout));
	ASSERT_EQ(0, vnpu_set_module_param("job_timeout_ms", SHORT_MS));
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &self->stream));
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &self->other));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, 1 << 20, &self->buf));
	memset(self->buf.cpu, 0, 1 << 20);
}

FIXTURE_TEARDOWN(to)
{
	if (self->saved_timeout)
		vnpu_set_module_param("job_timeout_ms", self->saved_timeout);
	vnpu_buf_destroy(self->fd, &self->buf);
	close(self->fd);
}

static volatile uint32_t *word(FIXTURE_DATA(to) *self, size_t off)
{
	return (volatile uint32_t *)((char *)self->buf.cpu + off);
}

/* A job of the other stream runs to completion. */
static void expect_other_stream_works(struct th_metadata *_metadata, FIXTURE_DATA(to) *self,
				      uint32_t value)
{
	struct drm_vnpu_task t = vnpu_task_write32(self->buf.va + 0x800, value);
	struct drm_vnpu_stream_query q;

	ASSERT_EQ(0, vnpu_submit_wait(self->fd, self->other, &t, 1, NULL));
	EXPECT_EQ(value, *word(self, 0x800));
	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->other, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_NONE, q.error);
}

TEST_F(to, wait_never_satisfied_times_out)
{
	struct drm_vnpu_task job1[3] = {
		vnpu_task_write32(self->buf.va + 0, 1),
		vnpu_task_wait32(self->buf.va + 4, VNPU_WAIT_EQ, 1),
		vnpu_task_write32(self->buf.va + 8, 1),
	};
	struct drm_vnpu_task job2 = vnpu_task_write32(self->buf.va + 12, 1);
	struct drm_vnpu_stream_query q;
	uint32_t s1, s2;

	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &s1));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &s2));
	ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, job1, 3, NULL, 0, s1, 0, NULL));
	ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, &job2, 1, NULL, 0, s2, 0, NULL));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, s2, VNPU_WAIT_FOREVER_NS));

	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->stream, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_TIMEOUT, q.error);
	EXPECT_EQ(1, q.failed_task);
	EXPECT_EQ(1, q.failed_seqno);
	EXPECT_EQ(2, q.submitted_seqno);
	EXPECT_EQ(2, q.completed_seqno);
	EXPECT_EQ(-ETIMEDOUT, vnpu_syncobj_fence_status(self->fd, s1));
	EXPECT_EQ(-ECANCELED, vnpu_syncobj_fence_status(self->fd, s2));
	/* The task before the wait ran, the ones after it and job 2 did not. */
	EXPECT_EQ(1, *word(self, 0));
	EXPECT_EQ(0, *word(self, 8));
	EXPECT_EQ(0, *word(self, 12));

	EXPECT_EQ(-EIO, vnpu_submit(self->fd, self->stream, &job2, 1, NULL, 0, 0, 0, NULL));
	expect_other_stream_works(_metadata, self, 5);
	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->stream, &q));
	EXPECT_EQ(2, q.submitted_seqno);
	EXPECT_EQ(1, q.failed_seqno);
	EXPECT_EQ(0, vnpu_stream_destroy(self->fd, self->stream));
}

/*
 * While one stream waits for its timeout, another keeps running jobs: they
 * all finish while the waiting job, parked, has neither finished nor timed
 * out (an engine that blocked on the wait would run them only after the
 * timeout). The timeout is long enough for 20 round trips under TCG.
 */
TEST_F(to, other_streams_keep_running)
{
	const unsigned long timeout_ms = 2000;
	struct drm_vnpu_task wait = vnpu_task_wait32(self->buf.va + 4, VNPU_WAIT_EQ, 1);
	struct drm_vnpu_stream_query q;
	uint64_t start;
	uint32_t s1;

	ASSERT_EQ(0, vnpu_set_module_param("job_timeout_ms", timeout_ms));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &s1));
	start = vnpu_now_ns();
	ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, &wait, 1, NULL, 0, s1, 0, NULL));
	while (vnpu_debugfs_streams_value(0, "parked") != 1)
		usleep(1000);
	for (uint32_t i = 1; i <= 20; i++)
		expect_other_stream_works(_metadata, self, i);

	/* Still waiting, not failed, and well before its deadline. */
	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->stream, &q));
	EXPECT_EQ(0, q.completed_seqno);
	EXPECT_EQ(VNPU_STREAM_ERROR_NONE, q.error);
	EXPECT_EQ(0, vnpu_syncobj_fence_status(self->fd, s1));
	EXPECT_EQ(1, vnpu_debugfs_streams_value(0, "parked"));
	EXPECT_LT(vnpu_now_ns() - start, timeout_ms * 1000000ull);

	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, s1, VNPU_WAIT_FOREVER_NS));
	EXPECT_GE(vnpu_now_ns() - start, timeout_ms * 1000000ull);
	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->stream, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_TIMEOUT, q.error);
	EXPECT_EQ(-ETIMEDOUT, vnpu_syncobj_fence_status(self->fd, s1));
	/* And after it. */
	expect_other_stream_works(_metadata, self, 77);
}

/* Many streams time out together; the engines survive all of them. */
TEST_F(to, many_streams_time_out_together)
{
	enum { N = 16 };
	struct drm_vnpu_task wait = vnpu_task_wait32(self->buf.va + 4, VNPU_WAIT_EQ, 1);
	uint32_t ids[N], syncs[N];

	for (int i = 0; i < N; i++) {
		ASSERT_EQ(0, vnpu_stream_create(self->fd, i % 3, &ids[i]));
		ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &syncs[i]));
		ASSERT_EQ(0, vnpu_submit(self->fd, ids[i], &wait, 1, NULL, 0, syncs[i], 0, NULL));
	}
	for (int i = 0; i < N; i++) {
		struct drm_vnpu_stream_query q;

		ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, syncs[i], VNPU_WAIT_FOREVER_NS));
		ASSERT_EQ(0, vnpu_stream_query(self->fd, ids[i], &q));
		EXPECT_EQ(VNPU_STREAM_ERROR_TIMEOUT, q.error);
	}
	expect_other_stream_works(_metadata, self, 9);
	EXPECT_EQ(0, vnpu_debugfs_streams_value(0, "parked"));
}

/* A long copy is cut off between chunks (1 ms is far less than 1 GiB of copying). */
TEST_F_TIMEOUT(to, long_copy_times_out_between_chunks, 60)
{
	struct vnpu_buf a, b;
	struct drm_vnpu_task big[16];
	struct drm_vnpu_stream_query q;
	uint32_t s1;

	ASSERT_EQ(0, vnpu_buf_create(self->fd, 64 << 20, &a));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, 64 << 20, &b));
	memset(a.cpu, 0x42, 64 << 20);
	memset(b.cpu, 0, 64 << 20);
	for (int i = 0; i < 16; i++)
		big[i] = vnpu_task_copy(b.va, a.va, 64 << 20);
	ASSERT_EQ(0, vnpu_set_module_param("job_timeout_ms", 1));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &s1));
	ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, big, 16, NULL, 0, s1, 0, NULL));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, s1, VNPU_WAIT_FOREVER_NS));
	ASSERT_EQ(0, vnpu_set_module_param("job_timeout_ms", SHORT_MS));

	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->stream, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_TIMEOUT, q.error);
	EXPECT_LT(q.failed_task, 16);
	EXPECT_EQ(-ETIMEDOUT, vnpu_syncobj_fence_status(self->fd, s1));
	expect_other_stream_works(_metadata, self, 3);
	vnpu_buf_destroy(self->fd, &a);
	vnpu_buf_destroy(self->fd, &b);
}

/*
 * The timeout in force when a job starts is the one it gets: a job started
 * under 200 ms fails even if the parameter is raised meanwhile, and one
 * started under a long timeout outlives 200 ms.
 */
TEST_F(to, timeout_read_when_job_starts)
{
	struct drm_vnpu_task wait = vnpu_task_wait32(self->buf.va + 4, VNPU_WAIT_EQ, 1);
	struct drm_vnpu_stream_query q;
	uint32_t s1, s2, late;

	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &s1));
	ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, &wait, 1, NULL, 0, s1, 0, NULL));
	while (vnpu_debugfs_streams_value(0, "parked") != 1)
		usleep(1000);
	ASSERT_EQ(0, vnpu_set_module_param("job_timeout_ms", 60000));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, s1, VNPU_WAIT_FOREVER_NS));
	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->stream, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_TIMEOUT, q.error);

	/* Started under 60 s: still waiting well past 200 ms, then satisfied. */
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &late));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &s2));
	ASSERT_EQ(0, vnpu_submit(self->fd, late, &wait, 1, NULL, 0, s2, 0, NULL));
	usleep(3 * SHORT_MS * 1000);
	EXPECT_EQ(0, vnpu_syncobj_fence_status(self->fd, s2));
	vnpu_buf_write32(self->fd, &self->buf, 4, 1);
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, s2, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(1, vnpu_syncobj_fence_status(self->fd, s2));
	ASSERT_EQ(0, vnpu_stream_query(self->fd, late, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_NONE, q.error);
}

/*
 * A stream's own timeout: with the parameter at 60 s, a wait on a stream
 * whose timeout is 200 ms fails it with VNPU_STREAM_ERROR_TIMEOUT, while
 * the same wait on a stream without one is still waiting well past that;
 * a job keeps the timeout its stream had at submit.
 */
TEST_F_TIMEOUT(to, stream_timeout_overrides_the_parameter, 60)
{
	struct drm_vnpu_task wait = vnpu_task_wait32(self->buf.va + 4, VNPU_WAIT_EQ, 1);
	struct drm_vnpu_stream_query q;
	uint32_t s1, s2;

	ASSERT_EQ(0, vnpu_set_module_param("job_timeout_ms", 60000));
	ASSERT_EQ(0, vnpu_stream_set_param(self->fd, self->stream, VNPU_STREAM_PARAM_JOB_TIMEOUT_MS,
					   SHORT_MS));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &s1));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &s2));
	ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, &wait, 1, NULL, 0, s1, 0, NULL));
	/* Changed after the submit: the queued job keeps 200 ms. */
	ASSERT_EQ(0, vnpu_stream_set_param(self->fd, self->stream, VNPU_STREAM_PARAM_JOB_TIMEOUT_MS, 0));
	ASSERT_EQ(0, vnpu_submit(self->fd, self->other, &wait, 1, NULL, 0, s2, 0, NULL));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, s1, VNPU_WAIT_FOREVER_NS));
	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->stream, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_TIMEOUT, q.error);
	EXPECT_EQ(-ETIMEDOUT, vnpu_syncobj_fence_status(self->fd, s1));

	usleep(3 * SHORT_MS * 1000);
	EXPECT_EQ(0, vnpu_syncobj_fence_status(self->fd, s2));
	vnpu_buf_write32(self->fd, &self->buf, 4, 1);
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, s2, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(1, vnpu_syncobj_fence_status(self->fd, s2));
	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->other, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_NONE, q.error);
}

/*
 * Time spent waiting for in-fences is not execution time: a job held back
 * for several timeouts by a chain of short jobs on another stream still
 * gets its full timeout once it starts.
 */
TEST_F_TIMEOUT(to, waiting_for_in_syncs_does_not_count, 60)
{
	const unsigned int steps = 8, step_ms = 150, timeout_ms = 500;
	struct drm_vnpu_task mark = vnpu_task_write32(self->buf.va + 0x100, 0xd0e);
	struct drm_vnpu_stream_query q;
	struct drm_vnpu_sync in;
	uint32_t chain, done;

	ASSERT_EQ(0, vnpu_set_module_param("job_timeout_ms", timeout_ms));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &chain));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &done));
	/* Each job of the chain waits for its own gate word. */
	for (unsigned int i = 0; i < steps; i++) {
		struct drm_vnpu_task w = vnpu_task_wait32(self->buf.va + 0x200 + 4 * i,
							  VNPU_WAIT_EQ, 1);

		ASSERT_EQ(0, vnpu_submit(self->fd, self->other, &w, 1, NULL, 0, chain, 0, NULL));
	}
	in = (struct drm_vnpu_sync){ .handle = chain };
	ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, &mark, 1, &in, 1, done, 0, NULL));
	for (unsigned int i = 0; i < steps; i++) {
		usleep(step_ms * 1000);
		vnpu_buf_write32(self->fd, &self->buf, 0x200 + 4 * i, 1);
	}
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, done, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(1, vnpu_syncobj_fence_status(self->fd, done));
	EXPECT_EQ(0xd0e, *word(self, 0x100));
	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->stream, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_NONE, q.error);
	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->other, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_NONE, q.error);
}

TEST_HARNESS_MAIN
