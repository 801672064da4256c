// SPDX-License-Identifier: MIT
/*
 * onnx_tensor.c - ONNX element types, errors, files, and TensorProto to
 * struct onnx_tensor: dense little-endian bytes from raw_data or from the
 * typed field the type calls for (float_data, int32_data, int64_data,
 * double_data, uint64_data).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "acl/acl_base.h"
#include "onnx_int.h"

_Static_assert((int)ONNX_FLOAT == (int)ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT &&
	       (int)ONNX_BFLOAT16 == (int)ONNX__TENSOR_PROTO__DATA_TYPE__BFLOAT16 &&
	       (int)ONNX_BOOL == (int)ONNX__TENSOR_PROTO__DATA_TYPE__BOOL,
	       "enum onnx_dtype is TensorProto.DataType");
_Static_assert(ACL_FLOAT == 0 && ACL_FLOAT16 == 1 && ACL_BF16 == 27 && ACL_DT_UNDEFINED == -1,
	       "aclDataType values are CANN's");

/* ---- errors and strings ---------------------------------------------------- */

enum onnx_err onnx_fail(struct onnx_error *err, enum onnx_err code, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		err->code = code;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return code;
}

enum onnx_err onnx_wrap(struct onnx_error *err, const char *fmt, ...)
{
	char buf[ONNX_MSG_MAX];
	size_t at, n;
	va_list ap;
	int r;

	if (!err)
		return ONNX_ERR_INVALID;
	va_start(ap, fmt);
	r = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	at = r < 0 ? 0 : (size_t)r < sizeof(buf) ? (size_t)r : sizeof(buf) - 1;
	/* ": " and as much of the old message as fits. */
	for (const char *c = ": "; *c && at < sizeof(buf) - 1; c++)
		buf[at++] = *c;
	n = strnlen(err->msg, sizeof(err->msg) - 1);
	if (n > sizeof(buf) - 1 - at)
		n = sizeof(buf) - 1 - at;
	memcpy(buf + at, err->msg, n);
	buf[at + n] = '\0';
	memcpy(err->msg, buf, sizeof(err->msg));
	return err->code;
}

enum onnx_err onnx_nomem(struct onnx_error *err)
{
	return onnx_fail(err, ONNX_ERR_NOMEM, "out of memory");
}

char *onnx_strdup(const char *s)
{
	size_t n = s ? strlen(s) : 0;
	char *c = malloc(n + 1);

	if (c) {
		if (n)
			memcpy(c, s, n);
		c[n] = '\0';
	}
	return c;
}

enum onnx_err onnx_read_file(const char *path, uint8_t **buf, size_t *len,
			     struct onnx_error *err)
{
	struct stat st;
	uint8_t *b;
	size_t n, got = 0;
	FILE *f;

	*buf = NULL;
	*len = 0;
	f = fopen(path, "rb");
	if (!f)
		return onnx_fail(err, ONNX_ERR_IO, "%s: %s", path, strerror(errno));
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		fclose(f);
		return onnx_fail(err, ONNX_ERR_IO, "%s: not a regular file", path);
	}
	if ((uint64_t)st.st_size > ONNX_MAX_FILE) {
		fclose(f);
		return onnx_fail(err, ONNX_ERR_UNSUPPORTED, "%s: %jd bytes, more than 2 GiB",
				 path, (intmax_t)st.st_size);
	}
	n = (size_t)st.st_size;
	b = malloc(n ? n : 1);
	if (!b) {
		fclose(f);
		return onnx_nomem(err);
	}
	while (got < n) {
		size_t r = fread(b + got, 1, n - got, f);

		if (!r)
			break;
		got += r;
	}
	if (got != n || ferror(f)) {
		fclose(f);
		free(b);
		return onnx_fail(err, ONNX_ERR_IO, "%s: read %zu of %zu bytes", path, got, n);
	}
	fclose(f);
	*buf = b;
	*len = n;
	return ONNX_OK;
}

/* ---- element types --------------------------------------------------------- */

static const struct {
	const char *name;
	size_t size;
	int32_t acl;
} dtypes[] = {
	[ONNX_UNDEFINED] = { "UNDEFINED", 0, ACL_DT_UNDEFINED },
	[ONNX_FLOAT] = { "FLOAT", 4, ACL_FLOAT },
	[ONNX_UINT8] = { "UINT8", 1, ACL_UINT8 },
	[ONNX_INT8] = { "INT8", 1, ACL_INT8 },
	[ONNX_UINT16] = { "UINT16", 2, ACL_UINT16 },
	[ONNX_INT16] = { "INT16", 2, ACL_INT16 },
	[ONNX_INT32] = { "INT32", 4, ACL_INT32 },
	[ONNX_INT64] = { "INT64", 8, ACL_INT64 },
	[ONNX_STRING] = { "STRING", 0, ACL_STRING },
	[ONNX_BOOL] = { "BOOL", 1, ACL_BOOL },
	[ONNX_FLOAT16] = { "FLOAT16", 2, ACL_FLOAT16 },
	[ONNX_DOUBLE] = { "DOUBLE", 8, ACL_DOUBLE },
	[ONNX_UINT32] = { "UINT32", 4, ACL_UINT32 },
	[ONNX_UINT64] = { "UINT64", 8, ACL_UINT64 },
	[ONNX_COMPLEX64] = { "COMPLEX64", 8, ACL_COMPLEX64 },
	[ONNX_COMPLEX128] = { "COMPLEX128", 16, ACL_COMPLEX128 },
	[ONNX_BFLOAT16] = { "BFLOAT16", 2, ACL_BF16 },
};

