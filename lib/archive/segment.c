/*
 * segment — a month of the store as a SQLite file (segment.h). The
 * segment is opened as main and the store ATTACHed read-only as src, so
 * each table is filled by one INSERT ... SELECT with its rule's WHERE:
 * SQLite's backup and VACUUM INTO copy the whole file and cannot filter.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hq/catalog.h"
#include "hq/segment.h"
#include "hq/store.h"
#include "segment_int.h"

enum kind { DIMS, TIME, RANGE, CHILD, LOCAL };

/*
 * Every table's rule, parents before children. TIME and RANGE tables are
 * cut by month: :a and :b are the month's UTC seconds [a, b), :da and :db
 * the same as dates; months is how their months are found (RANGE: the
 * first and last, by the (metric_id, time) index, every month between
 * tried; TIME: each distinct one). CHILD rows follow the rows of their
 * parent already in the segment. The metric_id IN (...) lets SQLite use
 * the (metric_id, start) index instead of reading the whole table.
 */
#define MONTH_OF(t) HQ_SQL_MONTH_OF(t)
#define MONTH_OF_DATE(d) "(CAST(substr(" d ", 1, 4) AS INT) * 12 + " \
	"CAST(substr(" d ", 6, 2) AS INT) - 1)"
#define BY_METRIC(col) "t.metric_id IN (SELECT id FROM src.metric) AND t." col \
	" >= :a AND t." col " < :b"
#define RANGE_OF(tab, col) "SELECT min(lo), max(hi) FROM (SELECT " \
	"(SELECT min(" col ") FROM " tab " WHERE metric_id = m.id) AS lo, " \
	"(SELECT max(" col ") FROM " tab " WHERE metric_id = m.id) AS hi " \
	"FROM metric AS m)"
#define OF_SAMPLE "t.sample_id IN (SELECT id FROM main.sample)"
#define OF_WORKOUT "t.workout_id IN (SELECT id FROM main.workout)"
#define OF_REPORT "t.report_id IN (SELECT id FROM main.report)"
#define OF_RUN "t.run_id IN (SELECT id FROM main.agent_run)"

static const struct rule {
	const char *table;
	enum kind kind;
	const char *where, *months;
	/* the rows' order: NULL, rowid's (or a WITHOUT ROWID table's key) */
	const char *order;
} rules[] = {
	{ "metric", DIMS, NULL, NULL, NULL },
	{ "source", DIMS, NULL, NULL, NULL },
	{ "device", DIMS, NULL, NULL, NULL },
	{ "import", DIMS, NULL, NULL, NULL },
	{ "me", DIMS, NULL, NULL, NULL },
	{ "catalog", DIMS, NULL, NULL, NULL },
	{ "time_zone", DIMS, NULL, NULL, NULL },
	{ "rollup_state", DIMS, NULL, NULL, NULL },
	{ "rollup_vals_state", DIMS, NULL, NULL, NULL },
	{ "rollup_merged_metric", DIMS, NULL, NULL, NULL },
	{ "rollup_merged_q_metric", DIMS, NULL, NULL, NULL },
	{ "workout_same_todo", DIMS, NULL, NULL, NULL },
	/* in the order of the unique sample_key index the month is found
	 * by: no sort (in rowid order a push sorted every month, 0.43 s of
	 * CPU for a year of 544,000 samples against 0.19 s) */
	{ "sample", RANGE, BY_METRIC("start"), RANGE_OF("sample", "start"),
	  "t.metric_id, t.start, t.source_id, t.end, t.value, t.text" },
	{ "sample_meta", CHILD, OF_SAMPLE, NULL, NULL },
	{ "hrv_beat", CHILD, OF_SAMPLE, NULL, NULL },
	{ "correlation", TIME, "t.start >= :a AND t.start < :b",
	  "SELECT DISTINCT " MONTH_OF("start") " FROM correlation", NULL },
	{ "correlation_member", CHILD,
	  "t.correlation_id IN (SELECT id FROM main.correlation)", NULL, NULL },
	{ "correlation_meta", CHILD,
	  "t.correlation_id IN (SELECT id FROM main.correlation)", NULL, NULL },
	{ "workout", TIME, "t.start >= :a AND t.start < :b",
	  "SELECT DISTINCT " MONTH_OF("start") " FROM workout", NULL },
	{ "workout_meta", CHILD, OF_WORKOUT, NULL, NULL },
	{ "workout_activity", CHILD, OF_WORKOUT, NULL, NULL },
	{ "workout_stat", CHILD, OF_WORKOUT, NULL, NULL },
	{ "workout_event", CHILD, OF_WORKOUT, NULL, NULL },
	{ "workout_same", CHILD, OF_WORKOUT, NULL, NULL },
	{ "workout_fill", CHILD, OF_WORKOUT, NULL, NULL },
	{ "workout_figures", CHILD, OF_WORKOUT, NULL, NULL },
	{ "route", CHILD, OF_WORKOUT, NULL, NULL },
	{ "route_point", CHILD, "t.route_id IN (SELECT id FROM main.route)", NULL, NULL },
	{ "activity_summary", TIME, "t.date >= :da AND t.date < :db",
	  "SELECT DISTINCT " MONTH_OF_DATE("date") " FROM activity_summary", NULL },
	{ "clinical_record", TIME,
	  "coalesce(t.received, 0) >= :a AND coalesce(t.received, 0) < :b",
	  "SELECT DISTINCT " MONTH_OF("coalesce(received, 0)") " FROM clinical_record", NULL },
	{ "report", TIME, "t.date >= :da AND t.date < :db",
	  "SELECT DISTINCT " MONTH_OF_DATE("date") " FROM report", NULL },
	{ "lab_result", CHILD, OF_REPORT, NULL, NULL },
	{ "dexa_value", CHILD, OF_REPORT, NULL, NULL },
	{ "rollup", RANGE, BY_METRIC("slot"), RANGE_OF("rollup", "slot"), NULL },
	{ "rollup_merged", RANGE, BY_METRIC("slot"), RANGE_OF("rollup_merged", "slot"), NULL },
	{ "rollup_merged_q", RANGE, BY_METRIC("slot"), RANGE_OF("rollup_merged_q", "slot"), NULL },
	{ "rollup_vals", RANGE, BY_METRIC("slot"), RANGE_OF("rollup_vals", "slot"), NULL },
	{ "agent_run", TIME, "t.started >= :a AND t.started < :b",
	  "SELECT DISTINCT " MONTH_OF("started") " FROM agent_run", NULL },
	{ "agent_request", CHILD, OF_RUN, NULL, NULL },
	{ "agent_tool_call", CHILD, OF_RUN, NULL, NULL },
	{ "agent_message", CHILD, OF_RUN, NULL, NULL },
	{ "agent_withheld", CHILD, OF_RUN, NULL, NULL },
	{ "plan", TIME, "t.date >= :da AND t.date < :db",
	  "SELECT DISTINCT " MONTH_OF_DATE("date") " FROM plan", NULL },
	/* this machine's own: the months hq-archive prune took out of it */
	{ HQ_STORE_PRUNED, LOCAL, NULL, NULL, NULL },
	{ HQ_STORE_PRUNED_KEY, LOCAL, NULL, NULL, NULL },
	{ HQ_STORE_PRUNED_METRIC, LOCAL, NULL, NULL, NULL },
	{ HQ_STORE_PRUNED_ROUTE, LOCAL, NULL, NULL, NULL },
};
#define NRULES (sizeof rules / sizeof rules[0])

