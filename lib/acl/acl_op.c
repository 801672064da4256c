// SPDX-License-Identifier: MIT
/*
 * acl_op.c - single-operator execution (acl_op.h, acl_op_compiler.h).
 * The operators are built in (lib/ops, through rt_op.c); nothing is
 * loaded or compiled.
 */
#include <stdlib.h>

#include "acl/acl_op_compiler.h"
#include "acl_internal.h"
#include "rt_op.h"

#define RT_OPHANDLE_MAGIC 0x564e4f48u	/* "VNOH" */

/*
 * An operator call checked and planned once (aclopCreateHandle). The plan
 * holds everything the call needs from the caller's type name, descriptors
 * and attributes (the descriptor, buffer sizes and alignment, in place,
 * workspace), so they may be destroyed after creation. The plan (a few
 * KiB) lives in the handle, allocated once; each aclopExecWithHandle only
 * reads it, with that call's buffers, so threads may share a handle and a
 * launch copies nothing.
 */
struct aclopHandle {
	uint32_t magic;
	int nin, nout;
	struct vops_plan plan;
};

aclError aclopSetModelDir(const char *modelDir)
{
	ACL_ENTER();
	ACL_REQUIRE(modelDir);
	return ACL_SUCCESS;
}

aclError aclopLoad(const void *model, size_t modelSize)
{
	ACL_ENTER();
	ACL_REQUIRE(model);
	if (!modelSize)
		return rt_err(ACL_ERROR_INVALID_PARAM, "modelSize must not be 0");
	return ACL_SUCCESS;
}

aclError aclopExecuteV2(const char *opType, int numInputs, aclTensorDesc *inputDesc[], aclDataBuffer *inputs[],
			int numOutputs, aclTensorDesc *outputDesc[], aclDataBuffer *outputs[], aclopAttr *attr,
			aclrtStream stream)
{
	ACL_ENTER();
	return rt_op_execute(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs, attr, stream,
			     true);
}

/* The pointers lose their const only to share the V2 path: without a
 * refresh nothing writes through them. */
aclError aclopExecute(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[],
		      const aclDataBuffer *const inputs[], int numOutputs, const aclTensorDesc *const outputDesc[],
		      aclDataBuffer *const outputs[], const aclopAttr *attr, aclrtStream stream)
{
	ACL_ENTER();
	return rt_op_execute(opType, numInputs, (aclTensorDesc **)inputDesc, (aclDataBuffer **)inputs, numOutputs,
			     (aclTensorDesc **)outputDesc, (aclDataBuffer **)outputs, attr, stream, false);
}

aclError aclopCreateHandle(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[], int numOutputs,
			   const aclTensorDesc *const outputDesc[], const aclopAttr *opAttr, aclopHandle **handle)
{
	struct aclopHandle *h;
	aclError err;

	ACL_ENTER();
	ACL_REQUIRE(handle);
	h = malloc(sizeof(*h));
	if (!h)
		return rt_err(ACL_ERROR_BAD_ALLOC, "no memory for an operator handle");
	/* rt_op_plan only reads the descriptors (const dropped as above). */
	err = rt_op_plan(opType, numInputs, (aclTensorDesc *const *)inputDesc, numOutputs,
			 (aclTensorDesc *const *)outputDesc, opAttr, &h->plan);
	if (err) {
		free(h);
		return err;
	}
	h->magic = RT_OPHANDLE_MAGIC;
	h->nin = numInputs;
	h->nout = numOutputs;
	*handle = h;
	return ACL_SUCCESS;
}

void aclopDestroyHandle(aclopHandle *handle)
{
	ACL_ENTER();
	if (!handle)
		return;
	if (handle->magic != RT_OPHANDLE_MAGIC) {
		(void)rt_err(ACL_ERROR_INVALID_PARAM, "%p is not an operator handle; not destroyed", (void *)handle);
		return;
	}
	handle->magic = 0;
	free(handle);
}

aclError aclopExecWithHandle(aclopHandle *handle, int numInputs, const aclDataBuffer *const inputs[], int numOutputs,
			     aclDataBuffer *const outputs[], aclrtStream stream)
{
	ACL_ENTER();
	ACL_REQUIRE(handle);
	ACL_REQUIRE(inputs);
	ACL_REQUIRE(outputs);
	if (handle->magic != RT_OPHANDLE_MAGIC)
		return rt_err(ACL_ERROR_INVALID_PARAM, "handle %p is not an operator handle", (void *)handle);
	if (numInputs != handle->nin || numOutputs != handle->nout)
		return rt_err(ACL_ERROR_INVALID_PARAM,
			      "%s handle was created with %d input%s and %d output%s, called with %d and %d",
			      handle->plan.type, handle->nin, handle->nin == 1 ? "" : "s", handle->nout,
			      handle->nout == 1 ? "" : "s", numInputs, numOutputs);
	/* The handle's plan is only read: threads may share a handle. */
	return rt_op_run(&handle->plan, numInputs, (aclDataBuffer *const *)inputs, numOutputs, outputs, stream,
			 NULL);
}

/* The compile arguments, which vnpu checks and then ignores. */
static aclError check_compile_args(aclopEngineType engineType, aclopCompileType compileFlag)
{
	if (engineType != ACL_ENGINE_SYS && engineType != ACL_ENGINE_AICORE && engineType != ACL_ENGINE_VECTOR)
		return rt_err(ACL_ERROR_INVALID_PARAM, "engineType %d is not an aclopEngineType", (int)engineType);
	if (compileFlag != ACL_COMPILE_SYS && compileFlag != ACL_COMPILE_UNREGISTERED)
		return rt_err(ACL_ERROR_INVALID_PARAM, "compileFlag %d is not an aclopCompileType", (int)compileFlag);
	return ACL_SUCCESS;
}

aclError aclopCompileAndExecute(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[],
				const aclDataBuffer *const inputs[], int numOutputs,
				const aclTensorDesc *const outputDesc[], aclDataBuffer *const outputs[],
				const aclopAttr *attr, aclopEngineType engineType, aclopCompileType compileFlag,
				const char *opPath, aclrtStream stream)
{
	aclError err;

	ACL_ENTER();
	(void)opPath;
	err = check_compile_args(engineType, compileFlag);
	if (err)
		return err;
	/* As aclopExecute(): the descriptors are only read. */
	return rt_op_execute(opType, numInputs, (aclTensorDesc **)inputDesc, (aclDataBuffer **)inputs, numOutputs,
			     (aclTensorDesc **)outputDesc, (aclDataBuffer **)outputs, attr, stream, false);
}

aclError aclopCompileAndExecuteV2(const char *opType, int numInputs, aclTensorDesc *inputDesc[],
				  aclDataBuffer *inputs[], int numOutputs, aclTensorDesc *outputDesc[],
				  aclDataBuffer *outputs[], aclopAttr *attr, aclopEngineType engineType,
				  aclopCompileType compileFlag, const char *opPath, aclrtStream stream)
{
	aclError err;

	ACL_ENTER();
	(void)opPath;
	err = check_compile_args(engineType, compileFlag);
	if (err)
		return err;
	return rt_op_execute(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs, attr, stream,
			     true);
}
