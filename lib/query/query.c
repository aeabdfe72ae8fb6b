#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "hq/buf.h"
#include "hq/query.h"
#include "hq/rollup.h"
#include "hq/sleep.h"

/* Cumulative samples can start before the range and reach into it; how far
 * back to look for them. */
#define MAX_SPAN (7 * 86400)

/* ---- metric names ------------------------------------------------------ */

static void
fill_from_info(struct hq_metric_ref *m, const struct hq_metric_info *info)
{
	snprintf(m->name, sizeof m->name, "%s", info->name);
	snprintf(m->identifier, sizeof m->identifier, "%s", info->identifier);
	m->kind = info->kind;
	snprintf(m->unit, sizeof m->unit, "%s", info->unit ? info->unit
	    : info->kind == HQ_KIND_CATEGORY ? hq_catalog_category_unit(info->name)
	    : "");
	m->info = info;
}

int
hq_query_resolve(struct hq_store *s, const char *name, struct hq_metric_ref *m,
    struct hq_err *e)
{
	const struct hq_metric_info *info = hq_catalog_lookup(name);
	struct hq_catalog_suggestion known;
	sqlite3_stmt *st = NULL;
	char **cands = NULL;
	size_t nc = 0;
	const char *sugg;
	int64_t id = 0;

	memset(m, 0, sizeof *m);
	if (info) {
		fill_from_info(m, info);
		return 0;
	}
	/* Not in the catalog: perhaps a type the store holds, found through
	 * the store's index of spellings (a scan of every metric per name
	 * made hq-correlate --against all quadratic in their number). */
	if (s && (id = hq_store_metric_find(s, name, e)) < 0)
		return -1;
	if (id > 0) {
		const char *ident = hq_store_metric_name(s, id);
		char snake[128];
		if (!ident)
			ident = name;
		hq_catalog_snake(ident, snake, sizeof snake);
		snprintf(m->name, sizeof m->name, "%s", snake);
		snprintf(m->identifier, sizeof m->identifier, "%s", ident);
		m->kind = hq_catalog_guess_kind(ident);
		if (m->kind == HQ_KIND_CATEGORY)
			snprintf(m->unit, sizeof m->unit, "%s",
			    hq_catalog_category_unit(snake));
		else if (hq_store_prepare(s, "SELECT unit FROM sample WHERE "
		    "metric_id = ?1 LIMIT 1", &st, e) == 0) {
			const char *unit;
			sqlite3_bind_int64(st, 1, id);
			unit = sqlite3_step(st) == SQLITE_ROW ?
			    (const char *)sqlite3_column_text(st, 0) : NULL;
			snprintf(m->unit, sizeof m->unit, "%s", unit ? unit : "");
			sqlite3_finalize(st);
		} else
			return -1;
		return 0;
	}
	/* Unknown: the names the store holds, for a suggestion. */
	if (s && hq_store_prepare(s, "SELECT identifier FROM metric", &st, e) == 0) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			char snake[128];
			hq_catalog_snake((const char *)sqlite3_column_text(st, 0),
			    snake, sizeof snake);
			cands = hq_xrealloc(cands, (nc + 1) * sizeof *cands);
			cands[nc++] = hq_xstrdup(snake);
		}
		sqlite3_finalize(st);
	}
	sugg = hq_catalog_suggest(name, (const char *const *)cands, nc);
	if (!sugg)
		sugg = hq_catalog_suggest_known(name, &known);
	if (sugg)
		hq_err_set(e, "unknown metric '%s' (did you mean %s?)", name, sugg);
	else
		hq_err_set(e, "unknown metric '%s'; hq-query --list shows the "
		    "metrics in the store", name);
	for (size_t i = 0; i < nc; i++)
		free(cands[i]);
	free(cands);
	return -1;
}

long
hq_dayset_find(const struct hq_dayset *d, int64_t day)
{
	size_t lo = 0, hi = d->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (d->days[mid] < day)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < d->n && d->days[lo] == day ? (long)lo : -1;
}

int
hq_dayset_has(const struct hq_dayset *d, int64_t day)
{
	return hq_dayset_find(d, day) >= 0;
}

void
hq_query_default_agg(enum hq_kind k, struct hq_agg *a)
{
	hq_stats_parse_agg(k == HQ_KIND_CUMULATIVE || k == HQ_KIND_CATEGORY
	    ? "sum" : "avg", a);
}

/* The ids a metric is stored under: its identifier, and its snake name for
 * stores fed by generic JSON lines that used it. 0 when absent. */
static int
metric_ids(struct hq_store *s, const struct hq_metric_ref *m, int64_t ids[2],
    struct hq_err *e)
{
	ids[0] = hq_store_metric_id(s, m->identifier, 0, e);
	if (ids[0] < 0)
		return -1;
	ids[1] = 0;
	if (m->info && strcmp(m->info->name, m->identifier) != 0 &&
	    m->kind != HQ_KIND_SLEEP) {
		ids[1] = hq_store_metric_id(s, m->info->name, 0, e);
		if (ids[1] < 0)
			return -1;
	}
	return 0;
}

/* ---- rows out ------------------------------------------------------------ */

/* Where rows go: the caller's function, one row at a time. stop is set
 * when it said stop (rc 0) or failed (rc -1, e set); readers then stop
 * reading and return rc. */
struct emit {
	hq_query_row_fn *fn;
	void *ctx;
	struct hq_series *sr;
	struct hq_err *e;
	int stop, rc;
};

static void
row_init(struct hq_row *r)
{
	memset(r, 0, sizeof *r);
	r->source = -1;
	r->sample_value = NAN;
	for (size_t i = 0; i < HQ_MAX_AGGS; i++)
		r->v[i] = NAN;
}

/* Hand r on: 0, or 1 when the reader must stop (em->rc says why). */
static int
emit(struct emit *em, const struct hq_row *r)
{
	int rc;

	if (em->stop)
		return 1;
	rc = em->fn(em->ctx, em->sr, r, em->e);
	if (rc) {
		em->stop = 1;
		em->rc = rc < 0 ? -1 : 0;
	}
	return em->stop;
}

/* ---- raw samples ----------------------------------------------------- */

struct sample {
	int64_t start, end;
	double value;
	int64_t source_id, device_id;
	int stage;
	char category[32];   /* category samples: the stored name */
};

/*
 * A query's samples in time order, streamed from the store. A metric
 * stored under two ids (its identifier and its snake name) is two
 * statements merged here: one statement with metric_id IN (a, b) ORDER BY
 * start makes SQLite sort every sample in memory first.
 *
 * Discrete and category samples read only columns of the natural-key index
 * (start, end, value, source_id, text), which SQLite then reads alone;
 * cumulative and sleep samples also need device_id, for source ranks.
 */
struct stream {
	sqlite3_stmt *st[2];
	int nst, have[2];
	struct sample next[2];
	enum hq_kind kind;
	int devices;         /* the statement reads device_id (not in the index) */
	int timed;           /* category samples: their minutes, not a count */
	struct hq_store *s;
};

static int
step_error(struct hq_store *s, struct hq_err *e)
{
	hq_err_set(e, "%s: reading samples: %s", hq_store_filename(s),
	    sqlite3_errmsg(hq_store_db(s)));
	return -1;
}

static void
decode_sample(sqlite3_stmt *st, enum hq_kind kind, int ranked, int timed,
    struct sample *x)
{
	int text = ranked ? 5 : 4;   /* sleep and category samples have it */

	x->start = sqlite3_column_int64(st, 0);
	x->end = sqlite3_column_int64(st, 1);
	if (x->end < x->start)
		x->end = x->start;
	x->value = sqlite3_column_double(st, 2);
	x->source_id = sqlite3_column_int64(st, 3);
	x->device_id = ranked ? sqlite3_column_int64(st, 4) : 0;
	x->stage = kind == HQ_KIND_SLEEP ? hq_sleep_stage_from_name(
	    (const char *)sqlite3_column_text(st, text)) : 0;
	x->category[0] = '\0';
	if (kind == HQ_KIND_CATEGORY) {
		const char *t = (const char *)sqlite3_column_text(st, text);
		snprintf(x->category, sizeof x->category, "%s", t ? t : "");
		/* Counted unless the catalog times the metric (SPEC.md). */
		x->value = timed ? (double)(x->end - x->start) / 60
		    : hq_catalog_category_count(x->category);
	}
}

