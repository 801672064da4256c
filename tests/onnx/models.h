/* SPDX-License-Identifier: MIT */
/*
 * models.h - the test models of tests/onnx/make_models.c: their sizes,
 * their weights (from a fixed LCG, so that every program computes the same
 * numbers without reading a file) and CPU references in double precision.
 *
 * make_models writes these weights into the ONNX files; the CANN-style
 * programs (tests/acl/examples/model_*.c) and the model benchmark
 * (tests/bench/bench_model.c) compute the same weights again here to check
 * what the device returns. Header-only (static inline), plain C11 and no
 * library, because the example programs are built as an application would
 * be: -Iinclude -lascendcl and nothing else.
 *
 *   mlp     x [N, 64] -> MatMul W1 [64, 32] -> Add b1 [32] -> Relu
 *                     -> MatMul W2 [32, 10] -> Add b2 [10] -> y [N, 10]
 *   cnn     x [N, 1, 8, 8] -> Conv W [4, 1, 3, 3] pad 1, bias [4] -> Relu
 *                     -> MaxPool 2x2 stride 2 -> Flatten [N, 64]
 *                     -> Gemm B [64, 10], C [10] -> y [N, 10]
 *   cnn_hw  x [1, 1, H, W] -> Conv W [2, 1, 3, 3] pad 1, bias [2] -> Relu
 *                     -> y [1, 2, H, W]
 */
#ifndef VNPU_TESTS_ONNX_MODELS_H
#define VNPU_TESTS_ONNX_MODELS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#define MDL_MLP_IN 64
#define MDL_MLP_HID 32
#define MDL_MLP_OUT 10

#define MDL_CNN_C 4		/* the convolution's output channels */
#define MDL_CNN_HW 8		/* input height and width */
#define MDL_CNN_POOLED 4	/* after the 2x2 pool */
#define MDL_CNN_FLAT (MDL_CNN_C * MDL_CNN_POOLED * MDL_CNN_POOLED)	/* 64 */
#define MDL_CNN_OUT 10

#define MDL_HW_C 2		/* cnn_hw's output channels */

#define MDL_K 3			/* every convolution is 3x3, pad 1, stride 1 */

/* Seeds of each weight tensor and of the inputs the programs feed. */
enum mdl_seed {
	MDL_SEED_MLP_W1 = 101,
	MDL_SEED_MLP_B1,
	MDL_SEED_MLP_W2,
	MDL_SEED_MLP_B2,
	MDL_SEED_CNN_W = 201,
	MDL_SEED_CNN_B,
	MDL_SEED_CNN_FW,
	MDL_SEED_CNN_FB,
	MDL_SEED_HW_W = 301,
	MDL_SEED_HW_B,
	MDL_SEED_INPUT = 901,
};

/*
 * @n values in [-scale, scale) from the LCG seeded with @seed: each is a
 * multiple of 2^-23 times @scale, computed in float exactly, so a program
 * and the ONNX file agree bit for bit.
 */
static inline void mdl_fill(float *v, size_t n, uint32_t seed, float scale)
{
	uint32_t x = seed * 2654435761u + 1u;
	size_t i;

	for (i = 0; i < n; i++) {
		x = x * 1664525u + 1013904223u;
		v[i] = (float)((int32_t)(x >> 8) - (1 << 23)) / (float)(1 << 23) * scale;
	}
}

/* Inputs the programs feed: values in [-1, 1), a different stream per @salt. */
static inline void mdl_input(float *v, size_t n, uint32_t salt)
{
	mdl_fill(v, n, MDL_SEED_INPUT + salt, 1.0f);
}

struct mdl_mlp {
	float w1[MDL_MLP_IN * MDL_MLP_HID];	/* [64, 32], row-major */
	float b1[MDL_MLP_HID];
	float w2[MDL_MLP_HID * MDL_MLP_OUT];	/* [32, 10] */
	float b2[MDL_MLP_OUT];
};

struct mdl_cnn {
	float cw[MDL_CNN_C * MDL_K * MDL_K];	/* [4, 1, 3, 3] */
	float cb[MDL_CNN_C];
	float fw[MDL_CNN_FLAT * MDL_CNN_OUT];	/* Gemm's B: [64, 10] (transB 0) */
	float fb[MDL_CNN_OUT];			/* Gemm's C: [10] */
};

struct mdl_hw {
	float cw[MDL_HW_C * MDL_K * MDL_K];	/* [2, 1, 3, 3] */
	float cb[MDL_HW_C];
};

/* Weights scaled by 1/sqrt(fan-in) so that every layer's values stay near 1. */
static inline void mdl_mlp_init(struct mdl_mlp *m)
{
	mdl_fill(m->w1, MDL_MLP_IN * MDL_MLP_HID, MDL_SEED_MLP_W1, 0.125f);
	mdl_fill(m->b1, MDL_MLP_HID, MDL_SEED_MLP_B1, 0.5f);
	mdl_fill(m->w2, MDL_MLP_HID * MDL_MLP_OUT, MDL_SEED_MLP_W2, 0.25f);
	mdl_fill(m->b2, MDL_MLP_OUT, MDL_SEED_MLP_B2, 0.5f);
}

