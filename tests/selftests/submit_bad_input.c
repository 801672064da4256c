// SPDX-License-Identifier: GPL-2.0
/*
 * Every bad field of STREAM_CREATE, STREAM_DESTROY, STREAM_QUERY,
 * STREAM_SET_PARAM and SUBMIT, one test each, with its exact errno. Every
 * test that submits leaves the stream with nothing queued: the fixture
 * teardown checks that no seqno was handed out and that a valid job still
 * runs as seqno 1.
 */
#include <sys/mman.h>
#include <xf86drm.h>

#include "harness/harness.h"
#include "lib/vnpu_pool_util.h"
#include "lib/vnpu_stream_util.h"
#include "lib/vnpu_test.h"

#define BUF_SIZE (64 << 10)

FIXTURE(bad) {
	int fd;
	uint32_t stream;
	struct vnpu_buf buf;
	uint64_t va;		/* buffer start */
	uint64_t end;		/* buffer end */
};

FIXTURE_SETUP(bad)
{
	self->fd = vnpu_open_device(0);
	ASSERT_GE(self->fd, 0) TH_LOG("no vnpu render node");
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &self->stream));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, BUF_SIZE, &self->buf));
	self->va = self->buf.va;
	self->end = self->buf.va + BUF_SIZE;
	memset(self->buf.cpu, 0, BUF_SIZE);
}

FIXTURE_TEARDOWN(bad)
{
	struct drm_vnpu_task mark = vnpu_task_write32(self->va, 0x600d);
	struct drm_vnpu_stream_query q;
	uint64_t seqno = 0;

	/* Nothing was queued by the failed submits... */
	if (!vnpu_stream_query(self->fd, self->stream, &q)) {
		EXPECT_EQ(0, q.submitted_seqno);
		EXPECT_EQ(VNPU_STREAM_ERROR_NONE, q.error);
		/* ...nothing ran, and the stream still works. */
		EXPECT_EQ(0, *(uint32_t *)self->buf.cpu);
		EXPECT_EQ(0, vnpu_submit_wait(self->fd, self->stream, &mark, 1, &seqno));
		EXPECT_EQ(1, seqno);
		EXPECT_EQ(0x600d, *(uint32_t *)self->buf.cpu);
	}
	vnpu_buf_destroy(self->fd, &self->buf);
	close(self->fd);
}

static int submit_tasks(FIXTURE_DATA(bad) *self, const struct drm_vnpu_task *t, uint32_t n)
{
	return vnpu_submit(self->fd, self->stream, t, n, NULL, 0, 0, 0, NULL);
}

static int submit_task(FIXTURE_DATA(bad) *self, struct drm_vnpu_task t)
{
	return submit_tasks(self, &t, 1);
}

static int submit_in_sync(FIXTURE_DATA(bad) *self, struct drm_vnpu_sync in)
{
	struct drm_vnpu_task t = vnpu_task_nop();

	return vnpu_submit(self->fd, self->stream, &t, 1, &in, 1, 0, 0, NULL);
}

static int submit_out_sync(FIXTURE_DATA(bad) *self, struct drm_vnpu_sync out)
{
	struct drm_vnpu_task t = vnpu_task_nop();
	struct drm_vnpu_submit args = vnpu_submit_args(self->stream, &t, 1);

	args.out_sync = out;
	return vnpu_submit_raw(self->fd, &args);
}

/* ---------------------------------------------------------------- STREAM_CREATE */

TEST_F(bad, create_unknown_priority)
{
	struct drm_vnpu_stream_create args = { .priority = VNPU_PRIORITY_HIGH + 1 };

	EXPECT_EQ(-EINVAL, vnpu_ioctl(self->fd, DRM_IOCTL_VNPU_STREAM_CREATE, &args));
	args.priority = 0xffffffff;
	EXPECT_EQ(-EINVAL, vnpu_ioctl(self->fd, DRM_IOCTL_VNPU_STREAM_CREATE, &args));
}

TEST_F(bad, create_flags)
{
	for (int bit = 0; bit < 32; bit++) {
		struct drm_vnpu_stream_create args = { .flags = 1u << bit };

		EXPECT_EQ(-EINVAL, vnpu_ioctl(self->fd, DRM_IOCTL_VNPU_STREAM_CREATE, &args));
	}
}

TEST_F(bad, create_pad)
{
	struct drm_vnpu_stream_create args = { .pad = 1 };

	EXPECT_EQ(-EINVAL, vnpu_ioctl(self->fd, DRM_IOCTL_VNPU_STREAM_CREATE, &args));
}

TEST_F(bad, create_bad_pointer)
{
	EXPECT_EQ(-EFAULT, vnpu_ioctl(self->fd, DRM_IOCTL_VNPU_STREAM_CREATE, NULL));
}

/* A failed create makes no stream: the device count is unchanged. */
TEST_F(bad, create_failure_makes_nothing)
{
	struct drm_vnpu_stream_create args = { .priority = 7 };

	EXPECT_EQ(1, vnpu_debugfs_streams_value(0, "streams"));
	EXPECT_EQ(-EINVAL, vnpu_ioctl(self->fd, DRM_IOCTL_VNPU_STREAM_CREATE, &args));
	EXPECT_EQ(1, vnpu_debugfs_streams_value(0, "streams"));
}

/* ---------------------------------------------------------------- STREAM_DESTROY */

TEST_F(bad, destroy_flags)
{
	struct drm_vnpu_stream_destroy args = { .stream_id = self->stream, .flags = 1 };
	struct drm_vnpu_stream_query q;

	EXPECT_EQ(-EINVAL, vnpu_ioctl(self->fd, DRM_IOCTL_VNPU_STREAM_DESTROY, &args));
	EXPECT_EQ(0, vnpu_stream_query(self->fd, self->stream, &q));
}

