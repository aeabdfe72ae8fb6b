/*
 * forecast — a daily series' trend line continued, with an honest band
 * (hq-report(1), forecast): the line of hq-report trend (trend.h) and the
 * spread of the days about it.
 *
 * Over n >= HQ_FORECAST_MIN_DAYS daily values v[i] on days t[i]:
 *
 *   b            the Theil–Sen slope per day (trend.h's slope_day)
 *   a            Conover's intercept, the median of v_i - b t_i (R's
 *                median: the mean of the two middle ones when n is even)
 *   b_lo, b_hi   the ends of the slope's interval per day (Gilbert's, as
 *                trend.h's ci_low and ci_high, not times 7)
 *   tm           the median of the days t_i
 *   q_lo, q_hi   the 2.5 % and 97.5 % quantiles (R's type 7) of the
 *                residuals v_i - (a + b t_i)
 *
 * On a day d: value = a + b d; the lines through (tm, a + b tm) with
 * slopes b_lo and b_hi, lo(d) = a + b tm + b_lo (d - tm) and hi(d) the
 * same with b_hi; low = min(lo(d), hi(d)) + q_lo, high = max(lo(d),
 * hi(d)) + q_hi.
 *
 * Reaching a target V: the line reaches it on the day
 * ceil((V - a) / b), given when b is not 0 and that day is after the
 * last day of data (else the line points away: the series passed V
 * before, or is flat). The band's edges past tm are lo + q_lo and
 * hi + q_hi; the edge ahead in the line's direction (the low edge of a
 * falling line, the high one of a rising line) gives the earliest day,
 * the other the latest, each ceil of where it meets V, and each null
 * when its slope is 0 or of the other sign (the interval holds 0: the
 * band may never get there). A day more than HQ_FORECAST_MAX_REACH days
 * after the last is null too. The earliest day may be on or before the
 * last day: the band holds V already.
 *
 * Memory is trend's: O(n) and the selection's bins, never the N slopes.
 */
#ifndef HQ_FORECAST_H
#define HQ_FORECAST_H

#include <stddef.h>
#include <stdint.h>

#include "hq/err.h"
#include "hq/trend.h"

#define HQ_FORECAST_MIN_DAYS 14
#define HQ_FORECAST_MAX_AHEAD 731     /* days: two years */
#define HQ_FORECAST_MAX_REACH 36525   /* days: a century */

struct hq_forecast {
	struct hq_trend tr;
	double b, a, b_lo, b_hi, tm, q_lo, q_hi;
	int64_t first, last;          /* the first and last day of data */
};

/* The fit over days t (ascending, each once) and values v. 0; 1 with e
 * set when n < HQ_FORECAST_MIN_DAYS or values are out of trend's range;
 * -1 with e set (as hq_trend). */
int hq_forecast_fit(const int64_t *t, const double *v, size_t n,
    struct hq_forecast *f, struct hq_err *e);

/* The line and the band on day d. */
void hq_forecast_at(const struct hq_forecast *f, int64_t d, double *value,
    double *low, double *high);

/* The days the line, the earliest and the latest edge reach target;
 * has[i] 0 where null (see above). */
void hq_forecast_reach(const struct hq_forecast *f, double target,
    int64_t day[3], int has[3]);

/* --ahead: "8w", "30d", "3m", "1y" as a number of days after last (a
 * month or year is a calendar one from the last day). 0, or -1 with e
 * set (0, more than HQ_FORECAST_MAX_AHEAD days, not a number). */
int hq_forecast_parse_ahead(const char *s, int64_t last, int64_t *days,
    struct hq_err *e);

#endif
