// SPDX-License-Identifier: MIT
/*
 * op_nn.c - matrix products, convolution and pooling (the nn family).
 *
 *   BatchMatMulV2      x1 [..., m, k], x2 [..., k, n] (adj_x1, adj_x2 transpose the
 *                      last two axes); batch axes broadcast (numpy); a 1-D operand is
 *                      promoted as numpy does (vnpu: CANN wants 2-D at least)
 *   GEMM               y = alpha * op(a) op(b) + beta * c; c broadcasts to [M, N];
 *                      alpha and beta one-element tensors of any numeric type
 *   Einsum             equation (implicit and explicit forms, "...", repeated
 *                      letters: diagonals), N inputs
 *   Conv2D Conv3D      NCHW / NCDHW, groups, strides, dilations, pads per side,
 *                      optional bias; Conv2D also takes NCW (1-D, vnpu)
 *   Conv2DTransposeD Conv3DTransposeD
 *                      the same, input_size the full output shape, output_padding
 *   MaxPoolV3 MaxPool3D AvgPoolV2 AvgPool3D
 *                      ksize, strides, pads, padding mode, ceil_mode, dilations;
 *                      MaxPool*: an optional int64 argmax output (vnpu)
 *   GlobalAveragePool GlobalMaxPool (vnpu)
 *                      over every axis after N and C
 *   AdaptiveAvgPool2d AdaptiveMaxPool2d
 *                      NCHW or CHW to output_size [H, W], PyTorch's bins;
 *                      AdaptiveMaxPool2d's optional argmax (int64, in H * W)
 *
 * fp32 products and convolutions run through BLIS (im2col), in pieces
 * handed to the parallel hook; fp16/bf16 are widened to fp32 in the
 * workspace and rounded once. Everything else computes in double (floats)
 * or int64 (integers, wrapping) in the workspace. Parameters are
 * OPS_AF_PARAMS ints; infer validates every one of them.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include <cblas.h>

#include "ops_int.h"

/* ---- the computations: types --------------------------------------------------- */

/* Multiply-adds (or window elements) per piece, and per should_stop question. */
#define NN_PIECE_WORK (4ull << 20)
#define NN_STOP_WORK 16384ull
/* Column blocks of a convolution that have a workspace slot at once. */
#define NN_SLOTS 64ull
/* VOPS_MAX_DIM as a signed bound for parameters */
#define NN_MAX ((int64_t)VOPS_MAX_DIM)

/**
 * struct nn_mm - a (batched) matrix product
 * @dt: the type of A, B and the output.
 * @ta, @tb: A stored k x m, B stored n x k.
 * @m, @n, @k: the product's sizes.
 * @nb: batch axes; @nbatch: their product; @bdims: the output's batch axes;
 * @ast, @bst: A's and B's matrix strides along them (0: broadcast).
 * @a, @b: the inputs; @ca, @cb: their element counts.
 * @cm: GEMM's C (type @dt, NULL: none), @cst its strides over [M, N].
 * @alpha, @beta: y = alpha * A B + beta * C.
 * @out: the output; @ws: the workspace (wide copies and output).
 */
struct nn_mm {
	int32_t dt;
	bool ta, tb;
	uint64_t m, n, k;
	int nb;
	uint64_t nbatch;
	int64_t bdims[VOPS_MAX_RANK], ast[VOPS_MAX_RANK], bst[VOPS_MAX_RANK];
	const void *a, *b, *cm;
	uint64_t ca, cb;
	int64_t cst[2];
	double alpha, beta;
	void *out, *ws;
};

/* A convolution's or a pool's window over three spatial axes (unused ones leading, of 1). */
#define NN_POOL_CEIL 1u
#define NN_POOL_EXCL 2u		/* average over the input's elements only */
#define NN_POOL_GLOBAL 4u
#define NN_POOL_COLMAJOR 8u	/* argmax indices in column-major order */
#define NN_POOL_FLAGS 15u

struct nn_win {
	int nsp;
	uint32_t flags;
	int64_t divisor, groups;
	int64_t n, c, m;		/* batch, input and output channels */
	int64_t in[3], out[3], k[3], s[3], d[3], pb[3], pe[3];
};

#define EIN_LETTERS 64

/* An einsum: output letters, summed letters, sizes and strides per letter. */
struct nn_ein {
	int nop, nout, nsum;
	int out[VOPS_MAX_RANK];
	int sum[EIN_LETTERS];
	int64_t dim[EIN_LETTERS];
	int64_t st[VOPS_MAX_INPUTS][EIN_LETTERS];
};

static uint64_t sp3(const int64_t *v)
{
	return (uint64_t)v[0] * (uint64_t)v[1] * (uint64_t)v[2];
}

/* Widen @n elements of @src (type @dt) into fp32 or int64 @dst, a chunk at a time. */
static enum vops_run_status widen(void *dst, bool i64, const void *src, int32_t dt, uint64_t n,
				  struct ops_runner *r)
{
	uint64_t i, len;

	for (i = 0; i < n; i += len) {
		len = ops_min(OPS_EW_CHUNK, n - i);
		if (ops_should_stop(r))
			return VOPS_RUN_CANCELED;
		if (i64)
			ops_load_i64((int64_t *)dst + i, src, dt, (int64_t)i, 1, len);
		else if (dt == ACL_DOUBLE)
			ops_load_f64((double *)dst + i, src, dt, (int64_t)i, 1, len);
		else
			ops_load_f32((float *)dst + i, src, dt, i, len);
	}
	return VOPS_RUN_OK;
}

/* ---- products ------------------------------------------------------------------ */

struct mm_pieces {
	const struct nn_mm *j;
	const void *a, *b;		/* the operands the products read */
	void *wide;			/* the wide output (fp16, bf16, integers), or NULL */
	uint64_t rb, nrb;		/* rows per piece, pieces per matrix */
};

static enum vops_run_status mm_piece(const void *ctx, struct ops_runner *r, uint64_t t)
{
	const struct mm_pieces *p = ctx;
	const struct nn_mm *j = p->j;
	uint64_t bi = t / p->nrb, i0 = t % p->nrb * p->rb, mi = ops_min(p->rb, j->m - i0);
	uint64_t m = j->m, n = j->n, k = j->k, ao = 0, bo = 0, x = bi, coff, i, l, c;
	int d;

	if (ops_should_stop(r))
		return VOPS_RUN_CANCELED;
	for (d = j->nb - 1; d >= 0; d--) {
		uint64_t e = (uint64_t)j->bdims[d];

		ao += x % e * (uint64_t)j->ast[d];
		bo += x % e * (uint64_t)j->bst[d];
		x /= e;
	}
	ao *= m * k;
	bo *= k * n;
	coff = (bi * m + i0) * n;
	if (j->dt == ACL_DOUBLE || j->dt == ACL_FLOAT || ops_lowp(j->dt)) {
		bool f64 = j->dt == ACL_DOUBLE;
		void *cp = p->wide ? (float *)p->wide + coff :
			f64 ? (void *)((double *)j->out + coff) : (void *)((float *)j->out + coff);
		size_t es = f64 ? 8 : 4;
		const char *pa = (const char *)p->a + (ao + (j->ta ? i0 : i0 * k)) * es;
		const char *pb = (const char *)p->b + bo * es;
		int lda = (int)(j->ta ? m : k), ldb = (int)(j->tb ? k : n);

		if (!k)
			memset(cp, 0, mi * n * es);
		else if (f64)
			cblas_dgemm(CblasRowMajor, j->ta ? CblasTrans : CblasNoTrans,
				    j->tb ? CblasTrans : CblasNoTrans, (int)mi, (int)n, (int)k, j->alpha,
				    (const double *)pa, lda ? lda : 1, (const double *)pb, ldb ? ldb : 1,
				    0.0, cp, (int)n);
		else
			cblas_sgemm(CblasRowMajor, j->ta ? CblasTrans : CblasNoTrans,
				    j->tb ? CblasTrans : CblasNoTrans, (int)mi, (int)n, (int)k,
				    (float)j->alpha, (const float *)pa, lda ? lda : 1,
				    (const float *)pb, ldb ? ldb : 1, 0.0f, cp, (int)n);
		for (i = 0; j->cm && i < mi; i++)
			for (c = 0; c < n; c++) {
				double cv = ops_get_f64(j->cm, j->dt, (int64_t)((i0 + i) *
							(uint64_t)j->cst[0] + c * (uint64_t)j->cst[1]));

				if (f64)
					((double *)cp)[i * n + c] += j->beta * cv;
				else
					((float *)cp)[i * n + c] = (float)((double)((float *)cp)[i * n + c] +
									j->beta * cv);
			}
		if (p->wide)
			ops_store_f32(j->out, j->dt, coff, cp, mi * n);
		return VOPS_RUN_OK;
	}
	/* integers: i-k-j in int64, wrapping */
	{
		const int64_t *A = (const int64_t *)p->a + ao, *B = (const int64_t *)p->b + bo;
		uint64_t *C = (uint64_t *)p->wide + coff;

		memset(C, 0, mi * n * sizeof(*C));
		for (i = 0; i < mi; i++)
			for (l = 0; l < k; l++) {
				uint64_t av = (uint64_t)(j->ta ? A[l * m + i0 + i] : A[(i0 + i) * k + l]);

				for (c = 0; c < n; c++)
					C[i * n + c] += av * (uint64_t)(j->tb ? B[c * k + l] : B[l * n + c]);
			}
		ops_store_i64(j->out, j->dt, (int64_t)coff, 1, (const int64_t *)C, mi * n);
	}
	return VOPS_RUN_OK;
}

static enum vops_run_status nn_mm_run(struct nn_mm *j, struct ops_runner *r)
{
	struct mm_pieces p = { .j = j, .a = j->a, .b = j->b };
	uint64_t row = j->n * j->k;
	enum vops_run_status st;

	if (j->dt != ACL_FLOAT && j->dt != ACL_DOUBLE) {
		bool i64 = !ops_lowp(j->dt);
		size_t es = i64 ? 8 : 4;
		char *ws = j->ws;

		st = widen(ws, i64, j->a, j->dt, j->ca, r);
		if (!st)
			st = widen(ws + j->ca * es, i64, j->b, j->dt, j->cb, r);
		if (st)
			return st;
		p.a = ws;
		p.b = ws + j->ca * es;
		p.wide = ws + (j->ca + j->cb) * es;
	}
	p.rb = ops_min(j->m, row ? (NN_PIECE_WORK / row ? NN_PIECE_WORK / row : 1) : j->m);
	p.rb = p.rb ? p.rb : 1;
	p.nrb = (j->m + p.rb - 1) / p.rb;
	return ops_run_pieces(r, j->nbatch * p.nrb, true, mm_piece, &p);
}

/* ---- convolution ----------------------------------------------------------------- */

/* Sizes of a convolution: BLAS takes int dimensions. */
static bool nn_conv_fits(const struct nn_win *w, bool transpose)
{
	uint64_t kc = (uint64_t)(w->c / w->groups) * sp3(w->k);
	uint64_t work;

	(void)transpose;
	if (kc >= INT32_MAX || sp3(w->out) >= INT32_MAX || sp3(w->in) >= INT32_MAX ||
	    (uint64_t)w->m >= INT32_MAX)
		return false;
	/* the loops' total: within 2^62 */
	return ops_mul(kc, sp3(w->out), &work) && ops_mul(work, (uint64_t)w->m, &work) &&
	       ops_mul(work, (uint64_t)w->n, &work) && ops_mul(work, sp3(w->in), &work);
}

/* Columns per block of an im2col convolution. */
static uint64_t conv_cb(const struct nn_win *w)
{
	uint64_t mg = (uint64_t)(w->m / w->groups), kc = (uint64_t)(w->c / w->groups) * sp3(w->k);
	uint64_t ohw = sp3(w->out), cb = NN_PIECE_WORK / (mg * kc > 0 ? mg * kc : 1);

	cb = cb / 16 * 16;
	cb = cb < 16 ? 16 : cb;
	return ops_min(cb, ohw ? ohw : 1);
}

/* True when an fp32 convolution reads x as its own column matrix. */
static bool conv_pointwise(const struct nn_win *w, int32_t dt)
{
	int i;

	for (i = 0; i < 3; i++)
		if (w->k[i] != 1 || w->s[i] != 1 || w->pb[i] || w->pe[i])
			return false;
	return dt == ACL_FLOAT;
}

