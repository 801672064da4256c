// SPDX-License-Identifier: MIT
/*
 * rt_callback.c - host functions in stream order: aclrtLaunchCallback (run
 * on the application's subscribed report thread by aclrtProcessReport) and
 * aclrtLaunchHostFunc (run on a runtime worker thread of the device).
 *
 * Launching queues a NOP job on the stream: the function may run once that
 * job's timeline point has signalled, i.e. once the stream's earlier work is
 * done. To hold back the stream's later work until the function has
 * returned (ACL_CALLBACK_BLOCK, and always for host functions), a second job
 * waits (WAIT_VALUE, GEQ) for the stream's callback word to reach a ticket;
 * after the function returns, the runtime raises the word to the ticket
 * from the CPU (never lowering it: releases come from several threads in
 * any order), then tells the kernel with DRM_IOCTL_VNPU_SIGNAL on the word,
 * which wakes the waiting stream at once: nothing polls the word
 * (release_ticket()).
 *
 * A serving thread (struct rt_reporter) waits with one syncobj wait for the
 * first of: the point of the head function of each queue it serves, or its
 * "wake" syncobj, which launches and unsubscriptions signal to make it look
 * again. Nothing polls.
 *
 * Locking: cb_lock (process-wide) guards the reporters, the queues and
 * their links, and is held only for list work: no ioctl, no thread start,
 * no wait happens under it. Reporters (their syncobj) and the host-function
 * worker are made before cb_lock is taken and dropped if another thread
 * won; wakes are signalled after unlocking, holding a reference. A launch
 * submits its jobs under the stream's own submit_lock and links the
 * function into the queue (cb_lock, nested inside) before releasing it, so
 * each queue stays in point order without a global lock across the submit.
 * Lock order: submit_lock -> cb_lock -> dev->lock.
 *
 * Note: a stream blocked by a callback that is not processed within the
 * device's job timeout fails with ACL_ERROR_RT_AICORE_TIMEOUT, like any
 * other wait.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"
#include "rt_ri.h"

#define MAX_REPORT_THREADS 1024

struct rt_reporter {
	atomic_uint refs;
	uint64_t thread;
	struct rt_dev *dev;		/* referenced */
	uint32_t wake;			/* binary syncobj */
	struct rt_list queues;		/* struct rt_hostq.rep_link */
	struct rt_list link;		/* in reporters (application threads) */
	bool internal;			/* a device's host-function worker */
	bool stop;
	pthread_t worker;
};

enum {
	PROCESS_RAN,
	PROCESS_TIMEOUT,
	PROCESS_NO_SOURCES,
	PROCESS_STOP,
	PROCESS_ERROR,
};

static pthread_mutex_t cb_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rt_list reporters = { &reporters, &reporters };
static unsigned int nreporters;

static void rep_put(struct rt_reporter *rep)
{
	if (!rep || atomic_fetch_sub(&rep->refs, 1) != 1)
		return;
	drv_syncobj_destroy(rep->dev->fd, rep->wake);
	rt_dev_put(rep->dev);
	free(rep);
}

static aclError rep_new(struct rt_dev *dev, uint64_t thread, bool internal, struct rt_reporter **out)
{
	struct rt_reporter *rep = calloc(1, sizeof(*rep));
	int ret;

	if (!rep)
		return rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory");
	ret = drv_syncobj_create(dev->fd, &rep->wake);
	if (ret) {
		free(rep);
		return rt_err_errno(ret, "cannot create a syncobj on device %u", dev->index);
	}
	atomic_init(&rep->refs, 1);
	rt_dev_get(dev);
	rep->dev = dev;
	rep->thread = thread;
	rep->internal = internal;
	rt_list_init(&rep->queues);
	rt_list_init(&rep->link);
	*out = rep;
	return ACL_SUCCESS;
}

static void rep_wake(struct rt_reporter *rep)
{
	drv_syncobj_signal(rep->dev->fd, rep->wake);
}

