/*
 * The import writer for what is not a sample (ingest.h): correlations and
 * workouts (their activities, statistics, events, metadata), routes,
 * activity summaries, clinical records and Me. The import itself, its
 * warnings and zones are in ingest.c, its samples in ingest_sample.c
 * (ingest_int.h).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/catalog.h"
#include "hq/ingest.h"
#include "hq/ingest_int.h"
#include "hq/time.h"

/*
 * A correlation or workout by its natural key: 1 new (its id in *id), 0
 * already stored (the stored one's id), -1. The insert ignores a key the
 * store holds; then the look-up, which binds the key the same way (its
 * first four values), finds it.
 */
static int
add_group(struct hq_ingest *ig, int insert, int lookup,
    const struct hq_bind *v, int64_t *id, struct hq_err *e)
{
	struct hq_bind key[5];

	if (hq_ig_run(ig, insert, v, e))
		return -1;
	if (sqlite3_changes(ig->db) > 0) {
		*id = sqlite3_last_insert_rowid(ig->db);
		return 1;
	}
	memcpy(key, v, 4 * sizeof *v);
	key[4] = (struct hq_bind)HQ_END;
	*id = hq_ig_query_id(ig, lookup, key, e);
	return *id < 0 ? -1 : 0;
}

/* What a correlation and a workout must be: 0, or 2 with e saying why. */
static int
check_group(const struct hq_ingest_group *g, struct hq_err *e)
{
	if (hq_ig_check_name("type", g->type, e) || hq_ig_check_name("source", g->source, e) ||
	    hq_ig_check_name("source version", g->source_version, e) ||
	    hq_ig_check_name("device", g->device, e) ||
	    hq_ig_check_span(g->start, g->end, HQ_INGEST_MAX_SPAN, e) ||
	    hq_ig_check_amount("duration", g->duration, HQ_INGEST_MAX_VALUE, e) ||
	    hq_ig_check_amount("distance", g->distance, HQ_INGEST_MAX_VALUE, e) ||
	    hq_ig_check_amount("energy", g->energy, HQ_INGEST_MAX_VALUE, e))
		return 2;
	return 0;
}

int
hq_ingest_correlation(struct hq_ingest *ig, const struct hq_ingest_group *g,
    int64_t *id, struct hq_err *e)
{
	int64_t mid, sid;

	if (check_group(g, e))
		return 2;
	mid = hq_store_metric_id(ig->s, g->type, 1, e);
	if (mid < 0 || (sid = hq_ig_source_id(ig, g->source ? g->source : "unknown",
	    e)) < 0)
		return -1;
	ig->c.correlations++;
	return add_group(ig, ST_CORR, ST_CORR_ID, (struct hq_bind[]){
	    HQ_INT(mid), HQ_INT(sid), HQ_INT(g->start), HQ_INT(g->end),
	    HQ_OPT_INT(g->created), HQ_INT(ig->import_id), HQ_END }, id, e);
}

int
hq_ingest_correlation_member(struct hq_ingest *ig, int64_t corr_id,
    int64_t sample_id, struct hq_err *e)
{
	return hq_ig_run(ig, ST_CORR_MEMBER, (struct hq_bind[]){ HQ_INT(corr_id),
	    HQ_INT(sample_id), HQ_END }, e);
}

int
hq_ingest_correlation_meta(struct hq_ingest *ig, int64_t corr_id,
    const char *key, const char *value, struct hq_err *e)
{
	return hq_ig_run(ig, ST_CORR_META, (struct hq_bind[]){ HQ_INT(corr_id),
	    HQ_TEXT(key), HQ_TEXT(value), HQ_END }, e);
}