static uint64_t conv_blocks(const struct nn_win *w)
{
	return (sp3(w->out) + conv_cb(w) - 1) / conv_cb(w);
}

/* Floats of one slot: a column block and, for fp16/bf16, an output tile. */
static uint64_t conv_slot(const struct nn_win *w, int32_t dt)
{
	uint64_t kc = (uint64_t)(w->c / w->groups) * sp3(w->k), cb = conv_cb(w);

	return (conv_pointwise(w, dt) ? 0 : kc * cb) +
	       (ops_lowp(dt) ? (uint64_t)(w->m / w->groups) * cb : 0);
}

static uint64_t conv_slots(const struct nn_win *w)
{
	uint64_t total = (uint64_t)w->n * (uint64_t)w->groups * conv_blocks(w);

	return ops_min(total, NN_SLOTS);
}

static bool nn_conv_ws(const struct nn_win *w, bool transpose, int32_t dt, uint64_t *ws)
{
	uint64_t cx, cf, cy, n;

	*ws = 0;
	cx = (uint64_t)w->n * (uint64_t)w->c * sp3(w->in);
	cf = (uint64_t)w->c * (uint64_t)(w->m / w->groups) * sp3(w->k);
	cy = (uint64_t)w->n * (uint64_t)w->m * sp3(w->out);
	if (cx > VOPS_MAX_BYTES || cf > VOPS_MAX_BYTES || cy > VOPS_MAX_BYTES)
		return false;
	if (transpose)
		return ops_bytes(cx + cf + cy, 8, ws);
	if (dt == ACL_DOUBLE)
		return true;
	if (!ops_mul(conv_slots(w), conv_slot(w, dt), &n) || n > VOPS_MAX_BYTES)
		return false;
	return ops_bytes(n + (ops_lowp(dt) ? cf : 0), 4, ws);
}

struct conv_pieces {
	const struct nn_win *w;
	int32_t dt;
	const void *x, *bias;
	const float *f;			/* the filter as fp32 */
	void *y;
	float *slots;
	uint64_t slot, cb, nblk, first;
};

/* x element @i (fp32, fp16 or bf16) as fp32. */
static inline float conv_x(const void *x, int32_t dt, uint64_t i)
{
	if (dt == ACL_FLOAT)
		return ((const float *)x)[i];
	if (dt == ACL_FLOAT16)
		return vops_f16_to_f32(((const uint16_t *)x)[i]);
	return vops_bf16_to_f32(((const uint16_t *)x)[i]);
}

/* Rows [0, kc) x columns [j0, j0 + nj) of image @n, group @g's column matrix into @col. */
static void im2col(const struct conv_pieces *p, uint64_t n, uint64_t g, uint64_t j0, uint64_t nj,
		   float *col)
{
	const struct nn_win *w = p->w;
	uint64_t cg = (uint64_t)(w->c / w->groups), kp = sp3(w->k), ihw = sp3(w->in), row;
	uint64_t xoff = (n * (uint64_t)w->c + g * cg) * ihw;

	for (row = 0; row < cg * kp; row++) {
		uint64_t ch = row / kp, kk = row % kp, q = j0, jj;
		int64_t kx = (int64_t)(kk % (uint64_t)w->k[2]), ky = (int64_t)(kk / (uint64_t)w->k[2] %
					(uint64_t)w->k[1]), kz = (int64_t)(kk / (uint64_t)(w->k[2] * w->k[1]));
		int64_t ox = (int64_t)(q % (uint64_t)w->out[2]);
		int64_t oy = (int64_t)(q / (uint64_t)w->out[2] % (uint64_t)w->out[1]);
		int64_t oz = (int64_t)(q / (uint64_t)(w->out[2] * w->out[1]));
		uint64_t base = xoff + ch * ihw;
		float *dst = col + row * nj;

		for (jj = 0; jj < nj; jj++) {
			int64_t iz = oz * w->s[0] - w->pb[0] + kz * w->d[0];
			int64_t iy = oy * w->s[1] - w->pb[1] + ky * w->d[1];
			int64_t ix = ox * w->s[2] - w->pb[2] + kx * w->d[2];

			if (iz < 0 || iz >= w->in[0] || iy < 0 || iy >= w->in[1] || ix < 0 ||
			    ix >= w->in[2])
				dst[jj] = 0;
			else
				dst[jj] = conv_x(p->x, p->dt, base + (uint64_t)((iz * w->in[1] + iy) *
									       w->in[2] + ix));
			if (++ox == w->out[2]) {
				ox = 0;
				if (++oy == w->out[1]) {
					oy = 0;
					oz++;
				}
			}
		}
	}
}

static enum vops_run_status conv_piece(const void *ctx, struct ops_runner *r, uint64_t i)
{
	const struct conv_pieces *p = ctx;
	const struct nn_win *w = p->w;
	uint64_t t = p->first + i, blk = t % p->nblk, g = t / p->nblk % (uint64_t)w->groups;
	uint64_t n = t / p->nblk / (uint64_t)w->groups, ohw = sp3(w->out), j0 = blk * p->cb;
	uint64_t nj = ops_min(p->cb, ohw - j0), mg = (uint64_t)(w->m / w->groups);
	uint64_t kc = (uint64_t)(w->c / w->groups) * sp3(w->k), mo, jj;
	uint64_t yoff = (n * (uint64_t)w->m + g * mg) * ohw + j0;
	float *col = p->slots + i * p->slot, *out;
	const float *B;
	int ldb, ldc;

	if (ops_should_stop(r))
		return VOPS_RUN_CANCELED;
	if (conv_pointwise(w, p->dt)) {
		B = (const float *)p->x + (n * (uint64_t)w->c + g * kc) * ohw + j0;
		ldb = (int)ohw;
	} else {
		im2col(p, n, g, j0, nj, col);
		B = col;
		ldb = (int)nj;
	}
	if (p->dt == ACL_FLOAT) {
		out = (float *)p->y + yoff;
		ldc = (int)ohw;
	} else {
		out = col + (conv_pointwise(w, p->dt) ? 0 : kc * p->cb);
		ldc = (int)nj;
	}
	cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)mg, (int)nj, (int)kc, 1.0f,
		    p->f + g * mg * kc, (int)kc, B, ldb, 0.0f, out, ldc);
	for (mo = 0; mo < mg; mo++) {
		float *o = out + mo * (uint64_t)ldc;

		if (p->bias) {
			float bv = conv_x(p->bias, p->dt, g * mg + mo);

			for (jj = 0; jj < nj; jj++)
				o[jj] += bv;
		}
		if (p->dt != ACL_FLOAT)
			ops_store_f32(p->y, p->dt, yoff + mo * ohw, o, nj);
	}
	return VOPS_RUN_OK;
}

/* A direct convolution in double (ACL_DOUBLE). */
static enum vops_run_status conv_direct_f64(const struct nn_win *w, const double *x,
					    const double *f, const double *bias, double *y,
					    struct ops_runner *r)
{
	int64_t cg = w->c / w->groups, mg = w->m / w->groups, n, mo, oz, oy, ox, ci, kz, ky, kx;
	uint64_t done = NN_STOP_WORK, row = (uint64_t)cg * sp3(w->k) * (uint64_t)w->out[2];

	for (n = 0; n < w->n; n++)
		for (mo = 0; mo < w->m; mo++)
			for (oz = 0; oz < w->out[0]; oz++)
				for (oy = 0; oy < w->out[1]; oy++) {
					double *yr = y + ((n * w->m + mo) * w->out[0] + oz) * w->out[1] *
						w->out[2] + oy * w->out[2];
					int64_t g = mo / mg;

					if (done >= NN_STOP_WORK) {
						if (ops_should_stop(r))
							return VOPS_RUN_CANCELED;
						done = 0;
					}
					done += row + 1;
					for (ox = 0; ox < w->out[2]; ox++) {
						double acc = bias ? bias[mo] : 0;

						for (ci = 0; ci < cg; ci++)
						for (kz = 0; kz < w->k[0]; kz++) {
							int64_t iz = oz * w->s[0] - w->pb[0] + kz * w->d[0];

							if (iz < 0 || iz >= w->in[0])
								continue;
							for (ky = 0; ky < w->k[1]; ky++) {
								int64_t iy = oy * w->s[1] - w->pb[1] +
									ky * w->d[1];

								if (iy < 0 || iy >= w->in[1])
									continue;
								for (kx = 0; kx < w->k[2]; kx++) {
									int64_t ix = ox * w->s[2] - w->pb[2] +
										kx * w->d[2];

									if (ix < 0 || ix >= w->in[2])
										continue;
									acc += x[(((n * w->c + g * cg + ci) *
										   w->in[0] + iz) * w->in[1] +
										  iy) * w->in[2] + ix] *
									       f[(((mo * cg + ci) * w->k[0] +
										   kz) * w->k[1] + ky) *
										 w->k[2] + kx];
								}
							}
						}
						yr[ox] = acc;
					}
				}
	return VOPS_RUN_OK;
}

/*
 * A transposed convolution in double: every input element scattered
 * through the filter into the output (any float type, widened).
 */
static enum vops_run_status convt_f64(const struct nn_win *w, const double *x, const double *f,
				      const void *bias, int32_t dt, double *y, struct ops_runner *r)
{
	int64_t cg = w->c / w->groups, mg = w->m / w->groups, n, ci, iz, iy, ix, mo, kz, ky, kx;
	uint64_t done = NN_STOP_WORK, per = (uint64_t)mg * sp3(w->k) + 1, ohw = sp3(w->out), i;

	for (n = 0; n < w->n; n++)
		for (mo = 0; mo < w->m; mo++)
			for (i = 0; i < ohw; i++)
				y[(uint64_t)(n * w->m + mo) * ohw + i] = bias ? ops_get_f64(bias, dt, mo) : 0;
	for (n = 0; n < w->n; n++)
	for (ci = 0; ci < w->c; ci++) {
		int64_t g = ci / cg;

		for (iz = 0; iz < w->in[0]; iz++)
		for (iy = 0; iy < w->in[1]; iy++)
		for (ix = 0; ix < w->in[2]; ix++) {
			double xv = x[(((n * w->c + ci) * w->in[0] + iz) * w->in[1] + iy) * w->in[2] + ix];

			if (done >= NN_STOP_WORK) {
				if (ops_should_stop(r))
					return VOPS_RUN_CANCELED;
				done = 0;
			}
			done += per;
			for (mo = 0; mo < mg; mo++) {
				const double *fk = f + (uint64_t)(ci * mg + mo) * sp3(w->k);
				double *yc = y + (uint64_t)(n * w->m + g * mg + mo) * ohw;

				for (kz = 0; kz < w->k[0]; kz++) {
					int64_t oz = iz * w->s[0] - w->pb[0] + kz * w->d[0];

					if (oz < 0 || oz >= w->out[0])
						continue;
					for (ky = 0; ky < w->k[1]; ky++) {
						int64_t oy = iy * w->s[1] - w->pb[1] + ky * w->d[1];

						if (oy < 0 || oy >= w->out[1])
							continue;
						for (kx = 0; kx < w->k[2]; kx++) {
							int64_t ox = ix * w->s[2] - w->pb[2] + kx * w->d[2];

							if (ox < 0 || ox >= w->out[2])
								continue;
							yc[(oz * w->out[1] + oy) * w->out[2] + ox] +=
								xv * fk[(kz * w->k[1] + ky) * w->k[2] + kx];
						}
					}
				}
			}
		}
	}
	return VOPS_RUN_OK;
}

/* Store @n doubles into @dst (type @dt) a chunk at a time. */
static enum vops_run_status store_f64(void *dst, int32_t dt, const double *src, uint64_t n,
				      struct ops_runner *r)
{
	uint64_t i, len;

	for (i = 0; i < n; i += len) {
		len = ops_min(OPS_EW_CHUNK, n - i);
		if (ops_should_stop(r))
			return VOPS_RUN_CANCELED;
		ops_store_f64(dst, dt, (int64_t)i, 1, src + i, len);
	}
	return VOPS_RUN_OK;
}

