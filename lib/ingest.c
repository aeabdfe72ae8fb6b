#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "hq/buf.h"
#include "hq/catalog.h"
#include "hq/ingest.h"
#include "hq/rollup.h"
#include "hq/time.h"

/* Prepared statements, one per kind of row; finalized by ig_free(). */
enum {
	ST_SAMPLE_ID, ST_SAMPLE_META, ST_BEAT, ST_CORR, ST_CORR_ID, ST_CORR_MEMBER,
	ST_WORKOUT, ST_WORKOUT_ID, ST_WORKOUT_TOTALS, ST_WORKOUT_META,
	ST_WORKOUT_ACTIVITY, ST_WORKOUT_STAT, ST_WORKOUT_EVENT, ST_ROUTE,
	ST_ROUTE_POINT, ST_ROUTE_FILE, ST_ROUTES_FOR_FILE, ST_ROUTE_SPAN, ST_SUMMARY,
	ST_CLINICAL, ST_CLINICAL_RESOURCE, ST_ME, ST_IMPORT_END, NSTMT
};

static const char *const stmt_sql[NSTMT] = {
	[ST_SAMPLE_ID] = "SELECT id FROM sample WHERE metric_id = ? AND start = ? "
	    "AND source_id = ? AND end = ? AND value = ? AND text = ?",
	[ST_SAMPLE_META] = "INSERT INTO sample_meta(sample_id, key, value) "
	    "VALUES (?,?,?)",
	[ST_BEAT] = "INSERT OR IGNORE INTO hrv_beat(sample_id, seq, bpm, "
	    "time_of_day) VALUES (?,?,?,?)",
	[ST_CORR] = "INSERT OR IGNORE INTO correlation(metric_id, source_id, "
	    "start, end, created, import_id) VALUES (?,?,?,?,?,?)",
	[ST_CORR_ID] = "SELECT id FROM correlation WHERE metric_id = ? AND "
	    "source_id = ? AND start = ? AND end = ?",
	[ST_CORR_MEMBER] = "INSERT OR IGNORE INTO correlation_member("
	    "correlation_id, sample_id) VALUES (?,?)",
	[ST_WORKOUT] = "INSERT OR IGNORE INTO workout(activity_type, source_id, "
	    "start, end, duration, distance, energy, device_id, source_version, "
	    "created, offset_min, import_id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
	[ST_WORKOUT_ID] = "SELECT id FROM workout WHERE activity_type = ? AND "
	    "source_id = ? AND start = ? AND end = ?",
	[ST_WORKOUT_TOTALS] = "UPDATE workout SET distance = coalesce(distance, ?),"
	    " energy = coalesce(energy, ?) WHERE id = ?",
	[ST_WORKOUT_META] = "INSERT INTO workout_meta(workout_id, activity_uuid, "
	    "key, value) VALUES (?,?,?,?)",
	[ST_WORKOUT_ACTIVITY] = "INSERT OR IGNORE INTO workout_activity("
	    "workout_id, uuid, activity_type, start, end, duration) "
	    "VALUES (?,?,?,?,?,?)",
	[ST_WORKOUT_STAT] = "INSERT INTO workout_stat(workout_id, activity_uuid, "
	    "metric_id, start, end, sum, average, minimum, maximum, unit) "
	    "VALUES (?,?,?,?,?,?,?,?,?,?)",
	[ST_WORKOUT_EVENT] = "INSERT INTO workout_event(workout_id, "
	    "activity_uuid, type, date, duration) VALUES (?,?,?,?,?)",
	[ST_ROUTE] = "INSERT INTO route(workout_id, source_id, start, end, file) "
	    "VALUES (?,?,?,?,?)",
	[ST_ROUTE_POINT] = "INSERT OR IGNORE INTO route_point(route_id, seq, "
	    "time, lat, lon, ele, h_acc, v_acc, course, speed) "
	    "VALUES (?,?,?,?,?,?,?,?,?,?)",
	[ST_ROUTE_FILE] = "UPDATE route SET file = ? WHERE id = ?",
	[ST_ROUTES_FOR_FILE] = "SELECT id FROM route r WHERE file = ? AND NOT "
	    "EXISTS (SELECT 1 FROM route_point p WHERE p.route_id = r.id) "
	    "ORDER BY id",
	[ST_ROUTE_SPAN] = "UPDATE route SET start = coalesce(start, ?), "
	    "end = coalesce(end, ?) WHERE id = ?",
	[ST_SUMMARY] = "INSERT INTO activity_summary(date, active_energy, "
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
	    "stand_hours_goal IS NOT ?10",
	[ST_CLINICAL] = "INSERT OR IGNORE INTO clinical_record(type, identifier, "
	    "source_id, source_url, fhir_version, received, resource_path, "
	    "import_id) VALUES (?,?,?,?,?,?,?,?)",
	[ST_CLINICAL_RESOURCE] = "UPDATE clinical_record SET resource = ? "
	    "WHERE resource_path = ? AND resource IS NULL",
	[ST_ME] = "INSERT INTO me(key, value) VALUES (?1, ?2) ON CONFLICT(key) "
	    "DO UPDATE SET value = ?2 WHERE value IS NOT ?2",
	[ST_IMPORT_END] = "UPDATE import SET finished = ?, records = ?, "
	    "inserted = ?, duplicates = ?, skipped = ?, export_date = ?, "
	    "export_version = ?, locale = ? WHERE id = ?",
};

