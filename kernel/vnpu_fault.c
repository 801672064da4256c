// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection points: the kernel's fault_attr where the kernel has it,
 * a stand-in with the same debugfs files (the ones tests use) where it has
 * not. See vnpu_fault.h.
 */
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/random.h>

#include "vnpu_fault.h"

#ifdef CONFIG_FAULT_INJECTION_DEBUG_FS

void vnpu_fault_init(struct vnpu_fault *fault)
{
	fault->attr = (struct fault_attr)FAULT_ATTR_INITIALIZER;
	/* Armed by a test; quiet: the failures are expected. */
	fault->attr.verbose = 0;
}

bool vnpu_fault_hit(struct vnpu_fault *fault)
{
	return should_fail(&fault->attr, 1);
}

void vnpu_fault_debugfs(struct vnpu_fault *fault, const char *name, struct dentry *parent)
{
	/* debugfs is best effort: a point without its files never fires. */
	(void)fault_create_debugfs_attr(name, parent, &fault->attr);
}

#else /* !CONFIG_FAULT_INJECTION_DEBUG_FS */

void vnpu_fault_init(struct vnpu_fault *fault)
{
	fault->probability = 0;
	fault->interval = 1;
	atomic_set(&fault->times, 1);
	atomic_long_set(&fault->count, 0);
}

bool vnpu_fault_hit(struct vnpu_fault *fault)
{
	u64 probability = READ_ONCE(fault->probability);
	u64 interval = READ_ONCE(fault->interval);
	int times;

	if (!probability)
		return false;
	if (interval > 1 && atomic_long_inc_return(&fault->count) % interval)
		return false;
	if (probability < 100 && get_random_u32() % 100 >= probability)
		return false;
	/* Take one of the failures left, unless there is no limit (-1). */
	times = atomic_read(&fault->times);
	do {
		if (!times)
			return false;
		if (times < 0)
			return true;
	} while (!atomic_try_cmpxchg(&fault->times, &times, times - 1));
	return true;
}

static int vnpu_fault_probability_set(void *data, u64 val)
{
	if (val > 100)
		return -EINVAL;
	WRITE_ONCE(*(u64 *)data, val);
	return 0;
}

static int vnpu_fault_u64_get(void *data, u64 *val)
{
	*val = READ_ONCE(*(u64 *)data);
	return 0;
}

static int vnpu_fault_interval_set(void *data, u64 val)
{
	WRITE_ONCE(*(u64 *)data, val);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(vnpu_fault_probability_fops, vnpu_fault_u64_get,
			 vnpu_fault_probability_set, "%llu\n");
DEFINE_DEBUGFS_ATTRIBUTE(vnpu_fault_interval_fops, vnpu_fault_u64_get,
			 vnpu_fault_interval_set, "%llu\n");

void vnpu_fault_debugfs(struct vnpu_fault *fault, const char *name, struct dentry *parent)
{
	struct dentry *dir = debugfs_create_dir(name, parent);

	debugfs_create_file_unsafe("probability", 0600, dir, &fault->probability,
				   &vnpu_fault_probability_fops);
	debugfs_create_file_unsafe("interval", 0600, dir, &fault->interval,
				   &vnpu_fault_interval_fops);
	debugfs_create_atomic_t("times", 0600, dir, &fault->times);
}

#endif /* CONFIG_FAULT_INJECTION_DEBUG_FS */