#define NDTYPES ((int32_t)(sizeof(dtypes) / sizeof(dtypes[0])))

const char *onnx_dtype_name(int32_t dtype)
{
	return dtype >= 0 && dtype < NDTYPES ? dtypes[dtype].name : "?";
}

size_t onnx_dtype_size(int32_t dtype)
{
	return dtype >= 0 && dtype < NDTYPES ? dtypes[dtype].size : 0;
}

int32_t onnx_dtype_to_acl(int32_t dtype)
{
	return dtype >= 0 && dtype < NDTYPES ? dtypes[dtype].acl : ACL_DT_UNDEFINED;
}

/* ---- tensors --------------------------------------------------------------- */

void onnx_tensor_release(struct onnx_tensor *t)
{
	if (!t)
		return;
	free(t->name);
	free(t->dims);
	free(t->data);
	memset(t, 0, sizeof(*t));
}

/* Element count of a shape, 0 and false on a negative dimension or
 * overflow. */
static bool shape_count(int32_t ndim, const int64_t *dims, uint64_t *count)
{
	uint64_t c = 1;

	for (int32_t i = 0; i < ndim; i++) {
		if (dims[i] < 0)
			return false;
		if (dims[i] && c > UINT64_MAX / (uint64_t)dims[i])
			return false;
		c *= (uint64_t)dims[i];
	}
	*count = c;
	return true;
}

static void dims_str(char *buf, size_t n, int32_t ndim, const int64_t *dims)
{
	size_t at = 0;

	at += (size_t)snprintf(buf, n, "[");
	for (int32_t i = 0; i < ndim && at < n; i++)
		at += (size_t)snprintf(buf + at, n - at, "%s%" PRId64, i ? ", " : "", dims[i]);
	if (at < n)
		snprintf(buf + at, n - at, "]");
}

enum onnx_err onnx_tensor_make(struct onnx_tensor *t, const char *name, int32_t dtype,
			       int32_t ndim, const int64_t *dims, struct onnx_error *err)
{
	size_t esize = onnx_dtype_size(dtype);
	uint64_t count;
	char shape[128];

	memset(t, 0, sizeof(*t));
	if (!esize)
		return onnx_fail(err, dtype == ONNX_STRING ? ONNX_ERR_UNSUPPORTED : ONNX_ERR_INVALID,
				 "%s tensors are not supported", onnx_dtype_name(dtype));
	if (ndim < 0 || ndim > 1024)
		return onnx_fail(err, ONNX_ERR_UNSUPPORTED, "rank %" PRId32 " is too large", ndim);
	if (!shape_count(ndim, dims, &count) || count > SIZE_MAX / esize ||
	    count * esize > ONNX_MAX_FILE * (size_t)8) {
		dims_str(shape, sizeof(shape), ndim, dims);
		return onnx_fail(err, ONNX_ERR_INVALID, "bad shape %s", shape);
	}
	t->dtype = dtype;
	t->acl_dtype = onnx_dtype_to_acl(dtype);
	t->ndim = ndim;
	t->count = count;
	t->size = (size_t)count * esize;
	t->name = onnx_strdup(name);
	t->dims = malloc(ndim ? (size_t)ndim * sizeof(int64_t) : 1);
	t->data = calloc(1, t->size ? t->size : 1);
	if (!t->name || !t->dims || !t->data) {
		onnx_tensor_release(t);
		return onnx_nomem(err);
	}
	if (ndim)
		memcpy(t->dims, dims, (size_t)ndim * sizeof(int64_t));
	return ONNX_OK;
}

enum onnx_err onnx_tensor_copy(struct onnx_tensor *dst, const struct onnx_tensor *src,
			       struct onnx_error *err)
{
	enum onnx_err e = onnx_tensor_make(dst, src->name, src->dtype, src->ndim, src->dims, err);

	if (!e && src->size)
		memcpy(dst->data, src->data, src->size);
	return e;
}

/* The typed field a data type is stored in, without raw_data. */
enum field { F_NONE, F_FLOAT, F_INT32, F_INT64, F_DOUBLE, F_UINT64 };

