// SPDX-License-Identifier: GPL-2.0
/*
 * Every bad field of an operator task (VNPU_TASK_OP), one test each, with
 * its exact errno: nonzero bytes after the operator in the task union,
 * unknown op and dtypes, bad out_dtype, flags the operator does not take,
 * zero and nonzero-unused dims, sizes beyond the limits (also through the
 * inner dim of reductions and softmax), in1 given to a
 * unary operator, workspace address without size and the
 * reverse, misaligned operands, a workspace too small (-ENOSPC), operands
 * and workspace outside the file's buffers (-ENXIO) or wrapping
 * (-EOVERFLOW). The fixture's teardown checks that none of the failed
 * submits queued anything. Valid boundary cases (exact workspace, a buffer's
 * last bytes, out_dtype equal to dtype) go to a second stream and must run.
 */
#include "harness/harness.h"
#include "lib/vnpu_pool_util.h"
#include "lib/vnpu_stream_util.h"
#include "lib/vnpu_test.h"

#define BUF_SIZE (64 << 10)
#define N 16

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
	vnpu_buf_destroy(self->fd, &self->buf);
	close(self->fd);
}

static int submit(FIXTURE_DATA(op) *self, struct drm_vnpu_task t)
{
	return vnpu_submit(self->fd, self->stream, &t, 1, NULL, 0, 0, 0, NULL);
}

/* A valid submit, on the other stream, waited for. */
static int submit_ok(FIXTURE_DATA(op) *self, struct drm_vnpu_task t)
{
	return vnpu_submit_wait(self->fd, self->ok_stream, &t, 1, NULL);
}

/* A valid ADD of N fp32 values: in0 at 0, in1 at 4 KiB, out at 8 KiB. */
static struct drm_vnpu_task add(FIXTURE_DATA(op) *self)
{
	return vnpu_task_op(VNPU_OP_ADD, VNPU_DTYPE_F32, N, 0, 0, self->va, self->va + 4096,
			    self->va + 8192, 0, 0);
}

/* A valid REDUCE_SUM of 2 x N fp32 with its exact workspace at 12 KiB. */
static struct drm_vnpu_task reduce(FIXTURE_DATA(op) *self)
{
	return vnpu_task_op(VNPU_OP_REDUCE_SUM, VNPU_DTYPE_F32, 2, N, 0, self->va, 0,
			    self->va + 8192, self->va + 12288, 4 * N);
}

/* A valid fp16 MATMUL 4x4x4 with transposed A and its exact workspace. */
static struct drm_vnpu_task matmul(FIXTURE_DATA(op) *self)
{
	struct drm_vnpu_task t = vnpu_task_op(VNPU_OP_MATMUL, VNPU_DTYPE_F16, 4, 4, 4, self->va,
					      self->va + 4096, self->va + 8192,
					      self->va + 12288, 0);

	t.op.op_flags = VNPU_OP_F_TRANS_A;
	t.op.ws_size = vnpu_op_ws_needed(&t.op);
	return t;
}

TEST_F(op, valid_baselines_run)
{
	EXPECT_EQ(0, submit_ok(self, add(self)));
	EXPECT_EQ(0, submit_ok(self, reduce(self)));
	EXPECT_EQ(0, submit_ok(self, matmul(self)));
}

/* ---------------------------------------------------------------- fields */

TEST_F(op, task_flags)
{
	struct drm_vnpu_task t = add(self);

	t.flags = VNPU_TASK_VALUE_64;
	EXPECT_EQ(-EINVAL, submit(self, t));
}

/*
 * The task union is larger than struct drm_vnpu_task_op: the bytes beyond
 * it must be zero, as for every other task kind (submit_bad_input.c).
 */
TEST_F(op, op_nonzero_tail)
{
	struct drm_vnpu_task base = add(self);
	unsigned int first = sizeof(base.op) / sizeof(base.raw[0]);

	ASSERT_LT(first, sizeof(base.raw) / sizeof(base.raw[0]));
	for (unsigned int i = first; i < sizeof(base.raw) / sizeof(base.raw[0]); i++) {
		struct drm_vnpu_task t = base;

		t.raw[i] = 1;
		EXPECT_EQ(-EINVAL, submit(self, t)) TH_LOG("raw[%u]", i);
		t.raw[i] = 1ull << 63;
		EXPECT_EQ(-EINVAL, submit(self, t)) TH_LOG("raw[%u]", i);
	}
	/* The same task with a clean tail is valid. */
	EXPECT_EQ(0, submit_ok(self, base));
}

