// SPDX-License-Identifier: GPL-2.0
/*
 * Jobs: the SUBMIT ioctl.
 *
 * A submit reads like a recipe (vnpu_ioctl_submit()): check the arguments,
 * find the stream, allocate the job, load every task while checking it and
 * resolving each range it names against the file's buffers (the job takes
 * a reference on each buffer's mapping, under one hold of the VA space
 * lock; operator workspace is looked up in the stream's pool first, under
 * the pool's lock), prepare the hazard records (vnpu_hazard.c), find the
 * out-syncobj, wait while the file has its limit of unfinished jobs
 * (struct vnpu_job_quota), collect the in-fences that have not signalled,
 * then, under the stream's submit lock, check the workspace against other
 * streams' running jobs, give the job its seqno and fence, record its
 * workspace, arm its dependencies, queue it (vnpu_sched.c) and install its
 * fence in the out-syncobj. Every step before the queueing can fail and
 * leaves nothing behind: a batch with one bad task queues nothing.
 *
 * What the engine server gets is built here, once: every task as a struct
 * drm_vnpu_engine_task and every range as a struct drm_vnpu_engine_operand
 * (its buffer fields filled in at hand-out, vnpu_engine.c), plus the
 * SUBMIT's data area with the operator descriptors, copied unread.
 */
#include <linux/dma-fence-chain.h>
#include <linux/dma-fence.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>
#include <drm/drm_syncobj.h>

#include "vnpu_deps.h"
#include "vnpu_drv.h"
#include "vnpu_gem.h"
#include "vnpu_hazard.h"
#include "vnpu_job.h"
#include "vnpu_pool.h"
#include "vnpu_sched.h"
#include "vnpu_stream.h"
#include "vnpu_vm.h"

/**
 * struct vnpu_out_sync - where a submit installs its job's fence
 * @syncobj: the syncobj (referenced), or NULL for none
 * @chain: for a timeline point, the chain node, allocated before the push
 * @point: the timeline point, or 0 to replace a binary syncobj's fence
 */
struct vnpu_out_sync {
	struct drm_syncobj *syncobj;
	struct dma_fence_chain *chain;
	u64 point;
};

/**
 * struct vnpu_load - what loading a batch works from
 * @job: the job being loaded
 * @vm: the file's address space (its lock held)
 * @in: the tasks as the client wrote them
 * @data: the data area, copied in, or NULL
 * @data_size: its bytes
 * @next_operand: the job's next free operand
 */
struct vnpu_load {
	struct vnpu_job *job;
	struct vnpu_vm *vm;
	const struct drm_vnpu_task *in;
	const u8 *data;
	u32 data_size;
	u32 next_operand;
};

/* ---------------------------------------------------------------- quota */

/**
 * vnpu_job_quota_create() - a job quota for a newly opened file
 *
 * Return: the quota with one reference, or NULL.
 */
struct vnpu_job_quota *vnpu_job_quota_create(void)
{
	struct vnpu_job_quota *quota;

	quota = kzalloc(sizeof(*quota), GFP_KERNEL);
	if (!quota)
		return NULL;
	kref_init(&quota->refcount);
	init_waitqueue_head(&quota->wq);
	return quota;
}

static void vnpu_job_quota_release(struct kref *kref)
{
	kfree(container_of(kref, struct vnpu_job_quota, refcount));
}

/**
 * vnpu_job_quota_put() - drop a reference to a job quota
 * @quota: the quota
 */
void vnpu_job_quota_put(struct vnpu_job_quota *quota)
{
	kref_put(&quota->refcount, vnpu_job_quota_release);
}

/*
 * Take room for one more job, waiting for it interruptibly unless
 * @nonblock: 0, -ERESTARTSYS, or -ENOBUFS for @nonblock without room.
 */
static int vnpu_job_quota_take(struct vnpu_job_quota *quota, bool nonblock)
{
	int limit = vnpu_param_max_jobs_per_file;

	if (nonblock)
		return atomic_add_unless(&quota->unfinished, 1, limit) ? 0 : -ENOBUFS;
	return wait_event_interruptible(quota->wq,
					atomic_add_unless(&quota->unfinished, 1, limit));
}

