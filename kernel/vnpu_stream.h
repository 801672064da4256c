/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Streams: in-order task queues of a file. The scheduler (vnpu_sched.c)
 * runs each stream's jobs one after the other on the engine server.
 */
#ifndef VNPU_STREAM_H
#define VNPU_STREAM_H

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>

#include "vnpu_pool.h"

struct drm_device;
struct drm_file;
struct seq_file;
struct vnpu_device;
struct vnpu_file;

/**
 * struct vnpu_stream - a stream
 * @refcount: the file's stream table holds one reference until the stream
 *	is destroyed; every job holds one
 * @vdev: the device
 * @id: the stream's id in its file
 * @client_id: its file's drm-client-id (for the engine server's logs)
 * @job_quota: its file's job quota (referenced; see struct vnpu_job_quota)
 * @priority: VNPU_PRIORITY_* given at creation
 * @fence_context: dma_fence context of the stream's job fences; their
 *	seqnos are the job seqnos and they signal in that order
 * @submit_lock: serialises pushing jobs, so seqnos, queue order and
 *	out-fence order agree; protects @submitted_seqno and @destroyed
 * @submitted_seqno: seqno of the last pushed job (also read locklessly
 *	by STREAM_QUERY)
 * @destroyed: STREAM_DESTROY or file close happened; nothing may be pushed
 * @retire_lock: held while a job of the stream is retired, from taking
 *	it off the queue to signalling its fence, so the stream's fences
 *	signal in seqno order whoever retires them; taken before the
 *	scheduler lock
 * @hazard_policy: VNPU_STREAM_PARAM_HAZARD_POLICY value (used by pools)
 * @require_pool: VNPU_STREAM_PARAM_REQUIRE_POOL value (used by pools)
 * @job_timeout_ms: VNPU_STREAM_PARAM_JOB_TIMEOUT_MS value (0: the module
 *	parameter), copied into each job at submit
 * @failure_mode: VNPU_STREAM_PARAM_FAILURE_MODE value, copied into each
 *	job at submit
 * @pool: the workspace pool bound to the stream, and its counters
 * @jobs: unfinished jobs, in seqno order; the first is the head, the only
 *	one that may run
 * @busy_link: entry in the device's list of streams with unfinished jobs
 * @cancelled: the stream is destroyed: its jobs end without running; set
 *	in the same hold of the scheduler lock that asks every job the
 *	engine holds to stop and ends those on a ready queue or parked, so
 *	none is handed out afterwards (vnpu_sched_stream_cancel())
 * @error: enum drm_vnpu_stream_error; once set, jobs are skipped (until
 *	STREAM_ABORT clears it)
 * @failed_task: index of the failing task in its job
 * @failed_seqno: seqno of the job that failed the stream
 * @abort_seqno: jobs up to this seqno are discarded (STREAM_ABORT)
 * @failed_jobs: how many jobs failed, in either failure mode
 * @last_error: enum drm_vnpu_stream_error of the last failed job
 * @last_failed_task: index of the failing task in that job
 * @last_failed_seqno: its seqno
 * @completed_seqno: every job up to this seqno has been retired
 * @vfile: file charged with engine time; NULL once the stream is destroyed
 *
 * @jobs, @busy_link, @cancelled, @error, @failed_task, @failed_seqno,
 * @abort_seqno, @failed_jobs, the last failure,
 * @completed_seqno and @vfile are protected by the device's scheduler lock
 * (&vnpu_sched.lock); @error and @completed_seqno are also read
 * locklessly for snapshots.
 */
struct vnpu_stream {
	struct kref refcount;
	struct vnpu_device *vdev;
	u32 id;
	u64 client_id;
	struct vnpu_job_quota *job_quota;
	u32 priority;
	u64 fence_context;

	struct mutex submit_lock;	/* seqnos and the order of pushes */
	u64 submitted_seqno;
	bool destroyed;
	struct mutex retire_lock;	/* retirement of the stream's jobs */

	u32 hazard_policy;
	u32 require_pool;
	u32 job_timeout_ms;
	u32 failure_mode;
	struct vnpu_pool pool;

	struct list_head jobs;
	struct list_head busy_link;
	bool cancelled;
	u32 error;
	u32 failed_task;
	u64 failed_seqno;
	u64 abort_seqno;
	u32 failed_jobs;
	u32 last_error;
	u32 last_failed_task;
	u64 last_failed_seqno;
	u64 completed_seqno;
	struct vnpu_file *vfile;
};

static inline struct vnpu_stream *vnpu_stream_get(struct vnpu_stream *stream)
{
	kref_get(&stream->refcount);
	return stream;
}

void vnpu_stream_put(struct vnpu_stream *stream);
struct vnpu_stream *vnpu_stream_lookup(struct vnpu_file *vfile, u32 id);
struct vnpu_stream *vnpu_stream_next(struct vnpu_file *vfile, u32 *id);
void vnpu_streams_show_fdinfo(struct seq_file *m, struct vnpu_file *vfile);
void vnpu_streams_file_close(struct vnpu_file *vfile);
void vnpu_debugfs_streams_init(struct vnpu_device *vdev);

int vnpu_ioctl_stream_create(struct drm_device *drm, void *data, struct drm_file *file);
int vnpu_ioctl_stream_destroy(struct drm_device *drm, void *data, struct drm_file *file);
int vnpu_ioctl_stream_query(struct drm_device *drm, void *data, struct drm_file *file);
int vnpu_ioctl_stream_set_param(struct drm_device *drm, void *data, struct drm_file *file);
int vnpu_ioctl_stream_abort(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* VNPU_STREAM_H */
