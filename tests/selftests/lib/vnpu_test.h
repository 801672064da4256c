/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the vnpu selftests: find and open vnpu nodes, and thin
 * wrappers over the ioctls that return 0 or -errno.
 */
#ifndef VNPU_TEST_H
#define VNPU_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vnpu_drm.h"

/* Open the render node of vnpu device @index (0-based); -1 if none. */
int vnpu_open_device(unsigned int index);
/* Number of vnpu devices present. */
unsigned int vnpu_count_devices(void);

/* ioctl that returns 0 or -errno (restarting on EINTR/EAGAIN like drmIoctl). */
int vnpu_ioctl(int fd, unsigned long request, void *arg);

int vnpu_get_param(int fd, uint32_t param, uint64_t *value);
int vnpu_bo_create(int fd, uint64_t size, uint32_t flags, uint32_t *handle, uint64_t *va);
int vnpu_bo_info(int fd, uint32_t handle, struct drm_vnpu_bo_info *info);
int vnpu_bo_close(int fd, uint32_t handle);
/* mmap a buffer for CPU access; NULL on failure. */
void *vnpu_bo_mmap(int fd, uint32_t handle, size_t size);

/* Read a module parameter of vnpu (from /sys/module/vnpu/parameters). */
bool vnpu_module_param(const char *name, unsigned long *value);
/* Write a module parameter; returns 0 or -errno. */
int vnpu_set_module_param(const char *name, unsigned long value);
/*
 * A job_timeout_ms for tests whose jobs wait on the CPU on purpose: their
 * outcome must not depend on how fast a loaded (TCG) guest gets to them.
 */
#define VNPU_HOUR_MS 3600000ul
/* Minor of the primary (card) node of device @index, whose number names its
 * debugfs directory; -1 if none. */
int vnpu_primary_minor(unsigned int index);
/* Write a value to a vnpu debugfs file of device @index; 0 or -errno. */
int vnpu_debugfs_write(unsigned int index, const char *file, const char *value);
/*
 * Arm fault injection point @point of device @index (a directory of its
 * debugfs: fail_bo_alloc, fail_job) so that the next @times calls through
 * it fail; 0 disarms it.
 */
int vnpu_fault_arm(unsigned int index, const char *point, int times);

#endif /* VNPU_TEST_H */
