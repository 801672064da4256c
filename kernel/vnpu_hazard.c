// SPDX-License-Identifier: GPL-2.0
/*
 * Cross-stream workspace hazards.
 *
 * CANN lets one external allocator serve several streams only if they never
 * run at the same time, and leaves the other case undefined: two streams'
 * operators then share the allocator's memory while both run. vnpu detects
 * it. The allocator's memory is an operator's workspace, or, in a model,
 * any of its operands (intermediate tensors are outputs of one operator and
 * inputs of the next): every operator operand counts, whatever its access.
 *
 * Records. When a job with an operator operand in bound memory (a buffer
 * with at least one pool range, of any stream of any file) is queued, the
 * kernel records, on the buffer, the operand's byte range
 * (as buffer offsets, so files sharing the buffer through PRIME see the
 * same records), the stream that used it and the job's fence.
 *
 * Checks. Before a job with operators is queued, each operand range is
 * looked up in its buffer's records: a record of another stream
 * whose fence has not signalled is a hazard. A strict stream's submit then
 * fails with -EBUSY and queues nothing; a serializing stream's job gets the
 * fences of the jobs it collides with as more dependencies (vnpu_deps.c),
 * which destroying the stream or closing the file never waits for. Uses of
 * one stream are never hazards to that stream: its jobs run in order.
 * Every operator task with a colliding operand is one hazard in the
 * counters (POOL_QUERY): on a serializing
 * stream only if a colliding job is still unfinished when the dependency
 * is built, so that the count is of tasks that really wait.
 *
 * Check and record are one critical section under the device's hazard
 * lock, taken inside the stream's submit lock, around the creation of the
 * job's fence (the record names it), so two submits on different streams
 * see each other's records in one order. The hazard lock is only ever
 * taken by ioctls, never by the scheduler or a fence callback, so
 * allocating under it cannot hold up a fence.
 *
 * Pruning. A record stays until it is pruned or its buffer is freed.
 * Records whose fence has signalled are dropped when a check meets them,
 * and every new record looks at the two oldest records of its buffer:
 * signalled ones are dropped, the others move to the back. A new record
 * also replaces the records of its own stream that lie inside its range,
 * finished or not: the job fences of one stream share a fence context and
 * signal in order (the scheduler retires a stream's jobs strictly in
 * order, skipped ones too: vnpu_sched.c), so waiting for the newest use is
 * waiting for them all. A stream that reuses the same
 * workspace job after job thus leaves one record, not one per queued job.
 * A buffer keeps, per stream, its distinct in-flight ranges plus about as
 * many finished records.
 */
#include <linux/delay.h>
#include <linux/dma-fence.h>
#include <linux/interval_tree_generic.h>
#include <linux/slab.h>
#include <drm/gpu_scheduler.h>

#include "vnpu_drv.h"
#include "vnpu_deps.h"
#include "vnpu_gem.h"
#include "vnpu_hazard.h"
#include "vnpu_job.h"

/* Signalled records each new record inspects for pruning. */
#define VNPU_HAZARD_PRUNE_STEP 2

/**
 * struct vnpu_hazard_rec - one recorded workspace use
 * @rb: node in &vnpu_hazard_set.tree
 * @start: first byte, as an offset in the buffer
 * @last: last byte (inclusive)
 * @subtree_last: interval tree bookkeeping
 * @link: entry in &vnpu_hazard_set.order (or a job's spare list)
 * @owner: the stream that used the range (its ring's fence context)
 * @fence: the job's fence, referenced
 */
struct vnpu_hazard_rec {
	struct rb_node rb;
	u64 start;
	u64 last;
	u64 subtree_last;
	struct list_head link;
	u64 owner;
	struct dma_fence *fence;
};

#define VNPU_REC_START(r) ((r)->start)
#define VNPU_REC_LAST(r) ((r)->last)

INTERVAL_TREE_DEFINE(struct vnpu_hazard_rec, rb, u64, subtree_last,
		     VNPU_REC_START, VNPU_REC_LAST, static, vnpu_rec_tree)

/**
 * vnpu_hazards_init() - initialise a device's hazard tracking
 * @vdev: the device
 */
void vnpu_hazards_init(struct vnpu_device *vdev)
{
	mutex_init(&vdev->hazard_lock);
	atomic_set(&vdev->num_hazard_records, 0);
}

/**
 * vnpu_hazard_set_init() - initialise a buffer's record set
 * @set: the set
 */
void vnpu_hazard_set_init(struct vnpu_hazard_set *set)
{
	set->tree = RB_ROOT_CACHED;
	INIT_LIST_HEAD(&set->order);
	set->count = 0;
	atomic_set(&set->bindings, 0);
}

static void vnpu_rec_free(struct vnpu_hazard_rec *rec)
{
	dma_fence_put(rec->fence);
	kfree(rec);
}

