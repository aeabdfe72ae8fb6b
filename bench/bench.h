/*
 * bench.h — what the benchmark helpers (the bench/ tools written in C) share:
 * deterministic random numbers for the data they make. Header-only.
 */
#ifndef HQ_BENCH_H
#define HQ_BENCH_H

#include <stdint.h>

static uint64_t bench_rng = 88172645463325252ULL;

/* xorshift64: a uniform number in [0, 1), the same sequence every run. */
static inline double
uniform(void)
{
	bench_rng ^= bench_rng << 13;
	bench_rng ^= bench_rng >> 7;
	bench_rng ^= bench_rng << 17;
	return (double)(bench_rng >> 11) / 9007199254740992.0;
}

#endif
