/* SPDX-License-Identifier: MIT */
/*
 * rt_private.h - what libascendcl.so exports beyond the ACL API, for
 * vnpu's own libraries over it (libnnopbase.so): its version script's
 * VNPU_RT_PRIVATE_1.0 node. Not an application interface: no header
 * under include/ declares it, and its names may change with the library.
 *
 * The errors these record are the calling thread's, the same state
 * aclGetRecentErrMsg() reads.
 */
#ifndef VNPU_LIB_RT_PRIVATE_H
#define VNPU_LIB_RT_PRIVATE_H

#include <stdarg.h>
#include <stdint.h>

#include "acl/acl_base.h"
#include "vnpu_drm.h"

#define VNPU_RT_EXPORT __attribute__((visibility("default")))

/* A device memory range a job uses, for the launch's checks. */
struct vnpu_rt_range {
	uint64_t addr, size;
	const char *what;		/* for messages: "self", "the workspace" */
};

/* Record @code with a message for @api ("aclnnAdd: ...") as the calling
 * thread's last error; returns @code. */
int32_t vnpu_rt_error(int32_t code, const char *api, const char *fmt, va_list ap) VNPU_RT_EXPORT;

/*
 * Queue one job of @ntasks tasks (their descriptors and operands in @data,
 * @data_size bytes) on @stream (NULL: the current context's default
 * stream) for @api. @device is the device the job was planned for (-1:
 * any): a stream of another device is ACL_ERROR_INVALID_PARAM. Every range
 * of @ranges must be device memory of the stream's device
 * (ACL_ERROR_INVALID_PARAM naming it). @workspace: whether a task has a
 * VNPU_OPERAND_WORKSPACE operand (the caller's memory, never a bound
 * pool's). ACL codes with a message otherwise, as aclopExecuteV2's.
 */
aclError vnpu_rt_launch(const char *api, aclrtStream stream, int32_t device, const struct drm_vnpu_task *tasks,
			uint32_t ntasks, const void *data, uint32_t data_size, const struct vnpu_rt_range *ranges,
			unsigned int nranges, int workspace) VNPU_RT_EXPORT;

/* The calling thread's current device, or -1 (records nothing). */
int32_t vnpu_rt_current_device(void) VNPU_RT_EXPORT;

/* Is @format a plain (row-major, unblocked) layout? (the runtime's one
 * definition, rt_format_plain()) */
int vnpu_rt_format_plain(int32_t format) VNPU_RT_EXPORT;

#endif /* VNPU_LIB_RT_PRIVATE_H */
