#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <sys/types.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/catalog.h"
#include "hq/merge.h"
#include "hq/rollup.h"
#include "rollup_int.h"

static int
covers_all(struct hq_store *s, const char *sql)
{
	sqlite3_stmt *st;
	int cur = 0;

	if (sqlite3_prepare_v2(hq_store_db(s), sql, -1, &st, NULL) != SQLITE_OK)
		return 0;
	if (sqlite3_step(st) == SQLITE_ROW)
		cur = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return cur;
}

/* main.sample: the store's own rows. A pruned month's (hq-archive(1))
 * are never the newest (a prune keeps the store's newest sample), and
 * reading them would fetch every pruned month the command reaches. */
int
hq_rollup_current(struct hq_store *s)
{
	return covers_all(s, "SELECT (SELECT last_sample_id FROM rollup_state) = "
	    "(SELECT coalesce(max(id), 0) FROM main.sample)");
}

int
hq_rollup_vals_current(struct hq_store *s)
{
	return covers_all(s, "SELECT (SELECT last_sample_id FROM "
	    "rollup_vals_state) = (SELECT coalesce(max(id), 0) FROM main.sample)");
}

/* ---- a slot's values as bytes ----------------------------------------- */

/*
 * A blob is a kind byte, then (value, count) pairs, values ascending and
 * distinct, counts as varints. Kind 'i': every value an integer (heart
 * rate, steps, glucose in mg/dL), each written as the zigzag varint of its
 * difference from the one before (from 0): a byte or two. Kind 'd': each
 * value its 8 bytes, little-endian.
 */

static size_t
put_varint(unsigned char *p, uint64_t x)
{
	size_t n = 0;

	while (x >= 0x80) {
		p[n++] = (unsigned char)(x | 0x80);
		x >>= 7;
	}
	p[n++] = (unsigned char)x;
	return n;
}

static int
get_varint(const unsigned char **p, const unsigned char *end, uint64_t *x)
{
	uint64_t v = 0;

	for (int shift = 0; *p < end && shift < 64; shift += 7) {
		unsigned char b = *(*p)++;
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*x = v;
			return 0;
		}
	}
	return -1;
}

static int
is_int(double v)
{
	return v >= -9007199254740992.0 && v <= 9007199254740992.0 &&
	    v == (double)(int64_t)v;
}

struct vc {
	double v;
	long c;
};

/* Pairs (ascending, distinct) as a blob into out (at least 1 + 19 bytes a
 * pair): its length. */
static size_t
vals_encode(const struct vc *x, size_t n, unsigned char *out)
{
	size_t len = 1;
	int ints = 1;
	int64_t prev = 0;

	for (size_t i = 0; i < n && ints; i++)
		ints = is_int(x[i].v);
	out[0] = ints ? 'i' : 'd';
	for (size_t i = 0; i < n; i++) {
		if (ints) {
			int64_t d = (int64_t)x[i].v - prev;
			prev = (int64_t)x[i].v;
			len += put_varint(out + len, ((uint64_t)d << 1) ^ (uint64_t)(d >> 63));
		} else {
			uint64_t b;
			double v = x[i].v == 0 ? 0 : x[i].v;
			memcpy(&b, &v, sizeof b);
			for (int k = 0; k < 8; k++)
				out[len++] = (unsigned char)(b >> (8 * k));
		}
		len += put_varint(out + len, (uint64_t)x[i].c);
	}
	return len;
}

void
hq_rollup_vals_start(struct hq_rollup_vals *r, const void *blob, size_t n)
{
	r->p = blob;
	r->end = r->p ? r->p + n : NULL;
	r->prev = 0;
	r->ints = 0;
	if (!r->p || n == 0 || (r->p[0] != 'i' && r->p[0] != 'd')) {
		r->p = r->end;
		return;
	}
	r->ints = *r->p++ == 'i';
}

