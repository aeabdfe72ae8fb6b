/*
 * svg_axis — the axes of the charts (svg_int.h): round steps and tick
 * labels for values (y), and for time (x) ticks at whole hours, days,
 * weeks, months or years as the span needs them, labelled once per day,
 * month or year as the reader needs.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/svg.h"
#include "hq/svg_int.h"

/* ---- numbers on the y axis ------------------------------------------- */

/* A round step near range/target: 1, 2, 2.5 or 5 times a power of ten. */
static double
nice_step(double range, int target)
{
	double raw = range / target, mag = pow(10, floor(log10(raw)));
	double norm = raw / mag;

	if (norm < 1.5)
		return mag;
	if (norm < 2.25)
		return 2 * mag;
	if (norm < 3.5)
		return 2.5 * mag;
	if (norm < 7.5)
		return 5 * mag;
	return 10 * mag;
}

void
hq_svg_yscale_fit(struct yscale *y, double min, double max, int bars, int ticks)
{
	int nonneg = 0;

	if (isnan(min)) {             /* no values at all */
		min = 0;
		max = 1;
	}
	if (bars) {
		min = min > 0 ? 0 : min;
		max = max < 0 ? 0 : max;
	} else if (max > min) {
		/* Air above and below a line, so it never runs along an edge;
		 * values that are none of them negative (hours asleep) never
		 * get an axis below zero. */
		double pad = (max - min) * 0.04;
		nonneg = min >= 0;
		min -= pad;
		max += pad;
		if (nonneg && min < 0)
			min = 0;
	}
	if (max - min < 1e-12 * (fabs(max) + 1)) {
		/* All values equal (for bars: all zero): centre them in a
		 * band around the value. */
		double pad = fabs(max) > 0 ? fabs(max) * 0.1 : 1;
		if (bars) {
			max = 1;
		} else {
			min -= pad;
			max += pad;
		}
	}
	y->step = nice_step(max - min, ticks);
	y->lo = floor(min / y->step + 1e-9) * y->step;
	if (nonneg && y->lo < 0)
		y->lo = 0;
	y->hi = ceil(max / y->step - 1e-9) * y->step;
	if (y->hi <= y->lo)
		y->hi = y->lo + y->step;
}

double
hq_svg_ypx(const struct yscale *y, double v)
{
	return y->bottom - (v - y->lo) / (y->hi - y->lo) * (y->bottom - y->top);
}

/* 12,500 or 12.5k or 0.25: as many decimals as the step needs. */
void
hq_svg_fmt_tick(double v, const struct yscale *y, char *buf, size_t n)
{
	double maxabs = fmax(fabs(y->lo), fabs(y->hi)), scale = 1, s;
	const char *suffix = "";
	int dec = 0;

	if (maxabs >= 1e7 && y->step >= 1e5) {
		scale = 1e6;
		suffix = "M";
	} else if (maxabs >= 1e5 && y->step >= 100) {
		scale = 1e3;
		suffix = "k";
	}
	/* As many decimals as the step needs, the same on every tick. */
	s = y->step / scale;
	int maxdec = 0;
	while (maxdec < 6 && fabs(s * pow(10, maxdec) - round(s * pow(10, maxdec))) > 1e-6)
		maxdec++;
	v /= scale;
	dec = maxdec;
	if (fabs(v) < y->step / scale * 1e-6) {
		snprintf(buf, n, "0");    /* not "-0", "0k" or "0.0" */
		return;
	}
	if (scale == 1 && dec == 0 && fabs(v) >= 1000) {
		/* thousands separators for plain integers */
		char digits[32];
		size_t len, o = 0;
		snprintf(digits, sizeof digits, "%.0f", fabs(v));
		len = strlen(digits);
		if (v < 0 && o + 4 < n) {
			memcpy(buf, "\xe2\x88\x92", 3);   /* U+2212 minus */
			o = 3;
		}
		for (size_t i = 0; i < len && o + 2 < n; i++) {
			if (i && (len - i) % 3 == 0)
				buf[o++] = ',';
			buf[o++] = digits[i];
		}
		buf[o] = '\0';
		return;
	}
	if (v < 0)
		snprintf(buf, n, "\xe2\x88\x92%.*f%s", dec, -v, suffix);
	else
		snprintf(buf, n, "%.*f%s", dec, v, suffix);
}

/* ---- dates on the x axis ----------------------------------------------- */

enum tick_unit { T_MINUTE, T_HOUR, T_DAY, T_WEEK, T_MONTH, T_YEAR };

