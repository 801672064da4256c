// SPDX-License-Identifier: MIT
/*
 * acl_tensor.c - data buffers, tensor descriptors and data type sizes
 * (acl_base.h). Pure bookkeeping: no device is involved until an operator
 * is executed with them.
 */
#include <stdlib.h>
#include <string.h>

#include "acl_internal.h"
#include "rt_op.h"

/* ---- data types and formats ------------------------------------------------ */

size_t rt_dtype_size(aclDataType dtype)
{
	/* The types the operators compute on are lib/ops' to say. */
	size_t size = vops_dtype_size(dtype);

	if (size)
		return size;
	switch (dtype) {
	case ACL_HIFLOAT8:
	case ACL_FLOAT8_E5M2:
	case ACL_FLOAT8_E4M3FN:
	case ACL_FLOAT8_E8M0:
		return 1;
	case ACL_COMPLEX32:
		return 4;
	case ACL_COMPLEX64:
		return 8;
	case ACL_COMPLEX128:
		return 16;
	default:
		/* ACL_STRING (variable), the sub-byte types, unknown values. */
		return 0;
	}
}

static bool dtype_known(aclDataType dtype)
{
	switch (dtype) {
	case ACL_DT_UNDEFINED: case ACL_FLOAT: case ACL_FLOAT16: case ACL_INT8: case ACL_INT32:
	case ACL_UINT8: case ACL_INT16: case ACL_UINT16: case ACL_UINT32: case ACL_INT64:
	case ACL_UINT64: case ACL_DOUBLE: case ACL_BOOL: case ACL_STRING: case ACL_COMPLEX64:
	case ACL_COMPLEX128: case ACL_BF16: case ACL_INT4: case ACL_UINT1: case ACL_COMPLEX32:
	case ACL_HIFLOAT8: case ACL_FLOAT8_E5M2: case ACL_FLOAT8_E4M3FN: case ACL_FLOAT8_E8M0:
	case ACL_FLOAT6_E3M2: case ACL_FLOAT6_E2M3: case ACL_FLOAT4_E2M1: case ACL_FLOAT4_E1M2:
	case ACL_HIFLOAT4: case ACL_HIFLOAT4_SCALE:
		return true;
	}
	return false;
}

bool rt_format_known(aclFormat format)
{
	switch (format) {
	case ACL_FORMAT_UNDEFINED: case ACL_FORMAT_NCHW: case ACL_FORMAT_NHWC: case ACL_FORMAT_ND:
	case ACL_FORMAT_NC1HWC0: case ACL_FORMAT_FRACTAL_Z: case ACL_FORMAT_NC1HWC0_C04:
	case ACL_FORMAT_HWCN: case ACL_FORMAT_NDHWC: case ACL_FORMAT_FRACTAL_NZ: case ACL_FORMAT_NCDHW:
	case ACL_FORMAT_NDC1HWC0: case ACL_FRACTAL_Z_3D: case ACL_FORMAT_NC: case ACL_FORMAT_NCL:
	case ACL_FORMAT_FRACTAL_NZ_C0_16: case ACL_FORMAT_FRACTAL_NZ_C0_32: case ACL_FORMAT_FRACTAL_NZ_C0_2:
	case ACL_FORMAT_FRACTAL_NZ_C0_4: case ACL_FORMAT_FRACTAL_NZ_C0_8:
		return true;
	}
	return false;
}

bool rt_format_plain(aclFormat format)
{
	switch (format) {
	case ACL_FORMAT_UNDEFINED:	/* not stated: taken as ND */
	case ACL_FORMAT_NCHW:
	case ACL_FORMAT_NHWC:
	case ACL_FORMAT_ND:
	case ACL_FORMAT_HWCN:
	case ACL_FORMAT_NDHWC:
	case ACL_FORMAT_NCDHW:
	case ACL_FORMAT_NC:
	case ACL_FORMAT_NCL:
		return true;
	default:
		return false;
	}
}

size_t aclDataTypeSize(aclDataType dataType)
{
	return rt_dtype_size(dataType);
}

/* ---- data buffers ------------------------------------------------------------ */

static bool buffer_ok(const aclDataBuffer *b)
{
	return b && b->magic == RT_BUFFER_MAGIC;
}

aclDataBuffer *aclCreateDataBuffer(void *data, size_t size)
{
	aclDataBuffer *b;

	ACL_ENTER();
	b = malloc(sizeof(*b));
	if (!b) {
		rt_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
		return NULL;
	}
	b->magic = RT_BUFFER_MAGIC;
	b->data = data;
	b->size = size;
	b->owner = NULL;
	return b;
}

aclError aclDestroyDataBuffer(const aclDataBuffer *dataBuffer)
{
	aclDataBuffer *b = (aclDataBuffer *)dataBuffer;

	ACL_ENTER();
	ACL_REQUIRE(dataBuffer);
	if (!buffer_ok(b))
		return rt_err(ACL_ERROR_INVALID_PARAM, "%p is not a data buffer", (const void *)dataBuffer);
	rt_buffer_disown(b);
	b->magic = 0;
	free(b);
	return ACL_SUCCESS;
}

aclError aclUpdateDataBuffer(aclDataBuffer *dataBuffer, void *data, size_t size)
{
	ACL_ENTER();
	ACL_REQUIRE(dataBuffer);
	if (!buffer_ok(dataBuffer))
		return rt_err(ACL_ERROR_INVALID_PARAM, "%p is not a data buffer", (void *)dataBuffer);
	rt_buffer_disown(dataBuffer);
	dataBuffer->data = data;
	dataBuffer->size = size;
	return ACL_SUCCESS;
}

