/*
 * trend-bench: the data and the baseline for bench/trend.sh.
 *
 *   trend-bench hq [DAYS]     hq_trend() over DAYS (3650) days of a
 *                             resting heart rate with a slow rise, noise
 *                             and values to a tenth (many ties); best of
 *                             five runs
 *   trend-bench sort [DAYS]   the plain way over the same days: every
 *                             pairwise slope into an array of doubles,
 *                             sorted (qsort), the median and Gilbert's
 *                             positions read off; one run (seconds
 *                             each)
 *
 * Each prints "SECONDS MAXRSS_KB SLOPE_WEEK CI_LOW CI_HIGH" (the peak
 * resident size of the whole process, from getrusage), so the two can be
 * compared and must agree. Never installed (a helper of make bench).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "hq/err.h"
#include "hq/stats.h"
#include "hq/time.h"
#include "hq/trend.h"

#include "bench.h"

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The plain way: all N slopes held and sorted. */
static void
by_sort(const int64_t *t, const double *v, size_t n, double out[3])
{
	size_t ns = n * (n - 1) / 2, o = 0;
	double *s = malloc(ns * sizeof *s), c, *u = malloc(n * sizeof *u), vu = 0;
	double dn = (double)n;

	if (!s || !u)
		exit(2);
	for (size_t i = 0; i + 1 < n; i++)
		for (size_t j = i + 1; j < n; j++)
			s[o++] = (v[j] - v[i]) / (double)(t[j] - t[i]);
	qsort(s, ns, sizeof *s, cmp);
	memcpy(u, v, n * sizeof *u);
	qsort(u, n, sizeof *u, cmp);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && u[j] == u[i]; j++)
			;
		double g = (double)(j - i);
		vu += g * (g - 1) * (2 * g + 5);
	}
	c = hq_stats_qnorm(0.975) * sqrt((dn * (dn - 1) * (2 * dn + 5) - vu) / 18);
	out[0] = 7 * (ns % 2 ? s[ns / 2] : (s[ns / 2 - 1] + s[ns / 2]) / 2);
	out[1] = 7 * s[(size_t)nearbyint(((double)ns - c) / 2) - 1];
	out[2] = 7 * s[(size_t)nearbyint(((double)ns + c) / 2)];
	free(s);
	free(u);
}

int
main(int argc, char **argv)
{
	size_t n = argc > 2 ? strtoul(argv[2], NULL, 10) : 3650;
	int64_t *t;
	double *v, best = 1e9, out[3] = { 0, 0, 0 };
	struct rusage ru;
	struct hq_trend tr;
	struct hq_err e;

	if (argc < 2 || (strcmp(argv[1], "hq") && strcmp(argv[1], "sort")) ||
	    n < 3 || n > HQ_TREND_MAX_N) {
		fprintf(stderr, "usage: trend-bench hq|sort [DAYS]\n");
		return 2;
	}
	t = malloc(n * sizeof *t);
	v = malloc(n * sizeof *v);
	if (!t || !v)
		return 2;
	for (size_t i = 0; i < n; i++) {
		double noise = 0;
		for (int k = 0; k < 4; k++)
			noise += uniform() - 0.5;
		t[i] = 16000 + (int64_t)i;
		v[i] = round((58 + 0.0008 * (double)i + 3 * noise) * 10) / 10;
	}
	for (int run = 0; run < (strcmp(argv[1], "hq") == 0 ? 5 : 1); run++) {
		double s = hq_time_monotonic();
		if (strcmp(argv[1], "hq") == 0) {
			if (hq_trend(t, v, n, &tr, &e) < 0) {
				fprintf(stderr, "trend-bench: %s\n", e.msg);
				return 2;
			}
			out[0] = tr.slope_week;
			out[1] = tr.ci_low;
			out[2] = tr.ci_high;
		} else {
			by_sort(t, v, n, out);
		}
		s = hq_time_monotonic() - s;
		best = s < best ? s : best;
	}
	getrusage(RUSAGE_SELF, &ru);
	printf("%.4f %ld %.17g %.17g %.17g\n", best, ru.ru_maxrss, out[0], out[1],
	    out[2]);
	free(t);
	free(v);
	return 0;
}