/**
 * vnpu_job_give_quota() - give back the job's room in its file's job quota
 * @job: the job; nothing happens if it holds no room (any more)
 *
 * Called when the job is retired, or freed without being queued; only one
 * of those can happen to a job, each in one thread.
 */
void vnpu_job_give_quota(struct vnpu_job *job)
{
	struct vnpu_job_quota *quota = job->stream->job_quota;

	if (!job->quota_taken)
		return;
	job->quota_taken = false;
	atomic_dec(&quota->unfinished);
	/* Pairs with the barrier in the waiter's prepare_to_wait(). */
	if (wq_has_sleeper(&quota->wq))
		wake_up(&quota->wq);
}

/* ---------------------------------------------------------------- jobs */

static const char *vnpu_fence_driver_name(struct dma_fence *fence)
{
	return VNPU_DRIVER_NAME;
}

static const char *vnpu_fence_timeline_name(struct dma_fence *fence)
{
	return "vnpu-stream";
}

/*
 * A job's fence can outlive the device, the file and the module's other
 * objects: a syncobj or a sync_file exported from it keeps it alive, and
 * its ops, names and release are this module's code and data. So each
 * fence holds a reference on the module, taken when the fence is
 * initialised (from an ioctl, which itself holds one) and dropped here,
 * last: rmmod says the module is busy while any fence lives. The put is
 * made inside an RCU read-side section, so free_module()'s
 * synchronize_rcu() waits for this function to be past it before the
 * module's memory goes.
 */
static void vnpu_fence_release(struct dma_fence *fence)
{
	struct vnpu_fence *f = container_of(fence, struct vnpu_fence, base);

	rcu_read_lock();
	kfree_rcu(f, base.rcu);
	module_put(THIS_MODULE);
	rcu_read_unlock();
}

static const struct dma_fence_ops vnpu_fence_ops = {
	.get_driver_name = vnpu_fence_driver_name,
	.get_timeline_name = vnpu_fence_timeline_name,
	.release = vnpu_fence_release,
};

static struct vnpu_job *vnpu_job_alloc(struct vnpu_device *vdev, struct vnpu_stream *stream,
				       u32 task_count)
{
	struct vnpu_job *job;

	job = kzalloc(sizeof(*job), GFP_KERNEL_ACCOUNT);
	if (!job)
		return NULL;
	job->tasks = kvmalloc_array(task_count, sizeof(*job->tasks),
				    GFP_KERNEL_ACCOUNT | __GFP_ZERO);
	job->fence = kzalloc(sizeof(*job->fence), GFP_KERNEL_ACCOUNT);
	if (!job->tasks || !job->fence) {
		kfree(job->fence);
		kvfree(job->tasks);
		kfree(job);
		return NULL;
	}
	spin_lock_init(&job->fence->lock);
	kref_init(&job->refcount);
	job->vdev = vdev;
	job->stream = vnpu_stream_get(stream);
	job->num_tasks = task_count;
	job->timeout_ms = READ_ONCE(stream->job_timeout_ms);
	job->failure_mode = READ_ONCE(stream->failure_mode);
	INIT_LIST_HEAD(&job->hazard_spare);
	vnpu_sched_job_init(job);
	return job;
}

static void vnpu_job_release(struct kref *kref)
{
	struct vnpu_job *job = container_of(kref, struct vnpu_job, refcount);
	struct vnpu_sched *sched = &job->vdev->sched;
	u32 i;

	vnpu_deps_disarm(job->deps);
	vnpu_deps_free(job->deps);
	for (i = 0; i < job->num_operands; i++)
		if (job->maps[i])
			vnpu_mapping_put(job->maps[i]);
	kvfree(job->maps);
	kvfree(job->operands);
	kvfree(job->data);
	kvfree(job->ws);
	kvfree(job->tasks);
	vnpu_hazard_job_fini(job);
	vnpu_job_give_quota(job);
	if (job->seqno)
		dma_fence_put(&job->fence->base);
	else
		kfree(job->fence);
	vnpu_stream_put(job->stream);
	kfree(job);

	/* Last: device teardown waits for this count to reach zero. */
	if (atomic_dec_and_test(&sched->num_jobs))
		wake_up_all(&sched->jobs_idle);
}

