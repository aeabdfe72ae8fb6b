#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/rollup.h"

int
hq_rollup_current(struct hq_store *s)
{
	sqlite3_stmt *st;
	int cur = 0;

	if (sqlite3_prepare_v2(hq_store_db(s), "SELECT (SELECT last_sample_id FROM "
	    "rollup_state) = (SELECT coalesce(max(id), 0) FROM sample)", -1, &st,
	    NULL) != SQLITE_OK)
		return 0;
	if (sqlite3_step(st) == SQLITE_ROW)
		cur = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return cur;
}

int64_t
hq_rollup_slot(int64_t t)
{
	int64_t r = t % HQ_ROLLUP_SLOT;

	return t - (r < 0 ? r + HQ_ROLLUP_SLOT : r);
}

/* An open-addressing table of slot summaries, filled from the new samples
 * and then upserted in one pass. */
struct cell {
	int64_t metric, source, slot;
	long n, pn;
	double sum, sumsq, min, max, psum;
	int used;
};

struct table {
	struct cell *c;
	size_t cap, n;
};

static size_t
hash(int64_t m, int64_t s, int64_t slot)
{
	uint64_t h = (uint64_t)m * 0x9e3779b97f4a7c15ULL;

	h ^= (uint64_t)s * 0xc2b2ae3d27d4eb4fULL + (h << 6) + (h >> 2);
	h ^= (uint64_t)(slot / HQ_ROLLUP_SLOT) * 0x165667b19e3779f9ULL + (h << 6) + (h >> 2);
	return (size_t)(h ^ (h >> 29));
}

static struct cell *
lookup(struct table *t, int64_t m, int64_t s, int64_t slot);

static void
grow(struct table *t)
{
	struct table nt = { hq_xcalloc(t->cap ? t->cap * 2 : 4096, sizeof *nt.c),
	    t->cap ? t->cap * 2 : 4096, 0 };

	for (size_t i = 0; i < t->cap; i++)
		if (t->c[i].used) {
			struct cell *c = lookup(&nt, t->c[i].metric, t->c[i].source, t->c[i].slot);
			*c = t->c[i];
		}
	free(t->c);
	*t = nt;
}

static struct cell *
lookup(struct table *t, int64_t m, int64_t s, int64_t slot)
{
	size_t i;

	if ((t->n + 1) * 2 > t->cap)
		grow(t);
	for (i = hash(m, s, slot) & (t->cap - 1); t->c[i].used;
	    i = (i + 1) & (t->cap - 1))
		if (t->c[i].metric == m && t->c[i].source == s && t->c[i].slot == slot)
			return &t->c[i];
	t->c[i].used = 1;
	t->c[i].metric = m;
	t->c[i].source = s;
	t->c[i].slot = slot;
	t->c[i].min = INFINITY;
	t->c[i].max = -INFINITY;
	t->n++;
	return &t->c[i];
}

static void
add_sample(struct table *t, int64_t m, int64_t src, int64_t start,
    int64_t end, double v)
{
	struct cell *c = lookup(t, m, src, hq_rollup_slot(start));

	c->n++;
	c->sum += v;
	c->sumsq += v * v;
	if (v < c->min)
		c->min = v;
	if (v > c->max)
		c->max = v;
	if (end <= start) {
		c->psum += v;
		c->pn++;
		return;
	}
	for (int64_t slot = hq_rollup_slot(start); slot < end; slot += HQ_ROLLUP_SLOT) {
		int64_t a = start > slot ? start : slot;
		int64_t z = end < slot + HQ_ROLLUP_SLOT ? end : slot + HQ_ROLLUP_SLOT;
		c = lookup(t, m, src, slot);
		c->psum += v * (double)(z - a) / (double)(end - start);
		c->pn++;
	}
}

int
hq_rollup_refresh(struct hq_store *s, int64_t first_sample_id, struct hq_err *e)
{
	sqlite3_stmt *sel = NULL, *up = NULL;
	struct table t = {0};
	int rc = -1, step;

	/* Fold everything not yet folded: samples from first_sample_id on,
	 * and any an earlier import left out, but never one twice. */
	(void)first_sample_id;
	if (hq_store_prepare(s, "SELECT metric_id, source_id, start, end, value "
	    "FROM sample WHERE id > (SELECT last_sample_id FROM rollup_state) "
	    "AND text = ''", &sel, e))
		goto out;
	while ((step = sqlite3_step(sel)) == SQLITE_ROW) {
		int64_t start = sqlite3_column_int64(sel, 2);
		int64_t end = sqlite3_column_int64(sel, 3);
		if (end < start)
			end = start;
		add_sample(&t, sqlite3_column_int64(sel, 0),
		    sqlite3_column_int64(sel, 1), start, end,
		    sqlite3_column_double(sel, 4));
	}
	if (step != SQLITE_DONE) {
		hq_err_set(e, "%s: reading new samples for the rollups: %s",
		    hq_store_filename(s), sqlite3_errmsg(hq_store_db(s)));
		goto out;
	}
	if (hq_store_prepare(s, "INSERT INTO rollup(metric_id, slot, source_id, "
	    "n, sum, sumsq, min, max, psum, pn) VALUES (?,?,?,?,?,?,?,?,?,?) "
	    "ON CONFLICT(metric_id, slot, source_id) DO UPDATE SET "
	    "n = n + excluded.n, sum = sum + excluded.sum, "
	    "sumsq = sumsq + excluded.sumsq, "
	    "min = CASE WHEN min IS NULL OR excluded.min < min THEN excluded.min ELSE min END, "
	    "max = CASE WHEN max IS NULL OR excluded.max > max THEN excluded.max ELSE max END, "
	    "psum = psum + excluded.psum, pn = pn + excluded.pn", &up, e))
		goto out;
	for (size_t i = 0; i < t.cap; i++) {
		const struct cell *c = &t.c[i];
		if (!c->used)
			continue;
		sqlite3_bind_int64(up, 1, c->metric);
		sqlite3_bind_int64(up, 2, c->slot);
		sqlite3_bind_int64(up, 3, c->source);
		sqlite3_bind_int64(up, 4, c->n);
		sqlite3_bind_double(up, 5, c->sum);
		sqlite3_bind_double(up, 6, c->sumsq);
		if (c->n) {
			sqlite3_bind_double(up, 7, c->min);
			sqlite3_bind_double(up, 8, c->max);
		} else {
			sqlite3_bind_null(up, 7);
			sqlite3_bind_null(up, 8);
		}
		sqlite3_bind_double(up, 9, c->psum);
		sqlite3_bind_int64(up, 10, c->pn);
		step = sqlite3_step(up);
		sqlite3_reset(up);
		if (step != SQLITE_DONE) {
			hq_err_set(e, "%s: updating the rollups: %s",
			    hq_store_filename(s), sqlite3_errmsg(hq_store_db(s)));
			goto out;
		}
	}
	if (hq_store_exec(s, "UPDATE rollup_state SET last_sample_id = "
	    "(SELECT coalesce(max(id), 0) FROM sample)", e))
		goto out;
	rc = 0;
out:
	sqlite3_finalize(sel);
	sqlite3_finalize(up);
	free(t.c);
	return rc;
}