int
hq_rollup_vals_next(struct hq_rollup_vals *r, double *v, long *count)
{
	uint64_t x, c;

	if (r->p >= r->end)
		return 0;
	if (r->ints) {
		if (get_varint(&r->p, r->end, &x))
			goto bad;
		r->prev += (int64_t)(x >> 1) ^ -(int64_t)(x & 1);
		*v = (double)r->prev;
	} else {
		if (r->end - r->p < 8)
			goto bad;
		x = 0;
		for (int k = 0; k < 8; k++)
			x |= (uint64_t)r->p[k] << (8 * k);
		r->p += 8;
		memcpy(v, &x, sizeof *v);
	}
	if (get_varint(&r->p, r->end, &c) || c == 0 || c > LONG_MAX)
		goto bad;
	*count = (long)c;
	return 1;
bad:
	r->p = r->end;
	return 0;
}

static void
push_vc(struct vc **x, size_t *n, size_t *cap, double v, long c)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		*x = hq_xrealloc(*x, *cap * sizeof **x);
	}
	(*x)[(*n)++] = (struct vc){ v, c };
}

/* SQL hq_rollup_vals_merge(a, b): one blob of the values of both, for the
 * upsert that adds a flush's values to a slot that has some. */
static void
sql_vals_merge(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
	struct hq_rollup_vals ra, rb;
	struct vc *x = NULL;
	size_t n = 0, cap = 0;
	double va = 0, vb = 0;
	long ca = 0, cb = 0;
	int ha, hb;
	unsigned char *out;

	(void)argc;
	hq_rollup_vals_start(&ra, sqlite3_value_blob(argv[0]),
	    (size_t)sqlite3_value_bytes(argv[0]));
	hq_rollup_vals_start(&rb, sqlite3_value_blob(argv[1]),
	    (size_t)sqlite3_value_bytes(argv[1]));
	ha = hq_rollup_vals_next(&ra, &va, &ca);
	hb = hq_rollup_vals_next(&rb, &vb, &cb);
	while (ha || hb) {
		if (ha && (!hb || va < vb)) {
			push_vc(&x, &n, &cap, va, ca);
			ha = hq_rollup_vals_next(&ra, &va, &ca);
		} else if (hb && (!ha || vb < va)) {
			push_vc(&x, &n, &cap, vb, cb);
			hb = hq_rollup_vals_next(&rb, &vb, &cb);
		} else {
			push_vc(&x, &n, &cap, va, ca + cb);
			ha = hq_rollup_vals_next(&ra, &va, &ca);
			hb = hq_rollup_vals_next(&rb, &vb, &cb);
		}
	}
	out = hq_xmalloc(1 + 19 * n);
	sqlite3_result_blob(cx, out, (int)vals_encode(x, n, out), free);
	free(x);
}

int64_t
hq_rollup_hour(int64_t t)
{
	int64_t r = t % HQ_ROLLUP_HOUR;

	return t - (r < 0 ? r + HQ_ROLLUP_HOUR : r);
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
	int used, moments;   /* moments: n..psum are new (else only values) */
	double *vals;        /* discrete metrics: the new values (rollup_vals) */
	size_t nvals, capvals;
};

struct table {
	struct cell *c;
	size_t cap, n;
	size_t nvals;        /* values held in all cells */
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
	    t->cap ? t->cap * 2 : 4096, 0, t->nvals };

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

/* A discrete sample's value for rollup_vals. */
static void
add_value(struct table *t, int64_t m, int64_t src, int64_t start, double v)
{
	struct cell *c = lookup(t, m, src, hq_rollup_slot(start));

	if (c->nvals == c->capvals) {
		c->capvals = c->capvals ? c->capvals * 2 : 16;
		c->vals = hq_xrealloc(c->vals, c->capvals * sizeof *c->vals);
	}
	c->vals[c->nvals++] = v;
	t->nvals++;
}

/* A sample into its slots. Only a cumulative one (spread) is shared out
 * pro rata over every slot it covers: queries read psum for those alone,
 * so a long sample of another kind (a weekly walking-steadiness score, a
 * pregnancy) costs one cell, whatever its span. */
static void
add_sample(struct table *t, int64_t m, int64_t src, int64_t start,
    int64_t end, double v, int spread)
{
	struct cell *c = lookup(t, m, src, hq_rollup_slot(start));

	c->moments = 1;
	c->n++;
	c->sum += v;
	c->sumsq += v * v;
	if (v < c->min)
		c->min = v;
	if (v > c->max)
		c->max = v;
	if (end <= start || !spread) {
		c->psum += v;
		c->pn++;
		return;
	}
	for (int64_t slot = hq_rollup_slot(start); slot < end; slot += HQ_ROLLUP_SLOT) {
		int64_t a = start > slot ? start : slot;
		int64_t z = end < slot + HQ_ROLLUP_SLOT ? end : slot + HQ_ROLLUP_SLOT;
		c = lookup(t, m, src, slot);
		c->moments = 1;
		c->psum += v * (double)(z - a) / (double)(end - start);
		c->pn++;
	}
}

