// SPDX-License-Identifier: GPL-2.0
/*
 * Operator tasks (VNPU_TASK_OP) that are wrong, in two parts.
 *
 * What the kernel checks, one test per bad field with its exact errno and
 * the check order of uapi/vnpu_drm.h (struct drm_vnpu_task_op): the
 * operand counts of every operator task first (one task's, all tasks'
 * together), then per task its flags and the union's bytes beyond the
 * operator, the descriptor's placement (size 0 or above
 * VNPU_MAX_OP_DESC_SIZE, offset not a multiple of 8 or outside the data
 * area), the operand list's placement, each operand's access, pad and size,
 * then each operand's range in order (-ENXIO, -EOVERFLOW, and -EACCES for
 * workspace outside the pools of a stream that requires them); the SUBMIT
 * data area itself (too large, no pointer, unreadable) and the GET_PARAM
 * bounds. The fixture's teardown checks that none of the failed submits
 * queued anything or counted workspace. The valid edges (largest
 * descriptor, most operands, a maximal data area, a buffer's last bytes)
 * must be accepted.
 *
 * What only the engine server can see, through the real server: a
 * descriptor whose shapes exceed its operands, a garbage, truncated or
 * overlong descriptor, operands of the wrong access, count or alignment.
 * Each faults its own task alone (VNPU_STREAM_ERROR_FAULT at that task,
 * fence -EIO, the tasks before it done, the ones after it not), writes
 * nothing (a guard pattern around and in the operands is intact), and
 * leaves the server attached and the device working for other streams and
 * files.
 */
#include <sys/mman.h>

#include "harness/harness.h"
#include "lib/vnpu_bo_util.h"
#include "lib/vnpu_pool_util.h"
#include "lib/vnpu_stream_util.h"
#include "lib/vnpu_test.h"

#define BUF_SIZE (64 << 10)
#define N 16
#define IN0 0
#define IN1 4096
#define OUT 8192
#define WS 12288
#define MARK 16384

FIXTURE(op) {
	int fd;
	uint32_t stream, ok_stream;
	struct vnpu_buf buf;
	uint64_t va;
};

FIXTURE_SETUP(op)
{
	self->fd = vnpu_open_device(0);
	ASSERT_GE(self->fd, 0) TH_LOG("no vnpu render node");
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &self->stream));
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &self->ok_stream));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, BUF_SIZE, &self->buf));
	self->va = self->buf.va;
	memset(self->buf.cpu, 0, BUF_SIZE);
}

FIXTURE_TEARDOWN(op)
{
	struct drm_vnpu_pool_stats s;
	struct drm_vnpu_stream_query q;

	/* The failed submits queued nothing and counted no workspace. */
	if (!vnpu_stream_query(self->fd, self->stream, &q)) {
		EXPECT_EQ(0, q.submitted_seqno);
		EXPECT_EQ(VNPU_STREAM_ERROR_NONE, q.error);
		s = vnpu_pool_stats(self->fd, self->stream);
		EXPECT_EQ(0, s.ws_tasks);
		EXPECT_EQ(0, s.ws_bytes_used);
	}
	/* ...and ran nothing. */
	EXPECT_EQ(0, *(uint32_t *)((char *)self->buf.cpu + MARK));
	vnpu_buf_destroy(self->fd, &self->buf);
	close(self->fd);
}

/* @op's task and data area on the stream that must take nothing. */
static int submit(FIXTURE_DATA(op) *self, const struct vnpu_op *op)
{
	return vnpu_submit_data(self->fd, self->stream, &op->task, 1, op->data, op->data_size, NULL,
				0, 0, 0, NULL);
}

/* A valid submit, on the other stream, waited for. */
static int submit_ok(FIXTURE_DATA(op) *self, const struct vnpu_op *op)
{
	return vnpu_op_submit_wait(self->fd, self->ok_stream, op, NULL);
}

/* A valid Add of N fp32 values: in0 at IN0, in1 at IN1, out at OUT. */
static void add(FIXTURE_DATA(op) *self, struct vnpu_op *op)
{
	if (vnpu_op_eltwise(op, "Add", ACL_FLOAT, N, N))
		abort();
	vnpu_op_set_va(op, self->va + IN0, self->va + IN1, self->va + OUT, 0);
}

/* A valid ReduceSumD of 2 x N fp32 over its last axis, its workspace at WS. */
static void reduce(FIXTURE_DATA(op) *self, struct vnpu_op *op)
{
	if (vnpu_op_rows(op, "ReduceSumD", ACL_FLOAT, 2, N, 0) || !op->plan.ws_bytes)
		abort();
	vnpu_op_set_va(op, self->va + IN0, 0, self->va + OUT, self->va + WS);
}

/* A valid fp16 MatMul 4x4x4 with transposed x1 and its workspace at WS. */
static void matmul(FIXTURE_DATA(op) *self, struct vnpu_op *op)
{
	if (vnpu_op_matmul(op, ACL_FLOAT16, 4, 4, 4, true, false) || !op->plan.ws_bytes)
		abort();
	vnpu_op_set_va(op, self->va + IN0, self->va + IN1, self->va + OUT, self->va + WS);
}

TEST_F(op, valid_baselines_run)
{
	float *f = self->buf.cpu;
	struct vnpu_op o;

	for (int i = 0; i < N; i++) {
		f[IN0 / 4 + i] = 1.0f + i;
		f[IN1 / 4 + i] = 2.0f;
	}
	add(self, &o);
	EXPECT_EQ(3, o.noperands);
	EXPECT_EQ(0, submit_ok(self, &o));
	EXPECT_EQ(3.0f, f[OUT / 4]);
	EXPECT_EQ(18.0f, f[OUT / 4 + N - 1]);
	reduce(self, &o);
	EXPECT_EQ(VNPU_OPERAND_WORKSPACE, o.operands[2].access);
	EXPECT_EQ(0, submit_ok(self, &o));
	EXPECT_EQ(N * (N + 1) / 2, f[OUT / 4]);
	matmul(self, &o);
	EXPECT_EQ(0, submit_ok(self, &o));
}