/* The metric a record's type resolves to, kept for the next record: an
 * export lists each type's records together. */
struct type_cache {
	char type[256];
	int by_name;
	int64_t metric_id;
	const struct hq_metric_info *info;
	enum hq_kind kind;
	char identifier[256];
};

struct hq_ingest {
	struct hq_store *s;
	sqlite3 *db;
	sqlite3_stmt *st[NSTMT];
	int64_t import_id, first_sample_id;
	struct hq_ingest_counts c;
	struct type_cache tc;
	char last_source[256];
	int64_t last_source_id;
	char last_device[512];
	int64_t last_device_id;
	int64_t export_date;
	char *export_version, *locale;
	hq_ingest_progress_fn *progress;
	void *progress_arg;
	double last_tick;
	unsigned ticks;
};

ssize_t
hq_src_read(struct hq_src *s, void *buf, size_t n)
{
	ssize_t r;

	if (s->prepos < s->prelen) {
		size_t k = s->prelen - s->prepos;
		if (k > n)
			k = n;
		memcpy(buf, s->pre + s->prepos, k);
		s->prepos += k;
		s->bytes += k;
		return (ssize_t)k;
	}
	do
		r = read(s->fd, buf, n);
	while (r < 0 && errno == EINTR);
	if (r > 0)
		s->bytes += (uint64_t)r;
	return r;
}

enum hq_input_format
hq_ingest_sniff(const unsigned char *p, size_t n)
{
	size_t i = 0;

	if (n >= 4 && p[0] == 'P' && p[1] == 'K' && p[2] == 3 && p[3] == 4)
		return HQ_IN_APPLE_ZIP;
	if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF)
		i = 3;
	while (i < n && isspace(p[i]))
		i++;
	if (i < n && p[i] == '{')
		return HQ_IN_JSONL;
	if (i < n && p[i] == '<') {
		/* Apple's root element, possibly after a long DTD. */
		for (size_t k = i; k + 11 <= n; k++)
			if (memcmp(p + k, "<HealthData", 11) == 0 ||
			    (k + 20 <= n && memcmp(p + k, "<!DOCTYPE HealthData", 20) == 0))
				return HQ_IN_APPLE_XML;
		/* An XML file cut short of the root: still Apple's to judge. */
		return n < 4096 ? HQ_IN_UNKNOWN : HQ_IN_APPLE_XML;
	}
	return HQ_IN_UNKNOWN;
}

const char *
hq_ingest_format_name(enum hq_input_format f)
{
	switch (f) {
	case HQ_IN_APPLE_ZIP: return "apple-zip";
	case HQ_IN_APPLE_XML: return "apple-xml";
	case HQ_IN_JSONL: return "jsonl";
	case HQ_IN_UNKNOWN: break;
	}
	return "unknown";
}

static int
db_err(struct hq_ingest *ig, struct hq_err *e, const char *what)
{
	hq_err_set(e, "%s: %s: %s", hq_store_filename(ig->s), what,
	    sqlite3_errmsg(ig->db));
	return -1;
}

static sqlite3_stmt *
stmt(struct hq_ingest *ig, int which, struct hq_err *e)
{
	if (!ig->st[which] &&
	    hq_store_prepare(ig->s, stmt_sql[which], &ig->st[which], e))
		return NULL;
	return ig->st[which];
}

/* Bind helpers: NULL for absent values. */
static void
bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

static void
bind_num(sqlite3_stmt *st, int i, double v)
{
	if (isnan(v))
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_double(st, i, v);
}

static void
bind_time(sqlite3_stmt *st, int i, int64_t t)
{
	if (t)
		sqlite3_bind_int64(st, i, t);
	else
		sqlite3_bind_null(st, i);
}

/* Step a statement that returns no rows; reset it. 0 or -1. */
static int
run(struct hq_ingest *ig, sqlite3_stmt *st, const char *what, struct hq_err *e)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE)
		return db_err(ig, e, what);
	return 0;
}

