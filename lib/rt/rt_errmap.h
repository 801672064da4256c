/* SPDX-License-Identifier: MIT */
/*
 * rt_errmap.h - kernel results to ACL error codes.
 */
#ifndef VNPU_LIB_RT_ERRMAP_H
#define VNPU_LIB_RT_ERRMAP_H

#include <stdint.h>

#include "acl/acl_base.h"

/*
 * What an ioctl's negative errno means for the caller of an ACL function.
 * -ENOTCONN (a SUBMIT to a device without an engine server) is
 * ACL_ERROR_RT_DEV_SETUP_ERROR, as is opening such a device
 * (RT_NO_ENGINE_FMT says what to do).
 */
aclError rt_errno_to_acl(int err);

/* The message of a device without an engine server; %u is the device. */
#define RT_NO_ENGINE_FMT                                                                        \
	"vnpu device %u has no engine server: start vnpu-engined (sudo vnpu-modload engine-start, " \
	"or systemctl start vnpu-engined)"

/*
 * The ACL code of a failed stream (enum drm_vnpu_stream_error):
 *   TIMEOUT  -> ACL_ERROR_RT_AICORE_TIMEOUT   (a task ran past the job timeout)
 *   FAULT    -> ACL_ERROR_RT_AICORE_EXCEPTION (the device faulted in a task)
 *   ARITH    -> ACL_ERROR_RT_AICORE_EXCEPTION (int32 division by zero: an
 *               exception, not CANN's "overflow" status codes)
 *   CANCELED -> ACL_ERROR_RT_STREAM_ABORT     (work cancelled by teardown)
 *   ENGINE   -> ACL_ERROR_RT_LOST_HEARTBEAT   (the engine server detached or
 *               died with the stream's work unfinished)
 * NONE gives ACL_SUCCESS; unknown values ACL_ERROR_RT_INTERNAL_ERROR.
 */
aclError rt_stream_error_to_acl(uint32_t error);

/* "timeout", "fault", ... for messages. */
const char *rt_stream_error_name(uint32_t error);

#endif /* VNPU_LIB_RT_ERRMAP_H */
