// SPDX-License-Identifier: GPL-2.0
/*
 * Streams: creation and limits, submission order, sequence numbers, the
 * value, timestamp and wait tasks, parking, concurrency, query and fdinfo.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <sys/wait.h>

#include "harness/harness.h"
#include "lib/vnpu_bo_util.h"
#include "lib/vnpu_stream_util.h"
#include "lib/vnpu_test.h"

FIXTURE(st) {
	int fd;
	uint32_t stream;
	struct vnpu_buf buf;
};

FIXTURE_SETUP(st)
{
	self->fd = vnpu_open_device(0);
	ASSERT_GE(self->fd, 0) TH_LOG("no vnpu render node");
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &self->stream));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, 1 << 20, &self->buf));
}

FIXTURE_TEARDOWN(st)
{
	vnpu_buf_destroy(self->fd, &self->buf);
	close(self->fd);
}

static volatile uint32_t *u32_at(struct vnpu_buf *b, size_t off)
{
	return (volatile uint32_t *)((char *)b->cpu + off);
}

static volatile uint64_t *u64_at(struct vnpu_buf *b, size_t off)
{
	return (volatile uint64_t *)((char *)b->cpu + off);
}

TEST_F(st, create_and_destroy)
{
	uint32_t id;

	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &id));
	EXPECT_NE(0, id);
	EXPECT_NE(self->stream, id);
	EXPECT_EQ(0, vnpu_stream_destroy(self->fd, id));
	EXPECT_EQ(-ENOENT, vnpu_stream_destroy(self->fd, id));
}

TEST_F(st, ids_distinct_and_not_reused_at_once)
{
	uint32_t a, b, c, d;

	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_LOW, &a));
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &b));
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_HIGH, &c));
	EXPECT_NE(a, b);
	EXPECT_NE(b, c);
	EXPECT_NE(a, c);
	ASSERT_EQ(0, vnpu_stream_destroy(self->fd, b));
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &d));
	EXPECT_NE(b, d);
	EXPECT_NE(a, d);
	EXPECT_NE(c, d);
}

TEST_F(st, ids_are_per_file)
{
	struct drm_vnpu_stream_query q;
	int fd2 = vnpu_open_device(0);

	ASSERT_GE(fd2, 0);
	EXPECT_EQ(-ENOENT, vnpu_stream_query(fd2, self->stream, &q));
	EXPECT_EQ(-ENOENT, vnpu_stream_destroy(fd2, self->stream));
	EXPECT_EQ(0, vnpu_stream_query(self->fd, self->stream, &q));
	close(fd2);
}

TEST_F(st, every_priority_runs_work)
{
	static const uint32_t prios[] = {
		VNPU_PRIORITY_LOW, VNPU_PRIORITY_NORMAL, VNPU_PRIORITY_HIGH,
	};

	for (unsigned int i = 0; i < 3; i++) {
		struct drm_vnpu_task t = vnpu_task_write32(self->buf.va + 4 * i, 100 + i);
		uint32_t id;

		ASSERT_EQ(0, vnpu_stream_create(self->fd, prios[i], &id));
		ASSERT_EQ(0, vnpu_submit_wait(self->fd, id, &t, 1, NULL));
		EXPECT_EQ(100 + i, *u32_at(&self->buf, 4 * i));
	}
}

TEST_F(st, fresh_stream_query)
{
	struct drm_vnpu_stream_query q;

	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->stream, &q));
	EXPECT_EQ(self->stream, q.stream_id);
	EXPECT_EQ(0, q.submitted_seqno);
	EXPECT_EQ(0, q.completed_seqno);
	EXPECT_EQ(VNPU_STREAM_ERROR_NONE, q.error);
	EXPECT_EQ(0, q.failed_task);
	EXPECT_EQ(0, q.failed_seqno);
}

TEST_F(st, seqnos_count_from_one)
{
	struct drm_vnpu_task t = vnpu_task_nop();
	struct drm_vnpu_stream_query q;
	uint64_t seqno;

	for (uint64_t i = 1; i <= 5; i++) {
		ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, &t, 1, NULL, 0, 0, 0, &seqno));
		EXPECT_EQ(i, seqno);
	}
	ASSERT_EQ(0, vnpu_submit_wait(self->fd, self->stream, &t, 1, &seqno));
	EXPECT_EQ(6, seqno);
	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->stream, &q));
	EXPECT_EQ(6, q.submitted_seqno);
	EXPECT_EQ(6, q.completed_seqno);
	EXPECT_EQ(VNPU_STREAM_ERROR_NONE, q.error);
}

TEST_F(st, write_value_widths)
{
	struct drm_vnpu_task t[] = {
		vnpu_task_write32(self->buf.va + 8, 0x11223344),
		/* The upper half of a 32-bit task's value is not used. */
		vnpu_task_write32(self->buf.va + 16, 0x55667788),
		vnpu_task_write64(self->buf.va + 32, 0x0102030405060708ull),
	};

	t[1].value.value |= 0xaaaaaaaa00000000ull;

	memset(self->buf.cpu, 0xee, 64);
	ASSERT_EQ(0, vnpu_submit_wait(self->fd, self->stream, t, 3, NULL));
	EXPECT_EQ(0x11223344, *u32_at(&self->buf, 8));
	EXPECT_EQ(0xeeeeeeee, *u32_at(&self->buf, 12));
	EXPECT_EQ(0x55667788, *u32_at(&self->buf, 16));
	EXPECT_EQ(0xeeeeeeee, *u32_at(&self->buf, 20));
	EXPECT_EQ(0x0102030405060708ull, *u64_at(&self->buf, 32));
	EXPECT_EQ(0xeeeeeeee, *u32_at(&self->buf, 4));
	EXPECT_EQ(0xeeeeeeee, *u32_at(&self->buf, 40));
}

