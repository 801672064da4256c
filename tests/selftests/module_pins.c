// SPDX-License-Identifier: GPL-2.0
/*
 * What keeps the module loaded (run by tools/vnpu-vm --no-module, as root,
 * from the top of the tree): a dma-buf, a CPU mapping or a job's fence (in
 * an exported syncobj or sync_file) that outlives every open device file
 * keeps the module loaded; once it goes, the module unloads (and the guest
 * runner's kernel log scan checks it did so cleanly). Each test loads the
 * module itself (with vnpu-engined) and leaves it unloaded.
 */
#include <fcntl.h>
#include <linux/sync_file.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <xf86drm.h>

#include "harness/harness.h"
#include "lib/vnpu_bo_util.h"
#include "lib/vnpu_stream_util.h"
#include "lib/vnpu_test.h"

#define MODLOAD "build/tools/vnpu-modload"

static bool module_loaded(void)
{
	struct stat st;

	return !stat("/sys/module/vnpu", &st);
}

static int modload(const char *args)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), MODLOAD " %s >/dev/null 2>&1", args);
	return system(cmd);
}

FIXTURE(life) {
	int fd;
};

FIXTURE_SETUP(life)
{
	if (module_loaded())
		modload("unload vnpu");
	ASSERT_FALSE(module_loaded()) TH_LOG("vnpu is loaded and busy: run with --no-module");
	ASSERT_EQ(0, modload("load build/vnpu.ko"));
	self->fd = vnpu_open_device(0);
	ASSERT_GE(self->fd, 0);
}

FIXTURE_TEARDOWN(life)
{
	if (self->fd >= 0)
		close(self->fd);
	if (module_loaded())
		modload("unload vnpu");
}

TEST_F(life, dmabuf_pins_module)
{
	uint32_t h;
	int dmabuf;

	ASSERT_EQ(0, vnpu_bo_create(self->fd, 1 << 20, 0, &h, NULL));
	ASSERT_EQ(0, vnpu_prime_export(self->fd, h, &dmabuf));
	close(self->fd);
	self->fd = -1;
	EXPECT_NE(0, modload("unload vnpu"));
	EXPECT_TRUE(module_loaded());
	close(dmabuf);
	EXPECT_EQ(0, modload("unload vnpu"));
	EXPECT_FALSE(module_loaded());
}

TEST_F(life, mapping_pins_module)
{
	uint32_t h;
	uint8_t *p;

	ASSERT_EQ(0, vnpu_bo_create(self->fd, 1 << 20, 0, &h, NULL));
	p = vnpu_bo_mmap(self->fd, h, 1 << 20);
	ASSERT_NONNULL(p);
	vnpu_fill_pattern(p, 1 << 20, 1);
	close(self->fd);
	self->fd = -1;
	EXPECT_NE(0, modload("unload vnpu"));
	EXPECT_EQ(-1, vnpu_check_pattern(p, 1 << 20, 1));
	munmap(p, 1 << 20);
	EXPECT_EQ(0, modload("unload vnpu"));
	EXPECT_FALSE(module_loaded());
}

/* Every kind of buffer alive at close: the file's release frees them all. */
TEST_F(life, unload_after_busy_file)
{
	void *user = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int other = vnpu_open_device(0), dmabuf;
	uint32_t h, h2;

	ASSERT_NE(MAP_FAILED, user);
	ASSERT_GE(other, 0);
	for (int i = 0; i < 100; i++)
		ASSERT_EQ(0, vnpu_bo_create(self->fd, 4096 * (i + 1), i & 1, &h, NULL));
	ASSERT_EQ(0, vnpu_bo_create(self->fd, 1 << 20, VNPU_BO_HOST, &h, NULL));
	ASSERT_EQ(0, vnpu_bo_userptr(self->fd, user, 1 << 20, &h2, NULL));
	ASSERT_EQ(0, vnpu_prime_export(self->fd, h2, &dmabuf));
	ASSERT_EQ(0, vnpu_prime_import(other, dmabuf, &h2));
	close(dmabuf);
	close(self->fd);
	self->fd = -1;
	close(other);
	EXPECT_EQ(0, vnpu_vm_pinned_kib());
	EXPECT_EQ(0, modload("unload vnpu"));
	EXPECT_FALSE(module_loaded());
	munmap(user, 1 << 20);
}

/*
 * A job on a new stream of @fd whose fence lands in a new syncobj: a NOP
 * that has ended, or (@pending) a wait for a word that never changes, so
 * its fence is still unsignalled when the file goes.
 */
