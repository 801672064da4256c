// SPDX-License-Identifier: GPL-2.0
/*
 * Dependencies: the fences a job waits for before it may run.
 *
 * A job's in-sync fences and the fences of other streams' jobs whose
 * workspace it collides with (vnpu_hazard.c) go into one set. The submit
 * arms the set (a callback on every fence) before it queues the job and
 * releases it after: until then the set holds one count of its own, so
 * the job cannot be found ready before it is on its stream. When the last
 * fence signals, the set calls back into the scheduler (vnpu_sched.c),
 * which makes the job runnable once it is its stream's head.
 *
 * A job that ends before its fences signal (its stream is destroyed or
 * fails, the engine goes away) disarms its set: the callbacks are removed,
 * so nothing is left on a fence that may signal much later, or never.
 */
#include <linux/overflow.h>
#include <linux/slab.h>

#include "vnpu_deps.h"

/**
 * vnpu_deps_reserve() - make room for more fences in a set
 * @deps: in, the set or NULL; out, the set, perhaps moved
 * @more: fences about to be added
 *
 * Only while the set is not armed: nothing points into it yet.
 *
 * Return: 0 or -ENOMEM (the set is unchanged).
 */
int vnpu_deps_reserve(struct vnpu_deps **deps, u32 more)
{
	struct vnpu_deps *old = *deps, *grown;
	u32 count = old ? old->count : 0, capacity;

	if (old && old->capacity - count >= more)
		return 0;
	capacity = count + more;
	grown = krealloc(old, struct_size(grown, dep, capacity), GFP_KERNEL);
	if (!grown)
		return -ENOMEM;
	grown->count = count;
	grown->capacity = capacity;
	grown->armed = false;
	*deps = grown;
	return 0;
}

/**
 * vnpu_deps_has() - is a fence in the set already?
 * @deps: the set, or NULL
 * @fence: the fence
 *
 * Return: true if @fence was added before.
 */
bool vnpu_deps_has(const struct vnpu_deps *deps, const struct dma_fence *fence)
{
	u32 i;

	for (i = 0; deps && i < deps->count; i++)
		if (deps->dep[i].fence == fence)
			return true;
	return false;
}

/**
 * vnpu_deps_add() - add a fence to a set that has room for it
 * @deps: the set, not armed
 * @fence: the fence; the set takes over the caller's reference
 */
void vnpu_deps_add(struct vnpu_deps *deps, struct dma_fence *fence)
{
	struct vnpu_dep *dep = &deps->dep[deps->count++];

	dep->fence = fence;
	dep->deps = deps;
}

static void vnpu_deps_put_count(struct vnpu_deps *deps)
{
	if (atomic_dec_and_test(&deps->pending))
		deps->met(deps->priv);
}

static void vnpu_deps_signalled(struct dma_fence *fence, struct dma_fence_cb *cb)
{
	vnpu_deps_put_count(container_of(cb, struct vnpu_dep, cb)->deps);
}

/**
 * vnpu_deps_arm() - start waiting for the fences
 * @deps: the set, with all its fences added
 * @met: called once they have all signalled (at the earliest from
 *	vnpu_deps_release())
 * @priv: argument of @met
 */
void vnpu_deps_arm(struct vnpu_deps *deps, vnpu_deps_met_fn met, void *priv)
{
	u32 i;

	deps->met = met;
	deps->priv = priv;
	atomic_set(&deps->pending, deps->count + 1);
	deps->armed = true;
	for (i = 0; i < deps->count; i++) {
		struct vnpu_dep *dep = &deps->dep[i];

		/* -ENOENT: signalled already. */
		if (dma_fence_add_callback(dep->fence, &dep->cb, vnpu_deps_signalled))
			atomic_dec(&deps->pending);
	}
}

/**
 * vnpu_deps_release() - drop the set's own count, taken by vnpu_deps_arm()
 * @deps: the set, armed; its owner can now be found by @met
 *
 * Calls @met right here if every fence has signalled already.
 */
void vnpu_deps_release(struct vnpu_deps *deps)
{
	vnpu_deps_put_count(deps);
}

/**
 * vnpu_deps_disarm() - stop waiting
 * @deps: the set, or NULL; armed or not
 *
 * Removes every callback. Removing one waits for it if it is running
 * (both hold the fence's lock), so no callback runs after this returns.
 * @met may have been called, or be called by nobody any more. Must not be
 * called under a lock @met takes.
 */
void vnpu_deps_disarm(struct vnpu_deps *deps)
{
	u32 i;

	if (!deps || !deps->armed)
		return;
	for (i = 0; i < deps->count; i++)
		dma_fence_remove_callback(deps->dep[i].fence, &deps->dep[i].cb);
	deps->armed = false;
}

/**
 * vnpu_deps_free() - free a set that is not armed (any more)
 * @deps: the set, or NULL
 *
 * A set whose fences have all signalled has no callback left, so it may
 * be freed without being disarmed.
 */
void vnpu_deps_free(struct vnpu_deps *deps)
{
	u32 i;

	if (!deps)
		return;
	for (i = 0; i < deps->count; i++)
		dma_fence_put(deps->dep[i].fence);
	kfree(deps);
}