/* Fetch the next row of statement i into s->next[i]: 0 or -1. */
static int
stream_fill(struct stream *s, int i, struct hq_err *e)
{
	int rc = sqlite3_step(s->st[i]);

	s->have[i] = rc == SQLITE_ROW;
	if (rc == SQLITE_ROW)
		decode_sample(s->st[i], s->kind, s->devices, s->timed,
		    &s->next[i]);
	else if (rc != SQLITE_DONE)
		return step_error(s->s, e);
	return 0;
}

/*
 * The same activity recorded twice (workout_same, kept by hq-ingest): a
 * discrete metric's samples of the recording that yields, inside its
 * time, are left out where the kept recording's source has samples of the
 * metric inside its own, so that a day's heart rate averages over one
 * recording, not both (SPEC: hq-ingest). --source still shows them.
 */
#define SAME_EXCLUDED \
	" AND NOT EXISTS (SELECT 1 FROM workout_same ws" \
	" JOIN workout w ON w.id = ws.workout_id" \
	" JOIN workout k ON k.id = ws.same_as" \
	" WHERE w.source_id = o.source_id" \
	" AND o.start >= w.start AND o.start <= w.end" \
	" AND EXISTS (SELECT 1 FROM sample t WHERE t.metric_id = o.metric_id" \
	" AND t.source_id = k.source_id" \
	" AND t.start >= k.start AND t.start <= k.end))"

/* Whether a read of m's samples in [lo, hi) must leave some out (above):
 * m is discrete and a recording that yields overlaps the range. */
static int
same_excludes(struct hq_store *st, const struct hq_metric_ref *m, int64_t lo,
    int64_t hi)
{
	sqlite3_stmt *q;
	struct hq_err e;
	int yes;

	if (m->kind != HQ_KIND_DISCRETE || hq_store_prepare(st,
	    "SELECT 1 FROM workout_same ws JOIN workout w ON w.id ="
	    " ws.workout_id WHERE w.start < ?2 AND w.end >= ?1 LIMIT 1", &q, &e))
		return 0;   /* a store from before workout_same: none */
	sqlite3_bind_int64(q, 1, lo);
	sqlite3_bind_int64(q, 2, hi);
	yes = sqlite3_step(q) == SQLITE_ROW;
	sqlite3_finalize(q);
	return yes;
}

/* The samples of metric ids with start in [lo, hi), and end > end_after
 * (INT64_MIN: any), of source_id (0: any), in start order; with their
 * device when devices is set. */
static int
stream_open(struct stream *s, struct hq_store *st,
    const struct hq_metric_ref *m, int devices, const int64_t ids[2],
    int64_t lo, int64_t hi, int64_t end_after, int64_t source_id,
    struct hq_err *e)
{
	char sql[1024];
	enum hq_kind kind = m->kind;
	int text = kind == HQ_KIND_SLEEP || kind == HQ_KIND_CATEGORY;

	/* Only the columns and conditions this read needs: SQLite does every
	 * one for every sample. */
	snprintf(sql, sizeof sql, "SELECT start, end, value, source_id%s%s FROM "
	    "sample o WHERE metric_id = ?1 AND start >= ?2 AND start < ?3%s%s%s "
	    "ORDER BY start", devices ? ", coalesce(device_id, 0)" : "",
	    text ? ", text" : "", end_after != INT64_MIN ? " AND end > ?4" : "",
	    source_id ? " AND source_id = ?5" : "",
	    !source_id && same_excludes(st, m, lo, hi) ? SAME_EXCLUDED : "");
	memset(s, 0, sizeof *s);
	s->kind = kind;
	s->devices = devices;
	/* A category the catalog times has rows in minutes. */
	s->timed = kind == HQ_KIND_CATEGORY && strcmp(m->unit, "min") == 0;
	s->s = st;
	for (int k = 0; k < 2; k++) {
		if (!ids[k])
			continue;
		sqlite3_stmt **p = &s->st[s->nst];
		if (hq_store_prepare(st, sql, p, e))
			return -1;
		sqlite3_bind_int64(*p, 1, ids[k]);
		sqlite3_bind_int64(*p, 2, lo);
		sqlite3_bind_int64(*p, 3, hi);
		sqlite3_bind_int64(*p, 4, end_after);
		sqlite3_bind_int64(*p, 5, source_id);
		if (stream_fill(s, s->nst++, e))
			return -1;
	}
	return 0;
}

/* The next sample: 1, 0 at the end, -1. */
static int
stream_next(struct stream *s, struct sample *x, struct hq_err *e)
{
	int i;

	if (!s->have[0] && !s->have[1])
		return 0;
	i = !s->have[0] || (s->have[1] && s->next[1].start < s->next[0].start);
	*x = s->next[i];
	return stream_fill(s, i, e) ? -1 : 1;
}

/* The start of the sample stream_next() would give, or INT64_MAX. */
static int64_t
stream_peek(const struct stream *s)
{
	int64_t a = s->have[0] ? s->next[0].start : INT64_MAX;
	int64_t b = s->have[1] ? s->next[1].start : INT64_MAX;

	return a < b ? a : b;
}

static void
stream_close(struct stream *s)
{
	for (int i = 0; i < s->nst; i++)
		sqlite3_finalize(s->st[i]);
	memset(s, 0, sizeof *s);
}

/* ---- points and buckets ----------------------------------------------- */

/* A value at an instant, on its way into a bucket. */
struct point {
	int64_t t, end;
	double v;
	int counts;        /* adds to the row's n */
	int64_t day;       /* local day (the night, for sleep) */
	size_t seq;        /* sort_points(): the order they came in */
};

struct points {
	struct point *v;
	size_t n, cap;
};

static void
push_point(struct points *p, struct point pt)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 256;
		p->v = hq_xrealloc(p->v, p->cap * sizeof *p->v);
	}
	p->v[p->n++] = pt;
}

