#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hq/buf.h"
#include "hq/catalog.h"
#include "hq/geo.h"
#include "hq/query_int.h"
#include "hq/rowdesc.h"
#include "hq/sense.h"
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

static double
col_num(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN
	    : sqlite3_column_double(st, i);
}

static const char *
col_text(sqlite3_stmt *st, int i)
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
		const char *id = col_text(q, 0);
		int top = sqlite3_column_int(q, 1);
		struct stat *s = top ? stat_find(&st->top, &st->ntop, &st->captop, id)
		    : stat_find(&st->act, &st->nact, &st->capact, id);
		const struct hq_metric_info *mi = hq_catalog_by_identifier(id);
		const char *unit = mi && mi->unit ? mi->unit : col_text(q, 7);

		snprintf(s->unit, sizeof s->unit, "%s", unit);
		stat_add(s, col_num(q, 2), col_num(q, 3), col_num(q, 4),
		    col_num(q, 5), col_num(q, 6));
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

static double
convert(double v, const char *from, const char *to)
{
	double out;

	if (isnan(v) || hq_unit_convert(v, from, to, &out) != 0)
		return NAN;
	return out;
}

static double
round_to(double v, int decimals)
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

#define HR_ID "HKQuantityTypeIdentifierHeartRate"
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
	snprintf(w->type, sizeof w->type, "%s", col_text(q, 1));
	w->start = sqlite3_column_int64(q, 2);
	w->end = sqlite3_column_int64(q, 3);
	w->duration_s = col_num(q, 4);
	if (isnan(w->duration_s))
		w->duration_s = (double)(w->end - w->start);
	w->distance_m = col_num(q, 5);
	w->energy_kcal = col_num(q, 6);
	snprintf(w->source, sizeof w->source, "%s", col_text(q, 7));
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
			double m = convert(s->sum, s->unit, "m");
			if (!isnan(m))
				w->distance_m = isnan(w->distance_m) ? m : w->distance_m + m;
		}
	}
	if (isnan(w->energy_kcal) && (s = stats_get(st, ENERGY_ID)))
		w->energy_kcal = convert(s->sum, s->unit, "kcal");
	if ((s = stats_get(st, HR_ID)) && (!isnan(s->avg) || !isnan(s->max))) {
		w->avg_hr = convert(s->avg, s->unit, "count/min");
		w->max_hr = convert(s->max, s->unit, "count/min");
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

static double duration_min(const void *r) { return round_to(W_(r)->duration_s / 60, 2); }
static double distance_km(const void *r) { return round_to(W_(r)->distance_m / 1000, 3); }
static double energy_kcal(const void *r) { return round_to(W_(r)->energy_kcal, 1); }
static double avg_hr(const void *r) { return round_to(W_(r)->avg_hr, 1); }
static double max_hr(const void *r) { return round_to(W_(r)->max_hr, 1); }
static double kcal_whole(const void *r) { return round_to(W_(r)->energy_kcal, 0); }
static double hr_whole(const void *r) { return round_to(W_(r)->avg_hr, 0); }
static double max_whole(const void *r) { return round_to(W_(r)->max_hr, 0); }
static double more_whole(const void *r) { return round_to(W_(r)->more[W_(r)->table_more], 0); }

static double
pace_min_per_km(const void *r)
{
	double pace, speed;

	pace_speed(W_(r), &pace, &speed);
	return round_to(pace, 3);
}

static double
speed_kmh(const void *r)
{
	double pace, speed;

	pace_speed(W_(r), &pace, &speed);
	return round_to(speed, 2);
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
	if ((hr = hq_store_metric_id(s, HR_ID, 0, e)) < 0)
		return -1;
	if (hr == 0)
		return 0;
	/* One source (SPEC: a workout's heart rate): the workout's own when
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
			if (strcmp(col_text(qs->fill, 0), fill_names[f]) == 0)
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

long
hq_workout_list(struct hq_store *s, const struct hq_workout_filter *f,
    struct hq_out *out, struct hq_err *e)
{
	static const struct hq_workout_filter none = { 0 };
	struct queries qs;
	struct stats st = { 0 };
	struct workout w;
	struct hq_workout_more_cols tc;
	struct hq_workout_where *where = NULL;
	const struct hq_workout_more *more;
	const struct hq_col *tcols;
	sqlite3_stmt *q = NULL;
	const char *type = NULL;
	const char *fields[NOWN + HQ_WORKOUT_MORE_MAX];
	double vals[NOWN + HQ_WORKOUT_MORE_MAX];
	char suggest[64], sql[1024];
	long rows = 0, skip;
	size_t table_ix = 0;
	int rc, same, table = hq_out_format(out) == HQ_FMT_TABLE;

	if (!f)
		f = &none;
	more = f->more && f->more->n <= HQ_WORKOUT_MORE_MAX ? f->more : NULL;
	if (f->nwhere) {
		size_t nf = 0;
		for (size_t i = 0; i < NOWN; i++)
			fields[nf++] = own_fields[i];
		for (size_t i = 0; more && i < more->n; i++)
			fields[nf++] = more->keys[i];
		if (!(where = hq_workout_where_new(f->where, f->nwhere, fields, nf,
		    e)))
			return -1;
	}
	skip = where && f->offset > 0 ? f->offset : 0;
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
	if (queries_prepare(s, &qs, e) != 0) {
		queries_free(&qs);
		hq_workout_where_free(where);
		return -1;
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
	if (hq_store_prepare(s, sql, &q, e) != 0) {
		queries_free(&qs);
		hq_workout_where_free(where);
		return -1;
	}
	if (type)
		sqlite3_bind_text(q, 1, type, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q, 2, f->from ? f->from : INT64_MIN);
	sqlite3_bind_int64(q, 3, f->to);
	sqlite3_bind_double(q, 4, f->min_duration * 60);
	/* With --where the rows that hold are counted here, not by SQL. */
	sqlite3_bind_int64(q, 5, f->limit > 0 && !where ? f->limit : -1);
	sqlite3_bind_int64(q, 6, f->offset > 0 && !where ? f->offset : 0);
	tcols = table_cols(more, &tc, &table_ix);
	if (table)
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
		hq_out_begin(out);
		hq_out_cells(out, table ? tcols : workout_cols, &w);
		if (!table) {
			out_filled(out, &w);
			more_cells(more, &w, out);
		}
		if (f->all_sources && !table) {
			if (sqlite3_column_type(q, 9) == SQLITE_NULL)
				hq_out_null(out, "same_as");
			else
				hq_out_int(out, "same_as", sqlite3_column_int64(q, 9));
		}
		hq_out_end(out);
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
			hq_out_num(out, key, round_to(v, 3));
		}
		snprintf(key, sizeof key, "%s_unit", name);
		hq_out_str(out, key, s->unit[0] ? s->unit : NULL);
	}
}

