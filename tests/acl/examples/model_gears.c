// SPDX-License-Identifier: MIT
/*
 * A CANN-style sample in plain C11: offline models converted with gears
 * ("profiles") -- a fixed list of shapes the model may run at, one chosen
 * before each execution through the extra input ACL_DYNAMIC_TENSOR_NAME.
 *
 * The models were converted beforehand (tests/acl/examples/model_run.sh),
 * from tests/onnx/models.h's cnn and cnn_hw:
 *   cnn_batch: --input_shape="x:-1,1,8,8" --dynamic_batch_size="1,2,4"
 *   cnn_hw:    --input_shape="x:1,1,-1,-1" --dynamic_image_size="8,8;16,16"
 *   cnn_dims:  --input_shape="x:1,1,-1,-1" --dynamic_dims="8,8;16,16;8,16"
 *              --input_format=ND
 *
 * For each, as CANN's samples do: aclmdlLoadFromFile, aclmdlGetDesc; the
 * gears' input found with aclmdlGetInputIndexByName(ACL_DYNAMIC_TENSOR_NAME)
 * and given a buffer of aclmdlGetInputSizeByIndex bytes; the data input and
 * the output given buffers of the largest gear (aclmdlGetInputSizeByIndex,
 * aclmdlGetOutputSizeByIndex); the gears listed (aclmdlGetDynamicBatch,
 * aclmdlGetDynamicHW, aclmdlGetInputDynamicGearCount +
 * aclmdlGetInputDynamicDims); then for every gear aclmdlSetDynamicBatchSize
 * / aclmdlSetDynamicHWSize / aclmdlSetInputDynamicDims, aclmdlExecute, the
 * output's shape from aclmdlGetCurOutputDims and the result compared with
 * the CPU (1e-4 relative). A shape that is no gear must be refused.
 *
 * usage: model_gears CNN_BATCH_OM CNN_HW_OM CNN_DIMS_OM
 * Prints a PASS or FAIL line per check and exits 0 only if all pass.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/acl_mdl.h"

#include "../../onnx/models.h"

#define INFO_LOG(...) (printf("[INFO]  " __VA_ARGS__), printf("\n"))
#define ERROR_LOG(...) (printf("[ERROR] " __VA_ARGS__), printf("\n"))

#define CHECK(call)                                                                         \
	do {                                                                                \
		aclError r_ = (call);                                                       \
		if (r_ != ACL_SUCCESS) {                                                    \
			const char *m_ = aclGetRecentErrMsg();                              \
			ERROR_LOG("%s failed: %d (%s)", #call, r_, m_ ? m_ : "no message"); \
			exit(1);                                                            \
		}                                                                           \
	} while (0)

static unsigned int passed, failed;

static bool expect(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static bool expect(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s ", ok ? "PASS" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (ok)
		passed++;
	else
		failed++;
	return ok;
}

static const char *recent_msg(void)
{
	const char *m = aclGetRecentErrMsg();

	return m && *m ? m : "no message";
}

static struct mdl_cnn cnn_w;
static struct mdl_hw hw_w;

/*
 * A gear model loaded, with its buffers: the data input and the output
 * sized for the largest gear, the gears' input of its own size.
 */
struct gear_model {
	const char *name;
	uint32_t id;
	aclmdlDesc *desc;
	size_t dyn_index;
	size_t x_size, out_size, dyn_size;
	void *dev_x, *dev_dyn, *dev_y;
	aclmdlDataset *in, *out;
};

