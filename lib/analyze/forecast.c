#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/forecast.h"
#include "hq/stats.h"
#include "hq/time.h"

/* R's median(x): the mean of the two middle values when n is even (x
 * sorted in place). */
static double
median_r(double *x, size_t n)
{
	hq_stats_sort(x, n);
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

/* R's quantile(x, p, type = 7) of sorted x, in R's operations: h =
 * (n - 1) p, (1 - g) x[lo] + g x[hi], x[lo] when the two are equal. */
static double
quantile7(const double *x, size_t n, double p)
{
	double h = (double)(n - 1) * p, lo = floor(h), g = h - lo;
	size_t i = (size_t)lo, j = (size_t)ceil(h);

	if (x[j] == x[i])
		return x[i];
	return (1 - g) * x[i] + g * x[j];
}

int
hq_forecast_fit(const int64_t *t, const double *v, size_t n,
    struct hq_forecast *f, struct hq_err *e)
{
	double *r;

	memset(f, 0, sizeof *f);
	if (n < HQ_FORECAST_MIN_DAYS) {
		hq_err_set(e, "a forecast needs at least %d days of values, there "
		    "are %zu", HQ_FORECAST_MIN_DAYS, n);
		return 1;
	}
	if (hq_trend(t, v, n, &f->tr, e))
		return -1;
	if (f->tr.status == HQ_STATS_RANGE) {
		hq_err_set(e, "the values are too large for a forecast");
		return 1;
	}
	f->first = t[0];
	f->last = t[n - 1];
	f->b = f->tr.slope_day;
	f->b_lo = f->tr.ci_low_day;
	f->b_hi = f->tr.ci_high_day;
	r = hq_xmalloc(n * sizeof *r);
	for (size_t i = 0; i < n; i++)
		r[i] = (double)t[i];
	f->tm = median_r(r, n);
	for (size_t i = 0; i < n; i++)
		r[i] = v[i] - f->b * (double)t[i];
	f->a = median_r(r, n);
	for (size_t i = 0; i < n; i++)
		r[i] = v[i] - (f->a + f->b * (double)t[i]);
	hq_stats_sort(r, n);
	f->q_lo = quantile7(r, n, 0.025);
	f->q_hi = quantile7(r, n, 0.975);
	free(r);
	return 0;
}

void
hq_forecast_at(const struct hq_forecast *f, int64_t d, double *value,
    double *low, double *high)
{
	double mid = f->a + f->b * f->tm;
	double lo = mid + f->b_lo * ((double)d - f->tm);
	double hi = mid + f->b_hi * ((double)d - f->tm);

	*value = f->a + f->b * (double)d;
	*low = (lo < hi ? lo : hi) + f->q_lo;
	*high = (lo < hi ? hi : lo) + f->q_hi;
}

/* ceil(x) as a day when it is a day within reach of the last, else 0. */
static int
reach_day(const struct hq_forecast *f, double x, int64_t *day)
{
	if (!isfinite(x) || x - (double)f->last > HQ_FORECAST_MAX_REACH ||
	    (double)f->last - x > HQ_FORECAST_MAX_REACH)
		return 0;
	*day = (int64_t)ceil(x);
	return 1;
}

void
hq_forecast_reach(const struct hq_forecast *f, double target,
    int64_t day[3], int has[3])
{
	double mid = f->a + f->b * f->tm;
	double se[2];      /* the earliest and latest edge: slope, offset */
	double qe[2];

	has[0] = has[1] = has[2] = 0;
	if (!(f->b != 0) || !reach_day(f, (target - f->a) / f->b, &day[0]) ||
	    day[0] <= f->last)
		return;
	has[0] = 1;
	if (f->b < 0) {
		se[0] = f->b_lo, qe[0] = f->q_lo;
		se[1] = f->b_hi, qe[1] = f->q_hi;
	} else {
		se[0] = f->b_hi, qe[0] = f->q_hi;
		se[1] = f->b_lo, qe[1] = f->q_lo;
	}
	for (int i = 0; i < 2; i++)
		if (se[i] != 0 && (se[i] < 0) == (f->b < 0))
			has[i + 1] = reach_day(f, f->tm + (target - qe[i] - mid) / se[i],
			    &day[i + 1]);
}

int
hq_forecast_parse_ahead(const char *s, int64_t last, int64_t *days,
    struct hq_err *e)
{
	char *end;
	long n;
	int y, m, d;

	n = strtol(s, &end, 10);
	if (end == s || !*end || end[1] || !strchr("dwmy", *end) || n < 1 ||
	    n > 100000) {
		if (end != s && n == 0)
			hq_err_set(e, "--ahead %s: a forecast reaches at least one day "
			    "ahead", s);
		else
			hq_err_set(e, "--ahead %s: a number of days, weeks, months or "
			    "years: 30d, 8w, 3m, 1y", s);
		return -1;
	}
	switch (*end) {
	case 'd': *days = n; break;
	case 'w': *days = 7 * n; break;
	default:
		hq_time_civil_from_days(last, &y, &m, &d);
		m += *end == 'm' ? (int)n : 12 * (int)n;
		y += (m - 1) / 12;
		m = (m - 1) % 12 + 1;
		if (d > hq_time_days_in_month(y, m))
			d = hq_time_days_in_month(y, m);
		*days = hq_time_days_from_civil(y, m, d) - last;
	}
	if (*days > HQ_FORECAST_MAX_AHEAD) {
		hq_err_set(e, "--ahead %s: a forecast reaches at most two years "
		    "ahead (%d days)", s, HQ_FORECAST_MAX_AHEAD);
		return -1;
	}
	return 0;
}
