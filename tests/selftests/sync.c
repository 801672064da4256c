// SPDX-License-Identifier: GPL-2.0
/*
 * Syncobjs: binary and timeline out-fences, in-fences across streams
 * (including two streams that share an engine), timeline points as
 * dependencies, fence errors, and waits on a stream's own earlier job.
 *
 * Stream "A" is held back by a WAIT_VALUE on a gate word that the test
 * opens from the CPU, which makes "B must not have run yet" observable.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <xf86drm.h>

#include "harness/harness.h"
#include "lib/vnpu_stream_util.h"
#include "lib/vnpu_test.h"

FIXTURE(sync) {
	int fd;
	uint32_t a, b;
	struct vnpu_buf buf;
};

FIXTURE_SETUP(sync)
{
	self->fd = vnpu_open_device(0);
	ASSERT_GE(self->fd, 0) TH_LOG("no vnpu render node");
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &self->a));
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &self->b));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, 1 << 16, &self->buf));
	memset(self->buf.cpu, 0, 1 << 16);
}

FIXTURE_TEARDOWN(sync)
{
	vnpu_buf_destroy(self->fd, &self->buf);
	close(self->fd);
}

#define GATE 0		/* offset of the gate word */
#define X 64		/* A writes here */
#define Y 128		/* B copies X here */

static volatile uint32_t *word(FIXTURE_DATA(sync) *self, size_t off)
{
	return (volatile uint32_t *)((char *)self->buf.cpu + off);
}

/* A: wait for gate >= @gate, then X = @value; fence to @out (@point). */
static int submit_gated(FIXTURE_DATA(sync) *self, uint32_t gate, uint32_t value,
			uint32_t out, uint64_t point)
{
	struct drm_vnpu_task t[2] = {
		vnpu_task_wait32(self->buf.va + GATE, VNPU_WAIT_GEQ, gate),
		vnpu_task_write32(self->buf.va + X, value),
	};

	return vnpu_submit(self->fd, self->a, t, 2, NULL, 0, out, point, NULL);
}

/* B: Y = X after the in-syncs; fence to @out. */
static int submit_copy(FIXTURE_DATA(sync) *self, const struct drm_vnpu_sync *in,
		       uint32_t n, uint32_t out)
{
	struct drm_vnpu_task t = vnpu_task_copy(self->buf.va + Y, self->buf.va + X, 4);

	return vnpu_submit(self->fd, self->b, &t, 1, in, n, out, 0, NULL);
}

/* B has not run: a job on a third stream ran, B's query shows nothing done. */
static void expect_b_waiting(struct th_metadata *_metadata, FIXTURE_DATA(sync) *self)
{
	struct drm_vnpu_task nop = vnpu_task_nop();
	struct drm_vnpu_stream_query q;
	uint32_t c;

	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &c));
	ASSERT_EQ(0, vnpu_submit_wait(self->fd, c, &nop, 1, NULL));
	usleep(10000);
	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->b, &q));
	EXPECT_EQ(0, q.completed_seqno);
	EXPECT_EQ(0, *word(self, Y));
	vnpu_stream_destroy(self->fd, c);
}

TEST_F(sync, binary_out_sync_signals)
{
	struct drm_vnpu_task t = vnpu_task_write32(self->buf.va + X, 5);
	uint32_t sync;

	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sync));
	ASSERT_EQ(0, vnpu_submit(self->fd, self->b, &t, 1, NULL, 0, sync, 0, NULL));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, sync, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(5, *word(self, X));
	EXPECT_EQ(1, vnpu_syncobj_fence_status(self->fd, sync));
}

/* A binary syncobj takes each new job's fence. */
TEST_F(sync, binary_out_sync_replaced)
{
	uint32_t sync;

	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sync));
	ASSERT_EQ(0, submit_gated(self, 1, 11, sync, 0));
	EXPECT_EQ(0, vnpu_syncobj_fence_status(self->fd, sync));
	vnpu_buf_write32(self->fd, &self->buf, GATE, 1);
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, sync, VNPU_WAIT_FOREVER_NS));
	ASSERT_EQ(0, submit_gated(self, 2, 22, sync, 0));
	EXPECT_EQ(0, vnpu_syncobj_fence_status(self->fd, sync));
	vnpu_buf_write32(self->fd, &self->buf, GATE, 2);
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, sync, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(22, *word(self, X));
}

