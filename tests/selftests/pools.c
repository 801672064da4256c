// SPDX-License-Identifier: GPL-2.0
/*
 * Pools bound to streams: POOL_BIND, POOL_UNBIND and POOL_QUERY with every
 * bad input and its exact errno; idempotent binds, merging of overlapping
 * and adjacent ranges of one buffer (and not of two), unbind cutting and
 * splitting ranges, the range limit; streams that require pool workspace
 * rejecting workspace outside their pool, straddling a pool edge or in
 * another stream's pool (-EACCES); memory that stays alive while bound after
 * its handle is closed, used by running jobs (slub_debug watches for use
 * after free), and released at unbind or stream destroy (MEM_USED); unbind
 * with jobs in flight; exact per-stream and per-file counters, file totals
 * after a stream is destroyed, fdinfo's per-stream lines and the debugfs
 * pools file (every counter, exactly).
 *
 * The operators are lib/ops plans the engine server runs: a ReduceSumD
 * over the last axis needs 4 * cols bytes of workspace (plan.ws_bytes),
 * its WORKSPACE operand, which is what pools, REQUIRE_POOL and the
 * workspace counters are about.
 */
#include <stdio.h>

#include "harness/harness.h"
#include "lib/vnpu_bo_util.h"
#include "lib/vnpu_pool_util.h"
#include "lib/vnpu_stream_util.h"
#include "lib/vnpu_test.h"

#define BUF_SIZE (1u << 20)
#define KiB 1024ull

FIXTURE(pool) {
	int fd;
	uint32_t s1, s2;
	struct vnpu_buf a, b, data;
};

FIXTURE_SETUP(pool)
{
	self->fd = vnpu_open_device(0);
	ASSERT_GE(self->fd, 0) TH_LOG("no vnpu render node");
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &self->s1));
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &self->s2));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, BUF_SIZE, &self->a));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, BUF_SIZE, &self->b));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, BUF_SIZE, &self->data));
}

FIXTURE_TEARDOWN(pool)
{
	vnpu_buf_destroy(self->fd, &self->a);
	vnpu_buf_destroy(self->fd, &self->b);
	vnpu_buf_destroy(self->fd, &self->data);
	close(self->fd);
}

/* Ranges of @stream, into @r (up to 8); returns how many are bound. */
static uint32_t ranges_of(int fd, uint32_t stream, struct drm_vnpu_pool_range *r)
{
	uint32_t count = 0;

	memset(r, 0, 8 * sizeof(*r));
	if (vnpu_pool_query(fd, stream, r, 8, &count, NULL))
		return ~0u;
	return count;
}

/*
 * ReduceSumD over the last axis of @rows x @cols fp32 ones at data+0 into
 * data+512K, with its workspace (plan.ws_bytes, 4 * cols) at @ws.
 */
static void reduce_ones(FIXTURE_DATA(pool) *self, struct vnpu_op *op, uint64_t rows,
			uint64_t cols, uint64_t ws)
{
	float *in = self->data.cpu;

	for (uint64_t i = 0; i < rows * cols; i++)
		in[i] = 1.0f;
	memset((char *)self->data.cpu + 512 * KiB, 0, rows * 4);
	if (vnpu_op_rows(op, "ReduceSumD", ACL_FLOAT, rows, cols, 0) ||
	    op->plan.ws_bytes != 4 * cols)
		abort();
	vnpu_op_set_va(op, self->data.va, 0, self->data.va + 512 * KiB, ws);
}

/* @op with its workspace moved to @ws. */
static void move_ws(struct vnpu_op *op, uint64_t ws)
{
	vnpu_op_ws(op)->va = ws;
	vnpu_op_encode(op);
}

/* Relu of 16 fp32 at @in into @out: an operator without workspace. */
static void relu16(struct vnpu_op *op, uint64_t in, uint64_t out)
{
	if (vnpu_op_eltwise(op, "Relu", ACL_FLOAT, 16, 0) || op->plan.ws_bytes)
		abort();
	vnpu_op_set_va(op, in, 0, out, 0);
}

/* The host opens the gate word at data+1000K (and tells the device). */
static int open_gate(FIXTURE_DATA(pool) *self)
{
	return vnpu_buf_write32(self->fd, &self->data, 1000 * KiB, 1);
}

/* Every row of reduce_ones() summed to @cols. */
static bool reduce_ones_done(FIXTURE_DATA(pool) *self, uint64_t rows, uint64_t cols)
{
	const float *out = (const float *)((char *)self->data.cpu + 512 * KiB);

	for (uint64_t i = 0; i < rows; i++)
		if (out[i] != (float)cols)
			return false;
	return true;
}

static uint64_t mem_used(int fd)
{
	return vnpu_param(fd, VNPU_PARAM_MEM_USED);
}

/* ---------------------------------------------------------------- bind: bad input */

TEST_F(pool, bind_flags)
{
	struct drm_vnpu_pool_bind args = {
		.stream_id = self->s1, .flags = 1, .va = self->a.va, .size = 4096,
	};

	EXPECT_EQ(-EINVAL, vnpu_ioctl(self->fd, DRM_IOCTL_VNPU_POOL_BIND, &args));
	args.flags = 1u << 31;
	EXPECT_EQ(-EINVAL, vnpu_ioctl(self->fd, DRM_IOCTL_VNPU_POOL_BIND, &args));
	EXPECT_EQ(0, ranges_of(self->fd, self->s1, (struct drm_vnpu_pool_range[8]){}));
}

TEST_F(pool, bind_size_zero)
{
	EXPECT_EQ(-EINVAL, vnpu_pool_bind(self->fd, self->s1, self->a.va, 0));
}

TEST_F(pool, bind_unknown_stream)
{
	EXPECT_EQ(-ENOENT, vnpu_pool_bind(self->fd, 0, self->a.va, 4096));
	EXPECT_EQ(-ENOENT, vnpu_pool_bind(self->fd, 0xdead, self->a.va, 4096));
}

TEST_F(pool, bind_destroyed_stream)
{
	ASSERT_EQ(0, vnpu_stream_destroy(self->fd, self->s2));
	EXPECT_EQ(-ENOENT, vnpu_pool_bind(self->fd, self->s2, self->a.va, 4096));
}

TEST_F(pool, bind_unmapped)
{
	EXPECT_EQ(-ENXIO, vnpu_pool_bind(self->fd, self->s1, 4096, 4096));
	EXPECT_EQ(-ENXIO, vnpu_pool_bind(self->fd, self->s1, VNPU_VA_END, 4096));
}

TEST_F(pool, bind_past_buffer_end)
{
	EXPECT_EQ(-ENXIO, vnpu_pool_bind(self->fd, self->s1, self->a.va + BUF_SIZE - 4096, 4097));
	EXPECT_EQ(-ENXIO, vnpu_pool_bind(self->fd, self->s1, self->a.va, BUF_SIZE + 1));
	/* The whole buffer, to its last byte, is fine. */
	EXPECT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va, BUF_SIZE));
}

