// SPDX-License-Identifier: MIT
/*
 * acl_test.c - helpers of the ACL conformance suites.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "acl_test.h"

const char *acl_test_msg(void)
{
	const char *m = aclGetRecentErrMsg();

	return m ? m : "no message";
}

void acl_fixture_setup(void)
{
	ACL_OK(aclInit(NULL));
	ACL_OK(aclrtSetDevice(0));
}

void acl_fixture_teardown(void)
{
	ACL_OK(aclrtResetDevice(0));
	ACL_OK(aclFinalize());
}

TCase *acl_tcase(const char *name, bool with_device, int seconds)
{
	const char *scale = getenv("VNPU_TEST_TIMEOUT_SCALE");
	TCase *tc = tcase_create(name);
	int factor = scale ? atoi(scale) : 1;

	if (factor < 1)
		factor = 1;
	if (with_device)
		tcase_add_checked_fixture(tc, acl_fixture_setup, acl_fixture_teardown);
	tcase_set_timeout(tc, (double)seconds * factor);
	return tc;
}

int acl_test_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	if (!getenv("CK_TAP_LOG_FILE_NAME"))
		srunner_set_tap(sr, "-");
	srunner_run_all(sr, CK_SILENT);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

bool acl_test_param(const char *name, unsigned long *value)
{
	char path[128];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "/sys/module/vnpu/parameters/%s", name);
	f = fopen(path, "r");
	if (!f)
		return false;
	ok = fscanf(f, "%lu", value) == 1;
	fclose(f);
	return ok;
}

bool acl_test_set_param(const char *name, unsigned long value)
{
	char path[128];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "/sys/module/vnpu/parameters/%s", name);
	f = fopen(path, "w");
	if (!f)
		return false;
	ok = fprintf(f, "%lu", value) > 0;
	return fclose(f) == 0 && ok;
}

size_t acl_test_mem_used(void)
{
	size_t free_bytes = 0, total = 0;

	ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total));
	return total - free_bytes;
}

static unsigned char pattern_byte(size_t i, unsigned int seed)
{
	uint32_t x = (uint32_t)i * 2654435761u ^ seed * 40503u;

	return (unsigned char)(x >> 13 ^ x >> 5 ^ seed);
}

void acl_test_fill(void *buf, size_t n, unsigned int seed)
{
	unsigned char *p = buf;
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = pattern_byte(i, seed);
}

long acl_test_check(const void *buf, size_t n, unsigned int seed)
{
	const unsigned char *p = buf;
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != pattern_byte(i, seed))
			return (long)i;
	return -1;
}

void *acl_test_device_pattern(size_t size, unsigned int seed)
{
	void *host = malloc(size), *dev = NULL;

	ck_assert_ptr_nonnull(host);
	acl_test_fill(host, size, seed);
	ACL_OK(aclrtMalloc(&dev, size, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtMemcpy(dev, size, host, size, ACL_MEMCPY_HOST_TO_DEVICE));
	free(host);
	return dev;
}

uint64_t acl_test_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void acl_test_sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

void acl_gate_init(struct acl_gate *g)
{
	ACL_OK(aclrtMalloc(&g->word, 8, ACL_MEM_MALLOC_NORMAL_ONLY));
	ACL_OK(aclrtMemset(g->word, 8, 0, 8));
	ACL_OK(aclrtCreateStream(&g->opener));
}

void acl_gate_block(struct acl_gate *g, aclrtStream s, uint64_t value)
{
	ACL_OK(aclrtValueWait(g->word, value, ACL_VALUE_WAIT_GEQ, s));
}

void acl_gate_open(struct acl_gate *g, uint64_t value)
{
	ACL_OK(aclrtValueWrite(g->word, value, 0, g->opener));
	ACL_OK(aclrtSynchronizeStream(g->opener));
}

void acl_gate_fini(struct acl_gate *g)
{
	ACL_OK(aclrtDestroyStream(g->opener));
	ACL_OK(aclrtFree(g->word));
}

char *acl_test_write_config(const char *text)
{
	static char path[64];
	int fd;

	strcpy(path, "/tmp/acl-config-XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}