static uint32_t job_fence(struct th_metadata *_metadata, int fd, bool pending)
{
	struct drm_vnpu_task t = vnpu_task_nop();
	uint32_t stream, syncobj, h;
	uint64_t va;

	ASSERT_EQ(0, vnpu_stream_create(fd, 0, &stream));
	ASSERT_EQ(0, vnpu_syncobj_create(fd, &syncobj));
	if (pending) {
		ASSERT_EQ(0, vnpu_bo_create(fd, 4096, 0, &h, &va));
		t = vnpu_task_wait32(va, VNPU_WAIT_EQ, 1);
	}
	ASSERT_EQ(0, vnpu_submit(fd, stream, &t, 1, NULL, 0, syncobj, 0, NULL));
	if (!pending)
		ASSERT_EQ(0, vnpu_syncobj_wait(fd, syncobj, VNPU_WAIT_FOREVER_NS));
	return syncobj;
}

/* The one fence of sync_file @sf: 0, or -errno; @info filled in. */
static int sync_file_fence(int sf, struct sync_fence_info *info)
{
	struct sync_file_info file = { .num_fences = 1, .sync_fence_info = (uintptr_t)info };

	memset(info, 0, sizeof(*info));
	if (ioctl(sf, SYNC_IOC_FILE_INFO, &file))
		return -errno;
	return file.num_fences == 1 ? 0 : -EPROTO;
}

/* A syncobj file holding a finished job's fence pins the module. */
TEST_F(life, syncobj_fd_pins_module)
{
	uint32_t syncobj = job_fence(_metadata, self->fd, false);
	int obj_fd;

	ASSERT_EQ(0, drmSyncobjHandleToFD(self->fd, syncobj, &obj_fd));
	close(self->fd);
	self->fd = -1;
	EXPECT_NE(0, modload("unload vnpu"));
	EXPECT_TRUE(module_loaded());
	close(obj_fd);
	EXPECT_EQ(0, modload("unload vnpu"));
	EXPECT_FALSE(module_loaded());
}

/* So does a sync_file, which still names its fence's driver and timeline. */
TEST_F(life, sync_file_pins_module)
{
	uint32_t syncobj = job_fence(_metadata, self->fd, false);
	struct sync_fence_info info;
	int sf;

	ASSERT_EQ(0, drmSyncobjExportSyncFile(self->fd, syncobj, &sf));
	close(self->fd);
	self->fd = -1;
	EXPECT_NE(0, modload("unload vnpu"));
	EXPECT_TRUE(module_loaded());
	ASSERT_EQ(0, sync_file_fence(sf, &info));
	EXPECT_STREQ("vnpu", info.driver_name);
	EXPECT_STREQ("vnpu-stream", info.obj_name);
	EXPECT_EQ(1, info.status);
	close(sf);
	EXPECT_EQ(0, modload("unload vnpu"));
	EXPECT_FALSE(module_loaded());
}

/*
 * A fence still pending when its file goes ends with an error then, and
 * pins the module as long as it lives, in a syncobj file or a sync_file.
 */
TEST_F(life, pending_fence_pins_module)
{
	uint32_t syncobj = job_fence(_metadata, self->fd, true);
	struct sync_fence_info info;
	int sf, obj_fd;

	ASSERT_EQ(0, drmSyncobjExportSyncFile(self->fd, syncobj, &sf));
	ASSERT_EQ(0, drmSyncobjHandleToFD(self->fd, syncobj, &obj_fd));
	ASSERT_EQ(0, sync_file_fence(sf, &info));
	EXPECT_EQ(0, info.status);
	close(self->fd);
	self->fd = -1;
	/* The job is cancelled as its file goes, through the engine server. */
	ASSERT_EQ(1, poll(&(struct pollfd){ .fd = sf, .events = POLLIN }, 1,
			  (int)(VNPU_WAIT_FOREVER_NS / 1000000)));
	ASSERT_EQ(0, sync_file_fence(sf, &info));
	EXPECT_LT(info.status, 0);
	EXPECT_NE(0, modload("unload vnpu"));
	close(sf);
	EXPECT_NE(0, modload("unload vnpu"));
	EXPECT_TRUE(module_loaded());
	close(obj_fd);
	EXPECT_EQ(0, modload("unload vnpu"));
	EXPECT_FALSE(module_loaded());
}

TEST_HARNESS_MAIN
