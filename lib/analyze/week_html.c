/* hq-report week --format html: one page, fit to mail (600 px, inline
 * CSS and SVG, nothing fetched, no script) and to print. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/catalog.h"
#include "hq/goals.h"
#include "hq/sense.h"
#include "hq/svg.h"
#include "hq/time.h"
#include "hq/week.h"

#define SPARK_W 100
#define SPARK_H 28
#define SPARK_WEEKS 12

/* A figure to its measure's sense (the unit is said once, beside the
 * measure's name; hours say themselves: 6 h 44 min), a change with its
 * sign. */
static void
put_value(struct hq_buf *b, double v, const char *unit, int sign)
{
	char num[48];

	hq_sense_value(v, unit, sign ? HQ_SENSE_SIGN : 0, num, sizeof num);
	hq_svg_put_esc(b, num);
}

/* What the footnote says of a measure shown: its group (an average of
 * days, a week's total, one day's) and its words there. */
static const struct {
	const char *name, *words;
	int group;
} foot_words[] = {
	{ "steps", "steps", 0 }, { "sleep", "sleep", 0 },
	{ "resting_heart_rate", "heart rate", 0 }, { "hrv", "HRV", 0 },
	{ "active_energy", "energy", 0 }, { "exercise_time", "exercise", 1 },
	{ "workouts", "workouts", 1 }, { "workout_minutes", "workout time", 1 },
	{ "load", "load", 1 }, { "ctl", "fitness", 2 }, { "weight", "weight", 2 },
	{ "glucose_tir", "glucose", 3 }, { "glucose_mean", "glucose", 3 },
	{ "labs_flagged", "lab results", 4 },
};

#define NFOOT (sizeof foot_words / sizeof foot_words[0])

/* The words of group g among the measures shown, as a list ("steps,
 * sleep and energy"), each once: how many. */
static int
foot_list(struct hq_buf *b, const struct hq_week *w, int g, int cap)
{
	const char *said[NFOOT];
	int n = 0, total = 0;

	for (size_t i = 0; i < NFOOT; i++)
		for (size_t j = 0; j < w->n; j++)
			if (foot_words[i].group == g &&
			    strcmp(w->m[j].name, foot_words[i].name) == 0 &&
			    !isnan(w->m[j].value[HQ_WEEK_SPAN - 1])) {
				int seen = 0;
				for (int k = 0; k < n; k++)
					seen |= strcmp(said[k], foot_words[i].words) == 0;
				if (!seen)
					said[n++] = foot_words[i].words;
			}
	for (int k = 0; k < n; k++) {
		if (k > 0)
			hq_buf_puts(b, k == n - 1 ? " and " : ", ");
		if (k == 0 && cap && said[k][0] >= 'a' && said[k][0] <= 'z') {
			hq_buf_putc(b, (char)(said[k][0] - 'a' + 'A'));
			hq_svg_put_esc(b, said[k] + 1);
		} else {
			hq_svg_put_esc(b, said[k]);
		}
		total++;
	}
	return total;
}

/* Whether measure name is shown this week. */
static int
shown(const struct hq_week *w, const char *name)
{
	for (size_t j = 0; j < w->n; j++)
		if (strcmp(w->m[j].name, name) == 0)
			return !isnan(w->m[j].value[HQ_WEEK_SPAN - 1]);
	return 0;
}

/* The footnote, only about the rows there. */
static void
footnote(struct hq_buf *b, const struct hq_week *w)
{

	hq_buf_puts(b, "<p class=\"foot\">Days are local days (");
	hq_svg_put_esc(b, hq_time_zone());
	hq_buf_puts(b, ")");
	if (shown(w, "sleep"))
		hq_buf_puts(b, "; a night counts on the morning it ends");
	hq_buf_puts(b, ". ");
	if (foot_list(b, w, 0, 1) > 0)
		hq_buf_puts(b, " are averages of the days with data. ");
	if (foot_list(b, w, 1, 1) > 0)
		hq_buf_puts(b, " are the week's totals. ");
	if (shown(w, "ctl"))
		hq_buf_puts(b, "Fitness is the one on Sunday, or on the last day "
		    "of data. ");
	if (shown(w, "weight"))
		hq_buf_puts(b, "Weight is the week's last. ");
	if (shown(w, "glucose_tir") || shown(w, "glucose_mean"))
		hq_buf_puts(b, "Glucose is over the week's CGM readings. ");
	if (shown(w, "labs_flagged"))
		hq_buf_puts(b, "Lab results are those dated in the week and flagged "
		    "high or low. ");
	hq_buf_puts(b, "The red dot is this week. Written by hq-report "
	    "week.</p>\n");
}