TEST_F(bad, destroy_unknown_stream)
{
	EXPECT_EQ(-ENOENT, vnpu_stream_destroy(self->fd, self->stream + 1000));
	EXPECT_EQ(-ENOENT, vnpu_stream_destroy(self->fd, 0));
	EXPECT_EQ(-ENOENT, vnpu_stream_destroy(self->fd, 0xffffffff));
}

TEST_F(bad, destroy_bad_pointer)
{
	struct drm_vnpu_stream_query q;

	EXPECT_EQ(-EFAULT, vnpu_ioctl(self->fd, DRM_IOCTL_VNPU_STREAM_DESTROY, NULL));
	EXPECT_EQ(0, vnpu_stream_query(self->fd, self->stream, &q));
}

/* ---------------------------------------------------------------- STREAM_QUERY */

TEST_F(bad, query_bad_pointer)
{
	EXPECT_EQ(-EFAULT, vnpu_ioctl(self->fd, DRM_IOCTL_VNPU_STREAM_QUERY, NULL));
}

/* The ABI 2.1 struct, before STREAM_QUERY grew (ABI 2.2). */
struct query_2_1 {
	__u32 stream_id, flags;
	__u64 submitted_seqno, completed_seqno;
	__u32 error, failed_task;
	__u64 failed_seqno;
};

TEST_F(bad, query_older_struct_size)
{
	struct query_2_1 q = { .stream_id = self->stream };

	EXPECT_EQ(0, vnpu_ioctl(self->fd, DRM_IOWR(DRM_COMMAND_BASE + DRM_VNPU_STREAM_QUERY,
						   struct query_2_1), &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_NONE, q.error);
	q.flags = 1;
	EXPECT_EQ(-EINVAL, vnpu_ioctl(self->fd, DRM_IOWR(DRM_COMMAND_BASE + DRM_VNPU_STREAM_QUERY,
						    struct query_2_1), &q));
}

TEST_F(bad, query_flags)
{
	struct drm_vnpu_stream_query q = { .stream_id = self->stream, .flags = 1 };

	EXPECT_EQ(-EINVAL, vnpu_ioctl(self->fd, DRM_IOCTL_VNPU_STREAM_QUERY, &q));
}

TEST_F(bad, query_unknown_stream)
{
	struct drm_vnpu_stream_query q;

	EXPECT_EQ(-ENOENT, vnpu_stream_query(self->fd, self->stream + 1000, &q));
	EXPECT_EQ(-ENOENT, vnpu_stream_query(self->fd, 0, &q));
}

/* ---------------------------------------------------------------- STREAM_SET_PARAM */

TEST_F(bad, set_param_unknown_param)
{
	EXPECT_EQ(-EINVAL, vnpu_stream_set_param(self->fd, self->stream, 0, 0));
	EXPECT_EQ(-EINVAL, vnpu_stream_set_param(self->fd, self->stream,
						 VNPU_STREAM_PARAM_FAILURE_MODE + 1, 0));
	EXPECT_EQ(-EINVAL, vnpu_stream_set_param(self->fd, self->stream, 0xffffffff, 0));
}

TEST_F(bad, set_param_hazard_policy_value)
{
	EXPECT_EQ(-EINVAL, vnpu_stream_set_param(self->fd, self->stream,
						 VNPU_STREAM_PARAM_HAZARD_POLICY,
						 VNPU_HAZARD_STRICT + 1));
	EXPECT_EQ(-EINVAL, vnpu_stream_set_param(self->fd, self->stream,
						 VNPU_STREAM_PARAM_HAZARD_POLICY, 1ull << 32));
}

TEST_F(bad, set_param_require_pool_value)
{
	EXPECT_EQ(-EINVAL, vnpu_stream_set_param(self->fd, self->stream,
						 VNPU_STREAM_PARAM_REQUIRE_POOL, 2));
	EXPECT_EQ(-EINVAL, vnpu_stream_set_param(self->fd, self->stream,
						 VNPU_STREAM_PARAM_REQUIRE_POOL, ~0ull));
}

TEST_F(bad, set_param_job_timeout_value)
{
	EXPECT_EQ(-EINVAL, vnpu_stream_set_param(self->fd, self->stream,
						 VNPU_STREAM_PARAM_JOB_TIMEOUT_MS,
						 VNPU_MAX_JOB_TIMEOUT_MS + 1));
	EXPECT_EQ(-EINVAL, vnpu_stream_set_param(self->fd, self->stream,
						 VNPU_STREAM_PARAM_JOB_TIMEOUT_MS, 1ull << 32));
	EXPECT_EQ(-EINVAL, vnpu_stream_set_param(self->fd, self->stream,
						 VNPU_STREAM_PARAM_JOB_TIMEOUT_MS, ~0ull));
	/* The bounds themselves are accepted (0: the module parameter). */
	EXPECT_EQ(0, vnpu_stream_set_param(self->fd, self->stream,
					   VNPU_STREAM_PARAM_JOB_TIMEOUT_MS, VNPU_MAX_JOB_TIMEOUT_MS));
	EXPECT_EQ(0, vnpu_stream_set_param(self->fd, self->stream,
					   VNPU_STREAM_PARAM_JOB_TIMEOUT_MS, 0));
}

TEST_F(bad, set_param_failure_mode_value)
{
	EXPECT_EQ(-EINVAL, vnpu_stream_set_param(self->fd, self->stream,
						 VNPU_STREAM_PARAM_FAILURE_MODE, 2));
	EXPECT_EQ(-EINVAL, vnpu_stream_set_param(self->fd, self->stream,
						 VNPU_STREAM_PARAM_FAILURE_MODE, 1ull << 32));
	EXPECT_EQ(-EINVAL, vnpu_stream_set_param(self->fd, self->stream,
						 VNPU_STREAM_PARAM_FAILURE_MODE, ~0ull));
	EXPECT_EQ(0, vnpu_stream_set_param(self->fd, self->stream,
					   VNPU_STREAM_PARAM_FAILURE_MODE, VNPU_FAILURE_CONTINUE));
	EXPECT_EQ(0, vnpu_stream_set_param(self->fd, self->stream,
					   VNPU_STREAM_PARAM_FAILURE_MODE, VNPU_FAILURE_STOP));
}

/* ---------------------------------------------------------------- STREAM_ABORT */

TEST_F(bad, abort_flags)
{
	struct drm_vnpu_stream_query q;

	EXPECT_EQ(-EINVAL, vnpu_stream_abort(self->fd, self->stream, 1u << 1, NULL));
	EXPECT_EQ(-EINVAL, vnpu_stream_abort(self->fd, self->stream, ~0u, NULL));
	EXPECT_EQ(-EINVAL, vnpu_stream_abort(self->fd, self->stream, ~VNPU_STREAM_ABORT_STOP, NULL));
	/* Refused calls changed nothing. */
	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->stream, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_NONE, q.error);
}