TEST_F(op, unknown_op)
{
	struct drm_vnpu_task t = add(self);

	t.op.op = 0;
	EXPECT_EQ(-EINVAL, submit(self, t));
	t.op.op = VNPU_OP_MATMUL + 1;
	EXPECT_EQ(-EINVAL, submit(self, t));
	t.op.op = 0xffffffff;
	EXPECT_EQ(-EINVAL, submit(self, t));
}

TEST_F(op, unknown_dtype)
{
	struct drm_vnpu_task t = add(self);

	t.op.dtype = 0;
	EXPECT_EQ(-EINVAL, submit(self, t));
	t.op.dtype = VNPU_DTYPE_I32 + 1;
	EXPECT_EQ(-EINVAL, submit(self, t));
	t.op.dtype = 0x80000001;
	EXPECT_EQ(-EINVAL, submit(self, t));
}

TEST_F(op, out_dtype_differs_from_dtype)
{
	struct drm_vnpu_task t = add(self);

	t.op.out_dtype = VNPU_DTYPE_F16;
	EXPECT_EQ(-EINVAL, submit(self, t));
	t.op.out_dtype = 99;
	EXPECT_EQ(-EINVAL, submit(self, t));
	/* Equal to dtype is allowed, like 0. */
	t.op.out_dtype = VNPU_DTYPE_F32;
	EXPECT_EQ(0, submit_ok(self, t));
}

TEST_F(op, cast_out_dtype_zero)
{
	struct drm_vnpu_task t = vnpu_task_op(VNPU_OP_CAST, VNPU_DTYPE_F32, N, 0, 0, self->va, 0,
					      self->va + 8192, 0, 0);

	EXPECT_EQ(-EINVAL, submit(self, t));
	t.op.out_dtype = VNPU_DTYPE_F16;
	EXPECT_EQ(0, submit_ok(self, t));
}

TEST_F(op, cast_out_dtype_unknown)
{
	struct drm_vnpu_task t = vnpu_task_op(VNPU_OP_CAST, VNPU_DTYPE_F32, N, 0, 0, self->va, 0,
					      self->va + 8192, 0, 0);

	t.op.out_dtype = VNPU_DTYPE_I32 + 1;
	EXPECT_EQ(-EINVAL, submit(self, t));
}

TEST_F(op, unknown_op_flag)
{
	struct drm_vnpu_task t = add(self);

	t.op.op_flags = 1u << 4;
	EXPECT_EQ(-EINVAL, submit(self, t));
	t.op.op_flags = 1u << 31;
	EXPECT_EQ(-EINVAL, submit(self, t));
}

TEST_F(op, scalar_flag_on_unary)
{
	struct drm_vnpu_task t = vnpu_task_op(VNPU_OP_RELU, VNPU_DTYPE_F32, N, 0, 0, self->va, 0,
					      self->va + 8192, 0, 0);

	t.op.op_flags = VNPU_OP_F_SCALAR_IN0;
	EXPECT_EQ(-EINVAL, submit(self, t));
}

TEST_F(op, both_scalar_flags)
{
	struct drm_vnpu_task t = add(self);

	t.op.op_flags = VNPU_OP_F_SCALAR_IN0 | VNPU_OP_F_SCALAR_IN1;
	EXPECT_EQ(-EINVAL, submit(self, t));
}

TEST_F(op, transpose_flag_on_add)
{
	struct drm_vnpu_task t = add(self);

	t.op.op_flags = VNPU_OP_F_TRANS_A;
	EXPECT_EQ(-EINVAL, submit(self, t));
}

TEST_F(op, scalar_flag_on_matmul)
{
	struct drm_vnpu_task t = matmul(self);

	t.op.op_flags |= VNPU_OP_F_SCALAR_IN1;
	EXPECT_EQ(-EINVAL, submit(self, t));
}

