// SPDX-License-Identifier: MIT
/*
 * Host unit tests for lib/onnx, the ONNX reader (lib/onnx/vnpu_onnx.h).
 *
 * Real files first: ONNX's backend node tests as Debian ships them
 * (libonnx-testdata, /usr/share/libonnx-testdata/data/node): graph inputs
 * and outputs, nodes, attributes of every kind the tests use (INT, INTS,
 * FLOAT, STRING, STRINGS, TENSOR, GRAPH), omitted optional inputs,
 * sequence and optional values, and test data of the element types a
 * driver meets (FLOAT, FLOAT16, BOOL, INT64, INT32), checked against the
 * operator they feed where that is exact (Add, And).
 *
 * Then what the files do not cover, built here with the protobuf-c code
 * lib/onnx uses: every typed data field and the types it packs (int32_data
 * holds INT8 .. BFLOAT16), complex numbers, every way a tensor's data can
 * be wrong, what is unsupported (STRING, external data, segments, sparse
 * initializers, untyped attributes), symbolic and unknown dimensions,
 * Constant nodes of every form, opsets of several domains. Last the
 * damaged files: missing, empty, every truncation and every byte flipped
 * of a real model and tensor, garbage; ASan and UBSan (make unit) check
 * that none of them reads out of bounds or leaks.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_base.h"
#include "onnx.pb-c.h"
#include "vnpu_onnx.h"

#define NODE_DIR "/usr/share/libonnx-testdata/data/node/"

static const char *model_path(const char *test)
{
	static char path[512];

	snprintf(path, sizeof(path), NODE_DIR "%s/model.onnx", test);
	return path;
}

static const char *pb_path(const char *test, const char *file)
{
	static char path[512];

	snprintf(path, sizeof(path), NODE_DIR "%s/test_data_set_0/%s", test, file);
	return path;
}

static struct onnx_model *load_model(const char *test)
{
	struct onnx_error err;
	struct onnx_model *m;

	ck_assert_msg(onnx_model_load(model_path(test), &m, &err) == ONNX_OK, "%s", err.msg);
	ck_assert_ptr_nonnull(m);
	return m;
}

static void load_pb(const char *test, const char *file, struct onnx_tensor *t)
{
	struct onnx_error err;

	ck_assert_msg(onnx_tensor_load(pb_path(test, file), t, &err) == ONNX_OK, "%s", err.msg);
}

static void check_shape(const int64_t *dims, int32_t ndim, const int64_t *want, int32_t nwant)
{
	ck_assert_int_eq(ndim, nwant);
	for (int32_t i = 0; i < ndim; i++)
		ck_assert_int_eq(dims[i], want[i]);
}

static void check_value_info(const struct onnx_value_info *v, const char *name, int32_t dtype,
			     const int64_t *dims, int32_t ndim)
{
	ck_assert_str_eq(v->name, name);
	ck_assert_int_eq(v->kind, ONNX_VALUE_TENSOR);
	ck_assert_int_eq(v->dtype, dtype);
	ck_assert_int_eq(v->acl_dtype, onnx_dtype_to_acl(dtype));
	ck_assert(v->has_shape);
	ck_assert_int_eq(v->ndim, ndim);
	for (int32_t i = 0; i < ndim; i++) {
		ck_assert_int_eq(v->dims[i].value, dims[i]);
		ck_assert_str_eq(v->dims[i].param, "");
	}
}

static float half_to_float(uint16_t h)
{
	int exp = (h >> 10) & 0x1f, man = h & 0x3ff;
	float f;

	if (exp == 0x1f)
		f = man ? NAN : INFINITY;
	else if (exp)
		f = ldexpf((float)(man | 0x400), exp - 25);
	else
		f = ldexpf((float)man, -24);
	return h & 0x8000 ? -f : f;
}

/* ---- types ----------------------------------------------------------------- */

START_TEST(dtypes)
{
	static const struct {
		int32_t onnx;
		int32_t acl;
		size_t size;
		const char *name;
	} map[] = {
		{ ONNX_FLOAT, ACL_FLOAT, 4, "FLOAT" },
		{ ONNX_UINT8, ACL_UINT8, 1, "UINT8" },
		{ ONNX_INT8, ACL_INT8, 1, "INT8" },
		{ ONNX_UINT16, ACL_UINT16, 2, "UINT16" },
		{ ONNX_INT16, ACL_INT16, 2, "INT16" },
		{ ONNX_INT32, ACL_INT32, 4, "INT32" },
		{ ONNX_INT64, ACL_INT64, 8, "INT64" },
		{ ONNX_STRING, ACL_STRING, 0, "STRING" },
		{ ONNX_BOOL, ACL_BOOL, 1, "BOOL" },
		{ ONNX_FLOAT16, ACL_FLOAT16, 2, "FLOAT16" },
		{ ONNX_DOUBLE, ACL_DOUBLE, 8, "DOUBLE" },
		{ ONNX_UINT32, ACL_UINT32, 4, "UINT32" },
		{ ONNX_UINT64, ACL_UINT64, 8, "UINT64" },
		{ ONNX_COMPLEX64, ACL_COMPLEX64, 8, "COMPLEX64" },
		{ ONNX_COMPLEX128, ACL_COMPLEX128, 16, "COMPLEX128" },
		{ ONNX_BFLOAT16, ACL_BF16, 2, "BFLOAT16" },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		ck_assert_int_eq(onnx_dtype_to_acl(map[i].onnx), map[i].acl);
		ck_assert_uint_eq(onnx_dtype_size(map[i].onnx), map[i].size);
		ck_assert_str_eq(onnx_dtype_name(map[i].onnx), map[i].name);
	}
	ck_assert_int_eq(onnx_dtype_to_acl(ONNX_UNDEFINED), ACL_DT_UNDEFINED);
	ck_assert_int_eq(onnx_dtype_to_acl(17), ACL_DT_UNDEFINED);
	ck_assert_int_eq(onnx_dtype_to_acl(-1), ACL_DT_UNDEFINED);
	ck_assert_uint_eq(onnx_dtype_size(99), 0);
	ck_assert_str_eq(onnx_dtype_name(99), "?");
}
END_TEST

/* ---- real models and data -------------------------------------------------- */

