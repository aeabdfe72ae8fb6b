/*
 * trend_out — hq-report trend METRIC: a metric's daily values, read as
 * hq-query METRIC --by day reads them (hq_daily_load: one code path for
 * dedup, nights and local days), through the trend engine (trend.h), as
 * one row: metric, from, to, n, slope_per_week, ci_low, ci_high, tau, p,
 * unit. A table (a terminal) adds one sentence under the row, with
 * hq-correlate's caution when the days are serially correlated
 * (hq_corr_serial_caution).
 *
 * Returns 0; 1 when there is nothing to show (no values in the range;
 * fewer than 3 days), e saying so; -1 with e set (an unknown metric, whose
 * message names the one it may have meant, is a usage error, exit 2, as
 * in every command).
 */
#ifndef HQ_TREND_OUT_H
#define HQ_TREND_OUT_H

#include <stdint.h>

#include "hq/buf.h"
#include "hq/daily.h"
#include "hq/err.h"
#include "hq/output.h"
#include "hq/trend.h"

/* Days [from_day, to_day] (INT64_MIN/INT64_MAX: open). */
int hq_trend_metric_out(const struct hq_daily_store *ds, const char *metric,
    int64_t from_day, int64_t to_day, struct hq_out *o, struct hq_err *e);

/* The sentence: "resting heart rate went up by 0.12 count/min a week
 * (95 % interval 0.05 to 0.2; Kendall's tau = 0.21, p = 0.001, n = 365
 * days, 2025-01-01 to 2025-12-31)." or "No clear trend in ...", and the
 * caution when tr->serial and p < 0.05. */
void hq_trend_sentence(struct hq_buf *b, const char *label, const char *unit,
    int64_t first, int64_t last, const struct hq_trend *tr);

/* text under a table, wrapped to its width (hq_term_wrap), after an
 * empty line: the sentence of trend and forecast. */
void hq_trend_footnote(struct hq_out *o, const char *text);

#endif
