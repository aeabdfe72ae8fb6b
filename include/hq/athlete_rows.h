/*
 * athlete_rows — the athlete's figures beside hq-query's workout rows
 * (hq-query(1), WORKOUTS): trimp, hrss,
 * edwards, np, if, tss, load, hr_minutes, hr_coverage_pct, z0_min ...
 * z5_min, elevation_gain_m for each workout (from the kept per-workout
 * figures where they are good, athlete_load.h's hq_athlete_reader), then the
 * settings they used: athlete_max_hr, athlete_rest_hr, athlete_lthr,
 * athlete_ftp, athlete_sex and athlete_basis (the least sure origin of
 * max_hr, rest_hr and lthr: default, store, config or flag). A table
 * shows load.
 */
#ifndef HQ_ATHLETE_ROWS_H
#define HQ_ATHLETE_ROWS_H

#include <stdio.h>

#include "hq/config.h"
#include "hq/route.h"
#include "hq/workout.h"

struct hq_athlete_rows;

/* The settings a command was given: each flag's value as typed (NULL:
 * not given). */
struct hq_athlete_flags {
	const char *max_hr, *rest_hr, *lthr, *ftp;
};

/* The settings from [athlete] in c, then the flags, then the defaults
 * from the store (athlete.h); NULL with e saying what is wrong
 * ("--ftp 0: ...", "max_hr 150 (--max-hr) is not above ..."). */
struct hq_athlete_rows *hq_athlete_rows_new(struct hq_store *s,
    const struct hq_config *c, const struct hq_athlete_flags *flags,
    struct hq_err *e);
/* What hq_workout_filter.more and hq_workout_detail_more take. */
const struct hq_workout_more *hq_athlete_rows_more(struct hq_athlete_rows *r);
void hq_athlete_rows_free(struct hq_athlete_rows *r);
/* The i-th figure's key (trimp, ...), NULL past the last: shell
 * completion of --where. */
const char *hq_athlete_rows_key_at(size_t i);

/* hq-query workout ID --splits DIST: DIST as metres, "1" or "2km" (km),
 * "1mi", "400m"; -1 with e saying what is wrong (not a number, not above
 * 0, an unknown unit, longer than 1000 km). */
int hq_athlete_split_unit(const char *text, double *metres, struct hq_err *e);
/* The splits of workout id's route every unit_m metres (athlete_bests.h,
 * hq_athlete_splits), rows split, km, seconds, pace_min_per_km,
 * speed_kmh, avg_hr, gain_m: the number of rows, 0 when it has no route
 * points, -1 with e set. */
long hq_athlete_splits_write(struct hq_store *s, int64_t id, double unit_m,
    struct hq_out *out, struct hq_err *e);

/* hq-query workout ID --format gpx|geojson: hq_route_write_hr (route.h),
 * each GPX point with the heart rate in force at its time (athlete_load.h's
 * hold rule) as gpxtpx:hr. */
long hq_athlete_route_write(struct hq_store *s, int64_t id, const char *name,
    enum hq_route_format f, FILE *fp, struct hq_err *e);

#endif
