/*
 * The import writer (ingest.h): an import's life — its transaction (or a
 * savepoint of a batch of files), its counts, skips and warnings, the
 * zones its metadata names, labs and DEXA scans through report.c, and at
 * its commit what is derived from what it added (rollups, the same
 * activity, athlete figures). A record made a sample is ingest_sample.c's;
 * what is not a sample, ingest_other.c's (all three share ingest_int.h).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hq/buf.h"
#include "hq/catalog.h"
#include "hq/ingest.h"
#include "hq/ingest_int.h"
#include "hq/report.h"
#include "hq/rollup.h"
#include "hq/time.h"

static const struct hq_store_sql stmts[NSTMT] = {
	[ST_SAMPLE_META] = { "INSERT INTO sample_meta(sample_id, key, value) "
	    "VALUES (?,?,?)", "adding sample metadata" },
	[ST_BEAT] = { "INSERT OR IGNORE INTO hrv_beat(sample_id, seq, bpm, "
	    "time_of_day) VALUES (?,?,?,?)", "adding a heartbeat" },
	[ST_CORR] = { "INSERT OR IGNORE INTO correlation(metric_id, source_id, "
	    "start, end, created, import_id) VALUES (?,?,?,?,?,?)",
	    "adding a correlation" },
	[ST_CORR_ID] = { "SELECT id FROM correlation WHERE metric_id = ? AND "
	    "source_id = ? AND start = ? AND end = ?", "looking up a correlation" },
	[ST_CORR_MEMBER] = { "INSERT OR IGNORE INTO correlation_member("
	    "correlation_id, sample_id) VALUES (?,?)", "linking a correlation" },
	[ST_CORR_META] = { "INSERT OR IGNORE INTO correlation_meta("
	    "correlation_id, key, value) VALUES (?,?,?)",
	    "adding correlation metadata" },
	[ST_WORKOUT] = { "INSERT OR IGNORE INTO workout(activity_type, source_id, "
	    "start, end, duration, distance, energy, device_id, source_version, "
	    "created, offset_min, import_id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
	    "adding a workout" },
	[ST_WORKOUT_ID] = { "SELECT id FROM workout WHERE activity_type = ? AND "
	    "source_id = ? AND start = ? AND end = ?", "looking up a workout" },
	[ST_WORKOUT_TOTALS] = { "UPDATE workout SET distance = "
	    "coalesce(distance, ?), energy = coalesce(energy, ?) WHERE id = ?",
	    "adding workout totals" },
	[ST_WORKOUT_META] = { "INSERT INTO workout_meta(workout_id, "
	    "activity_uuid, key, value) VALUES (?,?,?,?)",
	    "adding workout metadata" },
	[ST_WORKOUT_ACTIVITY] = { "INSERT OR IGNORE INTO workout_activity("
	    "workout_id, uuid, activity_type, start, end, duration) "
	    "VALUES (?,?,?,?,?,?)", "adding a workout activity" },
	[ST_WORKOUT_STAT] = { "INSERT INTO workout_stat(workout_id, "
	    "activity_uuid, metric_id, start, end, sum, average, minimum, "
	    "maximum, unit) VALUES (?,?,?,?,?,?,?,?,?,?)",
	    "adding a workout statistic" },
	[ST_WORKOUT_EVENT] = { "INSERT INTO workout_event(workout_id, "
	    "activity_uuid, type, date, duration) VALUES (?,?,?,?,?)",
	    "adding a workout event" },
	[ST_ROUTE] = { "INSERT INTO route(workout_id, source_id, start, end, "
	    "file) VALUES (?,?,?,?,?)", "adding a route" },
	[ST_ROUTE_POINT] = { "INSERT OR IGNORE INTO route_point(route_id, seq, "
	    "time, lat, lon, ele, h_acc, v_acc, course, speed) "
	    "VALUES (?,?,?,?,?,?,?,?,?,?)", "adding a route point" },
	[ST_ROUTE_FILE] = { "UPDATE route SET file = ? WHERE id = ?",
	    "adding a route file" },
	/* a route without points, but not one hq-archive prune emptied (its
	 * boxes, from the first point's on, are kept) */
	[ST_ROUTES_FOR_FILE] = { "SELECT id FROM route r WHERE file = ? AND NOT "
	    "EXISTS (SELECT 1 FROM route_point p WHERE p.route_id = r.id) "
	    "AND NOT EXISTS (SELECT 1 FROM route_box b WHERE b.id = r.id * "
	    "1048576) ORDER BY id", "finding routes" },
	[ST_ROUTE_SPAN] = { "UPDATE route SET start = coalesce(start, ?), "
	    "end = coalesce(end, ?) WHERE id = ?", "updating a route" },
	[ST_SUMMARY] = { "INSERT INTO activity_summary(date, active_energy, "
	    "active_energy_goal, active_energy_unit, move_time, move_time_goal, "
	    "exercise_time, exercise_time_goal, stand_hours, stand_hours_goal, "
	    "import_id) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11) "
	    "ON CONFLICT(date) DO UPDATE SET active_energy = ?2, "
	    "active_energy_goal = ?3, active_energy_unit = ?4, move_time = ?5, "
	    "move_time_goal = ?6, exercise_time = ?7, exercise_time_goal = ?8, "
	    "stand_hours = ?9, stand_hours_goal = ?10, import_id = ?11 "
	    "WHERE active_energy IS NOT ?2 OR active_energy_goal IS NOT ?3 OR "
	    "active_energy_unit IS NOT ?4 OR move_time IS NOT ?5 OR "
	    "move_time_goal IS NOT ?6 OR exercise_time IS NOT ?7 OR "
	    "exercise_time_goal IS NOT ?8 OR stand_hours IS NOT ?9 OR "
	    "stand_hours_goal IS NOT ?10", "adding an activity summary" },
	[ST_CLINICAL] = { "INSERT OR IGNORE INTO clinical_record(type, "
	    "identifier, source_id, source_url, fhir_version, received, "
	    "resource_path, import_id) VALUES (?,?,?,?,?,?,?,?)",
	    "adding a clinical record" },
	/* The records already holding a resource keep it, and are read
	 * again into lab results (as duplicates) like the new: an import
	 * counts the results its file holds, the first time or the tenth. */
	[ST_CLINICAL_RESOURCE] = { "UPDATE clinical_record SET resource = "
	    "coalesce(resource, ?1), reports_done = 0 WHERE resource_path = ?2",
	    "attaching a clinical resource" },
	[ST_ME] = { "INSERT INTO me(key, value) VALUES (?1, ?2) "
	    "ON CONFLICT(key) DO UPDATE SET value = ?2 WHERE value IS NOT ?2",
	    "recording Me" },
	[ST_IMPORT_END] = { "UPDATE import SET finished = ?, records = ?, "
	    "inserted = ?, duplicates = ?, skipped = ?, export_date = ?, "
	    "export_version = ?, locale = ? WHERE id = ?", "recording the import" },
	[ST_ZONE] = { "INSERT INTO time_zone(zone, first, last, n) VALUES (?,?,?,?) "
	    "ON CONFLICT(zone) DO UPDATE SET first = min(first, excluded.first), "
	    "last = max(last, excluded.last), n = n + excluded.n",
	    "recording a time zone" },
