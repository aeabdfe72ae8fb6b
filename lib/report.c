#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hq/buf.h"
#include "hq/catalog.h"
#include "hq/fhir.h"
#include "hq/jsonin.h"
#include "hq/report.h"
#include "hq/time.h"

/* ------------------------------------------------------------------ */
/* Writing                                                              */

enum {
	W_REPORT_FIND, W_REPORT_ADD, W_LAB_SAME, W_LAB_AMENDED, W_LAB_ADD,
	W_LAB_SUPERSEDE, W_LAB_RETRACT, W_DEXA_FIND, W_DEXA_SOURCE, W_DEXA_OLD,
	W_DEXA_PUT, NW
};

/* "The same time": equal instants, or the same date when either result
 * was given as a date only (?date ?time ?has_time). */
#define SAME_TIME "date = ?2 AND (time = ?3 OR has_time = 0 OR ?4 = 0)"

static const char *const wsql[NW] = {
	[W_REPORT_FIND] = "SELECT id FROM report WHERE kind = ?1 AND date = ?2 "
	    "AND source = ?3",
	[W_REPORT_ADD] = "INSERT INTO report(kind, date, source, time, import_id) "
	    "VALUES (?1, ?2, ?3, ?4, ?5)",
	[W_LAB_SAME] = "SELECT id FROM lab_result WHERE test = ?1 AND " SAME_TIME
	    " AND unit = ?5 AND comparator = ?6 AND value IS ?7 AND text = ?8 "
	    "LIMIT 1",
	[W_LAB_AMENDED] = "SELECT id FROM lab_result WHERE test = ?1 AND "
	    SAME_TIME " AND status IN ('amended', 'corrected') AND "
	    "superseded_by IS NULL AND (resource_id = '' OR ?5 = '' OR "
	    "resource_id = ?5) ORDER BY id DESC LIMIT 1",
	[W_LAB_ADD] = "INSERT INTO lab_result(report_id, test, name, loinc, time, "
	    "has_time, date, value, comparator, text, unit, ref_low, ref_high, "
	    "ref_text, lab_flag, resource_id, status, superseded_by, "
	    "clinical_record_id, import_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, "
	    "?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)",
	[W_LAB_SUPERSEDE] = "UPDATE lab_result SET superseded_by = ?6 WHERE "
	    "test = ?1 AND " SAME_TIME " AND id != ?6 AND superseded_by IS NULL "
	    "AND (resource_id = '' OR ?5 = '' OR resource_id = ?5)",
	[W_LAB_RETRACT] = "UPDATE lab_result SET superseded_by = -1 WHERE "
	    "resource_id = ?1 AND superseded_by IS NULL AND report_id IN "
	    "(SELECT id FROM report WHERE kind = 'labs' AND source = ?2)",
	[W_DEXA_FIND] = "SELECT id, source FROM report WHERE kind = 'dexa' AND "
	    "date = ?1 AND (source = ?2 OR source = '' OR ?2 = '') "
	    "ORDER BY source = ?2 DESC, id LIMIT 1",
	[W_DEXA_SOURCE] = "UPDATE report SET source = ?2 WHERE id = ?1",
	[W_DEXA_OLD] = "SELECT value FROM dexa_value WHERE report_id = ?1 AND "
	    "field = ?2",
	[W_DEXA_PUT] = "INSERT INTO dexa_value(report_id, field, value, unit, "
	    "import_id) VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT(report_id, field) "
	    "DO UPDATE SET value = excluded.value, unit = excluded.unit, "
	    "import_id = excluded.import_id",
};

struct hq_report_writer {
	struct hq_store *store;
	int64_t import_id;
	sqlite3_stmt *st[NW];
	struct hq_report_counts c;
};

struct hq_report_writer *
hq_report_writer_new(struct hq_store *s, int64_t import_id)
{
	struct hq_report_writer *w = hq_xcalloc(1, sizeof *w);

	w->store = s;
	w->import_id = import_id;
	return w;
}

void
hq_report_writer_free(struct hq_report_writer *w)
{
	if (!w)
		return;
	for (int i = 0; i < NW; i++)
		sqlite3_finalize(w->st[i]);
	free(w);
}

const struct hq_report_counts *
hq_report_writer_counts(const struct hq_report_writer *w)
{
	return &w->c;
}

static sqlite3_stmt *
stmt(struct hq_report_writer *w, int which, struct hq_err *e)
{
	if (!w->st[which] &&
	    hq_store_prepare(w->store, wsql[which], &w->st[which], e))
		return NULL;
	sqlite3_reset(w->st[which]);
	sqlite3_clear_bindings(w->st[which]);
	return w->st[which];
}

static void
bind_str(sqlite3_stmt *st, int i, const char *s)
{
	sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
}

static void
bind_num(sqlite3_stmt *st, int i, double v)
{
	if (isnan(v))
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_double(st, i, v);
}