/* Step a query for one integer: the value, 0 when no row, -1 on error. */
static int64_t
query_id(struct hq_ingest *ig, sqlite3_stmt *st, struct hq_err *e)
{
	int rc = sqlite3_step(st);
	int64_t id = 0;

	if (rc == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_err(ig, e, "looking up a row");
	return id;
}

static void
ig_free(struct hq_ingest *ig)
{
	for (int i = 0; i < NSTMT; i++)
		sqlite3_finalize(ig->st[i]);
	free(ig->export_version);
	free(ig->locale);
	free(ig);
}

struct hq_ingest *
hq_ingest_start(struct hq_store *s, const char *path, const char *format,
    int64_t size, struct hq_err *e)
{
	struct hq_ingest *ig = hq_xcalloc(1, sizeof *ig);
	sqlite3_stmt *st = NULL;

	ig->s = s;
	ig->db = hq_store_db(s);
	if (hq_store_begin(s, e)) {
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
	sqlite3_bind_int64(st, 4, (int64_t)time(NULL));
	if (sqlite3_step(st) != SQLITE_DONE) {
		db_err(ig, e, "recording the import");
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
		db_err(ig, e, "reading the last sample id");
		goto fail;
	}
	ig->first_sample_id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	ig->last_tick = hq_time_monotonic();
	return ig;
fail:
	sqlite3_finalize(st);
	hq_store_rollback(s);
	ig_free(ig);
	return NULL;
}

void
hq_ingest_set_progress(struct hq_ingest *ig, hq_ingest_progress_fn *fn,
    void *arg)
{
	ig->progress = fn;
	ig->progress_arg = arg;
}

void
hq_ingest_tick(struct hq_ingest *ig, const struct hq_src *src)
{
	double now;

	if (!ig->progress || (++ig->ticks & 1023))
		return;
	now = hq_time_monotonic();
	if (now - ig->last_tick < 0.2)
		return;
	ig->last_tick = now;
	ig->progress(ig->progress_arg, src, &ig->c);
}

const struct hq_ingest_counts *
hq_ingest_counts(const struct hq_ingest *ig)
{
	return &ig->c;
}

struct hq_ingest_counts *
hq_ingest_counts_mut(struct hq_ingest *ig)
{
	return &ig->c;
}

struct hq_store *
hq_ingest_store(struct hq_ingest *ig)
{
	return ig->s;
}

int64_t
hq_ingest_import_id(const struct hq_ingest *ig)
{
	return ig->import_id;
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

int
hq_ingest_commit(struct hq_ingest *ig, struct hq_err *e)
{
	sqlite3_stmt *st = stmt(ig, ST_IMPORT_END, e);

	if (!st)
		goto fail;
	sqlite3_bind_int64(st, 1, (int64_t)time(NULL));
	sqlite3_bind_int64(st, 2, ig->c.records);
	sqlite3_bind_int64(st, 3, ig->c.inserted);
	sqlite3_bind_int64(st, 4, ig->c.duplicates);
	sqlite3_bind_int64(st, 5, ig->c.skipped);
	bind_time(st, 6, ig->export_date);
	bind_text(st, 7, ig->export_version);
	bind_text(st, 8, ig->locale);
	sqlite3_bind_int64(st, 9, ig->import_id);
	if (run(ig, st, "recording the import", e))
		goto fail;
	/*
	 * Derived tables (rollups) are brought up to date here, inside the
	 * import's transaction, from the samples with id >=
	 * ig->first_sample_id: this is the one place for that call.
	 */
	if (hq_rollup_refresh(ig->s, ig->first_sample_id, e))
		goto fail;
	for (int i = 0; i < NSTMT; i++) {
		sqlite3_finalize(ig->st[i]);
		ig->st[i] = NULL;
	}
	if (hq_store_commit(ig->s, e))
		goto fail;
	ig_free(ig);
	return 0;
fail:
	hq_ingest_abort(ig);
	return -1;
}

void
hq_ingest_abort(struct hq_ingest *ig)
{
	if (!ig)
		return;
	for (int i = 0; i < NSTMT; i++) {
		sqlite3_finalize(ig->st[i]);
		ig->st[i] = NULL;
	}
	hq_store_rollback(ig->s);
	ig_free(ig);
}

void
hq_ingest_clean_device(const char *device, char *buf, size_t n)
{
	const char *p = device;
	size_t len;

	/* "<<HKDevice: 0x282a45810>, name:..., software:4.3.1>" */
	if (strncmp(p, "<<HKDevice:", 11) == 0) {
		const char *q = strchr(p, '>');
		if (q) {
			p = q + 1;
			if (*p == ',')
				p++;
			while (*p == ' ')
				p++;
		}
		len = strlen(p);
		if (len && p[len - 1] == '>')
			len--;
	} else
		len = strlen(p);
	if (len >= n)
		len = n - 1;
	memcpy(buf, p, len);
	buf[len] = '\0';
}

static int
looks_like_identifier(const char *s)
{
	return strncmp(s, "HK", 2) == 0;
}

/* Resolve r->type to a metric, through the one-entry cache. 0, 2 (skip:
 * e says why) or -1. */
static int
resolve_type(struct hq_ingest *ig, const char *type, int by_name,
    struct hq_err *e)
{
	struct type_cache *tc = &ig->tc;
	const struct hq_metric_info *info;

	if (tc->metric_id && tc->by_name == by_name && strcmp(tc->type, type) == 0)
		return 0;
	if (strlen(type) >= sizeof tc->type) {
		hq_err_set(e, "metric name too long");
		return 2;
	}
	if (!*type) {
		hq_err_set(e, "empty metric type");
		return 2;
	}
	info = by_name ? hq_catalog_lookup(type) : hq_catalog_by_identifier(type);
	if (info && info->kind == HQ_KIND_SLEEP)
		info = hq_catalog_by_identifier(info->identifier);
	if (!info && by_name && !looks_like_identifier(type)) {
		const char *sug = hq_catalog_suggest_known(type);
		if (sug) {
			hq_err_set(e, "unknown metric '%s' (did you mean %s?)", type, sug);
			return 2;
		}
	}
	snprintf(tc->identifier, sizeof tc->identifier, "%s",
	    info ? info->identifier : type);
	int64_t id = hq_store_metric_id(ig->s, tc->identifier, 1, e);
	if (id < 0)
		return -1;
	snprintf(tc->type, sizeof tc->type, "%s", type);
	tc->by_name = by_name;
	tc->metric_id = id;
	tc->info = info;
	tc->kind = info ? info->kind : hq_catalog_guess_kind(tc->identifier);
	return 0;
}

static int64_t
source_id(struct hq_ingest *ig, const char *name, struct hq_err *e)
{
	if (ig->last_source_id && strcmp(ig->last_source, name) == 0)
		return ig->last_source_id;
	int64_t id = hq_store_source_id(ig->s, name, 1, e);
	if (id > 0 && strlen(name) < sizeof ig->last_source) {
		snprintf(ig->last_source, sizeof ig->last_source, "%s", name);
		ig->last_source_id = id;
	}
	return id;
}

static int64_t
device_id(struct hq_ingest *ig, const char *raw, struct hq_err *e)
{
	char clean[512];

	if (!raw || !*raw)
		return 0;
	hq_ingest_clean_device(raw, clean, sizeof clean);
	if (!*clean)
		return 0;
	if (ig->last_device_id && strcmp(ig->last_device, clean) == 0)
		return ig->last_device_id;
	int64_t id = hq_store_device_id(ig->s, clean, e);
	if (id > 0) {
		memcpy(ig->last_device, clean, sizeof clean);
		ig->last_device_id = id;
	}
	return id;
}

/* Strict decimal number: all of s, finite. */
static int
parse_number(const char *s, double *v)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return -1;
	errno = 0;
	*v = strtod(s, &end);
	while (isspace((unsigned char)*end))
		end++;
	if (*end || errno == ERANGE || !isfinite(*v))
		return -1;
	return 0;
}

/* The sample a record becomes: 0, 2 (skip, e says why), -1. */
static int
make_sample(struct hq_ingest *ig, const struct hq_ingest_record *r,
    struct hq_sample *smp, char *text, size_t textn, struct hq_err *e)
{
	int rc = resolve_type(ig, r->type, r->by_name, e);
	const struct type_cache *tc = &ig->tc;

	if (rc)
		return rc;
	memset(smp, 0, sizeof *smp);
	if (r->end < r->start) {
		hq_err_set(e, "end is before start");
		return 2;
	}
	smp->metric_id = tc->metric_id;
	smp->start = r->start;
	smp->end = r->end;
	smp->unit = r->unit && *r->unit ? r->unit : NULL;
	smp->source_version = r->source_version;
	smp->created = r->created;
	smp->offset_min = r->offset_min;
	smp->import_id = ig->import_id;
	text[0] = '\0';
	if (tc->kind == HQ_KIND_CATEGORY) {
		int code = 0;
		if (r->text) {
			snprintf(text, textn, "%s", r->text);
			code = r->has_value ? (int)r->value_num : 0;
		} else if (r->value_str) {
			double v;
			hq_catalog_category(tc->identifier, r->value_str, text,
			    textn, &code);
			/* Some apps write a category as a bare number. */
			if (!*text && parse_number(r->value_str, &v) == 0)
				code = (int)v;
		} else if (r->has_value)
			code = (int)r->value_num;
		smp->value = code;
		smp->text = text;
	} else {
		double v;
		if (r->value_str) {
			if (parse_number(r->value_str, &v)) {
				hq_err_set(e, "value '%.40s' is not a number", r->value_str);
				return 2;
			}
		} else if (r->has_value)
			v = r->value_num;
		else {
			hq_err_set(e, "no value");
			return 2;
		}
		if (tc->info && tc->info->unit && smp->unit) {
			if (r->percent_fraction && strcmp(smp->unit, "%") == 0 &&
			    strcmp(tc->info->unit, "%") == 0)
				v *= 100;
			else
				hq_unit_convert(v, smp->unit, tc->info->unit, &v);
		}
		smp->value = v;
		smp->text = "";
	}
	int64_t sid = source_id(ig, r->source && *r->source ? r->source :
	    "unknown", e);
	if (sid < 0)
		return -1;
	smp->source_id = sid;
	int64_t did = device_id(ig, r->device, e);
	if (did < 0)
		return -1;
	smp->device_id = did;
	return 0;
}

static int64_t
find_sample(struct hq_ingest *ig, const struct hq_sample *smp,
    struct hq_err *e)
{
	sqlite3_stmt *st = stmt(ig, ST_SAMPLE_ID, e);

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, smp->metric_id);
	sqlite3_bind_int64(st, 2, smp->start);
	sqlite3_bind_int64(st, 3, smp->source_id);
	sqlite3_bind_int64(st, 4, smp->end);
	sqlite3_bind_double(st, 5, smp->value);
	sqlite3_bind_text(st, 6, smp->text ? smp->text : "", -1, SQLITE_STATIC);
	return query_id(ig, st, e);
}

int
hq_ingest_record(struct hq_ingest *ig, const struct hq_ingest_record *r,
    int64_t *id, struct hq_err *e)
{
	struct hq_sample smp;
	char text[256];
	int rc;

	ig->c.records++;
	rc = make_sample(ig, r, &smp, text, sizeof text, e);
	if (rc == 2)
		ig->c.skipped++;
	if (rc)
		return rc;
	rc = hq_store_add_sample(ig->s, &smp, e);
	if (rc < 0)
		return -1;
	if (rc == 1) {
		ig->c.inserted++;
		if (id)
			*id = hq_store_last_id(ig->s);
	} else {
		ig->c.duplicates++;
		if (id && (*id = find_sample(ig, &smp, e)) < 0)
			return -1;
	}
	return rc;
}

int64_t
hq_ingest_new_sample_id(const struct hq_ingest *ig)
{
	return hq_store_last_id(ig->s);
}

int64_t
hq_ingest_member(struct hq_ingest *ig, const struct hq_ingest_record *r,
    struct hq_err *e)
{
	struct hq_sample smp;
	char text[256];
	int64_t id;
	int rc = make_sample(ig, r, &smp, text, sizeof text, e);

	if (rc == 2)
		return 0;
	if (rc)
		return -1;
	if ((id = find_sample(ig, &smp, e)) != 0)
		return id;
	/* Not (yet) at top level: store it once; the top-level copy, if it
	 * comes later, is then a duplicate of this row. */
	rc = hq_store_add_sample(ig->s, &smp, e);
	if (rc < 0)
		return -1;
	return rc == 1 ? hq_store_last_id(ig->s) : find_sample(ig, &smp, e);
}

int
hq_ingest_sample_meta(struct hq_ingest *ig, int64_t sample_id,
    const char *key, const char *value, struct hq_err *e)
{
	sqlite3_stmt *st = stmt(ig, ST_SAMPLE_META, e);

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, sample_id);
	sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, value ? value : "", -1, SQLITE_STATIC);
	return run(ig, st, "adding sample metadata", e);
}