TEST_F(st, timestamp_is_monotonic_time)
{
	struct drm_vnpu_task t[] = {
		vnpu_task_timestamp(self->buf.va + 64),
		vnpu_task_fill(self->buf.va + 4096, 256 << 10, 0x5a),
		vnpu_task_timestamp(self->buf.va + 72),
	};
	uint64_t before, after;

	before = vnpu_now_ns();
	ASSERT_EQ(0, vnpu_submit_wait(self->fd, self->stream, t, 3, NULL));
	after = vnpu_now_ns();
	EXPECT_LE(before, *u64_at(&self->buf, 64));
	EXPECT_LE(*u64_at(&self->buf, 64), *u64_at(&self->buf, 72));
	EXPECT_LE(*u64_at(&self->buf, 72), after);
}

/* One comparison case: the word's value, the task's value, whether it holds. */
struct cmp_case {
	uint32_t cmp;
	bool wide;
	uint64_t word, value;
	bool holds;
};

static const struct cmp_case cmp_cases[] = {
	{ VNPU_WAIT_GEQ, false, 5, 5, true },
	{ VNPU_WAIT_GEQ, false, 4, 5, false },
	{ VNPU_WAIT_GEQ, false, 0x80000000u, 1, true },		/* unsigned */
	{ VNPU_WAIT_GEQ, true, 0x8000000000000000ull, 1, true },
	{ VNPU_WAIT_GEQ, true, 0xffffffffull, 0x100000000ull, false },
	{ VNPU_WAIT_EQ, false, 7, 7, true },
	{ VNPU_WAIT_EQ, false, 7, 0x100000007ull, true },	/* low 32 bits */
	{ VNPU_WAIT_EQ, false, 7, 8, false },
	{ VNPU_WAIT_EQ, true, 0x100000007ull, 7, false },
	{ VNPU_WAIT_AND, false, 0x10, 0x30, true },
	{ VNPU_WAIT_AND, false, 0x10, 0x20, false },
	{ VNPU_WAIT_AND, true, 0x100000000ull, 0x100000000ull, true },
	{ VNPU_WAIT_NOR, false, 0xfffffffe, 0, true },
	{ VNPU_WAIT_NOR, false, 0xffffffff, 0, false },
	{ VNPU_WAIT_NOR, false, 0xffff0000, 0x0000ffff, false },
	{ VNPU_WAIT_NOR, true, 0xffffffff, 0, true },		/* upper half is 0 */
	{ VNPU_WAIT_NOR, true, ~0ull, 0, false },
};

static struct drm_vnpu_task cmp_wait(const struct cmp_case *c, uint64_t va)
{
	return c->wide ? vnpu_task_wait64(va, c->cmp, c->value) :
			 vnpu_task_wait32(va, c->cmp, (uint32_t)c->value);
}

/*
 * Each case: a wait that holds completes at once; one that does not holds
 * its stream back (the write after it does not happen) until the CPU
 * stores a word that satisfies it and says so (SIGNAL).
 */
