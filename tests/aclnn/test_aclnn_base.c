// SPDX-License-Identifier: MIT
/*
 * test_aclnn_base.c - aclnn's objects (acl_meta.h) and executors, in the
 * guest: tensors, scalars, arrays and lists with their errors; executors
 * built through the core's builder (lib/aclnn/nn.h, libnnopbase.so's
 * private interface) so that views, aliasing, casts, the workspace
 * contract, single use, repeatable launches with new addresses and the
 * one-ioctl launch are tested apart from any operator function.
 */
#include <stdlib.h>
#include <string.h>

#include "acl_optest.h"
#include "nn.h"
#include "nnt.h"
#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_cumsum.h"
#include "aclnnop/aclnn_split_tensor.h"
#include "aclnnop/aclnn_stack.h"

/* ---- objects ---------------------------------------------------------------------- */

START_TEST(tensors_keep_their_view_and_storage)
{
	int64_t dims[] = { 2, 3 }, st[] = { 1, 2 }, storage[] = { 6 };
	int64_t *got;
	uint64_t n;
	aclTensor *t = aclCreateTensor(dims, 2, ACL_FLOAT16, st, 0, ACL_FORMAT_ND, storage, 1, (void *)0x1000);
	aclDataType dt;
	aclFormat fmt;
	int64_t off;
	void *addr;

	ck_assert_ptr_nonnull(t);
	ACL_OK(aclGetViewShape(t, &got, &n));
	ck_assert_uint_eq(n, 2);
	ck_assert(got[0] == 2 && got[1] == 3);
	free(got);
	ACL_OK(aclGetViewStrides(t, &got, &n));
	ck_assert(n == 2 && got[0] == 1 && got[1] == 2);
	free(got);
	ACL_OK(aclGetStorageShape(t, &got, &n));
	ck_assert(n == 1 && got[0] == 6);
	free(got);
	ACL_OK(aclGetViewOffset(t, &off));
	ck_assert_int_eq(off, 0);
	ACL_OK(aclGetDataType(t, &dt));
	ck_assert_int_eq(dt, ACL_FLOAT16);
	ACL_OK(aclGetFormat(t, &fmt));
	ck_assert_int_eq(fmt, ACL_FORMAT_ND);
	ACL_OK(aclGetRawTensorAddr(t, &addr));
	ck_assert_ptr_eq(addr, (void *)0x1000);
	ACL_OK(aclSetRawTensorAddr(t, (void *)0x2000));
	ACL_OK(aclGetRawTensorAddr(t, &addr));
	ck_assert_ptr_eq(addr, (void *)0x2000);
	/* NULL strides: row-major. */
	ACL_OK(aclInitTensor(t, dims, 2, ACL_INT32, NULL, 1, ACL_FORMAT_NCHW, storage, 1, NULL));
	ACL_OK(aclGetViewStrides(t, &got, &n));
	ck_assert(n == 2 && got[0] == 3 && got[1] == 1);
	free(got);
	ACL_OK(aclGetViewOffset(t, &off));
	ck_assert_int_eq(off, 1);
	ACL_OK(aclDestroyTensor(t));
}
END_TEST

