// SPDX-License-Identifier: GPL-2.0
/* Each DRM minor has its own debugfs directory (struct drm_minor.debugfs_root). */
#include <drm/drm_file.h>

struct dentry *vnpu_probe_root(struct drm_minor *minor);
struct dentry *vnpu_probe_root(struct drm_minor *minor)
{
	return minor->debugfs_root;
}
