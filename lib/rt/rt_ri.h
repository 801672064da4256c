/* SPDX-License-Identifier: MIT */
/*
 * rt_ri.h - captured task graphs (CANN's model runtime instances, aclmdlRI):
 * capture, replay as one job, inspection and update (rt_ri.c, docs/capture.md).
 *
 * A stream capturing into a graph has s->cap set (under its submit_lock):
 * rt_stream.c's submit paths then hand every job to rt_ri_record_locked()
 * instead of the kernel and report success with no timeline point (point
 * 0, which no real submit has). Callers whose job owns something beyond the
 * submit (an operator's workspace) see point 0 and hand it to the graph
 * (rt_ri_adopt_*). Calls that cannot be captured ask rt_ri_forbid().
 *
 * Lock order: g_ri_lock (rt_ri.c) -> stream submit_lock -> ri->lock; a
 * replay holds the replayed graph's lock and then the replay stream's
 * submit_lock (a graph still capturing is never replayed, so the two ri
 * locks of that order are never the same one).
 */
#ifndef VNPU_LIB_RT_RI_H
#define VNPU_LIB_RT_RI_H

#include <stdio.h>

#include "rt.h"

struct rt_ri;

/* ---- for the runtime's submit paths ---------------------------------------- */

/* Record one job (as rt_stream_submit_ops() takes it) of @s into s->cap;
 * s->submit_lock held and s->cap set. */
aclError rt_ri_record_locked(struct rt_stream *s, const struct drm_vnpu_task *tasks, uint32_t ntasks,
			     const void *data, uint32_t data_size, uint32_t nin);
/* If @s is capturing: invalidate the capture and fail with
 * ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT naming @what; else ACL_SUCCESS. */
aclError rt_ri_forbid(struct rt_stream *s, const char *what);
/* An unsafe function (@what: a synchronous copy or memset) on this thread:
 * fails and invalidates the captures whose mode forbids it to this thread. */
aclError rt_ri_unsafe(const char *what);
/* The job just captured from @s owns @b / @block: the graph keeps it until
 * it is destroyed. False if @s is no longer capturing (the caller keeps it). */
bool rt_ri_adopt_ws(struct rt_stream *s, struct rt_wsblock *b);
bool rt_ri_adopt_block(struct rt_stream *s, const struct rt_allocfns *fns, void *block);
/* aclrtRecordEvent / aclrtStreamWaitEvent while captures run: *@captured
 * says whether the call was taken by a capture (else it runs as usual). */
aclError rt_ri_event_record(struct rt_stream *s, struct rt_event *ev, bool *captured);
aclError rt_ri_event_wait(struct rt_stream *s, struct rt_event *ev, bool *captured);
/* @s is being destroyed: a capture it is in is invalidated (and ended, with
 * its graph destroyed, when @s began it). */
void rt_ri_stream_gone(struct rt_stream *s);

/* ---- for the ACL surface (acl_ri.c) ------------------------------------------ */

aclError rt_ri_capture_begin(struct rt_stream *s, aclmdlRICaptureMode mode);
/* *@out: the graph's handle (the registry holds it). */
aclError rt_ri_capture_end(struct rt_stream *s, aclmdlRI *out);
aclError rt_ri_capture_info(struct rt_stream *s, aclmdlRICaptureStatus *status, aclmdlRI *ri);
aclmdlRICaptureMode rt_ri_exchange_mode(aclmdlRICaptureMode mode);
/* Task groups of a capturing stream, and their updates from a stream that
 * is not capturing (its jobs then go into a sink graph that replaces the
 * group's tasks at the end). */
aclError rt_ri_group_begin(struct rt_stream *s);
aclError rt_ri_group_end(struct rt_stream *s, aclrtTaskGrp *out);
aclError rt_ri_update_begin(struct rt_stream *s, const void *group);
aclError rt_ri_update_end(struct rt_stream *s);

/* Building (aclmdlRIBuildBegin): an instance of @dev with no stream; the
 * persistent streams bound to it record their jobs into it until
 * aclmdlRIEndTask or their unbinding; rt_ri_build_end ends it as
 * aclmdlRICaptureEnd ends a capture. */
aclError rt_ri_build_begin(struct rt_dev *dev, aclmdlRI *out);
aclError rt_ri_bind(struct rt_ri *ri, struct rt_stream *s, uint32_t flag);
aclError rt_ri_end_task(struct rt_ri *ri, struct rt_stream *s);
aclError rt_ri_unbind(struct rt_ri *ri, struct rt_stream *s);
aclError rt_ri_build_end(struct rt_ri *ri);
/* aclmdlRIAbort: a replay cannot be cut short; waits until it is done. */
aclError rt_ri_abort(struct rt_ri *ri);

/* The graph @handle names, referenced; NULL if none. */
struct rt_ri *rt_ri_lookup(const void *handle);
void rt_ri_put(struct rt_ri *ri);
/* The graph holding task handle @task, referenced, and the task's index. */
struct rt_ri *rt_ri_task_lookup(const void *task, uint32_t *index);

/* Replay on @s (NULL: the stream that began the capture); @sync waits until
 * @deadline. */
aclError rt_ri_execute(struct rt_ri *ri, struct rt_stream *s, bool sync, int64_t deadline);
aclError rt_ri_destroy(struct rt_ri *ri);
aclError rt_ri_add_destroy_callback(struct rt_ri *ri, void (*fn)(void *), void *arg);
uint32_t rt_ri_id(const struct rt_ri *ri);
aclError rt_ri_set_name(struct rt_ri *ri, const char *name);
aclError rt_ri_get_name(struct rt_ri *ri, uint32_t max, char *name);
aclError rt_ri_streams(struct rt_ri *ri, aclrtStream *streams, uint32_t *n);
aclError rt_ri_stream_tasks(struct rt_stream *s, aclmdlRITask *tasks, uint32_t *n);
aclError rt_ri_task_type(struct rt_ri *ri, uint32_t index, aclmdlRITaskType *type);
aclError rt_ri_task_seq(struct rt_ri *ri, uint32_t index, uint32_t *seq);
aclError rt_ri_task_get(struct rt_ri *ri, uint32_t index, aclmdlRITaskParams *p);
aclError rt_ri_task_set(struct rt_ri *ri, uint32_t index, const aclmdlRITaskParams *p);
aclError rt_ri_task_disable(struct rt_ri *ri, uint32_t index);
aclError rt_ri_update(struct rt_ri *ri);
/* The graph as JSON (docs/capture.md has the format) or as text. */
aclError rt_ri_print_json(struct rt_ri *ri, FILE *f, bool verbose);
aclError rt_ri_print(struct rt_ri *ri, FILE *f);

#endif /* VNPU_LIB_RT_RI_H */
