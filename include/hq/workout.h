/*
 * workout — workouts from the store, from either export format, in one
 * shape: type, start, duration, distance, energy, average heart rate.
 *
 * Old exports carry totals as Workout attributes; iOS 16+ exports carry them
 * as WorkoutStatistics (workout level; activity-level rows repeat them and
 * are never added on top). Both are stored by hq-ingest (schema in schema.c);
 * this module reads them back. Rows go to a caller-owned struct hq_out.
 */
#ifndef HQ_WORKOUT_H
#define HQ_WORKOUT_H

#include <stddef.h>
#include <stdint.h>

#include "hq/catalog.h"   /* the workout types: hq_workout_type_*() */
#include "hq/err.h"
#include "hq/output.h"
#include "hq/store.h"

/* Numbers a higher layer adds to each workout's row, after the list's
 * own fields (the athlete's figures, lib/analyze/athlete_rows.c): fill
 * puts keys[i]'s value for workout id in vals[i] (NAN: null) and returns
 * 0, or -1 with e set; tail, when set, writes fields of its own after
 * them (the settings used). table_key names the one a table shows, before
 * its route column (NULL: none). --where (hq_workout_filter.where) may
 * name every key. */
#define HQ_WORKOUT_MORE_MAX 32
struct hq_workout_more {
	const char *const *keys;
	size_t n;                    /* at most HQ_WORKOUT_MORE_MAX */
	const char *table_key;
	int (*fill)(void *arg, int64_t id, double *vals, struct hq_err *e);
	void (*tail)(void *arg, struct hq_out *out);
	void *arg;
};

struct hq_workout_filter {
	const char *type;       /* "running", "HKWorkoutActivityTypeRunning", "run"; NULL = any */
	int64_t from, to;       /* [from, to) on the start time; to = 0: no bound */
	double min_duration;    /* minutes; 0 = no bound */
	long limit, offset;     /* limit 0 = no limit */
	/* 0: an activity recorded twice (workout_same, store.c) once, its
	 * kept recording; 1: every recording, each row with same_as (the
	 * kept one's id, or null). */
	int all_sources;
	/* Expressions (expr.h) on the rows' numeric fields, all of which
	 * must hold: duration_min, distance_km, energy_kcal, avg_hr, max_hr,
	 * pace_min_per_km, speed_kmh, id, has_route and more's keys. An
	 * unknown name is an error that lists them. limit and offset count
	 * the rows that hold. */
	const char *const *where;
	size_t nwhere;
	const struct hq_workout_more *more;   /* NULL: none */
};

/* One row per workout, newest first (so limit 3 is the last three): id,
 * type, start, end (local ISO times), date, duration_min, distance_km,
 * energy_kcal, avg_hr, max_hr, source, has_route, pace_min_per_km,
 * speed_kmh, filled_from. Totals come from the Workout's own attributes,
 * else its statistics, else (an activity recorded twice) those of the
 * recording it takes them from; filled_from names that recording for each
 * field taken ({"distance":12,"route":14}), null when none; heart rate
 * from its statistic, else from the heart-rate samples between its start
 * and end. Absent values are null, never 0.
 * Into a table (hq_out_format), the row is the one people read in 80
 * columns instead: id, date, start (HH:MM), type, duration (h:mm:ss),
 * km, pace/speed (pace for running, walking and hiking, "min:ss/100m"
 * for swimming, km/h for the rest), kcal, hr, max, route, source.
 * An unknown f->type is an error whose message suggests the closest type.
 * Returns the number of rows, or -1 with e set. */
long hq_workout_list(struct hq_store *s, const struct hq_workout_filter *f,
    struct hq_out *out, struct hq_err *e);

/*
 * What a counted recording takes from one that yields to it (hq-ingest(1),
 * "THE SAME ACTIVITY RECORDED TWICE"; lib/store/same.c decides, at import,
 * in workout_fill): the workout whose field ("distance", "energy",
 * "ascent", "route", "power") a reader reads for workout id (an SQL
 * expression): the one it takes it from, else itself.
 */
#define HQ_WORKOUT_FILLED(field, id) \
	"coalesce((SELECT f.from_id FROM workout_fill f WHERE f.workout_id = " \
	id " AND f.field = '" field "'), " id ")"

/* Whether the store has workout_same, the recordings of an activity
 * recorded twice that yield to another (store.c; a store from before it,
 * opened read-only, has not): whoever counts workouts leaves those out
 * with "AND id NOT IN (SELECT workout_id FROM workout_same)". */
