#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hq/buf.h"
#include "hq/catalog.h"
#include "hq/query_int.h"
#include "hq/rowdesc.h"
#include "hq/sense.h"
#include "hq/store.h"
#include "hq/time.h"
#include "hq/workout.h"

#define W(x) "HKWorkoutActivityType" x

/* ---- statistics ---------------------------------------------------- */

/* One metric's statistic for a workout, combined over the rows of one
 * level (the workout's own, or its activities'). */
struct stat {
	char identifier[128];
	char unit[32];
	double sum, avg, min, max;   /* NaN when absent */
	double avg_weight;           /* for combining averages */
	int nrows;
};

struct stats {
	struct stat *top, *act;      /* workout level, activity level */
	size_t ntop, nact, captop, capact;
	struct stat *merged;         /* top where present, else act */
	size_t nmerged;
};

const char *
hq_workout_col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? (const char *)t : "";
}

static struct stat *
stat_find(struct stat **arr, size_t *n, size_t *cap, const char *id)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*arr)[i].identifier, id) == 0)
			return &(*arr)[i];
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 8;
		*arr = hq_xrealloc(*arr, *cap * sizeof **arr);
	}
	struct stat *s = &(*arr)[(*n)++];
	memset(s, 0, sizeof *s);
	snprintf(s->identifier, sizeof s->identifier, "%s", id);
	s->sum = s->avg = s->min = s->max = NAN;
	return s;
}

/* Fold one row into s: sums add, minima and maxima take the extreme,
 * averages are weighted by the row's duration (equal weights when the
 * row has none). */
static void
stat_add(struct stat *s, double sum, double avg, double min, double max,
    double seconds)
{
	double w = seconds > 0 ? seconds : 1;

	if (!isnan(sum))
		s->sum = isnan(s->sum) ? sum : s->sum + sum;
	if (!isnan(avg)) {
		s->avg = isnan(s->avg) ? avg
		    : (s->avg * s->avg_weight + avg * w) / (s->avg_weight + w);
		s->avg_weight += w;
	}
	if (!isnan(min))
		s->min = isnan(s->min) || min < s->min ? min : s->min;
	if (!isnan(max))
		s->max = isnan(s->max) || max > s->max ? max : s->max;
	s->nrows++;
}

static void
stats_free(struct stats *st)
{
	free(st->top);
	free(st->act);
	free(st->merged);
	memset(st, 0, sizeof *st);
}

static int
stats_load(sqlite3_stmt *q, int64_t workout_id, struct stats *st,
    struct hq_err *e)
{
	int rc;

	stats_free(st);
	sqlite3_reset(q);
	sqlite3_bind_int64(q, 1, workout_id);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *id = hq_workout_col_text(q, 0);
		int top = sqlite3_column_int(q, 1);
		struct stat *s = top ? stat_find(&st->top, &st->ntop, &st->captop, id)
		    : stat_find(&st->act, &st->nact, &st->capact, id);
		const struct hq_metric_info *mi = hq_catalog_by_identifier(id);
		const char *unit = mi && mi->unit ? mi->unit : hq_workout_col_text(q, 7);

		snprintf(s->unit, sizeof s->unit, "%s", unit);
		stat_add(s, hq_store_col_num(q, 2), hq_store_col_num(q, 3),
		    hq_store_col_num(q, 4), hq_store_col_num(q, 5),
		    hq_store_col_num(q, 6));
	}
	if (rc != SQLITE_DONE) {
		hq_err_set(e, "reading workout statistics: %s",
		    sqlite3_errmsg(sqlite3_db_handle(q)));
		return -1;
	}
	/* A metric with workout-level rows uses those alone: activity rows
	 * repeat the same totals split up. */
	st->merged = hq_xcalloc(st->ntop + st->nact + 1, sizeof *st->merged);
	for (size_t i = 0; i < st->ntop; i++)
		st->merged[st->nmerged++] = st->top[i];
	for (size_t i = 0; i < st->nact; i++) {
		size_t j;
		for (j = 0; j < st->ntop; j++)
			if (strcmp(st->top[j].identifier, st->act[i].identifier) == 0)
				break;
		if (j == st->ntop)
			st->merged[st->nmerged++] = st->act[i];
	}
	return 0;
}

static const struct stat *
stats_get(const struct stats *st, const char *identifier)
{
	for (size_t i = 0; i < st->nmerged; i++)
		if (strcmp(st->merged[i].identifier, identifier) == 0)
			return &st->merged[i];
	return NULL;
}