TEST_F(bad, abort_unknown_stream)
{
	EXPECT_EQ(-ENOENT, vnpu_stream_abort(self->fd, self->stream + 1000, 0, NULL));
	EXPECT_EQ(-ENOENT, vnpu_stream_abort(self->fd, 0, VNPU_STREAM_ABORT_STOP, NULL));
}

TEST_F(bad, set_param_unknown_stream)
{
	EXPECT_EQ(-ENOENT, vnpu_stream_set_param(self->fd, self->stream + 1000,
						 VNPU_STREAM_PARAM_REQUIRE_POOL, 1));
	EXPECT_EQ(-ENOENT, vnpu_stream_set_param(self->fd, 0,
						 VNPU_STREAM_PARAM_HAZARD_POLICY, 0));
}

/* ---------------------------------------------------------------- SUBMIT header */

TEST_F(bad, submit_flags)
{
	struct drm_vnpu_task t = vnpu_task_nop();

	for (int bit = 0; bit < 32; bit++) {
		struct drm_vnpu_submit args = vnpu_submit_args(self->stream, &t, 1);

		args.flags = 1u << bit;
		if (args.flags == VNPU_SUBMIT_NONBLOCK)
			continue;	/* valid: tests/selftests/job_quota.c */
		EXPECT_EQ(-EINVAL, vnpu_submit_raw(self->fd, &args));
	}
}

/*
 * The data area (operators' descriptors and operands; op_bad_input.c has
 * the rest): its size is bounded, needs a pointer, and must be readable.
 */
TEST_F(bad, submit_data_size_above_max)
{
	struct drm_vnpu_task t = vnpu_task_nop();
	struct drm_vnpu_submit args = vnpu_submit_args(self->stream, &t, 1);

	args.data = (uintptr_t)self->buf.cpu;
	args.data_size = VNPU_MAX_SUBMIT_DATA + 1;
	EXPECT_EQ(-EINVAL, vnpu_submit_raw(self->fd, &args));
	args.data_size = 0xffffffff;
	EXPECT_EQ(-EINVAL, vnpu_submit_raw(self->fd, &args));
}

TEST_F(bad, submit_data_size_without_pointer)
{
	struct drm_vnpu_task t = vnpu_task_nop();
	struct drm_vnpu_submit args = vnpu_submit_args(self->stream, &t, 1);

	args.data_size = 8;
	EXPECT_EQ(-EINVAL, vnpu_submit_raw(self->fd, &args));
}

TEST_F(bad, submit_data_unreadable)
{
	struct drm_vnpu_task t = vnpu_task_nop();
	struct drm_vnpu_submit args = vnpu_submit_args(self->stream, &t, 1);

	args.data = 8;
	args.data_size = 64;
	EXPECT_EQ(-EFAULT, vnpu_submit_raw(self->fd, &args));
}

TEST_F(bad, submit_zero_tasks)
{
	struct drm_vnpu_task t = vnpu_task_nop();
	struct drm_vnpu_submit args = vnpu_submit_args(self->stream, &t, 0);

	EXPECT_EQ(-EINVAL, vnpu_submit_raw(self->fd, &args));
}

TEST_F(bad, submit_too_many_tasks)
{
	struct drm_vnpu_task *t = calloc(VNPU_MAX_TASKS_PER_SUBMIT + 1, sizeof(*t));
	struct drm_vnpu_submit args = vnpu_submit_args(self->stream, t,
						       VNPU_MAX_TASKS_PER_SUBMIT + 1);

	ASSERT_NONNULL(t);
	EXPECT_EQ(-EINVAL, vnpu_submit_raw(self->fd, &args));
	args.task_count = 0xffffffff;
	EXPECT_EQ(-EINVAL, vnpu_submit_raw(self->fd, &args));
	free(t);
}

TEST_F(bad, submit_task_size)
{
	static const uint32_t sizes[] = { 0, 1, 88, 95, 97, 128, 0xffffffff };
	struct drm_vnpu_task t[2] = { vnpu_task_nop(), vnpu_task_nop() };

	for (unsigned int i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct drm_vnpu_submit args = vnpu_submit_args(self->stream, t, 1);

		args.task_size = sizes[i];
		EXPECT_EQ(-EINVAL, vnpu_submit_raw(self->fd, &args));
	}
}

TEST_F(bad, submit_too_many_in_syncs)
{
	struct drm_vnpu_sync in[VNPU_MAX_IN_SYNCS + 1];
	struct drm_vnpu_task t = vnpu_task_nop();
	uint32_t sync;

	ASSERT_EQ(0, vnpu_syncobj_create_signaled(self->fd, &sync));
	for (unsigned int i = 0; i <= VNPU_MAX_IN_SYNCS; i++)
		in[i] = (struct drm_vnpu_sync){ .handle = sync };
	EXPECT_EQ(-EINVAL, vnpu_submit(self->fd, self->stream, &t, 1, in,
				       VNPU_MAX_IN_SYNCS + 1, 0, 0, NULL));
	vnpu_syncobj_destroy(self->fd, sync);
}

