/* SPDX-License-Identifier: MIT */
/*
 * rt_errmap.h - kernel results to ACL error codes.
 */
#ifndef VNPU_LIB_RT_ERRMAP_H
#define VNPU_LIB_RT_ERRMAP_H

#include <stdint.h>

#include "acl/acl_base.h"

/* What an ioctl's negative errno means for the caller of an ACL function. */
aclError rt_errno_to_acl(int err);

/*
 * The ACL code of a failed stream (enum drm_vnpu_stream_error):
 *   TIMEOUT  -> ACL_ERROR_RT_AICORE_TIMEOUT   (a task ran past the job timeout)
 *   FAULT    -> ACL_ERROR_RT_AICORE_EXCEPTION (the device faulted in a task)
 *   ARITH    -> ACL_ERROR_RT_AICORE_EXCEPTION (int32 division by zero: an
 *               exception, not CANN's "overflow" status codes)
 *   CANCELED -> ACL_ERROR_RT_STREAM_ABORT     (work cancelled by teardown)
 * NONE gives ACL_SUCCESS; unknown values ACL_ERROR_RT_INTERNAL_ERROR.
 */
aclError rt_stream_error_to_acl(uint32_t error);

/* "timeout", "fault", ... for messages. */
const char *rt_stream_error_name(uint32_t error);

#endif /* VNPU_LIB_RT_ERRMAP_H */
