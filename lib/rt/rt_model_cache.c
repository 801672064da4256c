// SPDX-License-Identifier: MIT
/*
 * rt_model_cache.c - the plans of a model with dynamic dimensions, keyed by
 * their input shapes (pure logic, rt_model.h). A handful, most recently
 * used first: a server that alternates between a few batch sizes plans
 * each once. The caller (the model) holds its lock around these.
 */
#include <string.h>

#include "rt_model.h"

struct rt_mplan *rt_mplan_cache_find(struct rt_mplan_cache *c, const int64_t *key, uint32_t key_len)
{
	unsigned int i;

	for (i = 0; i < c->count; i++) {
		struct rt_mplan *p = c->plans[i];

		if (p->key_len != key_len || (key_len && memcmp(p->key, key, key_len * sizeof(*key))))
			continue;
		memmove(&c->plans[1], &c->plans[0], i * sizeof(c->plans[0]));
		c->plans[0] = p;
		c->hits++;
		return p;
	}
	c->misses++;
	return NULL;
}

void rt_mplan_cache_add(struct rt_mplan_cache *c, struct rt_mplan *p)
{
	if (c->count == RT_MODEL_PLAN_CACHE)
		rt_mplan_put(c->plans[--c->count]);
	memmove(&c->plans[1], &c->plans[0], c->count * sizeof(c->plans[0]));
	c->plans[0] = p;
	c->count++;
}

void rt_mplan_cache_clear(struct rt_mplan_cache *c)
{
	while (c->count)
		rt_mplan_put(c->plans[--c->count]);
}
