/* Unit tests for lib/analyze/trend.c against values R computed:
 * tests/data/trend/trend.R wrote the daily series there and expected.txt
 * (the Theil-Sen slope and Gilbert's interval by hq-report(1)'s formula over
 * R's sorted slopes, tau, z and p by cor.test(method = "kendall", exact =
 * FALSE), the detrended values' lag-1 autocorrelation with acf and the
 * days it leaves); this test reads them and needs no R. Every value must agree to
 * 1e-9 relative. Then the selection of order statistics against a full
 * sort, on series made here (ties, equal slopes, past HQ_TREND_KEEP). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hq/trend.h"
#include "tap.h"

#define MAXV 4096

static int64_t day[MAXV];
static double val[MAXV];

static size_t
load(const char *dir, const char *name)
{
	char path[512], line[256];
	size_t n = 0;
	double a, b;
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (!(f = fopen(path, "r")))
		return 0;
	while (n < MAXV && fgets(line, sizeof line, f) &&
	    sscanf(line, "%lf %lf", &a, &b) == 2) {
		day[n] = (int64_t)a;
		val[n++] = b;
	}
	fclose(f);
	return n;
}

static double
field(const struct hq_trend *tr, const char *what, int *found)
{
	*found = 1;
	if (strcmp(what, "n") == 0)
		return (double)tr->n;
	if (strcmp(what, "n_slopes") == 0)
		return (double)tr->n_slopes;
	if (strcmp(what, "slope_week") == 0)
		return tr->slope_week;
	if (strcmp(what, "var_s") == 0)
		return tr->var_s;
	if (strcmp(what, "m1") == 0)
		return tr->m1;
	if (strcmp(what, "m2") == 0)
		return tr->m2;
	if (strcmp(what, "ci_low") == 0)
		return tr->ci_low;
	if (strcmp(what, "ci_high") == 0)
		return tr->ci_high;
	if (strcmp(what, "tau") == 0)
		return tr->tau;
	if (strcmp(what, "z") == 0)
		return tr->z;
	if (strcmp(what, "p") == 0)
		return tr->p;
	if (strcmp(what, "acf1") == 0)
		return tr->acf1;
	if (strcmp(what, "n_eff") == 0)
		return tr->n_eff;
	*found = 0;
	return NAN;
}

static double worst;

static void
against_r(const char *dir)
{
	char path[512], line[256], file[64] = "", name[64], what[32], num[64];
	struct hq_trend tr;
	struct hq_err e;
	size_t checked = 0;
	FILE *f;

	snprintf(path, sizeof path, "%s/expected.txt", dir);
	if (!ok((f = fopen(path, "r")) != NULL, "%s opens", path))
		return;
	while (fgets(line, sizeof line, f)) {
		if (sscanf(line, "%63s %31s %63s", name, what, num) != 3)
			continue;
		if (strcmp(name, file) != 0) {
			size_t n = load(dir, name);
			snprintf(file, sizeof file, "%s", name);
			ok(n > 0 && hq_trend(day, val, n, &tr, &e) == 0,
			    "%s: %zu days, a trend", name, n);
		}
		if (strcmp(what, "status") == 0) {
			ok(tr.status == HQ_STATS_TOO_FEW && isnan(tr.slope_week) &&
			    isnan(tr.p), "%s: too few days, no numbers", name);
			continue;
		}
		int found;
		double got = field(&tr, what, &found), want;
		if (!ok(found, "%s: %s is a field", name, what))
			continue;
		if (strcmp(num, "NA") == 0) {
			ok(isnan(got), "%s: %s is NA as in R", name, what);
			continue;
		}
		want = strtod(num, NULL);
		double d = fabs(got - want), scale = fabs(want);
		if (scale > 0 && d / scale > worst)
			worst = d / scale;
		if (!ok(d <= 1e-9 * scale || d <= 1e-300, "%s: %s = %.10g",
		    name, what, want))
			printf("#   got: %.17g\n#   want: %.17g\n", got, want);
		checked++;
	}
	fclose(f);
	ok(checked > 100, "%zu values checked against R; the largest relative "
	    "difference %.3g", checked, worst);
}

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Every slope sorted, the k-th picked: the reference. */
static void
brute(size_t n, const int64_t *k, size_t m, double *out)
{
	size_t ns = n * (n - 1) / 2, o = 0;
	double *s = malloc(ns * sizeof *s);

	for (size_t i = 0; i + 1 < n; i++)
		for (size_t j = i + 1; j < n; j++)
			s[o++] = (val[j] - val[i]) / (double)(day[j] - day[i]);
	qsort(s, ns, sizeof *s, cmp);
	for (size_t q = 0; q < m; q++)
		out[q] = s[k[q] - 1];
	free(s);
}

