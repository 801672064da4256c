// SPDX-License-Identifier: MIT
/*
 * ref_norm.c - the obvious C loops for the norm family's benchmark
 * figures (ref_norm.h): what a user would write instead of the device.
 */
#include <math.h>

#include "ref_norm.h"

void ref_layernorm_f32(const float *x, const float *g, const float *b, float *y, long rows,
		       long cols, float eps)
{
	long i, j;

	for (i = 0; i < rows; i++) {
		const float *xr = x + i * cols;
		float *yr = y + i * cols;
		float mean = 0, var = 0, inv;

		for (j = 0; j < cols; j++)
			mean += xr[j];
		mean /= (float)cols;
		for (j = 0; j < cols; j++) {
			float d = xr[j] - mean;

			var += d * d;
		}
		var /= (float)cols;
		inv = 1.0f / sqrtf(var + eps);
		for (j = 0; j < cols; j++)
			yr[j] = (xr[j] - mean) * inv * g[j] + b[j];
	}
}

/*
 * The Makefile builds every C file of tests/bench into a program of its own; until
 * it leaves ref_*.c out, this weak main keeps that program linking (a
 * benchmark linking this file has its own main, which wins).
 */
__attribute__((weak)) int main(void)
{
	static const float x[4] = { 1, 2, 3, 4 }, g[4] = { 1, 1, 1, 1 }, b[4] = { 0 };
	float y[4];

	ref_layernorm_f32(x, g, b, y, 1, 4, 0);
	return fabsf(y[0] + y[3]) > 1e-6f;
}
