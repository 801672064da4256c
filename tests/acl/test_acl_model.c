// SPDX-License-Identifier: MIT
/*
 * ACL conformance: model execution (acl_mdl.h) on the device. Models are
 * built here as struct om_model, written with lib/om's om_write() and
 * loaded with aclmdlLoadFromMem: static Add/Relu/MatMul graphs against a
 * host reference; dynamic dimensions with a range (three shapes, one
 * outside); outputs the runtime allocates (aclmdlExecute, and
 * aclmdlExecuteAsync with a registered allocator); a counting caching
 * allocator (its calls are the plan's, and a warm execution is exactly one
 * SUBMIT and no POOL_BIND); an allocator that returns NULL or a foreign
 * address; gears; the user's work and weight memory; two streams; a file
 * truncated anywhere (ACL_ERROR_PARSE_MODEL); unknown model ids.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_mdl.h"
#include "acl_optest.h"
#include "acl_test.h"
#include "om_builder.h"
#include "vnpu_om.h"

#define MIB (1ul << 20)

/* ---- building models ------------------------------------------------------------ */

/* Room for values and nodes of the models built here (the test of a job
 * above the submit's task limit raises it). */
static uint32_t mb_cap = 64;

/* An input; a range makes the model dynamic. */
static uint32_t mb_input(struct omb *b, const char *name, int ndim, const int64_t *dims, const int64_t *range)
{
	if (range)
		b->m.dynamic_shape = true;
	return omb_input(b, name, ndim, dims, range);
}

/* Write the model, free it, return the .om bytes. */
static void *mb_write(struct omb *b, size_t *len)
{
	struct om_error e = { 0 };
	void *buf = NULL;

	ck_assert_msg(om_write(&b->m, &buf, len, &e) == OM_OK, "om_write: %s", e.msg);
	omb_free(b);
	return buf;
}

static uint32_t load(struct omb *b)
{
	size_t len;
	void *buf = mb_write(b, &len);
	uint32_t id = 0;

	ACL_OK(aclmdlLoadFromMem(buf, len, &id));
	free(buf);
	ck_assert_uint_ne(id, 0);
	return id;
}

/* ---- datasets ---------------------------------------------------------------------- */

static aclmdlDataset *dataset_of(int n, struct dtensor *const *t)
{
	aclmdlDataset *d = aclmdlCreateDataset();
	int i;

	ck_assert_ptr_nonnull(d);
	for (i = 0; i < n; i++)
		ACL_OK(aclmdlAddDatasetBuffer(d, t[i]->buf));
	return d;
}

static void dataset_free(aclmdlDataset *d)
{
	ACL_OK(aclmdlDestroyDataset(d));
}

/* ---- the models ------------------------------------------------------------------------- */

#define M 4
#define K 8
#define N 3

static float w_add[M * K], w_mm[K * N];

/* y = MatMul(Relu(Add(x, b)), W): x [4, 8], b [4, 8], W [8, 3]. */
static uint32_t load_mlp(void)
{
	const int64_t dx[2] = { M, K }, dw[2] = { K, N }, dy[2] = { M, N };
	struct omb b;
	uint32_t x, c1, c2, a, r, y, in2[2];
	int i;

	for (i = 0; i < M * K; i++)
		w_add[i] = (float)((i * 7) % 11) - 5.0f;
	for (i = 0; i < K * N; i++)
		w_mm[i] = (float)((i * 5) % 7) * 0.25f - 0.75f;
	omb_init(&b, "test_model", mb_cap, mb_cap);
	x = mb_input(&b, "x", 2, dx, NULL);
	c1 = omb_const(&b, "b", 2, dx, w_add);
	c2 = omb_const(&b, "W", 2, dw, w_mm);
	in2[0] = x;
	in2[1] = c1;
	a = omb_node(&b, "Add", 2, in2, 2, dx);
	r = omb_node(&b, "Relu", 1, &a, 2, dx);
	in2[0] = r;
	in2[1] = c2;
	y = omb_node(&b, "MatMul", 2, in2, 2, dy);
	omb_output(&b, y);
	return load(&b);
}

static void mlp_reference(const double *x, double *y)
{
	double h[M * K];
	int i, j, k;

	for (i = 0; i < M * K; i++)
		h[i] = fmax(0, x[i] + w_add[i]);
	for (i = 0; i < M; i++)
		for (j = 0; j < N; j++) {
			y[i * N + j] = 0;
			for (k = 0; k < K; k++)
				y[i * N + j] += h[i * K + k] * w_mm[k * N + j];
		}
}

/* A chain of @n Relu/Abs nodes over [rows, 256] floats, rows given as -1
 * with the range [1, 64] when @dynamic. */
static uint32_t load_chain(int n, bool dynamic, int64_t rows)
{
	const int64_t d[2] = { dynamic ? -1 : rows, 256 }, range[4] = { 1, 64, 256, 256 };
	struct omb b;
	uint32_t v;
	int i;

	omb_init(&b, "test_model", mb_cap, mb_cap);
	v = mb_input(&b, "x", 2, d, dynamic ? range : NULL);
	for (i = 0; i < n; i++)
		v = omb_node(&b, i % 2 ? "Abs" : "Relu", 1, &v, 2, d);
	omb_output(&b, v);
	return load(&b);
}

/* ---- tests -------------------------------------------------------------------------------- */

