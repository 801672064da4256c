// SPDX-License-Identifier: GPL-2.0
/*
 * Cross-stream workspace hazards: two streams whose operators use the same
 * bound memory as workspace (CANN's "one allocator on concurrently running
 * streams"). The first stream's job is held back by a WAIT_VALUE while the
 * second submits:
 *  - serialize (default): the second job waits for the first, observed by
 *    its not completing while the first is held and by timestamps, and both
 *    results are right; the hazard is counted;
 *  - strict: -EBUSY while the first runs, nothing queued, the hazard
 *    counted; accepted once the first has completed;
 * plus: any operator operand in bound memory counts, not only workspace
 * (a model's intermediate tensors), reuse on one stream is never a hazard, disjoint or merely adjacent
 * workspace is none, a partial overlap is one, hazards are counted per
 * operator task and only when the task really waits, memory bound to only
 * one stream (or shared with another file through PRIME) is tracked too,
 * memory bound nowhere is not, the
 * waiting job runs when the job it waits for fails or its stream is
 * destroyed, destroying a waiting stream never blocks, records of finished
 * jobs are pruned, and two threads hammering one workspace from two
 * streams never overlap in time.
 *
 * The operators are lib/ops plans the engine server runs; their workspace
 * is their WORKSPACE operand, plan.ws_bytes long (a ReduceSumD over the
 * last axis: 4 * cols; a SoftmaxV2 and an fp16 MatMul for the hazard
 * between different operators). The gate is a word the host writes and
 * announces with SIGNAL (the device does not poll).
 */
#include <pthread.h>

#include "harness/harness.h"
#include "lib/vnpu_bo_util.h"
#include "lib/vnpu_pool_util.h"
#include "lib/vnpu_stream_util.h"
#include "lib/vnpu_test.h"

#define KiB 1024ull
#define POOL_SIZE (1u << 20)
#define DATA_SIZE (4u << 20)
/* Layout of the data buffer. */
#define IN_A 0			/* fp32 ones */
#define IN_B (1u << 20)		/* fp32 twos */
#define OUT_A (2u << 20)
#define OUT_B ((2u << 20) + 64 * KiB)
#define GATE ((3u << 20) + 0)	/* the word WAIT_VALUE watches */
#define STAMPS ((3u << 20) + 4096)

FIXTURE(hz) {
	int fd;
	uint32_t sa, sb;
	struct vnpu_buf pool, data;
};

FIXTURE_SETUP(hz)
{
	float *d;

	self->fd = vnpu_open_device(0);
	ASSERT_GE(self->fd, 0) TH_LOG("no vnpu render node");
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &self->sa));
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &self->sb));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, POOL_SIZE, &self->pool));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, DATA_SIZE, &self->data));
	d = self->data.cpu;
	for (unsigned int i = 0; i < (1u << 18); i++) {
		d[IN_A / 4 + i] = 1.0f;
		d[IN_B / 4 + i] = 2.0f;
	}
	/* One allocator serving both streams: its memory is bound to both. */
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->sa, self->pool.va, POOL_SIZE));
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->sb, self->pool.va, POOL_SIZE));
}

FIXTURE_TEARDOWN(hz)
{
	vnpu_buf_write32(self->fd, &self->data, GATE, 1);
	vnpu_buf_destroy(self->fd, &self->pool);
	vnpu_buf_destroy(self->fd, &self->data);
	close(self->fd);
}

static volatile uint32_t *gate_word(FIXTURE_DATA(hz) *self)
{
	return (volatile uint32_t *)((char *)self->data.cpu + GATE);
}

/* The host opens the gate: the store, then SIGNAL. */
static int open_gate(FIXTURE_DATA(hz) *self)
{
	return vnpu_buf_write32(self->fd, &self->data, GATE, 1);
}

static struct drm_vnpu_task hold(FIXTURE_DATA(hz) *self)
{
	return vnpu_task_wait32(self->data.va + GATE, VNPU_WAIT_EQ, 1);
}

/*
 * ReduceSumD over the last axis of 64 rows x @cols fp32 (ones for side 0,
 * twos for side 1) into that side's output, with its workspace (4 * cols
 * bytes) at @ws_off in the pool.
 */
static void reduce(FIXTURE_DATA(hz) *self, struct vnpu_op *op, int side, uint64_t cols,
		   uint64_t ws_off)
{
	if (vnpu_op_rows(op, "ReduceSumD", ACL_FLOAT, 64, cols, 0) ||
	    op->plan.ws_bytes != 4 * cols)
		abort();
	vnpu_op_set_va(op, self->data.va + (side ? IN_B : IN_A), 0,
		       self->data.va + (side ? OUT_B : OUT_A), self->pool.va + ws_off);
}

/* @op with its workspace moved to @ws. */
static void move_ws(struct vnpu_op *op, uint64_t ws)
{
	vnpu_op_ws(op)->va = ws;
	vnpu_op_encode(op);
}

/* A job: @before (if not NULL), @op, @after (if not NULL). */
static void job_of(struct vnpu_job *job, const struct drm_vnpu_task *before,
		   const struct vnpu_op *op, const struct drm_vnpu_task *after)
{
	vnpu_job_init(job);
	if (before)
		vnpu_job_add(job, *before);
	vnpu_job_add_op(job, op);
	if (after)
		vnpu_job_add(job, *after);
}

/* The job every test holds back: [wait for the gate, @op]. */
static void held(FIXTURE_DATA(hz) *self, struct vnpu_job *job, const struct vnpu_op *op)
{
	struct drm_vnpu_task h = vnpu_task_wait32(self->data.va + GATE, VNPU_WAIT_EQ, 1);

	job_of(job, &h, op, NULL);
}

