// SPDX-License-Identifier: GPL-2.0
/*
 * vnpu-fuzz's driver: options, the coordinator process (shared counters, the
 * worker processes, the engine server of an -E boot, the report), the worker
 * processes (one device file each, shared by their threads) and the op loop
 * of a thread, which also forks children on the shared file, SIGKILLs
 * children with jobs in flight and closes and reopens the device file.
 *
 * Every thread has its own generator, seeded from --seed, the process and
 * the thread index: the sequence of operations of a thread is the same on
 * every run of a seed; with one process and one thread the whole run is.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <xf86drm.h>

#include "fuzz.h"
#include "vnpu_test.h"

struct fz_opts fz_opts = {
	.seed = 1, .ops = 2000, .procs = 2, .threads = 2, .export_job_fences = true,
};

uint64_t fz_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void fz_what(struct fz_thread *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->what, sizeof(t->what), fmt, ap);
	va_end(ap);
}

/* ---------------------------------------------------------------- children */

/* A child on the parent's file: a few calls on the shared objects, then exit. */
static void fork_child(struct fz_thread *t)
{
	struct fz_buf b;
	struct fz_stream st;
	bool have_buf = fz_pick_buf(t->file, &t->rng, &b);
	bool have_stream = fz_pick_stream(t->file, &t->rng, &st);
	int fd = t->file->fd, status, ret;
	pid_t pid;

	fz_what(t, "fork");
	pid = fork();
	if (pid < 0) {
		fz_count(FZ_FORK, -errno);
		return;
	}
	if (!pid) {
		struct drm_vnpu_get_param p = { .param = VNPU_PARAM_CLIENT_ID };
		struct drm_vnpu_bo_info info = { .handle = have_buf ? b.handle : 0 };

		/* The same file: the same client, the same handles. */
		fz_ioctl(fd, FZ_GET_PARAM, DRM_IOCTL_VNPU_GET_PARAM, &p);
		if (have_buf) {
			ret = fz_ioctl(fd, FZ_BO_INFO, DRM_IOCTL_VNPU_BO_INFO, &info);
			/* The parent may close it meanwhile (another thread). */
			if (!ret)
				fz_check(t, "fork_child_same_file", info.va == b.va,
					 "va %#llx in the child, %#llx in the parent",
					 (unsigned long long)info.va, (unsigned long long)b.va);
		}
		if (have_stream) {
			struct drm_vnpu_task nop = { .kind = VNPU_TASK_NOP };
			struct drm_vnpu_submit s = {
				.stream_id = st.id, .tasks = (uint64_t)(uintptr_t)&nop,
				.task_count = 1, .task_size = sizeof(nop),
				.flags = VNPU_SUBMIT_NONBLOCK,
			};

			fz_ioctl(fd, FZ_SUBMIT, DRM_IOCTL_VNPU_SUBMIT, &s);
		}
		_exit(0);
	}
	ret = waitpid(pid, &status, 0) == pid && WIFEXITED(status) ? 0 : -ECHILD;
	fz_count(FZ_FORK, ret);
	fz_check(t, "fork_child_exit", !ret, "child status %#x", status);
}

/* A child with its own file and jobs in flight, killed at a random moment. */
static void kill_child(struct fz_thread *t)
{
	uint64_t delay_us = fz_below(&t->rng, 20000), seed = fz_next(&t->rng);
	struct pollfd pfd;
	int pipefd[2], status;
	pid_t pid;
	char c;

	if (pipe(pipefd))
		return;
	fz_what(t, "fork+SIGKILL after %llu us", (unsigned long long)delay_us);
	pid = fork();
	if (pid < 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		return;
	}
	if (!pid) {
		struct drm_vnpu_bo_create bo = { .size = 1 << 20 };
		struct drm_vnpu_stream_create sc = { .priority = (uint32_t)(seed % 3) };
		struct drm_vnpu_task tk[4];
		struct drm_vnpu_submit s = { 0 };
		struct drm_prime_handle ph = { .flags = DRM_CLOEXEC };
		uint32_t sync = 0;
		int fd = vnpu_open_device(t->file->dev), i;

		close(pipefd[0]);
		if (fd < 0 || drmIoctl(fd, DRM_IOCTL_VNPU_BO_CREATE, &bo) ||
		    drmIoctl(fd, DRM_IOCTL_VNPU_STREAM_CREATE, &sc))
			_exit(0);
		ph.handle = bo.handle;
		drmIoctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph);
		drmSyncobjCreate(fd, 0, &sync);
		memset(tk, 0, sizeof(tk));
		tk[0].kind = VNPU_TASK_FILL;
		tk[0].fill = (struct drm_vnpu_task_fill){ .dst = bo.va, .size = bo.size,
							  .value = 7 };
		tk[1].kind = VNPU_TASK_COPY;
		tk[1].copy = (struct drm_vnpu_task_copy){ .dst = bo.va, .src = bo.va + 4096,
							  .size = bo.size - 4096 };
		/* A wait that never holds: the job parks until it is killed. */
		tk[2].kind = VNPU_TASK_WAIT_VALUE;
		tk[2].value = (struct drm_vnpu_task_value){ .addr = bo.va, .value = 1,
							    .cmp = VNPU_WAIT_EQ };
		tk[3].kind = VNPU_TASK_NOP;
		s.stream_id = sc.stream_id;
		s.tasks = (uint64_t)(uintptr_t)tk;
		s.task_size = sizeof(tk[0]);
		s.out_sync.handle = sync;
		for (i = 0;; i++) {
			s.task_count = i % 5 == 4 ? 4 : 2;
			drmIoctl(fd, DRM_IOCTL_VNPU_SUBMIT, &s);
			if (i == 2 && write(pipefd[1], "x", 1) < 0)
				_exit(0);
			if (i > 200)
				pause();
		}
	}
	close(pipefd[1]);
	pfd = (struct pollfd){ .fd = pipefd[0], .events = POLLIN };
	if (poll(&pfd, 1, 20000) > 0 && read(pipefd[0], &c, 1) < 0)
		c = 0;
	close(pipefd[0]);
	usleep((useconds_t)delay_us);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	fz_count(FZ_KILL_CHILD, WIFSIGNALED(status) || WIFEXITED(status) ? 0 : -ECHILD);
}

