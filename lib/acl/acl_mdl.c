// SPDX-License-Identifier: MIT
/*
 * acl_mdl.c - model execution (acl_mdl.h): loading, descriptions,
 * datasets, gears, execution and the configuration handles. The model
 * itself is lib/rt's (rt_model.h); this file checks arguments and keeps the
 * ACL objects.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_mdl.h"
#include "acl_internal.h"
#include "rt_model.h"
#include "rt_op.h"

#define RT_MDLCFG_MAGIC 0x564e4d43u	/* "VNMC" */
#define RT_MDLEXEC_MAGIC 0x564e4d45u	/* "VNME" */

struct aclmdlConfigHandle {
	uint32_t magic;
	int32_t priority;
	size_t load_type;
	char *path;
	const void *mem;
	size_t mem_size;
	void *weight;
	size_t weight_size;
	void *work;
	size_t work_size;
	bool has_load_type;
};

struct aclmdlExecConfigHandle {
	uint32_t magic;
	int32_t stream_timeout, event_timeout;
	void *work;
	size_t work_size;
	int32_t priority;
};

/* ---- loading ------------------------------------------------------------------ */

static aclError load_mem(const void *model, size_t size, uint32_t *id, void *work, size_t work_size, void *weight,
			 size_t weight_size, uint32_t priority)
{
	struct om_model *om;
	aclError err;

	ACL_REQUIRE(model);
	ACL_REQUIRE(id);
	if (!size)
		return rt_err(ACL_ERROR_INVALID_PARAM, "modelSize must not be 0");
	err = rt_model_parse(model, size, &om);
	if (err)
		return err;
	return rt_model_load(om, work, work_size, weight, weight_size, priority, id);
}

static aclError load_file(const char *path, uint32_t *id, void *work, size_t work_size, void *weight,
			  size_t weight_size, uint32_t priority)
{
	size_t len;
	void *buf;
	aclError err;

	ACL_REQUIRE(path);
	ACL_REQUIRE(id);
	err = rt_model_read_file(path, &buf, &len);
	if (err)
		return err;
	err = load_mem(buf, len, id, work, work_size, weight, weight_size, priority);
	free(buf);
	return err;
}

aclError aclmdlLoadFromFile(const char *modelPath, uint32_t *modelId)
{
	ACL_ENTER();
	return load_file(modelPath, modelId, NULL, 0, NULL, 0, 0);
}

aclError aclmdlLoadFromMem(const void *model, size_t modelSize, uint32_t *modelId)
{
	ACL_ENTER();
	return load_mem(model, modelSize, modelId, NULL, 0, NULL, 0, 0);
}

aclError aclmdlLoadFromFileWithMem(const char *modelPath, uint32_t *modelId, void *workPtr, size_t workSize,
				   void *weightPtr, size_t weightSize)
{
	ACL_ENTER();
	return load_file(modelPath, modelId, workPtr, workSize, weightPtr, weightSize, 0);
}

aclError aclmdlLoadFromMemWithMem(const void *model, size_t modelSize, uint32_t *modelId, void *workPtr,
				  size_t workSize, void *weightPtr, size_t weightSize)
{
	ACL_ENTER();
	return load_mem(model, modelSize, modelId, workPtr, workSize, weightPtr, weightSize, 0);
}

aclError aclmdlLoadFromFileWithQ(const char *modelPath, uint32_t *modelId, const uint32_t *inputQ, size_t inputQNum,
				 const uint32_t *outputQ, size_t outputQNum)
{
	ACL_ENTER();
	(void)modelPath, (void)modelId, (void)inputQ, (void)inputQNum, (void)outputQ, (void)outputQNum;
	return rt_err(ACL_ERROR_FEATURE_UNSUPPORTED, "vnpu has no data queues: load without queues");
}