START_TEST(object_errors_have_codes_and_messages)
{
	int64_t dims[] = { 2, -1 }, st[] = { 1, 1 };
	int vals[2] = { 0 };
	aclTensor *t;
	uint64_t n;

	ck_assert_ptr_null(aclCreateTensor(dims, 2, ACL_FLOAT, st, 0, ACL_FORMAT_ND, NULL, 0, NULL));
	ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "viewDims[1]"));
	ck_assert_ptr_null(aclCreateTensor(NULL, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, NULL));
	ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "viewDims is NULL"));
	ck_assert_ptr_null(aclCreateTensor(dims, 1, ACL_FLOAT, NULL, -1, ACL_FORMAT_ND, NULL, 0, NULL));
	ck_assert_ptr_null(aclCreateScalar(NULL, ACL_FLOAT));
	ck_assert_ptr_null(aclCreateScalar(vals, ACL_STRING));
	ck_assert_ptr_null(aclCreateIntArray(NULL, 3));
	ACL_ERR(ACLNN_ERR_PARAM_NULLPTR, aclGetViewOffset(NULL, NULL));
	ACL_ERR(ACLNN_ERR_PARAM_INVALID, aclGetViewOffset((aclTensor *)vals, (int64_t *)&n));
	ACL_ERR(ACLNN_ERR_PARAM_INVALID, aclDestroyTensor((aclTensor *)vals));
	ACL_ERR(ACLNN_ERR_PARAM_INVALID, aclGetIntArraySize((aclIntArray *)vals, &n));
	t = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, NULL);
	ck_assert_ptr_nonnull(t);
	{
		const aclTensor *twice[] = { t, t };

		ck_assert_ptr_null(aclCreateTensorList(twice, 2));
		ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "the same aclTensor"));
	}
	ACL_OK(aclDestroyTensor(t));
}
END_TEST

START_TEST(arrays_scalars_and_lists)
{
	int64_t iv[] = { 1, 2, 3 }, dims[] = { 4 };
	float fv[] = { 0.5f };
	bool bv[] = { true, false };
	double d = 2.5;
	int8_t i8 = -3;
	uint64_t n;
	aclIntArray *ia = aclCreateIntArray(iv, 3);
	aclFloatArray *fa = aclCreateFloatArray(fv, 1);
	aclBoolArray *ba = aclCreateBoolArray(bv, 2);
	aclScalar *s = aclCreateScalar(&d, ACL_DOUBLE), *s8 = aclCreateScalar(&i8, ACL_INT8);
	const aclTensor *ts[2];
	const aclScalar *ss[2] = { s, s8 };
	aclTensorList *tl;
	aclScalarList *sl;

	ck_assert(ia && fa && ba && s && s8);
	ACL_OK(aclGetIntArraySize(ia, &n));
	ck_assert_uint_eq(n, 3);
	ACL_OK(aclGetFloatArraySize(fa, &n));
	ck_assert_uint_eq(n, 1);
	ACL_OK(aclGetBoolArraySize(ba, &n));
	ck_assert_uint_eq(n, 2);
	ck_assert(nn_scalar_f64(s) == 2.5 && nn_scalar_i64(s8) == -3);
	ts[0] = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, NULL);
	ts[1] = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, NULL);
	tl = aclCreateTensorList(ts, 2);
	sl = aclCreateScalarList(ss, 2);
	ck_assert(tl && sl);
	ACL_OK(aclGetTensorListSize(tl, &n));
	ck_assert_uint_eq(n, 2);
	ACL_OK(aclGetScalarListSize(sl, &n));
	ck_assert_uint_eq(n, 2);
	/* One kind of list is not taken for the other (their elements
	 * differ: freeing scalars as tensors would corrupt memory). */
	ACL_ERR(ACLNN_ERR_PARAM_INVALID, aclDestroyTensorList((const aclTensorList *)(const void *)sl));
	ACL_ERR(ACLNN_ERR_PARAM_INVALID, aclDestroyScalarList((const aclScalarList *)(const void *)tl));
	ACL_ERR(ACLNN_ERR_PARAM_INVALID, aclGetTensorListSize((const aclTensorList *)(const void *)sl, &n));
	ACL_ERR(ACLNN_ERR_PARAM_INVALID, aclGetScalarListSize((const aclScalarList *)(const void *)tl, &n));
	/* The lists own their elements. */
	ACL_OK(aclDestroyTensorList(tl));
	ACL_OK(aclDestroyScalarList(sl));
	ACL_OK(aclDestroyIntArray(ia));
	ACL_OK(aclDestroyFloatArray(fa));
	ACL_OK(aclDestroyBoolArray(ba));
	ACL_OK(aclnnInit(NULL));
	ACL_ERR(ACLNN_ERR_PARAM_INVALID, aclnnInit("/nonexistent/aclnn.json"));
	ACL_OK(aclnnFinalize());
}
END_TEST

