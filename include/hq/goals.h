/*
 * goals — the goals a person keeps, and whether they keep them
 * (hq-report(1), goals).
 *
 * In the config, one a line under [goals], `metric = TARGET[/PERIOD]`:
 *
 *     [goals]
 *     steps = 10000/day
 *     sleep = 7h/night
 *     exercise_time = 150min/week
 *     weight = <= 72kg
 *
 * metric: a catalog name or alias (hq_catalog_lookup). TARGET: a number,
 * with `<=` before it for a goal kept at or under it (`>=`, the default,
 * may be written), and a unit after it that converts to the metric's
 * (7h or 420min for sleep in h; 72kg or 158.7lb for weight; none: the
 * metric's own). PERIOD: day (the default), night (sleep metrics only; a
 * night is keyed by the date it ends, as hq-query's), week (ISO, Monday
 * first) or month. An unknown metric, unit or period is an error naming
 * the config's file:line.
 *
 * A period's figure, over the daily values of its days (as hq-query --by
 * day gives them): the total for cumulative metrics (and counted or timed
 * categories), the average night for sleep, the last value for body
 * measures (weight, body fat, BMI, lean mass, waist, height), the average
 * of the daily values for the others.
 *
 * Rows, per goal and period: target, actual, pct = 100 actual / target,
 * met (actual >= target, or <= for a `<=` goal), streak = the periods met
 * in a row ending at this one. A period with no value in it is not met
 * (actual and pct null) and ends a streak, except for a measurement (a
 * discrete metric: weight, body fat, resting heart rate), which is judged
 * on the periods that have a value: a period without one is no data (met
 * null, HQ_GOAL_NO_DATA) and neither breaks nor extends the streak. A
 * period whose last day is on or after the newest day of data (the
 * caller's `newest`: the last day the store's data reaches, horizon.h) is
 * still going on: met null (HQ_GOAL_GOING_ON), and its streak is the one
 * before it, not broken and not yet added to. A period after the newest
 * day makes no row.
 */
#ifndef HQ_GOALS_H
#define HQ_GOALS_H

#include <stddef.h>
#include <stdint.h>

#include "hq/catalog.h"
#include "hq/config.h"
#include "hq/err.h"
#include "hq/time.h"

enum hq_goal_figure {
	HQ_GOAL_TOTAL,        /* cumulative: the period's total */
	HQ_GOAL_AVERAGE,      /* sleep (the average night) and others */
	HQ_GOAL_LAST,         /* body measures: the period's last value */
};

struct hq_goal {
	char name[64];        /* the key as written: steps */
	const struct hq_metric_info *metric;
	const char *unit;     /* the metric's unit, which target is in */
	double target;
	int at_most;          /* written with <= */
	enum hq_period period;  /* HQ_DAY, HQ_WEEK or HQ_MONTH */
	int night;            /* written /night (a day period) */
	enum hq_goal_figure figure;
	int measurement;      /* judged on the periods with a value */
	char where[256];      /* the config's FILE:LINE, "" when none */
};

/* One goal, key = value as written; where ("FILE:LINE", or NULL) starts
 * the error's message. 0, or -1 with e set. */
int hq_goal_parse(const char *key, const char *value, const char *where,
    struct hq_goal *g, struct hq_err *e);
/* Every goal of [goals], in the file's order, into a new array (free()):
 * 0, or -1 with e naming the first bad line's file:line. None: 0 and *n 0. */
int hq_goals_from_config(const struct hq_config *c, struct hq_goal **goals,
    size_t *n, struct hq_err *e);

/* The figure of a metric (the rule above). */
enum hq_goal_figure hq_goal_figure_of(const struct hq_metric_info *m);
/* A figure over days first..last (inclusive) of day[] (ascending, each
 * once) with values v[]; *days: how many hold a value. NaN when none. The
 * same as a goal's period, for other periods (hq-report week's value and
 * previous week: avg/day, avg/night, total, last value). */
double hq_goal_figure_over(enum hq_goal_figure f, const int64_t *day,
    const double *v, size_t n, int64_t first, int64_t last, int *days);

/* A row's met: kept or not, or null for one of two reasons. */
enum {
	HQ_GOAL_NOT_MET = 0, HQ_GOAL_MET = 1,
	HQ_GOAL_GOING_ON = -1,   /* ends on or after the newest day of data */
	HQ_GOAL_NO_DATA = -2,    /* a measurement's period without a value */
};

struct hq_goal_row {
	const struct hq_goal *goal;
	int64_t first_day, last_day;  /* the period's days, inclusive */
	char period[16];             /* 2026-11-23, 2026-W48, 2026-11 */
	double target;
	double actual, pct;          /* NaN: no value in the period */
	int met;                     /* HQ_GOAL_MET ... (< 0: null) */
	long streak;
	int days;                    /* days (nights) with a value */
};
/* 0 to go on, -1 to stop (hq_goal_eval then returns -1). */
typedef int hq_goal_row_fn(void *arg, const struct hq_goal_row *r);

/* The rows of goal g over days day[] (ascending, each once) with values
 * v[]: every period from the one holding the first value (or from, if
 * earlier: streaks count periods before from) to the one holding to is
 * evaluated; rows go to fn for the periods that hold a day of [from, to]
 * (day numbers, inclusive), oldest first. targets: NULL, or each day's
 * own target (Apple's activity rings, whose goals change from day to day;
 * a period's target is its last value's, g->target without one). newest:
 * the last local day of data; a period starting after it makes no row.
 * 0, or -1 when fn said stop. */
int hq_goal_eval(const struct hq_goal *g, const int64_t *day, const double *v,
    const double *targets, size_t n, int64_t from, int64_t to, int64_t newest,
    hq_goal_row_fn *fn, void *arg);

/* The period holding day d: its first and last day and its label. */
void hq_goal_period_of(enum hq_period p, int64_t d, int64_t *first,
    int64_t *last, char *label, size_t n);

#endif