#define RP1 "(?,?,?,?,?,?,?,?,?,?)"
#define RP4 RP1 "," RP1 "," RP1 "," RP1
#define RP16 RP4 "," RP4 "," RP4 "," RP4
	/* ROUTE_POINTS_AT_ONCE of them */
	[ST_ROUTE_POINTS] = { "INSERT OR IGNORE INTO route_point(route_id, seq, "
	    "time, lat, lon, ele, h_acc, v_acc, course, speed) "
	    "VALUES " RP16 "," RP16, "adding route points" },
	/* search's boxes of the points written (ingest_other.c) */
	[ST_ROUTE_BOX] = { "INSERT INTO route_box(id, lat_lo, lat_hi, lon_lo, "
	    "lon_hi, route_id, seq_lo, seq_hi) VALUES (?1 * 1048576 + ?2, ?3, "
	    "?4, ?5, ?6, ?1, ?7, ?8)", "adding a route's box" },
	[ST_ROUTE_BOX_MERGE] = { "INSERT OR REPLACE INTO route_box(id, lat_lo, "
	    "lat_hi, lon_lo, lon_hi, route_id, seq_lo, seq_hi) SELECT ?1 * "
	    "1048576 + ?2, min(?3, coalesce(b.lat_lo, ?3)), max(?4, "
	    "coalesce(b.lat_hi, ?4)), min(?5, coalesce(b.lon_lo, ?5)), max(?6, "
	    "coalesce(b.lon_hi, ?6)), ?1, min(?7, coalesce(b.seq_lo, ?7)), "
	    "max(?8, coalesce(b.seq_hi, ?8)) FROM (SELECT 1) LEFT JOIN route_box "
	    "AS b ON b.id = ?1 * 1048576 + ?2", "adding a route's box" },
	[ST_ROUTE_MARK] = { "UPDATE search_mark SET last = (SELECT "
	    "coalesce(max(id), 0) FROM route) WHERE kind = 'route'",
	    "marking the routes boxed" },
};