/* B depends on A through a binary syncobj: B runs only after A. */
TEST_F(sync, cross_stream_binary_dependency)
{
	uint32_t sa, sb;
	struct drm_vnpu_sync in;

	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sa));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sb));
	ASSERT_EQ(0, submit_gated(self, 1, 42, sa, 0));
	in = (struct drm_vnpu_sync){ .handle = sa };
	ASSERT_EQ(0, submit_copy(self, &in, 1, sb));
	expect_b_waiting(_metadata, self);
	vnpu_buf_write32(self->fd, &self->buf, GATE, 1);
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, sb, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(42, *word(self, Y));
}

/* Many alternating dependencies: B's n-th job sees A's n-th value. */
TEST_F(sync, cross_stream_chain)
{
	const unsigned int n = 50;
	uint32_t sa, sb;

	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sa));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sb));
	for (unsigned int i = 0; i < n; i++) {
		struct drm_vnpu_task ta[2] = {
			vnpu_task_wait32(self->buf.va + GATE, VNPU_WAIT_GEQ, 1),
			vnpu_task_write32(self->buf.va + X, i + 1),
		};
		struct drm_vnpu_task tb[2] = {
			vnpu_task_copy(self->buf.va + 1024 + 4 * i, self->buf.va + X, 4),
			vnpu_task_nop(),
		};
		struct drm_vnpu_sync from_b = { .handle = sb };
		struct drm_vnpu_sync from_a = { .handle = sa };

		/* A's i-th job waits for B's (i-1)-th, B's i-th for A's i-th. */
		ASSERT_EQ(0, vnpu_submit(self->fd, self->a, ta, 2, &from_b, i ? 1 : 0, sa, 0, NULL));
		ASSERT_EQ(0, vnpu_submit(self->fd, self->b, tb, 2, &from_a, 1, sb, 0, NULL));
	}
	vnpu_buf_write32(self->fd, &self->buf, GATE, 1);
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, sb, VNPU_WAIT_FOREVER_NS));
	for (unsigned int i = 0; i < n; i++)
		EXPECT_EQ(i + 1, *word(self, 1024 + 4 * i));
}

/* Timeline out-points: the payload follows the signalled points. */
TEST_F(sync, timeline_out_points)
{
	uint64_t payload = ~0ull;
	uint32_t tl;

	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &tl));
	ASSERT_EQ(0, submit_gated(self, 1, 1, tl, 1));
	ASSERT_EQ(0, submit_gated(self, 2, 2, tl, 2));
	ASSERT_EQ(0, submit_gated(self, 3, 5, tl, 5));
	ASSERT_EQ(0, vnpu_syncobj_query(self->fd, tl, &payload));
	EXPECT_EQ(0, payload);

	vnpu_buf_write32(self->fd, &self->buf, GATE, 1);
	ASSERT_EQ(0, vnpu_syncobj_timeline_wait(self->fd, tl, 1, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(-ETIME, vnpu_syncobj_timeline_wait(self->fd, tl, 2, 20 * 1000 * 1000));
	vnpu_buf_write32(self->fd, &self->buf, GATE, 2);
	ASSERT_EQ(0, vnpu_syncobj_timeline_wait(self->fd, tl, 2, VNPU_WAIT_FOREVER_NS));
	ASSERT_EQ(0, vnpu_syncobj_query(self->fd, tl, &payload));
	EXPECT_EQ(2, payload);
	vnpu_buf_write32(self->fd, &self->buf, GATE, 3);
	ASSERT_EQ(0, vnpu_syncobj_timeline_wait(self->fd, tl, 5, VNPU_WAIT_FOREVER_NS));
	ASSERT_EQ(0, vnpu_syncobj_query(self->fd, tl, &payload));
	EXPECT_EQ(5, payload);
	EXPECT_EQ(5, *word(self, X));
}

/*
 * A timeline out-point at or below the last point is accepted, not checked
 * (docs/abi-streams.md): the job's fence joins the timeline at the last
 * point, so a wait for that point, already reached, now also waits for it.
 */
TEST_F(sync, timeline_out_point_not_above_last)
{
	struct drm_vnpu_task tb[2] = {
		vnpu_task_wait32(self->buf.va + GATE + 8, VNPU_WAIT_EQ, 1),
		vnpu_task_write32(self->buf.va + X + 8, 30),
	};
	uint64_t payload = ~0ull;
	uint32_t tl;

	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &tl));
	ASSERT_EQ(0, submit_gated(self, 1, 10, tl, 5));
	vnpu_buf_write32(self->fd, &self->buf, GATE, 1);
	ASSERT_EQ(0, vnpu_syncobj_timeline_wait(self->fd, tl, 5, VNPU_WAIT_FOREVER_NS));
	ASSERT_EQ(0, vnpu_syncobj_query(self->fd, tl, &payload));
	EXPECT_EQ(5, payload);

	/* Point 3 on another stream, held back by its gate word. */
	ASSERT_EQ(0, vnpu_submit(self->fd, self->b, tb, 2, NULL, 0, tl, 3, NULL));
	EXPECT_EQ(-ETIME, vnpu_syncobj_timeline_wait(self->fd, tl, 5, 20 * 1000 * 1000));
	ASSERT_EQ(0, vnpu_syncobj_query(self->fd, tl, &payload));
	EXPECT_EQ(0, payload);

	vnpu_buf_write32(self->fd, &self->buf, GATE + 8, 1);
	ASSERT_EQ(0, vnpu_syncobj_timeline_wait(self->fd, tl, 5, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(30, *word(self, X + 8));
	ASSERT_EQ(0, vnpu_syncobj_query(self->fd, tl, &payload));
	EXPECT_EQ(5, payload);
	vnpu_syncobj_destroy(self->fd, tl);
}

/* A timeline point as an in-fence: B waits for A's point 7 only. */
TEST_F(sync, timeline_point_dependency)
{
	struct drm_vnpu_sync in;
	uint32_t tl, sb;

	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &tl));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sb));
	ASSERT_EQ(0, submit_gated(self, 1, 10, tl, 3));
	ASSERT_EQ(0, submit_gated(self, 2, 20, tl, 7));
	in = (struct drm_vnpu_sync){ .handle = tl, .point = 7 };
	ASSERT_EQ(0, submit_copy(self, &in, 1, sb));
	vnpu_buf_write32(self->fd, &self->buf, GATE, 1);
	ASSERT_EQ(0, vnpu_syncobj_timeline_wait(self->fd, tl, 3, VNPU_WAIT_FOREVER_NS));
	expect_b_waiting(_metadata, self);
	vnpu_buf_write32(self->fd, &self->buf, GATE, 2);
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, sb, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(20, *word(self, Y));
}