/* ---------------------------------------------------------------- task fields */

TEST_F(op, task_flags)
{
	struct vnpu_op o;

	add(self, &o);
	o.task.flags = VNPU_TASK_VALUE_64;
	EXPECT_EQ(-EINVAL, submit(self, &o));
	o.task.flags = 1u << 31;
	EXPECT_EQ(-EINVAL, submit(self, &o));
}

/*
 * The task union is larger than struct drm_vnpu_task_op: the bytes beyond
 * it must be zero, as for every other task kind (submit_bad_input.c).
 */
TEST_F(op, op_nonzero_tail)
{
	struct vnpu_op o;
	unsigned int first = sizeof(o.task.op) / sizeof(o.task.raw[0]);

	add(self, &o);
	ASSERT_LT(first, sizeof(o.task.raw) / sizeof(o.task.raw[0]));
	for (unsigned int i = first; i < sizeof(o.task.raw) / sizeof(o.task.raw[0]); i++) {
		struct drm_vnpu_task clean = o.task;

		o.task.raw[i] = 1;
		EXPECT_EQ(-EINVAL, submit(self, &o)) TH_LOG("raw[%u]", i);
		o.task.raw[i] = 1ull << 63;
		EXPECT_EQ(-EINVAL, submit(self, &o)) TH_LOG("raw[%u]", i);
		o.task = clean;
	}
	/* The same task with a clean tail is valid. */
	EXPECT_EQ(0, submit_ok(self, &o));
}

/* ---------------------------------------------------------------- descriptor placement */

TEST_F(op, desc_size_zero)
{
	struct vnpu_op o;

	add(self, &o);
	o.task.op.desc_size = 0;
	EXPECT_EQ(-EINVAL, submit(self, &o));
}

/*
 * A data area with room for a descriptor of VNPU_MAX_OP_DESC_SIZE + 8
 * bytes at 0 and @o's operand list after it.
 */
static unsigned char *big_desc_area(const struct vnpu_op *o, uint32_t *size, uint32_t *list)
{
	unsigned char *d;

	*list = VNPU_MAX_OP_DESC_SIZE + 8;
	*size = *list + o->noperands * sizeof(struct drm_vnpu_operand);
	d = calloc(1, *size);
	if (d) {
		memcpy(d, o->data, o->plan.desc_size);
		memcpy(d + *list, o->operands, o->noperands * sizeof(struct drm_vnpu_operand));
	}
	return d;
}

TEST_F(op, desc_size_above_max)
{
	struct drm_vnpu_task t;
	struct vnpu_op o;
	uint32_t size, list;
	unsigned char *d;

	add(self, &o);
	d = big_desc_area(&o, &size, &list);
	ASSERT_NONNULL(d);
	t = o.task;
	t.op.operand_offset = list;
	t.op.desc_size = VNPU_MAX_OP_DESC_SIZE + 1;
	EXPECT_EQ(-EINVAL, vnpu_submit_data(self->fd, self->stream, &t, 1, d, size, NULL, 0, 0, 0,
					    NULL));
	t.op.desc_size = VNPU_MAX_OP_DESC_SIZE + 8;
	EXPECT_EQ(-EINVAL, vnpu_submit_data(self->fd, self->stream, &t, 1, d, size, NULL, 0, 0, 0,
					    NULL));
	t.op.desc_size = 0xffffffff;
	EXPECT_EQ(-EINVAL, vnpu_submit_data(self->fd, self->stream, &t, 1, d, size, NULL, 0, 0, 0,
					    NULL));
	free(d);
}

/*
 * The kernel never reads a descriptor: one of VNPU_MAX_OP_DESC_SIZE bytes
 * is taken, and the server refuses it (an Add's header followed by zeros
 * disagrees with its size).
 */
TEST_F(op, desc_size_max_is_accepted)
{
	struct drm_vnpu_stream_query q;
	struct drm_vnpu_task t;
	struct vnpu_op o;
	uint32_t size, list, other;
	unsigned char *d;

	add(self, &o);
	d = big_desc_area(&o, &size, &list);
	ASSERT_NONNULL(d);
	t = o.task;
	t.op.operand_offset = list;
	t.op.desc_size = VNPU_MAX_OP_DESC_SIZE;
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &other));
	EXPECT_EQ(-EIO, vnpu_submit_data_wait(self->fd, other, &t, 1, d, size, NULL));
	ASSERT_EQ(0, vnpu_stream_query(self->fd, other, &q));
	EXPECT_EQ(1, q.submitted_seqno);
	EXPECT_EQ(VNPU_STREAM_ERROR_FAULT, q.error);
	free(d);
}

TEST_F(op, desc_offset_unaligned)
{
	struct vnpu_op o;

	add(self, &o);
	/* Room for the descriptor at every offset up to 8. */
	memset(o.data + o.data_size, 0, 8);
	o.data_size += 8;
	for (uint32_t off = 1; off < 8; off++) {
		o.task.op.desc_offset = off;
		EXPECT_EQ(-EINVAL, submit(self, &o)) TH_LOG("offset %u", off);
	}
}

TEST_F(op, desc_outside_data)
{
	struct vnpu_op o;

	add(self, &o);
	/* Its last 8 bytes past the end of the data area. */
	o.task.op.desc_offset = o.data_size - o.task.op.desc_size + 8;
	EXPECT_EQ(-EINVAL, submit(self, &o));
	/* Starting at the end. */
	o.task.op.desc_offset = o.data_size;
	EXPECT_EQ(-EINVAL, submit(self, &o));
	/* Far away, and where offset + size wraps 32 bits. */
	o.task.op.desc_offset = 1u << 20;
	EXPECT_EQ(-EINVAL, submit(self, &o));
	o.task.op.desc_offset = 0xfffffff8;
	EXPECT_EQ(-EINVAL, submit(self, &o));
	/* Larger than the whole area. */
	o.task.op.desc_offset = 0;
	o.task.op.desc_size = o.data_size + 8;
	EXPECT_EQ(-EINVAL, submit(self, &o));
}