void
hq_segment_month_name(int month, char *buf, size_t n)
{
	if (month == HQ_SEGMENT_DIMS)
		snprintf(buf, n, "dims");
	else
		hq_store_month_name(month, buf, n);
}

int
hq_segment_month_parse(const char *s)
{
	int y, m;
	char end;

	if (sscanf(s, "%4d-%2d%c", &y, &m, &end) != 2 || strlen(s) != 7 ||
	    y < 1900 || y > 9999 || m < 1 || m > 12)
		return -1;
	return y * 12 + m - 1;
}

static int
exec(sqlite3 *db, const char *sql, struct hq_err *e)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		hq_err_set(e, "%s", msg ? msg : sqlite3_errmsg(db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

/* path ATTACHed read-only AS name (a file: URI: a connection that could
 * write would checkpoint a store's WAL when it closes last). 0, or -1. */
static int
attach_ro(sqlite3 *db, const char *path, const char *name, struct hq_err *e)
{
	struct hq_buf uri = { 0 };
	char *sql;
	int rc;

	/* the default VFS named: an ATTACH takes the connection's, memdb's
	 * for a segment built in memory */
	hq_store_uri(path, "mode=ro&vfs=", &uri);
	hq_buf_puts(&uri, sqlite3_vfs_find(NULL)->zName);
	sql = sqlite3_mprintf("ATTACH %Q AS %s", uri.data, name);
	hq_buf_free(&uri);
	rc = exec(db, sql, e);
	sqlite3_free(sql);
	return rc;
}

/*
 * hq-query search's indexes (migration 13: an FTS5 and an R*Tree table,
 * each with the shadow tables SQLite makes for it) are derived from the
 * rows: no segment holds them (their shadow tables cannot be copied by
 * INSERT ... SELECT, and would make every month's bytes depend on every
 * other's), and a restore builds them again (hq_store_search_fill).
 */
static const char *const derived[] = { "search_text", "route_box",
    "search_mark" };

int
hq_segment_derived(const char *table)
{
	for (size_t i = 0; i < sizeof derived / sizeof derived[0]; i++) {
		size_t n = strlen(derived[i]);
		if (!strncmp(table, derived[i], n) && (table[n] == '\0' ||
		    table[n] == '_'))
			return 1;
	}
	return 0;
}

static const struct rule *
rule_of(const char *table)
{
	size_t i;

	for (i = 0; i < NRULES; i++)
		if (!strcmp(rules[i].table, table))
			return &rules[i];
	return NULL;
}

int
hq_segment_merged_by_rows(const char *table)
{
	const struct rule *r = rule_of(table);

	return r && r->kind != DIMS && r->kind != LOCAL;
}

/* Whether schema (main or src) has the table; every table of it has a
 * rule, else -1. */
static int
check_rules(sqlite3 *db, const char *schema, struct hq_err *e)
{
	char sql[200];
	sqlite3_stmt *st;
	int rc = 0;

	snprintf(sql, sizeof sql, "SELECT name FROM %s.sqlite_schema WHERE "
	    "type = 'table' AND name NOT LIKE 'sqlite_%%' ORDER BY name", schema);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		hq_err_set(e, "%s", sqlite3_errmsg(db));
		return -1;
	}
	while (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(st, 0);
		if (!rule_of(t) && !hq_segment_derived(t)) {
			hq_err_set(e, "the store's table %s has no archive rule "
			    "(lib/archive/segment.c)", t);
			rc = -1;
		}
	}
	sqlite3_finalize(st);
	return rc;
}

static int
has_table(sqlite3 *db, const char *schema, const char *table)
{
	char *sql = sqlite3_mprintf("SELECT 1 FROM %s.sqlite_schema WHERE "
	    "type = 'table' AND name = %Q", schema, table);
	sqlite3_stmt *st;
	int yes = 0;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK)
		yes = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	sqlite3_free(sql);
	return yes;
}

