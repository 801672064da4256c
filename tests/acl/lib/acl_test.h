/* SPDX-License-Identifier: MIT */
/*
 * acl_test.h - helpers of the ACL conformance suites (tests/acl/test_*.c).
 *
 * Each test runs in its own forked process (Check's default), with a
 * checked fixture, so every test starts from an uninitialised library.
 */
#ifndef VNPU_ACL_TEST_H
#define VNPU_ACL_TEST_H

#include <check.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"

/* The message of the last failure of this thread, or a placeholder. */
const char *acl_test_msg(void);

#define ACL_OK(call)                                                                               \
	do {                                                                                       \
		aclError r_ = (call);                                                              \
		ck_assert_msg(r_ == ACL_SUCCESS, "%s = %d (%s)", #call, r_, acl_test_msg());       \
	} while (0)

/* The call fails with exactly @code and leaves a message. */
#define ACL_ERR(code, call)                                                                        \
	do {                                                                                       \
		aclError r_ = (call);                                                              \
		const char *m_ = aclGetRecentErrMsg();                                             \
		ck_assert_msg(r_ == (aclError)(code), "%s = %d, expected %d (%s)", #call, r_,      \
			      (int)(code), m_ ? m_ : "no message");                                \
		ck_assert_msg(m_ && *m_, "%s failed without a message", #call);                    \
	} while (0)

/* A test case whose tests each get aclInit(NULL) + aclrtSetDevice(0)
 * (@with_device) or nothing, and a timeout of @seconds (scaled by
 * VNPU_TEST_TIMEOUT_SCALE). */
TCase *acl_tcase(const char *name, bool with_device, int seconds);
void acl_fixture_setup(void);
void acl_fixture_teardown(void);

/* Run @s with TAP on stdout; the exit status for main(). */
int acl_test_run(Suite *s);

/* Module parameters. */
bool acl_test_param(const char *name, unsigned long *value);
bool acl_test_set_param(const char *name, unsigned long value);

/* Device memory in use on the current device (total - free). */
size_t acl_test_mem_used(void);

/* Deterministic byte patterns. */
void acl_test_fill(void *buf, size_t n, unsigned int seed);
/* Offset of the first byte that differs from the pattern, or -1. */
long acl_test_check(const void *buf, size_t n, unsigned int seed);

/* Device memory of @size bytes filled with pattern @seed. */
void *acl_test_device_pattern(size_t size, unsigned int seed);

/*
 * A gate holds back a stream: gate_block() queues a wait for the gate's
 * device word to reach a value, gate_open() writes it from the gate's own
 * stream. (A wait longer than the device's job timeout fails the stream.)
 */
struct acl_gate {
	void *word;
	aclrtStream opener;
};

void acl_gate_init(struct acl_gate *g);
void acl_gate_block(struct acl_gate *g, aclrtStream s, uint64_t value);
void acl_gate_open(struct acl_gate *g, uint64_t value);
void acl_gate_fini(struct acl_gate *g);

/* Monotonic time in ns. */
uint64_t acl_test_now_ns(void);
void acl_test_sleep_ms(unsigned int ms);

/* A temporary file holding @text (an aclInit configuration); its path, valid
 * until the next call. */
char *acl_test_write_config(const char *text);

#endif /* VNPU_ACL_TEST_H */
