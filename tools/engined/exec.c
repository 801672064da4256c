// SPDX-License-Identifier: GPL-2.0
/*
 * exec.c - running one job's tasks.
 *
 * Everything a task touches is an operand the kernel checked, reached
 * through env->map; every access is checked again here against the
 * operand's range (and the range against its buffer), whatever the task
 * or the descriptor says. A task that does not fit faults its job: never
 * a crash, never a byte outside the operands.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "engined.h"

struct exec_memo {
	uint64_t id;
	uint64_t offset;
	uint64_t size;
	unsigned char *base;
};

/* One job's run: the buffers it resolved so far, and where it reports. */
struct exec_ctx {
	const struct job_view *view;
	const struct exec_env *env;
	struct exec_result *res;
	struct exec_memo memo[EXEC_MEMO];
	unsigned int memo_next;
};

static uint32_t fault(struct exec_ctx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static uint32_t fault(struct exec_ctx *x, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(x->res->why, sizeof(x->res->why), fmt, ap);
	va_end(ap);
	return VNPU_ENGINE_DONE_FAULT;
}

int exec_copy(void *dst, const void *src, uint64_t n, uint64_t chunk, const uint32_t *cancel)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	bool backward = (uintptr_t)d > (uintptr_t)s && (uintptr_t)d - (uintptr_t)s < n;
	uint64_t done = 0;

	if (!chunk)
		chunk = EXEC_CHUNK;
	while (done < n) {
		uint64_t c = n - done < chunk ? n - done : chunk;

		if (backward)
			memmove(d + (n - done - c), s + (n - done - c), c);
		else
			memmove(d + done, s + done, c);
		done += c;
		if (done < n && exec_canceled(cancel))
			return -ECANCELED;
	}
	return 0;
}

/* Store @word at each of the @n / 4 words at @d (any alignment). */
static void fill_words(unsigned char *d, uint32_t word, uint64_t n)
{
	uint64_t i;

	for (i = 0; i + 4 <= n; i += 4)
		memcpy(d + i, &word, 4);
}

int exec_fill(void *dst, uint32_t value, unsigned int width, uint64_t n, uint64_t chunk, const uint32_t *cancel)
{
	unsigned char *d = dst;
	uint64_t done = 0;

	if (!chunk)
		chunk = EXEC_CHUNK;
	/* Pieces of whole words, so that each starts the pattern afresh. */
	if (width == 4)
		chunk = chunk < 4 ? 4 : chunk & ~(uint64_t)3;
	while (done < n) {
		uint64_t c = n - done < chunk ? n - done : chunk;

		if (width == 4)
			fill_words(d + done, value, c);
		else
			memset(d + done, (int)value, c);
		done += c;
		if (done < n && exec_canceled(cancel))
			return -ECANCELED;
	}
	return 0;
}

/* ---- operands ---------------------------------------------------------------- */

/* The buffer's base, from the job's memo or env->map; NULL after a fault. */
static unsigned char *buffer_base(struct exec_ctx *x, const struct drm_vnpu_engine_operand *op)
{
	struct exec_memo *m;
	unsigned char *base;
	unsigned int i;

	for (i = 0; i < EXEC_MEMO; i++) {
		m = &x->memo[i];
		if (m->id != op->buffer)
			continue;
		if (m->offset != op->buffer_offset || m->size != op->buffer_size) {
			fault(x, "buffer %llu named with two sizes or offsets",
			      (unsigned long long)op->buffer);
			return NULL;
		}
		return m->base;
	}
	base = x->env->map(x->env->priv, op);
	if (!base) {
		fault(x, "buffer %llu (%llu bytes at offset %#llx) cannot be mapped",
		      (unsigned long long)op->buffer, (unsigned long long)op->buffer_size,
		      (unsigned long long)op->buffer_offset);
		return NULL;
	}
	m = &x->memo[x->memo_next];
	x->memo_next = (x->memo_next + 1) % EXEC_MEMO;
	*m = (struct exec_memo){ op->buffer, op->buffer_offset, op->buffer_size, base };
	return base;
}