int
hq_segment_month_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static int
month_of_time(int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm))
		return -1;
	return (tm.tm_year + 1900) * 12 + tm.tm_mon;
}

int
hq_segment_months(sqlite3 *db, int **months, struct hq_err *e)
{
	size_t n = 0, cap = 64, i, k;
	int *m = hq_xmalloc(cap * sizeof *m);

	*months = NULL;
	for (i = 0; i < NRULES; i++) {
		const struct rule *r = &rules[i];
		sqlite3_stmt *st;

		if ((r->kind != TIME && r->kind != RANGE) || !has_table(db, "main", r->table))
			continue;
		if (sqlite3_prepare_v2(db, r->months, -1, &st, NULL) != SQLITE_OK) {
			hq_err_set(e, "%s: %s", r->table, sqlite3_errmsg(db));
			goto fail;
		}
		while (sqlite3_step(st) == SQLITE_ROW) {
			int lo, hi, x;
			if (sqlite3_column_type(st, 0) == SQLITE_NULL)
				continue;
			if (r->kind == RANGE) {
				lo = month_of_time(sqlite3_column_int64(st, 0));
				hi = month_of_time(sqlite3_column_int64(st, 1));
			} else {
				lo = hi = sqlite3_column_int(st, 0);
			}
			for (x = lo; x >= 0 && x <= hi; x++) {
				if (n == cap)
					m = hq_xrealloc(m, (cap *= 2) * sizeof *m);
				m[n++] = x;
			}
		}
		sqlite3_finalize(st);
	}
	qsort(m, n, sizeof *m, hq_segment_month_cmp);
	for (i = k = 0; i < n; i++)
		if (k == 0 || m[k - 1] != m[i])
			m[k++] = m[i];
	*months = m;
	return (int)k;
fail:
	free(m);
	return -1;
}

/* The store's file and its WAL: size and time of last change. Every
 * commit changes one of them; reading changes neither (a later checkpoint
 * may: the push then builds the months again and finds them the same). A
 * count of each table's rows would see the same, but reads the whole
 * store: 1 s of the no-change push on 2 years. */
