// SPDX-License-Identifier: MIT
/*
 * acl_alloc.c - acl.rt.allocator_*: Python allocators registered for
 * streams (acl_rt_allocator.h).
 *
 * A descriptor made from Python has a Python side (struct pydesc: the
 * user's object and callables, referenced). Registration copies it into a
 * binding, and the C descriptor's allocator object is the binding for the
 * duration of aclrtAllocatorRegister, so the runtime's copy of the
 * registration points at it: every trampoline gets its own binding back,
 * whatever other streams registered. Blocks are wrapped (struct pyblock:
 * binding + the Python block) because getAddrFromBlock gets only the block.
 *
 * Lifetime: a binding is live while its stream is registered with it.
 * Unregister, a later registration of the stream, stream destruction and
 * acl.finalize retire it; a retired binding drops its references once no
 * call that may reach a trampoline is in flight (inflight == 0: such calls
 * run between pyacl_nogil_begin and _end) and none of its blocks is
 * outstanding. All of this state is guarded by the GIL.
 */
#include <stdlib.h>

#include "acl_py.h"

/* The user's allocator object and callables (strong references or NULL). */
struct pyfns {
	PyObject *obj, *alloc, *free, *advise, *get_addr;
};

struct pydesc {
	struct pydesc *next;
	void *handle;
	struct pyfns f;
};

struct binding {
	struct binding *next;
	void *stream;
	void *desc;
	struct pyfns f;
	unsigned long blocks;	/* pyblocks not yet freed */
};

struct pyblock {
	struct binding *b;
	PyObject *block;
};

static struct pydesc *descs;
static struct binding *live, *retired;
static unsigned long inflight;

/* ---- lifetime ------------------------------------------------------------- */

static void pyfns_clear(struct pyfns *f)
{
	Py_CLEAR(f->obj);
	Py_CLEAR(f->alloc);
	Py_CLEAR(f->free);
	Py_CLEAR(f->advise);
	Py_CLEAR(f->get_addr);
}

static void pyfns_copy(struct pyfns *dst, const struct pyfns *src)
{
	*dst = *src;
	Py_XINCREF(dst->obj);
	Py_XINCREF(dst->alloc);
	Py_XINCREF(dst->free);
	Py_XINCREF(dst->advise);
	Py_XINCREF(dst->get_addr);
}

static void binding_free(struct binding *b)
{
	pyfns_clear(&b->f);
	PyMem_RawFree(b);
}

static void pydesc_free(struct pydesc *d)
{
	pyfns_clear(&d->f);
	PyMem_RawFree(d);
}

static void drain(void)
{
	struct binding **pp = &retired;

	if (inflight)
		return;
	while (*pp) {
		struct binding *b = *pp;

		if (b->blocks) {
			pp = &b->next;
			continue;
		}
		*pp = b->next;
		binding_free(b);
	}
}

PyThreadState *pyacl_nogil_begin(void)
{
	inflight++;
	return PyEval_SaveThread();
}

void pyacl_nogil_end(PyThreadState *ts)
{
	PyEval_RestoreThread(ts);
	inflight--;
	drain();
}

/* Move the live binding of @stream (every one if @stream is NULL) to the
 * retired list. */
static void retire(void *stream, bool all)
{
	struct binding **pp = &live;

	while (*pp) {
		struct binding *b = *pp;

		if (!all && b->stream != stream) {
			pp = &b->next;
			continue;
		}
		*pp = b->next;
		b->next = retired;
		retired = b;
	}
	drain();
}

void pyacl_alloc_forget_stream(void *stream)
{
	retire(stream, false);
}

void pyacl_alloc_prune(void)
{
	struct binding **pp = &live;

	while (*pp) {
		struct binding *b = *pp;
		void *desc = NULL, *obj = NULL;

		/* Gone with its stream, or no longer the stream's registration. */
		if (aclrtAllocatorGetByStream(b->stream, &desc, &obj, NULL, NULL, NULL, NULL) == ACL_SUCCESS &&
		    obj == b) {
			pp = &b->next;
			continue;
		}
		*pp = b->next;
		b->next = retired;
		retired = b;
	}
	drain();
}

void pyacl_alloc_forget_all(void)
{
	struct pydesc *d;

	retire(NULL, true);
	while ((d = descs)) {
		descs = d->next;
		pydesc_free(d);
	}
}

/* ---- trampolines (any thread, GIL not held on entry) ----------------------- */

