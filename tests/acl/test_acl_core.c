// SPDX-License-Identifier: MIT
/*
 * ACL conformance: initialisation, error reporting, versions, devices and
 * contexts.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl_optest.h"
#include "acl_test.h"

/* ---- aclInit / aclFinalize ------------------------------------------------ */

START_TEST(init_null_and_finalize)
{
	ACL_OK(aclInit(NULL));
	ACL_OK(aclFinalize());
}
END_TEST

START_TEST(init_twice_gives_repeat_initialize)
{
	ACL_OK(aclInit(NULL));
	ACL_ERR(ACL_ERROR_REPEAT_INITIALIZE, aclInit(NULL));
	ACL_ERR(ACL_ERROR_REPEAT_INITIALIZE, aclInit(NULL));
	/* One aclFinalize undoes all of them. */
	ACL_OK(aclFinalize());
	ACL_ERR(ACL_ERROR_REPEAT_FINALIZE, aclFinalize());
}
END_TEST

START_TEST(finalize_without_init_gives_repeat_finalize)
{
	uint64_t refs = 99;

	ACL_ERR(ACL_ERROR_REPEAT_FINALIZE, aclFinalize());
	ACL_ERR(ACL_ERROR_REPEAT_FINALIZE, aclFinalizeReference(&refs));
	ck_assert_uint_eq(refs, 0);
}
END_TEST

START_TEST(finalize_reference_counts_down)
{
	uint64_t refs = 0;
	int32_t dev;

	ACL_OK(aclInit(NULL));
	ACL_ERR(ACL_ERROR_REPEAT_INITIALIZE, aclInit(NULL));
	ACL_ERR(ACL_ERROR_REPEAT_INITIALIZE, aclInit(NULL));
	ACL_OK(aclrtSetDevice(0));
	ACL_OK(aclFinalizeReference(&refs));
	ck_assert_uint_eq(refs, 2);
	ACL_OK(aclFinalizeReference(&refs));
	ck_assert_uint_eq(refs, 1);
	/* Not torn down yet: the device is still set. */
	ACL_OK(aclrtGetDevice(&dev));
	ACL_OK(aclFinalizeReference(NULL));
	ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&dev));
	ACL_ERR(ACL_ERROR_REPEAT_FINALIZE, aclFinalizeReference(&refs));
	ck_assert_uint_eq(refs, 0);
}
END_TEST

START_TEST(finalize_releases_devices)
{
	void *p;
	int32_t dev;

	ACL_OK(aclInit(NULL));
	ACL_OK(aclrtSetDevice(0));
	ACL_OK(aclrtMalloc(&p, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
	ck_assert_uint_ge(acl_test_mem_used(), 1 << 20);
	ACL_OK(aclFinalize());
	ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&dev));
	ACL_OK(aclInit(NULL));
	ACL_OK(aclrtSetDevice(0));
	ck_assert_uint_eq(acl_test_mem_used(), 0);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtFree(p));
	ACL_OK(aclFinalize());
}
END_TEST

START_TEST(init_with_config_files)
{
	ACL_OK(aclInit(acl_test_write_config("{}")));
	ACL_OK(aclFinalize());
	/* The same text again after a finalisation is fine. */
	ACL_OK(aclInit(acl_test_write_config("{}")));
	ACL_OK(aclFinalize());
}
END_TEST

START_TEST(init_with_cann_style_config)
{
	ACL_OK(aclInit(acl_test_write_config("{\n  \"dump\": {\"dump_list\": [{\"model_name\": \"m\"}], \"dump_path\": "
				    "\"/tmp\"},\n  \"err_msg_mode\": \"0\",\n  \"vnpu\": {\"hazard_policy\": "
				    "\"strict\"}\n}\n")));
	ACL_OK(aclFinalize());
}
END_TEST

