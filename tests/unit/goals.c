/* Unit tests for lib/analyze/goals.c: [goals] lines read and refused
 * (file:line from the config), periods and their labels across month and
 * year ends (ISO weeks: 2026 has a week 53), and the evaluation against
 * figures worked out by hand in the comments: totals, averages, last
 * values, met with >= and <=, streaks across month and year ends and from
 * before --from, periods with no value, a period still going on. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hq/config.h"
#include "hq/goals.h"
#include "hq/time.h"
#include "tap.h"

static int64_t
D(int y, int m, int d)
{
	return hq_time_days_from_civil(y, m, d);
}

static void
parsing(void)
{
	struct hq_goal g;
	struct hq_err e;

	ok(hq_goal_parse("steps", "10000/day", NULL, &g, &e) == 0 &&
	    strcmp(g.metric->name, "step_count") == 0 && g.target == 10000 &&
	    g.period == HQ_DAY && !g.at_most && g.figure == HQ_GOAL_TOTAL &&
	    strcmp(g.unit, "count") == 0, "steps = 10000/day: step_count, a total a day");
	ok(hq_goal_parse("sleep", "7h/night", NULL, &g, &e) == 0 &&
	    strcmp(g.metric->name, "sleep") == 0 && g.target == 7 && g.night &&
	    g.period == HQ_DAY && g.figure == HQ_GOAL_AVERAGE,
	    "sleep = 7h/night: the average night");
	ok(hq_goal_parse("sleep", " 420min / night ", NULL, &g, &e) == 0 &&
	    fabs(g.target - 7) < 1e-12, "420min is 7 h (spaces allowed)");
	ok(hq_goal_parse("exercise_time", "150min/week", NULL, &g, &e) == 0 &&
	    strcmp(g.metric->name, "apple_exercise_time") == 0 &&
	    g.target == 150 && g.period == HQ_WEEK && g.figure == HQ_GOAL_TOTAL,
	    "exercise_time = 150min/week");
	ok(hq_goal_parse("weight", "<= 72kg", NULL, &g, &e) == 0 &&
	    strcmp(g.metric->name, "body_mass") == 0 && g.at_most &&
	    g.target == 72 && g.period == HQ_DAY && g.figure == HQ_GOAL_LAST,
	    "weight = <= 72kg: at most, a day, the last value");
	ok(hq_goal_parse("weight", "<=158.73 lb/month", NULL, &g, &e) == 0 &&
	    fabs(g.target - 158.73 * 0.45359237) < 1e-9 && g.period == HQ_MONTH,
	    "158.73 lb is 71.999 kg, a month");
	ok(hq_goal_parse("rhr", ">= 40/week", NULL, &g, &e) == 0 &&
	    !g.at_most && g.figure == HQ_GOAL_AVERAGE,
	    "rhr = >= 40/week: the average of days");
	ok(hq_goal_parse("steps", "8000", NULL, &g, &e) == 0 && g.period == HQ_DAY,
	    "no period: a day");

	ok(hq_goal_parse("stpes", "10000/day", "cfg:3", &g, &e) == -1 &&
	    strcmp(e.msg, "cfg:3: goal 'stpes': no metric of that name (did you "
	    "mean steps?)") == 0, "an unknown metric: %s", e.msg);
	ok(hq_goal_parse("steps", "10000kg/day", "cfg:4", &g, &e) == -1 &&
	    strstr(e.msg, "cfg:4: goal 'steps': unit 'kg' does not convert to "
	    "step_count's count") != NULL, "a unit of another kind: %s", e.msg);
	ok(hq_goal_parse("sleep", "7 hours", "cfg:5", &g, &e) == -1 &&
	    strstr(e.msg, "unit 'hours'") != NULL, "an unknown unit: %s", e.msg);
	ok(hq_goal_parse("steps", "10000/fortnight", "cfg:6", &g, &e) == -1 &&
	    strstr(e.msg, "cfg:6: goal 'steps': no period 'fortnight'") != NULL,
	    "an unknown period: %s", e.msg);
	ok(hq_goal_parse("steps", "10000/night", "cfg:7", &g, &e) == -1 &&
	    strstr(e.msg, "/night is for sleep") != NULL, "steps a night: %s", e.msg);
	ok(hq_goal_parse("steps", "lots", "cfg:8", &g, &e) == -1 &&
	    strstr(e.msg, "is not a target") != NULL, "no number: %s", e.msg);
	ok(hq_goal_parse("steps", "0/day", "cfg:9", &g, &e) == -1,
	    "a target of 0 kept by anything: refused");
	ok(hq_goal_parse("steps", "1-2/day", "cfg:9", &g, &e) == -1,
	    "1-2: refused (%s)", e.msg);
	ok(hq_goal_parse("sleep_analysis", "7h", "cfg:9", &g, &e) == -1,
	    "the raw sleep intervals: refused (%s)", e.msg);
}

static void
from_config(void)
{
	char path[] = "/tmp/hq-goals-test.XXXXXX";
	struct hq_config *c;
	struct hq_goal *goals;
	struct hq_err e;
	size_t n;
	FILE *fp;
	int fd = mkstemp(path);

	if (fd < 0 || !(fp = fdopen(fd, "w")))
		exit(1);
	fputs("[query]\ntz = UTC\n[goals]\nsteps = 10000/day\n# a comment\n"
	    "sleep = 7h/night\nweight = <= 72kg\n", fp);
	fclose(fp);
	c = hq_config_load(path, &e);
	ok(c && hq_config_warning(c, 0) == NULL, "[goals] keys are no unknown keys");
	ok(hq_goals_from_config(c, &goals, &n, &e) == 0 && n == 3 &&
	    strcmp(goals[0].name, "steps") == 0 && strcmp(goals[2].name, "weight") == 0,
	    "three goals in the file's order");
	char want[300];
	snprintf(want, sizeof want, "%s:7", path);
	ok(n == 3 && strcmp(goals[2].where, want) == 0, "each knows its line (%s)",
	    n == 3 ? goals[2].where : "");
	free(goals);
	hq_config_free(c);

	fp = fopen(path, "w");
	fputs("[goals]\nsteps = 10000/day\n\nstpes = 8000\n", fp);
	fclose(fp);
	c = hq_config_load(path, &e);
	snprintf(want, sizeof want, "%s:4: goal 'stpes': no metric", path);
	ok(c && hq_goals_from_config(c, &goals, &n, &e) == -1 && goals == NULL &&
	    strncmp(e.msg, want, strlen(want)) == 0,
	    "an unknown metric: file:line (%s)", e.msg);
	hq_config_free(c);

	fp = fopen(path, "w");
	fputs("[goal]\nsteps = 10000/day\n", fp);
	fclose(fp);
	c = hq_config_load(path, &e);
	ok(c && hq_config_warning(c, 0) &&
	    strstr(hq_config_warning(c, 0), "did you mean [goals]?") != NULL,
	    "[goal] is warned about (%s)", c ? hq_config_warning(c, 0) : "");
	ok(hq_goals_from_config(c, &goals, &n, &e) == 0 && n == 0,
	    "and holds no goals");
	hq_config_free(c);
	unlink(path);
}

static void
periods(void)
{
	static const struct {
		int y, m, d;
		enum hq_period p;
		const char *label;
		int fy, fm, fd, ly, lm, ld;
	} cases[] = {
		{ 2025, 12, 31, HQ_DAY, "2025-12-31", 2025, 12, 31, 2025, 12, 31 },
		{ 2025, 12, 29, HQ_WEEK, "2026-W01", 2025, 12, 29, 2026, 1, 4 },
		{ 2026, 1, 4, HQ_WEEK, "2026-W01", 2025, 12, 29, 2026, 1, 4 },
		{ 2025, 12, 28, HQ_WEEK, "2025-W52", 2025, 12, 22, 2025, 12, 28 },
		{ 2026, 12, 31, HQ_WEEK, "2026-W53", 2026, 12, 28, 2027, 1, 3 },
		{ 2027, 1, 3, HQ_WEEK, "2026-W53", 2026, 12, 28, 2027, 1, 3 },
		{ 2027, 1, 4, HQ_WEEK, "2027-W01", 2027, 1, 4, 2027, 1, 10 },
		{ 1969, 12, 31, HQ_WEEK, "1970-W01", 1969, 12, 29, 1970, 1, 4 },
		{ 2024, 2, 29, HQ_MONTH, "2024-02", 2024, 2, 1, 2024, 2, 29 },
		{ 2025, 12, 1, HQ_MONTH, "2025-12", 2025, 12, 1, 2025, 12, 31 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int64_t f, l;
		char label[16];
		hq_goal_period_of(cases[i].p, D(cases[i].y, cases[i].m, cases[i].d),
		    &f, &l, label, sizeof label);
		ok(strcmp(label, cases[i].label) == 0 &&
		    f == D(cases[i].fy, cases[i].fm, cases[i].fd) &&
		    l == D(cases[i].ly, cases[i].lm, cases[i].ld),
		    "%04d-%02d-%02d is in %s (%s)", cases[i].y, cases[i].m,
		    cases[i].d, cases[i].label, label);
	}
}

#define MAXROWS 64

struct rows {
	size_t n;
	struct hq_goal_row r[MAXROWS];
};

static int
collect(void *arg, const struct hq_goal_row *r)
{
	struct rows *rs = arg;

	if (rs->n < MAXROWS)
		rs->r[rs->n++] = *r;
	return 0;
}

/* The rows' labels, actuals, met and streaks as one line each. */
static void
expect(const struct rows *rs, const char *const *want, size_t nwant,
    const char *what)
{
	size_t bad = 0;

	for (size_t i = 0; i < rs->n || i < nwant; i++) {
		char got[128] = "(none)";
		if (i < rs->n) {
			const struct hq_goal_row *r = &rs->r[i];
			const char *met = r->met == HQ_GOAL_GOING_ON ? "going" :
			    r->met == HQ_GOAL_NO_DATA ? "nodata" : r->met ? "met" :
			    "not";
			snprintf(got, sizeof got, "%s null %s %ld", r->period, met,
			    r->streak);
			if (!isnan(r->actual))
				snprintf(got, sizeof got, "%s %.6g %s %ld", r->period,
				    r->actual, met, r->streak);
		}
		if (i >= nwant || strcmp(got, want[i]) != 0) {
			printf("#   row %zu: got '%s', want '%s'\n", i, got,
			    i < nwant ? want[i] : "(none)");
			bad++;
		}
	}
	ok(bad == 0, "%s", what);
}

