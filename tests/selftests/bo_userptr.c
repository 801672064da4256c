// SPDX-License-Identifier: GPL-2.0
/*
 * BO_USERPTR: process memory pinned into a buffer with a device VA. The
 * engines' view (va_resolve debugfs hook, CRC-32 through the kernel
 * mapping) must be the process's memory; pinned pages show in VmPin and
 * count against RLIMIT_MEMLOCK; every bad input fails with its errno and
 * leaves nothing pinned.
 */
#include <grp.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "harness/harness.h"
#include "lib/vnpu_bo_util.h"
#include "lib/vnpu_test.h"

#define KiB 1024ull
#define MiB (1024ull * 1024)
#define PAGE 4096ull

static void *anon(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

FIXTURE(uptr) {
	int fd;
	long pin0;
	uint64_t mem0, host0;
};

FIXTURE_SETUP(uptr)
{
	self->fd = vnpu_open_device(0);
	ASSERT_GE(self->fd, 0) TH_LOG("no vnpu render node");
	self->pin0 = vnpu_vm_pinned_kib();
	ASSERT_GE(self->pin0, 0);
	self->mem0 = vnpu_param(self->fd, VNPU_PARAM_MEM_USED);
	self->host0 = vnpu_param(self->fd, VNPU_PARAM_HOST_MEM_USED);
}

FIXTURE_TEARDOWN(uptr)
{
	close(self->fd);
}

/* After a failed call: nothing pinned, charged or left behind. */
static void expect_nothing_changed(struct th_metadata *_metadata, int fd, long pin0)
{
	uint64_t kib;
	uint32_t handle;

	EXPECT_EQ(pin0, vnpu_vm_pinned_kib());
	ASSERT_EQ(0, vnpu_fdinfo_kib(fd, "drm-total-system", &kib));
	EXPECT_EQ(0, kib);
	ASSERT_EQ(0, vnpu_bo_create(fd, 1, 0, &handle, NULL));
	EXPECT_EQ(1, handle);
	EXPECT_EQ(0, vnpu_bo_close(fd, handle));
}

static void expect_engine_view(struct th_metadata *_metadata, int fd, uint64_t va,
			       const void *mem, uint64_t len)
{
	struct vnpu_resolve r;

	ASSERT_EQ(0, vnpu_fd_resolve(fd, va, len, &r));
	ASSERT_EQ(0, r.err);
	EXPECT_EQ(0, r.offset);
	EXPECT_EQ(vnpu_crc32(mem, len), r.crc);
}

/* ---- sizes -------------------------------------------------------------- */

FIXTURE(uptr_size) {
	int fd;
};

FIXTURE_VARIANT(uptr_size) {
	uint64_t size;
};

FIXTURE_VARIANT_ADD(uptr_size, page) { .size = PAGE };
FIXTURE_VARIANT_ADD(uptr_size, k64) { .size = 64 * KiB };
FIXTURE_VARIANT_ADD(uptr_size, m2_plus_page) { .size = 2 * MiB + PAGE };
FIXTURE_VARIANT_ADD(uptr_size, m64) { .size = 64 * MiB };

FIXTURE_SETUP(uptr_size)
{
	self->fd = vnpu_open_device(0);
	ASSERT_GE(self->fd, 0);
}

FIXTURE_TEARDOWN(uptr_size)
{
	close(self->fd);
}

TEST_F_TIMEOUT(uptr_size, register_and_share_memory, 120)
{
	uint64_t size = variant->size, va, kib;
	uint64_t mem0 = vnpu_param(self->fd, VNPU_PARAM_MEM_USED);
	long pin0 = vnpu_vm_pinned_kib();
	struct drm_vnpu_bo_info info;
	uint32_t handle;
	uint8_t *p = anon(size);

	ASSERT_NONNULL(p);
	vnpu_fill_pattern(p, size, 1);
	ASSERT_EQ(0, vnpu_bo_userptr(self->fd, p, size, &handle, &va));

	ASSERT_EQ(0, vnpu_bo_info(self->fd, handle, &info));
	EXPECT_EQ(VNPU_BO_USERPTR, info.flags);
	EXPECT_EQ(size, info.size);
	EXPECT_EQ(va, info.va);
	EXPECT_EQ(0, info.mmap_offset);
	EXPECT_GE(va, VNPU_VA_START);
	EXPECT_EQ(0, va % PAGE);

	/* Pinned and charged to this process; not to the device. */
	EXPECT_EQ(pin0 + (long)(size / KiB), vnpu_vm_pinned_kib());
	EXPECT_EQ(mem0, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));
	EXPECT_EQ(0, vnpu_param(self->fd, VNPU_PARAM_FILE_MEM_USED));
	ASSERT_EQ(0, vnpu_fdinfo_kib(self->fd, "drm-total-system", &kib));
	EXPECT_EQ(size / KiB, kib);

	/* The engines see the process's bytes, and later writes to them. */
	expect_engine_view(_metadata, self->fd, va, p, size);
	vnpu_fill_pattern(p, size, 2);
	expect_engine_view(_metadata, self->fd, va, p, size);

	ASSERT_EQ(0, vnpu_bo_close(self->fd, handle));
	EXPECT_EQ(pin0, vnpu_vm_pinned_kib());
	ASSERT_EQ(0, vnpu_fdinfo_kib(self->fd, "drm-total-system", &kib));
	EXPECT_EQ(0, kib);
	munmap(p, size);
}