START_TEST(init_missing_file_gives_invalid_file)
{
	ACL_ERR(ACL_ERROR_INVALID_FILE, aclInit("/nonexistent/acl.json"));
	/* Nothing was initialised. */
	ACL_ERR(ACL_ERROR_REPEAT_FINALIZE, aclFinalize());
	ACL_ERR(ACL_ERROR_INVALID_FILE, aclInit("/tmp"));
}
END_TEST

START_TEST(init_malformed_json_gives_parse_file)
{
	ACL_ERR(ACL_ERROR_PARSE_FILE, aclInit(acl_test_write_config("{\"dump\": ")));
	ACL_ERR(ACL_ERROR_PARSE_FILE, aclInit(acl_test_write_config("")));
	ACL_ERR(ACL_ERROR_PARSE_FILE, aclInit(acl_test_write_config("[1, 2]")));
	ACL_ERR(ACL_ERROR_PARSE_FILE, aclInit(acl_test_write_config("{\"a\": 1,}")));
	ACL_ERR(ACL_ERROR_REPEAT_FINALIZE, aclFinalize());
}
END_TEST

START_TEST(init_bad_vnpu_option_gives_file_attr_invalid)
{
	ACL_ERR(ACL_ERROR_FILE_ATTR_INVALID, aclInit(acl_test_write_config("{\"vnpu\": {\"hazard_policy\": \"lax\"}}")));
	ACL_ERR(ACL_ERROR_FILE_ATTR_INVALID, aclInit(acl_test_write_config("{\"vnpu\": 3}")));
}
END_TEST

START_TEST(reinit_with_other_config_gives_invalid_param)
{
	ACL_OK(aclInit(NULL));
	ACL_OK(aclFinalize());
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclInit(acl_test_write_config("{\"other\": 1}")));
	ACL_OK(aclInit(NULL));
	ACL_OK(aclFinalize());
}
END_TEST

START_TEST(bad_hazard_policy_environment)
{
	setenv("VNPU_HAZARD_POLICY", "sometimes", 1);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclInit(NULL));
	setenv("VNPU_HAZARD_POLICY", "strict", 1);
	ACL_OK(aclInit(NULL));
	ACL_OK(aclFinalize());
}
END_TEST

START_TEST(bad_hazard_policy_environment_without_acl_init)
{
	aclrtStream s;
	const char *m;

	setenv("VNPU_HAZARD_POLICY", "sometimes", 1);
	ACL_OK(aclrtSetDevice(0));
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_ERROR_INVALID_PARAM);
	m = aclGetRecentErrMsg();
	ck_assert_msg(m && strstr(m, "VNPU_HAZARD_POLICY") && strstr(m, "sometimes"), "message: %s",
		      m ? m : "none");
	/* Read once: changing the environment later changes nothing. */
	setenv("VNPU_HAZARD_POLICY", "strict", 1);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateStream(&s));
	/* aclInit reads it afresh and takes over. */
	ACL_OK(aclInit(NULL));
	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtDestroyStream(s));
	ACL_OK(aclrtResetDevice(0));
	ACL_OK(aclFinalize());
}
END_TEST

/* ---- errors ----------------------------------------------------------------- */

