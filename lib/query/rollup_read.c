/*
 * rollup_read — a series from the rollups (rollup.h) instead of the raw
 * samples, when they can answer (hq_query_rollup_eligible): the moments
 * of each 15-minute slot, the values of its samples for medians and
 * percentiles (rollup_vals), and the default priority's merge of a
 * cumulative metric kept at ingest (rollup_merged, by the hour or by 15
 * minutes). The rows are the raw samples' (tests check), only faster.
 */
#include <stdlib.h>

#include "hq/query.h"
#include "hq/query_int.h"
#include "hq/rollup.h"

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
int
hq_query_rollup_eligible(const struct hq_query *q, int *vals)
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
		if ((!vr->q->days && !hq_query_windowed(vr->q)) ||
		    (hq_query_day_of(vr->q, &dc, sqlite3_column_int64(st, 0), &day) &&
		    hq_query_day_ok(vr->q, day)))
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

/* One read of a metric's rollups (hq_query_run_rollup()). */
struct rollup_read {
	struct hq_store *s;
	const struct hq_query *q;
	struct emit *em;
	struct hq_err *e;
	int64_t id, source_id;
	int cum, merged, quarters, vals;
	int64_t grain;               /* what merged slots must start on */
	sqlite3_stmt *st, *sv;       /* the slots; their values (vals) */
	int have_v;                  /* sv is on a row */
	struct vals_reread vr;
	struct hq_stats_acc acc;     /* the open row's (not cum) */
	struct hq_row r;
	int open, emitted;
	int64_t bs, be, prev_slot;
	struct points pts;           /* cum: a point per hour or day */
	struct day_cache dc;
	int conflict;                /* 1: read raw samples, 2: ask by quarters */
};

/* Whether the default priority's merge of a cumulative metric is kept
 * at ingest (by 15 minutes when quarters, else by the hour): 1, 0, -1. */
static int
merged_kept(struct hq_store *s, int64_t id, int quarters, struct hq_err *e)
{
	sqlite3_stmt *st;
	int merged;

	if (hq_store_prepare(s, quarters ? "SELECT 1 FROM "
	    "rollup_merged_q_metric WHERE metric_id = ?" : "SELECT 1 FROM "
	    "rollup_merged_metric WHERE metric_id = ?", &st, e))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	merged = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return merged;
}

/* The statement of the slots: ?1 the metric, [?3, ?4) the range, ?5 the
 * source (0: all). */
static const char *
slots_sql(const struct rollup_read *rr)
{
	if (rr->merged)
		return rr->quarters ? "SELECT slot, n, sum FROM rollup_merged_q WHERE "
		    "metric_id = ?1 AND slot >= ?3 AND slot < ?4 AND ?5 = 0 ORDER BY slot"
		    : "SELECT slot, n, sum FROM rollup_merged WHERE metric_id = ?1 "
		    "AND slot >= ?3 AND slot < ?4 AND ?5 = 0 ORDER BY slot";
	if (rr->cum)
		return "SELECT slot, n, psum, source_id FROM rollup WHERE metric_id = ?1 "
		    "AND slot >= ?3 AND slot < ?4 AND (?5 = 0 OR source_id = ?5) "
		    "ORDER BY slot";
	/* One row per source and slot, in slot order (the primary key);
	 * each adds its moments to the bucket, so no GROUP BY (which
	 * costs SQLite more than the whole rest of the query). */
	return "SELECT slot, n, sum, sumsq, min, max, source_id FROM rollup "
	    "WHERE metric_id = ?1 AND slot >= ?3 AND slot < ?4 AND "
	    "(?5 = 0 OR source_id = ?5) AND n > 0 ORDER BY slot, source_id";
}

/* Prepare the slots and, for medians and percentiles, the values of the
 * same slots, read beside the moments in step (both in slot and source
 * order): 0 or -1. */
static int
open_slots(struct rollup_read *rr)
{
	const struct hq_query *q = rr->q;

	if (hq_store_prepare(rr->s, slots_sql(rr), &rr->st, rr->e))
		return -1;
	sqlite3_bind_int64(rr->st, 1, rr->id);
	sqlite3_bind_int64(rr->st, 3, q->from);
	sqlite3_bind_int64(rr->st, 4, q->to);
	sqlite3_bind_int64(rr->st, 5, rr->source_id);
	if (rr->vals) {
		if (prepare_vals(rr->s, rr->id, q->from, q->to, rr->source_id,
		    &rr->sv, rr->e)) {
			sqlite3_finalize(rr->st);
			return -1;
		}
		rr->have_v = sqlite3_step(rr->sv) == SQLITE_ROW;
	}
	return 0;
}

/* Whether the rollups can go on answering at slot, whose day (or window)
 * is [rr->dc.lo, rr->dc.hi): 0, or 1 to stop reading with rr->conflict
 * set (or em stopped with an error). */
