/* SPDX-License-Identifier: MIT */
/*
 * vnpu — base types of the Ascend CANN ACL API.
 *
 * Handle types, aclError and its ACL_ERROR_* values, data types and formats,
 * data buffers and tensor descriptors. Names, values and prototypes are those
 * of CANN; the comments say what CANN specifies and, marked "vnpu:", where
 * vnpu's libascendcl behaves differently or checks more.
 *
 * Conventions of every function in these headers unless its comment says
 * otherwise: a NULL handle or a NULL output pointer is rejected with
 * ACL_ERROR_INVALID_PARAM; a failed call leaves a message that
 * aclGetRecentErrMsg() returns; all functions are thread-safe.
 */
#ifndef VNPU_ACL_ACL_BASE_H
#define VNPU_ACL_ACL_BASE_H

#include <stddef.h>
#include <stdint.h>

#include "error_codes/rt_error_codes.h"
#include "error_codes/ge_error_codes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Define FUNC_VISIBILITY when building the library to export its API. */
#ifdef FUNC_VISIBILITY
#define ACL_FUNC_VISIBILITY __attribute__((visibility("default")))
#else
#define ACL_FUNC_VISIBILITY
#endif

/* Marks an API that CANN keeps only for old callers. */
#if defined(__GNUC__)
#define ACL_DEPRECATED __attribute__((deprecated))
#define ACL_DEPRECATED_MESSAGE(message) __attribute__((deprecated(message)))
#else
#define ACL_DEPRECATED
#define ACL_DEPRECATED_MESSAGE(message)
#endif

/* ---- Handles (opaque; never dereference them) ---------------------------- */

typedef void *aclrtStream;
typedef void *aclrtEvent;
typedef void *aclrtContext;
typedef void *aclrtNotify;
typedef void *aclrtLabel;
typedef void *aclrtLabelList;
typedef void *aclrtMbuf;
typedef void *aclrtTaskGrp;
typedef void *aclmdlRITask;
typedef void *aclrtCntNotify;

/* Custom allocator handles, used by acl_rt_allocator.h. */
typedef void *aclrtAllocatorDesc;
typedef void *aclrtAllocator;
typedef void *aclrtAllocatorBlock;
typedef void *aclrtAllocatorAddr;

typedef struct aclDataBuffer aclDataBuffer;
typedef struct aclTensorDesc aclTensorDesc;

/* ---- Error type and ACL_* codes ------------------------------------------ */

/* Result of every ACL call: ACL_SUCCESS (0) or one of the codes below, of
 * rt_error_codes.h or of ge_error_codes.h. */
typedef int aclError;

/* An IEEE 754 binary16 value, stored as its bit pattern. */
typedef uint16_t aclFloat16;

static const int ACL_ERROR_NONE = 0;
static const int ACL_SUCCESS = 0;

