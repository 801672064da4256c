// SPDX-License-Identifier: MIT
/*
 * acl_rt.c - acl.rt: devices, contexts, streams, events, memory, copies,
 * callbacks and reports (the allocator family is acl_alloc.c).
 */
#include "acl_py.h"

/* ---- callbacks: fn(user_data) on the runtime's callback thread ------------- */

struct pycall {
	PyObject *fn, *data;
};

static void tramp_call(void *arg)
{
	struct pycall *c = arg;
	PyGILState_STATE g = PyGILState_Ensure();
	PyObject *r = PyObject_CallOneArg(c->fn, c->data);

	if (!r)
		pyacl_report("a stream callback");
	Py_XDECREF(r);
	Py_DECREF(c->fn);
	Py_DECREF(c->data);
	PyMem_RawFree(c);
	PyGILState_Release(g);
}

static struct pycall *pycall_new(PyObject *fn, PyObject *data, const char *name)
{
	struct pycall *c;

	if (!PyCallable_Check(fn)) {
		PyErr_Format(PyExc_TypeError, "%s: the function must be callable, not %.100s", name,
			     Py_TYPE(fn)->tp_name);
		return NULL;
	}
	c = PyMem_RawMalloc(sizeof(*c));
	if (!c) {
		PyErr_NoMemory();
		return NULL;
	}
	Py_INCREF(fn);
	Py_INCREF(data);
	c->fn = fn;
	c->data = data;
	return c;
}

static void pycall_drop(struct pycall *c)
{
	Py_DECREF(c->fn);
	Py_DECREF(c->data);
	PyMem_RawFree(c);
}

/* launch_callback(fn, user_data, block_type, stream) -> ret */
static PyObject *py_launch_callback(PyObject *self, PyObject *args)
{
	PyObject *fn, *data, *stream_o;
	struct pycall *c;
	void *stream;
	int block;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "OOiO:launch_callback", &fn, &data, &block, &stream_o) ||
	    pyacl_ptr(stream_o, &stream, "launch_callback: stream"))
		return NULL;
	c = pycall_new(fn, data, "launch_callback");
	if (!c)
		return NULL;
	ret = aclrtLaunchCallback(tramp_call, c, (aclrtCallbackBlockType)block, stream);
	if (ret != ACL_SUCCESS)
		pycall_drop(c);
	return PyLong_FromLong(ret);
}

/* launch_host_func(stream, fn, args) -> ret */
static PyObject *py_launch_host_func(PyObject *self, PyObject *args)
{
	PyObject *fn, *data, *stream_o;
	struct pycall *c;
	void *stream;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "OOO:launch_host_func", &stream_o, &fn, &data) ||
	    pyacl_ptr(stream_o, &stream, "launch_host_func: stream"))
		return NULL;
	c = pycall_new(fn, data, "launch_host_func");
	if (!c)
		return NULL;
	ret = aclrtLaunchHostFunc(stream, tramp_call, c);
	if (ret != ACL_SUCCESS)
		pycall_drop(c);
	return PyLong_FromLong(ret);
}

/* destroy_stream(stream) -> ret: the stream's allocator registration goes
 * with it, and so do the Python objects it held. */
static PyObject *destroy_stream(PyObject *arg, aclError (*fn)(aclrtStream), const char *name)
{
	PyThreadState *ts;
	void *stream;
	aclError ret;

	if (pyacl_ptr(arg, &stream, name))
		return NULL;
	ts = pyacl_nogil_begin();
	ret = fn(stream);
	pyacl_nogil_end(ts);
	if (ret == ACL_SUCCESS)
		pyacl_alloc_forget_stream(stream);
	return PyLong_FromLong(ret);
}

static PyObject *py_destroy_stream(PyObject *self, PyObject *arg)
{
	(void)self;
	return destroy_stream(arg, aclrtDestroyStream, "destroy_stream: stream");
}

static PyObject *py_destroy_stream_force(PyObject *self, PyObject *arg)
{
	(void)self;
	return destroy_stream(arg, aclrtDestroyStreamForce, "destroy_stream_force: stream");
}

/* reset_device(id) / reset_device_force(id) / destroy_context(ctx) -> ret:
 * they may take streams with them, and so their registrations. */
static PyObject *then_prune(aclError ret)
{
	if (ret == ACL_SUCCESS)
		pyacl_alloc_prune();
	return PyLong_FromLong(ret);
}