START_TEST(recent_message_is_null_without_error)
{
	ck_assert_ptr_null(aclGetRecentErrMsg());
	ck_assert_int_eq(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
}
END_TEST

START_TEST(recent_message_is_consumed_on_read)
{
	const char *m;

	ck_assert_int_eq(aclrtGetRunMode(NULL), ACL_ERROR_INVALID_PARAM);
	m = aclGetRecentErrMsg();
	ck_assert_ptr_nonnull(m);
	ck_assert_msg(strstr(m, "aclrtGetRunMode") && strstr(m, "runMode"), "message: %s", m);
	ck_assert_ptr_null(aclGetRecentErrMsg());
	/* A success does not make a message. */
	ACL_OK(aclrtGetVersion(&(int32_t){ 0 }, &(int32_t){ 0 }, &(int32_t){ 0 }));
	ck_assert_ptr_null(aclGetRecentErrMsg());
}
END_TEST

START_TEST(recent_message_names_the_problem)
{
	const char *m;

	ACL_OK(aclInit(NULL));
	ACL_OK(aclrtSetDevice(0));
	ck_assert_int_eq(aclrtFree((void *)0x1234), ACL_ERROR_INVALID_PARAM);
	m = aclGetRecentErrMsg();
	ck_assert_msg(m && strstr(m, "aclrtFree") && strstr(m, "0x1234"), "message: %s", m ? m : "none");
	ACL_OK(aclrtResetDevice(0));
	ACL_OK(aclFinalize());
}
END_TEST

START_TEST(last_error_get_clears_peek_keeps)
{
	ck_assert_int_eq(aclrtGetRunMode(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
	/* The message is consumed separately. */
	ck_assert_ptr_nonnull(aclGetRecentErrMsg());
	/* The latest failure wins. */
	ck_assert_int_eq(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtGetRunMode(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_INVALID_PARAM);
}
END_TEST

START_TEST(last_error_bad_level)
{
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetLastError((aclrtLastErrLevel)1));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtPeekAtLastError((aclrtLastErrLevel)-1));
}
END_TEST

static void *fail_in_thread(void *arg)
{
	(void)arg;
	ck_assert_ptr_null(aclGetRecentErrMsg());
	ck_assert_int_eq(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(-5), ACL_ERROR_RT_INVALID_DEVICEID);
	return NULL;
}

START_TEST(errors_are_per_thread)
{
	pthread_t t;
	const char *m;

	ck_assert_int_eq(aclrtGetRunMode(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(pthread_create(&t, NULL, fail_in_thread, NULL), 0);
	pthread_join(t, NULL);
	ck_assert_int_eq(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_INVALID_PARAM);
	m = aclGetRecentErrMsg();
	ck_assert_msg(m && strstr(m, "aclrtGetRunMode"), "message: %s", m ? m : "none");
}
END_TEST

START_TEST(version_soc_and_run_mode)
{
	int32_t major = -1, minor = -1, patch = -1;
	aclrtRunMode mode = ACL_DEVICE;
	const char *soc = aclrtGetSocName();

	ACL_OK(aclrtGetVersion(&major, &minor, &patch));
	ck_assert_int_eq(major, ACL_MAJOR_VERSION);
	ck_assert_int_eq(minor, ACL_MINOR_VERSION);
	ck_assert_int_eq(patch, ACL_PATCH_VERSION);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetVersion(NULL, &minor, &patch));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetVersion(&major, NULL, &patch));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetVersion(&major, &minor, NULL));
	ck_assert_ptr_nonnull(soc);
	ck_assert_str_eq(soc, "vnpu");
	ACL_OK(aclrtGetRunMode(&mode));
	ck_assert_int_eq(mode, ACL_HOST);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetRunMode(NULL));
}
END_TEST

/* Every symbol the library exports is part of the ACL API. */
START_TEST(exports_only_acl_symbols)
{
	char line[512];
	int total = 0, bad = 0;
	FILE *p;

	p = popen("nm -D --defined-only build/lib/libascendcl.so.1", "r");
	ck_assert_ptr_nonnull(p);
	while (fgets(line, sizeof(line), p)) {
		char type, name[400];

		if (sscanf(line, "%*s %c %399s", &type, name) != 2)
			continue;
		if (type == 'A') /* the version node */
			continue;
		total++;
		/* The ACL API, and the runtime's private interface to vnpu's
		 * libraries over it, only under its own version node. */
		if (!strncmp(name, "vnpu_rt_", 8) && strstr(name, "@@VNPU_RT_PRIVATE_1.0"))
			continue;
		if (strncmp(name, "acl", 3)) {
			fprintf(stderr, "exported: %s\n", name);
			bad++;
		}
	}
	ck_assert_int_eq(pclose(p), 0);
	ck_assert_int_gt(total, 50);
	ck_assert_int_eq(bad, 0);
}
END_TEST

/* ---- devices ---------------------------------------------------------------- */

static uint32_t module_devices(void)
{
	unsigned long n = 0;

	ck_assert(acl_test_param("devices", &n));
	return (uint32_t)n;
}

