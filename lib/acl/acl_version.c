// SPDX-License-Identifier: MIT
/*
 * acl_version.c - what the software stack is: package versions, CANN
 * attributes, binary16 conversions and application logs.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "acl_internal.h"
#include "vnpu_ops.h"

/* The CANN release whose headers vnpu follows (acl_rt.h's declarations are
 * those of CANN 9.0.0's runtime): the version of every package vnpu
 * provides but the driver. */
#define CANN_MAJOR 9
#define CANN_MINOR 0
#define CANN_PATCH 0

struct pkg_version {
	unsigned int major, minor, patch;
};

/* The vnpu module's ABI, read from device 0: the "driver" version. */
static aclError driver_version(struct pkg_version *v)
{
	uint64_t abi = 0;
	aclError ret = rt_device_param(0, VNPU_PARAM_ABI_VERSION, &abi);

	if (ret)
		return rt_err(ACL_ERROR_INVALID_FILE, "the driver package (the vnpu module) is not loaded");
	v->major = (unsigned int)(abi >> 16);
	v->minor = (unsigned int)(abi & 0xffff);
	v->patch = 0;
	return ACL_SUCCESS;
}

/* The version of package @name ("runtime", ...). */
static aclError pkg_lookup(const char *name, struct pkg_version *v)
{
	static const char *const provided[] = { "cann", "runtime", "opp", "opp_kernel" };
	size_t i;

	if (!strcmp(name, "driver"))
		return driver_version(v);
	for (i = 0; i < sizeof(provided) / sizeof(provided[0]); i++) {
		if (!strcmp(name, provided[i])) {
			*v = (struct pkg_version){ CANN_MAJOR, CANN_MINOR, CANN_PATCH };
			return ACL_SUCCESS;
		}
	}
	return rt_err(ACL_ERROR_INVALID_FILE, "package \"%s\" is not installed (vnpu provides cann, runtime, "
		      "opp, opp_kernel and driver)", name);
}

aclError aclsysGetCANNVersion(aclCANNPackageName name, aclCANNPackageVersion *version)
{
	static const char *const names[] = {
		[ACL_PKG_NAME_CANN] = "cann",		[ACL_PKG_NAME_RUNTIME] = "runtime",
		[ACL_PKG_NAME_COMPILER] = "compiler",	[ACL_PKG_NAME_HCCL] = "hccl",
		[ACL_PKG_NAME_TOOLKIT] = "toolkit",	[ACL_PKG_NAME_OPP] = "opp",
		[ACL_PKG_NAME_OPP_KERNEL] = "opp_kernel", [ACL_PKG_NAME_DRIVER] = "driver",
	};
	struct pkg_version v;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(version);
	if ((unsigned int)name >= sizeof(names) / sizeof(names[0]))
		return rt_err(ACL_ERROR_INVALID_PARAM, "%d is not an aclCANNPackageName", (int)name);
	ret = pkg_lookup(names[name], &v);
	if (ret)
		return ret;
	memset(version, 0, sizeof(*version));
	snprintf(version->version, sizeof(version->version), "%u.%u.%u", v.major, v.minor, v.patch);
	snprintf(version->majorVersion, sizeof(version->majorVersion), "%u", v.major);
	snprintf(version->minorVersion, sizeof(version->minorVersion), "%u", v.minor);
	snprintf(version->releaseVersion, sizeof(version->releaseVersion), "%u", v.patch);
	snprintf(version->patchVersion, sizeof(version->patchVersion), "0");
	return ACL_SUCCESS;
}

/* The version of @name for a caller whose output is @out (NULL checks). */
static aclError pkg_query(const char *name, const void *out, struct pkg_version *v)
{
	ACL_REQUIRE(name);
	if (!out)
		return rt_err(ACL_ERROR_INVALID_PARAM, "the output must not be NULL");
	return pkg_lookup(name, v);
}