/* The import the rows came in with; none (0) in tests. */
static void
bind_import(const struct hq_report_writer *w, sqlite3_stmt *st, int i)
{
	if (w->import_id > 0)
		sqlite3_bind_int64(st, i, w->import_id);
}

/* Step a statement: SQLITE_ROW or SQLITE_DONE, or -1 with e set. */
static int
step(struct hq_report_writer *w, sqlite3_stmt *st, const char *what,
    struct hq_err *e)
{
	int rc = sqlite3_step(st);

	if (rc == SQLITE_ROW || rc == SQLITE_DONE)
		return rc;
	hq_err_set(e, "%s: %s: %s", hq_store_filename(w->store), what,
	    sqlite3_errmsg(hq_store_db(w->store)));
	return -1;
}

/* The id of the first row a query finds, 0 none, -1 error. */
static int64_t
find_id(struct hq_report_writer *w, sqlite3_stmt *st, const char *what,
    struct hq_err *e)
{
	int rc = step(w, st, what, e);

	if (rc < 0)
		return -1;
	return rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
}

static int64_t
report_id(struct hq_report_writer *w, const char *kind, const char *date,
    const char *source, int64_t time, struct hq_err *e)
{
	sqlite3_stmt *st = stmt(w, W_REPORT_FIND, e);
	int64_t id;

	if (!st)
		return -1;
	bind_str(st, 1, kind);
	bind_str(st, 2, date);
	bind_str(st, 3, source);
	if ((id = find_id(w, st, "finding a report", e)) != 0)
		return id;
	if (!(st = stmt(w, W_REPORT_ADD, e)))
		return -1;
	bind_str(st, 1, kind);
	bind_str(st, 2, date);
	bind_str(st, 3, source);
	if (time)
		sqlite3_bind_int64(st, 4, time);
	bind_import(w, st, 5);
	if (step(w, st, "adding a report", e) < 0)
		return -1;
	return sqlite3_last_insert_rowid(hq_store_db(w->store));
}

/* Bind test, date, time, has_time (?1-?4) of a result. */
static void
bind_when(sqlite3_stmt *st, const struct hq_lab_result *r)
{
	bind_str(st, 1, r->test);
	bind_str(st, 2, r->date);
	sqlite3_bind_int64(st, 3, r->time);
	sqlite3_bind_int(st, 4, r->has_time);
}

static int
retract(struct hq_report_writer *w, const struct hq_lab_result *r,
    struct hq_err *e)
{
	sqlite3_stmt *st;

	if (!r->id[0])
		return 0;
	if (!(st = stmt(w, W_LAB_RETRACT, e)))
		return -1;
	bind_str(st, 1, r->id);
	bind_str(st, 2, r->source);
	if (step(w, st, "taking back a result", e) < 0)
		return -1;
	w->c.retracted += sqlite3_changes(hq_store_db(w->store));
	return 0;
}

int
hq_report_add_lab(struct hq_report_writer *w, const struct hq_lab_result *r,
    int64_t clinical_id, struct hq_err *e)
{
	sqlite3_stmt *st;
	int64_t id, rid, amended = 0;
	int supersedes = hq_labs_supersedes(r->status);

	if (strcmp(r->status, "entered-in-error") == 0)
		return retract(w, r, e);
	if (!(st = stmt(w, W_LAB_SAME, e)))
		return -1;
	bind_when(st, r);
	bind_str(st, 5, r->unit);
	bind_str(st, 6, r->comparator);
	bind_num(st, 7, r->value);
	bind_str(st, 8, r->text);
	if ((id = find_id(w, st, "looking a result up", e)) < 0)
		return -1;
	if (id) {
		w->c.duplicates++;
		return 0;
	}
	/* A result that arrives after its own amendment stays superseded. */
	if (!supersedes) {
		if (!(st = stmt(w, W_LAB_AMENDED, e)))
			return -1;
		bind_when(st, r);
		bind_str(st, 5, r->id);
		if ((amended = find_id(w, st, "looking for an amendment", e)) < 0)
			return -1;
	}
	if ((rid = report_id(w, "labs", r->date, r->source, 0, e)) < 0 ||
	    !(st = stmt(w, W_LAB_ADD, e)))
		return -1;
	sqlite3_bind_int64(st, 1, rid);
	bind_str(st, 2, r->test);
	bind_str(st, 3, r->name);
	bind_str(st, 4, r->loinc);
	sqlite3_bind_int64(st, 5, r->time);
	sqlite3_bind_int(st, 6, r->has_time);
	bind_str(st, 7, r->date);
	bind_num(st, 8, r->value);
	bind_str(st, 9, r->comparator);
	bind_str(st, 10, r->text);
	bind_str(st, 11, r->unit);
	bind_num(st, 12, r->ref_low);
	bind_num(st, 13, r->ref_high);
	bind_str(st, 14, r->ref_text);
	bind_str(st, 15, r->lab_flag);
	bind_str(st, 16, r->id);
	bind_str(st, 17, r->status);
	if (amended)
		sqlite3_bind_int64(st, 18, amended);
	if (clinical_id)
		sqlite3_bind_int64(st, 19, clinical_id);
	bind_import(w, st, 20);
	if (step(w, st, "adding a lab result", e) < 0)
		return -1;
	id = sqlite3_last_insert_rowid(hq_store_db(w->store));
	w->c.inserted++;
	if (supersedes) {
		if (!(st = stmt(w, W_LAB_SUPERSEDE, e)))
			return -1;
		bind_when(st, r);
		bind_str(st, 5, r->id);
		sqlite3_bind_int64(st, 6, id);
		if (step(w, st, "superseding a result", e) < 0)
			return -1;
		w->c.superseded += sqlite3_changes(hq_store_db(w->store));
	}
	return 1;
}