/* The host address of @op's range, checked; NULL after a fault. */
static unsigned char *operand_ptr(struct exec_ctx *x, const struct drm_vnpu_engine_operand *op,
				  bool write)
{
	unsigned char *base;

	if (!op->buffer || !op->size || op->offset > op->buffer_size ||
	    op->size > op->buffer_size - op->offset) {
		fault(x, "operand [%#llx, +%llu) outside buffer %llu of %llu bytes",
		      (unsigned long long)op->offset, (unsigned long long)op->size,
		      (unsigned long long)op->buffer, (unsigned long long)op->buffer_size);
		return NULL;
	}
	if (op->access < VNPU_OPERAND_READ || op->access > VNPU_OPERAND_WORKSPACE) {
		fault(x, "operand access %u unknown", op->access);
		return NULL;
	}
	if (write && op->access == VNPU_OPERAND_READ) {
		fault(x, "a read-only operand would be written");
		return NULL;
	}
	base = buffer_base(x, op);
	return base ? base + op->offset : NULL;
}

/* The @want operands of a data task; NULL after a fault. */
static const struct drm_vnpu_engine_operand *task_operands(struct exec_ctx *x,
							    const struct drm_vnpu_engine_task *t,
							    uint32_t want)
{
	const struct drm_vnpu_engine_operand *ops;
	uint32_t n;

	if (job_task_operands(x->view, t, &ops, &n)) {
		fault(x, "operands %u..+%u outside the job's %u", t->operand, t->operand_count,
		      x->view->operand_count);
		return NULL;
	}
	if (n != want) {
		fault(x, "task kind %u with %u operands, not %u", t->kind, n, want);
		return NULL;
	}
	return ops;
}

/* The word of a value or timestamp task, checked for size and alignment. */
static void *word_ptr(struct exec_ctx *x, const struct drm_vnpu_engine_task *t, uint32_t bytes,
		      bool write)
{
	const struct drm_vnpu_engine_operand *op = task_operands(x, t, 1);
	unsigned char *p;

	if (!op)
		return NULL;
	if (op->size < bytes) {
		fault(x, "a %u-byte word in a %llu-byte operand", bytes, (unsigned long long)op->size);
		return NULL;
	}
	p = operand_ptr(x, op, write);
	if (p && ((uintptr_t)p & (bytes - 1))) {
		fault(x, "a %u-byte word not aligned to its size", bytes);
		return NULL;
	}
	return p;
}

/* ---- tasks ------------------------------------------------------------------- */

static uint32_t task_copy(struct exec_ctx *x, const struct drm_vnpu_engine_task *t)
{
	const struct drm_vnpu_engine_operand *ops = task_operands(x, t, 2);
	unsigned char *dst, *src;

	if (!ops)
		return VNPU_ENGINE_DONE_FAULT;
	if (ops[0].size != ops[1].size)
		return fault(x, "copy of %llu bytes from %llu", (unsigned long long)ops[0].size,
			     (unsigned long long)ops[1].size);
	dst = operand_ptr(x, &ops[0], true);
	src = dst ? operand_ptr(x, &ops[1], false) : NULL;
	if (!src)
		return VNPU_ENGINE_DONE_FAULT;
	if (exec_copy(dst, src, ops[0].size, EXEC_CHUNK, x->env->cancel))
		return VNPU_ENGINE_DONE_CANCELED;
	return VNPU_ENGINE_DONE_OK;
}

static uint32_t task_fill(struct exec_ctx *x, const struct drm_vnpu_engine_task *t)
{
	const struct drm_vnpu_engine_operand *ops = task_operands(x, t, 1);
	bool word = t->flags & VNPU_TASK_FILL_32;
	unsigned char *dst;

	if (!ops)
		return VNPU_ENGINE_DONE_FAULT;
	if (t->value > (word ? 0xffffffffu : 0xffu))
		return fault(x, "fill value %llu is not a %s", (unsigned long long)t->value, word ? "word" : "byte");
	if (word && ops[0].size % 4)
		return fault(x, "word fill of %llu bytes", (unsigned long long)ops[0].size);
	dst = operand_ptr(x, &ops[0], true);
	if (!dst)
		return VNPU_ENGINE_DONE_FAULT;
	if (exec_fill(dst, (uint32_t)t->value, word ? 4 : 1, ops[0].size, EXEC_CHUNK, x->env->cancel))
		return VNPU_ENGINE_DONE_CANCELED;
	return VNPU_ENGINE_DONE_OK;
}

