/* SPDX-License-Identifier: MIT */
/*
 * vnpu_ops.h - vnpu's operator library: every operator defined once.
 *
 * One definition per operator (its CANN type name, inputs, outputs, data
 * types, attributes, shape inference, workspace size and its compute
 * kernel) serves both sides of the device:
 *
 *  - planning (libascendcl, tests): vops_plan() checks a call against the
 *    operator's rules and encodes it as a descriptor, the opaque bytes a
 *    VNPU_TASK_OP carries through the kernel;
 *  - execution (vnpu-engined, tests): vops_run() decodes a descriptor,
 *    plans it again with the same code, checks every operand it is given
 *    against what that plan needs, and computes.
 *
 * Nothing here makes a system call or keeps global mutable state; every
 * function is thread-safe. Data types are aclDataType values
 * (acl/acl_base.h).
 *
 * Operands. A planned call has nin + nout (+ 1) operands, always in this
 * order: the inputs (VNPU_OPERAND_READ), the outputs (VNPU_OPERAND_WRITE),
 * then, if plan.ws_bytes is nonzero, the workspace
 * (VNPU_OPERAND_WORKSPACE). The descriptor refers to operands by these
 * positions. vops_run() refuses (VOPS_RUN_FAULT) a descriptor it cannot
 * decode, operands of the wrong count, access or alignment, and any
 * operand smaller than the plan needs: no access ever leaves the operands
 * it is given, whatever the descriptor says.
 */
#ifndef VNPU_LIB_OPS_H
#define VNPU_LIB_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Most dimensions a tensor may have (CANN's ACL_MAX_DIM_CNT). */
#define VOPS_MAX_RANK 128
/* Most inputs and outputs of one operator. */
#define VOPS_MAX_INPUTS 32
#define VOPS_MAX_OUTPUTS 16
/* Largest descriptor vops_plan() makes (within the uapi's
 * VNPU_MAX_OP_DESC_SIZE). */
#define VOPS_MAX_DESC 8192
/* Limits on one operator: dimensions of its internal loops and bytes of an
 * operand. */
#define VOPS_MAX_DIM (1ull << 31)
#define VOPS_MAX_BYTES (1ull << 40)

/* ---- planning ------------------------------------------------------------- */

/*
 * A tensor as the caller describes it: type, shape and where its elements
 * are. @strides NULL (and @offset 0) is row-major and contiguous; else
 * element (i0, i1, ...) is at element offset + i0 * strides[0] + i1 *
 * strides[1] + ... of the operand, so that views (a transpose, a slice, a
 * broadcast through a stride of 0) need no copy. Strides and offset are in
 * elements and never negative; inputs may be views, outputs are dense.
 */
struct vops_tensor {
	int32_t dtype;			/* aclDataType */
	int32_t ndim;			/* 0 .. VOPS_MAX_RANK; 0 is a scalar */
	const int64_t *dims;		/* ndim entries, each >= 0 */
	const int64_t *strides;		/* ndim entries, each >= 0, or NULL: dense */
	int64_t offset;			/* elements before element 0 (>= 0) */
};

/* An attribute, as CANN's aclopAttr holds them. */
enum vops_attr_kind {
	VOPS_ATTR_BOOL = 1,
	VOPS_ATTR_INT,
	VOPS_ATTR_FLOAT,
	VOPS_ATTR_STRING,
	VOPS_ATTR_DTYPE,
	VOPS_ATTR_LIST_INT,
	VOPS_ATTR_LIST_FLOAT,
};

struct vops_attr {
	char *name;
	enum vops_attr_kind kind;
	union {
		bool b;
		int64_t i;
		float f;
		char *s;
		int32_t dt;		/* aclDataType */
		struct {
			int n;
			int64_t *v;
		} li;
		struct {
			int n;
			float *v;
		} lf;
	};
};

/* The attribute called @name among @n, or NULL. */
const struct vops_attr *vops_attr_find(const struct vops_attr *attrs, unsigned int n, const char *name);

/* Why a call cannot be planned; libascendcl maps these to ACL codes. */
enum vops_err {
	VOPS_OK = 0,
	VOPS_ERR_NOT_FOUND,		/* no operator of that type */
	VOPS_ERR_INPUT,			/* input count, shapes or types */
	VOPS_ERR_OUTPUT,		/* output count */
	VOPS_ERR_DTYPE,			/* a data type the operator does not support */
	VOPS_ERR_ATTR,			/* an attribute unknown, missing or invalid */
};

#define VOPS_MSG_MAX 512

struct vops_error {
	enum vops_err code;
	char msg[VOPS_MSG_MAX];		/* names the operator and the bad value */
};

