// SPDX-License-Identifier: GPL-2.0
/*
 * Pools: ranges of a file's device memory bound to one of its streams as
 * workspace for that stream's operators (POOL_BIND, POOL_UNBIND,
 * POOL_QUERY).
 *
 * A pool is a set of disjoint VA ranges. Each range lies in one buffer and
 * holds a reference on that buffer's mapping in the file's address space
 * (vnpu_vm.c), so the memory and its VA stay alive while bound, even after
 * the buffer's handle is closed; a job whose workspace lies in the pool
 * takes its own reference through the range, so unbinding (or destroying
 * the stream) while the job runs leaves the job its memory. Ranges of one
 * buffer that overlap or touch are merged on bind, which makes binding the
 * same memory twice a no-op; unbinding part of a range may split it.
 *
 * Workspace lookup at submit (vnpu_pool_resolve_locked()) finds the one
 * range that holds a workspace, in O(log n) over the interval tree.
 *
 * Counters: every stream has its own (in its pool) and every file keeps
 * totals over all its streams, including destroyed ones, both under the
 * file's pool_totals_lock so that one change updates both at once.
 *
 * Locking: &vnpu_pool.lock, then &vnpu_vm.lock, then the file's
 * pool_totals_lock (a spinlock). Mapping references may be dropped under
 * the pool lock (the VA space lock comes after it); a reference that may
 * be a buffer's last is dropped after the pool lock is released, to keep
 * freeing a buffer out of it.
 */
#include <linux/interval_tree_generic.h>
#include <linux/overflow.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <drm/drm_file.h>

#include "vnpu_drv.h"
#include "vnpu_gem.h"
#include "vnpu_pool.h"
#include "vnpu_stream.h"
#include "vnpu_vm.h"

/**
 * struct vnpu_pool_range - one bound range
 * @rb: node in &vnpu_pool.ranges
 * @start: first VA
 * @last: last VA (inclusive)
 * @subtree_last: interval tree bookkeeping
 * @mapping: the buffer's mapping in the file's VA space, referenced
 */
struct vnpu_pool_range {
	struct rb_node rb;
	u64 start;
	u64 last;
	u64 subtree_last;
	struct vnpu_mapping *mapping;
};

#define VNPU_RANGE_START(r) ((r)->start)
#define VNPU_RANGE_LAST(r) ((r)->last)

INTERVAL_TREE_DEFINE(struct vnpu_pool_range, rb, u64, subtree_last,
		     VNPU_RANGE_START, VNPU_RANGE_LAST, static, vnpu_range_tree)

static u64 vnpu_range_size(const struct vnpu_pool_range *r)
{
	return r->last - r->start + 1;
}

/* Free a range that is out of its tree: drop its buffer reference. */
static void vnpu_range_free(struct vnpu_pool_range *r)
{
	atomic_dec(&r->mapping->bo->hazards.bindings);
	vnpu_mapping_put(r->mapping);
	kfree(r);
}

/* Bytes of [start, last] that @r covers. */
static u64 vnpu_range_overlap(const struct vnpu_pool_range *r, u64 start, u64 last)
{
	u64 lo = max(r->start, start), hi = min(r->last, last);

	return lo <= hi ? hi - lo + 1 : 0;
}

/**
 * vnpu_pool_init() - initialise an empty pool
 * @pool: the pool (zeroed)
 */
void vnpu_pool_init(struct vnpu_pool *pool)
{
	mutex_init(&pool->lock);
	pool->ranges = RB_ROOT_CACHED;
}

/**
 * vnpu_pool_fini() - release every range of a destroyed stream's pool
 * @pool: the pool
 * @vfile: the stream's file, whose totals stop counting the bytes
 *
 * Jobs that use the memory keep their own references. Later binds fail.
 */