/* Take @rec out of @set and free it. */
static void vnpu_rec_drop_locked(struct vnpu_device *vdev, struct vnpu_hazard_set *set,
				 struct vnpu_hazard_rec *rec)
{
	lockdep_assert_held(&vdev->hazard_lock);
	vnpu_rec_tree_remove(rec, &set->tree);
	list_del(&rec->link);
	WRITE_ONCE(set->count, set->count - 1);
	atomic_dec(&vdev->num_hazard_records);
	vnpu_rec_free(rec);
}

/**
 * vnpu_hazard_set_fini() - free a buffer's records
 * @vdev: the buffer's device
 * @set: the set of a buffer being freed (no job or ioctl can reach it)
 */
void vnpu_hazard_set_fini(struct vnpu_device *vdev, struct vnpu_hazard_set *set)
{
	struct vnpu_hazard_rec *rec, *next;

	WARN_ON(atomic_read(&set->bindings));
	list_for_each_entry_safe(rec, next, &set->order, link) {
		atomic_dec(&vdev->num_hazard_records);
		vnpu_rec_free(rec);
	}
	INIT_LIST_HEAD(&set->order);
	set->tree = RB_ROOT_CACHED;
	set->count = 0;
}

static struct vnpu_hazard_set *vnpu_ws_set(const struct vnpu_ws_use *u)
{
	return &u->bo->hazards;
}

/**
 * vnpu_hazard_prepare() - decide what a loaded job records and checks
 * @job: a job whose tasks are loaded (&vnpu_job.ws filled in)
 *
 * Outside any lock: which workspaces lie in bound memory (recorded) and
 * which buffers have records at all (checked) is read as it stands now; a
 * bind or a submit racing with this one is ordered as if it came after.
 * Allocates the records the job may add, so the critical section does not
 * have to.
 *
 * Return: 0 or -ENOMEM.
 */
int vnpu_hazard_prepare(struct vnpu_job *job)
{
	struct vnpu_hazard_rec *rec;
	u32 i;

	for (i = 0; i < job->num_ws; i++) {
		struct vnpu_ws_use *u = &job->ws[i];
		struct vnpu_hazard_set *set = vnpu_ws_set(u);

		u->record = atomic_read(&set->bindings) > 0;
		u->check = u->record || READ_ONCE(set->count) > 0;
		if (u->check)
			job->hazard_check = true;
		if (!u->record)
			continue;
		rec = kzalloc(sizeof(*rec), GFP_KERNEL);
		if (!rec)
			return -ENOMEM;
		list_add(&rec->link, &job->hazard_spare);
	}
	return 0;
}

/**
 * vnpu_hazard_job_fini() - free the records a job did not use
 * @job: the job
 */
void vnpu_hazard_job_fini(struct vnpu_job *job)
{
	struct vnpu_hazard_rec *rec, *next;

	list_for_each_entry_safe(rec, next, &job->hazard_spare, link)
		kfree(rec);
	INIT_LIST_HEAD(&job->hazard_spare);
}

/*
 * Visit the records of other streams that overlap @u and are still in
 * flight; drop signalled records met on the way. With @deps, add each
 * such record's fence to it (once; the caller made room). Returns how
 * many were found.
 */
static u32 vnpu_hazard_scan_locked(struct vnpu_device *vdev, const struct vnpu_ws_use *u,
				   u64 owner, struct vnpu_deps *deps)
{
	struct vnpu_hazard_set *set = vnpu_ws_set(u);
	struct vnpu_hazard_rec *rec, *next;
	u32 found = 0;

	lockdep_assert_held(&vdev->hazard_lock);
	for (rec = vnpu_rec_tree_iter_first(&set->tree, u->start, u->last); rec; rec = next) {
		next = vnpu_rec_tree_iter_next(rec, u->start, u->last);
		if (dma_fence_is_signaled(rec->fence)) {
			vnpu_rec_drop_locked(vdev, set, rec);
			continue;
		}
		if (rec->owner == owner)
			continue;
		found++;
		if (deps && !vnpu_deps_has(deps, rec->fence))
			vnpu_deps_add(deps, dma_fence_get(rec->fence));
	}
	return found;
}

/**
 * vnpu_hazard_check_locked() - find the in-flight workspace of other
 *	streams that a job's workspace overlaps
 * @job: the job, loaded and prepared, not yet queued
 * @owner: its stream (the stream's fence context)
 * @strict: the stream's policy is VNPU_HAZARD_STRICT
 * @deps: the job's dependencies (may be NULL, may move): serializing, the
 *	fences of the colliding jobs are added to them
 * @hazards: out, operator tasks of @job whose workspace collides: strict,
 *	as found by the first scan; serializing, those that really made @job
 *	wait, i.e. that still collided with an unsignalled fence when the
 *	dependencies were added
 *
 * Caller holds the device's hazard lock and the stream's submit lock, and
 * records the job with vnpu_hazard_record_locked() in the same hold.
 *
 * Return: 0; -EBUSY (strict, *@hazards > 0); -ENOMEM.
 */
