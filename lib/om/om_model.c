// SPDX-License-Identifier: MIT
/*
 * om_model.c - struct om_model itself: the rules of vnpu_om.h
 * (om_model_check()), its release and sizes, and the type and format
 * tables the file uses.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_base.h"
#include "om_int.h"

/* ---- errors ------------------------------------------------------------------ */

enum om_err om_fail(struct om_error *err, enum om_err code, const char *fmt, ...)
{
	if (err) {
		va_list ap;

		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
		err->code = code;
	}
	return code;
}

void om_clear(struct om_error *err)
{
	if (err) {
		err->code = OM_OK;
		err->msg[0] = '\0';
	}
}

/* ---- tables ------------------------------------------------------------------ */

/*
 * aclDataType to ge_ir.proto's DataType, one row per aclDataType (the
 * names match: ACL_X is DT_X). The proto types no aclDataType has (the
 * quantized and dual types, DT_INT2, DT_UINT2, ...) are not here: a file
 * holding them is refused.
 */
static const struct {
	int32_t acl, proto;
} om_dtypes[] = {
	{ ACL_FLOAT, 1 },		/* DT_FLOAT */
	{ ACL_FLOAT16, 2 },		/* DT_FLOAT16 */
	{ ACL_INT8, 3 },		/* DT_INT8 */
	{ ACL_UINT8, 4 },		/* DT_UINT8 */
	{ ACL_INT16, 5 },		/* DT_INT16 */
	{ ACL_UINT16, 6 },		/* DT_UINT16 */
	{ ACL_INT32, 7 },		/* DT_INT32 */
	{ ACL_INT64, 8 },		/* DT_INT64 */
	{ ACL_UINT32, 9 },		/* DT_UINT32 */
	{ ACL_UINT64, 10 },		/* DT_UINT64 */
	{ ACL_BOOL, 11 },		/* DT_BOOL */
	{ ACL_DOUBLE, 12 },		/* DT_DOUBLE */
	{ ACL_STRING, 13 },		/* DT_STRING */
	{ ACL_COMPLEX64, 16 },		/* DT_COMPLEX64 */
	{ ACL_COMPLEX128, 17 },		/* DT_COMPLEX128 */
	{ ACL_BF16, 27 },		/* DT_BF16 */
	{ ACL_INT4, 28 },		/* DT_INT4 */
	{ ACL_UINT1, 29 },		/* DT_UINT1 */
	{ ACL_COMPLEX32, 32 },		/* DT_COMPLEX32 */
	{ ACL_HIFLOAT8, 33 },		/* DT_HIFLOAT8 */
	{ ACL_FLOAT8_E5M2, 34 },	/* DT_FLOAT8_E5M2 */
	{ ACL_FLOAT8_E4M3FN, 35 },	/* DT_FLOAT8_E4M3FN */
	{ ACL_FLOAT8_E8M0, 36 },	/* DT_FLOAT8_E8M0 */
	{ ACL_FLOAT6_E3M2, 37 },	/* DT_FLOAT6_E3M2 */
	{ ACL_FLOAT6_E2M3, 38 },	/* DT_FLOAT6_E2M3 */
	{ ACL_FLOAT4_E2M1, 39 },	/* DT_FLOAT4_E2M1 */
	{ ACL_FLOAT4_E1M2, 40 },	/* DT_FLOAT4_E1M2 */
	{ ACL_HIFLOAT4, 41 },		/* DT_HIFLOAT4 */
	{ ACL_HIFLOAT4_SCALE, 42 },	/* DT_HIFLOAT4_SCALE */
};

int32_t om_dtype_to_proto(int32_t dtype)
{
	for (size_t i = 0; i < sizeof(om_dtypes) / sizeof(om_dtypes[0]); i++)
		if (om_dtypes[i].acl == dtype)
			return om_dtypes[i].proto;
	return -1;
}

int32_t om_dtype_from_proto(int32_t pdt)
{
	for (size_t i = 0; i < sizeof(om_dtypes) / sizeof(om_dtypes[0]); i++)
		if (om_dtypes[i].proto == pdt)
			return om_dtypes[i].acl;
	return ACL_DT_UNDEFINED;
}

