/* SPDX-License-Identifier: MIT */
/*
 * Compile-only check: every public header builds as strict C11 and the key
 * constants have CANN's values. Expected values are CANN's, taken from the
 * reference sheet (shared/reference/acl-api.md), not from our headers.
 *
 * C cannot use the `static const int` ACL_* codes in constant expressions, so
 * they are checked in cxx17.cpp; here they are only referenced.
 */
#include "acl/acl.h"
#include "acl/acl_rt_allocator.h"
#include "acl/acl_op_compiler.h"
#include "acl/acl_base.h"
#include "acl/error_codes/rt_error_codes.h"
#include "acl/error_codes/ge_error_codes.h"

/* Including everything twice must be harmless (include guards). */
#include "acl/acl.h"
#include "acl/acl_rt_allocator.h"

#include <assert.h>

/* Enumerations. */
static_assert(ACL_DT_UNDEFINED == -1, "ACL_DT_UNDEFINED");
static_assert(ACL_FLOAT == 0, "ACL_FLOAT");
static_assert(ACL_FLOAT16 == 1, "ACL_FLOAT16");
static_assert(ACL_INT32 == 3, "ACL_INT32");
static_assert(ACL_INT64 == 9, "ACL_INT64");
static_assert(ACL_BOOL == 12, "ACL_BOOL");
static_assert(ACL_BF16 == 27, "ACL_BF16");
static_assert(ACL_FLOAT4_E1M2 == 41, "ACL_FLOAT4_E1M2");
static_assert(ACL_FORMAT_UNDEFINED == -1, "ACL_FORMAT_UNDEFINED");
static_assert(ACL_FORMAT_ND == 2, "ACL_FORMAT_ND");
static_assert(ACL_FORMAT_FRACTAL_NZ == 29, "ACL_FORMAT_FRACTAL_NZ");
static_assert(ACL_FRACTAL_Z_3D == 33, "ACL_FRACTAL_Z_3D");
static_assert(ACL_FORMAT_NCL == 47, "ACL_FORMAT_NCL");
static_assert(ACL_HOST == 1, "ACL_HOST");
static_assert(ACL_STREAM_STATUS_RESERVED == 0xFFFF, "ACL_STREAM_STATUS_RESERVED");
static_assert(ACL_EVENT_STATUS_NOT_READY == 1, "ACL_EVENT_STATUS_NOT_READY");
static_assert(ACL_EVENT_RECORDED_STATUS_NOT_READY == 0, "ACL_EVENT_RECORDED_STATUS_NOT_READY");
static_assert(ACL_EVENT_RECORDED_STATUS_COMPLETE == 1, "ACL_EVENT_RECORDED_STATUS_COMPLETE");
static_assert(ACL_EVENT_WAIT_STATUS_RESERVED == 0xFFFF, "ACL_EVENT_WAIT_STATUS_RESERVED");
static_assert(ACL_MEM_MALLOC_HUGE_FIRST == 0, "ACL_MEM_MALLOC_HUGE_FIRST");
static_assert(ACL_MEM_MALLOC_NORMAL_ONLY == 2, "ACL_MEM_MALLOC_NORMAL_ONLY");
static_assert(ACL_MEM_MALLOC_HUGE1G_ONLY_P2P == 7, "ACL_MEM_MALLOC_HUGE1G_ONLY_P2P");
static_assert(ACL_MEM_TYPE_HIGH_BAND_WIDTH == 0x1000, "ACL_MEM_TYPE_HIGH_BAND_WIDTH");
static_assert(ACL_MEM_ACCESS_USER_SPACE_READONLY == 0x100000, "ACL_MEM_ACCESS_USER_SPACE_READONLY");
static_assert(ACL_MEMCPY_DEVICE_TO_HOST == 2, "ACL_MEMCPY_DEVICE_TO_HOST");
static_assert(ACL_MEMCPY_DEFAULT == 4, "ACL_MEMCPY_DEFAULT");
static_assert(ACL_MEMCPY_INTER_DEVICE_TO_DEVICE == 7, "ACL_MEMCPY_INTER_DEVICE_TO_DEVICE");
static_assert(ACL_HBM_MEM == 1, "ACL_HBM_MEM");
static_assert(ACL_HBM_MEM_P2P_HUGE1G == 11, "ACL_HBM_MEM_P2P_HUGE1G");
static_assert(ACL_MEM_P2P_HUGE1G == 17, "ACL_MEM_P2P_HUGE1G");
static_assert(ACL_CALLBACK_BLOCK == 1, "ACL_CALLBACK_BLOCK");
static_assert(ACL_RT_THREAD_LEVEL == 0, "ACL_RT_THREAD_LEVEL");
static_assert(ACL_RT_STREAM_STATE_DESTROY_PRE == 2, "ACL_RT_STREAM_STATE_DESTROY_PRE");
static_assert(ACL_ENGINE_VECTOR == 2, "ACL_ENGINE_VECTOR");
static_assert(ACL_COMPILE_UNREGISTERED == 1, "ACL_COMPILE_UNREGISTERED");

