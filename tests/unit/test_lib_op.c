// SPDX-License-Identifier: MIT
/*
 * Host unit tests of the operator adapter (lib/rt/rt_op.c) over lib/ops, and
 * of the tensor, data buffer and attribute objects (lib/acl/acl_tensor.c,
 * lib/acl/acl_opattr.c).
 *
 * The adapter is checked four ways: its ACL codes and messages; its plans
 * against values worked out here by hand from docs/ops.md (operand bytes,
 * output shapes, in place, workspace formulas); against lib/ops' own
 * vops_plan() of the same call (the adapter must hand over every input,
 * attribute and output unchanged); and the task and data area it builds
 * (one VNPU_TASK_OP: the descriptor at offset 0, the operand list at the
 * next multiple of 8, inputs READ, outputs WRITE, workspace WORKSPACE),
 * which are run here exactly as the engine server would, with vops_run()
 * on host memory, and compared with a double-precision reference.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vnpu_op_ref.h"
#include "rt.h"
#include "rt_op.h"
#include "vnpu_ops.h"

/* ---- helpers ---------------------------------------------------------------- */

static aclTensorDesc *td(aclDataType t, int n, const int64_t *dims)
{
	aclTensorDesc *d = aclCreateTensorDesc(t, n, dims, ACL_FORMAT_ND);

	ck_assert_ptr_nonnull(d);
	return d;
}

#define TD(t, ...) td(t, sizeof((int64_t[]){ __VA_ARGS__ }) / sizeof(int64_t), (int64_t[]){ __VA_ARGS__ })
#define TD0(t) td(t, 0, NULL)

static struct vops_plan plan;
static char last_msg[RT_ERRMSG_MAX];

/* Plan a call and return its code; a failure must leave a message, kept in
 * last_msg. */
static aclError plan1(const char *type, int nin, aclTensorDesc *a, aclTensorDesc *b, aclTensorDesc *out,
		      const aclopAttr *attr)
{
	aclTensorDesc *in[2] = { a, b }, *o[1] = { out };
	aclError r;

	(void)rt_err_take_message();
	last_msg[0] = '\0';
	r = rt_op_plan(type, nin, in, 1, o, attr, &plan);
	if (r) {
		const char *m = rt_err_take_message();

		ck_assert_msg(m && *m, "%s failed (%d) without a message", type, r);
		snprintf(last_msg, sizeof(last_msg), "%s", m);
	}
	return r;
}

/* The last failure's message contains @what. */
#define MSG_HAS(what) ck_assert_msg(strstr(last_msg, what), "message \"%s\" lacks \"%s\"", last_msg, what)

static void free_descs(aclTensorDesc *a, aclTensorDesc *b, aclTensorDesc *c)
{
	aclDestroyTensorDesc(a);
	aclDestroyTensorDesc(b);
	aclDestroyTensorDesc(c);
}

/* The operator id of the plan's descriptor (docs/ops.md, version 1: a u16
 * at byte 6 of the header; Add 1, Sub 2, Mul 3, RealDiv 4, Relu 5, Abs 6,
 * Cast 7, ReduceSumD 8, ReduceMaxD 9, SoftmaxV2 10, MatMul 11). */
enum { ID_ADD = 1, ID_SUB, ID_MUL, ID_REALDIV, ID_RELU, ID_ABS, ID_CAST, ID_SUM, ID_MAX, ID_SOFTMAX, ID_MATMUL };

static unsigned int desc_op(void)
{
	ck_assert_uint_ge(plan.desc_size, 16);
	return plan.desc[6] | (unsigned int)plan.desc[7] << 8;
}

/* The output of the plan: rank, and its dimensions when @dims is given. */
static void expect_out(int ndim, const int64_t *dims, uint64_t bytes)
{
	int i;

	ck_assert_int_eq(plan.nout, 1);
	ck_assert_int_eq(plan.out[0].ndim, ndim);
	for (i = 0; dims && i < ndim; i++)
		ck_assert_int_eq(plan.out[0].dims[i], dims[i]);
	ck_assert_uint_eq(plan.out[0].bytes, bytes);
}

#define OUT(bytes, ...) \
	expect_out(sizeof((int64_t[]){ __VA_ARGS__ }) / sizeof(int64_t), (int64_t[]){ __VA_ARGS__ }, bytes)

static uint64_t align64(uint64_t x)
{
	return (x + 63) / 64 * 64;
}

/*
 * The workspace of a reduction over axes that are not adjacent
 * (docs/ops.md): [0, region) for the steps' own needs, then buffer 0 and
 * buffer 1, each 64-byte aligned.
 */
static uint64_t chain_ws(uint64_t region, uint64_t buf0, uint64_t buf1)
{
	return align64(align64(region) + buf0) + buf1;
}

/* ---- tensor descriptors, data buffers, attributes ---------------------------- */