/* The week's goals: target, how the week went, the streak. */
static void
goals(struct hq_buf *b, const struct hq_week *w)
{
	if (!w->ngoals)
		return;
	hq_buf_puts(b, "<h2>Goals</h2>\n<table class=\"g\">\n<thead><tr>"
	    "<th class=\"m\">goal</th><th class=\"m\">target</th>"
	    "<th class=\"m\">this week</th><th>streak</th></tr></thead>\n"
	    "<tbody>\n");
	for (size_t i = 0; i < w->ngoals; i++) {
		const struct hq_week_goal *g = &w->goals[i];
		hq_buf_puts(b, "<tr><td class=\"m\">");
		hq_svg_put_esc(b, g->name);
		hq_buf_puts(b, "</td><td class=\"m t\">");
		hq_svg_put_esc(b, g->target);
		hq_buf_printf(b, "</td><td class=\"m %s\">", g->met == HQ_GOAL_MET ?
		    "ok" : g->met == HQ_GOAL_NOT_MET ? "no" : "");
		hq_svg_put_esc(b, g->week);
		hq_buf_printf(b, "</td><td class=\"t\">%ld %s%s</td></tr>\n",
		    g->streak, g->per, g->streak == 1 ? "" : "s");
	}
	hq_buf_puts(b, "</tbody></table>\n");
}

/* The week's alerts, or that nothing was off. */
static void
alerts(struct hq_buf *b, const struct hq_week *w)
{
	char day[16];

	hq_buf_puts(b, "<h2>Alerts</h2>\n");
	if (!w->nalerts) {
		hq_buf_puts(b, "<p>Nothing off this week.</p>\n");
		return;
	}
	hq_buf_puts(b, "<ul class=\"alerts\">\n");
	for (size_t i = 0; i < w->nalerts; i++) {
		hq_time_format_day(w->alerts[i].day, day, sizeof day);
		hq_buf_puts(b, "<li><span class=\"date\">");
		hq_svg_put_esc(b, day);
		hq_buf_puts(b, "</span> ");
		hq_svg_put_esc(b, w->alerts[i].message);
		hq_buf_puts(b, "</li>\n");
	}
	hq_buf_puts(b, "</ul>\n");
}

/* The training plan of the week after, when there is one. */
static void
next_plan(struct hq_buf *b, const struct hq_week *w)
{
	static const char *const wd[] = { "Mon", "Tue", "Wed", "Thu", "Fri",
	    "Sat", "Sun" };
	char day[16], type[64], num[32];
	double load = 0, min = 0;

	if (!w->nnext_plan)
		return;
	hq_buf_puts(b, "<h2>Next week's plan</h2>\n<table class=\"g\">\n<thead>"
	    "<tr><th class=\"m\">day</th><th class=\"m\">workout</th>"
	    "<th>minutes</th><th>load</th></tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < w->nnext_plan; i++) {
		const struct hq_plan_day *p = &w->next_plan[i];
		hq_time_format_day(p->day, day, sizeof day);
		hq_workout_type_name(p->type, type, sizeof type);
		hq_buf_printf(b, "<tr><td class=\"m\">%s %s</td><td class=\"m\">",
		    wd[hq_time_weekday(p->day)], day + 5);
		hq_svg_put_esc(b, type);
		if (p->title[0]) {
			hq_buf_puts(b, ": ");
			hq_svg_put_esc(b, p->title);
		}
		hq_format_short(p->minutes, num, sizeof num);
		hq_buf_printf(b, "</td><td>%s</td>", num);
		hq_format_short(p->load, num, sizeof num);
		hq_buf_printf(b, "<td>%s</td></tr>\n", num);
		load += p->load;
		min += p->minutes;
	}
	hq_format_short(min, day, sizeof day);
	hq_format_short(load, num, sizeof num);
	hq_buf_printf(b, "<tr><td class=\"m\">week</td><td class=\"m\"></td>"
	    "<td>%s</td><td>%s</td></tr>\n</tbody></table>\n", day, num);
}