/* An operator in a submit without a data area has no descriptor. */
TEST_F(op, no_data_area)
{
	struct vnpu_op o;

	add(self, &o);
	EXPECT_EQ(-EINVAL, vnpu_submit_data(self->fd, self->stream, &o.task, 1, NULL, 0, NULL, 0, 0,
					    0, NULL));
	EXPECT_EQ(-EINVAL, vnpu_submit(self->fd, self->stream, &o.task, 1, NULL, 0, 0, 0, NULL));
}

/* ---------------------------------------------------------------- operand list placement */

TEST_F(op, operand_offset_unaligned)
{
	struct vnpu_op o;

	add(self, &o);
	memset(o.data + o.data_size, 0, 8);
	o.data_size += 8;
	for (uint32_t off = 1; off < 8; off++) {
		memmove(o.data + o.operand_offset + off, o.operands,
			o.noperands * sizeof(o.operands[0]));
		o.task.op.operand_offset = o.operand_offset + off;
		EXPECT_EQ(-EINVAL, submit(self, &o)) TH_LOG("offset +%u", off);
	}
}

TEST_F(op, operand_list_outside_data)
{
	struct vnpu_op o;

	add(self, &o);
	/* The list's last operand past the end. */
	o.task.op.operand_offset += 8;
	EXPECT_EQ(-EINVAL, submit(self, &o));
	o.task.op.operand_offset = o.data_size;
	EXPECT_EQ(-EINVAL, submit(self, &o));
	o.task.op.operand_offset = 0xfffffff8;
	EXPECT_EQ(-EINVAL, submit(self, &o));
	/* More operands than the area holds. */
	add(self, &o);
	o.task.op.operand_count++;
	EXPECT_EQ(-EINVAL, submit(self, &o));
}

/* ---------------------------------------------------------------- operand counts */

TEST_F(op, operand_count_above_max)
{
	struct vnpu_op o;

	add(self, &o);
	o.task.op.operand_count = VNPU_MAX_OP_OPERANDS + 1;
	EXPECT_EQ(-EINVAL, submit(self, &o));
	o.task.op.operand_count = 0xffffffff;
	EXPECT_EQ(-EINVAL, submit(self, &o));
}

/*
 * A data area with an Add's descriptor at 0 and a list of @count operands
 * (each 64 bytes of the buffer, READ) after it; *@list gets its offset.
 */
static unsigned char *many_operands(FIXTURE_DATA(op) *self, const struct vnpu_op *o,
				    unsigned int count, uint32_t *size, uint32_t *list)
{
	struct drm_vnpu_operand *ops;
	unsigned char *d;

	*list = o->operand_offset;
	*size = *list + count * sizeof(*ops);
	d = calloc(1, *size);
	if (!d)
		return NULL;
	memcpy(d, o->data, o->plan.desc_size);
	ops = (struct drm_vnpu_operand *)(d + *list);
	for (unsigned int i = 0; i < count; i++)
		ops[i] = (struct drm_vnpu_operand){
			.va = self->va + 64 * (i % 64), .size = 64, .access = VNPU_OPERAND_READ,
		};
	return d;
}

/*
 * All operator tasks of a submit together name at most
 * VNPU_MAX_SUBMIT_OPERANDS operands: 64 tasks of 256 are taken (and fault
 * in the server: an Add has 3), one more operand is not.
 */
TEST_F_TIMEOUT(op, submit_operands_above_max, 60)
{
	unsigned int tasks = VNPU_MAX_SUBMIT_OPERANDS / VNPU_MAX_OP_OPERANDS;
	struct drm_vnpu_stream_query q;
	struct drm_vnpu_task *t;
	struct vnpu_op o;
	uint32_t size, list, other;
	unsigned char *d;

	ASSERT_EQ(64, tasks);
	add(self, &o);
	d = many_operands(self, &o, VNPU_MAX_OP_OPERANDS, &size, &list);
	/* t[0]: a write to nowhere (-ENXIO in its turn); t[1..64]: 256 each; t[65]: 1 */
	t = calloc(tasks + 2, sizeof(*t));
	ASSERT_NONNULL(d);
	ASSERT_NONNULL(t);
	t[0] = vnpu_task_write32(4096, 1);
	for (unsigned int i = 1; i <= tasks + 1; i++) {
		t[i] = o.task;
		t[i].op.operand_offset = list;
		t[i].op.operand_count = i <= tasks ? VNPU_MAX_OP_OPERANDS : 1;
	}
	EXPECT_EQ(-EINVAL, vnpu_submit_data(self->fd, self->stream, t + 1, tasks + 1, d, size, NULL,
					    0, 0, 0, NULL));
	/* The sum is checked before any task: task 0's bad range does not win. */
	EXPECT_EQ(-EINVAL, vnpu_submit_data(self->fd, self->stream, t, tasks + 2, d, size, NULL, 0,
					    0, 0, NULL));
	EXPECT_EQ(-ENXIO, vnpu_submit_data(self->fd, self->stream, t, tasks + 1, d, size, NULL, 0,
					   0, 0, NULL));
	/* Exactly the bound is taken. */
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &other));
	EXPECT_EQ(-EIO, vnpu_submit_data_wait(self->fd, other, t + 1, tasks, d, size, NULL));
	ASSERT_EQ(0, vnpu_stream_query(self->fd, other, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_FAULT, q.error);
	EXPECT_EQ(0, q.failed_task);
	free(t);
	free(d);
}

/* One task's count is checked before any task's fields or ranges. */
TEST_F(op, operand_count_checked_before_tasks)
{
	struct vnpu_op o;
	struct drm_vnpu_task t[2];

	add(self, &o);
	t[0] = vnpu_task_write32(4096, 1);	/* -ENXIO in its turn */
	t[1] = o.task;
	t[1].op.operand_count = VNPU_MAX_OP_OPERANDS + 1;
	EXPECT_EQ(-ENXIO, vnpu_submit_data(self->fd, self->stream, t, 1, o.data, o.data_size, NULL,
					   0, 0, 0, NULL));
	EXPECT_EQ(-EINVAL, vnpu_submit_data(self->fd, self->stream, t, 2, o.data, o.data_size,
					    NULL, 0, 0, 0, NULL));
}