double
hq_workout_convert(double v, const char *from, const char *to)
{
	double out;

	if (isnan(v) || hq_unit_convert(v, from, to, &out) != 0)
		return NAN;
	return out;
}

double
hq_workout_round(double v, int decimals)
{
	double f = pow(10, decimals);

	return isnan(v) ? v : round(v * f) / f;
}

/* ---- one workout ---------------------------------------------------- */

/* What a counted recording takes from one that yields to it
 * (HQ_WORKOUT_FILLED), in workout_fill's words. */
enum { FILL_DISTANCE, FILL_ENERGY, FILL_ASCENT, FILL_ROUTE, FILL_POWER,
    NFILL };
static const char *const fill_names[NFILL] = {
	"distance", "energy", "ascent", "route", "power",
};

struct workout {
	int64_t id, start, end;
	char type[128];
	char source[256];
	double duration_s, distance_m, energy_kcal;
	double avg_hr, max_hr;
	const char *hr_from;          /* "statistics", "samples" or NULL */
	int has_route;
	int64_t filled[NFILL];        /* the recording each fill comes from */
	double more[HQ_WORKOUT_MORE_MAX];   /* hq_workout_more's values */
	size_t table_more;            /* the one a table shows */
};

static const char *const distance_ids[] = {
	"HKQuantityTypeIdentifierDistanceWalkingRunning",
	"HKQuantityTypeIdentifierDistanceCycling",
	"HKQuantityTypeIdentifierDistanceSwimming",
	"HKQuantityTypeIdentifierDistanceWheelchair",
	"HKQuantityTypeIdentifierDistanceDownhillSnowSports",
	"HKQuantityTypeIdentifierDistanceCrossCountrySkiing",
	"HKQuantityTypeIdentifierDistancePaddleSports",
	"HKQuantityTypeIdentifierDistanceRowing",
	"HKQuantityTypeIdentifierDistanceSkatingSports",
};

#define ENERGY_ID "HKQuantityTypeIdentifierActiveEnergyBurned"

/* The SELECT list both queries share; the row is read by read_workout. */
#define WORKOUT_SEL \
	"w.id, w.activity_type, w.start, w.end, w.duration, w.distance," \
	" w.energy, s.name," \
	" EXISTS (SELECT 1 FROM route r WHERE r.workout_id = "\
	HQ_WORKOUT_FILLED("route", "w.id") ")"
#define WORKOUT_FROM " FROM workout w JOIN source s ON s.id = w.source_id"
#define WORKOUT_COLS WORKOUT_SEL WORKOUT_FROM

static void
read_workout(sqlite3_stmt *q, struct workout *w)
{
	memset(w, 0, sizeof *w);
	w->id = sqlite3_column_int64(q, 0);
	snprintf(w->type, sizeof w->type, "%s", hq_workout_col_text(q, 1));
	w->start = sqlite3_column_int64(q, 2);
	w->end = sqlite3_column_int64(q, 3);
	w->duration_s = hq_store_col_num(q, 4);
	if (isnan(w->duration_s))
		w->duration_s = (double)(w->end - w->start);
	w->distance_m = hq_store_col_num(q, 5);
	w->energy_kcal = hq_store_col_num(q, 6);
	snprintf(w->source, sizeof w->source, "%s", hq_workout_col_text(q, 7));
	w->has_route = sqlite3_column_int(q, 8);
	w->avg_hr = w->max_hr = NAN;
}

/* Totals from the statistics where the Workout element had no total*
 * attributes (iOS 16+), and heart rate from its statistic or, failing
 * that, from the heart-rate samples of one source recorded during the
 * workout (queries_prepare()). */
