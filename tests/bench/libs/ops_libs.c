// SPDX-License-Identifier: GPL-2.0
/*
 * ops_libs: which compute library should lib/ops use? (docs/ops.md)
 *
 * Times, single-threaded, the two figures issue 12 sets a bar for:
 *  - a 256 x 256 x 256 fp32 matrix product (C = A * B, row-major):
 *      mm_ikj        the plain C i-k-j loop (the bar: 2x faster than this);
 *      mm_kernel     the loop of the kernel's MATMUL as ported to lib/ops
 *                    (i-k-j, four k per pass, blocks of 8 that gcc
 *                    vectorises; lib/ops no longer runs it for fp32);
 *      mm_c4x8       a register-blocked plain C product: packed panels and
 *                    a 4 x 8 micro-kernel of GCC vector types (SSE), what
 *                    plain C can do on the guest's qemu64 CPU;
 *      mm_openblas   cblas_sgemm of OpenBLAS's serial build;
 *      mm_blis       cblas_sgemm of BLIS's serial build;
 *      mm_dnnl       dnnl_sgemm of oneDNN (OpenMP runtime, 1 thread);
 *      mm_vops       lib/ops' MatMul through vops_plan() + vops_run(),
 *                    as vnpu-engined runs it (chunks, cancellation checks);
 *  - an fp32 Add of 1 Mi elements:
 *      add_loop      the plain C loop (the bar: no slower than this);
 *      add_vops      lib/ops' Add through vops_run();
 *  - and what lib/ops costs per operator launch, in ns: vops_plan() of an
 *    Add of two [1024, 1024] tensors and of a 256^3 MatMul (libacl plans
 *    every launch), and vops_run() of a 16-element Add (decode, plan
 *    again, operand checks, compute: the server's overhead per task).
 *
 * The libraries are opened with dlopen(RTLD_LOCAL | RTLD_DEEPBIND) from
 * their Debian paths, so OpenBLAS and BLIS (which export the same cblas_*
 * names) never bind to each other or to the BLAS lib/ops links; one that
 * is not installed is reported as missing and skipped. Every result is
 * checked against the i-k-j loop before it is timed.
 *
 * Output: one line per figure, "name  best_ms  median_ms  speedup" where
 * speedup is mm_ikj (or add_loop) over the figure's median. Runs natively
 * or in the guest: tools/vnpu-vm -n -- build/bench/libs/ops_libs
 * Options: -r N repetitions per figure (default 7), -q (quick: 3).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl_base.h"
#include "vnpu_drm.h"
#include "ops_blocked.h"
#include "vnpu_ops.h"

#ifndef OPS_LIBDIR
#define OPS_LIBDIR "/usr/lib/x86_64-linux-gnu"
#endif

#define N 256
#define ADD_N (1u << 20)

/* CBLAS's enum values (cblas.h of every implementation). */
#define CBLAS_ROW_MAJOR 101
#define CBLAS_NO_TRANS 111

typedef void (*cblas_sgemm_fn)(int order, int ta, int tb, int m, int n, int k, float alpha,
			       const float *a, int lda, const float *b, int ldb, float beta,
			       float *c, int ldc);
typedef int (*dnnl_sgemm_fn)(char ta, char tb, int64_t m, int64_t n, int64_t k, float alpha,
			     const float *a, int64_t lda, const float *b, int64_t ldb, float beta,
			     float *c, int64_t ldc);

static unsigned int reps = 7;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void *xmalloc(size_t n)
{
	void *p = aligned_alloc(64, (n + 63) / 64 * 64);

	if (!p) {
		fprintf(stderr, "ops_libs: out of memory\n");
		exit(1);
	}
	return p;
}

/* ---- the contenders ------------------------------------------------------ */

static void mm_ikj(const float *a, const float *b, float *c)
{
	for (int i = 0; i < N; i++) {
		float *ci = c + i * N;

		for (int j = 0; j < N; j++)
			ci[j] = 0;
		for (int k = 0; k < N; k++) {
			float s = a[i * N + k];
			const float *bk = b + k * N;

			for (int j = 0; j < N; j++)
				ci[j] += s * bk[j];
		}
	}
}

