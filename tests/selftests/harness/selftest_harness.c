// SPDX-License-Identifier: GPL-2.0
/*
 * Self-test for harness.h.  Many of these tests fail on purpose: each one
 * exercises a way a test can end.  check-harness.sh holds the expected TAP,
 * so keep the two in step when adding a test here.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

/* Appends to the file named by HARNESS_MARKER, so the checker can see it. */
static void marker(const char *what, const char *name)
{
	const char *path = getenv("HARNESS_MARKER");
	FILE *f = path ? fopen(path, "a") : NULL;

	if (f) {
		fprintf(f, "%s %s\n", what, name);
		fclose(f);
	}
}

TEST(pass_all_macros)
{
	const char *s = "vnpu";
	unsigned int u = 3;
	int i = 0;
	enum { NEGATIVE = -2 } e = NEGATIVE;

	/* Each argument is evaluated exactly once. */
	ASSERT_EQ(1, ++i);
	ASSERT_EQ(1, i);
	/* Mixed signedness compares values, where plain C says -1 > 1u. */
	ASSERT_LT(-1, 1u);
	ASSERT_GT(1u, -1);
	ASSERT_NE(-1, UINTMAX_MAX);
	ASSERT_LT(INTMAX_MIN, INTMAX_MAX);
	ASSERT_GT(UINTMAX_MAX, INTMAX_MAX);
	ASSERT_LT(e, 0);
	ASSERT_LE(u, 3);
	ASSERT_GE(u, 3);
	ASSERT_NULL(NULL);
	ASSERT_NONNULL(s);
	ASSERT_NE(MAP_FAILED, s);
	ASSERT_TRUE(u);
	ASSERT_FALSE(i - 1);
	ASSERT_STREQ("vnpu", s);
	ASSERT_STRNE("npu", s);
	ASSERT_STRNE(NULL, s);
	ASSERT_ERRNO(EBADF, close(-1));

	EXPECT_EQ(3, u);
	EXPECT_NE(2, u);
	EXPECT_LT(2, u);
	EXPECT_LE(3, u);
	EXPECT_GT(4, u);
	EXPECT_GE(3, u);
	EXPECT_NULL((void *)0);
	EXPECT_NONNULL(&u);
	EXPECT_TRUE(1);
	EXPECT_FALSE(0);
	EXPECT_STREQ("vnpu", s);
	EXPECT_STRNE("vnpux", s);
	EXPECT_ERRNO(EBADF, close(-1));

	/* A trailing log statement runs only when the check fails. */
	ASSERT_EQ(1, i) TH_LOG("LOG-ON-PASS must never be printed");
	if (i)
		EXPECT_EQ(1, i);
	else
		EXPECT_EQ(0, i);
}

TEST(expect_all_fail)
{
	int two = 2;
	const char *s = "vnpu";

	EXPECT_EQ(1, two) TH_LOG("expect-log %d", 42);
	EXPECT_NE(2, two);
	EXPECT_LT(two, 1);
	EXPECT_LE(two, 1);
	EXPECT_GT(1, two);
	EXPECT_GE(1, two);
	EXPECT_NULL(s);
	EXPECT_NONNULL(NULL);
	EXPECT_TRUE(0);
	EXPECT_FALSE(two);
	EXPECT_STREQ("npu", s);
	EXPECT_STRNE("vnpu", s);
	EXPECT_ERRNO(EBADF, 0);
	EXPECT_LT(1u, -1);
	TH_LOG("reached the end after 14 failed EXPECTs");
}

TEST(assert_stops)
{
	int two = 2;

	ASSERT_EQ(1, two) TH_LOG("assert-log two=%d", two);
	TH_LOG("UNREACHED after a failed ASSERT");
}

TEST(skipped)
{
	SKIP(return, "no device here");
	ASSERT_TRUE(0) TH_LOG("UNREACHED after SKIP");
}

