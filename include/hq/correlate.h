/*
 * correlate — does one thing move with another? Daily series (daily.h),
 * paired by day, and the statistics of the pairs (stats.h): hq-correlate's
 * engine.
 *
 * An operand is a metric with an optional daily aggregate ("glucose.max",
 * "steps"), loaded from the store (hq_daily_load), or a file of hq-query
 * day rows ("-" is stdin; hq_daily_read), whose numeric fields (max, n...)
 * are kept for conditions that name the file's metric.
 *
 * Pairing: A on day D with B on day D + lag. The night after D (--night)
 * is, for a sleep metric, the night dated D + 1 (lag 1); for another
 * metric, B's samples from 18:00 on D to 12:00 on D + 1 (query.h's day
 * windows), keyed by D and reported as lag 1.
 *
 * Conditions (--when) are hq-query's, evaluated on day D over a day
 * source (select.h) that reads the files given and else the store; a day
 * on which a condition's metric has no value is in neither group.
 *
 * Memory: pairs, groups and rankings own their arrays (their _free).
 */
#ifndef HQ_CORRELATE_H
#define HQ_CORRELATE_H

#include <stddef.h>
#include <stdint.h>

#include <stdio.h>

#include "hq/buf.h"
#include "hq/daily.h"
#include "hq/err.h"
#include "hq/expr.h"
#include "hq/output.h"
#include "hq/select.h"
#include "hq/stats.h"
#include "hq/store.h"

/* Whether an operand names a file: "-", a path with a '/', or a name
 * ending in .jsonl or .json (write ./name for any other file). */
int hq_corr_is_file(const char *operand);

/* How a loaded B pairs: *shift is added to A's day to find B's (0 for
 * night windows, which are keyed by D), *reported is the row's lag (the
 * days B follows A: 1 for any night). */
void hq_corr_lag(const struct hq_daily *b, int lag, int night,
    int *reported, int *shift);

/* ---- pairs ------------------------------------------------------------ */

struct hq_corr_pairs {
	int64_t *days;         /* A's day of each pair */
	double *a, *b;
	size_t n;
};
/* A's days in [span.from_day, span.to_day] that have a B on day + shift. */
void hq_corr_pair(const struct hq_daily *a,
    const struct hq_daily *b, int shift, struct hq_daily_span span,
    struct hq_corr_pairs *p);
void hq_corr_pairs_free(struct hq_corr_pairs *p);

/* What a pair row reports (hq-correlate(1), ROWS: n, r, p, ci, rho, rho_p, slope...). */
struct hq_corr_result {
	size_t n;
	int64_t first, last;        /* the first and last of A's days */
	struct hq_stats_cor pearson, spearman;
	double p_adj;               /* --against: BH over the tested; else NaN */
	double sd_a;                /* A's standard deviation (the slope's step) */
	/* lag-1 autocorrelations of A's and B's values over the paired days
	 * (consecutive days only; NaN when none), and the effective number
	 * of independent pairs they leave (hq_stats_n_eff). Not in the rows:
	 * hq-correlate(1) fixes their fields; the sentences say it. */
	double acf_a, acf_b, n_eff;
	enum hq_stats_status status;
};
/* The statistics of pairs: status HQ_STATS_OK, or why they are
 * undefined (a constant series, fewer than 3 pairs). */
enum hq_stats_status hq_corr_stats(const struct hq_corr_pairs *p,
    struct hq_corr_result *r);

/* When the sentences warn that the days are not independent: n_eff below
 * HQ_CORR_SERIAL_RATIO of n, and both series' lag-1 autocorrelations
 * above HQ_CORR_SERIAL_ACF. */
#define HQ_CORR_SERIAL_RATIO 0.7
#define HQ_CORR_SERIAL_ACF 0.2
int hq_corr_serial(const struct hq_corr_result *r);

/* ---- two groups (--when) ----------------------------------------------- */

struct hq_corr_groups {
	struct hq_corr_pairs with, without;   /* pairs by whether it held */
	size_t undefined;      /* A's days paired but the condition had no value */
	/* Over the split days in day order: the lag-1 autocorrelations of the
	 * condition (1 held, 0 not) and of B's values, and the independent
	 * days they leave (hq_stats_n_eff, as for pairs: comparing two
	 * groups' means is, in effect, regressing B on the condition). Days a condition
	 * holds tend to come in runs, and so do B's values; the t-test
	 * assumes neither. */
	double acf_cond, acf_b, n_eff;
};
/* Split the pairs of A and B by the conditions on A's day. */
void hq_corr_split(const struct hq_corr_pairs *p,
    const struct hq_select_days *cond, struct hq_corr_groups *g);
void hq_corr_groups_free(struct hq_corr_groups *g);
/* Whether a --when sentence warns that its days are not independent: as
 * hq_corr_serial() for pairs. */
int hq_corr_groups_serial(const struct hq_corr_groups *g);

/* A day source for conditions: a condition naming a file's metric (by
 * its rows' name or any alias of it) reads that file's fields; any other
 * metric is read from the store as hq-query's --when reads it. The files
 * and store are borrowed; hq_corr_daysrc_free. */
void hq_corr_daysrc(struct hq_select_daysrc *src,
    struct hq_daily *const *files, size_t nfiles,
    const struct hq_daily_store *cs, const struct hq_select *range);
void hq_corr_daysrc_free(struct hq_select_daysrc *src);

/* ---- --against ---------------------------------------------------------- */

/* Adjust each result's p (rho_p, or p with pearson) by Benjamini-Hochberg
 * over all of them, and sort them by |rho| (or |r|) descending, ties by
 * index. idx[i] is the position result i had (the caller's series). */
void hq_corr_rank(struct hq_corr_result *r, size_t *idx, size_t n,
    int pearson);