/* 256 operands in one task are taken by the kernel (and faulted by the server). */
TEST_F(op, operand_count_max_is_accepted)
{
	struct drm_vnpu_stream_query q;
	struct drm_vnpu_task t;
	struct vnpu_op o;
	uint32_t size, list, other;
	unsigned char *d;

	add(self, &o);
	d = many_operands(self, &o, VNPU_MAX_OP_OPERANDS, &size, &list);
	ASSERT_NONNULL(d);
	t = o.task;
	t.op.operand_offset = list;
	t.op.operand_count = VNPU_MAX_OP_OPERANDS;
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &other));
	EXPECT_EQ(-EIO, vnpu_submit_data_wait(self->fd, other, &t, 1, d, size, NULL));
	ASSERT_EQ(0, vnpu_stream_query(self->fd, other, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_FAULT, q.error);
	free(d);
}

/* ---------------------------------------------------------------- operand fields */

TEST_F(op, operand_access)
{
	static const uint32_t bad[] = { 0, VNPU_OPERAND_WORKSPACE + 1, 0x80000000, 0xffffffff };
	struct vnpu_op o;

	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		for (unsigned int k = 0; k < 3; k++) {
			reduce(self, &o);
			o.operands[k].access = bad[i];
			vnpu_op_encode(&o);
			EXPECT_EQ(-EINVAL, submit(self, &o)) TH_LOG("operand %u access %u", k, bad[i]);
		}
	}
}

TEST_F(op, operand_pad)
{
	struct vnpu_op o;

	for (unsigned int k = 0; k < 3; k++) {
		add(self, &o);
		o.operands[k].pad = 1;
		vnpu_op_encode(&o);
		EXPECT_EQ(-EINVAL, submit(self, &o)) TH_LOG("operand %u", k);
		o.operands[k].pad = 1u << 31;
		vnpu_op_encode(&o);
		EXPECT_EQ(-EINVAL, submit(self, &o)) TH_LOG("operand %u", k);
	}
}

TEST_F(op, operand_size_zero)
{
	struct vnpu_op o;

	for (unsigned int k = 0; k < 3; k++) {
		reduce(self, &o);
		o.operands[k].size = 0;
		vnpu_op_encode(&o);
		EXPECT_EQ(-EINVAL, submit(self, &o)) TH_LOG("operand %u", k);
	}
}

/* Every operand's fields are checked before any operand's range. */
TEST_F(op, operand_fields_before_ranges)
{
	struct vnpu_op o;

	add(self, &o);
	o.operands[0].va = 4096;
	vnpu_op_encode(&o);
	EXPECT_EQ(-ENXIO, submit(self, &o));
	o.operands[2].access = 0;
	vnpu_op_encode(&o);
	EXPECT_EQ(-EINVAL, submit(self, &o));
	o.operands[2].access = VNPU_OPERAND_WRITE;
	o.operands[2].size = 0;
	vnpu_op_encode(&o);
	EXPECT_EQ(-EINVAL, submit(self, &o));
}

/* ---------------------------------------------------------------- operand ranges */

TEST_F(op, operand_unmapped)
{
	/* (the file's first buffer is at VNPU_VA_START) */
	static const uint64_t vas[] = {
		0, 4096, VNPU_VA_START - 4096, VNPU_VA_END - 4096, VNPU_VA_END,
	};
	struct vnpu_op o;

	for (unsigned int k = 0; k < 3; k++) {
		for (unsigned int i = 0; i < sizeof(vas) / sizeof(vas[0]); i++) {
			reduce(self, &o);
			o.operands[k].va = vas[i];
			vnpu_op_encode(&o);
			EXPECT_EQ(-ENXIO, submit(self, &o)) TH_LOG("operand %u va %#llx", k,
								   (unsigned long long)vas[i]);
		}
	}
}

TEST_F(op, operand_past_buffer_end)
{
	struct vnpu_op o;

	for (unsigned int k = 0; k < 3; k++) {
		reduce(self, &o);
		o.operands[k].va = self->va + BUF_SIZE - o.operands[k].size + 4;
		vnpu_op_encode(&o);
		EXPECT_EQ(-ENXIO, submit(self, &o)) TH_LOG("operand %u", k);
		/* A size larger than the buffer, from its start. */
		o.operands[k].va = self->va;
		o.operands[k].size = BUF_SIZE + 1;
		vnpu_op_encode(&o);
		EXPECT_EQ(-ENXIO, submit(self, &o)) TH_LOG("operand %u", k);
	}
}

/* The buffer's last bytes are fine, for every operand. */
TEST_F(op, operand_at_buffer_end_runs)
{
	struct vnpu_op o;

	for (unsigned int k = 0; k < 3; k++) {
		reduce(self, &o);
		o.operands[k].va = self->va + BUF_SIZE - o.operands[k].size;
		vnpu_op_encode(&o);
		EXPECT_EQ(0, submit_ok(self, &o)) TH_LOG("operand %u", k);
	}
	/* The whole buffer as one operand is too. */
	add(self, &o);
	o.operands[1].va = self->va;
	o.operands[1].size = BUF_SIZE;
	vnpu_op_encode(&o);
	EXPECT_EQ(0, submit_ok(self, &o));
}

TEST_F(op, operand_range_wraps)
{
	struct vnpu_op o;

	for (unsigned int k = 0; k < 3; k++) {
		reduce(self, &o);
		o.operands[k].va = ~0ull - 3;	/* 4 bytes before 2^64; every operand is more */
		vnpu_op_encode(&o);
		EXPECT_EQ(-EOVERFLOW, submit(self, &o)) TH_LOG("operand %u", k);
		o.operands[k].va = self->va;
		o.operands[k].size = ~0ull;
		vnpu_op_encode(&o);
		EXPECT_EQ(-EOVERFLOW, submit(self, &o)) TH_LOG("operand %u", k);
	}
}

