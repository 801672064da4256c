// SPDX-License-Identifier: GPL-2.0
/*
 * guard.c - a SIGBUS inside a job faults the job, not the server.
 *
 * The kernel takes a buffer's pages away from the server's mappings when
 * it resets the engine, so a job caught in the middle touches memory that
 * is gone and gets SIGBUS. Every thread that runs job code (workers and
 * crew helpers) does so inside guard_call(), whose handler jumps back out;
 * a SIGBUS anywhere else is a bug of ours and kills the server.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>

#include "engined.h"

/* The innermost guard_call() of this thread, or NULL. */
static __thread sigjmp_buf *volatile guard_jmp;

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };

	(void)si;
	(void)uc;
	if (guard_jmp)
		siglongjmp(*guard_jmp, 1);
	/* Not in a job: die of it when the access repeats. */
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
}

int guard_init(void)
{
	struct sigaction bus = { .sa_sigaction = on_sigbus, .sa_flags = SA_SIGINFO | SA_NODEFER };

	sigemptyset(&bus.sa_mask);
	return sigaction(SIGBUS, &bus, NULL) ? -errno : 0;
}

bool guard_call(void (*fn)(void *arg), void *arg)
{
	sigjmp_buf *outer = guard_jmp;
	sigjmp_buf jb;

	if (sigsetjmp(jb, 0)) {
		guard_jmp = outer;
		return false;
	}
	guard_jmp = &jb;
	fn(arg);
	guard_jmp = outer;
	return true;
}

void guard_raise(void)
{
	if (guard_jmp)
		siglongjmp(*guard_jmp, 1);
	abort();
}