START_TEST(static_mlp_matches_the_cpu)
{
	const int64_t dx[2] = { M, K }, dy[2] = { M, N };
	struct dtensor *x = dt_new(ACL_FLOAT, 2, dx, 3, -5, 5), *y = dt_new(ACL_FLOAT, 2, dy, 0, 0, 0);
	aclmdlDataset *in = dataset_of(1, &x), *out = dataset_of(1, &y);
	uint32_t id = load_mlp();
	double want[M * N];
	aclmdlIODims dims;
	aclmdlDesc *desc;
	aclTensorDesc *t;

	ACL_OK(aclmdlExecute(id, in, out));
	dt_read(y);
	mlp_reference(x->host, want);
	dt_expect(y, want, 1);
	/* The produced shape is in the output dataset and the description. */
	t = aclmdlGetDatasetTensorDesc(out, 0);
	ck_assert_ptr_nonnull(t);
	ck_assert_uint_eq(aclGetTensorDescNumDims(t), 2);
	desc = aclmdlCreateDesc();
	ACL_OK(aclmdlGetDesc(desc, id));
	ck_assert_uint_eq(aclmdlGetNumInputs(desc), 1);
	ck_assert_uint_eq(aclmdlGetNumOutputs(desc), 1);
	ck_assert_uint_eq(aclmdlGetInputSizeByIndex(desc, 0), M * K * 4);
	ck_assert_uint_eq(aclmdlGetOutputSizeByIndex(desc, 0), M * N * 4);
	ck_assert_str_eq(aclmdlGetInputNameByIndex(desc, 0), "x");
	ck_assert_int_eq(aclmdlGetInputDataType(desc, 0), ACL_FLOAT);
	ck_assert_int_eq(aclmdlGetOutputFormat(desc, 0), ACL_FORMAT_ND);
	ACL_OK(aclmdlGetCurOutputDims(desc, 0, &dims));
	ck_assert_uint_eq(dims.dimCount, 2);
	ck_assert_int_eq(dims.dims[0], M);
	ck_assert_int_eq(dims.dims[1], N);
	ACL_OK(aclmdlDestroyDesc(desc));
	/* Again, asynchronously on a stream. */
	{
		aclrtStream s;

		ACL_OK(aclrtCreateStream(&s));
		ACL_OK(aclrtMemset(y->dev, y->bytes, 0, y->bytes));
		ACL_OK(aclmdlExecuteAsync(id, in, out, s));
		ACL_OK(aclrtSynchronizeStream(s));
		dt_read(y);
		dt_expect(y, want, 1);
		/* Warm, with the runtime's arena: one ioctl, the SUBMIT. */
		ioctl_count_start();
		ACL_OK(aclmdlExecuteAsync(id, in, out, s));
		ck_assert_uint_eq(ioctl_count_stop(), 1);
		ck_assert_uint_eq(ioctl_count(NR_SUBMIT), 1);
		ACL_OK(aclrtSynchronizeStream(s));
		ACL_OK(aclrtDestroyStream(s));
	}
	ACL_OK(aclmdlUnload(id));
	dataset_free(in);
	dataset_free(out);
	dt_free(x);
	dt_free(y);
}
END_TEST

START_TEST(dynamic_rows_three_shapes_and_one_outside)
{
	static const int64_t rows[3] = { 1, 17, 64 };
	uint32_t id = load_chain(3, true, 0);
	aclrtStream s;
	int r;

	/* What a description says of dimensions decided at execution. */
	{
		aclmdlDesc *desc = aclmdlCreateDesc();
		aclmdlIODimsRange range;
		aclmdlIODims dims;
		size_t work, weight;

		ACL_OK(aclmdlGetDesc(desc, id));
		ck_assert_uint_eq(aclmdlGetInputSizeByIndex(desc, 0), 0);
		ACL_OK(aclmdlGetInputDims(desc, 0, &dims));
		ck_assert_int_eq(dims.dims[0], -1);
		ck_assert_int_eq(dims.dims[1], 256);
		ACL_OK(aclmdlGetInputDimsRange(desc, 0, &range));
		ck_assert_uint_eq(range.rangeCount, 2);
		ck_assert_int_eq(range.range[0][0], 1);
		ck_assert_int_eq(range.range[0][1], 64);
		ck_assert_int_eq(range.range[1][0], 256);
		ck_assert_int_eq(range.range[1][1], 256);
		ACL_OK(aclmdlDestroyDesc(desc));
		(void)work;
		(void)weight;
	}
	ACL_OK(aclrtCreateStream(&s));
	for (r = 0; r < 3; r++) {
		const int64_t d[2] = { rows[r], 256 };
		struct dtensor *x = dt_new(ACL_FLOAT, 2, d, 5u + (unsigned)r, -3, 3);
		struct dtensor *y = dt_new(ACL_FLOAT, 2, d, 0, 0, 0);
		aclmdlDataset *in = dataset_of(1, &x), *out = dataset_of(1, &y);
		aclTensorDesc *t = aclCreateTensorDesc(ACL_FLOAT, 2, d, ACL_FORMAT_ND);
		double *want = malloc(x->count * sizeof(double));
		size_t i;

		ACL_OK(aclmdlSetDatasetTensorDesc(in, t, 0));
		aclDestroyTensorDesc(t);
		ACL_OK(aclmdlExecuteAsync(id, in, out, s));
		/* The output's shape is known as soon as the call returns. */
		t = aclmdlGetDatasetTensorDesc(out, 0);
		ck_assert_ptr_nonnull(t);
		{
			int64_t d0 = 0;

			ACL_OK(aclGetTensorDescDimV2(t, 0, &d0));
			ck_assert_int_eq(d0, rows[r]);
		}
		ACL_OK(aclrtSynchronizeStream(s));
		dt_read(y);
		for (i = 0; i < x->count; i++)
			want[i] = fmax(0, x->host[i]);	/* Relu, Abs, Relu */
		dt_expect(y, want, 1);
		free(want);
		dataset_free(in);
		dataset_free(out);
		dt_free(x);
		dt_free(y);
	}
	{
		const int64_t d[2] = { 65, 256 };
		struct dtensor *x = dt_new(ACL_FLOAT, 2, d, 1, -3, 3), *y = dt_new(ACL_FLOAT, 2, d, 0, 0, 0);
		aclmdlDataset *in = dataset_of(1, &x), *out = dataset_of(1, &y);
		aclTensorDesc *t = aclCreateTensorDesc(ACL_FLOAT, 2, d, ACL_FORMAT_ND);
		const char *m;

		/* Not given at all, then outside the range. */
		ck_assert_int_eq(aclmdlExecuteAsync(id, in, out, s), ACL_ERROR_INVALID_PARAM);
		ACL_OK(aclmdlSetDatasetTensorDesc(in, t, 0));
		aclDestroyTensorDesc(t);
		ck_assert_int_eq(aclmdlExecuteAsync(id, in, out, s), ACL_ERROR_INVALID_PARAM);
		m = aclGetRecentErrMsg();
		ck_assert_ptr_nonnull(m);
		ck_assert_msg(strstr(m, "input 0 (x): dimension 0 is 65, outside its range [1, 64]"), "%s", m);
		dataset_free(in);
		dataset_free(out);
		dt_free(x);
		dt_free(y);
	}
	ACL_OK(aclrtDestroyStream(s));
	ACL_OK(aclmdlUnload(id));
}
END_TEST

