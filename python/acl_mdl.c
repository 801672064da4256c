// SPDX-License-Identifier: MIT
/*
 * acl_mdl.c - acl.mdl: loading, descriptions, datasets, execution. The C
 * structures pyACL shows as dicts (aclmdlIODims, aclmdlIODimsRange,
 * aclmdlBatch, aclmdlHW) use the C member names as keys.
 */
#include <string.h>

#include "acl_py.h"

static PyObject *dims_to_dict(const aclmdlIODims *d)
{
	size_t n = d->dimCount < ACL_MAX_DIM_CNT ? d->dimCount : ACL_MAX_DIM_CNT, k;
	PyObject *dims = PyList_New((Py_ssize_t)n);

	if (!dims)
		return NULL;
	for (k = 0; k < n; k++) {
		PyObject *v = PyLong_FromLongLong(d->dims[k]);

		if (!v) {
			Py_DECREF(dims);
			return NULL;
		}
		PyList_SET_ITEM(dims, (Py_ssize_t)k, v);
	}
	return Py_BuildValue("{s:s#,s:n,s:N}", "name", d->name, (Py_ssize_t)strnlen(d->name, sizeof(d->name)),
			     "dimCount", (Py_ssize_t)d->dimCount, "dims", dims);
}

/* A dict with "dims" (and optionally "name") into @d. */
static int dict_to_dims(PyObject *o, aclmdlIODims *d)
{
	PyObject *dims_o, *name_o;
	int64_t *dims;
	int n;

	memset(d, 0, sizeof(*d));
	if (!PyDict_Check(o)) {
		PyErr_Format(PyExc_TypeError, "dims must be a dict with \"dims\", not %.100s", Py_TYPE(o)->tp_name);
		return -1;
	}
	dims_o = PyDict_GetItemString(o, "dims");
	if (!dims_o) {
		PyErr_SetString(PyExc_ValueError, "dims: the dict has no \"dims\"");
		return -1;
	}
	if (pyacl_i64_list(dims_o, &dims, &n, "dims[\"dims\"]"))
		return -1;
	if (n > ACL_MAX_DIM_CNT) {
		PyMem_Free(dims);
		PyErr_Format(PyExc_ValueError, "dims: at most %d dimensions", ACL_MAX_DIM_CNT);
		return -1;
	}
	memcpy(d->dims, dims, (size_t)n * sizeof(*dims));
	d->dimCount = (size_t)n;
	PyMem_Free(dims);
	name_o = PyDict_GetItemString(o, "name");
	if (name_o && PyUnicode_Check(name_o)) {
		const char *s = PyUnicode_AsUTF8(name_o);

		if (!s)
			return -1;
		snprintf(d->name, sizeof(d->name), "%s", s);
	}
	return 0;
}

typedef aclError (*dims_fn)(const aclmdlDesc *, size_t, aclmdlIODims *);

static PyObject *get_dims(PyObject *args, dims_fn fn, const char *name)
{
	PyObject *desc_o;
	Py_ssize_t index;
	aclmdlIODims d;
	void *desc;
	aclError ret;

	if (!PyArg_ParseTuple(args, "On", &desc_o, &index) || pyacl_ptr(desc_o, &desc, name))
		return NULL;
	memset(&d, 0, sizeof(d));
	ret = fn(desc, (size_t)index, &d);
	return Py_BuildValue("Ni", dims_to_dict(&d), ret);
}

static PyObject *py_get_input_dims(PyObject *self, PyObject *args)
{
	(void)self;
	return get_dims(args, aclmdlGetInputDims, "get_input_dims: model_desc");
}

static PyObject *py_get_input_dims_v2(PyObject *self, PyObject *args)
{
	(void)self;
	return get_dims(args, aclmdlGetInputDimsV2, "get_input_dims_v2: model_desc");
}

static PyObject *py_get_output_dims(PyObject *self, PyObject *args)
{
	(void)self;
	return get_dims(args, aclmdlGetOutputDims, "get_output_dims: model_desc");
}

static PyObject *py_get_cur_output_dims(PyObject *self, PyObject *args)
{
	(void)self;
	return get_dims(args, aclmdlGetCurOutputDims, "get_cur_output_dims: model_desc");
}

