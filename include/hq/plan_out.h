/*
 * plan_out — hq-report plan: each planned day (plan.h) of a range
 * against the workouts done (the athlete engine's, athlete_load.h: each
 * workout on the local day it starts, its load as hq-report load's).
 *
 * Rows date, type, title, planned_min, planned_load, done_min, done_load,
 * workout_id, status, by date (the planned day before the extra ones):
 *
 *   done     workouts of the planned type that day whose load adds up to
 *            at least 80 % of the planned load (by minutes when none of
 *            them has a load: no heart rate nor power)
 *   partial  workouts of that type that day, short of that
 *   missed   none, and the day is over (before today)
 *   ahead    none yet, today or later
 *   extra    a workout on a day without a plan, or of another type than
 *            planned: a row of its own, planned_* null
 *
 * done_min and done_load sum the day's workouts of the type (load null
 * when none has one); workout_id is the first of them.
 */
#ifndef HQ_PLAN_OUT_H
#define HQ_PLAN_OUT_H

#include <stdint.h>

#include "hq/athlete.h"
#include "hq/err.h"
#include "hq/output.h"
#include "hq/plan.h"
#include "hq/store.h"

#define HQ_PLAN_DONE_SHARE 0.8

/* Days [from, to] (local); today the local day now. Returns 0; 1 when
 * there is neither a plan nor a workout in the range (e says so); -1. */
int hq_plan_report_out(struct hq_store *s, const struct hq_athlete *a,
    int64_t from, int64_t to, int64_t today, struct hq_out *o,
    struct hq_err *e);

#endif
