// SPDX-License-Identifier: GPL-2.0
/* struct drm_driver still has a date string. */
#include <drm/drm_drv.h>

static const struct drm_driver vnpu_probe_driver = { .date = "20261129" };
const struct drm_driver *vnpu_probe_get(void);
const struct drm_driver *vnpu_probe_get(void)
{
	return &vnpu_probe_driver;
}