int
hq_report_add_dexa(struct hq_report_writer *w, const struct hq_dexa_scan *scan,
    struct hq_err *e)
{
	sqlite3_stmt *st = stmt(w, W_DEXA_FIND, e);
	int64_t rid;
	int rc;

	if (!st)
		return -1;
	bind_str(st, 1, scan->date);
	bind_str(st, 2, scan->source);
	if ((rc = step(w, st, "finding a scan", e)) < 0)
		return -1;
	if (rc == SQLITE_ROW) {
		rid = sqlite3_column_int64(st, 0);
		/* A scan known without a source learns it. */
		if (!sqlite3_column_text(st, 1)[0] && scan->source[0]) {
			if (!(st = stmt(w, W_DEXA_SOURCE, e)))
				return -1;
			sqlite3_bind_int64(st, 1, rid);
			bind_str(st, 2, scan->source);
			if (step(w, st, "naming a scan's source", e) < 0)
				return -1;
		}
	} else if ((rid = report_id(w, "dexa", scan->date, scan->source,
	    scan->time, e)) < 0) {
		return -1;
	}
	for (size_t i = 0; i < scan->n; i++) {
		const struct hq_dexa_value *v = &scan->v[i];
		if (!(st = stmt(w, W_DEXA_OLD, e)))
			return -1;
		sqlite3_bind_int64(st, 1, rid);
		bind_str(st, 2, v->field);
		if ((rc = step(w, st, "reading a scan", e)) < 0)
			return -1;
		if (rc == SQLITE_ROW && sqlite3_column_double(st, 0) == v->value) {
			w->c.duplicates++;
			continue;
		}
		if (!(st = stmt(w, W_DEXA_PUT, e)))
			return -1;
		sqlite3_bind_int64(st, 1, rid);
		bind_str(st, 2, v->field);
		sqlite3_bind_double(st, 3, v->value);
		bind_str(st, 4, v->unit);
		bind_import(w, st, 5);
		if (step(w, st, "adding a scan's field", e) < 0)
			return -1;
		w->c.inserted++;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Clinical records                                                     */

struct backfill {
	struct hq_report_writer *w;
	struct hq_lab_sink sink;
	int64_t clinical_id;
	int store_failed;       /* the error is the store's, not the file's */
};

static int
backfill_emit(void *arg, const struct hq_lab_result *r, struct hq_err *e)
{
	struct backfill *b = arg;

	if (hq_report_add_lab(b->w, r, b->clinical_id, e) < 0) {
		b->store_failed = 1;
		return -1;
	}
	return 0;
}

static int
backfill_doc(void *arg, const cJSON *v, long line, struct hq_err *e)
{
	struct backfill *b = arg;

	return hq_fhir_read(&b->sink, v, line, e);
}

/* Read one clinical record's resource: 0, or -1 with e set; *bad is set
 * when the resource itself could not be read (its rows are undone and the
 * import goes on), as opposed to a store error. */
static int
backfill_one(struct hq_report_writer *w, int64_t id, int *bad,
    struct hq_err *e)
{
	sqlite3_stmt *st;
	struct backfill b = { .w = w, .clinical_id = id };
	struct hq_report_counts saved = w->c;
	char file[512], source[256];
	int rc;

	*bad = 0;
	if (hq_store_exec(w->store, "SAVEPOINT clinical", e))
		return -1;
	if (hq_store_prepare(w->store, "SELECT c.resource, coalesce(s.name, ''), "
	    "coalesce(c.resource_path, c.identifier) FROM clinical_record c "
	    "LEFT JOIN source s ON s.id = c.source_id WHERE c.id = ?", &st, e))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	rc = step(w, st, "reading a clinical record", e);
	b.store_failed = rc < 0;
	if (rc == SQLITE_ROW) {
		const char *json = (const char *)sqlite3_column_text(st, 0);
		snprintf(source, sizeof source, "%s", sqlite3_column_text(st, 1));
		snprintf(file, sizeof file, "clinical record %s",
		    sqlite3_column_text(st, 2));
		b.sink = (struct hq_lab_sink){ .file = file, .source = source,
		    .emit = backfill_emit, .arg = &b };
		if (json && hq_jsonin_each(json, strlen(json), file, 0,
		    backfill_doc, &b, e) < 0)
			rc = -1;
	}
	sqlite3_finalize(st);
	if (rc >= 0)
		return hq_store_exec(w->store, "RELEASE clinical", e);
	if (b.store_failed)
		return -1;
	/* The file's fault: undo its rows, keep the message for a warning. */
	*bad = 1;
	w->c = saved;
	if (hq_store_exec(w->store, "ROLLBACK TO clinical; RELEASE clinical",
	    &(struct hq_err){ { 0 } }))
		return -1;
	return 0;
}

int
hq_report_backfill(struct hq_report_writer *w, hq_report_warn_fn *warn,
    void *warn_arg, struct hq_err *e)
{
	sqlite3_stmt *st, *done;
	int64_t *ids = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;

	/* The ids first: the records are updated as they are read. */
	if (hq_store_prepare(w->store, "SELECT id FROM clinical_record WHERE "
	    "reports_done = 0 AND resource IS NOT NULL ORDER BY id", &st, e))
		return -1;
	while ((rc = step(w, st, "listing clinical records", e)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			ids = hq_xrealloc(ids, cap * sizeof *ids);
		}
		ids[n++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	if (rc < 0 || hq_store_prepare(w->store, "UPDATE clinical_record SET "
	    "reports_done = 1 WHERE id = ?", &done, e)) {
		free(ids);
		return -1;
	}
	rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		struct hq_err re;
		int bad;
		if (backfill_one(w, ids[i], &bad, &re) < 0) {
			*e = re;
			rc = -1;
			break;
		}
		if (bad) {
			w->c.skipped++;
			if (warn)
				warn(warn_arg, re.msg);
		}
		sqlite3_reset(done);
		sqlite3_bind_int64(done, 1, ids[i]);
		if (step(w, done, "marking a clinical record read", e) < 0)
			rc = -1;
	}
	sqlite3_finalize(done);
	free(ids);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Reading: lists                                                       */

static int
query_err(struct hq_store *s, struct hq_err *e)
{
	hq_err_set(e, "%s: %s", hq_store_filename(s),
	    sqlite3_errmsg(hq_store_db(s)));
	return -1;
}

static const char *
col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? (const char *)t : "";
}

static double
col_num(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN :
	    sqlite3_column_double(st, i);
}

int
hq_report_list(struct hq_store *s, const char *kind, hq_report_list_fn *fn,
    void *arg, struct hq_err *e)
{
	sqlite3_stmt *st;
	long rows = 0;
	int rc;

	if (hq_store_prepare(s,
	    "SELECT kind, date, source, n FROM ("
	    " SELECT r.kind, r.date, r.source, count(*) AS n FROM report r"
	    "  JOIN lab_result l ON l.report_id = r.id AND l.superseded_by IS NULL"
	    "  WHERE r.kind = 'labs' GROUP BY r.id"
	    " UNION ALL"
	    " SELECT r.kind, r.date, r.source, count(*) FROM report r"
	    "  JOIN dexa_value v ON v.report_id = r.id"
	    "  WHERE r.kind = 'dexa' GROUP BY r.id)"
	    " WHERE ?1 IS NULL OR kind = ?1 ORDER BY date, kind, source", &st, e))
		return -1;
	if (kind)
		sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct hq_report_list_row r = { col_text(st, 0), col_text(st, 1),
			col_text(st, 2), sqlite3_column_int64(st, 3) };
		rows++;
		if (fn(arg, &r, e)) {
			sqlite3_finalize(st);
			return -1;
		}
	}
	if (rc != SQLITE_DONE)
		rc = query_err(s, e);
	else
		rc = 0;
	sqlite3_finalize(st);
	if (rc == 0 && rows == 0) {
		hq_err_set(e, "no %s reports in the store", kind ? kind : "DEXA or lab");
		return 1;
	}
	return rc;
}

/* ------------------------------------------------------------------ */
/* Reading: labs                                                        */

static int
store_has(struct hq_store *s, const char *sql, const char *key, char *buf,
    size_t n)
{
	sqlite3_stmt *st;
	int found = 0;

	if (hq_store_prepare(s, sql, &st, &(struct hq_err){ { 0 } }))
		return 0;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		snprintf(buf, n, "%s", col_text(st, 0));
		found = 1;
	}
	sqlite3_finalize(st);
	return found;
}

int
hq_report_lab_test(struct hq_store *s, const char *arg, char *buf, size_t n,
    struct hq_err *e)
{
	const struct hq_lab_test *t = hq_labs_lookup(arg);
	struct hq_catalog_suggestion sg;
	sqlite3_stmt *st;
	char key[64];

