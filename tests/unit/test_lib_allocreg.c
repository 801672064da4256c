// SPDX-License-Identifier: MIT
/*
 * Host unit tests of lib/rt/rt_allocreg.c: allocator descriptors and the
 * per-stream registration slot, including its lock-free readers and the
 * reclamation of replaced registrations (run under ASan: a record freed
 * while a reader holds it is a use after free).
 */
#include <check.h>
#include <pthread.h>
#include <stdlib.h>

#include "rt_allocreg.h"

static void *alloc_a(aclrtAllocator obj, size_t size)
{
	(void)obj;
	(void)size;
	return NULL;
}

static void *alloc_b(aclrtAllocator obj, size_t size)
{
	(void)size;
	return obj;
}

static void free_a(aclrtAllocator obj, aclrtAllocatorBlock block)
{
	(void)obj;
	(void)block;
}

static void *addr_a(aclrtAllocatorBlock block)
{
	return block;
}

static struct rt_allocfns fns(void *obj, aclrtAllocatorAllocFunc alloc)
{
	struct rt_allocfns f = { .obj = obj, .alloc = alloc, .free = free_a, .get_addr = addr_a };

	return f;
}

START_TEST(descriptors_are_registry_objects)
{
	struct rt_allocdesc *d = rt_allocdesc_new(), *got;
	struct rt_allocfns v = { .alloc = alloc_a }, out;
	int obj;

	ck_assert_ptr_nonnull(d);
	/* Fresh descriptors are empty. */
	rt_allocdesc_read(d, &out);
	ck_assert(!out.obj && !out.alloc && !out.free && !out.advise && !out.get_addr);
	got = rt_allocdesc_lookup(d);
	ck_assert_ptr_eq(got, d);
	rt_allocdesc_set(got, RT_ALLOCDESC_ALLOC, &v);
	v.obj = &obj;
	rt_allocdesc_set(got, RT_ALLOCDESC_OBJ, &v);
	rt_allocdesc_read(got, &out);
	ck_assert_ptr_eq(out.obj, &obj);
	ck_assert(out.alloc == alloc_a);
	ck_assert(!out.free);
	/* A stream handle is not a descriptor. */
	ck_assert_ptr_null(rt_allocdesc_lookup(&obj));
	/* Destroyed: no longer found; the reference we hold keeps it valid. */
	ck_assert(rt_allocdesc_destroy(d));
	ck_assert(!rt_allocdesc_destroy(d));
	ck_assert_ptr_null(rt_allocdesc_lookup(d));
	rt_allocdesc_read(got, &out);
	ck_assert_ptr_eq(out.obj, &obj);
	rt_allocdesc_put(got);
	ck_assert_uint_eq(rt_handle_count(), 0);
}
END_TEST

START_TEST(registration_copies_last_wins_unregister_is_idempotent)
{
	struct rt_allocslot slot;
	struct rt_allocfns f1 = fns((void *)1, alloc_a), f2 = fns((void *)2, alloc_b);
	const struct rt_allocrec *r;

	rt_allocslot_init(&slot);
	ck_assert_ptr_null(rt_allocslot_enter(&slot));
	rt_allocslot_leave(&slot);

	ck_assert(rt_allocslot_set(&slot, rt_allocrec_new((void *)0x10, &f1)));
	f1.obj = (void *)99; /* the record is a copy */
	r = rt_allocslot_enter(&slot);
	ck_assert_ptr_eq(r->desc, (void *)0x10);
	ck_assert_ptr_eq(r->fns.obj, (void *)1);
	ck_assert(r->fns.alloc == alloc_a);
	rt_allocslot_leave(&slot);

	ck_assert(rt_allocslot_set(&slot, rt_allocrec_new((void *)0x20, &f2)));
	r = rt_allocslot_enter(&slot);
	ck_assert_ptr_eq(r->desc, (void *)0x20);
	ck_assert(r->fns.alloc == alloc_b);
	rt_allocslot_leave(&slot);
	/* Nobody was reading: the replaced record is gone already. */
	ck_assert_uint_eq(slot.records_freed, 1);

	ck_assert(rt_allocslot_set(&slot, NULL));
	ck_assert(rt_allocslot_set(&slot, NULL));
	ck_assert_ptr_null(rt_allocslot_enter(&slot));
	rt_allocslot_leave(&slot);
	ck_assert_uint_eq(slot.records_freed, 2);
	rt_allocslot_fini(&slot);
}
END_TEST

START_TEST(a_reader_keeps_its_record)
{
	struct rt_allocslot slot;
	struct rt_allocfns f1 = fns((void *)1, alloc_a), f2 = fns((void *)2, alloc_b);
	const struct rt_allocrec *held;

	rt_allocslot_init(&slot);
	ck_assert(rt_allocslot_set(&slot, rt_allocrec_new(NULL, &f1)));
	held = rt_allocslot_enter(&slot);
	/* Replaced and unregistered while a reader is inside. */
	ck_assert(rt_allocslot_set(&slot, rt_allocrec_new(NULL, &f2)));
	ck_assert(rt_allocslot_set(&slot, NULL));
	ck_assert_uint_eq(slot.records_freed, 0);
	ck_assert_ptr_eq(held->fns.obj, (void *)1); /* ASan: still valid */
	rt_allocslot_leave(&slot);
	/* The next writer that finds no reader frees both. */
	ck_assert(rt_allocslot_set(&slot, NULL));
	ck_assert_uint_eq(slot.records_freed, 2);
	rt_allocslot_fini(&slot);
}
END_TEST

