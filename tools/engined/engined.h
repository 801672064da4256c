/* SPDX-License-Identifier: GPL-2.0 */
/*
 * engined.h - vnpu-engined, the engine server of vnpu devices (private).
 *
 * The kernel module is the device's front end; this server executes its
 * work (uapi/vnpu_drm.h, "DOC: engine interface"). One file per concern:
 *
 *   job.c       the event buffer and a job's layout, checked (pure)
 *   exec.c      executing a job's tasks (pure, given a struct exec_env)
 *   window.c    the buffer window of one attachment, mapped once
 *   guard.c     a SIGBUS in job code faults the job, not the server
 *   crew.c      helper threads: one operator on the idle engines
 *   worker.c    one thread per engine: the RUN loop
 *   device.c    finding, attaching and re-attaching devices
 *   log.c       messages to stderr
 *   main.c      options, signals, pidfile, start and stop
 *
 * job.c, exec.c, window.c, guard.c and crew.c make no assumption about
 * the rest and are linked into the host unit tests
 * (tests/unit/test_engined_*.c).
 */
#ifndef VNPU_ENGINED_H
#define VNPU_ENGINED_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vnpu_drm.h"
#include "vnpu_ops.h"

/* ---- log.c ----------------------------------------------------------------- */

enum log_level {
	LOG_ERR = 0,	/* always shown, even with -q */
	LOG_INFO = 1,	/* start, stop, resets (the default) */
	LOG_DEBUG = 2,	/* per-job faults, buffers that cannot be mapped (-v) */
};