static int
cmp_point(const void *a, const void *b)
{
	const struct point *x = a, *y = b;

	if (x->t != y->t)
		return (x->t > y->t) - (x->t < y->t);
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Points in time order, equal times in the order they came (as a stable
 * sort of every point of a query would leave them). */
static void
sort_points(struct points *p)
{
	size_t i = 1;

	while (i < p->n && p->v[i - 1].t <= p->v[i].t)
		i++;
	if (i >= p->n)
		return;
	for (i = 0; i < p->n; i++)
		p->v[i].seq = i;
	qsort(p->v, p->n, sizeof *p->v, cmp_point);
}

/* Whether the row's n is the number of values (daily totals, samples) or
 * counted separately (cumulative hour/day buckets: samples starting). */
static void
finish_row(struct hq_row *r, struct hq_stats_acc *acc, const struct hq_query *q,
    long counted, int separate_n)
{
	r->n = separate_n ? counted : acc->n;
	for (size_t i = 0; i < q->naggs; i++) {
		const struct hq_agg *g = &q->aggs[i];
		if (separate_n && g->kind == HQ_AGG_COUNT)
			r->v[i] = (double)counted;
		else if (separate_n && g->kind == HQ_AGG_AVG)
			r->v[i] = counted ? acc->sum / (double)counted : NAN;
		else
			r->v[i] = hq_stats_acc_value(acc, g);
	}
}

/* ---- day windows (by day, from an evening to the next noon) ------------ */

static int
windowed(const struct hq_query *q)
{
	return q->by == HQ_DAY && (q->day_from_hour || q->day_to_hour);
}

/* The window holding t: 1, with [*lo, *hi) the window and *day its day;
 * or 0 when t falls between two windows, with [*lo, *hi) that gap. */
static int
window_of(const struct hq_query *q, int64_t t, int64_t *lo, int64_t *hi,
    int64_t *day)
{
	int64_t d = hq_time_local_day(t), next = hq_time_day_at(d, q->day_from_hour);
	int64_t s = next, e;

	if (t < s)              /* before today's opens: yesterday's, if still open */
		s = hq_time_day_at(--d, q->day_from_hour);
	e = hq_time_day_at(d + 1, q->day_to_hour);
	if (t >= e) {
		*lo = e;
		*hi = next;
		return 0;
	}
	*lo = s;
	*hi = e;
	*day = d;
	return 1;
}

/* The day an instant counts for (its calendar day, or its window's), kept
 * while instants in time order stay inside the same day or gap. */
struct day_cache {
	int64_t lo, hi, day;
	int in;
};

/* 1 with *day, or 0 when t counts for no day (between windows). */
static int
day_of(const struct hq_query *q, struct day_cache *c, int64_t t, int64_t *day)
{
	if (t < c->lo || t >= c->hi) {
		if (windowed(q)) {
			c->in = window_of(q, t, &c->lo, &c->hi, &c->day);
		} else {
			c->day = hq_time_local_day(t);
			c->lo = hq_time_day_start(c->day);
			c->hi = hq_time_day_start(c->day + 1);
			c->in = 1;
		}
	}
	*day = c->day;
	return c->in;
}

/* Gives the values of [lo, hi) again to acc (hq_stats_acc_add_values), in
 * any order, for another pass of exact quantiles. 0 or -1. */
typedef int reread_fn(void *ctx, int64_t lo, int64_t hi,
    struct hq_stats_acc *acc, struct hq_err *e);

/* Rows out of values that arrive in time order, one bucket at a time: one
 * row is open, and medians and percentiles hold the bucket's distinct
 * values, at most HQ_QUANT_LIMIT of them when the values can be read again
 * (reread), else all of them. */
struct bucketer {
	const struct hq_query *q;
	enum hq_period by;
	int whole, separate_n;
	struct emit *em;
	struct hq_stats_acc acc;
	struct hq_row row;
	int open;
	int64_t bs, be, last_t;
	long counted;
	reread_fn *reread;
	void *reread_ctx;
};

static void
bucketer_init(struct bucketer *b, const struct hq_query *q, enum hq_period by,
    int whole, int separate_n, struct emit *em, reread_fn *reread,
    void *reread_ctx)
{
	memset(b, 0, sizeof *b);
	b->q = q;
	b->by = by;
	b->whole = whole;
	b->separate_n = separate_n;
	b->em = em;
	b->reread = reread;
	b->reread_ctx = reread_ctx;
	hq_stats_acc_init_aggs(&b->acc, q->aggs, q->naggs, reread != NULL);
}

/* Close the open row and hand it on: 0, 1 to stop, -1. */
static int
bucketer_close(struct bucketer *b)
{
	struct hq_row *r = &b->row;

	if (!b->open)
		return 0;
	b->open = 0;
	/* An open range ends with the day of the last value. */
	if (b->whole && b->q->to == INT64_MAX)
		r->end = hq_time_day_start(hq_time_local_day(b->last_t) + 1);
	while (!hq_stats_acc_pass_done(&b->acc))
		if (b->reread(b->reread_ctx, b->bs, b->be, &b->acc, b->em->e)) {
			b->em->stop = 1;
			b->em->rc = -1;
			return -1;
		}
	finish_row(r, &b->acc, b->q, b->counted, b->separate_n);
	return emit(b->em, r);
}

/* Open the bucket holding t (or the whole range). */
static int
bucketer_open(struct bucketer *b, int64_t t)
{
	int rc = bucketer_close(b);

	if (rc)
		return rc;
	hq_stats_acc_reset(&b->acc);
	b->counted = 0;
	row_init(&b->row);
	if (b->whole) {
		b->bs = b->q->from != INT64_MIN ? b->q->from
		    : hq_time_day_start(hq_time_local_day(t));
		b->be = b->q->to;
		b->row.day = hq_time_local_day(b->bs);
	} else if (windowed(b->q)) {
		window_of(b->q, t, &b->bs, &b->be, &b->row.day);
	} else {
		b->bs = hq_time_bucket_start(t, b->by);
		b->be = hq_time_bucket_next(b->bs, b->by);
		b->row.day = hq_time_local_day(b->bs);
	}
	b->row.start = b->bs;
	b->row.end = b->be;
	b->open = 1;
	return 0;
}

/* A value at t: 0, 1 to stop (the sink said so), -1. */
static int
bucketer_add(struct bucketer *b, int64_t t, double v, int counts)
{
	if (!b->open || (!b->whole && (t >= b->be || t < b->bs))) {
		int rc;
		/* With day windows, callers pass values inside a window
		 * only; any other is dropped. */
		if (windowed(b->q) && !b->whole) {
			int64_t lo, hi, day;
			if (!window_of(b->q, t, &lo, &hi, &day))
				return 0;
		}
		if ((rc = bucketer_open(b, t)))
			return rc;
	}
	hq_stats_acc_add(&b->acc, v);
	b->counted += counts;
	b->last_t = t;
	return 0;
}

static int
bucketer_finish(struct bucketer *b)
{
	int rc = bucketer_close(b);

	hq_stats_acc_free(&b->acc);
	return rc;
}

/* Sorted points into the bucketer: 0, 1 to stop, -1. */
static int
bucket_points(struct bucketer *b, const struct points *p)
{
	for (size_t i = 0; i < p->n; i++) {
		int rc = bucketer_add(b, p->v[i].t, p->v[i].v, p->v[i].counts);
		if (rc)
			return rc;
	}
	return 0;
}

/* --when: q->days are the days lib/select.c found the conditions true on
 * (hq_select_days_set()). Every reader below asks before a value counts:
 * raw samples as they stream from their SELECT, cumulative pieces after
 * the merge, nights, and rollup slots. */
static int
day_ok(const struct hq_query *q, int64_t day)
{
	return !q->days || hq_dayset_has(q->days, day);
}

/* Daily totals from points already split at day boundaries: one point per
 * day, at the day's start. */
static void
daily_totals(const struct points *in, struct points *out)
{
	for (size_t i = 0; i < in->n;) {
		int64_t day = in->v[i].day;
		struct point pt = { .day = day, .counts = 1, .t = hq_time_day_start(day) };
		pt.end = hq_time_day_start(day + 1);
		for (; i < in->n && in->v[i].day == day; i++)
			pt.v += in->v[i].v;
		push_point(out, pt);
	}
}

/* ---- sources: ranks and row indexes ------------------------------------ */

/* A sample's rank in the merge (merge.h), remembered per source and device:
 * the names behind them are looked up once, not per sample. */
struct ranks {
	struct hq_store *s;
	const struct hq_priority *prio;
	int64_t single;            /* --source: one source, rank 0 */
	struct rank_memo {
		int64_t source, device;
		uint64_t rank;
	} *m;
	size_t n;
};

static uint64_t
rank_of(struct ranks *rk, const struct sample *x)
{
	const char *src, *dev;
	ssize_t order;
	uint64_t r;

	if (rk->single)
		return 0;
	for (size_t i = 0; i < rk->n; i++)
		if (rk->m[i].source == x->source_id && rk->m[i].device == x->device_id)
			return rk->m[i].rank;
	src = hq_store_source_name(rk->s, x->source_id);
	dev = x->device_id ? hq_store_device_name(rk->s, x->device_id) : NULL;
	order = hq_store_source_order(rk->s, x->source_id);
	r = hq_merge_rank(rk->prio, src, dev, order < 0 ? 0 : (size_t)order);
	rk->m = hq_xrealloc(rk->m, (rk->n + 1) * sizeof *rk->m);
	rk->m[rk->n++] = (struct rank_memo){ x->source_id, x->device_id, r };
	return r;
}

/* A sample's source as an index of the series' sources (all, in name
 * order). */
static void
row_source(struct hq_store *s, struct hq_row *r, int64_t source_id)
{
	ssize_t k = hq_store_source_order(s, source_id);

	if (k >= 0)
		r->source = (int)k;
}

/* ---- cumulative: merge and split -------------------------------------- */

/* Split [a, b) worth v at local boundaries of `by` (hour or day; by day
 * with windows, at the windows' ends) into points, clipped to [lo, hi). */
static void
split_piece(const struct hq_query *q, int64_t lo, int64_t hi, enum hq_period by,
    int64_t a, int64_t b, double v, int first, struct points *out)
{
	struct day_cache dc = { 0, 0, 0, 0 };
	int64_t from = lo > a ? lo : a, to = hi < b ? hi : b, day;

	if (b <= a) {
		if (a >= lo && a < hi && day_of(q, &dc, a, &day)) {
			struct point pt = { a, a, v, first, day, 0 };
			push_point(out, pt);
		}
		return;
	}
	for (int64_t t = from; t < to;) {
		int64_t next, z;
		int in = 1;
		if (windowed(q)) {
			/* to the end of the window or of the gap */
			in = day_of(q, &dc, t, &day);
			next = dc.hi;
		} else {
			next = hq_time_bucket_next(hq_time_bucket_start(t, by), by);
			day = hq_time_local_day(t);
		}
		z = next < to ? next : to;
		if (in) {
			struct point pt = { t, z, v * (double)(z - t) / (double)(b - a),
			    first && t == a, day, 0 };
			push_point(out, pt);
		}
		t = z;
	}
}

/* A piece within one local day's window [lo, hi): at most one point, on
 * that day (what split_piece() makes of it by day). */
static void
day_piece(int64_t lo, int64_t hi, int64_t day, int64_t a, int64_t b, double v,
    int first, struct points *out)
{
	int64_t from = lo > a ? lo : a, to = hi < b ? hi : b;

	if (b <= a) {
		if (a >= lo && a < hi) {
			struct point pt = { a, a, v, first, day, 0 };
			push_point(out, pt);
		}
		return;
	}
	if (from < to) {
		struct point pt = { from, to, v * (double)(to - from) / (double)(b - a),
		    first && from == a, day, 0 };
		push_point(out, pt);
	}
}

/*
 * The samples a cumulative query has read and not yet finished with, in
 * start order. A sample's counted pieces depend only on the samples that
 * overlap it (merge.h), so the merge runs one local day at a time over the
 * samples that can overlap that day's: those starting within twice the
 * longest sample seen of it. Memory holds a day and that margin, not the
 * range.
 */
struct window {
	struct sample *v;
	size_t n, cap;
	int64_t longest;           /* the longest sample read so far */
};

static void
window_push(struct window *w, const struct sample *x)
{
	if (w->n == w->cap) {
		w->cap = w->cap ? w->cap * 2 : 256;
		w->v = hq_xrealloc(w->v, w->cap * sizeof *w->v);
	}
	w->v[w->n++] = *x;
	if (x->end - x->start > w->longest)
		w->longest = x->end - x->start;
}

/* Forget the samples that start before t. */
static void
window_drop(struct window *w, int64_t t)
{
	size_t k = 0;

	while (k < w->n && w->v[k].start < t)
		k++;
	if (k) {
		memmove(w->v, w->v + k, (w->n - k) * sizeof *w->v);
		w->n -= k;
	}
}

/* Read samples starting before t into w: 0 or -1. */
static int
window_fill(struct window *w, struct stream *in, int64_t t, struct hq_err *e)
{
	struct sample x;
	int rc;

	while (stream_peek(in) < t) {
		if ((rc = stream_next(in, &x, e)) <= 0)
			return rc;
		window_push(w, &x);
	}
	return 0;
}

/* The merge of the window's samples: pieces (the caller frees them). */
static void
window_merge(const struct window *w, struct ranks *rk, struct hq_piece **pc,
    size_t *npc)
{
	struct hq_merge_sample *ms = hq_xmalloc((w->n + 1) * sizeof *ms);

	for (size_t i = 0; i < w->n; i++)
		ms[i] = (struct hq_merge_sample){ w->v[i].start, w->v[i].end,
		    w->v[i].value, rank_of(rk, &w->v[i]) };
	hq_merge_cumulative(ms, w->n, pc, npc);
	free(ms);
}

/* One row per sample that counts, with its share inside the range, in
 * start order, a local day of samples at a time: they are finished when
 * every sample that can overlap them (starting before they end) has been
 * read. Samples of earlier days stay while they can overlap later ones. */
static int
cumulative_rows(struct hq_store *s, const struct hq_query *q,
    struct stream *in, struct ranks *rk, struct emit *em, struct hq_err *e)
{
	struct window w = {0};
	int64_t done = INT64_MIN, day_end = INT64_MIN;
	int rc = 0;

	while (!em->stop) {
		struct hq_piece *pc;
		size_t npc, a = 0, own;
		int64_t reach = INT64_MIN;

		/* Samples before done have had their rows. */
		while (a < w.n && w.v[a].start < done)
			a++;
		if (a == w.n) {
			int64_t t = stream_peek(in);
			if (t == INT64_MAX)
				break;
			if (t >= day_end)
				day_end = hq_time_day_start(hq_time_local_day(t) + 1);
		}
		if ((rc = window_fill(&w, in, day_end, e)))
			break;
		for (own = a; own < w.n && w.v[own].start < day_end; own++)
			if (w.v[own].end > reach)
				reach = w.v[own].end;
		/* An instant is covered by a sample starting at it: +1. */
		if ((rc = window_fill(&w, in, reach + 1, e)))
			break;
		window_merge(&w, rk, &pc, &npc);
		double *share = hq_xcalloc(w.n + 1, sizeof *share);
		char *any = hq_xcalloc(w.n + 1, 1);
		for (size_t i = 0; i < npc; i++) {
			int64_t x = pc[i].start, z = pc[i].end;
			int64_t lo = q->from > x ? q->from : x, hi = q->to < z ? q->to : z;
			if (pc[i].sample < a || pc[i].sample >= own)
				continue;
			if (z <= x ? (x >= q->from && x < q->to) : hi > lo) {
				share[pc[i].sample] += z <= x ? pc[i].value
				    : pc[i].value * (double)(hi - lo) / (double)(z - x);
				any[pc[i].sample] = 1;
			}
		}
		for (size_t i = a; i < own && !em->stop; i++) {
			const struct sample *x = &w.v[i];
			struct hq_row r;
			if (!any[i] || !day_ok(q, hq_time_local_day(x->start)))
				continue;
			row_init(&r);
			r.start = x->start;
			r.end = x->end;
			r.n = 1;
			r.day = hq_time_local_day(x->start);
			r.sample_value = x->value;
			for (size_t k = 0; k < q->naggs; k++)
				r.v[k] = q->aggs[k].kind == HQ_AGG_COUNT ? 1 : share[i];
			row_source(s, &r, x->source_id);
			emit(em, &r);
		}
		free(share);
		free(any);
		free(pc);
		done = day_end;
		/* Only samples that can reach past done still matter. */
		window_drop(&w, done - w.longest);
		day_end = hq_time_day_start(hq_time_local_day(day_end) + 1);
	}
	free(w.v);
	return rc < 0 ? -1 : em->rc;
}

/* Bucketed rows of a cumulative metric: day by day, the merged pieces
 * split at hour or day boundaries, in time order, into the bucketer
 * (through daily totals for weeks and longer). */
static int
cumulative_buckets(const struct hq_query *q, struct stream *in,
    struct ranks *rk, struct emit *em, struct hq_err *e)
{
	struct window w = {0};
	struct points pts = {0}, days = {0};
	struct bucketer b;
	enum hq_period fine = q->by == HQ_HOUR ? HQ_HOUR : HQ_DAY;
	int coarse = q->whole || q->by >= HQ_WEEK, rc = 0;
	int64_t lo = q->from, day_end = INT64_MIN;

	bucketer_init(&b, q, q->by, q->whole, !coarse, em, NULL, NULL);
	while (!em->stop) {
		struct hq_piece *pc;
		size_t npc;

		if (lo >= q->to)
			break;
		if (w.n == 0) {
			/* Nothing read overlaps what is left: on to the next
			 * sample's day. */
			int64_t t = stream_peek(in);
			if (t == INT64_MAX)
				break;
			if (t > lo)
				lo = hq_time_day_start(hq_time_local_day(t));
			if (lo < q->from)
				lo = q->from;
		}
		day_end = hq_time_day_start(hq_time_local_day(lo) + 1);
		if (day_end > q->to)
			day_end = q->to;
		if ((rc = window_fill(&w, in, day_end, e)))
			break;
		window_merge(&w, rk, &pc, &npc);
		char *seen = hq_xcalloc(w.n + 1, 1);
		int64_t day = hq_time_local_day(lo);
		pts.n = 0;
		for (size_t i = 0; i < npc; i++) {
			int first = !seen[pc[i].sample];
			seen[pc[i].sample] = 1;
			if (fine == HQ_DAY && !windowed(q))
				day_piece(lo, day_end, day, pc[i].start, pc[i].end,
				    pc[i].value, first, &pts);
			else
				split_piece(q, lo, day_end, fine, pc[i].start,
				    pc[i].end, pc[i].value, first, &pts);
		}
		free(seen);
		free(pc);
		sort_points(&pts);
		/* --when: only the chosen days count. */
		size_t k = 0;
		for (size_t i = 0; i < pts.n; i++)
			if (day_ok(q, pts.v[i].day))
				pts.v[k++] = pts.v[i];
		pts.n = k;
		if (coarse) {
			days.n = 0;
			daily_totals(&pts, &days);
			rc = bucket_points(&b, &days);
		} else
			rc = bucket_points(&b, &pts);
		if (rc)
			break;
		window_drop(&w, day_end - 2 * w.longest);
		/* Samples that end before the next day have nothing left to
		 * give once none starts after them: the window empties. */
		if (w.n && stream_peek(in) >= day_end) {
			int64_t reach = INT64_MIN;
			for (size_t i = 0; i < w.n; i++)
				if (w.v[i].end > reach)
					reach = w.v[i].end;
			if (reach <= day_end && stream_peek(in) >= reach + 2 * w.longest)
				w.n = 0;
		}
		lo = day_end;
	}
	if (rc >= 0) {
		int frc = bucketer_finish(&b);
		if (frc < 0)
			rc = -1;
	} else
		hq_stats_acc_free(&b.acc);
	free(w.v);
	free(pts.v);
	free(days.v);
	return rc < 0 ? -1 : em->rc;
}

static int
run_cumulative_raw(struct hq_store *s, const struct hq_query *q,
    const int64_t ids[2], int64_t source_id, struct emit *em,
    struct hq_err *e)
{
	struct stream in;
	struct ranks rk = { s, q->priority, source_id, NULL, 0 };
	const char *const *names;
	size_t nnames;
	int devices = 0, rc;

	/* A sample's device can change its rank only for some sources (not
	 * those the priority lists, or that say "Watch"): without such a
	 * source, the samples come from the natural-key index alone. */
	names = source_id ? NULL : hq_store_source_names(s, &nnames);
	for (size_t i = 0; names && i < nnames && !devices; i++)
		devices = hq_merge_device_matters(q->priority, names[i]);
	/* Samples that start up to MAX_SPAN before the range can reach into
	 * it. */
	if (stream_open(&in, s, &q->metric, devices, ids, q->from == INT64_MIN
	    ? INT64_MIN : q->from - MAX_SPAN, q->to, q->from, source_id, e)) {
		stream_close(&in);
		return -1;
	}
	if (q->by == HQ_PERIOD_NONE && !q->whole)
		rc = cumulative_rows(s, q, &in, &rk, em, e);
	else
		rc = cumulative_buckets(q, &in, &rk, em, e);
	stream_close(&in);
	free(rk.m);
	return rc;
}

/* ---- discrete and category: raw --------------------------------------- */

struct raw_reread {
	struct hq_store *s;
	const struct hq_query *q;
	const int64_t *ids;
	int64_t source_id;
};

/* Another pass over the samples of [lo, hi) for exact quantiles. */
static int
discrete_reread(void *ctx, int64_t lo, int64_t hi, struct hq_stats_acc *acc,
    struct hq_err *e)
{
	struct raw_reread *rr = ctx;
	struct day_cache dc = { 0, 0, 0, 0 };
	struct stream in;
	struct sample x;
	int64_t day;
	int rc;

	if (lo < rr->q->from)
		lo = rr->q->from;
	if (hi > rr->q->to)
		hi = rr->q->to;
	if (stream_open(&in, rr->s, &rr->q->metric, 0, rr->ids, lo, hi,
	    INT64_MIN, rr->source_id, e)) {
		stream_close(&in);
		return -1;
	}
	while ((rc = stream_next(&in, &x, e)) > 0)
		if ((!rr->q->days && !windowed(rr->q)) ||
		    (day_of(rr->q, &dc, x.start, &day) && day_ok(rr->q, day)))
			hq_stats_acc_add_values(acc, x.value, 1);
	stream_close(&in);
	return rc;
}

static int
run_discrete_raw(struct hq_store *s, const struct hq_query *q,
    const int64_t ids[2], int64_t source_id, struct emit *em,
    struct hq_err *e)
{
	struct stream in;
	struct bucketer b;
	struct raw_reread rr = { s, q, ids, source_id };
	struct day_cache dc = { 0, 0, 0, 0 };
	int per_sample = q->by == HQ_PERIOD_NONE && !q->whole, rc = 0;
	struct sample x;
	int64_t last_source = 0;
	int source_index = -1;

	/* Samples stream in time order straight into their buckets or out as
	 * rows: years of per-minute heart rate never sit in memory. */
	if (stream_open(&in, s, &q->metric, 0, ids, q->from, q->to, INT64_MIN,
	    source_id, e)) {
		stream_close(&in);
		return -1;
	}
	bucketer_init(&b, q, q->by, q->whole, 0, em, discrete_reread, &rr);
	while (!em->stop && (rc = stream_next(&in, &x, e)) > 0) {
		int64_t day = 0;
		struct hq_row r;
		if ((q->days || per_sample || windowed(q)) &&
		    (!day_of(q, &dc, x.start, &day) || !day_ok(q, day)))
			continue;
		if (!per_sample) {
			if (bucketer_add(&b, x.start, x.value, 1) < 0)
				rc = -1;
			continue;
		}
		row_init(&r);
		r.start = x.start;
		r.end = x.end;
		r.n = 1;
		r.day = day;
		memcpy(r.category, x.category, sizeof r.category);
		for (size_t k = 0; k < q->naggs; k++)
			r.v[k] = q->aggs[k].kind == HQ_AGG_COUNT ? 1
			    : q->aggs[k].kind == HQ_AGG_STDDEV ? NAN : x.value;
		if (x.source_id != last_source) {
			row_source(s, &r, x.source_id);
			source_index = r.source;
			last_source = x.source_id;
		}
		r.source = source_index;
		emit(em, &r);
	}
	if (rc >= 0 && !em->stop && bucketer_close(&b) < 0)
		rc = -1;
	hq_stats_acc_free(&b.acc);
	stream_close(&in);
	return rc < 0 ? -1 : em->rc;
}

/* ---- sleep ------------------------------------------------------------ */

/* Nights from the samples read so far whose night is complete: every
 * sample of night N ends before the cut-off hour of day N, so once the
 * stream has passed that instant, no sample of night N is still to come.
 * The completed samples leave the window. 0, 1 to stop, -1. */
static int
sleep_nights(const struct hq_query *q, struct window *w, int64_t upto,
    int cutoff, int64_t until, struct ranks *rk, struct bucketer *b,
    struct emit *em)
{
	struct hq_sleep_sample *ss = hq_xmalloc((w->n + 1) * sizeof *ss);
	struct hq_night *nights;
	size_t nn, n = 0, k = 0;
	int rc = 0;

	for (size_t i = 0; i < w->n; i++) {
		const struct sample *x = &w->v[i];
		if (hq_sleep_night_closes(hq_sleep_night_of(x->end, cutoff),
		    cutoff) > upto) {
			w->v[k++] = *x;   /* its night may still grow */
			continue;
		}
		ss[n++] = (struct hq_sleep_sample){ x->start, x->end, x->stage,
		    rank_of(rk, x) };
	}
	w->n = k;
	hq_sleep_nights(ss, n, cutoff, &nights, &nn);
	for (size_t i = 0; i < nn && !rc; i++) {
		double secs;
		int64_t ds = hq_time_day_start(nights[i].day);
		if (ds < q->from || ds >= q->to || !day_ok(q, nights[i].day))
			continue;
		/* Still going on at the export (or now): not a short night. */
		if (hq_sleep_night_closes(nights[i].day, cutoff) > until)
			continue;
		if (hq_sleep_metric_seconds(q->metric.name, &nights[i], &secs) ||
		    nights[i].n == 0)
			continue;
		if (secs <= 0 && strcmp(q->metric.name, "sleep_awake") != 0)
			continue;
		if (q->by == HQ_PERIOD_NONE && !q->whole) {
			struct hq_row r;
			row_init(&r);
			r.start = nights[i].start;
			r.end = nights[i].end;
			r.n = 1;
			r.day = nights[i].day;
			for (size_t j = 0; j < q->naggs; j++)
				r.v[j] = q->aggs[j].kind == HQ_AGG_COUNT ? 1
				    : q->aggs[j].kind == HQ_AGG_STDDEV ? NAN : secs / 3600;
			rc = emit(em, &r);
			continue;
		}
		/* A night sits at the start of its date, so day buckets and
		 * --when match it by date. */
		rc = bucketer_add(b, ds, secs / 3600, 1);
	}
	free(nights);
	free(ss);
	return rc;
}

/* The instant by which a night must have closed to count (SPEC.md): the
 * newest export date in the store, or now if sooner or if none is
 * recorded. -1 with e set. */
static int64_t
nights_until(struct hq_store *s, struct hq_err *e)
{
	int64_t now = (int64_t)time(NULL);
	int64_t exported = hq_store_newest_export(s, e);

	if (exported < 0)
		return -1;
	return exported && exported < now ? exported : now;
}

static int
run_sleep(struct hq_store *s, const struct hq_query *q, const int64_t ids[2],
    int64_t source_id, struct emit *em, struct hq_err *e)
{
	struct stream in;
	struct window w = {0};
	struct ranks rk = { s, q->priority, source_id, NULL, 0 };
	struct bucketer b;
	int cutoff = q->sleep_cutoff > 0 ? q->sleep_cutoff : 18, rc = 0;
	struct sample x;
	int64_t next_day = INT64_MIN, until = q->nights_until;

	if (!until && (until = nights_until(s, e)) < 0)
		return -1;
	/* Nights reach back over the evening before their date. */
	if (stream_open(&in, s, &q->metric, 1, ids, q->from == INT64_MIN
	    ? INT64_MIN : q->from - 2 * 86400, q->to == INT64_MAX ? INT64_MAX
	    : q->to + 86400, INT64_MIN, source_id, e)) {
		stream_close(&in);
		return -1;
	}
	bucketer_init(&b, q, q->by, q->whole, 0, em, NULL, NULL);
	/* A day at a time, the nights that can no longer grow. */
	while (!em->stop && (rc = stream_next(&in, &x, e)) > 0) {
		if (x.start >= next_day) {
			if (w.n && (rc = sleep_nights(q, &w, x.start, cutoff, until,
			    &rk, &b, em)) != 0)
				break;
			next_day = hq_time_day_start(hq_time_local_day(x.start) + 1);
		}
		window_push(&w, &x);
	}
	if (rc >= 0 && !em->stop)
		rc = sleep_nights(q, &w, INT64_MAX, cutoff, until, &rk, &b, em);
	if (rc >= 0 && !em->stop && bucketer_close(&b) < 0)
		rc = -1;
	hq_stats_acc_free(&b.acc);
	stream_close(&in);
	free(w.v);
	free(rk.m);
	return rc < 0 ? -1 : em->rc;
}

/* ---- rollups ----------------------------------------------------------- */

static int
aggs_from_moments(const struct hq_query *q)
{
	for (size_t i = 0; i < q->naggs; i++)
		if (hq_stats_needs_values(&q->aggs[i]))
			return 0;
	return 1;
}

/* Medians and percentiles, which the rollups of values answer (first and
 * last need the samples' order). */
static int
aggs_quantiles(const struct hq_query *q)
{
	int any = 0;

	for (size_t i = 0; i < q->naggs; i++) {
		if (q->aggs[i].kind == HQ_AGG_FIRST || q->aggs[i].kind == HQ_AGG_LAST)
			return 0;
		any |= q->aggs[i].kind == HQ_AGG_MEDIAN || q->aggs[i].kind == HQ_AGG_PCT;
	}
	return any;
}

/* Whether the rollups can answer q (those of values too: vals); see
 * query.h. */
static int
rollup_eligible(const struct hq_query *q, int *vals)
{
	*vals = 0;
	if (q->no_rollup || (q->by == HQ_PERIOD_NONE && !q->whole))
		return 0;
	if ((q->from != INT64_MIN && q->from % HQ_ROLLUP_SLOT) ||
	    (q->to != INT64_MAX && q->to % HQ_ROLLUP_SLOT))
		return 0;
	if (q->metric.kind == HQ_KIND_DISCRETE) {
		if (aggs_from_moments(q))
			return 1;
		*vals = aggs_quantiles(q);
		return *vals;
	}
	if (q->metric.kind == HQ_KIND_CUMULATIVE) {
		if (q->by == HQ_HOUR || q->by == HQ_DAY) {
			for (size_t i = 0; i < q->naggs; i++)
				if (q->aggs[i].kind != HQ_AGG_SUM &&
				    q->aggs[i].kind != HQ_AGG_COUNT &&
				    q->aggs[i].kind != HQ_AGG_AVG)
					return 0;
		}
		return 1;
	}
	return 0;
}

/* The values of a metric's slots, from rollup_vals. */
struct vals_reread {
	struct hq_store *s;
	const struct hq_query *q;
	int64_t id, source_id;
};

/* The statement that reads rollup_vals of a metric in [?2, ?3), of source
 * ?4 (0: all), in slot and source order. */
static int
prepare_vals(struct hq_store *s, int64_t id, int64_t lo, int64_t hi,
    int64_t source_id, sqlite3_stmt **st, struct hq_err *e)
{
	if (hq_store_prepare(s, "SELECT slot, source_id, vals FROM rollup_vals "
	    "WHERE metric_id = ?1 AND slot >= ?2 AND slot < ?3 AND "
	    "(?4 = 0 OR source_id = ?4) ORDER BY slot, source_id", st, e))
		return -1;
	sqlite3_bind_int64(*st, 1, id);
	sqlite3_bind_int64(*st, 2, lo);
	sqlite3_bind_int64(*st, 3, hi);
	sqlite3_bind_int64(*st, 4, source_id);
	return 0;
}

static void
add_blob(struct hq_stats_acc *acc, sqlite3_stmt *st, int col)
{
	struct hq_rollup_vals rv;
	double v;
	long c;

	hq_rollup_vals_start(&rv, sqlite3_column_blob(st, col),
	    (size_t)sqlite3_column_bytes(st, col));
	while (hq_rollup_vals_next(&rv, &v, &c))
		hq_stats_acc_add_values(acc, v, c);
}

/* Another pass over the slots of [lo, hi) for exact quantiles. */
static int
vals_reread(void *ctx, int64_t lo, int64_t hi, struct hq_stats_acc *acc,
    struct hq_err *e)
{
	struct vals_reread *vr = ctx;
	struct day_cache dc = { 0, 0, 0, 0 };
	sqlite3_stmt *st;
	int64_t day;
	int rc;

	if (lo < vr->q->from)
		lo = vr->q->from;
	if (hi > vr->q->to)
		hi = vr->q->to;
	if (prepare_vals(vr->s, vr->id, lo, hi, vr->source_id, &st, e))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if ((!vr->q->days && !windowed(vr->q)) ||
		    (day_of(vr->q, &dc, sqlite3_column_int64(st, 0), &day) &&
		    day_ok(vr->q, day)))
			add_blob(acc, st, 2);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		hq_err_set(e, "%s: reading rollups: %s", hq_store_filename(vr->s),
		    sqlite3_errmsg(hq_store_db(vr->s)));
		return -1;
	}
	return 0;
}