int
hq_ingest_hrv_beat(struct hq_ingest *ig, int64_t sample_id, int seq,
    double bpm, double time_of_day, struct hq_err *e)
{
	sqlite3_stmt *st = stmt(ig, ST_BEAT, e);

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, sample_id);
	sqlite3_bind_int(st, 2, seq);
	sqlite3_bind_double(st, 3, bpm);
	bind_num(st, 4, time_of_day);
	ig->c.beats++;
	return run(ig, st, "adding a heartbeat", e);
}

int
hq_ingest_correlation(struct hq_ingest *ig, const struct hq_ingest_group *g,
    int64_t *id, struct hq_err *e)
{
	sqlite3_stmt *st;
	int64_t mid = hq_store_metric_id(ig->s, g->type, 1, e), sid;

	if (mid < 0 || (sid = source_id(ig, g->source ? g->source : "unknown",
	    e)) < 0 || !(st = stmt(ig, ST_CORR, e)))
		return -1;
	ig->c.correlations++;
	sqlite3_bind_int64(st, 1, mid);
	sqlite3_bind_int64(st, 2, sid);
	sqlite3_bind_int64(st, 3, g->start);
	sqlite3_bind_int64(st, 4, g->end);
	bind_time(st, 5, g->created);
	sqlite3_bind_int64(st, 6, ig->import_id);
	if (run(ig, st, "adding a correlation", e))
		return -1;
	if (sqlite3_changes(ig->db) > 0) {
		*id = sqlite3_last_insert_rowid(ig->db);
		return 1;
	}
	if (!(st = stmt(ig, ST_CORR_ID, e)))
		return -1;
	sqlite3_bind_int64(st, 1, mid);
	sqlite3_bind_int64(st, 2, sid);
	sqlite3_bind_int64(st, 3, g->start);
	sqlite3_bind_int64(st, 4, g->end);
	*id = query_id(ig, st, e);
	return *id < 0 ? -1 : 0;
}

