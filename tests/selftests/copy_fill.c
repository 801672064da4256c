// SPDX-License-Identifier: GPL-2.0
/*
 * COPY and FILL (bytes and 32-bit words) correctness from 1 byte to 64 MiB
 * at unaligned offsets,
 * verified through mmap against a reference computed by the CPU, with
 * guard bytes on both sides; overlapping copies behave like memmove.
 */
#include "harness/harness.h"
#include "lib/vnpu_stream_util.h"
#include "lib/vnpu_test.h"

#define GUARD 4096
#define GUARD_BYTE 0xa5

FIXTURE(cf) {
	int fd;
	uint32_t stream;
	struct vnpu_buf src, dst;
};

FIXTURE_VARIANT(cf) {
	uint64_t size;
	uint64_t src_off, dst_off;
};

FIXTURE_VARIANT_ADD(cf, b1_aligned) { .size = 1 };
FIXTURE_VARIANT_ADD(cf, b1_odd) { .size = 1, .src_off = 4095, .dst_off = 1 };
FIXTURE_VARIANT_ADD(cf, b3) { .size = 3, .src_off = 1, .dst_off = 2 };
FIXTURE_VARIANT_ADD(cf, b7) { .size = 7, .src_off = 5, .dst_off = 3 };
FIXTURE_VARIANT_ADD(cf, b63) { .size = 63, .src_off = 7, .dst_off = 9 };
FIXTURE_VARIANT_ADD(cf, b4095) { .size = 4095, .src_off = 1, .dst_off = 4094 };
FIXTURE_VARIANT_ADD(cf, b4097) { .size = 4097, .src_off = 4093, .dst_off = 3 };
FIXTURE_VARIANT_ADD(cf, k64p1) { .size = 65537, .src_off = 11, .dst_off = 13 };
FIXTURE_VARIANT_ADD(cf, m1m1) { .size = (1 << 20) - 1, .src_off = 3, .dst_off = 1 };
FIXTURE_VARIANT_ADD(cf, m1p3) { .size = (1 << 20) + 3, .src_off = 4097, .dst_off = 5 };
FIXTURE_VARIANT_ADD(cf, m3p5) { .size = (3 << 20) + 5, .src_off = 1, .dst_off = 8191 };
FIXTURE_VARIANT_ADD(cf, m16p7) { .size = (16 << 20) + 7, .src_off = 6, .dst_off = 2 };
FIXTURE_VARIANT_ADD(cf, m64) { .size = 64 << 20 };
FIXTURE_VARIANT_ADD(cf, m64_odd) { .size = 64 << 20, .src_off = 3, .dst_off = 4093 };

FIXTURE_SETUP(cf)
{
	self->fd = vnpu_open_device(0);
	ASSERT_GE(self->fd, 0) TH_LOG("no vnpu render node");
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &self->stream));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, variant->src_off + variant->size + GUARD,
				     &self->src));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, GUARD + variant->dst_off + variant->size + GUARD,
				     &self->dst));
}

FIXTURE_TEARDOWN(cf)
{
	vnpu_buf_destroy(self->fd, &self->src);
	vnpu_buf_destroy(self->fd, &self->dst);
	close(self->fd);
}

/* Deterministic bytes that differ from position to position. */
static void pattern(unsigned char *p, uint64_t n, uint32_t seed)
{
	uint32_t x = seed * 2654435761u + 1;

	for (uint64_t i = 0; i < n; i++) {
		x = x * 1103515245u + 12345u;
		p[i] = (unsigned char)(x >> 16);
	}
}

/* Index of the first byte of @p[0..n) that is not @b, or n. */
static uint64_t first_not(const unsigned char *p, uint64_t n, unsigned char b)
{
	for (uint64_t i = 0; i < n; i++)
		if (p[i] != b)
			return i;
	return n;
}

/* Index of the first byte where @a and @b differ, or n. */
static uint64_t first_diff(const unsigned char *a, const unsigned char *b, uint64_t n)
{
	uint64_t i = 0;

	for (; i + 4096 <= n; i += 4096)
		if (memcmp(a + i, b + i, 4096))
			break;
	for (; i < n; i++)
		if (a[i] != b[i])
			return i;
	return n;
}

TEST_F_TIMEOUT(cf, copy, 120)
{
	uint64_t size = variant->size;
	unsigned char *src = self->src.cpu, *dst = self->dst.cpu;
	uint64_t d = GUARD + variant->dst_off;
	struct drm_vnpu_task t = vnpu_task_copy(self->dst.va + d,
						self->src.va + variant->src_off, size);

	pattern(src, self->src.size, (uint32_t)size);
	memset(dst, GUARD_BYTE, self->dst.size);
	ASSERT_EQ(0, vnpu_submit_wait(self->fd, self->stream, &t, 1, NULL));
	EXPECT_EQ(size, first_diff(dst + d, src + variant->src_off, size));
	EXPECT_EQ(d, first_not(dst, d, GUARD_BYTE));
	EXPECT_EQ(GUARD, first_not(dst + d + size, GUARD, GUARD_BYTE));
}