/* The passes exact quantiles still need over the bucket [bs, be): 0, or
 * -1 (em stops). */
static int
finish_vals(struct hq_stats_acc *acc, struct vals_reread *vr, int64_t bs,
    int64_t be, struct emit *em)
{
	while (!hq_stats_acc_pass_done(acc))
		if (vals_reread(vr, bs, be, acc, em->e)) {
			em->stop = 1;
			em->rc = -1;
			return -1;
		}
	return 0;
}

/*
 * Slots of a metric from the rollups, in time order. For a cumulative
 * metric the slots must have one source each (or --source picked one):
 * where two sources overlap only the raw samples can say which counts, so
 * the answer is 0 ("cannot") and the caller reads raw samples. Cumulative
 * rows are handed on only once every slot has been read (a conflict may
 * come last); they are a point per hour or day, not per sample.
 */
static int
run_rollup(struct hq_store *s, const struct hq_query *q, const int64_t ids[2],
    int64_t source_id, int vals, int quarters, struct emit *em,
    struct hq_err *e)
{
	sqlite3_stmt *st, *sv = NULL;
	struct points pts = {0};
	int cum = q->metric.kind == HQ_KIND_CUMULATIVE, rc = SQLITE_DONE;
	struct hq_stats_acc acc;
	struct hq_row r;
	int open = 0;
	int64_t bs = 0, be = 0, prev_slot = INT64_MIN;
	int conflict = 0, merged = 0;
	int64_t id = ids[0] ? ids[0] : ids[1];
	const char *sql;

