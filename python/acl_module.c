// SPDX-License-Identifier: MIT
/*
 * acl_module.c - the `acl` extension module: the generic table caller, the
 * argument helpers, the top-level functions (acl.init, acl.finalize, data
 * buffers, tensor descriptors) and PyInit_acl, which builds acl.rt, acl.op,
 * acl.mdl, acl.util and acl.media.
 */
#include <ctype.h>
#include <string.h>

#include "acl_py.h"

/* ---- argument helpers ------------------------------------------------------ */

int pyacl_ptr(PyObject *o, void **out, const char *what)
{
	if (o == Py_None) {
		*out = NULL;
		return 0;
	}
	if (!PyLong_Check(o)) {
		PyErr_Format(PyExc_TypeError, "%s must be an int (a pointer or handle), not %.100s", what,
			     Py_TYPE(o)->tp_name);
		return -1;
	}
	*out = PyLong_AsVoidPtr(o);
	return PyErr_Occurred() ? -1 : 0;
}

PyObject *pyacl_from_ptr(const void *p)
{
	return PyLong_FromVoidPtr((void *)p);
}

/*
 * A list (or tuple) of @o's items converted by @conv into a PyMem_Calloc'ed
 * array of @elem-byte values (*out, free with PyMem_Free), *n its length.
 */
static int pyacl_list(PyObject *o, size_t elem, int (*conv)(PyObject *, void *, const char *), void **out, int *n,
		      const char *what)
{
	PyObject *seq;
	Py_ssize_t len, k;
	char *v;

	if (!PyList_Check(o) && !PyTuple_Check(o)) {
		PyErr_Format(PyExc_TypeError, "%s must be a list, not %.100s", what, Py_TYPE(o)->tp_name);
		return -1;
	}
	seq = PySequence_Fast(o, what);
	if (!seq)
		return -1;
	len = PySequence_Fast_GET_SIZE(seq);
	if (len > INT32_MAX) {
		Py_DECREF(seq);
		PyErr_Format(PyExc_OverflowError, "%s has too many entries", what);
		return -1;
	}
	v = PyMem_Calloc(len ? (size_t)len : 1, elem);
	if (!v) {
		Py_DECREF(seq);
		PyErr_NoMemory();
		return -1;
	}
	for (k = 0; k < len; k++) {
		if (conv(PySequence_Fast_GET_ITEM(seq, k), v + (size_t)k * elem, what)) {
			PyMem_Free(v);
			Py_DECREF(seq);
			return -1;
		}
	}
	Py_DECREF(seq);
	*out = v;
	*n = (int)len;
	return 0;
}

static int conv_ptr(PyObject *it, void *slot, const char *what)
{
	return pyacl_ptr(it, slot, what);
}

static int conv_i64(PyObject *it, void *slot, const char *what)
{
	if (!PyLong_Check(it)) {
		PyErr_Format(PyExc_TypeError, "%s must hold ints, not %.100s", what, Py_TYPE(it)->tp_name);
		return -1;
	}
	*(int64_t *)slot = PyLong_AsLongLong(it);
	return PyErr_Occurred() ? -1 : 0;
}

static int conv_f32(PyObject *it, void *slot, const char *what)
{
	if (!PyFloat_Check(it) && !PyLong_Check(it)) {
		PyErr_Format(PyExc_TypeError, "%s must hold floats, not %.100s", what, Py_TYPE(it)->tp_name);
		return -1;
	}
	*(float *)slot = (float)PyFloat_AsDouble(it);
	return PyErr_Occurred() ? -1 : 0;
}

int pyacl_ptr_list(PyObject *o, void ***out, int *n, const char *what)
{
	return pyacl_list(o, sizeof(void *), conv_ptr, (void **)out, n, what);
}

int pyacl_i64_list(PyObject *o, int64_t **out, int *n, const char *what)
{
	return pyacl_list(o, sizeof(int64_t), conv_i64, (void **)out, n, what);
}