static PyObject *reset_device(PyObject *arg, aclError (*fn)(int32_t))
{
	PyThreadState *ts;
	long id;
	aclError ret;

	if (!PyLong_Check(arg))
		return PyErr_Format(PyExc_TypeError, "the device id must be an int, not %.100s", Py_TYPE(arg)->tp_name);
	id = PyLong_AsLong(arg);
	if (PyErr_Occurred())
		return NULL;
	if (id < INT32_MIN || id > INT32_MAX)
		return PyErr_Format(PyExc_OverflowError, "device id %ld is out of range", id);
	ts = pyacl_nogil_begin();
	ret = fn((int32_t)id);
	pyacl_nogil_end(ts);
	return then_prune(ret);
}

static PyObject *py_reset_device(PyObject *self, PyObject *arg)
{
	(void)self;
	return reset_device(arg, aclrtResetDevice);
}

static PyObject *py_reset_device_force(PyObject *self, PyObject *arg)
{
	(void)self;
	return reset_device(arg, aclrtResetDeviceForce);
}

static PyObject *py_destroy_context(PyObject *self, PyObject *arg)
{
	PyThreadState *ts;
	void *ctx;
	aclError ret;

	(void)self;
	if (pyacl_ptr(arg, &ctx, "destroy_context: context"))
		return NULL;
	ts = pyacl_nogil_begin();
	ret = aclrtDestroyContext(ctx);
	pyacl_nogil_end(ts);
	return then_prune(ret);
}

/* pyacl2: aclrtDeviceGetPCIBusId(device_id) -> (bus_id, ret) */
static PyObject *py_device_get_pci_bus_id(PyObject *self, PyObject *arg)
{
	char buf[32] = "";
	long dev;
	aclError ret;

	(void)self;
	if (!PyLong_Check(arg)) {
		PyErr_SetString(PyExc_TypeError, "device_get_pci_bus_id: device_id must be an int");
		return NULL;
	}
	dev = PyLong_AsLong(arg);
	if (dev == -1 && PyErr_Occurred())
		return NULL;
	if (dev < INT32_MIN || dev > INT32_MAX) {
		PyErr_SetString(PyExc_OverflowError, "device_get_pci_bus_id: device_id out of range");
		return NULL;
	}
	ret = aclrtDeviceGetPCIBusId((int32_t)dev, buf, (int32_t)sizeof(buf));
	return Py_BuildValue("(si)", ret == ACL_SUCCESS ? buf : "", (int)ret);
}

/* notify_batch_reset(notifies) -> ret: a list of notify handles. */
static PyObject *py_notify_batch_reset(PyObject *self, PyObject *arg)
{
	void **notifies;
	PyThreadState *ts;
	aclError ret;
	int n;

	(void)self;
	if (pyacl_ptr_list(arg, &notifies, &n, "notify_batch_reset: notifies"))
		return NULL;
	ts = pyacl_nogil_begin();
	ret = aclrtNotifyBatchReset((aclrtNotify *)notifies, (size_t)n);
	pyacl_nogil_end(ts);
	PyMem_Free(notifies);
	return PyLong_FromLong(ret);
}

PyMethodDef pyacl_rt_methods[] = {
	{ "reset_device", py_reset_device, METH_O, "aclrtResetDevice(device_id) -> ret" },
	{ "reset_device_force", py_reset_device_force, METH_O, "aclrtResetDeviceForce(device_id) -> ret" },
	{ "destroy_context", py_destroy_context, METH_O, "aclrtDestroyContext(context) -> ret" },
	{ "launch_callback", py_launch_callback, METH_VARARGS,
	  "aclrtLaunchCallback(fn, user_data, block_type, stream) -> ret; fn(user_data) runs in the thread "
	  "subscribed to the stream (process_report)" },
	{ "launch_host_func", py_launch_host_func, METH_VARARGS,
	  "aclrtLaunchHostFunc(stream, fn, args) -> ret; fn(args)" },
	{ "destroy_stream", py_destroy_stream, METH_O, "aclrtDestroyStream(stream) -> ret" },
	{ "destroy_stream_force", py_destroy_stream_force, METH_O, "aclrtDestroyStreamForce(stream) -> ret" },
	/* pyacl2: caller buffers */
	{ "device_get_pci_bus_id", py_device_get_pci_bus_id, METH_O,
	  "aclrtDeviceGetPCIBusId(device_id) -> (bus_id, ret)" },
	{ "notify_batch_reset", py_notify_batch_reset, METH_O, "aclrtNotifyBatchReset(notifies) -> ret" },
	{ NULL, NULL, 0, NULL },
};

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"	/* pyACL binds it still */
/* Deprecated in CANN, bound by pyACL: called through this wrapper. */
static aclError query_event(aclrtEvent event, aclrtEventStatus *status)
{
	return aclrtQueryEvent(event, status);
}
#pragma GCC diagnostic pop

