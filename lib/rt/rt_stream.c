// SPDX-License-Identifier: MIT
/*
 * rt_stream.c - streams: one kernel stream plus one timeline syncobj each.
 *
 * Every job submitted to a stream installs its fence at the next point of
 * the stream's timeline, so "all work up to the n-th submit is done" is
 * "point n has signalled", and synchronising is one timeline wait. Submits
 * that fail are not queued by the kernel and take no point, so point n is
 * also the kernel's job seqno n (STREAM_QUERY's failed_seqno).
 *
 * Default streams get their kernel stream on first use; streams the
 * application creates get it at once, so running out of kernel streams is
 * reported by aclrtCreateStream.
 *
 * Submits fail with -ENOTCONN while the device has no engine server
 * (ACL_ERROR_RT_DEV_SETUP_ERROR, saying to start it); a stream whose work
 * was unfinished when the server went away stays failed
 * (VNPU_STREAM_ERROR_ENGINE, ACL_ERROR_RT_LOST_HEARTBEAT).
 *
 * Destroying a stream also drops its allocator registration (CANN keeps a
 * stale entry keyed by the dead handle), its pool bindings (with the
 * kernel stream) and hands its runtime workspace blocks to the device.
 *
 * Failures. The kernel stream is created in CANN's default failure mode,
 * ACL_CONTINUE_ON_FAILURE (VNPU_FAILURE_CONTINUE): a failed job does not
 * stop it, and the first synchronisation whose wait covers the stream's
 * latest failure reports it, once (STREAM_QUERY's failed_jobs says whether
 * there is one not reported yet). In ACL_STOP_ON_FAILURE the stream fails
 * at the failure and stays failed (every synchronisation covering it says
 * so, submits are refused) until aclrtStreamAbort, which discards what
 * was queued: waits for discarded work say ACL_ERROR_RT_STREAM_ABORT.
 *
 * While the stream captures into a task graph (s->cap, rt_ri.h), the submit
 * functions record each job in the graph instead and report success with
 * point 0; synchronizing and querying it are refused (they would wait for
 * work that never runs) and invalidate the capture.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"
#include "rt_config.h"
#include "rt_errmap.h"
#include "rt_ri.h"

static void stream_release(struct rt_obj *obj)
{
	struct rt_stream *s = rt_container_of(obj, struct rt_stream, obj);

	if (s->syncobj)
		drv_syncobj_destroy(s->dev->fd, s->syncobj);
	if (s->has_word)
		rt_slot_free(s->dev, &s->word);
	pthread_mutex_lock(&s->pool_lock);
	rt_pool_stream_unbound(s);
	pthread_mutex_unlock(&s->pool_lock);
	rt_pool_ws_stream_release(s);
	/* The last reference: no operator can be reading the registration. */
	rt_allocslot_fini(&s->alloc_slot);
	pthread_mutex_destroy(&s->submit_lock);
	pthread_mutex_destroy(&s->pool_lock);
	pthread_mutex_destroy(&s->ws_lock);
	rt_dev_put(s->dev);
	free(s);
}

void rt_stream_put(struct rt_stream *s)
{
	if (s)
		rt_obj_put(&s->obj);
}

/* CANN's stream priorities run from 0 (highest, the default) to 7. */
static uint32_t vnpu_priority(uint32_t priority)
{
	if (priority == 0)
		return VNPU_PRIORITY_HIGH;
	if (priority <= 3)
		return VNPU_PRIORITY_NORMAL;
	return VNPU_PRIORITY_LOW;
}

/* Give kernel stream @id the CANN failure @mode. */
static int set_kernel_failure_mode(int fd, uint32_t id, uint32_t mode)
{
	return drv_stream_set_param(fd, id, VNPU_STREAM_PARAM_FAILURE_MODE,
				    mode == ACL_STOP_ON_FAILURE ? VNPU_FAILURE_STOP : VNPU_FAILURE_CONTINUE);
}

