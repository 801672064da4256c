// SPDX-License-Identifier: MIT
/*
 * acl_op.c - single-operator execution (acl_op.h, acl_op_compiler.h).
 * The operators are built in (rt_op.c); nothing is loaded or compiled.
 */
#include "acl/acl_op_compiler.h"
#include "acl_internal.h"

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
	return rt_op_execute(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs, attr, stream);
}

aclError aclopCompileAndExecuteV2(const char *opType, int numInputs, aclTensorDesc *inputDesc[],
				  aclDataBuffer *inputs[], int numOutputs, aclTensorDesc *outputDesc[],
				  aclDataBuffer *outputs[], aclopAttr *attr, aclopEngineType engineType,
				  aclopCompileType compileFlag, const char *opPath, aclrtStream stream)
{
	ACL_ENTER();
	(void)opPath;
	if (engineType != ACL_ENGINE_SYS && engineType != ACL_ENGINE_AICORE && engineType != ACL_ENGINE_VECTOR)
		return rt_err(ACL_ERROR_INVALID_PARAM, "engineType %d is not an aclopEngineType", (int)engineType);
	if (compileFlag != ACL_COMPILE_SYS && compileFlag != ACL_COMPILE_UNREGISTERED)
		return rt_err(ACL_ERROR_INVALID_PARAM, "compileFlag %d is not an aclopCompileType", (int)compileFlag);
	return rt_op_execute(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs, attr, stream);
}