int hq_workout_has_same(struct hq_store *s);

/* One row of detail for workout id: the list fields plus
 *   hr_source      "statistics" (its HeartRate statistic), "samples" (the
 *                  heart-rate samples recorded during it: old exports) or null
 *   elapsed_min    end - start, pauses included (duration_min excludes them)
 *   activities     WorkoutActivity count
 *   <metric>_sum/_avg/_min/_max, <metric>_unit   every statistic, in the
 *                  catalog unit (workout level; activity level only for
 *                  metrics the workout level lacks: summed, min/max, and
 *                  averages weighted by duration)
 *   events, pauses, paused_min, laps, segments, markers   (Pause→Resume and
 *                  MotionPaused→MotionResumed make the paused time)
 *   time_zone, indoor, elevation_ascended_m, temperature_c, humidity_pct
 *                  (a humidity written ×100, "5700 %", is read as 57),
 *                  average_mets                     from the metadata
 *   sub_sport      a device file's sub-sport ("trail", "treadmill",
 *                  "virtual_activity") or null
 *   virtual_route  true when the route is a game's map (Zwift), not
 *                  places visited
 *   partial        true when the device file ended early (a watch that
 *                  died): the workout holds what it had recorded
 *   route_points, route_distance_km (haversine sum), route_elevation_gain_m
 *                  (sum of the rises), route_duration_min,
 *                  route_min_lat/_min_lon/_max_lat/_max_lon   when it has a route.
 * Returns 1, 0 when there is no such workout, -1 on error. */
int hq_workout_detail(struct hq_store *s, int64_t id, struct hq_out *out,
    struct hq_err *e);
/* The i-th numeric field of a list row that --where may name (id,
 * duration_min, ...), NULL past the last. */
const char *hq_workout_field_at(size_t i);

/* The same with more's fields after the list's (more may be NULL). */
int hq_workout_detail_more(struct hq_store *s, int64_t id,
    const struct hq_workout_more *more, struct hq_out *out,
    struct hq_err *e);

/* A workout as a command line names it, wherever one is taken (hq-query
 * workout, hq-report zones, compare workouts --ids): its ID ("17"),
 * "last" (the newest) or "last:TYPE" (the newest of a type, as --type
 * takes it: last:cycling, last:ride). 1 with *w filled; 0 with e set when
 * the store has no such workout ("no workout last:yoga; hq-query workouts
 * lists them"); -1 with e set (not one of those forms; an unknown type). */
struct hq_workout_ref {
	int64_t id, start, end;
	char type[128];          /* "running" */
};
int hq_workout_find(struct hq_store *s, const char *ref,
    struct hq_workout_ref *w, struct hq_err *e);

/* How many workouts of type (NULL: any; a type unknown: none) the store
 * holds, the first and last start, and how many start in [from, to)
 * (from 0, to 0: unbounded), to say what there is when a list is empty. */
struct hq_workout_count {
	int64_t n, first, last, n_range;
};
int hq_workout_count(struct hq_store *s, const char *type, int64_t from,
    int64_t to, struct hq_workout_count *c, struct hq_err *e);

/* An empty list of f, for a person: what there is of that type, or at
 * all, in a line or two ("no cycling workouts since 2026-11-20\n4 cycling
 * workouts from 2026-10-17 to 2026-11-17"). 0, or -1 with e set. */
int hq_workout_explain_none(struct hq_store *s,
    const struct hq_workout_filter *f, char *buf, size_t n, struct hq_err *e);

/* Great-circle distance in metres between two points (degrees) on a
 * sphere of radius r metres (haversine). */
double hq_workout_great_circle(double r, double lat1, double lon1,
    double lat2, double lon2);

/* The same on a sphere of the Earth's mean radius (6371008.8 m): what
 * route distances are summed from. */
double hq_workout_haversine(double lat1, double lon1, double lat2, double lon2);

/* What a workout event is, from its type's name (HKWorkoutEventTypePause,
 * ...MotionPaused, ...): the kinds the route summary and the athlete's
 * figures read. */
enum hq_workout_event_kind {
	HQ_EVENT_OTHER, HQ_EVENT_PAUSE, HQ_EVENT_RESUME, HQ_EVENT_LAP,
	HQ_EVENT_SEGMENT, HQ_EVENT_MARKER,
};
enum hq_workout_event_kind hq_workout_event_kind(const char *type);

#endif
