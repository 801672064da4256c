// SPDX-License-Identifier: GPL-2.0
/*
 * Streams and their ioctls (create, destroy, query, set_param).
 *
 * A stream is an in-order queue of jobs, run one after the other by the
 * scheduler (vnpu_sched.c) on the device's engine server.
 *
 * Destroying a stream, explicitly or by closing the file, never waits for
 * its work: jobs off the engine end at once (their dependency callbacks
 * removed), a job the engine holds is asked to stop and ends when the
 * server reports it. Jobs keep the stream's memory alive until they are
 * freed.
 */
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <drm/drm_file.h>

#include "vnpu_drv.h"
#include "vnpu_job.h"
#include "vnpu_sched.h"
#include "vnpu_stream.h"

static void vnpu_stream_release(struct kref *kref)
{
	struct vnpu_stream *stream = container_of(kref, struct vnpu_stream, refcount);

	WARN_ON(!list_empty(&stream->jobs));
	mutex_destroy(&stream->pool.lock);
	mutex_destroy(&stream->retire_lock);
	mutex_destroy(&stream->submit_lock);
	vnpu_job_quota_put(stream->job_quota);
	kfree(stream);
}

/**
 * vnpu_stream_put() - drop a reference to a stream
 * @stream: the stream
 */
void vnpu_stream_put(struct vnpu_stream *stream)
{
	kref_put(&stream->refcount, vnpu_stream_release);
}

/**
 * vnpu_stream_lookup() - find a stream of a file by id
 * @vfile: the file
 * @id: stream id
 *
 * Return: the stream with a new reference, or NULL if the file has no
 * stream @id (never had, or it was destroyed).
 */
struct vnpu_stream *vnpu_stream_lookup(struct vnpu_file *vfile, u32 id)
{
	struct vnpu_stream *stream;

	xa_lock(&vfile->streams);
	stream = xa_load(&vfile->streams, id);
	if (stream)
		vnpu_stream_get(stream);
	xa_unlock(&vfile->streams);
	return stream;
}

/**
 * vnpu_stream_next() - walk a file's streams in id order
 * @vfile: the file
 * @id: in, the id to start after (0 for the first); out, the found id
 *
 * Return: the next stream with a new reference, or NULL at the end.
 * Streams created or destroyed during the walk may or may not be seen.
 */
struct vnpu_stream *vnpu_stream_next(struct vnpu_file *vfile, u32 *id)
{
	unsigned long index = (unsigned long)*id + 1;
	struct vnpu_stream *stream;

	xa_lock(&vfile->streams);
	stream = xa_find(&vfile->streams, &index, U32_MAX, XA_PRESENT);
	if (stream) {
		vnpu_stream_get(stream);
		*id = index;
	}
	xa_unlock(&vfile->streams);
	return stream;
}

/* Take one unit of a bounded count; false if it is at @max already. */
static bool vnpu_count_take(atomic_t *count, unsigned int max)
{
	int old = atomic_read(count);

	do {
		if (old >= (int)max)
			return false;
	} while (!atomic_try_cmpxchg(count, &old, old + 1));
	return true;
}

static struct vnpu_stream *vnpu_stream_alloc(struct vnpu_file *vfile, u32 priority)
{
	struct vnpu_stream *stream;

	stream = kzalloc(sizeof(*stream), GFP_KERNEL);
	if (!stream)
		return NULL;
	kref_init(&stream->refcount);
	stream->vdev = vfile->vdev;
	stream->client_id = vfile->client_id;
	stream->job_quota = vnpu_job_quota_get(vfile->job_quota);
	stream->priority = priority;
	mutex_init(&stream->submit_lock);
	stream->hazard_policy = VNPU_HAZARD_SERIALIZE;
	vnpu_sched_stream_init(stream, vfile);
	vnpu_pool_init(&stream->pool);
	return stream;
}

/*
 * Tear down a stream that was just taken out of its file's table: no
 * submit can push to it afterwards, its work is cancelled. Drops the
 * table's reference.
 */
static void vnpu_stream_kill(struct vnpu_file *vfile, struct vnpu_stream *stream)
{
	mutex_lock(&stream->submit_lock);
	stream->destroyed = true;
	mutex_unlock(&stream->submit_lock);

	vnpu_sched_stream_cancel(stream);
	vnpu_pool_fini(&stream->pool, vfile);

	atomic_dec(&vfile->num_streams);
	atomic_dec(&stream->vdev->num_streams);
	vnpu_stream_put(stream);
}

/**
 * vnpu_streams_file_close() - destroy every stream of a closing file
 * @vfile: the file (its postclose)
 */
void vnpu_streams_file_close(struct vnpu_file *vfile)
{
	struct vnpu_stream *stream;
	unsigned long id;

	xa_for_each(&vfile->streams, id, stream) {
		xa_erase(&vfile->streams, id);
		vnpu_stream_kill(vfile, stream);
	}
}

/**
 * vnpu_ioctl_stream_create() - DRM_IOCTL_VNPU_STREAM_CREATE
 * @drm: device
 * @data: struct drm_vnpu_stream_create
 * @file: caller
 *
 * Return: 0 with the new stream's id, or a negative errno.
 */
