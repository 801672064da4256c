// SPDX-License-Identifier: MIT
/*
 * acl_query.c - device queries: attributes, capabilities, status,
 * utilisation, identities (UUID, PCI bus id, id mappings), topology,
 * memory use and error details.
 *
 * Every figure comes from the module (GET_PARAM, fdinfo) or from the
 * runtime's own records; a query never needs aclrtSetDevice (a device the
 * process has not opened is asked through a file opened for the query).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "acl_internal.h"

/* The PCI bus number of device @index: bus 0 is a host bridge on real
 * machines, so devices start at 1. */
#define QUERY_PCI_BUS(index) ((index) + 1)
#define QUERY_PCI_ID_LEN 12	/* "dddd:bb:dd.f" */

/* Fetch a device parameter. */
static aclError dev_param(int32_t dev, uint32_t param, int64_t *value)
{
	uint64_t v = 0;
	aclError ret = rt_device_param(dev, param, &v);

	if (!ret)
		*value = (int64_t)v;
	return ret;
}

/*
 * The checks every device query starts with: its output @out (named @what
 * in the message) is not NULL, and @dev names a device (ids are uint32_t
 * in some prototypes, int32_t in others).
 */
static aclError query_check(int64_t dev, const void *out, const char *what)
{
	if (!out)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%s must not be NULL", what);
	if (dev < 0 || dev > INT32_MAX)
		return rt_err(ACL_ERROR_RT_INVALID_DEVICEID, "device id %lld is out of range", (long long)dev);
	return rt_device_check_id((int32_t)dev);
}

static aclError not_supported_attr(int attr)
{
	return rt_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "device attribute %d has no vnpu figure", attr);
}

aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t *value)
{
	aclError ret;

	ACL_ENTER();
	ret = query_check(deviceId, value, "value");
	if (ret)
		return ret;
	switch (attr) {
	case ACL_DEV_ATTR_AICORE_CORE_NUM:
	case ACL_DEV_ATTR_CUBE_CORE_NUM:
	case ACL_DEV_ATTR_VECTOR_CORE_NUM:
		/* Each engine runs one operator at a time: vnpu's cores. */
		return dev_param((int32_t)deviceId, VNPU_PARAM_NUM_ENGINES, value);
	case ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE:
		return dev_param((int32_t)deviceId, VNPU_PARAM_MEM_CAPACITY, value);
	case ACL_DEV_ATTR_AICPU_CORE_NUM:
	case ACL_DEV_ATTR_L2_CACHE_SIZE:
	case ACL_DEV_ATTR_SMP_ID:
	case ACL_DEV_ATTR_MAINBOARD_ID:
	case ACL_DEV_ATTR_CUST_OP_PRIVILEGE:
	case ACL_DEV_ATTR_IS_VIRTUAL:
		*value = 0;
		return ACL_SUCCESS;
	case ACL_DEV_ATTR_PHY_CHIP_ID:
		*value = deviceId;
		return ACL_SUCCESS;
	case ACL_DEV_ATTR_HD_CONNECT_TYPE:
		*value = ACL_HOST_DEVICE_CONNECT_TYPE_PCIE;
		return ACL_SUCCESS;
	case ACL_DEV_ATTR_DEVICE_FORM_FACTOR:
		*value = ACL_DEVICE_FORM_FACTOR_PCIE_CARD;
		return ACL_SUCCESS;
	case ACL_DEV_ATTR_WARP_SIZE:
	case ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE:
	case ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE:
	case ACL_DEV_ATTR_MAX_GRID_DIM_X:
	case ACL_DEV_ATTR_MAX_GRID_DIM_Y:
	case ACL_DEV_ATTR_MAX_GRID_DIM_Z:
	case ACL_DEV_ATTR_MAX_BLOCK_PER_GRID:
	case ACL_DEV_ATTR_MAX_THREADS_PER_BLOCK:
	case ACL_DEV_ATTR_MAX_BLOCK_DIM_X:
	case ACL_DEV_ATTR_MAX_BLOCK_DIM_Y:
	case ACL_DEV_ATTR_MAX_BLOCK_DIM_Z:
	case ACL_DEV_ATTR_SUPER_POD_DEVICE_ID:
	case ACL_DEV_ATTR_SUPER_POD_SERVER_ID:
	case ACL_DEV_ATTR_SUPER_POD_ID:
	case ACL_DEV_ATTR_SUPER_POD_CHASSIS_ID:
	case ACL_DEV_ATTR_NPU_ARCH:
		return not_supported_attr((int)attr);
	}
	return rt_err(ACL_ERROR_RT_PARAM_INVALID, "%d is not an aclrtDevAttr", (int)attr);
}