static void
mark_file(struct hq_buf *out, const char *what, const char *path)
{
	struct stat st;

	/* an empty WAL holds nothing: every open may make one anew */
	if (stat(path, &st) == 0 && st.st_size > 0)
		hq_buf_printf(out, ",%s %lld %lld.%09ld", what, (long long)st.st_size,
		    (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
	else
		hq_buf_printf(out, ",%s -", what);
}

int
hq_segment_marks(sqlite3 *db, struct hq_buf *out, struct hq_err *e)
{
	const char *file = sqlite3_db_filename(db, "main");
	struct hq_buf wal = {0};
	sqlite3_stmt *st;

	if (!file || !*file) {
		hq_err_set(e, "the store has no file");
		return -1;
	}
	if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK) {
		hq_err_set(e, "%s", sqlite3_errmsg(db));
		return -1;
	}
	if (sqlite3_step(st) == SQLITE_ROW)
		hq_buf_printf(out, "schema %d", sqlite3_column_int(st, 0));
	sqlite3_finalize(st);
	mark_file(out, "db", file);
	hq_buf_printf(&wal, "%s-wal", file);
	mark_file(out, "wal", wal.data);
	hq_buf_free(&wal);
	return 0;
}

static void
bind_month(sqlite3_stmt *st, int64_t a, int64_t b, const char *da, const char *db)
{
	int k;

	if ((k = sqlite3_bind_parameter_index(st, ":a")))
		sqlite3_bind_int64(st, k, a);
	if ((k = sqlite3_bind_parameter_index(st, ":b")))
		sqlite3_bind_int64(st, k, b);
	if ((k = sqlite3_bind_parameter_index(st, ":da")))
		sqlite3_bind_text(st, k, da, -1, SQLITE_STATIC);
	if ((k = sqlite3_bind_parameter_index(st, ":db")))
		sqlite3_bind_text(st, k, db, -1, SQLITE_STATIC);
}

/* Copy the CREATE TABLE of every table of src that segment holds: not a
 * derived one, nor this machine's own (LOCAL). */
static int
copy_schema(sqlite3 *db, struct hq_err *e)
{
	sqlite3_stmt *st;
	int rc = 0;

	if (sqlite3_prepare_v2(db, "SELECT name, sql FROM src.sqlite_schema WHERE "
	    "type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
	    -1, &st, NULL) != SQLITE_OK) {
		hq_err_set(e, "%s", sqlite3_errmsg(db));
		return -1;
	}
	while (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		const struct rule *r = rule_of(name);
		if (!hq_segment_derived(name) && !(r && r->kind == LOCAL))
			rc = exec(db, (const char *)sqlite3_column_text(st, 1), e);
	}
	sqlite3_finalize(st);
	return rc;
}

/* The tables a prune takes rows of, and which rows of a segment the
 * store (schema %s) no longer has. A merge with an archived month (arc)
 * also leaves out an archived sample the store holds again under a new
 * id (imported again after the prune): dupe. */
static const struct {
	const char *table, *missing, *dupe;
} hybrid_tables[] = {
	{ "sample", "t.id NOT IN (SELECT id FROM %s.sample)",
	  " AND NOT EXISTS (SELECT 1 FROM src.sample AS k WHERE k.metric_id = "
	  "t.metric_id AND k.start = t.start AND k.source_id = t.source_id AND "
	  "k.end = t.end AND k.value = t.value AND k.text = t.text)" },
	{ "sample_meta", "t.sample_id NOT IN (SELECT id FROM %s.sample)", "" },
	{ "hrv_beat", "t.sample_id NOT IN (SELECT id FROM %s.sample)", "" },
	/* NOT EXISTS, one look in the key: a row value's NOT IN (SELECT)
	 * is built again for each statement run (hybrid.c's batches) */
	{ "route_point", "NOT EXISTS (SELECT 1 FROM %s.route_point AS p WHERE "
	    "p.route_id = t.route_id AND p.seq = t.seq)", "" },
};
#define NHYBRID (sizeof hybrid_tables / sizeof hybrid_tables[0])

/* Where rule r's rows come from: the store's table, or with arc, it and
 * the archived month's rows it no longer has (sqlite3_free(); NULL, e
 * set, when the archived table's columns do not fit). */
static char *
source_of(sqlite3 *db, const struct rule *r, int arc, struct hq_err *e)
{
	for (size_t i = 0; arc && i < NHYBRID; i++) {
		char *missing, *cols, *s;
		if (strcmp(hybrid_tables[i].table, r->table) ||
		    !has_table(db, "arc", r->table))
			continue;
		if (!(cols = hq_segment_columns(db, "src", "arc", r->table, e)))
			return NULL;
		missing = sqlite3_mprintf(hybrid_tables[i].missing, "src");
		s = sqlite3_mprintf("(SELECT * FROM src.\"%w\" UNION ALL SELECT "
		    "%s FROM arc.\"%w\" AS t WHERE %s%s)", r->table, cols, r->table,
		    missing, hybrid_tables[i].dupe);
		sqlite3_free(missing);
		sqlite3_free(cols);
		return s;
	}
	return sqlite3_mprintf("src.\"%w\"", r->table);
}

/* An archived sample whose id the store gave to another sample since the
 * prune: the merge would lose one of them. */
static int
check_ids(sqlite3 *db, struct hq_err *e)
{
	sqlite3_stmt *st;
	int64_t n = 0;

	if (!has_table(db, "arc", "sample"))
		return 0;
	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM arc.sample AS t JOIN "
	    "src.sample AS k ON k.id = t.id WHERE k.metric_id IS NOT t.metric_id "
	    "OR k.start IS NOT t.start OR k.source_id IS NOT t.source_id OR "
	    "k.end IS NOT t.end OR k.value IS NOT t.value OR k.text IS NOT t.text",
	    -1, &st, NULL) != SQLITE_OK) {
		hq_err_set(e, "%s", sqlite3_errmsg(db));
		return -1;
	}
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (n)
		hq_err_set(e, "%lld archived samples have ids the store gave to "
		    "other samples since the prune: not merged", (long long)n);
	return n ? -1 : 0;
}

/* Whether the store's table may have a row: 0 when it has none. */
static int
has_rows(sqlite3 *db, const char *table)
{
	char *sql = sqlite3_mprintf("SELECT 1 FROM src.\"%w\" LIMIT 1", table);
	sqlite3_stmt *st;
	int yes = 1;

	/* an error: the copy meets it again, and says it */
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK)
		yes = sqlite3_step(st) != SQLITE_DONE;
	sqlite3_finalize(st);
	sqlite3_free(sql);
	return yes;
}

/* Rule r's rows of the month into main, added to *rows: 0, 1 when the
 * segment is full (in memory: built again in a file), or -1. */