static bool reduce_done(FIXTURE_DATA(hz) *self, int side, uint64_t cols)
{
	const float *out = (const float *)((char *)self->data.cpu + (side ? OUT_B : OUT_A));

	for (int i = 0; i < 64; i++)
		if (out[i] != (float)(cols * (side ? 2 : 1)))
			return false;
	return true;
}

static void clear_outputs(FIXTURE_DATA(hz) *self)
{
	memset((char *)self->data.cpu + OUT_A, 0, 256);
	memset((char *)self->data.cpu + OUT_B, 0, 256);
}

static uint64_t completed(FIXTURE_DATA(hz) *self, uint32_t stream)
{
	struct drm_vnpu_stream_query q;

	if (vnpu_stream_query(self->fd, stream, &q))
		return ~0ull;
	return q.completed_seqno;
}

static uint64_t stamp(FIXTURE_DATA(hz) *self, unsigned int i)
{
	return ((volatile uint64_t *)((char *)self->data.cpu + STAMPS))[i];
}

/* ---------------------------------------------------------------- serialize */

TEST_F(hz, serialize_waits_for_other_stream)
{
	struct drm_vnpu_task ts_a = vnpu_task_timestamp(self->data.va + STAMPS);
	struct drm_vnpu_task ts_b = vnpu_task_timestamp(self->data.va + STAMPS + 8);
	struct drm_vnpu_task h = hold(self);
	struct vnpu_op ra, rb;
	struct vnpu_job ja, jb;
	struct drm_vnpu_pool_stats s;
	uint32_t sync;

	reduce(self, &ra, 0, 1024, 0);
	reduce(self, &rb, 1, 1024, 0);
	vnpu_job_init(&ja);
	vnpu_job_add(&ja, h);
	vnpu_job_add_op(&ja, &ra);
	vnpu_job_add(&ja, ts_a);
	job_of(&jb, &ts_b, &rb, NULL);
	clear_outputs(self);
	*gate_word(self) = 0;
	ASSERT_EQ(0, vnpu_job_submit(self->fd, self->sa, &ja, NULL, 0, 0, 0, NULL));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sync));
	ASSERT_EQ(0, vnpu_job_submit(self->fd, self->sb, &jb, NULL, 0, sync, 0, NULL));

	/* sb is idle otherwise, yet its job does not run while sa's is held. */
	usleep(200 * 1000);
	EXPECT_EQ(0, completed(self, self->sb));
	EXPECT_EQ(0, stamp(self, 1));
	EXPECT_FALSE(reduce_done(self, 1, 1024));

	ASSERT_EQ(0, open_gate(self));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, sync, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(1, vnpu_syncobj_fence_status(self->fd, sync));
	ASSERT_EQ(0, vnpu_stream_wait_seqno(self->fd, self->sa, 1, VNPU_WAIT_FOREVER_NS));
	EXPECT_TRUE(reduce_done(self, 0, 1024));
	EXPECT_TRUE(reduce_done(self, 1, 1024));
	/* sb's job started after sa's ended. */
	EXPECT_NE(0, stamp(self, 0));
	EXPECT_GE(stamp(self, 1), stamp(self, 0));

	s = vnpu_pool_stats(self->fd, self->sb);
	EXPECT_EQ(1, s.hazards_serialized);
	EXPECT_EQ(0, s.hazards_rejected);
	s = vnpu_pool_stats(self->fd, self->sa);
	EXPECT_EQ(0, s.hazards_serialized);
	s = vnpu_pool_stats(self->fd, 0);
	EXPECT_EQ(1, s.hazards_serialized);
	vnpu_syncobj_destroy(self->fd, sync);
}

/*
 * Any operator's workspace operand counts, whatever the operator: a
 * SoftmaxV2 held on sa, an fp16 MatMul on sb whose workspace overlaps it.
 */