int vnpu_ioctl_stream_create(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct vnpu_device *vdev = to_vnpu_device(drm);
	struct vnpu_file *vfile = to_vnpu_file(file);
	struct drm_vnpu_stream_create *args = data;
	struct vnpu_stream *stream;
	u32 id;
	int ret;

	if (args->flags || args->pad)
		return -EINVAL;
	if (args->priority != VNPU_PRIORITY_LOW && args->priority != VNPU_PRIORITY_NORMAL &&
	    args->priority != VNPU_PRIORITY_HIGH)
		return -EINVAL;

	if (!vnpu_count_take(&vfile->num_streams, vnpu_param_max_streams_per_file))
		return -ENOSPC;
	if (!vnpu_count_take(&vdev->num_streams, vnpu_param_max_streams)) {
		ret = -ENOSPC;
		goto err_file_count;
	}

	stream = vnpu_stream_alloc(vfile, args->priority);
	if (!stream) {
		ret = -ENOMEM;
		goto err_dev_count;
	}

	/* Reserve the id first: the stream must know it before it is found. */
	ret = xa_alloc_cyclic(&vfile->streams, &id, NULL, XA_LIMIT(1, U32_MAX),
			      &vfile->next_stream_id, GFP_KERNEL);
	if (ret < 0)
		goto err_stream;
	stream->id = id;
	ret = xa_err(xa_store(&vfile->streams, id, stream, GFP_KERNEL));
	if (ret) {
		xa_erase(&vfile->streams, id);
		goto err_stream;
	}

	args->stream_id = id;
	return 0;

err_stream:
	vnpu_stream_put(stream);
err_dev_count:
	atomic_dec(&vdev->num_streams);
err_file_count:
	atomic_dec(&vfile->num_streams);
	return ret;
}

/**
 * vnpu_ioctl_stream_destroy() - DRM_IOCTL_VNPU_STREAM_DESTROY
 * @drm: device
 * @data: struct drm_vnpu_stream_destroy
 * @file: caller
 *
 * Return: 0, -EINVAL for nonzero flags, -ENOENT for an unknown stream.
 */
int vnpu_ioctl_stream_destroy(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct vnpu_file *vfile = to_vnpu_file(file);
	struct drm_vnpu_stream_destroy *args = data;
	struct vnpu_stream *stream;

	if (args->flags)
		return -EINVAL;

	stream = xa_erase(&vfile->streams, args->stream_id);
	if (!stream)
		return -ENOENT;
	vnpu_stream_kill(vfile, stream);
	return 0;
}

/**
 * vnpu_ioctl_stream_query() - DRM_IOCTL_VNPU_STREAM_QUERY
 * @drm: device
 * @data: struct drm_vnpu_stream_query
 * @file: caller
 *
 * Return: 0, -EINVAL for nonzero flags, -ENOENT for an unknown stream.
 */
int vnpu_ioctl_stream_query(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct vnpu_file *vfile = to_vnpu_file(file);
	struct drm_vnpu_stream_query *args = data;
	struct vnpu_stream_status status;
	struct vnpu_stream *stream;

	if (args->flags)
		return -EINVAL;

	stream = vnpu_stream_lookup(vfile, args->stream_id);
	if (!stream)
		return -ENOENT;

	/* Completed first: a job retired after this snapshot is also submitted. */
	vnpu_sched_stream_status(stream, &status);
	args->submitted_seqno = READ_ONCE(stream->submitted_seqno);
	args->completed_seqno = status.completed_seqno;
	args->error = status.error;
	args->failed_task = status.failed_task;
	args->failed_seqno = status.failed_seqno;
	args->failed_jobs = status.failed_jobs;
	args->last_error = status.last_error;
	args->last_failed_task = status.last_failed_task;
	args->last_failed_seqno = status.last_failed_seqno;
	args->pad = 0;

	vnpu_stream_put(stream);
	return 0;
}

/**
 * vnpu_ioctl_stream_abort() - DRM_IOCTL_VNPU_STREAM_ABORT
 * @drm: device
 * @data: struct drm_vnpu_stream_abort
 * @file: caller
 *
 * Jobs pushed after the submitted seqno is read here are not affected:
 * they have later seqnos (and, after a stop, are skipped as in any failed
 * stream).
 *
 * Return: 0, -EINVAL for unknown flags, -ENOENT for an unknown stream.
 */
int vnpu_ioctl_stream_abort(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct vnpu_file *vfile = to_vnpu_file(file);
	struct drm_vnpu_stream_abort *args = data;
	struct vnpu_stream *stream;
	int ret = 0;

	if (args->flags & ~VNPU_STREAM_ABORT_STOP)
		return -EINVAL;

	stream = vnpu_stream_lookup(vfile, args->stream_id);
	if (!stream)
		return -ENOENT;
	mutex_lock(&stream->submit_lock);
	if (stream->destroyed)
		ret = -ENOENT;
	args->seqno = stream->submitted_seqno;
	mutex_unlock(&stream->submit_lock);
	if (!ret)
		args->completed_seqno = vnpu_sched_stream_abort(stream, args->seqno,
								args->flags & VNPU_STREAM_ABORT_STOP);
	vnpu_stream_put(stream);
	return ret;
}

