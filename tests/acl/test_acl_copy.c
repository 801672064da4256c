// SPDX-License-Identifier: MIT
/*
 * ACL conformance: copies of many pieces, 2-D (aclrtMemcpy2d, ...Async) and
 * batched (aclrtMemcpyBatch, ...Async): results byte for byte in every
 * direction, pageable and pinned host memory, the argument rules with
 * their codes and failIndex, and one SUBMIT for a whole async copy.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl_optest.h"
#include "acl_test.h"

#define ROWS 37
#define WIDTH 100
#define SPITCH 128
#define DPITCH 160

static aclrtStream stream;

static void setup_stream(void)
{
	ACL_OK(aclrtCreateStream(&stream));
}

static void teardown_stream(void)
{
	ACL_OK(aclrtDestroyStream(stream));
}

/* Rows of @dst (pitch @dp) hold rows of @src (pitch @sp); the bytes
 * between rows of @dst are still @pad. */
static void check_rows(const unsigned char *dst, size_t dp, const unsigned char *src, size_t sp, unsigned char pad)
{
	for (size_t r = 0; r < ROWS; r++) {
		ck_assert_msg(!memcmp(dst + r * dp, src + r * sp, WIDTH), "row %zu differs", r);
		for (size_t c = WIDTH; c < dp && r + 1 < ROWS; c++)
			ck_assert_msg(dst[r * dp + c] == pad, "row %zu byte %zu beyond the width was written", r, c);
	}
}

/* Host matrix -> device (pitch DPITCH) -> device (pitch SPITCH) -> host, by
 * 2-D copies; @async on the stream, @pinned host memory. */
static void two_d_round_trip(bool async, bool pinned)
{
	size_t hbytes = ROWS * SPITCH, dbytes = ROWS * DPITCH;
	unsigned char *h, *back;
	void *d1, *d2;

	if (pinned) {
		ACL_OK(aclrtMallocHost((void **)&h, hbytes));
		ACL_OK(aclrtMallocHost((void **)&back, dbytes));
	} else {
		h = malloc(hbytes);
		back = malloc(dbytes);
	}
	acl_test_fill(h, hbytes, 11);
	memset(back, 0xee, dbytes);
	ACL_OK(aclrtMalloc(&d1, dbytes, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtMalloc(&d2, hbytes, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtMemset(d1, dbytes, 0x5a, dbytes));
	if (async) {
		ACL_OK(aclrtMemcpy2dAsync(d1, DPITCH, h, SPITCH, WIDTH, ROWS, ACL_MEMCPY_HOST_TO_DEVICE, stream));
		ACL_OK(aclrtMemcpy2dAsync(d2, SPITCH, d1, DPITCH, WIDTH, ROWS, ACL_MEMCPY_DEVICE_TO_DEVICE, stream));
		ACL_OK(aclrtMemcpy2dAsync(back, DPITCH, d2, SPITCH, WIDTH, ROWS, ACL_MEMCPY_DEVICE_TO_HOST, stream));
		ACL_OK(aclrtSynchronizeStream(stream));
	} else {
		ACL_OK(aclrtMemcpy2d(d1, DPITCH, h, SPITCH, WIDTH, ROWS, ACL_MEMCPY_HOST_TO_DEVICE));
		ACL_OK(aclrtMemcpy2d(d2, SPITCH, d1, DPITCH, WIDTH, ROWS, ACL_MEMCPY_DEVICE_TO_DEVICE));
		ACL_OK(aclrtMemcpy2d(back, DPITCH, d2, SPITCH, WIDTH, ROWS, ACL_MEMCPY_DEVICE_TO_HOST));
	}
	check_rows(back, DPITCH, h, SPITCH, 0xee);
	{
		/* The device matrix kept its padding between rows. */
		unsigned char *dev = malloc(dbytes);

		ACL_OK(aclrtMemcpy(dev, dbytes, d1, dbytes, ACL_MEMCPY_DEVICE_TO_HOST));
		check_rows(dev, DPITCH, h, SPITCH, 0x5a);
		free(dev);
	}
	ACL_OK(aclrtFree(d1));
	ACL_OK(aclrtFree(d2));
	if (pinned) {
		ACL_OK(aclrtFreeHost(h));
		ACL_OK(aclrtFreeHost(back));
	} else {
		free(h);
		free(back);
	}
}

START_TEST(two_d_copies_every_direction)
{
	two_d_round_trip(_i & 1, _i & 2);
}
END_TEST

START_TEST(two_d_arguments)
{
	char h[256];
	void *d;

	/* 100 bytes: usable up to 160 (CANN's rounding, test_acl_memory.c). */
	ACL_OK(aclrtMalloc(&d, 100, ACL_MEM_MALLOC_NORMAL_ONLY));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy2d(NULL, 16, h, 16, 8, 2, ACL_MEMCPY_HOST_TO_DEVICE));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy2d(d, 16, NULL, 16, 8, 2, ACL_MEMCPY_HOST_TO_DEVICE));
	/* width over a pitch */
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy2d(d, 8, h, 16, 9, 2, ACL_MEMCPY_HOST_TO_DEVICE));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy2dAsync(d, 16, h, 8, 9, 2, ACL_MEMCPY_HOST_TO_DEVICE, stream));
	/* the second row past the allocation's end; the first alone fits */
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy2d(d, 150, h, 16, 16, 2, ACL_MEMCPY_HOST_TO_DEVICE));
	ACL_OK(aclrtMemcpy2d(d, 150, h, 16, 16, 1, ACL_MEMCPY_HOST_TO_DEVICE));
	/* a kind that contradicts the addresses */
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy2d(d, 16, h, 16, 8, 2, ACL_MEMCPY_DEVICE_TO_HOST));
	/* pitches whose rows overflow the address space */
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy2d(d, SIZE_MAX / 2, h, 16, 8, 4, ACL_MEMCPY_HOST_TO_DEVICE));
	/* empty matrices copy nothing and succeed */
	ACL_OK(aclrtMemcpy2d(d, 16, h, 16, 0, 2, ACL_MEMCPY_HOST_TO_DEVICE));
	ACL_OK(aclrtMemcpy2dAsync(d, 16, h, 16, 8, 0, ACL_MEMCPY_HOST_TO_DEVICE, stream));
	ACL_OK(aclrtFree(d));
}
END_TEST