void vnpu_pool_fini(struct vnpu_pool *pool, struct vnpu_file *vfile)
{
	struct vnpu_pool_range *r, *next;
	struct rb_root_cached ranges;

	mutex_lock(&pool->lock);
	pool->dead = true;
	ranges = pool->ranges;
	pool->ranges = RB_ROOT_CACHED;
	WRITE_ONCE(pool->num_ranges, 0);
	spin_lock(&vfile->pool_totals_lock);
	vfile->pool_totals.bytes_bound -= pool->stats.bytes_bound;
	pool->stats.bytes_bound = 0;
	spin_unlock(&vfile->pool_totals_lock);
	mutex_unlock(&pool->lock);

	rbtree_postorder_for_each_entry_safe(r, next, &ranges.rb_root, rb)
		vnpu_range_free(r);
}

/**
 * vnpu_pool_resolve_locked() - find the pool range that holds a workspace
 * @pool: the pool, with @pool->lock held
 * @va: start of the workspace
 * @len: its length, nonzero
 * @mapping: out, the range's mapping with a new reference for the caller
 * @offset: out, offset of @va in the mapping's buffer
 *
 * Works whether or not the buffer's handle is still open.
 *
 * Return: 0; -EOVERFLOW if the range wraps; -ENOENT if no single bound
 * range holds all of [@va, @va + @len).
 */
int vnpu_pool_resolve_locked(struct vnpu_pool *pool, u64 va, u64 len,
			     struct vnpu_mapping **mapping, u64 *offset)
{
	struct vnpu_pool_range *r;
	u64 last;

	lockdep_assert_held(&pool->lock);
	if (check_add_overflow(va, len - 1, &last))
		return -EOVERFLOW;
	/* The lowest range overlapping the workspace must hold all of it. */
	r = vnpu_range_tree_iter_first(&pool->ranges, va, last);
	if (!r || r->start > va || r->last < last)
		return -ENOENT;
	*mapping = vnpu_mapping_get(r->mapping);
	*offset = va - vnpu_mapping_va(r->mapping);
	return 0;
}

/**
 * vnpu_pool_stats() - snapshot of a stream's counters
 * @pool: the stream's pool
 * @vfile: the stream's file
 * @stats: out
 */
void vnpu_pool_stats(struct vnpu_pool *pool, struct vnpu_file *vfile,
		     struct drm_vnpu_pool_stats *stats)
{
	spin_lock(&vfile->pool_totals_lock);
	*stats = pool->stats;
	spin_unlock(&vfile->pool_totals_lock);
}

/* A bind (@bind) or unbind that changed the bound bytes by @bytes. */
static void vnpu_pool_count_binding(struct vnpu_pool *pool, struct vnpu_file *vfile,
				    bool bind, s64 bytes)
{
	struct drm_vnpu_pool_stats *s = &pool->stats, *t = &vfile->pool_totals;

	spin_lock(&vfile->pool_totals_lock);
	if (bind) {
		s->binds++;
		t->binds++;
	} else {
		s->unbinds++;
		t->unbinds++;
	}
	s->bytes_bound += bytes;
	t->bytes_bound += bytes;
	spin_unlock(&vfile->pool_totals_lock);
}

/**
 * vnpu_pool_count_submit() - count a job that was queued
 * @pool: its stream's pool
 * @vfile: its file
 * @ws_bytes: the workspace sizes of its operator tasks, summed
 * @ws_tasks: its operator tasks with a nonzero workspace
 * @hazards_serialized: its operator tasks that now wait for another
 *	stream's job
 */
void vnpu_pool_count_submit(struct vnpu_pool *pool, struct vnpu_file *vfile,
			    u64 ws_bytes, u32 ws_tasks, u32 hazards_serialized)
{
	struct drm_vnpu_pool_stats *s = &pool->stats, *t = &vfile->pool_totals;

	if (!ws_tasks && !hazards_serialized)
		return;
	spin_lock(&vfile->pool_totals_lock);
	s->ws_bytes_used += ws_bytes;
	t->ws_bytes_used += ws_bytes;
	s->ws_tasks += ws_tasks;
	t->ws_tasks += ws_tasks;
	s->hazards_serialized += hazards_serialized;
	t->hazards_serialized += hazards_serialized;
	spin_unlock(&vfile->pool_totals_lock);
}

