// SPDX-License-Identifier: MIT
/*
 * acl_mdl_desc.c - model descriptions (aclmdlDesc): counts, sizes, dims,
 * ranges, names, types, formats and gears of a model's inputs and outputs,
 * read from the model (lib/om's struct om_model) a description holds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_mdl.h"
#include "acl_internal.h"
#include "rt_model.h"
#include "rt_op.h"

#define RT_MDLDESC_MAGIC 0x564e4d44u	/* "VNMD" */

struct aclmdlDesc {
	uint32_t magic;
	struct rt_model *m;
	bool loaded;
};

aclmdlDesc *aclmdlCreateDesc(void)
{
	aclmdlDesc *d;

	ACL_ENTER();
	d = calloc(1, sizeof(*d));
	if (!d) {
		rt_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
		return NULL;
	}
	d->magic = RT_MDLDESC_MAGIC;
	return d;
}

aclError aclmdlDestroyDesc(aclmdlDesc *modelDesc)
{
	ACL_ENTER();
	ACL_REQUIRE(modelDesc);
	if (modelDesc->magic != RT_MDLDESC_MAGIC)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%p is not a model description", (void *)modelDesc);
	rt_model_put(modelDesc->m);
	modelDesc->magic = 0;
	free(modelDesc);
	return ACL_SUCCESS;
}

static aclError fill(aclmdlDesc *d, struct rt_model *m, bool loaded)
{
	if (!d || d->magic != RT_MDLDESC_MAGIC) {
		rt_model_put(m);
		return rt_err(ACL_ERROR_INVALID_PARAM, "modelDesc (%p) is not a model description", (void *)d);
	}
	rt_model_put(d->m);
	d->m = m;
	d->loaded = loaded;
	return ACL_SUCCESS;
}

aclError aclmdlGetDesc(aclmdlDesc *modelDesc, uint32_t modelId)
{
	struct rt_model *m;
	aclError err;

	ACL_ENTER();
	ACL_REQUIRE(modelDesc);
	err = rt_model_lookup(modelId, &m);
	if (err)
		return err;
	return fill(modelDesc, m, true);
}

aclError aclmdlGetDescFromMem(aclmdlDesc *modelDesc, const void *model, size_t modelSize)
{
	struct om_model *om;
	struct rt_model *m;
	aclError err;

	ACL_ENTER();
	ACL_REQUIRE(modelDesc);
	ACL_REQUIRE(model);
	if (!modelSize)
		return rt_err(ACL_ERROR_INVALID_PARAM, "modelSize must not be 0");
	err = rt_model_parse(model, modelSize, &om);
	if (!err)
		err = rt_model_new(om, &m);
	if (err)
		return err;
	return fill(modelDesc, m, false);
}

aclError aclmdlGetDescFromFile(aclmdlDesc *modelDesc, const char *modelPath)
{
	size_t len;
	void *buf;
	aclError err;

	ACL_ENTER();
	ACL_REQUIRE(modelDesc);
	ACL_REQUIRE(modelPath);
	err = rt_model_read_file(modelPath, &buf, &len);
	if (err)
		return err;
	err = aclmdlGetDescFromMem(modelDesc, buf, len);
	free(buf);
	return err;
}

/* The model of a filled description, or NULL with the error recorded. */
static const struct om_model *desc_model(const aclmdlDesc *d)
{
	if (!d || d->magic != RT_MDLDESC_MAGIC) {
		rt_err(ACL_ERROR_INVALID_PARAM, "modelDesc (%p) is not a model description", (const void *)d);
		return NULL;
	}
	if (!d->m) {
		rt_err(ACL_ERROR_INVALID_PARAM, "modelDesc %p is empty (aclmdlGetDesc fills it)", (const void *)d);
		return NULL;
	}
	return d->m->om;
}

/* Value of input (@out false) or output @index, or NULL. */
static const struct om_value *io_value(const aclmdlDesc *d, size_t index, bool out)
{
	const struct om_model *om = desc_model(d);
	uint32_t n;

	if (!om)
		return NULL;
	n = out ? om->noutputs : om->ninputs;
	if (index >= n) {
		rt_err(ACL_ERROR_INVALID_PARAM, "index %zu: the model has %u %s", index, n, out ? "outputs" : "inputs");
		return NULL;
	}
	return &om->values[out ? om->outputs[index] : om->inputs[index]];
}