/* aclFormat to GE's serialized format names (TypeUtils::FormatToSerialString). */
static const struct {
	int32_t format;
	const char *name;
} om_formats[] = {
	{ ACL_FORMAT_NCHW, "NCHW" },
	{ ACL_FORMAT_NHWC, "NHWC" },
	{ ACL_FORMAT_ND, "ND" },
	{ ACL_FORMAT_NC1HWC0, "NC1HWC0" },
	{ ACL_FORMAT_FRACTAL_Z, "FRACTAL_Z" },
	{ ACL_FORMAT_NC1HWC0_C04, "NC1HWC0_C04" },
	{ ACL_FORMAT_HWCN, "HWCN" },
	{ ACL_FORMAT_NDHWC, "NDHWC" },
	{ ACL_FORMAT_FRACTAL_NZ, "FRACTAL_NZ" },
	{ ACL_FORMAT_NCDHW, "NCDHW" },
	{ ACL_FORMAT_NDC1HWC0, "NDC1HWC0" },
	{ ACL_FRACTAL_Z_3D, "FRACTAL_Z_3D" },
	{ ACL_FORMAT_NC, "NC" },
	{ ACL_FORMAT_NCL, "NCL" },
	{ ACL_FORMAT_FRACTAL_NZ_C0_16, "FRACTAL_NZ_C0_16" },
	{ ACL_FORMAT_FRACTAL_NZ_C0_32, "FRACTAL_NZ_C0_32" },
	{ ACL_FORMAT_FRACTAL_NZ_C0_2, "FRACTAL_NZ_C0_2" },
	{ ACL_FORMAT_FRACTAL_NZ_C0_4, "FRACTAL_NZ_C0_4" },
	{ ACL_FORMAT_FRACTAL_NZ_C0_8, "FRACTAL_NZ_C0_8" },
};

const char *om_format_name(int32_t format)
{
	for (size_t i = 0; i < sizeof(om_formats) / sizeof(om_formats[0]); i++)
		if (om_formats[i].format == format)
			return om_formats[i].name;
	return NULL;
}

int32_t om_format_from_name(const char *name)
{
	for (size_t i = 0; name && i < sizeof(om_formats) / sizeof(om_formats[0]); i++)
		if (!strcmp(om_formats[i].name, name))
			return om_formats[i].format;
	return ACL_FORMAT_UNDEFINED;
}

bool om_reserved_type(const char *type)
{
	return !strcmp(type, OM_OP_DATA) || !strcmp(type, OM_OP_CONST) ||
	       !strcmp(type, OM_OP_NETOUTPUT);
}

/* ---- sizes ------------------------------------------------------------------- */

/* Elements of @v into *count; false when a dimension is -1 or the product overflows. */
static bool value_count(const struct om_value *v, uint64_t *count)
{
	uint64_t n = 1;

	for (int32_t d = 0; d < v->ndim; d++) {
		if (v->dims[d] < 0 || __builtin_mul_overflow(n, (uint64_t)v->dims[d], &n))
			return false;
	}
	*count = n;
	return true;
}

uint64_t om_value_bytes(const struct om_value *v)
{
	uint64_t n, bytes;
	size_t esize;

	if (!v || v->ndim < 0 || v->ndim > VOPS_MAX_RANK || (v->ndim && !v->dims))
		return 0;
	esize = vops_dtype_size(v->dtype);
	if (!esize || !value_count(v, &n) || __builtin_mul_overflow(n, (uint64_t)esize, &bytes))
		return 0;
	return bytes;
}

/* ---- release ------------------------------------------------------------------ */

static void attrs_free(struct vops_attr *a, unsigned int n)
{
	for (unsigned int i = 0; a && i < n; i++) {
		free(a[i].name);
		switch (a[i].kind) {
		case VOPS_ATTR_STRING:
			free(a[i].s);
			break;
		case VOPS_ATTR_LIST_INT:
			free(a[i].li.v);
			break;
		case VOPS_ATTR_LIST_FLOAT:
			free(a[i].lf.v);
			break;
		default:
			break;
		}
	}
	free(a);
}

