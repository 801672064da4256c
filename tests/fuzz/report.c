// SPDX-License-Identifier: GPL-2.0
/*
 * The table printed at the end: for every call, successes and the count of
 * each errno it failed with.
 */
#include <stdio.h>
#include <string.h>

#include "fuzz.h"

static const char *errno_name(int e)
{
	static const char *const names[FZ_NERRNO] = {
		[0] = "E?", [1] = "EPERM", [2] = "ENOENT", [3] = "ESRCH", [4] = "EINTR",
		[5] = "EIO", [6] = "ENXIO", [7] = "E2BIG", [9] = "EBADF", [11] = "EAGAIN",
		[12] = "ENOMEM", [13] = "EACCES", [14] = "EFAULT", [16] = "EBUSY",
		[17] = "EEXIST", [19] = "ENODEV", [22] = "EINVAL", [24] = "EMFILE",
		[25] = "ENOTTY", [28] = "ENOSPC", [33] = "EDOM", [34] = "ERANGE",
		[62] = "ETIME", [75] = "EOVERFLOW", [95] = "EOPNOTSUPP", [105] = "ENOBUFS",
		[107] = "ENOTCONN", [110] = "ETIMEDOUT", [125] = "ECANCELED",
	};

	return e >= 0 && e < FZ_NERRNO && names[e] ? names[e] : NULL;
}

void fz_report(void)
{
	unsigned int c, e;

	printf("# %-26s %9s  %s\n", "call", "ok", "errors");
	for (c = 0; c < FZ_NCALLS; c++) {
		char line[1024];
		size_t len = 0;
		uint64_t total = fz_stats->ok[c];

		line[0] = 0;
		for (e = 0; e < FZ_NERRNO; e++) {
			const char *name = errno_name((int)e);
			uint64_t n = fz_stats->err[c][e];

			if (!n)
				continue;
			total += n;
			if (name)
				len += (size_t)snprintf(line + len, sizeof(line) - len, " %s=%llu",
							name, (unsigned long long)n);
			else
				len += (size_t)snprintf(line + len, sizeof(line) - len,
							" errno%u=%llu", e, (unsigned long long)n);
			if (len >= sizeof(line))
				len = sizeof(line) - 1;
		}
		if (!total)
			continue;
		printf("# %-26s %9llu %s\n", fz_call_name[c], (unsigned long long)fz_stats->ok[c],
		       line);
	}
	printf("# ops %llu, violations %llu\n", (unsigned long long)fz_stats->ops,
	       (unsigned long long)fz_stats->violations);
}