START_TEST(model_add)
{
	static const int64_t shape[] = { 3, 4, 5 };
	struct onnx_model *m = load_model("test_add");
	const struct onnx_graph *g = &m->graph;
	struct onnx_tensor x, y, sum;

	ck_assert_int_eq(m->ir_version, 7);
	ck_assert_int_eq(m->opset, 14);
	ck_assert_uint_eq(m->nopsets, 1);
	ck_assert_str_eq(m->producer_name, "backend-test");
	ck_assert_str_eq(g->name, "test_add");
	ck_assert_uint_eq(g->ninputs, 2);
	ck_assert_uint_eq(g->noutputs, 1);
	ck_assert_uint_eq(g->ninits, 0);
	check_value_info(&g->inputs[0], "x", ONNX_FLOAT, shape, 3);
	check_value_info(&g->inputs[1], "y", ONNX_FLOAT, shape, 3);
	check_value_info(&g->outputs[0], "sum", ONNX_FLOAT, shape, 3);
	ck_assert_ptr_eq(onnx_graph_input(g, "y"), &g->inputs[1]);
	ck_assert_ptr_eq(onnx_graph_output(g, "sum"), &g->outputs[0]);
	ck_assert_ptr_null(onnx_graph_input(g, "sum"));
	ck_assert_ptr_eq(onnx_graph_feed(g, 0), &g->inputs[0]);
	ck_assert_ptr_eq(onnx_graph_feed(g, 1), &g->inputs[1]);
	ck_assert_ptr_null(onnx_graph_feed(g, 2));

	ck_assert_uint_eq(g->nnodes, 1);
	ck_assert_str_eq(g->nodes[0].op_type, "Add");
	ck_assert_str_eq(g->nodes[0].domain, "");
	ck_assert_str_eq(g->nodes[0].name, "");
	ck_assert_uint_eq(g->nodes[0].ninputs, 2);
	ck_assert_str_eq(g->nodes[0].inputs[0], "x");
	ck_assert_str_eq(g->nodes[0].inputs[1], "y");
	ck_assert_uint_eq(g->nodes[0].noutputs, 1);
	ck_assert_str_eq(g->nodes[0].outputs[0], "sum");
	ck_assert_uint_eq(g->nodes[0].nattrs, 0);

	load_pb("test_add", "input_0.pb", &x);
	load_pb("test_add", "input_1.pb", &y);
	load_pb("test_add", "output_0.pb", &sum);
	ck_assert_str_eq(x.name, "x");
	ck_assert_int_eq(x.dtype, ONNX_FLOAT);
	ck_assert_int_eq(x.acl_dtype, ACL_FLOAT);
	check_shape(x.dims, x.ndim, shape, 3);
	ck_assert_uint_eq(x.count, 60);
	ck_assert_uint_eq(x.size, 240);
	ck_assert_float_eq_tol(((float *)x.data)[0], 1.76405f, 1e-5f);
	check_shape(sum.dims, sum.ndim, shape, 3);
	/* The data is numpy's float32 sum: the same rounding. */
	for (int i = 0; i < 60; i++)
		ck_assert_float_eq(((float *)sum.data)[i],
				   ((float *)x.data)[i] + ((float *)y.data)[i]);
	onnx_tensor_release(&x);
	onnx_tensor_release(&y);
	onnx_tensor_release(&sum);
	ck_assert_ptr_null(x.data);
	onnx_tensor_release(&x);		/* twice: it is empty */
	onnx_tensor_release(NULL);
	onnx_model_free(m);
	onnx_model_free(NULL);
}
END_TEST

START_TEST(data_fp16)
{
	const char *test = "test_cast_FLOAT_to_FLOAT16";
	struct onnx_model *m = load_model(test);
	struct onnx_tensor in, out;

	ck_assert_int_eq(onnx_attr_int(&m->graph.nodes[0], "to", -1), ONNX_FLOAT16);
	ck_assert_int_eq(m->graph.outputs[0].dtype, ONNX_FLOAT16);
	ck_assert_int_eq(m->graph.outputs[0].acl_dtype, ACL_FLOAT16);
	load_pb(test, "input_0.pb", &in);
	load_pb(test, "output_0.pb", &out);
	ck_assert_int_eq(out.dtype, ONNX_FLOAT16);
	ck_assert_int_eq(out.acl_dtype, ACL_FLOAT16);
	ck_assert_uint_eq(out.count, in.count);
	ck_assert_uint_eq(out.size, 2 * out.count);
	/* Each element is the input rounded to fp16 (half an ulp: 2^-11). */
	for (uint64_t i = 0; i < out.count; i++) {
		float x = ((float *)in.data)[i];
		float h = half_to_float(((uint16_t *)out.data)[i]);

		ck_assert_float_le(fabsf(h - x), fabsf(x) * 0x1p-11f);
	}
	onnx_tensor_release(&in);
	onnx_tensor_release(&out);
	onnx_model_free(m);
}
END_TEST

START_TEST(data_bool)
{
	static const int64_t shape[] = { 3, 4 };
	struct onnx_model *m = load_model("test_and2d");
	struct onnx_tensor x, y, z;
	int ones = 0;

	check_value_info(&m->graph.inputs[0], "x", ONNX_BOOL, shape, 2);
	ck_assert_int_eq(m->graph.inputs[0].acl_dtype, ACL_BOOL);
	load_pb("test_and2d", "input_0.pb", &x);
	load_pb("test_and2d", "input_1.pb", &y);
	load_pb("test_and2d", "output_0.pb", &z);
	ck_assert_int_eq(x.dtype, ONNX_BOOL);
	ck_assert_int_eq(x.acl_dtype, ACL_BOOL);
	ck_assert_uint_eq(x.size, 12);
	for (int i = 0; i < 12; i++) {
		uint8_t a = ((uint8_t *)x.data)[i], b = ((uint8_t *)y.data)[i];

		ck_assert_uint_le(a, 1);
		ck_assert_uint_le(b, 1);
		ck_assert_uint_eq(((uint8_t *)z.data)[i], a & b);
		ones += a;
	}
	ck_assert_int_gt(ones, 0);
	ck_assert_int_lt(ones, 12);
	onnx_tensor_release(&x);
	onnx_tensor_release(&y);
	onnx_tensor_release(&z);
	onnx_model_free(m);
}
END_TEST

START_TEST(data_int64)
{
	static const int64_t shape[] = { 1, 2 }, in_shape[] = { 2, 2 };
	static const float in_vals[] = { 2, 1, 3, 10 };
	const char *test = "test_argmax_default_axis_example";
	struct onnx_model *m = load_model(test);
	struct onnx_tensor in, out;

	check_value_info(&m->graph.outputs[0], "result", ONNX_INT64, shape, 2);
	ck_assert_int_eq(onnx_attr_int(&m->graph.nodes[0], "keepdims", 0), 1);
	ck_assert_int_eq(onnx_attr_int(&m->graph.nodes[0], "axis", 0), 0);	/* default */
	ck_assert_ptr_null(onnx_node_attr(&m->graph.nodes[0], "axis"));
	load_pb(test, "input_0.pb", &in);
	load_pb(test, "output_0.pb", &out);
	check_shape(in.dims, in.ndim, in_shape, 2);
	ck_assert_mem_eq(in.data, in_vals, sizeof(in_vals));
	ck_assert_int_eq(out.dtype, ONNX_INT64);
	ck_assert_int_eq(out.acl_dtype, ACL_INT64);
	check_shape(out.dims, out.ndim, shape, 2);
	ck_assert_int_eq(((int64_t *)out.data)[0], 1);
	ck_assert_int_eq(((int64_t *)out.data)[1], 1);
	onnx_tensor_release(&in);
	onnx_tensor_release(&out);
	onnx_model_free(m);
}
END_TEST

/* test_constant's tensor attribute is in float_data (typed), its expected
 * output in raw_data: the same bytes. */
START_TEST(attr_tensor_typed)
{
	static const int64_t shape[] = { 5, 5 };
	struct onnx_model *m = load_model("test_constant");
	const struct onnx_node *n = &m->graph.nodes[0];
	const struct onnx_tensor *v;
	struct onnx_tensor out, c;
	struct onnx_error err;

	ck_assert_str_eq(n->op_type, "Constant");
	ck_assert_uint_eq(n->ninputs, 0);
	ck_assert_int_eq(onnx_node_attr(n, "value")->type, ONNX_ATTR_TENSOR);
	v = onnx_attr_tensor(n, "value");
	ck_assert_ptr_nonnull(v);
	ck_assert_str_eq(v->name, "const_tensor");
	ck_assert_int_eq(v->dtype, ONNX_FLOAT);
	check_shape(v->dims, v->ndim, shape, 2);
	load_pb("test_constant", "output_0.pb", &out);
	ck_assert_uint_eq(out.size, v->size);
	ck_assert_mem_eq(out.data, v->data, out.size);

	ck_assert_int_eq(onnx_node_constant(n, &c, &err), ONNX_OK);
	ck_assert_str_eq(c.name, "values");	/* the node's output */
	check_shape(c.dims, c.ndim, shape, 2);
	ck_assert_mem_eq(c.data, out.data, out.size);
	onnx_tensor_release(&c);
	onnx_tensor_release(&out);
	onnx_model_free(m);

	/* int32_data: ConstantOfShape's value. */
	m = load_model("test_constantofshape_int_zeros");
	v = onnx_attr_tensor(&m->graph.nodes[0], "value");
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(v->dtype, ONNX_INT32);
	ck_assert_int_eq(v->acl_dtype, ACL_INT32);
	ck_assert_int_eq(v->ndim, 1);
	ck_assert_int_eq(((int32_t *)v->data)[0], 0);
	ck_assert_int_eq(onnx_node_constant(&m->graph.nodes[0], &c, &err), ONNX_ERR_INVALID);
	ck_assert_ptr_nonnull(strstr(err.msg, "not a Constant"));
	onnx_model_free(m);
}
END_TEST