	/* A metric stored under two names would need two merged ranges. */
	if (ids[0] && ids[1])
		return 0;
	if (cum && !source_id && !q->priority) {
		/* The default priority's merge, kept at ingest. */
		if (hq_store_prepare(s, quarters ? "SELECT 1 FROM "
		    "rollup_merged_q_metric WHERE metric_id = ?" : "SELECT 1 FROM "
		    "rollup_merged_metric WHERE metric_id = ?", &st, e))
			return -1;
		sqlite3_bind_int64(st, 1, id);
		merged = sqlite3_step(st) == SQLITE_ROW;
		sqlite3_finalize(st);
	}
	/* Merged rollups by the hour need every bucket to start on an hour;
	 * else (2) those by 15 minutes answer. */
	int64_t grain = quarters ? HQ_ROLLUP_SLOT : HQ_ROLLUP_HOUR;
	if (merged && !quarters && ((q->from != INT64_MIN && q->from % HQ_ROLLUP_HOUR) ||
	    (q->to != INT64_MAX && q->to % HQ_ROLLUP_HOUR)))
		return 2;
	if (merged)
		sql = quarters ? "SELECT slot, n, sum FROM rollup_merged_q WHERE "
		    "metric_id = ?1 AND slot >= ?3 AND slot < ?4 AND ?5 = 0 ORDER BY slot"
		    : "SELECT slot, n, sum FROM rollup_merged WHERE metric_id = ?1 "
		    "AND slot >= ?3 AND slot < ?4 AND ?5 = 0 ORDER BY slot";
	else if (cum)
		sql = "SELECT slot, n, psum, source_id FROM rollup WHERE metric_id = ?1 "
		    "AND slot >= ?3 AND slot < ?4 AND (?5 = 0 OR source_id = ?5) "
		    "ORDER BY slot";
	else
		/* One row per source and slot, in slot order (the primary key);
		 * each adds its moments to the bucket, so no GROUP BY (which
		 * costs SQLite more than the whole rest of the query). */
		sql = "SELECT slot, n, sum, sumsq, min, max, source_id FROM rollup "
		    "WHERE metric_id = ?1 AND slot >= ?3 AND slot < ?4 AND "
		    "(?5 = 0 OR source_id = ?5) AND n > 0 ORDER BY slot, source_id";
	if (hq_store_prepare(s, sql, &st, e))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int64(st, 3, q->from);
	sqlite3_bind_int64(st, 4, q->to);
	sqlite3_bind_int64(st, 5, source_id);
	/* Medians and percentiles: the values of the same slots, read beside
	 * the moments in step (both in slot and source order). */
	struct vals_reread vr = { s, q, id, source_id };
	int have_v = 0, emitted = 0;
	if (vals) {
		if (prepare_vals(s, id, q->from, q->to, source_id, &sv, e)) {
			sqlite3_finalize(st);
			return -1;
		}
		have_v = sqlite3_step(sv) == SQLITE_ROW;
	}
	hq_stats_acc_init_aggs(&acc, q->aggs, q->naggs, 1);
	em->sr->from_rollup = 1;
	struct day_cache dc = { 0, 0, 0, 0 };
	int64_t day = 0, day_end, day_start;
	while (!em->stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t slot = sqlite3_column_int64(st, 0);
		if (!day_of(q, &dc, slot, &day))
			continue;         /* between two windows */
		day_start = dc.lo;
		day_end = dc.hi;
		/* A window whose ends are not on slot boundaries cuts slots:
		 * only raw samples can say. Whole local hours fall on them in
		 * every zone offset of the last fifty years (multiples of 15
		 * minutes); rows already handed on cannot be taken back. */
		if (windowed(q) && (day_start % HQ_ROLLUP_SLOT || day_end % HQ_ROLLUP_SLOT)) {
			if (emitted) {
				hq_err_set(e, "%s: a day window at an offset off "
				    "15 minutes; use --no-rollup", q->metric.name);
				em->stop = 1;
				em->rc = -1;
				break;
			}
			conflict = 1;
			break;
		}
		/* Merged rollups by the hour (or quarter) need every bucket
		 * to start and end on one. */
		if (merged && (day_start % grain || day_end % grain ||
		    (q->by == HQ_HOUR && hq_time_bucket_start(slot, HQ_HOUR) % grain))) {
			conflict = quarters ? 1 : 2;
			break;
		}
		if (!day_ok(q, day))
			continue;
		if (cum) {
			if (slot == prev_slot && !source_id && !merged) {
				conflict = 1;
				break;
			}
			prev_slot = slot;
			/* Slots add up into one point per hour (by hour) or per
			 * day (everything else): the daily totals that coarse
			 * buckets aggregate. */
			int64_t key = q->by == HQ_HOUR ? hq_time_bucket_start(slot, HQ_HOUR) : day_start;
			if (!pts.n || pts.v[pts.n - 1].t != key) {
				struct point pt = { key, q->by == HQ_HOUR
				    ? hq_time_bucket_next(key, HQ_HOUR) : day_end, 0, 0, day, 0 };
				push_point(&pts, pt);
			}
			pts.v[pts.n - 1].v += sqlite3_column_double(st, 2);
			pts.v[pts.n - 1].counts += sqlite3_column_int(st, 1);
			continue;
		}
		if (!open || slot >= be) {
			if (open && (finish_vals(&acc, &vr, bs, be, em) ||
			    (finish_row(&r, &acc, q, 0, 0), emitted = 1, emit(em, &r))))
				break;
			hq_stats_acc_reset(&acc);
			row_init(&r);
			open = 1;
			if (q->whole) {
				bs = q->from != INT64_MIN ? q->from
				    : hq_time_day_start(hq_time_local_day(slot));
				be = q->to;
			} else if (windowed(q)) {
				bs = day_start;
				be = day_end;
			} else {
				bs = hq_time_bucket_start(slot, q->by);
				be = hq_time_bucket_next(bs, q->by);
			}
			r.start = bs;
			r.end = be;
			r.day = windowed(q) ? day : hq_time_local_day(bs);
		}
		hq_stats_acc_add_moments(&acc, sqlite3_column_int(st, 1),
		    sqlite3_column_double(st, 2), sqlite3_column_double(st, 3),
		    sqlite3_column_double(st, 4), sqlite3_column_double(st, 5));
		if (vals) {
			int64_t src = sqlite3_column_int64(st, 6);
			while (have_v && (sqlite3_column_int64(sv, 0) < slot ||
			    (sqlite3_column_int64(sv, 0) == slot &&
			    sqlite3_column_int64(sv, 1) < src)))
				have_v = sqlite3_step(sv) == SQLITE_ROW;
			if (have_v && sqlite3_column_int64(sv, 0) == slot &&
			    sqlite3_column_int64(sv, 1) == src)
				add_blob(&acc, sv, 2);
		}
		if (q->whole && q->to == INT64_MAX)
			r.end = hq_time_day_start(hq_time_local_day(slot) + 1);
	}
	sqlite3_finalize(st);
	sqlite3_finalize(sv);
	if (open && !em->stop && !finish_vals(&acc, &vr, bs, be, em)) {
		finish_row(&r, &acc, q, 0, 0);
		emit(em, &r);
	}
	hq_stats_acc_free(&acc);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW && !em->stop) {
		hq_err_set(e, "%s: reading rollups: %s", hq_store_filename(s),
		    sqlite3_errmsg(hq_store_db(s)));
		free(pts.v);
		return -1;
	}
	if (cum && !conflict && !em->stop) {
		struct bucketer b;
		/* A day counts once, however many slots made it. */
		int coarse = q->whole || q->by >= HQ_WEEK;
		if (coarse)
			for (size_t i = 0; i < pts.n; i++)
				pts.v[i].counts = 1;
		bucketer_init(&b, q, q->by, q->whole, !coarse, em, NULL, NULL);
		if (bucket_points(&b, &pts) >= 0)
			bucketer_close(&b);
		hq_stats_acc_free(&b.acc);
	}
	free(pts.v);
	if (conflict) {
		em->sr->from_rollup = 0;
		return conflict == 2 ? 2 : 0;
	}
	return em->rc < 0 ? -1 : 1;
}