static int
complete_workout(struct workout *w, const struct stats *st,
    sqlite3_stmt *hrq, struct hq_err *e)
{
	const struct stat *s;

	if (isnan(w->distance_m)) {
		for (size_t i = 0; i < sizeof distance_ids / sizeof distance_ids[0]; i++) {
			s = stats_get(st, distance_ids[i]);
			if (!s)
				continue;
			double m = hq_workout_convert(s->sum, s->unit, "m");
			if (!isnan(m))
				w->distance_m = isnan(w->distance_m) ? m : w->distance_m + m;
		}
	}
	if (isnan(w->energy_kcal) && (s = stats_get(st, ENERGY_ID)))
		w->energy_kcal = hq_workout_convert(s->sum, s->unit, "kcal");
	if ((s = stats_get(st, HQ_HEART_RATE_ID)) &&
	    (!isnan(s->avg) || !isnan(s->max))) {
		w->avg_hr = hq_workout_convert(s->avg, s->unit, "count/min");
		w->max_hr = hq_workout_convert(s->max, s->unit, "count/min");
		w->hr_from = "statistics";
		return 0;
	}
	if (!hrq)
		return 0;
	sqlite3_reset(hrq);
	sqlite3_bind_int64(hrq, 2, w->start);
	sqlite3_bind_int64(hrq, 3, w->end);
	sqlite3_bind_int64(hrq, 4, w->id);
	if (sqlite3_step(hrq) != SQLITE_ROW) {
		hq_err_set(e, "reading heart rate: %s",
		    sqlite3_errmsg(sqlite3_db_handle(hrq)));
		return -1;
	}
	if (sqlite3_column_int64(hrq, 2) > 0) {
		w->avg_hr = sqlite3_column_double(hrq, 0);
		w->max_hr = sqlite3_column_double(hrq, 1);
		w->hr_from = "samples";
	}
	return 0;
}

/* How a workout's distance reads: pace for what is done on foot, pace
 * per 100 m in the water, speed for everything else. */
enum pace_kind { PACE_KM, PACE_100M, SPEED };

static enum pace_kind
pace_kind(const char *identifier)
{
	static const char *const foot[] = {
		W("Running"), W("Walking"), W("Hiking"), W("WheelchairWalkPace"),
		W("WheelchairRunPace"), W("TrackAndField"),
	};

	for (size_t i = 0; i < sizeof foot / sizeof foot[0]; i++)
		if (strcmp(identifier, foot[i]) == 0)
			return PACE_KM;
	return strcmp(identifier, W("Swimming")) == 0 ? PACE_100M : SPEED;
}

/* Minutes per kilometre and km/h, NaN without a distance or duration. */
static void
pace_speed(const struct workout *w, double *pace, double *speed)
{
	*pace = *speed = NAN;
	if (isnan(w->distance_m) || w->distance_m <= 0 || !(w->duration_s > 0))
		return;
	*pace = w->duration_s / 60 / (w->distance_m / 1000);
	*speed = (w->distance_m / 1000) / (w->duration_s / 3600);
}

/* The pace or speed as a person reads it for w's type: "5:16/km",
 * "1:52/100m", "23.3 km/h"; "" without a distance. */
static void
pace_text(const struct workout *w, char *buf, size_t n)
{
	double pace, speed;
	char clock[32];

	pace_speed(w, &pace, &speed);
	if (isnan(pace)) {
		snprintf(buf, n, "%s", "");
	} else if (pace_kind(w->type) == PACE_KM) {
		hq_sense_clock(pace * 60, clock, sizeof clock);
		snprintf(buf, n, "%s/km", clock);
	} else if (pace_kind(w->type) == PACE_100M) {
		hq_sense_clock(pace * 6, clock, sizeof clock);
		snprintf(buf, n, "%s/100m", clock);
	} else {
		snprintf(buf, n, "%.1f km/h", speed);
	}
}

/* ---- the list's rows ---- */

#define W_(r) ((const struct workout *)(r))

static int
type_text(const void *r, char *buf, size_t n)
{
	hq_workout_type_name(W_(r)->type, buf, n < 128 ? n : 128);
	return 0;
}

/* "07:05", the local time the workout started */
static int
start_clock(const void *r, char *buf, size_t n)
{
	struct hq_local l;

	hq_time_to_local(W_(r)->start, &l);
	snprintf(buf, n < 40 ? n : 40, "%02d:%02d", l.hour, l.min);
	return 0;
}

static int
duration_text(const void *r, char *buf, size_t n)
{
	hq_sense_clock(W_(r)->duration_s, buf, n < 40 ? n : 40);
	return 0;
}

static int
km_text(const void *r, char *buf, size_t n)
{
	if (isnan(W_(r)->distance_m))
		return -1;
	snprintf(buf, n < 40 ? n : 40, "%.2f", W_(r)->distance_m / 1000);
	return 0;
}

static int
pace_cell(const void *r, char *buf, size_t n)
{
	pace_text(W_(r), buf, n < 40 ? n : 40);
	return buf[0] ? 0 : -1;
}

static int
route_text(const void *r, char *buf, size_t n)
{
	snprintf(buf, n, "yes");
	return W_(r)->has_route ? 0 : -1;
}

