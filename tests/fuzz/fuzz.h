/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vnpu-fuzz: an ioctl fuzzer for the vnpu device, driven from a pool of live
 * objects. Structure:
 *
 *   rng.c        seeded generator and interesting values (boundaries)
 *   pool.c       the live objects of one open device file (buffers, streams,
 *                syncobjs, exported fds, mappings), shared by its threads
 *   call.c       every ioctl goes through fz_ioctl(): per-call counters
 *   oracle.c     the expectation of each call and the rules re-checked on
 *                what the kernel accepted; violations and --plant
 *   gen_bo.c     GET_PARAM, buffers, PRIME, mmap
 *   gen_stream.c streams, SUBMIT (every task kind), SIGNAL, pools
 *   gen_drm.c    DRM core ioctls: syncobjs, GET_CAP, VERSION, ...
 *   gen_engine.c ENGINE_ATTACH, and the engine server of an -E boot
 *   driver.c     processes, threads, fork, reopen, SIGKILL, the op loop
 *   report.c     the per-call table
 */
#ifndef VNPU_FUZZ_H
#define VNPU_FUZZ_H

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vnpu_drm.h"

#define FZ_PAGE 4096ull
#define FZ_HUGE (2ull << 20)

/* ---------------------------------------------------------------- rng.c */

struct fz_rng {
	uint64_t s;
};

void fz_rng_seed(struct fz_rng *r, uint64_t seed);
uint64_t fz_next(struct fz_rng *r);
/* Uniform in [0, n); 0 for n 0. */
uint64_t fz_below(struct fz_rng *r, uint64_t n);
/* True with probability num/den. */
bool fz_chance(struct fz_rng *r, unsigned int num, unsigned int den);
/* Random, boundary, zero or all-ones values of a field's width. */
uint64_t fz_any64(struct fz_rng *r);
uint32_t fz_any32(struct fz_rng *r);
/* A flags word: 0 (mostly), @valid bits, or unknown bits. */
uint32_t fz_flags(struct fz_rng *r, uint32_t valid);

/* ---------------------------------------------------------------- call.c */

enum fz_call {
	FZ_GET_PARAM,
	FZ_BO_CREATE,
	FZ_BO_INFO,
	FZ_BO_USERPTR,
	FZ_STREAM_CREATE,
	FZ_STREAM_DESTROY,
	FZ_SUBMIT,
	FZ_STREAM_QUERY,
	FZ_STREAM_SET_PARAM,
	FZ_POOL_BIND,
	FZ_POOL_UNBIND,
	FZ_POOL_QUERY,
	FZ_SIGNAL,
	FZ_ENGINE_ATTACH,
	FZ_STREAM_ABORT,
	FZ_ENGINE_RUN,
	FZ_ENGINE_NOTIFY,
	FZ_GEM_CLOSE,
	FZ_PRIME_HANDLE_TO_FD,
	FZ_PRIME_FD_TO_HANDLE,
	FZ_SYNCOBJ_CREATE,
	FZ_SYNCOBJ_DESTROY,
	FZ_SYNCOBJ_HANDLE_TO_FD,
	FZ_SYNCOBJ_FD_TO_HANDLE,
	FZ_SYNCOBJ_WAIT,
	FZ_SYNCOBJ_TIMELINE_WAIT,
	FZ_SYNCOBJ_SIGNAL,
	FZ_SYNCOBJ_TIMELINE_SIGNAL,
	FZ_SYNCOBJ_RESET,
	FZ_SYNCOBJ_QUERY,
	FZ_SYNCOBJ_TRANSFER,
	FZ_GET_CAP,
	FZ_SET_CLIENT_CAP,
	FZ_VERSION,
	FZ_GET_UNIQUE,
	FZ_GEM_FLINK,
	FZ_GEM_OPEN,
	FZ_SYNC_FILE_INFO,
	FZ_BAD_IOCTL,
	FZ_MMAP,
	FZ_MUNMAP,
	FZ_FORK,
	FZ_REOPEN,
	FZ_KILL_CHILD,
	FZ_NCALLS
};

#define FZ_NERRNO 140

/* Counters of every process, in shared memory. */
struct fz_stats {
	uint64_t ok[FZ_NCALLS];
	uint64_t err[FZ_NCALLS][FZ_NERRNO];
	uint64_t violations;
	uint64_t ops;
	uint32_t engine_ready;	/* -E: the coordinator's engine server is attached */
};

extern struct fz_stats *fz_stats;
extern const char *const fz_call_name[FZ_NCALLS];

/* Count a result of @call: 0 or -errno. */
void fz_count(enum fz_call call, int ret);
/* ioctl through libdrm's drmIoctl(), counted; 0 or -errno. */
int fz_ioctl(int fd, enum fz_call call, unsigned long request, void *arg);

/* ---------------------------------------------------------------- pool.c */

#define FZ_MAX_BUFS 48
#define FZ_MAX_STREAMS 12
#define FZ_MAX_SYNCS 32
#define FZ_MAX_FDS 16
#define FZ_MAX_MAPS 16
#define FZ_MAX_FENCES 64

