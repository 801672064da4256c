/* SPDX-License-Identifier: MIT */
/*
 * acl_py.h - the Python `acl` module (pyACL's calling conventions over
 * libascendcl), shared by its source files.
 *
 * Most bindings are rows of a table (struct pyacl_fn): the Python name, the
 * C function and a compact signature, called by one generic caller through
 * libffi. Signature: the return kind, ':', then one letter per C argument in
 * order. Lowercase is an input taken from the Python arguments, uppercase an
 * out-parameter the caller allocates and returns:
 *   p/P pointer or handle (Python int)   i/I int32    u/U uint32
 *   z/Z size_t    l/L int64    q/Q uint64    f/F float
 *   b uint8   c int8   h int16   w uint16   s const char * (str or None)
 * Return kinds: the same lowercase letters, e (aclError) and v (void).
 * The result: no out-parameters -> the return value (None for void);
 * otherwise a tuple of the outputs followed by the return value, so an
 * aclError comes last, as pyACL does: acl.rt.malloc(size, policy) ->
 * (ptr, ret) is { "malloc", aclrtMalloc, "e:Pzi" }.
 *
 * Everything mutable in the module (the allocator bindings, the thread
 * error list) is touched only with the GIL held: the GIL is their lock.
 */
#ifndef VNPU_PYTHON_ACL_PY_H
#define VNPU_PYTHON_ACL_PY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <ffi.h>
#include <stdbool.h>
#include <stdint.h>

#include "acl/acl.h"
#include "acl/acl_op_compiler.h"
#include "acl/acl_rt_allocator.h"

#define PYACL_MAX_ARGS 20

/* Bindings called with the GIL released (they block, or may call back into
 * Python through an allocator or a callback). */
#define PYACL_NOGIL 1u

struct pyacl_fn {
	const char *name;
	void (*fn)(void);
	const char *sig;
	unsigned flags;
	const char *cname;
	/* Filled once at import (under the import lock), read-only after. */
	const char *module;	/* "acl.rt", ...: for messages */
	PyMethodDef def;
	ffi_cif cif;
	ffi_type *types[PYACL_MAX_ARGS];
	unsigned nargs;
};

#define PYACL_FN(py, c, sig, flags) { py, (void (*)(void))(c), sig, flags, #c, NULL, { 0 }, { 0 }, { 0 }, 0 }
/* A row whose C function is reached through a wrapper (CANN marks it
 * deprecated, or pyACL's function fixes an argument): @cname is what the
 * doc string names. */
#define PYACL_FN_AS(py, c, cname, sig, flags) \
	{ py, (void (*)(void))(c), sig, flags, cname, NULL, { 0 }, { 0 }, { 0 }, 0 }
#define PYACL_END { NULL, NULL, NULL, 0, NULL, NULL, { 0 }, { 0 }, { 0 }, 0 }

/* The tables, one per (sub)module, and their hand-written functions. */
extern struct pyacl_fn pyacl_top_fns[], pyacl_rt_fns[], pyacl_op_fns[], pyacl_mdl_fns[], pyacl_media_fns[];
extern PyMethodDef pyacl_top_methods[], pyacl_rt_methods[], pyacl_op_methods[], pyacl_mdl_methods[],
	pyacl_util_methods[], pyacl_alloc_methods[];

/* ---- argument helpers (acl_module.c): raise TypeError/OverflowError ---- */

/* A pointer or handle: a Python int (or None for NULL). */
int pyacl_ptr(PyObject *o, void **out, const char *what);
/* A list (or tuple) of handles; *out is PyMem_Malloc'ed (free with
 * PyMem_Free), *n its length. */
int pyacl_ptr_list(PyObject *o, void ***out, int *n, const char *what);
/* A list (or tuple) of ints as int64_t, of floats as float. */
int pyacl_i64_list(PyObject *o, int64_t **out, int *n, const char *what);
int pyacl_f32_list(PyObject *o, float **out, int *n, const char *what);
PyObject *pyacl_from_ptr(const void *p);

/*
 * Calls that may reach an allocator trampoline run between begin and end,
 * with the GIL released. Bindings replaced while such a call is in flight
 * are released only when none is (acl_alloc.c).
 */
PyThreadState *pyacl_nogil_begin(void);
void pyacl_nogil_end(PyThreadState *ts);

/* Print the pending exception with its traceback, after a line saying
 * where it came from (a callback has nobody to raise to). */
void pyacl_report(const char *where);

/* ---- allocator bindings (acl_alloc.c) ---- */
/* The stream is gone (destroyed) or every registration is (finalize, with
 * stream NULL): drop what Python objects they held. */
void pyacl_alloc_forget_stream(void *stream);
void pyacl_alloc_forget_all(void);
/* Streams may have gone with a device reset or a context: drop the
 * registrations whose stream no longer has them (asks the runtime, which
 * leaves its message for the streams it no longer knows). */
void pyacl_alloc_prune(void);

#endif /* VNPU_PYTHON_ACL_PY_H */