TEST_F(hz, serialize_across_operators)
{
	struct drm_vnpu_task ts_a = vnpu_task_timestamp(self->data.va + STAMPS);
	struct drm_vnpu_task ts_b = vnpu_task_timestamp(self->data.va + STAMPS + 8);
	uint16_t *h16 = (uint16_t *)((char *)self->data.cpu + IN_B + 512 * KiB);
	float *sm = (float *)((char *)self->data.cpu + OUT_A);
	uint16_t *mm = (uint16_t *)((char *)self->data.cpu + OUT_B);
	struct vnpu_op softmax, matmul;
	struct vnpu_job ja, jb;
	uint64_t seqno;

	/* softmax of 4 rows of 64 ones: every element 1/64 */
	ASSERT_EQ(0, vnpu_op_rows(&softmax, "SoftmaxV2", ACL_FLOAT, 4, 64, 0));
	ASSERT_NE(0, softmax.plan.ws_bytes);
	vnpu_op_set_va(&softmax, self->data.va + IN_A, 0, self->data.va + OUT_A, self->pool.va);
	/* fp16 ones, 8 x 32 by 32 x 8: every element 32 */
	for (unsigned int i = 0; i < 256; i++)
		h16[i] = 0x3c00;
	ASSERT_EQ(0, vnpu_op_matmul(&matmul, ACL_FLOAT16, 8, 8, 32, false, false));
	ASSERT_NE(0, matmul.plan.ws_bytes);
	vnpu_op_set_va(&matmul, self->data.va + IN_B + 512 * KiB, self->data.va + IN_B + 512 * KiB,
		       self->data.va + OUT_B, self->pool.va + softmax.plan.ws_bytes - 4);
	held(self, &ja, &softmax);
	vnpu_job_add(&ja, ts_a);
	job_of(&jb, &ts_b, &matmul, NULL);
	clear_outputs(self);
	*gate_word(self) = 0;
	ASSERT_EQ(0, vnpu_job_submit(self->fd, self->sa, &ja, NULL, 0, 0, 0, NULL));
	ASSERT_EQ(0, vnpu_job_submit(self->fd, self->sb, &jb, NULL, 0, 0, 0, &seqno));
	EXPECT_EQ(1, vnpu_pool_stats(self->fd, self->sb).hazards_serialized);
	usleep(50 * 1000);
	EXPECT_EQ(0, completed(self, self->sb));
	ASSERT_EQ(0, open_gate(self));
	ASSERT_EQ(0, vnpu_stream_wait_seqno(self->fd, self->sb, seqno, VNPU_WAIT_FOREVER_NS));
	ASSERT_EQ(0, vnpu_stream_wait_seqno(self->fd, self->sa, 1, VNPU_WAIT_FOREVER_NS));
	EXPECT_GE(stamp(self, 1), stamp(self, 0));
	/* 1/64, within the server's exp error */
	EXPECT_TRUE(sm[0] > 0.0156249f && sm[0] < 0.0156251f) TH_LOG("%g", sm[0]);
	EXPECT_TRUE(sm[255] > 0.0156249f && sm[255] < 0.0156251f) TH_LOG("%g", sm[255]);
	EXPECT_EQ(0x5000, mm[0]);	/* 32.0 in fp16 */
	EXPECT_EQ(0x5000, mm[63]);
	EXPECT_EQ(softmax.plan.ws_bytes, vnpu_pool_stats(self->fd, self->sa).ws_bytes_used);
	EXPECT_EQ(matmul.plan.ws_bytes, vnpu_pool_stats(self->fd, self->sb).ws_bytes_used);
}

/* Every operator task that collides counts; the others do not. */
TEST_F(hz, serialize_counts_per_task)
{
	static const uint64_t offs[4] = {
		0,		/* same range */
		512,		/* partial overlap: [512, 1536) vs [0, 1024) */
		1024,		/* adjacent: no overlap */
		64 * KiB,	/* elsewhere */
	};
	struct vnpu_op ra, rb;
	struct vnpu_job ja, jb;
	uint64_t seqno;

	reduce(self, &ra, 0, 256, 0);
	held(self, &ja, &ra);
	vnpu_job_init(&jb);
	for (unsigned int i = 0; i < 4; i++) {
		reduce(self, &rb, 1, 256, offs[i]);
		vnpu_job_add_op(&jb, &rb);
	}
	*gate_word(self) = 0;
	ASSERT_EQ(0, vnpu_job_submit(self->fd, self->sa, &ja, NULL, 0, 0, 0, NULL));
	ASSERT_EQ(0, vnpu_job_submit(self->fd, self->sb, &jb, NULL, 0, 0, 0, &seqno));
	EXPECT_EQ(2, vnpu_pool_stats(self->fd, self->sb).hazards_serialized);
	usleep(50 * 1000);
	EXPECT_EQ(0, completed(self, self->sb));
	ASSERT_EQ(0, open_gate(self));
	ASSERT_EQ(0, vnpu_stream_wait_seqno(self->fd, self->sb, seqno, VNPU_WAIT_FOREVER_NS));
	EXPECT_TRUE(reduce_done(self, 1, 256));
	EXPECT_EQ(4, vnpu_pool_stats(self->fd, self->sb).ws_tasks);
}

struct release_arg {
	int fd;
	struct vnpu_buf *buf;
	unsigned int after_ms;
};

/* Open the gate @after_ms from now: the store, then SIGNAL. */
static void *release_later(void *p)
{
	struct release_arg *r = p;

	usleep(r->after_ms * 1000);
	vnpu_buf_write32(r->fd, r->buf, GATE, 1);
	return NULL;
}

/*
 * hazards_serialized counts tasks that really wait. A collision found by
 * the first scan whose job has ended by the time the dependency is built
 * (the debugfs hook holds the submit between the two for 2 s, and the
 * other job is released 100 ms in) adds no dependency and is not counted.
 * With the job still held through the window, it is counted.
 */
TEST_F_TIMEOUT(hz, collision_ended_before_dependency_not_counted, 60)
{
	struct release_arg rel = { self->fd, &self->data, 100 };
	struct vnpu_op ra, rb;
	struct vnpu_job ja;
	uint64_t seqno;
	pthread_t t;

	reduce(self, &ra, 0, 256, 0);
	reduce(self, &rb, 1, 256, 0);
	held(self, &ja, &ra);
	/* Held through the window: a real wait, counted. */
	*gate_word(self) = 0;
	ASSERT_EQ(0, vnpu_job_submit(self->fd, self->sa, &ja, NULL, 0, 0, 0, NULL));
	ASSERT_EQ(0, vnpu_debugfs_write(0, "hazard_rescan_delay_ms", "200"));
	ASSERT_EQ(0, vnpu_op_submit(self->fd, self->sb, &rb, 0, &seqno));
	EXPECT_EQ(1, vnpu_pool_stats(self->fd, self->sb).hazards_serialized);
	ASSERT_EQ(0, open_gate(self));
	ASSERT_EQ(0, vnpu_stream_wait_seqno(self->fd, self->sb, seqno, VNPU_WAIT_FOREVER_NS));

	/* Released inside the window: nothing to wait for, not counted. */
	clear_outputs(self);
	*gate_word(self) = 0;
	ASSERT_EQ(0, vnpu_job_submit(self->fd, self->sa, &ja, NULL, 0, 0, 0, NULL));
	ASSERT_EQ(0, vnpu_debugfs_write(0, "hazard_rescan_delay_ms", "2000"));
	ASSERT_EQ(0, pthread_create(&t, NULL, release_later, &rel));
	ASSERT_EQ(0, vnpu_op_submit(self->fd, self->sb, &rb, 0, &seqno));
	pthread_join(t, NULL);
	ASSERT_EQ(0, vnpu_stream_wait_seqno(self->fd, self->sb, seqno, VNPU_WAIT_FOREVER_NS));
	EXPECT_TRUE(reduce_done(self, 0, 256));
	EXPECT_TRUE(reduce_done(self, 1, 256));
	EXPECT_EQ(1, vnpu_pool_stats(self->fd, self->sb).hazards_serialized);
	EXPECT_EQ(1, vnpu_pool_stats(self->fd, 0).hazards_serialized);
}

