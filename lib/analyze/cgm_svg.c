#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hq/cgm_svg.h"
#include "hq/time.h"

/* The drawing's geometry: the statistics on the left, the profile on the
 * right. */
enum { W = 1120, H = 600, PX0 = 400, PX1 = 1050, PY0 = 96, PY1 = 520,
    BAR_X = 40, BAR_W = 44, BAR_Y0 = 300, BAR_Y1 = 560 };

/* The AGP report's colours for the ranges and the bands. */
#define C_VHIGH "#e8692c"
#define C_HIGH "#f5b800"
#define C_TARGET "#3aa64a"
#define C_LOW "#e0312a"
#define C_VLOW "#9e1b1b"
#define C_BAND95 "#b9cfea"
#define C_BAND75 "#5b8bc9"
#define C_MEDIAN "#16365c"

static double ymax;

static double
ypix(double mgdl)
{
	if (mgdl > ymax)
		mgdl = ymax;
	return PY1 - (PY1 - PY0) * mgdl / ymax;
}

static double
xpix(double slot)
{
	return PX0 + (PX1 - PX0) * slot / HQ_CGM_AGP_SLOTS;
}

/* A percentage as the AGP report prints it: whole numbers, "<1" for a
 * little. */
static void
pct(double v, char *buf, size_t n)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else if (v > 0 && v < 0.5)
		snprintf(buf, n, "<1%%");
	else
		snprintf(buf, n, "%.0f%%", v);
}

static double
agp_value(const struct hq_cgm_agp_row *a, int which)
{
	switch (which) {
	case 0: return a->p5;
	case 1: return a->p25;
	case 2: return a->p50;
	case 3: return a->p75;
	default: return a->p95;
	}
}

/* The slots from i on that hold readings, up to the next empty one:
 * where a band or the median is drawn without a break. */
static int
run_end(const struct hq_cgm_report *r, int i)
{
	while (i < HQ_CGM_AGP_SLOTS && r->agp[i].n > 0)
		i++;
	return i;
}

/* A slot's value is drawn at its middle; a run reaching midnight reaches
 * the edge of the plot. */
static double
run_x(int i, int from, int to)
{
	if (i == from && from == 0)
		return xpix(0);
	if (i == to - 1 && to == HQ_CGM_AGP_SLOTS)
		return xpix(HQ_CGM_AGP_SLOTS);
	return xpix(i + 0.5);
}

/* A percentile (upper) by time of day as a line, or with lower (>= 0) the
 * band between the two; a run of slots without readings breaks it. */
static void
trace(FILE *fp, const struct hq_cgm_report *r, int upper, int lower,
    const char *style)
{
	for (int i = 0; i < HQ_CGM_AGP_SLOTS;) {
		int j;
		if (r->agp[i].n == 0) {
			i++;
			continue;
		}
		j = run_end(r, i);
		fprintf(fp, "<path %s d=\"", style);
		for (int k = i; k < j; k++)
			fprintf(fp, "%s%.1f %.1f", k == i ? "M" : " L", run_x(k, i, j),
			    ypix(agp_value(&r->agp[k], upper)));
		for (int k = j; lower >= 0 && k-- > i;)
			fprintf(fp, " L%.1f %.1f", run_x(k, i, j),
			    ypix(agp_value(&r->agp[k], lower)));
		fprintf(fp, "%s\"/>\n", lower >= 0 ? " Z" : "");
		i = j;
	}
}

