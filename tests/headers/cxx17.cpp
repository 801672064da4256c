// SPDX-License-Identifier: MIT
//
// Compile-only check: every public header builds as strict C++17, the key
// constants (including the `static const` ACL_* and GE codes, which C cannot
// test at compile time) have CANN's values, every function vnpu exports is
// declared, and CANN's own usage patterns compile. Expected values are CANN's,
// from shared/reference/acl-api.md, not copied from our headers.
#include "acl/acl.h"
#include "acl/acl_rt_allocator.h"
#include "acl/acl_op_compiler.h"
#include "acl/acl_base.h"
#include "acl/error_codes/rt_error_codes.h"
#include "acl/error_codes/ge_error_codes.h"

#include <cstddef>
#include <cstdint>
#include <type_traits>

// ---- ACL_* codes (static const int in CANN) --------------------------------
static_assert(std::is_same<decltype(ACL_SUCCESS), const int>::value, "ACL_* codes are const int");
static_assert(ACL_SUCCESS == 0 && ACL_ERROR_NONE == 0, "ACL_SUCCESS");
static_assert(ACL_ERROR_INVALID_PARAM == 100000, "ACL_ERROR_INVALID_PARAM");
static_assert(ACL_ERROR_UNINITIALIZE == 100001, "ACL_ERROR_UNINITIALIZE");
static_assert(ACL_ERROR_REPEAT_INITIALIZE == 100002, "ACL_ERROR_REPEAT_INITIALIZE");
static_assert(ACL_ERROR_OP_NOT_FOUND == 100024, "ACL_ERROR_OP_NOT_FOUND");
static_assert(ACL_ERROR_UNSUPPORTED_DATA_TYPE == 100026, "ACL_ERROR_UNSUPPORTED_DATA_TYPE");
static_assert(ACL_ERROR_WAIT_CALLBACK_TIMEOUT == 100036, "ACL_ERROR_WAIT_CALLBACK_TIMEOUT");
static_assert(ACL_ERROR_REPEAT_FINALIZE == 100037, "ACL_ERROR_REPEAT_FINALIZE");
static_assert(ACL_ERROR_DUMP_NOT_RUN == 100045, "ACL_ERROR_DUMP_NOT_RUN");
static_assert(ACL_ERROR_PROF_REPEAT_SUBSCRIBE == 148046, "ACL_ERROR_PROF_REPEAT_SUBSCRIBE");
static_assert(ACL_ERROR_INVALID_BUNDLE_MODEL_ID == 148053, "ACL_ERROR_INVALID_BUNDLE_MODEL_ID");
static_assert(ACL_ERROR_BAD_ALLOC == 200000, "ACL_ERROR_BAD_ALLOC");
static_assert(ACL_ERROR_PROF_MODULES_UNSUPPORTED == 200007, "ACL_ERROR_PROF_MODULES_UNSUPPORTED");
static_assert(ACL_ERROR_STORAGE_OVER_LIMIT == 300000, "ACL_ERROR_STORAGE_OVER_LIMIT");
static_assert(ACL_ERROR_INTERNAL_ERROR == 500000, "ACL_ERROR_INTERNAL_ERROR");
static_assert(ACL_ERROR_GE_FAILURE == 500002, "ACL_ERROR_GE_FAILURE");
static_assert(ACL_ERROR_PROFILING_FAILURE == 500005, "ACL_ERROR_PROFILING_FAILURE");

// ---- GE codes (static const uint32_t in CANN) ------------------------------
static_assert(std::is_same<decltype(ACL_ERROR_GE_PARAM_INVALID), const uint32_t>::value, "GE codes are uint32_t");
static_assert(ACL_ERROR_GE_PARAM_INVALID == 145000u, "ACL_ERROR_GE_PARAM_INVALID");
static_assert(ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID == 145006u, "ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID");
static_assert(ACL_ERROR_GE_SHAPE_INVALID == 145021u, "ACL_ERROR_GE_SHAPE_INVALID");
static_assert(ACL_ERROR_GE_DEVICE_MEMORY_OPERATE_FAILED == 245002u, "ACL_ERROR_GE_DEVICE_MEMORY_OPERATE_FAILED");
static_assert(ACL_ERROR_GE_DATA_NOT_ALIGNED == 345104u, "ACL_ERROR_GE_DATA_NOT_ALIGNED");
static_assert(ACL_ERROR_GE_UNLOAD_MODEL == 545009u, "ACL_ERROR_GE_UNLOAD_MODEL");
static_assert(ACL_ERROR_GE_REDEPLOYING == 545602u, "ACL_ERROR_GE_REDEPLOYING");