/* get_input_dims_range(desc, index) -> ({"rangeCount", "range"}, ret) */
static PyObject *py_get_input_dims_range(PyObject *self, PyObject *args)
{
	PyObject *desc_o, *list;
	Py_ssize_t index;
	aclmdlIODimsRange r;
	void *desc;
	size_t k, n;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "On:get_input_dims_range", &desc_o, &index) ||
	    pyacl_ptr(desc_o, &desc, "get_input_dims_range: model_desc"))
		return NULL;
	memset(&r, 0, sizeof(r));
	ret = aclmdlGetInputDimsRange(desc, (size_t)index, &r);
	n = r.rangeCount < ACL_MAX_DIM_CNT ? r.rangeCount : ACL_MAX_DIM_CNT;
	list = PyList_New((Py_ssize_t)n);
	if (!list)
		return NULL;
	for (k = 0; k < n; k++) {
		PyObject *pair = Py_BuildValue("[LL]", (long long)r.range[k][0], (long long)r.range[k][1]);

		if (!pair) {
			Py_DECREF(list);
			return NULL;
		}
		PyList_SET_ITEM(list, (Py_ssize_t)k, pair);
	}
	return Py_BuildValue("{s:n,s:N}i", "rangeCount", (Py_ssize_t)r.rangeCount, "range", list, ret);
}

/* get_dynamic_batch(desc) -> ({"batchCount", "batch"}, ret) */
static PyObject *py_get_dynamic_batch(PyObject *self, PyObject *arg)
{
	aclmdlBatch b;
	PyObject *list;
	void *desc;
	size_t k, n;
	aclError ret;

	(void)self;
	if (pyacl_ptr(arg, &desc, "get_dynamic_batch: model_desc"))
		return NULL;
	memset(&b, 0, sizeof(b));
	ret = aclmdlGetDynamicBatch(desc, &b);
	n = b.batchCount < ACL_MAX_BATCH_NUM ? b.batchCount : ACL_MAX_BATCH_NUM;
	list = PyList_New((Py_ssize_t)n);
	if (!list)
		return NULL;
	for (k = 0; k < n; k++)
		PyList_SET_ITEM(list, (Py_ssize_t)k, PyLong_FromUnsignedLongLong(b.batch[k]));
	return Py_BuildValue("{s:n,s:N}i", "batchCount", (Py_ssize_t)b.batchCount, "batch", list, ret);
}

/* get_dynamic_hw(desc, index) -> ({"hwCount", "hw"}, ret) */
static PyObject *py_get_dynamic_hw(PyObject *self, PyObject *args)
{
	PyObject *desc_o, *list;
	Py_ssize_t index;
	aclmdlHW hw;
	void *desc;
	size_t k, n;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "On:get_dynamic_hw", &desc_o, &index) ||
	    pyacl_ptr(desc_o, &desc, "get_dynamic_hw: model_desc"))
		return NULL;
	memset(&hw, 0, sizeof(hw));
	ret = aclmdlGetDynamicHW(desc, (size_t)index, &hw);
	n = hw.hwCount < ACL_MAX_HW_NUM ? hw.hwCount : ACL_MAX_HW_NUM;
	list = PyList_New((Py_ssize_t)n);
	if (!list)
		return NULL;
	for (k = 0; k < n; k++)
		PyList_SET_ITEM(list, (Py_ssize_t)k,
				Py_BuildValue("[KK]", (unsigned long long)hw.hw[k][0], (unsigned long long)hw.hw[k][1]));
	return Py_BuildValue("{s:n,s:N}i", "hwCount", (Py_ssize_t)hw.hwCount, "hw", list, ret);
}

