/* Unit tests for lib/analyze/week_html.c and week.c's --week: text in the
 * page is escaped (a unit or a label with markup in it stays text), weeks
 * without a value are left out and break the sparkline, and what a week
 * looks like. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/goals.h"
#include "hq/time.h"
#include "hq/week.h"
#include "tap.h"

static char *
page(const struct hq_week *w)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	ok(fp && hq_week_html(fp, w) == 0, "the page is written");
	fclose(fp);
	return buf;
}

static void
escaped(void)
{
	struct hq_week w;
	char *p;

	memset(&w, 0, sizeof w);
	w.monday = hq_time_days_from_civil(2026, 11, 16);
	snprintf(w.label, sizeof w.label, "2026-W47");
	w.n = 2;
	w.m[0].name = "steps";
	w.m[0].label = "Steps <b>a</b> day & \"night\"";
	snprintf(w.m[0].unit, sizeof w.m[0].unit, "<script>x");
	for (int k = 0; k < HQ_WEEK_SPAN; k++) {
		w.m[0].value[k] = k == 5 ? NAN : 1000 + 10 * k;
		w.m[1].value[k] = NAN;
	}
	w.m[0].days[HQ_WEEK_SPAN - 1] = 7;
	w.m[1].name = "weight";
	w.m[1].label = "Weight";
	p = page(&w);
	unlike(p, "<script|<b>", "markup in a label or unit is not markup");
	like(p, "Steps &lt;b&gt;a&lt;/b&gt; day &amp; &quot;night&quot;",
	    "the label escaped");
	like(p, "&lt;script&gt;x, 7 days", "the unit escaped, with the days");
	unlike(p, ">Weight<", "a measure without a value in the week is left out");
	like(p, "<polyline[^>]*points=\"[0-9., ]+\"/><polyline",
	    "a week without a value breaks the line in two");
	like(p, "<circle ", "the week itself is a dot");
	unlike(p, "http|src=|href=|url\\(", "nothing fetched");
	free(p);
	w.n = 1;
	w.m[0].value[HQ_WEEK_SPAN - 1] = NAN;
	p = page(&w);
	like(p, "No data in this week", "a week without any measure says so");
	free(p);
}

/* The page's goals and alerts (one mail says it all), escaped, and a
 * footnote only about the rows present. */
static void
goals_alerts(void)
{
	struct hq_week w;
	struct hq_week_goal g = { "steps<i>", "\u2265 10,000 a day",
		"met on 5 of 7 days", HQ_GOAL_MET, 12, "day" };
	struct hq_week_alert a = { 0, "stale", "no resting HR since 2026-11-20 "
		"(3 days): <has> the import stopped?" };
	char *p;

	memset(&w, 0, sizeof w);
	w.monday = hq_time_days_from_civil(2026, 11, 16);
	a.day = w.monday + 3;
	snprintf(w.label, sizeof w.label, "2026-W47");
	w.n = 1;
	w.m[0].name = "steps";
	w.m[0].label = "Steps a day";
	snprintf(w.m[0].unit, sizeof w.m[0].unit, "count");
	for (int k = 0; k < HQ_WEEK_SPAN; k++)
		w.m[0].value[k] = 14518.9 + k;
	w.goals = &g;
	w.ngoals = 1;
	w.alerts = &a;
	w.nalerts = 1;
	w.alerts_read = 1;
	p = page(&w);
	like(p, ">14,531<", "the week's steps to sense: whole, thousands separated");
	like(p, ">\\+1<", "the change with its sign");
	like(p, "<h2>Goals</h2>", "the goals");
	like(p, "steps&lt;i&gt;</td><td class=\"m t\">\u2265 10,000 a day</td>"
	    "<td class=\"m ok\">met on 5 of 7 days</td><td class=\"t\">12 days<",
	    "a goal: escaped, its target, the week, its streak");
	like(p, "2026-11-19</span> no resting HR since 2026-11-20 \\(3 days\\): "
	    "&lt;has&gt; the import", "an alert: its date and message, escaped");
	like(p, "Steps are averages of the days with data\\. ",
	    "the footnote: what the steps are");
	unlike(p, "class=\"foot\">[^<]*(sleep|[Ww]eight|[Gg]lucose|exercise|"
	    "[Ll]ab results|[Ff]itness)", "and nothing of measures not shown");
	free(p);
	w.nalerts = 0;
	w.ngoals = 0;
	p = page(&w);
	like(p, "Nothing off this week", "no alert: said");
	unlike(p, "<h2>Goals", "no goal: no goals' table");
	free(p);
}

static void
weeks(void)
{
	struct hq_err e;
	int64_t m;
	int64_t now = 1795780800;   /* 2026-11-27 12:00 UTC, a Friday */

	ok(hq_week_parse("2026-W47", now, &m, &e) == 0 &&
	    m == hq_time_days_from_civil(2026, 11, 16), "2026-W47 starts on 2026-11-16");
	ok(hq_week_parse("2026-W53", now, &m, &e) == 0 &&
	    m == hq_time_days_from_civil(2026, 12, 28), "2026 has a week 53");
	ok(hq_week_parse("2021-W01", now, &m, &e) == 0 &&
	    m == hq_time_days_from_civil(2021, 1, 4), "2021-W01 starts on 2021-01-04");
	ok(hq_week_parse(NULL, now, &m, &e) == 0 &&
	    m == hq_time_days_from_civil(2026, 11, 16),
	    "default on Friday 2026-11-27: the last complete week, 2026-W47");
	now = 1795651200 + 3600;     /* Monday 2026-11-23 01:00 UTC */
	ok(hq_week_parse(NULL, now, &m, &e) == 0 &&
	    m == hq_time_days_from_civil(2026, 11, 16),
	    "default on a Monday: the week that just ended");
	for (const char *const *b = (const char *const[]){ "2025-W53", "2026-W54",
	    "2026-W00", "2026-w47", "2026-47", "2026W47", "last-week", "", NULL }; *b; b++)
		ok(hq_week_parse(*b, now, &m, &e) == -1 &&
		    strstr(e.msg, "not an ISO week") != NULL, "'%s' is not a week", *b);
}

int
main(void)
{
	struct hq_err e;

	if (hq_time_set_zone("UTC", &e))
		return 1;
	escaped();
	goals_alerts();
	weeks();
	return done_testing();
}
