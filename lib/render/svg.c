#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/svg.h"
#include "hq/svg_int.h"

/*
 * Layout: a title and a subtitle (bucket size and date range), a legend
 * when there is more than one series, then one panel per unit (series
 * that share a unit share a y axis; different units get small multiples
 * one above the other, sharing the x axis), then the date labels.
 */

#define FONT "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif"
#define PANEL_GAP 40
#define PANEL_MIN 150
#define ALERT "#d62728"   /* a point out of its range */
#define BAND "#59a14f"    /* a reference range */

const char *const hq_svg_palette[NPALETTE] = {
	"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1",
	"#76b7b2", "#edc948", "#ff9da7", "#9c755f", "#bab0ac",
};

const char *const hq_svg_month_abbr[12] = { "Jan", "Feb", "Mar", "Apr", "May",
	"Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };

void
hq_svg_put_esc(struct hq_buf *b, const char *s)
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

/* ---- the chart ---------------------------------------------------------- */

double
hq_svg_xpx(const struct layout *L, double t)
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
	hq_svg_put_esc(b, s->name);
	hq_buf_printf(b, " %s: %s ", label, v);
	hq_svg_put_esc(b, s->unit);
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
	double y0 = hq_svg_ypx(&P->y, 0), ytop, ybot;

	if (!col->have)
		return;
	ytop = hq_svg_ypx(&P->y, col->hi > 0 ? col->hi : 0);
	ybot = hq_svg_ypx(&P->y, col->lo < 0 ? col->lo : 0);
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
	double y0 = hq_svg_ypx(&P->y, 0);
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
			a = hq_svg_xpx(L, (double)p->start);
			w = hq_svg_xpx(L, (double)p->end) - a;
		} else {
			w = fallback;
			a = hq_svg_xpx(L, (double)p->start) - w / 2;
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
		top = hq_svg_ypx(&P->y, p->value);
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

/* The line through points [lo, hi) of series s, dashed or not. */
static void
line_path(struct hq_buf *b, const struct hq_chart *c, const struct layout *L,
    const struct panel *P, const struct hq_chart_series *s, const char *color,
    size_t lo, size_t hi, int dashed)
{
	double gap = c->by == HQ_PERIOD_NONE ? sample_gap(s) : 0;
	/* More points than pixels: per pixel column only the first, lowest,
	 * highest and last point are drawn (M4): the same picture, a file a
	 * thousand times smaller for a million samples. */
	int decimate = (double)s->n > 3 * (L->right - L->left), first = 1;
	struct m4 m4 = { 0 };

	hq_buf_printf(b, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s"
	    " stroke-linejoin=\"round\" stroke-linecap=\"round\" d=\"", color,
	    dashed ? " stroke-dasharray=\"6 4\"" : "");
	for (size_t i = lo; i < hi; i++) {
		const struct hq_chart_point *p = &s->pts[i];
		double x, y;
		int join;

		if (!finite_point(p))
			continue;
		x = hq_svg_xpx(L, point_time(p));
		y = hq_svg_ypx(&P->y, p->value);
		join = i > lo && joined(s, i, c->by, gap);
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
}

static void
draw_line(struct hq_buf *b, const struct hq_chart *c, const struct layout *L,
    const struct panel *P, size_t si, const char *color)
{
	const struct hq_chart_series *s = &c->series[si];
	int dots = (double)s->n <= (L->right - L->left) / 10;
	int tips = s->n <= 500;
	double gap = c->by == HQ_PERIOD_NONE ? sample_gap(s) : 0;
	size_t k = s->n;

	/* Solid up to the first point at dash_from, dashed from the point
	 * before it on. */
	if (s->dash_from)
		for (k = 0; k < s->n && s->pts[k].start < s->dash_from; k++)
			;
	if (k > 0)
		line_path(b, c, L, P, s, color, 0, k, 0);
	if (k < s->n)
		line_path(b, c, L, P, s, color, k > 0 ? k - 1 : 0, s->n, 1);

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
		    hq_svg_xpx(L, point_time(p)), hq_svg_ypx(&P->y, p->value), dots ? "3.5" : "2.5",
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
	return upper ? fmax(P->y.top, hq_svg_ypx(&P->y, v)) : fmin(P->y.bottom, hq_svg_ypx(&P->y, v));
}

static void
band_edge(struct hq_buf *b, const struct layout *L, const struct panel *P,
    const struct hq_chart_series *s, size_t i, size_t j, int upper)
{
	const double *lim = upper ? s->band_hi : s->band_lo;

	/* Upper edge left to right, lower edge right to left. */
	for (size_t n = 0; n < j - i; n++) {
		size_t k = upper ? i + n : j - 1 - n;
		double x = hq_svg_xpx(L, point_time(&s->pts[k]));
		double y = band_y(P, lim[k], upper);
		if (j - i == 1) {
			hq_buf_printf(b, "%s%.2f %.2f L%.2f %.2f", upper ? "M" : " L",
			    upper ? x - 6 : x + 6, y, upper ? x + 6 : x - 6, y);
			continue;
		}
		size_t prev = upper ? k - 1 : k + 1;
		int has_prev = upper ? k > i : k + 1 < j;
		if (has_prev) {
			double mid = (x + hq_svg_xpx(L, point_time(&s->pts[prev]))) / 2;
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
		double x = hq_svg_xpx(L, (double)c->marks[i].time);
		if (x < L->left || x > L->right)
			continue;
		hq_buf_printf(b, "<line class=\"mark\" x1=\"%.2f\" x2=\"%.2f\" "
		    "y1=\"%.1f\" y2=\"%.1f\" stroke=\"#777\" stroke-dasharray=\"3 3\"/>\n",
		    x, x, top - 4, bottom);
		hq_buf_printf(b, "<text class=\"mark\" x=\"%.2f\" y=\"%.1f\" "
		    "font-size=\"11\" fill=\"#555\" text-anchor=\"%s\">", x + 4,
		    top - 8, x > (L->left + L->right) / 2 ? "end" : "start");
		hq_svg_put_esc(b, c->marks[i].label);
		hq_buf_puts(b, "</text>\n");
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
		snprintf(buf, n, "%s %d", hq_svg_month_abbr[l.month - 1], l.year);
	else
		snprintf(buf, n, "%s %d, %d", hq_svg_month_abbr[l.month - 1], l.day, l.year);
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
		const char *color = hq_svg_palette[i % NPALETTE];
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
		hq_buf_printf(b, "<text class=\"legend\" x=\"%.1f\" y=\"%.1f\" font-size=\"12\" fill=\"#333\">",
		    x + 22, *y);
		hq_svg_put_esc(b, s->name);
		hq_buf_puts(b, "</text>\n");
		x += w;
	}
	*y += 14;
}

/* The time domain into L (every bucket whole, so bars fit inside, and
 * raw samples with a little air at both ends); [*data0, *data1] the
 * points' own. 0 when there is no point. */
static int
time_domain(const struct hq_chart *c, struct layout *L, int64_t *data0,
    int64_t *data1)
{
	int any = 0;

	for (size_t i = 0; i < c->nseries; i++)
		for (size_t j = 0; j < c->series[i].n; j++) {
			const struct hq_chart_point *p = &c->series[i].pts[j];
			int64_t end = p->end > p->start ? p->end : p->start;
			if (!any || p->start < L->x0)
				L->x0 = p->start;
			if (!any || end > L->x1)
				L->x1 = end;
			any = 1;
		}
	if (!any) {
		L->x0 = 0;
		L->x1 = 86400;
	}
	*data0 = L->x0;
	*data1 = L->x1;
	if (c->by == HQ_PERIOD_NONE || L->x1 == L->x0) {
		/* Raw samples: a little air at both ends (an hour for one). */
		int64_t pad = L->x1 > L->x0 ? (L->x1 - L->x0) / 40 + 1 : 3600;
		L->x0 -= pad;
		L->x1 += pad;
	}
	return any;
}

/* The title (the chart's, else the series' names and the one unit) and
 * the subtitle (the chart's, else the period and the dates). */
static void
draw_titles(struct hq_buf *b, const struct hq_chart *c, const struct panel *P,
    size_t np, int any, int64_t data0, int64_t data1)
{
	char d0[32], d1[32];

	hq_buf_printf(b, "<text class=\"title\" x=\"%d\" y=\"26\" font-size=\"17\""
	    " font-weight=\"600\" fill=\"#222\">", 16);
	if (c->title) {
		hq_svg_put_esc(b, c->title);
	} else {
		for (size_t i = 0; i < c->nseries; i++) {
			if (i)
				hq_buf_puts(b, ", ");
			hq_svg_put_esc(b, c->series[i].name);
		}
		if (np == 1 && P[0].unit[0]) {
			hq_buf_puts(b, " (");
			hq_svg_put_esc(b, P[0].unit);
			hq_buf_puts(b, ")");
		}
	}
	hq_buf_puts(b, "</text>\n");
	if (c->subtitle) {
		hq_buf_puts(b, "<text class=\"subtitle\" x=\"16\" y=\"46\" "
		    "font-size=\"12\" fill=\"#777\">");
		hq_svg_put_esc(b, c->subtitle);
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
}

/* The extent of a panel's values and of the bands around them (NaN: no
 * value). */
static void
panel_extent(const struct hq_chart *c, const struct panel *p, double *lo,
    double *hi)
{
	*lo = *hi = NAN;
	for (size_t m = 0; m < p->n; m++) {
		const struct hq_chart_series *s = &c->series[p->series[m]];
		for (size_t j = 0; j < s->n; j++) {
			double v[3] = { s->pts[j].value,
				s->band_lo ? s->band_lo[j] : NAN,
				s->band_hi ? s->band_hi[j] : NAN };
			for (int q = 0; q < 3; q++) {
				if (!isfinite(v[q]) || !isfinite(v[0]))
					continue;
				*lo = isnan(*lo) || v[q] < *lo ? v[q] : *lo;
				*hi = isnan(*hi) || v[q] > *hi ? v[q] : *hi;
			}
		}
	}
}

/* A panel from pixel row top, ph tall: its y axis, bands, bars, lines,
 * and the zero and x axis lines over them. */
static void
draw_panel(struct hq_buf *b, const struct hq_chart *c, const struct layout *L,
    struct panel *p, double top, double ph)
{
	double lo, hi;

	panel_extent(c, p, &lo, &hi);
	p->y.top = top;
	p->y.bottom = p->y.top + ph;
	hq_svg_yscale_fit(&p->y, lo, hi, p->bars, ph < 200 ? 4 : 5);
	hq_svg_draw_yaxis(b, L, p);
	if (isnan(lo))
		hq_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\""
		    " fill=\"#999\" font-size=\"14\">no data</text>\n",
		    (L->left + L->right) / 2, (p->y.top + p->y.bottom) / 2);
	/* Bands first, bars over them, lines over both. */
	for (size_t m = 0; m < p->n; m++)
		draw_band(b, L, p, &c->series[p->series[m]]);
	size_t slot = 0;
	for (size_t m = 0; m < p->n; m++)
		if (c->series[p->series[m]].bars)
			draw_bars(b, c, L, p, p->series[m], slot++,
			    hq_svg_palette[p->series[m] % NPALETTE]);
	for (size_t m = 0; m < p->n; m++)
		if (!c->series[p->series[m]].bars)
			draw_line(b, c, L, p, p->series[m],
			    hq_svg_palette[p->series[m] % NPALETTE]);
	/* The zero line over the bars, when values go below it. */
	if (p->y.lo < 0 && p->y.hi > 0)
		hq_buf_printf(b, "<line class=\"zero\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.2f\""
		    " y2=\"%.2f\" stroke=\"#444\" stroke-width=\"1\"/>\n", L->left,
		    L->right, hq_svg_ypx(&p->y, 0), hq_svg_ypx(&p->y, 0));
	/* The x axis line, over the bars' feet. */
	hq_buf_printf(b, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.2f\" y2=\"%.2f\""
	    " stroke=\"#444\" stroke-width=\"1\"/>\n", L->left, L->right,
	    p->y.bottom, p->y.bottom);
}

static void
chart(struct hq_buf *b, const struct hq_chart *c, double *height)
{
	struct panel *P = hq_xcalloc(c->nseries + 1, sizeof *P);
	size_t np = make_panels(c, P);
	struct layout L = { 0 };
	int64_t data0, data1;
	int any;
	double y;

	L.width = c->width > 0 ? c->width : 960;
	L.height = c->height > 0 ? c->height : 400;
	L.left = MARGIN_LEFT;
	L.right = L.width - MARGIN_RIGHT;
	any = time_domain(c, &L, &data0, &data1);

	/* Title, subtitle, legend. */
	draw_titles(b, c, P, np, any, data0, data1);
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
	for (size_t k = 0; k < np; k++)
		draw_panel(b, c, &L, &P[k], top + (double)k * (ph + PANEL_GAP), ph);
	if (np == 0) {
		hq_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\""
		    " fill=\"#999\" font-size=\"14\">no data</text>\n",
		    (L.left + L.right) / 2, (top + L.height - MARGIN_BOTTOM) / 2);
	} else if (any) {
		hq_svg_draw_xaxis(b, c, &L, P[np - 1].y.bottom);
		draw_marks(b, c, &L, P[0].y.top, P[np - 1].y.bottom);
	}
	for (size_t k = 0; k < np; k++)
		free(P[k].series);
	free(P);
	*height = L.height;
}

/* The document around a drawn body: header, white background, body. */
int
hq_svg_emit(FILE *fp, struct hq_buf *body, int width, double height)
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
	return hq_svg_emit(fp, &body, c->width > 0 ? c->width : 960, height);
}