/* Macros. */
static_assert(ACL_MAJOR_VERSION == 1 && ACL_MINOR_VERSION == 17 && ACL_PATCH_VERSION == 0, "version");
static_assert(ACL_STREAM_FAST_SYNC == 0x2U, "ACL_STREAM_FAST_SYNC");
static_assert(ACL_STREAM_DEVICE_USE_ONLY == 0x20U, "ACL_STREAM_DEVICE_USE_ONLY");
static_assert(ACL_EVENT_SYNC == 0x1U, "ACL_EVENT_SYNC");
static_assert(ACL_EVENT_TIME_LINE == 0x8U, "ACL_EVENT_TIME_LINE");
static_assert(ACL_EVENT_IPC == 0x40U, "ACL_EVENT_IPC");
static_assert(ACL_VALUE_WAIT_GEQ == 0U && ACL_VALUE_WAIT_NOR == 3U, "ACL_VALUE_WAIT_*");
static_assert(ACL_STREAM_WAIT_VALUE_EQ == ACL_VALUE_WAIT_EQ, "wait flag spellings");
static_assert(ACL_STREAM_WAIT_VALUE_AND == 2U, "ACL_STREAM_WAIT_VALUE_AND");
static_assert(ACL_RT_SUCCESS == 0, "ACL_RT_SUCCESS");
static_assert(ACL_ERROR_RT_PARAM_INVALID == 107000, "ACL_ERROR_RT_PARAM_INVALID");
static_assert(ACL_ERROR_RT_CONTEXT_NULL == 107002, "ACL_ERROR_RT_CONTEXT_NULL");
static_assert(ACL_ERROR_RT_SUB_ACLGRAPH_IS_CAPTURING == 107045, "ACL_ERROR_RT_SUB_ACLGRAPH_IS_CAPTURING");
static_assert(ACL_ERROR_RT_MEMORY_ALLOCATION == 207001, "ACL_ERROR_RT_MEMORY_ALLOCATION");
static_assert(ACL_ERROR_RT_LINK_TYPE_NOT_SUPPORTED == 207021, "ACL_ERROR_RT_LINK_TYPE_NOT_SUPPORTED");
static_assert(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT == 507046, "ACL_ERROR_RT_STREAM_SYNC_TIMEOUT");
static_assert(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT == 507047, "ACL_ERROR_RT_EVENT_SYNC_TIMEOUT");
static_assert(ACL_ERROR_RT_DRV_INTERNAL_ERROR == 507899, "ACL_ERROR_RT_DRV_INTERNAL_ERROR");
static_assert(ACL_ERROR_RT_CCU_EXCEPTION == 507916, "ACL_ERROR_RT_CCU_EXCEPTION");

/* Types. */
static_assert(sizeof(aclFloat16) == 2, "aclFloat16");
static_assert(sizeof(aclError) == sizeof(int), "aclError");
static_assert(sizeof(aclrtStream) == sizeof(void *), "aclrtStream");

/* A callback of each allocator type, to check the typedefs' signatures. */
static void *my_alloc(aclrtAllocator a, size_t n) { (void)a; (void)n; return NULL; }
static void my_free(aclrtAllocator a, aclrtAllocatorBlock b) { (void)a; (void)b; }
static void *my_advise(aclrtAllocator a, size_t n, aclrtAllocatorAddr p) { (void)a; (void)n; return p; }
static void *my_addr(aclrtAllocatorBlock b) { return b; }
static void my_cb(void *p) { (void)p; }

/* Referencing each function checks that its declaration exists with the
 * expected type. Never called: this file is only compiled. */
