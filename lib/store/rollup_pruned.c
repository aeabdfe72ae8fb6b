/*
 * rollup_pruned — the hours of pruned months totalled again with the
 * archived samples (rollup_int.h): which months a merge reaches, read
 * through the store's archive hook, and put beside the store's samples.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/catalog.h"
#include "hq/rollup.h"
#include "rollup_int.h"
#include "store_int.h"

/* Spans held before they are sorted and joined (24 bytes each); past
 * half of it after a join, the gap that joins them doubles. */
#define SPANS_MAX 65536

int
hq_rollup_pruned_begin(struct hq_store *s, struct hq_rollup_pruned *p,
    struct hq_err *e)
{
	sqlite3_stmt *st;
	int64_t a, b;
	int rc;

	memset(p, 0, sizeof *p);
	p->from = INT64_MIN;
	p->gap = 86400;
	/* what an earlier import on this connection read stays */
	p->samples = hq_store_has_table(s, "temp", "rollup_arc") ?
	    "temp.rollup_sample" : "main.sample";
	if (!hq_store_has_table(s, "main", HQ_STORE_PRUNED))
		return 0;
	if (hq_store_prepare(s, "SELECT max(month) FROM main." HQ_STORE_PRUNED, &st, e))
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
		hq_store_month_bounds(sqlite3_column_int(st, 0), &a, &b);
		p->from = b + HQ_CUMULATIVE_MAX_SPAN;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return hq_store_sql_err(s, e, "reading the pruned months");
	return 0;
}

static int
span_cmp(const void *x, const void *y)
{
	const struct hq_rollup_span *a = x, *b = y;

	if (a->metric != b->metric)
		return a->metric < b->metric ? -1 : 1;
	return (a->lo > b->lo) - (a->lo < b->lo);
}

/* The spans sorted, and those of a metric closer than p->gap joined;
 * the gap doubled until at most half of SPANS_MAX are left. */
static void
join(struct hq_rollup_pruned *p)
{
	size_t k;

	if (p->n)
		qsort(p->v, p->n, sizeof *p->v, span_cmp);
	do {
		k = 0;
		for (size_t i = 0; i < p->n; i++) {
			if (k && p->v[k - 1].metric == p->v[i].metric &&
			    p->v[i].lo <= p->v[k - 1].hi + p->gap) {
				if (p->v[i].hi > p->v[k - 1].hi)
					p->v[k - 1].hi = p->v[i].hi;
			} else
				p->v[k++] = p->v[i];
		}
		p->n = k;
	} while (p->n > SPANS_MAX / 2 && (p->gap *= 2));
	p->last = p->n ? p->n - 1 : 0;
}

void
hq_rollup_pruned_note(struct hq_rollup_pruned *p, int64_t metric, int64_t lo,
    int64_t hi)
{
	struct hq_rollup_span *l = p->n ? &p->v[p->last] : NULL;

	if (l && l->metric == metric && lo <= l->hi + p->gap && hi >= l->lo - p->gap) {
		l->lo = lo < l->lo ? lo : l->lo;
		l->hi = hi > l->hi ? hi : l->hi;
		return;
	}
	if (p->n == SPANS_MAX)
		join(p);
	if (p->n == p->cap)
		p->v = hq_xrealloc(p->v, (p->cap = p->cap ? 2 * p->cap : 64) *
		    sizeof *p->v);
	p->v[p->n] = (struct hq_rollup_span){ metric, lo, hi };
	p->last = p->n++;
}

void
hq_rollup_pruned_end(struct hq_rollup_pruned *p)
{
	free(p->v);
	p->v = NULL;
	p->n = p->cap = 0;
}

/* ---- the months a merge reaches ------------------------------------- */

/* (month, metric) pairs, to read */
struct need {
	struct pair { int month; int64_t metric; } *v;
	size_t n, cap;
};

