/* Unit tests for the inference in lib/base/stats.c, against values R computed:
 * tests/data/stats/make-expected.R wrote the data sets there and
 * expected.txt (cor.test pearson and spearman with exact = FALSE, lm,
 * t.test with var.equal = FALSE, p.adjust "BH", rank, qnorm, pt, pbeta,
 * lbeta, acf with na.pass and Bretherton's n_eff on daily series with
 * gaps); this test reads them and needs no R. Every value must agree to
 * 1e-6 relative (the largest disagreement is printed). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hq/stats.h"
#include "tap.h"

#define MAXV 4096

static double worst;           /* largest relative disagreement seen */

static int
near(double got, double want)
{
	double d = fabs(got - want), scale = fabs(want) > 1e-300 ? fabs(want) : 1;

	if (!isfinite(got))
		return 0;
	/* values that are 0 up to rounding (an intercept of -1.5e-15) */
	if (fabs(want) < 1e-12 && d < 1e-12)
		return 1;
	if (d / scale > worst)
		worst = d / scale;
	return d <= 1e-6 * scale;
}

static void
check(const char *what, double got, double want)
{
	if (!ok(near(got, want), "%s = %.10g", what, want))
		printf("#   got: %.17g\n#   want: %.17g\n", got, want);
}

/* A data file: pairs (x y), groups (x|y value), or daily pairs (day x y)
 * in the lag1-* files; the name decides. */
struct data {
	char name[64];
	int64_t day[MAXV];
	double x[MAXV], y[MAXV];
	size_t nx, ny;
};

static int
load(struct data *d, const char *dir, const char *name)
{
	char path[512], line[256], g[8];
	FILE *f;

	if (strcmp(d->name, name) == 0)
		return 0;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (!(f = fopen(path, "r")))
		return -1;
	d->nx = d->ny = 0;
	snprintf(d->name, sizeof d->name, "%s", name);
	while (fgets(line, sizeof line, f)) {
		double a, b, c;
		if (strncmp(name, "lag1", 4) == 0) {
			if (sscanf(line, "%lf %lf %lf", &a, &b, &c) != 3 || d->nx >= MAXV)
				break;
			d->day[d->nx] = (int64_t)a;
			d->x[d->nx] = b;
			d->y[d->nx++] = c;
			d->ny = d->nx;
		} else if (strncmp(name, "welch", 5) == 0) {
			if (sscanf(line, "%7s %lf", g, &a) != 2 || d->nx >= MAXV || d->ny >= MAXV)
				break;
			if (g[0] == 'x')
				d->x[d->nx++] = a;
			else
				d->y[d->ny++] = a;
		} else {
			if (sscanf(line, "%lf %lf", &a, &b) != 2 || d->nx >= MAXV)
				break;
			d->x[d->nx] = a;
			d->y[d->nx++] = b;
			d->ny = d->nx;
		}
	}
	fclose(f);
	return 0;
}

static double
statistic(struct data *d, const char *stat, int *found)
{
	static struct hq_stats_cor pc, sc;
	static struct hq_stats_welch w;
	static double acf_x, acf_y, n_eff;
	static char done[64];

	*found = 1;
	if (strcmp(done, d->name) != 0) {
		snprintf(done, sizeof done, "%s", d->name);
		if (strncmp(d->name, "welch", 5) == 0) {
			hq_stats_welch(d->x, d->nx, d->y, d->ny, &w);
		} else {
			hq_stats_pearson(d->x, d->y, d->nx, &pc);
			hq_stats_spearman(d->x, d->y, d->nx, &sc);
			acf_x = hq_stats_acf1(d->day, d->x, d->nx);
			acf_y = hq_stats_acf1(d->day, d->y, d->nx);
			n_eff = hq_stats_n_eff(d->nx, acf_x, acf_y);
		}
	}
	const struct { const char *name; const double *v; } fields[] = {
		{ "pearson.r", &pc.r }, { "pearson.p", &pc.p },
		{ "pearson.ci_low", &pc.ci_low }, { "pearson.ci_high", &pc.ci_high },
		{ "spearman.rho", &sc.r }, { "spearman.p", &sc.p },
		{ "lm.slope", &pc.slope }, { "lm.intercept", &pc.intercept },
		{ "welch.mean_x", &w.mean_x }, { "welch.mean_y", &w.mean_y },
		{ "welch.median_x", &w.median_x }, { "welch.median_y", &w.median_y },
		{ "welch.diff", &w.diff }, { "welch.t", &w.t }, { "welch.df", &w.df },
		{ "welch.p", &w.p }, { "welch.g", &w.g },
		{ "acf.x", &acf_x }, { "acf.y", &acf_y }, { "n_eff", &n_eff },
	};
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
		if (strcmp(stat, fields[i].name) == 0)
			return strncmp(stat, "pearson.ci", 10) == 0 && !pc.has_ci ? NAN : *fields[i].v;
	if (strcmp(stat, "pearson.no_ci") == 0)
		return !pc.has_ci;
	if (strcmp(stat, "pearson.perfect") == 0)
		return pc.perfect && pc.p == 0;
	if (strcmp(stat, "status") == 0)
		return strncmp(d->name, "welch", 5) == 0 ? (double)w.status : (double)pc.status;
	*found = 0;
	return NAN;
}

