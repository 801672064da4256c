// SPDX-License-Identifier: MIT
/*
 * rt_ri.c - captured task graphs (aclmdlRI): capture, replay, update.
 *
 * Capture. aclmdlRICaptureBegin gives the stream a graph (s->cap); from
 * then on every job the stream would submit is appended to the graph: its
 * tasks, with their operator descriptors and operand lists copied into the
 * graph's data area (each job's data block 8-aligned, the tasks' offsets
 * made relative to the graph's area), in capture order over all the
 * graph's streams. A stream that waits for an event recorded in the
 * capture joins it (CANN's multi-stream capture): its jobs go into the same
 * graph from then on. Event records and waits become tasks of the graph (a
 * TIMESTAMP into the event's word; a NOP), so the graph's order keeps every
 * dependency the events expressed.
 *
 * Workspace. An operator captured with the runtime's workspace pool keeps
 * its block (rt_pool.c), one captured with a stream's registered allocator
 * keeps its allocator block: the graph owns them until it is destroyed,
 * when pool blocks go back to the capturing stream's cache and allocator
 * blocks to the allocator's free() (the allocator the block came from).
 *
 * Replay. The graph's tasks are laid out once (again after a change) into
 * jobs: as few as the kernel's per-SUBMIT limits allow (tasks, data bytes,
 * operands), in practice one. A replay submits them on the replay stream;
 * a replay on another stream than the previous replay waits for it with an
 * in-sync. Disabled tasks become NOPs. Events recorded in the graph are
 * then recorded at the replay's job.
 *
 * Forbidden calls (rt_ri_forbid, rt_ri_unsafe) mark the capture invalid:
 * later captured calls fail with ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED and
 * ending the capture destroys the graph and returns that code.
 *
 * Global state: the graphs still capturing and the graphs captured (for
 * the mode checks, event joins, task handles and aclmdlRIGetTasksByStream)
 * are two lists under g_ri_lock.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"
#include "rt_ri.h"

#define RI_MAX_STREAMS 64
#define RI_NAME_MAX 128

struct ri_task {
	struct drm_vnpu_task t;		/* OP offsets relative to ri->data */
	uint32_t blk_lo, blk_hi;	/* the data block of its job */
	uint32_t nops;			/* operands (OP tasks) */
	uint32_t seq;			/* capture order */
	uint16_t stream;		/* index in ri->streams */
	uint8_t type;			/* aclmdlRITaskType */
	bool disabled;
	struct rt_event *event;		/* EVENT_RECORD / EVENT_WAIT, referenced */
};

struct ri_block {
	struct rt_allocfns fns;
	void *block;
};

struct ri_cb {
	void (*fn)(void *);
	void *arg;
};

/* A task group (aclrtTaskGrp): the operator tasks one stream captured
 * between aclmdlRICaptureTaskGrpBegin and End, which an update may replace. */
struct ri_group {
	struct rt_ri *ri;		/* not referenced: the group dies with it */
	uint16_t stream;
	bool open;
	uint32_t first;			/* ri->ntasks at the group's begin */
	uint32_t *tasks;		/* indices into ri->tasks */
	uint32_t ntasks, tasks_cap;
};

/* One job of a replay: tasks [t0, t0 + nt), data [lo, hi) of ri->data. */
struct ri_job {
	uint32_t t0, nt, lo, hi;
};

struct rt_ri {
	struct rt_obj obj;
	struct rt_dev *dev;		/* referenced */
	uint32_t id;
	struct rt_list link;		/* g_active while capturing, then g_done */
	bool listed;

	pthread_mutex_t lock;		/* everything below */
	char name[RI_NAME_MAX];
	aclmdlRICaptureMode mode;
	pthread_t thread;		/* that began the capture */
	bool capturing, invalid;
	/* Built (aclmdlRIBuildBegin) rather than captured: its streams are
	 * the ones bound to it (bit i of @bound: streams[i] is bound), a
	 * bound stream's jobs are recorded until aclmdlRIEndTask (bit i of
	 * @ended) or its unbinding. */
	bool build;
	uint64_t bound, ended;
	struct rt_stream *streams[RI_MAX_STREAMS];	/* referenced; [0] began it */
	uint32_t nstreams;
	struct rt_event **cap_events;	/* recorded while capturing, referenced */
	uint32_t ncap_events, cap_events_cap;

	struct ri_task *tasks;
	uint32_t ntasks, tasks_cap;
	unsigned char *data;
	uint32_t data_len, data_cap;

	struct rt_wsblock **ws;		/* pool workspace, owner = capturing stream */
	uint32_t nws, ws_cap;
	struct ri_block *blocks;	/* allocator workspace */
	uint32_t nblocks, blocks_cap;
	struct ri_cb *cbs;
	uint32_t ncbs, cbs_cap;
	struct ri_group **groups;
	uint32_t ngroups, groups_cap;
	/* An update sink (aclmdlRICaptureTaskUpdateBegin): the group whose
	 * tasks this graph's tasks will replace; never registered. */
	struct ri_group *update_of;
	struct rt_ri *target;		/* update_of's graph, referenced */

	/* The replay layout (rebuilt when dirty). */
	bool dirty;
	struct drm_vnpu_task *jtasks;	/* ntasks, offsets relative to their job */
	unsigned char *jdata;		/* the jobs' data areas, back to back */
	struct ri_job *jobs;
	uint32_t njobs;
	/* The last replay's job, for the next replay elsewhere and destroy. */
	struct rt_stream *last_stream;	/* referenced */
	uint64_t last_point;
};

static pthread_mutex_t g_ri_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rt_list g_active = { &g_active, &g_active };
static struct rt_list g_done = { &g_done, &g_done };
static uint32_t g_next_id;		/* g_ri_lock */
static atomic_uint g_nactive;		/* captures running: the unsafe-call fast path */
static _Thread_local aclmdlRICaptureMode t_mode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;

/* Grow *@arr (of @size-byte elements, *@cap of them) to hold @need. */
static bool grow(void **arr, uint32_t *cap, uint64_t need, size_t size)
{
	uint64_t n = *cap ? *cap : 16;
	void *p;

	if (need <= *cap)
		return true;
	while (n < need)
		n *= 2;
	if (n > UINT32_MAX)
		return false;
	p = realloc(*arr, n * size);
	if (!p)
		return false;
	*arr = p;
	*cap = (uint32_t)n;
	return true;
}

static void ri_release(struct rt_obj *obj)
{
	struct rt_ri *ri = rt_container_of(obj, struct rt_ri, obj);
	struct rt_errsave saved;
	uint32_t i;

	rt_err_save(&saved);
	for (i = 0; i < ri->nblocks; i++)
		ri->blocks[i].fns.free(ri->blocks[i].fns.obj, ri->blocks[i].block);
	rt_err_restore(&saved);
	for (i = 0; i < ri->nws; i++) {
		struct rt_stream *s = ri->ws[i]->owner;

		/* Every replay using it is done (destroy waited): the
		 * capturing stream's later work bounds it. */
		rt_pool_ws_give(s, ri->ws[i], atomic_load(&s->last_point));
	}
	for (i = 0; i < ri->ntasks; i++)
		rt_event_put(ri->tasks[i].event);
	for (i = 0; i < ri->ncap_events; i++)
		rt_event_put(ri->cap_events[i]);
	for (i = 0; i < ri->nstreams; i++)
		rt_stream_put(ri->streams[i]);
	rt_stream_put(ri->last_stream);
	free(ri->tasks);
	free(ri->data);
	free(ri->ws);
	free(ri->blocks);
	free(ri->cbs);
	for (i = 0; i < ri->ngroups; i++) {
		free(ri->groups[i]->tasks);
		free(ri->groups[i]);
	}
	free(ri->groups);
	free(ri->jtasks);
	free(ri->jdata);
	free(ri->jobs);
	free(ri->cap_events);
	rt_ri_put(ri->target);
	pthread_mutex_destroy(&ri->lock);
	rt_dev_put(ri->dev);
	free(ri);
}

void rt_ri_put(struct rt_ri *ri)
{
	if (ri)
		rt_obj_put(&ri->obj);
}

struct rt_ri *rt_ri_lookup(const void *handle)
{
	struct rt_obj *obj = rt_handle_lookup(handle, RT_OBJ_RI);

	return obj ? rt_container_of(obj, struct rt_ri, obj) : NULL;
}

uint32_t rt_ri_id(const struct rt_ri *ri)
{
	return ri->id;
}

static int stream_index(const struct rt_ri *ri, const struct rt_stream *s)
{
	uint32_t i;

	for (i = 0; i < ri->nstreams; i++)
		if (ri->streams[i] == s)
			return (int)i;
	return -1;
}

/* Mark @ri invalid; ri->lock held. */
static void invalidate(struct rt_ri *ri)
{
	ri->invalid = true;
}

/* ---- capture ------------------------------------------------------------------ */

/* What a captured call gets once its capture is invalid; ri->lock held. */
static aclError invalid_err(const struct rt_ri *ri)
{
	return rt_err(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,
		      "the capture begun on stream %p was invalidated by an earlier call that cannot be captured",
		      (void *)ri->streams[0]);
}

