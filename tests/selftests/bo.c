// SPDX-License-Identifier: GPL-2.0
/*
 * Buffers: BO_CREATE, BO_INFO, mmap and GEM_CLOSE, every bad input with its
 * exact errno, the per-file VA space (window, alignment, lookup by VA),
 * accounting (GET_PARAM and fdinfo), file close, and fault injection.
 *
 * Device VAs are checked through the va_resolve debugfs hook, which runs
 * the same lookup job validation uses and reports a CRC-32 of the bytes as
 * the engines see them (through the kernel mapping).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <dirent.h>
#include <xf86drm.h>

#include "harness/harness.h"
#include "lib/vnpu_bo_util.h"
#include "lib/vnpu_test.h"

#define KiB 1024ull
#define MiB (1024ull * 1024)
#define PAGE 4096ull

static uint64_t page_round(uint64_t size)
{
	return (size + PAGE - 1) & ~(PAGE - 1);
}

/*
 * After a failed call: device and file usage unchanged, and no handle was
 * left behind (the file had none, so the next buffer gets handle 1).
 */
static void expect_nothing_changed(struct th_metadata *_metadata, int fd,
				   uint64_t mem0, uint64_t host0)
{
	uint32_t handle;

	EXPECT_EQ(mem0, vnpu_param(fd, VNPU_PARAM_MEM_USED));
	EXPECT_EQ(host0, vnpu_param(fd, VNPU_PARAM_HOST_MEM_USED));
	EXPECT_EQ(0, vnpu_param(fd, VNPU_PARAM_FILE_MEM_USED));
	ASSERT_EQ(0, vnpu_bo_create(fd, 1, 0, &handle, NULL));
	EXPECT_EQ(1, handle);
	EXPECT_EQ(0, vnpu_bo_close(fd, handle));
}

FIXTURE(bo) {
	int fd;
	uint64_t mem0, host0;
};

FIXTURE_SETUP(bo)
{
	self->fd = vnpu_open_device(0);
	ASSERT_GE(self->fd, 0) TH_LOG("no vnpu render node");
	self->mem0 = vnpu_param(self->fd, VNPU_PARAM_MEM_USED);
	self->host0 = vnpu_param(self->fd, VNPU_PARAM_HOST_MEM_USED);
}

FIXTURE_TEARDOWN(bo)
{
	close(self->fd);
}

/* ---- create, mmap, write, read: 1 byte to 256 MiB ---------------------- */

FIXTURE(roundtrip) {
	int fd;
};

FIXTURE_VARIANT(roundtrip) {
	uint64_t size;
	uint32_t flags;
};

FIXTURE_VARIANT_ADD(roundtrip, b1) { .size = 1 };
FIXTURE_VARIANT_ADD(roundtrip, b63) { .size = 63 };
FIXTURE_VARIANT_ADD(roundtrip, b64) { .size = 64 };
FIXTURE_VARIANT_ADD(roundtrip, b4095) { .size = 4095 };
FIXTURE_VARIANT_ADD(roundtrip, b4096) { .size = 4096 };
FIXTURE_VARIANT_ADD(roundtrip, b4097) { .size = 4097 };
FIXTURE_VARIANT_ADD(roundtrip, k64) { .size = 64 * KiB };
FIXTURE_VARIANT_ADD(roundtrip, m1_plus_1) { .size = MiB + 1 };
FIXTURE_VARIANT_ADD(roundtrip, m2_huge) { .size = 2 * MiB, .flags = VNPU_BO_HUGE_ALIGN };
FIXTURE_VARIANT_ADD(roundtrip, m3_huge) { .size = 3 * MiB + 5, .flags = VNPU_BO_HUGE_ALIGN };
FIXTURE_VARIANT_ADD(roundtrip, m16) { .size = 16 * MiB };
FIXTURE_VARIANT_ADD(roundtrip, m256) { .size = 256 * MiB };
FIXTURE_VARIANT_ADD(roundtrip, host_b1) { .size = 1, .flags = VNPU_BO_HOST };
FIXTURE_VARIANT_ADD(roundtrip, host_m4_huge) {
	.size = 4 * MiB, .flags = VNPU_BO_HOST | VNPU_BO_HUGE_ALIGN
};

FIXTURE_SETUP(roundtrip)
{
	self->fd = vnpu_open_device(0);
	ASSERT_GE(self->fd, 0);
}

FIXTURE_TEARDOWN(roundtrip)
{
	close(self->fd);
}

/* The CRC the engines see over [off, off + len) must match the CPU's. */
static void expect_kernel_view(struct th_metadata *_metadata, int fd,
			       uint64_t va, const uint8_t *cpu, uint64_t off,
			       uint64_t len)
{
	struct vnpu_resolve r;

	ASSERT_EQ(0, vnpu_fd_resolve(fd, va + off, len, &r));
	ASSERT_EQ(0, r.err);
	EXPECT_EQ(off, r.offset);
	EXPECT_EQ(vnpu_crc32(cpu + off, len), r.crc);
}

