/* Unit tests for lib/render/svg.c: every chart is well-formed XML (parsed with
 * libxml2), bars for sums and a line for the rest, a gap for NaN, date
 * labels that suit the bucket and do not overlap, and no division by zero
 * for one point, equal values or no data.
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
draw_chart(FILE *fp, const void *c)
{
	return hq_svg_write(fp, c);
}

/* Render c into svg_text and parse it into svg_doc; 0 when well-formed. */
static int
render(const struct hq_chart *c, const char *keep_as)
{
	return svg_render(draw_chart, c, keep_as);
}

/* The text of every node an expression selects, joined by '|'. */
static void
texts(const char *expr, char *buf, size_t n)
{
	xmlXPathObjectPtr r = xpath(expr);
	size_t o = 0;

	buf[0] = '\0';
	for (int i = 0; r && r->nodesetval && i < r->nodesetval->nodeNr; i++) {
		xmlChar *t = xmlNodeGetContent(r->nodesetval->nodeTab[i]);
		int w = snprintf(buf + o, n - o, "%s%s", i ? "|" : "", (char *)t);
		xmlFree(t);
		if (w < 0 || (size_t)w >= n - o)
			break;
		o += (size_t)w;
	}
	xmlXPathFreeObject(r);
}

/* Attribute values of the nodes an expression selects. */
static int
attrs(const char *expr, const char *attr, double *out, int max)
{
	xmlXPathObjectPtr r = xpath(expr);
	int n = 0;

	for (int i = 0; r && r->nodesetval && i < r->nodesetval->nodeNr && n < max; i++) {
		xmlChar *v = xmlGetProp(r->nodesetval->nodeTab[i], BAD_CAST attr);
		if (v)
			out[n++] = strtod((char *)v, NULL);
		xmlFree(v);
	}
	xmlXPathFreeObject(r);
	return n;
}

/* How many times the line's path moves (starts a new stretch) and draws. */
static void
path_ops(int *moves, int *lines)
{
	xmlXPathObjectPtr r = xpath("string(//s:path[@stroke]/@d)");
	const char *d = r && r->stringval ? (const char *)r->stringval : "";

	*moves = *lines = 0;
	for (; *d; d++) {
		*moves += *d == 'M';
		*lines += *d == 'L';
	}
	xmlXPathFreeObject(r);
}

/* Labels with centres xs[] and widths from their text must not overlap. */
static int
labels_apart(void)
{
	xmlXPathObjectPtr r = xpath("//s:text[@class='xtick' or @class='xtick2']");
	double prev_right[2] = { -1e9, -1e9 };
	int okay = 1;

	for (int i = 0; r && r->nodesetval && i < r->nodesetval->nodeNr; i++) {
		xmlNodePtr nd = r->nodesetval->nodeTab[i];
		xmlChar *x = xmlGetProp(nd, BAD_CAST "x"), *t = xmlNodeGetContent(nd);
		xmlChar *cls = xmlGetProp(nd, BAD_CAST "class");
		int row = strcmp((char *)cls, "xtick2") == 0;
		double cx = strtod((char *)x, NULL), half = strlen((char *)t) * 6.0 / 2;
		if (cx - half < prev_right[row])
			okay = 0;
		prev_right[row] = cx + half;
		xmlFree(x);
		xmlFree(t);
		xmlFree(cls);
	}
	xmlXPathFreeObject(r);
	return okay;
}

#define DAY 86400

static void
days(struct hq_chart_point *p, size_t n, int64_t first, double (*f)(size_t))
{
	int64_t day = hq_time_local_day(first);

	/* Local days, as hq-query makes them: 23 and 25 hours at DST. */
	for (size_t i = 0; i < n; i++) {
		p[i].start = hq_time_day_start(day + (int64_t)i);
		p[i].end = hq_time_day_start(day + (int64_t)i + 1);
		p[i].value = f(i);
	}
}

static double steps_f(size_t i) { return 6000 + (double)((i * 7919) % 9000); }
static double hr_f(size_t i) { return i == 5 ? NAN : 60 + 10 * sin((double)i / 2); }
static double const_f(size_t i) { (void)i; return 72; }
static double temp_f(size_t i) { return -8 + 12 * sin((double)i / 60); }
static double weight_f(size_t i) { return 80 - (double)i * 0.05; }

