#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/svg.h"

/*
 * Layout: a title and a subtitle (bucket size and date range), a legend
 * when there is more than one series, then one panel per unit (series
 * that share a unit share a y axis; different units get small multiples
 * one above the other, sharing the x axis), then the date labels.
 */

#define FONT "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif"
#define MARGIN_LEFT 68
#define MARGIN_RIGHT 28
#define MARGIN_BOTTOM 46
#define PANEL_GAP 40
#define PANEL_MIN 150
#define CHAR_W 6.4        /* average glyph width at 11-12px, for layout */
#define ALERT "#d62728"   /* a point out of its range */
#define BAND "#59a14f"    /* a reference range */

static const char *const palette[] = {
	"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1",
	"#76b7b2", "#edc948", "#ff9da7", "#9c755f", "#bab0ac",
};
#define NPALETTE (sizeof palette / sizeof palette[0])

static const char *const month_abbr[] = { "Jan", "Feb", "Mar", "Apr", "May",
	"Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };

static void
put_esc(struct hq_buf *b, const char *s)
{
	for (; s && *s; s++)
		switch (*s) {
		case '&': hq_buf_puts(b, "&amp;"); break;
		case '<': hq_buf_puts(b, "&lt;"); break;
		case '>': hq_buf_puts(b, "&gt;"); break;
		case '"': hq_buf_puts(b, "&quot;"); break;
		case '\'': hq_buf_puts(b, "&apos;"); break;
		default:
			/* Control characters are not allowed in XML 1.0. */
			if ((unsigned char)*s >= 0x20 || *s == '\t' || *s == '\n')
				hq_buf_putc(b, *s);
		}
}

/* ---- numbers on the y axis ------------------------------------------- */

struct yscale {
	double lo, hi, step;
	double top, bottom;           /* pixel rows of hi and lo */
};

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

static void
yscale_fit(struct yscale *y, double min, double max, int bars, int ticks)
{
	if (isnan(min)) {             /* no values at all */
		min = 0;
		max = 1;
	}
	if (bars) {
		min = min > 0 ? 0 : min;
		max = max < 0 ? 0 : max;
	} else if (max > min) {
		/* Air above and below a line, so it never runs along an edge. */
		double pad = (max - min) * 0.04;
		min -= pad;
		max += pad;
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
	y->hi = ceil(max / y->step - 1e-9) * y->step;
	if (y->hi <= y->lo)
		y->hi = y->lo + y->step;
}

static double
ypx(const struct yscale *y, double v)
{
	return y->bottom - (v - y->lo) / (y->hi - y->lo) * (y->bottom - y->top);
}

/* 12,500 or 12.5k or 0.25: as many decimals as the step needs. */
static void
fmt_tick(double v, const struct yscale *y, char *buf, size_t n)
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
			snprintf(l2, n, "%s %d", month_abbr[l.month - 1], l.day);
		break;
	case T_DAY:
		snprintf(l1, n, "%s %d", month_abbr[l.month - 1], l.day);
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
		snprintf(l2, n, "%s %d", month_abbr[l.month - 1], l.day);
		break;
	case T_MONTH:
		snprintf(l1, n, "%s %d", month_abbr[l.month - 1], l.year);
		break;
	case T_YEAR:
		snprintf(l1, n, "%d", l.year);
		break;
	}
}

/* ---- the chart ---------------------------------------------------------- */

struct panel {
	const char *unit;
	size_t *series;          /* indexes into c->series */
	size_t n;
	int bars;                /* any bar series */
	size_t nbars;
	struct yscale y;
};

struct layout {
	double left, right;      /* plot area columns */
	int64_t x0, x1;          /* time domain */
	double width, height;
};

static double
xpx(const struct layout *L, double t)
{
	return L->left + (t - (double)L->x0) / (double)(L->x1 - L->x0) * (L->right - L->left);
}

static int
finite_point(const struct hq_chart_point *p)
{
	return isfinite(p->value);
}

/* Where a point is drawn: the middle of its interval. */
static double
point_time(const struct hq_chart_point *p)
{
	return ((double)p->start + (double)(p->end > p->start ? p->end : p->start)) / 2;
}

static void
tooltip(struct hq_buf *b, const struct hq_chart_series *s,
    const struct hq_chart_point *p, enum hq_period by)
{
	char label[40], v[40];

	if (by == HQ_PERIOD_NONE)
		hq_time_format_local(p->start, label, sizeof label);
	else
		hq_time_bucket_label(p->start, by, label, sizeof label);
	snprintf(v, sizeof v, "%.6g", p->value);
	hq_buf_puts(b, "<title>");
	put_esc(b, s->name);
	hq_buf_printf(b, " %s: %s ", label, v);
	put_esc(b, s->unit);
	hq_buf_puts(b, "</title>");
}

/* Bars narrower than a pixel are merged per pixel column into one bar
 * from the column's lowest value to its highest (through 0), so a
 * million buckets draw as the envelope a reader would see anyway. */
struct column {
	double x, lo, hi;
	int have;
};

static void
column_flush(struct hq_buf *b, const struct panel *P, struct column *col)
{
	double y0 = ypx(&P->y, 0), ytop, ybot;

	if (!col->have)
		return;
	ytop = ypx(&P->y, col->hi > 0 ? col->hi : 0);
	ybot = ypx(&P->y, col->lo < 0 ? col->lo : 0);
	if (ybot - ytop > 0 || ytop != y0)
		hq_buf_printf(b, "<rect x=\"%.0f\" y=\"%.2f\" width=\"1\" height=\"%.2f\"/>\n",
		    col->x, ytop, ybot - ytop);
	col->have = 0;
}