static void
profile(FILE *fp, const struct hq_cgm_report *r)
{
	static const char *const hours[] = { "12am", "3am", "6am", "9am", "12pm",
	    "3pm", "6pm", "9pm", "12am" };
	static const char *const labels[] = { "5%", "25%", "50%", "75%", "95%" };
	static const double ticks[] = { 0, 54, 70, 180, 250, 350, 400, 450 };
	int last = -1;

	fprintf(fp, "<text x=\"%d\" y=\"%d\" class=\"h\">Ambulatory glucose "
	    "profile</text>\n", PX0, PY0 - 40);
	fprintf(fp, "<text x=\"%d\" y=\"%d\" class=\"s\">Percentiles of the "
	    "readings in each 15 minutes of the day, all days overlaid</text>\n",
	    PX0, PY0 - 22);
	fprintf(fp, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
	    "fill=\"#fff\" stroke=\"#999\"/>\n", PX0, PY0, PX1 - PX0, PY1 - PY0);
	/* The target range. */
	fprintf(fp, "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" "
	    "fill=\"%s\" fill-opacity=\"0.10\"/>\n", PX0, ypix(180), PX1 - PX0,
	    ypix(70) - ypix(180), C_TARGET);
	for (int i = 0; i < 9; i++) {
		double x = xpix(i * 12);
		fprintf(fp, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
		    "stroke=\"#ddd\"/>\n", x, PY0, x, PY1);
		fprintf(fp, "<text x=\"%.1f\" y=\"%d\" class=\"t\" "
		    "text-anchor=\"middle\">%s</text>\n", x, PY1 + 18, hours[i]);
	}
	for (size_t i = 0; i < sizeof ticks / sizeof ticks[0]; i++) {
		if (ticks[i] > ymax)
			break;
		fprintf(fp, "<text x=\"%d\" y=\"%.1f\" class=\"t\" "
		    "text-anchor=\"end\">%.0f</text>\n", PX0 - 6, ypix(ticks[i]) + 4,
		    ticks[i]);
		if (ticks[i] != 70 && ticks[i] != 180 && ticks[i] > 0)
			fprintf(fp, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
			    "stroke=\"#eee\"/>\n", PX0, ypix(ticks[i]), PX1, ypix(ticks[i]));
	}
	fprintf(fp, "<text x=\"%d\" y=\"%d\" class=\"t\" text-anchor=\"middle\" "
	    "transform=\"rotate(-90 %d %d)\">mg/dL</text>\n", PX0 - 44,
	    (PY0 + PY1) / 2, PX0 - 44, (PY0 + PY1) / 2);
	trace(fp, r, 4, 0, "fill=\"" C_BAND95 "\" stroke=\"none\"");
	trace(fp, r, 3, 1, "fill=\"" C_BAND75 "\" stroke=\"none\"");
	for (int k = 0; k <= 4; k += 4)
		trace(fp, r, k, -1, "fill=\"none\" stroke=\"" C_BAND75 "\" "
		    "stroke-width=\"1\" stroke-dasharray=\"4 3\"");
	trace(fp, r, 2, -1, "fill=\"none\" stroke=\"" C_MEDIAN "\" "
	    "stroke-width=\"2.5\" stroke-linejoin=\"round\"");
	for (int y = 70; y <= 180; y += 110)
		fprintf(fp, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
		    "stroke=\"%s\" stroke-width=\"1.5\"/>\n", PX0, ypix(y), PX1,
		    ypix(y), C_TARGET);
	/* The percentiles named at the right, where the day ends. */
	for (int i = HQ_CGM_AGP_SLOTS; i-- > 0;)
		if (r->agp[i].n > 0) {
			last = i;
			break;
		}
	if (last >= 0) {
		double prev = 1e9;
		for (int k = 4; k >= 0; k--) {
			double y = ypix(agp_value(&r->agp[last], k)) + 4;
			if (y < prev + 12 && prev < 1e9)
				y = prev + 12;
			fprintf(fp, "<text x=\"%d\" y=\"%.1f\" class=\"t\">%s</text>\n",
			    PX1 + 6, y, labels[k]);
			prev = y;
		}
	}
	fprintf(fp, "<text x=\"%d\" y=\"%.1f\" class=\"t\" style=\"fill:%s\">target "
	    "range 70-180 mg/dL</text>\n", PX0 + 6, ypix(180) - 5, C_TARGET);
}

/* The time in ranges as one stacked bar, very high at the top. */
static void
ranges(FILE *fp, const struct hq_cgm_metrics *m)
{
	const struct {
		const char *name, *colour;
		double v;
	} seg[] = {
		{ "Very high &gt;250", C_VHIGH, m->tar2 },
		{ "High 181-250", C_HIGH, m->tar - m->tar2 },
		{ "Target 70-180", C_TARGET, m->tir },
		{ "Low 54-69", C_LOW, m->tbr - m->tbr2 },
		{ "Very low &lt;54", C_VLOW, m->tbr2 },
	};
	double y = BAR_Y0, h = BAR_Y1 - BAR_Y0;

	fprintf(fp, "<text x=\"%d\" y=\"%d\" class=\"h2\">Time in ranges</text>\n",
	    BAR_X - 20, BAR_Y0 - 16);
	for (int i = 0; i < 5; i++) {
		double sh = h * (isnan(seg[i].v) ? 0 : seg[i].v) / 100;
		char p[16];
		pct(seg[i].v, p, sizeof p);
		if (sh > 0)
			fprintf(fp, "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" "
			    "height=\"%.1f\" fill=\"%s\"/>\n", BAR_X, y,
			    BAR_W, sh < 1.5 ? 1.5 : sh, seg[i].colour);
		fprintf(fp, "<text x=\"%d\" y=\"%.1f\" class=\"t\">"
		    "<tspan font-weight=\"bold\">%s</tspan>  %s mg/dL</text>\n",
		    BAR_X + BAR_W + 12, BAR_Y0 + 18 + i * (h - 12) / 4.0, p,
		    seg[i].name);
		y += sh;
	}
}