void om_model_free(struct om_model *m)
{
	if (!m)
		return;
	free(m->name);
	free(m->soc_version);
	for (uint32_t i = 0; m->values && i < m->nvalues; i++) {
		free(m->values[i].name);
		free(m->values[i].dims);
		free(m->values[i].range);
	}
	free(m->values);
	for (uint32_t i = 0; m->nodes && i < m->nnodes; i++) {
		free(m->nodes[i].name);
		free(m->nodes[i].type);
		free(m->nodes[i].in);
		free(m->nodes[i].out);
		attrs_free(m->nodes[i].attrs, m->nodes[i].nattrs);
	}
	free(m->nodes);
	free(m->inputs);
	free(m->outputs);
	free(m->weights);
	free(m->gears);
	free(m);
}

/* ---- the rules ------------------------------------------------------------------ */

#define INVALID(...) om_fail(err, OM_ERR_INVALID, __VA_ARGS__)

static bool value_has_unknown(const struct om_value *v)
{
	for (int32_t d = 0; d < v->ndim; d++)
		if (v->dims[d] < 0)
			return true;
	return false;
}

static enum om_err check_range(const struct om_value *v, uint32_t i, struct om_error *err)
{
	if (v->kind != OM_VALUE_INPUT)
		return INVALID("value %" PRIu32 " '%s': only a graph input has a range", i, v->name);
	if (!value_has_unknown(v))
		return INVALID("value %" PRIu32 " '%s': a range but no -1 dimension", i, v->name);
	for (int32_t d = 0; d < v->ndim; d++) {
		int64_t lo = v->range[2 * d], hi = v->range[2 * d + 1];
		bool ok;

		if (v->dims[d] >= 0)
			ok = lo == v->dims[d] && hi == v->dims[d];
		else
			ok = lo >= 0 && (hi == -1 || hi >= lo);
		if (!ok)
			return INVALID("value %" PRIu32 " '%s': dimension %d (%" PRId64
				       ") has the range {%" PRId64 ", %" PRId64 "}",
				       i, v->name, (int)d, v->dims[d], lo, hi);
	}
	return OM_OK;
}

static enum om_err check_value(const struct om_model *m, uint32_t i, struct om_error *err)
{
	const struct om_value *v = &m->values[i];
	enum om_err e;

	if (!v->name || !v->name[0])
		return INVALID("value %" PRIu32 ": no name", i);
	if (v->kind != OM_VALUE_INPUT && v->kind != OM_VALUE_CONST && v->kind != OM_VALUE_NODE)
		return INVALID("value %" PRIu32 " '%s': kind %d", i, v->name, (int)v->kind);
	if (om_dtype_to_proto(v->dtype) < 0)
		return INVALID("value %" PRIu32 " '%s': dtype %" PRId32 " is not an aclDataType", i,
			       v->name, v->dtype);
	if (!om_format_name(v->format))
		return INVALID("value %" PRIu32 " '%s': format %" PRId32 " is not an aclFormat", i,
			       v->name, v->format);
	if (v->ndim < 0 || v->ndim > VOPS_MAX_RANK)
		return INVALID("value %" PRIu32 " '%s': %" PRId32 " dimensions (0 .. %d)", i, v->name,
			       v->ndim, VOPS_MAX_RANK);
	if (v->ndim && !v->dims)
		return INVALID("value %" PRIu32 " '%s': %" PRId32 " dimensions but no dims", i, v->name,
			       v->ndim);
	for (int32_t d = 0; d < v->ndim; d++)
		if (v->dims[d] < -1)
			return INVALID("value %" PRIu32 " '%s': dimension %d is %" PRId64, i, v->name,
				       (int)d, v->dims[d]);
	if (v->range && (e = check_range(v, i, err)))
		return e;