START_TEST(execute_allocates_null_outputs)
{
	const int64_t dx[2] = { M, K };
	struct dtensor *x = dt_new(ACL_FLOAT, 2, dx, 9, -5, 5);
	aclmdlDataset *in = dataset_of(1, &x), *out = aclmdlCreateDataset();
	aclDataBuffer *yb = aclCreateDataBuffer(NULL, 0);
	uint32_t id = load_mlp();
	double want[M * N];
	float got[M * N];
	int i;

	ACL_OK(aclmdlAddDatasetBuffer(out, yb));
	ACL_OK(aclmdlExecute(id, in, out));
	ck_assert_ptr_nonnull(aclGetDataBufferAddr(yb));
	ck_assert_uint_eq(aclGetDataBufferSizeV2(yb), sizeof(got));
	ACL_OK(aclrtMemcpy(got, sizeof(got), aclGetDataBufferAddr(yb), sizeof(got), ACL_MEMCPY_DEVICE_TO_HOST));
	mlp_reference(x->host, want);
	for (i = 0; i < M * N; i++)
		ck_assert_double_eq_tol(got[i], want[i], 1e-3 * (fabs(want[i]) + 1));
	/* The caller frees it, as CANN says. */
	ACL_OK(aclrtFree(aclGetDataBufferAddr(yb)));
	ACL_OK(aclUpdateDataBuffer(yb, NULL, 0));
	ACL_OK(aclDestroyDataBuffer(yb));
	ACL_OK(aclmdlUnload(id));
	dataset_free(in);
	dataset_free(out);
	dt_free(x);
}
END_TEST

/* A chain of 8 nodes with a caching allocator: 7 intermediates (and the
 * output when its buffer is NULL) from it; at most three blocks live at
 * once; warm: one SUBMIT, no POOL_BIND. */
