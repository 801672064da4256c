// SPDX-License-Identifier: GPL-2.0
/*
 * PRIME sharing on one device: export to a dma-buf, import in the same
 * file, another file and another process (fork), each importer with its
 * own handle and VA over the same pages; lifetimes and bad inputs.
 */
#include <sys/mman.h>
#include <sys/wait.h>

#include "harness/harness.h"
#include "lib/vnpu_bo_util.h"
#include "lib/vnpu_test.h"

#define KiB 1024ull
#define MiB (1024ull * 1024)
#define PAGE 4096ull

FIXTURE(prime) {
	int fd;
	uint64_t mem0;
};

FIXTURE_SETUP(prime)
{
	self->fd = vnpu_open_device(0);
	ASSERT_GE(self->fd, 0) TH_LOG("no vnpu render node");
	self->mem0 = vnpu_param(self->fd, VNPU_PARAM_MEM_USED);
}

FIXTURE_TEARDOWN(prime)
{
	close(self->fd);
}

/* Importing into the exporting file gives back the same handle. */
TEST_F(prime, reimport_same_file)
{
	uint32_t h, h2;
	int dmabuf;

	ASSERT_EQ(0, vnpu_bo_create(self->fd, PAGE, 0, &h, NULL));
	ASSERT_EQ(0, vnpu_prime_export(self->fd, h, &dmabuf));
	ASSERT_EQ(0, vnpu_prime_import(self->fd, dmabuf, &h2));
	EXPECT_EQ(h, h2);
	EXPECT_EQ(PAGE, vnpu_param(self->fd, VNPU_PARAM_FILE_MEM_USED));
	close(dmabuf);
	EXPECT_EQ(0, vnpu_bo_close(self->fd, h));
	EXPECT_EQ(self->mem0, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));
}

/* Another file: its own handle and VA, the same bytes both ways. */
TEST_F(prime, other_file_shares_bytes)
{
	struct drm_vnpu_bo_info info;
	struct vnpu_resolve ra, rb;
	uint8_t *pa, *pb;
	uint32_t ha, hb;
	uint64_t va;
	int dmabuf, other = vnpu_open_device(0);

	ASSERT_GE(other, 0);
	ASSERT_EQ(0, vnpu_bo_create(self->fd, 64 * KiB, 0, &ha, &va));
	pa = vnpu_bo_mmap(self->fd, ha, 64 * KiB);
	ASSERT_NONNULL(pa);
	vnpu_fill_pattern(pa, 64 * KiB, 21);
	ASSERT_EQ(0, vnpu_prime_export(self->fd, ha, &dmabuf));
	ASSERT_EQ(0, vnpu_prime_import(other, dmabuf, &hb));
	close(dmabuf);

	ASSERT_EQ(0, vnpu_bo_info(other, hb, &info));
	EXPECT_EQ(64 * KiB, info.size);
	EXPECT_EQ(0, info.flags);
	EXPECT_GE(info.va, VNPU_VA_START);
	pb = vnpu_bo_mmap(other, hb, 64 * KiB);
	ASSERT_NONNULL(pb);
	EXPECT_EQ(-1, vnpu_check_pattern(pb, 64 * KiB, 21));
	vnpu_fill_pattern(pb, 64 * KiB, 22);
	EXPECT_EQ(-1, vnpu_check_pattern(pa, 64 * KiB, 22));

	/* Each file's own VA names the buffer in that file. */
	ASSERT_EQ(0, vnpu_fd_resolve(self->fd, va, 64 * KiB, &ra));
	ASSERT_EQ(0, vnpu_fd_resolve(other, info.va, 64 * KiB, &rb));
	EXPECT_EQ(0, ra.err);
	EXPECT_EQ(0, rb.err);
	EXPECT_EQ(vnpu_crc32(pa, 64 * KiB), ra.crc);
	EXPECT_EQ(ra.crc, rb.crc);

	/* Charged once to the device, counted in both files. */
	EXPECT_EQ(self->mem0 + 64 * KiB, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));
	EXPECT_EQ(64 * KiB, vnpu_param(self->fd, VNPU_PARAM_FILE_MEM_USED));
	EXPECT_EQ(64 * KiB, vnpu_param(other, VNPU_PARAM_FILE_MEM_USED));

	munmap(pa, 64 * KiB);
	munmap(pb, 64 * KiB);
	EXPECT_EQ(0, vnpu_bo_close(self->fd, ha));
	EXPECT_EQ(self->mem0 + 64 * KiB, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));
	close(other);
	EXPECT_EQ(self->mem0, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));
}