static uint32_t task_write_value(struct exec_ctx *x, const struct drm_vnpu_engine_task *t)
{
	bool is64 = t->flags & VNPU_TASK_VALUE_64;
	void *p = word_ptr(x, t, is64 ? 8 : 4, true);

	if (!p)
		return VNPU_ENGINE_DONE_FAULT;
	if (is64)
		__atomic_store_n((uint64_t *)p, t->value, __ATOMIC_RELEASE);
	else
		__atomic_store_n((uint32_t *)p, (uint32_t)t->value, __ATOMIC_RELEASE);
	return VNPU_ENGINE_DONE_OK;
}

static uint32_t task_wait_value(struct exec_ctx *x, const struct drm_vnpu_engine_task *t)
{
	bool is64 = t->flags & VNPU_TASK_VALUE_64;
	void *p = word_ptr(x, t, is64 ? 8 : 4, false);
	uint64_t word;
	int holds;

	if (!p)
		return VNPU_ENGINE_DONE_FAULT;
	if (is64)
		word = __atomic_load_n((const uint64_t *)p, __ATOMIC_ACQUIRE);
	else
		word = __atomic_load_n((const uint32_t *)p, __ATOMIC_ACQUIRE);
	holds = vnpu_wait_cond_holds(t->cmp, is64, word, t->value);
	if (holds < 0)
		return fault(x, "wait comparison %u unknown", t->cmp);
	return holds ? VNPU_ENGINE_DONE_OK : VNPU_ENGINE_DONE_BLOCKED;
}