START_TEST(type_promotion_follows_pytorch)
{
	ck_assert_int_eq(nn_promote(ACL_FLOAT16, ACL_FLOAT), ACL_FLOAT);
	ck_assert_int_eq(nn_promote(ACL_FLOAT16, ACL_BF16), ACL_FLOAT);
	ck_assert_int_eq(nn_promote(ACL_INT32, ACL_FLOAT16), ACL_FLOAT16);
	ck_assert_int_eq(nn_promote(ACL_UINT8, ACL_INT8), ACL_INT16);
	ck_assert_int_eq(nn_promote(ACL_INT32, ACL_INT64), ACL_INT64);
	ck_assert_int_eq(nn_promote(ACL_BOOL, ACL_INT8), ACL_INT8);
	ck_assert_int_eq(nn_promote(ACL_BOOL, ACL_BOOL), ACL_BOOL);
	ck_assert_int_eq(nn_promote(ACL_STRING, ACL_FLOAT), ACL_DT_UNDEFINED);
	ck_assert_int_eq(nn_promote_scalar(ACL_INT32, ACL_DOUBLE), ACL_FLOAT);
	ck_assert_int_eq(nn_promote_scalar(ACL_FLOAT16, ACL_DOUBLE), ACL_FLOAT16);
	ck_assert_int_eq(nn_promote_scalar(ACL_INT8, ACL_INT64), ACL_INT8);
	ck_assert_int_eq(nn_promote_scalar(ACL_BOOL, ACL_INT32), ACL_INT64);
}
END_TEST

/* ---- executors through the builder -------------------------------------------------- */

/* An aclnn-style function over the builder: out = Relu(self) (+ @bias
 * scalar when not NULL), for the tests. */
static aclnnStatus relu_ws(const aclTensor *self, const aclScalar *bias, aclTensor *out, uint64_t *ws,
			   aclOpExecutor **ex)
{
	struct nn_exec *x = nn_begin("testRelu");
	nn_val a = nn_in(x, self, "self"), o = nn_out(x, out, "out"), r;

	r = nn_op1(x, "Relu", 1, &a, NULL, 0);
	if (bias) {
		nn_val in[2] = { r, nn_scalar(x, bias, nn_view(x, r)->dtype, "bias") };

		r = nn_op1(x, "Add", 2, in, NULL, 0);
	}
	nn_store(x, r, o);
	return nn_finish(x, ws, ex);
}

static aclnnStatus testRelu(void *ws, uint64_t size, aclOpExecutor *e, aclrtStream s)
{
	return nn_launch(ws, size, e, s, "testRelu");
}

static aclnnStatus testOther(void *ws, uint64_t size, aclOpExecutor *e, aclrtStream s)
{
	return nn_launch(ws, size, e, s, "testOther");
}

static double relu(double v)
{
	return v > 0 ? v : 0;
}

/* Run relu_ws on @in into @out and check out against relu(in) + bias. */
static void check_relu(struct nnt *in, struct nnt *out, const aclScalar *bias, double b)
{
	uint64_t ws, n = nnt_count(in), i;
	aclOpExecutor *ex;
	double *v = nnt_values(in);

	ck_assert_msg(!relu_ws(in->t, bias, out->t, &ws, &ex), "%s", acl_test_msg());
	ck_assert_msg(!nnt_launch(ws, ex, testRelu), "%s", acl_test_msg());
	for (i = 0; i < n; i++)
		v[i] = relu(v[i]) + b;
	nnt_expect(out, v, n, nnt_rtol(out->dtype), nnt_atol(out->dtype));
	free(v);
}

