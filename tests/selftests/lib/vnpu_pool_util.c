// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers for the pool, operator and hazard selftests and benchmarks.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vnpu_bo_util.h"
#include "vnpu_pool_util.h"
#include "vnpu_stream_util.h"
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

#define ALIGN8(x) (((x) + 7u) & ~7u)

int vnpu_op_plan(struct vnpu_op *op, const char *type, int nin, const struct vops_tensor *in,
		 const struct vops_attr *attrs, unsigned int nattrs)
{
	return vnpu_op_plan_n(op, type, nin, in, 1, attrs, nattrs);
}

int vnpu_op_plan_n(struct vnpu_op *op, const char *type, int nin, const struct vops_tensor *in,
		   int nout, const struct vops_attr *attrs, unsigned int nattrs)
{
	const struct vops_plan *p = &op->plan;
	unsigned int n = 0;

	memset(op, 0, offsetof(struct vnpu_op, data));
	if (vops_plan(type, nin, in, nout, attrs, nattrs, &op->plan, &op->err) != VOPS_OK)
		return -EINVAL;
	for (int i = 0; i < p->nin; i++)
		op->operands[n++] = (struct drm_vnpu_operand){
			.size = p->in_bytes[i], .access = VNPU_OPERAND_READ,
		};
	for (int i = 0; i < p->nout; i++)
		op->operands[n++] = (struct drm_vnpu_operand){
			.size = p->out[i].bytes, .access = VNPU_OPERAND_WRITE,
		};
	if (p->ws_bytes)
		op->operands[n++] = (struct drm_vnpu_operand){
			.size = p->ws_bytes, .access = VNPU_OPERAND_WORKSPACE,
		};
	op->noperands = n;
	vnpu_op_encode(op);
	return 0;
}

void vnpu_op_encode(struct vnpu_op *op)
{
	size_t list = op->noperands * sizeof(op->operands[0]);

	op->operand_offset = ALIGN8(op->plan.desc_size);
	op->data_size = op->operand_offset + list;
	memset(op->data, 0, op->operand_offset);
	memcpy(op->data, op->plan.desc, op->plan.desc_size);
	memcpy(op->data + op->operand_offset, op->operands, list);
	op->task = (struct drm_vnpu_task){
		.kind = VNPU_TASK_OP,
		.op = {
			.desc_offset = 0,
			.desc_size = op->plan.desc_size,
			.operand_offset = op->operand_offset,
			.operand_count = op->noperands,
		},
	};
}

void vnpu_op_set_va(struct vnpu_op *op, uint64_t in0, uint64_t in1, uint64_t out, uint64_t ws)
{
	const struct vops_plan *p = &op->plan;

	op->operands[0].va = in0;
	if (p->nin > 1)
		op->operands[1].va = in1;
	op->operands[p->nin].va = out;
	if (p->ws_bytes)
		op->operands[p->nin + p->nout].va = ws;
	vnpu_op_encode(op);
}

struct drm_vnpu_operand *vnpu_op_ws(struct vnpu_op *op)
{
	if (!op->plan.ws_bytes)
		return NULL;
	return &op->operands[op->plan.nin + op->plan.nout];
}

int vnpu_op_eltwise(struct vnpu_op *op, const char *type, int32_t dtype, uint64_t n0, uint64_t n1)
{
	int64_t d0 = (int64_t)n0, d1 = (int64_t)n1;
	struct vops_tensor in[2] = {
		{ .dtype = dtype, .ndim = 1, .dims = &d0 },
		{ .dtype = dtype, .ndim = 1, .dims = &d1 },
	};

	return vnpu_op_plan(op, type, n1 ? 2 : 1, in, NULL, 0);
}

int vnpu_op_cast(struct vnpu_op *op, int32_t from, int32_t to, uint64_t n)
{
	int64_t d = (int64_t)n;
	struct vops_tensor in = { .dtype = from, .ndim = 1, .dims = &d };
	struct vops_attr attr = { .name = (char *)"dst_type", .kind = VOPS_ATTR_DTYPE, .dt = to };

	return vnpu_op_plan(op, "Cast", 1, &in, &attr, 1);
}

int vnpu_op_reduce_axes(struct vnpu_op *op, const char *type, int32_t dtype, int ndim,
			const int64_t *dims, int naxes, const int64_t *axes, bool keep)
{
	struct vops_tensor in = { .dtype = dtype, .ndim = ndim, .dims = dims };
	struct vops_attr attrs[2] = {
		{ .name = (char *)"axes", .kind = VOPS_ATTR_LIST_INT,
		  .li = { .n = naxes, .v = (int64_t *)axes } },
		{ .name = (char *)"keep_dims", .kind = VOPS_ATTR_BOOL, .b = keep },
	};

	/* SoftmaxV2 takes no keep_dims. */
	return vnpu_op_plan(op, type, 1, &in, attrs, strcmp(type, "SoftmaxV2") ? 2 : 1);
}

int vnpu_op_rows(struct vnpu_op *op, const char *type, int32_t dtype, uint64_t rows, uint64_t cols,
		 uint64_t inner)
{
	int64_t dims[3] = { (int64_t)rows, (int64_t)cols, (int64_t)inner }, axis = 1;

	return vnpu_op_reduce_axes(op, type, dtype, inner ? 3 : 2, dims, 1, &axis, false);
}

