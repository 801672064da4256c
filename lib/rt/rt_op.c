// SPDX-License-Identifier: MIT
/*
 * rt_op.c - CANN operator calls to vnpu operator tasks (pure logic): a thin
 * adapter over lib/ops (lib/ops/vnpu_ops.h, docs/ops.md).
 *
 * What is an operator, which inputs, types, attributes and shapes it
 * takes, what it produces, how many bytes and which alignment every
 * operand needs, whether it may work in place and how much workspace it
 * needs: all of it is lib/ops' (vops_plan()), defined once for the planner
 * here and for the engine server that runs the descriptor. This file only
 * checks the ACL objects around a call (NULL and foreign pointers, plain
 * formats, unknown input dimensions, the output descriptors, the data
 * buffers) and lays the plan out as one VNPU_TASK_OP: the descriptor at the
 * start of the submit's data area, the operand list after it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "rt.h"
#include "rt_op.h"

_Static_assert(VOPS_MAX_DESC % 8 == 0 && VOPS_MAX_DESC <= VNPU_MAX_OP_DESC_SIZE,
	       "a descriptor fits one operator task");
_Static_assert(RT_OP_DATA_MAX <= VNPU_MAX_SUBMIT_DATA, "one operator fits a submit's data area");
_Static_assert(RT_OP_MAX_OPERANDS <= VNPU_MAX_OP_OPERANDS, "one operator's operands fit a task");

/* The ACL code of a lib/ops planning failure. */
static aclError vops_code(enum vops_err e)
{
	switch (e) {
	case VOPS_OK:
		return ACL_SUCCESS;
	case VOPS_ERR_NOT_FOUND:
		return ACL_ERROR_OP_NOT_FOUND;
	case VOPS_ERR_INPUT:
		return ACL_ERROR_OP_INPUT_NOT_MATCH;
	case VOPS_ERR_OUTPUT:
		return ACL_ERROR_OP_OUTPUT_NOT_MATCH;
	case VOPS_ERR_DTYPE:
		return ACL_ERROR_UNSUPPORTED_DATA_TYPE;
	case VOPS_ERR_ATTR:
		return ACL_ERROR_OP_ATTR_NOT_MATCH;
	}
	return ACL_ERROR_INTERNAL_ERROR;
}

/* ---- the call ---------------------------------------------------------------- */

static aclError check_desc(const aclTensorDesc *d, const char *what, int i, bool input)
{
	int j;

	if (!d)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%s[%d] is NULL", what, i);
	if (d->magic != RT_TENSOR_MAGIC)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%s[%d] (%p) is not a tensor descriptor", what, i,
			      (const void *)d);
	if (!rt_format_plain(d->format))
		return rt_err(ACL_ERROR_FORMAT_NOT_MATCH,
			      "%s[%d] has the blocked format %d; vnpu's operators take plain row-major layouts "
			      "(ND, NCHW, NHWC, ...)", what, i, (int)d->format);
	if (!input)
		return ACL_SUCCESS;
	for (j = 0; j < d->ndims; j++)
		if (d->dims[j] < 0)
			return rt_err(ACL_ERROR_OP_INPUT_NOT_MATCH,
				      "%s[%d] has an unknown dimension (%" PRId64 " at %d); vnpu executes known shapes only",
				      what, i, d->dims[j], j);
	return ACL_SUCCESS;
}

/* Output descriptor @o (number @i) against the planned output @i. */
static aclError check_output(const struct vops_plan *p, int i, const aclTensorDesc *o)
{
	char want[256], got[256];
	int j;

	if (o->dtype != p->out[i].dtype)
		return rt_err(ACL_ERROR_OP_OUTPUT_NOT_MATCH, "%s produces %s, but outputDesc[%d] says %s", p->type,
			      vops_dtype_name(p->out[i].dtype), i, vops_dtype_name(o->dtype));
	if (o->ndims == 1 && o->dims[0] == RT_RANK_UNKNOWN)
		return ACL_SUCCESS;
	if (o->ndims != p->out[i].ndim)
		goto mismatch;
	for (j = 0; j < o->ndims; j++)
		if (o->dims[j] >= 0 && o->dims[j] != p->out[i].dims[j])
			goto mismatch;
	return ACL_SUCCESS;
mismatch:
	return rt_err(ACL_ERROR_OP_OUTPUT_NOT_MATCH, "%s produces shape %s, but outputDesc[%d] has shape %s",
		      p->type, vops_shape_str(want, sizeof(want), p->out[i].ndim, p->out[i].dims), i,
		      vops_shape_str(got, sizeof(got), o->ndims, o->dims));
}