START_TEST(attr_ints)
{
	static const int64_t pads[] = { 1, 1, 1, 1 };
	struct onnx_model *m = load_model("test_conv_with_strides_padding");
	const struct onnx_node *n = &m->graph.nodes[0];
	const int64_t *v;
	size_t len;

	ck_assert_str_eq(n->op_type, "Conv");
	v = onnx_attr_ints(n, "pads", &len);
	ck_assert_uint_eq(len, 4);
	ck_assert_mem_eq(v, pads, sizeof(pads));
	v = onnx_attr_ints(n, "strides", &len);
	ck_assert_uint_eq(len, 2);
	ck_assert_int_eq(v[0], 2);
	ck_assert_int_eq(v[1], 2);
	v = onnx_attr_ints(n, "kernel_shape", &len);
	ck_assert_uint_eq(len, 2);
	ck_assert_int_eq(v[0], 3);
	ck_assert_int_eq(onnx_node_attr(n, "pads")->type, ONNX_ATTR_INTS);
	/* Absent, and of another type: the default. */
	ck_assert_ptr_null(onnx_attr_ints(n, "dilations", &len));
	ck_assert_uint_eq(len, 0);
	ck_assert_int_eq(onnx_attr_int(n, "group", 1), 1);
	ck_assert_int_eq(onnx_attr_int(n, "pads", 7), 7);
	ck_assert_ptr_null(onnx_attr_floats(n, "pads", &len));
	onnx_model_free(m);
}
END_TEST

START_TEST(attr_float)
{
	struct onnx_model *m = load_model("test_leakyrelu");
	const struct onnx_node *n = &m->graph.nodes[0];

	ck_assert_str_eq(n->op_type, "LeakyRelu");
	ck_assert_int_eq(onnx_node_attr(n, "alpha")->type, ONNX_ATTR_FLOAT);
	ck_assert_float_eq(onnx_attr_float(n, "alpha", 0.01f), 0.1f);
	ck_assert_float_eq(onnx_attr_float(n, "beta", 0.5f), 0.5f);
	ck_assert_int_eq(onnx_attr_int(n, "alpha", -3), -3);
	onnx_model_free(m);
}
END_TEST

START_TEST(attr_string)
{
	struct onnx_model *m = load_model("test_resize_downsample_scales_linear");
	const struct onnx_node *n = &m->graph.nodes[0];
	const struct onnx_attr *a;

	ck_assert_str_eq(n->op_type, "Resize");
	a = onnx_node_attr(n, "mode");
	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(a->type, ONNX_ATTR_STRING);
	ck_assert_uint_eq(a->s_len, 6);
	ck_assert_str_eq(onnx_attr_string(n, "mode", "nearest"), "linear");
	ck_assert_str_eq(onnx_attr_string(n, "coordinate_transformation_mode", "half_pixel"),
			 "half_pixel");
	/* X, roi left out, scales. */
	ck_assert_uint_eq(n->ninputs, 3);
	ck_assert_str_eq(n->inputs[0], "X");
	ck_assert_str_eq(n->inputs[1], "");
	ck_assert_str_eq(n->inputs[2], "scales");
	onnx_model_free(m);
}
END_TEST

START_TEST(attr_strings)
{
	const char *test = "test_strnormalizer_export_monday_casesensintive_lower";
	struct onnx_model *m = load_model(test);
	const struct onnx_node *n = &m->graph.nodes[0];
	struct onnx_tensor t;
	struct onnx_error err;
	char *const *s;
	size_t len;

	ck_assert_str_eq(n->op_type, "StringNormalizer");
	s = onnx_attr_strings(n, "stopwords", &len);
	ck_assert_uint_eq(len, 1);
	ck_assert_str_eq(s[0], "monday");
	ck_assert_uint_eq(onnx_node_attr(n, "stopwords")->s_lens[0], 6);
	ck_assert_int_eq(m->graph.inputs[0].dtype, ONNX_STRING);
	ck_assert_int_eq(m->graph.inputs[0].acl_dtype, ACL_STRING);
	/* Its data are strings: unsupported, said so. */
	ck_assert_int_eq(onnx_tensor_load(pb_path(test, "input_0.pb"), &t, &err),
			 ONNX_ERR_UNSUPPORTED);
	ck_assert_int_eq(err.code, ONNX_ERR_UNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(err.msg, "STRING tensors are not supported"));
	ck_assert_ptr_nonnull(strstr(err.msg, "input_0.pb"));
	ck_assert_ptr_null(t.data);
	onnx_model_free(m);
}
END_TEST

START_TEST(attr_graph)
{
	struct onnx_model *m = load_model("test_if");
	const struct onnx_node *n = &m->graph.nodes[0];
	const struct onnx_attr *a = onnx_node_attr(n, "then_branch");
	const struct onnx_tensor *v;
	struct onnx_tensor res;

	ck_assert_str_eq(n->op_type, "If");
	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(a->type, ONNX_ATTR_GRAPH);
	ck_assert_uint_eq(a->g->nnodes, 1);
	ck_assert_uint_eq(a->g->noutputs, 1);
	ck_assert_str_eq(a->g->nodes[0].op_type, "Constant");
	v = onnx_attr_tensor(&a->g->nodes[0], "value");
	ck_assert_int_eq(v->count, 5);
	/* cond is true: the result is then_branch's constant. */
	load_pb("test_if", "output_0.pb", &res);
	ck_assert_mem_eq(res.data, v->data, v->size);
	ck_assert_int_eq(onnx_node_attr(n, "else_branch")->type, ONNX_ATTR_GRAPH);
	onnx_tensor_release(&res);
	onnx_model_free(m);
}
END_TEST

START_TEST(value_kinds)
{
	struct onnx_model *m = load_model("test_sequence_insert_at_back");
	const struct onnx_value_info *v = &m->graph.inputs[0];

	ck_assert_int_eq(v->kind, ONNX_VALUE_SEQUENCE);
	ck_assert_int_eq(v->dtype, ONNX_UNDEFINED);
	ck_assert_int_eq(v->acl_dtype, ACL_DT_UNDEFINED);
	ck_assert_ptr_nonnull(v->elem);
	ck_assert_int_eq(v->elem->kind, ONNX_VALUE_TENSOR);
	ck_assert_int_eq(m->graph.inputs[1].kind, ONNX_VALUE_TENSOR);
	onnx_model_free(m);

	m = load_model("test_optional_has_element");
	v = &m->graph.inputs[0];
	ck_assert_int_eq(v->kind, ONNX_VALUE_OPTIONAL);
	ck_assert_ptr_nonnull(v->elem);
	ck_assert_int_eq(v->elem->kind, ONNX_VALUE_TENSOR);
	ck_assert_int_eq(v->elem->dtype, ONNX_FLOAT);
	onnx_model_free(m);
}
END_TEST

/* ONNX 1.12's bfloat16 data are UINT16 tensors (numpy has no bfloat16): the
 * reader reports what the file says. */