static uint8_t task_type(const struct drm_vnpu_task *t)
{
	switch (t->kind) {
	case VNPU_TASK_OP:
		return ACL_MODEL_RI_TASK_KERNEL;
	case VNPU_TASK_WRITE_VALUE:
		return ACL_MODEL_RI_TASK_VALUE_WRITE;
	case VNPU_TASK_WAIT_VALUE:
		return ACL_MODEL_RI_TASK_VALUE_WAIT;
	default:
		return ACL_MODEL_RI_TASK_DEFAULT;
	}
}

static const char *type_name(uint8_t type)
{
	static const char *const names[] = { "DEFAULT", "KERNEL", "EVENT_RECORD", "EVENT_WAIT", "EVENT_RESET",
					     "VALUE_WRITE", "VALUE_WAIT" };

	return type < sizeof(names) / sizeof(names[0]) ? names[type] : "?";
}

/* The open task group of stream @stream of @ri, or NULL; ri->lock held. */
static struct ri_group *open_group(const struct rt_ri *ri, int stream)
{
	uint32_t i;

	for (i = 0; i < ri->ngroups; i++)
		if (ri->groups[i]->open && ri->groups[i]->stream == stream)
			return ri->groups[i];
	return NULL;
}

/* Append one job; ri->lock held. */
static aclError append(struct rt_ri *ri, int stream, const struct drm_vnpu_task *tasks, uint32_t ntasks,
		       const void *data, uint32_t data_size, uint8_t type, struct rt_event *ev)
{
	uint64_t lo = ((uint64_t)ri->data_len + 7) & ~(uint64_t)7;
	struct ri_group *g;
	uint32_t i;

	if (ri->invalid)
		return invalid_err(ri);
	g = open_group(ri, stream);
	for (i = 0; g && i < ntasks; i++)
		if (tasks[i].kind != VNPU_TASK_OP)
			return rt_err(ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT, "a task group holds operator calls only (this "
				      "call queues a %s task)", type_name(type ? type : task_type(&tasks[i])));
	if (g && !grow((void **)&g->tasks, &g->tasks_cap, (uint64_t)g->ntasks + ntasks, sizeof(*g->tasks))) {
		invalidate(ri);
		return rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory (the capture is invalidated)");
	}
	if (lo + data_size > UINT32_MAX || (uint64_t)ri->ntasks + ntasks > UINT32_MAX ||
	    !grow((void **)&ri->data, &ri->data_cap, lo + data_size, 1) ||
	    !grow((void **)&ri->tasks, &ri->tasks_cap, (uint64_t)ri->ntasks + ntasks, sizeof(*ri->tasks))) {
		invalidate(ri);
		return rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory recording a captured task "
			      "(the capture is invalidated)");
	}
	/* (No data yet may mean no buffer yet: nothing to touch then.) */
	if (lo > ri->data_len)
		memset(ri->data + ri->data_len, 0, lo - ri->data_len);
	if (data_size)
		memcpy(ri->data + lo, data, data_size);
	ri->data_len = (uint32_t)(lo + data_size);
	for (i = 0; i < ntasks; i++) {
		struct ri_task *t = &ri->tasks[ri->ntasks];

		memset(t, 0, sizeof(*t));
		t->t = tasks[i];
		if (t->t.kind == VNPU_TASK_OP) {
			t->t.op.desc_offset += (uint32_t)lo;
			t->t.op.operand_offset += (uint32_t)lo;
			t->nops = t->t.op.operand_count;
		}
		t->blk_lo = (uint32_t)lo;
		t->blk_hi = ri->data_len;
		t->seq = ri->ntasks;
		t->stream = (uint16_t)stream;
		t->type = type ? type : task_type(&t->t);
		if (ev) {
			rt_obj_get(&ev->obj);
			t->event = ev;
		}
		if (g)
			g->tasks[g->ntasks++] = ri->ntasks;
		ri->ntasks++;
	}
	ri->dirty = true;
	return ACL_SUCCESS;
}

aclError rt_ri_record_locked(struct rt_stream *s, const struct drm_vnpu_task *tasks, uint32_t ntasks,
			     const void *data, uint32_t data_size, uint32_t nin)
{
	struct rt_ri *ri = s->cap;
	aclError err;

	pthread_mutex_lock(&ri->lock);
	if (nin && !ri->invalid) {
		/* Only event waits carry in-syncs, and those are captured
		 * before they get here: a dependency on work outside. */
		invalidate(ri);
		err = rt_err(ACL_ERROR_RT_CAPTURE_DEPENDENCY, "stream %p is capturing: a job depending on work "
			     "outside the capture cannot be captured (the capture is invalidated)", (void *)s);
	} else {
		err = append(ri, stream_index(ri, s), tasks, ntasks, data, data_size, 0, NULL);
	}
	pthread_mutex_unlock(&ri->lock);
	return err;
}

aclError rt_ri_forbid(struct rt_stream *s, const char *what)
{
	aclError err = ACL_SUCCESS;

	pthread_mutex_lock(&s->submit_lock);
	if (s->cap) {
		pthread_mutex_lock(&s->cap->lock);
		invalidate(s->cap);
		pthread_mutex_unlock(&s->cap->lock);
		err = rt_err(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
			     "stream %p is capturing: %s cannot be captured (the capture is invalidated)", (void *)s,
			     what);
	}
	pthread_mutex_unlock(&s->submit_lock);
	return err;
}

/* Does capture @ri forbid unsafe calls to this thread (in mode t_mode)? */
static bool forbids(const struct rt_ri *ri)
{
	if (ri->mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL && t_mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL)
		return true;
	return ri->mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED && pthread_equal(ri->thread, pthread_self()) &&
	       t_mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
}

aclError rt_ri_unsafe(const char *what)
{
	struct rt_list *pos;
	bool hit = false;

	if (!atomic_load(&g_nactive))
		return ACL_SUCCESS;
	pthread_mutex_lock(&g_ri_lock);
	rt_list_for_each(pos, &g_active) {
		struct rt_ri *ri = rt_container_of(pos, struct rt_ri, link);

		pthread_mutex_lock(&ri->lock);
		if (forbids(ri)) {
			invalidate(ri);
			hit = true;
		}
		pthread_mutex_unlock(&ri->lock);
	}
	pthread_mutex_unlock(&g_ri_lock);
	if (hit)
		return rt_err(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
			      "%s is not allowed on this thread while a capture runs in a mode that forbids it (the "
			      "capture is invalidated; aclmdlRICaptureThreadExchangeMode can relax the thread)", what);
	return ACL_SUCCESS;
}

/* Hand @b (pool workspace) or @block (of @fns) to the graph @s captures into. */
static bool adopt(struct rt_stream *s, struct rt_wsblock *b, const struct rt_allocfns *fns, void *block)
{
	bool ok = false;

	pthread_mutex_lock(&s->submit_lock);
	if (s->cap) {
		struct rt_ri *ri = s->cap;

		pthread_mutex_lock(&ri->lock);
		if (b && grow((void **)&ri->ws, &ri->ws_cap, (uint64_t)ri->nws + 1, sizeof(*ri->ws))) {
			b->owner = s;
			ri->ws[ri->nws++] = b;
			ok = true;
		} else if (!b && grow((void **)&ri->blocks, &ri->blocks_cap, (uint64_t)ri->nblocks + 1,
				      sizeof(*ri->blocks))) {
			ri->blocks[ri->nblocks++] = (struct ri_block){ *fns, block };
			ok = true;
		} else {
			invalidate(ri);
		}
		pthread_mutex_unlock(&ri->lock);
	}
	pthread_mutex_unlock(&s->submit_lock);
	return ok;
}

bool rt_ri_adopt_ws(struct rt_stream *s, struct rt_wsblock *b)
{
	return adopt(s, b, NULL, NULL);
}

bool rt_ri_adopt_block(struct rt_stream *s, const struct rt_allocfns *fns, void *block)
{
	return adopt(s, NULL, fns, block);
}

static bool has_event(const struct rt_ri *ri, const struct rt_event *ev)
{
	uint32_t i;

	for (i = 0; i < ri->ncap_events; i++)
		if (ri->cap_events[i] == ev)
			return true;
	return false;
}

aclError rt_ri_event_record(struct rt_stream *s, struct rt_event *ev, bool *captured)
{
	struct drm_vnpu_task task;
	struct rt_ri *ri;
	aclError err = ACL_SUCCESS;

	*captured = false;
	if (!atomic_load(&g_nactive))
		return ACL_SUCCESS;
	pthread_mutex_lock(&s->submit_lock);
	ri = s->cap;
	if (ri) {
		*captured = true;
		memset(&task, 0, sizeof(task));
		task.kind = VNPU_TASK_TIMESTAMP;
		task.timestamp.addr = ev->ts.va;
		pthread_mutex_lock(&ri->lock);
		err = append(ri, stream_index(ri, s), &task, 1, NULL, 0, ACL_MODEL_RI_TASK_EVENT_RECORD, ev);
		if (!err && !has_event(ri, ev)) {
			if (grow((void **)&ri->cap_events, &ri->cap_events_cap, (uint64_t)ri->ncap_events + 1,
				 sizeof(*ri->cap_events))) {
				rt_obj_get(&ev->obj);
				ri->cap_events[ri->ncap_events++] = ev;
			} else {
				invalidate(ri);
				err = rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory (the capture is "
					     "invalidated)");
			}
		}
		pthread_mutex_unlock(&ri->lock);
	}
	pthread_mutex_unlock(&s->submit_lock);
	return err;
}

