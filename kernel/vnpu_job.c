// SPDX-License-Identifier: GPL-2.0
/*
 * Jobs: the SUBMIT ioctl and the drm_sched backend.
 *
 * A submit reads like a recipe (vnpu_ioctl_submit()): check the arguments,
 * find the stream, allocate the job, load every task while checking it and
 * resolving its device addresses against the file's buffers (the job takes
 * a reference on each buffer's mapping, under one hold of the VA space
 * lock; operator workspace is looked up in the stream's pool first, under
 * the pool's lock), prepare the hazard records (vnpu_hazard.c), find the
 * out-syncobj, wait while the file has its limit of unfinished jobs
 * (struct vnpu_job_quota), initialise the scheduler job and fold the
 * in-fences into a gate that becomes its dependency (vnpu_gate.c), then,
 * under the stream's submit lock, check the workspace against other
 * streams' running jobs, arm and push the job, record its workspace and
 * install its finished fence in the out-syncobj. Every step before the arm can fail and leaves
 * nothing behind: a batch with one bad task queues nothing.
 *
 * The scheduler backend is thin: run_job hands the job to its stream's
 * ring (vnpu_engine.c), free_job drops the scheduler's reference.
 */
#include <linux/dma-fence-chain.h>
#include <linux/dma-fence.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>
#include <drm/drm_syncobj.h>

#include "vnpu_drv.h"
#include "vnpu_engine.h"
#include "vnpu_gate.h"
#include "vnpu_gem.h"
#include "vnpu_hazard.h"
#include "vnpu_job.h"
#include "vnpu_ops.h"
#include "vnpu_pool.h"
#include "vnpu_stream.h"
#include "vnpu_vm.h"

/**
 * struct vnpu_out_sync - where a submit installs its job's finished fence
 * @syncobj: the syncobj (referenced), or NULL for none
 * @chain: for a timeline point, the chain node, allocated before the push
 * @point: the timeline point, or 0 to replace a binary syncobj's fence
 */
struct vnpu_out_sync {
	struct drm_syncobj *syncobj;
	struct dma_fence_chain *chain;
	u64 point;
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
 * Called when the job is retired (vnpu_engine.c): drm_sched frees a
 * scheduler's jobs only in the order it handed them over, so free_job can
 * come long after the end, behind a parked job of any other file. Jobs
 * freed without being retired (killed before run_job, or failed submits)
 * give it back when freed. Nobody else touches @job->quota_taken then: the
 * engine retires a job before its fence signals, and it is freed after.
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

static struct vnpu_job *vnpu_job_alloc(struct vnpu_device *vdev,
				       struct vnpu_stream *stream, u32 task_count)
{
	struct vnpu_job *job;

	job = kzalloc(sizeof(*job), GFP_KERNEL_ACCOUNT);
	if (!job)
		return NULL;

	job->tasks = kvmalloc_array(task_count, sizeof(*job->tasks), GFP_KERNEL_ACCOUNT);
	job->hw_fence = kzalloc(sizeof(*job->hw_fence), GFP_KERNEL_ACCOUNT);
	if (!job->tasks || !job->hw_fence) {
		kfree(job->hw_fence);
		kvfree(job->tasks);
		kfree(job);
		return NULL;
	}