/* 1xxxxx: the caller passed something invalid. */
static const int ACL_ERROR_INVALID_PARAM = 100000;
static const int ACL_ERROR_UNINITIALIZE = 100001;
static const int ACL_ERROR_REPEAT_INITIALIZE = 100002;
static const int ACL_ERROR_INVALID_FILE = 100003;
static const int ACL_ERROR_WRITE_FILE = 100004;
static const int ACL_ERROR_INVALID_FILE_SIZE = 100005;
static const int ACL_ERROR_PARSE_FILE = 100006;
static const int ACL_ERROR_FILE_MISSING_ATTR = 100007;
static const int ACL_ERROR_FILE_ATTR_INVALID = 100008;
static const int ACL_ERROR_INVALID_DUMP_CONFIG = 100009;
static const int ACL_ERROR_INVALID_PROFILING_CONFIG = 100010;
static const int ACL_ERROR_INVALID_MODEL_ID = 100011;
static const int ACL_ERROR_DESERIALIZE_MODEL = 100012;
static const int ACL_ERROR_PARSE_MODEL = 100013;
static const int ACL_ERROR_READ_MODEL_FAILURE = 100014;
static const int ACL_ERROR_MODEL_SIZE_INVALID = 100015;
static const int ACL_ERROR_MODEL_MISSING_ATTR = 100016;
static const int ACL_ERROR_MODEL_INPUT_NOT_MATCH = 100017;
static const int ACL_ERROR_MODEL_OUTPUT_NOT_MATCH = 100018;
static const int ACL_ERROR_MODEL_NOT_DYNAMIC = 100019;
static const int ACL_ERROR_OP_TYPE_NOT_MATCH = 100020;
static const int ACL_ERROR_OP_INPUT_NOT_MATCH = 100021;
static const int ACL_ERROR_OP_OUTPUT_NOT_MATCH = 100022;
static const int ACL_ERROR_OP_ATTR_NOT_MATCH = 100023;
static const int ACL_ERROR_OP_NOT_FOUND = 100024;
static const int ACL_ERROR_OP_LOAD_FAILED = 100025;
static const int ACL_ERROR_UNSUPPORTED_DATA_TYPE = 100026;
static const int ACL_ERROR_FORMAT_NOT_MATCH = 100027;
static const int ACL_ERROR_BIN_SELECTOR_NOT_REGISTERED = 100028;
static const int ACL_ERROR_KERNEL_NOT_FOUND = 100029;
static const int ACL_ERROR_BIN_SELECTOR_ALREADY_REGISTERED = 100030;
static const int ACL_ERROR_KERNEL_ALREADY_REGISTERED = 100031;
static const int ACL_ERROR_INVALID_QUEUE_ID = 100032;
static const int ACL_ERROR_REPEAT_SUBSCRIBE = 100033;
static const int ACL_ERROR_STREAM_NOT_SUBSCRIBE = 100034;
static const int ACL_ERROR_THREAD_NOT_SUBSCRIBE = 100035;
static const int ACL_ERROR_WAIT_CALLBACK_TIMEOUT = 100036;
static const int ACL_ERROR_REPEAT_FINALIZE = 100037;
static const int ACL_ERROR_NOT_STATIC_AIPP = 100038;
static const int ACL_ERROR_COMPILING_STUB_MODE = 100039;
static const int ACL_ERROR_GROUP_NOT_SET = 100040;
static const int ACL_ERROR_GROUP_NOT_CREATE = 100041;
static const int ACL_ERROR_PROF_ALREADY_RUN = 100042;
static const int ACL_ERROR_PROF_NOT_RUN = 100043;
static const int ACL_ERROR_DUMP_ALREADY_RUN = 100044;
static const int ACL_ERROR_DUMP_NOT_RUN = 100045;
static const int ACL_ERROR_PROF_REPEAT_SUBSCRIBE = 148046;
static const int ACL_ERROR_PROF_API_CONFLICT = 148047;
static const int ACL_ERROR_INVALID_MAX_OPQUEUE_NUM_CONFIG = 148048;
static const int ACL_ERROR_INVALID_OPP_PATH = 148049;
static const int ACL_ERROR_OP_UNSUPPORTED_DYNAMIC = 148050;
static const int ACL_ERROR_RELATIVE_RESOURCE_NOT_CLEARED = 148051;
static const int ACL_ERROR_UNSUPPORTED_JPEG = 148052;
static const int ACL_ERROR_INVALID_BUNDLE_MODEL_ID = 148053;

/* 2xxxxx: resources and support. */
static const int ACL_ERROR_BAD_ALLOC = 200000;
static const int ACL_ERROR_API_NOT_SUPPORT = 200001;
static const int ACL_ERROR_INVALID_DEVICE = 200002;
static const int ACL_ERROR_MEMORY_ADDRESS_UNALIGNED = 200003;
static const int ACL_ERROR_RESOURCE_NOT_MATCH = 200004;
static const int ACL_ERROR_INVALID_RESOURCE_HANDLE = 200005;
static const int ACL_ERROR_FEATURE_UNSUPPORTED = 200006;
static const int ACL_ERROR_PROF_MODULES_UNSUPPORTED = 200007;

/* 3xxxxx: storage. */
static const int ACL_ERROR_STORAGE_OVER_LIMIT = 300000;