/* Wake @rep (a reference taken under cb_lock) and drop the reference;
 * called without cb_lock. */
static void rep_wake_put(struct rt_reporter *rep)
{
	if (!rep)
		return;
	rep_wake(rep);
	rep_put(rep);
}

/* The application reporter of @thread; cb_lock held. */
static struct rt_reporter *rep_find(uint64_t thread)
{
	struct rt_list *pos;

	rt_list_for_each(pos, &reporters) {
		struct rt_reporter *rep = rt_container_of(pos, struct rt_reporter, link);

		if (rep->thread == thread)
			return rep;
	}
	return NULL;
}

/*
 * Let the stream's work waiting for tickets up to @ticket go on. Releases
 * come from several threads in any order (the serving thread, an
 * unsubscribe, a launch that lost its subscriber, a device reset), so the
 * word only ever grows: a compare-and-swap keeps the highest ticket, and
 * only the CPU writes it (a queued device write could land after a later,
 * higher CPU store and take the word back).
 *
 * The kernel never polls: the wait parked on the word looks again when
 * the SIGNAL says the word was written. Only the release that raised the
 * word signals (one that finds it already at or past its ticket has
 * nothing to announce: the thread that raised it does). SIGNAL never waits
 * for room in the file's job limit, and it cannot fail for the stream's
 * own live word (its errors are range and argument errors), so it is not
 * reported; it is issued with no runtime lock held.
 */
static void release_ticket(struct rt_stream *s, uint64_t ticket)
{
	uint64_t seen = atomic_load(s->word.cpu);

	while (seen < ticket) {
		if (atomic_compare_exchange_weak(s->word.cpu, &seen, ticket)) {
			(void)drv_signal(s->dev->fd, s->word.va, sizeof(uint64_t), NULL);
			return;
		}
	}
}

/*
 * Take @q off its reporter and drop its pending functions; returns the
 * highest ticket of a dropped blocking function (0: none), which the caller
 * releases (after unlocking). The reporter, referenced, goes to *@wake (if
 * @wake) for the caller to wake with rep_wake_put() after unlocking.
 * cb_lock held.
 */
static uint64_t queue_detach(struct rt_hostq *q, struct rt_reporter **emptied, struct rt_reporter **wake)
{
	struct rt_reporter *rep = q->rep;
	uint64_t ticket = 0;

	*emptied = NULL;
	if (wake)
		*wake = NULL;
	while (q->head) {
		struct rt_hostcb *cb = q->head;

		q->head = cb->next;
		if (cb->block && cb->ticket > ticket)
			ticket = cb->ticket;
		free(cb);
	}
	q->tail = NULL;
	if (!rep)
		return ticket;
	rt_list_del(&q->rep_link);
	q->rep = NULL;
	if (wake) {
		atomic_fetch_add(&rep->refs, 1);
		*wake = rep;
	}
	if (!rep->internal && rt_list_empty(&rep->queues)) {
		rt_list_del(&rep->link);
		nreporters--;
		*emptied = rep;
	}
	return ticket;
}

static void queue_attach(struct rt_hostq *q, struct rt_reporter *rep)
{
	q->rep = rep;
	rt_list_add_tail(&rep->queues, &q->rep_link);
	rt_obj_get(&q->stream->obj);
}

/*
 * Whether @s may be subscribed to @thread; *@rep gets the thread's reporter
 * if it has one. cb_lock held.
 */