START_TEST(dense_views_write_in_place_and_cost_no_workspace)
{
	int64_t dims[] = { 4, 5 };
	struct nnt *in = nnt_new(ACL_FLOAT, 2, dims, -2, 2, 1), *out = nnt_zeros(ACL_FLOAT, 2, dims);
	uint64_t ws;
	aclOpExecutor *ex;

	ck_assert(!relu_ws(in->t, NULL, out->t, &ws, &ex));
	ck_assert_uint_eq(ws, 0);	/* Relu writes out directly */
	ck_assert(!nnt_launch(ws, ex, testRelu));
	check_relu(in, out, NULL, 0);
	nnt_free(in);
	nnt_free(out);
}
END_TEST

START_TEST(views_in_and_out)
{
	int64_t dims[] = { 3, 4 }, big[] = { 5, 6 };
	struct nnt *tin = nnt_new_transposed(ACL_FLOAT, 2, dims, -2, 2, 2);
	struct nnt *base = nnt_new(ACL_FLOAT, 2, big, -2, 2, 3), *store = nnt_new(ACL_FLOAT, 2, big, 5, 6, 4);
	int64_t sst[] = { 6, 1 }, tst[] = { 1, 6 }, bst[] = { 0, 1 }, bdims[] = { 3, 4 };
	/* A 3 x 4 window of a 5 x 6 tensor (offset 7), a transposed window
	 * of another, a broadcast row. */
	struct nnt *slice = nnt_view(base, 2, dims, sst, 7);
	struct nnt *tout = nnt_view(store, 2, dims, tst, 1);
	struct nnt *row = nnt_view(base, 2, bdims, bst, 2);
	void *before;

	nnt_sync_host(store);
	before = nnt_snapshot(store);
	check_relu(tin, tout, NULL, 0);		/* strided in, strided out */
	nnt_expect_untouched(tout, before);
	check_relu(slice, tout, NULL, 0);
	check_relu(row, tout, NULL, 0);
	free(before);
	nnt_free(slice);
	nnt_free(tout);
	nnt_free(row);
	nnt_free(tin);
	nnt_free(base);
	nnt_free(store);
}
END_TEST

START_TEST(aliased_input_and_output)
{
	int64_t dims[] = { 4, 4 }, st[] = { 4, 1 }, tst[] = { 1, 4 };
	struct nnt *t = nnt_new(ACL_FLOAT, 2, dims, -2, 2, 5);
	struct nnt *same = nnt_view(t, 2, dims, st, 0), *tr = nnt_view(t, 2, dims, tst, 0);
	double *v, *want;
	uint64_t i;
	aclScalar *one = nnt_scalar(ACL_FLOAT, 1);

	/* In place: out is the input itself. */
	check_relu(t, same, NULL, 0);
	/* Out is the transpose of the input's own storage: every input
	 * element must be read before any is written. */
	nnt_sync_host(t);
	v = nnt_values(t);
	want = malloc(16 * sizeof(*want));
	for (i = 0; i < 16; i++)
		want[i] = relu(v[i]) + 1;
	{
		uint64_t ws;
		aclOpExecutor *ex;

		ck_assert(!relu_ws(t->t, one, tr->t, &ws, &ex));
		ck_assert(!nnt_launch(ws, ex, testRelu));
	}
	nnt_expect(tr, want, 16, 1e-6, 1e-6);
	free(v);
	free(want);
	aclDestroyScalar(one);
	nnt_free(same);
	nnt_free(tr);
	nnt_free(t);
}
END_TEST

