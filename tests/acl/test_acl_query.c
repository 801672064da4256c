// SPDX-License-Identifier: MIT
/*
 * ACL conformance: device and system queries (issue 17): device
 * attributes, capabilities, status, utilisation, identities, topology, id
 * mappings, memory use, error details, limits and options, versions, CANN
 * attributes, binary16, application logs and the life-cycle callbacks.
 *
 * The "multidev" case needs two devices (suite acl_query_multi); with one
 * its tests return early.
 */
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl_optest.h"
#include "acl_test.h"

#define MIB (1ul << 20)

static unsigned long engines(void)
{
	unsigned long n = 0;

	ck_assert(acl_test_param("engines", &n));
	return n;
}

static uint32_t device_count(void)
{
	uint32_t n = 0;

	ACL_OK(aclrtGetDeviceCount(&n));
	return n;
}

/* ---- attributes and capabilities ---------------------------------------- */

START_TEST(device_info_reports_the_module)
{
	unsigned long mem_mib = 0;
	int64_t v = -1;

	ck_assert(acl_test_param("mem_mib", &mem_mib));
	ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &v));
	ck_assert_int_eq(v, (int64_t)engines());
	ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_CUBE_CORE_NUM, &v));
	ck_assert_int_eq(v, (int64_t)engines());
	ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, &v));
	ck_assert_int_eq(v, (int64_t)engines());
	ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &v));
	ck_assert_int_eq(v, (int64_t)(mem_mib * MIB));
	ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICPU_CORE_NUM, &v));
	ck_assert_int_eq(v, 0);
	ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_L2_CACHE_SIZE, &v));
	ck_assert_int_eq(v, 0);
	ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_PHY_CHIP_ID, &v));
	ck_assert_int_eq(v, 0);
	ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_HD_CONNECT_TYPE, &v));
	ck_assert_int_eq(v, ACL_HOST_DEVICE_CONNECT_TYPE_PCIE);
	ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_DEVICE_FORM_FACTOR, &v));
	ck_assert_int_eq(v, ACL_DEVICE_FORM_FACTOR_PCIE_CARD);
	ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_IS_VIRTUAL, &v));
	ck_assert_int_eq(v, 0);
}
END_TEST

START_TEST(device_info_bad_arguments)
{
	int64_t v;

	ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtGetDeviceInfo(0, ACL_DEV_ATTR_WARP_SIZE, &v));
	ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtGetDeviceInfo(0, ACL_DEV_ATTR_NPU_ARCH, &v));
	ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtGetDeviceInfo(0, ACL_DEV_ATTR_SUPER_POD_ID, &v));
	ACL_ERR(ACL_ERROR_RT_PARAM_INVALID, aclrtGetDeviceInfo(0, (aclrtDevAttr)9999, &v));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, NULL));
	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetDeviceInfo(63, ACL_DEV_ATTR_AICORE_CORE_NUM, &v));
	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetDeviceInfo(1u << 31, ACL_DEV_ATTR_AICORE_CORE_NUM, &v));
}
END_TEST

/* No aclInit, no aclrtSetDevice: queries open the device themselves. */
START_TEST(queries_need_no_set_device)
{
	int64_t v = 0;
	int32_t active = 1;

	ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &v));
	ck_assert_int_eq(v, (int64_t)engines());
	ACL_OK(aclGetDeviceCapability(0, ACL_DEVICE_INFO_VECTOR_CORE_NUM, &v));
	ck_assert_int_eq(v, (int64_t)engines());
	ACL_OK(aclrtGetPrimaryCtxState(0, NULL, &active));
	ck_assert_int_eq(active, 0);
}
END_TEST

START_TEST(capabilities)
{
	int32_t c = -1;
	int64_t v = -1;

	ACL_OK(aclrtGetDeviceCapability(0, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, &c));
	ck_assert_int_eq(c, ACL_DEV_FEATURE_NOT_SUPPORT);
	ACL_OK(aclrtGetDeviceCapability(0, ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, &c));
	ck_assert_int_eq(c, ACL_DEV_FEATURE_NOT_SUPPORT);
	ACL_ERR(ACL_ERROR_RT_PARAM_INVALID, aclrtGetDeviceCapability(0, (aclrtDevFeatureType)7, &c));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceCapability(0, ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, NULL));
	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetDeviceCapability(-1, ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, &c));

	ACL_OK(aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, &v));
	ck_assert_int_eq(v, (int64_t)engines());
	ACL_OK(aclGetDeviceCapability(0, ACL_DEVICE_INFO_L2_SIZE, &v));
	ck_assert_int_eq(v, 0);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclGetDeviceCapability(0, ACL_DEVICE_INFO_UNDEFINED, &v));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclGetDeviceCapability(0, ACL_DEVICE_INFO_L2_SIZE, NULL));
	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclGetDeviceCapability(40, ACL_DEVICE_INFO_L2_SIZE, &v));
}
END_TEST

START_TEST(device_status_follows_the_engine_server)
{
	aclrtDeviceStatus st = ACL_RT_DEVICE_STATUS_END;

	ACL_OK(aclrtQueryDeviceStatus(0, &st));
	ck_assert_int_eq(st, ACL_RT_DEVICE_STATUS_NORMAL);
	ioctl_fake_engine_attached(0);
	ACL_OK(aclrtQueryDeviceStatus(0, &st));
	ioctl_fake_engine_attached(-1);
	ck_assert_int_eq(st, ACL_RT_DEVICE_STATUS_ABNORMAL);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtQueryDeviceStatus(0, NULL));
	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtQueryDeviceStatus(17, &st));
}
END_TEST

START_TEST(stream_priority_range)
{
	int32_t least = -1, greatest = -1;
	aclrtStream s;

	ACL_OK(aclrtDeviceGetStreamPriorityRange(&least, &greatest));
	ck_assert_int_eq(least, 7);
	ck_assert_int_eq(greatest, 0);
	/* Both ends are priorities streams take. */
	ACL_OK(aclrtCreateStreamWithConfig(&s, (uint32_t)least, 0));
	ACL_OK(aclrtDestroyStream(s));
	ACL_OK(aclrtCreateStreamWithConfig(&s, (uint32_t)greatest, 0));
	ACL_OK(aclrtDestroyStream(s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDeviceGetStreamPriorityRange(NULL, &greatest));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDeviceGetStreamPriorityRange(&least, NULL));
}
END_TEST

