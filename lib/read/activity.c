#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/activity.h"
#include "hq/buf.h"
#include "hq/catalog.h"
#include "hq/geo.h"
#include "hq/ingest.h"
#include "hq/input.h"
#include "hq/store.h"
#include "hq/time.h"

#define HK(x) "HKQuantityTypeIdentifier" x

struct session {
	struct hq_act_session s;
	char type[64], sub[64], name[256];
	int64_t workout;          /* new to the store: its id, else 0 */
	int64_t route;            /* its route once a point is written */
	int seq;                  /* the route's next point */
	/* The track's distance when the file states none (s.distance NaN):
	 * the steps so far, and the last point measured from. */
	double track;
	int64_t prev_t;
	double prev_lat, prev_lon;
};

struct mark {                 /* a lap or a timer event */
	int64_t time;
	int64_t end;              /* laps: INT64_MIN when not known */
	double elapsed;           /* laps */
	int pause;                /* timers: 1 stop, 0 start */
};

/* Samples of a type the writer skipped (a value no body makes): said
 * once, with the first. */
struct skipped {
	const char *type;          /* the HK() literal add_sample got */
	long n;
	int64_t at;
	char why[256];
};

#define NSKIPPED 12

struct hq_act {
	struct hq_ingest *ig;
	struct hq_store *st;
	const struct hq_input *in;
	const char *name;
	char source[256], device[512];
	int64_t now;               /* when the import started */
	struct session *ses;
	size_t nses, capses;
	struct mark *laps, *timers;
	size_t nlaps, caplaps, ntimers, captimers;
	long invalid_hr, zero_hr, points;
	long bad_laps, fast_steps, bad_ele;
	long future;               /* times past the import and a day */
	int64_t future_at;         /* the first */
	char future_where[48];
	struct skipped skipped[NSKIPPED];
	size_t nskipped;
	int64_t first_t, last_t;  /* of the points */
	int partial;              /* the file ended early */
	enum hq_act_sport partial_sport;
	/* Heart beats given apart (hq_act_beat), merged into the points as
	 * write_samples() walks them: times (Unix seconds) and rates. */
	double *beat_t;
	unsigned char *beat_hr;
	size_t nbeats, capbeats;
	long beats_over;
	int64_t offset_t;         /* when a local offset was stated, or 0 */
	int offset_min;
	/* The points: in memory up to MEM_POINTS (a ride of 9 hours at 1 Hz),
	 * past that all in the temporary table (ins). */
	struct hq_act_point *mem;
	size_t nmem, capmem;
	sqlite3_stmt *ins;
};

#define MEM_POINTS 32768

/* Where a body goes: the fastest a step between points may be (m/s: a
 * paced bicycle made 82), the lowest and highest altitudes (m: the Dead
 * Sea's shore is at -430, an airliner cruises below 13,000). */
#define MAX_STEP_SPEED 100.0
#define MIN_ELE (-1000.0)
#define MAX_ELE 15000.0

static const char *const sport_types[] = {
	[HQ_ACT_OTHER] = "HKWorkoutActivityTypeOther",
	[HQ_ACT_RUNNING] = "HKWorkoutActivityTypeRunning",
	[HQ_ACT_CYCLING] = "HKWorkoutActivityTypeCycling",
	[HQ_ACT_WALKING] = "HKWorkoutActivityTypeWalking",
	[HQ_ACT_HIKING] = "HKWorkoutActivityTypeHiking",
	[HQ_ACT_SWIMMING] = "HKWorkoutActivityTypeSwimming",
	[HQ_ACT_TRANSITION] = "HKWorkoutActivityTypeTransition",
	[HQ_ACT_ROWING] = "HKWorkoutActivityTypeRowing",
};

/* The HealthKit workout type of a sport. */
static const char *
hq_act_sport_type(enum hq_act_sport sport)
{
	if ((unsigned)sport >= sizeof sport_types / sizeof sport_types[0])
		return sport_types[HQ_ACT_OTHER];
	return sport_types[sport];
}

struct hq_act *
hq_act_new(struct hq_ingest *ig, const struct hq_input *in,
    struct hq_err *e)
{
	struct hq_act *a = hq_xcalloc(1, sizeof *a);

	a->ig = ig;
	a->st = hq_ingest_store(ig);
	a->in = in;
	a->name = in->name;
	a->now = hq_time_now();
	snprintf(a->source, sizeof a->source, "unknown device");
	(void)e;
	return a;
}

int
hq_act_future(struct hq_act *a, int64_t t, const char *where)
{
	if (t <= a->now + HQ_ACT_MAX_AHEAD)
		return 0;
	if (!a->future++) {
		a->future_at = t;
		snprintf(a->future_where, sizeof a->future_where, "%s", where);
	}
	return 1;
}