/* The last SPARK_WEEKS weeks as a line (a week without a value breaks
 * it), the week itself a dot. */
static void
sparkline(struct hq_buf *b, const struct hq_week_measure *m)
{
	const int first = HQ_WEEK_SPAN - SPARK_WEEKS;
	double lo = INFINITY, hi = -INFINITY;
	int open = 0;

	for (int k = first; k < HQ_WEEK_SPAN; k++)
		if (!isnan(m->value[k])) {
			lo = fmin(lo, m->value[k]);
			hi = fmax(hi, m->value[k]);
		}
	hq_buf_printf(b, "<svg width=\"%d\" "
	    "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\"><title>",
	    SPARK_W, SPARK_H, SPARK_W, SPARK_H);
	hq_buf_puts(b, "the last 12 weeks");
	if (lo <= hi) {
		hq_buf_puts(b, ": ");
		put_value(b, lo, m->unit, 0);
		hq_buf_puts(b, " to ");
		put_value(b, hi, m->unit, 0);
		if (strcmp(m->unit, "h") != 0 && strcmp(m->unit, "count") != 0) {
			hq_buf_puts(b, " ");
			hq_svg_put_esc(b, m->unit);
		}
	}
	hq_buf_puts(b, "</title>");
	hq_buf_printf(b, "<line x1=\"0\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
	    "stroke=\"#ddd\" stroke-width=\"1\"/>", SPARK_H - 1, SPARK_W, SPARK_H - 1);
	for (int k = first; k < HQ_WEEK_SPAN; k++) {
		double x, y;
		if (isnan(m->value[k])) {
			if (open)
				hq_buf_puts(b, "\"/>");
			open = 0;
			continue;
		}
		x = 5 + (double)(k - first) * (SPARK_W - 10) / (SPARK_WEEKS - 1);
		y = hi > lo ? 4 + (hi - m->value[k]) * (SPARK_H - 8) / (hi - lo)
		    : SPARK_H / 2.0;
		if (!open)
			hq_buf_puts(b, "<polyline fill=\"none\" stroke=\"#4e79a7\" "
			    "stroke-width=\"1.5\" points=\"");
		hq_buf_printf(b, "%s%.1f,%.1f", open ? " " : "", x, y);
		open = 1;
		if (k == HQ_WEEK_SPAN - 1) {
			hq_buf_puts(b, "\"/>");
			open = 0;
			hq_buf_printf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" "
			    "fill=\"#e15759\"/>", x, y);
		}
	}
	if (open)
		hq_buf_puts(b, "\"/>");
	hq_buf_puts(b, "</svg>");
}

