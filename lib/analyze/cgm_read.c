#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/catalog.h"
#include "hq/cgm_read.h"
#include "hq/rollup.h"

/* Every glucose reading in [from, to), in time order. The natural-key
 * index (metric_id, start, source_id, end, value, text) answers it alone;
 * an open end is left out of the SQL rather than compared on every row. */
static const char *const readings_sql[4] = {
	"SELECT start, source_id, value FROM sample WHERE metric_id = ?1 "
	"ORDER BY start",
	"SELECT start, source_id, value FROM sample WHERE metric_id = ?1 "
	"AND start >= ?2 ORDER BY start",
	"SELECT start, source_id, value FROM sample WHERE metric_id = ?1 "
	"AND start < ?3 ORDER BY start",
	"SELECT start, source_id, value FROM sample WHERE metric_id = ?1 "
	"AND start >= ?2 AND start < ?3 ORDER BY start",
};

static int64_t
glucose_metric(struct hq_store *s, struct hq_err *e)
{
	const struct hq_metric_info *info = hq_catalog_lookup("blood_glucose");

	return hq_store_metric_id(s, info ? info->identifier :
	    "HKQuantityTypeIdentifierBloodGlucose", 0, e);
}

static int
open_readings(struct hq_store *s, int64_t metric, int64_t from, int64_t to,
    sqlite3_stmt **st, struct hq_err *e)
{
	int which = (from != INT64_MIN) + 2 * (to != INT64_MAX);

	if (hq_store_prepare(s, readings_sql[which], st, e))
		return -1;
	sqlite3_bind_int64(*st, 1, metric);
	if (from != INT64_MIN)
		sqlite3_bind_int64(*st, 2, from);
	if (to != INT64_MAX)
		sqlite3_bind_int64(*st, 3, to);
	return 0;
}

static int
step_done(struct hq_store *s, sqlite3_stmt *st, int rc, struct hq_err *e)
{
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		hq_err_set(e, "%s: reading glucose: %s", hq_store_filename(s),
		    sqlite3_errmsg(hq_store_db(s)));
		return -1;
	}
	return 0;
}

/* A source's readings in the range: how many, and their spacing. */
struct source {
	int64_t id;
	long n;
	int64_t last;
	int rank;
	struct hq_cgm_interval iv;
};

struct sources {
	struct source *v;
	size_t n, cap, hit;
};

static struct source *
source_of(struct sources *ss, int64_t id)
{
	if (ss->n && ss->v[ss->hit].id == id)
		return &ss->v[ss->hit];
	for (size_t i = 0; i < ss->n; i++)
		if (ss->v[i].id == id) {
			ss->hit = i;
			return &ss->v[i];
		}
	if (ss->n == ss->cap) {
		ss->cap = ss->cap ? ss->cap * 2 : 8;
		ss->v = hq_xrealloc(ss->v, ss->cap * sizeof *ss->v);
	}
	memset(&ss->v[ss->n], 0, sizeof ss->v[ss->n]);
	ss->v[ss->n].id = id;
	ss->hit = ss->n;
	return &ss->v[ss->n++];
}

static void
source_seen(struct source *src, int64_t t)
{
	if (src->n)
		hq_cgm_interval_add(&src->iv, t - src->last);
	src->last = t;
	src->n++;
}

/* Most readings first; ties by id, so a report is the same every time. */
static int
by_count(const void *a, const void *b)
{
	const struct source *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return (x->id > y->id) - (x->id < y->id);
}

/* The readings that count, into rows. */
struct run {
	const struct hq_cgm_report_opts *o;
	struct hq_cgm_report *r;
	struct hq_cgm_acc *acc;      /* parallel to r->rows */
	size_t cap;
	struct hq_cgm_acc total;
	int64_t bnext;
	struct hq_cgm_agp *agp;
	struct hq_err *e;
	int failed;
	/* The local day and time of day at blk, and blk_end: the offset
	 * holds from one to the other, so a reading's local time there is a
	 * sum. A block starts on a quarter hour (offsets change on one) and
	 * runs a day when the offset a day later is the same, else a quarter
	 * of an hour. */
	int64_t blk, blk_end, blk_day, blk_sod;
};

