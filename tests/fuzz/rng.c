// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzzer's generator: splitmix64, one state per thread, so a seed gives
 * the same sequence of operations on every run. Field values mix uniform
 * random numbers with the boundaries where checks go wrong.
 */
#include "fuzz.h"

void fz_rng_seed(struct fz_rng *r, uint64_t seed)
{
	r->s = seed ^ 0x9e3779b97f4a7c15ull;
	fz_next(r);
}

uint64_t fz_next(struct fz_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t fz_below(struct fz_rng *r, uint64_t n)
{
	return n ? fz_next(r) % n : 0;
}

bool fz_chance(struct fz_rng *r, unsigned int num, unsigned int den)
{
	return fz_below(r, den) < num;
}

static const uint64_t interesting64[] = {
	0, 1, 2, 7, 8, 63, 64, 255, 256, 4095, 4096, 4097, 8192, 65535, 65536,
	(1ull << 20) - 1, 1ull << 20, (2ull << 20) + 1, 0x7fffffffull, 0x80000000ull,
	0xffffffffull, 0x100000000ull, VNPU_MAX_BO_SIZE, VNPU_MAX_BO_SIZE + 1,
	VNPU_VA_START, VNPU_VA_START - 1, VNPU_VA_END, VNPU_VA_END - 1,
	VNPU_VA_START + VNPU_VA_DEVICE_SPAN, 0x7fffffffffffffffull, 0x8000000000000000ull,
	~0ull - 4095, ~0ull - 1, ~0ull,
};

uint64_t fz_any64(struct fz_rng *r)
{
	switch (fz_below(r, 6)) {
	case 0:
		return 0;
	case 1:
		return ~0ull;
	case 2:
	case 3:
		return interesting64[fz_below(r, sizeof(interesting64) / sizeof(interesting64[0]))];
	case 4:
		return fz_below(r, 1ull << fz_below(r, 64));
	default:
		return fz_next(r);
	}
}

uint32_t fz_any32(struct fz_rng *r)
{
	switch (fz_below(r, 5)) {
	case 0:
		return 0;
	case 1:
		return ~0u;
	case 2:
		return (uint32_t)fz_below(r, 16);
	case 3:
		return 1u << fz_below(r, 32);
	default:
		return (uint32_t)fz_next(r);
	}
}

uint32_t fz_flags(struct fz_rng *r, uint32_t valid)
{
	switch (fz_below(r, 8)) {
	case 0:
		return 1u << fz_below(r, 32);
	case 1:
		return fz_any32(r);
	case 2:
	case 3:
		return (uint32_t)fz_next(r) & valid;
	default:
		return 0;
	}
}