/* get_input_dynamic_dims(desc, index, gear_count) -> ([dict, ...], ret) */
static PyObject *py_get_input_dynamic_dims(PyObject *self, PyObject *args)
{
	PyObject *desc_o, *list;
	Py_ssize_t index, gears, k;
	aclmdlIODims *d;
	void *desc;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "Onn:get_input_dynamic_dims", &desc_o, &index, &gears) ||
	    pyacl_ptr(desc_o, &desc, "get_input_dynamic_dims: model_desc"))
		return NULL;
	if (gears < 0 || gears > ACL_MAX_SHAPE_COUNT)
		return PyErr_Format(PyExc_ValueError, "get_input_dynamic_dims: gear_count must be 0..%d",
				    ACL_MAX_SHAPE_COUNT);
	d = PyMem_Calloc(gears ? (size_t)gears : 1, sizeof(*d));
	if (!d)
		return PyErr_NoMemory();
	ret = aclmdlGetInputDynamicDims(desc, (size_t)index, d, (size_t)gears);
	list = PyList_New(gears);
	for (k = 0; list && k < gears; k++) {
		PyObject *v = dims_to_dict(&d[k]);

		if (!v) {
			Py_CLEAR(list);
			break;
		}
		PyList_SET_ITEM(list, k, v);
	}
	PyMem_Free(d);
	if (!list)
		return NULL;
	return Py_BuildValue("Ni", list, ret);
}

/* set_input_dynamic_dims(model_id, dataset, index, dims) -> ret */
static PyObject *py_set_input_dynamic_dims(PyObject *self, PyObject *args)
{
	PyObject *ds_o, *dims_o;
	unsigned int model;
	Py_ssize_t index;
	aclmdlIODims d;
	void *ds;

	(void)self;
	if (!PyArg_ParseTuple(args, "IOnO:set_input_dynamic_dims", &model, &ds_o, &index, &dims_o) ||
	    pyacl_ptr(ds_o, &ds, "set_input_dynamic_dims: dataset") || dict_to_dims(dims_o, &d))
		return NULL;
	return PyLong_FromLong(aclmdlSetInputDynamicDims(model, ds, (size_t)index, &d));
}

/*
 * set_config_opt(handle, attr, value) / set_exec_config_opt: the C value
 * behind the void * is a char * for a str, an int32_t for the *_INT32
 * attributes (and the performance mode), else 64 bits (size_t or a pointer,
 * both given as an int).
 */
static PyObject *config_opt(PyObject *args, bool exec, const char *name)
{
	PyObject *h_o, *val;
	union { const char *s; int32_t i; uint64_t q; void *p; } v;
	size_t size;
	void *h;
	int attr;
	bool i32;

	if (!PyArg_ParseTuple(args, "OiO", &h_o, &attr, &val) || pyacl_ptr(h_o, &h, name))
		return NULL;
	if (PyUnicode_Check(val)) {
		v.s = PyUnicode_AsUTF8(val);	/* the runtime copies strings */
		if (!v.s)
			return NULL;
		size = sizeof(v.s);
	} else if (PyLong_Check(val)) {
		i32 = exec ? attr == ACL_MDL_STREAM_SYNC_TIMEOUT || attr == ACL_MDL_EVENT_SYNC_TIMEOUT ||
			     attr == ACL_MDL_EXEC_PRIORITY_INT32 || attr == ACL_MDL_NPU_PERF_MODE :
			     attr == ACL_MDL_PRIORITY_INT32 || attr == ACL_MDL_WITHOUT_GRAPH_INT32 ||
			     attr == ACL_NPU_PERF_MODE;
		if (i32) {
			long x = PyLong_AsLong(val);

			if (PyErr_Occurred())
				return NULL;
			if (x < INT32_MIN || x > INT32_MAX)
				return PyErr_Format(PyExc_OverflowError, "%s: value out of range for an int32", name);
			v.i = (int32_t)x;
			size = sizeof(v.i);
		} else {
			/* Negative ints are not sizes; pointers come as unsigned. */
			v.q = PyLong_AsUnsignedLongLong(val);
			if (PyErr_Occurred())
				return NULL;
			size = sizeof(v.q);
		}
	} else {
		return PyErr_Format(PyExc_TypeError, "%s: value must be an int or a str, not %.100s", name,
				    Py_TYPE(val)->tp_name);
	}
	return PyLong_FromLong(exec ? aclmdlSetExecConfigOpt(h, (aclmdlExecConfigAttr)attr, &v, size) :
				      aclmdlSetConfigOpt(h, (aclmdlConfigAttr)attr, &v, size));
}

static PyObject *py_set_config_opt(PyObject *self, PyObject *args)
{
	(void)self;
	return config_opt(args, false, "set_config_opt");
}