START_TEST(data_bf16_as_uint16)
{
	const char *test = "test_cast_FLOAT_to_BFLOAT16";
	struct onnx_model *m = load_model(test);
	struct onnx_tensor in, out;

	ck_assert_int_eq(m->graph.outputs[0].dtype, ONNX_BFLOAT16);
	ck_assert_int_eq(m->graph.outputs[0].acl_dtype, ACL_BF16);
	load_pb(test, "input_0.pb", &in);
	load_pb(test, "output_0.pb", &out);
	ck_assert_int_eq(out.dtype, ONNX_UINT16);
	ck_assert_uint_eq(out.count, in.count);
	for (uint64_t i = 0; i < out.count; i++) {
		uint32_t bits = (uint32_t)((uint16_t *)out.data)[i] << 16;
		float x = ((float *)in.data)[i], b;

		memcpy(&b, &bits, sizeof(b));
		if (isnan(x))
			ck_assert(isnan(b));
		else if (isfinite(x))
			ck_assert_float_le(fabsf(b - x), fabsf(x) * 0x1p-7f);
	}
	onnx_tensor_release(&in);
	onnx_tensor_release(&out);
	onnx_model_free(m);
}
END_TEST

/* ---- built tensors: typed fields ----------------------------------------- */

static uint8_t *pack_tensor(const Onnx__TensorProto *p, size_t *len)
{
	uint8_t *buf;

	*len = onnx__tensor_proto__get_packed_size(p);
	buf = malloc(*len ? *len : 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(onnx__tensor_proto__pack(p, buf), *len);
	return buf;
}

static enum onnx_err parse_tensor(const Onnx__TensorProto *p, struct onnx_tensor *t,
				  struct onnx_error *err)
{
	size_t len;
	uint8_t *buf = pack_tensor(p, &len);
	enum onnx_err e = onnx_tensor_parse(buf, len, t, err);

	free(buf);
	if (e)
		ck_assert_ptr_null(t->data);
	return e;
}

static void tensor_init(Onnx__TensorProto *p, int32_t dtype, int64_t *dims, size_t ndims)
{
	Onnx__TensorProto init = ONNX__TENSOR_PROTO__INIT;

	*p = init;
	p->has_data_type = 1;
	p->data_type = dtype;
	p->dims = dims;
	p->n_dims = ndims;
}

START_TEST(typed_fields)
{
	int64_t dims[] = { 2, 2 };
	float f[] = { 1.5f, -2, 0, 3 };
	int32_t i32[] = { 0x3c00, 0xc000, 0, 0x7bff };
	int32_t i8[] = { -128, 127, 0, -1 };
	int32_t b[] = { 1, 0, 0, 1 };
	int64_t i64[] = { INT64_MIN, -1, 0, INT64_MAX };
	double d[] = { 0.25, -1e300, 0, 1 };
	uint64_t u64[] = { 0, 1, UINT32_MAX, UINT64_MAX };
	float cf[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	static const uint16_t h_want[] = { 0x3c00, 0xc000, 0, 0x7bff };
	static const int8_t i8_want[] = { -128, 127, 0, -1 };
	static const uint8_t b_want[] = { 1, 0, 0, 1 };
	Onnx__TensorProto p;
	struct onnx_tensor t;
	struct onnx_error err;

	tensor_init(&p, ONNX_FLOAT, dims, 2);
	p.float_data = f;
	p.n_float_data = 4;
	p.name = "f";
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_OK);
	ck_assert_str_eq(t.name, "f");
	ck_assert_uint_eq(t.size, 16);
	ck_assert_mem_eq(t.data, f, 16);
	onnx_tensor_release(&t);

	tensor_init(&p, ONNX_FLOAT16, dims, 2);
	p.int32_data = i32;
	p.n_int32_data = 4;
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_OK);
	ck_assert_str_eq(t.name, "");
	ck_assert_int_eq(t.acl_dtype, ACL_FLOAT16);
	ck_assert_uint_eq(t.size, 8);
	ck_assert_mem_eq(t.data, h_want, 8);
	onnx_tensor_release(&t);
	p.data_type = ONNX_BFLOAT16;
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_OK);
	ck_assert_int_eq(t.acl_dtype, ACL_BF16);
	ck_assert_mem_eq(t.data, h_want, 8);
	onnx_tensor_release(&t);
	p.data_type = ONNX_UINT16;
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_OK);
	ck_assert_mem_eq(t.data, h_want, 8);
	onnx_tensor_release(&t);
	p.data_type = ONNX_INT32;
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_OK);
	ck_assert_mem_eq(t.data, i32, 16);
	onnx_tensor_release(&t);
	/* 0xc000 does not fit an INT16. */
	p.data_type = ONNX_INT16;
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_ERR_INVALID);
	ck_assert_ptr_nonnull(strstr(err.msg, "int32_data[1] = 49152 is out of range for INT16"));

	p.int32_data = i8;
	p.data_type = ONNX_INT8;
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_OK);
	ck_assert_uint_eq(t.size, 4);
	ck_assert_mem_eq(t.data, i8_want, 4);
	onnx_tensor_release(&t);
	p.data_type = ONNX_INT16;
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_OK);
	ck_assert_int_eq(((int16_t *)t.data)[0], -128);
	ck_assert_int_eq(((int16_t *)t.data)[3], -1);
	onnx_tensor_release(&t);
	p.data_type = ONNX_UINT8;
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_ERR_INVALID);
	p.data_type = ONNX_BOOL;
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_ERR_INVALID);
	p.int32_data = b;
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_OK);
	ck_assert_int_eq(t.acl_dtype, ACL_BOOL);
	ck_assert_mem_eq(t.data, b_want, 4);
	onnx_tensor_release(&t);
	p.data_type = ONNX_UINT8;
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_OK);
	ck_assert_mem_eq(t.data, b_want, 4);
	onnx_tensor_release(&t);

	tensor_init(&p, ONNX_INT64, dims, 2);
	p.int64_data = i64;
	p.n_int64_data = 4;
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_OK);
	ck_assert_mem_eq(t.data, i64, 32);
	onnx_tensor_release(&t);

	tensor_init(&p, ONNX_DOUBLE, dims, 2);
	p.double_data = d;
	p.n_double_data = 4;
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_OK);
	ck_assert_int_eq(t.acl_dtype, ACL_DOUBLE);
	ck_assert_mem_eq(t.data, d, 32);
	onnx_tensor_release(&t);

	tensor_init(&p, ONNX_UINT64, dims, 2);
	p.uint64_data = u64;
	p.n_uint64_data = 4;
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_OK);
	ck_assert_mem_eq(t.data, u64, 32);
	onnx_tensor_release(&t);
	p.data_type = ONNX_UINT32;
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_ERR_INVALID);
	ck_assert_ptr_nonnull(strstr(err.msg, "uint64_data[3]"));
	p.n_uint64_data = 3;
	dims[1] = 1;
	dims[0] = 3;
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_OK);
	ck_assert_int_eq(t.acl_dtype, ACL_UINT32);
	ck_assert_uint_eq(((uint32_t *)t.data)[2], UINT32_MAX);
	onnx_tensor_release(&t);
	dims[0] = dims[1] = 2;

	/* Complex numbers: two values each. */
	tensor_init(&p, ONNX_COMPLEX64, dims, 2);
	p.float_data = cf;
	p.n_float_data = 8;
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_OK);
	ck_assert_int_eq(t.acl_dtype, ACL_COMPLEX64);
	ck_assert_uint_eq(t.count, 4);
	ck_assert_uint_eq(t.size, 32);
	ck_assert_mem_eq(t.data, cf, 32);
	onnx_tensor_release(&t);
	p.n_float_data = 4;
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_ERR_INVALID);
	ck_assert_ptr_nonnull(strstr(err.msg, "float_data has 4 values, 4 COMPLEX64 elements "
				     "need 8"));
}
END_TEST