/* An async copy with device-addressable ends is one SUBMIT, whatever its
 * number of rows or pieces. */
START_TEST(async_copies_are_one_submit)
{
	unsigned char *h;
	void *d, *dsts[8], *srcs[8];
	size_t max[8], sizes[8], idx = 0, fail;
	aclrtMemcpyBatchAttr attr;
	int32_t dev;

	ACL_OK(aclrtGetDevice(&dev));
	ACL_OK(aclrtMallocHost((void **)&h, ROWS * DPITCH));
	ACL_OK(aclrtMalloc(&d, ROWS * DPITCH, ACL_MEM_MALLOC_HUGE_FIRST));
	acl_test_fill(h, ROWS * DPITCH, 5);
	ACL_OK(aclrtSynchronizeStream(stream));
	ioctl_count_start();
	ACL_OK(aclrtMemcpy2dAsync(d, DPITCH, h, DPITCH, WIDTH, ROWS, ACL_MEMCPY_HOST_TO_DEVICE, stream));
	ck_assert_uint_eq(ioctl_count_stop(), 1);
	ck_assert_uint_eq(ioctl_count(DRM_COMMAND_BASE + DRM_VNPU_SUBMIT), 1);
	for (int i = 0; i < 8; i++) {
		dsts[i] = h + i * 64;
		srcs[i] = (char *)d + (7 - i) * 64;
		max[i] = 64;
		sizes[i] = 64;
	}
	memset(&attr, 0, sizeof(attr));
	attr.dstLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
	attr.srcLoc = (aclrtMemLocation){ .id = (uint32_t)dev, .type = ACL_MEM_LOCATION_TYPE_DEVICE };
	ioctl_count_start();
	ACL_OK(aclrtMemcpyBatchAsync(dsts, max, srcs, sizes, 8, &attr, &idx, 1, &fail, stream));
	ck_assert_uint_eq(ioctl_count_stop(), 1);
	ck_assert_uint_eq(fail, SIZE_MAX);
	ACL_OK(aclrtSynchronizeStream(stream));
	ACL_OK(aclrtFree(d));
	ACL_OK(aclrtFreeHost(h));
}
END_TEST

/* Eight pieces in both directions, two attribute ranges (host to device,
 * then device to host): each piece lands where it should. */