/* ---- run ------------------------------------------------------------------ */

int
hq_query_each(struct hq_store *s, const struct hq_query *qin,
    hq_query_row_fn *fn, void *ctx, struct hq_series *out, struct hq_err *e)
{
	struct hq_query q = *qin;
	struct emit em = { fn, ctx, out, e, 0, 0 };
	const char *const *sources;
	size_t nsources;
	int64_t ids[2], source_id = 0;
	int rc = -1;

	memset(out, 0, sizeof *out);
	if ((q.day_from_hour || q.day_to_hour) && (q.by != HQ_DAY || q.whole ||
	    q.metric.kind == HQ_KIND_SLEEP || q.day_to_hour < 0 ||
	    q.day_to_hour > q.day_from_hour || q.day_from_hour > 23)) {
		hq_err_set(e, "%s: a day from %d:00 to %d:00 the next day needs day "
		    "buckets of samples (sleep is per night already)", q.metric.name,
		    q.day_from_hour, q.day_to_hour);
		return -1;
	}
	if (q.naggs == 0) {
		hq_query_default_agg(q.metric.kind, &q.aggs[0]);
		q.naggs = 1;
	}
	out->metric = q.metric;
	out->by = q.by;
	out->whole = q.whole;
	memcpy(out->aggs, q.aggs, sizeof q.aggs);
	out->naggs = q.naggs;
	if (metric_ids(s, &q.metric, ids, e))
		return -1;
	if (!ids[0] && !ids[1])
		return 0;
	if (hq_store_load_names(s, e))
		goto out;
	sources = hq_store_source_names(s, &nsources);
	out->sources = hq_xcalloc(nsources + 1, sizeof *out->sources);
	for (size_t i = 0; i < nsources; i++)
		out->sources[out->nsources++] = hq_xstrdup(sources[i]);
	if (q.source) {
		for (size_t i = 0; i < nsources; i++)
			if (strcasecmp(sources[i], q.source) == 0 &&
			    (source_id = hq_store_source_id(s, sources[i], 0, e)) < 0)
				goto out;
		if (!source_id) {
			const char *sugg = hq_catalog_suggest(q.source, sources,
			    nsources);
			if (sugg)
				hq_err_set(e, "unknown source '%s' (did you mean '%s'?)",
				    q.source, sugg);
			else
				hq_err_set(e, "unknown source '%s'; hq-query --list "
				    "shows each metric's sources", q.source);
			goto out;
		}
	}
	int vals;
	/* Rollups hold both recordings of an activity recorded twice. */
	if (!source_id && same_excludes(s, &q.metric, q.from, q.to))
		q.no_rollup = 1;
	if (rollup_eligible(&q, &vals) && hq_rollup_current(s) &&
	    (!vals || hq_rollup_vals_current(s))) {
		int got = run_rollup(s, &q, ids, source_id, vals, 0, &em, e);
		if (got == 2)
			got = run_rollup(s, &q, ids, source_id, vals, 1, &em, e);
		if (got < 0)
			goto out;
		if (got > 0) {
			rc = 0;
			goto out;
		}
	}
	switch (q.metric.kind) {
	case HQ_KIND_CUMULATIVE:
		rc = run_cumulative_raw(s, &q, ids, source_id, &em, e);
		break;
	case HQ_KIND_SLEEP:
		rc = run_sleep(s, &q, ids, source_id, &em, e);
		break;
	default:
		rc = run_discrete_raw(s, &q, ids, source_id, &em, e);
	}
out:
	if (rc < 0)
		hq_series_free(out);
	return rc;
}

