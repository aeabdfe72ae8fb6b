/*
 * goals_out — `hq-report goals` (hq-report(1), goals): the goals of
 * the config's [goals] (goals.h reads them) and Apple's activity rings
 * (the export's ActivitySummary, as the store keeps it), each over its
 * daily values, into rows goal, period, target, actual, pct, met, streak.
 *
 * Daily values are hq-query --by day's (daily.h's hq_daily_load: the
 * same selection, dedup, nights and local days), read from the first
 * data on, so that streaks count the periods before from. The rings are
 * three goals per day, `move` (kcal), `exercise` (min) and `stand` (h),
 * each day with its own target (the goal the watch had that day); a day
 * the summary gives no value for is a day without data.
 *
 * The newest data (horizon.h): a period ending on or after its day is
 * still going on, and a period after it, or after today, makes no row. A
 * goal whose metric the store has never recorded is said (a line in
 * notes, with the config's file:line) and makes none either.
 */
#ifndef HQ_GOALS_OUT_H
#define HQ_GOALS_OUT_H

#include <stddef.h>
#include <stdint.h>

#include "hq/buf.h"
#include "hq/err.h"
#include "hq/goals.h"
#include "hq/output.h"
#include "hq/select.h"
#include "hq/store.h"

/* The ring goals, in the order they are reported. */
#define HQ_GOAL_RINGS 3
/* The name of ring i (move, exercise, stand), NULL past the last. */
const char *hq_goal_ring_at(size_t i);

/* The rows of goals[0..n) and, with rings, the rings (those named in
 * only[0..nonly) when only is not NULL) over local days [from, to]
 * (inclusive), to fn, goal by goal in the given order, then the rings,
 * each oldest period first. settings: the [query] settings
 * (hq_select_config); now: the clock (hq_time_now()); notes: NULL, or
 * where lines for the command to warn with go, each ending in a newline.
 * 0, 1 when no row came (e says why), -1 with e set. */
int hq_goals_each(struct hq_store *s, const struct hq_select *settings,
    const struct hq_goal *goals, size_t n, int64_t from, int64_t to,
    int64_t now, int rings, const char *const *only, size_t nonly,
    struct hq_buf *notes, hq_goal_row_fn *fn, void *arg, struct hq_err *e);
/* The same rows into o: goal, period, op, target, actual, pct, met,
 * streak, unit. */
int hq_goals_report_out(struct hq_store *s, const struct hq_select *settings,
    const struct hq_goal *goals, size_t n, int64_t from, int64_t to,
    int64_t now, int rings, const char *const *only, size_t nonly,
    struct hq_buf *notes, struct hq_out *o, struct hq_err *e);

#endif