START_TEST(allocator_serves_the_plan_warm_is_one_submit)
{
	const int64_t d[2] = { 16, 256 };
	struct dtensor *x = dt_new(ACL_FLOAT, 2, d, 4, -2, 2), *y = dt_new(ACL_FLOAT, 2, d, 0, 0, 0);
	aclmdlDataset *in = dataset_of(1, &x), *out = dataset_of(1, &y);
	uint32_t id = load_chain(8, false, 16);
	struct test_alloc ta;
	double *want = malloc(x->count * sizeof(double));
	aclrtStream s;
	size_t i;

	ACL_OK(aclrtCreateStream(&s));
	ta_init(&ta, MIB, 3);
	ta_register(&ta, s);
	ACL_OK(aclmdlExecuteAsync(id, in, out, s));
	ck_assert_uint_eq(atomic_load(&ta.allocs), 7);
	ck_assert_uint_eq(atomic_load(&ta.frees), 7);
	ck_assert_uint_eq(atomic_load(&ta.live), 0);
	ck_assert_uint_eq(atomic_load(&ta.outside_pool), 0);
	ACL_OK(aclrtSynchronizeStream(s));
	dt_read(y);
	for (i = 0; i < x->count; i++)
		want[i] = fmax(0, x->host[i]);
	dt_expect(y, want, 1);

	ioctl_count_start();
	ACL_OK(aclmdlExecuteAsync(id, in, out, s));
	ck_assert_uint_eq(ioctl_count_stop(), 1);	/* the SUBMIT, nothing else */
	ck_assert_uint_eq(ioctl_count(NR_SUBMIT), 1);
	ck_assert_uint_eq(ioctl_count(NR_POOL_BIND), 0);
	ck_assert_uint_eq(atomic_load(&ta.allocs), 14);
	ACL_OK(aclrtSynchronizeStream(s));

	/* A NULL output: a block too, kept until its buffer is updated. */
	{
		aclmdlDataset *o2 = aclmdlCreateDataset();
		aclDataBuffer *yb = aclCreateDataBuffer(NULL, 0);

		ACL_OK(aclmdlAddDatasetBuffer(o2, yb));
		ACL_OK(aclmdlExecuteAsync(id, in, o2, s));
		ck_assert_uint_eq(atomic_load(&ta.live), 1);
		ck_assert_ptr_nonnull(aclGetDataBufferAddr(yb));
		ACL_OK(aclrtSynchronizeStream(s));
		ACL_OK(aclUpdateDataBuffer(yb, NULL, 0));
		ck_assert_uint_eq(atomic_load(&ta.live), 0);
		ACL_OK(aclDestroyDataBuffer(yb));
		dataset_free(o2);
	}
	/* A NULL output's block not given back by the caller: at unload. */
	{
		aclmdlDataset *o2 = aclmdlCreateDataset();
		aclDataBuffer *yb = aclCreateDataBuffer(NULL, 0);
		uint32_t id2 = load_chain(2, false, 16);

		ACL_OK(aclmdlAddDatasetBuffer(o2, yb));
		ACL_OK(aclmdlExecuteAsync(id2, in, o2, s));
		ck_assert_uint_eq(atomic_load(&ta.live), 1);
		ACL_OK(aclmdlUnload(id2));
		ck_assert_uint_eq(atomic_load(&ta.live), 0);
		ACL_OK(aclDestroyDataBuffer(yb));	/* frees nothing twice */
		ck_assert_uint_eq(atomic_load(&ta.live), 0);
		dataset_free(o2);
	}
	/* Execute never calls it. */
	{
		unsigned int before = atomic_load(&ta.allocs);

		ACL_OK(aclmdlExecute(id, in, out));
		ck_assert_uint_eq(atomic_load(&ta.allocs), before);
	}
	ACL_OK(aclmdlUnload(id));
	ACL_OK(aclrtAllocatorUnregister(s));
	ACL_OK(aclrtDestroyStream(s));
	ta_fini(&ta);
	free(want);
	dataset_free(in);
	dataset_free(out);
	dt_free(x);
	dt_free(y);
}
END_TEST

START_TEST(allocator_failures_queue_nothing_and_free_everything)
{
	const int64_t d[2] = { 16, 256 };
	struct dtensor *x = dt_new(ACL_FLOAT, 2, d, 4, -2, 2), *y = dt_new(ACL_FLOAT, 2, d, 0, 0, 0);
	aclmdlDataset *in = dataset_of(1, &x), *out = dataset_of(1, &y);
	uint32_t id = load_chain(4, false, 16);
	struct test_alloc ta;
	aclrtStream s;

	ACL_OK(aclrtCreateStream(&s));
	ta_init(&ta, MIB, 1);	/* one slot: the second live block fails */
	ta_register(&ta, s);
	ioctl_count_start();
	ACL_ERR(ACL_ERROR_BAD_ALLOC, aclmdlExecuteAsync(id, in, out, s));
	ioctl_count_stop();
	ck_assert_uint_eq(ioctl_count(NR_SUBMIT), 0);
	ck_assert_uint_eq(atomic_load(&ta.live), 0);
	ACL_OK(aclrtAllocatorUnregister(s));
	ta_fini(&ta);

	ta_init(&ta, MIB, 3);
	ta.addr_mode = ADDR_HOST;
	ta.spare = malloc(MIB);
	ta_register(&ta, s);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlExecuteAsync(id, in, out, s));
	ck_assert_uint_eq(atomic_load(&ta.live), 0);
	ACL_OK(aclrtAllocatorUnregister(s));
	free(ta.spare);
	ta_fini(&ta);

	ACL_OK(aclrtDestroyStream(s));
	ACL_OK(aclmdlUnload(id));
	dataset_free(in);
	dataset_free(out);
	dt_free(x);
	dt_free(y);
}
END_TEST

