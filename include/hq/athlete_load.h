/*
 * athlete_load — the engine of hq-report(1)'s load, zones and compare
 * over the athlete's settings (athlete.h): a workout's heart rate (one
 * source, pauses out, each sample held at most 120 s) and power, its
 * load (TRIMP, hrss, Edwards, NP/IF/TSS), zones and elevation gain, the
 * per-workout summary the kept figures hold (athlete_cache.h), the daily
 * fitness/fatigue/form series.
 *
 * Two levels. The pure functions (hq_athlete_hold, hq_athlete_figures,
 * hq_athlete_pmc, hq_athlete_gain, hq_athlete_np) take arrays and know
 * nothing of the store: the rules live there, and tests hold them to
 * closed forms. The store functions (hq_athlete_read, hq_athlete_each,
 * hq_athlete_days) read a workout's samples and events into those
 * arrays. athlete_out.h writes the rows.
 *
 * Times are UTC seconds; every hold and window boundary is a whole second.
 */
#ifndef HQ_ATHLETE_LOAD_H
#define HQ_ATHLETE_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "hq/athlete.h"
#include "hq/err.h"
#include "hq/store.h"

#define HQ_ATHLETE_HOLD_S 120        /* a sample holds at most this long */

/* ---- a workout's samples ---- */

struct hq_span {
	int64_t from, to;               /* [from, to) */
};

struct hq_tv {                      /* one sample: time and value */
	int64_t t;
	double v;
};

struct hq_held {                   /* a sample as held */
	int64_t t;                      /* its time */
	int64_t dt;                     /* seconds it holds (0 for a sample
	                                   at the time of the next) */
	double v;
};

/* The held pieces of samples smp[0..n) (one source, sorted by t, ties
 * in the caller's order) for a workout [start, end) with pauses
 * p[0..np) (sorted, disjoint): the samples with start <= t < end outside
 * every pause, each holding from t until the next such sample, end or the
 * next pause's start, whichever is first, at most HQ_ATHLETE_HOLD_S.
 * Writes at most n pieces to out; returns how many. */
size_t hq_athlete_hold(const struct hq_tv *smp, size_t n, int64_t start,
    int64_t end, const struct hq_span *p, size_t np, struct hq_held *out);

/* A workout as the engine reads it. */
struct hq_athlete_workout {
	int64_t id, start, end;
	int64_t source_id;
	char type[128];                 /* HealthKit identifier */
	struct hq_span *pauses;         /* inside [start, end), sorted */
	size_t npauses;
	int64_t paused_s;               /* their total */
	struct hq_held *hr, *power;    /* held pieces, one source each */
	size_t nhr, npower;
	int64_t hr_source, power_source;   /* 0: none */
	int64_t power_fill_source;      /* the source of the recording it
	                                   takes power from (workout.h's
	                                   HQ_WORKOUT_FILLED); 0: none */
	double hr_sample_max;           /* the highest heart-rate sample in
	                                   [start, end), any source, pauses
	                                   included (max_hr's default); NAN */
	double distance_m;              /* the workout's own; NAN */
	double ascended_m;              /* HKElevationAscended; NAN */
	double route_gain_m;            /* 3 m hysteresis; NAN without altitudes */
	int cached;                     /* 1: the figures came from the kept
	                                   summary (HQ_ATHLETE_CACHED): no
	                                   pauses, hr nor power pieces here */
};

/* Workout id with its pauses (Pause/Resume and MotionPaused/
 * MotionResumed, workout-level events, else those of its activities; an
 * unclosed pause runs to the end), heart rate and cycling power (the
 * workout's own source when it has samples inside, else, for power, the
 * source of the recording it takes power from, else the source with the
 * most, ties to the smaller source id), the HKElevationAscended metadata
 * and the route's gain (an activity recorded twice: those of the
 * recording it takes them from, workout.h). 1, 0 when there is no such
 * workout, -1. */
int hq_athlete_read(struct hq_store *s, int64_t id,
    struct hq_athlete_workout *w, struct hq_err *e);
void hq_athlete_workout_free(struct hq_athlete_workout *w);

/* ---- figures ---- */

struct hq_athlete_figures {
	double moving_min;              /* (end - start - paused) / 60 */
	double hr_minutes, hr_coverage_pct;
	double trimp, hrss, edwards;    /* NAN without heart rate */
	double z_min[6];                /* NAN without heart rate */
	double avg_hr, max_hr;          /* of the held pieces, time-weighted */
	double np, if_, tss;            /* NAN without power (if, tss: ftp) */
	double power_s;                 /* seconds of the 1 s power series */
	double load;                    /* tss, else hrss, else NAN */
	double elevation_gain_m;        /* route, else metadata, else NAN */
};

/* Every figure of w for athlete a (pure: w's arrays only). */
void hq_athlete_figures(const struct hq_athlete *a,
    const struct hq_athlete_workout *w, struct hq_athlete_figures *f);

/* What of a workout the figures need, whatever the settings: every heart
 * rate figure is a sum of seconds x f(hr), so the seconds held at each
 * heart rate (bins, by rising hr) are enough; NP and the 1 s series'
 * length; the gains. A few hundred bytes a workout: what a cache of
 * per-workout figures keeps, so that a second run reads no samples
 * (hq_athlete_figures = hq_athlete_summarize + hq_athlete_figures_of). */
struct hq_athlete_bin {
	double hr;
	int64_t secs;
};
struct hq_athlete_summary {
	int64_t id, start, end, paused_s;
	int64_t hr_source, power_source;
	size_t nhr;                     /* held pieces: 0 = no heart rate */
	double hr_max;                  /* the highest held value */
	double hr_sample_max;           /* as in hq_athlete_workout */
	struct hq_athlete_bin *bins;    /* malloc'd */
	size_t nbins;
	double np, power_s;
	double route_gain_m, ascended_m;
};
void hq_athlete_summarize(const struct hq_athlete_workout *w,
    struct hq_athlete_summary *s);