static void
daily_steps(void)
{
	struct hq_goal g;
	struct hq_err e;
	struct rows rs = {0};
	/* 10000 a day. 12-30 misses by one step; 01-03 has no data; 01-05 is
	 * the newest day, still going on. */
	int64_t day[] = { D(2025, 12, 28), D(2025, 12, 29), D(2025, 12, 30),
	    D(2025, 12, 31), D(2026, 1, 1), D(2026, 1, 2), D(2026, 1, 4),
	    D(2026, 1, 5) };
	double v[] = { 12000, 10000, 9999, 10500, 11000, 15000, 10001, 3000 };
	static const char *const want[] = {
		"2025-12-31 10500 met 1",   /* 12-30 broke it */
		"2026-01-01 11000 met 2",   /* across the year's end */
		"2026-01-02 15000 met 3",
		"2026-01-03 null not 0",    /* no data: not met */
		"2026-01-04 10001 met 1",
		"2026-01-05 3000 going 1",  /* going on: streak not broken */
	};
	static const char *const want2[] = {
		"2026-01-01 11000 met 2",   /* 12-31 before --from counts */
		"2026-01-02 15000 met 3",
	};

	hq_goal_parse("steps", "10000/day", NULL, &g, &e);
	hq_goal_eval(&g, day, v, NULL, 8, D(2025, 12, 31), D(2026, 1, 5),
	    D(2026, 1, 5), collect, &rs);
	expect(&rs, want, 6, "steps a day across the year's end: totals, met, "
	    "streaks, a day without data, the day still going on");
	ok(rs.r[0].pct == 105 && rs.r[3].days == 0 && isnan(rs.r[3].pct) &&
	    rs.r[0].days == 1, "pct 100 x 10500 / 10000 = 105; none without data");
	memset(&rs, 0, sizeof rs);
	hq_goal_eval(&g, day, v, NULL, 8, D(2026, 1, 1), D(2026, 1, 2),
	    D(2026, 1, 5), collect, &rs);
	expect(&rs, want2, 2, "--from 2026-01-01: the streak counts the days "
	    "before it");
	/* 12-30: 9999 of 10000 */
	memset(&rs, 0, sizeof rs);
	hq_goal_eval(&g, day, v, NULL, 8, D(2025, 12, 30), D(2025, 12, 30),
	    D(2026, 1, 5), collect, &rs);
	ok(rs.n == 1 && rs.r[0].met == 0 && rs.r[0].streak == 0 &&
	    fabs(rs.r[0].pct - 99.99) < 1e-9, "9999 steps: not met, pct 99.99");
}