static void
run_reset(struct run *x)
{
	free(x->acc);
	free(x->r->rows);
	x->acc = NULL;
	x->r->rows = NULL;
	x->r->nrows = x->cap = 0;
	hq_cgm_acc_init(&x->total);
	if (x->agp) {
		hq_cgm_agp_free(x->agp);
		x->agp = hq_cgm_agp_new();
	}
}

static void
count(void *arg, int64_t t, int source, double v)
{
	struct run *x = arg;
	int64_t day, sod;

	(void)source;
	if (t < x->blk || t >= x->blk_end) {
		struct hq_local l, later;
		x->blk = t - ((t % 900) + 900) % 900;
		hq_time_to_local(x->blk + 86400, &later);
		hq_time_to_local(x->blk, &l);
		x->blk_end = x->blk + (later.offset_min == l.offset_min ? 86400 : 900);
		x->blk_day = hq_time_days_from_civil(l.year, l.month, l.day);
		x->blk_sod = l.hour * 3600 + l.min * 60 + l.sec;
	}
	day = x->blk_day;
	sod = x->blk_sod + (t - x->blk);
	if (sod >= 86400) {
		sod -= 86400;
		day++;
	}
	if (x->o->by != HQ_PERIOD_NONE && (x->r->nrows == 0 || t >= x->bnext)) {
		struct hq_cgm_row *row;
		if (x->r->nrows == x->cap) {
			x->cap = x->cap ? x->cap * 2 : 16;
			x->r->rows = hq_xrealloc(x->r->rows, x->cap * sizeof *x->r->rows);
			x->acc = hq_xrealloc(x->acc, x->cap * sizeof *x->acc);
		}
		row = &x->r->rows[x->r->nrows];
		memset(row, 0, sizeof *row);
		row->start = hq_time_bucket_start(t, x->o->by);
		row->end = x->bnext = hq_time_bucket_next(row->start, x->o->by);
		hq_cgm_acc_init(&x->acc[x->r->nrows++]);
	}
	if (x->o->by != HQ_PERIOD_NONE)
		hq_cgm_acc_add(&x->acc[x->r->nrows - 1], t, day, v);
	hq_cgm_acc_add(&x->total, t, day, v);
	if (x->agp && !x->failed &&
	    hq_cgm_agp_add(x->agp, (int)(sod / 900), v, x->e))
		x->failed = 1;
}

/* Pass one: every reading, counted per source; while the range has shown
 * one source only, its readings go straight into the rows (they all
 * count), so the common case needs no second pass. 1 when that held to the
 * end, 0 when a second source turned up (with stop, right there: ss then
 * counts only the readings before), -1 on error. */
static int
first_pass(struct hq_store *s, int64_t metric, struct run *x,
    struct sources *ss, int stop, struct hq_err *e)
{
	sqlite3_stmt *st;
	int rc, single = 1;

	if (open_readings(s, metric, x->o->from, x->o->to, &st, e))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t t = sqlite3_column_int64(st, 0);
		struct source *src = source_of(ss, sqlite3_column_int64(st, 1));
		source_seen(src, t);
		if (single && ss->n > 1) {
			single = 0;
			run_reset(x);
			if (stop)
				break;
		}
		if (single)
			count(x, t, 0, sqlite3_column_double(st, 2));
	}
	if (!single && stop) {
		sqlite3_finalize(st);
		return 0;
	}
	if (step_done(s, st, rc, e))
		return -1;
	return single;
}

/* Pass two: through the double-source rule, the sources ranked. */
static int
second_pass(struct hq_store *s, int64_t metric, struct run *x,
    struct sources *ss, int interval, struct hq_err *e)
{
	struct hq_cgm_dedup *d = hq_cgm_dedup_new(interval, count, x);
	sqlite3_stmt *st;
	int rc;

	if (open_readings(s, metric, x->o->from, x->o->to, &st, e)) {
		hq_cgm_dedup_free(d);
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct source *src = source_of(ss, sqlite3_column_int64(st, 1));
		hq_cgm_dedup_push(d, sqlite3_column_int64(st, 0), src->rank, 0,
		    sqlite3_column_double(st, 2));
	}
	hq_cgm_dedup_finish(d);
	hq_cgm_dedup_free(d);
	return step_done(s, st, rc, e);
}

/* ---- one pass, when the rollups tell the ranks ---- */

