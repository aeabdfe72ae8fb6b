#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/correlate.h"
#include "hq/forecast.h"
#include "hq/forecast_out.h"
#include "hq/rowdesc.h"
#include "hq/svg.h"
#include "hq/time.h"
#include "hq/trend_out.h"

struct fc_row {
	int64_t day;
	double value, low, high, target;
	const char *unit;
	int64_t reach[3];
	int has[3];
};

static int
reach_text(const struct fc_row *r, int i, char *buf, size_t n)
{
	if (!r->has[i])
		return -1;
	hq_time_format_day(r->reach[i], buf, n);
	return 0;
}

static int
reach0(const void *row, char *buf, size_t n)
{
	return reach_text(row, 0, buf, n);
}

static int
reach1(const void *row, char *buf, size_t n)
{
	return reach_text(row, 1, buf, n);
}

static int
reach2(const void *row, char *buf, size_t n)
{
	return reach_text(row, 2, buf, n);
}

#define FC(k, t, f) HQ_COL_AT(k, t, struct fc_row, f)
#define FC_COLS \
	{ FC("date", HQ_COL_DAY, day) }, \
	{ FC("value", HQ_COL_NUM, value), .in = HQ_COL_DATA }, \
	{ FC("value", HQ_COL_SHORT, value), .in = HQ_COL_TABLE }, \
	{ FC("low", HQ_COL_NUM, low), .in = HQ_COL_DATA }, \
	{ FC("low", HQ_COL_SHORT, low), .in = HQ_COL_TABLE }, \
	{ FC("high", HQ_COL_NUM, high), .in = HQ_COL_DATA }, \
	{ FC("high", HQ_COL_SHORT, high), .in = HQ_COL_TABLE }, \
	{ FC("unit", HQ_COL_STR0, unit) }
static const struct hq_col fc_cols[] = {
	FC_COLS,
	{ .key = NULL },
};
static const struct hq_col fc_target_cols[] = {
	FC_COLS,
	{ FC("target", HQ_COL_NUM, target), .in = HQ_COL_DATA },
	{ HQ_COL_FN("reach", reach0), .in = HQ_COL_DATA },
	{ HQ_COL_FN("reach_earliest", reach1), .in = HQ_COL_DATA },
	{ HQ_COL_FN("reach_latest", reach2), .in = HQ_COL_DATA },
	{ .key = NULL },
};

/* --target: a number, its unit after it (or none). 0, or 2 said. */
static int
parse_target(const char *s, const char *unit, const char *metric,
    double *v, struct hq_err *e)
{
	char *end;

	*v = strtod(s, &end);
	if (end == s || !isfinite(*v)) {
		hq_err_set(e, "--target %s: a number in %s's unit (%s)", s, metric,
		    unit);
		return -1;
	}
	while (*end == ' ')
		end++;
	if (*end && strcmp(end, unit)) {
		hq_err_set(e, "--target %s: %s is in %s, not %s", s, metric, unit,
		    end);
		return -1;
	}
	return 0;
}