static double duration_min(const void *r) { return hq_workout_round(W_(r)->duration_s / 60, 2); }
static double distance_km(const void *r) { return hq_workout_round(W_(r)->distance_m / 1000, 3); }
static double energy_kcal(const void *r) { return hq_workout_round(W_(r)->energy_kcal, 1); }
static double avg_hr(const void *r) { return hq_workout_round(W_(r)->avg_hr, 1); }
static double max_hr(const void *r) { return hq_workout_round(W_(r)->max_hr, 1); }
static double kcal_whole(const void *r) { return hq_workout_round(W_(r)->energy_kcal, 0); }
static double hr_whole(const void *r) { return hq_workout_round(W_(r)->avg_hr, 0); }
static double max_whole(const void *r) { return hq_workout_round(W_(r)->max_hr, 0); }
static double more_whole(const void *r) { return hq_workout_round(W_(r)->more[W_(r)->table_more], 0); }

static double
pace_min_per_km(const void *r)
{
	double pace, speed;

	pace_speed(W_(r), &pace, &speed);
	return hq_workout_round(pace, 3);
}

static double
speed_kmh(const void *r)
{
	double pace, speed;

	pace_speed(W_(r), &pace, &speed);
	return hq_workout_round(speed, 2);
}

#define WK(k, t, f) HQ_COL_AT(k, t, struct workout, f)
/* The list's row as scripts read it: every field, full numbers (also the
 * start of the detail's record). */
static const struct hq_col workout_cols[] = {
	{ WK("id", HQ_COL_INT64, id) },
	{ HQ_COL_FN("type", type_text) },
	{ WK("start", HQ_COL_TIME, start) },
	{ WK("end", HQ_COL_TIME, end) },
	{ WK("date", HQ_COL_DATE, start) },
	{ HQ_COL_N("duration_min", duration_min) },
	{ HQ_COL_N("distance_km", distance_km) },
	{ HQ_COL_N("energy_kcal", energy_kcal) },
	{ HQ_COL_N("avg_hr", avg_hr) },
	{ HQ_COL_N("max_hr", max_hr) },
	{ WK("source", HQ_COL_CHARS, source) },
	{ WK("has_route", HQ_COL_BOOL, has_route) },
	{ HQ_COL_N("pace_min_per_km", pace_min_per_km) },
	{ HQ_COL_N("speed_kmh", speed_kmh) },
	{ .key = NULL },
};

struct hq_workout_more_cols {
	struct hq_col cols[16];
};

/* The list's row as people read it, in 80 columns: the start as date and
 * time, the duration as a clock, pace or speed by type, whole calories and
 * beats; the source, then the time, the peak, the calories and the route
 * give way. */
static const struct hq_col workout_table_cols[] = {
	{ WK("id", HQ_COL_INT64, id) },
	{ WK("date", HQ_COL_DATE, start) },
	{ HQ_COL_FN("start", start_clock), .fit = { .drop = 2 } },
	{ HQ_COL_FN("type", type_text), .fit = { .min_width = 8 } },
	{ HQ_COL_FN("duration", duration_text), .fit = { .right = 1 } },
	{ HQ_COL_FN("km", km_text), .fit = { .right = 1 } },
	{ HQ_COL_FN("pace/speed", pace_cell), .fit = { .right = 1 } },
	{ HQ_COL_N("kcal", kcal_whole), .fit = { .drop = 4 } },
	{ HQ_COL_N("hr", hr_whole) },
	{ HQ_COL_N("max", max_whole), .fit = { .drop = 3 } },
	{ HQ_COL_FN("route", route_text), .fit = { .drop = 5 } },
	{ WK("source", HQ_COL_CHARS, source), .fit = { .drop = 1, .min_width = 10 } },
	{ .key = NULL },
};

/* The numbers --where names: the list's own, then more's keys. */
static const char *const own_fields[] = {
	"id", "duration_min", "distance_km", "energy_kcal", "avg_hr", "max_hr",
	"pace_min_per_km", "speed_kmh", "has_route",
};
#define NOWN (sizeof own_fields / sizeof own_fields[0])

const char *
hq_workout_field_at(size_t i)
{
	return i < NOWN ? own_fields[i] : NULL;
}

static void
field_values(const struct workout *w, const struct hq_workout_more *more,
    double *v)
{
	v[0] = (double)w->id;
	v[1] = duration_min(w);
	v[2] = distance_km(w);
	v[3] = energy_kcal(w);
	v[4] = avg_hr(w);
	v[5] = max_hr(w);
	v[6] = pace_min_per_km(w);
	v[7] = speed_kmh(w);
	v[8] = w->has_route;
	for (size_t i = 0; more && i < more->n; i++)
		v[NOWN + i] = w->more[i];
}