size_t aclmdlGetNumInputs(aclmdlDesc *modelDesc)
{
	const struct om_model *om;

	ACL_ENTER();
	om = desc_model(modelDesc);
	return om ? om->ninputs : 0;
}

size_t aclmdlGetNumOutputs(aclmdlDesc *modelDesc)
{
	const struct om_model *om;

	ACL_ENTER();
	om = desc_model(modelDesc);
	return om ? om->noutputs : 0;
}

/* The value's dims for the largest gear (gear models), -1 left otherwise. */
static void gear_dims(const struct om_model *om, const struct om_value *v, bool out, size_t index, int64_t *dims)
{
	const int64_t *gear = rt_model_largest_gear(om);
	struct rt_mplan *p = NULL;
	uint32_t len;
	int64_t *key;
	int32_t j;

	memcpy(dims, v->dims, (size_t)v->ndim * sizeof(int64_t));
	if (om->dynamic == OM_DYNAMIC_NONE || !gear)
		return;
	/* Plan the largest gear: it says every value's shape. Errors here
	 * leave the -1s (the thread's error state is kept). */
	{
		struct rt_errsave saved;

		rt_err_save(&saved);
		if (!rt_model_input_dims(om, NULL, 0, gear, &key, &len)) {
			if (!rt_mplan_build(om, key, len, &p)) {
				const struct rt_mvalue *pv =
					&p->values[out ? om->outputs[index] : om->inputs[index]];

				for (j = 0; j < v->ndim; j++)
					dims[j] = pv->dims[j];
				rt_mplan_put(p);
			}
			free(key);
		}
		rt_err_restore(&saved);
	}
}

static size_t io_size(const aclmdlDesc *d, size_t index, bool out)
{
	const struct om_value *v = io_value(d, index, out);
	int64_t dims[VOPS_MAX_RANK];
	uint64_t bytes;

	if (!v)
		return 0;
	gear_dims(d->m->om, v, out, index, dims);
	if (!rt_model_tensor_bytes(v->dtype, v->ndim, dims, &bytes))
		return 0;	/* a -1 dimension: sized by the real data */
	return (size_t)bytes;
}

size_t aclmdlGetInputSizeByIndex(aclmdlDesc *modelDesc, size_t index)
{
	ACL_ENTER();
	return io_size(modelDesc, index, false);
}

size_t aclmdlGetOutputSizeByIndex(aclmdlDesc *modelDesc, size_t index)
{
	ACL_ENTER();
	return io_size(modelDesc, index, true);
}

static void put_dims(aclmdlIODims *io, const char *name, int32_t ndim, const int64_t *dims)
{
	memset(io, 0, sizeof(*io));
	snprintf(io->name, sizeof(io->name), "%s", name);
	io->dimCount = (size_t)ndim;
	memcpy(io->dims, dims, (size_t)ndim * sizeof(int64_t));
}

aclError aclmdlGetInputDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims)
{
	const struct om_value *v;

	ACL_ENTER();
	ACL_REQUIRE(dims);
	v = io_value(modelDesc, index, false);
	if (!v)
		return ACL_ERROR_INVALID_PARAM;
	put_dims(dims, v->name, v->ndim, v->dims);
	return ACL_SUCCESS;
}

aclError aclmdlGetInputDimsV2(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims)
{
	return aclmdlGetInputDims(modelDesc, index, dims);
}

aclError aclmdlGetInputDimsRange(const aclmdlDesc *modelDesc, size_t index, aclmdlIODimsRange *dimsRange)
{
	const struct om_value *v;
	int32_t j;

	ACL_ENTER();
	ACL_REQUIRE(dimsRange);
	v = io_value(modelDesc, index, false);
	if (!v)
		return ACL_ERROR_INVALID_PARAM;
	memset(dimsRange, 0, sizeof(*dimsRange));
	if (modelDesc->m->om->dynamic != OM_DYNAMIC_NONE)
		return ACL_SUCCESS;	/* gear models have no ranges: rangeCount 0 */
	dimsRange->rangeCount = (size_t)v->ndim;
	for (j = 0; j < v->ndim; j++) {
		dimsRange->range[j][0] = v->range ? v->range[2 * j] : v->dims[j];
		dimsRange->range[j][1] = v->range ? v->range[2 * j + 1] : v->dims[j];
	}
	return ACL_SUCCESS;
}