static aclError subscribe_check(uint64_t thread, struct rt_stream *s, struct rt_reporter **rep)
{
	if (s->cbq.rep)
		return rt_err(ACL_ERROR_RT_STREAM_SUBSCRIBE, "stream %p already has a subscribed thread (%llu)",
			      (void *)s, (unsigned long long)s->cbq.rep->thread);
	*rep = rep_find(thread);
	if (*rep && (*rep)->dev != s->dev)
		return rt_err(ACL_ERROR_RT_THREAD_SUBSCRIBE,
			      "thread %llu serves streams of device %u; stream %p is on device %u",
			      (unsigned long long)thread, (*rep)->dev->index, (void *)s, s->dev->index);
	if (!*rep && nreporters >= MAX_REPORT_THREADS)
		return rt_err(ACL_ERROR_RT_THREAD_SUBSCRIBE, "already %u subscribed threads", MAX_REPORT_THREADS);
	return ACL_SUCCESS;
}

aclError rt_subscribe(uint64_t thread, struct rt_stream *s)
{
	struct rt_reporter *rep, *fresh = NULL;
	aclError ret;

	pthread_mutex_lock(&cb_lock);
	ret = subscribe_check(thread, s, &rep);
	if (!ret && !rep) {
		/* A new serving thread: its syncobj is made without cb_lock,
		 * then everything is checked again. */
		pthread_mutex_unlock(&cb_lock);
		ret = rep_new(s->dev, thread, false, &fresh);
		if (ret)
			return ret;
		pthread_mutex_lock(&cb_lock);
		ret = subscribe_check(thread, s, &rep);
		if (!ret && !rep) {
			rep = fresh;
			fresh = NULL;
			rt_list_add_tail(&reporters, &rep->link);
			nreporters++;
		}
	}
	if (!ret)
		queue_attach(&s->cbq, rep);
	pthread_mutex_unlock(&cb_lock);
	rep_put(fresh);	/* not needed: another subscription made one meanwhile */
	return ret;
}

aclError rt_unsubscribe(uint64_t thread, struct rt_stream *s)
{
	struct rt_reporter *emptied = NULL, *wake = NULL;
	uint64_t ticket;

	pthread_mutex_lock(&cb_lock);
	if (!s->cbq.rep || s->cbq.rep->thread != thread) {
		bool known = rep_find(thread) != NULL;

		pthread_mutex_unlock(&cb_lock);
		if (!known)
			return rt_err(ACL_ERROR_RT_THREAD_SUBSCRIBE, "thread %llu is not subscribed to any stream",
				      (unsigned long long)thread);
		return rt_err(ACL_ERROR_RT_STREAM_SUBSCRIBE, "stream %p is not subscribed to thread %llu",
			      (void *)s, (unsigned long long)thread);
	}
	ticket = queue_detach(&s->cbq, &emptied, &wake);
	pthread_mutex_unlock(&cb_lock);
	if (ticket)
		release_ticket(s, ticket);
	rt_stream_put(s); /* the queue's reference */
	rep_wake_put(wake);
	rep_put(emptied);
	return ACL_SUCCESS;
}

/*
 * Submit @fn's jobs on @q's stream and queue it on @q. The stream's
 * submit_lock is held from the submit to the link (under cb_lock, no ioctl
 * there), so the queue is in point order. Returns ACL_ERROR_RT_STREAM_NO_CB_REG
 * with *@orphaned set if @q lost its serving thread meanwhile (the function
 * is dropped, as the pending ones were, and its ticket released); the
 * caller words the message.
 */
