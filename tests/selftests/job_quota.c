// SPDX-License-Identifier: GPL-2.0
/*
 * The per-file limit on unfinished jobs (max_jobs_per_file): a submit past
 * it waits, interruptibly, until one of the file's jobs ends; other
 * files are not held up; destroying a stream gives its jobs' share back.
 * Run with a small limit (tests/suites.conf).
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/ioctl.h>
#include <time.h>

#include "harness/harness.h"
#include "lib/vnpu_bo_util.h"
#include "lib/vnpu_stream_util.h"
#include "lib/vnpu_test.h"

/* How long a submit that should wait is watched before it is released. */
#define WATCH_NS (300ull * 1000 * 1000)

FIXTURE(quota) {
	int fd;
	uint32_t stream;
	struct vnpu_buf buf;
	uint64_t limit;
};

FIXTURE_SETUP(quota)
{
	self->fd = vnpu_open_device(0);
	ASSERT_GE(self->fd, 0) TH_LOG("no vnpu render node");
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &self->stream));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, 1 << 20, &self->buf));
	self->limit = vnpu_param(self->fd, VNPU_PARAM_MAX_JOBS_PER_FILE);
	ASSERT_LE(self->limit, 64) TH_LOG("run with a small max_jobs_per_file");
	ASSERT_GE(self->limit, 2);
}

FIXTURE_TEARDOWN(quota)
{
	vnpu_buf_destroy(self->fd, &self->buf);
	close(self->fd);
}

/* Open the first job's wait: the word, then SIGNAL (nothing polls it). */
static void release_wait(int fd, struct vnpu_buf *buf)
{
	vnpu_buf_write32(fd, buf, 0, 1);
}

/* Poll until the file has @want unfinished jobs: a job stops counting when
 * its engine retires it, just before its fence signals. */
static int wait_file_jobs(int fd, uint64_t want)
{
	uint64_t deadline = vnpu_now_ns() + VNPU_WAIT_FOREVER_NS;

	while (vnpu_param(fd, VNPU_PARAM_FILE_JOBS) != want) {
		if (vnpu_now_ns() > deadline)
			return -ETIME;
		usleep(1000);
	}
	return 0;
}

/*
 * Fill the file's quota: one job that waits for the first word of @buf,
 * then NOPs behind it, on @stream. The last job signals @sync.
 */
static int fill_quota(int fd, uint32_t stream, struct vnpu_buf *buf, uint64_t limit,
		      uint32_t sync)
{
	struct drm_vnpu_task wait = vnpu_task_wait32(buf->va, VNPU_WAIT_EQ, 1);
	struct drm_vnpu_task nop = vnpu_task_nop();
	int ret;

	ret = vnpu_submit(fd, stream, &wait, 1, NULL, 0, 0, 0, NULL);
	for (uint64_t i = 1; !ret && i < limit; i++)
		ret = vnpu_submit(fd, stream, &nop, 1, NULL, 0, i + 1 == limit ? sync : 0, 0,
				  NULL);
	return ret;
}

struct blocked_submit {
	int fd;
	uint32_t stream;
	bool raw;		/* plain ioctl(2): see EINTR instead of retrying */
	atomic_bool done;
	int ret;
};

static void *submit_one(void *arg)
{
	struct blocked_submit *b = arg;
	struct drm_vnpu_task nop = vnpu_task_nop();
	struct drm_vnpu_submit args = vnpu_submit_args(b->stream, &nop, 1);

	if (b->raw)
		b->ret = ioctl(b->fd, DRM_IOCTL_VNPU_SUBMIT, &args) ? -errno : 0;
	else
		b->ret = vnpu_submit_raw(b->fd, &args);
	atomic_store(&b->done, true);
	return NULL;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = ns / 1000000000ull, .tv_nsec = ns % 1000000000ull };

	nanosleep(&ts, NULL);
}

TEST_F(quota, params_report_limit_and_use)
{
	struct drm_vnpu_task nop = vnpu_task_nop();

	EXPECT_EQ(0, vnpu_param(self->fd, VNPU_PARAM_FILE_JOBS));
	ASSERT_EQ(0, vnpu_submit_wait(self->fd, self->stream, &nop, 1, NULL));
	EXPECT_EQ(0, wait_file_jobs(self->fd, 0));
}