/* ---- merged cumulative series, default priority ------------------------ */

struct window {
	int64_t metric, lo, hi;   /* hours [lo, hi); INT64_MIN/MAX: all */
	int cumulative;           /* 0: a metric that is not merged */
	const char *samples;      /* the merge's (rollup_int.h) */
};

int
hq_rollup_cumulative(struct hq_store *s, int64_t metric)
{
	const char *identifier = hq_store_metric_name(s, metric);
	const struct hq_metric_info *info;

	if (!identifier)
		return 0;
	info = hq_catalog_lookup(identifier);
	return (info ? info->kind : hq_catalog_guess_kind(identifier)) ==
	    HQ_KIND_CUMULATIVE;
}

/* A counted piece of the merge into slots of size `size` (an hour, or 15
 * minutes for zones whose days start on the half or quarter hour),
 * within the window, pro rata; n counts the sample where its counted part
 * starts. */
static void
add_piece(struct table *t, const struct window *w, const struct hq_piece *pc,
    int first, int64_t size)
{
	int64_t a = pc->start, b = pc->end;

	if (b <= a) {
		if (a >= w->lo && a < w->hi) {
			struct cell *c = lookup(t, w->metric, 0, a - ((a % size) + size) % size);
			c->psum += pc->value;
			c->pn += first;
		}
		return;
	}
	int64_t lo = a > w->lo ? a : w->lo, hi = b < w->hi ? b : w->hi;
	for (int64_t slot = lo - ((lo % size) + size) % size; slot < hi; slot += size) {
		int64_t x = lo > slot ? lo : slot;
		int64_t z = hi < slot + size ? hi : slot + size;
		struct cell *c = lookup(t, w->metric, 0, slot);
		c->psum += pc->value * (double)(z - x) / (double)(b - a);
		c->pn += first && x == a;
	}
}

/* The window's merged slots in table `name`, in place of what it had. */
static int
write_merged(struct hq_store *s, const char *name, const struct window *w,
    const struct table *t, struct hq_err *e)
{
	char sql[128];
	sqlite3_stmt *st;
	int step;

	snprintf(sql, sizeof sql, "DELETE FROM %s WHERE metric_id = ? AND slot >= ? "
	    "AND slot < ?", name);
	if (hq_store_prepare(s, sql, &st, e))
		return -1;
	sqlite3_bind_int64(st, 1, w->metric);
	sqlite3_bind_int64(st, 2, w->lo);
	sqlite3_bind_int64(st, 3, w->hi);
	step = sqlite3_step(st);
	sqlite3_finalize(st);
	snprintf(sql, sizeof sql, "INSERT INTO %s(metric_id, slot, sum, n) VALUES "
	    "(?, ?, ?, ?)", name);
	if (step != SQLITE_DONE || hq_store_prepare(s, sql, &st, e)) {
		hq_err_set(e, "%s: updating merged rollups: %s", hq_store_filename(s),
		    sqlite3_errmsg(hq_store_db(s)));
		return -1;
	}
	for (size_t i = 0; i < t->cap; i++) {
		const struct cell *c = &t->c[i];
		if (c->used && hq_store_run(s, st, (struct hq_bind[]){
		    HQ_INT(w->metric), HQ_INT(c->slot), HQ_REAL(c->psum),
		    HQ_INT(c->pn), HQ_END }, "updating merged rollups", e)) {
			sqlite3_finalize(st);
			return -1;
		}
	}
	sqlite3_finalize(st);
	return 0;
}

