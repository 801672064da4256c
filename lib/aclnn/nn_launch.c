// SPDX-License-Identifier: MIT
/*
 * nn_launch.c - an executor's job and its launch: nn_finish() lays out the
 * workspace and writes the SUBMIT's tasks and data area once, with a patch
 * list for every address; nn_launch() fills the addresses in and submits:
 * one ioctl per warm launch, whatever the number of steps.
 *
 * aclOpExecutor pointers are handles into a registry, not the executor's
 * address: a used, destroyed or made-up executor is refused with a message
 * instead of being dereferenced (CANN leaves that undefined).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "nn_exec.h"

_Static_assert(sizeof(void *) == 8, "executor handles hold an index and a generation");

/* ---- the registry ------------------------------------------------------------------- */

struct reg_entry {
	struct nn_exec *x;		/* NULL: free */
	uint32_t gen;
	bool busy;			/* a launch or an address update is using it */
};

static struct {
	pthread_mutex_t lock;		/* everything below */
	struct reg_entry *ents;
	uint32_t n, cap;
	uint32_t *free_list;
	uint32_t nfree;
} reg = { .lock = PTHREAD_MUTEX_INITIALIZER };

aclOpExecutor *nn_exec_register(struct nn_exec *x)
{
	uint32_t i;

	pthread_mutex_lock(&reg.lock);
	if (reg.nfree) {
		i = reg.free_list[--reg.nfree];
	} else {
		if (reg.n == reg.cap) {
			uint32_t cap = reg.cap ? reg.cap * 2 : 64;
			struct reg_entry *e = realloc(reg.ents, cap * sizeof(*e));
			uint32_t *f = e ? realloc(reg.free_list, cap * sizeof(*f)) : NULL;

			if (e)
				reg.ents = e;
			if (!e || !f) {
				pthread_mutex_unlock(&reg.lock);
				nn_err(ACLNN_ERR_INNER_CREATE_EXECUTOR, x->api, "out of memory");
				return NULL;
			}
			reg.free_list = f;
			reg.cap = cap;
		}
		i = reg.n++;
		reg.ents[i].gen = 0;
	}
	reg.ents[i].x = x;
	reg.ents[i].gen++;
	reg.ents[i].busy = false;
	x->handle_index = i;
	x->handle_gen = reg.ents[i].gen;
	pthread_mutex_unlock(&reg.lock);
	return (aclOpExecutor *)(uintptr_t)(((uint64_t)x->handle_gen << 32) | (i + 1));
}

/* The executor of handle @e, marked busy; NULL with a message for @api. */
static struct nn_exec *reg_take(aclOpExecutor *e, const char *api)
{
	uint64_t h = (uint64_t)(uintptr_t)e;
	uint32_t i = (uint32_t)h - 1, gen = (uint32_t)(h >> 32);
	struct nn_exec *x = NULL;
	const char *why = NULL;

	if (!e) {
		nn_err(ACLNN_ERR_PARAM_NULLPTR, api, "executor is NULL");
		return NULL;
	}
	pthread_mutex_lock(&reg.lock);
	if ((uint32_t)h == 0 || i >= reg.n || !reg.ents[i].x || reg.ents[i].gen != gen)
		why = "is not a live executor (an executor that is not repeatable is used once, by the launch that "
		      "frees it)";
	else if (reg.ents[i].busy)
		why = "is in use by another thread";
	else {
		x = reg.ents[i].x;
		reg.ents[i].busy = true;
	}
	pthread_mutex_unlock(&reg.lock);
	if (why)
		nn_err(ACLNN_ERR_PARAM_INVALID, api, "executor %p %s", (void *)e, why);
	return x;
}