TEST_F(st, wait_value_compare_ops)
{
	for (unsigned int i = 0; i < sizeof(cmp_cases) / sizeof(cmp_cases[0]); i++) {
		const struct cmp_case *c = &cmp_cases[i];
		uint64_t word_va = self->buf.va + 256, mark_va = self->buf.va + 512;
		struct drm_vnpu_task t[2];
		struct drm_vnpu_stream_query q;
		uint32_t sync, id;

		*u64_at(&self->buf, 256) = 0;
		if (c->wide)
			*u64_at(&self->buf, 256) = c->word;
		else
			*u32_at(&self->buf, 256) = (uint32_t)c->word;
		*u32_at(&self->buf, 512) = 0;
		t[0] = cmp_wait(c, word_va);
		t[1] = vnpu_task_write32(mark_va, i + 1);

		ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &id));
		ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sync));
		ASSERT_EQ(0, vnpu_submit(self->fd, id, t, 2, NULL, 0, sync, 0, NULL));
		if (!c->holds) {
			/* Still waiting after the engines saw it (a later job ran). */
			struct drm_vnpu_task nop = vnpu_task_nop();

			ASSERT_EQ(0, vnpu_submit_wait(self->fd, self->stream, &nop, 1, NULL));
			usleep(20000);
			ASSERT_EQ(0, vnpu_stream_query(self->fd, id, &q));
			EXPECT_EQ(0, q.completed_seqno) TH_LOG("case %u ran early", i);
			EXPECT_EQ(0, *u32_at(&self->buf, 512));
			/* Make it hold: the case table's value satisfies every op. */
			if (c->cmp == VNPU_WAIT_NOR)
				*u64_at(&self->buf, 256) = 0;
			else if (c->wide)
				*u64_at(&self->buf, 256) = c->value;
			else
				*u32_at(&self->buf, 256) = (uint32_t)c->value;
			/* The device looks again only when told. */
			ASSERT_EQ(0, vnpu_signal(self->fd, word_va, 8, NULL));
		}
		ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, sync, VNPU_WAIT_FOREVER_NS))
			TH_LOG("case %u never ran", i);
		EXPECT_EQ(i + 1, *u32_at(&self->buf, 512));
		ASSERT_EQ(0, vnpu_stream_query(self->fd, id, &q));
		EXPECT_EQ(1, q.completed_seqno);
		EXPECT_EQ(VNPU_STREAM_ERROR_NONE, q.error);
		vnpu_syncobj_destroy(self->fd, sync);
		vnpu_stream_destroy(self->fd, id);
	}
}

/*
 * 10,000 jobs on one stream, each copying a counter into its own slot and
 * then writing the counter's next value: a slot holds its own index only if
 * every job ran after the one before it had finished.
 */
TEST_F_TIMEOUT(st, ordering_10000_jobs, 120)
{
	const unsigned int n = 10000;
	struct vnpu_buf slots;
	uint32_t sync;
	uint64_t seqno = 0;
	struct drm_vnpu_stream_query q;
	unsigned int bad = 0;

	ASSERT_EQ(0, vnpu_buf_create(self->fd, (n + 1) * 8, &slots));
	memset(slots.cpu, 0xff, (n + 1) * 8);
	*u64_at(&slots, n * 8) = 0;	/* the counter */
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sync));

	for (unsigned int i = 0; i < n; i++) {
		struct drm_vnpu_task t[2] = {
			vnpu_task_copy(slots.va + i * 8, slots.va + n * 8, 8),
			vnpu_task_write64(slots.va + n * 8, i + 1),
		};

		ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, t, 2, NULL, 0,
					 i == n - 1 ? sync : 0, 0, &seqno));
		ASSERT_EQ(i + 1, seqno);
	}
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, sync, VNPU_WAIT_FOREVER_NS));
	for (unsigned int i = 0; i < n; i++)
		bad += *u64_at(&slots, i * 8) != i;
	EXPECT_EQ(0, bad);
	EXPECT_EQ(n, *u64_at(&slots, n * 8));
	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->stream, &q));
	EXPECT_EQ(n, q.submitted_seqno);
	EXPECT_EQ(n, q.completed_seqno);
	vnpu_syncobj_destroy(self->fd, sync);
	vnpu_buf_destroy(self->fd, &slots);
}

