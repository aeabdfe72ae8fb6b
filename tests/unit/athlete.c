/* Unit tests for lib/analyze/athlete.c, athlete_load.c and athlete_bests.c
 * (athlete.h, athlete_load.h, athlete_bests.h):
 * the closed forms issue 21 gives (constant heart rate, one load, the
 * same load every day, form lagging by a day), hand-worked cases of each
 * rule, the settings and their errors; then every figure of the generated
 * data (tests/data/athlete/generated.sql, with the traps) and of
 * real exports against what tests/data/athlete/reference.py, written from
 * the man pages' rules alone, computed: to 1e-9 relative. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hq/athlete_bests.h"
#include "hq/buf.h"
#include "hq/ingest.h"
#include "hq/input.h"
#include "hq/reader.h"
#include "hq/store.h"
#include "hq/time.h"
#include "fixture.h"
#include "tap.h"

#define DATA "tests/data/athlete/"

static struct hq_err e;

static int
close_to(double got, double want)
{
	if (isnan(want) || isnan(got))
		return isnan(want) && isnan(got);
	return fabs(got - want) <= 1e-9 * fabs(want) + 1e-12;
}

/* ---- closed forms ---- */

/* T minutes of constant heart rate hr, a sample every 5 s. */
static void
constant_hr(double hr, int minutes, struct hq_athlete_workout *w)
{
	size_t n = (size_t)minutes * 12;
	struct hq_tv *tv = calloc(n, sizeof *tv);

	memset(w, 0, sizeof *w);
	w->start = 1000000;
	w->end = w->start + minutes * 60;
	for (size_t i = 0; i < n; i++) {
		tv[i].t = w->start + (int64_t)i * 5;
		tv[i].v = hr;
	}
	w->hr = calloc(n, sizeof *w->hr);
	w->nhr = hq_athlete_hold(tv, n, w->start, w->end, NULL, 0, w->hr);
	w->distance_m = w->ascended_m = w->route_gain_m = NAN;
	free(tv);
}