/**
 * vnpu_job_put() - drop a reference to a job
 * @job: the job
 *
 * May free buffers: process context, outside any fence signalling section.
 */
void vnpu_job_put(struct vnpu_job *job)
{
	kref_put(&job->refcount, vnpu_job_release);
}

/**
 * vnpu_job_operand_kaddr() - kernel address of an operand's first byte
 * @job: the job (its buffers are alive)
 * @operand: index of the operand
 *
 * Return: the address.
 */
void *vnpu_job_operand_kaddr(struct vnpu_job *job, u32 operand)
{
	return (u8 *)vnpu_bo_vaddr(job->maps[operand]->bo) + job->operands[operand].offset;
}

/* ---------------------------------------------------------------- tasks */

/* Words of the task's union beyond its first @used bytes must be zero. */
static bool vnpu_task_tail_clear(const struct drm_vnpu_task *in, size_t used)
{
	size_t i;

	for (i = DIV_ROUND_UP(used, sizeof(in->raw[0])); i < ARRAY_SIZE(in->raw); i++)
		if (in->raw[i])
			return false;
	return true;
}

/* Make operand @i of the job the range @offset, @size of @mapping's buffer. */
static void vnpu_job_set_operand(struct vnpu_job *job, u32 i, struct vnpu_mapping *mapping,
				 u64 offset, u64 size, u32 access)
{
	job->maps[i] = mapping;
	job->operands[i].offset = offset;
	job->operands[i].size = size;
	job->operands[i].access = access;
}

/*
 * Operand @i of the job belongs to an operator: its buffer range joins the
 * hazard checks (vnpu_hazard.c), which track every operator operand in
 * bound memory, whatever its access: a model's intermediate tensors from a
 * registered allocator are inputs and outputs, not workspace.
 */
static void vnpu_job_add_use(struct vnpu_job *job, u32 i)
{
	struct vnpu_ws_use *use = &job->ws[job->num_ws++];

	use->bo = job->maps[i]->bo;
	use->start = job->operands[i].offset;
	use->last = job->operands[i].offset + job->operands[i].size - 1;
}

/* The job's next operand: the range of @size at @va, used with @access. */
static int vnpu_load_range(struct vnpu_load *ld, u64 va, u64 size, u32 access)
{
	struct vnpu_mapping *mapping;
	u64 offset;
	int ret;

	lockdep_assert_held(&ld->vm->lock);
	ret = vnpu_vm_resolve_locked(ld->vm, va, size, &mapping, &offset);
	if (ret)
		return ret;
	vnpu_job_set_operand(ld->job, ld->next_operand++, mapping, offset, size, access);
	return 0;
}

/*
 * A workspace operand: through a range of the stream's pool that holds it,
 * which works even when the buffer's handle is closed; otherwise, unless
 * the stream requires pool workspace, through the VA space like any other
 * range. Records the use for the hazard checks. Caller holds the pool's
 * lock and the VA space lock.
 */
static int vnpu_load_workspace(struct vnpu_load *ld, u64 va, u64 size)
{
	struct vnpu_job *job = ld->job;
	struct vnpu_pool *pool = &job->stream->pool;
	struct vnpu_mapping *mapping;
	u64 offset, end;
	int ret;

	lockdep_assert_held(&pool->lock);
	lockdep_assert_held(&ld->vm->lock);
	if (check_add_overflow(va, size, &end))
		return -EOVERFLOW;
	ret = vnpu_pool_resolve_locked(pool, va, size, &mapping, &offset);
	if (ret == -ENOENT) {
		if (READ_ONCE(job->stream->require_pool))
			return -EACCES;
		ret = vnpu_vm_resolve_locked(ld->vm, va, size, &mapping, &offset);
	}
	if (ret)
		return ret;
	vnpu_job_set_operand(job, ld->next_operand, mapping, offset, size,
			     VNPU_OPERAND_WORKSPACE);
	vnpu_job_add_use(job, ld->next_operand++);
	job->ws_bytes += size;
	return 0;
}

static int vnpu_load_nop(struct vnpu_load *ld, const struct drm_vnpu_task *in,
			 struct drm_vnpu_engine_task *out)
{
	return in->flags || !vnpu_task_tail_clear(in, 0) ? -EINVAL : 0;
}