TEST_F(bad, submit_unknown_stream)
{
	struct drm_vnpu_task t = vnpu_task_nop();

	EXPECT_EQ(-ENOENT, vnpu_submit(self->fd, self->stream + 1000, &t, 1, NULL, 0, 0, 0, NULL));
	EXPECT_EQ(-ENOENT, vnpu_submit(self->fd, 0, &t, 1, NULL, 0, 0, 0, NULL));
}

TEST_F(bad, submit_bad_args_pointer)
{
	EXPECT_EQ(-EFAULT, vnpu_ioctl(self->fd, DRM_IOCTL_VNPU_SUBMIT, NULL));
}

TEST_F(bad, submit_null_tasks)
{
	struct drm_vnpu_submit args = vnpu_submit_args(self->stream, NULL, 1);

	EXPECT_EQ(-EFAULT, vnpu_submit_raw(self->fd, &args));
}

/* The task array runs off the end of the caller's memory. */
TEST_F(bad, submit_tasks_past_mapping)
{
	long page = sysconf(_SC_PAGESIZE);
	char *mem = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct drm_vnpu_task *t;
	struct drm_vnpu_submit args;

	ASSERT_NE(MAP_FAILED, mem);
	ASSERT_EQ(0, munmap(mem + page, page));
	memset(mem, 0, page);
	/* Two tasks: the first fits, the second crosses into the hole. */
	t = (struct drm_vnpu_task *)(mem + page - sizeof(*t));
	args = vnpu_submit_args(self->stream, t, 2);
	EXPECT_EQ(-EFAULT, vnpu_submit_raw(self->fd, &args));
	/* Entirely in the hole. */
	args = vnpu_submit_args(self->stream, (struct drm_vnpu_task *)(mem + page), 1);
	EXPECT_EQ(-EFAULT, vnpu_submit_raw(self->fd, &args));
	munmap(mem, page);
}

TEST_F(bad, submit_null_in_syncs)
{
	struct drm_vnpu_task t = vnpu_task_nop();

	EXPECT_EQ(-EFAULT, vnpu_submit(self->fd, self->stream, &t, 1, NULL, 1, 0, 0, NULL));
}

/* ---------------------------------------------------------------- in-syncs */

TEST_F(bad, in_sync_flags)
{
	uint32_t sync;

	ASSERT_EQ(0, vnpu_syncobj_create_signaled(self->fd, &sync));
	EXPECT_EQ(-EINVAL, submit_in_sync(self, (struct drm_vnpu_sync){ .handle = sync,
								       .flags = 1 }));
	EXPECT_EQ(-EINVAL, submit_in_sync(self, (struct drm_vnpu_sync){ .handle = sync,
								       .flags = 1u << 31 }));
	vnpu_syncobj_destroy(self->fd, sync);
}

TEST_F(bad, in_sync_unknown_handle)
{
	uint32_t sync;

	ASSERT_EQ(0, vnpu_syncobj_create_signaled(self->fd, &sync));
	EXPECT_EQ(-ENOENT, submit_in_sync(self, (struct drm_vnpu_sync){ .handle = sync + 100 }));
	EXPECT_EQ(-ENOENT, submit_in_sync(self, (struct drm_vnpu_sync){ .handle = 0 }));
	vnpu_syncobj_destroy(self->fd, sync);
	EXPECT_EQ(-ENOENT, submit_in_sync(self, (struct drm_vnpu_sync){ .handle = sync }));
}

/* A binary syncobj that never got a fence: nothing to wait for yet. */
TEST_F(bad, in_sync_unsubmitted_binary)
{
	uint32_t sync;

	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sync));
	EXPECT_EQ(-EINVAL, submit_in_sync(self, (struct drm_vnpu_sync){ .handle = sync }));
	vnpu_syncobj_destroy(self->fd, sync);
}

TEST_F(bad, in_sync_unsubmitted_timeline_point)
{
	struct drm_vnpu_task t = vnpu_task_nop();
	uint32_t sync, other;

	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sync));
	EXPECT_EQ(-EINVAL, submit_in_sync(self, (struct drm_vnpu_sync){ .handle = sync,
								       .point = 1 }));
	/* Point 3 exists on another stream's timeline; point 4 does not. */
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &other));
	ASSERT_EQ(0, vnpu_submit(self->fd, other, &t, 1, NULL, 0, sync, 3, NULL));
	EXPECT_EQ(-EINVAL, submit_in_sync(self, (struct drm_vnpu_sync){ .handle = sync,
								       .point = 4 }));
	ASSERT_EQ(0, vnpu_syncobj_timeline_wait(self->fd, sync, 3, VNPU_WAIT_FOREVER_NS));
	vnpu_syncobj_destroy(self->fd, sync);
}

TEST_F(bad, in_sync_point_on_binary_syncobj)
{
	uint32_t sync;

	ASSERT_EQ(0, vnpu_syncobj_create_signaled(self->fd, &sync));
	EXPECT_EQ(-EINVAL, submit_in_sync(self, (struct drm_vnpu_sync){ .handle = sync,
								       .point = 5 }));
	vnpu_syncobj_destroy(self->fd, sync);
}

/* ---------------------------------------------------------------- out-sync */

TEST_F(bad, out_sync_flags)
{
	uint32_t sync;

	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sync));
	EXPECT_EQ(-EINVAL, submit_out_sync(self, (struct drm_vnpu_sync){ .handle = sync,
									.flags = 1 }));
	EXPECT_EQ(-EINVAL, submit_out_sync(self, (struct drm_vnpu_sync){ .flags = 1 }));
	/* The syncobj was not touched. */
	EXPECT_EQ(-EINVAL, vnpu_syncobj_fence_status(self->fd, sync));
	vnpu_syncobj_destroy(self->fd, sync);
}