static void
draw_bars(struct hq_buf *b, const struct hq_chart *c, const struct layout *L,
    const struct panel *P, size_t si, size_t slot, const char *color)
{
	const struct hq_chart_series *s = &c->series[si];
	double y0 = ypx(&P->y, 0);
	int tips = s->n <= 500;
	struct column col = { 0 };

	/* Bars without an interval (raw samples) get an equal share. */
	double fallback = (L->right - L->left) / (double)(s->n ? s->n : 1) * 0.8;

	hq_buf_printf(b, "<g class=\"bars\" fill=\"%s\">\n", color);
	for (size_t i = 0; i < s->n; i++) {
		const struct hq_chart_point *p = &s->pts[i];
		double a, w, gap, top, h;

		if (!finite_point(p))
			continue;
		if (p->end > p->start) {
			a = xpx(L, (double)p->start);
			w = xpx(L, (double)p->end) - a;
		} else {
			w = fallback;
			a = xpx(L, (double)p->start) - w / 2;
		}
		gap = w > 6 ? fmin(w * 0.15, 4) : w > 3 ? 1 : 0;
		a += gap / 2;
		w -= gap;
		w /= (double)P->nbars;
		a += w * (double)slot;
		if (w < 1) {
			double x = floor(a + w / 2);
			if (col.have && x != col.x)
				column_flush(b, P, &col);
			if (!col.have) {
				col.x = x;
				col.lo = col.hi = p->value;
				col.have = 1;
			}
			col.lo = fmin(col.lo, p->value);
			col.hi = fmax(col.hi, p->value);
			continue;
		}
		column_flush(b, P, &col);
		top = ypx(&P->y, p->value);
		h = fabs(top - y0);
		hq_buf_printf(b, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"",
		    a, fmin(top, y0), w, h);
		if (tips) {
			hq_buf_puts(b, ">");
			tooltip(b, s, p, c->by);
			hq_buf_puts(b, "</rect>\n");
		} else {
			hq_buf_puts(b, "/>\n");
		}
	}
	column_flush(b, P, &col);
	hq_buf_puts(b, "</g>\n");
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Raw samples: a step five times the usual one is a gap (a watch off the
 * wrist), not a straight line across it. 0: no gaps by time. */
static double
sample_gap(const struct hq_chart_series *s)
{
	double *d, gap = 0;
	size_t n = 0;

	size_t stride;

	if (s->n < 3)
		return 0;
	/* The median of up to 10,000 steps spread over the series is as
	 * good as all of them, and a lot quicker for millions. */
	stride = s->n / 10000 + 1;
	d = hq_xcalloc(s->n / stride + 1, sizeof *d);
	for (size_t i = 1; i < s->n; i += stride) {
		double dt = point_time(&s->pts[i]) - point_time(&s->pts[i - 1]);
		if (dt > 0)
			d[n++] = dt;
	}
	if (n) {
		qsort(d, n, sizeof *d, cmp_double);
		gap = 5 * d[n / 2];
	}
	free(d);
	return gap;
}

/* Whether point i is joined to point i - 1 by the line: both have values
 * and nothing is missing between them (for buckets: no bucket skipped). */
static int
joined(const struct hq_chart_series *s, size_t i, enum hq_period by,
    double gap)
{
	const struct hq_chart_point *a, *b;

	if (i == 0 || i >= s->n)
		return 0;
	a = &s->pts[i - 1];
	b = &s->pts[i];
	if (!finite_point(a) || !finite_point(b))
		return 0;
	if (s->connect)
		return 1;
	if (by != HQ_PERIOD_NONE)
		return !(a->end > a->start && b->start > a->end);
	return gap <= 0 || point_time(b) - point_time(a) <= gap;
}

/* The points of one pixel column of a decimated line, beyond its first
 * (which is already drawn). */
struct m4 {
	double x_last, y_last, x_min, y_min, x_max, y_max;
	size_t i_min, i_max;
	int n;
};

static void
m4_start(struct m4 *m, double x, double y, size_t i)
{
	m->x_last = m->x_min = m->x_max = x;
	m->y_last = m->y_min = m->y_max = y;
	m->i_min = m->i_max = i;
	m->n = 0;
}

static void
m4_add(struct m4 *m, double x, double y, size_t i)
{
	/* Pixel rows grow downwards: the lowest value is the largest y. */
	if (y > m->y_min) {
		m->y_min = y;
		m->x_min = x;
		m->i_min = i;
	}
	if (y < m->y_max) {
		m->y_max = y;
		m->x_max = x;
		m->i_max = i;
	}
	m->x_last = x;
	m->y_last = y;
	m->n++;
}

static void
m4_flush(struct hq_buf *b, struct m4 *m)
{
	int min_first = m->i_min <= m->i_max;

	if (m->n == 0)
		return;
	hq_buf_printf(b, " L%.2f %.2f L%.2f %.2f L%.2f %.2f",
	    min_first ? m->x_min : m->x_max, min_first ? m->y_min : m->y_max,
	    min_first ? m->x_max : m->x_min, min_first ? m->y_max : m->y_min,
	    m->x_last, m->y_last);
	m->n = 0;
}

static void
draw_line(struct hq_buf *b, const struct hq_chart *c, const struct layout *L,
    const struct panel *P, size_t si, const char *color)
{
	const struct hq_chart_series *s = &c->series[si];
	int dots = (double)s->n <= (L->right - L->left) / 10;
	int tips = s->n <= 500, first = 1;
	double gap = c->by == HQ_PERIOD_NONE ? sample_gap(s) : 0;
	/* More points than pixels: per pixel column only the first, lowest,
	 * highest and last point are drawn (M4): the same picture, a file a
	 * thousand times smaller for a million samples. */
	int decimate = (double)s->n > 3 * (L->right - L->left);
	struct m4 m4 = { 0 };

	hq_buf_printf(b, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"2\""
	    " stroke-linejoin=\"round\" stroke-linecap=\"round\" d=\"", color);
	for (size_t i = 0; i < s->n; i++) {
		const struct hq_chart_point *p = &s->pts[i];
		double x, y;
		int join;

		if (!finite_point(p))
			continue;
		x = xpx(L, point_time(p));
		y = ypx(&P->y, p->value);
		join = joined(s, i, c->by, gap);
		if (decimate && join && floor(x) == floor(m4.x_last)) {
			m4_add(&m4, x, y, i);
			continue;
		}
		if (decimate)
			m4_flush(b, &m4);
		hq_buf_printf(b, "%s%.2f %.2f", join ? " L" : first ? "M" : " M", x, y);
		m4_start(&m4, x, y, i);
		first = 0;
	}
	if (decimate)
		m4_flush(b, &m4);
	hq_buf_puts(b, "\"/>\n");

	/* Dots: on every point when there is room, and always on a point
	 * joined to neither neighbour, which the line alone would not show. */
	hq_buf_printf(b, "<g class=\"points\" fill=\"%s\" stroke=\"#fff\" stroke-width=\"1\">\n", color);
	for (size_t i = 0; i < s->n; i++) {
		const struct hq_chart_point *p = &s->pts[i];

		if (!finite_point(p))
			continue;
		if (!dots && (joined(s, i, c->by, gap) || joined(s, i + 1, c->by, gap)))
			continue;
		hq_buf_printf(b, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%s\"%s",
		    xpx(L, point_time(p)), ypx(&P->y, p->value), dots ? "3.5" : "2.5",
		    s->alert && s->alert[i] ? " fill=\"" ALERT "\"" : "");
		if (tips) {
			hq_buf_puts(b, ">");
			tooltip(b, s, p, c->by);
			hq_buf_puts(b, "</circle>\n");
		} else {
			hq_buf_puts(b, "/>\n");
		}
	}
	hq_buf_puts(b, "</g>\n");
}

/* The band of a series (a reference range): each point's limits hold
 * from halfway after the point before it to halfway before the next
 * (ranges change with the lab, they do not slide between results). A
 * side without a limit runs to the panel's edge; a point with neither
 * breaks the band; a lone point gets a band a few pixels wide. */
static double
band_y(const struct panel *P, double v, int upper)
{
	if (isnan(v))
		return upper ? P->y.top : P->y.bottom;
	return upper ? fmax(P->y.top, ypx(&P->y, v)) : fmin(P->y.bottom, ypx(&P->y, v));
}

static void
band_edge(struct hq_buf *b, const struct layout *L, const struct panel *P,
    const struct hq_chart_series *s, size_t i, size_t j, int upper)
{
	const double *lim = upper ? s->band_hi : s->band_lo;

	/* Upper edge left to right, lower edge right to left. */
	for (size_t n = 0; n < j - i; n++) {
		size_t k = upper ? i + n : j - 1 - n;
		double x = xpx(L, point_time(&s->pts[k]));
		double y = band_y(P, lim[k], upper);
		if (j - i == 1) {
			hq_buf_printf(b, "%s%.2f %.2f L%.2f %.2f", upper ? "M" : " L",
			    upper ? x - 6 : x + 6, y, upper ? x + 6 : x - 6, y);
			continue;
		}
		size_t prev = upper ? k - 1 : k + 1;
		int has_prev = upper ? k > i : k + 1 < j;
		if (has_prev) {
			double mid = (x + xpx(L, point_time(&s->pts[prev]))) / 2;
			hq_buf_printf(b, " L%.2f %.2f L%.2f %.2f", mid,
			    band_y(P, lim[prev], upper), mid, y);
		} else {
			hq_buf_printf(b, "%s%.2f %.2f", upper ? "M" : " L", x, y);
		}
		if (n + 1 == j - i)
			hq_buf_printf(b, " L%.2f %.2f", x, y);
	}
}

static void
draw_band(struct hq_buf *b, const struct layout *L, const struct panel *P,
    const struct hq_chart_series *s)
{
	size_t i = 0;

	if (!s->band_lo || !s->band_hi)
		return;
	while (i < s->n) {
		size_t j = i;
		while (j < s->n && finite_point(&s->pts[j]) &&
		    !(isnan(s->band_lo[j]) && isnan(s->band_hi[j])))
			j++;
		if (j == i) {
			i++;
			continue;
		}
		hq_buf_puts(b, "<path class=\"band\" fill=\"" BAND "\" "
		    "fill-opacity=\"0.13\" stroke=\"none\" d=\"");
		band_edge(b, L, P, s, i, j, 1);
		band_edge(b, L, P, s, i, j, 0);
		hq_buf_puts(b, " Z\"/>\n");
		i = j;
	}
}

/* Marks: a dashed line across the plot at a time, its label at the top. */
static void
draw_marks(struct hq_buf *b, const struct hq_chart *c, const struct layout *L,
    double top, double bottom)
{
	for (size_t i = 0; i < c->nmarks; i++) {
		double x = xpx(L, (double)c->marks[i].time);
		if (x < L->left || x > L->right)
			continue;
		hq_buf_printf(b, "<line class=\"mark\" x1=\"%.2f\" x2=\"%.2f\" "
		    "y1=\"%.1f\" y2=\"%.1f\" stroke=\"#777\" stroke-dasharray=\"3 3\"/>\n",
		    x, x, top - 4, bottom);
		hq_buf_printf(b, "<text class=\"mark\" x=\"%.2f\" y=\"%.1f\" "
		    "font-size=\"11\" fill=\"#555\" text-anchor=\"%s\">", x + 4,
		    top - 8, x > (L->left + L->right) / 2 ? "end" : "start");
		put_esc(b, c->marks[i].label);
		hq_buf_puts(b, "</text>\n");
	}
}

static void
draw_yaxis(struct hq_buf *b, const struct layout *L, const struct panel *P)
{
	char label[48];
	int first = 1;

	/* The unit above the axis, where the eye starts reading. */
	hq_buf_printf(b, "<text class=\"unit\" x=\"%.1f\" y=\"%.1f\" fill=\"#555\""
	    " font-size=\"12\" font-weight=\"600\">", L->left - 50, P->y.top - 16);
	put_esc(b, P->unit && *P->unit ? P->unit : "value");
	hq_buf_puts(b, "</text>\n");
	for (double v = P->y.lo; v <= P->y.hi + P->y.step * 1e-6; v += P->y.step) {
		double y = ypx(&P->y, v);
		int zero = fabs(v) < P->y.step * 1e-6;
		fmt_tick(v, &P->y, label, sizeof label);
		hq_buf_printf(b, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.2f\" y2=\"%.2f\""
		    " stroke=\"%s\" stroke-width=\"1\"/>\n", L->left, L->right, y, y,
		    zero && !first ? "#999" : first ? "#444" : "#e4e4e4");
		hq_buf_printf(b, "<text class=\"ytick\" x=\"%.1f\" y=\"%.2f\" text-anchor=\"end\""
		    " dominant-baseline=\"middle\" fill=\"#555\" font-size=\"11\">%s</text>\n",
		    L->left - 8, y, label);
		first = 0;
	}
}

static void
draw_xaxis(struct hq_buf *b, const struct hq_chart *c, const struct layout *L,
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
		double px = xpx(L, x);
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

static const char *
period_word(enum hq_period p)
{
	switch (p) {
	case HQ_HOUR: return "per hour";
	case HQ_DAY: return "per day";
	case HQ_WEEK: return "per week";
	case HQ_MONTH: return "per month";
	case HQ_YEAR: return "per year";
	default: return "samples";
	}
}

/* A date for the subtitle, as precise as the buckets. */
static void
fmt_when(int64_t t, enum hq_period by, char *buf, size_t n)
{
	struct hq_local l;

	hq_time_to_local(t, &l);
	if (by == HQ_YEAR)
		snprintf(buf, n, "%d", l.year);
	else if (by == HQ_MONTH)
		snprintf(buf, n, "%s %d", month_abbr[l.month - 1], l.year);
	else
		snprintf(buf, n, "%s %d, %d", month_abbr[l.month - 1], l.day, l.year);
}

/* Panels: one per distinct unit, in order of first appearance. */
static size_t
make_panels(const struct hq_chart *c, struct panel *P)
{
	size_t np = 0;

	for (size_t i = 0; i < c->nseries; i++) {
		const char *u = c->series[i].unit ? c->series[i].unit : "";
		size_t k;
		for (k = 0; k < np; k++)
			if (strcmp(P[k].unit, u) == 0)
				break;
		if (k == np) {
			memset(&P[np], 0, sizeof P[np]);
			P[np].unit = u;
			P[np].series = hq_xcalloc(c->nseries, sizeof *P[np].series);
			np++;
		}
		P[k].series[P[k].n++] = i;
		if (c->series[i].bars) {
			P[k].bars = 1;
			P[k].nbars++;
		}
	}
	return np;
}

static void
draw_legend(struct hq_buf *b, const struct hq_chart *c, double left,
    double width, double *y)
{
	double x = left;

	for (size_t i = 0; i < c->nseries; i++) {
		const struct hq_chart_series *s = &c->series[i];
		const char *color = palette[i % NPALETTE];
		double w = 22 + (double)strlen(s->name ? s->name : "") * CHAR_W + 18;

		if (x + w > width - MARGIN_RIGHT && x > left) {
			x = left;
			*y += 18;
		}
		if (s->bars)
			hq_buf_printf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\""
			    " fill=\"%s\"/>\n", x, *y - 10, color);
		else
			hq_buf_printf(b, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\""
			    " stroke=\"%s\" stroke-width=\"2.5\"/><circle cx=\"%.1f\" cy=\"%.1f\""
			    " r=\"3\" fill=\"%s\"/>\n", x, x + 16, *y - 4, *y - 4, color,
			    x + 8, *y - 4, color);
		hq_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" fill=\"#333\">",
		    x + 22, *y);
		put_esc(b, s->name);
		hq_buf_puts(b, "</text>\n");
		x += w;
	}
	*y += 14;
}