/* ---- identities ----------------------------------------------------------- */

START_TEST(uuid_is_stable)
{
	aclrtUuid a, b;

	ACL_OK(aclrtDeviceGetUuid(0, &a));
	ACL_OK(aclrtDeviceGetUuid(0, &b));
	ck_assert_mem_eq(a.bytes, b.bytes, sizeof(a.bytes));
	ck_assert_mem_eq(a.bytes, "vnpu", 4);
	ck_assert_int_eq((unsigned char)a.bytes[6] >> 4, 8); /* version 8 */
	ck_assert_int_eq((unsigned char)a.bytes[8] >> 6, 2); /* RFC variant */
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDeviceGetUuid(0, NULL));
	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtDeviceGetUuid(-3, &a));
}
END_TEST

START_TEST(pci_bus_id_round_trip)
{
	char id[16];
	int32_t dev = -1;

	memset(id, 'x', sizeof(id));
	ACL_OK(aclrtDeviceGetPCIBusId(0, id, (int32_t)sizeof(id)));
	ck_assert_str_eq(id, "0000:01:00.0");
	ACL_OK(aclrtDeviceGetByPCIBusId(id, &dev));
	ck_assert_int_eq(dev, 0);
	dev = -1;
	ACL_OK(aclrtDeviceGetByPCIBusId("01:00.0", &dev));
	ck_assert_int_eq(dev, 0);
	ACL_OK(aclrtDeviceGetPCIBusId(0, id, 13));
	ck_assert_str_eq(id, "0000:01:00.0");

	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDeviceGetPCIBusId(0, id, 12));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDeviceGetPCIBusId(0, NULL, 16));
	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtDeviceGetPCIBusId(50, id, 16));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDeviceGetByPCIBusId("vnpu0", &dev));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDeviceGetByPCIBusId("0000:01:00.0 ", &dev));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDeviceGetByPCIBusId("", &dev));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDeviceGetByPCIBusId(NULL, &dev));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDeviceGetByPCIBusId("0000:01:00.0", NULL));
	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtDeviceGetByPCIBusId("0000:00:00.0", &dev));
	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtDeviceGetByPCIBusId("0000:40:00.0", &dev));
	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtDeviceGetByPCIBusId("0001:01:00.0", &dev));
	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtDeviceGetByPCIBusId("0000:01:00.1", &dev));
}
END_TEST

START_TEST(device_id_mappings_are_the_identity)
{
	uint32_t n = device_count(), i;
	int32_t out;

	for (i = 0; i < n; i++) {
		out = -1;
		ACL_OK(aclrtGetLogicDevIdByUserDevId((int32_t)i, &out));
		ck_assert_int_eq(out, (int32_t)i);
		out = -1;
		ACL_OK(aclrtGetUserDevIdByLogicDevId((int32_t)i, &out));
		ck_assert_int_eq(out, (int32_t)i);
		out = -1;
		ACL_OK(aclrtGetLogicDevIdByPhyDevId((int32_t)i, &out));
		ck_assert_int_eq(out, (int32_t)i);
		out = -1;
		ACL_OK(aclrtGetPhyDevIdByLogicDevId((int32_t)i, &out));
		ck_assert_int_eq(out, (int32_t)i);
		out = -1;
		ACL_OK(aclrtGetUserDevIdByPhyDevId((int32_t)i, &out));
		ck_assert_int_eq(out, (int32_t)i);
		out = -1;
		ACL_OK(aclrtGetPhyDevIdByUserDevId((int32_t)i, &out));
		ck_assert_int_eq(out, (int32_t)i);
	}
	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetLogicDevIdByUserDevId((int32_t)n, &out));
	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetUserDevIdByLogicDevId(-1, &out));
	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetLogicDevIdByPhyDevId((int32_t)n, &out));
	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetPhyDevIdByLogicDevId((int32_t)n, &out));
	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetUserDevIdByPhyDevId((int32_t)n, &out));
	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetPhyDevIdByUserDevId((int32_t)n, &out));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetPhyDevIdByUserDevId(0, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetLogicDevIdByUserDevId(0, NULL));
}
END_TEST

START_TEST(arch_compatibility)
{
	int32_t ok = -1;

	ACL_OK(aclrtCheckArchCompatibility(aclrtGetSocName(), &ok));
	ck_assert_int_eq(ok, 1);
	ACL_OK(aclrtCheckArchCompatibility("Ascend910B1", &ok));
	ck_assert_int_eq(ok, 0);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCheckArchCompatibility("", &ok));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCheckArchCompatibility(NULL, &ok));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCheckArchCompatibility("vnpu", NULL));
}
END_TEST

START_TEST(primary_context_state_follows_set_and_reset)
{
	uint32_t flags = 99;
	int32_t active = -1;

	ACL_OK(aclInit(NULL));
	ACL_OK(aclrtGetPrimaryCtxState(0, &flags, &active));
	ck_assert_int_eq(active, 0);
	ck_assert_uint_eq(flags, 0);
	ACL_OK(aclrtSetDevice(0));
	ACL_OK(aclrtGetPrimaryCtxState(0, &flags, &active));
	ck_assert_int_eq(active, 1);
	ACL_OK(aclrtSetDevice(0));
	ACL_OK(aclrtResetDevice(0));
	ACL_OK(aclrtGetPrimaryCtxState(0, NULL, &active));
	ck_assert_int_eq(active, 1);
	ACL_OK(aclrtResetDevice(0));
	ACL_OK(aclrtGetPrimaryCtxState(0, NULL, &active));
	ck_assert_int_eq(active, 0);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetPrimaryCtxState(0, &flags, NULL));
	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetPrimaryCtxState(9, &flags, &active));
	ACL_OK(aclFinalize());
}
END_TEST

/* ---- memory use and error details ---------------------------------------- */

static const aclrtMemUsageInfo *usage_of(const aclrtMemUsageInfo *u, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(u[i].name, name))
			return &u[i];
	ck_abort_msg("no component \"%s\"", name);
	return NULL;
}