TEST_F(op, flag_on_reduce)
{
	struct drm_vnpu_task t = reduce(self);

	t.op.op_flags = VNPU_OP_F_TRANS_B;
	EXPECT_EQ(-EINVAL, submit(self, t));
}

TEST_F(op, softmax_on_int32)
{
	struct drm_vnpu_task t = reduce(self);

	t.op.op = VNPU_OP_SOFTMAX;
	t.op.dtype = VNPU_DTYPE_I32;
	EXPECT_EQ(-EINVAL, submit(self, t));
}

/* ---------------------------------------------------------------- dims */

TEST_F(op, zero_length)
{
	struct drm_vnpu_task t = add(self);

	t.op.dims[0] = 0;
	EXPECT_EQ(-EINVAL, submit(self, t));
}

TEST_F(op, zero_cols)
{
	struct drm_vnpu_task t = reduce(self);

	t.op.dims[1] = 0;
	EXPECT_EQ(-EINVAL, submit(self, t));
}

TEST_F(op, matmul_zero_k)
{
	struct drm_vnpu_task t = matmul(self);

	t.op.dims[2] = 0;
	EXPECT_EQ(-EINVAL, submit(self, t));
}

TEST_F(op, unused_dim_nonzero)
{
	struct drm_vnpu_task t = add(self);

	t.op.dims[1] = 1;
	EXPECT_EQ(-EINVAL, submit(self, t));
	t = add(self);
	t.op.dims[2] = 1;
	EXPECT_EQ(-EINVAL, submit(self, t));
	/* (dims[2] of REDUCE_* and SOFTMAX is inner, used since ABI 1.2) */
}

/* A reduction's inner (dims[2]) of 0 and 1 are the same valid last axis. */
TEST_F(op, inner_zero_or_one)
{
	struct drm_vnpu_task t = reduce(self);

	EXPECT_EQ(0, submit_ok(self, t));
	t.op.dims[2] = 1;
	EXPECT_EQ(0, submit_ok(self, t));
}

TEST_F(op, inner_beyond_limit)
{
	struct drm_vnpu_task t = reduce(self);

	t.op.dims[2] = (1ull << 31) + 1;
	EXPECT_EQ(-EOVERFLOW, submit(self, t));
	t.op.dims[2] = ~0ull;
	EXPECT_EQ(-EOVERFLOW, submit(self, t));
	t.op.op = VNPU_OP_SOFTMAX;
	EXPECT_EQ(-EOVERFLOW, submit(self, t));
}

TEST_F(op, inner_bytes_beyond_limit)
{
	struct drm_vnpu_task t = reduce(self);

	/* 2^20 x 2^10 x 2^11 fp32: 8 TiB; each dim and each pair fit */
	t.op.dims[0] = 1ull << 20;
	t.op.dims[1] = 1ull << 10;
	t.op.dims[2] = 1ull << 11;
	t.op.ws_size = 8ull << 11;
	EXPECT_EQ(-EOVERFLOW, submit(self, t));
	/* 2^31 x 2^31 x 4 elements: the product does not fit 64 bits */
	t.op.dims[0] = 1ull << 31;
	t.op.dims[1] = 1ull << 31;
	t.op.dims[2] = 4;
	t.op.ws_size = 32;
	EXPECT_EQ(-EOVERFLOW, submit(self, t));
}

TEST_F(op, dim_beyond_limit)
{
	struct drm_vnpu_task t = add(self);

	t.op.dims[0] = (1ull << 31) + 1;
	EXPECT_EQ(-EOVERFLOW, submit(self, t));
	t.op.dims[0] = ~0ull;
	EXPECT_EQ(-EOVERFLOW, submit(self, t));
}

TEST_F(op, bytes_beyond_limit)
{
	struct drm_vnpu_task t = reduce(self);

	/* 2^20 rows of 2^21 fp32: 8 TiB, above the 1 TiB operand limit. */
	t.op.dims[0] = 1ull << 20;
	t.op.dims[1] = 1ull << 21;
	t.op.ws_size = 4ull << 21;
	EXPECT_EQ(-EOVERFLOW, submit(self, t));
}

/* ---------------------------------------------------------------- operands */