int
hq_ingest_correlation_member(struct hq_ingest *ig, int64_t corr_id,
    int64_t sample_id, struct hq_err *e)
{
	sqlite3_stmt *st = stmt(ig, ST_CORR_MEMBER, e);

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, corr_id);
	sqlite3_bind_int64(st, 2, sample_id);
	return run(ig, st, "linking a correlation", e);
}

int
hq_ingest_workout(struct hq_ingest *ig, const struct hq_ingest_group *g,
    int64_t *id, struct hq_err *e)
{
	sqlite3_stmt *st;
	int64_t sid = source_id(ig, g->source ? g->source : "unknown", e), did;

	if (sid < 0 || (did = device_id(ig, g->device, e)) < 0 ||
	    !(st = stmt(ig, ST_WORKOUT, e)))
		return -1;
	ig->c.workouts++;
	sqlite3_bind_text(st, 1, g->type, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, sid);
	sqlite3_bind_int64(st, 3, g->start);
	sqlite3_bind_int64(st, 4, g->end);
	bind_num(st, 5, g->duration);
	bind_num(st, 6, g->distance);
	bind_num(st, 7, g->energy);
	if (did)
		sqlite3_bind_int64(st, 8, did);
	bind_text(st, 9, g->source_version);
	bind_time(st, 10, g->created);
	sqlite3_bind_int(st, 11, g->offset_min);
	sqlite3_bind_int64(st, 12, ig->import_id);
	if (run(ig, st, "adding a workout", e))
		return -1;
	if (sqlite3_changes(ig->db) > 0) {
		ig->c.workouts_inserted++;
		*id = sqlite3_last_insert_rowid(ig->db);
		return 1;
	}
	if (!(st = stmt(ig, ST_WORKOUT_ID, e)))
		return -1;
	sqlite3_bind_text(st, 1, g->type, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, sid);
	sqlite3_bind_int64(st, 3, g->start);
	sqlite3_bind_int64(st, 4, g->end);
	*id = query_id(ig, st, e);
	return *id < 0 ? -1 : 0;
}

