// SPDX-License-Identifier: MIT
/*
 * acl_ri.c - captured task graphs, CANN's model runtime instances (aclmdlRI*):
 * argument checks and handles over lib/rt/rt_ri.c (docs/capture.md).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "acl_internal.h"
#include "rt_ri.h"

/* The instance @handle names, referenced, or ACL_ERROR_INVALID_PARAM. */
static aclError ri_begin(aclmdlRI handle, struct rt_ri **out)
{
	ACL_REQUIRE(handle);
	*out = rt_ri_lookup(handle);
	if (!*out)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%p is not a model runtime instance (never captured, or "
			      "destroyed)", handle);
	return ACL_SUCCESS;
}

static aclError task_begin(aclmdlRITask task, struct rt_ri **out, uint32_t *index)
{
	ACL_REQUIRE(task);
	*out = rt_ri_task_lookup(task, index);
	if (!*out)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%p is not a task of a model runtime instance (see "
			      "aclmdlRIGetTasksByStream)", task);
	return ACL_SUCCESS;
}

enum stream_op { ST_BEGIN, ST_INFO, ST_END, ST_GRP_BEGIN, ST_GRP_END, ST_UPD_BEGIN, ST_UPD_END, ST_TASKS };

/* The arguments of the stream calls. */
struct st_args {
	aclmdlRICaptureMode mode;
	void *p, *q;
	uint32_t *n;
};

/* One call on the stream @stream names (NULL: the current context's default
 * stream), referenced for the call. */
static aclError on_stream(aclrtStream stream, enum stream_op op, const struct st_args *a)
{
	struct rt_context *ctx;
	struct rt_stream *s;
	aclError ret;

	ret = acl_stream_begin(stream, &ctx, &s);
	if (ret)
		return ret;
	switch (op) {
	case ST_BEGIN:
		ret = rt_ri_capture_begin(s, a->mode);
		break;
	case ST_INFO:
		ret = rt_ri_capture_info(s, a->p, a->q);
		break;
	case ST_END:
		ret = rt_ri_capture_end(s, a->p);
		break;
	case ST_GRP_BEGIN:
		ret = rt_ri_group_begin(s);
		break;
	case ST_GRP_END:
		ret = rt_ri_group_end(s, a->p);
		break;
	case ST_UPD_BEGIN:
		ret = rt_ri_update_begin(s, a->p);
		break;
	case ST_UPD_END:
		ret = rt_ri_update_end(s);
		break;
	case ST_TASKS:
		ret = rt_ri_stream_tasks(s, a->p, a->n);
		break;
	}
	acl_stream_done(ctx, s);
	return ret;
}

aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode)
{
	struct st_args a = { .mode = mode };

	ACL_ENTER();
	return on_stream(stream, ST_BEGIN, &a);
}

aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus *status, aclmdlRI *modelRI)
{
	struct st_args a = { .p = status, .q = modelRI };

	ACL_ENTER();
	return on_stream(stream, ST_INFO, &a);
}

aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI *modelRI)
{
	struct st_args a = { .p = modelRI };

	ACL_ENTER();
	ACL_REQUIRE(modelRI);
	return on_stream(stream, ST_END, &a);
}

aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode *mode)
{
	ACL_ENTER();
	ACL_REQUIRE(mode);
	if ((unsigned int)*mode > ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
		return rt_err(ACL_ERROR_INVALID_PARAM, "mode %d is not an aclmdlRICaptureMode", (int)*mode);
	*mode = rt_ri_exchange_mode(*mode);
	return ACL_SUCCESS;
}

aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream)
{
	ACL_ENTER();
	return on_stream(stream, ST_GRP_BEGIN, NULL);
}

aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp *handle)
{
	struct st_args a = { .p = handle };

	ACL_ENTER();
	ACL_REQUIRE(handle);
	return on_stream(stream, ST_GRP_END, &a);
}

aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle)
{
	struct st_args a = { .p = handle };

	ACL_ENTER();
	ACL_REQUIRE(handle);
	return on_stream(stream, ST_UPD_BEGIN, &a);
}

aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream)
{
	ACL_ENTER();
	return on_stream(stream, ST_UPD_END, NULL);
}

aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout)
{
	struct rt_ri *ri;
	aclError ret;

	ACL_ENTER();
	if (timeout < -1)
		return rt_err(ACL_ERROR_INVALID_PARAM, "timeout %d ms is invalid (-1 or >= 0)", timeout);
	ret = ri_begin(modelRI, &ri);
	if (ret)
		return ret;
	ret = rt_ri_execute(ri, NULL, true, rt_deadline(timeout));
	rt_ri_put(ri);
	return ret;
}

/* ---- building ---------------------------------------------------------------------- */

