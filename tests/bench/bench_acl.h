/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the benchmarks over libascendcl share: CHECK() for ACL calls, and
 * the process's DRM ioctls counted (and, when asked, timed). Include it
 * from the one source file of a benchmark program: it defines ioctl(),
 * which interposes the C library's for the whole process, libascendcl and
 * libdrm included (no LD_PRELOAD).
 */
#ifndef VNPU_BENCH_ACL_H
#define VNPU_BENCH_ACL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>


#include "acl/acl.h"
#include "bench.h"
#include "vnpu_drm.h"

/* Exit with the call and the recent error message if @call fails. */
#define CHECK(call)                                                                                 \
	do {                                                                                        \
		int r_ = (int)(call);                                                               \
		if (r_) {                                                                           \
			const char *m_ = aclGetRecentErrMsg();                                      \
			fprintf(stderr, "%s failed: %d (%s)\n", #call, r_, m_ ? m_ : "no message"); \
			exit(1);                                                                    \
		}                                                                                   \
	} while (0)

/* While .counting: DRM ioctls and SUBMITs; while .timing: ns spent in
 * ioctls. The benchmark's own thread sets and reads them. */
static struct {
	bool counting, timing;
	unsigned long drm, submits;
	uint64_t ns;
} bench_ioctls;

int ioctl(int fd, unsigned long request, ...)
{
	uint64_t t0 = 0;
	va_list ap;
	void *arg;
	int ret;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (bench_ioctls.counting && _IOC_TYPE(request) == DRM_IOCTL_BASE) {
		bench_ioctls.drm++;
		bench_ioctls.submits += _IOC_NR(request) == DRM_COMMAND_BASE + DRM_VNPU_SUBMIT;
	}
	if (bench_ioctls.timing)
		t0 = bench_now_ns();
	ret = (int)syscall(SYS_ioctl, fd, request, arg);
	if (bench_ioctls.timing)
		bench_ioctls.ns += bench_now_ns() - t0;
	return ret;
}

#endif /* VNPU_BENCH_ACL_H */