static void
chart(struct hq_buf *b, const struct hq_chart *c, double *height)
{
	struct panel *P = hq_xcalloc(c->nseries + 1, sizeof *P);
	size_t np = make_panels(c, P);
	struct layout L = { 0 };
	int64_t data0, data1;
	int any = 0;
	double y;
	char d0[32], d1[32];

	L.width = c->width > 0 ? c->width : 960;
	L.height = c->height > 0 ? c->height : 400;
	L.left = MARGIN_LEFT;
	L.right = L.width - MARGIN_RIGHT;

	/* The time domain: every bucket whole, so bars fit inside. */
	for (size_t i = 0; i < c->nseries; i++)
		for (size_t j = 0; j < c->series[i].n; j++) {
			const struct hq_chart_point *p = &c->series[i].pts[j];
			int64_t end = p->end > p->start ? p->end : p->start;
			if (!any || p->start < L.x0)
				L.x0 = p->start;
			if (!any || end > L.x1)
				L.x1 = end;
			any = 1;
		}
	if (!any) {
		L.x0 = 0;
		L.x1 = 86400;
	}
	data0 = L.x0;
	data1 = L.x1;
	if (c->by == HQ_PERIOD_NONE || L.x1 == L.x0) {
		/* Raw samples: a little air at both ends (an hour for one). */
		int64_t pad = L.x1 > L.x0 ? (L.x1 - L.x0) / 40 + 1 : 3600;
		L.x0 -= pad;
		L.x1 += pad;
	}

	/* Title, subtitle, legend. */
	hq_buf_printf(b, "<text class=\"title\" x=\"%d\" y=\"26\" font-size=\"17\""
	    " font-weight=\"600\" fill=\"#222\">", 16);
	if (c->title) {
		put_esc(b, c->title);
	} else {
		for (size_t i = 0; i < c->nseries; i++) {
			if (i)
				hq_buf_puts(b, ", ");
			put_esc(b, c->series[i].name);
		}
		if (np == 1 && P[0].unit[0]) {
			hq_buf_puts(b, " (");
			put_esc(b, P[0].unit);
			hq_buf_puts(b, ")");
		}
	}
	hq_buf_puts(b, "</text>\n");
	if (c->subtitle) {
		hq_buf_puts(b, "<text class=\"subtitle\" x=\"16\" y=\"46\" "
		    "font-size=\"12\" fill=\"#777\">");
		put_esc(b, c->subtitle);
		hq_buf_puts(b, "</text>\n");
	} else if (any) {
		/* From the first bucket to the last one's last second. */
		fmt_when(data0, c->by, d0, sizeof d0);
		fmt_when(data1 > data0 && c->by != HQ_PERIOD_NONE ? data1 - 1 : data1,
		    c->by, d1, sizeof d1);
		hq_buf_printf(b, "<text class=\"subtitle\" x=\"16\" y=\"46\" font-size=\"12\""
		    " fill=\"#777\">%s · %s%s%s</text>\n", period_word(c->by), d0,
		    strcmp(d0, d1) ? " – " : "", strcmp(d0, d1) ? d1 : "");
	}
	y = 66;
	if (c->nseries > 1)
		draw_legend(b, c, 16, L.width, &y);

	/* Panels share what is left; each at least PANEL_MIN tall. */
	double top = y + 30;
	size_t npan = np ? np : 1;
	double ph = (L.height - top - MARGIN_BOTTOM - (double)(npan - 1) * PANEL_GAP) / (double)npan;
	if (ph < PANEL_MIN) {
		ph = PANEL_MIN;
		L.height = top + ph * (double)npan + (double)(npan - 1) * PANEL_GAP + MARGIN_BOTTOM;
	}
	for (size_t k = 0; k < np; k++) {
		struct panel *p = &P[k];
		double lo = NAN, hi = NAN;
		for (size_t m = 0; m < p->n; m++) {
			const struct hq_chart_series *s = &c->series[p->series[m]];
			for (size_t j = 0; j < s->n; j++) {
				double v[3] = { s->pts[j].value,
					s->band_lo ? s->band_lo[j] : NAN,
					s->band_hi ? s->band_hi[j] : NAN };
				for (int q = 0; q < 3; q++) {
					if (!isfinite(v[q]) || !isfinite(v[0]))
						continue;
					lo = isnan(lo) || v[q] < lo ? v[q] : lo;
					hi = isnan(hi) || v[q] > hi ? v[q] : hi;
				}
			}
		}
		p->y.top = top + (double)k * (ph + PANEL_GAP);
		p->y.bottom = p->y.top + ph;
		yscale_fit(&p->y, lo, hi, p->bars, ph < 200 ? 4 : 5);
		draw_yaxis(b, &L, p);
		if (isnan(lo))
			hq_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\""
			    " fill=\"#999\" font-size=\"14\">no data</text>\n",
			    (L.left + L.right) / 2, (p->y.top + p->y.bottom) / 2);
		/* Bands first, bars over them, lines over both. */
		for (size_t m = 0; m < p->n; m++)
			draw_band(b, &L, p, &c->series[p->series[m]]);
		size_t slot = 0;
		for (size_t m = 0; m < p->n; m++)
			if (c->series[p->series[m]].bars)
				draw_bars(b, c, &L, p, p->series[m], slot++,
				    palette[p->series[m] % NPALETTE]);
		for (size_t m = 0; m < p->n; m++)
			if (!c->series[p->series[m]].bars)
				draw_line(b, c, &L, p, p->series[m],
				    palette[p->series[m] % NPALETTE]);
		/* The zero line over the bars, when values go below it. */
		if (p->y.lo < 0 && p->y.hi > 0)
			hq_buf_printf(b, "<line class=\"zero\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.2f\""
			    " y2=\"%.2f\" stroke=\"#444\" stroke-width=\"1\"/>\n", L.left,
			    L.right, ypx(&p->y, 0), ypx(&p->y, 0));
		/* The x axis line, over the bars' feet. */
		hq_buf_printf(b, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.2f\" y2=\"%.2f\""
		    " stroke=\"#444\" stroke-width=\"1\"/>\n", L.left, L.right,
		    p->y.bottom, p->y.bottom);
	}
	if (np == 0) {
		hq_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\""
		    " fill=\"#999\" font-size=\"14\">no data</text>\n",
		    (L.left + L.right) / 2, (top + L.height - MARGIN_BOTTOM) / 2);
	} else if (any) {
		draw_xaxis(b, c, &L, P[np - 1].y.bottom);
		draw_marks(b, c, &L, P[0].y.top, P[np - 1].y.bottom);
	}
	for (size_t k = 0; k < np; k++)
		free(P[k].series);
	free(P);
	*height = L.height;
}

