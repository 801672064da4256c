/* SPDX-License-Identifier: MIT */
/*
 * rt_op.h - single-operator execution, the pure half: the objects behind
 * aclTensorDesc, aclDataBuffer and aclopAttr, and the planner that turns a
 * CANN operator call (type name, tensor descriptors, attributes) into one
 * vnpu operator task (struct drm_vnpu_task_op), or a short chain of them
 * for a reduction over non-adjacent axes, with the sizes, alignment and
 * workspace the kernel will ask for.
 *
 * Nothing here issues a system call: rt_op.c, acl_tensor.c and
 * acl_opattr.c are linked into the host unit tests. Failures record their
 * ACL code and message with rt_err() like the rest of the runtime.
 *
 * Tensor descriptors, data buffers and attribute sets are plain heap
 * objects, as in CANN (a framework creates several per operator call), not
 * registry handles: they carry a magic word that catches a pointer of the
 * wrong kind, but a freed one is the caller's bug as in CANN.
 */
#ifndef VNPU_LIB_RT_OP_H
#define VNPU_LIB_RT_OP_H

#include <stdbool.h>
#include <stdint.h>

#include "acl/acl_base.h"
#include "acl/acl_op.h"
#include "vnpu_drm.h"

/* Most dimensions a tensor may have (CANN's ACL_MAX_DIM_CNT). */
#define RT_MAX_DIMS 128
/* Dimensions kept inside the descriptor; longer shapes go to the heap. */
#define RT_INLINE_DIMS 8

#define RT_TENSOR_MAGIC 0x564e5444u	/* "VNTD" */
#define RT_BUFFER_MAGIC 0x564e4442u	/* "VNDB" */
#define RT_ATTR_MAGIC 0x564e4f41u	/* "VNOA" */

/* CANN's unknown dimension and unknown rank markers. */
#define RT_DIM_UNKNOWN (-1)
#define RT_RANK_UNKNOWN (-2)

struct aclTensorDesc {
	uint32_t magic;
	aclDataType dtype;
	aclFormat format;
	int ndims;
	int64_t *dims;			/* inline_dims or heap */
	int64_t inline_dims[RT_INLINE_DIMS];
};

struct aclDataBuffer {
	uint32_t magic;
	void *data;
	size_t size;
};

enum rt_attr_kind {
	RT_ATTR_BOOL = 1,
	RT_ATTR_INT,
	RT_ATTR_FLOAT,
	RT_ATTR_STRING,
	RT_ATTR_DTYPE,
	RT_ATTR_LIST_INT,
	RT_ATTR_LIST_FLOAT,
};

