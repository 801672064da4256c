/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the pool, operator and hazard selftests and benchmarks: pool
 * ioctls, operator task builders, the workspace formula of the ABI, the
 * per-stream fdinfo line and the debugfs pools file. Functions return 0 or
 * -errno unless noted.
 */
#ifndef VNPU_POOL_UTIL_H
#define VNPU_POOL_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vnpu_drm.h"

int vnpu_pool_bind(int fd, uint32_t stream, uint64_t va, uint64_t size);
int vnpu_pool_unbind(int fd, uint32_t stream, uint64_t va, uint64_t size);
/*
 * POOL_QUERY: up to @cap ranges into @ranges (may be NULL with @cap 0);
 * *@count (may be NULL) gets the number bound, @stats (may be NULL) the
 * counters. @stream 0: the file totals.
 */
int vnpu_pool_query(int fd, uint32_t stream, struct drm_vnpu_pool_range *ranges, uint32_t cap,
		    uint32_t *count, struct drm_vnpu_pool_stats *stats);
/* The counters alone; all fields UINT64_MAX if the query failed. */
struct drm_vnpu_pool_stats vnpu_pool_stats(int fd, uint32_t stream);

/* An operator task; out_dtype 0 and no flags (set them on the result). */
struct drm_vnpu_task vnpu_task_op(uint32_t op, uint32_t dtype, uint64_t d0, uint64_t d1,
				  uint64_t d2, uint64_t in0, uint64_t in1, uint64_t out,
				  uint64_t ws, uint64_t ws_size);

/* Bytes per element of a VNPU_DTYPE_*, 0 for an unknown one. */
unsigned int vnpu_dtype_size(uint32_t dtype);
/* The workspace an operator needs, by the formula of the uapi header. */
uint64_t vnpu_op_ws_needed(const struct drm_vnpu_task_op *op);

/* One "vnpu-stream-<id>:" fdinfo line, parsed. */
struct vnpu_fdinfo_stream {
	unsigned int prio;
	uint64_t submitted, completed, queued;
	char state[16];
	unsigned int error;
	uint64_t pool_ranges, pool_bytes;
	uint64_t hazards_serialized, hazards_rejected;
	uint64_t ws_bytes, ws_tasks;
};

/* Parse @fd's fdinfo line for @stream; -ENOENT if there is none. */
int vnpu_fdinfo_stream(int fd, uint32_t stream, struct vnpu_fdinfo_stream *out);
/* Number of "vnpu-stream-" lines in @fd's fdinfo, or -1. */
int vnpu_fdinfo_stream_lines(int fd);

/* The value of "KEY<TAB>N" in a debugfs file of device @index; -1 on error. */
long long vnpu_debugfs_value(unsigned int index, const char *file, const char *key);
/* Read a whole debugfs file of device @index into @buf (NUL-terminated). */
int vnpu_debugfs_read(unsigned int index, const char *file, char *buf, size_t len);

#endif /* VNPU_POOL_UTIL_H */