START_TEST(batch_gears)
{
	const int64_t d[2] = { -1, 32 }, g[1] = { 1 };
	struct omb b;
	uint32_t x, v, id;
	aclmdlDesc *desc;
	aclmdlBatch batch;
	size_t gi;

	omb_init(&b, "test_model", mb_cap, mb_cap);
	x = mb_input(&b, "x", 2, d, NULL);
	v = omb_node(&b, "Relu", 1, &x, 2, d);
	omb_output(&b, v);
	b.m.dynamic = OM_DYNAMIC_BATCH;
	b.m.ngears = 3;
	b.m.gear_len = 1;
	b.m.gears = malloc(3 * sizeof(int64_t));
	b.m.gears[0] = 1;
	b.m.gears[1] = 2;
	b.m.gears[2] = 4;
	x = mb_input(&b, OM_DYNAMIC_TENSOR_NAME, 1, g, NULL);
	b.m.values[x].dtype = ACL_INT64;
	id = load(&b);

	desc = aclmdlCreateDesc();
	ACL_OK(aclmdlGetDesc(desc, id));
	ACL_OK(aclmdlGetDynamicBatch(desc, &batch));
	ck_assert_uint_eq(batch.batchCount, 3);
	ck_assert_uint_eq(batch.batch[2], 4);
	ck_assert_uint_eq(aclmdlGetInputSizeByIndex(desc, 0), 4 * 32 * 4);	/* the largest gear */
	ACL_OK(aclmdlGetInputIndexByName(desc, ACL_DYNAMIC_TENSOR_NAME, &gi));
	ck_assert_uint_eq(gi, 1);
	{
		const int64_t dx[2] = { 2, 32 };
		struct dtensor *t[1] = { dt_new(ACL_FLOAT, 2, dx, 2, -1, 1) };
		struct dtensor *y = dt_new(ACL_FLOAT, 2, dx, 0, 0, 0);
		aclmdlDataset *in, *out;
		double want[64];
		void *gbuf;
		aclDataBuffer *gb;
		aclmdlIODims cur;
		int i;

		/* The gear tensor holds int64 values: its own buffer. */
		ACL_OK(aclrtMalloc(&gbuf, 8, ACL_MEM_MALLOC_HUGE_FIRST));
		gb = aclCreateDataBuffer(gbuf, 8);
		in = aclmdlCreateDataset();
		ACL_OK(aclmdlAddDatasetBuffer(in, t[0]->buf));
		ACL_OK(aclmdlAddDatasetBuffer(in, gb));
		out = dataset_of(1, &y);
		ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlSetDynamicBatchSize(id, in, gi, 3));
		ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlSetDynamicBatchSize(id, in, 0, 2));
		ACL_OK(aclmdlSetDynamicBatchSize(id, in, gi, 2));
		ACL_OK(aclmdlExecute(id, in, out));
		dt_read(y);
		for (i = 0; i < 64; i++)
			want[i] = fmax(0, t[0]->host[i]);
		dt_expect(y, want, 1);
		ACL_OK(aclmdlGetCurOutputDims(desc, 0, &cur));
		ck_assert_int_eq(cur.dims[0], 2);
		{
			int64_t written = 0;

			ACL_OK(aclrtMemcpy(&written, 8, gbuf, 8, ACL_MEMCPY_DEVICE_TO_HOST));
			ck_assert_int_eq(written, 2);
		}
		dataset_free(in);
		dataset_free(out);
		ACL_OK(aclDestroyDataBuffer(gb));
		ACL_OK(aclrtFree(gbuf));
		dt_free(t[0]);
		dt_free(y);
	}
	ACL_OK(aclmdlDestroyDesc(desc));
	ACL_OK(aclmdlUnload(id));
}
END_TEST

