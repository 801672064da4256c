// SPDX-License-Identifier: MIT
/*
 * nn_meta.c - aclnn's objects (acl_meta.h): tensors as views, host
 * scalars, value arrays and lists, and the type rules they share.
 *
 * Plain heap objects as in CANN (a framework makes several per operator
 * call), each with a magic word that catches a pointer of the wrong kind.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn_int.h"

aclnnStatus nn_err(aclnnStatus code, const char *api, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vnpu_rt_error(code, api, fmt, ap);
	va_end(ap);
	return code;
}

uint64_t nn_reach(int ndim, const int64_t *dims, const int64_t *strides, int64_t offset)
{
	uint64_t last = (uint64_t)offset;
	int i;

	for (i = 0; i < ndim; i++) {
		if (!dims[i])
			return 0;
		last += (uint64_t)(dims[i] - 1) * (uint64_t)strides[i];
	}
	return last + 1;
}

/* ---- tensors ------------------------------------------------------------------ */

/* Fill @t from aclCreateTensor's arguments; 0 or a status (recorded). */
static aclnnStatus tensor_init(aclTensor *t, const char *api, const int64_t *view_dims, uint64_t nview,
			       aclDataType dt, const int64_t *stride, int64_t offset, aclFormat format,
			       const int64_t *storage_dims, uint64_t nstorage, void *data)
{
	int64_t *mem;
	uint64_t i;

	if (nview > VOPS_MAX_RANK || nstorage > VOPS_MAX_RANK)
		return nn_err(ACLNN_ERR_PARAM_INVALID, api, "rank %llu is above %d",
			      (unsigned long long)(nview > nstorage ? nview : nstorage), VOPS_MAX_RANK);
	if ((nview && !view_dims) || (nstorage && !storage_dims))
		return nn_err(ACLNN_ERR_PARAM_NULLPTR, api, "%s is NULL with %llu dimensions",
			      nview && !view_dims ? "viewDims" : "storageDims",
			      (unsigned long long)(nview && !view_dims ? nview : nstorage));
	if (offset < 0)
		return nn_err(ACLNN_ERR_PARAM_INVALID, api, "offset %lld is negative", (long long)offset);
	for (i = 0; i < nview; i++)
		if (view_dims[i] < 0)
			return nn_err(ACLNN_ERR_PARAM_INVALID, api, "viewDims[%llu] is %lld", (unsigned long long)i,
				      (long long)view_dims[i]);
	for (i = 0; i < nstorage; i++)
		if (storage_dims[i] < 0)
			return nn_err(ACLNN_ERR_PARAM_INVALID, api, "storageDims[%llu] is %lld",
				      (unsigned long long)i, (long long)storage_dims[i]);
	mem = malloc((2 * nview + nstorage + 1) * sizeof(*mem));
	if (!mem)
		return nn_err(ACLNN_ERR_INNER, api, "out of memory");
	free(t->dims);
	t->dims = mem;
	t->strides = mem + nview;
	t->sdims = mem + 2 * nview;
	memcpy(t->dims, view_dims, nview * sizeof(*mem));
	if (stride) {
		memcpy(t->strides, stride, nview * sizeof(*mem));
	} else {
		int64_t s = 1;

		for (i = nview; i-- > 0;) {
			t->strides[i] = s;
			s *= view_dims[i] ? view_dims[i] : 1;
		}
	}
	if (nstorage)
		memcpy(t->sdims, storage_dims, nstorage * sizeof(*mem));
	t->magic = NN_TENSOR_MAGIC;
	t->dtype = dt;
	t->format = format;
	t->ndim = (int)nview;
	t->sdim = (int)nstorage;
	t->offset = offset;
	t->data = data;
	return ACLNN_SUCCESS;
}

aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t *stride,
			   int64_t offset, aclFormat format, const int64_t *storageDims, uint64_t storageDimsNum,
			   void *tensorData)
{
	aclTensor *t = calloc(1, sizeof(*t));

	if (!t) {
		nn_err(ACLNN_ERR_INNER, __func__, "out of memory");
		return NULL;
	}
	if (tensor_init(t, __func__, viewDims, viewDimsNum, dataType, stride, offset, format, storageDims,
			storageDimsNum, tensorData)) {
		free(t);
		return NULL;
	}
	return t;
}

aclnnStatus aclInitTensor(aclTensor *tensor, const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType,
			  const int64_t *stride, int64_t offset, aclFormat format, const int64_t *storageDims,
			  uint64_t storageDimsNum, void *tensorDataAddr)
{
	if (!tensor)
		return nn_err(ACLNN_ERR_PARAM_NULLPTR, __func__, "tensor is NULL");
	if (!nn_tensor_ok(tensor))
		return nn_err(ACLNN_ERR_PARAM_INVALID, __func__, "%p is not an aclTensor", (void *)tensor);
	return tensor_init(tensor, __func__, viewDims, viewDimsNum, dataType, stride, offset, format, storageDims,
			   storageDimsNum, tensorDataAddr);
}

static void tensor_free(aclTensor *t)
{
	t->magic = 0;
	free(t->dims);
	free(t);
}

aclnnStatus aclDestroyTensor(const aclTensor *tensor)
{
	if (!tensor)
		return ACLNN_SUCCESS;	/* as free(NULL) */
	if (!nn_tensor_ok(tensor))
		return nn_err(ACLNN_ERR_PARAM_INVALID, __func__, "%p is not an aclTensor", (const void *)tensor);
	tensor_free((aclTensor *)tensor);
	return ACLNN_SUCCESS;
}

/* The getters' common checks. */
#define GET_CHECK(obj, ok, what, out)                                                              \
	do {                                                                                       \
		if (!(obj) || !(out))                                                              \
			return nn_err(ACLNN_ERR_PARAM_NULLPTR, __func__, "%s is NULL",             \
				      !(obj) ? what : "the result pointer");                       \
		if (!(ok))                                                                         \
			return nn_err(ACLNN_ERR_PARAM_INVALID, __func__, "%p is not an %s",        \
				      (const void *)(obj), what);                                  \
	} while (0)

static aclnnStatus copy_dims(const char *api, const int64_t *src, int n, int64_t **out, uint64_t *num)
{
	int64_t *v = malloc((n ? (size_t)n : 1) * sizeof(*v));

	if (!v)
		return nn_err(ACLNN_ERR_INNER, api, "out of memory");
	if (n)
		memcpy(v, src, (size_t)n * sizeof(*v));
	*out = v;
	*num = (uint64_t)n;
	return ACLNN_SUCCESS;
}

aclnnStatus aclGetViewShape(const aclTensor *tensor, int64_t **viewDims, uint64_t *viewDimsNum)
{
	GET_CHECK(tensor, nn_tensor_ok(tensor), "aclTensor", viewDims && viewDimsNum);
	return copy_dims(__func__, tensor->dims, tensor->ndim, viewDims, viewDimsNum);
}

aclnnStatus aclGetStorageShape(const aclTensor *tensor, int64_t **storageDims, uint64_t *storageDimsNum)
{
	GET_CHECK(tensor, nn_tensor_ok(tensor), "aclTensor", storageDims && storageDimsNum);
	return copy_dims(__func__, tensor->sdims, tensor->sdim, storageDims, storageDimsNum);
}

aclnnStatus aclGetViewStrides(const aclTensor *tensor, int64_t **stridesValue, uint64_t *stridesNum)
{
	GET_CHECK(tensor, nn_tensor_ok(tensor), "aclTensor", stridesValue && stridesNum);
	return copy_dims(__func__, tensor->strides, tensor->ndim, stridesValue, stridesNum);
}

aclnnStatus aclGetViewOffset(const aclTensor *tensor, int64_t *offset)
{
	GET_CHECK(tensor, nn_tensor_ok(tensor), "aclTensor", offset);
	*offset = tensor->offset;
	return ACLNN_SUCCESS;
}

