// SPDX-License-Identifier: MIT
/*
 * rt_opexec.c - executing one operator on a stream: the allocator flow.
 *
 * A call is planned by lib/ops (rt_op.c), which also says how much
 * workspace it needs (plan.ws_bytes, at plan.ws_align; a reduction over
 * axes that are not adjacent keeps its intermediate tensors there too:
 * lib/ops runs the whole chain inside one descriptor). Then, for an
 * operator on stream S that needs workspace:
 *
 *   with an allocator registered for S (read with no lock, rt_allocreg.h):
 *     block = alloc(obj, size); addr = getAddrFromBlock(block)
 *     addr must be device memory of S's device, [addr, addr + size) inside
 *     one allocation, aligned as the plan says, apart from the operands
 *     the allocation is bound to S (first use only: one POOL_BIND)
 *     the task is submitted (S requires pool workspace)
 *     free(obj, block), right after the submit, whatever its result
 *   without one: a block of the runtime's own pool (rt_pool.c), returned
 *   to S's list with the job's point after the submit.
 *
 * The job is one VNPU_TASK_OP task; the submit's data area (built on this
 * thread's stack) holds the plan's descriptor and the operand list:
 * inputs READ, outputs WRITE, the workspace WORKSPACE.
 *
 * Operators without workspace call no allocator. Callbacks run on the
 * calling thread and no runtime lock is held while they run; a callback
 * may itself call ACL functions: the thread's error state (last error,
 * pending message, the name used in messages) is restored after each
 * callback, so a failure inside one does not outlive it.
 *
 * Steady state, with an allocator that reuses its memory or with the
 * runtime's pool: one ioctl per operator, the SUBMIT.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "rt.h"
#include "rt_op.h"
#include "rt_ri.h"

/* Better words for the submit's errors that concern the workspace. */
static aclError submit_error(const struct vops_plan *p, struct rt_stream *s, int kerr, bool user, uint64_t ws,
			     aclError err)
{
	uint64_t size = p->ws_bytes;

	switch (kerr) {
	case -EBUSY:
		return rt_err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL,
			      "%s on stream %p: its workspace [0x%" PRIx64 ", +%" PRIu64 ") is still in use by another "
			      "stream's unfinished work (a workspace hazard; the hazard policy is strict). One allocator "
			      "must not serve streams that run concurrently: synchronize the other stream first",
			      p->type, (void *)s, ws, size);
	case -EACCES:
		return rt_err(ACL_ERROR_RT_NO_PERMISSION,
			      "%s on stream %p: workspace [0x%" PRIx64 ", +%" PRIu64 ") is not in the stream's bound "
			      "pool (was the memory freed meanwhile?)", p->type, (void *)s, ws, size);
	case -ENXIO:
		return rt_err(ACL_ERROR_INVALID_PARAM,
			      "%s on stream %p: an operand%s is not live device memory (freed meanwhile?)", p->type,
			      (void *)s, user ? " or the allocator's workspace" : "");
	default:
		return err;
	}
}

/* Each operand of the bound call must be device memory of @dev. */
static aclError check_operands(const struct vops_plan *p, const struct rt_op_bufs *b, struct rt_dev *dev)
{
	char names[VOPS_MAX_INPUTS + VOPS_MAX_OUTPUTS][24];	/* "outputs[" INT_MIN "]" */
	const char *what[VOPS_MAX_INPUTS + VOPS_MAX_OUTPUTS];
	uint64_t addr[VOPS_MAX_INPUTS + VOPS_MAX_OUTPUTS], len[VOPS_MAX_INPUTS + VOPS_MAX_OUTPUTS];
	unsigned int n = 0;
	int i;

	for (i = 0; i < p->nin; i++, n++) {
		snprintf(names[n], sizeof(names[n]), "inputs[%d]", i);
		addr[n] = b->in[i];
		len[n] = p->in_bytes[i];
	}
	for (i = 0; i < p->nout; i++, n++) {
		snprintf(names[n], sizeof(names[n]), "outputs[%d]", i);
		addr[n] = b->out[i];
		len[n] = p->out[i].bytes;
	}
	for (i = 0; i < (int)n; i++)
		what[i] = names[i];
	return rt_device_ranges(dev, n, addr, len, what);
}

/* Submit the call's one task, its workspace at @ws (@pool as for
 * rt_stream_submit_op()). */
static aclError submit_call(const struct vops_plan *p, const struct rt_op_bufs *b, struct rt_stream *s, uint64_t ws,
			    int pool, uint64_t *point)
{
	struct drm_vnpu_task task;
	struct rt_op_data data;
	uint32_t size = rt_op_task(p, b, ws, &task, &data);
	aclError err;
	int kerr;

	err = rt_stream_submit_op(s, &task, data.bytes, size, pool, point, &kerr);
	if (err && kerr)
		err = submit_error(p, s, kerr, pool == 1, ws, err);
	return err;
}