	if (v->kind == OM_VALUE_CONST) {
		uint64_t count, bytes, end;
		size_t esize = vops_dtype_size(v->dtype);

		if (!value_count(v, &count))
			return INVALID("value %" PRIu32 " '%s': a constant of unknown or too many "
				       "elements", i, v->name);
		if (!esize)
			return INVALID("value %" PRIu32 " '%s': a constant of %s, whose element size "
				       "vnpu does not know", i, v->name, vops_dtype_name(v->dtype));
		if (__builtin_mul_overflow(count, (uint64_t)esize, &bytes) || bytes != v->weight_size)
			return INVALID("value %" PRIu32 " '%s': weight_size %" PRIu64 ", but %" PRIu64
				       " elements of %zu bytes", i, v->name, v->weight_size, count, esize);
		if (__builtin_add_overflow(v->weight_offset, v->weight_size, &end) ||
		    end > m->weights_size)
			return INVALID("value %" PRIu32 " '%s': bytes %" PRIu64 " + %" PRIu64
				       " outside the %" PRIu64 " bytes of weights", i, v->name,
				       v->weight_offset, v->weight_size, m->weights_size);
	} else if (v->kind == OM_VALUE_NODE) {
		if (v->node >= m->nnodes || v->port >= m->nodes[v->node].nout ||
		    !m->nodes[v->node].out || m->nodes[v->node].out[v->port] != i)
			return INVALID("value %" PRIu32 " '%s': says it is output %" PRIu32
				       " of node %" PRIu32 ", which does not list it", i, v->name,
				       v->port, v->node);
	}
	return OM_OK;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Value names are unique: sorted, a duplicate is next to its twin. */
static enum om_err check_names(const struct om_model *m, struct om_error *err)
{
	const char **names;
	enum om_err e = OM_OK;

	if (m->nvalues < 2)
		return OM_OK;
	names = malloc(m->nvalues * sizeof(*names));
	if (!names)
		return om_fail(err, OM_ERR_NOMEM, "out of memory checking %" PRIu32 " value names",
			       m->nvalues);
	for (uint32_t i = 0; i < m->nvalues; i++)
		names[i] = m->values[i].name;
	qsort(names, m->nvalues, sizeof(*names), name_cmp);
	for (uint32_t i = 1; i < m->nvalues; i++)
		if (!strcmp(names[i - 1], names[i])) {
			e = INVALID("two values are named '%s'", names[i]);
			break;
		}
	free(names);
	return e;
}

static enum om_err check_attrs(const struct om_node *n, uint32_t i, struct om_error *err)
{
	if (n->nattrs && !n->attrs)
		return INVALID("node %" PRIu32 " '%s': %u attributes but no array", i, n->name,
			       n->nattrs);
	for (unsigned int k = 0; k < n->nattrs; k++) {
		const struct vops_attr *a = &n->attrs[k];

		if (!a->name || !a->name[0])
			return INVALID("node %" PRIu32 " '%s': attribute %u has no name", i, n->name, k);
		for (unsigned int j = 0; j < k; j++)
			if (!strcmp(n->attrs[j].name, a->name))
				return INVALID("node %" PRIu32 " '%s': two attributes named '%s'", i,
					       n->name, a->name);
		switch (a->kind) {
		case VOPS_ATTR_BOOL:
		case VOPS_ATTR_INT:
		case VOPS_ATTR_FLOAT:
		case VOPS_ATTR_DTYPE:
			break;
		case VOPS_ATTR_STRING:
			if (!a->s)
				return INVALID("node %" PRIu32 " '%s': attribute '%s': a NULL string", i,
					       n->name, a->name);
			break;
		case VOPS_ATTR_LIST_INT:
		case VOPS_ATTR_LIST_FLOAT:
			/* li and lf share their layout; n and v are the same fields. */
			if (a->li.n < 0 || (a->li.n && !a->li.v))
				return INVALID("node %" PRIu32 " '%s': attribute '%s': a list of %d "
					       "without its values", i, n->name, a->name, a->li.n);
			break;
		default:
			return INVALID("node %" PRIu32 " '%s': attribute '%s' of kind %d", i, n->name,
				       a->name, (int)a->kind);
		}
	}
	return OM_OK;
}

static enum om_err check_node(const struct om_model *m, uint32_t i, uint32_t gear_input,
			      struct om_error *err)
{
	const struct om_node *n = &m->nodes[i];

