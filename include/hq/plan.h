/*
 * plan — a training plan in the store (hq-ingest(1) --plan,
 * hq-report(1) plan): one planned workout a local day, its type (a
 * HealthKit workout identifier), minutes, load (an hour at threshold =
 * 100, as hq-report load's) and title.
 *
 * A newer plan replaces the days it covers: every planned day from its
 * first day to its last is deleted, then its own days written, in the
 * caller's transaction, so a rest day in the new plan (no line) removes
 * the old plan's workout that day.
 */
#ifndef HQ_PLAN_H
#define HQ_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "hq/err.h"
#include "hq/store.h"

#define HQ_PLAN_MAX_DAYS 3660        /* a file's days: ten years */
#define HQ_PLAN_MAX_LINE 4096        /* bytes */
#define HQ_PLAN_MAX_TITLE 200        /* bytes */
#define HQ_PLAN_FIRST_YEAR 2000
#define HQ_PLAN_LAST_YEAR 2100
#define HQ_PLAN_MAX_MIN 1440         /* a day's minutes */
#define HQ_PLAN_MAX_LOAD 1000        /* a day's load */
#define HQ_PLAN_MAX_IF 2.0           /* intensity factor */

struct hq_plan_day {
	int64_t day;                 /* local day number (time.h) */
	char type[128];              /* HealthKit identifier */
	double minutes, load;
	double if_;                  /* as given; NaN when load was */
	char title[HQ_PLAN_MAX_TITLE + 1];   /* "" none */
	long line;                   /* where it was read */
};

/* Replace the days days[0..n) cover (their first to their last, sorted
 * by the caller) with them; *replaced: the planned days deleted. 0, or
 * -1 with e set. In the caller's transaction. */
int hq_plan_put(struct hq_store *s, const struct hq_plan_day *days, size_t n,
    long *replaced, struct hq_err *e);

/* The planned days of [from, to] (local days), ascending: *out malloc'd
 * (NULL when none). 0, or -1 with e set. */
int hq_plan_get(struct hq_store *s, int64_t from, int64_t to,
    struct hq_plan_day **out, size_t *n, struct hq_err *e);

#endif