static void
weekly_exercise(void)
{
	struct hq_goal g;
	struct hq_err e;
	struct rows rs = {0};
	int64_t day[64];
	double v[64];
	size_t n = 0;
	static const char *const want[] = {
		"2025-W51 150 met 1",      /* 5 days of 30: exactly 150 */
		"2025-W52 140 not 0",      /* 7 of 20 */
		"2026-W01 175 met 1",      /* 12-29 .. 01-04: 7 of 25 */
		"2026-W02 150 met 2",      /* 3 of 50 */
		"2026-W03 10 going 2",     /* holds the newest day */
	};

	for (int d = 15; d <= 19; d++) {
		day[n] = D(2025, 12, d);
		v[n++] = 30;
	}
	for (int d = 22; d <= 28; d++) {
		day[n] = D(2025, 12, d);
		v[n++] = 20;
	}
	for (int64_t d = D(2025, 12, 29); d <= D(2026, 1, 4); d++) {
		day[n] = d;
		v[n++] = 25;
	}
	for (int d = 5; d <= 7; d++) {
		day[n] = D(2026, 1, d);
		v[n++] = 50;
	}
	day[n] = D(2026, 1, 12);
	v[n++] = 10;
	hq_goal_parse("exercise_time", "150min/week", NULL, &g, &e);
	hq_goal_eval(&g, day, v, NULL, n, D(2025, 12, 15), D(2026, 1, 14),
	    D(2026, 1, 12), collect, &rs);
	expect(&rs, want, 5, "150 min a week across the year's end: ISO weeks, "
	    "totals, streaks, the week still going on");
	ok(rs.n == 5 && rs.r[0].days == 5 && rs.r[2].days == 7,
	    "days with data: 5, then 7");
}

