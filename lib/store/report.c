#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hq/buf.h"
#include "hq/fhir.h"
#include "hq/ingest.h"
#include "hq/jsonin.h"
#include "hq/report.h"
#include "hq/time.h"

/* ------------------------------------------------------------------ */
/* Writing                                                              */

enum {
	W_REPORT_FIND, W_REPORT_ADD, W_LAB_SAME, W_LAB_AMENDED, W_LAB_ADD,
	W_LAB_SUPERSEDE, W_LAB_RETRACT, W_DEXA_FIND, W_DEXA_SOURCE, W_DEXA_SAME,
	W_DEXA_PUT, W_CLIN_PENDING, W_CLIN_READ, W_CLIN_DONE, NW
};

/* "The same time": equal instants, or the same date when either result
 * was given as a date only (?2 date, ?3 time, ?4 has_time). */
#define SAME_TIME "date = ?2 AND (time = ?3 OR has_time = 0 OR ?4 = 0)"

static const struct hq_store_sql wsql[NW] = {
	[W_REPORT_FIND] = { "SELECT id FROM report WHERE kind = ?1 AND "
	    "date = ?2 AND source = ?3", "finding a report" },
	[W_REPORT_ADD] = { "INSERT INTO report(kind, date, source, time, "
	    "import_id) VALUES (?1, ?2, ?3, ?4, ?5)", "adding a report" },
	[W_LAB_SAME] = { "SELECT id FROM lab_result WHERE test = ?1 AND "
	    SAME_TIME " AND unit = ?5 AND comparator = ?6 AND value IS ?7 AND "
	    "text = ?8 LIMIT 1", "looking a result up" },
	[W_LAB_AMENDED] = { "SELECT id FROM lab_result WHERE test = ?1 AND "
	    SAME_TIME " AND status IN ('amended', 'corrected') AND "
	    "superseded_by IS NULL AND (resource_id = '' OR ?5 = '' OR "
	    "resource_id = ?5) ORDER BY id DESC LIMIT 1",
	    "looking for an amendment" },
	[W_LAB_ADD] = { "INSERT INTO lab_result(report_id, test, name, loinc, "
	    "time, has_time, date, value, comparator, text, unit, ref_low, "
	    "ref_high, ref_text, lab_flag, resource_id, status, superseded_by, "
	    "clinical_record_id, import_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, "
	    "?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)",
	    "adding a lab result" },
	[W_LAB_SUPERSEDE] = { "UPDATE lab_result SET superseded_by = ?6 WHERE "
	    "test = ?1 AND " SAME_TIME " AND id != ?6 AND superseded_by IS NULL "
	    "AND (resource_id = '' OR ?5 = '' OR resource_id = ?5)",
	    "superseding a result" },
	[W_LAB_RETRACT] = { "UPDATE lab_result SET superseded_by = -1 WHERE "
	    "resource_id = ?1 AND superseded_by IS NULL AND report_id IN "
	    "(SELECT id FROM report WHERE kind = 'labs' AND source = ?2)",
	    "taking back a result" },
	/* A scan of that date: of the same source, else one without a source,
	 * else (the file names none) the date's first. */
	[W_DEXA_FIND] = { "SELECT id FROM report WHERE kind = 'dexa' AND "
	    "date = ?1 AND (source = ?2 OR source = '' OR ?2 = '') "
	    "ORDER BY source = ?2 DESC, id LIMIT 1", "finding a scan" },
	[W_DEXA_SOURCE] = { "UPDATE report SET source = ?2 WHERE id = ?1 AND "
	    "source = ''", "naming a scan's source" },
	[W_DEXA_SAME] = { "SELECT count(*) FROM dexa_value WHERE report_id = ?1 "
	    "AND field = ?2 AND value = ?3", "reading a scan" },
	[W_DEXA_PUT] = { "INSERT INTO dexa_value(report_id, field, value, unit, "
	    "import_id) VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT(report_id, field) "
	    "DO UPDATE SET value = excluded.value, unit = excluded.unit, "
	    "import_id = excluded.import_id", "adding a scan's field" },
	[W_CLIN_PENDING] = { "SELECT id FROM clinical_record WHERE "
	    "reports_done = 0 AND resource IS NOT NULL ORDER BY id",
	    "listing clinical records" },
	[W_CLIN_READ] = { "SELECT c.resource, coalesce(s.name, ''), "
	    "coalesce(c.resource_path, c.identifier) FROM clinical_record c "
	    "LEFT JOIN source s ON s.id = c.source_id WHERE c.id = ?1",
	    "reading a clinical record" },
	[W_CLIN_DONE] = { "UPDATE clinical_record SET reports_done = 1 WHERE "
	    "id = ?1", "marking a clinical record read" },
};

struct hq_report_writer {
	struct hq_store *store;
	int64_t import_id;       /* 0: none (tests) */
	int64_t now;             /* when the import started */
	sqlite3_stmt *st[NW];
	struct hq_report_counts c;
};

struct hq_report_writer *
hq_report_writer_new(struct hq_store *s, int64_t import_id)
{
	struct hq_report_writer *w = hq_xcalloc(1, sizeof *w);

	w->store = s;
	w->import_id = import_id;
	w->now = hq_time_now();
	return w;
}