static void gm_load(struct gear_model *g, const char *name, const char *path, size_t want_x, size_t want_out)
{
	aclError ret;

	memset(g, 0, sizeof(*g));
	g->name = name;
	CHECK(aclmdlLoadFromFile(path, &g->id));
	g->desc = aclmdlCreateDesc();
	if (!g->desc) {
		ERROR_LOG("aclmdlCreateDesc failed");
		exit(1);
	}
	CHECK(aclmdlGetDesc(g->desc, g->id));
	INFO_LOG("%s: loaded %s as model %u: %zu input(s), %zu output(s)", name, path, g->id,
		 aclmdlGetNumInputs(g->desc), aclmdlGetNumOutputs(g->desc));
	expect(aclmdlGetNumInputs(g->desc) == 2 && aclmdlGetNumOutputs(g->desc) == 1,
	       "%s: two inputs (x and the gears'), one output", name);
	ret = aclmdlGetInputIndexByName(g->desc, ACL_DYNAMIC_TENSOR_NAME, &g->dyn_index);
	if (!expect(ret == ACL_SUCCESS && g->dyn_index == 1, "%s: input %s is input %zu (the last)", name,
		    ACL_DYNAMIC_TENSOR_NAME, g->dyn_index)) {
		ERROR_LOG("%s: no gears' input (%d: %s)", name, ret, recent_msg());
		exit(1);
	}
	g->x_size = aclmdlGetInputSizeByIndex(g->desc, 0);
	g->dyn_size = aclmdlGetInputSizeByIndex(g->desc, g->dyn_index);
	g->out_size = aclmdlGetOutputSizeByIndex(g->desc, 0);
	expect(g->x_size == want_x && g->out_size == want_out && g->dyn_size > 0,
	       "%s: sizes of the largest gear: x %zu bytes (want %zu), y %zu (want %zu); the gears' input %zu", name,
	       g->x_size, want_x, g->out_size, want_out, g->dyn_size);
	if (!g->x_size || !g->out_size || !g->dyn_size)
		exit(1);

	CHECK(aclrtMalloc(&g->dev_x, g->x_size, ACL_MEM_MALLOC_NORMAL_ONLY));
	CHECK(aclrtMalloc(&g->dev_dyn, g->dyn_size, ACL_MEM_MALLOC_NORMAL_ONLY));
	CHECK(aclrtMalloc(&g->dev_y, g->out_size, ACL_MEM_MALLOC_NORMAL_ONLY));
	g->in = aclmdlCreateDataset();
	g->out = aclmdlCreateDataset();
	if (!g->in || !g->out) {
		ERROR_LOG("aclmdlCreateDataset failed");
		exit(1);
	}
	/* In the model's input order: x, then the gears' input. */
	CHECK(aclmdlAddDatasetBuffer(g->in, aclCreateDataBuffer(g->dev_x, g->x_size)));
	CHECK(aclmdlAddDatasetBuffer(g->in, aclCreateDataBuffer(g->dev_dyn, g->dyn_size)));
	CHECK(aclmdlAddDatasetBuffer(g->out, aclCreateDataBuffer(g->dev_y, g->out_size)));
}

static void destroy_dataset(aclmdlDataset *d)
{
	size_t i;

	for (i = 0; i < aclmdlGetDatasetNumBuffers(d); i++)
		CHECK(aclDestroyDataBuffer(aclmdlGetDatasetBuffer(d, i)));
	CHECK(aclmdlDestroyDataset(d));
}

static void gm_unload(struct gear_model *g)
{
	destroy_dataset(g->in);
	destroy_dataset(g->out);
	CHECK(aclrtFree(g->dev_x));
	CHECK(aclrtFree(g->dev_dyn));
	CHECK(aclrtFree(g->dev_y));
	CHECK(aclmdlDestroyDesc(g->desc));
	CHECK(aclmdlUnload(g->id));
}

/*
 * Execute @g (its gear already set) with input x @x (@x_count floats at the
 * start of the largest gear's buffer) and compare the @y_count first output
 * values with @want; the current output dims must be @ndim @dims.
 */
static void gm_execute(struct gear_model *g, const char *label, const float *x, size_t x_count,
		       const double *want, size_t y_count, int ndim, const int64_t *dims)
{
	float *y = malloc(g->out_size);
	aclmdlIODims cur;
	aclError ret;
	bool ok;
	int k;

	if (!y) {
		ERROR_LOG("out of memory");
		exit(1);
	}
	CHECK(aclrtMemset(g->dev_x, g->x_size, 0, g->x_size));
	CHECK(aclrtMemcpy(g->dev_x, g->x_size, x, x_count * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE));
	ret = aclmdlExecute(g->id, g->in, g->out);
	if (!expect(ret == ACL_SUCCESS, "%s: aclmdlExecute (%d)%s%s", label, ret, ret ? ": " : "",
		    ret ? recent_msg() : "")) {
		free(y);
		return;
	}
	memset(&cur, 0, sizeof(cur));
	ok = aclmdlGetCurOutputDims(g->desc, 0, &cur) == ACL_SUCCESS && cur.dimCount == (size_t)ndim;
	for (k = 0; ok && k < ndim; k++)
		ok = cur.dims[k] == dims[k];
	expect(ok, "%s: aclmdlGetCurOutputDims gives the gear's output shape (%zu dims, dim 0 = %lld)", label,
	       cur.dimCount, (long long)cur.dims[0]);
	CHECK(aclrtMemcpy(y, g->out_size, g->dev_y, y_count * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST));
	expect(mdl_max_error(y, want, y_count) <= MDL_TOLERANCE, "%s: results match the CPU (max relative error %.1e)",
	       label, mdl_max_error(y, want, y_count));
	free(y);
}

/* ---- --dynamic_batch_size ------------------------------------------------------------- */

