/* SPDX-License-Identifier: MIT */
/*
 * aclnn/acl_meta.h - the objects of CANN's two-stage operator API (aclnn):
 * tensors as views, host scalars, value arrays, lists, and the executor
 * that links aclnnXxxGetWorkspaceSize to aclnnXxx.
 *
 * Names, prototypes and semantics follow CANN's nnopbase (acl_meta.h);
 * the text is vnpu's own and compiles as C11 and C++17. Implemented by
 * libnnopbase.so (link -lnnopbase).
 *
 * A tensor is a view of device memory: @viewDims elements laid out by
 * @stride (in elements, NULL: row-major contiguous) from element @offset
 * of the storage at @tensorData, whose shape is @storageDims. Strides may
 * be 0 (broadcast) and need not be contiguous; two tensors may view the
 * same storage.
 */
#ifndef VNPU_ACLNN_ACL_META_H
#define VNPU_ACLNN_ACL_META_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef ACLNN_META
#define ACLNN_META
typedef struct aclOpExecutor aclOpExecutor;
typedef struct aclTensor aclTensor;
typedef struct aclScalar aclScalar;
typedef struct aclIntArray aclIntArray;
typedef struct aclFloatArray aclFloatArray;
typedef struct aclBoolArray aclBoolArray;
typedef struct aclTensorList aclTensorList;
typedef struct aclScalarList aclScalarList;

typedef int32_t aclnnStatus;
#ifdef __cplusplus
constexpr aclnnStatus OK = 0;
#endif
#endif

/* ---- creation and destruction ------------------------------------------- */

/* A view of @tensorData; NULL (message in aclGetRecentErrMsg) on a bad
 * shape, a negative dimension or a rank above ACL_MAX_DIM_CNT. */
ACL_FUNC_VISIBILITY aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType,
					       const int64_t *stride, int64_t offset, aclFormat format,
					       const int64_t *storageDims, uint64_t storageDimsNum,
					       void *tensorData);
/* A host scalar: @value is read as one element of @dataType. */
ACL_FUNC_VISIBILITY aclScalar *aclCreateScalar(void *value, aclDataType dataType);
ACL_FUNC_VISIBILITY aclIntArray *aclCreateIntArray(const int64_t *value, uint64_t size);
ACL_FUNC_VISIBILITY aclFloatArray *aclCreateFloatArray(const float *value, uint64_t size);
ACL_FUNC_VISIBILITY aclBoolArray *aclCreateBoolArray(const bool *value, uint64_t size);
/* Lists take their elements: aclDestroyTensorList / aclDestroyScalarList
 * destroy them too. */
ACL_FUNC_VISIBILITY aclTensorList *aclCreateTensorList(const aclTensor *const *value, uint64_t size);
ACL_FUNC_VISIBILITY aclScalarList *aclCreateScalarList(const aclScalar *const *value, uint64_t size);

ACL_FUNC_VISIBILITY aclnnStatus aclDestroyTensor(const aclTensor *tensor);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyScalar(const aclScalar *scalar);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyIntArray(const aclIntArray *array);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyFloatArray(const aclFloatArray *array);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyBoolArray(const aclBoolArray *array);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyTensorList(const aclTensorList *array);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyScalarList(const aclScalarList *array);

/* ---- getters ------------------------------------------------------------- */

/* The shape getters return a copy the caller frees with free(). */
ACL_FUNC_VISIBILITY aclnnStatus aclGetViewShape(const aclTensor *tensor, int64_t **viewDims, uint64_t *viewDimsNum);
ACL_FUNC_VISIBILITY aclnnStatus aclGetStorageShape(const aclTensor *tensor, int64_t **storageDims,
						   uint64_t *storageDimsNum);
ACL_FUNC_VISIBILITY aclnnStatus aclGetViewStrides(const aclTensor *tensor, int64_t **stridesValue,
						  uint64_t *stridesNum);
ACL_FUNC_VISIBILITY aclnnStatus aclGetViewOffset(const aclTensor *tensor, int64_t *offset);
ACL_FUNC_VISIBILITY aclnnStatus aclGetFormat(const aclTensor *tensor, aclFormat *format);
ACL_FUNC_VISIBILITY aclnnStatus aclGetDataType(const aclTensor *tensor, aclDataType *dataType);
ACL_FUNC_VISIBILITY aclnnStatus aclGetIntArraySize(const aclIntArray *array, uint64_t *size);
ACL_FUNC_VISIBILITY aclnnStatus aclGetFloatArraySize(const aclFloatArray *array, uint64_t *size);
ACL_FUNC_VISIBILITY aclnnStatus aclGetBoolArraySize(const aclBoolArray *array, uint64_t *size);
ACL_FUNC_VISIBILITY aclnnStatus aclGetTensorListSize(const aclTensorList *tensorList, uint64_t *size);
ACL_FUNC_VISIBILITY aclnnStatus aclGetScalarListSize(const aclScalarList *scalarList, uint64_t *size);