static int
ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lf = strlen(suffix);

	return ls >= lf && strcmp(s + ls - lf, suffix) == 0;
}

enum hq_workout_event_kind
hq_workout_event_kind(const char *type)
{
	if (ends_with(type, "Pause") || ends_with(type, "MotionPaused"))
		return HQ_EVENT_PAUSE;
	if (ends_with(type, "Resume") || ends_with(type, "MotionResumed"))
		return HQ_EVENT_RESUME;
	if (ends_with(type, "Lap"))
		return HQ_EVENT_LAP;
	if (ends_with(type, "Segment"))
		return HQ_EVENT_SEGMENT;
	if (ends_with(type, "Marker"))
		return HQ_EVENT_MARKER;
	return HQ_EVENT_OTHER;
}

/* Events: counts by kind and the time spent paused (Pause → Resume, and
 * the Watch's automatic MotionPaused → MotionResumed). Workout-level
 * events are used when there are any, else those of the activities. */
static int
out_events(struct hq_store *s, const struct workout *w, struct hq_out *out,
    struct hq_err *e)
{
	sqlite3_stmt *q;
	long pauses = 0, laps = 0, segments = 0, markers = 0, total = 0;
	int64_t paused_since = 0, paused = 0;
	int in_pause = 0, level = -1, rc;

	if (hq_store_prepare(s,
	    "SELECT type, date, activity_uuid IS NULL FROM workout_event"
	    " WHERE workout_id = ? ORDER BY activity_uuid IS NOT NULL, date",
	    &q, e) != 0)
		return -1;
	sqlite3_bind_int64(q, 1, w->id);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *type = col_text(q, 0);
		int64_t date = sqlite3_column_int64(q, 1);
		int top = sqlite3_column_int(q, 2);