/* 5xxxxx: internal failures. */
static const int ACL_ERROR_INTERNAL_ERROR = 500000;
static const int ACL_ERROR_FAILURE = 500001;
static const int ACL_ERROR_GE_FAILURE = 500002;
static const int ACL_ERROR_RT_FAILURE = 500003;
static const int ACL_ERROR_DRV_FAILURE = 500004;
static const int ACL_ERROR_PROFILING_FAILURE = 500005;

/* ---- Data types and formats ---------------------------------------------- */

/* Element type of a tensor. The numbering has gaps; the values are CANN's
 * (ACL_HIFLOAT4 and ACL_HIFLOAT4_SCALE as in the newer open-source CANN
 * runtime's acl_base_rt.h; older copies of it end at ACL_FLOAT4_E1M2). */
typedef enum {
    ACL_DT_UNDEFINED = -1,
    ACL_FLOAT = 0,
    ACL_FLOAT16 = 1,
    ACL_INT8 = 2,
    ACL_INT32 = 3,
    ACL_UINT8 = 4,
    ACL_INT16 = 6,
    ACL_UINT16 = 7,
    ACL_UINT32 = 8,
    ACL_INT64 = 9,
    ACL_UINT64 = 10,
    ACL_DOUBLE = 11,
    ACL_BOOL = 12,
    ACL_STRING = 13,
    ACL_COMPLEX64 = 16,
    ACL_COMPLEX128 = 17,
    ACL_BF16 = 27,
    ACL_INT4 = 29,
    ACL_UINT1 = 30,
    ACL_COMPLEX32 = 33,
    ACL_HIFLOAT8 = 34,
    ACL_FLOAT8_E5M2 = 35,
    ACL_FLOAT8_E4M3FN = 36,
    ACL_FLOAT8_E8M0 = 37,
    ACL_FLOAT6_E3M2 = 38,
    ACL_FLOAT6_E2M3 = 39,
    ACL_FLOAT4_E2M1 = 40,
    ACL_FLOAT4_E1M2 = 41,
    ACL_HIFLOAT4 = 42,
    ACL_HIFLOAT4_SCALE = 43,
} aclDataType;

/* Memory layout of a tensor. vnpu's operators work on plain row-major data in
 * the described shape; blocked layouts (NC1HWC0*, NDC1HWC0, FRACTAL_*) are not
 * supported by them. The values are CANN's (ACL_FORMAT_FRACTAL_NZ_C0_* as in
 * the newer open-source CANN runtime's acl_base_rt.h). */
typedef enum {
    ACL_FORMAT_UNDEFINED = -1,
    ACL_FORMAT_NCHW = 0,
    ACL_FORMAT_NHWC = 1,
    ACL_FORMAT_ND = 2,
    ACL_FORMAT_NC1HWC0 = 3,
    ACL_FORMAT_FRACTAL_Z = 4,
    ACL_FORMAT_NC1HWC0_C04 = 12,
    ACL_FORMAT_HWCN = 16,
    ACL_FORMAT_NDHWC = 27,
    ACL_FORMAT_FRACTAL_NZ = 29,
    ACL_FORMAT_NCDHW = 30,
    ACL_FORMAT_NDC1HWC0 = 32,
    ACL_FRACTAL_Z_3D = 33,
    ACL_FORMAT_NC = 35,
    ACL_FORMAT_NCL = 47,
    ACL_FORMAT_FRACTAL_NZ_C0_16 = 50,
    ACL_FORMAT_FRACTAL_NZ_C0_32 = 51,
    ACL_FORMAT_FRACTAL_NZ_C0_2 = 52,
    ACL_FORMAT_FRACTAL_NZ_C0_4 = 53,
    ACL_FORMAT_FRACTAL_NZ_C0_8 = 54,
} aclFormat;

/* ---- Data buffers ---------------------------------------------------------- */

/*
 * Wrap a memory range (usually device memory from aclrtMalloc) as an operator
 * input or output. The buffer only refers to the memory; it neither owns nor
 * frees it. data may be NULL with size 0 (an empty tensor).
 * Returns NULL when out of memory.
 */