/* Ranges are checked in operand order. */
TEST_F(op, operand_ranges_in_order)
{
	struct vnpu_op o;

	add(self, &o);
	o.operands[0].va = 4096;
	o.operands[1].va = ~0ull - 15;
	vnpu_op_encode(&o);
	EXPECT_EQ(-ENXIO, submit(self, &o));
	o.operands[0].va = ~0ull - 15;
	o.operands[1].va = 4096;
	vnpu_op_encode(&o);
	EXPECT_EQ(-EOVERFLOW, submit(self, &o));
}

TEST_F(op, operand_of_closed_buffer)
{
	struct vnpu_buf b;
	struct vnpu_op o;

	ASSERT_EQ(0, vnpu_buf_create(self->fd, 4096, &b));
	add(self, &o);
	o.operands[2].va = b.va;
	vnpu_op_encode(&o);
	vnpu_buf_destroy(self->fd, &b);
	EXPECT_EQ(-ENXIO, submit(self, &o));
}

TEST_F(op, operand_of_other_file)
{
	int fd2 = vnpu_open_device(0);
	struct vnpu_op o;
	uint32_t handle;
	uint64_t va;

	ASSERT_GE(fd2, 0);
	/* Each file's VAs start at the same place: land past this file's buffer. */
	ASSERT_EQ(0, vnpu_bo_create(fd2, 16 << 20, 0, &handle, &va));
	ASSERT_EQ(0, vnpu_bo_create(fd2, 16 << 20, 0, &handle, &va));
	add(self, &o);
	o.operands[0].va = va;
	vnpu_op_encode(&o);
	EXPECT_EQ(-ENXIO, submit(self, &o));
	close(fd2);
}

/* ---------------------------------------------------------------- workspace and pools */

/*
 * On a stream that requires pool workspace, a WORKSPACE operand outside
 * its pool is -EACCES, even where no buffer is; READ and WRITE operands
 * are not pool memory and may lie anywhere in the file's buffers.
 */
TEST_F(op, workspace_outside_required_pool)
{
	struct vnpu_buf pool;
	struct vnpu_op o;
	uint32_t other;

	ASSERT_EQ(0, vnpu_buf_create(self->fd, 4096, &pool));
	ASSERT_EQ(0, vnpu_stream_set_param(self->fd, self->stream, VNPU_STREAM_PARAM_REQUIRE_POOL,
					   1));
	reduce(self, &o);
	EXPECT_EQ(-EACCES, submit(self, &o));
	vnpu_op_ws(&o)->va = 4096;
	vnpu_op_encode(&o);
	EXPECT_EQ(-EACCES, submit(self, &o));
	/* Bound to the stream, but the workspace crosses the range's end. */
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->stream, pool.va, 32));
	vnpu_op_ws(&o)->va = pool.va;
	vnpu_op_encode(&o);
	EXPECT_EQ(-EACCES, submit(self, &o));
	/* Its overflow is still -EOVERFLOW, and the inputs' ranges come first. */
	vnpu_op_ws(&o)->va = ~0ull - 15;
	vnpu_op_encode(&o);
	EXPECT_EQ(-EOVERFLOW, submit(self, &o));
	o.operands[0].va = 4096;
	vnpu_op_encode(&o);
	EXPECT_EQ(-ENXIO, submit(self, &o));

	/* Inside another stream's required pool it runs, inputs anywhere. */
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &other));
	ASSERT_EQ(0, vnpu_stream_set_param(self->fd, other, VNPU_STREAM_PARAM_REQUIRE_POOL, 1));
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, other, pool.va, 4096));
	reduce(self, &o);
	vnpu_op_ws(&o)->va = pool.va;
	vnpu_op_encode(&o);
	EXPECT_EQ(0, vnpu_op_submit_wait(self->fd, other, &o, NULL));
	EXPECT_EQ(1, vnpu_pool_stats(self->fd, other).ws_tasks);
	EXPECT_EQ(o.plan.ws_bytes, vnpu_pool_stats(self->fd, other).ws_bytes_used);
	vnpu_buf_destroy(self->fd, &pool);
}

/* The check order puts a workspace's -EACCES where its operand is. */
TEST_F(op, workspace_checked_in_operand_order)
{
	struct vnpu_op o;

	ASSERT_EQ(0, vnpu_stream_set_param(self->fd, self->stream, VNPU_STREAM_PARAM_REQUIRE_POOL,
					   1));
	reduce(self, &o);
	/* The same operands with the workspace listed first. */
	struct drm_vnpu_operand ws = o.operands[2];

	o.operands[2] = o.operands[1];
	o.operands[1] = o.operands[0];
	o.operands[0] = ws;
	o.operands[1].va = 4096;
	vnpu_op_encode(&o);
	EXPECT_EQ(-EACCES, submit(self, &o));
}

/* ---------------------------------------------------------------- batches */

TEST_F(op, batch_with_one_bad_op_runs_nothing)
{
	float *in = self->buf.cpu;
	struct vnpu_op a, r;
	struct vnpu_job job;

	for (int i = 0; i < N; i++)
		in[i] = 1.0f;
	add(self, &a);
	reduce(self, &r);
	r.operands[2].size = 0;
	vnpu_op_encode(&r);
	vnpu_job_init(&job);
	vnpu_job_add_op(&job, &a);
	vnpu_job_add(&job, vnpu_task_write32(self->va + MARK, 1));
	vnpu_job_add_op(&job, &r);
	EXPECT_EQ(-EINVAL, vnpu_job_submit(self->fd, self->stream, &job, NULL, 0, 0, 0, NULL));
	usleep(20000);
	EXPECT_EQ(0, ((float *)((char *)self->buf.cpu + OUT))[0]);
}

