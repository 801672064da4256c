// SPDX-License-Identifier: MIT
/*
 * ref_move.c - plain C references for the move family's benchmarks
 * (ref_move.h).
 */
#include "ref_move.h"

/* The obvious double loop: reads x in order, writes y down its columns. */
void ref_transpose_f32(const float *x, float *y, long rows, long cols)
{
	long i, j;

	for (i = 0; i < rows; i++)
		for (j = 0; j < cols; j++)
			y[j * rows + i] = x[i * cols + j];
}