START_TEST(device_count_matches_the_module)
{
	uint32_t count = 0;

	ACL_OK(aclrtGetDeviceCount(&count));
	ck_assert_uint_eq(count, module_devices());
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceCount(NULL));
}
END_TEST

START_TEST(set_device_rejects_bad_ids)
{
	int32_t n = (int32_t)module_devices();

	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtSetDevice(-1));
	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtSetDevice(n));
	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtSetDevice(64));
	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtSetDevice(INT32_MAX));
	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtResetDevice(-1));
	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtResetDevice(n));
	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtResetDeviceForce(n));
}
END_TEST

/*
 * A module of another major ABI (the 1.2 module that executed operators
 * itself, or a later major), or an older minor, is refused with a message
 * naming both versions.
 */
START_TEST(set_device_checks_the_module_abi)
{
	const uint64_t wrong[] = {
		(uint64_t)(VNPU_ABI_MAJOR - 1) << 16 | 2,
		(uint64_t)(VNPU_ABI_MAJOR + 1) << 16 | VNPU_ABI_MINOR,
#if VNPU_ABI_MINOR > 0
		(uint64_t)VNPU_ABI_MAJOR << 16 | (VNPU_ABI_MINOR - 1),
#endif
	};
	char mine[32], theirs[32];
	const char *msg;

	snprintf(mine, sizeof(mine), "needs %u.%u", VNPU_ABI_MAJOR, VNPU_ABI_MINOR);
	for (unsigned int i = 0; i < sizeof(wrong) / sizeof(wrong[0]); i++) {
		ioctl_fake_abi_version(wrong[i]);
		ck_assert_int_eq(ACL_ERROR_RT_DRV_INTERNAL_ERROR, aclrtSetDevice(0));
		msg = aclGetRecentErrMsg();
		ck_assert_ptr_nonnull(msg);
		snprintf(theirs, sizeof(theirs), "speaks ABI %u.%u", (unsigned int)(wrong[i] >> 16),
			 (unsigned int)(wrong[i] & 0xffff));
		ck_assert_msg(strstr(msg, theirs) && strstr(msg, mine), "message \"%s\" lacks \"%s\" or \"%s\"", msg,
			      theirs, mine);
	}
	/* A later minor of the same major is fine. */
	ioctl_fake_abi_version((uint64_t)VNPU_ABI_MAJOR << 16 | (VNPU_ABI_MINOR + 1));
	ACL_OK(aclrtSetDevice(0));
	ACL_OK(aclrtResetDevice(0));
	ioctl_fake_abi_version(0);
	ACL_OK(aclrtSetDevice(0));
	ACL_OK(aclrtResetDevice(0));
}
END_TEST

/*
 * Without an engine server the device can run nothing: opening it is
 * refused at once with a message that says how to start the server;
 * counting devices needs no server. (GET_PARAM's answer is faked: the
 * guest's server stays up for the other tests.)
 */
START_TEST(set_device_needs_an_engine_server)
{
	aclrtContext ctx;
	uint32_t n = 0;
	int32_t dev;
	const char *msg;

	ioctl_fake_engine_attached(0);
	ACL_OK(aclrtGetDeviceCount(&n));
	ck_assert_uint_ge(n, 1);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_ERROR_RT_DEV_SETUP_ERROR);
	msg = aclGetRecentErrMsg();
	ck_assert_ptr_nonnull(msg);
	ck_assert_msg(strstr(msg, "vnpu device 0 has no engine server: start vnpu-engined") &&
			      strstr(msg, "vnpu-modload engine-start") && strstr(msg, "systemctl start vnpu-engined"),
		      "%s", msg);
	ck_assert_int_eq(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_DEV_SETUP_ERROR);
	/* Nothing was opened: no context, and explicit contexts fail alike. */
	ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&dev));
	ACL_ERR(ACL_ERROR_RT_DEV_SETUP_ERROR, aclrtCreateContext(&ctx, 0));
	/* Once a server is attached the device opens. */
	ioctl_fake_engine_attached(-1);
	ACL_OK(aclrtSetDevice(0));
	ACL_OK(aclrtResetDevice(0));
}
END_TEST