/* "10 Feb 2027"; without the year when year is that day's. */
static void
day_words(int64_t day, int year, char *buf, size_t n)
{
	static const char *mon[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
	    "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	int y, m, d;

	hq_time_civil_from_days(day, &y, &m, &d);
	if (y == year)
		snprintf(buf, n, "%d %s", d, mon[m - 1]);
	else
		snprintf(buf, n, "%d %s %d", d, mon[m - 1], y);
}

static void
sentence(struct hq_buf *b, const struct hq_daily *s, const struct hq_forecast *f,
    const struct fc_row *last, const char *target)
{
	char sl[80], v[32], lo[32], hi[32], d[32], d1[32], d2[32], label[160];
	const char *u = strcmp(s->unit, "count") ? s->unit : "";
	const char *sp = u[0] ? " " : "";
	int y, m, dd;

	hq_corr_format2(7 * f->b, sl, sizeof sl);
	snprintf(sl + strlen(sl), sizeof sl - strlen(sl), "%s%s%s", sp, u,
	    u[0] && !strchr(u, '/') ? "/week" : " a week");
	hq_corr_label(s, label, sizeof label);
	if (!target) {
		hq_format_short(last->value, v, sizeof v);
		hq_format_short(last->low, lo, sizeof lo);
		hq_format_short(last->high, hi, sizeof hi);
		day_words(last->day, 0, d, sizeof d);
		hq_buf_printf(b, "At %s, %s heads for %s%s%s by %s "
		    "(band %s to %s%s%s).", sl, label, v, sp, u, d, lo, hi, sp,
		    u);
		return;
	}
	hq_format_short(last->target, v, sizeof v);
	if (!last->has[0]) {
		double now = f->a + f->b * (double)f->last;
		hq_format_short(now, lo, sizeof lo);
		hq_buf_printf(b, "At %s, %s does not head for %s%s%s: "
		    "its line is at %s%s%s and %s.", sl, label, v, sp, u, lo,
		    sp, u, f->b == 0 ? "flat" : "moving away from it");
		return;
	}
	hq_time_civil_from_days(last->reach[0], &y, &m, &dd);
	day_words(last->reach[0], 0, d, sizeof d);
	hq_buf_printf(b, "At %s you reach %s%s%s around %s", sl, v, sp, u, d);
	int held = last->has[1] && last->reach[1] <= f->last;
	if (last->has[2])
		day_words(last->reach[2], y, d2, sizeof d2);
	if (last->has[1])
		day_words(last->reach[1], y, d1, sizeof d1);
	if (held && last->has[2])
		hq_buf_printf(b, "; the band holds it already, its far edge gets "
		    "there by %s.", d2);
	else if (last->has[1] && last->has[2])
		hq_buf_printf(b, ", between %s and %s.", d1, d2);
	else if (held)
		hq_buf_printf(b, "; the band holds it already, but the slope's "
		    "interval holds 0: perhaps never.");
	else if (last->has[1])
		hq_buf_printf(b, ", from %s at the earliest, but the slope's "
		    "interval holds 0: perhaps never.", d1);
	else
		hq_buf_printf(b, "; the slope's interval holds 0: perhaps never.");
}

/* The past days as points, the line and its band day by day from the
 * last day of data. */
static int
draw(FILE *fp, const struct hq_daily *s, const struct hq_forecast *f,
    int64_t ahead)
{
	struct hq_chart_point *past, *next;
	size_t nrows;
	double *lo, *hi;
	struct hq_chart_series ser[2];
	struct hq_chart_mark mark;
	char title[200], label[160];
	int rc;

	past = hq_xmalloc(s->n * sizeof *past);
	for (size_t i = 0; i < s->n; i++)
		past[i] = (struct hq_chart_point){ hq_time_day_start(s->days[i]),
		    hq_time_day_start(s->days[i] + 1), s->v[i] };
	nrows = (size_t)ahead + 1;
	next = hq_xmalloc(nrows * sizeof *next);
	lo = hq_xmalloc(nrows * sizeof *lo);
	hi = hq_xmalloc(nrows * sizeof *hi);
	for (size_t i = 0; i < nrows; i++) {
		int64_t d = f->last + (int64_t)i;
		double v;
		hq_forecast_at(f, d, &v, &lo[i], &hi[i]);
		next[i] = (struct hq_chart_point){ hq_time_day_start(d),
		    hq_time_day_start(d + 1), v };
	}
	hq_corr_label(s, label, sizeof label);
	snprintf(title, sizeof title, "%s: forecast with its band", label);
	memset(ser, 0, sizeof ser);
	ser[0] = (struct hq_chart_series){ .name = s->metric, .unit = s->unit,
	    .pts = past, .n = s->n };
	ser[1] = (struct hq_chart_series){ .name = "forecast", .unit = s->unit,
	    .pts = next, .n = nrows, .band_lo = lo, .band_hi = hi,
	    .connect = 1 };
	mark = (struct hq_chart_mark){ hq_time_day_start(f->last + 1),
	    "last day of data" };
	rc = hq_svg_write(fp, &(struct hq_chart){ .title = title, .by = HQ_DAY,
	    .series = ser, .nseries = 2, .marks = &mark, .nmarks = 1 });
	free(past);
	free(next);
	free(lo);
	free(hi);
	return rc;
}

int
hq_forecast_out(const struct hq_daily_store *ds,
    const struct hq_forecast_ask *a, struct hq_out *o, struct hq_err *e)
{
	struct hq_daily s;
	struct hq_daily_span span = { a->from_day, a->to_day };
	struct hq_forecast f;
	struct fc_row *rows = NULL;
	int64_t ahead;
	double target = NAN;
	size_t nrows = 0;
	int rc;

	if (hq_daily_load(ds, a->metric, span, 0, 0, &s, e))
		return -1;
	if ((rc = hq_forecast_fit(s.days, s.v, s.n, &f, e)) != 0) {
		if (rc > 0)
			hq_err_set(e, "%s has %zu days of values%s: a forecast needs at "
			    "least %d", s.metric, s.n, a->from_day != INT64_MIN ||
			    a->to_day != INT64_MAX ? " in the range" : "",
			    HQ_FORECAST_MIN_DAYS);
		goto out;
	}
	if (hq_forecast_parse_ahead(a->ahead ? a->ahead : "8w", f.last, &ahead,
	    e) || (a->target && parse_target(a->target, s.unit, s.metric, &target,
	    e))) {
		rc = 2;
		goto out;
	}
	rows = hq_xcalloc((size_t)ahead / 7 + 2, sizeof *rows);
	for (int64_t k = 7; ; k += 7) {
		int64_t d = k < ahead ? k : ahead;
		struct fc_row *r = &rows[nrows++];
		r->day = f.last + d;
		r->unit = s.unit;
		r->target = target;
		hq_forecast_at(&f, r->day, &r->value, &r->low, &r->high);
		if (a->target)
			hq_forecast_reach(&f, target, r->reach, r->has);
		if (d == ahead)
			break;
	}
	if (a->svg) {
		if (draw(a->svg, &s, &f, ahead)) {
			hq_err_set(e, "write error");
			rc = -1;
		}
		goto out;
	}
	hq_out_fit_cols(o, a->target ? fc_target_cols : fc_cols);
	for (size_t i = 0; i < nrows; i++)
		hq_out_row(o, a->target ? fc_target_cols : fc_cols, &rows[i]);
	if (hq_out_format(o) == HQ_FMT_TABLE) {
		struct hq_buf b = { 0 };
		sentence(&b, &s, &f, &rows[nrows - 1], a->target);
		hq_trend_footnote(o, b.data);
		hq_buf_free(&b);
	}
out:
	free(rows);
	hq_daily_free(&s);
	return rc;
}
