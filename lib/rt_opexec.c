// SPDX-License-Identifier: MIT
/*
 * rt_opexec.c - executing one operator on a stream: the allocator flow.
 *
 * For an operator on stream S that needs workspace (rt_op.c computes how
 * much, by the uapi formula; for a reduction over non-adjacent axes the
 * block also holds the intermediate tensors of its chain of tasks, which
 * go to the kernel as one job, so the flow below is the same):
 *
 *   with an allocator registered for S (read with no lock, rt_allocreg.h):
 *     block = alloc(obj, size); addr = getAddrFromBlock(block)
 *     addr must be device memory of S's device, [addr, addr + size) inside
 *     one allocation, 4-byte aligned, apart from the operands
 *     the allocation is bound to S (first use only: one POOL_BIND)
 *     the task is submitted (S requires pool workspace)
 *     free(obj, block), right after the submit, whatever its result
 *   without one: a block of the runtime's own pool (rt_pool.c), returned
 *   to S's list with the job's point after the submit.
 *
 * Operators without workspace call no allocator. Callbacks run on the
 * calling thread and no runtime lock is held while they run; a callback
 * may itself call ACL functions: the thread's error state (last error,
 * pending message, the name used in messages) is restored after each
 * callback, so a failure inside one does not outlive it. Steady state, with an allocator that reuses its memory or
 * with the runtime's pool: one ioctl per operator, the SUBMIT.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "rt.h"
#include "rt_op.h"

/* Better words for the submit's errors that concern the workspace. */
static aclError submit_error(const struct rt_op_plan *p, struct rt_stream *s, int kerr, bool user, aclError err)
{
	uint64_t ws = p->task.ws, size = p->task.ws_size;

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
	case -ENOSPC:
		return rt_err(ACL_ERROR_RT_INTERNAL_ERROR,
			      "%s on stream %p: the device wants more workspace than %" PRIu64 " bytes", p->type,
			      (void *)s, size);
	case -ENXIO:
		return rt_err(ACL_ERROR_INVALID_PARAM,
			      "%s on stream %p: an operand%s is not live device memory (freed meanwhile?)", p->type,
			      (void *)s, user ? " or the allocator's workspace" : "");
	default:
		return err;
	}
}

/* Each operand of the planned task must be device memory of @dev. */
static aclError check_operands(const struct rt_op_plan *p, struct rt_dev *dev)
{
	static const char *const names[3] = { "inputs[0]", "inputs[1]", "outputs[0]" };
	const char *what[3];
	uint64_t addr[3], len[3];
	unsigned int i, n = 0;

	for (i = 0; i < p->nin; i++) {
		what[n] = names[i];
		addr[n] = i ? p->task.in1 : p->task.in0;
		len[n++] = p->in_bytes[i];
	}
	what[n] = names[2];
	addr[n] = p->task.out;
	len[n++] = p->out_bytes;
	return rt_device_ranges(dev, n, addr, len, what);
}

static aclError run_with_allocator(struct rt_op_plan *p, struct rt_stream *s, const struct rt_allocrec *rec)
{
	const struct rt_allocfns *fn = &rec->fns;
	struct rt_errsave saved;
	uint64_t size = p->task.ws_size, point;
	struct drm_vnpu_task tasks[RT_OP_MAX_STEPS];
	struct rt_alloc *a = NULL;
	void *block, *addr;
	aclError err;
	int kerr;

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
		err = rt_op_check_workspace(p, (uint64_t)(uintptr_t)addr, size);
	/* Steady state: memory already bound to S is known device memory. */
	if (!err && !rt_pool_is_bound(s, (uint64_t)(uintptr_t)addr, size)) {
		err = rt_device_range(s->dev, addr, size, "the workspace address from the registered allocator",
				      &a);
		if (!err)
			err = rt_pool_bind(s, a);
	}
	if (!err) {
		p->task.ws = (uint64_t)(uintptr_t)addr;
		err = rt_stream_submit_op(s, tasks, rt_op_tasks(p, p->task.ws, tasks), 1, &point, &kerr);
		if (err && kerr)
			err = submit_error(p, s, kerr, true, err);
	}
	/* In host order right after the enqueue (or the failure), as CANN:
	 * stream order keeps the block safe for this stream's later work. */
	if (err)
		rt_err_save(&saved);	/* this operator's own failure stays */
	fn->free(fn->obj, block);
	rt_err_restore(&saved);
	rt_alloc_put(a);
	return err;
}

static aclError run_with_pool(struct rt_op_plan *p, struct rt_stream *s)
{
	struct drm_vnpu_task tasks[RT_OP_MAX_STEPS];
	struct rt_wsblock *b;
	uint64_t point = 0;
	aclError err;
	int kerr;

	err = rt_pool_ws_take(s, p->task.ws_size, &b);
	if (err)
		return err;
	p->task.ws = b->va;
	err = rt_stream_submit_op(s, tasks, rt_op_tasks(p, b->va, tasks), 0, &point, &kerr);
	if (err && kerr)
		err = submit_error(p, s, kerr, false, err);
	/* Unused after a failure: its previous last use still bounds it. */
	rt_pool_ws_give(s, b, err ? atomic_load(&s->last_point) : point);
	return err;
}

aclError rt_op_execute(const char *type, int nin, aclTensorDesc *in_desc[], aclDataBuffer *in[], int nout,
		       aclTensorDesc *out_desc[], aclDataBuffer *out[], const aclopAttr *attr, const void *stream,
		       bool refresh)
{
	struct rt_op_plan plan;
	aclError err;

	err = rt_op_plan(type, nin, in_desc, nout, out_desc, attr, &plan);
	if (err)
		return err;
	return rt_op_run(&plan, nin, in, nout, out, stream, refresh ? out_desc[0] : NULL);
}

aclError rt_op_run(struct rt_op_plan *p, int nin, aclDataBuffer *const in[], int nout, aclDataBuffer *const out[],
		   const void *stream, aclTensorDesc *refresh_desc)
{
	struct rt_context *ctx;
	struct rt_stream *s;
	aclError err;

	err = rt_op_bind_buffers(p, nin, in, nout, out);
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
		err = check_operands(p, s->dev);
	if (err)
		goto out;
	/* CANN's V2 calls refresh the output descriptor with the shape the
	 * operator produces (it matters for unknown dimensions); V1 and
	 * handles do not. */
	if (refresh_desc)
		rt_op_refresh_output(p, refresh_desc);
	if (p->empty)
		goto out;	/* nothing to compute, nothing queued */

	if (!p->task.ws_size) {
		struct drm_vnpu_task task;
		uint64_t point;
		int kerr;

		err = rt_stream_submit_op(s, &task, rt_op_tasks(p, 0, &task), -1, &point, &kerr);
		if (err && kerr)
			err = submit_error(p, s, kerr, false, err);
	} else {
		const struct rt_allocrec *rec = rt_allocslot_enter(&s->alloc_slot);

		err = rec ? run_with_allocator(p, s, rec) : run_with_pool(p, s);
		rt_allocslot_leave(&s->alloc_slot);
	}
out:
	rt_stream_put(s);
	rt_context_put(ctx);
	return err;
}