/* A measurement (weight, resting heart rate) is judged on the periods that
 * have a value: a day without a weigh-in is no data, and neither breaks
 * nor extends the streak (hq(7)'s own example, weight = <= 72kg). */
static void
measured(void)
{
	struct hq_goal g;
	struct hq_err e;
	struct rows rs = {0};
	int64_t day[] = { D(2026, 3, 2), D(2026, 3, 5), D(2026, 3, 6),
	    D(2026, 3, 9), D(2026, 3, 10) };
	double v[] = { 71.5, 71.9, 72.5, 71.0, 70.8 };
	static const char *const want[] = {
		"2026-03-02 71.5 met 1",
		"2026-03-03 null nodata 1",   /* not weighed: the streak stands */
		"2026-03-04 null nodata 1",
		"2026-03-05 71.9 met 2",      /* and goes on over the gap */
		"2026-03-06 72.5 not 0",
		"2026-03-07 null nodata 0",
		"2026-03-08 null nodata 0",
		"2026-03-09 71 met 1",
		"2026-03-10 70.8 going 1",    /* the newest day */
	};
	static const char *const steps[] = {
		"2026-03-02 12000 met 1",
		"2026-03-03 null not 0",      /* steps: a day without is not met */
		"2026-03-04 11000 going 0",
	};
	int64_t sday[] = { D(2026, 3, 2), D(2026, 3, 4) };
	double sv[] = { 12000, 11000 };

	hq_goal_parse("weight", "<= 72kg", NULL, &g, &e);
	ok(g.measurement && g.period == HQ_DAY, "weight is a measurement, a day");
	hq_goal_eval(&g, day, v, NULL, 5, D(2026, 3, 2), D(2026, 3, 20),
	    D(2026, 3, 10), collect, &rs);
	expect(&rs, want, 9, "weight <= 72 kg a day: days unweighed are no data, "
	    "the streak runs over them; no row after the newest day (03-10)");
	ok(rs.n == 9 && rs.r[1].met == HQ_GOAL_NO_DATA && isnan(rs.r[1].actual) &&
	    isnan(rs.r[1].pct) && rs.r[1].days == 0, "no data: met, actual and "
	    "pct null");
	memset(&rs, 0, sizeof rs);
	hq_goal_parse("steps", "10000/day", NULL, &g, &e);
	ok(!g.measurement, "steps are not a measurement");
	hq_goal_eval(&g, sday, sv, NULL, 2, D(2026, 3, 2), D(2026, 3, 31),
	    D(2026, 3, 4), collect, &rs);
	expect(&rs, steps, 3, "steps: a day without any is not met; nothing "
	    "after the newest day, however far --to reaches");
	memset(&rs, 0, sizeof rs);
	hq_goal_eval(&g, sday, sv, NULL, 2, D(2026, 3, 5), D(2026, 3, 31),
	    D(2026, 3, 4), collect, &rs);
	ok(rs.n == 0, "a range after the newest data: no row");
}