TEST_F(bad, out_sync_unknown_handle)
{
	uint32_t sync;

	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sync));
	EXPECT_EQ(-ENOENT, submit_out_sync(self, (struct drm_vnpu_sync){ .handle = sync + 100 }));
	EXPECT_EQ(-ENOENT, submit_out_sync(self, (struct drm_vnpu_sync){ .handle = sync + 100,
									.point = 1 }));
	vnpu_syncobj_destroy(self->fd, sync);
}

TEST_F(bad, out_sync_point_without_handle)
{
	EXPECT_EQ(-EINVAL, submit_out_sync(self, (struct drm_vnpu_sync){ .point = 1 }));
}

/* ---------------------------------------------------------------- task kinds */

TEST_F(bad, task_unknown_kind)
{
	struct drm_vnpu_task t = { .kind = VNPU_TASK_OP + 1 };

	EXPECT_EQ(-EINVAL, submit_task(self, t));
	t.kind = 0xffffffff;
	EXPECT_EQ(-EINVAL, submit_task(self, t));
}

/* Operators are a known kind: a bad one fails on its fields (op_bad_input.c). */
TEST_F(bad, task_op_checked_by_fields)
{
	struct vnpu_op o;

	ASSERT_EQ(0, vnpu_op_eltwise(&o, "Relu", ACL_FLOAT, 4, 0));
	vnpu_op_set_va(&o, self->va, 0, self->end, 0);
	EXPECT_EQ(-ENXIO, vnpu_op_submit(self->fd, self->stream, &o, 0, NULL));
	vnpu_op_set_va(&o, self->va, 0, self->va + 64, 0);
	o.task.raw[2] = 1;
	EXPECT_EQ(-EINVAL, vnpu_op_submit(self->fd, self->stream, &o, 0, NULL));
	/* Without its data area it has no descriptor. */
	o.task.raw[2] = 0;
	EXPECT_EQ(-EINVAL, submit_task(self, o.task));
}

TEST_F(bad, nop_flags)
{
	struct drm_vnpu_task t = vnpu_task_nop();

	t.flags = VNPU_TASK_VALUE_64;
	EXPECT_EQ(-EINVAL, submit_task(self, t));
}

TEST_F(bad, nop_nonzero_payload)
{
	for (unsigned int i = 0; i < 11; i++) {
		struct drm_vnpu_task t = vnpu_task_nop();

		t.raw[i] = 1;
		EXPECT_EQ(-EINVAL, submit_task(self, t));
	}
}

/* ---------------------------------------------------------------- COPY */

TEST_F(bad, copy_zero_size)
{
	EXPECT_EQ(-EINVAL, submit_task(self, vnpu_task_copy(self->va, self->va + 64, 0)));
}

TEST_F(bad, copy_flags)
{
	struct drm_vnpu_task t = vnpu_task_copy(self->va, self->va + 64, 8);

	t.flags = 1;
	EXPECT_EQ(-EINVAL, submit_task(self, t));
}

TEST_F(bad, copy_nonzero_tail)
{
	for (unsigned int i = 3; i < 11; i++) {
		struct drm_vnpu_task t = vnpu_task_copy(self->va, self->va + 64, 8);

		t.raw[i] = 1;
		EXPECT_EQ(-EINVAL, submit_task(self, t));
	}
}

TEST_F(bad, copy_dst_unmapped)
{
	EXPECT_EQ(-ENXIO, submit_task(self, vnpu_task_copy(0, self->va, 8)));
	EXPECT_EQ(-ENXIO, submit_task(self, vnpu_task_copy(0x1000, self->va, 8)));
	EXPECT_EQ(-ENXIO, submit_task(self, vnpu_task_copy(VNPU_VA_END - 4096, self->va, 8)));
}

TEST_F(bad, copy_src_unmapped)
{
	EXPECT_EQ(-ENXIO, submit_task(self, vnpu_task_copy(self->va, 0, 8)));
	EXPECT_EQ(-ENXIO, submit_task(self, vnpu_task_copy(self->va, self->end + (1 << 30), 8)));
}

TEST_F(bad, copy_past_buffer_end)
{
	EXPECT_EQ(-ENXIO, submit_task(self, vnpu_task_copy(self->end - 8, self->va, 16)));
	EXPECT_EQ(-ENXIO, submit_task(self, vnpu_task_copy(self->va, self->end - 1, 2)));
	EXPECT_EQ(-ENXIO, submit_task(self, vnpu_task_copy(self->va, self->va + 1, BUF_SIZE)));
	/* Exactly to the end is fine (checked as the last, valid case). */
}

TEST_F(bad, copy_range_overflows)
{
	EXPECT_EQ(-EOVERFLOW, submit_task(self, vnpu_task_copy(~0ull - 15, self->va, 32)));
	EXPECT_EQ(-EOVERFLOW, submit_task(self, vnpu_task_copy(self->va, ~0ull - 15, 32)));
	EXPECT_EQ(-EOVERFLOW, submit_task(self, vnpu_task_copy(self->va, self->va, ~0ull)));
}

TEST_F(bad, copy_closed_buffer)
{
	uint32_t handle;
	uint64_t va;

	ASSERT_EQ(0, vnpu_bo_create(self->fd, 4096, 0, &handle, &va));
	ASSERT_EQ(0, vnpu_bo_close(self->fd, handle));
	EXPECT_EQ(-ENXIO, submit_task(self, vnpu_task_copy(va, self->va, 8)));
	EXPECT_EQ(-ENXIO, submit_task(self, vnpu_task_copy(self->va, va, 8)));
}

/* Device addresses of another file mean nothing here. */
TEST_F(bad, copy_other_files_buffer)
{
	int fd2 = vnpu_open_device(0);
	uint32_t handle;
	uint64_t va;

	ASSERT_GE(fd2, 0);
	/* Make fd2's buffer land where this file has none. */
	ASSERT_EQ(0, vnpu_bo_create(fd2, 16 << 20, 0, &handle, &va));
	ASSERT_EQ(0, vnpu_bo_create(fd2, 16 << 20, 0, &handle, &va));
	EXPECT_EQ(-ENXIO, submit_task(self, vnpu_task_copy(va, self->va, 8)));
	close(fd2);
}