ACL_FUNC_VISIBILITY aclDataBuffer *aclCreateDataBuffer(void *data, size_t size);

/* Destroy a data buffer (not the memory it refers to). ACL_SUCCESS, or
 * ACL_ERROR_INVALID_PARAM for NULL. */
ACL_FUNC_VISIBILITY aclError aclDestroyDataBuffer(const aclDataBuffer *dataBuffer);

/* Point an existing data buffer at another memory range. The previous memory
 * is not freed. ACL_SUCCESS or ACL_ERROR_INVALID_PARAM. */
ACL_FUNC_VISIBILITY aclError aclUpdateDataBuffer(aclDataBuffer *dataBuffer, void *data, size_t size);

/* Address held by the buffer; NULL if dataBuffer is NULL. */
ACL_FUNC_VISIBILITY void *aclGetDataBufferAddr(const aclDataBuffer *dataBuffer);

/* Size in bytes, truncated to 32 bits; 0 if dataBuffer is NULL.
 * Use aclGetDataBufferSizeV2. */
ACL_DEPRECATED_MESSAGE("aclGetDataBufferSize is deprecated, use aclGetDataBufferSizeV2 instead")
ACL_FUNC_VISIBILITY uint32_t aclGetDataBufferSize(const aclDataBuffer *dataBuffer);

/* Size in bytes held by the buffer; 0 if dataBuffer is NULL. */
ACL_FUNC_VISIBILITY size_t aclGetDataBufferSizeV2(const aclDataBuffer *dataBuffer);

/* Size in bytes of one element of dataType; 0 for ACL_DT_UNDEFINED, unknown
 * values and types without a whole-byte element size. */
ACL_FUNC_VISIBILITY size_t aclDataTypeSize(aclDataType dataType);

/* ---- Tensor descriptors ---------------------------------------------------- */

/*
 * Describe a tensor: element type, shape and format. numDims 0 describes a
 * scalar (dims may then be NULL); otherwise dims holds numDims sizes (at
 * most 128). Returns NULL if an argument is invalid (including a type or
 * format that is not one of the enums' values) or memory runs out.
 * vnpu: operators execute only fully known shapes; negative (unknown)
 * dimensions are accepted here but rejected when an operator is executed.
 */
ACL_FUNC_VISIBILITY aclTensorDesc *aclCreateTensorDesc(aclDataType dataType, int numDims, const int64_t *dims,
                                                       aclFormat format);

/* Destroy a tensor descriptor; NULL is ignored. */
ACL_FUNC_VISIBILITY void aclDestroyTensorDesc(const aclTensorDesc *desc);

/* Bytes needed by the described tensor (element count times element size);
 * 0 if desc is NULL. */
ACL_FUNC_VISIBILITY size_t aclGetTensorDescSize(const aclTensorDesc *desc);

/* Number of elements of the described tensor (1 for a scalar); 0 if desc is
 * NULL. */
ACL_FUNC_VISIBILITY size_t aclGetTensorDescElementCount(const aclTensorDesc *desc);

/* Number of dimensions; 0 for a scalar or if desc is NULL. */
ACL_FUNC_VISIBILITY size_t aclGetTensorDescNumDims(const aclTensorDesc *desc);

/* Store the size of dimension index (from 0) in *dimSize. ACL_SUCCESS, or
 * ACL_ERROR_INVALID_PARAM for NULL arguments or index >= number of dims. */
ACL_FUNC_VISIBILITY aclError aclGetTensorDescDimV2(const aclTensorDesc *desc, size_t index, int64_t *dimSize);

/* Element type; ACL_DT_UNDEFINED if desc is NULL. */
ACL_FUNC_VISIBILITY aclDataType aclGetTensorDescType(const aclTensorDesc *desc);

/* Format; ACL_FORMAT_UNDEFINED if desc is NULL. */
ACL_FUNC_VISIBILITY aclFormat aclGetTensorDescFormat(const aclTensorDesc *desc);