static enum vops_run_status nn_conv_run(const struct nn_win *w, bool transpose, int32_t dt,
					const void *x, const void *f, const void *bias, void *y,
					void *ws, struct ops_runner *r)
{
	uint64_t cx = (uint64_t)w->n * (uint64_t)w->c * sp3(w->in);
	uint64_t cf = (uint64_t)w->c * (uint64_t)(w->m / w->groups) * sp3(w->k);
	uint64_t cy = (uint64_t)w->n * (uint64_t)w->m * sp3(w->out), total;
	struct conv_pieces p = { .w = w, .dt = dt, .x = x, .bias = bias, .f = f, .y = y };
	enum vops_run_status st;

	if (transpose) {
		double *dx = ws, *df = dx + cx, *dy = df + cf;
		uint64_t i, len;

		for (i = 0; i < cx + cf; i += len) {
			bool inx = i < cx;

			len = ops_min(OPS_EW_CHUNK, (inx ? cx : cx + cf) - i);
			if (ops_should_stop(r))
				return VOPS_RUN_CANCELED;
			ops_load_f64(dx + i, inx ? x : f, dt, (int64_t)(inx ? i : i - cx), 1, len);
		}
		st = convt_f64(w, dx, df, bias, dt, dy, r);
		return st ? st : store_f64(y, dt, dy, cy, r);
	}
	if (dt == ACL_DOUBLE)
		return conv_direct_f64(w, x, f, bias, y, r);
	p.cb = conv_cb(w);
	p.nblk = conv_blocks(w);
	p.slot = conv_slot(w, dt);
	p.slots = ws;
	if (ops_lowp(dt)) {
		float *wf = (float *)ws + conv_slots(w) * p.slot;

		st = widen(wf, false, f, dt, cf, r);
		if (st)
			return st;
		p.f = wf;
	}
	total = (uint64_t)w->n * (uint64_t)w->groups * p.nblk;
	for (p.first = 0; p.first < total; p.first += NN_SLOTS) {
		st = ops_run_pieces(r, ops_min(NN_SLOTS, total - p.first), true, conv_piece, &p);
		if (st)
			return st;
	}
	return VOPS_RUN_OK;
}

/* ---- pooling ---------------------------------------------------------------------- */

static bool nn_pool_ws(const struct nn_win *w, uint64_t *ws)
{
	return ops_bytes(sp3(w->in) + sp3(w->out), 8, ws);
}

/* Window start and end (exclusive, in the padded span) of output @o on axis @a. */
static void pool_span(const struct nn_win *w, int a, int64_t o, int64_t *lo, int64_t *hi)
{
	*lo = o * w->s[a] - w->pb[a];
	*hi = *lo + (w->k[a] - 1) * w->d[a] + 1;
}

static enum vops_run_status nn_pool_run(const struct nn_win *w, bool max, int32_t dt, const void *x,
					void *y, int64_t *idx, void *ws, struct ops_runner *r)
{
	bool ints = !ops_dt_float(dt);
	uint64_t ihw = sp3(w->in), ohw = sp3(w->out), plane, done = NN_STOP_WORK;
	uint64_t win = sp3(w->k);
	double *fin = ws, *fout = fin + ihw;
	int64_t *iin = ws, *iout = iin + ihw;

	for (plane = 0; plane < (uint64_t)w->n * (uint64_t)w->c; plane++) {
		uint64_t q = 0;
		int64_t oz, oy, ox;

		if (ints)
			ops_load_i64(iin, x, dt, (int64_t)(plane * ihw), 1, ihw);
		else
			ops_load_f64(fin, x, dt, (int64_t)(plane * ihw), 1, ihw);
		for (oz = 0; oz < w->out[0]; oz++)
		for (oy = 0; oy < w->out[1]; oy++)
		for (ox = 0; ox < w->out[2]; ox++, q++) {
			int64_t lo[3], hi[3], iz, iy, ix, best = -1, cnt = 0;
			double acc = max ? -INFINITY : 0;
			int64_t iacc = INT64_MIN;

			if (done >= NN_STOP_WORK) {
				if (ops_should_stop(r))
					return VOPS_RUN_CANCELED;
				done = 0;
			}
			done += win + 1;
			pool_span(w, 0, oz, &lo[0], &hi[0]);
			pool_span(w, 1, oy, &lo[1], &hi[1]);
			pool_span(w, 2, ox, &lo[2], &hi[2]);
			for (iz = lo[0]; iz < hi[0]; iz += w->d[0])
			for (iy = lo[1]; iy < hi[1]; iy += w->d[1])
			for (ix = lo[2]; ix < hi[2]; ix += w->d[2]) {
				int64_t at;

				if (iz < 0 || iz >= w->in[0] || iy < 0 || iy >= w->in[1] || ix < 0 ||
				    ix >= w->in[2])
					continue;
				at = (iz * w->in[1] + iy) * w->in[2] + ix;
				cnt++;
				if (!max)
					acc += fin[at];
				else if (ints ? iin[at] > iacc || best < 0 : fin[at] > acc || best < 0 ||
					 (isnan(fin[at]) && !isnan(acc))) {
					if (ints)
						iacc = iin[at];
					else
						acc = fin[at];
					best = (w->flags & NN_POOL_COLMAJOR) ?
						iz + w->in[0] * (iy + w->in[1] * ix) : at;
				}
			}
			if (!max) {
				int64_t div = w->divisor ? w->divisor : cnt;

				if (!w->divisor && !(w->flags & NN_POOL_EXCL)) {
					/* the window's positions inside the padded span */
					int64_t cz = 0, cy = 0, cx = 0;

					for (iz = lo[0]; iz < hi[0]; iz += w->d[0])
						cz += iz < w->in[0] + w->pe[0];
					for (iy = lo[1]; iy < hi[1]; iy += w->d[1])
						cy += iy < w->in[1] + w->pe[1];
					for (ix = lo[2]; ix < hi[2]; ix += w->d[2])
						cx += ix < w->in[2] + w->pe[2];
					div = cz * cy * cx;
				}
				acc = div ? acc / (double)div : NAN;
			}
			if (ints)
				iout[q] = iacc;
			else
				fout[q] = acc;
			if (idx)
				idx[plane * ohw + q] = best < 0 ? 0 : (int64_t)(plane * ihw) + best;
		}
		if (ints)
			ops_store_i64(y, dt, (int64_t)(plane * ohw), 1, iout, ohw);
		else
			ops_store_f64(y, dt, (int64_t)(plane * ohw), 1, fout, ohw);
	}
	return VOPS_RUN_OK;
}

/* ---- einsum ------------------------------------------------------------------------- */

static enum vops_run_status nn_einsum_run(const struct ops_call *c, const struct nn_ein *e,
					  const struct ops_bufs *b, struct ops_runner *r)
{
	int32_t dt = c->in[0].dtype;
	bool ints = !ops_dt_float(dt);
	uint64_t cnt[VOPS_MAX_INPUTS], at = 0, outn = 1, sumn = 1, o, s, done = NN_STOP_WORK;
	const char *base[VOPS_MAX_INPUTS];
	int64_t oidx[VOPS_MAX_RANK], sidx[EIN_LETTERS], ooff[VOPS_MAX_INPUTS], soff[VOPS_MAX_INPUTS];
	char *ws = b->ws, *res;
	int k, d;

	for (k = 0; k < e->nop; k++) {
		enum vops_run_status st;

		ops_count(&c->in[k], &cnt[k]);
		base[k] = ws + at * 8;
		st = ints ? widen(ws + at * 8, true, b->in[k], dt, cnt[k], r) : VOPS_RUN_OK;
		for (uint64_t i = 0, len; !ints && i < cnt[k]; i += len) {
			len = ops_min(OPS_EW_CHUNK, cnt[k] - i);
			if (ops_should_stop(r))
				return VOPS_RUN_CANCELED;
			ops_load_f64((double *)(ws + at * 8) + i, b->in[k], dt, (int64_t)i, 1, len);
		}
		if (st)
			return st;
		at += cnt[k];
		ooff[k] = 0;
	}
	res = ws + at * 8;
	for (d = 0; d < e->nout; d++) {
		outn *= (uint64_t)e->dim[e->out[d]];
		oidx[d] = 0;
	}
	for (d = 0; d < e->nsum; d++)
		sumn *= (uint64_t)e->dim[e->sum[d]];
	for (o = 0; o < outn; o++) {
		double facc = 0;
		uint64_t iacc = 0;

		if (done >= NN_STOP_WORK) {
			if (ops_should_stop(r))
				return VOPS_RUN_CANCELED;
			done = 0;
		}
		done += sumn * (uint64_t)e->nop + 1;
		for (k = 0; k < e->nop; k++)
			soff[k] = ooff[k];
		for (d = 0; d < e->nsum; d++)
			sidx[d] = 0;
		for (s = 0; s < sumn; s++) {
			double fp = 1;
			uint64_t ip = 1;

			for (k = 0; k < e->nop; k++) {
				if (ints)
					ip *= (uint64_t)((const int64_t *)base[k])[soff[k]];
				else
					fp *= ((const double *)base[k])[soff[k]];
			}
			facc += fp;
			iacc += ip;
			/* the summed letters' odometer */
			for (d = e->nsum - 1; d >= 0; d--) {
				int l = e->sum[d];

				for (k = 0; k < e->nop; k++)
					soff[k] += e->st[k][l];
				if (++sidx[d] < e->dim[l])
					break;
				for (k = 0; k < e->nop; k++)
					soff[k] -= e->st[k][l] * e->dim[l];
				sidx[d] = 0;
			}
		}
		if (ints)
			((uint64_t *)res)[o] = iacc;
		else
			((double *)res)[o] = facc;
		for (d = e->nout - 1; d >= 0; d--) {
			int l = e->out[d];

			for (k = 0; k < e->nop; k++)
				ooff[k] += e->st[k][l];
			if (++oidx[d] < e->dim[l])
				break;
			for (k = 0; k < e->nop; k++)
				ooff[k] -= e->st[k][l] * e->dim[l];
			oidx[d] = 0;
		}
	}
	if (ints) {
		ops_store_i64(b->out[0], dt, 0, 1, (const int64_t *)res, outn);
		return VOPS_RUN_OK;
	}
	return store_f64(b->out[0], dt, (const double *)res, outn, r);
}

static enum vops_err bad_params(const struct ops_call *c, struct vops_error *err)
{
	return ops_fail(err, VOPS_ERR_ATTR, "%s: %u int and %u float parameters do not describe a call",
			c->def->name, c->at.pr.ni, c->at.pr.nf);
}

/* Every input's dimensions within VOPS_MAX_DIM, its elements within 2^40: the
 * products below stay in range. */
static enum vops_err inputs_ok(const struct ops_call *c, struct vops_error *err)
{
	uint64_t n;
	int i, d;

	for (i = 0; i < c->nin; i++) {
		for (d = 0; d < c->in[i].ndim; d++)
			if ((uint64_t)c->in[i].dims[d] > VOPS_MAX_DIM)
				return ops_too_large(c->def, err);
		if (!ops_count(&c->in[i], &n) || n > VOPS_MAX_BYTES)
			return ops_too_large(c->def, err);
	}
	return VOPS_OK;
}

/* ---- attribute helpers --------------------------------------------------------- */

/* List @name of exactly @n ints into @v; absent: @dflt (NULL: required). */
static enum vops_err list_n(const struct ops_call *c, const struct vops_attr *at, unsigned int na,
			    const char *name, int n, const int64_t *dflt, int64_t *v,
			    struct vops_error *err)
{
	int cnt;
	enum vops_err ret = ops_attr_ints(c->def, at, na, name, !dflt, v, 8, &cnt, err);

	if (ret)
		return ret;
	if (cnt < 0) {
		memcpy(v, dflt, (size_t)n * sizeof(*v));
		return VOPS_OK;
	}
	if (cnt != n)
		return ops_fail(err, VOPS_ERR_ATTR, "%s: attribute %s has %d values, want %d",
				c->def->name, name, cnt, n);
	return VOPS_OK;
}

/* data_format: CANN's default is channels-last; vnpu computes channels-first only. */
static enum vops_err check_format(const struct ops_call *c, const struct vops_attr *at,
				  unsigned int na, const char *dflt, const char *want,
				  struct vops_error *err)
{
	const char *f;
	enum vops_err ret = ops_attr_str(c->def, at, na, "data_format", dflt, &f, err);

	if (!ret && strcmp(f, want))
		ret = ops_fail(err, VOPS_ERR_ATTR, "%s: data_format %s is not supported (vnpu: %s)",
			       c->def->name, f, want);
	return ret;
}