/* Workspace next to, not over, a running job's is no hazard. */
TEST_F(hz, disjoint_workspace_is_no_hazard)
{
	struct vnpu_op ra, below, above;
	struct vnpu_job ja;

	reduce(self, &ra, 0, 256, 4096);
	reduce(self, &below, 1, 1024, 0);	/* [0, 4096) */
	reduce(self, &above, 1, 256, 5120);
	held(self, &ja, &ra);
	*gate_word(self) = 0;
	ASSERT_EQ(0, vnpu_job_submit(self->fd, self->sa, &ja, NULL, 0, 0, 0, NULL));
	/* They run at once, while sa's job is held. */
	EXPECT_EQ(0, vnpu_op_submit_wait(self->fd, self->sb, &below, NULL));
	EXPECT_EQ(0, vnpu_op_submit_wait(self->fd, self->sb, &above, NULL));
	EXPECT_EQ(0, completed(self, self->sa));
	EXPECT_EQ(0, vnpu_pool_stats(self->fd, self->sb).hazards_serialized);
	ASSERT_EQ(0, open_gate(self));
}

/* ---------------------------------------------------------------- strict */

TEST_F(hz, strict_rejects_while_other_runs)
{
	struct vnpu_op ra, fine, overlaps;
	struct vnpu_job ja, jb;
	struct drm_vnpu_stream_query q;
	struct drm_vnpu_pool_stats s;

	reduce(self, &ra, 0, 1024, 0);
	reduce(self, &fine, 1, 1024, 64 * KiB);
	reduce(self, &overlaps, 1, 1024, 2048);		/* overlaps [0, 4096) */
	held(self, &ja, &ra);
	vnpu_job_init(&jb);
	vnpu_job_add_op(&jb, &fine);
	vnpu_job_add_op(&jb, &overlaps);
	ASSERT_EQ(0, vnpu_stream_set_param(self->fd, self->sb, VNPU_STREAM_PARAM_HAZARD_POLICY,
					   VNPU_HAZARD_STRICT));
	clear_outputs(self);
	*gate_word(self) = 0;
	ASSERT_EQ(0, vnpu_job_submit(self->fd, self->sa, &ja, NULL, 0, 0, 0, NULL));
	EXPECT_EQ(-EBUSY, vnpu_job_submit(self->fd, self->sb, &jb, NULL, 0, 0, 0, NULL));
	EXPECT_EQ(-EBUSY, vnpu_op_submit(self->fd, self->sb, &overlaps, 0, NULL));
	/* Nothing was queued or counted as used. */
	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->sb, &q));
	EXPECT_EQ(0, q.submitted_seqno);
	EXPECT_EQ(VNPU_STREAM_ERROR_NONE, q.error);
	s = vnpu_pool_stats(self->fd, self->sb);
	EXPECT_EQ(2, s.hazards_rejected);
	EXPECT_EQ(0, s.hazards_serialized);
	EXPECT_EQ(0, s.ws_tasks);
	EXPECT_EQ(2, vnpu_pool_stats(self->fd, 0).hazards_rejected);
	/* The task that does not collide is accepted alone, and runs at once. */
	EXPECT_EQ(0, vnpu_op_submit_wait(self->fd, self->sb, &fine, NULL));
	EXPECT_TRUE(reduce_done(self, 1, 1024));

	/* Once sa's job is done, the range is free. */
	ASSERT_EQ(0, open_gate(self));
	ASSERT_EQ(0, vnpu_stream_wait_seqno(self->fd, self->sa, 1, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(0, vnpu_job_submit_wait(self->fd, self->sb, &jb, NULL));
	s = vnpu_pool_stats(self->fd, self->sb);
	EXPECT_EQ(2, s.hazards_rejected);
	EXPECT_EQ(3, s.ws_tasks);
}

/* The policy is the submitting stream's: a serializing stream waits for a strict one. */
TEST_F(hz, policy_belongs_to_the_submitter)
{
	struct vnpu_op ra, rb;
	struct vnpu_job ja;
	uint64_t seqno;

	reduce(self, &ra, 0, 256, 0);
	reduce(self, &rb, 1, 256, 0);
	held(self, &ja, &ra);
	ASSERT_EQ(0, vnpu_stream_set_param(self->fd, self->sa, VNPU_STREAM_PARAM_HAZARD_POLICY,
					   VNPU_HAZARD_STRICT));
	*gate_word(self) = 0;
	ASSERT_EQ(0, vnpu_job_submit(self->fd, self->sa, &ja, NULL, 0, 0, 0, NULL));
	EXPECT_EQ(0, vnpu_op_submit(self->fd, self->sb, &rb, 0, &seqno));
	EXPECT_EQ(1, vnpu_pool_stats(self->fd, self->sb).hazards_serialized);
	/* And sa, strict, now meets sb's queued job. */
	EXPECT_EQ(-EBUSY, vnpu_op_submit(self->fd, self->sa, &ra, 0, NULL));
	EXPECT_EQ(1, vnpu_pool_stats(self->fd, self->sa).hazards_rejected);
	ASSERT_EQ(0, open_gate(self));
	ASSERT_EQ(0, vnpu_stream_wait_seqno(self->fd, self->sb, seqno, VNPU_WAIT_FOREVER_NS));
}

/* ---------------------------------------------------------------- same stream */

TEST_F(hz, same_stream_reuse_is_no_hazard)
{
	struct vnpu_op again;
	struct vnpu_job ja, many;
	uint64_t seqno;

	reduce(self, &again, 0, 1024, 0);
	held(self, &ja, &again);
	ASSERT_EQ(0, vnpu_stream_set_param(self->fd, self->sa, VNPU_STREAM_PARAM_HAZARD_POLICY,
					   VNPU_HAZARD_STRICT));
	*gate_word(self) = 0;
	ASSERT_EQ(0, vnpu_job_submit(self->fd, self->sa, &ja, NULL, 0, 0, 0, NULL));
	/* Even strict: the stream's own jobs run in order. */
	for (int i = 0; i < 5; i++)
		ASSERT_EQ(0, vnpu_op_submit(self->fd, self->sa, &again, 0, &seqno));
	ASSERT_EQ(0, open_gate(self));
	ASSERT_EQ(0, vnpu_stream_wait_seqno(self->fd, self->sa, seqno, VNPU_WAIT_FOREVER_NS));
	EXPECT_TRUE(reduce_done(self, 0, 1024));
	EXPECT_EQ(0, vnpu_pool_stats(self->fd, self->sa).hazards_serialized);
	EXPECT_EQ(0, vnpu_pool_stats(self->fd, self->sa).hazards_rejected);
	EXPECT_EQ(6, vnpu_pool_stats(self->fd, self->sa).ws_tasks);
	/* Several operators of one job sharing a workspace are fine too. */
	vnpu_job_init(&many);
	for (int i = 0; i < 3; i++)
		vnpu_job_add_op(&many, &again);
	EXPECT_EQ(0, vnpu_job_submit_wait(self->fd, self->sa, &many, NULL));
	EXPECT_EQ(0, vnpu_pool_stats(self->fd, 0).hazards_serialized +
		     vnpu_pool_stats(self->fd, 0).hazards_rejected);
}

/*
 * A stream reusing one workspace job after job leaves one record (the
 * newest use stands for the older ones of its stream), and another stream
 * waiting on it waits for all of them.
 */
TEST_F(hz, queue_on_one_workspace_keeps_one_record)
{
	struct drm_vnpu_task ts_a = vnpu_task_timestamp(self->data.va + STAMPS);
	struct drm_vnpu_task ts_b = vnpu_task_timestamp(self->data.va + STAMPS + 8);
	struct vnpu_op ra, rb;
	struct vnpu_job first, again, jb;
	uint64_t seqno;

	reduce(self, &ra, 0, 256, 0);
	reduce(self, &rb, 1, 256, 0);
	held(self, &first, &ra);
	job_of(&again, NULL, &ra, &ts_a);
	job_of(&jb, &ts_b, &rb, NULL);
	*gate_word(self) = 0;
	ASSERT_EQ(0, vnpu_job_submit(self->fd, self->sa, &first, NULL, 0, 0, 0, NULL));
	for (int i = 0; i < 64; i++)
		ASSERT_EQ(0, vnpu_job_submit(self->fd, self->sa, &again, NULL, 0, 0, 0, NULL));
	EXPECT_EQ(1, vnpu_debugfs_value(0, "pools", "hazard_records"));
	ASSERT_EQ(0, vnpu_job_submit(self->fd, self->sb, &jb, NULL, 0, 0, 0, &seqno));
	EXPECT_EQ(1, vnpu_pool_stats(self->fd, self->sb).hazards_serialized);
	EXPECT_EQ(2, vnpu_debugfs_value(0, "pools", "hazard_records"));
	ASSERT_EQ(0, open_gate(self));
	ASSERT_EQ(0, vnpu_stream_wait_seqno(self->fd, self->sb, seqno, VNPU_WAIT_FOREVER_NS));
	ASSERT_EQ(0, vnpu_stream_wait_seqno(self->fd, self->sa, 65, VNPU_WAIT_FOREVER_NS));
	/* sb started after sa's last job ended. */
	EXPECT_NE(0, stamp(self, 0));
	EXPECT_GE(stamp(self, 1), stamp(self, 0));
	EXPECT_TRUE(reduce_done(self, 1, 256));
}

/* A finished job is no hazard: nothing to wait for. */
TEST_F(hz, finished_job_is_no_hazard)
{
	struct vnpu_op ra, rb;

	reduce(self, &ra, 0, 1024, 0);
	reduce(self, &rb, 1, 1024, 0);
	ASSERT_EQ(0, vnpu_stream_set_param(self->fd, self->sb, VNPU_STREAM_PARAM_HAZARD_POLICY,
					   VNPU_HAZARD_STRICT));
	ASSERT_EQ(0, vnpu_op_submit_wait(self->fd, self->sa, &ra, NULL));
	EXPECT_EQ(0, vnpu_op_submit_wait(self->fd, self->sb, &rb, NULL));
	EXPECT_EQ(0, vnpu_op_submit_wait(self->fd, self->sa, &ra, NULL));
	EXPECT_EQ(0, vnpu_pool_stats(self->fd, 0).hazards_rejected);
}

/* ---------------------------------------------------------------- what is tracked */

/* Memory bound to one stream is tracked for every stream that uses it. */
TEST_F(hz, bound_to_one_stream_only)
{
	struct vnpu_op ra, rc;
	struct vnpu_job ja;
	struct vnpu_buf q;
	uint32_t sc;
	uint64_t seqno;

	ASSERT_EQ(0, vnpu_buf_create(self->fd, 64 * KiB, &q));
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &sc));
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->sa, q.va, 64 * KiB));
	reduce(self, &ra, 0, 256, 0);
	reduce(self, &rc, 1, 256, 0);
	move_ws(&ra, q.va);
	move_ws(&rc, q.va + 512);	/* sc has no pool: an ordinary address */
	held(self, &ja, &ra);
	*gate_word(self) = 0;
	ASSERT_EQ(0, vnpu_job_submit(self->fd, self->sa, &ja, NULL, 0, 0, 0, NULL));
	ASSERT_EQ(0, vnpu_op_submit(self->fd, sc, &rc, 0, &seqno));
	EXPECT_EQ(1, vnpu_pool_stats(self->fd, sc).hazards_serialized);
	usleep(50 * 1000);
	EXPECT_EQ(0, completed(self, sc));
	ASSERT_EQ(0, open_gate(self));
	ASSERT_EQ(0, vnpu_stream_wait_seqno(self->fd, sc, seqno, VNPU_WAIT_FOREVER_NS));
	EXPECT_TRUE(reduce_done(self, 1, 256));
	vnpu_buf_destroy(self->fd, &q);
}

