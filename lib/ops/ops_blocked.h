/* SPDX-License-Identifier: MIT */
/*
 * ops_blocked.h - the loop shape of lib/ops' hot loops (private).
 *
 * gcc 12 at -O2 uses the "very-cheap" vectoriser cost model, which
 * vectorises blocks of 8 independent iterations over restrict pointers
 * into packed SSE instructions but leaves plain loops with an unknown trip
 * count scalar. Used by the kernels (kern_fp.c) and by the compute-library
 * benchmark (tests/bench/libs/ops_libs.c), which times the same loop.
 */
#ifndef VNPU_LIB_OPS_BLOCKED_H
#define VNPU_LIB_OPS_BLOCKED_H

#include <stdint.h>

/*
 * for (i = 0; i < n; i++) body; as blocks of 8 that gcc vectorises, then
 * a scalar tail. Iterations must be independent.
 */
#define OPS_BLOCKED(i, n, body)						\
	do {								\
		uint64_t i##_end = (n) & ~7ull, i##_blk, i;		\
		uint32_t i##_lane;					\
		for (i##_blk = 0; i##_blk < i##_end; i##_blk += 8) {	\
			for (i##_lane = 0; i##_lane < 8; i##_lane++) {	\
				i = i##_blk + i##_lane;			\
				body;					\
			}						\
		}							\
		for (i = i##_end; i < (n); i++) {			\
			body;						\
		}							\
	} while (0)

#endif /* VNPU_LIB_OPS_BLOCKED_H */