static const struct tick_level {
	enum tick_unit unit;
	int step;
	double seconds;       /* about how long one step is */
	int chars;            /* widest label, in characters */
} levels[] = {
	{ T_MINUTE, 1, 60, 5 }, { T_MINUTE, 5, 300, 5 }, { T_MINUTE, 10, 600, 5 },
	{ T_MINUTE, 15, 900, 5 }, { T_MINUTE, 30, 1800, 6 },
	{ T_HOUR, 1, 3600, 6 }, { T_HOUR, 2, 7200, 6 }, { T_HOUR, 3, 10800, 6 },
	{ T_HOUR, 6, 21600, 6 }, { T_HOUR, 12, 43200, 6 },
	{ T_DAY, 1, 86400, 6 }, { T_DAY, 2, 172800, 6 },
	{ T_WEEK, 1, 604800, 6 }, { T_WEEK, 2, 1209600, 6 }, { T_WEEK, 4, 2419200, 6 },
	{ T_MONTH, 1, 2629746, 8 }, { T_MONTH, 2, 5259492, 8 },
	{ T_MONTH, 3, 7889238, 8 }, { T_MONTH, 6, 15778476, 8 },
	{ T_YEAR, 1, 31556952, 4 }, { T_YEAR, 2, 63113904, 4 },
	{ T_YEAR, 5, 157784760, 4 }, { T_YEAR, 10, 315569520, 4 },
	{ T_YEAR, 20, 631139040, 4 }, { T_YEAR, 50, 1577847600, 4 },
	{ T_YEAR, 100, 3155695200.0, 4 },
};
#define NLEVELS (sizeof levels / sizeof levels[0])

static enum hq_period
unit_period(enum tick_unit u)
{
	switch (u) {
	case T_HOUR: return HQ_HOUR;
	case T_DAY: return HQ_DAY;
	case T_WEEK: return HQ_WEEK;
	case T_MONTH: return HQ_MONTH;
	case T_YEAR: return HQ_YEAR;
	default: return HQ_PERIOD_NONE;
	}
}

static enum tick_unit
period_unit(enum hq_period p)
{
	switch (p) {
	case HQ_HOUR: return T_HOUR;
	case HQ_DAY: return T_DAY;
	case HQ_WEEK: return T_WEEK;
	case HQ_MONTH: return T_MONTH;
	case HQ_YEAR: return T_YEAR;
	default: return T_MINUTE;
	}
}

/* ISO week number of the week starting (Monday) at day number `day`. */
static int
iso_week_of(int64_t day, int *wyear)
{
	int y, m, d;
	int64_t thursday = day + 3;

	hq_time_civil_from_days(thursday, &y, &m, &d);
	*wyear = y;
	return (int)((thursday - hq_time_days_from_civil(y, 1, 1)) / 7 + 1);
}

static int
tick_aligned(int64_t t, const struct tick_level *lv)
{
	struct hq_local l;
	int wy;

	hq_time_to_local(t, &l);
	switch (lv->unit) {
	case T_MINUTE: return l.min % lv->step == 0;
	case T_HOUR: return l.hour % lv->step == 0;
	case T_DAY: return lv->step == 1 || hq_time_days_from_civil(l.year, l.month, l.day) % lv->step == 0;
	case T_WEEK:
		return (iso_week_of(hq_time_days_from_civil(l.year, l.month, l.day), &wy) - 1) % lv->step == 0;
	case T_MONTH: return (l.month - 1) % lv->step == 0;
	case T_YEAR: return l.year % lv->step == 0;
	}
	return 1;
}

static int64_t
tick_floor(int64_t t, enum tick_unit u)
{
	if (u == T_MINUTE)
		return t - (((t % 60) + 60) % 60);
	return hq_time_bucket_start(t, unit_period(u));
}

static int64_t
tick_next(int64_t t, enum tick_unit u)
{
	return u == T_MINUTE ? t + 60 : hq_time_bucket_next(t, unit_period(u));
}

/* Two lines of label for the tick at t: the tick itself, and the context
 * (date, year) on the first tick and where it changes. */
static void
tick_label(int64_t t, enum tick_unit u, const struct hq_local *prev,
    char *l1, char *l2, size_t n, int weekly)
{
	struct hq_local l;
	int wy, wk;

	hq_time_to_local(t, &l);
	l2[0] = '\0';
	switch (u) {
	case T_MINUTE:
	case T_HOUR:
		snprintf(l1, n, "%02d:%02d", l.hour, l.min);
		if (!prev || prev->day != l.day || prev->month != l.month)
			snprintf(l2, n, "%s %d", hq_svg_month_abbr[l.month - 1], l.day);
		break;
	case T_DAY:
		snprintf(l1, n, "%s %d", hq_svg_month_abbr[l.month - 1], l.day);
		if (!prev || prev->year != l.year)
			snprintf(l2, n, "%d", l.year);
		break;
	case T_WEEK:
		if (!weekly) {
			tick_label(t, T_DAY, prev, l1, l2, n, 0);
			break;
		}
		wk = iso_week_of(hq_time_days_from_civil(l.year, l.month, l.day), &wy);
		snprintf(l1, n, "W%d", wk);
		snprintf(l2, n, "%s %d", hq_svg_month_abbr[l.month - 1], l.day);
		break;
	case T_MONTH:
		snprintf(l1, n, "%s %d", hq_svg_month_abbr[l.month - 1], l.year);
		break;
	case T_YEAR:
		snprintf(l1, n, "%d", l.year);
		break;
	}
}

