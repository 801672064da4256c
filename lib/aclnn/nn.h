/* SPDX-License-Identifier: MIT */
/*
 * nn.h - building aclnn executors: the contract between the operator
 * functions (lib/aclnn/ops/, libopapi.so) and the executor core
 * (lib/aclnn/, libnnopbase.so).
 *
 * An aclnnXxxGetWorkspaceSize call builds an executor out of values and
 * steps; aclnnXxx launches it. A value is a tensor: a caller's input or
 * output (a view of their storage), a view of another value, or a dense
 * temporary in the caller's workspace. A step is one operator of lib/ops
 * (planned by vops_plan() when it is added) or one value write (a host
 * scalar). The launch is one SUBMIT of every step in order, its operand
 * addresses filled in from the tensors' current addresses and the
 * workspace: a warm launch costs one ioctl.
 *
 * Errors are sticky: the first failing call records its status and a
 * message ("aclnnAdd: self and other cannot broadcast: [2, 3] and [4]"),
 * every later call on the executor does nothing and returns NN_NONE, and
 * nn_finish() returns the status (the message is aclGetRecentErrMsg()'s).
 * So an operator function checks what it must and builds without testing
 * each call.
 *
 * A typical operator:
 *
 *	aclnnStatus aclnnReluGetWorkspaceSize(const aclTensor *self, aclTensor *out,
 *					      uint64_t *workspaceSize, aclOpExecutor **executor)
 *	{
 *		struct nn_exec *x = nn_begin("aclnnRelu");
 *		nn_val a = nn_in(x, self, "self"), o = nn_out(x, out, "out");
 *
 *		nn_store(x, nn_op1(x, "Relu", 1, &a, NULL, 0), o);
 *		return nn_finish(x, workspaceSize, executor);
 *	}
 *	NN_LAUNCH(aclnnRelu)
 *
 * Nothing here is thread-unsafe: an executor is built by one thread; the
 * handle registry behind aclOpExecutor pointers has its own lock.
 */
#ifndef VNPU_LIB_ACLNN_NN_H
#define VNPU_LIB_ACLNN_NN_H

#include <stdbool.h>
#include <stdint.h>

#include "acl/acl_base.h"
#include "aclnn/aclnn_base.h"
#include "aclnn/opdev/op_errno.h"
#include "vnpu_ops.h"

/* What libnnopbase.so exports to libopapi.so beyond the CANN API (its
 * version script's VNPU_NNOPBASE_PRIVATE node). */
#define NN_EXPORT __attribute__((visibility("default")))

/* ---- the objects ----------------------------------------------------------- */

#define NN_TENSOR_MAGIC 0x564e5454u	/* "VNTT" */
#define NN_SCALAR_MAGIC 0x564e5453u	/* "VNTS" */
#define NN_ARRAY_MAGIC 0x564e5441u	/* "VNTA" */
#define NN_LIST_MAGIC 0x564e544cu	/* "VNTL": an aclTensorList */
#define NN_SCALAR_LIST_MAGIC 0x564e534cu	/* "VNSL" */

struct aclTensor {
	uint32_t magic;
	aclDataType dtype;
	aclFormat format;
	int ndim;			/* view rank */
	int sdim;			/* storage rank */
	int64_t *dims;			/* view shape (ndim) */
	int64_t *strides;		/* view strides in elements (ndim) */
	int64_t *sdims;			/* storage shape (sdim) */
	int64_t offset;			/* view offset in elements */
	void *data;			/* storage address */
};

struct aclScalar {
	uint32_t magic;
	aclDataType dtype;
	union {
		double f;		/* real types */
		int64_t i;		/* integer types and bool */
		uint64_t u;		/* ACL_UINT64 */
	};
};

enum nn_array_kind { NN_ARRAY_INT = 1, NN_ARRAY_FLOAT, NN_ARRAY_BOOL };

struct aclIntArray {
	uint32_t magic;
	enum nn_array_kind kind;
	uint64_t size;
	int64_t *v;
};

struct aclFloatArray {
	uint32_t magic;
	enum nn_array_kind kind;
	uint64_t size;
	float *v;
};

struct aclBoolArray {
	uint32_t magic;
	enum nn_array_kind kind;
	uint64_t size;
	bool *v;
};