// ---- RT codes (#define in CANN) --------------------------------------------
static_assert(ACL_ERROR_RT_INVALID_DEVICEID == 107001, "ACL_ERROR_RT_INVALID_DEVICEID");
static_assert(ACL_ERROR_STREAM_CAPTURE_CONFLICT == 107032, "ACL_ERROR_STREAM_CAPTURE_CONFLICT");
static_assert(ACL_ERROR_RT_SYMBOL_NOT_FOUND == 107042, "ACL_ERROR_RT_SYMBOL_NOT_FOUND");
static_assert(ACL_ERROR_RT_FEATURE_NOT_SUPPORT == 207000, "ACL_ERROR_RT_FEATURE_NOT_SUPPORT");
static_assert(ACL_ERROR_RT_NO_DEVICE == 207004, "ACL_ERROR_RT_NO_DEVICE");
static_assert(ACL_ERROR_RT_INTERNAL_ERROR == 507000, "ACL_ERROR_RT_INTERNAL_ERROR");
static_assert(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT == 507046, "ACL_ERROR_RT_STREAM_SYNC_TIMEOUT");
static_assert(ACL_ERROR_RT_SUSPECT_REMOTE_ERROR == 507057, "ACL_ERROR_RT_SUSPECT_REMOTE_ERROR");
static_assert(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED == 507911, "ACL_ERROR_HOST_MEMORY_NOT_REGISTERED");
static_assert(ACL_ERROR_RT_CCU_TIMEOUT == 507915, "ACL_ERROR_RT_CCU_TIMEOUT");
static_assert(ACLNN_STRESS_HIGH_BIT_FAIL == 574009, "ACLNN_STRESS_HIGH_BIT_FAIL");

// ---- Enumerations and flags -------------------------------------------------
static_assert(ACL_FLOAT16 == 1 && ACL_BF16 == 27 && ACL_UINT64 == 10, "aclDataType");
static_assert(ACL_COMPLEX128 == 17 && ACL_HIFLOAT8 == 34 && ACL_FLOAT4_E2M1 == 40, "aclDataType");
static_assert(ACL_FORMAT_NCHW == 0 && ACL_FORMAT_NHWC == 1 && ACL_FORMAT_NC == 35, "aclFormat");
static_assert(ACL_MEMCPY_HOST_TO_DEVICE == 1 && ACL_MEMCPY_DEFAULT == 4, "aclrtMemcpyKind");
static_assert(ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE == 5, "aclrtMemcpyKind");
static_assert(ACL_MEM_MALLOC_NORMAL_ONLY == 2 && ACL_MEM_MALLOC_HUGE1G_ONLY == 6, "aclrtMemMallocPolicy");
static_assert(ACL_MEM_TYPE_LOW_BAND_WIDTH == 0x0100, "aclrtMemMallocPolicy");
static_assert(ACL_EVENT_RECORDED_STATUS_COMPLETE == 1, "aclrtEventRecordedStatus");
static_assert(ACL_EVENT_WAIT_STATUS_NOT_READY == 1, "aclrtEventWaitStatus");
static_assert(ACL_EVENT_STATUS_RESERVED == 2, "aclrtEventStatus");
static_assert(ACL_STREAM_STATUS_NOT_READY == 1, "aclrtStreamStatus");
static_assert(ACL_DEVICE == 0 && ACL_HOST == 1, "aclrtRunMode");
static_assert(ACL_DDR_MEM == 0 && ACL_MEM_NORMAL == 12, "aclrtMemAttr");
static_assert(ACL_CALLBACK_NO_BLOCK == 0, "aclrtCallbackBlockType");
static_assert(ACL_RT_THREAD_LEVEL == 0, "aclrtLastErrLevel");
static_assert(ACL_ENGINE_SYS == 0 && ACL_ENGINE_AICORE == 1, "aclopEngineType");
static_assert(ACL_COMPILE_SYS == 0, "aclopCompileType");
static_assert(ACL_STREAM_FAST_LAUNCH == 0x1u && ACL_STREAM_CPU_SCHEDULE == 0x10u, "stream flags");
static_assert(ACL_EVENT_CAPTURE_STREAM_PROGRESS == 0x2u && ACL_EVENT_EXTERNAL == 0x20u, "event flags");
static_assert(ACL_EVENT_DEVICE_USE_ONLY == 0x10u, "event flags");
static_assert(ACL_VALUE_WAIT_EQ == 1u && ACL_VALUE_WAIT_AND == 2u, "value wait flags");
static_assert(ACL_STREAM_WAIT_VALUE_GEQ == ACL_VALUE_WAIT_GEQ && ACL_STREAM_WAIT_VALUE_NOR == ACL_VALUE_WAIT_NOR,
              "value wait flag spellings");