TEST_F_TIMEOUT(roundtrip, create_mmap_write_read, 120)
{
	uint64_t size = variant->size, rounded = page_round(size);
	bool host = variant->flags & VNPU_BO_HOST;
	uint64_t mem0, host0, file0, va, tail;
	struct drm_vnpu_bo_info info;
	uint32_t handle;
	uint8_t *p;

	mem0 = vnpu_param(self->fd, VNPU_PARAM_MEM_USED);
	host0 = vnpu_param(self->fd, VNPU_PARAM_HOST_MEM_USED);
	file0 = vnpu_param(self->fd, VNPU_PARAM_FILE_MEM_USED);

	ASSERT_EQ(0, vnpu_bo_create(self->fd, size, variant->flags, &handle, &va));
	ASSERT_EQ(0, vnpu_bo_info(self->fd, handle, &info));
	EXPECT_EQ(rounded, info.size);
	EXPECT_EQ(va, info.va);
	EXPECT_EQ(variant->flags, info.flags);
	EXPECT_NE(0, info.mmap_offset);
	EXPECT_GE(va, VNPU_VA_START);
	EXPECT_LE(va + rounded, VNPU_VA_END);
	EXPECT_EQ(0, va % (variant->flags & VNPU_BO_HUGE_ALIGN ? 2 * MiB : PAGE));

	/* Device memory is charged to the device and the file; host memory is not. */
	EXPECT_EQ(mem0 + (host ? 0 : rounded), vnpu_param(self->fd, VNPU_PARAM_MEM_USED));
	EXPECT_EQ(file0 + (host ? 0 : rounded), vnpu_param(self->fd, VNPU_PARAM_FILE_MEM_USED));
	EXPECT_EQ(host0 + (host ? rounded : 0), vnpu_param(self->fd, VNPU_PARAM_HOST_MEM_USED));

	p = vnpu_bo_mmap(self->fd, handle, rounded);
	ASSERT_NONNULL(p);
	/* New buffers read as zeroes, to the last byte of the last page. */
	for (uint64_t i = 0; i < rounded; i += 8)
		ASSERT_EQ(0, *(uint64_t *)(p + i)) TH_LOG("nonzero at %llu", (unsigned long long)i);

	vnpu_fill_pattern(p, size, 0x5eed);
	/* The engines' view: the start, and the tail across the last page. */
	expect_kernel_view(_metadata, self->fd, va, p, 0, size < 16 * MiB ? size : 16 * MiB);
	tail = size < 8192 ? size : 8192;
	expect_kernel_view(_metadata, self->fd, va, p, size - tail, tail);
	ASSERT_EQ(0, munmap(p, rounded));

	/* A fresh mapping reads back what was written. */
	p = vnpu_bo_mmap(self->fd, handle, rounded);
	ASSERT_NONNULL(p);
	EXPECT_EQ(-1, vnpu_check_pattern(p, size, 0x5eed));
	ASSERT_EQ(0, munmap(p, rounded));

	ASSERT_EQ(0, vnpu_bo_close(self->fd, handle));
	EXPECT_EQ(mem0, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));
	EXPECT_EQ(host0, vnpu_param(self->fd, VNPU_PARAM_HOST_MEM_USED));
	EXPECT_EQ(file0, vnpu_param(self->fd, VNPU_PARAM_FILE_MEM_USED));
}

/* ---- BO_CREATE bad inputs ---------------------------------------------- */

TEST_F(bo, create_zero_size)
{
	uint32_t handle;

	EXPECT_EQ(-EINVAL, vnpu_bo_create(self->fd, 0, 0, &handle, NULL));
	EXPECT_EQ(-EINVAL, vnpu_bo_create(self->fd, 0, VNPU_BO_HOST, &handle, NULL));
	expect_nothing_changed(_metadata, self->fd, self->mem0, self->host0);
}

TEST_F(bo, create_bad_flags)
{
	uint32_t handle;

	/* Every bit outside VNPU_BO_FLAGS, including the info-only bits. */
	for (int bit = 0; bit < 32; bit++) {
		uint32_t flags = 1u << bit;

		if (flags & VNPU_BO_FLAGS)
			continue;
		EXPECT_EQ(-EINVAL, vnpu_bo_create(self->fd, PAGE, flags, &handle, NULL))
			TH_LOG("flag bit %d accepted", bit);
		EXPECT_EQ(-EINVAL, vnpu_bo_create(self->fd, PAGE, flags | VNPU_BO_HOST,
						  &handle, NULL));
	}
	expect_nothing_changed(_metadata, self->fd, self->mem0, self->host0);
}

TEST_F(bo, create_too_big)
{
	uint32_t handle;

	EXPECT_EQ(-E2BIG, vnpu_bo_create(self->fd, VNPU_MAX_BO_SIZE + 1, 0, &handle, NULL));
	EXPECT_EQ(-E2BIG, vnpu_bo_create(self->fd, UINT64_MAX, 0, &handle, NULL));
	/* Rounding up to a page must not wrap around to a small size. */
	EXPECT_EQ(-E2BIG, vnpu_bo_create(self->fd, UINT64_MAX - 4094, 0, &handle, NULL));
	EXPECT_EQ(-E2BIG, vnpu_bo_create(self->fd, VNPU_MAX_BO_SIZE + 1, VNPU_BO_HOST,
					 &handle, NULL));
	expect_nothing_changed(_metadata, self->fd, self->mem0, self->host0);
}

TEST_F(bo, create_over_capacity)
{
	uint64_t cap = vnpu_param(self->fd, VNPU_PARAM_MEM_CAPACITY);
	uint32_t handle;

	ASSERT_LT(cap, VNPU_MAX_BO_SIZE) TH_LOG("run with mem_mib below 65536");
	EXPECT_EQ(-ENOMEM, vnpu_bo_create(self->fd, cap - self->mem0 + 1, 0, &handle, NULL));
	EXPECT_EQ(-ENOMEM, vnpu_bo_create(self->fd, VNPU_MAX_BO_SIZE, 0, &handle, NULL));
	expect_nothing_changed(_metadata, self->fd, self->mem0, self->host0);
}