/* The readings per source in [from, to) as the rollups count them: whole
 * 15-minute slots from table rollup, the slots the range cuts from the
 * readings. Into g, most first (none of 0): 1; 0 when the range lies
 * within one slot; -1 on error. The caller checks the rollups are
 * current. The rollups leave out samples
 * with a text, so this is a guess that one_pass() checks. */
static int
rollup_counts(struct hq_store *s, int64_t metric, int64_t from, int64_t to,
    struct sources *g, struct hq_err *e)
{
	int64_t lo = from, hi = to, edge[2][2];
	sqlite3_stmt *st;
	size_t k = 0;
	int rc;

	if (from != INT64_MIN && (lo = hq_rollup_slot(from)) < from)
		lo += HQ_ROLLUP_SLOT;
	if (to != INT64_MAX)
		hi = hq_rollup_slot(to);
	if (lo >= hi)
		return 0;
	if (hq_store_prepare(s, "SELECT source_id, n FROM rollup WHERE "
	    "metric_id = ?1 AND slot >= ?2 AND slot < ?3", &st, e))
		return -1;
	sqlite3_bind_int64(st, 1, metric);
	sqlite3_bind_int64(st, 2, lo);
	sqlite3_bind_int64(st, 3, hi);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		source_of(g, sqlite3_column_int64(st, 0))->n +=
		    sqlite3_column_int64(st, 1);
	if (step_done(s, st, rc, e))
		return -1;
	/* The cut slots: [from, lo) and [hi, to). */
	edge[0][0] = from, edge[0][1] = lo;
	edge[1][0] = hi, edge[1][1] = to;
	for (int i = 0; i < 2; i++) {
		if (edge[i][0] == edge[i][1])
			continue;
		if (open_readings(s, metric, edge[i][0], edge[i][1], &st, e))
			return -1;
		while ((rc = sqlite3_step(st)) == SQLITE_ROW)
			source_of(g, sqlite3_column_int64(st, 1))->n++;
		if (step_done(s, st, rc, e))
			return -1;
	}
	for (size_t i = 0; i < g->n; i++)
		if (g->v[i].n > 0)
			g->v[k++] = g->v[i];
	g->n = k;
	qsort(g->v, g->n, sizeof *g->v, by_count);
	return 1;
}

/* The top source's spacings the interval is guessed from, and the readings
 * held meanwhile (at most). */
#define GUESS_GAPS 1024
#define GUESS_HELD 8192

struct held {
	int64_t t;
	int rank;
	double v;
};

/* A reading of the one pass: counted in ss (a source not in the guess is
 * ranked after all that are, in order of appearance); its rank. */
static int
seen(struct sources *ss, int64_t id, int64_t t)
{
	size_t n = ss->n;
	struct source *src = source_of(ss, id);

	if (ss->n != n)
		src->rank = (int)n;
	source_seen(src, t);
	return src->rank;
}

/* Pass one and only: every reading through the double-source rule with
 * the sources ranked as g guesses (g sorted, more than one), at the
 * interval of the top source's first GUESS_GAPS spacings, while ss counts
 * every source as first_pass() does. 1 when the whole range ranks the
 * sources the same and gives the same interval, so the rows are what two
 * passes make; 0 when not (ss holds the counts, the rows are to be
 * redone); -1 on error. */
static int
one_pass(struct hq_store *s, int64_t metric, struct run *x,
    struct sources *ss, const struct sources *g, struct hq_err *e)
{
	struct held *held;
	struct hq_cgm_dedup *d;
	sqlite3_stmt *st;
	size_t nheld = 0, k = 0;
	int rc = SQLITE_ROW, interval;