static void
selection(void)
{
	static const struct { size_t n; int levels; int gaps; } cases[] = {
		{ 5, 3, 0 }, { 40, 4, 1 }, { 300, 1000, 1 }, { 364, 7, 0 },
		{ 800, 50, 1 }, { 1500, 100000, 1 }, { 1200, 1, 0 },
	};
	unsigned seed = 12345;

	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		size_t n = cases[c].n, ns = n * (n - 1) / 2, bad = 0;
		int64_t k[4] = { 1, (int64_t)ns, (int64_t)(ns + 1) / 2,
		    (int64_t)ns / 3 + 1 };
		double got[4], want[4];
		for (size_t i = 0; i < n; i++) {
			seed = seed * 1103515245 + 12345;
			day[i] = (i ? day[i - 1] : 0) + 1 +
			    (cases[c].gaps ? (int64_t)(seed >> 16) % 3 : 0);
			seed = seed * 1103515245 + 12345;
			/* few levels: many equal values and equal slopes */
			val[i] = (double)((seed >> 8) % (unsigned)cases[c].levels) / 7;
		}
		hq_trend_slopes_kth(day, val, n, k, 4, got);
		brute(n, k, 4, want);
		for (size_t q = 0; q < 4; q++)
			bad += got[q] != want[q];
		ok(bad == 0, "%zu days, %d levels: the 1st, last, middle and a "
		    "third slope as a full sort has them", n, cases[c].levels);
	}
	/* A straight line: every slope 0.1 up to a few ulps, past
	 * HQ_TREND_KEEP of them (the windows narrow to ulps). */
	for (size_t i = 0; i < 700; i++) {
		day[i] = (int64_t)(3 * i);
		val[i] = 62 + 0.1 * (double)(3 * i);
	}
	int64_t kl[4] = { 1, 244650, 122325, 100000 };
	double gl[4], wl[4];
	hq_trend_slopes_kth(day, val, 700, kl, 4, gl);
	brute(700, kl, 4, wl);
	ok(gl[0] == wl[0] && gl[1] == wl[1] && gl[2] == wl[2] && gl[3] == wl[3],
	    "a straight line of 700 days: the same order statistics (%.17g)", gl[2]);
	/* One slope far out (the first pass's bins mostly empty). */
	for (size_t i = 0; i < 600; i++) {
		day[i] = (int64_t)i;
		val[i] = (double)(i % 17);
	}
	val[300] = 1e12;
	int64_t k[3] = { 1000, 100000, 179700 };
	double got[3], want[3];
	hq_trend_slopes_kth(day, val, 600, k, 3, got);
	brute(600, k, 3, want);
	ok(got[0] == want[0] && got[1] == want[1] && got[2] == want[2],
	    "a value of 1e12 among small ones: the same order statistics");
}

static void
errors(void)
{
	struct hq_trend tr;
	struct hq_err e;
	int64_t t[3] = { 1, 2, 2 };
	double v[3] = { 1, 2, 3 };

	ok(hq_trend(t, v, 3, &tr, &e) == -1 && strstr(e.msg, "ascend"),
	    "a day twice: an error (%s)", e.msg);
	t[2] = 3;
	v[1] = NAN;
	ok(hq_trend(t, v, 3, &tr, &e) == -1, "a value not a number: an error");
	v[1] = 1e200;
	ok(hq_trend(t, v, 3, &tr, &e) == 0 && tr.status == HQ_STATS_RANGE,
	    "a value of 1e200: out of range, no numbers");
	ok(hq_trend(t, v, 0, &tr, &e) == 0 && tr.status == HQ_STATS_TOO_FEW,
	    "no values: too few");
}

/* The caution: long3650's detrended days carry over (acf 0.316 > 0.2,
 * worth 1897 < 0.7 x 3650 days), noisy400's do not (acf -0.055). */
static void
serial(const char *dir)
{
	struct hq_trend tr;
	struct hq_err e;
	size_t n = load(dir, "long3650.tsv");

	ok(n == 3650 && hq_trend(day, val, n, &tr, &e) == 0 && tr.serial,
	    "3650 days with a seasonal swing: serially correlated");
	n = load(dir, "noisy400.tsv");
	ok(n == 400 && hq_trend(day, val, n, &tr, &e) == 0 && !tr.serial,
	    "400 noisy days: not");
}

int
main(void)
{
	const char *dir = getenv("HQ_TREND_DATA") ? getenv("HQ_TREND_DATA") :
	    "tests/data/trend";

	against_r(dir);
	serial(dir);
	selection();
	errors();
	return done_testing();
}