/* In-fences that are already signalled do not hold anything back. */
TEST_F(sync, signalled_in_sync)
{
	struct drm_vnpu_sync in;
	uint32_t done, sb;

	vnpu_buf_write32(self->fd, &self->buf, X, 9);
	ASSERT_EQ(0, vnpu_syncobj_create_signaled(self->fd, &done));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sb));
	in = (struct drm_vnpu_sync){ .handle = done };
	ASSERT_EQ(0, submit_copy(self, &in, 1, sb));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, sb, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(9, *word(self, Y));
}

/* Two in-fences from two streams: B needs both. */
TEST_F(sync, several_in_syncs)
{
	struct drm_vnpu_task tc[2] = {
		vnpu_task_wait32(self->buf.va + GATE + 4, VNPU_WAIT_EQ, 1),
		vnpu_task_write32(self->buf.va + X + 4, 1),
	};
	struct drm_vnpu_sync in[2];
	uint32_t sa, sc, sb, c;

	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &c));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sa));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sc));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sb));
	ASSERT_EQ(0, submit_gated(self, 1, 33, sa, 0));
	ASSERT_EQ(0, vnpu_submit(self->fd, c, tc, 2, NULL, 0, sc, 0, NULL));
	in[0] = (struct drm_vnpu_sync){ .handle = sa };
	in[1] = (struct drm_vnpu_sync){ .handle = sc };
	ASSERT_EQ(0, submit_copy(self, in, 2, sb));
	vnpu_buf_write32(self->fd, &self->buf, GATE, 1);
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, sa, VNPU_WAIT_FOREVER_NS));
	expect_b_waiting(_metadata, self);
	vnpu_buf_write32(self->fd, &self->buf, GATE + 4, 1);
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, sb, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(33, *word(self, Y));
}

/*
 * VNPU_MAX_IN_SYNCS in-syncs (65 are rejected: submit_bad_input.c), each
 * the fence of a job on its own stream waiting for its own word. B waits
 * for every one of them: it has not run while the first, a middle or the
 * last one is still pending.
 */