static void
test_closed_forms(void)
{
	struct hq_athlete a;
	struct hq_athlete_workout w;
	struct hq_athlete_figures f;
	const enum hq_sex sexes[] = { HQ_SEX_MALE, HQ_SEX_FEMALE, HQ_SEX_UNKNOWN };
	const double ca[] = { 0.64, 0.86, 0.64 }, cb[] = { 1.92, 1.67, 1.92 };

	for (int k = 0; k < 3; k++) {
		hq_athlete_init(&a);
		a.sex = sexes[k];
		a.max_hr = 190;
		a.rest_hr = 50;
		a.lthr = 170;
		constant_hr(150, 45, &w);
		hq_athlete_figures(&a, &w, &f);
		double x = (150.0 - 50) / (190 - 50);
		double want = 45 * x * ca[k] * exp(cb[k] * x);
		ok(close_to(f.trimp, want), "constant HR 45 min, %s: trimp = "
		    "T x a e^(bx) = %.10g (got %.10g)", hq_athlete_sex_name(sexes[k]),
		    want, f.trimp);
		hq_athlete_workout_free(&w);
		/* An hour at threshold is 100. */
		constant_hr(170, 60, &w);
		hq_athlete_figures(&a, &w, &f);
		ok(close_to(f.hrss, 100), "an hour at lthr: hrss 100 (got %.12g)",
		    f.hrss);
		is_dbl(f.edwards, 60 * 4, 1e-9, "170/190 = 0.89: Edwards weight 4");
		is_dbl(f.z_min[4], 60, 1e-9, "an hour in zone 4 (80-90 %% of max)");
		is_dbl(f.hr_coverage_pct, 100, 1e-9, "samples every 5 s cover it");
		hq_athlete_workout_free(&w);
	}
	/* The same figures from the bins a cache would keep. */
	{
		struct hq_tv tv[5] = { { 0, 150 }, { 30, 160 }, { 60, 150 },
		    { 90, 175 }, { 200, 150 } };
		struct hq_athlete_summary sum;
		struct hq_athlete_figures g;
		memset(&w, 0, sizeof w);
		w.end = 400;
		w.hr = calloc(5, sizeof *w.hr);
		w.nhr = hq_athlete_hold(tv, 5, 0, 400, NULL, 0, w.hr);
		w.route_gain_m = w.ascended_m = NAN;
		hq_athlete_summarize(&w, &sum);
		ok(sum.nbins == 3 && sum.bins[0].hr == 150 &&
		    sum.bins[0].secs == 30 + 30 + 120 && sum.bins[2].hr == 175 &&
		    sum.bins[2].secs == 110, "summary: seconds held per heart rate");
		/* Rates not all whole beats (a chest strap's 150.5) are sorted,
		 * not counted: the same bins in the same order. */
		{
			struct hq_athlete_summary half;
			w.hr[1].v = 150.5;
			hq_athlete_summarize(&w, &half);
			ok(half.nbins == 3 && half.bins[0].hr == 150 &&
			    half.bins[0].secs == 180 && half.bins[1].hr == 150.5 &&
			    half.bins[1].secs == 30 && half.bins[2].hr == 175 &&
			    half.bins[2].secs == 110, "summary of a 150.5: its own "
			    "bin between 150 and 175");
			hq_athlete_summary_free(&half);
			w.hr[1].v = 160;
		}
		hq_athlete_figures(&a, &w, &f);
		hq_athlete_figures_of(&a, &sum, &g);
		double x1 = (150.0 - 50) / 140, x2 = (160.0 - 50) / 140,
		    x3 = (175.0 - 50) / 140;
		double want = (180 * x1 * 0.64 * exp(1.92 * x1) + 30 * x2 * 0.64 *
		    exp(1.92 * x2) + 110 * x3 * 0.64 * exp(1.92 * x3)) / 60;
		ok(close_to(f.trimp, want) && close_to(g.trimp, want) &&
		    g.max_hr == 175 && close_to(g.avg_hr, (150.0 * 180 + 160 * 30 +
		    175 * 110) / 320), "figures from the summary: trimp by hand "
		    "%.10g", want);
		hq_athlete_summary_free(&sum);
		hq_athlete_workout_free(&w);
	}
	/* Below rest x is floored at 0. */
	constant_hr(40, 10, &w);
	hq_athlete_figures(&a, &w, &f);
	is_dbl(f.trimp, 0, 0, "heart rate below rest: trimp 0");
	is_dbl(f.z_min[0], 10, 1e-12, "below 50 %% of max: zone 0");
	hq_athlete_workout_free(&w);

	/* One load L on day 0, then nothing. */
	struct hq_athlete_day d[200];
	const double L = 87.5;
	memset(d, 0, sizeof d);
	d[0].load = L;
	hq_athlete_pmc(d, 200);
	int good = 1, tsb_good = 1;
	for (int n = 0; n < 200; n++) {
		double want = L * (1 - exp(-1.0 / 42)) * exp(-n / 42.0);
		double want_atl = L * (1 - exp(-1.0 / 7)) * exp(-n / 7.0);
		if (!close_to(d[n].ctl, want) || !close_to(d[n].atl, want_atl)) {
			good = 0;
			printf("# day %d: ctl %.17g want %.17g\n", n, d[n].ctl, want);
		}
		if (n > 0 && !close_to(d[n].tsb, d[n - 1].ctl - d[n - 1].atl))
			tsb_good = 0;
	}
	ok(good, "one load L on day 0: ctl_n = L(1 - e^(-1/42)) e^(-n/42), "
	    "atl likewise with 7, for 200 days");
	ok(tsb_good && d[0].tsb == 0, "tsb_d = ctl_{d-1} - atl_{d-1}, 0 on day 0");
	ok(isnan(d[6].ramp) && close_to(d[7].ramp, d[7].ctl - d[0].ctl),
	    "ramp null for the first 7 days, then ctl_d - ctl_{d-7}");
	/* The same L every day from zero. */
	for (int n = 0; n < 200; n++)
		d[n].load = L;
	hq_athlete_pmc(d, 200);
	good = 1;
	for (int n = 0; n < 200; n++)
		if (!close_to(d[n].ctl, L * (1 - exp(-(n + 1) / 42.0))))
			good = 0;
	ok(good, "L every day: ctl_n = L(1 - e^(-(n+1)/42)), 200 days");
	/* Constant power P: NP = P; an hour at ftp: IF 1, TSS 100. */
	struct hq_held pw[1] = { { 0, 3600, 250 } };
	double secs;
	ok(close_to(hq_athlete_np(pw, 1, &secs), 250) && secs == 3600,
	    "constant power: NP = P over 3600 s");
	memset(&w, 0, sizeof w);
	w.start = 0;
	w.end = 3600;
	w.power = pw;
	w.npower = 1;
	w.route_gain_m = w.ascended_m = NAN;
	hq_athlete_init(&a);
	a.ftp = 250;
	hq_athlete_figures(&a, &w, &f);
	ok(close_to(f.if_, 1) && close_to(f.tss, 100) && close_to(f.load, 100),
	    "an hour at ftp: IF 1, TSS 100 = load (no heart rate)");
	ok(isnan(f.trimp) && isnan(f.hrss) && f.hr_minutes == 0,
	    "no heart rate: trimp, hrss null, hr_minutes 0");
	/* 29 s of power have no NP. */
	pw[0].dt = 29;
	ok(isnan(hq_athlete_np(pw, 1, &secs)), "under 30 s: no NP");
}