static void *new_block(struct binding *b, PyObject *blk, const char *where)
{
	struct pyblock *pb;

	if (!blk) {
		pyacl_report(where);
		return NULL;
	}
	if (blk == Py_None || (PyLong_Check(blk) && !PyObject_IsTrue(blk))) {
		Py_DECREF(blk);
		return NULL;
	}
	pb = PyMem_RawMalloc(sizeof(*pb));
	if (!pb) {
		Py_DECREF(blk);
		return NULL;
	}
	pb->b = b;
	pb->block = blk;
	b->blocks++;
	return pb;
}

static void *tramp_alloc(aclrtAllocator allocator, size_t size)
{
	struct binding *b = allocator;
	PyGILState_STATE g = PyGILState_Ensure();
	PyObject *sz = PyLong_FromSize_t(size);
	void *pb = NULL;

	if (sz) {
		pb = new_block(b, PyObject_CallFunctionObjArgs(b->f.alloc, b->f.obj, sz, NULL),
			       "the allocator's alloc callback (the operator fails with ACL_ERROR_BAD_ALLOC)");
		Py_DECREF(sz);
	}
	PyGILState_Release(g);
	return pb;
}

static void *tramp_advise(aclrtAllocator allocator, size_t size, aclrtAllocatorAddr addr)
{
	struct binding *b = allocator;
	PyGILState_STATE g = PyGILState_Ensure();
	PyObject *sz = PyLong_FromSize_t(size), *ad = pyacl_from_ptr(addr);
	void *pb = NULL;

	if (sz && ad)
		pb = new_block(b, PyObject_CallFunctionObjArgs(b->f.advise, b->f.obj, sz, ad, NULL),
			       "the allocator's alloc_advise callback");
	Py_XDECREF(sz);
	Py_XDECREF(ad);
	PyGILState_Release(g);
	return pb;
}

static void *tramp_get_addr(aclrtAllocatorBlock block)
{
	struct pyblock *pb = block;
	PyGILState_STATE g = PyGILState_Ensure();
	PyObject *r = PyObject_CallFunctionObjArgs(pb->b->f.get_addr, pb->block, NULL);
	void *addr = NULL;

	if (r && pyacl_ptr(r, &addr, "the value returned by get_addr_from_block"))
		addr = NULL;
	if (PyErr_Occurred())
		pyacl_report("the allocator's get_addr_from_block callback (the operator fails)");
	Py_XDECREF(r);
	PyGILState_Release(g);
	return addr;
}

static void tramp_free(aclrtAllocator allocator, aclrtAllocatorBlock block)
{
	struct binding *b = allocator;
	struct pyblock *pb = block;
	PyGILState_STATE g = PyGILState_Ensure();
	PyObject *r = PyObject_CallFunctionObjArgs(b->f.free, b->f.obj, pb->block, NULL);

	if (!r)
		pyacl_report("the allocator's free callback");
	Py_XDECREF(r);
	Py_DECREF(pb->block);
	pb->b->blocks--;
	PyMem_RawFree(pb);
	PyGILState_Release(g);
}

/* ---- the bindings ---------------------------------------------------------- */

static struct pydesc *desc_find(void *handle)
{
	struct pydesc *d;

	for (d = descs; d; d = d->next)
		if (d->handle == handle)
			return d;
	return NULL;
}

static PyObject *py_create_desc(PyObject *self, PyObject *args)
{
	struct pydesc *d;
	void *h;

	(void)self;
	(void)args;
	d = PyMem_RawCalloc(1, sizeof(*d));
	if (!d)
		return PyErr_NoMemory();
	h = aclrtAllocatorCreateDesc();
	if (!h) {
		PyMem_RawFree(d);
		return pyacl_from_ptr(NULL);
	}
	d->handle = h;
	d->next = descs;
	descs = d;
	return pyacl_from_ptr(h);
}

static PyObject *py_destroy_desc(PyObject *self, PyObject *arg)
{
	struct pydesc **pp, *d;
	void *h;
	aclError ret;

	(void)self;
	if (pyacl_ptr(arg, &h, "allocator_destroy_desc: desc"))
		return NULL;
	ret = aclrtAllocatorDestroyDesc(h);
	for (pp = &descs; (d = *pp); pp = &d->next) {
		if (d->handle != h)
			continue;
		*pp = d->next;
		pydesc_free(d);
		break;
	}
	return PyLong_FromLong(ret);
}

enum slot { S_OBJ, S_ALLOC, S_FREE, S_ADVISE, S_GET_ADDR };