START_TEST(types_convert_on_the_way_out)
{
	int64_t dims[] = { 3, 5 };
	struct nnt *in = nnt_new(ACL_FLOAT, 2, dims, -4, 4, 6), *o16 = nnt_zeros(ACL_FLOAT16, 2, dims);
	struct nnt *o32 = nnt_zeros(ACL_INT32, 2, dims);
	aclScalar *half = nnt_scalar(ACL_DOUBLE, 0.5);

	check_relu(in, o16, NULL, 0);
	check_relu(in, o16, half, 0.5);
	{
		uint64_t n = nnt_count(in), i, ws;
		double *v = nnt_values(in);
		aclOpExecutor *ex;

		ck_assert(!relu_ws(in->t, NULL, o32->t, &ws, &ex));
		ck_assert(!nnt_launch(ws, ex, testRelu));
		for (i = 0; i < n; i++)
			v[i] = (double)(int32_t)relu(v[i]);	/* float to int truncates */
		nnt_expect(o32, v, n, 0, 0);
		free(v);
	}
	aclDestroyScalar(half);
	nnt_free(in);
	nnt_free(o16);
	nnt_free(o32);
}
END_TEST

START_TEST(launch_errors_have_codes_and_messages)
{
	int64_t dims[] = { 8 }, two[] = { 2, 4 };
	struct nnt *in = nnt_new(ACL_FLOAT, 1, dims, -1, 1, 7), *out = nnt_zeros(ACL_FLOAT16, 1, dims);
	struct nnt *bad = nnt_zeros(ACL_FLOAT, 2, two);
	aclScalar *b = nnt_scalar(ACL_FLOAT, 1);
	aclOpExecutor *ex;
	uint64_t ws;
	void *mem;

	/* Shapes, NULLs. */
	ck_assert_int_eq(relu_ws(in->t, NULL, bad->t, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
	ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "testRelu: out has shape [2, 4]"));
	ck_assert_int_eq(relu_ws(NULL, NULL, out->t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
	ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "self is NULL"));
	ck_assert_int_eq(relu_ws(in->t, NULL, out->t, NULL, &ex), ACLNN_ERR_PARAM_NULLPTR);
	ck_assert_int_eq(relu_ws(in->t, NULL, out->t, &ws, NULL), ACLNN_ERR_PARAM_NULLPTR);

	/* The workspace: a bias and a cast need some. */
	ck_assert(!relu_ws(in->t, b, out->t, &ws, &ex));
	ck_assert_uint_gt(ws, 0);
	ck_assert_int_eq(testRelu(NULL, ws, ex, nnt_stream()), ACLNN_ERR_PARAM_NULLPTR);
	ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "workspace is NULL"));
	/* That launch used the executor up. */
	ACL_OK(aclrtMalloc(&mem, ws, ACL_MEM_MALLOC_HUGE_FIRST));
	ck_assert_int_eq(testRelu(mem, ws, ex, nnt_stream()), ACLNN_ERR_PARAM_INVALID);
	ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "not a live executor"));
	ck_assert(!relu_ws(in->t, b, out->t, &ws, &ex));
	ck_assert_int_eq(testRelu(mem, ws - 1, ex, nnt_stream()), ACLNN_ERR_PARAM_INVALID);
	ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "is smaller than"));
	/* Another function's executor. */
	ck_assert(!relu_ws(in->t, b, out->t, &ws, &ex));
	ck_assert_int_eq(testOther(mem, ws, ex, nnt_stream()), ACLNN_ERR_PARAM_INVALID);
	ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "was made by testRelu"));
	/* Made-up handles. */
	ck_assert_int_eq(testRelu(mem, ws, (aclOpExecutor *)(uintptr_t)0x12345, nnt_stream()), ACLNN_ERR_PARAM_INVALID);
	ck_assert_int_eq(testRelu(mem, ws, NULL, nnt_stream()), ACLNN_ERR_PARAM_NULLPTR);
	ck_assert_int_eq(aclDestroyAclOpExecutor((aclOpExecutor *)(uintptr_t)0x12345), ACLNN_ERR_PARAM_INVALID);
	/* Memory that is not device memory. */
	{
		float host[8];
		int64_t st[] = { 1 };
		aclTensor *h = aclCreateTensor(dims, 1, ACL_FLOAT, st, 0, ACL_FORMAT_ND, dims, 1, host);

		ck_assert(!relu_ws(h, NULL, out->t, &ws, &ex));
		ck_assert_int_eq(nnt_launch(ws, ex, testRelu), ACLNN_ERR_PARAM_INVALID);
		ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "self"));
		aclDestroyTensor(h);
	}
	ACL_OK(aclrtFree(mem));
	aclDestroyScalar(b);
	nnt_free(in);
	nnt_free(out);
	nnt_free(bad);
}
END_TEST