	if (!n->name)
		return INVALID("node %" PRIu32 ": no name", i);
	if (!n->type || !n->type[0])
		return INVALID("node %" PRIu32 " '%s': no type", i, n->name);
	if (om_reserved_type(n->type))
		return INVALID("node %" PRIu32 " '%s': type '%s' is the file's own (graph inputs, "
			       "constants, outputs), not an operator's", i, n->name, n->type);
	if (n->nin > VOPS_MAX_INPUTS || (n->nin && !n->in))
		return INVALID("node %" PRIu32 " '%s' (%s): %" PRIu32 " inputs (at most %d)", i,
			       n->name, n->type, n->nin, VOPS_MAX_INPUTS);
	if (!n->nout || n->nout > VOPS_MAX_OUTPUTS || !n->out)
		return INVALID("node %" PRIu32 " '%s' (%s): %" PRIu32 " outputs (1 .. %d)", i,
			       n->name, n->type, n->nout, VOPS_MAX_OUTPUTS);
	for (uint32_t k = 0; k < n->nin; k++) {
		uint32_t x = n->in[k];
		const struct om_value *v;

		if (x >= m->nvalues)
			return INVALID("node %" PRIu32 " '%s' (%s): input %" PRIu32 " is value %" PRIu32
				       " of %" PRIu32, i, n->name, n->type, k, x, m->nvalues);
		v = &m->values[x];
		if (v->kind == OM_VALUE_NODE && v->node >= i)
			return INVALID("node %" PRIu32 " '%s' (%s): input %" PRIu32 " '%s' is made by "
				       "node %" PRIu32 ", which does not come before it", i, n->name,
				       n->type, k, v->name, v->node);
		if (x == gear_input)
			return INVALID("node %" PRIu32 " '%s' (%s): input %" PRIu32 " is the gear "
				       "input '%s'", i, n->name, n->type, k, v->name);
	}
	for (uint32_t k = 0; k < n->nout; k++) {
		uint32_t x = n->out[k];
		const struct om_value *v;

		if (x >= m->nvalues)
			return INVALID("node %" PRIu32 " '%s' (%s): output %" PRIu32 " is value %" PRIu32
				       " of %" PRIu32, i, n->name, n->type, k, x, m->nvalues);
		v = &m->values[x];
		if (v->kind != OM_VALUE_NODE || v->node != i || v->port != k)
			return INVALID("node %" PRIu32 " '%s' (%s): output %" PRIu32 " '%s' is not "
				       "its output %" PRIu32, i, n->name, n->type, k, v->name, k);
	}
	return check_attrs(n, i, err);
}

static enum om_err check_io(const struct om_model *m, struct om_error *err)
{
	uint32_t ninput_values = 0;

	if ((m->ninputs && !m->inputs) || (m->noutputs && !m->outputs))
		return INVALID("%" PRIu32 " inputs and %" PRIu32 " outputs without their arrays",
			       m->ninputs, m->noutputs);
	for (uint32_t i = 0; i < m->nvalues; i++)
		ninput_values += m->values[i].kind == OM_VALUE_INPUT;
	if (ninput_values != m->ninputs)
		return INVALID("%" PRIu32 " input values but %" PRIu32 " graph inputs", ninput_values,
			       m->ninputs);
	for (uint32_t i = 0; i < m->ninputs; i++) {
		uint32_t x = m->inputs[i];

		if (x >= m->nvalues || m->values[x].kind != OM_VALUE_INPUT)
			return INVALID("graph input %" PRIu32 " is value %" PRIu32 ", not an input value",
				       i, x);
		for (uint32_t j = 0; j < i; j++)
			if (m->inputs[j] == x)
				return INVALID("graph inputs %" PRIu32 " and %" PRIu32 " are both '%s'",
					       j, i, m->values[x].name);
	}
	for (uint32_t i = 0; i < m->noutputs; i++)
		if (m->outputs[i] >= m->nvalues)
			return INVALID("graph output %" PRIu32 " is value %" PRIu32 " of %" PRIu32, i,
				       m->outputs[i], m->nvalues);
	return OM_OK;
}

/*
 * The gears: none without a dynamic mode; else 1 .. OM_MAX_GEARS rows of
 * the mode's length, and the last graph input the gear input. *gear_input
 * gets its value index (UINT32_MAX: none).
 */
static enum om_err check_gears(const struct om_model *m, uint32_t *gear_input,
			       struct om_error *err)
{
	uint32_t want = 0, x;
	const struct om_value *g;

