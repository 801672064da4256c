// SPDX-License-Identifier: GPL-2.0
/*
 * Generators of the stream family: STREAM_CREATE, _DESTROY, _QUERY,
 * _SET_PARAM, SUBMIT with every task kind (valid and invalid addresses,
 * syncs, data areas), SIGNAL, POOL_BIND, _UNBIND, _QUERY, and the fence
 * oracle: a job's fence signals, with a documented error or none, within a
 * bound.
 */
#include <errno.h>
#include <linux/sync_file.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <xf86drm.h>

#include "fuzz.h"

static uint32_t unknown_id(struct fz_rng *r)
{
	return fz_chance(r, 1, 3) ? 0 : (1u << 30) + (uint32_t)fz_below(r, 1u << 30);
}

/*
 * Knobs of deliberate invalidity: none while the thread builds a clean call
 * (t->valid_only), so that about half of the submits are valid as a whole.
 */
#define KNOB(t, n) ((t)->valid_only ? (uint64_t)(n) : fz_below(&(t)->rng, (n)))
#define BAD(t, num, den) (!(t)->valid_only && fz_chance(&(t)->rng, (num), (den)))

/* A pointer no process memory is at. */
#define FZ_BAD_PTR 0x10ull

/* ---------------------------------------------------------------- ranges */

/* How a generated device range relates to the file's buffers. */
enum fz_range {
	FZ_RANGE_OK,		/* inside one live buffer */
	FZ_RANGE_NXIO,		/* not inside one live buffer */
	FZ_RANGE_OVERFLOW,	/* its end wraps */
};

/*
 * A range of @size bytes (0: pick one) aligned to @align, valid most of the
 * time. Returns its kind; *va, *size are set.
 */
static enum fz_range gen_range(struct fz_thread *t, uint64_t align, __u64 *va,
			       __u64 *size, bool fixed_size)
{
	struct fz_rng *r = &t->rng;
	struct fz_buf b;
	uint64_t sz = *size;

	if (!fz_pick_buf(t->file, r, &b)) {
		/* Below the window: another thread may be adding a buffer. */
		*va = VNPU_VA_START - FZ_PAGE * (1 + fz_below(r, 16));
		if (!sz)
			*size = sz = 1 + fz_below(r, 64);
		return FZ_RANGE_NXIO;
	}
	if (fixed_size && sz > b.size) {
		/* Cannot fit: from the start, it crosses the end. */
		*va = b.va;
		return FZ_RANGE_NXIO;
	}
	if (!sz)
		sz = align + fz_below(r, b.size < 256 ? b.size : 256) / align * align;
	if (sz > b.size)
		sz = b.size / align * align;
	if (!sz)
		sz = align;
	switch (KNOB(t, 40)) {
	case 0:		/* across the buffer's end: starts inside, ends past it */
		if (sz < 2 * align) {
			if (fixed_size)
				goto below;
			sz = 2 * align;
		}
		*va = b.va + b.size - align * (1 + fz_below(r, sz / align - 1));
		*size = sz;
		return FZ_RANGE_NXIO;
	case 1:		/* below the window, or at 0 */
below:
		*va = fz_chance(r, 1, 2) ? 0 : fz_below(r, VNPU_VA_START) & ~(align - 1);
		*size = sz;
		return FZ_RANGE_NXIO;
	case 2:		/* wrapping */
		if (fixed_size) {
			/* The end is 2^64: it wraps. */
			*va = ~0ull - (sz - 1);
			*size = sz;
			return FZ_RANGE_OVERFLOW;
		}
		*va = b.va;
		*size = ~0ull - b.va + 1 + fz_below(r, 4096);
		return FZ_RANGE_OVERFLOW;
	case 3:		/* huge size from a valid start */
		if (fixed_size)
			break;
		*va = b.va;
		*size = b.size + FZ_PAGE * (1 + fz_below(r, 1u << 20));
		return FZ_RANGE_NXIO;
	default:
		break;
	}
	*size = sz;
	*va = b.va + fz_below(r, (b.size - sz) / align + 1) * align;
	return FZ_RANGE_OK;
}

/* ---------------------------------------------------------------- streams */

void fz_gen_stream_create(struct fz_thread *t)
{
	struct drm_vnpu_stream_create c = { 0 };
	struct fz_expect e;

	c.priority = fz_chance(&t->rng, 7, 8) ? (uint32_t)fz_below(&t->rng, 3) : fz_any32(&t->rng);
	c.flags = fz_chance(&t->rng, 1, 10) ? fz_any32(&t->rng) : 0;
	c.pad = fz_chance(&t->rng, 1, 10) ? fz_any32(&t->rng) : 0;
	c.stream_id = fz_any32(&t->rng);
	if (c.priority > VNPU_PRIORITY_HIGH || c.flags || c.pad)
		fz_expect_invalid(&e, "stream_create_invalid", EINVAL, 0);
	else
		fz_expect_valid(&e, "stream_create", ENOSPC, 0);
	fz_what(t, "STREAM_CREATE priority=%u flags=%#x pad=%#x", c.priority, c.flags, c.pad);
	if (fz_judge(t, FZ_STREAM_CREATE, fz_ioctl(t->file->fd, FZ_STREAM_CREATE,
						    DRM_IOCTL_VNPU_STREAM_CREATE, &c), &e))
		return;
	fz_check(t, "stream_id_nonzero_unique",
		 c.stream_id && !fz_stream_live(t->file, c.stream_id),
		 "stream id %u", c.stream_id);
	if (!fz_add_stream(t->file, c.stream_id)) {
		struct drm_vnpu_stream_destroy d = { .stream_id = c.stream_id };

		fz_ioctl(t->file->fd, FZ_STREAM_DESTROY, DRM_IOCTL_VNPU_STREAM_DESTROY, &d);
	}
}

