#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/catalog.h"
#include "hq/list.h"
#include "hq/rowdesc.h"
#include "hq/time.h"
#include "hq/workout.h"

/* ---- one row ------------------------------------------------------------ */

/* Names read from a statement's first column, in order. */
struct names {
	char **v;
	size_t n;
};

static void
names_free(struct names *nm)
{
	for (size_t i = 0; i < nm->n; i++)
		free(nm->v[i]);
	free(nm->v);
	memset(nm, 0, sizeof *nm);
}

/* The text of column 0 of every row of st, bound to v (may be NULL). */
static int
names_read(sqlite3_stmt *st, const struct hq_bind *v, struct names *nm,
    struct hq_err *e)
{
	int rc;

	names_free(nm);
	sqlite3_reset(st);
	if (v)
		hq_store_bind(st, v);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *t = sqlite3_column_text(st, 0);
		if (!t)
			continue;
		nm->v = hq_xrealloc(nm->v, (nm->n + 1) * sizeof *nm->v);
		nm->v[nm->n++] = hq_xstrdup((const char *)t);
	}
	if (rc != SQLITE_DONE) {
		hq_err_set(e, "reading source names: %s",
		    sqlite3_errmsg(sqlite3_db_handle(st)));
		return -1;
	}
	return 0;
}

struct row {
	const char *metric, *identifier, *kind, *unit, *type;
	int64_t count;
	int64_t first, last;     /* UTC */
	int times;               /* first and last are known */
	const struct names *sources;
};

/* On a table, a type of workout or route beside its name: "workout
 * (running)". */
static int
metric_text(const void *row, char *buf, size_t n)
{
	const struct row *r = row;

	if (r->type)
		snprintf(buf, n < 256 ? n : 256, "%s (%s)", r->metric, r->type);
	else
		snprintf(buf, n, "%s", r->metric);
	return 0;
}

/* first and last: local times for scripts, dates on a table; null when
 * not known. */
static int
time_text(int64_t t, int known, int table, char *buf, size_t n)
{
	if (!known)
		return -1;
	n = n < 40 ? n : 40;
	if (table)
		hq_time_format_date(t, buf, n);
	else
		hq_time_format_local(t, buf, n);
	return 0;
}

#define TIME_TEXT(name, field, table) static int \
name(const void *row, char *buf, size_t n) \
{ \
	const struct row *r = row; \
	return time_text(r->field, r->times, table, buf, n); \
}
TIME_TEXT(first_date, first, 1)
TIME_TEXT(last_date, last, 1)
TIME_TEXT(first_time, first, 0)
TIME_TEXT(last_time, last, 0)

static void
put_sources(struct hq_out *out, const char *key, const void *row)
{
	const struct names *s = ((const struct row *)row)->sources;

	hq_out_strv(out, key, s ? (const char *const *)s->v : NULL, s ? s->n : 0);
}

/* A row of the list: what a table has room for gives way from the
 * identifier on. */
#define ROW(k, t, f) HQ_COL_AT(k, t, struct row, f)
static const struct hq_col cols[] = {
	{ HQ_COL_FN("metric", metric_text), .in = HQ_COL_TABLE },
	{ ROW("metric", HQ_COL_STR, metric), .in = HQ_COL_DATA },
	{ ROW("identifier", HQ_COL_STR, identifier), .fit = { .drop = 1 } },
	{ ROW("kind", HQ_COL_STR, kind), .fit = { .drop = 2 } },
	{ ROW("unit", HQ_COL_STR, unit) },
	{ ROW("count", HQ_COL_INT64, count) },
	{ HQ_COL_FN("first", first_date), .in = HQ_COL_TABLE },
	{ HQ_COL_FN("first", first_time), .in = HQ_COL_DATA },
	{ HQ_COL_FN("last", last_date), .in = HQ_COL_TABLE },
	{ HQ_COL_FN("last", last_time), .in = HQ_COL_DATA },
	{ HQ_COL_P("sources", put_sources), .fit = { .drop = 3, .min_width = 12 } },
	{ ROW("type", HQ_COL_STR, type), .in = HQ_COL_DATA },
	{ .key = NULL },
};

static void
put_row(struct hq_out *out, const struct row *r)
{
	hq_out_row(out, cols, r);
}