/* Host buffers are bounded by half of the RAM, so one call cannot OOM the machine. */
TEST_F(bo, create_host_over_budget)
{
	uint64_t ram = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
	uint32_t handle;

	ASSERT_LE(ram, VNPU_MAX_BO_SIZE);
	EXPECT_EQ(-ENOMEM, vnpu_bo_create(self->fd, ram, VNPU_BO_HOST, &handle, NULL));
	expect_nothing_changed(_metadata, self->fd, self->mem0, self->host0);
}

TEST_F(bo, create_bad_pointer)
{
	void *none = mmap(NULL, PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_NE(MAP_FAILED, none);
	EXPECT_EQ(-EFAULT, vnpu_ioctl(self->fd, DRM_IOCTL_VNPU_BO_CREATE, NULL));
	EXPECT_EQ(-EFAULT, vnpu_ioctl(self->fd, DRM_IOCTL_VNPU_BO_CREATE, none));
	munmap(none, PAGE);
	expect_nothing_changed(_metadata, self->fd, self->mem0, self->host0);
}

/* handle and va are outputs: whatever the caller leaves in them is ignored. */
TEST_F(bo, create_ignores_output_fields)
{
	struct drm_vnpu_bo_create args = {
		.size = PAGE, .handle = 0xdeadbeef, .va = 0x1234,
	};

	ASSERT_EQ(0, vnpu_ioctl(self->fd, DRM_IOCTL_VNPU_BO_CREATE, &args));
	EXPECT_EQ(1, args.handle);
	EXPECT_GE(args.va, VNPU_VA_START);
	EXPECT_EQ(0, vnpu_bo_close(self->fd, args.handle));
}

/* ---- BO_INFO and GEM_CLOSE bad inputs ----------------------------------- */

TEST_F(bo, info_bad_handle)
{
	struct drm_vnpu_bo_info info;
	uint32_t handle;

	EXPECT_EQ(-ENOENT, vnpu_bo_info(self->fd, 0, &info));
	EXPECT_EQ(-ENOENT, vnpu_bo_info(self->fd, 1, &info));
	EXPECT_EQ(-ENOENT, vnpu_bo_info(self->fd, UINT32_MAX, &info));
	ASSERT_EQ(0, vnpu_bo_create(self->fd, PAGE, 0, &handle, NULL));
	EXPECT_EQ(-ENOENT, vnpu_bo_info(self->fd, handle + 1, &info));
	ASSERT_EQ(0, vnpu_bo_close(self->fd, handle));
	EXPECT_EQ(-ENOENT, vnpu_bo_info(self->fd, handle, &info));
}

TEST_F(bo, info_bad_pointer)
{
	uint32_t handle;

	ASSERT_EQ(0, vnpu_bo_create(self->fd, PAGE, 0, &handle, NULL));
	EXPECT_EQ(-EFAULT, vnpu_ioctl(self->fd, DRM_IOCTL_VNPU_BO_INFO, NULL));
	EXPECT_EQ(-EFAULT, vnpu_ioctl(self->fd, DRM_IOCTL_VNPU_BO_INFO, (void *)8));
	EXPECT_EQ(0, vnpu_bo_close(self->fd, handle));
}

TEST_F(bo, close_bad_handle)
{
	uint32_t handle;

	EXPECT_EQ(-EINVAL, vnpu_bo_close(self->fd, 0));
	EXPECT_EQ(-EINVAL, vnpu_bo_close(self->fd, 77));
	ASSERT_EQ(0, vnpu_bo_create(self->fd, PAGE, 0, &handle, NULL));
	EXPECT_EQ(0, vnpu_bo_close(self->fd, handle));
	EXPECT_EQ(-EINVAL, vnpu_bo_close(self->fd, handle));
	EXPECT_EQ(self->mem0, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));
}

/* ---- mmap --------------------------------------------------------------- */

TEST_F(bo, mmap_bad_offset_and_length)
{
	struct drm_vnpu_bo_info info;
	uint32_t handle;
	void *p;

	ASSERT_EQ(0, vnpu_bo_create(self->fd, 2 * PAGE, 0, &handle, NULL));
	ASSERT_EQ(0, vnpu_bo_info(self->fd, handle, &info));
	/* Longer than the buffer. */
	p = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		 (off_t)info.mmap_offset);
	EXPECT_EQ(MAP_FAILED, p);
	/* An offset no buffer has. */
	p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, self->fd,
		 (off_t)(info.mmap_offset + 64 * MiB));
	EXPECT_EQ(MAP_FAILED, p);
	p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, self->fd, 0);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(0, vnpu_bo_close(self->fd, handle));
	/* A closed buffer's offset is gone. */
	p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, self->fd, (off_t)info.mmap_offset);
	EXPECT_EQ(MAP_FAILED, p);
}

/* A mapping keeps the memory (and its charge) alive after the handle is closed. */
TEST_F(bo, mmap_outlives_handle)
{
	struct drm_vnpu_bo_info info;
	uint32_t handle;
	uint8_t *p;

	ASSERT_EQ(0, vnpu_bo_create(self->fd, MiB, 0, &handle, NULL));
	p = vnpu_bo_mmap(self->fd, handle, MiB);
	ASSERT_NONNULL(p);
	vnpu_fill_pattern(p, MiB, 7);
	ASSERT_EQ(0, vnpu_bo_close(self->fd, handle));
	EXPECT_EQ(-ENOENT, vnpu_bo_info(self->fd, handle, &info));
	EXPECT_EQ(0, vnpu_param(self->fd, VNPU_PARAM_FILE_MEM_USED));
	EXPECT_EQ(self->mem0 + MiB, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));
	EXPECT_EQ(-1, vnpu_check_pattern(p, MiB, 7));
	vnpu_fill_pattern(p, MiB, 8);
	EXPECT_EQ(-1, vnpu_check_pattern(p, MiB, 8));
	ASSERT_EQ(0, munmap(p, MiB));
	EXPECT_EQ(self->mem0, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));
}

