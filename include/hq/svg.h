/*
 * svg — charts of query rows as standalone SVG documents.
 *
 * One chart holds one or more series over time. A series of sums (steps per
 * day) is drawn as bars, anything else as a line with points. Axes carry
 * dates (formatted for the bucket size) and the unit. Everything passed in
 * is borrowed for the duration of the call.
 *
 * Series that share a unit share a y axis; each further unit gets its own
 * panel below (small multiples on one date axis). A NaN value, a missing
 * bucket, or (raw samples) a step five times the usual one breaks the line.
 * More points than pixels are drawn per pixel column (first, lowest,
 * highest, last), so millions of samples make a chart of some 50 kB.
 *
 * Two charts of values rather than time, for hq-correlate: a scatter of
 * paired days with a fitted line, and strip plots of groups of days with
 * their means.
 */
#ifndef HQ_SVG_H
#define HQ_SVG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hq/buf.h"
#include "hq/time.h"

/* s escaped for XML and HTML text and attributes (& < > " '), control
 * characters other than tab and line end left out: for pages that draw
 * charts of their own (hq-report week's HTML). */
void hq_svg_put_esc(struct hq_buf *b, const char *s);

struct hq_chart_point {
	int64_t start, end;  /* the bucket (or sample) interval, UTC seconds */
	double value;        /* NaN: no value (a gap in the line) */
};

struct hq_chart_series {
	const char *name;    /* "step_count" */
	const char *unit;    /* "count" */
	int bars;            /* 1: bars (sums), 0: line */
	const struct hq_chart_point *pts;
	size_t n;
	/* Optional, per point (NULL: none). A band behind the line, such as
	 * a reference range that may change from point to point: a NaN
	 * limit runs to the panel's edge (a one-sided range), NaN on both
	 * sides leaves that point out of the band. Points whose alert is set
	 * (out of range) are drawn in red. */
	const double *band_lo, *band_hi;
	const unsigned char *alert;
	int connect;         /* join every point (irregular measurements) */
	int64_t dash_from;   /* 0, or the line dashed from the point starting
	                      * here on (planned days) */
};

/* A dashed vertical line at a time, labelled ("method: direct"). */
struct hq_chart_mark {
	int64_t time;
	const char *label;
};

struct hq_chart {
	const char *title;   /* may be NULL: built from the series names */
	enum hq_period by;   /* bucket size, for axis labels; HQ_PERIOD_NONE for raw samples */
	const struct hq_chart_series *series;
	size_t nseries;
	int width, height;   /* 0: defaults (960 x 400) */
	const char *subtitle; /* NULL: the bucket size and the date range */
	const struct hq_chart_mark *marks;
	size_t nmarks;
};

/* Write the chart; 0, or -1 on a write error. Dates on the axis are in the
 * local zone (hq_time_set_zone). */
int hq_svg_write(FILE *fp, const struct hq_chart *c);

/* ---- values against values (hq-correlate) -------------------------------- */

/* n points (x[i], y[i]), each with a label for its tooltip (a date; labels
 * may be NULL), and the line y = intercept + slope * x when has_line. */
struct hq_scatter {
	const char *title, *subtitle;
	const char *xname, *xunit, *yname, *yunit;
	const double *x, *y;
	const char *const *labels;
	size_t n;
	int has_line;
	double slope, intercept;
	int width, height;   /* 0: defaults (760 x 540) */
};
int hq_svg_scatter(FILE *fp, const struct hq_scatter *s);

/* Groups of values side by side on one axis, a dot each (jittered across
 * the strip, the same way every time) and a bar at the group's mean. */
struct hq_strip {
	const char *name;            /* under the strip: "after glucose.max>140" */
	const double *v;
	const char *const *labels;   /* tooltips; may be NULL */
	size_t n;
};
struct hq_strips {
	const char *title, *subtitle, *unit;
	const struct hq_strip *groups;
	size_t ngroups;
	int width, height;   /* 0: defaults (760 x 540) */
};
int hq_svg_strips(FILE *fp, const struct hq_strips *s);
/* Before and after, a pair of bars per row (DEXA fields compared): each
 * row on its own scale (its unit), the values at the bars' ends and the
 * change beside them; a row whose note is set (a change within the
 * scanner's precision) is shown muted with the note. */
struct hq_compare_row {
	const char *label, *unit;
	double before, after;
	const char *change;  /* "+1.2 kg (+3.4 %)" */
	const char *note;    /* NULL, or "within precision" */
};

struct hq_compare_chart {
	const char *title, *subtitle;
	const char *before_label, *after_label;   /* the two dates */
	const struct hq_compare_row *rows;
	size_t n;
	const char *footnote;  /* NULL, or a line under the rows */
};

int hq_svg_compare(FILE *fp, const struct hq_compare_chart *c);

#endif