static int
db_error(struct hq_store *s, const char *what, struct hq_err *e)
{
	hq_err_set(e, "%s: listing %s: %s", hq_store_filename(s), what,
	    sqlite3_errmsg(hq_store_db(s)));
	return -1;
}

/* ---- the kinds of data -------------------------------------------------- */

/* The nights sleep analysis makes, counted as they come (none held). */
struct night_span {
	int64_t n, first, last;
};

static int
count_night(void *ctx, const struct hq_series *sr, const struct hq_row *r,
    struct hq_err *e)
{
	struct night_span *ns = ctx;

	(void)sr;
	(void)e;
	if (ns->n++ == 0)
		ns->first = r->start;
	ns->last = r->end;
	return 0;
}

/* The row for the nights that sleep analysis makes: how many, from the
 * first to the last. 1, 0 when there are none, -1. */
static int
list_nights(struct hq_store *s, const struct names *sources,
    struct hq_out *out, struct hq_err *e)
{
	struct hq_query q = {0};
	struct hq_series sr;
	struct night_span ns = {0};

	if (hq_query_resolve(s, "sleep", &q.metric, e))
		return -1;
	q.from = INT64_MIN;
	q.to = INT64_MAX;
	if (hq_query_each(s, &q, count_night, &ns, &sr, e))
		return -1;
	hq_series_free(&sr);
	if (ns.n > 0)
		put_row(out, &(struct row){ .metric = "sleep",
		    .identifier = q.metric.identifier,
		    .kind = hq_catalog_kind_name(HQ_KIND_SLEEP),
		    .unit = q.metric.unit, .count = ns.n,
		    .first = ns.first, .last = ns.last,
		    .times = 1, .sources = sources });
	return ns.n > 0;
}

/* Every metric with samples, by identifier. */
static long
list_metrics(struct hq_store *s, struct hq_out *out, struct hq_err *e)
{
	sqlite3_stmt *st, *src = NULL;
	struct names sources = {0};
	long rows = 0;
	int rc;

	/* A pruned store: its samples and what the pruned ones were
	 * (HQ_STORE_PRUNED_METRIC), the archive not read. */
	int summed = hq_store_pruned_summed(s, e);

	if (summed < 0 || hq_store_prepare(s, summed ?
	    "SELECT m.identifier, x.n, x.first, x.last, x.unit, m.id "
	    "FROM metric m JOIN (SELECT metric_id, sum(n) AS n, min(first) AS first, "
	    "  max(last) AS last, max(unit) AS unit FROM (SELECT metric_id, "
	    "  count(*) AS n, min(start) AS first, max(end) AS last, max(unit) AS unit "
	    "  FROM main.sample GROUP BY metric_id UNION ALL SELECT metric_id, n, "
	    "  first, last, unit FROM main." HQ_STORE_PRUNED_METRIC ") GROUP BY "
	    "  metric_id) x ON x.metric_id = m.id ORDER BY m.identifier" :
	    "SELECT m.identifier, x.n, x.first, x.last, x.unit, m.id "
	    "FROM metric m JOIN (SELECT metric_id, count(*) AS n, min(start) AS first, "
	    "  max(end) AS last, max(unit) AS unit FROM sample GROUP BY metric_id) x "
	    "  ON x.metric_id = m.id ORDER BY m.identifier", &st, e))
		return -1;
	if (hq_store_prepare(s, summed ? "SELECT so.name FROM source so WHERE "
	    "so.id IN (SELECT source_id FROM main.sample WHERE metric_id = ?1 "
	    "UNION SELECT source_id FROM main." HQ_STORE_PRUNED_METRIC " WHERE "
	    "metric_id = ?1) ORDER BY so.name" :
	    "SELECT so.name FROM source so WHERE so.id IN "
	    "(SELECT DISTINCT source_id FROM sample WHERE metric_id = ?) "
	    "ORDER BY so.name", &src, e)) {
		sqlite3_finalize(st);
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *id = (const char *)sqlite3_column_text(st, 0);
		const struct hq_metric_info *info = hq_catalog_by_identifier(id);
		const char *unit = (const char *)sqlite3_column_text(st, 4);
		char snake[128];
		enum hq_kind kind;

		if (!info)
			info = hq_catalog_lookup(id);
		if (info) {
			snprintf(snake, sizeof snake, "%s", info->name);
			kind = info->kind;
			if (info->unit)
				unit = info->unit;
		} else {
			hq_catalog_snake(id, snake, sizeof snake);
			kind = hq_catalog_guess_kind(id);
		}
		if (names_read(src, (struct hq_bind[]){
		    HQ_INT(sqlite3_column_int64(st, 5)), HQ_END }, &sources, e)) {
			rows = -1;
			break;
		}
		put_row(out, &(struct row){ .metric = snake, .identifier = id,
		    .kind = hq_catalog_kind_name(kind),
		    .unit = kind == HQ_KIND_CATEGORY ?
		    hq_catalog_category_unit(snake) : unit,
		    .count = sqlite3_column_int64(st, 1),
		    .first = sqlite3_column_int64(st, 2),
		    .last = sqlite3_column_int64(st, 3), .times = 1,
		    .sources = &sources });
		rows++;
		if (info && strcmp(info->name, "sleep_analysis") == 0) {
			int n = list_nights(s, &sources, out, e);
			if (n < 0) {
				rows = -1;
				break;
			}
			rows += n;
		}
	}
	if (rows >= 0 && rc != SQLITE_DONE)
		rows = db_error(s, "metrics", e);
	sqlite3_finalize(st);
	sqlite3_finalize(src);
	names_free(&sources);
	return rows;
}

