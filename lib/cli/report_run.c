/*
 * report_run — hq-report's subcommands run (report_run.h): the options
 * handed to each report's engine, the few checks that belong to one
 * report (--dates' two dates, --agp without --by, zones ID alone).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/alert_report.h"
#include "hq/athlete_out.h"
#include "hq/buf.h"
#include "hq/cgm_report.h"
#include "hq/forecast_out.h"
#include "hq/goals.h"
#include "hq/goals_report.h"
#include "hq/nutrition.h"
#include "hq/plan_report.h"
#include "hq/report_out.h"
#include "hq/report_read.h"
#include "hq/report_run.h"
#include "hq/time.h"
#include "hq/trend_out.h"
#include "hq/week.h"
#include "hq/workout.h"

int
hq_report_run_list(struct hq_report_ask *c, int argc, char **argv,
    struct hq_err *e)
{
	const char *kind = argc > 0 ? argv[0] : NULL;

	if (kind && strcmp(kind, "labs") && strcmp(kind, "dexa") &&
	    strcmp(kind, "cgm")) {
		hq_opts_usage_error(c->cmd, "list what? '%s' (labs, dexa or cgm)", kind);
		return 2;
	}
	return hq_report_list_out(c->st.store, kind, c->out, e);
}

int
hq_report_run_latest_labs(struct hq_report_ask *c, int argc, char **argv,
    struct hq_err *e)
{
	return hq_report_latest_labs_out(c->st.store, (const char *const *)argv,
	    (size_t)argc, c->unit, c->out, e);
}

int
hq_report_run_trend_labs(struct hq_report_ask *c, int argc, char **argv,
    struct hq_err *e)
{
	(void)argc;
	return hq_report_trend_labs_out(c->st.store, argv[0], c->unit,
	    c->svg ? stdout : NULL, c->out, e);
}

int
hq_report_run_latest_dexa(struct hq_report_ask *c, int argc, char **argv,
    struct hq_err *e)
{
	(void)argc, (void)argv;
	return hq_report_latest_dexa_out(c->st.store, c->fields, c->out, e);
}

int
hq_report_run_compare_dexa(struct hq_report_ask *c, int argc, char **argv,
    struct hq_err *e)
{
	char *d1 = NULL, *d2 = NULL, *copy = NULL;
	int rc;

	(void)argc, (void)argv;
	if (c->has_last && c->dates) {
		hq_opts_usage_error(c->cmd, "--last with --dates does not go with "
		    "'compare dexa'");
		return 2;
	}
	if (c->dates) {
		copy = hq_xstrdup(c->dates);
		d1 = copy;
		d2 = strchr(copy, ',');
		if (!d2 || strchr(d2 + 1, ',') || d2 == d1 || !d2[1]) {
			hq_opts_usage_error(c->cmd, "--dates takes two dates: D1,D2");
			free(copy);
			return 2;
		}
		*d2++ = '\0';
	}
	rc = hq_report_compare_dexa_out(c->st.store, d1, d2, (int)c->last,
	    c->fields, c->svg ? stdout : NULL, c->out, e);
	free(copy);
	return rc;
}

int
hq_report_run_cgm(struct hq_report_ask *c, int argc, char **argv,
    struct hq_err *e)
{
	static const enum hq_period by[] = { HQ_DAY, HQ_WEEK, HQ_MONTH };
	struct hq_cgm_report_opts o = { .by = HQ_PERIOD_NONE, .agp = c->agp };

	(void)argc, (void)argv;
	if (c->agp && c->by >= 0) {
		hq_opts_usage_error(c->cmd, "--agp is one profile over the range: "
		    "drop --by, or narrow the range with --from/--to");
		return 2;
	}
	if (c->by >= 0)
		o.by = by[c->by];
	if (hq_time_parse_from_to(c->from, c->to, hq_time_now(), &o.from,
	    &o.to, e)) {
		hq_warn("%s", e->msg);
		return 2;
	}
	/* The report writes its own rows (or its drawing). */
	hq_out_free(c->out);
	c->out = NULL;
	return hq_cgm_report_print(c->st.store, &o, c->format_name, stdout, e);
}

