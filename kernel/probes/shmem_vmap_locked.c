// SPDX-License-Identifier: GPL-2.0
/* The shmem helper's vmap must be called with the reservation lock held. */
#include <drm/drm_gem_shmem_helper.h>

void *vnpu_probe_fn = drm_gem_shmem_vmap_locked;