static int
copy_rule(sqlite3 *db, const struct rule *r, int arc, int64_t a, int64_t b,
    const char *da, const char *dbs, int64_t *rows, struct hq_err *e)
{
	sqlite3_stmt *st;
	char *sql, *from;
	int ordered, v;

	/* nothing to copy: a sample's children (sample_meta, hrv_beat)
	 * found by a list of the month's sample ids, built and probed for
	 * nothing (a third of a month's build on a store without them) */
	if (!arc && !has_rows(db, r->table))
		return 0;
	if (!(from = source_of(db, r, arc, e)))
		return -1;
	sql = sqlite3_mprintf("INSERT INTO main.\"%w\" SELECT t.* FROM "
	    "%s AS t WHERE %s ORDER BY %s", r->table, from,
	    r->where ? r->where : "1", r->order ? r->order : "t.rowid");
	/* WITHOUT ROWID (or the merge's rows): in the order of its key */
	ordered = sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK;
	sqlite3_free(sql);
	if (!ordered) {
		sql = sqlite3_mprintf("INSERT INTO main.\"%w\" SELECT t.* FROM "
		    "%s AS t WHERE %s", r->table, from, r->where ? r->where : "1");
		v = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
		sqlite3_free(sql);
		if (v != SQLITE_OK) {
			hq_err_set(e, "%s: %s", r->table, sqlite3_errmsg(db));
			sqlite3_free(from);
			return -1;
		}
	}
	sqlite3_free(from);
	bind_month(st, a, b, da, dbs);
	if ((v = sqlite3_step(st)) != SQLITE_DONE)
		hq_err_set(e, "%s: %s", r->table, sqlite3_errmsg(db));
	else
		*rows += sqlite3_changes(db);
	sqlite3_finalize(st);
	return v == SQLITE_DONE ? 0 : v == SQLITE_FULL ? 1 : -1;
}

/* Fill db's main (a new, empty database) with month's segment of the
 * store file, and with arc's rows the store no longer has. */
static int
fill(sqlite3 *db, const char *store, int month, const char *arc, int64_t *rows,
    struct hq_err *e)
{
	sqlite3_stmt *st;
	char da[16] = "", dbs[16] = "";
	int64_t a = 0, b = 0;
	size_t i;
	int rc = -1, v;

	*rows = 0;
	if (month != HQ_SEGMENT_DIMS) {
		struct tm ta, tb;
		time_t ta_t, tb_t;
		hq_store_month_bounds(month, &a, &b);
		ta_t = (time_t)a;
		tb_t = (time_t)b;
		strftime(da, sizeof da, "%Y-%m-%d", gmtime_r(&ta_t, &ta));
		strftime(dbs, sizeof dbs, "%Y-%m-%d", gmtime_r(&tb_t, &tb));
	}
	/* a scratch database, rebuilt after any failure; a cache of 8 MiB
	 * holds a month of per-minute data, where SQLite's 2 MiB spilled
	 * pages to the file and read them back (10 % of a push's CPU) */
	if (exec(db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;"
	    "PRAGMA main.cache_size = -8192", e))
		return -1;
	/* read-only: a connection that could write would checkpoint the
	 * store's WAL when it closes last, changing the file a push's
	 * fingerprint reads */
	if (attach_ro(db, store, "src", e))
		return -1;
	if (arc && attach_ro(db, arc, "arc", e))
		goto detach;
	/* one snapshot of the store for every table */
	if (exec(db, "BEGIN", e) || check_rules(db, "src", e) || copy_schema(db, e) ||
	    (arc && check_ids(db, e)))
		goto detach;
	if (sqlite3_prepare_v2(db, "PRAGMA src.user_version", -1, &st, NULL) == SQLITE_OK) {
		char pv[64];
		snprintf(pv, sizeof pv, "PRAGMA main.user_version = %d",
		    sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0);
		sqlite3_finalize(st);
		if (exec(db, pv, e))
			goto detach;
	}
	for (i = 0; i < NRULES; i++) {
		const struct rule *r = &rules[i];

		if ((month == HQ_SEGMENT_DIMS) != (r->kind == DIMS) ||
		    r->kind == LOCAL || !has_table(db, "src", r->table))
			continue;
		if ((rc = copy_rule(db, r, arc != NULL, a, b, da, dbs, rows, e)) != 0)
			goto detach;
	}
	if ((v = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL)) != SQLITE_OK) {
		hq_err_set(e, "%s", sqlite3_errmsg(db));
		rc = v == SQLITE_FULL ? 1 : -1;
		goto detach;
	}
	rc = 0;
detach:
	if (rc)
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_exec(db, "DETACH src", NULL, NULL, NULL);
	if (arc)
		sqlite3_exec(db, "DETACH arc", NULL, NULL, NULL);
	return rc;
}

int
hq_segment_build(const char *store, int month, const char *arc, const char *out,
    int64_t *rows, struct hq_err *e)
{
	sqlite3 *db = NULL;
	mode_t old;
	int rc = -1, v;

	*rows = 0;
	unlink(out);
	old = umask(077);
	v = sqlite3_open_v2(out, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
	    SQLITE_OPEN_URI, NULL);
	umask(old);
	if (v != SQLITE_OK)
		hq_err_set(e, "%s: %s", out, db ? sqlite3_errmsg(db) : "cannot open");
	else if (fill(db, store, month, arc, rows, e) == 0)
		rc = 0;
	if (db && sqlite3_close(db) != SQLITE_OK && rc == 0) {
		hq_err_set(e, "%s: cannot close", out);
		rc = -1;
	}
	if (rc)
		unlink(out);
	return rc;
}

#define GROW (8 << 20)

