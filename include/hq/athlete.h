/*
 * athlete — the engine of hq-report(1)'s "Training: load, zones, bests":
 * the athlete's settings and where each came from, a workout's heart rate
 * (one source, pauses out, each sample held at most 120 s) and power,
 * its load (TRIMP, hrss, Edwards, NP/IF/TSS), zones and elevation gain,
 * the daily fitness/fatigue/form series, bests and splits.
 *
 * Two levels. The pure functions (hq_athlete_hold, hq_athlete_figures,
 * hq_athlete_pmc, hq_athlete_gain, hq_athlete_best_*, hq_athlete_splits)
 * take arrays and know nothing of the store: the rules live there, and
 * tests hold them to closed forms. The store functions (hq_athlete_defaults,
 * hq_athlete_read, hq_athlete_each, hq_athlete_days) read a workout's
 * samples, events and route into those arrays. Commands format the rows.
 *
 * Times are UTC seconds; every hold and window boundary is a whole second.
 */
#ifndef HQ_ATHLETE_H
#define HQ_ATHLETE_H

#include <stddef.h>
#include <stdint.h>

#include "hq/config.h"
#include "hq/err.h"
#include "hq/store.h"

#define HQ_ATHLETE_HOLD_S 120        /* a sample holds at most this long */
#define HQ_ATHLETE_EARTH_R 6371000.0 /* metres: bests and splits */
#define HQ_ATHLETE_MAX_POINTS 500000L   /* route points read per workout */
/* What a heart rate setting may be (bpm), and the samples max_hr's
 * estimate from the store is the highest of: a 60,000 a file once held is
 * no maximum. An ftp (W) past 0 is at least FTP_LO: a smaller one makes
 * every ride's TSS explode (1e-300 made it infinite). */
#define HQ_ATHLETE_HR_LO 25.0
#define HQ_ATHLETE_HR_HI 250.0
#define HQ_ATHLETE_FTP_LO 20.0
#define HQ_ATHLETE_FTP_HI 2500.0

/* ---- settings ---- */

enum hq_sex { HQ_SEX_UNKNOWN, HQ_SEX_MALE, HQ_SEX_FEMALE };

/* Where a value came from; NONE: nowhere (max_hr with no heart rate in any
 * workout and none set: then every heart-rate figure is null). */
enum hq_basis {
	HQ_BASIS_NONE, HQ_BASIS_DEFAULT, HQ_BASIS_STORE, HQ_BASIS_CONFIG,
	HQ_BASIS_FLAG,
};

enum hq_athlete_key {
	HQ_ATH_SEX, HQ_ATH_MAX_HR, HQ_ATH_REST_HR, HQ_ATH_LTHR, HQ_ATH_FTP,
	HQ_ATH_ZONES, HQ_ATH_NKEYS,
};

struct hq_athlete {
	enum hq_sex sex;
	double max_hr, rest_hr, lthr;   /* bpm; NAN: not known */
	double ftp;                     /* W; NAN: none (no if, no tss) */
	double zones[4];                /* bpm lower edges of zones 2-5; NAN: percentages */
	enum hq_basis basis[HQ_ATH_NKEYS];
	char where[HQ_ATH_NKEYS][96];   /* "FILE:LINE" or "--max-hr", for messages */
};

void hq_athlete_init(struct hq_athlete *a);
/* The [athlete] keys of c (sex, max_hr, rest_hr, lthr, ftp, zones), each
 * checked alone: -1 with e = "FILE:LINE: [athlete] max_hr = abc: why". */
int hq_athlete_config(struct hq_athlete *a, const struct hq_config *c,
    struct hq_err *e);
/* A command-line value for key (over the config): -1 with e =
 * "--ftp 0: why". flag is the option as typed, for the message. */
int hq_athlete_flag(struct hq_athlete *a, enum hq_athlete_key key,
    const char *flag, const char *value, struct hq_err *e);
/* What is still unset, from the store (s may be NULL: defaults only):
 * sex from Me, max_hr the highest heart-rate sample whose time is in
 * [start, end) of any workout, rest_hr the median of the resting heart
 * rate samples else 60, lthr = rest + 0.85 (max - rest), whose basis is
 * the less sure of max_hr's and rest_hr's. Then the values
 * together: max_hr > rest_hr, rest_hr < lthr < max_hr, zone edges rising;
 * -1 with e naming each value's origin when they do not hold. */
