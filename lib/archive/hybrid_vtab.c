/*
 * hybrid_vtab — the archived part of the hybrid read (hybrid.h) as
 * virtual tables: temp.archive_v_TABLE reads temp.archive_TABLE (the
 * pruned rows put in, segment.h), and the temp view TABLE is main.TABLE
 * UNION ALL it. Before it yields a row, a read asks hybrid.c for the
 * months its constraints reach that are not in yet: a sample's start
 * range; a sample's id (or sample_id) the store and the months in do not
 * hold, every month; a route's workout's month. A read without such a
 * constraint reaches every month of the command's range: nothing is
 * answered short. A command that never reads these tables (the rollups
 * answer it) fetches nothing.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>

#include "hq/buf.h"
#include "hq/segment.h"
#include "hq/store.h"
#include "hybrid_int.h"

/* What a table's archived rows are found by: the month of their start
 * (sample), their sample (sample_meta, hrv_beat), their route's workout
 * (route_point); NONE: only every month. */
enum kind { BY_START, BY_SAMPLE, BY_ROUTE, NONE };

struct vtab {
	sqlite3_vtab base;
	struct hq_hybrid *h;
	char *table;
	enum kind kind;
	int ncol;
	char **col;           /* the column names */
	int start, key;       /* start's column, the key's (id, sample_id,
	                       * route_id): -1 none */
	int metric;           /* metric_id's column, or -1 */
	sqlite3_stmt *find;   /* where the key's month is told */
	sqlite3_stmt *sums;   /* whether a month holds none of a metric */
	int no_sums;          /* the store has no sums (store.h) */
};

struct cursor {
	sqlite3_vtab_cursor base;
	sqlite3_stmt *st;
	char *idx;            /* the idxStr st was prepared for */
	int eof;
};

static const struct {
	int op;
	const char *sql;
} ops[] = {
	{ SQLITE_INDEX_CONSTRAINT_EQ, "=" }, { SQLITE_INDEX_CONSTRAINT_GT, ">" },
	{ SQLITE_INDEX_CONSTRAINT_LE, "<=" }, { SQLITE_INDEX_CONSTRAINT_LT, "<" },
	{ SQLITE_INDEX_CONSTRAINT_GE, ">=" },
};
#define NOPS (sizeof ops / sizeof ops[0])

static const char *
op_sql(int op)
{
	for (size_t i = 0; i < NOPS; i++)
		if (ops[i].op == op)
			return ops[i].sql;
	return NULL;
}

static int
column(const struct vtab *v, const char *name)
{
	for (int i = 0; i < v->ncol; i++)
		if (!strcmp(v->col[i], name))
			return i;
	return -1;
}

static int
disconnect(sqlite3_vtab *tab)
{
	struct vtab *v = (struct vtab *)tab;

	for (int i = 0; i < v->ncol; i++)
		free(v->col[i]);
	free(v->col);
	free(v->table);
	sqlite3_finalize(v->find);
	sqlite3_finalize(v->sums);
	sqlite3_free(v);
	return SQLITE_OK;
}

/* hq_archive(TABLE, "col" TYPE, ...): the columns as temp.archive_TABLE
 * has them */
static int
connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
    sqlite3_vtab **out, char **err)
{
	struct vtab *v;
	struct hq_buf decl = {0};
	int rc;

	if (argc < 5) {
		*err = sqlite3_mprintf("hq_archive: a table and its columns");
		return SQLITE_ERROR;
	}
	v = sqlite3_malloc(sizeof *v);
	if (!v)
		return SQLITE_NOMEM;
	memset(v, 0, sizeof *v);
	v->h = aux;
	v->table = hq_xstrdup(argv[3]);
	v->ncol = argc - 4;
	v->col = hq_xcalloc((size_t)v->ncol, sizeof *v->col);
	hq_buf_puts(&decl, "CREATE TABLE x(");
	for (int i = 0; i < v->ncol; i++) {
		const char *a = argv[4 + i], *q = a[0] == '"' ? strchr(a + 1, '"') : NULL;
		v->col[i] = q ? hq_xstrdup(a + 1) : hq_xstrdup(a);
		v->col[i][q ? (size_t)(q - a - 1) : strcspn(a, " ")] = '\0';
		hq_buf_printf(&decl, "%s%s", i ? ", " : "", a);
	}
	hq_buf_puts(&decl, ")");
	v->kind = !strcmp(v->table, "sample") ? BY_START : !strcmp(v->table, "route_point") ?
	    BY_ROUTE : column(v, "sample_id") >= 0 ? BY_SAMPLE : NONE;
	v->start = v->kind == BY_START ? column(v, "start") : -1;
	v->metric = column(v, "metric_id");
	v->key = column(v, v->kind == BY_START ? "id" : v->kind == BY_SAMPLE ? "sample_id" :
	    v->kind == BY_ROUTE ? "route_id" : "");
	sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
	rc = sqlite3_declare_vtab(db, decl.data);
	hq_buf_free(&decl);
	if (rc != SQLITE_OK) {
		disconnect(&v->base);
		return rc;
	}
	*out = &v->base;
	return SQLITE_OK;
}