TEST_F(pool, bind_wraps)
{
	EXPECT_EQ(-EOVERFLOW, vnpu_pool_bind(self->fd, self->s1, self->a.va, ~0ull));
	EXPECT_EQ(-EOVERFLOW, vnpu_pool_bind(self->fd, self->s1, ~0ull - 10, 11));
}

TEST_F(pool, bind_other_files_buffer)
{
	int fd2 = vnpu_open_device(0);
	uint32_t handle;
	uint64_t va;

	ASSERT_GE(fd2, 0);
	/* Each file's VAs start at the same place: land past this file's buffers. */
	ASSERT_EQ(0, vnpu_bo_create(fd2, 16 << 20, 0, &handle, &va));
	ASSERT_EQ(0, vnpu_bo_create(fd2, 16 << 20, 0, &handle, &va));
	EXPECT_EQ(-ENXIO, vnpu_pool_bind(self->fd, self->s1, va, 4096));
	close(fd2);
}

TEST_F(pool, bind_freed_buffer)
{
	struct vnpu_buf c;

	ASSERT_EQ(0, vnpu_buf_create(self->fd, 8192, &c));
	uint64_t va = c.va;

	vnpu_buf_destroy(self->fd, &c);
	EXPECT_EQ(-ENXIO, vnpu_pool_bind(self->fd, self->s1, va, 4096));
}

TEST_F(pool, bind_bad_struct_pointer)
{
	EXPECT_EQ(-EFAULT, vnpu_ioctl(self->fd, DRM_IOCTL_VNPU_POOL_BIND, (void *)8));
}

TEST_F(pool, failed_binds_change_nothing)
{
	struct drm_vnpu_pool_stats s;

	vnpu_pool_bind(self->fd, self->s1, self->a.va, 0);
	vnpu_pool_bind(self->fd, self->s1, 4096, 4096);
	vnpu_pool_bind(self->fd, self->s1, self->a.va, ~0ull);
	s = vnpu_pool_stats(self->fd, self->s1);
	EXPECT_EQ(0, s.binds);
	EXPECT_EQ(0, s.bytes_bound);
	s = vnpu_pool_stats(self->fd, 0);
	EXPECT_EQ(0, s.binds);
}

/* ---------------------------------------------------------------- unbind: bad input */

TEST_F(pool, unbind_flags)
{
	struct drm_vnpu_pool_bind args = {
		.stream_id = self->s1, .flags = 2, .va = self->a.va, .size = 4096,
	};

	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va, 4096));
	EXPECT_EQ(-EINVAL, vnpu_ioctl(self->fd, DRM_IOCTL_VNPU_POOL_UNBIND, &args));
	EXPECT_EQ(4096, vnpu_pool_stats(self->fd, self->s1).bytes_bound);
}

TEST_F(pool, unbind_size_zero)
{
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va, 4096));
	EXPECT_EQ(-EINVAL, vnpu_pool_unbind(self->fd, self->s1, self->a.va, 0));
}

TEST_F(pool, unbind_unknown_stream)
{
	EXPECT_EQ(-ENOENT, vnpu_pool_unbind(self->fd, 0, self->a.va, 4096));
	EXPECT_EQ(-ENOENT, vnpu_pool_unbind(self->fd, 12345, self->a.va, 4096));
}

TEST_F(pool, unbind_not_bound)
{
	EXPECT_EQ(-ENOENT, vnpu_pool_unbind(self->fd, self->s1, self->a.va, 4096));
	/* Bound to another stream is not bound to this one. */
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s2, self->a.va, 4096));
	EXPECT_EQ(-ENOENT, vnpu_pool_unbind(self->fd, self->s1, self->a.va, 4096));
	EXPECT_EQ(4096, vnpu_pool_stats(self->fd, self->s2).bytes_bound);
}

TEST_F(pool, unbind_partly_bound_changes_nothing)
{
	struct drm_vnpu_pool_range r[8];

	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va + 4096, 8192));
	EXPECT_EQ(-ENOENT, vnpu_pool_unbind(self->fd, self->s1, self->a.va, 8192));
	EXPECT_EQ(-ENOENT, vnpu_pool_unbind(self->fd, self->s1, self->a.va + 8192, 8192));
	EXPECT_EQ(-ENOENT, vnpu_pool_unbind(self->fd, self->s1, self->a.va, BUF_SIZE));
	ASSERT_EQ(1, ranges_of(self->fd, self->s1, r));
	EXPECT_EQ(self->a.va + 4096, r[0].va);
	EXPECT_EQ(8192, r[0].size);
	EXPECT_EQ(0, vnpu_pool_stats(self->fd, self->s1).unbinds);
}

TEST_F(pool, unbind_wraps)
{
	EXPECT_EQ(-EOVERFLOW, vnpu_pool_unbind(self->fd, self->s1, ~0ull - 10, 12));
}

/* ---------------------------------------------------------------- query: bad input */

TEST_F(pool, query_flags_and_pad)
{
	struct drm_vnpu_pool_query q = { .stream_id = self->s1, .flags = 1 };

	EXPECT_EQ(-EINVAL, vnpu_ioctl(self->fd, DRM_IOCTL_VNPU_POOL_QUERY, &q));
	q.flags = 0;
	q.pad = 1;
	EXPECT_EQ(-EINVAL, vnpu_ioctl(self->fd, DRM_IOCTL_VNPU_POOL_QUERY, &q));
}

TEST_F(pool, query_unknown_stream)
{
	EXPECT_EQ(-ENOENT, vnpu_pool_query(self->fd, 777, NULL, 0, NULL, NULL));
}

TEST_F(pool, query_bad_ranges_pointer)
{
	struct drm_vnpu_pool_query q = {
		.stream_id = self->s1, .range_count = 4, .ranges = 16,
	};

	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va, 4096));
	EXPECT_EQ(-EFAULT, vnpu_ioctl(self->fd, DRM_IOCTL_VNPU_POOL_QUERY, &q));
}

/* ---------------------------------------------------------------- ranges */

TEST_F(pool, bind_twice_is_idempotent)
{
	struct drm_vnpu_pool_range r[8];
	struct drm_vnpu_pool_stats s;

	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va + 4096, 8192));
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va + 4096, 8192));
	/* A part of a bound range is bound already too. */
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va + 5000, 100));
	ASSERT_EQ(1, ranges_of(self->fd, self->s1, r));
	EXPECT_EQ(self->a.va + 4096, r[0].va);
	EXPECT_EQ(8192, r[0].size);
	s = vnpu_pool_stats(self->fd, self->s1);
	EXPECT_EQ(1, s.binds);
	EXPECT_EQ(8192, s.bytes_bound);
}