/* The same inside one job: 4096 tasks run in order. */
TEST_F(st, ordering_within_a_batch)
{
	const unsigned int n = VNPU_MAX_TASKS_PER_SUBMIT / 2;
	struct drm_vnpu_task *t = calloc(2 * n, sizeof(*t));
	unsigned int bad = 0;

	ASSERT_NONNULL(t);
	*u64_at(&self->buf, 0) = 0;
	for (unsigned int i = 0; i < n; i++) {
		t[2 * i] = vnpu_task_copy(self->buf.va + 8 + i * 8, self->buf.va, 8);
		t[2 * i + 1] = vnpu_task_write64(self->buf.va, i + 1);
	}
	ASSERT_EQ(0, vnpu_submit_wait(self->fd, self->stream, t, 2 * n, NULL));
	for (unsigned int i = 0; i < n; i++)
		bad += *u64_at(&self->buf, 8 + i * 8) != i;
	EXPECT_EQ(0, bad);
	free(t);
}

/* A stream waiting for memory leaves the engines to everyone else. */
TEST_F(st, parked_stream_does_not_block_others)
{
	struct drm_vnpu_task wait = vnpu_task_wait32(self->buf.va, VNPU_WAIT_EQ, 1);
	struct drm_vnpu_task mark = vnpu_task_write32(self->buf.va + 4, 7);
	uint32_t blocked, sync;
	unsigned int engines = 0;
	uint64_t v;

	ASSERT_EQ(0, vnpu_get_param(self->fd, VNPU_PARAM_NUM_ENGINES, &v));
	engines = (unsigned int)v;
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sync));
	/* More waiting streams than engines. */
	for (unsigned int i = 0; i < engines + 2; i++) {
		ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_HIGH, &blocked));
		ASSERT_EQ(0, vnpu_submit(self->fd, blocked, &wait, 1, NULL, 0,
					 i == 0 ? sync : 0, 0, NULL));
	}
	for (unsigned int i = 0; i < 100; i++) {
		mark = vnpu_task_write32(self->buf.va + 4, i);
		ASSERT_EQ(0, vnpu_submit_wait(self->fd, self->stream, &mark, 1, NULL));
		ASSERT_EQ(i, *u32_at(&self->buf, 4));
	}
	EXPECT_EQ(0, vnpu_syncobj_fence_status(self->fd, sync));
	ASSERT_EQ(0, vnpu_buf_write32(self->fd, &self->buf, 0, 1));
	EXPECT_EQ(0, vnpu_syncobj_wait(self->fd, sync, VNPU_WAIT_FOREVER_NS));
	/* Released, not timed out. */
	EXPECT_EQ(1, vnpu_syncobj_fence_status(self->fd, sync));
}

/* A value written by a task on one stream releases a wait on another. */
TEST_F(st, device_write_wakes_waiting_stream)
{
	struct drm_vnpu_task a[2] = {
		vnpu_task_wait64(self->buf.va, VNPU_WAIT_GEQ, 3),
		vnpu_task_write32(self->buf.va + 8, 0xabc),
	};
	struct drm_vnpu_task b = vnpu_task_write64(self->buf.va, 3);
	uint32_t stream_a, sync;

	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &stream_a));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sync));
	ASSERT_EQ(0, vnpu_submit(self->fd, stream_a, a, 2, NULL, 0, sync, 0, NULL));
	ASSERT_EQ(0, vnpu_submit_wait(self->fd, self->stream, &b, 1, NULL));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, sync, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(0xabc, *u32_at(&self->buf, 8));
}

/* Two streams hand a token back and forth 200 times through memory only. */
TEST_F(st, ping_pong_between_streams)
{
	const unsigned int rounds = 200;
	uint32_t ping, pong, sync;

	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &ping));
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &pong));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sync));
	*u64_at(&self->buf, 0) = 0;
	for (unsigned int i = 0; i < rounds; i++) {
		struct drm_vnpu_task p[2] = {
			vnpu_task_wait64(self->buf.va, VNPU_WAIT_EQ, 2 * i),
			vnpu_task_write64(self->buf.va, 2 * i + 1),
		};
		struct drm_vnpu_task q[2] = {
			vnpu_task_wait64(self->buf.va, VNPU_WAIT_EQ, 2 * i + 1),
			vnpu_task_write64(self->buf.va, 2 * i + 2),
		};

		ASSERT_EQ(0, vnpu_submit(self->fd, ping, p, 2, NULL, 0, 0, 0, NULL));
		ASSERT_EQ(0, vnpu_submit(self->fd, pong, q, 2, NULL, 0,
					 i == rounds - 1 ? sync : 0, 0, NULL));
	}
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, sync, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(2 * rounds, *u64_at(&self->buf, 0));
}