static void axpy4(float *restrict acc, const float *restrict b0, const float *restrict b1,
		  const float *restrict b2, const float *restrict b3, const float *restrict s,
		  uint64_t n)
{
	float s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];

	OPS_BLOCKED(j, n, acc[j] += s0 * b0[j] + s1 * b1[j] + s2 * b2[j] + s3 * b3[j]);
}

static void mm_kernel(const float *a, const float *b, float *c)
{
	for (uint64_t i = 0; i < N; i++) {
		float *acc = c + i * N;

		memset(acc, 0, N * 4);
		for (uint64_t k = 0; k < N; k += 4)
			axpy4(acc, b + k * N, b + (k + 1) * N, b + (k + 2) * N, b + (k + 3) * N,
			      a + i * N + k, N);
	}
}

/* mm_c4x8: B in panels of 8 columns, A in panels of 4 rows, k-major. */
typedef float v4sf __attribute__((vector_size(16)));

static float *pack_a, *pack_b;

static void kern_4x8(const float *restrict a, const float *restrict b, float *restrict c)
{
	v4sf c0a = { 0 }, c0b = { 0 }, c1a = { 0 }, c1b = { 0 };
	v4sf c2a = { 0 }, c2b = { 0 }, c3a = { 0 }, c3b = { 0 };

	for (int k = 0; k < N; k++) {
		v4sf b0, b1, a0, a1, a2, a3;

		memcpy(&b0, b + k * 8, 16);
		memcpy(&b1, b + k * 8 + 4, 16);
		a0 = (v4sf){ a[k * 4], a[k * 4], a[k * 4], a[k * 4] };
		a1 = (v4sf){ a[k * 4 + 1], a[k * 4 + 1], a[k * 4 + 1], a[k * 4 + 1] };
		a2 = (v4sf){ a[k * 4 + 2], a[k * 4 + 2], a[k * 4 + 2], a[k * 4 + 2] };
		a3 = (v4sf){ a[k * 4 + 3], a[k * 4 + 3], a[k * 4 + 3], a[k * 4 + 3] };
		c0a += a0 * b0;
		c0b += a0 * b1;
		c1a += a1 * b0;
		c1b += a1 * b1;
		c2a += a2 * b0;
		c2b += a2 * b1;
		c3a += a3 * b0;
		c3b += a3 * b1;
	}
	memcpy(c, &c0a, 16);
	memcpy(c + 4, &c0b, 16);
	memcpy(c + N, &c1a, 16);
	memcpy(c + N + 4, &c1b, 16);
	memcpy(c + 2 * N, &c2a, 16);
	memcpy(c + 2 * N + 4, &c2b, 16);
	memcpy(c + 3 * N, &c3a, 16);
	memcpy(c + 3 * N + 4, &c3b, 16);
}

static void mm_c4x8(const float *a, const float *b, float *c)
{
	for (int jp = 0; jp < N / 8; jp++)
		for (int k = 0; k < N; k++)
			memcpy(pack_b + (jp * N + k) * 8, b + k * N + jp * 8, 32);
	for (int ip = 0; ip < N / 4; ip++) {
		for (int k = 0; k < N; k++)
			for (int i = 0; i < 4; i++)
				pack_a[k * 4 + i] = a[(ip * 4 + i) * N + k];
		for (int jp = 0; jp < N / 8; jp++)
			kern_4x8(pack_a, pack_b + jp * N * 8, c + ip * 4 * N + jp * 8);
	}
}

static cblas_sgemm_fn openblas_sgemm, blis_sgemm;
static dnnl_sgemm_fn dnnl_sgemm_p;

static void mm_openblas(const float *a, const float *b, float *c)
{
	openblas_sgemm(CBLAS_ROW_MAJOR, CBLAS_NO_TRANS, CBLAS_NO_TRANS, N, N, N, 1.0f, a, N, b, N,
		       0.0f, c, N);
}