TEST_F(pool, adjacent_ranges_merge)
{
	struct drm_vnpu_pool_range r[8];

	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va, 4096));
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va + 4096, 4096));
	ASSERT_EQ(1, ranges_of(self->fd, self->s1, r));
	EXPECT_EQ(self->a.va, r[0].va);
	EXPECT_EQ(8192, r[0].size);
	/* And from below. */
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va + 16384, 4096));
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va + 12288, 4096));
	ASSERT_EQ(2, ranges_of(self->fd, self->s1, r));
	EXPECT_EQ(self->a.va + 12288, r[1].va);
	EXPECT_EQ(8192, r[1].size);
	EXPECT_EQ(16384, vnpu_pool_stats(self->fd, self->s1).bytes_bound);
	EXPECT_EQ(4, vnpu_pool_stats(self->fd, self->s1).binds);
}

TEST_F(pool, overlapping_ranges_merge)
{
	struct drm_vnpu_pool_range r[8];

	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va, 4096));
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va + 2048, 4096));
	ASSERT_EQ(1, ranges_of(self->fd, self->s1, r));
	EXPECT_EQ(6144, r[0].size);
	EXPECT_EQ(6144, vnpu_pool_stats(self->fd, self->s1).bytes_bound);
}

TEST_F(pool, bind_bridges_ranges)
{
	struct drm_vnpu_pool_range r[8];

	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va, 1000));
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va + 2000, 1000));
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va + 4000, 1000));
	ASSERT_EQ(3, ranges_of(self->fd, self->s1, r));
	/* One bind covering the gaps and more joins all three. */
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va + 500, 5000));
	ASSERT_EQ(1, ranges_of(self->fd, self->s1, r));
	EXPECT_EQ(self->a.va, r[0].va);
	EXPECT_EQ(5500, r[0].size);
	EXPECT_EQ(5500, vnpu_pool_stats(self->fd, self->s1).bytes_bound);
}

/* Two buffers next to each other in VA space: their ranges touch but stay apart. */
TEST_F(pool, touching_ranges_of_two_buffers_stay_apart)
{
	int fd = vnpu_open_device(0);
	struct drm_vnpu_pool_range r[8];
	uint32_t s, h1, h2;
	uint64_t v1, v2;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, vnpu_stream_create(fd, VNPU_PRIORITY_NORMAL, &s));
	ASSERT_EQ(0, vnpu_bo_create(fd, 8192, 0, &h1, &v1));
	ASSERT_EQ(0, vnpu_bo_create(fd, 8192, 0, &h2, &v2));
	/* A fresh address space hands them out back to back. */
	ASSERT_EQ(v1 + 8192, v2);
	ASSERT_EQ(0, vnpu_pool_bind(fd, s, v1, 8192));
	ASSERT_EQ(0, vnpu_pool_bind(fd, s, v2, 8192));
	EXPECT_EQ(2, ranges_of(fd, s, r));
	/* And a range across both is not one buffer. */
	EXPECT_EQ(-ENXIO, vnpu_pool_bind(fd, s, v1 + 4096, 8192));
	EXPECT_EQ(-ENOENT, vnpu_pool_unbind(fd, s, v1 + 4096, 8192));
	close(fd);
}

TEST_F(pool, unbind_whole_and_ends)
{
	struct drm_vnpu_pool_range r[8];

	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va, 16384));
	ASSERT_EQ(0, vnpu_pool_unbind(self->fd, self->s1, self->a.va, 4096));
	ASSERT_EQ(1, ranges_of(self->fd, self->s1, r));
	EXPECT_EQ(self->a.va + 4096, r[0].va);
	EXPECT_EQ(12288, r[0].size);
	ASSERT_EQ(0, vnpu_pool_unbind(self->fd, self->s1, self->a.va + 12288, 4096));
	ASSERT_EQ(1, ranges_of(self->fd, self->s1, r));
	EXPECT_EQ(8192, r[0].size);
	ASSERT_EQ(0, vnpu_pool_unbind(self->fd, self->s1, self->a.va + 4096, 8192));
	EXPECT_EQ(0, ranges_of(self->fd, self->s1, r));
	EXPECT_EQ(0, vnpu_pool_stats(self->fd, self->s1).bytes_bound);
	EXPECT_EQ(3, vnpu_pool_stats(self->fd, self->s1).unbinds);
	/* Gone means gone. */
	EXPECT_EQ(-ENOENT, vnpu_pool_unbind(self->fd, self->s1, self->a.va + 4096, 1));
}

TEST_F(pool, unbind_splits_range)
{
	struct drm_vnpu_pool_range r[8];

	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va, 16384));
	ASSERT_EQ(0, vnpu_pool_unbind(self->fd, self->s1, self->a.va + 4096, 4096));
	ASSERT_EQ(2, ranges_of(self->fd, self->s1, r));
	EXPECT_EQ(self->a.va, r[0].va);
	EXPECT_EQ(4096, r[0].size);
	EXPECT_EQ(self->a.va + 8192, r[1].va);
	EXPECT_EQ(8192, r[1].size);
	EXPECT_EQ(12288, vnpu_pool_stats(self->fd, self->s1).bytes_bound);
	/* Binding the hole again joins them. */
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va + 4096, 4096));
	EXPECT_EQ(1, ranges_of(self->fd, self->s1, r));
	EXPECT_EQ(16384, vnpu_pool_stats(self->fd, self->s1).bytes_bound);
}

TEST_F(pool, query_capacity_and_order)
{
	struct drm_vnpu_pool_range r[4];
	uint32_t count;

	memset(r, 0xee, sizeof(r));
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->b.va + 8192, 100));
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va + 8192, 200));
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va, 300));
	ASSERT_EQ(0, vnpu_pool_query(self->fd, self->s1, r, 2, &count, NULL));
	EXPECT_EQ(3, count);
	/* In VA order (a was created before b, so it lies lower). */
	EXPECT_EQ(self->a.va, r[0].va);
	EXPECT_EQ(300, r[0].size);
	EXPECT_EQ(self->a.va + 8192, r[1].va);
	EXPECT_EQ(200, r[1].size);
	EXPECT_EQ(0xeeeeeeeeeeeeeeeeull, r[2].va);
	/* Capacity 0 just counts. */
	ASSERT_EQ(0, vnpu_pool_query(self->fd, self->s1, NULL, 0, &count, NULL));
	EXPECT_EQ(3, count);
}