/* ---- the file's VA space ------------------------------------------------ */

TEST_F(bo, va_window_and_alignment)
{
	static const uint64_t sizes[] = { 1, 64, PAGE, PAGE + 1, 3 * PAGE, 64 * KiB, MiB + 7 };
	uint32_t handles[64];
	uint64_t vas[64], lens[64];

	for (int i = 0; i < 64; i++) {
		uint64_t size = sizes[i % 7];

		ASSERT_EQ(0, vnpu_bo_create(self->fd, size, 0, &handles[i], &vas[i]));
		lens[i] = page_round(size);
		EXPECT_GE(vas[i], VNPU_VA_START);
		EXPECT_LE(vas[i] + lens[i], VNPU_VA_END);
		/* CANN's aclrtMalloc promises 64 bytes; we give whole pages. */
		EXPECT_EQ(0, vas[i] % 64);
		EXPECT_EQ(0, vas[i] % PAGE);
		for (int j = 0; j < i; j++)
			EXPECT_TRUE(vas[i] + lens[i] <= vas[j] || vas[j] + lens[j] <= vas[i])
				TH_LOG("buffers %d and %d overlap", i, j);
	}
	for (int i = 0; i < 64; i++)
		EXPECT_EQ(0, vnpu_bo_close(self->fd, handles[i]));
}

/* VNPU_BO_HUGE_ALIGN gives 2 MiB aligned VAs even between small buffers. */
TEST_F(bo, huge_align)
{
	uint32_t handles[24];
	uint64_t vas[24];

	for (int i = 0; i < 24; i++) {
		bool huge = i % 2;
		uint64_t size = huge ? (i % 4 == 1 ? PAGE : 3 * MiB) : PAGE;

		ASSERT_EQ(0, vnpu_bo_create(self->fd, size, huge ? VNPU_BO_HUGE_ALIGN : 0,
					    &handles[i], &vas[i]));
		if (huge)
			EXPECT_EQ(0, vas[i] % (2 * MiB)) TH_LOG("va %#llx", (unsigned long long)vas[i]);
	}
	for (int i = 0; i < 24; i++)
		EXPECT_EQ(0, vnpu_bo_close(self->fd, handles[i]));
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* 10,000 live buffers: unique handles, aligned VAs that never overlap. */
TEST_F_TIMEOUT(bo, ten_thousand_buffers, 600)
{
	enum { N = 10000 };
	uint64_t *va = calloc(N, sizeof(*va)), *sorted = calloc(N, 2 * sizeof(*sorted));
	uint32_t *handle = calloc(N, sizeof(*handle));
	uint64_t total = 0;

	ASSERT_NONNULL(va);
	ASSERT_NONNULL(sorted);
	ASSERT_NONNULL(handle);
	for (int i = 0; i < N; i++) {
		uint64_t size = PAGE * (1 + i % 4);
		uint32_t flags = i % 100 == 99 ? VNPU_BO_HUGE_ALIGN : 0;

		ASSERT_EQ(0, vnpu_bo_create(self->fd, size, flags, &handle[i], &va[i]))
			TH_LOG("buffer %d", i);
		ASSERT_EQ(0, va[i] % (flags ? 2 * MiB : PAGE));
		ASSERT_GE(va[i], VNPU_VA_START);
		ASSERT_LE(va[i] + size, VNPU_VA_END);
		/* (va, size) pairs, sorted by va below. */
		sorted[2 * i] = va[i];
		sorted[2 * i + 1] = size;
		total += size;
	}
	EXPECT_EQ(self->mem0 + total, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));
	EXPECT_EQ(total, vnpu_param(self->fd, VNPU_PARAM_FILE_MEM_USED));

	qsort(sorted, N, 2 * sizeof(*sorted), cmp_u64);
	for (int i = 1; i < N; i++)
		ASSERT_LE(sorted[2 * (i - 1)] + sorted[2 * (i - 1) + 1], sorted[2 * i])
			TH_LOG("overlap at va %#llx", (unsigned long long)sorted[2 * i]);

	/* Handles are unique (reuse the pair array for them). */
	for (int i = 0; i < N; i++)
		sorted[i] = handle[i];
	qsort(sorted, N, sizeof(*sorted), cmp_u64);
	for (int i = 1; i < N; i++)
		ASSERT_LT(sorted[i - 1], sorted[i]);
	for (int i = 0; i < N; i++) {
		struct drm_vnpu_bo_info info;

		ASSERT_EQ(0, vnpu_bo_info(self->fd, handle[i], &info));
		ASSERT_EQ(va[i], info.va);
	}
	/* Every 97th buffer through the VA lookup: found, at offset 0. */
	for (int i = 0; i < N; i += 97) {
		struct vnpu_resolve r;

		ASSERT_EQ(0, vnpu_fd_resolve(self->fd, va[i] + 5, 1, &r));
		ASSERT_EQ(0, r.err);
		EXPECT_EQ(5, r.offset);
		EXPECT_EQ(PAGE * (1 + i % 4), r.bo_size);
	}
	for (int i = 0; i < N; i++)
		ASSERT_EQ(0, vnpu_bo_close(self->fd, handle[i]));
	EXPECT_EQ(self->mem0, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));
	EXPECT_EQ(0, vnpu_param(self->fd, VNPU_PARAM_FILE_MEM_USED));
	free(va);
	free(sorted);
	free(handle);
}