static_assert(ACL_MAJOR_VERSION == 1 && ACL_MINOR_VERSION == 17 && ACL_PATCH_VERSION == 0, "version");

// ---- Handle types -----------------------------------------------------------
static_assert(std::is_same<aclrtStream, void *>::value, "aclrtStream");
static_assert(std::is_same<aclrtAllocatorDesc, void *>::value, "aclrtAllocatorDesc");
static_assert(std::is_same<aclError, int>::value, "aclError");
static_assert(std::is_same<aclFloat16, uint16_t>::value, "aclFloat16");

// ---- Every exported function is declared, with CANN's type -----------------
template <typename R, typename... A> constexpr bool declared(R (*)(A...)) { return true; }
#define DECLARED(f, type) static_assert(declared(&f) && std::is_same<decltype(&f), type>::value, #f)

DECLARED(aclInit, aclError (*)(const char *));
DECLARED(aclFinalize, aclError (*)());
DECLARED(aclFinalizeReference, aclError (*)(uint64_t *));
DECLARED(aclGetRecentErrMsg, const char *(*)());
DECLARED(aclrtGetLastError, aclError (*)(aclrtLastErrLevel));
DECLARED(aclrtPeekAtLastError, aclError (*)(aclrtLastErrLevel));
DECLARED(aclrtGetVersion, aclError (*)(int32_t *, int32_t *, int32_t *));
DECLARED(aclrtSetDevice, aclError (*)(int32_t));
DECLARED(aclrtResetDevice, aclError (*)(int32_t));
DECLARED(aclrtResetDeviceForce, aclError (*)(int32_t));
DECLARED(aclrtGetDevice, aclError (*)(int32_t *));
DECLARED(aclrtGetDeviceCount, aclError (*)(uint32_t *));
DECLARED(aclrtSynchronizeDevice, aclError (*)());
DECLARED(aclrtSynchronizeDeviceWithTimeout, aclError (*)(int32_t));
DECLARED(aclrtGetRunMode, aclError (*)(aclrtRunMode *));
DECLARED(aclrtCreateContext, aclError (*)(aclrtContext *, int32_t));
DECLARED(aclrtDestroyContext, aclError (*)(aclrtContext));
DECLARED(aclrtSetCurrentContext, aclError (*)(aclrtContext));
DECLARED(aclrtGetCurrentContext, aclError (*)(aclrtContext *));
DECLARED(aclrtCtxGetCurrentDefaultStream, aclError (*)(aclrtStream *));
DECLARED(aclrtCreateStream, aclError (*)(aclrtStream *));
DECLARED(aclrtCreateStreamWithConfig, aclError (*)(aclrtStream *, uint32_t, uint32_t));
DECLARED(aclrtDestroyStream, aclError (*)(aclrtStream));
DECLARED(aclrtDestroyStreamForce, aclError (*)(aclrtStream));
DECLARED(aclrtSynchronizeStream, aclError (*)(aclrtStream));
DECLARED(aclrtSynchronizeStreamWithTimeout, aclError (*)(aclrtStream, int32_t));
DECLARED(aclrtStreamQuery, aclError (*)(aclrtStream, aclrtStreamStatus *));
DECLARED(aclrtStreamWaitEvent, aclError (*)(aclrtStream, aclrtEvent));
DECLARED(aclrtValueWrite, aclError (*)(void *, uint64_t, uint32_t, aclrtStream));
DECLARED(aclrtValueWait, aclError (*)(void *, uint64_t, uint32_t, aclrtStream));
DECLARED(aclrtCreateEvent, aclError (*)(aclrtEvent *));
DECLARED(aclrtCreateEventWithFlag, aclError (*)(aclrtEvent *, uint32_t));
DECLARED(aclrtCreateEventExWithFlag, aclError (*)(aclrtEvent *, uint32_t));
DECLARED(aclrtRecordEvent, aclError (*)(aclrtEvent, aclrtStream));
DECLARED(aclrtResetEvent, aclError (*)(aclrtEvent, aclrtStream));
DECLARED(aclrtSynchronizeEvent, aclError (*)(aclrtEvent));
DECLARED(aclrtSynchronizeEventWithTimeout, aclError (*)(aclrtEvent, int32_t));
DECLARED(aclrtQueryEventStatus, aclError (*)(aclrtEvent, aclrtEventRecordedStatus *));
DECLARED(aclrtQueryEventWaitStatus, aclError (*)(aclrtEvent, aclrtEventWaitStatus *));
DECLARED(aclrtEventElapsedTime, aclError (*)(float *, aclrtEvent, aclrtEvent));
DECLARED(aclrtEventGetTimestamp, aclError (*)(aclrtEvent, uint64_t *));
DECLARED(aclrtDestroyEvent, aclError (*)(aclrtEvent));
DECLARED(aclrtMalloc, aclError (*)(void **, size_t, aclrtMemMallocPolicy));
DECLARED(aclrtMallocAlign32, aclError (*)(void **, size_t, aclrtMemMallocPolicy));
DECLARED(aclrtMallocCached, aclError (*)(void **, size_t, aclrtMemMallocPolicy));
DECLARED(aclrtFree, aclError (*)(void *));
DECLARED(aclrtMallocHost, aclError (*)(void **, size_t));
DECLARED(aclrtFreeHost, aclError (*)(void *));
DECLARED(aclrtMemcpy, aclError (*)(void *, size_t, const void *, size_t, aclrtMemcpyKind));
DECLARED(aclrtMemcpyAsync, aclError (*)(void *, size_t, const void *, size_t, aclrtMemcpyKind, aclrtStream));
DECLARED(aclrtMemset, aclError (*)(void *, size_t, int32_t, size_t));
DECLARED(aclrtMemsetAsync, aclError (*)(void *, size_t, int32_t, size_t, aclrtStream));
DECLARED(aclrtGetMemInfo, aclError (*)(aclrtMemAttr, size_t *, size_t *));
DECLARED(aclrtSubscribeReport, aclError (*)(uint64_t, aclrtStream));
DECLARED(aclrtLaunchCallback, aclError (*)(aclrtCallback, void *, aclrtCallbackBlockType, aclrtStream));
DECLARED(aclrtProcessReport, aclError (*)(int32_t));
DECLARED(aclrtUnSubscribeReport, aclError (*)(uint64_t, aclrtStream));
DECLARED(aclrtLaunchHostFunc, aclError (*)(aclrtStream, aclrtHostFunc, void *));

