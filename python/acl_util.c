// SPDX-License-Identifier: MIT
/*
 * acl_util.c - acl.util: host buffers as pointers (through the buffer
 * protocol), pointers as numpy arrays (zero-copy) or bytes, and native
 * threads running Python functions; acl.media's dvpp_malloc / dvpp_free
 * (device memory, as CANN's Python samples use them).
 */
#include <pthread.h>
#include <string.h>

#include "acl_py.h"

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

/* numpy's C API, imported at the first call that returns an array: the
 * module imports without numpy. Guarded by the GIL. */
static bool numpy_ready;

static int need_numpy(void)
{
	if (numpy_ready)
		return 0;
	if (_import_array() < 0)
		return -1;
	numpy_ready = true;
	return 0;
}

/* The address of @o's first byte; @o stays the owner of the memory. */
static PyObject *buffer_ptr(PyObject *o, const char *name)
{
	Py_buffer view;
	void *p;

	if (PyObject_GetBuffer(o, &view, PyBUF_STRIDED_RO) < 0) {
		PyErr_Clear();
		return PyErr_Format(PyExc_TypeError, "%s: needs an object with the buffer protocol (numpy array, "
				    "bytes, bytearray), not %.100s", name, Py_TYPE(o)->tp_name);
	}
	p = view.buf;
	PyBuffer_Release(&view);
	return pyacl_from_ptr(p);
}

static PyObject *py_numpy_to_ptr(PyObject *self, PyObject *arg)
{
	(void)self;
	return buffer_ptr(arg, "numpy_to_ptr");
}

static PyObject *py_bytes_to_ptr(PyObject *self, PyObject *arg)
{
	(void)self;
	return buffer_ptr(arg, "bytes_to_ptr");
}

/* numpy_contiguous_to_ptr(array) -> (ptr, contiguous array): keep the
 * returned array alive for as long as the pointer is used. */
static PyObject *py_numpy_contiguous_to_ptr(PyObject *self, PyObject *arg)
{
	PyObject *arr, *ptr;

	(void)self;
	if (need_numpy())
		return NULL;
	if (!PyArray_Check(arg))
		return PyErr_Format(PyExc_TypeError, "numpy_contiguous_to_ptr: needs a numpy array, not %.100s",
				    Py_TYPE(arg)->tp_name);
	arr = (PyObject *)PyArray_GETCONTIGUOUS((PyArrayObject *)arg);
	if (!arr)
		return NULL;
	ptr = pyacl_from_ptr(PyArray_DATA((PyArrayObject *)arr));
	return Py_BuildValue("NN", ptr, arr);
}

/* ptr_to_numpy(ptr, shape, npy_type) -> array over the memory at ptr,
 * writable, no copy: the caller keeps the memory alive. */
static PyObject *py_ptr_to_numpy(PyObject *self, PyObject *args)
{
	PyObject *ptr_o, *shape_o;
	npy_intp dims[NPY_MAXDIMS];
	int64_t *shape;
	int type, n, k;
	void *p;

	(void)self;
	if (!PyArg_ParseTuple(args, "OOi:ptr_to_numpy", &ptr_o, &shape_o, &type) ||
	    pyacl_ptr(ptr_o, &p, "ptr_to_numpy: ptr") || pyacl_i64_list(shape_o, &shape, &n, "ptr_to_numpy: shape"))
		return NULL;
	if (n > NPY_MAXDIMS) {
		PyMem_Free(shape);
		return PyErr_Format(PyExc_ValueError, "ptr_to_numpy: at most %d dimensions", NPY_MAXDIMS);
	}
	for (k = 0; k < n; k++)
		dims[k] = (npy_intp)shape[k];
	PyMem_Free(shape);
	if (!p)
		return PyErr_Format(PyExc_ValueError, "ptr_to_numpy: ptr is NULL");
	if (need_numpy())
		return NULL;
	return PyArray_New(&PyArray_Type, n, dims, type, NULL, p, 0, NPY_ARRAY_CARRAY, NULL);
}

/* ptr_to_bytes(ptr, size) -> bytes (a copy) */
static PyObject *py_ptr_to_bytes(PyObject *self, PyObject *args)
{
	PyObject *ptr_o;
	Py_ssize_t size;
	void *p;

	(void)self;
	if (!PyArg_ParseTuple(args, "On:ptr_to_bytes", &ptr_o, &size) || pyacl_ptr(ptr_o, &p, "ptr_to_bytes: ptr"))
		return NULL;
	if (!p || size < 0)
		return PyErr_Format(PyExc_ValueError, "ptr_to_bytes: needs a pointer and a size >= 0");
	return PyBytes_FromStringAndSize(p, size);
}

/* ---- threads --------------------------------------------------------------- */

/* Exceptions raised in threads started here, reported at stop_thread. */
struct thread_err {
	struct thread_err *next;
	pthread_t tid;
	char msg[256];
};
static struct thread_err *thread_errs;

struct thread_start {
	PyObject *fn, *args;
};

