/*
 * hybrid — pruned months read back from the archive for a query
 * (hybrid.h): through the cache (archive_cache.c), the segments' rows put
 * beside the store.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/archive.h"
#include "hq/archive_conf.h"
#include "hq/hybrid.h"
#include "hybrid_int.h"
#include "hq/segment.h"
#include "hq/store.h"
#include "archive_int.h"

/*
 * The rows of the segment at path that db's store no longer has into the
 * temp tables (segment.h, the hybrid read), read through a connection of
 * their own: an ATTACH could not be undone while the statement that asks
 * for them runs. The segment's columns are named, so one of an older
 * schema leaves a newer column NULL. In one savepoint: all or none.
 *
 * BATCH rows an INSERT (one a row spent 2.2x the instructions of the
 * whole query in statement overhead); a last batch's unused rows are
 * NULL, and left out: each table's first column is NOT NULL (a sample's
 * id, sample_meta's and hrv_beat's sample_id, route_point's route_id).
 */
#define BATCH 64

static sqlite3_stmt *
batch_insert(sqlite3 *db, sqlite3_stmt *sel, const char *table, const char *missing)
{
	struct hq_buf cols = {0}, as = {0}, sql = {0};
	int n = sqlite3_column_count(sel);
	sqlite3_stmt *ins = NULL;
	char *s;

	for (int j = 0; j < n; j++) {
		s = sqlite3_mprintf("%s\"%w\"", j ? ", " : "", sqlite3_column_name(sel, j));
		hq_buf_puts(&cols, s);
		hq_buf_printf(&as, "%scolumn%d AS %s", j ? ", " : "", j + 1, s + (j ? 2 : 0));
		sqlite3_free(s);
	}
	s = sqlite3_mprintf("INSERT INTO temp.\"archive_%w\" (%s) SELECT * FROM (SELECT "
	    "%s FROM (VALUES ", table, cols.data, as.data);
	hq_buf_puts(&sql, s);
	sqlite3_free(s);
	for (int r = 0; r < BATCH; r++) {
		hq_buf_puts(&sql, r ? ", (?" : "(?");
		for (int j = 1; j < n; j++)
			hq_buf_puts(&sql, ", ?");
		hq_buf_putc(&sql, ')');
	}
	s = sqlite3_mprintf(missing, "main");
	hq_buf_puts(&sql, ")) AS t WHERE t.");
	hq_buf_append(&sql, cols.data, strcspn(cols.data, ","));
	hq_buf_printf(&sql, " IS NOT NULL AND %s", s);
	sqlite3_free(s);
	if (sqlite3_prepare_v2(db, sql.data, -1, &ins, NULL) != SQLITE_OK)
		ins = NULL;
	hq_buf_free(&cols);
	hq_buf_free(&as);
	hq_buf_free(&sql);
	return ins;
}

static int
load_table(sqlite3 *db, sqlite3 *seg, const char *table, const char *missing,
    const char *where, struct hq_err *e)
{
	sqlite3_stmt *sel = NULL, *ins = NULL;
	char *sql = sqlite3_mprintf("SELECT * FROM main.\"%w\"%s%s", table,
	    where ? " WHERE " : "", where ? where : "");
	int n, k = 0, rc, ok = 1;

	rc = sqlite3_prepare_v2(seg, sql, -1, &sel, NULL);
	sqlite3_free(sql);
	if (rc != SQLITE_OK) {
		if (!strncmp(sqlite3_errmsg(seg), "no such table", 13))  /* none */
			return 0;
		hq_err_set(e, "%s", sqlite3_errmsg(seg));
		return -1;
	}
	if ((n = sqlite3_column_count(sel)) == 0 || !(ins = batch_insert(db, sel, table, missing))) {
		hq_err_set(e, "%s: %s", table, n ? sqlite3_errmsg(db) : "no columns");
		sqlite3_finalize(sel);
		return -1;
	}
	while (ok && (rc = sqlite3_step(sel)) == SQLITE_ROW) {
		for (int j = 0; j < n; j++)
			sqlite3_bind_value(ins, k * n + j + 1, sqlite3_column_value(sel, j));
		if (++k == BATCH) {
			ok = sqlite3_step(ins) == SQLITE_DONE;
			sqlite3_reset(ins);
			k = 0;
		}
	}
	if (ok && rc == SQLITE_DONE && k) {
		for (int j = k * n; j < BATCH * n; j++)
			sqlite3_bind_null(ins, j + 1);
		ok = sqlite3_step(ins) == SQLITE_DONE;
	}
	if (!ok || rc != SQLITE_DONE)
		hq_err_set(e, "%s", !ok ? sqlite3_errmsg(db) : sqlite3_errmsg(seg));
	sqlite3_finalize(sel);
	sqlite3_finalize(ins);
	return ok && rc == SQLITE_DONE ? 0 : -1;
}