aclError aclmdlLoadFromMemWithQ(const void *model, size_t modelSize, uint32_t *modelId, const uint32_t *inputQ,
				size_t inputQNum, const uint32_t *outputQ, size_t outputQNum)
{
	ACL_ENTER();
	(void)model, (void)modelSize, (void)modelId, (void)inputQ, (void)inputQNum, (void)outputQ, (void)outputQNum;
	return rt_err(ACL_ERROR_FEATURE_UNSUPPORTED, "vnpu has no data queues: load without queues");
}

aclError aclmdlUnload(uint32_t modelId)
{
	ACL_ENTER();
	return rt_model_unload(modelId);
}

aclError aclmdlSetAttribute(uint32_t modelId, aclmdlAttr attr, aclmdlAttrValue_t *attrValue)
{
	struct rt_model *m;
	aclError err;

	ACL_ENTER();
	ACL_REQUIRE(attrValue);
	if (attr != ACL_MDL_ATTR_PRIORITY_INT32)
		return rt_err(ACL_ERROR_INVALID_PARAM, "attr %d is not an aclmdlAttr", (int)attr);
	if (attrValue->mdlPriority > 7)
		return rt_err(ACL_ERROR_INVALID_PARAM, "model priority %u is outside [0, 7]", attrValue->mdlPriority);
	err = rt_model_lookup(modelId, &m);
	if (err)
		return err;
	pthread_mutex_lock(&m->lock);
	m->priority = attrValue->mdlPriority;
	pthread_mutex_unlock(&m->lock);
	rt_model_put(m);
	return ACL_SUCCESS;
}

aclError aclmdlGetAttribute(uint32_t modelId, aclmdlAttr attr, aclmdlAttrValue_t *attrValue)
{
	struct rt_model *m;
	aclError err;

	ACL_ENTER();
	ACL_REQUIRE(attrValue);
	if (attr != ACL_MDL_ATTR_PRIORITY_INT32)
		return rt_err(ACL_ERROR_INVALID_PARAM, "attr %d is not an aclmdlAttr", (int)attr);
	err = rt_model_lookup(modelId, &m);
	if (err)
		return err;
	memset(attrValue, 0, sizeof(*attrValue));
	pthread_mutex_lock(&m->lock);
	attrValue->mdlPriority = m->priority;
	pthread_mutex_unlock(&m->lock);
	rt_model_put(m);
	return ACL_SUCCESS;
}

/* ---- sizes ------------------------------------------------------------------------ */

static aclError query_mem(const void *model, size_t size, size_t *work, size_t *weight)
{
	struct om_model *om;
	aclError err;

	ACL_REQUIRE(model);
	if (!size)
		return rt_err(ACL_ERROR_INVALID_PARAM, "modelSize must not be 0");
	err = rt_model_parse(model, size, &om);
	if (err)
		return err;
	err = rt_model_query_size(om, work, weight);
	om_model_free(om);
	return err;
}

static aclError query_file(const char *path, size_t *work, size_t *weight)
{
	size_t len;
	void *buf;
	aclError err;

	ACL_REQUIRE(path);
	err = rt_model_read_file(path, &buf, &len);
	if (err)
		return err;
	err = query_mem(buf, len, work, weight);
	free(buf);
	return err;
}

aclError aclmdlQuerySize(const char *fileName, size_t *workSize, size_t *weightSize)
{
	ACL_ENTER();
	ACL_REQUIRE(workSize);
	ACL_REQUIRE(weightSize);
	return query_file(fileName, workSize, weightSize);
}

aclError aclmdlQuerySizeFromMem(const void *model, size_t modelSize, size_t *workSize, size_t *weightSize)
{
	ACL_ENTER();
	ACL_REQUIRE(workSize);
	ACL_REQUIRE(weightSize);
	return query_mem(model, modelSize, workSize, weightSize);
}

/* vnpu's work memory holds no model inputs or outputs either way. */
static aclError check_mode(size_t mode)
{
	if (mode != ACL_WORKSPACE_MEM_OPTIMIZE_DEFAULT && mode != ACL_WORKSPACE_MEM_OPTIMIZE_INPUTOUTPUT)
		return rt_err(ACL_ERROR_INVALID_PARAM, "memOptimizeMode %zu is neither 0 nor 1", mode);
	return ACL_SUCCESS;
}