static int vnpu_load_copy(struct vnpu_load *ld, const struct drm_vnpu_task *in,
			  struct drm_vnpu_engine_task *out)
{
	if (in->flags || !in->copy.size || !vnpu_task_tail_clear(in, sizeof(in->copy)))
		return -EINVAL;
	return vnpu_load_range(ld, in->copy.dst, in->copy.size, VNPU_OPERAND_WRITE) ?:
	       vnpu_load_range(ld, in->copy.src, in->copy.size, VNPU_OPERAND_READ);
}

static int vnpu_load_fill(struct vnpu_load *ld, const struct drm_vnpu_task *in,
			  struct drm_vnpu_engine_task *out)
{
	bool word = in->flags & VNPU_TASK_FILL_32;

	if (in->flags & ~VNPU_TASK_FILL_32 || !in->fill.size || in->fill.pad ||
	    !vnpu_task_tail_clear(in, sizeof(in->fill)))
		return -EINVAL;
	/* A byte, or a whole number of aligned 32-bit words. */
	if (word && (!IS_ALIGNED(in->fill.dst, 4) || !IS_ALIGNED(in->fill.size, 4)))
		return -EINVAL;
	if (!word && in->fill.value > U8_MAX)
		return -EINVAL;
	out->value = in->fill.value;
	return vnpu_load_range(ld, in->fill.dst, in->fill.size, VNPU_OPERAND_WRITE);
}

/* WRITE_VALUE and WAIT_VALUE. */
static int vnpu_load_value(struct vnpu_load *ld, const struct drm_vnpu_task *in,
			   struct drm_vnpu_engine_task *out)
{
	bool wide = in->flags & VNPU_TASK_VALUE_64;
	u64 width = wide ? sizeof(u64) : sizeof(u32);
	bool wait = in->kind == VNPU_TASK_WAIT_VALUE;

	if (in->flags & ~VNPU_TASK_VALUE_64 || in->value.pad ||
	    !vnpu_task_tail_clear(in, sizeof(in->value)))
		return -EINVAL;
	if (wait ? in->value.cmp > VNPU_WAIT_NOR : in->value.cmp != 0)
		return -EINVAL;
	if (!IS_ALIGNED(in->value.addr, width))
		return -EINVAL;
	out->value = wide ? in->value.value : lower_32_bits(in->value.value);
	out->cmp = in->value.cmp;
	return vnpu_load_range(ld, in->value.addr, width,
			       wait ? VNPU_OPERAND_READ : VNPU_OPERAND_WRITE);
}

static int vnpu_load_timestamp(struct vnpu_load *ld, const struct drm_vnpu_task *in,
			       struct drm_vnpu_engine_task *out)
{
	if (in->flags || !vnpu_task_tail_clear(in, sizeof(in->timestamp)) ||
	    !IS_ALIGNED(in->timestamp.addr, sizeof(u64)))
		return -EINVAL;
	return vnpu_load_range(ld, in->timestamp.addr, sizeof(u64), VNPU_OPERAND_WRITE);
}

/* Is [@offset, @offset + @size) inside the data area, @offset aligned? */
static bool vnpu_data_holds(const struct vnpu_load *ld, u64 offset, u64 size)
{
	return IS_ALIGNED(offset, 8) && offset <= ld->data_size && size <= ld->data_size - offset;
}

/* The operand list of an operator task (placement checked by the caller). */
static const struct drm_vnpu_operand *vnpu_op_operands(const struct vnpu_load *ld,
						       const struct drm_vnpu_task_op *op)
{
	return (const struct drm_vnpu_operand *)(ld->data + op->operand_offset);
}

/*
 * An operator: its descriptor stays where it is in the data area (the
 * server gets the area whole), its operands become the job's. Checks, in
 * this order: flags and the union's bytes beyond struct drm_vnpu_task_op,
 * the descriptor's and the operand list's placement, every operand's
 * access, pad and size, then every operand's range.
 */