static enum vops_err check_offset(const struct ops_call *c, const struct vops_attr *at,
				  unsigned int na, struct vops_error *err)
{
	int64_t off;
	enum vops_err ret = ops_attr_int(c->def, at, na, "offset_x", 0, &off, err);

	if (!ret && off)
		ret = ops_fail(err, VOPS_ERR_ATTR, "%s: offset_x must be 0 (no quantisation)",
			       c->def->name);
	return ret;
}

static bool all_params(struct ops_call *c, const int64_t *v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!ops_param_i(c, v[i]))
			return false;
	return true;
}

/* ---- BatchMatMulV2 --------------------------------------------------------------- */

static const char *const bmm_attrs[] = { "adj_x1", "adj_x2", "offset_x", NULL };

static enum vops_err bmm_parse(struct ops_call *c, const struct vops_attr *at, unsigned int na,
			       struct vops_error *err)
{
	bool a1, a2;
	enum vops_err ret = ops_attr_bool(c->def, at, na, "adj_x1", false, &a1, err);

	if (!ret)
		ret = ops_attr_bool(c->def, at, na, "adj_x2", false, &a2, err);
	if (!ret)
		ret = check_offset(c, at, na, err);
	if (!ret) {
		ops_param_i(c, a1);
		ops_param_i(c, a2);
	}
	return ret;
}

/* The shape of a product: m, n, k, batch axes and strides (in matrices). */
static enum vops_err bmm_shape(const struct ops_call *c, bool ta, bool tb, struct nn_mm *j,
			       int *ondim, int64_t *odims, struct vops_error *err)
{
	const struct vops_tensor *x1 = &c->in[0], *x2 = &c->in[1];
	int r1 = x1->ndim, r2 = x2->ndim, b1, b2, d;
	int64_t k2, s1 = 1, s2 = 1;
	char sa[96], sb[96];

	if (r1 < 1 || r2 < 1)
		return ops_fail(err, VOPS_ERR_INPUT, "%s: x1 %s and x2 %s must have 1 dimension at least",
				c->def->name, vops_shape_str(sa, sizeof(sa), r1, x1->dims),
				vops_shape_str(sb, sizeof(sb), r2, x2->dims));
	ta = ta && r1 > 1;
	tb = tb && r2 > 1;
	j->ta = ta;
	j->tb = tb;
	if (r1 == 1) {
		j->m = 1;
		j->k = (uint64_t)x1->dims[0];
	} else {
		j->m = (uint64_t)x1->dims[r1 - (ta ? 1 : 2)];
		j->k = (uint64_t)x1->dims[r1 - (ta ? 2 : 1)];
	}
	k2 = r2 == 1 ? x2->dims[0] : x2->dims[r2 - (tb ? 1 : 2)];
	j->n = r2 == 1 ? 1 : (uint64_t)x2->dims[r2 - (tb ? 2 : 1)];
	if ((uint64_t)k2 != j->k)
		return ops_fail(err, VOPS_ERR_INPUT, "%s: x1 %s%s and x2 %s%s do not agree on the inner "
				"dimension (%" PRIu64 " and %" PRId64 ")", c->def->name,
				vops_shape_str(sa, sizeof(sa), r1, x1->dims), ta ? " (adjoint)" : "",
				vops_shape_str(sb, sizeof(sb), r2, x2->dims), tb ? " (adjoint)" : "",
				j->k, k2);
	if (j->m >= INT32_MAX || j->n >= INT32_MAX || j->k >= INT32_MAX)
		return ops_too_large(c->def, err);
	b1 = r1 > 2 ? r1 - 2 : 0;
	b2 = r2 > 2 ? r2 - 2 : 0;
	j->nb = b1 > b2 ? b1 : b2;
	j->nbatch = 1;
	for (d = j->nb - 1; d >= 0; d--) {
		int i1 = d - (j->nb - b1), i2 = d - (j->nb - b2);
		int64_t e1 = i1 >= 0 ? x1->dims[i1] : 1, e2 = i2 >= 0 ? x2->dims[i2] : 1;

		if (e1 != e2 && e1 != 1 && e2 != 1)
			return ops_fail(err, VOPS_ERR_INPUT, "%s: the batch axes of x1 %s and x2 %s do not "
					"broadcast", c->def->name,
					vops_shape_str(sa, sizeof(sa), r1, x1->dims),
					vops_shape_str(sb, sizeof(sb), r2, x2->dims));
		j->bdims[d] = e1 == 1 ? e2 : e1;
		j->ast[d] = e1 == 1 ? 0 : s1;
		j->bst[d] = e2 == 1 ? 0 : s2;
		s1 *= e1;
		s2 *= e2;
		if (!ops_mul(j->nbatch, (uint64_t)j->bdims[d], &j->nbatch))
			return ops_too_large(c->def, err);
	}
	*ondim = j->nb;
	memcpy(odims, j->bdims, (size_t)j->nb * sizeof(*odims));
	if (r1 > 1)
		odims[(*ondim)++] = (int64_t)j->m;
	if (r2 > 1)
		odims[(*ondim)++] = (int64_t)j->n;
	return VOPS_OK;
}

/* Workspace of a product of type @dt: wide copies of A and B and a wide output. */
static bool mm_ws(int32_t dt, uint64_t ca, uint64_t cb, uint64_t co, uint64_t *ws)
{
	uint64_t es = ops_lowp(dt) ? 4 : 8;

	*ws = 0;
	if (dt == ACL_FLOAT || dt == ACL_DOUBLE)
		return true;
	if (ca > VOPS_MAX_BYTES || cb > VOPS_MAX_BYTES || co > VOPS_MAX_BYTES)
		return false;
	return ops_bytes(ca + cb + co, es, ws);
}

static enum vops_err bmm_infer(const struct ops_call *c, struct vops_plan *p,
			       struct vops_error *err)
{
	int64_t odims[VOPS_MAX_RANK];
	struct nn_mm j;
	uint64_t co;
	enum vops_err ret;
	int ondim, i;

	if (inputs_ok(c, err))
		return inputs_ok(c, err);
	if (c->at.pr.ni != 2 || c->at.pr.nf || (uint64_t)c->at.pr.i[0] > 1 ||
	    (uint64_t)c->at.pr.i[1] > 1)
		return bad_params(c, err);
	ret = bmm_shape(c, c->at.pr.i[0], c->at.pr.i[1], &j, &ondim, odims, err);
	for (i = 0; !ret && i < 2; i++)
		ret = ops_set_in_dense(c, p, i, err);
	if (!ret)
		ret = ops_set_out_n(c, p, 0, c->in[0].dtype, ondim, odims, err);
	if (ret)
		return ret;
	co = p->out[0].bytes / ops_esize(c->in[0].dtype);
	p->empty = co == 0;
	return VOPS_OK;
}

static enum vops_err bmm_workspace(const struct ops_call *c, struct vops_plan *p,
				   struct vops_error *err)
{
	uint64_t ca, cb, co = p->out[0].bytes / ops_esize(c->in[0].dtype);

	ops_count(&c->in[0], &ca);
	ops_count(&c->in[1], &cb);
	p->ws_bytes = 0;
	if (!p->empty && !mm_ws(c->in[0].dtype, ca, cb, co, &p->ws_bytes))
		return ops_too_large(c->def, err);
	return VOPS_OK;
}

static enum vops_run_status bmm_run(const struct ops_call *c, const struct vops_plan *p,
				    const struct ops_bufs *b, struct ops_runner *r)
{
	int64_t odims[VOPS_MAX_RANK];
	struct nn_mm j = { .alpha = 1 };
	int ondim;

	(void)p;
	bmm_shape(c, c->at.pr.i[0], c->at.pr.i[1], &j, &ondim, odims, NULL);
	j.dt = c->in[0].dtype;
	j.a = b->in[0];
	j.b = b->in[1];
	j.out = b->out[0];
	j.ws = b->ws;
	ops_count(&c->in[0], &j.ca);
	ops_count(&c->in[1], &j.cb);
	return nn_mm_run(&j, r);
}

static const struct ops_def def_bmm = {
	.name = "BatchMatMulV2", .id = OPS_ID_NN + 0, .nin = 2, .nout = 1,
	.attr_fmt = OPS_AF_PARAMS, .dtypes = OPS_DT_REAL | OPS_DT_INTS, .attrs = bmm_attrs,
	.parse = bmm_parse, .infer = bmm_infer, .workspace = bmm_workspace, .run = bmm_run,
};

/* ---- GEMM ---------------------------------------------------------------------------- */

static const char *const gemm_attrs[] = { "transpose_a", "transpose_b", NULL };

static enum vops_err gemm_parse(struct ops_call *c, const struct vops_attr *at, unsigned int na,
				struct vops_error *err)
{
	bool ta, tb;
	enum vops_err ret = ops_attr_bool(c->def, at, na, "transpose_a", false, &ta, err);

	if (!ret)
		ret = ops_attr_bool(c->def, at, na, "transpose_b", false, &tb, err);
	if (!ret) {
		ops_param_i(c, ta);
		ops_param_i(c, tb);
	}
	return ret;
}

/* The product's shape and C's strides over [M, N] (0: broadcast). */
static enum vops_err gemm_shape(const struct ops_call *c, struct nn_mm *j, struct vops_error *err)
{
	const struct vops_tensor *a = &c->in[0], *bt = &c->in[1], *ct = &c->in[2];
	char sa[96], sb[96];
	uint64_t k2, n1;
	int i;

	if (a->ndim != 2 || bt->ndim != 2)
		return ops_fail(err, VOPS_ERR_INPUT, "GEMM takes 2-D a and b, got %s and %s",
				vops_shape_str(sa, sizeof(sa), a->ndim, a->dims),
				vops_shape_str(sb, sizeof(sb), bt->ndim, bt->dims));
	for (i = 1; i < 5; i++) {
		const char *name[] = { "a", "b", "c", "alpha", "beta" };

		if (i < 3 && c->in[i].dtype != a->dtype)
			return ops_fail(err, VOPS_ERR_INPUT, "GEMM: %s is %s, a is %s", name[i],
					vops_dtype_name(c->in[i].dtype), vops_dtype_name(a->dtype));
		if (i >= 3 && (!(ops_dtype_bit(c->in[i].dtype) & OPS_DT_NUM) ||
			       !ops_count(&c->in[i], &n1) || n1 != 1))
			return ops_fail(err, VOPS_ERR_INPUT, "GEMM: %s must be one number (%s %s)",
					name[i], vops_dtype_name(c->in[i].dtype),
					vops_shape_str(sa, sizeof(sa), c->in[i].ndim, c->in[i].dims));
	}
	j->ta = c->at.pr.i[0];
	j->tb = c->at.pr.i[1];
	j->m = (uint64_t)a->dims[j->ta ? 1 : 0];
	j->k = (uint64_t)a->dims[j->ta ? 0 : 1];
	k2 = (uint64_t)bt->dims[j->tb ? 1 : 0];
	j->n = (uint64_t)bt->dims[j->tb ? 0 : 1];
	if (k2 != j->k)
		return ops_fail(err, VOPS_ERR_INPUT, "GEMM: a %s%s and b %s%s do not agree on the inner "
				"dimension", vops_shape_str(sa, sizeof(sa), 2, a->dims),
				j->ta ? " (transposed)" : "", vops_shape_str(sb, sizeof(sb), 2, bt->dims),
				j->tb ? " (transposed)" : "");
	if (j->m >= INT32_MAX || j->n >= INT32_MAX || j->k >= INT32_MAX)
		return ops_too_large(c->def, err);
	/* c: unidirectional broadcast to [M, N] */
	j->cst[0] = j->cst[1] = 0;
	for (i = 0; i < ct->ndim && ct->ndim <= 2; i++) {
		uint64_t want = i == ct->ndim - 1 ? j->n : j->m, e = (uint64_t)ct->dims[i];

		if (e != 1 && e != want)
			break;
		if (e != 1)
			j->cst[i == ct->ndim - 1 ? 1 : 0] = i == ct->ndim - 1 ? 1 : ct->dims[ct->ndim - 1];
	}
	if (ct->ndim > 2 || i < ct->ndim)
		return ops_fail(err, VOPS_ERR_INPUT, "GEMM: c %s does not broadcast to [%" PRIu64 ", %"
				PRIu64 "]", vops_shape_str(sa, sizeof(sa), ct->ndim, ct->dims), j->m,
				j->n);
	j->nb = 0;
	j->nbatch = 1;
	return VOPS_OK;
}

static enum vops_err gemm_infer(const struct ops_call *c, struct vops_plan *p,
				struct vops_error *err)
{
	struct nn_mm j;
	int64_t od[2];
	enum vops_err ret;
	int i;

