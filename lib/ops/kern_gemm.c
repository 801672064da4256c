// SPDX-License-Identifier: MIT
/*
 * kern_gemm.c - fp32, fp16 and bf16 matrix products through BLAS.
 *
 * The library is BLIS's serial build (Debian's libblis-serial-dev), chosen
 * by benchmark (docs/ops.md): no thread pool of its own (one engine worker
 * is one thread), safe to call from several workers at once (its memory
 * pools take locks, where Debian's serial OpenBLAS has none), and on every
 * CPU it can run at all, down to the QEMU guest's qemu64 model, where it
 * falls back to its generic kernels instead of dying on an instruction.
 *
 * C = A * B, A m x k (stored k x m with TRANS_A), B k x n (stored n x k
 * with TRANS_B), row-major, computed in tiles of at most OPS_MAC_CHUNK
 * multiply-adds (ops_gemm_tile()), one cblas_sgemm() per chunk, so that
 * the operator can stop between any two. fp32 works on the operands in
 * place; fp16 and bf16 are widened to fp32 into the workspace first (in
 * their stored order: the transposes stay BLAS's business), each output
 * tile is computed in fp32 in the workspace and rounded once into the
 * output after its last k block. With a parallel hook (struct vops_ctl)
 * the fp32 output tiles run on several threads at once, BLIS serial
 * inside each: that is how one operator uses the engines that are idle.
 */
#include <limits.h>

#include <cblas.h>

#include "ops_kern.h"

#define GEMM_K_MAX 1024ull	/* k per tile before the output is split */
#define GEMM_TILE 64ull	/* rows and columns of a tile before k is split */

/* The largest leading dimension BLAS's int arguments can take. */
#define GEMM_LD_MAX ((uint64_t)INT_MAX)

/* @a / @b, at least 1. */
static uint64_t div1(uint64_t a, uint64_t b)
{
	return a / b ? a / b : 1;
}

/* @x rounded down to a multiple of 16 when it is above 16. */
static uint64_t round16(uint64_t x)
{
	return x > 16 ? x & ~15ull : x;
}

void ops_gemm_tile(uint64_t m, uint64_t n, uint64_t k, uint64_t *ib, uint64_t *jb, uint64_t *kb)
{
	uint64_t i, j, l;

	/*
	 * Output blocks of 64 x 64 first (BLAS kernels compute blocks of 4 to
	 * 16 rows and columns; a 512^3 product in 45 x 45 tiles ran at half the
	 * speed of 64 x 64 ones), smaller when that leaves fewer than
	 * VOPS_PARALLEL_MIN of them, k split to fit the chunk; then, when all of
	 * k fits, the columns and the rows grow into what is left of it.
	 */
	i = ops_min(m, GEMM_TILE);
	j = ops_min(n, GEMM_TILE);
	/* Enough blocks for the parallel hook, down to 16 x 16 ones. */
	while (((m + i - 1) / i) * ((n + j - 1) / j) < VOPS_PARALLEL_MIN && (i > 16 || j > 16)) {
		if (i >= j)
			i = (i + 1) / 2;
		else
			j = (j + 1) / 2;
	}
	l = ops_min(k, ops_min(div1(OPS_MAC_CHUNK, i * j), GEMM_K_MAX));
	if (l == k) {
		j = ops_min(n, round16(div1(OPS_MAC_CHUNK, l * i)));
		i = ops_min(m, round16(div1(OPS_MAC_CHUNK, l * j)));
	}
	*ib = i;
	*jb = j;
	*kb = l;
}

/*
 * The tile of @a, with the constraint that BLAS's int leading dimensions
 * impose: a stride that does not fit an int is never used, because the
 * tile is one element thick across it (the planner allows dimensions of
 * 2^31, one more than INT_MAX).
 */
static void gemm_tile(const struct ops_args *a, uint64_t *ib, uint64_t *jb, uint64_t *kb)
{
	uint64_t m = a->d[0], n = a->d[1], k = a->d[2];
	bool ta = a->flags & OPS_F_TRANS_A, tb = a->flags & OPS_F_TRANS_B;

	ops_gemm_tile(m, n, k, ib, jb, kb);
	/* A's rows are k apart (m with TRANS_A, between k), C's rows n apart */
	if ((!ta && k > GEMM_LD_MAX) || (a->dt == ACL_FLOAT && n > GEMM_LD_MAX))
		*ib = 1;
	if ((ta && m > GEMM_LD_MAX) || (!tb && n > GEMM_LD_MAX))
		*kb = 1;
	if (tb && k > GEMM_LD_MAX)
		*jb = 1;
}