/**
 * vnpu_pool_count_rejected() - count a submit a strict stream refused
 * @pool: the stream's pool
 * @vfile: its file
 * @hazards: operator tasks of the refused job whose workspace collided
 */
void vnpu_pool_count_rejected(struct vnpu_pool *pool, struct vnpu_file *vfile,
			      u32 hazards)
{
	spin_lock(&vfile->pool_totals_lock);
	pool->stats.hazards_rejected += hazards;
	vfile->pool_totals.hazards_rejected += hazards;
	spin_unlock(&vfile->pool_totals_lock);
}

/**
 * vnpu_pool_show_ranges() - list a pool's ranges (debugfs)
 * @m: where to print
 * @pool: the pool
 * @indent: printed before each line
 */
void vnpu_pool_show_ranges(struct seq_file *m, struct vnpu_pool *pool,
			   const char *indent)
{
	struct vnpu_pool_range *r;
	bool closed;

	mutex_lock(&pool->lock);
	for (r = vnpu_range_tree_iter_first(&pool->ranges, 0, U64_MAX); r;
	     r = vnpu_range_tree_iter_next(r, 0, U64_MAX)) {
		mutex_lock(&r->mapping->vm->lock);
		closed = r->mapping->closed;
		mutex_unlock(&r->mapping->vm->lock);
		seq_printf(m, "%srange\t0x%llx\t%llu%s\n", indent, r->start,
			   vnpu_range_size(r), closed ? "\tclosed" : "");
	}
	mutex_unlock(&pool->lock);
}

/* ---------------------------------------------------------------- bind */

/*
 * Add [@va, @va + @size) to @pool, merging it with the ranges of the same
 * buffer it overlaps or touches. Returns 0 also when it was bound already.
 */
static int vnpu_pool_bind(struct vnpu_pool *pool, struct vnpu_file *vfile,
			  u64 va, u64 size)
{
	struct vnpu_pool_range *new, *r, *next;
	struct vnpu_mapping *mapping;
	u64 offset, last, lo, hi, added;
	u32 merging = 0;
	int ret;

	new = kzalloc(sizeof(*new), GFP_KERNEL);
	if (!new)
		return -ENOMEM;

	mutex_lock(&pool->lock);
	if (pool->dead) {
		ret = -ENOENT;
		goto out_unlock;
	}
	/* -EOVERFLOW for a wrapping range, -ENXIO unless in one live buffer. */
	ret = vnpu_vm_resolve(vfile->vm, va, size, &mapping, &offset);
	if (ret)
		goto out_unlock;
	last = va + size - 1;

	/*
	 * First see what it merges with: touching ranges of other buffers
	 * stay apart. (va - 1 and last + 1 are inside the VA window's
	 * bounds, so they do not wrap.)
	 */
	added = size;
	for (r = vnpu_range_tree_iter_first(&pool->ranges, va - 1, last + 1); r;
	     r = vnpu_range_tree_iter_next(r, va - 1, last + 1)) {
		if (r->mapping != mapping)
			continue;
		merging++;
		added -= vnpu_range_overlap(r, va, last);
	}
	if (!added) {
		/* Ranges of a buffer never touch: it lies in one range already. */
		ret = 0;
		goto out_put;
	}
	if (pool->num_ranges - merging + 1 > VNPU_MAX_POOL_RANGES) {
		ret = -ENOSPC;
		goto out_put;
	}

	lo = va;
	hi = last;
	for (r = vnpu_range_tree_iter_first(&pool->ranges, va - 1, last + 1); r; r = next) {
		next = vnpu_range_tree_iter_next(r, va - 1, last + 1);
		if (r->mapping != mapping)
			continue;
		lo = min(lo, r->start);
		hi = max(hi, r->last);
		vnpu_range_tree_remove(r, &pool->ranges);
		/* The new range holds the same mapping: this is never its last reference. */
		vnpu_range_free(r);
	}
	new->start = lo;
	new->last = hi;
	new->mapping = mapping;
	atomic_inc(&mapping->bo->hazards.bindings);
	vnpu_range_tree_insert(new, &pool->ranges);
	WRITE_ONCE(pool->num_ranges, pool->num_ranges - merging + 1);
	vnpu_pool_count_binding(pool, vfile, true, added);
	mutex_unlock(&pool->lock);
	return 0;

out_put:
	mutex_unlock(&pool->lock);
	vnpu_mapping_put(mapping);
	kfree(new);
	return ret;
out_unlock:
	mutex_unlock(&pool->lock);
	kfree(new);
	return ret;
}