/* The table's columns with more's table_key before the route: into
 * cols (room for the table's and one more). */
static const struct hq_col *
table_cols(const struct hq_workout_more *more, struct hq_workout_more_cols *c,
    size_t *ix)
{
	size_t k = 0;

	if (!more || !more->table_key)
		return workout_table_cols;
	for (*ix = 0; *ix < more->n && strcmp(more->keys[*ix], more->table_key);
	    (*ix)++)
		;
	if (*ix == more->n)
		return workout_table_cols;
	for (const struct hq_col *col = workout_table_cols; col->key; col++) {
		if (strcmp(col->key, "route") == 0)
			c->cols[k++] = (struct hq_col){ HQ_COL_N(more->table_key,
			    more_whole), .fit = { .drop = 6 } };
		c->cols[k++] = *col;
	}
	c->cols[k] = (struct hq_col){ .key = NULL };
	return c->cols;
}

/* more's values for w, then its own fields after the list's cells. */
static int
more_fill(const struct hq_workout_more *more, struct workout *w,
    struct hq_err *e)
{
	for (size_t i = 0; i < HQ_WORKOUT_MORE_MAX; i++)
		w->more[i] = NAN;
	return more ? more->fill(more->arg, w->id, w->more, e) : 0;
}

static void
more_cells(const struct hq_workout_more *more, const struct workout *w,
    struct hq_out *out)
{
	for (size_t i = 0; more && i < more->n; i++)
		hq_out_num(out, more->keys[i], w->more[i]);
	if (more && more->tail)
		more->tail(more->arg, out);
}

/* Statements the list and the detail share. */
struct queries {
	sqlite3_stmt *stats, *hr, *fill, *one;
};

static void
queries_free(struct queries *q)
{
	sqlite3_finalize(q->stats);
	sqlite3_finalize(q->hr);
	sqlite3_finalize(q->fill);
	sqlite3_finalize(q->one);
}

static int
queries_prepare(struct hq_store *s, struct queries *q, struct hq_err *e)
{
	int64_t hr;

	memset(q, 0, sizeof *q);
	if (hq_store_prepare(s,
	    "SELECT m.identifier, ws.activity_uuid IS NULL, ws.sum, ws.average,"
	    " ws.minimum, ws.maximum, ws.end - ws.start, ws.unit"
	    " FROM workout_stat ws JOIN metric m ON m.id = ws.metric_id"
	    " WHERE ws.workout_id = ? ORDER BY m.identifier", &q->stats, e) != 0 ||
	    hq_store_prepare(s, "SELECT field, from_id FROM workout_fill"
	    " WHERE workout_id = ?", &q->fill, e) != 0 ||
	    hq_store_prepare(s, "SELECT " WORKOUT_COLS " WHERE w.id = ?",
	    &q->one, e) != 0)
		return -1;
	if ((hr = hq_store_metric_id(s, HQ_HEART_RATE_ID, 0, e)) < 0)
		return -1;
	if (hr == 0)
		return 0;
	/* One source (hq-query(1), WORKOUTS): the workout's own when
	 * it has samples there, else the one with the most (equal counts:
	 * the smaller id), not every source's at once (a strap's and a
	 * watch's would be averaged together). */
	if (hq_store_prepare(s,
	    "SELECT avg(value), max(value), count(*) FROM sample"
	    " WHERE metric_id = ?1 AND start >= ?2 AND start <= ?3"
	    " AND source_id = (SELECT source_id FROM sample"
	    "  WHERE metric_id = ?1 AND start >= ?2 AND start <= ?3"
	    "  GROUP BY source_id ORDER BY source_id = (SELECT source_id"
	    "  FROM workout WHERE id = ?4) DESC, count(*) DESC, source_id"
	    "  LIMIT 1)", &q->hr, e) != 0)
		return -1;
	sqlite3_bind_int64(q->hr, 1, hr);
	return 0;
}

/* Which recording w takes each field from (workout_fill). */
static int
fill_load(struct queries *qs, struct workout *w, struct hq_err *e)
{
	int rc;

	memset(w->filled, 0, sizeof w->filled);
	sqlite3_reset(qs->fill);
	sqlite3_bind_int64(qs->fill, 1, w->id);
	while ((rc = sqlite3_step(qs->fill)) == SQLITE_ROW)
		for (int f = 0; f < NFILL; f++)
			if (strcmp(hq_workout_col_text(qs->fill, 0), fill_names[f]) == 0)
				w->filled[f] = sqlite3_column_int64(qs->fill, 1);
	sqlite3_reset(qs->fill);
	if (rc != SQLITE_DONE) {
		hq_err_set(e, "reading what workout %lld takes from another: %s",
		    (long long)w->id, sqlite3_errmsg(sqlite3_db_handle(qs->fill)));
		return -1;
	}
	return 0;
}