bool ops_gemm_ws(int32_t dt, uint64_t m, uint64_t n, uint64_t k, uint64_t *ws)
{
	uint64_t ib, jb, kb;

	*ws = 0;
	if (dt == ACL_FLOAT)
		return true;
	/* the tile is no larger than the one gemm_tile() picks */
	ops_gemm_tile(m, n, k, &ib, &jb, &kb);
	if (m * k > VOPS_MAX_BYTES / 4 || k * n > VOPS_MAX_BYTES / 4)
		return false;
	/* each part at most 2^40 (ib * jb <= OPS_MAC_CHUNK): cannot wrap */
	*ws = 4 * (m * k + k * n + ib * jb);
	return *ws <= VOPS_MAX_BYTES;
}

/* A leading dimension for BLAS: @ld, or @used when the tile never steps over it. */
static int ld_arg(uint64_t ld, uint64_t used)
{
	return (int)(ld > GEMM_LD_MAX ? (used ? used : 1) : ld);
}

/* Widen @total elements of @src (fp16/bf16) into @dst, a chunk at a time. */
static enum vops_run_status widen(float *dst, const void *src, int32_t dt, uint64_t total,
				  struct ops_runner *r)
{
	uint64_t i, len;

	for (i = 0; i < total; i += len) {
		len = ops_min(OPS_EW_CHUNK, total - i);
		if (ops_should_stop(r))
			return VOPS_RUN_CANCELED;
		ops_load_f32(dst + i, src, dt, i, len);
	}
	return VOPS_RUN_OK;
}

/* One product, cut into output tiles (the pieces) of ib x jb, k in steps of kb. */
struct gemm_pieces {
	const struct ops_args *a;
	const float *A, *B;
	float *tile;			/* fp16/bf16: the fp32 tile; fp32: NULL */
	uint64_t ib, jb, kb;
	uint64_t ntj;			/* tiles across n */
};

/* Output tile @t: every k step of it into C (fp32) or the fp32 tile, rounded out. */
static enum vops_run_status gemm_piece(const void *ctx, struct ops_runner *r, uint64_t t)
{
	const struct gemm_pieces *p = ctx;
	const struct ops_args *a = p->a;
	uint64_t m = a->d[0], n = a->d[1], k = a->d[2], k0;
	uint64_t i0 = t / p->ntj * p->ib, j0 = t % p->ntj * p->jb;
	uint64_t mi = ops_min(p->ib, m - i0), nj = ops_min(p->jb, n - j0);
	bool ta = a->flags & OPS_F_TRANS_A, tb = a->flags & OPS_F_TRANS_B;
	/* fp32: the output itself; else the fp32 tile, nj wide */
	float *C = p->tile ? p->tile : (float *)a->out + i0 * n + j0;
	uint64_t ldc = p->tile ? nj : n;

	for (k0 = 0; k0 < k; k0 += p->kb) {
		uint64_t kl = ops_min(p->kb, k - k0);
		const float *pa = ta ? p->A + k0 * m + i0 : p->A + i0 * k + k0;
		const float *pb = tb ? p->B + j0 * k + k0 : p->B + k0 * n + j0;

		if (ops_should_stop(r))
			return VOPS_RUN_CANCELED;
		cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans,
			    tb ? CblasTrans : CblasNoTrans, (int)mi, (int)nj, (int)kl, 1.0f, pa,
			    ld_arg(ta ? m : k, ta ? mi : kl), pb, ld_arg(tb ? k : n, tb ? kl : nj),
			    k0 ? 1.0f : 0.0f, C, ld_arg(ldc, nj));
	}
	if (p->tile)
		for (uint64_t i = 0; i < mi; i++)
			ops_store_f32(a->out, a->dt, (i0 + i) * n + j0, p->tile + i * nj, nj);
	return VOPS_RUN_OK;
}

/*
 * fp32 tiles are independent pieces (each writes its own block of C); the
 * fp16/bf16 ones share the fp32 tile in the workspace and run in turn.
 */
enum vops_run_status ops_gemm_run(const struct ops_args *a, struct ops_runner *r)
{
	uint64_t m = a->d[0], n = a->d[1], k = a->d[2];
	struct gemm_pieces p = { .a = a, .A = a->in0, .B = a->in1 };
	enum vops_run_status ret;

	if (a->dt != ACL_FLOAT) {
		float *wa = a->ws, *wb = wa + m * k;

		ret = widen(wa, a->in0, a->dt, m * k, r);
		if (!ret)
			ret = widen(wb, a->in1, a->dt, k * n, r);
		if (ret)
			return ret;
		p.A = wa;
		p.B = wb;
		p.tile = wb + k * n;
	}
	gemm_tile(a, &p.ib, &p.jb, &p.kb);
	p.ntj = (n + p.jb - 1) / p.jb;
	return ops_run_pieces(r, (m + p.ib - 1) / p.ib * p.ntj, !p.tile, gemm_piece, &p);
}
