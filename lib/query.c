#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
	snprintf(m->unit, sizeof m->unit, "%s",
	    info->unit ? info->unit : info->kind == HQ_KIND_CATEGORY ? "min" : "");
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
	int found = 0;

	memset(m, 0, sizeof *m);
	if (info) {
		fill_from_info(m, info);
		return 0;
	}
	/* Not in the catalog: perhaps a type the store holds. */
	if (s && hq_store_prepare(s, "SELECT m.identifier, (SELECT unit FROM sample "
	    "WHERE metric_id = m.id LIMIT 1) FROM metric m", &st, e) == 0) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *id = (const char *)sqlite3_column_text(st, 0);
			const char *unit = (const char *)sqlite3_column_text(st, 1);
			char snake[128];
			hq_catalog_snake(id, snake, sizeof snake);
			if (!found && (strcasecmp(id, name) == 0 || strcasecmp(snake, name) == 0)) {
				snprintf(m->name, sizeof m->name, "%s", snake);
				snprintf(m->identifier, sizeof m->identifier, "%s", id);
				m->kind = hq_catalog_guess_kind(id);
				snprintf(m->unit, sizeof m->unit, "%s",
				    m->kind == HQ_KIND_CATEGORY ? "min" : unit ? unit : "");
				found = 1;
			}
			cands = hq_xrealloc(cands, (nc + 1) * sizeof *cands);
			cands[nc++] = hq_xstrdup(snake);
		}
		sqlite3_finalize(st);
	}
	if (!found) {
		sugg = hq_catalog_suggest(name, (const char *const *)cands, nc);
		if (!sugg)
			sugg = hq_catalog_suggest_known(name, &known);
		if (sugg)
			hq_err_set(e, "unknown metric '%s' (did you mean %s?)", name, sugg);
		else
			hq_err_set(e, "unknown metric '%s'; hq-query --list shows the "
			    "metrics in the store", name);
	}
	for (size_t i = 0; i < nc; i++)
		free(cands[i]);
	free(cands);
	return found ? 0 : -1;
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

/* ---- raw samples ----------------------------------------------------- */

struct sample {
	int64_t start, end;
	double value;
	int64_t source_id, device_id;
	int stage;
	char category[32];   /* category samples: the stored name */
};

struct samples {
	struct sample *v;
	size_t n, cap;
};

/* The statement that reads a query's samples in time order: start, end,
 * value, source_id, device_id, text. */
static int
prepare_samples(struct hq_store *s, const struct hq_query *q,
    const int64_t ids[2], int64_t source_id, sqlite3_stmt **st,
    struct hq_err *e)
{
	const char *sql;
	int64_t lo, hi;

	switch (q->metric.kind) {
	case HQ_KIND_CUMULATIVE:
		sql = "SELECT start, end, value, source_id, coalesce(device_id, 0), text "
		    "FROM sample WHERE metric_id IN (?1, ?2) AND start >= ?3 AND "
		    "start < ?4 AND end > ?5 AND (?6 = 0 OR source_id = ?6) "
		    "ORDER BY start";
		lo = q->from == INT64_MIN ? INT64_MIN : q->from - MAX_SPAN;
		hi = q->to;
		break;
	case HQ_KIND_SLEEP:
		/* Nights reach back over the evening before their date. */
		sql = "SELECT start, end, value, source_id, coalesce(device_id, 0), text "
		    "FROM sample WHERE metric_id IN (?1, ?2) AND start >= ?3 AND "
		    "start < ?4 AND (?6 = 0 OR source_id = ?6) ORDER BY start";
		lo = q->from == INT64_MIN ? INT64_MIN : q->from - 2 * 86400;
		hi = q->to == INT64_MAX ? INT64_MAX : q->to + 86400;
		break;
	default:
		sql = "SELECT start, end, value, source_id, coalesce(device_id, 0), text "
		    "FROM sample WHERE metric_id IN (?1, ?2) AND start >= ?3 AND "
		    "start < ?4 AND (?6 = 0 OR source_id = ?6) ORDER BY start";
		lo = q->from;
		hi = q->to;
	}
	if (hq_store_prepare(s, sql, st, e))
		return -1;
	sqlite3_bind_int64(*st, 1, ids[0]);
	sqlite3_bind_int64(*st, 2, ids[1]);
	sqlite3_bind_int64(*st, 3, lo);
	sqlite3_bind_int64(*st, 4, hi);
	sqlite3_bind_int64(*st, 5, q->from);
	sqlite3_bind_int64(*st, 6, source_id);
	return 0;
}