int vnpu_hazard_check_locked(struct vnpu_job *job, u64 owner, bool strict,
			     struct vnpu_deps **deps, u32 *hazards)
{
	struct vnpu_device *vdev = job->vdev;
	u32 i, found, fences = 0;
	int ret, delay;

	lockdep_assert_held(&vdev->hazard_lock);
	*hazards = 0;
	for (i = 0; i < job->num_ws; i++) {
		if (!job->ws[i].check)
			continue;
		found = vnpu_hazard_scan_locked(vdev, &job->ws[i], owner, NULL);
		if (found)
			(*hazards)++;
		fences += found;
	}
	if (!*hazards)
		return 0;
	if (strict)
		return -EBUSY;

	ret = vnpu_deps_reserve(deps, fences);
	if (ret)
		return ret;
	/* test hook (debugfs): widen the window between the two scans */
	delay = atomic_xchg(&vdev->hazard_rescan_delay_ms, 0);
	if (delay)
		msleep(min(delay, 10000));
	/*
	 * Fences only signal meanwhile (no record can come): it fits. Count
	 * again: a task whose colliding jobs all finished since the first
	 * scan adds no dependency, so it is no serialized hazard.
	 */
	*hazards = 0;
	for (i = 0; i < job->num_ws; i++)
		if (job->ws[i].check && vnpu_hazard_scan_locked(vdev, &job->ws[i], owner, *deps))
			(*hazards)++;
	return 0;
}

/* Look at the oldest records of @set: drop the finished, requeue the rest. */
static void vnpu_hazard_prune_locked(struct vnpu_device *vdev, struct vnpu_hazard_set *set)
{
	struct vnpu_hazard_rec *rec;
	unsigned int i;

	lockdep_assert_held(&vdev->hazard_lock);
	for (i = 0; i < VNPU_HAZARD_PRUNE_STEP && !list_empty(&set->order); i++) {
		rec = list_first_entry(&set->order, struct vnpu_hazard_rec, link);
		if (dma_fence_is_signaled(rec->fence))
			vnpu_rec_drop_locked(vdev, set, rec);
		else
			list_move_tail(&rec->link, &set->order);
	}
}

/*
 * Make room for a record of @owner over @u: drop the records of @owner
 * that lie inside @u (older uses of the same stream: the new one ends
 * after them). Returns true if a record of the same job (@fence) already
 * covers @u, so that no new record is needed.
 */
static bool vnpu_hazard_supersede_locked(struct vnpu_device *vdev, struct vnpu_hazard_set *set,
					 const struct vnpu_ws_use *u, u64 owner,
					 struct dma_fence *fence)
{
	struct vnpu_hazard_rec *rec, *next;

	lockdep_assert_held(&vdev->hazard_lock);
	for (rec = vnpu_rec_tree_iter_first(&set->tree, u->start, u->last); rec; rec = next) {
		next = vnpu_rec_tree_iter_next(rec, u->start, u->last);
		if (rec->owner != owner)
			continue;
		if (rec->fence == fence && rec->start <= u->start && rec->last >= u->last)
			return true;
		if (rec->fence != fence && rec->start >= u->start && rec->last <= u->last)
			vnpu_rec_drop_locked(vdev, set, rec);
	}
	return false;
}

/**
 * vnpu_hazard_record_locked() - record a job's workspace in bound memory
 * @job: the job: @fence is its fence
 * @owner: its stream
 * @fence: the fence that signals when the job is done
 *
 * Caller holds the device's hazard lock, taken for the check. A range that
 * the same job already recorded (several operators sharing a workspace) is
 * recorded once; records of the same stream inside the range are replaced.
 * Uses the records vnpu_hazard_prepare() allocated.
 */
void vnpu_hazard_record_locked(struct vnpu_job *job, u64 owner, struct dma_fence *fence)
{
	struct vnpu_device *vdev = job->vdev;
	struct vnpu_hazard_rec *rec;
	u32 i;

	lockdep_assert_held(&vdev->hazard_lock);
	for (i = 0; i < job->num_ws; i++) {
		const struct vnpu_ws_use *u = &job->ws[i];
		struct vnpu_hazard_set *set = vnpu_ws_set(u);

		if (!u->record)
			continue;
		vnpu_hazard_prune_locked(vdev, set);
		if (vnpu_hazard_supersede_locked(vdev, set, u, owner, fence))
			continue;
		rec = list_first_entry(&job->hazard_spare, struct vnpu_hazard_rec, link);
		list_del(&rec->link);
		rec->start = u->start;
		rec->last = u->last;
		rec->owner = owner;
		rec->fence = dma_fence_get(fence);
		vnpu_rec_tree_insert(rec, &set->tree);
		list_add_tail(&rec->link, &set->order);
		WRITE_ONCE(set->count, set->count + 1);
		atomic_inc(&vdev->num_hazard_records);
	}
}