aclnnStatus aclGetFormat(const aclTensor *tensor, aclFormat *format)
{
	GET_CHECK(tensor, nn_tensor_ok(tensor), "aclTensor", format);
	*format = tensor->format;
	return ACLNN_SUCCESS;
}

aclnnStatus aclGetDataType(const aclTensor *tensor, aclDataType *dataType)
{
	GET_CHECK(tensor, nn_tensor_ok(tensor), "aclTensor", dataType);
	*dataType = tensor->dtype;
	return ACLNN_SUCCESS;
}

aclnnStatus aclSetRawTensorAddr(aclTensor *tensor, void *addr)
{
	if (!tensor)
		return nn_err(ACLNN_ERR_PARAM_NULLPTR, __func__, "tensor is NULL");
	if (!nn_tensor_ok(tensor))
		return nn_err(ACLNN_ERR_PARAM_INVALID, __func__, "%p is not an aclTensor", (void *)tensor);
	tensor->data = addr;
	return ACLNN_SUCCESS;
}

aclnnStatus aclGetRawTensorAddr(const aclTensor *tensor, void **addr)
{
	GET_CHECK(tensor, nn_tensor_ok(tensor), "aclTensor", addr);
	*addr = tensor->data;
	return ACLNN_SUCCESS;
}

/* ---- scalars -------------------------------------------------------------------- */

bool nn_dt_float(aclDataType dt)
{
	return dt == ACL_FLOAT || dt == ACL_FLOAT16 || dt == ACL_BF16 || dt == ACL_DOUBLE;
}

bool nn_dt_int(aclDataType dt)
{
	switch (dt) {
	case ACL_INT8: case ACL_UINT8: case ACL_INT16: case ACL_UINT16: case ACL_INT32: case ACL_UINT32:
	case ACL_INT64: case ACL_UINT64:
		return true;
	default:
		return false;
	}
}

aclScalar *aclCreateScalar(void *value, aclDataType dataType)
{
	aclScalar *s;

	if (!value) {
		nn_err(ACLNN_ERR_PARAM_NULLPTR, __func__, "value is NULL");
		return NULL;
	}
	if (!vops_dtype_size(dataType)) {
		nn_err(ACLNN_ERR_PARAM_INVALID, __func__, "%s is not a scalar type aclnn computes with",
		       vops_dtype_name(dataType));
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		nn_err(ACLNN_ERR_INNER, __func__, "out of memory");
		return NULL;
	}
	s->magic = NN_SCALAR_MAGIC;
	s->dtype = dataType;
	switch (dataType) {
	case ACL_FLOAT: s->f = *(const float *)value; break;
	case ACL_DOUBLE: s->f = *(const double *)value; break;
	case ACL_FLOAT16: s->f = vops_f16_to_f32(*(const uint16_t *)value); break;
	case ACL_BF16: s->f = vops_bf16_to_f32(*(const uint16_t *)value); break;
	case ACL_INT8: s->i = *(const int8_t *)value; break;
	case ACL_UINT8: s->i = *(const uint8_t *)value; break;
	case ACL_INT16: s->i = *(const int16_t *)value; break;
	case ACL_UINT16: s->i = *(const uint16_t *)value; break;
	case ACL_INT32: s->i = *(const int32_t *)value; break;
	case ACL_UINT32: s->i = *(const uint32_t *)value; break;
	case ACL_INT64: s->i = *(const int64_t *)value; break;
	case ACL_UINT64: s->u = *(const uint64_t *)value; break;
	case ACL_BOOL: s->i = *(const bool *)value; break;
	default: break;
	}
	return s;
}