START_TEST(memory_usage_counts_allocations)
{
	aclrtMemUsageInfo u[4];
	uint64_t peak;
	size_t n = 0;
	void *d, *h;

	ACL_OK(aclrtGetMemUsageInfo(0, u, 4, &n));
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(usage_of(u, n, "device")->curMemSize, 0);

	ACL_OK(aclrtMalloc(&d, 3 * MIB, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtMallocHost(&h, MIB));
	ACL_OK(aclrtGetMemUsageInfo(0, u, 4, &n));
	ck_assert_uint_eq(n, 2);
	/* Largest first. */
	ck_assert_str_eq(u[0].name, "device");
	ck_assert_uint_eq(u[0].memPeakSize, u[0].curMemSize);
	peak = u[0].curMemSize;
	/* What the application may use: the size asked for and aclrtMalloc's
	 * small tail (CANN's 32 bytes). */
	ck_assert_msg(peak >= 3 * MIB && peak <= 3 * MIB + 64, "device use %llu", (unsigned long long)peak);
	ck_assert_str_eq(u[1].name, "host");
	ck_assert_uint_eq(u[1].curMemSize, MIB);

	ACL_OK(aclrtFree(d));
	ACL_OK(aclrtGetMemUsageInfo(0, u, 1, &n));
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(u[0].name, "host");
	ACL_OK(aclrtGetMemUsageInfo(0, u, 4, &n));
	ck_assert_uint_eq(usage_of(u, n, "device")->curMemSize, 0);
	ck_assert_uint_eq(usage_of(u, n, "device")->memPeakSize, peak);
	ACL_OK(aclrtFreeHost(h));

	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetMemUsageInfo(0, u, 0, &n));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetMemUsageInfo(0, NULL, 4, &n));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetMemUsageInfo(0, u, 4, NULL));
	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetMemUsageInfo(33, u, 4, &n));
}
END_TEST

START_TEST(error_verbose_reports_a_failed_stream)
{
	aclrtErrorInfo info;
	aclrtStream s;
	void *d;

	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtMemsetAsync(d, 4096, 1, 4096, s));
	ACL_OK(aclrtSynchronizeStream(s));

	memset(&info, 0xff, sizeof(info));
	ACL_OK(aclrtGetErrorVerbose(0, &info));
	ck_assert_int_eq(info.errorType, ACL_RT_NO_ERROR);
	ck_assert_int_eq(info.hasDetail, 0);
	ck_assert_int_eq(info.tryRepair, 0);

	ioctl_fake_stream_error(VNPU_STREAM_ERROR_FAULT);
	ACL_OK(aclrtGetErrorVerbose(0, &info));
	ck_assert_int_eq(info.errorType, ACL_RT_ERROR_AICORE);
	ck_assert_int_eq(info.hasDetail, 1);
	ck_assert_int_eq(info.detail.aicoreErrType, ACL_RT_AICORE_ERROR_SW);
	/* The stream's error is left for its owner: nothing recorded here. */
	ck_assert_int_eq(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
	ioctl_fake_stream_error(0);
	ACL_OK(aclrtGetErrorVerbose(0, &info));
	ck_assert_int_eq(info.errorType, ACL_RT_NO_ERROR);

	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetErrorVerbose(0, NULL));
	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetErrorVerbose(-1, &info));
	ACL_OK(aclrtFree(d));
	ACL_OK(aclrtDestroyStream(s));
}
END_TEST

/* ---- utilisation ------------------------------------------------------------ */

struct load {
	atomic_bool stop;
	atomic_uint jobs;
};

/* MatMuls back to back on device 0 until told to stop. */
static void *load_thread(void *arg)
{
	const int64_t d[2] = { 192, 192 };
	struct load *l = arg;
	struct dtensor *a, *b, *o;
	aclrtStream s;

	ACL_OK(aclrtSetDevice(0));
	ACL_OK(aclrtCreateStream(&s));
	a = dt_new(ACL_FLOAT, 2, d, 1, -1, 1);
	b = dt_new(ACL_FLOAT, 2, d, 2, -1, 1);
	o = dt_new(ACL_FLOAT, 2, d, 3, 0, 0);
	while (!atomic_load(&l->stop)) {
		ACL_OK(run_op("MatMul", a, b, o, NULL, s));
		ACL_OK(aclrtSynchronizeStream(s));
		atomic_fetch_add(&l->jobs, 1);
	}
	dt_free(a);
	dt_free(b);
	dt_free(o);
	ACL_OK(aclrtDestroyStream(s));
	ACL_OK(aclrtResetDevice(0));
	return NULL;
}

START_TEST(utilization_rises_while_operators_run)
{
	aclrtUtilizationInfo u = { 0 };
	struct load l;
	pthread_t t;

	/* Idle: the share since the previous sample is 0. */
	ACL_OK(aclrtGetDeviceUtilizationRate(0, &u));
	acl_test_sleep_ms(200);
	ACL_OK(aclrtGetDeviceUtilizationRate(0, &u));
	ck_assert_int_eq(u.cubeUtilization, 0);
	ck_assert_int_eq(u.vectorUtilization, 0);
	ck_assert_int_eq(u.aicpuUtilization, -1);
	ck_assert_int_eq(u.memoryUtilization, -1);

	atomic_init(&l.stop, false);
	atomic_init(&l.jobs, 0);
	ck_assert_int_eq(pthread_create(&t, NULL, load_thread, &l), 0);
	while (atomic_load(&l.jobs) < 2)
		acl_test_sleep_ms(10);
	ACL_OK(aclrtGetDeviceUtilizationRate(0, &u));
	acl_test_sleep_ms(500);
	ACL_OK(aclrtGetDeviceUtilizationRate(0, &u));
	atomic_store(&l.stop, true);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_msg(u.cubeUtilization > 0 && u.cubeUtilization <= 100, "busy share %d%% after %u jobs",
		      u.cubeUtilization, atomic_load(&l.jobs));
	ck_assert_int_eq(u.vectorUtilization, u.cubeUtilization);

	/* Idle again. */
	ACL_OK(aclrtGetDeviceUtilizationRate(0, &u));
	acl_test_sleep_ms(200);
	ACL_OK(aclrtGetDeviceUtilizationRate(0, &u));
	ck_assert_int_eq(u.cubeUtilization, 0);
}
END_TEST

