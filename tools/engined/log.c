// SPDX-License-Identifier: GPL-2.0
/*
 * log.c - vnpu-engined's messages: one line each on stderr (a terminal, the
 * journal under systemd, or the log file vnpu-modload gives it).
 */
#include <stdarg.h>
#include <stdio.h>

#include "engined.h"

/* Set once by main() before any thread starts; atomic all the same. */
static atomic_int log_level = LOG_INFO;

void log_set_level(enum log_level level)
{
	atomic_store_explicit(&log_level, (int)level, memory_order_relaxed);
}

bool log_enabled(enum log_level level)
{
	return (int)level <= atomic_load_explicit(&log_level, memory_order_relaxed);
}

void log_msg(enum log_level level, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	if (!log_enabled(level))
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* One call per line, so lines of different workers do not mix. */
	fprintf(stderr, "vnpu-engined: %s\n", line);
}
