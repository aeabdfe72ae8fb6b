/*
 * forecast_out — hq-report forecast METRIC: the metric's daily values,
 * read as hq-report trend reads them (hq_daily_load), fitted
 * (forecast.h) and continued: one row a week after the last day of data
 * to --ahead (and one on its last day when that is not a whole week):
 * date, value, low, high, unit; with --target also target, reach,
 * reach_earliest, reach_latest (days, null: see forecast.h). A table adds
 * one sentence ("At -0.25 kg/week you reach 72 kg around 10 Feb 2027,
 * between 20 Jan and 28 Mar."); an SVG draws the past days, the line and
 * its band.
 *
 * Returns 0; 1 (fewer than 14 days, e saying so); 2 (a usage error:
 * --ahead, --target, already said); -1 with e set (an unknown metric).
 */
#ifndef HQ_FORECAST_OUT_H
#define HQ_FORECAST_OUT_H

#include <stdint.h>
#include <stdio.h>

#include "hq/daily.h"
#include "hq/err.h"
#include "hq/output.h"

struct hq_forecast_ask {
	const char *metric;
	int64_t from_day, to_day;    /* INT64_MIN/INT64_MAX: open */
	const char *ahead;           /* NULL: 8w */
	const char *target;          /* NULL: none; "72", "72 kg" */
	FILE *svg;                   /* non-NULL: draw instead of rows */
};

int hq_forecast_out(const struct hq_daily_store *ds,
    const struct hq_forecast_ask *a, struct hq_out *o, struct hq_err *e);

#endif