static const char *const field_names[] = {
	[F_NONE] = "none", [F_FLOAT] = "float_data", [F_INT32] = "int32_data",
	[F_INT64] = "int64_data", [F_DOUBLE] = "double_data", [F_UINT64] = "uint64_data",
};

static enum field dtype_field(int32_t dtype)
{
	switch (dtype) {
	case ONNX_FLOAT:
	case ONNX_COMPLEX64:
		return F_FLOAT;
	case ONNX_INT32:
	case ONNX_INT16:
	case ONNX_INT8:
	case ONNX_UINT16:
	case ONNX_UINT8:
	case ONNX_BOOL:
	case ONNX_FLOAT16:
	case ONNX_BFLOAT16:
		return F_INT32;
	case ONNX_INT64:
		return F_INT64;
	case ONNX_DOUBLE:
	case ONNX_COMPLEX128:
		return F_DOUBLE;
	case ONNX_UINT32:
	case ONNX_UINT64:
		return F_UINT64;
	default:
		return F_NONE;
	}
}

/* int32_data narrowed to the element type, range-checked. */
static enum onnx_err unpack_int32(struct onnx_tensor *t, const int32_t *v,
				  struct onnx_error *err)
{
	int64_t lo, hi;
	uint8_t *d8 = t->data;
	uint16_t *d16 = t->data;

	switch (t->dtype) {
	case ONNX_INT32:
		memcpy(t->data, v, t->size);
		return ONNX_OK;
	case ONNX_INT8: lo = INT8_MIN; hi = INT8_MAX; break;
	case ONNX_UINT8: lo = 0; hi = UINT8_MAX; break;
	case ONNX_BOOL: lo = 0; hi = 1; break;
	case ONNX_INT16: lo = INT16_MIN; hi = INT16_MAX; break;
	default: lo = 0; hi = UINT16_MAX; break;	/* UINT16, FLOAT16, BFLOAT16 */
	}
	for (uint64_t i = 0; i < t->count; i++) {
		if (v[i] < lo || v[i] > hi)
			return onnx_fail(err, ONNX_ERR_INVALID,
					 "int32_data[%" PRIu64 "] = %" PRId32 " is out of range for %s",
					 i, v[i], onnx_dtype_name(t->dtype));
		if (t->size == t->count)
			d8[i] = (uint8_t)v[i];
		else
			d16[i] = (uint16_t)v[i];
	}
	return ONNX_OK;
}

static size_t field_count(const Onnx__TensorProto *p, enum field f)
{
	switch (f) {
	case F_FLOAT: return p->n_float_data;
	case F_INT32: return p->n_int32_data;
	case F_INT64: return p->n_int64_data;
	case F_DOUBLE: return p->n_double_data;
	case F_UINT64: return p->n_uint64_data;
	case F_NONE: break;
	}
	return 0;
}

/* Whether @p holds exactly the data of @count elements of @dtype, in one
 * field: checked before anything is allocated. */
static enum onnx_err tensor_check(const Onnx__TensorProto *p, int32_t dtype, uint64_t count,
				  struct onnx_error *err)
{
	enum field want = dtype_field(dtype);
	size_t esize = onnx_dtype_size(dtype);
	/* Complex numbers are two values of the field each. */
	uint64_t nval = count * (dtype == ONNX_COMPLEX64 || dtype == ONNX_COMPLEX128 ? 2 : 1);

	for (enum field f = F_FLOAT; f <= F_UINT64; f++)
		if (field_count(p, f) && f != want)
			return onnx_fail(err, ONNX_ERR_INVALID, "a %s tensor with %s",
					 onnx_dtype_name(dtype), field_names[f]);
	if (p->has_raw_data && field_count(p, want))
		return onnx_fail(err, ONNX_ERR_INVALID, "both raw_data and %s", field_names[want]);
	if (p->has_raw_data) {
		if (count > SIZE_MAX / esize || p->raw_data.len != count * esize)
			return onnx_fail(err, ONNX_ERR_INVALID,
					 "raw_data has %zu bytes, %" PRIu64 " %s elements need %"
					 PRIu64, p->raw_data.len, count, onnx_dtype_name(dtype),
					 count * esize);
		return ONNX_OK;
	}
	if (field_count(p, want) != nval)
		return onnx_fail(err, ONNX_ERR_INVALID,
				 "%s has %zu values, %" PRIu64 " %s elements need %" PRIu64,
				 field_names[want], field_count(p, want), count,
				 onnx_dtype_name(dtype), nval);
	return ONNX_OK;
}

/* Fill a tensor tensor_check() accepted. */
static enum onnx_err tensor_fill(const Onnx__TensorProto *p, struct onnx_tensor *t,
				 struct onnx_error *err)
{
	uint8_t *b = t->data;