int pyacl_f32_list(PyObject *o, float **out, int *n, const char *what)
{
	return pyacl_list(o, sizeof(float), conv_f32, (void **)out, n, what);
}

void pyacl_report(const char *where)
{
	PySys_WriteStderr("acl: exception raised in %s:\n", where);
	PyErr_PrintEx(0);
}

/* ---- the generic caller ---------------------------------------------------- */

union pyacl_val {
	void *p;
	int32_t i;
	uint32_t u;
	size_t z;
	int64_t l;
	uint64_t q;
	float f;
	uint8_t b;
	int8_t c;
	int16_t h;
	uint16_t w;
	const char *s;
};

static ffi_type *kind_type(char k)
{
	switch (k) {
	case 'p': case 's': return &ffi_type_pointer;
	case 'i': case 'e': return &ffi_type_sint32;
	case 'u': return &ffi_type_uint32;
	case 'z': return sizeof(size_t) == 8 ? &ffi_type_uint64 : &ffi_type_uint32;
	case 'l': return &ffi_type_sint64;
	case 'q': return &ffi_type_uint64;
	case 'f': return &ffi_type_float;
	case 'b': return &ffi_type_uint8;
	case 'c': return &ffi_type_sint8;
	case 'h': return &ffi_type_sint16;
	case 'w': return &ffi_type_uint16;
	case 'v': return &ffi_type_void;
	}
	return NULL;
}

/* An in-argument of kind @k from @o into @v. */
static int arg_in(const struct pyacl_fn *e, int pos, char k, PyObject *o, union pyacl_val *v)
{
	char what[96];

	snprintf(what, sizeof(what), "%s.%s: argument %d", e->module, e->name, pos + 1);
	if (k == 'p')
		return pyacl_ptr(o, &v->p, what);
	if (k == 's') {
		if (o == Py_None) {
			v->s = NULL;
			return 0;
		}
		if (!PyUnicode_Check(o)) {
			PyErr_Format(PyExc_TypeError, "%s must be a str, not %.100s", what, Py_TYPE(o)->tp_name);
			return -1;
		}
		v->s = PyUnicode_AsUTF8(o);
		return v->s ? 0 : -1;
	}
	if (k == 'f') {
		if (!PyFloat_Check(o) && !PyLong_Check(o)) {
			PyErr_Format(PyExc_TypeError, "%s must be a float, not %.100s", what, Py_TYPE(o)->tp_name);
			return -1;
		}
		v->f = (float)PyFloat_AsDouble(o);
		return PyErr_Occurred() ? -1 : 0;
	}
	if (!PyLong_Check(o)) {
		PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s", what, Py_TYPE(o)->tp_name);
		return -1;
	}
	if (k == 'q' || k == 'z' || k == 'u' || k == 'b' || k == 'w') {
		unsigned long long x = PyLong_AsUnsignedLongLong(o);
		unsigned long long max = k == 'u' ? UINT32_MAX : k == 'b' ? UINT8_MAX : k == 'w' ? UINT16_MAX :
					 k == 'z' ? SIZE_MAX : UINT64_MAX;

		if (PyErr_Occurred())
			return -1;
		if (x > max)
			goto range;
		switch (k) {
		case 'q': v->q = x; break;
		case 'z': v->z = (size_t)x; break;
		case 'u': v->u = (uint32_t)x; break;
		case 'b': v->b = (uint8_t)x; break;
		default: v->w = (uint16_t)x; break;
		}
		return 0;
	} else {
		long long x = PyLong_AsLongLong(o);
		long long lo = k == 'i' ? INT32_MIN : k == 'c' ? INT8_MIN : k == 'h' ? INT16_MIN : INT64_MIN;
		long long hi = k == 'i' ? INT32_MAX : k == 'c' ? INT8_MAX : k == 'h' ? INT16_MAX : INT64_MAX;

		if (PyErr_Occurred())
			return -1;
		if (x < lo || x > hi)
			goto range;
		switch (k) {
		case 'i': v->i = (int32_t)x; break;
		case 'c': v->c = (int8_t)x; break;
		case 'h': v->h = (int16_t)x; break;
		default: v->l = x; break;
		}
		return 0;
	}
range:
	PyErr_Format(PyExc_OverflowError, "%s is out of range for its C type", what);
	return -1;
}