	for (size_t i = 0; i < g->n; i++)
		source_of(ss, g->v[i].id)->rank = (int)i;
	if (open_readings(s, metric, x->o->from, x->o->to, &st, e))
		return -1;
	held = hq_xmalloc(GUESS_HELD * sizeof *held);
	while (nheld < GUESS_HELD && ss->v[0].iv.n < GUESS_GAPS &&
	    (rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t t = sqlite3_column_int64(st, 0);
		held[nheld].t = t;
		held[nheld].rank = seen(ss, sqlite3_column_int64(st, 1), t);
		held[nheld++].v = sqlite3_column_double(st, 2);
	}
	interval = hq_cgm_interval_minutes(&ss->v[0].iv);
	d = hq_cgm_dedup_new(interval, count, x);
	for (size_t i = 0; i < nheld; i++)
		hq_cgm_dedup_push(d, held[i].t, held[i].rank, 0, held[i].v);
	free(held);
	if (rc == SQLITE_ROW)
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			int64_t t = sqlite3_column_int64(st, 0);
			int rank = seen(ss, sqlite3_column_int64(st, 1), t);
			hq_cgm_dedup_push(d, t, rank, 0,
			    sqlite3_column_double(st, 2));
		}
	hq_cgm_dedup_finish(d);
	hq_cgm_dedup_free(d);
	if (step_done(s, st, rc, e))
		return -1;
	/* The guess held when every source read has the rank it was given
	 * (one guessed but absent counts as wrong) and the interval is the
	 * top source's over the whole range. */
	for (size_t i = 0; i < ss->n; i++)
		if (ss->v[i].n)
			ss->v[k++] = ss->v[i];
	ss->n = k;
	ss->hit = 0;
	qsort(ss->v, ss->n, sizeof *ss->v, by_count);
	for (size_t i = 0; i < ss->n; i++)
		if (ss->v[i].rank != (int)i)
			return 0;
	return ss->n < 2 || hq_cgm_interval_minutes(&ss->v[0].iv) == interval;
}

/* A row's metrics over its span: the range's first to last reading, cut
 * to the bucket (whose end is exclusive, hence the interval off it). */
static void
finish_row(struct hq_cgm_row *row, const struct hq_cgm_acc *a,
    const struct hq_cgm_acc *total, int interval)
{
	int64_t from = row->start > total->first ? row->start : total->first;
	int64_t to = row->end - 60 * interval < total->last ?
	    row->end - 60 * interval : total->last;

	hq_cgm_metrics(a, interval, from, to, &row->m);
}

int
hq_cgm_report_run(struct hq_store *s, const struct hq_cgm_report_opts *o,
    struct hq_cgm_report *r, struct hq_err *e)
{
	struct sources ss = { 0 }, g = { 0 };
	struct run x = { .o = o, .r = r, .e = e, .blk = 1, .blk_end = 0 };
	int64_t metric;
	int rc = -1, done, guess, current;

	memset(r, 0, sizeof *r);
	hq_cgm_acc_init(&x.total);
	if ((metric = glucose_metric(s, e)) < 0)
		return -1;
	if (metric == 0)
		return 0;
	if (o->agp)
		x.agp = hq_cgm_agp_new();
	/* One source: one pass. More than one: when the rollups are current,
	 * their counts rank the sources ahead of one pass through the
	 * double-source rule (checked after it); else count, then count
	 * again. */
	current = hq_rollup_current(s);
	if ((done = first_pass(s, metric, &x, &ss, current, e)) < 0)
		goto out;
	if (!done && current) {
		ss.n = ss.hit = 0;
		x.failed = 0;
		if ((guess = rollup_counts(s, metric, o->from, o->to, &g, e)) < 0)
			goto out;
		if (guess && g.n > 1) {
			if ((done = one_pass(s, metric, &x, &ss, &g, e)) < 0)
				goto out;
			if (!done) {
				run_reset(&x);
				x.failed = 0;
			}
		} else if ((done = first_pass(s, metric, &x, &ss, 0, e)) < 0)
			goto out;
	}
	if (ss.n == 0) {
		rc = 0;
		goto out;
	}
	qsort(ss.v, ss.n, sizeof *ss.v, by_count);
	for (size_t i = 0; i < ss.n; i++) {
		ss.v[i].rank = (int)i;
		r->readings_stored += ss.v[i].n;
	}
	ss.hit = 0;
	r->nsources = (int)ss.n;
	r->interval_min = hq_cgm_interval_minutes(&ss.v[0].iv);
	if (!done && second_pass(s, metric, &x, &ss, r->interval_min, e))
		goto out;
	if (x.failed)
		goto out;
	r->total.start = x.total.first;
	r->total.end = x.total.last + 60 * r->interval_min;
	finish_row(&r->total, &x.total, &x.total, r->interval_min);
	for (size_t i = 0; i < r->nrows; i++)
		finish_row(&r->rows[i], &x.acc[i], &x.total, r->interval_min);
	if (o->by == HQ_PERIOD_NONE) {
		r->rows = hq_xmalloc(sizeof *r->rows);
		r->rows[0] = r->total;
		r->nrows = 1;
	}
	if (x.agp) {
		if (hq_cgm_agp_finish(x.agp, e))
			goto out;
		for (int i = 0; i < HQ_CGM_AGP_SLOTS; i++)
			hq_cgm_agp_row(x.agp, i, &r->agp[i]);
		r->has_agp = 1;
	}
	rc = 1;
out:
	if (rc < 0)
		hq_cgm_report_free(r);
	free(x.acc);
	free(ss.v);
	free(g.v);
	hq_cgm_agp_free(x.agp);
	return rc;
}

