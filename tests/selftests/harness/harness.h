/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vnpu selftest harness: kselftest-compatible TAP 13 output, KSFT_* exit
 * codes and the familiar TEST/TEST_F/FIXTURE/ASSERT/EXPECT macro names,
 * written from scratch for vnpu.
 *
 * Rules a test author must know:
 *  - One translation unit per test program: the registry is per-TU.
 *    Tests run in source order (file, then line).
 *  - Every test runs in its own forked child: fixture setup, body and
 *    teardown all happen there, so crashes and leaks stay contained.
 *  - ASSERT_* failing in a test body ends the body; teardown still runs.
 *    ASSERT_* failing in FIXTURE_SETUP ends the test WITHOUT teardown, so
 *    a setup that asserts must leave nothing behind that needs undoing.
 *    ASSERT_* failing in FIXTURE_TEARDOWN ends the teardown there.
 *  - SKIP() or a failed EXPECT_* in setup: the body is not run, teardown is
 *    (setup returned normally).  `self` starts zeroed, so teardown can tell
 *    what setup got to.
 *  - A test killed by its timeout or by a signal gets no teardown.  Only
 *    the test's own child is killed: a test that forks helpers reaps them.
 *  - Timeouts (default TEST_TIMEOUT_DEFAULT s) are multiplied by the float
 *    in env VNPU_TEST_TIMEOUT_SCALE; an invalid value is a usage error.
 *  - ASSERT_* in a thread or process the test created records the failure
 *    and _exit()s that process (it cannot unwind another stack).
 *  - Comparisons take integer, enum, bool or pointer operands (no floats);
 *    mixed signedness compares mathematically (-1 < 1u holds).
 *  - A body that calls exit() itself fails: the harness owns the child.
 *  - A failure recorded before SKIP() still fails the test.
 *  - Helpers that use ASSERT_*, EXPECT_* or TH_LOG take
 *    `struct th_metadata *_metadata`; `_metadata->name` is the full name.
 *  - Build with -std=gnu11 (or define _GNU_SOURCE before any include).
 */
#ifndef VNPU_SELFTEST_HARNESS_H
#define VNPU_SELFTEST_HARNESS_H

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define KSFT_PASS	0
#define KSFT_FAIL	1
#define KSFT_XFAIL	2
#define KSFT_XPASS	3
#define KSFT_SKIP	4

#define TEST_TIMEOUT_DEFAULT	30
#define TH_NAME_MAX		256

enum th_phase { TH_SETUP, TH_BODY, TH_TEARDOWN };

/* Per-test state; lives in a MAP_SHARED page so it survives the child. */
struct th_metadata {
	const char *name;	/* full name, e.g. "fixture.variant.test" */
	pid_t tid;		/* the child's main thread, the only one that may unwind */
	enum th_phase phase;
	bool failed, skipped, finished;
	char skip_reason[200];
	jmp_buf env;		/* where a failed ASSERT in the body lands */
};

typedef void (*th_fn)(struct th_metadata *m, void *self, const void *variant);

struct th_variant {
	const char *name;
	const void *data;
	const char *file;
	int line;
	struct th_variant *next;
};

struct th_fixture {
	const char *name;
	th_fn setup, teardown;
	struct th_variant *variants;
};

struct th_test {
	const char *name;
	const char *file;
	int line;
	struct th_fixture *fixture;	/* NULL for TEST() */
	size_t self_size;
	th_fn fn;
	int timeout;			/* seconds, before scaling */
	int signal;			/* nonzero: the test must die by it */
	struct th_test *next;
};

static struct th_test *th_tests __attribute__((unused));

/* Constructors may run in any order; (file, line) restores source order. */
static inline bool th_before(const char *fa, int la, const char *fb, int lb)
{
	int c = strcmp(fa, fb);

	return c < 0 || (c == 0 && la < lb);
}

static inline void th_register(struct th_test *t)
{
	struct th_test **pp = &th_tests;

	while (*pp && !th_before(t->file, t->line, (*pp)->file, (*pp)->line))
		pp = &(*pp)->next;
	t->next = *pp;
	*pp = t;
}

