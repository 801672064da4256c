// SPDX-License-Identifier: MIT
/*
 * rt_errmap.c - kernel results to ACL error codes.
 */
#include <errno.h>

#include "vnpu_drm.h"
#include "rt_errmap.h"

aclError rt_errno_to_acl(int err)
{
	switch (err) {
	case 0:
		return ACL_SUCCESS;
	case -ENOMEM:
	case -E2BIG:
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	case -ENOSPC:
		return ACL_ERROR_RT_NO_STREAM_RESOURCE;
	case -ENODEV:
		return ACL_ERROR_RT_NO_DEVICE;
	case -ENXIO:
	case -EOVERFLOW:
	case -EINVAL:
	case -EFAULT:
		return ACL_ERROR_INVALID_PARAM;
	case -EACCES:
	case -EPERM:
		return ACL_ERROR_RT_NO_PERMISSION;
	case -EBUSY:
		return ACL_ERROR_RT_RESOURCE_ALLOC_FAIL;
	case -ETIME:
	case -ETIMEDOUT:
		return ACL_ERROR_RT_TIMEOUT;
	case -ENOTTY:
	case -EOPNOTSUPP:
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	case -ENOTCONN:
		/* SUBMIT: no engine server is attached to the device. */
		return ACL_ERROR_RT_DEV_SETUP_ERROR;
	default:
		return ACL_ERROR_RT_DRV_INTERNAL_ERROR;
	}
}

aclError rt_stream_error_to_acl(uint32_t error)
{
	switch (error) {
	case VNPU_STREAM_ERROR_NONE:
		return ACL_SUCCESS;
	case VNPU_STREAM_ERROR_TIMEOUT:
		return ACL_ERROR_RT_AICORE_TIMEOUT;
	case VNPU_STREAM_ERROR_FAULT:
	case VNPU_STREAM_ERROR_ARITH:
		return ACL_ERROR_RT_AICORE_EXCEPTION;
	case VNPU_STREAM_ERROR_CANCELED:
		/* Stopped: STREAM_ABORT with VNPU_STREAM_ABORT_STOP. */
		return ACL_ERROR_RT_STREAM_ABORT;
	case VNPU_STREAM_ERROR_ENGINE:
		return ACL_ERROR_RT_LOST_HEARTBEAT;
	default:
		return ACL_ERROR_RT_INTERNAL_ERROR;
	}
}

const char *rt_stream_error_name(uint32_t error)
{
	switch (error) {
	case VNPU_STREAM_ERROR_NONE: return "none";
	case VNPU_STREAM_ERROR_TIMEOUT: return "a task ran past the job timeout";
	case VNPU_STREAM_ERROR_FAULT: return "the device faulted while running a task";
	case VNPU_STREAM_ERROR_ARITH: return "an operator hit an arithmetic error";
	case VNPU_STREAM_ERROR_CANCELED: return "the stream was stopped (aclrtStreamStop)";
	case VNPU_STREAM_ERROR_ENGINE: return "the device's engine server went away";
	default: return "unknown stream error";
	}
}