int
hq_act_length_ok(double seconds)
{
	return seconds >= 0 && seconds <= (double)HQ_INGEST_MAX_SPAN;
}

int64_t
hq_act_end(int64_t start, double seconds)
{
	/* Past every span the writer takes, and small enough that adding
	 * any time hq reads (years 1 to 9999) stays in range. */
	const double big = 4e18;
	int64_t d;

	if (isnan(seconds))
		return start;
	d = llround(fmax(-big, fmin(big, seconds)));
	if (d > 0 && start > INT64_MAX - d)
		return INT64_MAX;
	if (d < 0 && start < INT64_MIN - d)
		return INT64_MIN;
	return start + d;
}

static int keep_point(struct hq_act *a, const struct hq_act_point *p,
    struct hq_err *e);

/*
 * The points past MEM_POINTS wait in a temporary table for the sessions
 * at the file's end, inside the import's transaction (rolled back with
 * it); the temporary database is a file (its page cache bounded), not
 * memory: a 100 MB FIT holds 4 million points (make bench, bench/fit.sh).
 * The setting can change while no temporary table exists, and stays.
 * Those in memory go there first. 0, or -1 with e set.
 */
static int
spill(struct hq_act *a, struct hq_err *e)
{
	if (hq_store_exec(a->st, "PRAGMA temp_store = FILE;"
	    "CREATE TEMP TABLE IF NOT EXISTS act_point(seq INTEGER PRIMARY KEY,"
	    " time INTEGER NOT NULL, lat REAL, lon REAL, ele REAL, hr REAL,"
	    " power REAL, cad REAL, speed REAL, dist REAL);"
	    "DELETE FROM temp.act_point;", e) ||
	    hq_store_prepare(a->st, "INSERT INTO temp.act_point(time, lat, lon,"
	    " ele, hr, power, cad, speed, dist) VALUES (?,?,?,?,?,?,?,?,?)",
	    &a->ins, e))
		return -1;
	for (size_t i = 0; i < a->nmem; i++)
		if (keep_point(a, &a->mem[i], e))
			return -1;
	a->nmem = 0;
	return 0;
}

void
hq_act_free(struct hq_act *a)
{
	if (!a)
		return;
	sqlite3_finalize(a->ins);
	free(a->mem);
	free(a->ses);
	free(a->laps);
	free(a->timers);
	free(a->beat_t);
	free(a->beat_hr);
	free(a);
}

void
hq_act_source(struct hq_act *a, const char *source, const char *device)
{
	snprintf(a->source, sizeof a->source, "%s", source);
	snprintf(a->device, sizeof a->device, "%s", device ? device : "");
}

void
hq_act_beat(struct hq_act *a, double time, double bpm)
{
	if (a->nbeats == HQ_ACT_MAX_BEATS || !isfinite(time) ||
	    !(bpm >= 0 && bpm <= 255)) {
		a->beats_over++;
		return;
	}
	if (a->nbeats == a->capbeats) {
		a->capbeats = a->capbeats ? 2 * a->capbeats : 1024;
		a->beat_t = hq_xrealloc(a->beat_t, a->capbeats * sizeof *a->beat_t);
		a->beat_hr = hq_xrealloc(a->beat_hr, a->capbeats);
	}
	a->beat_t[a->nbeats] = time;
	a->beat_hr[a->nbeats++] = (unsigned char)bpm;
}

void
hq_act_local_offset(struct hq_act *a, int64_t t, int offset_min)
{
	if (!a->offset_t) {
		a->offset_t = t;
		a->offset_min = offset_min;
	}
}

void
hq_act_partial(struct hq_act *a, enum hq_act_sport sport)
{
	a->partial = 1;
	a->partial_sport = sport;
}

static int
keep_point(struct hq_act *a, const struct hq_act_point *p, struct hq_err *e)
{
	return hq_store_run(a->st, a->ins, (struct hq_bind[]){ HQ_INT(p->time),
	    HQ_OPT_REAL(p->lat), HQ_OPT_REAL(p->lon), HQ_OPT_REAL(p->ele),
	    HQ_OPT_REAL(p->hr), HQ_OPT_REAL(p->power), HQ_OPT_REAL(p->cadence),
	    HQ_OPT_REAL(p->speed), HQ_OPT_REAL(p->distance), HQ_END },
	    "keeping a point", e);
}

