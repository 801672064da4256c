/* SPDX-License-Identifier: GPL-2.0 */
/*
 * debugfs: fault injection and test hooks (not ABI).
 */
#ifndef VNPU_DEBUGFS_H
#define VNPU_DEBUGFS_H

struct drm_minor;

void vnpu_debugfs_init(struct drm_minor *minor);

#endif /* VNPU_DEBUGFS_H */