/* w's totals and heart rate (complete_workout, st its statistics), then
 * the distance and energy it takes from the recording that yields to it,
 * as that one's own row reads them. */
static int
workout_complete(struct queries *qs, struct workout *w, struct stats *st,
    struct hq_err *e)
{
	struct stats fst = { 0 };
	struct workout f;
	int rc = 0;

	if (stats_load(qs->stats, w->id, st, e) != 0 ||
	    complete_workout(w, st, qs->hr, e) != 0 || fill_load(qs, w, e))
		return -1;
	for (int k = FILL_DISTANCE; k <= FILL_ENERGY && rc == 0; k++) {
		double *own = k == FILL_DISTANCE ? &w->distance_m : &w->energy_kcal;
		if (!w->filled[k] || !isnan(*own))
			continue;
		sqlite3_reset(qs->one);
		sqlite3_bind_int64(qs->one, 1, w->filled[k]);
		if ((rc = sqlite3_step(qs->one)) == SQLITE_ROW) {
			read_workout(qs->one, &f);
			sqlite3_reset(qs->one);
			rc = stats_load(qs->stats, f.id, &fst, e) != 0 ||
			    complete_workout(&f, &fst, NULL, e) != 0 ? -1 : 0;
			*own = k == FILL_DISTANCE ? f.distance_m : f.energy_kcal;
		} else if (rc == SQLITE_DONE) {
			rc = 0;
		} else {
			hq_err_set(e, "reading workout %lld: %s",
			    (long long)w->filled[k],
			    sqlite3_errmsg(sqlite3_db_handle(qs->one)));
			rc = -1;
		}
		sqlite3_reset(qs->one);
	}
	stats_free(&fst);
	return rc;
}

/* filled_from: {"distance":12,"route":14}, null when it takes nothing. */
static void
out_filled(struct hq_out *out, const struct workout *w)
{
	struct hq_buf b = { 0 };

	for (int f = 0; f < NFILL; f++)
		if (w->filled[f])
			hq_buf_printf(&b, "%s\"%s\":%lld", b.len ? "," : "{",
			    fill_names[f], (long long)w->filled[f]);
	if (b.len) {
		hq_buf_putc(&b, '}');
		hq_out_raw(out, "filled_from", b.data);
	} else
		hq_out_null(out, "filled_from");
	hq_buf_free(&b);
}

int
hq_workout_has_same(struct hq_store *s)
{
	sqlite3_stmt *q;
	int yes = 0;
	struct hq_err e;

	if (hq_store_prepare(s, "SELECT 1 FROM sqlite_master WHERE type ="
	    " 'table' AND name = 'workout_same'", &q, &e) != 0)
		return 0;
	yes = sqlite3_step(q) == SQLITE_ROW;
	sqlite3_finalize(q);
	return yes;
}

/* The list's --where over its own fields and more's: 0 with *where
 * (NULL without --where), or -1 with e. */
static int
list_where(const struct hq_workout_filter *f, const struct hq_workout_more *more,
    struct hq_workout_where **where, struct hq_err *e)
{
	const char *fields[NOWN + HQ_WORKOUT_MORE_MAX];
	size_t nf = 0;

	*where = NULL;
	if (!f->nwhere)
		return 0;
	for (size_t i = 0; i < NOWN; i++)
		fields[nf++] = own_fields[i];
	for (size_t i = 0; more && i < more->n; i++)
		fields[nf++] = more->keys[i];
	*where = hq_workout_where_new(f->where, f->nwhere, fields, nf, e);
	return *where ? 0 : -1;
}

/* The list's statement, its values bound: --type, the range, the
 * duration, and the limit and offset (left to the caller with --where). 0,
 * or -1 with e (an unknown type). */