/* Memory bound to no stream is not tracked: the runtime did not pool it. */
TEST_F(hz, unbound_memory_is_not_tracked)
{
	struct vnpu_op ra, rc;
	struct vnpu_job ja;
	struct vnpu_buf q;
	uint32_t sc;

	ASSERT_EQ(0, vnpu_buf_create(self->fd, 64 * KiB, &q));
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &sc));
	reduce(self, &ra, 0, 256, 0);
	reduce(self, &rc, 1, 256, 0);
	move_ws(&ra, q.va);
	move_ws(&rc, q.va);
	held(self, &ja, &ra);
	*gate_word(self) = 0;
	ASSERT_EQ(0, vnpu_job_submit(self->fd, self->sa, &ja, NULL, 0, 0, 0, NULL));
	EXPECT_EQ(0, vnpu_op_submit_wait(self->fd, sc, &rc, NULL));
	EXPECT_EQ(0, vnpu_pool_stats(self->fd, sc).hazards_serialized);
	ASSERT_EQ(0, open_gate(self));
	vnpu_buf_destroy(self->fd, &q);
}

/*
 * Not only workspace: any operator operand in bound memory is tracked. A
 * model's intermediate tensors from an allocator are one operator's output
 * and the next one's input. sa's held ReduceSumD writes its output into the
 * pool; sb's reads its input from there (its workspace elsewhere): sb waits.
 */
