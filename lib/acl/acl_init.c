// SPDX-License-Identifier: MIT
/*
 * acl_init.c - initialisation, errors, versions.
 */
#include "acl_internal.h"

aclError aclInit(const char *configPath)
{
	ACL_ENTER();
	return rt_init(configPath);
}

aclError aclFinalize(void)
{
	ACL_ENTER();
	return rt_finalize(false, NULL);
}

aclError aclFinalizeReference(uint64_t *refCount)
{
	ACL_ENTER();
	return rt_finalize(true, refCount);
}

const char *aclGetRecentErrMsg(void)
{
	return rt_err_take_message();
}

aclError aclrtGetLastError(aclrtLastErrLevel level)
{
	ACL_ENTER();
	if (level != ACL_RT_THREAD_LEVEL)
		return rt_err(ACL_ERROR_INVALID_PARAM, "level %d is not ACL_RT_THREAD_LEVEL", (int)level);
	return rt_err_last(true);
}

aclError aclrtPeekAtLastError(aclrtLastErrLevel level)
{
	ACL_ENTER();
	if (level != ACL_RT_THREAD_LEVEL)
		return rt_err(ACL_ERROR_INVALID_PARAM, "level %d is not ACL_RT_THREAD_LEVEL", (int)level);
	return rt_err_last(false);
}

aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion, int32_t *patchVersion)
{
	ACL_ENTER();
	ACL_REQUIRE(majorVersion);
	ACL_REQUIRE(minorVersion);
	ACL_REQUIRE(patchVersion);
	*majorVersion = ACL_MAJOR_VERSION;
	*minorVersion = ACL_MINOR_VERSION;
	*patchVersion = ACL_PATCH_VERSION;
	return ACL_SUCCESS;
}

const char *aclrtGetSocName(void)
{
	return "vnpu";
}