static inline void th_add_variant(struct th_fixture *f, struct th_variant *v)
{
	struct th_variant **pp = &f->variants;

	while (*pp && !th_before(v->file, v->line, (*pp)->file, (*pp)->line))
		pp = &(*pp)->next;
	v->next = *pp;
	*pp = v;
}

/* ---- tests and fixtures ------------------------------------------------ */

#define TH_UNUSED __attribute__((unused))

#define TEST(tn)		th_define_test(tn, TEST_TIMEOUT_DEFAULT, 0)
#define TEST_TIMEOUT(tn, secs) th_define_test(tn, secs, 0)
#define TEST_SIGNAL(tn, signo) th_define_test(tn, TEST_TIMEOUT_DEFAULT, signo)

#define th_define_test(tn, secs, signo)					\
	_Static_assert((secs) > 0, #tn ": timeout must be positive");	\
	static void th_body_##tn(struct th_metadata *_metadata);	\
	static void th_thunk_##tn(struct th_metadata *m, void *self,	\
				  const void *variant)			\
	{								\
		(void)self;						\
		(void)variant;						\
		th_body_##tn(m);					\
	}								\
	static struct th_test th_test_##tn = {				\
		.name = #tn, .file = __FILE__, .line = __LINE__,	\
		.fn = th_thunk_##tn,					\
		.timeout = (secs), .signal = (signo),			\
	};								\
	static void __attribute__((constructor)) th_reg_##tn(void)	\
	{								\
		th_register(&th_test_##tn);				\
	}								\
	static void th_body_##tn(struct th_metadata TH_UNUSED *_metadata)

#define FIXTURE_DATA(f)		struct th_self_##f
#define FIXTURE_VARIANT(f)	struct th_params_##f

/* Setup/teardown signatures are fixed here so TEST_F can call them. */
#define th_fixture_fn(f, kind)						\
	static void th_##kind##_##f(struct th_metadata *_metadata,	\
				    FIXTURE_DATA(f) *self,		\
				    const FIXTURE_VARIANT(f) *variant)

#define FIXTURE(f)							\
	FIXTURE_VARIANT(f);						\
	FIXTURE_DATA(f);						\
	th_fixture_fn(f, setup);					\
	th_fixture_fn(f, teardown);					\
	static void th_fsetup_##f(struct th_metadata *m, void *self,	\
				  const void *variant)			\
	{								\
		th_setup_##f(m, self, variant);				\
	}								\
	static void th_fteardown_##f(struct th_metadata *m, void *self,	\
				     const void *variant)		\
	{								\
		th_teardown_##f(m, self, variant);			\
	}								\
	static TH_UNUSED struct th_fixture th_fixture_##f = {		\
		.name = #f, .setup = th_fsetup_##f,			\
		.teardown = th_fteardown_##f,				\
	};								\
	FIXTURE_DATA(f)

#define th_fixture_def(f, kind)						\
	static void th_##kind##_##f(struct th_metadata TH_UNUSED *_metadata, \
				    FIXTURE_DATA(f) TH_UNUSED *self,	\
				    const FIXTURE_VARIANT(f) TH_UNUSED *variant)
#define FIXTURE_SETUP(f)	th_fixture_def(f, setup)
#define FIXTURE_TEARDOWN(f)	th_fixture_def(f, teardown)