/* ---- goals and alerts (goals_report.h, alert_report.h) ------------------ */

/* --from and --to as local days [*from, *to]; without --to, today;
 * without --from, back days before --to, to the Monday of its week when
 * monday. 0, or -1 with e. */
static int
range_days(const struct hq_report_ask *c, int back, int monday,
    int64_t *from, int64_t *to, struct hq_err *e)
{
	int64_t start, end;

	if (hq_time_parse_from_to(c->from, c->to, hq_time_now(), &start,
	    &end, e))
		return -1;
	hq_time_day_range(start, end, hq_time_now(), back, from, to);
	if (start == INT64_MIN && monday)
		*from -= hq_time_weekday(*from);
	return 0;
}

/* The goals named (a goal's name or a ring), or all. */
int
hq_report_run_goals(struct hq_report_ask *c, int argc, char **argv,
    struct hq_err *e)
{
	struct hq_goal *goals = NULL, *kept;
	struct hq_buf notes = { 0 };
	size_t n = 0, k = 0;
	int64_t from, to;
	int rc, rings = argc == 0;

	if (range_days(c, 21, 1, &from, &to, e))
		return -1;
	if ((rc = hq_start_settings(&c->st)) ||
	    (rc = hq_goals_from_config(c->st.cfg, &goals, &n, e) ? -1 : 0))
		goto done;
	kept = goals;
	for (int i = 0; i < argc; i++) {
		int found = 0;
		for (size_t j = 0; j < n; j++)
			found |= strcmp(argv[i], goals[j].name) == 0;
		for (size_t j = 0; hq_goal_ring_at(j); j++)
			if (strcmp(argv[i], hq_goal_ring_at(j)) == 0)
				found = rings = 1;
		if (!found) {
			hq_opts_usage_error(c->cmd, "no goal '%s' (the config's [goals] "
			    "and the rings move, exercise, stand)", argv[i]);
			rc = 2;
			goto done;
		}
	}
	if (argc > 0)       /* the goals named, in the config's order */
		for (size_t j = 0; j < n; j++) {
			int named = 0;
			for (int i = 0; i < argc; i++)
				named |= strcmp(argv[i], goals[j].name) == 0;
			if (named)
				kept[k++] = goals[j];
		}
	else
		k = n;
	rc = hq_goals_report_out(c->st.store, &c->st.settings, kept, k, from, to,
	    hq_time_now(), rings, argc > 0 ? (const char *const *)argv : NULL,
	    (size_t)argc, &notes, c->out, e);
	hq_warn_lines(notes.data);
	hq_buf_free(&notes);
done:
	free(goals);
	return rc;
}

int
hq_report_run_alerts(struct hq_report_ask *c, int argc, char **argv,
    struct hq_err *e)
{
	int64_t from, to;
	char a[16], b[16];
	long n;

	(void)argc, (void)argv;
	if (range_days(c, 6, 0, &from, &to, e))
		return -1;
	if (hq_start_settings(&c->st))
		return 2;
	n = hq_alerts_report_out(c->st.store, &c->st.settings, from, to,
	    hq_time_now(), c->quiet ? NULL : c->out, e);
	if (n < 0)
		return -1;
	if (n == 0) {
		hq_time_format_day(from, a, sizeof a);
		hq_time_format_day(to, b, sizeof b);
		hq_err_set(e, "nothing off from %s to %s", a, b);
		return 1;
	}
	return 0;
}

/* The local days of --from and --to (INT64_MIN / INT64_MAX when open),
 * then the [query] settings: 0, or -1 said. */
static int
ask_days(struct hq_report_ask *c, int64_t *from_day, int64_t *to_day,
    struct hq_err *e)
{
	int64_t from, to;

