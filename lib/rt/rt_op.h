/* SPDX-License-Identifier: MIT */
/*
 * rt_op.h - single-operator execution, the pure half: the objects behind
 * aclTensorDesc, aclDataBuffer and aclopAttr, and the adapter between a
 * CANN operator call and lib/ops, vnpu's operator library.
 *
 * Every operator rule (names, inputs, types, attributes, shapes, operand
 * sizes and alignment, in place, workspace) lives in lib/ops and is
 * applied by vops_plan(); this adapter keeps only what belongs to the ACL
 * objects: NULL and foreign pointers, plain formats, unknown input
 * dimensions, the output descriptors against the planned outputs, and the
 * data buffers (present, large enough, aligned, overlapping only in place).
 * A planned call becomes one VNPU_TASK_OP task whose data area holds the
 * plan's descriptor and its operand list (rt_op_task()).
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
#include "vnpu_ops.h"

/* Most dimensions a tensor may have (CANN's ACL_MAX_DIM_CNT). */
#define RT_MAX_DIMS VOPS_MAX_RANK
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

/*
 * Who else owns a data buffer's memory: a model execution that gave an
 * output buffer a block of the stream's registered allocator hands the
 * block back (release) when the buffer is updated or destroyed.
 */
struct rt_bufowner {
	void (*release)(struct rt_bufowner *owner);
};

struct aclDataBuffer {
	uint32_t magic;
	void *data;
	size_t size;
	struct rt_bufowner *owner;	/* NULL unless a model execution set it */
};

/* Give a buffer's memory back to its owner, if any (update, destroy). */
static inline void rt_buffer_disown(struct aclDataBuffer *b)
{
	struct rt_bufowner *o = b->owner;

	b->owner = NULL;
	if (o)
		o->release(o);
}

/* The attributes, as lib/ops takes them (vops_plan()'s @attrs). */
struct aclopAttr {
	uint32_t magic;
	struct vops_attr *items;
	unsigned int count, cap;
};

/* The attribute called @name, or NULL (attr may be NULL). */
const struct vops_attr *rt_attr_find(const aclopAttr *attr, const char *name);

/* Number of elements of @desc (1 for a scalar); false if a dimension is
 * unknown or the count overflows 64 bits. */
bool rt_tensor_count(const aclTensorDesc *desc, uint64_t *count);
/* Replace the shape of @desc; ACL_ERROR_INVALID_PARAM or
 * ACL_ERROR_BAD_ALLOC on failure (the old shape is kept). */
aclError rt_tensor_set_shape(aclTensorDesc *desc, int ndims, const int64_t *dims);

/* Element size of a data type in bytes, 0 if it has no whole-byte size. */
size_t rt_dtype_size(aclDataType dtype);
/* Is @format a plain (row-major, unblocked) layout? */
bool rt_format_plain(aclFormat format);
/* Is @format one of aclFormat's values? */
bool rt_format_known(aclFormat format);

/*
 * Check an operator call and plan it with vops_plan(): the CANN operator
 * @type with its inputs, outputs and attributes (@attr may be NULL). In
 * this order: ACL_ERROR_INVALID_PARAM (NULL or foreign pointers, counts <
 * 0, a foreign attribute set); per input descriptor INVALID_PARAM (NULL or
 * foreign), ACL_ERROR_FORMAT_NOT_MATCH (blocked layouts),
 * ACL_ERROR_OP_INPUT_NOT_MATCH (unknown dimensions); then lib/ops' verdict
 * with its message: ACL_ERROR_OP_NOT_FOUND, ACL_ERROR_OP_INPUT_NOT_MATCH,
 * ACL_ERROR_OP_OUTPUT_NOT_MATCH, ACL_ERROR_UNSUPPORTED_DATA_TYPE,
 * ACL_ERROR_OP_ATTR_NOT_MATCH; last, per output descriptor (as many as the
 * operator has), INVALID_PARAM, FORMAT_NOT_MATCH, and
 * ACL_ERROR_OP_OUTPUT_NOT_MATCH when it disagrees with the planned output.
 * Output descriptors may hold unknown dimensions (-1) or an unknown rank
 * (-2); known ones must equal the operator's output shape.
 */
aclError rt_op_plan(const char *type, int nin, aclTensorDesc *const *in_desc, int nout,
		    aclTensorDesc *const *out_desc, const aclopAttr *attr, struct vops_plan *plan);

/* The device addresses of one call's inputs and outputs. */
struct rt_op_bufs {
	uint64_t in[VOPS_MAX_INPUTS];
	uint64_t out[VOPS_MAX_OUTPUTS];
};

/*
 * Check the data buffers of a planned call against it (present, large
 * enough, aligned as the plan says, no overlap but the in-place use the
 * plan allows) and store their addresses in @bufs (@nin and @nout are the
 * plan's counts). ACL_ERROR_INVALID_PARAM or
 * ACL_ERROR_MEMORY_ADDRESS_UNALIGNED. Whether the addresses are device
 * memory is the executor's business. An empty plan only needs the buffer
 * objects.
 */
aclError rt_op_bind_buffers(const struct vops_plan *plan, int nin, aclDataBuffer *const *in, int nout,
			    aclDataBuffer *const *out, struct rt_op_bufs *bufs);

/* May workspace [va, va + size) be used with the bound operands (aligned to
 * plan->ws_align, overlapping none)? ACL_SUCCESS or the code, with a
 * message. */
aclError rt_op_check_workspace(const struct vops_plan *plan, const struct rt_op_bufs *bufs, uint64_t va,
			       uint64_t size);

/* Operands of one operator: inputs, outputs, workspace. */
#define RT_OP_MAX_OPERANDS (VOPS_MAX_INPUTS + VOPS_MAX_OUTPUTS + 1)
/* Largest data area of one operator task: its descriptor, then its
 * operand list at the next multiple of 8. */
#define RT_OP_DATA_MAX (VOPS_MAX_DESC + RT_OP_MAX_OPERANDS * sizeof(struct drm_vnpu_operand))

/* A submit's data area for one operator (on the caller's stack). */
struct rt_op_data {
	_Alignas(8) unsigned char bytes[RT_OP_DATA_MAX];
};

/* Byte offset of the operand list in the data area (after the descriptor,
 * 8-aligned, as the uapi wants). */
static inline uint32_t rt_op_operand_offset(const struct vops_plan *plan)
{
	return (plan->desc_size + 7u) & ~7u;
}

/*
 * The task of a bound, non-empty plan whose workspace starts at @ws (unused
 * when the plan needs none): one VNPU_TASK_OP into @task, its descriptor at
 * offset 0 of @data and its operands after it, in lib/ops' order (inputs
 * READ, outputs WRITE, then the workspace WORKSPACE if plan->ws_bytes).
 * Returns the bytes of @data used (the submit's data_size).
 */
uint32_t rt_op_task(const struct vops_plan *plan, const struct rt_op_bufs *bufs, uint64_t ws,
		    struct drm_vnpu_task *task, struct rt_op_data *data);

/* Write the planned output shapes into @out_desc (plan->nout of them;
 * aclopExecuteV2's refresh). */
void rt_op_refresh_output(const struct vops_plan *plan, aclTensorDesc *const out_desc[]);

#endif /* VNPU_LIB_RT_OP_H */