/* Usage: FIXTURE_VARIANT_ADD(f, name) { .field = value, }; */
#define FIXTURE_VARIANT_ADD(f, v)					\
	static const FIXTURE_VARIANT(f) th_vdata_##f##__##v;		\
	static struct th_variant th_variant_##f##__##v = {		\
		.name = #v, .data = &th_vdata_##f##__##v,		\
		.file = __FILE__, .line = __LINE__,			\
	};								\
	static void __attribute__((constructor)) th_vreg_##f##__##v(void) \
	{								\
		th_add_variant(&th_fixture_##f, &th_variant_##f##__##v); \
	}								\
	static const FIXTURE_VARIANT(f) th_vdata_##f##__##v =

#define TEST_F(f, tn)		th_define_test_f(f, tn, TEST_TIMEOUT_DEFAULT, 0)
#define TEST_F_TIMEOUT(f, tn, secs) th_define_test_f(f, tn, secs, 0)
#define TEST_F_SIGNAL(f, tn, signo)					\
	th_define_test_f(f, tn, TEST_TIMEOUT_DEFAULT, signo)

#define th_define_test_f(f, tn, secs, signo)				\
	_Static_assert((secs) > 0, #f "." #tn ": timeout must be positive"); \
	static void th_fbody_##f##__##tn(struct th_metadata *_metadata,	\
					 FIXTURE_DATA(f) *self,		\
					 const FIXTURE_VARIANT(f) *variant); \
	static void th_fthunk_##f##__##tn(struct th_metadata *m, void *self, \
					  const void *variant)		\
	{								\
		th_fbody_##f##__##tn(m, self, variant);			\
	}								\
	static struct th_test th_ftest_##f##__##tn = {			\
		.name = #tn, .file = __FILE__, .line = __LINE__,	\
		.fixture = &th_fixture_##f,				\
		.self_size = sizeof(FIXTURE_DATA(f)),			\
		.fn = th_fthunk_##f##__##tn,				\
		.timeout = (secs), .signal = (signo),			\
	};								\
	static void __attribute__((constructor)) th_freg_##f##__##tn(void) \
	{								\
		th_register(&th_ftest_##f##__##tn);			\
	}								\
	static void th_fbody_##f##__##tn(struct th_metadata TH_UNUSED *_metadata, \
					 FIXTURE_DATA(f) TH_UNUSED *self, \
					 const FIXTURE_VARIANT(f) TH_UNUSED *variant)

/* ---- logging, skipping, ending ----------------------------------------- */

static inline pid_t th_gettid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

/* Every output line of a message gets the "# " prefix, or TAP breaks. */
static inline void __attribute__((format(printf, 4, 5)))
th_log(const struct th_metadata *m, const char *file, int line,
       const char *fmt, ...)
{
	const char *base = strrchr(file, '/');
	char buf[1024], *s = buf, *nl;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	flockfile(stdout);
	for (;; s = nl + 1) {
		nl = strchr(s, '\n');
		if (nl)
			*nl = '\0';
		printf("# %s:%d:%s: %s\n", base ? base + 1 : file, line, m->name, s);
		if (!nl || !nl[1])
			break;
	}
	funlockfile(stdout);
	fflush(stdout);
}

#define TH_LOG(fmt, ...) th_log(_metadata, __FILE__, __LINE__, fmt, ##__VA_ARGS__)

static inline void __attribute__((format(printf, 2, 3)))
th_skip(struct th_metadata *m, const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	vsnprintf(m->skip_reason, sizeof(m->skip_reason), fmt, ap);
	va_end(ap);
	for (p = m->skip_reason; *p; p++)
		if (*p == '\n')
			*p = ' ';
	m->skipped = true;
}

/* Records the skip, then runs `statement` (usually `return`). */
#define SKIP(statement, fmt, ...)					\
	do {								\
		th_skip(_metadata, fmt, ##__VA_ARGS__);			\
		statement;						\
	} while (0)

static inline void __attribute__((noreturn)) th_child_exit(struct th_metadata *m)
{
	m->finished = true;
	fflush(NULL);
	_exit(0);
}

/* After a failed check: EXPECT goes on; ASSERT unwinds or exits. */
static inline void th_finish(struct th_metadata *m, bool fatal)
{
	if (!fatal)
		return;
	if (th_gettid() != m->tid) {
		fflush(NULL);
		_exit(KSFT_FAIL);
	}
	if (m->phase == TH_BODY)
		longjmp(m->env, 1);
	th_child_exit(m);
}

/*
 * The for loop runs its body (an optional trailing TH_LOG or block) only
 * when the check failed, then ends the test if the check was fatal.  It is
 * a single statement, so it nests safely inside if/else.
 */
#define th_guard(fatal, failed)						\
	for (int th_fail_ = (failed); th_fail_;				\
	     th_fail_ = 0, th_finish(_metadata, (fatal)))

/* ---- value checks ------------------------------------------------------ */

struct th_val {
	uintmax_t bits;
	bool is_signed;
};

/* _Generic does not evaluate its operand, so th_val(x) evaluates x once. */
#define th_is_signed(x) _Generic((x),					\
	char: CHAR_MIN < 0, signed char: 1, short: 1, int: 1, long: 1,	\
	long long: 1, default: 0)
