/* SPDX-License-Identifier: MIT */
/*
 * ref_move.h - what a user would write instead of the move family's
 * operators, for make bench's comparisons.
 */
#ifndef VNPU_BENCH_REF_MOVE_H
#define VNPU_BENCH_REF_MOVE_H

/* y (cols x rows) = the transpose of x (rows x cols), both dense row-major. */
void ref_transpose_f32(const float *x, float *y, long rows, long cols);

#endif /* VNPU_BENCH_REF_MOVE_H */