/* Close the device file with everything in it, and open it again. */
static void reopen(struct fz_thread *t)
{
	struct fz_file *f = t->file;
	int ret = 0;

	fz_what(t, "close+reopen fd %d", f->fd);
	close(f->fd);
	fz_file_forget(f);
	f->fd = vnpu_open_device(f->dev);
	if (f->fd < 0)
		ret = -ENODEV;
	fz_count(FZ_REOPEN, ret);
	if (!fz_check(t, "reopen", !ret, "cannot open device %u again", f->dev))
		exit(1);
	fz_sweep_params(t);
}

static void close_xfd(struct fz_thread *t)
{
	int fd = fz_take_xfd(t->file, &t->rng, (enum fz_fd_kind)fz_below(&t->rng, 3));

	if (fd >= 0)
		close(fd);
}

/* ---------------------------------------------------------------- op loop */

enum { FZ_SHARED, FZ_EXCLUSIVE };

static void op_gem_close(struct fz_thread *t) { fz_gen_gem_close(t); }
static void op_pool_bind(struct fz_thread *t) { fz_gen_pool_bind(t, false); }
static void op_pool_unbind(struct fz_thread *t) { fz_gen_pool_bind(t, true); }

static const struct fz_op {
	void (*fn)(struct fz_thread *t);
	unsigned int weight;
	int lock;
} ops[] = {
	{ fz_gen_get_param, 6, FZ_SHARED },
	{ fz_gen_bo_create, 9, FZ_SHARED },
	{ fz_gen_bo_info, 4, FZ_SHARED },
	{ fz_gen_bo_userptr, 3, FZ_SHARED },
	{ op_gem_close, 5, FZ_EXCLUSIVE },
	{ fz_gen_prime_export, 3, FZ_SHARED },
	{ fz_gen_prime_import, 3, FZ_SHARED },
	{ fz_gen_mmap, 3, FZ_SHARED },
	{ fz_gen_munmap, 3, FZ_SHARED },
	{ fz_gen_stream_create, 4, FZ_SHARED },
	{ fz_gen_stream_destroy, 2, FZ_SHARED },
	{ fz_gen_stream_query, 4, FZ_SHARED },
	{ fz_gen_stream_set_param, 2, FZ_SHARED },
	{ fz_gen_stream_abort, 1, FZ_SHARED },
	{ fz_gen_submit, 24, FZ_SHARED },
	{ fz_gen_signal, 3, FZ_SHARED },
	{ op_pool_bind, 4, FZ_SHARED },
	{ op_pool_unbind, 2, FZ_SHARED },
	{ fz_gen_pool_query, 3, FZ_SHARED },
	{ fz_gen_fence_check, 6, FZ_SHARED },
	{ fz_gen_syncobj, 12, FZ_SHARED },
	{ fz_gen_drm_misc, 5, FZ_SHARED },
	{ fz_gen_engine_attach, 1, FZ_SHARED },
	{ close_xfd, 2, FZ_EXCLUSIVE },	/* other threads may be using the fd */
	{ fork_child, 1, FZ_SHARED },
	{ kill_child, 1, FZ_SHARED },
	{ reopen, 1, FZ_EXCLUSIVE },
};