static int vnpu_load_op(struct vnpu_load *ld, const struct drm_vnpu_task *in,
			struct drm_vnpu_engine_task *out)
{
	const struct drm_vnpu_task_op *op = &in->op;
	const struct drm_vnpu_operand *o;
	bool has_ws = false;
	int ret;
	u32 i;

	if (in->flags || !vnpu_task_tail_clear(in, sizeof(*op)))
		return -EINVAL;
	if (!op->desc_size || op->desc_size > VNPU_MAX_OP_DESC_SIZE ||
	    !vnpu_data_holds(ld, op->desc_offset, op->desc_size))
		return -EINVAL;
	if (!vnpu_data_holds(ld, op->operand_offset, (u64)op->operand_count * sizeof(*o)))
		return -EINVAL;
	o = vnpu_op_operands(ld, op);
	for (i = 0; i < op->operand_count; i++) {
		if (o[i].pad || !o[i].size || o[i].access < VNPU_OPERAND_READ ||
		    o[i].access > VNPU_OPERAND_WORKSPACE)
			return -EINVAL;
	}

	out->desc_offset = op->desc_offset;
	out->desc_size = op->desc_size;
	for (i = 0; i < op->operand_count; i++) {
		if (o[i].access == VNPU_OPERAND_WORKSPACE) {
			ret = vnpu_load_workspace(ld, o[i].va, o[i].size);
			has_ws = true;
		} else {
			ret = vnpu_load_range(ld, o[i].va, o[i].size, o[i].access);
			if (!ret)
				vnpu_job_add_use(ld->job, ld->next_operand - 1);
		}
		if (ret)
			return ret;
	}
	ld->job->ws_tasks += has_ws;
	return 0;
}

/* Per kind: how to check and load a task. */
static int (*const vnpu_task_loaders[])(struct vnpu_load *ld, const struct drm_vnpu_task *in,
					struct drm_vnpu_engine_task *out) = {
	[VNPU_TASK_NOP] = vnpu_load_nop,
	[VNPU_TASK_COPY] = vnpu_load_copy,
	[VNPU_TASK_FILL] = vnpu_load_fill,
	[VNPU_TASK_WRITE_VALUE] = vnpu_load_value,
	[VNPU_TASK_WAIT_VALUE] = vnpu_load_value,
	[VNPU_TASK_TIMESTAMP] = vnpu_load_timestamp,
	[VNPU_TASK_OP] = vnpu_load_op,
};

/* Ranges a task of @kind names (an operator: its own count). */
static const u32 vnpu_task_ranges[] = {
	[VNPU_TASK_NOP] = 0,
	[VNPU_TASK_COPY] = 2,
	[VNPU_TASK_FILL] = 1,
	[VNPU_TASK_WRITE_VALUE] = 1,
	[VNPU_TASK_WAIT_VALUE] = 1,
	[VNPU_TASK_TIMESTAMP] = 1,
	[VNPU_TASK_OP] = 0,
};

/*
 * Before any task is loaded: every kind is known, and the operators'
 * operand counts are within bounds; count the job's operands, and, for
 * operators whose operand list lies in the data area, those operands again
 * (each is a use for the hazard checks), noting whether one is workspace
 * (only workspace is resolved through the stream's pool, under its lock).
 * The placement of everything is checked again task by task.
 */
static int vnpu_job_count(struct vnpu_load *ld, u32 *operands, u32 *ws, bool *has_op,
			  bool *has_ws)
{
	u32 i, j, op_operands = 0;

	*operands = 0;
	*ws = 0;
	*has_op = false;
	*has_ws = false;
	for (i = 0; i < ld->job->num_tasks; i++) {
		const struct drm_vnpu_task *in = &ld->in[i];

		if (in->kind >= ARRAY_SIZE(vnpu_task_loaders)) {
			drm_dbg(&ld->job->vdev->drm, "submit: task %u: unknown kind %u\n",
				i, in->kind);
			return -EINVAL;
		}
		*operands += vnpu_task_ranges[in->kind];
		if (in->kind != VNPU_TASK_OP)
			continue;
		*has_op = true;
		if (in->op.operand_count > VNPU_MAX_OP_OPERANDS)
			return -EINVAL;
		op_operands += in->op.operand_count;
		if (op_operands > VNPU_MAX_SUBMIT_OPERANDS)
			return -EINVAL;
	}
	*operands += op_operands;
	if (!ld->data)
		return 0;
	for (i = 0; i < ld->job->num_tasks; i++) {
		const struct drm_vnpu_task_op *op = &ld->in[i].op;
		const struct drm_vnpu_operand *o;

		if (ld->in[i].kind != VNPU_TASK_OP ||
		    !vnpu_data_holds(ld, op->operand_offset,
				     (u64)op->operand_count * sizeof(struct drm_vnpu_operand)))
			continue;
		*ws += op->operand_count;
		o = vnpu_op_operands(ld, op);
		for (j = 0; j < op->operand_count; j++)
			*has_ws |= o[j].access == VNPU_OPERAND_WORKSPACE;
	}
	return 0;
}

