// SPDX-License-Identifier: MIT
/*
 * nn_memo.c - the plans of recent operator calls, per thread.
 *
 * Frameworks call aclnnXxxGetWorkspaceSize again for every launch, with
 * new tensors of the shapes they had before. vops_plan() is a pure
 * function of the operator type, the inputs' types, shapes, strides and
 * offsets, the output count and the attributes, so a call that repeats
 * all of them gets the plan it got before without planning again (what
 * CANN's own opbase keeps as its executor cache). The key is those inputs
 * written out as 64-bit words; an entry keeps the key and what a step
 * takes of the plan (nn_op() in nn_exec.c).
 *
 * Each thread has its own table (no lock on the launch path), freed when
 * the thread ends. Calls whose key or descriptor is large are planned
 * every time and not kept: small operators are the ones where planning is
 * a visible part of the call.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "nn_exec.h"

#define MEMO_SLOTS 64u		/* a power of two: the slot is the hash's low bits */
#define MEMO_KEY_WORDS (sizeof(((struct nn_memo_key *)0)->buf) / sizeof(uint64_t))
#define MEMO_DESC_MAX 2048u

struct memo_entry {
	unsigned char *block;		/* owned: everything the pointers below point to */
	uint64_t hash;
	uint32_t key_len;
	const uint64_t *key;
	struct nn_memo_plan plan;
};

struct memo_table {
	struct memo_entry e[MEMO_SLOTS];
};

static _Thread_local struct memo_table *memo_tl;
static pthread_key_t memo_key_tl;
static pthread_once_t memo_once = PTHREAD_ONCE_INIT;
static bool memo_key_ok;		/* written once, under memo_once */
static atomic_ullong memo_plans;	/* vops_plan() calls made for nn_op(): nn_memo_plans() */

static void memo_table_free(void *p)
{
	struct memo_table *t = p;
	unsigned int i;

	if (!t)
		return;
	for (i = 0; i < MEMO_SLOTS; i++)
		free(t->e[i].block);
	free(t);
}

static void memo_init(void)
{
	memo_key_ok = !pthread_key_create(&memo_key_tl, memo_table_free);
}

/* This thread's table, made on first use; NULL without memory. */
static struct memo_table *memo_table(void)
{
	struct memo_table *t = memo_tl;

	if (t)
		return t;
	pthread_once(&memo_once, memo_init);
	if (!memo_key_ok)
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	if (pthread_setspecific(memo_key_tl, t)) {
		free(t);
		return NULL;
	}
	memo_tl = t;
	return t;
}

/* ---- the key ----------------------------------------------------------------------- */

/* The key is 64-bit words: whatever is put is padded with zeros to a
 * word, so that hashing and comparing go a word at a time. */
static void put(struct nn_memo_key *k, const void *p, size_t n)
{
	size_t words = (n + 7) / 8;

	if (!k->ok || words > MEMO_KEY_WORDS - k->len) {
		k->ok = false;
		return;
	}
	k->buf[k->len + words - 1] = 0;
	memcpy(&k->buf[k->len], p, n);
	k->len += (uint32_t)words;
}

static void put_i64(struct nn_memo_key *k, int64_t v)
{
	if (!k->ok || k->len == MEMO_KEY_WORDS) {
		k->ok = false;
		return;
	}
	k->buf[k->len++] = (uint64_t)v;
}

static void put_str(struct nn_memo_key *k, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	/* The length first: "ab" + "c" and "a" + "bc" differ. */
	put_i64(k, (int64_t)n);
	if (n)
		put(k, s, n);
}

static void put_attr(struct nn_memo_key *k, const struct vops_attr *a)
{
	put_str(k, a->name);
	put_i64(k, a->kind);
	switch (a->kind) {
	case VOPS_ATTR_BOOL: put_i64(k, a->b); break;
	case VOPS_ATTR_INT: put_i64(k, a->i); break;
	case VOPS_ATTR_FLOAT: put(k, &a->f, sizeof(a->f)); break;
	case VOPS_ATTR_STRING: put_str(k, a->s); break;
	case VOPS_ATTR_DTYPE: put_i64(k, a->dt); break;
	case VOPS_ATTR_LIST_INT:
		put_i64(k, a->li.n);
		if (a->li.n > 0)
			put(k, a->li.v, (size_t)a->li.n * sizeof(*a->li.v));
		break;
	case VOPS_ATTR_LIST_FLOAT:
		put_i64(k, a->lf.n);
		if (a->lf.n > 0)
			put(k, a->lf.v, (size_t)a->lf.n * sizeof(*a->lf.v));
		break;
	default:
		/* A kind this key does not know: plan every time. */
		k->ok = false;
		break;
	}
}

static uint64_t hash_words(const uint64_t *w, uint32_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ n;

	while (n--) {
		h = (h ^ *w++) * 0xbf58476d1ce4e5b9ull;
		h ^= h >> 31;
	}
	return h;
}