/* allocator_set_*_to_desc(desc, value): the C setter validates the
 * descriptor (and gets the trampoline, or a placeholder object, so that
 * aclrtAllocatorRegister sees every mandatory field set); the Python value
 * is kept in the pydesc. */
static PyObject *set_slot(PyObject *args, enum slot slot, const char *name)
{
	PyObject *desc_o, *val, **field;
	struct pydesc *d;
	void *h;
	aclError ret;

	if (!PyArg_ParseTuple(args, "OO", &desc_o, &val))
		return NULL;
	if (pyacl_ptr(desc_o, &h, name))
		return NULL;
	if (slot != S_OBJ && !PyCallable_Check(val))
		return PyErr_Format(PyExc_TypeError, "%s: the function must be callable, not %.100s", name,
				    Py_TYPE(val)->tp_name);
	d = desc_find(h);
	switch (slot) {
	case S_OBJ:
		ret = aclrtAllocatorSetObjToDesc(h, val == Py_None ? NULL : d ? (void *)d : (void *)val);
		break;
	case S_ALLOC:
		ret = aclrtAllocatorSetAllocFuncToDesc(h, tramp_alloc);
		break;
	case S_FREE:
		ret = aclrtAllocatorSetFreeFuncToDesc(h, tramp_free);
		break;
	case S_ADVISE:
		ret = aclrtAllocatorSetAllocAdviseFuncToDesc(h, tramp_advise);
		break;
	default:
		ret = aclrtAllocatorSetGetAddrFromBlockFuncToDesc(h, tramp_get_addr);
		break;
	}
	if (ret == ACL_SUCCESS && d) {
		field = slot == S_OBJ ? &d->f.obj : slot == S_ALLOC ? &d->f.alloc : slot == S_FREE ? &d->f.free :
			slot == S_ADVISE ? &d->f.advise : &d->f.get_addr;
		Py_INCREF(val);
		Py_XSETREF(*field, val);
		if (slot == S_OBJ && val == Py_None)
			Py_CLEAR(*field);
	}
	return PyLong_FromLong(ret);
}

/* The five METH_VARARGS setters, one per slot. */
#define SLOT_SETTER(fn, slot, name)                          \
	static PyObject *fn(PyObject *self, PyObject *args) \
	{                                                    \
		(void)self;                                  \
		return set_slot(args, slot, name);           \
	}
SLOT_SETTER(py_set_obj, S_OBJ, "allocator_set_obj_to_desc")
SLOT_SETTER(py_set_alloc, S_ALLOC, "allocator_set_alloc_func_to_desc")
SLOT_SETTER(py_set_free, S_FREE, "allocator_set_free_func_to_desc")
SLOT_SETTER(py_set_advise, S_ADVISE, "allocator_set_alloc_advise_func_to_desc")
SLOT_SETTER(py_set_get_addr, S_GET_ADDR, "allocator_set_get_addr_from_block_func_to_desc")

static PyObject *py_register(PyObject *self, PyObject *args)
{
	PyObject *stream_o, *desc_o;
	struct pydesc *d;
	struct binding *b;
	void *stream, *h;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "OO:allocator_register", &stream_o, &desc_o) ||
	    pyacl_ptr(stream_o, &stream, "allocator_register: stream") ||
	    pyacl_ptr(desc_o, &h, "allocator_register: desc"))
		return NULL;
	d = desc_find(h);
	if (!d)	/* not ours (or destroyed): the runtime says why */
		return PyLong_FromLong(aclrtAllocatorRegister(stream, h));
	b = PyMem_RawCalloc(1, sizeof(*b));
	if (!b)
		return PyErr_NoMemory();
	b->stream = stream;
	b->desc = h;
	pyfns_copy(&b->f, &d->f);
	/*
	 * The runtime copies the descriptor at registration: with the GIL
	 * held nothing else from Python changes it between these calls.
	 */
	ret = aclrtAllocatorSetObjToDesc(h, d->f.obj ? (void *)b : NULL);
	if (ret == ACL_SUCCESS)
		ret = aclrtAllocatorRegister(stream, h);
	(void)aclrtAllocatorSetObjToDesc(h, d->f.obj ? (void *)d : NULL);
	if (ret != ACL_SUCCESS) {
		binding_free(b);
		return PyLong_FromLong(ret);
	}
	/* Last registration of a stream wins, as in C. */
	retire(stream, false);
	b->next = live;
	live = b;
	return PyLong_FromLong(ret);
}