/* ---- the rules by hand ---- */

static void
test_hold(void)
{
	/* Samples at 0, 10, 200 (a gap), 290, 310 (in a pause 300-400), 420,
	 * 599, 600 (the end, outside), and a pause [300, 400). */
	struct hq_tv smp[] = { { -5, 1 }, { 0, 100 }, { 10, 110 }, { 200, 120 },
	    { 290, 130 }, { 310, 999 }, { 420, 140 }, { 599, 150 }, { 600, 160 } };
	struct hq_span p[] = { { 300, 400 } };
	struct hq_held out[9];
	size_t n = hq_athlete_hold(smp, 9, 0, 600, p, 1, out);
	const int64_t t[] = { 0, 10, 200, 290, 420, 599 };
	const int64_t dt[] = { 10, 120, 90, 10, 120, 1 };
	int good = n == 6;

	for (size_t i = 0; good && i < n; i++)
		good = out[i].t == t[i] && out[i].dt == dt[i];
	ok(good, "hold: until the next sample, at most 120 s, until a pause, "
	    "until the end; none in a pause or outside [start, end)");
	for (size_t i = 0; i < n; i++)
		printf("# %lld %lld %g\n", (long long)out[i].t, (long long)out[i].dt,
		    out[i].v);

	ok(out[2].v == 120 && hq_athlete_value_at(out, n, 200) == 120 &&
	    hq_athlete_value_at(out, n, 289) == 120 &&
	    isnan(hq_athlete_value_at(out, n, 130)) &&
	    isnan(hq_athlete_value_at(out, n, 350)) &&
	    hq_athlete_value_at(out, n, 599) == 150 &&
	    isnan(hq_athlete_value_at(out, n, 600)) &&
	    isnan(hq_athlete_value_at(out, n, -1)),
	    "the value in force: held, not in a gap past 120 s, a pause, the end");

	const double ele[] = { 100, 102, 102.9, 104, 101, 100.9, 104, NAN, 106.9 };
	/* ref 100; 102, 102.9 < +3; 104 +4 (ref 104); 101 -3 -> ref 101;
	 * 100.9 < 3 below 101? 0.1: no; 104 +3 -> gain 3 (ref 104); 106.9 <3. */
	is_dbl(hq_athlete_gain(ele, 9), 7, 1e-12, "3 m hysteresis: 4 + 3");
	ok(isnan(hq_athlete_gain(ele + 7, 1)), "no altitude: null");

	/* Points 100 m apart north (0.000899322 deg): 1 km best. */
	struct hq_route_pt pt[30];
	for (int i = 0; i < 30; i++) {
		pt[i].t = i * (i < 15 ? 30 : 20);
		if (i >= 15)
			pt[i].t = 15 * 30 + (i - 15) * 20;
		pt[i].lat = 10 + i * (100 / (HQ_ATHLETE_EARTH_R * M_PI / 180));
		pt[i].lon = 5;
		pt[i].ele = NAN;
		pt[i].route = 1;
	}
	double secs;
	int64_t from;
	ok(hq_athlete_best_distance(pt, 30, 0, 100000, NULL, 0, 999.999, &secs,
	    &from) == 1 && secs == 200 && from == 15 * 30,
	    "best 1 km: ten 20 s steps, 200 s from 450");
	/* A pause between points 22 (590 s) and 23 (610 s): no ten 20 s
	 * steps in one chain; the best ends at 22, from 12 (360 s). */
	struct hq_span pz[] = { { 591, 592 } };
	ok(hq_athlete_best_distance(pt, 30, 0, 100000, pz, 1, 999.999, &secs,
	    &from) == 1 && secs == 230 && from == 360,
	    "a pause between points breaks the chain: 230 s from 360");
	ok(hq_athlete_best_distance(pt, 30, 0, 100000, NULL, 0, 999.999, &secs,
	    &from) == 1 && hq_athlete_best_distance(pt, 30, 0, 590, NULL, 0,
	    999.999, &secs, &from) == 1 && secs == 240,
	    "points at or after the end are not the workout's");
	ok(hq_athlete_best_distance(pt, 30, 0, 100000, NULL, 0, 1e6, &secs,
	    &from) == 0, "a target longer than the route: none");

	struct hq_held pw[] = { { 0, 10, 100 }, { 10, 10, 300 }, { 20, 5, 50 },
	    { 100, 20, 200 } };
	double watts;
	ok(hq_athlete_best_power(pw, 4, 5, &watts, &from) == 1 && watts == 300 &&
	    from == 10, "best 5 s power: 300 W from 10");
	ok(hq_athlete_best_power(pw, 4, 20, &watts, &from) == 1 && watts == 200 &&
	    from == 0, "best 20 s: 200 from 0 and from 100, the earliest wins");
	ok(hq_athlete_best_power(pw, 4, 26, &watts, &from) == 0,
	    "no run of 26 s: a gap breaks runs");
}