static enum hq_stats_status
status_named(const char *s)
{
	return strcmp(s, "constant_x") == 0 ? HQ_STATS_CONSTANT_X :
	    strcmp(s, "constant_y") == 0 ? HQ_STATS_CONSTANT_Y :
	    strcmp(s, "constant") == 0 ? HQ_STATS_CONSTANT : HQ_STATS_OK;
}

static void
check_fn(char *line)
{
	char name[32], what[96];
	double a, b, c, want;
	int n;

	if (sscanf(line, "fn %31s%n", name, &n) != 1)
		return;
	line += n;
	if (strcmp(name, "qnorm") == 0 && sscanf(line, "%lf %lf", &a, &want) == 2) {
		snprintf(what, sizeof what, "qnorm(%g)", a);
		check(what, hq_stats_qnorm(a), want);
	} else if (strcmp(name, "pt") == 0 && sscanf(line, "%lf %lf %lf", &a, &b, &want) == 3) {
		snprintf(what, sizeof what, "pt(%g, %g)", a, b);
		if (want == 0)   /* R underflows to 0: so must we, not to noise */
			ok(hq_stats_pt(a, b) == 0, "%s underflows to 0 as in R", what);
		else
			check(what, hq_stats_pt(a, b), want);
	} else if (strcmp(name, "log_pbeta") == 0 &&
	    sscanf(line, "%lf %lf %lf %lf", &a, &b, &c, &want) == 4) {
		snprintf(what, sizeof what, "log pbeta(%g, %g, %g)", a, b, c);
		check(what, hq_stats_log_ibeta(a, 1 - a, b, c, 0), want);
	} else if (strcmp(name, "lbeta") == 0 && sscanf(line, "%lf %lf %lf", &a, &b, &want) == 3) {
		snprintf(what, sizeof what, "lbeta(%g, %g)", a, b);
		check(what, hq_stats_lbeta(a, b), want);
	} else if (strcmp(name, "n_eff") == 0 &&
	    sscanf(line, "%lf %lf %lf %lf", &a, &b, &c, &want) == 4) {
		snprintf(what, sizeof what, "n_eff(%g, %g, %g)", a, b, c);
		check(what, hq_stats_n_eff((size_t)a, b, c), want);
	} else if (strcmp(name, "ranks") == 0) {
		double v[32], r[32], w[32];
		size_t nv = 0, nw = 0, i;
		char *vals = strtok(line, " \n"), *ranks = strtok(NULL, " \n"), *t;
		for (t = strtok(vals, ","); t && nv < 32; t = strtok(NULL, ","))
			v[nv++] = strtod(t, NULL);
		for (t = strtok(ranks, ","); t && nw < 32; t = strtok(NULL, ","))
			w[nw++] = strtod(t, NULL);
		hq_stats_ranks(v, nv, r);
		for (i = 0; i < nv && nv == nw && r[i] == w[i]; i++)
			;
		ok(nv == nw && nv > 0 && i == nv, "average ranks with ties as R's rank()");
	} else {
		ok(0, "unknown line: fn %s%s", name, line);
	}
}

static void
check_bh(const char *dir)
{
	char path[512], line[256];
	double p[64], adj[64];
	size_t m = 0;
	FILE *f;

	snprintf(path, sizeof path, "%s/bh.txt", dir);
	if (!ok((f = fopen(path, "r")) != NULL, "bh.txt opens"))
		return;
	while (m < 64 && fgets(line, sizeof line, f))
		p[m++] = strtod(line, NULL);
	fclose(f);
	hq_stats_p_adjust_bh(p, m, adj);
	snprintf(path, sizeof path, "%s/expected.txt", dir);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof line, f)) {
		unsigned i;
		double want;
		char what[32];
		if (sscanf(line, "bh.txt bh.%u %lf", &i, &want) == 2 && i >= 1 && i <= m) {
			snprintf(what, sizeof what, "BH adjusted p[%u]", i);
			check(what, adj[i - 1], want);
		}
	}
	if (f)
		fclose(f);
	/* in place, as the header allows */
	hq_stats_p_adjust_bh(p, m, p);
	ok(memcmp(p, adj, m * sizeof *p) == 0, "BH adjusts in place too");
}