aclError aclmdlGetOutputDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims)
{
	const struct om_value *v;
	int64_t d[VOPS_MAX_RANK];

	ACL_ENTER();
	ACL_REQUIRE(dims);
	v = io_value(modelDesc, index, true);
	if (!v)
		return ACL_ERROR_INVALID_PARAM;
	gear_dims(modelDesc->m->om, v, true, index, d);
	put_dims(dims, v->name, v->ndim, d);
	return ACL_SUCCESS;
}

aclError aclmdlGetCurOutputDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims)
{
	const struct om_value *v;
	struct rt_model *m;
	int64_t d[VOPS_MAX_RANK];

	ACL_ENTER();
	ACL_REQUIRE(dims);
	v = io_value(modelDesc, index, true);
	if (!v)
		return ACL_ERROR_INVALID_PARAM;
	if (!modelDesc->loaded)
		return rt_err(ACL_ERROR_INVALID_PARAM, "a description from a file or memory has no current output dims "
			      "(aclmdlGetDesc of a loaded model has)");
	m = modelDesc->m;
	pthread_mutex_lock(&m->lock);
	if (m->has_cur)
		memcpy(d, m->cur_dims + index * VOPS_MAX_RANK, (size_t)v->ndim * sizeof(int64_t));
	pthread_mutex_unlock(&m->lock);
	if (!m->has_cur)
		gear_dims(m->om, v, true, index, d);
	put_dims(dims, v->name, v->ndim, d);
	return ACL_SUCCESS;
}

const char *aclmdlGetOpAttr(aclmdlDesc *modelDesc, const char *opName, const char *attr)
{
	ACL_ENTER();
	(void)modelDesc, (void)opName, (void)attr;
	rt_err(ACL_ERROR_FEATURE_UNSUPPORTED, "vnpu keeps no operator attributes for aclmdlGetOpAttr");
	return NULL;
}

const char *aclmdlGetInputNameByIndex(const aclmdlDesc *modelDesc, size_t index)
{
	const struct om_value *v;

	ACL_ENTER();
	v = io_value(modelDesc, index, false);
	return v ? v->name : "";
}

const char *aclmdlGetOutputNameByIndex(const aclmdlDesc *modelDesc, size_t index)
{
	const struct om_value *v;

	ACL_ENTER();
	v = io_value(modelDesc, index, true);
	return v ? v->name : "";
}

aclFormat aclmdlGetInputFormat(const aclmdlDesc *modelDesc, size_t index)
{
	const struct om_value *v;

	ACL_ENTER();
	v = io_value(modelDesc, index, false);
	return v ? (aclFormat)v->format : ACL_FORMAT_UNDEFINED;
}

aclFormat aclmdlGetOutputFormat(const aclmdlDesc *modelDesc, size_t index)
{
	const struct om_value *v;

	ACL_ENTER();
	v = io_value(modelDesc, index, true);
	return v ? (aclFormat)v->format : ACL_FORMAT_UNDEFINED;
}

aclDataType aclmdlGetInputDataType(const aclmdlDesc *modelDesc, size_t index)
{
	const struct om_value *v;

	ACL_ENTER();
	v = io_value(modelDesc, index, false);
	return v ? (aclDataType)v->dtype : ACL_DT_UNDEFINED;
}

aclDataType aclmdlGetOutputDataType(const aclmdlDesc *modelDesc, size_t index)
{
	const struct om_value *v;

	ACL_ENTER();
	v = io_value(modelDesc, index, true);
	return v ? (aclDataType)v->dtype : ACL_DT_UNDEFINED;
}

static aclError index_by_name(const aclmdlDesc *d, const char *name, size_t *index, bool out)
{
	const struct om_model *om = desc_model(d);
	uint32_t i, n;

	if (!om)
		return ACL_ERROR_INVALID_PARAM;
	ACL_REQUIRE(name);
	ACL_REQUIRE(index);
	n = out ? om->noutputs : om->ninputs;
	for (i = 0; i < n; i++)
		if (!strcmp(om->values[out ? om->outputs[i] : om->inputs[i]].name, name)) {
			*index = i;
			return ACL_SUCCESS;
		}
	return rt_err(ACL_ERROR_INVALID_PARAM, "the model has no %s named %s", out ? "output" : "input", name);
}