static PyObject *py_set_exec_config_opt(PyObject *self, PyObject *args)
{
	(void)self;
	return config_opt(args, true, "set_exec_config_opt");
}

/* pyacl2: aclmdlRIGetName(ri) -> (name, ret), into a buffer of the
 * 128 bytes aclmdlRISetName keeps with its NUL. */
static PyObject *py_ri_get_name(PyObject *self, PyObject *arg)
{
	char name[128] = "";
	void *ri;
	aclError ret;

	(void)self;
	if (pyacl_ptr(arg, &ri, "ri_get_name: model_ri"))
		return NULL;
	ret = aclmdlRIGetName(ri, (uint32_t)sizeof(name), name);
	return Py_BuildValue("(si)", ret == ACL_SUCCESS ? name : "", (int)ret);
}

/* pyacl2: aclmdlRICaptureThreadExchangeMode(mode) -> (old_mode, ret), the
 * in-out argument split into an argument and a result. */
static PyObject *py_ri_capture_thread_exchange_mode(PyObject *self, PyObject *arg)
{
	aclmdlRICaptureMode mode;
	long v;
	aclError ret;

	(void)self;
	if (!PyLong_Check(arg)) {
		PyErr_SetString(PyExc_TypeError, "ri_capture_thread_exchange_mode: mode must be an int");
		return NULL;
	}
	v = PyLong_AsLong(arg);
	if (v == -1 && PyErr_Occurred())
		return NULL;
	if (v < INT32_MIN || v > INT32_MAX) {
		PyErr_SetString(PyExc_OverflowError, "ri_capture_thread_exchange_mode: mode out of range");
		return NULL;
	}
	mode = (aclmdlRICaptureMode)v;
	ret = aclmdlRICaptureThreadExchangeMode(&mode);
	return Py_BuildValue("(ii)", (int)mode, (int)ret);
}

PyMethodDef pyacl_mdl_methods[] = {
	{ "set_config_opt", py_set_config_opt, METH_VARARGS,
	  "aclmdlSetConfigOpt(handle, attr, value) -> ret; value: int or str (paths)" },
	{ "set_exec_config_opt", py_set_exec_config_opt, METH_VARARGS,
	  "aclmdlSetExecConfigOpt(handle, attr, value) -> ret; value: int" },
	{ "get_input_dims", py_get_input_dims, METH_VARARGS, "aclmdlGetInputDims(desc, index) -> (dims, ret)" },
	{ "get_input_dims_v2", py_get_input_dims_v2, METH_VARARGS,
	  "aclmdlGetInputDimsV2(desc, index) -> (dims, ret)" },
	{ "get_output_dims", py_get_output_dims, METH_VARARGS, "aclmdlGetOutputDims(desc, index) -> (dims, ret)" },
	{ "get_cur_output_dims", py_get_cur_output_dims, METH_VARARGS,
	  "aclmdlGetCurOutputDims(desc, index) -> (dims, ret)" },
	{ "get_input_dims_range", py_get_input_dims_range, METH_VARARGS,
	  "aclmdlGetInputDimsRange(desc, index) -> (dims_range, ret)" },
	{ "get_dynamic_batch", py_get_dynamic_batch, METH_O, "aclmdlGetDynamicBatch(desc) -> (batch, ret)" },
	{ "get_dynamic_hw", py_get_dynamic_hw, METH_VARARGS, "aclmdlGetDynamicHW(desc, index) -> (hw, ret)" },
	{ "get_input_dynamic_dims", py_get_input_dynamic_dims, METH_VARARGS,
	  "aclmdlGetInputDynamicDims(desc, index, gear_count) -> (list of dims, ret)" },
	{ "set_input_dynamic_dims", py_set_input_dynamic_dims, METH_VARARGS,
	  "aclmdlSetInputDynamicDims(model_id, dataset, index, dims) -> ret" },
	/* pyacl2: a caller buffer and an in-out argument */
	{ "ri_get_name", py_ri_get_name, METH_O, "aclmdlRIGetName(model_ri) -> (name, ret)" },
	{ "ri_capture_thread_exchange_mode", py_ri_capture_thread_exchange_mode, METH_O,
	  "aclmdlRICaptureThreadExchangeMode(mode) -> (old_mode, ret)" },
	{ NULL, NULL, 0, NULL },
};

