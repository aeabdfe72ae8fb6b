/*
 * bucket — what the readers of a series (query.c's raw samples,
 * rollup_read.c's slots) share to make rows (query_int.h): the sink rows
 * go to, points in time order, the local day or day window an instant
 * counts for, and the bucketer that turns values into one row per bucket.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/query.h"
#include "hq/query_int.h"

/* ---- rows out ------------------------------------------------------------ */

void
hq_query_row_init(struct hq_row *r)
{
	memset(r, 0, sizeof *r);
	r->source = -1;
	r->sample_value = NAN;
	for (size_t i = 0; i < HQ_MAX_AGGS; i++)
		r->v[i] = NAN;
}

/* Hand r on: 0, or 1 when the reader must stop (em->rc says why). */
int
hq_query_emit(struct emit *em, const struct hq_row *r)
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

/* ---- points and buckets ----------------------------------------------- */

void
hq_query_push_point(struct points *p, struct point pt)
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
void
hq_query_sort_points(struct points *p)
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
void
hq_query_finish_row(struct hq_row *r, struct hq_stats_acc *acc, const struct hq_query *q,
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

int
hq_query_windowed(const struct hq_query *q)
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

/* 1 with *day, or 0 when t counts for no day (between windows). */
int
hq_query_day_of(const struct hq_query *q, struct day_cache *c, int64_t t, int64_t *day)
{
	if (t < c->lo || t >= c->hi) {
		if (hq_query_windowed(q)) {
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

void
hq_query_bucketer_init(struct bucketer *b, const struct hq_query *q, enum hq_period by,
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
int
hq_query_bucketer_close(struct bucketer *b)
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
	hq_query_finish_row(r, &b->acc, b->q, b->counted, b->separate_n);
	return hq_query_emit(b->em, r);
}

/* Open the bucket holding t (or the whole range). */
static int
bucketer_open(struct bucketer *b, int64_t t)
{
	int rc = hq_query_bucketer_close(b);

	if (rc)
		return rc;
	hq_stats_acc_reset(&b->acc);
	b->counted = 0;
	hq_query_row_init(&b->row);
	if (b->whole) {
		b->bs = b->q->from != INT64_MIN ? b->q->from
		    : hq_time_day_start(hq_time_local_day(t));
		b->be = b->q->to;
		b->row.day = hq_time_local_day(b->bs);
	} else if (hq_query_windowed(b->q)) {
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
int
hq_query_bucketer_add(struct bucketer *b, int64_t t, double v, int counts)
{
	if (!b->open || (!b->whole && (t >= b->be || t < b->bs))) {
		int rc;
		/* With day windows, callers pass values inside a window
		 * only; any other is dropped. */
		if (hq_query_windowed(b->q) && !b->whole) {
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

int
hq_query_bucketer_finish(struct bucketer *b)
{
	int rc = hq_query_bucketer_close(b);

	hq_stats_acc_free(&b->acc);
	return rc;
}

/* Sorted points into the bucketer: 0, 1 to stop, -1. */
int
hq_query_bucket_points(struct bucketer *b, const struct points *p)
{
	for (size_t i = 0; i < p->n; i++) {
		int rc = hq_query_bucketer_add(b, p->v[i].t, p->v[i].v, p->v[i].counts);
		if (rc)
			return rc;
	}
	return 0;
}

/* --when: q->days are the days lib/select.c found the conditions true on
 * (hq_select_days_set()). Every reader below asks before a value counts:
 * raw samples as they stream from their SELECT, cumulative pieces after
 * the merge, nights, and rollup slots. */
int
hq_query_day_ok(const struct hq_query *q, int64_t day)
{
	return !q->days || hq_dayset_has(q->days, day);
}

/* Daily totals from points already split at day boundaries: one point per
 * day, at the day's start. */
void
hq_query_daily_totals(const struct points *in, struct points *out)
{
	for (size_t i = 0; i < in->n;) {
		int64_t day = in->v[i].day;
		struct point pt = { .day = day, .counts = 1, .t = hq_time_day_start(day) };
		pt.end = hq_time_day_start(day + 1);
		for (; i < in->n && in->v[i].day == day; i++)
			pt.v += in->v[i].v;
		hq_query_push_point(out, pt);
	}
}