#define th_val(x) ((struct th_val){ (uintmax_t)(x), th_is_signed(x) })

enum th_op { TH_EQ, TH_NE, TH_LT, TH_LE, TH_GT, TH_GE };

static inline int th_cmp3(struct th_val a, struct th_val b)
{
	bool aneg = a.is_signed && (intmax_t)a.bits < 0;
	bool bneg = b.is_signed && (intmax_t)b.bits < 0;

	if (aneg != bneg)
		return aneg ? -1 : 1;
	/* Same sign: the two's complement patterns order like the values. */
	return (a.bits > b.bits) - (a.bits < b.bits);
}

static inline const char *th_fmt(char *buf, size_t len, struct th_val v)
{
	if (v.is_signed)
		snprintf(buf, len, "%jd", (intmax_t)v.bits);
	else if (v.bits > 0xffff)
		snprintf(buf, len, "%ju (0x%jx)", v.bits, v.bits);
	else
		snprintf(buf, len, "%ju", v.bits);
	return buf;
}

/* Each returns true, having recorded and reported it, when the check failed. */
static inline bool th_check_cmp(struct th_metadata *m, const char *file, int line,
				const char *call, enum th_op op, struct th_val a,
				struct th_val b, bool unary)
{
	static const bool want[][3] = {		/* by op, then by cmp3 + 1 */
		[TH_EQ] = { 0, 1, 0 }, [TH_NE] = { 1, 0, 1 },
		[TH_LT] = { 1, 0, 0 }, [TH_LE] = { 1, 1, 0 },
		[TH_GT] = { 0, 0, 1 }, [TH_GE] = { 0, 1, 1 },
	};
	char av[64], bv[64];

	if (want[op][th_cmp3(a, b) + 1])
		return false;
	m->failed = true;
	if (unary)
		th_log(m, file, line, "%s failed: value %s", call,
		       th_fmt(av, sizeof(av), a));
	else
		th_log(m, file, line, "%s failed: %s vs %s", call,
		       th_fmt(av, sizeof(av), a), th_fmt(bv, sizeof(bv), b));
	return true;
}

static inline bool th_check_str(struct th_metadata *m, const char *file, int line,
				const char *call, bool want_equal, const char *a,
				const char *b)
{
	bool equal = a && b ? strcmp(a, b) == 0 : a == b;

	if (equal == want_equal)
		return false;
	m->failed = true;
	th_log(m, file, line, "%s failed: %s%s%s vs %s%s%s", call,
	       a ? "\"" : "", a ? a : "NULL", a ? "\"" : "",
	       b ? "\"" : "", b ? b : "NULL", b ? "\"" : "");
	return true;
}

static inline bool th_check_errno(struct th_metadata *m, const char *file, int line,
				  const char *call, int want, intmax_t ret, int got)
{
	if (ret == -1 && got == want)
		return false;
	m->failed = true;
	th_log(m, file, line,
	       "%s failed: returned %jd, errno %d (%s); wanted -1, errno %d (%s)",
	       call, ret, got, strerror(got), want, strerror(want));
	return true;
}

/* Public macros stringify their own arguments, so NULL stays "NULL". */
#define th_cmp(fatal, call, a, op, b)					\
	th_guard(fatal, th_check_cmp(_metadata, __FILE__, __LINE__, call, op, \
				     th_val(a), th_val(b), false))