	if (inputs_ok(c, err))
		return inputs_ok(c, err);
	if (c->at.pr.ni != 2 || c->at.pr.nf || (uint64_t)c->at.pr.i[0] > 1 ||
	    (uint64_t)c->at.pr.i[1] > 1)
		return bad_params(c, err);
	ret = gemm_shape(c, &j, err);
	for (i = 0; !ret && i < 5; i++)
		ret = ops_set_in_dense(c, p, i, err);
	od[0] = (int64_t)j.m;
	od[1] = (int64_t)j.n;
	if (!ret)
		ret = ops_set_out_n(c, p, 0, c->in[0].dtype, 2, od, err);
	p->empty = !j.m || !j.n;
	return ret;
}

static enum vops_err gemm_workspace(const struct ops_call *c, struct vops_plan *p,
				    struct vops_error *err)
{
	uint64_t ca, cb;

	ops_count(&c->in[0], &ca);
	ops_count(&c->in[1], &cb);
	p->ws_bytes = 0;
	if (!p->empty && !mm_ws(c->in[0].dtype, ca, cb, p->out[0].bytes / ops_esize(c->in[0].dtype),
				&p->ws_bytes))
		return ops_too_large(c->def, err);
	return VOPS_OK;
}

static enum vops_run_status gemm_run(const struct ops_call *c, const struct vops_plan *p,
				     const struct ops_bufs *b, struct ops_runner *r)
{
	struct nn_mm j;

	(void)p;
	gemm_shape(c, &j, NULL);
	j.dt = c->in[0].dtype;
	j.a = b->in[0];
	j.b = b->in[1];
	j.cm = b->in[2];
	j.out = b->out[0];
	j.ws = b->ws;
	j.alpha = ops_get_f64(b->in[3], c->in[3].dtype, 0);
	j.beta = ops_get_f64(b->in[4], c->in[4].dtype, 0);
	ops_count(&c->in[0], &j.ca);
	ops_count(&c->in[1], &j.cb);
	return nn_mm_run(&j, r);
}

static const struct ops_def def_gemm = {
	.name = "GEMM", .id = OPS_ID_NN + 1, .nin = 5, .nout = 1, .attr_fmt = OPS_AF_PARAMS,
	.flags = OPS_DEF_MIXED, .dtypes = OPS_DT_REAL, .attrs = gemm_attrs, .parse = gemm_parse,
	.infer = gemm_infer, .workspace = gemm_workspace, .run = gemm_run,
};

/* ---- Einsum ---------------------------------------------------------------------------- */

/*
 * Parameters: nops, nletters, out rank, out letters, then per operand its
 * rank and letters; letters are 0 .. nletters - 1 ("..." became letters of
 * their own at parse time).
 */
static const char *const einsum_attrs[] = { "equation", "N", NULL };

/* Letter of character @ch: a-z 0..25, A-Z 26..51; -1 for others. */
static int ein_letter(char ch)
{
	if (ch >= 'a' && ch <= 'z')
		return ch - 'a';
	if (ch >= 'A' && ch <= 'Z')
		return ch - 'A' + 26;
	return -1;
}

/*
 * One term of @eq (@len chars, no spaces) into letters @v (*@n of them);
 * an ellipsis stands for @nell letters from 52 on (the last ones).
 */
static bool ein_term(const char *eq, size_t len, int nell, int64_t *v, int *n, bool *ell)
{
	size_t i;
	int e;

	*n = 0;
	*ell = false;
	for (i = 0; i < len; i++) {
		if (eq[i] == '.') {
			if (*ell || i + 2 >= len || eq[i + 1] != '.' || eq[i + 2] != '.')
				return false;
			*ell = true;
			i += 2;
			for (e = 0; e < nell; e++)
				v[(*n)++] = 52 + (EIN_LETTERS - 52 - nell) + e;
			continue;
		}
		if (ein_letter(eq[i]) < 0 || *n >= VOPS_MAX_RANK)
			return false;
		v[(*n)++] = ein_letter(eq[i]);
	}
	return true;
}

static enum vops_err einsum_parse(struct ops_call *c, const struct vops_attr *at, unsigned int na,
				  struct vops_error *err)
{
	int64_t lv[VOPS_MAX_INPUTS][VOPS_MAX_RANK], out[VOPS_MAX_RANK], nattr;
	int nl[VOPS_MAX_INPUTS], nout = 0, nell = 0, k, i, cnt[EIN_LETTERS] = { 0 };
	const char *s, *arrow;
	char eq[512];
	size_t len = 0, at0, i2;
	bool ell, any_ell = false;
	enum vops_err ret = ops_attr_str(c->def, at, na, "equation", NULL, &s, err);

	if (!ret && !s)
		ret = ops_fail(err, VOPS_ERR_ATTR, "Einsum needs the attribute equation");
	if (!ret)
		ret = ops_attr_int(c->def, at, na, "N", c->nin, &nattr, err);
	if (ret)
		return ret;
	if (nattr != c->nin)
		return ops_fail(err, VOPS_ERR_ATTR, "Einsum: N is %" PRId64 " with %d inputs", nattr,
				c->nin);
	for (i2 = 0; s[i2] && len < sizeof(eq) - 1; i2++)
		if (s[i2] != ' ')
			eq[len++] = s[i2];
	eq[len] = '\0';
	if (s[i2])
		goto bad;
	arrow = strstr(eq, "->");
	at0 = 0;
	for (k = 0; k < c->nin; k++) {
		size_t end = at0;
		int dots;

		while (eq[end] && eq[end] != ',' && (!arrow || eq + end < arrow))
			end++;
		if ((k < c->nin - 1) != (eq[end] == ','))
			goto bad;
		/* letters written in this term: the ellipsis has the rest of the rank */
		dots = strstr(eq + at0, "...") && strstr(eq + at0, "...") < eq + end ? 3 : 0;
		nell = c->in[k].ndim - (int)(end - at0 - (size_t)dots);
		if (dots && (nell < 0 || nell > EIN_LETTERS - 52))
			goto bad;
		if (!ein_term(eq + at0, end - at0, dots ? nell : 0, lv[k], &nl[k], &ell) ||
		    nl[k] != c->in[k].ndim)
			goto bad;
		any_ell = any_ell || ell;
		for (i = 0; i < nl[k]; i++)
			cnt[lv[k][i]]++;
		at0 = end + 1;
	}
	if (arrow) {
		int maxell = 0;

		for (k = 0; k < c->nin; k++)
			for (i = 0; i < nl[k]; i++)
				if (lv[k][i] >= 52 && EIN_LETTERS - (int)lv[k][i] > maxell)
					maxell = EIN_LETTERS - (int)lv[k][i];
		if (!ein_term(arrow + 2, strlen(arrow + 2), maxell, out, &nout, &ell))
			goto bad;
	} else {
		/* implicit: the ellipsis axes, then the letters used once, in order */
		for (i = 52; i < EIN_LETTERS; i++)
			if (cnt[i])
				out[nout++] = i;
		for (i = 26; i < 78; i++)	/* ASCII order: A-Z, then a-z */
			if (cnt[i % 52] == 1)
				out[nout++] = i % 52;
	}
	ops_param_i(c, c->nin);
	ops_param_i(c, EIN_LETTERS);
	ops_param_i(c, nout);
	for (i = 0; i < nout; i++)
		ops_param_i(c, out[i]);
	for (k = 0; k < c->nin; k++)
		if (!ops_param_i(c, nl[k]) || !all_params(c, lv[k], nl[k]))
			return ops_fail(err, VOPS_ERR_ATTR, "Einsum: too many axes in all");
	return VOPS_OK;
bad:
	return ops_fail(err, VOPS_ERR_ATTR, "Einsum: equation \"%s\" does not fit inputs of %d "
			"operands (or is not supported)", s, c->nin);
}

/* The letters' sizes and every operand's strides per letter, from the parameters. */
static enum vops_err einsum_shape(const struct ops_call *c, struct nn_ein *e,
				  struct vops_error *err)
{
	const struct ops_params *pr = &c->at.pr;
	uint32_t at = 3, k, i;
	bool is_out[EIN_LETTERS] = { 0 }, is_in[EIN_LETTERS] = { 0 };

	if (pr->nf || pr->ni < 3 || pr->i[0] != c->nin || pr->i[1] != EIN_LETTERS ||
	    pr->i[2] < 0 || pr->i[2] > VOPS_MAX_RANK || pr->ni < 3 + (uint32_t)pr->i[2])
		return bad_params(c, err);
	memset(e, 0, sizeof(*e));
	e->nout = (int)pr->i[2];
	for (i = 0; i < EIN_LETTERS; i++)
		e->dim[i] = 1;
	for (i = 0; i < (uint32_t)e->nout; i++) {
		int64_t l = pr->i[at++];

		if (l < 0 || l >= EIN_LETTERS || is_out[l])
			return bad_params(c, err);
		is_out[l] = true;
		e->out[i] = (int)l;
	}
	for (k = 0; k < (uint32_t)c->nin; k++) {
		const struct vops_tensor *t = &c->in[k];
		int64_t st = 1;
		int d;

		if (at >= pr->ni || pr->i[at] != t->ndim || pr->ni - at - 1 < (uint32_t)t->ndim)
			return bad_params(c, err);
		at++;
		for (d = t->ndim - 1; d >= 0; d--) {
			int64_t l = pr->i[at + (uint32_t)d], n = t->dims[d];

			if (l < 0 || l >= EIN_LETTERS)
				return bad_params(c, err);
			is_in[l] = true;
			if (n != 1 && e->dim[l] != 1 && e->dim[l] != n)
				return ops_fail(err, VOPS_ERR_INPUT, "Einsum: axis %d of input %u has %"
						PRId64 " elements, another axis of its letter %" PRId64,
						d, k, n, e->dim[l]);
			if (n != 1) {
				e->dim[l] = n;
				e->st[k][l] += st;
			}
			st *= n;
		}
		at += (uint32_t)t->ndim;
	}
	if (at != pr->ni)
		return bad_params(c, err);
	for (i = 0; i < EIN_LETTERS; i++) {
		if (is_in[i] && !is_out[i])
			e->sum[e->nsum++] = (int)i;
		if (is_out[i] && !is_in[i])
			return ops_fail(err, VOPS_ERR_ATTR, "Einsum: an output letter is in no input");
	}
	e->nop = c->nin;
	return VOPS_OK;
}

static enum vops_err einsum_infer(const struct ops_call *c, struct vops_plan *p,
				  struct vops_error *err)
{
	int64_t od[VOPS_MAX_RANK];
	struct nn_ein e;
	uint64_t work = 1;
	enum vops_err ret;
	int i, k;

	if (inputs_ok(c, err))
		return inputs_ok(c, err);
	ret = einsum_shape(c, &e, err);
	if (ret)
		return ret;
	for (i = 0; i < e.nout; i++)
		od[i] = e.dim[e.out[i]];
	for (i = 0; i < EIN_LETTERS; i++)
		if (!ops_mul(work, (uint64_t)e.dim[i], &work) || work > VOPS_MAX_BYTES)
			return ops_too_large(c->def, err);
	for (k = 0; !ret && k < c->nin; k++)
		ret = ops_set_in_dense(c, p, k, err);
	if (!ret)
		ret = ops_set_out_n(c, p, 0, c->in[0].dtype, e.nout, od, err);
	p->empty = ret || p->out[0].bytes == 0;
	return ret;
}

static enum vops_err einsum_workspace(const struct ops_call *c, struct vops_plan *p,
				      struct vops_error *err)
{
	uint64_t n, total = p->out[0].bytes / ops_esize(c->in[0].dtype);
	int k;

	p->ws_bytes = 0;
	if (p->empty)
		return VOPS_OK;
	for (k = 0; k < c->nin; k++) {
		ops_count(&c->in[k], &n);
		total += n;	/* each at most 2^40 */
	}
	if (!ops_bytes(total, 8, &p->ws_bytes))
		return ops_too_large(c->def, err);
	return VOPS_OK;
}

static enum vops_run_status einsum_run(const struct ops_call *c, const struct vops_plan *p,
				       const struct ops_bufs *b, struct ops_runner *r)
{
	struct nn_ein e;

	(void)p;
	einsum_shape(c, &e, NULL);
	return nn_einsum_run(c, &e, b, r);
}