/* The last task is the bad one: the good ones before it do not run. */
TEST_F(bad, copy_bad_last_task_of_batch)
{
	struct drm_vnpu_task t[100];

	for (unsigned int i = 0; i < 99; i++)
		t[i] = vnpu_task_write32(self->va, 1);
	t[99] = vnpu_task_copy(self->va, self->end, 4);
	EXPECT_EQ(-ENXIO, submit_tasks(self, t, 100));
}

/* ---------------------------------------------------------------- FILL */

TEST_F(bad, fill_zero_size)
{
	EXPECT_EQ(-EINVAL, submit_task(self, vnpu_task_fill(self->va, 0, 1)));
}

TEST_F(bad, fill_value_not_a_byte)
{
	EXPECT_EQ(-EINVAL, submit_task(self, vnpu_task_fill(self->va, 8, 256)));
	EXPECT_EQ(-EINVAL, submit_task(self, vnpu_task_fill(self->va, 8, 0xffffffff)));
}

TEST_F(bad, fill_pad)
{
	struct drm_vnpu_task t = vnpu_task_fill(self->va, 8, 1);

	t.fill.pad = 1;
	EXPECT_EQ(-EINVAL, submit_task(self, t));
}

TEST_F(bad, fill_flags)
{
	for (int bit = 0; bit < 32; bit++) {
		struct drm_vnpu_task t = vnpu_task_fill(self->va, 8, 1);

		if (1u << bit == VNPU_TASK_FILL_32)
			continue;
		t.flags = 1u << bit;
		EXPECT_EQ(-EINVAL, submit_task(self, t));
	}
}

/* FILL_32: the range is whole aligned words (copy_fill runs good ones). */
TEST_F(bad, fill_words_misaligned)
{
	struct drm_vnpu_task t = vnpu_task_fill(self->va + 2, 8, 1);

	t.flags = VNPU_TASK_FILL_32;
	EXPECT_EQ(-EINVAL, submit_task(self, t));
	t = vnpu_task_fill(self->va, 6, 1);
	t.flags = VNPU_TASK_FILL_32;
	EXPECT_EQ(-EINVAL, submit_task(self, t));
	t = vnpu_task_fill(self->va, 0, 1);
	t.flags = VNPU_TASK_FILL_32;
	EXPECT_EQ(-EINVAL, submit_task(self, t));
}

TEST_F(bad, fill_nonzero_tail)
{
	for (unsigned int i = 3; i < 11; i++) {
		struct drm_vnpu_task t = vnpu_task_fill(self->va, 8, 1);

		t.raw[i] = 1;
		EXPECT_EQ(-EINVAL, submit_task(self, t));
	}
}

TEST_F(bad, fill_unmapped)
{
	EXPECT_EQ(-ENXIO, submit_task(self, vnpu_task_fill(self->end, 8, 1)));
	EXPECT_EQ(-ENXIO, submit_task(self, vnpu_task_fill(self->va, BUF_SIZE + 1, 1)));
}

TEST_F(bad, fill_range_overflows)
{
	EXPECT_EQ(-EOVERFLOW, submit_task(self, vnpu_task_fill(self->va, ~0ull, 1)));
}

/* ---------------------------------------------------------------- WRITE_VALUE */

TEST_F(bad, write_value_flags)
{
	for (int bit = 1; bit < 32; bit++) {
		struct drm_vnpu_task t = vnpu_task_write32(self->va, 1);

		t.flags = 1u << bit;
		EXPECT_EQ(-EINVAL, submit_task(self, t));
	}
}

TEST_F(bad, write_value_cmp)
{
	struct drm_vnpu_task t = vnpu_task_write32(self->va, 1);

	t.value.cmp = VNPU_WAIT_EQ;
	EXPECT_EQ(-EINVAL, submit_task(self, t));
}

TEST_F(bad, write_value_pad)
{
	struct drm_vnpu_task t = vnpu_task_write64(self->va, 1);

	t.value.pad = 1;
	EXPECT_EQ(-EINVAL, submit_task(self, t));
}

TEST_F(bad, write_value_nonzero_tail)
{
	for (unsigned int i = 3; i < 11; i++) {
		struct drm_vnpu_task t = vnpu_task_write32(self->va, 1);

		t.raw[i] = 1;
		EXPECT_EQ(-EINVAL, submit_task(self, t));
	}
}

TEST_F(bad, write_value_misaligned_32)
{
	for (unsigned int off = 1; off < 4; off++)
		EXPECT_EQ(-EINVAL, submit_task(self, vnpu_task_write32(self->va + off, 1)));
}

TEST_F(bad, write_value_misaligned_64)
{
	for (unsigned int off = 1; off < 8; off++)
		EXPECT_EQ(-EINVAL, submit_task(self, vnpu_task_write64(self->va + off, 1)));
}

TEST_F(bad, write_value_unmapped)
{
	EXPECT_EQ(-ENXIO, submit_task(self, vnpu_task_write32(self->end, 1)));
	EXPECT_EQ(-ENXIO, submit_task(self, vnpu_task_write64(0, 1)));
}

/* ---------------------------------------------------------------- WAIT_VALUE */

TEST_F(bad, wait_value_unknown_cmp)
{
	EXPECT_EQ(-EINVAL, submit_task(self, vnpu_task_wait32(self->va, VNPU_WAIT_NOR + 1, 0)));
	EXPECT_EQ(-EINVAL, submit_task(self, vnpu_task_wait64(self->va, 0xffffffff, 0)));
}

TEST_F(bad, wait_value_flags)
{
	struct drm_vnpu_task t = vnpu_task_wait32(self->va, VNPU_WAIT_EQ, 0);

	t.flags = 1u << 5;
	EXPECT_EQ(-EINVAL, submit_task(self, t));
}