#define th_cmp0(fatal, call, x, op)					\
	th_guard(fatal, th_check_cmp(_metadata, __FILE__, __LINE__, call, op, \
				     th_val(x), th_val(0), true))
#define th_str(fatal, call, a, b, eq)					\
	th_guard(fatal, th_check_str(_metadata, __FILE__, __LINE__, call, eq, \
				     (a), (b)))
/* Separate declarators are sequenced, so errno is read right after expr. */
#define th_errno(fatal, call, e, expr)					\
	for (intmax_t th_ret_ = (errno = 0, (intmax_t)(expr)),		\
	     th_err_ = errno,						\
	     th_fail_ = th_check_errno(_metadata, __FILE__, __LINE__, call, \
				       (e), th_ret_, (int)th_err_);	\
	     th_fail_; th_fail_ = 0, th_finish(_metadata, (fatal)))

#define ASSERT_EQ(a, b)	th_cmp(true, "ASSERT_EQ(" #a ", " #b ")", a, TH_EQ, b)
#define ASSERT_NE(a, b)	th_cmp(true, "ASSERT_NE(" #a ", " #b ")", a, TH_NE, b)
#define ASSERT_LT(a, b)	th_cmp(true, "ASSERT_LT(" #a ", " #b ")", a, TH_LT, b)
#define ASSERT_LE(a, b)	th_cmp(true, "ASSERT_LE(" #a ", " #b ")", a, TH_LE, b)
#define ASSERT_GT(a, b)	th_cmp(true, "ASSERT_GT(" #a ", " #b ")", a, TH_GT, b)
#define ASSERT_GE(a, b)	th_cmp(true, "ASSERT_GE(" #a ", " #b ")", a, TH_GE, b)
#define ASSERT_NULL(x)	th_cmp0(true, "ASSERT_NULL(" #x ")", x, TH_EQ)
#define ASSERT_NONNULL(x) th_cmp0(true, "ASSERT_NONNULL(" #x ")", x, TH_NE)
#define ASSERT_TRUE(x)	th_cmp0(true, "ASSERT_TRUE(" #x ")", x, TH_NE)
#define ASSERT_FALSE(x)	th_cmp0(true, "ASSERT_FALSE(" #x ")", x, TH_EQ)
#define ASSERT_STREQ(a, b) th_str(true, "ASSERT_STREQ(" #a ", " #b ")", a, b, true)
#define ASSERT_STRNE(a, b) th_str(true, "ASSERT_STRNE(" #a ", " #b ")", a, b, false)
#define ASSERT_ERRNO(e, x) th_errno(true, "ASSERT_ERRNO(" #e ", " #x ")", e, x)

#define EXPECT_EQ(a, b)	th_cmp(false, "EXPECT_EQ(" #a ", " #b ")", a, TH_EQ, b)
#define EXPECT_NE(a, b)	th_cmp(false, "EXPECT_NE(" #a ", " #b ")", a, TH_NE, b)
#define EXPECT_LT(a, b)	th_cmp(false, "EXPECT_LT(" #a ", " #b ")", a, TH_LT, b)
#define EXPECT_LE(a, b)	th_cmp(false, "EXPECT_LE(" #a ", " #b ")", a, TH_LE, b)
#define EXPECT_GT(a, b)	th_cmp(false, "EXPECT_GT(" #a ", " #b ")", a, TH_GT, b)
#define EXPECT_GE(a, b)	th_cmp(false, "EXPECT_GE(" #a ", " #b ")", a, TH_GE, b)
#define EXPECT_NULL(x)	th_cmp0(false, "EXPECT_NULL(" #x ")", x, TH_EQ)
#define EXPECT_NONNULL(x) th_cmp0(false, "EXPECT_NONNULL(" #x ")", x, TH_NE)
#define EXPECT_TRUE(x)	th_cmp0(false, "EXPECT_TRUE(" #x ")", x, TH_NE)
#define EXPECT_FALSE(x)	th_cmp0(false, "EXPECT_FALSE(" #x ")", x, TH_EQ)
#define EXPECT_STREQ(a, b) th_str(false, "EXPECT_STREQ(" #a ", " #b ")", a, b, true)
#define EXPECT_STRNE(a, b) th_str(false, "EXPECT_STRNE(" #a ", " #b ")", a, b, false)
#define EXPECT_ERRNO(e, x) th_errno(false, "EXPECT_ERRNO(" #e ", " #x ")", e, x)