	if (t) {
		snprintf(buf, n, "%s", t->name);
		return 0;
	}
	hq_labs_snake(arg, key, sizeof key);
	if (store_has(s, "SELECT test FROM lab_result WHERE test = ?1 LIMIT 1",
	    key, buf, n) ||
	    store_has(s, "SELECT test FROM lab_result WHERE loinc = ?1 LIMIT 1",
	    arg, buf, n))
		return 0;
	hq_catalog_suggest_start(&sg, key);
	for (size_t i = 0; i < hq_labs_count(); i++) {
		t = hq_labs_at(i);
		hq_catalog_suggest_word(&sg, t->name, strlen(t->name));
		hq_catalog_suggest_words(&sg, t->aliases, 3);
	}
	if (hq_store_prepare(s, "SELECT DISTINCT test FROM lab_result", &st, e))
		return -1;
	while (sqlite3_step(st) == SQLITE_ROW)
		hq_catalog_suggest_word(&sg, col_text(st, 0),
		    strlen(col_text(st, 0)));
	sqlite3_finalize(st);
	if (hq_catalog_suggest_pick(&sg))
		hq_err_set(e, "unknown test '%.60s' (did you mean %s?)", arg, sg.pick);
	else
		hq_err_set(e, "unknown test '%.60s' (hq-report list labs shows "
		    "what the store holds)", arg);
	return -1;
}

void
hq_report_lab_units(struct hq_store *s, const char *test, char *buf, size_t n)
{
	const struct hq_lab_test *t = hq_labs_lookup(test);
	struct hq_buf b = { 0 };
	sqlite3_stmt *st;

	if (t)
		hq_buf_puts(&b, t->units);
	if (hq_store_prepare(s, "SELECT DISTINCT unit FROM lab_result WHERE "
	    "test = ?1 AND unit != '' ORDER BY unit", &st,
	    &(struct hq_err){ { 0 } }) == 0) {
		sqlite3_bind_text(st, 1, test, -1, SQLITE_STATIC);
		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *u = col_text(st, 0);
			if (hq_catalog_word_in(b.data ? b.data : "", u))
				continue;
			if (b.len)
				hq_buf_putc(&b, ' ');
			hq_buf_puts(&b, u);
		}
		sqlite3_finalize(st);
	}
	snprintf(buf, n, "%s", b.data ? b.data : "");
	hq_buf_free(&b);
}

