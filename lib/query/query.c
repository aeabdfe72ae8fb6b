#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "hq/buf.h"
#include "hq/query.h"
#include "hq/query_int.h"
#include "hq/rollup.h"
#include "hq/sleep.h"
#include "hq/time.h"

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
		/* Counted unless the catalog times the metric (hq-query(1)). */
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
 * recording, not both (hq-ingest(1), THE SAME ACTIVITY RECORDED TWICE). --source still shows them.
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
		if (a >= lo && a < hi && hq_query_day_of(q, &dc, a, &day)) {
			struct point pt = { a, a, v, first, day, 0 };
			hq_query_push_point(out, pt);
		}
		return;
	}
	for (int64_t t = from; t < to;) {
		int64_t next, z;
		int in = 1;
		if (hq_query_windowed(q)) {
			/* to the end of the window or of the gap */
			in = hq_query_day_of(q, &dc, t, &day);
			next = dc.hi;
		} else {
			next = hq_time_bucket_next(hq_time_bucket_start(t, by), by);
			day = hq_time_local_day(t);
		}
		z = next < to ? next : to;
		if (in) {
			struct point pt = { t, z, v * (double)(z - t) / (double)(b - a),
			    first && t == a, day, 0 };
			hq_query_push_point(out, pt);
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
			hq_query_push_point(out, pt);
		}
		return;
	}
	if (from < to) {
		struct point pt = { from, to, v * (double)(to - from) / (double)(b - a),
		    first && from == a, day, 0 };
		hq_query_push_point(out, pt);
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
			if (!any[i] || !hq_query_day_ok(q, hq_time_local_day(x->start)))
				continue;
			hq_query_row_init(&r);
			r.start = x->start;
			r.end = x->end;
			r.n = 1;
			r.day = hq_time_local_day(x->start);
			r.sample_value = x->value;
			for (size_t k = 0; k < q->naggs; k++)
				r.v[k] = q->aggs[k].kind == HQ_AGG_COUNT ? 1 : share[i];
			row_source(s, &r, x->source_id);
			hq_query_emit(em, &r);
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

	hq_query_bucketer_init(&b, q, q->by, q->whole, !coarse, em, NULL, NULL);
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
			if (fine == HQ_DAY && !hq_query_windowed(q))
				day_piece(lo, day_end, day, pc[i].start, pc[i].end,
				    pc[i].value, first, &pts);
			else
				split_piece(q, lo, day_end, fine, pc[i].start,
				    pc[i].end, pc[i].value, first, &pts);
		}
		free(seen);
		free(pc);
		hq_query_sort_points(&pts);
		/* --when: only the chosen days count. */
		size_t k = 0;
		for (size_t i = 0; i < pts.n; i++)
			if (hq_query_day_ok(q, pts.v[i].day))
				pts.v[k++] = pts.v[i];
		pts.n = k;
		if (coarse) {
			days.n = 0;
			hq_query_daily_totals(&pts, &days);
			rc = hq_query_bucket_points(&b, &days);
		} else
			rc = hq_query_bucket_points(&b, &pts);
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
		int frc = hq_query_bucketer_finish(&b);
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
	/* Samples that start up to HQ_CUMULATIVE_MAX_SPAN before the range
	 * can reach into it. */
	if (stream_open(&in, s, &q->metric, devices, ids, q->from == INT64_MIN
	    ? INT64_MIN : q->from - HQ_CUMULATIVE_MAX_SPAN, q->to, q->from,
	    source_id, e)) {
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
		if ((!rr->q->days && !hq_query_windowed(rr->q)) ||
		    (hq_query_day_of(rr->q, &dc, x.start, &day) && hq_query_day_ok(rr->q, day)))
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
	hq_query_bucketer_init(&b, q, q->by, q->whole, 0, em, discrete_reread, &rr);
	while (!em->stop && (rc = stream_next(&in, &x, e)) > 0) {
		int64_t day = 0;
		struct hq_row r;
		if ((q->days || per_sample || hq_query_windowed(q)) &&
		    (!hq_query_day_of(q, &dc, x.start, &day) || !hq_query_day_ok(q, day)))
			continue;
		if (!per_sample) {
			if (hq_query_bucketer_add(&b, x.start, x.value, 1) < 0)
				rc = -1;
			continue;
		}
		hq_query_row_init(&r);
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
		hq_query_emit(em, &r);
	}
	if (rc >= 0 && !em->stop && hq_query_bucketer_close(&b) < 0)
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
		if (ds < q->from || ds >= q->to || !hq_query_day_ok(q, nights[i].day))
			continue;
		/* Still going on at the export (or now): not a short night. */
		if (!hq_sleep_night_counts(&nights[i], cutoff, until))
			continue;
		if (hq_sleep_metric_seconds(q->metric.name, &nights[i], &secs) ||
		    nights[i].n == 0)
			continue;
		if (secs <= 0 && strcmp(q->metric.name, "sleep_awake") != 0)
			continue;
		if (q->by == HQ_PERIOD_NONE && !q->whole) {
			struct hq_row r;
			hq_query_row_init(&r);
			r.start = nights[i].start;
			r.end = nights[i].end;
			r.n = 1;
			r.day = nights[i].day;
			for (size_t j = 0; j < q->naggs; j++)
				r.v[j] = q->aggs[j].kind == HQ_AGG_COUNT ? 1
				    : q->aggs[j].kind == HQ_AGG_STDDEV ? NAN : secs / 3600;
			rc = hq_query_emit(em, &r);
			continue;
		}
		/* A night sits at the start of its date, so day buckets and
		 * --when match it by date. */
		rc = hq_query_bucketer_add(b, ds, secs / 3600, 1);
	}
	free(nights);
	free(ss);
	return rc;
}

/* The instant a night still open must have ended an hour before to count
 * (hq_sleep_night_counts): the newest export date in the store, or now if
 * sooner or if none is recorded. -1 with e set. */
static int64_t
nights_until(struct hq_store *s, struct hq_err *e)
{
	int64_t now = hq_time_now();
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
	hq_query_bucketer_init(&b, q, q->by, q->whole, 0, em, NULL, NULL);
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
	if (rc >= 0 && !em->stop && hq_query_bucketer_close(&b) < 0)
		rc = -1;
	hq_stats_acc_free(&b.acc);
	stream_close(&in);
	free(w.v);
	free(rk.m);
	return rc < 0 ? -1 : em->rc;
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
	if (hq_query_rollup_eligible(&q, &vals) && hq_rollup_current(s) &&
	    (!vals || hq_rollup_vals_current(s))) {
		int got = hq_query_run_rollup(s, &q, ids, source_id, vals, 0, &em, e);
		if (got == 2)
			got = hq_query_run_rollup(s, &q, ids, source_id, vals, 1, &em, e);
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