/* Create the kernel side of @s if it has none yet. submit_lock held. */
static aclError stream_kernel_init(struct rt_stream *s)
{
	int fd = s->dev->fd;
	aclError err;
	uint32_t id;
	int policy;
	int ret;

	if (s->id)
		return ACL_SUCCESS;
	if (s->kernel_destroyed)
		return rt_err(ACL_ERROR_INVALID_PARAM, "stream %p has been destroyed", (void *)s);
	err = rt_hazard_policy(&policy);
	if (err)
		return err;
	if (!s->syncobj) {
		ret = drv_syncobj_create(fd, &s->syncobj);
		if (ret)
			return rt_err_errno(ret, "cannot create a syncobj for a stream on device %u",
					    s->dev->index);
	}
	ret = drv_stream_create(fd, vnpu_priority(s->priority), &id);
	if (ret == -ENOSPC)
		return rt_err(ACL_ERROR_RT_NO_STREAM_RESOURCE, "device %u has no stream left", s->dev->index);
	if (ret)
		return rt_err_errno(ret, "cannot create a stream on device %u", s->dev->index);
	if (policy == RT_HAZARD_STRICT) {
		ret = drv_stream_set_param(fd, id, VNPU_STREAM_PARAM_HAZARD_POLICY, VNPU_HAZARD_STRICT);
		if (ret) {
			drv_stream_destroy(fd, id);
			return rt_err_errno(ret, "cannot set the hazard policy of a stream on device %u",
					    s->dev->index);
		}
	}
	/* The kernel's default is stop: only continue needs saying. */
	if (atomic_load(&s->failure_mode) == ACL_CONTINUE_ON_FAILURE) {
		ret = set_kernel_failure_mode(fd, id, ACL_CONTINUE_ON_FAILURE);
		if (ret) {
			drv_stream_destroy(fd, id);
			return rt_err_errno(ret, "cannot set the failure mode of a stream on device %u",
					    s->dev->index);
		}
	}
	s->id = id;
	return ACL_SUCCESS;
}

aclError rt_stream_set_failure_mode(struct rt_stream *s, uint32_t mode)
{
	aclError err = ACL_SUCCESS;
	int ret;

	pthread_mutex_lock(&s->submit_lock);
	atomic_store(&s->failure_mode, mode);
	if (s->id) {
		ret = set_kernel_failure_mode(s->dev->fd, s->id, mode);
		if (ret)
			err = rt_err_errno(ret, "cannot set the failure mode of stream %p", (void *)s);
	}
	pthread_mutex_unlock(&s->submit_lock);
	return err;
}

/*
 * STREAM_ABORT discarded the jobs after @completed up to @seqno: waits for
 * them now end discarded (points are seqnos). Failures so far were
 * reported (a stopped stream's) or are the abort's to forget.
 */
static void aborted(struct rt_stream *s, uint64_t seqno, uint64_t completed)
{
	struct drm_vnpu_stream_query q;

	if (completed < seqno) {
		atomic_store(&s->abort_first, 0);
		atomic_store(&s->abort_last, seqno);
		atomic_store(&s->abort_first, completed + 1);
	}
	if (!drv_stream_query(s->dev->fd, s->id, &q))
		atomic_store(&s->failures_seen, q.failed_jobs);
}

aclError rt_stream_abort(struct rt_stream *s, bool stop)
{
	uint64_t seqno = 0, completed = 0;
	aclError err = ACL_SUCCESS;
	int ret;

	pthread_mutex_lock(&s->submit_lock);
	if (s->id) {
		ret = drv_stream_abort(s->dev->fd, s->id, stop ? VNPU_STREAM_ABORT_STOP : 0, &seqno, &completed);
		if (ret)
			err = rt_err_errno(ret, "cannot %s stream %p", stop ? "stop" : "abort", (void *)s);
		else if (!stop)
			aborted(s, seqno, completed);
	}
	pthread_mutex_unlock(&s->submit_lock);
	return err;
}