int
hq_ingest_workout(struct hq_ingest *ig, const struct hq_ingest_group *g,
    int64_t *id, struct hq_err *e)
{
	int64_t sid, did;
	int rc;

	if (check_group(g, e))
		return 2;
	sid = hq_ig_source_id(ig, g->source ? g->source : "unknown", e);
	if (sid < 0 || (did = hq_ig_device_id(ig, g->device, e)) < 0)
		return -1;
	ig->c.workouts++;
	rc = add_group(ig, ST_WORKOUT, ST_WORKOUT_ID, (struct hq_bind[]){
	    HQ_TEXT(g->type), HQ_INT(sid), HQ_INT(g->start), HQ_INT(g->end),
	    HQ_OPT_REAL(g->duration), HQ_OPT_REAL(g->distance),
	    HQ_OPT_REAL(g->energy), HQ_OPT_INT(did),
	    HQ_OPT_TEXT(g->source_version), HQ_OPT_INT(g->created),
	    HQ_INT(g->offset_min), HQ_INT(ig->import_id), HQ_END }, id, e);
	if (rc == 1) {
		ig->c.workouts_inserted++;
		ig->new_workout_id = *id;
		ig->new_workout_start = g->start;
	}
	return rc;
}

int
hq_ingest_workout_totals(struct hq_ingest *ig, int64_t workout_id,
    double distance, double energy, struct hq_err *e)
{
	return hq_ig_run(ig, ST_WORKOUT_TOTALS, (struct hq_bind[]){
	    HQ_OPT_REAL(distance), HQ_OPT_REAL(energy), HQ_INT(workout_id),
	    HQ_END }, e);
}

int
hq_ingest_workout_meta(struct hq_ingest *ig, int64_t workout_id,
    const char *activity_uuid, const char *key, const char *value,
    struct hq_err *e)
{
	if (workout_id == ig->new_workout_id && strcmp(key, "HKTimeZone") == 0)
		hq_ig_note_zone(ig, value, ig->new_workout_start);
	return hq_ig_run(ig, ST_WORKOUT_META, (struct hq_bind[]){ HQ_INT(workout_id),
	    HQ_OPT_TEXT(activity_uuid), HQ_TEXT(key), HQ_TEXT(value), HQ_END }, e);
}

int
hq_ingest_workout_activity(struct hq_ingest *ig, int64_t workout_id,
    const char *uuid, const char *type, int64_t start, int64_t end,
    double duration, struct hq_err *e)
{
	return hq_ig_run(ig, ST_WORKOUT_ACTIVITY, (struct hq_bind[]){
	    HQ_INT(workout_id), HQ_TEXT(uuid), HQ_OPT_TEXT(type), HQ_INT(start),
	    HQ_OPT_INT(end), HQ_OPT_REAL(duration), HQ_END }, e);
}

int
hq_ingest_workout_stat(struct hq_ingest *ig, int64_t workout_id,
    const struct hq_ingest_stat *s, struct hq_err *e)
{
	const struct hq_metric_info *info = hq_catalog_by_identifier(s->type);
	double v[4] = { s->sum, s->average, s->minimum, s->maximum };
	int64_t mid = hq_store_metric_id(ig->s, s->type, 1, e);

	if (mid < 0)
		return -1;
	/* Values in the metric's canonical unit, like samples. */
	if (info && info->unit && s->unit)
		for (int i = 0; i < 4; i++)
			if (!isnan(v[i]))
				hq_unit_convert(v[i], s->unit, info->unit, &v[i]);
	if (hq_ig_run(ig, ST_WORKOUT_STAT, (struct hq_bind[]){ HQ_INT(workout_id),
	    HQ_OPT_TEXT(s->activity_uuid), HQ_INT(mid), HQ_OPT_INT(s->start),
	    HQ_OPT_INT(s->end), HQ_OPT_REAL(v[0]), HQ_OPT_REAL(v[1]),
	    HQ_OPT_REAL(v[2]), HQ_OPT_REAL(v[3]), HQ_OPT_TEXT(s->unit), HQ_END },
	    e))
		return -1;
	/* iOS 16+ workouts carry no total* attributes: the workout-level
	 * statistics are the totals. */
	if (!s->activity_uuid && !isnan(v[0])) {
		if (strncmp(s->type, "HKQuantityTypeIdentifierDistance", 32) == 0) {
			double m = v[0];
			if (info && info->unit)
				hq_unit_convert(v[0], info->unit, "m", &m);
			return hq_ingest_workout_totals(ig, workout_id, m, NAN, e);
		}
		if (strcmp(s->type, "HKQuantityTypeIdentifierActiveEnergyBurned") == 0)
			return hq_ingest_workout_totals(ig, workout_id, NAN, v[0], e);
	}
	return 0;
}