const struct nn_memo_plan *nn_memo_find(struct nn_memo_key *k, const char *type, int nin, const struct vops_tensor *in,
					int nout, const struct vops_attr *attrs, unsigned int nattrs)
{
	struct memo_table *t;
	struct memo_entry *e;
	unsigned int i;

	k->len = 0;
	k->ok = true;
	put_str(k, type);
	put_i64(k, ((int64_t)nin << 32) | (uint32_t)nout);
	for (i = 0; i < (unsigned int)nin; i++) {
		put_i64(k, ((int64_t)in[i].dtype << 32) | (uint32_t)in[i].ndim);
		put_i64(k, in[i].offset);
		if (in[i].ndim > 0)
			put(k, in[i].dims, (size_t)in[i].ndim * sizeof(int64_t));
		/* Dense inputs come without strides (vt_of()). */
		put_i64(k, in[i].strides != NULL);
		if (in[i].strides && in[i].ndim > 0)
			put(k, in[i].strides, (size_t)in[i].ndim * sizeof(int64_t));
	}
	put_i64(k, nattrs);
	for (i = 0; i < nattrs && k->ok; i++)
		put_attr(k, &attrs[i]);
	if (!k->ok)
		return NULL;
	k->hash = hash_words(k->buf, k->len);
	t = memo_table();
	if (!t)
		return NULL;
	e = &t->e[k->hash & (MEMO_SLOTS - 1)];
	if (!e->block || e->hash != k->hash || e->key_len != k->len ||
	    memcmp(e->key, k->buf, (size_t)k->len * sizeof(k->buf[0])))
		return NULL;
	return &e->plan;
}

void nn_memo_from_plan(const struct vops_plan *p, struct nn_memo_out *outs, struct nn_memo_plan *m)
{
	int i;

	for (i = 0; i < p->nout; i++)
		outs[i] = (struct nn_memo_out){ .dtype = p->out[i].dtype, .ndim = p->out[i].ndim,
						.dims = p->out[i].dims, .bytes = p->out[i].bytes };
	*m = (struct nn_memo_plan){
		.type = p->type, .nin = p->nin, .nout = p->nout, .nops = (int)vops_plan_operands(p),
		.empty = p->empty, .in_place = p->in_place, .ws_align = p->ws_align, .desc_size = p->desc_size,
		.ws_bytes = p->ws_bytes,
		.in_bytes = p->in_bytes, .out = outs, .desc = p->desc,
	};
}

void nn_memo_counted_plan(void)
{
	atomic_fetch_add_explicit(&memo_plans, 1, memory_order_relaxed);
}

void nn_memo_put(const struct nn_memo_key *k, const struct nn_memo_plan *p)
{
	size_t dims = 0, size, at;
	struct memo_table *t;
	struct memo_entry *e;
	struct nn_memo_out *outs;
	unsigned char *b;
	int i;

	if (!k->ok || p->desc_size > MEMO_DESC_MAX)
		return;
	t = memo_table();
	if (!t)
		return;
	for (i = 0; i < p->nout; i++)
		dims += (size_t)p->out[i].ndim;
	/* One block, every part 8-aligned but the last: outputs, their
	 * dimensions, input sizes, the key, the descriptor. */
	size = (size_t)p->nout * sizeof(*outs) + dims * sizeof(int64_t) + (size_t)p->nin * sizeof(uint64_t) +
	       p->desc_size + (size_t)k->len * sizeof(k->buf[0]);
	b = malloc(size ? size : 1);
	if (!b)
		return;
	e = &t->e[k->hash & (MEMO_SLOTS - 1)];
	free(e->block);
	e->block = b;
	outs = (struct nn_memo_out *)(void *)b;
	at = (size_t)p->nout * sizeof(*outs);
	for (i = 0; i < p->nout; i++) {
		int64_t *d = (int64_t *)(void *)(b + at);

		if (p->out[i].ndim)
			memcpy(d, p->out[i].dims, (size_t)p->out[i].ndim * sizeof(int64_t));
		outs[i] = p->out[i];
		outs[i].dims = d;
		at += (size_t)p->out[i].ndim * sizeof(int64_t);
	}
	e->plan = *p;
	e->plan.out = outs;
	e->plan.in_bytes = (const uint64_t *)(void *)(b + at);
	if (p->nin)
		memcpy(b + at, p->in_bytes, (size_t)p->nin * sizeof(uint64_t));
	at += (size_t)p->nin * sizeof(uint64_t);
	/* The key before the descriptor keeps its words aligned. */
	e->key = (const uint64_t *)(void *)(b + at);
	memcpy(b + at, k->buf, (size_t)k->len * sizeof(k->buf[0]));
	at += (size_t)k->len * sizeof(k->buf[0]);
	e->plan.desc = b + at;
	if (p->desc_size)
		memcpy(b + at, p->desc, p->desc_size);
	e->key_len = k->len;
	e->hash = k->hash;
}

uint64_t nn_memo_plans(void)
{
	return atomic_load_explicit(&memo_plans, memory_order_relaxed);
}