/* The document around a drawn body: header, white background, body. */
static int
emit(FILE *fp, struct hq_buf *body, int width, double height)
{
	struct hq_buf head = { 0 };
	int status = 0;

	hq_buf_puts(&head, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	hq_buf_printf(&head, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\""
	    " height=\"%.0f\" viewBox=\"0 0 %d %.0f\" font-family=\"" FONT "\">\n",
	    width, height, width, height);
	hq_buf_printf(&head, "<rect width=\"%d\" height=\"%.0f\" fill=\"#fff\"/>\n",
	    width, height);
	hq_buf_puts(body, "</svg>\n");
	if (fwrite(head.data, 1, head.len, fp) != head.len ||
	    fwrite(body->data, 1, body->len, fp) != body->len || fflush(fp) != 0 ||
	    ferror(fp))
		status = -1;
	hq_buf_free(&head);
	hq_buf_free(body);
	return status;
}

int
hq_svg_write(FILE *fp, const struct hq_chart *c)
{
	struct hq_buf body = { 0 };
	double height = 0;

	chart(&body, c, &height);
	return emit(fp, &body, c->width > 0 ? c->width : 960, height);
}

/* ---- values against values: scatter and strips (hq-correlate) ----------- */

#define VAL_W 760
#define VAL_H 540
#define VAL_TOP 92               /* below title and subtitle */

/* A value axis along x: the y scale's arithmetic with bottom as the left
 * pixel column and top as the right one. */
static void
draw_xvalues(struct hq_buf *b, const struct yscale *x, double ybase,
    const char *name, const char *unit)
{
	char label[48];

	for (double v = x->lo; v <= x->hi + x->step * 1e-6; v += x->step) {
		double px = ypx(x, v);
		fmt_tick(v, x, label, sizeof label);
		hq_buf_printf(b, "<line x1=\"%.2f\" x2=\"%.2f\" y1=\"%.1f\" y2=\"%.1f\""
		    " stroke=\"#444\" stroke-width=\"1\"/>\n", px, px, ybase, ybase + 5);
		hq_buf_printf(b, "<text class=\"xtick\" x=\"%.2f\" y=\"%.1f\" text-anchor=\"middle\""
		    " fill=\"#555\" font-size=\"11\">%s</text>\n", px, ybase + 18, label);
	}
	hq_buf_printf(b, "<text class=\"xlabel\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\""
	    " fill=\"#555\" font-size=\"12\" font-weight=\"600\">", (x->bottom + x->top) / 2,
	    ybase + 38);
	put_esc(b, name);
	if (unit && *unit) {
		hq_buf_puts(b, " (");
		put_esc(b, unit);
		hq_buf_puts(b, ")");
	}
	hq_buf_puts(b, "</text>\n");
}

static void
value_titles(struct hq_buf *b, const char *title, const char *subtitle)
{
	hq_buf_puts(b, "<text class=\"title\" x=\"16\" y=\"26\" font-size=\"17\""
	    " font-weight=\"600\" fill=\"#222\">");
	put_esc(b, title);
	hq_buf_puts(b, "</text>\n<text class=\"subtitle\" x=\"16\" y=\"46\""
	    " font-size=\"12\" fill=\"#777\">");
	put_esc(b, subtitle);
	hq_buf_puts(b, "</text>\n");
}

/* Widen [lo, hi] (NaN: empty) to the finite values of v. */
static void
extent(const double *v, size_t n, double *lo, double *hi)
{
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(v[i]))
			continue;
		*lo = isnan(*lo) || v[i] < *lo ? v[i] : *lo;
		*hi = isnan(*hi) || v[i] > *hi ? v[i] : *hi;
	}
}

