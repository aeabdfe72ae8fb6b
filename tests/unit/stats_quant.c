/* Unit tests for the exact bounded quantiles of lib/base/quant.c (struct
 * hq_quant): the answers checked against R on small vectors, then against
 * the straightforward method (sort every value, hq_stats_quantile_sorted)
 * on awkward data, with limits small enough to force every narrowing path:
 * ties, non-integers, one value, even counts, values too close for bins to
 * part, huge and tiny ranges.
 *
 * R (4.2), for the fixed vectors below:
 *   x <- c(3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5)
 *   quantile(x, c(.5, .1, .9, .25, .75, .01, .99), type = 7)
 *     4 1 6 2.5 5 1 8.7
 *   y <- c(0.1, 0.7, -2.5, 1e-9, 3.25, 0.7, 0.7, 12.125)
 *   quantile(y, c(.5, .1, .9, .33), type = 7)
 *     0.7 -0.7499999993 5.9125 0.286
 *   quantile(42, c(.5, .9)); quantile(c(7, 8), c(.5, .9))
 *     42 42; 7.5 7.9
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hq/stats.h"
#include "tap.h"

/* A TAP comment line. */
static void __attribute__((format(printf, 1, 2)))
note(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static const double probs[] = { 0.5, 0.1, 0.9, 0.25, 0.75, 0.01, 0.99,
	0, 1, 0.33 };
#define NPROBS (sizeof probs / sizeof probs[0])

/* Every pass streams v[0..n) (in the order given), as a caller would. */
static int
run(struct hq_quant *qt, const double *v, size_t n, int *passes)
{
	*passes = 0;
	for (;;) {
		for (size_t i = 0; i < n; i++)
			hq_quant_add(qt, v[i], 1);
		++*passes;
		if (hq_quant_pass_done(qt))
			return 0;
		if (*passes > 200)
			return -1;
	}
}

/* Whether the bounded answers are those of sorting (bit for bit). */
static int
same_as_sorting(const char *what, const double *v, size_t n, long limit,
    int min_passes)
{
	double *s = malloc((n + 1) * sizeof *s);
	struct hq_quant *qt = hq_quant_new(probs, NPROBS, limit);
	int passes, good = 1;

	memcpy(s, v, n * sizeof *v);
	hq_stats_sort(s, n);
	if (run(qt, v, n, &passes)) {
		note("%s: no answer after %d passes", what, passes);
		good = 0;
	}
	for (size_t i = 0; good && i < NPROBS; i++) {
		double want = hq_stats_quantile_sorted(s, n, probs[i]);
		double got = hq_quant_value(qt, i);
		if (!(want == got || (isnan(want) && isnan(got)))) {
			note("%s: p=%g: sorting %.17g, bounded %.17g", what, probs[i],
			    want, got);
			good = 0;
		}
	}
	if (good && passes < min_passes) {
		note("%s: %d passes, expected at least %d (the path under test "
		    "was not taken)", what, passes, min_passes);
		good = 0;
	}
	ok(good, "%s (%zu values, limit %ld, %d passes)", what, n, limit, passes);
	hq_quant_free(qt);
	free(s);
	return good;
}

static uint64_t rng = 0x2545F4914F6CDD1DULL;

static double
uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (double)(rng >> 11) / 9007199254740992.0;
}