int
hq_ig_db_err(struct hq_ingest *ig, struct hq_err *e, const char *what)
{
	hq_err_set(e, "%s: %s: %s", hq_store_filename(ig->s), what,
	    sqlite3_errmsg(ig->db));
	return -1;
}

sqlite3_stmt *
hq_ig_stmt(struct hq_ingest *ig, int which, struct hq_err *e)
{
	return hq_store_stmt(ig->s, &stmts[which], &ig->st[which], e);
}

/* Statement which with the values v (store.h): 0 or -1. */
int
hq_ig_run(struct hq_ingest *ig, int which, const struct hq_bind *v,
    struct hq_err *e)
{
	return hq_store_run_sql(ig->s, &stmts[which], &ig->st[which], v, e);
}

/* The id statement which finds for v: 0 when none, -1 on error. */
const char *
hq_ig_what(int which)
{
	return stmts[which].what;
}

int64_t
hq_ig_query_id(struct hq_ingest *ig, int which, const struct hq_bind *v,
    struct hq_err *e)
{
	return hq_store_query_sql(ig->s, &stmts[which], &ig->st[which], v, e);
}

static void
ig_free(struct hq_ingest *ig)
{
	hq_report_writer_free(ig->reports);
	hq_store_finalize(ig->st, NSTMT);
	free(ig->export_version);
	free(ig->locale);
	free(ig->path);
	free(ig);
}

/* A file's import: in a transaction of its own (b NULL) or in a savepoint
 * of the batch b. */
static struct hq_ingest *
start(struct hq_store *s, struct hq_ingest_batch *b, const char *path,
    const char *format, int64_t size, struct hq_err *e)
{
	struct hq_ingest *ig = hq_xcalloc(1, sizeof *ig);
	sqlite3_stmt *st = NULL;

	ig->s = s;
	ig->batch = b;
	ig->db = hq_store_db(s);
	ig->path = hq_xstrdup(path);
	ig->tc = &ig->tcs[0];
	ig->watch_lo = INT64_MAX;
	ig->watch_hi = INT64_MIN;
	if (b ? hq_store_file_savepoint(s, e) : hq_store_begin(s, e)) {
		ig_free(ig);
		return NULL;
	}
	if (hq_store_prepare(s, "INSERT INTO import(path, format, size, started) "
	    "VALUES (?,?,?,?)", &st, e))
		goto fail;
	sqlite3_bind_text(st, 1, path, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, format, -1, SQLITE_STATIC);
	if (size >= 0)
		sqlite3_bind_int64(st, 3, size);
	sqlite3_bind_int64(st, 4, hq_time_now());
	if (sqlite3_step(st) != SQLITE_DONE) {
		hq_ig_db_err(ig, e, "recording the import");
		goto fail;
	}
	sqlite3_finalize(st);
	st = NULL;
	ig->import_id = sqlite3_last_insert_rowid(ig->db);
	/* Rowids grow from the largest one inside our write lock, so every
	 * sample of this import has an id >= this. */
	if (hq_store_prepare(s, "SELECT coalesce(max(id), 0) + 1 FROM sample",
	    &st, e))
		goto fail;
	if (sqlite3_step(st) != SQLITE_ROW) {
		hq_ig_db_err(ig, e, "reading the last sample id");
		goto fail;
	}
	ig->first_sample_id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (b && !b->first_sample_id)
		b->first_sample_id = ig->first_sample_id;
	if (b && !b->first_import_id)
		b->first_import_id = ig->import_id;
	ig->last_tick = hq_time_monotonic();
	return ig;
fail:
	sqlite3_finalize(st);
	if (b)
		hq_store_file_savepoint_undo(s);
	else
		hq_store_rollback(s);
	ig_free(ig);
	return NULL;
}