aclError rt_op_plan(const char *type, int nin, aclTensorDesc *const *in_desc, int nout,
		    aclTensorDesc *const *out_desc, const aclopAttr *attr, struct vops_plan *p)
{
	struct vops_tensor in[VOPS_MAX_INPUTS];
	struct vops_error verr;
	enum vops_err e;
	aclError ret;
	int i;

	if (!type)
		return rt_err(ACL_ERROR_INVALID_PARAM, "opType must not be NULL");
	if (nin < 0 || nout < 0)
		return rt_err(ACL_ERROR_INVALID_PARAM, "numInputs (%d) and numOutputs (%d) must not be negative",
			      nin, nout);
	if ((nin && !in_desc) || (nout && !out_desc))
		return rt_err(ACL_ERROR_INVALID_PARAM, "%s must not be NULL", nin && !in_desc ? "inputDesc" : "outputDesc");
	if (attr && attr->magic != RT_ATTR_MAGIC)
		return rt_err(ACL_ERROR_INVALID_PARAM, "attr (%p) is not an operator attribute set",
			      (const void *)attr);
	for (i = 0; i < nin; i++) {
		ret = check_desc(in_desc[i], "inputDesc", i, true);
		if (ret)
			return ret;
		/* More inputs than any operator takes: lib/ops refuses the
		 * count before it looks at them. */
		if (i < VOPS_MAX_INPUTS)
			in[i] = (struct vops_tensor){ .dtype = in_desc[i]->dtype, .ndim = in_desc[i]->ndims,
						      .dims = in_desc[i]->dims };
	}
	e = vops_plan(type, nin, in, nout, attr ? attr->items : NULL, attr ? attr->count : 0, p, &verr);
	if (e)
		return rt_err(vops_code(e), "%s", verr.msg);
	/* The output count is the operator's now: only so many are read. */
	for (i = 0; i < p->nout; i++) {
		ret = check_desc(out_desc[i], "outputDesc", i, false);
		if (!ret)
			ret = check_output(p, i, out_desc[i]);
		if (ret)
			return ret;
	}
	return ACL_SUCCESS;
}

/* ---- buffers ---------------------------------------------------------------- */

struct span {
	uint64_t start, len;
};

static bool overlap(struct span a, struct span b)
{
	return a.len && b.len && a.start < b.start + b.len && b.start < a.start + a.len;
}

static aclError check_buffer(const aclDataBuffer *b, const char *what, int i, uint64_t need, uint32_t align,
			     bool used)
{
	uint64_t addr;

	if (!b)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%s[%d] is NULL", what, i);
	if (b->magic != RT_BUFFER_MAGIC)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%s[%d] (%p) is not a data buffer", what, i, (const void *)b);
	if (!used)
		return ACL_SUCCESS;
	addr = (uint64_t)(uintptr_t)b->data;
	if (!addr)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%s[%d] has no memory (NULL data)", what, i);
	if (b->size < need)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%s[%d] holds %zu bytes; the tensor needs %" PRIu64, what, i,
			      b->size, need);
	if (align > 1 && addr % align)
		return rt_err(ACL_ERROR_MEMORY_ADDRESS_UNALIGNED,
			      "%s[%d] at %p is not aligned to its element size (%u bytes)", what, i, b->data, align);
	return ACL_SUCCESS;
}

aclError rt_op_bind_buffers(const struct vops_plan *p, int nin, aclDataBuffer *const *in, int nout,
			    aclDataBuffer *const *out, struct rt_op_bufs *bufs)
{
	aclError ret;
	int i, j;

	if ((nin && !in) || (nout && !out))
		return rt_err(ACL_ERROR_INVALID_PARAM, "%s must not be NULL", nin && !in ? "inputs" : "outputs");
	if (nin != p->nin || nout != p->nout)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%s was planned with %d inputs and %d outputs, given %d and %d",
			      p->type, p->nin, p->nout, nin, nout);
	for (i = 0; i < p->nin; i++) {
		ret = check_buffer(in[i], "inputs", i, p->in_bytes[i], p->in_align[i], !p->empty);
		if (ret)
			return ret;
	}
	for (j = 0; j < p->nout; j++) {
		ret = check_buffer(out[j], "outputs", j, p->out[j].bytes, p->out[j].align, !p->empty);
		if (ret)
			return ret;
	}
	if (p->empty)
		return ACL_SUCCESS;

	for (i = 0; i < p->nin; i++)
		bufs->in[i] = (uint64_t)(uintptr_t)in[i]->data;
	for (j = 0; j < p->nout; j++)
		bufs->out[j] = (uint64_t)(uintptr_t)out[j]->data;
	/* Inputs may share memory (they are only read); an output may share
	 * none, but output 0 may start exactly at an input the plan lets it
	 * replace (in place). */
	for (j = 0; j < p->nout; j++) {
		struct span o = { bufs->out[j], p->out[j].bytes };

		for (i = 0; i < p->nin; i++) {
			if (!overlap(o, (struct span){ bufs->in[i], p->in_bytes[i] }))
				continue;
			if (!j && (p->in_place >> i & 1) && bufs->in[i] == bufs->out[0])
				continue;
			return rt_err(ACL_ERROR_INVALID_PARAM,
				      "%s: outputs[%d] overlaps inputs[%d]; only %s", p->type, j, i,
				      p->in_place ? "in-place use (the same start address) of a full-size input is allowed"
						  : "separate memory is allowed for this operator");
		}
		for (i = 0; i < j; i++)
			if (overlap(o, (struct span){ bufs->out[i], p->out[i].bytes }))
				return rt_err(ACL_ERROR_INVALID_PARAM, "%s: outputs[%d] overlaps outputs[%d]", p->type,
					      j, i);
	}
	return ACL_SUCCESS;
}

