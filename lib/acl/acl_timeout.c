// SPDX-License-Identifier: MIT
/*
 * acl_timeout.c - operator execution timeouts (issue 17): the process's
 * aclrtSetOpExecuteTimeOut / ...WithMs / ...V2 value becomes the kernel
 * job timeout (VNPU_STREAM_PARAM_JOB_TIMEOUT_MS) of every stream's later
 * work (lib/rt/rt_stream.c applies it at a stream's next submit). A job
 * that runs longer is cancelled and fails its stream with
 * ACL_ERROR_RT_AICORE_TIMEOUT. The kernel counts in milliseconds, up to
 * an hour; 0 asks for the longest.
 */
#include "acl_internal.h"

/* The kernel's granularity, in microseconds (aclrtGetOpTimeOutInterval). */
#define TIMEOUT_INTERVAL_US 1000u

/* Set the timeout to @us microseconds, rounded up to a whole interval and
 * clamped to the kernel's longest (also what 0 means); the value set. */
static uint64_t set_us(uint64_t us)
{
	uint64_t ms = us / TIMEOUT_INTERVAL_US + (us % TIMEOUT_INTERVAL_US != 0);

	if (!ms || ms > VNPU_MAX_JOB_TIMEOUT_MS)
		ms = VNPU_MAX_JOB_TIMEOUT_MS;
	rt_op_timeout_set((uint32_t)ms);
	return ms * TIMEOUT_INTERVAL_US;
}

aclError aclrtSetOpExecuteTimeOut(uint32_t timeout)
{
	ACL_ENTER();
	set_us((uint64_t)timeout * 1000000u);
	return ACL_SUCCESS;
}

aclError aclrtSetOpExecuteTimeOutWithMs(uint32_t timeout)
{
	ACL_ENTER();
	set_us((uint64_t)timeout * 1000u);
	return ACL_SUCCESS;
}

aclError aclrtSetOpExecuteTimeOutV2(uint64_t timeout, uint64_t *actualTimeout)
{
	ACL_ENTER();
	ACL_REQUIRE(actualTimeout);
	*actualTimeout = set_us(timeout);
	return ACL_SUCCESS;
}

aclError aclrtGetOpExecuteTimeout(uint32_t *const timeoutMs)
{
	struct rt_context *ctx;
	uint32_t ms = rt_op_timeout_get();
	int32_t dev = 0;
	uint64_t v;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(timeoutMs);
	if (ms) {
		*timeoutMs = ms;
		return ACL_SUCCESS;
	}
	/* None set: the device's job timeout (the current one's, or 0's). */
	ctx = rt_context_current();
	if (ctx) {
		dev = (int32_t)ctx->dev->index;
		rt_context_put(ctx);
	}
	ret = rt_device_param(dev, VNPU_PARAM_JOB_TIMEOUT_MS, &v);
	if (ret)
		return ret;
	*timeoutMs = (uint32_t)v;
	return ACL_SUCCESS;
}

aclError aclrtGetOpTimeOutInterval(uint64_t *interval)
{
	ACL_ENTER();
	ACL_REQUIRE(interval);
	*interval = TIMEOUT_INTERVAL_US;
	return ACL_SUCCESS;
}