int
hq_ingest_workout_event(struct hq_ingest *ig, int64_t workout_id,
    const char *activity_uuid, const char *type, int64_t date,
    double duration, struct hq_err *e)
{
	return hq_ig_run(ig, ST_WORKOUT_EVENT, (struct hq_bind[]){ HQ_INT(workout_id),
	    HQ_OPT_TEXT(activity_uuid), HQ_TEXT(type), HQ_INT(date),
	    HQ_OPT_REAL(duration), HQ_END }, e);
}

int64_t
hq_ingest_route(struct hq_ingest *ig, int64_t workout_id, const char *source,
    int64_t start, int64_t end, const char *file, struct hq_err *e)
{
	int64_t sid = source ? hq_ig_source_id(ig, source, e) : 0;

	if (sid < 0 || hq_ig_run(ig, ST_ROUTE, (struct hq_bind[]){ HQ_INT(workout_id),
	    HQ_OPT_INT(sid), HQ_OPT_INT(start), HQ_OPT_INT(end),
	    HQ_OPT_TEXT(file), HQ_END }, e))
		return -1;
	ig->c.routes++;
	return sqlite3_last_insert_rowid(ig->db);
}

#define POINT_VALUES(x) HQ_INT((x)->route_id), HQ_INT((x)->seq), \
	HQ_OPT_INT((x)->p.time), HQ_REAL((x)->p.lat), HQ_REAL((x)->p.lon), \
	HQ_OPT_REAL((x)->p.ele), HQ_OPT_REAL((x)->p.h_acc), \
	HQ_OPT_REAL((x)->p.v_acc), HQ_OPT_REAL((x)->p.course), \
	HQ_OPT_REAL((x)->p.speed)
#define POINT_COLUMNS 10

/* The box growing, written: merged with the one of its id when a box of
 * that id or after it was written before (points out of order). */
static int
box_put(struct hq_ingest *ig, struct hq_err *e)
{
	const struct box_growing *b = &ig->box;
	int64_t id = b->route * 1048576 + b->seg;
	int merge = id <= ig->box_last;

	if (!b->n)
		return 0;
	ig->box.n = 0;
	if (id > ig->box_last)
		ig->box_last = id;
	ig->boxed = 1;
	return hq_ig_run(ig, merge ? ST_ROUTE_BOX_MERGE : ST_ROUTE_BOX,
	    (struct hq_bind[]){ HQ_INT(b->route), HQ_INT(b->seg),
	    HQ_REAL(b->lat_lo), HQ_REAL(b->lat_hi), HQ_REAL(b->lon_lo),
	    HQ_REAL(b->lon_hi), HQ_INT(b->lo), HQ_INT(b->hi), HQ_END }, e);
}

/*
 * Search's boxes (route_box, 64 points of a route each) grown from the
 * points as they are written: reading the points back at the commit was a
 * third of the indexes' share of an import (1.07 G of 3.05 G
 * instructions for 900,000 points, make bench).
 */
int
hq_ig_box_grow(struct hq_ingest *ig, const struct later_point *p,
    struct hq_err *e)
{
	struct box_growing *b = &ig->box;
	int64_t seg = p->seq / 64;

	if (b->n && (b->route != p->route_id || b->seg != seg) &&
	    box_put(ig, e))
		return -1;
	if (!b->n) {
		*b = (struct box_growing){ p->route_id, seg, p->seq, p->seq,
		    p->p.lat, p->p.lat, p->p.lon, p->p.lon, 1 };
		return 0;
	}
	b->lo = p->seq < b->lo ? p->seq : b->lo;
	b->hi = p->seq > b->hi ? p->seq : b->hi;
	b->lat_lo = p->p.lat < b->lat_lo ? p->p.lat : b->lat_lo;
	b->lat_hi = p->p.lat > b->lat_hi ? p->p.lat : b->lat_hi;
	b->lon_lo = p->p.lon < b->lon_lo ? p->p.lon : b->lon_lo;
	b->lon_hi = p->p.lon > b->lon_hi ? p->p.lon : b->lon_hi;
	b->n++;
	return 0;
}

