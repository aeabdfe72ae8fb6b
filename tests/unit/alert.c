/* Unit tests for lib/analyze/alert.c: baseline z-scores against values
 * computed by hand (written out below as the arithmetic that gives them),
 * the rules per measure, the CGM consensus targets at and past their
 * limits, lab flags. */
#include <math.h>
#include <string.h>

#include "hq/alert.h"
#include "tap.h"

#define D 20000      /* the day alerts are asked about */

static int64_t day[64];
static double val[64];
static size_t n;

static void
put(int64_t d, double v)
{
	day[n] = d;
	val[n++] = v;
}

struct seen {
	int count;
	struct hq_alert last;
	int64_t days[16];
};

static int
collect(void *arg, const struct hq_alert *a)
{
	struct seen *s = arg;

	if (s->count < 16)
		s->days[s->count] = a->day;
	s->count++;
	s->last = *a;
	return 0;
}

static void
baselines(void)
{
	const struct hq_alert_rule *rhr = hq_alert_rule_for("resting_heart_rate");
	const struct hq_alert_rule *hrv = hq_alert_rule_for("heart_rate_variability_sdnn");
	const struct hq_alert_rule *sleep = hq_alert_rule_for("sleep");
	struct hq_alert_baseline b;

	ok(rhr && hrv && sleep && !hq_alert_rule_for("step_count"),
	    "rules for resting_heart_rate, HRV and sleep; none for steps");

	/* 28 days, 55 and 57 in turn: mean 56, each 1 from it, so the sum of
	 * squares is 28 and sd = sqrt(28 / 27). */
	n = 0;
	for (int i = 28; i >= 1; i--)
		put(D - i, i % 2 ? 55 : 57);
	hq_alert_baseline(day, val, n, D, 58.1, &b);
	is_int(b.n, 28, "28 days before the day");
	is_dbl(b.mean, 56, 1e-12, "mean 56");
	is_dbl(b.sd, sqrt(28.0 / 27), 1e-12, "sd sqrt(28/27) = 1.01835");
	is_dbl(b.z, 2.1 / sqrt(28.0 / 27), 1e-12, "58.1: z = 2.1 / 1.01835 = 2.0622");
	ok(hq_alert_rule_fires(rhr, b.z), "resting HR z 2.06 >= 2: an alert");
	hq_alert_baseline(day, val, n, D, 58, &b);
	is_dbl(b.z, 2 / sqrt(28.0 / 27), 1e-12, "58: z = 1.9640");
	ok(!hq_alert_rule_fires(rhr, b.z), "z 1.96 < 2: none");
	hq_alert_baseline(day, val, n, D, 54, &b);
	ok(!hq_alert_rule_fires(rhr, b.z), "resting HR far below: none (it "
	    "alerts upwards only)");
	ok(!hq_alert_rule_fires(hrv, b.z) && !hq_alert_rule_fires(sleep, b.z),
	    "54: z = -2 / 1.01835 = -1.964 > -2: no HRV or sleep alert");
	hq_alert_baseline(day, val, n, D, 53.9, &b);
	is_dbl(b.z, -2.1 / sqrt(28.0 / 27), 1e-12, "53.9: z = -2.0622");
	ok(hq_alert_rule_fires(hrv, b.z) && hq_alert_rule_fires(sleep, b.z),
	    "z -2.06 <= -2: an HRV alert, a sleep alert");
}