static void batch_gears(const char *path)
{
	static const uint64_t gears[] = { 1, 2, 4 };
	const size_t row = MDL_CNN_HW * MDL_CNN_HW;
	struct gear_model g;
	aclmdlBatch batch;
	aclmdlIODims dims;
	aclmdlIODimsRange range;
	float x[4 * MDL_CNN_HW * MDL_CNN_HW];
	double want[4 * MDL_CNN_OUT];
	aclError ret;
	size_t i;
	bool ok;

	gm_load(&g, "cnn_batch", path, 4 * row * sizeof(float), 4 * MDL_CNN_OUT * sizeof(float));
	memset(&batch, 0, sizeof(batch));
	ok = aclmdlGetDynamicBatch(g.desc, &batch) == ACL_SUCCESS && batch.batchCount == 3;
	for (i = 0; ok && i < 3; i++)
		ok = batch.batch[i] == gears[i];
	expect(ok, "cnn_batch: aclmdlGetDynamicBatch lists %zu gears: %llu %llu %llu", batch.batchCount,
	       (unsigned long long)batch.batch[0], (unsigned long long)batch.batch[1],
	       (unsigned long long)batch.batch[2]);
	memset(&dims, 0, sizeof(dims));
	expect(aclmdlGetInputDims(g.desc, 0, &dims) == ACL_SUCCESS && dims.dimCount == 4 && dims.dims[0] == -1 &&
		       dims.dims[1] == 1 && dims.dims[2] == MDL_CNN_HW && dims.dims[3] == MDL_CNN_HW,
	       "cnn_batch: input dims [%lld,%lld,%lld,%lld]", (long long)dims.dims[0], (long long)dims.dims[1],
	       (long long)dims.dims[2], (long long)dims.dims[3]);
	/* A gear model has no range (CANN: rangeCount 0). */
	memset(&range, 0, sizeof(range));
	expect(aclmdlGetInputDimsRange(g.desc, 0, &range) == ACL_SUCCESS && range.rangeCount == 0,
	       "cnn_batch: aclmdlGetInputDimsRange gives rangeCount 0 (%zu)", range.rangeCount);

	for (i = 0; i < 3; i++) {
		const int64_t n = (int64_t)gears[i], ydims[] = { n, MDL_CNN_OUT };
		char label[64];

		snprintf(label, sizeof(label), "cnn_batch gear %lld", (long long)n);
		ret = aclmdlSetDynamicBatchSize(g.id, g.in, g.dyn_index, gears[i]);
		if (!expect(ret == ACL_SUCCESS, "%s: aclmdlSetDynamicBatchSize (%d)", label, ret))
			continue;
		mdl_input(x, (size_t)n * row, (uint32_t)(10 + n));
		mdl_cnn_ref(&cnn_w, x, (size_t)n, want);
		gm_execute(&g, label, x, (size_t)n * row, want, (size_t)n * MDL_CNN_OUT, 2, ydims);
	}
	ret = aclmdlSetDynamicBatchSize(g.id, g.in, g.dyn_index, 3);
	expect(ret != ACL_SUCCESS, "cnn_batch: batch 3 is no gear: refused (%d: %s)", ret, recent_msg());
	gm_unload(&g);
}

/* ---- --dynamic_image_size ------------------------------------------------------------- */

/* x [1, 1, h, w] from the salt, and the reference y [1, 2, h, w]. */
static void hw_data(float *x, double *want, int64_t h, int64_t w)
{
	mdl_input(x, (size_t)(h * w), (uint32_t)(100 + h * 17 + w));
	mdl_hw_ref(&hw_w, x, (size_t)h, (size_t)w, want);
}

static void hw_gears(const char *path)
{
	static const uint64_t gears[][2] = { { 8, 8 }, { 16, 16 } };
	struct gear_model g;
	aclmdlHW hw;
	float x[16 * 16];
	double want[MDL_HW_C * 16 * 16];
	aclError ret;
	size_t i;
	bool ok;

	gm_load(&g, "cnn_hw", path, 16 * 16 * sizeof(float), MDL_HW_C * 16 * 16 * sizeof(float));
	memset(&hw, 0, sizeof(hw));
	ok = aclmdlGetDynamicHW(g.desc, (size_t)-1, &hw) == ACL_SUCCESS && hw.hwCount == 2;
	for (i = 0; ok && i < 2; i++)
		ok = hw.hw[i][0] == gears[i][0] && hw.hw[i][1] == gears[i][1];
	expect(ok, "cnn_hw: aclmdlGetDynamicHW lists %zu gears: %llux%llu %llux%llu", hw.hwCount,
	       (unsigned long long)hw.hw[0][0], (unsigned long long)hw.hw[0][1], (unsigned long long)hw.hw[1][0],
	       (unsigned long long)hw.hw[1][1]);
	for (i = 0; i < 2; i++) {
		const int64_t h = (int64_t)gears[i][0], w = (int64_t)gears[i][1];
		const int64_t ydims[] = { 1, MDL_HW_C, h, w };
		char label[64];

		snprintf(label, sizeof(label), "cnn_hw gear %lldx%lld", (long long)h, (long long)w);
		ret = aclmdlSetDynamicHWSize(g.id, g.in, g.dyn_index, gears[i][0], gears[i][1]);
		if (!expect(ret == ACL_SUCCESS, "%s: aclmdlSetDynamicHWSize (%d)", label, ret))
			continue;
		hw_data(x, want, h, w);
		gm_execute(&g, label, x, (size_t)(h * w), want, (size_t)(MDL_HW_C * h * w), 4, ydims);
	}
	ret = aclmdlSetDynamicHWSize(g.id, g.in, g.dyn_index, 8, 16);
	expect(ret != ACL_SUCCESS, "cnn_hw: 8x16 is no gear: refused (%d: %s)", ret, recent_msg());
	gm_unload(&g);
}