	if (!t->size)
		return ONNX_OK;
	if (p->has_raw_data) {
		memcpy(t->data, p->raw_data.data, t->size);
		if (t->dtype == ONNX_BOOL)
			for (size_t i = 0; i < t->size; i++)
				b[i] = b[i] != 0;
		return ONNX_OK;
	}
	switch (dtype_field(t->dtype)) {
	case F_FLOAT:
		memcpy(t->data, p->float_data, t->size);
		return ONNX_OK;
	case F_INT32:
		return unpack_int32(t, p->int32_data, err);
	case F_INT64:
		memcpy(t->data, p->int64_data, t->size);
		return ONNX_OK;
	case F_DOUBLE:
		memcpy(t->data, p->double_data, t->size);
		return ONNX_OK;
	case F_UINT64:
		if (t->dtype == ONNX_UINT64) {
			memcpy(t->data, p->uint64_data, t->size);
			return ONNX_OK;
		}
		for (uint64_t i = 0; i < t->count; i++) {
			if (p->uint64_data[i] > UINT32_MAX)
				return onnx_fail(err, ONNX_ERR_INVALID,
						 "uint64_data[%" PRIu64 "] = %" PRIu64
						 " is out of range for UINT32", i, p->uint64_data[i]);
			((uint32_t *)t->data)[i] = (uint32_t)p->uint64_data[i];
		}
		return ONNX_OK;
	case F_NONE:
		break;
	}
	return onnx_fail(err, ONNX_ERR_INVALID, "no data field for %s",
			 onnx_dtype_name(t->dtype));
}

enum onnx_err onnx_tensor_from_proto(const Onnx__TensorProto *p, struct onnx_tensor *t,
				     struct onnx_error *err)
{
	int32_t dtype = p->has_data_type ? p->data_type : ONNX_UNDEFINED;
	uint64_t count;
	char shape[128];
	enum onnx_err e;

	memset(t, 0, sizeof(*t));
	if (p->n_external_data ||
	    (p->has_data_location &&
	     p->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL))
		return onnx_fail(err, ONNX_ERR_UNSUPPORTED, "external data is not supported");
	if (p->segment)
		return onnx_fail(err, ONNX_ERR_UNSUPPORTED, "segmented tensors are not supported");
	if (dtype == ONNX_STRING || p->n_string_data)
		return onnx_fail(err, ONNX_ERR_UNSUPPORTED, "STRING tensors are not supported");
	if (dtype == ONNX_UNDEFINED)
		return onnx_fail(err, ONNX_ERR_INVALID, "no data type");
	if (!onnx_dtype_size(dtype))
		return onnx_fail(err, ONNX_ERR_UNSUPPORTED, "unknown data type %" PRId32, dtype);
	if (p->n_dims > 1024)
		return onnx_fail(err, ONNX_ERR_UNSUPPORTED, "rank %zu is too large", p->n_dims);
	if (!shape_count((int32_t)p->n_dims, p->dims, &count)) {
		dims_str(shape, sizeof(shape), (int32_t)p->n_dims, p->dims);
		return onnx_fail(err, ONNX_ERR_INVALID, "bad shape %s", shape);
	}
	e = tensor_check(p, dtype, count, err);
	if (e)
		return e;
	e = onnx_tensor_make(t, p->name, dtype, (int32_t)p->n_dims, p->dims, err);
	if (e)
		return e;
	e = tensor_fill(p, t, err);
	if (e)
		onnx_tensor_release(t);
	return e;
}

enum onnx_err onnx_tensor_parse(const void *buf, size_t len, struct onnx_tensor *t,
				struct onnx_error *err)
{
	struct onnx_error local;
	Onnx__TensorProto *p;
	enum onnx_err e;

	if (!err)
		err = &local;
	memset(t, 0, sizeof(*t));
	p = onnx__tensor_proto__unpack(NULL, len, buf);
	if (!p)
		return onnx_fail(err, ONNX_ERR_PARSE, "not a serialized TensorProto "
				 "(protobuf decoding failed)");
	e = onnx_tensor_from_proto(p, t, err);
	if (e && p->name && *p->name)
		onnx_wrap(err, "tensor \"%s\"", p->name);
	onnx__tensor_proto__free_unpacked(p, NULL);
	return e;
}

enum onnx_err onnx_tensor_load(const char *path, struct onnx_tensor *t, struct onnx_error *err)
{
	struct onnx_error local;
	enum onnx_err e;
	uint8_t *buf;
	size_t len;

	if (!err)
		err = &local;
	memset(t, 0, sizeof(*t));
	e = onnx_read_file(path, &buf, &len, err);
	if (e)
		return e;
	e = onnx_tensor_parse(buf, len, t, err);
	free(buf);
	if (e)
		onnx_wrap(err, "%s", path);
	return e;
}