/*
 * Rows of a thing that has types (workouts, routes, clinical records):
 * group is a statement giving, per type, the type's identifier, count,
 * first, last (NULL when unknown); sources one giving the names of the
 * sources of the type bound as ?1. name_of turns an identifier into the
 * type people type (NULL: hq_catalog_snake).
 */
static long
list_typed(struct hq_store *s, const char *group_sql, const char *sources_sql,
    const char *metric, const char *kind, const char *unit,
    void (*name_of)(const char *, char *, size_t), const char *what,
    struct hq_out *out, struct hq_err *e)
{
	sqlite3_stmt *st, *src = NULL;
	struct names sources = {0};
	long rows = 0;
	int rc;

	if (hq_store_prepare(s, group_sql, &st, e))
		return -1;
	if (hq_store_prepare(s, sources_sql, &src, e)) {
		sqlite3_finalize(st);
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *id = (const char *)sqlite3_column_text(st, 0);
		char type[128];

		if (!id)
			id = "";
		if (name_of)
			name_of(id, type, sizeof type);
		else
			hq_catalog_snake(id, type, sizeof type);
		if (names_read(src, (struct hq_bind[]){ HQ_TEXT(id), HQ_END },
		    &sources, e)) {
			rows = -1;
			break;
		}
		put_row(out, &(struct row){ .metric = metric, .identifier = id,
		    .kind = kind, .unit = unit, .type = type,
		    .count = sqlite3_column_int64(st, 1),
		    .first = sqlite3_column_int64(st, 2),
		    .last = sqlite3_column_int64(st, 3),
		    .times = sqlite3_column_type(st, 2) != SQLITE_NULL,
		    .sources = &sources });
		rows++;
	}
	if (rows >= 0 && rc != SQLITE_DONE)
		rows = db_error(s, what, e);
	sqlite3_finalize(st);
	sqlite3_finalize(src);
	names_free(&sources);
	return rows;
}

static long
list_workouts(struct hq_store *s, struct hq_out *out, struct hq_err *e)
{
	return list_typed(s,
	    "SELECT activity_type, count(*), min(start), max(end) FROM workout "
	    "GROUP BY activity_type ORDER BY activity_type",
	    "SELECT so.name FROM source so WHERE so.id IN (SELECT DISTINCT "
	    "source_id FROM workout WHERE activity_type = ?1) ORDER BY so.name",
	    "workouts", "workout", NULL, hq_workout_type_name, "workouts", out, e);
}