	if (hq_time_parse_from_to(c->from, c->to, hq_time_now(), &from,
	    &to, e)) {
		hq_warn("%s", e->msg);
		return -1;
	}
	if (hq_start_settings(&c->st))
		return -1;
	*from_day = from == INT64_MIN ? INT64_MIN : hq_time_local_day(from);
	*to_day = to == INT64_MAX ? INT64_MAX : hq_time_local_day(to - 1);
	return 0;
}

/* The metric's daily values as hq-query --by day gives them, with the
 * [query] settings of the config (source priority, sleep cutoff). */
int
hq_report_run_trend_metric(struct hq_report_ask *c, int argc, char **argv,
    struct hq_err *e)
{
	int64_t from_day, to_day;

	(void)argc;
	if (ask_days(c, &from_day, &to_day, e))
		return 2;
	return hq_trend_metric_out(&c->st.daily, argv[0], from_day, to_day,
	    c->out, e);
}

int
hq_report_run_week(struct hq_report_ask *c, int argc, char **argv,
    struct hq_err *e)
{
	struct hq_week *w;
	int64_t monday;
	int rc = 0;

	(void)argc, (void)argv;
	if (hq_week_parse(c->week, hq_time_now(), &monday, e)) {
		hq_opts_usage_error(c->cmd, "%s", e->msg);
		return 2;
	}
	if (hq_start_settings(&c->st))
		return 2;
	w = hq_xcalloc(1, sizeof *w);
	if ((rc = hq_week_run(&c->st.daily, c->st.cfg, monday, hq_time_now(),
	    w, e)) == 0 && w->note[0])
		hq_warn("%s", w->note);
	if (rc == 0 && c->html &&
	    (rc = hq_week_goals_alerts(&c->st.daily, c->st.cfg, hq_time_now(),
	    w, e)) == 0 && w->goals_note[0])
		hq_warn("%s", w->goals_note);
	if (rc == 0 && c->html) {
		if (hq_week_html(stdout, w)) {
			hq_err_set(e, "write error");
			rc = -1;
		}
	} else if (rc == 0 && hq_week_out(w, c->out) == 0) {
		hq_err_set(e, "no data in %s (%s): import some, or ask for another "
		    "--week", w->label, "Monday to Sunday, local days");
		rc = 1;
	}
	hq_week_done(w);
	free(w);
	return rc;
}

/* ---- training: load, zones, bests, compare workouts (athlete_out.h) ---- */

/* The options as an hq_athlete_ask: types (only: the ones allowed), the
 * workouts of --ids, the range, the settings (config, flags, store). 0, 1
 * with e (a workout of --ids is not in the store), or -1 with e. */
static int
athlete_ask(const struct hq_report_ask *c, struct hq_athlete_ask *ask,
    const char *only, struct hq_err *e)
{
	int rc;

	memset(ask, 0, sizeof *ask);
	ask->last = c->has_last ? c->last : 3;
	if (hq_athlete_parse_types(ask, c->type, only, e))
		return -1;
	if (c->ids && (rc = hq_athlete_parse_ids(ask, c->st.store, c->ids, e)))
		return rc;
	if (hq_time_parse_from_to(c->from, c->to, hq_time_now(), &ask->from,
	    &ask->to, e))
		return -1;
	return hq_athlete_setup(&ask->ath, c->st.cfg, c->st.store, c->ath, NULL,
	    e);
}

int
hq_report_run_load(struct hq_report_ask *c, int argc, char **argv,
    struct hq_err *e)
{
	struct hq_athlete_ask ask;

	(void)argc, (void)argv;
	if (athlete_ask(c, &ask, NULL, e))
		return -1;
	return hq_athlete_load_out(c->st.store, &ask, hq_time_now(),
	    c->svg ? stdout : NULL, c->out, e);
}

int
hq_report_run_zones(struct hq_report_ask *c, int argc, char **argv,
    struct hq_err *e)
{
	struct hq_athlete_ask ask;
	struct hq_workout_ref w;
	int rc;