int
main(void)
{
	const char *dir = getenv("HQ_STATS_DATA") ? getenv("HQ_STATS_DATA") : "tests/data/stats";
	static struct data d;
	char path[512], line[512], file[64], stat[32], rest[64];
	FILE *f;
	int nlines = 0;

	snprintf(path, sizeof path, "%s/expected.txt", dir);
	f = fopen(path, "r");
	if (!ok(f != NULL, "%s opens (run from the top of the tree)", path))
		return done_testing();
	while (fgets(line, sizeof line, f)) {
		int found;
		double got, want;
		char what[128];

		nlines++;
		if (strncmp(line, "fn ", 3) == 0) {
			check_fn(line);
			continue;
		}
		if (sscanf(line, "%63s %31s %63s", file, stat, rest) != 3 ||
		    strcmp(file, "bh.txt") == 0)
			continue;
		if (!ok(load(&d, dir, file) == 0, "%s loads", file))
			continue;
		if (strcmp(stat, "status") == 0) {
			got = statistic(&d, stat, &found);
			is_int((int)got, status_named(rest), "%s: %s is reported, not computed",
			    file, rest);
			continue;
		}
		want = strtod(rest, NULL);
		got = statistic(&d, stat, &found);
		snprintf(what, sizeof what, "%s: %s", file, stat);
		if (!found)
			ok(0, "%s: unknown statistic", what);
		else if (strcmp(rest, "NA") == 0)   /* R's NA: undefined here too */
			ok(isnan(got), "%s is NaN, as R's NA", what);
		else
			check(what, got, want);
	}
	fclose(f);
	ok(nlines > 150, "expected.txt has its %d lines", nlines);
	check_bh(dir);

	/* Anscombe's quartet: four data sets, one r (0.816 to three digits,
	 * truncated as Anscombe printed it; the fourth is 0.81652). */
	for (int k = 1; k <= 4; k++) {
		struct hq_stats_cor c;
		snprintf(file, sizeof file, "anscombe%d.tsv", k);
		load(&d, dir, file);
		hq_stats_pearson(d.x, d.y, d.nx, &c);
		ok(c.r >= 0.816 && c.r < 0.817, "Anscombe %d: r = 0.816 (%.6f)", k, c.r);
	}

	/* Lag-1 autocorrelation: what it needs. */
	{
		int64_t day[] = { 1, 2, 4, 5 }, apart[] = { 1, 3 };
		double v[] = { 3, 3, 3, 3 }, two[] = { 1, 5 };
		ok(isnan(hq_stats_acf1(day, v, 4)), "acf1 of a constant series is NaN");
		ok(isnan(hq_stats_acf1(apart, two, 2)), "acf1 without consecutive days is NaN");
		ok(isnan(hq_stats_acf1(day, two, 1)), "acf1 of one day is NaN");
		is_dbl(hq_stats_n_eff(80, NAN, 0.5), 80, 0, "n_eff without an autocorrelation is n");
	}

	/* Undefined cases say so and carry no numbers. */
	{
		struct hq_stats_cor c;
		struct hq_stats_welch w;
		double x[] = { 1, 2 }, y[] = { 3, 5 }, k[] = { 4, 4, 4, 4 };
		is_int(hq_stats_pearson(x, y, 2, &c), HQ_STATS_TOO_FEW, "n = 2: too few for a p");
		is_int(hq_stats_spearman(x, y, 0, &c), HQ_STATS_TOO_FEW, "n = 0: too few");
		is_int(hq_stats_welch(x, 1, y, 2, &w), HQ_STATS_TOO_FEW, "Welch with one value in a group: too few");
		is_int(hq_stats_welch(k, 2, k + 2, 2, &w), HQ_STATS_CONSTANT, "Welch on constants: constant");
		ok(strstr(hq_stats_status_str(HQ_STATS_CONSTANT_Y), "constant") != NULL,
		    "the status reads as words: %s", hq_stats_status_str(HQ_STATS_CONSTANT_Y));
		double big[] = { 1e200, -1e200, 3e200, 0 }, small[] = { 1, 2, 3, 4 };
		is_int(hq_stats_pearson(big, small, 4, &c), HQ_STATS_RANGE, "values whose squares overflow: range, not inf");
	}

	/* Tails: a p of 1e-250 keeps its digits, one past 1e-308 is 0. */
	ok(hq_stats_t_p2(-100, 500) == 0, "t = -100, 500 df: p underflows to exactly 0");
	ok(hq_stats_t_p2(0, 7) == 1, "t = 0: p = 1");
	ok(hq_stats_t_p2(INFINITY, 7) == 0, "t = inf: p = 0");
	ok(isinf(hq_stats_qnorm(0)) && hq_stats_qnorm(0) < 0 && isinf(hq_stats_qnorm(1)),
	    "qnorm(0) = -inf, qnorm(1) = inf");
	ok(isnan(hq_stats_qnorm(-0.1)) && isnan(hq_stats_qnorm(1.5)), "qnorm outside [0, 1] is NaN");
	is_dbl(hq_stats_qnorm(0.975), 1.959963984540054, 1e-15, "qnorm(0.975) to the last digit");
	printf("# largest relative difference from R: %.3g\n", worst);
	ok(worst < 1e-6, "every value within 1e-6 of R's");
	return done_testing();
}