int
hq_ingest_workout_totals(struct hq_ingest *ig, int64_t workout_id,
    double distance, double energy, struct hq_err *e)
{
	sqlite3_stmt *st = stmt(ig, ST_WORKOUT_TOTALS, e);

	if (!st)
		return -1;
	bind_num(st, 1, distance);
	bind_num(st, 2, energy);
	sqlite3_bind_int64(st, 3, workout_id);
	return run(ig, st, "adding workout totals", e);
}

int
hq_ingest_workout_meta(struct hq_ingest *ig, int64_t workout_id,
    const char *activity_uuid, const char *key, const char *value,
    struct hq_err *e)
{
	sqlite3_stmt *st = stmt(ig, ST_WORKOUT_META, e);

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, workout_id);
	bind_text(st, 2, activity_uuid);
	sqlite3_bind_text(st, 3, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, value ? value : "", -1, SQLITE_STATIC);
	return run(ig, st, "adding workout metadata", e);
}

int
hq_ingest_workout_activity(struct hq_ingest *ig, int64_t workout_id,
    const char *uuid, const char *type, int64_t start, int64_t end,
    double duration, struct hq_err *e)
{
	sqlite3_stmt *st = stmt(ig, ST_WORKOUT_ACTIVITY, e);

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, workout_id);
	sqlite3_bind_text(st, 2, uuid, -1, SQLITE_STATIC);
	bind_text(st, 3, type);
	sqlite3_bind_int64(st, 4, start);
	bind_time(st, 5, end);
	bind_num(st, 6, duration);
	return run(ig, st, "adding a workout activity", e);
}

int
hq_ingest_workout_stat(struct hq_ingest *ig, int64_t workout_id,
    const struct hq_ingest_stat *s, struct hq_err *e)
{
	const struct hq_metric_info *info = hq_catalog_by_identifier(s->type);
	double v[4] = { s->sum, s->average, s->minimum, s->maximum };
	int64_t mid = hq_store_metric_id(ig->s, s->type, 1, e);
	sqlite3_stmt *st;

	if (mid < 0 || !(st = stmt(ig, ST_WORKOUT_STAT, e)))
		return -1;
	/* Values in the metric's canonical unit, like samples. */
	if (info && info->unit && s->unit)
		for (int i = 0; i < 4; i++)
			if (!isnan(v[i]))
				hq_unit_convert(v[i], s->unit, info->unit, &v[i]);
	sqlite3_bind_int64(st, 1, workout_id);
	bind_text(st, 2, s->activity_uuid);
	sqlite3_bind_int64(st, 3, mid);
	bind_time(st, 4, s->start);
	bind_time(st, 5, s->end);
	for (int i = 0; i < 4; i++)
		bind_num(st, 6 + i, v[i]);
	bind_text(st, 10, s->unit);
	if (run(ig, st, "adding a workout statistic", e))
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
	sqlite3_stmt *st = stmt(ig, ST_WORKOUT_EVENT, e);

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, workout_id);
	bind_text(st, 2, activity_uuid);
	sqlite3_bind_text(st, 3, type, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, date);
	bind_num(st, 5, duration);
	return run(ig, st, "adding a workout event", e);
}