aclError aclrtGetDeviceCapability(int32_t deviceId, aclrtDevFeatureType devFeatureType, int32_t *value)
{
	aclError ret;

	ACL_ENTER();
	ret = query_check(deviceId, value, "value");
	if (ret)
		return ret;
	switch (devFeatureType) {
	case ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV:
	case ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV:
		/* No AI CPU task scheduler, no memory queues. */
		*value = ACL_DEV_FEATURE_NOT_SUPPORT;
		return ACL_SUCCESS;
	}
	return rt_err(ACL_ERROR_RT_PARAM_INVALID, "%d is not an aclrtDevFeatureType", (int)devFeatureType);
}

aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo, int64_t *value)
{
	aclError ret;

	ACL_ENTER();
	ret = query_check(deviceId, value, "value");
	if (ret)
		return ret;
	switch (deviceInfo) {
	case ACL_DEVICE_INFO_AI_CORE_NUM:
	case ACL_DEVICE_INFO_VECTOR_CORE_NUM:
		return dev_param((int32_t)deviceId, VNPU_PARAM_NUM_ENGINES, value);
	case ACL_DEVICE_INFO_L2_SIZE:
		*value = 0;
		return ACL_SUCCESS;
	case ACL_DEVICE_INFO_UNDEFINED:
		break;
	}
	return rt_err(ACL_ERROR_INVALID_PARAM, "%d is not an aclDeviceInfo", (int)deviceInfo);
}

aclError aclrtQueryDeviceStatus(int32_t deviceId, aclrtDeviceStatus *deviceStatus)
{
	int64_t attached = 0;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(deviceStatus);
	ret = dev_param(deviceId, VNPU_PARAM_ENGINE_ATTACHED, &attached);
	if (ret)
		return ret;
	/* Without an engine server the device takes no work. */
	*deviceStatus = attached ? ACL_RT_DEVICE_STATUS_NORMAL : ACL_RT_DEVICE_STATUS_ABNORMAL;
	return ACL_SUCCESS;
}

/* Percent of @engines engines busy for @busy ns out of @wall ns. */
static int32_t busy_share(uint64_t busy, int64_t wall, int64_t engines)
{
	double share;

	if (wall <= 0 || engines <= 0)
		return 0;
	share = 100.0 * (double)busy / ((double)wall * (double)engines);
	return share > 100.0 ? 100 : (int32_t)(share + 0.5);
}

aclError aclrtGetDeviceUtilizationRate(int32_t deviceId, aclrtUtilizationInfo *utilizationInfo)
{
	struct rt_dev *dev;
	int64_t engines = 0, now;
	uint64_t busy = 0;
	int32_t share = 0;
	aclError ret;
	int err;

	ACL_ENTER();
	ACL_REQUIRE(utilizationInfo);
	if (utilizationInfo->utilizationExtend)
		return rt_err(ACL_ERROR_INVALID_PARAM, "utilizationInfo->utilizationExtend is reserved: pass NULL");
	ret = dev_param(deviceId, VNPU_PARAM_NUM_ENGINES, &engines);
	if (ret)
		return ret;
	dev = rt_device_get_open(deviceId);
	if (dev) {
		err = drv_engine_busy_ns(dev->fd, &busy);
		if (err) {
			rt_dev_put(dev);
			return rt_err_errno(err, "cannot read the engine time of vnpu device %d", deviceId);
		}
		/* The share since the previous sample, which this one replaces:
		 * concurrent callers each get a disjoint interval. */
		pthread_mutex_lock(&dev->util_lock);
		now = rt_now_ns();
		share = busy_share(busy - dev->util_busy_ns, now - dev->util_ns, engines);
		dev->util_ns = now;
		dev->util_busy_ns = busy;
		pthread_mutex_unlock(&dev->util_lock);
		rt_dev_put(dev);
	}
	utilizationInfo->cubeUtilization = share;
	utilizationInfo->vectorUtilization = share;
	utilizationInfo->aicpuUtilization = -1;
	utilizationInfo->memoryUtilization = -1;
	return ACL_SUCCESS;
}

aclError aclrtDeviceGetStreamPriorityRange(int32_t *leastPriority, int32_t *greatestPriority)
{
	ACL_ENTER();
	ACL_REQUIRE(leastPriority);
	ACL_REQUIRE(greatestPriority);
	/* CANN's priorities: 0 runs first, 7 last (aclrtCreateStreamWithConfig). */
	*leastPriority = 7;
	*greatestPriority = 0;
	return ACL_SUCCESS;
}