static void
edges(void)
{
	const struct hq_alert_rule *rhr = hq_alert_rule_for("resting_heart_rate");
	struct hq_alert_baseline b;

	/* A constant baseline: sd 0, no z, no alert, no division by zero. */
	n = 0;
	for (int i = 28; i >= 1; i--)
		put(D - i, 60);
	hq_alert_baseline(day, val, n, D, 75, &b);
	ok(b.n == 28 && b.mean == 60 && b.sd == 0 && isnan(b.z),
	    "constant 60 for 28 days, then 75: sd 0, z null");
	ok(!hq_alert_rule_fires(rhr, b.z), "and no alert");
	/* 0.1 added 28 times is not 2.8 to the last bit: still sd 0. */
	n = 0;
	for (int i = 28; i >= 1; i--)
		put(D - i, 0.1);
	hq_alert_baseline(day, val, n, D, 0.2, &b);
	ok(b.sd == 0 && isnan(b.z), "constant 0.1: sd exactly 0 (%g)", b.sd);

	/* 13 days with values: no baseline; 14: one. */
	n = 0;
	for (int i = 13; i >= 1; i--)
		put(D - 2 * i, i % 2 ? 50 : 52);
	hq_alert_baseline(day, val, n, D, 90, &b);
	ok(b.n == 13 && isnan(b.mean) && isnan(b.sd) && isnan(b.z),
	    "13 days of baseline: none (n %d)", b.n);
	ok(!hq_alert_rule_fires(rhr, b.z), "and no alert at 90");
	put(D - 1, 52);
	hq_alert_baseline(day, val, n, D, 90, &b);
	ok(b.n == 14 && !isnan(b.z), "14 days: a baseline");

	/* A day missing inside the 28 is just missing; the window is d-28 ..
	 * d-1 (d-29 and d itself outside). 14 days: 40 on seven, 44 on seven,
	 * mean 42, each 2 from it: sd = sqrt(14 * 4 / 13) = 2.07550. */
	n = 0;
	put(D - 29, 1000);          /* outside: the day before the window */
	for (int i = 0; i < 14; i++)
		put(D - 28 + 2 * i, i % 2 ? 44 : 40);   /* every other day */
	put(D, 5000);               /* the day itself is no baseline */
	hq_alert_baseline(day, val, n, D, 37, &b);
	is_int(b.n, 14, "days d-28, d-26, ... d-2: 14 (d-29 and d not in it)");
	is_dbl(b.mean, 42, 1e-12, "mean 42");
	is_dbl(b.sd, sqrt(56.0 / 13), 1e-12, "sd sqrt(56/13) = 2.0755");
	is_dbl(b.z, -5 / sqrt(56.0 / 13), 1e-12, "37: z = -5 / 2.0755 = -2.409");
	ok(hq_alert_rule_fires(hq_alert_rule_for("heart_rate_variability_sdnn"),
	    b.z), "HRV z -2.41 <= -2: an alert");
	ok(!hq_alert_rule_fires(rhr, b.z), "resting HR: not upwards, none");
}

static void
scan(void)
{
	const struct hq_alert_rule *sleep = hq_alert_rule_for("sleep");
	struct seen s = {0};
	long k;

	/* Nights of 7 and 8 h in turn for 40 days, a 4 h night on D-5 and a
	 * 4 h one on D-35 (before the range, with only 5 nights before it:
	 * no baseline). Baseline of D-5: the 28 nights D-33 .. D-6, 7 and 8
	 * fourteen times each: mean 7.5, sd sqrt(28 * 0.25 / 27) = 0.50918;
	 * z = -3.5 / 0.50918 = -6.874. */
	n = 0;
	for (int64_t d = D - 40; d <= D; d++)
		put(d, d == D - 5 || d == D - 35 ? 4 : (d % 2 ? 7 : 8));
	k = hq_alert_scan(sleep, "h", day, val, n, D - 6, D, collect, &s);
	ok(k == 1 && s.count == 1 && s.last.day == D - 5,
	    "one alert in the range, on D-5 (%ld)", k);
	is_dbl(s.last.z, -3.5 / sqrt(7.0 / 27), 1e-12, "z -6.874");
	is_dbl(s.last.baseline_mean, 7.5, 1e-12, "baseline mean 7.5");
	is_str(s.last.kind, "baseline", "kind baseline");
	is_str(s.last.measure, "sleep", "measure sleep");
	like(s.last.message, "^sleep 4\\.0 h, 6\\.9 SD below baseline "
	    "7\\.5 ± 0\\.5$", "the message says it");
	/* The days after the short night carry it in their baselines, and
	 * the night after it (7 or 8 h) is not an alert upwards. */
	memset(&s, 0, sizeof s);
	k = hq_alert_scan(sleep, "h", day, val, n, D - 40, D, collect, &s);
	ok(k == 1, "over every night: still the one (D-35 had no baseline)");
}

/* Generated: 200 days of a resting heart rate with a weekly rhythm, 60 +
 * 1.5 sin(2 pi d / 7) (over 28 days: mean 60, sd 1.5 sqrt(14/27) = 1.08,
 * so |z| <= 1.39: a quiet stretch), 8 bpm added on four planted days, a
 * missing week, and every HRV day 10 ms below on the same days. The
 * reference is the plan: the planted days alert and nothing else does
 * (after a planted day its baselines hold it, which raises their mean a
 * little and their sd more: the rhythm's z stays further under 2). */