int
hq_ig_flush_box(struct hq_ingest *ig, struct hq_err *e)
{
	if (box_put(ig, e))
		return -1;
	if (!ig->boxed)
		return 0;
	ig->boxed = 0;
	return hq_ig_run(ig, ST_ROUTE_MARK, (struct hq_bind[]){ HQ_END }, e);
}

int
hq_ig_flush_points(struct hq_ingest *ig, struct hq_err *e)
{
	size_t n = ig->nlater_points;

	ig->nlater_points = 0;
	for (size_t i = 0; i < n; i++)
		if (hq_ig_box_grow(ig, &ig->later_points[i], e))
			return -1;
	if (n == ROUTE_POINTS_AT_ONCE) {
		struct hq_bind v[ROUTE_POINTS_AT_ONCE * POINT_COLUMNS + 1];
		for (size_t i = 0; i < n; i++)
			memcpy(v + i * POINT_COLUMNS, (struct hq_bind[]){
			    POINT_VALUES(&ig->later_points[i]) },
			    POINT_COLUMNS * sizeof *v);
		v[n * POINT_COLUMNS] = (struct hq_bind)HQ_END;
		return hq_ig_run(ig, ST_ROUTE_POINTS, v, e);
	}
	for (size_t i = 0; i < n; i++)
		if (hq_ig_run(ig, ST_ROUTE_POINT, (struct hq_bind[]){
		    POINT_VALUES(&ig->later_points[i]), HQ_END }, e))
			return -1;
	return 0;
}

/* Written with others (hq_ig_flush_points): at ROUTE_POINTS_AT_ONCE, and
 * wherever hq_ingest_flush() is called. */
int
hq_ingest_route_point(struct hq_ingest *ig, int64_t route_id, int seq,
    const struct hq_route_point *p, struct hq_err *e)
{
	ig->c.route_points++;
	ig->later_points[ig->nlater_points++] = (struct later_point){
	    .route_id = route_id, .seq = seq, .p = *p };
	return ig->nlater_points == ROUTE_POINTS_AT_ONCE ?
	    hq_ig_flush_points(ig, e) : 0;
}

int
hq_ingest_route_file(struct hq_ingest *ig, int64_t route_id, const char *file,
    struct hq_err *e)
{
	return hq_ig_run(ig, ST_ROUTE_FILE, (struct hq_bind[]){ HQ_TEXT(file),
	    HQ_INT(route_id), HQ_END }, e);
}

int
hq_ingest_routes_for_file(struct hq_ingest *ig, const char *file,
    int64_t *ids, int max, struct hq_err *e)
{
	sqlite3_stmt *st = hq_ig_stmt(ig, ST_ROUTES_FOR_FILE, e);
	int n = 0, rc;

	if (!st || hq_ig_flush_points(ig, e))   /* it reads the points */
		return -1;
	hq_store_bind(st, (struct hq_bind[]){ HQ_TEXT(file), HQ_END });
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (n < max)
			ids[n++] = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return hq_ig_db_err(ig, e, hq_ig_what(ST_ROUTES_FOR_FILE));
	return n;
}

int
hq_ingest_route_span(struct hq_ingest *ig, int64_t route_id, int64_t start,
    int64_t end, struct hq_err *e)
{
	return hq_ig_run(ig, ST_ROUTE_SPAN, (struct hq_bind[]){ HQ_OPT_INT(start),
	    HQ_OPT_INT(end), HQ_INT(route_id), HQ_END }, e);
}