aclError aclmdlGetInputIndexByName(const aclmdlDesc *modelDesc, const char *name, size_t *index)
{
	ACL_ENTER();
	return index_by_name(modelDesc, name, index, false);
}

aclError aclmdlGetOutputIndexByName(const aclmdlDesc *modelDesc, const char *name, size_t *index)
{
	ACL_ENTER();
	return index_by_name(modelDesc, name, index, true);
}

const char *aclmdlGetTensorRealName(const aclmdlDesc *modelDesc, const char *name)
{
	size_t i;

	ACL_ENTER();
	if (!name) {
		rt_err(ACL_ERROR_INVALID_PARAM, "name must not be NULL");
		return NULL;
	}
	if (!index_by_name(modelDesc, name, &i, false) || !index_by_name(modelDesc, name, &i, true))
		return name;
	return NULL;
}

/* ---- gears ---------------------------------------------------------------------------- */

aclError aclmdlGetDynamicBatch(const aclmdlDesc *modelDesc, aclmdlBatch *batch)
{
	const struct om_model *om;
	uint32_t g;

	ACL_ENTER();
	ACL_REQUIRE(batch);
	om = desc_model(modelDesc);
	if (!om)
		return ACL_ERROR_INVALID_PARAM;
	memset(batch, 0, sizeof(*batch));
	if (om->dynamic != OM_DYNAMIC_BATCH)
		return ACL_SUCCESS;
	for (g = 0; g < om->ngears && g < ACL_MAX_BATCH_NUM; g++)
		batch->batch[g] = (uint64_t)om->gears[g * om->gear_len];
	batch->batchCount = g;
	return ACL_SUCCESS;
}

aclError aclmdlGetDynamicHW(const aclmdlDesc *modelDesc, size_t index, aclmdlHW *hw)
{
	const struct om_model *om;
	uint32_t g;

	ACL_ENTER();
	ACL_REQUIRE(hw);
	(void)index;	/* CANN: unused */
	om = desc_model(modelDesc);
	if (!om)
		return ACL_ERROR_INVALID_PARAM;
	memset(hw, 0, sizeof(*hw));
	if (om->dynamic != OM_DYNAMIC_HW || om->gear_len < 2)
		return ACL_SUCCESS;
	for (g = 0; g < om->ngears && g < ACL_MAX_HW_NUM; g++) {
		hw->hw[g][0] = (uint64_t)om->gears[g * om->gear_len];
		hw->hw[g][1] = (uint64_t)om->gears[g * om->gear_len + 1];
	}
	hw->hwCount = g;
	return ACL_SUCCESS;
}

aclError aclmdlGetInputDynamicGearCount(const aclmdlDesc *modelDesc, size_t index, size_t *gearCount)
{
	const struct om_model *om;

	ACL_ENTER();
	ACL_REQUIRE(gearCount);
	(void)index;	/* CANN: unused, -1 */
	om = desc_model(modelDesc);
	if (!om)
		return ACL_ERROR_INVALID_PARAM;
	*gearCount = om->dynamic == OM_DYNAMIC_DIMS ? om->ngears : 0;
	return ACL_SUCCESS;
}

aclError aclmdlGetInputDynamicDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims, size_t gearCount)
{
	const struct om_model *om;
	uint32_t g;

	ACL_ENTER();
	ACL_REQUIRE(dims);
	(void)index;	/* CANN: unused, -1 */
	om = desc_model(modelDesc);
	if (!om)
		return ACL_ERROR_INVALID_PARAM;
	if (om->dynamic != OM_DYNAMIC_DIMS)
		return rt_err(ACL_ERROR_INVALID_PARAM, "the model has no dims gears");
	if (gearCount < om->ngears)
		return rt_err(ACL_ERROR_INVALID_PARAM, "gearCount %zu: the model has %u gears", gearCount, om->ngears);
	/* CANN's form: every dimension of every input, the gear's in place. */
	for (g = 0; g < om->ngears; g++) {
		memset(&dims[g], 0, sizeof(dims[g]));
		dims[g].dimCount = rt_model_gear_dims(om, om->gears + (size_t)g * om->gear_len, dims[g].dims,
						      ACL_MAX_DIM_CNT);
	}
	return ACL_SUCCESS;
}