static void
test_settings(void)
{
	struct hq_athlete a;
	struct hq_config *c;
	char path[] = "/tmp/hq-athlete-config-XXXXXX";
	int fd = mkstemp(path);
	FILE *fp = fdopen(fd, "w");

	fputs("[athlete]\nsex = female\nmax_hr = 188\nrest_hr = 52\n"
	    "zones = 110, 130, 150,170\nftp = 0\n", fp);
	fclose(fp);
	c = hq_config_load(path, &e);
	ok(c && hq_config_warning(c, 0) == NULL, "[athlete] keys are known");
	hq_athlete_init(&a);
	ok(hq_athlete_config(&a, c, &e) == -1, "ftp = 0 refused");
	like(e.msg, "^/tmp/hq-athlete-config-.*:6: \\[athlete\\] ftp = 0: ",
	    "the message names file:line");
	hq_config_free(c);
	fp = fopen(path, "w");
	fputs("[athlete]\nsex = female\nmax_hr = 188\nrest_hr = 52\n"
	    "zones = 110, 130, 150,170\nftp = 245\n", fp);
	fclose(fp);
	c = hq_config_load(path, &e);
	hq_athlete_init(&a);
	ok(hq_athlete_config(&a, c, &e) == 0 && a.sex == HQ_SEX_FEMALE &&
	    a.max_hr == 188 && a.zones[3] == 170 && a.ftp == 245,
	    "config values read");
	ok(hq_athlete_flag(&a, HQ_ATH_MAX_HR, "--max-hr", "184", &e) == 0 &&
	    a.max_hr == 184 && a.basis[HQ_ATH_MAX_HR] == HQ_BASIS_FLAG,
	    "a flag over the config");
	ok(hq_athlete_defaults(&a, NULL, &e) == 0 &&
	    close_to(a.lthr, 52 + 0.85 * (184 - 52)) &&
	    a.basis[HQ_ATH_LTHR] == HQ_BASIS_CONFIG &&
	    a.basis[HQ_ATH_REST_HR] == HQ_BASIS_CONFIG, "lthr by default, as "
	    "sure as the config's rest_hr (less than the flag's max_hr)");
	double lo[6];
	hq_athlete_zone_edges(&a, lo);
	ok(lo[0] == 0 && lo[1] == 92 && lo[2] == 110 && lo[5] == 170,
	    "zone edges: 50 %% of max, then the configured bpm");
	hq_config_free(c);
	unlink(path);

	hq_athlete_init(&a);
	ok(hq_athlete_flag(&a, HQ_ATH_FTP, "--ftp", "0", &e) == -1, "--ftp 0");
	is_str(e.msg, "--ftp 0: expected a power in W from 20 to 2500",
	    "its message");
	ok(hq_athlete_flag(&a, HQ_ATH_ZONES, "--zones", "120,110,130,140", &e) == -1,
	    "zones must rise");
	ok(hq_athlete_flag(&a, HQ_ATH_SEX, "--sex", "other", &e) == -1,
	    "sex: male or female");
	hq_athlete_flag(&a, HQ_ATH_MAX_HR, "--max-hr", "60", &e);
	hq_athlete_flag(&a, HQ_ATH_REST_HR, "--rest-hr", "60", &e);
	ok(hq_athlete_defaults(&a, NULL, &e) == -1, "--max-hr <= --rest-hr");
	is_str(e.msg, "max_hr 60 (--max-hr) is not above rest_hr 60 (--rest-hr): "
	    "set max_hr and rest_hr under [athlete] in the config, or --max-hr "
	    "and --rest-hr", "its message");
	hq_athlete_init(&a);
	hq_athlete_flag(&a, HQ_ATH_MAX_HR, "--max-hr", "180", &e);
	hq_athlete_flag(&a, HQ_ATH_LTHR, "--lthr", "185", &e);
	ok(hq_athlete_defaults(&a, NULL, &e) == -1, "--lthr outside (rest, max)");
	is_str(e.msg, "lthr 185 (--lthr) is not between rest_hr 60 (default) and "
	    "max_hr 180 (--max-hr)", "its message");
	hq_athlete_init(&a);
	ok(hq_athlete_defaults(&a, NULL, &e) == 0 && isnan(a.max_hr) &&
	    a.rest_hr == 60 && a.basis[HQ_ATH_REST_HR] == HQ_BASIS_DEFAULT &&
	    a.sex == HQ_SEX_UNKNOWN, "no store: rest 60, no max_hr, sex unknown");
}