/* Done with @x: free it if @destroy. */
static void reg_give(struct nn_exec *x, bool destroy)
{
	pthread_mutex_lock(&reg.lock);
	reg.ents[x->handle_index].busy = false;
	if (destroy) {
		reg.ents[x->handle_index].x = NULL;
		reg.free_list[reg.nfree++] = x->handle_index;
	}
	pthread_mutex_unlock(&reg.lock);
	if (destroy)
		nn_exec_free(x);
}

/* ---- the job ---------------------------------------------------------------------------- */

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

static bool add_patch(struct nn_exec *x, uint32_t *cap, uint32_t where, bool in_tasks, const struct nn_value *root,
		      uint64_t delta)
{
	struct nn_patch *p;

	if (x->npatches == *cap) {
		uint32_t c = *cap ? *cap * 2 : 16;

		p = nn_alloc(x, c * sizeof(*p));
		if (!p)
			return false;
		if (x->npatches)
			memcpy(p, x->patches, x->npatches * sizeof(*p));
		x->patches = p;
		*cap = c;
	}
	p = &x->patches[x->npatches++];
	p->where = where;
	p->in_tasks = in_tasks;
	p->base = root->base;
	p->slot = root->slot;
	p->delta = root->delta + delta;
	return true;
}

#define WS_ALIGN 64u

/* Place every temporary a step uses in the workspace (a zero-rank one
 * still takes a word: value writes are 4 or 8 bytes). */
static aclnnStatus place_temps(struct nn_exec *x)
{
	bool *used = nn_alloc(x, x->nvalues ? (size_t)x->nvalues : 1);
	int i, j;

	if (!used)
		return x->status;
	memset(used, 0, x->nvalues ? (size_t)x->nvalues : 1);
	for (i = 0; i < x->nsteps; i++) {
		const struct nn_step *s = &x->steps[i];

		if (s->value >= 0)
			used[x->values[s->value].root] = true;
		for (j = 0; j < s->nops; j++)
			if (s->ops[j].value >= 0)
				used[x->values[s->ops[j].value].root] = true;
	}
	x->ws_temps = 0;
	for (i = 0; i < x->nvalues; i++) {
		struct nn_value *v = &x->values[i];
		uint64_t bytes = v->count * vops_dtype_size(v->dtype);

		if (!used[i] || v->root != i || v->base != NN_BASE_WS)
			continue;
		v->delta = x->ws_temps;
		x->ws_temps = align_up(x->ws_temps + (bytes < 8 ? 8 : bytes), WS_ALIGN);
	}
	return ACLNN_SUCCESS;
}