DECLARED(aclrtAllocatorCreateDesc, aclrtAllocatorDesc (*)());
DECLARED(aclrtAllocatorDestroyDesc, aclError (*)(aclrtAllocatorDesc));
DECLARED(aclrtAllocatorSetObjToDesc, aclError (*)(aclrtAllocatorDesc, aclrtAllocator));
DECLARED(aclrtAllocatorSetAllocFuncToDesc, aclError (*)(aclrtAllocatorDesc, aclrtAllocatorAllocFunc));
DECLARED(aclrtAllocatorSetFreeFuncToDesc, aclError (*)(aclrtAllocatorDesc, aclrtAllocatorFreeFunc));
DECLARED(aclrtAllocatorSetAllocAdviseFuncToDesc, aclError (*)(aclrtAllocatorDesc, aclrtAllocatorAllocAdviseFunc));
DECLARED(aclrtAllocatorSetGetAddrFromBlockFuncToDesc,
         aclError (*)(aclrtAllocatorDesc, aclrtAllocatorGetAddrFromBlockFunc));
DECLARED(aclrtAllocatorRegister, aclError (*)(aclrtStream, aclrtAllocatorDesc));
DECLARED(aclrtAllocatorGetByStream,
         aclError (*)(aclrtStream, aclrtAllocatorDesc *, aclrtAllocator *, aclrtAllocatorAllocFunc *,
                      aclrtAllocatorFreeFunc *, aclrtAllocatorAllocAdviseFunc *, aclrtAllocatorGetAddrFromBlockFunc *));