/* Whether a test's values can be shown in unit: a catalog test converts
 * from its canonical unit; another one from a unit its results have. */
static int
unit_fits(struct hq_store *s, const char *test, const char *unit)
{
	const struct hq_lab_test *t = hq_labs_lookup(test);
	char units[256], *save = NULL;
	double out;

	if (t)
		return hq_labs_convert(t, 1, t->unit, unit, &out) == 0;
	hq_report_lab_units(s, test, units, sizeof units);
	for (char *u = strtok_r(units, " ", &save); u; u = strtok_r(NULL, " ", &save))
		if (hq_labs_convert(NULL, 1, u, unit, &out) == 0)
			return 1;
	return 0;
}

int
hq_report_lab_unit_ok(struct hq_store *s, const char *const *tests, size_t n,
    const char *unit, struct hq_err *e)
{
	char units[256];

	for (size_t i = 0; i < n; i++) {
		if (unit_fits(s, tests[i], unit))
			continue;
		hq_report_lab_units(s, tests[i], units, sizeof units);
		hq_err_set(e, "%s cannot be shown in '%.20s' (its units: %s)",
		    tests[i], unit, units[0] ? units : "none");
		return -1;
	}
	return 0;
}

#define LAB_COLUMNS "l.test, l.name, l.loinc, l.date, l.value, l.comparator, " \
	"l.text, l.unit, l.ref_low, l.ref_high, l.lab_flag, r.source "
#define LAB_FROM "FROM lab_result l JOIN report r ON r.id = l.report_id " \
	"WHERE l.test = ?1 AND l.superseded_by IS NULL "

/* A row from LAB_COLUMNS, converted to unit when given and possible. */
static void
lab_row(sqlite3_stmt *st, const char *unit, struct hq_lab_row *r,
    char *ubuf, size_t un)
{
	const struct hq_lab_test *t;
	double v, lo, hi;

	memset(r, 0, sizeof *r);
	r->test = col_text(st, 0);
	r->name = col_text(st, 1);
	r->loinc = col_text(st, 2);
	r->date = col_text(st, 3);
	r->value = col_num(st, 4);
	r->comparator = col_text(st, 5);
	r->text = col_text(st, 6);
	r->unit = col_text(st, 7);
	r->ref_low = col_num(st, 8);
	r->ref_high = col_num(st, 9);
	r->source = col_text(st, 11);
	r->method = hq_labs_method(r->loinc);
	r->change = NAN;
	t = hq_labs_lookup(r->test);
	if (unit && strcmp(unit, r->unit) != 0 && !isnan(r->value)) {
		if (hq_labs_convert(t, r->value, r->unit, unit, &v) == 0) {
			/* Limits written without a unit are in the value's. */
			hq_labs_convert(t, r->ref_low, r->unit, unit, &lo);
			hq_labs_convert(t, r->ref_high, r->unit, unit, &hi);
			r->value = v;
			r->ref_low = lo;
			r->ref_high = hi;
			snprintf(ubuf, un, "%s", unit);
			r->unit = ubuf;
		} else {
			r->unconverted = 1;
		}
	}
	r->flag = hq_labs_flag(r->value, r->ref_low, r->ref_high, col_text(st, 10));
}

