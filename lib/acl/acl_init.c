// SPDX-License-Identifier: MIT
/*
 * acl_init.c - initialisation, errors, versions.
 */
#include "acl_internal.h"

aclError aclInit(const char *configPath)
{
	aclError ret;

	ACL_ENTER();
	ret = rt_init(configPath);
	return ret ? ret : acl_init_hooks_run();
}

aclError aclFinalize(void)
{
	aclError ret;

	ACL_ENTER();
	ret = rt_finalize(false, NULL);
	return ret ? ret : acl_finalize_hooks_run();
}

aclError aclFinalizeReference(uint64_t *refCount)
{
	uint64_t left = 1;
	aclError ret;

	ACL_ENTER();
	ret = rt_finalize(true, &left);
	if (refCount)
		*refCount = left;
	/* Only the reference that tears the library down finalises. */
	return ret || left ? ret : acl_finalize_hooks_run();
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