TEST_F(bad, wait_value_pad)
{
	struct drm_vnpu_task t = vnpu_task_wait32(self->va, VNPU_WAIT_EQ, 0);

	t.value.pad = 1;
	EXPECT_EQ(-EINVAL, submit_task(self, t));
}

TEST_F(bad, wait_value_nonzero_tail)
{
	for (unsigned int i = 3; i < 11; i++) {
		struct drm_vnpu_task t = vnpu_task_wait32(self->va, VNPU_WAIT_EQ, 0);

		t.raw[i] = 1;
		EXPECT_EQ(-EINVAL, submit_task(self, t));
	}
}

TEST_F(bad, wait_value_misaligned)
{
	EXPECT_EQ(-EINVAL, submit_task(self, vnpu_task_wait32(self->va + 2, VNPU_WAIT_EQ, 0)));
	EXPECT_EQ(-EINVAL, submit_task(self, vnpu_task_wait64(self->va + 4, VNPU_WAIT_EQ, 0)));
}

TEST_F(bad, wait_value_unmapped)
{
	EXPECT_EQ(-ENXIO, submit_task(self, vnpu_task_wait32(self->end, VNPU_WAIT_EQ, 0)));
	EXPECT_EQ(-ENXIO, submit_task(self, vnpu_task_wait64(self->end + 8, VNPU_WAIT_EQ, 0)));
}

/* ---------------------------------------------------------------- TIMESTAMP */

TEST_F(bad, timestamp_misaligned)
{
	for (unsigned int off = 1; off < 8; off++)
		EXPECT_EQ(-EINVAL, submit_task(self, vnpu_task_timestamp(self->va + off)));
}

TEST_F(bad, timestamp_flags)
{
	struct drm_vnpu_task t = vnpu_task_timestamp(self->va);

	t.flags = VNPU_TASK_VALUE_64;
	EXPECT_EQ(-EINVAL, submit_task(self, t));
}

TEST_F(bad, timestamp_nonzero_tail)
{
	for (unsigned int i = 1; i < 11; i++) {
		struct drm_vnpu_task t = vnpu_task_timestamp(self->va);

		t.raw[i] = 1;
		EXPECT_EQ(-EINVAL, submit_task(self, t));
	}
}

TEST_F(bad, timestamp_unmapped)
{
	EXPECT_EQ(-ENXIO, submit_task(self, vnpu_task_timestamp(self->end)));
	EXPECT_EQ(-ENXIO, submit_task(self, vnpu_task_timestamp(8)));
}

/* ---------------------------------------------------------------- check order */

/*
 * A stream failed by an int32 division by zero (its job's fence -EDOM), the
 * one error a test can cause without debugfs or module parameters. The
 * operator writes at 1 KiB and reads zeros at 2 KiB, away from the word the
 * fixture checks.
 */
static uint32_t failed_stream(struct th_metadata *_metadata, FIXTURE_DATA(bad) *self)
{
	struct drm_vnpu_stream_query q;
	struct vnpu_op div;
	uint32_t id = 0, sync;

	EXPECT_EQ(0, vnpu_op_eltwise(&div, "RealDiv", ACL_INT32, 1, 1));
	vnpu_op_set_va(&div, self->va + 2048, self->va + 2048, self->va + 1024, 0);
	EXPECT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &id));
	EXPECT_EQ(0, vnpu_syncobj_create(self->fd, &sync));
	EXPECT_EQ(0, vnpu_op_submit(self->fd, id, &div, sync, NULL));
	EXPECT_EQ(0, vnpu_syncobj_wait(self->fd, sync, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(-EDOM, vnpu_syncobj_fence_status(self->fd, sync));
	EXPECT_EQ(0, vnpu_stream_query(self->fd, id, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_ARITH, q.error);
	vnpu_syncobj_destroy(self->fd, sync);
	return id;
}

/* The header is checked before the stream is looked up. */
TEST_F(bad, order_flags_before_unknown_stream)
{
	struct drm_vnpu_task t = vnpu_task_nop();
	struct drm_vnpu_submit args = vnpu_submit_args(self->stream + 1000, &t, 1);

	EXPECT_EQ(-ENOENT, vnpu_submit_raw(self->fd, &args));
	args.flags = 1u << 1;
	EXPECT_EQ(-EINVAL, vnpu_submit_raw(self->fd, &args));
	args.flags = 0;
	args.task_size = 1;
	EXPECT_EQ(-EINVAL, vnpu_submit_raw(self->fd, &args));
	args.task_size = sizeof(t);
	args.data_size = VNPU_MAX_SUBMIT_DATA + 1;
	EXPECT_EQ(-EINVAL, vnpu_submit_raw(self->fd, &args));
}

/* Every task's kind is checked before any task's fields and ranges. */
TEST_F(bad, order_unknown_kind_before_ranges)
{
	struct drm_vnpu_task t[2] = {
		vnpu_task_write32(self->end, 1),
		{ .kind = VNPU_TASK_OP + 1 },
	};

	EXPECT_EQ(-ENXIO, submit_tasks(self, t, 1));
	EXPECT_EQ(-EINVAL, submit_tasks(self, t, 2));
}

/* Otherwise tasks are checked one at a time: task 0's range wins over task 1's fields. */
TEST_F(bad, order_tasks_in_turn)
{
	struct drm_vnpu_task t[2] = {
		vnpu_task_write32(self->end, 1),
		vnpu_task_fill(self->va, 8, 256),
	};

	EXPECT_EQ(-ENXIO, submit_tasks(self, t, 2));
	t[0] = t[1];
	t[1] = vnpu_task_write32(self->end, 1);
	EXPECT_EQ(-EINVAL, submit_tasks(self, t, 2));
}

/* The tasks and the out-sync are checked before the stream's failure. */
TEST_F(bad, order_tasks_and_out_sync_before_failed_stream)
{
	uint32_t failed = failed_stream(_metadata, self);
	struct drm_vnpu_task nop = vnpu_task_nop();
	struct drm_vnpu_task bad_fill = vnpu_task_fill(self->va, 8, 256);
	struct drm_vnpu_submit args;

	EXPECT_EQ(-EIO, vnpu_submit(self->fd, failed, &nop, 1, NULL, 0, 0, 0, NULL));
	EXPECT_EQ(-EINVAL, vnpu_submit(self->fd, failed, &bad_fill, 1, NULL, 0, 0, 0, NULL));
	EXPECT_EQ(-ENXIO, vnpu_submit(self->fd, failed, (struct drm_vnpu_task[]){
					      vnpu_task_write32(self->end, 1) }, 1,
				      NULL, 0, 0, 0, NULL));
	args = vnpu_submit_args(failed, &nop, 1);
	args.out_sync.handle = 12345;
	EXPECT_EQ(-ENOENT, vnpu_submit_raw(self->fd, &args));
	args.out_sync = (struct drm_vnpu_sync){ .point = 1 };
	EXPECT_EQ(-EINVAL, vnpu_submit_raw(self->fd, &args));
}

/* The stream's failure is checked before the in-syncs are even read. */
TEST_F(bad, order_failed_stream_before_in_syncs)
{
	uint32_t failed = failed_stream(_metadata, self);
	struct drm_vnpu_task nop = vnpu_task_nop();
	struct drm_vnpu_sync in = { .handle = 12345 };
	uint32_t unsignalled;

	EXPECT_EQ(-EIO, vnpu_submit(self->fd, failed, &nop, 1, &in, 1, 0, 0, NULL));
	in.flags = 1;
	EXPECT_EQ(-EIO, vnpu_submit(self->fd, failed, &nop, 1, &in, 1, 0, 0, NULL));
	EXPECT_EQ(-EIO, vnpu_submit(self->fd, failed, &nop, 1, NULL, 1, 0, 0, NULL));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &unsignalled));
	in = (struct drm_vnpu_sync){ .handle = unsignalled };
	EXPECT_EQ(-EIO, vnpu_submit(self->fd, failed, &nop, 1, &in, 1, 0, 0, NULL));
	vnpu_syncobj_destroy(self->fd, unsignalled);
}

