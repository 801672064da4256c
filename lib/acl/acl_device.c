// SPDX-License-Identifier: MIT
/*
 * acl_device.c - devices.
 */
#include "acl_internal.h"

aclError aclrtSetDevice(int32_t deviceId)
{
	aclError ret;

	ACL_ENTER();
	acl_devstate_notify(deviceId, ACL_RT_DEVICE_STATE_SET_PRE);
	ret = rt_device_set(deviceId);
	if (!ret)
		acl_devstate_notify(deviceId, ACL_RT_DEVICE_STATE_SET_POST);
	return ret;
}

static aclError reset_device(int32_t deviceId, bool force)
{
	aclError ret;

	acl_devstate_notify(deviceId, ACL_RT_DEVICE_STATE_RESET_PRE);
	ret = rt_device_reset(deviceId, force);
	if (!ret)
		acl_devstate_notify(deviceId, ACL_RT_DEVICE_STATE_RESET_POST);
	return ret;
}

aclError aclrtResetDevice(int32_t deviceId)
{
	ACL_ENTER();
	return reset_device(deviceId, false);
}

aclError aclrtResetDeviceForce(int32_t deviceId)
{
	ACL_ENTER();
	return reset_device(deviceId, true);
}

aclError aclrtGetDevice(int32_t *deviceId)
{
	struct rt_context *ctx;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(deviceId);
	ret = rt_context_require(&ctx);
	if (ret)
		return ret;
	*deviceId = (int32_t)ctx->dev->index;
	rt_context_put(ctx);
	return ACL_SUCCESS;
}

aclError aclrtGetDeviceCount(uint32_t *count)
{
	ACL_ENTER();
	ACL_REQUIRE(count);
	return rt_device_count(count);
}

static aclError synchronize_device(int64_t deadline)
{
	struct rt_context *ctx;
	aclError ret;

	ret = rt_context_require(&ctx);
	if (ret)
		return ret;
	ret = rt_device_synchronize(ctx->dev, deadline);
	rt_context_put(ctx);
	return ret;
}

aclError aclrtSynchronizeDevice(void)
{
	ACL_ENTER();
	return synchronize_device(RT_FOREVER);
}

aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout)
{
	ACL_ENTER();
	if (timeout < -1)
		return rt_err(ACL_ERROR_RT_PARAM_INVALID, "timeout %d ms is invalid (-1 or >= 0)", timeout);
	return synchronize_device(rt_deadline(timeout));
}

aclError aclrtGetRunMode(aclrtRunMode *runMode)
{
	ACL_ENTER();
	ACL_REQUIRE(runMode);
	*runMode = ACL_HOST;
	return ACL_SUCCESS;
}