void fz_gen_stream_destroy(struct fz_thread *t)
{
	struct drm_vnpu_stream_destroy d = { 0 };
	struct fz_stream s;
	struct fz_expect e;
	bool known = fz_chance(&t->rng, 6, 7) && fz_pick_stream(t->file, &t->rng, &s);

	d.stream_id = known ? s.id : unknown_id(&t->rng);
	d.flags = fz_chance(&t->rng, 1, 10) ? fz_any32(&t->rng) : 0;
	if (d.flags)
		fz_expect_invalid(&e, "stream_destroy_flags", EINVAL, 0);
	else if (!known)
		fz_expect_invalid(&e, "stream_destroy_unknown", ENOENT, 0);
	else
		/* Another thread may have destroyed it first. */
		fz_expect_valid(&e, "stream_destroy", fz_opts.threads > 1 ? ENOENT : 0, 0);
	fz_what(t, "STREAM_DESTROY id=%u flags=%#x", d.stream_id, d.flags);
	if (!fz_judge(t, FZ_STREAM_DESTROY, fz_ioctl(t->file->fd, FZ_STREAM_DESTROY,
						      DRM_IOCTL_VNPU_STREAM_DESTROY, &d), &e))
		fz_del_stream(t->file, d.stream_id);
}

void fz_gen_stream_query(struct fz_thread *t)
{
	struct drm_vnpu_stream_query q = { 0 };
	struct fz_stream s;
	struct fz_expect e;
	bool known = fz_chance(&t->rng, 6, 7) && fz_pick_stream(t->file, &t->rng, &s);

	q.stream_id = known ? s.id : unknown_id(&t->rng);
	q.flags = fz_chance(&t->rng, 1, 10) ? fz_any32(&t->rng) : 0;
	q.submitted_seqno = fz_any64(&t->rng);
	q.error = fz_any32(&t->rng);
	if (q.flags)
		fz_expect_invalid(&e, "stream_query_flags", EINVAL,
				  known && fz_opts.threads == 1 ? 0 : ENOENT, 0);
	else if (!known)
		fz_expect_invalid(&e, "stream_query_unknown", ENOENT, 0);
	else
		fz_expect_valid(&e, "stream_query", fz_opts.threads > 1 ? ENOENT : 0, 0);
	fz_what(t, "STREAM_QUERY id=%u flags=%#x", q.stream_id, q.flags);
	if (fz_judge(t, FZ_STREAM_QUERY, fz_ioctl(t->file->fd, FZ_STREAM_QUERY,
						  DRM_IOCTL_VNPU_STREAM_QUERY, &q), &e) || !known)
		return;
	fz_check(t, "stream_query_seqnos", q.completed_seqno <= q.submitted_seqno &&
		 q.submitted_seqno >= s.max_seqno,
		 "submitted %llu completed %llu, a submit returned %llu",
		 (unsigned long long)q.submitted_seqno, (unsigned long long)q.completed_seqno,
		 (unsigned long long)s.max_seqno);
	/* A stopped stream (CANCELED) may have failed at no job. */
	fz_check(t, "stream_query_error", q.error <= VNPU_STREAM_ERROR_ENGINE &&
		 (q.error == VNPU_STREAM_ERROR_CANCELED ? q.failed_seqno <= q.submitted_seqno :
		  q.error ? q.failed_seqno >= 1 && q.failed_seqno <= q.submitted_seqno :
			    !q.failed_seqno),
		 "error %u failed_seqno %llu submitted %llu", q.error,
		 (unsigned long long)q.failed_seqno, (unsigned long long)q.submitted_seqno);
	if (q.error == VNPU_STREAM_ERROR_ENGINE && t->engine_attached && !fz_opts.engine)
		fz_violation(t, "stream_error_engine", "engine error with a live engine server");
	fz_check(t, "stream_query_last_failure", !q.pad && q.last_error <= VNPU_STREAM_ERROR_ENGINE &&
		 q.last_failed_seqno <= q.submitted_seqno && (q.failed_jobs || !q.last_failed_seqno),
		 "failed_jobs %u last_error %u last_failed_seqno %llu pad %u", q.failed_jobs, q.last_error,
		 (unsigned long long)q.last_failed_seqno, q.pad);
}

void fz_gen_stream_set_param(struct fz_thread *t)
{
	struct drm_vnpu_stream_set_param p = { 0 };
	struct fz_stream s;
	struct fz_expect e;
	bool known = fz_chance(&t->rng, 6, 7) && fz_pick_stream(t->file, &t->rng, &s);
	bool bad;

	p.stream_id = known ? s.id : unknown_id(&t->rng);
	if (fz_chance(&t->rng, 7, 8)) {
		static const uint32_t params[] = { VNPU_STREAM_PARAM_HAZARD_POLICY, VNPU_STREAM_PARAM_REQUIRE_POOL,
						   VNPU_STREAM_PARAM_FAILURE_MODE };

		p.param = params[fz_below(&t->rng, 3)];
	} else {
		p.param = fz_any32(&t->rng);
	}
	p.value = fz_chance(&t->rng, 7, 8) ? fz_below(&t->rng, 2) : fz_any64(&t->rng);
	/* Timeouts are not generated (a 1 ms one would fail the stream's
	 * jobs), only judged if a random parameter happens to be one. */
	if (p.param == VNPU_STREAM_PARAM_JOB_TIMEOUT_MS)
		bad = p.value > VNPU_MAX_JOB_TIMEOUT_MS;
	else
		bad = (p.param != VNPU_STREAM_PARAM_HAZARD_POLICY &&
		       p.param != VNPU_STREAM_PARAM_REQUIRE_POOL &&
		       p.param != VNPU_STREAM_PARAM_FAILURE_MODE) || p.value > 1;
	if (bad)
		fz_expect_invalid(&e, "stream_set_param_invalid", EINVAL,
				  known && fz_opts.threads == 1 ? 0 : ENOENT, 0);
	else if (!known)
		fz_expect_invalid(&e, "stream_set_param_unknown", ENOENT, 0);
	else
		fz_expect_valid(&e, "stream_set_param", fz_opts.threads > 1 ? ENOENT : 0, 0);
	fz_what(t, "STREAM_SET_PARAM id=%u param=%u value=%llu", p.stream_id, p.param,
		(unsigned long long)p.value);
	if (!fz_judge(t, FZ_STREAM_SET_PARAM, fz_ioctl(t->file->fd, FZ_STREAM_SET_PARAM,
							DRM_IOCTL_VNPU_STREAM_SET_PARAM, &p), &e))
		fz_stream_param(t->file, p.stream_id, p.param, p.value);
}