static void
monthly(void)
{
	struct hq_goal g;
	struct hq_err e;
	struct rows rs = {0};
	/* Weight at most 72 kg a month, the month's last value. */
	int64_t day[] = { D(2025, 11, 3), D(2025, 11, 28), D(2025, 12, 2),
	    D(2025, 12, 30), D(2026, 1, 15), D(2026, 2, 1), D(2026, 4, 2) };
	double v[] = { 73.0, 71.8, 72.4, 71.9, 72.0, 72.1, 70 };
	static const char *const want[] = {
		"2025-11 71.8 met 1",      /* last 71.8, not 73.0 */
		"2025-12 71.9 met 2",      /* across the month's end */
		"2026-01 72 met 3",        /* 72 <= 72; across the year's */
		"2026-02 72.1 not 0",
		"2026-03 null nodata 0",   /* not weighed: no data */
		"2026-04 70 going 0",
	};
	static const char *const want_hr[] = {
		"2025-11 60 met 1",        /* (58 + 62) / 2 = 60 <= 60 */
		"2025-12 61.25 not 0",     /* (61 + 61.5) / 2 */
		"2026-01 59 met 1",
	};

	hq_goal_parse("weight", "<= 72kg/month", NULL, &g, &e);
	hq_goal_eval(&g, day, v, NULL, 7, D(2025, 11, 1), D(2026, 4, 30),
	    D(2026, 4, 2), collect, &rs);
	expect(&rs, want, 6, "weight <= 72 kg a month: the last value, streaks "
	    "across the month's and the year's end, a month unweighed no data");
	ok(fabs(rs.r[0].pct - 100 * 71.8 / 72) < 1e-12, "pct 100 x 71.8 / 72");

	int64_t hday[] = { D(2025, 11, 10), D(2025, 11, 20), D(2025, 12, 1),
	    D(2025, 12, 31), D(2026, 1, 1) };
	double hv[] = { 58, 62, 61, 61.5, 59 };
	memset(&rs, 0, sizeof rs);
	hq_goal_parse("resting_heart_rate", "<= 60/month", NULL, &g, &e);
	hq_goal_eval(&g, hday, hv, NULL, 5, D(2025, 11, 1), D(2026, 1, 31),
	    D(2026, 3, 1), collect, &rs);
	expect(&rs, want_hr, 3, "resting HR at most 60 a month: the average of "
	    "the days");
}

