#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/athlete_load.h"
#include "hq/buf.h"
#include "hq/cgm_read.h"
#include "hq/daily.h"
#include "hq/document_read.h"
#include "hq/goals.h"
#include "hq/horizon.h"
#include "hq/rowdesc.h"
#include "hq/sense.h"
#include "hq/time.h"
#include "hq/week.h"
#include "hq/workout.h"

enum source { DAILY, WORKOUTS, WORKOUT_MIN, LOAD, CTL, GLUCOSE_TIR,
	GLUCOSE_MEAN, LABS };

/* The measures, in hq-report(1)'s order (week): where each comes from. */
static const struct spec {
	const char *name, *metric, *label, *unit;
	enum source from;
	enum hq_goal_figure figure;
} specs[HQ_WEEK_MEASURES] = {
	{ "steps", "steps", "Steps a day", NULL, DAILY, HQ_GOAL_AVERAGE },
	{ "sleep", "sleep", "Sleep a night", NULL, DAILY, HQ_GOAL_AVERAGE },
	{ "resting_heart_rate", "resting_heart_rate", "Resting heart rate", NULL,
	  DAILY, HQ_GOAL_AVERAGE },
	{ "hrv", "heart_rate_variability_sdnn", "Heart rate variability", NULL,
	  DAILY, HQ_GOAL_AVERAGE },
	{ "active_energy", "active_energy_burned", "Active energy a day", NULL,
	  DAILY, HQ_GOAL_AVERAGE },
	{ "exercise_time", "apple_exercise_time", "Exercise in the week", NULL,
	  DAILY, HQ_GOAL_TOTAL },
	{ "workouts", NULL, "Workouts", "count", WORKOUTS, 0 },
	{ "workout_minutes", NULL, "Workout time", "min", WORKOUT_MIN, 0 },
	{ "load", NULL, "Training load", NULL, LOAD, 0 },
	{ "ctl", NULL, "Fitness (ctl) on Sunday", NULL, CTL, 0 },
	{ "weight", "body_mass", "Weight (last)", NULL, DAILY, HQ_GOAL_LAST },
	{ "glucose_tir", NULL, "Glucose time in range", "%", GLUCOSE_TIR, 0 },
	{ "glucose_mean", NULL, "Glucose mean", "mg/dL", GLUCOSE_MEAN, 0 },
	{ "labs_flagged", NULL, "Lab results flagged", "count", LABS, 0 },
};

int
hq_week_parse(const char *arg, int64_t now, int64_t *monday, struct hq_err *e)
{
	struct hq_local l;
	int64_t start, end, today;

	if (!arg) {
		hq_time_to_local(now, &l);
		today = hq_time_days_from_civil(l.year, l.month, l.day);
		*monday = today - l.wday - 7;
		return 0;
	}
	if (strlen(arg) != 8 || arg[4] != '-' || arg[5] != 'W' ||
	    hq_time_parse_range(arg, now, &start, &end, e)) {
		hq_err_set(e, "--week '%.40s': not an ISO week; write YEAR-Wnn, "
		    "such as 2026-W47 (weeks 01 to 52, or 53 in a year that has "
		    "one)", arg);
		return -1;
	}
	*monday = hq_time_local_day(start);
	return 0;
}

int
hq_week_index(const struct hq_week *w, int64_t d)
{
	int64_t first = w->monday - 7 * (HQ_WEEK_SPAN - 1);

	if (d < first || d >= w->monday + 7)
		return -1;
	return (int)((d - first) / 7);
}

static int64_t
monday_of(const struct hq_week *w, int k)
{
	return w->monday - 7 * (HQ_WEEK_SPAN - 1 - k);
}