		if (level < 0)
			level = top;
		if (top != level)
			break;
		total++;
		switch (hq_workout_event_kind(type)) {
		case HQ_EVENT_PAUSE:
			pauses++;
			if (!in_pause) {
				in_pause = 1;
				paused_since = date;
			}
			break;
		case HQ_EVENT_RESUME:
			if (in_pause) {
				paused += date - paused_since;
				in_pause = 0;
			}
			break;
		case HQ_EVENT_LAP:
			laps++;
			break;
		case HQ_EVENT_SEGMENT:
			segments++;
			break;
		case HQ_EVENT_MARKER:
			markers++;
			break;
		case HQ_EVENT_OTHER:
			break;
		}
	}
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		hq_err_set(e, "reading workout events: %s", sqlite3_errmsg(hq_store_db(s)));
		sqlite3_finalize(q);
		return -1;
	}
	sqlite3_finalize(q);
	if (in_pause && w->end > paused_since)
		paused += w->end - paused_since;
	hq_out_int(out, "events", total);
	hq_out_int(out, "pauses", pauses);
	hq_out_num(out, "paused_min", round_to((double)paused / 60, 2));
	hq_out_int(out, "laps", laps);
	hq_out_int(out, "segments", segments);
	hq_out_int(out, "markers", markers);
	return 0;
}

/* "217 cm" → 217 and "cm"; -1 when there is no number. */
static int
parse_quantity(const char *s, double *v, char *unit, size_t n)
{
	char *end;

	*v = strtod(s, &end);
	if (end == s || !isfinite(*v))
		return -1;
	while (*end == ' ')
		end++;
	snprintf(unit, n, "%s", end);
	return 0;
}

/* The metadata people ask about, in plain units. Keys can repeat in an
 * export (jshrake's has HKIndoorWorkout twice); the first one counts. */
static int
out_metadata(struct hq_store *s, const struct workout *w, struct hq_out *out,
    struct hq_err *e)
{
	enum { TZ, INDOOR, ELEVATION, TEMP, HUMIDITY, METS, SUB, VIRTUAL,
	    PARTIAL, NKEYS };
	static const char *const keys[NKEYS] = {
		"HKTimeZone", "HKIndoorWorkout", "HKElevationAscended",
		"HKWeatherTemperature", "HKWeatherHumidity", "HKAverageMETs",
		"HQSubSport", "HQVirtualRoute", "HQPartial",
	};
	char *val[NKEYS] = { 0 };
	sqlite3_stmt *q;
	int rc, status = 0;
	double v;
	char unit[64];

	if (hq_store_prepare(s,
	    "SELECT key, value FROM workout_meta WHERE workout_id = ?"
	    " AND activity_uuid IS NULL ORDER BY rowid", &q, e) != 0)
		return -1;
	sqlite3_bind_int64(q, 1, w->id);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW)
		for (int k = 0; k < NKEYS; k++)
			if (!val[k] && strcmp(col_text(q, 0), keys[k]) == 0)
				val[k] = hq_xstrdup(col_text(q, 1));
	/* The ascent of the recording it takes it from (filled_from). */
	if (rc == SQLITE_DONE && !val[ELEVATION] && w->filled[FILL_ASCENT]) {
		sqlite3_reset(q);
		sqlite3_bind_int64(q, 1, w->filled[FILL_ASCENT]);
		while ((rc = sqlite3_step(q)) == SQLITE_ROW)
			if (!val[ELEVATION] && strcmp(col_text(q, 0),
			    keys[ELEVATION]) == 0)
				val[ELEVATION] = hq_xstrdup(col_text(q, 1));
	}
	if (rc != SQLITE_DONE) {
		hq_err_set(e, "reading workout metadata: %s", sqlite3_errmsg(hq_store_db(s)));
		status = -1;
		goto done;
	}
	hq_out_str(out, "time_zone", val[TZ]);
	if (val[INDOOR])
		hq_out_bool(out, "indoor", strcmp(val[INDOOR], "1") == 0);
	else
		hq_out_null(out, "indoor");
	if (val[ELEVATION] && parse_quantity(val[ELEVATION], &v, unit, sizeof unit) == 0)
		hq_out_num(out, "elevation_ascended_m", round_to(convert(v, unit, "m"), 2));
	if (val[TEMP] && parse_quantity(val[TEMP], &v, unit, sizeof unit) == 0)
		hq_out_num(out, "temperature_c", round_to(convert(v, unit, "degC"), 1));
	if (val[HUMIDITY] && parse_quantity(val[HUMIDITY], &v, unit, sizeof unit) == 0)
		/* Some exports write humidity ×100 ("5700 %"). */
		hq_out_num(out, "humidity_pct", round_to(v > 100 ? v / 100 : v, 1));
	if (val[METS] && parse_quantity(val[METS], &v, unit, sizeof unit) == 0)
		hq_out_num(out, "average_mets", round_to(v, 2));
	/* Device files (activity.h): the sub-sport, a game's map. */
	hq_out_str(out, "sub_sport", val[SUB]);
	hq_out_bool(out, "virtual_route", val[VIRTUAL] &&
	    strcmp(val[VIRTUAL], "1") == 0);
	hq_out_bool(out, "partial", val[PARTIAL] &&
	    strcmp(val[PARTIAL], "1") == 0);