/* The shared recipe of POOL_BIND and POOL_UNBIND: check, find the stream, act. */
static int vnpu_pool_ioctl(struct drm_file *file, struct drm_vnpu_pool_bind *args,
			   int (*act)(struct vnpu_pool *pool, struct vnpu_file *vfile,
				      u64 va, u64 size))
{
	struct vnpu_file *vfile = to_vnpu_file(file);
	struct vnpu_stream *stream;
	int ret;

	if (args->flags || !args->size)
		return -EINVAL;
	stream = vnpu_stream_lookup(vfile, args->stream_id);
	if (!stream)
		return -ENOENT;
	ret = act(&stream->pool, vfile, args->va, args->size);
	vnpu_stream_put(stream);
	return ret;
}

/**
 * vnpu_ioctl_pool_bind() - DRM_IOCTL_VNPU_POOL_BIND
 * @drm: device
 * @data: struct drm_vnpu_pool_bind
 * @file: caller
 *
 * Return: 0, or -EINVAL (flags, size 0), -ENOENT (stream), -EOVERFLOW,
 * -ENXIO (range), -ENOSPC (too many ranges), -ENOMEM; nothing changes on
 * error.
 */
int vnpu_ioctl_pool_bind(struct drm_device *drm, void *data, struct drm_file *file)
{
	return vnpu_pool_ioctl(file, data, vnpu_pool_bind);
}

/* ---------------------------------------------------------------- unbind */

/*
 * Remove [@va, @va + @size), which must lie inside one bound range, from
 * @pool. A range cut in the middle becomes two.
 */
static int vnpu_pool_unbind(struct vnpu_pool *pool, struct vnpu_file *vfile,
			    u64 va, u64 size)
{
	struct vnpu_pool_range *r, *split, *gone = NULL;
	u64 last;
	int ret = 0;

	split = kzalloc(sizeof(*split), GFP_KERNEL);
	if (!split)
		return -ENOMEM;

	mutex_lock(&pool->lock);
	if (pool->dead) {
		ret = -ENOENT;
		goto out_unlock;
	}
	if (check_add_overflow(va, size - 1, &last)) {
		ret = -EOVERFLOW;
		goto out_unlock;
	}
	r = vnpu_range_tree_iter_first(&pool->ranges, va, last);
	if (!r || r->start > va || r->last < last) {
		ret = -ENOENT;
		goto out_unlock;
	}

	if (r->start < va && r->last > last) {
		if (pool->num_ranges >= VNPU_MAX_POOL_RANGES) {
			ret = -ENOSPC;
			goto out_unlock;
		}
		vnpu_range_tree_remove(r, &pool->ranges);
		split->start = last + 1;
		split->last = r->last;
		split->mapping = vnpu_mapping_get(r->mapping);
		atomic_inc(&split->mapping->bo->hazards.bindings);
		r->last = va - 1;
		vnpu_range_tree_insert(r, &pool->ranges);
		vnpu_range_tree_insert(split, &pool->ranges);
		WRITE_ONCE(pool->num_ranges, pool->num_ranges + 1);
		split = NULL;
	} else if (r->start == va && r->last == last) {
		vnpu_range_tree_remove(r, &pool->ranges);
		WRITE_ONCE(pool->num_ranges, pool->num_ranges - 1);
		gone = r;
	} else {
		/* Cut off at one end. */
		vnpu_range_tree_remove(r, &pool->ranges);
		if (r->start == va)
			r->start = last + 1;
		else
			r->last = va - 1;
		vnpu_range_tree_insert(r, &pool->ranges);
	}
	vnpu_pool_count_binding(pool, vfile, false, -(s64)size);

out_unlock:
	mutex_unlock(&pool->lock);
	/* Possibly the last reference to the buffer: outside the lock. */
	if (gone)
		vnpu_range_free(gone);
	kfree(split);
	return ret;
}