aclError aclrtDeviceGetUuid(int32_t deviceId, aclrtUuid *uuid)
{
	static const char tag[] = "vnpu";
	aclError ret;

	ACL_ENTER();
	ret = query_check(deviceId, uuid, "uuid");
	if (ret)
		return ret;
	/* Derived from the index alone, so the same device has the same UUID
	 * in every process and boot. */
	memset(uuid->bytes, 0, sizeof(uuid->bytes));
	memcpy(uuid->bytes, tag, sizeof(tag) - 1);
	uuid->bytes[6] = (char)0x80;	/* version 8: vendor-defined */
	uuid->bytes[8] = (char)0x80;	/* RFC 9562 variant */
	uuid->bytes[14] = (char)((deviceId >> 8) & 0xff);
	uuid->bytes[15] = (char)(deviceId & 0xff);
	return ACL_SUCCESS;
}

aclError aclrtDeviceGetPCIBusId(int32_t deviceId, char *pciBusId, int32_t len)
{
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(pciBusId);
	if (len < QUERY_PCI_ID_LEN + 1)
		return rt_err(ACL_ERROR_INVALID_PARAM, "len %d is too small: a PCI bus id needs %d bytes", len,
			      QUERY_PCI_ID_LEN + 1);
	ret = rt_device_check_id(deviceId);
	if (ret)
		return ret;
	snprintf(pciBusId, (size_t)len, "%04x:%02x:%02x.%x", 0u, (unsigned int)QUERY_PCI_BUS(deviceId), 0u, 0u);
	return ACL_SUCCESS;
}

/* Parse "dddd:bb:dd.f" or "bb:dd.f" (hexadecimal, nothing after it). */
static bool parse_bus_id(const char *s, unsigned int *domain, unsigned int *bus, unsigned int *slot,
			 unsigned int *fn)
{
	unsigned int part[4];
	int n = 0, got, i;
	size_t len = strlen(s);

	for (i = 0; s[i]; i++)
		if (!isxdigit((unsigned char)s[i]) && s[i] != ':' && s[i] != '.')
			return false;
	got = sscanf(s, "%x:%x:%x.%x%n", &part[0], &part[1], &part[2], &part[3], &n);
	if (got == 4 && (size_t)n == len) {
		*domain = part[0];
		*bus = part[1];
		*slot = part[2];
		*fn = part[3];
		return true;
	}
	n = 0;
	got = sscanf(s, "%x:%x.%x%n", &part[1], &part[2], &part[3], &n);
	if (got == 3 && (size_t)n == len) {
		*domain = 0;
		*bus = part[1];
		*slot = part[2];
		*fn = part[3];
		return true;
	}
	return false;
}

aclError aclrtDeviceGetByPCIBusId(const char *pciBusId, int32_t *deviceId)
{
	unsigned int domain, bus, slot, fn;
	uint32_t count;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(pciBusId);
	ACL_REQUIRE(deviceId);
	if (!parse_bus_id(pciBusId, &domain, &bus, &slot, &fn))
		return rt_err(ACL_ERROR_INVALID_PARAM, "\"%s\" is not a PCI bus id (dddd:bb:dd.f)", pciBusId);
	ret = rt_device_count(&count);
	if (ret)
		return ret;
	if (domain || slot || fn || bus < QUERY_PCI_BUS(0u) || bus >= QUERY_PCI_BUS(count))
		return rt_err(ACL_ERROR_RT_INVALID_DEVICEID, "no vnpu device has PCI bus id \"%s\"", pciBusId);
	*deviceId = (int32_t)(bus - QUERY_PCI_BUS(0u));
	return ACL_SUCCESS;
}

aclError aclrtGetDevicesTopo(uint32_t deviceId, uint32_t otherDeviceId, uint64_t *value)
{
	aclError ret;

	ACL_ENTER();
	ret = query_check(deviceId, value, "value");
	if (!ret)
		ret = query_check(otherDeviceId, value, "value");
	if (ret)
		return ret;
	if (deviceId == otherDeviceId)
		return rt_err(ACL_ERROR_INVALID_PARAM, "deviceId and otherDeviceId are both %u: name two devices",
			      deviceId);
	/* One module's devices share the host's memory path, as cards behind
	 * one PCIe switch do. */
	*value = ACL_RT_DEVS_TOPOLOGY_PIX;
	return ACL_SUCCESS;
}

/*
 * The id mappings: vnpu's user, logical and physical ids are one index, so
 * each mapping checks the id and copies it.
 */