/* The submit past the limit waits for room, then goes through. */
TEST_F(quota, submit_past_limit_waits_for_room)
{
	struct blocked_submit b = { .fd = self->fd, .stream = self->stream };
	pthread_t thread;
	uint32_t sync;

	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sync));
	ASSERT_EQ(0, fill_quota(self->fd, self->stream, &self->buf, self->limit, sync));
	EXPECT_EQ(self->limit, vnpu_param(self->fd, VNPU_PARAM_FILE_JOBS));
	EXPECT_EQ(self->limit, vnpu_fdinfo_value(self->fd, "vnpu-jobs"));

	ASSERT_EQ(0, pthread_create(&thread, NULL, submit_one, &b));
	sleep_ns(WATCH_NS);
	EXPECT_FALSE(atomic_load(&b.done)) TH_LOG("a submit past the limit did not wait");
	release_wait(self->fd, &self->buf);
	ASSERT_EQ(0, pthread_join(thread, NULL));
	EXPECT_EQ(0, b.ret);
	EXPECT_EQ(0, vnpu_syncobj_wait(self->fd, sync, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(0, vnpu_stream_wait_seqno(self->fd, self->stream, self->limit + 1,
					    VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(0, wait_file_jobs(self->fd, 0));
}

/* VNPU_SUBMIT_NONBLOCK: no room is -ENOBUFS at once, and queues nothing. */
TEST_F(quota, nonblocking_submit_fails_without_room)
{
	struct drm_vnpu_task nop = vnpu_task_nop();
	struct drm_vnpu_submit args = vnpu_submit_args(self->stream, &nop, 1);
	struct drm_vnpu_stream_query q;

	args.flags = VNPU_SUBMIT_NONBLOCK;
	ASSERT_EQ(0, fill_quota(self->fd, self->stream, &self->buf, self->limit, 0));
	EXPECT_EQ(-ENOBUFS, vnpu_submit_raw(self->fd, &args));
	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->stream, &q));
	EXPECT_EQ(self->limit, q.submitted_seqno);
	EXPECT_EQ(self->limit, vnpu_param(self->fd, VNPU_PARAM_FILE_JOBS));
	release_wait(self->fd, &self->buf);
	EXPECT_EQ(0, wait_file_jobs(self->fd, 0));
	/* With room it is an ordinary submit. */
	EXPECT_EQ(0, vnpu_submit_raw(self->fd, &args));
	EXPECT_EQ(self->limit + 1, args.seqno);
}

/* A full file holds up nobody else: another file submits and finishes. */
TEST_F(quota, other_files_are_not_held_up)
{
	struct drm_vnpu_task nop = vnpu_task_nop();
	uint32_t other_stream;
	int other = vnpu_open_device(0);

	ASSERT_GE(other, 0);
	ASSERT_EQ(0, fill_quota(self->fd, self->stream, &self->buf, self->limit, 0));
	ASSERT_EQ(0, vnpu_stream_create(other, VNPU_PRIORITY_NORMAL, &other_stream));
	for (uint64_t i = 0; i < 2 * self->limit; i++)
		ASSERT_EQ(0, vnpu_submit_wait(other, other_stream, &nop, 1, NULL));
	EXPECT_EQ(self->limit, vnpu_param(self->fd, VNPU_PARAM_FILE_JOBS));
	release_wait(self->fd, &self->buf);
	EXPECT_EQ(0, wait_file_jobs(self->fd, 0));
	close(other);
}

/*
 * A finished job gives its room back when it ends, even while drm_sched
 * cannot free it yet: a scheduler frees jobs in hand-over order, and
 * another file's parked job was handed over first. Meaningful with one
 * engine (suite job_quota_1engine), where both files share a scheduler.
 */
TEST_F(quota, room_comes_back_behind_another_files_parked_job)
{
	struct drm_vnpu_task wait = vnpu_task_wait32(self->buf.va, VNPU_WAIT_EQ, 1);
	struct drm_vnpu_task nop = vnpu_task_nop();
	uint32_t other_stream, sync;
	int other = vnpu_open_device(0);

	ASSERT_GE(other, 0);
	ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, &wait, 1, NULL, 0, 0, 0, NULL));
	ASSERT_EQ(0, vnpu_stream_create(other, VNPU_PRIORITY_NORMAL, &other_stream));
	ASSERT_EQ(0, vnpu_syncobj_create(other, &sync));
	for (uint64_t i = 0; i < 3 * self->limit; i++) {
		struct drm_vnpu_submit args = vnpu_submit_args(other_stream, &nop, 1);

		args.flags = VNPU_SUBMIT_NONBLOCK;
		args.out_sync.handle = sync;
		ASSERT_EQ(0, vnpu_submit_raw(other, &args)) TH_LOG("job %llu", (unsigned long long)i);
		ASSERT_EQ(0, vnpu_syncobj_wait(other, sync, VNPU_WAIT_FOREVER_NS));
	}
	EXPECT_EQ(0, vnpu_param(other, VNPU_PARAM_FILE_JOBS));
	EXPECT_EQ(1, vnpu_param(self->fd, VNPU_PARAM_FILE_JOBS));
	release_wait(self->fd, &self->buf);
	EXPECT_EQ(0, wait_file_jobs(self->fd, 0));
	close(other);
}