static const struct ops_def def_einsum = {
	.name = "Einsum", .id = OPS_ID_NN + 2, .nin = 1, .nin_max = VOPS_MAX_INPUTS, .nout = 1,
	.attr_fmt = OPS_AF_PARAMS, .dtypes = OPS_DT_REAL | OPS_DT_INTS, .attrs = einsum_attrs,
	.parse = einsum_parse, .infer = einsum_infer, .workspace = einsum_workspace,
	.run = einsum_run,
};

/* ---- convolution ---------------------------------------------------------------------- */

/*
 * Parameters: nsp (spatial axes), groups, then per axis stride, dilation,
 * pad before, pad after; the transposes also output padding and output size.
 */
static const char *const conv_attrs[] = { "strides", "pads", "dilations", "groups", "data_format",
					  "offset_x", NULL };
static const char *const convt_attrs[] = { "input_size", "strides", "pads", "dilations", "groups",
					   "data_format", "output_padding", "offset_x", NULL };

/* Spatial axes of a call of @def on input rank @rank (0: not a rank it takes). */
static int conv_nsp(const struct ops_def *def, int rank)
{
	bool three = strstr(def->name, "3D") != NULL;

	if (three)
		return rank == 5 ? 3 : 0;
	return rank == 4 ? 2 : rank == 3 ? 1 : 0;
}

static enum vops_err conv_parse_common(struct ops_call *c, const struct vops_attr *at,
				       unsigned int na, bool transpose, struct vops_error *err)
{
	static const int64_t ones[5] = { 1, 1, 1, 1, 1 }, zeros[10] = { 0 };
	bool three = strstr(c->def->name, "3D") != NULL;
	int full = three ? 5 : 4, nsp = conv_nsp(c->def, c->in[0].ndim), i, skip;
	int64_t st[5], dl[5], pd[10], op[5], isz[5], groups;
	char s[96];
	enum vops_err ret;

	if (!nsp)
		return ops_fail(err, VOPS_ERR_INPUT, "%s: x %s must be %s", c->def->name,
				vops_shape_str(s, sizeof(s), c->in[0].ndim, c->in[0].dims),
				three ? "5-D (NCDHW)" : "4-D (NCHW) or 3-D (NCW, vnpu)");
	skip = full - 2 - nsp;	/* Conv2D on NCW: H's entries unused */
	ret = list_n(c, at, na, "strides", full, NULL, st, err);
	if (!ret)
		ret = list_n(c, at, na, "pads", 2 * (full - 2), transpose ? zeros : NULL, pd, err);
	if (!ret)
		ret = list_n(c, at, na, "dilations", full, ones, dl, err);
	if (!ret)
		ret = ops_attr_int(c->def, at, na, "groups", 1, &groups, err);
	if (!ret)
		ret = check_format(c, at, na, three ? "NDHWC" : "NHWC", three ? "NCDHW" : "NCHW", err);
	if (!ret)
		ret = check_offset(c, at, na, err);
	if (!ret && transpose)
		ret = list_n(c, at, na, "output_padding", full, zeros, op, err);
	if (!ret && transpose)
		ret = list_n(c, at, na, "input_size", full, NULL, isz, err);
	if (ret)
		return ret;
	if (st[0] != 1 || st[1] != 1 || dl[0] != 1 || dl[1] != 1 ||
	    (skip && (st[2] != 1 || dl[2] != 1 || pd[0] || pd[1])))
		return ops_fail(err, VOPS_ERR_ATTR, "%s: strides and dilations of N and C must be 1%s",
				c->def->name, skip ? " (and of H, pads 0, on NCW input)" : "");
	ops_param_i(c, nsp);
	ops_param_i(c, groups);
	for (i = 0; i < nsp; i++) {
		int a = 2 + skip + i;

		ops_param_i(c, st[a]);
		ops_param_i(c, dl[a]);
		ops_param_i(c, pd[2 * (a - 2)]);
		ops_param_i(c, pd[2 * (a - 2) + 1]);
		if (transpose) {
			ops_param_i(c, op[a]);
			ops_param_i(c, isz[a]);
		}
	}
	if (transpose && (isz[0] != c->in[0].dims[0] || (skip && isz[2] != 1)))
		return ops_fail(err, VOPS_ERR_ATTR, "%s: input_size's N%s disagrees with x",
				c->def->name, skip ? " or H" : "");
	if (transpose && c->nin > 1 && c->in[1].ndim >= 2 &&
	    isz[1] != c->in[1].dims[1] * groups)
		return ops_fail(err, VOPS_ERR_ATTR, "%s: input_size's C %" PRId64 " is not the filter's "
				"%" PRId64 " x groups %" PRId64, c->def->name, isz[1],
				c->in[1].dims[1], groups);
	return VOPS_OK;
}

static enum vops_err conv_parse(struct ops_call *c, const struct vops_attr *at, unsigned int na,
				struct vops_error *err)
{
	return conv_parse_common(c, at, na, false, err);
}

static enum vops_err convt_parse(struct ops_call *c, const struct vops_attr *at, unsigned int na,
				 struct vops_error *err)
{
	return conv_parse_common(c, at, na, true, err);
}

/* The window of a convolution call, from its parameters, checked. */
static enum vops_err conv_win(const struct ops_call *c, bool transpose, struct nn_win *w,
			      struct vops_error *err)
{
	const struct ops_params *pr = &c->at.pr;
	const struct vops_tensor *x = &c->in[0], *f = &c->in[1];
	int per = transpose ? 6 : 4, nsp = conv_nsp(c->def, x->ndim), i;
	int64_t cin, cout;
	char s1[96], s2[96];

	if (!nsp || pr->nf || pr->ni != 2u + (uint32_t)(per * nsp) || pr->i[0] != nsp)
		return bad_params(c, err);
	memset(w, 0, sizeof(*w));
	w->nsp = nsp;
	w->groups = pr->i[1];
	if (f->ndim != x->ndim)
		return ops_fail(err, VOPS_ERR_INPUT, "%s: filter %s must have the rank of x %s",
				c->def->name, vops_shape_str(s1, sizeof(s1), f->ndim, f->dims),
				vops_shape_str(s2, sizeof(s2), x->ndim, x->dims));
	w->n = x->dims[0];
	cin = x->dims[1];
	if (w->groups < 1 || w->groups > NN_MAX || cin % w->groups)
		return ops_fail(err, VOPS_ERR_ATTR, "%s: groups %" PRId64 " does not divide the %" PRId64
				" channels of x", c->def->name, w->groups, cin);
	/* filter: [M, C / g, k...]; transposed: [C, M / g, k...] */
	if (transpose ? f->dims[0] != cin : f->dims[1] * w->groups != cin)
		return ops_fail(err, VOPS_ERR_INPUT, "%s: filter %s does not fit x %s with groups %"
				PRId64, c->def->name, vops_shape_str(s1, sizeof(s1), f->ndim, f->dims),
				vops_shape_str(s2, sizeof(s2), x->ndim, x->dims), w->groups);
	cout = transpose ? f->dims[1] * w->groups : f->dims[0];
	if (!transpose && cout % w->groups)
		return ops_fail(err, VOPS_ERR_INPUT, "%s: the filter's %" PRId64 " output channels are "
				"not a multiple of groups %" PRId64, c->def->name, cout, w->groups);
	w->c = cin;
	w->m = cout;
	for (i = 0; i < 3; i++) {
		w->in[i] = w->out[i] = w->k[i] = w->s[i] = w->d[i] = 1;
		w->pb[i] = w->pe[i] = 0;
	}
	for (i = 0; i < nsp; i++) {
		const int64_t *v = &pr->i[2 + per * i];
		int a = 3 - nsp + i;
		int64_t ext;

		w->in[a] = x->dims[2 + i];
		w->k[a] = f->dims[2 + i];
		w->s[a] = v[0];
		w->d[a] = v[1];
		w->pb[a] = v[2];
		w->pe[a] = v[3];
		if (v[0] < 1 || v[0] > NN_MAX || v[1] < 1 || v[1] > NN_MAX || v[2] < 0 ||
		    v[2] > NN_MAX || v[3] < 0 || v[3] > NN_MAX)
			return ops_fail(err, VOPS_ERR_ATTR, "%s: stride %" PRId64 ", dilation %" PRId64
					" or pads %" PRId64 ", %" PRId64 " of spatial axis %d out of range",
					c->def->name, v[0], v[1], v[2], v[3], i);
		ext = (w->k[a] - 1) * w->d[a] + 1;
		if (!w->k[a])
			return ops_fail(err, VOPS_ERR_INPUT, "%s: the filter is empty", c->def->name);
		if (transpose) {
			/* each term within 2^62: their sum is computed wide */
			__int128 o = (__int128)w->s[a] * (w->in[a] - 1) + v[4] + ext - v[2] - v[3];

			if (v[4] < 0 || (v[4] >= w->s[a] && v[4] >= w->d[a]) || v[5] != o || o < 0 ||
			    !w->in[a])
				return ops_fail(err, VOPS_ERR_ATTR, "%s: output size %" PRId64 " of "
						"spatial axis %d is not the one strides, pads and "
						"output_padding %" PRId64 " give (%" PRId64 ")",
						c->def->name, v[5], i, v[4],
						(int64_t)(o > NN_MAX ? NN_MAX : o < -NN_MAX ? -NN_MAX : o));
			w->out[a] = (int64_t)o;
		} else {
			if (w->in[a] + w->pb[a] + w->pe[a] < ext)
				return ops_fail(err, VOPS_ERR_INPUT, "%s: the filter's extent %" PRId64
						" exceeds the padded input (%" PRId64 ") on axis %d",
						c->def->name, ext, w->in[a] + w->pb[a] + w->pe[a], i);
			w->out[a] = (w->in[a] + w->pb[a] + w->pe[a] - ext) / w->s[a] + 1;
		}
	}
	return VOPS_OK;
}

static enum vops_err conv_infer_common(const struct ops_call *c, struct vops_plan *p,
				       bool transpose, struct vops_error *err)
{
	int64_t od[5];
	struct nn_win w;
	enum vops_err ret;
	char s[96];
	int i;

	if (inputs_ok(c, err))
		return inputs_ok(c, err);
	ret = conv_win(c, transpose, &w, err);
	if (ret)
		return ret;
	if (c->nin == 3 && (c->in[2].ndim != 1 || c->in[2].dims[0] != w.m))
		return ops_fail(err, VOPS_ERR_INPUT, "%s: bias %s must be [%" PRId64 "]", c->def->name,
				vops_shape_str(s, sizeof(s), c->in[2].ndim, c->in[2].dims), w.m);
	od[0] = w.n;
	od[1] = w.m;
	for (i = 0; i < w.nsp; i++)
		od[2 + i] = w.out[3 - w.nsp + i];
	for (i = 0; !ret && i < c->nin; i++)
		ret = ops_set_in_dense(c, p, i, err);
	if (!ret)
		ret = ops_set_out_n(c, p, 0, c->in[0].dtype, c->in[0].ndim, od, err);
	if (!ret && !nn_conv_fits(&w, transpose))
		ret = ops_too_large(c->def, err);
	p->empty = ret || !p->out[0].bytes;
	return ret;
}

static enum vops_err conv_infer(const struct ops_call *c, struct vops_plan *p,
				struct vops_error *err)
{
	return conv_infer_common(c, p, false, err);
}

static enum vops_err convt_infer(const struct ops_call *c, struct vops_plan *p,
				 struct vops_error *err)
{
	return conv_infer_common(c, p, true, err);
}

static enum vops_err conv_workspace(const struct ops_call *c, struct vops_plan *p,
				    struct vops_error *err)
{
	struct nn_win w;
	bool t = strstr(c->def->name, "Transpose") != NULL;

	p->ws_bytes = 0;
	if (p->empty)
		return VOPS_OK;
	conv_win(c, t, &w, NULL);
	if (!nn_conv_ws(&w, t, c->in[0].dtype, &p->ws_bytes))
		return ops_too_large(c->def, err);
	return VOPS_OK;
}

static enum vops_run_status conv_run(const struct ops_call *c, const struct vops_plan *p,
				     const struct ops_bufs *b, struct ops_runner *r)
{
	struct nn_win w;
	bool t = strstr(c->def->name, "Transpose") != NULL;

	(void)p;
	conv_win(c, t, &w, NULL);
	return nn_conv_run(&w, t, c->in[0].dtype, b->in[0], b->in[1], c->nin > 2 ? b->in[2] : NULL,
			   b->out[0], b->ws, r);
}

