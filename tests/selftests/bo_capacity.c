// SPDX-License-Identifier: GPL-2.0
/*
 * Device memory capacity (run with a small mem_mib): enforced at creation,
 * shared by all files of a device, -ENOMEM with nothing changed when
 * exceeded, fully recovered after frees; host and user memory are not
 * charged to it.
 */
#include <pthread.h>
#include <sys/mman.h>

#include "harness/harness.h"
#include "lib/vnpu_bo_util.h"
#include "lib/vnpu_test.h"

#define MiB (1024ull * 1024)
#define PAGE 4096ull

FIXTURE(cap) {
	int fd;
	uint64_t cap;
};

FIXTURE_SETUP(cap)
{
	unsigned long mib;

	self->fd = vnpu_open_device(0);
	ASSERT_GE(self->fd, 0) TH_LOG("no vnpu render node");
	ASSERT_TRUE(vnpu_module_param("mem_mib", &mib));
	self->cap = vnpu_param(self->fd, VNPU_PARAM_MEM_CAPACITY);
	ASSERT_EQ((uint64_t)mib * MiB, self->cap);
	ASSERT_LE(self->cap, 256 * MiB) TH_LOG("run with a small mem_mib");
	/* Each test starts on an empty device: earlier ones freed everything. */
	ASSERT_EQ(0, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));
}

FIXTURE_TEARDOWN(cap)
{
	close(self->fd);
}

TEST_F_TIMEOUT(cap, exhaust_and_recover, 120)
{
	uint64_t n = self->cap / MiB;
	uint32_t *handles = calloc(n + 1, sizeof(*handles)), h;
	uint64_t count = 0;
	int ret;

	ASSERT_NONNULL(handles);
	while ((ret = vnpu_bo_create(self->fd, MiB, 0, &handles[count], NULL)) == 0) {
		count++;
		ASSERT_LE(count, n);
	}
	EXPECT_EQ(-ENOMEM, ret);
	EXPECT_EQ(n, count);
	EXPECT_EQ(self->cap, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));

	/* Full: even one page fails, and failing changes nothing. */
	EXPECT_EQ(-ENOMEM, vnpu_bo_create(self->fd, 1, 0, &h, NULL));
	EXPECT_EQ(-ENOMEM, vnpu_bo_create(self->fd, PAGE, VNPU_BO_HUGE_ALIGN, &h, NULL));
	EXPECT_EQ(self->cap, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));
	EXPECT_EQ(self->cap, vnpu_param(self->fd, VNPU_PARAM_FILE_MEM_USED));

	/* One freed MiB is one MiB available again. */
	ASSERT_EQ(0, vnpu_bo_close(self->fd, handles[count / 2]));
	ASSERT_EQ(0, vnpu_bo_create(self->fd, MiB, 0, &handles[count / 2], NULL));
	EXPECT_EQ(-ENOMEM, vnpu_bo_create(self->fd, PAGE, 0, &h, NULL));

	for (uint64_t i = 0; i < count; i++)
		ASSERT_EQ(0, vnpu_bo_close(self->fd, handles[i]));
	EXPECT_EQ(0, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));

	/* Fully recovered: the whole capacity in one buffer, then nothing more. */
	ASSERT_EQ(0, vnpu_bo_create(self->fd, self->cap, 0, &h, NULL));
	EXPECT_EQ(-ENOMEM, vnpu_bo_create(self->fd, 1, 0, &handles[0], NULL));
	ASSERT_EQ(0, vnpu_bo_close(self->fd, h));
	EXPECT_EQ(0, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));
	free(handles);
}

TEST_F(cap, single_buffer_over_capacity)
{
	uint32_t h;

	EXPECT_EQ(-ENOMEM, vnpu_bo_create(self->fd, self->cap + 1, 0, &h, NULL));
	EXPECT_EQ(-ENOMEM, vnpu_bo_create(self->fd, self->cap + PAGE, 0, &h, NULL));
	EXPECT_EQ(0, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));
	ASSERT_EQ(0, vnpu_bo_create(self->fd, 1, 0, &h, NULL));
	EXPECT_EQ(1, h);
}

/* All files of a device draw on one capacity; each counts its own use. */
TEST_F(cap, files_share_capacity)
{
	uint32_t ha, hb;
	int other = vnpu_open_device(0);

	ASSERT_GE(other, 0);
	ASSERT_EQ(0, vnpu_bo_create(self->fd, self->cap - MiB, 0, &ha, NULL));
	EXPECT_EQ(-ENOMEM, vnpu_bo_create(other, MiB + PAGE, 0, &hb, NULL));
	ASSERT_EQ(0, vnpu_bo_create(other, MiB, 0, &hb, NULL));
	EXPECT_EQ(self->cap - MiB, vnpu_param(self->fd, VNPU_PARAM_FILE_MEM_USED));
	EXPECT_EQ(MiB, vnpu_param(other, VNPU_PARAM_FILE_MEM_USED));
	EXPECT_EQ(self->cap, vnpu_param(other, VNPU_PARAM_MEM_USED));
	/* Closing a file gives its memory back to the others. */
	close(self->fd);
	self->fd = vnpu_open_device(0);
	ASSERT_GE(self->fd, 0);
	EXPECT_EQ(MiB, vnpu_param(other, VNPU_PARAM_MEM_USED));
	ASSERT_EQ(0, vnpu_bo_create(other, self->cap - MiB, 0, &hb, NULL));
	close(other);
	EXPECT_EQ(0, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));
}