aclError aclmdlQueryWorkspaceSize(const char *fileName, size_t memOptimizeMode, size_t *workSize)
{
	ACL_ENTER();
	ACL_REQUIRE(workSize);
	if (check_mode(memOptimizeMode))
		return ACL_ERROR_INVALID_PARAM;
	return query_file(fileName, workSize, NULL);
}

aclError aclmdlQueryWorkspaceSizeFromMem(const void *model, size_t modelSize, size_t memOptimizeMode,
					 size_t *workSize)
{
	ACL_ENTER();
	ACL_REQUIRE(workSize);
	if (check_mode(memOptimizeMode))
		return ACL_ERROR_INVALID_PARAM;
	return query_mem(model, modelSize, workSize, NULL);
}

aclError aclmdlQueryExeOMDesc(const char *fileName, aclmdlExeOMDesc *mdlPartitionSize)
{
	size_t work = 0, weight = 0;
	aclError err;

	ACL_ENTER();
	ACL_REQUIRE(mdlPartitionSize);
	err = query_file(fileName, &work, &weight);
	if (err)
		return err;
	/* vnpu's .om has no kernels, task descriptions or FIFOs. */
	memset(mdlPartitionSize, 0, sizeof(*mdlPartitionSize));
	mdlPartitionSize->workSize = work;
	mdlPartitionSize->weightSize = weight;
	return ACL_SUCCESS;
}

/* ---- execution ---------------------------------------------------------------------- */

static aclError execute(uint32_t id, const aclmdlDataset *in, aclmdlDataset *out, const void *stream, bool sync,
			const aclmdlExecConfigHandle *h)
{
	int32_t timeout = -1;
	struct rt_model *m;
	aclError err;

	if (h && h->magic != RT_MDLEXEC_MAGIC)
		return rt_err(ACL_ERROR_INVALID_PARAM, "handle (%p) is not an execution configuration", (const void *)h);
	if (h)
		timeout = h->stream_timeout;
	err = rt_model_lookup(id, &m);
	if (err)
		return err;
	err = rt_model_execute(m, in, out, stream, sync, timeout);
	rt_model_put(m);
	return err;
}

aclError aclmdlExecute(uint32_t modelId, const aclmdlDataset *input, aclmdlDataset *output)
{
	ACL_ENTER();
	return execute(modelId, input, output, NULL, true, NULL);
}

aclError aclmdlExecuteV2(uint32_t modelId, const aclmdlDataset *input, aclmdlDataset *output, aclrtStream stream,
			 const aclmdlExecConfigHandle *handle)
{
	ACL_ENTER();
	return execute(modelId, input, output, stream, true, handle);
}

aclError aclmdlExecuteAsync(uint32_t modelId, const aclmdlDataset *input, aclmdlDataset *output, aclrtStream stream)
{
	ACL_ENTER();
	return execute(modelId, input, output, stream, false, NULL);
}

aclError aclmdlExecuteAsyncV2(uint32_t modelId, const aclmdlDataset *input, aclmdlDataset *output,
			      aclrtStream stream, const aclmdlExecConfigHandle *handle)
{
	ACL_ENTER();
	return execute(modelId, input, output, stream, false, handle);
}

/* ---- datasets -------------------------------------------------------------------------- */

static bool dataset_ok(const aclmdlDataset *d)
{
	return d && d->magic == RT_DATASET_MAGIC;
}

aclmdlDataset *aclmdlCreateDataset(void)
{
	aclmdlDataset *d;

	ACL_ENTER();
	d = calloc(1, sizeof(*d));
	if (!d) {
		rt_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
		return NULL;
	}
	d->magic = RT_DATASET_MAGIC;
	d->gear = -1;
	return d;
}

