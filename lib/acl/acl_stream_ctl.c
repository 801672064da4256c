// SPDX-License-Identifier: MIT
/*
 * acl_stream_ctl.c - stream control: the failure mode
 * (aclrtSetStreamFailureMode), stream attributes (aclrtSetStreamAttribute,
 * aclrtGetStreamAttribute), discarding and stopping a stream's work
 * (aclrtStreamAbort, aclrtStreamStop) and the stream-state callbacks
 * (aclrtRegStreamStateCallback). The runtime side is in rt_stream.c.
 */
#include "acl_internal.h"
#include "rt_ri.h"

static aclError check_failure_mode(uint64_t mode)
{
	if (mode != ACL_CONTINUE_ON_FAILURE && mode != ACL_STOP_ON_FAILURE)
		return rt_err(ACL_ERROR_INVALID_PARAM,
			      "failure mode %llu is neither ACL_CONTINUE_ON_FAILURE nor ACL_STOP_ON_FAILURE",
			      (unsigned long long)mode);
	return ACL_SUCCESS;
}

aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode)
{
	struct rt_context *ctx;
	struct rt_stream *s;
	aclError ret;

	ACL_ENTER();
	ret = check_failure_mode(mode);
	if (ret)
		return ret;
	ret = acl_stream_begin(stream, &ctx, &s);
	if (ret)
		return ret;
	ret = rt_stream_set_failure_mode(s, (uint32_t)mode);
	acl_stream_done(ctx, s);
	return ret;
}

/* A 0-or-1 switch value of attribute @name. */
static aclError check_switch(uint32_t v, const char *name)
{
	if (v > 1)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%s takes 0 or 1, not %u", name, v);
	return ACL_SUCCESS;
}

static aclError set_attr(struct rt_stream *s, aclrtStreamAttr attr, const aclrtStreamAttrValue *v)
{
	aclError ret;

	switch (attr) {
	case ACL_STREAM_ATTR_FAILURE_MODE:
		if (s->is_default)
			return rt_err(ACL_ERROR_INVALID_PARAM,
				      "the failure mode of a default stream cannot be set as an attribute");
		ret = check_failure_mode(v->failureMode);
		return ret ? ret : rt_stream_set_failure_mode(s, (uint32_t)v->failureMode);
	case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
		ret = check_switch(v->overflowSwitch, "ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK");
		if (!ret)
			atomic_store(&s->overflow_switch, v->overflowSwitch);
		return ret;
	case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
		atomic_store(&s->user_tag, v->userCustomTag);
		return ACL_SUCCESS;
	case ACL_STREAM_ATTR_CACHE_OP_INFO:
		ret = check_switch(v->cacheOpInfoSwitch, "ACL_STREAM_ATTR_CACHE_OP_INFO");
		if (!ret)
			atomic_store(&s->cache_op_info, v->cacheOpInfoSwitch);
		return ret;
	case ACL_STREAM_ATTR_PRIORITY:
		return rt_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			      "a stream's priority is set when it is created (aclrtCreateStreamWithConfig)");
	}
	return rt_err(ACL_ERROR_INVALID_PARAM, "%d is not an aclrtStreamAttr", (int)attr);
}

static aclError get_attr(struct rt_stream *s, aclrtStreamAttr attr, aclrtStreamAttrValue *v)
{
	switch (attr) {
	case ACL_STREAM_ATTR_FAILURE_MODE:
		v->failureMode = atomic_load(&s->failure_mode);
		return ACL_SUCCESS;
	case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
		v->overflowSwitch = atomic_load(&s->overflow_switch);
		return ACL_SUCCESS;
	case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
		v->userCustomTag = atomic_load(&s->user_tag);
		return ACL_SUCCESS;
	case ACL_STREAM_ATTR_CACHE_OP_INFO:
		v->cacheOpInfoSwitch = atomic_load(&s->cache_op_info);
		return ACL_SUCCESS;
	case ACL_STREAM_ATTR_PRIORITY:
		v->streamPriority = s->priority;
		return ACL_SUCCESS;
	}
	return rt_err(ACL_ERROR_INVALID_PARAM, "%d is not an aclrtStreamAttr", (int)attr);
}

/* Set (@set) or read attribute @attr of @stream. */
static aclError stream_attr(aclrtStream stream, aclrtStreamAttr attr, aclrtStreamAttrValue *value, bool set)
{
	struct rt_context *ctx;
	struct rt_stream *s;
	aclError ret;

	ACL_REQUIRE(value);
	ret = acl_stream_begin(stream, &ctx, &s);
	if (ret)
		return ret;
	ret = set ? set_attr(s, attr, value) : get_attr(s, attr, value);
	acl_stream_done(ctx, s);
	return ret;
}

aclError aclrtSetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType, aclrtStreamAttrValue *value)
{
	ACL_ENTER();
	return stream_attr(stream, stmAttrType, value, true);
}

aclError aclrtGetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType, aclrtStreamAttrValue *value)
{
	ACL_ENTER();
	return stream_attr(stream, stmAttrType, value, false);
}

/* Abort or (@stop) stop @stream. */
static aclError abort_stream(aclrtStream stream, bool stop)
{
	struct rt_context *ctx;
	struct rt_stream *s;
	aclError ret;

	ret = acl_stream_begin(stream, &ctx, &s);
	if (ret)
		return ret;
	ret = rt_ri_forbid(s, stop ? "stopping the stream" : "aborting the stream");
	if (!ret)
		ret = rt_stream_abort(s, stop);
	acl_stream_done(ctx, s);
	return ret;
}

aclError aclrtStreamAbort(aclrtStream stream)
{
	ACL_ENTER();
	return abort_stream(stream, false);
}

aclError aclrtStreamStop(aclrtStream stream)
{
	ACL_ENTER();
	if (!stream)
		return rt_err(ACL_ERROR_INVALID_PARAM, "the default stream cannot be stopped");
	return abort_stream(stream, true);
}

aclError aclrtRegStreamStateCallback(const char *regName, aclrtStreamStateCallback callback, void *args)
{
	ACL_ENTER();
	if (!regName || !regName[0])
		return rt_err(ACL_ERROR_INVALID_PARAM, "regName must be a non-empty string");
	return rt_stream_state_register(regName, callback, args);
}