static void batch(bool async, bool pinned)
{
	enum { N = 8, PIECE = 1000 };
	unsigned char *h, *back;
	void *d, *dsts[N], *srcs[N];
	size_t max[N], sizes[N], idx[2] = { 0, N / 2 }, fail = 0;
	aclrtMemcpyBatchAttr attrs[2];
	int32_t dev;

	ACL_OK(aclrtGetDevice(&dev));
	if (pinned) {
		ACL_OK(aclrtMallocHost((void **)&h, N * PIECE));
		ACL_OK(aclrtMallocHost((void **)&back, N * PIECE));
	} else {
		h = malloc(N * PIECE);
		back = malloc(N * PIECE);
	}
	ACL_OK(aclrtMalloc(&d, N * PIECE, ACL_MEM_MALLOC_HUGE_FIRST));
	acl_test_fill(h, N * PIECE, 21);
	memset(back, 0, N * PIECE);
	/* First half: host pieces 0..3 to device slots 3..0. */
	for (int i = 0; i < N / 2; i++) {
		dsts[i] = (char *)d + (N / 2 - 1 - i) * PIECE;
		srcs[i] = h + i * PIECE;
		max[i] = PIECE;
		sizes[i] = PIECE - i;		/* a short piece leaves bytes alone */
	}
	/* Second half: device slots 0..3 back to the host. */
	for (int i = N / 2; i < N; i++) {
		dsts[i] = back + (i - N / 2) * PIECE;
		srcs[i] = (char *)d + (i - N / 2) * PIECE;
		max[i] = PIECE;
		sizes[i] = PIECE;
	}
	memset(attrs, 0, sizeof(attrs));
	attrs[0].dstLoc = (aclrtMemLocation){ .id = (uint32_t)dev, .type = ACL_MEM_LOCATION_TYPE_DEVICE };
	attrs[0].srcLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
	attrs[1].dstLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
	attrs[1].srcLoc = attrs[0].dstLoc;
	/* The batch is unordered: write the device half first, then read it. */
	if (async) {
		ACL_OK(aclrtMemcpyBatchAsync(dsts, max, srcs, sizes, N / 2, attrs, idx, 1, &fail, stream));
		ACL_OK(aclrtMemcpyBatchAsync(dsts + N / 2, max + N / 2, srcs + N / 2, sizes + N / 2, N / 2, attrs + 1,
					     idx, 1, &fail, stream));
		ACL_OK(aclrtSynchronizeStream(stream));
	} else {
		ACL_OK(aclrtMemcpyBatch(dsts, max, srcs, sizes, N / 2, attrs, idx, 1, &fail));
		ACL_OK(aclrtMemcpyBatch(dsts + N / 2, max + N / 2, srcs + N / 2, sizes + N / 2, N / 2, attrs + 1, idx, 1,
					&fail));
	}
	ck_assert_uint_eq(fail, SIZE_MAX);
	for (int i = 0; i < N / 2; i++) {
		int slot = N / 2 - 1 - i;

		ck_assert_msg(!memcmp(back + slot * PIECE, h + i * PIECE, PIECE - i), "piece %d differs", i);
	}
	/* Both halves in one call with two attribute ranges (the second reads
	 * what the first wrote only in a later call: unordered). */
	memset(back, 0, N * PIECE);
	if (async) {
		ACL_OK(aclrtMemcpyBatchAsync(dsts, max, srcs, sizes, N, attrs, idx, 2, &fail, stream));
		ACL_OK(aclrtSynchronizeStream(stream));
	} else {
		ACL_OK(aclrtMemcpyBatch(dsts, max, srcs, sizes, N, attrs, idx, 2, &fail));
	}
	ck_assert_uint_eq(fail, SIZE_MAX);
	ACL_OK(aclrtFree(d));
	if (pinned) {
		ACL_OK(aclrtFreeHost(h));
		ACL_OK(aclrtFreeHost(back));
	} else {
		free(h);
		free(back);
	}
}

START_TEST(batch_copies_every_direction)
{
	batch(_i & 1, _i & 2);
}
END_TEST

START_TEST(batch_arguments_and_fail_index)
{
	char h[64];
	void *d, *dsts[3], *srcs[3];
	size_t max[3] = { 64, 64, 64 }, sizes[3] = { 8, 8, 8 }, idx[2] = { 0, 2 }, fail = 0;
	aclrtMemcpyBatchAttr attrs[2];
	int32_t dev;

	ACL_OK(aclrtGetDevice(&dev));
	ACL_OK(aclrtMalloc(&d, 100, ACL_MEM_MALLOC_NORMAL_ONLY));	/* usable: 160 bytes */
	for (int i = 0; i < 3; i++) {
		dsts[i] = (char *)d + 8 * i;
		srcs[i] = h + 8 * i;
	}
	memset(attrs, 0, sizeof(attrs));
	attrs[0].dstLoc = (aclrtMemLocation){ .id = (uint32_t)dev, .type = ACL_MEM_LOCATION_TYPE_DEVICE };
	attrs[0].srcLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
	attrs[1] = attrs[0];
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(dsts, max, srcs, sizes, 3, attrs, idx, 2, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(NULL, max, srcs, sizes, 3, attrs, idx, 2, &fail));
	ck_assert_uint_eq(fail, SIZE_MAX);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(dsts, max, srcs, sizes, 0, attrs, idx, 1, &fail));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(dsts, max, srcs, sizes, 1, attrs, idx, 2, &fail));
	/* attrsIndexes: first not 0, not increasing, past the batch */
	idx[0] = 1;
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(dsts, max, srcs, sizes, 3, attrs, idx, 2, &fail));
	idx[0] = 0;
	idx[1] = 0;
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(dsts, max, srcs, sizes, 3, attrs, idx, 2, &fail));
	idx[1] = 3;
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(dsts, max, srcs, sizes, 3, attrs, idx, 2, &fail));
	idx[1] = 2;
	ck_assert_uint_eq(fail, SIZE_MAX);
	/* A size over its destMax fails that copy. */
	sizes[1] = 65;
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(dsts, max, srcs, sizes, 3, attrs, idx, 2, &fail));
	ck_assert_uint_eq(fail, 1);
	sizes[1] = 8;
	/* Locations: another device, another type, or contradicting the
	 * address fail the first copy they cover. */
	attrs[1].dstLoc.id = (uint32_t)dev + 1;
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(dsts, max, srcs, sizes, 3, attrs, idx, 2, &fail));
	ck_assert_uint_eq(fail, 2);
	attrs[1].dstLoc = (aclrtMemLocation){ .id = 0, .type = ACL_MEM_LOCATION_TYPE_UNREGISTERED };
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(dsts, max, srcs, sizes, 3, attrs, idx, 2, &fail));
	ck_assert_uint_eq(fail, 2);
	attrs[1].dstLoc.type = ACL_MEM_LOCATION_TYPE_HOST;	/* but dsts[2] is device memory */
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatchAsync(dsts, max, srcs, sizes, 3, attrs, idx, 2, &fail,
							       stream));
	ck_assert_uint_eq(fail, 2);
	/* A piece past its allocation's end. */
	attrs[1] = attrs[0];
	dsts[2] = (char *)d + 150;
	sizes[2] = 16;
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(dsts, max, srcs, sizes, 3, attrs, idx, 2, &fail));
	ck_assert_uint_eq(fail, 2);
	ACL_OK(aclrtFree(d));
}
END_TEST