#define ACL_ID_MAPPING(name, in, out)                                   \
	aclError name(const int32_t in, int32_t *const out)             \
	{                                                               \
		aclError ret;                                           \
                                                                        \
		ACL_ENTER();                                            \
		ret = query_check(in, out, #out);                       \
		if (!ret)                                               \
			*out = in;                                      \
		return ret;                                             \
	}

ACL_ID_MAPPING(aclrtGetLogicDevIdByUserDevId, userDevid, logicDevId)
ACL_ID_MAPPING(aclrtGetUserDevIdByLogicDevId, logicDevId, userDevid)
ACL_ID_MAPPING(aclrtGetLogicDevIdByPhyDevId, phyDevId, logicDevId)
ACL_ID_MAPPING(aclrtGetPhyDevIdByLogicDevId, logicDevId, phyDevId)
ACL_ID_MAPPING(aclrtGetUserDevIdByPhyDevId, phyDevId, userDevId)
ACL_ID_MAPPING(aclrtGetPhyDevIdByUserDevId, userDevId, phyDevId)

aclError aclrtCheckArchCompatibility(const char *socVersion, int32_t *canCompatible)
{
	ACL_ENTER();
	ACL_REQUIRE(socVersion);
	ACL_REQUIRE(canCompatible);
	if (!*socVersion)
		return rt_err(ACL_ERROR_INVALID_PARAM, "socVersion is empty");
	*canCompatible = !strcmp(socVersion, aclrtGetSocName());
	return ACL_SUCCESS;
}

aclError aclrtGetPrimaryCtxState(int32_t deviceId, uint32_t *flags, int32_t *active)
{
	aclError ret;

	ACL_ENTER();
	ret = query_check(deviceId, active, "active");
	if (ret)
		return ret;
	if (flags)
		*flags = 0;
	*active = rt_device_is_set(deviceId);
	return ACL_SUCCESS;
}

aclError aclrtGetMemUsageInfo(int32_t deviceId, aclrtMemUsageInfo *memUsageInfo, size_t inputNum,
			      size_t *outputNum)
{
	static const char *const names[2] = { "device", "host" };
	uint64_t use[2] = { 0, 0 }, peak[2] = { 0, 0 };
	struct rt_dev *dev;
	size_t n = 0, i;
	aclError ret;
	int first;

	ACL_ENTER();
	ACL_REQUIRE(outputNum);
	if (!inputNum)
		return rt_err(ACL_ERROR_INVALID_PARAM, "inputNum is 0");
	ret = query_check(deviceId, memUsageInfo, "memUsageInfo");
	if (ret)
		return ret;
	dev = rt_device_get_open(deviceId);
	if (dev) {
		pthread_rwlock_rdlock(&dev->mem_lock);
		memcpy(use, dev->mem_use, sizeof(use));
		memcpy(peak, dev->mem_peak, sizeof(peak));
		pthread_rwlock_unlock(&dev->mem_lock);
		rt_dev_put(dev);
	}
	/* Largest current use first. */
	first = use[1] > use[0];
	for (i = 0; i < 2 && n < inputNum; i++, n++) {
		int c = i ? !first : first;

		memset(&memUsageInfo[n], 0, sizeof(memUsageInfo[n]));
		snprintf(memUsageInfo[n].name, sizeof(memUsageInfo[n].name), "%s", names[c]);
		memUsageInfo[n].curMemSize = use[c];
		memUsageInfo[n].memPeakSize = peak[c];
	}
	*outputNum = n;
	return ACL_SUCCESS;
}

aclError aclrtGetErrorVerbose(int32_t deviceId, aclrtErrorInfo *errorInfo)
{
	struct rt_stream_walk w;
	struct rt_stream *s;
	struct rt_dev *dev;
	bool failed = false;
	aclError ret;

	ACL_ENTER();
	ret = query_check(deviceId, errorInfo, "errorInfo");
	if (ret)
		return ret;
	memset(errorInfo, 0, sizeof(*errorInfo));
	errorInfo->errorType = ACL_RT_NO_ERROR;
	dev = rt_device_get_open(deviceId);
	if (!dev)
		return ACL_SUCCESS;
	/* A task failed on the device: a stream stopped at it, or one went
	 * on past it. Reporting it stays the synchronisations' business. */
	rt_stream_walk_begin(&w, dev);
	while (!failed && (s = rt_stream_walk_next(&w))) {
		failed = rt_stream_has_failed(s);
		rt_stream_put(s);
	}
	rt_dev_put(dev);
	if (failed) {
		errorInfo->errorType = ACL_RT_ERROR_AICORE;
		errorInfo->hasDetail = 1;
		errorInfo->detail.aicoreErrType = ACL_RT_AICORE_ERROR_SW;
	}
	return ACL_SUCCESS;
}
