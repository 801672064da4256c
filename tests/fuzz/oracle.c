// SPDX-License-Identifier: GPL-2.0
/*
 * The oracle. Before a call the generator states what the documented rules
 * (uapi/vnpu_drm.h, docs/abi-*.md) say of it: an invalid call must fail, and
 * with one of the errnos the documentation gives; a valid call may fail only
 * with the errnos of conditions the fuzzer cannot rule out (memory, limits,
 * a stream that failed, no engine server). After a call the kernel accepted,
 * the generator re-checks what came back (fz_check()). A mismatch is a
 * violation: printed with the seed, the op index and the call, counted, and
 * the run exits 1.
 *
 * --plant RULE feeds one rule a wrong answer, to prove the oracle catches it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fuzz.h"

const char *const fz_plant_rules[] = {
	"bo_create_size",	/* BO_INFO size expected one page larger */
	"get_param_abi",	/* ABI version expected one minor ahead */
	"gem_close_unknown",	/* a close of a live handle expected to fail */
	NULL,
};

bool fz_planted(const char *rule)
{
	return fz_opts.plant && !strcmp(fz_opts.plant, rule);
}

static void add_errs(struct fz_expect *e, va_list ap)
{
	int err;

	while ((err = va_arg(ap, int)) != 0)
		if (e->nerr < FZ_MAX_EXPECT)
			e->errs[e->nerr++] = err;
}

void fz_expect_valid(struct fz_expect *e, const char *rule, ...)
{
	va_list ap;

	memset(e, 0, sizeof(*e));
	e->rule = rule;
	e->may_succeed = true;
	va_start(ap, rule);
	add_errs(e, ap);
	va_end(ap);
	/* Any call may find the kernel out of memory. */
	if (e->nerr < FZ_MAX_EXPECT)
		e->errs[e->nerr++] = ENOMEM;
}

void fz_expect_invalid(struct fz_expect *e, const char *rule, ...)
{
	va_list ap;

	memset(e, 0, sizeof(*e));
	e->rule = rule;
	e->may_succeed = false;
	va_start(ap, rule);
	add_errs(e, ap);
	va_end(ap);
}

void fz_expect_also(struct fz_expect *e, ...)
{
	va_list ap;

	va_start(ap, e);
	add_errs(e, ap);
	va_end(ap);
}

static void vreport(struct fz_thread *t, const char *rule, const char *fmt, va_list ap)
{
	char msg[512];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	__atomic_fetch_add(&fz_stats->violations, 1, __ATOMIC_RELAXED);
	fprintf(stdout, "VIOLATION rule=%s seed=%llu proc=%u thread=%u op=%llu call=%s: %s\n",
		rule, (unsigned long long)fz_opts.seed, t->proc, t->tid,
		(unsigned long long)t->op, t->what, msg);
	fflush(stdout);
}

void fz_violation(struct fz_thread *t, const char *rule, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(t, rule, fmt, ap);
	va_end(ap);
}

bool fz_check(struct fz_thread *t, const char *rule, bool cond, const char *fmt, ...)
{
	va_list ap;

	if (cond)
		return true;
	va_start(ap, fmt);
	vreport(t, rule, fmt, ap);
	va_end(ap);
	return false;
}

int fz_judge(struct fz_thread *t, enum fz_call call, int ret, const struct fz_expect *e)
{
	unsigned int i;

	if (fz_opts.verbose)
		fprintf(stderr, "[%u.%u #%llu] %s -> %d\n", t->proc, t->tid,
			(unsigned long long)t->op, t->what, ret);
	if (!ret) {
		if (!e->may_succeed)
			fz_violation(t, e->rule, "%s accepted a call the rule forbids",
				     fz_call_name[call]);
		return ret;
	}
	if (!e->nerr)
		return ret;
	for (i = 0; i < e->nerr; i++)
		if (e->errs[i] == -ret)
			return ret;
	fz_violation(t, e->rule, "%s failed with errno %d (%s), not one the rule allows",
		     fz_call_name[call], -ret, strerror(-ret));
	return ret;
}