TEST_F(op, in1_on_unary)
{
	struct drm_vnpu_task t = vnpu_task_op(VNPU_OP_ABS, VNPU_DTYPE_F32, N, 0, 0, self->va,
					      self->va + 4096, self->va + 8192, 0, 0);

	EXPECT_EQ(-EINVAL, submit(self, t));
}

TEST_F(op, in1_on_cast)
{
	struct drm_vnpu_task t = vnpu_task_op(VNPU_OP_CAST, VNPU_DTYPE_F32, N, 0, 0, self->va,
					      self->va + 4096, self->va + 8192, 0, 0);

	t.op.out_dtype = VNPU_DTYPE_I32;
	EXPECT_EQ(-EINVAL, submit(self, t));
}

TEST_F(op, binary_without_in1)
{
	struct drm_vnpu_task t = add(self);

	t.op.in1 = 0;
	EXPECT_EQ(-ENXIO, submit(self, t));
}

TEST_F(op, ws_address_without_size)
{
	struct drm_vnpu_task t = add(self);

	t.op.ws = self->va + 12288;
	EXPECT_EQ(-EINVAL, submit(self, t));
}

TEST_F(op, ws_size_without_address)
{
	struct drm_vnpu_task t = reduce(self);

	t.op.ws = 0;
	EXPECT_EQ(-EINVAL, submit(self, t));
}

TEST_F(op, misaligned_in0)
{
	struct drm_vnpu_task t = add(self);

	t.op.in0 += 2;
	EXPECT_EQ(-EINVAL, submit(self, t));
}

TEST_F(op, misaligned_in1)
{
	struct drm_vnpu_task t = add(self);

	t.op.in1 += 1;
	EXPECT_EQ(-EINVAL, submit(self, t));
}

TEST_F(op, misaligned_out)
{
	struct drm_vnpu_task t = add(self);

	t.op.out += 2;
	EXPECT_EQ(-EINVAL, submit(self, t));
}

TEST_F(op, misaligned_f16_operand)
{
	struct drm_vnpu_task t = matmul(self);

	t.op.in1 += 1;
	EXPECT_EQ(-EINVAL, submit(self, t));
	/* Two-byte alignment is enough for fp16. */
	t.op.in1 += 1;
	EXPECT_EQ(0, submit_ok(self, t));
}

TEST_F(op, misaligned_cast_output)
{
	/* fp16 in, fp32 out: the output needs 4-byte alignment. */
	struct drm_vnpu_task t = vnpu_task_op(VNPU_OP_CAST, VNPU_DTYPE_F16, N, 0, 0, self->va + 2,
					      0, self->va + 8194, 0, 0);

	t.op.out_dtype = VNPU_DTYPE_F32;
	EXPECT_EQ(-EINVAL, submit(self, t));
	t.op.out += 2;
	EXPECT_EQ(0, submit_ok(self, t));
}

TEST_F(op, misaligned_ws)
{
	struct drm_vnpu_task t = reduce(self);

	t.op.ws += 2;
	EXPECT_EQ(-EINVAL, submit(self, t));
}

/* ---------------------------------------------------------------- workspace size */

TEST_F(op, ws_too_small_reduce)
{
	struct drm_vnpu_task t = reduce(self);

	t.op.ws_size = 4 * N - 1;
	EXPECT_EQ(-ENOSPC, submit(self, t));
}

TEST_F(op, ws_too_small_softmax)
{
	struct drm_vnpu_task t = reduce(self);

	t.op.op = VNPU_OP_SOFTMAX;
	t.op.out = self->va + 8192;
	t.op.ws_size = 4 * N - 4;
	EXPECT_EQ(-ENOSPC, submit(self, t));
}

/*
 * inner > 1: per-inner words (max 4, sum 8, softmax 12 bytes each), no
 * longer 4 * cols; one byte short fails.
 */