/* Replace the shape of a descriptor (same rules as aclCreateTensorDesc).
 * ACL_SUCCESS or ACL_ERROR_INVALID_PARAM. */
ACL_FUNC_VISIBILITY aclError aclSetTensorShape(aclTensorDesc *desc, int numDims, const int64_t *dims);

/* ---- Platform -------------------------------------------------------------- */

/* Name of the SoC the runtime drives, as a string owned by the library;
 * NULL on failure. vnpu: the name of its virtual NPU. */
ACL_FUNC_VISIBILITY const char *aclrtGetSocName(void);

/* ---- Queries, conversions and application logs (acl_query.c, acl_version.c) */

/* Severity of an aclAppLog() line. */
typedef enum {
    ACL_DEBUG = 0,
    ACL_INFO = 1,
    ACL_WARNING = 2,
    ACL_ERROR = 3,
} aclLogLevel;

/* Runtime options of aclrtSetSysParamOpt() and aclrtCtxSetSysParamOpt(). */
typedef enum { ACL_OPT_DETERMINISTIC = 0, ACL_OPT_ENABLE_DEBUG_KERNEL = 1 } aclSysParamOpt;

/* Features of the software stack asked about with aclGetCannAttribute(). */
typedef enum {
    ACL_CANN_ATTR_UNDEFINED = -1,
    ACL_CANN_ATTR_INF_NAN = 0,
    ACL_CANN_ATTR_BF16 = 1,
    ACL_CANN_ATTR_JIT_COMPILE = 2,
} aclCannAttr;

/* Device figures of aclGetDeviceCapability(). */
typedef enum {
    ACL_DEVICE_INFO_UNDEFINED = -1,
    ACL_DEVICE_INFO_AI_CORE_NUM = 0,
    ACL_DEVICE_INFO_VECTOR_CORE_NUM = 1,
    ACL_DEVICE_INFO_L2_SIZE = 2,
} aclDeviceInfo;

/* IEEE 754 binary16 to float, exactly (NaN payloads become a quiet NaN). */
ACL_FUNC_VISIBILITY float aclFloat16ToFloat(aclFloat16 value);

/* float to the nearest binary16 (ties to even); too large values become
 * infinity, NaN stays NaN. */
ACL_FUNC_VISIBILITY aclFloat16 aclFloatToFloat16(float value);

/*
 * Write an application log line of level logLevel, naming func, file and
 * line, with the printf-style message fmt. vnpu: the line goes to stderr,
 * "[LEVEL] APP(pid,thread) file:line func: message", when logLevel is at
 * least the level of ASCEND_GLOBAL_LOG_LEVEL (0 debug .. 3 error, 4 none;
 * default 3), read once. An unknown level or a NULL fmt writes nothing.
 */
ACL_FUNC_VISIBILITY void aclAppLog(aclLogLevel logLevel, const char *func, const char *file, uint32_t line,
                                   const char *fmt, ...);

#define ACL_APP_LOG(level, fmt, ...) aclAppLog(level, __FUNCTION__, __FILE__, __LINE__, fmt, ##__VA_ARGS__)

/* The CANN attributes this environment has: *cannAttrList points at *num
 * entries owned by the library. vnpu: ACL_CANN_ATTR_INF_NAN and
 * ACL_CANN_ATTR_BF16 (its operators compute IEEE results and take bf16). */
ACL_FUNC_VISIBILITY aclError aclGetCannAttributeList(const aclCannAttr **cannAttrList, size_t *num);

/* *value = 1 if cannAttr is available, 0 if not; an attribute that is not
 * one of aclCannAttr's is ACL_ERROR_INVALID_PARAM. */
ACL_FUNC_VISIBILITY aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t *value);

/*
 * A figure of device deviceId (need not be set): AI Core and vector core
 * counts are the device's engines (the module's "engines" parameter); vnpu
 * has no L2 cache (0). A bad id is ACL_ERROR_RT_INVALID_DEVICEID, an
 * unknown deviceInfo ACL_ERROR_INVALID_PARAM.
 */
ACL_FUNC_VISIBILITY aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo, int64_t *value);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACL_ACL_BASE_H */
