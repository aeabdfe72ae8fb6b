/*
 * stats — the aggregations hq-query offers (avg, min, max, sum, count,
 * median, stddev, p1..p99, first, last), parsed from their names and
 * computed over arrays of values or streamed through an accumulator; and
 * the inference every command shares (Pearson, Spearman, least squares,
 * Welch's t, Hedges' g, Benjamini-Hochberg, lag-1 autocorrelation and the
 * effective sample size it leaves), checked against R.
 *
 * Conventions: stddev is the sample standard deviation (n - 1, as R's sd);
 * percentiles interpolate linearly between order statistics (R's default,
 * type 7). An aggregation with no value (stddev of one value, anything of
 * nothing) is NaN, which the output prints as null. Everything here works
 * on caller-owned memory; nothing allocates except the struct hq_quant
 * (quant.h) an accumulator holds
 * (hq_stats_acc_free()), and the rank-based functions, which allocate
 * scratch space they free before returning.
 */
#ifndef HQ_STATS_H
#define HQ_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "hq/err.h"
#include "hq/quant.h"

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
void hq_stats_sort(double *v, size_t n);

/* A streaming accumulator. Values arrive in time order. Mergeable moments
 * (n, sum, sumsq, min, max) can also be added in bulk (rollups). Medians
 * and percentiles come from a struct hq_quant: hq_stats_acc_init(a, 1)
 * holds every distinct value; hq_stats_acc_init_aggs() holds at most
 * HQ_QUANT_LIMIT and may ask for more passes over the same values
 * (hq_stats_acc_pass_done()). */
struct hq_stats_acc {
	long n;
	double sum, sumsq, min, max, first, last;
	struct hq_quant *quant;  /* NULL: no medians or percentiles */
};

void hq_stats_acc_init(struct hq_stats_acc *a, int keep_values);
/* For these aggregations: bounded (limit HQ_QUANT_LIMIT) when bounded is
 * set, else every distinct value is held. */
void hq_stats_acc_init_aggs(struct hq_stats_acc *a, const struct hq_agg *aggs,
    size_t naggs, int bounded);
void hq_stats_acc_add(struct hq_stats_acc *a, double v);
void hq_stats_acc_add_moments(struct hq_stats_acc *a, long n, double sum,
    double sumsq, double min, double max);
/* A value with a count, for medians and percentiles only (the moments
 * come from hq_stats_acc_add_moments()). */
void hq_stats_acc_add_values(struct hq_stats_acc *a, double v, long count);
/* 1 when every aggregation can be read; 0 when the same values must be
 * given again through hq_stats_acc_add_values() (moments are kept). */
int hq_stats_acc_pass_done(struct hq_stats_acc *a);
/* The value of one aggregation (after hq_stats_acc_pass_done() said 1,
 * when the accumulator is bounded). */
double hq_stats_acc_value(struct hq_stats_acc *a, const struct hq_agg *g);
/* Empty it for the next bucket, keeping its memory. */
void hq_stats_acc_reset(struct hq_stats_acc *a);
void hq_stats_acc_free(struct hq_stats_acc *a);

/* ---- inference ----------------------------------------------------------
 *
 * p-values come from the regularised incomplete beta function, evaluated
 * in log space by a continued fraction to full double precision, so that a
 * p of 1e-250 is right to the last digits and one below ~1e-308 underflows
 * to 0 rather than to noise. Inputs must be finite. */

/* The standard normal quantile (R's qnorm): p in (0, 1); -inf at 0, +inf
 * at 1, NaN outside. */
double hq_stats_qnorm(double p);
/* log B(a, b), a, b > 0, accurate also when one is large. */
double hq_stats_lbeta(double a, double b);
/* log I_x(a, b), the regularised incomplete beta, given x and y = 1 - x
 * (both, so neither is computed by a subtraction that loses digits); with
 * upper set, log(1 - I_x(a, b)). */
double hq_stats_log_ibeta(double x, double y, double a, double b, int upper);
/* Student's t distribution with df > 0 degrees of freedom (not necessarily
 * whole): the lower-tail CDF P(T <= t), and the two-sided p-value
 * P(|T| >= |t|). */
double hq_stats_pt(double t, double df);
double hq_stats_t_p2(double t, double df);