void
hq_cgm_report_free(struct hq_cgm_report *r)
{
	free(r->rows);
	memset(r, 0, sizeof *r);
}

/* ---- sensor sessions ---- */

struct session {
	int64_t source, first, last, last_day;
	long readings, days;
};

/* What a source's next reading is measured against. */
struct open_session {
	int64_t source;
	size_t at;                  /* its current session in sessions.v */
	struct hq_cgm_interval iv;
};

struct sessions {
	struct session *v;
	size_t n, cap;
};

static struct session *
session_new(struct sessions *ss, int64_t source, int64_t t, int64_t day)
{
	struct session *x;

	if (ss->n == ss->cap) {
		ss->cap = ss->cap ? ss->cap * 2 : 16;
		ss->v = hq_xrealloc(ss->v, ss->cap * sizeof *ss->v);
	}
	x = &ss->v[ss->n++];
	*x = (struct session){ source, t, t, day, 0, 1 };
	return x;
}

static int
by_first(const void *a, const void *b)
{
	const struct session *x = a, *y = b;

	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	return (x->source > y->source) - (x->source < y->source);
}

int
hq_cgm_sessions(struct hq_store *s, hq_cgm_session_fn *fn, void *arg,
    struct hq_err *e)
{
	struct sessions ss = { 0 };
	struct open_session *open = NULL;
	size_t nopen = 0;
	sqlite3_stmt *st = NULL, *name = NULL;
	int64_t metric;
	int rc;

	if ((metric = glucose_metric(s, e)) <= 0)
		return (int)metric;
	if (open_readings(s, metric, INT64_MIN, INT64_MAX, &st, e))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t t = sqlite3_column_int64(st, 0);
		int64_t src = sqlite3_column_int64(st, 1);
		int64_t day = hq_time_local_day(t);
		struct session *x = NULL;
		size_t i;
		for (i = 0; i < nopen; i++)
			if (open[i].source == src)
				break;
		if (i < nopen) {
			int64_t gap = t - ss.v[open[i].at].last;
			hq_cgm_interval_add(&open[i].iv, gap);
			if (gap < HQ_CGM_SESSION_GAP || (gap < HQ_CGM_SESSION_GAP_SPARSE &&
			    hq_cgm_interval_minutes(&open[i].iv) > 15))
				x = &ss.v[open[i].at];
		} else {
			open = hq_xrealloc(open, ++nopen * sizeof *open);
			memset(&open[i], 0, sizeof open[i]);
			open[i].source = src;
		}
		if (!x) {
			x = session_new(&ss, src, t, day);
			open[i].at = ss.n - 1;
		}
		x->last = t;
		x->readings++;
		if (day != x->last_day) {
			x->days++;
			x->last_day = day;
		}
	}
	free(open);
	if (step_done(s, st, rc, e))
		goto fail;
	qsort(ss.v, ss.n, sizeof *ss.v, by_first);
	if (hq_store_prepare(s, "SELECT name FROM source WHERE id = ?", &name, e))
		goto fail;
	for (size_t i = 0; i < ss.n; i++) {
		struct hq_cgm_session out = { "", ss.v[i].first, ss.v[i].last,
		    ss.v[i].readings, ss.v[i].days };
		sqlite3_reset(name);
		sqlite3_bind_int64(name, 1, ss.v[i].source);
		if (sqlite3_step(name) == SQLITE_ROW)
			out.source = (const char *)sqlite3_column_text(name, 0);
		if (fn(arg, &out, e))
			goto fail;
	}
	sqlite3_finalize(name);
	free(ss.v);
	return 0;
fail:
	sqlite3_finalize(name);
	free(ss.v);
	return -1;
}