int hq_athlete_defaults(struct hq_athlete *a, struct hq_store *s,
    struct hq_err *e);
/* The settings as every command resolves them: [athlete] in c (c may be
 * NULL), then the flags (flags[k] the value typed for key k or NULL,
 * names[k] the option as typed, for messages, NULL: --max-hr...; flags
 * may be NULL), then
 * hq_athlete_defaults. -1 with e. */
int hq_athlete_resolve(struct hq_athlete *a, const struct hq_config *c,
    const char *const flags[HQ_ATH_NKEYS],
    const char *const names[HQ_ATH_NKEYS], struct hq_store *s,
    struct hq_err *e);
/* The rows' basis (hq-report(1)): the least certain origin of max_hr, rest_hr
 * and lthr, "default", "store" or "config" (a flag counts as config). */
const char *hq_athlete_basis_of(const struct hq_athlete *a);
/* "config", "flag", "store", "default" (NULL for NONE); "male", "female",
 * "unknown". */
const char *hq_athlete_basis_name(enum hq_basis b);
const char *hq_athlete_sex_name(enum hq_sex s);
/* The lower edges of zones 0..5 in bpm (lo[0] = 0; zone i holds
 * lo[i] <= hr < lo[i+1], zone 5 no upper end); NAN without max_hr. */
void hq_athlete_zone_edges(const struct hq_athlete *a, double lo[6]);
/* Banister's constants for the sex (men's for unknown). */
void hq_athlete_banister(enum hq_sex s, double *a, double *b);

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

/* The heart rate in force at t (the held piece covering it), NAN when
 * none does: GPX's gpxtpx:hr for a route point. */
double hq_athlete_value_at(const struct hq_held *p, size_t n, int64_t t);

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

/* ---- bests and splits ---- */

struct hq_route_pt {
	int64_t t;
	double lat, lon, ele;           /* ele NAN when unknown */
	int64_t route;                  /* a new route starts a new stretch */
};

/* The fastest stretch of at least target_m metres: from a point to the
 * first later point at which the great-circle distance (haversine,
 * R = HQ_ATHLETE_EARTH_R) summed since it reaches target_m, never across a
 * pause (points with start <= t < end outside the pauses; a pause between
 * two points, or a new route, breaks the chain). 1 with *seconds and
 * *t_from (ties: the earliest), 0 when no stretch is that long. */
int hq_athlete_best_distance(const struct hq_route_pt *pt, size_t n,
    int64_t start, int64_t end, const struct hq_span *p, size_t np,
    double target_m, double *seconds, int64_t *t_from);

/* The best mean power over window_s seconds of the 1 s power series,
 * inside one run of consecutive seconds (a pause or a gap breaks it).
 * 1 with *watts and *t_from (ties: the earliest), 0 when no run is that
 * long. */
int hq_athlete_best_power(const struct hq_held *p, size_t n,
    int64_t window_s, double *watts, int64_t *t_from);

struct hq_athlete_split {
	long split;                     /* 1, 2, ... */
	double km;                      /* its length */
	double seconds;                 /* moving: pauses inside left out */
	double pace_min_per_km, speed_kmh;
	double avg_hr;                  /* time-weighted over its time; NAN */
	double gain_m;                  /* hysteresis gain of its points; NAN */
};

/* Splits of every unit_m metres along the route: split k ends at the first
 * point whose cumulative distance (all points, each route's own) reaches
 * k * unit_m; the last, shorter, ends at the last point. *out malloc'd.
 * Returns the count, or -1 with e set (unit_m <= 0). */
long hq_athlete_splits(const struct hq_route_pt *pt, size_t n,
    const struct hq_athlete_workout *w, double unit_m,
    struct hq_athlete_split **out, struct hq_err *e);

/* The workout's route points ordered by route and sequence (those with a
 * time): *pt malloc'd, *n of them. 0, or -1 with e set (more than
 * HQ_ATHLETE_MAX_POINTS). */
int hq_athlete_route(struct hq_store *s, int64_t id, struct hq_route_pt **pt,
    size_t *n, struct hq_err *e);

double hq_athlete_haversine(double lat1, double lon1, double lat2, double lon2);

#endif