/* ---- against the reference ---- */

struct fig {
	int64_t id;
	struct hq_athlete_figures f;
	int64_t hr_source, power_source, paused_s;
	double hr_sample_max;
};

struct run {
	struct hq_store *s;
	struct hq_athlete a;
	struct fig *figs;
	size_t nfigs;
	struct hq_athlete_day *days;
	size_t ndays;
	char days_types[128];
	long checked, failed;
};

static int
keep_fig(void *arg, const struct hq_athlete_workout *w,
    const struct hq_athlete_figures *f)
{
	struct run *r = arg;

	r->figs = hq_xrealloc(r->figs, (r->nfigs + 1) * sizeof *r->figs);
	r->figs[r->nfigs].id = w->id;
	r->figs[r->nfigs].f = *f;
	r->figs[r->nfigs].hr_source = w->hr_source;
	r->figs[r->nfigs].power_source = w->power_source;
	r->figs[r->nfigs].paused_s = w->paused_s;
	r->figs[r->nfigs].hr_sample_max = w->hr_sample_max;
	r->nfigs++;
	return 0;
}

static double
parse(const char *s)
{
	return strcmp(s, "null") == 0 || strcmp(s, "none") == 0 ? NAN :
	    strtod(s, NULL);
}

static void
check(struct run *r, const char *what, double got, double want)
{
	r->checked++;
	if (!close_to(got, want)) {
		r->failed++;
		if (r->failed <= 20)
			printf("# %s: got %.17g, reference %.17g\n", what, got, want);
	}
}