/* A Python value for a value of kind @k at @v (ffi_arg-widened for the
 * return value, hence @ret). */
static PyObject *val_out(char k, const void *v, bool ret)
{
	ffi_arg a = ret ? *(const ffi_arg *)v : 0;
	const union pyacl_val *u = v;

	switch (k) {
	case 'p': return pyacl_from_ptr(u->p);
	case 's':
		if (!u->s)
			Py_RETURN_NONE;
		return PyUnicode_FromString(u->s);
	case 'e': case 'i': return PyLong_FromLong(ret ? (int32_t)a : u->i);
	case 'u': return PyLong_FromUnsignedLong(ret ? (uint32_t)a : u->u);
	case 'z': return PyLong_FromSize_t(ret ? (size_t)a : u->z);
	case 'l': return PyLong_FromLongLong(ret ? (int64_t)a : u->l);
	case 'q': return PyLong_FromUnsignedLongLong(ret ? (uint64_t)a : u->q);
	case 'f': return PyFloat_FromDouble(u->f);
	case 'b': return PyLong_FromLong(ret ? (uint8_t)a : u->b);
	case 'c': return PyLong_FromLong(ret ? (int8_t)a : u->c);
	case 'h': return PyLong_FromLong(ret ? (int16_t)a : u->h);
	case 'w': return PyLong_FromLong(ret ? (uint16_t)a : u->w);
	}
	Py_RETURN_NONE;
}

static PyObject *generic_call(PyObject *self, PyObject *args)
{
	const struct pyacl_fn *e = PyCapsule_GetPointer(self, "acl.fn");
	union pyacl_val vals[PYACL_MAX_ARGS], outs[PYACL_MAX_ARGS];
	void *avalues[PYACL_MAX_ARGS];
	union { ffi_arg a; float f; void *p; uint64_t q; } rv;
	const char *sig;
	Py_ssize_t nin = 0, want = 0;
	unsigned k, nout = 0;
	PyObject *res, *item;

	if (!e)
		return NULL;
	sig = e->sig + 2;
	for (k = 0; k < e->nargs; k++)
		want += !!islower((unsigned char)sig[k]);
	if (PyTuple_GET_SIZE(args) != want)
		return PyErr_Format(PyExc_TypeError, "%s.%s() takes %zd argument%s (%zd given)", e->module, e->name, want,
				    want == 1 ? "" : "s", PyTuple_GET_SIZE(args));
	memset(outs, 0, sizeof(outs));
	for (k = 0; k < e->nargs; k++) {
		char c = sig[k];

		if (isupper((unsigned char)c)) {
			vals[k].p = &outs[k];
			nout++;
		} else if (arg_in(e, (int)nin, c, PyTuple_GET_ITEM(args, nin), &vals[k])) {
			return NULL;
		} else {
			nin++;
		}
		avalues[k] = &vals[k];
	}
	memset(&rv, 0, sizeof(rv));
	if (e->flags & PYACL_NOGIL) {
		PyThreadState *ts = pyacl_nogil_begin();

		ffi_call((ffi_cif *)&e->cif, e->fn, &rv, avalues);
		pyacl_nogil_end(ts);
	} else {
		ffi_call((ffi_cif *)&e->cif, e->fn, &rv, avalues);
	}
	if (!nout) {
		if (e->sig[0] == 'v')
			Py_RETURN_NONE;
		return val_out(e->sig[0], &rv, true);
	}
	res = PyTuple_New(nout + (e->sig[0] != 'v'));
	if (!res)
		return NULL;
	nout = 0;
	for (k = 0; k < e->nargs; k++) {
		if (!isupper((unsigned char)sig[k]))
			continue;
		item = val_out((char)tolower((unsigned char)sig[k]), &outs[k], false);
		if (!item)
			goto fail;
		PyTuple_SET_ITEM(res, nout++, item);
	}
	if (e->sig[0] != 'v') {
		item = val_out(e->sig[0], &rv, true);
		if (!item)
			goto fail;
		PyTuple_SET_ITEM(res, nout, item);
	}
	return res;
fail:
	Py_DECREF(res);
	return NULL;
}