int
hq_segment_build_mem(const char *store, int month, const char *arc,
    int64_t limit, sqlite3 **out, int64_t *rows, struct hq_err *e)
{
	sqlite3 *db = NULL;
	sqlite3_int64 lim = limit;
	unsigned char *grow;
	int rc;

	*out = NULL;
	/* memdb, and a name without '/': this connection's own */
	if (sqlite3_open_v2("file:segment?vfs=memdb", &db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE | SQLITE_OPEN_URI, NULL) != SQLITE_OK) {
		hq_err_set(e, "a segment in memory: %s", db ? sqlite3_errmsg(db)
		    : "cannot open");
		sqlite3_close(db);
		return -1;
	}
	/* room for a month of per-minute data from the start: growing by
	 * doubling copied the pages and faulted new ones in (6 % of a push) */
	grow = sqlite3_malloc64(GROW);
	if (!grow || sqlite3_deserialize(db, "main", grow, 0, GROW,
	    SQLITE_DESERIALIZE_RESIZEABLE | SQLITE_DESERIALIZE_FREEONCLOSE) != SQLITE_OK) {
		hq_err_set(e, "a segment in memory: %s", sqlite3_errmsg(db));
		sqlite3_close(db);
		return -1;
	}
	sqlite3_file_control(db, "main", SQLITE_FCNTL_SIZE_LIMIT, &lim);
	if ((rc = fill(db, store, month, arc, rows, e)) != 0) {
		sqlite3_close(db);
		return rc;
	}
	*out = db;
	return 0;
}

const unsigned char *
hq_segment_bytes(sqlite3 *db, int64_t *size)
{
	sqlite3_int64 n = 0;
	const unsigned char *p = sqlite3_serialize(db, "main", &n,
	    SQLITE_SERIALIZE_NOCOPY);

	*size = p ? n : 0;
	return p;
}