aclnnStatus aclDestroyScalar(const aclScalar *scalar)
{
	if (!scalar)
		return ACLNN_SUCCESS;
	if (scalar->magic != NN_SCALAR_MAGIC)
		return nn_err(ACLNN_ERR_PARAM_INVALID, __func__, "%p is not an aclScalar", (const void *)scalar);
	((aclScalar *)scalar)->magic = 0;
	free((aclScalar *)scalar);
	return ACLNN_SUCCESS;
}

double nn_scalar_f64(const aclScalar *s)
{
	if (nn_dt_float(s->dtype))
		return s->f;
	if (s->dtype == ACL_UINT64)
		return (double)s->u;
	return (double)s->i;
}

int64_t nn_scalar_i64(const aclScalar *s)
{
	if (nn_dt_float(s->dtype))
		return nn_f64_to_i64(s->f);
	if (s->dtype == ACL_UINT64)
		return s->u > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)s->u;
	return s->i;
}

/* ---- type promotion --------------------------------------------------------------- */

/* 0 bool, 1 integers, 2 floats; -1: not a type aclnn computes with. */
static int dt_kind(aclDataType dt)
{
	if (dt == ACL_BOOL)
		return 0;
	if (nn_dt_int(dt))
		return 1;
	if (nn_dt_float(dt))
		return 2;
	return -1;
}

static bool dt_unsigned(aclDataType dt)
{
	return dt == ACL_UINT8 || dt == ACL_UINT16 || dt == ACL_UINT32 || dt == ACL_UINT64;
}

static aclDataType int_of(size_t bytes, bool is_unsigned)
{
	switch (bytes) {
	case 1: return is_unsigned ? ACL_UINT8 : ACL_INT8;
	case 2: return is_unsigned ? ACL_UINT16 : ACL_INT16;
	case 4: return is_unsigned ? ACL_UINT32 : ACL_INT32;
	default: return is_unsigned ? ACL_UINT64 : ACL_INT64;
	}
}

aclDataType nn_promote(aclDataType a, aclDataType b)
{
	int ka = dt_kind(a), kb = dt_kind(b);
	size_t sa = vops_dtype_size(a), sb = vops_dtype_size(b);

	if (ka < 0 || kb < 0)
		return ACL_DT_UNDEFINED;
	if (a == b)
		return a;
	if (ka != kb)
		return ka > kb ? a : b;
	if (ka == 2) {
		/* fp16 with bf16: neither holds the other. */
		if (sa == 2 && sb == 2)
			return ACL_FLOAT;
		return sa > sb ? a : b;
	}
	/* Integers: one signedness, the wider; mixed, a signed type wider
	 * than the unsigned one (uint8 with int8: int16). */
	if (dt_unsigned(a) == dt_unsigned(b))
		return sa > sb ? a : b;
	{
		size_t su = dt_unsigned(a) ? sa : sb, ss = dt_unsigned(a) ? sb : sa;

		if (ss > su)
			return int_of(ss, false);
		return int_of(su * 2 > 8 ? 8 : su * 2, false);
	}
}

aclDataType nn_promote_scalar(aclDataType t, aclDataType s)
{
	int kt = dt_kind(t), ks = dt_kind(s);

	if (kt < 0 || ks < 0)
		return ACL_DT_UNDEFINED;
	if (ks <= kt)
		return t;
	return ks == 2 ? ACL_FLOAT : ACL_INT64;
}

/* ---- arrays -------------------------------------------------------------------------- */

/* One array of @n elements of @esize bytes copied from @src. */
static void *array_new(const char *api, enum nn_array_kind kind, const void *src, uint64_t n, size_t esize)
{
	struct aclIntArray *a;	/* the three array types share this layout */
	void *v;

	if (n && !src) {
		nn_err(ACLNN_ERR_PARAM_NULLPTR, api, "value is NULL with size %llu", (unsigned long long)n);
		return NULL;
	}
	if (n > (1ull << 32)) {
		nn_err(ACLNN_ERR_PARAM_INVALID, api, "size %llu is too large", (unsigned long long)n);
		return NULL;
	}
	a = calloc(1, sizeof(*a));
	v = malloc(n ? n * esize : 1);
	if (!a || !v) {
		free(a);
		free(v);
		nn_err(ACLNN_ERR_INNER, api, "out of memory");
		return NULL;
	}
	if (n)
		memcpy(v, src, n * esize);
	a->magic = NN_ARRAY_MAGIC;
	a->kind = kind;
	a->size = n;
	a->v = v;
	return a;
}