static void
planted(void)
{
	static int64_t pday[200];
	static double rhr[200], hrv[200];
	static const int plant[] = { 45, 90, 91, 150 };
	struct seen s = {0};
	size_t m = 0;
	long k;

	for (int d = 0; d < 200; d++) {
		int planted = 0;
		if (d >= 120 && d < 127)
			continue;              /* a week without data */
		for (size_t i = 0; i < sizeof plant / sizeof plant[0]; i++)
			planted |= d == plant[i];
		pday[m] = D + d;
		rhr[m] = 60 + 1.5 * sin(2 * M_PI * d / 7) + (planted ? 8 : 0);
		hrv[m++] = 45 + 3 * sin(2 * M_PI * d / 7) - (planted ? 10 : 0);
	}
	k = hq_alert_scan(hq_alert_rule_for("resting_heart_rate"), "count/min",
	    pday, rhr, m, D, D + 199, collect, &s);
	ok(k == 4 && s.days[0] == D + 45 && s.days[1] == D + 90 &&
	    s.days[2] == D + 91 && s.days[3] == D + 150,
	    "resting HR: the four planted days, no other (%ld)", k);
	memset(&s, 0, sizeof s);
	k = hq_alert_scan(hq_alert_rule_for("heart_rate_variability_sdnn"), "ms",
	    pday, hrv, m, D, D + 199, collect, &s);
	ok(k == 4 && s.days[0] == D + 45 && s.days[3] == D + 150,
	    "HRV: the same four (%ld)", k);
	memset(&s, 0, sizeof s);
	k = hq_alert_scan(hq_alert_rule_for("resting_heart_rate"), "count/min",
	    pday, rhr, m, D + 100, D + 149, collect, &s);
	ok(k == 0, "days 100 to 149 (a week missing in their baselines): quiet");
	memset(&s, 0, sizeof s);
	k = hq_alert_scan(hq_alert_rule_for("resting_heart_rate"), "count/min",
	    pday, rhr, m, D, D + 27, collect, &s);
	ok(k == 0, "the first 14 days have no baseline, the next are quiet");
}

static void
cgm(void)
{
	struct hq_cgm_metrics m;
	struct seen s = {0};
	long k;

	memset(&m, 0, sizeof m);
	m.readings = 2016;
	m.tir = 70;      /* at the limit: met */
	m.tbr = 4;       /* at the limit: met */
	m.tbr2 = 1.5;    /* over 1 */
	m.tar = 25.1;    /* over 25 */
	m.tar2 = 5;      /* at the limit */
	k = hq_alert_cgm(&m, D, collect, &s);
	ok(k == 2 && s.count == 2, "tbr2 1.5 and tar 25.1 miss; the three at "
	    "their limits do not (%ld)", k);
	is_str(s.last.measure, "tar", "the last: tar");
	is_str(s.last.kind, "cgm", "kind cgm");
	ok(s.last.day == D && isnan(s.last.z) && isnan(s.last.baseline_mean),
	    "dated the range's last day, no baseline");
	like(s.last.message, "^time above range \\(> 180 mg/dL\\) 25\\.1 % "
	    "\\(target: at most 25 %\\)$", "its message");
	m.tir = 69.9;
	m.tbr2 = 0.5;
	m.tar = 20;
	memset(&s, 0, sizeof s);
	k = hq_alert_cgm(&m, D, collect, &s);
	ok(k == 1 && strcmp(s.last.measure, "tir") == 0, "tir 69.9: under 70");
	like(s.last.message, "\\(target: at least 70 %\\)$",
	    "at least 70 %%");
	m.readings = 0;
	memset(&s, 0, sizeof s);
	ok(hq_alert_cgm(&m, D, collect, &s) == 0, "no readings: no alert");
}

static void
lab_flags(void)
{
	struct hq_lab_row r;
	struct hq_alert a;

	memset(&r, 0, sizeof r);
	r.test = "ldl";
	r.name = "LDL cholesterol";
	r.unit = "mg/dL";
	r.value = 162;
	r.ref_low = NAN;
	r.ref_high = 129;
	r.comparator = "";
	r.flag = "H";
	ok(hq_alert_lab(&r, D, &a) == 1, "ldl flagged H: an alert");
	ok(strcmp(a.kind, "lab") == 0 && strcmp(a.measure, "ldl") == 0 &&
	    a.value == 162 && a.day == D, "kind lab, measure ldl, its value");
	like(a.message, "^LDL cholesterol 162 mg/dL high \\(range <=129\\)$",
	    "its message");
	r.flag = "N";
	ok(hq_alert_lab(&r, D, &a) == 0, "flagged N: none");
	r.flag = "A";
	ok(hq_alert_lab(&r, D, &a) == 0, "flagged A (abnormal, no side): none");
}

int
main(void)
{
	baselines();
	edges();
	scan();
	planted();
	cgm();
	lab_flags();
	return done_testing();
}