START_TEST(utilization_bad_arguments)
{
	aclrtUtilizationInfo u = { 0 };

	u.utilizationExtend = (aclrtUtilizationExtendInfo *)&u;
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceUtilizationRate(0, &u));
	u.utilizationExtend = NULL;
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceUtilizationRate(0, NULL));
	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetDeviceUtilizationRate(12, &u));
}
END_TEST

/* ---- queries across threads ------------------------------------------------ */

struct qthread {
	int ok;
	aclrtUuid uuid;
	char pci[16];
};

static void *query_thread(void *arg)
{
	struct qthread *q = arg;
	aclrtUtilizationInfo u;
	aclrtMemUsageInfo m[2];
	aclrtUuid uuid;
	char pci[16];
	int64_t v;
	size_t n;
	int i;

	for (i = 0; i < 200; i++) {
		if (aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &v) || v != (int64_t)engines())
			return NULL;
		if (aclrtDeviceGetUuid(0, &uuid) || aclrtDeviceGetPCIBusId(0, pci, sizeof(pci)))
			return NULL;
		memset(&u, 0, sizeof(u));
		if (aclrtGetDeviceUtilizationRate(0, &u) || u.cubeUtilization < 0 || u.cubeUtilization > 100)
			return NULL;
		if (aclrtGetMemUsageInfo(0, m, 2, &n) || n != 2)
			return NULL;
		if (i && (memcmp(&uuid, &q->uuid, sizeof(uuid)) || strcmp(pci, q->pci)))
			return NULL;
		q->uuid = uuid;
		strcpy(q->pci, pci);
	}
	q->ok = 1;
	return NULL;
}

START_TEST(queries_from_many_threads_agree)
{
	struct qthread q[4];
	pthread_t t[4];
	int i;

	memset(q, 0, sizeof(q));
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, query_thread, &q[i]), 0);
	for (i = 0; i < 4; i++) {
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
		ck_assert_msg(q[i].ok, "thread %d saw a failed or inconsistent query", i);
		ck_assert_mem_eq(&q[i].uuid, &q[0].uuid, sizeof(q[0].uuid));
		ck_assert_str_eq(q[i].pci, "0000:01:00.0");
	}
}
END_TEST

/* ---- limits and options ---------------------------------------------------- */

START_TEST(device_limits)
{
	size_t v = 0;

	ACL_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &v));
	ck_assert_uint_eq(v, 32768);
	ACL_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, &v));
	ck_assert_uint_eq(v, MIB);
	ACL_OK(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 100000));
	ACL_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &v));
	ck_assert_uint_eq(v, 7 * 16384);
	ACL_OK(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 1000));
	ACL_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &v));
	ck_assert_uint_eq(v, 32768);
	ACL_OK(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 192 * 1024));
	ACL_ERR(ACL_ERROR_RT_PARAM_INVALID, aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 192 * 1024 + 1));
	ACL_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &v));
	ck_assert_uint_eq(v, 192 * 1024);

	ACL_OK(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 4097));
	ACL_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, &v));
	ck_assert_uint_eq(v, 4104);
	ACL_ERR(ACL_ERROR_RT_PARAM_INVALID, aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 1023));
	ACL_ERR(ACL_ERROR_RT_PARAM_INVALID,
		aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 64 * MIB + 1));

	ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE, 4096));
	ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE, &v));
	ACL_ERR(ACL_ERROR_RT_PARAM_INVALID, aclrtDeviceSetLimit((aclrtDeviceLimit)9, 4096));
	ACL_ERR(ACL_ERROR_RT_PARAM_INVALID, aclrtDeviceGetLimit((aclrtDeviceLimit)-1, &v));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, NULL));
}
END_TEST

START_TEST(device_resource_limits)
{
	uint32_t n = (uint32_t)engines(), v = 0;

	ACL_OK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &v));
	ck_assert_uint_eq(v, n);
	ACL_OK(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &v));
	ck_assert_uint_eq(v, n);
	ACL_OK(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 1));
	ACL_OK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &v));
	ck_assert_uint_eq(v, 1);
	ACL_OK(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v));
	ck_assert_uint_eq(v, 1);
	ACL_OK(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &v));
	ck_assert_uint_eq(v, n);
	ACL_OK(aclrtResetDeviceResLimit(0));
	ACL_OK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &v));
	ck_assert_uint_eq(v, n);

	ACL_ERR(ACL_ERROR_RT_PARAM_INVALID, aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 0));
	ACL_ERR(ACL_ERROR_RT_PARAM_INVALID, aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, n + 1));
	ACL_ERR(ACL_ERROR_RT_PARAM_INVALID, aclrtSetDeviceResLimit(0, (aclrtDevResLimitType)2, 1));
	ACL_ERR(ACL_ERROR_RT_PARAM_INVALID, aclrtGetDeviceResLimit(0, (aclrtDevResLimitType)-1, &v));
	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtSetDeviceResLimit(8, ACL_RT_DEV_RES_CUBE_CORE, 1));
	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtResetDeviceResLimit(-2));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, NULL));
}
END_TEST

START_TEST(resource_in_current_thread_needs_a_context)
{
	uint32_t v;

	ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v));
}
END_TEST

START_TEST(system_parameters)
{
	aclrtContext ctx, other;
	int64_t v = -1;

	ACL_OK(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v));
	ck_assert_int_eq(v, 0);
	ACL_OK(aclrtCtxGetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, &v));
	ck_assert_int_eq(v, 0);
	ACL_OK(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1));
	ACL_OK(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v));
	ck_assert_int_eq(v, 1);
	/* Not set in the context: the process's value. */
	ACL_OK(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v));
	ck_assert_int_eq(v, 1);
	ACL_OK(aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 0));
	ACL_OK(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v));
	ck_assert_int_eq(v, 0);
	ACL_OK(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v));
	ck_assert_int_eq(v, 1);

	/* Another context has its own. */
	ACL_OK(aclrtGetCurrentContext(&ctx));
	ACL_OK(aclrtCreateContext(&other, 0));
	ACL_OK(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v));
	ck_assert_int_eq(v, 1);
	ACL_OK(aclrtSetCurrentContext(ctx));
	ACL_OK(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v));
	ck_assert_int_eq(v, 0);
	ACL_OK(aclrtDestroyContext(other));

	ACL_ERR(ACL_ERROR_RT_PARAM_INVALID, aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 2));
	ACL_ERR(ACL_ERROR_RT_PARAM_INVALID, aclrtCtxSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, -1));
	ACL_ERR(ACL_ERROR_RT_PARAM_INVALID, aclrtSetSysParamOpt((aclSysParamOpt)2, 0));
	ACL_ERR(ACL_ERROR_RT_PARAM_INVALID, aclrtGetSysParamOpt((aclSysParamOpt)-1, &v));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, NULL));
}
END_TEST