TEST_F(sync, max_in_syncs_all_honoured)
{
	enum { N = VNPU_MAX_IN_SYNCS, WORDS = 1024 };
	static const unsigned int late[] = { N - 1, N / 2, 0 };
	struct drm_vnpu_sync in[N];
	uint32_t streams[N], sb;

	vnpu_buf_write32(self->fd, &self->buf, X, 0x64);
	for (unsigned int i = 0; i < N; i++) {
		struct drm_vnpu_task w = vnpu_task_wait32(self->buf.va + WORDS + 4 * i,
							  VNPU_WAIT_EQ, 1);

		ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &streams[i]));
		in[i] = (struct drm_vnpu_sync){ 0 };
		ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &in[i].handle));
		ASSERT_EQ(0, vnpu_submit(self->fd, streams[i], &w, 1, NULL, 0, in[i].handle, 0,
					 NULL));
	}
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sb));
	ASSERT_EQ(0, submit_copy(self, in, N, sb));

	/* Open every word but the late ones, then those one at a time. */
	for (unsigned int i = 0; i < N; i++)
		if (i != late[0] && i != late[1] && i != late[2])
			vnpu_buf_write32(self->fd, &self->buf, WORDS + 4 * i, 1);
	for (unsigned int k = 0; k < 3; k++) {
		expect_b_waiting(_metadata, self);
		vnpu_buf_write32(self->fd, &self->buf, WORDS + 4 * late[k], 1);
	}
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, sb, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(1, vnpu_syncobj_fence_status(self->fd, sb));
	EXPECT_EQ(0x64, *word(self, Y));
	for (unsigned int i = 0; i < N; i++) {
		EXPECT_EQ(1, vnpu_syncobj_fence_status(self->fd, in[i].handle));
		vnpu_syncobj_destroy(self->fd, in[i].handle);
		vnpu_stream_destroy(self->fd, streams[i]);
	}
	vnpu_syncobj_destroy(self->fd, sb);
}

/* A job may wait on its own stream's earlier job. */
TEST_F(sync, in_sync_on_own_stream)
{
	struct drm_vnpu_sync in;
	uint32_t sa, s2;
	struct drm_vnpu_task t = vnpu_task_copy(self->buf.va + Y, self->buf.va + X, 4);

	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sa));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &s2));
	ASSERT_EQ(0, submit_gated(self, 1, 77, sa, 0));
	in = (struct drm_vnpu_sync){ .handle = sa };
	ASSERT_EQ(0, vnpu_submit(self->fd, self->a, &t, 1, &in, 1, s2, 0, NULL));
	vnpu_buf_write32(self->fd, &self->buf, GATE, 1);
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, s2, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(77, *word(self, Y));
}

/* Fences of jobs cancelled by STREAM_DESTROY carry an error. */
TEST_F(sync, destroyed_stream_fences_carry_error)
{
	uint32_t s1, s2;
	int st1, st2;

	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &s1));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &s2));
	ASSERT_EQ(0, submit_gated(self, 1, 1, s1, 0));
	ASSERT_EQ(0, submit_gated(self, 1, 2, s2, 0));
	ASSERT_EQ(0, vnpu_stream_destroy(self->fd, self->a));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, s2, VNPU_WAIT_FOREVER_NS));
	st1 = vnpu_syncobj_fence_status(self->fd, s1);
	st2 = vnpu_syncobj_fence_status(self->fd, s2);
	/*
	 * A cancel error, never -ETIMEDOUT: a job the engine takes while the
	 * destroy is under way is asked to stop too (engine.c,
	 * destroy_races_a_take; destroy_races_held_jobs below).
	 */
	EXPECT_TRUE(vnpu_status_cancelled(st1)) TH_LOG("first job: %d", st1);
	EXPECT_TRUE(vnpu_status_cancelled(st2)) TH_LOG("second job: %d", st2);
	EXPECT_EQ(0, *word(self, X));
}

/*
 * STREAM_DESTROY at random points of two gated jobs' lives, many times: each
 * round puts two jobs on a new stream, each waiting for a fresh gate word,
 * and destroys the stream at once or after a random delay, while another
 * thread opens none, one or both gates (SIGNAL) at random times. Whatever
 * the engine holds, or takes, at the destroy must be ended by the cancel: a
 * job the cancel missed shows as a fence that does not signal within a
 * second (it would end at its deadline only, with -ETIMEDOUT; job_timeout_ms
 * is 10 s). Each fence is success (its gate opened in time and it ran) or a
 * cancel error, and a job that ran never follows a cancelled one. Bounded:
 * about 3 s of rounds.
 */
struct race_round {
	int fd;
	struct vnpu_buf *buf;
	size_t gate[2];		/* each job's gate word */
	unsigned int open;	/* bit j: open job j's gate */
	unsigned int delay[2];	/* µs before each opening */
};

static void *race_opener(void *arg)
{
	const struct race_round *r = arg;

	for (unsigned int j = 0; j < 2; j++) {
		if (r->delay[j])
			usleep(r->delay[j]);
		if (r->open & (1u << j))
			vnpu_buf_write32(r->fd, r->buf, r->gate[j], 1);
	}
	return NULL;
}

/* 0 a quarter of the time, else up to @max µs, small values as likely as large. */
static unsigned int race_delay(unsigned int *seed, unsigned int max)
{
	unsigned int r = (unsigned int)rand_r(seed);

	if (!(r & 3))
		return 0;
	return (r >> 2) % (1u << ((r >> 12) % 10)) % max;
}