static void *thread_main(void *arg)
{
	struct thread_start *ts = arg;
	PyGILState_STATE g = PyGILState_Ensure();
	PyObject *r = ts->args == Py_None ? PyObject_CallNoArgs(ts->fn) : PyObject_CallOneArg(ts->fn, ts->args);

	if (!r) {
		struct thread_err *e = PyMem_RawCalloc(1, sizeof(*e));
		PyObject *type, *val, *tb, *s = NULL;

		PyErr_Fetch(&type, &val, &tb);
		PyErr_NormalizeException(&type, &val, &tb);
		if (val)
			s = PyObject_Str(val);
		if (e) {
			e->tid = pthread_self();
			snprintf(e->msg, sizeof(e->msg), "%s: %s", type ? ((PyTypeObject *)type)->tp_name : "?",
				 s && PyUnicode_Check(s) ? PyUnicode_AsUTF8(s) : "?");
			e->next = thread_errs;
			thread_errs = e;
		}
		PyErr_Clear();
		Py_XDECREF(s);
		PyErr_Restore(type, val, tb);
		pyacl_report("a thread started by acl.util.start_thread");
	}
	Py_XDECREF(r);
	Py_DECREF(ts->fn);
	Py_DECREF(ts->args);
	PyMem_RawFree(ts);
	PyGILState_Release(g);
	return NULL;
}

/* start_thread(fn, args) -> (thread_id, ret): fn(args) (fn() if args is
 * None) in a new native thread; ret is pthread_create's result. */
static PyObject *py_start_thread(PyObject *self, PyObject *args)
{
	struct thread_start *ts;
	PyObject *fn, *fargs;
	pthread_t tid = 0;
	int err;

	(void)self;
	if (!PyArg_ParseTuple(args, "OO:start_thread", &fn, &fargs))
		return NULL;
	if (!PyCallable_Check(fn))
		return PyErr_Format(PyExc_TypeError, "start_thread: the function must be callable");
	ts = PyMem_RawMalloc(sizeof(*ts));
	if (!ts)
		return PyErr_NoMemory();
	Py_INCREF(fn);
	Py_INCREF(fargs);
	ts->fn = fn;
	ts->args = fargs;
	err = pthread_create(&tid, NULL, thread_main, ts);
	if (err) {
		Py_DECREF(fn);
		Py_DECREF(fargs);
		PyMem_RawFree(ts);
	}
	return Py_BuildValue("Ki", (unsigned long long)tid, err);
}

/* stop_thread(thread_id) -> ret: joins the thread; RuntimeError if its
 * function raised (the traceback was printed when it did). */
static PyObject *py_stop_thread(PyObject *self, PyObject *arg)
{
	struct thread_err **pp, *e;
	unsigned long long id;
	pthread_t tid;
	int err;

	(void)self;
	if (!PyLong_Check(arg))
		return PyErr_Format(PyExc_TypeError, "stop_thread: thread_id must be an int");
	id = PyLong_AsUnsignedLongLong(arg);
	if (PyErr_Occurred())
		return NULL;
	tid = (pthread_t)id;
	Py_BEGIN_ALLOW_THREADS
	err = pthread_join(tid, NULL);
	Py_END_ALLOW_THREADS
	for (pp = &thread_errs; (e = *pp); pp = &e->next) {
		if (!pthread_equal(e->tid, tid))
			continue;
		*pp = e->next;
		PyErr_Format(PyExc_RuntimeError, "the thread's function raised %s", e->msg);
		PyMem_RawFree(e);
		return NULL;
	}
	return PyLong_FromLong(err);
}

PyMethodDef pyacl_util_methods[] = {
	{ "numpy_to_ptr", py_numpy_to_ptr, METH_O, "numpy_to_ptr(array) -> ptr (no copy)" },
	{ "numpy_contiguous_to_ptr", py_numpy_contiguous_to_ptr, METH_O,
	  "numpy_contiguous_to_ptr(array) -> (ptr, contiguous array)" },
	{ "ptr_to_numpy", py_ptr_to_numpy, METH_VARARGS,
	  "ptr_to_numpy(ptr, shape, npy_type) -> writable array over ptr (no copy)" },
	{ "bytes_to_ptr", py_bytes_to_ptr, METH_O, "bytes_to_ptr(buffer) -> ptr (no copy)" },
	{ "ptr_to_bytes", py_ptr_to_bytes, METH_VARARGS, "ptr_to_bytes(ptr, size) -> bytes (a copy)" },
	{ "start_thread", py_start_thread, METH_VARARGS, "start_thread(fn, args) -> (thread_id, ret)" },
	{ "stop_thread", py_stop_thread, METH_O, "stop_thread(thread_id) -> ret" },
	{ NULL, NULL, 0, NULL },
};

/* ---- acl.media ------------------------------------------------------------- */

/* dvpp_malloc(size) -> (ptr, ret), dvpp_free(ptr) -> ret: vnpu has no
 * separate DVPP memory, so they are device memory (aclrtMalloc, aclrtFree). */
static aclError dvpp_malloc(void **p, size_t size)
{
	return aclrtMalloc(p, size, ACL_MEM_MALLOC_HUGE_FIRST);
}

struct pyacl_fn pyacl_media_fns[] = {
	PYACL_FN_AS("dvpp_malloc", dvpp_malloc, "aclrtMalloc", "e:Pz", PYACL_NOGIL),
	PYACL_FN_AS("dvpp_free", aclrtFree, "aclrtFree", "e:p", PYACL_NOGIL),
	PYACL_END,
};