int
main(void)
{
	static const double x[] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5 };
	static const double y[] = { 0.1, 0.7, -2.5, 1e-9, 3.25, 0.7, 0.7, 12.125 };
	static const double rx[] = { 4, 1, 6, 2.5, 5, 1, 8.7 };
	static const double ry[] = { 0.7, -0.7499999993, 5.9125 };
	double one = 42, two[] = { 8, 7 };
	struct hq_quant *qt;
	int passes;
	size_t n = 200000;
	double *v = malloc(n * sizeof *v);

	/* Against R, one pass and forced narrowing (limit 2). */
	for (long limit = 0; limit <= 2; limit += 2) {
		qt = hq_quant_new(probs, NPROBS, limit);
		run(qt, x, 11, &passes);
		for (size_t i = 0; i < 7; i++)
			is_dbl(hq_quant_value(qt, i), rx[i], 1e-12,
			    "x: p%g as R (limit %ld)", probs[i] * 100, limit);
		hq_quant_reset(qt);
		run(qt, y, 8, &passes);
		for (size_t i = 0; i < 3; i++)
			is_dbl(hq_quant_value(qt, i), ry[i], 1e-12,
			    "y: p%g as R (limit %ld)", probs[i] * 100, limit);
		is_dbl(hq_quant_value(qt, 9), 0.286, 1e-12, "y: p33 as R");
		hq_quant_reset(qt);
		run(qt, &one, 1, &passes);
		is_dbl(hq_quant_value(qt, 0), 42, 0, "one value: its median");
		is_dbl(hq_quant_value(qt, 2), 42, 0, "one value: its p90");
		hq_quant_reset(qt);
		run(qt, two, 2, &passes);
		is_dbl(hq_quant_value(qt, 0), 7.5, 1e-12, "two values: median between");
		is_dbl(hq_quant_value(qt, 2), 7.9, 1e-12, "two values: p90");
		hq_quant_reset(qt);
		run(qt, NULL, 0, &passes);
		ok(isnan(hq_quant_value(qt, 0)) && passes == 1, "no values: null");
		hq_quant_free(qt);
	}

	/* Integers with ties (heart rate): one pass, whatever the count. */
	for (size_t i = 0; i < n; i++)
		v[i] = 40 + floor(uniform() * 140);
	same_as_sorting("integer heart rate", v, n, HQ_QUANT_LIMIT, 1);
	/* Non-integers, all distinct: more than the limit, narrowed. */
	for (size_t i = 0; i < n; i++)
		v[i] = 55 + 40 * uniform();
	same_as_sorting("distinct non-integers", v, n, 1000, 3);
	same_as_sorting("distinct non-integers, tiny limit", v, n, 3, 3);
	/* An even count and an odd one. */
	same_as_sorting("even count", v, 1000, 10, 2);
	same_as_sorting("odd count", v, 999, 10, 2);
	/* Heavy ties among distinct values: most values one number. */
	for (size_t i = 0; i < n; i++)
		v[i] = uniform() < 0.9 ? 70 : 70 + uniform() * 1e-3;
	same_as_sorting("one value nine times in ten", v, n, 100, 2);
	/* Values a few ulps apart: bins cannot part them. */
	for (size_t i = 0; i < n; i++)
		v[i] = nextafter(nextafter(1.0, 2.0), 2.0) - (i % 5 == 0 ? 0x1p-52 : 0)
		    + (i % 7 == 0 ? 0x1p-51 : 0);
	same_as_sorting("values a few ulps apart", v, n, 1, 2);
	/* A range too wide to subtract its ends, with negatives and -0. */
	for (size_t i = 0; i < n; i++) {
		double u = uniform();
		v[i] = u < 0.01 ? -1e308 : u > 0.99 ? 1e308 : u < 0.5 ? -0.0
		    : (u - 0.5) * 1e-300;
	}
	same_as_sorting("huge range, -0 and subnormal-sized values", v, n, 50, 2);
	/* A long tail: p99 far from the median. */
	for (size_t i = 0; i < n; i++)
		v[i] = -log(uniform() + 1e-300) * 1000;
	same_as_sorting("exponential tail", v, n, 500, 3);
	/* Order must not matter: sorted input, reversed input. */
	hq_stats_sort(v, n);
	same_as_sorting("sorted input", v, n, 500, 3);
	for (size_t i = 0; i < n / 2; i++) {
		double t = v[i];
		v[i] = v[n - 1 - i];
		v[n - 1 - i] = t;
	}
	same_as_sorting("reversed input", v, n, 500, 3);
	/* Many small random cases: few values, tiny limits, ties. */
	int all = 1;
	for (int c = 0; c < 500 && all; c++) {
		size_t m = 1 + (size_t)(uniform() * 300);
		int kind = c % 3;
		for (size_t i = 0; i < m; i++)
			v[i] = kind == 0 ? floor(uniform() * 5) : kind == 1
			    ? uniform() * 100 - 50 : (uniform() < 0.5 ? 3 : 3 + uniform());
		double *s2 = malloc(m * sizeof *s2);
		memcpy(s2, v, m * sizeof *v);
		hq_stats_sort(s2, m);
		qt = hq_quant_new(probs, NPROBS, 1 + (long)(uniform() * 5));
		all = run(qt, v, m, &passes) == 0;
		for (size_t i = 0; all && i < NPROBS; i++)
			all = hq_quant_value(qt, i) ==
			    hq_stats_quantile_sorted(s2, m, probs[i]);
		if (!all)
			note("case %d (%zu values, kind %d) differs", c, m, kind);
		hq_quant_free(qt);
		free(s2);
	}
	ok(all, "500 random small cases with limits 1..5 as sorting");

	/* Counts: values given with a multiplicity, as rollups do. */
	qt = hq_quant_new(probs, NPROBS, 2);
	for (passes = 0; passes < 50; passes++) {
		hq_quant_add(qt, 1, 3);
		hq_quant_add(qt, 2.5, 1);
		hq_quant_add(qt, 10, 4);
		if (hq_quant_pass_done(qt))
			break;
	}
	/* R: quantile(c(1,1,1,2.5,10,10,10,10), c(.5, .1)) = 6.25 1 */
	is_dbl(hq_quant_value(qt, 0), 6.25, 1e-12, "counts: median of 1x3, 2.5, 10x4");
	is_dbl(hq_quant_value(qt, 1), 1, 0, "counts: p10");
	hq_quant_free(qt);

	/* The accumulator: bounded, asks for another pass. */
	struct hq_stats_acc acc;
	struct hq_agg ag[3];
	size_t na;
	struct hq_err e;
	ok(hq_stats_parse_aggs("avg,median,p90", ag, 3, &na, &e) == 0, "aggs");
	hq_stats_acc_init_aggs(&acc, ag, na, 1);
	for (size_t i = 0; i < n; i++)
		v[i] = 55 + 40 * uniform();
	for (size_t i = 0; i < n; i++)
		hq_stats_acc_add(&acc, v[i]);
	passes = 1;
	while (!hq_stats_acc_pass_done(&acc)) {
		for (size_t i = 0; i < n; i++)
			hq_stats_acc_add_values(&acc, v[i], 1);
		passes++;
	}
	hq_stats_sort(v, n);
	ok(passes > 1, "200000 distinct values took more than one pass");
	is_dbl(hq_stats_acc_value(&acc, &ag[1]), hq_stats_quantile_sorted(v, n, 0.5),
	    0, "accumulator median as sorting");
	is_dbl(hq_stats_acc_value(&acc, &ag[2]), hq_stats_quantile_sorted(v, n, 0.9),
	    0, "accumulator p90 as sorting");
	is_int(acc.n, (long)n, "moments counted once, not per pass");
	hq_stats_acc_free(&acc);
	free(v);
	return done_testing();
}