static void
value_tooltip(struct hq_buf *b, const char *const *labels, size_t i,
    const char *text)
{
	hq_buf_puts(b, "><title>");
	if (labels && labels[i]) {
		put_esc(b, labels[i]);
		hq_buf_puts(b, ": ");
	}
	put_esc(b, text);
	hq_buf_puts(b, "</title></circle>\n");
}

int
hq_svg_scatter(FILE *fp, const struct hq_scatter *s)
{
	struct hq_buf b = { 0 };
	struct yscale xs, ys;
	struct panel P = { .unit = s->yunit };
	struct layout L = { 0 };
	double xlo = NAN, xhi = NAN, ylo = NAN, yhi = NAN;
	int width = s->width > 0 ? s->width : VAL_W;
	double height = s->height > 0 ? s->height : VAL_H;
	double r = s->n > 400 ? 2.5 : 3.5;

	extent(s->x, s->n, &xlo, &xhi);
	extent(s->y, s->n, &ylo, &yhi);
	if (s->has_line && !isnan(xlo)) {
		/* the line's ends stay inside the plot */
		double e[2] = { s->intercept + s->slope * xlo, s->intercept + s->slope * xhi };
		extent(e, 2, &ylo, &yhi);
	}
	L.left = MARGIN_LEFT;
	L.right = width - MARGIN_RIGHT;
	ys.top = VAL_TOP;
	ys.bottom = height - MARGIN_BOTTOM - 20;
	yscale_fit(&ys, ylo, yhi, 0, 6);
	xs.bottom = L.left;
	xs.top = L.right;
	yscale_fit(&xs, xlo, xhi, 0, 7);
	P.y = ys;

	value_titles(&b, s->title, s->subtitle);
	draw_yaxis(&b, &L, &P);
	hq_buf_printf(&b, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.2f\" y2=\"%.2f\""
	    " stroke=\"#444\" stroke-width=\"1\"/>\n", L.left, L.right, ys.bottom, ys.bottom);
	draw_xvalues(&b, &xs, ys.bottom, s->xname, s->xunit);
	if (isnan(xlo))
		hq_buf_printf(&b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\""
		    " fill=\"#999\" font-size=\"14\">no data</text>\n",
		    (L.left + L.right) / 2, (ys.top + ys.bottom) / 2);
	hq_buf_printf(&b, "<g class=\"points\" fill=\"%s\" fill-opacity=\"0.6\""
	    " stroke=\"#fff\" stroke-width=\"0.8\">\n", palette[0]);
	for (size_t i = 0; i < s->n; i++) {
		char text[96];
		if (!isfinite(s->x[i]) || !isfinite(s->y[i]))
			continue;
		hq_buf_printf(&b, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.1f\"",
		    ypx(&xs, s->x[i]), ypx(&ys, s->y[i]), r);
		snprintf(text, sizeof text, "%.6g %s, %.6g %s", s->x[i],
		    s->xunit ? s->xunit : "", s->y[i], s->yunit ? s->yunit : "");
		value_tooltip(&b, s->labels, i, text);
	}
	hq_buf_puts(&b, "</g>\n");
	if (s->has_line && !isnan(xlo))
		hq_buf_printf(&b, "<line class=\"fit\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\""
		    " y2=\"%.2f\" stroke=\"%s\" stroke-width=\"2.5\"/>\n", ypx(&xs, xlo),
		    ypx(&ys, s->intercept + s->slope * xlo), ypx(&xs, xhi),
		    ypx(&ys, s->intercept + s->slope * xhi), palette[1]);
	return emit(fp, &b, width, height);
}