static int
slot_conflicts(struct rollup_read *rr, int64_t slot)
{
	const struct hq_query *q = rr->q;
	int64_t day_start = rr->dc.lo, day_end = rr->dc.hi;

	/* A window whose ends are not on slot boundaries cuts slots:
	 * only raw samples can say. Whole local hours fall on them in
	 * every zone offset of the last fifty years (multiples of 15
	 * minutes); rows already handed on cannot be taken back. */
	if (hq_query_windowed(q) && (day_start % HQ_ROLLUP_SLOT || day_end % HQ_ROLLUP_SLOT)) {
		if (rr->emitted) {
			hq_err_set(rr->e, "%s: a day window at an offset off "
			    "15 minutes; use --no-rollup", q->metric.name);
			rr->em->stop = 1;
			rr->em->rc = -1;
			return 1;
		}
		rr->conflict = 1;
		return 1;
	}
	/* Merged rollups by the hour (or quarter) need every bucket
	 * to start and end on one. */
	if (rr->merged && (day_start % rr->grain || day_end % rr->grain ||
	    (q->by == HQ_HOUR && hq_time_bucket_start(slot, HQ_HOUR) % rr->grain))) {
		rr->conflict = rr->quarters ? 1 : 2;
		return 1;
	}
	return 0;
}

/* A cumulative slot into the point of its hour or day: 0, or 1 to stop
 * (two sources in one slot: rr->conflict). */
static int
add_cum_slot(struct rollup_read *rr, int64_t slot, int64_t day)
{
	const struct hq_query *q = rr->q;
	struct points *pts = &rr->pts;

	if (slot == rr->prev_slot && !rr->source_id && !rr->merged) {
		rr->conflict = 1;
		return 1;
	}
	rr->prev_slot = slot;
	/* Slots add up into one point per hour (by hour) or per
	 * day (everything else): the daily totals that coarse
	 * buckets aggregate. */
	int64_t key = q->by == HQ_HOUR ? hq_time_bucket_start(slot, HQ_HOUR) : rr->dc.lo;
	if (!pts->n || pts->v[pts->n - 1].t != key) {
		struct point pt = { key, q->by == HQ_HOUR
		    ? hq_time_bucket_next(key, HQ_HOUR) : rr->dc.hi, 0, 0, day, 0 };
		hq_query_push_point(pts, pt);
	}
	pts->v[pts->n - 1].v += sqlite3_column_double(rr->st, 2);
	pts->v[pts->n - 1].counts += sqlite3_column_int(rr->st, 1);
	return 0;
}

/* Open the row of the bucket holding slot. */
static void
open_row(struct rollup_read *rr, int64_t slot, int64_t day)
{
	const struct hq_query *q = rr->q;

	hq_stats_acc_reset(&rr->acc);
	hq_query_row_init(&rr->r);
	rr->open = 1;
	if (q->whole) {
		rr->bs = q->from != INT64_MIN ? q->from
		    : hq_time_day_start(hq_time_local_day(slot));
		rr->be = q->to;
	} else if (hq_query_windowed(q)) {
		rr->bs = rr->dc.lo;
		rr->be = rr->dc.hi;
	} else {
		rr->bs = hq_time_bucket_start(slot, q->by);
		rr->be = hq_time_bucket_next(rr->bs, q->by);
	}
	rr->r.start = rr->bs;
	rr->r.end = rr->be;
	rr->r.day = hq_query_windowed(q) ? day : hq_time_local_day(rr->bs);
}

/* The values of slot's row (source src) into the open row: sv steps
 * beside st. */
static void
add_slot_vals(struct rollup_read *rr, int64_t slot)
{
	sqlite3_stmt *sv = rr->sv;
	int64_t src = sqlite3_column_int64(rr->st, 6);

	while (rr->have_v && (sqlite3_column_int64(sv, 0) < slot ||
	    (sqlite3_column_int64(sv, 0) == slot &&
	    sqlite3_column_int64(sv, 1) < src)))
		rr->have_v = sqlite3_step(sv) == SQLITE_ROW;
	if (rr->have_v && sqlite3_column_int64(sv, 0) == slot &&
	    sqlite3_column_int64(sv, 1) == src)
		add_blob(&rr->acc, sv, 2);
}

/* A slot's moments (and values) into its bucket's row, handing on the
 * row before when the slot is past it: 0, or 1 to stop. */
static int
add_moment_slot(struct rollup_read *rr, int64_t slot, int64_t day)
{
	const struct hq_query *q = rr->q;
	sqlite3_stmt *st = rr->st;

	if (!rr->open || slot >= rr->be) {
		if (rr->open && (finish_vals(&rr->acc, &rr->vr, rr->bs, rr->be, rr->em) ||
		    (hq_query_finish_row(&rr->r, &rr->acc, q, 0, 0), rr->emitted = 1,
		    hq_query_emit(rr->em, &rr->r))))
			return 1;
		open_row(rr, slot, day);
	}
	hq_stats_acc_add_moments(&rr->acc, sqlite3_column_int(st, 1),
	    sqlite3_column_double(st, 2), sqlite3_column_double(st, 3),
	    sqlite3_column_double(st, 4), sqlite3_column_double(st, 5));
	if (rr->vals)
		add_slot_vals(rr, slot);
	if (q->whole && q->to == INT64_MAX)
		rr->r.end = hq_time_day_start(hq_time_local_day(slot) + 1);
	return 0;
}