static void
need_add(struct need *nd, int month, int64_t metric)
{
	for (size_t i = 0; i < nd->n; i++)
		if (nd->v[i].month == month && nd->v[i].metric == metric)
			return;
	if (nd->n == nd->cap)
		nd->v = hq_xrealloc(nd->v, (nd->cap = nd->cap ? 2 * nd->cap : 16) *
		    sizeof *nd->v);
	nd->v[nd->n++] = (struct pair){ month, metric };
}

/*
 * The pruned months holding a sample of metric that the merge of hours
 * [lo, hi) reads (rollup.c's merge_window: a sample starting up to
 * HQ_CUMULATIVE_MAX_SPAN before lo that reaches past it, or starting in
 * the window), by the keys prune kept of each sample; a store pruned
 * before those were kept: every pruned month the window reaches.
 */
static int
months_reached(struct hq_store *s, int64_t metric, int64_t lo, int64_t hi,
    struct need *nd, struct hq_err *e)
{
	int keys = hq_store_has_table(s, "main", HQ_STORE_PRUNED_KEY);
	int64_t from = lo == INT64_MIN ? INT64_MIN : lo - HQ_CUMULATIVE_MAX_SPAN;
	sqlite3_stmt *st;
	int step;

	if (hq_store_prepare(s, keys ? "SELECT DISTINCT " HQ_SQL_MONTH_OF("start")
	    " FROM main." HQ_STORE_PRUNED_KEY " WHERE metric_id = ?1 AND text = '' AND "
	    "start >= ?2 AND start < ?3 AND (end > ?4 OR start >= ?4)" :
	    "SELECT month FROM main." HQ_STORE_PRUNED, &st, e))
		return -1;
	sqlite3_bind_int64(st, 1, metric);
	sqlite3_bind_int64(st, 2, from);
	sqlite3_bind_int64(st, 3, hi);
	sqlite3_bind_int64(st, 4, lo);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		int month = sqlite3_column_int(st, 0);
		int64_t a, b;
		hq_store_month_bounds(month, &a, &b);
		if (keys || (a < hi && b > from))
			need_add(nd, month, metric);
	}
	sqlite3_finalize(st);
	if (step != SQLITE_DONE)
		return hq_store_sql_err(s, e, "finding the pruned samples to merge");
	return 0;
}

