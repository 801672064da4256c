// SPDX-License-Identifier: GPL-2.0
/*
 * ref_nn.c - plain C reference loops for the nn family's benchmark
 * (ref_nn.h): what a user would write without a library.
 *
 * make benches builds every C file of tests/bench as a program of its own, so
 * this file has a weak main() too: alone it times each loop once on the
 * benchmark's shapes; linked into a benchmark, that benchmark's main()
 * wins.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ref_nn.h"

void ref_conv2d_f32(const float *x, const float *f, float *y, long n, long c, long h, long w,
		    long k, long kh, long kw)
{
	long oh = h + 3 - kh, ow = w + 3 - kw;

	for (long b = 0; b < n; b++)
		for (long o = 0; o < k; o++)
			for (long i = 0; i < oh; i++)
				for (long j = 0; j < ow; j++) {
					float sum = 0;

					for (long ch = 0; ch < c; ch++)
						for (long r = 0; r < kh; r++)
							for (long s = 0; s < kw; s++) {
								long yi = i + r - 1, xj = j + s - 1;

								if (yi < 0 || yi >= h || xj < 0 || xj >= w)
									continue;
								sum += x[((b * c + ch) * h + yi) * w + xj] *
								       f[((o * c + ch) * kh + r) * kw + s];
							}
					y[((b * k + o) * oh + i) * ow + j] = sum;
				}
}

void ref_matmul_f32(const float *a, const float *b, float *c, long m, long n, long k)
{
	for (long i = 0; i < m; i++) {
		for (long j = 0; j < n; j++)
			c[i * n + j] = 0;
		for (long l = 0; l < k; l++) {
			float ail = a[i * k + l];

			for (long j = 0; j < n; j++)
				c[i * n + j] += ail * b[l * n + j];
		}
	}
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static float *filled(long n)
{
	float *p = malloc((size_t)n * sizeof(*p));

	for (long i = 0; p && i < n; i++)
		p[i] = (float)((unsigned long)(i * 2654435761u) >> 20 & 4095) / 4096.0f - 0.5f;
	return p;
}

__attribute__((weak)) int main(void)
{
	float *x = filled(64 * 56 * 56), *f = filled(64 * 64 * 9), *y = filled(64 * 56 * 56);
	float *a = filled(512 * 512), *b = filled(512 * 512), *c = filled(512 * 512);
	double t;

	if (!x || !f || !y || !a || !b || !c)
		return 1;
	t = now_ms();
	ref_conv2d_f32(x, f, y, 1, 64, 56, 56, 64, 3, 3);
	printf("ref_conv2d_f32 3x3 64->64 56x56: %.1f ms\n", now_ms() - t);
	t = now_ms();
	ref_matmul_f32(a, b, c, 512, 512, 512);
	printf("ref_matmul_f32 512^3: %.1f ms\n", now_ms() - t);
	free(x);
	free(f);
	free(y);
	free(a);
	free(b);
	free(c);
	return 0;
}