/* Whether a metric stored under identifier is of a's family (--against
 * leaves it out): the same identifier (sleep and its stages, in bed,
 * awake; heart_rate and heart_rate.max). */
int hq_corr_same_family(const struct hq_daily *a, const char *identifier);

/* ---- the questions, run ------------------------------------------------------ */

/* --when: B paired with A's days (lag, or the night after), split by the
 * conditions on A's day, read from the files among a and b and from the
 * store. 0, or -1 with e set (a condition's unknown metric or field). */
int hq_corr_when(const struct hq_daily_store *cs, struct hq_daily *a,
    struct hq_daily *b, struct hq_expr *const *conds, size_t nconds,
    struct hq_daily_span span, int lag, int night, struct hq_corr_groups *g,
    struct hq_err *e);

/* --against: A paired with each metric against names ("all": every metric
 * in the store; else a comma-separated list), leaving out A's family and
 * those with fewer than min_n pairs or no defined statistic; ranked
 * (hq_corr_rank). b[i] names result r[i] (its days are not kept). */
struct hq_corr_ranking {
	struct hq_daily *b;
	struct hq_corr_result *r;
	size_t n;                   /* tested */
	int lag;                    /* as rows report it */
	char **names;               /* the candidates */
	size_t nnames;
};
int hq_corr_against(const struct hq_daily_store *cs, const struct hq_daily *a,
    const char *against, struct hq_daily_span span, int lag, int night,
    long min_n, int pearson, struct hq_corr_ranking *rk, struct hq_err *e);
void hq_corr_ranking_free(struct hq_corr_ranking *rk);

/* ---- rows and charts --------------------------------------------------------- */

/* A pair row (hq-correlate(1)'s fields); with tested >= 0, also tested and p_adj. */
void hq_corr_row_pair(struct hq_out *o, const struct hq_daily *a,
    const struct hq_daily *b, int lag, const struct hq_corr_result *r,
    long tested);
/* --against as a table keeps what fits 80 columns: b, b_agg, n, rho,
 * rho_p, r, p_adj. */
void hq_corr_row_ranked(struct hq_out *o, const struct hq_daily *b,
    const struct hq_corr_result *r);
/* A row of --when. */
void hq_corr_row_groups(struct hq_out *o, const struct hq_daily *a,
    const struct hq_daily *b, const char *condition, int lag,
    const struct hq_stats_welch *w);
/* The pairs as a scatter with the least-squares line; the groups as two
 * strips with their means. 0, or -1 on a write error. */
int hq_corr_svg_pairs(FILE *fp, const struct hq_daily *a,
    const struct hq_daily *b, int lag, int night,
    const struct hq_corr_pairs *p, const struct hq_corr_result *r, int pearson);
int hq_corr_svg_groups(FILE *fp, const struct hq_daily *b,
    const char *condition, int lag, int night, const struct hq_corr_groups *g,
    const struct hq_stats_welch *w);

/* ---- words --------------------------------------------------------------- */

/* When B is taken, relative to A's day: "the night after", "the same
 * day", "the next day", "2 days later", "the day before". */
void hq_corr_timing(int lag, int night, char *buf, size_t n);
/* "blood glucose (max)": a series as a sentence names it. */
void hq_corr_label(const struct hq_daily *s, char *buf, size_t n);
/* One plain sentence about a pair row, its last word a period:
 * direction, size with units, p, n, and that it is an association; for a
 * link between serially correlated series (hq_corr_serial), that the
 * days are not independent and about how many independent days n is
 * worth. */
void hq_corr_sentence_pair(struct hq_buf *b, const struct hq_daily *a,
    const struct hq_daily *bs, int lag, int night,
    const struct hq_corr_result *r, int pearson);
/* The same for two groups: the difference in B's unit, means and
 * medians, p, g, n of each; for serially correlated days
 * (hq_corr_groups_serial), the same warning as for pairs. */
void hq_corr_sentence_groups(struct hq_buf *b, const struct hq_daily *bs,
    const char *condition, int lag, int night,
    const struct hq_corr_groups *g, const struct hq_stats_welch *w);
/* One of --against's rows, ranked: "2. resting heart rate the same day:
 * lower with more sleep, 0.8 count/min per 1 h (rho = -0.35, p = ...,
 * adjusted ..., n = 290 days)." The caller says once that these are
 * associations, and how many were tested. A link of serially correlated
 * series (hq_corr_serial) adds ", worth about 60 independent" to n and
 * returns 1 (else 0); then the caller adds hq_corr_serial_note() once. */
int hq_corr_sentence_against(struct hq_buf *b, size_t rank,
    const struct hq_daily *a, const struct hq_daily *bs, int lag,
    int night, const struct hq_corr_result *r, int pearson);
/* " The days are not independent (why), so p is smaller than it should
 * be: the n days are worth about n_eff independent ones." (a space
 * first): the caution of a serially correlated series, said once in
 * hq-correlate's sentences and hq-report trend's. */
void hq_corr_serial_caution(struct hq_buf *b, const char *why, size_t n,
    double n_eff);
/* p as the sentences say it: "= 0.031", "= 2.0e-05", "< 1e-300". */
void hq_corr_format_p(double p, char *buf, size_t n);
/* About two significant digits: "0.12", "3.4", "120". */
void hq_corr_format2(double v, char *buf, size_t n);
/* The line after a ranking in which some n is "worth about" fewer days. */
void hq_corr_serial_note(struct hq_buf *b);
/* Text wrapped at width columns, written to fp: a line the wrapping
 * starts is indented two columns; "p = 0.0069" is never broken. */
void hq_corr_wrap(FILE *fp, const char *text, size_t width);

#endif