static void
decode_sample(sqlite3_stmt *st, enum hq_kind kind, struct sample *x)
{
	x->start = sqlite3_column_int64(st, 0);
	x->end = sqlite3_column_int64(st, 1);
	if (x->end < x->start)
		x->end = x->start;
	x->value = sqlite3_column_double(st, 2);
	x->source_id = sqlite3_column_int64(st, 3);
	x->device_id = sqlite3_column_int64(st, 4);
	x->stage = kind == HQ_KIND_SLEEP
	    ? hq_sleep_stage_from_name((const char *)sqlite3_column_text(st, 5)) : 0;
	x->category[0] = '\0';
	if (kind == HQ_KIND_CATEGORY) {
		const char *text = (const char *)sqlite3_column_text(st, 5);
		x->value = (double)(x->end - x->start) / 60;
		snprintf(x->category, sizeof x->category, "%s", text ? text : "");
	}
}

static int
step_error(struct hq_store *s, struct hq_err *e)
{
	hq_err_set(e, "%s: reading samples: %s", hq_store_filename(s),
	    sqlite3_errmsg(hq_store_db(s)));
	return -1;
}

static int
load_samples(struct hq_store *s, const struct hq_query *q, const int64_t ids[2],
    int64_t source_id, struct samples *out, struct hq_err *e)
{
	sqlite3_stmt *st;
	int rc;

	if (prepare_samples(s, q, ids, source_id, &st, e))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (out->n == out->cap) {
			out->cap = out->cap ? out->cap * 2 : 4096;
			out->v = hq_xrealloc(out->v, out->cap * sizeof *out->v);
		}
		decode_sample(st, q->metric.kind, &out->v[out->n++]);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : step_error(s, e);
}

/* ---- points and buckets ----------------------------------------------- */

/* A value at an instant, on its way into a bucket. */
struct point {
	int64_t t, end;
	double v;
	int counts;        /* adds to the row's n */
	int64_t day;       /* local day (the night, for sleep) */
};

struct points {
	struct point *v;
	size_t n, cap;
};

static void
push_point(struct points *p, struct point pt)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 4096;
		p->v = hq_xrealloc(p->v, p->cap * sizeof *p->v);
	}
	p->v[p->n++] = pt;
}

static int
cmp_point(const void *a, const void *b)
{
	const struct point *x = a, *y = b;

	return (x->t > y->t) - (x->t < y->t);
}

static struct hq_row *
new_row(struct hq_series *out)
{
	struct hq_row *r;

	if (out->n == out->cap) {
		out->cap = out->cap ? out->cap * 2 : 256;
		out->rows = hq_xrealloc(out->rows, out->cap * sizeof *out->rows);
	}
	r = &out->rows[out->n++];
	memset(r, 0, sizeof *r);
	r->source = -1;
	r->sample_value = NAN;
	for (size_t i = 0; i < HQ_MAX_AGGS; i++)
		r->v[i] = NAN;
	return r;
}