aclIntArray *aclCreateIntArray(const int64_t *value, uint64_t size)
{
	return array_new(__func__, NN_ARRAY_INT, value, size, sizeof(int64_t));
}

aclFloatArray *aclCreateFloatArray(const float *value, uint64_t size)
{
	return array_new(__func__, NN_ARRAY_FLOAT, value, size, sizeof(float));
}

aclBoolArray *aclCreateBoolArray(const bool *value, uint64_t size)
{
	return array_new(__func__, NN_ARRAY_BOOL, value, size, sizeof(bool));
}

static aclnnStatus array_destroy(const char *api, const void *p, enum nn_array_kind kind, const char *what)
{
	struct aclIntArray *a = (struct aclIntArray *)p;

	if (!a)
		return ACLNN_SUCCESS;
	if (a->magic != NN_ARRAY_MAGIC || a->kind != kind)
		return nn_err(ACLNN_ERR_PARAM_INVALID, api, "%p is not an %s", p, what);
	a->magic = 0;
	free(a->v);
	free(a);
	return ACLNN_SUCCESS;
}

aclnnStatus aclDestroyIntArray(const aclIntArray *array)
{
	return array_destroy(__func__, array, NN_ARRAY_INT, "aclIntArray");
}

aclnnStatus aclDestroyFloatArray(const aclFloatArray *array)
{
	return array_destroy(__func__, array, NN_ARRAY_FLOAT, "aclFloatArray");
}

aclnnStatus aclDestroyBoolArray(const aclBoolArray *array)
{
	return array_destroy(__func__, array, NN_ARRAY_BOOL, "aclBoolArray");
}

static aclnnStatus array_size(const char *api, const void *p, enum nn_array_kind kind, const char *what,
			      uint64_t *size)
{
	const struct aclIntArray *a = p;

	GET_CHECK(a, a->magic == NN_ARRAY_MAGIC && a->kind == kind, what, size);
	(void)api;
	*size = a->size;
	return ACLNN_SUCCESS;
}

aclnnStatus aclGetIntArraySize(const aclIntArray *array, uint64_t *size)
{
	return array_size(__func__, array, NN_ARRAY_INT, "aclIntArray", size);
}

aclnnStatus aclGetFloatArraySize(const aclFloatArray *array, uint64_t *size)
{
	return array_size(__func__, array, NN_ARRAY_FLOAT, "aclFloatArray", size);
}

aclnnStatus aclGetBoolArraySize(const aclBoolArray *array, uint64_t *size)
{
	return array_size(__func__, array, NN_ARRAY_BOOL, "aclBoolArray", size);
}

/* ---- lists ------------------------------------------------------------------------------ */