START_TEST(raw_data)
{
	int64_t dims[] = { 3 }, empty[] = { 0, 3 };
	uint8_t bools[] = { 0, 2, 255 }, f[4] = { 0, 0, 0x80, 0x3f };
	Onnx__TensorProto p;
	struct onnx_tensor t, c;
	struct onnx_error err;

	/* Bools other than 0 and 1 become 1. */
	tensor_init(&p, ONNX_BOOL, dims, 1);
	p.has_raw_data = 1;
	p.raw_data.data = bools;
	p.raw_data.len = 3;
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_OK);
	ck_assert_uint_eq(((uint8_t *)t.data)[0], 0);
	ck_assert_uint_eq(((uint8_t *)t.data)[1], 1);
	ck_assert_uint_eq(((uint8_t *)t.data)[2], 1);
	ck_assert_int_eq(onnx_tensor_copy(&c, &t, &err), ONNX_OK);
	ck_assert_ptr_ne(c.data, t.data);
	ck_assert_mem_eq(c.data, t.data, 3);
	ck_assert_ptr_ne(c.dims, t.dims);
	onnx_tensor_release(&t);
	onnx_tensor_release(&c);

	/* A scalar. */
	tensor_init(&p, ONNX_FLOAT, NULL, 0);
	p.has_raw_data = 1;
	p.raw_data.data = f;
	p.raw_data.len = 4;
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_OK);
	ck_assert_int_eq(t.ndim, 0);
	ck_assert_ptr_nonnull(t.dims);
	ck_assert_uint_eq(t.count, 1);
	ck_assert_float_eq(*(float *)t.data, 1.0f);
	onnx_tensor_release(&t);
	p.raw_data.len = 3;
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_ERR_INVALID);
	ck_assert_ptr_nonnull(strstr(err.msg, "raw_data has 3 bytes, 1 FLOAT elements need 4"));

	/* Empty: no data at all, raw or typed. */
	tensor_init(&p, ONNX_FLOAT, empty, 2);
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_OK);
	ck_assert_uint_eq(t.count, 0);
	ck_assert_uint_eq(t.size, 0);
	ck_assert_ptr_nonnull(t.data);
	onnx_tensor_release(&t);
	p.has_raw_data = 1;
	p.raw_data.len = 0;
	p.raw_data.data = f;
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_OK);
	onnx_tensor_release(&t);
}
END_TEST

START_TEST(bad_tensors)
{
	int64_t dims[] = { 2 }, neg[] = { -1 }, huge[] = { INT64_MAX, INT64_MAX };
	int64_t big[] = { 1 << 20, 1 << 20, 1 << 20 };
	float f[] = { 1, 2 };
	int64_t i64[] = { 1, 2 };
	Onnx__StringStringEntryProto loc = ONNX__STRING_STRING_ENTRY_PROTO__INIT;
	Onnx__StringStringEntryProto *ext[] = { &loc };
	Onnx__TensorProto__Segment seg = ONNX__TENSOR_PROTO__SEGMENT__INIT;
	ProtobufCBinaryData strs[2] = { { 1, (uint8_t *)"a" }, { 1, (uint8_t *)"b" } };
	Onnx__TensorProto p;
	struct onnx_tensor t;
	struct onnx_error err;

	tensor_init(&p, ONNX_FLOAT, dims, 1);
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_ERR_INVALID);
	ck_assert_ptr_nonnull(strstr(err.msg, "float_data has 0 values, 2 FLOAT elements need 2"));
	p.float_data = f;
	p.n_float_data = 1;
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_ERR_INVALID);
	p.n_float_data = 2;
	p.int64_data = i64;
	p.n_int64_data = 2;
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_ERR_INVALID);
	ck_assert_ptr_nonnull(strstr(err.msg, "a FLOAT tensor with int64_data"));
	p.n_int64_data = 0;
	p.has_raw_data = 1;
	p.raw_data.data = (uint8_t *)f;
	p.raw_data.len = 8;
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_ERR_INVALID);
	ck_assert_ptr_nonnull(strstr(err.msg, "both raw_data and float_data"));
	p.n_float_data = 0;
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_OK);
	onnx_tensor_release(&t);

	/* Unsupported, said so. */
	loc.key = "location";
	loc.value = "weights.bin";
	p.external_data = ext;
	p.n_external_data = 1;
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_ERR_UNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(err.msg, "external data is not supported"));
	p.n_external_data = 0;
	p.has_data_location = 1;
	p.data_location = ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_ERR_UNSUPPORTED);
	p.has_data_location = 0;
	p.segment = &seg;
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_ERR_UNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(err.msg, "segmented"));
	p.segment = NULL;

	tensor_init(&p, ONNX_STRING, dims, 1);
	p.string_data = strs;
	p.n_string_data = 2;
	p.name = "words";
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_ERR_UNSUPPORTED);
	ck_assert_str_eq(err.msg, "tensor \"words\": STRING tensors are not supported");

	/* Types. */
	tensor_init(&p, ONNX_FLOAT, dims, 1);
	p.has_data_type = 0;
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_ERR_INVALID);
	ck_assert_ptr_nonnull(strstr(err.msg, "no data type"));
	tensor_init(&p, 99, dims, 1);
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_ERR_UNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(err.msg, "unknown data type 99"));

	/* Shapes: negative, overflowing, or far more than the data: refused
	 * before anything is allocated. */
	tensor_init(&p, ONNX_FLOAT, neg, 1);
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_ERR_INVALID);
	ck_assert_ptr_nonnull(strstr(err.msg, "bad shape [-1]"));
	tensor_init(&p, ONNX_FLOAT, huge, 2);
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_ERR_INVALID);
	tensor_init(&p, ONNX_INT64, big, 3);
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_ERR_INVALID);
	p.has_raw_data = 1;
	p.raw_data.data = (uint8_t *)f;
	p.raw_data.len = 8;
	ck_assert_int_eq(parse_tensor(&p, &t, &err), ONNX_ERR_INVALID);

	/* err may be NULL. */
	ck_assert_int_eq(parse_tensor(&p, &t, NULL), ONNX_ERR_INVALID);
}
END_TEST

/* ---- built models ---------------------------------------------------------- */

struct built {
	Onnx__ModelProto model;
	Onnx__GraphProto graph;
	Onnx__OperatorSetIdProto ops[3], *opsp[3];
	Onnx__ValueInfoProto in[2], *inp[2], out, *outp[1];
	Onnx__TypeProto in_type[2], out_type;
	Onnx__TypeProto__Tensor in_tt[2];
	Onnx__TypeProto__Sequence out_seq;
	Onnx__TypeProto seq_elem;
	Onnx__TypeProto__Tensor seq_tt;
	Onnx__TensorShapeProto shape;
	Onnx__TensorShapeProto__Dimension dim[3], *dimp[3];
	Onnx__TensorProto init, *initp[1];
	Onnx__NodeProto node[3], *nodep[3];
	Onnx__AttributeProto attr[4], *attrp[4];
	Onnx__TensorProto attr_t[2], *attr_tp[2];
	char *node_in[2], *node_out[1];
	float floats[3];
	int64_t ints[2], init_dims[1];
	float init_data[2];
	ProtobufCBinaryData strs[2];
};

/*
 * A model: opsets "" 13, "ai.onnx" 15, "com.example" 1; inputs "w" (an
 * initializer too) FLOAT [2] and "x" FLOAT [N, ?, 4] (a symbolic, an
 * unknown and a known dimension) and, if given no shape, "x" of unknown
 * rank; output "s" a sequence of INT32 tensors; nodes:
 *   0 Mul(x, w) -> y with FLOATS alpha {1, 2, 3}, STRINGS names {"a", "b\0c"},
 *     TENSORS pair {INT64 [2] ints, FLOAT [2] floats}, INT i 5
 *   1 Constant() -> c with value_ints {7, -7}
 *   2 com.example.Custom(y, "", c) -> s
 */
