#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/fhir.h"
#include "hq/jsonin.h"
#include "hq/report.h"

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