/* In-sync flags are checked for all in-syncs before any handle. */
TEST_F(bad, order_in_sync_flags_before_handles)
{
	struct drm_vnpu_sync in[2] = { { .handle = 12345 }, { .handle = 12345, .flags = 1 } };
	struct drm_vnpu_task t = vnpu_task_nop();

	EXPECT_EQ(-ENOENT, vnpu_submit(self->fd, self->stream, &t, 1, in, 1, 0, 0, NULL));
	EXPECT_EQ(-EINVAL, vnpu_submit(self->fd, self->stream, &t, 1, in, 2, 0, 0, NULL));
}

/* ---------------------------------------------------------------- whole batches */

/*
 * One bad task among good ones: the submit fails and none of the batch
 * runs, and the out-syncobj gets no fence.
 */
TEST_F(bad, batch_with_one_bad_task_runs_nothing)
{
	struct drm_vnpu_task t[4] = {
		vnpu_task_write32(self->va + 4, 1),
		vnpu_task_fill(self->va + 64, 64, 0x77),
		vnpu_task_fill(self->va + 128, 64, 300),
		vnpu_task_write32(self->va + 8, 3),
	};
	struct drm_vnpu_task nop = vnpu_task_nop();
	unsigned char *bytes = self->buf.cpu;
	uint32_t sync, other;

	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sync));
	EXPECT_EQ(-EINVAL, vnpu_submit(self->fd, self->stream, t, 4, NULL, 0, sync, 0, NULL));
	EXPECT_EQ(-EINVAL, vnpu_syncobj_fence_status(self->fd, sync));
	/* Anything queued would have run by now: a job on another stream did. */
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &other));
	ASSERT_EQ(0, vnpu_submit_wait(self->fd, other, &nop, 1, NULL));
	EXPECT_EQ(0, *(uint32_t *)(bytes + 4));
	EXPECT_EQ(0, *(uint32_t *)(bytes + 8));
	EXPECT_EQ(0, bytes[64]);
	EXPECT_EQ(0, bytes[127]);
	vnpu_syncobj_destroy(self->fd, sync);
}

/* A bad in-sync after good tasks: nothing queued either. */
TEST_F(bad, batch_with_bad_in_sync_runs_nothing)
{
	struct drm_vnpu_task t = vnpu_task_write32(self->va + 4, 1);
	struct drm_vnpu_sync in = { .handle = 12345 };

	EXPECT_EQ(-ENOENT, vnpu_submit(self->fd, self->stream, &t, 1, &in, 1, 0, 0, NULL));
	EXPECT_EQ(0, *(uint32_t *)((char *)self->buf.cpu + 4));
}

/* The valid edges: the last word and the whole buffer are accepted. */
TEST_F(bad, buffer_edges_are_valid)
{
	struct drm_vnpu_task t[3] = {
		vnpu_task_copy(self->va + BUF_SIZE / 2, self->va + 8, BUF_SIZE / 2 - 8),
		vnpu_task_fill(self->va + 8, BUF_SIZE - 16, 0),
		vnpu_task_write64(self->end - 8, 0x1122),
	};
	struct drm_vnpu_stream_query q;
	uint32_t other;

	/* On another stream, so the fixture's checks still hold. */
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &other));
	ASSERT_EQ(0, vnpu_submit_wait(self->fd, other, t, 3, NULL));
	EXPECT_EQ(0x1122, *(uint64_t *)((char *)self->buf.cpu + BUF_SIZE - 8));
	ASSERT_EQ(0, vnpu_stream_query(self->fd, other, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_NONE, q.error);
}

TEST_HARNESS_MAIN
