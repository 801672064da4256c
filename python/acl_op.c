// SPDX-License-Identifier: MIT
/*
 * acl_op.c - acl.op: operator attributes, execution (aclopExecuteV2 and
 * friends: descriptor and buffer lists as Python lists of handles) and
 * operator handles.
 */
#include <string.h>

#include "acl_py.h"

/* set_attr_list_int(attr, name, values) / set_attr_list_float. */
static PyObject *py_set_attr_list_int(PyObject *self, PyObject *args)
{
	PyObject *attr_o, *vals_o;
	const char *name;
	int64_t *vals;
	void *attr;
	int n;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "OsO:set_attr_list_int", &attr_o, &name, &vals_o) ||
	    pyacl_ptr(attr_o, &attr, "set_attr_list_int: attr") ||
	    pyacl_i64_list(vals_o, &vals, &n, "set_attr_list_int: values"))
		return NULL;
	ret = aclopSetAttrListInt(attr, name, n, vals);
	PyMem_Free(vals);
	return PyLong_FromLong(ret);
}

static PyObject *py_set_attr_list_float(PyObject *self, PyObject *args)
{
	PyObject *attr_o, *vals_o;
	const char *name;
	float *vals;
	void *attr;
	int n;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "OsO:set_attr_list_float", &attr_o, &name, &vals_o) ||
	    pyacl_ptr(attr_o, &attr, "set_attr_list_float: attr") ||
	    pyacl_f32_list(vals_o, &vals, &n, "set_attr_list_float: values"))
		return NULL;
	ret = aclopSetAttrListFloat(attr, name, n, vals);
	PyMem_Free(vals);
	return PyLong_FromLong(ret);
}

/* The four lists of an operator call. */
struct oplists {
	void **in_desc, **in_buf, **out_desc, **out_buf;
	int nin, nout;
};

static void oplists_free(struct oplists *l)
{
	PyMem_Free(l->in_desc);
	PyMem_Free(l->in_buf);
	PyMem_Free(l->out_desc);
	PyMem_Free(l->out_buf);
}

static int oplists_get(struct oplists *l, const char *name, PyObject *ind, PyObject *inb, PyObject *outd,
		       PyObject *outb)
{
	char what[64];
	int n2;

	memset(l, 0, sizeof(*l));
	snprintf(what, sizeof(what), "%s: input_desc", name);
	if (pyacl_ptr_list(ind, &l->in_desc, &l->nin, what))
		goto fail;
	snprintf(what, sizeof(what), "%s: inputs", name);
	if (inb && pyacl_ptr_list(inb, &l->in_buf, &n2, what))
		goto fail;
	if (inb && n2 != l->nin) {
		PyErr_Format(PyExc_ValueError, "%s: %d input descriptors but %d input buffers", name, l->nin, n2);
		goto fail;
	}
	snprintf(what, sizeof(what), "%s: output_desc", name);
	if (outd && pyacl_ptr_list(outd, &l->out_desc, &l->nout, what))
		goto fail;
	snprintf(what, sizeof(what), "%s: outputs", name);
	if (pyacl_ptr_list(outb, &l->out_buf, &n2, what))
		goto fail;
	if (!outd)
		l->nout = n2;
	else if (n2 != l->nout) {
		PyErr_Format(PyExc_ValueError, "%s: %d output descriptors but %d output buffers", name, l->nout, n2);
		goto fail;
	}
	return 0;
fail:
	oplists_free(l);
	return -1;
}

enum opcall { OP_EXEC, OP_EXEC_V2, OP_COMPILE_EXEC, OP_COMPILE_EXEC_V2 };

/*
 * execute(_v2)(op_type, input_desc, inputs, output_desc, outputs, attr,
 * stream) and compile_and_execute(_v2)(op_type, input_desc, inputs,
 * output_desc, outputs, attr, engine_type, compile_flag, op_path, stream)
 * -> ret. The GIL is released: the runtime calls the stream's allocator.
 */