/* Two tasks may name the same descriptor and operand list. */
TEST_F(op, tasks_share_a_descriptor)
{
	float *f = self->buf.cpu;
	struct drm_vnpu_task t[2];
	struct vnpu_op o;

	ASSERT_EQ(0, vnpu_op_eltwise(&o, "Add", ACL_FLOAT, N, N));
	vnpu_op_set_va(&o, self->va + OUT, self->va + IN1, self->va + OUT, 0);
	for (int i = 0; i < N; i++)
		f[IN1 / 4 + i] = 1.5f;
	t[0] = o.task;
	t[1] = o.task;
	EXPECT_EQ(0, vnpu_submit_data_wait(self->fd, self->ok_stream, t, 2, o.data, o.data_size,
					   NULL));
	EXPECT_EQ(3.0f, f[OUT / 4]);
	EXPECT_EQ(3.0f, f[OUT / 4 + N - 1]);
}

/* ---------------------------------------------------------------- the data area */

TEST_F(op, data_size_above_max)
{
	struct vnpu_op o;
	unsigned char *d = calloc(1, VNPU_MAX_SUBMIT_DATA + 8);

	ASSERT_NONNULL(d);
	add(self, &o);
	memcpy(d, o.data, o.data_size);
	EXPECT_EQ(-EINVAL, vnpu_submit_data(self->fd, self->stream, &o.task, 1, d,
					    VNPU_MAX_SUBMIT_DATA + 1, NULL, 0, 0, 0, NULL));
	EXPECT_EQ(-EINVAL, vnpu_submit_data(self->fd, self->stream, &o.task, 1, d, 0xffffffff,
					    NULL, 0, 0, 0, NULL));
	free(d);
}

TEST_F(op, data_null_with_size)
{
	struct vnpu_op o;

	add(self, &o);
	EXPECT_EQ(-EINVAL, vnpu_submit_data(self->fd, self->stream, &o.task, 1, NULL, o.data_size,
					    NULL, 0, 0, 0, NULL));
}

TEST_F(op, data_unreadable)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *m = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct vnpu_op o;

	ASSERT_NE(MAP_FAILED, m);
	add(self, &o);
	EXPECT_EQ(-EFAULT, vnpu_submit_data(self->fd, self->stream, &o.task, 1, (void *)8,
					    o.data_size, NULL, 0, 0, 0, NULL));
	/* The area's last bytes on a page that cannot be read. */
	memcpy(m + page - o.data_size + 8, o.data, o.data_size);
	ASSERT_EQ(0, mprotect(m + page, page, PROT_NONE));
	EXPECT_EQ(-EFAULT, vnpu_submit_data(self->fd, self->stream, &o.task, 1,
					    m + page - o.data_size + 8, o.data_size, NULL, 0, 0, 0,
					    NULL));
	/* Without those bytes it is the same operator, and fine. */
	memcpy(m + page - o.data_size, o.data, o.data_size);
	EXPECT_EQ(0, vnpu_submit_data_wait(self->fd, self->ok_stream, &o.task, 1,
					   m + page - o.data_size, o.data_size, NULL));
	munmap(m, 2 * page);
}

/* A data area of VNPU_MAX_SUBMIT_DATA bytes, the operator at its very end. */
TEST_F(op, data_max_size_accepted)
{
	float *f = self->buf.cpu;
	struct drm_vnpu_task t;
	unsigned char *d = calloc(1, VNPU_MAX_SUBMIT_DATA);
	uint32_t at;
	struct vnpu_op o;

	ASSERT_NONNULL(d);
	add(self, &o);
	at = VNPU_MAX_SUBMIT_DATA - o.data_size;
	ASSERT_EQ(0, at % 8);
	memcpy(d + at, o.data, o.data_size);
	t = o.task;
	t.op.desc_offset += at;
	t.op.operand_offset += at;
	f[IN0 / 4] = 4.0f;
	f[IN1 / 4] = 0.5f;
	EXPECT_EQ(0, vnpu_submit_data_wait(self->fd, self->ok_stream, &t, 1, d,
					   VNPU_MAX_SUBMIT_DATA, NULL));
	EXPECT_EQ(4.5f, f[OUT / 4]);
	free(d);
}

/* ---------------------------------------------------------------- GET_PARAM */

TEST_F(op, params_report_the_bounds)
{
	EXPECT_EQ(VNPU_MAX_SUBMIT_DATA, vnpu_param(self->fd, VNPU_PARAM_MAX_SUBMIT_DATA));
	EXPECT_EQ(VNPU_MAX_OP_DESC_SIZE, vnpu_param(self->fd, VNPU_PARAM_MAX_OP_DESC_SIZE));
	EXPECT_EQ(VNPU_MAX_OP_OPERANDS, vnpu_param(self->fd, VNPU_PARAM_MAX_OP_OPERANDS));
	EXPECT_EQ(VNPU_MAX_SUBMIT_OPERANDS, vnpu_param(self->fd, VNPU_PARAM_MAX_SUBMIT_OPERANDS));
	EXPECT_EQ(2, vnpu_param(self->fd, VNPU_PARAM_ABI_VERSION) >> 16);
	/* These suites run with the engine server (vnpu-vm starts it). */
	EXPECT_EQ(1, vnpu_param(self->fd, VNPU_PARAM_ENGINE_ATTACHED));
	EXPECT_LE(1, vnpu_param(self->fd, VNPU_PARAM_ENGINE_ATTACHES));
	/* lib/ops' descriptors fit the kernel's bound. */
	EXPECT_LE(VOPS_MAX_DESC, VNPU_MAX_OP_DESC_SIZE);
}

/* ---------------------------------------------------------------- the server's checks */

#define G_SEED 0x0b5e55ed

/*
 * Run @job, whose task @bad the server must fault, on a stream of its own:
 * the stream fails with FAULT at that task, the fence carries -EIO, the
 * guard buffer @g is untouched, and the device still works: another stream
 * of this file, another file, the same server (attached, not restarted).
 */