/* ---- lifetime ----------------------------------------------------------- */

/* The buffer keeps its pages when the process unmaps them. */
TEST_F(uptr, pages_outlive_munmap)
{
	uint8_t *p = anon(256 * KiB), *copy = malloc(256 * KiB);
	struct vnpu_resolve r;
	uint32_t handle;
	uint64_t va;

	ASSERT_NONNULL(p);
	ASSERT_NONNULL(copy);
	vnpu_fill_pattern(p, 256 * KiB, 9);
	memcpy(copy, p, 256 * KiB);
	ASSERT_EQ(0, vnpu_bo_userptr(self->fd, p, 256 * KiB, &handle, &va));
	ASSERT_EQ(0, munmap(p, 256 * KiB));
	EXPECT_EQ(self->pin0 + 256, vnpu_vm_pinned_kib());
	ASSERT_EQ(0, vnpu_fd_resolve(self->fd, va, 256 * KiB, &r));
	ASSERT_EQ(0, r.err);
	EXPECT_EQ(vnpu_crc32(copy, 256 * KiB), r.crc);
	ASSERT_EQ(0, vnpu_bo_close(self->fd, handle));
	EXPECT_EQ(self->pin0, vnpu_vm_pinned_kib());
	free(copy);
}

/* The same memory may be registered twice: two buffers, two pins. */
TEST_F(uptr, register_twice)
{
	uint8_t *p = anon(64 * KiB);
	uint32_t h1, h2;
	uint64_t va1, va2;

	ASSERT_NONNULL(p);
	ASSERT_EQ(0, vnpu_bo_userptr(self->fd, p, 64 * KiB, &h1, &va1));
	ASSERT_EQ(0, vnpu_bo_userptr(self->fd, p + 32 * KiB, 32 * KiB, &h2, &va2));
	EXPECT_NE(h1, h2);
	EXPECT_TRUE(va1 + 64 * KiB <= va2 || va2 + 32 * KiB <= va1);
	EXPECT_EQ(self->pin0 + 96, vnpu_vm_pinned_kib());
	vnpu_fill_pattern(p, 64 * KiB, 4);
	expect_engine_view(_metadata, self->fd, va2, p + 32 * KiB, 32 * KiB);
	EXPECT_EQ(0, vnpu_bo_close(self->fd, h1));
	EXPECT_EQ(0, vnpu_bo_close(self->fd, h2));
	EXPECT_EQ(self->pin0, vnpu_vm_pinned_kib());
	munmap(p, 64 * KiB);
}

/* Closing the file unpins everything it registered. */
TEST_F(uptr, close_file_unpins)
{
	uint8_t *p = anon(MiB);
	uint32_t h;
	int fd2 = vnpu_open_device(0);

	ASSERT_NONNULL(p);
	ASSERT_GE(fd2, 0);
	for (int i = 0; i < 16; i++)
		ASSERT_EQ(0, vnpu_bo_userptr(fd2, p + i * 64 * KiB, 64 * KiB, &h, NULL));
	EXPECT_EQ(self->pin0 + 1024, vnpu_vm_pinned_kib());
	close(fd2);
	EXPECT_EQ(self->pin0, vnpu_vm_pinned_kib());
	munmap(p, MiB);
}

/* ---- no CPU mapping through the device ---------------------------------- */