/* Re-describe an existing tensor (arguments as aclCreateTensor). */
ACL_FUNC_VISIBILITY aclnnStatus aclInitTensor(aclTensor *tensor, const int64_t *viewDims, uint64_t viewDimsNum,
					      aclDataType dataType, const int64_t *stride, int64_t offset,
					      aclFormat format, const int64_t *storageDims, uint64_t storageDimsNum,
					      void *tensorDataAddr);

/* ---- executors ------------------------------------------------------------ */

/*
 * An executor is made by an aclnnXxxGetWorkspaceSize call and used by one
 * aclnnXxx call, which frees it. A repeatable one may be launched again
 * (with new addresses set below) until aclDestroyAclOpExecutor.
 */
ACL_FUNC_VISIBILITY aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor *executor);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor *executor);

/*
 * New device addresses for a repeatable executor's tensors. @index counts
 * the executor's input tensors (Input), output tensors (Output), or inputs
 * then outputs (Tensor), in the order the GetWorkspaceSize call takes
 * them, a tensor list counting as its elements; the Dynamic forms name a
 * list by its position among the call's inputs or outputs (@irIndex) and
 * the element in it (@relativeIndex). @tensor, if not NULL, gets @addr
 * as its storage address too.
 */
ACL_FUNC_VISIBILITY aclnnStatus aclSetInputTensorAddr(aclOpExecutor *executor, const size_t index,
						      aclTensor *tensor, void *addr);
ACL_FUNC_VISIBILITY aclnnStatus aclSetOutputTensorAddr(aclOpExecutor *executor, const size_t index,
						       aclTensor *tensor, void *addr);
ACL_FUNC_VISIBILITY aclnnStatus aclSetDynamicInputTensorAddr(aclOpExecutor *executor, size_t irIndex,
							     const size_t relativeIndex, aclTensorList *tensors,
							     void *addr);
ACL_FUNC_VISIBILITY aclnnStatus aclSetDynamicOutputTensorAddr(aclOpExecutor *executor, size_t irIndex,
							      const size_t relativeIndex, aclTensorList *tensors,
							      void *addr);
ACL_FUNC_VISIBILITY aclnnStatus aclSetTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor,
						 void *addr);
ACL_FUNC_VISIBILITY aclnnStatus aclSetDynamicTensorAddr(aclOpExecutor *executor, size_t irIndex,
							const size_t relativeIndex, aclTensorList *tensors,
							void *addr);
/* The same under the capitalised names CANN also exports. */
ACL_FUNC_VISIBILITY aclnnStatus AclSetInputTensorAddr(aclOpExecutor *executor, const size_t index,
						      aclTensor *tensor, void *addr);
ACL_FUNC_VISIBILITY aclnnStatus AclSetOutputTensorAddr(aclOpExecutor *executor, const size_t index,
						       aclTensor *tensor, void *addr);
ACL_FUNC_VISIBILITY aclnnStatus AclSetDynamicInputTensorAddr(aclOpExecutor *executor, size_t irIndex,
							     const size_t relativeIndex, aclTensorList *tensors,
							     void *addr);
ACL_FUNC_VISIBILITY aclnnStatus AclSetDynamicOutputTensorAddr(aclOpExecutor *executor, size_t irIndex,
							      const size_t relativeIndex, aclTensorList *tensors,
							      void *addr);
ACL_FUNC_VISIBILITY aclnnStatus AclSetTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor,
						 void *addr);
ACL_FUNC_VISIBILITY aclnnStatus AclSetDynamicTensorAddr(aclOpExecutor *executor, size_t irIndex,
							const size_t relativeIndex, aclTensorList *tensors,
							void *addr);

/* The storage address of a tensor (for later GetWorkspaceSize calls). */
ACL_FUNC_VISIBILITY aclnnStatus aclSetRawTensorAddr(aclTensor *tensor, void *addr);
ACL_FUNC_VISIBILITY aclnnStatus aclGetRawTensorAddr(const aclTensor *tensor, void **addr);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNN_ACL_META_H */