/* Routes by the type of their workout; count is their points. */
static long
list_routes(struct hq_store *s, struct hq_out *out, struct hq_err *e)
{
	/* a pruned store's: the points it has and those pruned (store.h) */
	int summed = hq_store_pruned_summed(s, e);

	if (summed < 0)
		return -1;
	return list_typed(s, summed ?
	    "SELECT w.activity_type, sum((SELECT count(*) FROM main.route_point p "
	    "  WHERE p.route_id = r.id) + coalesce((SELECT points FROM main."
	    HQ_STORE_PRUNED_ROUTE " WHERE route_id = r.id), 0)), "
	    "  min(coalesce(r.start, w.start)), max(coalesce(r.end, w.end)) "
	    "FROM route r JOIN workout w ON w.id = r.workout_id "
	    "GROUP BY w.activity_type ORDER BY w.activity_type" :
	    "SELECT w.activity_type, sum((SELECT count(*) FROM route_point p "
	    "  WHERE p.route_id = r.id)), min(coalesce(r.start, w.start)), "
	    "  max(coalesce(r.end, w.end)) "
	    "FROM route r JOIN workout w ON w.id = r.workout_id "
	    "GROUP BY w.activity_type ORDER BY w.activity_type",
	    "SELECT so.name FROM source so WHERE so.id IN (SELECT DISTINCT "
	    "coalesce(r.source_id, w.source_id) FROM route r JOIN workout w "
	    "ON w.id = r.workout_id WHERE w.activity_type = ?1) ORDER BY so.name",
	    "routes", "route", "points", hq_workout_type_name, "routes", out, e);
}

/* "HKClinicalTypeIdentifierLabResultRecord" → "lab_result" */
static void
clinical_type_name(const char *identifier, char *buf, size_t n)
{
	static const char prefix[] = "HKClinicalTypeIdentifier";
	size_t len;

	if (strncmp(identifier, prefix, sizeof prefix - 1) == 0 &&
	    identifier[sizeof prefix - 1])
		identifier += sizeof prefix - 1;
	hq_catalog_snake(identifier, buf, n);
	len = strlen(buf);
	if (len > 7 && strcmp(buf + len - 7, "_record") == 0)
		buf[len - 7] = '\0';
}

static long
list_clinical(struct hq_store *s, struct hq_out *out, struct hq_err *e)
{
	return list_typed(s,
	    "SELECT type, count(*), min(received), max(received) FROM clinical_record "
	    "GROUP BY type ORDER BY type",
	    "SELECT so.name FROM source so WHERE so.id IN (SELECT DISTINCT "
	    "source_id FROM clinical_record WHERE type = ?1) ORDER BY so.name",
	    "clinical_records", "clinical", NULL, clinical_type_name,
	    "clinical records", out, e);
}

/* Activity summaries: one a day, dated by the export (YYYY-MM-DD). */
static long
list_summaries(struct hq_store *s, struct hq_out *out, struct hq_err *e)
{
	sqlite3_stmt *st;
	long rows = 0;
	int64_t first, last;

	if (hq_store_prepare(s, "SELECT count(*), min(date), max(date) FROM "
	    "activity_summary", &st, e))
		return -1;
	if (sqlite3_step(st) != SQLITE_ROW) {
		rows = db_error(s, "activity summaries", e);
	} else if (sqlite3_column_int64(st, 0) > 0) {
		const char *a = (const char *)sqlite3_column_text(st, 1);
		const char *b = (const char *)sqlite3_column_text(st, 2);
		/* Dates are local calendar days: midnight of each, here. */
		int times = a && b && hq_time_parse(a, &first) == 0 &&
		    hq_time_parse(b, &last) == 0;
		put_row(out, &(struct row){ .metric = "activity_summaries",
		    .identifier = "ActivitySummary", .kind = "summary",
		    .unit = "days", .count = sqlite3_column_int64(st, 0),
		    .first = first, .last = last, .times = times });
		rows = 1;
	}
	sqlite3_finalize(st);
	return rows;
}

/* The characteristics (Me: date of birth, sex, blood type...). */
static long
list_me(struct hq_store *s, struct hq_out *out, struct hq_err *e)
{
	sqlite3_stmt *st;
	long rows = 0;

	if (hq_store_prepare(s, "SELECT count(*) FROM me", &st, e))
		return -1;
	if (sqlite3_step(st) != SQLITE_ROW) {
		rows = db_error(s, "characteristics", e);
	} else if (sqlite3_column_int64(st, 0) > 0) {
		put_row(out, &(struct row){ .metric = "characteristics",
		    .identifier = "Me", .kind = "characteristic",
		    .count = sqlite3_column_int64(st, 0) });
		rows = 1;
	}
	sqlite3_finalize(st);
	return rows;
}

/* Reports (report.h): lab results and DEXA scans, a row each kind, as
 * hq-report asks for them (hq-report latest labs, compare dexa). count is
 * the results in force (not superseded) or the scans; first and last the
 * local dates they are of. */