static int
each_test(struct hq_store *s, const char *const *tests, size_t n,
    const char *unit, hq_lab_row_fn *fn, void *arg, long *rows,
    struct hq_err *e)
{
	sqlite3_stmt *st;
	char ubuf[32];
	int rc = 0;

	if (hq_store_prepare(s, "SELECT " LAB_COLUMNS LAB_FROM
	    "ORDER BY l.time DESC, l.id DESC LIMIT 1", &st, e))
		return -1;
	for (size_t i = 0; i < n && rc == 0; i++) {
		struct hq_lab_row r;
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, tests[i], -1, SQLITE_STATIC);
		int k = sqlite3_step(st);
		if (k == SQLITE_ROW) {
			lab_row(st, unit, &r, ubuf, sizeof ubuf);
			(*rows)++;
			rc = fn(arg, &r, e) ? -1 : 0;
		} else if (k != SQLITE_DONE) {
			rc = query_err(s, e);
		}
	}
	sqlite3_finalize(st);
	return rc;
}

int
hq_report_labs_latest(struct hq_store *s, const char *const *tests, size_t n,
    const char *unit, hq_lab_row_fn *fn, void *arg, struct hq_err *e)
{
	long rows = 0;
	int rc;

	if (n) {
		rc = each_test(s, tests, n, unit, fn, arg, &rows, e);
	} else {
		sqlite3_stmt *st;
		char **all = NULL;
		size_t k = 0, cap = 0;
		if (hq_store_prepare(s, "SELECT DISTINCT test FROM lab_result "
		    "WHERE superseded_by IS NULL ORDER BY test", &st, e))
			return -1;
		while (sqlite3_step(st) == SQLITE_ROW) {
			if (k == cap) {
				cap = cap ? 2 * cap : 32;
				all = hq_xrealloc(all, cap * sizeof *all);
			}
			all[k++] = hq_xstrdup(col_text(st, 0));
		}
		sqlite3_finalize(st);
		rc = each_test(s, (const char *const *)all, k, unit, fn, arg,
		    &rows, e);
		for (size_t i = 0; i < k; i++)
			free(all[i]);
		free(all);
	}
	if (rc == 0 && rows == 0) {
		if (n == 1)
			hq_err_set(e, "no %s results in the store", tests[0]);
		else
			hq_err_set(e, "no lab results in the store");
		return 1;
	}
	return rc;
}

int
hq_report_labs_trend(struct hq_store *s, const char *test, const char *unit,
    hq_lab_row_fn *fn, void *arg, struct hq_err *e)
{
	sqlite3_stmt *st;
	char newest[32] = "", ubuf[32], prev_method[32] = "", prev_unit[32] = "";
	double prev = NAN;
	long rows = 0;
	int rc;

	if (!unit) {
		store_has(s, "SELECT unit FROM lab_result WHERE test = ?1 AND "
		    "superseded_by IS NULL AND value IS NOT NULL "
		    "ORDER BY time DESC, id DESC LIMIT 1", test, newest,
		    sizeof newest);
		unit = newest;
	}
	if (hq_store_prepare(s, "SELECT " LAB_COLUMNS LAB_FROM
	    "ORDER BY l.time, l.id", &st, e))
		return -1;
	sqlite3_bind_text(st, 1, test, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct hq_lab_row r;
		lab_row(st, unit, &r, ubuf, sizeof ubuf);
		r.method_changed = rows && *prev_method && *r.method &&
		    strcmp(prev_method, r.method) != 0;
		if (!r.method_changed && !isnan(prev) && !isnan(r.value) &&
		    strcmp(prev_unit, r.unit) == 0)
			r.change = r.value - prev;
		if (!isnan(r.value)) {
			prev = r.value;
			snprintf(prev_unit, sizeof prev_unit, "%s", r.unit);
		}
		if (*r.method)
			snprintf(prev_method, sizeof prev_method, "%s", r.method);
		rows++;
		if (fn(arg, &r, e)) {
			sqlite3_finalize(st);
			return -1;
		}
	}
	rc = rc == SQLITE_DONE ? 0 : query_err(s, e);
	sqlite3_finalize(st);
	if (rc == 0 && rows == 0) {
		hq_err_set(e, "no %s results in the store", test);
		return 1;
	}
	return rc;
}

int
hq_report_lab_tests(struct hq_store *s, hq_report_name_fn *fn, void *arg,
    struct hq_err *e)
{
	sqlite3_stmt *st;
	int rc = 0;