static void mm_blis(const float *a, const float *b, float *c)
{
	blis_sgemm(CBLAS_ROW_MAJOR, CBLAS_NO_TRANS, CBLAS_NO_TRANS, N, N, N, 1.0f, a, N, b, N,
		   0.0f, c, N);
}

static void mm_dnnl(const float *a, const float *b, float *c)
{
	if (dnnl_sgemm_p('N', 'N', N, N, N, 1.0f, a, N, b, N, 0.0f, c, N)) {
		fprintf(stderr, "ops_libs: dnnl_sgemm failed\n");
		exit(1);
	}
}

/* lib/ops: one plan, then vops_run() per repetition (as the server does). */
static struct vops_plan mm_plan, add_plan;
static void *mm_ws;

static void vops_or_die(enum vops_err e, const struct vops_error *err)
{
	if (e) {
		fprintf(stderr, "ops_libs: vops_plan: %s\n", err->msg);
		exit(1);
	}
}

static void plan_vops(void)
{
	static const int64_t mm_dims[2] = { N, N }, add_dims[1] = { ADD_N };
	struct vops_tensor mm_in[2] = { { .dtype = ACL_FLOAT, .ndim = 2, .dims = mm_dims }, { .dtype = ACL_FLOAT, .ndim = 2, .dims = mm_dims } };
	struct vops_tensor add_in[2] = { { .dtype = ACL_FLOAT, .ndim = 1, .dims = add_dims },
					 { .dtype = ACL_FLOAT, .ndim = 1, .dims = add_dims } };
	struct vops_error err;

	vops_or_die(vops_plan("MatMul", 2, mm_in, 1, NULL, 0, &mm_plan, &err), &err);
	vops_or_die(vops_plan("Add", 2, add_in, 1, NULL, 0, &add_plan, &err), &err);
	mm_ws = mm_plan.ws_bytes ? xmalloc(mm_plan.ws_bytes) : NULL;
}

static void run_or_die(const struct vops_plan *p, const struct vops_operand *ops)
{
	char why[256];

	if (vops_run(p->desc, p->desc_size, ops, vops_plan_operands(p), NULL, why, sizeof(why))) {
		fprintf(stderr, "ops_libs: vops_run: %s\n", why);
		exit(1);
	}
}

static void mm_vops(const float *a, const float *b, float *c)
{
	struct vops_operand ops[4] = {
		{ (void *)a, N * N * 4, VNPU_OPERAND_READ },
		{ (void *)b, N * N * 4, VNPU_OPERAND_READ },
		{ c, N * N * 4, VNPU_OPERAND_WRITE },
		{ mm_ws, mm_plan.ws_bytes, VNPU_OPERAND_WORKSPACE },
	};

	run_or_die(&mm_plan, ops);
}

static void add_loop(const float *restrict x, const float *restrict y, float *restrict o)
{
	for (unsigned int i = 0; i < ADD_N; i++)
		o[i] = x[i] + y[i];
}

static void add_vops(const float *x, const float *y, float *o)
{
	struct vops_operand ops[3] = {
		{ (void *)x, ADD_N * 4, VNPU_OPERAND_READ },
		{ (void *)y, ADD_N * 4, VNPU_OPERAND_READ },
		{ o, ADD_N * 4, VNPU_OPERAND_WRITE },
	};

	run_or_die(&add_plan, ops);
}

/* ---- per-launch costs ------------------------------------------------------ */

#define OVH_N 20000