START_TEST(get_device_needs_a_context)
{
	int32_t dev;

	ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&dev));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetDevice(NULL));
}
END_TEST

START_TEST(set_get_reset_device)
{
	int32_t dev = -1;

	ACL_OK(aclrtSetDevice(0));
	ACL_OK(aclrtGetDevice(&dev));
	ck_assert_int_eq(dev, 0);
	ACL_OK(aclrtResetDevice(0));
	ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&dev));
	/* Resetting a device that is not set changes nothing. */
	ACL_OK(aclrtResetDevice(0));
}
END_TEST

START_TEST(set_device_is_reference_counted)
{
	aclrtContext c1, c2;
	int32_t dev;

	ACL_OK(aclrtSetDevice(0));
	ACL_OK(aclrtGetCurrentContext(&c1));
	ACL_OK(aclrtSetDevice(0));
	ACL_OK(aclrtGetCurrentContext(&c2));
	ck_assert_ptr_eq(c1, c2);
	ACL_OK(aclrtResetDevice(0));
	ACL_OK(aclrtGetDevice(&dev));
	ACL_OK(aclrtGetCurrentContext(&c2));
	ck_assert_ptr_eq(c1, c2);
	ACL_OK(aclrtResetDevice(0));
	ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetCurrentContext(&c2));
}
END_TEST

START_TEST(reset_device_force_ignores_the_count)
{
	int32_t dev;
	void *p;

	ACL_OK(aclrtSetDevice(0));
	ACL_OK(aclrtSetDevice(0));
	ACL_OK(aclrtSetDevice(0));
	ACL_OK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
	ACL_OK(aclrtResetDeviceForce(0));
	ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&dev));
	ACL_OK(aclrtSetDevice(0));
	ck_assert_uint_eq(acl_test_mem_used(), 0);
	ACL_OK(aclrtResetDevice(0));
}
END_TEST

START_TEST(reset_device_not_set_keeps_explicit_contexts)
{
	unsigned char host[64];
	aclrtContext ctx, cur;
	aclrtStream s;
	int32_t dev = -1;
	void *p;
	int i;

	/* Device 0 is open for this context only: nobody called aclrtSetDevice. */
	ACL_OK(aclrtCreateContext(&ctx, 0));
	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
	ACL_OK(aclrtResetDevice(0));
	ACL_OK(aclrtResetDevice(0));

	/* Nothing was released: the context, its stream and the memory work. */
	ACL_OK(aclrtGetCurrentContext(&cur));
	ck_assert_ptr_eq(cur, ctx);
	ACL_OK(aclrtGetDevice(&dev));
	ck_assert_int_eq(dev, 0);
	ACL_OK(aclrtSetCurrentContext(ctx));
	ACL_OK(aclrtMemsetAsync(p, 4096, 0x5a, 4096, s));
	ACL_OK(aclrtSynchronizeStream(s));
	ACL_OK(aclrtMemcpy(host, sizeof(host), p, sizeof(host), ACL_MEMCPY_DEVICE_TO_HOST));
	for (i = 0; i < (int)sizeof(host); i++)
		ck_assert_uint_eq(host[i], 0x5a);
	ACL_OK(aclrtDestroyStream(s));
	ACL_OK(aclrtFree(p));
	ACL_OK(aclrtDestroyContext(ctx));

	/* A set device still goes at its last reset. */
	ACL_OK(aclrtSetDevice(0));
	ACL_OK(aclrtResetDevice(0));
	ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&dev));
}
END_TEST

static void *set_device_thread(void *arg)
{
	aclrtContext *ctx = arg;

	ACL_OK(aclrtSetDevice(0));
	ACL_OK(aclrtGetCurrentContext(ctx));
	return NULL;
}