/* Every usable comparison is passed down (SQLite checks them again): the
 * months are told from them, and the temp table's indexes answer them.
 * idxStr: "COLUMN OP," for each. */
static int
best_index(sqlite3_vtab *tab, sqlite3_index_info *info)
{
	struct vtab *v = (struct vtab *)tab;
	struct hq_buf idx = {0};
	double rows = 1e6;
	int n = 0;

	for (int i = 0; i < info->nConstraint; i++) {
		const struct sqlite3_index_constraint *c = &info->aConstraint[i];
		const char *coll = sqlite3_vtab_collation(info, i);
		if (!c->usable || c->iColumn < 0 || !op_sql(c->op) ||
		    (coll && sqlite3_stricmp(coll, "BINARY")))
			continue;
		info->aConstraintUsage[i].argvIndex = ++n;
		hq_buf_printf(&idx, "%d %d,", c->iColumn, c->op);
		if (c->iColumn == v->key && c->op == SQLITE_INDEX_CONSTRAINT_EQ)
			rows = fmin(rows, 10);
		else if (c->op == SQLITE_INDEX_CONSTRAINT_EQ && c->iColumn == v->metric)
			rows /= 50;
		else if (c->iColumn == v->start)
			rows /= 4;
	}
	info->estimatedRows = (sqlite3_int64)rows;
	info->estimatedCost = rows;
	info->idxNum = n;
	if (n) {
		info->idxStr = sqlite3_mprintf("%s", idx.data);
		info->needToFreeIdxStr = 1;
	}
	hq_buf_free(&idx);
	return info->idxStr || !n ? SQLITE_OK : SQLITE_NOMEM;
}

/* A comparison of start with a number narrows [*lo, *hi]; others (text,
 * NULL) do not: more months, never fewer. */
static void
narrow(int op, sqlite3_value *x, double *lo, double *hi)
{
	double d;

	if (sqlite3_value_type(x) != SQLITE_INTEGER && sqlite3_value_type(x) != SQLITE_FLOAT)
		return;
	d = sqlite3_value_double(x);
	if (op == SQLITE_INDEX_CONSTRAINT_EQ || op == SQLITE_INDEX_CONSTRAINT_GT ||
	    op == SQLITE_INDEX_CONSTRAINT_GE)
		*lo = fmax(*lo, d);
	if (op == SQLITE_INDEX_CONSTRAINT_EQ || op == SQLITE_INDEX_CONSTRAINT_LT ||
	    op == SQLITE_INDEX_CONSTRAINT_LE)
		*hi = fmin(*hi, d);
}

/* The months a key reaches: 0 none (the store or the months in hold its
 * sample), 1 the one of [*lo, *hi] (narrowed to the route's workout's
 * start), 2 any (not told: every month), -1 an error. */
static int
key_months(struct vtab *v, sqlite3_value *key, double *lo, double *hi)
{
	sqlite3 *db = v->h->db;
	const char *sql = v->kind == BY_ROUTE ? "SELECT w.start FROM main.route AS r "
	    "JOIN main.workout AS w ON w.id = r.workout_id WHERE r.id = ?1" :
	    "SELECT 1 FROM main.sample WHERE id = ?1 UNION ALL "
	    "SELECT 1 FROM temp.archive_sample WHERE id = ?1";
	int rc;

	if (!v->find && sqlite3_prepare_v2(db, sql, -1, &v->find, NULL) != SQLITE_OK)
		return -1;
	sqlite3_reset(v->find);
	sqlite3_bind_value(v->find, 1, key);
	rc = sqlite3_step(v->find);
	if (rc == SQLITE_DONE)
		return 2;
	if (rc != SQLITE_ROW)
		return -1;
	if (v->kind != BY_ROUTE)
		return 0;
	if (sqlite3_column_type(v->find, 0) != SQLITE_INTEGER)
		return 2;
	*lo = fmax(*lo, (double)sqlite3_column_int64(v->find, 0));
	*hi = fmin(*hi, (double)sqlite3_column_int64(v->find, 0));
	return 1;
}

/* Whether what the prune of month summed (store.h) says it held no
 * sample of metric: a month summed, without a row of it. 0 when not told
 * (a store pruned before the sums): the month is read. */