START_TEST(a_repeatable_executor_takes_new_addresses_for_one_ioctl)
{
	int64_t dims[] = { 64 };
	struct nnt *a = nnt_new(ACL_FLOAT, 1, dims, -1, 1, 8), *b = nnt_new(ACL_FLOAT, 1, dims, -1, 1, 9);
	struct nnt *oa = nnt_zeros(ACL_FLOAT, 1, dims), *ob = nnt_zeros(ACL_FLOAT, 1, dims);
	aclScalar *bias = nnt_scalar(ACL_FLOAT, 2);
	aclOpExecutor *ex;
	uint64_t ws, i;
	double *v;
	void *mem;
	int k;

	ck_assert(!relu_ws(a->t, bias, oa->t, &ws, &ex));
	ACL_OK(aclSetAclOpExecutorRepeatable(ex));
	ACL_OK(aclrtMalloc(&mem, ws, ACL_MEM_MALLOC_HUGE_FIRST));
	for (k = 0; k < 3; k++) {
		ioctl_count_start();
		ck_assert_msg(!testRelu(mem, ws, ex, nnt_stream()), "%s", acl_test_msg());
		/* The first launch may create the kernel stream. */
		if (k)
			ck_assert_uint_eq(ioctl_count_stop(), 1);
		else
			ioctl_count_stop();
	}
	ACL_OK(aclSetInputTensorAddr(ex, 0, b->t, b->dev));
	ACL_OK(aclSetOutputTensorAddr(ex, 0, ob->t, ob->dev));
	ck_assert(!testRelu(mem, ws, ex, nnt_stream()));
	ACL_OK(aclrtSynchronizeStream(nnt_stream()));
	v = nnt_values(b);
	for (i = 0; i < 64; i++)
		v[i] = relu(v[i]) + 2;
	nnt_expect(ob, v, 64, 1e-6, 1e-6);
	free(v);
	ACL_ERR(ACLNN_ERR_PARAM_INVALID, aclSetInputTensorAddr(ex, 1, NULL, b->dev));
	ACL_OK(aclSetTensorAddr(ex, 1, NULL, oa->dev));	/* inputs then outputs */
	ACL_OK(aclDestroyAclOpExecutor(ex));
	ck_assert_int_eq(testRelu(mem, ws, ex, nnt_stream()), ACLNN_ERR_PARAM_INVALID);
	ACL_OK(aclrtFree(mem));
	aclDestroyScalar(bias);
	nnt_free(a);
	nnt_free(b);
	nnt_free(oa);
	nnt_free(ob);
}
END_TEST

START_TEST(empty_tensors_queue_nothing)
{
	int64_t dims[] = { 0, 3 };
	struct nnt *in = nnt_zeros(ACL_FLOAT, 2, dims), *out = nnt_zeros(ACL_FLOAT, 2, dims);
	aclOpExecutor *ex;
	uint64_t ws;

	nnt_stream();
	ck_assert(!relu_ws(in->t, NULL, out->t, &ws, &ex));
	ioctl_count_start();
	ck_assert(!testRelu(NULL, ws, ex, nnt_stream()));
	ck_assert_uint_eq(ioctl_count_stop(), 0);
	nnt_free(in);
	nnt_free(out);
}
END_TEST

/* Needs two devices (the aclnn_multidev suite boots with them); passes
 * trivially with one. */
