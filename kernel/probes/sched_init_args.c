// SPDX-License-Identifier: GPL-2.0
/* drm_sched_init() takes a const struct drm_sched_init_args * (6.15, and backports). */
#include <drm/gpu_scheduler.h>

_Static_assert(__builtin_types_compatible_p(typeof(&drm_sched_init),
		int (*)(struct drm_gpu_scheduler *, const struct drm_sched_init_args *)),
	       "drm_sched_init takes an args struct");