void fz_gen_stream_abort(struct fz_thread *t)
{
	struct drm_vnpu_stream_abort a = { 0 };
	struct fz_stream s;
	struct fz_expect e;
	bool known = fz_chance(&t->rng, 6, 7) && fz_pick_stream(t->file, &t->rng, &s);

	a.stream_id = known ? s.id : unknown_id(&t->rng);
	if (fz_chance(&t->rng, 1, 10))
		a.flags = fz_any32(&t->rng);
	else if (fz_chance(&t->rng, 1, 4))
		a.flags = VNPU_STREAM_ABORT_STOP;
	a.seqno = fz_any64(&t->rng);
	if (a.flags & ~VNPU_STREAM_ABORT_STOP)
		fz_expect_invalid(&e, "stream_abort_flags", EINVAL, 0);
	else if (!known)
		fz_expect_invalid(&e, "stream_abort_unknown", ENOENT, 0);
	else
		fz_expect_valid(&e, "stream_abort", fz_opts.threads > 1 ? ENOENT : 0, 0);
	fz_what(t, "STREAM_ABORT id=%u flags=%#x", a.stream_id, a.flags);
	if (fz_judge(t, FZ_STREAM_ABORT, fz_ioctl(t->file->fd, FZ_STREAM_ABORT, DRM_IOCTL_VNPU_STREAM_ABORT,
						  &a), &e) || !known)
		return;
	fz_check(t, "stream_abort_seqnos", a.completed_seqno <= a.seqno && a.seqno >= s.max_seqno,
		 "seqno %llu completed %llu, a submit returned %llu", (unsigned long long)a.seqno,
		 (unsigned long long)a.completed_seqno, (unsigned long long)s.max_seqno);
}

/* ---------------------------------------------------------------- SUBMIT */

/* What a generated submit is: which errnos its invalid parts allow. */
struct fz_sub {
	bool early_bad;		/* checked before the stream-failed check */
	bool late_bad;		/* in-syncs: checked after it */
	bool workspace;		/* an OP with a WORKSPACE operand */
	bool may_block;		/* a WAIT_VALUE that may not hold */
	int errs[FZ_MAX_EXPECT];
	unsigned int nerr;
	char why[64];		/* source lines that made it invalid */
};

#define sub_bad(s, late, err) sub_bad_at(s, late, err, __LINE__)

static void sub_bad_at(struct fz_sub *s, bool late, int err, int line)
{
	size_t len = strlen(s->why);
	unsigned int i;

	if (len < sizeof(s->why) - 8)
		snprintf(s->why + len, sizeof(s->why) - len, "%s%d", len ? "," : "", line);

	if (late)
		s->late_bad = true;
	else
		s->early_bad = true;
	for (i = 0; i < s->nerr; i++)
		if (s->errs[i] == err)
			return;
	if (s->nerr < FZ_MAX_EXPECT)
		s->errs[s->nerr++] = err;
}

static void sub_range(struct fz_sub *s, enum fz_range k)
{
	if (k == FZ_RANGE_NXIO)
		sub_bad(s, false, ENXIO);
	else if (k == FZ_RANGE_OVERFLOW) {
		sub_bad(s, false, EOVERFLOW);
		sub_bad(s, false, ENXIO);
	}
}

/* The data area of a submit being built. */
struct fz_data {
	uint8_t *buf;
	uint32_t used;
	uint32_t cap;
};

static uint32_t data_put(struct fz_data *d, const void *src, uint32_t len)
{
	uint32_t off = (d->used + 7) & ~7u;

	if (off + len > d->cap)
		return UINT32_MAX;
	memcpy(d->buf + off, src, len);
	d->used = off + len;
	return off;
}

static void gen_op_task(struct fz_thread *t, struct drm_vnpu_task *task, struct fz_data *d,
			struct fz_sub *s)
{
	struct fz_rng *r = &t->rng;
	struct drm_vnpu_operand ops[8];
	uint8_t desc[256];
	uint32_t i, n = (uint32_t)fz_below(r, 6), dlen = 1 + (uint32_t)fz_below(r, sizeof(desc));
	uint32_t doff, ooff;

	for (i = 0; i < dlen; i++)
		desc[i] = (uint8_t)fz_next(r);
	doff = data_put(d, desc, dlen);
	memset(ops, 0, sizeof(ops));
	for (i = 0; i < n; i++) {
		ops[i].access = 1 + (uint32_t)fz_below(r, 3);
		ops[i].size = 0;
		sub_range(s, gen_range(t, 1, &ops[i].va, &ops[i].size, false));
		if (ops[i].access == VNPU_OPERAND_WORKSPACE)
			s->workspace = true;
		switch (KNOB(t, 24)) {
		case 0:
			ops[i].access = fz_chance(r, 1, 2) ? 0 : 4 + fz_any32(r) % 1000;
			sub_bad(s, false, EINVAL);
			break;
		case 1:
			ops[i].pad = 1 + fz_any32(r) % 1000;
			sub_bad(s, false, EINVAL);
			break;
		case 2:
			ops[i].size = 0;
			sub_bad(s, false, EINVAL);
			break;
		}
	}
	ooff = n ? data_put(d, ops, n * (uint32_t)sizeof(ops[0])) : d->used & ~7u;
	if (doff == UINT32_MAX || ooff == UINT32_MAX) {
		doff = ooff = d->cap + 8;
		sub_bad(s, false, EINVAL);
	}
	task->kind = VNPU_TASK_OP;
	task->op.desc_offset = doff;
	task->op.desc_size = dlen;
	task->op.operand_offset = ooff;
	task->op.operand_count = n;
	switch (KNOB(t, 16)) {
	case 0:
		task->op.desc_size = fz_chance(r, 1, 2) ? 0 : VNPU_MAX_OP_DESC_SIZE + 1 +
			(uint32_t)fz_below(r, 100);
		sub_bad(s, false, EINVAL);
		break;
	case 1:
		task->op.desc_offset = doff + 1 + (uint32_t)fz_below(r, 7);
		sub_bad(s, false, EINVAL);
		break;
	case 2:
		task->op.operand_offset = fz_chance(r, 1, 2) ? ooff + 4 : d->cap + 8 * fz_any32(r);
		if (n || task->op.operand_offset % 8 || task->op.operand_offset > d->cap)
			sub_bad(s, false, EINVAL);
		break;
	case 3:
		task->op.operand_count = VNPU_MAX_OP_OPERANDS + 1 + (uint32_t)fz_below(r, 1000);
		sub_bad(s, false, EINVAL);
		break;
	case 4:
		task->op.desc_offset = fz_any32(r) & ~7u;
		if (task->op.desc_offset + (uint64_t)task->op.desc_size > d->cap)
			sub_bad(s, false, EINVAL);
		break;
	}
}

