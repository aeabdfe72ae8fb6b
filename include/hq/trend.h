/*
 * trend — is a daily series going up or down: the Theil–Sen slope with
 * Gilbert's interval, and Kendall's tau with its p (hq-report(1), trend
 * METRIC), checked against R (tests/data/trend/trend.R).
 *
 * Over n daily values v[i] on day numbers t[i] (strictly ascending, gaps
 * allowed), the N = n(n-1)/2 pairwise slopes (v_j - v_i) / (t_j - t_i),
 * i < j:
 *
 *   slope_week   7 x their median (R's median: the mean of the two middle
 *                ones when N is even)
 *   ci_low/high  7 x the sorted slopes at positions M1 = round((N - C)/2)
 *                and M2 = round((N + C)/2) + 1 (1-based, R's round: halves
 *                to even), C = qnorm(0.975) sqrt(Var(S)), Var(S) =
 *                [n(n-1)(2n+5) - sum over groups of u equal values of
 *                u(u-1)(2u+5)] / 18 (Gilbert 1987); NaN when a position
 *                falls outside 1..N (few days: n = 3 has none)
 *   tau, p       as R's cor.test(t, v, method = "kendall", exact = FALSE):
 *                tau-b, z = S / sqrt(Var(S)) without continuity correction
 *                (R's default, continuity = FALSE), p = 2 P(Z > |z|)
 *
 *   acf1, n_eff  for the caution hq-correlate also gives: the lag-1
 *                autocorrelation of the detrended values v - slope_day t
 *                (hq_stats_acf1: consecutive days only, as R's acf with
 *                na.pass), and the independent days they are worth,
 *                n (1 - r) / (1 + r) clamped to [2, n] when r > 0 (the
 *                variance of an AR(1) series' mean; n otherwise); serial
 *                when r > HQ_CORR_SERIAL_ACF and n_eff < HQ_CORR_SERIAL_RATIO
 *                n: then p is smaller than it should be
 *
 * Kendall's S is counted in O(n log n) (Knight 1966: a merge sort counts
 * the discordant pairs). The order statistics of the slopes are selected
 * without holding them: each pass recomputes every slope (in the same
 * floating-point operations, so the counts agree from pass to pass and
 * the value chosen is the very slope R sorts) and counts them into
 * HQ_TREND_BINS bins of the window still holding a wanted rank; the bin
 * holding it becomes the next window (its exact smallest and largest
 * slope), until at most HQ_TREND_KEEP slopes are left, which are kept and
 * selected. Memory is O(n) plus some 2 MB whatever n; 10 years of days
 * (6.7 M slopes) take three or four passes.
 */
#ifndef HQ_TREND_H
#define HQ_TREND_H

#include <stddef.h>
#include <stdint.h>

#include "hq/err.h"
#include "hq/stats.h"

#define HQ_TREND_MAX_N 100000      /* days: 5e9 slopes, some minutes */
#define HQ_TREND_MAX_ABS 1e150     /* |value|: past it, HQ_STATS_RANGE */
#define HQ_TREND_BINS 16384
#define HQ_TREND_KEEP 65536

struct hq_trend {
	size_t n;
	int64_t n_slopes;          /* N */
	enum hq_stats_status status; /* TOO_FEW below 3 values (R's p is NA
	                              * there: its var_S divides by n - 2);
	                              * CONSTANT_Y
	                              * when v never changes (tau, z, p NaN,
	                              * as R's NA; the slope is 0) */
	double slope_day;          /* the median slope, per day */
	double slope_week;         /* 7 x slope_day */
	double ci_low, ci_high;    /* per week; NaN outside 1..N */
	double ci_low_day, ci_high_day; /* the same slopes, per day */
	double var_s, c;           /* Gilbert's Var(S) and C */
	double m1, m2;             /* the positions M1 and M2 (1-based) */
	int64_t s;                 /* Kendall's S: concordant - discordant */
	double tau, z, p;
	double acf1, n_eff;        /* NaN, n: no consecutive days or constant */
	int serial;
};

/* The trend of v over days t. 0 (tr->status says whether there are
 * numbers), or -1 with e set when t is not strictly ascending, n is past
 * HQ_TREND_MAX_N or a value is not finite. */
int hq_trend(const int64_t *t, const double *v, size_t n, struct hq_trend *tr,
    struct hq_err *e);

/* The k[i]-th smallest (1-based, 1 <= k[i] <= N) of the pairwise slopes
 * of (t, v) into out[i], i < m (m at most 4), by the selection above. t
 * strictly ascending, n >= 2, values finite and within HQ_TREND_MAX_ABS. */
void hq_trend_slopes_kth(const int64_t *t, const double *v, size_t n,
    const int64_t *k, size_t m, double *out);

#endif
