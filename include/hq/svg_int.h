/*
 * svg_int — internal to lib/render/: what the charts over time (svg.c), the
 * charts of values (svg_values.c) and the axes (svg_axis.c) share:
 * margins, the palette, the axes and their scales, a panel's layout,
 * escaping, and the document around a drawn body. layers.pl fails an
 * includer outside lib/render/.
 */
#ifndef HQ_SVG_INT_H
#define HQ_SVG_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hq/buf.h"
#include "hq/svg.h"

#define MARGIN_LEFT 68
#define MARGIN_RIGHT 28
#define MARGIN_BOTTOM 46
#define CHAR_W 6.4        /* average glyph width at 11-12px, for layout */

/* Series colours, in order. */
#define NPALETTE 10
extern const char *const hq_svg_palette[NPALETTE];
extern const char *const hq_svg_month_abbr[12];

/* Text and attribute values escaped for XML (control characters left out). */
void hq_svg_put_esc(struct hq_buf *b, const char *s);

/* A y axis: values [lo, hi] by step, drawn from pixel row bottom (lo) up
 * to top (hi). */
struct yscale {
	double lo, hi, step;
	double top, bottom;           /* pixel rows of hi and lo */
};

/* Round ends and step (about ticks of them) for values in [min, max]
 * (NaN: none); bars keep zero on the axis. top and bottom are the
 * caller's. */
void hq_svg_yscale_fit(struct yscale *y, double min, double max, int bars,
    int ticks);
/* The pixel row of v. */
double hq_svg_ypx(const struct yscale *y, double v);
/* A tick's label: 12,500 or 12.5k or 0.25, as many decimals as the step
 * needs. */
void hq_svg_fmt_tick(double v, const struct yscale *y, char *buf, size_t n);

/* The series of one unit and their y axis. */
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

/* The pixel column of instant t. */
double hq_svg_xpx(const struct layout *L, double t);

/* The unit above the axis, the ticks and their grid lines. */
void hq_svg_draw_yaxis(struct hq_buf *b, const struct layout *L,
    const struct panel *P);
/* The date ticks and labels below pixel row base, for c's period. */
void hq_svg_draw_xaxis(struct hq_buf *b, const struct hq_chart *c,
    const struct layout *L, double base);

/* The document around a drawn body (which it frees) to fp: 0 or -1. */
int hq_svg_emit(FILE *fp, struct hq_buf *body, int width, double height);

#endif
