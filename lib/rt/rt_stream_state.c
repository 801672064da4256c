// SPDX-License-Identifier: MIT
/*
 * rt_stream_state.c - stream life-cycle callbacks
 * (aclrtRegStreamStateCallback): named registrations, told right after a
 * stream is created and right before one is destroyed, in the thread that
 * does it, with no runtime lock held.
 */
#include <stdlib.h>
#include <string.h>

#include "rt.h"

#define STATE_MAX_CALLBACKS 64

struct state_reg {
	char *name;
	aclrtStreamStateCallback cb;
	void *arg;
};

/* The registrations, in registration order; under state_lock. */
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static struct state_reg state_regs[STATE_MAX_CALLBACKS];
static unsigned int state_nreg;

static int find_locked(const char *name)
{
	unsigned int i;

	for (i = 0; i < state_nreg; i++)
		if (!strcmp(state_regs[i].name, name))
			return (int)i;
	return -1;
}

aclError rt_stream_state_register(const char *name, aclrtStreamStateCallback cb, void *arg)
{
	aclError ret = ACL_SUCCESS;
	char *copy;
	int i;

	pthread_mutex_lock(&state_lock);
	i = find_locked(name);
	if (!cb) {
		if (i < 0) {
			ret = rt_err(ACL_ERROR_INVALID_PARAM, "no stream-state callback is registered as \"%s\"", name);
		} else {
			free(state_regs[i].name);
			memmove(&state_regs[i], &state_regs[i + 1],
				(state_nreg - (unsigned int)i - 1) * sizeof(state_regs[0]));
			state_nreg--;
		}
	} else if (i >= 0) {
		ret = rt_err(ACL_ERROR_INVALID_PARAM, "a stream-state callback is registered as \"%s\" already", name);
	} else if (state_nreg == STATE_MAX_CALLBACKS) {
		ret = rt_err(ACL_ERROR_INVALID_PARAM, "%d stream-state callbacks are registered already",
			     STATE_MAX_CALLBACKS);
	} else if (!(copy = strdup(name))) {
		ret = rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory");
	} else {
		state_regs[state_nreg++] = (struct state_reg){ .name = copy, .cb = cb, .arg = arg };
	}
	pthread_mutex_unlock(&state_lock);
	return ret;
}

void rt_stream_state_notify(struct rt_stream *s, aclrtStreamState state)
{
	struct state_reg regs[STATE_MAX_CALLBACKS];
	unsigned int n, i;

	pthread_mutex_lock(&state_lock);
	n = state_nreg;
	memcpy(regs, state_regs, n * sizeof(regs[0]));
	pthread_mutex_unlock(&state_lock);
	for (i = 0; i < n; i++)
		regs[i].cb(s, state, regs[i].arg);
}