void hq_athlete_summary_free(struct hq_athlete_summary *s);
void hq_athlete_figures_of(const struct hq_athlete *a,
    const struct hq_athlete_summary *s, struct hq_athlete_figures *f);

/* Normalized power of held power pieces: the 1 s series (each piece's
 * value for each of its dt seconds, the pieces one after another) through
 * a 30 s rolling mean (its values from the 30th second on), the 4th root
 * of the mean 4th power. NAN under 30 s; *seconds = the series' length. */
double hq_athlete_np(const struct hq_held *p, size_t n, double *seconds);

/* Elevation gain of altitudes ele[0..n) (NAN ones skipped) with 3 m
 * hysteresis; NAN when none is a number. */
double hq_athlete_gain(const double *ele, size_t n);

/* ---- the daily series ---- */

struct hq_athlete_day {
	int64_t day;                    /* local day number (time.h) */
	long workouts, workouts_no_hr;
	double load;                    /* 0 on rest days */
	double ctl, atl, tsb, ramp;     /* ramp NAN for the first 7 days */
	int planned;                    /* a day ahead: load from the plan */
};

/* ctl, atl, tsb and ramp of d[0..n), consecutive days whose load is set,
 * from ctl = atl = 0 on the day before d[0]:
 *   ctl_d = ctl_{d-1} + (load_d - ctl_{d-1})(1 - e^(-1/42)), atl with 7,
 *   tsb_d = ctl_{d-1} - atl_{d-1}, ramp_d = ctl_d - ctl_{d-7} (NAN, d < 7). */
void hq_athlete_pmc(struct hq_athlete_day *d, size_t n);

/* Workouts of types[0..ntypes) (HealthKit identifiers; ntypes 0: all)
 * starting in [from, to) (0, 0: all), oldest first (start, then id), each
 * read and figured for a: fn returns 0 to go on, else stops the walk
 * with that value. flags HQ_ATHLETE_LOAD_ONLY reads no route nor metadata
 * (elevation_gain_m is then NAN): what the daily series needs. Returns the
 * number walked, or -1 with e set. */
#define HQ_ATHLETE_LOAD_ONLY 1u
/* HQ_ATHLETE_CACHED: fn needs only w's scalars and the figures, which
 * then come from the kept per-workout summaries where they are good
 * (athlete_cache.h: a second run reads no samples), else from the
 * samples, and are kept for the next run. w->cached says which; a cached
 * w has paused_s, sources, hr_sample_max and the gains, but no pauses,
 * hr nor power pieces. hq_athlete_days walks with it. */
#define HQ_ATHLETE_CACHED 2u
typedef int hq_athlete_fn(void *arg, const struct hq_athlete_workout *w,
    const struct hq_athlete_figures *f);
long hq_athlete_each(struct hq_store *s, const struct hq_athlete *a,
    const char *const *types, size_t ntypes, int64_t from, int64_t to,
    unsigned flags, hq_athlete_fn *fn, void *arg, struct hq_err *e);

/* The daily series for workouts of types (as above): d[0] is the local day
 * of the first such workout in the store (ctl and atl are 0 on the day
 * before it, whatever range a command shows), the last is local day
 * last_day or the last workout's day, whichever is later: *days malloc'd,
 * *n of them (0 and NULL when there is no such workout). Each workout
 * belongs to the local day of its start; one without a load (no heart
 * rate, no power with an ftp) adds 0 and counts in workouts_no_hr.
 * 0, or -1 with e set. */
int hq_athlete_days(struct hq_store *s, const struct hq_athlete *a,
    const char *const *types, size_t ntypes, int64_t last_day,
    struct hq_athlete_day **days, size_t *n, struct hq_err *e);

/* One workout's figures at a time, by id, from the kept summaries where
 * they are good, else from the samples (then kept): what a list of
 * workouts shows beside its rows. hq_athlete_figures_id: 1 with *f and,
 * when w is not NULL, *w (as HQ_ATHLETE_CACHED gives it: free it with
 * hq_athlete_workout_free), 0 when there is no such workout, -1. */
struct hq_athlete_reader;
struct hq_athlete_reader *hq_athlete_reader_new(struct hq_store *s,
    struct hq_err *e);
int hq_athlete_figures_id(struct hq_athlete_reader *r,
    const struct hq_athlete *a, int64_t id, struct hq_athlete_workout *w,
    struct hq_athlete_figures *f, struct hq_err *e);
void hq_athlete_reader_free(struct hq_athlete_reader *r);

/* The figures of every workout of s that has none kept (those an import
 * added, or whose figures it dropped) computed from its samples and kept,
 * one workout at a time, in a transaction of their own through a
 * connection of their own (athlete_cache.h): hq-ingest calls it once its
 * imports have committed, so that the first hq-report load after an
 * import reads no samples. 1 when every workout's figures are then kept,
 * 0 when the store could not be locked at once (another writer holds it:
 * nothing kept, the first use computes them), -1 with e set (nothing kept
 * of what was read). */
int hq_athlete_keep_figures(struct hq_store *s, struct hq_err *e);

/* Every workout of the store (those yielding to another too) without a
 * row kept read, summarized and kept, as hq_athlete_keep_figures but
 * best effort, for the settings' defaults (athlete.c: max_hr from the kept
 * figures): 1 when the kept rows then hold them all, 0 when they cannot
 * be written (nothing read, or what was read not kept), -1. */
int hq_athlete_fill_figures(struct hq_store *s, struct hq_err *e);

#endif