/* A planned call. */
struct vops_plan {
	const char *type;		/* the operator's CANN type name */
	int nin, nout;
	uint64_t in_bytes[VOPS_MAX_INPUTS];	/* bytes each input must hold */
	uint32_t in_align[VOPS_MAX_INPUTS];	/* alignment of each input's address */
	struct {
		int32_t dtype;
		int32_t ndim;
		int64_t dims[VOPS_MAX_RANK];
		uint64_t bytes;
		uint32_t align;
	} out[VOPS_MAX_OUTPUTS];
	/* Bit i set: input i may start at the same address as output 0 (in
	 * place); any other overlap between operands is refused by the
	 * caller. */
	uint32_t in_place;
	uint64_t ws_bytes;		/* workspace the operator needs (0: none) */
	uint32_t ws_align;		/* alignment of the workspace address */
	bool empty;			/* no element to compute: queue nothing */
	uint32_t desc_size;		/* bytes of desc */
	unsigned char desc[VOPS_MAX_DESC] __attribute__((aligned(8)));
};

/*
 * Plan a call of the operator @type with @nin inputs and @nout outputs and
 * the attributes @attrs (@nattrs of them, may be NULL when 0). Unknown
 * attribute names are errors. On failure @err (if not NULL) says why and
 * @plan is unspecified.
 */
enum vops_err vops_plan(const char *type, int nin, const struct vops_tensor *in, int nout,
			const struct vops_attr *attrs, unsigned int nattrs, struct vops_plan *plan,
			struct vops_error *err);

/* Operand count of a plan: nin + nout, plus one with workspace. */
static inline unsigned int vops_plan_operands(const struct vops_plan *p)
{
	return (unsigned int)(p->nin + p->nout) + (p->ws_bytes ? 1u : 0u);
}

/* The name of operator @i of those vops_plan() knows (0, 1, ...), NULL
 * past the last. */
const char *vops_op_name(unsigned int i);

/* What an operator takes, for listings (docs, tools). */
struct vops_op_info {
	const char *name;
	int nin_min, nin_max;		/* inputs */
	int nout_min, nout_max;		/* outputs */
	bool mixed;			/* inputs of different types (dtypes: input 0's) */
	bool views;			/* reads views in place (else through dense copies) */
	int ndtypes;
	int32_t dtypes[16];		/* aclDataType values input 0 may have */
	const char *const *attrs;	/* CANN attribute names, NULL-terminated */
};

/* Operator @i (as vops_op_name()) into @info; false past the last. */
bool vops_op_info(unsigned int i, struct vops_op_info *info);

/* ---- execution ------------------------------------------------------------ */

/* Access of an operand: VNPU_OPERAND_READ, _WRITE, _WORKSPACE (uapi). */
struct vops_operand {
	void *ptr;
	uint64_t size;
	uint32_t access;
};

/*
 * How vops_run() is driven (@ctl may be NULL: to the end, on this thread).
 *  - should_stop (may be NULL) is asked between chunks of bounded work (a
 *    few hundred microseconds at most); true stops the operator. With
 *    @parallel it may be asked from several threads at once.
 *  - parallel (may be NULL) runs fn(arg, i) once for every i in
 *    [0, count), in any order, on the calling thread and on others, and
 *    returns when every call has returned. vops_run() hands it only pieces
 *    that are independent of each other (tiles of an fp32 matrix product,
 *    blocks of a large element-wise operation), and only when there are at
 *    least VOPS_PARALLEL_MIN of them; the result is the same either way.
 */
#define VOPS_PARALLEL_MIN 4

struct vops_ctl {
	bool (*should_stop)(void *priv);
	void *priv;
	void (*parallel)(void *priv, unsigned int count, void (*fn)(void *arg, unsigned int i),
			 void *arg);
};

enum vops_run_status {
	VOPS_RUN_OK = 0,
	VOPS_RUN_FAULT,			/* bad descriptor or operands: nothing written */
	VOPS_RUN_ARITH,			/* integer division by zero: output partial */
	VOPS_RUN_CANCELED,		/* should_stop said so: output partial */
};

/*
 * Run the operator described by @desc (@desc_size bytes, as vops_plan()
 * made it) on @operands (@noperands of them). @ctl may be NULL. @why, if
 * not NULL, gets a line saying why a FAULT happened.
 */
enum vops_run_status vops_run(const void *desc, size_t desc_size, const struct vops_operand *operands,
			      unsigned int noperands, const struct vops_ctl *ctl, char *why, size_t why_size);

/* ---- element conversions (shared with tests) ------------------------------- */

uint16_t vops_f32_to_f16(float f);
float vops_f16_to_f32(uint16_t h);
uint16_t vops_f32_to_bf16(float f);
float vops_bf16_to_f32(uint16_t h);
/* A double rounded once, to nearest even (through fp32 rounded to odd). */
uint16_t vops_f64_to_f16(double d);
uint16_t vops_f64_to_bf16(double d);

/* Bytes of one element of @dtype among the types vnpu's operators take
 * (ACL_FLOAT, _FLOAT16, _BF16, _DOUBLE, _INT8, _UINT8, _INT16, _UINT16,
 * _INT32, _UINT32, _INT64, _UINT64, _BOOL), or 0. */
size_t vops_dtype_size(int32_t dtype);

/* The name of aclDataType @dtype for messages ("ACL_FLOAT", ...; "an
 * unsupported type" for other values). */
const char *vops_dtype_name(int32_t dtype);

/* A shape for messages, "[2, 3]", into @buf (@n bytes; cut short to fit). */
const char *vops_shape_str(char *buf, size_t n, int ndim, const int64_t *dims);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_LIB_OPS_H */