#define CONV_DEF(nm, i, attrs_, parse_, infer_)						\
	{										\
		.name = nm, .id = OPS_ID_NN + (i), .nin = 2, .nin_max = 3, .nout = 1,	\
		.attr_fmt = OPS_AF_PARAMS, .dtypes = OPS_DT_REAL, .attrs = attrs_,	\
		.parse = parse_, .infer = infer_, .workspace = conv_workspace,		\
		.run = conv_run,							\
	}

static const struct ops_def def_conv2d = CONV_DEF("Conv2D", 3, conv_attrs, conv_parse, conv_infer);
static const struct ops_def def_conv3d = CONV_DEF("Conv3D", 4, conv_attrs, conv_parse, conv_infer);
static const struct ops_def def_conv2dt = CONV_DEF("Conv2DTransposeD", 5, convt_attrs, convt_parse,
						   convt_infer);
static const struct ops_def def_conv3dt = CONV_DEF("Conv3DTransposeD", 6, convt_attrs, convt_parse,
						   convt_infer);

/* ---- pooling --------------------------------------------------------------------------- */

/*
 * Parameters: nsp, flags (NN_POOL_*), divisor_override, then per axis
 * window, stride, dilation, pad before, pad after. The global pools have
 * none.
 */
static const char *const maxv3_attrs[] = { "ksize", "strides", "padding_mode", "pads",
					   "data_format", "global_pooling", "ceil_mode", "dilation", "storage_order",
					   NULL };
static const char *const max3d_attrs[] = { "ksize", "strides", "padding", "pads", "dilation",
					   "ceil_mode", "data_format", "storage_order", NULL };
static const char *const avgv2_attrs[] = { "ksize", "strides", "padding_mode", "pads",
					   "data_format", "global_pooling", "ceil_mode", "exclusive",
					   "divisor_override", NULL };
static const char *const avg3d_attrs[] = { "ksize", "strides", "pads", "count_include_pad",
					   "ceil_mode", "divisor_override", "data_format", NULL };
static const char *const no_attrs[] = { NULL };

static bool is_max(const struct ops_def *def)
{
	return strstr(def->name, "Max") != NULL;
}

static bool is_global(const struct ops_def *def)
{
	return !strncmp(def->name, "Global", 6);
}

static enum vops_err pool_parse(struct ops_call *c, const struct vops_attr *at, unsigned int na,
				struct vops_error *err)
{
	static const int64_t ones[5] = { 1, 1, 1, 1, 1 }, zeros[6] = { 0 };
	const struct ops_def *def = c->def;
	bool three = strstr(def->name, "3D") != NULL, v3 = !three, gl = false, ceil = false;
	bool excl = true, cip;
	int full = three ? 5 : 4, nsp = three ? (c->in[0].ndim == 5 ? 3 : 0) :
		(c->in[0].ndim == 4 ? 2 : c->in[0].ndim == 3 ? 1 : 0), skip = full - 2 - nsp, i;
	int64_t ks[5], st[5], dl[5], pd[6], so = 0, div = 0, ceil_i;
	const char *mode;
	char s[96];
	enum vops_err ret;

	if (!nsp)
		return ops_fail(err, VOPS_ERR_INPUT, "%s: x %s must be %s", def->name,
				vops_shape_str(s, sizeof(s), c->in[0].ndim, c->in[0].dims),
				three ? "5-D (NCDHW)" : "4-D (NCHW) or 3-D (NCW, vnpu)");
	ret = list_n(c, at, na, "ksize", full, NULL, ks, err);
	if (!ret)
		ret = list_n(c, at, na, "strides", full, NULL, st, err);
	if (!ret)
		ret = list_n(c, at, na, "pads", 2 * (full - 2), zeros, pd, err);
	if (!ret)
		ret = list_n(c, at, na, "dilation", full, ones, dl, err);
	if (!ret)
		ret = ops_attr_str(def, at, na, three ? "padding" : "padding_mode", "CALCULATED", &mode,
				   err);
	if (!ret)
		ret = check_format(c, at, na, three ? "NDHWC" : "NCHW", three ? "NCDHW" : "NCHW", err);
	if (!ret && v3)
		ret = ops_attr_bool(def, at, na, "global_pooling", false, &gl, err);
	if (!ret)
		ret = ops_attr_int(def, at, na, "ceil_mode", 0, &ceil_i, err);
	if (!ret && is_max(def))
		ret = ops_attr_int(def, at, na, "storage_order", 0, &so, err);
	if (!ret && !is_max(def))
		ret = ops_attr_int(def, at, na, "divisor_override", 0, &div, err);
	if (!ret && !is_max(def) && v3)
		ret = ops_attr_bool(def, at, na, "exclusive", true, &excl, err);
	if (!ret && !is_max(def) && three) {
		ret = ops_attr_bool(def, at, na, "count_include_pad", false, &cip, err);
		excl = !cip;
	}
	if (ret)
		return ret;
	ceil = ceil_i != 0;
	if (ks[0] != 1 || ks[1] != 1 || st[0] != 1 || st[1] != 1 || dl[0] != 1 || dl[1] != 1 ||
	    (skip && (ks[2] != 1 || st[2] != 1 || dl[2] != 1 || pd[0] || pd[1])))
		return ops_fail(err, VOPS_ERR_ATTR, "%s: ksize, strides and dilation of N and C must be "
				"1%s", def->name, skip ? " (and of H, pads 0, on NCW input)" : "");
	if ((uint64_t)so > 1 || (uint64_t)ceil_i > 1)
		return ops_fail(err, VOPS_ERR_ATTR, "%s: ceil_mode and storage_order are 0 or 1",
				def->name);
	if (strcmp(mode, "CALCULATED") && strcmp(mode, "SAME") && strcmp(mode, "VALID"))
		return ops_fail(err, VOPS_ERR_ATTR, "%s: padding mode %s (CALCULATED, SAME or VALID)",
				def->name, mode);
	ops_param_i(c, nsp);
	ops_param_i(c, (ceil ? NN_POOL_CEIL : 0) | (excl ? NN_POOL_EXCL : 0) |
		    (gl ? NN_POOL_GLOBAL : 0) | (so ? NN_POOL_COLMAJOR : 0));
	ops_param_i(c, div);
	for (i = 0; i < nsp; i++) {
		int a = 2 + skip + i;
		int64_t in = c->in[0].dims[2 + i], k = ks[a], pb = pd[2 * (a - 2)], pe = pd[2 * (a - 2) + 1];

		if (!strcmp(mode, "VALID")) {
			pb = pe = 0;
		} else if (!strcmp(mode, "SAME") && st[a] > 0 && k > 0 && dl[a] > 0 && k <= NN_MAX &&
			   dl[a] <= NN_MAX && st[a] <= NN_MAX) {
			int64_t o = (in + st[a] - 1) / st[a], tot = (o - 1) * st[a] + (k - 1) * dl[a] + 1 - in;

			tot = tot > 0 ? tot : 0;
			pb = tot / 2;
			pe = tot - pb;
		}
		ops_param_i(c, k);
		ops_param_i(c, st[a]);
		ops_param_i(c, dl[a]);
		ops_param_i(c, pb);
		ops_param_i(c, pe);
	}
	return VOPS_OK;
}

/* The window of a pooling call, checked. */
static enum vops_err pool_win(const struct ops_call *c, struct nn_win *w, struct vops_error *err)
{
	const struct ops_params *pr = &c->at.pr;
	const struct vops_tensor *x = &c->in[0];
	bool gl = is_global(c->def), three = strstr(c->def->name, "3D") != NULL;
	int nsp, i;
	char s[96];

	memset(w, 0, sizeof(*w));
	for (i = 0; i < 3; i++) {
		w->in[i] = w->out[i] = w->k[i] = w->s[i] = w->d[i] = 1;
		w->pb[i] = w->pe[i] = 0;
	}
	if (gl) {
		if (pr->ni || pr->nf)
			return bad_params(c, err);
		if (x->ndim < 3 || x->ndim > 5)
			return ops_fail(err, VOPS_ERR_INPUT, "%s: x %s must have 3 to 5 dimensions "
					"(N, C, 1 to 3 spatial axes)", c->def->name,
					vops_shape_str(s, sizeof(s), x->ndim, x->dims));
		nsp = x->ndim - 2;
		w->flags = NN_POOL_GLOBAL;
	} else {
		nsp = three ? (x->ndim == 5 ? 3 : 0) : (x->ndim == 4 ? 2 : x->ndim == 3 ? 1 : 0);
		if (!nsp || pr->nf || pr->ni != 3u + 5u * (uint32_t)nsp || pr->i[0] != nsp ||
		    (uint64_t)pr->i[1] > NN_POOL_FLAGS || pr->i[2] < 0 || pr->i[2] > NN_MAX)
			return bad_params(c, err);
		w->flags = (uint32_t)pr->i[1];
		w->divisor = pr->i[2];
	}
	w->nsp = nsp;
	w->n = x->dims[0];
	w->c = w->m = x->dims[1];
	for (i = 0; i < nsp; i++) {
		int a = 3 - nsp + i;
		int64_t ext, span;

		w->in[a] = x->dims[2 + i];
		if (gl || (w->flags & NN_POOL_GLOBAL)) {
			w->k[a] = w->in[a];
			w->out[a] = 1;
			if (!w->in[a])
				return ops_fail(err, VOPS_ERR_INPUT, "%s: spatial axis %d is empty",
						c->def->name, i);
			continue;
		}
		{
			const int64_t *v = &pr->i[3 + 5 * i];

			for (int j = 0; j < 5; j++)
				if (v[j] < (j < 3 ? 1 : 0) || v[j] > NN_MAX)
					return ops_fail(err, VOPS_ERR_ATTR, "%s: window %" PRId64
							", stride %" PRId64 ", dilation %" PRId64
							" or pads %" PRId64 ", %" PRId64 " of axis %d out "
							"of range", c->def->name, v[0], v[1], v[2],
							v[3], v[4], i);
			w->k[a] = v[0];
			w->s[a] = v[1];
			w->d[a] = v[2];
			w->pb[a] = v[3];
			w->pe[a] = v[4];
		}
		ext = (w->k[a] - 1) * w->d[a] + 1;
		span = w->in[a] + w->pb[a] + w->pe[a];
		if (w->pb[a] >= ext || w->pe[a] >= ext || span < ext)
			return ops_fail(err, VOPS_ERR_INPUT, "%s: window %" PRId64 " and pads %" PRId64
					", %" PRId64 " do not fit axis %d of %" PRId64, c->def->name,
					w->k[a], w->pb[a], w->pe[a], i, w->in[a]);
		if (w->flags & NN_POOL_CEIL) {
			w->out[a] = (span - ext + w->s[a] - 1) / w->s[a] + 1;
			/* the last window must start inside the input or its front pad */
			if ((w->out[a] - 1) * w->s[a] >= w->in[a] + w->pb[a])
				w->out[a]--;
		} else {
			w->out[a] = (span - ext) / w->s[a] + 1;
		}
	}
	return VOPS_OK;
}

static enum vops_err pool_infer(const struct ops_call *c, struct vops_plan *p,
				struct vops_error *err)
{
	int64_t od[5];
	struct nn_win w;
	enum vops_err ret;
	int i;

	if (inputs_ok(c, err))
		return inputs_ok(c, err);
	if (c->nout > 1 && !is_max(c->def))
		return ops_fail(err, VOPS_ERR_OUTPUT, "%s has 1 output", c->def->name);
	if (!is_max(c->def) && !(ops_dtype_bit(c->in[0].dtype) & OPS_DT_REAL))
		return ops_fail(err, VOPS_ERR_DTYPE, "%s on %s is not supported (vnpu: the float types)",
				c->def->name, vops_dtype_name(c->in[0].dtype));
	ret = pool_win(c, &w, err);
	if (ret)
		return ret;
	od[0] = w.n;
	od[1] = w.c;
	for (i = 0; i < w.nsp; i++)
		od[2 + i] = w.out[3 - w.nsp + i];
	ret = ops_set_in_dense(c, p, 0, err);
	if (!ret)
		ret = ops_set_out_n(c, p, 0, c->in[0].dtype, c->in[0].ndim, od, err);
	if (!ret && c->nout > 1)
		ret = ops_set_out_n(c, p, 1, ACL_INT64, c->in[0].ndim, od, err);
	p->empty = ret || !p->out[0].bytes;
	return ret;
}

