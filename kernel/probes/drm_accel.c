// SPDX-License-Identifier: GPL-2.0
/* The kernel has compute accelerator nodes (/dev/accel) enabled. */
#include <drm/drm_accel.h>

#if !IS_ENABLED(CONFIG_DRM_ACCEL)
#error "CONFIG_DRM_ACCEL is off"
#endif