int
hq_svg_strips(FILE *fp, const struct hq_strips *s)
{
	struct hq_buf b = { 0 };
	struct yscale ys;
	struct panel P = { .unit = s->unit };
	struct layout L = { 0 };
	double lo = NAN, hi = NAN, colw;
	int width = s->width > 0 ? s->width : VAL_W;
	double height = s->height > 0 ? s->height : VAL_H;

	for (size_t g = 0; g < s->ngroups; g++)
		extent(s->groups[g].v, s->groups[g].n, &lo, &hi);
	L.left = MARGIN_LEFT;
	L.right = width - MARGIN_RIGHT;
	ys.top = VAL_TOP;
	ys.bottom = height - MARGIN_BOTTOM - 20;
	yscale_fit(&ys, lo, hi, 0, 6);
	P.y = ys;
	colw = (L.right - L.left) / (double)(s->ngroups ? s->ngroups : 1);

	value_titles(&b, s->title, s->subtitle);
	draw_yaxis(&b, &L, &P);
	hq_buf_printf(&b, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.2f\" y2=\"%.2f\""
	    " stroke=\"#444\" stroke-width=\"1\"/>\n", L.left, L.right, ys.bottom, ys.bottom);
	for (size_t g = 0; g < s->ngroups; g++) {
		const struct hq_strip *st = &s->groups[g];
		const char *color = palette[g % NPALETTE];
		double mid = L.left + colw * ((double)g + 0.5), half = fmin(colw * 0.3, 110);
		double sum = 0;
		size_t n = 0;

		hq_buf_printf(&b, "<g class=\"strip\" fill=\"%s\" fill-opacity=\"0.55\""
		    " stroke=\"#fff\" stroke-width=\"0.8\">\n", color);
		for (size_t i = 0; i < st->n; i++) {
			char text[64];
			/* The golden ratio spreads the dots evenly, the same way
			 * on every run. */
			double j = fmod((double)i * 0.6180339887498949, 1.0) * 2 - 1;
			if (!isfinite(st->v[i]))
				continue;
			sum += st->v[i];
			n++;
			hq_buf_printf(&b, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"3.5\"",
			    mid + j * half * 0.8, ypx(&ys, st->v[i]));
			snprintf(text, sizeof text, "%.6g %s", st->v[i], s->unit ? s->unit : "");
			value_tooltip(&b, st->labels, i, text);
		}
		hq_buf_puts(&b, "</g>\n");
		if (n) {
			char label[64], mean[40];
			double y = ypx(&ys, sum / (double)n);
			snprintf(mean, sizeof mean, "%.3g", sum / (double)n);
			snprintf(label, sizeof label, "mean %s %s", mean, s->unit ? s->unit : "");
			hq_buf_printf(&b, "<line class=\"mean\" x1=\"%.2f\" x2=\"%.2f\" y1=\"%.2f\""
			    " y2=\"%.2f\" stroke=\"#222\" stroke-width=\"3\"/>\n", mid - half,
			    mid + half, y, y);
			/* above the bar's right end, on a white halo over the dots */
			hq_buf_printf(&b, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\""
			    " font-size=\"12\" font-weight=\"600\" fill=\"#222\" stroke=\"#fff\""
			    " stroke-width=\"3\" paint-order=\"stroke\">", mid + half, y - 7);
			put_esc(&b, label);
			hq_buf_puts(&b, "</text>\n");
		}
		hq_buf_printf(&b, "<text class=\"group\" x=\"%.2f\" y=\"%.1f\""
		    " text-anchor=\"middle\" fill=\"#333\" font-size=\"12\""
		    " font-weight=\"600\">", mid, ys.bottom + 22);
		put_esc(&b, st->name);
		hq_buf_printf(&b, "</text>\n<text x=\"%.2f\" y=\"%.1f\" text-anchor=\"middle\""
		    " fill=\"#777\" font-size=\"11\">n = %zu</text>\n", mid, ys.bottom + 38, n);
	}
	if (isnan(lo))
		hq_buf_printf(&b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\""
		    " fill=\"#999\" font-size=\"14\">no data</text>\n",
		    (L.left + L.right) / 2, (ys.top + ys.bottom) / 2);
	return emit(fp, &b, width, height);
}