static enum vops_err pool_workspace(const struct ops_call *c, struct vops_plan *p,
				    struct vops_error *err)
{
	struct nn_win w;

	p->ws_bytes = 0;
	if (p->empty)
		return VOPS_OK;
	pool_win(c, &w, NULL);
	if (!nn_pool_ws(&w, &p->ws_bytes))
		return ops_too_large(c->def, err);
	return VOPS_OK;
}

static enum vops_run_status pool_run(const struct ops_call *c, const struct vops_plan *p,
				     const struct ops_bufs *b, struct ops_runner *r)
{
	struct nn_win w;

	(void)p;
	pool_win(c, &w, NULL);
	return nn_pool_run(&w, is_max(c->def), c->in[0].dtype, b->in[0], b->out[0],
			   c->nout > 1 ? b->out[1] : NULL, b->ws, r);
}

#define POOL_DEF(nm, i, attrs_, dts, nout_max_)						\
	{										\
		.name = nm, .id = OPS_ID_NN + (i), .nin = 1, .nout = 1,			\
		.nout_max = nout_max_, .attr_fmt = OPS_AF_PARAMS, .dtypes = dts,	\
		.attrs = attrs_, .parse = pool_parse, .infer = pool_infer,		\
		.workspace = pool_workspace, .run = pool_run,				\
	}

static const struct ops_def def_maxv3 = POOL_DEF("MaxPoolV3", 7, maxv3_attrs,
						 OPS_DT_REAL | OPS_DT_INTS, 2);
static const struct ops_def def_max3d = POOL_DEF("MaxPool3D", 8, max3d_attrs,
						 OPS_DT_REAL | OPS_DT_INTS, 2);
static const struct ops_def def_avgv2 = POOL_DEF("AvgPoolV2", 9, avgv2_attrs, OPS_DT_REAL, 1);
static const struct ops_def def_avg3d = POOL_DEF("AvgPool3D", 10, avg3d_attrs, OPS_DT_REAL, 1);

static const struct ops_def def_gavg = {
	.name = "GlobalAveragePool", .id = OPS_ID_NN + 11, .nin = 1, .nout = 1,
	.attr_fmt = OPS_AF_PARAMS, .dtypes = OPS_DT_REAL, .attrs = no_attrs, .infer = pool_infer,
	.workspace = pool_workspace, .run = pool_run,
};

static const struct ops_def def_gmax = {
	.name = "GlobalMaxPool", .id = OPS_ID_NN + 12, .nin = 1, .nout = 1,
	.attr_fmt = OPS_AF_PARAMS, .dtypes = OPS_DT_REAL | OPS_DT_INTS, .attrs = no_attrs,
	.infer = pool_infer, .workspace = pool_workspace, .run = pool_run,
};

/* ---- AdaptiveAvgPool2d, AdaptiveMaxPool2d ------------------------------------------ */

static const char *const adaptive_attrs[] = { "output_size", NULL };

/* Parameters: the output's H and W. */
static enum vops_err adaptive_parse(struct ops_call *c, const struct vops_attr *at, unsigned int na,
				    struct vops_error *err)
{
	int64_t os[2];
	enum vops_err ret = list_n(c, at, na, "output_size", 2, NULL, os, err);

	if (ret)
		return ret;
	ops_param_i(c, os[0]);
	ops_param_i(c, os[1]);
	return VOPS_OK;
}

/* x NCHW or CHW (N 1), the output's H and W; CANN's types, the float ones. */
static enum vops_err adaptive_infer(const struct ops_call *c, struct vops_plan *p,
				    struct vops_error *err)
{
	const struct vops_tensor *x = &c->in[0];
	const int64_t *os = c->at.pr.i;
	int64_t od[4];
	enum vops_err ret = inputs_ok(c, err);
	char s[96];
	int r = x->ndim;

	if (ret)
		return ret;
	if (c->at.pr.ni != 2 || c->at.pr.nf)
		return bad_params(c, err);
	if (r != 3 && r != 4)
		return ops_fail(err, VOPS_ERR_INPUT, "%s: x %s must be 4-D (NCHW) or 3-D (CHW)",
				c->def->name, vops_shape_str(s, sizeof(s), r, x->dims));
	if (os[0] < 1 || os[0] > NN_MAX || os[1] < 1 || os[1] > NN_MAX)
		return ops_fail(err, VOPS_ERR_ATTR, "%s: attribute output_size [%" PRId64 ", %" PRId64
				"] must be positive", c->def->name, os[0], os[1]);
	if (c->nout > 1 && !is_max(c->def))
		return ops_fail(err, VOPS_ERR_OUTPUT, "%s has 1 output", c->def->name);
	memcpy(od, x->dims, (size_t)r * sizeof(*od));
	od[r - 2] = os[0];
	od[r - 1] = os[1];
	ret = ops_set_in_dense(c, p, 0, err);
	if (!ret)
		ret = ops_set_out_n(c, p, 0, x->dtype, r, od, err);
	if (!ret && c->nout > 1)
		ret = ops_set_out_n(c, p, 1, ACL_INT64, r, od, err);
	if (ret)
		return ret;
	p->empty = !p->out[0].bytes;
	/* a bin of no element has no average nor maximum */
	if (!p->empty && (!x->dims[r - 2] || !x->dims[r - 1]))
		return ops_fail(err, VOPS_ERR_INPUT, "%s: x %s has empty H or W", c->def->name,
				vops_shape_str(s, sizeof(s), r, x->dims));
	return VOPS_OK;
}

/* The planes of one piece and what every piece shares. */
struct adaptive {
	const struct ops_call *c;
	const void *x;
	void *y;
	int64_t *idx;
	int64_t ch, h, w, oh, ow;	/* channels, input and output H, W */
	int64_t st[4];			/* x's strides: N (0 for CHW), C, H, W */
	uint64_t planes, per_piece;
	bool max;
};

/* PyTorch's bins: output i of n over an axis of @in covers [floor(i in / n), ceil((i + 1) in / n)). */
static void adaptive_bin(int64_t i, int64_t in, int64_t n, int64_t *lo, int64_t *hi)
{
	*lo = i * in / n;
	*hi = ((i + 1) * in + n - 1) / n;
}

static enum vops_run_status adaptive_piece(const void *ctx, struct ops_runner *r, uint64_t piece)
{
	const struct adaptive *a = ctx;
	const int32_t dt = a->c->in[0].dtype;
	uint64_t pl = piece * a->per_piece, end = ops_min(pl + a->per_piece, a->planes);
	uint64_t done = NN_STOP_WORK;
	double buf[OPS_EW_BLOCK], out[OPS_EW_BLOCK];
	int64_t ibuf[OPS_EW_BLOCK];

	for (; pl < end; pl++) {
		int64_t base = a->c->in[0].offset + (int64_t)(pl / (uint64_t)a->ch) * a->st[0] +
			       (int64_t)(pl % (uint64_t)a->ch) * a->st[1];
		int64_t q0 = (int64_t)pl * a->oh * a->ow, oy, ox0, ox, hy, iy0, iy1, ix0, ix1, j0;

		for (oy = 0; oy < a->oh; oy++) {
			adaptive_bin(oy, a->h, a->oh, &iy0, &iy1);
			for (ox0 = 0; ox0 < a->ow; ox0 += OPS_EW_BLOCK) {
				int64_t nb = (int64_t)ops_min((uint64_t)(a->ow - ox0), OPS_EW_BLOCK);

				for (ox = ox0; ox < ox0 + nb; ox++) {
					double acc = a->max ? -INFINITY : 0;
					int64_t best;

					adaptive_bin(ox, a->w, a->ow, &ix0, &ix1);
					best = iy0 * a->w + ix0;
					if (done >= NN_STOP_WORK) {
						if (ops_should_stop(r))
							return VOPS_RUN_CANCELED;
						done = 0;
					}
					done += (uint64_t)((iy1 - iy0) * (ix1 - ix0)) + 1;
					for (hy = iy0; hy < iy1; hy++)
						for (j0 = ix0; j0 < ix1; j0 += OPS_EW_BLOCK) {
							size_t m = (size_t)ops_min((uint64_t)(ix1 - j0),
										   OPS_EW_BLOCK), k;

							ops_load_f64(buf, a->x, dt,
								     base + hy * a->st[2] + j0 * a->st[3],
								     a->st[3], m);
							for (k = 0; k < m; k++) {
								if (!a->max) {
									acc += buf[k];
								} else if (buf[k] > acc || isnan(buf[k])) {
									/* PyTorch's rule: a NaN
									 * wins, the last one */
									acc = buf[k];
									best = hy * a->w + j0 + (int64_t)k;
								}
							}
						}
					if (!a->max)
						acc /= (double)((iy1 - iy0) * (ix1 - ix0));
					out[ox - ox0] = acc;
					ibuf[ox - ox0] = best;
				}
				ops_store_f64(a->y, dt, q0 + oy * a->ow + ox0, 1, out, (size_t)nb);
				if (a->idx)
					memcpy(a->idx + q0 + oy * a->ow + ox0, ibuf,
					       (size_t)nb * sizeof(*ibuf));
			}
		}
	}
	return VOPS_RUN_OK;
}

/* Window elements per piece: a load and an add or compare each, cheaper than
 * a multiply-add of the products' pieces (NN_PIECE_WORK). */
#define ADAPTIVE_PIECE (4 * OPS_EW_CHUNK)

/*
 * Planes in parallel pieces of about ADAPTIVE_PIECE window elements, x read
 * through its view; each output is its bin's mean (in double) or maximum,
 * rounded once; argmax is the maximum's flat index in the plane (h * W + w).
 */
static enum vops_run_status adaptive_run(const struct ops_call *c, const struct vops_plan *p,
					 const struct ops_bufs *b, struct ops_runner *r)
{
	const struct vops_tensor *x = &c->in[0];
	int rk = x->ndim;
	int64_t st[4];
	struct adaptive a = {
		.c = c, .x = b->in[0], .y = b->out[0], .idx = c->nout > 1 ? b->out[1] : NULL,
		.ch = x->dims[rk - 3], .h = x->dims[rk - 2], .w = x->dims[rk - 1],
		.oh = c->at.pr.i[0], .ow = c->at.pr.i[1], .max = is_max(c->def),
	};
	double work;

	(void)p;
	ops_strides(x, st);
	a.st[0] = rk == 4 ? st[0] : 0;
	memcpy(a.st + 1, st + rk - 3, 3 * sizeof(*st));
	a.planes = (uint64_t)a.ch * (rk == 4 ? (uint64_t)x->dims[0] : 1);
	/* each bin holds at most ceil(h / oh) + 1 rows and as many columns */
	work = (double)a.oh * (double)a.ow * (double)(a.h / a.oh + 2) * (double)(a.w / a.ow + 2);
	a.per_piece = work >= (double)ADAPTIVE_PIECE ? 1 : ADAPTIVE_PIECE / (uint64_t)work;
	return ops_run_pieces(r, (a.planes + a.per_piece - 1) / a.per_piece, true, adaptive_piece,
			      &a);
}

#define ADAPTIVE_DEF(nm, i, nout_max_)							\
	{										\
		.name = nm, .id = OPS_ID_NN + (i), .nin = 1, .nout = 1,			\
		.nout_max = nout_max_, .attr_fmt = OPS_AF_PARAMS,			\
		.flags = OPS_DEF_STRIDED, .dtypes = OPS_DT_REAL, .attrs = adaptive_attrs,	\
		.parse = adaptive_parse, .infer = adaptive_infer,			\
		.workspace = ops_ws_none, .run = adaptive_run,				\
	}

static const struct ops_def def_adaptive_avg = ADAPTIVE_DEF("AdaptiveAvgPool2d", 13, 1);
static const struct ops_def def_adaptive_max = ADAPTIVE_DEF("AdaptiveMaxPool2d", 14, 2);

/* Index i holds id OPS_ID_NN + i; append only. */
const struct ops_def *const ops_nn_defs[] = {
	&def_bmm,
	&def_gemm,
	&def_einsum,
	&def_conv2d,
	&def_conv3d,
	&def_conv2dt,
	&def_conv3dt,
	&def_maxv3,
	&def_max3d,
	&def_avgv2,
	&def_avg3d,
	&def_gavg,
	&def_gmax,
	&def_adaptive_avg,
	&def_adaptive_max,
	NULL,
};