START_TEST(user_work_and_weight_memory)
{
	const int64_t dx[2] = { M, K }, dy[2] = { M, N };
	struct dtensor *x = dt_new(ACL_FLOAT, 2, dx, 3, -5, 5), *y = dt_new(ACL_FLOAT, 2, dy, 0, 0, 0);
	aclmdlDataset *in = dataset_of(1, &x), *out = dataset_of(1, &y);
	const int64_t dw[2] = { K, N };
	size_t len, work = 0, weight = 0;
	struct omb b;
	uint32_t xv, c1, c2, a, r, yv, in2[2], id;
	void *buf, *wp, *wk;
	double want[M * N];

	load_mlp();	/* fills the weights' values */
	omb_init(&b, "test_model", mb_cap, mb_cap);
	xv = mb_input(&b, "x", 2, dx, NULL);
	c1 = omb_const(&b, "b", 2, dx, w_add);
	c2 = omb_const(&b, "W", 2, dw, w_mm);
	in2[0] = xv;
	in2[1] = c1;
	a = omb_node(&b, "Add", 2, in2, 2, dx);
	r = omb_node(&b, "Relu", 1, &a, 2, dx);
	in2[0] = r;
	in2[1] = c2;
	yv = omb_node(&b, "MatMul", 2, in2, 2, dy);
	omb_output(&b, yv);
	buf = mb_write(&b, &len);
	ACL_OK(aclmdlQuerySizeFromMem(buf, len, &work, &weight));
	ck_assert_uint_eq(weight, 128 + K * N * 4);
	ck_assert_uint_ge(work, 2 * M * K * 4);
	ck_assert_uint_lt(work, 3 * 256);
	ACL_OK(aclrtMalloc(&wp, weight, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtMalloc(&wk, work, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlLoadFromMemWithMem(buf, len, &id, wk, work - 1, wp, weight));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlLoadFromMemWithMem(buf, len, &id, wk, work, wp, weight - 1));
	ACL_OK(aclmdlLoadFromMemWithMem(buf, len, &id, wk, work, wp, weight));
	ACL_OK(aclmdlExecute(id, in, out));
	dt_read(y);
	mlp_reference(x->host, want);
	dt_expect(y, want, 1);
	ACL_OK(aclmdlUnload(id));
	ACL_OK(aclrtFree(wp));
	ACL_OK(aclrtFree(wk));
	free(buf);
	dataset_free(in);
	dataset_free(out);
	dt_free(x);
	dt_free(y);
}
END_TEST

/* Executions of one model on two streams, back to back: the second waits
 * for the first on the device, both right. */
START_TEST(two_streams_are_serialized)
{
	const int64_t d[2] = { 64, 256 };
	uint32_t id = load_chain(6, false, 64);
	struct dtensor *x = dt_new(ACL_FLOAT, 2, d, 4, -2, 2);
	struct dtensor *y1 = dt_new(ACL_FLOAT, 2, d, 0, 0, 0), *y2 = dt_new(ACL_FLOAT, 2, d, 0, 0, 0);
	aclmdlDataset *in = dataset_of(1, &x), *o1 = dataset_of(1, &y1), *o2 = dataset_of(1, &y2);
	double *want = malloc(x->count * sizeof(double));
	aclrtStream s1, s2;
	int i;
	size_t j;

	ACL_OK(aclrtCreateStream(&s1));
	ACL_OK(aclrtCreateStream(&s2));
	for (i = 0; i < 5; i++) {
		ACL_OK(aclmdlExecuteAsync(id, in, o1, s1));
		ACL_OK(aclmdlExecuteAsync(id, in, o2, s2));
	}
	ACL_OK(aclrtSynchronizeStream(s2));
	ACL_OK(aclrtSynchronizeStream(s1));
	dt_read(y1);
	dt_read(y2);
	for (j = 0; j < x->count; j++)
		want[j] = fmax(0, x->host[j]);
	dt_expect(y1, want, 1);
	dt_expect(y2, want, 1);
	ACL_OK(aclmdlUnload(id));
	ACL_OK(aclrtDestroyStream(s1));
	ACL_OK(aclrtDestroyStream(s2));
	free(want);
	dataset_free(in);
	dataset_free(o1);
	dataset_free(o2);
	dt_free(x);
	dt_free(y1);
	dt_free(y2);
}
END_TEST

/*
 * One caching allocator registered on two streams: S1's execution waits at
 * a gate, S2's, of another model, gets the same blocks (S1's were all given
 * back when its job was laid out) while S1's job still needs them: the kernel
 * finds the workspace hazard and S2 waits for S1 (the default policy),
 * counted in the pool's hazard counters. Both results are right.
 */
START_TEST(one_allocator_two_streams_hazard_serialized)
{
	const int64_t d[2] = { 16, 256 };
	struct dtensor *x = dt_new(ACL_FLOAT, 2, d, 5, -2, 2);
	struct dtensor *y1 = dt_new(ACL_FLOAT, 2, d, 0, 0, 0), *y2 = dt_new(ACL_FLOAT, 2, d, 0, 0, 0);
	aclmdlDataset *in = dataset_of(1, &x), *o1 = dataset_of(1, &y1), *o2 = dataset_of(1, &y2);
	uint32_t a = load_chain(4, false, 16), b = load_chain(4, false, 16);
	struct drm_vnpu_pool_stats before, after;
	double *want = malloc(x->count * sizeof(double));
	struct acl_gate gate;
	struct test_alloc ta;
	aclrtStreamStatus st;
	aclrtStream s1, s2;
	size_t i;

	acl_gate_init(&gate);
	ta_init(&ta, MIB, 3);	/* first free slot first: B gets A's blocks */
	ACL_OK(aclrtCreateStream(&s1));
	ACL_OK(aclrtCreateStream(&s2));
	ta_register(&ta, s1);
	ta_register(&ta, s2);
	acl_gate_block(&gate, s1, 1);
	ACL_OK(aclmdlExecuteAsync(a, in, o1, s1));
	before = pool_stats(0);
	ACL_OK(aclmdlExecuteAsync(b, in, o2, s2));
	after = pool_stats(0);
	ck_assert_uint_ge(after.hazards_serialized - before.hazards_serialized, 1);
	ck_assert_uint_eq(after.hazards_rejected, before.hazards_rejected);
	acl_test_sleep_ms(200);
	ACL_OK(aclrtStreamQuery(s2, &st));
	ck_assert_int_eq(st, ACL_STREAM_STATUS_NOT_READY);
	acl_gate_open(&gate, 1);
	ACL_OK(aclrtSynchronizeStream(s1));
	ACL_OK(aclrtSynchronizeStream(s2));
	dt_read(y1);
	dt_read(y2);
	for (i = 0; i < x->count; i++)
		want[i] = fmax(0, x->host[i]);
	dt_expect(y1, want, 1);
	dt_expect(y2, want, 1);
	ck_assert_uint_eq(atomic_load(&ta.frees), atomic_load(&ta.allocs));
	ACL_OK(aclrtAllocatorUnregister(s1));
	ACL_OK(aclrtAllocatorUnregister(s2));
	ACL_OK(aclmdlUnload(a));
	ACL_OK(aclmdlUnload(b));
	ACL_OK(aclrtDestroyStream(s1));
	ACL_OK(aclrtDestroyStream(s2));
	ta_fini(&ta);
	acl_gate_fini(&gate);
	free(want);
	dataset_free(in);
	dataset_free(o1);
	dataset_free(o2);
	dt_free(x);
	dt_free(y1);
	dt_free(y2);
}
END_TEST

/* An output that is the input itself: a copy. */
START_TEST(outputs_that_are_inputs_are_copied)
{
	const int64_t d[1] = { 100 };
	struct omb b;
	uint32_t x, r, id;
	struct dtensor *xt = dt_new(ACL_FLOAT, 1, d, 8, -4, 4);
	struct dtensor *y[2] = { dt_new(ACL_FLOAT, 1, d, 0, 0, 0), dt_new(ACL_FLOAT, 1, d, 0, 0, 0) };
	aclmdlDataset *in, *out;
	double want[100];
	int i;

	omb_init(&b, "test_model", mb_cap, mb_cap);
	x = mb_input(&b, "x", 1, d, NULL);
	r = omb_node(&b, "Relu", 1, &x, 1, d);
	omb_output(&b, r);
	omb_output(&b, x);
	id = load(&b);
	in = dataset_of(1, &xt);
	out = dataset_of(2, y);
	ACL_OK(aclmdlExecute(id, in, out));
	dt_read(y[0]);
	dt_read(y[1]);
	for (i = 0; i < 100; i++)
		want[i] = fmax(0, xt->host[i]);
	dt_expect(y[0], want, 1);
	dt_expect(y[1], xt->host, 1);
	ACL_OK(aclmdlUnload(id));
	dataset_free(in);
	dataset_free(out);
	dt_free(xt);
	dt_free(y[0]);
	dt_free(y[1]);
}
END_TEST

START_TEST(truncated_models_do_not_parse)
{
	const int64_t dx[2] = { M, K }, dw[2] = { K, N }, dy[2] = { M, N };
	struct omb b;
	uint32_t x, c, y, in2[2], id;
	size_t len, cut;
	unsigned char *buf;

	omb_init(&b, "test_model", mb_cap, mb_cap);
	x = mb_input(&b, "x", 2, dx, NULL);
	c = omb_const(&b, "W", 2, dw, w_mm);
	in2[0] = x;
	in2[1] = c;
	y = omb_node(&b, "MatMul", 2, in2, 2, dy);
	omb_output(&b, y);
	buf = mb_write(&b, &len);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlLoadFromMem(buf, 0, &id));
	/* Every length short of the whole (the header, the partition table
	 * and each partition's boundaries among them). */
	for (cut = 1; cut < len; cut++)
		ACL_ERR(ACL_ERROR_PARSE_MODEL, aclmdlLoadFromMem(buf, cut, &id));
	ACL_ERR(ACL_ERROR_PARSE_MODEL, aclmdlLoadFromMem(buf, len - 1, &id));
	{
		size_t work, weight;

		ACL_ERR(ACL_ERROR_PARSE_MODEL, aclmdlQuerySizeFromMem(buf, 256, &work, &weight));
	}
	ACL_OK(aclmdlLoadFromMem(buf, len, &id));
	ACL_OK(aclmdlUnload(id));
	/* A description without loading: no current output dims. */
	{
		aclmdlDesc *desc = aclmdlCreateDesc();
		aclmdlIODims dims;

		ACL_ERR(ACL_ERROR_PARSE_MODEL, aclmdlGetDescFromMem(desc, buf, len / 2));
		ACL_OK(aclmdlGetDescFromMem(desc, buf, len));
		ck_assert_uint_eq(aclmdlGetNumInputs(desc), 1);
		ck_assert_uint_eq(aclmdlGetOutputSizeByIndex(desc, 0), M * N * 4);
		ACL_OK(aclmdlGetOutputDims(desc, 0, &dims));
		ck_assert_int_eq(dims.dims[1], N);
		ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlGetCurOutputDims(desc, 0, &dims));
		ACL_OK(aclmdlDestroyDesc(desc));
	}
	free(buf);
	ACL_ERR(ACL_ERROR_READ_MODEL_FAILURE, aclmdlLoadFromFile("/nonexistent/model.om", &id));
}
END_TEST

