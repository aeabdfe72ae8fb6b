/*
 * stats — the aggregations hq-query offers (avg, min, max, sum, count,
 * median, stddev, p1..p99, first, last), parsed from their names and
 * computed over arrays of values or streamed through an accumulator.
 *
 * Conventions: stddev is the sample standard deviation (n - 1, as R's sd);
 * percentiles interpolate linearly between order statistics (R's default,
 * type 7). An aggregation with no value (stddev of one value, anything of
 * nothing) is NaN, which the output prints as null. Everything here works
 * on caller-owned memory; nothing allocates except hq_stats_acc, whose
 * values array is freed by hq_stats_acc_free().
 */
#ifndef HQ_STATS_H
#define HQ_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "hq/err.h"

enum hq_agg_kind {
	HQ_AGG_AVG, HQ_AGG_MIN, HQ_AGG_MAX, HQ_AGG_SUM, HQ_AGG_COUNT,
	HQ_AGG_MEDIAN, HQ_AGG_STDDEV, HQ_AGG_PCT, HQ_AGG_FIRST, HQ_AGG_LAST,
};

#define HQ_MAX_AGGS 16

struct hq_agg {
	enum hq_agg_kind kind;
	int pct;          /* HQ_AGG_PCT: 1..99 */
	char name[8];     /* "avg", "p90": the row's field name */
};

/* "avg,p90,max" → aggs. 0, or -1 with e naming the bad word. */
int hq_stats_parse_aggs(const char *list, struct hq_agg *aggs, size_t max,
    size_t *n, struct hq_err *e);
/* One name ("p95") → agg; 0 or -1. */
int hq_stats_parse_agg(const char *name, struct hq_agg *a);
/* The i-th aggregation's name ("avg"), NULL past the end: the named ones,
 * then the percentiles most asked for. For completion and help text. */
const char *hq_stats_agg_at(size_t i);
/* Whether an aggregation needs every value (median, percentiles) or their
 * order (first, last), rather than n/sum/sumsq/min/max. */
int hq_stats_needs_values(const struct hq_agg *a);

double hq_stats_mean(const double *v, size_t n);
double hq_stats_stddev(const double *v, size_t n);
/* q in [0, 1]; v is sorted ascending. */
double hq_stats_quantile_sorted(const double *v, size_t n, double q);
/* Sorts v in place. */
double hq_stats_median(double *v, size_t n);
void hq_stats_sort(double *v, size_t n);

/* A streaming accumulator. Values arrive in time order; keep_values makes
 * it keep them for medians and percentiles. Mergeable moments (n, sum,
 * sumsq, min, max) can also be added in bulk (rollups). */
struct hq_stats_acc {
	long n;
	double sum, sumsq, min, max, first, last;
	int keep_values;
	double *values;
	size_t nvalues, cap;
};

void hq_stats_acc_init(struct hq_stats_acc *a, int keep_values);
void hq_stats_acc_add(struct hq_stats_acc *a, double v);
void hq_stats_acc_add_moments(struct hq_stats_acc *a, long n, double sum,
    double sumsq, double min, double max);
/* The value of one aggregation; may sort a->values. */
double hq_stats_acc_value(struct hq_stats_acc *a, const struct hq_agg *g);
/* Empty it for the next bucket, keeping its memory. */
void hq_stats_acc_reset(struct hq_stats_acc *a);
void hq_stats_acc_free(struct hq_stats_acc *a);

#endif