static void expect_fault(struct th_metadata *_metadata, FIXTURE_DATA(op) *self,
			 const struct vnpu_job *job, uint32_t bad, const struct vnpu_buf *g)
{
	uint64_t attaches = vnpu_param(self->fd, VNPU_PARAM_ENGINE_ATTACHES), seqno;
	struct drm_vnpu_stream_query q;
	float *f = self->buf.cpu;
	uint32_t s, sync, s2;
	struct vnpu_op a;
	struct vnpu_buf b2;
	long at;
	int fd2;

	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &s));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sync));
	ASSERT_EQ(0, vnpu_job_submit(self->fd, s, job, NULL, 0, sync, 0, &seqno));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, sync, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(-EIO, vnpu_syncobj_fence_status(self->fd, sync));
	ASSERT_EQ(0, vnpu_stream_query(self->fd, s, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_FAULT, q.error);
	EXPECT_EQ(bad, q.failed_task);
	EXPECT_EQ(seqno, q.failed_seqno);
	at = vnpu_check_pattern(g->cpu, g->size, G_SEED);
	EXPECT_EQ(-1, at) TH_LOG("guard buffer changed at %ld", at);
	EXPECT_EQ(-EIO, vnpu_submit_wait(self->fd, s, (struct drm_vnpu_task[]){ vnpu_task_nop() },
					 1, NULL));
	vnpu_syncobj_destroy(self->fd, sync);

	/* The server is the same one, still attached, and runs the next job. */
	EXPECT_EQ(1, vnpu_param(self->fd, VNPU_PARAM_ENGINE_ATTACHED));
	EXPECT_EQ(attaches, vnpu_param(self->fd, VNPU_PARAM_ENGINE_ATTACHES));
	for (int i = 0; i < N; i++) {
		f[IN0 / 4 + i] = (float)i;
		f[IN1 / 4 + i] = 10.0f;
	}
	add(self, &a);
	EXPECT_EQ(0, submit_ok(self, &a));
	EXPECT_EQ(10.0f, f[OUT / 4]);
	EXPECT_EQ(25.0f, f[OUT / 4 + N - 1]);

	/* Another file too. */
	fd2 = vnpu_open_device(0);
	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, vnpu_stream_create(fd2, VNPU_PRIORITY_NORMAL, &s2));
	ASSERT_EQ(0, vnpu_buf_create(fd2, 4096, &b2));
	for (int i = 0; i < N; i++)
		((float *)b2.cpu)[i] = -1.0f - i;
	ASSERT_EQ(0, vnpu_op_eltwise(&a, "Abs", ACL_FLOAT, N, 0));
	vnpu_op_set_va(&a, b2.va, 0, b2.va + 1024, 0);
	EXPECT_EQ(0, vnpu_op_submit_wait(fd2, s2, &a, NULL));
	EXPECT_EQ(16.0f, ((float *)b2.cpu)[256 + N - 1]);
	vnpu_buf_destroy(fd2, &b2);
	close(fd2);
	EXPECT_EQ(0, vnpu_stream_destroy(self->fd, s));
}

/* A guard buffer: 64 KiB of pattern, operands in its middle. */
static void guard_buf(struct th_metadata *_metadata, FIXTURE_DATA(op) *self, struct vnpu_buf *g)
{
	ASSERT_EQ(0, vnpu_buf_create(self->fd, 64 << 10, g));
	vnpu_fill_pattern(g->cpu, g->size, G_SEED);
}

/* [mark 1, @op, mark 2]: the first mark must be written, the second not. */
static void job_around(FIXTURE_DATA(op) *self, struct vnpu_job *job, const struct vnpu_op *op)
{
	vnpu_job_init(job);
	vnpu_job_add(job, vnpu_task_write32(self->va + MARK + 4, 1));
	vnpu_job_add_op(job, op);
	vnpu_job_add(job, vnpu_task_write32(self->va + MARK + 8, 2));
}

static void expect_marks(struct th_metadata *_metadata, FIXTURE_DATA(op) *self)
{
	uint32_t *m = (uint32_t *)((char *)self->buf.cpu + MARK);

	EXPECT_EQ(1, m[1]);
	EXPECT_EQ(0, m[2]);
	m[1] = 0;
}

/*
 * An Add planned for 1024 fp32 elements, submitted with operands of 64
 * bytes in the middle of a guard buffer (each one short in turn, then all):
 * the kernel takes it (it never reads descriptors), the server faults it.
 */
TEST_F(op, shapes_exceeding_operands_fault_their_task)
{
	struct vnpu_buf g;
	struct vnpu_op o;
	struct vnpu_job job;

	guard_buf(_metadata, self, &g);
	for (unsigned int k = 0; k <= 3; k++) {
		ASSERT_EQ(0, vnpu_op_eltwise(&o, "Add", ACL_FLOAT, 1024, 1024));
		ASSERT_EQ(4096, o.plan.out[0].bytes);
		vnpu_op_set_va(&o, g.va + 8192, g.va + 16384, g.va + 24576, 0);
		for (unsigned int i = 0; i < 3; i++)
			if (k == 3 || i == k)
				o.operands[i].size = 64;
		vnpu_op_encode(&o);
		job_around(self, &job, &o);
		expect_fault(_metadata, self, &job, 1, &g);
		expect_marks(_metadata, self);
	}
	/* The same descriptor with operands that hold it runs. */
	for (int i = 0; i < 1024; i++) {
		((float *)self->buf.cpu)[i] = 1.0f;
		((float *)((char *)self->buf.cpu + 4096))[i] = 2.0f;
	}
	ASSERT_EQ(0, vnpu_op_eltwise(&o, "Add", ACL_FLOAT, 1024, 1024));
	vnpu_op_set_va(&o, self->va, self->va + 4096, self->va + 8192, 0);
	EXPECT_EQ(0, submit_ok(self, &o));
	EXPECT_EQ(3.0f, ((float *)((char *)self->buf.cpu + 8192))[1023]);
	vnpu_buf_destroy(self->fd, &g);
}