/* ---- VA lookup: bounds and overflow (the job validation path) ----------- */

TEST_F(bo, resolve_inside_buffer)
{
	static const uint8_t zeroes[PAGE];
	struct vnpu_resolve r;
	uint32_t a, b;
	uint64_t va_a, va_b;

	ASSERT_EQ(0, vnpu_bo_create(self->fd, 3 * PAGE, 0, &a, &va_a));
	ASSERT_EQ(0, vnpu_bo_create(self->fd, PAGE, 0, &b, &va_b));
	ASSERT_EQ(0, vnpu_fd_resolve(self->fd, va_a, 3 * PAGE, &r));
	EXPECT_EQ(0, r.err);
	EXPECT_EQ(0, r.offset);
	EXPECT_EQ(3 * PAGE, r.bo_size);
	ASSERT_EQ(0, vnpu_fd_resolve(self->fd, va_a + 100, 50, &r));
	EXPECT_EQ(0, r.err);
	EXPECT_EQ(100, r.offset);
	ASSERT_EQ(0, vnpu_fd_resolve(self->fd, va_a + 3 * PAGE - 1, 1, &r));
	EXPECT_EQ(0, r.err);
	EXPECT_EQ(3 * PAGE - 1, r.offset);
	ASSERT_EQ(0, vnpu_fd_resolve(self->fd, va_b, PAGE, &r));
	EXPECT_EQ(0, r.err);
	EXPECT_EQ(PAGE, r.bo_size);
	/* Zero-filled memory: the CRC of zeroes. */
	EXPECT_EQ(vnpu_crc32(zeroes, PAGE), r.crc);
}

TEST_F(bo, resolve_past_end)
{
	struct vnpu_resolve r;
	uint32_t a, b;
	uint64_t va_a, va_b;

	ASSERT_EQ(0, vnpu_bo_create(self->fd, 2 * PAGE, 0, &a, &va_a));
	ASSERT_EQ(0, vnpu_bo_create(self->fd, 2 * PAGE, 0, &b, &va_b));
	ASSERT_EQ(0, vnpu_fd_resolve(self->fd, va_a, 2 * PAGE + 1, &r));
	EXPECT_EQ(-ENXIO, r.err);
	ASSERT_EQ(0, vnpu_fd_resolve(self->fd, va_a + 2 * PAGE - 1, 2, &r));
	EXPECT_EQ(-ENXIO, r.err);
	/* A range from one buffer into the next (adjacent or not) is no buffer. */
	ASSERT_EQ(0, vnpu_fd_resolve(self->fd, va_a < va_b ? va_a : va_b,
				     (va_a > va_b ? va_a - va_b : va_b - va_a) + 1, &r));
	EXPECT_EQ(-ENXIO, r.err);
}

TEST_F(bo, resolve_zero_length)
{
	struct vnpu_resolve r;
	uint32_t h;
	uint64_t va;

	ASSERT_EQ(0, vnpu_bo_create(self->fd, PAGE, 0, &h, &va));
	ASSERT_EQ(0, vnpu_fd_resolve(self->fd, va, 0, &r));
	EXPECT_EQ(-EINVAL, r.err);
}

TEST_F(bo, resolve_overflow)
{
	struct vnpu_resolve r;
	uint32_t h;
	uint64_t va;

	ASSERT_EQ(0, vnpu_bo_create(self->fd, PAGE, 0, &h, &va));
	ASSERT_EQ(0, vnpu_fd_resolve(self->fd, va, UINT64_MAX, &r));
	EXPECT_EQ(-EOVERFLOW, r.err);
	ASSERT_EQ(0, vnpu_fd_resolve(self->fd, va + 1, UINT64_MAX - va, &r));
	EXPECT_EQ(-EOVERFLOW, r.err);
	ASSERT_EQ(0, vnpu_fd_resolve(self->fd, UINT64_MAX, 1, &r));
	EXPECT_EQ(-EOVERFLOW, r.err);
	/* Ending exactly at 2^64 - 1 does not wrap: just no buffer there. */
	ASSERT_EQ(0, vnpu_fd_resolve(self->fd, UINT64_MAX - 1, 1, &r));
	EXPECT_EQ(-ENXIO, r.err);
}

TEST_F(bo, resolve_outside_window)
{
	static const uint64_t vas[] = {
		0, 64, PAGE, VNPU_VA_START - 1, VNPU_VA_END, VNPU_VA_END + PAGE,
		1ull << 63, UINT64_MAX - PAGE,
	};
	struct vnpu_resolve r;
	uint32_t h;
	uint64_t va;

	ASSERT_EQ(0, vnpu_bo_create(self->fd, PAGE, 0, &h, &va));
	for (unsigned int i = 0; i < sizeof(vas) / sizeof(vas[0]); i++) {
		ASSERT_EQ(0, vnpu_fd_resolve(self->fd, vas[i], 1, &r));
		EXPECT_EQ(-ENXIO, r.err) TH_LOG("va %#llx", (unsigned long long)vas[i]);
	}
	/* Straddling the start of the window. */
	ASSERT_EQ(0, vnpu_fd_resolve(self->fd, VNPU_VA_START - 1, 2, &r));
	EXPECT_EQ(-ENXIO, r.err);
}