aclError rt_stream_create(struct rt_dev *dev, const struct rt_context *ctx, uint32_t priority, uint32_t flags,
			  bool is_default, struct rt_stream **out)
{
	struct rt_stream *s;
	aclError ret;

	s = calloc(1, sizeof(*s));
	if (!s)
		return rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory");
	rt_obj_init(&s->obj, RT_OBJ_STREAM, stream_release);
	rt_dev_get(dev);
	s->dev = dev;
	s->ctx = ctx;
	s->priority = priority > 7 ? 7 : priority;
	s->flags = flags;
	s->is_default = is_default;
	rt_list_init(&s->dev_link);
	pthread_mutex_init(&s->submit_lock, NULL);
	pthread_mutex_init(&s->pool_lock, NULL);
	rt_imap_init(&s->pool_bound);
	pthread_mutex_init(&s->ws_lock, NULL);
	rt_wslist_init(&s->ws_cache);
	rt_allocslot_init(&s->alloc_slot);
	atomic_init(&s->last_point, 0);
	atomic_init(&s->failure_mode, ACL_CONTINUE_ON_FAILURE);
	s->cbq.stream = s;
	s->hfq.stream = s;
	rt_list_init(&s->cbq.rep_link);
	rt_list_init(&s->hfq.rep_link);

	if (!is_default) {
		pthread_mutex_lock(&s->submit_lock);
		ret = stream_kernel_init(s);
		pthread_mutex_unlock(&s->submit_lock);
		if (ret) {
			rt_stream_put(s);
			return ret;
		}
	}
	pthread_mutex_lock(&dev->lock);
	if (dev->dead) {
		pthread_mutex_unlock(&dev->lock);
		ret = rt_err(ACL_ERROR_RT_CONTEXT_RELEASE_ERROR, "device %u is being reset", dev->index);
		goto fail;
	}
	s->dev_seq = ++dev->stream_seq;
	rt_list_add_tail(&dev->streams, &s->dev_link);
	pthread_mutex_unlock(&dev->lock);
	if (rt_handle_add(&s->obj)) {
		pthread_mutex_lock(&dev->lock);
		rt_list_del(&s->dev_link);
		pthread_mutex_unlock(&dev->lock);
		ret = rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory");
		goto fail;
	}
	*out = s;
	rt_stream_state_notify(s, ACL_RT_STREAM_STATE_CREATE_POST);
	return ACL_SUCCESS;
fail:
	if (s->id)
		drv_stream_destroy(dev->fd, s->id);
	rt_stream_put(s);
	return ret;
}

aclError rt_stream_available(struct rt_dev *dev, uint32_t *count)
{
	struct rt_list *pos;
	uint64_t limit, used = 0;
	int ret;

	ret = drv_get_param(dev->fd, VNPU_PARAM_MAX_STREAMS_PER_FILE, &limit);
	if (ret)
		return rt_err_errno(ret, "cannot read the stream limit of vnpu device %u", dev->index);
	pthread_mutex_lock(&dev->lock);
	rt_list_for_each(pos, &dev->streams) {
		struct rt_stream *s = rt_container_of(pos, struct rt_stream, dev_link);

		if (atomic_load(&s->id))
			used++;
	}
	pthread_mutex_unlock(&dev->lock);
	*count = used < limit ? (uint32_t)(limit - used) : 0;
	return ACL_SUCCESS;
}

void rt_stream_walk_begin(struct rt_stream_walk *w, struct rt_dev *dev)
{
	w->dev = dev;
	w->cursor = 0;
	pthread_mutex_lock(&dev->lock);
	w->end = dev->stream_seq;
	pthread_mutex_unlock(&dev->lock);
}

struct rt_stream *rt_stream_walk_next(struct rt_stream_walk *w)
{
	struct rt_stream *found = NULL;
	struct rt_list *pos;

	pthread_mutex_lock(&w->dev->lock);
	rt_list_for_each(pos, &w->dev->streams) {
		struct rt_stream *s = rt_container_of(pos, struct rt_stream, dev_link);

		if (s->dev_seq > w->end)
			break;
		if (s->dev_seq > w->cursor) {
			rt_obj_get(&s->obj);
			w->cursor = s->dev_seq;
			found = s;
			break;
		}
	}
	pthread_mutex_unlock(&w->dev->lock);
	return found;
}

aclError rt_stream_destroy(struct rt_stream *s, bool force)
{
	if (!rt_handle_remove(&s->obj))
		return rt_err(ACL_ERROR_INVALID_PARAM, "stream %p has already been destroyed", (void *)s);
	rt_stream_state_notify(s, ACL_RT_STREAM_STATE_DESTROY_PRE);
	pthread_mutex_lock(&s->dev->lock);
	rt_list_del(&s->dev_link);
	pthread_mutex_unlock(&s->dev->lock);
	/* Operators from now on find no allocator (those running keep the
	 * record they read until they return). */
	rt_allocslot_close(&s->alloc_slot);
	if (!force) {
		/* Outstanding work finishes first. A failed stream is
		 * destroyed all the same: its failure is not this call's. */
		uint64_t point = atomic_load(&s->last_point);

		if (point)
			drv_syncobj_wait(s->dev->fd, &s->syncobj, &point, 1, RT_FOREVER, false, NULL);
	}
	rt_callback_stream_gone(s);
	rt_ri_stream_gone(s);

	pthread_mutex_lock(&s->submit_lock);
	pthread_mutex_lock(&s->pool_lock);
	if (s->id)
		drv_stream_destroy(s->dev->fd, s->id);
	s->id = 0;
	s->kernel_destroyed = true;
	/* The kernel dropped the stream's pool bindings with it. */
	rt_pool_stream_unbound(s);
	pthread_mutex_unlock(&s->pool_lock);
	pthread_mutex_unlock(&s->submit_lock);
	rt_pool_ws_stream_gone(s);
	return ACL_SUCCESS;
}