TEST_F_TIMEOUT(pool, range_limit, 120)
{
	uint64_t bound = 4ull * VNPU_MAX_POOL_RANGES;
	uint32_t count;
	unsigned int i;

	/* VNPU_MAX_POOL_RANGES ranges of 4 bytes with 4-byte gaps. */
	for (i = 0; i < VNPU_MAX_POOL_RANGES; i++)
		ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va + 8 * i, 4));
	ASSERT_EQ(0, vnpu_pool_query(self->fd, self->s1, NULL, 0, &count, NULL));
	EXPECT_EQ(VNPU_MAX_POOL_RANGES, count);
	/* One more separate range does not fit, nor does a split. */
	EXPECT_EQ(-ENOSPC, vnpu_pool_bind(self->fd, self->s1, self->b.va, 4096));
	EXPECT_EQ(-ENOSPC, vnpu_pool_unbind(self->fd, self->s1, self->a.va + 1, 1));
	EXPECT_EQ(bound, vnpu_pool_stats(self->fd, self->s1).bytes_bound);
	EXPECT_EQ(VNPU_MAX_POOL_RANGES, vnpu_pool_stats(self->fd, self->s1).binds);
	/* Another stream has its own limit. */
	EXPECT_EQ(0, vnpu_pool_bind(self->fd, self->s2, self->b.va, 4096));
	/* A bind that merges two ranges makes room for one more. */
	EXPECT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va + 4, 4));
	EXPECT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->b.va, 4096));
	ASSERT_EQ(0, vnpu_pool_query(self->fd, self->s1, NULL, 0, &count, NULL));
	EXPECT_EQ(VNPU_MAX_POOL_RANGES, count);
	EXPECT_EQ(bound + 4 + 4096, vnpu_pool_stats(self->fd, self->s1).bytes_bound);
	/* Cutting off an end needs no new range. */
	EXPECT_EQ(0, vnpu_pool_unbind(self->fd, self->s1, self->b.va, 1024));
	EXPECT_EQ(bound + 4 + 3072, vnpu_pool_stats(self->fd, self->s1).bytes_bound);
}

/* ---------------------------------------------------------------- require pool */

TEST_F(pool, require_pool_accepts_workspace_in_pool)
{
	struct vnpu_op t;

	reduce_ones(self, &t, 8, 256, self->a.va + 4096);
	ASSERT_EQ(0, vnpu_stream_set_param(self->fd, self->s1, VNPU_STREAM_PARAM_REQUIRE_POOL, 1));
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va, 8192));
	ASSERT_EQ(0, vnpu_op_submit_wait(self->fd, self->s1, &t, NULL));
	EXPECT_TRUE(reduce_ones_done(self, 8, 256));
	/* The pool's last bytes are in the pool. */
	reduce_ones(self, &t, 8, 256, self->a.va + 8192 - 1024);
	EXPECT_EQ(0, vnpu_op_submit_wait(self->fd, self->s1, &t, NULL));
	EXPECT_TRUE(reduce_ones_done(self, 8, 256));
}

TEST_F(pool, require_pool_allows_operators_without_workspace)
{
	struct vnpu_op t;

	relu16(&t, self->data.va, self->data.va + 4096);
	ASSERT_EQ(0, vnpu_stream_set_param(self->fd, self->s1, VNPU_STREAM_PARAM_REQUIRE_POOL, 1));
	EXPECT_EQ(0, vnpu_op_submit_wait(self->fd, self->s1, &t, NULL));
}

TEST_F(pool, require_pool_rejects_workspace_outside)
{
	struct vnpu_op t;

	reduce_ones(self, &t, 2, 16, self->a.va + 65536);
	ASSERT_EQ(0, vnpu_stream_set_param(self->fd, self->s1, VNPU_STREAM_PARAM_REQUIRE_POOL, 1));
	/* No pool at all. */
	EXPECT_EQ(-EACCES, vnpu_op_submit_wait(self->fd, self->s1, &t, NULL));
	/* A pool elsewhere in the same buffer. */
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va, 4096));
	EXPECT_EQ(-EACCES, vnpu_op_submit_wait(self->fd, self->s1, &t, NULL));
	/* Not even memory of a buffer at all. */
	move_ws(&t, 1ull << 40);
	EXPECT_EQ(-EACCES, vnpu_op_submit_wait(self->fd, self->s1, &t, NULL));
	EXPECT_EQ(0, vnpu_stream_query(self->fd, self->s1, &(struct drm_vnpu_stream_query){}));
	EXPECT_EQ(0, vnpu_pool_stats(self->fd, self->s1).ws_tasks);
}

TEST_F(pool, require_pool_rejects_straddling_pool_edge)
{
	/* 64 bytes of workspace: 32 inside the pool, 32 after it. */
	struct vnpu_op t;

	reduce_ones(self, &t, 2, 16, self->a.va + 4096 - 32);
	ASSERT_EQ(0, vnpu_stream_set_param(self->fd, self->s1, VNPU_STREAM_PARAM_REQUIRE_POOL, 1));
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va, 4096));
	EXPECT_EQ(-EACCES, vnpu_op_submit_wait(self->fd, self->s1, &t, NULL));
	/* And before its start. */
	ASSERT_EQ(0, vnpu_pool_unbind(self->fd, self->s1, self->a.va, 4096));
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va + 4096, 4096));
	EXPECT_EQ(-EACCES, vnpu_op_submit_wait(self->fd, self->s1, &t, NULL));
	/* Once all of it is bound, it runs. */
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va + 4000, 96));
	EXPECT_EQ(0, vnpu_op_submit_wait(self->fd, self->s1, &t, NULL));
	EXPECT_TRUE(reduce_ones_done(self, 2, 16));
}

TEST_F(pool, require_pool_rejects_other_streams_pool)
{
	struct vnpu_op t;

	reduce_ones(self, &t, 2, 16, self->b.va);
	ASSERT_EQ(0, vnpu_stream_set_param(self->fd, self->s1, VNPU_STREAM_PARAM_REQUIRE_POOL, 1));
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va, 4096));
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s2, self->b.va, 4096));
	EXPECT_EQ(-EACCES, vnpu_op_submit_wait(self->fd, self->s1, &t, NULL));
	/* s2 itself may use it. */
	ASSERT_EQ(0, vnpu_stream_set_param(self->fd, self->s2, VNPU_STREAM_PARAM_REQUIRE_POOL, 1));
	EXPECT_EQ(0, vnpu_op_submit_wait(self->fd, self->s2, &t, NULL));
	EXPECT_TRUE(reduce_ones_done(self, 2, 16));
}

TEST_F(pool, require_pool_checks_every_task_of_a_batch)
{
	struct vnpu_op in_pool, outside;
	struct vnpu_job job;

	reduce_ones(self, &in_pool, 2, 16, self->a.va);
	reduce_ones(self, &outside, 2, 16, self->a.va + 8192);
	vnpu_job_init(&job);
	vnpu_job_add_op(&job, &in_pool);
	vnpu_job_add(&job, vnpu_task_write32(self->data.va + 900 * KiB, 1));
	vnpu_job_add_op(&job, &outside);
	ASSERT_EQ(0, vnpu_stream_set_param(self->fd, self->s1, VNPU_STREAM_PARAM_REQUIRE_POOL, 1));
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va, 4096));
	EXPECT_EQ(-EACCES, vnpu_job_submit_wait(self->fd, self->s1, &job, NULL));
	usleep(10000);
	EXPECT_EQ(0, *(uint32_t *)((char *)self->data.cpu + 900 * KiB));
}