static int
load_daily(const struct hq_daily_store *ds, const struct spec *sp,
    const struct hq_week *w, struct hq_week_measure *m, struct hq_err *e)
{
	struct hq_daily s;
	struct hq_daily_span span = { monday_of(w, 0), w->monday + 6 };

	if (hq_daily_load(ds, sp->metric, span, 0, 0, &s, e))
		return -1;
	snprintf(m->unit, sizeof m->unit, "%s", s.unit);
	for (int k = 0; k < HQ_WEEK_SPAN; k++)
		m->value[k] = hq_goal_figure_over(sp->figure, s.days, s.v, s.n,
		    monday_of(w, k), monday_of(w, k) + 6, &m->days[k]);
	hq_daily_free(&s);
	return 0;
}

/* workouts and workout_minutes: as hq-query workouts lists them. */
static int
load_workouts(struct hq_store *s, const struct hq_week *w,
    struct hq_week_measure *count, struct hq_week_measure *minutes,
    struct hq_err *e)
{
	sqlite3_stmt *st;
	char sql[300];
	int64_t last_day[HQ_WEEK_SPAN];
	int rc;

	snprintf(sql, sizeof sql, "SELECT w.start, coalesce(w.duration, w.end - "
	    "w.start) FROM workout w WHERE w.start >= ?1 AND w.start < ?2%s "
	    "ORDER BY w.start", hq_workout_has_same(s) ? " AND w.id NOT IN "
	    "(SELECT workout_id FROM workout_same)" : "");
	if (hq_store_prepare(s, sql, &st, e))
		return -1;
	sqlite3_bind_int64(st, 1, hq_time_day_start(monday_of(w, 0)));
	sqlite3_bind_int64(st, 2, hq_time_day_start(w->monday + 7));
	for (int k = 0; k < HQ_WEEK_SPAN; k++) {
		count->value[k] = minutes->value[k] = 0;
		last_day[k] = INT64_MIN;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t d = hq_time_local_day(sqlite3_column_int64(st, 0));
		int k = hq_week_index(w, d);
		if (k < 0)
			continue;
		count->value[k]++;
		minutes->value[k] += sqlite3_column_double(st, 1) / 60;
		if (d != last_day[k]) {
			count->days[k]++;
			last_day[k] = d;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		hq_err_set(e, "reading workouts: %s", sqlite3_errmsg(hq_store_db(s)));
		return -1;
	}
	for (int k = 0; k < HQ_WEEK_SPAN; k++) {
		minutes->days[k] = count->days[k];
		if (count->value[k] == 0)
			count->value[k] = minutes->value[k] = NAN;
	}
	return 0;
}

static int
load_glucose(struct hq_store *s, const struct hq_week *w,
    struct hq_week_measure *tir, struct hq_week_measure *mean,
    struct hq_err *e)
{
	for (int k = 0; k < HQ_WEEK_SPAN; k++) {
		struct hq_cgm_report_opts o = {
			.from = hq_time_day_start(monday_of(w, k)),
			.to = hq_time_day_start(monday_of(w, k) + 7),
			.by = HQ_PERIOD_NONE,
		};
		struct hq_cgm_report r;
		int rc = hq_cgm_report_run(s, &o, &r, e);
		if (rc < 0)
			return -1;
		if (rc == 1) {
			tir->value[k] = r.total.m.tir;
			mean->value[k] = r.total.m.mean;
			tir->days[k] = mean->days[k] = (int)r.total.m.days;
		}
		hq_cgm_report_free(&r);
	}
	return 0;
}

/* The days of the lab results flagged H or L in the weeks shown. */
struct labs {
	int64_t *days;
	size_t n;
};

static int
add_result(void *arg, const struct hq_lab_row *r, int64_t day)
{
	struct labs *l = arg;

	(void)r;
	l->days = hq_xrealloc(l->days, (l->n + 1) * sizeof *l->days);
	l->days[l->n++] = day;
	return 0;
}

static int
cmp_day(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

static int
load_labs(struct hq_store *s, const struct hq_week *w,
    struct hq_week_measure *m, struct hq_err *e)
{
	struct labs l = { 0 };
	int rc = hq_report_labs_flagged(s, monday_of(w, 0), w->monday + 6,
	    add_result, &l, e);

	if (rc == 0) {
		if (l.n > 1)
			qsort(l.days, l.n, sizeof *l.days, cmp_day);
		for (size_t i = 0; i < l.n; i++) {
			int k = hq_week_index(w, l.days[i]);
			m->value[k] = (isnan(m->value[k]) ? 0 : m->value[k]) + 1;
			if (i == 0 || l.days[i] != l.days[i - 1])
				m->days[k]++;
		}
	}
	free(l.days);
	return rc;
}

/* The week's total load (days with a workout) and ctl on its Sunday
 * (m[0] and m[1]), from the athlete engine's daily series. */
static int
load_training(struct hq_store *s, const struct hq_config *cfg,
    const struct hq_week *w, struct hq_week_measure *m, struct hq_err *e)
{
	struct hq_week_measure *load = &m[0], *ctl = &m[1];
	struct hq_athlete a;
	struct hq_athlete_day *d = NULL;
	size_t n = 0;

	if (hq_athlete_resolve(&a, cfg, NULL, NULL, s, e) ||
	    hq_athlete_days(s, &a, NULL, 0, w->monday + 6, &d, &n, e))
		return -1;
	for (size_t i = 0; i < n; i++) {
		int k = hq_week_index(w, d[i].day);
		if (k < 0)
			continue;
		if (d[i].workouts > 0) {
			load->value[k] = (isnan(load->value[k]) ? 0 : load->value[k]) +
			    d[i].load;
			load->days[k]++;
			ctl->days[k]++;
		}
		/* ctl on the week's last day, or on the last day of data
		 * when the week runs past it (ctl decays on, without data) */
		int64_t sunday = w->monday - 7 * (HQ_WEEK_SPAN - 1 - k) + 6;
		if (d[i].day == (sunday < w->last ? sunday : w->last))
			ctl->value[k] = d[i].ctl;
	}
	free(d);
	return 0;
}

int
hq_week_run(const struct hq_daily_store *ds, const struct hq_config *cfg,
    int64_t monday, int64_t now, struct hq_week *w, struct hq_err *e)
{
	struct hq_horizon h;
	char why[120];
	int rc = 0;

	memset(w, 0, sizeof *w);
	w->monday = monday;
	hq_time_bucket_label(hq_time_day_start(monday), HQ_WEEK, w->label,
	    sizeof w->label);
	if (hq_horizon_read(ds->s, now, &h, e))
		return -1;
	w->last = h.last;
	if (monday > h.last) {
		hq_horizon_after(&h, monday, why, sizeof why);
		hq_err_set(e, "no data in %s: its Monday %s", w->label, why);
		return 1;
	}
	w->n = HQ_WEEK_MEASURES;
	for (size_t i = 0; i < w->n; i++) {
		w->m[i].name = specs[i].name;
		w->m[i].label = specs[i].label;
		snprintf(w->m[i].unit, sizeof w->m[i].unit, "%s",
		    specs[i].unit ? specs[i].unit : "");
		for (int k = 0; k < HQ_WEEK_SPAN; k++)
			w->m[i].value[k] = NAN;
	}
	for (size_t i = 0; rc == 0 && i < w->n; i++)
		switch (specs[i].from) {
		case DAILY:
			rc = load_daily(ds, &specs[i], w, &w->m[i], e);
			break;
		case WORKOUTS:      /* with WORKOUT_MIN, next */
			rc = load_workouts(ds->s, w, &w->m[i], &w->m[i + 1], e);
			break;
		case LOAD:          /* with CTL, next */
			if (cfg && load_training(ds->s, cfg, w, &w->m[i], e)) {
				snprintf(w->note, sizeof w->note, "load and ctl left "
				    "out: %.1000s", e->msg);
				for (int k = 0; k < HQ_WEEK_SPAN; k++)
					w->m[i].value[k] = w->m[i + 1].value[k] = NAN;
			}
			break;
		case GLUCOSE_TIR:   /* with GLUCOSE_MEAN, next */
			rc = load_glucose(ds->s, w, &w->m[i], &w->m[i + 1], e);
			break;
		case LABS:
			rc = load_labs(ds->s, w, &w->m[i], e);
			break;
		case WORKOUT_MIN: case CTL: case GLUCOSE_MEAN:
			break;
		}
	/* A figure that is not finite is none: no "inf" in a row, no "-nan"
	 * in the page's points. */
	for (size_t i = 0; i < w->n; i++)
		for (int k = 0; k < HQ_WEEK_SPAN; k++)
			if (!isfinite(w->m[i].value[k]))
				w->m[i].value[k] = NAN;
	return rc ? -1 : 0;
}

/* ---- rows ---------------------------------------------------------------- */

struct week_row {
	const char *measure, *week, *unit;
	double value, previous, change;
	long days;
};

/* A table's figures to their measure's sense: 14,519 steps, 6 h 44 min of
 * sleep, a change with its sign (sense.h). */
static int
value_text(const void *row, char *buf, size_t n)
{
	const struct week_row *r = row;

	hq_sense_value(r->value, r->unit, 0, buf, n);
	return 0;
}

static int
previous_text(const void *row, char *buf, size_t n)
{
	const struct week_row *r = row;

	hq_sense_value(r->previous, r->unit, 0, buf, n);
	return 0;
}

static int
change_text(const void *row, char *buf, size_t n)
{
	const struct week_row *r = row;

	hq_sense_value(r->change, r->unit, HQ_SENSE_SIGN, buf, n);
	return 0;
}

/* The unit, but for hours, which the figures say themselves. */
static int
unit_text(const void *row, char *buf, size_t n)
{
	const char *u = ((const struct week_row *)row)->unit;

	if (!u || !*u || strcmp(u, "h") == 0)
		return -1;
	snprintf(buf, n, "%s", u);
	return 0;
}

#define WR(k, t, f) HQ_COL_AT(k, t, struct week_row, f)
#define RIGHT { .right = 1 }
static const struct hq_col week_cols[] = {
	{ WR("measure", HQ_COL_STR, measure) },
	{ WR("week", HQ_COL_STR, week) },
	{ WR("value", HQ_COL_NUM, value), .in = HQ_COL_DATA },
	{ HQ_COL_FN("value", value_text), .in = HQ_COL_TABLE, .fit = RIGHT },
	{ WR("previous", HQ_COL_NUM, previous), .in = HQ_COL_DATA },
	{ HQ_COL_FN("previous", previous_text), .in = HQ_COL_TABLE, .fit = RIGHT },
	{ WR("change", HQ_COL_NUM, change), .in = HQ_COL_DATA },
	{ HQ_COL_FN("change", change_text), .in = HQ_COL_TABLE, .fit = RIGHT },
	{ WR("unit", HQ_COL_STR0, unit), .in = HQ_COL_DATA },
	{ HQ_COL_FN("unit", unit_text), .in = HQ_COL_TABLE },
	{ WR("days", HQ_COL_LONG, days) },
	{ .key = NULL },
};

long
hq_week_out(const struct hq_week *w, struct hq_out *o)
{
	const int k = HQ_WEEK_SPAN - 1;
	long rows = 0;

	hq_out_fit_cols(o, week_cols);
	for (size_t i = 0; i < w->n; i++) {
		const struct hq_week_measure *m = &w->m[i];
		struct week_row r = {
			.measure = m->name, .week = w->label, .unit = m->unit,
			.value = m->value[k], .previous = m->value[k - 1],
			.days = m->days[k],
		};
		if (isnan(r.value))
			continue;
		r.change = r.value - r.previous;     /* NaN without previous */
		hq_out_row(o, week_cols, &r);
		rows++;
	}
	return rows;
}
