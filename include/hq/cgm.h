/*
 * cgm — the consensus glucose metrics over readings, the ambulatory
 * glucose profile, and the rule that keeps a reading two sources delivered
 * from counting twice.
 *
 * Metrics (Battelino et al. 2019, computed as iglu computes them; values
 * in mg/dL): tir = % of readings in 70-180 inclusive, titr 70-140
 * inclusive, tbr < 70, tbr2 < 54, tar > 180, tar2 > 250; sd the sample SD;
 * cv = 100 sd / mean; gmi = 3.31 + 0.02392 mean; j_index = 0.001 (mean +
 * sd)^2; lbgi/hbgi = 22.77 f^2 averaged over all readings, f = ln(g)^1.084
 * - 5.381 taken where negative and g < 112.5 (low) or positive and
 * g >= 112.5 (high); gri = 3.0 tbr2 + 2.4 (tbr - tbr2) + 1.6 tar2 + 0.8
 * (tar - tar2), at most 100. coverage_pct = readings / expected * 100 (at
 * most 100), expected = round(span / interval) + 1 readings over a span at
 * the sensor's interval (iglu's active_percent counts the same way).
 *
 * The sensor's interval is the median spacing of a source's consecutive
 * readings, rounded to whole minutes (iglu's dt0), at least one minute.
 *
 * The double-source rule (hq_cgm_dedup): within a range the sources are
 * ranked by their number of readings (most first). Every reading of the
 * first counts. A reading of a lower-ranked source counts only in the
 * first's gaps: when no reading of any higher-ranked source lies less than
 * 3/4 of the first source's interval from it (3.75 minutes at 5-minute
 * readings). So the Dexcom app's copy of a reading in Apple Health, seconds
 * from the Clarity one, never counts twice, and a copy that covers an hour
 * the other missed fills it. The 3/4 leaves a reading half an interval out
 * of phase out, and lets one in once a whole reading is missing.
 *
 * AGP: per 15 minutes of local time of day (96 slots), the 5th, 25th,
 * 50th, 75th and 95th percentiles of the readings in the slot, R's default
 * quantile (type 7). Each slot keeps its distinct values with their
 * counts, so memory grows with the number of distinct values (a few
 * hundred per slot for CGM data, whatever the number of years), not with
 * the number of readings; past HQ_CGM_AGP_MAX_DISTINCT in all it refuses
 * (16 MB).
 *
 * Structures here are caller-owned and plain (init/add/finish) except the
 * AGP and the dedup window, which have _new/_free.
 */
#ifndef HQ_CGM_H
#define HQ_CGM_H

#include <stddef.h>
#include <stdint.h>

#include "hq/err.h"

#define HQ_CGM_AGP_SLOTS 96
#define HQ_CGM_AGP_MAX_DISTINCT (1L << 20)

/* One row's running sums. */
struct hq_cgm_acc {
	long n;
	double mean, m2;                 /* Welford */
	long tir, titr, tbr, tbr2, tar, tar2;
	double low_risk, high_risk;      /* sums of f^2 on each side */
	int64_t first, last;             /* UTC of the first and last reading */
	int64_t first_day, last_day;     /* their local day numbers */
	long days;                       /* local days holding readings */
};

void hq_cgm_acc_init(struct hq_cgm_acc *a);
/* Readings arrive in time order; day is the local day number of t. */
void hq_cgm_acc_add(struct hq_cgm_acc *a, int64_t t, int64_t day, double mgdl);

struct hq_cgm_metrics {
	long readings, days;
	int64_t from_day, to_day;        /* local day numbers */
	double coverage_pct, mean, sd, cv, gmi, tir, titr, tbr, tbr2, tar, tar2;
	double j_index, lbgi, hbgi, gri;  /* NaN where undefined (sd of one) */
};

/* The row: expected readings over [span_start, span_end] at interval_min
 * minutes. */
void hq_cgm_metrics(const struct hq_cgm_acc *a, int interval_min,
    int64_t span_start, int64_t span_end, struct hq_cgm_metrics *m);
/* The row's numbers by name, in the order a row lists them (hq-report(1)):
 * days, readings, coverage_pct, mean, ... gri. hq_cgm_field() is NULL past
 * the last; hq_cgm_value() is NaN for a name that is not a field. */
const char *hq_cgm_field(size_t i);
double hq_cgm_value(const struct hq_cgm_metrics *m, const char *name);

/* The sensor's interval from the spacing of consecutive readings. */
#define HQ_CGM_INTERVAL_BINS 181       /* whole minutes 0..180, then more */
struct hq_cgm_interval {
	long bin[HQ_CGM_INTERVAL_BINS + 1];
	long n;
};
void hq_cgm_interval_add(struct hq_cgm_interval *iv, int64_t seconds);
/* Median spacing in whole minutes, at least 1; 5 when there is none. */
int hq_cgm_interval_minutes(const struct hq_cgm_interval *iv);

/* The AGP. */
struct hq_cgm_agp;
struct hq_cgm_agp_row {
	int slot;                       /* 0 = 00:00, 95 = 23:45 */
	long n;
	double p5, p25, p50, p75, p95;  /* NaN when n = 0 */
};
struct hq_cgm_agp *hq_cgm_agp_new(void);
void hq_cgm_agp_free(struct hq_cgm_agp *g);
/* 0, or -1 with e set past HQ_CGM_AGP_MAX_DISTINCT distinct values. */
int hq_cgm_agp_add(struct hq_cgm_agp *g, int slot, double mgdl,
    struct hq_err *e);
/* After the last hq_cgm_agp_add(), before the rows; 0 or -1 as above. */
int hq_cgm_agp_finish(struct hq_cgm_agp *g, struct hq_err *e);
void hq_cgm_agp_row(const struct hq_cgm_agp *g, int slot,
    struct hq_cgm_agp_row *r);
/* The slot of a local time of day. */
int hq_cgm_agp_slot(int hour, int min);

/* The double-source rule over readings in time order, each with the rank
 * of its source (0 = the source with most readings). Readings that count
 * come out through emit, in time order, a little later than they go in:
 * hq_cgm_dedup_finish() lets out the last ones. */
typedef void hq_cgm_emit_fn(void *arg, int64_t t, int source, double mgdl);
struct hq_cgm_dedup;
struct hq_cgm_dedup *hq_cgm_dedup_new(int interval_min, hq_cgm_emit_fn *emit,
    void *arg);
void hq_cgm_dedup_push(struct hq_cgm_dedup *d, int64_t t, int rank,
    int source, double mgdl);
void hq_cgm_dedup_finish(struct hq_cgm_dedup *d);
void hq_cgm_dedup_free(struct hq_cgm_dedup *d);

/* A report over a range (cgm_read.h computes it): the metrics per
 * bucket and over the whole range, and the AGP. */
struct hq_cgm_row {
	int64_t start, end;    /* the bucket, [start, end) UTC */
	struct hq_cgm_metrics m;
};

struct hq_cgm_report {
	struct hq_cgm_row *rows;     /* one per bucket holding readings */
	size_t nrows;
	struct hq_cgm_row total;     /* the whole range */
	int interval_min;            /* the counting source's interval */
	int nsources;                /* sources with readings in the range */
	long readings_stored;        /* before the double-source rule */
	int has_agp;
	struct hq_cgm_agp_row agp[HQ_CGM_AGP_SLOTS];
};

#endif