static aclError enqueue(struct rt_hostq *q, void (*fn)(void *), void *arg, bool block, bool *orphaned)
{
	struct rt_stream *s = q->stream;
	struct rt_reporter *rep = NULL;
	struct drm_vnpu_task task;
	struct rt_hostcb *cb;
	aclError ret = ACL_SUCCESS;

	*orphaned = false;
	cb = calloc(1, sizeof(*cb));
	if (!cb)
		return rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory");
	cb->fn = fn;
	cb->arg = arg;
	cb->block = block;

	pthread_mutex_lock(&s->submit_lock);
	if (block && !s->has_word) {
		ret = rt_slot_alloc(s->dev, &s->word);
		if (!ret)
			s->has_word = true;
	}
	if (!ret) {
		memset(&task, 0, sizeof(task));
		task.kind = VNPU_TASK_NOP;
		ret = rt_stream_submit_locked(s, &task, 1, NULL, 0, &cb->point);
	}
	if (!ret && block) {
		cb->ticket = s->ticket + 1;
		memset(&task, 0, sizeof(task));
		task.kind = VNPU_TASK_WAIT_VALUE;
		task.flags = VNPU_TASK_VALUE_64;
		task.value.addr = s->word.va;
		task.value.value = cb->ticket;
		task.value.cmp = VNPU_WAIT_GEQ;
		ret = rt_stream_submit_locked(s, &task, 1, NULL, 0, NULL);
		if (!ret)
			s->ticket = cb->ticket;
		else
			cb->ticket = 0;
	}
	if (!ret) {
		pthread_mutex_lock(&cb_lock);
		rep = q->rep;
		if (rep) {
			if (q->tail)
				q->tail->next = cb;
			else
				q->head = cb;
			q->tail = cb;
			atomic_fetch_add(&rep->refs, 1);
		}
		pthread_mutex_unlock(&cb_lock);
	}
	pthread_mutex_unlock(&s->submit_lock);

	if (ret) {
		free(cb);
		return ret;
	}
	if (!rep) {
		if (cb->ticket)
			release_ticket(s, cb->ticket);
		free(cb);
		*orphaned = true;
		return ACL_ERROR_RT_STREAM_NO_CB_REG;
	}
	rep_wake_put(rep);
	return ACL_SUCCESS;
}

aclError rt_launch_callback(struct rt_stream *s, void (*fn)(void *), void *arg, bool block)
{
	bool subscribed, orphaned;
	aclError ret;

	ret = rt_ri_forbid(s, "a host callback");
	if (ret)
		return ret;
	/* Checked first so that an unsubscribed stream gets no job. */
	pthread_mutex_lock(&cb_lock);
	subscribed = s->cbq.rep != NULL;
	pthread_mutex_unlock(&cb_lock);
	if (!subscribed)
		return rt_err(ACL_ERROR_RT_STREAM_NO_CB_REG,
			      "stream %p has no subscribed thread (call aclrtSubscribeReport first)", (void *)s);
	ret = enqueue(&s->cbq, fn, arg, block, &orphaned);
	if (orphaned)
		return rt_err(ret, "stream %p was unsubscribed while the callback was being launched", (void *)s);
	return ret;
}

/*
 * Wait until the head function of one of @rep's queues may run (or
 * @deadline), and run it. The caller holds a reference on @rep.
 */