START_TEST(threads_share_the_default_context)
{
	aclrtContext mine, theirs = NULL;
	pthread_t t;

	ACL_OK(aclrtSetDevice(0));
	ACL_OK(aclrtGetCurrentContext(&mine));
	ck_assert_int_eq(pthread_create(&t, NULL, set_device_thread, &theirs), 0);
	pthread_join(t, NULL);
	ck_assert_ptr_eq(mine, theirs);
	ACL_OK(aclrtResetDevice(0));
	ACL_OK(aclrtResetDevice(0));
}
END_TEST

START_TEST(synchronize_device)
{
	ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtSynchronizeDevice());
	ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtSynchronizeDeviceWithTimeout(100));
	ACL_OK(aclrtSetDevice(0));
	ACL_OK(aclrtSynchronizeDevice());
	ACL_OK(aclrtSynchronizeDeviceWithTimeout(-1));
	ACL_OK(aclrtSynchronizeDeviceWithTimeout(0));
	ACL_OK(aclrtSynchronizeDeviceWithTimeout(1000));
	ACL_ERR(ACL_ERROR_RT_PARAM_INVALID, aclrtSynchronizeDeviceWithTimeout(-2));
	ACL_OK(aclrtResetDevice(0));
}
END_TEST

/* ---- contexts ----------------------------------------------------------------- */

START_TEST(create_context_makes_it_current)
{
	aclrtContext ctx = NULL, cur = NULL, def;
	int32_t dev = -1;

	ACL_OK(aclrtGetCurrentContext(&def));
	ACL_OK(aclrtCreateContext(&ctx, 0));
	ck_assert_ptr_nonnull(ctx);
	ck_assert_ptr_ne(ctx, def);
	ACL_OK(aclrtGetCurrentContext(&cur));
	ck_assert_ptr_eq(cur, ctx);
	ACL_OK(aclrtGetDevice(&dev));
	ck_assert_int_eq(dev, 0);
	ACL_OK(aclrtSetCurrentContext(def));
	ACL_OK(aclrtGetCurrentContext(&cur));
	ck_assert_ptr_eq(cur, def);
	ACL_OK(aclrtDestroyContext(ctx));
	ACL_OK(aclrtGetCurrentContext(&cur));
	ck_assert_ptr_eq(cur, def);
}
END_TEST

START_TEST(destroying_the_current_context_leaves_none)
{
	aclrtContext ctx, cur;

	ACL_OK(aclrtCreateContext(&ctx, 0));
	ACL_OK(aclrtDestroyContext(ctx));
	ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetCurrentContext(&cur));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetCurrentContext(ctx));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDestroyContext(ctx));
}
END_TEST

START_TEST(context_arguments)
{
	aclrtContext ctx, def;
	int local;

	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateContext(NULL, 0));
	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtCreateContext(&ctx, -1));
	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtCreateContext(&ctx, 64));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDestroyContext(NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDestroyContext(&local));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetCurrentContext(NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetCurrentContext(&local));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetCurrentContext(NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCtxGetCurrentDefaultStream(NULL));
	ACL_OK(aclrtGetCurrentContext(&def));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDestroyContext(def));
}
END_TEST

static void *current_context_thread(void *arg)
{
	aclrtContext ctx = arg, cur;

	/* A new thread has no current context until it sets one. */
	ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetCurrentContext(&cur));
	ACL_OK(aclrtSetCurrentContext(ctx));
	ACL_OK(aclrtGetCurrentContext(&cur));
	ck_assert_ptr_eq(cur, ctx);
	return NULL;
}

START_TEST(current_context_is_per_thread)
{
	aclrtContext ctx, def, cur;
	pthread_t t;

	ACL_OK(aclrtGetCurrentContext(&def));
	ACL_OK(aclrtCreateContext(&ctx, 0));
	ACL_OK(aclrtSetCurrentContext(def));
	ck_assert_int_eq(pthread_create(&t, NULL, current_context_thread, ctx), 0);
	pthread_join(t, NULL);
	ACL_OK(aclrtGetCurrentContext(&cur));
	ck_assert_ptr_eq(cur, def);
	ACL_OK(aclrtDestroyContext(ctx));
}
END_TEST