	if (hq_store_prepare(s, "SELECT DISTINCT test FROM lab_result WHERE "
	    "superseded_by IS NULL ORDER BY test", &st, e))
		return -1;
	while (rc == 0 && sqlite3_step(st) == SQLITE_ROW)
		rc = fn(arg, col_text(st, 0));
	sqlite3_finalize(st);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Reading: DEXA                                                        */

/*
 * Precision (../shared/reference/health-analytics.md §5.1): lean mass CV
 * below 0.5 % (Hologic whitepaper); VAT CV about 5-15 % (Goldberg & Fung,
 * J Clin Densitom 2019), the lower end taken, so that a change called
 * beyond noise is beyond it even on the best scanner. A change between
 * two scans is within precision below the least significant change, LSC
 * = 1.96 × √2 × CV = 2.77 × CV (ISCD: 95 % confidence, two measurements).
 */
static const struct { const char *field; double cv; const char *why; } precision[] = {
	{ "lean_mass", 0.5, "lean mass CV < 0.5 % (Hologic)" },
	{ "vat_mass", 5, "VAT CV 5-15 % (Goldberg & Fung 2019)" },
	{ "vat_volume", 5, "VAT CV 5-15 % (Goldberg & Fung 2019)" },
	{ "vat_area", 5, "VAT CV 5-15 % (Goldberg & Fung 2019)" },
};

double
hq_report_dexa_cv(const char *field, const char **why)
{
	for (size_t i = 0; i < sizeof precision / sizeof precision[0]; i++)
		if (strcmp(field, precision[i].field) == 0) {
			if (why)
				*why = precision[i].why;
			return precision[i].cv;
		}
	return NAN;
}

/* The catalog's order of a field: whole-body fields first, then regions. */
static int
field_order(const char *name)
{
	size_t nf = hq_dexa_field_count(), nr = hq_dexa_region_count();
	char full[96];

	for (size_t i = 0; i < nf; i++)
		if (strcmp(hq_dexa_field_at(i)->name, name) == 0)
			return (int)i;
	for (size_t r = 0; r < nr; r++)
		for (size_t i = 0; i < nf; i++) {
			snprintf(full, sizeof full, "%s_%s", hq_dexa_region_at(r),
			    hq_dexa_field_at(i)->name);
			if (strcmp(full, name) == 0)
				return (int)(nf + r * nf + i);
		}
	return (int)(nf * (nr + 1));
}

int
hq_report_dexa_fields_ok(const char *const *fields, size_t n, struct hq_err *e)
{
	char name[96];
	const char *unit;

	for (size_t i = 0; i < n; i++)
		if (hq_dexa_field_name(fields[i], NULL, name, sizeof name, &unit, e))
			return -1;
	return 0;
}

static int
wanted(const char *field, const char *const *fields, size_t n)
{
	char name[96];
	const char *unit;
	struct hq_err e;

	if (n == 0)
		return 1;
	for (size_t i = 0; i < n; i++)
		if (hq_dexa_field_name(fields[i], NULL, name, sizeof name, &unit,
		    &e) == 0 && strcmp(name, field) == 0)
			return 1;
	return 0;
}

struct scan_value {
	char field[48], unit[16];
	double value;
	int order;
};

static int
cmp_order(const void *a, const void *b)
{
	const struct scan_value *x = a, *y = b;

	return x->order - y->order;
}

/* A scan's values, sorted in the catalog's order (at most
 * HQ_DEXA_MAX_FIELDS; fields is filled, *n set). */
static int
scan_values(struct hq_store *s, int64_t id, struct scan_value *v, size_t *n,
    struct hq_err *e)
{
	sqlite3_stmt *st;

	*n = 0;
	if (hq_store_prepare(s, "SELECT field, value, unit FROM dexa_value "
	    "WHERE report_id = ?", &st, e))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	while (sqlite3_step(st) == SQLITE_ROW && *n < HQ_DEXA_MAX_FIELDS) {
		struct scan_value *x = &v[(*n)++];
		snprintf(x->field, sizeof x->field, "%s", col_text(st, 0));
		x->value = sqlite3_column_double(st, 1);
		snprintf(x->unit, sizeof x->unit, "%s", col_text(st, 2));
		x->order = field_order(x->field);
	}
	sqlite3_finalize(st);
	qsort(v, *n, sizeof *v, cmp_order);
	return 0;
}

struct scan {
	int64_t id;
	char date[11];
};

/* The newest scans, newest first: up to max. The number found, -1. */
static int
last_scans(struct hq_store *s, struct scan *sc, int max, long *total,
    struct hq_err *e)
{
	sqlite3_stmt *st;
	int n = 0;