static int
scenario(struct run *r, char *args)
{
	static const struct { const char *k; enum hq_athlete_key key; } keys[] = {
		{ "sex", HQ_ATH_SEX }, { "max_hr", HQ_ATH_MAX_HR },
		{ "rest_hr", HQ_ATH_REST_HR }, { "lthr", HQ_ATH_LTHR },
		{ "ftp", HQ_ATH_FTP }, { "zones", HQ_ATH_ZONES },
	};
	char *tok, *save;

	hq_athlete_init(&r->a);
	for (tok = strtok_r(args, " \n", &save); tok;
	    tok = strtok_r(NULL, " \n", &save)) {
		char *eq = strchr(tok, '=');
		if (!eq)
			continue;
		*eq = '\0';
		for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
			if (strcmp(keys[i].k, tok) == 0 &&
			    hq_athlete_flag(&r->a, keys[i].key, tok, eq + 1, &e)) {
				printf("# %s\n", e.msg);
				return -1;
			}
	}
	if (hq_athlete_defaults(&r->a, r->s, &e)) {
		printf("# %s\n", e.msg);
		return -1;
	}
	free(r->figs);
	r->figs = NULL;
	r->nfigs = 0;
	free(r->days);
	r->days = NULL;
	r->days_types[0] = '\0';
	if (hq_athlete_each(r->s, &r->a, NULL, 0, 0, 0, 0, keep_fig, r, &e) < 0) {
		printf("# %s\n", e.msg);
		return -1;
	}
	/* The store's max_hr is the highest of the workouts' own maxima
	 * (what kept summaries give without reading samples). */
	double mx = NAN;
	for (size_t i = 0; i < r->nfigs; i++)
		if (isnan(mx) || r->figs[i].hr_sample_max > mx)
			mx = r->figs[i].hr_sample_max;
	if (r->a.basis[HQ_ATH_MAX_HR] == HQ_BASIS_STORE)
		check(r, "max_hr from the workouts' maxima", mx, r->a.max_hr);
	return 0;
}

static const struct fig *
find_fig(const struct run *r, int64_t id)
{
	for (size_t i = 0; i < r->nfigs; i++)
		if (r->figs[i].id == id)
			return &r->figs[i];
	return NULL;
}

static double
fig_field(const struct fig *g, const char *k)
{
	const struct hq_athlete_figures *f = &g->f;
	static const char *const z[6] = {
		"z0_min", "z1_min", "z2_min", "z3_min", "z4_min", "z5_min",
	};

	for (int i = 0; i < 6; i++)
		if (strcmp(k, z[i]) == 0)
			return f->z_min[i];
#define F(name, v) if (strcmp(k, name) == 0) return (v)
	F("hr_source", (double)g->hr_source);
	F("power_source", (double)g->power_source);
	F("paused_s", (double)g->paused_s);
	F("moving_min", f->moving_min);
	F("hr_minutes", f->hr_minutes);
	F("hr_coverage_pct", f->hr_coverage_pct);
	F("avg_hr", f->avg_hr);
	F("trimp", f->trimp);
	F("hrss", f->hrss);
	F("edwards", f->edwards);
	F("np", f->np);
	F("if", f->if_);
	F("tss", f->tss);
	F("load", f->load);
	F("elevation_gain_m", f->elevation_gain_m);
#undef F
	return -12345.678;     /* a field the test does not know: fails */
}

static int
ensure_days(struct run *r, const char *types)
{
	const char *t[1] = { types };

	if (strcmp(r->days_types, types) == 0)
		return 0;
	free(r->days);
	snprintf(r->days_types, sizeof r->days_types, "%s", types);
	return hq_athlete_days(r->s, &r->a, t, strcmp(types, "all") ? 1 : 0, 0,
	    &r->days, &r->ndays, &e);
}

static double
day_field(const struct hq_athlete_day *d, const char *k)
{
	if (strcmp(k, "workouts") == 0) return (double)d->workouts;
	if (strcmp(k, "workouts_no_hr") == 0) return (double)d->workouts_no_hr;
	if (strcmp(k, "load") == 0) return d->load;
	if (strcmp(k, "ctl") == 0) return d->ctl;
	if (strcmp(k, "atl") == 0) return d->atl;
	if (strcmp(k, "tsb") == 0) return d->tsb;
	if (strcmp(k, "ramp") == 0) return d->ramp;
	return -12345.678;
}

/* The workout and route of id, kept for the next lines. */
struct held {
	int64_t id;
	struct hq_athlete_workout w;
	struct hq_route_pt *pt;
	size_t npt;
	double unit;
	struct hq_athlete_split *sp;
	long nsp;
};

static int
hold_workout(struct run *r, struct held *h, int64_t id)
{
	if (h->id == id)
		return 0;
	hq_athlete_workout_free(&h->w);
	free(h->pt);
	free(h->sp);
	memset(h, 0, sizeof *h);
	if (hq_athlete_read(r->s, id, &h->w, &e) != 1 ||
	    hq_athlete_route(r->s, id, &h->pt, &h->npt, &e))
		return -1;
	h->id = id;
	return 0;
}