static void gen_task(struct fz_thread *t, struct drm_vnpu_task *task, struct fz_data *d,
		     struct fz_sub *s)
{
	struct fz_rng *r = &t->rng;
	uint32_t kind = (uint32_t)fz_below(r, 7);

	/* Random descriptors fail their stream: operators at half the rate. */
	if (kind == VNPU_TASK_OP && fz_chance(r, 1, 2))
		kind = VNPU_TASK_NOP;
	enum fz_range k;
	__u64 size;

	memset(task, 0, sizeof(*task));
	if (BAD(t, 1, 40)) {
		task->kind = 7 + fz_any32(r) % 100000;
		sub_bad(s, false, EINVAL);
		return;
	}
	switch (kind) {
	case VNPU_TASK_NOP:
		task->kind = VNPU_TASK_NOP;
		break;
	case VNPU_TASK_COPY:
		task->kind = kind;
		size = 0;
		k = gen_range(t, 1, &task->copy.dst, &size, false);
		sub_range(s, k);
		task->copy.size = size;
		sub_range(s, gen_range(t, 1, &task->copy.src, &size, true));
		if (BAD(t, 1, 30)) {
			task->copy.size = 0;
			sub_bad(s, false, EINVAL);
		}
		break;
	case VNPU_TASK_FILL:
		task->kind = kind;
		size = 0;
		sub_range(s, gen_range(t, 1, &task->fill.dst, &size, false));
		task->fill.size = size;
		task->fill.value = (uint32_t)fz_below(r, 256);
		switch (KNOB(t, 30)) {
		case 0:
			task->fill.value = 256 + fz_any32(r) % 0xffffff00u;
			sub_bad(s, false, EINVAL);
			break;
		case 1:
			task->fill.pad = 1 + fz_any32(r) % 1000;
			sub_bad(s, false, EINVAL);
			break;
		case 2:
			task->fill.size = 0;
			sub_bad(s, false, EINVAL);
			break;
		case 3:
		case 4:
		case 5:
			/* A word fill (ABI 2.3): aligned whole words only. */
			task->flags = VNPU_TASK_FILL_32;
			task->fill.value = fz_any32(r);
			if (task->fill.dst % 4 || task->fill.size % 4)
				sub_bad(s, false, EINVAL);
			break;
		}
		break;
	case VNPU_TASK_WRITE_VALUE:
	case VNPU_TASK_WAIT_VALUE: {
		bool is64 = fz_chance(r, 1, 2);

		task->kind = kind;
		task->flags = is64 ? VNPU_TASK_VALUE_64 : 0;
		size = is64 ? 8 : 4;
		sub_range(s, gen_range(t, size, &task->value.addr, &size, true));
		task->value.value = fz_any64(r);
		if (kind == VNPU_TASK_WAIT_VALUE) {
			/* Mostly conditions that hold at once. */
			if (fz_chance(r, 9, 10)) {
				task->value.cmp = VNPU_WAIT_GEQ;
				task->value.value = 0;
			} else {
				task->value.cmp = (uint32_t)fz_below(r, 4);
				s->may_block = true;
			}
		}
		switch (KNOB(t, 30)) {
		case 0:
			task->value.cmp = kind == VNPU_TASK_WAIT_VALUE ?
					  4 + fz_any32(r) % 1000 : 1 + (uint32_t)fz_below(r, 3);
			sub_bad(s, false, EINVAL);
			break;
		case 1:
			task->value.pad = 1 + fz_any32(r) % 1000;
			sub_bad(s, false, EINVAL);
			break;
		case 2:
			task->value.addr += 1 + fz_below(r, is64 ? 7 : 3);
			sub_bad(s, false, EINVAL);
			sub_bad(s, false, ENXIO);
			break;
		case 3:
			task->flags = 2u << fz_below(r, 31);
			sub_bad(s, false, EINVAL);
			break;
		}
		break;
	}
	case VNPU_TASK_TIMESTAMP:
		task->kind = kind;
		size = 8;
		sub_range(s, gen_range(t, 8, &task->timestamp.addr, &size, true));
		if (BAD(t, 1, 30)) {
			task->timestamp.addr |= 1 + fz_below(r, 7);
			sub_bad(s, false, EINVAL);
			sub_bad(s, false, ENXIO);
		}
		break;
	default:
		if (!d->cap && t->valid_only) {
			task->kind = VNPU_TASK_NOP;
			break;
		}
		gen_op_task(t, task, d, s);
		break;
	}
	/* Flags of a non-value task, and bytes past the kind's member. */
	if (BAD(t, 1, 40) && task->kind != VNPU_TASK_WRITE_VALUE &&
	    task->kind != VNPU_TASK_WAIT_VALUE) {
		task->flags = 1u << fz_below(r, 32);
		if (task->kind == VNPU_TASK_FILL && task->flags == VNPU_TASK_FILL_32)
			task->flags = 1u << 2;
		sub_bad(s, false, EINVAL);
	}
	if (BAD(t, 1, 40)) {
		task->raw[10] = 1 + fz_below(r, 1000);
		sub_bad(s, false, EINVAL);
	}
}