START_TEST(a_stream_of_another_device_is_refused)
{
	int64_t dims[] = { 16 };
	struct nnt *in, *out;
	aclrtStream s1;
	aclOpExecutor *ex;
	uint32_t n = 0;
	uint64_t ws;
	aclnnStatus r;

	ACL_OK(aclrtGetDeviceCount(&n));
	if (n < 2)
		return;
	in = nnt_new(ACL_FLOAT, 1, dims, -1, 1, 10);
	out = nnt_zeros(ACL_FLOAT, 1, dims);
	ACL_OK(aclrtSetDevice(1));
	ACL_OK(aclrtCreateStream(&s1));
	ACL_OK(aclrtSetDevice(0));
	ck_assert(!relu_ws(in->t, NULL, out->t, &ws, &ex));
	r = testRelu(NULL, ws, ex, s1);
	ck_assert_msg(r == ACLNN_ERR_PARAM_INVALID, "launch on device 1's stream = %d (%s)", r, acl_test_msg());
	/* Planned on device 1, launched there, with device 0's memory. */
	ACL_OK(aclrtSetDevice(1));
	ck_assert(!relu_ws(in->t, NULL, out->t, &ws, &ex));
	r = testRelu(NULL, ws, ex, s1);
	ck_assert_msg(r == ACLNN_ERR_PARAM_INVALID, "device 0's memory on device 1 = %d (%s)", r, acl_test_msg());
	ACL_OK(aclrtDestroyStream(s1));
	ACL_OK(aclrtSetDevice(0));
	nnt_free(in);
	nnt_free(out);
}
END_TEST

/* A tensor list of new aclTensors over the views of @n (@k of them): the
 * list owns its tensors (as CANN's), the test keeps its own. */
static aclTensorList *list_of(struct nnt *const *n, int k)
{
	const aclTensor *ts[4];

	for (int i = 0; i < k; i++) {
		int64_t storage = (int64_t)n[i]->base->storage_elems;

		ts[i] = aclCreateTensor(n[i]->dims, (uint64_t)n[i]->ndim, n[i]->dtype, n[i]->strides, n[i]->offset,
					ACL_FORMAT_ND, &storage, 1, n[i]->base->dev);
	}
	return aclCreateTensorList(ts, (uint64_t)k);
}

/* Cat, Stack and Split store several parts: an input that overlaps the
 * output must still be read whole before any part is written. Here the
 * two halves of one storage swap places. */
START_TEST(multi_part_stores_read_every_input_first)
{
	int64_t d8[] = { 8 }, d4[] = { 4 }, d24[] = { 2, 4 }, one[] = { 1 }, row[] = { 4, 1 };
	struct nnt *t = nnt_new(ACL_FLOAT, 1, d8, -2, 2, 9);
	struct nnt *lo = nnt_view(t, 1, d4, one, 0), *hi = nnt_view(t, 1, d4, one, 4);
	struct nnt *all = nnt_view(t, 1, d8, one, 0), *mat = nnt_view(t, 2, d24, row, 0);
	double *v = nnt_values(t), want[8];
	aclTensorList *l;
	int i;

	for (i = 0; i < 8; i++)
		want[i] = v[(i + 4) % 8];
	l = list_of((struct nnt *[]){ hi, lo }, 2);
	NNT_RUN(aclnnCat, l, 0, all->t);
	nnt_expect(all, want, 8, 0, 0);
	aclDestroyTensorList(l);
	/* Stacked back: [[lo'], [hi']] from the swapped storage is the
	 * original order again. */
	l = list_of((struct nnt *[]){ hi, lo }, 2);
	NNT_RUN(aclnnStack, l, 0, mat->t);
	nnt_expect(mat, v, 8, 0, 0);
	aclDestroyTensorList(l);
	/* Split of the whole storage into its two halves, swapped. */
	l = list_of((struct nnt *[]){ hi, lo }, 2);
	{
		uint64_t ws;
		aclOpExecutor *ex;

		ck_assert(!aclnnSplitTensorGetWorkspaceSize(all->t, 4, 0, l, &ws, &ex));
		ck_assert(!nnt_launch(ws, ex, aclnnSplitTensor));
	}
	nnt_expect(all, want, 8, 0, 0);
	aclDestroyTensorList(l);
	free(v);
	nnt_free(lo);
	nnt_free(hi);
	nnt_free(all);
	nnt_free(mat);
	nnt_free(t);
}
END_TEST