/* The capturing graph that recorded @ev, or NULL; g_ri_lock held. */
static struct rt_ri *recorder_of(const struct rt_event *ev)
{
	struct rt_list *pos;

	rt_list_for_each(pos, &g_active) {
		struct rt_ri *ri = rt_container_of(pos, struct rt_ri, link);
		bool found;

		pthread_mutex_lock(&ri->lock);
		found = has_event(ri, ev);
		pthread_mutex_unlock(&ri->lock);
		if (found)
			return ri;
	}
	return NULL;
}

/* Is the event's last record (outside any capture) done, or was it never
 * recorded? */
static bool event_settled(struct rt_event *ev)
{
	struct rt_stream *rs = NULL;
	uint64_t point = 0;
	bool done;

	pthread_mutex_lock(&ev->lock);
	if (ev->recorded) {
		rs = ev->rec_stream;
		point = ev->rec_point;
		rt_obj_get(&rs->obj);
	}
	pthread_mutex_unlock(&ev->lock);
	if (!rs)
		return true;
	done = rt_stream_point_done(rs, point);
	rt_stream_put(rs);
	return done;
}

aclError rt_ri_event_wait(struct rt_stream *s, struct rt_event *ev, bool *captured)
{
	struct drm_vnpu_task task;
	struct rt_ri *g, *h;
	aclError err = ACL_SUCCESS;

	*captured = false;
	if (!atomic_load(&g_nactive))
		return ACL_SUCCESS;
	memset(&task, 0, sizeof(task));
	task.kind = VNPU_TASK_NOP;
	pthread_mutex_lock(&g_ri_lock);
	h = recorder_of(ev);
	pthread_mutex_lock(&s->submit_lock);
	g = s->cap;
	if (!g && !h)
		goto out;
	*captured = true;
	if (!g) {
		/* Waiting for an event of a capture: the stream joins it. */
		pthread_mutex_lock(&h->lock);
		if (h->invalid) {
			err = invalid_err(h);
		} else if (h->nstreams == RI_MAX_STREAMS) {
			invalidate(h);
			err = rt_err(ACL_ERROR_RT_STREAM_CAPTURED, "a capture takes at most %d streams (the capture "
				     "is invalidated)", RI_MAX_STREAMS);
		} else {
			rt_obj_get(&s->obj);
			h->streams[h->nstreams++] = s;
			s->cap = h;
			err = append(h, stream_index(h, s), &task, 1, NULL, 0, ACL_MODEL_RI_TASK_EVENT_WAIT, ev);
		}
		pthread_mutex_unlock(&h->lock);
		goto out;
	}
	pthread_mutex_lock(&g->lock);
	if (h && h != g) {
		invalidate(g);
		err = rt_err(ACL_ERROR_RT_CAPTURE_DEPENDENCY, "stream %p is capturing: event %p was recorded in "
			     "another capture (the capture is invalidated)", (void *)s, (void *)ev);
	} else if (!h && !event_settled(ev)) {
		invalidate(g);
		err = rt_err(ACL_ERROR_RT_CAPTURE_DEPENDENCY, "stream %p is capturing: event %p was recorded outside "
			     "the capture and has not completed; a replay cannot wait for it (the capture is "
			     "invalidated)", (void *)s, (void *)ev);
	} else {
		/* Recorded in this capture (capture order keeps the
		 * dependency), or settled: a task that waits for nothing. */
		err = append(g, stream_index(g, s), &task, 1, NULL, 0, ACL_MODEL_RI_TASK_EVENT_WAIT, ev);
	}
	pthread_mutex_unlock(&g->lock);
out:
	pthread_mutex_unlock(&s->submit_lock);
	pthread_mutex_unlock(&g_ri_lock);
	return err;
}

/* Detach every stream of @ri from it and take it off the active list;
 * g_ri_lock held, no stream lock. */
static void end_capture(struct rt_ri *ri)
{
	uint32_t i, n;

	pthread_mutex_lock(&ri->lock);
	n = ri->nstreams;
	pthread_mutex_unlock(&ri->lock);
	for (i = 0; i < n; i++) {
		struct rt_stream *s = ri->streams[i];

		pthread_mutex_lock(&s->submit_lock);
		if (s->cap == ri)
			s->cap = NULL;
		pthread_mutex_unlock(&s->submit_lock);
	}
	pthread_mutex_lock(&ri->lock);
	ri->capturing = false;
	for (i = 0; i < ri->ncap_events; i++)
		rt_event_put(ri->cap_events[i]);
	ri->ncap_events = 0;
	pthread_mutex_unlock(&ri->lock);
	rt_list_del(&ri->link);
	ri->listed = false;
	atomic_fetch_sub(&g_nactive, 1);
}

void rt_ri_stream_gone(struct rt_stream *s)
{
	struct rt_ri *ri;
	bool origin = false;

	pthread_mutex_lock(&g_ri_lock);
	pthread_mutex_lock(&s->submit_lock);
	ri = s->cap;
	if (ri) {
		pthread_mutex_lock(&ri->lock);
		if (ri->build) {
			/* A bound stream's tasks so far stay in the graph. */
			ri->bound &= ~(1ULL << stream_index(ri, s));
		} else {
			invalidate(ri);
			origin = ri->streams[0] == s;
		}
		pthread_mutex_unlock(&ri->lock);
		s->cap = NULL;
	}
	pthread_mutex_unlock(&s->submit_lock);
	if (origin) {
		/* No one can end it now: end it, and the graph goes (outside
		 * the lock: its release may call an allocator's free()). */
		end_capture(ri);
		rt_obj_get(&ri->obj);
	}
	pthread_mutex_unlock(&g_ri_lock);
	if (origin) {
		/* An update sink is not registered: its creator's reference
		 * is the one to drop. */
		if (!rt_handle_remove(&ri->obj))
			rt_ri_put(ri);
		rt_ri_put(ri);
	}
}

/* A graph capturing @s (begun by this thread), one reference, not yet
 * registered nor attached; NULL when out of memory. */
static struct rt_ri *ri_new_on(struct rt_dev *dev, struct rt_stream *s, aclmdlRICaptureMode mode)
{
	struct rt_ri *ri = calloc(1, sizeof(*ri));

	if (!ri)
		return NULL;
	rt_obj_init(&ri->obj, RT_OBJ_RI, ri_release);
	rt_dev_get(dev);
	ri->dev = dev;
	pthread_mutex_init(&ri->lock, NULL);
	ri->mode = mode;
	ri->thread = pthread_self();
	ri->capturing = true;
	if (s) {
		rt_obj_get(&s->obj);
		ri->streams[0] = s;
		ri->nstreams = 1;
	}
	rt_list_init(&ri->link);
	return ri;
}

static struct rt_ri *ri_new(struct rt_stream *s, aclmdlRICaptureMode mode)
{
	return ri_new_on(s->dev, s, mode);
}