aclError rt_stream_resolve(struct rt_context *ctx, const void *handle, struct rt_stream **out)
{
	struct rt_obj *obj;
	struct rt_stream *s;

	if (!handle) {
		s = ctx->default_stream;
		rt_obj_get(&s->obj);
		*out = s;
		return ACL_SUCCESS;
	}
	obj = rt_handle_lookup(handle, RT_OBJ_STREAM);
	if (!obj)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%p is not a stream (never created, or destroyed)", handle);
	s = rt_container_of(obj, struct rt_stream, obj);
	if (s->ctx != ctx) {
		rt_stream_put(s);
		return rt_err(ACL_ERROR_RT_STREAM_CONTEXT, "stream %p does not belong to the current context",
			      handle);
	}
	*out = s;
	return ACL_SUCCESS;
}

/* The failure of @s as STREAM_QUERY reported it in @q, with its message;
 * with @notify, the exception callbacks hear of it (once). */
static aclError stream_failed(struct rt_stream *s, const struct drm_vnpu_stream_query *q, bool notify)
{
	aclError code = rt_stream_error_to_acl(q->error);

	if (notify)
		rt_except_report(s, q->failed_seqno, code);
	if (q->error == VNPU_STREAM_ERROR_ENGINE)
		return rt_err(code,
			      "stream %p failed: the engine server of device %u went away while the stream had "
			      "work (its job %llu): restart it; the stream stays failed",
			      (void *)s, s->dev->index, (unsigned long long)q->failed_seqno);
	return rt_err(code, "stream %p failed: %s (in task %u of its job %llu)", (void *)s,
		      rt_stream_error_name(q->error), q->failed_task, (unsigned long long)q->failed_seqno);
}

/* STREAM_QUERY of the kernel stream of @s into *@q; all zeros (nothing
 * failed) while there is none, not yet or not any more. */
static aclError query_kernel(struct rt_stream *s, struct drm_vnpu_stream_query *q)
{
	int ret = s->id ? drv_stream_query(s->dev->fd, s->id, q) : -ENOENT;

	if (ret == -ENOENT) {
		memset(q, 0, sizeof(*q));
		return ACL_SUCCESS;
	}
	if (ret)
		return rt_err_errno(ret, "cannot query stream %p", (void *)s);
	return ACL_SUCCESS;
}

/* The error of @s if it failed (stopped at a failure); the exception
 * callbacks hear of it (once) if @notify. */
static aclError check_error(struct rt_stream *s, bool notify)
{
	struct drm_vnpu_stream_query q;
	aclError err = query_kernel(s, &q);

	if (err || q.error == VNPU_STREAM_ERROR_NONE)
		return err;
	return stream_failed(s, &q, notify);
}

bool rt_stream_has_failed(struct rt_stream *s)
{
	struct drm_vnpu_stream_query q;

	if (!s->id || drv_stream_query(s->dev->fd, s->id, &q))
		return false;
	return q.error != VNPU_STREAM_ERROR_NONE || q.failed_jobs;
}

/* Was the work up to @point discarded by aclrtStreamAbort? */
static bool point_aborted(struct rt_stream *s, uint64_t point)
{
	uint64_t first = atomic_load(&s->abort_first);

	return first && point >= first && point <= atomic_load(&s->abort_last);
}

/*
 * The latest failure of a job that did not stop @s (in q), if it is at or
 * before @point and not reported yet: report it, once, and to the
 * exception callbacks. A failure among discarded jobs is not reported.
 */
