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

#include "hq/time.h"

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
};

struct hq_chart {
	const char *title;   /* may be NULL: built from the series names */
	enum hq_period by;   /* bucket size, for axis labels; HQ_PERIOD_NONE for raw samples */
	const struct hq_chart_series *series;
	size_t nseries;
	int width, height;   /* 0: defaults (960 x 400) */
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

#endif