/* hq_query_run()'s sink: every row into the series. */
static int
collect_row(void *ctx, const struct hq_series *sr, const struct hq_row *r,
    struct hq_err *e)
{
	struct hq_series *out = ctx;

	(void)sr;
	(void)e;
	if (out->n == out->cap) {
		out->cap = out->cap ? out->cap * 2 : 256;
		out->rows = hq_xrealloc(out->rows, out->cap * sizeof *out->rows);
	}
	out->rows[out->n++] = *r;
	return 0;
}

int
hq_query_run(struct hq_store *s, const struct hq_query *q,
    struct hq_series *out, struct hq_err *e)
{
	struct hq_series rows = {0};
	int rc = hq_query_each(s, q, collect_row, &rows, out, e);

	out->rows = rows.rows;
	out->n = rows.n;
	out->cap = rows.cap;
	if (rc < 0)
		hq_series_free(out);
	return rc;
}

void
hq_series_free(struct hq_series *out)
{
	for (size_t i = 0; i < out->nsources; i++)
		free(out->sources[i]);
	free(out->sources);
	free(out->rows);
	memset(out, 0, sizeof *out);
}

/* ---- names for completion ------------------------------------------- */

int
hq_query_metric_names(struct hq_store *s, void (*fn)(const char *, void *),
    void *ctx, struct hq_err *e)
{
	sqlite3_stmt *st;

	if (hq_store_prepare(s, "SELECT identifier FROM metric m WHERE EXISTS "
	    "(SELECT 1 FROM sample WHERE metric_id = m.id) ORDER BY identifier", &st, e))
		return -1;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *id = (const char *)sqlite3_column_text(st, 0);
		const struct hq_metric_info *info = hq_catalog_lookup(id);
		char snake[128];

		if (info)
			snprintf(snake, sizeof snake, "%s", info->name);
		else
			hq_catalog_snake(id, snake, sizeof snake);
		fn(snake, ctx);
		/* The nights made from sleep analysis. */
		if (strcmp(snake, "sleep_analysis") == 0)
			for (size_t i = 0; i < hq_catalog_count(); i++)
				if (hq_catalog_at(i)->kind == HQ_KIND_SLEEP)
					fn(hq_catalog_at(i)->name, ctx);
	}
	sqlite3_finalize(st);
	return 0;
}