#define G PYACL_NOGIL

struct pyacl_fn pyacl_mdl_fns[] = {
	/* loading */
	PYACL_FN("load_from_file", aclmdlLoadFromFile, "e:sU", G),
	PYACL_FN("load_from_mem", aclmdlLoadFromMem, "e:pzU", G),
	PYACL_FN("load_from_file_with_mem", aclmdlLoadFromFileWithMem, "e:sUpzpz", G),
	PYACL_FN("load_from_mem_with_mem", aclmdlLoadFromMemWithMem, "e:pzUpzpz", G),
	PYACL_FN("load_with_config", aclmdlLoadWithConfig, "e:pU", G),
	PYACL_FN("load_from_model", aclmdlLoadFromModel, "e:ppU", G),
	PYACL_FN("set_external_weight_address", aclmdlSetExternalWeightAddress, "e:pspz", 0),
	PYACL_FN("unload", aclmdlUnload, "e:u", G),
	PYACL_FN("query_size", aclmdlQuerySize, "e:sZZ", G),
	PYACL_FN("query_size_from_mem", aclmdlQuerySizeFromMem, "e:pzZZ", G),
	PYACL_FN("query_workspace_size", aclmdlQueryWorkspaceSize, "e:szZ", G),
	PYACL_FN("query_workspace_size_from_mem", aclmdlQueryWorkspaceSizeFromMem, "e:pzzZ", G),
	PYACL_FN("create_config_handle", aclmdlCreateConfigHandle, "p:", 0),
	PYACL_FN("destroy_config_handle", aclmdlDestroyConfigHandle, "e:p", 0),
	/* bundles */
	PYACL_FN("bundle_load_from_file", aclmdlBundleLoadFromFile, "e:sU", G),
	PYACL_FN("bundle_load_from_mem", aclmdlBundleLoadFromMem, "e:pzU", G),
	PYACL_FN("bundle_unload", aclmdlBundleUnload, "e:u", G),
	PYACL_FN("bundle_get_model_num", aclmdlBundleGetModelNum, "e:uZ", 0),
	PYACL_FN("bundle_get_model_id", aclmdlBundleGetModelId, "e:uzU", 0),
	PYACL_FN("bundle_create_query_info", aclmdlBundleCreateQueryInfo, "p:", 0),
	PYACL_FN("bundle_destroy_query_info", aclmdlBundleDestroyQueryInfo, "e:p", 0),
	PYACL_FN("bundle_query_info_from_file", aclmdlBundleQueryInfoFromFile, "e:sp", G),
	PYACL_FN("bundle_query_info_from_mem", aclmdlBundleQueryInfoFromMem, "e:pzp", G),
	PYACL_FN("bundle_get_query_model_num", aclmdlBundleGetQueryModelNum, "e:pZ", 0),
	PYACL_FN("bundle_get_var_weight_size", aclmdlBundleGetVarWeightSize, "e:pZ", 0),
	PYACL_FN("bundle_get_size", aclmdlBundleGetSize, "e:pzZZ", 0),
	PYACL_FN("bundle_init_from_file", aclmdlBundleInitFromFile, "e:spzU", G),
	PYACL_FN("bundle_init_from_mem", aclmdlBundleInitFromMem, "e:pzpzU", G),
	PYACL_FN("bundle_load_model", aclmdlBundleLoadModel, "e:uzU", G),
	PYACL_FN("bundle_load_model_with_mem", aclmdlBundleLoadModelWithMem, "e:uzpzpzU", G),
	PYACL_FN("bundle_load_model_with_config", aclmdlBundleLoadModelWithConfig, "e:uzpU", G),
	PYACL_FN("bundle_unload_model", aclmdlBundleUnloadModel, "e:uu", G),
	/* descriptions */
	PYACL_FN("create_desc", aclmdlCreateDesc, "p:", 0),
	PYACL_FN("destroy_desc", aclmdlDestroyDesc, "e:p", 0),
	PYACL_FN("get_desc", aclmdlGetDesc, "e:pu", 0),
	PYACL_FN("get_desc_from_file", aclmdlGetDescFromFile, "e:ps", G),
	PYACL_FN("get_desc_from_mem", aclmdlGetDescFromMem, "e:ppz", 0),
	PYACL_FN("get_num_inputs", aclmdlGetNumInputs, "z:p", 0),
	PYACL_FN("get_num_outputs", aclmdlGetNumOutputs, "z:p", 0),
	PYACL_FN("get_input_size_by_index", aclmdlGetInputSizeByIndex, "z:pz", 0),
	PYACL_FN("get_output_size_by_index", aclmdlGetOutputSizeByIndex, "z:pz", 0),
	PYACL_FN("get_input_name_by_index", aclmdlGetInputNameByIndex, "s:pz", 0),
	PYACL_FN("get_output_name_by_index", aclmdlGetOutputNameByIndex, "s:pz", 0),
	PYACL_FN("get_input_format", aclmdlGetInputFormat, "i:pz", 0),
	PYACL_FN("get_output_format", aclmdlGetOutputFormat, "i:pz", 0),
	PYACL_FN("get_input_data_type", aclmdlGetInputDataType, "i:pz", 0),
	PYACL_FN("get_output_data_type", aclmdlGetOutputDataType, "i:pz", 0),
	PYACL_FN("get_input_index_by_name", aclmdlGetInputIndexByName, "e:psZ", 0),
	PYACL_FN("get_output_index_by_name", aclmdlGetOutputIndexByName, "e:psZ", 0),
	PYACL_FN("get_input_dynamic_gear_count", aclmdlGetInputDynamicGearCount, "e:pzZ", 0),
	PYACL_FN("get_tensor_real_name", aclmdlGetTensorRealName, "s:ps", 0),
	PYACL_FN("get_op_attr", aclmdlGetOpAttr, "s:pss", 0),
	/* datasets */
	PYACL_FN("create_dataset", aclmdlCreateDataset, "p:", 0),
	PYACL_FN("destroy_dataset", aclmdlDestroyDataset, "e:p", 0),
	PYACL_FN("add_dataset_buffer", aclmdlAddDatasetBuffer, "e:pp", 0),
	PYACL_FN("get_dataset_buffer", aclmdlGetDatasetBuffer, "p:pz", 0),
	PYACL_FN("get_dataset_num_buffers", aclmdlGetDatasetNumBuffers, "z:p", 0),
	PYACL_FN("set_dataset_tensor_desc", aclmdlSetDatasetTensorDesc, "e:ppz", 0),
	PYACL_FN("get_dataset_tensor_desc", aclmdlGetDatasetTensorDesc, "p:pz", 0),
	/* execution: the GIL is released (a stream allocator may be called) */
	PYACL_FN("execute", aclmdlExecute, "e:upp", G),
	PYACL_FN("execute_async", aclmdlExecuteAsync, "e:uppp", G),
	PYACL_FN("execute_v2", aclmdlExecuteV2, "e:upppp", G),
	PYACL_FN("execute_async_v2", aclmdlExecuteAsyncV2, "e:upppp", G),
	PYACL_FN("create_exec_config_handle", aclmdlCreateExecConfigHandle, "p:", 0),
	PYACL_FN("destroy_exec_config_handle", aclmdlDestroyExecConfigHandle, "e:p", 0),
	PYACL_FN("set_dynamic_batch_size", aclmdlSetDynamicBatchSize, "e:upzq", 0),
	PYACL_FN("set_dynamic_hw_size", aclmdlSetDynamicHWSize, "e:upzqq", 0),
	/* AIPP */
	PYACL_FN("create_aipp", aclmdlCreateAIPP, "p:q", 0),
	PYACL_FN("destroy_aipp", aclmdlDestroyAIPP, "e:p", 0),
	PYACL_FN("get_aipp_data_size", aclmdlGetAippDataSize, "e:qZ", 0),
	PYACL_FN("set_aipp_input_format", aclmdlSetAIPPInputFormat, "e:pi", 0),
	PYACL_FN("set_aipp_csc_params", aclmdlSetAIPPCscParams, "e:pchhhhhhhhhbbbbbb", 0),
	PYACL_FN("set_aipp_rbuv_swap_switch", aclmdlSetAIPPRbuvSwapSwitch, "e:pc", 0),
	PYACL_FN("set_aipp_ax_swap_switch", aclmdlSetAIPPAxSwapSwitch, "e:pc", 0),
	PYACL_FN("set_aipp_src_image_size", aclmdlSetAIPPSrcImageSize, "e:pii", 0),
	PYACL_FN("set_aipp_scf_params", aclmdlSetAIPPScfParams, "e:pciiiiq", 0),
	PYACL_FN("set_aipp_crop_params", aclmdlSetAIPPCropParams, "e:pciiiiq", 0),
	PYACL_FN("set_aipp_padding_params", aclmdlSetAIPPPaddingParams, "e:pciiiiq", 0),
	PYACL_FN("set_aipp_dtc_pixel_mean", aclmdlSetAIPPDtcPixelMean, "e:phhhhq", 0),
	PYACL_FN("set_aipp_dtc_pixel_min", aclmdlSetAIPPDtcPixelMin, "e:pffffq", 0),
	PYACL_FN("set_aipp_pixel_var_reci", aclmdlSetAIPPPixelVarReci, "e:pffffq", 0),
	PYACL_FN("set_input_aipp", aclmdlSetInputAIPP, "e:upzp", 0),
	PYACL_FN("set_aipp_by_input_index", aclmdlSetAIPPByInputIndex, "e:upzp", 0),
	PYACL_FN("get_aipp_type", aclmdlGetAippType, "e:uzIZ", 0),
	/* captured task graphs (aclmdlRI*, docs/capture.md); pyACL has no
	 * names for them: the snake_case of the C names after "aclmdl". */
	PYACL_FN("ri_capture_begin", aclmdlRICaptureBegin, "e:pi", 0),
	PYACL_FN("ri_capture_get_info", aclmdlRICaptureGetInfo, "e:pIP", 0),
	PYACL_FN("ri_capture_end", aclmdlRICaptureEnd, "e:pP", 0),
	PYACL_FN("ri_capture_task_grp_begin", aclmdlRICaptureTaskGrpBegin, "e:p", 0),
	PYACL_FN("ri_capture_task_grp_end", aclmdlRICaptureTaskGrpEnd, "e:pP", 0),
	PYACL_FN("ri_capture_task_update_begin", aclmdlRICaptureTaskUpdateBegin, "e:pp", 0),
	PYACL_FN("ri_capture_task_update_end", aclmdlRICaptureTaskUpdateEnd, "e:p", 0),
	PYACL_FN("ri_execute_async", aclmdlRIExecuteAsync, "e:pp", G),
	PYACL_FN("ri_execute", aclmdlRIExecute, "e:pi", G),
	PYACL_FN("ri_destroy", aclmdlRIDestroy, "e:p", G),
	PYACL_FN("ri_get_id", aclmdlRIGetId, "e:pU", 0),
	PYACL_FN("ri_set_name", aclmdlRISetName, "e:ps", 0),
	PYACL_FN("ri_task_get_type", aclmdlRITaskGetType, "e:pI", 0),
	PYACL_FN("ri_task_get_seq_id", aclmdlRITaskGetSeqId, "e:pU", 0),
	PYACL_FN("ri_task_disable", aclmdlRITaskDisable, "e:p", 0),
	PYACL_FN("ri_update", aclmdlRIUpdate, "e:p", G),
	PYACL_FN("ri_debug_print", aclmdlRIDebugPrint, "e:p", 0),
	PYACL_FN("ri_debug_json_print", aclmdlRIDebugJsonPrint, "e:psu", 0),
	/* issue 19 (ri2): building an instance from bound persistent streams,
	 * and aborting its replay. */
	PYACL_FN("ri_build_begin", aclmdlRIBuildBegin, "e:Pu", 0),
	PYACL_FN("ri_bind_stream", aclmdlRIBindStream, "e:ppu", 0),
	PYACL_FN("ri_end_task", aclmdlRIEndTask, "e:pp", 0),
	PYACL_FN("ri_build_end", aclmdlRIBuildEnd, "e:pp", 0),
	PYACL_FN("ri_unbind_stream", aclmdlRIUnbindStream, "e:pp", 0),
	PYACL_FN("ri_abort", aclmdlRIAbort, "e:p", G),
	PYACL_END,
};