TEST_F(uptr, not_mmappable)
{
	uint8_t *p = anon(2 * PAGE);
	uint32_t handle;
	int dmabuf;
	void *m;

	ASSERT_NONNULL(p);
	ASSERT_EQ(0, vnpu_bo_userptr(self->fd, p, 2 * PAGE, &handle, NULL));
	/* No mmap offset: nothing on the device file maps it. */
	m = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, self->fd, 0);
	EXPECT_EQ(MAP_FAILED, m);
	/* Export is allowed; mapping the dma-buf is not. */
	ASSERT_EQ(0, vnpu_prime_export(self->fd, handle, &dmabuf));
	m = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, dmabuf, 0);
	EXPECT_EQ(MAP_FAILED, m);
	close(dmabuf);
	EXPECT_EQ(0, vnpu_bo_close(self->fd, handle));
	EXPECT_EQ(self->pin0, vnpu_vm_pinned_kib());
	munmap(p, 2 * PAGE);
}

/* Another file that imports it gets its own VA over the same pages. */
TEST_F(uptr, shared_with_other_file)
{
	uint8_t *p = anon(128 * KiB);
	struct drm_vnpu_bo_info info;
	uint32_t h, h2;
	uint64_t va, va2;
	int dmabuf, fd2 = vnpu_open_device(0);

	ASSERT_NONNULL(p);
	ASSERT_GE(fd2, 0);
	vnpu_fill_pattern(p, 128 * KiB, 5);
	ASSERT_EQ(0, vnpu_bo_userptr(self->fd, p, 128 * KiB, &h, &va));
	ASSERT_EQ(0, vnpu_prime_export(self->fd, h, &dmabuf));
	ASSERT_EQ(0, vnpu_prime_import(fd2, dmabuf, &h2));
	close(dmabuf);
	ASSERT_EQ(0, vnpu_bo_info(fd2, h2, &info));
	EXPECT_EQ(VNPU_BO_USERPTR, info.flags);
	EXPECT_EQ(0, info.mmap_offset);
	va2 = info.va;
	expect_engine_view(_metadata, fd2, va2, p, 128 * KiB);
	/* The registering file lets go first; the importer keeps the pages. */
	EXPECT_EQ(0, vnpu_bo_close(self->fd, h));
	EXPECT_EQ(self->pin0 + 128, vnpu_vm_pinned_kib());
	vnpu_fill_pattern(p, 128 * KiB, 6);
	expect_engine_view(_metadata, fd2, va2, p, 128 * KiB);
	close(fd2);
	EXPECT_EQ(self->pin0, vnpu_vm_pinned_kib());
	munmap(p, 128 * KiB);
	(void)va;
}

/* ---- bad inputs ----------------------------------------------------------- */

TEST_F(uptr, zero_pointer)
{
	uint32_t h;

	EXPECT_EQ(-EINVAL, vnpu_bo_userptr(self->fd, NULL, PAGE, &h, NULL));
	expect_nothing_changed(_metadata, self->fd, self->pin0);
}

TEST_F(uptr, unaligned_pointer)
{
	uint8_t *p = anon(3 * PAGE);
	uint32_t h;

	ASSERT_NONNULL(p);
	EXPECT_EQ(-EINVAL, vnpu_bo_userptr(self->fd, p + 1, PAGE, &h, NULL));
	EXPECT_EQ(-EINVAL, vnpu_bo_userptr(self->fd, p + 64, PAGE, &h, NULL));
	EXPECT_EQ(-EINVAL, vnpu_bo_userptr(self->fd, p + PAGE - 1, PAGE, &h, NULL));
	expect_nothing_changed(_metadata, self->fd, self->pin0);
	munmap(p, 3 * PAGE);
}

TEST_F(uptr, zero_size)
{
	uint8_t *p = anon(PAGE);
	uint32_t h;

	ASSERT_NONNULL(p);
	EXPECT_EQ(-EINVAL, vnpu_bo_userptr(self->fd, p, 0, &h, NULL));
	expect_nothing_changed(_metadata, self->fd, self->pin0);
	munmap(p, PAGE);
}

TEST_F(uptr, unaligned_size)
{
	uint8_t *p = anon(3 * PAGE);
	uint32_t h;

	ASSERT_NONNULL(p);
	EXPECT_EQ(-EINVAL, vnpu_bo_userptr(self->fd, p, 1, &h, NULL));
	EXPECT_EQ(-EINVAL, vnpu_bo_userptr(self->fd, p, PAGE - 1, &h, NULL));
	EXPECT_EQ(-EINVAL, vnpu_bo_userptr(self->fd, p, PAGE + 1, &h, NULL));
	expect_nothing_changed(_metadata, self->fd, self->pin0);
	munmap(p, 3 * PAGE);
}

