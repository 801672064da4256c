// SPDX-License-Identifier: MIT
/*
 * rt_model_mem.c - a plan's work arena laid out by liveness (pure logic,
 * rt_model.h).
 *
 * Walking the nodes in execution order, each node's arena outputs and its
 * workspace are placed first fit (the lowest offset, at their alignment,
 * that overlaps no block still live), then its workspace and the values it
 * was the last to read are released. A node's outputs are placed while its
 * inputs are still live, so no operator works in place by accident, and a
 * workspace never meets its node's operands. The peak is the arena's size:
 * a chain needs two values' worth of memory, not the sum of all of them.
 */
#include <stdlib.h>

#include "rt_model.h"

struct live {
	uint64_t off, size;
	uint32_t id;
};

struct arena {
	struct live *b;			/* by offset */
	uint32_t n;
	uint64_t peak;
};

static uint64_t align_up(uint64_t x, uint32_t a)
{
	return (x + a - 1) / a * a;
}

static uint64_t place(struct arena *a, uint32_t id, uint64_t size, uint32_t align)
{
	uint64_t at = 0;
	uint32_t i, j;

	for (i = 0; i < a->n; i++) {
		if (align_up(at, align) + size <= a->b[i].off)
			break;
		if (a->b[i].off + a->b[i].size > at)
			at = a->b[i].off + a->b[i].size;
	}
	at = align_up(at, align);
	for (j = a->n; j > i; j--)
		a->b[j] = a->b[j - 1];
	a->b[i] = (struct live){ .off = at, .size = size, .id = id };
	a->n++;
	if (at + size > a->peak)
		a->peak = at + size;
	return at;
}

static void release(struct arena *a, uint32_t id)
{
	uint32_t i;

	for (i = 0; i < a->n; i++)
		if (a->b[i].id == id)
			break;
	if (i == a->n)
		return;
	for (; i + 1 < a->n; i++)
		a->b[i] = a->b[i + 1];
	a->n--;
}

void rt_mplan_layout(struct rt_mplan *p)
{
	struct arena a = { 0 };
	uint32_t n, i;

	/* At most every value and one workspace are live at once. */
	a.b = malloc(((size_t)p->nvalues + 1) * sizeof(*a.b));
	p->sum_bytes = 0;
	if (!a.b) {
		/* Without room to plan it, every block gets its own place. */
		uint64_t at = 0;

		for (i = 0; i < p->nvalues; i++)
			if (p->values[i].loc == RT_MLOC_ARENA) {
				at = align_up(at, p->values[i].align);
				p->values[i].offset = at;
				at += p->values[i].size;
			}
		for (n = 0; n < p->nnodes; n++)
			if (p->nodes[n].ws_bytes) {
				at = align_up(at, p->nodes[n].ws_align);
				p->nodes[n].ws_offset = at;
				at += p->nodes[n].ws_bytes;
			}
		p->arena_bytes = p->sum_bytes = at;
		return;
	}
	for (n = 0; n < p->nnodes; n++) {
		struct rt_mnode *node = &p->nodes[n];

		for (i = 0; i < (uint32_t)node->nout; i++) {
			struct rt_mvalue *v = &p->values[node->out[i]];

			if (v->loc != RT_MLOC_ARENA)
				continue;
			v->offset = place(&a, node->out[i], v->size, v->align);
			p->sum_bytes += v->size;
		}
		if (node->ws_bytes) {
			node->ws_offset = place(&a, p->nvalues, node->ws_bytes, node->ws_align);
			p->sum_bytes += node->ws_bytes;
			release(&a, p->nvalues);
		}
		for (i = 0; i < node->nfree; i++)
			release(&a, node->frees[i]);
	}
	p->arena_bytes = a.peak;
	free(a.b);
}