static void
nights_and_rings(void)
{
	struct hq_goal g;
	struct hq_err e;
	struct rows rs = {0};
	int64_t day[] = { D(2026, 3, 2), D(2026, 3, 3), D(2026, 3, 5) };
	double v[] = { 6.5, 7.5, 7.25 }, t[] = { 500, 500, 600 };
	double kcal[] = { 400, 520, 600 };
	static const char *const want[] = { "2026-W10 7.08333 met 1" };
	static const char *const rings[] = {
		"2026-03-02 400 not 0", "2026-03-03 520 met 1",
		"2026-03-04 null not 0", "2026-03-05 600 met 1",
	};

	/* (6.5 + 7.5 + 7.25) / 3 = 7.0833 h, the average night of the week */
	hq_goal_parse("sleep", "7h/week", NULL, &g, &e);
	hq_goal_eval(&g, day, v, NULL, 3, D(2026, 3, 2), D(2026, 3, 8),
	    D(2026, 3, 20), collect, &rs);
	expect(&rs, want, 1, "sleep 7 h a week: the average night");

	/* A ring's goal from the day's summary: 400 of 500, 520 of 500, 600
	 * of 600. */
	memset(&rs, 0, sizeof rs);
	hq_goal_parse("active_energy", "1/day", NULL, &g, &e);
	snprintf(g.name, sizeof g.name, "move");
	hq_goal_eval(&g, day, kcal, t, 3, D(2026, 3, 2), D(2026, 3, 5),
	    D(2026, 3, 20), collect, &rs);
	expect(&rs, rings, 4, "a goal per day (the move ring): each day's own");
	ok(rs.r[0].target == 500 && rs.r[0].pct == 80 && rs.r[3].target == 600 &&
	    rs.r[3].pct == 100, "targets 500 and 600; pct 80 and 100");
}

/* A figure over any days: the week's value and the week before's. */
static void
figures(void)
{
	int64_t day[] = { 10, 11, 13, 17, 18, 20 };
	double v[] = { 8000, 12000, 7000, 9000, 11000, 1000 };
	int days;

	/* days 14..20: 9000 + 11000 + 1000 = 21000 over 3 days */
	is_dbl(hq_goal_figure_over(HQ_GOAL_TOTAL, day, v, 6, 14, 20, &days),
	    21000, 0, "total of days 14..20: 21000");
	is_int(days, 3, "3 days with values");
	is_dbl(hq_goal_figure_over(HQ_GOAL_AVERAGE, day, v, 6, 14, 20, &days),
	    7000, 0, "average: 21000 / 3 = 7000");
	is_dbl(hq_goal_figure_over(HQ_GOAL_LAST, day, v, 6, 7, 13, &days),
	    7000, 0, "last of days 7..13: day 13's 7000");
	is_dbl(hq_goal_figure_over(HQ_GOAL_AVERAGE, day, v, 6, 7, 13, &days),
	    9000, 0, "average of 7..13: (8000 + 12000 + 7000) / 3 = 9000");
	ok(isnan(hq_goal_figure_over(HQ_GOAL_TOTAL, day, v, 6, 21, 27, &days)) &&
	    days == 0, "no day with a value: NaN, 0 days");
}

int
main(void)
{
	parsing();
	from_config();
	periods();
	daily_steps();
	weekly_exercise();
	monthly();
	measured();
	nights_and_rings();
	figures();
	return done_testing();
}
