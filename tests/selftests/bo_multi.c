// SPDX-License-Identifier: GPL-2.0
/*
 * Buffers across vnpu devices (run with devices=2 or more): PRIME import of
 * one device's buffer in another, which gets its own handle and VA over the
 * same pages and does not charge it to its own capacity; capacities are
 * per device.
 */
#include <sys/mman.h>

#include "harness/harness.h"
#include "lib/vnpu_bo_util.h"
#include "lib/vnpu_test.h"

#define KiB 1024ull
#define MiB (1024ull * 1024)
#define PAGE 4096ull

FIXTURE(multi) {
	int fd0, fd1;
};

FIXTURE_SETUP(multi)
{
	self->fd0 = vnpu_open_device(0);
	self->fd1 = vnpu_open_device(1);
	ASSERT_GE(self->fd0, 0);
	ASSERT_GE(self->fd1, 0) TH_LOG("needs two vnpu devices (devices=2)");
	ASSERT_EQ(0, vnpu_param(self->fd0, VNPU_PARAM_MEM_USED));
	ASSERT_EQ(0, vnpu_param(self->fd1, VNPU_PARAM_MEM_USED));
}

FIXTURE_TEARDOWN(multi)
{
	close(self->fd0);
	close(self->fd1);
}

TEST_F(multi, import_from_other_device)
{
	struct drm_vnpu_bo_info info;
	struct vnpu_resolve r0, r1;
	uint8_t *p0, *p1;
	uint32_t h0, h1;
	uint64_t va0, kib;
	int dmabuf;

	ASSERT_EQ(0, vnpu_bo_create(self->fd0, MiB, 0, &h0, &va0));
	p0 = vnpu_bo_mmap(self->fd0, h0, MiB);
	ASSERT_NONNULL(p0);
	vnpu_fill_pattern(p0, MiB, 61);
	ASSERT_EQ(0, vnpu_prime_export(self->fd0, h0, &dmabuf));
	ASSERT_EQ(0, vnpu_prime_import(self->fd1, dmabuf, &h1));
	close(dmabuf);

	ASSERT_EQ(0, vnpu_bo_info(self->fd1, h1, &info));
	EXPECT_EQ(VNPU_BO_IMPORTED, info.flags);
	EXPECT_EQ(MiB, info.size);
	/* The import gets a VA in device 1's own window. */
	EXPECT_GE(info.va, vnpu_param(self->fd1, VNPU_PARAM_VA_START));
	EXPECT_LE(info.va + MiB, vnpu_param(self->fd1, VNPU_PARAM_VA_END));
	EXPECT_EQ(VNPU_VA_START + VNPU_VA_DEVICE_SPAN, vnpu_param(self->fd1, VNPU_PARAM_VA_START));
	EXPECT_NE(0, info.mmap_offset);

	/* Device 0's memory: charged there only; system memory to device 1. */
	EXPECT_EQ(MiB, vnpu_param(self->fd0, VNPU_PARAM_MEM_USED));
	EXPECT_EQ(0, vnpu_param(self->fd1, VNPU_PARAM_MEM_USED));
	EXPECT_EQ(0, vnpu_param(self->fd1, VNPU_PARAM_FILE_MEM_USED));
	ASSERT_EQ(0, vnpu_fdinfo_kib(self->fd1, "drm-total-system", &kib));
	EXPECT_EQ(1024, kib);
	ASSERT_EQ(0, vnpu_fdinfo_kib(self->fd1, "drm-shared-system", &kib));
	EXPECT_EQ(1024, kib);
	ASSERT_EQ(0, vnpu_fdinfo_kib(self->fd1, "drm-total-vram", &kib));
	EXPECT_EQ(0, kib);

	/* Same bytes, for the CPU and for both devices' engines. */
	p1 = vnpu_bo_mmap(self->fd1, h1, MiB);
	ASSERT_NONNULL(p1);
	EXPECT_EQ(-1, vnpu_check_pattern(p1, MiB, 61));
	vnpu_fill_pattern(p1, MiB, 62);
	EXPECT_EQ(-1, vnpu_check_pattern(p0, MiB, 62));
	ASSERT_EQ(0, vnpu_fd_resolve(self->fd0, va0, MiB, &r0));
	ASSERT_EQ(0, vnpu_fd_resolve(self->fd1, info.va, MiB, &r1));
	EXPECT_EQ(0, r0.err);
	EXPECT_EQ(0, r1.err);
	EXPECT_EQ(vnpu_crc32(p0, MiB), r0.crc);
	EXPECT_EQ(r0.crc, r1.crc);

	munmap(p0, MiB);
	munmap(p1, MiB);
	EXPECT_EQ(0, vnpu_bo_close(self->fd1, h1));
	EXPECT_EQ(0, vnpu_bo_close(self->fd0, h0));
	EXPECT_EQ(0, vnpu_param(self->fd0, VNPU_PARAM_MEM_USED));
}

