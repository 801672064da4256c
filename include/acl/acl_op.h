/* SPDX-License-Identifier: MIT */
/*
 * vnpu — single-operator execution of the Ascend CANN ACL API.
 *
 * CANN executes single operators from models compiled offline (loaded with
 * aclopSetModelDir/aclopLoad). vnpu instead carries a built-in operator
 * library that runs on the device:
 *
 *     Add, Sub, Mul, RealDiv, Relu, Abs, Cast, ReduceSumD, ReduceMaxD,
 *     SoftmaxV2, MatMul
 *
 * with the inputs, outputs and attributes that CANN's operator definitions
 * give them. Each operator declares the device workspace it needs; the
 * runtime takes it from the allocator registered for the stream
 * (acl_rt_allocator.h) or, without one, from its own pool.
 */
#ifndef VNPU_ACL_ACL_OP_H
#define VNPU_ACL_ACL_OP_H

#include <stddef.h>
#include <stdint.h>

#include "acl_base.h"
#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct aclopHandle aclopHandle;
typedef struct aclopAttr aclopAttr;
typedef struct aclopKernelDesc aclopKernelDesc;

/* Engine an operator should run on. vnpu has one kind of engine and ignores
 * the choice. */
typedef enum aclEngineType {
    ACL_ENGINE_SYS,
    ACL_ENGINE_AICORE,
    ACL_ENGINE_VECTOR,
} aclopEngineType;

/*
 * Set the directory of offline-compiled single-operator models; CANN allows
 * one call per process. vnpu: its operators are built in and no model files
 * are read; the call is accepted for compatibility (ACL_ERROR_INVALID_PARAM
 * for NULL).
 */
ACL_FUNC_VISIBILITY aclError aclopSetModelDir(const char *modelDir);

/*
 * Load single-operator models from memory; may be called repeatedly.
 * vnpu: the model data is not interpreted and the call is accepted for
 * compatibility (ACL_ERROR_INVALID_PARAM for NULL or size 0).
 */
ACL_FUNC_VISIBILITY aclError aclopLoad(const void *model, size_t modelSize);

/* Create an empty operator attribute set. Returns NULL when out of memory. */
ACL_FUNC_VISIBILITY aclopAttr *aclopCreateAttr(void);

/* Destroy an attribute set; NULL is ignored. */
ACL_FUNC_VISIBILITY void aclopDestroyAttr(const aclopAttr *attr);

/*
 * Set attribute attrName of attr, replacing any earlier value of that name.
 * All setters return ACL_SUCCESS, or ACL_ERROR_INVALID_PARAM for a NULL attr,
 * name or value pointer, or a negative count. The strings and arrays are
 * copied.
 */
/* Boolean attribute: 0 is false, anything else true. */
ACL_FUNC_VISIBILITY aclError aclopSetAttrBool(aclopAttr *attr, const char *attrName, uint8_t attrValue);
/* Integer attribute. */
ACL_FUNC_VISIBILITY aclError aclopSetAttrInt(aclopAttr *attr, const char *attrName, int64_t attrValue);
/* Floating-point attribute. */
ACL_FUNC_VISIBILITY aclError aclopSetAttrFloat(aclopAttr *attr, const char *attrName, float attrValue);
/* String attribute. */
ACL_FUNC_VISIBILITY aclError aclopSetAttrString(aclopAttr *attr, const char *attrName, const char *attrValue);
/* Data-type attribute (for example Cast's destination type). */
ACL_FUNC_VISIBILITY aclError aclopSetAttrDataType(aclopAttr *attr, const char *attrName, aclDataType attrValue);
/* List of numValues integers (for example the axes of a reduction). */
ACL_FUNC_VISIBILITY aclError aclopSetAttrListInt(aclopAttr *attr, const char *attrName, int numValues,
                                                 const int64_t *values);
/* List of numValues floating-point values. */
ACL_FUNC_VISIBILITY aclError aclopSetAttrListFloat(aclopAttr *attr, const char *attrName, int numValues,
                                                   const float *values);

