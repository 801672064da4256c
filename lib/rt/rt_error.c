// SPDX-License-Identifier: MIT
/*
 * rt_error.c - per-thread error state: the last error code
 * (aclrtGetLastError) and the description of the last failure
 * (aclGetRecentErrMsg), plus the monotonic clock helpers.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "rt.h"
#include "rt_errmap.h"

#define MSG_MAX RT_ERRMSG_MAX

struct rt_errstate {
	const char *api;
	bool quiet;
	aclError last;
	bool has_msg;
	char msg[MSG_MAX];
	char handed_out[MSG_MAX];
};

static _Thread_local struct rt_errstate errstate;

void rt_api_enter(const char *name)
{
	errstate.api = name;
}

bool rt_err_quiet(bool quiet)
{
	bool old = errstate.quiet;

	errstate.quiet = quiet;
	return old;
}

static aclError record(aclError code, const char *suffix, const char *fmt, va_list ap)
{
	size_t n = 0;

	if (errstate.quiet)
		return code;
	if (errstate.api)
		n = (size_t)snprintf(errstate.msg, MSG_MAX, "%s: ", errstate.api);
	if (n < MSG_MAX)
		n += (size_t)vsnprintf(errstate.msg + n, MSG_MAX - n, fmt, ap);
	if (suffix && n < MSG_MAX)
		snprintf(errstate.msg + n, MSG_MAX - n, "%s", suffix);
	errstate.has_msg = true;
	errstate.last = code;
	return code;
}

aclError rt_err(aclError code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	record(code, NULL, fmt, ap);
	va_end(ap);
	return code;
}

aclError rt_err_errno(int err, const char *fmt, ...)
{
	char suffix[96];
	va_list ap;

	snprintf(suffix, sizeof(suffix), " (%s)", strerror(err < 0 ? -err : err));
	va_start(ap, fmt);
	record(rt_errno_to_acl(err), suffix, fmt, ap);
	va_end(ap);
	return rt_errno_to_acl(err);
}

void rt_err_save(struct rt_errsave *save)
{
	save->api = errstate.api;
	save->last = errstate.last;
	save->has_msg = errstate.has_msg;
	if (errstate.has_msg)
		memcpy(save->msg, errstate.msg, MSG_MAX);
}

void rt_err_restore(const struct rt_errsave *save)
{
	errstate.api = save->api;
	errstate.last = save->last;
	errstate.has_msg = save->has_msg;
	if (save->has_msg)
		memcpy(errstate.msg, save->msg, MSG_MAX);
}

const char *rt_err_take_message(void)
{
	if (!errstate.has_msg)
		return NULL;
	memcpy(errstate.handed_out, errstate.msg, MSG_MAX);
	errstate.has_msg = false;
	return errstate.handed_out;
}

aclError rt_err_last(bool clear)
{
	aclError code = errstate.last;

	if (clear)
		errstate.last = ACL_SUCCESS;
	return code;
}

int64_t rt_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t rt_deadline(int32_t timeout_ms)
{
	if (timeout_ms < 0)
		return RT_FOREVER;
	return rt_now_ns() + (int64_t)timeout_ms * 1000000;
}
