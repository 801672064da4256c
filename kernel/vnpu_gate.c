// SPDX-License-Identifier: GPL-2.0
/*
 * Gates: a job's in-fences folded into one fence the stream controls.
 *
 * A job's in-fences could be handed to drm_sched one by one, but then a
 * stream could not be destroyed while one of its queued jobs waits for a
 * fence that takes long (another stream's parked wait) or never comes: the
 * 6.1 scheduler, when it kills the queued jobs of a destroyed entity, first
 * waits for each job's dependencies to signal, uninterruptibly. So a job
 * with in-fences gets a single dependency instead, its gate: a fence that
 * signals once every in-fence has, or right away, with -ECANCELED, when
 * the stream is destroyed (vnpu_gates_cancel()). A cancelled job never
 * runs (its ring skips it), so opening its gate early is safe.
 *
 * A gate's fence has its own context: gates of one stream open in whatever
 * order their in-fences signal, so they could not share one in order.
 */
#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/overflow.h>
#include <linux/slab.h>

#include "vnpu_drv.h"
#include "vnpu_gate.h"

#define VNPU_GATE_OPENED 0

static const char *vnpu_gate_driver_name(struct dma_fence *fence)
{
	return VNPU_DRIVER_NAME;
}

static const char *vnpu_gate_timeline_name(struct dma_fence *fence)
{
	return "vnpu-gate";
}

static void vnpu_gate_release(struct dma_fence *fence)
{
	struct vnpu_gate *gate = container_of(fence, struct vnpu_gate, base);
	u32 i;

	for (i = 0; i < gate->num_waits; i++)
		dma_fence_put(gate->waits[i].fence);
	dma_fence_free(&gate->base);
}

static const struct dma_fence_ops vnpu_gate_ops = {
	.get_driver_name = vnpu_gate_driver_name,
	.get_timeline_name = vnpu_gate_timeline_name,
	.release = vnpu_gate_release,
};

/**
 * vnpu_gate_list_init() - initialise a stream's gate list
 * @list: the list
 */
void vnpu_gate_list_init(struct vnpu_gate_list *list)
{
	spin_lock_init(&list->lock);
	INIT_LIST_HEAD(&list->gates);
}

/**
 * vnpu_gate_create() - a closed gate for up to @max_fences in-fences
 * @max_fences: in-fences that will be added, at least one
 *
 * Return: the gate (its fence holds one reference, the caller's), or NULL.
 */
struct vnpu_gate *vnpu_gate_create(u32 max_fences)
{
	struct vnpu_gate *gate;

	gate = kzalloc(struct_size(gate, waits, max_fences), GFP_KERNEL);
	if (!gate)
		return NULL;
	spin_lock_init(&gate->lock);
	INIT_LIST_HEAD(&gate->link);
	dma_fence_init(&gate->base, &vnpu_gate_ops, &gate->lock,
		       dma_fence_context_alloc(1), 1);
	return gate;
}

/**
 * vnpu_gate_add_fence() - make the gate wait for one more fence
 * @gate: a gate not yet armed
 * @fence: the fence; the gate takes over the caller's reference
 */
void vnpu_gate_add_fence(struct vnpu_gate *gate, struct dma_fence *fence)
{
	struct vnpu_gate_wait *wait = &gate->waits[gate->num_waits++];

	wait->fence = fence;
	wait->gate = gate;
}

/* Signal the gate, once: whoever sets VNPU_GATE_OPENED first does it. */
static void vnpu_gate_open(struct vnpu_gate *gate)
{
	unsigned long flags;

	if (test_and_set_bit(VNPU_GATE_OPENED, &gate->flags))
		return;
	spin_lock_irqsave(&gate->list->lock, flags);
	list_del_init(&gate->link);
	spin_unlock_irqrestore(&gate->list->lock, flags);
	dma_fence_signal(&gate->base);
}

static void vnpu_gate_fence_signalled(struct dma_fence *fence, struct dma_fence_cb *cb)
{
	struct vnpu_gate_wait *wait = container_of(cb, struct vnpu_gate_wait, cb);

	if (atomic_dec_and_test(&wait->gate->pending))
		vnpu_gate_open(wait->gate);
}

/**
 * vnpu_gate_arm() - start waiting for the in-fences
 * @gate: the gate, with all its fences added
 * @list: the stream's gate list; the gate stays on it until it opens
 *
 * The gate opens as soon as every in-fence has signalled, possibly before
 * this returns. Called under the stream's submit lock, after the checks
 * that could still fail the submit.
 */
void vnpu_gate_arm(struct vnpu_gate *gate, struct vnpu_gate_list *list)
{
	u32 i;

	gate->list = list;
	atomic_set(&gate->pending, gate->num_waits + 1);
	spin_lock_irq(&list->lock);
	list_add_tail(&gate->link, &list->gates);
	spin_unlock_irq(&list->lock);

	for (i = 0; i < gate->num_waits; i++) {
		struct vnpu_gate_wait *wait = &gate->waits[i];

		/* -ENOENT: signalled already, nothing to wait for. */
		if (dma_fence_add_callback(wait->fence, &wait->cb, vnpu_gate_fence_signalled))
			atomic_dec(&gate->pending);
	}
	if (atomic_dec_and_test(&gate->pending))
		vnpu_gate_open(gate);
}

/**
 * vnpu_gate_abandon() - drop a gate that was never armed
 * @gate: the gate; loses the caller's reference
 *
 * For a submit that failed after the gate was made: the gate is signalled
 * (cancelled) so that it is released like any other fence.
 */
void vnpu_gate_abandon(struct vnpu_gate *gate)
{
	dma_fence_set_error(&gate->base, -ECANCELED);
	dma_fence_signal(&gate->base);
	dma_fence_put(&gate->base);
}

/**
 * vnpu_gates_cancel() - open every gate of a stream that is going away
 * @list: the stream's gate list; nothing may arm gates on it any more
 *
 * Each gate still closed stops waiting (its callbacks are removed, so no
 * callback into this module is left on a fence that may never signal) and
 * is signalled with -ECANCELED. Does not sleep.
 */
void vnpu_gates_cancel(struct vnpu_gate_list *list)
{
	struct vnpu_gate *gate, *next;
	LIST_HEAD(closed);
	u32 i;

	spin_lock_irq(&list->lock);
	list_for_each_entry_safe(gate, next, &list->gates, link) {
		/* A gate an in-fence callback is opening right now is left to it. */
		if (test_and_set_bit(VNPU_GATE_OPENED, &gate->flags))
			continue;
		dma_fence_get(&gate->base);
		list_move_tail(&gate->link, &closed);
	}
	spin_unlock_irq(&list->lock);

	list_for_each_entry_safe(gate, next, &closed, link) {
		/*
		 * Removing a callback waits for one that is running (both hold
		 * the fence's lock), so none is left behind afterwards.
		 */
		for (i = 0; i < gate->num_waits; i++)
			dma_fence_remove_callback(gate->waits[i].fence, &gate->waits[i].cb);
		list_del_init(&gate->link);
		dma_fence_set_error(&gate->base, -ECANCELED);
		dma_fence_signal(&gate->base);
		dma_fence_put(&gate->base);
	}
}