static void overheads(void)
{
	static const int64_t d2[2] = { 1024, 1024 }, mm[2] = { N, N }, d16[1] = { 16 };
	struct vops_tensor add_in[2] = { { .dtype = ACL_FLOAT, .ndim = 2, .dims = d2 }, { .dtype = ACL_FLOAT, .ndim = 2, .dims = d2 } };
	struct vops_tensor mm_in[2] = { { .dtype = ACL_FLOAT, .ndim = 2, .dims = mm }, { .dtype = ACL_FLOAT, .ndim = 2, .dims = mm } };
	struct vops_tensor small[2] = { { .dtype = ACL_FLOAT, .ndim = 1, .dims = d16 }, { .dtype = ACL_FLOAT, .ndim = 1, .dims = d16 } };
	float sx[16] = { 0 }, so[16];
	struct vops_operand ops[3] = {
		{ sx, 64, VNPU_OPERAND_READ }, { sx, 64, VNPU_OPERAND_READ }, { so, 64, VNPU_OPERAND_WRITE },
	};
	static struct vops_plan p;
	double t0;
	int i;

	t0 = now_ms();
	for (i = 0; i < OVH_N; i++)
		if (vops_plan("Add", 2, add_in, 1, NULL, 0, &p, NULL))
			exit(1);
	printf("%-12s  %9.0f ns\n", "plan_add", (now_ms() - t0) * 1e6 / OVH_N);
	t0 = now_ms();
	for (i = 0; i < OVH_N; i++)
		if (vops_plan("MatMul", 2, mm_in, 1, NULL, 0, &p, NULL))
			exit(1);
	printf("%-12s  %9.0f ns\n", "plan_matmul", (now_ms() - t0) * 1e6 / OVH_N);
	if (vops_plan("Add", 2, small, 1, NULL, 0, &p, NULL))
		exit(1);
	t0 = now_ms();
	for (i = 0; i < OVH_N; i++)
		run_or_die(&p, ops);
	printf("%-12s  %9.0f ns\n", "run_add16", (now_ms() - t0) * 1e6 / OVH_N);
}

/* ---- timing -------------------------------------------------------------- */

typedef void (*fig_fn)(const float *, const float *, float *);

/* Median of @reps runs (after one warm-up); *best gets the fastest. */
static double time_fig(fig_fn f, const float *x, const float *y, float *o, double *best)
{
	double t[64];

	f(x, y, o);
	for (unsigned int r = 0; r < reps; r++) {
		double t0 = now_ms();

		f(x, y, o);
		t[r] = now_ms() - t0;
	}
	qsort(t, reps, sizeof(t[0]), cmp_double);
	*best = t[0];
	return t[reps / 2];
}

/* Is @got within fp32 rounding of @want (products of values in [-1, 1])? */
static bool same(const float *got, const float *want, size_t n, double tol)
{
	for (size_t i = 0; i < n; i++)
		if (!(fabs((double)got[i] - (double)want[i]) <= tol))
			return false;
	return true;
}

/*
 * Check and time @f in a child process: a library that dies on this CPU
 * (an instruction the emulated CPU lacks) is reported, not fatal.
 */
static void figure(const char *name, fig_fn f, const float *x, const float *y, float *o,
		   const float *want, size_t n, double tol, double base)
{
	double best, med;
	int status;
	pid_t pid;

	if (!f) {
		printf("%-12s  missing\n", name);
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("ops_libs: fork");
		exit(1);
	}
	if (!pid) {
		memset(o, 0xff, n * 4);	/* NaN: a figure that computes nothing fails */
		f(x, y, o);
		if (!same(o, want, n, tol)) {
			printf("%-12s  wrong result\n", name);
			_exit(3);
		}
		med = time_fig(f, x, y, o, &best);
		printf("%-12s  %9.3f  %9.3f  %6.2fx\n", name, best, med, base > 0 ? base / med : 1.0);
		fflush(stdout);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid) {
		perror("ops_libs: waitpid");
		exit(1);
	}
	if (WIFSIGNALED(status))
		printf("%-12s  crashed: %s\n", name, strsignal(WTERMSIG(status)));
	fflush(stdout);
}

static void *open_lib(const char *path)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);

	if (!h)
		printf("# %s: %s\n", path, dlerror());
	return h;
}