int
hq_act_point(struct hq_act *a, const struct hq_act_point *p, struct hq_err *e)
{
	struct hq_act_point q = *p;

	if (isnan(q.lat) || isnan(q.lon))
		q.lat = q.lon = NAN;
	if (q.ele < MIN_ELE || q.ele > MAX_ELE) {
		q.ele = NAN;
		a->bad_ele++;
	}
	if (!a->points++ || q.time < a->first_t)
		a->first_t = q.time;
	if (a->points == 1 || q.time > a->last_t)
		a->last_t = q.time;
	if (!a->ins && a->nmem < MEM_POINTS) {
		if (a->nmem == a->capmem) {
			a->capmem = a->capmem ? 2 * a->capmem : 1024;
			a->mem = hq_xrealloc(a->mem, a->capmem * sizeof *a->mem);
		}
		a->mem[a->nmem++] = q;
		return 0;
	}
	if (!a->ins && spill(a, e))
		return -1;
	return keep_point(a, &q, e);
}

static int
marks_full(const struct hq_act *a, struct hq_err *e)
{
	if (a->nses + a->nlaps + a->ntimers < HQ_ACT_MAX_MARKS)
		return 0;
	hq_err_set(e, "%s: more than %d sessions, laps and timer events",
	    a->name, HQ_ACT_MAX_MARKS);
	return -1;
}

int
hq_act_session(struct hq_act *a, const struct hq_act_session *s,
    struct hq_err *e)
{
	struct session *x;

	if (marks_full(a, e))
		return -1;
	if (a->nses == a->capses) {
		a->capses = a->capses ? 2 * a->capses : 8;
		a->ses = hq_xrealloc(a->ses, a->capses * sizeof *a->ses);
	}
	x = &a->ses[a->nses++];
	*x = (struct session){ .s = *s };
	snprintf(x->type, sizeof x->type, "%s", s->type ? s->type
	    : hq_act_sport_type(s->sport));
	snprintf(x->sub, sizeof x->sub, "%s", s->sub_sport ? s->sub_sport : "");
	snprintf(x->name, sizeof x->name, "%s", s->name ? s->name : "");
	return 0;
}

/* A session's strings are its own arrays: pointed to once the array of
 * sessions no longer moves (realloc, qsort), never before. */
static void
session_strings(struct hq_act *a)
{
	for (size_t i = 0; i < a->nses; i++) {
		struct session *x = &a->ses[i];
		x->s.type = x->type;
		x->s.sub_sport = *x->sub ? x->sub : NULL;
		x->s.name = *x->name ? x->name : NULL;
	}
}

static int
add_mark(struct hq_act *a, struct mark **v, size_t *n, size_t *cap,
    struct mark m, struct hq_err *e)
{
	if (marks_full(a, e))
		return -1;
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 16;
		*v = hq_xrealloc(*v, *cap * sizeof **v);
	}
	(*v)[(*n)++] = m;
	return 0;
}

int
hq_act_lap(struct hq_act *a, int64_t start, int64_t end, double elapsed,
    struct hq_err *e)
{
	if (!isnan(elapsed) && !hq_act_length_ok(elapsed)) {
		a->bad_laps++;
		return 0;
	}
	return add_mark(a, &a->laps, &a->nlaps, &a->caplaps,
	    (struct mark){ .time = start, .end = end, .elapsed = elapsed }, e);
}

int
hq_act_timer(struct hq_act *a, int64_t time, int pause, struct hq_err *e)
{
	return add_mark(a, &a->timers, &a->ntimers, &a->captimers,
	    (struct mark){ .time = time, .pause = pause }, e);
}

static int
by_start(const void *x, const void *y)
{
	const struct session *a = x, *b = y;

	return (a->s.start > b->s.start) - (a->s.start < b->s.start);
}

/* The workout's metadata and statistics from the file's summary. */
static int
session_meta(struct hq_act *a, int64_t id, const struct session *x, size_t i,
    struct hq_err *e)
{
	const struct hq_act_session *s = &x->s;
	char v[64];
	int rc = 0;