/* ---- before and after ---------------------------------------------------- */

#define CMP_W 900
#define CMP_ROW 48
#define CMP_BAR_X0 250
#define CMP_BAR_X1 640
#define CMP_BEFORE "#bab0ac"
#define CMP_AFTER "#4e79a7"

static void
cmp_value(struct hq_buf *b, double x, double y, int right, double v,
    const char *color)
{
	hq_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"%s\""
	    " dominant-baseline=\"middle\" text-anchor=\"%s\">%.4g</text>\n",
	    right ? x + 4 : x - 4, y, color, right ? "start" : "end", v);
}

static void
cmp_row(struct hq_buf *b, const struct hq_compare_row *r, double y)
{
	double lo = fmin(0, fmin(r->before, r->after));
	double hi = fmax(0, fmax(r->before, r->after));
	double w = CMP_BAR_X1 - CMP_BAR_X0, x0, xb, xa;
	int muted = r->note != NULL;

	if (!(hi > lo))
		hi = lo + 1;
	x0 = CMP_BAR_X0 + (0 - lo) / (hi - lo) * w;
	xb = CMP_BAR_X0 + (r->before - lo) / (hi - lo) * w;
	xa = CMP_BAR_X0 + (r->after - lo) / (hi - lo) * w;
	hq_buf_printf(b, "<g class=\"row\"%s>\n", muted ? " opacity=\"0.55\"" : "");
	hq_buf_printf(b, "<text x=\"16\" y=\"%.1f\" font-size=\"13\" font-weight=\"600\""
	    " fill=\"#222\">", y + 16);
	put_esc(b, r->label);
	hq_buf_printf(b, "</text>\n<text x=\"16\" y=\"%.1f\" font-size=\"11\" fill=\"#777\">",
	    y + 32);
	put_esc(b, r->unit && *r->unit ? r->unit : "no unit");
	hq_buf_puts(b, "</text>\n");
	hq_buf_printf(b, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"14\""
	    " fill=\"" CMP_BEFORE "\"/>\n", fmin(x0, xb), y + 4, fabs(xb - x0));
	hq_buf_printf(b, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"14\""
	    " fill=\"" CMP_AFTER "\"/>\n", fmin(x0, xa), y + 22, fabs(xa - x0));
	cmp_value(b, xb, y + 11, xb >= x0, r->before, "#555");
	cmp_value(b, xa, y + 29, xa >= x0, r->after, "#222");
	hq_buf_printf(b, "<line x1=\"%.2f\" x2=\"%.2f\" y1=\"%.1f\" y2=\"%.1f\""
	    " stroke=\"#444\"/>\n", x0, x0, y + 1, y + 39);
	hq_buf_printf(b, "<text x=\"%d\" y=\"%.1f\" font-size=\"12\" fill=\"#222\">",
	    CMP_BAR_X1 + 56, y + 16);
	put_esc(b, r->change ? r->change : "");
	hq_buf_puts(b, "</text>\n");
	if (r->note) {
		hq_buf_printf(b, "<text x=\"%d\" y=\"%.1f\" font-size=\"11\""
		    " font-style=\"italic\" fill=\"#555\">", CMP_BAR_X1 + 56, y + 32);
		put_esc(b, r->note);
		hq_buf_puts(b, "</text>\n");
	}
	hq_buf_puts(b, "</g>\n");
}

