/* Unit tests for lib/render/svg.c's charts of values (hq-correlate): the
 * scatter and the strip plots are well-formed XML (libxml2), put every
 * point where its value is, draw the fitted line and the means, and
 * survive one point, equal values, no data and markup in names.
 *
 * HQ_SVG_KEEP=dir keeps the charts there, to look at (rsvg-convert). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/svg.h"
#include "svgdoc.h"
#include "tap.h"

static int
scatter(FILE *fp, const void *c)
{
	return hq_svg_scatter(fp, c);
}

static int
strips(FILE *fp, const void *c)
{
	return hq_svg_strips(fp, c);
}

/* The attribute of the first node expr selects, as a number. */
static double
attr(const char *expr, const char *name)
{
	xmlXPathObjectPtr r = xpath(expr);
	double v = NAN;

	if (r && r->nodesetval && r->nodesetval->nodeNr > 0) {
		xmlChar *a = xmlGetProp(r->nodesetval->nodeTab[0], BAD_CAST name);
		if (a)
			v = strtod((const char *)a, NULL);
		xmlFree(a);
	}
	xmlXPathFreeObject(r);
	return v;
}

int
main(void)
{
	double x[60], y[60], w[30], wo[40];
	const char *labels[60];
	char lab[60][16];

	for (int i = 0; i < 60; i++) {
		x[i] = 100 + i * 1.5;                     /* glucose max, mg/dL */
		y[i] = 8.2 - 0.012 * x[i] + 0.3 * sin(i * 1.7);   /* sleep, h */
		snprintf(lab[i], sizeof lab[i], "2024-11-%02d", i % 30 + 1);
		labels[i] = lab[i];
	}
	struct hq_scatter sc = {
		.title = "glucose (max) and sleep the night after",
		.subtitle = "r = -0.9, n = 60 days",
		.xname = "glucose max", .xunit = "mg/dL", .yname = "sleep", .yunit = "h",
		.x = x, .y = y, .labels = labels, .n = 60,
		.has_line = 1, .slope = -0.012, .intercept = 8.2,
	};
	ok(svg_render(scatter, &sc, "scatter") == 0, "scatter: well-formed SVG");
	is_int(count("//s:g[@class='points']/s:circle"), 60, "one dot per pair");
	is_int(count("//s:line[@class='fit']"), 1, "the fitted line");
	ok(attr("//s:line[@class='fit']", "y1") < attr("//s:line[@class='fit']", "y2"),
	    "a negative slope falls from left to right (y grows downwards)");
	ok(attr("//s:g[@class='points']/s:circle[1]", "cx") <
	    attr("//s:g[@class='points']/s:circle[60]", "cx"), "larger x further right");
	ok(strstr(svg_text, "<title>2024-11-01: 100 mg/dL, 7") != NULL, "a tooltip names the day and both values");
	ok(strstr(svg_text, "glucose max (mg/dL)") != NULL, "the x axis is named with its unit");
	ok(count("//s:text[@class='xtick']") >= 3, "x ticks: %d", count("//s:text[@class='xtick']"));

	sc.n = 1;
	sc.has_line = 0;
	ok(svg_render(scatter, &sc, NULL) == 0 && count("//s:g[@class='points']/s:circle") == 1,
	    "one point: no division by zero");
	ok(no_nan(), "and no nan or inf in it");
	sc.n = 0;
	ok(svg_render(scatter, &sc, NULL) == 0 && strstr(svg_text, "no data"), "no points: says no data");
	double k[3] = { 5, 5, 5 };
	sc.x = sc.y = k;
	sc.n = 3;
	sc.title = "<b>&\"x\"";
	ok(svg_render(scatter, &sc, NULL) == 0 && no_nan(),
	    "equal values and markup in the title: well-formed, no nan");

	for (int i = 0; i < 30; i++)
		w[i] = 6.4 + 0.5 * sin(i * 2.1);
	for (int i = 0; i < 40; i++)
		wo[i] = 7.1 + 0.5 * cos(i * 1.3);
	wo[7] = NAN;
	struct hq_strip g[2] = {
		{ "nights after glucose.max>140", w, labels, 30 },
		{ "the other nights", wo, NULL, 40 },
	};
	struct hq_strips st = { .title = "sleep after high-glucose days", .subtitle = "diff -0.7 h",
		.unit = "h", .groups = g, .ngroups = 2 };
	ok(svg_render(strips, &st, "strips") == 0, "strips: well-formed SVG");
	is_int(count("//s:g[@class='strip']"), 2, "two strips");
	is_int(count("//s:g[@class='strip'][1]/s:circle"), 30, "a dot per day with the condition");
	is_int(count("//s:g[@class='strip'][2]/s:circle"), 39, "a dot per day without (NaN skipped)");
	is_int(count("//s:line[@class='mean']"), 2, "a mean bar per strip");
	ok(attr("(//s:line[@class='mean'])[1]", "y1") > attr("(//s:line[@class='mean'])[2]", "y1"),
	    "the lower mean is drawn lower");
	ok(strstr(svg_text, ">n = 39<") != NULL, "each strip says its n");
	st.ngroups = 0;
	ok(svg_render(strips, &st, NULL) == 0 && strstr(svg_text, "no data"), "no groups: no data");

	svg_done();
	return done_testing();
}
