#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/daily.h"
#include "hq/goals.h"
#include "hq/opts.h"

/* The targets a goal may have (besides <= 0), in the metric's unit. */
#define GOAL_MIN 1e-6
#define GOAL_MAX 1e12

/* Body measures: a period's figure is its last value (hq-report(1), goals). */
static const char *const body[] = {
	"body_mass", "lean_body_mass", "body_mass_index", "body_fat_percentage",
	"height", "waist_circumference",
};

enum hq_goal_figure
hq_goal_figure_of(const struct hq_metric_info *m)
{
	if (m->kind == HQ_KIND_CUMULATIVE || m->kind == HQ_KIND_CATEGORY)
		return HQ_GOAL_TOTAL;
	for (size_t i = 0; i < sizeof body / sizeof body[0]; i++)
		if (strcmp(m->name, body[i]) == 0)
			return HQ_GOAL_LAST;
	return HQ_GOAL_AVERAGE;
}

static const char *
metric_unit(const struct hq_metric_info *m)
{
	return m->unit ? m->unit : hq_catalog_category_unit(m->name);
}

static int bad(struct hq_err *e, const char *where, const char *key,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* -1, with e "FILE:LINE: goal 'key': why". */
static int
bad(struct hq_err *e, const char *where, const char *key, const char *fmt, ...)
{
	char msg[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	hq_err_set(e, "%s%sgoal '%s': %s", where ? where : "", where ? ": " : "",
	    key, msg);
	return -1;
}

/* The goal's metric (g->name, g->metric and what follows from it:
 * g->unit, g->figure, g->measurement); 0, or -1 with e set. */
static int
goal_metric(const char *key, const char *where, struct hq_goal *g,
    struct hq_err *e)
{
	struct hq_catalog_suggestion sug;
	const char *pick;

	if (strlen(key) >= sizeof g->name)
		return bad(e, where, key, "a name that long is no metric");
	snprintf(g->name, sizeof g->name, "%s", key);
	snprintf(g->where, sizeof g->where, "%s", where ? where : "");
	g->metric = hq_catalog_lookup(key);
	if (!g->metric) {
		pick = hq_catalog_suggest_known(key, &sug);
		return bad(e, where, key, "no metric of that name%s%s%s",
		    pick ? " (did you mean " : "", pick ? pick : "",
		    pick ? "?)" : "");
	}
	if (strcmp(g->metric->name, "sleep_analysis") == 0)
		return bad(e, where, key, "the raw sleep intervals keep no goal; "
		    "the nights are sleep (or sleep_deep, sleep_rem ...)");
	g->unit = metric_unit(g->metric);
	g->figure = hq_goal_figure_of(g->metric);
	g->measurement = g->metric->kind == HQ_KIND_DISCRETE;
	return 0;
}

/* The value's "[<=|>=] NUMBER [UNIT]" into g->at_most and g->target (in
 * the metric's unit), *slash at the "/PERIOD" after it (NULL: none); 0,
 * or -1 with e set. */
static int
goal_target(const char *key, const char *value, const char *where,
    struct hq_goal *g, const char **slash, struct hq_err *e)
{
	const char *s = value, *end;
	char unit[40], num[64];
	size_t len;
	double x;

	while (isspace((unsigned char)*s))
		s++;
	if (strncmp(s, "<=", 2) == 0 || strncmp(s, ">=", 2) == 0) {
		g->at_most = *s == '<';
		s += 2;
		while (isspace((unsigned char)*s))
			s++;
	}
	len = strspn(s, "0123456789.eE+-");
	if (len == 0 || len >= sizeof num || !(isdigit((unsigned char)*s) ||
	    *s == '.'))
		return bad(e, where, key, "'%s' is not a target: a number, a unit "
		    "and a period, as 10000/day or <= 72kg", value);
	if (hq_opts_scan_quantity(s, &end, &x) || x < 0) {
		snprintf(num, sizeof num, "%.*s", (int)len, s);
		return bad(e, where, key, "'%s' is not a number", num);
	}
	s = end;
	*slash = strchr(s, '/');
	len = *slash ? (size_t)(*slash - s) : strlen(s);
	while (len > 0 && isspace((unsigned char)*s)) {
		s++;
		len--;
	}
	while (len > 0 && isspace((unsigned char)s[len - 1]))
		len--;
	if (len >= sizeof unit)
		return bad(e, where, key, "no unit is that long");
	memcpy(unit, s, len);
	unit[len] = '\0';
	if (*unit && hq_unit_convert(x, unit, g->unit, &x) != 0)
		return bad(e, where, key, "unit '%s' does not convert to %s's %s",
		    unit, g->metric->name, g->unit);
	g->target = x;
	if (g->target == 0 && !g->at_most)
		return bad(e, where, key, "a target of 0 is kept by anything; "
		    "write one above 0");
	/* What a metric's figures can be (the store keeps values up to
	 * 1e12): 1e-300 made pct infinite, 1e300 a target of 301 digits. */
	if (g->target != 0 && (g->target < GOAL_MIN || g->target > GOAL_MAX))
		return bad(e, where, key, "a target of %g %s is none a figure "
		    "reaches: write one from %g to %g", g->target, g->unit,
		    GOAL_MIN, GOAL_MAX);
	return 0;
}

/* The PERIOD after the slash (day, night, week or month) into g->period
 * and g->night; 0, or -1 with e set. */
static int
goal_period(const char *key, const char *where, const char *slash,
    struct hq_goal *g, struct hq_err *e)
{
	static const struct { const char *word; enum hq_period p; } periods[] = {
		{ "day", HQ_DAY }, { "night", HQ_DAY }, { "week", HQ_WEEK },
		{ "month", HQ_MONTH },
	};
	const char *s = slash + 1;
	char per[16];
	size_t len, i;

	while (isspace((unsigned char)*s))
		s++;
	len = strlen(s);
	while (len > 0 && isspace((unsigned char)s[len - 1]))
		len--;
	snprintf(per, sizeof per, "%.*s", (int)(len < 15 ? len : 15), s);
	for (i = 0; i < sizeof periods / sizeof periods[0]; i++)
		if (len == strlen(periods[i].word) &&
		    strcmp(per, periods[i].word) == 0)
			break;
	if (i == sizeof periods / sizeof periods[0])
		return bad(e, where, key, "no period '%s': day, night, week "
		    "or month", per);
	g->period = periods[i].p;
	g->night = strcmp(periods[i].word, "night") == 0;
	if (g->night && g->metric->kind != HQ_KIND_SLEEP)
		return bad(e, where, key, "/night is for sleep; %s keeps "
		    "a day, week or month", g->metric->name);
	return 0;
}

int
hq_goal_parse(const char *key, const char *value, const char *where,
    struct hq_goal *g, struct hq_err *e)
{
	const char *slash = NULL;

	memset(g, 0, sizeof *g);
	if (goal_metric(key, where, g, e))
		return -1;
	/* [<=|>=] NUMBER [UNIT] [/PERIOD] */
	if (goal_target(key, value, where, g, &slash, e))
		return -1;
	g->period = HQ_DAY;
	if (slash)
		return goal_period(key, where, slash, g, e);
	return 0;
}

int
hq_goals_from_config(const struct hq_config *c, struct hq_goal **goals,
    size_t *n, struct hq_err *e)
{
	const char *key;
	size_t cap = 0;

	*goals = NULL;
	*n = 0;
	for (size_t i = 0; (key = hq_config_key_at(c, "goals", i)); i++) {
		char where[256];
		if (hq_config_where(c, "goals", key, where, sizeof where))
			where[0] = '\0';
		if (*n == cap) {
			cap = cap ? cap * 2 : 8;
			*goals = hq_xrealloc(*goals, cap * sizeof **goals);
		}
		if (hq_goal_parse(key, hq_config_get(c, "goals", key),
		    *where ? where : NULL, &(*goals)[*n], e) < 0) {
			free(*goals);
			*goals = NULL;
			*n = 0;
			return -1;
		}
		(*n)++;
	}
	return 0;
}

void
hq_goal_period_of(enum hq_period p, int64_t d, int64_t *first, int64_t *last,
    char *label, size_t n)
{
	int y, m, dd;

	switch (p) {
	case HQ_WEEK: {
		int wy, wk;
		*first = d - hq_time_weekday(d);
		*last = *first + 6;
		hq_time_iso_week(d, &wy, &wk);
		snprintf(label, n, "%04d-W%02d", wy, wk);
		return;
	}
	case HQ_MONTH:
		hq_time_civil_from_days(d, &y, &m, &dd);
		*first = hq_time_days_from_civil(y, m, 1);
		*last = *first + hq_time_days_in_month(y, m) - 1;
		snprintf(label, n, "%04d-%02d", y, m);
		return;
	default:
		*first = *last = d;
		hq_time_format_day(d, label, n);
		return;
	}
}

/* Periods evaluated before from at most: 200 years of days. */
#define MAX_SPAN 73050

/* A figure from a period's sum, last value and days. */
static double
figure(enum hq_goal_figure f, double sum, double last, int days)
{
	if (days == 0)
		return NAN;
	return f == HQ_GOAL_TOTAL ? sum : f == HQ_GOAL_LAST ? last : sum / days;
}

double
hq_goal_figure_over(enum hq_goal_figure f, const int64_t *day, const double *v,
    size_t n, int64_t first, int64_t last, int *days)
{
	double sum = 0, lastv = NAN;
	size_t lo = hq_daily_lower(day, n, first);

	*days = 0;
	for (size_t i = lo; i < n && day[i] <= last; i++) {
		sum += v[i];
		lastv = v[i];
		(*days)++;
	}
	return figure(f, sum, lastv, *days);
}

int
hq_goal_eval(const struct hq_goal *g, const int64_t *day, const double *v,
    const double *targets, size_t n, int64_t from, int64_t to, int64_t newest,
    hq_goal_row_fn *fn, void *arg)
{
	int64_t start = n > 0 && day[0] < from ? day[0] : from, d;
	long streak = 0;
	size_t i = 0;

	if (start > to)
		return 0;
	if (start < to - MAX_SPAN)
		start = to - MAX_SPAN;
	for (d = start; d <= to && d <= newest;) {
		struct hq_goal_row r;
		double sum = 0, last = NAN;
		memset(&r, 0, sizeof r);
		r.goal = g;
		hq_goal_period_of(g->period, d, &r.first_day, &r.last_day, r.period,
		    sizeof r.period);
		r.target = g->target;
		for (; i < n && day[i] <= r.last_day; i++) {
			if (day[i] < r.first_day)
				continue;
			sum += v[i];
			last = v[i];
			r.days++;
			if (targets)
				r.target = targets[i];
		}
		r.actual = figure(g->figure, sum, last, r.days);
		r.pct = r.target != 0 ? 100 * r.actual / r.target : NAN;
		if (!isfinite(r.pct))     /* a ring's goal of 1e-300 */
			r.pct = NAN;
		if (r.last_day >= newest) {
			r.met = HQ_GOAL_GOING_ON;
		} else if (r.days == 0 && g->measurement) {
			r.met = HQ_GOAL_NO_DATA;  /* nothing measured: no verdict */
		} else if (r.days == 0) {
			r.met = HQ_GOAL_NOT_MET;
			streak = 0;
		} else {
			r.met = g->at_most ? r.actual <= r.target : r.actual >= r.target;
			streak = r.met ? streak + 1 : 0;
		}
		r.streak = streak;
		if (r.last_day >= from && fn(arg, &r) < 0)
			return -1;
		d = r.last_day + 1;
	}
	return 0;
}