int
hq_week_html(FILE *fp, const struct hq_week *w)
{
	const int k = HQ_WEEK_SPAN - 1;
	struct hq_buf b = { 0 };
	char mon[16], sun[16];
	long rows = 0;
	int rc;

	hq_time_format_day(w->monday, mon, sizeof mon);
	hq_time_format_day(w->monday + 6, sun, sizeof sun);
	hq_buf_puts(&b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta "
	    "charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-"
	    "width, initial-scale=1\">\n<title>Your week ");
	hq_svg_put_esc(&b, w->label);
	hq_buf_puts(&b, "</title>\n<style>\n"
	    "body{margin:0;padding:16px;background:#fff;color:#222;"
	    "font-family:Helvetica,Arial,sans-serif;font-size:15px}\n"
	    "*{box-sizing:border-box}\n"
	    ".page{max-width:600px;margin:0 auto}\n"
	    "h1{font-size:22px;margin:0 0 4px}\n"
	    "p{margin:0 0 12px;color:#555}\n"
	    "table{width:100%;border-collapse:collapse}\n"
	    "th{font-weight:normal;color:#777;font-size:12px;text-align:right;"
	    "padding:4px 6px;border-bottom:2px solid #ccc}\n"
	    "th.m{text-align:left}\n"
	    "td{padding:6px;border-bottom:1px solid #e5e5e5;text-align:right;"
	    "vertical-align:middle;white-space:nowrap}\n"
	    "td.m{text-align:left;white-space:normal;width:40%}\n"
	    "td.v{font-weight:bold}\n"
	    "td.s{padding:2px 0 2px 8px;width:100px}\n"
	    "svg{display:block}\n"
	    ".d{display:block;color:#888;font-size:12px;font-weight:normal}\n"
	    ".foot{margin-top:12px;font-size:12px;color:#777}\n"
	    "h2{font-size:17px;margin:20px 0 6px}\n"
	    "td.ok{color:#2e7d32}\ntd.no{color:#c62828}\n"
	    "ul.alerts{margin:0;padding-left:20px}\nul.alerts li{margin:4px 0}\n"
	    ".date{color:#777;white-space:nowrap}\n"
	    "table.g td{white-space:normal}\ntable.g td.m{width:auto}\n"
	    "table.g td.t{white-space:nowrap}\n"
	    "@media (max-width:520px){body{padding:8px;font-size:14px}"
	    "td,th{padding:4px 3px}.p{display:none}td.m{width:auto}"
	    "td.s{width:64px}td.s svg{width:64px;height:18px}}\n"
	    "@media print{body{padding:0}.page{max-width:none}"
	    "tr{page-break-inside:avoid}}\n"
	    "</style></head>\n<body><div class=\"page\">\n<h1>Your week: ");
	hq_svg_put_esc(&b, w->label);
	hq_buf_puts(&b, "</h1>\n<p>Monday ");
	hq_svg_put_esc(&b, mon);
	hq_buf_puts(&b, " to Sunday ");
	hq_svg_put_esc(&b, sun);
	hq_buf_puts(&b, ", against the week before.</p>\n<table>\n<thead><tr>"
	    "<th class=\"m\">measure</th><th>this week</th><th class=\"p\">week "
	    "before</th><th>change</th><th class=\"s\">last 12 weeks</th></tr>"
	    "</thead>\n<tbody>\n");
	for (size_t i = 0; i < w->n; i++) {
		const struct hq_week_measure *m = &w->m[i];
		if (isnan(m->value[k]))
			continue;
		hq_buf_puts(&b, "<tr><td class=\"m\">");
		hq_svg_put_esc(&b, m->label);
		hq_buf_puts(&b, "<span class=\"d\">");
		if (m->unit[0] && strcmp(m->unit, "count") != 0 &&
		    strcmp(m->unit, "h") != 0) {
			hq_svg_put_esc(&b, m->unit);
			hq_buf_puts(&b, ", ");
		}
		hq_buf_printf(&b, "%d %s</span></td><td class=\"v\">", m->days[k],
		    m->days[k] == 1 ? "day" : "days");
		put_value(&b, m->value[k], m->unit, 0);
		hq_buf_puts(&b, "</td><td class=\"p\">");
		if (isnan(m->value[k - 1]))
			hq_buf_puts(&b, "&#8211;");
		else
			put_value(&b, m->value[k - 1], m->unit, 0);
		hq_buf_puts(&b, "</td><td>");
		if (isnan(m->value[k - 1]))
			hq_buf_puts(&b, "&#8211;");
		else
			put_value(&b, m->value[k] - m->value[k - 1], m->unit, 1);
		hq_buf_puts(&b, "</td><td class=\"s\">");
		sparkline(&b, m);
		hq_buf_puts(&b, "</td></tr>\n");
		rows++;
	}
	if (!rows)
		hq_buf_puts(&b, "<tr><td class=\"m\" colspan=\"5\">No data in this "
		    "week.</td></tr>\n");
	hq_buf_puts(&b, "</tbody></table>\n");
	goals(&b, w);
	if (w->alerts_read)
		alerts(&b, w);
	next_plan(&b, w);
	footnote(&b, w);
	hq_buf_puts(&b, "</div></body></html>\n");
	rc = fwrite(b.data, 1, b.len, fp) == b.len ? 0 : -1;
	hq_buf_free(&b);
	return rc;
}
