/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cross-stream workspace hazards: which in-flight job of which stream uses
 * which part of a buffer as operator workspace.
 */
#ifndef VNPU_HAZARD_H
#define VNPU_HAZARD_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/rbtree.h>
#include <linux/types.h>

struct dma_fence;
struct vnpu_bo;
struct vnpu_device;
struct vnpu_deps;
struct vnpu_job;

/**
 * struct vnpu_hazard_set - the workspace-use records of one buffer
 * @tree: records by buffer offset (an interval tree)
 * @order: the same records, oldest first, for pruning
 * @count: records in @tree; written under the device's hazard lock, read
 *	locklessly as a hint ("does this buffer have records at all?")
 * @bindings: pool ranges of any stream of any file on this buffer; a
 *	workspace in a buffer with bindings is "bound memory" and recorded
 *
 * Embedded in &struct vnpu_bo. @tree, @order and @count are protected by
 * &vnpu_device.hazard_lock of the buffer's device, except when the buffer
 * is freed: then nothing else can reach them.
 */
struct vnpu_hazard_set {
	struct rb_root_cached tree;
	struct list_head order;
	u32 count;
	atomic_t bindings;
};

/**
 * struct vnpu_ws_use - an operator task's operand, as a buffer range
 * @bo: the buffer (alive: the job holds a reference on its mapping)
 * @start: first byte, as an offset in @bo
 * @last: last byte (inclusive)
 * @record: the buffer is bound memory: record this use at submit
 * @check: look for other streams' uses before queueing the job
 */
struct vnpu_ws_use {
	struct vnpu_bo *bo;
	u64 start;
	u64 last;
	bool record;
	bool check;
};

void vnpu_hazards_init(struct vnpu_device *vdev);
void vnpu_hazard_set_init(struct vnpu_hazard_set *set);
void vnpu_hazard_set_fini(struct vnpu_device *vdev, struct vnpu_hazard_set *set);

int vnpu_hazard_prepare(struct vnpu_job *job);
void vnpu_hazard_job_fini(struct vnpu_job *job);
int vnpu_hazard_check_locked(struct vnpu_job *job, u64 owner, bool strict,
			     struct vnpu_deps **deps, u32 *hazards);
void vnpu_hazard_record_locked(struct vnpu_job *job, u64 owner, struct dma_fence *fence);

#endif /* VNPU_HAZARD_H */
