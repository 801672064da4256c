// SPDX-License-Identifier: MIT
/*
 * A CANN-style sample in plain C11: what a program learns about its
 * devices and its software stack before it starts work, and device
 * queries made from several threads at once: versions, CANN attributes,
 * device attributes, identities (UUID, PCI bus id and the id mappings),
 * status, utilisation, memory use, limits, a device state callback and
 * the error details.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"

#define INFO_LOG(...) (printf("[INFO]  " __VA_ARGS__), printf("\n"))
#define ERROR_LOG(...) (printf("[ERROR] " __VA_ARGS__), printf("\n"))

#define CHECK(call)                                                                         \
	do {                                                                                \
		aclError r_ = (call);                                                       \
		if (r_ != ACL_SUCCESS) {                                                    \
			const char *m_ = aclGetRecentErrMsg();                              \
			ERROR_LOG("%s failed: %d (%s)", #call, r_, m_ ? m_ : "no message"); \
			exit(1);                                                            \
		}                                                                           \
	} while (0)

#define THREADS 4

static int state_events;

static void on_device_state(int32_t deviceId, aclrtDeviceState state, void *args)
{
	(void)deviceId;
	(void)state;
	(void)args;
	state_events++;
}

struct worker {
	int32_t device;
	int64_t cores;
	char pci[16];
	int ok;
};

/* Each thread sets the device and asks about it. */
static void *worker_main(void *arg)
{
	struct worker *w = arg;
	aclrtMemUsageInfo usage[2];
	void *mem = NULL;
	size_t n = 0;
	int32_t cur = -1;

	if (aclrtSetDevice(w->device) != ACL_SUCCESS)
		return NULL;
	if (aclrtMalloc(&mem, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS &&
	    aclrtGetDevice(&cur) == ACL_SUCCESS && cur == w->device &&
	    aclrtGetDeviceInfo((uint32_t)w->device, ACL_DEV_ATTR_AICORE_CORE_NUM, &w->cores) == ACL_SUCCESS &&
	    aclrtDeviceGetPCIBusId(w->device, w->pci, (int32_t)sizeof(w->pci)) == ACL_SUCCESS &&
	    aclrtGetMemUsageInfo(w->device, usage, 2, &n) == ACL_SUCCESS && n == 2 &&
	    aclrtGetDeviceUtilizationRate(w->device, &(aclrtUtilizationInfo){ 0 }) == ACL_SUCCESS)
		w->ok = 1;
	if (mem)
		aclrtFree(mem);
	aclrtResetDevice(w->device);
	return NULL;
}

int main(void)
{
	char runtime[] = "runtime", version[ACL_PKG_VERSION_MAX_SIZE];
	const aclCannAttr *attrs = NULL;
	struct worker workers[THREADS];
	pthread_t threads[THREADS];
	aclrtDeviceStatus status;
	aclrtErrorInfo err_info;
	int32_t least, greatest, compatible = 0, logic = -1, phy = -1, back = -1, active = 0;
	uint32_t count = 0, cube = 0;
	int64_t cores = 0, mem = 0;
	int32_t version_num = 0;
	size_t nattrs = 0, stack = 0;
	aclrtUuid uuid;
	char pci[16];
	int i, all_ok = 1;

	CHECK(aclInit(NULL));
	CHECK(aclsysGetVersionStr(runtime, version));
	CHECK(aclsysGetVersionNum(runtime, &version_num));
	INFO_LOG("runtime version %s (%d)", version, (int)version_num);
	CHECK(aclGetCannAttributeList(&attrs, &nattrs));
	INFO_LOG("CANN attributes available: %zu", nattrs);
	CHECK(aclrtCheckArchCompatibility(aclrtGetSocName(), &compatible));
	INFO_LOG("operators built for %s run here: %s", aclrtGetSocName(), compatible ? "yes" : "no");

	CHECK(aclrtRegDeviceStateCallback("device_query", on_device_state, NULL));
	CHECK(aclrtGetDeviceCount(&count));
	INFO_LOG("devices: %u", count);

	CHECK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &cores));
	CHECK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &mem));
	INFO_LOG("device 0: %lld AI cores, %lld MiB", (long long)cores, (long long)(mem >> 20));
	CHECK(aclrtQueryDeviceStatus(0, &status));
	INFO_LOG("device 0 status: %s", status == ACL_RT_DEVICE_STATUS_NORMAL ? "normal" : "abnormal");
	CHECK(aclrtDeviceGetUuid(0, &uuid));
	CHECK(aclrtDeviceGetPCIBusId(0, pci, (int32_t)sizeof(pci)));
	CHECK(aclrtDeviceGetByPCIBusId(pci, &back));
	INFO_LOG("device 0 PCI bus id %s maps back to device %d", pci, (int)back);
	CHECK(aclrtGetLogicDevIdByUserDevId(0, &logic));
	CHECK(aclrtGetPhyDevIdByLogicDevId(logic, &phy));
	INFO_LOG("user device 0 -> logical %d -> physical %d", (int)logic, (int)phy);
	CHECK(aclrtDeviceGetStreamPriorityRange(&least, &greatest));
	INFO_LOG("stream priorities: %d (least) to %d (greatest)", (int)least, (int)greatest);
	CHECK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &stack));
	INFO_LOG("SIMD stack per core: %zu bytes", stack);

	CHECK(aclrtSetDevice(0));
	CHECK(aclrtGetPrimaryCtxState(0, NULL, &active));
	INFO_LOG("primary context active: %d", (int)active);
	CHECK(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &cube));
	INFO_LOG("cube cores for this thread: %u", cube);

	for (i = 0; i < THREADS; i++) {
		memset(&workers[i], 0, sizeof(workers[i]));
		workers[i].device = i % (int)count;
		if (pthread_create(&threads[i], NULL, worker_main, &workers[i]))
			exit(1);
	}
	for (i = 0; i < THREADS; i++) {
		pthread_join(threads[i], NULL);
		all_ok &= workers[i].ok;
	}
	INFO_LOG("queries from %d threads: %s", THREADS, all_ok ? "all consistent" : "FAILED");

	CHECK(aclrtGetErrorVerbose(0, &err_info));
	INFO_LOG("device 0 error: %s", err_info.errorType == ACL_RT_NO_ERROR ? "none" : "some");
	CHECK(aclrtResetDevice(0));
	INFO_LOG("device state callbacks: %s", state_events >= 4 ? "seen" : "missing");
	CHECK(aclFinalize());
	INFO_LOG("done");
	return all_ok ? 0 : 1;
}