aclError aclmdlRIBuildBegin(aclmdlRI *modelRI, uint32_t flag)
{
	struct rt_context *ctx;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(modelRI);
	if (flag)
		return rt_err(ACL_ERROR_INVALID_PARAM, "flag 0x%x is reserved (0)", flag);
	ret = rt_context_require(&ctx);
	if (ret)
		return ret;
	ret = rt_ri_build_begin(ctx->dev, modelRI);
	rt_context_put(ctx);
	return ret;
}

enum bind_op { EXECUTE, BIND, END_TASK, UNBIND };

/* One call on instance @handle and stream @stream (NULL: the current
 * context's default stream). */
static aclError ri_stream_do(aclmdlRI handle, aclrtStream stream, enum bind_op op, uint32_t flag)
{
	struct rt_context *ctx;
	struct rt_stream *s;
	struct rt_ri *ri;
	aclError ret;

	ret = ri_begin(handle, &ri);
	if (ret)
		return ret;
	ret = acl_stream_begin(stream, &ctx, &s);
	if (!ret) {
		if (op == EXECUTE)
			ret = rt_ri_execute(ri, s, false, RT_FOREVER);
		else if (op == BIND)
			ret = rt_ri_bind(ri, s, flag);
		else if (op == END_TASK)
			ret = rt_ri_end_task(ri, s);
		else
			ret = rt_ri_unbind(ri, s);
		acl_stream_done(ctx, s);
	}
	rt_ri_put(ri);
	return ret;
}

aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream)
{
	ACL_ENTER();
	return ri_stream_do(modelRI, stream, EXECUTE, 0);
}

aclError aclmdlRIBindStream(aclmdlRI modelRI, aclrtStream stream, uint32_t flag)
{
	ACL_ENTER();
	ACL_REQUIRE(stream);
	return ri_stream_do(modelRI, stream, BIND, flag);
}

aclError aclmdlRIEndTask(aclmdlRI modelRI, aclrtStream stream)
{
	ACL_ENTER();
	ACL_REQUIRE(stream);
	return ri_stream_do(modelRI, stream, END_TASK, 0);
}

aclError aclmdlRIUnbindStream(aclmdlRI modelRI, aclrtStream stream)
{
	ACL_ENTER();
	ACL_REQUIRE(stream);
	return ri_stream_do(modelRI, stream, UNBIND, 0);
}

enum ri_op { RI_DESTROY, RI_ABORT, RI_BUILD_END, RI_UPDATE, RI_PRINT, RI_GET_ID, RI_SET_NAME, RI_GET_NAME, RI_STREAMS, RI_ON_DESTROY };

/* The arguments of the calls that take more than one. */
struct ri_args {
	void *p;
	uint32_t *n;
	aclrtCallback fn;
};

/* One call on the instance @handle names, referenced for the call. */
static aclError ri_do(aclmdlRI handle, enum ri_op op, void *arg)
{
	const struct ri_args *a = arg;
	struct rt_ri *ri;
	aclError ret;

	ret = ri_begin(handle, &ri);
	if (ret)
		return ret;
	switch (op) {
	case RI_DESTROY:
		ret = rt_ri_destroy(ri);
		break;
	case RI_ABORT:
		ret = rt_ri_abort(ri);
		break;
	case RI_BUILD_END:
		ret = rt_ri_build_end(ri);
		break;
	case RI_UPDATE:
		ret = rt_ri_update(ri);
		break;
	case RI_PRINT:
		ret = rt_ri_print(ri, stdout);
		fflush(stdout);
		break;
	case RI_GET_ID:
		*(uint32_t *)arg = rt_ri_id(ri);
		break;
	case RI_SET_NAME:
		ret = rt_ri_set_name(ri, arg);
		break;
	case RI_GET_NAME:
		ret = rt_ri_get_name(ri, *a->n, a->p);
		break;
	case RI_STREAMS:
		ret = rt_ri_streams(ri, a->p, a->n);
		break;
	case RI_ON_DESTROY:
		ret = rt_ri_add_destroy_callback(ri, a->fn, a->p);
		break;
	}
	rt_ri_put(ri);
	return ret;
}

aclError aclmdlRIDestroy(aclmdlRI modelRI)
{
	ACL_ENTER();
	return ri_do(modelRI, RI_DESTROY, NULL);
}

aclError aclmdlRIBuildEnd(aclmdlRI modelRI, void *reserve)
{
	ACL_ENTER();
	if (reserve)
		return rt_err(ACL_ERROR_INVALID_PARAM, "reserve must be NULL");
	return ri_do(modelRI, RI_BUILD_END, NULL);
}

aclError aclmdlRIAbort(aclmdlRI modelRI)
{
	ACL_ENTER();
	return ri_do(modelRI, RI_ABORT, NULL);
}

aclError aclmdlRIUpdate(aclmdlRI modelRI)
{
	ACL_ENTER();
	return ri_do(modelRI, RI_UPDATE, NULL);
}

aclError aclmdlRIDebugPrint(aclmdlRI modelRI)
{
	ACL_ENTER();
	return ri_do(modelRI, RI_PRINT, NULL);
}