/* Recompute the merged slots of one metric in window w. */
static int
merge_window(struct hq_store *s, const struct window *w, struct hq_err *e)
{
	sqlite3_stmt *st = NULL;
	struct hq_merge_sample *ms = NULL;
	size_t n = 0, cap = 0, npc = 0;
	struct hq_piece *pc = NULL;
	struct table t = {0}, tq = {0};
	char *seen = NULL;
	int rc = -1, step;
	char sql[256];

	snprintf(sql, sizeof sql, "SELECT start, max(end, start), value, "
	    "source_id, coalesce(device_id, 0) FROM %s WHERE metric_id = ?1 AND "
	    "text = '' AND start >= ?2 AND start < ?3 AND (end > ?4 OR start >= "
	    "?4)", w->samples);
	if (hq_store_prepare(s, sql, &st, e))
		goto out;
	sqlite3_bind_int64(st, 1, w->metric);
	sqlite3_bind_int64(st, 2, w->lo == INT64_MIN ? INT64_MIN
	    : w->lo - HQ_CUMULATIVE_MAX_SPAN);
	sqlite3_bind_int64(st, 3, w->hi);
	sqlite3_bind_int64(st, 4, w->lo);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t src = sqlite3_column_int64(st, 3), dev = sqlite3_column_int64(st, 4);
		ssize_t order = hq_store_source_order(s, src);
		if (n == cap) {
			cap = cap ? cap * 2 : 4096;
			ms = hq_xrealloc(ms, cap * sizeof *ms);
		}
		ms[n].start = sqlite3_column_int64(st, 0);
		ms[n].end = sqlite3_column_int64(st, 1);
		ms[n].value = sqlite3_column_double(st, 2);
		ms[n].rank = hq_merge_rank(NULL, hq_store_source_name(s, src),
		    dev ? hq_store_device_name(s, dev) : NULL,
		    order < 0 ? 0 : (size_t)order);
		n++;
	}
	sqlite3_finalize(st);
	st = NULL;
	if (step != SQLITE_DONE) {
		hq_err_set(e, "%s: reading samples to merge: %s",
		    hq_store_filename(s), sqlite3_errmsg(hq_store_db(s)));
		goto out;
	}
	hq_merge_cumulative(ms, n, &pc, &npc);
	seen = hq_xcalloc(n + 1, 1);
	for (size_t i = 0; i < npc; i++) {
		int first = !seen[pc[i].sample];
		seen[pc[i].sample] = 1;
		add_piece(&t, w, &pc[i], first, HQ_ROLLUP_HOUR);
		add_piece(&tq, w, &pc[i], first, HQ_ROLLUP_SLOT);
	}
	if (write_merged(s, "rollup_merged", w, &t, e) ||
	    write_merged(s, "rollup_merged_q", w, &tq, e))
		goto out;
	for (int k = 0; k < 2; k++) {
		if (hq_store_prepare(s, k ? "INSERT OR IGNORE INTO "
		    "rollup_merged_q_metric VALUES (?)" : "INSERT OR IGNORE INTO "
		    "rollup_merged_metric VALUES (?)", &st, e))
			goto out;
		sqlite3_bind_int64(st, 1, w->metric);
		if (sqlite3_step(st) != SQLITE_DONE)
			goto sqlfail;
		sqlite3_finalize(st);
		st = NULL;
	}
	rc = 0;
	goto out;
sqlfail:
	hq_err_set(e, "%s: updating merged rollups: %s", hq_store_filename(s),
	    sqlite3_errmsg(hq_store_db(s)));
out:
	sqlite3_finalize(st);
	free(ms);
	free(pc);
	free(seen);
	free(t.c);
	free(tq.c);
	return rc;
}

/* A window is merged four weeks at a time: the samples of one metric over
 * a whole export would otherwise sit in memory at once. The parts are
 * hour-aligned and each sees HQ_CUMULATIVE_MAX_SPAN before it, like any
 * window, so they give the rows one merge of the whole window gives (for
 * samples no longer than HQ_CUMULATIVE_MAX_SPAN, the horizon queries use
 * too). */
#define MERGE_PART (28 * 86400)

/* ... and at most MERGE_SAMPLES samples at a time (about 100 bytes each
 * in memory): a second-by-second series (a device's distance) has 2.4
 * million in four weeks. The part ends at the hour of the sample past
 * that many, an hour at least. */
#define MERGE_SAMPLES 200000