/* An invalid batch is rejected at once, even when the file is full. */
TEST_F(quota, bad_batch_rejected_without_waiting)
{
	struct drm_vnpu_task bad = { .kind = 0xffff };
	struct drm_vnpu_submit args = vnpu_submit_args(self->stream, &bad, 1);

	ASSERT_EQ(0, fill_quota(self->fd, self->stream, &self->buf, self->limit, 0));
	EXPECT_EQ(-EINVAL, vnpu_submit_raw(self->fd, &args));
	release_wait(self->fd, &self->buf);
	EXPECT_EQ(0, wait_file_jobs(self->fd, 0));
}

static void on_signal(int sig)
{
	(void)sig;
}

/* A signal ends the wait with EINTR when the caller does not restart. */
TEST_F(quota, waiting_submit_is_interruptible)
{
	struct blocked_submit b = { .fd = self->fd, .stream = self->stream, .raw = true };
	struct sigaction sa = { .sa_handler = on_signal };	/* no SA_RESTART */
	struct sigaction old;
	pthread_t thread;

	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, &old));
	ASSERT_EQ(0, fill_quota(self->fd, self->stream, &self->buf, self->limit, 0));
	ASSERT_EQ(0, pthread_create(&thread, NULL, submit_one, &b));
	sleep_ns(WATCH_NS);
	EXPECT_FALSE(atomic_load(&b.done));
	ASSERT_EQ(0, pthread_kill(thread, SIGUSR1));
	ASSERT_EQ(0, pthread_join(thread, NULL));
	EXPECT_EQ(-EINTR, b.ret);
	/* Nothing was queued by the interrupted submit. */
	EXPECT_EQ(self->limit, vnpu_param(self->fd, VNPU_PARAM_FILE_JOBS));
	release_wait(self->fd, &self->buf);
	EXPECT_EQ(0, vnpu_stream_wait_seqno(self->fd, self->stream, self->limit,
					    VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(0, wait_file_jobs(self->fd, 0));
	sigaction(SIGUSR1, &old, NULL);
}

/* Destroying a stream cancels its jobs and gives their share back. */
TEST_F(quota, destroying_stream_gives_room_back)
{
	struct drm_vnpu_task nop = vnpu_task_nop();
	uint32_t parked;

	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &parked));
	ASSERT_EQ(0, fill_quota(self->fd, parked, &self->buf, self->limit, 0));
	ASSERT_EQ(0, vnpu_stream_destroy(self->fd, parked));
	EXPECT_EQ(0, wait_file_jobs(self->fd, 0));
	EXPECT_EQ(0, vnpu_submit_wait(self->fd, self->stream, &nop, 1, NULL));
}

/* Jobs that outlive their file (closed with work parked) are still freed. */
TEST_F(quota, close_with_full_quota)
{
	int fd = vnpu_open_device(0);
	struct vnpu_buf buf;
	uint32_t stream;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, vnpu_stream_create(fd, VNPU_PRIORITY_NORMAL, &stream));
	ASSERT_EQ(0, vnpu_buf_create(fd, 4096, &buf));
	ASSERT_EQ(0, fill_quota(fd, stream, &buf, self->limit, 0));
	vnpu_buf_destroy(fd, &buf);
	close(fd);
	EXPECT_EQ(0, vnpu_wait_no_jobs(0, VNPU_WAIT_FOREVER_NS));
}

TEST_HARNESS_MAIN