void log_set_level(enum log_level level);
bool log_enabled(enum log_level level);
void log_msg(enum log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define log_err(...) log_msg(LOG_ERR, __VA_ARGS__)
#define log_info(...) log_msg(LOG_INFO, __VA_ARGS__)
#define log_debug(...) log_msg(LOG_DEBUG, __VA_ARGS__)

/* ---- job.c: events and job layout (pure) -------------------------------------- */

/* Walks the events one RUN wrote: @used bytes holding @count events. */
struct ev_iter {
	const unsigned char *pos;
	size_t left;
	uint32_t count;
};

void ev_iter_init(struct ev_iter *it, const void *events, size_t used, uint32_t count);

/*
 * The next event: returns 1 and sets *@ev (whose hdr.size bytes all lie in
 * the buffer, a multiple of 8), 0 when every event was seen, -EBADMSG when
 * the next header does not fit or its size is wrong (the rest of the
 * buffer cannot be walked).
 */
int ev_iter_next(struct ev_iter *it, const struct drm_vnpu_engine_event **ev);

/* A JOB event whose arrays were checked to lie inside it. */
struct job_view {
	const struct drm_vnpu_engine_job *job;
	const struct drm_vnpu_engine_task *tasks;
	const struct drm_vnpu_engine_operand *operands;
	const unsigned char *data;
	uint32_t slot;
	uint32_t task_count;
	uint32_t first_task;
	uint32_t operand_count;
	uint32_t data_size;
};

/*
 * Check a JOB event's layout. Returns 0 when it is sound; -EBADMSG when
 * only the fixed header could be read (@view->slot and the counts are set:
 * report the job as a FAULT at job_fault_task()); -EINVAL when the event
 * is too small even for the header (the job cannot be reported at all).
 */
int job_view_init(struct job_view *view, const struct drm_vnpu_engine_event *ev);

/* The task index to report a malformed job at: in range whenever possible. */
uint32_t job_fault_task(const struct job_view *view);

/*
 * The operands of task @t: returns 0 and sets *@ops and *@n, or -ERANGE
 * when the task's operand range leaves the job's operands.
 */
int job_task_operands(const struct job_view *view, const struct drm_vnpu_engine_task *t,
		      const struct drm_vnpu_engine_operand **ops, uint32_t *n);

/*
 * The descriptor of OP task @t: returns 0 and sets *@desc, or -ERANGE when
 * the task's descriptor is empty, too large or leaves the job's data.
 */
int job_task_desc(const struct job_view *view, const struct drm_vnpu_engine_task *t,
		  const void **desc);

/* ---- exec.c: running a job (pure) ------------------------------------------- */

/* Copies and fills run in pieces of this size, the cancel word read between. */
#define EXEC_CHUNK (1u << 20)
/* Distinct buffers a job remembers after resolving them once. */
#define EXEC_MEMO 4

typedef enum vops_run_status (*exec_run_op_fn)(const void *desc, size_t desc_size,
					       const struct vops_operand *operands,
					       unsigned int noperands, const struct vops_ctl *ctl,
					       char *why, size_t why_size);

/* What a job needs from its surroundings. */
struct exec_env {
	/*
	 * The host address of @op's whole buffer (@op->buffer_size bytes
	 * mapped from @op->buffer_offset), or NULL when it cannot be had.
	 */
	void *(*map)(void *priv, const struct drm_vnpu_engine_operand *op);
	/* A task wrote memory while waits are parked and more tasks follow. */
	void (*notify)(void *priv);
	void *priv;
	/* The operator library's entry point (vops_run). */
	exec_run_op_fn run_op;
	/*
	 * Runs an operator's independent pieces on this thread and idle
	 * engines' (struct vops_ctl's parallel, called with @priv); NULL:
	 * an operator runs on this thread alone.
	 */
	void (*parallel)(void *priv, unsigned int count, void (*fn)(void *arg, unsigned int i),
			 void *arg);
	/* The job's cancel word (control page, read-only). */
	const uint32_t *cancel;
	/* The control page's count of parked waits; NULL: never notify. */
	const uint32_t *parked;
	/*
	 * VNPU_MAX_OP_DESC_SIZE bytes, 8-byte aligned, that a descriptor not
	 * 8-byte aligned in the event is copied to first; NULL: pass it as is.
	 */
	void *desc_scratch;
};

#define EXEC_WHY_MAX 192

/* How a job ended: a VNPU_ENGINE_DONE_* status, its task and for faults why. */
struct exec_result {
	uint32_t status;
	uint32_t task;		/* kept current while the job runs */
	char why[EXEC_WHY_MAX];
};

/* Run @view's tasks from its first_task; sets every field of @res. */
void exec_job(const struct job_view *view, const struct exec_env *env, struct exec_result *res);

/*
 * memmove() of @n bytes in pieces of @chunk bytes (from the end when @dst
 * lies above an overlapping @src), reading *@cancel (may be NULL) between
 * pieces: 0 when done, -ECANCELED when stopped (a prefix, or for a
 * backward copy a suffix, was copied).
 */
int exec_copy(void *dst, const void *src, uint64_t n, uint64_t chunk, const uint32_t *cancel);

/*
 * Fill @n bytes in pieces of @chunk bytes, as exec_copy(): with the byte
 * @value (@width 1, memset()) or with the 32-bit word @value (@width 4, @n
 * a multiple of 4).
 */
int exec_fill(void *dst, uint32_t value, unsigned int width, uint64_t n, uint64_t chunk, const uint32_t *cancel);

static inline bool exec_canceled(const uint32_t *cancel)
{
	return cancel && __atomic_load_n(cancel, __ATOMIC_ACQUIRE) != 0;
}

/* ---- window.c: the buffer window of one attachment -------------------------------- */

/* The engine file's [@offset, @offset + @size), mapped at @base (or NULL). */
struct window {
	unsigned char *base;
	uint64_t offset;
	uint64_t size;
};

/* Map [@offset, @offset + @size) of @fd shared: 0 or -errno (-EINVAL, mmap's). */
int window_map(struct window *w, int fd, uint64_t offset, uint64_t size);
void window_unmap(struct window *w);
/*
 * The host address of the file's [@offset, @offset + @size), or NULL when
 * that is empty or not all inside the window.
 */
void *window_get(const struct window *w, uint64_t offset, uint64_t size);

/* ---- guard.c: SIGBUS in job code ------------------------------------------------ */

/* Install the SIGBUS handler (once, before any thread runs job code). */
int guard_init(void);
/*
 * Run @fn(@arg); false if a SIGBUS on this thread cut it short (what it
 * was doing is abandoned where it stood). Calls nest.
 */
bool guard_call(void (*fn)(void *arg), void *arg);
/* Leave the innermost guard_call() of this thread as a SIGBUS would. */
_Noreturn void guard_raise(void);

/* ---- crew.c: helper threads ------------------------------------------------------ */

struct crew {
	pthread_mutex_t lock;
	pthread_cond_t posted;		/* helpers: pieces posted, or stop */
	pthread_cond_t left;		/* the poster: the last helper left */
	/* The posted pieces: written under @lock before helpers may join. */
	void (*fn)(void *arg, unsigned int i);
	void *arg;
	unsigned int count;
	unsigned int gen;		/* postings so far, under @lock */
	unsigned int seats;		/* helpers that may still join, under @lock */
	unsigned int inside;		/* helpers taking pieces, under @lock */
	bool stop;			/* under @lock */
	atomic_uint next;		/* the next piece to take */
	atomic_bool faulted;		/* a piece hit SIGBUS */
	atomic_bool busy;		/* pieces are posted: others run alone */
	pthread_t *threads;
	unsigned int nthreads;
};

/* Start @nthreads helpers (0: none, every operator runs alone). */
int crew_start(struct crew *c, unsigned int nthreads);
void crew_stop(struct crew *c);
/*
 * Run fn(arg, i) for every i in [0, @count) on this thread and on up to
 * @idle helpers; return when every piece is done (struct vops_ctl's
 * parallel). Call it inside guard_call(): a SIGBUS in any piece is raised
 * in the caller's guard once no helper is left inside.
 */
void crew_parallel(struct crew *c, unsigned int idle, unsigned int count,
		   void (*fn)(void *arg, unsigned int i), void *arg);

/* ---- device.c and worker.c: the server ------------------------------------------ */

/* Jobs one RUN asks for. */
#define ENGINED_BATCH 8
/* After running jobs, a worker looks for more this long before it sleeps. */
#define ENGINED_SPIN_NS (250u * 1000)
/* A round running longer reports its finished jobs before the rest. */
#define ENGINED_FLUSH_NS (200u * 1000)
#define ENGINED_MAX_DEVICES 64

struct engined;
struct device;

struct worker {
	struct device *dev;
	unsigned int engine;
	pthread_t thread;
	atomic_bool started;
	atomic_bool exited;
	/* Allocated once: the event buffer, the completions of one round,
	 * the slots they name, an aligned descriptor copy. */
	void *events;
	void *flush_events;		/* for the reports of a long round */
	struct drm_vnpu_engine_done *done;
	uint32_t ndone;
	uint64_t slot_seen[VNPU_ENGINE_SLOTS / 64];
	void *desc_scratch;
	/* The job being run (not automatic: it survives a SIGBUS longjmp). */
	struct exec_result res;
	/* The streams of this round that stopped (worker.c stream_stop()). */
	struct {
		uint64_t client;
		uint32_t stream;
	} stopped[ENGINED_BATCH];
	unsigned int nstopped;
};

struct device {
	struct engined *srv;
	unsigned int index;		/* VNPU_PARAM_DEVICE_INDEX */
	char path[64];			/* the device node */
	int node_fd;			/* open until attached */
	/*
	 * The attachment. Written only by device_attach() and by the reset
	 * (while every worker of the device waits in device_reset()), read
	 * by the workers without a lock.
	 */
	int efd;
	const struct drm_vnpu_engine_ctl *ctl;
	size_t ctl_size;
	uint32_t num_engines;
	uint32_t num_slots;
	struct window window;		/* of the attachment; unmapped when none */
	/* The reset rendezvous. */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned int gen;		/* attachments so far, under @lock */
	unsigned int waiting;		/* workers in device_reset(), under @lock */
	struct worker *workers;		/* @num_engines */
	/* The worker looking for work without sleeping, or NULL. */
	_Atomic(struct worker *) spinner;
	/* Workers handling a round's events (running jobs) right now. */
	atomic_uint running;
	/* The helpers of its large operators (num_engines - 1). */
	struct crew crew;
};

struct engined {
	struct device *devs;
	unsigned int ndevs;
	atomic_bool stop;		/* stop taking jobs, then exit */
	atomic_bool failed;		/* a fatal error: exit non-zero */
	int exit_efd;			/* eventfd: a worker ended */
};

/* device.c */
int devices_find(struct engined *srv, const unsigned int *want, unsigned int nwant);
int device_attach(struct device *dev);
void device_detach(struct device *dev);
/*
 * A worker's RUN failed with -ENOTCONN (the kernel reset the engine): wait
 * for every worker of the device, re-attach (the last one to arrive does
 * it) and return 0, or -1 when the server is stopping or the re-attachment
 * failed.
 */
int device_reset(struct device *dev);
/* Wake workers waiting in device_reset() (the server is stopping). */
void device_wake(struct device *dev);

/* worker.c */
int workers_start(struct device *dev);
void workers_kick(struct device *dev);
bool workers_exited(struct device *dev);
void workers_join(struct device *dev);
int worker_signals_init(void);

/* main.c */
void engined_fail(struct engined *srv);

#endif /* VNPU_ENGINED_H */
