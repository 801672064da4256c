// SPDX-License-Identifier: MIT
/*
 * acl_except.c - task exceptions (issue 17): the exception callbacks, what
 * they learn about the failed task, and this thread's last task id. The
 * runtime side (what a task id is, when callbacks run) is lib/rt/rt_except.c.
 */
#include "acl_internal.h"

aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback)
{
	ACL_ENTER();
	rt_except_set(callback);
	return ACL_SUCCESS;
}

aclError aclrtExceptionInfoCallbackRegister(aclrtExceptionInfoCallback callback)
{
	ACL_ENTER();
	ACL_REQUIRE(callback);
	return rt_except_register(callback);
}

aclError aclrtExceptionInfoCallbackUnregister(aclrtExceptionInfoCallback callback)
{
	ACL_ENTER();
	ACL_REQUIRE(callback);
	return rt_except_unregister(callback);
}

uint32_t aclrtGetTaskIdFromExceptionInfo(const aclrtExceptionInfo *info)
{
	return rt_except_task_id(info);
}

uint32_t aclrtGetStreamIdFromExceptionInfo(const aclrtExceptionInfo *info)
{
	return rt_except_stream_id(info);
}

uint32_t aclrtGetThreadIdFromExceptionInfo(const aclrtExceptionInfo *info)
{
	return rt_except_thread_id(info);
}

uint32_t aclrtGetDeviceIdFromExceptionInfo(const aclrtExceptionInfo *info)
{
	return rt_except_device_id(info);
}

uint32_t aclrtGetErrorCodeFromExceptionInfo(const aclrtExceptionInfo *info)
{
	return rt_except_error_code(info);
}

aclError aclrtGetThreadLastTaskId(uint32_t *taskId)
{
	ACL_ENTER();
	ACL_REQUIRE(taskId);
	*taskId = rt_except_last_task_id();
	return ACL_SUCCESS;
}