static int
needs_values(const struct hq_query *q)
{
	for (size_t i = 0; i < q->naggs; i++)
		if (hq_stats_needs_values(&q->aggs[i]))
			return 1;
	return 0;
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

/* Rows out of values that arrive in time order, one bucket at a time: only
 * the current bucket's values are held. */
struct bucketer {
	const struct hq_query *q;
	enum hq_period by;
	int whole, separate_n;
	struct hq_series *out;
	struct hq_stats_acc acc;
	size_t row;          /* index of the open row; SIZE_MAX: none */
	int64_t bs, be, last_t;
	long counted;
};

static void
bucketer_init(struct bucketer *b, const struct hq_query *q, enum hq_period by,
    int whole, int separate_n, struct hq_series *out)
{
	memset(b, 0, sizeof *b);
	b->q = q;
	b->by = by;
	b->whole = whole;
	b->separate_n = separate_n;
	b->out = out;
	b->row = SIZE_MAX;
	hq_stats_acc_init(&b->acc, needs_values(q));
}

static void
bucketer_close(struct bucketer *b)
{
	struct hq_row *r;

	if (b->row == SIZE_MAX)
		return;
	r = &b->out->rows[b->row];
	/* An open range ends with the day of the last value. */
	if (b->whole && b->q->to == INT64_MAX)
		r->end = hq_time_day_start(hq_time_local_day(b->last_t) + 1);
	finish_row(r, &b->acc, b->q, b->counted, b->separate_n);
	b->row = SIZE_MAX;
}

static void
bucketer_add(struct bucketer *b, int64_t t, double v, int counts)
{
	if (b->row == SIZE_MAX || (!b->whole && (t >= b->be || t < b->bs))) {
		bucketer_close(b);
		hq_stats_acc_reset(&b->acc);
		b->counted = 0;
		if (b->whole) {
			b->bs = b->q->from != INT64_MIN ? b->q->from
			    : hq_time_day_start(hq_time_local_day(t));
			b->be = b->q->to;
		} else if (windowed(b->q)) {
			int64_t day;
			/* callers pass values inside a window only */
			if (!window_of(b->q, t, &b->bs, &b->be, &day))
				return;
		} else {
			b->bs = hq_time_bucket_start(t, b->by);
			b->be = hq_time_bucket_next(b->bs, b->by);
		}
		struct hq_row *r = new_row(b->out);
		r->start = b->bs;
		r->end = b->be;
		r->day = hq_time_local_day(b->bs);
		b->row = b->out->n - 1;
	}
	hq_stats_acc_add(&b->acc, v);
	b->counted += counts;
	b->last_t = t;
}

static void
bucketer_finish(struct bucketer *b)
{
	bucketer_close(b);
	hq_stats_acc_free(&b->acc);
}

/* Bucket sorted points into rows of period `by` (or one row when whole). */
static void
bucket_points(const struct points *p, const struct hq_query *q,
    enum hq_period by, int whole, int separate_n, struct hq_series *out)
{
	struct bucketer b;

	bucketer_init(&b, q, by, whole, separate_n, out);
	for (size_t i = 0; i < p->n; i++)
		bucketer_add(&b, p->v[i].t, p->v[i].v, p->v[i].counts);
	bucketer_finish(&b);
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

/* ---- cumulative: merge and split -------------------------------------- */

struct dev_class {
	struct hq_store *s;
	const struct hq_priority *prio;
};

static uint64_t
rank_of(const struct dev_class *dc, const struct sample *x)
{
	const char *src = hq_store_source_name(dc->s, x->source_id);
	const char *dev = x->device_id ? hq_store_device_name(dc->s,
	    x->device_id) : NULL;
	ssize_t order = hq_store_source_order(dc->s, x->source_id);

	return hq_merge_rank(dc->prio, src, dev, order < 0 ? 0 : (size_t)order);
}

/* A sample's source as an index of out->sources (all, in name order). */
static void
row_source(struct hq_store *s, struct hq_row *r, int64_t source_id)
{
	ssize_t k = hq_store_source_order(s, source_id);

	if (k >= 0)
		r->source = (int)k;
}

/* Split [a, b) worth v at local boundaries of `by` (hour or day) into
 * points, clipped to the query range. */
static void
split_piece(const struct hq_query *q, enum hq_period by, int64_t a, int64_t b,
    double v, int first, struct points *out)
{
	int64_t lo = q->from > a ? q->from : a, hi = q->to < b ? q->to : b;
	struct day_cache dc = { 0, 0, 0, 0 };
	int64_t day;

	if (b <= a) {
		if (a >= q->from && a < q->to && day_of(q, &dc, a, &day)) {
			struct point pt = { a, a, v, first, day };
			push_point(out, pt);
		}
		return;
	}
	for (int64_t t = lo; t < hi;) {
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
		z = next < hi ? next : hi;
		if (in) {
			struct point pt = { t, z, v * (double)(z - t) / (double)(b - a),
			    first && t == a, day };
			push_point(out, pt);
		}
		t = z;
	}
}

static int
run_cumulative_raw(struct hq_store *s, const struct hq_query *q,
    const int64_t ids[2], int64_t source_id, struct dev_class *dc,
    struct hq_series *out, struct hq_err *e)
{
	struct samples sm = {0};
	struct hq_merge_sample *ms;
	struct hq_piece *pc;
	size_t npc;
	struct points pts = {0}, days = {0};
	enum hq_period fine = q->by == HQ_HOUR ? HQ_HOUR : HQ_DAY;

	if (load_samples(s, q, ids, source_id, &sm, e))
		return -1;
	ms = hq_xmalloc((sm.n + 1) * sizeof *ms);
	for (size_t i = 0; i < sm.n; i++)
		ms[i] = (struct hq_merge_sample){ sm.v[i].start, sm.v[i].end,
		    sm.v[i].value, source_id ? 0 : rank_of(dc, &sm.v[i]) };
	hq_merge_cumulative(ms, sm.n, &pc, &npc);

	if (q->by == HQ_PERIOD_NONE && !q->whole) {
		/* One row per sample that counts: its share inside the range. */
		double *share = hq_xcalloc(sm.n + 1, sizeof *share);
		char *any = hq_xcalloc(sm.n + 1, 1);
		for (size_t i = 0; i < npc; i++) {
			int64_t a = pc[i].start, b = pc[i].end;
			int64_t lo = q->from > a ? q->from : a, hi = q->to < b ? q->to : b;
			if (b <= a ? (a >= q->from && a < q->to) : hi > lo) {
				share[pc[i].sample] += b <= a ? pc[i].value
				    : pc[i].value * (double)(hi - lo) / (double)(b - a);
				any[pc[i].sample] = 1;
			}
		}
		for (size_t i = 0; i < sm.n; i++) {
			const struct sample *x = &sm.v[i];
			if (!any[i] || !day_ok(q, hq_time_local_day(x->start)))
				continue;
			struct hq_row *r = new_row(out);
			r->start = x->start;
			r->end = x->end;
			r->n = 1;
			r->day = hq_time_local_day(x->start);
			r->sample_value = x->value;
			for (size_t k = 0; k < q->naggs; k++)
				r->v[k] = q->aggs[k].kind == HQ_AGG_COUNT ? 1 : share[i];
			row_source(s, r, x->source_id);
		}
		free(share);
		free(any);
	} else {
		char *seen = hq_xcalloc(sm.n + 1, 1);
		for (size_t i = 0; i < npc; i++) {
			int first = !seen[pc[i].sample];
			seen[pc[i].sample] = 1;
			split_piece(q, fine, pc[i].start, pc[i].end, pc[i].value, first, &pts);
		}
		free(seen);
		if (pts.n)
			qsort(pts.v, pts.n, sizeof *pts.v, cmp_point);
		/* --when: only the chosen days count. */
		size_t k = 0;
		for (size_t i = 0; i < pts.n; i++)
			if (day_ok(q, pts.v[i].day))
				pts.v[k++] = pts.v[i];
		pts.n = k;
		if (q->whole || q->by >= HQ_WEEK) {
			daily_totals(&pts, &days);
			bucket_points(&days, q, q->by, q->whole, 0, out);
		} else
			bucket_points(&pts, q, q->by, 0, 1, out);
	}
	free(pts.v);
	free(days.v);
	free(pc);
	free(ms);
	free(sm.v);
	return 0;
}

/* ---- discrete and category: raw --------------------------------------- */

static int
run_discrete_raw(struct hq_store *s, const struct hq_query *q,
    const int64_t ids[2], int64_t source_id, struct hq_series *out,
    struct hq_err *e)
{
	sqlite3_stmt *st;
	struct bucketer b;
	struct day_cache dc = { 0, 0, 0, 0 };
	int per_sample = q->by == HQ_PERIOD_NONE && !q->whole, rc;

	/* Samples stream in time order straight into their buckets: years of
	 * per-minute heart rate never sit in memory at once. */
	if (prepare_samples(s, q, ids, source_id, &st, e))
		return -1;
	bucketer_init(&b, q, q->by, q->whole, 0, out);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct sample x;
		int64_t day = 0;
		decode_sample(st, q->metric.kind, &x);
		if ((q->days || per_sample || windowed(q)) &&
		    (!day_of(q, &dc, x.start, &day) || !day_ok(q, day)))
			continue;
		if (!per_sample) {
			bucketer_add(&b, x.start, x.value, 1);
			continue;
		}
		struct hq_row *r = new_row(out);
		r->start = x.start;
		r->end = x.end;
		r->n = 1;
		r->day = day;
		memcpy(r->category, x.category, sizeof r->category);
		for (size_t k = 0; k < q->naggs; k++)
			r->v[k] = q->aggs[k].kind == HQ_AGG_COUNT ? 1
			    : q->aggs[k].kind == HQ_AGG_STDDEV ? NAN : x.value;
		row_source(s, r, x.source_id);
	}
	sqlite3_finalize(st);
	bucketer_finish(&b);
	return rc == SQLITE_DONE ? 0 : step_error(s, e);
}

/* ---- sleep ------------------------------------------------------------ */

static int
run_sleep(struct hq_store *s, const struct hq_query *q, const int64_t ids[2],
    int64_t source_id, struct dev_class *dc, struct hq_series *out,
    struct hq_err *e)
{
	struct samples sm = {0};
	struct hq_sleep_sample *ss;
	struct hq_night *nights;
	size_t nn;
	struct points pts = {0};
	int cutoff = q->sleep_cutoff > 0 ? q->sleep_cutoff : 18;

	if (load_samples(s, q, ids, source_id, &sm, e))
		return -1;
	ss = hq_xmalloc((sm.n + 1) * sizeof *ss);
	for (size_t i = 0; i < sm.n; i++)
		ss[i] = (struct hq_sleep_sample){ sm.v[i].start, sm.v[i].end,
		    sm.v[i].stage, source_id ? 0 : rank_of(dc, &sm.v[i]) };
	hq_sleep_nights(ss, sm.n, cutoff, &nights, &nn);
	for (size_t i = 0; i < nn; i++) {
		double secs;
		int64_t ds = hq_time_day_start(nights[i].day);
		if (ds < q->from || ds >= q->to || !day_ok(q, nights[i].day))
			continue;
		if (hq_sleep_metric_seconds(q->metric.name, &nights[i], &secs) ||
		    nights[i].n == 0)
			continue;
		if (secs <= 0 && strcmp(q->metric.name, "sleep_awake") != 0)
			continue;
		if (q->by == HQ_PERIOD_NONE && !q->whole) {
			struct hq_row *r = new_row(out);
			r->start = nights[i].start;
			r->end = nights[i].end;
			r->n = 1;
			r->day = nights[i].day;
			for (size_t k = 0; k < q->naggs; k++)
				r->v[k] = q->aggs[k].kind == HQ_AGG_COUNT ? 1
				    : q->aggs[k].kind == HQ_AGG_STDDEV ? NAN : secs / 3600;
			continue;
		}
		/* A night sits at the start of its date, so day buckets and
		 * --when match it by date. */
		struct point pt = { ds, hq_time_day_start(nights[i].day + 1),
		    secs / 3600, 1, nights[i].day };
		push_point(&pts, pt);
	}
	if (q->by != HQ_PERIOD_NONE || q->whole)
		bucket_points(&pts, q, q->by, q->whole, 0, out);
	free(pts.v);
	free(nights);
	free(ss);
	free(sm.v);
	return 0;
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

/* Whether the rollups can answer q; see query.h. */
static int
rollup_eligible(const struct hq_query *q)
{
	if (q->no_rollup || (q->by == HQ_PERIOD_NONE && !q->whole))
		return 0;
	if ((q->from != INT64_MIN && q->from % HQ_ROLLUP_SLOT) ||
	    (q->to != INT64_MAX && q->to % HQ_ROLLUP_SLOT))
		return 0;
	if (q->metric.kind == HQ_KIND_DISCRETE)
		return aggs_from_moments(q);
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

/*
 * Slots of a metric from the rollups, in time order. For a cumulative
 * metric the slots must have one source each (or --source picked one):
 * where two sources overlap only the raw samples can say which counts, so
 * the answer is 0 ("cannot") and the caller reads raw samples.
 */
static int
run_rollup(struct hq_store *s, const struct hq_query *q, const int64_t ids[2],
    int64_t source_id, struct hq_series *out, struct hq_err *e)
{
	sqlite3_stmt *st;
	struct points pts = {0};
	int cum = q->metric.kind == HQ_KIND_CUMULATIVE, rc;
	struct hq_stats_acc acc;
	struct hq_row *r = NULL;
	int64_t bs = 0, be = 0, prev_slot = INT64_MIN;
	int conflict = 0, merged = 0;
	int64_t id = ids[0] ? ids[0] : ids[1];
	const char *sql;

	/* A metric stored under two names would need two merged ranges. */
	if (ids[0] && ids[1])
		return 0;
	if (cum && !source_id && !q->priority) {
		/* The default priority's merge, kept at ingest. */
		if (hq_store_prepare(s, "SELECT 1 FROM rollup_merged_metric WHERE "
		    "metric_id = ?", &st, e))
			return -1;
		sqlite3_bind_int64(st, 1, id);
		merged = sqlite3_step(st) == SQLITE_ROW;
		sqlite3_finalize(st);
	}
	/* Merged rollups are hourly: every bucket must start on an hour. */
	if (merged && ((q->from != INT64_MIN && q->from % HQ_ROLLUP_HOUR) ||
	    (q->to != INT64_MAX && q->to % HQ_ROLLUP_HOUR)))
		return 0;
	if (merged)
		sql = "SELECT slot, n, sum FROM rollup_merged WHERE metric_id = ?1 "
		    "AND slot >= ?3 AND slot < ?4 AND ?5 = 0 ORDER BY slot";
	else if (cum)
		sql = "SELECT slot, n, psum, source_id FROM rollup WHERE metric_id = ?1 "
		    "AND slot >= ?3 AND slot < ?4 AND (?5 = 0 OR source_id = ?5) "
		    "ORDER BY slot";
	else
		/* One row per source and slot, in slot order (the primary key);
		 * each adds its moments to the bucket, so no GROUP BY (which
		 * costs SQLite more than the whole rest of the query). */
		sql = "SELECT slot, n, sum, sumsq, min, max FROM rollup WHERE "
		    "metric_id = ?1 AND slot >= ?3 AND slot < ?4 AND "
		    "(?5 = 0 OR source_id = ?5) AND n > 0 ORDER BY slot";
	if (hq_store_prepare(s, sql, &st, e))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int64(st, 3, q->from);
	sqlite3_bind_int64(st, 4, q->to);
	sqlite3_bind_int64(st, 5, source_id);
	hq_stats_acc_init(&acc, 0);
	struct day_cache dc = { 0, 0, 0, 0 };
	int64_t day = 0, day_end, day_start;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t slot = sqlite3_column_int64(st, 0);
		if (!day_of(q, &dc, slot, &day))
			continue;         /* between two windows */
		day_start = dc.lo;
		day_end = dc.hi;
		/* A window whose ends are not on slot (or, merged, hour)
		 * boundaries cuts slots: only raw samples can say. */
		if ((windowed(q) && (day_start % HQ_ROLLUP_SLOT || day_end % HQ_ROLLUP_SLOT)) ||
		    (merged && (day_start % HQ_ROLLUP_HOUR || day_end % HQ_ROLLUP_HOUR ||
		    (q->by == HQ_HOUR && hq_time_bucket_start(slot, HQ_HOUR) != slot)))) {
			conflict = 1;
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
				    ? hq_time_bucket_next(key, HQ_HOUR) : day_end, 0, 0, day };
				push_point(&pts, pt);
			}
			pts.v[pts.n - 1].v += sqlite3_column_double(st, 2);
			pts.v[pts.n - 1].counts += sqlite3_column_int(st, 1);
			continue;
		}
		if (!r || slot >= be) {
			if (r)
				finish_row(r, &acc, q, 0, 0);
			hq_stats_acc_reset(&acc);
			r = new_row(out);
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
			r->start = bs;
			r->end = be;
			r->day = windowed(q) ? day : hq_time_local_day(bs);
		}
		hq_stats_acc_add_moments(&acc, sqlite3_column_int(st, 1),
		    sqlite3_column_double(st, 2), sqlite3_column_double(st, 3),
		    sqlite3_column_double(st, 4), sqlite3_column_double(st, 5));
		if (q->whole && q->to == INT64_MAX)
			r->end = hq_time_day_start(hq_time_local_day(slot) + 1);
	}
	sqlite3_finalize(st);
	if (r)
		finish_row(r, &acc, q, 0, 0);
	hq_stats_acc_free(&acc);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		hq_err_set(e, "%s: reading rollups: %s", hq_store_filename(s),
		    sqlite3_errmsg(hq_store_db(s)));
		free(pts.v);
		return -1;
	}
	if (cum && !conflict) {
		if (q->whole || q->by >= HQ_WEEK) {
			/* A day counts once, however many slots made it. */
			for (size_t i = 0; i < pts.n; i++)
				pts.v[i].counts = 1;
			bucket_points(&pts, q, q->by, q->whole, 0, out);
		} else
			bucket_points(&pts, q, q->by, 0, 1, out);
	}
	free(pts.v);
	if (conflict) {
		out->n = 0;
		return 0;
	}
	return 1;
}

/* ---- run ------------------------------------------------------------------ */

int
hq_query_run(struct hq_store *s, const struct hq_query *qin,
    struct hq_series *out, struct hq_err *e)
{
	struct hq_query q = *qin;
	struct dev_class dc = { s, qin->priority };
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
	if (rollup_eligible(&q) && hq_rollup_current(s)) {
		int got = run_rollup(s, &q, ids, source_id, out, e);
		if (got < 0)
			goto out;
		if (got > 0) {
			out->from_rollup = 1;
			rc = 0;
			goto out;
		}
	}
	switch (q.metric.kind) {
	case HQ_KIND_CUMULATIVE:
		rc = run_cumulative_raw(s, &q, ids, source_id, &dc, out, e);
		break;
	case HQ_KIND_SLEEP:
		rc = run_sleep(s, &q, ids, source_id, &dc, out, e);
		break;
	default:
		rc = run_discrete_raw(s, &q, ids, source_id, out, e);
	}
out:
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
