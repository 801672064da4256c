// SPDX-License-Identifier: MIT
/*
 * Host unit tests of lib/rt/rt_imap.c, the allocation table's ordered range map.
 */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "rt_imap.h"

static struct rt_imap map;

static void setup(void)
{
	rt_imap_init(&map);
}

static void teardown(void)
{
	rt_imap_clear(&map);
}

START_TEST(find_start_interior_last_and_past_end)
{
	int value;

	ck_assert_int_eq(rt_imap_insert(&map, 0x1000, 0x100, &value), 0);
	ck_assert_ptr_eq(rt_imap_find(&map, 0x1000)->value, &value);
	ck_assert_ptr_eq(rt_imap_find(&map, 0x1080)->value, &value);
	ck_assert_ptr_eq(rt_imap_find(&map, 0x10ff)->value, &value);
	ck_assert_ptr_null(rt_imap_find(&map, 0x1100));
	ck_assert_ptr_null(rt_imap_find(&map, 0xfff));
	ck_assert_uint_eq(map.count, 1);
}
END_TEST

START_TEST(overlaps_are_rejected)
{
	ck_assert_int_eq(rt_imap_insert(&map, 0x1000, 0x100, NULL), 0);
	ck_assert_int_eq(rt_imap_insert(&map, 0x1000, 0x100, NULL), -EEXIST);
	ck_assert_int_eq(rt_imap_insert(&map, 0x10ff, 1, NULL), -EEXIST);
	ck_assert_int_eq(rt_imap_insert(&map, 0xf00, 0x101, NULL), -EEXIST);
	ck_assert_int_eq(rt_imap_insert(&map, 0x800, 0x1000, NULL), -EEXIST);
	/* Touching is not overlapping. */
	ck_assert_int_eq(rt_imap_insert(&map, 0xf00, 0x100, NULL), 0);
	ck_assert_int_eq(rt_imap_insert(&map, 0x1100, 0x100, NULL), 0);
	ck_assert_uint_eq(map.count, 3);
}
END_TEST

START_TEST(zero_size_and_wrapping_ranges_are_invalid)
{
	ck_assert_int_eq(rt_imap_insert(&map, 0x1000, 0, NULL), -EINVAL);
	ck_assert_int_eq(rt_imap_insert(&map, UINT64_MAX - 10, 100, NULL), -EINVAL);
	ck_assert_int_eq(rt_imap_insert(&map, UINT64_MAX, 1, NULL), 0);
	ck_assert_ptr_nonnull(rt_imap_find(&map, UINT64_MAX));
}
END_TEST

START_TEST(remove_needs_the_exact_start)
{
	int a, b;

	ck_assert_int_eq(rt_imap_insert(&map, 0x1000, 0x100, &a), 0);
	ck_assert_int_eq(rt_imap_insert(&map, 0x2000, 0x100, &b), 0);
	ck_assert_ptr_null(rt_imap_remove(&map, 0x1001));
	ck_assert_ptr_eq(rt_imap_remove(&map, 0x1000), &a);
	ck_assert_ptr_null(rt_imap_find(&map, 0x1000));
	ck_assert_ptr_eq(rt_imap_find(&map, 0x2050)->value, &b);
	ck_assert_ptr_null(rt_imap_remove(&map, 0x1000));
	ck_assert_uint_eq(map.count, 1);
}
END_TEST

/* The bound-range cache of a stream asks whether a workspace lies inside
 * one bound allocation. */
START_TEST(covers_needs_the_whole_range_in_one_entry)
{
	ck_assert_int_eq(rt_imap_insert(&map, 0x1000, 0x100, NULL), 0);
	ck_assert_int_eq(rt_imap_insert(&map, 0x1100, 0x100, NULL), 0); /* touching */
	ck_assert(rt_imap_covers(&map, 0x1000, 0x100));
	ck_assert(rt_imap_covers(&map, 0x1010, 0x10));
	ck_assert(rt_imap_covers(&map, 0x10ff, 1));
	ck_assert(rt_imap_covers(&map, 0x1100, 0x100));
	/* Across two entries, even touching ones, is not covered. */
	ck_assert(!rt_imap_covers(&map, 0x10f0, 0x20));
	ck_assert(!rt_imap_covers(&map, 0x1000, 0x101));
	ck_assert(!rt_imap_covers(&map, 0x1180, 0x81));
	ck_assert(!rt_imap_covers(&map, 0xfff, 2));
	ck_assert(!rt_imap_covers(&map, 0x1200, 1));
	ck_assert(!rt_imap_covers(&map, 0x1000, 0));
	ck_assert(!rt_imap_covers(&map, 0x1010, UINT64_MAX));
	ck_assert_int_eq(rt_imap_insert(&map, UINT64_MAX - 0xff, 0x100, NULL), 0);
	ck_assert(rt_imap_covers(&map, UINT64_MAX - 0xff, 0x100));
	ck_assert(!rt_imap_covers(&map, UINT64_MAX, 2));
}
END_TEST

static void count_in_order(const struct rt_imap_node *node, void *arg)
{
	uint64_t *prev = arg;

	ck_assert_uint_gt(node->start + 1, prev[0] + 1);
	prev[0] = node->start;
	prev[1]++;
}

/* Random inserts and removes against a flat model; the tree stays balanced. */
START_TEST(random_operations_match_a_model)
{
	enum { SLOTS = 2000 };
	static unsigned char present[SLOTS];
	uint64_t walk[2] = { 0, 0 };
	unsigned int seed = 12345, i, n = 0;

	for (i = 0; i < 20000; i++) {
		unsigned int k = (seed = seed * 1103515245 + 12345) / 65536 % SLOTS;
		uint64_t start = 0x100000000ULL + (uint64_t)k * 0x1000;

		if (present[k]) {
			ck_assert_ptr_eq(rt_imap_remove(&map, start), (void *)(uintptr_t)(k + 1));
			present[k] = 0;
			n--;
		} else {
			ck_assert_int_eq(rt_imap_insert(&map, start, 0x1000 - (k % 7), (void *)(uintptr_t)(k + 1)),
					 0);
			present[k] = 1;
			n++;
		}
	}
	ck_assert_uint_eq(map.count, n);
	for (i = 0; i < SLOTS; i++) {
		uint64_t start = 0x100000000ULL + (uint64_t)i * 0x1000;
		const struct rt_imap_node *node = rt_imap_find(&map, start + 0x10);

		if (present[i])
			ck_assert_ptr_eq(node->value, (void *)(uintptr_t)(i + 1));
		else
			ck_assert_ptr_null(node);
	}
	/* An AVL tree of n nodes is at most about 1.44 log2(n) high. */
	ck_assert_int_le(map.root ? map.root->height : 0, 16);
	rt_imap_for_each(&map, count_in_order, walk);
	ck_assert_uint_eq(walk[1], n);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("lib_imap");
	TCase *tc = tcase_create("imap");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, find_start_interior_last_and_past_end);
	tcase_add_test(tc, overlaps_are_rejected);
	tcase_add_test(tc, zero_size_and_wrapping_ranges_are_invalid);
	tcase_add_test(tc, remove_needs_the_exact_start);
	tcase_add_test(tc, covers_needs_the_whole_range_in_one_entry);
	tcase_add_test(tc, random_operations_match_a_model);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
