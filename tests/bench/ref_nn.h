/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ref_nn.h - plain C reference loops the benchmarks time lib/ops' nn family
 * against (ref_nn.c, built at -O2 like the other benchmarks).
 */
#ifndef VNPU_BENCH_REF_NN_H
#define VNPU_BENCH_REF_NN_H

/*
 * Direct NCHW convolution, stride 1, pad 1 on every side, no bias, the
 * textbook 7 loops: y [n, k, h + 3 - kh, w + 3 - kw] from x [n, c, h, w]
 * and f [k, c, kh, kw].
 */
void ref_conv2d_f32(const float *x, const float *f, float *y, long n, long c, long h, long w,
		    long k, long kh, long kw);

/* c [m, n] = a [m, k] b [k, n], row-major, the i-k-j loop. */
void ref_matmul_f32(const float *a, const float *b, float *c, long m, long n, long k);

#endif /* VNPU_BENCH_REF_NN_H */