static uint32_t make_syncobj(struct fz_thread *t)
{
	uint32_t h = 0;

	if (drmSyncobjCreate(t->file->fd, 0, &h))
		return 0;
	return h;
}

void fz_gen_submit(struct fz_thread *t)
{
	static const uint32_t counts[] = { 1, 1, 1, 2, 2, 3, 4, 6, 8, 16 };
	struct fz_rng *r = &t->rng;
	struct drm_vnpu_submit sb = { 0 };
	struct drm_vnpu_sync in[VNPU_MAX_IN_SYNCS + 1];
	struct drm_vnpu_task *tasks;
	struct fz_sub s = { 0 };
	struct fz_data d = { 0 };
	struct fz_stream st;
	struct fz_expect e;
	uint32_t i, n, job_sync = 0, own_out = 0;
	uint64_t own_point = 0;
	bool known;
	int ret;

	t->valid_only = fz_chance(r, 1, 2);
	known = (t->valid_only || fz_chance(r, 9, 10)) && fz_pick_stream(t->file, r, &st);
	n = counts[fz_below(r, sizeof(counts) / sizeof(counts[0]))];
	if (BAD(t, 1, 60))
		n = fz_chance(r, 1, 2) ? 0 : VNPU_MAX_TASKS_PER_SUBMIT + 1;
	tasks = calloc(n ? n : 1, sizeof(*tasks));
	d.cap = fz_chance(r, 1, 3) ? 0 : 4096;
	d.buf = calloc(1, d.cap ? d.cap : 8);
	if (!tasks || !d.buf)
		goto out;
	if (n == 0 || n > VNPU_MAX_TASKS_PER_SUBMIT) {
		sub_bad(&s, false, EINVAL);
		for (i = 0; i < n; i++)
			tasks[i].kind = VNPU_TASK_NOP;
	} else {
		for (i = 0; i < n; i++) {
			if (!d.cap && fz_chance(r, 1, 2)) {
				tasks[i].kind = VNPU_TASK_NOP;
				continue;
			}
			gen_task(t, &tasks[i], &d, &s);
		}
	}
	sb.stream_id = known ? st.id : unknown_id(r);
	if (!known)
		sub_bad(&s, false, ENOENT);
	sb.tasks = (uint64_t)(uintptr_t)tasks;
	sb.task_count = n;
	sb.task_size = sizeof(*tasks);
	sb.data = (uint64_t)(uintptr_t)d.buf;
	sb.data_size = d.cap;
	sb.flags = fz_chance(r, 1, 4) ? VNPU_SUBMIT_NONBLOCK : 0;
	sb.seqno = fz_any64(r);
	switch (KNOB(t, 40)) {
	case 0:
		sb.flags |= 2u << fz_below(r, 31);
		sub_bad(&s, false, EINVAL);
		break;
	case 1:
		sb.task_size = fz_chance(r, 1, 2) ? 0 : fz_any32(r) | 1;
		sub_bad(&s, false, EINVAL);
		break;
	case 2:
		sb.tasks = fz_chance(r, 1, 2) ? 0 : FZ_BAD_PTR;
		sub_bad(&s, false, EFAULT);
		break;
	case 3:
		sb.data_size = VNPU_MAX_SUBMIT_DATA + 1 + (uint32_t)fz_below(r, 1u << 20);
		sub_bad(&s, false, EINVAL);
		break;
	case 4:
		sb.data = 0;
		if (sb.data_size)
			sub_bad(&s, false, EINVAL);
		break;
	case 5:
		if (sb.data_size) {
			sb.data = FZ_BAD_PTR;
			sub_bad(&s, false, EFAULT);
		}
		break;
	}
	/* In-syncs: the thread's own syncobjs that have a fence. */
	sb.in_sync_count = (uint32_t)fz_below(r, 3);
	for (i = 0; i < sb.in_sync_count; i++) {
		bool usable = false;
		struct fz_sync y;
		int tries;

		memset(&in[i], 0, sizeof(in[i]));
		for (tries = 0; tries < 4 && !usable; tries++)
			usable = fz_pick_sync(t->file, r, t->tid, &y) &&
				 (y.timeline ? y.last_point > 0 : y.has_fence);
		if (!usable && t->valid_only) {
			sb.in_sync_count = i;
			break;
		}
		if (!usable || BAD(t, 1, 12)) {
			in[i].handle = (1u << 30) + (uint32_t)fz_below(r, 1u << 30);
			sub_bad(&s, true, ENOENT);
			continue;
		}
		in[i].handle = y.handle;
		if (y.timeline) {
			in[i].point = 1 + fz_below(r, y.last_point);
			if (BAD(t, 1, 12)) {
				in[i].point = y.last_point + 1000000 + fz_below(r, 1000);
				sub_bad(&s, true, EINVAL);
			}
		} else if (BAD(t, 1, 20)) {
			in[i].point = 1 + fz_below(r, 100);	/* a point on a binary syncobj */
			sub_bad(&s, true, EINVAL);
		}
		if (BAD(t, 1, 30)) {
			in[i].flags = 1u << fz_below(r, 32);
			sub_bad(&s, true, EINVAL);
		}
	}
	if (BAD(t, 1, 40)) {
		sb.in_sync_count = VNPU_MAX_IN_SYNCS + 1 + (uint32_t)fz_below(r, 1000);
		sub_bad(&s, false, EINVAL);
	}
	sb.in_syncs = (uint64_t)(uintptr_t)in;
	if (sb.in_sync_count && BAD(t, 1, 40)) {
		sb.in_syncs = FZ_BAD_PTR;
		sub_bad(&s, true, EFAULT);
	}
	/* The out-sync: a job syncobj the fence oracle watches, or an own one. */
	switch (fz_below(r, 10)) {
	case 0:
		break;
	case 1:
	case 2: {
		struct fz_sync y;


		if (!fz_pick_sync(t->file, r, t->tid, &y))
			break;
		sb.out_sync.handle = own_out = y.handle;
		if (y.timeline)
			sb.out_sync.point = own_point = y.last_point + 1 + fz_below(r, 3);
		break;
	}
	case 3:
		if (t->valid_only) {
			sb.out_sync.handle = job_sync = make_syncobj(t);
		} else if (fz_chance(r, 1, 2)) {
			sb.out_sync.handle = (1u << 30) + (uint32_t)fz_below(r, 1u << 30);
			sub_bad(&s, false, ENOENT);
		} else if (fz_chance(r, 1, 2)) {
			sb.out_sync.point = 1 + fz_below(r, 1000);
			sub_bad(&s, false, EINVAL);
		} else {
			sb.out_sync.handle = job_sync = make_syncobj(t);
			sb.out_sync.flags = 1u << fz_below(r, 32);
			sub_bad(&s, false, EINVAL);
		}
		break;
	default:
		sb.out_sync.handle = job_sync = make_syncobj(t);
		break;
	}

	if (s.early_bad || s.late_bad) {
		fz_expect_invalid(&e, "submit_invalid", 0);
		memcpy(e.errs, s.errs, sizeof(s.errs));
		e.nerr = s.nerr;
		/* The stream may have been destroyed by another thread. */
		fz_expect_also(&e, ENOENT, ENOMEM, 0);
		if (s.workspace)
			fz_expect_also(&e, EACCES, 0);
		if (!s.early_bad)
			fz_expect_also(&e, EIO, sb.flags & VNPU_SUBMIT_NONBLOCK ? ENOBUFS : EIO, 0);
	} else {
		fz_expect_valid(&e, "submit", EIO, fz_opts.threads > 1 ? ENOENT : EIO, 0);
		if (sb.flags & VNPU_SUBMIT_NONBLOCK)
			fz_expect_also(&e, ENOBUFS, 0);
		if (s.workspace)
			fz_expect_also(&e, EACCES, EBUSY, 0);
		if (!t->engine_attached && !fz_opts.engine)
			fz_expect_also(&e, ENOTCONN, 0);
	}
	fz_what(t, "SUBMIT stream=%u flags=%#x tasks=%u task_size=%u data=%u in=%u out=%u/%llu%s%s",
		sb.stream_id, sb.flags, sb.task_count, sb.task_size, sb.data_size,
		sb.in_sync_count, sb.out_sync.handle, (unsigned long long)sb.out_sync.point,
		s.why[0] ? " invalid@gen_stream.c:" : "", s.why);
	ret = fz_judge(t, FZ_SUBMIT, fz_ioctl(t->file->fd, FZ_SUBMIT, DRM_IOCTL_VNPU_SUBMIT, &sb),
		       &e);
	if (ret == -EIO && known && fz_chance(r, 1, 2)) {
		/* A failed stream: what a client does with it. */
		struct drm_vnpu_stream_destroy dd = { .stream_id = st.id };

		if (!fz_ioctl(t->file->fd, FZ_STREAM_DESTROY, DRM_IOCTL_VNPU_STREAM_DESTROY, &dd))
			fz_del_stream(t->file, st.id);
	}
	if (ret)
		goto out;
	fz_check(t, "submit_seqno", sb.seqno >= 1 && sb.seqno > st.max_seqno,
		 "seqno %llu, an earlier submit returned %llu", (unsigned long long)sb.seqno,
		 (unsigned long long)st.max_seqno);
	fz_stream_seqno(t->file, st.id, sb.seqno);
	if (own_out)
		fz_sync_fenced(t->file, own_out, own_point);
	if (job_sync && fz_add_fence(t->file, job_sync, st.id, fz_now_ns()))
		job_sync = 0;
out:
	t->valid_only = false;
	if (job_sync)
		drmSyncobjDestroy(t->file->fd, job_sync);
	free(tasks);
	free(d.buf);
}