#define G PYACL_NOGIL

struct pyacl_fn pyacl_rt_fns[] = {
	/* devices */
	PYACL_FN("set_device", aclrtSetDevice, "e:i", G),
	PYACL_FN("get_device", aclrtGetDevice, "e:I", 0),
	PYACL_FN("get_device_count", aclrtGetDeviceCount, "e:U", 0),
	PYACL_FN("get_run_mode", aclrtGetRunMode, "e:I", 0),
	PYACL_FN("synchronize_device", aclrtSynchronizeDevice, "e:", G),
	PYACL_FN("synchronize_device_with_timeout", aclrtSynchronizeDeviceWithTimeout, "e:i", G),
	PYACL_FN("get_last_error", aclrtGetLastError, "e:i", 0),
	PYACL_FN("peek_at_last_error", aclrtPeekAtLastError, "e:i", 0),
	/* contexts */
	PYACL_FN("create_context", aclrtCreateContext, "e:Pi", 0),
	PYACL_FN("set_context", aclrtSetCurrentContext, "e:p", 0),
	PYACL_FN("get_context", aclrtGetCurrentContext, "e:P", 0),
	PYACL_FN("ctx_get_current_default_stream", aclrtCtxGetCurrentDefaultStream, "e:P", 0),
	/* streams */
	PYACL_FN("create_stream", aclrtCreateStream, "e:P", 0),
	PYACL_FN("create_stream_with_config", aclrtCreateStreamWithConfig, "e:Puu", 0),
	PYACL_FN("create_stream_config_handle", aclrtCreateStreamConfigHandle, "p:", 0),
	PYACL_FN("destroy_stream_config_handle", aclrtDestroyStreamConfigHandle, "e:p", 0),
	PYACL_FN("create_stream_v2", aclrtCreateStreamV2, "e:Pp", 0),
	PYACL_FN("synchronize_stream", aclrtSynchronizeStream, "e:p", G),
	PYACL_FN("synchronize_stream_with_timeout", aclrtSynchronizeStreamWithTimeout, "e:pi", G),
	PYACL_FN("stream_query", aclrtStreamQuery, "e:pI", 0),
	PYACL_FN("stream_wait_event", aclrtStreamWaitEvent, "e:pp", G),
	PYACL_FN("value_write", aclrtValueWrite, "e:pqup", G),
	PYACL_FN("value_wait", aclrtValueWait, "e:pqup", G),
	/* events */
	PYACL_FN("create_event", aclrtCreateEvent, "e:P", 0),
	PYACL_FN("create_event_with_flag", aclrtCreateEventWithFlag, "e:Pu", 0),
	PYACL_FN("create_event_ex_with_flag", aclrtCreateEventExWithFlag, "e:Pu", 0),
	PYACL_FN("record_event", aclrtRecordEvent, "e:pp", G),
	PYACL_FN("reset_event", aclrtResetEvent, "e:pp", G),
	PYACL_FN("synchronize_event", aclrtSynchronizeEvent, "e:p", G),
	PYACL_FN("synchronize_event_with_timeout", aclrtSynchronizeEventWithTimeout, "e:pi", G),
	PYACL_FN_AS("query_event", query_event, "aclrtQueryEvent", "e:pI", 0),
	PYACL_FN("query_event_status", aclrtQueryEventStatus, "e:pI", 0),
	PYACL_FN("query_event_wait_status", aclrtQueryEventWaitStatus, "e:pI", 0),
	PYACL_FN("event_elapsed_time", aclrtEventElapsedTime, "e:Fpp", 0),
	PYACL_FN("event_get_timestamp", aclrtEventGetTimestamp, "e:pQ", 0),
	PYACL_FN("destroy_event", aclrtDestroyEvent, "e:p", G),
	/* memory */
	PYACL_FN("malloc", aclrtMalloc, "e:Pzi", G),
	PYACL_FN("malloc_align32", aclrtMallocAlign32, "e:Pzi", G),
	PYACL_FN("malloc_cached", aclrtMallocCached, "e:Pzi", G),
	PYACL_FN("free", aclrtFree, "e:p", G),
	PYACL_FN("malloc_host", aclrtMallocHost, "e:Pz", G),
	PYACL_FN("free_host", aclrtFreeHost, "e:p", G),
	PYACL_FN("memcpy", aclrtMemcpy, "e:pzpzi", G),
	PYACL_FN("memcpy_async", aclrtMemcpyAsync, "e:pzpzip", G),
	PYACL_FN("memcpy2d", aclrtMemcpy2d, "e:pzpzzzi", G),
	PYACL_FN("memcpy2d_async", aclrtMemcpy2dAsync, "e:pzpzzzip", G),
	PYACL_FN("memset", aclrtMemset, "e:pziz", G),
	PYACL_FN("memset_async", aclrtMemsetAsync, "e:pzizp", G),
	PYACL_FN("get_mem_info", aclrtGetMemInfo, "e:iZZ", 0),
	/* memory built-ins (issue 17): a configuration is a pointer (0: none) */
	PYACL_FN("malloc_with_cfg", aclrtMallocWithCfg, "e:Pzip", G),
	PYACL_FN("malloc_host_with_cfg", aclrtMallocHostWithCfg, "e:Pqp", G),
	PYACL_FN("free_with_dev_sync", aclrtFreeWithDevSync, "e:p", G),
	PYACL_FN("free_host_with_dev_sync", aclrtFreeHostWithDevSync, "e:p", G),
	PYACL_FN("mem_get_address_range", aclrtMemGetAddressRange, "e:pPZ", 0),
	PYACL_FN("memset_d32", aclrtMemsetD32, "e:pzuz", G),
	PYACL_FN("memset_d32_async", aclrtMemsetD32Async, "e:pzuzp", G),
	PYACL_FN("memcpy_async_with_offset", aclrtMemcpyAsyncWithOffset, "e:pzzpzzip", G),
	PYACL_FN("get_memcpy_desc_size", aclrtGetMemcpyDescSize, "e:iZ", 0),
	PYACL_FN("set_memcpy_desc", aclrtSetMemcpyDesc, "e:pippzp", G),
	PYACL_FN("memcpy_async_with_desc", aclrtMemcpyAsyncWithDesc, "e:pip", G),
	PYACL_FN("mem_flush", aclrtMemFlush, "e:pz", 0),
	PYACL_FN("mem_invalidate", aclrtMemInvalidate, "e:pz", 0),
	/* reports */
	PYACL_FN("subscribe_report", aclrtSubscribeReport, "e:qp", G),
	PYACL_FN("unsubscribe_report", aclrtUnSubscribeReport, "e:qp", G),
	PYACL_FN("process_report", aclrtProcessReport, "e:i", G),
	/* device and system queries (docs/libacl.md) */
	PYACL_FN("get_device_info", aclrtGetDeviceInfo, "e:uiL", 0),
	PYACL_FN("get_device_capability", aclrtGetDeviceCapability, "e:iiI", 0),
	PYACL_FN("query_device_status", aclrtQueryDeviceStatus, "e:iI", 0),
	PYACL_FN("device_get_stream_priority_range", aclrtDeviceGetStreamPriorityRange, "e:II", 0),
	PYACL_FN("device_set_limit", aclrtDeviceSetLimit, "e:iz", 0),
	PYACL_FN("device_get_limit", aclrtDeviceGetLimit, "e:iZ", 0),
	PYACL_FN("set_device_res_limit", aclrtSetDeviceResLimit, "e:iiu", 0),
	PYACL_FN("get_device_res_limit", aclrtGetDeviceResLimit, "e:iiU", 0),
	PYACL_FN("reset_device_res_limit", aclrtResetDeviceResLimit, "e:i", 0),
	PYACL_FN("get_res_in_current_thread", aclrtGetResInCurrentThread, "e:iU", 0),
	PYACL_FN("device_get_by_pci_bus_id", aclrtDeviceGetByPCIBusId, "e:sI", 0),
	PYACL_FN("get_devices_topo", aclrtGetDevicesTopo, "e:uuQ", 0),
	PYACL_FN("get_logic_dev_id_by_phy_dev_id", aclrtGetLogicDevIdByPhyDevId, "e:iI", 0),
	PYACL_FN("get_phy_dev_id_by_logic_dev_id", aclrtGetPhyDevIdByLogicDevId, "e:iI", 0),
	PYACL_FN("get_logic_dev_id_by_user_dev_id", aclrtGetLogicDevIdByUserDevId, "e:iI", 0),
	PYACL_FN("get_user_dev_id_by_logic_dev_id", aclrtGetUserDevIdByLogicDevId, "e:iI", 0),
	PYACL_FN("get_phy_dev_id_by_user_dev_id", aclrtGetPhyDevIdByUserDevId, "e:iI", 0),
	PYACL_FN("get_user_dev_id_by_phy_dev_id", aclrtGetUserDevIdByPhyDevId, "e:iI", 0),
	PYACL_FN("check_arch_compatibility", aclrtCheckArchCompatibility, "e:sI", 0),
	PYACL_FN("get_primary_ctx_state", aclrtGetPrimaryCtxState, "e:iUI", 0),
	PYACL_FN("set_device_sat_mode", aclrtSetDeviceSatMode, "e:i", 0),
	PYACL_FN("get_device_sat_mode", aclrtGetDeviceSatMode, "e:I", 0),
	PYACL_FN("set_sys_param_opt", aclrtSetSysParamOpt, "e:il", 0),
	PYACL_FN("get_sys_param_opt", aclrtGetSysParamOpt, "e:iL", 0),
	PYACL_FN("ctx_set_sys_param_opt", aclrtCtxSetSysParamOpt, "e:il", 0),
	PYACL_FN("ctx_get_sys_param_opt", aclrtCtxGetSysParamOpt, "e:iL", 0),
	/* issue 17, streams group: stream and event identity, notifies */
	PYACL_FN("stream_get_id", aclrtStreamGetId, "e:pI", 0),
	PYACL_FN("stream_get_priority", aclrtStreamGetPriority, "e:pU", 0),
	PYACL_FN("stream_get_flags", aclrtStreamGetFlags, "e:pU", 0),
	PYACL_FN("get_stream_available_num", aclrtGetStreamAvailableNum, "e:U", 0),
	/* issue 17, streams group: failure mode, abort, stop */
	PYACL_FN("set_stream_failure_mode", aclrtSetStreamFailureMode, "e:pq", 0),
	PYACL_FN("stream_abort", aclrtStreamAbort, "e:p", 0),
	PYACL_FN("stream_stop", aclrtStreamStop, "e:p", 0),
	PYACL_FN("record_event_with_flag", aclrtRecordEventWithFlag, "e:ppu", G),
	/* operator execution timeouts (issue 17) */
	PYACL_FN("set_op_execute_timeout", aclrtSetOpExecuteTimeOut, "e:u", 0),
	PYACL_FN("set_op_execute_timeout_with_ms", aclrtSetOpExecuteTimeOutWithMs, "e:u", 0),
	PYACL_FN("set_op_execute_timeout_v2", aclrtSetOpExecuteTimeOutV2, "e:qQ", 0),
	PYACL_FN("get_op_execute_timeout", aclrtGetOpExecuteTimeout, "e:U", 0),
	PYACL_FN("get_op_timeout_interval", aclrtGetOpTimeOutInterval, "e:Q", 0),
	PYACL_FN("get_event_id", aclrtGetEventId, "e:pU", 0),
	PYACL_FN("create_notify", aclrtCreateNotify, "e:Pq", G),
	PYACL_FN("destroy_notify", aclrtDestroyNotify, "e:p", G),
	PYACL_FN("record_notify", aclrtRecordNotify, "e:pp", G),
	PYACL_FN("wait_and_reset_notify", aclrtWaitAndResetNotify, "e:ppu", G),
	PYACL_FN("get_notify_id", aclrtGetNotifyId, "e:pU", 0),
	/* task exceptions (issue 17, docs/libacl.md): the getters take the
	 * info pointer a C exception callback received */
	PYACL_FN("get_thread_last_task_id", aclrtGetThreadLastTaskId, "e:U", 0),
	PYACL_FN("get_task_id_from_exception_info", aclrtGetTaskIdFromExceptionInfo, "u:p", 0),
	PYACL_FN("get_stream_id_from_exception_info", aclrtGetStreamIdFromExceptionInfo, "u:p", 0),
	PYACL_FN("get_thread_id_from_exception_info", aclrtGetThreadIdFromExceptionInfo, "u:p", 0),
	PYACL_FN("get_device_id_from_exception_info", aclrtGetDeviceIdFromExceptionInfo, "u:p", 0),
	PYACL_FN("get_error_code_from_exception_info", aclrtGetErrorCodeFromExceptionInfo, "u:p", 0),
	PYACL_END,
};