aclError aclmdlDestroyDataset(const aclmdlDataset *dataset)
{
	aclmdlDataset *d = (aclmdlDataset *)dataset;
	uint32_t i;

	ACL_ENTER();
	ACL_REQUIRE(dataset);
	if (!dataset_ok(d))
		return rt_err(ACL_ERROR_INVALID_PARAM, "%p is not a dataset", (const void *)dataset);
	for (i = 0; i < d->n; i++)
		aclDestroyTensorDesc(d->descs[i]);
	free(d->bufs);
	free(d->descs);
	d->magic = 0;
	free(d);
	return ACL_SUCCESS;
}

aclError aclmdlAddDatasetBuffer(aclmdlDataset *dataset, aclDataBuffer *dataBuffer)
{
	ACL_ENTER();
	ACL_REQUIRE(dataset);
	ACL_REQUIRE(dataBuffer);
	if (!dataset_ok(dataset))
		return rt_err(ACL_ERROR_INVALID_PARAM, "%p is not a dataset", (void *)dataset);
	if (dataBuffer->magic != RT_BUFFER_MAGIC)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%p is not a data buffer", (void *)dataBuffer);
	if (dataset->n == dataset->cap) {
		uint32_t cap = dataset->cap ? 2 * dataset->cap : 4;
		aclDataBuffer **b = realloc(dataset->bufs, cap * sizeof(*b));
		aclTensorDesc **t;

		if (!b)
			return rt_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
		dataset->bufs = b;
		t = realloc(dataset->descs, cap * sizeof(*t));
		if (!t)
			return rt_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
		dataset->descs = t;
		dataset->cap = cap;
	}
	dataset->descs[dataset->n] = NULL;
	dataset->bufs[dataset->n++] = dataBuffer;
	return ACL_SUCCESS;
}

size_t aclmdlGetDatasetNumBuffers(const aclmdlDataset *dataset)
{
	ACL_ENTER();
	if (!dataset_ok(dataset)) {
		rt_err(ACL_ERROR_INVALID_PARAM, "%p is not a dataset", (const void *)dataset);
		return 0;
	}
	return dataset->n;
}

aclDataBuffer *aclmdlGetDatasetBuffer(const aclmdlDataset *dataset, size_t index)
{
	ACL_ENTER();
	if (!dataset_ok(dataset) || index >= dataset->n) {
		rt_err(ACL_ERROR_INVALID_PARAM, "no buffer %zu in dataset %p", index, (const void *)dataset);
		return NULL;
	}
	return dataset->bufs[index];
}

aclError aclmdlSetDatasetTensorDesc(aclmdlDataset *dataset, aclTensorDesc *tensorDesc, size_t index)
{
	aclTensorDesc *copy;

	ACL_ENTER();
	ACL_REQUIRE(dataset);
	ACL_REQUIRE(tensorDesc);
	if (!dataset_ok(dataset))
		return rt_err(ACL_ERROR_INVALID_PARAM, "%p is not a dataset", (void *)dataset);
	if (tensorDesc->magic != RT_TENSOR_MAGIC)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%p is not a tensor descriptor", (void *)tensorDesc);
	if (index >= dataset->n)
		return rt_err(ACL_ERROR_INVALID_PARAM, "index %zu: the dataset holds %u buffers (add them first)", index,
			      dataset->n);
	copy = aclCreateTensorDesc(tensorDesc->dtype, tensorDesc->ndims, tensorDesc->dims, tensorDesc->format);
	rt_api_enter(__func__);
	if (!copy)
		return rt_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
	aclDestroyTensorDesc(dataset->descs[index]);
	dataset->descs[index] = copy;
	return ACL_SUCCESS;
}

aclTensorDesc *aclmdlGetDatasetTensorDesc(const aclmdlDataset *dataset, size_t index)
{
	ACL_ENTER();
	if (!dataset_ok(dataset) || index >= dataset->n) {
		rt_err(ACL_ERROR_INVALID_PARAM, "no tensor %zu in dataset %p", index, (const void *)dataset);
		return NULL;
	}
	return dataset->descs[index];
}

/* ---- gears ---------------------------------------------------------------------------------- */

/* Choose the gear whose values are @vals for @dataset (the input @index
 * must be ACL_DYNAMIC_TENSOR_NAME) and write it into that input's buffer. */