START_TEST(tensor_desc_accessors)
{
	int64_t dims[3] = { 2, 3, 4 }, got = 0, big[12];
	aclTensorDesc *d = aclCreateTensorDesc(ACL_FLOAT16, 3, dims, ACL_FORMAT_NCHW);
	int i;

	ck_assert_ptr_nonnull(d);
	ck_assert_uint_eq(aclGetTensorDescNumDims(d), 3);
	ck_assert_uint_eq(aclGetTensorDescElementCount(d), 24);
	ck_assert_uint_eq(aclGetTensorDescSize(d), 48);
	ck_assert_int_eq(aclGetTensorDescType(d), ACL_FLOAT16);
	ck_assert_int_eq(aclGetTensorDescFormat(d), ACL_FORMAT_NCHW);
	ck_assert_int_eq(aclGetTensorDescDimV2(d, 2, &got), ACL_SUCCESS);
	ck_assert_int_eq(got, 4);
	ck_assert_int_eq(aclGetTensorDescDimV2(d, 3, &got), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclGetTensorDescDimV2(d, 0, NULL), ACL_ERROR_INVALID_PARAM);
	dims[0] = 7; /* the descriptor keeps its own copy */
	ck_assert_int_eq(aclGetTensorDescDimV2(d, 0, &got), ACL_SUCCESS);
	ck_assert_int_eq(got, 2);

	/* Longer shapes than the inline storage, and back. */
	for (i = 0; i < 12; i++)
		big[i] = 1;
	big[11] = 5;
	ck_assert_int_eq(aclSetTensorShape(d, 12, big), ACL_SUCCESS);
	ck_assert_uint_eq(aclGetTensorDescNumDims(d), 12);
	ck_assert_uint_eq(aclGetTensorDescElementCount(d), 5);
	ck_assert_int_eq(aclSetTensorShape(d, 0, NULL), ACL_SUCCESS);
	ck_assert_uint_eq(aclGetTensorDescElementCount(d), 1); /* a scalar */
	ck_assert_int_eq(aclSetTensorShape(d, -1, big), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclSetTensorShape(d, 2, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclSetTensorShape(NULL, 1, big), ACL_ERROR_INVALID_PARAM);

	/* Unknown dimensions: accepted, but no size. */
	dims[0] = -1;
	ck_assert_int_eq(aclSetTensorShape(d, 3, dims), ACL_SUCCESS);
	ck_assert_uint_eq(aclGetTensorDescElementCount(d), 0);
	ck_assert_uint_eq(aclGetTensorDescSize(d), 0);
	aclDestroyTensorDesc(d);
	aclDestroyTensorDesc(NULL);

	ck_assert_ptr_null(aclCreateTensorDesc(ACL_FLOAT, -1, dims, ACL_FORMAT_ND));
	ck_assert_ptr_null(aclCreateTensorDesc(ACL_FLOAT, 2, NULL, ACL_FORMAT_ND));
	ck_assert_ptr_null(aclCreateTensorDesc(ACL_FLOAT, RT_MAX_DIMS + 1, big, ACL_FORMAT_ND));
	ck_assert_ptr_null(aclCreateTensorDesc((aclDataType)5, 1, dims, ACL_FORMAT_ND));
	ck_assert_ptr_null(aclCreateTensorDesc(ACL_FLOAT, 1, dims, (aclFormat)7));
	ck_assert_uint_eq(aclGetTensorDescNumDims(NULL), 0);
	ck_assert_int_eq(aclGetTensorDescType(NULL), ACL_DT_UNDEFINED);
	ck_assert_int_eq(aclGetTensorDescFormat(NULL), ACL_FORMAT_UNDEFINED);
}
END_TEST

START_TEST(data_type_sizes)
{
	ck_assert_uint_eq(aclDataTypeSize(ACL_FLOAT), 4);
	ck_assert_uint_eq(aclDataTypeSize(ACL_FLOAT16), 2);
	ck_assert_uint_eq(aclDataTypeSize(ACL_BF16), 2);
	ck_assert_uint_eq(aclDataTypeSize(ACL_INT8), 1);
	ck_assert_uint_eq(aclDataTypeSize(ACL_UINT8), 1);
	ck_assert_uint_eq(aclDataTypeSize(ACL_BOOL), 1);
	ck_assert_uint_eq(aclDataTypeSize(ACL_INT16), 2);
	ck_assert_uint_eq(aclDataTypeSize(ACL_UINT16), 2);
	ck_assert_uint_eq(aclDataTypeSize(ACL_INT32), 4);
	ck_assert_uint_eq(aclDataTypeSize(ACL_UINT32), 4);
	ck_assert_uint_eq(aclDataTypeSize(ACL_INT64), 8);
	ck_assert_uint_eq(aclDataTypeSize(ACL_UINT64), 8);
	ck_assert_uint_eq(aclDataTypeSize(ACL_DOUBLE), 8);
	ck_assert_uint_eq(aclDataTypeSize(ACL_COMPLEX64), 8);
	ck_assert_uint_eq(aclDataTypeSize(ACL_COMPLEX128), 16);
	ck_assert_uint_eq(aclDataTypeSize(ACL_COMPLEX32), 4);
	ck_assert_uint_eq(aclDataTypeSize(ACL_FLOAT8_E4M3FN), 1);
	ck_assert_uint_eq(aclDataTypeSize(ACL_DT_UNDEFINED), 0);
	ck_assert_uint_eq(aclDataTypeSize(ACL_STRING), 0);
	ck_assert_uint_eq(aclDataTypeSize(ACL_INT4), 0);
	ck_assert_uint_eq(aclDataTypeSize(ACL_UINT1), 0);
	ck_assert_uint_eq(aclDataTypeSize(ACL_FLOAT4_E2M1), 0);
	ck_assert_uint_eq(aclDataTypeSize((aclDataType)99), 0);
}
END_TEST

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
START_TEST(data_buffers)
{
	int x;
	aclDataBuffer *b = aclCreateDataBuffer(&x, 4), *empty = aclCreateDataBuffer(NULL, 0);
	aclDataBuffer *big = aclCreateDataBuffer(&x, (5ull << 30) + 7);
	aclTensorDesc *other = TD(ACL_FLOAT, 1);

	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_nonnull(empty);
	ck_assert_ptr_eq(aclGetDataBufferAddr(b), &x);
	ck_assert_uint_eq(aclGetDataBufferSizeV2(b), 4);
	ck_assert_uint_eq(aclGetDataBufferSizeV2(empty), 0);
	ck_assert_ptr_null(aclGetDataBufferAddr(empty));
	/* The deprecated 32-bit size truncates. */
	ck_assert_uint_eq(aclGetDataBufferSizeV2(big), (5ull << 30) + 7);
	ck_assert_uint_eq(aclGetDataBufferSize(big), (uint32_t)((5ull << 30) + 7));
	ck_assert_int_eq(aclUpdateDataBuffer(b, NULL, 0), ACL_SUCCESS);
	ck_assert_ptr_null(aclGetDataBufferAddr(b));
	ck_assert_int_eq(aclUpdateDataBuffer(NULL, &x, 4), ACL_ERROR_INVALID_PARAM);
	ck_assert_ptr_null(aclGetDataBufferAddr(NULL));
	ck_assert_uint_eq(aclGetDataBufferSizeV2(NULL), 0);
	ck_assert_uint_eq(aclGetDataBufferSize(NULL), 0);
	ck_assert_int_eq(aclDestroyDataBuffer(NULL), ACL_ERROR_INVALID_PARAM);
	/* A pointer of another kind is recognised. */
	ck_assert_int_eq(aclDestroyDataBuffer((aclDataBuffer *)other), ACL_ERROR_INVALID_PARAM);
	aclDestroyTensorDesc(other);
	ck_assert_int_eq(aclDestroyDataBuffer(b), ACL_SUCCESS);
	ck_assert_int_eq(aclDestroyDataBuffer(empty), ACL_SUCCESS);
	ck_assert_int_eq(aclDestroyDataBuffer(big), ACL_SUCCESS);
}
END_TEST
#pragma GCC diagnostic pop

START_TEST(attributes)
{
	aclopAttr *a = aclopCreateAttr();
	const int64_t axes[2] = { 0, -1 };
	const float fl[1] = { 0.5f };
	const struct vops_attr *v;
	aclDataBuffer *not_attr = aclCreateDataBuffer(NULL, 0);

	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(aclopSetAttrBool(a, "keep_dims", 7), ACL_SUCCESS);
	v = rt_attr_find(a, "keep_dims");
	ck_assert(v && v->kind == VOPS_ATTR_BOOL && v->b);
	/* A later set of the same name replaces value and kind. */
	ck_assert_int_eq(aclopSetAttrListInt(a, "keep_dims", 2, axes), ACL_SUCCESS);
	v = rt_attr_find(a, "keep_dims");
	ck_assert(v && v->kind == VOPS_ATTR_LIST_INT && v->li.n == 2 && v->li.v[1] == -1);
	ck_assert_uint_eq(a->count, 1);
	ck_assert_int_eq(aclopSetAttrInt(a, "i", -5), ACL_SUCCESS);
	ck_assert_int_eq(aclopSetAttrFloat(a, "f", 1.5f), ACL_SUCCESS);
	ck_assert_int_eq(aclopSetAttrString(a, "s", "text"), ACL_SUCCESS);
	ck_assert_int_eq(aclopSetAttrDataType(a, "t", ACL_BF16), ACL_SUCCESS);
	ck_assert_int_eq(aclopSetAttrListFloat(a, "lf", 1, fl), ACL_SUCCESS);
	ck_assert_int_eq(aclopSetAttrListInt(a, "empty", 0, NULL), ACL_SUCCESS);
	ck_assert_str_eq(rt_attr_find(a, "s")->s, "text");
	ck_assert_int_eq(rt_attr_find(a, "t")->kind, VOPS_ATTR_DTYPE);
	ck_assert_int_eq(rt_attr_find(a, "t")->dt, ACL_BF16);
	ck_assert_int_eq(rt_attr_find(a, "i")->i, -5);
	ck_assert(rt_attr_find(a, "f")->kind == VOPS_ATTR_FLOAT && rt_attr_find(a, "f")->f == 1.5f);
	ck_assert(rt_attr_find(a, "lf")->kind == VOPS_ATTR_LIST_FLOAT && rt_attr_find(a, "lf")->lf.v[0] == 0.5f);
	ck_assert_int_eq(rt_attr_find(a, "empty")->li.n, 0);
	ck_assert_ptr_null(rt_attr_find(a, "absent"));
	/* The set is lib/ops' attribute array as it is: what vops_plan() gets. */
	ck_assert_uint_eq(a->count, 7);
	ck_assert_ptr_eq(vops_attr_find(a->items, a->count, "lf"), rt_attr_find(a, "lf"));

	ck_assert_int_eq(aclopSetAttrInt(NULL, "x", 1), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclopSetAttrInt(a, NULL, 1), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclopSetAttrString(a, "s", NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclopSetAttrListInt(a, "l", -1, axes), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclopSetAttrListInt(a, "l", 2, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclopSetAttrListFloat(a, "l", 1, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclopSetAttrBool((aclopAttr *)not_attr, "x", 1), ACL_ERROR_INVALID_PARAM);
	aclDestroyDataBuffer(not_attr);
	aclopDestroyAttr(a);
	aclopDestroyAttr(NULL);
}
END_TEST

/* ---- planning: codes and messages ---------------------------------------------- */

START_TEST(unknown_operators_and_bad_arguments)
{
	aclTensorDesc *a = TD(ACL_FLOAT, 4), *b = TD(ACL_FLOAT, 4), *o = TD(ACL_FLOAT, 4);
	aclTensorDesc *in[2] = { a, b }, *out[1] = { o };
	aclDataBuffer *not_desc = aclCreateDataBuffer(NULL, 0);

	ck_assert_int_eq(plan1("NoSuchOp", 2, a, b, o, NULL), ACL_ERROR_OP_NOT_FOUND);
	MSG_HAS("\"NoSuchOp\" is not built into vnpu");
	MSG_HAS("docs/ops.md");	/* and where the list is */
	ck_assert_int_eq(plan1("add", 2, a, b, o, NULL), ACL_ERROR_OP_NOT_FOUND); /* names are exact */
	ck_assert_int_eq(plan1(NULL, 2, a, b, o, NULL), ACL_ERROR_INVALID_PARAM);
	MSG_HAS("opType");
	ck_assert_int_eq(rt_op_plan("Add", -1, in, 1, out, NULL, &plan), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(rt_op_plan("Add", 2, NULL, 1, out, NULL, &plan), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(rt_op_plan("Add", 2, in, 1, NULL, NULL, &plan), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(plan1("Add", 2, a, NULL, o, NULL), ACL_ERROR_INVALID_PARAM);
	MSG_HAS("inputDesc[1] is NULL");
	ck_assert_int_eq(plan1("Add", 2, a, (aclTensorDesc *)not_desc, o, NULL), ACL_ERROR_INVALID_PARAM);
	MSG_HAS("is not a tensor descriptor");
	ck_assert_int_eq(plan1("Add", 2, a, b, NULL, NULL), ACL_ERROR_INVALID_PARAM);
	MSG_HAS("outputDesc[0] is NULL");
	aclDestroyDataBuffer(not_desc);
	ck_assert_int_eq(plan1("Add", 2, a, b, o, (aclopAttr *)a), ACL_ERROR_INVALID_PARAM);
	MSG_HAS("is not an operator attribute set");
	/* Counts. */
	ck_assert_int_eq(plan1("Add", 1, a, NULL, o, NULL), ACL_ERROR_OP_INPUT_NOT_MATCH);
	MSG_HAS("Add takes 2 inputs, got 1");
	ck_assert_int_eq(plan1("Relu", 2, a, b, o, NULL), ACL_ERROR_OP_INPUT_NOT_MATCH);
	ck_assert_int_eq(rt_op_plan("Add", 2, in, 0, out, NULL, &plan), ACL_ERROR_OP_OUTPUT_NOT_MATCH);
	ck_assert_int_eq(rt_op_plan("Add", 2, in, 2, (aclTensorDesc *[]){ o, o }, NULL, &plan),
			 ACL_ERROR_OP_OUTPUT_NOT_MATCH);
	ck_assert_int_eq(plan1("Add", 2, a, b, o, NULL), ACL_SUCCESS);
	ck_assert_str_eq(plan.type, "Add");
	ck_assert_int_eq(desc_op(), ID_ADD);
	free_descs(a, b, o);
}
END_TEST

START_TEST(types_and_formats)
{
	aclTensorDesc *i8 = TD(ACL_INT8, 4), *f = TD(ACL_FLOAT, 4), *h = TD(ACL_FLOAT16, 4), *i = TD(ACL_INT32, 4);
	aclTensorDesc *d = TD(ACL_DOUBLE, 4), *oi8 = TD(ACL_INT8, 4), *c64 = TD(ACL_COMPLEX64, 4), *blocked;
	aclopAttr *at = aclopCreateAttr();

	ck_assert_int_eq(plan1("Abs", 1, c64, NULL, c64, NULL), ACL_ERROR_UNSUPPORTED_DATA_TYPE);
	MSG_HAS("Abs on ACL_COMPLEX64 is not supported");
	ck_assert_int_eq(plan1("Add", 2, c64, c64, c64, NULL), ACL_ERROR_UNSUPPORTED_DATA_TYPE);
	/* int8 and double are among the types */
	ck_assert_int_eq(plan1("Abs", 1, i8, NULL, oi8, NULL), ACL_SUCCESS);
	ck_assert_int_eq(plan1("Add", 2, d, d, d, NULL), ACL_SUCCESS);
	ck_assert_int_eq(plan1("Add", 2, f, h, f, NULL), ACL_ERROR_OP_INPUT_NOT_MATCH);
	MSG_HAS("different types (ACL_FLOAT and ACL_FLOAT16)");
	ck_assert_int_eq(plan1("Add", 2, f, f, h, NULL), ACL_ERROR_OP_OUTPUT_NOT_MATCH);
	MSG_HAS("Add produces ACL_FLOAT, but outputDesc[0] says ACL_FLOAT16");
	ck_assert_int_eq(plan1("SoftmaxV2", 1, i, NULL, i, NULL), ACL_ERROR_UNSUPPORTED_DATA_TYPE);
	MSG_HAS("SoftmaxV2 on ACL_INT32");
	ck_assert_int_eq(plan1("SoftmaxV2", 1, h, NULL, h, NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclopSetAttrDataType(at, "dst_type", ACL_DOUBLE), ACL_SUCCESS);
	ck_assert_int_eq(plan1("Cast", 1, f, NULL, d, at), ACL_SUCCESS);
	ck_assert_int_eq(aclopSetAttrDataType(at, "dst_type", ACL_COMPLEX64), ACL_SUCCESS);
	ck_assert_int_eq(plan1("Cast", 1, f, NULL, c64, at), ACL_ERROR_UNSUPPORTED_DATA_TYPE);

	blocked = aclCreateTensorDesc(ACL_FLOAT, 1, (int64_t[]){ 4 }, ACL_FORMAT_NC1HWC0);
	ck_assert_int_eq(plan1("Abs", 1, blocked, NULL, f, NULL), ACL_ERROR_FORMAT_NOT_MATCH);
	MSG_HAS("inputDesc[0] has the blocked format");
	ck_assert_int_eq(plan1("Abs", 1, f, NULL, blocked, NULL), ACL_ERROR_FORMAT_NOT_MATCH);
	MSG_HAS("outputDesc[0] has the blocked format");
	aclDestroyTensorDesc(blocked);
	blocked = aclCreateTensorDesc(ACL_FLOAT, 1, (int64_t[]){ 4 }, ACL_FORMAT_FRACTAL_NZ);
	ck_assert_int_eq(plan1("Abs", 1, blocked, NULL, f, NULL), ACL_ERROR_FORMAT_NOT_MATCH);
	aclDestroyTensorDesc(blocked);
	blocked = aclCreateTensorDesc(ACL_FLOAT, 1, (int64_t[]){ 4 }, ACL_FORMAT_NHWC);
	ck_assert_int_eq(plan1("Abs", 1, blocked, NULL, f, NULL), ACL_SUCCESS);
	aclDestroyTensorDesc(blocked);
	free_descs(i8, f, h);
	free_descs(i, d, oi8);
	aclDestroyTensorDesc(c64);
	aclopDestroyAttr(at);
}
END_TEST

START_TEST(binary_shapes_and_broadcast)
{
	aclTensorDesc *a = TD(ACL_FLOAT, 2, 3), *b = TD(ACL_FLOAT, 2, 3), *o = TD(ACL_FLOAT, 2, 3);
	aclTensorDesc *one = TD(ACL_FLOAT, 1), *scalar = TD0(ACL_FLOAT), *v3 = TD(ACL_FLOAT, 3);
	aclTensorDesc *v2 = TD(ACL_FLOAT, 2);
	aclTensorDesc *ones = TD(ACL_FLOAT, 1, 1), *o13 = TD(ACL_FLOAT, 1, 3), *h = TD(ACL_FLOAT16, 2, 3);
	aclTensorDesc *ho = TD(ACL_FLOAT16, 2, 3);

	ck_assert_int_eq(plan1("Mul", 2, a, b, o, NULL), ACL_SUCCESS);
	ck_assert_int_eq(desc_op(), ID_MUL);
	ck_assert_int_eq(plan.nin, 2);
	ck_assert_uint_eq(plan.in_bytes[0], 24);
	ck_assert_uint_eq(plan.in_bytes[1], 24);
	ck_assert_uint_eq(plan.in_align[0], 4);
	OUT(24, 2, 3);
	ck_assert_uint_eq(plan.out[0].align, 4);
	ck_assert_uint_eq(plan.ws_bytes, 0);
	ck_assert_uint_eq(plan.in_place, 3);	/* either input may be the output */
	ck_assert(!plan.empty);
	ck_assert_int_eq(plan1("Add", 2, h, h, ho, NULL), ACL_SUCCESS);
	ck_assert_uint_eq(plan.in_bytes[0], 12);
	ck_assert_uint_eq(plan.in_align[1], 2);
	ck_assert_uint_eq(plan.out[0].align, 2);

	ck_assert_int_eq(plan1("Sub", 2, a, one, o, NULL), ACL_SUCCESS);
	ck_assert_int_eq(desc_op(), ID_SUB);
	ck_assert_uint_eq(plan.in_bytes[1], 4);
	ck_assert_uint_eq(plan.in_place, 1);	/* not the broadcast element */
	ck_assert_int_eq(plan1("RealDiv", 2, scalar, a, o, NULL), ACL_SUCCESS);
	ck_assert_int_eq(desc_op(), ID_REALDIV);
	ck_assert_uint_eq(plan.in_bytes[0], 4);
	ck_assert_uint_eq(plan.in_bytes[1], 24);
	ck_assert_uint_eq(plan.in_place, 2);

	/* A single-element [1, 1] against [3] broadcasts to [1, 3]. */
	ck_assert_int_eq(plan1("Add", 2, ones, v3, o13, NULL), ACL_SUCCESS);
	OUT(12, 1, 3);
	ck_assert_int_eq(plan1("Add", 2, ones, v3, v3, NULL), ACL_ERROR_OP_OUTPUT_NOT_MATCH);
	MSG_HAS("Add produces shape [1, 3], but outputDesc[0] has shape [3]");

	/* numpy broadcasting: [2, 3] with [3] or with [1, 3] is [2, 3]. */
	ck_assert_int_eq(plan1("Add", 2, a, v3, o, NULL), ACL_SUCCESS);
	ck_assert_uint_eq(plan.in_place, 1);
	ck_assert_int_eq(plan1("Add", 2, a, o13, o, NULL), ACL_SUCCESS);
	/* [2, 3] and [2] do not broadcast */
	ck_assert_int_eq(plan1("Add", 2, a, v2, o, NULL), ACL_ERROR_OP_INPUT_NOT_MATCH);
	MSG_HAS("does not broadcast");
	free_descs(a, b, o);
	free_descs(one, scalar, v3);
	free_descs(ones, o13, h);
	aclDestroyTensorDesc(ho);
	aclDestroyTensorDesc(v2);
}
END_TEST

START_TEST(reductions)
{
	aclTensorDesc *x = TD(ACL_FLOAT, 2, 3, 5), *o = TD(ACL_FLOAT, 2, 3), *ok = TD(ACL_FLOAT, 2, 3, 1);
	aclTensorDesc *v = TD(ACL_INT32, 7), *s = TD0(ACL_INT32), *s1 = TD(ACL_INT32, 1);
	aclopAttr *at = aclopCreateAttr();

	/* axes is required. */
	ck_assert_int_eq(plan1("ReduceSumD", 1, x, NULL, o, NULL), ACL_ERROR_OP_ATTR_NOT_MATCH);
	MSG_HAS("axes");
	ck_assert_int_eq(aclopSetAttrListInt(at, "axes", 1, (int64_t[]){ -1 }), ACL_SUCCESS);
	ck_assert_int_eq(plan1("ReduceSumD", 1, x, NULL, o, at), ACL_SUCCESS);
	ck_assert_int_eq(desc_op(), ID_SUM);
	/* the last axis: inner 1, a row's values (4 x cols) */
	ck_assert_uint_eq(plan.ws_bytes, 4 * 5);
	ck_assert_uint_eq(plan.ws_align, 4);
	ck_assert_uint_eq(plan.in_bytes[0], 120);
	OUT(24, 2, 3);
	ck_assert_uint_eq(plan.in_place, 1);
	ck_assert_int_eq(plan1("ReduceSumD", 1, x, NULL, ok, at), ACL_ERROR_OP_OUTPUT_NOT_MATCH);
	ck_assert_int_eq(aclopSetAttrBool(at, "keep_dims", 1), ACL_SUCCESS);
	ck_assert_int_eq(plan1("ReduceMaxD", 1, x, NULL, ok, at), ACL_SUCCESS);
	ck_assert_int_eq(desc_op(), ID_MAX);
	OUT(24, 2, 3, 1);
	ck_assert_int_eq(plan1("ReduceMaxD", 1, x, NULL, o, at), ACL_ERROR_OP_OUTPUT_NOT_MATCH);
	/* The last axis by its index, or as a bare int. */
	ck_assert_int_eq(aclopSetAttrListInt(at, "axes", 1, (int64_t[]){ 2 }), ACL_SUCCESS);
	ck_assert_int_eq(plan1("ReduceMaxD", 1, x, NULL, ok, at), ACL_SUCCESS);
	ck_assert_int_eq(aclopSetAttrInt(at, "axes", -1), ACL_SUCCESS);
	ck_assert_int_eq(plan1("ReduceMaxD", 1, x, NULL, ok, at), ACL_SUCCESS);
	/* Out of range (either side), repeated, wrong kinds. */
	ck_assert_int_eq(aclopSetAttrListInt(at, "axes", 1, (int64_t[]){ 3 }), ACL_SUCCESS);
	ck_assert_int_eq(plan1("ReduceMaxD", 1, x, NULL, ok, at), ACL_ERROR_OP_ATTR_NOT_MATCH);
	MSG_HAS("axis 3 is out of range for rank 3");
	ck_assert_int_eq(aclopSetAttrListInt(at, "axes", 1, (int64_t[]){ -4 }), ACL_SUCCESS);
	ck_assert_int_eq(plan1("ReduceMaxD", 1, x, NULL, ok, at), ACL_ERROR_OP_ATTR_NOT_MATCH);
	ck_assert_int_eq(aclopSetAttrListInt(at, "axes", 2, (int64_t[]){ 1, 1 }), ACL_SUCCESS);
	ck_assert_int_eq(plan1("ReduceMaxD", 1, x, NULL, ok, at), ACL_ERROR_OP_ATTR_NOT_MATCH);
	MSG_HAS("twice");
	ck_assert_int_eq(aclopSetAttrListInt(at, "axes", 2, (int64_t[]){ 2, -1 }), ACL_SUCCESS);
	ck_assert_int_eq(plan1("ReduceMaxD", 1, x, NULL, ok, at), ACL_ERROR_OP_ATTR_NOT_MATCH);
	ck_assert_int_eq(aclopSetAttrListFloat(at, "axes", 1, (float[]){ -1 }), ACL_SUCCESS);
	ck_assert_int_eq(plan1("ReduceMaxD", 1, x, NULL, ok, at), ACL_ERROR_OP_ATTR_NOT_MATCH);
	ck_assert_int_eq(aclopSetAttrListInt(at, "axes", 1, (int64_t[]){ -1 }), ACL_SUCCESS);
	ck_assert_int_eq(aclopSetAttrFloat(at, "keep_dims", 1), ACL_SUCCESS);
	ck_assert_int_eq(plan1("ReduceMaxD", 1, x, NULL, ok, at), ACL_ERROR_OP_ATTR_NOT_MATCH);
	MSG_HAS("keep_dims must be a bool");
	ck_assert_int_eq(aclopSetAttrInt(at, "keep_dims", 0), ACL_SUCCESS);
	ck_assert_int_eq(plan1("ReduceMaxD", 1, x, NULL, o, at), ACL_SUCCESS);
	/* A vector reduces to a scalar, or to [1] with keep_dims. */
	ck_assert_int_eq(plan1("ReduceSumD", 1, v, NULL, s, at), ACL_SUCCESS);
	ck_assert_int_eq(plan.out[0].ndim, 0);
	ck_assert_uint_eq(plan.out[0].bytes, 4);
	ck_assert_uint_eq(plan.ws_bytes, 4 * 7);
	ck_assert_int_eq(aclopSetAttrBool(at, "keep_dims", 1), ACL_SUCCESS);
	ck_assert_int_eq(plan1("ReduceSumD", 1, v, NULL, s1, at), ACL_SUCCESS);
	/* A scalar has no axis. */
	ck_assert_int_eq(plan1("ReduceSumD", 1, s, NULL, s, at), ACL_ERROR_OP_ATTR_NOT_MATCH);
	/* Unknown attribute names are refused, not ignored. */
	ck_assert_int_eq(aclopSetAttrBool(at, "keepdims", 1), ACL_SUCCESS);
	ck_assert_int_eq(plan1("ReduceSumD", 1, v, NULL, s1, at), ACL_ERROR_OP_ATTR_NOT_MATCH);
	MSG_HAS("ReduceSumD has no attribute \"keepdims\" (it takes: axes, keep_dims)");
	free_descs(x, o, ok);
	free_descs(v, s, s1);
	aclopDestroyAttr(at);
}
END_TEST

/* Any adjacent axes: rows x cols x inner, the workspace by docs/ops.md's
 * formulas; keep_dims per CANN. */
START_TEST(reduction_axes)
{
	aclTensorDesc *x = TD(ACL_FLOAT16, 2, 3, 5), *o0 = TD(ACL_FLOAT16, 3, 5);
	aclTensorDesc *k0 = TD(ACL_FLOAT16, 1, 3, 5), *o1 = TD(ACL_FLOAT16, 2, 5);
	aclTensorDesc *k1 = TD(ACL_FLOAT16, 2, 1, 5), *o01 = TD(ACL_FLOAT16, 5);
	aclTensorDesc *k12 = TD(ACL_FLOAT16, 2, 1, 1), *o12 = TD(ACL_FLOAT16, 2);
	aclTensorDesc *all = TD0(ACL_FLOAT16), *kall = TD(ACL_FLOAT16, 1, 1, 1);
	aclopAttr *at = aclopCreateAttr();

	/* axis 0: inner 15; sums keep a value and a compensation per inner
	 * element (8 bytes), maxima a value (4) */
	ck_assert_int_eq(aclopSetAttrListInt(at, "axes", 1, (int64_t[]){ 0 }), ACL_SUCCESS);
	ck_assert_int_eq(plan1("ReduceSumD", 1, x, NULL, o0, at), ACL_SUCCESS);
	ck_assert_uint_eq(plan.ws_bytes, 8 * 15);
	OUT(2 * 15, 3, 5);
	ck_assert_uint_eq(plan.in_bytes[0], 2 * 30);
	ck_assert_int_eq(plan1("ReduceMaxD", 1, x, NULL, o0, at), ACL_SUCCESS);
	ck_assert_uint_eq(plan.ws_bytes, 4 * 15);
	ck_assert_int_eq(plan1("ReduceSumD", 1, x, NULL, k0, at), ACL_ERROR_OP_OUTPUT_NOT_MATCH);
	/* negative axes count from the end: axis 1, inner 5 */
	ck_assert_int_eq(aclopSetAttrListInt(at, "axes", 1, (int64_t[]){ -2 }), ACL_SUCCESS);
	ck_assert_int_eq(plan1("ReduceSumD", 1, x, NULL, o1, at), ACL_SUCCESS);
	ck_assert_uint_eq(plan.ws_bytes, 8 * 5);
	OUT(2 * 10, 2, 5);
	/* adjacent axes merge, in any order: [0, 1] is cols 6, inner 5 */
	ck_assert_int_eq(aclopSetAttrListInt(at, "axes", 2, (int64_t[]){ 1, 0 }), ACL_SUCCESS);
	ck_assert_int_eq(plan1("ReduceSumD", 1, x, NULL, o01, at), ACL_SUCCESS);
	ck_assert_uint_eq(plan.ws_bytes, 8 * 5);
	OUT(2 * 5, 5);
	/* the last two: inner 1, cols 15 */
	ck_assert_int_eq(aclopSetAttrListInt(at, "axes", 2, (int64_t[]){ -1, 1 }), ACL_SUCCESS);
	ck_assert_int_eq(plan1("ReduceMaxD", 1, x, NULL, o12, at), ACL_SUCCESS);
	ck_assert_uint_eq(plan.ws_bytes, 4 * 15);
	OUT(2 * 2, 2);
	ck_assert_int_eq(aclopSetAttrListInt(at, "axes", 3, (int64_t[]){ 0, 1, 2 }), ACL_SUCCESS);
	ck_assert_int_eq(plan1("ReduceSumD", 1, x, NULL, all, at), ACL_SUCCESS);
	ck_assert_uint_eq(plan.ws_bytes, 4 * 30);
	expect_out(0, NULL, 2);
	/* keep_dims: the reduced axes stay as 1 */
	ck_assert_int_eq(aclopSetAttrBool(at, "keep_dims", 1), ACL_SUCCESS);
	ck_assert_int_eq(plan1("ReduceSumD", 1, x, NULL, kall, at), ACL_SUCCESS);
	ck_assert_int_eq(aclopSetAttrListInt(at, "axes", 1, (int64_t[]){ 0 }), ACL_SUCCESS);
	ck_assert_int_eq(plan1("ReduceSumD", 1, x, NULL, k0, at), ACL_SUCCESS);
	OUT(2 * 15, 1, 3, 5);
	ck_assert_int_eq(plan1("ReduceSumD", 1, x, NULL, o0, at), ACL_ERROR_OP_OUTPUT_NOT_MATCH);
	ck_assert_int_eq(aclopSetAttrListInt(at, "axes", 1, (int64_t[]){ 1 }), ACL_SUCCESS);
	ck_assert_int_eq(plan1("ReduceMaxD", 1, x, NULL, k1, at), ACL_SUCCESS);
	ck_assert_int_eq(aclopSetAttrListInt(at, "axes", 2, (int64_t[]){ 2, 1 }), ACL_SUCCESS);
	ck_assert_int_eq(plan1("ReduceMaxD", 1, x, NULL, k12, at), ACL_SUCCESS);
	/* no axes: the identity (TensorFlow's Sum, which ReduceSumD follows) */
	ck_assert_int_eq(aclopSetAttrListInt(at, "axes", 0, NULL), ACL_SUCCESS);
	ck_assert_int_eq(plan1("ReduceSumD", 1, x, NULL, x, at), ACL_SUCCESS);
	OUT(2 * 30, 2, 3, 5);
	ck_assert_int_eq(plan1("ReduceSumD", 1, all, NULL, all, at), ACL_SUCCESS);
	ck_assert_int_eq(plan1("ReduceSumD", 1, x, NULL, o0, at), ACL_ERROR_OP_OUTPUT_NOT_MATCH);
	/* axes that are not adjacent: one descriptor too (reduction_chains);
	 * with keep_dims the reduced axes stay as 1 there too */
	ck_assert_int_eq(aclopSetAttrListInt(at, "axes", 2, (int64_t[]){ 0, 2 }), ACL_SUCCESS);
	ck_assert_int_eq(plan1("ReduceSumD", 1, x, NULL, k1, at), ACL_ERROR_OP_OUTPUT_NOT_MATCH);
	free_descs(x, o0, k0);
	free_descs(o1, k1, o01);
	free_descs(k12, o12, all);
	aclDestroyTensorDesc(kall);
	aclopDestroyAttr(at);
}
END_TEST

/*
 * Axes that are not adjacent: still one operator, whose workspace holds
 * the steps' own needs and the intermediate tensors (docs/ops.md: one
 * reduction per run of adjacent axes, first run first; fp16/bf16 sums in
 * fp32 between two casts). The sizes are worked out here step by step.
 */
START_TEST(reduction_chains)
{
	aclTensorDesc *x = TD(ACL_FLOAT, 2, 3, 5), *o = TD(ACL_FLOAT, 3), *ok = TD(ACL_FLOAT, 1, 3, 1);
	aclTensorDesc *h = TD(ACL_FLOAT16, 2, 3, 5), *ho = TD(ACL_FLOAT16, 3), *hk = TD(ACL_FLOAT16, 1, 3, 1);
	aclTensorDesc *y = TD(ACL_INT32, 2, 3, 4, 5), *y02 = TD(ACL_INT32, 3, 5), *y13 = TD(ACL_INT32, 2, 4);
	aclTensorDesc *y013 = TD(ACL_INT32, 4), *y013k = TD(ACL_INT32, 1, 1, 4, 1);
	aclTensorDesc *z = TD(ACL_FLOAT, 2, 3, 4, 5, 6), *z024 = TD(ACL_FLOAT, 3, 5);
	aclopAttr *at = aclopCreateAttr();

	/* [2, 3, 5] fp32, [0, 2]: {1, 2, 15} (8 x 15) into buffer 0 (15
	 * elements), then {3, 5, 1} (4 x 5): docs/ops.md's example, 192 */
	ck_assert_int_eq(aclopSetAttrListInt(at, "axes", 2, (int64_t[]){ 0, 2 }), ACL_SUCCESS);
	ck_assert_int_eq(plan1("ReduceSumD", 1, x, NULL, o, at), ACL_SUCCESS);
	ck_assert_int_eq(desc_op(), ID_SUM);
	ck_assert_uint_eq(plan.ws_bytes, 192);
	ck_assert_uint_eq(plan.ws_bytes, chain_ws(8 * 15, 4 * 15, 0));
	OUT(4 * 3, 3);
	ck_assert_uint_eq(plan.in_place, 1);
	ck_assert_int_eq(plan1("ReduceSumD", 1, x, NULL, ok, at), ACL_ERROR_OP_OUTPUT_NOT_MATCH);
	ck_assert_int_eq(plan1("ReduceMaxD", 1, x, NULL, o, at), ACL_SUCCESS);
	ck_assert_uint_eq(plan.ws_bytes, chain_ws(4 * 15, 4 * 15, 0));

	/* fp16 sums: a cast to fp32 (buffer 0, 30 floats), the two sums
	 * (buffer 1, 15 floats; then buffer 0), a cast back */
	ck_assert_int_eq(aclopSetAttrBool(at, "keep_dims", 1), ACL_SUCCESS);
	ck_assert_int_eq(plan1("ReduceSumD", 1, h, NULL, hk, at), ACL_SUCCESS);
	ck_assert_uint_eq(plan.ws_bytes, chain_ws(8 * 15, 4 * 30, 4 * 15));
	ck_assert_uint_eq(plan.ws_bytes, 256 + 60);
	OUT(2 * 3, 1, 3, 1);
	ck_assert_int_eq(plan1("ReduceSumD", 1, h, NULL, ho, at), ACL_ERROR_OP_OUTPUT_NOT_MATCH);
	/* fp16 maxima are exact: fp16 intermediates, no cast */
	ck_assert_int_eq(plan1("ReduceMaxD", 1, h, NULL, hk, at), ACL_SUCCESS);
	ck_assert_uint_eq(plan.ws_bytes, chain_ws(4 * 15, 2 * 15, 0));
	ck_assert_int_eq(aclopSetAttrBool(at, "keep_dims", 0), ACL_SUCCESS);

	/* 4-D int32: [0, 2] is {1, 2, 60} then {3, 4, 5} */
	ck_assert_int_eq(plan1("ReduceSumD", 1, y, NULL, y02, at), ACL_SUCCESS);
	ck_assert_uint_eq(plan.ws_bytes, chain_ws(8 * 60, 4 * 60, 0));
	OUT(4 * 15, 3, 5);
	/* [1, 3]: {2, 3, 20} then {8, 5, 1} */
	ck_assert_int_eq(aclopSetAttrListInt(at, "axes", 2, (int64_t[]){ 3, 1 }), ACL_SUCCESS);
	ck_assert_int_eq(plan1("ReduceSumD", 1, y, NULL, y13, at), ACL_SUCCESS);
	ck_assert_uint_eq(plan.ws_bytes, chain_ws(8 * 20, 4 * 40, 0));
	/* [0, 1, 3] (runs [0, 1] and [3]): {1, 6, 20} then {4, 5, 1} */
	ck_assert_int_eq(aclopSetAttrListInt(at, "axes", 3, (int64_t[]){ 0, 1, -1 }), ACL_SUCCESS);
	ck_assert_int_eq(plan1("ReduceMaxD", 1, y, NULL, y013, at), ACL_SUCCESS);
	ck_assert_uint_eq(plan.ws_bytes, chain_ws(4 * 20, 4 * 20, 0));
	ck_assert_int_eq(aclopSetAttrBool(at, "keep_dims", 1), ACL_SUCCESS);
	ck_assert_int_eq(plan1("ReduceMaxD", 1, y, NULL, y013k, at), ACL_SUCCESS);
	ck_assert_int_eq(aclopSetAttrBool(at, "keep_dims", 0), ACL_SUCCESS);

	/* three runs: {1, 2, 360} -> buffer 0, {3, 4, 30} -> buffer 1,
	 * {15, 6, 1} -> the output */
	ck_assert_int_eq(aclopSetAttrListInt(at, "axes", 3, (int64_t[]){ 0, 2, 4 }), ACL_SUCCESS);
	ck_assert_int_eq(plan1("ReduceSumD", 1, z, NULL, z024, at), ACL_SUCCESS);
	ck_assert_uint_eq(plan.ws_bytes, chain_ws(8 * 360, 4 * 360, 4 * 90));

	/* softmax stays adjacent-only */
	{
		aclopAttr *sm = aclopCreateAttr();

		ck_assert_int_eq(aclopSetAttrListInt(sm, "axes", 2, (int64_t[]){ 0, 2 }), ACL_SUCCESS);
		ck_assert_int_eq(plan1("SoftmaxV2", 1, x, NULL, x, sm), ACL_ERROR_OP_ATTR_NOT_MATCH);
		MSG_HAS("SoftmaxV2: the axes are not adjacent");
		aclopDestroyAttr(sm);
	}
	ck_assert_int_eq(aclopSetAttrListInt(at, "axes", 2, (int64_t[]){ 0, 2 }), ACL_SUCCESS);
	/* an empty kept axis: nothing to compute, no workspace */
	{
		aclTensorDesc *e = TD(ACL_FLOAT, 2, 0, 5), *eo = TD(ACL_FLOAT, 0);

		ck_assert_int_eq(plan1("ReduceSumD", 1, e, NULL, eo, at), ACL_SUCCESS);
		ck_assert(plan.empty);
		ck_assert_uint_eq(plan.ws_bytes, 0);
		free_descs(e, eo, NULL);
	}
	free_descs(x, o, ok);
	free_descs(h, ho, hk);
	free_descs(y, y02, y13);
	free_descs(y013, y013k, z);
	aclDestroyTensorDesc(z024);
	aclopDestroyAttr(at);
}
END_TEST

START_TEST(softmax)
{
	aclTensorDesc *x = TD(ACL_BF16, 4, 9), *o = TD(ACL_BF16, 4, 9), *s = TD0(ACL_FLOAT);
	aclopAttr *at = aclopCreateAttr();

	ck_assert_int_eq(plan1("SoftmaxV2", 1, x, NULL, o, NULL), ACL_SUCCESS); /* axes default to -1 */
	ck_assert_int_eq(desc_op(), ID_SOFTMAX);
	ck_assert_uint_eq(plan.ws_bytes, 4 * 9);
	OUT(72, 4, 9);
	ck_assert_uint_eq(plan.in_place, 1);
	/* axis 0: inner 9, max, sum and compensation per inner element */
	ck_assert_int_eq(aclopSetAttrListInt(at, "axes", 1, (int64_t[]){ 0 }), ACL_SUCCESS);
	ck_assert_int_eq(plan1("SoftmaxV2", 1, x, NULL, o, at), ACL_SUCCESS);
	ck_assert_uint_eq(plan.ws_bytes, 12 * 9);
	OUT(72, 4, 9);
	ck_assert_int_eq(aclopSetAttrListInt(at, "axes", 2, (int64_t[]){ 0, 1 }), ACL_SUCCESS);
	ck_assert_int_eq(plan1("SoftmaxV2", 1, x, NULL, o, at), ACL_SUCCESS);
	ck_assert_uint_eq(plan.ws_bytes, 4 * 36);
	ck_assert_int_eq(aclopSetAttrListInt(at, "axes", 0, NULL), ACL_SUCCESS);
	ck_assert_int_eq(plan1("SoftmaxV2", 1, x, NULL, o, at), ACL_ERROR_OP_ATTR_NOT_MATCH);
	ck_assert_int_eq(aclopSetAttrListInt(at, "axes", 2, (int64_t[]){ 1, -1 }), ACL_SUCCESS);
	ck_assert_int_eq(plan1("SoftmaxV2", 1, x, NULL, o, at), ACL_ERROR_OP_ATTR_NOT_MATCH);
	ck_assert_int_eq(aclopSetAttrListInt(at, "axes", 1, (int64_t[]){ 2 }), ACL_SUCCESS);
	ck_assert_int_eq(plan1("SoftmaxV2", 1, x, NULL, o, at), ACL_ERROR_OP_ATTR_NOT_MATCH);
	ck_assert_int_eq(aclopSetAttrListInt(at, "axes", 1, (int64_t[]){ 1 }), ACL_SUCCESS);
	ck_assert_int_eq(plan1("SoftmaxV2", 1, x, NULL, o, at), ACL_SUCCESS);
	ck_assert_int_eq(aclopSetAttrBool(at, "half_to_float", 1), ACL_SUCCESS);
	ck_assert_int_eq(plan1("SoftmaxV2", 1, x, NULL, o, at), ACL_ERROR_OP_ATTR_NOT_MATCH);
	MSG_HAS("half_to_float");
	ck_assert_int_eq(aclopSetAttrBool(at, "half_to_float", 0), ACL_SUCCESS);
	ck_assert_int_eq(plan1("SoftmaxV2", 1, x, NULL, o, at), ACL_SUCCESS);
	ck_assert_int_eq(plan1("SoftmaxV2", 1, s, NULL, s, NULL), ACL_ERROR_OP_ATTR_NOT_MATCH);
	free_descs(x, o, s);
	aclopDestroyAttr(at);
}
END_TEST

START_TEST(matmul)
{
	aclTensorDesc *a = TD(ACL_FLOAT, 3, 4), *at_ = TD(ACL_FLOAT, 4, 3), *b = TD(ACL_FLOAT, 4, 5);
	aclTensorDesc *bt = TD(ACL_FLOAT, 5, 4), *o = TD(ACL_FLOAT, 3, 5), *a3 = TD(ACL_FLOAT, 1, 3, 4);
	aclTensorDesc *h = TD(ACL_FLOAT16, 3, 4), *hb = TD(ACL_FLOAT16, 4, 5), *ho = TD(ACL_FLOAT16, 3, 5);
	aclTensorDesc *g = TD(ACL_BF16, 4, 3), *gb = TD(ACL_BF16, 5, 4), *go = TD(ACL_BF16, 3, 5);
	aclTensorDesc *i = TD(ACL_INT32, 4, 3), *ib = TD(ACL_INT32, 5, 4), *io = TD(ACL_INT32, 3, 5);
	aclTensorDesc *in3[3] = { a, b, b }, *out[1] = { o };
	aclopAttr *attr = aclopCreateAttr(), *both = aclopCreateAttr();

	ck_assert_int_eq(aclopSetAttrBool(both, "transpose_x1", 1), ACL_SUCCESS);
	ck_assert_int_eq(aclopSetAttrBool(both, "transpose_x2", 1), ACL_SUCCESS);
	ck_assert_int_eq(plan1("MatMul", 2, a, b, o, NULL), ACL_SUCCESS);
	ck_assert_int_eq(desc_op(), ID_MATMUL);
	ck_assert_uint_eq(plan.in_bytes[0], 48);
	ck_assert_uint_eq(plan.in_bytes[1], 80);
	OUT(60, 3, 5);
	ck_assert_uint_eq(plan.in_place, 0);	/* never in place */
	/* fp32 needs no workspace, transposed or not (BLAS takes them) */
	ck_assert_uint_eq(plan.ws_bytes, 0);

	ck_assert_int_eq(aclopSetAttrBool(attr, "transpose_x1", 1), ACL_SUCCESS);
	ck_assert_int_eq(plan1("MatMul", 2, at_, b, o, attr), ACL_SUCCESS);
	ck_assert_uint_eq(plan.ws_bytes, 0);
	ck_assert_int_eq(plan1("MatMul", 2, a, b, o, attr), ACL_ERROR_OP_INPUT_NOT_MATCH);
	MSG_HAS("do not agree on the inner dimension");
	ck_assert_int_eq(aclopSetAttrBool(attr, "transpose_x2", 1), ACL_SUCCESS);
	ck_assert_int_eq(plan1("MatMul", 2, at_, bt, o, attr), ACL_SUCCESS);
	ck_assert_uint_eq(plan.ws_bytes, 0);
	ck_assert_int_eq(aclopSetAttrBool(attr, "transpose_x1", 0), ACL_SUCCESS);
	ck_assert_int_eq(plan1("MatMul", 2, a, bt, o, attr), ACL_SUCCESS);
	ck_assert_uint_eq(plan.ws_bytes, 0);

	/* fp16/bf16: both operands widened to fp32, and an fp32 output tile
	 * (the whole 3 x 5 output: 60 multiply-adds fit one chunk) */
	ck_assert_int_eq(plan1("MatMul", 2, h, hb, ho, NULL), ACL_SUCCESS);
	ck_assert_uint_eq(plan.ws_bytes, 4 * 3 * 4 + 4 * 4 * 5 + 4 * 3 * 5);
	ck_assert_uint_eq(plan.ws_align, 4);
	ck_assert_uint_eq(plan.in_bytes[0], 24);
	ck_assert_int_eq(plan1("MatMul", 2, g, gb, go, both), ACL_SUCCESS);
	ck_assert_uint_eq(plan.ws_bytes, 4 * 3 * 4 + 4 * 4 * 5 + 4 * 3 * 5);
	/* int32: a transposed operand is repacked (4 m k and 4 k n) */
	ck_assert_int_eq(plan1("MatMul", 2, i, ib, io, both), ACL_SUCCESS);
	ck_assert_uint_eq(plan.ws_bytes, 4 * 3 * 4 + 4 * 4 * 5);

	ck_assert_int_eq(plan1("MatMul", 2, a3, b, o, NULL), ACL_ERROR_OP_INPUT_NOT_MATCH);
	MSG_HAS("MatMul takes two 2-D inputs, got [1, 3, 4] and [4, 5]");
	ck_assert_int_eq(plan1("MatMul", 2, a, a, o, NULL), ACL_ERROR_OP_INPUT_NOT_MATCH);
	ck_assert_int_eq(rt_op_plan("MatMul", 3, in3, 1, out, NULL, &plan), ACL_ERROR_OP_INPUT_NOT_MATCH);
	ck_assert_int_eq(aclopSetAttrInt(attr, "offset_x", 0), ACL_SUCCESS);
	ck_assert_int_eq(plan1("MatMul", 2, a, bt, o, attr), ACL_SUCCESS);
	ck_assert_int_eq(aclopSetAttrInt(attr, "offset_x", 3), ACL_SUCCESS);
	ck_assert_int_eq(plan1("MatMul", 2, a, bt, o, attr), ACL_ERROR_OP_ATTR_NOT_MATCH);
	MSG_HAS("offset_x");
	free_descs(a, at_, b);
	free_descs(bt, o, a3);
	free_descs(h, hb, ho);
	free_descs(g, gb, go);
	free_descs(i, ib, io);
	aclopDestroyAttr(attr);
	aclopDestroyAttr(both);
}
END_TEST

START_TEST(cast)
{
	aclTensorDesc *f = TD(ACL_FLOAT, 2, 2), *i = TD(ACL_INT32, 2, 2), *h = TD(ACL_FLOAT16, 2, 2);
	aclopAttr *at = aclopCreateAttr();

	ck_assert_int_eq(plan1("Cast", 1, f, NULL, i, NULL), ACL_ERROR_OP_ATTR_NOT_MATCH);
	MSG_HAS("dst_type");
	ck_assert_int_eq(aclopSetAttrInt(at, "dst_type", ACL_INT32), ACL_SUCCESS);
	ck_assert_int_eq(plan1("Cast", 1, f, NULL, i, at), ACL_SUCCESS);
	ck_assert_int_eq(desc_op(), ID_CAST);
	ck_assert_int_eq(plan.out[0].dtype, ACL_INT32);
	OUT(16, 2, 2);
	ck_assert_uint_eq(plan.in_place, 1);	/* as wide */
	ck_assert_int_eq(plan1("Cast", 1, f, NULL, h, at), ACL_ERROR_OP_OUTPUT_NOT_MATCH);
	ck_assert_int_eq(aclopSetAttrDataType(at, "dst_type", ACL_FLOAT16), ACL_SUCCESS);
	ck_assert_int_eq(plan1("Cast", 1, f, NULL, h, at), ACL_SUCCESS);
	OUT(8, 2, 2);
	ck_assert_uint_eq(plan.out[0].align, 2);
	ck_assert_uint_eq(plan.in_place, 1);	/* narrowing */
	ck_assert_int_eq(plan1("Cast", 1, h, NULL, f, at), ACL_ERROR_OP_OUTPUT_NOT_MATCH);
	ck_assert_int_eq(aclopSetAttrDataType(at, "dst_type", ACL_FLOAT), ACL_SUCCESS);
	ck_assert_int_eq(plan1("Cast", 1, h, NULL, f, at), ACL_SUCCESS);
	ck_assert_uint_eq(plan.in_place, 0); /* widening */
	ck_assert_int_eq(aclopSetAttrBool(at, "truncate", 1), ACL_SUCCESS);
	ck_assert_int_eq(plan1("Cast", 1, h, NULL, f, at), ACL_SUCCESS);
	ck_assert_int_eq(aclopSetAttrString(at, "dst_type", "float"), ACL_SUCCESS);
	ck_assert_int_eq(plan1("Cast", 1, h, NULL, f, at), ACL_ERROR_OP_ATTR_NOT_MATCH);
	free_descs(f, i, h);
	aclopDestroyAttr(at);
}
END_TEST

START_TEST(unknown_dimensions)
{
	aclTensorDesc *x = TD(ACL_FLOAT, 2, 3), *u = TD(ACL_FLOAT, -1, 3), *r = TD(ACL_FLOAT, -2);
	aclTensorDesc *wrong = TD(ACL_FLOAT, 3, -1);

	/* Inputs must be known... */
	ck_assert_int_eq(plan1("Relu", 1, u, NULL, x, NULL), ACL_ERROR_OP_INPUT_NOT_MATCH);
	MSG_HAS("inputDesc[0] has an unknown dimension (-1 at 0)");
	/* ...outputs may leave dimensions or the rank open, and get them. */
	ck_assert_int_eq(plan1("Relu", 1, x, NULL, u, NULL), ACL_SUCCESS);
	rt_op_refresh_output(&plan, (aclTensorDesc *[]){ u });
	ck_assert_int_eq(u->ndims, 2);
	ck_assert_int_eq(u->dims[0], 2);
	ck_assert_int_eq(plan1("Relu", 1, x, NULL, r, NULL), ACL_SUCCESS);
	rt_op_refresh_output(&plan, (aclTensorDesc *[]){ r });
	ck_assert_int_eq(r->ndims, 2);
	ck_assert_int_eq(r->dims[1], 3);
	ck_assert_int_eq(plan1("Relu", 1, x, NULL, wrong, NULL), ACL_ERROR_OP_OUTPUT_NOT_MATCH);
	free_descs(x, u, r);
	aclDestroyTensorDesc(wrong);
}
END_TEST

START_TEST(empty_and_huge_tensors)
{
	aclTensorDesc *e = TD(ACL_FLOAT, 0, 3), *e2 = TD(ACL_FLOAT, 0), *x = TD(ACL_FLOAT, 4, 0);
	aclTensorDesc *a = TD(ACL_FLOAT, 3, 0), *b = TD(ACL_FLOAT, 0, 5), *o = TD(ACL_FLOAT, 3, 5);
	aclTensorDesc *huge = TD(ACL_FLOAT, 1ll << 32), *hv = TD(ACL_FLOAT, 1ll << 20, 1ll << 20);
	aclTensorDesc *o4 = TD(ACL_FLOAT, 4);
	aclopAttr *at = aclopCreateAttr();

	ck_assert_int_eq(plan1("Relu", 1, e, NULL, e, NULL), ACL_SUCCESS);
	ck_assert(plan.empty);
	ck_assert_int_eq(plan1("Add", 2, e, e, e, NULL), ACL_SUCCESS);
	ck_assert(plan.empty);
	ck_assert_int_eq(aclopSetAttrListInt(at, "axes", 1, (int64_t[]){ -1 }), ACL_SUCCESS);
	ck_assert_int_eq(plan1("ReduceSumD", 1, e, NULL, e2, at), ACL_SUCCESS);
	ck_assert(plan.empty);
	ck_assert_uint_eq(plan.ws_bytes, 0);
	/* Reducing an empty axis would need an identity value. */
	ck_assert_int_eq(plan1("ReduceSumD", 1, x, NULL, o4, at), ACL_ERROR_OP_INPUT_NOT_MATCH);
	MSG_HAS("reducing an empty axis");
	aclDestroyTensorDesc(o4);
	ck_assert_int_eq(plan1("MatMul", 2, a, b, o, NULL), ACL_ERROR_OP_INPUT_NOT_MATCH);
	/* Beyond one operator's limits. */
	ck_assert_int_eq(plan1("Relu", 1, huge, NULL, huge, NULL), ACL_ERROR_OP_INPUT_NOT_MATCH);
	MSG_HAS("too large");
	ck_assert_int_eq(plan1("SoftmaxV2", 1, hv, NULL, hv, NULL), ACL_ERROR_OP_INPUT_NOT_MATCH);
	free_descs(e, e2, x);
	free_descs(a, b, o);
	free_descs(huge, hv, NULL);
	aclopDestroyAttr(at);
}
END_TEST

/* ---- buffers ----------------------------------------------------------------- */

static aclDataBuffer *buf(void *p, size_t n)
{
	aclDataBuffer *b = aclCreateDataBuffer(p, n);

	ck_assert_ptr_nonnull(b);
	return b;
}

static struct rt_op_bufs bufs;

static aclError bind(aclDataBuffer *x, aclDataBuffer *y, aclDataBuffer *out)
{
	aclDataBuffer *in[2] = { x, y }, *o[1] = { out };

	return rt_op_bind_buffers(&plan, plan.nin, in, 1, o, &bufs);
}

START_TEST(buffer_checks)
{
	_Alignas(64) static char mem[4096];
	aclTensorDesc *a = TD(ACL_FLOAT, 8), *one = TD(ACL_FLOAT, 1), *m = TD(ACL_FLOAT, 2, 2);
	aclTensorDesc *h = TD(ACL_FLOAT16, 8), *e = TD(ACL_FLOAT, 0);
	aclDataBuffer *x = buf(mem, 32), *y = buf(mem + 64, 32), *z = buf(mem + 128, 32);
	aclDataBuffer *small = buf(mem + 256, 28), *odd = buf(mem + 258, 32), *null = buf(NULL, 32);
	aclDataBuffer *shifted = buf(mem + 4, 32), *in[2] = { x, y }, *out[1] = { z };
	aclDataBuffer *h2 = buf(mem + 514, 16), *h1 = buf(mem + 513, 16);

	ck_assert_int_eq(plan1("Add", 2, a, a, a, NULL), ACL_SUCCESS);
	ck_assert_int_eq(bind(x, y, z), ACL_SUCCESS);
	ck_assert_uint_eq(bufs.in[0], (uintptr_t)mem);
	ck_assert_uint_eq(bufs.in[1], (uintptr_t)(mem + 64));
	ck_assert_uint_eq(bufs.out[0], (uintptr_t)(mem + 128));
	ck_assert_int_eq(rt_op_bind_buffers(&plan, 2, NULL, 1, out, &bufs), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(rt_op_bind_buffers(&plan, 2, in, 1, NULL, &bufs), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(bind(x, small, z), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(bind(x, odd, z), ACL_ERROR_MEMORY_ADDRESS_UNALIGNED);
	ck_assert_int_eq(bind(null, y, z), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(bind(NULL, y, z), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(bind(x, y, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(bind(x, (aclDataBuffer *)a, z), ACL_ERROR_INVALID_PARAM);
	/* In place: the output may start at a full-size input... */
	ck_assert_int_eq(bind(x, y, x), ACL_SUCCESS);
	ck_assert_int_eq(bind(x, y, y), ACL_SUCCESS);
	/* ...inputs may share memory (they are only read)... */
	ck_assert_int_eq(bind(x, x, z), ACL_SUCCESS);
	/* ...but the output may not overlap one otherwise. */
	ck_assert_int_eq(bind(shifted, y, x), ACL_ERROR_INVALID_PARAM);
	/* Nor start at a broadcast single element. */
	ck_assert_int_eq(plan1("Add", 2, a, one, a, NULL), ACL_SUCCESS);
	ck_assert_int_eq(bind(x, y, y), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(bind(x, y, x), ACL_SUCCESS);
	/* The alignment is the plan's: 2 bytes for fp16. */
	ck_assert_int_eq(plan1("Relu", 1, h, NULL, h, NULL), ACL_SUCCESS);
	ck_assert_int_eq(bind(h2, NULL, z), ACL_SUCCESS);
	ck_assert_int_eq(bind(h1, NULL, z), ACL_ERROR_MEMORY_ADDRESS_UNALIGNED);
	/* MatMul never works in place. */
	ck_assert_int_eq(plan1("MatMul", 2, m, m, m, NULL), ACL_SUCCESS);
	ck_assert_int_eq(bind(x, y, x), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(bind(x, y, z), ACL_SUCCESS);

	/* Workspace: aligned as the plan says (4 bytes), apart from every operand. */
	ck_assert_uint_eq(plan.ws_align, 4);
	ck_assert_int_eq(rt_op_check_workspace(&plan, &bufs, (uintptr_t)(mem + 512), 64), ACL_SUCCESS);
	ck_assert_int_eq(rt_op_check_workspace(&plan, &bufs, (uintptr_t)(mem + 514), 64),
			 ACL_ERROR_MEMORY_ADDRESS_UNALIGNED);
	ck_assert_int_eq(rt_op_check_workspace(&plan, &bufs, (uintptr_t)(mem + 8), 64), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(rt_op_check_workspace(&plan, &bufs, (uintptr_t)(mem + 120), 64), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(rt_op_check_workspace(&plan, &bufs, (uintptr_t)(mem + 144), 64), ACL_SUCCESS);

	/* An empty call needs its buffer objects, not their memory. */
	ck_assert_int_eq(plan1("Relu", 1, e, NULL, e, NULL), ACL_SUCCESS);
	ck_assert(plan.empty);
	ck_assert_int_eq(bind(null, NULL, null), ACL_SUCCESS);
	ck_assert_int_eq(bind(NULL, NULL, null), ACL_ERROR_INVALID_PARAM);
	free_descs(a, one, m);
	free_descs(h, e, NULL);
	aclDestroyDataBuffer(x);
	aclDestroyDataBuffer(y);
	aclDestroyDataBuffer(z);
	aclDestroyDataBuffer(small);
	aclDestroyDataBuffer(odd);
	aclDestroyDataBuffer(null);
	aclDestroyDataBuffer(shifted);
	aclDestroyDataBuffer(h1);
	aclDestroyDataBuffer(h2);
}
END_TEST

/* ---- the adapter and lib/ops agree ------------------------------------------------- */

static uint32_t next_rand(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

static const aclDataType all_types[] = { ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32 };

/*
 * lib/ops' own plan of the call the adapter just planned (its inputs and
 * attributes handed over directly): the adapter must have changed nothing,
 * so every size, alignment, flag, the workspace and the descriptor bytes
 * are the same.
 */
static void lib_ops_agrees(const char *type, int nin, const aclTensorDesc *a, const aclTensorDesc *b,
			   const aclopAttr *attr)
{
	static struct vops_plan direct;
	struct vops_tensor in[2] = {
		{ .dtype = a->dtype, .ndim = a->ndims, .dims = a->dims },
		{ .dtype = b ? b->dtype : 0, .ndim = b ? b->ndims : 0, .dims = b ? b->dims : NULL },
	};
	struct vops_error err;
	int i;

	ck_assert_int_eq(vops_plan(type, nin, in, 1, attr ? attr->items : NULL, attr ? attr->count : 0, &direct,
				   &err), VOPS_OK);
	ck_assert_str_eq(plan.type, direct.type);
	ck_assert_int_eq(plan.nin, direct.nin);
	ck_assert_int_eq(plan.nout, direct.nout);
	for (i = 0; i < plan.nin; i++) {
		ck_assert_uint_eq(plan.in_bytes[i], direct.in_bytes[i]);
		ck_assert_uint_eq(plan.in_align[i], direct.in_align[i]);
	}
	ck_assert_int_eq(plan.out[0].dtype, direct.out[0].dtype);
	ck_assert_int_eq(plan.out[0].ndim, direct.out[0].ndim);
	for (i = 0; i < plan.out[0].ndim; i++)
		ck_assert_int_eq(plan.out[0].dims[i], direct.out[0].dims[i]);
	ck_assert_uint_eq(plan.out[0].bytes, direct.out[0].bytes);
	ck_assert_uint_eq(plan.out[0].align, direct.out[0].align);
	ck_assert_uint_eq(plan.in_place, direct.in_place);
	ck_assert_uint_eq(plan.ws_bytes, direct.ws_bytes);
	ck_assert_uint_eq(plan.ws_align, direct.ws_align);
	ck_assert_int_eq(plan.empty, direct.empty);
	ck_assert_uint_eq(plan.desc_size, direct.desc_size);
	ck_assert(!memcmp(plan.desc, direct.desc, plan.desc_size));
}

START_TEST(plans_are_lib_ops_plans)
{
	uint32_t seed = 12345;
	int iter;

	for (iter = 0; iter < 400; iter++) {
		aclDataType t = all_types[next_rand(&seed) % 4];
		int64_t m = 1 + next_rand(&seed) % 40, n = 1 + next_rand(&seed) % 40, k = 1 + next_rand(&seed) % 40;
		int64_t axes[2] = { (int64_t)(next_rand(&seed) % 3), -1 };
		bool ta = next_rand(&seed) & 1, tb = next_rand(&seed) & 1, keep = next_rand(&seed) & 1;
		aclTensorDesc *a = ta ? TD(t, k, m) : TD(t, m, k), *b = tb ? TD(t, n, k) : TD(t, k, n);
		aclTensorDesc *o = TD(t, m, n), *x = TD(t, m, n, k), *r = TD(t, -2), *one = TD(t, 1);
		aclopAttr *at = aclopCreateAttr();

		ck_assert_int_eq(aclopSetAttrBool(at, "transpose_x1", ta), ACL_SUCCESS);
		ck_assert_int_eq(aclopSetAttrBool(at, "transpose_x2", tb), ACL_SUCCESS);
		ck_assert_int_eq(plan1("MatMul", 2, a, b, o, at), ACL_SUCCESS);
		lib_ops_agrees("MatMul", 2, a, b, at);
		aclopDestroyAttr(at);

		at = aclopCreateAttr();
		ck_assert_int_eq(aclopSetAttrListInt(at, "axes", axes[0] == 2 ? 1 : 2, axes), ACL_SUCCESS);
		ck_assert_int_eq(aclopSetAttrBool(at, "keep_dims", keep), ACL_SUCCESS);
		ck_assert_int_eq(plan1("ReduceSumD", 1, x, NULL, r, at), ACL_SUCCESS);
		lib_ops_agrees("ReduceSumD", 1, x, NULL, at);
		ck_assert_int_eq(plan1("ReduceMaxD", 1, x, NULL, r, at), ACL_SUCCESS);
		lib_ops_agrees("ReduceMaxD", 1, x, NULL, at);
		aclopDestroyAttr(at);
		if (t != ACL_INT32) {
			ck_assert_int_eq(plan1("SoftmaxV2", 1, x, NULL, x, NULL), ACL_SUCCESS);
			lib_ops_agrees("SoftmaxV2", 1, x, NULL, NULL);
		}
		ck_assert_int_eq(plan1("Add", 2, x, x, x, NULL), ACL_SUCCESS);
		lib_ops_agrees("Add", 2, x, x, NULL);
		ck_assert_int_eq(plan1("Mul", 2, one, x, x, NULL), ACL_SUCCESS);
		lib_ops_agrees("Mul", 2, one, x, NULL);
		ck_assert_int_eq(plan1("Abs", 1, x, NULL, x, NULL), ACL_SUCCESS);
		lib_ops_agrees("Abs", 1, x, NULL, NULL);
		at = aclopCreateAttr();
		ck_assert_int_eq(aclopSetAttrDataType(at, "dst_type", all_types[iter % 4]), ACL_SUCCESS);
		{
			aclTensorDesc *co = TD(all_types[iter % 4], m, n, k);

			ck_assert_int_eq(plan1("Cast", 1, x, NULL, co, at), ACL_SUCCESS);
			lib_ops_agrees("Cast", 1, x, NULL, at);
			aclDestroyTensorDesc(co);
		}
		aclopDestroyAttr(at);
		free_descs(a, b, o);
		free_descs(x, r, one);
	}
}
END_TEST

/* ---- the task and its data area -------------------------------------------------- */

static struct drm_vnpu_task task;
static struct rt_op_data data;
static uint32_t data_size;

/* The operand @i of the task, read back from the data area. */
static struct drm_vnpu_operand operand(unsigned int i)
{
	struct drm_vnpu_operand op;

	ck_assert_uint_lt(i, task.op.operand_count);
	memcpy(&op, data.bytes + task.op.operand_offset + i * sizeof(op), sizeof(op));
	return op;
}

/*
 * Build the task of the bound plan (workspace at @ws) and check its
 * layout: one VNPU_TASK_OP, the descriptor at 0, the operands at the next
 * multiple of 8 in lib/ops' order, nothing else in the data area.
 */
static void build_task(uint64_t ws)
{
	unsigned int i, n = 0, off;

	memset(&data, 0x5a, sizeof(data));
	data_size = rt_op_task(&plan, &bufs, ws, &task, &data);
	ck_assert_uint_eq(task.kind, VNPU_TASK_OP);
	ck_assert_uint_eq(task.flags, 0);
	for (i = sizeof(task.op) / 8; i < sizeof(task.raw) / 8; i++)
		ck_assert_uint_eq(task.raw[i], 0);	/* the union beyond the op */
	ck_assert_uint_eq(task.op.desc_offset, 0);
	ck_assert_uint_eq(task.op.desc_size, plan.desc_size);
	ck_assert(!memcmp(data.bytes, plan.desc, plan.desc_size));
	off = (plan.desc_size + 7) / 8 * 8;
	ck_assert_uint_eq(task.op.operand_offset, off);
	for (i = plan.desc_size; i < off; i++)
		ck_assert_uint_eq(data.bytes[i], 0);
	ck_assert_uint_eq(task.op.operand_count, vops_plan_operands(&plan));
	ck_assert_uint_eq(data_size, off + task.op.operand_count * sizeof(struct drm_vnpu_operand));
	for (i = 0; i < (unsigned int)plan.nin; i++, n++) {
		struct drm_vnpu_operand op = operand(n);

		ck_assert_uint_eq(op.va, bufs.in[i]);
		ck_assert_uint_eq(op.size, plan.in_bytes[i]);
		ck_assert_uint_eq(op.access, VNPU_OPERAND_READ);
		ck_assert_uint_eq(op.pad, 0);
	}
	for (i = 0; i < (unsigned int)plan.nout; i++, n++) {
		struct drm_vnpu_operand op = operand(n);

		ck_assert_uint_eq(op.va, bufs.out[i]);
		ck_assert_uint_eq(op.size, plan.out[i].bytes);
		ck_assert_uint_eq(op.access, VNPU_OPERAND_WRITE);
		ck_assert_uint_eq(op.pad, 0);
	}
	if (plan.ws_bytes) {
		struct drm_vnpu_operand op = operand(n++);

		ck_assert_uint_eq(op.va, ws);
		ck_assert_uint_eq(op.size, plan.ws_bytes);
		ck_assert_uint_eq(op.access, VNPU_OPERAND_WORKSPACE);
		ck_assert_uint_eq(op.pad, 0);
	}
	ck_assert_uint_eq(n, task.op.operand_count);
	ck_assert_uint_le(data_size, sizeof(data.bytes));
	ck_assert_uint_le(data_size, VNPU_MAX_SUBMIT_DATA);
}

START_TEST(one_task_with_descriptor_and_operands)
{
	_Alignas(64) static char mem[8192];
	aclTensorDesc *a = TD(ACL_FLOAT, 8), *one = TD(ACL_FLOAT, 1), *x = TD(ACL_FLOAT16, 2, 3, 5);
	aclTensorDesc *o = TD(ACL_FLOAT16, 3), *big;
	aclDataBuffer *p = buf(mem, 32), *q = buf(mem + 64, 4), *r = buf(mem + 128, 32);
	aclDataBuffer *hx = buf(mem + 256, 60), *ho = buf(mem + 512, 6);
	aclopAttr *at = aclopCreateAttr();
	int64_t dims[RT_MAX_DIMS];
	int i;

	/* No workspace: inputs READ, the output WRITE, nothing more. */
	ck_assert_int_eq(plan1("Sub", 2, a, one, a, NULL), ACL_SUCCESS);
	ck_assert_uint_eq(plan.ws_bytes, 0);
	ck_assert_int_eq(bind(p, q, r), ACL_SUCCESS);
	build_task(0x1000);
	ck_assert_uint_eq(task.op.operand_count, 3);
	ck_assert_uint_eq(operand(1).size, 4);	/* the broadcast element */
	/* In place: the same memory twice, once each way. */
	ck_assert_int_eq(bind(p, q, p), ACL_SUCCESS);
	build_task(0);
	ck_assert_uint_eq(operand(0).va, operand(2).va);
	ck_assert_uint_eq(operand(0).access, VNPU_OPERAND_READ);
	ck_assert_uint_eq(operand(2).access, VNPU_OPERAND_WRITE);

	/* A reduction over axes that are not adjacent is one task too, with
	 * the whole workspace as its last operand. */
	ck_assert_int_eq(aclopSetAttrListInt(at, "axes", 2, (int64_t[]){ 0, 2 }), ACL_SUCCESS);
	ck_assert_int_eq(plan1("ReduceSumD", 1, x, NULL, o, at), ACL_SUCCESS);
	ck_assert_uint_gt(plan.ws_bytes, 0);
	ck_assert_int_eq(rt_op_bind_buffers(&plan, 1, (aclDataBuffer *[]){ hx }, 1, (aclDataBuffer *[]){ ho }, &bufs),
			 ACL_SUCCESS);
	build_task(0x7f0000001000ull);
	ck_assert_uint_eq(task.op.operand_count, 3);
	ck_assert_uint_eq(operand(2).access, VNPU_OPERAND_WORKSPACE);
	ck_assert_uint_eq(operand(2).va, 0x7f0000001000ull);

	/* The largest shapes still fit: rank 128 on both inputs. */
	for (i = 0; i < RT_MAX_DIMS; i++)
		dims[i] = 1;
	dims[0] = 8;
	big = td(ACL_FLOAT, RT_MAX_DIMS, dims);
	ck_assert_int_eq(plan1("Add", 2, big, big, big, NULL), ACL_SUCCESS);
	ck_assert_uint_gt(plan.desc_size, 2 * 8 * RT_MAX_DIMS);
	ck_assert_int_eq(bind(p, p, r), ACL_SUCCESS);
	build_task(0);
	free_descs(a, one, x);
	free_descs(o, big, NULL);
	aclDestroyDataBuffer(p);
	aclDestroyDataBuffer(q);
	aclDestroyDataBuffer(r);
	aclDestroyDataBuffer(hx);
	aclDestroyDataBuffer(ho);
	aclopDestroyAttr(at);
}
END_TEST

/* ---- running the tasks as the engine server does ---------------------------------- */

/* fp16/bf16 encoders (round to nearest even) and decoders: the selftests' reference. */
static uint16_t enc_f16(float f)
{
	return (uint16_t)ref_encode(f, REF_F16);
}

static double dec_f16(uint16_t h)
{
	return ref_decode(h, REF_F16);
}

static uint16_t enc_bf16(float f)
{
	return (uint16_t)ref_encode(f, REF_BF16);
}

static double dec_bf16(uint16_t h)
{
	return ref_decode(h, REF_BF16);
}

/* A tensor in one of the four types, with its values as doubles. */
struct tensor {
	aclDataType t;
	size_t n;
	void *raw;
	double *v;
};

static void tensor_store(struct tensor *x, size_t i, double v)
{
	switch (x->t) {
	case ACL_FLOAT:
		((float *)x->raw)[i] = (float)v;
		x->v[i] = (float)v;
		break;
	case ACL_FLOAT16:
		((uint16_t *)x->raw)[i] = enc_f16((float)v);
		x->v[i] = dec_f16(((uint16_t *)x->raw)[i]);
		break;
	case ACL_BF16:
		((uint16_t *)x->raw)[i] = enc_bf16((float)v);
		x->v[i] = dec_bf16(((uint16_t *)x->raw)[i]);
		break;
	default:
		((int32_t *)x->raw)[i] = (int32_t)v;
		x->v[i] = (int32_t)v;
		break;
	}
}

static double tensor_load(const struct tensor *x, size_t i)
{
	switch (x->t) {
	case ACL_FLOAT:
		return ((float *)x->raw)[i];
	case ACL_FLOAT16:
		return dec_f16(((uint16_t *)x->raw)[i]);
	case ACL_BF16:
		return dec_bf16(((uint16_t *)x->raw)[i]);
	default:
		return ((int32_t *)x->raw)[i];
	}
}

static void tensor_init(struct tensor *x, aclDataType t, size_t n, uint32_t *seed, double lo, double hi)
{
	size_t i;

	x->t = t;
	x->n = n;
	x->raw = calloc(n ? n : 1, 4);
	x->v = calloc(n ? n : 1, sizeof(double));
	ck_assert(x->raw && x->v);
	for (i = 0; i < n; i++) {
		double u = (next_rand(seed) % 1000001) / 1000000.0;
		double v = lo + (hi - lo) * u;

		tensor_store(x, i, t == ACL_INT32 ? floor(v) : v);
	}
}

static void tensor_fini(struct tensor *x)
{
	free(x->raw);
	free(x->v);
}

/* Relative tolerance for results of type @t (the rounding of the output). */
static double tol(aclDataType t)
{
	switch (t) {
	case ACL_FLOAT16:
		return 2e-3;
	case ACL_BF16:
		return 1.6e-2;
	case ACL_INT32:
		return 0;
	default:
		return 2e-5;
	}
}

static void expect_close(const struct tensor *out, const double *want, size_t n, double scale)
{
	double t = tol(out->t);
	size_t i;

	for (i = 0; i < n; i++) {
		double got = tensor_load(out, i);

		ck_assert_msg(fabs(got - want[i]) <= t * (fabs(want[i]) + scale),
			      "element %zu: got %.9g, want %.9g (type %d)", i, got, want[i], out->t);
	}
}

/*
 * Run the plan's task as vnpu-engined would: the operands from the task's
 * data area (their device addresses are host pointers here), the
 * descriptor from it, one vops_run(). The workspace is host memory at the
 * plan's alignment, filled with garbage: no operator may rely on zeros.
 */
static void run_task(const struct tensor *a, const struct tensor *b, struct tensor *out)
{
	struct vops_operand ops[RT_OP_MAX_OPERANDS];
	size_t ws_len = (plan.ws_bytes + 63) / 64 * 64;
	void *ws = plan.ws_bytes ? aligned_alloc(64, ws_len) : NULL;
	char why[256] = "";
	unsigned int i;

	ck_assert(!plan.ws_bytes || ws);
	ck_assert_uint_eq(64 % (plan.ws_align ? plan.ws_align : 1), 0);
	if (ws)
		memset(ws, 0xa5, ws_len);
	bufs.in[0] = (uint64_t)(uintptr_t)a->raw;
	bufs.in[1] = b ? (uint64_t)(uintptr_t)b->raw : 0;
	bufs.out[0] = (uint64_t)(uintptr_t)out->raw;
	build_task((uint64_t)(uintptr_t)ws);
	for (i = 0; i < task.op.operand_count; i++) {
		struct drm_vnpu_operand op = operand(i);

		ops[i] = (struct vops_operand){ .ptr = (void *)(uintptr_t)op.va, .size = op.size, .access = op.access };
	}
	ck_assert_msg(vops_run(data.bytes + task.op.desc_offset, task.op.desc_size, ops, task.op.operand_count, NULL,
			       why, sizeof(why)) == VOPS_RUN_OK, "%s: the engine refused the task: %s", plan.type, why);
	free(ws);
}

static void run_plan(const struct tensor *a, const struct tensor *b, struct tensor *out)
{
	run_task(a, b, out);
}

/* A reduction over axes that are not adjacent: one task, which runs the
 * whole chain in its workspace. */
static void run_chain(const struct tensor *a, struct tensor *out)
{
	ck_assert_uint_gt(plan.ws_bytes, 0);
	run_task(a, NULL, out);
	ck_assert_uint_eq(task.op.operand_count, 3);
}

START_TEST(elementwise_results)
{
	static const char *const names[] = { "Add", "Sub", "Mul", "RealDiv" };
	uint32_t seed = 7;
	int t, o, shape;

	for (t = 0; t < 4; t++) {
		for (o = 0; o < 4; o++) {
			for (shape = 0; shape < 3; shape++) {
				aclDataType ty = all_types[t];
				size_t n = 37, na = shape == 1 ? 1 : n, nb = shape == 2 ? 1 : n, i;
				aclTensorDesc *da = na == 1 ? TD(ty, 1) : TD(ty, n), *db = nb == 1 ? TD0(ty) : TD(ty, n);
				aclTensorDesc *dout = TD(ty, n);
				struct tensor a, b, out;
				double want[37];

				tensor_init(&a, ty, na, &seed, -50, 50);
				tensor_init(&b, ty, nb, &seed, 1, 20); /* no division by zero */
				tensor_init(&out, ty, n, &seed, 0, 0);
				ck_assert_int_eq(plan1(names[o], 2, da, db, dout, NULL), ACL_SUCCESS);
				run_plan(&a, &b, &out);
				for (i = 0; i < n; i++) {
					double x = a.v[na == 1 ? 0 : i], y = b.v[nb == 1 ? 0 : i];

					switch (o) {
					case 0: want[i] = x + y; break;
					case 1: want[i] = x - y; break;
					case 2: want[i] = x * y; break;
					default: want[i] = ty == ACL_INT32 ? trunc(x / y) : x / y; break;
					}
				}
				expect_close(&out, want, n, 1e-6);
				tensor_fini(&a);
				tensor_fini(&b);
				tensor_fini(&out);
				free_descs(da, db, dout);
			}
		}
	}
}
END_TEST

START_TEST(unary_and_cast_results)
{
	uint32_t seed = 99;
	int t, u, d;

	for (t = 0; t < 4; t++) {
		aclDataType ty = all_types[t];
		aclTensorDesc *x = TD(ty, 5, 7);
		struct tensor a, out;
		double want[35];
		size_t i;

		for (u = 0; u < 2; u++) {
			tensor_init(&a, ty, 35, &seed, -100, 100);
			tensor_init(&out, ty, 35, &seed, 0, 0);
			ck_assert_int_eq(plan1(u ? "Abs" : "Relu", 1, x, NULL, x, NULL), ACL_SUCCESS);
			run_plan(&a, NULL, &out);
			for (i = 0; i < 35; i++)
				want[i] = u ? fabs(a.v[i]) : (a.v[i] > 0 ? a.v[i] : 0);
			expect_close(&out, want, 35, 0);
			tensor_fini(&a);
			tensor_fini(&out);
		}
		for (d = 0; d < 4; d++) {
			aclDataType to = all_types[d];
			aclTensorDesc *y = TD(to, 5, 7);
			aclopAttr *at = aclopCreateAttr();

			ck_assert_int_eq(aclopSetAttrDataType(at, "dst_type", to), ACL_SUCCESS);
			tensor_init(&a, ty, 35, &seed, -200, 200);
			tensor_init(&out, to, 35, &seed, 0, 0);
			ck_assert_int_eq(plan1("Cast", 1, x, NULL, y, at), ACL_SUCCESS);
			run_plan(&a, NULL, &out);
			for (i = 0; i < 35; i++)
				want[i] = to == ACL_INT32 ? trunc(a.v[i]) : a.v[i];
			/* The result is the input rounded once to the output type. */
			expect_close(&out, want, 35, 0);
			tensor_fini(&a);
			tensor_fini(&out);
			aclDestroyTensorDesc(y);
			aclopDestroyAttr(at);
		}
		aclDestroyTensorDesc(x);
	}
}
END_TEST

/* [3, 4, 5] along axis 0 and axis 1: the planned task computes the right thing. */
START_TEST(middle_axis_results)
{
	static const int64_t d[3] = { 3, 4, 5 };
	uint32_t seed = 777;
	int t, ax;

	for (t = 0; t < 4; t++) {
		aclDataType ty = all_types[t];

		for (ax = 0; ax < 2; ax++) {
			aclTensorDesc *x = TD(ty, 3, 4, 5);
			aclTensorDesc *o = ax ? TD(ty, 3, 5) : TD(ty, 4, 5);
			aclopAttr *at = aclopCreateAttr();
			size_t n = 60, on = ax ? 15 : 20, i, j, c, rows = ax ? 3 : 1;
			size_t cols = (size_t)d[ax], inner = ax ? 5 : 20;
			struct tensor a, out, sm;
			double want[60];

			ck_assert_int_eq(aclopSetAttrListInt(at, "axes", 1, (int64_t[]){ ax }), ACL_SUCCESS);
			tensor_init(&a, ty, n, &seed, -8, 8);
			tensor_init(&out, ty, on, &seed, 0, 0);
			ck_assert_int_eq(plan1("ReduceSumD", 1, x, NULL, o, at), ACL_SUCCESS);
			run_plan(&a, NULL, &out);
			for (i = 0; i < rows; i++)
				for (j = 0; j < inner; j++) {
					want[i * inner + j] = 0;
					for (c = 0; c < cols; c++)
						want[i * inner + j] += a.v[(i * cols + c) * inner + j];
				}
			expect_close(&out, want, on, 8.0 * cols);
			ck_assert_int_eq(plan1("ReduceMaxD", 1, x, NULL, o, at), ACL_SUCCESS);
			run_plan(&a, NULL, &out);
			for (i = 0; i < rows; i++)
				for (j = 0; j < inner; j++) {
					want[i * inner + j] = a.v[i * cols * inner + j];
					for (c = 1; c < cols; c++)
						want[i * inner + j] = fmax(want[i * inner + j],
									   a.v[(i * cols + c) * inner + j]);
				}
			expect_close(&out, want, on, 0);
			if (ty != ACL_INT32) {
				tensor_init(&sm, ty, n, &seed, 0, 0);
				ck_assert_int_eq(plan1("SoftmaxV2", 1, x, NULL, x, at), ACL_SUCCESS);
				run_plan(&a, NULL, &sm);
				for (i = 0; i < rows; i++)
					for (j = 0; j < inner; j++) {
						double mx = -INFINITY, sum = 0;

						for (c = 0; c < cols; c++)
							mx = fmax(mx, a.v[(i * cols + c) * inner + j]);
						for (c = 0; c < cols; c++)
							sum += exp(a.v[(i * cols + c) * inner + j] - mx);
						for (c = 0; c < cols; c++)
							want[(i * cols + c) * inner + j] =
								exp(a.v[(i * cols + c) * inner + j] - mx) / sum;
					}
				expect_close(&sm, want, n, 1e-3);
				tensor_fini(&sm);
			}
			tensor_fini(&a);
			tensor_fini(&out);
			free_descs(x, o, NULL);
			aclopDestroyAttr(at);
		}
	}
}
END_TEST

START_TEST(reduce_and_softmax_results)
{
	uint32_t seed = 4242;
	int t, keep;

	for (t = 0; t < 4; t++) {
		aclDataType ty = all_types[t];
		size_t rows = 6, cols = 33, r, c;
		aclTensorDesc *x = TD(ty, 2, 3, 33), *o = TD(ty, 2, 3), *ok = TD(ty, 2, 3, 1);
		aclopAttr *at = aclopCreateAttr();
		struct tensor a, out;
		double want[6 * 33];

		ck_assert_int_eq(aclopSetAttrListInt(at, "axes", 1, (int64_t[]){ 2 }), ACL_SUCCESS);
		for (keep = 0; keep < 2; keep++) {
			ck_assert_int_eq(aclopSetAttrBool(at, "keep_dims", (uint8_t)keep), ACL_SUCCESS);
			tensor_init(&a, ty, rows * cols, &seed, -8, 8);
			tensor_init(&out, ty, rows, &seed, 0, 0);
			ck_assert_int_eq(plan1("ReduceSumD", 1, x, NULL, keep ? ok : o, at), ACL_SUCCESS);
			run_plan(&a, NULL, &out);
			for (r = 0; r < rows; r++) {
				want[r] = 0;
				for (c = 0; c < cols; c++)
					want[r] += a.v[r * cols + c];
			}
			expect_close(&out, want, rows, 8.0 * cols);
			ck_assert_int_eq(plan1("ReduceMaxD", 1, x, NULL, keep ? ok : o, at), ACL_SUCCESS);
			run_plan(&a, NULL, &out);
			for (r = 0; r < rows; r++) {
				want[r] = a.v[r * cols];
				for (c = 1; c < cols; c++)
					want[r] = fmax(want[r], a.v[r * cols + c]);
			}
			expect_close(&out, want, rows, 0);
			tensor_fini(&a);
			tensor_fini(&out);
		}
		if (ty != ACL_INT32) {
			tensor_init(&a, ty, rows * cols, &seed, -6, 6);
			tensor_init(&out, ty, rows * cols, &seed, 0, 0);
			ck_assert_int_eq(plan1("SoftmaxV2", 1, x, NULL, x, NULL), ACL_SUCCESS);
			run_plan(&a, NULL, &out);
			for (r = 0; r < rows; r++) {
				double mx = a.v[r * cols], sum = 0;

				for (c = 1; c < cols; c++)
					mx = fmax(mx, a.v[r * cols + c]);
				for (c = 0; c < cols; c++)
					sum += exp(a.v[r * cols + c] - mx);
				for (c = 0; c < cols; c++)
					want[r * cols + c] = exp(a.v[r * cols + c] - mx) / sum;
			}
			expect_close(&out, want, rows * cols, 1e-3);
			tensor_fini(&a);
			tensor_fini(&out);
		}
		free_descs(x, o, ok);
		aclopDestroyAttr(at);
	}
}
END_TEST

static void host_reduce_axes(const double *x, int ndims, const int64_t *dims, const bool *mask, bool max, double *want,
		       size_t nout)
{
	size_t n = 1, i, o;
	bool *seen = calloc(nout ? nout : 1, 1);
	int d;

	ck_assert_ptr_nonnull(seen);
	for (d = 0; d < ndims; d++)
		n *= (size_t)dims[d];
	for (i = 0; i < n; i++) {
		size_t rest = i, stride = 1;

		o = 0;
		for (d = ndims - 1; d >= 0; d--) {
			size_t c = rest % (size_t)dims[d];

			rest /= (size_t)dims[d];
			if (!mask[d]) {
				o += c * stride;
				stride *= (size_t)dims[d];
			}
		}
		if (!seen[o])
			want[o] = x[i];
		else
			want[o] = max ? fmax(want[o], x[i]) : want[o] + x[i];
		seen[o] = true;
	}
	free(seen);
}

/* Non-adjacent axes, every type, sum and max, with and without keep_dims. */
START_TEST(chain_results)
{
	static const struct {
		int ndims;
		int64_t dims[4];
		int naxes;
		int64_t axes[3];
	} cases[] = {
		{ 3, { 5, 6, 70 }, 2, { 0, 2 } },
		{ 4, { 3, 4, 5, 6 }, 2, { 0, 2 } },
		{ 4, { 3, 4, 5, 6 }, 2, { 1, 3 } },
		{ 4, { 3, 4, 5, 6 }, 3, { 0, 1, 3 } },
		{ 4, { 3, 4, 5, 6 }, 2, { -1, -3 } },
	};
	uint32_t seed = 2024;
	unsigned int c;
	int t, keep, mx;

	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		const int64_t *dims = cases[c].dims;
		int nd = cases[c].ndims, d, i;
		bool mask[4] = { false };
		int64_t od[4];
		size_t n = 1, on = 1;

		for (i = 0; i < cases[c].naxes; i++)
			mask[(cases[c].axes[i] + nd) % nd] = true;
		for (d = 0; d < nd; d++) {
			n *= (size_t)dims[d];
			on *= mask[d] ? 1 : (size_t)dims[d];
		}
		for (t = 0; t < 4; t++) {
			aclDataType ty = all_types[t];
			aclTensorDesc *x = td(ty, nd, dims);
			aclopAttr *at = aclopCreateAttr();

			ck_assert_int_eq(aclopSetAttrListInt(at, "axes", cases[c].naxes, cases[c].axes), ACL_SUCCESS);
			for (keep = 0; keep < 2; keep++) {
				aclTensorDesc *o;
				int k = 0;

				for (d = 0; d < nd; d++)
					if (!mask[d] || keep)
						od[k++] = mask[d] ? 1 : dims[d];
				o = td(ty, k, od);
				ck_assert_int_eq(aclopSetAttrBool(at, "keep_dims", (uint8_t)keep), ACL_SUCCESS);
				for (mx = 0; mx < 2; mx++) {
					struct tensor a, out;
					double *want = calloc(on, sizeof(double));

					ck_assert_ptr_nonnull(want);
					tensor_init(&a, ty, n, &seed, -8, 8);
					tensor_init(&out, ty, on, &seed, 0, 0);
					ck_assert_int_eq(plan1(mx ? "ReduceMaxD" : "ReduceSumD", 1, x, NULL, o, at),
							 ACL_SUCCESS);
					run_chain(&a, &out);
					host_reduce_axes(a.v, nd, dims, mask, mx, want, on);
					/* sums: the exact sum rounded once (fp16/bf16 via fp32) */
					expect_close(&out, want, on, mx ? 0 : 8.0 * (double)(n / on));
					tensor_fini(&a);
					tensor_fini(&out);
					free(want);
				}
				aclDestroyTensorDesc(o);
			}
			aclDestroyTensorDesc(x);
			aclopDestroyAttr(at);
		}
	}
}
END_TEST

START_TEST(matmul_results)
{
	uint32_t seed = 31337;
	int t, tr;

	for (t = 0; t < 4; t++) {
		for (tr = 0; tr < 4; tr++) {
			aclDataType ty = all_types[t];
			int64_t m = 5, n = 7, k = 9;
			bool ta = tr & 1, tb = tr & 2;
			aclTensorDesc *da = ta ? TD(ty, k, m) : TD(ty, m, k), *db = tb ? TD(ty, n, k) : TD(ty, k, n);
			aclTensorDesc *dout = TD(ty, m, n);
			aclopAttr *at = aclopCreateAttr();
			struct tensor a, b, out;
			double want[35];
			int64_t i, j, p;

			ck_assert_int_eq(aclopSetAttrBool(at, "transpose_x1", ta), ACL_SUCCESS);
			ck_assert_int_eq(aclopSetAttrBool(at, "transpose_x2", tb), ACL_SUCCESS);
			tensor_init(&a, ty, (size_t)(m * k), &seed, -4, 4);
			tensor_init(&b, ty, (size_t)(k * n), &seed, -4, 4);
			tensor_init(&out, ty, (size_t)(m * n), &seed, 0, 0);
			ck_assert_int_eq(plan1("MatMul", 2, da, db, dout, at), ACL_SUCCESS);
			run_plan(&a, &b, &out);
			for (i = 0; i < m; i++) {
				for (j = 0; j < n; j++) {
					double s = 0;

					for (p = 0; p < k; p++)
						s += a.v[ta ? p * m + i : i * k + p] * b.v[tb ? j * k + p : p * n + j];
					want[i * n + j] = s;
				}
			}
			expect_close(&out, want, (size_t)(m * n), 16.0 * k);
			tensor_fini(&a);
			tensor_fini(&b);
			tensor_fini(&out);
			free_descs(da, db, dout);
			aclopDestroyAttr(at);
		}
	}
}
END_TEST


static Suite *op_suite(void)
{
	Suite *s = suite_create("lib_op");
	TCase *tc = tcase_create("objects");

	tcase_add_test(tc, tensor_desc_accessors);
	tcase_add_test(tc, data_type_sizes);
	tcase_add_test(tc, data_buffers);
	tcase_add_test(tc, attributes);
	suite_add_tcase(s, tc);

	tc = tcase_create("plan");
	tcase_add_test(tc, unknown_operators_and_bad_arguments);
	tcase_add_test(tc, types_and_formats);
	tcase_add_test(tc, binary_shapes_and_broadcast);
	tcase_add_test(tc, reductions);
	tcase_add_test(tc, reduction_axes);
	tcase_add_test(tc, reduction_chains);
	tcase_add_test(tc, softmax);
	tcase_add_test(tc, matmul);
	tcase_add_test(tc, cast);
	tcase_add_test(tc, unknown_dimensions);
	tcase_add_test(tc, empty_and_huge_tensors);
	tcase_add_test(tc, buffer_checks);
	tcase_add_test(tc, plans_are_lib_ops_plans);
	tcase_add_test(tc, one_task_with_descriptor_and_operands);
	suite_add_tcase(s, tc);

	tc = tcase_create("run");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, elementwise_results);
	tcase_add_test(tc, unary_and_cast_results);
	tcase_add_test(tc, reduce_and_softmax_results);
	tcase_add_test(tc, middle_axis_results);
	tcase_add_test(tc, chain_results);
	tcase_add_test(tc, matmul_results);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(op_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