static int
holds_none(struct vtab *v, int month, int64_t metric)
{
	int none;

	if (v->no_sums)
		return 0;
	if (!v->sums && sqlite3_prepare_v2(v->h->db, "SELECT EXISTS (SELECT 1 "
	    "FROM main." HQ_STORE_PRUNED_METRIC " WHERE month = ?1 AND "
	    "metric_id = 0) AND NOT EXISTS (SELECT 1 FROM main."
	    HQ_STORE_PRUNED_METRIC " WHERE month = ?1 AND metric_id = ?2)",
	    -1, &v->sums, NULL) != SQLITE_OK) {
		v->no_sums = 1;
		return 0;
	}
	sqlite3_reset(v->sums);
	sqlite3_bind_int(v->sums, 1, month);
	sqlite3_bind_int64(v->sums, 2, metric);
	none = sqlite3_step(v->sums) == SQLITE_ROW && sqlite3_column_int(v->sums, 0);
	sqlite3_reset(v->sums);
	return none;
}

/* The months this read reaches, not in yet, read in (hybrid.c): a
 * sample's of one metric_id, that metric's samples alone, and not of a
 * month whose sums say it held none. */
static int
read_months(struct vtab *v, const char *idx, int argc, sqlite3_value **argv)
{
	struct hq_hybrid *h = v->h;
	double lo = -INFINITY, hi = INFINITY;
	sqlite3_value *key = NULL;
	int64_t m, *metric = NULL;
	int *which, k = 0, unread = 0, rc = 0;

	for (int i = 0; i < h->n; i++)
		unread += !hq_hybrid_has(h, i, NULL);
	if (!unread)
		return 0;
	for (int i = 0, col, op, len; i < argc && idx &&
	    sscanf(idx, "%d %d,%n", &col, &op, &len) == 2; i++, idx += len) {
		if (col == v->key && op == SQLITE_INDEX_CONSTRAINT_EQ)
			key = argv[i];
		if (col == v->start)
			narrow(op, argv[i], &lo, &hi);
		if (v->kind == BY_START && col == v->metric && op == SQLITE_INDEX_CONSTRAINT_EQ &&
		    sqlite3_value_type(argv[i]) == SQLITE_INTEGER) {
			m = sqlite3_value_int64(argv[i]);
			metric = &m;
		}
	}
	if (key && (rc = key_months(v, key, &lo, &hi)) <= 0) {
		if (rc < 0)
			v->base.zErrMsg = sqlite3_mprintf("%s", sqlite3_errmsg(h->db));
		return rc < 0 ? SQLITE_ERROR : SQLITE_OK;
	}
	if (key)
		metric = NULL;   /* a sample not found: every row of the months */
	which = hq_xmalloc((size_t)h->n * sizeof *which);
	for (int i = 0; i < h->n; i++) {
		int64_t a, b;
		hq_store_month_bounds(h->months[i], &a, &b);
		if (!hq_hybrid_has(h, i, metric) && (double)a <= hi && (double)b > lo &&
		    !(metric && holds_none(v, h->months[i], *metric)))
			which[k++] = i;
	}
	rc = k && hq_hybrid_read(h, which, k, metric);
	free(which);
	if (rc) {
		v->base.zErrMsg = sqlite3_mprintf("%s", h->e.msg);
		return SQLITE_ERROR;
	}
	return SQLITE_OK;
}

static int
open_cursor(sqlite3_vtab *tab, sqlite3_vtab_cursor **out)
{
	struct cursor *c = sqlite3_malloc(sizeof *c);

	(void)tab;
	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, sizeof *c);
	c->eof = 1;
	*out = &c->base;
	return SQLITE_OK;
}

static int
close_cursor(sqlite3_vtab_cursor *cur)
{
	struct cursor *c = (struct cursor *)cur;

	sqlite3_finalize(c->st);
	free(c->idx);
	sqlite3_free(c);
	return SQLITE_OK;
}

/* The cursor's statement over temp.archive_TABLE for idx, prepared once
 * for each idx it is given. */
static int
prepare(struct cursor *c, struct vtab *v, const char *idx)
{
	struct hq_buf sql = {0};
	const char *p = idx ? idx : "";
	int rc, n = 0;

	if (c->st && !strcmp(c->idx, p))
		return SQLITE_OK;
	sqlite3_finalize(c->st);
	c->st = NULL;
	free(c->idx);
	c->idx = hq_xstrdup(p);
	hq_buf_printf(&sql, "SELECT rowid, * FROM temp.\"archive_%s\" WHERE 1", v->table);
	for (int col, op, len; sscanf(p, "%d %d,%n", &col, &op, &len) == 2; p += len) {
		char *term = sqlite3_mprintf(" AND \"%w\" %s ?%d", v->col[col], op_sql(op), ++n);
		hq_buf_puts(&sql, term);
		sqlite3_free(term);
	}
	rc = sqlite3_prepare_v2(v->h->db, sql.data, -1, &c->st, NULL);
	if (rc != SQLITE_OK)
		v->base.zErrMsg = sqlite3_mprintf("%s", sqlite3_errmsg(v->h->db));
	hq_buf_free(&sql);
	return rc;
}

