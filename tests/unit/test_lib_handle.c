// SPDX-License-Identifier: MIT
/*
 * Host unit tests of lib/rt/rt_handle.c: handle validation and object
 * lifetimes.
 */
#include <check.h>
#include <pthread.h>
#include <stdlib.h>

#include "rt_handle.h"

struct thing {
	struct rt_obj obj;
	int *released;
};

static void thing_release(struct rt_obj *obj)
{
	struct thing *t = (struct thing *)obj;

	(*t->released)++;
	free(t);
}

static struct thing *thing_new(uint32_t type, int *released)
{
	struct thing *t = calloc(1, sizeof(*t));

	ck_assert_ptr_nonnull(t);
	rt_obj_init(&t->obj, type, thing_release);
	t->released = released;
	return t;
}

START_TEST(lookup_finds_live_objects_of_the_right_type)
{
	int released = 0;
	struct thing *t = thing_new(RT_OBJ_STREAM, &released);
	struct rt_obj *got;

	ck_assert_ptr_null(rt_handle_lookup(t, RT_OBJ_STREAM));
	ck_assert_int_eq(rt_handle_add(&t->obj), 0);
	ck_assert_uint_ne(t->obj.serial, 0);
	got = rt_handle_lookup(t, RT_OBJ_STREAM);
	ck_assert_ptr_eq(got, &t->obj);
	rt_obj_put(got);
	ck_assert_ptr_null(rt_handle_lookup(t, RT_OBJ_EVENT));
	ck_assert_ptr_null(rt_handle_lookup(NULL, RT_OBJ_STREAM));
	ck_assert_ptr_null(rt_handle_lookup((char *)t + 8, RT_OBJ_STREAM));
	ck_assert_ptr_null(rt_handle_lookup(&released, RT_OBJ_STREAM));

	ck_assert(rt_handle_remove(&t->obj));
	ck_assert(!rt_handle_remove(&t->obj));
	ck_assert_ptr_null(rt_handle_lookup(t, RT_OBJ_STREAM));
	ck_assert_int_eq(released, 0);
	rt_obj_put(&t->obj); /* the creator's reference */
	ck_assert_int_eq(released, 1);
	ck_assert_uint_eq(rt_handle_count(), 0);
}
END_TEST

START_TEST(a_looked_up_object_outlives_its_removal)
{
	int released = 0;
	struct thing *t = thing_new(RT_OBJ_EVENT, &released);
	struct rt_obj *got;

	ck_assert_int_eq(rt_handle_add(&t->obj), 0);
	rt_obj_put(&t->obj); /* only the registry holds it now */
	got = rt_handle_lookup(t, RT_OBJ_EVENT);
	ck_assert_ptr_nonnull(got);
	ck_assert(rt_handle_remove(&t->obj));
	ck_assert_int_eq(released, 0);
	rt_obj_put(got);
	ck_assert_int_eq(released, 1);
}
END_TEST

START_TEST(serials_are_unique)
{
	int released = 0;
	struct thing *a = thing_new(RT_OBJ_CONTEXT, &released);
	struct thing *b = thing_new(RT_OBJ_CONTEXT, &released);

	ck_assert_int_eq(rt_handle_add(&a->obj), 0);
	ck_assert_int_eq(rt_handle_add(&b->obj), 0);
	ck_assert_uint_ne(a->obj.serial, b->obj.serial);
	ck_assert_uint_eq(rt_handle_count(), 2);
	rt_handle_remove(&a->obj);
	rt_handle_remove(&b->obj);
	rt_obj_put(&a->obj);
	rt_obj_put(&b->obj);
	ck_assert_int_eq(released, 2);
}
END_TEST

#define THREADS 8
#define ROUNDS 2000

static void *churn(void *arg)
{
	int *released = arg;
	int i;

	for (i = 0; i < ROUNDS; i++) {
		struct thing *t = thing_new(RT_OBJ_STREAM, released);
		struct rt_obj *got;

		ck_assert_int_eq(rt_handle_add(&t->obj), 0);
		got = rt_handle_lookup(t, RT_OBJ_STREAM);
		ck_assert_ptr_eq(got, &t->obj);
		ck_assert(rt_handle_remove(&t->obj));
		rt_obj_put(got);
		rt_obj_put(&t->obj);
	}
	return NULL;
}

START_TEST(concurrent_add_lookup_remove)
{
	static int released[THREADS];
	pthread_t threads[THREADS];
	int i;

	for (i = 0; i < THREADS; i++)
		ck_assert_int_eq(pthread_create(&threads[i], NULL, churn, &released[i]), 0);
	for (i = 0; i < THREADS; i++) {
		pthread_join(threads[i], NULL);
		ck_assert_int_eq(released[i], ROUNDS);
	}
	ck_assert_uint_eq(rt_handle_count(), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("lib_handle");
	TCase *tc = tcase_create("handle");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, lookup_finds_live_objects_of_the_right_type);
	tcase_add_test(tc, a_looked_up_object_outlives_its_removal);
	tcase_add_test(tc, serials_are_unique);
	tcase_add_test(tc, concurrent_add_lookup_remove);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