aclError aclmdlRIGetId(aclmdlRI modelRI, uint32_t *modelRIId)
{
	ACL_ENTER();
	ACL_REQUIRE(modelRIId);
	return ri_do(modelRI, RI_GET_ID, modelRIId);
}

aclError aclmdlRISetName(aclmdlRI modelRI, const char *name)
{
	ACL_ENTER();
	ACL_REQUIRE(name);
	return ri_do(modelRI, RI_SET_NAME, (void *)name);
}

aclError aclmdlRIDestroyRegisterCallback(aclmdlRI modelRI, aclrtCallback func, void *userData)
{
	struct ri_args a = { .p = userData, .fn = func };

	ACL_ENTER();
	ACL_REQUIRE(func);
	return ri_do(modelRI, RI_ON_DESTROY, &a);
}

aclError aclmdlRIGetName(aclmdlRI modelRI, uint32_t maxLen, char *name)
{
	struct ri_args a = { .p = name, .n = &maxLen };

	ACL_ENTER();
	ACL_REQUIRE(name);
	return ri_do(modelRI, RI_GET_NAME, &a);
}

aclError aclmdlRIGetStreams(aclmdlRI modelRI, aclrtStream *streams, uint32_t *numStreams)
{
	struct ri_args a = { .p = streams, .n = numStreams };

	ACL_ENTER();
	ACL_REQUIRE(numStreams);
	return ri_do(modelRI, RI_STREAMS, &a);
}

aclError aclmdlRIGetTasksByStream(aclrtStream stream, aclmdlRITask *tasks, uint32_t *numTasks)
{
	struct st_args a = { .p = tasks, .n = numTasks };

	ACL_ENTER();
	ACL_REQUIRE(numTasks);
	return on_stream(stream, ST_TASKS, &a);
}

enum task_op { TASK_TYPE, TASK_SEQ, TASK_GET, TASK_SET, TASK_DISABLE };

/* One call on the task @task names: the graph holding it is referenced
 * for the call. */
static aclError task_do(aclmdlRITask task, enum task_op op, void *arg)
{
	struct rt_ri *ri;
	uint32_t i;
	aclError ret = ACL_SUCCESS;

	ret = task_begin(task, &ri, &i);
	if (ret)
		return ret;
	switch (op) {
	case TASK_TYPE:
		ret = rt_ri_task_type(ri, i, arg);
		break;
	case TASK_SEQ:
		ret = rt_ri_task_seq(ri, i, arg);
		break;
	case TASK_GET:
		ret = rt_ri_task_get(ri, i, arg);
		break;
	case TASK_SET:
		ret = rt_ri_task_set(ri, i, arg);
		break;
	case TASK_DISABLE:
		ret = rt_ri_task_disable(ri, i);
		break;
	}
	rt_ri_put(ri);
	return ret;
}

aclError aclmdlRITaskGetType(aclmdlRITask task, aclmdlRITaskType *type)
{
	ACL_ENTER();
	ACL_REQUIRE(type);
	return task_do(task, TASK_TYPE, type);
}

aclError aclmdlRITaskGetSeqId(aclmdlRITask task, uint32_t *id)
{
	ACL_ENTER();
	ACL_REQUIRE(id);
	return task_do(task, TASK_SEQ, id);
}

aclError aclmdlRITaskGetParams(aclmdlRITask task, aclmdlRITaskParams *params)
{
	ACL_ENTER();
	ACL_REQUIRE(params);
	return task_do(task, TASK_GET, params);
}

aclError aclmdlRITaskSetParams(aclmdlRITask task, aclmdlRITaskParams *params)
{
	ACL_ENTER();
	ACL_REQUIRE(params);
	return task_do(task, TASK_SET, params);
}

aclError aclmdlRITaskDisable(aclmdlRITask task)
{
	ACL_ENTER();
	return task_do(task, TASK_DISABLE, NULL);
}

aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char *path, uint32_t flags)
{
	struct rt_ri *ri;
	aclError ret;
	FILE *f;

	ACL_ENTER();
	ACL_REQUIRE(path);
	if (flags > ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE)
		return rt_err(ACL_ERROR_INVALID_PARAM, "flags 0x%x is not an ACL_MDLRI_DEBUG_JSON_PRINT_* value", flags);
	ret = ri_begin(modelRI, &ri);
	if (ret)
		return ret;
	f = fopen(path, "w");
	if (!f) {
		ret = rt_err(ACL_ERROR_WRITE_FILE, "cannot open %s for writing: %s", path, strerror(errno));
	} else {
		ret = rt_ri_print_json(ri, f, flags == ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE);
		if (fclose(f) && !ret)
			ret = rt_err(ACL_ERROR_WRITE_FILE, "cannot write %s: %s", path, strerror(errno));
	}
	rt_ri_put(ri);
	return ret;
}