struct aclTensorList {
	uint32_t magic;
	uint64_t size;
	aclTensor **v;			/* owned */
};

struct aclScalarList {
	uint32_t magic;
	uint64_t size;
	aclScalar **v;			/* owned */
};

/* A scalar's value as a double, an int64 (truncated toward zero). */
double nn_scalar_f64(const aclScalar *s) NN_EXPORT;
int64_t nn_scalar_i64(const aclScalar *s) NN_EXPORT;
/* Is @dt a floating type (fp16, bf16, fp32, fp64)? An integer one (bool
 * excluded)? */
bool nn_dt_float(aclDataType dt) NN_EXPORT;
bool nn_dt_int(aclDataType dt) NN_EXPORT;

/*
 * PyTorch's (and aclnn's) type promotion: bool < integers < floats, the
 * wider of two of a kind, uint8 with int8 is int16, fp16 with bf16 is
 * fp32. nn_promote_scalar(): a tensor of @t with a scalar of @s keeps @t
 * unless the scalar is of a higher kind (a float scalar with an integer
 * tensor: ACL_FLOAT; an integer scalar with a bool tensor: ACL_INT64).
 * ACL_DT_UNDEFINED if either is not a type aclnn computes in.
 */
aclDataType nn_promote(aclDataType a, aclDataType b) NN_EXPORT;
aclDataType nn_promote_scalar(aclDataType t, aclDataType s) NN_EXPORT;

/* ---- building an executor ------------------------------------------------- */

struct nn_exec;

/* A value of an executor: >= 0. */
typedef int nn_val;
#define NN_NONE (-1)			/* after an error */
#define NN_ABSENT (-2)			/* an optional input that was NULL */

/* What a value is. strides are in elements; a dense value is row-major
 * contiguous from element @offset. */
struct nn_view {
	aclDataType dtype;
	int ndim;
	const int64_t *dims;
	const int64_t *strides;
	int64_t offset;
	bool dense;
	uint64_t count;			/* elements */
};

/* Start the executor of aclnn function @api ("aclnnAdd": the name in
 * messages and the launch function it belongs to). May return NULL (out
 * of memory); every function below takes that as a failed executor. */
struct nn_exec *nn_begin(const char *api) NN_EXPORT;

/* Has no call failed yet? */
bool nn_ok(const struct nn_exec *x) NN_EXPORT;

/* Record a failure (the first one counts) with a message, prefixed with
 * the api name; returns @code. */
aclnnStatus nn_fail(struct nn_exec *x, aclnnStatus code, const char *fmt, ...) NN_EXPORT
	__attribute__((format(printf, 3, 4)));

/*
 * The caller's tensors, in the order of the GetWorkspaceSize arguments
 * (that order is the index of aclSetInputTensorAddr and friends; inputs
 * and outputs are counted apart). An in-place argument (selfRef) is
 * taken twice, nn_in() and nn_out() on the same tensor. A NULL
 * tensor: ACLNN_ERR_PARAM_NULLPTR ("self is NULL"); a foreign pointer,
 * a format that is not plain, negative strides or a view reaching past
 * its storage: ACLNN_ERR_PARAM_INVALID. nn_in_opt() takes NULL as
 * NN_ABSENT, without an error.
 */
nn_val nn_in(struct nn_exec *x, const aclTensor *t, const char *name) NN_EXPORT;
nn_val nn_in_opt(struct nn_exec *x, const aclTensor *t, const char *name) NN_EXPORT;
nn_val nn_out(struct nn_exec *x, const aclTensor *t, const char *name) NN_EXPORT;
/* A tensor list's elements into @vals (at most @max; more is an error);
 * returns the count, or -1 after an error. An empty list is an error
 * unless @allow_empty. */
int nn_in_list(struct nn_exec *x, const aclTensorList *l, const char *name, nn_val *vals, int max,
	       bool allow_empty) NN_EXPORT;
int nn_out_list(struct nn_exec *x, const aclTensorList *l, const char *name, nn_val *vals, int max,
		bool allow_empty) NN_EXPORT;

/* What @v is (a zero-rank ACL_FLOAT view for NN_NONE and NN_ABSENT); the
 * pointer stays valid until the executor is finished. */
