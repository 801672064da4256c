// SPDX-License-Identifier: GPL-2.0
/*
 * crew.c - helper threads that let one operator use the idle engines.
 *
 * Each device has a crew of num_engines - 1 helper threads, asleep until a
 * worker posts an operator's independent pieces (struct vops_ctl's
 * parallel hook: the tiles of a large fp32 MatMul, the blocks of a large
 * element-wise operation). The worker takes pieces itself; as many helpers
 * join as there are engines with no job right now (workers that are not
 * running one), so a device runs about as many compute threads as it has
 * engines, give or take the piece a helper is finishing when a worker
 * gets new work. One operator per device uses the crew at a time; another
 * worker that asks meanwhile runs its pieces alone.
 *
 * A SIGBUS in a piece (a reset took the buffers away) ends the pieces on
 * that thread and no more are started; the worker waits until every helper
 * has left, then raises the SIGBUS in its own job's guard, so that the job
 * faults exactly as it would have alone. The worker never leaves
 * crew_parallel() while a helper may still touch its pieces.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "engined.h"

/* Take pieces until none is left (both the poster and the helpers). */
static void crew_take(void *arg)
{
	struct crew *c = arg;
	unsigned int i;

	while ((i = atomic_fetch_add(&c->next, 1)) < c->count)
		c->fn(c->arg, i);
}

/* A piece hit SIGBUS: start no more. */
static void crew_fault(struct crew *c)
{
	atomic_store(&c->faulted, true);
	atomic_store(&c->next, c->count);
}

static void *crew_main(void *arg)
{
	struct crew *c = arg;
	unsigned int seen = 0;

	pthread_mutex_lock(&c->lock);
	for (;;) {
		while (!c->stop && (c->gen == seen || !c->seats))
			pthread_cond_wait(&c->posted, &c->lock);
		if (c->stop)
			break;
		seen = c->gen;
		c->seats--;
		c->inside++;
		pthread_mutex_unlock(&c->lock);
		if (!guard_call(crew_take, c))
			crew_fault(c);
		pthread_mutex_lock(&c->lock);
		if (!--c->inside)
			pthread_cond_signal(&c->left);
	}
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

void crew_parallel(struct crew *c, unsigned int idle, unsigned int count,
		   void (*fn)(void *arg, unsigned int i), void *arg)
{
	unsigned int seats = idle < c->nthreads ? idle : c->nthreads, i;
	bool faulted;

	if (count && seats > count - 1)
		seats = count - 1;
	if (!seats || atomic_exchange(&c->busy, true)) {
		/* Alone: a SIGBUS goes straight to the job's guard. */
		for (i = 0; i < count; i++)
			fn(arg, i);
		return;
	}
	pthread_mutex_lock(&c->lock);
	c->fn = fn;
	c->arg = arg;
	c->count = count;
	atomic_store(&c->next, 0);
	atomic_store(&c->faulted, false);
	c->seats = seats;
	c->gen++;
	pthread_cond_broadcast(&c->posted);
	pthread_mutex_unlock(&c->lock);

	if (!guard_call(crew_take, c))
		crew_fault(c);

	pthread_mutex_lock(&c->lock);
	c->seats = 0;			/* a helper waking up late stays out */
	while (c->inside)
		pthread_cond_wait(&c->left, &c->lock);
	c->fn = NULL;
	c->arg = NULL;
	pthread_mutex_unlock(&c->lock);
	faulted = atomic_load(&c->faulted);
	atomic_store(&c->busy, false);
	if (faulted)
		guard_raise();
}

int crew_start(struct crew *c, unsigned int nthreads)
{
	sigset_t all, old;
	int ret = 0;

	memset(c, 0, sizeof(*c));
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->posted, NULL);
	pthread_cond_init(&c->left, NULL);
	atomic_init(&c->next, 0);
	atomic_init(&c->faulted, false);
	atomic_init(&c->busy, false);
	if (!nthreads)
		return 0;
	c->threads = calloc(nthreads, sizeof(*c->threads));
	if (!c->threads)
		return -ENOMEM;
	/* Helpers take no signal but SIGBUS (the workers' kick is not theirs). */
	sigfillset(&all);
	sigdelset(&all, SIGBUS);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (c->nthreads = 0; c->nthreads < nthreads; c->nthreads++) {
		ret = -pthread_create(&c->threads[c->nthreads], NULL, crew_main, c);
		if (ret)
			break;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ret;
}

void crew_stop(struct crew *c)
{
	unsigned int i;

	pthread_mutex_lock(&c->lock);
	c->stop = true;
	pthread_cond_broadcast(&c->posted);
	pthread_mutex_unlock(&c->lock);
	for (i = 0; i < c->nthreads; i++)
		pthread_join(c->threads[i], NULL);
	free(c->threads);
	c->threads = NULL;
	c->nthreads = 0;
	pthread_cond_destroy(&c->left);
	pthread_cond_destroy(&c->posted);
	pthread_mutex_destroy(&c->lock);
}