void
hq_report_writer_free(struct hq_report_writer *w)
{
	if (!w)
		return;
	hq_store_finalize(w->st, NW);
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
	return hq_store_stmt(w->store, &wsql[which], &w->st[which], e);
}

static int
run(struct hq_report_writer *w, int which, const struct hq_bind *v,
    struct hq_err *e)
{
	return hq_store_run_sql(w->store, &wsql[which], &w->st[which], v, e);
}

static int64_t
query_id(struct hq_report_writer *w, int which, const struct hq_bind *v,
    struct hq_err *e)
{
	return hq_store_query_sql(w->store, &wsql[which], &w->st[which], v, e);
}

static int
changes(const struct hq_report_writer *w)
{
	return sqlite3_changes(hq_store_db(w->store));
}

static int64_t
report_id(struct hq_report_writer *w, const char *kind, const char *date,
    const char *source, int64_t time, struct hq_err *e)
{
	int64_t id = query_id(w, W_REPORT_FIND, (struct hq_bind[]){
	    HQ_TEXT(kind), HQ_TEXT(date), HQ_TEXT(source), HQ_END }, e);

	if (id != 0)
		return id;
	if (run(w, W_REPORT_ADD, (struct hq_bind[]){ HQ_TEXT(kind),
	    HQ_TEXT(date), HQ_TEXT(source), HQ_OPT_INT(time),
	    HQ_OPT_INT(w->import_id), HQ_END }, e))
		return -1;
	return sqlite3_last_insert_rowid(hq_store_db(w->store));
}

/* test, date, time, has_time: ?1-?4 of the statements on one result. */
#define WHEN(r) HQ_TEXT((r)->test), HQ_TEXT((r)->date), HQ_INT((r)->time), \
	HQ_INT((r)->has_time)

/* ---- the checks every reader's results and scans pass ---------------- */

/* A value as it will be kept, after any conversion (NaN: none): finite
 * and at most HQ_INGEST_MAX_VALUE in size, as a sample's. */
static int
check_value(const char *what, double v, struct hq_err *e)
{
	if (isnan(v) || (isfinite(v) && fabs(v) <= HQ_INGEST_MAX_VALUE))
		return 0;
	hq_err_set(e, "%s %g is out of range (at most %g in size)", what, v,
	    HQ_INGEST_MAX_VALUE);
	return -1;
}

/* A report's date: no more than HQ_REPORT_MAX_AHEAD after the import
 * began (a zone ahead of UTC, a scanner's clock a little fast), never a
 * placeholder such as 9999-12-31 that would stay the latest for ever. */
static int
check_date(const struct hq_report_writer *w, const char *date, int64_t t,
    struct hq_err *e)
{
	if (t <= w->now + HQ_REPORT_MAX_AHEAD)
		return 0;
	hq_err_set(e, "date %s is in the future (more than a day after this "
	    "import)", date);
	return -1;
}

int
hq_report_add_lab(struct hq_report_writer *w, const struct hq_lab_result *r,
    int64_t clinical_id, struct hq_err *e)
{
	int64_t id, rid, amended = 0;
	int supersedes = hq_labs_supersedes(r->status);

	if (check_value(r->test, r->value, e) ||
	    check_value("reference range low", r->ref_low, e) ||
	    check_value("reference range high", r->ref_high, e) ||
	    check_date(w, r->date, r->time, e))
		return 2;

	if (strcmp(r->status, "entered-in-error") == 0) {
		if (!r->id[0])
			return 0;
		if (run(w, W_LAB_RETRACT, (struct hq_bind[]){ HQ_TEXT(r->id),
		    HQ_TEXT(r->source), HQ_END }, e))
			return -1;
		w->c.retracted += changes(w);
		return 0;
	}
	id = query_id(w, W_LAB_SAME, (struct hq_bind[]){ WHEN(r),
	    HQ_TEXT(r->unit), HQ_TEXT(r->comparator), HQ_OPT_REAL(r->value),
	    HQ_TEXT(r->text), HQ_END }, e);
	if (id < 0)
		return -1;
	if (id) {
		w->c.duplicates++;
		return 0;
	}
	/* A result that arrives after its own amendment stays superseded. */
	if (!supersedes && (amended = query_id(w, W_LAB_AMENDED,
	    (struct hq_bind[]){ WHEN(r), HQ_TEXT(r->id), HQ_END }, e)) < 0)
		return -1;
	if ((rid = report_id(w, "labs", r->date, r->source, 0, e)) < 0 ||
	    run(w, W_LAB_ADD, (struct hq_bind[]){ HQ_INT(rid), HQ_TEXT(r->test),
	    HQ_TEXT(r->name), HQ_TEXT(r->loinc), HQ_INT(r->time),
	    HQ_INT(r->has_time), HQ_TEXT(r->date), HQ_OPT_REAL(r->value),
	    HQ_TEXT(r->comparator), HQ_TEXT(r->text), HQ_TEXT(r->unit),
	    HQ_OPT_REAL(r->ref_low), HQ_OPT_REAL(r->ref_high),
	    HQ_TEXT(r->ref_text), HQ_TEXT(r->lab_flag), HQ_TEXT(r->id),
	    HQ_TEXT(r->status), HQ_OPT_INT(amended), HQ_OPT_INT(clinical_id),
	    HQ_OPT_INT(w->import_id), HQ_END }, e))
		return -1;
	id = sqlite3_last_insert_rowid(hq_store_db(w->store));
	w->c.inserted++;
	if (supersedes) {
		if (run(w, W_LAB_SUPERSEDE, (struct hq_bind[]){ WHEN(r),
		    HQ_TEXT(r->id), HQ_INT(id), HQ_END }, e))
			return -1;
		w->c.superseded += changes(w);
	}
	return 1;
}