aclError rt_ri_capture_begin(struct rt_stream *s, aclmdlRICaptureMode mode)
{
	struct rt_ri *ri;
	aclError err = ACL_SUCCESS;

	if ((unsigned int)mode > ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
		return rt_err(ACL_ERROR_INVALID_PARAM, "mode %d is not an aclmdlRICaptureMode", (int)mode);
	ri = ri_new(s, mode);
	if (!ri)
		return rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory");

	pthread_mutex_lock(&g_ri_lock);
	pthread_mutex_lock(&s->submit_lock);
	if (s->cap)
		err = rt_err(ACL_ERROR_RT_STREAM_CAPTURED, "stream %p is already capturing", (void *)s);
	else if (s->kernel_destroyed)
		err = rt_err(ACL_ERROR_INVALID_PARAM, "stream %p has been destroyed", (void *)s);
	else if (rt_handle_add(&ri->obj))
		err = rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory");
	if (!err) {
		ri->id = ++g_next_id;
		s->cap = ri;
		rt_list_add_tail(&g_active, &ri->link);
		ri->listed = true;
		atomic_fetch_add(&g_nactive, 1);
	}
	pthread_mutex_unlock(&s->submit_lock);
	pthread_mutex_unlock(&g_ri_lock);
	rt_ri_put(ri);		/* the registry's reference keeps it */
	return err;
}

/*
 * The dependencies between @ri's tasks (ri->lock held): *@prev[i] is the
 * previous task of task i's stream, *@src[i] for an event wait the latest
 * record of its event before it when that is on another stream (RI_NONE:
 * none). Both malloc'ed, ntasks entries; false when out of memory.
 */
#define RI_NONE UINT32_MAX

static bool deps(const struct rt_ri *ri, uint32_t **prev, uint32_t **src)
{
	struct ev_rec {
		const struct rt_event *ev;
		uint32_t task;
	} *recs;
	uint32_t last[RI_MAX_STREAMS], i, k, nrecs = 0;
	size_t n = ri->ntasks ? ri->ntasks : 1;

	*prev = malloc(n * sizeof(**prev));
	*src = malloc(n * sizeof(**src));
	recs = malloc(n * sizeof(*recs));
	if (!*prev || !*src || !recs) {
		free(*prev);
		free(*src);
		free(recs);
		return false;
	}
	for (k = 0; k < RI_MAX_STREAMS; k++)
		last[k] = RI_NONE;
	for (i = 0; i < ri->ntasks; i++) {
		const struct ri_task *t = &ri->tasks[i];

		(*prev)[i] = last[t->stream];
		last[t->stream] = i;
		(*src)[i] = RI_NONE;
		if (t->type != ACL_MODEL_RI_TASK_EVENT_RECORD && t->type != ACL_MODEL_RI_TASK_EVENT_WAIT)
			continue;
		for (k = 0; k < nrecs && recs[k].ev != t->event; k++)
			;
		if (t->type == ACL_MODEL_RI_TASK_EVENT_RECORD) {
			if (k == nrecs)
				recs[nrecs++].ev = t->event;
			recs[k].task = i;
		} else if (k < nrecs && ri->tasks[recs[k].task].stream != t->stream) {
			(*src)[i] = recs[k].task;
		}
	}
	free(recs);
	return true;
}

/*
 * Did every stream that joined @ri join back the one that began it: does
 * the last task of each lead, through stream order and events, to a task
 * of the beginning stream? ri->lock held.
 */
static aclError check_joined(const struct rt_ri *ri)
{
	uint32_t *prev, *src, *next = NULL, last[RI_MAX_STREAMS], i, k;
	bool *reach = NULL, *pend = NULL, ok = true;

	if (ri->nstreams == 1)
		return ACL_SUCCESS;
	if (!deps(ri, &prev, &src))
		return rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory");
	next = malloc(ri->ntasks * sizeof(*next));
	reach = calloc(ri->ntasks, sizeof(*reach));
	pend = calloc(ri->ntasks, sizeof(*pend));
	if (!next || !reach || !pend) {
		ok = false;
		goto out;
	}
	for (i = 0; i < ri->ntasks; i++)
		next[i] = RI_NONE;
	for (k = 0; k < RI_MAX_STREAMS; k++)
		last[k] = RI_NONE;
	for (i = 0; i < ri->ntasks; i++) {
		if (prev[i] != RI_NONE)
			next[prev[i]] = i;
		last[ri->tasks[i].stream] = i;
	}
	/* Edges go forward: decide from the end. */
	for (i = ri->ntasks; i-- > 0;) {
		reach[i] = ri->tasks[i].stream == 0 || pend[i] || (next[i] != RI_NONE && reach[next[i]]);
		if (src[i] != RI_NONE && reach[i])
			pend[src[i]] = true;
	}
	for (k = 1; k < ri->nstreams; k++)
		if (last[k] != RI_NONE && !reach[last[k]])
			break;
out:
	free(prev);
	free(src);
	free(next);
	free(reach);
	free(pend);
	if (!ok)
		return rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory");
	if (k < ri->nstreams)
		return rt_err(ACL_ERROR_RT_STREAM_UNJOINED, "stream %p joined the capture but its last task was not "
			      "joined back into stream %p (record an event on it and wait for it there); the capture "
			      "is ended and its instance destroyed", (void *)ri->streams[k], (void *)ri->streams[0]);
	return ACL_SUCCESS;
}

/*
 * End @ri's capture or build (g_ri_lock held; unlocked on return): detach
 * its streams and list it as done, or, when it was invalidated or (a
 * capture) not joined back, destroy it and say why. @what names it for the
 * message (the capturing stream, or the instance built).
 */
static aclError close_capture(struct rt_ri *ri, const void *what)
{
	const char *kind = ri->build ? "build of instance" : "capture of stream";
	aclError err;
	bool invalid;

	end_capture(ri);
	pthread_mutex_lock(&ri->lock);
	invalid = ri->invalid;
	err = invalid || ri->build ? ACL_SUCCESS : check_joined(ri);
	pthread_mutex_unlock(&ri->lock);
	if (invalid || err) {
		/* Released outside the lock (an allocator's free() may run). */
		rt_obj_get(&ri->obj);
		pthread_mutex_unlock(&g_ri_lock);
		rt_handle_remove(&ri->obj);
		rt_ri_put(ri);
		if (err)
			return err;
		return rt_err(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,
			      "the %s %p was invalidated by a call that cannot be captured; its model runtime "
			      "instance is destroyed", kind, what);
	}
	rt_list_add_tail(&g_done, &ri->link);
	ri->listed = true;
	pthread_mutex_unlock(&g_ri_lock);
	return ACL_SUCCESS;
}

aclError rt_ri_capture_end(struct rt_stream *s, aclmdlRI *out)
{
	struct rt_ri *ri;
	aclError err = ACL_SUCCESS;

	*out = NULL;
	pthread_mutex_lock(&g_ri_lock);
	pthread_mutex_lock(&s->submit_lock);
	ri = s->cap;
	if (!ri)
		err = rt_err(ACL_ERROR_RT_STREAM_NOT_CAPTURED, "stream %p is not capturing", (void *)s);
	else if (ri->update_of)
		err = rt_err(ACL_ERROR_RT_STREAM_NOT_CAPTURED, "stream %p is updating a task group, not capturing "
			     "(end it with aclmdlRICaptureTaskUpdateEnd)", (void *)s);
	else if (ri->build)
		err = rt_err(ACL_ERROR_RT_STREAM_NOT_CAPTURED, "stream %p is bound to a model runtime instance being "
			     "built, not capturing (end the build with aclmdlRIBuildEnd)", (void *)s);
	else if (ri->streams[0] != s)
		err = rt_err(ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED, "stream %p only joined a capture; end it on the "
			     "stream that began it (%p)", (void *)s, (void *)ri->streams[0]);
	else if (ri->mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED && !pthread_equal(ri->thread, pthread_self()))
		err = rt_err(ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD, "the capture of stream %p was begun on "
			     "another thread (only RELAXED captures may end elsewhere)", (void *)s);
	pthread_mutex_unlock(&s->submit_lock);
	if (err) {
		pthread_mutex_unlock(&g_ri_lock);
		return err;
	}
	err = close_capture(ri, (void *)s);
	if (!err)
		*out = ri;
	return err;
}

/* ---- building (aclmdlRIBuildBegin) ---------------------------------------------------- */

aclError rt_ri_build_begin(struct rt_dev *dev, aclmdlRI *out)
{
	struct rt_ri *ri = ri_new_on(dev, NULL, ACL_MODEL_RI_CAPTURE_MODE_RELAXED);
	aclError err = ACL_SUCCESS;

	*out = NULL;
	if (!ri)
		return rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory");
	ri->build = true;
	pthread_mutex_lock(&g_ri_lock);
	if (rt_handle_add(&ri->obj)) {
		err = rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory");
	} else {
		ri->id = ++g_next_id;
		rt_list_add_tail(&g_active, &ri->link);
		ri->listed = true;
		atomic_fetch_add(&g_nactive, 1);
		*out = ri;
	}
	pthread_mutex_unlock(&g_ri_lock);
	rt_ri_put(ri);		/* the registry's reference keeps it */
	return err;
}

/* Is @ri an instance being built? ri->lock held; else the error. */
static aclError building(const struct rt_ri *ri)
{
	if (!ri->build)
		return rt_err(ACL_ERROR_INVALID_PARAM, "model runtime instance %u was captured, not built with "
			      "aclmdlRIBuildBegin", ri->id);
	if (!ri->capturing)
		return rt_err(ACL_ERROR_INVALID_PARAM, "the build of model runtime instance %u has ended "
			      "(aclmdlRIBuildEnd)", ri->id);
	return ACL_SUCCESS;
}

/* The built instance @s is bound to, if any; g_ri_lock held. */
static struct rt_ri *bound_to(const struct rt_stream *s)
{
	struct rt_list *lists[] = { &g_active, &g_done }, *pos;
	size_t k;

	for (k = 0; k < 2; k++)
		rt_list_for_each(pos, lists[k]) {
			struct rt_ri *ri = rt_container_of(pos, struct rt_ri, link);
			bool hit;
			int i;

			pthread_mutex_lock(&ri->lock);
			i = ri->build ? stream_index(ri, s) : -1;
			hit = i >= 0 && (ri->bound & (1ULL << i));
			pthread_mutex_unlock(&ri->lock);
			if (hit)
				return ri;
		}
	return NULL;
}

aclError rt_ri_bind(struct rt_ri *ri, struct rt_stream *s, uint32_t flag)
{
	aclError err = ACL_SUCCESS;
	struct rt_ri *other;
	int i;

	if (flag != ACL_MODEL_STREAM_FLAG_HEAD && flag != ACL_MODEL_STREAM_FLAG_DEFAULT)
		return rt_err(ACL_ERROR_INVALID_PARAM, "flag 0x%x is neither ACL_MODEL_STREAM_FLAG_HEAD nor "
			      "ACL_MODEL_STREAM_FLAG_DEFAULT", flag);
	if (!(s->flags & ACL_STREAM_PERSISTENT))
		return rt_err(ACL_ERROR_INVALID_PARAM, "stream %p is not persistent (create it with "
			      "aclrtCreateStreamWithConfig and ACL_STREAM_PERSISTENT)", (void *)s);
	if (s->dev != ri->dev)
		return rt_err(ACL_ERROR_INVALID_PARAM, "stream %p is of device %u, model runtime instance %u of "
			      "device %u", (void *)s, s->dev->index, ri->id, ri->dev->index);
	pthread_mutex_lock(&g_ri_lock);
	other = bound_to(s);
	pthread_mutex_lock(&s->submit_lock);
	pthread_mutex_lock(&ri->lock);
	err = building(ri);
	if (err)
		goto out;
	if (other) {
		err = rt_err(ACL_ERROR_INVALID_PARAM, "stream %p is already bound to model runtime instance %u "
			     "(a stream binds to one instance)", (void *)s, other->id);
		goto out;
	}
	if (s->cap) {
		err = rt_err(ACL_ERROR_RT_STREAM_CAPTURED, "stream %p is capturing", (void *)s);
		goto out;
	}
	i = stream_index(ri, s);
	if (i < 0) {
		if (ri->nstreams == RI_MAX_STREAMS) {
			err = rt_err(ACL_ERROR_INVALID_PARAM, "model runtime instance %u has %d streams, the "
				     "most vnpu supports", ri->id, RI_MAX_STREAMS);
			goto out;
		}
		rt_obj_get(&s->obj);
		i = (int)ri->nstreams++;
		ri->streams[i] = s;
	}
	ri->bound |= 1ULL << i;
	ri->ended &= ~(1ULL << i);
	s->cap = ri;
out:
	pthread_mutex_unlock(&ri->lock);
	pthread_mutex_unlock(&s->submit_lock);
	pthread_mutex_unlock(&g_ri_lock);
	return err;
}

/* Stop recording @s into @ri (aclmdlRIEndTask, @unbind false) or unbind it. */
static aclError release_stream(struct rt_ri *ri, struct rt_stream *s, bool unbind)
{
	aclError err = ACL_SUCCESS;
	int i;

	pthread_mutex_lock(&s->submit_lock);
	pthread_mutex_lock(&ri->lock);
	i = stream_index(ri, s);
	if (!ri->build)
		err = building(ri);
	else if (!unbind && !ri->capturing)
		err = building(ri);
	else if (i < 0 || !(ri->bound & (1ULL << i)))
		err = rt_err(ACL_ERROR_INVALID_PARAM, "stream %p is not bound to model runtime instance %u",
			     (void *)s, ri->id);
	else if (!unbind && (ri->ended & (1ULL << i)))
		err = rt_err(ACL_ERROR_INVALID_PARAM, "stream %p already ended its tasks of model runtime instance "
			     "%u", (void *)s, ri->id);
	if (!err) {
		if (unbind)
			ri->bound &= ~(1ULL << i);
		else
			ri->ended |= 1ULL << i;
		if (s->cap == ri)
			s->cap = NULL;
	}
	pthread_mutex_unlock(&ri->lock);
	pthread_mutex_unlock(&s->submit_lock);
	return err;
}

aclError rt_ri_end_task(struct rt_ri *ri, struct rt_stream *s)
{
	return release_stream(ri, s, false);
}

aclError rt_ri_unbind(struct rt_ri *ri, struct rt_stream *s)
{
	return release_stream(ri, s, true);
}

aclError rt_ri_build_end(struct rt_ri *ri)
{
	aclError err;

	pthread_mutex_lock(&g_ri_lock);
	pthread_mutex_lock(&ri->lock);
	err = building(ri);
	pthread_mutex_unlock(&ri->lock);
	if (err) {
		pthread_mutex_unlock(&g_ri_lock);
		return err;
	}
	return close_capture(ri, ri);
}

aclError rt_ri_capture_info(struct rt_stream *s, aclmdlRICaptureStatus *status, aclmdlRI *out)
{
	aclmdlRICaptureStatus st = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
	struct rt_ri *ri;

	pthread_mutex_lock(&s->submit_lock);
	ri = s->cap;
	if (ri) {
		pthread_mutex_lock(&ri->lock);
		st = ri->invalid ? ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED : ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
		pthread_mutex_unlock(&ri->lock);
	}
	pthread_mutex_unlock(&s->submit_lock);
	if (status)
		*status = st;
	if (out)
		*out = ri;
	return ACL_SUCCESS;
}

aclmdlRICaptureMode rt_ri_exchange_mode(aclmdlRICaptureMode mode)
{
	aclmdlRICaptureMode old = t_mode;

	t_mode = mode;
	return old;
}

/* ---- task groups and their updates --------------------------------------------- */

aclError rt_ri_group_begin(struct rt_stream *s)
{
	struct ri_group *g = NULL;
	struct rt_ri *ri;
	aclError err = ACL_SUCCESS;
	int idx;

	pthread_mutex_lock(&s->submit_lock);
	ri = s->cap;
	if (!ri || ri->update_of) {
		err = rt_err(ACL_ERROR_RT_STREAM_NOT_CAPTURED, "stream %p is not capturing", (void *)s);
		goto out;
	}
	pthread_mutex_lock(&ri->lock);
	idx = stream_index(ri, s);
	if (ri->invalid)
		err = invalid_err(ri);
	else if (open_group(ri, idx))
		err = rt_err(ACL_ERROR_STREAM_TASK_GROUP_STATUS, "stream %p already has a task group open", (void *)s);
	else if (!grow((void **)&ri->groups, &ri->groups_cap, (uint64_t)ri->ngroups + 1, sizeof(*ri->groups)) ||
		 !(g = calloc(1, sizeof(*g))))
		err = rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory");
	if (!err) {
		*g = (struct ri_group){ .ri = ri, .stream = (uint16_t)idx, .open = true, .first = ri->ntasks };
		ri->groups[ri->ngroups++] = g;
	}
	pthread_mutex_unlock(&ri->lock);
out:
	pthread_mutex_unlock(&s->submit_lock);
	return err;
}

aclError rt_ri_group_end(struct rt_stream *s, aclrtTaskGrp *out)
{
	struct ri_group *g = NULL;
	struct rt_ri *ri;
	aclError err = ACL_SUCCESS;

	pthread_mutex_lock(&s->submit_lock);
	ri = s->cap;
	if (!ri || ri->update_of) {
		err = rt_err(ACL_ERROR_RT_STREAM_NOT_CAPTURED, "stream %p is not capturing", (void *)s);
	} else {
		pthread_mutex_lock(&ri->lock);
		g = open_group(ri, stream_index(ri, s));
		if (!g)
			err = rt_err(ACL_ERROR_STREAM_TASK_GROUP_STATUS, "stream %p has no task group open "
				     "(aclmdlRICaptureTaskGrpBegin)", (void *)s);
		else
			g->open = false;
		pthread_mutex_unlock(&ri->lock);
	}
	pthread_mutex_unlock(&s->submit_lock);
	if (!err)
		*out = g;
	return err;
}

/* The group @handle names in a captured graph; g_ri_lock held. */
static struct ri_group *group_lookup(const void *handle)
{
	struct rt_list *pos;
	uint32_t i;

	rt_list_for_each(pos, &g_done) {
		struct rt_ri *ri = rt_container_of(pos, struct rt_ri, link);

		for (i = 0; i < ri->ngroups; i++)
			if (ri->groups[i] == handle)
				return ri->groups[i];
	}
	return NULL;
}

aclError rt_ri_update_begin(struct rt_stream *s, const void *handle)
{
	struct ri_group *g;
	struct rt_ri *sink;
	aclError err = ACL_SUCCESS;

	sink = ri_new(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED);
	if (!sink)
		return rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory");

	pthread_mutex_lock(&g_ri_lock);
	g = group_lookup(handle);
	pthread_mutex_lock(&s->submit_lock);
	if (!g)
		err = rt_err(ACL_ERROR_INVALID_PARAM, "%p is not a task group of a captured model runtime instance",
			     handle);
	else if (s->cap)
		err = rt_err(ACL_ERROR_RT_STREAM_CAPTURED, "stream %p is capturing; a task update needs a stream "
			     "that is not", (void *)s);
	else if (g->ri->dev != s->dev)
		err = rt_err(ACL_ERROR_INVALID_PARAM, "the task group is of device %u, stream %p of device %u",
			     g->ri->dev->index, (void *)s, s->dev->index);
	if (!err) {
		sink->update_of = g;
		rt_obj_get(&g->ri->obj);
		sink->target = g->ri;
		s->cap = sink;
		atomic_fetch_add(&g_nactive, 1);
	}
	pthread_mutex_unlock(&s->submit_lock);
	pthread_mutex_unlock(&g_ri_lock);
	if (err)
		rt_ri_put(sink);
	return err;
}

/* Put the sink's tasks in place of the group's; both locks held. */
static aclError apply_update(struct rt_ri *ri, struct ri_group *g, struct rt_ri *sink)
{
	uint64_t need = ri->data_len;
	uint32_t k;

	if (sink->invalid)
		return rt_err(ACL_ERROR_RT_MODEL_UPDATE_FAILED, "the task update was invalidated by a call that "
			      "cannot be captured");
	if (sink->ntasks != g->ntasks)
		return rt_err(ACL_ERROR_RT_MODEL_UPDATE_FAILED, "the update queued %u tasks; the task group holds %u",
			      sink->ntasks, g->ntasks);
	for (k = 0; k < g->ntasks; k++) {
		const struct ri_task *src = &sink->tasks[k], *dst = &ri->tasks[g->tasks[k]];

		if (src->t.kind != dst->t.kind || src->type != dst->type)
			return rt_err(ACL_ERROR_RT_MODEL_UPDATE_FAILED, "task %u of the update is a %s task; the "
				      "group's is a %s task", k, type_name(src->type), type_name(dst->type));
		need = ((need + 7) & ~7ull) + (src->blk_hi - src->blk_lo);
	}
	if (need > UINT32_MAX || !grow((void **)&ri->data, &ri->data_cap, need, 1) ||
	    !grow((void **)&ri->ws, &ri->ws_cap, (uint64_t)ri->nws + sink->nws, sizeof(*ri->ws)) ||
	    !grow((void **)&ri->blocks, &ri->blocks_cap, (uint64_t)ri->nblocks + sink->nblocks, sizeof(*ri->blocks)))
		return rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory applying a task update");
	for (k = 0; k < g->ntasks; k++) {
		struct ri_task *src = &sink->tasks[k], *dst = &ri->tasks[g->tasks[k]];
		uint32_t lo = (ri->data_len + 7) & ~7u, size = src->blk_hi - src->blk_lo;

		if (lo > ri->data_len)
			memset(ri->data + ri->data_len, 0, lo - ri->data_len);
		if (size)
			memcpy(ri->data + lo, sink->data + src->blk_lo, size);
		ri->data_len = lo + size;
		dst->t = src->t;
		if (dst->t.kind == VNPU_TASK_OP) {
			dst->t.op.desc_offset = src->t.op.desc_offset - src->blk_lo + lo;
			dst->t.op.operand_offset = src->t.op.operand_offset - src->blk_lo + lo;
		}
		dst->blk_lo = lo;
		dst->blk_hi = lo + size;
		dst->nops = src->nops;
	}
	/* The new operators' workspace is the graph's now (the old stays
	 * until it is destroyed: a replay in flight may use it). */
	if (sink->nws)
		memcpy(ri->ws + ri->nws, sink->ws, sink->nws * sizeof(*ri->ws));
	ri->nws += sink->nws;
	sink->nws = 0;
	if (sink->nblocks)
		memcpy(ri->blocks + ri->nblocks, sink->blocks, sink->nblocks * sizeof(*ri->blocks));
	ri->nblocks += sink->nblocks;
	sink->nblocks = 0;
	ri->dirty = true;
	return ACL_SUCCESS;
}

aclError rt_ri_update_end(struct rt_stream *s)
{
	struct rt_ri *sink;
	aclError err = ACL_SUCCESS;

	pthread_mutex_lock(&g_ri_lock);
	pthread_mutex_lock(&s->submit_lock);
	sink = s->cap;
	if (!sink || !sink->update_of) {
		err = rt_err(ACL_ERROR_RT_STREAM_NOT_CAPTURED, "stream %p is not updating a task group "
			     "(aclmdlRICaptureTaskUpdateBegin)", (void *)s);
		sink = NULL;
	} else {
		s->cap = NULL;
		atomic_fetch_sub(&g_nactive, 1);
	}
	pthread_mutex_unlock(&s->submit_lock);
	pthread_mutex_unlock(&g_ri_lock);
	if (!sink)
		return err;
	pthread_mutex_lock(&sink->target->lock);
	pthread_mutex_lock(&sink->lock);
	err = apply_update(sink->target, sink->update_of, sink);
	pthread_mutex_unlock(&sink->lock);
	pthread_mutex_unlock(&sink->target->lock);
	/* A failed update's operators give their workspace back. */
	rt_ri_put(sink);
	return err;
}

/* ---- replay --------------------------------------------------------------------- */

/*
 * Lay the tasks out into jobs within the kernel's limits, with a data area
 * of their own: each task's block copied in task order (once for tasks of
 * one job that share it), so what a replay sends is compact whatever
 * updates did to ri->data. ri->lock held.
 */
static aclError layout(struct rt_ri *ri)
{
	uint64_t cap = (uint64_t)ri->data_len + 8ull * ri->ntasks + 8;
	uint32_t i, nj = 0, pos = 0, cur = 0, blk_lo = 0, blk_hi = 0;
	struct drm_vnpu_task *jt;
	struct ri_job *jobs, *j = NULL;
	unsigned char *jd;
	bool have = false;
	uint64_t ops = 0;

	jt = malloc((ri->ntasks ? ri->ntasks : 1) * sizeof(*jt));
	jobs = malloc((ri->ntasks ? ri->ntasks : 1) * sizeof(*jobs));
	jd = cap <= UINT32_MAX ? calloc(1, cap) : NULL;
	if (!jt || !jobs || !jd) {
		free(jt);
		free(jobs);
		free(jd);
		return rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory laying out a replay");
	}
	for (i = 0; i < ri->ntasks; i++) {
		const struct ri_task *t = &ri->tasks[i];
		uint32_t nops = t->disabled ? 0 : t->nops, size = t->blk_hi - t->blk_lo;
		uint32_t start = (pos + 7) & ~7u;
		bool fresh = !have || t->blk_lo != blk_lo || t->blk_hi != blk_hi;

		if (!j || j->nt == VNPU_MAX_TASKS_PER_SUBMIT || (fresh && start + size - j->lo > VNPU_MAX_SUBMIT_DATA) ||
		    ops + nops > VNPU_MAX_SUBMIT_OPERANDS) {
			j = &jobs[nj++];
			*j = (struct ri_job){ .t0 = i, .nt = 0, .lo = start, .hi = start };
			ops = 0;
			fresh = true;	/* each job's area holds all its blocks */
		}
		if (fresh) {
			if (size)
				memcpy(jd + start, ri->data + t->blk_lo, size);
			cur = start;
			pos = start + size;
			blk_lo = t->blk_lo;
			blk_hi = t->blk_hi;
			have = true;
			j->hi = pos;
		}
		jt[i] = t->t;
		if (t->disabled) {
			memset(&jt[i], 0, sizeof(jt[i]));
			jt[i].kind = VNPU_TASK_NOP;
		} else if (t->t.kind == VNPU_TASK_OP) {
			jt[i].op.desc_offset = t->t.op.desc_offset - t->blk_lo + cur - j->lo;
			jt[i].op.operand_offset = t->t.op.operand_offset - t->blk_lo + cur - j->lo;
		}
		j->nt++;
		ops += nops;
	}
	free(ri->jtasks);
	free(ri->jdata);
	free(ri->jobs);
	ri->jtasks = jt;
	ri->jdata = jd;
	ri->jobs = jobs;
	ri->njobs = nj;
	ri->dirty = false;
	return ACL_SUCCESS;
}

aclError rt_ri_execute(struct rt_ri *ri, struct rt_stream *s, bool sync, int64_t deadline)
{
	struct drm_vnpu_sync in;
	uint64_t point = 0;
	aclError err;
	uint32_t i, nin = 0;
	int pool, kerr;

	if (s && s->dev != ri->dev)
		return rt_err(ACL_ERROR_INVALID_PARAM, "model runtime instance %u was captured on device %u; the "
			      "stream is of device %u", ri->id, ri->dev->index, s->dev->index);
	pthread_mutex_lock(&ri->lock);
	if (ri->capturing) {
		pthread_mutex_unlock(&ri->lock);
		return rt_err(ACL_ERROR_RT_MODEL_CAPTURED, "model runtime instance %u is still being captured "
			      "(call aclmdlRICaptureEnd first)", ri->id);
	}
	if (!s && !ri->nstreams) {
		/* Built with no stream bound: nothing to run. */
		pthread_mutex_unlock(&ri->lock);
		return ACL_SUCCESS;
	}
	if (!s)
		s = ri->streams[0];
	pthread_mutex_unlock(&ri->lock);
	/* A replay onto a capturing stream would be a graph in a graph. */
	err = rt_ri_forbid(s, "replaying a model runtime instance");
	if (err)
		return err;

	pthread_mutex_lock(&ri->lock);
	err = ri->dirty || !ri->jobs ? layout(ri) : ACL_SUCCESS;
	if (!err && ri->last_stream && ri->last_stream != s &&
	    !rt_stream_point_done(ri->last_stream, ri->last_point)) {
		in = (struct drm_vnpu_sync){ .handle = ri->last_stream->syncobj, .point = ri->last_point };
		nin = 1;
	}
	pool = ri->nws || ri->nblocks ? 0 : -1;
	for (i = 0; !err && i < ri->njobs; i++) {
		const struct ri_job *j = &ri->jobs[i];

		err = rt_stream_submit_ops(s, ri->jtasks + j->t0, j->nt, j->hi > j->lo ? ri->jdata + j->lo : NULL,
					   j->hi - j->lo, nin ? &in : NULL, nin, pool, &point, &kerr);
		if (err && kerr == -ENXIO)
			err = rt_err(ACL_ERROR_INVALID_PARAM, "model runtime instance %u on stream %p: a captured "
				     "operand or workspace is no longer live device memory (freed after the "
				     "capture?)", ri->id, (void *)s);
		nin = 0;
	}
	if (point) {
		if (ri->last_stream != s) {
			rt_stream_put(ri->last_stream);
			rt_obj_get(&s->obj);
			ri->last_stream = s;
		}
		ri->last_point = point;
		/* The events recorded in the graph are recorded by this replay
		 * (at its last job: conservative when there are several). */
		for (i = 0; i < ri->ntasks; i++) {
			struct ri_task *t = &ri->tasks[i];
			struct rt_stream *old;

			if (t->type != ACL_MODEL_RI_TASK_EVENT_RECORD || t->disabled)
				continue;
			rt_obj_get(&s->obj);
			pthread_mutex_lock(&t->event->lock);
			old = t->event->rec_stream;
			t->event->rec_stream = s;
			t->event->rec_point = point;
			t->event->recorded = true;
			pthread_mutex_unlock(&t->event->lock);
			rt_stream_put(old);
		}
	}
	pthread_mutex_unlock(&ri->lock);
	if (!err && sync && point)
		err = rt_stream_wait_point(s, point, deadline);
	return err;
}

/* Wait until @ri's last replay is done (a failed replay is not the
 * caller's failure). */
static void wait_replays(struct rt_ri *ri)
{
	struct rt_stream *last;
	uint64_t point;

	pthread_mutex_lock(&ri->lock);
	last = ri->last_stream;
	point = ri->last_point;
	if (last)
		rt_obj_get(&last->obj);
	pthread_mutex_unlock(&ri->lock);
	if (last) {
		bool quiet = rt_err_quiet(true);

		(void)rt_stream_wait_point(last, point, RT_FOREVER);
		rt_err_quiet(quiet);
		rt_stream_put(last);
	}
}

aclError rt_ri_abort(struct rt_ri *ri)
{
	pthread_mutex_lock(&ri->lock);
	if (ri->capturing) {
		pthread_mutex_unlock(&ri->lock);
		return rt_err(ACL_ERROR_RT_MODEL_CAPTURED, "model runtime instance %u is still being %s", ri->id,
			      ri->build ? "built (call aclmdlRIBuildEnd first)" : "captured (end the capture first)");
	}
	pthread_mutex_unlock(&ri->lock);
	/* A replay is one job the engine runs to its end: it cannot be cut
	 * short, so stopping it means it is over when this returns. */
	wait_replays(ri);
	return ACL_SUCCESS;
}

aclError rt_ri_destroy(struct rt_ri *ri)
{
	uint32_t i;

	pthread_mutex_lock(&g_ri_lock);
	pthread_mutex_lock(&ri->lock);
	if (ri->capturing) {
		pthread_mutex_unlock(&ri->lock);
		pthread_mutex_unlock(&g_ri_lock);
		return rt_err(ACL_ERROR_RT_MODEL_CAPTURED, "model runtime instance %u is still being captured "
			      "(end the capture first)", ri->id);
	}
	pthread_mutex_unlock(&ri->lock);
	if (!rt_handle_remove(&ri->obj)) {
		pthread_mutex_unlock(&g_ri_lock);
		return rt_err(ACL_ERROR_INVALID_PARAM, "model runtime instance %p has already been destroyed",
			      (void *)ri);
	}
	if (ri->listed) {
		rt_list_del(&ri->link);
		ri->listed = false;
	}
	pthread_mutex_unlock(&g_ri_lock);

	/* Replays in flight use the graph's workspace: they finish first. */
	wait_replays(ri);
	for (i = 0; i < ri->ncbs; i++) {
		struct rt_errsave saved;

		rt_err_save(&saved);
		ri->cbs[i].fn(ri->cbs[i].arg);
		rt_err_restore(&saved);
	}
	return ACL_SUCCESS;
}

aclError rt_ri_add_destroy_callback(struct rt_ri *ri, void (*fn)(void *), void *arg)
{
	aclError err = ACL_SUCCESS;

	pthread_mutex_lock(&ri->lock);
	if (grow((void **)&ri->cbs, &ri->cbs_cap, (uint64_t)ri->ncbs + 1, sizeof(*ri->cbs)))
		ri->cbs[ri->ncbs++] = (struct ri_cb){ fn, arg };
	else
		err = rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory");
	pthread_mutex_unlock(&ri->lock);
	return err;
}

/* ---- inspection and update ---------------------------------------------------------- */

aclError rt_ri_set_name(struct rt_ri *ri, const char *name)
{
	pthread_mutex_lock(&ri->lock);
	snprintf(ri->name, sizeof(ri->name), "%s", name);
	pthread_mutex_unlock(&ri->lock);
	return ACL_SUCCESS;
}

aclError rt_ri_get_name(struct rt_ri *ri, uint32_t max, char *name)
{
	aclError err = ACL_SUCCESS;
	size_t len;

	pthread_mutex_lock(&ri->lock);
	len = strlen(ri->name);
	if (len + 1 > max)
		err = rt_err(ACL_ERROR_INVALID_PARAM, "the name (%zu bytes) does not fit in maxLen %u with its NUL",
			     len, max);
	else
		memcpy(name, ri->name, len + 1);
	pthread_mutex_unlock(&ri->lock);
	return err;
}

aclError rt_ri_streams(struct rt_ri *ri, aclrtStream *streams, uint32_t *n)
{
	aclError err = ACL_SUCCESS;
	uint32_t i;

	pthread_mutex_lock(&ri->lock);
	if (streams && *n < ri->nstreams)
		err = rt_err(ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY, "the instance has %u streams; the array holds %u",
			     ri->nstreams, *n);
	else if (streams)
		for (i = 0; i < ri->nstreams; i++)
			streams[i] = ri->streams[i];
	if (!err)
		*n = ri->nstreams;
	pthread_mutex_unlock(&ri->lock);
	return err;
}

aclError rt_ri_stream_tasks(struct rt_stream *s, aclmdlRITask *tasks, uint32_t *n)
{
	struct rt_ri *ri = NULL;
	struct rt_list *pos;
	aclError err = ACL_SUCCESS;
	uint32_t i, k = 0, count = 0;
	int idx = -1;

	/* The latest captured graph holding the stream. */
	pthread_mutex_lock(&g_ri_lock);
	for (pos = g_done.prev; pos != &g_done; pos = pos->prev) {
		struct rt_ri *r = rt_container_of(pos, struct rt_ri, link);

		idx = stream_index(r, s);	/* fixed once captured */
		if (idx >= 0) {
			ri = r;
			rt_obj_get(&ri->obj);
			break;
		}
	}
	pthread_mutex_unlock(&g_ri_lock);
	if (!ri)
		return rt_err(ACL_ERROR_RT_STREAM_MODEL, "stream %p belongs to no captured model runtime instance",
			      (void *)s);
	pthread_mutex_lock(&ri->lock);
	for (i = 0; i < ri->ntasks; i++)
		count += ri->tasks[i].stream == idx;
	if (tasks && *n < count) {
		err = rt_err(ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY, "stream %p has %u tasks; the array holds %u",
			     (void *)s, count, *n);
	} else if (tasks) {
		for (i = 0; i < ri->ntasks; i++)
			if (ri->tasks[i].stream == idx)
				tasks[k++] = &ri->tasks[i];
	}
	if (!err)
		*n = count;
	pthread_mutex_unlock(&ri->lock);
	rt_ri_put(ri);
	return err;
}

struct rt_ri *rt_ri_task_lookup(const void *task, uint32_t *index)
{
	const char *p = task;
	struct rt_ri *found = NULL;
	struct rt_list *pos;

	pthread_mutex_lock(&g_ri_lock);
	rt_list_for_each(pos, &g_done) {
		struct rt_ri *ri = rt_container_of(pos, struct rt_ri, link);
		const char *lo = (const char *)ri->tasks;

		/* Captured graphs no longer grow their task array. */
		if (ri->ntasks && p >= lo && p < lo + (size_t)ri->ntasks * sizeof(*ri->tasks) &&
		    (size_t)(p - lo) % sizeof(*ri->tasks) == 0) {
			*index = (uint32_t)((size_t)(p - lo) / sizeof(*ri->tasks));
			rt_obj_get(&ri->obj);
			found = ri;
			break;
		}
	}
	pthread_mutex_unlock(&g_ri_lock);
	return found;
}

aclError rt_ri_task_type(struct rt_ri *ri, uint32_t index, aclmdlRITaskType *type)
{
	*type = (aclmdlRITaskType)ri->tasks[index].type;
	return ACL_SUCCESS;
}

aclError rt_ri_task_seq(struct rt_ri *ri, uint32_t index, uint32_t *seq)
{
	*seq = ri->tasks[index].seq;
	return ACL_SUCCESS;
}

aclError rt_ri_task_get(struct rt_ri *ri, uint32_t index, aclmdlRITaskParams *p)
{
	const struct ri_task *t;

	memset(p, 0, sizeof(*p));
	pthread_mutex_lock(&ri->lock);
	t = &ri->tasks[index];
	p->type = (aclmdlRITaskType)t->type;
	switch (t->type) {
	case ACL_MODEL_RI_TASK_VALUE_WRITE:
		p->valueWriteTaskParams.devAddr = (void *)(uintptr_t)t->t.value.addr;
		p->valueWriteTaskParams.value = t->t.value.value;
		break;
	case ACL_MODEL_RI_TASK_VALUE_WAIT:
		p->valueWaitTaskParams.devAddr = (void *)(uintptr_t)t->t.value.addr;
		p->valueWaitTaskParams.value = t->t.value.value;
		p->valueWaitTaskParams.flag = rt_value_flag(t->t.value.cmp);
		break;
	case ACL_MODEL_RI_TASK_EVENT_RECORD:
		p->eventRecordTaskParams.event = t->event;
		p->eventRecordTaskParams.eventFlag = t->event->flags;
		break;
	case ACL_MODEL_RI_TASK_EVENT_WAIT:
		p->eventWaitTaskParams.event = t->event;
		p->eventWaitTaskParams.eventFlag = t->event->flags;
		break;
	default:
		break;
	}
	pthread_mutex_unlock(&ri->lock);
	return ACL_SUCCESS;
}


aclError rt_ri_task_set(struct rt_ri *ri, uint32_t index, const aclmdlRITaskParams *p)
{
	struct rt_event *ev = NULL;
	struct ri_task *t = &ri->tasks[index];
	uint64_t va = 0;
	uint32_t cmp = 0;
	aclError err = ACL_SUCCESS;

	if ((uint32_t)p->type != t->type)
		return rt_err(ACL_ERROR_INVALID_PARAM, "params->type is %d; the task is a %s task", (int)p->type,
			      type_name(t->type));
	/* Checked before anything changes. */
	switch (t->type) {
	case ACL_MODEL_RI_TASK_VALUE_WRITE:
		err = rt_value_addr(ri->dev, p->valueWriteTaskParams.devAddr, &va);
		break;
	case ACL_MODEL_RI_TASK_VALUE_WAIT:
		err = rt_value_addr(ri->dev, p->valueWaitTaskParams.devAddr, &va);
		if (!err)
			err = rt_value_cmp(p->valueWaitTaskParams.flag, &cmp);
		break;
	case ACL_MODEL_RI_TASK_EVENT_RECORD:
	case ACL_MODEL_RI_TASK_EVENT_WAIT:
		ev = rt_event_lookup(t->type == ACL_MODEL_RI_TASK_EVENT_RECORD ? p->eventRecordTaskParams.event :
										  p->eventWaitTaskParams.event);
		if (!ev)
			err = rt_err(ACL_ERROR_INVALID_PARAM, "the event is not an event (never created, or destroyed)");
		else if (ev->dev != ri->dev)
			err = rt_err(ACL_ERROR_INVALID_PARAM, "the event belongs to device %u, the instance to device %u",
				     ev->dev->index, ri->dev->index);
		break;
	default:
		return rt_err(ACL_ERROR_FEATURE_UNSUPPORTED, "vnpu cannot change the parameters of a %s task "
			      "(value writes and waits and event records and waits only)", type_name(t->type));
	}
	if (err) {
		rt_event_put(ev);
		return err;
	}
	pthread_mutex_lock(&ri->lock);
	switch (t->type) {
	case ACL_MODEL_RI_TASK_VALUE_WRITE:
		t->t.value.addr = va;
		t->t.value.value = p->valueWriteTaskParams.value;
		break;
	case ACL_MODEL_RI_TASK_VALUE_WAIT:
		t->t.value.addr = va;
		t->t.value.value = p->valueWaitTaskParams.value;
		t->t.value.cmp = cmp;
		break;
	default:
		if (t->type == ACL_MODEL_RI_TASK_EVENT_RECORD)
			t->t.timestamp.addr = ev->ts.va;
		rt_event_put(t->event);
		t->event = ev;
		ev = NULL;
		break;
	}
	ri->dirty = true;
	pthread_mutex_unlock(&ri->lock);
	return ACL_SUCCESS;
}

aclError rt_ri_task_disable(struct rt_ri *ri, uint32_t index)
{
	pthread_mutex_lock(&ri->lock);
	ri->tasks[index].disabled = true;
	ri->dirty = true;
	pthread_mutex_unlock(&ri->lock);
	return ACL_SUCCESS;
}

aclError rt_ri_update(struct rt_ri *ri)
{
	aclError err = ACL_SUCCESS;

	pthread_mutex_lock(&ri->lock);
	if (ri->capturing)
		err = rt_err(ACL_ERROR_RT_MODEL_CAPTURED, "model runtime instance %u is still being captured", ri->id);
	else if (ri->dirty || !ri->jobs)
		err = layout(ri);
	pthread_mutex_unlock(&ri->lock);
	return err;
}

/* ---- printing ------------------------------------------------------------------------ */

static const char *kind_name(uint32_t kind)
{
	switch (kind) {
	case VNPU_TASK_NOP: return "nop";
	case VNPU_TASK_COPY: return "copy";
	case VNPU_TASK_FILL: return "fill";
	case VNPU_TASK_WRITE_VALUE: return "write_value";
	case VNPU_TASK_WAIT_VALUE: return "wait_value";
	case VNPU_TASK_TIMESTAMP: return "timestamp";
	case VNPU_TASK_OP: return "op";
	default: return "other";
	}
}

static void json_args(FILE *f, const struct ri_task *t, const unsigned char *data)
{
	const struct drm_vnpu_operand *ops;
	uint32_t i;

	switch (t->t.kind) {
	case VNPU_TASK_COPY:
		fprintf(f, ", \"dst\": \"0x%" PRIx64 "\", \"src\": \"0x%" PRIx64 "\", \"size\": %" PRIu64,
			(uint64_t)t->t.copy.dst, (uint64_t)t->t.copy.src, (uint64_t)t->t.copy.size);
		break;
	case VNPU_TASK_FILL:
		fprintf(f, ", \"dst\": \"0x%" PRIx64 "\", \"size\": %" PRIu64 ", \"value\": %u",
			(uint64_t)t->t.fill.dst, (uint64_t)t->t.fill.size, (unsigned int)t->t.fill.value);
		break;
	case VNPU_TASK_WRITE_VALUE:
	case VNPU_TASK_WAIT_VALUE:
		fprintf(f, ", \"addr\": \"0x%" PRIx64 "\", \"value\": %" PRIu64, (uint64_t)t->t.value.addr,
			(uint64_t)t->t.value.value);
		break;
	case VNPU_TASK_OP:
		ops = (const struct drm_vnpu_operand *)(const void *)(data + t->t.op.operand_offset);
		fprintf(f, ", \"desc_bytes\": %u, \"operands\": [", t->t.op.desc_size);
		for (i = 0; i < t->t.op.operand_count; i++)
			fprintf(f, "%s{\"va\": \"0x%" PRIx64 "\", \"size\": %" PRIu64 ", \"access\": %u}", i ? ", " : "",
				(uint64_t)ops[i].va, (uint64_t)ops[i].size, ops[i].access);
		fputc(']', f);
		break;
	default:
		break;
	}
}

/* JSON string contents: the name is the application's. */
static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

aclError rt_ri_print_json(struct rt_ri *ri, FILE *f, bool verbose)
{
	uint32_t *prev, *src, i;
	bool first = true;

	pthread_mutex_lock(&ri->lock);
	fprintf(f, "{\n  \"id\": %u,\n  \"name\": ", ri->id);
	json_str(f, ri->name);
	fprintf(f, ",\n  \"capturing\": %s,\n  \"streams\": [", ri->capturing ? "true" : "false");
	for (i = 0; i < ri->nstreams; i++)
		fprintf(f, "%s\n    {\"index\": %u, \"stream\": \"%p\"}", i ? "," : "", i, (void *)ri->streams[i]);
	fprintf(f, "\n  ],\n  \"tasks\": [");
	for (i = 0; i < ri->ntasks; i++) {
		const struct ri_task *t = &ri->tasks[i];

		fprintf(f, "%s\n    {\"seq\": %u, \"stream\": %u, \"type\": \"%s\", \"kind\": \"%s\", \"disabled\": %s",
			i ? "," : "", t->seq, t->stream, type_name(t->type), kind_name(t->t.kind),
			t->disabled ? "true" : "false");
		if (t->event)
			fprintf(f, ", \"event\": \"%p\"", (void *)t->event);
		if (verbose)
			json_args(f, t, ri->data);
		fputc('}', f);
	}
	/* Stream order: each task after the previous one of its stream;
	 * events: each wait after the latest record of its event before it. */
	fprintf(f, "\n  ],\n  \"dependencies\": [");
	if (!deps(ri, &prev, &src)) {
		pthread_mutex_unlock(&ri->lock);
		return rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory");
	}
	for (i = 0; i < ri->ntasks; i++) {
		if (prev[i] != RI_NONE) {
			fprintf(f, "%s\n    {\"from\": %u, \"to\": %u, \"kind\": \"stream\"}", first ? "" : ",", prev[i],
				i);
			first = false;
		}
		if (src[i] != RI_NONE) {
			fprintf(f, "%s\n    {\"from\": %u, \"to\": %u, \"kind\": \"event\"}", first ? "" : ",", src[i],
				i);
			first = false;
		}
	}
	free(prev);
	free(src);
	fprintf(f, "\n  ]\n}\n");
	pthread_mutex_unlock(&ri->lock);
	return ferror(f) ? rt_err(ACL_ERROR_WRITE_FILE, "cannot write the instance's JSON") : ACL_SUCCESS;
}

aclError rt_ri_print(struct rt_ri *ri, FILE *f)
{
	uint32_t i;

	pthread_mutex_lock(&ri->lock);
	fprintf(f, "model runtime instance %u \"%s\": %u streams, %u tasks, %u data bytes, %u replay jobs%s\n", ri->id,
		ri->name, ri->nstreams, ri->ntasks, ri->data_len, ri->dirty ? 0 : ri->njobs,
		ri->capturing ? " (capturing)" : "");
	for (i = 0; i < ri->ntasks; i++) {
		const struct ri_task *t = &ri->tasks[i];

		fprintf(f, "  task %u: stream %u %s (%s)%s\n", t->seq, t->stream, type_name(t->type),
			kind_name(t->t.kind), t->disabled ? " disabled" : "");
	}
	pthread_mutex_unlock(&ri->lock);
	return ferror(f) ? rt_err(ACL_ERROR_WRITE_FILE, "cannot print the instance") : ACL_SUCCESS;
}
