/*
 * select — the rows a command asks the store for, described once and run by
 * one call: hq-query's row pipeline, for every command that needs rows or
 * daily values (hq-query prints them; hq-correlate pairs days).
 *
 * A struct hq_select names metrics as typed, a range, a bucket size and
 * aggregations (query.h says what a row's values are), --when conditions
 * on days (another metric's daily aggregate, day offsets allowed:
 * glucose.max[-1] > 140), --where conditions on rows (the row's own value,
 * n or aggregations), then --offset and --limit, counted over all its
 * metrics in order. hq_select_run() resolves every name and checks every
 * condition first, so a mistake is reported before any row; then it hands
 * the rows that pass, one at a time, to a sink. A sink sees a row and the
 * description of its series, never a whole series: nothing in the contract
 * needs a series to be in memory at once.
 *
 * --when, end to end: the command gives the text to hq_select_add_when()
 * (parsed by expr.h); hq_select_run() hands the conditions to
 * hq_select_days_new(), which reads the daily values each metric.field[lag]
 * names from a day source (for the store: hq_query_run() by day) and keeps
 * the days on which every condition holds; those days go to hq_query_run()
 * as q.days, and lib/query/ drops every other day where it reads samples,
 * nights or rollups (hq_query_day_ok()).
 *
 * The day set stands on its own for commands that pair days: a day source
 * (struct hq_select_daysrc) is a small interface, so conditions can read
 * daily values from somewhere other than the store (a file of hq-query day
 * rows) without the day set changing.
 *
 * Memory: struct hq_select owns the conditions added to it and its
 * priority; hq_select_free(). Metric names and the source name are
 * borrowed. What a sink is given is borrowed for that call. Daily values
 * (struct hq_select_daily) and day sets are freed by whoever asked.
 */
#ifndef HQ_SELECT_H
#define HQ_SELECT_H

#include <stddef.h>
#include <stdint.h>

#include "hq/config.h"
#include "hq/err.h"
#include "hq/expr.h"
#include "hq/merge.h"
#include "hq/query.h"
#include "hq/stats.h"
#include "hq/store.h"
#include "hq/time.h"

struct hq_select {
	const char *const *metrics;  /* names as typed (borrowed) */
	size_t nmetrics;
	int64_t from, to;            /* [from, to); INT64_MIN/INT64_MAX: open */
	enum hq_period by;           /* HQ_PERIOD_NONE: per sample (or whole) */
	int whole;                   /* one row for the whole range */
	struct hq_agg aggs[HQ_MAX_AGGS];
	size_t naggs;                /* 0: each metric's default */
	const char *source;          /* only this source; NULL: merged */
	struct hq_priority priority; /* owned; empty: the default */
	int sleep_cutoff;            /* hour; 0: 18 */
	long offset, limit;          /* rows skipped, then at most limit (0: all) */
	int no_rollup;               /* raw samples even where rollups answer */
	int day_from_hour, day_to_hour;  /* by day: each day D a window from
	                              * an hour on D to one on D + 1 (query.h);
	                              * conditions stay on calendar days */
	struct hq_expr **when;       /* owned: hq_select_add_when() */
	size_t nwhen;
	struct hq_expr **where;      /* owned: hq_select_add_where() */
	size_t nwhere;
};

/* An empty selection: open range, no period, no conditions. */
void hq_select_init(struct hq_select *sel);
void hq_select_free(struct hq_select *sel);

/* Parse a condition and add it (ANDed with the others): 0, or -1 with
 * "--when: bad expression ..." in e. */
int hq_select_add_when(struct hq_select *sel, const char *src,
    struct hq_err *e);
int hq_select_add_where(struct hq_select *sel, const char *src,
    struct hq_err *e);

/* The [query] section of the configuration: source_priority and
 * sleep_cutoff (an hour 1..23). 0, or -1 with e naming the bad value. */
int hq_select_config(struct hq_select *sel, const struct hq_config *cfg,
    struct hq_err *e);

/* ---- running it ---------------------------------------------------------- */