static const struct fz_op *pick_op(struct fz_rng *r)
{
	unsigned int total = 0, i;
	uint64_t x;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		total += ops[i].weight;
	x = fz_below(r, total);
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		if (x < ops[i].weight)
			return &ops[i];
		x -= ops[i].weight;
	}
	return &ops[0];
}

/* Keep a few objects live so that calls go deep: buffers, a stream, syncobjs. */
static void replenish(struct fz_thread *t)
{
	struct fz_stream st;
	struct fz_sync y;

	if (fz_count_bufs(t->file) < 3)
		fz_gen_bo_create(t);
	if (!fz_pick_stream(t->file, &t->rng, &st))
		fz_gen_stream_create(t);
	if (!fz_pick_sync(t->file, &t->rng, t->tid, &y))
		fz_gen_syncobj(t);
}

static void *thread_main(void *arg)
{
	struct fz_thread *t = arg;

	pthread_rwlock_rdlock(&t->file->life);
	fz_sweep_params(t);
	pthread_rwlock_unlock(&t->file->life);
	for (t->op = 0; t->op < fz_opts.ops; t->op++) {
		const struct fz_op *op = pick_op(&t->rng);

		if (fz_chance(&t->rng, 1, 2)) {
			pthread_rwlock_rdlock(&t->file->life);
			replenish(t);
			pthread_rwlock_unlock(&t->file->life);
		}

		if (op->lock == FZ_EXCLUSIVE)
			pthread_rwlock_wrlock(&t->file->life);
		else
			pthread_rwlock_rdlock(&t->file->life);
		op->fn(t);
		pthread_rwlock_unlock(&t->file->life);
		__atomic_fetch_add(&fz_stats->ops, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void worker(unsigned int proc)
{
	struct fz_thread *threads = calloc(fz_opts.threads, sizeof(*threads));
	pthread_t *tids = calloc(fz_opts.threads, sizeof(*tids));
	struct fz_file *file = calloc(1, sizeof(*file));
	uint64_t attached = 0;
	unsigned int i;

	if (!threads || !tids || !file)
		exit(2);
	if (fz_opts.engine)
		while (!__atomic_load_n(&fz_stats->engine_ready, __ATOMIC_ACQUIRE))
			usleep(1000);
	if (fz_file_open(file, fz_opts.dev)) {
		fprintf(stderr, "vnpu-fuzz: no vnpu device %u\n", fz_opts.dev);
		exit(2);
	}
	vnpu_get_param(file->fd, VNPU_PARAM_ENGINE_ATTACHED, &attached);
	for (i = 0; i < fz_opts.threads; i++) {
		struct fz_thread *t = &threads[i];

		fz_rng_seed(&t->rng, fz_opts.seed * 0x100000001b3ull ^ ((uint64_t)proc << 16 | i));
		t->file = file;
		t->proc = proc;
		t->tid = i;
		t->root = !geteuid();
		t->engine_attached = attached;
		t->num_devices = vnpu_count_devices();
	}
	for (i = 0; i < fz_opts.threads; i++)
		if (pthread_create(&tids[i], NULL, thread_main, &threads[i]))
			exit(2);
	for (i = 0; i < fz_opts.threads; i++)
		pthread_join(tids[i], NULL);
	/* First every job fence within the bound as they are, then a destroy. */
	threads[0].op = fz_opts.ops;
	fz_drain_fences(&threads[0], fz_chance(&threads[0].rng, 1, 2));
	fz_drain_fences(&threads[0], true);
	fz_file_close(file);
	exit(0);
}

/* ---------------------------------------------------------------- main */

static void usage(FILE *out)
{
	fprintf(out,
		"usage: vnpu-fuzz [options]\n"
		"  -s, --seed N          seed (default 1)\n"
		"  -n, --ops N           operations per thread (default 2000)\n"
		"  -p, --procs N         worker processes, one device file each (default 2)\n"
		"  -t, --threads N       threads per process, sharing its file (default 2)\n"
		"  -d, --device N        vnpu device index (default 0)\n"
		"  -E, --engine          be the device's engine server (an -E boot, root)\n"
		"  -T, --job-timeout-ms N  set the job_timeout_ms module parameter (root)\n"
		"  -B, --fence-bound-ms N  a job fence must signal within N ms\n"
		"      --no-export-job-fences  never export a job's fence (sync_file)\n"
		"  -P, --plant RULE      feed RULE a wrong answer (self-test); 'list' lists\n"
		"  -v, --verbose         log every call to stderr\n");
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "ops", required_argument, NULL, 'n' },
		{ "procs", required_argument, NULL, 'p' },
		{ "threads", required_argument, NULL, 't' },
		{ "device", required_argument, NULL, 'd' },
		{ "engine", no_argument, NULL, 'E' },
		{ "job-timeout-ms", required_argument, NULL, 'T' },
		{ "fence-bound-ms", required_argument, NULL, 'B' },
		{ "no-export-job-fences", no_argument, NULL, 'X' },
		{ "plant", required_argument, NULL, 'P' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long old_timeout = 0, job_timeout = 0;
	bool set_timeout = false, failed = false;
	pid_t *pids;
	unsigned int i;
	uint64_t start;
	int c;

	while ((c = getopt_long(argc, argv, "s:n:p:t:d:ET:B:P:vh", lopts, NULL)) != -1) {
		switch (c) {
		case 's': fz_opts.seed = strtoull(optarg, NULL, 0); break;
		case 'n': fz_opts.ops = strtoull(optarg, NULL, 0); break;
		case 'p': fz_opts.procs = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 't': fz_opts.threads = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'd': fz_opts.dev = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'E': fz_opts.engine = true; break;
		case 'T': job_timeout = strtoul(optarg, NULL, 0); set_timeout = true; break;
		case 'B': fz_opts.fence_bound_ms = strtoull(optarg, NULL, 0); break;
		case 'X': fz_opts.export_job_fences = false; break;
		case 'P': fz_opts.plant = optarg; break;
		case 'v': fz_opts.verbose = true; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (!fz_opts.procs || !fz_opts.threads || optind != argc) {
		usage(stderr);
		return 2;
	}
	if (fz_opts.plant) {
		bool known = false;

		for (i = 0; fz_plant_rules[i]; i++) {
			if (!strcmp(fz_opts.plant, "list"))
				printf("%s\n", fz_plant_rules[i]);
			known |= !strcmp(fz_opts.plant, fz_plant_rules[i]);
		}
		if (!strcmp(fz_opts.plant, "list"))
			return 0;
		if (!known) {
			fprintf(stderr, "vnpu-fuzz: --plant: unknown rule %s\n", fz_opts.plant);
			return 2;
		}
	}
	fz_stats = mmap(NULL, sizeof(*fz_stats), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (fz_stats == MAP_FAILED)
		return 2;
	if (set_timeout) {
		vnpu_module_param("job_timeout_ms", &old_timeout);
		if (vnpu_set_module_param("job_timeout_ms", job_timeout)) {
			fprintf(stderr, "vnpu-fuzz: cannot set job_timeout_ms (root?)\n");
			return 2;
		}
	}
	if (!fz_opts.fence_bound_ms) {
		unsigned long ms = 10000;

		vnpu_module_param("job_timeout_ms", &ms);
		/* A job's timeout and the cancel grace, twice, and TCG's slowness. */
		fz_opts.fence_bound_ms = 2 * (ms + VNPU_ENGINE_GRACE_MS) + 60000;
	}
	printf("# vnpu-fuzz seed %llu ops %llu procs %u threads %u%s%s%s\n",
	       (unsigned long long)fz_opts.seed, (unsigned long long)fz_opts.ops, fz_opts.procs,
	       fz_opts.threads, fz_opts.engine ? " engine" : "",
	       fz_opts.plant ? " plant " : "", fz_opts.plant ? fz_opts.plant : "");
	fflush(stdout);
	start = fz_now_ns();
	pids = calloc(fz_opts.procs, sizeof(*pids));
	if (!pids)
		return 2;
	for (i = 0; i < fz_opts.procs; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			return 2;
		if (!pids[i])
			worker(i);
	}
	if (fz_opts.engine) {
		if (fz_engine_start(fz_opts.dev, fz_opts.seed)) {
			for (i = 0; i < fz_opts.procs; i++)
				kill(pids[i], SIGKILL);
			return 2;
		}
		__atomic_store_n(&fz_stats->engine_ready, 1, __ATOMIC_RELEASE);
	}
	for (i = 0; i < fz_opts.procs; i++) {
		int status;

		if (waitpid(pids[i], &status, 0) != pids[i] || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			printf("FAIL worker %u: %s %d\n", i,
			       WIFSIGNALED(status) ? "killed by signal" : "exit status",
			       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
			failed = true;
		}
	}
	if (fz_opts.engine)
		fz_engine_stop();
	if (set_timeout)
		vnpu_set_module_param("job_timeout_ms", old_timeout);
	fz_report();
	{
		double secs = (double)(fz_now_ns() - start) / 1e9;

		printf("# %.1f s, %.0f ops/s\n", secs, secs > 0 ? (double)fz_stats->ops / secs : 0);
	}
	if (fz_stats->violations || failed) {
		printf("FAIL seed %llu: %llu violations%s\n", (unsigned long long)fz_opts.seed,
		       (unsigned long long)fz_stats->violations,
		       failed ? ", a worker failed" : "");
		return 1;
	}
	printf("PASS seed %llu\n", (unsigned long long)fz_opts.seed);
	return 0;
}