static aclError set_gear(uint32_t id, aclmdlDataset *dataset, size_t index, const int64_t *vals, uint32_t n,
			 enum om_dynamic kind, const char *what)
{
	const struct om_model *om;
	struct rt_model *m;
	aclDataBuffer *b;
	aclError err;
	uint32_t g;

	ACL_REQUIRE(dataset);
	if (!dataset_ok(dataset))
		return rt_err(ACL_ERROR_INVALID_PARAM, "%p is not a dataset", (void *)dataset);
	err = rt_model_lookup(id, &m);
	if (err)
		return err;
	om = m->om;
	if (om->dynamic != kind) {
		err = rt_err(ACL_ERROR_INVALID_PARAM, "model %u has no %s gears", id, what);
		goto out;
	}
	if (index >= om->ninputs || index >= dataset->n ||
	    strcmp(om->values[om->inputs[index]].name, OM_DYNAMIC_TENSOR_NAME)) {
		err = rt_err(ACL_ERROR_INVALID_PARAM, "index %zu is not the model's input %s (see "
			     "aclmdlGetInputIndexByName)", index, OM_DYNAMIC_TENSOR_NAME);
		goto out;
	}
	if (n != om->gear_len) {
		err = rt_err(ACL_ERROR_INVALID_PARAM, "model %u's gears have %u values; %u given", id, om->gear_len, n);
		goto out;
	}
	for (g = 0; g < om->ngears; g++)
		if (!memcmp(om->gears + (size_t)g * n, vals, n * sizeof(*vals)))
			break;
	if (g == om->ngears) {
		err = rt_err(ACL_ERROR_INVALID_PARAM, "%s %" PRId64 "%s is not one of model %u's gears", what, vals[0],
			     n > 1 ? ", ..." : "", id);
		goto out;
	}
	b = dataset->bufs[index];
	if (!b || !b->data || b->size < n * sizeof(int64_t)) {
		err = rt_err(ACL_ERROR_INVALID_PARAM, "the buffer of input %zu must hold %zu bytes", index,
			     n * sizeof(int64_t));
		goto out;
	}
	err = aclrtMemcpy(b->data, b->size, vals, n * sizeof(int64_t), ACL_MEMCPY_HOST_TO_DEVICE);
	rt_api_enter(__func__);
	if (!err)
		dataset->gear = (int32_t)g;
out:
	rt_model_put(m);
	return err;
}

aclError aclmdlSetDynamicBatchSize(uint32_t modelId, aclmdlDataset *dataset, size_t index, uint64_t batchSize)
{
	int64_t v = (int64_t)batchSize;

	ACL_ENTER();
	return set_gear(modelId, dataset, index, &v, 1, OM_DYNAMIC_BATCH, "batch size");
}

aclError aclmdlSetDynamicHWSize(uint32_t modelId, aclmdlDataset *dataset, size_t index, uint64_t height,
				uint64_t width)
{
	int64_t v[2] = { (int64_t)height, (int64_t)width };

	ACL_ENTER();
	return set_gear(modelId, dataset, index, v, 2, OM_DYNAMIC_HW, "height and width");
}

/*
 * @dims as CANN fills it (every dimension of every input, the gear's in
 * place: aclmdlGetInputDynamicDims) into the gear's own values @vals (*@n
 * of them); unchanged when it matches no gear (set_gear() says so then).
 */
static void dims_to_gear(uint32_t id, const aclmdlIODims *dims, int64_t *vals, uint32_t *n)
{
	int64_t full[ACL_MAX_DIM_CNT];
	const struct om_model *om;
	struct rt_model *m;
	uint32_t g, len;

	if (rt_model_lookup(id, &m))
		return;
	om = m->om;
	for (g = 0; om->dynamic == OM_DYNAMIC_DIMS && g < om->ngears; g++) {
		const int64_t *row = om->gears + (size_t)g * om->gear_len;

		len = rt_model_gear_dims(om, row, full, ACL_MAX_DIM_CNT);
		if (len && len == dims->dimCount && !memcmp(full, dims->dims, len * sizeof(*full))) {
			memcpy(vals, row, om->gear_len * sizeof(*row));
			*n = om->gear_len;
			break;
		}
	}
	rt_model_put(m);
}