/* ---- running one test -------------------------------------------------- */

enum th_result { TH_PASS, TH_FAIL, TH_SKIPPED, TH_TIMEOUT };

/*
 * With VNPU_MAKE_IT_FAIL set, the test's own process is the one the
 * kernel's fault injection (failslab, fail_page_alloc and the module's
 * points, with task-filter on) picks: tests/guest/alloc-failures.sh.
 */
static inline void th_make_it_fail(void)
{
	FILE *f;

	if (!getenv("VNPU_MAKE_IT_FAIL"))
		return;
	f = fopen("/proc/self/make-it-fail", "w");
	if (f) {
		fputs("1\n", f);
		fclose(f);
	}
}

static inline void th_run_child(const struct th_test *test, const struct th_variant *v,
				struct th_metadata *m)
{
	/* volatile: read again after a failed ASSERT longjmps back here */
	const struct th_test *volatile t = test;
	const void *volatile vdata = v ? v->data : NULL;
	void *volatile self = test->fixture ? calloc(1, test->self_size) : NULL;

	m->tid = th_gettid();
	th_make_it_fail();
	if (t->fixture && !self) {
		m->failed = true;
		th_log(m, __FILE__, __LINE__, "out of memory for the fixture");
		return;
	}
	if (setjmp(m->env) == 0) {
		if (t->fixture) {
			m->phase = TH_SETUP;
			t->fixture->setup(m, self, vdata);
		}
		m->phase = TH_BODY;
		if (!m->failed && !m->skipped)
			t->fn(m, self, vdata);
	}
	if (th_gettid() != m->tid)
		_exit(0);	/* a process the test forked returned: not ours */
	if (t->fixture) {
		m->phase = TH_TEARDOWN;
		t->fixture->teardown(m, self, vdata);
	}
	free(self);
}

static inline double th_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* SIGCHLD is blocked in the parent, so sigtimedwait cannot miss an exit. */
static inline bool th_wait(pid_t pid, double secs, int *status)
{
	double deadline = th_now() + secs, left;
	struct timespec ts;
	sigset_t chld;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid)
			return true;
		if (r < 0 && errno != EINTR) {
			printf("# waitpid: %s\n", strerror(errno));
			break;
		}
		left = deadline - th_now();
		if (left <= 0)
			break;
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
		sigtimedwait(&chld, NULL, &ts);
	}
	kill(pid, SIGKILL);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
	return false;
}

static inline const char *th_signame(int sig)
{
#define TH_SIG(s) { s, #s }
	static const struct { int sig; const char *name; } names[] = {
		TH_SIG(SIGHUP), TH_SIG(SIGINT), TH_SIG(SIGQUIT), TH_SIG(SIGILL),
		TH_SIG(SIGTRAP), TH_SIG(SIGABRT), TH_SIG(SIGBUS), TH_SIG(SIGFPE),
		TH_SIG(SIGKILL), TH_SIG(SIGUSR1), TH_SIG(SIGSEGV), TH_SIG(SIGUSR2),
		TH_SIG(SIGPIPE), TH_SIG(SIGALRM), TH_SIG(SIGTERM), TH_SIG(SIGSYS),
	};
#undef TH_SIG
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].sig == sig)
			return names[i].name;
	return "an unnamed signal";
}