/* ---- --dynamic_dims --------------------------------------------------------------------- */

static void dims_gears(const char *path)
{
	static const int64_t gears[][2] = { { 8, 8 }, { 16, 16 }, { 8, 16 } };
	struct gear_model g;
	aclmdlIODims dims[3], bad;
	size_t count = 0, i;
	float x[16 * 16];
	double want[MDL_HW_C * 16 * 16];
	aclError ret;
	bool ok;

	gm_load(&g, "cnn_dims", path, 16 * 16 * sizeof(float), MDL_HW_C * 16 * 16 * sizeof(float));
	ret = aclmdlGetInputDynamicGearCount(g.desc, (size_t)-1, &count);
	if (!expect(ret == ACL_SUCCESS && count == 3, "cnn_dims: aclmdlGetInputDynamicGearCount gives %zu gears (%d)",
		    count, ret)) {
		gm_unload(&g);
		return;
	}
	memset(dims, 0, sizeof(dims));
	ok = aclmdlGetInputDynamicDims(g.desc, (size_t)-1, dims, count) == ACL_SUCCESS;
	/* Each gear: every dimension of every data input, in order (x: 1, 1, h, w). */
	for (i = 0; ok && i < 3; i++)
		ok = dims[i].dimCount == 4 && dims[i].dims[0] == 1 && dims[i].dims[1] == 1 &&
		     dims[i].dims[2] == gears[i][0] && dims[i].dims[3] == gears[i][1];
	expect(ok, "cnn_dims: aclmdlGetInputDynamicDims: [1,1,%lld,%lld] [1,1,%lld,%lld] [1,1,%lld,%lld]",
	       (long long)dims[0].dims[2], (long long)dims[0].dims[3], (long long)dims[1].dims[2],
	       (long long)dims[1].dims[3], (long long)dims[2].dims[2], (long long)dims[2].dims[3]);
	for (i = 0; i < 3; i++) {
		const int64_t h = gears[i][0], w = gears[i][1], ydims[] = { 1, MDL_HW_C, h, w };
		aclmdlIODims set;
		char label[64];

		/* As CANN's documentation fills it: the gear's dims of every input, name unused. */
		memset(&set, 0, sizeof(set));
		set.dimCount = 4;
		set.dims[0] = 1;
		set.dims[1] = 1;
		set.dims[2] = h;
		set.dims[3] = w;
		snprintf(label, sizeof(label), "cnn_dims gear %lldx%lld", (long long)h, (long long)w);
		ret = aclmdlSetInputDynamicDims(g.id, g.in, g.dyn_index, &set);
		if (!expect(ret == ACL_SUCCESS, "%s: aclmdlSetInputDynamicDims (%d)", label, ret))
			continue;
		hw_data(x, want, h, w);
		gm_execute(&g, label, x, (size_t)(h * w), want, (size_t)(MDL_HW_C * h * w), 4, ydims);
	}
	memset(&bad, 0, sizeof(bad));
	bad.dimCount = 4;
	bad.dims[0] = 1;
	bad.dims[1] = 1;
	bad.dims[2] = 16;
	bad.dims[3] = 8;
	ret = aclmdlSetInputDynamicDims(g.id, g.in, g.dyn_index, &bad);
	expect(ret != ACL_SUCCESS, "cnn_dims: [1,1,16,8] is no gear: refused (%d: %s)", ret, recent_msg());
	gm_unload(&g);
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: model_gears CNN_BATCH_OM CNN_HW_OM CNN_DIMS_OM\n");
		return 2;
	}
	mdl_cnn_init(&cnn_w);
	mdl_hw_init(&hw_w);
	CHECK(aclInit(NULL));
	CHECK(aclrtSetDevice(0));

	batch_gears(argv[1]);
	hw_gears(argv[2]);
	dims_gears(argv[3]);

	CHECK(aclrtResetDevice(0));
	CHECK(aclFinalize());
	if (failed) {
		printf("FAIL: %u of %u checks failed\n", failed, passed + failed);
		return 1;
	}
	printf("PASS: all %u checks\n", passed);
	return 0;
}
