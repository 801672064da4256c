// SPDX-License-Identifier: GPL-2.0
/* timedout_job reports DRM_GPU_SCHED_STAT_NOMINAL (renamed RESET in 6.17). */
#include <drm/gpu_scheduler.h>

int vnpu_probe_stat(void);
int vnpu_probe_stat(void)
{
	return DRM_GPU_SCHED_STAT_NOMINAL;
}
