/*
 * list — what the store holds: the data summary of `hq-query --list`, and
 * the extent of one metric's data (what there is near a range that has
 * none).
 *
 * hq_list_run() writes one row per kind of thing found and, within a kind,
 * per metric or type: the metrics with samples (and the nights sleep
 * analysis makes), workouts by type, routes by workout type, activity
 * summaries, clinical records by type, lab results and DEXA scans (what
 * hq-report reads), the characteristics (Me). Each kind is one function in
 * list.c's table (lister[]): a new kind of data (CGM sessions) adds a
 * function there and nothing else. Every row has the same fields, so csv keeps them all:
 *   metric      what to ask hq-query for (heart_rate, workouts), or what
 *               the thing is called (routes, activity_summaries)
 *   identifier  the export's name for it (HKQuantityTypeIdentifierHeartRate,
 *               HKWorkoutActivityTypeRunning, WorkoutRoute...)
 *   kind        cumulative, discrete, category, sleep, workout, route,
 *               summary, clinical, report, characteristic, ...
 *   unit        the unit of its values (metrics), or what count counts
 *               (routes: points; summaries: days; labs: results; dexa:
 *               scans); null when none
 *   count, first, last   how many, and the local times of the first and
 *               last (null when the kind has no times)
 *   sources     the sources' names, an array
 *   type        the workout or record type (running, lab_result), or null
 * A table shows "workouts (running)" for metric and type, and dates for
 * first and last; identifier and kind give way first on a narrow terminal.
 */
#ifndef HQ_LIST_H
#define HQ_LIST_H

#include <stdint.h>

#include "hq/err.h"
#include "hq/output.h"
#include "hq/query.h"
#include "hq/store.h"

/* The rows, to out: their number, or -1 with e set. */
long hq_list_run(struct hq_store *s, struct hq_out *out, struct hq_err *e);

/* One metric's data: whether the store holds samples of its identifier,
 * the first and last start, and how many start in [from, to). */
struct hq_list_extent {
	int any;
	int64_t first, last;
	int64_t n_range;
};
int hq_list_extent(struct hq_store *s, const struct hq_metric_ref *m,
    int64_t from, int64_t to, struct hq_list_extent *x, struct hq_err *e);

#endif