/* Captured (aclmdlRI*): a 2-D async copy of device memory is recorded and
 * replayed; a synchronous 2-D copy under a GLOBAL capture is refused and
 * invalidates it, as aclrtMemcpy is. */
START_TEST(two_d_copies_under_capture)
{
	unsigned char h[ROWS * DPITCH], back[ROWS * DPITCH];
	void *d1, *d2;
	aclmdlRI ri;

	acl_test_fill(h, sizeof(h), 31);
	ACL_OK(aclrtMalloc(&d1, sizeof(h), ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtMalloc(&d2, sizeof(h), ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtMemcpy(d1, sizeof(h), h, sizeof(h), ACL_MEMCPY_HOST_TO_DEVICE));
	ACL_OK(aclrtMemset(d2, sizeof(h), 0, sizeof(h)));
	ACL_OK(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	ACL_OK(aclrtMemcpy2dAsync(d2, DPITCH, d1, SPITCH, WIDTH, ROWS, ACL_MEMCPY_DEVICE_TO_DEVICE, stream));
	ACL_OK(aclmdlRICaptureEnd(stream, &ri));
	/* Nothing ran yet. */
	ACL_OK(aclrtMemcpy(back, sizeof(back), d2, sizeof(back), ACL_MEMCPY_DEVICE_TO_HOST));
	for (size_t i = 0; i < sizeof(back); i++)
		ck_assert_uint_eq(back[i], 0);
	ACL_OK(aclmdlRIExecuteAsync(ri, stream));
	ACL_OK(aclrtSynchronizeStream(stream));
	memset(back, 0, sizeof(back));
	ACL_OK(aclrtMemcpy(back, sizeof(back), d2, sizeof(back), ACL_MEMCPY_DEVICE_TO_HOST));
	for (size_t r = 0; r < ROWS; r++)
		ck_assert_msg(!memcmp(back + r * DPITCH, h + r * SPITCH, WIDTH), "row %zu differs", r);
	ACL_OK(aclmdlRIDestroy(ri));
	ACL_OK(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	ACL_ERR(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
		aclrtMemcpy2d(d2, DPITCH, h, SPITCH, WIDTH, ROWS, ACL_MEMCPY_HOST_TO_DEVICE));
	ACL_ERR(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, aclmdlRICaptureEnd(stream, &ri));
	ACL_OK(aclrtFree(d1));
	ACL_OK(aclrtFree(d2));
}
END_TEST

static Suite *copy_suite(void)
{
	Suite *s = suite_create("acl_copy");
	TCase *tc = acl_tcase("copy", true, 120);

	tcase_add_checked_fixture(tc, setup_stream, teardown_stream);
	tcase_add_loop_test(tc, two_d_copies_every_direction, 0, 4);
	tcase_add_test(tc, two_d_arguments);
	tcase_add_test(tc, async_copies_are_one_submit);
	tcase_add_loop_test(tc, batch_copies_every_direction, 0, 4);
	tcase_add_test(tc, batch_arguments_and_fail_index);
	tcase_add_test(tc, two_d_copies_under_capture);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return acl_test_run(copy_suite());
}
