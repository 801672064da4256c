/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Dependencies: the fences a job waits for before it may run.
 */
#ifndef VNPU_DEPS_H
#define VNPU_DEPS_H

#include <linux/atomic.h>
#include <linux/dma-fence.h>
#include <linux/types.h>

struct vnpu_deps;

/**
 * typedef vnpu_deps_met_fn - called once every fence of a set has signalled
 * @priv: the set's owner (its job)
 *
 * Called from a fence callback, so in any context (possibly with
 * interrupts off), or from vnpu_deps_arm()'s caller.
 */
typedef void (*vnpu_deps_met_fn)(void *priv);

/**
 * struct vnpu_dep - one fence of a set
 * @cb: callback on @fence
 * @fence: the fence (referenced until the set is freed)
 * @deps: the set
 */
struct vnpu_dep {
	struct dma_fence_cb cb;
	struct dma_fence *fence;
	struct vnpu_deps *deps;
};

/**
 * struct vnpu_deps - a job's fences
 * @pending: fences not yet signalled, plus one until the set is released
 *	(vnpu_deps_release())
 * @met: called when @pending reaches zero
 * @priv: argument of @met
 * @armed: callbacks were added (vnpu_deps_arm())
 * @count: entries of @dep in use
 * @capacity: entries of @dep allocated
 * @dep: the fences
 *
 * Built before the job is queued (nothing else sees it then), armed and
 * released by the submit, disarmed by whoever ends the job early.
 */
struct vnpu_deps {
	atomic_t pending;
	vnpu_deps_met_fn met;
	void *priv;
	bool armed;
	u32 count;
	u32 capacity;
	struct vnpu_dep dep[];
};

int vnpu_deps_reserve(struct vnpu_deps **deps, u32 more);
bool vnpu_deps_has(const struct vnpu_deps *deps, const struct dma_fence *fence);
void vnpu_deps_add(struct vnpu_deps *deps, struct dma_fence *fence);
void vnpu_deps_arm(struct vnpu_deps *deps, vnpu_deps_met_fn met, void *priv);
void vnpu_deps_release(struct vnpu_deps *deps);
void vnpu_deps_disarm(struct vnpu_deps *deps);
void vnpu_deps_free(struct vnpu_deps *deps);

#endif /* VNPU_DEPS_H */