TEST_F(hz, input_and_output_operands_are_tracked)
{
	const uint64_t x = 512 * KiB, ws_b = 256 * KiB;
	struct drm_vnpu_pool_stats s;
	struct vnpu_op ra, rb;
	struct vnpu_job ja;
	uint32_t sync;

	reduce(self, &ra, 0, 16, 0);
	reduce(self, &rb, 1, 16, 0);
	vnpu_op_set_va(&ra, self->data.va + IN_A, 0, self->pool.va + x, self->pool.va);
	vnpu_op_set_va(&rb, self->pool.va + x, 0, self->data.va + OUT_B, self->pool.va + ws_b);
	held(self, &ja, &ra);
	*gate_word(self) = 0;
	ASSERT_EQ(0, vnpu_job_submit(self->fd, self->sa, &ja, NULL, 0, 0, 0, NULL));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sync));
	ASSERT_EQ(0, vnpu_op_submit(self->fd, self->sb, &rb, sync, NULL));
	usleep(200 * 1000);
	EXPECT_EQ(0, completed(self, self->sb));
	s = vnpu_pool_stats(self->fd, self->sb);
	EXPECT_EQ(1, s.hazards_serialized);
	ASSERT_EQ(0, open_gate(self));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, sync, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(1, vnpu_syncobj_fence_status(self->fd, sync));
	vnpu_syncobj_destroy(self->fd, sync);
}