START_TEST(context_parameters_need_a_context)
{
	int64_t v;

	ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1));
	ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v));
	/* The process's need none. */
	ACL_OK(aclrtSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 1));
	ACL_OK(aclrtGetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, &v));
	ck_assert_int_eq(v, 1);
}
END_TEST

START_TEST(saturation_mode)
{
	aclrtFloatOverflowMode m = ACL_RT_OVERFLOW_MODE_UNDEF;

	ACL_OK(aclrtGetDeviceSatMode(&m));
	ck_assert_int_eq(m, ACL_RT_OVERFLOW_MODE_INFNAN);
	ACL_OK(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION));
	ACL_OK(aclrtGetDeviceSatMode(&m));
	ck_assert_int_eq(m, ACL_RT_OVERFLOW_MODE_SATURATION);
	ACL_ERR(ACL_ERROR_RT_PARAM_INVALID, aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_UNDEF));
	ACL_ERR(ACL_ERROR_RT_PARAM_INVALID, aclrtSetDeviceSatMode((aclrtFloatOverflowMode)7));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceSatMode(NULL));
	/* The device's state: a reset to count zero restores the default. */
	ACL_OK(aclrtResetDevice(0));
	ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDeviceSatMode(&m));
	ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN));
	ACL_OK(aclrtSetDevice(0));
	ACL_OK(aclrtGetDeviceSatMode(&m));
	ck_assert_int_eq(m, ACL_RT_OVERFLOW_MODE_INFNAN);
}
END_TEST

/* ---- versions, attributes, binary16, logs ------------------------------------ */

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
START_TEST(package_versions)
{
	char runtime[] = "runtime", driver[] = "driver", compiler[] = "compiler", str[ACL_PKG_VERSION_MAX_SIZE];
	aclCANNPackageVersion pv;
	char want[32];
	int32_t num = 0;

	ACL_OK(aclsysGetVersionStr(runtime, str));
	ck_assert_str_eq(str, "9.0.0");
	ACL_OK(aclsysGetVersionNum(runtime, &num));
	ck_assert_int_eq(num, 90000000);
	ACL_OK(aclsysGetVersionStr(driver, str));
	snprintf(want, sizeof(want), "%u.%u.0", VNPU_ABI_MAJOR, VNPU_ABI_MINOR);
	ck_assert_str_eq(str, want);
	ACL_OK(aclsysGetVersionNum(driver, &num));
	ck_assert_int_eq(num, VNPU_ABI_MAJOR * 10000000 + VNPU_ABI_MINOR * 100000);

	ACL_OK(aclsysGetCANNVersion(ACL_PKG_NAME_CANN, &pv));
	ck_assert_str_eq(pv.version, "9.0.0");
	ck_assert_str_eq(pv.majorVersion, "9");
	ck_assert_str_eq(pv.minorVersion, "0");
	ACL_OK(aclsysGetCANNVersion(ACL_PKG_NAME_OPP_KERNEL, &pv));
	ck_assert_str_eq(pv.version, "9.0.0");

	ACL_ERR(ACL_ERROR_INVALID_FILE, aclsysGetVersionStr(compiler, str));
	ACL_ERR(ACL_ERROR_INVALID_FILE, aclsysGetVersionNum(compiler, &num));
	ACL_ERR(ACL_ERROR_INVALID_FILE, aclsysGetCANNVersion(ACL_PKG_NAME_HCCL, &pv));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclsysGetCANNVersion((aclCANNPackageName)99, &pv));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclsysGetCANNVersion(ACL_PKG_NAME_CANN, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclsysGetVersionStr(NULL, str));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclsysGetVersionStr(runtime, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclsysGetVersionNum(runtime, NULL));
}
END_TEST
#pragma GCC diagnostic pop

START_TEST(cann_attributes)
{
	const aclCannAttr *list = NULL;
	size_t n = 0, i;
	int32_t v = -1;
	bool inf = false, bf16 = false;

	ACL_OK(aclGetCannAttributeList(&list, &n));
	ck_assert_uint_eq(n, 2);
	for (i = 0; i < n; i++) {
		inf |= list[i] == ACL_CANN_ATTR_INF_NAN;
		bf16 |= list[i] == ACL_CANN_ATTR_BF16;
		ACL_OK(aclGetCannAttribute(list[i], &v));
		ck_assert_int_eq(v, 1);
	}
	ck_assert(inf && bf16);
	ACL_OK(aclGetCannAttribute(ACL_CANN_ATTR_JIT_COMPILE, &v));
	ck_assert_int_eq(v, 0);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclGetCannAttribute(ACL_CANN_ATTR_UNDEFINED, &v));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclGetCannAttribute((aclCannAttr)3, &v));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclGetCannAttribute(ACL_CANN_ATTR_BF16, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclGetCannAttributeList(NULL, &n));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclGetCannAttributeList(&list, NULL));
}
END_TEST