struct rt_attr {
	char *name;
	enum rt_attr_kind kind;
	union {
		bool b;
		int64_t i;
		float f;
		char *s;
		aclDataType dt;
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

struct aclopAttr {
	uint32_t magic;
	struct rt_attr *items;
	unsigned int count, cap;
};

/* The attribute called @name, or NULL (attr may be NULL). */
const struct rt_attr *rt_attr_find(const aclopAttr *attr, const char *name);

/* Number of elements of @desc (1 for a scalar); false if a dimension is
 * unknown or the count overflows 64 bits. */
bool rt_tensor_count(const aclTensorDesc *desc, uint64_t *count);
/* Replace the shape of @desc; ACL_ERROR_INVALID_PARAM or
 * ACL_ERROR_BAD_ALLOC on failure (the old shape is kept). */
aclError rt_tensor_set_shape(aclTensorDesc *desc, int ndims, const int64_t *dims);

/* Element size of a data type in bytes, 0 if it has no whole-byte size. */
size_t rt_dtype_size(aclDataType dtype);
/* VNPU_DTYPE_* of an ACL type vnpu's operators support, else 0. */
uint32_t rt_dtype_to_vnpu(aclDataType dtype);
/* Printable name of an ACL data type ("ACL_FLOAT", ...). */
const char *rt_dtype_name(aclDataType dtype);
/* Is @format a plain (row-major, unblocked) layout? */
bool rt_format_plain(aclFormat format);
/* Is @format one of aclFormat's values? */
bool rt_format_known(aclFormat format);

/*
 * One operator call, planned. @task is the operator task without
 * addresses (op, dtype, out_dtype, op_flags, dims and ws_size filled; in0,
 * in1, out and ws are set by rt_op_bind_buffers() and the executor).
 */
/*
 * A reduction over axes that are not adjacent runs as a chain of tasks in
 * one job (tasks of a job run in order): one reduction per run of adjacent
 * axes, first run first, with CASTs to and from fp32 around them for an
 * fp16/bf16 ReduceSumD. The intermediate tensors live in the operator's
 * workspace block after the tasks' own workspace: [0, ws_region) is the
 * workspace every reduction of the chain uses, then buffer 0 and buffer 1,
 * each 64-byte aligned, which the steps use in turn.
 */
#define RT_OP_USER (-1)			/* step operand: the user's input/output */
/* A chain reduces each run of adjacent axes once (at most half the axes,
 * rounded up) and may add a cast before and after. */
#define RT_OP_MAX_STEPS ((RT_MAX_DIMS + 1) / 2 + 2)
#define RT_OP_BUF_ALIGN 64

struct rt_op_step {
	struct drm_vnpu_task_op task;	/* no addresses; ws_size its own need */
	int src, dst;			/* RT_OP_USER, or buffer 0 or 1 */
};

struct rt_op_plan {
	const char *type;		/* the CANN name, for messages */
	/* The task; for a chain only the user's addresses (in0, out) and, in
	 * ws_size, the bytes of the whole workspace block. */
	struct drm_vnpu_task_op task;
	unsigned int nsteps;		/* 0: the one task above; else a chain */
	uint64_t ws_region;		/* chain: workspace of its reductions */
	uint64_t buf_off[2], buf_bytes[2];	/* chain: intermediates in the block */
	unsigned int nin;		/* inputs the task reads (1 or 2) */
	uint64_t in_bytes[2];		/* bytes each input must provide */
	uint64_t out_bytes;
	uint32_t in_esize, out_esize;	/* element sizes: required alignment */
	bool in_place_ok;		/* output may start exactly at an input */
	bool empty;			/* no element to compute: queue nothing */
	aclDataType out_type;
	int out_ndims;
	int64_t out_dims[RT_MAX_DIMS];
	struct rt_op_step steps[RT_OP_MAX_STEPS];	/* nsteps of them */
};

/*
 * Check an operator call and plan it: the CANN operator @type with its
 * inputs, outputs and attributes (@attr may be NULL). Codes:
 * ACL_ERROR_INVALID_PARAM (NULL or foreign pointers, counts < 0),
 * ACL_ERROR_OP_NOT_FOUND (unknown @type), ACL_ERROR_OP_INPUT_NOT_MATCH /
 * ACL_ERROR_OP_OUTPUT_NOT_MATCH (counts, shapes, types), ACL_ERROR_UNSUPPORTED_DATA_TYPE,
 * ACL_ERROR_OP_ATTR_NOT_MATCH, ACL_ERROR_FORMAT_NOT_MATCH (blocked layouts).
 * Output descriptors may hold unknown dimensions (-1) or an unknown rank
 * (-2); known ones must equal the operator's output shape.
 */
aclError rt_op_plan(const char *type, int nin, aclTensorDesc *const *in_desc, int nout,
		    aclTensorDesc *const *out_desc, const aclopAttr *attr, struct rt_op_plan *plan);

/*
 * Check the data buffers of a planned call against it (present, large
 * enough, aligned to the element size, no overlap the operator does not
 * allow) and store their addresses in plan->task. ACL_ERROR_INVALID_PARAM
 * or ACL_ERROR_MEMORY_ADDRESS_UNALIGNED. Whether the addresses are device
 * memory is the executor's business.
 */
aclError rt_op_bind_buffers(struct rt_op_plan *plan, int nin, aclDataBuffer *const *in, int nout,
			    aclDataBuffer *const *out);

/* May workspace [va, va + size) be used with the bound operands (4-byte
 * aligned, overlapping none)? ACL_SUCCESS or the code, with a message. */
aclError rt_op_check_workspace(const struct rt_op_plan *plan, uint64_t va, uint64_t size);

/*
 * The tasks of a bound plan whose workspace block starts at @ws (0 if the
 * plan needs none) into @tasks (room for RT_OP_MAX_STEPS); returns how
 * many. Every task is a VNPU_TASK_OP, in the order they must run.
 */
unsigned int rt_op_tasks(const struct rt_op_plan *plan, uint64_t ws, struct drm_vnpu_task *tasks);

/* Write the planned output shape into @out_desc (aclopExecuteV2's refresh). */
void rt_op_refresh_output(const struct rt_op_plan *plan, aclTensorDesc *out_desc);

/* The operator's workspace in bytes by the uapi formula, for dims
 * {d0, d1, d2} as in struct drm_vnpu_task_op (plan->task.ws_size). */
uint64_t rt_op_workspace(uint32_t op, uint32_t dtype, uint32_t flags, uint64_t d0, uint64_t d1, uint64_t d2);

#endif /* VNPU_LIB_RT_OP_H */