/* The exporter's file can go first: the importer keeps the memory. */
TEST_F(multi, exporter_closes_first)
{
	struct drm_vnpu_bo_info info;
	struct vnpu_resolve r;
	uint8_t copy[64 * KiB], *p;
	uint32_t h0, h1;
	int dmabuf, fd0b = vnpu_open_device(0);

	ASSERT_GE(fd0b, 0);
	ASSERT_EQ(0, vnpu_bo_create(fd0b, 64 * KiB, 0, &h0, NULL));
	p = vnpu_bo_mmap(fd0b, h0, 64 * KiB);
	ASSERT_NONNULL(p);
	vnpu_fill_pattern(p, 64 * KiB, 63);
	memcpy(copy, p, sizeof(copy));
	munmap(p, 64 * KiB);
	ASSERT_EQ(0, vnpu_prime_export(fd0b, h0, &dmabuf));
	ASSERT_EQ(0, vnpu_prime_import(self->fd1, dmabuf, &h1));
	close(dmabuf);
	close(fd0b);

	EXPECT_EQ(64 * KiB, vnpu_param(self->fd0, VNPU_PARAM_MEM_USED));
	ASSERT_EQ(0, vnpu_bo_info(self->fd1, h1, &info));
	ASSERT_EQ(0, vnpu_fd_resolve(self->fd1, info.va, 64 * KiB, &r));
	EXPECT_EQ(0, r.err);
	EXPECT_EQ(vnpu_crc32(copy, sizeof(copy)), r.crc);
	EXPECT_EQ(0, vnpu_bo_close(self->fd1, h1));
	EXPECT_EQ(0, vnpu_param(self->fd0, VNPU_PARAM_MEM_USED));
}

/* Registered user memory of one device reaches another device's engines. */
TEST_F(multi, userptr_to_other_device)
{
	uint8_t *user = mmap(NULL, 128 * KiB, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long pin0 = vnpu_vm_pinned_kib();
	struct drm_vnpu_bo_info info;
	struct vnpu_resolve r;
	uint32_t h0, h1;
	int dmabuf;

	ASSERT_NE(MAP_FAILED, user);
	vnpu_fill_pattern(user, 128 * KiB, 64);
	ASSERT_EQ(0, vnpu_bo_userptr(self->fd0, user, 128 * KiB, &h0, NULL));
	ASSERT_EQ(0, vnpu_prime_export(self->fd0, h0, &dmabuf));
	ASSERT_EQ(0, vnpu_prime_import(self->fd1, dmabuf, &h1));
	close(dmabuf);
	ASSERT_EQ(0, vnpu_bo_info(self->fd1, h1, &info));
	EXPECT_EQ(VNPU_BO_IMPORTED, info.flags);
	/* Still a process's own memory: no mmap through the device file. */
	EXPECT_EQ(0, info.mmap_offset);
	ASSERT_EQ(0, vnpu_fd_resolve(self->fd1, info.va, 128 * KiB, &r));
	EXPECT_EQ(0, r.err);
	EXPECT_EQ(vnpu_crc32(user, 128 * KiB), r.crc);
	EXPECT_EQ(0, vnpu_bo_close(self->fd0, h0));
	EXPECT_EQ(pin0 + 128, vnpu_vm_pinned_kib());
	EXPECT_EQ(0, vnpu_bo_close(self->fd1, h1));
	EXPECT_EQ(pin0, vnpu_vm_pinned_kib());
	munmap(user, 128 * KiB);
}

/* Filling one device leaves the other's capacity untouched. */
TEST_F(multi, capacity_is_per_device)
{
	uint64_t cap0 = vnpu_param(self->fd0, VNPU_PARAM_MEM_CAPACITY);
	uint64_t cap1 = vnpu_param(self->fd1, VNPU_PARAM_MEM_CAPACITY);
	uint32_t h0, h1, h;

	ASSERT_LE(cap0, 256 * MiB) TH_LOG("run with a small mem_mib");
	ASSERT_EQ(0, vnpu_bo_create(self->fd0, cap0, 0, &h0, NULL));
	EXPECT_EQ(-ENOMEM, vnpu_bo_create(self->fd0, PAGE, 0, &h, NULL));
	ASSERT_EQ(0, vnpu_bo_create(self->fd1, cap1, 0, &h1, NULL));
	EXPECT_EQ(cap0, vnpu_param(self->fd0, VNPU_PARAM_MEM_USED));
	EXPECT_EQ(cap1, vnpu_param(self->fd1, VNPU_PARAM_MEM_USED));
	EXPECT_EQ(0, vnpu_bo_close(self->fd0, h0));
	EXPECT_EQ(cap1, vnpu_param(self->fd1, VNPU_PARAM_MEM_USED));
	EXPECT_EQ(0, vnpu_bo_close(self->fd1, h1));
}

/* Each device has its own debugfs hooks: fault injection on one only. */
TEST_F(multi, fail_bo_alloc_per_device)
{
	uint32_t h;

	ASSERT_EQ(0, vnpu_fault_arm(1, "fail_bo_alloc", 1));
	ASSERT_EQ(0, vnpu_bo_create(self->fd0, PAGE, 0, &h, NULL));
	EXPECT_EQ(-ENOMEM, vnpu_bo_create(self->fd1, PAGE, 0, &h, NULL));
	ASSERT_EQ(0, vnpu_bo_create(self->fd1, PAGE, 0, &h, NULL));
}

TEST_HARNESS_MAIN
