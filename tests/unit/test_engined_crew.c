// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of vnpu-engined's crew (tools/engined/crew.c): an
 * operator's pieces spread over the caller and the idle engines' helpers,
 * each run exactly once, never more helpers than idle engines, one poster
 * at a time, and a SIGBUS in any piece raised in the caller's guard only
 * once no helper is inside (tools/engined/guard.c).
 */
#include <check.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engined.h"

#define PIECES 48
#define MAX_THREADS 8

struct record {
	atomic_uint runs[PIECES];
	atomic_uint started, finished;
	pthread_t seen[MAX_THREADS];
	atomic_uint nseen;
	pthread_mutex_t lock;
	unsigned int sleep_us;
	int sigbus_at;			/* the piece that raises SIGBUS, or -1 */
	/* a_second_poster_runs_alone: the first piece waits for @go. */
	atomic_bool hold, go, holding;
};

static void record_init(struct record *r, unsigned int sleep_us)
{
	memset(r, 0, sizeof(*r));
	pthread_mutex_init(&r->lock, NULL);
	r->sleep_us = sleep_us;
	r->sigbus_at = -1;
}

/* The distinct threads that ran pieces. */
static unsigned int record_threads(struct record *r)
{
	return atomic_load(&r->nseen);
}

static void note_thread(struct record *r)
{
	pthread_t self = pthread_self();
	unsigned int i, n;

	pthread_mutex_lock(&r->lock);
	n = atomic_load(&r->nseen);
	for (i = 0; i < n; i++)
		if (pthread_equal(r->seen[i], self))
			break;
	if (i == n && n < MAX_THREADS) {
		r->seen[n] = self;
		atomic_store(&r->nseen, n + 1);
	}
	pthread_mutex_unlock(&r->lock);
}

static void piece(void *arg, unsigned int i)
{
	struct record *r = arg;

	atomic_fetch_add(&r->started, 1);
	note_thread(r);
	if (atomic_load(&r->hold) && i == 0) {
		atomic_store(&r->holding, true);
		while (!atomic_load(&r->go))
			usleep(100);
	}
	if ((int)i == r->sigbus_at)
		raise(SIGBUS);
	if (r->sleep_us)
		usleep(r->sleep_us);
	atomic_fetch_add(&r->runs[i], 1);
	atomic_fetch_add(&r->finished, 1);
}

static void check_each_once(struct record *r, unsigned int count)
{
	for (unsigned int i = 0; i < count; i++)
		ck_assert_uint_eq(atomic_load(&r->runs[i]), 1);
}

START_TEST(pieces_run_once_each_on_the_caller_and_a_helper)
{
	struct crew c;
	struct record r;

	record_init(&r, 500);
	ck_assert_int_eq(crew_start(&c, 1), 0);
	crew_parallel(&c, 1, PIECES, piece, &r);
	check_each_once(&r, PIECES);
	ck_assert_uint_eq(record_threads(&r), 2);
	/* Again: the helper serves the next posting too. */
	record_init(&r, 500);
	crew_parallel(&c, 3, PIECES, piece, &r);
	check_each_once(&r, PIECES);
	ck_assert_uint_eq(record_threads(&r), 2);	/* one helper, however idle */
	crew_stop(&c);
}
END_TEST

START_TEST(seats_follow_the_idle_engines)
{
	struct crew c;
	struct record r;

	ck_assert_int_eq(crew_start(&c, 3), 0);
	/* No engine idle: the caller alone. */
	record_init(&r, 200);
	crew_parallel(&c, 0, PIECES, piece, &r);
	check_each_once(&r, PIECES);
	ck_assert_uint_eq(record_threads(&r), 1);
	ck_assert(pthread_equal(r.seen[0], pthread_self()));
	/* Two idle: at most three threads. */
	record_init(&r, 500);
	crew_parallel(&c, 2, PIECES, piece, &r);
	check_each_once(&r, PIECES);
	ck_assert_uint_le(record_threads(&r), 3);
	ck_assert_uint_ge(record_threads(&r), 2);
	/* One piece: nothing to share. */
	record_init(&r, 0);
	crew_parallel(&c, 3, 1, piece, &r);
	check_each_once(&r, 1);
	ck_assert_uint_eq(record_threads(&r), 1);
	crew_stop(&c);
}
END_TEST

struct poster {
	struct crew *c;
	struct record *r;
};

static void *first_poster(void *arg)
{
	struct poster *p = arg;

	crew_parallel(p->c, 1, PIECES, piece, p->r);
	return NULL;
}

START_TEST(a_second_poster_runs_alone)
{
	struct record a, b;
	struct poster p = { .r = &a };
	struct crew c;
	pthread_t t;

	ck_assert_int_eq(crew_start(&c, 1), 0);
	p.c = &c;
	record_init(&a, 100);
	atomic_store(&a.hold, true);
	ck_assert_int_eq(pthread_create(&t, NULL, first_poster, &p), 0);
	while (!atomic_load(&a.holding))
		usleep(100);
	/* The crew is taken: this one runs on its own thread only. */
	record_init(&b, 0);
	crew_parallel(&c, 1, PIECES, piece, &b);
	check_each_once(&b, PIECES);
	ck_assert_uint_eq(record_threads(&b), 1);
	ck_assert(pthread_equal(b.seen[0], pthread_self()));
	atomic_store(&a.go, true);
	pthread_join(t, NULL);
	check_each_once(&a, PIECES);
	crew_stop(&c);
}
END_TEST

struct guarded {
	struct crew *c;
	struct record *r;
};

static void run_pieces(void *arg)
{
	struct guarded *g = arg;

	crew_parallel(g->c, 1, PIECES, piece, g->r);
}

/*
 * Wherever the SIGBUS lands (the caller or the helper), the caller's own
 * guard sees it, after every other piece that started has finished, and
 * nothing starts after.
 */
START_TEST(sigbus_in_a_piece_faults_the_caller_once_all_left)
{
	struct record r;
	struct guarded g = { .r = &r };
	struct crew c;
	unsigned int started;

	ck_assert_int_eq(guard_init(), 0);
	ck_assert_int_eq(crew_start(&c, 1), 0);
	g.c = &c;
	for (int at = 0; at < 8; at++) {
		record_init(&r, 300);
		r.sigbus_at = at;
		ck_assert(!guard_call(run_pieces, &g));
		started = atomic_load(&r.started);
		/* Only the piece that hit SIGBUS did not finish. */
		ck_assert_uint_eq(atomic_load(&r.finished), started - 1);
		ck_assert_uint_lt(started, PIECES);
		usleep(5000);
		ck_assert_uint_eq(atomic_load(&r.started), started);
	}
	/* The crew still works. */
	record_init(&r, 300);
	ck_assert(guard_call(run_pieces, &g));
	check_each_once(&r, PIECES);
	crew_stop(&c);
}
END_TEST

/*
 * Outside any guard_call() a SIGBUS is not swallowed: the handler puts
 * the default action back, and the access that repeats kills the server.
 */
START_TEST(sigbus_outside_a_guard_kills)
{
	ck_assert_int_eq(guard_init(), 0);
	raise(SIGBUS);
	raise(SIGBUS);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("engined_crew");
	TCase *tc = tcase_create("crew");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, pieces_run_once_each_on_the_caller_and_a_helper);
	tcase_add_test(tc, seats_follow_the_idle_engines);
	tcase_add_test(tc, a_second_poster_runs_alone);
	tcase_add_test(tc, sigbus_in_a_piece_faults_the_caller_once_all_left);
	tcase_add_test_raise_signal(tc, sigbus_outside_a_guard_kills, SIGBUS);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