/* Cumsum of the 3 x 4 matrix @x along @dim into @out, checked. */
static void cumsum_checked(struct nnt *x, int64_t dim, struct nnt *out)
{
	double *v = nnt_values(x), e[12];
	int i, j;

	NNT_RUN(aclnnCumsum, x->t, dim, ACL_FLOAT, out->t);
	for (i = 0; i < 3; i++)
		for (j = 0; j < 4; j++)
			e[i * 4 + j] = v[i * 4 + j] + (dim == 0 ? (i ? e[(i - 1) * 4 + j] : 0) : (j ? e[i * 4 + j - 1] : 0));
	nnt_expect(out, e, 12, 1e-5, 1e-6);
	free(v);
}

/* A repeated call takes the plan of the last one (nn_memo.c): planned
 * once, then nothing, while a different attribute or shape plans again
 * and computes its own result. */
START_TEST(warm_calls_reuse_plans_and_attributes_key_them)
{
	int64_t dims[] = { 3, 4 };
	struct nnt *x = nnt_new(ACL_FLOAT, 2, dims, -2, 2, 7), *out = nnt_zeros(ACL_FLOAT, 2, dims);
	struct nnt *xt = nnt_new_transposed(ACL_FLOAT, 2, dims, -2, 2, 8);
	uint64_t p0, p1;

	cumsum_checked(x, 0, out);
	p0 = nn_memo_plans();
	cumsum_checked(x, 0, out);
	cumsum_checked(x, 0, out);
	ck_assert_uint_eq(nn_memo_plans(), p0);
	cumsum_checked(x, 1, out);		/* another axis attribute */
	p1 = nn_memo_plans();
	ck_assert_uint_gt(p1, p0);
	cumsum_checked(x, 0, out);		/* both stay known */
	cumsum_checked(x, 1, out);
	ck_assert_uint_eq(nn_memo_plans(), p1);
	/* The same shape with other strides is another call. */
	cumsum_checked(xt, 0, out);
	ck_assert_uint_gt(nn_memo_plans(), p1);
	nnt_free(xt);
	nnt_free(x);
	nnt_free(out);
}
END_TEST

static Suite *base_suite(void)
{
	Suite *s = suite_create("aclnn_base");
	TCase *tc;

	tc = acl_tcase("objects", true, 60);
	tcase_add_test(tc, tensors_keep_their_view_and_storage);
	tcase_add_test(tc, object_errors_have_codes_and_messages);
	tcase_add_test(tc, arrays_scalars_and_lists);
	tcase_add_test(tc, type_promotion_follows_pytorch);
	suite_add_tcase(s, tc);

	tc = acl_tcase("executors", true, 120);
	tcase_add_test(tc, dense_views_write_in_place_and_cost_no_workspace);
	tcase_add_test(tc, views_in_and_out);
	tcase_add_test(tc, aliased_input_and_output);
	tcase_add_test(tc, types_convert_on_the_way_out);
	tcase_add_test(tc, launch_errors_have_codes_and_messages);
	tcase_add_test(tc, a_repeatable_executor_takes_new_addresses_for_one_ioctl);
	tcase_add_test(tc, empty_tensors_queue_nothing);
	tcase_add_test(tc, warm_calls_reuse_plans_and_attributes_key_them);
	tcase_add_test(tc, multi_part_stores_read_every_input_first);
	suite_add_tcase(s, tc);

	tc = acl_tcase("multidev", true, 60);
	tcase_add_test(tc, a_stream_of_another_device_is_refused);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return acl_test_run(base_suite());
}