START_TEST(a_closed_slot_takes_no_registration)
{
	struct rt_allocslot slot;
	struct rt_allocfns f1 = fns((void *)1, alloc_a);

	rt_allocslot_init(&slot);
	ck_assert(rt_allocslot_set(&slot, rt_allocrec_new(NULL, &f1)));
	rt_allocslot_close(&slot);
	/* Closing (the stream's destruction) drops the registration at once:
	 * with no reader inside, its record is already freed. */
	ck_assert_uint_eq(slot.records_freed, 1);
	ck_assert_ptr_null(rt_allocslot_enter(&slot));
	rt_allocslot_leave(&slot);
	/* Refused, and the record is not leaked (ASan's leak check). */
	ck_assert(!rt_allocslot_set(&slot, rt_allocrec_new(NULL, &f1)));
	ck_assert_ptr_null(rt_allocslot_enter(&slot));
	rt_allocslot_leave(&slot);
	rt_allocslot_fini(&slot);
}
END_TEST

START_TEST(closing_with_a_reader_inside_keeps_its_record_until_the_end)
{
	struct rt_allocslot slot;
	struct rt_allocfns f1 = fns((void *)1, alloc_a);
	const struct rt_allocrec *held;

	rt_allocslot_init(&slot);
	ck_assert(rt_allocslot_set(&slot, rt_allocrec_new(NULL, &f1)));
	held = rt_allocslot_enter(&slot);
	rt_allocslot_close(&slot);
	/* Unregistered for newcomers, still valid for the operator inside. */
	ck_assert_uint_eq(slot.records_freed, 0);
	ck_assert_ptr_eq(held->fns.obj, (void *)1); /* ASan: still valid */
	ck_assert_ptr_null(atomic_load(&slot.cur));
	rt_allocslot_leave(&slot);
	/* The stream's last reference frees it. */
	rt_allocslot_fini(&slot);
	ck_assert_uint_eq(slot.records_freed, 1);
}
END_TEST

/* ---- concurrency: readers never see a freed record ---------------------------- */

#define READERS 6

struct race {
	struct rt_allocslot slot;
	atomic_bool stop;
	atomic_ulong reads, hits;
};

static void *reader(void *arg)
{
	struct race *r = arg;

	while (!atomic_load(&r->stop)) {
		const struct rt_allocrec *rec = rt_allocslot_enter(&r->slot);

		if (rec) {
			/* Use it as an operator would: every field, twice. */
			uintptr_t obj = (uintptr_t)rec->fns.obj;

			ck_assert(rec->fns.alloc == alloc_a || rec->fns.alloc == alloc_b);
			ck_assert(rec->fns.free == free_a && rec->fns.get_addr == addr_a);
			ck_assert_uint_eq((uintptr_t)rec->desc, obj);
			atomic_fetch_add(&r->hits, 1);
		}
		rt_allocslot_leave(&r->slot);
		atomic_fetch_add(&r->reads, 1);
	}
	return NULL;
}

START_TEST(lock_free_readers_race_with_writers)
{
	static struct race r;
	pthread_t t[READERS];
	unsigned long i, created = 0;

	rt_allocslot_init(&r.slot);
	for (i = 0; i < READERS; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, reader, &r), 0);
	for (i = 1; i <= 20000; i++) {
		struct rt_allocfns f = fns((void *)i, i % 2 ? alloc_a : alloc_b);

		if (i % 7 == 0)
			ck_assert(rt_allocslot_set(&r.slot, NULL));
		else
			ck_assert(rt_allocslot_set(&r.slot, rt_allocrec_new((void *)i, &f)));
		created += i % 7 != 0;
	}
	atomic_store(&r.stop, true);
	for (i = 0; i < READERS; i++)
		pthread_join(t[i], NULL);
	ck_assert_uint_gt(atomic_load(&r.hits), 0);
	/* With the readers gone, the next writer reclaims every record. */
	ck_assert(rt_allocslot_set(&r.slot, NULL));
	ck_assert_uint_eq(r.slot.records_freed, created);
	rt_allocslot_fini(&r.slot);
}
END_TEST

static Suite *allocreg_suite(void)
{
	Suite *s = suite_create("lib_allocreg");
	TCase *tc = tcase_create("allocreg");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, descriptors_are_registry_objects);
	tcase_add_test(tc, registration_copies_last_wins_unregister_is_idempotent);
	tcase_add_test(tc, a_reader_keeps_its_record);
	tcase_add_test(tc, a_closed_slot_takes_no_registration);
	tcase_add_test(tc, closing_with_a_reader_inside_keeps_its_record_until_the_end);
	tcase_add_test(tc, lock_free_readers_race_with_writers);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(allocreg_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
