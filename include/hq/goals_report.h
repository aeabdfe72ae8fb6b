/*
 * goals_report — `hq-report goals` (SPEC.md, "Every day"): the goals of
 * the config's [goals] (goals.h reads them) and Apple's activity rings
 * (the export's ActivitySummary, as the store keeps it), each over its
 * daily values, into rows goal, period, target, actual, pct, met, streak.
 *
 * Daily values are hq-query --by day's (correlate.h's hq_corr_load: the
 * same selection, dedup, nights and local days), read from the first
 * data on, so that streaks count the periods before from. The rings are
 * three goals per day, `move` (kcal), `exercise` (min) and `stand` (h),
 * each day with its own target (the goal the watch had that day); a day
 * the summary gives no value for is a day without data.
 *
 * The newest data (a period ending on or after its day is still going
 * on): the newest sample's start in the store, or the newest activity
 * summary's date, whichever is later, as a local day.
 */
#ifndef HQ_GOALS_REPORT_H
#define HQ_GOALS_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "hq/err.h"
#include "hq/goals.h"
#include "hq/output.h"
#include "hq/select.h"
#include "hq/store.h"

/* The ring goals, in the order they are reported. */
#define HQ_GOAL_RINGS 3
/* The name of ring i (move, exercise, stand), NULL past the last. */
const char *hq_goal_ring_at(size_t i);

/* The local day of the newest data in the store (above); 0 when the store
 * holds none (*none set), -1 with e set. */
int hq_goals_newest_day(struct hq_store *s, int64_t *day, int *none,
    struct hq_err *e);

/* The rows of goals[0..n) and, with rings, the rings (those named in
 * only[0..nonly) when only is not NULL) over local days [from, to]
 * (inclusive) into o, goal by goal in the given order, then the rings,
 * each oldest period first. settings: the [query] settings
 * (hq_select_config). 0, 1 when no row came (e says why), -1 with e
 * set. */
int hq_goals_report_out(struct hq_store *s, const struct hq_select *settings,
    const struct hq_goal *goals, size_t n, int64_t from, int64_t to,
    int rings, const char *const *only, size_t nonly, struct hq_out *o,
    struct hq_err *e);

#endif