int64_t
hq_ingest_route(struct hq_ingest *ig, int64_t workout_id, const char *source,
    int64_t start, int64_t end, const char *file, struct hq_err *e)
{
	sqlite3_stmt *st;
	int64_t sid = source ? source_id(ig, source, e) : 0;

	if (sid < 0 || !(st = stmt(ig, ST_ROUTE, e)))
		return -1;
	sqlite3_bind_int64(st, 1, workout_id);
	if (sid)
		sqlite3_bind_int64(st, 2, sid);
	bind_time(st, 3, start);
	bind_time(st, 4, end);
	bind_text(st, 5, file);
	if (run(ig, st, "adding a route", e))
		return -1;
	ig->c.routes++;
	return sqlite3_last_insert_rowid(ig->db);
}

int
hq_ingest_route_point(struct hq_ingest *ig, int64_t route_id, int seq,
    const struct hq_route_point *p, struct hq_err *e)
{
	sqlite3_stmt *st = stmt(ig, ST_ROUTE_POINT, e);

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, route_id);
	sqlite3_bind_int(st, 2, seq);
	bind_time(st, 3, p->time);
	sqlite3_bind_double(st, 4, p->lat);
	sqlite3_bind_double(st, 5, p->lon);
	bind_num(st, 6, p->ele);
	bind_num(st, 7, p->h_acc);
	bind_num(st, 8, p->v_acc);
	bind_num(st, 9, p->course);
	bind_num(st, 10, p->speed);
	ig->c.route_points++;
	return run(ig, st, "adding a route point", e);
}

int
hq_ingest_route_file(struct hq_ingest *ig, int64_t route_id, const char *file,
    struct hq_err *e)
{
	sqlite3_stmt *st = stmt(ig, ST_ROUTE_FILE, e);

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, file, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, route_id);
	return run(ig, st, "adding a route file", e);
}

int
hq_ingest_routes_for_file(struct hq_ingest *ig, const char *file,
    int64_t *ids, int max, struct hq_err *e)
{
	sqlite3_stmt *st = stmt(ig, ST_ROUTES_FOR_FILE, e);
	int n = 0, rc;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, file, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (n < max)
			ids[n++] = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE)
		return db_err(ig, e, "finding routes");
	return n;
}

int
hq_ingest_route_span(struct hq_ingest *ig, int64_t route_id, int64_t start,
    int64_t end, struct hq_err *e)
{
	sqlite3_stmt *st = stmt(ig, ST_ROUTE_SPAN, e);

	if (!st)
		return -1;
	bind_time(st, 1, start);
	bind_time(st, 2, end);
	sqlite3_bind_int64(st, 3, route_id);
	return run(ig, st, "updating a route", e);
}

int
hq_ingest_activity_summary(struct hq_ingest *ig,
    const struct hq_ingest_summary *a, struct hq_err *e)
{
	sqlite3_stmt *st = stmt(ig, ST_SUMMARY, e);

	if (!st)
		return -1;
	ig->c.summaries++;
	sqlite3_bind_text(st, 1, a->date, -1, SQLITE_STATIC);
	bind_num(st, 2, a->active_energy);
	bind_num(st, 3, a->active_energy_goal);
	bind_text(st, 4, a->active_energy_unit);
	bind_num(st, 5, a->move_time);
	bind_num(st, 6, a->move_time_goal);
	bind_num(st, 7, a->exercise_time);
	bind_num(st, 8, a->exercise_time_goal);
	bind_num(st, 9, a->stand_hours);
	bind_num(st, 10, a->stand_hours_goal);
	sqlite3_bind_int64(st, 11, ig->import_id);
	if (run(ig, st, "adding an activity summary", e))
		return -1;
	return sqlite3_changes(ig->db) > 0;
}

int
hq_ingest_clinical_record(struct hq_ingest *ig,
    const struct hq_ingest_clinical *c, struct hq_err *e)
{
	sqlite3_stmt *st;
	int64_t sid = c->source ? source_id(ig, c->source, e) : 0;

	if (sid < 0 || !(st = stmt(ig, ST_CLINICAL, e)))
		return -1;
	ig->c.clinical++;
	sqlite3_bind_text(st, 1, c->type, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, c->identifier, -1, SQLITE_STATIC);
	if (sid)
		sqlite3_bind_int64(st, 3, sid);
	bind_text(st, 4, c->source_url);
	bind_text(st, 5, c->fhir_version);
	bind_time(st, 6, c->received);
	bind_text(st, 7, c->resource_path);
	sqlite3_bind_int64(st, 8, ig->import_id);
	if (run(ig, st, "adding a clinical record", e))
		return -1;
	return sqlite3_changes(ig->db) > 0;
}

int
hq_ingest_clinical_resource(struct hq_ingest *ig, const char *path,
    const char *json, struct hq_err *e)
{
	sqlite3_stmt *st = stmt(ig, ST_CLINICAL_RESOURCE, e);

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, json, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, path, -1, SQLITE_STATIC);
	if (run(ig, st, "attaching a clinical resource", e))
		return -1;
	return sqlite3_changes(ig->db);
}