aclError rt_op_check_workspace(const struct vops_plan *p, const struct rt_op_bufs *bufs, uint64_t va, uint64_t size)
{
	struct span ws = { va, size };
	int i;

	if (p->ws_align > 1 && va % p->ws_align)
		return rt_err(ACL_ERROR_MEMORY_ADDRESS_UNALIGNED, "%s: workspace at 0x%" PRIx64
			      " is not %u-byte aligned", p->type, va, p->ws_align);
	for (i = 0; i < p->nin; i++)
		if (overlap(ws, (struct span){ bufs->in[i], p->in_bytes[i] }))
			return rt_err(ACL_ERROR_INVALID_PARAM,
				      "%s: workspace [0x%" PRIx64 ", +%" PRIu64 ") overlaps inputs[%d]", p->type, va,
				      size, i);
	for (i = 0; i < p->nout; i++)
		if (overlap(ws, (struct span){ bufs->out[i], p->out[i].bytes }))
			return rt_err(ACL_ERROR_INVALID_PARAM,
				      "%s: workspace [0x%" PRIx64 ", +%" PRIu64 ") overlaps outputs[%d]", p->type, va,
				      size, i);
	return ACL_SUCCESS;
}

/* ---- the task ---------------------------------------------------------------- */

uint32_t rt_op_task(const struct vops_plan *p, const struct rt_op_bufs *bufs, uint64_t ws, struct drm_vnpu_task *task,
		    struct rt_op_data *data)
{
	struct drm_vnpu_operand ops[RT_OP_MAX_OPERANDS];
	uint32_t off = rt_op_operand_offset(p), n = 0;
	int i;

	/*
	 * The device has no empty operands: an input or output the operator
	 * touches no byte of (Shape's input, an empty tensor beside others)
	 * travels as the one byte at its address, which lib/ops never reads
	 * or writes.
	 */
	for (i = 0; i < p->nin; i++)
		ops[n++] = (struct drm_vnpu_operand){ .va = bufs->in[i], .size = p->in_bytes[i] ? p->in_bytes[i] : 1,
						      .access = VNPU_OPERAND_READ };
	for (i = 0; i < p->nout; i++)
		ops[n++] = (struct drm_vnpu_operand){ .va = bufs->out[i],
						      .size = p->out[i].bytes ? p->out[i].bytes : 1,
						      .access = VNPU_OPERAND_WRITE };
	if (p->ws_bytes)
		ops[n++] = (struct drm_vnpu_operand){ .va = ws, .size = p->ws_bytes,
						      .access = VNPU_OPERAND_WORKSPACE };

	/* The descriptor, zeros up to the operand list, the operand list. */
	memcpy(data->bytes, p->desc, p->desc_size);
	memset(data->bytes + p->desc_size, 0, off - p->desc_size);
	memcpy(data->bytes + off, ops, n * sizeof(ops[0]));

	memset(task, 0, sizeof(*task));
	task->kind = VNPU_TASK_OP;
	task->op.desc_offset = 0;
	task->op.desc_size = p->desc_size;
	task->op.operand_offset = off;
	task->op.operand_count = n;
	return off + n * (uint32_t)sizeof(ops[0]);
}

void rt_op_refresh_output(const struct vops_plan *p, aclTensorDesc *const out_desc[])
{
	int i;

	/* Fails only when a shape of more than RT_INLINE_DIMS dimensions
	 * cannot get heap memory; the descriptor keeps its shape then. */
	for (i = 0; i < p->nout; i++)
		(void)rt_tensor_set_shape(out_desc[i], p->out[i].ndim, p->out[i].dims);
}