static void build(struct built *b)
{
	static const Onnx__ModelProto m0 = ONNX__MODEL_PROTO__INIT;
	static const Onnx__GraphProto g0 = ONNX__GRAPH_PROTO__INIT;
	static const Onnx__OperatorSetIdProto o0 = ONNX__OPERATOR_SET_ID_PROTO__INIT;
	static const Onnx__ValueInfoProto v0 = ONNX__VALUE_INFO_PROTO__INIT;
	static const Onnx__TypeProto t0 = ONNX__TYPE_PROTO__INIT;
	static const Onnx__TypeProto__Tensor tt0 = ONNX__TYPE_PROTO__TENSOR__INIT;
	static const Onnx__TypeProto__Sequence s0 = ONNX__TYPE_PROTO__SEQUENCE__INIT;
	static const Onnx__TensorShapeProto sh0 = ONNX__TENSOR_SHAPE_PROTO__INIT;
	static const Onnx__TensorShapeProto__Dimension d0 = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__INIT;
	static const Onnx__NodeProto n0 = ONNX__NODE_PROTO__INIT;
	static const Onnx__AttributeProto a0 = ONNX__ATTRIBUTE_PROTO__INIT;
	static const char *domains[] = { "", "ai.onnx", "com.example" };
	static const int64_t versions[] = { 13, 15, 1 };

	memset(b, 0, sizeof(*b));
	b->model = m0;
	b->model.has_ir_version = 1;
	b->model.ir_version = 8;
	b->model.producer_name = "test_onnx";
	for (int i = 0; i < 3; i++) {
		b->ops[i] = o0;
		b->ops[i].domain = (char *)domains[i];
		b->ops[i].has_version = 1;
		b->ops[i].version = versions[i];
		b->opsp[i] = &b->ops[i];
	}
	b->model.opset_import = b->opsp;
	b->model.n_opset_import = 3;
	b->model.graph = &b->graph;

	b->graph = g0;
	b->graph.name = "built";
	for (int i = 0; i < 2; i++) {
		b->in[i] = v0;
		b->in[i].type = &b->in_type[i];
		b->in_type[i] = t0;
		b->in_type[i].value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
		b->in_type[i].tensor_type = &b->in_tt[i];
		b->in_tt[i] = tt0;
		b->in_tt[i].has_elem_type = 1;
		b->in_tt[i].elem_type = ONNX_FLOAT;
		b->inp[i] = &b->in[i];
	}
	b->in[0].name = "w";
	b->in[1].name = "x";
	b->in_tt[1].shape = &b->shape;
	b->shape = sh0;
	for (int i = 0; i < 3; i++) {
		b->dim[i] = d0;
		b->dimp[i] = &b->dim[i];
	}
	b->dim[0].value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
	b->dim[0].dim_param = "N";
	b->dim[2].value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
	b->dim[2].dim_value = 4;
	b->shape.dim = b->dimp;
	b->shape.n_dim = 3;
	b->graph.input = b->inp;
	b->graph.n_input = 2;

	b->out = v0;
	b->out.name = "s";
	b->out.type = &b->out_type;
	b->out_type = t0;
	b->out_type.value_case = ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE;
	b->out_type.sequence_type = &b->out_seq;
	b->out_seq = s0;
	b->out_seq.elem_type = &b->seq_elem;
	b->seq_elem = t0;
	b->seq_elem.value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
	b->seq_elem.tensor_type = &b->seq_tt;
	b->seq_tt = tt0;
	b->seq_tt.has_elem_type = 1;
	b->seq_tt.elem_type = ONNX_INT32;
	b->outp[0] = &b->out;
	b->graph.output = b->outp;
	b->graph.n_output = 1;

	b->init_dims[0] = 2;
	b->init_data[0] = 0.5f;
	b->init_data[1] = 4;
	tensor_init(&b->init, ONNX_FLOAT, b->init_dims, 1);
	b->init.name = "w";
	b->init.float_data = b->init_data;
	b->init.n_float_data = 2;
	b->initp[0] = &b->init;
	b->graph.initializer = b->initp;
	b->graph.n_initializer = 1;

	for (int i = 0; i < 4; i++) {
		b->attr[i] = a0;
		b->attr[i].has_type = 1;
		b->attrp[i] = &b->attr[i];
	}
	b->floats[0] = 1;
	b->floats[1] = 2;
	b->floats[2] = 3;
	b->attr[0].name = "alpha";
	b->attr[0].type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS;
	b->attr[0].floats = b->floats;
	b->attr[0].n_floats = 3;
	b->strs[0].data = (uint8_t *)"a";
	b->strs[0].len = 1;
	b->strs[1].data = (uint8_t *)"b\0c";
	b->strs[1].len = 3;
	b->attr[1].name = "names";
	b->attr[1].type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRINGS;
	b->attr[1].strings = b->strs;
	b->attr[1].n_strings = 2;
	b->ints[0] = 7;
	b->ints[1] = -7;
	tensor_init(&b->attr_t[0], ONNX_INT64, b->init_dims, 1);
	b->attr_t[0].int64_data = b->ints;
	b->attr_t[0].n_int64_data = 2;
	tensor_init(&b->attr_t[1], ONNX_FLOAT, b->init_dims, 1);
	b->attr_t[1].float_data = b->init_data;
	b->attr_t[1].n_float_data = 2;
	b->attr_tp[0] = &b->attr_t[0];
	b->attr_tp[1] = &b->attr_t[1];
	b->attr[2].name = "pair";
	b->attr[2].type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSORS;
	b->attr[2].tensors = b->attr_tp;
	b->attr[2].n_tensors = 2;
	b->attr[3].name = "i";
	b->attr[3].type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT;
	b->attr[3].has_i = 1;
	b->attr[3].i = 5;

	for (int i = 0; i < 3; i++) {
		b->node[i] = n0;
		b->nodep[i] = &b->node[i];
	}
	b->node_in[0] = "x";
	b->node_in[1] = "w";
	b->node_out[0] = "y";
	b->node[0].op_type = "Mul";
	b->node[0].name = "mul0";
	b->node[0].input = b->node_in;
	b->node[0].n_input = 2;
	b->node[0].output = b->node_out;
	b->node[0].n_output = 1;
	b->node[0].attribute = b->attrp;
	b->node[0].n_attribute = 4;
	b->graph.node = b->nodep;
	b->graph.n_node = 1;
}

static enum onnx_err parse_built(const struct built *b, struct onnx_model **m,
				 struct onnx_error *err)
{
	size_t len = onnx__model_proto__get_packed_size(&b->model);
	uint8_t *buf = malloc(len);
	enum onnx_err e;

	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(onnx__model_proto__pack(&b->model, buf), len);
	e = onnx_model_parse(buf, len, m, err);
	free(buf);
	if (e)
		ck_assert_ptr_null(*m);
	return e;
}