static PyObject *op_call(PyObject *args, enum opcall kind, const char *name)
{
	PyObject *ind, *inb, *outd, *outb, *attr_o, *stream_o;
	const char *op, *path = NULL;
	int engine = 0, flag = 0;
	struct oplists l;
	void *attr, *stream;
	PyThreadState *ts;
	aclError ret;
	int ok;

	if (kind == OP_EXEC || kind == OP_EXEC_V2)
		ok = PyArg_ParseTuple(args, "sOOOOOO", &op, &ind, &inb, &outd, &outb, &attr_o, &stream_o);
	else
		ok = PyArg_ParseTuple(args, "sOOOOOiizO", &op, &ind, &inb, &outd, &outb, &attr_o, &engine, &flag,
				      &path, &stream_o);
	if (!ok)
		return NULL;
	if (pyacl_ptr(attr_o, &attr, "attr") || pyacl_ptr(stream_o, &stream, "stream") ||
	    oplists_get(&l, name, ind, inb, outd, outb))
		return NULL;
	ts = pyacl_nogil_begin();
	switch (kind) {
	case OP_EXEC:
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"	/* pyACL binds it still */
		ret = aclopExecute(op, l.nin, (const aclTensorDesc *const *)l.in_desc,
				   (const aclDataBuffer *const *)l.in_buf, l.nout,
				   (const aclTensorDesc *const *)l.out_desc, (aclDataBuffer *const *)l.out_buf, attr,
				   stream);
#pragma GCC diagnostic pop
		break;
	case OP_EXEC_V2:
		ret = aclopExecuteV2(op, l.nin, (aclTensorDesc **)l.in_desc, (aclDataBuffer **)l.in_buf, l.nout,
				     (aclTensorDesc **)l.out_desc, (aclDataBuffer **)l.out_buf, attr, stream);
		break;
	case OP_COMPILE_EXEC:
		ret = aclopCompileAndExecute(op, l.nin, (const aclTensorDesc *const *)l.in_desc,
					     (const aclDataBuffer *const *)l.in_buf, l.nout,
					     (const aclTensorDesc *const *)l.out_desc, (aclDataBuffer *const *)l.out_buf,
					     attr, (aclopEngineType)engine, (aclopCompileType)flag, path, stream);
		break;
	default:
		ret = aclopCompileAndExecuteV2(op, l.nin, (aclTensorDesc **)l.in_desc, (aclDataBuffer **)l.in_buf,
					       l.nout, (aclTensorDesc **)l.out_desc, (aclDataBuffer **)l.out_buf, attr,
					       (aclopEngineType)engine, (aclopCompileType)flag, path, stream);
		break;
	}
	pyacl_nogil_end(ts);
	oplists_free(&l);
	return PyLong_FromLong(ret);
}

static PyObject *py_execute(PyObject *self, PyObject *args)
{
	(void)self;
	return op_call(args, OP_EXEC, "execute");
}

static PyObject *py_execute_v2(PyObject *self, PyObject *args)
{
	(void)self;
	return op_call(args, OP_EXEC_V2, "execute_v2");
}

static PyObject *py_compile_and_execute(PyObject *self, PyObject *args)
{
	(void)self;
	return op_call(args, OP_COMPILE_EXEC, "compile_and_execute");
}

static PyObject *py_compile_and_execute_v2(PyObject *self, PyObject *args)
{
	(void)self;
	return op_call(args, OP_COMPILE_EXEC_V2, "compile_and_execute_v2");
}

/* create_handle(op_type, input_desc, output_desc, attr) -> (handle, ret) */
static PyObject *py_create_handle(PyObject *self, PyObject *args)
{
	PyObject *ind, *outd, *attr_o;
	aclopHandle *h = NULL;
	struct oplists l;
	const char *op;
	void *attr;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "sOOO:create_handle", &op, &ind, &outd, &attr_o) ||
	    pyacl_ptr(attr_o, &attr, "create_handle: attr") ||
	    oplists_get(&l, "create_handle", ind, NULL, NULL, outd))	/* outd lands in out_buf */
		return NULL;
	ret = aclopCreateHandle(op, l.nin, (const aclTensorDesc *const *)l.in_desc, l.nout,
				(const aclTensorDesc *const *)l.out_buf, attr, &h);
	oplists_free(&l);
	return Py_BuildValue("Ni", pyacl_from_ptr(h), ret);
}

