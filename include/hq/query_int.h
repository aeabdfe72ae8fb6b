/*
 * query_int — internal to lib/query/: what query.c (the raw samples) and
 * rollup_read.c (the rollups) share to turn what they read into rows,
 * defined in bucket.c: the sink rows go to, points on their way into
 * buckets, the day an instant counts for, and the bucketer. layers.pl
 * fails an includer outside lib/query/ (as curl's vtls_int.h).
 */
#ifndef HQ_QUERY_INT_H
#define HQ_QUERY_INT_H

#include <stddef.h>
#include <stdint.h>

#include "hq/output.h"
#include "hq/query.h"

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

/* A row with no values (NaN) and no source. */
void hq_query_row_init(struct hq_row *r);
/* Hand r on: 0, or 1 when the reader must stop (em->rc says why). */
int hq_query_emit(struct emit *em, const struct hq_row *r);

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

void hq_query_push_point(struct points *p, struct point pt);
/* Points in time order, equal times in the order they came (as a stable
 * sort of every point of a query would leave them). */
void hq_query_sort_points(struct points *p);
/* Daily totals from points already split at day boundaries: one point per
 * day, at the day's start. */
void hq_query_daily_totals(const struct points *in, struct points *out);

/* r's values from acc; n is the number of values, or counted when
 * separate_n (cumulative hour/day buckets: samples starting). */
void hq_query_finish_row(struct hq_row *r, struct hq_stats_acc *acc,
    const struct hq_query *q, long counted, int separate_n);

/* Whether q's days are windows (by day, from an evening to the next noon). */
int hq_query_windowed(const struct hq_query *q);

/* The day an instant counts for (its calendar day, or its window's), kept
 * while instants in time order stay inside the same day or gap. */
struct day_cache {
	int64_t lo, hi, day;
	int in;
};

/* 1 with *day (c->lo, c->hi its day or window), or 0 when t counts for no
 * day (between windows). */
int hq_query_day_of(const struct hq_query *q, struct day_cache *c, int64_t t,
    int64_t *day);
/* Whether day is one of --when's (q->days), or q has none. */
int hq_query_day_ok(const struct hq_query *q, int64_t day);

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

void hq_query_bucketer_init(struct bucketer *b, const struct hq_query *q,
    enum hq_period by, int whole, int separate_n, struct emit *em,
    reread_fn *reread, void *reread_ctx);
/* A value at t: 0, 1 to stop (the sink said so), -1. */
int hq_query_bucketer_add(struct bucketer *b, int64_t t, double v, int counts);
/* Close the open row and hand it on: 0, 1 to stop, -1. */
int hq_query_bucketer_close(struct bucketer *b);
/* Close the open row and free the bucketer: 0, 1 to stop, -1. */
int hq_query_bucketer_finish(struct bucketer *b);
/* Sorted points into the bucketer: 0, 1 to stop, -1. */
int hq_query_bucket_points(struct bucketer *b, const struct points *p);

/* rollup_read.c: whether the rollups can answer q (those of values too:
 * *vals); see query.h. */
int hq_query_rollup_eligible(const struct hq_query *q, int *vals);
/* q's rows from the rollups (of 15 minutes when quarters, else of the
 * hour where merged): 1 done, 0 they cannot answer (read the raw
 * samples), 2 ask again with quarters, -1 with e set. */
int hq_query_run_rollup(struct hq_store *s, const struct hq_query *q,
    const int64_t ids[2], int64_t source_id, int vals, int quarters,
    struct emit *em, struct hq_err *e);

/* What workout.c and workout_detail.c share: a column as text ("" when
 * NULL; as a number, store.h's hq_store_col_num); v rounded to decimals;
 * v from unit from to unit to (NaN when it cannot be). */
const char *hq_workout_col_text(sqlite3_stmt *st, int i);
double hq_workout_round(double v, int decimals);
double hq_workout_convert(double v, const char *from, const char *to);

/* A workout's record, the parts read apart from its row
 * (workout_detail.c), as fields of the row being written: its events
 * (counts by kind, the time paused up to end), its metadata (the ascent
 * of workout ascent_from when it has none, 0: none), its route's summary
 * (the route it takes from another, HQ_WORKOUT_FILLED; none without a
 * route). 0, or -1 with e. */
int hq_workout_out_events(struct hq_store *s, int64_t id, int64_t end,
    struct hq_out *out, struct hq_err *e);
int hq_workout_out_metadata(struct hq_store *s, int64_t id,
    int64_t ascent_from, struct hq_out *out, struct hq_err *e);
int hq_workout_out_route(struct hq_store *s, int64_t id, struct hq_out *out,
    struct hq_err *e);

/* --where on workouts (workout_where.c): the expressions srcs[0..n),
 * each name one of fields[0..nfields) (no metric., no [day]); NULL with e
 * naming the expression, the name and the fields when one is not. */
struct hq_workout_where;
struct hq_workout_where *hq_workout_where_new(const char *const *srcs,
    size_t n, const char *const *fields, size_t nfields, struct hq_err *e);
/* Whether every expression holds for vals (by fields' index; NAN: no
 * value, and a comparison with it is false). */
int hq_workout_where_holds(const struct hq_workout_where *w,
    const double *vals);
void hq_workout_where_free(struct hq_workout_where *w);

#endif