int
main(void)
{
	struct hq_err e;
	/* 2024-03-01 local midnight in Los Angeles (PST, -8). */
	const int64_t mar1 = 1709280000;
	struct hq_chart_point steps[14], hr[10], one[1], flat[30], year[366],
	    many[2000], weight[120], weeks[26], months[18];
	char buf[4096];
	double xs[64];
	int n, nt, moves, lines;

	if (hq_time_set_zone("America/Los_Angeles", &e) != 0)
		return 1;

	/* Bars: two weeks of daily steps. */
	days(steps, 14, mar1, steps_f);
	struct hq_chart_series s_steps = { .name = "step_count", .unit = "count", .bars = 1, .pts = steps, .n = 14 };
	struct hq_chart c = { .by = HQ_DAY, .series = &s_steps, .nseries = 1 };
	ok(render(&c, "bars-days") == 0, "bar chart is well-formed XML");
	ok(svg_doc && strcmp((char *)xmlDocGetRootElement(svg_doc)->name, "svg") == 0, "root is <svg>");
	is_int(count("//s:g[@class='bars']/s:rect"), 14, "one bar per day");
	is_int(count("//s:path[@stroke]"), 0, "no line in a bar chart");
	texts("//s:text[@class='unit']", buf, sizeof buf);
	is_str(buf, "count", "the unit labels the y axis");
	texts("//s:text[@class='title']", buf, sizeof buf);
	is_str(buf, "step_count (count)", "title from the series name and unit");
	texts("//s:text[@class='xtick']", buf, sizeof buf);
	ok(strstr(buf, "Mar 1|") == buf, "day labels start at Mar 1: %s", buf);
	texts("//s:text[@class='xtick2']", buf, sizeof buf);
	is_str(buf, "2024", "the year once, under the first date");
	texts("//s:text[@class='ytick']", buf, sizeof buf);
	ok(strncmp(buf, "0|", 2) == 0, "bars start from 0: %s", buf);
	ok(strstr(buf, "15,000") != NULL, "round ticks with separators: %s", buf);
	texts("//s:text[@class='subtitle']", buf, sizeof buf);
	ok(strstr(buf, "per day") && strstr(buf, "Mar 1, 2024") && strstr(buf, "Mar 14, 2024"),
	    "subtitle says bucket and range: %s", buf);
	/* The first bar (6000 steps, on a 0..15,000 axis) is 6000/15000 of
	 * the axis tall. */
	n = attrs("//s:g[@class='bars']/s:rect[1]", "height", xs, 1);
	double h0 = xs[0];
	nt = attrs("//s:text[@class='ytick']", "y", xs, 64);
	ok(n == 1 && nt == 7, "one first bar, seven ticks");
	is_dbl(h0, (xs[0] - xs[nt - 1]) * 6000 / 15000, 0.02, "bar height to scale");
	ok(strstr(svg_text, "<title>step_count 2024-03-01: 6000 count</title>") != NULL,
	    "bars carry a tooltip");
	ok(no_nan(), "no NaN in the output");

	/* A line with a gap. */
	days(hr, 10, mar1, hr_f);
	struct hq_chart_series s_hr = { .name = "resting_heart_rate", .unit = "count/min", .bars = 0, .pts = hr, .n = 10 };
	c = (struct hq_chart){ .title = "Resting heart rate", .by = HQ_DAY, .series = &s_hr, .nseries = 1 };
	ok(render(&c, "line-gap") == 0, "line chart is well-formed");
	is_int(count("//s:g[@class='bars']/s:rect"), 0, "no bars in a line chart");
	is_int(count("//s:path[@stroke]"), 1, "one line");
	is_int(count("//s:g[@class='points']/s:circle"), 9, "a dot per value, none for NaN");
	path_ops(&moves, &lines);
	is_int(moves, 2, "NaN breaks the line in two");
	is_int(lines, 7, "4 + 3 segments either side of the gap");
	texts("//s:text[@class='title']", buf, sizeof buf);
	is_str(buf, "Resting heart rate", "given title");
	texts("//s:text[@class='ytick']", buf, sizeof buf);
	ok(strncmp(buf, "0|", 2) != 0, "a line's axis need not start at 0: %s", buf);
	ok(no_nan(), "no NaN written for the gap");

	/* A day with no row at all (the query skips empty buckets) is a gap
	 * too: the line does not pretend to know it. */
	days(hr, 10, mar1, hr_f);
	hr[5] = hr[6];
	s_hr.pts = hr;
	s_hr.n = 9;
	hr[5].value = 61;
	for (size_t i = 6; i < 9; i++)
		hr[i] = hr[i + 1];
	ok(render(&c, NULL) == 0, "line with a missing day");
	path_ops(&moves, &lines);
	is_int(moves, 2, "a missing bucket breaks the line");
	/* Raw samples every minute with an hour missing. */
	for (size_t i = 0; i < 120; i++) {
		many[i].start = many[i].end = mar1 + (int64_t)i * 60 + (i >= 60 ? 3600 : 0);
		many[i].value = 60 + (double)(i % 7);
	}
	struct hq_chart_series s_raw = { .name = "heart_rate", .unit = "count/min", .bars = 0, .pts = many, .n = 120 };
	c = (struct hq_chart){ .by = HQ_PERIOD_NONE, .series = &s_raw, .nseries = 1 };
	ok(render(&c, "raw-gap") == 0 && no_nan(), "raw samples with an hour missing");
	path_ops(&moves, &lines);
	is_int(moves, 2, "an hour without samples is a gap, not a straight line");
	texts("//s:text[@class='subtitle']", buf, sizeof buf);
	ok(strncmp(buf, "samples", 7) == 0, "raw samples say so: %s", buf);

	/* One point; all-equal values. */
	one[0] = (struct hq_chart_point){ mar1, mar1 + DAY, 71 };
	s_hr = (struct hq_chart_series){ .name = "heart_rate", .unit = "count/min", .bars = 0, .pts = one, .n = 1 };
	c = (struct hq_chart){ .by = HQ_DAY, .series = &s_hr, .nseries = 1 };
	ok(render(&c, "one-point") == 0 && no_nan(), "one point: well-formed, finite");
	is_int(count("//s:g[@class='points']/s:circle"), 1, "one dot");
	one[0].end = one[0].start;
	c.by = HQ_PERIOD_NONE;
	ok(render(&c, NULL) == 0 && no_nan(), "one raw sample (zero-length domain): finite");
	days(flat, 30, mar1, const_f);
	s_hr = (struct hq_chart_series){ .name = "heart_rate", .unit = "count/min", .bars = 0, .pts = flat, .n = 30 };
	c = (struct hq_chart){ .by = HQ_DAY, .series = &s_hr, .nseries = 1 };
	ok(render(&c, "constant") == 0 && no_nan(), "constant series: finite");
	{
		double cy[40], ty[20];
		int nc = attrs("//s:g[@class='points']/s:circle", "cy", cy, 40);
		nt = attrs("//s:text[@class='ytick']", "y", ty, 20);
		int inside = nc == 30 && nt >= 2;
		for (int i = 0; inside && i < nc; i++)
			inside = cy[i] == cy[0] && cy[i] < ty[0] - 10 && cy[i] > ty[nt - 1] + 10;
		ok(inside, "its points sit inside the axis range, not on an edge");
	}
	s_hr.bars = 1;
	for (size_t i = 0; i < 30; i++)
		flat[i].value = 0;
	ok(render(&c, NULL) == 0 && no_nan(), "all-zero bars: finite");

	/* Negative values, a year of days: month labels, no overlap. */
	days(year, 366, mar1, temp_f);
	struct hq_chart_series s_t = { .name = "wrist_temperature_delta", .unit = "degC", .bars = 0, .pts = year, .n = 366 };
	c = (struct hq_chart){ .by = HQ_DAY, .series = &s_t, .nseries = 1 };
	ok(render(&c, "year-negative") == 0 && no_nan(), "a year with negative values");
	texts("//s:text[@class='ytick']", buf, sizeof buf);
	ok(strstr(buf, "\xe2\x88\x92") != NULL, "negative ticks with a minus sign: %s", buf);
	texts("//s:text[@class='xtick']", buf, sizeof buf);
	ok(strstr(buf, "Apr 2024") && strstr(buf, "Jan 2025") && !strchr(buf, 'W'),
	    "a year of days is labelled by month: %s", buf);
	ok(labels_apart(), "x labels do not overlap");
	is_int(count("//s:g[@class='points']/s:circle"), 0, "too many points for dots: a line alone");

	/* Bars of both signs hang from the zero line. */
	for (size_t i = 0; i < 14; i++)
		steps[i].value = i % 3 == 0 ? -(double)(i + 1) * 10 : (double)(i + 1) * 20;
	struct hq_chart_series s_bal = { .name = "energy_balance", .unit = "kcal", .bars = 1, .pts = steps, .n = 14 };
	c = (struct hq_chart){ .by = HQ_DAY, .series = &s_bal, .nseries = 1 };
	ok(render(&c, "bars-negative") == 0 && no_nan(), "bars of both signs");
	{
		double ry[14], rh[14], zero[1];
		int nr = attrs("//s:g[@class='bars']/s:rect", "y", ry, 14);
		attrs("//s:g[@class='bars']/s:rect", "height", rh, 14);
		int hang = nr == 14 && attrs("//s:text[@class='ytick'][text()='0']", "y", zero, 1) == 1;
		for (int i = 0; hang && i < 14; i++)
			hang = i % 3 == 0 ? fabs(ry[i] - zero[0]) < 0.01 : fabs(ry[i] + rh[i] - zero[0]) < 0.01;
		ok(hang, "negative bars start at 0 and go down, positive ones end at 0");
	}

	/* 2000 bars. */
	for (size_t i = 0; i < 2000; i++) {
		many[i].start = mar1 + (int64_t)i * 3600;
		many[i].end = many[i].start + 3600;
		many[i].value = (double)((i * 37) % 500);
	}
	struct hq_chart_series s_many = { .name = "step_count", .unit = "count", .bars = 1, .pts = many, .n = 2000 };
	c = (struct hq_chart){ .by = HQ_HOUR, .series = &s_many, .nseries = 1 };
	ok(render(&c, "bars-2000") == 0 && no_nan(), "2000 hourly bars");
	n = count("//s:g[@class='bars']/s:rect");
	ok(n > 800 && n <= 900, "bars under a pixel wide merge per pixel column (%d)", n);
	{
		double rh[1000], ty[20], tallest = 0;
		int nr = attrs("//s:g[@class='bars']/s:rect", "height", rh, 1000);
		nt = attrs("//s:text[@class='ytick']", "y", ty, 20);
		for (int i = 0; i < nr; i++)
			tallest = fmax(tallest, rh[i]);
		/* Ticks 0..500: the largest value, 499, is 499/500 of the axis. */
		is_dbl(tallest, (ty[0] - ty[nt - 1]) * 499 / 500, 0.02,
		    "the merged columns keep the largest value's height");
	}
	ok(labels_apart(), "x labels do not overlap at 2000 points");
	ok(strlen(svg_text) < 400000, "and the file stays small (%zu bytes)", strlen(svg_text));

	/* 200,000 raw samples: drawn as the envelope per pixel column. */
	{
		size_t big = 200000;
		struct hq_chart_point *pts = calloc(big, sizeof *pts);
		for (size_t i = 0; pts && i < big; i++) {
			pts[i].start = pts[i].end = mar1 + (int64_t)i * 60;
			pts[i].value = 70 + 30 * sin((double)i / 5000) + (i == 123457 ? 60 : 0);
		}
		struct hq_chart_series s_big = { .name = "heart_rate", .unit = "count/min", .bars = 0, .pts = pts, .n = big };
		c = (struct hq_chart){ .by = HQ_PERIOD_NONE, .series = &s_big, .nseries = 1 };
		ok(pts && render(&c, "line-200k") == 0 && no_nan(), "200,000 samples");
		path_ops(&moves, &lines);
		ok(lines < 4 * 900, "at most four points per pixel column (%d)", lines);
		ok(strlen(svg_text) < 150000, "the file stays small (%zu bytes)", strlen(svg_text));
		/* The one-sample spike (the largest value) must survive the
		 * decimation: the path's highest point is where it belongs. */
		double spike = pts ? pts[123457].value : 0;
		{
			xmlXPathObjectPtr r = xpath("string(//s:path[@stroke]/@d)");
			const char *d = r && r->stringval ? (const char *)r->stringval : "";
			double ymin = 1e9, ty[20];
			for (const char *p = d; *p; p++)
				if (*p == 'M' || *p == 'L') {
					char *end;
					strtod(p + 1, &end);
					double y = strtod(end, NULL);
					ymin = fmin(ymin, y);
				}
			xmlXPathFreeObject(r);
			nt = attrs("//s:text[@class='ytick']", "y", ty, 20);
			texts("//s:text[@class='ytick']", buf, sizeof buf);
			/* Its pixel row, from the first and the last tick. */
			double lo = strtod(buf, NULL), hi = strtod(strrchr(buf, '|') + 1, NULL);
			double want = ty[0] - (spike - lo) / (hi - lo) * (ty[0] - ty[nt - 1]);
			is_dbl(ymin, want, 0.05, "a one-sample spike is still drawn");
		}
		free(pts);
	}

	/* Hours: 13:00-style labels. */
	s_many.n = 24;
	c = (struct hq_chart){ .by = HQ_HOUR, .series = &s_many, .nseries = 1 };
	ok(render(&c, "hours") == 0, "a day of hours");
	texts("//s:text[@class='xtick']", buf, sizeof buf);
	ok(strstr(buf, "12:00") != NULL, "hour labels: %s", buf);

	/* Weeks and months. */
	for (size_t i = 0; i < 26; i++) {
		int64_t monday = hq_time_days_from_civil(2024, 3, 4) + (int64_t)i * 7;
		weeks[i].start = hq_time_day_start(monday);
		weeks[i].end = hq_time_day_start(monday + 7);
		weeks[i].value = 40000 + (double)((i * 7717) % 30000);
	}
	struct hq_chart_series s_w = { .name = "step_count", .unit = "count", .bars = 1, .pts = weeks, .n = 26 };
	c = (struct hq_chart){ .by = HQ_WEEK, .series = &s_w, .nseries = 1 };
	ok(render(&c, "weeks") == 0 && no_nan(), "weekly bars");
	texts("//s:text[@class='xtick']", buf, sizeof buf);
	ok(strncmp(buf, "W1", 2) == 0 && strstr(buf, "|W2"), "ISO week labels: %s", buf);
	ok(labels_apart(), "week labels do not overlap");
	texts("//s:text[@class='subtitle']", buf, sizeof buf);
	ok(strstr(buf, "Mar 4, 2024 – Sep 1, 2024") != NULL,
	    "the range runs to the last week's Sunday: %s", buf);
	for (size_t i = 0; i < 18; i++) {
		int m = (int)(2 + i);
		months[i].start = hq_time_from_local(2024 + (m - 1) / 12, (m - 1) % 12 + 1, 1, 0, 0, 0);
		months[i].end = hq_time_from_local(2024 + m / 12, m % 12 + 1, 1, 0, 0, 0);
		months[i].value = 7 + sin((double)i) * 0.5;
	}
	struct hq_chart_series s_m = { .name = "sleep", .unit = "h", .bars = 0, .pts = months, .n = 18 };
	c = (struct hq_chart){ .by = HQ_MONTH, .series = &s_m, .nseries = 1 };
	ok(render(&c, "months") == 0 && no_nan(), "monthly line");
	texts("//s:text[@class='xtick']", buf, sizeof buf);
	ok(strstr(buf, "Mar 2024") != NULL, "month labels like 'Mar 2024': %s", buf);
	texts("//s:text[@class='subtitle']", buf, sizeof buf);
	ok(strstr(buf, "per month") && strstr(buf, "Feb 2024 – Jul 2025"),
	    "the range in months: %s", buf);
	ok(labels_apart(), "month labels do not overlap");

	/* Two units: small multiples, a legend. */
	days(weight, 120, mar1, weight_f);
	struct hq_chart_series two[2] = {
		{ .name = "step_count", .unit = "count", .bars = 1, .pts = year, .n = 120 },
		{ .name = "body_mass", .unit = "kg", .pts = weight, .n = 120 },
	};
	days(year, 120, mar1, steps_f);
	c = (struct hq_chart){ .by = HQ_DAY, .series = two, .nseries = 2 };
	ok(render(&c, "two-units") == 0 && no_nan(), "two units");
	texts("//s:text[@class='unit']", buf, sizeof buf);
	is_str(buf, "count|kg", "one panel per unit, each with its own axis");
	ok(strstr(svg_text, ">body_mass</text>") && strstr(svg_text, ">step_count</text>"), "legend names both");
	is_int(count("//s:text[@class='xtick']") > 0, 1, "shared date axis");

	/* Escaping, no data, write errors. */
	struct hq_chart_series odd = { .name = "a<b & \"c\"", .unit = "m/s²" };
	c = (struct hq_chart){ .by = HQ_DAY, .series = &odd, .nseries = 1 };
	ok(render(&c, "empty") == 0, "markup in names is escaped");
	ok(strstr(svg_text, "no data") != NULL, "an empty series says so");
	c = (struct hq_chart){ .title = "nothing", .by = HQ_DAY, .series = NULL, .nseries = 0 };
	ok(render(&c, NULL) == 0 && strstr(svg_text, "no data"), "no series at all");
	FILE *ro = fopen("/dev/null", "r");
	ok(ro && hq_svg_write(ro, &c) == -1, "a write error is reported");
	if (ro)
		fclose(ro);

	svg_done();
	return done_testing();
}