int
hq_svg_compare(FILE *fp, const struct hq_compare_chart *c)
{
	struct hq_buf b = { 0 };
	double y = 96, height = 96 + (double)c->n * CMP_ROW + (c->footnote ? 44 : 20);

	value_titles(&b, c->title, c->subtitle ? c->subtitle : "");
	/* The legend: which bar is which date. */
	hq_buf_printf(&b, "<rect x=\"%d\" y=\"58\" width=\"12\" height=\"12\" fill=\""
	    CMP_BEFORE "\"/>\n<text x=\"%d\" y=\"68\" font-size=\"12\" fill=\"#333\">",
	    CMP_BAR_X0, CMP_BAR_X0 + 18);
	put_esc(&b, c->before_label);
	hq_buf_printf(&b, "</text>\n<rect x=\"%d\" y=\"58\" width=\"12\" height=\"12\""
	    " fill=\"" CMP_AFTER "\"/>\n<text x=\"%d\" y=\"68\" font-size=\"12\""
	    " fill=\"#333\">", CMP_BAR_X0 + 140, CMP_BAR_X0 + 158);
	put_esc(&b, c->after_label);
	hq_buf_puts(&b, "</text>\n");
	for (size_t i = 0; i < c->n; i++, y += CMP_ROW) {
		if (i % 2 == 0)
			hq_buf_printf(&b, "<rect x=\"8\" y=\"%.1f\" width=\"%d\" height=\"%d\""
			    " fill=\"#f6f6f6\"/>\n", y - 2, CMP_W - 16, CMP_ROW - 4);
		cmp_row(&b, &c->rows[i], y);
	}
	if (c->footnote) {
		hq_buf_printf(&b, "<text x=\"16\" y=\"%.1f\" font-size=\"11\" fill=\"#555\">",
		    y + 18);
		put_esc(&b, c->footnote);
		hq_buf_puts(&b, "</text>\n");
	}
	return emit(fp, &b, CMP_W, height);
}