static inline enum th_result th_run(const struct th_test *t, const struct th_variant *v,
				    struct th_metadata *m, double scale,
				    const sigset_t *child_mask)
{
	double secs = t->timeout * scale;
	int status = 0;
	pid_t pid;

	printf("# RUN %s ...\n", m->name);
	fflush(NULL);	/* or the child inherits and repeats buffered output */
	pid = fork();
	if (pid < 0) {
		printf("# %s: fork: %s\n", m->name, strerror(errno));
		return TH_FAIL;
	}
	if (pid == 0) {
		sigprocmask(SIG_SETMASK, child_mask, NULL);
		th_run_child(t, v, m);
		th_child_exit(m);
	}
	if (!th_wait(pid, secs, &status)) {
		printf("# TIMEOUT %s: no result after %.1f s (%d s x scale %g), killed\n",
		       m->name, secs, t->timeout, scale);
		return TH_TIMEOUT;
	}
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);

		if (sig == t->signal && !m->failed)
			return TH_PASS;
		printf("# %s: terminated by %s (signal %d)%s%s\n", m->name,
		       th_signame(sig), sig, t->signal ? ", expected " : "",
		       t->signal ? th_signame(t->signal) : "");
		return TH_FAIL;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !m->finished) {
		printf("# %s: exited with status %d before the harness finished it\n",
		       m->name, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		return TH_FAIL;
	}
	if (m->failed)
		return TH_FAIL;
	if (m->skipped)
		return TH_SKIPPED;
	if (t->signal) {
		printf("# %s: returned, but was expected to die by %s\n", m->name,
		       th_signame(t->signal));
		return TH_FAIL;
	}
	return TH_PASS;
}

/* ---- main -------------------------------------------------------------- */

/* One (test, variant) instance at a time, in registry order. */
struct th_iter {
	struct th_test *t;
	struct th_variant *v;
	bool started;
	char name[TH_NAME_MAX];
};

static inline struct th_variant *th_first_variant(const struct th_test *t)
{
	return t && t->fixture ? t->fixture->variants : NULL;
}

static inline bool th_next(struct th_iter *it)
{
	if (!it->started) {
		it->started = true;
		it->t = th_tests;
		it->v = th_first_variant(it->t);
	} else if (it->v && it->v->next) {
		it->v = it->v->next;
	} else {
		it->t = it->t->next;
		it->v = th_first_variant(it->t);
	}
	if (!it->t)
		return false;
	snprintf(it->name, sizeof(it->name), "%s%s%s.%s",
		 it->t->fixture ? it->t->fixture->name : "global",
		 it->v ? "." : "", it->v ? it->v->name : "", it->t->name);
	return true;
}

struct th_filter {
	const char *pattern;
	int hits;
};

/* -t matches the full name, "fixture.test" (all variants) or the bare test name. */
static inline bool th_selected(const struct th_iter *it, struct th_filter *f, int n)
{
	char short_name[TH_NAME_MAX];
	bool any = false;

	if (n == 0)
		return true;
	snprintf(short_name, sizeof(short_name), "%s.%s",
		 it->t->fixture ? it->t->fixture->name : "global", it->t->name);
	for (int i = 0; i < n; i++) {
		if (!strcmp(f[i].pattern, it->name) || !strcmp(f[i].pattern, short_name) ||
		    !strcmp(f[i].pattern, it->t->name)) {
			f[i].hits++;
			any = true;
		}
	}
	return any;
}

static inline void th_usage(FILE *out, const char *prog)
{
	fprintf(out,
		"usage: %s [-h] [-l] [-t NAME]...\n"
		"  -l       list test names and exit\n"
		"  -t NAME  run only NAME: a full name, fixture.test or a test name (repeatable)\n"
		"  -h       show this help\n"
		"env VNPU_TEST_TIMEOUT_SCALE=F multiplies every test timeout by F\n",
		prog);
}