static int
next(sqlite3_vtab_cursor *cur)
{
	struct cursor *c = (struct cursor *)cur;
	int rc = sqlite3_step(c->st);

	c->eof = rc != SQLITE_ROW;
	if (rc == SQLITE_ROW || rc == SQLITE_DONE)
		return SQLITE_OK;
	cur->pVtab->zErrMsg = sqlite3_mprintf("%s", sqlite3_errmsg(sqlite3_db_handle(c->st)));
	return rc;
}

static int
filter(sqlite3_vtab_cursor *cur, int num, const char *idx, int argc, sqlite3_value **argv)
{
	struct cursor *c = (struct cursor *)cur;
	struct vtab *v = (struct vtab *)cur->pVtab;
	int rc;

	(void)num;
	c->eof = 1;
	if ((rc = read_months(v, idx, argc, argv)) != SQLITE_OK ||
	    (rc = prepare(c, v, idx)) != SQLITE_OK)
		return rc;
	sqlite3_reset(c->st);
	for (int i = 0; i < argc; i++)
		sqlite3_bind_value(c->st, i + 1, argv[i]);
	return next(cur);
}

static int
eof(sqlite3_vtab_cursor *cur)
{
	return ((struct cursor *)cur)->eof;
}

static int
column_value(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int i)
{
	sqlite3_result_value(ctx, sqlite3_column_value(((struct cursor *)cur)->st, i + 1));
	return SQLITE_OK;
}

static int
rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *id)
{
	*id = sqlite3_column_int64(((struct cursor *)cur)->st, 0);
	return SQLITE_OK;
}

static const sqlite3_module module = {
	.iVersion = 0,
	.xCreate = connect, .xConnect = connect,
	.xBestIndex = best_index,
	.xDisconnect = disconnect, .xDestroy = disconnect,
	.xOpen = open_cursor, .xClose = close_cursor,
	.xFilter = filter, .xNext = next, .xEof = eof,
	.xColumn = column_value, .xRowid = rowid,
};

/* CREATE VIRTUAL TABLE temp.archive_v_TABLE USING hq_archive(TABLE,
 * "col" TYPE, ...), the columns of temp.archive_TABLE */
static char *
create_sql(sqlite3 *db, const char *table)
{
	struct hq_buf sql = {0};
	sqlite3_stmt *st;
	char *arc = sqlite3_mprintf("archive_%s", table), *s;

	if (sqlite3_prepare_v2(db, "SELECT name, type FROM pragma_table_info(?1, 'temp')",
	    -1, &st, NULL) != SQLITE_OK) {
		sqlite3_free(arc);
		return NULL;
	}
	sqlite3_bind_text(st, 1, arc, -1, SQLITE_STATIC);
	s = sqlite3_mprintf("CREATE VIRTUAL TABLE temp.\"archive_v_%w\" USING "
	    "hq_archive(%s", table, table);
	hq_buf_puts(&sql, s);
	sqlite3_free(s);
	while (sqlite3_step(st) == SQLITE_ROW) {
		s = sqlite3_mprintf(", \"%w\" %s", (const char *)sqlite3_column_text(st, 0),
		    (const char *)sqlite3_column_text(st, 1));
		hq_buf_puts(&sql, s);
		sqlite3_free(s);
	}
	hq_buf_puts(&sql, ")");
	sqlite3_finalize(st);
	sqlite3_free(arc);
	return hq_buf_steal(&sql);
}

int
hq_hybrid_vtab_install(struct hq_hybrid *h, struct hq_err *e)
{
	const char *table, *missing;

	if (sqlite3_create_module_v2(h->db, "hq_archive", &module, h, NULL) != SQLITE_OK) {
		hq_err_set(e, "%s", sqlite3_errmsg(h->db));
		return -1;
	}
	for (size_t i = 0; (table = hq_segment_hybrid_table(i, &missing)); i++) {
		char *vt = create_sql(h->db, table), *view = sqlite3_mprintf("CREATE TEMP "
		    "VIEW \"%w\" AS SELECT * FROM main.\"%w\" UNION ALL SELECT * FROM "
		    "temp.\"archive_v_%w\"", table, table, table);
		int rc = !vt || sqlite3_exec(h->db, vt, NULL, NULL, NULL) != SQLITE_OK ||
		    sqlite3_exec(h->db, view, NULL, NULL, NULL) != SQLITE_OK;
		free(vt);
		sqlite3_free(view);
		if (rc) {
			hq_err_set(e, "%s", sqlite3_errmsg(h->db));
			return -1;
		}
	}
	return 0;
}