int
hq_segment_schema(const char *seg, struct hq_err *e)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st;
	int v = -1;

	if (sqlite3_open_v2(seg, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK) {
		hq_err_set(e, "%s: %s", seg, db ? sqlite3_errmsg(db) : "cannot open");
		sqlite3_close(db);
		return -1;
	}
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

int
hq_segment_merge(sqlite3 *db, const char *seg, struct hq_err *e)
{
	char *sql = sqlite3_mprintf("ATTACH %Q AS seg", seg), *cols;
	size_t i;
	int rc = exec(db, sql, e);

	sqlite3_free(sql);
	if (rc)
		return -1;
	/* ATTACH and DETACH cannot be inside a transaction: one per segment */
	if (check_rules(db, "seg", e) || exec(db, "BEGIN", e))
		goto detach;
	for (i = 0; i < NRULES && rc == 0; i++) {
		if (rules[i].kind == LOCAL || !has_table(db, "seg", rules[i].table))
			continue;
		if (!has_table(db, "main", rules[i].table)) {
			hq_err_set(e, "the segment's table %s is not in the store",
			    rules[i].table);
			rc = -1;
			break;
		}
		/* the migrations seed some tables (rollup_state): the
		 * archive's rows win; a segment of an older schema: the
		 * columns added since take their default */
		if (!(cols = hq_segment_columns(db, "main", "seg", rules[i].table, e))) {
			rc = -1;
			break;
		}
		sql = sqlite3_mprintf("INSERT %s INTO main.\"%w\" SELECT %s FROM "
		    "seg.\"%w\" AS t", rules[i].kind == DIMS ? "OR REPLACE" : "",
		    rules[i].table, cols, rules[i].table);
		rc = exec(db, sql, e);
		if (rc)
			hq_err_prefix(e, "%s", rules[i].table);
		sqlite3_free(sql);
		sqlite3_free(cols);
	}
	if (rc == 0 && exec(db, "COMMIT", e) == 0) {
		exec(db, "DETACH seg", e);
		return 0;
	}
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
detach:
	sqlite3_exec(db, "DETACH seg", NULL, NULL, NULL);
	return -1;
}

/* ---- prune ---------------------------------------------------------- */

/*
 * The raw rows of a month, as the month's segment holds them: its samples
 * (by the sample rule) but those a correlation names (a blood pressure's
 * two readings stay: they are few, and correlation_member needs them) and
 * those of resting heart rate and sleep (a few a day, and read over the
 * store's whole time: the athlete's rest_hr, the nights of hq-query
 * --list; pruned, every command asking them would read every month back,
 * past the cache's bound on a store of years), with their metadata and
 * beats; the route points of its workouts' routes
 * (the route rule). Gathered in temp.prune_sample first; the store's
 * newest sample is kept.
 */
/* the routes of the workouts that started in the month: their points
 * counted, then deleted */
#define PRUNE_ROUTES "(SELECT r.id FROM main.route AS r JOIN main.workout " \
	"AS w ON w.id = r.workout_id WHERE w.start >= :a AND w.start < :b)"

static const struct {
	const char *sql;
	int counted;          /* its changes are rows pruned */
} prune_sql[] = {
	{ "DELETE FROM temp.prune_sample", 0 },
	{ "INSERT INTO temp.prune_sample SELECT t.id FROM main.sample AS t WHERE "
	    "t.metric_id IN (SELECT id FROM main.metric) AND t.start >= :a AND "
	    "t.start < :b AND t.id NOT IN (SELECT sample_id FROM main.correlation_member) "
	    "AND t.metric_id NOT IN (SELECT id FROM main.metric WHERE identifier IN ('"
	    HQ_RESTING_HR_ID "', '" HQ_SLEEP_ID "'))", 0 },
	/* the store's newest sample stays: SQLite gives a new row the
	 * greatest id + 1, and an id a pruned sample had must never name
	 * another (the archive's rows and the store's are told apart by id) */
	{ "DELETE FROM temp.prune_sample WHERE id = (SELECT max(id) FROM main.sample)", 0 },
	{ "INSERT OR IGNORE INTO main." HQ_STORE_PRUNED_KEY " SELECT metric_id, "
	    "start, source_id, end, value, text FROM main.sample WHERE id IN "
	    "(SELECT id FROM temp.prune_sample)", 0 },
	/* added to: a month pruned again took samples imported since */
	{ "INSERT INTO main." HQ_STORE_PRUNED_METRIC " SELECT :m, metric_id, "
	    "source_id, count(*), min(start), max(end), max(start), max(unit) "
	    "FROM main.sample WHERE id IN (SELECT id FROM temp.prune_sample) "
	    "GROUP BY metric_id, source_id ON CONFLICT DO UPDATE SET n = n + "
	    "excluded.n, first = min(first, excluded.first), last = max(last, "
	    "excluded.last), newest = max(newest, excluded.newest), unit = "
	    "coalesce(max(unit, excluded.unit), unit, excluded.unit)", 0 },
	/* metric 0 (no metric's id): the month is summed, even one whose
	 * prune took no sample (a lab result's month) */
	{ "INSERT OR IGNORE INTO main." HQ_STORE_PRUNED_METRIC " (month, "
	    "metric_id, source_id, n) VALUES (:m, 0, 0, 0)", 0 },
	{ "INSERT INTO main." HQ_STORE_PRUNED_ROUTE " SELECT route_id, count(*) "
	    "FROM main.route_point WHERE route_id IN " PRUNE_ROUTES " GROUP BY "
	    "route_id ON CONFLICT DO UPDATE SET points = points + excluded.points", 0 },
	{ "DELETE FROM main.sample_meta WHERE sample_id IN (SELECT id FROM temp.prune_sample)", 1 },
	{ "DELETE FROM main.hrv_beat WHERE sample_id IN (SELECT id FROM temp.prune_sample)", 1 },
	{ "DELETE FROM main.sample WHERE id IN (SELECT id FROM temp.prune_sample)", 1 },
	{ "DELETE FROM main.route_point WHERE route_id IN " PRUNE_ROUTES, 1 },
	{ "INSERT OR REPLACE INTO main." HQ_STORE_PRUNED " (month, rows) VALUES (:m, :n)", 0 },
};

/*
 * An import after a prune: Apple Health's export holds every year, and a
 * pruned sample the nightly import meets again must stay a duplicate (as
 * the unique sample_key found it before the prune), not come back as new
 * (the store grown back, its hours counted twice in the rollups). Its key
 * is in HQ_STORE_PRUNED_KEY; the trigger, for a sample before the end of
 * the newest month pruned (b), ignores an insert the keys hold, as INSERT
 * OR IGNORE does a duplicate. A route of a pruned workout is not filled
 * again either: hq-ingest fills only a route without points and boxes.
 */
static int
pruned_guard(sqlite3 *db, struct hq_err *e)
{
	sqlite3_stmt *st;
	int64_t a, b;
	int newest, rc;
	char *sql;

	if (sqlite3_prepare_v2(db, "SELECT max(month) FROM main." HQ_STORE_PRUNED,
	    -1, &st, NULL) != SQLITE_OK) {
		hq_err_set(e, "%s", sqlite3_errmsg(db));
		return -1;
	}
	rc = sqlite3_step(st);
	newest = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW) {
		hq_err_set(e, "%s", sqlite3_errmsg(db));
		return -1;
	}
	hq_store_month_bounds(newest, &a, &b);
	sql = sqlite3_mprintf("DROP TRIGGER IF EXISTS main.archive_pruned_sample;"
	    "CREATE TRIGGER main.archive_pruned_sample BEFORE INSERT ON sample "
	    "WHEN NEW.start < %lld BEGIN SELECT RAISE(IGNORE) WHERE EXISTS "
	    "(SELECT 1 FROM " HQ_STORE_PRUNED_KEY " AS k WHERE k.metric_id "
	    "= NEW.metric_id AND k.start = NEW.start AND k.source_id = "
	    "NEW.source_id AND k.end = NEW.end AND k.value = NEW.value AND "
	    "k.text = NEW.text); END;", (long long)b);
	rc = exec(db, sql, e);
	sqlite3_free(sql);
	return rc;
}