/* Two processes: the child imports the inherited dma-buf in its own file. */
TEST_F(prime, fork_shares_bytes)
{
	uint8_t *p;
	uint32_t h;
	int dmabuf, status;
	pid_t pid;

	ASSERT_EQ(0, vnpu_bo_create(self->fd, MiB, 0, &h, NULL));
	p = vnpu_bo_mmap(self->fd, h, MiB);
	ASSERT_NONNULL(p);
	vnpu_fill_pattern(p, MiB, 31);
	ASSERT_EQ(0, vnpu_prime_export(self->fd, h, &dmabuf));

	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		struct drm_vnpu_bo_info info;
		struct vnpu_resolve r;
		uint32_t ch;
		uint8_t *cp;
		int fd = vnpu_open_device(0);

		ASSERT_GE(fd, 0);
		ASSERT_NE(vnpu_param(fd, VNPU_PARAM_CLIENT_ID),
			  vnpu_param(self->fd, VNPU_PARAM_CLIENT_ID));
		ASSERT_EQ(0, vnpu_prime_import(fd, dmabuf, &ch));
		ASSERT_EQ(0, vnpu_bo_info(fd, ch, &info));
		ASSERT_EQ(MiB, info.size);
		cp = vnpu_bo_mmap(fd, ch, MiB);
		ASSERT_NONNULL(cp);
		ASSERT_EQ(-1, vnpu_check_pattern(cp, MiB, 31));
		ASSERT_EQ(0, vnpu_fd_resolve(fd, info.va, MiB, &r));
		ASSERT_EQ(0, r.err);
		ASSERT_EQ(vnpu_crc32(cp, MiB), r.crc);
		vnpu_fill_pattern(cp, MiB, 32);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* The child is gone; its writes stay. */
	EXPECT_EQ(-1, vnpu_check_pattern(p, MiB, 32));
	EXPECT_EQ(self->mem0 + MiB, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));
	close(dmabuf);
	munmap(p, MiB);
	EXPECT_EQ(0, vnpu_bo_close(self->fd, h));
	EXPECT_EQ(self->mem0, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));
}

/* The dma-buf keeps the memory after the last handle; importing revives it. */
TEST_F(prime, dmabuf_keeps_memory)
{
	struct drm_vnpu_bo_info info;
	struct vnpu_resolve r;
	uint8_t *p;
	uint32_t h, h2;
	int dmabuf;

	ASSERT_EQ(0, vnpu_bo_create(self->fd, 2 * PAGE, 0, &h, NULL));
	p = vnpu_bo_mmap(self->fd, h, 2 * PAGE);
	ASSERT_NONNULL(p);
	vnpu_fill_pattern(p, 2 * PAGE, 41);
	munmap(p, 2 * PAGE);
	ASSERT_EQ(0, vnpu_prime_export(self->fd, h, &dmabuf));
	ASSERT_EQ(0, vnpu_bo_close(self->fd, h));
	EXPECT_EQ(self->mem0 + 2 * PAGE, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));
	EXPECT_EQ(0, vnpu_param(self->fd, VNPU_PARAM_FILE_MEM_USED));

	ASSERT_EQ(0, vnpu_prime_import(self->fd, dmabuf, &h2));
	ASSERT_EQ(0, vnpu_bo_info(self->fd, h2, &info));
	p = vnpu_bo_mmap(self->fd, h2, 2 * PAGE);
	ASSERT_NONNULL(p);
	EXPECT_EQ(-1, vnpu_check_pattern(p, 2 * PAGE, 41));
	ASSERT_EQ(0, vnpu_fd_resolve(self->fd, info.va, 2 * PAGE, &r));
	EXPECT_EQ(0, r.err);
	EXPECT_EQ(vnpu_crc32(p, 2 * PAGE), r.crc);
	munmap(p, 2 * PAGE);
	close(dmabuf);
	EXPECT_EQ(0, vnpu_bo_close(self->fd, h2));
	EXPECT_EQ(self->mem0, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));
}

/* The dma-buf itself can be mapped by the CPU. */
TEST_F(prime, dmabuf_mmap)
{
	uint8_t *p, *d;
	uint32_t h;
	int dmabuf;

	ASSERT_EQ(0, vnpu_bo_create(self->fd, 3 * PAGE, 0, &h, NULL));
	p = vnpu_bo_mmap(self->fd, h, 3 * PAGE);
	ASSERT_NONNULL(p);
	vnpu_fill_pattern(p, 3 * PAGE, 51);
	ASSERT_EQ(0, vnpu_prime_export(self->fd, h, &dmabuf));
	d = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, dmabuf, 0);
	ASSERT_NE(MAP_FAILED, d);
	EXPECT_EQ(-1, vnpu_check_pattern(d, 3 * PAGE, 51));
	vnpu_fill_pattern(d, 3 * PAGE, 52);
	EXPECT_EQ(-1, vnpu_check_pattern(p, 3 * PAGE, 52));
	munmap(d, 3 * PAGE);
	munmap(p, 3 * PAGE);
	close(dmabuf);
	EXPECT_EQ(0, vnpu_bo_close(self->fd, h));
}