START_TEST(unknown_model_ids)
{
	aclmdlDataset *d = aclmdlCreateDataset();
	aclmdlDesc *desc = aclmdlCreateDesc();
	aclmdlAttrValue_t v;
	uint32_t id = load_chain(1, false, 2);

	ACL_OK(aclmdlUnload(id));
	ACL_ERR(ACL_ERROR_INVALID_MODEL_ID, aclmdlUnload(id));
	ACL_ERR(ACL_ERROR_INVALID_MODEL_ID, aclmdlExecute(id, d, d));
	ACL_ERR(ACL_ERROR_INVALID_MODEL_ID, aclmdlExecuteAsync(12345, d, d, NULL));
	ACL_ERR(ACL_ERROR_INVALID_MODEL_ID, aclmdlGetDesc(desc, 12345));
	ACL_ERR(ACL_ERROR_INVALID_MODEL_ID, aclmdlSetDynamicBatchSize(12345, d, 0, 1));
	ACL_ERR(ACL_ERROR_INVALID_MODEL_ID, aclmdlGetAttribute(12345, ACL_MDL_ATTR_PRIORITY_INT32, &v));
	ACL_ERR(ACL_ERROR_INVALID_MODEL_ID, aclmdlUnload(0));
	ACL_OK(aclmdlDestroyDesc(desc));
	dataset_free(d);
}
END_TEST