static aclError run_with_allocator(const struct vops_plan *p, const struct rt_op_bufs *bufs, struct rt_stream *s,
				   const struct rt_allocrec *rec)
{
	const struct rt_allocfns *fn = &rec->fns;
	struct rt_errsave saved;
	uint64_t size = p->ws_bytes, point;
	struct rt_alloc *a = NULL;
	void *block, *addr;
	aclError err;

	rt_err_save(&saved);
	block = fn->alloc(fn->obj, (size_t)size);
	rt_err_restore(&saved);
	if (!block)
		return rt_err(ACL_ERROR_BAD_ALLOC,
			      "%s: the allocator registered for stream %p returned no block for %" PRIu64
			      " bytes of workspace; nothing was queued", p->type, (void *)s, size);
	addr = fn->get_addr(block);
	rt_err_restore(&saved);
	if (!addr)
		err = rt_err(ACL_ERROR_INVALID_PARAM,
			     "%s: getAddrFromBlock of the allocator registered for stream %p returned NULL for block %p",
			     p->type, (void *)s, block);
	else
		err = rt_op_check_workspace(p, bufs, (uint64_t)(uintptr_t)addr, size);
	/* Steady state: memory already bound to S is known device memory. */
	if (!err && !rt_pool_is_bound(s, (uint64_t)(uintptr_t)addr, size)) {
		err = rt_device_range(s->dev, addr, size, "the workspace address from the registered allocator",
				      &a);
		if (!err)
			err = rt_pool_bind(s, a);
	}
	if (!err)
		err = submit_call(p, bufs, s, (uint64_t)(uintptr_t)addr, 1, &point);
	/* In host order right after the enqueue (or the failure), as CANN:
	 * stream order keeps the block safe for this stream's later work. */
	if (err)
		rt_err_save(&saved);	/* this operator's own failure stays */
	/* Captured (no point): the graph owns the block until destroyed. */
	if (err || point || !rt_ri_adopt_block(s, fn, block))
		fn->free(fn->obj, block);
	rt_err_restore(&saved);
	rt_alloc_put(a);
	return err;
}

static aclError run_with_pool(const struct vops_plan *p, const struct rt_op_bufs *bufs, struct rt_stream *s)
{
	struct rt_wsblock *b;
	uint64_t point = 0;
	aclError err;

	err = rt_pool_ws_take(s, p->ws_bytes, &b);
	if (err)
		return err;
	err = submit_call(p, bufs, s, b->va, 0, &point);
	/* Captured (no point): the graph owns the block until destroyed. */
	if (!err && !point && rt_ri_adopt_ws(s, b))
		return ACL_SUCCESS;
	/* Unused after a failure: its previous last use still bounds it. */
	rt_pool_ws_give(s, b, err || !point ? atomic_load(&s->last_point) : point);
	return err;
}

aclError rt_op_execute(const char *type, int nin, aclTensorDesc *in_desc[], aclDataBuffer *in[], int nout,
		       aclTensorDesc *out_desc[], aclDataBuffer *out[], const aclopAttr *attr, const void *stream,
		       bool refresh)
{
	struct vops_plan plan;
	aclError err;

	err = rt_op_plan(type, nin, in_desc, nout, out_desc, attr, &plan);
	if (err)
		return err;
	return rt_op_run(&plan, nin, in, nout, out, stream, refresh ? out_desc : NULL);
}

aclError rt_op_run(const struct vops_plan *p, int nin, aclDataBuffer *const in[], int nout,
		   aclDataBuffer *const out[], const void *stream, aclTensorDesc *const refresh_desc[])
{
	struct rt_context *ctx;
	struct rt_op_bufs bufs;
	struct rt_stream *s;
	aclError err;

	err = rt_op_bind_buffers(p, nin, in, nout, out, &bufs);
	if (err)
		return err;
	err = rt_context_require(&ctx);
	if (err)
		return err;
	err = rt_stream_resolve(ctx, stream, &s);
	if (err) {
		rt_context_put(ctx);
		return err;
	}

	if (!p->empty)
		err = check_operands(p, &bufs, s->dev);
	if (err)
		goto out;
	/* CANN's V2 calls refresh the output descriptor with the shape the
	 * operator produces (it matters for unknown dimensions); V1 and
	 * handles do not. */
	if (refresh_desc)
		rt_op_refresh_output(p, refresh_desc);
	if (p->empty)
		goto out;	/* nothing to compute, nothing queued */

	if (!p->ws_bytes) {
		uint64_t point;

		err = submit_call(p, &bufs, s, 0, -1, &point);
	} else {
		const struct rt_allocrec *rec = rt_allocslot_enter(&s->alloc_slot);

		err = rec ? run_with_allocator(p, &bufs, s, rec) : run_with_pool(p, &bufs, s);
		rt_allocslot_leave(&s->alloc_slot);
	}
out:
	rt_stream_put(s);
	rt_context_put(ctx);
	return err;
}
