/* hq-report load --format svg: the performance chart people know, fitness
 * (ctl), fatigue (atl) and form (tsb) as lines over the daily load bars,
 * on one axis (all four are load points a day). Drawn by svg.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "hq/athlete_out.h"
#include "hq/buf.h"
#include "hq/svg.h"
#include "hq/time.h"

int
hq_athlete_load_svg(FILE *fp, const struct hq_athlete *a,
    const struct hq_athlete_day *d, size_t n, const char *types)
{
	struct hq_chart_point *p = hq_xcalloc(4 * n + 1, sizeof *p);
	struct hq_chart_series s[4] = {
		{ .name = "load (daily)", .unit = "load", .bars = 1, .pts = p, .n = n },
		{ .name = "fitness (ctl, 42 d)", .unit = "load", .pts = p + n, .n = n },
		{ .name = "fatigue (atl, 7 d)", .unit = "load", .pts = p + 2 * n, .n = n },
		{ .name = "form (tsb)", .unit = "load", .pts = p + 3 * n, .n = n },
	};
	char title[200], sub[300], first[16], last[16], mx[16], rest[16];
	struct hq_chart c = { .title = title, .subtitle = sub, .by = HQ_DAY,
		.series = s, .nseries = 4 };
	struct hq_chart_mark mark = { 0, "planned" };
	int rc;

	/* The days ahead (from the plan): lines dashed, a mark where they
	 * start. */
	for (size_t i = 0; i < n; i++)
		if (d[i].planned) {
			mark.time = hq_time_day_start(d[i].day);
			for (int k = 1; k < 4; k++)
				s[k].dash_from = mark.time;
			c.marks = &mark;
			c.nmarks = 1;
			break;
		}
	for (size_t i = 0; i < n; i++) {
		int64_t t0 = hq_time_day_start(d[i].day),
		    t1 = hq_time_day_start(d[i].day + 1);
		p[i] = (struct hq_chart_point){ t0, t1, d[i].load };
		p[n + i] = (struct hq_chart_point){ t0, t1, d[i].ctl };
		p[2 * n + i] = (struct hq_chart_point){ t0, t1, d[i].atl };
		p[3 * n + i] = (struct hq_chart_point){ t0, t1, d[i].tsb };
	}
	hq_time_format_day(d[0].day, first, sizeof first);
	hq_time_format_day(d[n - 1].day, last, sizeof last);
	hq_format_short(a->max_hr, mx, sizeof mx);
	hq_format_short(a->rest_hr, rest, sizeof rest);
	snprintf(title, sizeof title, "Training load, fitness, fatigue and form%s%s",
	    types ? ": " : "", types ? types : "");
	snprintf(sub, sizeof sub, "%s to %s; load: TSS from power, else hrss "
	    "(an hour at threshold = 100); max_hr %s, rest_hr %s%s", first, last,
	    mx, rest, c.nmarks ? "; dashed: the plan" : "");
	rc = hq_svg_write(fp, &c);
	free(p);
	return rc;
}