START_TEST(model_built)
{
	struct built b;
	struct onnx_model *m;
	struct onnx_error err;
	const struct onnx_value_info *x, *s;
	const struct onnx_node *n;
	const struct onnx_attr *a;
	const float *fl;
	char *const *strs;
	size_t len;

	build(&b);
	ck_assert_int_eq(parse_built(&b, &m, &err), ONNX_OK);
	ck_assert_int_eq(m->ir_version, 8);
	ck_assert_int_eq(m->opset, 15);		/* the highest of "" and "ai.onnx" */
	ck_assert_uint_eq(m->nopsets, 3);
	ck_assert_str_eq(m->opsets[2].domain, "com.example");
	ck_assert_int_eq(m->opsets[2].version, 1);

	/* w is an initializer: x is the first input to feed. */
	ck_assert_uint_eq(m->graph.ninits, 1);
	ck_assert_ptr_eq(onnx_graph_init(&m->graph, "w"), &m->graph.inits[0]);
	ck_assert_ptr_null(onnx_graph_init(&m->graph, "x"));
	ck_assert_float_eq(((float *)m->graph.inits[0].data)[1], 4);
	x = onnx_graph_feed(&m->graph, 0);
	ck_assert_ptr_eq(x, &m->graph.inputs[1]);
	ck_assert_ptr_null(onnx_graph_feed(&m->graph, 1));
	ck_assert(x->has_shape);
	ck_assert_int_eq(x->ndim, 3);
	ck_assert_int_eq(x->dims[0].value, -1);
	ck_assert_str_eq(x->dims[0].param, "N");
	ck_assert_int_eq(x->dims[1].value, -1);
	ck_assert_str_eq(x->dims[1].param, "");
	ck_assert_int_eq(x->dims[2].value, 4);
	ck_assert(!m->graph.inputs[0].has_shape);
	ck_assert_int_eq(m->graph.inputs[0].ndim, 0);

	s = onnx_graph_output(&m->graph, "s");
	ck_assert_int_eq(s->kind, ONNX_VALUE_SEQUENCE);
	ck_assert_int_eq(s->elem->kind, ONNX_VALUE_TENSOR);
	ck_assert_int_eq(s->elem->dtype, ONNX_INT32);
	ck_assert(!s->elem->has_shape);

	n = &m->graph.nodes[0];
	ck_assert_str_eq(n->name, "mul0");
	fl = onnx_attr_floats(n, "alpha", &len);
	ck_assert_uint_eq(len, 3);
	ck_assert_float_eq(fl[2], 3);
	strs = onnx_attr_strings(n, "names", &len);
	ck_assert_uint_eq(len, 2);
	ck_assert_str_eq(strs[0], "a");
	a = onnx_node_attr(n, "names");
	ck_assert_uint_eq(a->s_lens[1], 3);
	ck_assert_mem_eq(a->strings[1], "b\0c", 4);
	a = onnx_node_attr(n, "pair");
	ck_assert_int_eq(a->type, ONNX_ATTR_TENSORS);
	ck_assert_uint_eq(a->n, 2);
	ck_assert_int_eq(a->tensors[0].dtype, ONNX_INT64);
	ck_assert_int_eq(((int64_t *)a->tensors[0].data)[1], -7);
	ck_assert_float_eq(((float *)a->tensors[1].data)[0], 0.5f);
	ck_assert_int_eq(onnx_attr_int(n, "i", 0), 5);
	ck_assert_ptr_null(onnx_attr_tensor(n, "pair"));
	onnx_model_free(m);
}
END_TEST

START_TEST(model_constants)
{
	static const char *names[] = { "value_ints", "value_int", "value_floats", "value_float" };
	struct built b;
	struct onnx_model *m;
	struct onnx_error err;
	struct onnx_tensor t;
	char *out[] = { "c" };

	build(&b);
	b.node[1].op_type = "Constant";
	b.node[1].output = out;
	b.node[1].n_output = 1;
	b.node[1].attribute = &b.attrp[3];
	b.node[1].n_attribute = 1;
	b.graph.n_node = 2;
	for (int k = 0; k < 4; k++) {
		b.attr[3].name = (char *)names[k];
		b.attr[3].type = k == 0 ? ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS :
				 k == 1 ? ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT :
				 k == 2 ? ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS :
				 ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT;
		b.attr[3].ints = b.ints;
		b.attr[3].n_ints = k == 0 ? 2 : 0;
		b.attr[3].i = -9;
		b.attr[3].floats = b.floats;
		b.attr[3].n_floats = k == 2 ? 3 : 0;
		b.attr[3].has_f = 1;
		b.attr[3].f = 2.5f;
		ck_assert_int_eq(parse_built(&b, &m, &err), ONNX_OK);
		ck_assert_int_eq(onnx_node_constant(&m->graph.nodes[1], &t, &err), ONNX_OK);
		ck_assert_str_eq(t.name, "c");
		switch (k) {
		case 0:
			ck_assert_int_eq(t.dtype, ONNX_INT64);
			ck_assert_int_eq(t.ndim, 1);
			ck_assert_int_eq(t.dims[0], 2);
			ck_assert_mem_eq(t.data, b.ints, 16);
			break;
		case 1:
			ck_assert_int_eq(t.dtype, ONNX_INT64);
			ck_assert_int_eq(t.ndim, 0);
			ck_assert_int_eq(*(int64_t *)t.data, -9);
			break;
		case 2:
			ck_assert_int_eq(t.dtype, ONNX_FLOAT);
			ck_assert_int_eq(t.dims[0], 3);
			ck_assert_mem_eq(t.data, b.floats, 12);
			break;
		default:
			ck_assert_int_eq(t.dtype, ONNX_FLOAT);
			ck_assert_int_eq(t.ndim, 0);
			ck_assert_float_eq(*(float *)t.data, 2.5f);
			break;
		}
		onnx_tensor_release(&t);
		onnx_model_free(m);
	}
	b.attr[3].name = "value_string";
	b.attr[3].type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING;
	ck_assert_int_eq(parse_built(&b, &m, &err), ONNX_OK);
	ck_assert_int_eq(onnx_node_constant(&m->graph.nodes[1], &t, &err), ONNX_ERR_UNSUPPORTED);
	ck_assert_ptr_null(t.data);
	onnx_model_free(m);
}
END_TEST

START_TEST(model_bad)
{
	Onnx__SparseTensorProto sparse = ONNX__SPARSE_TENSOR_PROTO__INIT, *sparsep[] = { &sparse };
	Onnx__TensorProto str_t;
	ProtobufCBinaryData s = { 1, (uint8_t *)"z" };
	int64_t one[] = { 1 };
	struct built b;
	struct onnx_model *m;
	struct onnx_error err;

	/* An attribute without a type (IR version 1). */
	build(&b);
	b.attr[3].has_type = 0;
	ck_assert_int_eq(parse_built(&b, &m, &err), ONNX_ERR_UNSUPPORTED);
	ck_assert_str_eq(err.msg, "graph \"built\": node 0 (Mul \"mul0\"): attribute \"i\": "
			 "no type (IR version 1 models are not supported)");

	/* A tensor attribute of strings, within a TENSORS list. */
	build(&b);
	tensor_init(&str_t, ONNX_STRING, one, 1);
	str_t.string_data = &s;
	str_t.n_string_data = 1;
	b.attr_tp[1] = &str_t;
	ck_assert_int_eq(parse_built(&b, &m, &err), ONNX_ERR_UNSUPPORTED);
	ck_assert_str_eq(err.msg, "graph \"built\": node 0 (Mul \"mul0\"): attribute \"pair\": "
			 "tensor 1: STRING tensors are not supported");

	/* An initializer whose data does not match its shape. */
	build(&b);
	b.init.n_float_data = 1;
	ck_assert_int_eq(parse_built(&b, &m, &err), ONNX_ERR_INVALID);
	ck_assert_ptr_nonnull(strstr(err.msg, "initializer 0 \"w\": float_data has 1 values"));

	build(&b);
	b.graph.sparse_initializer = sparsep;
	b.graph.n_sparse_initializer = 1;
	ck_assert_int_eq(parse_built(&b, &m, &err), ONNX_ERR_UNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(err.msg, "sparse initializers are not supported"));

	build(&b);
	b.node[0].op_type = NULL;
	ck_assert_int_eq(parse_built(&b, &m, &err), ONNX_ERR_INVALID);
	ck_assert_ptr_nonnull(strstr(err.msg, "no op_type"));

	build(&b);
	b.dim[2].dim_value = -4;
	ck_assert_int_eq(parse_built(&b, &m, &err), ONNX_ERR_INVALID);
	ck_assert_str_eq(err.msg, "graph \"built\": input 1 \"x\": dimension 2 is -4");

	build(&b);
	b.model.graph = NULL;
	ck_assert_int_eq(parse_built(&b, &m, &err), ONNX_ERR_INVALID);
	ck_assert_str_eq(err.msg, "no graph");
	ck_assert_int_eq(parse_built(&b, &m, NULL), ONNX_ERR_INVALID);
}
END_TEST