TEST_F(pool, require_pool_off_allows_any_workspace)
{
	struct vnpu_op t;

	reduce_ones(self, &t, 2, 16, self->b.va);
	ASSERT_EQ(0, vnpu_stream_set_param(self->fd, self->s1, VNPU_STREAM_PARAM_REQUIRE_POOL, 1));
	EXPECT_EQ(-EACCES, vnpu_op_submit_wait(self->fd, self->s1, &t, NULL));
	ASSERT_EQ(0, vnpu_stream_set_param(self->fd, self->s1, VNPU_STREAM_PARAM_REQUIRE_POOL, 0));
	EXPECT_EQ(0, vnpu_op_submit_wait(self->fd, self->s1, &t, NULL));
	EXPECT_TRUE(reduce_ones_done(self, 2, 16));
}

TEST_F(pool, unbound_workspace_rejected_afterwards)
{
	struct vnpu_op t;

	reduce_ones(self, &t, 2, 16, self->a.va);
	ASSERT_EQ(0, vnpu_stream_set_param(self->fd, self->s1, VNPU_STREAM_PARAM_REQUIRE_POOL, 1));
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va, 4096));
	EXPECT_EQ(0, vnpu_op_submit_wait(self->fd, self->s1, &t, NULL));
	ASSERT_EQ(0, vnpu_pool_unbind(self->fd, self->s1, self->a.va, 4096));
	EXPECT_EQ(-EACCES, vnpu_op_submit_wait(self->fd, self->s1, &t, NULL));
}

/* ---------------------------------------------------------------- lifetime */

/*
 * The buffer's handle (and mmap) goes while bound: the memory stays, a job
 * can still use it as workspace through the pool (the VA no longer
 * resolves otherwise), and it is released when unbound.
 */
TEST_F(pool, freed_buffer_stays_while_bound)
{
	struct vnpu_buf c;
	struct vnpu_op t;
	uint64_t before, va;

	before = mem_used(self->fd);
	ASSERT_EQ(0, vnpu_buf_create(self->fd, 256 * KiB, &c));
	va = c.va;
	EXPECT_EQ(before + 256 * KiB, mem_used(self->fd));
	ASSERT_EQ(0, vnpu_stream_set_param(self->fd, self->s1, VNPU_STREAM_PARAM_REQUIRE_POOL, 1));
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, va, 128 * KiB));
	vnpu_buf_destroy(self->fd, &c);
	EXPECT_EQ(before + 256 * KiB, mem_used(self->fd));

	reduce_ones(self, &t, 64, 1024, va + 4096);
	ASSERT_EQ(0, vnpu_op_submit_wait(self->fd, self->s1, &t, NULL));
	EXPECT_TRUE(reduce_ones_done(self, 64, 1024));
	/* Only through the pool: as an ordinary address (READ) it is gone. */
	relu16(&t, va, self->data.va);
	EXPECT_EQ(-ENXIO, vnpu_op_submit_wait(self->fd, self->s1, &t, NULL));
	EXPECT_EQ(-ENXIO, vnpu_pool_bind(self->fd, self->s1, va + 128 * KiB, 4096));
	/* Still listed. */
	EXPECT_EQ(128 * KiB, vnpu_pool_stats(self->fd, self->s1).bytes_bound);

	/* Unbinding a part keeps the buffer; unbinding the rest frees it. */
	ASSERT_EQ(0, vnpu_pool_unbind(self->fd, self->s1, va, 4096));
	EXPECT_EQ(before + 256 * KiB, mem_used(self->fd));
	ASSERT_EQ(0, vnpu_pool_unbind(self->fd, self->s1, va + 4096, 124 * KiB));
	EXPECT_EQ(0, vnpu_wait_no_jobs(0, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(before, mem_used(self->fd));
}

/*
 * Jobs queued behind a wait use workspace in a buffer whose handle is
 * closed; the range is unbound while they wait. They run correctly when
 * released, and the memory goes only after the last of them.
 */
TEST_F_TIMEOUT(pool, freed_and_unbound_while_jobs_run, 60)
{
	struct vnpu_buf c;
	uint32_t sync;
	uint64_t before, va;
	volatile uint32_t *gate = (volatile uint32_t *)((char *)self->data.cpu + 1000 * KiB);
	struct drm_vnpu_task wait = vnpu_task_wait32(self->data.va + 1000 * KiB, VNPU_WAIT_EQ, 1);
	struct vnpu_op t;
	struct vnpu_job job;

	*gate = 0;
	before = mem_used(self->fd);
	ASSERT_EQ(0, vnpu_buf_create(self->fd, 256 * KiB, &c));
	va = c.va;
	memset(c.cpu, 0x77, 256 * KiB);
	ASSERT_EQ(0, vnpu_stream_set_param(self->fd, self->s1, VNPU_STREAM_PARAM_REQUIRE_POOL, 1));
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, va, 256 * KiB));
	ASSERT_EQ(0, vnpu_submit(self->fd, self->s1, &wait, 1, NULL, 0, 0, 0, NULL));
	vnpu_job_init(&job);
	for (int i = 0; i < 4; i++) {
		reduce_ones(self, &t, 32, 4096, va + i * 16 * KiB);
		vnpu_job_add_op(&job, &t);
	}
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sync));
	ASSERT_EQ(0, vnpu_job_submit(self->fd, self->s1, &job, NULL, 0, sync, 0, NULL));

	/* Free the handle, then unbind everything, while the jobs wait. */
	vnpu_buf_destroy(self->fd, &c);
	ASSERT_EQ(0, vnpu_pool_unbind(self->fd, self->s1, va, 256 * KiB));
	EXPECT_EQ(0, vnpu_pool_stats(self->fd, self->s1).bytes_bound);
	EXPECT_EQ(before + 256 * KiB, mem_used(self->fd));
	/* New work cannot use it any more. */
	EXPECT_EQ(-EACCES, vnpu_op_submit(self->fd, self->s1, &t, 0, NULL));

	ASSERT_EQ(0, open_gate(self));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, sync, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(1, vnpu_syncobj_fence_status(self->fd, sync));
	EXPECT_TRUE(reduce_ones_done(self, 32, 4096));
	EXPECT_EQ(0, vnpu_wait_no_jobs(0, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(before, mem_used(self->fd));
	vnpu_syncobj_destroy(self->fd, sync);
}

/* Unbinding with jobs in flight ends the binding for new jobs only. */
TEST_F_TIMEOUT(pool, unbind_with_jobs_in_flight, 60)
{
	volatile uint32_t *gate = (volatile uint32_t *)((char *)self->data.cpu + 1000 * KiB);
	struct drm_vnpu_task wait = vnpu_task_wait32(self->data.va + 1000 * KiB, VNPU_WAIT_EQ, 1);
	struct drm_vnpu_stream_query q;
	struct vnpu_op t;
	uint64_t seqno;

	reduce_ones(self, &t, 16, 2048, self->a.va);
	*gate = 0;
	ASSERT_EQ(0, vnpu_stream_set_param(self->fd, self->s1, VNPU_STREAM_PARAM_REQUIRE_POOL, 1));
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va, 64 * KiB));
	ASSERT_EQ(0, vnpu_submit(self->fd, self->s1, &wait, 1, NULL, 0, 0, 0, NULL));
	for (int i = 0; i < 8; i++)
		ASSERT_EQ(0, vnpu_op_submit(self->fd, self->s1, &t, 0, &seqno));
	ASSERT_EQ(0, vnpu_pool_unbind(self->fd, self->s1, self->a.va, 64 * KiB));
	EXPECT_EQ(-EACCES, vnpu_op_submit(self->fd, self->s1, &t, 0, NULL));
	ASSERT_EQ(0, open_gate(self));
	ASSERT_EQ(0, vnpu_stream_wait_seqno(self->fd, self->s1, seqno, VNPU_WAIT_FOREVER_NS));
	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->s1, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_NONE, q.error);
	EXPECT_TRUE(reduce_ones_done(self, 16, 2048));
}