static inline void mdl_cnn_init(struct mdl_cnn *m)
{
	mdl_fill(m->cw, MDL_CNN_C * MDL_K * MDL_K, MDL_SEED_CNN_W, 0.375f);
	mdl_fill(m->cb, MDL_CNN_C, MDL_SEED_CNN_B, 0.25f);
	mdl_fill(m->fw, MDL_CNN_FLAT * MDL_CNN_OUT, MDL_SEED_CNN_FW, 0.125f);
	mdl_fill(m->fb, MDL_CNN_OUT, MDL_SEED_CNN_FB, 0.5f);
}

static inline void mdl_hw_init(struct mdl_hw *m)
{
	mdl_fill(m->cw, MDL_HW_C * MDL_K * MDL_K, MDL_SEED_HW_W, 0.375f);
	mdl_fill(m->cb, MDL_HW_C, MDL_SEED_HW_B, 0.25f);
}

/* y [n, 10] = mlp(x [n, 64]). */
static inline void mdl_mlp_ref(const struct mdl_mlp *m, const float *x, size_t n, double *y)
{
	size_t r, i, j;

	for (r = 0; r < n; r++) {
		double h[MDL_MLP_HID];

		for (j = 0; j < MDL_MLP_HID; j++) {
			double s = 0;

			for (i = 0; i < MDL_MLP_IN; i++)
				s += (double)x[r * MDL_MLP_IN + i] * m->w1[i * MDL_MLP_HID + j];
			s += m->b1[j];
			h[j] = s > 0 ? s : 0;
		}
		for (j = 0; j < MDL_MLP_OUT; j++) {
			double s = 0;

			for (i = 0; i < MDL_MLP_HID; i++)
				s += h[i] * m->w2[i * MDL_MLP_OUT + j];
			y[r * MDL_MLP_OUT + j] = s + m->b2[j];
		}
	}
}

/*
 * relu(conv3x3(x) + b): one input channel of @h x @w, @c output channels,
 * pad 1 (zeros), stride 1, into @out [c, h, w].
 */
static inline void mdl_conv_relu(const float *x, size_t h, size_t w, const float *cw, const float *cb,
				 size_t c, double *out)
{
	size_t o, i, j;
	int di, dj;

	for (o = 0; o < c; o++)
		for (i = 0; i < h; i++)
			for (j = 0; j < w; j++) {
				double s = cb[o];

				for (di = -1; di <= 1; di++)
					for (dj = -1; dj <= 1; dj++) {
						ptrdiff_t y = (ptrdiff_t)i + di, xx = (ptrdiff_t)j + dj;

						if (y < 0 || xx < 0 || y >= (ptrdiff_t)h || xx >= (ptrdiff_t)w)
							continue;
						s += (double)x[(size_t)y * w + (size_t)xx] *
						     cw[o * MDL_K * MDL_K + (size_t)(di + 1) * MDL_K + (size_t)(dj + 1)];
					}
				out[(o * h + i) * w + j] = s > 0 ? s : 0;
			}
}

/* y [n, 10] = cnn(x [n, 1, 8, 8]). */
static inline void mdl_cnn_ref(const struct mdl_cnn *m, const float *x, size_t n, double *y)
{
	enum { HW = MDL_CNN_HW, P = MDL_CNN_POOLED };
	size_t r, c, i, j, k;

	for (r = 0; r < n; r++) {
		double conv[MDL_CNN_C * HW * HW], flat[MDL_CNN_FLAT];

		mdl_conv_relu(x + r * HW * HW, HW, HW, m->cw, m->cb, MDL_CNN_C, conv);
		/* Flatten of [4, 4, 4]: channel-major, as the tensor lies in memory. */
		for (c = 0; c < MDL_CNN_C; c++)
			for (i = 0; i < P; i++)
				for (j = 0; j < P; j++) {
					const double *q = conv + (c * HW + 2 * i) * HW + 2 * j;

					flat[(c * P + i) * P + j] = fmax(fmax(q[0], q[1]), fmax(q[HW], q[HW + 1]));
				}
		for (k = 0; k < MDL_CNN_OUT; k++) {
			double s = 0;

			for (i = 0; i < MDL_CNN_FLAT; i++)
				s += flat[i] * m->fw[i * MDL_CNN_OUT + k];
			y[r * MDL_CNN_OUT + k] = s + m->fb[k];
		}
	}
}

/* y [1, 2, h, w] = cnn_hw(x [1, 1, h, w]). */
static inline void mdl_hw_ref(const struct mdl_hw *m, const float *x, size_t h, size_t w, double *y)
{
	mdl_conv_relu(x, h, w, m->cw, m->cb, MDL_HW_C, y);
}

/*
 * The largest error of @got against @want over @n values: relative, with
 * values under 0.01 in magnitude measured against 0.01 (an fp32 sum of a
 * few dozen products is exact to about 1e-7 absolute, which relative to a
 * value near 0 means nothing). The programs accept 1e-4.
 */
static inline double mdl_max_error(const float *got, const double *want, size_t n)
{
	double worst = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		double e = fabs((double)got[i] - want[i]) / fmax(fabs(want[i]), 0.01);

		if (!(e <= worst))	/* NaN counts as the worst */
			worst = isnan(e) ? INFINITY : e;
	}
	return worst;
}

#define MDL_TOLERANCE 1e-4

#endif /* VNPU_TESTS_ONNX_MODELS_H */