/* The slots in order: SQLITE_DONE, or what sqlite3_step() said when the
 * read stopped early (a conflict, the sink, an error). */
static int
read_slots(struct rollup_read *rr)
{
	int rc = SQLITE_DONE;

	while (!rr->em->stop && (rc = sqlite3_step(rr->st)) == SQLITE_ROW) {
		int64_t slot = sqlite3_column_int64(rr->st, 0), day;
		if (!hq_query_day_of(rr->q, &rr->dc, slot, &day))
			continue;         /* between two windows */
		if (slot_conflicts(rr, slot))
			break;
		if (!hq_query_day_ok(rr->q, day))
			continue;
		if (rr->cum ? add_cum_slot(rr, slot, day) : add_moment_slot(rr, slot, day))
			break;
	}
	return rc;
}

/* The points of a cumulative metric into rows, once every slot is read. */
static void
cum_rows(struct rollup_read *rr)
{
	const struct hq_query *q = rr->q;
	struct bucketer b;
	/* A day counts once, however many slots made it. */
	int coarse = q->whole || q->by >= HQ_WEEK;

	if (coarse)
		for (size_t i = 0; i < rr->pts.n; i++)
			rr->pts.v[i].counts = 1;
	hq_query_bucketer_init(&b, q, q->by, q->whole, !coarse, rr->em, NULL, NULL);
	if (hq_query_bucket_points(&b, &rr->pts) >= 0)
		hq_query_bucketer_close(&b);
	hq_stats_acc_free(&b.acc);
}

/*
 * Slots of a metric from the rollups, in time order. For a cumulative
 * metric the slots must have one source each (or --source picked one):
 * where two sources overlap only the raw samples can say which counts, so
 * the answer is 0 ("cannot") and the caller reads raw samples. Cumulative
 * rows are handed on only once every slot has been read (a conflict may
 * come last); they are a point per hour or day, not per sample.
 */
int
hq_query_run_rollup(struct hq_store *s, const struct hq_query *q,
    const int64_t ids[2], int64_t source_id, int vals, int quarters,
    struct emit *em, struct hq_err *e)
{
	struct rollup_read rr = { .s = s, .q = q, .em = em, .e = e,
	    .source_id = source_id, .vals = vals, .quarters = quarters,
	    .cum = q->metric.kind == HQ_KIND_CUMULATIVE, .prev_slot = INT64_MIN };
	int rc;

	/* A metric stored under two names would need two merged ranges. */
	if (ids[0] && ids[1])
		return 0;
	rr.id = ids[0] ? ids[0] : ids[1];
	/* The default priority's merge, kept at ingest. */
	if (rr.cum && !source_id && !q->priority &&
	    (rr.merged = merged_kept(s, rr.id, quarters, e)) < 0)
		return -1;
	/* Merged rollups by the hour need every bucket to start on an hour;
	 * else (2) those by 15 minutes answer. */
	rr.grain = quarters ? HQ_ROLLUP_SLOT : HQ_ROLLUP_HOUR;
	if (rr.merged && !quarters && ((q->from != INT64_MIN && q->from % HQ_ROLLUP_HOUR) ||
	    (q->to != INT64_MAX && q->to % HQ_ROLLUP_HOUR)))
		return 2;
	if (open_slots(&rr))
		return -1;
	rr.vr = (struct vals_reread){ s, q, rr.id, source_id };
	hq_stats_acc_init_aggs(&rr.acc, q->aggs, q->naggs, 1);
	em->sr->from_rollup = 1;
	rc = read_slots(&rr);
	sqlite3_finalize(rr.st);
	sqlite3_finalize(rr.sv);
	if (rr.open && !em->stop && !finish_vals(&rr.acc, &rr.vr, rr.bs, rr.be, em)) {
		hq_query_finish_row(&rr.r, &rr.acc, q, 0, 0);
		hq_query_emit(em, &rr.r);
	}
	hq_stats_acc_free(&rr.acc);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW && !em->stop) {
		hq_err_set(e, "%s: reading rollups: %s", hq_store_filename(s),
		    sqlite3_errmsg(hq_store_db(s)));
		free(rr.pts.v);
		return -1;
	}
	if (rr.cum && !rr.conflict && !em->stop)
		cum_rows(&rr);
	free(rr.pts.v);
	if (rr.conflict) {
		em->sr->from_rollup = 0;
		return rr.conflict == 2 ? 2 : 0;
	}
	return em->rc < 0 ? -1 : 1;
}