	if (s->indoor >= 0)
		rc = hq_ingest_workout_meta(a->ig, id, NULL, "HKIndoorWorkout",
		    s->indoor ? "1" : "0", e);
	if (!rc && !isnan(s->ascent)) {
		snprintf(v, sizeof v, "%.17g m", s->ascent);
		rc = hq_ingest_workout_meta(a->ig, id, NULL, "HKElevationAscended",
		    v, e);
	}
	if (!rc && s->sub_sport)
		rc = hq_ingest_workout_meta(a->ig, id, NULL, "HQSubSport",
		    s->sub_sport, e);
	/* its name, a word of search (hq-query search) */
	if (!rc && s->name)
		rc = hq_ingest_workout_meta(a->ig, id, NULL, "HQName", s->name, e);
	if (!rc && s->virtual_route)
		rc = hq_ingest_workout_meta(a->ig, id, NULL, "HQVirtualRoute", "1",
		    e);
	if (!rc && a->partial)
		rc = hq_ingest_workout_meta(a->ig, id, NULL, "HQPartial", "1", e);
	if (!rc && a->nses > 1) {
		snprintf(v, sizeof v, "%zu/%zu", i + 1, a->nses);
		rc = hq_ingest_workout_meta(a->ig, id, NULL, "HQMultisportLeg", v,
		    e);
	}
	/* Without an average, hq-query averages the samples. */
	if (!rc && !isnan(s->avg_hr))
		rc = hq_ingest_workout_stat(a->ig, id, &(struct hq_ingest_stat){
		    .type = HK("HeartRate"), .unit = "count/min",
		    .start = s->start, .end = s->end, .sum = NAN,
		    .average = s->avg_hr, .minimum = NAN, .maximum = s->max_hr }, e);
	if (!rc && (!isnan(s->avg_power) || !isnan(s->max_power)) &&
	    (s->sport == HQ_ACT_CYCLING || s->sport == HQ_ACT_RUNNING))
		rc = hq_ingest_workout_stat(a->ig, id, &(struct hq_ingest_stat){
		    .type = s->sport == HQ_ACT_CYCLING ? HK("CyclingPower")
		    : HK("RunningPower"), .unit = "W",
		    .start = s->start, .end = s->end, .sum = NAN,
		    .average = s->avg_power, .minimum = NAN,
		    .maximum = s->max_power }, e);
	return rc;
}

/* Whether lap i is session k's: the laps the file gives it, else those
 * starting inside its span, else (a lap starting before every session,
 * as fenix 2 writes the first) the one its end falls in. */
static int
lap_of(const struct hq_act *a, size_t i, size_t k)
{
	const struct hq_act_session *s = &a->ses[k].s;
	const struct mark *m = &a->laps[i];

	if (s->laps_given)
		return (long)i >= s->first_lap &&
		    (long)i - s->first_lap < s->num_laps;
	if (m->time >= s->start && m->time < s->end)
		return 1;
	if (m->end == INT64_MIN || m->end <= s->start || m->end > s->end ||
	    m->time >= a->ses[0].s.start)
		return 0;
	for (size_t j = 0; j < a->nses; j++)   /* in no session's span */
		if (m->time >= a->ses[j].s.start && m->time < a->ses[j].s.end)
			return 0;
	return 1;
}

/* Pauses and resumes: those inside [start, end); laps: its own
 * (lap_of). A stop that no start follows in the session ends it: not a
 * pause. */
static int
session_events(struct hq_act *a, int64_t id, size_t k, struct hq_err *e)
{
	const struct hq_act_session *s = &a->ses[k].s;

	int64_t last_start = INT64_MIN;
	int paused = 0;

	for (size_t i = 0; i < a->ntimers; i++) {
		const struct mark *m = &a->timers[i];
		if (!m->pause && m->time >= s->start && m->time < s->end &&
		    m->time > last_start)
			last_start = m->time;
	}
	for (size_t i = 0; i < a->ntimers; i++) {
		const struct mark *m = &a->timers[i];
		if (m->time < s->start || m->time >= s->end ||
		    m->pause == paused || (m->pause && m->time >= last_start))
			continue;
		paused = m->pause;
		if (hq_ingest_workout_event(a->ig, id, NULL, paused ?
		    "HKWorkoutEventTypePause" : "HKWorkoutEventTypeResume",
		    m->time, NAN, e))
			return -1;
	}
	for (size_t i = 0; i < a->nlaps; i++) {
		const struct mark *m = &a->laps[i];
		if (!lap_of(a, i, k))
			continue;
		if (hq_ingest_workout_event(a->ig, id, NULL,
		    "HKWorkoutEventTypeLap", m->time, m->elapsed, e))
			return -1;
	}
	return 0;
}

/* A session's figures past what a body or a clock makes (a maximum heart
 * rate of 60,000, an average power of -50 W, an energy of 1e30 kcal)
 * dropped and said. */