int
hq_ingest_me(struct hq_ingest *ig, const char *key, const char *value,
    struct hq_err *e)
{
	sqlite3_stmt *st = stmt(ig, ST_ME, e);

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, value ? value : "", -1, SQLITE_STATIC);
	return run(ig, st, "recording Me", e);
}

/* --- JSON lines ---------------------------------------------------- */

static const char *
json_string(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* A time field: a string in any form hq_time_parse takes, or epoch
 * seconds. 0, or -1 when absent or bad (why in e). */
static int
json_time(const cJSON *o, const char *key, int64_t *t, struct hq_err *e)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (cJSON_IsNumber(v) && isfinite(v->valuedouble) &&
	    fabs(v->valuedouble) < 1e11) {
		*t = (int64_t)v->valuedouble;
		return 0;
	}
	if (cJSON_IsString(v) && hq_time_parse(v->valuestring, t) == 0)
		return 0;
	if (!v)
		hq_err_set(e, "no \"%s\"", key);
	else
		hq_err_set(e, "\"%s\" is not a date", key);
	return -1;
}

/* One line: 1 inserted, 0 duplicate, 2 skipped (e says why), -1. */
static int
jsonl_line(struct hq_ingest *ig, const char *line, struct hq_err *e)
{
	struct hq_ingest_record r = { 0 };
	cJSON *o = cJSON_Parse(line);
	const cJSON *v;
	int rc = 2;

	if (!cJSON_IsObject(o)) {
		hq_err_set(e, "not a JSON object");
		ig->c.records++;
		ig->c.skipped++;
		cJSON_Delete(o);
		return 2;
	}
	r.type = json_string(o, "metric");
	r.by_name = 1;
	r.unit = json_string(o, "unit");
	r.source = json_string(o, "source");
	r.source_version = json_string(o, "source_version");
	r.device = json_string(o, "device");
	r.text = json_string(o, "text");
	v = cJSON_GetObjectItemCaseSensitive(o, "value");
	if (cJSON_IsNumber(v)) {
		r.value_num = v->valuedouble;
		r.has_value = 1;
	} else if (cJSON_IsString(v))
		r.value_str = v->valuestring;
	if (!r.source)
		r.source = "jsonl";
	if (!r.type) {
		hq_err_set(e, "no \"metric\"");
		goto skip;
	}
	if (json_time(o, "start", &r.start, e))
		goto skip;
	if (cJSON_GetObjectItemCaseSensitive(o, "end")) {
		if (json_time(o, "end", &r.end, e))
			goto skip;
	} else
		r.end = r.start;
	rc = hq_ingest_record(ig, &r, NULL, e);
	cJSON_Delete(o);
	return rc;
skip:
	ig->c.records++;
	ig->c.skipped++;
	cJSON_Delete(o);
	return 2;
}

/* The longest line taken; a longer one is a bad line. */
#define JSONL_MAX_LINE (1 << 20)

int
hq_ingest_jsonl(struct hq_ingest *ig, struct hq_src *src,
    hq_ingest_warn_fn *warn, void *warn_arg, struct hq_err *e)
{
	struct hq_buf line = { 0 };
	char buf[65536];
	long lineno = 0;
	int toolong = 0, status = 0;
	ssize_t n;

	for (;;) {
		n = hq_src_read(src, buf, sizeof buf);
		if (n < 0) {
			hq_err_set(e, "%s: %s", src->name, strerror(errno));
			status = -1;
			break;
		}
		size_t i = 0, len = (size_t)n;
		while (i < len || (n == 0 && (line.len || toolong))) {
			char *nl = n ? memchr(buf + i, '\n', len - i) : NULL;
			size_t k = nl ? (size_t)(nl - (buf + i)) : len - i;
			if (!toolong) {
				if (line.len + k > JSONL_MAX_LINE)
					toolong = 1;
				else
					hq_buf_append(&line, buf + i, k);
			}
			i += k + (nl ? 1 : 0);
			if (!nl && n)
				break;  /* the line goes on in the next read */
			lineno++;
			struct hq_err le;
			int rc;
			char *p = line.data ? line.data : "";
			while (*p == ' ' || *p == '\t' || *p == '\r')
				p++;
			if (toolong) {
				hq_err_set(&le, "line longer than %d bytes",
				    JSONL_MAX_LINE);
				ig->c.records++;
				ig->c.skipped++;
				rc = 2;
			} else if (!*p)
				rc = 3;   /* blank */
			else
				rc = jsonl_line(ig, p, &le);
			toolong = 0;
			hq_buf_reset(&line);
			/* A script's output is all right or it is a bug: a bad
			 * line rejects the whole file, which is never half
			 * imported (unlike a quirk in Apple's own export). */
			if (rc < 0 || rc == 2) {
				hq_err_set(e, "%s:%ld: %s; nothing from this file "
				    "was imported", src->name, lineno, le.msg);
				status = -1;
				goto out;
			}
			hq_ingest_tick(ig, src);
		}
		if (n == 0)
			break;
	}
out:
	hq_buf_free(&line);
	return status;
}