int vnpu_op_matmul(struct vnpu_op *op, int32_t dtype, uint64_t m, uint64_t n, uint64_t k, bool ta,
		   bool tb)
{
	int64_t a[2] = { (int64_t)(ta ? k : m), (int64_t)(ta ? m : k) };
	int64_t b[2] = { (int64_t)(tb ? n : k), (int64_t)(tb ? k : n) };
	struct vops_tensor in[2] = {
		{ .dtype = dtype, .ndim = 2, .dims = a },
		{ .dtype = dtype, .ndim = 2, .dims = b },
	};
	struct vops_attr attrs[2] = {
		{ .name = (char *)"transpose_x1", .kind = VOPS_ATTR_BOOL, .b = ta },
		{ .name = (char *)"transpose_x2", .kind = VOPS_ATTR_BOOL, .b = tb },
	};

	return vnpu_op_plan(op, "MatMul", 2, in, attrs, 2);
}

/* ---------------------------------------------------------------- submits */

int vnpu_submit_data(int fd, uint32_t stream, const struct drm_vnpu_task *tasks, uint32_t count,
		     const void *data, uint32_t data_size, const struct drm_vnpu_sync *in,
		     uint32_t in_count, uint32_t out_handle, uint64_t out_point, uint64_t *seqno)
{
	struct drm_vnpu_submit args = vnpu_submit_args(stream, tasks, count);
	int ret;

	args.data = (uintptr_t)data;
	args.data_size = data_size;
	args.in_syncs = (uintptr_t)in;
	args.in_sync_count = in_count;
	args.out_sync.handle = out_handle;
	args.out_sync.point = out_point;
	ret = vnpu_submit_raw(fd, &args);
	if (!ret && seqno)
		*seqno = args.seqno;
	return ret;
}

int vnpu_submit_data_wait(int fd, uint32_t stream, const struct drm_vnpu_task *tasks,
			  uint32_t count, const void *data, uint32_t data_size, uint64_t *seqno)
{
	uint32_t sync;
	int ret;

	ret = vnpu_syncobj_create(fd, &sync);
	if (ret)
		return ret;
	ret = vnpu_submit_data(fd, stream, tasks, count, data, data_size, NULL, 0, sync, 0, seqno);
	if (!ret)
		ret = vnpu_syncobj_wait(fd, sync, VNPU_WAIT_FOREVER_NS);
	if (!ret) {
		/* 1: signalled without error; negative: the job's error. */
		ret = vnpu_syncobj_fence_status(fd, sync);
		if (ret > 0)
			ret = 0;
		else if (!ret)
			ret = -EBUSY;	/* cannot be: the wait returned */
	}
	vnpu_syncobj_destroy(fd, sync);
	return ret;
}

int vnpu_op_submit(int fd, uint32_t stream, const struct vnpu_op *op, uint32_t out_handle,
		   uint64_t *seqno)
{
	return vnpu_submit_data(fd, stream, &op->task, 1, op->data, op->data_size, NULL, 0,
				out_handle, 0, seqno);
}

int vnpu_op_submit_wait(int fd, uint32_t stream, const struct vnpu_op *op, uint64_t *seqno)
{
	return vnpu_submit_data_wait(fd, stream, &op->task, 1, op->data, op->data_size, seqno);
}

void vnpu_job_init(struct vnpu_job *job)
{
	job->count = 0;
	job->data_size = 0;
	job->err = 0;
}

void vnpu_job_add(struct vnpu_job *job, struct drm_vnpu_task task)
{
	if (job->count == VNPU_JOB_MAX_TASKS) {
		job->err = -E2BIG;
		return;
	}
	job->tasks[job->count++] = task;
}

void vnpu_job_add_op(struct vnpu_job *job, const struct vnpu_op *op)
{
	uint32_t base = ALIGN8(job->data_size);
	struct drm_vnpu_task t = op->task;

	if (op->data_size > VNPU_JOB_MAX_DATA - base) {
		job->err = -E2BIG;
		return;
	}
	memset(job->data + job->data_size, 0, base - job->data_size);
	memcpy(job->data + base, op->data, op->data_size);
	job->data_size = base + op->data_size;
	t.op.desc_offset += base;
	t.op.operand_offset += base;
	vnpu_job_add(job, t);
}

int vnpu_job_submit(int fd, uint32_t stream, const struct vnpu_job *job,
		    const struct drm_vnpu_sync *in, uint32_t in_count, uint32_t out_handle,
		    uint64_t out_point, uint64_t *seqno)
{
	if (job->err)
		return job->err;
	return vnpu_submit_data(fd, stream, job->tasks, job->count,
				job->data_size ? job->data : NULL, job->data_size, in, in_count,
				out_handle, out_point, seqno);
}

int vnpu_job_submit_wait(int fd, uint32_t stream, const struct vnpu_job *job, uint64_t *seqno)
{
	if (job->err)
		return job->err;
	return vnpu_submit_data_wait(fd, stream, job->tasks, job->count,
				     job->data_size ? job->data : NULL, job->data_size, seqno);
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