struct submitter {
	int fd;
	uint32_t stream;
	uint64_t va;
	unsigned int index, count;
	uint64_t *seqnos;
	int error;
};

static void *submit_thread(void *arg)
{
	struct submitter *s = arg;

	for (unsigned int i = 0; i < s->count; i++) {
		struct drm_vnpu_task t = vnpu_task_write32(s->va + 4 * s->index, i + 1);
		int ret = vnpu_submit(s->fd, s->stream, &t, 1, NULL, 0, 0, 0, &s->seqnos[i]);

		if (ret) {
			s->error = ret;
			break;
		}
	}
	return NULL;
}

/* Four threads submit to one stream: every job gets its own seqno, all run. */
TEST_F(st, concurrent_submitters_one_stream)
{
	enum { THREADS = 4, PER = 250 };
	static uint64_t seqnos[THREADS][PER];
	struct submitter s[THREADS];
	pthread_t th[THREADS];
	static bool seen[THREADS * PER + 1];

	for (unsigned int i = 0; i < THREADS; i++) {
		s[i] = (struct submitter){ .fd = self->fd, .stream = self->stream,
					   .va = self->buf.va, .index = i, .count = PER,
					   .seqnos = seqnos[i] };
		ASSERT_EQ(0, pthread_create(&th[i], NULL, submit_thread, &s[i]));
	}
	for (unsigned int i = 0; i < THREADS; i++) {
		pthread_join(th[i], NULL);
		EXPECT_EQ(0, s[i].error);
	}
	for (unsigned int i = 0; i < THREADS; i++) {
		for (unsigned int j = 0; j < PER; j++) {
			ASSERT_GE(seqnos[i][j], 1);
			ASSERT_LE(seqnos[i][j], THREADS * PER);
			EXPECT_FALSE(seen[seqnos[i][j]]);
			seen[seqnos[i][j]] = true;
			if (j)
				EXPECT_LT(seqnos[i][j - 1], seqnos[i][j]);
		}
	}
	ASSERT_EQ(0, vnpu_stream_wait_seqno(self->fd, self->stream, THREADS * PER,
					    VNPU_WAIT_FOREVER_NS));
	for (unsigned int i = 0; i < THREADS; i++)
		EXPECT_EQ(PER, *u32_at(&self->buf, 4 * i));
}

/* 64 streams, 20 jobs each, all in flight at once. */
TEST_F(st, many_streams_at_once)
{
	enum { STREAMS = 64, JOBS = 20 };
	uint32_t ids[STREAMS];

	for (unsigned int s = 0; s < STREAMS; s++)
		ASSERT_EQ(0, vnpu_stream_create(self->fd, s % 3, &ids[s]));
	for (unsigned int j = 0; j < JOBS; j++) {
		for (unsigned int s = 0; s < STREAMS; s++) {
			struct drm_vnpu_task t[2] = {
				vnpu_task_wait32(self->buf.va + 8 * s, VNPU_WAIT_EQ, j),
				vnpu_task_write32(self->buf.va + 8 * s, j + 1),
			};

			ASSERT_EQ(0, vnpu_submit(self->fd, ids[s], t, 2, NULL, 0, 0, 0, NULL));
		}
	}
	for (unsigned int s = 0; s < STREAMS; s++) {
		struct drm_vnpu_stream_query q;

		ASSERT_EQ(0, vnpu_stream_wait_seqno(self->fd, ids[s], JOBS, VNPU_WAIT_FOREVER_NS));
		EXPECT_EQ(JOBS, *u32_at(&self->buf, 8 * s));
		ASSERT_EQ(0, vnpu_stream_query(self->fd, ids[s], &q));
		EXPECT_EQ(VNPU_STREAM_ERROR_NONE, q.error);
	}
}

/*
 * On one engine, priorities are strict: a LOW stream's job released at the
 * same moment as a NORMAL stream's 32 jobs runs only after all of them (a
 * round-robin engine would give it a turn after the first few).
 */