START_TEST(default_streams)
{
	aclrtStream s1 = NULL, s2 = NULL;
	aclrtContext ctx;

	ACL_OK(aclrtCtxGetCurrentDefaultStream(&s1));
	ck_assert_ptr_nonnull(s1);
	ACL_OK(aclrtCreateContext(&ctx, 0));
	ACL_OK(aclrtCtxGetCurrentDefaultStream(&s2));
	ck_assert_ptr_nonnull(s2);
	ck_assert_ptr_ne(s1, s2);
	/* Default streams cannot be destroyed. */
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDestroyStream(s2));
	/* A stream of another context is not usable here. */
	ACL_ERR(ACL_ERROR_RT_STREAM_CONTEXT, aclrtSynchronizeStream(s1));
	ACL_OK(aclrtSynchronizeStream(s2));
	ACL_OK(aclrtSynchronizeStream(NULL));
	ACL_OK(aclrtDestroyContext(ctx));
	ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtCtxGetCurrentDefaultStream(&s2));
}
END_TEST

START_TEST(reset_invalidates_contexts)
{
	aclrtContext ctx;

	ACL_OK(aclrtCreateContext(&ctx, 0));
	ACL_OK(aclrtResetDevice(0));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetCurrentContext(ctx));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDestroyContext(ctx));
	ACL_OK(aclrtSetDevice(0)); /* for the fixture's reset */
}
END_TEST

/* ---- the engine server ----------------------------------------------------------- */

/*
 * The server went away after the device was opened: every submit fails
 * with -ENOTCONN, which the runtime turns into the same code and advice as
 * at aclrtSetDevice. Nothing is queued; once the server is back, work runs.
 */
START_TEST(submits_without_an_engine_server_say_to_start_it)
{
	aclrtStream s;
	const char *msg;
	void *dev;

	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	ioctl_fake_failure(NR_SUBMIT, ENOTCONN);
	ck_assert_int_eq(aclrtMemsetAsync(dev, 4096, 0x11, 4096, s), ACL_ERROR_RT_DEV_SETUP_ERROR);
	msg = aclGetRecentErrMsg();
	ck_assert_msg(msg && strstr(msg, "vnpu device 0 has no engine server: start vnpu-engined"), "%s",
		      msg ? msg : "no message");
	ck_assert_int_eq(aclrtValueWrite(dev, 1, 0, s), ACL_ERROR_RT_DEV_SETUP_ERROR);
	msg = aclGetRecentErrMsg();
	ck_assert_msg(msg && strstr(msg, "vnpu-engined"), "%s", msg ? msg : "no message");
	ioctl_fake_failure(0, 0);
	/* Nothing was queued: the stream is idle and works again. */
	ACL_OK(aclrtSynchronizeStream(s));
	ACL_OK(aclrtMemsetAsync(dev, 4096, 0x22, 4096, s));
	ACL_OK(aclrtSynchronizeStream(s));
	ACL_OK(aclrtFree(dev));
	ACL_OK(aclrtDestroyStream(s));
}
END_TEST

/*
 * The server died while the stream had work: the kernel fails the stream
 * (VNPU_STREAM_ERROR_ENGINE) and refuses its later submits (-EIO). Both
 * the synchronize and the next launch report ACL_ERROR_RT_LOST_HEARTBEAT
 * and say to restart the server. (The stream state is faked here; the
 * kernel side is the selftests'.)
 */
