/* SPDX-License-Identifier: MIT */
/*
 * nn_exec.h - an executor's insides, shared by the builder (nn_exec.c)
 * and the launch (nn_launch.c).
 */
#ifndef VNPU_LIB_ACLNN_NN_EXEC_H
#define VNPU_LIB_ACLNN_NN_EXEC_H

#include <pthread.h>

#include "nn_int.h"
#include "vnpu_drm.h"

/* Where a storage is: a caller's input or output tensor (by slot), or the
 * workspace. */
enum nn_base { NN_BASE_IN = 1, NN_BASE_OUT, NN_BASE_WS };

/* A caller's tensor: its address now (aclSetInputTensorAddr changes it). */
struct nn_slot {
	uint64_t addr;
	uint64_t reach_bytes;		/* from addr: what the executor touches */
	const char *name;
	int ir;				/* the argument (list) it came from */
	int ir_pos;			/* its position in that list */
	bool out;
};

struct nn_value {
	struct nn_view *view;		/* owned: what nn_view() returns, then dims and strides */
	aclDataType dtype;
	int ndim;
	int64_t *dims, *strides;	/* in @view's block */
	int64_t offset;			/* elements from the root's location */
	uint64_t count;
	uint64_t reach;			/* elements from the root's location */
	bool dense;
	int root;			/* the value owning the storage (itself for roots) */
	/* Roots only: */
	enum nn_base base;
	int slot;			/* NN_BASE_IN / _OUT */
	uint64_t delta;			/* bytes from the slot's address or the workspace */
	uint64_t bound;			/* elements the storage holds from the location */
	int producer;			/* temporaries: the step writing it, else -1 */
	int retargeted;			/* temporaries moved onto an output: that value */
};

enum nn_step_kind { NN_STEP_OP = 1, NN_STEP_WRITE, NN_STEP_FILL };

struct nn_operand {
	int value;			/* -1: the step's own workspace */
	uint64_t bytes;
	uint32_t access;		/* VNPU_OPERAND_* */
	bool at_offset;			/* the operand starts at the value's first element */
};

struct nn_step {
	enum nn_step_kind kind;
	const char *type;		/* operators: lib/ops' type name */
	unsigned char *desc;		/* operators: the descriptor (owned) */
	uint32_t desc_size;
	int nops;
	struct nn_operand *ops;		/* owned */
	uint32_t in_place;		/* plan.in_place */
	int nin;
	uint64_t ws_bytes;
	uint32_t ws_align;
	/* NN_STEP_WRITE: @word (64-bit if @wide) to @value; NN_STEP_FILL: zero
	 * bytes over the dense @value. */
	int value;
	uint64_t word;
	bool wide;
};

/* Patch at launch: the 64-bit word at @where of the task array (@in_tasks)
 * or the data area is the address of @base/@slot plus @delta. */
struct nn_patch {
	uint32_t where;
	bool in_tasks;
	enum nn_base base;
	int slot;
	uint64_t delta;
};

#define NN_SHAPE_BUFS 4

/* A block of an executor's arena: everything the executor holds is cut
 * from these and freed with it (a small operator costs a few mallocs, not
 * dozens). */
struct nn_chunk {
	struct nn_chunk *next;
	size_t used, cap;
	_Alignas(16) unsigned char data[];
};

struct nn_exec {
	const char *api;
	aclnnStatus status;		/* the first failure */
	struct nn_chunk *arena;		/* newest first */
	int32_t device;			/* current at the build, or -1 */

	struct nn_value *values;
	int nvalues, cap_values;
	struct nn_slot *slots;
	int nslots, cap_slots;
	int nin_ir, nout_ir;		/* arguments so far (for irIndex) */
	struct nn_step *steps;
	int nsteps, cap_steps;
	uint64_t ws_temps;		/* bytes of temporaries */

	char shape_buf[NN_SHAPE_BUFS][96];
	int shape_next;

	/* Made by nn_finish(): */
	uint64_t ws_size;		/* what the launch needs */
	uint64_t ws_step;		/* offset of the steps' own workspace */
	bool has_ws_operand;
	struct drm_vnpu_task *tasks;
	uint32_t ntasks;
	unsigned char *data;
	uint32_t data_size;
	struct nn_patch *patches;
	uint32_t npatches;
	struct vnpu_rt_range *ranges;	/* one per slot, then the workspace */

	/* The registry's (nn_launch.c). */
	pthread_mutex_t lock;		/* a launch: patches the task data */
	bool repeatable;
	uint32_t handle_index, handle_gen;
};

/* What a step takes of a plan (struct vops_plan without its fixed-size
 * arrays): from vops_plan() or from the memo of recent plans (nn_memo.c). */
struct nn_memo_out {
	int32_t dtype;
	int32_t ndim;
	const int64_t *dims;
	uint64_t bytes;
};

struct nn_memo_plan {
	const char *type;		/* lib/ops' name (static) */
	int nin, nout;
	int nops;			/* vops_plan_operands() */
	bool empty;
	uint32_t in_place, ws_align, desc_size;
	uint64_t ws_bytes;
	const uint64_t *in_bytes;	/* nin */
	const struct nn_memo_out *out;	/* nout */
	const unsigned char *desc;
};

/* A call's key: everything vops_plan() reads, byte by byte. */
struct nn_memo_key {
	uint64_t hash;
	uint32_t len;			/* words */
	bool ok;			/* false: too long to keep, plan every time */
	uint64_t buf[128];
};

/* Write @k for the call and return the plan the thread's memo holds for
 * it, or NULL. */
const struct nn_memo_plan *nn_memo_find(struct nn_memo_key *k, const char *type, int nin, const struct vops_tensor *in,
					int nout, const struct vops_attr *attrs, unsigned int nattrs);
/* Keep @p (copied) for @k, if both are small enough. */
void nn_memo_put(const struct nn_memo_key *k, const struct nn_memo_plan *p);
/* @m as a view of @p, with @outs (p->nout entries) for its outputs. */
void nn_memo_from_plan(const struct vops_plan *p, struct nn_memo_out *outs, struct nn_memo_plan *m);
/* Count one vops_plan() call (nn_memo_plans()). */
void nn_memo_counted_plan(void);

/* @n bytes (16-aligned) that live as long as @x; NULL after recording
 * the failure. */
void *nn_alloc(struct nn_exec *x, size_t n);
/* Free everything of @x (not its registry entry). */
void nn_exec_free(struct nn_exec *x);
/* Register @x and return its handle (NULL: out of memory, recorded). */
aclOpExecutor *nn_exec_register(struct nn_exec *x);

#endif /* VNPU_LIB_ACLNN_NN_EXEC_H */