done:
	for (int k = 0; k < NKEYS; k++)
		free(val[k]);
	sqlite3_finalize(q);
	return status;
}

double
hq_workout_great_circle(double r, double lat1, double lon1, double lat2,
    double lon2)
{
	return hq_geo_distance(r, lat1, lon1, lat2, lon2);
}

double
hq_workout_haversine(double lat1, double lon1, double lat2, double lon2)
{
	return hq_workout_great_circle(6371008.8, lat1, lon1, lat2, lon2);
}

/* The route summary: distance is the sum of the great-circle steps within
 * each route; elevation gain the sum of the rises between points. */
static int
out_route(struct hq_store *s, const struct workout *w, struct hq_out *out,
    struct hq_err *e)
{
	sqlite3_stmt *q;
	long n = 0;
	int64_t route = -1, tmin = 0, tmax = 0;
	double dist = 0, gain = 0, plat = 0, plon = 0, pele = NAN;
	double minlat = 0, maxlat = 0, minlon = 0, maxlon = 0;
	int rc, have_time = 0;

	if (hq_store_prepare(s,
	    "SELECT rp.route_id, rp.time, rp.lat, rp.lon, rp.ele"
	    " FROM route_point rp JOIN route r ON r.id = rp.route_id"
	    " WHERE r.workout_id = " HQ_WORKOUT_FILLED("route", "?1")
	    " ORDER BY r.id, rp.seq", &q, e) != 0)
		return -1;
	sqlite3_bind_int64(q, 1, w->id);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		int64_t rid = sqlite3_column_int64(q, 0);
		double lat = sqlite3_column_double(q, 2);
		double lon = sqlite3_column_double(q, 3);
		double ele = col_num(q, 4);

		if (sqlite3_column_type(q, 1) != SQLITE_NULL) {
			int64_t t = sqlite3_column_int64(q, 1);
			if (!have_time || t < tmin)
				tmin = t;
			if (!have_time || t > tmax)
				tmax = t;
			have_time = 1;
		}
		if (n == 0) {
			minlat = maxlat = lat;
			minlon = maxlon = lon;
		}
		minlat = lat < minlat ? lat : minlat;
		maxlat = lat > maxlat ? lat : maxlat;
		minlon = lon < minlon ? lon : minlon;
		maxlon = lon > maxlon ? lon : maxlon;
		if (rid == route) {
			dist += hq_workout_haversine(plat, plon, lat, lon);
			if (!isnan(ele) && !isnan(pele) && ele > pele)
				gain += ele - pele;
		}
		route = rid;
		plat = lat;
		plon = lon;
		if (!isnan(ele))
			pele = ele;
		n++;
	}
	if (rc != SQLITE_DONE) {
		hq_err_set(e, "reading the route: %s", sqlite3_errmsg(hq_store_db(s)));
		sqlite3_finalize(q);
		return -1;
	}
	sqlite3_finalize(q);
	if (n == 0)
		return 0;
	hq_out_int(out, "route_points", n);
	hq_out_num(out, "route_distance_km", round_to(dist / 1000, 3));
	hq_out_num(out, "route_elevation_gain_m", round_to(gain, 1));
	hq_out_num(out, "route_duration_min",
	    have_time ? round_to((double)(tmax - tmin) / 60, 2) : NAN);
	hq_out_num(out, "route_min_lat", minlat);
	hq_out_num(out, "route_min_lon", minlon);
	hq_out_num(out, "route_max_lat", maxlat);
	hq_out_num(out, "route_max_lon", maxlon);
	return 0;
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
	hq_out_num(out, "elapsed_min", round_to((double)(w.end - w.start) / 60, 2));
	hq_out_int(out, "activities", nact);
	out_stats(out, &st);
	if (out_events(s, &w, out, e) != 0 || out_metadata(s, &w, out, e) != 0 ||
	    out_route(s, &w, out, e) != 0) {
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