/* Every line of the expected file checked; the days' count too. */
static void
against(struct hq_store *s, const char *expected, const char *name)
{
	struct run r = { .s = s };
	struct held h = {0};
	FILE *fp = fopen(expected, "r");
	char line[512], what[600];
	long lineno = 0;

	if (!ok(fp != NULL, "%s: %s", name, expected))
		return;
	while (fgets(line, sizeof line, fp)) {
		char a[5][128] = { "", "", "", "", "" }, *sp;
		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (strncmp(line, "scenario ", 9) == 0) {
			sp = strchr(line + 9, ' ');
			if (scenario(&r, sp ? sp : line + 8)) {
				ok(0, "%s: scenario at line %ld", name, lineno);
				break;
			}
			continue;
		}
		int n = sscanf(line, "%*s %127s %127s %127s %127s %127s", a[0], a[1],
		    a[2], a[3], a[4]);
		snprintf(what, sizeof what, "%s:%ld %.*s", expected, lineno,
		    (int)strcspn(line, "\n"), line);
		if (strncmp(line, "setting ", 8) == 0 && n == 2) {
			if (strcmp(a[0], "sex") == 0) {
				r.checked++;
				if (strcmp(hq_athlete_sex_name(r.a.sex), a[1]))
					r.failed++;
			} else
				check(&r, what, strcmp(a[0], "max_hr") == 0 ? r.a.max_hr :
				    strcmp(a[0], "rest_hr") == 0 ? r.a.rest_hr : r.a.lthr,
				    parse(a[1]));
		} else if (strncmp(line, "workout ", 8) == 0 && n == 3) {
			const struct fig *g = find_fig(&r, strtoll(a[0], NULL, 10));
			check(&r, what, g ? fig_field(g, a[1]) : -1, parse(a[2]));
		} else if (strncmp(line, "days ", 5) == 0 && n == 2) {
			if (ensure_days(&r, a[0])) {
				ok(0, "%s: days: %s", name, e.msg);
				break;
			}
			check(&r, what, (double)r.ndays, parse(a[1]));
		} else if (strncmp(line, "day ", 4) == 0 && n == 4) {
			const struct hq_athlete_day *d = NULL;
			for (size_t i = 0; i < r.ndays; i++) {
				char date[16];
				hq_time_format_day(r.days[i].day, date, sizeof date);
				if (strcmp(date, a[1]) == 0)
					d = &r.days[i];
			}
			check(&r, what, d && strcmp(r.days_types, a[0]) == 0 ?
			    day_field(d, a[2]) : -1, parse(a[3]));
		} else if (strncmp(line, "best ", 5) == 0 && n == 4) {
			double secs;
			int64_t from;
			if (hold_workout(&r, &h, strtoll(a[0], NULL, 10)))
				break;
			int got = hq_athlete_best_distance(h.pt, h.npt, h.w.start,
			    h.w.end, h.w.pauses, h.w.npauses, parse(a[1]), &secs, &from);
			check(&r, what, got ? secs : NAN, parse(a[2]));
			check(&r, what, got ? (double)from : NAN, parse(a[3]));
		} else if (strncmp(line, "power ", 6) == 0 && n == 4) {
			double watts;
			int64_t from;
			if (hold_workout(&r, &h, strtoll(a[0], NULL, 10)))
				break;
			int got = hq_athlete_best_power(h.w.power, h.w.npower,
			    strtoll(a[1], NULL, 10), &watts, &from);
			check(&r, what, got ? watts : NAN, parse(a[2]));
			check(&r, what, got ? (double)from : NAN, parse(a[3]));
		} else if (strncmp(line, "split ", 6) == 0 && n == 5) {
			if (hold_workout(&r, &h, strtoll(a[0], NULL, 10)))
				break;
			if (h.unit != parse(a[1])) {
				free(h.sp);
				h.unit = parse(a[1]);
				h.nsp = hq_athlete_splits(h.pt, h.npt, &h.w, h.unit, &h.sp,
				    &e);
			}
			long k = strtol(a[2], NULL, 10);
			const struct hq_athlete_split *q = k >= 1 && k <= h.nsp ?
			    &h.sp[k - 1] : NULL;
			double v = !q ? -1 : strcmp(a[3], "km") == 0 ? q->km :
			    strcmp(a[3], "seconds") == 0 ? q->seconds :
			    strcmp(a[3], "pace_min_per_km") == 0 ? q->pace_min_per_km :
			    strcmp(a[3], "speed_kmh") == 0 ? q->speed_kmh :
			    strcmp(a[3], "avg_hr") == 0 ? q->avg_hr :
			    strcmp(a[3], "gain_m") == 0 ? q->gain_m : -12345.678;
			check(&r, what, v, parse(a[4]));
			/* The reference has exactly as many splits. */
			if (strcmp(a[3], "km") == 0 && k == h.nsp) {
				char next[512];
				long pos = ftell(fp);
				int more = 0;
				while (fgets(next, sizeof next, fp)) {
					char id2[64], u2[64];
					long k2;
					if (sscanf(next, "split %63s %63s %ld", id2, u2, &k2) == 3 &&
					    strcmp(id2, a[0]) == 0 && strcmp(u2, a[1]) == 0 &&
					    k2 > k)
						more = 1;
				}
				fseek(fp, pos, SEEK_SET);
				check(&r, "no split the reference has more", more, 0);
			}
		} else {
			ok(0, "%s:%ld: a line the test does not read", expected, lineno);
		}
	}
	if (fp)
		fclose(fp);
	ok(r.checked > 0 && r.failed == 0, "%s: %ld figures as the reference "
	    "computed them (to 1e-9 relative), %ld differ", name, r.checked,
	    r.failed);
	free(r.figs);
	free(r.days);
	hq_athlete_workout_free(&h.w);
	free(h.pt);
	free(h.sp);
}

