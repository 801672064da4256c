// SPDX-License-Identifier: MIT
/*
 * Host unit tests of lib/rt/rt_wspool.c: the reuse rules of the runtime's own
 * workspace pool (own stream: at once; another stream: only once the last
 * use has signalled), best fit, size classes and the bounds.
 */
#include <check.h>
#include <stdlib.h>

#include "rt_wspool.h"

static struct rt_wsblock *block(uint64_t size, void *owner, uint64_t point)
{
	struct rt_wsblock *b = calloc(1, sizeof(*b));

	ck_assert_ptr_nonnull(b);
	b->size = size;
	b->owner = owner;
	b->point = point;
	return b;
}

static void free_chain(struct rt_wsblock *b)
{
	while (b) {
		struct rt_wsblock *next = b->next;

		free(b);
		b = next;
	}
}

/* A fake timeline per owner: "signalled up to" values. */
struct timelines {
	void *owner[2];
	uint64_t done[2];
	unsigned int asked;
};

static bool done(const struct rt_wsblock *b, void *arg)
{
	struct timelines *t = arg;
	unsigned int i;

	t->asked++;
	for (i = 0; i < 2; i++)
		if (b->owner == t->owner[i])
			return b->point <= t->done[i];
	return false;
}

START_TEST(size_classes)
{
	ck_assert_uint_eq(rt_ws_size_class(1), RT_WS_MIN_BLOCK);
	ck_assert_uint_eq(rt_ws_size_class(RT_WS_MIN_BLOCK), RT_WS_MIN_BLOCK);
	ck_assert_uint_eq(rt_ws_size_class(RT_WS_MIN_BLOCK + 1), 2 * RT_WS_MIN_BLOCK);
	ck_assert_uint_eq(rt_ws_size_class(3u << 20), 4u << 20);
	ck_assert_uint_eq(rt_ws_size_class((1ull << 40) + 1), 1ull << 41);
	ck_assert_uint_ge(rt_ws_size_class(UINT64_MAX - 5), UINT64_MAX - 5);
}
END_TEST

START_TEST(own_stream_reuses_at_once_best_fit)
{
	struct rt_wslist l;
	struct rt_wsblock *b64 = block(64 << 10, NULL, 100), *b256 = block(256 << 10, NULL, 100);
	struct rt_wsblock *b128 = block(128 << 10, NULL, 100);

	rt_wslist_init(&l);
	rt_wslist_put(&l, b256);
	rt_wslist_put(&l, b64);
	rt_wslist_put(&l, b128);
	ck_assert_uint_eq(l.count, 3);
	ck_assert_uint_eq(l.bytes, 448 << 10);
	/* No "done" question on the stream's own list. */
	ck_assert_ptr_eq(rt_wslist_take(&l, 100 << 10, NULL, NULL), b128);
	ck_assert_ptr_eq(rt_wslist_take(&l, 1, NULL, NULL), b64);
	ck_assert_ptr_null(rt_wslist_take(&l, 300 << 10, NULL, NULL));
	ck_assert_ptr_eq(rt_wslist_take(&l, 256 << 10, NULL, NULL), b256);
	ck_assert_ptr_null(rt_wslist_take(&l, 1, NULL, NULL));
	ck_assert_uint_eq(l.count, 0);
	ck_assert_uint_eq(l.bytes, 0);
	free(b64);
	free(b128);
	free(b256);
}
END_TEST

START_TEST(other_streams_wait_for_the_last_use)
{
	int s1, s2;
	struct timelines t = { .owner = { &s1, &s2 }, .done = { 4, 10 } };
	struct rt_wsblock *busy = block(64 << 10, &s1, 5), *idle = block(128 << 10, &s2, 10);
	struct rt_wslist l;

	rt_wslist_init(&l);
	rt_wslist_put(&l, busy);
	rt_wslist_put(&l, idle);
	/* The best fit is still in use (s1 is at 4, the block's job is 5). */
	ck_assert_ptr_eq(rt_wslist_take(&l, 1, done, &t), idle);
	ck_assert_ptr_null(rt_wslist_take(&l, 1, done, &t));
	/* Once s1 passes point 5 it may go. */
	t.done[0] = 5;
	ck_assert_ptr_eq(rt_wslist_take(&l, 1, done, &t), busy);
	ck_assert_uint_gt(t.asked, 0);
	free(busy);
	free(idle);
}
END_TEST

START_TEST(done_is_asked_only_for_better_fits)
{
	int s1;
	struct timelines t = { .owner = { &s1, NULL }, .done = { 100, 0 } };
	struct rt_wsblock *got;
	struct rt_wslist l;
	int i;

	rt_wslist_init(&l);
	/* Blocks too small, or no better than the best usable one found,
	 * cost no question (each may be an ioctl). */
	for (i = 8; i >= 1; i--)
		rt_wslist_put(&l, block((uint64_t)i << 16, &s1, 1));
	got = rt_wslist_take(&l, 3 << 16, done, &t);
	ck_assert_uint_eq(got->size, 3 << 16);
	ck_assert_uint_eq(t.asked, 1);
	free(got);
	free_chain(rt_wslist_take_all(&l));
}
END_TEST

START_TEST(trimming_drops_the_least_recently_returned)
{
	struct rt_wslist l;
	struct rt_wsblock *b[6], *out, *p;
	int i, n = 0;

	rt_wslist_init(&l);
	for (i = 0; i < 6; i++) {
		b[i] = block(1 << 20, NULL, (uint64_t)i);
		rt_wslist_put(&l, b[i]);
	}
	out = rt_wslist_trim(&l, 4, UINT64_MAX);
	ck_assert_uint_eq(l.count, 4);
	/* The two oldest went. */
	ck_assert(out && out->next && !out->next->next);
	ck_assert((out == b[0] && out->next == b[1]) || (out == b[1] && out->next == b[0]));
	free_chain(out);
	/* Byte bound. */
	out = rt_wslist_trim(&l, 100, 2 << 20);
	for (p = out; p; p = p->next)
		n++;
	ck_assert_int_eq(n, 2);
	ck_assert_uint_eq(l.bytes, 2 << 20);
	ck_assert_ptr_eq(l.head, b[5]);
	free_chain(out);
	/* A single block above the bound does not stay either. */
	rt_wslist_put(&l, block(RT_WS_STREAM_BYTES * 2, NULL, 0));
	out = rt_wslist_trim(&l, RT_WS_STREAM_BLOCKS, RT_WS_STREAM_BYTES);
	ck_assert_uint_le(l.bytes, RT_WS_STREAM_BYTES);
	free_chain(out);
	free_chain(rt_wslist_take_all(&l));
	ck_assert_uint_eq(l.count, 0);
}
END_TEST

static Suite *wspool_suite(void)
{
	Suite *s = suite_create("lib_wspool");
	TCase *tc = tcase_create("wspool");

	tcase_add_test(tc, size_classes);
	tcase_add_test(tc, own_stream_reuses_at_once_best_fit);
	tcase_add_test(tc, other_streams_wait_for_the_last_use);
	tcase_add_test(tc, done_is_asked_only_for_better_fits);
	tcase_add_test(tc, trimming_drops_the_least_recently_returned);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(wspool_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
