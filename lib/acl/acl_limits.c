// SPDX-License-Identifier: MIT
/*
 * acl_limits.c - settings a program makes and reads back: device limits,
 * device resource limits, runtime options (process and context) and the
 * floating-point overflow mode.
 *
 * vnpu's operators use none of them yet (docs/libacl.md says so per
 * setting); they are validated as CANN validates them, kept, and reported,
 * so programs that tune them run unchanged.
 */
#include "acl_internal.h"

#define KIB 1024u
#define SIMD_STACK_DEFAULT (32 * KIB)
#define SIMD_STACK_MAX (192 * KIB)
#define SIMD_STACK_STEP (16 * KIB)
#define PRINTF_FIFO_MIN KIB
#define PRINTF_FIFO_MAX (64u * KIB * KIB)
#define PRINTF_FIFO_DEFAULT (KIB * KIB)

static pthread_mutex_t limits_lock = PTHREAD_MUTEX_INITIALIZER;
/* aclrtDeviceSetLimit values (limits_lock). */
static size_t simd_stack = SIMD_STACK_DEFAULT;
static size_t printf_fifo = PRINTF_FIFO_DEFAULT;
/* aclrtSetDeviceResLimit values per device and resource; 0: not set, the
 * device's engines (limits_lock). Kept across device resets, as a
 * process setting. */
static uint32_t res_limit[RT_MAX_DEVICES][2];
/* aclrtSetSysParamOpt values. */
static _Atomic int64_t sys_opt[RT_SYS_OPTS];

static size_t round_up(size_t x, size_t to)
{
	return (x + to - 1) / to * to;
}

/* The answer for a limit vnpu does not keep: a SIMT one, or no limit. */
static aclError limit_unsupported(aclrtDeviceLimit limit)
{
	switch (limit) {
	case ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE:
	case ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE:
	case ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE:
		return rt_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "vnpu has no SIMT cores (limit %d)", (int)limit);
	default:
		return rt_err(ACL_ERROR_RT_PARAM_INVALID, "%d is not an aclrtDeviceLimit", (int)limit);
	}
}

aclError aclrtDeviceSetLimit(aclrtDeviceLimit limit, size_t value)
{
	ACL_ENTER();
	switch (limit) {
	case ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE:
		if (value > SIMD_STACK_MAX)
			return rt_err(ACL_ERROR_RT_PARAM_INVALID, "SIMD stack size %zu is above %u bytes", value,
				      SIMD_STACK_MAX);
		pthread_mutex_lock(&limits_lock);
		/* CANN: up to 32 KiB keeps the default. */
		simd_stack = value <= SIMD_STACK_DEFAULT ? SIMD_STACK_DEFAULT : round_up(value, SIMD_STACK_STEP);
		pthread_mutex_unlock(&limits_lock);
		return ACL_SUCCESS;
	case ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE:
		if (value < PRINTF_FIFO_MIN || value > PRINTF_FIFO_MAX)
			return rt_err(ACL_ERROR_RT_PARAM_INVALID, "printf FIFO size %zu is outside [%u, %u] bytes",
				      value, PRINTF_FIFO_MIN, PRINTF_FIFO_MAX);
		pthread_mutex_lock(&limits_lock);
		printf_fifo = round_up(value, 8);
		pthread_mutex_unlock(&limits_lock);
		return ACL_SUCCESS;
	default:
		return limit_unsupported(limit);
	}
}

aclError aclrtDeviceGetLimit(aclrtDeviceLimit limit, size_t *value)
{
	ACL_ENTER();
	ACL_REQUIRE(value);
	switch (limit) {
	case ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE:
	case ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE:
		pthread_mutex_lock(&limits_lock);
		*value = limit == ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE ? simd_stack : printf_fifo;
		pthread_mutex_unlock(&limits_lock);
		return ACL_SUCCESS;
	default:
		return limit_unsupported(limit);
	}
}

/* The engines of device @dev (every core kind is an engine for vnpu). */
static aclError engines_of(int32_t dev, uint32_t *engines)
{
	uint64_t n = 0;
	aclError ret = rt_device_param(dev, VNPU_PARAM_NUM_ENGINES, &n);

	if (!ret)
		*engines = (uint32_t)n;
	return ret;
}

static aclError check_res_type(aclrtDevResLimitType type)
{
	if (type != ACL_RT_DEV_RES_CUBE_CORE && type != ACL_RT_DEV_RES_VECTOR_CORE)
		return rt_err(ACL_ERROR_RT_PARAM_INVALID, "%d is not an aclrtDevResLimitType", (int)type);
	return ACL_SUCCESS;
}

aclError aclrtSetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t value)
{
	uint32_t engines;
	aclError ret;

	ACL_ENTER();
	ret = check_res_type(type);
	if (!ret)
		ret = engines_of(deviceId, &engines);
	if (ret)
		return ret;
	if (!value || value > engines)
		return rt_err(ACL_ERROR_RT_PARAM_INVALID, "%u cores: device %d has %u (1 to %u)", value, deviceId,
			      engines, engines);
	pthread_mutex_lock(&limits_lock);
	res_limit[deviceId][type] = value;
	pthread_mutex_unlock(&limits_lock);
	return ACL_SUCCESS;
}