/* A buffer shared with another file through PRIME: the records are the buffer's. */
TEST_F(hz, shared_buffer_across_files)
{
	int fd2 = vnpu_open_device(0), dmabuf;
	struct drm_vnpu_stream_query q;
	struct drm_vnpu_bo_info info;
	struct vnpu_op ra, r2;
	struct vnpu_job ja;
	struct vnpu_buf d2;
	uint32_t s2, h2;
	uint64_t seqno;

	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, vnpu_prime_export(self->fd, self->pool.handle, &dmabuf));
	ASSERT_EQ(0, vnpu_prime_import(fd2, dmabuf, &h2));
	close(dmabuf);
	ASSERT_EQ(0, vnpu_bo_info(fd2, h2, &info));
	ASSERT_EQ(0, vnpu_stream_create(fd2, VNPU_PRIORITY_NORMAL, &s2));
	ASSERT_EQ(0, vnpu_pool_bind(fd2, s2, info.va, POOL_SIZE));
	ASSERT_EQ(0, vnpu_buf_create(fd2, 64 * KiB, &d2));
	for (int i = 0; i < 4096; i++)
		((float *)d2.cpu)[i] = 3.0f;

	reduce(self, &ra, 0, 256, 8192);
	held(self, &ja, &ra);
	/* 4 x 256 fp32 in the other file; its 1 KiB of workspace overlaps sa's [8192, +1K) */
	ASSERT_EQ(0, vnpu_op_rows(&r2, "ReduceSumD", ACL_FLOAT, 4, 256, 0));
	ASSERT_EQ(1024, r2.plan.ws_bytes);
	vnpu_op_set_va(&r2, d2.va, 0, d2.va + 32 * KiB, info.va + 8192 + 100 * 4);

	*gate_word(self) = 0;
	ASSERT_EQ(0, vnpu_job_submit(self->fd, self->sa, &ja, NULL, 0, 0, 0, NULL));
	ASSERT_EQ(0, vnpu_op_submit(fd2, s2, &r2, 0, &seqno));
	EXPECT_EQ(1, vnpu_pool_stats(fd2, s2).hazards_serialized);
	EXPECT_EQ(1, vnpu_pool_stats(fd2, 0).hazards_serialized);
	EXPECT_EQ(0, vnpu_pool_stats(self->fd, 0).hazards_serialized);
	usleep(50 * 1000);
	ASSERT_EQ(0, vnpu_stream_query(fd2, s2, &q));
	EXPECT_EQ(0, q.completed_seqno);
	ASSERT_EQ(0, open_gate(self));
	ASSERT_EQ(0, vnpu_stream_wait_seqno(fd2, s2, seqno, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(768.0f, ((float *)((char *)d2.cpu + 32 * KiB))[3]);
	vnpu_buf_destroy(fd2, &d2);
	close(fd2);
}

/* ---------------------------------------------------------------- failure and teardown */

/* The job waited for fails: the waiting job still runs, correctly. */
TEST_F(hz, waiter_runs_when_first_job_fails)
{
	struct vnpu_op ra, rb;
	struct vnpu_job ja;
	uint32_t sync;

	reduce(self, &ra, 0, 1024, 0);
	reduce(self, &rb, 1, 1024, 0);
	held(self, &ja, &ra);
	clear_outputs(self);
	*gate_word(self) = 0;
	ASSERT_EQ(0, vnpu_job_submit(self->fd, self->sa, &ja, NULL, 0, 0, 0, NULL));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sync));
	ASSERT_EQ(0, vnpu_op_submit(self->fd, self->sb, &rb, sync, NULL));
	/* Destroying sa cancels its held job. */
	ASSERT_EQ(0, vnpu_stream_destroy(self->fd, self->sa));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, sync, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(1, vnpu_syncobj_fence_status(self->fd, sync));
	EXPECT_TRUE(reduce_done(self, 1, 1024));
	EXPECT_FALSE(reduce_done(self, 0, 1024));
	vnpu_syncobj_destroy(self->fd, sync);
}

/* Destroying a stream whose job waits on another stream's never blocks. */
TEST_F(hz, destroy_waiting_stream_does_not_block)
{
	struct vnpu_op ra, rb;
	struct vnpu_job ja;
	uint32_t sync;
	uint64_t t0;
	int status;

	reduce(self, &ra, 0, 1024, 0);
	reduce(self, &rb, 1, 1024, 0);
	held(self, &ja, &ra);
	*gate_word(self) = 0;
	ASSERT_EQ(0, vnpu_job_submit(self->fd, self->sa, &ja, NULL, 0, 0, 0, NULL));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sync));
	ASSERT_EQ(0, vnpu_op_submit(self->fd, self->sb, &rb, sync, NULL));
	t0 = vnpu_now_ns();
	ASSERT_EQ(0, vnpu_stream_destroy(self->fd, self->sb));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, sync, VNPU_WAIT_FOREVER_NS));
	EXPECT_LT(vnpu_now_ns() - t0, 2000000000ull);
	status = vnpu_syncobj_fence_status(self->fd, sync);
	EXPECT_TRUE(vnpu_status_cancelled(status)) TH_LOG("status %d", status);
	/* sa is still held and goes on when released. */
	EXPECT_EQ(0, completed(self, self->sa));
	ASSERT_EQ(0, open_gate(self));
	ASSERT_EQ(0, vnpu_stream_wait_seqno(self->fd, self->sa, 1, VNPU_WAIT_FOREVER_NS));
	EXPECT_TRUE(reduce_done(self, 0, 1024));
	vnpu_syncobj_destroy(self->fd, sync);
}

/* Closing the file with jobs waiting on each other frees everything. */
TEST_F(hz, close_with_waiting_jobs)
{
	int fd = vnpu_open_device(0);
	struct drm_vnpu_task w;
	struct vnpu_op r;
	struct vnpu_job ja;
	uint32_t a, b, hp, hd;
	uint64_t pva, dva;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, vnpu_stream_create(fd, VNPU_PRIORITY_NORMAL, &a));
	ASSERT_EQ(0, vnpu_stream_create(fd, VNPU_PRIORITY_NORMAL, &b));
	ASSERT_EQ(0, vnpu_bo_create(fd, 64 * KiB, 0, &hp, &pva));
	ASSERT_EQ(0, vnpu_bo_create(fd, 64 * KiB, 0, &hd, &dva));
	ASSERT_EQ(0, vnpu_pool_bind(fd, a, pva, 64 * KiB));
	ASSERT_EQ(0, vnpu_pool_bind(fd, b, pva, 64 * KiB));
	w = vnpu_task_wait32(dva, VNPU_WAIT_EQ, 1);
	ASSERT_EQ(0, vnpu_op_rows(&r, "ReduceSumD", ACL_FLOAT, 4, 16, 0));
	vnpu_op_set_va(&r, dva + 4096, 0, dva + 8192, pva);
	job_of(&ja, &w, &r, NULL);

	ASSERT_EQ(0, vnpu_job_submit(fd, a, &ja, NULL, 0, 0, 0, NULL));
	ASSERT_EQ(0, vnpu_op_submit(fd, b, &r, 0, NULL));
	ASSERT_EQ(0, vnpu_op_submit(fd, b, &r, 0, NULL));
	close(fd);
	EXPECT_EQ(0, vnpu_wait_no_jobs(0, VNPU_WAIT_FOREVER_NS));
}