const struct nn_view *nn_view(const struct nn_exec *x, nn_val v) NN_EXPORT;

/* A dense zero-rank temporary holding host scalar @s (NULL:
 * ACLNN_ERR_PARAM_NULLPTR naming @name) converted to @dt, or the
 * constant @value. */
nn_val nn_scalar(struct nn_exec *x, const aclScalar *s, aclDataType dt, const char *name) NN_EXPORT;
nn_val nn_const(struct nn_exec *x, double value, aclDataType dt) NN_EXPORT;

/* Another layout of @v's elements, no copy: @ndim dimensions @dims and
 * @strides (elements, >= 0; NULL: row-major) from element @offset of the
 * same storage as @v. Reaching outside @v's storage is an error. */
nn_val nn_restride(struct nn_exec *x, nn_val v, int ndim, const int64_t *dims, const int64_t *strides,
		   int64_t offset) NN_EXPORT;
/* @v with a new shape of the same count: a view when @v is dense, else a
 * dense copy first. */
nn_val nn_reshape(struct nn_exec *x, nn_val v, int ndim, const int64_t *dims) NN_EXPORT;
/* A dense copy of @v (of type @dt; ACL_DT_UNDEFINED: @v's). */
nn_val nn_dense(struct nn_exec *x, nn_val v, aclDataType dt) NN_EXPORT;
/* Do @a and @b touch the same bytes of a caller's tensor? (Temporaries
 * in the workspace overlap nothing.) A function that writes several
 * parts of its output (Cat, Stack, Split) copies an input that overlaps
 * an output first, so that it reads every input before it writes. */
bool nn_overlaps(const struct nn_exec *x, nn_val a, nn_val b) NN_EXPORT;

/*
 * One lib/ops operator on @nin values (NN_ABSENT entries are not allowed:
 * leave them out), its @nout outputs new dense temporaries put in @out.
 * lib/ops' refusal becomes ACLNN_ERR_PARAM_INVALID with its message.
 * Returns 0, or -1 after an error.
 */
int nn_op(struct nn_exec *x, const char *type, int nin, const nn_val *in, const struct vops_attr *attrs,
	  unsigned int nattrs, int nout, nn_val *out) NN_EXPORT;
/* The same for an operator of one output; returns it. */
nn_val nn_op1(struct nn_exec *x, const char *type, int nin, const nn_val *in, const struct vops_attr *attrs,
	      unsigned int nattrs) NN_EXPORT;
/* @v as type @dt: @v itself when it already is, else a Cast. */
nn_val nn_cast(struct nn_exec *x, nn_val v, aclDataType dt) NN_EXPORT;

/*
 * Write @v into output @out (a value from nn_out() or a view of one): the
 * shapes must be equal (nn_copy(): @v must broadcast to @out), else
 * ACLNN_ERR_PARAM_INVALID naming both shapes. The element type is
 * converted to @out's; @out may be any view, and may overlap @v or the
 * inputs (the result is as if every input were read first). When @v is
 * the temporary of an operator and @out can take its place (dense, same
 * type, no overlap that matters), the operator writes @out directly.
 */
void nn_store(struct nn_exec *x, nn_val v, nn_val out) NN_EXPORT;
void nn_copy(struct nn_exec *x, nn_val v, nn_val out) NN_EXPORT;
/* Fill output @out with @value (converted to its type). */
void nn_fill(struct nn_exec *x, nn_val out, double value) NN_EXPORT;

/*
 * End the build: ACLNN_ERR_PARAM_NULLPTR for a NULL @workspace_size or
 * @executor; on success *@workspace_size is the bytes of workspace the
 * launch needs and *@executor the executor. On failure the executor is
 * freed and the recorded status returned.
 */
aclnnStatus nn_finish(struct nn_exec *x, uint64_t *workspace_size, aclOpExecutor **executor) NN_EXPORT;

/*
 * How many operator calls of nn_op() this process has planned with
 * lib/ops (vops_plan()); a call repeating a recent one of the same thread
 * takes the plan it had then (nn_memo.c) and does not count. For tests and
 * benchmarks: a warm GetWorkspaceSize plans nothing.
 */
uint64_t nn_memo_plans(void) NN_EXPORT;

