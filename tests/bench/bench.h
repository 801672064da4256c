/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tiny benchmark kit: time a body many times, report median and p99.
 *
 * Each result is one line on stdout:
 *   BENCH {"name":"...","unit":"ns","median":...,"p99":...,"n":...}
 * with "size":N added to figures measured at a scale (streams, buffers):
 * the size actually measured, which smoke runs shrink while the figure
 * keeps its full-run name. tests/bench/report.py joins the lines of one
 * guest boot into a table and a JSON file, with the ratios of
 * tests/bench/ratios.conf. Under emulation only ratios between figures of
 * the same boot (and counts) mean anything.
 *
 * A benchmark never fails on a time figure, but any operation that fails
 * (setup or timed) is fatal: bench_fail() says what failed and exits 1, so
 * a failure is never recorded as a fast sample nor leaves a figure out.
 */
#ifndef VNPU_BENCH_H
#define VNPU_BENCH_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*
 * Report a failed operation @what with error @err (an errno value, either
 * sign; 0 if there is none) and exit 1.
 */
#define bench_fail(what, err) bench_fail_at(__FILE__, __LINE__, (what), (err))

static inline _Noreturn void bench_fail_at(const char *file, int line, const char *what,
					   int err)
{
	int e = err < 0 ? -err : err;

	fflush(stdout);
	if (e)
		fprintf(stderr, "%s:%d: %s failed: %s (errno %d)\n", file, line, what,
			strerror(e), e);
	else
		fprintf(stderr, "%s:%d: %s failed\n", file, line, what);
	exit(1);
}

/* Run @call, which returns 0 or -errno (the selftest helpers); fatal if not 0. */
#define BENCH_CHECK(call)                                      \
	do {                                                   \
		int _err = (call);                             \
		if (_err)                                      \
			bench_fail(#call, _err);               \
	} while (0)

/* Run @call, which returns 0 or -1 with errno set (system calls); fatal if not 0. */
#define BENCH_SYS(call)                                        \
	do {                                                   \
		if ((call))                                    \
			bench_fail(#call, errno);              \
	} while (0)

static inline uint64_t bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

struct bench_samples {
	double *v;
	unsigned int n, cap;
};

static inline void bench_samples_init(struct bench_samples *s, unsigned int cap)
{
	s->v = calloc(cap, sizeof(*s->v));
	if (!s->v)
		bench_fail("allocating samples", ENOMEM);
	s->n = 0;
	s->cap = cap;
}

static inline void bench_add(struct bench_samples *s, double value)
{
	if (s->n < s->cap)
		s->v[s->n++] = value;
}

static int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Sorts the samples, prints the BENCH line and frees them. @size, if not 0,
 * is the scale actually measured (streams, buffers), printed as "size".
 */
static inline void bench_report_size(struct bench_samples *s, const char *name,
				     const char *unit, unsigned long size)
{
	double median = 0, p99 = 0;

	if (s->n) {
		qsort(s->v, s->n, sizeof(*s->v), bench_cmp_double);
		median = s->v[s->n / 2];
		/* Nearest rank: the smallest sample with >= 99% at or below it. */
		p99 = s->v[(s->n * 99 + 99) / 100 - 1];
	}
	if (!s->n)
		bench_fail(name, ENODATA);	/* no sample: nothing was measured */
	printf("BENCH {\"name\":\"%s\",\"unit\":\"%s\",\"median\":%.3f,\"p99\":%.3f,\"n\":%u",
	       name, unit, median, p99, s->n);
	if (size)
		printf(",\"size\":%lu", size);
	printf("}\n");
	fflush(stdout);
	free(s->v);
	s->v = NULL;
}

static inline void bench_report(struct bench_samples *s, const char *name, const char *unit)
{
	bench_report_size(s, name, unit, 0);
}

/* A count (ioctls per op, syncs per op): exact, not timed. */
static inline void bench_count(const char *name, double value)
{
	printf("BENCH {\"name\":\"%s\",\"unit\":\"count\",\"median\":%.3f,\"p99\":%.3f,\"n\":1}\n",
	       name, value, value);
	fflush(stdout);
}

/*
 * Time @body @rounds times, each round running it @per_round times, and
 * record ns per run. Rounds let cheap operations be timed above clock noise.
 */
#define BENCH_LOOP(samples, rounds, per_round, body)                          \
	do {                                                                   \
		for (unsigned int _r = 0; _r < (rounds); _r++) {               \
			uint64_t _t0 = bench_now_ns();                         \
			for (unsigned int _i = 0; _i < (per_round); _i++) {    \
				body;                                          \
			}                                                      \
			bench_add((samples), (double)(bench_now_ns() - _t0) /  \
					     (per_round));                     \
		}                                                              \
	} while (0)

#endif /* VNPU_BENCH_H */