TEST_F(bo, resolve_hole_and_closed)
{
	struct vnpu_resolve r;
	uint32_t h[3];
	uint64_t va[3];
	uint8_t *p;

	for (int i = 0; i < 3; i++)
		ASSERT_EQ(0, vnpu_bo_create(self->fd, PAGE, 0, &h[i], &va[i]));
	p = vnpu_bo_mmap(self->fd, h[1], PAGE);
	ASSERT_NONNULL(p);
	ASSERT_EQ(0, vnpu_bo_close(self->fd, h[1]));
	/* Closed: the VA no longer resolves, though the memory is still mapped. */
	ASSERT_EQ(0, vnpu_fd_resolve(self->fd, va[1], 1, &r));
	EXPECT_EQ(-ENXIO, r.err);
	ASSERT_EQ(0, munmap(p, PAGE));
	ASSERT_EQ(0, vnpu_fd_resolve(self->fd, va[1], 1, &r));
	EXPECT_EQ(-ENXIO, r.err);
	/* Far above every buffer: a hole. */
	ASSERT_EQ(0, vnpu_fd_resolve(self->fd, va[2] + 1024 * MiB, 1, &r));
	EXPECT_EQ(-ENXIO, r.err);
	ASSERT_EQ(0, vnpu_fd_resolve(self->fd, va[0], 1, &r));
	EXPECT_EQ(0, r.err);
}

/* ---- files are separate ------------------------------------------------- */

TEST_F(bo, handles_meaningless_in_other_file)
{
	struct drm_vnpu_bo_info info;
	uint32_t ha, hb;
	int other = vnpu_open_device(0);

	ASSERT_GE(other, 0);
	ASSERT_EQ(0, vnpu_bo_create(self->fd, 5 * PAGE, 0, &ha, NULL));
	EXPECT_EQ(-ENOENT, vnpu_bo_info(other, ha, &info));
	EXPECT_EQ(-EINVAL, vnpu_bo_close(other, ha));
	/* The other file's own handle with the same number is its own buffer. */
	ASSERT_EQ(0, vnpu_bo_create(other, PAGE, 0, &hb, NULL));
	EXPECT_EQ(ha, hb);
	ASSERT_EQ(0, vnpu_bo_info(other, hb, &info));
	EXPECT_EQ(PAGE, info.size);
	ASSERT_EQ(0, vnpu_bo_info(self->fd, ha, &info));
	EXPECT_EQ(5 * PAGE, info.size);
	EXPECT_EQ(5 * PAGE, vnpu_param(self->fd, VNPU_PARAM_FILE_MEM_USED));
	EXPECT_EQ(PAGE, vnpu_param(other, VNPU_PARAM_FILE_MEM_USED));
	close(other);
}

TEST_F(bo, vas_meaningless_in_other_file)
{
	struct vnpu_resolve r;
	uint32_t ha, hb;
	uint64_t va_a, va_b;
	uint8_t *p;
	int other = vnpu_open_device(0);

	ASSERT_GE(other, 0);
	ASSERT_EQ(0, vnpu_bo_create(self->fd, MiB, 0, &ha, &va_a));
	p = vnpu_bo_mmap(self->fd, ha, MiB);
	ASSERT_NONNULL(p);
	vnpu_fill_pattern(p, MiB, 3);
	/* No buffers in the other file: nothing resolves there. */
	ASSERT_EQ(0, vnpu_fd_resolve(other, va_a, 1, &r));
	EXPECT_EQ(-ENXIO, r.err);
	/* With a buffer of its own, A's VA is at most the other file's buffer. */
	ASSERT_EQ(0, vnpu_bo_create(other, 2 * PAGE, 0, &hb, &va_b));
	ASSERT_EQ(0, vnpu_fd_resolve(other, va_a, 1, &r));
	if (r.err == 0)
		EXPECT_EQ(2 * PAGE, r.bo_size);
	else
		EXPECT_EQ(-ENXIO, r.err);
	ASSERT_EQ(0, vnpu_fd_resolve(self->fd, va_a, MiB, &r));
	EXPECT_EQ(0, r.err);
	EXPECT_EQ(vnpu_crc32(p, MiB), r.crc);
	munmap(p, MiB);
	close(other);
}

/* Another file cannot map this file's buffer through its mmap offset. */
TEST_F(bo, mmap_offset_meaningless_in_other_file)
{
	struct drm_vnpu_bo_info info;
	uint32_t h;
	void *p;
	int other = vnpu_open_device(0);

	ASSERT_GE(other, 0);
	ASSERT_EQ(0, vnpu_bo_create(self->fd, PAGE, 0, &h, NULL));
	ASSERT_EQ(0, vnpu_bo_info(self->fd, h, &info));
	p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, other, (off_t)info.mmap_offset);
	EXPECT_EQ(MAP_FAILED, p);
	close(other);
}

/* ---- fdinfo ------------------------------------------------------------- */

static void expect_region(struct th_metadata *_metadata, int fd, const char *region,
			  uint64_t total, uint64_t shared)
{
	static const char *const keys[] = { "drm-memory", "drm-total", "drm-resident" };
	char key[64];
	uint64_t kib;

	for (int i = 0; i < 3; i++) {
		snprintf(key, sizeof(key), "%s-%s", keys[i], region);
		ASSERT_EQ(0, vnpu_fdinfo_kib(fd, key, &kib)) TH_LOG("%s", key);
		EXPECT_EQ(total / KiB, kib) TH_LOG("%s", key);
	}
	snprintf(key, sizeof(key), "drm-shared-%s", region);
	ASSERT_EQ(0, vnpu_fdinfo_kib(fd, key, &kib)) TH_LOG("%s", key);
	EXPECT_EQ(shared / KiB, kib) TH_LOG("%s", key);
}