	*total = 0;
	if (hq_store_prepare(s, "SELECT r.id, r.date, (SELECT count(*) FROM report "
	    "WHERE kind = 'dexa') FROM report r WHERE r.kind = 'dexa' AND EXISTS "
	    "(SELECT 1 FROM dexa_value v WHERE v.report_id = r.id) "
	    "ORDER BY r.date DESC, r.id DESC", &st, e))
		return -1;
	while (sqlite3_step(st) == SQLITE_ROW) {
		(*total)++;
		if (n < max) {
			sc[n].id = sqlite3_column_int64(st, 0);
			snprintf(sc[n].date, sizeof sc[n].date, "%s", col_text(st, 1));
			n++;
		}
	}
	sqlite3_finalize(st);
	return n;
}

int
hq_report_dexa_latest(struct hq_store *s, const char *const *fields, size_t n,
    hq_dexa_row_fn *fn, void *arg, struct hq_err *e)
{
	struct scan sc;
	struct scan_value *v;
	size_t nv;
	long total, rows = 0;
	int rc;

	if ((rc = last_scans(s, &sc, 1, &total, e)) < 0)
		return -1;
	if (rc == 0) {
		hq_err_set(e, "no DEXA scans in the store");
		return 1;
	}
	v = hq_xcalloc(HQ_DEXA_MAX_FIELDS, sizeof *v);
	rc = scan_values(s, sc.id, v, &nv, e);
	for (size_t i = 0; rc == 0 && i < nv; i++) {
		struct hq_dexa_row r = { .field = v[i].field, .unit = v[i].unit,
			.date = sc.date, .value = v[i].value };
		if (!wanted(v[i].field, fields, n))
			continue;
		rows++;
		rc = fn(arg, &r, e) ? -1 : 0;
	}
	free(v);
	if (rc == 0 && rows == 0) {
		hq_err_set(e, "the scan of %s has none of those fields", sc.date);
		return 1;
	}
	return rc;
}

/* The newest scan on a date as typed (2024-03-01, 2024-03, ...). */
static int
scan_on(struct hq_store *s, const char *when, struct scan *sc, struct hq_err *e)
{
	sqlite3_stmt *st;
	int64_t start, end;
	char d0[11], d1[11];
	int found = 0;

	if (hq_time_parse_range(when, (int64_t)time(NULL), &start, &end, e))
		return -1;
	hq_time_format_date(start, d0, sizeof d0);
	hq_time_format_date(end > start ? end - 1 : start, d1, sizeof d1);
	if (hq_store_prepare(s, "SELECT r.id, r.date FROM report r WHERE "
	    "r.kind = 'dexa' AND r.date BETWEEN ?1 AND ?2 ORDER BY r.date DESC, "
	    "r.id DESC LIMIT 1", &st, e))
		return -1;
	sqlite3_bind_text(st, 1, d0, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, d1, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		sc->id = sqlite3_column_int64(st, 0);
		snprintf(sc->date, sizeof sc->date, "%s", col_text(st, 1));
		found = 1;
	}
	sqlite3_finalize(st);
	return found;
}

int
hq_report_dexa_compare(struct hq_store *s, const char *d1, const char *d2,
    const char *const *fields, size_t n, hq_dexa_row_fn *fn, void *arg,
    struct hq_err *e)
{
	struct scan sc[2];
	struct scan_value *a, *b;
	size_t na, nb;
	long total, rows = 0;
	int rc;

	if (d1 && d2) {
		const char *when[2] = { d1, d2 };
		for (int i = 0; i < 2; i++) {
			if ((rc = scan_on(s, when[i], &sc[i], e)) < 0)
				return -1;
			if (rc == 0) {
				hq_err_set(e, "no DEXA scan on %.40s", when[i]);
				return 1;
			}
		}
	} else {
		struct scan last[2];
		if ((rc = last_scans(s, last, 2, &total, e)) < 0)
			return -1;
		if (rc < 2) {
			hq_err_set(e, "a comparison needs two DEXA scans; the store "
			    "has %ld", total);
			return 1;
		}
		sc[0] = last[1];
		sc[1] = last[0];
	}
	a = hq_xcalloc(HQ_DEXA_MAX_FIELDS, sizeof *a);
	b = hq_xcalloc(HQ_DEXA_MAX_FIELDS, sizeof *b);
	rc = scan_values(s, sc[0].id, a, &na, e);
	if (rc == 0)
		rc = scan_values(s, sc[1].id, b, &nb, e);
	for (size_t i = 0; rc == 0 && i < na; i++) {
		const struct scan_value *after = NULL;
		for (size_t j = 0; j < nb && !after; j++)
			if (strcmp(a[i].field, b[j].field) == 0)
				after = &b[j];
		if (!after || !wanted(a[i].field, fields, n))
			continue;
		struct hq_dexa_row r = { .field = a[i].field, .unit = a[i].unit,
			.before_date = sc[0].date, .after_date = sc[1].date,
			.before = a[i].value, .after = after->value,
			.change = after->value - a[i].value, .value = NAN };
		r.pct_change = a[i].value > 0 ? 100 * r.change / a[i].value : NAN;
		r.lsc_pct = 1.96 * sqrt(2) * hq_report_dexa_cv(a[i].field, NULL);
		r.within_precision = !isnan(r.lsc_pct) && !isnan(r.pct_change) &&
		    fabs(r.pct_change) <= r.lsc_pct;
		rows++;
		rc = fn(arg, &r, e) ? -1 : 0;
	}
	free(a);
	free(b);
	if (rc == 0 && rows == 0) {
		hq_err_set(e, "the scans of %s and %s share none of those fields",
		    sc[0].date, sc[1].date);
		return 1;
	}
	return rc;
}