/* The positions that put v in ascending order, ties in the order they
 * come (a stable sort): v[order[0]] is the smallest. */
void hq_stats_order(const double *v, size_t n, size_t *order);
/* Average ranks, 1..n, ties sharing the mean of the ranks they span (R's
 * rank(ties.method = "average")). */
void hq_stats_ranks(const double *v, size_t n, double *rank);

/* Why a statistic is not defined; only HQ_STATS_OK rows carry numbers. */
enum hq_stats_status {
	HQ_STATS_OK,
	HQ_STATS_TOO_FEW,      /* fewer observations than the test needs */
	HQ_STATS_CONSTANT_X,   /* the first series (x, A) never changes */
	HQ_STATS_CONSTANT_Y,   /* the second (y, B) never changes */
	HQ_STATS_CONSTANT,     /* both groups are constant (Welch's t) */
	HQ_STATS_RANGE,        /* values so large their squares overflow */
};
/* "B is constant": a phrase for messages. */
const char *hq_stats_status_str(enum hq_stats_status s);

/* A correlation as R's cor.test() reports it, with the least-squares line
 * y = intercept + slope * x. p is two-sided from t with n - 2 df; the 95%
 * interval is Fisher's, tanh(atanh(r) +- qnorm(0.975) / sqrt(n - 3)), and
 * has_ci is 0 when n = 3 (R omits it then). A perfect correlation (|r| = 1
 * up to rounding) sets perfect, r = +-1, p = 0 and the interval to [r, r];
 * R reports the p of the rounding error there instead. Needs n >= 3. */
struct hq_stats_cor {
	size_t n;
	enum hq_stats_status status;
	double r, p, ci_low, ci_high, slope, intercept;
	int has_ci, perfect;
};
enum hq_stats_status hq_stats_pearson(const double *x, const double *y,
    size_t n, struct hq_stats_cor *c);
/* Spearman's rho: Pearson's r of the average ranks; p by the t
 * approximation (R: cor.test(method = "spearman", exact = FALSE)). Only r,
 * p and perfect are set; the interval and line are Pearson's business. */
enum hq_stats_status hq_stats_spearman(const double *x, const double *y,
    size_t n, struct hq_stats_cor *c);

/* Two groups compared as R's t.test(x, y, var.equal = FALSE) does: diff =
 * mean_x - mean_y, Welch's t, Welch-Satterthwaite df, two-sided p; and
 * Hedges' g = d * (1 - 3 / (4 (n_x + n_y) - 9)), d over the pooled (n - 1)
 * standard deviation. Needs 2 values in each group, not both constant. */
struct hq_stats_welch {
	size_t n_x, n_y;
	enum hq_stats_status status;
	double mean_x, mean_y, median_x, median_y, diff, t, df, p, g;
};
enum hq_stats_status hq_stats_welch(const double *x, size_t nx,
    const double *y, size_t ny, struct hq_stats_welch *w);

/* Benjamini-Hochberg adjusted p-values of m tests (R: p.adjust(p, "BH")).
 * adj may be p. */
void hq_stats_p_adjust_bh(const double *p, size_t m, double *adj);

/* ---- serial correlation ---------------------------------------------------
 *
 * Daily series carry over from day to day, so n days are worth fewer
 * independent observations and the p-values above, which assume
 * independence, come out too small. */

/* The lag-1 autocorrelation of a daily series: v[i] on day[i] (ascending,
 * each once), the days between them missing. Lag-1 neighbours are values
 * on consecutive days only; a gap breaks the chain. As R's
 * acf(x, na.action = na.pass)$acf[2] computes it on the series with the
 * missing days as NA: with d = v - mean(v),
 *   (sum of d[t] d[t+1] over the k consecutive pairs / (k + 1))
 *     / (sum of d^2 / n).
 * NaN when no two days are consecutive or v is constant. */
double hq_stats_acf1(const int64_t *day, const double *v, size_t n);
/* The effective number of independent pairs behind a correlation of two
 * AR(1) series whose lag-1 autocorrelations are r1 and r2 (Bretherton et
 * al. 1999, J Climate 12:1990): n (1 - r1 r2) / (1 + r1 r2), clamped to
 * [2, n]; n when r1 or r2 is NaN. */
double hq_stats_n_eff(size_t n, double r1, double r2);

#endif