static void
session_values(struct hq_act *a, size_t i, struct hq_act_session *s)
{
	static const struct {
		const char *key, *unit, *metric;   /* metric: catalog.h's bounds */
		size_t off;
		double lo, hi;
	} f[] = {
		{ "duration", "s", NULL, offsetof(struct hq_act_session, duration),
		  0, (double)HQ_INGEST_MAX_SPAN },
		{ "distance", "m", NULL, offsetof(struct hq_act_session, distance),
		  0, 1e7 },
		{ "energy", "kcal", NULL, offsetof(struct hq_act_session, energy),
		  0, 50000 },
		{ "ascent", "m", NULL, offsetof(struct hq_act_session, ascent),
		  0, 50000 },
		{ "avg_hr", "bpm", "heart_rate",
		  offsetof(struct hq_act_session, avg_hr), 0, 0 },
		{ "max_hr", "bpm", "heart_rate",
		  offsetof(struct hq_act_session, max_hr), 0, 0 },
		{ "avg_power", "W", "cycling_power",
		  offsetof(struct hq_act_session, avg_power), 0, 0 },
		{ "max_power", "W", "cycling_power",
		  offsetof(struct hq_act_session, max_power), 0, 0 },
	};
	struct hq_buf b = { 0 };

	for (size_t k = 0; k < sizeof f / sizeof f[0]; k++) {
		double *v = (double *)((char *)s + f[k].off), lo = f[k].lo,
		    hi = f[k].hi;
		if (f[k].metric)
			hq_catalog_bounds(hq_catalog_lookup(f[k].metric), &lo, &hi);
		if (isnan(*v) || (*v >= lo && *v <= hi))
			continue;
		hq_buf_printf(&b, "%s%s %g %s", b.len ? ", " : "", f[k].key, *v,
		    f[k].unit);
		*v = NAN;
	}
	if (b.len)
		hq_ingest_warn(a->ig, "%s: session %zu: %s (not what a body or a "
		    "clock makes: dropped)", a->name, i + 1, b.data);
	hq_buf_free(&b);
}

static int
write_sessions(struct hq_act *a, struct hq_err *e)
{
	for (size_t i = 0; i < a->nses; i++) {
		struct session *x = &a->ses[i];
		const struct hq_act_session *s = &x->s;

		session_values(a, i, &x->s);
		struct hq_ingest_group g = {
			.type = s->type, .source = a->source,
			.device = *a->device ? a->device : NULL,
			.start = s->start, .end = s->end,
			.duration = s->duration, .distance = s->distance,
			.energy = s->energy,
		};
		int64_t id;
		int rc = hq_ingest_workout(a->ig, &g, &id, e);

		if (rc < 0)
			return -1;
		if (rc == 2) {
			hq_ingest_warn(a->ig, "%s: session %zu: %s (skipped)",
			    a->name, i + 1, e->msg);
			continue;
		}
		if (rc == 0)      /* imported before: its children too */
			continue;
		x->workout = id;
		if (session_meta(a, id, x, i, e) || session_events(a, id, i, e))
			return -1;
	}
	return 0;
}

/* How long after its end a point still belongs to a session (devices
 * write the last record a second after the session's elapsed time). */
#define TAIL 10

/* The session a point at t belongs to: the one whose [start, end) holds
 * it, else the last one to start before t if t is at most TAIL seconds
 * past its end; -1 when none (fenix 2 writes records 45 minutes before its
 * first session). */