START_TEST(float16_conversions)
{
	ck_assert_uint_eq(aclFloatToFloat16(1.0f), 0x3c00);
	ck_assert_uint_eq(aclFloatToFloat16(-2.5f), 0xc100);
	ck_assert_uint_eq(aclFloatToFloat16(65504.0f), 0x7bff);
	ck_assert_uint_eq(aclFloatToFloat16(1e6f), 0x7c00);
	ck_assert_uint_eq(aclFloatToFloat16(-1e6f), 0xfc00);
	ck_assert_uint_eq(aclFloatToFloat16(ldexpf(1.0f, -24)), 0x0001); /* smallest subnormal */
	/* Ties go to even: 1 + 2^-11 is half-way between 1 and 1 + 2^-10. */
	ck_assert_uint_eq(aclFloatToFloat16(1.0f + ldexpf(1.0f, -11)), 0x3c00);
	ck_assert_uint_eq(aclFloatToFloat16(1.0f + 3 * ldexpf(1.0f, -11)), 0x3c02);
	ck_assert(isnan(aclFloat16ToFloat(aclFloatToFloat16(NAN))));
	ck_assert(aclFloat16ToFloat(0x3c00) == 1.0f);
	ck_assert(aclFloat16ToFloat(0xc100) == -2.5f);
	ck_assert(aclFloat16ToFloat(0x0001) == ldexpf(1.0f, -24));
	ck_assert(isinf(aclFloat16ToFloat(0x7c00)));
	ck_assert(aclFloat16ToFloat(0x8000) == 0.0f && signbit(aclFloat16ToFloat(0x8000)));
}
END_TEST

/* Run aclAppLog lines with stderr sent to a file; its text. */
static char *log_lines(void (*fn)(void))
{
	static char text[4096];
	char path[] = "/tmp/acl-applog-XXXXXX";
	int fd = mkstemp(path), saved = dup(2);
	ssize_t n;

	ck_assert_int_ge(fd, 0);
	fflush(stderr);
	dup2(fd, 2);
	fn();
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	lseek(fd, 0, SEEK_SET);
	n = read(fd, text, sizeof(text) - 1);
	ck_assert_int_ge(n, 0);
	text[n] = '\0';
	close(fd);
	unlink(path);
	return text;
}

static void log_some(void)
{
	aclAppLog(ACL_ERROR, "myfunc", "app.c", 42, "failed with %d", 7);
	ACL_APP_LOG(ACL_WARNING, "a warning %s", "here");
	ACL_APP_LOG(ACL_INFO, "some info");
	aclAppLog((aclLogLevel)9, "f", "g", 1, "never");
	aclAppLog(ACL_ERROR, "f", "g", 1, NULL);
}

START_TEST(app_log_default_level_is_error)
{
	char *t = log_lines(log_some);

	ck_assert_msg(strstr(t, "[ERROR] APP(") != NULL, "log: %s", t);
	ck_assert_msg(strstr(t, "app.c:42 myfunc: failed with 7\n") != NULL, "log: %s", t);
	ck_assert_msg(!strstr(t, "a warning") && !strstr(t, "some info") && !strstr(t, "never"), "log: %s", t);
}
END_TEST

START_TEST(app_log_follows_ascend_global_log_level)
{
	char *t;

	setenv("ASCEND_GLOBAL_LOG_LEVEL", "1", 1);
	t = log_lines(log_some);
	ck_assert_msg(strstr(t, "[WARNING] APP(") && strstr(t, "test_acl_query.c:"), "log: %s", t);
	ck_assert_msg(strstr(t, "log_some: a warning here\n") != NULL, "log: %s", t);
	ck_assert_msg(strstr(t, "[INFO] APP(") && strstr(t, "some info"), "log: %s", t);
	ck_assert_msg(!strstr(t, "never"), "log: %s", t);
}
END_TEST

START_TEST(app_log_level_4_is_silent)
{
	char *t;

	setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", 1);
	t = log_lines(log_some);
	ck_assert_msg(!*t, "log: %s", t);
}
END_TEST

/* ---- callbacks -------------------------------------------------------------- */

struct calls {
	int n;
	char config[64];
	size_t len;
	void *data;
	aclError ret;
};

static struct calls init_calls, fini_calls;

static aclError on_init(const char *config, size_t len, void *data)
{
	init_calls.n++;
	snprintf(init_calls.config, sizeof(init_calls.config), "%s", config);
	init_calls.len = len;
	init_calls.data = data;
	/* ACL calls work inside, and their failures do not leak out. */
	(void)aclrtGetDevice(NULL);
	return init_calls.ret;
}

static aclError on_fini(void *data)
{
	fini_calls.n++;
	fini_calls.data = data;
	return fini_calls.ret;
}

START_TEST(init_callback_registered_before_init_runs_at_init)
{
	const char *cfg = "{\"x\": 1}";
	int tag;

	ACL_OK(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, on_init, NULL));
	/* Registering again replaces the user data: still one call. */
	ACL_OK(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, on_init, &tag));
	ck_assert_int_eq(init_calls.n, 0);
	ACL_OK(aclInit(acl_test_write_config(cfg)));
	ck_assert_int_eq(init_calls.n, 1);
	ck_assert_str_eq(init_calls.config, cfg);
	ck_assert_uint_eq(init_calls.len, strlen(cfg));
	ck_assert_ptr_eq(init_calls.data, &tag);
	ck_assert_ptr_null(aclGetRecentErrMsg());
	/* A repeated aclInit does not initialise: no call. */
	ACL_ERR(ACL_ERROR_REPEAT_INITIALIZE, aclInit(NULL));
	ck_assert_int_eq(init_calls.n, 1);
	ACL_OK(aclFinalize());
}
END_TEST

START_TEST(init_callback_registered_after_init_runs_at_once)
{
	ACL_OK(aclInit(NULL));
	ACL_OK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_MODEL, on_init, &init_calls));
	ck_assert_int_eq(init_calls.n, 1);
	ck_assert_str_eq(init_calls.config, "");
	ck_assert_uint_eq(init_calls.len, 0);
	/* Its failure is Register's. */
	init_calls.ret = ACL_ERROR_FAILURE;
	ACL_OK(aclInitCallbackUnRegister(ACL_REG_TYPE_ACL_MODEL, on_init));
	ACL_ERR(ACL_ERROR_FAILURE, aclInitCallbackRegister(ACL_REG_TYPE_ACL_MODEL, on_init, NULL));
	ck_assert_int_eq(init_calls.n, 2);
	ACL_OK(aclFinalize());
	/* And aclInit's. */
	ACL_ERR(ACL_ERROR_FAILURE, aclInit(NULL));
	ck_assert_int_eq(init_calls.n, 3);
	ACL_OK(aclFinalize());
}
END_TEST

