/*
 * query — time series of one metric: samples of a range loaded from the
 * store, merged across sources, bucketed in the local zone and aggregated.
 *
 * What a row's values are depends on the metric's kind (HACKING.md):
 *   discrete   samples belong to the bucket holding their start; the
 *              aggregations run over the samples;
 *   cumulative samples are first merged across sources (merge.h), split
 *              pro rata at hour/day boundaries; in hour and day buckets
 *              sum is the total, n the samples whose counted part starts
 *              there (a bucket holding only a carried-over part of a
 *              sample has n = 0; hq-query(1) "The count n"), count = n,
 *              avg = sum / n;
 *              in week, month, year and whole-range buckets the values
 *              aggregated are the daily totals (avg = average per day,
 *              n = days with data);
 *   sleep      one value per night (sleep.h), in hours; nights aggregate
 *              like daily totals; a night still going on (nights_until)
 *              is left out;
 *   category   by start, each sample counted (1, or 0 for an idle stand
 *              hour: hq_catalog_category_count) unless the catalog times
 *              the metric (unit "min": the sample's minutes).
 * Without a period and without `whole`, a row is one sample (discrete,
 * category), one sample's counted share (cumulative: value is what the
 * merge counts, sample_value what the sample says) or one night (sleep).
 *
 * Day, week and month aggregates of avg/min/max/sum/count/stddev come from
 * the rollups (rollup.h) when they can; the result is the same as from the
 * raw samples (tests check), only faster.
 *
 * All memory in a struct hq_series belongs to it; hq_series_free().
 */
#ifndef HQ_QUERY_H
#define HQ_QUERY_H

#include <stddef.h>
#include <stdint.h>

#include "hq/catalog.h"
#include "hq/err.h"
#include "hq/merge.h"
#include "hq/stats.h"
#include "hq/store.h"
#include "hq/time.h"

struct hq_metric_ref {
	char name[128];          /* snake_case name */
	char identifier[256];    /* as stored */
	enum hq_kind kind;
	char unit[32];           /* of the rows */
	const struct hq_metric_info *info;  /* NULL when not in the catalog */
};

/* A metric name as typed: catalog name, alias or identifier, or a metric
 * in the store by identifier or snake name. -1 with "unknown metric 'x'
 * (did you mean y?)" in e. */
int hq_query_resolve(struct hq_store *s, const char *name,
    struct hq_metric_ref *m, struct hq_err *e);

/* Local day numbers, sorted: the days --when keeps (select.h makes them). */
struct hq_dayset {
	int64_t *days;
	size_t n;
};
int hq_dayset_has(const struct hq_dayset *d, int64_t day);
/* The index of day in d, or -1 (binary search). */
long hq_dayset_find(const struct hq_dayset *d, int64_t day);

struct hq_query {
	struct hq_metric_ref metric;
	int64_t from, to;         /* [from, to); INT64_MIN/INT64_MAX: open */
	enum hq_period by;        /* HQ_PERIOD_NONE: per sample (or whole) */
	int whole;                /* one row for the whole range */
	struct hq_agg aggs[HQ_MAX_AGGS];
	size_t naggs;             /* 0: the kind's default */
	const char *source;       /* only this source (exact name); NULL: merged */
	const struct hq_priority *priority;  /* NULL: the default */
	int sleep_cutoff;         /* hour; 0 is taken as 18 */
	/* A night counts once its window has closed (the cut-off hour of its
	 * date) by this instant, or once its last sample ended an hour before
	 * it (hq_sleep_night_counts); others are still going on and make no
	 * row. 0: the newest export date in the store, or now if sooner. */
	int64_t nights_until;
	const struct hq_dayset *days;        /* only these local days; NULL: all */
	int no_rollup;            /* read raw samples even when rollups would do */
	/* With by HQ_DAY: day D's bucket runs from day_from_hour on D to
	 * day_to_hour on D + 1, local time, instead of midnight to midnight;
	 * samples between two such windows count for no day. hq-correlate
	 * --night uses 18 and 12: the evening and night after day D. Both 0:
	 * calendar days. Needs day_to_hour <= day_from_hour (windows never
	 * overlap); not for sleep, whose nights are keyed already. */
	int day_from_hour, day_to_hour;
};

struct hq_row {
	int64_t start, end;
	double v[HQ_MAX_AGGS];    /* one per aggregation, NaN: none */
	long n;
	int source;               /* per-sample rows: index into sources; else -1 */
	double sample_value;      /* per-sample cumulative rows; else NaN */
	char category[32];        /* per-sample category rows: "asleep_core" */
	int64_t day;              /* the local day number the row belongs to */
};

struct hq_series {
	struct hq_metric_ref metric;
	enum hq_period by;
	int whole;
	struct hq_agg aggs[HQ_MAX_AGGS];
	size_t naggs;
	struct hq_row *rows;
	size_t n, cap;
	char **sources;
	size_t nsources;
	int from_rollup;          /* the rollups answered */
};

/* The default aggregation of a kind: sum for cumulative, avg otherwise. */
void hq_query_default_agg(enum hq_kind k, struct hq_agg *a);

/* A row of q, handed on by hq_query_each(); sr describes the series
 * (rows empty). 0 goes on, 1 stops quietly, -1 stops with e set. */
typedef int hq_query_row_fn(void *ctx, const struct hq_series *sr,
    const struct hq_row *r, struct hq_err *e);

/* Run q, handing its rows one at a time to fn, in order: no more than the
 * rows being built (a bucket, a day of samples) is held. out describes the
 * series before the first row (its sources, aggregations; from_rollup)
 * and holds no rows; hq_series_free() it, also after an error. 0, or -1
 * with e set (by fn when it failed). */
int hq_query_each(struct hq_store *s, const struct hq_query *q,
    hq_query_row_fn *fn, void *ctx, struct hq_series *out, struct hq_err *e);
/* Run q into out (zeroed by the caller or reused after hq_series_free):
 * every row in memory, for callers that want few (days, nights). */
int hq_query_run(struct hq_store *s, const struct hq_query *q,
    struct hq_series *out, struct hq_err *e);
void hq_series_free(struct hq_series *out);

/* Names of the metrics in the store, one per line (shell completion). */
int hq_query_metric_names(struct hq_store *s, void (*fn)(const char *, void *),
    void *ctx, struct hq_err *e);

#endif
