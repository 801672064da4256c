// SPDX-License-Identifier: GPL-2.0
/*
 * The device node, the driver identity and GET_PARAM: values and every bad
 * input with its exact errno.
 */
#include <fcntl.h>
#include <sys/ioctl.h>
#include <xf86drm.h>

#include "harness/harness.h"
#include "lib/vnpu_test.h"

FIXTURE(dev) {
	int fd;
};

FIXTURE_SETUP(dev)
{
	self->fd = vnpu_open_device(0);
	ASSERT_GE(self->fd, 0) TH_LOG("no vnpu render node");
}

FIXTURE_TEARDOWN(dev)
{
	close(self->fd);
}

TEST_F(dev, version_is_vnpu)
{
	drmVersionPtr v = drmGetVersion(self->fd);

	ASSERT_NONNULL(v);
	EXPECT_STREQ("vnpu", v->name);
	EXPECT_EQ(VNPU_ABI_MAJOR, v->version_major);
	EXPECT_EQ(VNPU_ABI_MINOR, v->version_minor);
	drmFreeVersion(v);
}

TEST_F(dev, render_node_type)
{
	EXPECT_EQ(DRM_NODE_RENDER, drmGetNodeTypeFromFd(self->fd));
}

TEST_F(dev, param_values)
{
	unsigned long engines, mem_mib, devices, per_file, per_dev, timeout, jobs;
	uint64_t v;

	ASSERT_TRUE(vnpu_module_param("engines", &engines));
	ASSERT_TRUE(vnpu_module_param("mem_mib", &mem_mib));
	ASSERT_TRUE(vnpu_module_param("devices", &devices));
	ASSERT_TRUE(vnpu_module_param("max_streams_per_file", &per_file));
	ASSERT_TRUE(vnpu_module_param("max_streams", &per_dev));
	ASSERT_TRUE(vnpu_module_param("job_timeout_ms", &timeout));
	ASSERT_TRUE(vnpu_module_param("max_jobs_per_file", &jobs));

	ASSERT_EQ(0, vnpu_get_param(self->fd, VNPU_PARAM_ABI_VERSION, &v));
	EXPECT_EQ(VNPU_ABI_MAJOR << 16 | VNPU_ABI_MINOR, v);
	EXPECT_EQ(2u << 16 | 3, v);
	ASSERT_EQ(0, vnpu_get_param(self->fd, VNPU_PARAM_DEVICE_INDEX, &v));
	EXPECT_EQ(0, v);
	ASSERT_EQ(0, vnpu_get_param(self->fd, VNPU_PARAM_NUM_DEVICES, &v));
	EXPECT_EQ(devices, v);
	ASSERT_EQ(0, vnpu_get_param(self->fd, VNPU_PARAM_NUM_ENGINES, &v));
	EXPECT_EQ(engines, v);
	ASSERT_EQ(0, vnpu_get_param(self->fd, VNPU_PARAM_MEM_CAPACITY, &v));
	EXPECT_EQ((uint64_t)mem_mib << 20, v);
	ASSERT_EQ(0, vnpu_get_param(self->fd, VNPU_PARAM_FILE_MEM_USED, &v));
	EXPECT_EQ(0, v);
	ASSERT_EQ(0, vnpu_get_param(self->fd, VNPU_PARAM_VA_START, &v));
	EXPECT_EQ(VNPU_VA_START, v);
	ASSERT_EQ(0, vnpu_get_param(self->fd, VNPU_PARAM_VA_END, &v));
	EXPECT_EQ(VNPU_VA_START + VNPU_VA_DEVICE_SPAN, v);
	ASSERT_EQ(0, vnpu_get_param(self->fd, VNPU_PARAM_MAX_BO_SIZE, &v));
	EXPECT_EQ(64ull << 30, v);
	ASSERT_EQ(0, vnpu_get_param(self->fd, VNPU_PARAM_MAX_STREAMS_PER_FILE, &v));
	EXPECT_EQ(per_file, v);
	ASSERT_EQ(0, vnpu_get_param(self->fd, VNPU_PARAM_MAX_STREAMS, &v));
	EXPECT_EQ(per_dev, v);
	ASSERT_EQ(0, vnpu_get_param(self->fd, VNPU_PARAM_MAX_TASKS_PER_SUBMIT, &v));
	EXPECT_EQ(4096, v);
	ASSERT_EQ(0, vnpu_get_param(self->fd, VNPU_PARAM_JOB_TIMEOUT_MS, &v));
	EXPECT_EQ(timeout, v);
	ASSERT_EQ(0, vnpu_get_param(self->fd, VNPU_PARAM_CLIENT_ID, &v));
	EXPECT_NE(0, v);
	ASSERT_EQ(0, vnpu_get_param(self->fd, VNPU_PARAM_MAX_JOBS_PER_FILE, &v));
	EXPECT_EQ(jobs, v);
	ASSERT_EQ(0, vnpu_get_param(self->fd, VNPU_PARAM_FILE_JOBS, &v));
	EXPECT_EQ(0, v);
	/* The guest's vnpu-engined serves every device. */
	ASSERT_EQ(0, vnpu_get_param(self->fd, VNPU_PARAM_ENGINE_ATTACHED, &v));
	EXPECT_EQ(1, v);
	ASSERT_EQ(0, vnpu_get_param(self->fd, VNPU_PARAM_ENGINE_ATTACHES, &v));
	EXPECT_GE(v, 1);
	ASSERT_EQ(0, vnpu_get_param(self->fd, VNPU_PARAM_MAX_SUBMIT_DATA, &v));
	EXPECT_EQ(VNPU_MAX_SUBMIT_DATA, v);
	ASSERT_EQ(0, vnpu_get_param(self->fd, VNPU_PARAM_MAX_OP_DESC_SIZE, &v));
	EXPECT_EQ(VNPU_MAX_OP_DESC_SIZE, v);
	ASSERT_EQ(0, vnpu_get_param(self->fd, VNPU_PARAM_MAX_OP_OPERANDS, &v));
	EXPECT_EQ(VNPU_MAX_OP_OPERANDS, v);
	ASSERT_EQ(0, vnpu_get_param(self->fd, VNPU_PARAM_MAX_SUBMIT_OPERANDS, &v));
	EXPECT_EQ(VNPU_MAX_SUBMIT_OPERANDS, v);
}