static int process_one(struct rt_reporter *rep, int64_t deadline)
{
	int fd = rep->dev->fd;

	for (;;) {
		struct rt_stream **streams = NULL, *chosen = NULL;
		struct rt_hostq **queues = NULL;
		struct rt_hostcb *cb = NULL;
		uint32_t *handles = NULL, first = 0;
		uint64_t *points = NULL;
		size_t n = 0, cap = 1, i;
		struct rt_list *pos;
		int ret;

		pthread_mutex_lock(&cb_lock);
		if (rep->stop) {
			pthread_mutex_unlock(&cb_lock);
			return PROCESS_STOP;
		}
		if (!rep->internal && rt_list_empty(&rep->queues)) {
			pthread_mutex_unlock(&cb_lock);
			return PROCESS_NO_SOURCES;
		}
		rt_list_for_each(pos, &rep->queues)
			cap++;
		streams = calloc(cap, sizeof(*streams));
		queues = calloc(cap, sizeof(*queues));
		handles = calloc(cap, sizeof(*handles));
		points = calloc(cap, sizeof(*points));
		if (!streams || !queues || !handles || !points) {
			pthread_mutex_unlock(&cb_lock);
			free(streams);
			free(queues);
			free(handles);
			free(points);
			rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory");
			return PROCESS_ERROR;
		}
		rt_list_for_each(pos, &rep->queues) {
			struct rt_hostq *q = rt_container_of(pos, struct rt_hostq, rep_link);

			if (!q->head)
				continue;
			queues[n] = q;
			streams[n] = q->stream;
			rt_obj_get(&q->stream->obj);
			handles[n] = q->stream->syncobj;
			points[n] = q->head->point;
			n++;
		}
		handles[n] = rep->wake;
		points[n] = 0;
		pthread_mutex_unlock(&cb_lock);

		ret = drv_syncobj_wait(fd, handles, points, (uint32_t)n + 1, deadline, true, &first);
		if (!ret && first < n) {
			pthread_mutex_lock(&cb_lock);
			if (queues[first]->rep == rep && queues[first]->head &&
			    queues[first]->head->point == points[first]) {
				cb = queues[first]->head;
				queues[first]->head = cb->next;
				if (!cb->next)
					queues[first]->tail = NULL;
				chosen = streams[first];
				rt_obj_get(&chosen->obj);
			}
			pthread_mutex_unlock(&cb_lock);
		} else if (!ret) {
			drv_syncobj_reset(fd, rep->wake);
		}
		for (i = 0; i < n; i++)
			rt_stream_put(streams[i]);
		free(streams);
		free(queues);
		free(handles);
		free(points);

		if (ret == -ETIME)
			return PROCESS_TIMEOUT;
		if (ret) {
			rt_err_errno(ret, "cannot wait for stream work");
			return PROCESS_ERROR;
		}
		if (!cb)
			continue;
		cb->fn(cb->arg);
		if (cb->block)
			release_ticket(chosen, cb->ticket);
		free(cb);
		rt_stream_put(chosen);
		return PROCESS_RAN;
	}
}

aclError rt_process_report(int32_t timeout_ms)
{
	uint64_t self = (uint64_t)pthread_self();
	int64_t deadline = rt_deadline(timeout_ms);
	struct rt_reporter *rep;
	int r;

	pthread_mutex_lock(&cb_lock);
	rep = rep_find(self);
	if (rep)
		atomic_fetch_add(&rep->refs, 1);
	pthread_mutex_unlock(&cb_lock);
	if (!rep)
		return rt_err(ACL_ERROR_RT_THREAD_SUBSCRIBE, "the calling thread is not subscribed to any stream");
	r = process_one(rep, deadline);
	rep_put(rep);
	switch (r) {
	case PROCESS_RAN:
		return ACL_SUCCESS;
	case PROCESS_TIMEOUT:
		return rt_err(ACL_ERROR_RT_REPORT_TIMEOUT, "no callback became ready within %d ms", timeout_ms);
	case PROCESS_ERROR:
		return rt_err_last(false);
	default:
		return rt_err(ACL_ERROR_RT_THREAD_SUBSCRIBE, "the calling thread is not subscribed to any stream");
	}
}

static void *worker_main(void *arg)
{
	struct rt_reporter *rep = arg;

	while (process_one(rep, RT_FOREVER) != PROCESS_STOP)
		;
	return NULL;
}

/*
 * Give @dev its host-function worker if it has none. The worker (a syncobj
 * and a thread) is made without cb_lock; if another thread installed one
 * meanwhile, or the device is being reset, it is stopped and dropped.
 */
static aclError worker_start(struct rt_dev *dev)
{
	struct rt_reporter *rep;
	bool have, dead;
	aclError ret;

	pthread_mutex_lock(&cb_lock);
	have = dev->worker != NULL;
	pthread_mutex_unlock(&cb_lock);
	if (have)
		return ACL_SUCCESS;

	ret = rep_new(dev, 0, true, &rep);
	if (ret)
		return ret;
	if (pthread_create(&rep->worker, NULL, worker_main, rep)) {
		rep_put(rep);
		return rt_err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "cannot start the host-function thread");
	}
	pthread_mutex_lock(&cb_lock);
	pthread_mutex_lock(&dev->lock);
	dead = dev->dead;
	pthread_mutex_unlock(&dev->lock);
	if (!dead && !dev->worker) {
		dev->worker = rep;
		rep = NULL;
	} else {
		rep->stop = true;
	}
	pthread_mutex_unlock(&cb_lock);
	if (!rep)
		return ACL_SUCCESS;
	rep_wake(rep);
	pthread_join(rep->worker, NULL);
	rep_put(rep);
	if (dead)
		return rt_err(ACL_ERROR_RT_CONTEXT_RELEASE_ERROR, "device %u is being reset", dev->index);
	return ACL_SUCCESS;
}

