// SPDX-License-Identifier: GPL-2.0
/*
 * timedout_job can answer DRM_GPU_SCHED_STAT_NO_HANG (6.17): the scheduler
 * then puts the job back on its pending list itself.
 */
#include <drm/gpu_scheduler.h>

int vnpu_probe_no_hang(void);
int vnpu_probe_no_hang(void)
{
	return DRM_GPU_SCHED_STAT_NO_HANG;
}