	kref_init(&job->refcount);
	job->vdev = vdev;
	job->stream = vnpu_stream_get(stream);
	job->num_tasks = task_count;
	INIT_LIST_HEAD(&job->ring_link);
	INIT_LIST_HEAD(&job->hazard_spare);
	atomic_inc(&vdev->num_jobs);
	return job;
}

/**
 * vnpu_job_release_mappings() - drop a job's buffer references
 * @mappings: array of referenced mappings (kvmalloc'ed), or NULL
 * @count: entries in @mappings
 *
 * May free buffers, so it must not run in a fence signalling section.
 */
void vnpu_job_release_mappings(struct vnpu_mapping **mappings, u32 count)
{
	u32 i;

	for (i = 0; i < count; i++)
		vnpu_mapping_put(mappings[i]);
	kvfree(mappings);
}

static void vnpu_job_release(struct kref *kref)
{
	struct vnpu_job *job = container_of(kref, struct vnpu_job, refcount);
	struct vnpu_device *vdev = job->vdev;

	vnpu_job_release_mappings(job->mappings, job->num_mappings);
	vnpu_hazard_job_fini(job);
	kvfree(job->ws);
	kvfree(job->op_args);
	vnpu_job_give_quota(job);
	if (job->hw_fence_live)
		dma_fence_put(job->hw_fence);
	else
		kfree(job->hw_fence);
	vnpu_stream_put(job->stream);
	kvfree(job->tasks);
	kfree(job);

	/* Last: device teardown waits for this count to reach zero. */
	if (atomic_dec_and_test(&vdev->num_jobs))
		wake_up_all(&vdev->jobs_idle);
}

/**
 * vnpu_job_put() - drop a reference to a job
 * @job: the job
 */
void vnpu_job_put(struct vnpu_job *job)
{
	kref_put(&job->refcount, vnpu_job_release);
}

/* ---------------------------------------------------------------- tasks */

/* Words of the task's union beyond its first @used bytes must be zero. */
static bool vnpu_task_tail_clear(const struct drm_vnpu_task *in, size_t used)
{
	size_t i;

	for (i = used / sizeof(in->raw[0]); i < ARRAY_SIZE(in->raw); i++)
		if (in->raw[i])
			return false;
	return true;
}

/*
 * Resolve [@va, @va + @len) against the file's buffers; the job keeps the
 * mapping referenced. Caller holds the VA space lock.
 */
static int vnpu_job_resolve_locked(struct vnpu_job *job, struct vnpu_vm *vm,
				   u64 va, u64 len, void **kaddr)
{
	struct vnpu_mapping *mapping;
	u64 offset;
	int ret;

	lockdep_assert_held(&vm->lock);
	ret = vnpu_vm_resolve_locked(vm, va, len, &mapping, &offset);
	if (ret)
		return ret;
	job->mappings[job->num_mappings++] = mapping;
	*kaddr = (u8 *)vnpu_bo_vaddr(mapping->bo) + offset;
	return 0;
}

static int vnpu_load_nop(struct vnpu_job *job, struct vnpu_vm *vm,
			 const struct drm_vnpu_task *in, struct vnpu_task *out)
{
	if (in->flags || !vnpu_task_tail_clear(in, 0))
		return -EINVAL;
	return 0;
}

static int vnpu_load_copy(struct vnpu_job *job, struct vnpu_vm *vm,
			  const struct drm_vnpu_task *in, struct vnpu_task *out)
{
	void *dst, *src;
	int ret;

	if (in->flags || !in->copy.size ||
	    !vnpu_task_tail_clear(in, sizeof(in->copy)))
		return -EINVAL;
	ret = vnpu_job_resolve_locked(job, vm, in->copy.dst, in->copy.size, &dst);
	if (ret)
		return ret;
	ret = vnpu_job_resolve_locked(job, vm, in->copy.src, in->copy.size, &src);
	if (ret)
		return ret;
	out->copy.dst = dst;
	out->copy.src = src;
	out->copy.size = in->copy.size;
	return 0;
}

static int vnpu_load_fill(struct vnpu_job *job, struct vnpu_vm *vm,
			  const struct drm_vnpu_task *in, struct vnpu_task *out)
{
	void *dst;
	int ret;

	if (in->flags || !in->fill.size || in->fill.value > U8_MAX || in->fill.pad ||
	    !vnpu_task_tail_clear(in, sizeof(in->fill)))
		return -EINVAL;
	ret = vnpu_job_resolve_locked(job, vm, in->fill.dst, in->fill.size, &dst);
	if (ret)
		return ret;
	out->fill.dst = dst;
	out->fill.size = in->fill.size;
	out->fill.value = in->fill.value;
	return 0;
}

/* WRITE_VALUE and WAIT_VALUE. */
static int vnpu_load_value(struct vnpu_job *job, struct vnpu_vm *vm,
			   const struct drm_vnpu_task *in, struct vnpu_task *out)
{
	bool wide = in->flags & VNPU_TASK_VALUE_64;
	u64 width = wide ? sizeof(u64) : sizeof(u32);
	void *addr;
	int ret;

	if (in->flags & ~VNPU_TASK_VALUE_64 || in->value.pad ||
	    !vnpu_task_tail_clear(in, sizeof(in->value)))
		return -EINVAL;
	if (in->kind == VNPU_TASK_WRITE_VALUE ? in->value.cmp != 0 :
						in->value.cmp > VNPU_WAIT_NOR)
		return -EINVAL;
	if (!IS_ALIGNED(in->value.addr, width))
		return -EINVAL;
	ret = vnpu_job_resolve_locked(job, vm, in->value.addr, width, &addr);
	if (ret)
		return ret;
	out->value.addr = addr;
	out->value.value = wide ? in->value.value : lower_32_bits(in->value.value);
	out->value.cmp = in->value.cmp;
	return 0;
}

static int vnpu_load_timestamp(struct vnpu_job *job, struct vnpu_vm *vm,
			       const struct drm_vnpu_task *in, struct vnpu_task *out)
{
	void *addr;
	int ret;

	if (in->flags || !vnpu_task_tail_clear(in, sizeof(in->timestamp)) ||
	    !IS_ALIGNED(in->timestamp.addr, sizeof(u64)))
		return -EINVAL;
	ret = vnpu_job_resolve_locked(job, vm, in->timestamp.addr, sizeof(u64), &addr);
	if (ret)
		return ret;
	out->timestamp.addr = addr;
	return 0;
}

/* Bytes per element of an operator data type (already validated). */
static u32 vnpu_op_elem_size(u32 dtype)
{
	return dtype == VNPU_DTYPE_F16 || dtype == VNPU_DTYPE_BF16 ? 2 : 4;
}

/* A rough cost in bytes moved: operands, plus 4 per matmul multiply-add. */
static u64 vnpu_op_cost(const struct vnpu_op_args *a, const struct vnpu_op_sizes *sz)
{
	u64 cost = sz->in0 + sz->in1 + sz->out + sz->ws;

	if (a->op == VNPU_OP_MATMUL)
		cost = size_add(cost, size_mul(size_mul(size_mul(a->dims[0], a->dims[1]),
							a->dims[2]), 4));
	return cost;
}

/*
 * An operator's workspace: through a range of the stream's pool that holds
 * it, which works even when the buffer's handle is closed; otherwise, unless
 * the stream requires pool workspace, through the VA space like any other
 * address. Records the use for the hazard checks. Caller holds the pool's
 * lock and the VA space lock.
 */
static int vnpu_job_resolve_ws_locked(struct vnpu_job *job, struct vnpu_vm *vm,
				      u64 va, u64 len, void **kaddr)
{
	struct vnpu_pool *pool = &job->stream->pool;
	struct vnpu_mapping *mapping;
	struct vnpu_ws_use *use;
	u64 offset, end;
	int ret;

	lockdep_assert_held(&pool->lock);
	lockdep_assert_held(&vm->lock);
	if (check_add_overflow(va, len, &end))
		return -EOVERFLOW;
	ret = vnpu_pool_resolve_locked(pool, va, len, &mapping, &offset);
	if (ret == -ENOENT) {
		if (READ_ONCE(job->stream->require_pool))
			return -EACCES;
		ret = vnpu_vm_resolve_locked(vm, va, len, &mapping, &offset);
	}
	if (ret)
		return ret;
	job->mappings[job->num_mappings++] = mapping;
	*kaddr = (u8 *)vnpu_bo_vaddr(mapping->bo) + offset;

	use = &job->ws[job->num_ws++];
	use->bo = mapping->bo;
	use->start = offset;
	use->last = offset + len - 1;
	job->ws_bytes += len;
	return 0;
}

/*
 * An operator. Checks, in this order: the task's flags and the union's
 * bytes beyond struct drm_vnpu_task_op (must be zero), then the operator
 * itself (vnpu_op_sizes(): op, dtypes, flags, dims; -EINVAL or, for sizes
 * beyond the operator limits, -EOVERFLOW), in1 given to a unary operator,
 * a workspace address without a size or a size without an address,
 * operand alignment (-EINVAL), a workspace smaller than the operator needs
 * (-ENOSPC); then resolves in0, in1, out and the workspace.
 */
static int vnpu_load_op(struct vnpu_job *job, struct vnpu_vm *vm,
			const struct drm_vnpu_task *in, struct vnpu_task *out)
{
	const struct drm_vnpu_task_op *op = &in->op;
	struct vnpu_op_args *a = &job->op_args[job->num_ops];
	struct vnpu_op_sizes sz;
	u32 es, oes;
	void *p;
	int ret;

	if (in->flags || !vnpu_task_tail_clear(in, sizeof(in->op)))
		return -EINVAL;
	a->op = op->op;
	a->dtype = op->dtype;
	a->out_dtype = op->out_dtype;
	a->flags = op->op_flags;
	memcpy(a->dims, op->dims, sizeof(a->dims));
	ret = vnpu_op_sizes(a, &sz);
	if (ret)
		return ret;
	if ((!sz.in1 && op->in1) || !op->ws != !op->ws_size)
		return -EINVAL;
	es = vnpu_op_elem_size(a->dtype);
	oes = a->op == VNPU_OP_CAST ? vnpu_op_elem_size(a->out_dtype) : es;
	if (!IS_ALIGNED(op->in0, es) || !IS_ALIGNED(op->in1, es) ||
	    !IS_ALIGNED(op->out, oes) || !IS_ALIGNED(op->ws, 4))
		return -EINVAL;
	if (op->ws_size < sz.ws)
		return -ENOSPC;

	ret = vnpu_job_resolve_locked(job, vm, op->in0, sz.in0, &p);
	if (ret)
		return ret;
	a->in0 = p;
	a->in1 = NULL;
	if (sz.in1) {
		ret = vnpu_job_resolve_locked(job, vm, op->in1, sz.in1, &p);
		if (ret)
			return ret;
		a->in1 = p;
	}
	ret = vnpu_job_resolve_locked(job, vm, op->out, sz.out, &p);
	if (ret)
		return ret;
	a->out = p;
	a->ws = NULL;
	a->ws_size = op->ws_size;
	if (op->ws_size) {
		ret = vnpu_job_resolve_ws_locked(job, vm, op->ws, op->ws_size, &p);
		if (ret)
			return ret;
		a->ws = p;
	}

	out->op.args = a;
	out->op.cost = vnpu_op_cost(a, &sz);
	job->num_ops++;
	return 0;
}

/*
 * Per kind: how to check and load a task, and how many device addresses it
 * can name (the job reserves that many mapping references up front).
 */
static const struct {
	int (*load)(struct vnpu_job *job, struct vnpu_vm *vm,
		    const struct drm_vnpu_task *in, struct vnpu_task *out);
	u32 max_addrs;
} vnpu_task_kinds[] = {
	[VNPU_TASK_NOP] = { vnpu_load_nop, 0 },
	[VNPU_TASK_COPY] = { vnpu_load_copy, 2 },
	[VNPU_TASK_FILL] = { vnpu_load_fill, 1 },
	[VNPU_TASK_WRITE_VALUE] = { vnpu_load_value, 1 },
	[VNPU_TASK_WAIT_VALUE] = { vnpu_load_value, 1 },
	[VNPU_TASK_TIMESTAMP] = { vnpu_load_timestamp, 1 },
	[VNPU_TASK_OP] = { vnpu_load_op, 4 },
};

static bool vnpu_task_kind_known(u32 kind)
{
	return kind < ARRAY_SIZE(vnpu_task_kinds) && vnpu_task_kinds[kind].load;
}

/* Jobs at most this big run in the scheduler thread when their ring is idle. */
#define VNPU_INLINE_MAX_TASKS 64
#define VNPU_INLINE_MAX_BYTES SZ_64K

static bool vnpu_job_short(const struct vnpu_job *job)
{
	u64 bytes = 0;
	u32 i;

	if (job->num_tasks > VNPU_INLINE_MAX_TASKS)
		return false;
	for (i = 0; i < job->num_tasks; i++) {
		const struct vnpu_task *t = &job->tasks[i];

		if (t->kind == VNPU_TASK_COPY)
			bytes += t->copy.size;
		else if (t->kind == VNPU_TASK_FILL)
			bytes += t->fill.size;
		else if (t->kind == VNPU_TASK_OP)
			bytes = size_add(bytes, t->op.cost);
	}
	return bytes <= VNPU_INLINE_MAX_BYTES;
}

/*
 * Copy the tasks in, then check and resolve each one, all under one hold
 * of the VA space lock (and, if an operator has workspace, of the stream's
 * pool lock) so the batch sees one consistent set of buffers and ranges.
 */
static int vnpu_job_load_tasks(struct vnpu_job *job, struct vnpu_vm *vm,
			       const struct drm_vnpu_submit *args)
{
	struct vnpu_pool *pool = &job->stream->pool;
	u32 i, max_addrs = 0, ops = 0, ws = 0;
	struct drm_vnpu_task *in;
	int ret = 0;

	in = kvmalloc_array(args->task_count, sizeof(*in), GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	if (copy_from_user(in, u64_to_user_ptr(args->tasks),
			   array_size(args->task_count, sizeof(*in)))) {
		ret = -EFAULT;
		goto out;
	}

	for (i = 0; i < args->task_count; i++) {
		if (!vnpu_task_kind_known(in[i].kind)) {
			drm_dbg(&job->vdev->drm, "submit: task %u: unknown kind %u\n",
				i, in[i].kind);
			ret = -EINVAL;
			goto out;
		}
		max_addrs += vnpu_task_kinds[in[i].kind].max_addrs;
		if (in[i].kind == VNPU_TASK_OP) {
			ops++;
			if (in[i].op.ws_size)
				ws++;
		}
	}
	if (max_addrs) {
		job->mappings = kvmalloc_array(max_addrs, sizeof(*job->mappings),
					       GFP_KERNEL_ACCOUNT);
		if (!job->mappings) {
			ret = -ENOMEM;
			goto out;
		}
	}
	if (ops) {
		job->op_args = kvmalloc_array(ops, sizeof(*job->op_args), GFP_KERNEL_ACCOUNT);
		if (!job->op_args) {
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
		mutex_lock(&pool->lock);
	}

	mutex_lock(&vm->lock);
	for (i = 0; i < args->task_count; i++) {
		job->tasks[i].kind = in[i].kind;
		job->tasks[i].flags = in[i].flags;
		ret = vnpu_task_kinds[in[i].kind].load(job, vm, &in[i], &job->tasks[i]);
		if (ret) {
			drm_dbg(&job->vdev->drm, "submit: task %u (kind %u): %d\n",
				i, in[i].kind, ret);
			break;
		}
	}
	mutex_unlock(&vm->lock);
	if (ws)
		mutex_unlock(&pool->lock);
	if (!ret)
		job->run_inline = vnpu_job_short(job);
out:
	kvfree(in);
	return ret;
}

/* ---------------------------------------------------------------- syncs */

/*
 * The in-syncs' fences, minus those signalled already, go into a gate that
 * becomes the job's one scheduler dependency (see vnpu_gate.c). *@gate is
 * NULL when there is nothing to wait for.
 */
static int vnpu_job_add_in_syncs(struct vnpu_job *job, struct drm_file *file,
				 const struct drm_vnpu_submit *args, struct vnpu_gate **gate)
{
	struct dma_fence *fences[VNPU_MAX_IN_SYNCS];
	struct drm_vnpu_sync *syncs;
	u32 i, found = 0, waits = 0;
	int ret = 0;

	*gate = NULL;
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
	for (found = 0; found < args->in_sync_count; found++) {
		/* -ENOENT: no such syncobj; -EINVAL: no fence (yet) at that point. */
		ret = drm_syncobj_find_fence(file, syncs[found].handle, syncs[found].point,
					     0, &fences[found]);
		if (ret)
			goto out;
		if (!dma_fence_is_signaled(fences[found]))
			waits++;
	}
	if (!waits)
		goto out;

	*gate = vnpu_gate_create(waits);
	if (!*gate) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < found; i++) {
		if (dma_fence_is_signaled(fences[i]))
			continue;
		vnpu_gate_add_fence(*gate, fences[i]);
		fences[i] = NULL;
		if (!--waits)
			break;
	}
	ret = drm_sched_job_add_dependency(&job->base, dma_fence_get(&(*gate)->base));
	if (ret) {
		vnpu_gate_abandon(*gate);
		*gate = NULL;
	}
out:
	/* The references the gate did not take over. */
	for (i = 0; i < found; i++)
		dma_fence_put(fences[i]);
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
	if ((args->flags & ~VNPU_SUBMIT_NONBLOCK) || args->pad)
		return -EINVAL;
	if (!args->task_count || args->task_count > VNPU_MAX_TASKS_PER_SUBMIT)
		return -EINVAL;
	if (args->task_size != sizeof(struct drm_vnpu_task))
		return -EINVAL;
	if (args->in_sync_count > VNPU_MAX_IN_SYNCS)
		return -EINVAL;
	return 0;
}

/*
 * Arm and push under the stream's submit lock, so that seqnos, the order
 * of jobs in the entity and the order of out-fences agree. A job with
 * operator workspace is checked against other streams' running jobs and
 * recorded in one hold of the device's hazard lock, taken inside the
 * submit lock, around the arm that creates the fence the record names.
 */
static int vnpu_job_push(struct vnpu_file *vfile, struct vnpu_job *job,
			 struct vnpu_gate *gate, struct vnpu_out_sync *out, u64 *seqno)
{
	struct vnpu_stream *stream = job->stream;
	struct vnpu_device *vdev = job->vdev;
	u64 owner = stream->ring.fence_context;
	struct vnpu_gate *hazard_gate = NULL;
	struct dma_fence *done;
	u32 hazards = 0;
	int ret = 0;

	mutex_lock(&stream->submit_lock);
	if (stream->destroyed) {
		ret = -ENOENT;
		goto unlock;
	}
	if (vnpu_ring_failed(&stream->ring)) {
		ret = -EIO;
		goto unlock;
	}

	if (job->hazard_check) {
		mutex_lock(&vdev->hazard_lock);
		ret = vnpu_hazard_check_locked(job, owner,
					       READ_ONCE(stream->hazard_policy) ==
					       VNPU_HAZARD_STRICT,
					       &hazard_gate, &hazards);
		if (ret) {
			mutex_unlock(&vdev->hazard_lock);
			if (ret == -EBUSY)
				vnpu_pool_count_rejected(&stream->pool, vfile, hazards);
			goto unlock;
		}
	}

	/* Nothing fails from here on. */
	if (gate)
		vnpu_gate_arm(gate, &stream->gates);
	if (hazard_gate)
		vnpu_gate_arm(hazard_gate, &stream->gates);
	drm_sched_job_arm(&job->base);
	done = dma_fence_get(&job->base.s_fence->finished);
	if (job->hazard_check) {
		vnpu_hazard_record_locked(job, owner, done);
		mutex_unlock(&vdev->hazard_lock);
	}
	/*
	 * drm_sched lets a job that depends on a job of the same scheduler
	 * run as soon as that job was handed over, trusting an in-order
	 * hardware ring. An engine serves many streams out of order, so jobs
	 * that depend on this one must wait for it to finish. (In-syncs reach
	 * the scheduler through gates, which are never pipelined; this keeps
	 * any direct dependency on a finished fence correct too.)
	 */
	set_bit(DRM_SCHED_FENCE_DONT_PIPELINE, &done->flags);
	job->seqno = stream->submitted_seqno + 1;
	WRITE_ONCE(stream->submitted_seqno, job->seqno);

	kref_get(&job->refcount);	/* the scheduler's, put by free_job */
	drm_sched_entity_push_job(&job->base);

	vnpu_out_sync_install(out, done);
	dma_fence_put(done);
	*seqno = job->seqno;
	vnpu_pool_count_submit(&stream->pool, vfile, job->ws_bytes, job->num_ws, hazards);
unlock:
	mutex_unlock(&stream->submit_lock);
	/* The job's dependency holds the gate now. */
	if (hazard_gate)
		dma_fence_put(&hazard_gate->base);
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
	struct vnpu_gate *gate = NULL;
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
	if (vnpu_ring_failed(&job->stream->ring)) {
		ret = -EIO;
		goto out_put;
	}

	ret = vnpu_sched_job_init(&job->base, &job->stream->entity, vfile);
	if (ret)
		goto out_put;
	ret = vnpu_job_add_in_syncs(job, file, args, &gate);
	if (!ret)
		ret = vnpu_job_push(vfile, job, gate, &out, &args->seqno);
	if (ret)
		drm_sched_job_cleanup(&job->base);
	if (gate) {
		if (ret)
			vnpu_gate_abandon(gate);
		else
			dma_fence_put(&gate->base);
	}

out_put:
	vnpu_out_sync_put(&out);
	vnpu_job_put(job);
	return ret;
}

/* ---------------------------------------------------------------- backend */

/*
 * Hand the job to its ring. A short job may run right here (see
 * vnpu_ring_push()); the part that executes and signals is a fence
 * signalling section of its own, and the buffers such a job held are
 * released after it, still in this thread but outside the section.
 */
static struct dma_fence *vnpu_sched_run_job(struct drm_sched_job *sched_job)
{
	struct vnpu_job *job = to_vnpu_job(sched_job);

	return vnpu_ring_push(to_vnpu_engine(sched_job->sched), &job->stream->ring, job);
}

/*
 * A backstop that is never reached: the schedulers run with
 * MAX_SCHEDULE_TIMEOUT, as the engines enforce job timeouts themselves
 * (vnpu_engine.c). Were it reached, the job is not hung in a way a reset
 * could help: leave it to the engine, which finishes it or times it out.
 */
static enum drm_gpu_sched_stat vnpu_sched_timedout_job(struct drm_sched_job *sched_job)
{
	return vnpu_sched_job_not_hung(sched_job);
}

static void vnpu_sched_free_job(struct drm_sched_job *sched_job)
{
	struct vnpu_job *job = to_vnpu_job(sched_job);

	drm_sched_job_cleanup(sched_job);
	vnpu_job_put(job);
}

const struct drm_sched_backend_ops vnpu_sched_ops = {
	.run_job = vnpu_sched_run_job,
	.timedout_job = vnpu_sched_timedout_job,
	.free_job = vnpu_sched_free_job,
};