	if (athlete_ask(c, &ask, NULL, e))
		return -1;
	if (argc) {
		if (c->from || c->to || c->type) {
			hq_opts_usage_error(c->cmd, "zones ID is one workout: drop "
			    "--from, --to and --type");
			return 2;
		}
		if ((rc = hq_workout_find(c->st.store, argv[0], &w, e)) <= 0)
			return rc < 0 ? -1 : 1;
		ask.id = w.id;
	}
	return hq_athlete_zones_out(c->st.store, &ask, hq_time_now(), c->out, e);
}

int
hq_report_run_bests(struct hq_report_ask *c, int argc, char **argv,
    struct hq_err *e)
{
	struct hq_athlete_ask ask;

	(void)argc, (void)argv;
	if (athlete_ask(c, &ask, "running|walking|cycling", e))
		return -1;
	return hq_athlete_bests_out(c->st.store, &ask, c->out, e);
}

int
hq_report_run_compare_workouts(struct hq_report_ask *c, int argc, char **argv,
    struct hq_err *e)
{
	struct hq_athlete_ask ask;
	int rc;

	(void)argc, (void)argv;
	if (c->ids && c->has_last) {
		hq_opts_usage_error(c->cmd, "--ids and --last: choose one");
		return 2;
	}
	if ((rc = athlete_ask(c, &ask, NULL, e)))
		return rc;
	return hq_athlete_compare_out(c->st.store, &ask, c->out, e);
}

/* ---- the food log (nutrition.h) ------------------------------------------ */

/* The days of --from/--to, else the last 7 ending today. */
int
hq_report_run_nutrition(struct hq_report_ask *c, int argc, char **argv,
    struct hq_err *e)
{
	int64_t from, to;

	(void)argc, (void)argv;
	if (range_days(c, 6, 0, &from, &to, e)) {
		hq_warn("%s", e->msg);
		return 2;
	}
	if (hq_start_settings(&c->st))
		return 2;
	if (c->entries)
		return hq_nutrition_entries_out(&c->st.daily, from, to, c->out, e);
	return hq_nutrition_days_out(&c->st.daily, from, to, c->out, e);
}

/* ---- forecast METRIC (forecast_out.h) ----------------------------------- */

int
hq_report_run_forecast(struct hq_report_ask *c, int argc, char **argv,
    struct hq_err *e)
{
	struct hq_forecast_ask a = { .metric = argv[0], .ahead = c->ahead,
	    .target = c->target, .svg = c->svg ? stdout : NULL };
	int rc;

	(void)argc;
	if (ask_days(c, &a.from_day, &a.to_day, e))
		return 2;
	rc = hq_forecast_out(&c->st.daily, &a, c->out, e);
	if (rc == 2)
		hq_opts_usage_error(c->cmd, "%s", e->msg);
	return rc;
}

/* ---- plan (plan_report.h) ------------------------------------------------ */

/* --week, else --from/--to, else this week (Monday to Sunday). */
int
hq_report_run_plan(struct hq_report_ask *c, int argc, char **argv,
    struct hq_err *e)
{
	struct hq_athlete_ask ask;
	int64_t today = hq_time_local_day(hq_time_now()), from, to;

	(void)argc, (void)argv;
	if (c->week && (c->from || c->to)) {
		hq_opts_usage_error(c->cmd, "--week or --from/--to: choose one");
		return 2;
	}
	if (c->week) {
		if (hq_week_parse(c->week, hq_time_now(), &from, e)) {
			hq_opts_usage_error(c->cmd, "%s", e->msg);
			return 2;
		}
		to = from + 6;
	} else if (c->from || c->to) {
		if (range_days(c, 6, 0, &from, &to, e))
			return -1;
	} else {
		from = today - hq_time_weekday(today);
		to = from + 6;
	}
	if (athlete_ask(c, &ask, NULL, e))
		return -1;
	return hq_plan_report_out(c->st.store, &ask.ath, from, to, today, c->out,
	    e);
}