/* ---------------------------------------------------------------- fences */

static bool fence_error_documented(int status)
{
	return status == 1 || status == -EIO || status == -ETIMEDOUT || status == -EDOM ||
	       status == -ECANCELED || status == -ESRCH || status == -EPIPE;
}

/* Judge a signalled job fence; destroys the syncobj. */
static void fence_done(struct fz_thread *t, const struct fz_fence *fe)
{
	int fd = t->file->fd;

	if (fz_opts.export_job_fences) {
		struct sync_file_info info;
		int sfd, ret;

		ret = drmSyncobjExportSyncFile(fd, fe->sync, &sfd) ? -errno : 0;
		fz_count(FZ_SYNCOBJ_HANDLE_TO_FD, ret);
		fz_check(t, "job_fence_export", !ret, "export of a signalled job fence: %d", ret);
		if (!ret) {
			memset(&info, 0, sizeof(info));
			ret = ioctl(sfd, SYNC_IOC_FILE_INFO, &info) ? -errno : 0;
			fz_count(FZ_SYNC_FILE_INFO, ret);
			if (!ret)
				fz_check(t, "job_fence_error", fence_error_documented(info.status),
					 "job fence of stream %u signalled with %d", fe->stream,
					 info.status);
			close(sfd);
		}
	}
	fz_count(FZ_SYNCOBJ_DESTROY, drmSyncobjDestroy(fd, fe->sync) ? -errno : 0);
}

void fz_gen_fence_check(struct fz_thread *t)
{
	struct fz_fence fe;
	uint64_t age;
	int ret;

	if (!fz_take_fence(t->file, &t->rng, &fe))
		return;
	fz_what(t, "SYNCOBJ_WAIT job fence %u (stream %u)", fe.sync, fe.stream);
	ret = drmSyncobjWait(t->file->fd, &fe.sync, 1, 0, 0, NULL) ? -errno : 0;
	fz_count(FZ_SYNCOBJ_WAIT, ret);
	if (!ret) {
		fence_done(t, &fe);
		return;
	}
	fz_check(t, "syncobj_wait_errno", ret == -ETIME, "wait for job fence: %d", ret);
	age = (fz_now_ns() - fe.submit_ns) / 1000000;
	if (!fz_check(t, "job_fence_bound", age <= fz_opts.fence_bound_ms,
		      "job fence of stream %u unsignalled after %llu ms", fe.stream,
		      (unsigned long long)age)) {
		drmSyncobjDestroy(t->file->fd, fe.sync);
		return;
	}
	if (!fz_add_fence(t->file, fe.sync, fe.stream, fe.submit_ns))
		drmSyncobjDestroy(t->file->fd, fe.sync);
}