static int
list_prepare(struct hq_store *s, const struct hq_workout_filter *f,
    int where, sqlite3_stmt **q, struct hq_err *e)
{
	const char *type = NULL;
	char suggest[64], sql[1024];
	int same;

	if (f->type) {
		type = hq_workout_type_identifier(f->type, suggest, sizeof suggest);
		if (!type) {
			if (suggest[0])
				hq_err_set(e, "unknown workout type '%s' (did you mean %s?)",
				    f->type, suggest);
			else
				hq_err_set(e, "unknown workout type '%s' (try running, walking, cycling, swimming, hiking, strength, hiit)",
				    f->type);
			return -1;
		}
	}
	same = hq_workout_has_same(s);
	snprintf(sql, sizeof sql, "SELECT " WORKOUT_SEL ", %s" WORKOUT_FROM
	    " WHERE (?1 IS NULL OR w.activity_type = ?1)"
	    " AND w.start >= ?2 AND (?3 = 0 OR w.start < ?3)"
	    " AND coalesce(w.duration, w.end - w.start) >= ?4%s"
	    " ORDER BY w.start DESC, w.id DESC LIMIT ?5 OFFSET ?6",
	    same ? "(SELECT same_as FROM workout_same ws WHERE ws.workout_id ="
	    " w.id)" : "NULL", same && !f->all_sources ? " AND w.id NOT IN"
	    " (SELECT workout_id FROM workout_same)" : "");
	if (hq_store_prepare(s, sql, q, e) != 0)
		return -1;
	if (type)
		sqlite3_bind_text(*q, 1, type, -1, SQLITE_STATIC);
	sqlite3_bind_int64(*q, 2, f->from ? f->from : INT64_MIN);
	sqlite3_bind_int64(*q, 3, f->to);
	sqlite3_bind_double(*q, 4, f->min_duration * 60);
	/* With --where the rows that hold are counted by the caller, not by
	 * SQL. */
	sqlite3_bind_int64(*q, 5, f->limit > 0 && !where ? f->limit : -1);
	sqlite3_bind_int64(*q, 6, f->offset > 0 && !where ? f->offset : 0);
	return 0;
}

/* One row of the list: a table's columns, or every field (and same_as
 * with all_sources, column 9 of the list's statement). */
static void
list_row(struct hq_out *out, const struct hq_col *tcols,
    const struct hq_workout_more *more, const struct workout *w,
    int all_sources, sqlite3_stmt *q)
{
	int table = hq_out_format(out) == HQ_FMT_TABLE;

	hq_out_begin(out);
	hq_out_cells(out, table ? tcols : workout_cols, w);
	if (!table) {
		out_filled(out, w);
		more_cells(more, w, out);
	}
	if (all_sources && !table) {
		if (sqlite3_column_type(q, 9) == SQLITE_NULL)
			hq_out_null(out, "same_as");
		else
			hq_out_int(out, "same_as", sqlite3_column_int64(q, 9));
	}
	hq_out_end(out);
}

long
hq_workout_list(struct hq_store *s, const struct hq_workout_filter *f,
    struct hq_out *out, struct hq_err *e)
{
	static const struct hq_workout_filter none = { 0 };
	struct queries qs = { 0 };
	struct stats st = { 0 };
	struct workout w;
	struct hq_workout_more_cols tc;
	struct hq_workout_where *where;
	const struct hq_workout_more *more;
	const struct hq_col *tcols;
	sqlite3_stmt *q = NULL;
	double vals[NOWN + HQ_WORKOUT_MORE_MAX];
	long rows = 0, skip;
	size_t table_ix = 0;
	int rc;

	if (!f)
		f = &none;
	more = f->more && f->more->n <= HQ_WORKOUT_MORE_MAX ? f->more : NULL;
	if (list_where(f, more, &where, e))
		return -1;
	skip = where && f->offset > 0 ? f->offset : 0;
	if (list_prepare(s, f, where != NULL, &q, e) != 0 ||
	    queries_prepare(s, &qs, e) != 0) {
		sqlite3_finalize(q);
		queries_free(&qs);
		hq_workout_where_free(where);
		return -1;
	}
	tcols = table_cols(more, &tc, &table_ix);
	if (hq_out_format(out) == HQ_FMT_TABLE)
		hq_out_fit_cols(out, tcols);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		read_workout(q, &w);
		w.table_more = table_ix;
		if (workout_complete(&qs, &w, &st, e) != 0 ||
		    more_fill(more, &w, e) != 0) {
			rows = -1;
			break;
		}
		if (where) {
			field_values(&w, more, vals);
			if (!hq_workout_where_holds(where, vals))
				continue;
			if (skip > 0) {
				skip--;
				continue;
			}
		}
		list_row(out, tcols, more, &w, f->all_sources, q);
		rows++;
		if (where && f->limit > 0 && rows >= f->limit) {
			rc = SQLITE_DONE;
			break;
		}
	}
	if (rows >= 0 && rc != SQLITE_DONE) {
		hq_err_set(e, "reading workouts: %s", sqlite3_errmsg(hq_store_db(s)));
		rows = -1;
	}
	sqlite3_finalize(q);
	queries_free(&qs);
	stats_free(&st);
	hq_workout_where_free(where);
	return rows;
}

