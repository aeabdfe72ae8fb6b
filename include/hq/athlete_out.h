/*
 * athlete_out — what hq-report writes for "Training: load, zones, bests,
 * workouts compared" (hq-report(1)): the daily load series (and its chart, in
 * athlete_svg.c), time in zones, the bests and workouts side by side,
 * each as a row description (rowdesc.h) over the engine of athlete_load.h.
 * The command parses its options into a struct hq_athlete_ask; everything
 * it prints comes from here.
 *
 * Returns as document_out.h's: 0, 1 when there is nothing to show (e says
 * what was looked for), -1 with e set (bad input: the command exits 2).
 */
#ifndef HQ_ATHLETE_OUT_H
#define HQ_ATHLETE_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hq/athlete_load.h"
#include "hq/config.h"
#include "hq/err.h"
#include "hq/output.h"
#include "hq/store.h"

#define HQ_ATHLETE_MAX_TYPES 16
#define HQ_ATHLETE_MAX_IDS 16

/* What a report is asked about. */
struct hq_athlete_ask {
	struct hq_athlete ath;          /* settings, resolved (hq_athlete_setup) */
	const char *types[HQ_ATHLETE_MAX_TYPES];   /* HealthKit identifiers */
	size_t ntypes;                  /* 0: every type */
	char type_text[256];            /* --type as typed, for messages */
	char typebuf[256];              /* its words, which types may point into */
	int64_t from, to;               /* [from, to) UTC; INT64_MIN/MAX open */
	int64_t id;                     /* zones ID; 0: none */
	int64_t ids[HQ_ATHLETE_MAX_IDS];   /* compare --ids */
	size_t nids;
	long last;                      /* compare --last */
};

/* The settings: [athlete] of cfg (the command's configuration, loaded
 * once), then flags[key] (NULL: not given) named as typed in
 * flag_names[key] (NULL: --max-hr...), then the defaults from s. -1 with
 * e ("--ftp 0: expected ...", "--max-hr 50 is not above ..."). */
int hq_athlete_setup(struct hq_athlete *a, const struct hq_config *cfg,
    struct hq_store *s,
    const char *const flags[HQ_ATH_NKEYS],
    const char *const flag_names[HQ_ATH_NKEYS], struct hq_err *e);

/* --type "running,cycling" into ask->types (identifiers kept in static
 * storage of the catalog or in ask->type_text); -1 with e for an unknown
 * type. only: NULL, or "running|walking|cycling": the types allowed. */
int hq_athlete_parse_types(struct hq_athlete_ask *ask, const char *list,
    const char *only, struct hq_err *e);
/* --ids "12,last,last:cycling" (each as hq_workout_find takes it) into
 * ask->ids; 0, 1 with e when the store has no such workout, -1 with e
 * (not a workout reference; fewer than two). */
int hq_athlete_parse_ids(struct hq_athlete_ask *ask, struct hq_store *s,
    const char *list, struct hq_err *e);

/* hq-report load: rows date, workouts, workouts_no_hr, load, ctl, atl,
 * tsb, ramp, max_hr, rest_hr, lthr, basis for the local days of
 * [from, to) (open ends: the 90 days ending today, `now`), or, with svg,
 * the chart there. 1 when no workout of the types is in the store. */
int hq_athlete_load_out(struct hq_store *s, const struct hq_athlete_ask *ask,
    int64_t now, FILE *svg, struct hq_out *o, struct hq_err *e);

/* hq-report zones: rows zone, lo_bpm, hi_bpm, minutes, pct over workout
 * ask->id, or those of the types starting in [from, to) (open: the 90
 * days ending now). -1 for an id that is not there; 1 for no heart rate. */
int hq_athlete_zones_out(struct hq_store *s, const struct hq_athlete_ask *ask,
    int64_t now, struct hq_out *o, struct hq_err *e);

/* hq-report bests: rows type, target, unit, value, workout_id, date,
 * offset_s for running, walking and cycling (or ask's types). 1 when no
 * workout has a route with times, nor power. */
int hq_athlete_bests_out(struct hq_store *s, const struct hq_athlete_ask *ask,
    struct hq_out *o, struct hq_err *e);

/* hq-report compare workouts: rows field, unit, workout_id, date, value,
 * change for ask->ids or the last ask->last workouts of the types, oldest
 * first; on a table, a column per workout. -1 for an id that is not there;
 * 1 when fewer than two workouts are found. */
int hq_athlete_compare_out(struct hq_store *s, const struct hq_athlete_ask *ask,
    struct hq_out *o, struct hq_err *e);

/* The chart of the daily series d[0..n) (athlete_svg.c): fitness (ctl),
 * fatigue (atl) and form (tsb) lines over the daily load bars. 0, or -1
 * on a write error. */
int hq_athlete_load_svg(FILE *fp, const struct hq_athlete *a,
    const struct hq_athlete_day *d, size_t n, const char *types);

#endif