aclError aclsysGetVersionStr(char *pkgName, char *versionStr)
{
	struct pkg_version v;
	aclError ret;

	ACL_ENTER();
	ret = pkg_query(pkgName, versionStr, &v);
	if (!ret)
		snprintf(versionStr, ACL_PKG_VERSION_MAX_SIZE, "%u.%u.%u", v.major, v.minor, v.patch);
	return ret;
}

aclError aclsysGetVersionNum(char *pkgName, int32_t *versionNum)
{
	struct pkg_version v;
	aclError ret;

	ACL_ENTER();
	ret = pkg_query(pkgName, versionNum, &v);
	if (ret)
		return ret;
	if (v.major > 200 || v.minor > 99 || v.patch > 99)
		return rt_err(ACL_ERROR_INTERNAL_ERROR, "version %u.%u.%u of \"%s\" has no number", v.major, v.minor,
			      v.patch, pkgName);
	/* CANN's weights: major 10^7, minor 10^5, patch 10^3. */
	*versionNum = (int32_t)(v.major * 10000000u + v.minor * 100000u + v.patch * 1000u);
	return ACL_SUCCESS;
}

/* ---- CANN attributes ------------------------------------------------------ */

/* IEEE inf/NaN results and bf16 operands: what vnpu's operators do. */
static const aclCannAttr cann_attrs[] = { ACL_CANN_ATTR_INF_NAN, ACL_CANN_ATTR_BF16 };

aclError aclGetCannAttributeList(const aclCannAttr **cannAttrList, size_t *num)
{
	ACL_ENTER();
	ACL_REQUIRE(cannAttrList);
	ACL_REQUIRE(num);
	*cannAttrList = cann_attrs;
	*num = sizeof(cann_attrs) / sizeof(cann_attrs[0]);
	return ACL_SUCCESS;
}

aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t *value)
{
	size_t i;

	ACL_ENTER();
	ACL_REQUIRE(value);
	if (cannAttr != ACL_CANN_ATTR_INF_NAN && cannAttr != ACL_CANN_ATTR_BF16 &&
	    cannAttr != ACL_CANN_ATTR_JIT_COMPILE)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%d is not an aclCannAttr", (int)cannAttr);
	*value = 0;
	for (i = 0; i < sizeof(cann_attrs) / sizeof(cann_attrs[0]); i++)
		if (cann_attrs[i] == cannAttr)
			*value = 1;
	return ACL_SUCCESS;
}

/* ---- binary16 ------------------------------------------------------------- */

/* The operator library's conversions, so host and device round alike. */
float aclFloat16ToFloat(aclFloat16 value)
{
	return vops_f16_to_f32(value);
}

aclFloat16 aclFloatToFloat16(float value)
{
	return vops_f32_to_f16(value);
}

/* ---- application logs ----------------------------------------------------- */

static pthread_once_t log_once = PTHREAD_ONCE_INIT;
static int log_threshold = ACL_ERROR;

/* ASCEND_GLOBAL_LOG_LEVEL: 0-3 as aclLogLevel, 4 nothing. */
static void read_log_level(void)
{
	const char *env = getenv("ASCEND_GLOBAL_LOG_LEVEL");
	char *end;
	long v;

	if (!env || !*env)
		return;
	v = strtol(env, &end, 10);
	if (!*end && v >= ACL_DEBUG && v <= ACL_ERROR + 1)
		log_threshold = (int)v;
}

void aclAppLog(aclLogLevel logLevel, const char *func, const char *file, uint32_t line, const char *fmt, ...)
{
	static const char *const names[] = { "DEBUG", "INFO", "WARNING", "ERROR" };
	char msg[1024];
	va_list ap;

	if (!fmt || (int)logLevel < ACL_DEBUG || (int)logLevel > ACL_ERROR)
		return;
	pthread_once(&log_once, read_log_level);
	if ((int)logLevel < log_threshold)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* One write per line, so lines of different threads do not mix. */
	fprintf(stderr, "[%s] APP(%d,%ld) %s:%u %s: %s\n", names[logLevel], (int)getpid(),
		(long)syscall(SYS_gettid), file ? file : "?", line, func ? func : "?", msg);
}
