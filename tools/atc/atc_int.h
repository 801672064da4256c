/* SPDX-License-Identifier: MIT */
/*
 * atc_int.h - what vnpu-atc's sources share: the error message buffer
 * (every problem a line, so that a user sees them all at once).
 */
#ifndef VNPU_TOOLS_ATC_INT_H
#define VNPU_TOOLS_ATC_INT_H

#include <stdarg.h>
#include <stddef.h>

#include "atc.h"

/* A caller's message buffer, filled a line at a time. */
struct atc_msg {
	char *buf;			/* may be NULL */
	size_t size;
	size_t len;
	unsigned int lines;		/* lines said (also those cut for room) */
};

static inline void atc_msg_init(struct atc_msg *m, char *buf, size_t size)
{
	m->buf = size ? buf : NULL;
	m->size = m->buf ? size : 0;
	m->len = 0;
	m->lines = 0;
	if (m->buf)
		m->buf[0] = '\0';
}

/* Append one line (a newline is added between lines); cut short to fit. */
void atc_say(struct atc_msg *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void atc_vsay(struct atc_msg *m, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

#endif /* VNPU_TOOLS_ATC_INT_H */