static uint32_t task_timestamp(struct exec_ctx *x, const struct drm_vnpu_engine_task *t)
{
	uint64_t *p = word_ptr(x, t, 8, true);
	struct timespec ts;

	if (!p)
		return VNPU_ENGINE_DONE_FAULT;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	__atomic_store_n(p, (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec,
			 __ATOMIC_RELEASE);
	return VNPU_ENGINE_DONE_OK;
}

static bool op_should_stop(void *priv)
{
	const struct exec_ctx *x = priv;

	return exec_canceled(x->env->cancel);
}

static void op_parallel(void *priv, unsigned int count, void (*fn)(void *arg, unsigned int i),
			void *arg)
{
	const struct exec_ctx *x = priv;

	x->env->parallel(x->env->priv, count, fn, arg);
}

static uint32_t task_op(struct exec_ctx *x, const struct drm_vnpu_engine_task *t)
{
	const struct exec_env *env = x->env;
	struct vops_operand ops[VNPU_MAX_OP_OPERANDS];
	const struct drm_vnpu_engine_operand *eops;
	struct vops_ctl ctl = {
		.should_stop = op_should_stop,
		.priv = x,
		.parallel = env->parallel ? op_parallel : NULL,
	};
	char why[EXEC_WHY_MAX - 16];
	enum vops_run_status st;
	const void *desc;
	uint32_t n, i;

	if (!env->run_op)
		return fault(x, "no operator library");
	if (job_task_operands(x->view, t, &eops, &n) || n > VNPU_MAX_OP_OPERANDS)
		return fault(x, "operands %u..+%u outside the job's %u", t->operand,
			     t->operand_count, x->view->operand_count);
	if (job_task_desc(x->view, t, &desc))
		return fault(x, "descriptor [%u, +%u) outside the job's %u data bytes",
			     t->desc_offset, t->desc_size, x->view->data_size);
	for (i = 0; i < n; i++) {
		ops[i].ptr = operand_ptr(x, &eops[i], eops[i].access != VNPU_OPERAND_READ);
		if (!ops[i].ptr)
			return VNPU_ENGINE_DONE_FAULT;
		ops[i].size = eops[i].size;
		ops[i].access = eops[i].access;
	}
	if (((uintptr_t)desc & 7) && env->desc_scratch) {
		memcpy(env->desc_scratch, desc, t->desc_size);
		desc = env->desc_scratch;
	}
	why[0] = '\0';
	st = env->run_op(desc, t->desc_size, ops, n, &ctl, why, sizeof(why));
	switch (st) {
	case VOPS_RUN_OK:
		return VNPU_ENGINE_DONE_OK;
	case VOPS_RUN_FAULT:
		why[sizeof(why) - 1] = '\0';
		return fault(x, "operator: %s", why[0] ? why : "refused");
	case VOPS_RUN_ARITH:
		return VNPU_ENGINE_DONE_ARITH;
	case VOPS_RUN_CANCELED:
		/* The kernel takes CANCELED only once the cancel word is set. */
		if (exec_canceled(env->cancel))
			return VNPU_ENGINE_DONE_CANCELED;
		return fault(x, "operator stopped without a cancel");
	}
	return fault(x, "operator status %d unknown", (int)st);
}

static uint32_t run_task(struct exec_ctx *x, const struct drm_vnpu_engine_task *t)
{
	uint32_t flags_ok = 0;

	if (t->kind == VNPU_TASK_WRITE_VALUE || t->kind == VNPU_TASK_WAIT_VALUE)
		flags_ok = VNPU_TASK_VALUE_64;
	else if (t->kind == VNPU_TASK_FILL)
		flags_ok = VNPU_TASK_FILL_32;
	if (t->flags & ~flags_ok)
		return fault(x, "task kind %u with flags %#x", t->kind, t->flags);
	switch (t->kind) {
	case VNPU_TASK_NOP:
		return VNPU_ENGINE_DONE_OK;
	case VNPU_TASK_COPY:
		return task_copy(x, t);
	case VNPU_TASK_FILL:
		return task_fill(x, t);
	case VNPU_TASK_WRITE_VALUE:
		return task_write_value(x, t);
	case VNPU_TASK_WAIT_VALUE:
		return task_wait_value(x, t);
	case VNPU_TASK_TIMESTAMP:
		return task_timestamp(x, t);
	case VNPU_TASK_OP:
		return task_op(x, t);
	default:
		return fault(x, "task kind %u unknown", t->kind);
	}
}

static bool task_writes(uint32_t kind)
{
	return kind == VNPU_TASK_COPY || kind == VNPU_TASK_FILL || kind == VNPU_TASK_WRITE_VALUE ||
	       kind == VNPU_TASK_TIMESTAMP || kind == VNPU_TASK_OP;
}

/*
 * After a write, with more tasks to come: let parked waits look now. No
 * fence orders the write before the read of the count: a wait that parks
 * at that very moment looks again when the job ends, as every wait does.
 */
static void maybe_notify(const struct exec_env *env)
{
	if (env->parked && env->notify && __atomic_load_n(env->parked, __ATOMIC_RELAXED))
		env->notify(env->priv);
}

void exec_job(const struct job_view *view, const struct exec_env *env, struct exec_result *res)
{
	struct exec_ctx x = { .view = view, .env = env, .res = res };
	uint32_t i;

	res->status = VNPU_ENGINE_DONE_OK;
	res->why[0] = '\0';
	for (i = view->first_task; i < view->task_count; i++) {
		const struct drm_vnpu_engine_task *t = &view->tasks[i];
		uint32_t st;

		res->task = i;
		if (exec_canceled(env->cancel)) {
			res->status = VNPU_ENGINE_DONE_CANCELED;
			return;
		}
		st = run_task(&x, t);
		if (st != VNPU_ENGINE_DONE_OK) {
			res->status = st;
			return;
		}
		if (task_writes(t->kind) && i + 1 < view->task_count)
			maybe_notify(env);
	}
	res->task = 0;
}