static aclError continued_failure(struct rt_stream *s, const struct drm_vnpu_stream_query *q, uint64_t point)
{
	uint32_t seen = atomic_load(&s->failures_seen);
	aclError code;

	if (q->failed_jobs == seen || !q->last_failed_seqno || q->last_failed_seqno > point)
		return ACL_SUCCESS;
	if (!atomic_compare_exchange_strong(&s->failures_seen, &seen, q->failed_jobs))
		return ACL_SUCCESS;	/* another thread reports it */
	if (point_aborted(s, q->last_failed_seqno))
		return ACL_SUCCESS;
	code = rt_stream_error_to_acl(q->last_error);
	rt_except_report(s, q->last_failed_seqno, code);
	return rt_err(code, "a task of stream %p failed: %s (in task %u of its job %llu); the stream went on",
		      (void *)s, rt_stream_error_name(q->last_error), q->last_failed_task,
		      (unsigned long long)q->last_failed_seqno);
}

/* The stream's error if it failed at or before @point, or work up to
 * @point was discarded. */
static aclError stream_error_upto(struct rt_stream *s, uint64_t point)
{
	struct drm_vnpu_stream_query q;
	aclError err;

	if (point_aborted(s, point))
		return rt_err(ACL_ERROR_RT_STREAM_ABORT, "the work of stream %p was discarded by aclrtStreamAbort",
			      (void *)s);
	err = query_kernel(s, &q);
	if (err)
		return err;
	if (q.error != VNPU_STREAM_ERROR_NONE && !(q.failed_seqno && q.failed_seqno > point))
		return stream_failed(s, &q, true);
	return continued_failure(s, &q, point);
}

/* rt_op_timeout_set()'s value and how many times it was set; the value is
 * stored before the generation moves, so a stream that sees a new
 * generation applies at least that value. */
static _Atomic uint32_t op_timeout_ms;
static atomic_uint op_timeout_gen;

void rt_op_timeout_set(uint32_t ms)
{
	atomic_store(&op_timeout_ms, ms);
	atomic_fetch_add(&op_timeout_gen, 1);
}

uint32_t rt_op_timeout_get(void)
{
	return atomic_load(&op_timeout_ms);
}

/* Bring the kernel stream's job timeout up to date (submit_lock held). */
static aclError apply_op_timeout(struct rt_stream *s, int *kerr)
{
	unsigned int gen = atomic_load(&op_timeout_gen);
	int ret;

	if (gen == s->timeout_gen)
		return ACL_SUCCESS;
	ret = drv_stream_set_param(s->dev->fd, s->id, VNPU_STREAM_PARAM_JOB_TIMEOUT_MS,
				   atomic_load(&op_timeout_ms));
	if (ret) {
		*kerr = ret;
		return rt_err_errno(ret, "cannot set the job timeout of stream %p", (void *)s);
	}
	s->timeout_gen = gen;
	return ACL_SUCCESS;
}

/* Submit with submit_lock held and the kernel stream created; *@kerr gets
 * the ioctl's result. */
static aclError submit_raw(struct rt_stream *s, const struct drm_vnpu_task *tasks, uint32_t ntasks,
			   const void *data, uint32_t data_size, const struct drm_vnpu_sync *in, uint32_t nin,
			   uint64_t *point, int *kerr)
{
	uint64_t next = atomic_load(&s->last_point) + 1;
	aclError err;
	int ret;

	err = apply_op_timeout(s, kerr);
	if (err)
		return err;
	ret = drv_submit(s->dev->fd, s->id, 0, tasks, ntasks, data, data_size, in, nin, s->syncobj, next);
	*kerr = ret;
	if (ret == -EIO) {
		/* submit_lock is held: the callbacks hear of it later. */
		err = check_error(s, false);
		if (err)
			return err;
	}
	if (ret == -ENOTCONN)
		return rt_err(rt_errno_to_acl(ret), RT_NO_ENGINE_FMT, s->dev->index);
	if (ret)
		return rt_err_errno(ret, "cannot queue work on stream %p", (void *)s);
	atomic_store(&s->last_point, next);
	rt_except_job_queued(s, next);
	if (point)
		*point = next;
	return ACL_SUCCESS;
}

aclError rt_stream_submit_locked(struct rt_stream *s, const struct drm_vnpu_task *tasks, uint32_t ntasks,
				 const struct drm_vnpu_sync *in, uint32_t nin, uint64_t *point)
{
	aclError err;
	int kerr;

	if (s->cap) {
		/* Captured: recorded, not run; no point (rt_ri.h). */
		if (point)
			*point = 0;
		return rt_ri_record_locked(s, tasks, ntasks, NULL, 0, nin);
	}
	err = stream_kernel_init(s);
	if (err)
		return err;
	return submit_raw(s, tasks, ntasks, NULL, 0, in, nin, point, &kerr);
}