static long
list_reports(struct hq_store *s, struct hq_out *out, struct hq_err *e)
{
	static const struct {
		const char *kind, *identifier, *unit, *count_sql;
	} kinds[] = {
		{ "labs", "lab_result", "results",
		  "SELECT count(*), min(l.date), max(l.date) FROM lab_result l "
		  "WHERE l.superseded_by IS NULL" },
		{ "dexa", "dexa", "scans",
		  "SELECT count(*), min(date), max(date) FROM report WHERE kind = 'dexa' "
		  "AND EXISTS (SELECT 1 FROM dexa_value v WHERE v.report_id = report.id)" },
	};
	struct names sources = {0};
	sqlite3_stmt *st = NULL, *src = NULL;
	long rows = 0;

	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0] && rows >= 0; i++) {
		if (hq_store_prepare(s, kinds[i].count_sql, &st, e) ||
		    hq_store_prepare(s, "SELECT DISTINCT source FROM report WHERE kind = ?1 "
		    "AND source != '' ORDER BY source", &src, e)) {
			rows = -1;
			break;
		}
		if (sqlite3_step(st) != SQLITE_ROW) {
			rows = db_error(s, "reports", e);
		} else if (sqlite3_column_int64(st, 0) > 0) {
			const char *a = (const char *)sqlite3_column_text(st, 1);
			const char *b = (const char *)sqlite3_column_text(st, 2);
			int64_t first = 0, last = 0;
			int times = a && b && hq_time_parse(a, &first) == 0 &&
			    hq_time_parse(b, &last) == 0;
			if (names_read(src, (struct hq_bind[]){ HQ_TEXT(kinds[i].kind),
			    HQ_END }, &sources, e)) {
				rows = -1;
			} else {
				put_row(out, &(struct row){ .metric = kinds[i].kind,
				    .identifier = kinds[i].identifier, .kind = "report",
				    .unit = kinds[i].unit,
				    .count = sqlite3_column_int64(st, 0),
				    .first = first, .last = last, .times = times,
				    .sources = &sources });
				rows++;
			}
		}
		sqlite3_finalize(st);
		sqlite3_finalize(src);
		st = src = NULL;
	}
	names_free(&sources);
	return rows;
}

/* Every kind of data, in the order --list shows them: a new kind is a
 * function above and a line here. */
static long (*const lister[])(struct hq_store *, struct hq_out *,
    struct hq_err *) = {
	list_metrics, list_workouts, list_routes, list_summaries, list_clinical,
	list_reports, list_me,
};

long
hq_list_run(struct hq_store *s, struct hq_out *out, struct hq_err *e)
{
	long rows = 0;

	hq_out_fit_cols(out, cols);
	for (size_t i = 0; i < sizeof lister / sizeof lister[0]; i++) {
		long n = lister[i](s, out, e);
		if (n < 0)
			return -1;
		rows += n;
	}
	return rows;
}

/* ---- one metric's extent ------------------------------------------------ */

int
hq_list_extent(struct hq_store *s, const struct hq_metric_ref *m,
    int64_t from, int64_t to, struct hq_list_extent *x, struct hq_err *e)
{
	sqlite3_stmt *st;
	int64_t id;
	int rc;

	memset(x, 0, sizeof *x);
	if ((id = hq_store_metric_id(s, m->identifier, 0, e)) <= 0)
		return id < 0 ? -1 : 0;
	/* Each a look-up in the index on (metric_id, start), never a scan of
	 * the metric's samples. */
	if (hq_store_prepare(s,
	    "SELECT (SELECT min(start) FROM sample WHERE metric_id = ?1), "
	    "  (SELECT max(start) FROM sample WHERE metric_id = ?1), "
	    "  (SELECT count(*) FROM sample WHERE metric_id = ?1 "
	    "    AND start >= ?2 AND start < ?3)", &st, e))
		return -1;
	hq_store_bind(st, (struct hq_bind[]){ HQ_INT(id), HQ_INT(from), HQ_INT(to),
	    HQ_END });
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
		x->any = 1;
		x->first = sqlite3_column_int64(st, 0);
		x->last = sqlite3_column_int64(st, 1);
		x->n_range = sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW) {
		hq_err_set(e, "%s: reading %s: %s", hq_store_filename(s), m->name,
		    sqlite3_errmsg(hq_store_db(s)));
		return -1;
	}
	return 0;
}