/* ---- detail ----------------------------------------------------------- */

static void
out_stats(struct hq_out *out, const struct stats *st)
{
	static const struct { const char *suffix; size_t off; } parts[] = {
		{ "sum", offsetof(struct stat, sum) },
		{ "avg", offsetof(struct stat, avg) },
		{ "min", offsetof(struct stat, min) },
		{ "max", offsetof(struct stat, max) },
	};
	char name[128], key[160];

	for (size_t i = 0; i < st->nmerged; i++) {
		const struct stat *s = &st->merged[i];
		hq_catalog_snake(s->identifier, name, sizeof name);
		for (size_t j = 0; j < sizeof parts / sizeof parts[0]; j++) {
			double v = *(const double *)(const void *)((const char *)s + parts[j].off);
			if (isnan(v))
				continue;
			snprintf(key, sizeof key, "%s_%s", name, parts[j].suffix);
			hq_out_num(out, key, hq_workout_round(v, 3));
		}
		snprintf(key, sizeof key, "%s_unit", name);
		hq_out_str(out, key, s->unit[0] ? s->unit : NULL);
	}
}

static int
count_activities(struct hq_store *s, int64_t id, long *n, struct hq_err *e)
{
	sqlite3_stmt *q;
	int rc;

	if (hq_store_prepare(s,
	    "SELECT count(*) FROM workout_activity WHERE workout_id = ?", &q, e) != 0)
		return -1;
	sqlite3_bind_int64(q, 1, id);
	rc = sqlite3_step(q);
	*n = rc == SQLITE_ROW ? sqlite3_column_int(q, 0) : 0;
	sqlite3_finalize(q);
	if (rc != SQLITE_ROW) {
		hq_err_set(e, "reading workout activities: %s", sqlite3_errmsg(hq_store_db(s)));
		return -1;
	}
	return 0;
}

int
hq_workout_detail(struct hq_store *s, int64_t id, struct hq_out *out,
    struct hq_err *e)
{
	return hq_workout_detail_more(s, id, NULL, out, e);
}

int
hq_workout_detail_more(struct hq_store *s, int64_t id,
    const struct hq_workout_more *more, struct hq_out *out, struct hq_err *e)
{
	struct queries qs;
	struct stats st = { 0 };
	struct workout w;
	sqlite3_stmt *q = NULL;
	long nact = 0;
	int rc, status = -1;

	if (queries_prepare(s, &qs, e) != 0)
		goto done;
	if (hq_store_prepare(s, "SELECT " WORKOUT_COLS " WHERE w.id = ?", &q, e) != 0)
		goto done;
	sqlite3_bind_int64(q, 1, id);
	rc = sqlite3_step(q);
	if (rc == SQLITE_DONE) {
		status = 0;
		goto done;
	}
	if (rc != SQLITE_ROW) {
		hq_err_set(e, "reading workout %lld: %s", (long long)id,
		    sqlite3_errmsg(hq_store_db(s)));
		goto done;
	}
	read_workout(q, &w);
	if (workout_complete(&qs, &w, &st, e) != 0 ||
	    count_activities(s, w.id, &nact, e) != 0 ||
	    more_fill(more && more->n <= HQ_WORKOUT_MORE_MAX ? more : NULL, &w,
	    e) != 0)
		goto done;
	hq_out_begin(out);
	hq_out_cells(out, workout_cols, &w);
	out_filled(out, &w);
	more_cells(more && more->n <= HQ_WORKOUT_MORE_MAX ? more : NULL, &w, out);
	hq_out_str(out, "hr_source", w.hr_from);
	hq_out_num(out, "elapsed_min", hq_workout_round((double)(w.end - w.start) / 60, 2));
	hq_out_int(out, "activities", nact);
	out_stats(out, &st);
	if (hq_workout_out_events(s, w.id, w.end, out, e) != 0 ||
	    hq_workout_out_metadata(s, w.id, w.filled[FILL_ASCENT], out, e) != 0 ||
	    hq_workout_out_route(s, w.id, out, e) != 0) {
		hq_out_end(out);
		goto done;
	}
	hq_out_end(out);
	status = 1;
done:
	sqlite3_finalize(q);
	queries_free(&qs);
	stats_free(&st);
	return status;
}