/* Destroying the stream releases its bindings (and the memory they kept). */
TEST_F(pool, destroy_stream_releases_bound_memory)
{
	struct vnpu_buf c;
	uint64_t before;

	before = mem_used(self->fd);
	ASSERT_EQ(0, vnpu_buf_create(self->fd, 512 * KiB, &c));
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, c.va, 4096));
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s2, c.va + 8192, 4096));
	vnpu_buf_destroy(self->fd, &c);
	EXPECT_EQ(before + 512 * KiB, mem_used(self->fd));
	ASSERT_EQ(0, vnpu_stream_destroy(self->fd, self->s1));
	EXPECT_EQ(before + 512 * KiB, mem_used(self->fd));
	ASSERT_EQ(0, vnpu_stream_destroy(self->fd, self->s2));
	EXPECT_EQ(before, mem_used(self->fd));
}

/* Closing the file releases everything, bound freed buffers included. */
TEST_F(pool, file_close_releases_bound_memory)
{
	int fd = vnpu_open_device(0);
	uint64_t before = mem_used(self->fd), va;
	uint32_t s, h;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, vnpu_stream_create(fd, VNPU_PRIORITY_NORMAL, &s));
	ASSERT_EQ(0, vnpu_bo_create(fd, 1 << 20, 0, &h, &va));
	ASSERT_EQ(0, vnpu_pool_bind(fd, s, va, 1 << 20));
	ASSERT_EQ(0, vnpu_bo_close(fd, h));
	EXPECT_EQ(before + (1 << 20), mem_used(self->fd));
	close(fd);
	EXPECT_EQ(0, vnpu_wait_no_jobs(0, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(before, mem_used(self->fd));
}

/* A buffer shared with another file stays that file's: binding there works too. */
TEST_F(pool, prime_shared_buffer_binds_in_both_files)
{
	int fd2 = vnpu_open_device(0), dmabuf;
	struct drm_vnpu_bo_info info;
	uint32_t s, h2;

	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, vnpu_prime_export(self->fd, self->a.handle, &dmabuf));
	ASSERT_EQ(0, vnpu_prime_import(fd2, dmabuf, &h2));
	ASSERT_EQ(0, vnpu_bo_info(fd2, h2, &info));
	ASSERT_EQ(0, vnpu_stream_create(fd2, VNPU_PRIORITY_NORMAL, &s));
	EXPECT_EQ(0, vnpu_pool_bind(fd2, s, info.va, 4096));
	EXPECT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va, 4096));
	/* Each file names it by its own VA. */
	if (info.va != self->a.va)
		EXPECT_EQ(-ENXIO, vnpu_pool_bind(fd2, s, self->a.va, 4096));
	close(dmabuf);
	close(fd2);
}

/* ---------------------------------------------------------------- counters */

TEST_F(pool, counters_exact)
{
	struct drm_vnpu_pool_stats s1, s2, tot;
	struct vnpu_op small, add, large, other;
	struct vnpu_job job;
	uint64_t ws1, ws2;

	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va, 8192));
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va, 8192));	/* no-op */
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->b.va, 4096));
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s2, self->b.va + 4096, 1000));
	ASSERT_EQ(0, vnpu_pool_unbind(self->fd, self->s1, self->a.va + 4096, 1024));

	/* s1: two operators with workspace (64 and 4096 bytes), one without. */
	reduce_ones(self, &small, 2, 16, self->a.va);
	ASSERT_EQ(0, vnpu_op_eltwise(&add, "Add", ACL_FLOAT, 4, 4));
	vnpu_op_set_va(&add, self->data.va, self->data.va, self->data.va + 4096, 0);
	reduce_ones(self, &large, 2, 1024, self->b.va);
	ws1 = small.plan.ws_bytes + large.plan.ws_bytes;
	vnpu_job_init(&job);
	vnpu_job_add_op(&job, &small);
	vnpu_job_add_op(&job, &add);
	vnpu_job_add_op(&job, &large);
	ASSERT_EQ(0, vnpu_job_submit_wait(self->fd, self->s1, &job, NULL));
	/* s2: an operator whose workspace is outside its pool (no requirement). */
	reduce_ones(self, &other, 1, 10, self->data.va + 800 * KiB);
	ws2 = other.plan.ws_bytes;
	ASSERT_EQ(0, vnpu_op_submit_wait(self->fd, self->s2, &other, NULL));
	/* A failed submit counts nothing. */
	move_ws(&other, 4096);
	EXPECT_EQ(-ENXIO, vnpu_op_submit_wait(self->fd, self->s2, &other, NULL));

	s1 = vnpu_pool_stats(self->fd, self->s1);
	EXPECT_EQ(2, s1.binds);
	EXPECT_EQ(1, s1.unbinds);
	EXPECT_EQ(8192 + 4096 - 1024, s1.bytes_bound);
	EXPECT_EQ(0, s1.hazards_serialized);
	EXPECT_EQ(0, s1.hazards_rejected);
	EXPECT_EQ(64 + 4096, ws1);
	EXPECT_EQ(ws1, s1.ws_bytes_used);
	EXPECT_EQ(2, s1.ws_tasks);

	s2 = vnpu_pool_stats(self->fd, self->s2);
	EXPECT_EQ(1, s2.binds);
	EXPECT_EQ(0, s2.unbinds);
	EXPECT_EQ(1000, s2.bytes_bound);
	EXPECT_EQ(ws2, s2.ws_bytes_used);
	EXPECT_EQ(1, s2.ws_tasks);

	tot = vnpu_pool_stats(self->fd, 0);
	EXPECT_EQ(3, tot.binds);
	EXPECT_EQ(1, tot.unbinds);
	EXPECT_EQ(s1.bytes_bound + s2.bytes_bound, tot.bytes_bound);
	EXPECT_EQ(ws1 + ws2, tot.ws_bytes_used);
	EXPECT_EQ(3, tot.ws_tasks);

	/* The totals keep a destroyed stream's history, not its bytes. */
	ASSERT_EQ(0, vnpu_stream_destroy(self->fd, self->s1));
	tot = vnpu_pool_stats(self->fd, 0);
	EXPECT_EQ(3, tot.binds);
	EXPECT_EQ(1, tot.unbinds);
	EXPECT_EQ(1000, tot.bytes_bound);
	EXPECT_EQ(ws1 + ws2, tot.ws_bytes_used);
	EXPECT_EQ(3, tot.ws_tasks);
	/* ...and report no ranges. */
	uint32_t count = 99;

	ASSERT_EQ(0, vnpu_pool_query(self->fd, 0, NULL, 0, &count, NULL));
	EXPECT_EQ(0, count);
}