static aclnnStatus build_job(struct nn_exec *x)
{
	uint64_t size = 0, ws_max = 0;
	uint32_t align = 64, pos = 0, cap = 0;
	struct drm_vnpu_task *t;
	int i, j;

	if (place_temps(x))
		return x->status;
	for (i = 0; i < x->nsteps; i++) {
		const struct nn_step *s = &x->steps[i];

		if (s->kind != NN_STEP_OP)
			continue;
		size = align_up(size, 8) + align_up(s->desc_size, 8) + (uint64_t)s->nops * sizeof(struct drm_vnpu_operand);
		if (s->ws_bytes > ws_max)
			ws_max = s->ws_bytes;
		if (s->ws_align > align)
			align = s->ws_align;
		if (s->ws_bytes)
			x->has_ws_operand = true;
	}
	if ((uint32_t)x->nsteps > VNPU_MAX_TASKS_PER_SUBMIT || size > VNPU_MAX_SUBMIT_DATA)
		return nn_fail(x, ACLNN_ERR_PARAM_INVALID, "the computation takes %d steps and %" PRIu64
			       " bytes of descriptors, more than one job holds (%u, %u)", x->nsteps, size,
			       VNPU_MAX_TASKS_PER_SUBMIT, VNPU_MAX_SUBMIT_DATA);
	x->ws_step = align_up(x->ws_temps, align);
	x->ws_size = ws_max ? x->ws_step + ws_max : x->ws_temps;
	x->tasks = nn_alloc(x, (x->nsteps ? (size_t)x->nsteps : 1) * sizeof(*x->tasks));
	x->data = nn_alloc(x, size ? size : 1);
	x->ranges = nn_alloc(x, ((size_t)x->nslots + 1) * sizeof(*x->ranges));
	if (!x->tasks || !x->data || !x->ranges)
		return x->status;
	memset(x->tasks, 0, (x->nsteps ? (size_t)x->nsteps : 1) * sizeof(*x->tasks));
	memset(x->data, 0, size ? size : 1);
	for (i = 0; i < x->nsteps; i++) {
		const struct nn_step *s = &x->steps[i];
		uint32_t where = (uint32_t)((unsigned char *)&x->tasks[i] - (unsigned char *)x->tasks);

		t = &x->tasks[i];
		if (s->kind == NN_STEP_WRITE || s->kind == NN_STEP_FILL) {
			const struct nn_value *v = &x->values[s->value];
			const struct nn_value *r = &x->values[v->root];
			uint64_t off = (uint64_t)v->offset * vops_dtype_size(v->dtype);

			if (s->kind == NN_STEP_WRITE) {
				t->kind = VNPU_TASK_WRITE_VALUE;
				t->flags = s->wide ? VNPU_TASK_VALUE_64 : 0;
				t->value.value = s->wide ? s->word : (uint32_t)s->word;
				where += (uint32_t)offsetof(struct drm_vnpu_task, value.addr);
			} else {
				t->kind = VNPU_TASK_FILL;
				t->fill.size = v->count * vops_dtype_size(v->dtype);
				where += (uint32_t)offsetof(struct drm_vnpu_task, fill.dst);
			}
			if (!add_patch(x, &cap, where, true, r, off))
				return nn_fail(x, ACLNN_ERR_INNER, "out of memory");
			continue;
		}
		pos = (uint32_t)align_up(pos, 8);
		t->kind = VNPU_TASK_OP;
		t->op.desc_offset = pos;
		t->op.desc_size = s->desc_size;
		t->op.operand_offset = pos + (uint32_t)align_up(s->desc_size, 8);
		t->op.operand_count = (uint32_t)s->nops;
		memcpy(x->data + pos, s->desc, s->desc_size);
		for (j = 0; j < s->nops; j++) {
			const struct nn_operand *op = &s->ops[j];
			uint32_t at = t->op.operand_offset + (uint32_t)j * (uint32_t)sizeof(struct drm_vnpu_operand);
			struct drm_vnpu_operand o = { .size = op->bytes, .access = op->access };
			bool ok;

			memcpy(x->data + at, &o, sizeof(o));
			if (op->value < 0) {
				struct nn_value ws = { .base = NN_BASE_WS, .delta = x->ws_step };

				ok = add_patch(x, &cap, at, false, &ws, 0);
			} else {
				const struct nn_value *v = &x->values[op->value];

				ok = add_patch(x, &cap, at, false, &x->values[v->root],
					       op->at_offset ? (uint64_t)v->offset * vops_dtype_size(v->dtype) : 0);
			}
			if (!ok)
				return nn_fail(x, ACLNN_ERR_INNER, "out of memory");
		}
		pos = t->op.operand_offset + (uint32_t)s->nops * (uint32_t)sizeof(struct drm_vnpu_operand);
	}
	x->ntasks = (uint32_t)x->nsteps;
	x->data_size = pos;
	return ACLNN_SUCCESS;
}

