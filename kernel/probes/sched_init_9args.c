// SPDX-License-Identifier: GPL-2.0
/* drm_sched_init() with nine positional arguments (vanilla 5.x to 6.6). */
#include <drm/gpu_scheduler.h>

_Static_assert(__builtin_types_compatible_p(typeof(&drm_sched_init),
		int (*)(struct drm_gpu_scheduler *, const struct drm_sched_backend_ops *,
			unsigned int, unsigned int, long, struct workqueue_struct *,
			atomic_t *, const char *, struct device *)),
	       "drm_sched_init takes nine arguments");