void fz_drain_fences(struct fz_thread *t, bool destroy_streams)
{
	struct fz_file *f = t->file;
	struct fz_stream st;
	struct fz_fence fe;
	uint64_t bound_ns;

	if (destroy_streams) {
		while (fz_pick_stream(f, &t->rng, &st)) {
			struct drm_vnpu_stream_destroy d = { .stream_id = st.id };

			fz_ioctl(f->fd, FZ_STREAM_DESTROY, DRM_IOCTL_VNPU_STREAM_DESTROY, &d);
			fz_del_stream(f, st.id);
		}
	}
	/* Destroyed streams end their jobs at once, or at the server's next chunk. */
	bound_ns = (destroy_streams ? VNPU_ENGINE_GRACE_MS + 30000ull : fz_opts.fence_bound_ms) *
		   1000000ull;
	while (fz_take_fence(f, &t->rng, &fe)) {
		int64_t deadline = (int64_t)(fz_now_ns() + bound_ns);
		int ret;

		fz_what(t, "SYNCOBJ_WAIT (drain) job fence %u (stream %u)", fe.sync, fe.stream);
		ret = drmSyncobjWait(f->fd, &fe.sync, 1, deadline, 0, NULL) ? -errno : 0;
		fz_count(FZ_SYNCOBJ_WAIT, ret);
		if (fz_check(t, "job_fence_bound", !ret,
			     "job fence of stream %u unsignalled %llu ms into the drain: %d",
			     fe.stream, (unsigned long long)(bound_ns / 1000000), ret))
			fence_done(t, &fe);
		else
			drmSyncobjDestroy(f->fd, fe.sync);
	}
}

/* ---------------------------------------------------------------- SIGNAL, pools */

void fz_gen_signal(struct fz_thread *t)
{
	struct drm_vnpu_signal sg = { 0 };
	struct fz_expect e;
	enum fz_range k;
	__u64 size = 0;

	k = gen_range(t, 1, &sg.va, &size, false);
	sg.size = size;
	sg.flags = fz_chance(&t->rng, 1, 12) ? 1u << fz_below(&t->rng, 32) : 0;
	sg.woken = fz_any32(&t->rng);
	if (fz_chance(&t->rng, 1, 12))
		sg.size = 0;
	if (sg.flags || !sg.size)
		fz_expect_invalid(&e, "signal_invalid", EINVAL, k != FZ_RANGE_OK ? ENXIO : EINVAL,
				  k == FZ_RANGE_OVERFLOW ? EOVERFLOW : EINVAL, 0);
	else if (k == FZ_RANGE_NXIO)
		fz_expect_invalid(&e, "signal_range", ENXIO, 0);
	else if (k == FZ_RANGE_OVERFLOW)
		fz_expect_invalid(&e, "signal_range", EOVERFLOW, ENXIO, 0);
	else
		fz_expect_valid(&e, "signal", 0);
	fz_what(t, "SIGNAL va=%#llx size=%llu flags=%#x", (unsigned long long)sg.va,
		(unsigned long long)sg.size, sg.flags);
	fz_judge(t, FZ_SIGNAL, fz_ioctl(t->file->fd, FZ_SIGNAL, DRM_IOCTL_VNPU_SIGNAL, &sg), &e);
}

static bool query_pool(struct fz_thread *t, uint32_t stream, struct drm_vnpu_pool_query *q,
		       struct drm_vnpu_pool_range *ranges, uint32_t cap)
{
	memset(q, 0, sizeof(*q));
	q->stream_id = stream;
	q->range_count = cap;
	q->ranges = (uint64_t)(uintptr_t)ranges;
	return !fz_ioctl(t->file->fd, FZ_POOL_QUERY, DRM_IOCTL_VNPU_POOL_QUERY, q);
}