/* A workspace smaller than the descriptor's plan needs faults too. */
TEST_F(op, workspace_smaller_than_plan_faults)
{
	struct vnpu_buf g;
	struct vnpu_op o;
	struct vnpu_job job;

	guard_buf(_metadata, self, &g);
	ASSERT_EQ(0, vnpu_op_rows(&o, "ReduceSumD", ACL_FLOAT, 8, 1024, 0));
	ASSERT_LT(4, o.plan.ws_bytes);
	vnpu_op_set_va(&o, self->va, 0, self->va + OUT, g.va + 8192);
	vnpu_op_ws(&o)->size = o.plan.ws_bytes - 4;
	vnpu_op_encode(&o);
	job_around(self, &job, &o);
	expect_fault(_metadata, self, &job, 1, &g);
	expect_marks(_metadata, self);
	vnpu_buf_destroy(self->fd, &g);
}

TEST_F(op, garbage_descriptor_faults)
{
	struct vnpu_buf g;
	struct vnpu_op o;
	struct vnpu_job job;

	guard_buf(_metadata, self, &g);
	ASSERT_EQ(0, vnpu_op_eltwise(&o, "Add", ACL_FLOAT, 16, 16));
	vnpu_op_set_va(&o, g.va + 8192, g.va + 16384, g.va + 24576, 0);
	/* Random bytes of a real descriptor's size. */
	vnpu_fill_pattern(o.data, o.plan.desc_size, 12345);
	job_around(self, &job, &o);
	expect_fault(_metadata, self, &job, 1, &g);
	expect_marks(_metadata, self);
	/* Zeros. */
	memset(o.data, 0, o.plan.desc_size);
	job_around(self, &job, &o);
	expect_fault(_metadata, self, &job, 1, &g);
	expect_marks(_metadata, self);
	/* A real descriptor with its operator id made unknown. */
	vnpu_op_encode(&o);
	o.data[6] = 0xff;
	o.data[7] = 0xff;
	job_around(self, &job, &o);
	expect_fault(_metadata, self, &job, 1, &g);
	expect_marks(_metadata, self);
	vnpu_buf_destroy(self->fd, &g);
}

TEST_F(op, truncated_or_overlong_descriptor_faults)
{
	struct vnpu_buf g;
	struct vnpu_op o;
	struct vnpu_job job;

	guard_buf(_metadata, self, &g);
	ASSERT_EQ(0, vnpu_op_eltwise(&o, "Mul", ACL_FLOAT, 16, 16));
	vnpu_op_set_va(&o, g.va + 8192, g.va + 16384, g.va + 24576, 0);
	o.task.op.desc_size -= 8;	/* the last input record cut short */
	job_around(self, &job, &o);
	expect_fault(_metadata, self, &job, 1, &g);
	expect_marks(_metadata, self);
	o.task.op.desc_size = 1;
	job_around(self, &job, &o);
	expect_fault(_metadata, self, &job, 1, &g);
	expect_marks(_metadata, self);
	/* Bytes left over after a whole descriptor (the operand list's first). */
	o.task.op.desc_size = o.operand_offset + 8;
	job_around(self, &job, &o);
	expect_fault(_metadata, self, &job, 1, &g);
	expect_marks(_metadata, self);
	vnpu_buf_destroy(self->fd, &g);
}

/* A valid descriptor with operands of the wrong access, count or alignment. */
TEST_F(op, wrong_operands_fault)
{
	struct vnpu_buf g;
	struct vnpu_op o;
	struct vnpu_job job;

	guard_buf(_metadata, self, &g);
	/* The output given as READ: the server must not write through it. */
	ASSERT_EQ(0, vnpu_op_rows(&o, "ReduceSumD", ACL_FLOAT, 2, 16, 0));
	vnpu_op_set_va(&o, g.va + 8192, 0, g.va + 16384, g.va + 24576);
	o.operands[1].access = VNPU_OPERAND_READ;
	vnpu_op_encode(&o);
	job_around(self, &job, &o);
	expect_fault(_metadata, self, &job, 1, &g);
	expect_marks(_metadata, self);
	/* The input, then the workspace, given as WRITE. */
	for (unsigned int k = 0; k < 3; k += 2) {
		ASSERT_EQ(0, vnpu_op_rows(&o, "ReduceSumD", ACL_FLOAT, 2, 16, 0));
		vnpu_op_set_va(&o, g.va + 8192, 0, g.va + 16384, g.va + 24576);
		o.operands[k].access = VNPU_OPERAND_WRITE;
		vnpu_op_encode(&o);
		job_around(self, &job, &o);
		expect_fault(_metadata, self, &job, 1, &g);
		expect_marks(_metadata, self);
	}
	/* The workspace left out; one operand too many; none at all. */
	ASSERT_EQ(0, vnpu_op_rows(&o, "ReduceSumD", ACL_FLOAT, 2, 16, 0));
	vnpu_op_set_va(&o, g.va + 8192, 0, g.va + 16384, g.va + 24576);
	o.noperands = 2;
	vnpu_op_encode(&o);
	job_around(self, &job, &o);
	expect_fault(_metadata, self, &job, 1, &g);
	expect_marks(_metadata, self);
	o.noperands = 4;
	o.operands[3] = o.operands[2];
	vnpu_op_encode(&o);
	job_around(self, &job, &o);
	expect_fault(_metadata, self, &job, 1, &g);
	expect_marks(_metadata, self);
	o.noperands = 0;
	vnpu_op_encode(&o);
	job_around(self, &job, &o);
	expect_fault(_metadata, self, &job, 1, &g);
	expect_marks(_metadata, self);
	/* An fp32 input two bytes off its alignment. */
	ASSERT_EQ(0, vnpu_op_eltwise(&o, "Relu", ACL_FLOAT, 16, 0));
	vnpu_op_set_va(&o, g.va + 8194, 0, self->va + OUT, 0);
	job_around(self, &job, &o);
	expect_fault(_metadata, self, &job, 1, &g);
	expect_marks(_metadata, self);
	vnpu_buf_destroy(self->fd, &g);
}

TEST_HARNESS_MAIN