/* Which of a segment's rows a read takes: those of the samples of
 * metric, or (whole) all but those of the metrics in part already. NULL:
 * every row; "": none of the table. sqlite3_free(). */
static char *
rows_of(const char *table, const struct hybrid_part *part, const int64_t *metric)
{
	struct hq_buf ids = {0};
	char *s;

	if (!metric && part->n == 0)
		return NULL;
	if (!strcmp(table, "route_point"))   /* by the workout: whole months */
		return sqlite3_mprintf("%s", metric ? "0" : "1");
	if (metric)
		hq_buf_printf(&ids, "= %lld", (long long)*metric);
	for (int i = 0; !metric && i < part->n; i++)
		hq_buf_printf(&ids, "%s%lld", i ? ", " : "NOT IN (", (long long)part->metric[i]);
	if (!metric)
		hq_buf_putc(&ids, ')');
	s = !strcmp(table, "sample") ? sqlite3_mprintf("metric_id %s", ids.data) :
	    sqlite3_mprintf("sample_id IN (SELECT id FROM main.sample WHERE "
	    "metric_id %s)", ids.data);
	hq_buf_free(&ids);
	return s;
}

static int
load_month(sqlite3 *db, const char *path, const struct hybrid_part *part,
    const int64_t *metric, struct hq_err *e)
{
	sqlite3 *seg = NULL;
	const char *table, *missing;
	int rc = 0;

	if (sqlite3_open_v2(path, &seg, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		hq_err_set(e, "%s: %s", path, seg ? sqlite3_errmsg(seg) : "out of memory");
		sqlite3_close(seg);
		return -1;
	}
	if (sqlite3_exec(db, "SAVEPOINT hq_hybrid", NULL, NULL, NULL) != SQLITE_OK) {
		hq_err_set(e, "%s", sqlite3_errmsg(db));
		sqlite3_close(seg);
		return -1;
	}
	for (size_t i = 0; rc == 0 && (table = hq_segment_hybrid_table(i, &missing)); i++) {
		char *where = rows_of(table, part, metric);
		rc = load_table(db, seg, table, missing, where, e);
		sqlite3_free(where);
	}
	if (rc)
		sqlite3_exec(db, "ROLLBACK TO hq_hybrid", NULL, NULL, NULL);
	if (sqlite3_exec(db, "RELEASE hq_hybrid", NULL, NULL, NULL) != SQLITE_OK && rc == 0) {
		hq_err_set(e, "%s", sqlite3_errmsg(db));
		rc = -1;
	}
	sqlite3_close(seg);
	return rc;
}

int
hq_hybrid_has(const struct hq_hybrid *h, int i, const int64_t *metric)
{
	if (h->got[i] == HYBRID_IN || h->got[i] == HYBRID_LEFT)
		return 1;
	for (int j = 0; metric && h->got[i] == HYBRID_PART && j < h->part[i].n; j++)
		if (h->part[i].metric[j] == *metric)
			return 1;
	return 0;
}

/* Month i of h into the cache (fetched, or marked used) and its rows (of
 * metric) into the temp tables. */
static int
read_month(struct hq_hybrid *h, int i, const int64_t *metric, struct hq_buf *path,
    struct hq_err *e)
{
	struct hybrid_part *part = &h->part[i];

	if (hq_hybrid_has(h, i, metric))
		return 0;
	if (hq_archive_cache_month(&h->c, h->months[i], path, e) ||
	    load_month(h->db, path->data, part, metric, e))
		return -1;
	if (metric) {
		part->metric = hq_xrealloc(part->metric, (size_t)(part->n + 1) *
		    sizeof *part->metric);
		part->metric[part->n++] = *metric;
		h->got[i] = HYBRID_PART;
	} else
		h->got[i] = HYBRID_IN;
	return 0;
}

int
hq_hybrid_read(struct hq_hybrid *h, const int *which, int k, const int64_t *metric)
{
	struct hq_buf path = {0};
	int *months, rc = 0;

	if (h->failed)
		return -1;
	if (h->offline) {
		for (int j = 0; j < k; j++)
			h->got[which[j]] = HYBRID_LEFT;
		return 0;
	}
	/* the remote, the key and the manifest: at the first month read (a
	 * failure sets failed, above) */
	if (h->c.have == -2 && hq_archive_cache_open(&h->c, h->cfg, &h->e))
		rc = -1;
	for (int j = 0; rc == 0 && j < k; j++)
		rc = read_month(h, which[j], metric, &path, &h->e);
	if (rc == 0)
		rc = hq_archive_cache_bound(&h->c, &h->e);
	hq_buf_free(&path);
	if (rc == 0)
		return 0;
	months = hq_xmalloc((size_t)k * sizeof *months);
	for (int j = 0; j < k; j++)
		months[j] = h->months[which[j]];
	hq_archive_cache_explain(&h->e, months, k,
	    " (--offline answers from this store alone)");
	free(months);
	h->failed = 1;
	return -1;
}

int
hq_archive_hybrid(sqlite3 *db, const struct hq_config *cfg, int64_t from,
    int64_t to, int offline, struct hq_hybrid **hp, struct hq_err *e)
{
	struct hq_hybrid *h;
	int *pruned = NULL, np, n = 0;

	*hp = NULL;
	if ((np = hq_segment_pruned(db, &pruned, e)) <= 0)
		return np;
	for (int i = 0; i < np; i++) {
		int64_t a, b;
		hq_store_month_bounds(pruned[i], &a, &b);
		if (a < to && b > from)
			pruned[n++] = pruned[i];
	}
	if (n == 0) {
		free(pruned);
		return 0;
	}
	h = hq_xcalloc(1, sizeof *h);
	h->db = db;
	h->cfg = cfg;
	h->offline = offline;
	h->months = pruned;
	h->n = n;
	h->got = hq_xcalloc((size_t)n, 1);
	h->part = hq_xcalloc((size_t)n, sizeof *h->part);
	hq_archive_cache_init(&h->c);
	*hp = h;
	if (sqlite3_exec(db, "PRAGMA temp_store = FILE", NULL, NULL, NULL) != SQLITE_OK ||
	    hq_segment_hybrid_tables(db, e) ||
	    hq_hybrid_vtab_install(h, e))
		return -1;
	return 0;
}

int
hq_archive_hybrid_left(const struct hq_hybrid *h, struct hq_buf *left)
{
	int *m, k = 0;

	if (!h)
		return 0;
	m = hq_xmalloc((size_t)h->n * sizeof *m);
	for (int i = 0; i < h->n; i++)
		if (h->got[i] == HYBRID_LEFT)
			m[k++] = h->months[i];
	if (k)
		hq_store_month_list(left, m, k);
	free(m);
	return k;
}

void
hq_archive_hybrid_free(struct hq_hybrid *h)
{
	if (!h)
		return;
	hq_archive_cache_close(&h->c);
	for (int i = 0; i < h->n; i++)
		free(h->part[i].metric);
	free(h->part);
	free(h->months);
	free(h->got);
	free(h);
}