TEST_F(bo, fdinfo_identity)
{
	char value[64];
	uint64_t id;

	ASSERT_EQ(0, vnpu_fdinfo_str(self->fd, "drm-driver", value, sizeof(value)));
	EXPECT_STREQ("vnpu", value);
	ASSERT_EQ(0, vnpu_fdinfo_str(self->fd, "drm-client-id", value, sizeof(value)));
	id = strtoull(value, NULL, 10);
	EXPECT_EQ(vnpu_param(self->fd, VNPU_PARAM_CLIENT_ID), id);
	expect_region(_metadata, self->fd, "vram", 0, 0);
	expect_region(_metadata, self->fd, "system", 0, 0);
}

TEST_F(bo, fdinfo_counts_buffers)
{
	uint32_t h[6], imported;
	uint64_t vram = 0;
	int other, dmabuf;
	void *user;

	ASSERT_EQ(0, vnpu_bo_create(self->fd, MiB, 0, &h[0], NULL));
	ASSERT_EQ(0, vnpu_bo_create(self->fd, 1, 0, &h[1], NULL));
	ASSERT_EQ(0, vnpu_bo_create(self->fd, 3 * PAGE, VNPU_BO_HUGE_ALIGN, &h[2], NULL));
	ASSERT_EQ(0, vnpu_bo_create(self->fd, 8 * KiB, 0, &h[3], NULL));
	vram = MiB + PAGE + 3 * PAGE + 8 * KiB;
	ASSERT_EQ(0, vnpu_bo_create(self->fd, 2 * MiB, VNPU_BO_HOST, &h[4], NULL));
	user = mmap(NULL, 64 * KiB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, user);
	ASSERT_EQ(0, vnpu_bo_userptr(self->fd, user, 64 * KiB, &h[5], NULL));

	expect_region(_metadata, self->fd, "vram", vram, 0);
	expect_region(_metadata, self->fd, "system", 2 * MiB + 64 * KiB, 0);
	EXPECT_EQ(vram, vnpu_param(self->fd, VNPU_PARAM_FILE_MEM_USED));

	/* Exported: shared, in the exporter and in a file that imports it. */
	ASSERT_EQ(0, vnpu_prime_export(self->fd, h[3], &dmabuf));
	expect_region(_metadata, self->fd, "vram", vram, 8 * KiB);
	other = vnpu_open_device(0);
	ASSERT_GE(other, 0);
	ASSERT_EQ(0, vnpu_prime_import(other, dmabuf, &imported));
	close(dmabuf);
	expect_region(_metadata, other, "vram", 8 * KiB, 8 * KiB);
	expect_region(_metadata, other, "system", 0, 0);
	expect_region(_metadata, self->fd, "vram", vram, 8 * KiB);

	for (int i = 0; i < 6; i++)
		EXPECT_EQ(0, vnpu_bo_close(self->fd, h[i]));
	expect_region(_metadata, self->fd, "vram", 0, 0);
	expect_region(_metadata, self->fd, "system", 0, 0);
	/* The importer still holds the shared buffer. */
	expect_region(_metadata, other, "vram", 8 * KiB, 8 * KiB);
	EXPECT_EQ(self->mem0 + 8 * KiB, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));
	close(other);
	EXPECT_EQ(self->mem0, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));
	munmap(user, 64 * KiB);
}

/* ---- closing a file with buffers alive --------------------------------- */

TEST_F(bo, close_file_frees_everything)
{
	long pinned0 = vnpu_vm_pinned_kib();
	uint32_t h, first = 0;
	int fd2, dmabuf;
	void *user, *p;

	ASSERT_GE(pinned0, 0);
	fd2 = vnpu_open_device(0);
	ASSERT_GE(fd2, 0);
	for (int i = 0; i < 40; i++) {
		ASSERT_EQ(0, vnpu_bo_create(fd2, PAGE * (i + 1), i % 5 ? 0 : VNPU_BO_HUGE_ALIGN,
					    &h, NULL));
		if (!first)
			first = h;
	}
	ASSERT_EQ(0, vnpu_bo_create(fd2, MiB, VNPU_BO_HOST, &h, NULL));
	user = mmap(NULL, 256 * KiB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, user);
	ASSERT_EQ(0, vnpu_bo_userptr(fd2, user, 256 * KiB, &h, NULL));
	/* An export whose dma-buf is already closed, and a mapping already gone. */
	ASSERT_EQ(0, vnpu_prime_export(fd2, first, &dmabuf));
	close(dmabuf);
	p = vnpu_bo_mmap(fd2, first, PAGE);
	ASSERT_NONNULL(p);
	munmap(p, PAGE);

	EXPECT_LT(self->mem0, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));
	EXPECT_EQ(self->host0 + MiB, vnpu_param(self->fd, VNPU_PARAM_HOST_MEM_USED));
	EXPECT_EQ(pinned0 + 256, vnpu_vm_pinned_kib());
	close(fd2);
	EXPECT_EQ(self->mem0, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));
	EXPECT_EQ(self->host0, vnpu_param(self->fd, VNPU_PARAM_HOST_MEM_USED));
	EXPECT_EQ(pinned0, vnpu_vm_pinned_kib());
	munmap(user, 256 * KiB);
}

/* A mapping keeps the file (and so its buffers) open until it goes. */
TEST_F(bo, close_file_with_mapping_alive)
{
	uint32_t h;
	int fd2;
	uint8_t *p;

	fd2 = vnpu_open_device(0);
	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, vnpu_bo_create(fd2, 2 * MiB, 0, &h, NULL));
	p = vnpu_bo_mmap(fd2, h, 2 * MiB);
	ASSERT_NONNULL(p);
	vnpu_fill_pattern(p, 2 * MiB, 11);
	close(fd2);
	EXPECT_EQ(self->mem0 + 2 * MiB, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));
	EXPECT_EQ(-1, vnpu_check_pattern(p, 2 * MiB, 11));
	ASSERT_EQ(0, munmap(p, 2 * MiB));
	EXPECT_EQ(self->mem0, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));
}