/* The limit of @type on @dev: what was set, else all its engines. */
static aclError res_limit_of(int32_t dev, aclrtDevResLimitType type, uint32_t *value)
{
	uint32_t engines, set;
	aclError ret = check_res_type(type);

	if (!ret)
		ret = engines_of(dev, &engines);
	if (ret)
		return ret;
	pthread_mutex_lock(&limits_lock);
	set = res_limit[dev][type];
	pthread_mutex_unlock(&limits_lock);
	*value = set ? set : engines;
	return ACL_SUCCESS;
}

aclError aclrtGetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t *value)
{
	ACL_ENTER();
	ACL_REQUIRE(value);
	return res_limit_of(deviceId, type, value);
}

aclError aclrtResetDeviceResLimit(int32_t deviceId)
{
	aclError ret;

	ACL_ENTER();
	ret = rt_device_check_id(deviceId);
	if (ret)
		return ret;
	pthread_mutex_lock(&limits_lock);
	res_limit[deviceId][ACL_RT_DEV_RES_CUBE_CORE] = 0;
	res_limit[deviceId][ACL_RT_DEV_RES_VECTOR_CORE] = 0;
	pthread_mutex_unlock(&limits_lock);
	return ACL_SUCCESS;
}

aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type, uint32_t *value)
{
	struct rt_context *ctx;
	int32_t dev;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(value);
	ret = rt_context_require(&ctx);
	if (ret)
		return ret;
	dev = (int32_t)ctx->dev->index;
	rt_context_put(ctx);
	return res_limit_of(dev, type, value);
}

/* ---- runtime options ----------------------------------------------------- */

static aclError check_opt(aclSysParamOpt opt)
{
	if ((int)opt < 0 || (int)opt >= RT_SYS_OPTS)
		return rt_err(ACL_ERROR_RT_PARAM_INVALID, "%d is not an aclSysParamOpt", (int)opt);
	return ACL_SUCCESS;
}

static aclError check_opt_value(aclSysParamOpt opt, int64_t value)
{
	aclError ret = check_opt(opt);

	if (!ret && value != 0 && value != 1)
		return rt_err(ACL_ERROR_RT_PARAM_INVALID, "option %d: value %lld is not 0 or 1", (int)opt,
			      (long long)value);
	return ret;
}

aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value)
{
	aclError ret;

	ACL_ENTER();
	ret = check_opt_value(opt, value);
	if (!ret)
		atomic_store(&sys_opt[opt], value);
	return ret;
}

aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t *value)
{
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(value);
	ret = check_opt(opt);
	if (!ret)
		*value = atomic_load(&sys_opt[opt]);
	return ret;
}

aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt, int64_t value)
{
	struct rt_context *ctx;
	aclError ret;

	ACL_ENTER();
	ret = check_opt_value(opt, value);
	if (!ret)
		ret = rt_context_require(&ctx);
	if (ret)
		return ret;
	atomic_store(&ctx->sys_opt[opt], value);
	atomic_store(&ctx->sys_opt_set[opt], true);
	rt_context_put(ctx);
	return ACL_SUCCESS;
}

aclError aclrtCtxGetSysParamOpt(aclSysParamOpt opt, int64_t *value)
{
	struct rt_context *ctx;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(value);
	ret = check_opt(opt);
	if (!ret)
		ret = rt_context_require(&ctx);
	if (ret)
		return ret;
	*value = atomic_load(&ctx->sys_opt_set[opt]) ? atomic_load(&ctx->sys_opt[opt]) : atomic_load(&sys_opt[opt]);
	rt_context_put(ctx);
	return ACL_SUCCESS;
}

/* ---- floating-point overflow mode ---------------------------------------- */

aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode)
{
	struct rt_context *ctx;
	aclError ret;

	ACL_ENTER();
	if (mode != ACL_RT_OVERFLOW_MODE_SATURATION && mode != ACL_RT_OVERFLOW_MODE_INFNAN)
		return rt_err(ACL_ERROR_RT_PARAM_INVALID, "%d is not ACL_RT_OVERFLOW_MODE_SATURATION or _INFNAN",
			      (int)mode);
	ret = rt_context_require(&ctx);
	if (ret)
		return ret;
	atomic_store(&ctx->dev->sat_mode, (int)mode);
	rt_context_put(ctx);
	return ACL_SUCCESS;
}

aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode *mode)
{
	struct rt_context *ctx;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(mode);
	ret = rt_context_require(&ctx);
	if (ret)
		return ret;
	*mode = (aclrtFloatOverflowMode)atomic_load(&ctx->dev->sat_mode);
	rt_context_put(ctx);
	return ACL_SUCCESS;
}