static PyObject *py_unregister(PyObject *self, PyObject *arg)
{
	void *stream;
	aclError ret;

	(void)self;
	if (pyacl_ptr(arg, &stream, "allocator_unregister: stream"))
		return NULL;
	ret = aclrtAllocatorUnregister(stream);
	if (ret == ACL_SUCCESS)
		retire(stream, false);
	return PyLong_FromLong(ret);
}

static PyObject *obj_or_none(PyObject *o)
{
	if (!o)
		Py_RETURN_NONE;
	Py_INCREF(o);
	return o;
}

/* (desc, allocator, alloc, free, alloc_advise, get_addr_from_block, ret):
 * the Python objects of the stream's registration. */
static PyObject *py_get_by_stream(PyObject *self, PyObject *arg)
{
	aclrtAllocatorAllocFunc a = NULL;
	aclrtAllocatorFreeFunc f = NULL;
	aclrtAllocatorAllocAdviseFunc ad = NULL;
	aclrtAllocatorGetAddrFromBlockFunc g = NULL;
	void *stream, *desc = NULL, *obj = NULL;
	struct binding *b;
	aclError ret;

	(void)self;
	if (pyacl_ptr(arg, &stream, "allocator_get_by_stream: stream"))
		return NULL;
	ret = aclrtAllocatorGetByStream(stream, &desc, &obj, &a, &f, &ad, &g);
	for (b = live; b; b = b->next)
		if (ret == ACL_SUCCESS && b == obj)
			return Py_BuildValue("NNNNNNi", pyacl_from_ptr(desc), obj_or_none(b->f.obj),
					     obj_or_none(b->f.alloc), obj_or_none(b->f.free), obj_or_none(b->f.advise),
					     obj_or_none(b->f.get_addr), ret);
	/* Registered from C, or nothing registered: the raw values. */
	return Py_BuildValue("NNNNNNi", pyacl_from_ptr(desc), pyacl_from_ptr(obj), pyacl_from_ptr((void *)a),
			     pyacl_from_ptr((void *)f), pyacl_from_ptr((void *)ad), pyacl_from_ptr((void *)g), ret);
}

/* How many registrations hold Python objects (live, retired): for tests. */
static PyObject *py_bindings(PyObject *self, PyObject *args)
{
	unsigned long nl = 0, nr = 0;
	struct binding *b;

	(void)self;
	(void)args;
	for (b = live; b; b = b->next)
		nl++;
	for (b = retired; b; b = b->next)
		nr++;
	return Py_BuildValue("kk", nl, nr);
}

PyMethodDef pyacl_alloc_methods[] = {
	{ "allocator_create_desc", py_create_desc, METH_NOARGS, "aclrtAllocatorCreateDesc() -> desc" },
	{ "allocator_destroy_desc", py_destroy_desc, METH_O, "aclrtAllocatorDestroyDesc(desc) -> ret" },
	{ "allocator_set_obj_to_desc", py_set_obj, METH_VARARGS,
	  "aclrtAllocatorSetObjToDesc(desc, allocator) -> ret; allocator: any Python object" },
	{ "allocator_set_alloc_func_to_desc", py_set_alloc, METH_VARARGS,
	  "aclrtAllocatorSetAllocFuncToDesc(desc, alloc) -> ret; alloc(allocator, size) -> block" },
	{ "allocator_set_free_func_to_desc", py_set_free, METH_VARARGS,
	  "aclrtAllocatorSetFreeFuncToDesc(desc, free) -> ret; free(allocator, block)" },
	{ "allocator_set_alloc_advise_func_to_desc", py_set_advise, METH_VARARGS,
	  "aclrtAllocatorSetAllocAdviseFuncToDesc(desc, f) -> ret; f(allocator, size, addr) -> block" },
	{ "allocator_set_get_addr_from_block_func_to_desc", py_set_get_addr, METH_VARARGS,
	  "aclrtAllocatorSetGetAddrFromBlockFuncToDesc(desc, f) -> ret; f(block) -> device address" },
	{ "allocator_register", py_register, METH_VARARGS, "aclrtAllocatorRegister(stream, desc) -> ret" },
	{ "allocator_unregister", py_unregister, METH_O, "aclrtAllocatorUnregister(stream) -> ret" },
	{ "allocator_get_by_stream", py_get_by_stream, METH_O,
	  "aclrtAllocatorGetByStream(stream) -> (desc, allocator, alloc, free, alloc_advise, get_addr, ret)" },
	{ "_allocator_bindings", py_bindings, METH_NOARGS,
	  "(live, retired): registrations holding Python objects (vnpu, for tests)" },
	{ NULL, NULL, 0, NULL },
};