aclnnStatus nn_finish(struct nn_exec *x, uint64_t *workspace_size, aclOpExecutor **executor)
{
	aclOpExecutor *h;
	aclnnStatus err;

	if (!x)
		return ACLNN_ERR_INNER_CREATE_EXECUTOR;
	if (!x->status && !workspace_size)
		nn_fail(x, ACLNN_ERR_PARAM_NULLPTR, "workspaceSize is NULL");
	if (!x->status && !executor)
		nn_fail(x, ACLNN_ERR_PARAM_NULLPTR, "executor is NULL");
	if (!x->status)
		build_job(x);
	err = x->status;
	if (err) {
		nn_exec_free(x);
		return err;
	}
	h = nn_exec_register(x);
	if (!h) {
		nn_exec_free(x);
		return ACLNN_ERR_INNER_CREATE_EXECUTOR;
	}
	*workspace_size = x->ws_size;
	*executor = h;
	return ACLNN_SUCCESS;
}

/* ---- the launch -------------------------------------------------------------------------- */

aclnnStatus nn_launch(void *workspace, uint64_t workspace_size, aclOpExecutor *e, aclrtStream stream, const char *api)
{
	struct nn_exec *x = reg_take(e, api);
	uint64_t ws = (uint64_t)(uintptr_t)workspace;
	aclnnStatus ret = ACLNN_SUCCESS;
	aclError err;
	uint32_t i;

	if (!x)
		return e ? ACLNN_ERR_PARAM_INVALID : ACLNN_ERR_PARAM_NULLPTR;
	if (strcmp(x->api, api)) {
		ret = nn_err(ACLNN_ERR_PARAM_INVALID, api, "executor %p was made by %sGetWorkspaceSize", (void *)e,
			     x->api);
		goto out;
	}
	if (x->ws_size && !workspace) {
		ret = nn_err(ACLNN_ERR_PARAM_NULLPTR, api, "workspace is NULL, %" PRIu64 " bytes are needed",
			     x->ws_size);
		goto out;
	}
	if (workspace_size < x->ws_size) {
		ret = nn_err(ACLNN_ERR_PARAM_INVALID, api, "workspaceSize %" PRIu64 " is smaller than the %" PRIu64
			     " bytes %sGetWorkspaceSize asked for", workspace_size, x->ws_size, api);
		goto out;
	}
	for (i = 0; i < x->npatches; i++) {
		const struct nn_patch *p = &x->patches[i];
		uint64_t va = (p->base == NN_BASE_WS ? ws : x->slots[p->slot].addr) + p->delta;

		memcpy((p->in_tasks ? (unsigned char *)x->tasks : x->data) + p->where, &va, sizeof(va));
	}
	for (i = 0; i < (uint32_t)x->nslots; i++)
		x->ranges[i] = (struct vnpu_rt_range){ x->slots[i].addr, x->slots[i].reach_bytes, x->slots[i].name };
	x->ranges[i] = (struct vnpu_rt_range){ ws, x->ws_size, "the workspace" };
	err = vnpu_rt_launch(api, stream, x->device, x->tasks, x->ntasks, x->data, x->data_size, x->ranges,
			     (unsigned int)x->nslots + 1, x->has_ws_operand);
	if (err)
		ret = err == ACL_ERROR_INVALID_PARAM ? ACLNN_ERR_PARAM_INVALID : ACLNN_ERR_RUNTIME_ERROR;
out:
	reg_give(x, !x->repeatable);
	return ret;
}

aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor *executor)
{
	struct nn_exec *x = reg_take(executor, __func__);

	if (!x)
		return executor ? ACLNN_ERR_PARAM_INVALID : ACLNN_ERR_PARAM_NULLPTR;
	x->repeatable = true;
	reg_give(x, false);
	return ACLNN_SUCCESS;
}

aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor *executor)
{
	struct nn_exec *x = reg_take(executor, __func__);

	if (!x)
		return executor ? ACLNN_ERR_PARAM_INVALID : ACLNN_ERR_PARAM_NULLPTR;
	reg_give(x, true);
	return ACLNN_SUCCESS;
}

/* ---- new addresses ------------------------------------------------------------------------ */

enum addr_pick { PICK_IN, PICK_OUT, PICK_ANY };

