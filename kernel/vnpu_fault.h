/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fault injection points (not ABI): places where a test makes the device
 * fail on purpose. On kernels with CONFIG_FAULT_INJECTION_DEBUG_FS each is
 * the kernel's struct fault_attr, in debugfs under the device's directory
 * with that facility's usual files (probability, interval, times, space,
 * task-filter, ...; Documentation/fault-injection/). Elsewhere (stock
 * distribution kernels) a small stand-in offers the three files tests use
 * (probability, interval, times, with the same meaning), so the same tests
 * run on both.
 */
#ifndef VNPU_FAULT_H
#define VNPU_FAULT_H

#include <linux/atomic.h>
#include <linux/types.h>

#ifdef CONFIG_FAULT_INJECTION_DEBUG_FS
#include <linux/fault-inject.h>
#endif

struct dentry;

/**
 * struct vnpu_fault - one fault injection point
 * @attr: the kernel's fault attribute
 * @probability: stand-in: percent of the calls that fail (0-100)
 * @interval: stand-in: only every interval-th call may fail (0, 1: all)
 * @times: stand-in: failures left; -1 for no limit
 * @count: stand-in: calls seen, for @interval
 *
 * The stand-in's fields are read and written without a lock: each is a
 * single word, and a test arms a point before the calls it aims at.
 */
struct vnpu_fault {
#ifdef CONFIG_FAULT_INJECTION_DEBUG_FS
	struct fault_attr attr;
#else
	u64 probability;
	u64 interval;
	atomic_t times;
	atomic_long_t count;
#endif
};

void vnpu_fault_init(struct vnpu_fault *fault);
/* Should the call at this point fail? */
bool vnpu_fault_hit(struct vnpu_fault *fault);
/* Publish @fault as directory @name under @parent. */
void vnpu_fault_debugfs(struct vnpu_fault *fault, const char *name, struct dentry *parent);

#endif /* VNPU_FAULT_H */
