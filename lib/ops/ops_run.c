// SPDX-License-Identifier: MIT
/*
 * ops_run.c - vops_run(): decode a descriptor, plan it again, check the
 * operands against that plan, compute.
 *
 * The plan is made by the same code as vops_plan()'s (ops_plan_call()), so
 * whatever a descriptor says, its operator touches only what that plan
 * says it needs, and vops_run() has checked the operands hold that much
 * before anything is read or written. A descriptor that lies about its
 * shapes (more elements than its operands hold) is a FAULT of its own task;
 * nothing is written then.
 */
#include <inttypes.h>
#include <stdio.h>

#include "ops_int.h"
#include "vnpu_drm.h"

static const char *access_name(uint32_t access)
{
	switch (access) {
	case VNPU_OPERAND_READ: return "READ";
	case VNPU_OPERAND_WRITE: return "WRITE";
	case VNPU_OPERAND_WORKSPACE: return "WORKSPACE";
	default: return "unknown";
	}
}

#define FAULT(...)						\
	do {							\
		if (why && why_size)				\
			snprintf(why, why_size, __VA_ARGS__);	\
		return VOPS_RUN_FAULT;				\
	} while (0)

/*
 * Operand @i, the plan's @what (@n: its number among them), against the
 * plan: access, alignment, size.
 */
static enum vops_run_status check_operand(const struct vops_plan *p, const struct vops_operand *o,
					  unsigned int i, const char *what, unsigned int n, uint32_t access,
					  uint32_t align, uint64_t need, char *why, size_t why_size)
{
	if (o->access != access)
		FAULT("%s: operand %u (%s %u) has access %s (%u), not %s", p->type, i, what, n,
		      access_name(o->access), o->access, access_name(access));
	if (need && !o->ptr)
		FAULT("%s: operand %u (%s %u) has no memory", p->type, i, what, n);
	if (align > 1 && ((uintptr_t)o->ptr & (align - 1)))
		FAULT("%s: operand %u (%s %u) at %p is not %u-byte aligned", p->type, i, what, n, o->ptr,
		      align);
	if (o->size < need)
		FAULT("%s: operand %u (%s %u) has %" PRIu64 " bytes, the descriptor's shapes need %" PRIu64,
		      p->type, i, what, n, o->size, need);
	return VOPS_RUN_OK;
}

/*
 * Run a checked call: first copy each view an operator does not read
 * itself to its dense place in the workspace (after the operator's own
 * @op_ws bytes), and hand the operator those copies.
 */
static enum vops_run_status run_call(struct ops_decoded *dec, struct vops_plan *plan, uint64_t op_ws,
				     struct ops_bufs *bufs, struct ops_runner *r)
{
	struct ops_call *c = &dec->call;
	uint64_t at[VOPS_MAX_INPUTS], end;
	enum vops_run_status st;
	int i;

	if (!(c->def->flags & OPS_DEF_STRIDED) && ops_view_copies(c, op_ws, &end, at) && end) {
		for (i = 0; i < c->nin; i++) {
			struct vops_tensor *t = &dec->in[i];
			int64_t st_[VOPS_MAX_RANK];
			char *copy;

			if (at[i] == UINT64_MAX)
				continue;
			copy = (char *)bufs->ws + at[i];
			ops_strides(t, st_);
			st = ops_copy_run(copy, NULL, 0, bufs->in[i], st_, t->offset, t->ndim, t->dims,
					  ops_esize(t->dtype), r);
			if (st)
				return st;
			bufs->in[i] = copy;
			t->strides = NULL;
			t->offset = 0;
		}
		plan->ws_bytes = op_ws;
	}
	if (!op_ws)
		bufs->ws = NULL;
	return c->def->run(c, plan, bufs, r);
}

enum vops_run_status vops_run(const void *desc, size_t desc_size, const struct vops_operand *operands,
			      unsigned int noperands, const struct vops_ctl *ctl, char *why, size_t why_size)
{
	struct ops_runner runner = { .ctl = ctl, .started = false };
	struct ops_decoded dec;
	struct vops_error err;
	struct vops_plan plan;
	struct ops_bufs bufs;
	unsigned int n, i, at = 0;
	uint64_t op_ws = 0;

	if (why && why_size)
		why[0] = '\0';
	if (!ops_desc_decode(desc, desc_size, &dec, why, why && why_size ? why_size : 0))
		return VOPS_RUN_FAULT;
	if (ops_plan_call(&dec.call, &plan, &op_ws, &err))
		FAULT("descriptor: %s", err.msg);

	n = vops_plan_operands(&plan);
	if (noperands != n)
		FAULT("%s: the descriptor's plan takes %u operands, got %u", plan.type, n, noperands);
	if (n && !operands)
		FAULT("%s: no operands (NULL)", plan.type);
	for (i = 0; i < (unsigned int)plan.nin; i++, at++) {
		if (check_operand(&plan, &operands[at], at, "input", i, VNPU_OPERAND_READ, plan.in_align[i],
				  plan.in_bytes[i], why, why_size))
			return VOPS_RUN_FAULT;
		bufs.in[i] = operands[at].ptr;
	}
	for (i = 0; i < (unsigned int)plan.nout; i++, at++) {
		if (check_operand(&plan, &operands[at], at, "output", i, VNPU_OPERAND_WRITE, plan.out[i].align,
				  plan.out[i].bytes, why, why_size))
			return VOPS_RUN_FAULT;
		bufs.out[i] = operands[at].ptr;
	}
	bufs.ws = NULL;
	if (plan.ws_bytes) {
		if (check_operand(&plan, &operands[at], at, "workspace", 0, VNPU_OPERAND_WORKSPACE,
				  plan.ws_align, plan.ws_bytes, why, why_size))
			return VOPS_RUN_FAULT;
		bufs.ws = operands[at].ptr;
	}
	if (plan.empty)
		return VOPS_RUN_OK;
	return run_call(&dec, &plan, op_ws, &bufs, &runner);
}
