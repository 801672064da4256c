/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Gates: one fence standing for all in-fences of a job, which the stream
 * can force open when it is destroyed.
 */
#ifndef VNPU_GATE_H
#define VNPU_GATE_H

#include <linux/dma-fence.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>

/**
 * struct vnpu_gate_list - the closed gates of a stream
 * @lock: protects @gates and the &vnpu_gate.link of every gate on it;
 *	taken from fence callbacks, so with interrupts off
 * @gates: gates armed and not yet opened
 */
struct vnpu_gate_list {
	spinlock_t lock;
	struct list_head gates;
};

/**
 * struct vnpu_gate_wait - one in-fence a gate waits for
 * @cb: callback on @fence
 * @fence: the in-fence (referenced until the gate is freed)
 * @gate: the gate
 */
struct vnpu_gate_wait {
	struct dma_fence_cb cb;
	struct dma_fence *fence;
	struct vnpu_gate *gate;
};

/**
 * struct vnpu_gate - a fence that signals once all of a job's in-fences
 *	have, or at once (with -ECANCELED) when the stream goes away
 * @base: the fence; the job's only scheduler dependency (first member:
 *	the fence is freed with dma_fence_free())
 * @lock: lock of @base
 * @flags: VNPU_GATE_OPENED once someone has decided to signal @base
 * @pending: in-fences still unsignalled, plus one until the gate is armed
 * @list: the stream's gate list, once armed
 * @link: entry in @list while armed and not opened
 * @num_waits: entries in @waits
 * @waits: the in-fences
 */
struct vnpu_gate {
	struct dma_fence base;
	spinlock_t lock;
	unsigned long flags;
	atomic_t pending;
	struct vnpu_gate_list *list;
	struct list_head link;
	u32 num_waits;
	struct vnpu_gate_wait waits[];
};

void vnpu_gate_list_init(struct vnpu_gate_list *list);
struct vnpu_gate *vnpu_gate_create(u32 max_fences);
void vnpu_gate_add_fence(struct vnpu_gate *gate, struct dma_fence *fence);
void vnpu_gate_arm(struct vnpu_gate *gate, struct vnpu_gate_list *list);
void vnpu_gate_abandon(struct vnpu_gate *gate);
void vnpu_gates_cancel(struct vnpu_gate_list *list);

#endif /* VNPU_GATE_H */