/**
 * vnpu_ioctl_pool_unbind() - DRM_IOCTL_VNPU_POOL_UNBIND
 * @drm: device
 * @data: struct drm_vnpu_pool_bind
 * @file: caller
 *
 * Return: 0, or -EINVAL (flags, size 0), -ENOENT (stream, or the range is
 * not all inside one bound range), -EOVERFLOW, -ENOSPC (a split would
 * exceed VNPU_MAX_POOL_RANGES), -ENOMEM; nothing changes on error.
 */
int vnpu_ioctl_pool_unbind(struct drm_device *drm, void *data, struct drm_file *file)
{
	return vnpu_pool_ioctl(file, data, vnpu_pool_unbind);
}

/* ---------------------------------------------------------------- query */

/* Copy up to @cap ranges of @pool into @out; returns how many are bound. */
static u32 vnpu_pool_snapshot(struct vnpu_pool *pool, struct drm_vnpu_pool_range *out,
			      u32 cap)
{
	struct vnpu_pool_range *r;
	u32 n = 0;

	mutex_lock(&pool->lock);
	for (r = vnpu_range_tree_iter_first(&pool->ranges, 0, U64_MAX); r && n < cap;
	     r = vnpu_range_tree_iter_next(r, 0, U64_MAX), n++) {
		out[n].va = r->start;
		out[n].size = vnpu_range_size(r);
	}
	n = pool->num_ranges;
	mutex_unlock(&pool->lock);
	return n;
}

/**
 * vnpu_ioctl_pool_query() - DRM_IOCTL_VNPU_POOL_QUERY
 * @drm: device
 * @data: struct drm_vnpu_pool_query
 * @file: caller
 *
 * Return: 0, or -EINVAL (flags, pad), -ENOENT (stream), -EFAULT (ranges
 * pointer), -ENOMEM.
 */
int vnpu_ioctl_pool_query(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct vnpu_file *vfile = to_vnpu_file(file);
	struct drm_vnpu_pool_query *args = data;
	struct drm_vnpu_pool_range *ranges = NULL;
	struct vnpu_stream *stream;
	u32 cap, count;
	int ret = 0;

	if (args->flags || args->pad)
		return -EINVAL;

	if (!args->stream_id) {
		spin_lock(&vfile->pool_totals_lock);
		args->stats = vfile->pool_totals;
		spin_unlock(&vfile->pool_totals_lock);
		args->range_count = 0;
		return 0;
	}

	stream = vnpu_stream_lookup(vfile, args->stream_id);
	if (!stream)
		return -ENOENT;

	cap = min_t(u32, args->range_count, VNPU_MAX_POOL_RANGES);
	if (cap) {
		ranges = kvmalloc_array(cap, sizeof(*ranges), GFP_KERNEL);
		if (!ranges) {
			ret = -ENOMEM;
			goto out_put;
		}
	}
	count = vnpu_pool_snapshot(&stream->pool, ranges, cap);
	if (copy_to_user(u64_to_user_ptr(args->ranges), ranges,
			 array_size(min(cap, count), sizeof(*ranges)))) {
		ret = -EFAULT;
		goto out_free;
	}
	vnpu_pool_stats(&stream->pool, vfile, &args->stats);
	args->range_count = count;
out_free:
	kvfree(ranges);
out_put:
	vnpu_stream_put(stream);
	return ret;
}