/* Host buffers and user memory are not device memory. */
TEST_F(cap, host_and_user_memory_not_charged)
{
	uint64_t host0 = vnpu_param(self->fd, VNPU_PARAM_HOST_MEM_USED);
	uint64_t big = self->cap + 16 * MiB;
	uint32_t hd, hh, hu;
	void *user;

	ASSERT_EQ(0, vnpu_bo_create(self->fd, self->cap, 0, &hd, NULL));
	ASSERT_EQ(0, vnpu_bo_create(self->fd, big, VNPU_BO_HOST, &hh, NULL));
	EXPECT_EQ(host0 + big, vnpu_param(self->fd, VNPU_PARAM_HOST_MEM_USED));
	user = mmap(NULL, big, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, user);
	ASSERT_EQ(0, vnpu_bo_userptr(self->fd, user, big, &hu, NULL));
	EXPECT_EQ(self->cap, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));
	EXPECT_EQ(self->cap, vnpu_param(self->fd, VNPU_PARAM_FILE_MEM_USED));
	EXPECT_EQ(0, vnpu_bo_close(self->fd, hu));
	EXPECT_EQ(0, vnpu_bo_close(self->fd, hh));
	EXPECT_EQ(0, vnpu_bo_close(self->fd, hd));
	EXPECT_EQ(host0, vnpu_param(self->fd, VNPU_PARAM_HOST_MEM_USED));
	EXPECT_EQ(0, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));
	munmap(user, big);
}

/* Memory alive through a mapping or a dma-buf still counts against capacity. */
TEST_F(cap, capacity_held_by_mapping_and_dmabuf)
{
	uint32_t h, h2;
	int dmabuf;
	void *p;

	ASSERT_EQ(0, vnpu_bo_create(self->fd, self->cap / 2, 0, &h, NULL));
	p = vnpu_bo_mmap(self->fd, h, self->cap / 2);
	ASSERT_NONNULL(p);
	ASSERT_EQ(0, vnpu_bo_close(self->fd, h));
	ASSERT_EQ(0, vnpu_bo_create(self->fd, self->cap / 2, 0, &h, NULL));
	ASSERT_EQ(0, vnpu_prime_export(self->fd, h, &dmabuf));
	ASSERT_EQ(0, vnpu_bo_close(self->fd, h));
	EXPECT_EQ(-ENOMEM, vnpu_bo_create(self->fd, PAGE, 0, &h2, NULL));
	munmap(p, self->cap / 2);
	ASSERT_EQ(0, vnpu_bo_create(self->fd, self->cap / 2, 0, &h2, NULL));
	EXPECT_EQ(-ENOMEM, vnpu_bo_create(self->fd, PAGE, 0, &h, NULL));
	close(dmabuf);
	ASSERT_EQ(0, vnpu_bo_create(self->fd, self->cap / 2, 0, &h, NULL));
	EXPECT_EQ(self->cap, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));
}

struct racer {
	int fd;
	uint32_t handles[1024];
	unsigned int count;
	int last;
};

static void *race_alloc(void *arg)
{
	struct racer *r = arg;

	while (r->count < 1024 &&
	       (r->last = vnpu_bo_create(r->fd, MiB, 0, &r->handles[r->count], NULL)) == 0)
		r->count++;
	return NULL;
}

/* Threads racing for the last megabytes never overshoot the capacity. */
TEST_F_TIMEOUT(cap, concurrent_exhaustion, 120)
{
	struct racer racers[4];
	pthread_t threads[4];
	unsigned int total = 0;

	for (int i = 0; i < 4; i++) {
		racers[i] = (struct racer){ .fd = i % 2 ? self->fd : vnpu_open_device(0) };
		ASSERT_GE(racers[i].fd, 0);
	}
	for (int i = 0; i < 4; i++)
		ASSERT_EQ(0, pthread_create(&threads[i], NULL, race_alloc, &racers[i]));
	for (int i = 0; i < 4; i++) {
		ASSERT_EQ(0, pthread_join(threads[i], NULL));
		EXPECT_EQ(-ENOMEM, racers[i].last);
		total += racers[i].count;
	}
	EXPECT_EQ(self->cap / MiB, total);
	EXPECT_EQ(self->cap, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));
	for (int i = 0; i < 4; i++) {
		for (unsigned int j = 0; j < racers[i].count; j++)
			EXPECT_EQ(0, vnpu_bo_close(racers[i].fd, racers[i].handles[j]));
		if (racers[i].fd != self->fd)
			close(racers[i].fd);
	}
	EXPECT_EQ(0, vnpu_param(self->fd, VNPU_PARAM_MEM_USED));
}

TEST_HARNESS_MAIN