struct hq_ingest *
hq_ingest_start(struct hq_store *s, const char *path, const char *format,
    int64_t size, struct hq_err *e)
{
	return start(s, NULL, path, format, size, e);
}

struct hq_ingest *
hq_ingest_start_in(struct hq_ingest_batch *b, const char *path,
    const char *format, int64_t size, struct hq_err *e)
{
	if (b->lost) {
		hq_err_set(e, "%s: the batch's transaction was rolled back",
		    hq_store_filename(b->s));
		return NULL;
	}
	return start(b->s, b, path, format, size, e);
}

struct hq_ingest_batch *
hq_ingest_batch_begin(struct hq_store *s, struct hq_err *e)
{
	struct hq_ingest_batch *b;

	if (hq_store_begin(s, e))
		return NULL;
	b = hq_xcalloc(1, sizeof *b);
	b->s = s;
	b->watch_lo = INT64_MAX;
	b->watch_hi = INT64_MIN;
	return b;
}

void
hq_ingest_set_progress(struct hq_ingest *ig, hq_ingest_progress_fn *fn,
    void *arg)
{
	ig->progress = fn;
	ig->progress_arg = arg;
}

void
hq_ingest_set_warn(struct hq_ingest *ig, hq_ingest_warn_fn *fn, void *arg)
{
	ig->warn = fn;
	ig->warn_arg = arg;
}

void
hq_ingest_set_where(struct hq_ingest *ig, hq_ingest_where_fn *fn, void *arg)
{
	ig->where = fn;
	ig->where_arg = arg;
}

void
hq_ingest_tick(struct hq_ingest *ig, const struct hq_input *in)
{
	double now;

	if (!ig->progress || (++ig->ticks & 1023))
		return;
	now = hq_time_monotonic();
	if (now - ig->last_tick < 0.2)
		return;
	ig->last_tick = now;
	ig->progress(ig->progress_arg, in, &ig->c);
}

static void
vwarn(struct hq_ingest *ig, const char *fmt, va_list ap)
{
	char msg[2048];

	if (!ig->warn || !fmt)
		return;
	vsnprintf(msg, sizeof msg, fmt, ap);
	ig->warn(ig->warn_arg, msg);
}

void
hq_ingest_warn(struct hq_ingest *ig, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(ig, fmt, ap);
	va_end(ap);
}

void
hq_ig_note(struct hq_ingest *ig, const char *fmt, ...)
{
	char where[512], what[1024];
	va_list ap;

	if (!ig->warn)
		return;
	snprintf(where, sizeof where, "%s", ig->path);
	if (ig->where)
		ig->where(ig->where_arg, where, sizeof where);
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	hq_ingest_warn(ig, "%s: %s", where, what);
}

void
hq_ingest_skip(struct hq_ingest *ig, const char *fmt, ...)
{
	va_list ap;

	ig->c.records++;
	ig->c.skipped++;
	va_start(ap, fmt);
	vwarn(ig, fmt, ap);
	va_end(ap);
}

void
hq_ingest_skip_n(struct hq_ingest *ig, long n, const char *fmt, ...)
{
	va_list ap;

	ig->c.records += n;
	ig->c.skipped += n;
	va_start(ap, fmt);
	vwarn(ig, fmt, ap);
	va_end(ap);
}

void
hq_ingest_partial(struct hq_ingest *ig)
{
	ig->c.partial++;
}

void
hq_ingest_stated_offset(struct hq_ingest *ig, int stated_min, int zone_min)
{
	ig->c.offset_differs = 1;
	ig->c.stated_offset_min = stated_min;
	ig->c.zone_offset_min = zone_min;
}

void
hq_ingest_dropped_chars(struct hq_ingest *ig, long n)
{
	ig->c.control_chars += n;
}

const struct hq_ingest_counts *
hq_ingest_counts(const struct hq_ingest *ig)
{
	return &ig->c;
}

void
hq_ingest_set_format(struct hq_ingest *ig, const char *format)
{
	snprintf(ig->format, sizeof ig->format, "%s", format);
}

const char *
hq_ingest_format(const struct hq_ingest *ig)
{
	return ig->format[0] ? ig->format : NULL;
}

