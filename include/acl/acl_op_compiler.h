/* SPDX-License-Identifier: MIT */
/*
 * vnpu — online compile-and-execute of single operators (Ascend CANN ACL
 * API). In CANN this part lives in libacl_op_compiler; vnpu compiles nothing
 * and provides it from libascendcl itself, running the same built-in operators
 * as aclopExecuteV2 (acl_op.h).
 */
#ifndef VNPU_ACL_ACL_OP_COMPILER_H
#define VNPU_ACL_ACL_OP_COMPILER_H

#include "acl_base.h"
#include "acl_op.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How CANN finds the operator to compile: a registered system operator, or an
 * unregistered one whose implementation is found under opPath. */
typedef enum aclCompileType {
    ACL_COMPILE_SYS,
    ACL_COMPILE_UNREGISTERED,
} aclopCompileType;

/*
 * Compile (if needed) and enqueue operator opType on stream; the operator
 * arguments are those of aclopExecuteV2() and so are the results and error
 * codes. engineType, compileFlag and opPath (may be NULL) select how CANN
 * compiles the operator.
 * vnpu: nothing is compiled; engineType, compileFlag and opPath must be valid
 * values (ACL_ERROR_INVALID_PARAM otherwise) and are then ignored. A
 * registered allocator is consulted at every call, as for aclopExecuteV2().
 */
/*
 * As aclopCompileAndExecuteV2(), with descriptors that are only read (the
 * output descriptors are not updated), as aclopExecute() is to
 * aclopExecuteV2().
 */
ACL_FUNC_VISIBILITY aclError aclopCompileAndExecute(const char *opType, int numInputs,
                                                    const aclTensorDesc *const inputDesc[],
                                                    const aclDataBuffer *const inputs[], int numOutputs,
                                                    const aclTensorDesc *const outputDesc[],
                                                    aclDataBuffer *const outputs[], const aclopAttr *attr,
                                                    aclopEngineType engineType, aclopCompileType compileFlag,
                                                    const char *opPath, aclrtStream stream);

ACL_FUNC_VISIBILITY aclError aclopCompileAndExecuteV2(const char *opType, int numInputs, aclTensorDesc *inputDesc[],
                                                      aclDataBuffer *inputs[], int numOutputs,
                                                      aclTensorDesc *outputDesc[], aclDataBuffer *outputs[],
                                                      aclopAttr *attr, aclopEngineType engineType,
                                                      aclopCompileType compileFlag, const char *opPath,
                                                      aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACL_ACL_OP_COMPILER_H */