aclError rt_stream_kernel_id(struct rt_stream *s, uint32_t *id)
{
	aclError err;

	pthread_mutex_lock(&s->submit_lock);
	err = stream_kernel_init(s);
	*id = s->id;
	pthread_mutex_unlock(&s->submit_lock);
	return err;
}

aclError rt_stream_submit_ops(struct rt_stream *s, const struct drm_vnpu_task *tasks, uint32_t ntasks,
			      const void *data, uint32_t data_size, const struct drm_vnpu_sync *in, uint32_t nin,
			      int pool, uint64_t *point, int *kerr)
{
	aclError err;
	int ret;

	*kerr = 0;
	pthread_mutex_lock(&s->submit_lock);
	if (s->cap) {
		/* Captured: recorded, not run; no point (rt_ri.h). The
		 * stream's pool setting is the replay's business. */
		if (point)
			*point = 0;
		err = rt_ri_record_locked(s, tasks, ntasks, data, data_size, nin);
		pthread_mutex_unlock(&s->submit_lock);
		return err;
	}
	err = stream_kernel_init(s);
	/* The kernel checks pool workspace per stream, so the setting follows
	 * what this job's workspace is; it changes only when the stream
	 * switches between an allocator and the runtime's pool. */
	if (!err && pool >= 0 && s->require_pool != (pool == 1)) {
		ret = drv_stream_set_param(s->dev->fd, s->id, VNPU_STREAM_PARAM_REQUIRE_POOL, pool == 1);
		if (ret)
			err = rt_err_errno(ret, "cannot set whether stream %p requires pool workspace", (void *)s);
		else
			s->require_pool = pool == 1;
	}
	if (!err)
		err = submit_raw(s, tasks, ntasks, data, data_size, in, nin, point, kerr);
	pthread_mutex_unlock(&s->submit_lock);
	return err;
}

aclError rt_stream_submit_op(struct rt_stream *s, const struct drm_vnpu_task *task, const void *data,
			     uint32_t data_size, int pool, uint64_t *point, int *kerr)
{
	return rt_stream_submit_ops(s, task, 1, data, data_size, NULL, 0, pool, point, kerr);
}

aclError rt_stream_submit(struct rt_stream *s, const struct drm_vnpu_task *tasks, uint32_t ntasks,
			  const struct drm_vnpu_sync *in, uint32_t nin, uint64_t *point)
{
	aclError ret;

	pthread_mutex_lock(&s->submit_lock);
	ret = rt_stream_submit_locked(s, tasks, ntasks, in, nin, point);
	pthread_mutex_unlock(&s->submit_lock);
	return ret;
}

aclError rt_stream_wait_point(struct rt_stream *s, uint64_t point, int64_t deadline)
{
	int ret;

	if (!point)
		return ACL_SUCCESS;
	ret = drv_syncobj_wait(s->dev->fd, &s->syncobj, &point, 1, deadline, false, NULL);
	if (ret == -ETIME)
		return rt_err(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, "stream %p did not finish its work in time",
			      (void *)s);
	if (ret)
		return rt_err_errno(ret, "cannot wait for stream %p", (void *)s);
	return stream_error_upto(s, point);
}

aclError rt_stream_synchronize(struct rt_stream *s, int64_t deadline)
{
	/* Captured work has not run: waiting for it cannot be captured. */
	aclError err = rt_ri_forbid(s, "synchronizing the stream");

	if (err)
		return err;
	return rt_stream_wait_point(s, atomic_load(&s->last_point), deadline);
}

bool rt_stream_point_done(struct rt_stream *s, uint64_t point)
{
	uint64_t done = 0;

	if (!point)
		return true;
	if (drv_syncobj_query(s->dev->fd, s->syncobj, &done))
		return false;
	return done >= point;
}

aclError rt_stream_query(struct rt_stream *s, bool *complete)
{
	uint64_t point = atomic_load(&s->last_point);
	aclError err = rt_ri_forbid(s, "querying the stream");

	if (err)
		return err;
	*complete = rt_stream_point_done(s, point);
	if (!*complete)
		return ACL_SUCCESS;
	return stream_error_upto(s, point);
}