void *aclGetDataBufferAddr(const aclDataBuffer *dataBuffer)
{
	return buffer_ok(dataBuffer) ? dataBuffer->data : NULL;
}

uint32_t aclGetDataBufferSize(const aclDataBuffer *dataBuffer)
{
	return buffer_ok(dataBuffer) ? (uint32_t)dataBuffer->size : 0;
}

size_t aclGetDataBufferSizeV2(const aclDataBuffer *dataBuffer)
{
	return buffer_ok(dataBuffer) ? dataBuffer->size : 0;
}

/* ---- tensor descriptors ------------------------------------------------------ */

static bool desc_ok(const aclTensorDesc *d)
{
	return d && d->magic == RT_TENSOR_MAGIC;
}

static aclError check_shape(int ndims, const int64_t *dims)
{
	if (ndims < 0 || ndims > RT_MAX_DIMS)
		return rt_err(ACL_ERROR_INVALID_PARAM, "numDims %d is out of range (0..%d)", ndims, RT_MAX_DIMS);
	if (ndims > 0 && !dims)
		return rt_err(ACL_ERROR_INVALID_PARAM, "dims must not be NULL when numDims is %d", ndims);
	return ACL_SUCCESS;
}

aclError rt_tensor_set_shape(aclTensorDesc *desc, int ndims, const int64_t *dims)
{
	int64_t *to = desc->inline_dims;
	aclError ret = check_shape(ndims, dims);

	if (ret)
		return ret;
	if (ndims > RT_INLINE_DIMS) {
		to = malloc((size_t)ndims * sizeof(*to));
		if (!to)
			return rt_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
	}
	if (ndims)
		memmove(to, dims, (size_t)ndims * sizeof(*to));
	if (desc->dims && desc->dims != desc->inline_dims)
		free(desc->dims);
	desc->dims = to;
	desc->ndims = ndims;
	return ACL_SUCCESS;
}

bool rt_tensor_count(const aclTensorDesc *desc, uint64_t *count)
{
	uint64_t n = 1;
	int i;

	for (i = 0; i < desc->ndims; i++) {
		int64_t d = desc->dims[i];

		if (d < 0)
			return false;
		if (d && n > UINT64_MAX / (uint64_t)d)
			return false;
		n *= (uint64_t)d;
	}
	*count = n;
	return true;
}

aclTensorDesc *aclCreateTensorDesc(aclDataType dataType, int numDims, const int64_t *dims, aclFormat format)
{
	aclTensorDesc *d;

	ACL_ENTER();
	if (!dtype_known(dataType)) {
		rt_err(ACL_ERROR_INVALID_PARAM, "data type %d is not an aclDataType", (int)dataType);
		return NULL;
	}
	if (!rt_format_known(format)) {
		rt_err(ACL_ERROR_INVALID_PARAM, "format %d is not an aclFormat", (int)format);
		return NULL;
	}
	if (check_shape(numDims, dims))
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d) {
		rt_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
		return NULL;
	}
	d->magic = RT_TENSOR_MAGIC;
	d->dtype = dataType;
	d->format = format;
	if (rt_tensor_set_shape(d, numDims, dims)) {
		free(d);
		return NULL;
	}
	return d;
}

void aclDestroyTensorDesc(const aclTensorDesc *desc)
{
	aclTensorDesc *d = (aclTensorDesc *)desc;

	if (!desc_ok(d))
		return;
	if (d->dims != d->inline_dims)
		free(d->dims);
	d->magic = 0;
	free(d);
}

size_t aclGetTensorDescElementCount(const aclTensorDesc *desc)
{
	uint64_t n;

	if (!desc_ok(desc) || !rt_tensor_count(desc, &n) || n > SIZE_MAX)
		return 0;
	return (size_t)n;
}

size_t aclGetTensorDescSize(const aclTensorDesc *desc)
{
	size_t n = aclGetTensorDescElementCount(desc), es;

	if (!n)
		return 0;
	es = rt_dtype_size(desc->dtype);
	if (n > SIZE_MAX / (es ? es : 1))
		return 0;
	return n * es;
}

size_t aclGetTensorDescNumDims(const aclTensorDesc *desc)
{
	return desc_ok(desc) ? (size_t)desc->ndims : 0;
}

aclError aclGetTensorDescDimV2(const aclTensorDesc *desc, size_t index, int64_t *dimSize)
{
	ACL_ENTER();
	ACL_REQUIRE(desc);
	ACL_REQUIRE(dimSize);
	if (!desc_ok(desc))
		return rt_err(ACL_ERROR_INVALID_PARAM, "%p is not a tensor descriptor", (const void *)desc);
	if (index >= (size_t)desc->ndims)
		return rt_err(ACL_ERROR_INVALID_PARAM, "index %zu is out of range: the tensor has %d dimension%s",
			      index, desc->ndims, desc->ndims == 1 ? "" : "s");
	*dimSize = desc->dims[index];
	return ACL_SUCCESS;
}

aclDataType aclGetTensorDescType(const aclTensorDesc *desc)
{
	return desc_ok(desc) ? desc->dtype : ACL_DT_UNDEFINED;
}

aclFormat aclGetTensorDescFormat(const aclTensorDesc *desc)
{
	return desc_ok(desc) ? desc->format : ACL_FORMAT_UNDEFINED;
}

aclError aclSetTensorShape(aclTensorDesc *desc, int numDims, const int64_t *dims)
{
	ACL_ENTER();
	ACL_REQUIRE(desc);
	if (!desc_ok(desc))
		return rt_err(ACL_ERROR_INVALID_PARAM, "%p is not a tensor descriptor", (void *)desc);
	return rt_tensor_set_shape(desc, numDims, dims);
}