START_TEST(unregistered_init_callback_is_not_called)
{
	ACL_OK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_OP_EXECUTOR, on_init, NULL));
	ACL_OK(aclInitCallbackUnRegister(ACL_REG_TYPE_ACL_OP_EXECUTOR, on_init));
	/* Not registered (any more, or under that type): nothing happens. */
	ACL_OK(aclInitCallbackUnRegister(ACL_REG_TYPE_ACL_OP_EXECUTOR, on_init));
	ACL_OK(aclInit(NULL));
	ck_assert_int_eq(init_calls.n, 0);
	ACL_OK(aclFinalize());

	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclInitCallbackRegister((aclRegisterCallbackType)100, on_init, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclInitCallbackRegister(ACL_REG_TYPE_OTHER, NULL, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclInitCallbackUnRegister((aclRegisterCallbackType)-1, on_init));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclInitCallbackUnRegister(ACL_REG_TYPE_OTHER, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclFinalizeCallbackRegister((aclRegisterCallbackType)9, on_fini, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclFinalizeCallbackRegister(ACL_REG_TYPE_OTHER, NULL, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclFinalizeCallbackUnRegister(ACL_REG_TYPE_OTHER, NULL));
}
END_TEST

START_TEST(finalize_callbacks_run_when_torn_down)
{
	uint64_t refs;
	int32_t dev;
	int tag;

	ACL_OK(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_DVPP, on_fini, &tag));
	ACL_OK(aclInit(NULL));
	ACL_ERR(ACL_ERROR_REPEAT_INITIALIZE, aclInit(NULL));
	ACL_OK(aclFinalizeReference(&refs));
	ck_assert_uint_eq(refs, 1);
	ck_assert_int_eq(fini_calls.n, 0);
	ACL_OK(aclrtSetDevice(0));
	ACL_OK(aclFinalizeReference(&refs));
	ck_assert_uint_eq(refs, 0);
	ck_assert_int_eq(fini_calls.n, 1);
	ck_assert_ptr_eq(fini_calls.data, &tag);
	/* Called after the teardown. */
	ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&dev));

	ACL_OK(aclInit(NULL));
	fini_calls.ret = ACL_ERROR_INTERNAL_ERROR;
	ACL_ERR(ACL_ERROR_INTERNAL_ERROR, aclFinalize());
	ck_assert_int_eq(fini_calls.n, 2);
	ACL_ERR(ACL_ERROR_REPEAT_FINALIZE, aclFinalize());
	ck_assert_int_eq(fini_calls.n, 2);
	ACL_OK(aclFinalizeCallbackUnRegister(ACL_REG_TYPE_ACL_DVPP, on_fini));
	ACL_OK(aclInit(NULL));
	ACL_OK(aclFinalize());
	ck_assert_int_eq(fini_calls.n, 2);
}
END_TEST

#define MAX_EVENTS 16

static struct {
	int n;
	int32_t dev[MAX_EVENTS];
	aclrtDeviceState state[MAX_EVENTS];
	void *args[MAX_EVENTS];
	int32_t current[MAX_EVENTS];	/* aclrtGetDevice inside, -1 if none */
} events;

static void on_state(int32_t device, aclrtDeviceState state, void *args)
{
	int32_t cur = -1;

	if (events.n == MAX_EVENTS)
		return;
	if (aclrtGetDevice(&cur))
		cur = -1;
	events.dev[events.n] = device;
	events.state[events.n] = state;
	events.args[events.n] = args;
	events.current[events.n] = cur;
	events.n++;
}

START_TEST(device_state_callbacks_around_set_and_reset)
{
	int tag;

	ACL_OK(aclInit(NULL));
	ACL_OK(aclrtRegDeviceStateCallback("query-test", on_state, &tag));
	ACL_OK(aclrtSetDevice(0));
	ACL_OK(aclrtResetDevice(0));
	ck_assert_int_eq(events.n, 4);
	ck_assert_int_eq(events.state[0], ACL_RT_DEVICE_STATE_SET_PRE);
	ck_assert_int_eq(events.state[1], ACL_RT_DEVICE_STATE_SET_POST);
	ck_assert_int_eq(events.state[2], ACL_RT_DEVICE_STATE_RESET_PRE);
	ck_assert_int_eq(events.state[3], ACL_RT_DEVICE_STATE_RESET_POST);
	ck_assert_int_eq(events.dev[0], 0);
	ck_assert_int_eq(events.dev[3], 0);
	ck_assert_ptr_eq(events.args[1], &tag);
	/* Before the set there is no device; after it, the device is current
	 * (no runtime lock is held: the callback could ask). */
	ck_assert_int_eq(events.current[0], -1);
	ck_assert_int_eq(events.current[1], 0);
	ck_assert_int_eq(events.current[3], -1);

	/* A failed set: PRE only. */
	events.n = 0;
	ck_assert_int_ne(aclrtSetDevice(60), ACL_SUCCESS);
	ck_assert_int_eq(events.n, 1);
	ck_assert_int_eq(events.state[0], ACL_RT_DEVICE_STATE_SET_PRE);
	ck_assert_int_eq(events.dev[0], 60);

	ACL_OK(aclrtResetDeviceForce(0));
	ck_assert_int_eq(events.n, 3);
	ck_assert_int_eq(events.state[2], ACL_RT_DEVICE_STATE_RESET_POST);

	/* Removed: no more calls. */
	ACL_OK(aclrtRegDeviceStateCallback("query-test", NULL, NULL));
	events.n = 0;
	ACL_OK(aclrtSetDevice(0));
	ACL_OK(aclrtResetDevice(0));
	ck_assert_int_eq(events.n, 0);
	ACL_OK(aclFinalize());
}
END_TEST

