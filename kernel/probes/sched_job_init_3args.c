// SPDX-License-Identifier: GPL-2.0
/* drm_sched_job_init(job, entity, owner), before job credits existed. */
#include <drm/gpu_scheduler.h>

_Static_assert(__builtin_types_compatible_p(typeof(&drm_sched_job_init),
		int (*)(struct drm_sched_job *, struct drm_sched_entity *, void *)),
	       "drm_sched_job_init takes three arguments");
