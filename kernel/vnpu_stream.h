/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Streams: in-order task queues of a file, each one drm_sched entity over
 * all engines of the device plus a ring the engines execute it from.
 */
#ifndef VNPU_STREAM_H
#define VNPU_STREAM_H

#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <drm/gpu_scheduler.h>

#include "vnpu_engine.h"
#include "vnpu_gate.h"
#include "vnpu_pool.h"

struct drm_device;
struct drm_file;
struct seq_file;
struct vnpu_device;
struct vnpu_file;

/**
 * struct vnpu_stream - a stream
 * @refcount: the file's stream table holds one reference until the stream
 *	is destroyed; every job holds one; the engine owning the ring holds one
 * @vdev: the device
 * @job_quota: its file's job quota (referenced; see struct vnpu_job_quota)
 * @priority: VNPU_PRIORITY_* given at creation
 * @entity: the drm_sched entity jobs are pushed to
 * @submit_lock: serialises arming and pushing jobs, so seqnos, entity
 *	order and out-fence order agree; protects @submitted_seqno and
 *	@destroyed
 * @submitted_seqno: seqno of the last pushed job (also read locklessly
 *	by STREAM_QUERY)
 * @destroyed: STREAM_DESTROY or file close happened; nothing may be pushed
 * @hazard_policy: VNPU_STREAM_PARAM_HAZARD_POLICY value (used by pools)
 * @require_pool: VNPU_STREAM_PARAM_REQUIRE_POOL value (used by pools)
 * @gates: gates of pushed jobs still waiting for their in-fences or for
 *	the jobs of other streams they collide with (vnpu_hazard.c)
 * @ring: execution state
 * @pool: the workspace pool bound to the stream, and its counters
 */
struct vnpu_stream {
	struct kref refcount;
	struct vnpu_device *vdev;
	struct vnpu_job_quota *job_quota;
	u32 priority;
	struct drm_sched_entity entity;

	struct mutex submit_lock;
	u64 submitted_seqno;
	bool destroyed;

	u32 hazard_policy;
	u32 require_pool;

	struct vnpu_gate_list gates;
	struct vnpu_ring ring;
	struct vnpu_pool pool;
};

static inline struct vnpu_stream *vnpu_ring_to_stream(struct vnpu_ring *ring)
{
	return container_of(ring, struct vnpu_stream, ring);
}

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

#endif /* VNPU_STREAM_H */