static int
part_bound(struct hq_store *s, struct window *part, struct hq_err *e)
{
	sqlite3_stmt *st;
	int step;
	char sql[192];

	/* (a bound past the part changes nothing, and spares a sort of
	 * every later sample when they come from two tables) */
	snprintf(sql, sizeof sql, "SELECT start FROM %s WHERE metric_id = ? "
	    "AND text = '' AND start >= ? AND start < ? ORDER BY start LIMIT 1 "
	    "OFFSET ?", part->samples);
	if (hq_store_prepare(s, sql, &st, e))
		return -1;
	sqlite3_bind_int64(st, 1, part->metric);
	sqlite3_bind_int64(st, 2, part->lo);
	sqlite3_bind_int64(st, 3, part->hi);
	sqlite3_bind_int64(st, 4, MERGE_SAMPLES);
	step = sqlite3_step(st);
	if (step == SQLITE_ROW) {
		int64_t h = hq_rollup_hour(sqlite3_column_int64(st, 0));
		if (h <= part->lo)
			h = part->lo + HQ_ROLLUP_HOUR;
		if (h < part->hi)
			part->hi = h;
	}
	sqlite3_finalize(st);
	if (step != SQLITE_ROW && step != SQLITE_DONE) {
		hq_err_set(e, "%s: finding samples to merge: %s",
		    hq_store_filename(s), sqlite3_errmsg(hq_store_db(s)));
		return -1;
	}
	return 0;
}

static int
merge_window_parts(struct hq_store *s, const struct window *w,
    struct hq_err *e)
{
	int64_t lo = w->lo, hi = w->hi;
	char sql[160];

	if (lo == INT64_MIN || hi == INT64_MAX) {
		sqlite3_stmt *st;
		int have = 0;
		snprintf(sql, sizeof sql, "SELECT min(start), max(max(end, start)) "
		    "FROM %s WHERE metric_id = ? AND text = ''", w->samples);
		if (hq_store_prepare(s, sql, &st, e))
			return -1;
		sqlite3_bind_int64(st, 1, w->metric);
		if (sqlite3_step(st) == SQLITE_ROW &&
		    sqlite3_column_type(st, 0) != SQLITE_NULL) {
			have = 1;
			if (lo == INT64_MIN)
				lo = hq_rollup_hour(sqlite3_column_int64(st, 0));
			if (hi == INT64_MAX)
				hi = hq_rollup_hour(sqlite3_column_int64(st, 1)) +
				    HQ_ROLLUP_HOUR;
		}
		sqlite3_finalize(st);
		if (!have)
			return merge_window(s, w, e);
		/* What the whole window would have replaced. */
		for (int k = 0; k < 2; k++) {
			if (hq_store_prepare(s, k ? "DELETE FROM rollup_merged_q WHERE "
			    "metric_id = ?" : "DELETE FROM rollup_merged WHERE "
			    "metric_id = ?", &st, e))
				return -1;
			sqlite3_bind_int64(st, 1, w->metric);
			int rc = sqlite3_step(st);
			sqlite3_finalize(st);
			if (rc != SQLITE_DONE) {
				hq_err_set(e, "%s: updating merged rollups: %s",
				    hq_store_filename(s), sqlite3_errmsg(hq_store_db(s)));
				return -1;
			}
		}
	}
	/* Parts with no sample are passed over (they hold no merged rows):
	 * the cost follows the samples, not the years between them. */
	sqlite3_stmt *next;
	int rc = 0;
	snprintf(sql, sizeof sql, "SELECT min(start) FROM %s WHERE "
	    "metric_id = ? AND text = '' AND start >= ?", w->samples);
	if (hq_store_prepare(s, sql, &next, e))
		return -1;
	for (int64_t x = lo; x < hi;) {
		sqlite3_bind_int64(next, 1, w->metric);
		sqlite3_bind_int64(next, 2, x - HQ_CUMULATIVE_MAX_SPAN);
		int step = sqlite3_step(next);
		int none = step == SQLITE_ROW &&
		    sqlite3_column_type(next, 0) == SQLITE_NULL;
		int64_t first = step == SQLITE_ROW ? sqlite3_column_int64(next, 0) : 0;
		sqlite3_reset(next);
		if (step != SQLITE_ROW) {
			hq_err_set(e, "%s: finding samples to merge: %s",
			    hq_store_filename(s), sqlite3_errmsg(hq_store_db(s)));
			rc = -1;
			break;
		}
		if (none)
			break;
		if (first >= x + MERGE_PART) {
			x = hq_rollup_hour(first);
			continue;
		}
		struct window part = { w->metric, x, hi - x > MERGE_PART ?
		    x + MERGE_PART : hi, 1, w->samples };
		if ((rc = part_bound(s, &part, e)) != 0 ||
		    (rc = merge_window(s, &part, e)) != 0)
			break;
		x = part.hi;
	}
	sqlite3_finalize(next);
	return rc;
}