struct fz_buf {
	bool live;
	uint32_t handle;
	uint32_t flags;		/* as BO_INFO reports them */
	uint64_t size;
	uint64_t va;
	void *uptr;		/* USERPTR: the process memory ... */
	uint64_t ulen;		/* ... and its length */
	bool imported;		/* came from PRIME_FD_TO_HANDLE */
	uint64_t gen;		/* set by the pool: tells reused handle numbers apart */
};

struct fz_stream {
	bool live;
	uint32_t id;
	uint64_t max_seqno;	/* highest seqno a SUBMIT returned */
	bool strict;
	bool require_pool;
};

struct fz_sync {
	bool live;
	unsigned int owner;	/* the thread that may change it */
	uint32_t handle;
	bool timeline;
	bool has_fence;		/* a fence is (or was) installed: point 0 waits work */
	bool jobbed;		/* holds (or held) a job's fence */
	uint64_t last_point;
};

enum fz_fd_kind { FZ_FD_DMABUF, FZ_FD_SYNCOBJ, FZ_FD_SYNC_FILE };

struct fz_xfd {
	bool live;
	int fd;
	enum fz_fd_kind kind;
	uint64_t size;		/* dma-buf: bytes */
	bool userptr;		/* dma-buf of user memory: never mappable */
	bool rdwr;		/* exported with DRM_RDWR: writable mappings */
	uint32_t handle;	/* dma-buf: the exported handle ... */
	uint64_t gen;		/* ... which buffer it was then */
};

struct fz_map {
	bool live;
	void *cpu;
	uint64_t size;
};

/* A job fence the oracle watches: the submit's own syncobj. */
struct fz_fence {
	bool live;
	uint32_t sync;		/* syncobj handle (binary, created for the job) */
	uint64_t submit_ns;
	uint32_t stream;
};

/* One open device file, shared by the threads of a process. */
struct fz_file {
	/*
	 * Held for reading by every operation, for writing by the ones that
	 * make live objects dead (GEM_CLOSE, close-and-reopen): a range the
	 * generator built as invalid stays invalid during its call.
	 */
	pthread_rwlock_t life;
	pthread_mutex_t mu;	/* the arrays below */
	int fd;
	unsigned int dev;
	uint64_t gen;		/* last fz_buf gen given out */
	uint64_t va_start, va_end;
	struct fz_buf bufs[FZ_MAX_BUFS];
	struct fz_stream streams[FZ_MAX_STREAMS];
	struct fz_sync syncs[FZ_MAX_SYNCS];
	struct fz_xfd xfds[FZ_MAX_FDS];
	struct fz_map maps[FZ_MAX_MAPS];
	struct fz_fence fences[FZ_MAX_FENCES];
	char where[64];		/* where fz_sync_live() last found a handle */
};

int fz_file_open(struct fz_file *f, unsigned int dev);
/* Forget every object (the fd was closed); exported fds and maps stay. */
void fz_file_forget(struct fz_file *f);
void fz_file_close(struct fz_file *f);

/* Random live objects (copied out under the lock); false if none. */
bool fz_pick_buf(struct fz_file *f, struct fz_rng *r, struct fz_buf *out);
bool fz_pick_stream(struct fz_file *f, struct fz_rng *r, struct fz_stream *out);
/* Syncobjs are picked among the calling thread's own (@owner). */
bool fz_pick_sync(struct fz_file *f, struct fz_rng *r, unsigned int owner, struct fz_sync *out);
bool fz_pick_xfd(struct fz_file *f, struct fz_rng *r, enum fz_fd_kind kind, struct fz_xfd *out);
bool fz_handle_live(struct fz_file *f, uint32_t handle);
/* The gen of the live buffer @handle, or 0. */
uint64_t fz_handle_gen(struct fz_file *f, uint32_t handle);
bool fz_stream_live(struct fz_file *f, uint32_t id);
bool fz_sync_live(struct fz_file *f, uint32_t handle);

/* Add objects (false when the pool is full: the caller releases it). */
bool fz_add_buf(struct fz_file *f, const struct fz_buf *b);
bool fz_add_stream(struct fz_file *f, uint32_t id);
bool fz_add_sync(struct fz_file *f, unsigned int owner, uint32_t handle, bool timeline,
		 bool has_fence);
bool fz_add_xfd(struct fz_file *f, const struct fz_xfd *x);
bool fz_add_map(struct fz_file *f, void *cpu, uint64_t size);
bool fz_add_fence(struct fz_file *f, uint32_t sync, uint32_t stream, uint64_t now);

/* Remove; return whether it was there. */
bool fz_del_buf(struct fz_file *f, uint32_t handle);
bool fz_del_stream(struct fz_file *f, uint32_t id);
bool fz_del_sync(struct fz_file *f, uint32_t handle);
int fz_take_xfd(struct fz_file *f, struct fz_rng *r, enum fz_fd_kind kind);
bool fz_take_map(struct fz_file *f, struct fz_rng *r, struct fz_map *out);
bool fz_take_fence(struct fz_file *f, struct fz_rng *r, struct fz_fence *out);