DECLARED(aclrtAllocatorUnregister, aclError (*)(aclrtStream));

DECLARED(aclCreateDataBuffer, aclDataBuffer *(*)(void *, size_t));
DECLARED(aclDestroyDataBuffer, aclError (*)(const aclDataBuffer *));
DECLARED(aclUpdateDataBuffer, aclError (*)(aclDataBuffer *, void *, size_t));
DECLARED(aclGetDataBufferAddr, void *(*)(const aclDataBuffer *));
DECLARED(aclGetDataBufferSizeV2, size_t (*)(const aclDataBuffer *));
DECLARED(aclDataTypeSize, size_t (*)(aclDataType));
DECLARED(aclCreateTensorDesc, aclTensorDesc *(*)(aclDataType, int, const int64_t *, aclFormat));
DECLARED(aclDestroyTensorDesc, void (*)(const aclTensorDesc *));
DECLARED(aclGetTensorDescSize, size_t (*)(const aclTensorDesc *));
DECLARED(aclGetTensorDescElementCount, size_t (*)(const aclTensorDesc *));
DECLARED(aclGetTensorDescNumDims, size_t (*)(const aclTensorDesc *));
DECLARED(aclGetTensorDescDimV2, aclError (*)(const aclTensorDesc *, size_t, int64_t *));
DECLARED(aclGetTensorDescType, aclDataType (*)(const aclTensorDesc *));
DECLARED(aclGetTensorDescFormat, aclFormat (*)(const aclTensorDesc *));
DECLARED(aclSetTensorShape, aclError (*)(aclTensorDesc *, int, const int64_t *));
DECLARED(aclrtGetSocName, const char *(*)());

DECLARED(aclopSetModelDir, aclError (*)(const char *));
DECLARED(aclopLoad, aclError (*)(const void *, size_t));
DECLARED(aclopCreateAttr, aclopAttr *(*)());
DECLARED(aclopDestroyAttr, void (*)(const aclopAttr *));
DECLARED(aclopSetAttrBool, aclError (*)(aclopAttr *, const char *, uint8_t));
DECLARED(aclopSetAttrInt, aclError (*)(aclopAttr *, const char *, int64_t));
DECLARED(aclopSetAttrFloat, aclError (*)(aclopAttr *, const char *, float));
DECLARED(aclopSetAttrString, aclError (*)(aclopAttr *, const char *, const char *));
DECLARED(aclopSetAttrDataType, aclError (*)(aclopAttr *, const char *, aclDataType));
DECLARED(aclopSetAttrListInt, aclError (*)(aclopAttr *, const char *, int, const int64_t *));
DECLARED(aclopSetAttrListFloat, aclError (*)(aclopAttr *, const char *, int, const float *));
DECLARED(aclopExecuteV2, aclError (*)(const char *, int, aclTensorDesc **, aclDataBuffer **, int, aclTensorDesc **,
                                      aclDataBuffer **, aclopAttr *, aclrtStream));