aclError aclmdlSetInputDynamicDims(uint32_t modelId, aclmdlDataset *dataset, size_t index, const aclmdlIODims *dims)
{
	int64_t vals[ACL_MAX_DIM_CNT];
	uint32_t n;
	aclError err;

	ACL_ENTER();
	ACL_REQUIRE(dims);
	if (dims->dimCount > ACL_MAX_DIM_CNT)
		return rt_err(ACL_ERROR_INVALID_PARAM, "dimCount %zu is above %d", dims->dimCount, ACL_MAX_DIM_CNT);
	n = (uint32_t)dims->dimCount;
	memcpy(vals, dims->dims, n * sizeof(*vals));
	dims_to_gear(modelId, dims, vals, &n);
	err = set_gear(modelId, dataset, index, vals, n, OM_DYNAMIC_DIMS, "dims");
	if (err == ACL_ERROR_INVALID_PARAM && n == dims->dimCount)
		rt_err(err, "%s (dims: every dimension of every input, as aclmdlGetInputDynamicDims lists the gears)",
		       aclGetRecentErrMsg());
	return err;
}

/* ---- configuration handles ------------------------------------------------------------------- */

aclmdlConfigHandle *aclmdlCreateConfigHandle(void)
{
	aclmdlConfigHandle *h;

	ACL_ENTER();
	h = calloc(1, sizeof(*h));
	if (!h) {
		rt_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
		return NULL;
	}
	h->magic = RT_MDLCFG_MAGIC;
	return h;
}

aclError aclmdlDestroyConfigHandle(aclmdlConfigHandle *handle)
{
	ACL_ENTER();
	ACL_REQUIRE(handle);
	if (handle->magic != RT_MDLCFG_MAGIC)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%p is not a model configuration", (void *)handle);
	handle->magic = 0;
	free(handle->path);
	free(handle);
	return ACL_SUCCESS;
}

#define NEED_SIZE(t)                                                                                        \
	do {                                                                                                \
		if (valueSize < sizeof(t))                                                                  \
			return rt_err(ACL_ERROR_INVALID_PARAM, "valueSize %zu is too small for attribute %d " \
				      "(%zu bytes)", valueSize, (int)attr, sizeof(t));                   \
	} while (0)

