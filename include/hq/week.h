/*
 * week — hq-report week (hq-report(1), week): the week in one look.
 * Each measure's figure for an ISO week and the 12 before it (the week
 * before gives previous and change; the last 12 the HTML page's
 * sparklines), every figure from the code of the command that already
 * computes it:
 *
 *   steps, sleep, resting_heart_rate, hrv, active_energy, exercise_time,
 *   weight   the daily values of hq-query METRIC --by day (hq_daily_load:
 *            rollups, dedup, nights keyed by the morning they end, local
 *            days), per week by goals.c's rule (hq_goal_figure_over):
 *            steps, sleep, rhr, hrv, active energy the average of the
 *            days (nights) with a value, exercise_time the total, weight
 *            the week's last value
 *   workouts, workout_minutes   the workouts starting in the week, as
 *            hq-query workouts lists them (a recording of an activity
 *            another device also recorded is left out; minutes: the
 *            duration without pauses, else end - start)
 *   load, ctl   the athlete engine's daily series (hq_athlete_days): the
 *            week's total load and ctl on its last day
 *   glucose_tir, glucose_mean   hq-report cgm over the week
 *            (hq_cgm_report_run)
 *   labs_flagged   lab results dated in the week flagged H or L, as
 *            hq-report latest labs flags them
 *
 * days: the days (nights) of the week with a value; workouts, load, ctl:
 * days with a workout; glucose: days with readings; labs: days with a
 * flagged result. A week without data for a measure has value NaN.
 */
#ifndef HQ_WEEK_H
#define HQ_WEEK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hq/config.h"
#include "hq/err.h"
#include "hq/output.h"
#include "hq/plan.h"
#include "hq/store.h"

struct hq_daily_store;      /* daily.h */

#define HQ_WEEK_SPAN 13       /* the week and the 12 before it */
#define HQ_WEEK_MEASURES 14

struct hq_week_measure {
	const char *name;         /* "steps" */
	const char *label;        /* "Steps (average a day)" */
	char unit[32];            /* "count", "h"; "": none */
	double value[HQ_WEEK_SPAN];   /* [HQ_WEEK_SPAN - 1] is the week */
	int days[HQ_WEEK_SPAN];
};

/* A goal over the week, for the page: its target and how the week went. */
struct hq_week_goal {
	char name[64];            /* steps, move */
	char target[64];          /* ">= 10,000 a day" */
	char week[96];            /* "met on 5 of 7 days", "390 min: met" */
	int met;                  /* the mark (goals.h's met): a week's or a
	                           * month's; a day goal met every day of the
	                           * week, or none; else -1 */
	long streak;              /* periods met in a row, at the last one */
	char per[8];              /* what the streak counts: day, week ... */
};

/* An alert of the week (alert.h), for the page. */
struct hq_week_alert {
	int64_t day;
	char kind[16];
	char message[200];
};

struct hq_week {
	int64_t monday;           /* the week's first local day number */
	int64_t last;             /* the last day of data (horizon.h): no
	                           * figure reaches past it */
	char label[16];           /* "2026-W47" */
	struct hq_week_measure m[HQ_WEEK_MEASURES];
	size_t n;
	char note[1100];          /* "" or why load and ctl are left out (the
	                           * athlete's settings do not hold together) */
	/* hq_week_goals_alerts: the page's goals and alerts */
	struct hq_week_goal *goals;
	size_t ngoals;
	struct hq_week_alert *alerts;
	size_t nalerts;
	int alerts_read;          /* the alerts were asked (none: nothing off) */
	char goals_note[600];     /* "" or why the goals are left out */
	/* hq_week_goals_alerts too: the training plan of the week after
	 * (plan.h), for the page; none: NULL, 0 */
	struct hq_plan_day *next_plan;
	size_t nnext_plan;
};

/* The Monday of the ISO week a --week value names ("2026-W47"): 0, or -1
 * with e saying what a week looks like. NULL: the last complete week
 * before now (local time). */
int hq_week_parse(const char *arg, int64_t now, int64_t *monday,
    struct hq_err *e);

/* Every measure of the week starting on monday and the 12 before it, as
 * far as the store's data reaches at now (horizon.h: ctl is the one on
 * the week's last day of data). cfg: the configuration whose [athlete]
 * settings (with the store's defaults, athlete.h) give load and ctl; NULL
 * leaves those two out, and so does an error of the athlete's settings
 * (w->note says it, for the command to warn: the rest of the week still
 * stands). 0; 1 when the week begins after the newest data or today (e
 * says so: a future week has no rows); -1 with e set. */
int hq_week_run(const struct hq_daily_store *ds, const struct hq_config *cfg,
    int64_t monday, int64_t now, struct hq_week *w, struct hq_err *e);

/* The week's goals (the config's [goals] and Apple's rings, as hq-report
 * goals gives them over the week's days) and its alerts (as hq-report
 * alerts over the week's days), for the page: one mail says it all. A
 * config whose goals do not read leaves the goals out (w->goals_note says
 * why) and the rest stands. 0, or -1 with e set. hq_week_done frees them. */
int hq_week_goals_alerts(const struct hq_daily_store *ds,
    const struct hq_config *cfg, int64_t now, struct hq_week *w,
    struct hq_err *e);
void hq_week_done(struct hq_week *w);

/* Which of w's weeks holds local day d: 0 (the oldest) to
 * HQ_WEEK_SPAN - 1 (the week itself), -1 outside them. */
int hq_week_index(const struct hq_week *w, int64_t d);

/* The rows (measure, week, value, previous, change, unit, days) of the
 * measures with a value in the week: their number. */
long hq_week_out(const struct hq_week *w, struct hq_out *o);

/* The week as one self-contained HTML page (inline CSS and SVG, nothing
 * fetched, no script), for mail: 0, or -1 on a write error. */
int hq_week_html(FILE *fp, const struct hq_week *w);

#endif