TEST_F(st, low_priority_runs_after_normal)
{
	struct drm_vnpu_task hold = vnpu_task_wait32(self->buf.va, VNPU_WAIT_EQ, 1);
	struct drm_vnpu_task fill = vnpu_task_fill(self->buf.va + 4096, 512 << 10, 7);
	struct drm_vnpu_stream_query q;
	struct drm_vnpu_sync in;
	uint32_t normal, low, released, done;
	uint64_t v;

	ASSERT_EQ(0, vnpu_get_param(self->fd, VNPU_PARAM_NUM_ENGINES, &v));
	if (v != 1)
		SKIP(return, "needs engines=1 (there are %llu)", (unsigned long long)v);
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &normal));
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_LOW, &low));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &released));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &done));
	*u32_at(&self->buf, 0) = 0;
	ASSERT_EQ(0, vnpu_submit(self->fd, self->stream, &hold, 1, NULL, 0, released, 0, NULL));
	in = (struct drm_vnpu_sync){ .handle = released };
	ASSERT_EQ(0, vnpu_submit(self->fd, low, &fill, 1, &in, 1, done, 0, NULL));
	for (int i = 0; i < 32; i++)
		ASSERT_EQ(0, vnpu_submit(self->fd, normal, &fill, 1, &in, i == 0, 0, 0, NULL));
	ASSERT_EQ(0, vnpu_buf_write32(self->fd, &self->buf, 0, 1));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, done, VNPU_WAIT_FOREVER_NS));
	ASSERT_EQ(0, vnpu_stream_query(self->fd, normal, &q));
	EXPECT_EQ(32, q.completed_seqno);
}

/* A stream id means nothing once destroyed. */
TEST_F(st, destroyed_stream_is_unknown)
{
	struct drm_vnpu_task t = vnpu_task_nop();
	struct drm_vnpu_stream_query q;

	ASSERT_EQ(0, vnpu_stream_destroy(self->fd, self->stream));
	EXPECT_EQ(-ENOENT, vnpu_submit(self->fd, self->stream, &t, 1, NULL, 0, 0, 0, NULL));
	EXPECT_EQ(-ENOENT, vnpu_stream_query(self->fd, self->stream, &q));
	EXPECT_EQ(-ENOENT, vnpu_stream_set_param(self->fd, self->stream,
						 VNPU_STREAM_PARAM_REQUIRE_POOL, 1));
}

TEST_F(st, set_param_accepts_valid_values)
{
	EXPECT_EQ(0, vnpu_stream_set_param(self->fd, self->stream,
					   VNPU_STREAM_PARAM_HAZARD_POLICY, VNPU_HAZARD_STRICT));
	EXPECT_EQ(0, vnpu_stream_set_param(self->fd, self->stream,
					   VNPU_STREAM_PARAM_HAZARD_POLICY, VNPU_HAZARD_SERIALIZE));
	EXPECT_EQ(0, vnpu_stream_set_param(self->fd, self->stream,
					   VNPU_STREAM_PARAM_REQUIRE_POOL, 1));
	EXPECT_EQ(0, vnpu_stream_set_param(self->fd, self->stream,
					   VNPU_STREAM_PARAM_REQUIRE_POOL, 0));
}

/* fdinfo's drm-engine-compute grows by the time the engines spent. */
TEST_F(st, fdinfo_counts_engine_time)
{
	struct drm_vnpu_task t = vnpu_task_fill(self->buf.va, self->buf.size, 0x33);
	long long before, after;

	before = vnpu_fdinfo_value(self->fd, "drm-engine-compute");
	ASSERT_GE(before, 0);
	for (int i = 0; i < 8; i++)
		ASSERT_EQ(0, vnpu_submit_wait(self->fd, self->stream, &t, 1, NULL));
	after = vnpu_fdinfo_value(self->fd, "drm-engine-compute");
	EXPECT_GT(after, before);
	EXPECT_EQ(0x33, ((unsigned char *)self->buf.cpu)[self->buf.size - 1]);
}

/*
 * The DRM usage-stats units: drm-engine-compute in " ns", and
 * drm-engine-capacity-compute a bare count equal to the engines the
 * device was loaded with (module parameter engines).
 */