void
hq_svg_draw_yaxis(struct hq_buf *b, const struct layout *L, const struct panel *P)
{
	char label[48];
	int first = 1;

	/* The unit above the axis, where the eye starts reading. */
	hq_buf_printf(b, "<text class=\"unit\" x=\"%.1f\" y=\"%.1f\" fill=\"#555\""
	    " font-size=\"12\" font-weight=\"600\">", L->left - 50, P->y.top - 16);
	hq_svg_put_esc(b, P->unit && *P->unit ? P->unit : "value");
	hq_buf_puts(b, "</text>\n");
	for (double v = P->y.lo; v <= P->y.hi + P->y.step * 1e-6; v += P->y.step) {
		double y = hq_svg_ypx(&P->y, v);
		int zero = fabs(v) < P->y.step * 1e-6;
		hq_svg_fmt_tick(v, &P->y, label, sizeof label);
		hq_buf_printf(b, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.2f\" y2=\"%.2f\""
		    " stroke=\"%s\" stroke-width=\"1\"/>\n", L->left, L->right, y, y,
		    zero && !first ? "#999" : first ? "#444" : "#e4e4e4");
		hq_buf_printf(b, "<text class=\"ytick\" x=\"%.1f\" y=\"%.2f\" text-anchor=\"end\""
		    " dominant-baseline=\"middle\" fill=\"#555\" font-size=\"11\">%s</text>\n",
		    L->left - 8, y, label);
		first = 0;
	}
}

void
hq_svg_draw_xaxis(struct hq_buf *b, const struct hq_chart *c, const struct layout *L,
    double base)
{
	enum tick_unit min_unit = period_unit(c->by);
	double plot_w = L->right - L->left, span = (double)(L->x1 - L->x0);
	double last_right = -1e9;
	const struct tick_level *lv = &levels[NLEVELS - 1];
	struct hq_local prev, cur;
	int have_prev = 0;
	char l1[48], l2[48];

	for (size_t i = 0; i < NLEVELS; i++) {
		if (levels[i].unit < min_unit)
			continue;
		/* Week numbers only label weekly charts; elsewhere a week is
		 * a Monday's date, and past two weeks months read better. */
		if (levels[i].unit == T_WEEK && c->by != HQ_WEEK && levels[i].step > 2)
			continue;
		double count = span / levels[i].seconds;
		if (count < 1 || plot_w / count >= levels[i].chars * CHAR_W + 18) {
			lv = &levels[i];
			break;
		}
	}
	int64_t t = tick_floor(L->x0, lv->unit);
	for (int guard = 0; t <= L->x1 && guard < 100000; guard++, t = tick_next(t, lv->unit)) {
		if (t < L->x0 || !tick_aligned(t, lv))
			continue;
		double x = (double)t;
		/* A label that names a whole bucket sits under its middle. */
		if (lv->unit == period_unit(c->by) && c->by != HQ_PERIOD_NONE)
			x = ((double)t + (double)tick_next(t, lv->unit)) / 2;
		if (x > (double)L->x1)
			continue;
		double px = hq_svg_xpx(L, x);
		hq_time_to_local(t, &cur);
		tick_label(t, lv->unit, have_prev ? &prev : NULL, l1, l2, sizeof l1,
		    c->by == HQ_WEEK);
		double half = fmax((double)strlen(l1), (double)strlen(l2)) * CHAR_W / 2;
		if (px - half < last_right + 6 || px - half < 2 ||
		    px + half > L->width - 2)
			continue;
		last_right = px + half;
		prev = cur;
		have_prev = 1;
		hq_buf_printf(b, "<line x1=\"%.2f\" x2=\"%.2f\" y1=\"%.1f\" y2=\"%.1f\""
		    " stroke=\"#444\"/>\n", px, px, base, base + 5);
		hq_buf_printf(b, "<text class=\"xtick\" x=\"%.2f\" y=\"%.1f\" text-anchor=\"middle\""
		    " fill=\"#555\" font-size=\"11\">%s</text>\n", px, base + 18, l1);
		if (l2[0])
			hq_buf_printf(b, "<text class=\"xtick2\" x=\"%.2f\" y=\"%.1f\""
			    " text-anchor=\"middle\" fill=\"#888\" font-size=\"11\">%s</text>\n",
			    px, base + 32, l2);
	}
}