TEST_F_TIMEOUT(cf, fill, 120)
{
	uint64_t size = variant->size;
	unsigned char *dst = self->dst.cpu;
	uint64_t d = GUARD + variant->dst_off;
	unsigned char value = (unsigned char)(size * 7 + 1);
	struct drm_vnpu_task t = vnpu_task_fill(self->dst.va + d, size, value);

	if (value == GUARD_BYTE)
		value++;
	t.fill.value = value;
	memset(dst, GUARD_BYTE, self->dst.size);
	ASSERT_EQ(0, vnpu_submit_wait(self->fd, self->stream, &t, 1, NULL));
	EXPECT_EQ(size, first_not(dst + d, size, value));
	EXPECT_EQ(d, first_not(dst, d, GUARD_BYTE));
	EXPECT_EQ(GUARD, first_not(dst + d + size, GUARD, GUARD_BYTE));
}

/* FILL_32 (ABI 2.3): each aligned 32-bit word of the range holds the value. */
TEST_F_TIMEOUT(cf, fill_words, 120)
{
	uint64_t size = variant->size & ~3ull;
	uint64_t d = (GUARD + variant->dst_off) & ~3ull, i, bad = size;
	unsigned char *dst = self->dst.cpu;
	uint32_t value = 0x5a000000u | (uint32_t)size, word;
	struct drm_vnpu_task t = vnpu_task_fill(self->dst.va + d, size, value);

	if (!size)
		SKIP(return, "fewer than 4 bytes: no whole word");
	t.flags = VNPU_TASK_FILL_32;
	memset(dst, GUARD_BYTE, self->dst.size);
	ASSERT_EQ(0, vnpu_submit_wait(self->fd, self->stream, &t, 1, NULL));
	for (i = 0; i < size && bad == size; i += 4) {
		memcpy(&word, dst + d + i, 4);
		if (word != value)
			bad = i;
	}
	EXPECT_EQ(size, bad);
	EXPECT_EQ(d, first_not(dst, d, GUARD_BYTE));
	EXPECT_EQ(GUARD, first_not(dst + d + size, GUARD, GUARD_BYTE));
}

/* Copy then fill back over it in one job, then copy again: tasks see each other. */
TEST_F_TIMEOUT(cf, copy_fill_copy_in_one_job, 120)
{
	uint64_t size = variant->size;
	unsigned char *src = self->src.cpu, *dst = self->dst.cpu;
	uint64_t d = GUARD + variant->dst_off;
	struct drm_vnpu_task t[3] = {
		vnpu_task_copy(self->dst.va + d, self->src.va + variant->src_off, size),
		vnpu_task_fill(self->src.va + variant->src_off, size, 0x11),
		vnpu_task_copy(self->src.va + variant->src_off, self->dst.va + d, size),
	};
	unsigned char *expect = malloc(size);

	ASSERT_NONNULL(expect);
	pattern(src, self->src.size, (uint32_t)size + 1);
	memcpy(expect, src + variant->src_off, size);
	memset(dst, GUARD_BYTE, self->dst.size);
	ASSERT_EQ(0, vnpu_submit_wait(self->fd, self->stream, t, 3, NULL));
	EXPECT_EQ(size, first_diff(src + variant->src_off, expect, size));
	EXPECT_EQ(size, first_diff(dst + d, expect, size));
	free(expect);
}

/* ---------------------------------------------------------------- overlap */

FIXTURE(ov) {
	int fd;
	uint32_t stream;
	struct vnpu_buf buf;
};

FIXTURE_VARIANT(ov) {
	uint64_t size;
	uint64_t src, dst;	/* offsets in the buffer */
};

/* Destination above the source: a forward copy would smear. */
FIXTURE_VARIANT_ADD(ov, up_by_1) { .size = (3 << 20) + 5, .src = 7, .dst = 8 };
FIXTURE_VARIANT_ADD(ov, up_by_chunk_minus_3) { .size = (3 << 20) + 5, .src = 1,
					      .dst = 1 + (1 << 20) - 3 };
FIXTURE_VARIANT_ADD(ov, up_small) { .size = 100, .src = 3, .dst = 50 };
/* Destination below the source. */
FIXTURE_VARIANT_ADD(ov, down_by_1) { .size = (3 << 20) + 5, .src = 9, .dst = 8 };
FIXTURE_VARIANT_ADD(ov, down_by_chunk_plus_3) { .size = (2 << 20) + 1, .src = 5 + (1 << 20) + 3,
					       .dst = 5 };
/* The same range. */
FIXTURE_VARIANT_ADD(ov, same) { .size = (1 << 20) + 11, .src = 13, .dst = 13 };

FIXTURE_SETUP(ov)
{
	self->fd = vnpu_open_device(0);
	ASSERT_GE(self->fd, 0) TH_LOG("no vnpu render node");
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &self->stream));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, 6 << 20, &self->buf));
}

FIXTURE_TEARDOWN(ov)
{
	vnpu_buf_destroy(self->fd, &self->buf);
	close(self->fd);
}

TEST_F(ov, copy_behaves_like_memmove)
{
	uint64_t n = self->buf.size;
	unsigned char *expect = malloc(n);
	struct drm_vnpu_task t = vnpu_task_copy(self->buf.va + variant->dst,
						self->buf.va + variant->src, variant->size);

	ASSERT_NONNULL(expect);
	pattern(self->buf.cpu, n, 99);
	memcpy(expect, self->buf.cpu, n);
	memmove(expect + variant->dst, expect + variant->src, variant->size);
	ASSERT_EQ(0, vnpu_submit_wait(self->fd, self->stream, &t, 1, NULL));
	EXPECT_EQ(n, first_diff(self->buf.cpu, expect, n));
	free(expect);
}

TEST_HARNESS_MAIN