/* A list takes its elements: check them all before taking any. */
static void *list_new(const char *api, const void *const *items, uint64_t n, uint32_t magic, uint32_t item_magic,
		      const char *what)
{
	struct aclTensorList *l;	/* aclScalarList has the same layout */
	uint64_t i, j;

	if (n && !items) {
		nn_err(ACLNN_ERR_PARAM_NULLPTR, api, "value is NULL with size %llu", (unsigned long long)n);
		return NULL;
	}
	if (n > (1u << 20)) {
		nn_err(ACLNN_ERR_PARAM_INVALID, api, "size %llu is too large", (unsigned long long)n);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		if (!items[i]) {
			nn_err(ACLNN_ERR_PARAM_NULLPTR, api, "value[%llu] is NULL", (unsigned long long)i);
			return NULL;
		}
		if (*(const uint32_t *)items[i] != item_magic) {
			nn_err(ACLNN_ERR_PARAM_INVALID, api, "value[%llu] is not an %s", (unsigned long long)i, what);
			return NULL;
		}
		for (j = 0; j < i; j++)
			if (items[j] == items[i]) {
				nn_err(ACLNN_ERR_PARAM_INVALID, api,
				       "value[%llu] and value[%llu] are the same %s (a list owns its elements)",
				       (unsigned long long)j, (unsigned long long)i, what);
				return NULL;
			}
	}
	l = calloc(1, sizeof(*l));
	if (l)
		l->v = malloc((n ? n : 1) * sizeof(*l->v));
	if (!l || !l->v) {
		free(l);
		nn_err(ACLNN_ERR_INNER, api, "out of memory");
		return NULL;
	}
	if (n)
		memcpy(l->v, items, n * sizeof(*l->v));
	l->magic = magic;
	l->size = n;
	return l;
}

aclTensorList *aclCreateTensorList(const aclTensor *const *value, uint64_t size)
{
	return list_new(__func__, (const void *const *)value, size, NN_LIST_MAGIC, NN_TENSOR_MAGIC, "aclTensor");
}

aclScalarList *aclCreateScalarList(const aclScalar *const *value, uint64_t size)
{
	return list_new(__func__, (const void *const *)value, size, NN_SCALAR_LIST_MAGIC, NN_SCALAR_MAGIC,
			"aclScalar");
}

/* Free list @p (an aclTensorList or aclScalarList, by @magic) and its
 * elements with @free_item. */
static aclnnStatus list_free(const char *api, const void *p, uint32_t magic, const char *what,
			     void (*free_item)(void *))
{
	struct aclTensorList *l = (struct aclTensorList *)p;	/* aclScalarList has the same layout */
	uint64_t i;

	if (!l)
		return ACLNN_SUCCESS;
	if (l->magic != magic)
		return nn_err(ACLNN_ERR_PARAM_INVALID, api, "%p is not an %s", p, what);
	for (i = 0; i < l->size; i++)
		free_item(l->v[i]);
	l->magic = 0;
	free(l->v);
	free(l);
	return ACLNN_SUCCESS;
}

static void tensor_item_free(void *t)
{
	tensor_free(t);
}

static void scalar_item_free(void *s)
{
	aclDestroyScalar(s);
}

aclnnStatus aclDestroyTensorList(const aclTensorList *array)
{
	return list_free(__func__, array, NN_LIST_MAGIC, "aclTensorList", tensor_item_free);
}

aclnnStatus aclDestroyScalarList(const aclScalarList *array)
{
	return list_free(__func__, array, NN_SCALAR_LIST_MAGIC, "aclScalarList", scalar_item_free);
}

aclnnStatus aclGetTensorListSize(const aclTensorList *tensorList, uint64_t *size)
{
	GET_CHECK(tensorList, tensorList->magic == NN_LIST_MAGIC, "aclTensorList", size);
	*size = tensorList->size;
	return ACLNN_SUCCESS;
}

aclnnStatus aclGetScalarListSize(const aclScalarList *scalarList, uint64_t *size)
{
	GET_CHECK(scalarList, scalarList->magic == NN_SCALAR_LIST_MAGIC, "aclScalarList", size);
	*size = scalarList->size;
	return ACLNN_SUCCESS;
}

/* ---- set-up -------------------------------------------------------------------------------- */

aclnnStatus aclnnInit(const char *configPath)
{
	FILE *f;

	if (!configPath)
		return ACLNN_SUCCESS;
	f = fopen(configPath, "r");
	if (!f)
		return nn_err(ACLNN_ERR_PARAM_INVALID, __func__, "cannot read the configuration file %s", configPath);
	fclose(f);
	return ACLNN_SUCCESS;
}

aclnnStatus aclnnFinalize(void)
{
	return ACLNN_SUCCESS;
}