TEST_F(uptr, bad_flags)
{
	struct drm_vnpu_bo_userptr args;
	uint8_t *p = anon(PAGE);

	ASSERT_NONNULL(p);
	for (int bit = 0; bit < 32; bit++) {
		args = (struct drm_vnpu_bo_userptr){
			.user_ptr = (uintptr_t)p, .size = PAGE, .flags = 1u << bit,
		};
		EXPECT_EQ(-EINVAL, vnpu_ioctl(self->fd, DRM_IOCTL_VNPU_BO_USERPTR, &args))
			TH_LOG("flag bit %d accepted", bit);
	}
	expect_nothing_changed(_metadata, self->fd, self->pin0);
	munmap(p, PAGE);
}

TEST_F(uptr, too_big)
{
	uint8_t *p = anon(PAGE);
	uint32_t h;

	ASSERT_NONNULL(p);
	EXPECT_EQ(-E2BIG, vnpu_bo_userptr(self->fd, p, VNPU_MAX_BO_SIZE + PAGE, &h, NULL));
	EXPECT_EQ(-E2BIG, vnpu_bo_userptr(self->fd, p, UINT64_MAX & ~(PAGE - 1), &h, NULL));
	expect_nothing_changed(_metadata, self->fd, self->pin0);
	munmap(p, PAGE);
}

/* A hole in the range: -EFAULT, and the pages before the hole are unpinned. */
TEST_F(uptr, unmapped_memory)
{
	uint8_t *p = anon(8 * PAGE);
	uint32_t h;

	ASSERT_NONNULL(p);
	memset(p, 1, 8 * PAGE);
	ASSERT_EQ(0, munmap(p + 5 * PAGE, PAGE));
	EXPECT_EQ(-EFAULT, vnpu_bo_userptr(self->fd, p, 8 * PAGE, &h, NULL));
	EXPECT_EQ(-EFAULT, vnpu_bo_userptr(self->fd, p + 5 * PAGE, PAGE, &h, NULL));
	/* Wholly unmapped. */
	ASSERT_EQ(0, munmap(p, 5 * PAGE));
	EXPECT_EQ(-EFAULT, vnpu_bo_userptr(self->fd, p, 2 * PAGE, &h, NULL));
	expect_nothing_changed(_metadata, self->fd, self->pin0);
	munmap(p + 6 * PAGE, 2 * PAGE);
}

TEST_F(uptr, read_only_memory)
{
	uint8_t *p = anon(4 * PAGE);
	uint32_t h;

	ASSERT_NONNULL(p);
	memset(p, 1, 4 * PAGE);
	ASSERT_EQ(0, mprotect(p + 2 * PAGE, 2 * PAGE, PROT_READ));
	EXPECT_EQ(-EFAULT, vnpu_bo_userptr(self->fd, p, 4 * PAGE, &h, NULL));
	EXPECT_EQ(-EFAULT, vnpu_bo_userptr(self->fd, p + 2 * PAGE, PAGE, &h, NULL));
	ASSERT_EQ(0, mprotect(p, 4 * PAGE, PROT_NONE));
	EXPECT_EQ(-EFAULT, vnpu_bo_userptr(self->fd, p, PAGE, &h, NULL));
	expect_nothing_changed(_metadata, self->fd, self->pin0);
	munmap(p, 4 * PAGE);
}

/* Addresses that are not user memory at all. */
TEST_F(uptr, kernel_and_wrapping_addresses)
{
	uint32_t h;

	EXPECT_EQ(-EFAULT, vnpu_bo_userptr(self->fd, (void *)0xffff888000000000ull, PAGE, &h, NULL));
	EXPECT_EQ(-EFAULT, vnpu_bo_userptr(self->fd, (void *)(UINT64_MAX & ~(PAGE - 1)), PAGE, &h, NULL));
	EXPECT_EQ(-EFAULT, vnpu_bo_userptr(self->fd, (void *)(0x00007ffffffff000ull), 2 * PAGE, &h, NULL));
	expect_nothing_changed(_metadata, self->fd, self->pin0);
}

/* Device memory mapped into the process is not pinnable user memory. */
TEST_F(uptr, device_mapping)
{
	uint32_t bo, h;
	void *p;

	ASSERT_EQ(0, vnpu_bo_create(self->fd, 2 * PAGE, 0, &bo, NULL));
	p = vnpu_bo_mmap(self->fd, bo, 2 * PAGE);
	ASSERT_NONNULL(p);
	EXPECT_EQ(-EFAULT, vnpu_bo_userptr(self->fd, p, 2 * PAGE, &h, NULL));
	EXPECT_EQ(self->pin0, vnpu_vm_pinned_kib());
	munmap(p, 2 * PAGE);
	EXPECT_EQ(0, vnpu_bo_close(self->fd, bo));
}