START_TEST(a_stream_whose_engine_server_died_stays_failed)
{
	aclrtStream s;
	const char *msg;
	void *dev;

	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtMemsetAsync(dev, 4096, 0x11, 4096, s));
	ACL_OK(aclrtSynchronizeStream(s));
	ioctl_fake_stream_error(VNPU_STREAM_ERROR_ENGINE);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_ERROR_RT_LOST_HEARTBEAT);
	msg = aclGetRecentErrMsg();
	ck_assert_msg(msg && strstr(msg, "the engine server of device 0 went away while the stream had work") &&
			      strstr(msg, "restart it; the stream stays failed"),
		      "%s", msg ? msg : "no message");
	ioctl_fake_failure(NR_SUBMIT, EIO);
	ck_assert_int_eq(aclrtMemsetAsync(dev, 4096, 0x22, 4096, s), ACL_ERROR_RT_LOST_HEARTBEAT);
	msg = aclGetRecentErrMsg();
	ck_assert_msg(msg && strstr(msg, "went away"), "%s", msg ? msg : "no message");
	ioctl_fake_failure(0, 0);
	ioctl_fake_stream_error(0);
	ACL_OK(aclrtFree(dev));
	ACL_OK(aclrtDestroyStream(s));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_core");
	TCase *tc;

	tc = acl_tcase("init", false, 30);
	tcase_add_test(tc, init_null_and_finalize);
	tcase_add_test(tc, init_twice_gives_repeat_initialize);
	tcase_add_test(tc, finalize_without_init_gives_repeat_finalize);
	tcase_add_test(tc, finalize_reference_counts_down);
	tcase_add_test(tc, finalize_releases_devices);
	tcase_add_test(tc, init_with_config_files);
	tcase_add_test(tc, init_with_cann_style_config);
	tcase_add_test(tc, init_missing_file_gives_invalid_file);
	tcase_add_test(tc, init_malformed_json_gives_parse_file);
	tcase_add_test(tc, init_bad_vnpu_option_gives_file_attr_invalid);
	tcase_add_test(tc, reinit_with_other_config_gives_invalid_param);
	tcase_add_test(tc, bad_hazard_policy_environment);
	tcase_add_test(tc, bad_hazard_policy_environment_without_acl_init);
	suite_add_tcase(s, tc);

	tc = acl_tcase("errors", false, 30);
	tcase_add_test(tc, recent_message_is_null_without_error);
	tcase_add_test(tc, recent_message_is_consumed_on_read);
	tcase_add_test(tc, recent_message_names_the_problem);
	tcase_add_test(tc, last_error_get_clears_peek_keeps);
	tcase_add_test(tc, last_error_bad_level);
	tcase_add_test(tc, errors_are_per_thread);
	tcase_add_test(tc, version_soc_and_run_mode);
	tcase_add_test(tc, exports_only_acl_symbols);
	suite_add_tcase(s, tc);

	tc = acl_tcase("devices", false, 30);
	tcase_add_test(tc, device_count_matches_the_module);
	tcase_add_test(tc, set_device_rejects_bad_ids);
	tcase_add_test(tc, set_device_checks_the_module_abi);
	tcase_add_test(tc, set_device_needs_an_engine_server);
	tcase_add_test(tc, get_device_needs_a_context);
	tcase_add_test(tc, set_get_reset_device);
	tcase_add_test(tc, set_device_is_reference_counted);
	tcase_add_test(tc, reset_device_force_ignores_the_count);
	tcase_add_test(tc, reset_device_not_set_keeps_explicit_contexts);
	tcase_add_test(tc, threads_share_the_default_context);
	tcase_add_test(tc, synchronize_device);
	suite_add_tcase(s, tc);

	tc = acl_tcase("contexts", true, 30);
	tcase_add_test(tc, create_context_makes_it_current);
	tcase_add_test(tc, destroying_the_current_context_leaves_none);
	tcase_add_test(tc, context_arguments);
	tcase_add_test(tc, current_context_is_per_thread);
	tcase_add_test(tc, default_streams);
	tcase_add_test(tc, reset_invalidates_contexts);
	suite_add_tcase(s, tc);

	tc = acl_tcase("engine", true, 30);
	tcase_add_test(tc, submits_without_an_engine_server_say_to_start_it);
	tcase_add_test(tc, a_stream_whose_engine_server_died_stays_failed);
	suite_add_tcase(s, tc);

	return acl_test_run(s);
}