/* ---- damaged files --------------------------------------------------------- */

static uint8_t *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	ck_assert_int_gt(n, 0);
	rewind(f);
	buf = malloc((size_t)n);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

START_TEST(file_missing)
{
	struct onnx_model *m = (struct onnx_model *)1;
	struct onnx_tensor t;
	struct onnx_error err;

	ck_assert_int_eq(onnx_model_load(NODE_DIR "no_such_test/model.onnx", &m, &err),
			 ONNX_ERR_IO);
	ck_assert_ptr_null(m);
	ck_assert_str_eq(err.msg, NODE_DIR "no_such_test/model.onnx: No such file or directory");
	ck_assert_int_eq(onnx_tensor_load("/nonexistent.pb", &t, &err), ONNX_ERR_IO);
	ck_assert_ptr_null(t.data);
	ck_assert_int_eq(onnx_tensor_load(NODE_DIR "test_add", &t, &err), ONNX_ERR_IO);
	ck_assert_ptr_nonnull(strstr(err.msg, "not a regular file"));
	ck_assert_int_eq(onnx_model_load("/nonexistent.onnx", &m, NULL), ONNX_ERR_IO);
}
END_TEST

START_TEST(file_empty)
{
	struct onnx_model *m;
	struct onnx_tensor t;
	struct onnx_error err;

	/* An empty message is a valid protobuf: it has no graph, no type. */
	ck_assert_int_eq(onnx_model_parse("", 0, &m, &err), ONNX_ERR_INVALID);
	ck_assert_str_eq(err.msg, "no graph");
	ck_assert_int_eq(onnx_tensor_parse("", 0, &t, &err), ONNX_ERR_INVALID);
	ck_assert_str_eq(err.msg, "no data type");
	ck_assert_int_eq(onnx_tensor_load("/dev/null", &t, &err), ONNX_ERR_IO);
}
END_TEST

/* Every truncation of a model and of a tensor: refused or (cut at a field
 * boundary) a smaller valid message, never a bad access; cut inside the
 * last field, always refused. */
START_TEST(file_truncated)
{
	size_t mlen, tlen, refused = 0;
	uint8_t *mbuf = read_all(model_path("test_conv_with_strides_padding"), &mlen);
	uint8_t *tbuf = read_all(pb_path("test_add", "input_0.pb"), &tlen);
	struct onnx_model *m;
	struct onnx_tensor t;
	struct onnx_error err;

	for (size_t n = 0; n < mlen; n++) {
		uint8_t *cut = malloc(n ? n : 1);

		memcpy(cut, mbuf, n);
		if (onnx_model_parse(cut, n, &m, &err))
			refused++;
		else
			onnx_model_free(m);
		free(cut);
	}
	ck_assert_uint_gt(refused, mlen * 9 / 10);
	ck_assert_int_eq(onnx_model_parse(mbuf, mlen - 1, &m, &err), ONNX_ERR_PARSE);
	ck_assert_str_eq(err.msg, "not an ONNX model (protobuf decoding failed)");
	ck_assert_int_eq(onnx_model_parse(mbuf, mlen / 2, &m, &err), ONNX_ERR_PARSE);

	for (size_t n = 0; n < tlen; n++) {
		uint8_t *cut = malloc(n ? n : 1);
		enum onnx_err e;

		memcpy(cut, tbuf, n);
		e = onnx_tensor_parse(cut, n, &t, &err);
		ck_assert(e == ONNX_ERR_PARSE || e == ONNX_ERR_INVALID);
		free(cut);
	}
	ck_assert_int_eq(onnx_tensor_parse(tbuf, tlen - 1, &t, &err), ONNX_ERR_PARSE);
	ck_assert_str_eq(err.msg, "not a serialized TensorProto (protobuf decoding failed)");
	free(mbuf);
	free(tbuf);
}
END_TEST

/* Every byte of a small model and tensor inverted in turn, and every bit
 * of the first bytes flipped: whatever the result, no bad access or leak. */
START_TEST(file_flipped)
{
	const char *tests[] = { "test_conv_with_strides_padding", "test_constant", "test_if" };
	struct onnx_model *m;
	struct onnx_tensor t;
	struct onnx_error err;
	size_t len;

	for (size_t k = 0; k < sizeof(tests) / sizeof(tests[0]); k++) {
		uint8_t *buf = read_all(model_path(tests[k]), &len);

		for (size_t i = 0; i < len; i++) {
			for (int bit = 0; bit < (i < 64 ? 8 : 1); bit++) {
				uint8_t save = buf[i];

				buf[i] = i < 64 ? (uint8_t)(save ^ (1u << bit)) : (uint8_t)~save;
				if (!onnx_model_parse(buf, len, &m, &err))
					onnx_model_free(m);
				buf[i] = save;
			}
		}
		free(buf);
	}
	{
		uint8_t *buf = read_all(pb_path("test_and2d", "input_0.pb"), &len);

		for (size_t i = 0; i < len; i++) {
			for (int bit = 0; bit < 8; bit++) {
				buf[i] ^= (uint8_t)(1u << bit);
				if (!onnx_tensor_parse(buf, len, &t, &err))
					onnx_tensor_release(&t);
				buf[i] ^= (uint8_t)(1u << bit);
			}
		}
		free(buf);
	}
}
END_TEST

START_TEST(file_garbage)
{
	static const char text[] = "this is not an ONNX model, just some text\n";
	uint8_t buf[4096];
	uint64_t x = 0x9e3779b97f4a7c15ull;
	struct onnx_model *m;
	struct onnx_tensor t;
	struct onnx_error err;
	unsigned int refused = 0;

	ck_assert_int_ne(onnx_model_parse(text, sizeof(text) - 1, &m, &err), ONNX_OK);
	ck_assert_int_ne(onnx_tensor_parse(text, sizeof(text) - 1, &t, &err), ONNX_OK);
	for (int round = 0; round < 200; round++) {
		size_t n = 1 + (size_t)round * 20;

		for (size_t i = 0; i < n; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			buf[i] = (uint8_t)x;
		}
		if (onnx_model_parse(buf, n, &m, &err))
			refused++;
		else
			onnx_model_free(m);
		if (!onnx_tensor_parse(buf, n, &t, &err))
			onnx_tensor_release(&t);
	}
	ck_assert_uint_gt(refused, 190);
}
END_TEST

static Suite *onnx_suite(void)
{
	Suite *s = suite_create("onnx");
	TCase *tc;

	tc = tcase_create("files");
	tcase_add_test(tc, dtypes);
	tcase_add_test(tc, model_add);
	tcase_add_test(tc, data_fp16);
	tcase_add_test(tc, data_bool);
	tcase_add_test(tc, data_int64);
	tcase_add_test(tc, attr_tensor_typed);
	tcase_add_test(tc, attr_ints);
	tcase_add_test(tc, attr_float);
	tcase_add_test(tc, attr_string);
	tcase_add_test(tc, attr_strings);
	tcase_add_test(tc, attr_graph);
	tcase_add_test(tc, value_kinds);
	tcase_add_test(tc, data_bf16_as_uint16);
	suite_add_tcase(s, tc);

	tc = tcase_create("built");
	tcase_add_test(tc, typed_fields);
	tcase_add_test(tc, raw_data);
	tcase_add_test(tc, bad_tensors);
	tcase_add_test(tc, model_built);
	tcase_add_test(tc, model_constants);
	tcase_add_test(tc, model_bad);
	suite_add_tcase(s, tc);

	tc = tcase_create("damaged");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, file_missing);
	tcase_add_test(tc, file_empty);
	tcase_add_test(tc, file_truncated);
	tcase_add_test(tc, file_flipped);
	tcase_add_test(tc, file_garbage);
	suite_add_tcase(s, tc);

	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(onnx_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