TEST_F_TIMEOUT(sync, destroy_races_held_jobs, 120)
{
	enum { BASE = 4096 };
	unsigned int seed = (unsigned int)time(NULL) ^ ((unsigned int)getpid() << 8);
	const uint64_t end = vnpu_now_ns() + 3ull * 1000 * 1000 * 1000;
	unsigned int round, j;
	uint32_t out[2];

	printf("# seed %u\n", seed);
	for (j = 0; j < 2; j++)
		ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &out[j]));
	for (round = 0; vnpu_now_ns() < end && BASE + 8 * (round + 1) <= self->buf.size;
	     round++) {
		struct race_round r = { .fd = self->fd, .buf = &self->buf };
		unsigned int before = race_delay(&seed, 200);
		bool opener = !(rand_r(&seed) % 3);
		pthread_t th;
		uint32_t s;
		int st[2];

		ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &s));
		for (j = 0; j < 2; j++) {
			struct drm_vnpu_task t;

			r.gate[j] = BASE + 8 * round + 4 * j;
			r.delay[j] = race_delay(&seed, 200);
			t = vnpu_task_wait32(self->buf.va + r.gate[j], VNPU_WAIT_GEQ, 1);
			ASSERT_EQ(0, vnpu_submit(self->fd, s, &t, 1, NULL, 0, out[j], 0, NULL));
		}
		if (opener) {
			r.open = 1 + (unsigned int)rand_r(&seed) % 3;
			ASSERT_EQ(0, pthread_create(&th, NULL, race_opener, &r));
		}
		if (before)
			usleep(before);
		ASSERT_EQ(0, vnpu_stream_destroy(self->fd, s));
		if (opener)
			pthread_join(th, NULL);
		for (j = 0; j < 2; j++) {
			ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, out[j], 1000ull * 1000 * 1000))
				TH_LOG("round %u (gates opened: %#x, destroy after %u µs): job %u's "
				       "fence did not signal after the destroy", round, r.open,
				       before, j + 1);
			st[j] = vnpu_syncobj_fence_status(self->fd, out[j]);
			ASSERT_TRUE(st[j] == 1 || vnpu_status_cancelled(st[j]))
				TH_LOG("round %u (gates opened: %#x, destroy after %u µs): job %u: %d",
				       round, r.open, before, j + 1, st[j]);
			/* A job runs through an open gate only. */
			ASSERT_TRUE(st[j] != 1 || (r.open & (1u << j)))
				TH_LOG("round %u: job %u ran", round, j + 1);
		}
		ASSERT_TRUE(st[1] != 1 || st[0] == 1)
			TH_LOG("round %u: job 2 ran after job 1 ended with %d", round, st[0]);
		/* Let the worker fall asleep (it polls 250 µs after work). */
		usleep(300);
	}
	printf("# %u rounds\n", round);
}

/* One file waits on another file's job through an exported syncobj. */
TEST_F(sync, dependency_across_files)
{
	int fd2 = vnpu_open_device(0);
	struct drm_vnpu_task t;
	struct drm_vnpu_sync in;
	struct vnpu_buf buf2;
	uint32_t sa, imported, stream2, done2;
	int sync_fd;

	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, vnpu_buf_create(fd2, 4096, &buf2));
	ASSERT_EQ(0, vnpu_stream_create(fd2, VNPU_PRIORITY_NORMAL, &stream2));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sa));
	ASSERT_EQ(0, submit_gated(self, 1, 1, sa, 0));
	ASSERT_EQ(0, drmSyncobjHandleToFD(self->fd, sa, &sync_fd));
	ASSERT_EQ(0, drmSyncobjFDToHandle(fd2, sync_fd, &imported));
	close(sync_fd);
	ASSERT_EQ(0, vnpu_syncobj_create(fd2, &done2));
	t = vnpu_task_write32(buf2.va, 0xf00d);
	in = (struct drm_vnpu_sync){ .handle = imported };
	ASSERT_EQ(0, vnpu_submit(fd2, stream2, &t, 1, &in, 1, done2, 0, NULL));
	usleep(20000);
	EXPECT_EQ(0, *(volatile uint32_t *)buf2.cpu);
	vnpu_buf_write32(self->fd, &self->buf, GATE, 1);
	ASSERT_EQ(0, vnpu_syncobj_wait(fd2, done2, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(0xf00d, *(volatile uint32_t *)buf2.cpu);
	vnpu_buf_destroy(fd2, &buf2);
	close(fd2);
}

TEST_HARNESS_MAIN