/*
 * Bring the merged rollups up to date: every cumulative metric not yet
 * merged is merged whole; for the others, the slots the new samples touch
 * (windows[i], and the spans of p in or beside pruned months) are merged
 * again, since a new sample can change what older samples of lower-ranked
 * sources count for. The pruned samples those reach are read first.
 */
static int
refresh_merged(struct hq_store *s, struct window *win, size_t nwin,
    struct hq_rollup_pruned *p, struct hq_err *e)
{
	sqlite3_stmt *st = NULL;
	int64_t *whole = NULL;   /* the metrics merged whole here */
	size_t nwhole = 0;
	int rc = -1, step;

	if (hq_store_prepare(s, "SELECT m.id FROM metric m WHERE NOT EXISTS "
	    "(SELECT 1 FROM rollup_merged_q_metric r WHERE r.metric_id = m.id) AND "
	    "EXISTS (SELECT 1 FROM sample x WHERE x.metric_id = m.id AND x.text = '')",
	    &st, e))
		goto out;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		whole = hq_xrealloc(whole, (nwhole + 1) * sizeof *whole);
		whole[nwhole++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	st = NULL;
	if (step != SQLITE_DONE) {
		hq_err_set(e, "%s: finding metrics to merge: %s",
		    hq_store_filename(s), sqlite3_errmsg(hq_store_db(s)));
		goto out;
	}
	if (hq_rollup_pruned_load(s, p, whole, nwhole, e))
		goto out;
	for (size_t i = 0; i < nwhole; i++) {
		struct window w = { whole[i], INT64_MIN, INT64_MAX, 1, p->samples };
		if (hq_rollup_cumulative(s, whole[i]) && merge_window_parts(s, &w, e))
			goto out;
	}
	for (size_t i = 0; i < nwin + p->n; i++) {
		struct window w = i < nwin ? win[i] : (struct window){
		    p->v[i - nwin].metric, p->v[i - nwin].lo, p->v[i - nwin].hi, 1, NULL };
		size_t k = 0;
		while (k < nwhole && whole[k] != w.metric)
			k++;
		if (!w.cumulative || k < nwhole)
			continue;  /* not merged, or merged whole just now */
		w.samples = p->samples;
		if (merge_window_parts(s, &w, e))
			goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	free(whole);
	return rc;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* A cell's new values into rollup_vals, added to what the slot has. */
static int
flush_values(struct hq_store *s, sqlite3_stmt *upv, struct cell *c,
    struct hq_err *e)
{
	struct vc *x = hq_xmalloc(c->nvals * sizeof *x);
	unsigned char *blob = hq_xmalloc(1 + 19 * c->nvals);
	size_t n = 0, len;
	int rc;

	qsort(c->vals, c->nvals, sizeof *c->vals, cmp_double);
	for (size_t i = 0; i < c->nvals; i++) {
		double v = c->vals[i] == 0 ? 0 : c->vals[i];
		if (n && x[n - 1].v == v)
			x[n - 1].c++;
		else
			x[n++] = (struct vc){ v, 1 };
	}
	len = vals_encode(x, n, blob);
	sqlite3_bind_int64(upv, 1, c->metric);
	sqlite3_bind_int64(upv, 2, c->slot);
	sqlite3_bind_int64(upv, 3, c->source);
	sqlite3_bind_blob(upv, 4, blob, (int)len, SQLITE_STATIC);
	rc = sqlite3_step(upv);
	sqlite3_reset(upv);
	free(x);
	free(blob);
	if (rc != SQLITE_DONE) {
		hq_err_set(e, "%s: updating the rollups of values: %s",
		    hq_store_filename(s), sqlite3_errmsg(hq_store_db(s)));
		return -1;
	}
	return 0;
}

/* Upsert every cell of t into the rollup tables and empty t. The upserts
 * add to what a row holds, so flushing in several batches gives the same
 * rows as one flush, and the table's memory stays bounded however large
 * the import. 0 or -1. */
static int
flush_table(struct hq_store *s, sqlite3_stmt *up, sqlite3_stmt *upv,
    struct table *t, struct hq_err *e)
{
	int rc = 0;

	for (size_t i = 0; i < t->cap; i++) {
		struct cell *c = &t->c[i];
		if (!c->used)
			continue;
		/* min and max are NULL in a slot that only overlaps samples. */
		if (!rc && c->moments && hq_store_run(s, up, (struct hq_bind[]){
		    HQ_INT(c->metric), HQ_INT(c->slot), HQ_INT(c->source),
		    HQ_INT(c->n), HQ_REAL(c->sum), HQ_REAL(c->sumsq),
		    HQ_OPT_REAL(c->n ? c->min : NAN), HQ_OPT_REAL(c->n ? c->max : NAN),
		    HQ_REAL(c->psum), HQ_INT(c->pn), HQ_END }, "updating the rollups",
		    e))
			rc = -1;
		if (!rc && c->nvals && flush_values(s, upv, c, e))
			rc = -1;
		free(c->vals);
	}
	if (t->cap)
		memset(t->c, 0, t->cap * sizeof *t->c);
	t->n = 0;
	t->nvals = 0;
	return rc;
}

/* Free what the cells of t hold. */
static void
table_free(struct table *t)
{
	for (size_t i = 0; i < t->cap; i++)
		if (t->c[i].used)
			free(t->c[i].vals);
	free(t->c);
}

/* Cells held before a flush (about 110 bytes each, the table at most half
 * full: under 2 MB), and values (8 bytes each). */
#define FLUSH_CELLS 8192
#define FLUSH_VALUES (1 << 20)

/* The sample id a state table's rollups cover up to: 0 or more, -1. */
static int64_t
covered_upto(struct hq_store *s, const char *table, struct hq_err *e)
{
	char sql[96];
	sqlite3_stmt *st;
	int64_t id = -1;

	snprintf(sql, sizeof sql, "SELECT last_sample_id FROM %s", table);
	if (hq_store_prepare(s, sql, &st, e))
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (id < 0)
		hq_err_set(e, "%s: %s has no row", hq_store_filename(s), table);
	return id;
}

/* The statements that add cells to rollup and rollup_vals (merging the
 * values of a cell with hq_rollup_vals_merge()): 0, or -1 with e set. */
static int
prepare_upserts(struct hq_store *s, sqlite3_stmt **up, sqlite3_stmt **upv,
    struct hq_err *e)
{
	if (hq_store_function(hq_store_db(s), "hq_rollup_vals_merge", 2,
	    sql_vals_merge)) {
		hq_err_set(e, "%s: %s", hq_store_filename(s),
		    sqlite3_errmsg(hq_store_db(s)));
		return -1;
	}
	if (hq_store_prepare(s, "INSERT INTO rollup(metric_id, slot, source_id, "
	    "n, sum, sumsq, min, max, psum, pn) VALUES (?,?,?,?,?,?,?,?,?,?) "
	    "ON CONFLICT(metric_id, slot, source_id) DO UPDATE SET "
	    "n = n + excluded.n, sum = sum + excluded.sum, "
	    "sumsq = sumsq + excluded.sumsq, "
	    "min = CASE WHEN min IS NULL OR excluded.min < min THEN excluded.min ELSE min END, "
	    "max = CASE WHEN max IS NULL OR excluded.max > max THEN excluded.max ELSE max END, "
	    "psum = psum + excluded.psum, pn = pn + excluded.pn", up, e) ||
	    hq_store_prepare(s, "INSERT INTO rollup_vals(metric_id, slot, "
	    "source_id, vals) VALUES (?,?,?,?) ON CONFLICT(metric_id, slot, "
	    "source_id) DO UPDATE SET vals = hq_rollup_vals_merge(vals, "
	    "excluded.vals)", upv, e))
		return -1;
	return 0;
}

/* The index of metric's window in *win (last: the one before, tried
 * first), added when new: each metric's kind is decided once, not per
 * sample. */
static size_t
window_for(struct hq_store *s, struct window **win, size_t *nwin, size_t last,
    int64_t metric)
{
	size_t k = last < *nwin && (*win)[last].metric == metric ? last : 0;

	if (k >= *nwin || (*win)[k].metric != metric)
		for (k = 0; k < *nwin && (*win)[k].metric != metric; k++)
			;
	if (k == *nwin) {
		*win = hq_xrealloc(*win, (*nwin + 1) * sizeof **win);
		(*win)[(*nwin)++] = (struct window){ metric, INT64_MAX, INT64_MIN,
		    hq_rollup_cumulative(s, metric), NULL };
	}
	return k;
}

int
hq_rollup_refresh(struct hq_store *s, int64_t first_sample_id, struct hq_err *e)
{
	sqlite3_stmt *sel = NULL, *up = NULL, *upv = NULL;
	struct table t = {0};
	struct window *win = NULL;
	struct hq_rollup_pruned p = { .from = INT64_MIN };
	size_t nwin = 0, last = 0;
	int64_t done_r, done_v;
	int rc = -1, step;

	/* Metric, source and device names (store.h) for the merge. */
	if (hq_store_load_names(s, e) || hq_rollup_pruned_begin(s, &p, e))
		goto out;
	/* Fold everything not yet folded: samples from first_sample_id on,
	 * and any an earlier import left out (or, for rollup_vals, any from
	 * before they existed), but never one twice. */
	(void)first_sample_id;
	if ((done_r = covered_upto(s, "rollup_state", e)) < 0 ||
	    (done_v = covered_upto(s, "rollup_vals_state", e)) < 0)
		goto out;
	if (prepare_upserts(s, &up, &upv, e))
		goto out;
	if (hq_store_prepare(s, "SELECT metric_id, source_id, start, end, value, "
	    "id FROM sample WHERE id > ? AND text = ''", &sel, e))
		goto out;
	sqlite3_bind_int64(sel, 1, done_r < done_v ? done_r : done_v);
	while ((step = sqlite3_step(sel)) == SQLITE_ROW) {
		int64_t start = sqlite3_column_int64(sel, 2);
		int64_t end = sqlite3_column_int64(sel, 3);
		if (end < start)
			end = start;
		int64_t metric = sqlite3_column_int64(sel, 0);
		int64_t source = sqlite3_column_int64(sel, 1);
		int64_t id = sqlite3_column_int64(sel, 5);
		double value = sqlite3_column_double(sel, 4);
		size_t k = last = window_for(s, &win, &nwin, last, metric);
		if (id > done_v && !win[k].cumulative)
			add_value(&t, metric, source, start, value);
		if (id > done_r)
			add_sample(&t, metric, source, start, end, value,
			    win[k].cumulative);
		if ((t.n >= FLUSH_CELLS || t.nvals >= FLUSH_VALUES) &&
		    flush_table(s, up, upv, &t, e))
			goto out;
		/* The hours each cumulative metric's new samples touch. */
		if (id <= done_r || !win[k].cumulative)
			continue;
		if (hq_rollup_hour(start) < p.from) {
			hq_rollup_pruned_note(&p, metric, hq_rollup_hour(start),
			    hq_rollup_hour(end) + HQ_ROLLUP_HOUR);
			continue;
		}
		if (hq_rollup_hour(start) < win[k].lo)
			win[k].lo = hq_rollup_hour(start);
		if (hq_rollup_hour(end) + HQ_ROLLUP_HOUR > win[k].hi)
			win[k].hi = hq_rollup_hour(end) + HQ_ROLLUP_HOUR;
	}
	if (step != SQLITE_DONE) {
		hq_err_set(e, "%s: reading new samples for the rollups: %s",
		    hq_store_filename(s), sqlite3_errmsg(hq_store_db(s)));
		goto out;
	}
	if (flush_table(s, up, upv, &t, e))
		goto out;
	if (refresh_merged(s, win, nwin, &p, e))
		goto out;
	if (hq_store_exec(s, "UPDATE rollup_state SET last_sample_id = "
	    "(SELECT coalesce(max(id), 0) FROM sample);"
	    "UPDATE rollup_vals_state SET last_sample_id = "
	    "(SELECT coalesce(max(id), 0) FROM sample)", e))
		goto out;
	rc = 0;
out:
	sqlite3_finalize(sel);
	sqlite3_finalize(up);
	sqlite3_finalize(upv);
	table_free(&t);
	free(win);
	hq_rollup_pruned_end(&p);
	return rc;
}