int
hq_segment_prune(sqlite3 *db, int month, int64_t *rows, struct hq_err *e)
{
	int64_t a, b;
	size_t i;

	*rows = 0;
	hq_store_month_bounds(month, &a, &b);
	if (exec(db, "CREATE TABLE IF NOT EXISTS main." HQ_STORE_PRUNED " ("
	    "month INTEGER PRIMARY KEY, rows INTEGER NOT NULL);"
	    "CREATE TABLE IF NOT EXISTS main." HQ_STORE_PRUNED_KEY " ("
	    "metric_id INTEGER, start INTEGER, source_id INTEGER, end INTEGER, "
	    "value REAL, text TEXT, PRIMARY KEY (metric_id, start, source_id, "
	    "end, value, text)) WITHOUT ROWID;"
	    "CREATE TABLE IF NOT EXISTS main." HQ_STORE_PRUNED_METRIC " ("
	    "month INTEGER, metric_id INTEGER, source_id INTEGER, n INTEGER, "
	    "first INTEGER, last INTEGER, newest INTEGER, unit TEXT, PRIMARY KEY "
	    "(month, metric_id, source_id)) WITHOUT ROWID;"
	    "CREATE TABLE IF NOT EXISTS main." HQ_STORE_PRUNED_ROUTE " ("
	    "route_id INTEGER PRIMARY KEY, points INTEGER NOT NULL);"
	    "CREATE TEMP TABLE IF NOT EXISTS prune_sample (id INTEGER PRIMARY KEY)", e))
		return -1;
	for (i = 0; i < sizeof prune_sql / sizeof prune_sql[0]; i++) {
		sqlite3_stmt *st;
		int k;

		if (sqlite3_prepare_v2(db, prune_sql[i].sql, -1, &st, NULL) != SQLITE_OK) {
			hq_err_set(e, "%s", sqlite3_errmsg(db));
			return -1;
		}
		bind_month(st, a, b, NULL, NULL);
		if ((k = sqlite3_bind_parameter_index(st, ":m")))
			sqlite3_bind_int(st, k, month);
		if ((k = sqlite3_bind_parameter_index(st, ":n")))
			sqlite3_bind_int64(st, k, *rows);
		if (sqlite3_step(st) != SQLITE_DONE) {
			hq_err_set(e, "%s", sqlite3_errmsg(db));
			sqlite3_finalize(st);
			return -1;
		}
		if (prune_sql[i].counted)
			*rows += sqlite3_changes(db);
		sqlite3_finalize(st);
	}
	return pruned_guard(db, e);
}

int
hq_segment_pruned(sqlite3 *db, int **months, struct hq_err *e)
{
	sqlite3_stmt *st;
	size_t n = 0, cap = 16;
	int *m;

	*months = NULL;
	if (!has_table(db, "main", HQ_STORE_PRUNED))
		return 0;
	if (sqlite3_prepare_v2(db, "SELECT month FROM main." HQ_STORE_PRUNED
	    " ORDER BY month", -1, &st, NULL) != SQLITE_OK) {
		hq_err_set(e, "%s", sqlite3_errmsg(db));
		return -1;
	}
	m = hq_xmalloc(cap * sizeof *m);
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (n == cap)
			m = hq_xrealloc(m, (cap *= 2) * sizeof *m);
		m[n++] = sqlite3_column_int(st, 0);
	}
	sqlite3_finalize(st);
	*months = m;
	return (int)n;
}

/* CREATE TEMP TABLE archive_TABLE with main's columns, types and
 * defaults (a segment of an older schema lacks a column: its rows take
 * the default, as a merge gives them), no constraint: sqlite3_free(). */
static char *
hybrid_table_sql(sqlite3 *db, const char *table)
{
	struct hq_buf sql = {0};
	sqlite3_stmt *st;
	char *s;

	if (sqlite3_prepare_v2(db, "SELECT name, type, dflt_value FROM "
	    "pragma_table_info(?1, 'main')", -1, &st, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *dflt = (const char *)sqlite3_column_text(st, 2);
		s = sqlite3_mprintf("%s\"%w\" %s%s%s", sql.len ? ", " : "",
		    (const char *)sqlite3_column_text(st, 0),
		    (const char *)sqlite3_column_text(st, 1), dflt ? " DEFAULT " : "",
		    dflt ? dflt : "");
		hq_buf_puts(&sql, s);
		sqlite3_free(s);
	}
	sqlite3_finalize(st);
	s = sql.len ? sqlite3_mprintf("CREATE TEMP TABLE \"archive_%w\" (%s)", table,
	    sql.data) : NULL;
	hq_buf_free(&sql);
	return s;
}

int
hq_segment_hybrid_tables(sqlite3 *db, struct hq_err *e)
{
	for (size_t i = 0; i < NHYBRID; i++) {
		char *sql = hybrid_table_sql(db, hybrid_tables[i].table);
		int rc = sql ? exec(db, sql, e) : -1;
		if (!sql)
			hq_err_set(e, "%s: %s", hybrid_tables[i].table, sqlite3_errmsg(db));
		sqlite3_free(sql);
		if (rc)
			return -1;
	}
	return exec(db, "CREATE INDEX temp.archive_sample_ms ON archive_sample(metric_id, start);"
	    "CREATE INDEX temp.archive_sample_id ON archive_sample(id);"
	    "CREATE INDEX temp.archive_sample_meta_s ON archive_sample_meta(sample_id);"
	    "CREATE INDEX temp.archive_hrv_beat_s ON archive_hrv_beat(sample_id);"
	    "CREATE INDEX temp.archive_route_point_r ON archive_route_point(route_id, seq)", e);
}

const char *
hq_segment_hybrid_table(size_t i, const char **missing)
{
	if (i >= NHYBRID)
		return NULL;
	*missing = hybrid_tables[i].missing;
	return hybrid_tables[i].table;
}