/*
 * The kernel counts operands, not plans: an operator task with two
 * WORKSPACE operands is one workspace task of their summed sizes, one with
 * none is not counted, and an operand listed twice counts twice. (lib/ops
 * never plans two workspaces, so the server faults the task; the counts
 * are the submit's.)
 */
TEST_F(pool, counters_count_workspace_operands)
{
	struct drm_vnpu_pool_stats s;
	struct vnpu_op t, relu;
	struct vnpu_job job;

	reduce_ones(self, &t, 2, 16, self->a.va);
	t.operands[3] = (struct drm_vnpu_operand){
		.va = self->a.va + 4096, .size = 100, .access = VNPU_OPERAND_WORKSPACE,
	};
	t.operands[4] = t.operands[3];
	t.noperands = 5;
	vnpu_op_encode(&t);
	relu16(&relu, self->data.va, self->data.va + 4096);
	vnpu_job_init(&job);
	vnpu_job_add_op(&job, &relu);
	vnpu_job_add_op(&job, &t);
	EXPECT_EQ(-EIO, vnpu_job_submit_wait(self->fd, self->s1, &job, NULL));
	s = vnpu_pool_stats(self->fd, self->s1);
	EXPECT_EQ(1, s.ws_tasks);
	EXPECT_EQ(64 + 100 + 100, s.ws_bytes_used);
}

TEST_F(pool, counters_per_file)
{
	int fd2 = vnpu_open_device(0);
	uint32_t s;
	struct vnpu_buf c;

	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, vnpu_stream_create(fd2, VNPU_PRIORITY_NORMAL, &s));
	ASSERT_EQ(0, vnpu_buf_create(fd2, 8192, &c));
	ASSERT_EQ(0, vnpu_pool_bind(fd2, s, c.va, 8192));
	EXPECT_EQ(1, vnpu_pool_stats(fd2, 0).binds);
	EXPECT_EQ(0, vnpu_pool_stats(self->fd, 0).binds);
	/* Stream ids are per file. */
	EXPECT_EQ(-ENOENT, vnpu_pool_query(self->fd, s + 100, NULL, 0, NULL, NULL));
	vnpu_buf_destroy(fd2, &c);
	close(fd2);
}

/* ---------------------------------------------------------------- fdinfo, debugfs */

TEST_F(pool, fdinfo_stream_lines)
{
	struct vnpu_fdinfo_stream f;
	struct vnpu_op t;
	uint32_t s3;

	reduce_ones(self, &t, 2, 16, self->a.va + 64);
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_HIGH, &s3));
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va, 4096));
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->b.va, 100));
	ASSERT_EQ(0, vnpu_op_submit_wait(self->fd, self->s1, &t, NULL));
	ASSERT_EQ(0, vnpu_op_submit_wait(self->fd, self->s1, &t, NULL));

	EXPECT_EQ(3, vnpu_fdinfo_value(self->fd, "vnpu-streams"));
	EXPECT_EQ(3, vnpu_fdinfo_stream_lines(self->fd));
	ASSERT_EQ(0, vnpu_fdinfo_stream(self->fd, self->s1, &f));
	EXPECT_EQ(VNPU_PRIORITY_NORMAL, f.prio);
	EXPECT_EQ(2, f.submitted);
	EXPECT_EQ(2, f.completed);
	EXPECT_EQ(0, f.queued);
	EXPECT_STREQ("ok", f.state);
	EXPECT_EQ(0, f.error);
	EXPECT_EQ(2, f.pool_ranges);
	EXPECT_EQ(4196, f.pool_bytes);
	EXPECT_EQ(0, f.hazards_serialized);
	EXPECT_EQ(0, f.hazards_rejected);
	EXPECT_EQ(2 * t.plan.ws_bytes, f.ws_bytes);
	EXPECT_EQ(2, f.ws_tasks);
	ASSERT_EQ(0, vnpu_fdinfo_stream(self->fd, s3, &f));
	EXPECT_EQ(VNPU_PRIORITY_HIGH, f.prio);
	EXPECT_EQ(0, f.submitted);
	EXPECT_EQ(0, f.pool_ranges);

	/* A failed stream says so; a destroyed one has no line. */
	int32_t *x = (int32_t *)((char *)self->data.cpu + 600 * KiB);

	x[0] = 1;
	x[1] = 0;
	ASSERT_EQ(0, vnpu_op_eltwise(&t, "RealDiv", ACL_INT32, 1, 1));
	vnpu_op_set_va(&t, self->data.va + 600 * KiB, self->data.va + 600 * KiB + 4,
		       self->data.va + 600 * KiB + 8, 0);
	ASSERT_EQ(-EDOM, vnpu_op_submit_wait(self->fd, s3, &t, NULL));
	ASSERT_EQ(0, vnpu_fdinfo_stream(self->fd, s3, &f));
	EXPECT_STREQ("failed", f.state);
	EXPECT_EQ(VNPU_STREAM_ERROR_ARITH, f.error);
	EXPECT_EQ(1, f.completed);
	ASSERT_EQ(0, vnpu_stream_destroy(self->fd, self->s2));
	EXPECT_EQ(-ENOENT, vnpu_fdinfo_stream(self->fd, self->s2, &f));
	EXPECT_EQ(2, vnpu_fdinfo_stream_lines(self->fd));
}

