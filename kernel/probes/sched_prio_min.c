// SPDX-License-Identifier: GPL-2.0
/* The lowest drm_sched priority is DRM_SCHED_PRIORITY_MIN (renamed _LOW in 6.8). */
#include <drm/gpu_scheduler.h>

int vnpu_probe_prio(void);
int vnpu_probe_prio(void)
{
	return DRM_SCHED_PRIORITY_MIN;
}