aclError aclmdlSetConfigOpt(aclmdlConfigHandle *handle, aclmdlConfigAttr attr, const void *attrValue,
			    size_t valueSize)
{
	ACL_ENTER();
	ACL_REQUIRE(handle);
	ACL_REQUIRE(attrValue);
	if (handle->magic != RT_MDLCFG_MAGIC)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%p is not a model configuration", (void *)handle);
	switch (attr) {
	case ACL_MDL_PRIORITY_INT32: {
		int32_t v;

		NEED_SIZE(int32_t);
		memcpy(&v, attrValue, sizeof(v));
		if (v < 0 || v > 7)
			return rt_err(ACL_ERROR_INVALID_PARAM, "model priority %d is outside [0, 7]", v);
		handle->priority = v;
		return ACL_SUCCESS;
	}
	case ACL_MDL_LOAD_TYPE_SIZET: {
		size_t v;

		NEED_SIZE(size_t);
		memcpy(&v, attrValue, sizeof(v));
		if (v < ACL_MDL_LOAD_FROM_FILE || v > ACL_MDL_LOAD_FROM_MEM_WITH_Q)
			return rt_err(ACL_ERROR_INVALID_PARAM, "load type %zu is not an ACL_MDL_LOAD_* value", v);
		handle->load_type = v;
		handle->has_load_type = true;
		return ACL_SUCCESS;
	}
	case ACL_MDL_PATH_PTR: {
		const char *path;
		char *copy;

		NEED_SIZE(char *);
		memcpy(&path, attrValue, sizeof(path));
		if (!path)
			return rt_err(ACL_ERROR_INVALID_PARAM, "the model path must not be NULL");
		copy = strdup(path);
		if (!copy)
			return rt_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
		free(handle->path);
		handle->path = copy;
		return ACL_SUCCESS;
	}
	case ACL_MDL_MEM_ADDR_PTR:
		NEED_SIZE(void *);
		memcpy(&handle->mem, attrValue, sizeof(void *));
		return ACL_SUCCESS;
	case ACL_MDL_MEM_SIZET:
		NEED_SIZE(size_t);
		memcpy(&handle->mem_size, attrValue, sizeof(size_t));
		return ACL_SUCCESS;
	case ACL_MDL_WEIGHT_ADDR_PTR:
		NEED_SIZE(void *);
		memcpy(&handle->weight, attrValue, sizeof(void *));
		return ACL_SUCCESS;
	case ACL_MDL_WEIGHT_SIZET:
		NEED_SIZE(size_t);
		memcpy(&handle->weight_size, attrValue, sizeof(size_t));
		return ACL_SUCCESS;
	case ACL_MDL_WORKSPACE_ADDR_PTR:
		NEED_SIZE(void *);
		memcpy(&handle->work, attrValue, sizeof(void *));
		return ACL_SUCCESS;
	case ACL_MDL_WORKSPACE_SIZET:
		NEED_SIZE(size_t);
		memcpy(&handle->work_size, attrValue, sizeof(size_t));
		return ACL_SUCCESS;
	case ACL_MDL_WORKSPACE_MEM_OPTIMIZE:
	case ACL_MDL_WITHOUT_GRAPH_INT32:
	case ACL_NPU_PERF_MODE:
		/* Accepted: vnpu's work memory never holds inputs or outputs
		 * and its graph is what it runs. */
		return ACL_SUCCESS;
	case ACL_MDL_INPUTQ_NUM_SIZET:
	case ACL_MDL_INPUTQ_ADDR_PTR:
	case ACL_MDL_OUTPUTQ_NUM_SIZET:
	case ACL_MDL_OUTPUTQ_ADDR_PTR:
		return rt_err(ACL_ERROR_FEATURE_UNSUPPORTED, "vnpu has no data queues (attribute %d)", (int)attr);
	case ACL_MDL_WEIGHT_PATH_PTR:
		return rt_err(ACL_ERROR_FEATURE_UNSUPPORTED, "vnpu models carry their weights: no external weight "
			      "files");
	default:
		if ((int)attr >= ACL_MDL_MODEL_DESC_PTR && (int)attr <= ACL_MDL_FIFO_SIZET)
			return rt_err(ACL_ERROR_FEATURE_UNSUPPORTED, "attribute %d is for exeom models, which vnpu does "
				      "not run", (int)attr);
		return rt_err(ACL_ERROR_INVALID_PARAM, "attr %d is not an aclmdlConfigAttr", (int)attr);
	}
}

aclError aclmdlLoadWithConfig(const aclmdlConfigHandle *handle, uint32_t *modelId)
{
	const aclmdlConfigHandle *h = handle;

	ACL_ENTER();
	ACL_REQUIRE(handle);
	ACL_REQUIRE(modelId);
	if (h->magic != RT_MDLCFG_MAGIC)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%p is not a model configuration", (const void *)handle);
	if (!h->has_load_type)
		return rt_err(ACL_ERROR_INVALID_PARAM, "the configuration has no ACL_MDL_LOAD_TYPE_SIZET");
	switch (h->load_type) {
	case ACL_MDL_LOAD_FROM_FILE:
	case ACL_MDL_LOAD_FROM_FILE_WITH_MEM:
		if (!h->path)
			return rt_err(ACL_ERROR_INVALID_PARAM, "loading from a file needs ACL_MDL_PATH_PTR");
		if (h->load_type == ACL_MDL_LOAD_FROM_FILE)
			return load_file(h->path, modelId, NULL, 0, NULL, 0, (uint32_t)h->priority);
		return load_file(h->path, modelId, h->work, h->work_size, h->weight, h->weight_size,
				 (uint32_t)h->priority);
	case ACL_MDL_LOAD_FROM_MEM:
	case ACL_MDL_LOAD_FROM_MEM_WITH_MEM:
		if (!h->mem || !h->mem_size)
			return rt_err(ACL_ERROR_INVALID_PARAM, "loading from memory needs ACL_MDL_MEM_ADDR_PTR and "
				      "ACL_MDL_MEM_SIZET");
		if (h->load_type == ACL_MDL_LOAD_FROM_MEM)
			return load_mem(h->mem, h->mem_size, modelId, NULL, 0, NULL, 0, (uint32_t)h->priority);
		return load_mem(h->mem, h->mem_size, modelId, h->work, h->work_size, h->weight, h->weight_size,
				(uint32_t)h->priority);
	default:
		return rt_err(ACL_ERROR_FEATURE_UNSUPPORTED, "vnpu has no data queues: load type %zu", h->load_type);
	}
}