/* A day's activity: a calendar date, values within a day's. 0 or 2. */
static int
check_summary(const struct hq_ingest_summary *a, struct hq_err *e)
{
	const char *p = a->date;
	int ok = p && strlen(p) == 10 && p[4] == '-' && p[7] == '-', y, m, d;

	for (int i = 0; ok && i < 10; i++)
		ok = i == 4 || i == 7 || isdigit((unsigned char)p[i]);
	if (ok) {
		y = (p[0] - '0') * 1000 + (p[1] - '0') * 100 + (p[2] - '0') * 10 +
		    (p[3] - '0');
		m = (p[5] - '0') * 10 + (p[6] - '0');
		d = (p[8] - '0') * 10 + (p[9] - '0');
		ok = y >= 1 && m >= 1 && m <= 12 && d >= 1 &&
		    d <= hq_time_days_in_month(y, m);
	}
	if (!ok) {
		hq_err_set(e, "date '%.20s' is not a calendar date (YYYY-MM-DD)",
		    a->date ? a->date : "");
		return 2;
	}
	if (hq_ig_check_name("unit", a->active_energy_unit, e) ||
	    hq_ig_check_amount("active energy", a->active_energy, HQ_INGEST_MAX_VALUE, e) ||
	    hq_ig_check_amount("active energy goal", a->active_energy_goal,
	        HQ_INGEST_MAX_VALUE, e) ||
	    hq_ig_check_amount("move time", a->move_time, 1440, e) ||
	    hq_ig_check_amount("move time goal", a->move_time_goal, 1440, e) ||
	    hq_ig_check_amount("exercise time", a->exercise_time, 1440, e) ||
	    hq_ig_check_amount("exercise time goal", a->exercise_time_goal, 1440, e) ||
	    hq_ig_check_amount("stand hours", a->stand_hours, 24, e) ||
	    hq_ig_check_amount("stand hours goal", a->stand_hours_goal, 24, e))
		return 2;
	return 0;
}

int
hq_ingest_activity_summary(struct hq_ingest *ig,
    const struct hq_ingest_summary *a, struct hq_err *e)
{
	if (check_summary(a, e))
		return 2;
	ig->c.summaries++;
	if (hq_ig_run(ig, ST_SUMMARY, (struct hq_bind[]){ HQ_TEXT(a->date),
	    HQ_OPT_REAL(a->active_energy), HQ_OPT_REAL(a->active_energy_goal),
	    HQ_OPT_TEXT(a->active_energy_unit), HQ_OPT_REAL(a->move_time),
	    HQ_OPT_REAL(a->move_time_goal), HQ_OPT_REAL(a->exercise_time),
	    HQ_OPT_REAL(a->exercise_time_goal), HQ_OPT_REAL(a->stand_hours),
	    HQ_OPT_REAL(a->stand_hours_goal), HQ_INT(ig->import_id), HQ_END }, e))
		return -1;
	return sqlite3_changes(ig->db) > 0;
}

int
hq_ingest_clinical_record(struct hq_ingest *ig,
    const struct hq_ingest_clinical *c, struct hq_err *e)
{
	int64_t sid = c->source ? hq_ig_source_id(ig, c->source, e) : 0;

	if (sid < 0)
		return -1;
	ig->c.clinical++;
	if (hq_ig_run(ig, ST_CLINICAL, (struct hq_bind[]){ HQ_TEXT(c->type),
	    HQ_TEXT(c->identifier), HQ_OPT_INT(sid), HQ_OPT_TEXT(c->source_url),
	    HQ_OPT_TEXT(c->fhir_version), HQ_OPT_INT(c->received),
	    HQ_OPT_TEXT(c->resource_path), HQ_INT(ig->import_id), HQ_END }, e))
		return -1;
	return sqlite3_changes(ig->db) > 0;
}

int
hq_ingest_clinical_resource(struct hq_ingest *ig, const char *path,
    const char *json, struct hq_err *e)
{
	if (hq_ig_run(ig, ST_CLINICAL_RESOURCE, (struct hq_bind[]){ HQ_TEXT(json),
	    HQ_TEXT(path), HQ_END }, e))
		return -1;
	return sqlite3_changes(ig->db);
}

int
hq_ingest_me(struct hq_ingest *ig, const char *key, const char *value,
    struct hq_err *e)
{
	return hq_ig_run(ig, ST_ME, (struct hq_bind[]){ HQ_TEXT(key), HQ_TEXT(value),
	    HQ_END }, e);
}