static struct hq_store *
new_store(char *dir)
{
	char db[256];
	struct hq_store *s;

	if (!mkdtemp(dir))
		return NULL;
	snprintf(db, sizeof db, "%s/hq.db", dir);
	s = hq_store_open(db, HQ_STORE_CREATE, &e);
	if (!s)
		printf("# %s\n", e.msg);
	return s;
}

static void
test_generated(void)
{
	char dir[] = "/tmp/hq-athlete-XXXXXX";
	struct hq_store *s = new_store(dir);
	size_t len;
	char *sql = NULL;
	FILE *fp = fopen(DATA "generated.sql", "r");

	if (!ok(s && fp, "a store and " DATA "generated.sql"))
		return;
	/* fixture_slurp stops at 1 MiB: read it whole. */
	struct hq_buf b = {0};
	char chunk[65536];
	while ((len = fread(chunk, 1, sizeof chunk, fp)) > 0)
		hq_buf_append(&b, chunk, len);
	fclose(fp);
	sql = b.data;
	fixture_sql(s, sql);
	hq_buf_free(&b);
	against(s, DATA "generated.expected", "generated");
	hq_store_close(s);
	fixture_remove_store(dir);
}

/* Real exports imported as hq-ingest imports them. */
static void
test_fixtures(void)
{
	static const char *const files[][2] = {
		{ "apple-health/jshrake", "export.zip" },
		{ "apple-health/dogsheep", "zip_contents/apple_health_export/export.xml" },
	};
	char dir[] = "/tmp/hq-athlete-XXXXXX";
	struct hq_store *s = new_store(dir);

	if (!s)
		return;
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		const char *path = fixture_path(files[i][0], files[i][1]);
		const struct hq_reader *r;
		struct hq_input in;
		struct hq_ingest *ig;
		int rc = -1;

		if ((r = hq_reader_open(&in, path, NULL, &e))) {
			ig = hq_ingest_start(s, path, r->name, -1, &e);
			rc = ig ? r->read(&in, &(struct hq_read_opts){ 0 }, ig, &e) : -1;
			if (rc == 0)
				rc = hq_ingest_clinical_reports(ig, &e);
			if (ig)
				rc = rc == 0 ? hq_ingest_commit(ig, &e) :
				    (hq_ingest_abort(ig), -1);
			hq_input_close(&in);
		}
		if (!ok(rc == 0, "imported %s", path))
			printf("# %s\n", e.msg);
	}
	against(s, DATA "fixtures.expected", "fixtures");
	hq_store_close(s);
	fixture_remove_store(dir);
}

int
main(void)
{
	if (fixture_zone())
		return 1;
	test_closed_forms();
	test_hold();
	test_settings();
	test_generated();
	test_fixtures();
	return done_testing();
}