/* An invalid scale is an error: silently using 1.0 would fake timeouts. */
static inline bool th_timeout_scale(double *scale)
{
	const char *env = getenv("VNPU_TEST_TIMEOUT_SCALE");
	char *end;

	*scale = 1.0;
	if (!env || !*env)
		return true;
	*scale = strtod(env, &end);
	if (!*end && *scale > 0 && *scale < 1e6)	/* false for NaN too */
		return true;
	fprintf(stderr, "invalid VNPU_TEST_TIMEOUT_SCALE '%s'\n", env);
	return false;
}

static inline int th_run_all(struct th_filter *f, int nf, int total, double scale)
{
	int pass = 0, fail = 0, skip = 0;
	struct th_iter it = { 0 };
	struct th_metadata *m;
	sigset_t chld, old;

	if (!getenv("KSFT_TAP_LEVEL"))	/* nested under a runner: no header */
		printf("TAP version 13\n");
	if (total == 0) {
		printf("1..0 # SKIP no tests registered\n");
		return KSFT_SKIP;
	}
	printf("1..%d\n", total);
	if (scale != 1.0)
		printf("# timeouts scaled by %g (VNPU_TEST_TIMEOUT_SCALE)\n", scale);
	m = mmap(NULL, sizeof(*m), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED) {
		printf("Bail out! mmap: %s\n", strerror(errno));
		return KSFT_FAIL;
	}
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &old);
	while (th_next(&it)) {
		int n = pass + fail + skip + 1;
		enum th_result r;

		if (!th_selected(&it, f, nf))
			continue;
		memset(m, 0, sizeof(*m));
		m->name = it.name;
		r = th_run(it.t, it.v, m, scale, &old);
		if (r == TH_PASS) {
			pass++;
			printf("ok %d %s\n", n, it.name);
		} else if (r == TH_SKIPPED) {
			skip++;
			printf("ok %d %s # SKIP %s\n", n, it.name, m->skip_reason);
		} else {
			fail++;
			printf("not ok %d %s%s\n", n, it.name, r == TH_TIMEOUT ? " # TIMEOUT" : "");
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	munmap(m, sizeof(*m));
	printf("# %s: %d / %d tests passed.\n", fail ? "FAILED" : "PASSED", pass, total);
	printf("# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:%d error:0\n", pass, fail, skip);
	return fail ? KSFT_FAIL : pass ? KSFT_PASS : KSFT_SKIP;
}

static inline int th_main(int argc, char **argv)
{
	struct th_filter *filters = calloc((size_t)argc, sizeof(*filters));
	int nfilters = 0, total = 0, opt, ret = KSFT_FAIL;
	struct th_iter it = { 0 };
	bool list = false;
	double scale;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!filters) {
		perror("calloc");
		return KSFT_FAIL;
	}
	while ((opt = getopt(argc, argv, "hlt:")) != -1) {
		if (opt == 'l') {
			list = true;
		} else if (opt == 't') {
			filters[nfilters++].pattern = optarg;
		} else {
			th_usage(opt == 'h' ? stdout : stderr, argv[0]);
			ret = opt == 'h' ? KSFT_PASS : KSFT_FAIL;
			goto out;
		}
	}
	if (optind < argc) {
		th_usage(stderr, argv[0]);
		goto out;
	}
	if (!th_timeout_scale(&scale))
		goto out;
	while (th_next(&it))
		total += th_selected(&it, filters, nfilters);
	for (int i = 0; i < nfilters; i++) {
		if (!filters[i].hits) {	/* a typo must not look like a pass */
			fprintf(stderr, "no test matches '%s' (see -l)\n", filters[i].pattern);
			goto out;
		}
	}
	if (list) {
		for (it.started = false; th_next(&it);)
			if (th_selected(&it, filters, nfilters))
				printf("%s\n", it.name);
		ret = KSFT_PASS;
	} else {
		ret = th_run_all(filters, nfilters, total, scale);
	}
out:
	free(filters);
	fflush(stdout);
	return ret;
}

#define TEST_HARNESS_MAIN						\
	int main(int argc, char **argv)					\
	{								\
		return th_main(argc, argv);				\
	}

#endif /* VNPU_SELFTEST_HARNESS_H */