struct hq_store *
hq_ingest_store(struct hq_ingest *ig)
{
	return ig->s;
}

int64_t
hq_ingest_first_sample_id(const struct hq_ingest *ig)
{
	return ig->first_sample_id;
}

void
hq_ingest_set_export_info(struct hq_ingest *ig, int64_t export_date,
    const char *version, const char *locale)
{
	if (export_date)
		ig->export_date = export_date;
	if (version) {
		free(ig->export_version);
		ig->export_version = hq_xstrdup(version);
	}
	if (locale) {
		free(ig->locale);
		ig->locale = hq_xstrdup(locale);
	}
}

/* An HKTimeZone value of a new sample or workout starting at t. Names
 * that cannot be zones (too long, odd characters) are not kept. */
void
hq_ig_note_zone(struct hq_ingest *ig, const char *zone, int64_t t)
{
	size_t len = zone ? strlen(zone) : 0, i;

	if (len == 0 || len >= sizeof ig->zones[0].name ||
	    strspn(zone, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789/_+-") != len)
		return;
	for (i = 0; i < ig->nzones; i++)
		if (strcmp(ig->zones[i].name, zone) == 0)
			break;
	if (i == ig->nzones) {
		if (i == MAX_ZONES)
			return;
		memcpy(ig->zones[i].name, zone, len + 1);
		ig->zones[i].first = ig->zones[i].last = t;
		ig->nzones++;
	}
	if (t < ig->zones[i].first)
		ig->zones[i].first = t;
	if (t > ig->zones[i].last)
		ig->zones[i].last = t;
	ig->zones[i].n++;
}

/* ---- reports (report.h) ---------------------------------------------- */

static struct hq_report_writer *
reports(struct hq_ingest *ig)
{
	if (!ig->reports)
		ig->reports = hq_report_writer_new(ig->s, ig->import_id);
	return ig->reports;
}

/* What the report writer did since before, in the import's counts: rows
 * read, new, already there, skipped; read also into *read (lab results or
 * DEXA fields). */
static void
count_reports(struct hq_ingest *ig, const struct hq_report_counts *before,
    long *read)
{
	const struct hq_report_counts *now = hq_report_writer_counts(ig->reports);
	long inserted = now->inserted - before->inserted;
	long duplicates = now->duplicates - before->duplicates;
	long skipped = now->skipped - before->skipped;

	ig->c.inserted += inserted;
	ig->c.duplicates += duplicates;
	ig->c.skipped += skipped;
	ig->c.records += inserted + duplicates + skipped;
	*read += inserted + duplicates;
}

int
hq_ingest_lab_result(struct hq_ingest *ig, const struct hq_lab_result *r,
    int64_t clinical_id, struct hq_err *e)
{
	struct hq_report_counts before = *hq_report_writer_counts(reports(ig));
	int rc = hq_report_add_lab(ig->reports, r, clinical_id, e);

	if (rc >= 0)
		count_reports(ig, &before, &ig->c.lab_results);
	return rc;
}

int
hq_ingest_dexa_scan(struct hq_ingest *ig, const struct hq_dexa_scan *scan,
    struct hq_err *e)
{
	struct hq_report_counts before = *hq_report_writer_counts(reports(ig));
	int rc = hq_report_add_dexa(ig->reports, scan, e);

	if (rc >= 0)
		count_reports(ig, &before, &ig->c.dexa_fields);
	return rc;
}

static void
backfill_warn(void *arg, const char *msg)
{
	hq_ingest_warn(arg, "%s", msg);
}

int
hq_ingest_clinical_reports(struct hq_ingest *ig, struct hq_err *e)
{
	struct hq_report_counts before = *hq_report_writer_counts(reports(ig));

	if (hq_report_backfill(ig->reports, backfill_warn, ig, e))
		return -1;
	count_reports(ig, &before, &ig->c.lab_results);
	return 0;
}

/*
 * Table catalog (store.c, for the SQL views): hq's name, kind and unit of
 * every metric and workout type in the store, as this build's catalog has
 * them; rows change only when the catalog did. 0, or -1.
 */
static int
describe(struct hq_store *s, struct hq_err *e)
{
	sqlite3_stmt *q = NULL, *up = NULL;
	int rc = -1, step;

	if (hq_store_prepare(s, "SELECT identifier, 0 FROM metric UNION "
	    "SELECT DISTINCT activity_type, 1 FROM workout", &q, e) ||
	    hq_store_prepare(s, "INSERT INTO catalog(identifier, name, kind, unit) "
	    "VALUES (?1, ?2, ?3, ?4) ON CONFLICT(identifier) DO UPDATE SET "
	    "name = ?2, kind = ?3, unit = ?4 WHERE name IS NOT ?2 OR kind IS NOT ?3 "
	    "OR unit IS NOT ?4", &up, e))
		goto done;
	while ((step = sqlite3_step(q)) == SQLITE_ROW) {
		const char *id = (const char *)sqlite3_column_text(q, 0);
		const struct hq_metric_info *info = NULL;
		const char *kind = "workout", *unit = NULL;
		char name[128];

		if (!id)
			continue;
		if (sqlite3_column_int(q, 1))
			hq_workout_type_name(id, name, sizeof name);
		else if ((info = hq_catalog_lookup(id))) {
			snprintf(name, sizeof name, "%s", info->name);
			kind = hq_catalog_kind_name(info->kind);
			unit = info->unit;
		} else {
			hq_catalog_snake(id, name, sizeof name);
			kind = hq_catalog_kind_name(hq_catalog_guess_kind(id));
		}
		if (hq_store_run(s, up, (struct hq_bind[]){ HQ_TEXT(id), HQ_TEXT(name),
		    HQ_TEXT(kind), HQ_OPT_TEXT(unit), HQ_END }, "describing the metrics", e))
			goto done;
	}
	if (step != SQLITE_DONE)
		hq_err_set(e, "%s: describing the metrics: %s", hq_store_filename(s),
		    sqlite3_errmsg(hq_store_db(s)));
	else
		rc = 0;
done:
	sqlite3_finalize(q);
	sqlite3_finalize(up);
	return rc;
}

/*
 * What depends on all the rows, brought up to date inside the transaction
 * before it commits: the rollups (from the samples with id >=
 * first_sample_id: this is the one place for that call), the same
 * activity (when anything was added, or a change of its rule left work),
 * the kept figures the import could change, the catalog, then search's
 * indexes (which read the catalog's names).
 */
static int
derived(struct hq_store *s, const struct hq_ig_added *add, int changed,
    struct hq_err *e)
{
	if (hq_rollup_refresh(s, add->first_sample_id, e) ||
	    hq_ig_same_refresh(s, add, changed, e) ||
	    (changed && hq_ig_figures_stale(s, add->first_import_id,
	    add->first_sample_id, e)) || describe(s, e) ||
	    hq_store_search_refresh(hq_store_db(s), e))
		return -1;
	return 0;
}

int
hq_ingest_batch_commit(struct hq_ingest_batch *b, struct hq_err *e)
{
	int rc = -1;

	if (b->lost)
		hq_err_set(e, "%s: the batch's transaction was rolled back",
		    hq_store_filename(b->s));
	else if (derived(b->s, &(struct hq_ig_added){
	    .first_sample_id = b->first_sample_id ? b->first_sample_id : 1,
	    .first_import_id = b->first_import_id ? b->first_import_id : 1,
	    .watch_lo = b->watch_lo, .watch_hi = b->watch_hi }, b->changed,
	    e) == 0 && hq_store_commit(b->s, e) == 0)
		rc = 0;
	else
		hq_store_rollback(b->s);
	free(b);
	return rc;
}

void
hq_ingest_batch_abort(struct hq_ingest_batch *b)
{
	if (!b)
		return;
	hq_store_rollback(b->s);
	free(b);
}

/*
 * New samples in or beside months hq-archive prune took out of the store
 * (hq-archive(1), PRUNED MONTHS): kept, and pushed into the month's
 * segment; the hours they touch are totalled again with the archived
 * samples, read now (rollup.h), or the file is refused, named with the
 * months. A sample imported again is not new: the prune's trigger finds
 * it a duplicate, and nothing is read.
 */
static int
pruned_read(struct hq_ingest *ig, struct hq_err *e)
{
	char why[sizeof e->msg];
	long n;

	if (!ig->c.inserted || hq_rollup_pruned_fetch(ig->s, ig->first_sample_id,
	    &n, e) == 0)
		return 0;
	snprintf(why, sizeof why, "%s", e->msg);
	hq_err_set(e, "%s: %ld new samples fall in or beside months hq-archive "
	    "prune took out of this store, and their hours need the archived "
	    "samples: %s", ig->path, n, why);
	return -1;
}

int
hq_ingest_commit(struct hq_ingest *ig, struct hq_err *e)
{
	if (hq_ingest_flush(ig, e) || pruned_read(ig, e))
		goto fail;
	for (size_t i = 0; i < ig->nzones; i++)
		if (hq_ig_run(ig, ST_ZONE, (struct hq_bind[]){ HQ_TEXT(ig->zones[i].name),
		    HQ_INT(ig->zones[i].first), HQ_INT(ig->zones[i].last),
		    HQ_INT(ig->zones[i].n), HQ_END }, e))
			goto fail;
	/* The report writer's statements go before the commit. */
	hq_report_writer_free(ig->reports);
	ig->reports = NULL;
	if (hq_ig_run(ig, ST_IMPORT_END, (struct hq_bind[]){ HQ_INT(hq_time_now()),
	    HQ_INT(ig->c.records), HQ_INT(ig->c.inserted),
	    HQ_INT(ig->c.duplicates), HQ_INT(ig->c.skipped),
	    HQ_OPT_INT(ig->export_date), HQ_OPT_TEXT(ig->export_version),
	    HQ_OPT_TEXT(ig->locale), HQ_INT(ig->import_id), HQ_END }, e))
		goto fail;
	/* In a batch the file is kept (its savepoint released), and the
	 * batch's commit does the rest. */
	if (ig->batch) {
		hq_store_finalize(ig->st, NSTMT);
		if (hq_store_file_savepoint_keep(ig->s, e))
			goto fail;
		ig->batch->changed |= ig->c.inserted || ig->c.workouts_inserted;
		if (ig->watch_lo < ig->batch->watch_lo)
			ig->batch->watch_lo = ig->watch_lo;
		if (ig->watch_hi > ig->batch->watch_hi)
			ig->batch->watch_hi = ig->watch_hi;
		ig_free(ig);
		return 0;
	}
	if (derived(ig->s, &(struct hq_ig_added){
	    .first_sample_id = ig->first_sample_id,
	    .first_import_id = ig->import_id, .watch_lo = ig->watch_lo,
	    .watch_hi = ig->watch_hi }, ig->c.inserted ||
	    ig->c.workouts_inserted, e))
		goto fail;
	hq_store_finalize(ig->st, NSTMT);
	if (hq_store_commit(ig->s, e))
		goto fail;
	ig_free(ig);
	return 0;
fail:
	hq_ingest_abort(ig);
	return -1;
}

int
hq_ingest_part_begin(struct hq_ingest *ig, struct hq_err *e)
{
	if (hq_ingest_flush(ig, e))
		return -1;
	ig->part = ig->c;
	return hq_store_savepoint(ig->s, e);
}

int
hq_ingest_part_keep(struct hq_ingest *ig, struct hq_err *e)
{
	if (hq_ingest_flush(ig, e))
		return -1;
	return hq_store_savepoint_keep(ig->s, e);
}

void
hq_ingest_part_undo(struct hq_ingest *ig)
{
	ig->nlater = ig->nlater_points = 0;   /* the part's, never written */
	ig->box.n = 0;
	hq_store_savepoint_undo(ig->s);
	ig->c = ig->part;
	/* Ids cached here may be gone with the part. */
	for (size_t i = 0; i < TYPE_CACHE; i++)
		ig->tcs[i].metric_id = 0;
	ig->last_source[0] = ig->last_device[0] = '\0';
	ig->last_source_id = ig->last_device_id = 0;
	ig->new_sample_id = ig->new_workout_id = 0;
}

void
hq_ingest_abort(struct hq_ingest *ig)
{
	if (!ig)
		return;
	/* The report writer's statements too, before the rollback. */
	hq_report_writer_free(ig->reports);
	ig->reports = NULL;
	hq_store_finalize(ig->st, NSTMT);
	if (ig->batch) {
		hq_store_file_savepoint_undo(ig->s);   /* this file alone */
		/* An error that ends the transaction (a full disk) took the
		 * batch's other files with it. */
		if (sqlite3_get_autocommit(ig->db))
			ig->batch->lost = 1;
	} else
		hq_store_rollback(ig->s);
	ig_free(ig);
}