static long
session_index(const struct hq_act *a, int64_t t)
{
	size_t lo = 0, hi = a->nses;

	while (lo < hi) {        /* the first session starting after t */
		size_t mid = lo + (hi - lo) / 2;
		if (a->ses[mid].s.start <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return -1;
	const struct hq_act_session *s = &a->ses[lo - 1].s;
	if (t < s->end || (s->end <= INT64_MAX - TAIL && t <= s->end + TAIL &&
	    (lo == a->nses || t < a->ses[lo].s.start)))
		return (long)(lo - 1);
	return -1;
}

/* The sport a point's values are stored as: its session's, else the
 * nearest session's. */
static enum hq_act_sport
sport_at(const struct hq_act *a, long i, int64_t t)
{
	uint64_t bestd = UINT64_MAX;
	enum hq_act_sport sp = HQ_ACT_OTHER;

	if (i >= 0)
		return a->ses[i].s.sport;
	for (size_t k = 0; k < a->nses; k++) {
		const struct hq_act_session *s = &a->ses[k].s;
		/* unsigned: the distance between any two int64 times */
		uint64_t d = t < s->start ? (uint64_t)s->start - (uint64_t)t
		    : t > s->end ? (uint64_t)t - (uint64_t)s->end : 0;
		if (d < bestd) {
			bestd = d;
			sp = s->sport;
		}
	}
	return sp;
}

/* A point with a position into its session's route (made on its first
 * point), unless the session is indoor (a virtual ride keeps its route,
 * marked virtual) or was in the store before. */
static int
route_point(struct hq_act *a, long i, const struct hq_route_point *p,
    struct hq_err *e)
{
	struct session *x;

	if (i < 0 || !(x = &a->ses[i])->workout ||
	    (x->s.indoor == 1 && !x->s.virtual_route))
		return 0;
	if (!x->route && (x->route = hq_ingest_route(a->ig, x->workout,
	    a->source, x->s.start, x->s.end, NULL, e)) < 0)
		return -1;
	return hq_ingest_route_point(a->ig, x->route, x->seq++, p, e);
}

static int
add_sample(struct hq_act *a, const char *type, const char *unit, int64_t start,
    int64_t end, double v, struct hq_err *e)
{
	struct hq_ingest_record r = {
		.type = type, .source = a->source,
		.device = *a->device ? a->device : NULL, .unit = unit,
		.value_num = v, .has_value = 1, .start = start, .end = end,
	};
	int rc = hq_ingest_record_later(a->ig, &r, e);
	size_t k;

	if (rc != 2)
		return rc < 0 ? -1 : 0;
	/* Skipped (and counted) by the writer: said once a type. */
	for (k = 0; k < a->nskipped && a->skipped[k].type != type; k++)
		;
	if (k == NSKIPPED) {
		hq_ingest_warn(a->ig, "%s: %s at %lld: %s (skipped)", a->name,
		    type, (long long)start, e->msg);
		return 0;
	}
	if (k == a->nskipped) {
		a->nskipped++;
		a->skipped[k].type = type;
		a->skipped[k].at = start;
		snprintf(a->skipped[k].why, sizeof a->skipped[k].why, "%.200s",
		    e->msg);
	}
	a->skipped[k].n++;
	return 0;
}

static const char *
distance_type(enum hq_act_sport sport)
{
	switch (sport) {
	case HQ_ACT_CYCLING: return HK("DistanceCycling");
	case HQ_ACT_SWIMMING: return HK("DistanceSwimming");
	case HQ_ACT_RUNNING: case HQ_ACT_WALKING: case HQ_ACT_HIKING:
		return HK("DistanceWalkingRunning");
	default: return NULL;
	}
}

/* Where write_point() is in the points: the last distance and its time;
 * in the beats, Garmin's SDK's cursor (mergeHeartRates). */
struct walk {
	int64_t prev_t;
	double prev_d;
	size_t beat;
	int have_range;
	double range_start;
};

/*
 * The heart rate of the point at t from the beats, as Garmin's FIT SDK
 * merges them into its records (utils-hr-mesg.js, mergeHeartRates), step
 * for step so that the same file gives the same rates: the rounded mean
 * of the beats after the range's start and at or before t, set when a
 * later beat closes the range; a point at the time the range starts
 * (a repeated second) reaches back one beat. NaN when the beats leave
 * the point as it was.
 */
static double
merged_hr(const struct hq_act *a, struct walk *w, int64_t t)
{
	double end = (double)t, sum = 0;
	long n = 0;

	if (!w->have_range) {
		w->have_range = 1;
		w->range_start = end;
	}
	if (w->range_start == end) {
		w->range_start--;
		w->beat = w->beat >= 1 ? w->beat - 1 : 0;
	}
	for (; w->beat < a->nbeats; w->beat++) {
		double bt = a->beat_t[w->beat];
		if (bt > w->range_start && bt <= end) {
			sum += a->beat_hr[w->beat];
			n++;
		} else if (bt > end) {
			w->range_start = end;
			return n > 0 ? floor(sum / (double)n + 0.5) : NAN;
		}
	}
	return NAN;
}

/* Whether the timer is stopped at t (the last timer event at or before
 * it is a stop), or was stopped in (from, t]. */
static int
paused(const struct hq_act *a, int64_t from, int64_t t)
{
	int64_t last = INT64_MIN;
	int stop = 0;

	for (size_t i = 0; i < a->ntimers; i++) {
		const struct mark *m = &a->timers[i];
		if (m->pause && m->time > from && m->time <= t)
			return 1;
		if (m->time <= t && m->time >= last) {
			last = m->time;
			stop = m->pause;
		}
	}
	return stop;
}

/* A step of the track of session i, when the file states no distance:
 * from the last point measured, unless the timer stopped since. */
static void
track_step(struct hq_act *a, long i, const struct hq_act_point *p)
{
	struct session *x;

	if (i < 0 || !(x = &a->ses[i])->workout || !isnan(x->s.distance) ||
	    (x->s.indoor == 1 && !x->s.virtual_route))
		return;
	if (paused(a, x->prev_t, p->time)) {
		x->prev_t = INT64_MIN;
		return;
	}
	if (x->prev_t != INT64_MIN)
		x->track += hq_geo_distance(HQ_ACT_EARTH_R, x->prev_lat,
		    x->prev_lon, p->lat, p->lon);
	x->prev_t = p->time;
	x->prev_lat = p->lat;
	x->prev_lon = p->lon;
}

/* A point's values as samples of the device's source, its position into
 * its session's route. 0, or -1 with e set. */
static int
write_point(struct hq_act *a, struct walk *w, const struct hq_act_point *p,
    struct hq_err *e)
{
	int64_t t = p->time;
	double hr = p->hr, power = p->power, cad = p->cadence,
	    speed = p->speed, dist = p->distance;
	long si = session_index(a, t);
	enum hq_act_sport sp = sport_at(a, si, t);
	const char *dtype = distance_type(sp);
	int status = 0;

	hq_ingest_tick(a->ig, a->in);
	if (!isnan(p->lat)) {
		if (route_point(a, si, &(struct hq_route_point){
		    .time = t, .lat = p->lat, .lon = p->lon, .ele = p->ele,
		    .speed = speed, .h_acc = NAN, .v_acc = NAN, .course = NAN },
		    e))
			return -1;
		track_step(a, si, p);
	}
	if (a->nbeats) {
		double m = merged_hr(a, w, t);
		if (!isnan(m))
			hr = m;
	}
	if (hr < 0) {             /* present but marked invalid */
		a->invalid_hr++;
		hr = NAN;
	}
	if (hr == 0) {
		a->zero_hr++;
		hr = NAN;
	}
	if (!isnan(hr))
		status = add_sample(a, HK("HeartRate"), "count/min", t, t, hr, e);
	if (!status && !isnan(power) && (sp == HQ_ACT_CYCLING ||
	    sp == HQ_ACT_RUNNING))
		status = add_sample(a, sp == HQ_ACT_CYCLING ? HK("CyclingPower")
		    : HK("RunningPower"), "W", t, t, power, e);
	if (!status && !isnan(cad) && sp == HQ_ACT_CYCLING)
		status = add_sample(a, HK("CyclingCadence"), "count/min", t, t,
		    cad, e);
	if (!status && !isnan(speed) && (sp == HQ_ACT_CYCLING ||
	    sp == HQ_ACT_RUNNING))
		status = add_sample(a, sp == HQ_ACT_CYCLING ? HK("CyclingSpeed")
		    : HK("RunningSpeed"), "m/s", t, t, speed, e);
	/* Distance as the steps between points; a repeated time adds its
	 * step to the next one, a reset (a new leg) starts again. */
	if (!status && !isnan(dist)) {
		if (isnan(w->prev_d) || dist < w->prev_d) {
			w->prev_d = dist;
			w->prev_t = t;
		} else if (t > w->prev_t) {
			double step = dist - w->prev_d;
			if (step > MAX_STEP_SPEED * (double)(t - w->prev_t))
				a->fast_steps++;
			else if (dtype && step > 0)
				status = add_sample(a, dtype, "m", w->prev_t, t,
				    step, e);
			w->prev_d = dist;
			w->prev_t = t;
		}
	}
	return status;
}

/* Every point, from memory or from the temporary table, in the order
 * they came. */
static int
write_samples(struct hq_act *a, struct hq_err *e)
{
	struct walk w = { .prev_d = NAN };
	sqlite3_stmt *q;
	int rc, status = 0;

	if (!a->ins) {
		for (size_t i = 0; !status && i < a->nmem; i++)
			status = write_point(a, &w, &a->mem[i], e);
		return status ? status : hq_ingest_flush(a->ig, e);
	}
	if (hq_store_prepare(a->st, "SELECT time, hr, power, cad, speed, dist,"
	    " lat, lon, ele FROM temp.act_point ORDER BY seq", &q, e))
		return -1;
	while (!status && (rc = sqlite3_step(q)) == SQLITE_ROW)
		status = write_point(a, &w, &(struct hq_act_point){
		    .time = sqlite3_column_int64(q, 0),
		    .hr = hq_store_col_num(q, 1), .power = hq_store_col_num(q, 2),
		    .cadence = hq_store_col_num(q, 3),
		    .speed = hq_store_col_num(q, 4),
		    .distance = hq_store_col_num(q, 5),
		    .lat = hq_store_col_num(q, 6), .lon = hq_store_col_num(q, 7),
		    .ele = hq_store_col_num(q, 8) }, e);
	if (!status && rc != SQLITE_DONE) {
		hq_err_set(e, "reading points: %s",
		    sqlite3_errmsg(hq_store_db(a->st)));
		status = -1;
	}
	sqlite3_finalize(q);
	return status ? status : hq_ingest_flush(a->ig, e);
}

/* The time the timer was stopped in [start, end) (a stop to the next
 * start, or to end). */
static double
paused_time(const struct hq_act *a, int64_t start, int64_t end)
{
	int64_t from = INT64_MIN, sum = 0;

	for (size_t i = 0; i < a->ntimers; i++) {
		const struct mark *m = &a->timers[i];
		if (m->time < start || m->time >= end)
			continue;
		if (m->pause && from == INT64_MIN)
			from = m->time;
		else if (!m->pause && from != INT64_MIN) {
			sum += m->time - from;
			from = INT64_MIN;
		}
	}
	return (double)(sum + (from != INT64_MIN ? end - from : 0));
}

/* A file that ended early without a session: one, from its first point
 * to its last, of the sport hq_act_partial() said. */
static int
partial_session(struct hq_act *a, struct hq_err *e)
{
	if (!a->partial || a->nses || !a->points)
		return 0;
	return hq_act_session(a, &(struct hq_act_session){
	    .sport = a->partial_sport, .indoor = -1, .start = a->first_t,
	    .end = a->last_t, .duration = (double)(a->last_t - a->first_t) -
	    paused_time(a, a->first_t, a->last_t), .distance = NAN,
	    .energy = NAN, .ascent = NAN, .avg_hr = NAN, .max_hr = NAN,
	    .avg_power = NAN, .max_power = NAN }, e);
}

/* Each session ends by the next one's start at the latest. */
static void
clip_ends(struct hq_act *a)
{
	for (size_t i = 0; i + 1 < a->nses; i++) {
		struct hq_act_session *s = &a->ses[i].s;
		int64_t next = a->ses[i + 1].s.start;
		if (s->end > next)
			s->end = next > s->start ? next : s->start;
	}
}

/* The distances measured on the tracks of the sessions that state none. */
static int
track_distances(struct hq_act *a, struct hq_err *e)
{
	for (size_t i = 0; i < a->nses; i++) {
		const struct session *x = &a->ses[i];
		if (x->workout && isnan(x->s.distance) && x->track > 0 &&
		    hq_ingest_workout_totals(a->ig, x->workout, x->track, NAN, e))
			return -1;
	}
	return 0;
}

int
hq_act_finish(struct hq_act *a, struct hq_err *e)
{
	if (partial_session(a, e))
		return -1;
	if (a->nses > 1)
		qsort(a->ses, a->nses, sizeof *a->ses, by_start);
	clip_ends(a);
	session_strings(a);
	for (size_t i = 0; i < a->nses; i++)
		a->ses[i].prev_t = INT64_MIN;
	if (write_sessions(a, e) || write_samples(a, e) ||
	    track_distances(a, e))
		return -1;
	if (a->offset_t) {
		struct hq_local l;
		hq_time_to_local(a->offset_t, &l);
		if (l.offset_min != a->offset_min)
			hq_ingest_stated_offset(a->ig, a->offset_min, l.offset_min);
	}
	if (a->beats_over)
		hq_ingest_warn(a->ig, "%s: %ld heart beats of hr messages past "
		    "%d or not a rate (skipped)", a->name, a->beats_over,
		    HQ_ACT_MAX_BEATS);
	if (a->invalid_hr)
		hq_ingest_skip_n(a->ig, a->invalid_hr, "%s: %ld heart rates marked "
		    "invalid in the file (skipped)", a->name, a->invalid_hr);
	if (a->zero_hr)
		hq_ingest_skip_n(a->ig, a->zero_hr, "%s: %ld heart rates of 0 (no "
		    "sensor reading: skipped)", a->name, a->zero_hr);
	for (size_t k = 0; k < a->nskipped; k++) {
		const struct skipped *x = &a->skipped[k];
		const struct hq_metric_info *m = hq_catalog_by_identifier(x->type);
		char when[32];
		hq_time_format_utc(x->at, when, sizeof when);
		hq_ingest_warn(a->ig, "%s: %ld %s samples skipped, the first at "
		    "%s: %s", a->name, x->n, m ? m->name : x->type, when, x->why);
	}
	if (a->future) {
		char when[32];
		hq_time_format_utc(a->future_at, when, sizeof when);
		hq_ingest_skip_n(a->ig, a->future, "%s: %ld times more than a day "
		    "after this import (the first %s, at %s: skipped)", a->name,
		    a->future, when, a->future_where);
	}
	if (a->fast_steps)
		hq_ingest_skip_n(a->ig, a->fast_steps, "%s: %ld distance steps "
		    "faster than %.0f m/s (skipped)", a->name, a->fast_steps,
		    MAX_STEP_SPEED);
	if (a->bad_laps)
		hq_ingest_warn(a->ig, "%s: %ld laps with an impossible duration "
		    "(negative, or longer than %lld days: skipped)", a->name,
		    a->bad_laps, (long long)(HQ_INGEST_MAX_SPAN / 86400));
	if (a->bad_ele)
		hq_ingest_warn(a->ig, "%s: %ld altitudes below %.0f m or above "
		    "%.0f m (dropped from the route)", a->name, a->bad_ele, MIN_ELE,
		    MAX_ELE);
	if (!a->nses && a->points)
		hq_ingest_warn(a->ig, "%s: no session in the file: its samples "
		    "are kept, no workout", a->name);
	return a->ins ? hq_store_exec(a->st, "DELETE FROM temp.act_point", e)
	    : 0;
}