TEST_F(uptr, bad_struct_pointer)
{
	EXPECT_EQ(-EFAULT, vnpu_ioctl(self->fd, DRM_IOCTL_VNPU_BO_USERPTR, NULL));
	EXPECT_EQ(-EFAULT, vnpu_ioctl(self->fd, DRM_IOCTL_VNPU_BO_USERPTR, (void *)16));
	expect_nothing_changed(_metadata, self->fd, self->pin0);
}

/* ---- RLIMIT_MEMLOCK ------------------------------------------------------- */

/*
 * Root has CAP_IPC_LOCK, which lifts the limit: this test (already its own
 * forked process) becomes nobody first, keeping its open device file.
 */
TEST_F(uptr, memlock_limit)
{
	struct rlimit lim = { .rlim_cur = 64 * KiB, .rlim_max = 64 * KiB };
	uint8_t *p = anon(256 * KiB);
	uint32_t h1, h2, h3;

	ASSERT_NONNULL(p);
	memset(p, 1, 256 * KiB);
	ASSERT_EQ(0, setrlimit(RLIMIT_MEMLOCK, &lim));
	ASSERT_EQ(0, setgroups(0, NULL));
	ASSERT_EQ(0, setresgid(65534, 65534, 65534));
	ASSERT_EQ(0, setresuid(65534, 65534, 65534));
	ASSERT_EQ(65534, geteuid());

	ASSERT_EQ(0, vnpu_bo_userptr(self->fd, p, 32 * KiB, &h1, NULL));
	/* 32 + 64 KiB is over the 64 KiB limit. */
	EXPECT_EQ(-ENOMEM, vnpu_bo_userptr(self->fd, p + 64 * KiB, 64 * KiB, &h2, NULL));
	EXPECT_EQ(self->pin0 + 32, vnpu_vm_pinned_kib());
	/* Up to the limit exactly is fine; one page more is not. */
	ASSERT_EQ(0, vnpu_bo_userptr(self->fd, p + 64 * KiB, 32 * KiB, &h2, NULL));
	EXPECT_EQ(-ENOMEM, vnpu_bo_userptr(self->fd, p + 128 * KiB, PAGE, &h3, NULL));
	EXPECT_EQ(self->pin0 + 64, vnpu_vm_pinned_kib());
	/* Unpinning makes room again. */
	ASSERT_EQ(0, vnpu_bo_close(self->fd, h1));
	ASSERT_EQ(0, vnpu_bo_userptr(self->fd, p + 128 * KiB, 32 * KiB, &h3, NULL));
	EXPECT_EQ(0, vnpu_bo_close(self->fd, h2));
	EXPECT_EQ(0, vnpu_bo_close(self->fd, h3));
	EXPECT_EQ(self->pin0, vnpu_vm_pinned_kib());
	munmap(p, 256 * KiB);
}

/* A single registration larger than the limit fails outright. */
TEST_F(uptr, memlock_single_over_limit)
{
	struct rlimit lim = { .rlim_cur = 16 * KiB, .rlim_max = 16 * KiB };
	uint8_t *p = anon(64 * KiB);
	uint32_t h;

	ASSERT_NONNULL(p);
	ASSERT_EQ(0, setrlimit(RLIMIT_MEMLOCK, &lim));
	ASSERT_EQ(0, setgroups(0, NULL));
	ASSERT_EQ(0, setresgid(65534, 65534, 65534));
	ASSERT_EQ(0, setresuid(65534, 65534, 65534));
	EXPECT_EQ(-ENOMEM, vnpu_bo_userptr(self->fd, p, 64 * KiB, &h, NULL));
	EXPECT_EQ(self->pin0, vnpu_vm_pinned_kib());
	munmap(p, 64 * KiB);
}

/* With CAP_IPC_LOCK (root) the limit does not apply. */
TEST_F(uptr, memlock_capable_bypass)
{
	struct rlimit lim = { .rlim_cur = 16 * KiB, .rlim_max = 16 * KiB };
	uint8_t *p = anon(64 * KiB);
	uint32_t h;

	ASSERT_NONNULL(p);
	ASSERT_EQ(0, geteuid()) TH_LOG("the suite runs as root");
	ASSERT_EQ(0, setrlimit(RLIMIT_MEMLOCK, &lim));
	ASSERT_EQ(0, vnpu_bo_userptr(self->fd, p, 64 * KiB, &h, NULL));
	EXPECT_EQ(self->pin0 + 64, vnpu_vm_pinned_kib());
	EXPECT_EQ(0, vnpu_bo_close(self->fd, h));
	munmap(p, 64 * KiB);
}

TEST_HARNESS_MAIN