	*gear_input = UINT32_MAX;
	for (uint32_t i = 0; i < m->ninputs; i++)
		if (!strcmp(m->values[m->inputs[i]].name, OM_DYNAMIC_TENSOR_NAME) &&
		    (m->dynamic == OM_DYNAMIC_NONE || i + 1 != m->ninputs))
			return INVALID("graph input %" PRIu32 " is named '%s', the name of the last "
				       "input of a model with gears", i, OM_DYNAMIC_TENSOR_NAME);
	switch (m->dynamic) {
	case OM_DYNAMIC_NONE:
		if (m->ngears || m->gear_len)
			return INVALID("%" PRIu32 " gears of %" PRIu32 " values but no dynamic mode",
				       m->ngears, m->gear_len);
		return OM_OK;
	case OM_DYNAMIC_BATCH:
		want = 1;
		break;
	case OM_DYNAMIC_HW:
		want = 2;
		break;
	case OM_DYNAMIC_DIMS:
		/* A value for every -1 dimension of the inputs, in input order. */
		for (uint32_t i = 0; i + 1 < m->ninputs; i++) {
			const struct om_value *v = &m->values[m->inputs[i]];

			for (int32_t d = 0; d < v->ndim; d++)
				want += v->dims[d] < 0;
		}
		break;
	default:
		return INVALID("dynamic mode %d", (int)m->dynamic);
	}
	if (!m->ngears || m->ngears > OM_MAX_GEARS || !m->gears)
		return INVALID("dynamic mode %d with %" PRIu32 " gears (1 .. %d)", (int)m->dynamic,
			       m->ngears, OM_MAX_GEARS);
	if (!want || m->gear_len != want)
		return INVALID("dynamic mode %d: gears of %" PRIu32 " values, %" PRIu32 " wanted",
			       (int)m->dynamic, m->gear_len, want);
	for (uint64_t k = 0; k < (uint64_t)m->ngears * m->gear_len; k++)
		if (m->gears[k] < 1)
			return INVALID("gear %" PRIu64 ": value %" PRIu64 " is %" PRId64,
				       k / m->gear_len, k % m->gear_len, m->gears[k]);
	if (!m->ninputs)
		return INVALID("a model with gears has no gear input '%s'", OM_DYNAMIC_TENSOR_NAME);
	x = m->inputs[m->ninputs - 1];
	g = &m->values[x];
	if (strcmp(g->name, OM_DYNAMIC_TENSOR_NAME) || g->dtype != ACL_INT64 || g->ndim != 1 ||
	    g->dims[0] != (int64_t)m->gear_len)
		return INVALID("the last graph input '%s' is not the gear input '%s' (ACL_INT64, "
			       "[%" PRIu32 "])", g->name, OM_DYNAMIC_TENSOR_NAME, m->gear_len);
	*gear_input = x;
	return OM_OK;
}

enum om_err om_model_check(const struct om_model *m, struct om_error *err)
{
	uint32_t gear_input;
	enum om_err e;

	om_clear(err);
	if (!m)
		return INVALID("no model");
	if (!m->name || !m->soc_version)
		return INVALID("the model has no name or no soc_version");
	if ((m->nvalues && !m->values) || (m->nnodes && !m->nodes))
		return INVALID("%" PRIu32 " values and %" PRIu32 " nodes without their arrays",
			       m->nvalues, m->nnodes);
	if (m->weights_size && !m->weights)
		return INVALID("%" PRIu64 " bytes of weights but no weights", m->weights_size);
	/* Values first: the later checks read their names and dimensions. */
	for (uint32_t i = 0; i < m->nvalues; i++)
		if ((e = check_value(m, i, err)))
			return e;
	if ((e = check_io(m, err)) || (e = check_gears(m, &gear_input, err)))
		return e;
	for (uint32_t i = 0; i < m->nnodes; i++)
		if ((e = check_node(m, i, gear_input, err)))
			return e;
	return check_names(m, err);
}