/**
 * vnpu_streams_show_fdinfo() - print one fdinfo line per stream of a file
 * @m: the fdinfo file
 * @vfile: the file
 *
 * "vnpu-stream-<id>:" then key=value pairs: priority, progress (queued is
 * submitted minus completed), state and error (enum drm_vnpu_stream_error),
 * pool ranges and bytes, the hazard and workspace counters, the policies,
 * then the jobs the engine holds (running: their in-fences signalled, the
 * first executing or waiting), whether the first waits for memory
 * (parked), the failure mode and how many jobs failed.
 * tools/vnpu-smi reads these; keys may be added, never renamed.
 */
void vnpu_streams_show_fdinfo(struct seq_file *m, struct vnpu_file *vfile)
{
	struct drm_vnpu_pool_stats stats;
	struct vnpu_stream_status status;
	struct vnpu_stream *stream;
	u64 submitted;
	u32 id = 0;

	while ((stream = vnpu_stream_next(vfile, &id))) {
		/* Completed first, as in STREAM_QUERY: queued never goes negative. */
		vnpu_sched_stream_status(stream, &status);
		submitted = READ_ONCE(stream->submitted_seqno);
		vnpu_pool_stats(&stream->pool, vfile, &stats);
		seq_printf(m, "vnpu-stream-%u:\tprio=%u submitted=%llu completed=%llu queued=%llu state=%s error=%u",
			   id, stream->priority, submitted, status.completed_seqno,
			   submitted - status.completed_seqno,
			   status.error == VNPU_STREAM_ERROR_NONE ? "ok" : "failed",
			   status.error);
		seq_printf(m, " pool_ranges=%u pool_bytes=%llu hazards_serialized=%llu hazards_rejected=%llu ws_bytes=%llu ws_tasks=%llu",
			   READ_ONCE(stream->pool.num_ranges), stats.bytes_bound,
			   stats.hazards_serialized, stats.hazards_rejected,
			   stats.ws_bytes_used, stats.ws_tasks);
		seq_printf(m, " hazard_policy=%s require_pool=%u running=%u parked=%u failure_mode=%s failed_jobs=%u\n",
			   READ_ONCE(stream->hazard_policy) == VNPU_HAZARD_STRICT ?
			   "strict" : "serialize", READ_ONCE(stream->require_pool),
			   status.running, status.parked,
			   READ_ONCE(stream->failure_mode) == VNPU_FAILURE_CONTINUE ?
			   "continue" : "stop", status.failed_jobs);
		vnpu_stream_put(stream);
	}
}

/**
 * vnpu_ioctl_stream_set_param() - DRM_IOCTL_VNPU_STREAM_SET_PARAM
 * @drm: device
 * @data: struct drm_vnpu_stream_set_param
 * @file: caller
 *
 * The values are stored for the pool code, the job timer and the
 * scheduler, which read them at submit.
 *
 * Return: 0, -EINVAL for an unknown parameter or value, -ENOENT for an
 * unknown stream.
 */
int vnpu_ioctl_stream_set_param(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct vnpu_file *vfile = to_vnpu_file(file);
	struct drm_vnpu_stream_set_param *args = data;
	struct vnpu_stream *stream;

	switch (args->param) {
	case VNPU_STREAM_PARAM_HAZARD_POLICY:
		if (args->value != VNPU_HAZARD_SERIALIZE && args->value != VNPU_HAZARD_STRICT)
			return -EINVAL;
		break;
	case VNPU_STREAM_PARAM_REQUIRE_POOL:
		if (args->value > 1)
			return -EINVAL;
		break;
	case VNPU_STREAM_PARAM_JOB_TIMEOUT_MS:
		if (args->value > VNPU_MAX_JOB_TIMEOUT_MS)
			return -EINVAL;
		break;
	case VNPU_STREAM_PARAM_FAILURE_MODE:
		if (args->value != VNPU_FAILURE_STOP && args->value != VNPU_FAILURE_CONTINUE)
			return -EINVAL;
		break;
	default:
		return -EINVAL;
	}

	stream = vnpu_stream_lookup(vfile, args->stream_id);
	if (!stream)
		return -ENOENT;
	if (args->param == VNPU_STREAM_PARAM_HAZARD_POLICY)
		WRITE_ONCE(stream->hazard_policy, args->value);
	else if (args->param == VNPU_STREAM_PARAM_REQUIRE_POOL)
		WRITE_ONCE(stream->require_pool, args->value);
	else if (args->param == VNPU_STREAM_PARAM_JOB_TIMEOUT_MS)
		WRITE_ONCE(stream->job_timeout_ms, args->value);
	else
		WRITE_ONCE(stream->failure_mode, args->value);
	vnpu_stream_put(stream);
	return 0;
}