int main(int argc, char **argv)
{
	float *a = xmalloc(N * N * 4), *b = xmalloc(N * N * 4), *c = xmalloc(N * N * 4);
	float *want = xmalloc(N * N * 4);
	float *x = xmalloc(ADD_N * 4), *y = xmalloc(ADD_N * 4), *o = xmalloc(ADD_N * 4);
	float *osum = xmalloc(ADD_N * 4);

	pack_a = xmalloc(N * 4 * 4);
	pack_b = xmalloc(N * N * 4);
	double base, best;
	void *h;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-q")) {
			reps = 3;
		} else if (!strcmp(argv[i], "-r") && i + 1 < argc) {
			reps = (unsigned int)atoi(argv[++i]);
			if (reps < 1 || reps > 64)
				reps = 7;
		} else {
			fprintf(stderr, "usage: ops_libs [-q] [-r N]\n");
			return 2;
		}
	}
	/* one engine worker is one thread: no library may start its own */
	setenv("OMP_NUM_THREADS", "1", 1);
	setenv("OPENBLAS_NUM_THREADS", "1", 1);
	setenv("BLIS_NUM_THREADS", "1", 1);

	h = open_lib(OPS_LIBDIR "/openblas-serial/libopenblas.so.0");
	if (h) {
		char *(*corename)(void) = (char *(*)(void))dlsym(h, "openblas_get_corename");

		openblas_sgemm = (cblas_sgemm_fn)dlsym(h, "cblas_sgemm");
		if (corename)
			printf("# OpenBLAS core: %s\n", corename());
	}
	h = open_lib(OPS_LIBDIR "/blis-serial/libblis.so.4");
	if (h) {
		int (*arch_id)(void) = (int (*)(void))dlsym(h, "bli_arch_query_id");
		const char *(*arch_str)(int) = (const char *(*)(int))dlsym(h, "bli_arch_string");

		blis_sgemm = (cblas_sgemm_fn)dlsym(h, "cblas_sgemm");
		if (arch_id && arch_str)
			printf("# BLIS configuration: %s\n", arch_str(arch_id()));
	}
	h = open_lib(OPS_LIBDIR "/libdnnl.so.2");
	if (h)
		dnnl_sgemm_p = (dnnl_sgemm_fn)dlsym(h, "dnnl_sgemm");

	srand(12);
	for (i = 0; i < N * N; i++) {
		a[i] = (float)rand() / RAND_MAX * 2 - 1;
		b[i] = (float)rand() / RAND_MAX * 2 - 1;
	}
	for (i = 0; i < (int)ADD_N; i++) {
		x[i] = (float)rand() / RAND_MAX * 200 - 100;
		y[i] = (float)rand() / RAND_MAX * 200 - 100;
	}
	plan_vops();
	mm_ikj(a, b, want);
	add_loop(x, y, osum);

	printf("# %d^3 fp32 matmul and %u-element fp32 add, %u repetitions, ms\n", N, ADD_N, reps);
	printf("%-12s  %9s  %9s  %7s\n", "figure", "best", "median", "speedup");
	base = time_fig(mm_ikj, a, b, c, &best);
	printf("%-12s  %9.3f  %9.3f  %6.2fx\n", "mm_ikj", best, base, 1.0);
	/* the i-k-j loop's own rounding differs from a blocked product's */
	figure("mm_kernel", mm_kernel, a, b, c, want, N * N, 1e-4, base);
	figure("mm_c4x8", mm_c4x8, a, b, c, want, N * N, 1e-4, base);
	figure("mm_openblas", openblas_sgemm ? mm_openblas : NULL, a, b, c, want, N * N, 1e-4, base);
	figure("mm_blis", blis_sgemm ? mm_blis : NULL, a, b, c, want, N * N, 1e-4, base);
	figure("mm_dnnl", dnnl_sgemm_p ? mm_dnnl : NULL, a, b, c, want, N * N, 1e-4, base);
	figure("mm_vops", mm_vops, a, b, c, want, N * N, 1e-4, base);

	base = time_fig(add_loop, x, y, o, &best);
	printf("%-12s  %9.3f  %9.3f  %6.2fx\n", "add_loop", best, base, 1.0);
	figure("add_vops", add_vops, x, y, o, osum, ADD_N, 0, base);
	overheads();
	return 0;
}