TEST_F(op, ws_too_small_inner)
{
	static const struct {
		uint32_t op;
		uint64_t need;
	} cases[] = {
		{ VNPU_OP_REDUCE_MAX, 4 * 32 }, { VNPU_OP_REDUCE_SUM, 8 * 32 },
		{ VNPU_OP_SOFTMAX, 12 * 32 },
	};

	for (unsigned int i = 0; i < 3; i++) {
		/* 2 x 4 x 32 fp32 at 0, out at 8 KiB, workspace at 12 KiB */
		struct drm_vnpu_task t = vnpu_task_op(cases[i].op, VNPU_DTYPE_F32, 2, 4, 32, self->va,
						      0, self->va + 8192, self->va + 12288,
						      cases[i].need);

		EXPECT_EQ(cases[i].need, vnpu_op_ws_needed(&t.op));
		EXPECT_EQ(0, submit_ok(self, t));
		t.op.ws_size = cases[i].need - 1;
		EXPECT_EQ(-ENOSPC, submit(self, t));
		t.op.ws_size = 4 * 4;	/* 4 * cols, enough for inner 1 */
		EXPECT_EQ(-ENOSPC, submit(self, t));
	}
}

TEST_F(op, ws_too_small_matmul)
{
	static const uint32_t flags[] = { VNPU_OP_F_TRANS_A, VNPU_OP_F_TRANS_B };

	for (unsigned int i = 0; i < 2; i++) {
		struct drm_vnpu_task t = vnpu_task_op(VNPU_OP_MATMUL, VNPU_DTYPE_F32, 3, 5, 7,
						      self->va, self->va + 4096,
						      self->va + 8192, self->va + 12288, 0);

		t.op.op_flags = flags[i];
		t.op.ws_size = vnpu_op_ws_needed(&t.op) - 1;
		EXPECT_EQ(-ENOSPC, submit(self, t));
		t.op.ws_size++;
		EXPECT_EQ(0, submit_ok(self, t));
	}
}

TEST_F(op, ws_too_small_lowp_matmul)
{
	/* fp16/bf16 matmul needs 4*m*k + 4*k*n + 4*n even without transposes. */
	struct drm_vnpu_task t = vnpu_task_op(VNPU_OP_MATMUL, VNPU_DTYPE_BF16, 3, 5, 7, self->va,
					      self->va + 4096, self->va + 8192,
					      self->va + 12288, 4 * 3 * 7 + 4 * 7 * 5 + 4 * 5 - 4);

	EXPECT_EQ(-ENOSPC, submit(self, t));
	t.op.ws_size += 4;
	EXPECT_EQ(0, submit_ok(self, t));
}

TEST_F(op, ws_missing_entirely)
{
	struct drm_vnpu_task t = reduce(self);

	t.op.ws = 0;
	t.op.ws_size = 0;
	EXPECT_EQ(-ENOSPC, submit(self, t));
}

/* Alignment is checked before the workspace size. */
TEST_F(op, check_order_alignment_before_size)
{
	struct drm_vnpu_task t = reduce(self);

	t.op.ws += 2;
	t.op.ws_size = 1;
	EXPECT_EQ(-EINVAL, submit(self, t));
}

/* The workspace size is checked before any address. */
TEST_F(op, check_order_size_before_addresses)
{
	struct drm_vnpu_task t = reduce(self);

	t.op.in0 = 4096;
	t.op.ws_size = 4;
	EXPECT_EQ(-ENOSPC, submit(self, t));
}

/* ---------------------------------------------------------------- addresses */

TEST_F(op, in0_unmapped)
{
	struct drm_vnpu_task t = add(self);

	t.op.in0 = 4096;
	EXPECT_EQ(-ENXIO, submit(self, t));
}

TEST_F(op, in1_past_buffer_end)
{
	struct drm_vnpu_task t = add(self);

	t.op.in1 = self->va + BUF_SIZE - 4 * N + 4;
	EXPECT_EQ(-ENXIO, submit(self, t));
	/* The buffer's last 4*N bytes are fine. */
	t.op.in1 -= 4;
	EXPECT_EQ(0, submit_ok(self, t));
}

TEST_F(op, out_past_buffer_end)
{
	struct drm_vnpu_task t = reduce(self);

	/* REDUCE_SUM writes rows (2) elements. */
	t.op.out = self->va + BUF_SIZE - 4;
	EXPECT_EQ(-ENXIO, submit(self, t));
	t.op.out -= 4;
	EXPECT_EQ(0, submit_ok(self, t));
}

