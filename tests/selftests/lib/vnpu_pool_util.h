/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the pool, operator and hazard selftests and benchmarks: pool
 * ioctls, operator tasks planned with lib/ops and submits that carry their
 * data area, the per-stream fdinfo line and the debugfs pools file.
 * Functions return 0 or -errno unless noted.
 */
#ifndef VNPU_POOL_UTIL_H
#define VNPU_POOL_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"
#include "vnpu_drm.h"
#include "vnpu_ops.h"

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

/*
 * Operators. An operator task (VNPU_TASK_OP) is an opaque descriptor and a
 * list of operands in the SUBMIT's data area; the descriptor comes from
 * lib/ops (vops_plan(), docs/ops.md), which the engine server runs too.
 *
 * struct vnpu_op is one planned call, ready to submit on its own: the plan,
 * the operands (inputs READ, outputs WRITE, then the workspace WORKSPACE
 * when plan.ws_bytes is not 0, each as large as the plan says), and a data
 * area of its own with the descriptor at 0 and the operand list after it
 * (8-aligned), which @task names. After changing @operands (or @noperands),
 * vnpu_op_encode() rebuilds the data area and the task.
 */
#define VNPU_OP_MAX_OPERANDS (VOPS_MAX_INPUTS + VOPS_MAX_OUTPUTS + 1)
#define VNPU_OP_MAX_DATA (VOPS_MAX_DESC + VNPU_OP_MAX_OPERANDS * sizeof(struct drm_vnpu_operand))

struct vnpu_op {
	struct vops_plan plan;
	struct vops_error err;		/* why vnpu_op_plan() failed */
	unsigned int noperands;
	struct drm_vnpu_operand operands[VNPU_OP_MAX_OPERANDS];
	uint32_t operand_offset;	/* of the operand list in @data */
	uint32_t data_size;
	unsigned char data[VNPU_OP_MAX_DATA] __attribute__((aligned(8)));
	struct drm_vnpu_task task;
};

/*
 * Plan @type on @nin inputs with one output and @nattrs attributes (may be
 * NULL when 0): 0, or -EINVAL with the reason in @op->err. The operands get
 * their access and the plan's sizes and address 0 (vnpu_op_set_va()).
 */
int vnpu_op_plan(struct vnpu_op *op, const char *type, int nin, const struct vops_tensor *in,
		 const struct vops_attr *attrs, unsigned int nattrs);
/* The same with @nout outputs. */
int vnpu_op_plan_n(struct vnpu_op *op, const char *type, int nin, const struct vops_tensor *in,
		   int nout, const struct vops_attr *attrs, unsigned int nattrs);
/*
 * Give the operands their addresses: input 0 at @in0, input 1 (if the
 * operator has two) at @in1, the output at @out, the workspace (if the plan
 * has one) at @ws; then encode.
 */
void vnpu_op_set_va(struct vnpu_op *op, uint64_t in0, uint64_t in1, uint64_t out, uint64_t ws);
/* Rebuild the data area and the task from the descriptor and @operands. */
void vnpu_op_encode(struct vnpu_op *op);
/* The workspace operand, or NULL if the plan has none. */
struct drm_vnpu_operand *vnpu_op_ws(struct vnpu_op *op);

/*
 * Planners for the operators the suites use (aclDataType @dtype): 0 or
 * -EINVAL, as vnpu_op_plan().
 *  - vnpu_op_eltwise: @type ("Add", "Sub", "Mul", "RealDiv", "Relu",
 *    "Abs") of 1-D inputs of @n0 and (binary, @n1 nonzero) @n1 elements;
 *    1 element is a broadcast scalar.
 *  - vnpu_op_cast: Cast of @n elements from @from to @to.
 *  - vnpu_op_rows: @type ("ReduceSumD", "ReduceMaxD", "SoftmaxV2") along
 *    axis 1 of [@rows, @cols, @inner], or of [@rows, @cols] when @inner is 0.
 *  - vnpu_op_reduce_axes: @type ("ReduceSumD", "ReduceMaxD") of a tensor of
 *    @ndim dimensions over the @naxes axes in @axes, with keep_dims @keep.
 *  - vnpu_op_matmul: MatMul of an @m x @k by a @k x @n matrix, stored
 *    transposed when @ta (x1) or @tb (x2).
 */
int vnpu_op_eltwise(struct vnpu_op *op, const char *type, int32_t dtype, uint64_t n0, uint64_t n1);
int vnpu_op_cast(struct vnpu_op *op, int32_t from, int32_t to, uint64_t n);
int vnpu_op_rows(struct vnpu_op *op, const char *type, int32_t dtype, uint64_t rows, uint64_t cols,
		 uint64_t inner);
int vnpu_op_reduce_axes(struct vnpu_op *op, const char *type, int32_t dtype, int ndim,
			const int64_t *dims, int naxes, const int64_t *axes, bool keep);
int vnpu_op_matmul(struct vnpu_op *op, int32_t dtype, uint64_t m, uint64_t n, uint64_t k, bool ta,
		   bool tb);

/*
 * SUBMIT with a data area (@data, @data_size bytes; NULL and 0 for none);
 * otherwise as vnpu_submit() and vnpu_submit_wait() (stream_util).
 */
int vnpu_submit_data(int fd, uint32_t stream, const struct drm_vnpu_task *tasks, uint32_t count,
		     const void *data, uint32_t data_size, const struct drm_vnpu_sync *in,
		     uint32_t in_count, uint32_t out_handle, uint64_t out_point, uint64_t *seqno);
int vnpu_submit_data_wait(int fd, uint32_t stream, const struct drm_vnpu_task *tasks,
			  uint32_t count, const void *data, uint32_t data_size, uint64_t *seqno);

/* One operator as a job of its own. */
int vnpu_op_submit(int fd, uint32_t stream, const struct vnpu_op *op, uint32_t out_handle,
		   uint64_t *seqno);
int vnpu_op_submit_wait(int fd, uint32_t stream, const struct vnpu_op *op, uint64_t *seqno);

/*
 * A job of several tasks, operators among them: their data areas are laid
 * one after the other (8-aligned) in one. A task that does not fit sets
 * @err (-E2BIG), which the submit returns.
 */
#define VNPU_JOB_MAX_TASKS 80
#define VNPU_JOB_MAX_DATA (32u << 10)

struct vnpu_job {
	uint32_t count;
	uint32_t data_size;
	int err;
	struct drm_vnpu_task tasks[VNPU_JOB_MAX_TASKS];
	unsigned char data[VNPU_JOB_MAX_DATA] __attribute__((aligned(8)));
};

void vnpu_job_init(struct vnpu_job *job);
void vnpu_job_add(struct vnpu_job *job, struct drm_vnpu_task task);
void vnpu_job_add_op(struct vnpu_job *job, const struct vnpu_op *op);
int vnpu_job_submit(int fd, uint32_t stream, const struct vnpu_job *job,
		    const struct drm_vnpu_sync *in, uint32_t in_count, uint32_t out_handle,
		    uint64_t out_point, uint64_t *seqno);
int vnpu_job_submit_wait(int fd, uint32_t stream, const struct vnpu_job *job, uint64_t *seqno);

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
