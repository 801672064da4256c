// SPDX-License-Identifier: GPL-2.0
/*
 * Buffers and the module's lifetime (run by tools/vnpu-vm --no-module, as
 * root, from the top of the tree): a dma-buf or a CPU mapping that outlives
 * every open device file keeps the module loaded; once it goes, the module
 * unloads (and the guest runner's kernel log scan checks it did so cleanly).
 * Each test loads the module itself and leaves it unloaded.
 */
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "harness/harness.h"
#include "lib/vnpu_bo_util.h"
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

TEST_HARNESS_MAIN