TEST_F(pool, fdinfo_queued_jobs)
{
	volatile uint32_t *gate = (volatile uint32_t *)((char *)self->data.cpu + 1000 * KiB);
	struct drm_vnpu_task wait = vnpu_task_wait32(self->data.va + 1000 * KiB, VNPU_WAIT_EQ, 1);
	struct drm_vnpu_task nop = vnpu_task_nop();
	struct vnpu_fdinfo_stream f;
	uint64_t seqno;

	*gate = 0;
	ASSERT_EQ(0, vnpu_submit(self->fd, self->s1, &wait, 1, NULL, 0, 0, 0, NULL));
	for (int i = 0; i < 4; i++)
		ASSERT_EQ(0, vnpu_submit(self->fd, self->s1, &nop, 1, NULL, 0, 0, 0, &seqno));
	usleep(20000);
	ASSERT_EQ(0, vnpu_fdinfo_stream(self->fd, self->s1, &f));
	EXPECT_EQ(5, f.submitted);
	EXPECT_EQ(0, f.completed);
	EXPECT_EQ(5, f.queued);
	ASSERT_EQ(0, open_gate(self));
	ASSERT_EQ(0, vnpu_stream_wait_seqno(self->fd, self->s1, seqno, VNPU_WAIT_FOREVER_NS));
	ASSERT_EQ(0, vnpu_fdinfo_stream(self->fd, self->s1, &f));
	EXPECT_EQ(0, f.queued);
}

TEST_F(pool, debugfs_lists_ranges)
{
	static char text[1 << 16];
	char needle[64];
	uint64_t client = vnpu_param(self->fd, VNPU_PARAM_CLIENT_ID);

	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s2, self->b.va + 4096, 777));
	ASSERT_EQ(0, vnpu_debugfs_read(0, "pools", text, sizeof(text)));
	snprintf(needle, sizeof(needle), "client %llu\n", (unsigned long long)client);
	EXPECT_NONNULL(strstr(text, needle));
	snprintf(needle, sizeof(needle), "range\t0x%llx\t777\n",
		 (unsigned long long)(self->b.va + 4096));
	EXPECT_NONNULL(strstr(text, needle)) TH_LOG("%s", text);
	EXPECT_NONNULL(strstr(text, "hazard_records\t"));
}

/*
 * The counters in debugfs, exactly, after a sequence that moves each one:
 * binds (one a no-op), an unbind that splits a range, memory bound to both
 * streams, a held job on s1, a serialized hazard and a rejected one on s2.
 * Each stream's line and the file's totals must read as worked out here
 * (and agree with POOL_QUERY).
 */
TEST_F(pool, debugfs_counters_exact)
{
	static char text[1 << 16];
	char want[512];
	volatile uint32_t *gate = (volatile uint32_t *)((char *)self->data.cpu + 1000 * KiB);
	struct vnpu_job held;
	struct vnpu_op t;
	uint64_t client = vnpu_param(self->fd, VNPU_PARAM_CLIENT_ID);
	struct drm_vnpu_pool_stats q1, q2, qt;
	const char *block;
	uint64_t seqno;

	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va, 8192));
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->a.va, 8192));	/* no-op */
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s1, self->b.va, 4096));
	ASSERT_EQ(0, vnpu_pool_bind(self->fd, self->s2, self->a.va, 8192));
	ASSERT_EQ(0, vnpu_pool_unbind(self->fd, self->s1, self->a.va + 4096, 1024));

	/* s1's job holds [a, a+64) as workspace; s2 uses the same 64 bytes. */
	reduce_ones(self, &t, 2, 16, self->a.va);
	ASSERT_EQ(64, t.plan.ws_bytes);
	vnpu_job_init(&held);
	vnpu_job_add(&held, vnpu_task_wait32(self->data.va + 1000 * KiB, VNPU_WAIT_EQ, 1));
	vnpu_job_add_op(&held, &t);
	*gate = 0;
	ASSERT_EQ(0, vnpu_job_submit(self->fd, self->s1, &held, NULL, 0, 0, 0, NULL));
	ASSERT_EQ(0, vnpu_op_submit(self->fd, self->s2, &t, 0, &seqno));
	ASSERT_EQ(0, vnpu_stream_set_param(self->fd, self->s2, VNPU_STREAM_PARAM_HAZARD_POLICY,
					   VNPU_HAZARD_STRICT));
	EXPECT_EQ(-EBUSY, vnpu_op_submit(self->fd, self->s2, &t, 0, NULL));
	ASSERT_EQ(0, open_gate(self));
	ASSERT_EQ(0, vnpu_stream_wait_seqno(self->fd, self->s2, seqno, VNPU_WAIT_FOREVER_NS));
	ASSERT_EQ(0, vnpu_stream_set_param(self->fd, self->s1, VNPU_STREAM_PARAM_REQUIRE_POOL, 1));

	ASSERT_EQ(0, vnpu_debugfs_read(0, "pools", text, sizeof(text)));
	snprintf(want, sizeof(want), "client %llu\n", (unsigned long long)client);
	block = strstr(text, want);
	ASSERT_NONNULL(block) TH_LOG("%s", text);

	/* 3 + 1 binds that added memory, 8192 + 4096 - 1024 and 8192 bytes */
	snprintf(want, sizeof(want),
		 "\ttotals\tbinds 3 unbinds 1 bytes_bound %u hazards_serialized 1 "
		 "hazards_rejected 1 ws_bytes 128 ws_tasks 2\n", 11264 + 8192);
	EXPECT_NONNULL(strstr(block, want)) TH_LOG("want %s in\n%s", want, block);
	/* s1: [a, a+4K), [a+5K, a+8K), [b, b+4K) */
	snprintf(want, sizeof(want),
		 "\tstream %u\tranges 3 binds 2 unbinds 1 bytes_bound 11264 "
		 "hazards_serialized 0 hazards_rejected 0 ws_bytes 64 ws_tasks 1 "
		 "policy serialize require_pool 1\n", self->s1);
	EXPECT_NONNULL(strstr(block, want)) TH_LOG("want %s in\n%s", want, block);
	snprintf(want, sizeof(want),
		 "\tstream %u\tranges 1 binds 1 unbinds 0 bytes_bound 8192 "
		 "hazards_serialized 1 hazards_rejected 1 ws_bytes 64 ws_tasks 1 "
		 "policy strict require_pool 0\n", self->s2);
	EXPECT_NONNULL(strstr(block, want)) TH_LOG("want %s in\n%s", want, block);

	/* the query ioctl says the same */
	q1 = vnpu_pool_stats(self->fd, self->s1);
	q2 = vnpu_pool_stats(self->fd, self->s2);
	qt = vnpu_pool_stats(self->fd, 0);
	EXPECT_EQ(11264, q1.bytes_bound);
	EXPECT_EQ(1, q2.hazards_serialized);
	EXPECT_EQ(1, q2.hazards_rejected);
	EXPECT_EQ(q1.binds + q2.binds, qt.binds);
	EXPECT_EQ(q1.ws_bytes_used + q2.ws_bytes_used, qt.ws_bytes_used);
}

TEST_HARNESS_MAIN