START_TEST(unsupported_features_say_so)
{
	uint32_t id;
	aclmdlConfigHandle *h = aclmdlCreateConfigHandle();
	size_t t = ACL_MDL_LOAD_FROM_FILE_WITH_Q;

	ck_assert_ptr_null(aclmdlCreateAIPP(1));
	ACL_ERR(ACL_ERROR_FEATURE_UNSUPPORTED, aclmdlLoadFromMemWithQ("x", 1, &id, NULL, 0, NULL, 0));
	ACL_ERR(ACL_ERROR_FEATURE_UNSUPPORTED, aclmdlBundleLoadFromMem("x", 1, &id));
	ACL_ERR(ACL_ERROR_FEATURE_UNSUPPORTED, aclmdlSetExternalWeightAddress(h, "w", NULL, 0));
	ACL_OK(aclmdlSetConfigOpt(h, ACL_MDL_LOAD_TYPE_SIZET, &t, sizeof(t)));
	ACL_ERR(ACL_ERROR_FEATURE_UNSUPPORTED, aclmdlLoadWithConfig(h, &id));
	ACL_OK(aclmdlDestroyConfigHandle(h));
}
END_TEST

START_TEST(load_with_config_from_memory)
{
	const int64_t d[1] = { 10 };
	struct omb b;
	uint32_t x, r, id;
	aclmdlConfigHandle *h = aclmdlCreateConfigHandle();
	size_t len, t = ACL_MDL_LOAD_FROM_MEM;
	void *buf;
	aclmdlAttrValue_t v;

	omb_init(&b, "test_model", mb_cap, mb_cap);
	x = mb_input(&b, "x", 1, d, NULL);
	r = omb_node(&b, "Relu", 1, &x, 1, d);
	omb_output(&b, r);
	buf = mb_write(&b, &len);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlLoadWithConfig(h, &id));
	ACL_OK(aclmdlSetConfigOpt(h, ACL_MDL_LOAD_TYPE_SIZET, &t, sizeof(t)));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlLoadWithConfig(h, &id));
	ACL_OK(aclmdlSetConfigOpt(h, ACL_MDL_MEM_ADDR_PTR, &buf, sizeof(buf)));
	ACL_OK(aclmdlSetConfigOpt(h, ACL_MDL_MEM_SIZET, &len, sizeof(len)));
	{
		int32_t prio = 3;

		ACL_OK(aclmdlSetConfigOpt(h, ACL_MDL_PRIORITY_INT32, &prio, sizeof(prio)));
	}
	ACL_OK(aclmdlLoadWithConfig(h, &id));
	ACL_OK(aclmdlGetAttribute(id, ACL_MDL_ATTR_PRIORITY_INT32, &v));
	ck_assert_uint_eq(v.mdlPriority, 3);
	ACL_OK(aclmdlUnload(id));
	ACL_OK(aclmdlDestroyConfigHandle(h));
	free(buf);
}
END_TEST

/* A graph beyond one submit's task limit: split into several, in order. */
START_TEST(huge_graphs_split_into_several_submits)
{
	const int64_t d[1] = { 8 };
	struct dtensor *x = dt_new(ACL_FLOAT, 1, d, 6, -3, 3), *y = dt_new(ACL_FLOAT, 1, d, 0, 0, 0);
	aclmdlDataset *in = dataset_of(1, &x), *out = dataset_of(1, &y);
	struct omb b;
	double want[8];
	uint32_t v, id;
	unsigned long submits;
	int i;

	mb_cap = VNPU_MAX_TASKS_PER_SUBMIT + 200;
	omb_init(&b, "test_model", mb_cap, mb_cap);
	v = mb_input(&b, "x", 1, d, NULL);
	for (i = 0; i < VNPU_MAX_TASKS_PER_SUBMIT + 100; i++)
		v = omb_node(&b, "Relu", 1, &v, 1, d);
	omb_output(&b, v);
	id = load(&b);
	ioctl_count_start();
	ACL_OK(aclmdlExecute(id, in, out));
	ioctl_count_stop();
	submits = ioctl_count(NR_SUBMIT);
	ck_assert_uint_ge(submits, 2);
	ck_assert_uint_le(submits, 4);
	dt_read(y);
	for (i = 0; i < 8; i++)
		want[i] = fmax(0, x->host[i]);
	dt_expect(y, want, 1);
	ACL_OK(aclmdlUnload(id));
	dataset_free(in);
	dataset_free(out);
	dt_free(x);
	dt_free(y);
}
END_TEST

static Suite *model_suite(void)
{
	Suite *s = suite_create("acl_model");
	TCase *tc = acl_tcase("model", true, 60);

	tcase_add_test(tc, static_mlp_matches_the_cpu);
	tcase_add_test(tc, dynamic_rows_three_shapes_and_one_outside);
	tcase_add_test(tc, execute_allocates_null_outputs);
	tcase_add_test(tc, allocator_serves_the_plan_warm_is_one_submit);
	tcase_add_test(tc, allocator_failures_queue_nothing_and_free_everything);
	tcase_add_test(tc, batch_gears);
	tcase_add_test(tc, user_work_and_weight_memory);
	tcase_add_test(tc, two_streams_are_serialized);
	tcase_add_test(tc, one_allocator_two_streams_hazard_serialized);
	tcase_add_test(tc, outputs_that_are_inputs_are_copied);
	tcase_add_test(tc, truncated_models_do_not_parse);
	tcase_add_test(tc, unknown_model_ids);
	tcase_add_test(tc, unsupported_features_say_so);
	tcase_add_test(tc, load_with_config_from_memory);
	tcase_add_test(tc, huge_graphs_split_into_several_submits);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return acl_test_run(model_suite());
}