int vnpu_header_check_c11(void);
int vnpu_header_check_c11(void)
{
    aclError (*rt_init)(const char *) = aclInit;
    aclError (*rt_fin)(void) = aclFinalize;
    const char *(*rt_msg)(void) = aclGetRecentErrMsg;
    aclError (*rt_last)(aclrtLastErrLevel) = aclrtGetLastError;
    aclError (*rt_ver)(int32_t *, int32_t *, int32_t *) = aclrtGetVersion;
    aclError (*rt_sync)(aclrtStream, int32_t) = aclrtSynchronizeStreamWithTimeout;
    aclError (*rt_wait)(void *, uint64_t, uint32_t, aclrtStream) = aclrtValueWait;
    aclError (*rt_write)(void *, uint64_t, uint32_t, aclrtStream) = aclrtValueWrite;
    aclError (*rt_elapsed)(float *, aclrtEvent, aclrtEvent) = aclrtEventElapsedTime;
    aclError (*rt_ts)(aclrtEvent, uint64_t *) = aclrtEventGetTimestamp;
    aclError (*rt_malloc)(void **, size_t, aclrtMemMallocPolicy) = aclrtMalloc;
    aclError (*rt_cpy)(void *, size_t, const void *, size_t, aclrtMemcpyKind, aclrtStream) = aclrtMemcpyAsync;
    aclError (*rt_info)(aclrtMemAttr, size_t *, size_t *) = aclrtGetMemInfo;
    aclError (*rt_cb)(aclrtCallback, void *, aclrtCallbackBlockType, aclrtStream) = aclrtLaunchCallback;
    aclError (*rt_host)(aclrtStream, aclrtHostFunc, void *) = aclrtLaunchHostFunc;
    const char *(*soc)(void) = aclrtGetSocName;
    aclTensorDesc *(*td)(aclDataType, int, const int64_t *, aclFormat) = aclCreateTensorDesc;
    size_t (*tdn)(const aclTensorDesc *) = aclGetTensorDescElementCount;
    aclDataBuffer *(*db)(void *, size_t) = aclCreateDataBuffer;
    aclrtAllocatorDesc (*ad)(void) = aclrtAllocatorCreateDesc;
    aclError (*reg)(aclrtStream, aclrtAllocatorDesc) = aclrtAllocatorRegister;
    aclError (*get)(aclrtStream, aclrtAllocatorDesc *, aclrtAllocator *, aclrtAllocatorAllocFunc *,
                    aclrtAllocatorFreeFunc *, aclrtAllocatorAllocAdviseFunc *,
                    aclrtAllocatorGetAddrFromBlockFunc *) = aclrtAllocatorGetByStream;
    aclopAttr *(*ca)(void) = aclopCreateAttr;
    aclError (*lf)(aclopAttr *, const char *, int, const float *) = aclopSetAttrListFloat;
    aclError (*ex)(const char *, int, aclTensorDesc *[], aclDataBuffer *[], int, aclTensorDesc *[],
                   aclDataBuffer *[], aclopAttr *, aclrtStream) = aclopExecuteV2;
    aclError (*cex)(const char *, int, aclTensorDesc *[], aclDataBuffer *[], int, aclTensorDesc *[],
                    aclDataBuffer *[], aclopAttr *, aclopEngineType, aclopCompileType, const char *,
                    aclrtStream) = aclopCompileAndExecuteV2;
    aclrtAllocatorAllocFunc fa = my_alloc;
    aclrtAllocatorFreeFunc ff = my_free;
    aclrtAllocatorAllocAdviseFunc fv = my_advise;
    aclrtAllocatorGetAddrFromBlockFunc fg = my_addr;
    aclrtCallback cb = my_cb;
    aclrtHostFunc hf = my_cb;
    aclmdlDataset *ds = NULL;
    aclmdlDesc *md = NULL;
    int err = ACL_ERROR_INVALID_PARAM + ACL_ERROR_REPEAT_FINALIZE;
    uint32_t ge = ACL_ERROR_GE_PARAM_INVALID + ACL_ERROR_GE_REDEPLOYING;

    return (rt_init != NULL) + (rt_fin != NULL) + (rt_msg != NULL) + (rt_last != NULL) + (rt_ver != NULL) +
           (rt_sync != NULL) + (rt_wait != NULL) + (rt_write != NULL) + (rt_elapsed != NULL) +
           (rt_ts != NULL) + (rt_malloc != NULL) + (rt_cpy != NULL) + (rt_info != NULL) + (rt_cb != NULL) +
           (rt_host != NULL) + (soc != NULL) + (td != NULL) + (tdn != NULL) + (db != NULL) + (ad != NULL) +
           (reg != NULL) + (get != NULL) + (ca != NULL) + (lf != NULL) + (ex != NULL) + (cex != NULL) +
           (fa != NULL) + (ff != NULL) + (fv != NULL) + (fg != NULL) + (cb != NULL) + (hf != NULL) +
           (ds == NULL) + (md == NULL) + err + (int)ge;
}