/* Host buffers share the same way and stay host memory in the importer. */
TEST_F(prime, host_buffer)
{
	uint64_t host0 = vnpu_param(self->fd, VNPU_PARAM_HOST_MEM_USED), kib;
	struct drm_vnpu_bo_info info;
	uint32_t h, h2;
	int dmabuf, other = vnpu_open_device(0);

	ASSERT_GE(other, 0);
	ASSERT_EQ(0, vnpu_bo_create(self->fd, MiB, VNPU_BO_HOST, &h, NULL));
	ASSERT_EQ(0, vnpu_prime_export(self->fd, h, &dmabuf));
	ASSERT_EQ(0, vnpu_prime_import(other, dmabuf, &h2));
	close(dmabuf);
	ASSERT_EQ(0, vnpu_bo_info(other, h2, &info));
	EXPECT_EQ(VNPU_BO_HOST, info.flags);
	ASSERT_EQ(0, vnpu_fdinfo_kib(other, "drm-shared-system", &kib));
	EXPECT_EQ(1024, kib);
	EXPECT_EQ(0, vnpu_param(other, VNPU_PARAM_FILE_MEM_USED));
	close(other);
	EXPECT_EQ(0, vnpu_bo_close(self->fd, h));
	EXPECT_EQ(host0, vnpu_param(self->fd, VNPU_PARAM_HOST_MEM_USED));
}

TEST_F(prime, export_bad_handle)
{
	int dmabuf;

	EXPECT_EQ(-ENOENT, vnpu_prime_export(self->fd, 0, &dmabuf));
	EXPECT_EQ(-ENOENT, vnpu_prime_export(self->fd, 9999, &dmabuf));
}

TEST_F(prime, export_bad_flags)
{
	struct drm_prime_handle args = { .flags = 0x4000 };
	uint32_t h;

	ASSERT_EQ(0, vnpu_bo_create(self->fd, PAGE, 0, &h, NULL));
	args.handle = h;
	EXPECT_EQ(-EINVAL, vnpu_ioctl(self->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &args));
	EXPECT_EQ(0, vnpu_bo_close(self->fd, h));
}

TEST_F(prime, import_bad_fd)
{
	uint32_t h;
	int pipefd[2];

	EXPECT_EQ(-EBADF, vnpu_prime_import(self->fd, -1, &h));
	ASSERT_EQ(0, pipe(pipefd));
	EXPECT_EQ(-EINVAL, vnpu_prime_import(self->fd, pipefd[0], &h));
	/* The device file itself is no dma-buf either. */
	EXPECT_EQ(-EINVAL, vnpu_prime_import(self->fd, self->fd, &h));
	close(pipefd[0]);
	close(pipefd[1]);
	EXPECT_EQ(0, vnpu_param(self->fd, VNPU_PARAM_FILE_MEM_USED));
}

/* Exporter and importers let go in every order without leaking. */
TEST_F(prime, release_orders)
{
	for (int order = 0; order < 3; order++) {
		uint32_t h, h2;
		int dmabuf, other = vnpu_open_device(0);

		ASSERT_GE(other, 0);
		ASSERT_EQ(0, vnpu_bo_create(self->fd, 5 * PAGE, 0, &h, NULL));
		ASSERT_EQ(0, vnpu_prime_export(self->fd, h, &dmabuf));
		ASSERT_EQ(0, vnpu_prime_import(other, dmabuf, &h2));
		if (order == 0) {
			close(dmabuf);
			close(other);
			EXPECT_EQ(0, vnpu_bo_close(self->fd, h));
		} else if (order == 1) {
			EXPECT_EQ(0, vnpu_bo_close(self->fd, h));
			close(other);
			close(dmabuf);
		} else {
			EXPECT_EQ(0, vnpu_bo_close(other, h2));
			EXPECT_EQ(0, vnpu_bo_close(self->fd, h));
			EXPECT_EQ(self->mem0 + 5 * PAGE, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));
			close(dmabuf);
			close(other);
		}
		EXPECT_EQ(self->mem0, vnpu_param(self->fd, VNPU_PARAM_MEM_USED))
			TH_LOG("order %d", order);
	}
}

TEST_HARNESS_MAIN