DECLARED(aclopCreateHandle, aclError (*)(const char *, int, const aclTensorDesc *const *, int,
                                         const aclTensorDesc *const *, const aclopAttr *, aclopHandle **));
DECLARED(aclopDestroyHandle, void (*)(aclopHandle *));
DECLARED(aclopExecWithHandle, aclError (*)(aclopHandle *, int, const aclDataBuffer *const *, int,
                                           aclDataBuffer *const *, aclrtStream));
DECLARED(aclopCompileAndExecuteV2,
         aclError (*)(const char *, int, aclTensorDesc **, aclDataBuffer **, int, aclTensorDesc **, aclDataBuffer **,
                      aclopAttr *, aclopEngineType, aclopCompileType, const char *, aclrtStream));

// The deprecated ones must be declared and marked deprecated (a warning, not
// an error, for its users).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
DECLARED(aclGetDataBufferSize, uint32_t (*)(const aclDataBuffer *));
DECLARED(aclrtQueryEvent, aclError (*)(aclrtEvent, aclrtEventStatus *));
DECLARED(aclopExecute, aclError (*)(const char *, int, const aclTensorDesc *const *, const aclDataBuffer *const *, int,
                                    const aclTensorDesc *const *, aclDataBuffer *const *, const aclopAttr *,
                                    aclrtStream));
#pragma GCC diagnostic pop

// ---- CANN usage patterns (compiled, never run) -------------------------------

// The custom-allocator sample of CANN's runtime repository (reference §3.1):
// registration, then a round trip through aclrtAllocatorGetByStream.
struct Block {
    void *addr;
    size_t size;
};
static void *CustomAlloc(aclrtAllocator allocator, size_t size)
{
    (void)allocator;
    return new Block{nullptr, size};
}
static void CustomFree(aclrtAllocator allocator, aclrtAllocatorBlock block)
{
    (void)allocator;
    delete static_cast<Block *>(block);
}
static void *CustomAllocAdvise(aclrtAllocator allocator, size_t size, aclrtAllocatorAddr addr)
{
    (void)addr;
    return CustomAlloc(allocator, size);
}
static void *CustomGetAddrFromBlock(aclrtAllocatorBlock block)
{
    return static_cast<Block *>(block)->addr;
}

int vnpu_header_check_allocator_sample(aclrtStream stream);
int vnpu_header_check_allocator_sample(aclrtStream stream)
{
    static int pool;
    aclrtAllocatorDesc desc = aclrtAllocatorCreateDesc();
    if (aclrtAllocatorSetObjToDesc(desc, &pool) != ACL_SUCCESS ||
        aclrtAllocatorSetAllocFuncToDesc(desc, CustomAlloc) != ACL_SUCCESS ||
        aclrtAllocatorSetFreeFuncToDesc(desc, CustomFree) != ACL_SUCCESS ||
        aclrtAllocatorSetAllocAdviseFuncToDesc(desc, CustomAllocAdvise) != ACL_SUCCESS ||
        aclrtAllocatorSetGetAddrFromBlockFuncToDesc(desc, CustomGetAddrFromBlock) != ACL_SUCCESS ||
        aclrtAllocatorRegister(stream, desc) != ACL_SUCCESS)
        return 1;

    aclrtAllocatorDesc descOut = nullptr;
    aclrtAllocator allocatorOut = nullptr;
    aclrtAllocatorAllocFunc allocFunc = nullptr;
    aclrtAllocatorFreeFunc freeFunc = nullptr;
    aclrtAllocatorAllocAdviseFunc allocAdviseFunc = nullptr;
    aclrtAllocatorGetAddrFromBlockFunc getAddrFunc = nullptr;
    if (aclrtAllocatorGetByStream(stream, &descOut, &allocatorOut, &allocFunc, &freeFunc, &allocAdviseFunc,
                                  &getAddrFunc) != ACL_SUCCESS)
        return 1;
    aclrtAllocatorBlock block = allocFunc(allocatorOut, 256);
    void *addr = getAddrFunc(block);
    aclrtAllocatorBlock advised = allocAdviseFunc(allocatorOut, 128, addr);
    freeFunc(allocatorOut, advised);
    freeFunc(allocatorOut, block);
    (void)aclrtAllocatorUnregister(stream);
    (void)aclrtAllocatorDestroyDesc(desc);
    (void)aclrtResetDeviceForce(0);
    return aclFinalize();
}