START_TEST(device_state_callback_arguments)
{
	char name[16];
	int i;

	ACL_OK(aclrtRegDeviceStateCallback("a", on_state, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtRegDeviceStateCallback("a", on_state, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtRegDeviceStateCallback("b", NULL, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtRegDeviceStateCallback(NULL, on_state, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtRegDeviceStateCallback("", on_state, NULL));
	ACL_OK(aclrtRegDeviceStateCallback("a", NULL, NULL));
	for (i = 0; i < 32; i++) {
		snprintf(name, sizeof(name), "cb%d", i);
		ACL_OK(aclrtRegDeviceStateCallback(name, on_state, NULL));
	}
	ACL_ERR(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, aclrtRegDeviceStateCallback("one-more", on_state, NULL));
}
END_TEST

/* ---- two devices -------------------------------------------------------------- */

START_TEST(two_devices_have_distinct_identities)
{
	aclrtUtilizationInfo u = { 0 };
	char id0[16], id1[16];
	aclrtUuid a, b;
	uint64_t topo = 0;
	int32_t dev = -1, active = -1;

	if (device_count() < 2)
		return; /* suite acl_query_multi boots with two devices */
	ACL_OK(aclrtDeviceGetUuid(0, &a));
	ACL_OK(aclrtDeviceGetUuid(1, &b));
	ck_assert(memcmp(a.bytes, b.bytes, sizeof(a.bytes)) != 0);
	ACL_OK(aclrtDeviceGetPCIBusId(0, id0, sizeof(id0)));
	ACL_OK(aclrtDeviceGetPCIBusId(1, id1, sizeof(id1)));
	ck_assert_str_eq(id0, "0000:01:00.0");
	ck_assert_str_eq(id1, "0000:02:00.0");
	ACL_OK(aclrtDeviceGetByPCIBusId(id1, &dev));
	ck_assert_int_eq(dev, 1);
	ACL_OK(aclrtDeviceGetByPCIBusId("0000:02:00.0", &dev));
	ck_assert_int_eq(dev, 1);
	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtDeviceGetByPCIBusId("0000:03:00.0", &dev));

	ACL_OK(aclrtGetDevicesTopo(0, 1, &topo));
	ck_assert_uint_eq(topo, ACL_RT_DEVS_TOPOLOGY_PIX);
	ACL_OK(aclrtGetDevicesTopo(1, 0, &topo));
	ck_assert_uint_eq(topo, ACL_RT_DEVS_TOPOLOGY_PIX);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetDevicesTopo(1, 1, &topo));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetDevicesTopo(0, 1, NULL));
	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetDevicesTopo(0, 2, &topo));

	/* Device 0 is set (the fixture), device 1 is not. */
	ACL_OK(aclrtGetPrimaryCtxState(1, NULL, &active));
	ck_assert_int_eq(active, 0);
	ACL_OK(aclrtGetPrimaryCtxState(0, NULL, &active));
	ck_assert_int_eq(active, 1);
	/* A device this process has not opened has done no work of ours. */
	u.cubeUtilization = -5;
	ACL_OK(aclrtGetDeviceUtilizationRate(1, &u));
	ck_assert_int_eq(u.cubeUtilization, 0);
	ACL_OK(aclrtGetDeviceInfo(1, ACL_DEV_ATTR_PHY_CHIP_ID, (int64_t *)&topo));
	ck_assert_uint_eq(topo, 1);
}
END_TEST

START_TEST(topology_needs_two_devices)
{
	uint64_t topo;

	if (device_count() > 1)
		return;
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetDevicesTopo(0, 0, &topo));
	ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetDevicesTopo(0, 1, &topo));
}
END_TEST

static void reset_calls(void)
{
	memset(&init_calls, 0, sizeof(init_calls));
	memset(&fini_calls, 0, sizeof(fini_calls));
	memset(&events, 0, sizeof(events));
}

int main(void)
{
	Suite *s = suite_create("acl_query");
	TCase *tc;

	tc = acl_tcase("devices", true, 60);
	tcase_add_test(tc, device_info_reports_the_module);
	tcase_add_test(tc, device_info_bad_arguments);
	tcase_add_test(tc, capabilities);
	tcase_add_test(tc, device_status_follows_the_engine_server);
	tcase_add_test(tc, stream_priority_range);
	tcase_add_test(tc, uuid_is_stable);
	tcase_add_test(tc, pci_bus_id_round_trip);
	tcase_add_test(tc, device_id_mappings_are_the_identity);
	tcase_add_test(tc, arch_compatibility);
	tcase_add_test(tc, memory_usage_counts_allocations);
	tcase_add_test(tc, error_verbose_reports_a_failed_stream);
	tcase_add_test(tc, utilization_rises_while_operators_run);
	tcase_add_test(tc, utilization_bad_arguments);
	tcase_add_test(tc, queries_from_many_threads_agree);
	tcase_add_test(tc, topology_needs_two_devices);
	suite_add_tcase(s, tc);

	tc = acl_tcase("nodevice", false, 30);
	tcase_add_test(tc, queries_need_no_set_device);
	tcase_add_test(tc, primary_context_state_follows_set_and_reset);
	tcase_add_test(tc, resource_in_current_thread_needs_a_context);
	tcase_add_test(tc, context_parameters_need_a_context);
	suite_add_tcase(s, tc);

	tc = acl_tcase("limits", true, 30);
	tcase_add_test(tc, device_limits);
	tcase_add_test(tc, device_resource_limits);
	tcase_add_test(tc, system_parameters);
	tcase_add_test(tc, saturation_mode);
	suite_add_tcase(s, tc);

	tc = acl_tcase("system", false, 30);
	tcase_add_test(tc, package_versions);
	tcase_add_test(tc, cann_attributes);
	tcase_add_test(tc, float16_conversions);
	tcase_add_test(tc, app_log_default_level_is_error);
	tcase_add_test(tc, app_log_follows_ascend_global_log_level);
	tcase_add_test(tc, app_log_level_4_is_silent);
	suite_add_tcase(s, tc);

	tc = acl_tcase("callbacks", false, 30);
	tcase_add_checked_fixture(tc, reset_calls, NULL);
	tcase_add_test(tc, init_callback_registered_before_init_runs_at_init);
	tcase_add_test(tc, init_callback_registered_after_init_runs_at_once);
	tcase_add_test(tc, unregistered_init_callback_is_not_called);
	tcase_add_test(tc, finalize_callbacks_run_when_torn_down);
	tcase_add_test(tc, device_state_callbacks_around_set_and_reset);
	tcase_add_test(tc, device_state_callback_arguments);
	suite_add_tcase(s, tc);

	tc = acl_tcase("multidev", true, 30);
	tcase_add_test(tc, two_devices_have_distinct_identities);
	suite_add_tcase(s, tc);

	return acl_test_run(s);
}