aclError rt_launch_host_func(struct rt_stream *s, void (*fn)(void *), void *arg)
{
	struct rt_dev *dev = s->dev;
	bool attached, orphaned = false;
	aclError ret;

	ret = rt_ri_forbid(s, "a host function");
	if (ret)
		return ret;
	ret = worker_start(dev);
	if (ret)
		return ret;
	pthread_mutex_lock(&cb_lock);
	if (!s->hfq.rep && dev->worker)
		queue_attach(&s->hfq, dev->worker);
	attached = s->hfq.rep != NULL;
	pthread_mutex_unlock(&cb_lock);
	if (attached)
		ret = enqueue(&s->hfq, fn, arg, true, &orphaned);
	if (!attached || orphaned)
		return rt_err(ACL_ERROR_RT_CONTEXT_RELEASE_ERROR, "device %u is being reset", dev->index);
	return ret;
}

void rt_callback_stream_gone(struct rt_stream *s)
{
	struct rt_reporter *emptied_cb = NULL, *emptied_hf = NULL, *wake_cb = NULL, *wake_hf = NULL;
	bool had_cb, had_hf;
	uint64_t t1, t2;

	pthread_mutex_lock(&cb_lock);
	had_cb = s->cbq.rep != NULL;
	had_hf = s->hfq.rep != NULL;
	t1 = queue_detach(&s->cbq, &emptied_cb, &wake_cb);
	t2 = queue_detach(&s->hfq, &emptied_hf, &wake_hf);
	pthread_mutex_unlock(&cb_lock);
	rep_wake_put(wake_cb);
	rep_wake_put(wake_hf);
	if (t1 > t2)
		t2 = t1;
	if (t2)
		release_ticket(s, t2);
	if (had_cb)
		rt_stream_put(s);
	if (had_hf)
		rt_stream_put(s);
	rep_put(emptied_cb);
	rep_put(emptied_hf);
}

void rt_callback_device_gone(struct rt_dev *dev)
{
	struct rt_reporter *rep;

	pthread_mutex_lock(&cb_lock);
	rep = dev->worker;
	dev->worker = NULL;
	if (rep)
		rep->stop = true;
	pthread_mutex_unlock(&cb_lock);
	if (!rep)
		return;
	rep_wake(rep);
	if (pthread_equal(rep->worker, pthread_self()))
		pthread_detach(rep->worker);
	else
		pthread_join(rep->worker, NULL);

	/*
	 * Drop what the worker will not run, and let the streams go on: one
	 * queue per turn of the lock, so every queue leaves the reporter
	 * before it goes, and nothing is allocated that could fail.
	 */
	for (;;) {
		struct rt_reporter *unused;
		struct rt_stream *s;
		struct rt_hostq *q;
		uint64_t ticket;

		pthread_mutex_lock(&cb_lock);
		if (rt_list_empty(&rep->queues)) {
			pthread_mutex_unlock(&cb_lock);
			break;
		}
		q = rt_container_of(rep->queues.next, struct rt_hostq, rep_link);
		s = q->stream;
		ticket = queue_detach(q, &unused, NULL);	/* the worker has stopped */
		pthread_mutex_unlock(&cb_lock);
		if (ticket)
			release_ticket(s, ticket);
		rt_stream_put(s);
	}
	rep_put(rep);
}