TEST_F(st, fdinfo_engine_units_and_capacity)
{
	unsigned long engines;
	char unit[32];
	uint64_t n;

	ASSERT_EQ(0, vnpu_fdinfo_unit(self->fd, "drm-engine-compute", &n, unit, sizeof(unit)));
	EXPECT_STREQ("ns", unit);
	ASSERT_TRUE(vnpu_module_param("engines", &engines));
	ASSERT_EQ(0, vnpu_fdinfo_unit(self->fd, "drm-engine-capacity-compute", &n, unit,
				      sizeof(unit)));
	EXPECT_EQ(engines, n);
	EXPECT_STREQ("", unit);
	EXPECT_EQ(engines, vnpu_param(self->fd, VNPU_PARAM_NUM_ENGINES));
}

/* The per-file bound, then the slot comes back when a stream goes. */
TEST_F_TIMEOUT(st, streams_per_file_bounded, 120)
{
	unsigned long max;
	uint32_t id, last = 0;

	ASSERT_TRUE(vnpu_module_param("max_streams_per_file", &max));
	/* The fixture made one already. */
	for (unsigned long i = 1; i < max; i++) {
		int ret = vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &id);

		if (ret == -ENOSPC) {
			unsigned long dev_max;

			ASSERT_TRUE(vnpu_module_param("max_streams", &dev_max));
			ASSERT_LT(dev_max, max) TH_LOG("ENOSPC after %lu of %lu", i, max);
			SKIP(return, "the device bound (%lu) is lower", dev_max);
		}
		ASSERT_EQ(0, ret);
		last = id;
	}
	EXPECT_EQ(-ENOSPC, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &id));
	ASSERT_EQ(0, vnpu_stream_destroy(self->fd, last));
	EXPECT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &id));
	EXPECT_EQ(-ENOSPC, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &id));
}

/* The device bound holds across files; closing a file gives its streams back. */
TEST_F_TIMEOUT(st, streams_per_device_bounded, 120)
{
	unsigned long max, per_file;
	unsigned long total = 1;	/* the fixture's */
	int fds[64];
	int nfds = 0;
	uint32_t id;

	ASSERT_TRUE(vnpu_module_param("max_streams", &max));
	ASSERT_TRUE(vnpu_module_param("max_streams_per_file", &per_file));
	if (max / per_file + 2 > 64)
		SKIP(return, "needs more than 64 files to reach the device bound");
	while (total < max) {
		int fd = vnpu_open_device(0);
		unsigned long n = 0;

		ASSERT_GE(fd, 0);
		fds[nfds++] = fd;
		while (n < per_file && total < max) {
			ASSERT_EQ(0, vnpu_stream_create(fd, VNPU_PRIORITY_NORMAL, &id));
			n++;
			total++;
		}
	}
	fds[nfds] = vnpu_open_device(0);
	ASSERT_GE(fds[nfds], 0);
	EXPECT_EQ(-ENOSPC, vnpu_stream_create(fds[nfds], VNPU_PRIORITY_NORMAL, &id));
	EXPECT_EQ(-ENOSPC, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &id));
	close(fds[0]);
	EXPECT_EQ(0, vnpu_stream_create(fds[nfds], VNPU_PRIORITY_NORMAL, &id));
	for (int i = 1; i <= nfds; i++)
		close(fds[i]);
	EXPECT_EQ(1, vnpu_debugfs_streams_value(0, "streams"));
}

/* Every device has its own engines; a job runs on each. */
TEST(jobs_on_every_device)
{
	unsigned int n = vnpu_count_devices();

	ASSERT_GE(n, 1);
	for (unsigned int i = 0; i < n; i++) {
		int fd = vnpu_open_device(i);
		struct drm_vnpu_task t[2];
		struct vnpu_buf buf;
		uint32_t id;

		ASSERT_GE(fd, 0);
		ASSERT_EQ(0, vnpu_buf_create(fd, 8192, &buf));
		memset(buf.cpu, 0, 8192);
		t[0] = vnpu_task_fill(buf.va, 4096, i + 1);
		t[1] = vnpu_task_copy(buf.va + 4096, buf.va, 4096);
		ASSERT_EQ(0, vnpu_stream_create(fd, VNPU_PRIORITY_NORMAL, &id));
		ASSERT_EQ(0, vnpu_submit_wait(fd, id, t, 2, NULL));
		EXPECT_EQ(i + 1, ((unsigned char *)buf.cpu)[8191]);
		EXPECT_EQ(1, vnpu_debugfs_streams_value(i, "streams"));
		vnpu_buf_destroy(fd, &buf);
		close(fd);
		EXPECT_EQ(0, vnpu_debugfs_streams_value(i, "streams"));
	}
}

TEST_HARNESS_MAIN