/* What the rows of one metric are. */
struct hq_select_series {
	size_t index;                       /* sel->metrics[index] */
	const struct hq_metric_ref *metric; /* resolved: name, unit, kind */
	enum hq_period by;
	int whole;
	const struct hq_agg *aggs;          /* row->v[k] is aggs[k] */
	size_t naggs;
	const char *const *sources;         /* row->source indexes these */
	size_t nsources;
	int from_rollup;                    /* the rollups answered */
};

/* Where rows go. series (may be NULL) is called once per metric, in
 * order, before its rows, even when none pass; a metric that comes after
 * the limit is filled is announced but not read (no sources). row is
 * called for each row that passes --when, --where, --offset and --limit,
 * in order. A non-zero return stops the run, which then returns -1 with
 * the message the sink put in e. */
struct hq_select_sink {
	int (*series)(void *ctx, const struct hq_select_series *sr,
	    struct hq_err *e);
	int (*row)(void *ctx, const struct hq_select_series *sr,
	    const struct hq_row *r, struct hq_err *e);
	void *ctx;
};

/* Run sel: the number of rows given to the sink, or -1 with e set
 * ("unknown metric ...", "--when '...': ...", "--where '...': ..."). */
long hq_select_run(struct hq_store *s, const struct hq_select *sel,
    const struct hq_select_sink *sink, struct hq_err *e);

/* ---- daily values and the days conditions pick (--when) ------------------ */

/* One metric's values by local day, for the fields a caller asked for. */
struct hq_select_daily {
	int64_t *days;    /* local day numbers, ascending, each once */
	double *v;        /* v[i * nfields + j]: field j on days[i]; NaN: none */
	size_t n;
};
void hq_select_daily_free(struct hq_select_daily *d);
/* The index of day in d, or -1 (binary search). */
long hq_select_daily_find(const struct hq_select_daily *d, int64_t day);

/* Where daily values come from. check is called for every metric.field a
 * condition names, in the order written, before anything is loaded: 0, or
 * -1 with e saying what is wrong (the caller adds which condition). load
 * fills d (malloc'd; the caller frees it with hq_select_daily_free) with
 * the daily values of metric for fields[0..nfields), each a name check
 * accepted. A field is "value" (the metric's first daily aggregate), "n"
 * (its count) or an aggregation (sum, max, p90...). The conditions read
 * the metric lag_lo..lag_hi days (<= 0 <=) away from the days they judge:
 * a source bounded by a range reads that much beyond it, so that
 * glucose.max[-1] has a value on the range's first day. */
struct hq_select_daysrc {
	int (*check)(void *ctx, const char *metric, const char *field,
	    struct hq_err *e);
	int (*load)(void *ctx, const char *metric, const char *const *fields,
	    size_t nfields, int lag_lo, int lag_hi, struct hq_select_daily *d,
	    struct hq_err *e);
	void *ctx;
};

/* The store as a day source: daily rows as hq-query --by day gives them,
 * over sel's range with its priority, sleep cutoff and rollup choice (not
 * its metrics, source or conditions; sel must outlive the source).
 * hq_select_store_days_free() frees what it holds. */
void hq_select_store_days(struct hq_select_daysrc *src, struct hq_store *s,
    const struct hq_select *sel);
void hq_select_store_days_free(struct hq_select_daysrc *src);

/* Conditions over days (ANDed), with the daily values they name loaded
 * from src. Every name must have a metric (exercise_time.sum, not sum).
 * NULL with e set ("--when '<condition>': ..."). The conditions are
 * borrowed and must outlive the result. */
struct hq_select_days;
struct hq_select_days *hq_select_days_new(struct hq_expr *const *conds,
    size_t n, const struct hq_select_daysrc *src, struct hq_err *e);
void hq_select_days_free(struct hq_select_days *d);
/* Whether every condition holds on day: 1 or 0. A name with no value that
 * day makes its comparison false; *missing (may be NULL) says whether any
 * name had none, for callers that treat such days apart. */
int hq_select_days_eval(const struct hq_select_days *d, int64_t day,
    int *missing);
/* The days on which every condition holds, among the days on which some
 * name has a value (a metric's day moved by its offset). out->days is
 * malloc'd (free() it). */
void hq_select_days_set(const struct hq_select_days *d,
    struct hq_dayset *out);

#endif