int
hq_report_add_dexa(struct hq_report_writer *w, const struct hq_dexa_scan *scan,
    struct hq_err *e)
{
	int64_t rid;

	for (size_t i = 0; i < scan->n; i++)
		if (check_value(scan->v[i].field, scan->v[i].value, e))
			return 2;
	if (check_date(w, scan->date, scan->time, e))
		return 2;
	rid = query_id(w, W_DEXA_FIND, (struct hq_bind[]){
	    HQ_TEXT(scan->date), HQ_TEXT(scan->source), HQ_END }, e);
	if (rid < 0)
		return -1;
	if (rid) {
		/* A scan known without a source learns it. */
		if (scan->source[0] && run(w, W_DEXA_SOURCE, (struct hq_bind[]){
		    HQ_INT(rid), HQ_TEXT(scan->source), HQ_END }, e))
			return -1;
	} else if ((rid = report_id(w, "dexa", scan->date, scan->source,
	    scan->time, e)) < 0) {
		return -1;
	}
	for (size_t i = 0; i < scan->n; i++) {
		const struct hq_dexa_value *v = &scan->v[i];
		int64_t same = query_id(w, W_DEXA_SAME, (struct hq_bind[]){
		    HQ_INT(rid), HQ_TEXT(v->field), HQ_REAL(v->value), HQ_END }, e);
		if (same < 0)
			return -1;
		if (same) {
			w->c.duplicates++;
			continue;
		}
		if (run(w, W_DEXA_PUT, (struct hq_bind[]){ HQ_INT(rid),
		    HQ_TEXT(v->field), HQ_REAL(v->value), HQ_TEXT(v->unit),
		    HQ_OPT_INT(w->import_id), HQ_END }, e))
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

	int rc = hq_report_add_lab(b->w, r, b->clinical_id, e);

	if (rc < 0)
		b->store_failed = 1;
	return rc < 0 || rc == 2 ? -1 : 0;
}

static int
backfill_doc(void *arg, const cJSON *v, long line, struct hq_err *e)
{
	struct backfill *b = arg;

	return hq_fhir_read(&b->sink, v, line, e);
}

/* Step a statement that returns rows (bound already): SQLITE_ROW,
 * SQLITE_DONE, or -1 with e set. */
static int
step(struct hq_report_writer *w, int which, sqlite3_stmt *st, struct hq_err *e)
{
	int rc = sqlite3_step(st);

	if (rc == SQLITE_ROW || rc == SQLITE_DONE)
		return rc;
	hq_err_set(e, "%s: %s: %s", hq_store_filename(w->store),
	    wsql[which].what, sqlite3_errmsg(hq_store_db(w->store)));
	return -1;
}

/* Read one clinical record's resource: 0, or -1 with e set; *bad is set
 * when the resource itself could not be read (its rows are undone and the
 * import goes on), as opposed to a store error. */
static int
backfill_one(struct hq_report_writer *w, int64_t id, int *bad,
    struct hq_err *e)
{
	sqlite3_stmt *st = stmt(w, W_CLIN_READ, e);
	struct backfill b = { .w = w, .clinical_id = id };
	struct hq_report_counts saved = w->c;
	char file[512], source[256];
	int rc;

	*bad = 0;
	if (!st || hq_store_exec(w->store, "SAVEPOINT clinical", e))
		return -1;
	hq_store_bind(st, (struct hq_bind[]){ HQ_INT(id), HQ_END });
	rc = step(w, W_CLIN_READ, st, e);
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
	sqlite3_reset(st);
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
	sqlite3_stmt *st = stmt(w, W_CLIN_PENDING, e);
	int64_t *ids = NULL;
	size_t n = 0, cap = 0;
	int rc;

	if (!st)
		return -1;
	/* The ids first: the records are updated as they are read. */
	hq_store_bind(st, (struct hq_bind[]){ HQ_END });
	while ((rc = step(w, W_CLIN_PENDING, st, e)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			ids = hq_xrealloc(ids, cap * sizeof *ids);
		}
		ids[n++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_reset(st);
	for (size_t i = 0; rc >= 0 && i < n; i++) {
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
		if (run(w, W_CLIN_DONE, (struct hq_bind[]){ HQ_INT(ids[i]),
		    HQ_END }, e))
			rc = -1;
	}
	free(ids);
	return rc < 0 ? -1 : 0;
}