// The single-operator pattern: tensor descriptors, data buffers, attributes.
int vnpu_header_check_op(aclrtStream stream, void *devA, void *devB, void *devOut);
int vnpu_header_check_op(aclrtStream stream, void *devA, void *devB, void *devOut)
{
    const int64_t dims[2] = {2, 3};
    aclTensorDesc *in[2] = {aclCreateTensorDesc(ACL_FLOAT16, 2, dims, ACL_FORMAT_ND),
                            aclCreateTensorDesc(ACL_FLOAT16, 2, dims, ACL_FORMAT_ND)};
    aclTensorDesc *out[1] = {aclCreateTensorDesc(ACL_FLOAT16, 2, dims, ACL_FORMAT_ND)};
    size_t bytes = aclGetTensorDescSize(in[0]);
    aclDataBuffer *inBuf[2] = {aclCreateDataBuffer(devA, bytes), aclCreateDataBuffer(devB, bytes)};
    aclDataBuffer *outBuf[1] = {aclCreateDataBuffer(devOut, bytes)};
    aclopAttr *attr = aclopCreateAttr();
    const int64_t axes[1] = {-1};
    aclError ret = aclopSetAttrListInt(attr, "axes", 1, axes);
    if (ret == ACL_SUCCESS)
        ret = aclopExecuteV2("Add", 2, in, inBuf, 1, out, outBuf, nullptr, stream);
    if (ret == ACL_SUCCESS)
        ret = aclopCompileAndExecuteV2("Add", 2, in, inBuf, 1, out, outBuf, attr, ACL_ENGINE_SYS, ACL_COMPILE_SYS,
                                       nullptr, stream);
    if (ret == ACL_SUCCESS)
        ret = aclrtSynchronizeStream(stream);
    aclopDestroyAttr(attr);
    for (aclDataBuffer *b : inBuf)
        (void)aclDestroyDataBuffer(b);
    (void)aclDestroyDataBuffer(outBuf[0]);
    for (aclTensorDesc *d : in)
        aclDestroyTensorDesc(d);
    aclDestroyTensorDesc(out[0]);
    return ret;
}

// The memcpy sample pattern (Ascend/samples memcpy_host_device_async).
int vnpu_header_check_memcpy(size_t size);
int vnpu_header_check_memcpy(size_t size)
{
    aclrtContext context = nullptr;
    aclrtStream stream = nullptr;
    void *host = nullptr;
    void *dev = nullptr;
    size_t freeMem = 0, totalMem = 0;
    aclrtRunMode mode;
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS ||
        aclrtCreateContext(&context, 0) != ACL_SUCCESS || aclrtCreateStream(&stream) != ACL_SUCCESS ||
        aclrtGetRunMode(&mode) != ACL_SUCCESS || aclrtGetMemInfo(ACL_DDR_MEM, &freeMem, &totalMem) != ACL_SUCCESS ||
        aclrtMallocHost(&host, size) != ACL_SUCCESS ||
        aclrtMalloc(&dev, size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
        return 1;
    aclError ret = aclrtMemcpyAsync(dev, size, host, size, ACL_MEMCPY_HOST_TO_DEVICE, stream);
    if (ret == ACL_SUCCESS)
        ret = aclrtSynchronizeStream(stream);
    if (ret == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT)
        ret = ACL_ERROR_FAILURE;
    (void)aclrtFree(dev);
    (void)aclrtFreeHost(host);
    (void)aclrtDestroyStream(stream);
    (void)aclrtDestroyContext(context);
    (void)aclrtResetDevice(0);
    (void)aclFinalize();
    return ret;
}