/* Prepare @e's call interface; -1 (ImportError set) on a bad table row. */
static int prep_fn(struct pyacl_fn *e, const char *module)
{
	const char *sig = e->sig;
	ffi_type *rt = kind_type(sig[0]);
	unsigned k;

	if (!rt || sig[1] != ':' || strlen(sig + 2) > PYACL_MAX_ARGS)
		goto bad;
	e->nargs = (unsigned)strlen(sig + 2);
	for (k = 0; k < e->nargs; k++) {
		char c = sig[2 + k];

		e->types[k] = isupper((unsigned char)c) ? &ffi_type_pointer : kind_type(c);
		if (!e->types[k] || c == 'S' || c == 'e' || c == 'v' || c == 'E' || c == 'V')
			goto bad;
	}
	if (ffi_prep_cif(&e->cif, FFI_DEFAULT_ABI, e->nargs, rt, e->types) != FFI_OK)
		goto bad;
	e->module = module;
	e->def.ml_name = e->name;
	e->def.ml_meth = generic_call;
	e->def.ml_flags = METH_VARARGS;
	e->def.ml_doc = e->cname;
	return 0;
bad:
	PyErr_Format(PyExc_ImportError, "acl: bad signature \"%s\" for %s", sig, e->name);
	return -1;
}

/* Add the table @fns and the methods @methods to @mod. */
static int add_fns(PyObject *mod, struct pyacl_fn *fns, PyMethodDef *methods)
{
	PyObject *modname = PyModule_GetNameObject(mod);

	if (!modname)
		return -1;
	for (; fns && fns->name; fns++) {
		PyObject *cap, *f;

		if (prep_fn(fns, PyModule_GetName(mod)))
			goto fail;
		cap = PyCapsule_New(fns, "acl.fn", NULL);
		if (!cap)
			goto fail;
		f = PyCFunction_NewEx(&fns->def, cap, modname);
		Py_DECREF(cap);
		if (!f || PyModule_AddObject(mod, fns->name, f)) {
			Py_XDECREF(f);
			goto fail;
		}
	}
	Py_DECREF(modname);
	if (methods && PyModule_AddFunctions(mod, methods))
		return -1;
	return 0;
fail:
	Py_DECREF(modname);
	return -1;
}

/* ---- top level ------------------------------------------------------------- */

static PyObject *py_init(PyObject *self, PyObject *args)
{
	const char *path = NULL;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "|z:init", &path))
		return NULL;
	ret = aclInit(path);
	return PyLong_FromLong(ret);
}

static PyObject *py_finalize(PyObject *self, PyObject *args)
{
	PyThreadState *ts;
	aclError ret;

	(void)self;
	(void)args;
	ts = pyacl_nogil_begin();
	ret = aclFinalize();
	pyacl_nogil_end(ts);
	/* Every stream and registration is gone with the runtime. */
	if (ret == ACL_SUCCESS)
		pyacl_alloc_forget_all();
	return PyLong_FromLong(ret);
}

static PyObject *py_create_tensor_desc(PyObject *self, PyObject *args)
{
	int dtype, format, n;
	PyObject *dims_o;
	int64_t *dims;
	aclTensorDesc *d;

	(void)self;
	if (!PyArg_ParseTuple(args, "iOi:create_tensor_desc", &dtype, &dims_o, &format))
		return NULL;
	if (pyacl_i64_list(dims_o, &dims, &n, "create_tensor_desc: dims"))
		return NULL;
	d = aclCreateTensorDesc((aclDataType)dtype, n, dims, (aclFormat)format);
	PyMem_Free(dims);
	return pyacl_from_ptr(d);
}