TEST_F(dev, client_ids_differ_per_file)
{
	int fd2 = vnpu_open_device(0);
	uint64_t a, b;

	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, vnpu_get_param(self->fd, VNPU_PARAM_CLIENT_ID, &a));
	ASSERT_EQ(0, vnpu_get_param(fd2, VNPU_PARAM_CLIENT_ID, &b));
	EXPECT_NE(a, b);
	close(fd2);
}

TEST_F(dev, bad_param)
{
	struct drm_vnpu_get_param args = { .param = 0x7fffffff };

	EXPECT_EQ(-EINVAL, vnpu_ioctl(self->fd, DRM_IOCTL_VNPU_GET_PARAM, &args));
	args.param = VNPU_PARAM_MAX_SUBMIT_OPERANDS + 1;
	EXPECT_EQ(-EINVAL, vnpu_ioctl(self->fd, DRM_IOCTL_VNPU_GET_PARAM, &args));
}

TEST_F(dev, bad_pad)
{
	struct drm_vnpu_get_param args = { .param = VNPU_PARAM_ABI_VERSION, .pad = 1 };

	EXPECT_EQ(-EINVAL, vnpu_ioctl(self->fd, DRM_IOCTL_VNPU_GET_PARAM, &args));
}

TEST_F(dev, bad_pointer)
{
	EXPECT_EQ(-EFAULT, vnpu_ioctl(self->fd, DRM_IOCTL_VNPU_GET_PARAM, NULL));
	EXPECT_EQ(-EFAULT, vnpu_ioctl(self->fd, DRM_IOCTL_VNPU_GET_PARAM, (void *)8));
}

/*
 * The DRM core zero-extends a short struct (old userspace) and ignores the
 * tail of a long one (new userspace): a short GET_PARAM is a valid request
 * whose reply is cut to the caller's size.
 */
TEST_F(dev, short_struct_is_zero_extended)
{
	struct { uint32_t param; uint32_t guard; } args = {
		.param = VNPU_PARAM_ABI_VERSION, .guard = 0xdeadbeef,
	};
	unsigned long cmd = DRM_IOC(DRM_IOC_READWRITE, DRM_IOCTL_BASE,
				    DRM_COMMAND_BASE + DRM_VNPU_GET_PARAM, 4);

	EXPECT_EQ(0, vnpu_ioctl(self->fd, cmd, &args));
	EXPECT_EQ(0xdeadbeef, args.guard);
}

TEST_F(dev, long_struct_tail_ignored)
{
	struct { struct drm_vnpu_get_param p; uint64_t extra; } args = {
		.p.param = VNPU_PARAM_ABI_VERSION, .extra = ~0ull,
	};
	unsigned long cmd = DRM_IOC(DRM_IOC_READWRITE, DRM_IOCTL_BASE,
				    DRM_COMMAND_BASE + DRM_VNPU_GET_PARAM, sizeof(args));

	EXPECT_EQ(0, vnpu_ioctl(self->fd, cmd, &args));
	EXPECT_EQ(VNPU_ABI_MAJOR << 16 | VNPU_ABI_MINOR, args.p.value);
}

TEST_F(dev, unknown_ioctl)
{
	uint64_t buf[8] = { 0 };
	unsigned long cmd = DRM_IOWR(DRM_COMMAND_BASE + 0x3f, uint64_t[8]);

	EXPECT_EQ(-EINVAL, vnpu_ioctl(self->fd, cmd, buf));
}

TEST(every_device_has_its_index)
{
	unsigned long devices;
	unsigned int i;

	ASSERT_TRUE(vnpu_module_param("devices", &devices));
	EXPECT_EQ(devices, vnpu_count_devices());
	for (i = 0; i < devices; i++) {
		int fd = vnpu_open_device(i);
		uint64_t v;

		ASSERT_GE(fd, 0);
		EXPECT_EQ(0, vnpu_get_param(fd, VNPU_PARAM_DEVICE_INDEX, &v));
		EXPECT_EQ(i, v);
		/* Device windows are disjoint: a VA names one device. */
		EXPECT_EQ(0, vnpu_get_param(fd, VNPU_PARAM_VA_START, &v));
		EXPECT_EQ(VNPU_VA_START + i * VNPU_VA_DEVICE_SPAN, v);
		EXPECT_EQ(0, vnpu_get_param(fd, VNPU_PARAM_VA_END, &v));
		EXPECT_EQ(VNPU_VA_START + (i + 1) * VNPU_VA_DEVICE_SPAN, v);
		close(fd);
	}
}

TEST_HARNESS_MAIN