/* execute_with_handle(handle, inputs, outputs, stream) -> ret */
static PyObject *py_execute_with_handle(PyObject *self, PyObject *args)
{
	PyObject *h_o, *inb, *outb, *stream_o;
	struct oplists l;
	void *h, *stream;
	PyThreadState *ts;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "OOOO:execute_with_handle", &h_o, &inb, &outb, &stream_o) ||
	    pyacl_ptr(h_o, &h, "execute_with_handle: handle") ||
	    pyacl_ptr(stream_o, &stream, "execute_with_handle: stream") ||
	    oplists_get(&l, "execute_with_handle", inb, NULL, NULL, outb))	/* inb lands in in_desc */
		return NULL;
	ts = pyacl_nogil_begin();
	ret = aclopExecWithHandle(h, l.nin, (const aclDataBuffer *const *)l.in_desc, l.nout,
				  (aclDataBuffer *const *)l.out_buf, stream);
	pyacl_nogil_end(ts);
	oplists_free(&l);
	return PyLong_FromLong(ret);
}

PyMethodDef pyacl_op_methods[] = {
	{ "set_attr_list_int", py_set_attr_list_int, METH_VARARGS,
	  "aclopSetAttrListInt(attr, name, values) -> ret" },
	{ "set_attr_list_float", py_set_attr_list_float, METH_VARARGS,
	  "aclopSetAttrListFloat(attr, name, values) -> ret" },
	{ "execute", py_execute, METH_VARARGS,
	  "aclopExecute(op_type, input_desc, inputs, output_desc, outputs, attr, stream) -> ret" },
	{ "execute_v2", py_execute_v2, METH_VARARGS,
	  "aclopExecuteV2(op_type, input_desc, inputs, output_desc, outputs, attr, stream) -> ret" },
	{ "compile_and_execute", py_compile_and_execute, METH_VARARGS,
	  "aclopCompileAndExecute(op_type, input_desc, inputs, output_desc, outputs, attr, engine_type, "
	  "compile_flag, op_path, stream) -> ret" },
	{ "compile_and_execute_v2", py_compile_and_execute_v2, METH_VARARGS,
	  "aclopCompileAndExecuteV2(op_type, input_desc, inputs, output_desc, outputs, attr, engine_type, "
	  "compile_flag, op_path, stream) -> ret" },
	{ "create_handle", py_create_handle, METH_VARARGS,
	  "aclopCreateHandle(op_type, input_desc, output_desc, attr) -> (handle, ret)" },
	{ "execute_with_handle", py_execute_with_handle, METH_VARARGS,
	  "aclopExecWithHandle(handle, inputs, outputs, stream) -> ret" },
	{ NULL, NULL, 0, NULL },
};

struct pyacl_fn pyacl_op_fns[] = {
	PYACL_FN("set_model_dir", aclopSetModelDir, "e:s", 0),
	PYACL_FN("load", aclopLoad, "e:pz", 0),
	PYACL_FN("create_attr", aclopCreateAttr, "p:", 0),
	PYACL_FN("destroy_attr", aclopDestroyAttr, "v:p", 0),
	PYACL_FN("set_attr_bool", aclopSetAttrBool, "e:psb", 0),
	PYACL_FN("set_attr_int", aclopSetAttrInt, "e:psl", 0),
	PYACL_FN("set_attr_float", aclopSetAttrFloat, "e:psf", 0),
	PYACL_FN("set_attr_string", aclopSetAttrString, "e:pss", 0),
	PYACL_FN("set_attr_data_type", aclopSetAttrDataType, "e:psi", 0),
	PYACL_FN("destroy_handle", aclopDestroyHandle, "v:p", 0),
	PYACL_END,
};