static void
statistics(FILE *fp, const struct hq_cgm_report *r)
{
	const struct hq_cgm_metrics *m = &r->total.m;
	char from[16], to[16], buf[4][32];
	int y = 70;

	hq_time_format_day(m->from_day, from, sizeof from);
	hq_time_format_day(m->to_day, to, sizeof to);
	fprintf(fp, "<text x=\"20\" y=\"%d\" class=\"h\">Glucose statistics"
	    "</text>\n", y - 28);
	fprintf(fp, "<text x=\"20\" y=\"%d\" class=\"s\">%s to %s, %lld days, "
	    "%ld with readings</text>\n", y - 8, from, to,
	    (long long)(m->to_day - m->from_day + 1), m->days);
	snprintf(buf[0], sizeof buf[0], "%.1f%%", m->coverage_pct);
	snprintf(buf[1], sizeof buf[1], "%.0f mg/dL", m->mean);
	snprintf(buf[2], sizeof buf[2], "%.1f%%", m->gmi);
	snprintf(buf[3], sizeof buf[3], "%.1f%%", m->cv);
	const struct { const char *k, *v, *note; } rows[] = {
		{ "Time CGM active", buf[0], "" },
		{ "Mean glucose", buf[1], "" },
		{ "Glucose management indicator", buf[2], "" },
		{ "Glucose variability (CV)", buf[3], "target 36% or less" },
	};
	for (int i = 0; i < 4; i++) {
		y += 34;
		fprintf(fp, "<text x=\"20\" y=\"%d\" class=\"k\">%s</text>\n", y,
		    rows[i].k);
		fprintf(fp, "<text x=\"340\" y=\"%d\" class=\"v\" "
		    "text-anchor=\"end\">%s</text>\n", y, rows[i].v);
		if (*rows[i].note)
			fprintf(fp, "<text x=\"20\" y=\"%d\" class=\"t\">%s</text>\n",
			    y + 14, rows[i].note);
	}
	fprintf(fp, "<text x=\"20\" y=\"%d\" class=\"t\">%ld readings, one every "
	    "%d min, from %d source%s</text>\n", y + 36, m->readings,
	    r->interval_min, r->nsources, r->nsources == 1 ? "" : "s");
	if (r->nsources > 1)
		fprintf(fp, "<text x=\"20\" y=\"%d\" class=\"t\">(a reading two "
		    "sources share counts once)</text>\n", y + 52);
	ranges(fp, m);
}

int
hq_cgm_svg_write(FILE *fp, const struct hq_cgm_report *r)
{
	double top = 0;

	for (int i = 0; i < HQ_CGM_AGP_SLOTS; i++)
		if (r->agp[i].n > 0 && r->agp[i].p95 > top)
			top = r->agp[i].p95;
	ymax = top > 400 ? 450 : top > 350 ? 400 : 350;
	fprintf(fp, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	    "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"Helvetica, "
	    "Arial, sans-serif\">\n", W, H, W, H);
	fprintf(fp, "<style>.h{font-size:19px;font-weight:bold;fill:#222}"
	    ".h2{font-size:15px;font-weight:bold;fill:#222}"
	    ".s{font-size:12px;fill:#555}.k{font-size:14px;fill:#222}"
	    ".v{font-size:16px;font-weight:bold;fill:#222}"
	    ".t{font-size:12px;fill:#333}</style>\n");
	fprintf(fp, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", W, H);
	statistics(fp, r);
	profile(fp, r);
	fprintf(fp, "</svg>\n");
	return ferror(fp) ? -1 : 0;
}

int
hq_cgm_html_write(FILE *fp, const struct hq_cgm_report *r)
{
	const struct hq_cgm_metrics *m = &r->total.m;
	char from[16], to[16];
	const char *f;

	hq_time_format_day(m->from_day, from, sizeof from);
	hq_time_format_day(m->to_day, to, sizeof to);
	fprintf(fp, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta "
	    "charset=\"utf-8\"><title>AGP %s to %s</title>\n<style>body{font-"
	    "family:Helvetica,Arial,sans-serif;margin:24px;color:#222}"
	    "table{border-collapse:collapse;margin-top:16px}td,th{padding:2px "
	    "12px;border-bottom:1px solid #ddd;text-align:right}th{text-align:"
	    "left;font-weight:normal;color:#555}</style></head><body>\n", from, to);
	fprintf(fp, "<h1>Ambulatory glucose profile</h1>\n<p>%s to %s: %ld "
	    "readings on %ld days, CGM active %.1f%% of the time.</p>\n", from,
	    to, m->readings, m->days, m->coverage_pct);
	if (hq_cgm_svg_write(fp, r))
		return -1;
	fprintf(fp, "<table>\n");
	for (size_t i = 0; (f = hq_cgm_field(i)); i++)
		fprintf(fp, "<tr><th>%s</th><td>%.10g</td></tr>\n", f,
		    hq_cgm_value(m, f));
	fprintf(fp, "</table>\n<p>Time in ranges and the profile count "
	    "readings (mg/dL); tir 70-180 inclusive, tbr below 70, tbr2 below "
	    "54, tar above 180, tar2 above 250; gmi = 3.31 + 0.02392 mean; "
	    "hq-report(1) defines the rest.</p>\n</body></html>\n");
	return ferror(fp) ? -1 : 0;
}
