/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pools: device memory bound to a stream as its operators' workspace.
 */
#ifndef VNPU_POOL_H
#define VNPU_POOL_H

#include <linux/mutex.h>
#include <linux/rbtree.h>
#include <linux/types.h>

#include "vnpu_drm.h"

struct drm_device;
struct drm_file;
struct seq_file;
struct vnpu_device;
struct vnpu_file;
struct vnpu_mapping;

/**
 * struct vnpu_pool - the pool of one stream
 * @lock: protects @ranges, @num_ranges (written) and @dead; taken before
 *	a VA space's lock (&vnpu_vm.lock), never inside one
 * @ranges: the bound ranges, disjoint, by VA (an interval tree of struct
 *	vnpu_pool_range); ranges of one buffer that overlap or touch are
 *	merged, so two ranges only touch if they lie in different buffers
 * @num_ranges: entries in @ranges (also read locklessly, for statistics)
 * @dead: the stream is destroyed; the pool is empty and stays so
 * @stats: the stream's counters; protected by the file's
 *	&vnpu_file.pool_totals_lock, so that they and the file totals change
 *	together
 */
struct vnpu_pool {
	struct mutex lock;	/* the ranges and counters */
	struct rb_root_cached ranges;
	u32 num_ranges;
	bool dead;
	struct drm_vnpu_pool_stats stats;
};

void vnpu_pool_init(struct vnpu_pool *pool);
void vnpu_pool_fini(struct vnpu_pool *pool, struct vnpu_file *vfile);
int vnpu_pool_resolve_locked(struct vnpu_pool *pool, u64 va, u64 len,
			     struct vnpu_mapping **mapping, u64 *offset);
void vnpu_pool_stats(struct vnpu_pool *pool, struct vnpu_file *vfile,
		     struct drm_vnpu_pool_stats *stats);
void vnpu_pool_count_submit(struct vnpu_pool *pool, struct vnpu_file *vfile,
			    u64 ws_bytes, u32 ws_tasks, u32 hazards_serialized);
void vnpu_pool_count_rejected(struct vnpu_pool *pool, struct vnpu_file *vfile,
			      u32 hazards);
void vnpu_pool_show_ranges(struct seq_file *m, struct vnpu_pool *pool,
			   const char *indent);
void vnpu_debugfs_pools_init(struct vnpu_device *vdev);

int vnpu_ioctl_pool_bind(struct drm_device *drm, void *data, struct drm_file *file);
int vnpu_ioctl_pool_unbind(struct drm_device *drm, void *data, struct drm_file *file);
int vnpu_ioctl_pool_query(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* VNPU_POOL_H */