/* ---------------------------------------------------------------- pruning */

/*
 * Records of finished jobs do not pile up: after many jobs at different
 * workspace offsets, only a handful remain, and none once the memory is
 * freed.
 */
TEST_F_TIMEOUT(hz, records_are_pruned, 120)
{
	long long records;

	for (unsigned int i = 0; i < 300; i++) {
		struct vnpu_op t;

		reduce(self, &t, i & 1, 16, 256 * i);
		ASSERT_EQ(0, vnpu_op_submit_wait(self->fd, (i & 1) ? self->sb : self->sa, &t, NULL));
	}
	records = vnpu_debugfs_value(0, "pools", "hazard_records");
	EXPECT_GE(records, 1);
	EXPECT_LE(records, 4);
	EXPECT_EQ(0, vnpu_pool_stats(self->fd, 0).hazards_serialized);

	/* The buffer goes with its records. */
	ASSERT_EQ(0, vnpu_stream_destroy(self->fd, self->sa));
	ASSERT_EQ(0, vnpu_stream_destroy(self->fd, self->sb));
	vnpu_buf_destroy(self->fd, &self->pool);
	EXPECT_EQ(0, vnpu_wait_no_jobs(0, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(0, vnpu_debugfs_value(0, "pools", "hazard_records"));
}

/* ---------------------------------------------------------------- concurrency */

#define ROUNDS 24

struct hammer {
	FIXTURE_DATA(hz) *self;
	uint32_t stream;
	int side;
	int err;
};

/* Job r of a side: stamp, reduce with workspace at pool offset 0, stamp. */
static void *hammer_thread(void *arg)
{
	struct hammer *h = arg;
	FIXTURE_DATA(hz) *self = h->self;
	struct vnpu_job *job = malloc(sizeof(*job));
	struct vnpu_op *op = malloc(sizeof(*op));
	uint64_t seqno = 0;

	if (!job || !op) {
		h->err = -ENOMEM;
		goto out;
	}
	reduce(self, op, h->side, 512, 0);
	for (unsigned int r = 0; r < ROUNDS; r++) {
		uint64_t slot = self->data.va + STAMPS + (h->side * ROUNDS + r) * 16;
		struct drm_vnpu_task t0 = vnpu_task_timestamp(slot);
		struct drm_vnpu_task t1 = vnpu_task_timestamp(slot + 8);
		int ret;

		job_of(job, &t0, op, &t1);
		ret = vnpu_job_submit(self->fd, h->stream, job, NULL, 0, 0, 0, &seqno);
		if (ret) {
			h->err = ret;
			goto out;
		}
	}
	h->err = vnpu_stream_wait_seqno(self->fd, h->stream, seqno, VNPU_WAIT_FOREVER_NS);
out:
	free(job);
	free(op);
	return NULL;
}

TEST_F_TIMEOUT(hz, two_threads_never_overlap, 120)
{
	struct hammer ha = { self, self->sa, 0, 0 }, hb = { self, self->sb, 1, 0 };
	const volatile uint64_t *st = (const volatile uint64_t *)((char *)self->data.cpu + STAMPS);
	struct drm_vnpu_pool_stats a, b, tot;
	pthread_t ta, tb;
	unsigned int overlaps = 0;

	memset((char *)self->data.cpu + STAMPS, 0, 2 * ROUNDS * 16);
	ASSERT_EQ(0, pthread_create(&ta, NULL, hammer_thread, &ha));
	ASSERT_EQ(0, pthread_create(&tb, NULL, hammer_thread, &hb));
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	ASSERT_EQ(0, ha.err);
	ASSERT_EQ(0, hb.err);
	EXPECT_TRUE(reduce_done(self, 0, 512));
	EXPECT_TRUE(reduce_done(self, 1, 512));

	for (unsigned int i = 0; i < ROUNDS; i++) {
		for (unsigned int j = 0; j < ROUNDS; j++) {
			uint64_t a0 = st[2 * i], a1 = st[2 * i + 1];
			uint64_t b0 = st[2 * (ROUNDS + j)], b1 = st[2 * (ROUNDS + j) + 1];

			if (!(a1 <= b0 || b1 <= a0))
				overlaps++;
		}
	}
	EXPECT_EQ(0, overlaps);
	a = vnpu_pool_stats(self->fd, self->sa);
	b = vnpu_pool_stats(self->fd, self->sb);
	tot = vnpu_pool_stats(self->fd, 0);
	EXPECT_EQ(a.hazards_serialized + b.hazards_serialized, tot.hazards_serialized);
	EXPECT_EQ(2 * ROUNDS, tot.ws_tasks);
	TH_LOG("hazards serialized: %llu + %llu",
	       (unsigned long long)a.hazards_serialized, (unsigned long long)b.hazards_serialized);
}

TEST_HARNESS_MAIN