/* Update a stream's state after a call the kernel accepted. */
void fz_stream_seqno(struct fz_file *f, uint32_t id, uint64_t seqno);
void fz_stream_param(struct fz_file *f, uint32_t id, uint32_t param, uint64_t value);
void fz_sync_fenced(struct fz_file *f, uint32_t handle, uint64_t point);
/* SYNCOBJ_SIGNAL, _RESET, _TRANSFER: whether it has a fence now; a new point. */
void fz_sync_set(struct fz_file *f, uint32_t handle, bool has_fence, uint64_t point);
uint64_t fz_count_bufs(struct fz_file *f);

/* ---------------------------------------------------------------- oracle.c */

/*
 * What the documented rules say of a call about to be made: whether it may
 * succeed, and the errnos it may fail with (none listed: any errno).
 */
#define FZ_MAX_EXPECT 12

struct fz_expect {
	const char *rule;	/* the rule that makes an invalid call invalid */
	bool may_succeed;
	unsigned int nerr;
	int errs[FZ_MAX_EXPECT];
};

/* A valid call: it may succeed, or fail with the listed errnos. */
void fz_expect_valid(struct fz_expect *e, const char *rule, ...);
/* An invalid call: it must fail with one of the listed errnos (0-terminated). */
void fz_expect_invalid(struct fz_expect *e, const char *rule, ...);
/* Allow more errnos (0-terminated). */
void fz_expect_also(struct fz_expect *e, ...);

struct fz_thread;

/*
 * Judge a call's result against its expectation; a mismatch is a
 * violation. Returns @ret.
 */
int fz_judge(struct fz_thread *t, enum fz_call call, int ret, const struct fz_expect *e);
/* A rule checked on what an accepted call returned; prints and counts. */
void fz_violation(struct fz_thread *t, const char *rule, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Whether --plant named @rule: the rule then gets a wrong answer. */
bool fz_planted(const char *rule);
/* Check @cond; a violation of @rule if false. Returns @cond. */
bool fz_check(struct fz_thread *t, const char *rule, bool cond, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The rules --plant accepts (NULL-terminated). */
extern const char *const fz_plant_rules[];

/* ---------------------------------------------------------------- driver.c */

struct fz_opts {
	uint64_t seed;
	uint64_t ops;		/* per thread */
	unsigned int procs;
	unsigned int threads;
	unsigned int dev;
	bool engine;		/* attach as the engine server (-E boot) */
	bool export_job_fences;	/* sync_file export of job out-fences */
	bool verbose;
	const char *plant;
	uint64_t fence_bound_ms;	/* a job fence signals within this */
};

extern struct fz_opts fz_opts;

struct fz_thread {
	struct fz_rng rng;
	struct fz_file *file;
	unsigned int proc;
	unsigned int tid;
	uint64_t op;		/* index of the current op */
	bool valid_only;	/* building a call with no deliberate error */
	char what[192];		/* the current call and its arguments */
	bool root;
	uint64_t engine_attached;	/* GET_PARAM ENGINE_ATTACHED at start */
	unsigned int num_devices;
};

/* Describe the current call (for violations and -v). */
void fz_what(struct fz_thread *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
uint64_t fz_now_ns(void);

/* ---------------------------------------------------------------- generators */

/* Each runs one random call of its family. */
void fz_gen_get_param(struct fz_thread *t);
/* Every parameter once (at a thread's start and after a reopen). */
void fz_sweep_params(struct fz_thread *t);
void fz_gen_bo_create(struct fz_thread *t);
void fz_gen_bo_info(struct fz_thread *t);
void fz_gen_bo_userptr(struct fz_thread *t);
void fz_gen_gem_close(struct fz_thread *t);
void fz_gen_prime_export(struct fz_thread *t);
void fz_gen_prime_import(struct fz_thread *t);
void fz_gen_mmap(struct fz_thread *t);
void fz_gen_munmap(struct fz_thread *t);

void fz_gen_stream_create(struct fz_thread *t);
void fz_gen_stream_destroy(struct fz_thread *t);
void fz_gen_stream_query(struct fz_thread *t);
void fz_gen_stream_set_param(struct fz_thread *t);
void fz_gen_stream_abort(struct fz_thread *t);
void fz_gen_submit(struct fz_thread *t);
void fz_gen_signal(struct fz_thread *t);
void fz_gen_pool_bind(struct fz_thread *t, bool unbind);
void fz_gen_pool_query(struct fz_thread *t);
void fz_gen_fence_check(struct fz_thread *t);
/* End of a thread's run: every watched fence must signal within the bound. */
void fz_drain_fences(struct fz_thread *t, bool destroy_streams);

void fz_gen_syncobj(struct fz_thread *t);
void fz_gen_drm_misc(struct fz_thread *t);

void fz_gen_engine_attach(struct fz_thread *t);
/* The engine server of an -E boot: start serving device @dev; stop. */
int fz_engine_start(unsigned int dev, uint64_t seed);
void fz_engine_stop(void);

/* ---------------------------------------------------------------- report.c */

void fz_report(void);

#endif /* VNPU_FUZZ_H */