/*
 * The second stage: run @e (made by @api's GetWorkspaceSize) on @stream
 * (NULL: the current context's default stream) with @workspace
 * (@workspace_size bytes, at least what GetWorkspaceSize said). A stale,
 * used or foreign executor, a workspace too small or a stream of another
 * device: ACLNN_ERR_PARAM_INVALID; a failure to queue:
 * ACLNN_ERR_RUNTIME_ERROR. A non-repeatable executor is freed whatever
 * happens.
 */
aclnnStatus nn_launch(void *workspace, uint64_t workspace_size, aclOpExecutor *e, aclrtStream stream,
		      const char *api) NN_EXPORT;

#define NN_LAUNCH(api)                                                                              \
	aclnnStatus api(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,             \
			aclrtStream stream)                                                           \
	{                                                                                           \
		return nn_launch(workspace, workspaceSize, executor, stream, #api);                   \
	}

/* ---- attributes for nn_op() -------------------------------------------------- */

#define NN_ATTR_INT(n, v) { .name = (char *)(n), .kind = VOPS_ATTR_INT, .i = (v) }
#define NN_ATTR_FLOAT(n, v) { .name = (char *)(n), .kind = VOPS_ATTR_FLOAT, .f = (float)(v) }
#define NN_ATTR_BOOL(n, v) { .name = (char *)(n), .kind = VOPS_ATTR_BOOL, .b = (v) }
#define NN_ATTR_DTYPE(n, v) { .name = (char *)(n), .kind = VOPS_ATTR_DTYPE, .dt = (v) }
#define NN_ATTR_STRING(n, v) { .name = (char *)(n), .kind = VOPS_ATTR_STRING, .s = (char *)(v) }
#define NN_ATTR_INTS(n, cnt, p) { .name = (char *)(n), .kind = VOPS_ATTR_LIST_INT, .li = { (int)(cnt), (int64_t *)(p) } }
#define NN_ATTR_FLOATS(n, cnt, p) \
	{ .name = (char *)(n), .kind = VOPS_ATTR_LIST_FLOAT, .lf = { (int)(cnt), (float *)(p) } }

#define NN_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ---- checks operators share ------------------------------------------------ */

/* ACLNN_ERR_PARAM_NULLPTR naming @name when @p is NULL; returns !p. */
bool nn_null(struct nn_exec *x, const void *p, const char *name) NN_EXPORT;
/* ACLNN_ERR_PARAM_INVALID unless @v's type is one of @dts (@n of them),
 * naming @name and the type; returns whether it is. */
bool nn_check_dtype(struct nn_exec *x, nn_val v, const char *name, const aclDataType *dts, int n) NN_EXPORT;
/* ACLNN_ERR_PARAM_INVALID unless @v has rank in [@lo, @hi]. */
bool nn_check_rank(struct nn_exec *x, nn_val v, const char *name, int lo, int hi) NN_EXPORT;
/* The numpy broadcast of @a and @b into @dims (VOPS_MAX_RANK), its rank,
 * or -1 with ACLNN_ERR_PARAM_INVALID naming both shapes. */
int nn_broadcast(struct nn_exec *x, nn_val a, nn_val b, int64_t *dims) NN_EXPORT;
/* An axis in [-rank, rank) as [0, rank), or -1 with
 * ACLNN_ERR_PARAM_INVALID naming @name. (rank 0 takes -1 and 0.) */
int nn_axis(struct nn_exec *x, int64_t axis, int rank, const char *name) NN_EXPORT;

/* The values of an array argument; NULL arrays are ACLNN_ERR_PARAM_NULLPTR
 * naming @name (then *n is 0 and NULL is returned). */
const int64_t *nn_ints(struct nn_exec *x, const aclIntArray *a, const char *name, uint64_t *n) NN_EXPORT;
const float *nn_floats(struct nn_exec *x, const aclFloatArray *a, const char *name, uint64_t *n) NN_EXPORT;
const bool *nn_bools(struct nn_exec *x, const aclBoolArray *a, const char *name, uint64_t *n) NN_EXPORT;

/* A shape for messages, "[2, 3]" (one of four rotating static-free
 * buffers in @x; valid until the executor is finished). */
const char *nn_shape_str(struct nn_exec *x, nn_val v) NN_EXPORT;

#endif /* VNPU_LIB_ACLNN_NN_H */
