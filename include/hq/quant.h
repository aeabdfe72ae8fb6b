/*
 * quant — exact quantiles in bounded memory (type 7, as
 * hq_stats_quantile_sorted() of stats.h gives them over the same values
 * sorted).
 *
 * Values, each with a count, go into a table of distinct values. When a
 * pass over them has seen no more than limit distinct values (integer
 * heart rate, steps and glucose have a few hundred), the answers are exact
 * at once. Otherwise the caller streams the same values again, and again:
 * each pass narrows the ranges that hold the wanted order statistics
 * (first into bins, then the distinct values of the few bins that matter)
 * until they fit, whatever the values (not only integers). A limit of 0
 * holds every distinct value (for callers that hold one bucket's values
 * anyway) and always answers after one pass.
 *
 * hq_quant_new(): probabilities in [0, 1] (at most 2 * HQ_MAX_AGGS order
 * statistics are tracked). Memory: the table (16 bytes a distinct value,
 * at most twice limit slots) and 4096 counters per narrowed range.
 */
#ifndef HQ_QUANT_H
#define HQ_QUANT_H

#include <stddef.h>

struct hq_quant;

#define HQ_QUANT_LIMIT 65536

struct hq_quant *hq_quant_new(const double *probs, size_t n, long limit);
void hq_quant_free(struct hq_quant *qt);
/* Forget the values (a new bucket), keeping the memory. */
void hq_quant_reset(struct hq_quant *qt);
void hq_quant_add(struct hq_quant *qt, double v, long count);
/* The end of a pass: 1 when the answers are known, 0 when the caller must
 * stream the same values once more. */
int hq_quant_pass_done(struct hq_quant *qt);
/* The i-th probability's quantile (NaN for no values); after
 * hq_quant_pass_done() said 1. */
double hq_quant_value(const struct hq_quant *qt, size_t i);
/* p's quantile: hq_quant_value() where p is one of probs and the passes
 * are done, else any probability's quantile when the one pass held every
 * value (limit 0, or no more distinct values than the limit), else NaN. */
double hq_quant_of(struct hq_quant *qt, double p);

#endif