void fz_gen_pool_bind(struct fz_thread *t, bool unbind)
{
	struct drm_vnpu_pool_bind pb = { 0 };
	enum fz_call call = unbind ? FZ_POOL_UNBIND : FZ_POOL_BIND;
	struct fz_stream st;
	struct fz_expect e;
	enum fz_range k;
	__u64 size = 0;
	bool known = fz_chance(&t->rng, 8, 9) && fz_pick_stream(t->file, &t->rng, &st);
	int ret;

	pb.stream_id = known ? st.id : unknown_id(&t->rng);
	k = gen_range(t, fz_chance(&t->rng, 1, 2) ? FZ_PAGE : 1, &pb.va, &size, false);
	if (unbind && known && fz_chance(&t->rng, 2, 3)) {
		/* A piece of a bound range: whole, a head, a tail or the middle. */
		struct drm_vnpu_pool_range ranges[16];
		struct drm_vnpu_pool_query q;

		if (query_pool(t, st.id, &q, ranges, 16) && q.range_count) {
			struct drm_vnpu_pool_range *rg =
				&ranges[fz_below(&t->rng, q.range_count < 16 ? q.range_count : 16)];
			uint64_t off = fz_below(&t->rng, rg->size);

			pb.va = rg->va + off;
			size = 1 + fz_below(&t->rng, rg->size - off);
			if (fz_chance(&t->rng, 1, 3)) {
				pb.va = rg->va;
				size = rg->size;
			}
			k = FZ_RANGE_OK;
		}
	}
	pb.size = fz_chance(&t->rng, 1, 20) ? 0 : size;
	pb.flags = fz_chance(&t->rng, 1, 20) ? 1u << fz_below(&t->rng, 32) : 0;
	if (pb.flags || !pb.size)
		fz_expect_invalid(&e, "pool_bind_invalid", EINVAL, 0);
	else if (!known)
		fz_expect_invalid(&e, "pool_bind_unknown_stream", ENOENT, 0);
	else if (k == FZ_RANGE_NXIO)
		/* The stream may be destroyed by another thread: ENOENT first. */
		fz_expect_invalid(&e, "pool_bind_range", ENXIO,
				  unbind || fz_opts.threads > 1 ? ENOENT : ENXIO, 0);
	else if (k == FZ_RANGE_OVERFLOW)
		fz_expect_invalid(&e, "pool_bind_range", EOVERFLOW, ENXIO,
				  unbind || fz_opts.threads > 1 ? ENOENT : ENXIO, 0);
	else
		fz_expect_valid(&e, unbind ? "pool_unbind" : "pool_bind", ENOSPC,
				unbind || fz_opts.threads > 1 ? ENOENT : ENOSPC, 0);
	fz_what(t, "POOL_%s stream=%u va=%#llx size=%llu flags=%#x", unbind ? "UNBIND" : "BIND",
		pb.stream_id, (unsigned long long)pb.va, (unsigned long long)pb.size, pb.flags);
	ret = fz_judge(t, call, fz_ioctl(t->file->fd, call, unbind ? DRM_IOCTL_VNPU_POOL_UNBIND :
					 DRM_IOCTL_VNPU_POOL_BIND, &pb), &e);
	if (ret || fz_opts.threads > 1)
		return;
	/* One thread: the pool must now (not) cover the range. */
	{
		struct drm_vnpu_pool_range ranges[64];
		struct drm_vnpu_pool_query q;
		bool covered = false;
		uint32_t i;

		if (!query_pool(t, pb.stream_id, &q, ranges, 64) || q.range_count > 64)
			return;
		for (i = 0; i < q.range_count; i++)
			if (ranges[i].va <= pb.va &&
			    pb.va + pb.size <= ranges[i].va + ranges[i].size)
				covered = true;
		fz_check(t, unbind ? "pool_unbind_removes" : "pool_bind_covers", covered != unbind,
			 "range %#llx+%llu %s after %s", (unsigned long long)pb.va,
			 (unsigned long long)pb.size, covered ? "bound" : "not bound",
			 unbind ? "unbind" : "bind");
	}
}

void fz_gen_pool_query(struct fz_thread *t)
{
	struct drm_vnpu_pool_range ranges[8];
	struct drm_vnpu_pool_query q = { 0 }, tot;
	struct fz_stream st;
	struct fz_expect e;
	uint32_t cap = (uint32_t)fz_below(&t->rng, 9), i;
	int which = (int)fz_below(&t->rng, 8);
	bool known = which > 1 && fz_pick_stream(t->file, &t->rng, &st);

	q.stream_id = known ? st.id : which == 0 ? 0 : unknown_id(&t->rng);
	q.range_count = cap;
	q.ranges = (uint64_t)(uintptr_t)ranges;
	q.flags = fz_chance(&t->rng, 1, 20) ? 1u << fz_below(&t->rng, 32) : 0;
	q.pad = fz_chance(&t->rng, 1, 20) ? fz_any32(&t->rng) | 1 : 0;
	if (fz_chance(&t->rng, 1, 20) && cap) {
		q.ranges = FZ_BAD_PTR;
		fz_expect_valid(&e, "pool_query", EFAULT, fz_opts.threads > 1 ? ENOENT : 0, 0);
	} else {
		fz_expect_valid(&e, "pool_query", fz_opts.threads > 1 ? ENOENT : 0, 0);
	}
	if (q.flags || q.pad)
		fz_expect_invalid(&e, "pool_query_invalid", EINVAL,
				  fz_opts.threads > 1 ? ENOENT : 0, 0);
	else if (q.stream_id && !known)
		fz_expect_invalid(&e, "pool_query_unknown_stream", ENOENT, 0);
	fz_what(t, "POOL_QUERY stream=%u count=%u flags=%#x pad=%#x", q.stream_id, cap, q.flags,
		q.pad);
	if (fz_judge(t, FZ_POOL_QUERY, fz_ioctl(t->file->fd, FZ_POOL_QUERY,
						DRM_IOCTL_VNPU_POOL_QUERY, &q), &e))
		return;
	if (!q.stream_id) {
		fz_check(t, "pool_query_file_no_ranges", q.range_count == 0, "%u ranges",
			 q.range_count);
		return;
	}
	{
		uint64_t sum = 0;

		for (i = 0; i < q.range_count && i < cap; i++) {
			fz_check(t, "pool_query_range", ranges[i].size &&
				 ranges[i].va >= t->file->va_start &&
				 ranges[i].va + ranges[i].size <= t->file->va_end,
				 "range %#llx+%llu", (unsigned long long)ranges[i].va,
				 (unsigned long long)ranges[i].size);
			sum += ranges[i].size;
		}
		if (q.range_count <= cap && q.ranges != FZ_BAD_PTR && fz_opts.threads == 1)
			fz_check(t, "pool_query_bytes_bound", sum == q.stats.bytes_bound,
				 "ranges sum to %llu, bytes_bound %llu", (unsigned long long)sum,
				 (unsigned long long)q.stats.bytes_bound);
	}
	/* File totals (including destroyed streams) never fall below a stream's. */
	if (query_pool(t, 0, &tot, NULL, 0))
		fz_check(t, "pool_query_totals", tot.stats.binds >= q.stats.binds &&
			 tot.stats.unbinds >= q.stats.unbinds &&
			 tot.stats.hazards_serialized >= q.stats.hazards_serialized &&
			 tot.stats.hazards_rejected >= q.stats.hazards_rejected &&
			 tot.stats.ws_bytes_used >= q.stats.ws_bytes_used &&
			 tot.stats.ws_tasks >= q.stats.ws_tasks,
			 "file binds %llu ws_tasks %llu below stream %u's %llu %llu",
			 (unsigned long long)tot.stats.binds,
			 (unsigned long long)tot.stats.ws_tasks,
			 q.stream_id, (unsigned long long)q.stats.binds,
			 (unsigned long long)q.stats.ws_tasks);
}