/* ---- fault injection ---------------------------------------------------- */

TEST_F(bo, fail_bo_alloc)
{
	uint32_t h;

	ASSERT_EQ(0, vnpu_fault_arm(0, "fail_bo_alloc", 1));
	EXPECT_EQ(-ENOMEM, vnpu_bo_create(self->fd, PAGE, 0, &h, NULL));
	expect_nothing_changed(_metadata, self->fd, self->mem0, self->host0);

	ASSERT_EQ(0, vnpu_fault_arm(0, "fail_bo_alloc", 3));
	for (int i = 0; i < 3; i++)
		EXPECT_EQ(-ENOMEM, vnpu_bo_create(self->fd, MiB, i == 1 ? VNPU_BO_HOST : 0,
						  &h, NULL));
	expect_nothing_changed(_metadata, self->fd, self->mem0, self->host0);
	/* Then the point is spent. */
	ASSERT_EQ(0, vnpu_bo_create(self->fd, PAGE, 0, &h, NULL));
}

TEST_F(bo, fail_bo_alloc_disarm_and_interval)
{
	uint32_t h;

	ASSERT_EQ(0, vnpu_fault_arm(0, "fail_bo_alloc", 5));
	ASSERT_EQ(0, vnpu_fault_arm(0, "fail_bo_alloc", 0));
	ASSERT_EQ(0, vnpu_bo_create(self->fd, PAGE, 0, &h, NULL));
	/* Every second call fails, twice in all. */
	ASSERT_EQ(0, vnpu_fault_arm(0, "fail_bo_alloc", 2));
	ASSERT_EQ(0, vnpu_debugfs_write(0, "fail_bo_alloc/interval", "2"));
	for (int i = 0; i < 6; i++)
		EXPECT_EQ(i == 1 || i == 3 ? -ENOMEM : 0,
			  vnpu_bo_create(self->fd, PAGE, 0, &h, NULL)) TH_LOG("call %d", i);
	ASSERT_EQ(0, vnpu_fault_arm(0, "fail_bo_alloc", 0));
}

/* ---- objects made outside our creation paths ---------------------------- */

/* Open the primary (card) node of the device behind @render_fd. */
static int open_primary(int render_fd)
{
	char path[128], dir_path[96];
	struct dirent *d;
	struct stat st;
	int card = -1;
	DIR *dir;

	if (fstat(render_fd, &st))
		return -1;
	snprintf(dir_path, sizeof(dir_path), "/sys/dev/char/%u:%u/device/drm",
		 major(st.st_rdev), minor(st.st_rdev));
	dir = opendir(dir_path);
	if (!dir)
		return -1;
	while ((d = readdir(dir)))
		if (sscanf(d->d_name, "card%d", &card) == 1)
			break;
	closedir(dir);
	if (card < 0)
		return -1;
	snprintf(path, sizeof(path), "/dev/dri/card%d", card);
	return open(path, O_RDWR | O_CLOEXEC);
}

/* The primary node's DRM_IOCTL_MODE_CREATE_DUMB: no engine-reachable memory. */
TEST_F(bo, dumb_buffer_refused)
{
	struct drm_mode_create_dumb dumb = { .width = 64, .height = 64, .bpp = 32 };
	int fd = open_primary(self->fd);

	ASSERT_GE(fd, 0);
	EXPECT_EQ(-EOPNOTSUPP, vnpu_ioctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &dumb));
	EXPECT_EQ(self->mem0, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));
	close(fd);
}

/*
 * GEM_FLINK and GEM_OPEN (primary node, root): another file gets its own
 * handle and VA; the same file asking for a second handle is refused, as
 * the ABI gives one handle (and one VA) per file and buffer.
 */
TEST_F(bo, flink_open_one_handle_per_file)
{
	struct drm_gem_flink flink = {};
	struct drm_gem_open again = {}, other_open = {};
	struct drm_vnpu_bo_info info;
	uint64_t va, used;
	int fd = open_primary(self->fd);
	int other = open_primary(self->fd);

	ASSERT_GE(fd, 0);
	ASSERT_GE(other, 0);
	ASSERT_EQ(0, vnpu_bo_create(fd, 64 * KiB, 0, &flink.handle, &va));
	ASSERT_EQ(0, vnpu_ioctl(fd, DRM_IOCTL_GEM_FLINK, &flink));
	used = vnpu_param(fd, VNPU_PARAM_FILE_MEM_USED);

	again.name = flink.name;
	EXPECT_EQ(-EBUSY, vnpu_ioctl(fd, DRM_IOCTL_GEM_OPEN, &again));
	EXPECT_EQ(used, vnpu_param(fd, VNPU_PARAM_FILE_MEM_USED));

	other_open.name = flink.name;
	ASSERT_EQ(0, vnpu_ioctl(other, DRM_IOCTL_GEM_OPEN, &other_open));
	EXPECT_EQ(64 * KiB, other_open.size);
	ASSERT_EQ(0, vnpu_bo_info(other, other_open.handle, &info));
	EXPECT_GE(info.va, VNPU_VA_START);
	EXPECT_EQ(64 * KiB, vnpu_param(other, VNPU_PARAM_FILE_MEM_USED));

	EXPECT_EQ(0, vnpu_bo_close(fd, flink.handle));
	EXPECT_EQ(0, vnpu_bo_close(other, other_open.handle));
	EXPECT_EQ(self->mem0, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));
	close(other);
	close(fd);
}

TEST_HARNESS_MAIN