/*
 * Enqueue operator opType on stream. inputs/outputs are data buffers over
 * device memory, described by inputDesc/outputDesc; attr may be NULL for an
 * operator without attributes. On success outputDesc is refreshed with the
 * shapes the operator produces. The call only enqueues: synchronise the
 * stream before reading the outputs.
 * vnpu: runs its built-in operators, on ACL_FLOAT, ACL_FLOAT16, ACL_BF16
 * and ACL_INT32 tensors (fp16/bf16 compute in fp32):
 *   Add, Sub, Mul, RealDiv  equal shapes, or one input with a single
 *                           element (broadcast); int32 division by zero
 *                           fails the stream (ACL_ERROR_RT_AICORE_EXCEPTION)
 *   Relu, Abs
 *   Cast                    dst_type (data type or int)
 *   ReduceSumD, ReduceMaxD  axes (required; negative ones count from the
 *                           end; out of range or repeated axes are
 *                           ACL_ERROR_OP_ATTR_NOT_MATCH; [] reduces nothing,
 *                           as TensorFlow's Sum), keep_dims. vnpu: any
 *                           set; axes that are not adjacent (e.g. [0, 2])
 *                           run as one job of several reduce tasks whose
 *                           intermediates share the workspace block (one
 *                           allocator alloc/free per call); fp16/bf16 sums
 *                           are rounded once, as for adjacent axes
 *   SoftmaxV2               axes (default the last one; several must be
 *                           adjacent), float only
 *   MatMul                  2-D inputs, transpose_x1, transpose_x2
 * Codes: an unknown opType ACL_ERROR_OP_NOT_FOUND; a wrong number, shape
 * or type of inputs ACL_ERROR_OP_INPUT_NOT_MATCH (also for broadcasting
 * beyond a single element, unknown input dimensions, an empty reduction
 * axis); of outputs ACL_ERROR_OP_OUTPUT_NOT_MATCH (output dimensions may be
 * unknown, -1, or the rank, [-2]: they are filled in); an unsupported
 * element type ACL_ERROR_UNSUPPORTED_DATA_TYPE; a missing, invalid or
 * unknown attribute ACL_ERROR_OP_ATTR_NOT_MATCH; a blocked format
 * (NC1HWC0, FRACTAL_*, ...) ACL_ERROR_FORMAT_NOT_MATCH. Every buffer must
 * be device memory (aclrtMalloc*) of the stream's device holding the whole
 * tensor, else ACL_ERROR_INVALID_PARAM; aligned to its element size, else
 * ACL_ERROR_MEMORY_ADDRESS_UNALIGNED; the output may start at a full-size
 * input (in place) but not overlap one otherwise (MatMul: not at all).
 * stream NULL is the current context's default stream; a stream of
 * another context gives ACL_ERROR_RT_STREAM_CONTEXT. Tensors without
 * elements queue nothing. The operator's workspace comes from the
 * allocator registered for the stream, consulted at every call (see
 * acl_rt_allocator.h), or else from the runtime's own pool.
 */
ACL_FUNC_VISIBILITY aclError aclopExecuteV2(const char *opType, int numInputs, aclTensorDesc *inputDesc[],
                                            aclDataBuffer *inputs[], int numOutputs, aclTensorDesc *outputDesc[],
                                            aclDataBuffer *outputs[], aclopAttr *attr, aclrtStream stream);

/*
 * Deprecated (CANN): aclopExecuteV2() with const descriptors and without
 * its refresh: outputDesc is never written, so unknown output dimensions
 * (-1, [-2]) stay unknown. Operators, checks, codes, workspace and stream
 * rules are those of aclopExecuteV2().
 */
ACL_DEPRECATED_MESSAGE("aclopExecute is deprecated, use aclopExecuteV2 instead")
ACL_FUNC_VISIBILITY aclError aclopExecute(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[],
                                          const aclDataBuffer *const inputs[], int numOutputs,
                                          const aclTensorDesc *const outputDesc[], aclDataBuffer *const outputs[],
                                          const aclopAttr *attr, aclrtStream stream);

/*
 * Check and plan the call of operator opType with these descriptors and
 * attributes once, for repeated aclopExecWithHandle() calls; *handle
 * receives it. The descriptors and opAttr may be destroyed afterwards
 * (vnpu keeps what the call needs). The checks and codes are those of
 * aclopExecuteV2() for descriptors and attributes (an unknown opType is
 * ACL_ERROR_OP_NOT_FOUND, ...); handle NULL is ACL_ERROR_INVALID_PARAM,
 * no memory ACL_ERROR_BAD_ALLOC. No context is needed.
 */
ACL_FUNC_VISIBILITY aclError aclopCreateHandle(const char *opType, int numInputs,
                                               const aclTensorDesc *const inputDesc[], int numOutputs,
                                               const aclTensorDesc *const outputDesc[], const aclopAttr *opAttr,
                                               aclopHandle **handle);

/* Destroy a handle of aclopCreateHandle(); NULL is ignored. Calls running
 * with it must have returned (the work they queued need not be done). */
ACL_FUNC_VISIBILITY void aclopDestroyHandle(aclopHandle *handle);

/*
 * Enqueue the operator of handle on stream with these buffers, described by
 * the handle's descriptors; no descriptor is refreshed. numInputs and
 * numOutputs must be those of the handle, else ACL_ERROR_INVALID_PARAM, as
 * for a NULL handle, inputs or outputs. Buffers, stream and workspace
 * (the stream's registered allocator or the runtime's pool) follow
 * aclopExecuteV2(). A handle may be used by several threads at once.
 */
ACL_FUNC_VISIBILITY aclError aclopExecWithHandle(aclopHandle *handle, int numInputs,
                                                 const aclDataBuffer *const inputs[], int numOutputs,
                                                 aclDataBuffer *const outputs[], aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACL_ACL_OP_H */
