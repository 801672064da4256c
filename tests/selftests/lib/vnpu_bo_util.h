/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Buffer helpers for the vnpu selftests and benchmarks: user memory, PRIME,
 * fdinfo and VmPin readers, zlib's CRC-32, and the debugfs test hooks that
 * resolve device VAs the way job validation does.
 */
#ifndef VNPU_BO_UTIL_H
#define VNPU_BO_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vnpu_drm.h"

/* GET_PARAM value, or UINT64_MAX if the query failed. */
uint64_t vnpu_param(int fd, uint32_t param);

/* BO_USERPTR; 0 or -errno. */
int vnpu_bo_userptr(int fd, const void *ptr, uint64_t size, uint32_t *handle,
		    uint64_t *va);

/* PRIME export (read-write, close-on-exec) and import; 0 or -errno. */
int vnpu_prime_export(int fd, uint32_t handle, int *dmabuf_fd);
int vnpu_prime_import(int fd, int dmabuf_fd, uint32_t *handle);

/* zlib's CRC-32 (the one the va_resolve hook reports). */
uint32_t vnpu_crc32(const void *data, size_t len);

/* Fill @len bytes with a pattern derived from @seed and the byte offset. */
void vnpu_fill_pattern(void *data, size_t len, uint32_t seed);
/* Offset of the first byte that differs from the pattern, or -1. */
long vnpu_check_pattern(const void *data, size_t len, uint32_t seed);

/* A number from an fdinfo line "KEY:\tN KiB" of @fd; 0 or -errno. */
int vnpu_fdinfo_kib(int fd, const char *key, uint64_t *kib);
/* A string value from fdinfo (drm-driver, ...); 0 or -errno. */
int vnpu_fdinfo_str(int fd, const char *key, char *buf, size_t len);
/* An fdinfo value "<n>[ <unit>]": the number into *@n and the unit ("" if
 * none) into @unit; -EINVAL if it does not start with a number. */
int vnpu_fdinfo_unit(int fd, const char *key, uint64_t *n, char *unit, size_t len);

/* This process's VmPin (pinned pages) in KiB, or -1. */
long vnpu_vm_pinned_kib(void);

/* Path of a debugfs file of vnpu device @index; 0 or -errno. */
int vnpu_debugfs_path(unsigned int index, const char *name, char *buf, size_t len);

/* What the va_resolve debugfs hook answers. */
struct vnpu_resolve {
	int err;		/* 0 or the lookup's -errno */
	uint64_t offset;	/* offset of the VA in its buffer */
	uint64_t bo_size;	/* size of that buffer */
	uint32_t crc;		/* CRC-32 of the range, as the engines see it */
};

/*
 * Resolve [va, va + len) in the address space of the file with drm-client-id
 * @client on device @index. Returns 0 when the hook answered (the lookup's
 * own result is in @r->err), else -errno.
 */
int vnpu_va_resolve(unsigned int index, uint64_t client, uint64_t va,
		    uint64_t len, struct vnpu_resolve *r);

/* The va_resolve answer for @fd's own address space. */
int vnpu_fd_resolve(int fd, uint64_t va, uint64_t len, struct vnpu_resolve *r);

#endif /* VNPU_BO_UTIL_H */