/* Copy the client's tasks (and, with an operator, the data area) in. */
static int vnpu_job_copy_in(struct vnpu_load *ld, const struct drm_vnpu_submit *args,
			    struct drm_vnpu_task **in)
{
	struct vnpu_job *job = ld->job;
	void *data;

	*in = kvmalloc_array(args->task_count, sizeof(**in), GFP_KERNEL);
	if (!*in)
		return -ENOMEM;
	if (copy_from_user(*in, u64_to_user_ptr(args->tasks),
			   array_size(args->task_count, sizeof(**in))))
		return -EFAULT;
	ld->in = *in;
	if (!args->data_size)
		return 0;
	data = kvmalloc(args->data_size, GFP_KERNEL_ACCOUNT);
	if (!data)
		return -ENOMEM;
	job->data = data;
	job->data_size = args->data_size;
	if (copy_from_user(data, u64_to_user_ptr(args->data), args->data_size))
		return -EFAULT;
	ld->data = data;
	ld->data_size = args->data_size;
	return 0;
}

/*
 * Copy the tasks in, then check and load each one, all under one hold of
 * the VA space lock (and, with workspace, of the stream's pool lock) so
 * the batch sees one consistent set of buffers and ranges.
 */
static int vnpu_job_load_tasks(struct vnpu_job *job, struct vnpu_vm *vm,
			       const struct drm_vnpu_submit *args)
{
	struct vnpu_pool *pool = &job->stream->pool;
	struct vnpu_load ld = { .job = job, .vm = vm };
	struct drm_vnpu_task *in = NULL;
	u32 i, operands, ws;
	bool has_op, has_ws;
	int ret;

	ret = vnpu_job_copy_in(&ld, args, &in);
	if (ret)
		goto out;
	ret = vnpu_job_count(&ld, &operands, &ws, &has_op, &has_ws);
	if (ret)
		goto out;
	if (!has_op) {
		/* Only operators read the data area. */
		kvfree(job->data);
		job->data = NULL;
		job->data_size = 0;
	}
	if (operands) {
		job->operands = kvmalloc_array(operands, sizeof(*job->operands),
					       GFP_KERNEL_ACCOUNT | __GFP_ZERO);
		job->maps = kvmalloc_array(operands, sizeof(*job->maps),
					   GFP_KERNEL_ACCOUNT | __GFP_ZERO);
		if (!job->operands || !job->maps) {
			ret = -ENOMEM;
			goto out;
		}
	}
	if (ws) {
		job->ws = kvmalloc_array(ws, sizeof(*job->ws), GFP_KERNEL_ACCOUNT);
		if (!job->ws) {
			ret = -ENOMEM;
			goto out;
		}
	}
	if (has_ws)
		mutex_lock(&pool->lock);

	mutex_lock(&vm->lock);
	for (i = 0; i < job->num_tasks; i++) {
		struct drm_vnpu_engine_task *t = &job->tasks[i];
		u32 first = ld.next_operand;

		t->kind = in[i].kind;
		t->flags = in[i].flags;
		ret = vnpu_task_loaders[in[i].kind](&ld, &in[i], t);
		t->operand = first;
		t->operand_count = ld.next_operand - first;
		if (ret) {
			drm_dbg(&job->vdev->drm, "submit: task %u (kind %u): %d\n",
				i, in[i].kind, ret);
			break;
		}
	}
	/* What was resolved is released with the job. */
	job->num_operands = ld.next_operand;
	mutex_unlock(&vm->lock);
	if (has_ws)
		mutex_unlock(&pool->lock);
out:
	kvfree(in);
	return ret;
}