aclmdlExecConfigHandle *aclmdlCreateExecConfigHandle(void)
{
	aclmdlExecConfigHandle *h;

	ACL_ENTER();
	h = calloc(1, sizeof(*h));
	if (!h) {
		rt_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
		return NULL;
	}
	h->magic = RT_MDLEXEC_MAGIC;
	h->stream_timeout = -1;
	h->event_timeout = -1;
	return h;
}

aclError aclmdlDestroyExecConfigHandle(const aclmdlExecConfigHandle *handle)
{
	aclmdlExecConfigHandle *h = (aclmdlExecConfigHandle *)handle;

	ACL_ENTER();
	ACL_REQUIRE(handle);
	if (h->magic != RT_MDLEXEC_MAGIC)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%p is not an execution configuration", (const void *)handle);
	h->magic = 0;
	free(h);
	return ACL_SUCCESS;
}

aclError aclmdlSetExecConfigOpt(aclmdlExecConfigHandle *handle, aclmdlExecConfigAttr attr, const void *attrValue,
				size_t valueSize)
{
	int32_t v;

	ACL_ENTER();
	ACL_REQUIRE(handle);
	ACL_REQUIRE(attrValue);
	if (handle->magic != RT_MDLEXEC_MAGIC)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%p is not an execution configuration", (void *)handle);
	switch (attr) {
	case ACL_MDL_STREAM_SYNC_TIMEOUT:
	case ACL_MDL_EVENT_SYNC_TIMEOUT:
	case ACL_MDL_EXEC_PRIORITY_INT32:
		NEED_SIZE(int32_t);
		memcpy(&v, attrValue, sizeof(v));
		if (attr != ACL_MDL_EXEC_PRIORITY_INT32 && v < -1)
			return rt_err(ACL_ERROR_INVALID_PARAM, "timeout %d ms: -1 (forever) or more", v);
		if (attr == ACL_MDL_STREAM_SYNC_TIMEOUT)
			handle->stream_timeout = v;
		else if (attr == ACL_MDL_EVENT_SYNC_TIMEOUT)
			handle->event_timeout = v;
		else
			handle->priority = v;
		return ACL_SUCCESS;
	case ACL_MDL_WORK_ADDR_PTR:
		NEED_SIZE(void *);
		memcpy(&handle->work, attrValue, sizeof(void *));
		return ACL_SUCCESS;
	case ACL_MDL_WORK_SIZET:
		NEED_SIZE(size_t);
		memcpy(&handle->work_size, attrValue, sizeof(size_t));
		return ACL_SUCCESS;
	case ACL_MDL_MPAIMID_SIZET:
	case ACL_MDL_AICQOS_SIZET:
	case ACL_MDL_AICOST_SIZET:
	case ACL_MDL_MEC_TIMETHR_SIZET:
	case ACL_MDL_NPU_PERF_MODE:
		return ACL_SUCCESS;	/* reserved in CANN */
	}
	return rt_err(ACL_ERROR_INVALID_PARAM, "attr %d is not an aclmdlExecConfigAttr", (int)attr);
}
