// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers for the pool, operator and hazard selftests and benchmarks.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vnpu_bo_util.h"
#include "vnpu_pool_util.h"
#include "vnpu_test.h"

/* ---------------------------------------------------------------- ioctls */

static int pool_op(int fd, unsigned long request, uint32_t stream, uint64_t va, uint64_t size)
{
	struct drm_vnpu_pool_bind args = { .stream_id = stream, .va = va, .size = size };

	return vnpu_ioctl(fd, request, &args);
}

int vnpu_pool_bind(int fd, uint32_t stream, uint64_t va, uint64_t size)
{
	return pool_op(fd, DRM_IOCTL_VNPU_POOL_BIND, stream, va, size);
}

int vnpu_pool_unbind(int fd, uint32_t stream, uint64_t va, uint64_t size)
{
	return pool_op(fd, DRM_IOCTL_VNPU_POOL_UNBIND, stream, va, size);
}

int vnpu_pool_query(int fd, uint32_t stream, struct drm_vnpu_pool_range *ranges, uint32_t cap,
		    uint32_t *count, struct drm_vnpu_pool_stats *stats)
{
	struct drm_vnpu_pool_query q = {
		.stream_id = stream,
		.range_count = cap,
		.ranges = (uintptr_t)ranges,
	};
	int ret = vnpu_ioctl(fd, DRM_IOCTL_VNPU_POOL_QUERY, &q);

	if (ret)
		return ret;
	if (count)
		*count = q.range_count;
	if (stats)
		*stats = q.stats;
	return 0;
}

struct drm_vnpu_pool_stats vnpu_pool_stats(int fd, uint32_t stream)
{
	struct drm_vnpu_pool_stats s;

	if (vnpu_pool_query(fd, stream, NULL, 0, NULL, &s))
		memset(&s, 0xff, sizeof(s));
	return s;
}

/* ---------------------------------------------------------------- operators */

struct drm_vnpu_task vnpu_task_op(uint32_t op, uint32_t dtype, uint64_t d0, uint64_t d1,
				  uint64_t d2, uint64_t in0, uint64_t in1, uint64_t out,
				  uint64_t ws, uint64_t ws_size)
{
	return (struct drm_vnpu_task){
		.kind = VNPU_TASK_OP,
		.op = {
			.op = op,
			.dtype = dtype,
			.dims = { d0, d1, d2 },
			.in0 = in0,
			.in1 = in1,
			.out = out,
			.ws = ws,
			.ws_size = ws_size,
		},
	};
}

unsigned int vnpu_dtype_size(uint32_t dtype)
{
	switch (dtype) {
	case VNPU_DTYPE_F32:
	case VNPU_DTYPE_I32:
		return 4;
	case VNPU_DTYPE_F16:
	case VNPU_DTYPE_BF16:
		return 2;
	}
	return 0;
}

uint64_t vnpu_op_ws_needed(const struct drm_vnpu_task_op *op)
{
	bool lowp = op->dtype == VNPU_DTYPE_F16 || op->dtype == VNPU_DTYPE_BF16;
	uint64_t m = op->dims[0], n = op->dims[1], k = op->dims[2], ws = 0;

	switch (op->op) {
	case VNPU_OP_REDUCE_SUM:
	case VNPU_OP_REDUCE_MAX:
	case VNPU_OP_SOFTMAX:
		/* dims {rows, cols, inner}; inner 0 means 1 */
		if (k <= 1)
			return 4 * n;
		return 4 * k * (op->op == VNPU_OP_REDUCE_MAX ? 1 : op->op == VNPU_OP_REDUCE_SUM ? 2 : 3);
	case VNPU_OP_MATMUL:
		if ((op->op_flags & VNPU_OP_F_TRANS_A) || lowp)
			ws += 4 * m * k;
		if ((op->op_flags & VNPU_OP_F_TRANS_B) || lowp)
			ws += 4 * k * n;
		if (lowp)
			ws += 4 * n;
		return ws;
	}
	return 0;
}

/* ---------------------------------------------------------------- fdinfo */

static FILE *open_fdinfo(int fd)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	return fopen(path, "r");
}

/* Parse "key=value" pairs of @s into @out; 0, or -EINVAL if one is missing. */
static int parse_stream_line(char *s, struct vnpu_fdinfo_stream *out)
{
	unsigned int seen = 0;
	char *tok, *save = NULL;

	memset(out, 0, sizeof(*out));
	for (tok = strtok_r(s, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
		char *eq = strchr(tok, '=');
		const char *v;

		if (!eq)
			return -EINVAL;
		*eq = '\0';
		v = eq + 1;
#define NUM(name, field)							\
		if (!strcmp(tok, name)) {					\
			out->field = strtoull(v, NULL, 10);			\
			seen++;							\
			continue;						\
		}
		NUM("prio", prio)
		NUM("submitted", submitted)
		NUM("completed", completed)
		NUM("queued", queued)
		NUM("error", error)
		NUM("pool_ranges", pool_ranges)
		NUM("pool_bytes", pool_bytes)
		NUM("hazards_serialized", hazards_serialized)
		NUM("hazards_rejected", hazards_rejected)
		NUM("ws_bytes", ws_bytes)
		NUM("ws_tasks", ws_tasks)
#undef NUM
		if (!strcmp(tok, "state")) {
			snprintf(out->state, sizeof(out->state), "%s", v);
			seen++;
		}
		/* Other keys may be added; they are ignored here. */
	}
	return seen == 12 ? 0 : -EINVAL;
}

int vnpu_fdinfo_stream(int fd, uint32_t stream, struct vnpu_fdinfo_stream *out)
{
	char key[48], line[1024];
	int ret = -ENOENT;
	FILE *f = open_fdinfo(fd);

	if (!f)
		return -errno;
	snprintf(key, sizeof(key), "vnpu-stream-%u:\t", stream);
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, strlen(key)))
			continue;
		ret = parse_stream_line(line + strlen(key), out);
		break;
	}
	fclose(f);
	return ret;
}

int vnpu_fdinfo_stream_lines(int fd)
{
	char line[1024];
	int n = 0;
	FILE *f = open_fdinfo(fd);

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "vnpu-stream-", 12))
			n++;
	fclose(f);
	return n;
}

/* ---------------------------------------------------------------- debugfs */

int vnpu_debugfs_read(unsigned int index, const char *file, char *buf, size_t len)
{
	char path[128];
	size_t n;
	FILE *f;
	int ret;

	ret = vnpu_debugfs_path(index, file, path, sizeof(path));
	if (ret)
		return ret;
	f = fopen(path, "r");
	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return 0;
}

long long vnpu_debugfs_value(unsigned int index, const char *file, const char *key)
{
	char path[128], line[512];
	size_t klen = strlen(key);
	long long v = -1;
	FILE *f;

	if (vnpu_debugfs_path(index, file, path, sizeof(path)))
		return -1;
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, klen) && line[klen] == '\t') {
			v = strtoll(line + klen + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return v;
}