static PyObject *py_set_tensor_shape(PyObject *self, PyObject *args)
{
	PyObject *desc_o, *dims_o;
	void *desc;
	int64_t *dims;
	int n;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "OO:set_tensor_shape", &desc_o, &dims_o))
		return NULL;
	if (pyacl_ptr(desc_o, &desc, "set_tensor_shape: desc") ||
	    pyacl_i64_list(dims_o, &dims, &n, "set_tensor_shape: dims"))
		return NULL;
	ret = aclSetTensorShape(desc, n, dims);
	PyMem_Free(dims);
	return PyLong_FromLong(ret);
}

/* ---- pyacl2: caller buffers and varargs ----------------------------------- */

/* aclAppLog(level, func, file, line, fmt, ...): Python formats the message;
 * it is passed with "%s" so that '%' in it is printed as is. */
static PyObject *py_app_log(PyObject *self, PyObject *args)
{
	int level;
	const char *func, *file, *msg;
	unsigned int line;

	(void)self;
	if (!PyArg_ParseTuple(args, "issIs:app_log", &level, &func, &file, &line, &msg))
		return NULL;
	aclAppLog((aclLogLevel)level, func, file, line, "%s", msg);
	Py_RETURN_NONE;
}

/* aclsysGetVersionStr(pkg_name) -> (version_str, ret) */
static PyObject *py_sys_get_version_str(PyObject *self, PyObject *arg)
{
	char name[ACL_PKG_VERSION_MAX_SIZE];
	char ver[ACL_PKG_VERSION_MAX_SIZE] = "";
	const char *s;
	Py_ssize_t n;
	aclError ret;

	(void)self;
	s = PyUnicode_AsUTF8AndSize(arg, &n);
	if (!s)
		return NULL;
	if (n >= (Py_ssize_t)sizeof(name)) {
		PyErr_SetString(PyExc_ValueError, "sys_get_version_str: package name too long");
		return NULL;
	}
	memcpy(name, s, (size_t)n + 1);
	ret = aclsysGetVersionStr(name, ver);
	return Py_BuildValue("(si)", ret == ACL_SUCCESS ? ver : "", (int)ret);
}

PyMethodDef pyacl_top_methods[] = {
	{ "init", py_init, METH_VARARGS, "aclInit([config_path]) -> ret" },
	{ "finalize", py_finalize, METH_NOARGS, "aclFinalize() -> ret; drops every allocator registration" },
	{ "create_tensor_desc", py_create_tensor_desc, METH_VARARGS,
	  "aclCreateTensorDesc(data_type, dims, format) -> desc" },
	{ "set_tensor_shape", py_set_tensor_shape, METH_VARARGS, "aclSetTensorShape(desc, dims) -> ret" },
	/* pyacl2: caller buffers and varargs */
	{ "app_log", py_app_log, METH_VARARGS,
	  "aclAppLog(level, func, file, line, message) -> None; message is preformatted" },
	{ "sys_get_version_str", py_sys_get_version_str, METH_O,
	  "aclsysGetVersionStr(pkg_name) -> (version_str, ret)" },
	{ NULL, NULL, 0, NULL },
};

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"	/* pyACL binds it still */
/* Deprecated in CANN, bound by pyACL: called through this wrapper. */
static uint32_t get_data_buffer_size(const aclDataBuffer *b)
{
	return aclGetDataBufferSize(b);
}
#pragma GCC diagnostic pop

