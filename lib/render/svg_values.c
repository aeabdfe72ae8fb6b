/*
 * svg_values — the charts of values rather than time (svg.h): a scatter of
 * paired days with its fitted line and strip plots of groups with their
 * means (hq-correlate), and before/after bars (hq-report compare dexa).
 * They share the y axis, the palette and the document with the charts
 * over time of svg.c (svg_int.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/svg.h"
#include "hq/svg_int.h"

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
		double px = hq_svg_ypx(x, v);
		hq_svg_fmt_tick(v, x, label, sizeof label);
		hq_buf_printf(b, "<line x1=\"%.2f\" x2=\"%.2f\" y1=\"%.1f\" y2=\"%.1f\""
		    " stroke=\"#444\" stroke-width=\"1\"/>\n", px, px, ybase, ybase + 5);
		hq_buf_printf(b, "<text class=\"xtick\" x=\"%.2f\" y=\"%.1f\" text-anchor=\"middle\""
		    " fill=\"#555\" font-size=\"11\">%s</text>\n", px, ybase + 18, label);
	}
	hq_buf_printf(b, "<text class=\"xlabel\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\""
	    " fill=\"#555\" font-size=\"12\" font-weight=\"600\">", (x->bottom + x->top) / 2,
	    ybase + 38);
	hq_svg_put_esc(b, name);
	if (unit && *unit) {
		hq_buf_puts(b, " (");
		hq_svg_put_esc(b, unit);
		hq_buf_puts(b, ")");
	}
	hq_buf_puts(b, "</text>\n");
}

static void
value_titles(struct hq_buf *b, const char *title, const char *subtitle)
{
	hq_buf_puts(b, "<text class=\"title\" x=\"16\" y=\"26\" font-size=\"17\""
	    " font-weight=\"600\" fill=\"#222\">");
	hq_svg_put_esc(b, title);
	hq_buf_puts(b, "</text>\n<text class=\"subtitle\" x=\"16\" y=\"46\""
	    " font-size=\"12\" fill=\"#777\">");
	hq_svg_put_esc(b, subtitle);
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
		hq_svg_put_esc(b, labels[i]);
		hq_buf_puts(b, ": ");
	}
	hq_svg_put_esc(b, text);
	hq_buf_puts(b, "</title></circle>\n");
}

int
hq_svg_scatter(FILE *fp, const struct hq_scatter *s)
{
	struct hq_buf b = { 0 };
	struct yscale xs, ys;
	struct panel P = { 0 };
	struct hq_buf ylabel = { 0 };
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
	hq_svg_yscale_fit(&ys, ylo, yhi, 0, 6);
	xs.bottom = L.left;
	xs.top = L.right;
	hq_svg_yscale_fit(&xs, xlo, xhi, 0, 7);
	P.y = ys;
	/* the y axis named as the x axis is: "heart_rate_variability_sdnn (ms)" */
	hq_buf_puts(&ylabel, s->yname ? s->yname : "");
	if (s->yunit && *s->yunit)
		hq_buf_printf(&ylabel, s->yname && *s->yname ? " (%s)" : "%s", s->yunit);
	P.unit = ylabel.data;

	value_titles(&b, s->title, s->subtitle);
	hq_svg_draw_yaxis(&b, &L, &P);
	hq_buf_printf(&b, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.2f\" y2=\"%.2f\""
	    " stroke=\"#444\" stroke-width=\"1\"/>\n", L.left, L.right, ys.bottom, ys.bottom);
	draw_xvalues(&b, &xs, ys.bottom, s->xname, s->xunit);
	if (isnan(xlo))
		hq_buf_printf(&b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\""
		    " fill=\"#999\" font-size=\"14\">no data</text>\n",
		    (L.left + L.right) / 2, (ys.top + ys.bottom) / 2);
	hq_buf_printf(&b, "<g class=\"points\" fill=\"%s\" fill-opacity=\"0.6\""
	    " stroke=\"#fff\" stroke-width=\"0.8\">\n", hq_svg_palette[0]);
	for (size_t i = 0; i < s->n; i++) {
		char text[96];
		if (!isfinite(s->x[i]) || !isfinite(s->y[i]))
			continue;
		hq_buf_printf(&b, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.1f\"",
		    hq_svg_ypx(&xs, s->x[i]), hq_svg_ypx(&ys, s->y[i]), r);
		snprintf(text, sizeof text, "%.6g %s, %.6g %s", s->x[i],
		    s->xunit ? s->xunit : "", s->y[i], s->yunit ? s->yunit : "");
		value_tooltip(&b, s->labels, i, text);
	}
	hq_buf_puts(&b, "</g>\n");
	if (s->has_line && !isnan(xlo))
		hq_buf_printf(&b, "<line class=\"fit\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\""
		    " y2=\"%.2f\" stroke=\"%s\" stroke-width=\"2.5\"/>\n", hq_svg_ypx(&xs, xlo),
		    hq_svg_ypx(&ys, s->intercept + s->slope * xlo), hq_svg_ypx(&xs, xhi),
		    hq_svg_ypx(&ys, s->intercept + s->slope * xhi), hq_svg_palette[1]);
	hq_buf_free(&ylabel);
	return hq_svg_emit(fp, &b, width, height);
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
	hq_svg_yscale_fit(&ys, lo, hi, 0, 6);
	P.y = ys;
	colw = (L.right - L.left) / (double)(s->ngroups ? s->ngroups : 1);

	value_titles(&b, s->title, s->subtitle);
	hq_svg_draw_yaxis(&b, &L, &P);
	hq_buf_printf(&b, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.2f\" y2=\"%.2f\""
	    " stroke=\"#444\" stroke-width=\"1\"/>\n", L.left, L.right, ys.bottom, ys.bottom);
	for (size_t g = 0; g < s->ngroups; g++) {
		const struct hq_strip *st = &s->groups[g];
		const char *color = hq_svg_palette[g % NPALETTE];
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
			    mid + j * half * 0.8, hq_svg_ypx(&ys, st->v[i]));
			snprintf(text, sizeof text, "%.6g %s", st->v[i], s->unit ? s->unit : "");
			value_tooltip(&b, st->labels, i, text);
		}
		hq_buf_puts(&b, "</g>\n");
		if (n) {
			char label[64], mean[40];
			double y = hq_svg_ypx(&ys, sum / (double)n);
			snprintf(mean, sizeof mean, "%.3g", sum / (double)n);
			snprintf(label, sizeof label, "mean %s %s", mean, s->unit ? s->unit : "");
			hq_buf_printf(&b, "<line class=\"mean\" x1=\"%.2f\" x2=\"%.2f\" y1=\"%.2f\""
			    " y2=\"%.2f\" stroke=\"#222\" stroke-width=\"3\"/>\n", mid - half,
			    mid + half, y, y);
			/* above the bar's right end, on a white halo over the dots */
			hq_buf_printf(&b, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\""
			    " font-size=\"12\" font-weight=\"600\" fill=\"#222\" stroke=\"#fff\""
			    " stroke-width=\"3\" paint-order=\"stroke\">", mid + half, y - 7);
			hq_svg_put_esc(&b, label);
			hq_buf_puts(&b, "</text>\n");
		}
		hq_buf_printf(&b, "<text class=\"group\" x=\"%.2f\" y=\"%.1f\""
		    " text-anchor=\"middle\" fill=\"#333\" font-size=\"12\""
		    " font-weight=\"600\">", mid, ys.bottom + 22);
		hq_svg_put_esc(&b, st->name);
		hq_buf_printf(&b, "</text>\n<text x=\"%.2f\" y=\"%.1f\" text-anchor=\"middle\""
		    " fill=\"#777\" font-size=\"11\">n = %zu</text>\n", mid, ys.bottom + 38, n);
	}
	if (isnan(lo))
		hq_buf_printf(&b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\""
		    " fill=\"#999\" font-size=\"14\">no data</text>\n",
		    (L.left + L.right) / 2, (ys.top + ys.bottom) / 2);
	return hq_svg_emit(fp, &b, width, height);
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
	hq_svg_put_esc(b, r->label);
	hq_buf_printf(b, "</text>\n<text x=\"16\" y=\"%.1f\" font-size=\"11\" fill=\"#777\">",
	    y + 32);
	hq_svg_put_esc(b, r->unit && *r->unit ? r->unit : "no unit");
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
	hq_svg_put_esc(b, r->change ? r->change : "");
	hq_buf_puts(b, "</text>\n");
	if (r->note) {
		hq_buf_printf(b, "<text x=\"%d\" y=\"%.1f\" font-size=\"11\""
		    " font-style=\"italic\" fill=\"#555\">", CMP_BAR_X1 + 56, y + 32);
		hq_svg_put_esc(b, r->note);
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
	hq_svg_put_esc(&b, c->before_label);
	hq_buf_printf(&b, "</text>\n<rect x=\"%d\" y=\"58\" width=\"12\" height=\"12\""
	    " fill=\"" CMP_AFTER "\"/>\n<text x=\"%d\" y=\"68\" font-size=\"12\""
	    " fill=\"#333\">", CMP_BAR_X0 + 140, CMP_BAR_X0 + 158);
	hq_svg_put_esc(&b, c->after_label);
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
		hq_svg_put_esc(&b, c->footnote);
		hq_buf_puts(&b, "</text>\n");
	}
	return hq_svg_emit(fp, &b, CMP_W, height);
}
