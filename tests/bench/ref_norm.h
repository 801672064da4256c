/* SPDX-License-Identifier: MIT */
/*
 * ref_norm.h - plain C references the benchmarks time lib/ops' norm
 * family against (tests/bench/ref_norm.c).
 */
#ifndef VNPU_TESTS_BENCH_REF_NORM_H
#define VNPU_TESTS_BENCH_REF_NORM_H

/*
 * LayerNorm of @rows rows of @cols fp32 values each, over each row:
 * y = (x - mean) / sqrt(variance + eps) * g + b, with g and b @cols values.
 */
void ref_layernorm_f32(const float *x, const float *g, const float *b, float *y, long rows,
		       long cols, float eps);

#endif /* VNPU_TESTS_BENCH_REF_NORM_H */