static aclnnStatus set_addr(const char *api, aclOpExecutor *e, enum addr_pick pick, bool dynamic, size_t ir,
			    size_t index, aclTensor *tensor, void *addr)
{
	struct nn_exec *x = reg_take(e, api);
	size_t k = 0;
	int i;

	if (!x)
		return e ? ACLNN_ERR_PARAM_INVALID : ACLNN_ERR_PARAM_NULLPTR;
	if (tensor && !nn_tensor_ok(tensor)) {
		reg_give(x, false);
		return nn_err(ACLNN_ERR_PARAM_INVALID, api, "tensor %p is not an aclTensor", (void *)tensor);
	}
	/* PICK_ANY counts the inputs, then the outputs. */
	for (int pass = 0; pass < 2; pass++) {
		bool want_out = pick == PICK_OUT || (pick == PICK_ANY && pass == 1);

		if (pass == 1 && pick != PICK_ANY)
			break;
		for (i = 0; i < x->nslots; i++) {
			struct nn_slot *s = &x->slots[i];

			if (s->out != want_out)
				continue;
			if (dynamic ? ((size_t)s->ir == ir && (size_t)s->ir_pos == index) : k++ == index) {
				s->addr = (uint64_t)(uintptr_t)addr;
				if (tensor)
					tensor->data = addr;
				reg_give(x, false);
				return ACLNN_SUCCESS;
			}
		}
		if (dynamic && pick == PICK_ANY && pass == 0) {
			/* irIndex of the Tensor form counts inputs then outputs. */
			if (ir >= (size_t)x->nin_ir)
				ir -= (size_t)x->nin_ir;
			else
				break;
		}
	}
	reg_give(x, false);
	if (dynamic)
		return nn_err(ACLNN_ERR_PARAM_INVALID, api, "executor %p of %s has no tensor %zu in argument %zu",
			      (void *)e, x->api, index, ir);
	return nn_err(ACLNN_ERR_PARAM_INVALID, api, "executor %p of %s has no tensor of index %zu", (void *)e, x->api,
		      index);
}

#define SET_ADDR(name, pick)                                                                       \
	aclnnStatus name(aclOpExecutor *executor, const size_t index, aclTensor *tensor, void *addr) \
	{                                                                                          \
		return set_addr(#name, executor, pick, false, 0, index, tensor, addr);             \
	}
#define SET_DYN_ADDR(name, pick)                                                                   \
	aclnnStatus name(aclOpExecutor *executor, size_t irIndex, const size_t relativeIndex,      \
			 aclTensorList *tensors, void *addr)                                       \
	{                                                                                          \
		aclTensor *t = NULL;                                                               \
                                                                                                   \
		if (tensors && tensors->magic == NN_LIST_MAGIC && relativeIndex < tensors->size)   \
			t = tensors->v[relativeIndex];                                             \
		return set_addr(#name, executor, pick, true, irIndex, relativeIndex, t, addr);     \
	}

SET_ADDR(aclSetInputTensorAddr, PICK_IN)
SET_ADDR(aclSetOutputTensorAddr, PICK_OUT)
SET_ADDR(aclSetTensorAddr, PICK_ANY)
SET_ADDR(AclSetInputTensorAddr, PICK_IN)
SET_ADDR(AclSetOutputTensorAddr, PICK_OUT)
SET_ADDR(AclSetTensorAddr, PICK_ANY)
SET_DYN_ADDR(aclSetDynamicInputTensorAddr, PICK_IN)
SET_DYN_ADDR(aclSetDynamicOutputTensorAddr, PICK_OUT)
SET_DYN_ADDR(aclSetDynamicTensorAddr, PICK_ANY)
SET_DYN_ADDR(AclSetDynamicInputTensorAddr, PICK_IN)
SET_DYN_ADDR(AclSetDynamicOutputTensorAddr, PICK_OUT)
SET_DYN_ADDR(AclSetDynamicTensorAddr, PICK_ANY)