/* Pairs already read (temp.rollup_arc_read) dropped from nd. */
static int
drop_read(struct hq_store *s, struct need *nd, struct hq_err *e)
{
	sqlite3_stmt *st;
	size_t k = 0;

	if (!hq_store_has_table(s, "temp", "rollup_arc_read"))
		return 0;
	if (hq_store_prepare(s, "SELECT 1 FROM temp.rollup_arc_read WHERE "
	    "month = ? AND metric_id = ?", &st, e))
		return -1;
	for (size_t i = 0; i < nd->n; i++) {
		sqlite3_bind_int(st, 1, nd->v[i].month);
		sqlite3_bind_int64(st, 2, nd->v[i].metric);
		if (sqlite3_step(st) != SQLITE_ROW)
			nd->v[k++] = nd->v[i];
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	nd->n = k;
	return 0;
}

/* ---- the archived samples read --------------------------------------- */

static const char setup_sql[] =
	"CREATE TEMP TABLE IF NOT EXISTS rollup_arc (id INTEGER PRIMARY KEY, "
	"metric_id INTEGER, source_id INTEGER, device_id INTEGER, start INTEGER, "
	"end INTEGER, value REAL, text TEXT NOT NULL DEFAULT '');"
	"CREATE INDEX IF NOT EXISTS temp.rollup_arc_ms ON rollup_arc(metric_id, start);"
	"CREATE TEMP TABLE IF NOT EXISTS rollup_arc_read (month INTEGER, "
	"metric_id INTEGER, PRIMARY KEY (month, metric_id)) WITHOUT ROWID;"
	"CREATE TEMP VIEW IF NOT EXISTS rollup_sample AS SELECT id, metric_id, "
	"source_id, device_id, start, end, value, text FROM main.sample UNION ALL "
	"SELECT id, metric_id, source_id, device_id, start, end, value, text "
	"FROM temp.rollup_arc";

/* month's archived samples of the metrics nd names for it, from the
 * segment at path, those the store no longer has (its rows by id). */
static int
read_month(struct hq_store *s, const char *path, int month,
    const struct need *nd, struct hq_err *e)
{
	struct hq_buf sql = {0};
	sqlite3 *seg = NULL;
	sqlite3_stmt *q = NULL, *ins = NULL;
	int rc = -1, step = SQLITE_ERROR;

	hq_buf_puts(&sql, "SELECT id, metric_id, source_id, device_id, start, "
	    "end, value FROM sample WHERE text = '' AND metric_id IN (0");
	for (size_t i = 0; i < nd->n; i++)
		if (nd->v[i].month == month)
			hq_buf_printf(&sql, ",%lld", (long long)nd->v[i].metric);
	hq_buf_puts(&sql, ")");
	if (sqlite3_open_v2(path, &seg, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(seg, sql.data, -1, &q, NULL) != SQLITE_OK) {
		hq_err_set(e, "%s: %s", path, seg ? sqlite3_errmsg(seg) : "out of memory");
		goto out;
	}
	if (hq_store_prepare(s, "INSERT OR IGNORE INTO temp.rollup_arc(id, "
	    "metric_id, source_id, device_id, start, end, value) SELECT ?1, ?2, "
	    "?3, ?4, ?5, ?6, ?7 WHERE NOT EXISTS (SELECT 1 FROM main.sample "
	    "WHERE id = ?1)", &ins, e))
		goto out;
	while ((step = sqlite3_step(q)) == SQLITE_ROW) {
		for (int c = 0; c < 7; c++)
			sqlite3_bind_value(ins, c + 1, sqlite3_column_value(q, c));
		if (sqlite3_step(ins) != SQLITE_DONE) {
			hq_store_sql_err(s, e, "reading the archived samples");
			goto out;
		}
		sqlite3_reset(ins);
	}
	if (step != SQLITE_DONE) {
		hq_err_set(e, "%s: %s", path, sqlite3_errmsg(seg));
		goto out;
	}
	sqlite3_finalize(ins);
	ins = NULL;
	if (hq_store_prepare(s, "INSERT OR IGNORE INTO temp.rollup_arc_read "
	    "VALUES (?, ?)", &ins, e))
		goto out;
	for (size_t i = 0; i < nd->n; i++) {
		if (nd->v[i].month != month)
			continue;
		sqlite3_bind_int(ins, 1, month);
		sqlite3_bind_int64(ins, 2, nd->v[i].metric);
		if (sqlite3_step(ins) != SQLITE_DONE) {
			hq_store_sql_err(s, e, "reading the archived samples");
			goto out;
		}
		sqlite3_reset(ins);
	}
	rc = 0;
out:
	sqlite3_finalize(q);
	sqlite3_finalize(ins);
	sqlite3_close(seg);
	hq_buf_free(&sql);
	return rc;
}

/* The distinct months of nd, ascending, into m (nd->n of room): their count. */
static int
months_of(const struct need *nd, int *m)
{
	int n = 0;

	for (size_t i = 0; i < nd->n; i++) {
		int k = 0;
		while (k < n && m[k] != nd->v[i].month)
			k++;
		if (k == n)
			m[n++] = nd->v[i].month;
	}
	for (int i = 1; i < n; i++)   /* a few: insertion sort */
		for (int j = i; j > 0 && m[j - 1] > m[j]; j--) {
			int t = m[j];
			m[j] = m[j - 1];
			m[j - 1] = t;
		}
	return n;
}

/* The months read, or e: no hook, or the hook's error. */
static int
read_months(struct hq_store *s, const struct need *nd, struct hq_err *e)
{
	int *m = hq_xmalloc(nd->n * sizeof *m), n = months_of(nd, m), rc = -1;
	char **paths = NULL;

	if (!s->archive) {
		struct hq_buf names = {0};
		hq_store_month_list(&names, m, n);
		hq_err_set(e, "the pruned months %.200s are needed, and this "
		    "program does not read the archive", names.data);
		hq_buf_free(&names);
	} else if (s->archive(s->archive_arg, m, n, &paths, e) == 0) {
		(void)sqlite3_exec(s->db, "PRAGMA temp_store = FILE", NULL, NULL, NULL);
		rc = hq_store_exec(s, setup_sql, e);
		for (int i = 0; i < n && rc == 0; i++)
			rc = read_month(s, paths[i], m[i], nd, e);
		for (int i = 0; i < n; i++)
			free(paths[i]);
		free(paths);
	}
	free(m);
	return rc;
}

int
hq_rollup_pruned_load(struct hq_store *s, struct hq_rollup_pruned *p,
    const int64_t *whole, size_t nwhole, struct hq_err *e)
{
	struct need nd = {0};
	int rc = -1;

	if (p->from == INT64_MIN)
		return 0;
	join(p);
	for (size_t i = 0; i < p->n; i++)
		if (months_reached(s, p->v[i].metric, p->v[i].lo, p->v[i].hi, &nd, e))
			goto out;
	for (size_t i = 0; i < nwhole; i++)
		if (hq_rollup_cumulative(s, whole[i]) &&
		    months_reached(s, whole[i], INT64_MIN, INT64_MAX, &nd, e))
			goto out;
	if (drop_read(s, &nd, e) || (nd.n && read_months(s, &nd, e)))
		goto out;
	if (hq_store_has_table(s, "temp", "rollup_arc"))
		p->samples = "temp.rollup_sample";
	rc = 0;
out:
	free(nd.v);
	return rc;
}

int
hq_rollup_pruned_fetch(struct hq_store *s, int64_t first_sample_id, long *n,
    struct hq_err *e)
{
	struct hq_rollup_pruned p;
	sqlite3_stmt *st = NULL;
	int rc = -1, step;

	*n = 0;
	if (hq_rollup_pruned_begin(s, &p, e))
		return -1;
	if (p.from == INT64_MIN)
		return 0;
	if (hq_store_load_names(s, e) ||
	    hq_store_prepare(s, "SELECT metric_id, start, max(end, start) FROM "
	    "sample WHERE id >= ? AND text = '' AND start < ?", &st, e))
		goto out;
	sqlite3_bind_int64(st, 1, first_sample_id);
	sqlite3_bind_int64(st, 2, p.from);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t metric = sqlite3_column_int64(st, 0);
		if (!hq_rollup_cumulative(s, metric))
			continue;
		hq_rollup_pruned_note(&p, metric,
		    hq_rollup_hour(sqlite3_column_int64(st, 1)),
		    hq_rollup_hour(sqlite3_column_int64(st, 2)) + HQ_ROLLUP_HOUR);
		(*n)++;
	}
	if (step != SQLITE_DONE)
		hq_store_sql_err(s, e, "reading the new samples");
	else
		rc = hq_rollup_pruned_load(s, &p, NULL, 0, e);
out:
	sqlite3_finalize(st);
	hq_rollup_pruned_end(&p);
	return rc;
}

const char *
hq_rollup_pruned_samples(struct hq_store *s, int64_t metric, int64_t lo,
    int64_t hi, struct hq_err *e)
{
	struct hq_rollup_pruned p;
	struct need nd = {0};
	const char *from = NULL;

	if (hq_rollup_pruned_begin(s, &p, e))
		return NULL;
	if (p.from == INT64_MIN)
		return p.samples;
	if (months_reached(s, metric, lo, hi, &nd, e) == 0 &&
	    drop_read(s, &nd, e) == 0 && (!nd.n || read_months(s, &nd, e) == 0))
		from = hq_store_has_table(s, "temp", "rollup_arc") ?
		    "temp.rollup_sample" : "main.sample";
	free(nd.v);
	return from;
}