struct pyacl_fn pyacl_top_fns[] = {
	PYACL_FN("finalize_reference", aclFinalizeReference, "e:Q", PYACL_NOGIL),
	PYACL_FN("get_recent_err_msg", aclGetRecentErrMsg, "s:", 0),
	PYACL_FN("get_version", aclrtGetVersion, "e:III", 0),
	PYACL_FN("get_soc_name", aclrtGetSocName, "s:", 0),
	PYACL_FN("create_data_buffer", aclCreateDataBuffer, "p:pz", 0),
	PYACL_FN("destroy_data_buffer", aclDestroyDataBuffer, "e:p", 0),
	PYACL_FN("update_data_buffer", aclUpdateDataBuffer, "e:ppz", 0),
	PYACL_FN("get_data_buffer_addr", aclGetDataBufferAddr, "p:p", 0),
	PYACL_FN_AS("get_data_buffer_size", get_data_buffer_size, "aclGetDataBufferSize", "u:p", 0),
	PYACL_FN("get_data_buffer_size_v2", aclGetDataBufferSizeV2, "z:p", 0),
	PYACL_FN("data_type_size", aclDataTypeSize, "z:i", 0),
	PYACL_FN("destroy_tensor_desc", aclDestroyTensorDesc, "v:p", 0),
	PYACL_FN("get_tensor_desc_size", aclGetTensorDescSize, "z:p", 0),
	PYACL_FN("get_tensor_desc_element_count", aclGetTensorDescElementCount, "z:p", 0),
	PYACL_FN("get_tensor_desc_num_dims", aclGetTensorDescNumDims, "z:p", 0),
	PYACL_FN("get_tensor_desc_dim_v2", aclGetTensorDescDimV2, "e:pzL", 0),
	PYACL_FN("get_tensor_desc_type", aclGetTensorDescType, "i:p", 0),
	PYACL_FN("get_tensor_desc_format", aclGetTensorDescFormat, "i:p", 0),
	PYACL_FN("recover_all_hccl_tasks", aclRecoverAllHcclTasks, "e:i", PYACL_NOGIL),
	PYACL_FN("float16_to_float", aclFloat16ToFloat, "f:w", 0),
	PYACL_FN("float_to_float16", aclFloatToFloat16, "w:f", 0),
	PYACL_FN("get_cann_attribute", aclGetCannAttribute, "e:iI", 0),
	PYACL_FN("get_device_capability", aclGetDeviceCapability, "e:uiL", 0),
	PYACL_FN("sys_get_version_num", aclsysGetVersionNum, "e:sI", 0),
	PYACL_END,
};

/* ---- the module ------------------------------------------------------------ */

static struct PyModuleDef acl_def = {
	PyModuleDef_HEAD_INIT, "acl", "CANN's pyACL over vnpu's libascendcl (see README.md, \"Python\").", -1,
	NULL, NULL, NULL, NULL, NULL,
};

static int add_submodule(PyObject *root, const char *name, struct pyacl_fn *fns, PyMethodDef *methods,
			 PyMethodDef *more)
{
	char full[32];
	PyObject *sub, *modules;

	snprintf(full, sizeof(full), "acl.%s", name);
	sub = PyModule_New(full);
	if (!sub)
		return -1;
	if (add_fns(sub, fns, methods) || (more && PyModule_AddFunctions(sub, more)))
		goto fail;
	/* In sys.modules too, so that "import acl.rt" and "from acl import rt" work. */
	modules = PyImport_GetModuleDict();
	if (PyDict_SetItemString(modules, full, sub))
		goto fail;
	if (PyModule_AddObject(root, name, sub))
		goto fail;
	return 0;
fail:
	Py_DECREF(sub);
	return -1;
}

PyMODINIT_FUNC PyInit_acl(void);

PyMODINIT_FUNC PyInit_acl(void)
{
	PyObject *m = PyModule_Create(&acl_def);

	if (!m)
		return NULL;
	if (add_fns(m, pyacl_top_fns, pyacl_top_methods) ||
	    add_submodule(m, "rt", pyacl_rt_fns, pyacl_rt_methods, pyacl_alloc_methods) ||
	    add_submodule(m, "op", pyacl_op_fns, pyacl_op_methods, NULL) ||
	    add_submodule(m, "mdl", pyacl_mdl_fns, pyacl_mdl_methods, NULL) ||
	    add_submodule(m, "util", NULL, pyacl_util_methods, NULL) ||
	    add_submodule(m, "media", pyacl_media_fns, NULL, NULL)) {
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