/* ---------------------------------------------------------------- syncs */

/*
 * The in-syncs' fences that have not signalled yet become the job's
 * dependencies.
 */
static int vnpu_job_add_in_syncs(struct vnpu_job *job, struct drm_file *file,
				 const struct drm_vnpu_submit *args)
{
	struct drm_vnpu_sync *syncs;
	struct dma_fence *fence;
	u32 i;
	int ret = 0;

	if (!args->in_sync_count)
		return 0;
	syncs = memdup_user(u64_to_user_ptr(args->in_syncs),
			    array_size(args->in_sync_count, sizeof(*syncs)));
	if (IS_ERR(syncs))
		return PTR_ERR(syncs);

	for (i = 0; i < args->in_sync_count; i++) {
		if (syncs[i].flags) {
			ret = -EINVAL;
			goto out;
		}
	}
	ret = vnpu_deps_reserve(&job->deps, args->in_sync_count);
	if (ret)
		goto out;
	for (i = 0; i < args->in_sync_count; i++) {
		/* -ENOENT: no such syncobj; -EINVAL: no fence (yet) at that point. */
		ret = drm_syncobj_find_fence(file, syncs[i].handle, syncs[i].point, 0, &fence);
		if (ret)
			goto out;
		if (dma_fence_is_signaled(fence) || vnpu_deps_has(job->deps, fence))
			dma_fence_put(fence);
		else
			vnpu_deps_add(job->deps, fence);
	}
out:
	kfree(syncs);
	return ret;
}

static int vnpu_out_sync_get(struct vnpu_out_sync *out, struct drm_file *file,
			     const struct drm_vnpu_sync *sync)
{
	if (sync->flags)
		return -EINVAL;
	if (!sync->handle)
		return sync->point ? -EINVAL : 0;

	out->syncobj = drm_syncobj_find(file, sync->handle);
	if (!out->syncobj)
		return -ENOENT;
	if (sync->point) {
		out->chain = dma_fence_chain_alloc();
		if (!out->chain)
			return -ENOMEM;
		out->point = sync->point;
	}
	return 0;
}

static void vnpu_out_sync_install(struct vnpu_out_sync *out, struct dma_fence *fence)
{
	if (!out->syncobj)
		return;
	if (out->chain) {
		drm_syncobj_add_point(out->syncobj, out->chain, fence, out->point);
		out->chain = NULL;
	} else {
		drm_syncobj_replace_fence(out->syncobj, fence);
	}
}

static void vnpu_out_sync_put(struct vnpu_out_sync *out)
{
	dma_fence_chain_free(out->chain);
	if (out->syncobj)
		drm_syncobj_put(out->syncobj);
}

/* ---------------------------------------------------------------- submit */

static int vnpu_submit_check_args(const struct drm_vnpu_submit *args)
{
	if (args->flags & ~VNPU_SUBMIT_NONBLOCK)
		return -EINVAL;
	if (!args->task_count || args->task_count > VNPU_MAX_TASKS_PER_SUBMIT)
		return -EINVAL;
	if (args->task_size != sizeof(struct drm_vnpu_task))
		return -EINVAL;
	if (args->in_sync_count > VNPU_MAX_IN_SYNCS)
		return -EINVAL;
	if (args->data_size > VNPU_MAX_SUBMIT_DATA || (args->data_size && !args->data))
		return -EINVAL;
	return 0;
}

/*
 * Queue the job under the stream's submit lock, so that seqnos, the order
 * of jobs in the stream and the order of out-fences agree. A job with
 * operator workspace is checked against other streams' running jobs and
 * recorded in one hold of the device's hazard lock, taken inside the
 * submit lock, around the creation of the fence the record names.
 */
static int vnpu_job_push(struct vnpu_file *vfile, struct vnpu_job *job,
			 struct vnpu_out_sync *out, u64 *seqno)
{
	struct vnpu_stream *stream = job->stream;
	struct vnpu_device *vdev = job->vdev;
	struct dma_fence *fence = &job->fence->base;
	u64 owner = stream->fence_context;
	u32 hazards = 0;
	int ret = 0;