TEST(crash)
{
	long page = sysconf(_SC_PAGESIZE);
	volatile char *p = mmap(NULL, (size_t)page, PROT_NONE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_NE(MAP_FAILED, p);
	p[0] = 1;
}

TEST_SIGNAL(dies_by_signal, SIGABRT)
{
	abort();
}

TEST_SIGNAL(signal_missing, SIGABRT)
{
}

TEST_TIMEOUT(timeout, 1)
{
	sleep(5);
	TH_LOG("UNREACHED after the timeout");
}

TEST(errno_wrong)
{
	EXPECT_ERRNO(EINVAL, close(-1));
}

TEST(errno_no_failure)
{
	ASSERT_ERRNO(ENOENT, access("/", F_OK));
	TH_LOG("UNREACHED after a failed ASSERT_ERRNO");
}

TEST(exits_early)
{
	exit(0);
}

TEST(assert_in_forked_child)
{
	int status;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (pid == 0) {
		ASSERT_EQ(0, 1) TH_LOG("helper process fails");
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(KSFT_FAIL, WEXITSTATUS(status));
	TH_LOG("test process continues after its helper failed");
}

FIXTURE(fx) {
	int value;
};

FIXTURE_VARIANT(fx) {
	int value;
};

FIXTURE_VARIANT_ADD(fx, one) {
	.value = 1,
};

FIXTURE_VARIANT_ADD(fx, two) {
	.value = 2,
};

FIXTURE_SETUP(fx)
{
	ASSERT_NONNULL(variant);
	self->value = variant->value;
}

FIXTURE_TEARDOWN(fx)
{
	TH_LOG("teardown ran for %s", _metadata->name);
	marker("teardown", _metadata->name);
}

TEST_F(fx, passes)
{
	ASSERT_EQ(variant->value, self->value);
	ASSERT_LE(1, self->value);
}

TEST_F(fx, assert_then_teardown)
{
	ASSERT_EQ(0, self->value);
}

FIXTURE(plain) {
	int fd;
};

FIXTURE_SETUP(plain)
{
	ASSERT_EQ(0, self->fd);		/* self starts zeroed */
	self->fd = open("/dev/null", O_RDONLY);
	ASSERT_LE(0, self->fd) TH_LOG("open: %s", strerror(errno));
}

FIXTURE_TEARDOWN(plain)
{
	marker("teardown", _metadata->name);
	EXPECT_EQ(0, close(self->fd));
}

TEST_F(plain, no_variant)
{
	ASSERT_NULL(variant);
	/* read-only fd: a realistic "-1 and errno" call */
	ASSERT_ERRNO(EBADF, write(self->fd, "x", 1));
}

TEST_F_TIMEOUT(plain, custom_timeout, 2)
{
	ASSERT_LE(0, self->fd);
}

TEST_F_SIGNAL(plain, dies, SIGABRT)
{
	abort();
}

FIXTURE(setup_asserts) {
	int unused;
};

FIXTURE_SETUP(setup_asserts)
{
	ASSERT_EQ(0, 1);
}

FIXTURE_TEARDOWN(setup_asserts)
{
	marker("teardown", _metadata->name);
}

TEST_F(setup_asserts, body)
{
	marker("body", _metadata->name);
}

FIXTURE(setup_skips) {
	int unused;
};

FIXTURE_SETUP(setup_skips)
{
	SKIP(return, "setup skips");
}

FIXTURE_TEARDOWN(setup_skips)
{
	marker("teardown", _metadata->name);
}

TEST_F(setup_skips, body)
{
	marker("body", _metadata->name);
}

FIXTURE(teardown_asserts) {
	int unused;
};

FIXTURE_SETUP(teardown_asserts)
{
}

FIXTURE_TEARDOWN(teardown_asserts)
{
	ASSERT_EQ(0, 1);
	marker("UNREACHED", _metadata->name);
}

TEST_F(teardown_asserts, body)
{
	marker("body", _metadata->name);
}

TEST_HARNESS_MAIN