/* in0 is rows x cols x inner, a reduction's out rows x inner. */
TEST_F(op, inner_operand_sizes_checked)
{
	struct drm_vnpu_task t = reduce(self);	/* 2 x N fp32 */

	t.op.dims[2] = 4;
	t.op.ws_size = 8 * 4;
	t.op.in0 = self->va + BUF_SIZE - 2 * N * 4 * 4 + 4;
	EXPECT_EQ(-ENXIO, submit(self, t));
	t.op.in0 -= 4;
	t.op.out = self->va + 8192;
	EXPECT_EQ(0, submit_ok(self, t));
	t.op.in0 = self->va;
	t.op.out = self->va + BUF_SIZE - 2 * 4 * 4 + 4;
	EXPECT_EQ(-ENXIO, submit(self, t));
	t.op.out -= 4;
	EXPECT_EQ(0, submit_ok(self, t));
}

TEST_F(op, matmul_operand_sizes_checked)
{
	/* B is k x n = 4 x 4 fp16: 32 bytes; 30 left in the buffer is too few. */
	struct drm_vnpu_task t = matmul(self);

	t.op.in1 = self->va + BUF_SIZE - 30;
	EXPECT_EQ(-ENXIO, submit(self, t));
}

TEST_F(op, ws_past_buffer_end)
{
	struct drm_vnpu_task t = reduce(self);

	t.op.ws = self->va + BUF_SIZE - 4 * N + 4;
	EXPECT_EQ(-ENXIO, submit(self, t));
}

TEST_F(op, ws_unmapped)
{
	struct drm_vnpu_task t = reduce(self);

	t.op.ws = 8192ull << 20;
	EXPECT_EQ(-ENXIO, submit(self, t));
}

TEST_F(op, in0_range_wraps)
{
	struct drm_vnpu_task t = add(self);

	t.op.in0 = ~0ull - 15;	/* 16 bytes before 2^64; the operand is 64 */
	EXPECT_EQ(-EOVERFLOW, submit(self, t));
}

TEST_F(op, ws_range_wraps)
{
	struct drm_vnpu_task t = reduce(self);

	t.op.ws = ~0ull - 7;
	EXPECT_EQ(-EOVERFLOW, submit(self, t));
}

TEST_F(op, operand_of_closed_buffer)
{
	struct vnpu_buf b;
	struct drm_vnpu_task t = add(self);

	ASSERT_EQ(0, vnpu_buf_create(self->fd, 4096, &b));
	t.op.out = b.va;
	vnpu_buf_destroy(self->fd, &b);
	EXPECT_EQ(-ENXIO, submit(self, t));
}

TEST_F(op, operand_of_other_file)
{
	int fd2 = vnpu_open_device(0);
	struct drm_vnpu_task t = add(self);
	uint32_t handle;
	uint64_t va;

	ASSERT_GE(fd2, 0);
	/* Each file's VAs start at the same place: land past this file's buffer. */
	ASSERT_EQ(0, vnpu_bo_create(fd2, 16 << 20, 0, &handle, &va));
	ASSERT_EQ(0, vnpu_bo_create(fd2, 16 << 20, 0, &handle, &va));
	t.op.in0 = va;
	EXPECT_EQ(-ENXIO, submit(self, t));
	close(fd2);
}

/* ---------------------------------------------------------------- batches */

TEST_F(op, batch_with_one_bad_op_runs_nothing)
{
	float *in = self->buf.cpu;
	struct drm_vnpu_task t[3] = {
		add(self),
		vnpu_task_write32(self->va + 16384, 1),
		reduce(self),
	};

	for (int i = 0; i < N; i++)
		in[i] = 1.0f;
	t[2].op.ws_size = 4;
	EXPECT_EQ(-ENOSPC, vnpu_submit(self->fd, self->stream, t, 3, NULL, 0, 0, 0, NULL));
	usleep(20000);
	EXPECT_EQ(0, ((float *)((char *)self->buf.cpu + 8192))[0]);
	EXPECT_EQ(0, ((uint32_t *)self->buf.cpu)[4096]);
}

TEST_HARNESS_MAIN