	mutex_lock(&stream->submit_lock);
	if (stream->destroyed) {
		ret = -ENOENT;
		goto unlock;
	}
	if (vnpu_sched_stream_failed(stream)) {
		ret = -EIO;
		goto unlock;
	}
	if (!vnpu_sched_attached(vdev)) {
		ret = -ENOTCONN;
		goto unlock;
	}

	if (job->hazard_check) {
		mutex_lock(&vdev->hazard_lock);
		ret = vnpu_hazard_check_locked(job, owner,
					       READ_ONCE(stream->hazard_policy) ==
					       VNPU_HAZARD_STRICT,
					       &job->deps, &hazards);
		if (ret) {
			mutex_unlock(&vdev->hazard_lock);
			if (ret == -EBUSY)
				vnpu_pool_count_rejected(&stream->pool, vfile, hazards);
			goto unlock;
		}
	}

	job->seqno = stream->submitted_seqno + 1;
	__module_get(THIS_MODULE);	/* dropped by vnpu_fence_release() */
	dma_fence_init(fence, &vnpu_fence_ops, &job->fence->lock, stream->fence_context,
		       job->seqno);
	if (job->hazard_check) {
		vnpu_hazard_record_locked(job, owner, fence);
		mutex_unlock(&vdev->hazard_lock);
	}
	if (job->deps)
		vnpu_deps_arm(job->deps, vnpu_sched_deps_met, job);

	ret = vnpu_sched_push(job);
	if (ret) {
		/* The engine went away since the check: the fence ends at once. */
		vnpu_deps_disarm(job->deps);
		dma_fence_set_error(fence, ret);
		dma_fence_signal(fence);
		goto unlock;
	}
	WRITE_ONCE(stream->submitted_seqno, job->seqno);
	vnpu_out_sync_install(out, fence);
	*seqno = job->seqno;
	vnpu_pool_count_submit(&stream->pool, vfile, job->ws_bytes, job->ws_tasks, hazards);
	if (job->deps)
		vnpu_deps_release(job->deps);
	else
		vnpu_sched_deps_met(job);
unlock:
	mutex_unlock(&stream->submit_lock);
	return ret;
}

/**
 * vnpu_ioctl_submit() - DRM_IOCTL_VNPU_SUBMIT
 * @drm: device
 * @data: struct drm_vnpu_submit
 * @file: caller
 *
 * Return: 0 with @data's seqno set, or a negative errno (see the uapi
 * header) and nothing queued.
 */
int vnpu_ioctl_submit(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct vnpu_device *vdev = to_vnpu_device(drm);
	struct vnpu_file *vfile = to_vnpu_file(file);
	struct drm_vnpu_submit *args = data;
	struct vnpu_out_sync out = {};
	struct vnpu_stream *stream;
	struct vnpu_job *job;
	int ret;

	ret = vnpu_submit_check_args(args);
	if (ret)
		return ret;

	stream = vnpu_stream_lookup(vfile, args->stream_id);
	if (!stream)
		return -ENOENT;
	job = vnpu_job_alloc(vdev, stream, args->task_count);
	vnpu_stream_put(stream);
	if (!job)
		return -ENOMEM;

	ret = vnpu_job_load_tasks(job, vfile->vm, args);
	if (ret)
		goto out_put;
	ret = vnpu_hazard_prepare(job);
	if (ret)
		goto out_put;
	ret = vnpu_out_sync_get(&out, file, &args->out_sync);
	if (ret)
		goto out_put;
	/* A valid batch waits here while the file has too many jobs. */
	ret = vnpu_job_quota_take(job->stream->job_quota,
				  args->flags & VNPU_SUBMIT_NONBLOCK);
	if (ret)
		goto out_put;
	job->quota_taken = true;
	if (vnpu_sched_stream_failed(job->stream)) {
		ret = -EIO;
		goto out_put;
	}
	ret = vnpu_job_add_in_syncs(job, file, args);
	if (!ret)
		ret = vnpu_job_push(vfile, job, &out, &args->seqno);

out_put:
	vnpu_out_sync_put(&out);
	vnpu_job_put(job);
	return ret;
}
