/* hq-report week --format html's goals and alerts (week.h): the goals of
 * hq-report goals and the alerts of hq-report alerts over the week's days,
 * summed up for the page. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/alert_out.h"
#include "hq/daily.h"
#include "hq/goals_out.h"
#include "hq/sense.h"
#include "hq/time.h"
#include "hq/week.h"

/* One goal's rows over the week, as they come (oldest first). */
struct tally {
	struct hq_week *w;
	struct hq_week_goal *g;      /* the goal being summed, or NULL */
	int met, verdicts, open, none;
	struct hq_goal goal;         /* a copy: a ring's goal lives on the
	                              * goals engine's stack */
	struct hq_goal_row last;     /* its goal pointer left unused */
	char unit[32];
};

static const char *
period_word(const struct hq_goal *g, int plural)
{
	if (g->night)
		return plural ? "nights" : "night";
	switch (g->period) {
	case HQ_WEEK: return plural ? "weeks" : "week";
	case HQ_MONTH: return plural ? "months" : "month";
	default: return plural ? "days" : "day";
	}
}

static const char *
verdict(int met)
{
	return met == HQ_GOAL_MET ? "met" : met == HQ_GOAL_NOT_MET ? "not met" :
	    met == HQ_GOAL_GOING_ON ? "going on" : "no data";
}

/* The goal summed: "met on 5 of 7 days (1 going on)", "390 min: met". */
static void
close_goal(struct tally *t)
{
	struct hq_week_goal *g = t->g;
	const struct hq_goal *goal = &t->goal;
	char num[48];
	size_t len;

	if (!g)
		return;
	if (goal->period == HQ_DAY) {
		snprintf(g->week, sizeof g->week, "met on %d of %d %s", t->met,
		    t->verdicts, period_word(goal, t->verdicts != 1));
		len = strlen(g->week);
		if (t->open)
			snprintf(g->week + len, sizeof g->week - len, " (%d going on)",
			    t->open);
		else if (t->none)
			snprintf(g->week + len, sizeof g->week - len, " (%d without "
			    "data)", t->none);
	} else {
		hq_sense_value(t->last.actual, t->unit, HQ_SENSE_UNIT, num,
		    sizeof num);
		snprintf(g->week, sizeof g->week, "%s%s%s: %s",
		    goal->period == HQ_MONTH ? t->last.period : "",
		    goal->period == HQ_MONTH ? " " : "", num, verdict(t->last.met));
	}
	/* the mark: a day goal kept every day or none, else its period's */
	g->met = goal->period != HQ_DAY ? t->last.met : t->verdicts == 0 ? -1 :
	    t->met == t->verdicts ? HQ_GOAL_MET : t->met == 0 ? HQ_GOAL_NOT_MET :
	    -1;
	g->streak = t->last.streak;
	snprintf(g->per, sizeof g->per, "%s", period_word(goal, 0));
	t->g = NULL;
}

static int
add_row(void *arg, const struct hq_goal_row *r)
{
	struct tally *t = arg;
	struct hq_week *w = t->w;
	char num[48];

	if (!t->g || strcmp(t->g->name, r->goal->name) != 0) {
		close_goal(t);
		w->goals = hq_xrealloc(w->goals, (w->ngoals + 1) * sizeof *w->goals);
		t->g = memset(&w->goals[w->ngoals++], 0, sizeof *t->g);
		t->goal = *r->goal;
		snprintf(t->g->name, sizeof t->g->name, "%s", r->goal->name);
		snprintf(t->unit, sizeof t->unit, "%s", r->goal->unit ?
		    r->goal->unit : "");
		hq_sense_value(r->target, t->unit, HQ_SENSE_UNIT, num, sizeof num);
		snprintf(t->g->target, sizeof t->g->target, "%s %s a %s",
		    r->goal->at_most ? "\u2264" : "\u2265", num,
		    period_word(r->goal, 0));
		t->met = t->verdicts = t->open = t->none = 0;
	}
	t->met += r->met == HQ_GOAL_MET;
	t->verdicts += r->met >= 0;
	t->open += r->met == HQ_GOAL_GOING_ON;
	t->none += r->met == HQ_GOAL_NO_DATA;
	t->last = *r;
	return 0;
}

static int
add_alert(void *arg, const struct hq_alert *a)
{
	struct hq_week *w = arg;
	struct hq_week_alert *x;

	w->alerts = hq_xrealloc(w->alerts, (w->nalerts + 1) * sizeof *w->alerts);
	x = &w->alerts[w->nalerts++];
	x->day = a->day;
	snprintf(x->kind, sizeof x->kind, "%s", a->kind);
	snprintf(x->message, sizeof x->message, "%s", a->message);
	return 0;
}

int
hq_week_goals_alerts(const struct hq_daily_store *ds,
    const struct hq_config *cfg, int64_t now, struct hq_week *w,
    struct hq_err *e)
{
	struct hq_goal *goals = NULL;
	struct tally t = { .w = w };
	size_t n = 0;
	int rc = 0;

	if (cfg && hq_goals_from_config(cfg, &goals, &n, e)) {
		snprintf(w->goals_note, sizeof w->goals_note, "goals left out: "
		    "%.500s", e->msg);
	} else {
		rc = hq_goals_each(ds->s, ds->settings, goals, n, w->monday,
		    w->monday + 6, now, 1, NULL, 0, NULL, add_row, &t, e);
		close_goal(&t);
		/* 1: no goal at all, or none with a period in the week */
		rc = rc < 0 ? -1 : 0;
	}
	free(goals);
	if (rc == 0 && hq_alerts_each(ds->s, ds->settings, w->monday,
	    w->monday + 6, now, add_alert, w, e) < 0)
		rc = -1;
	w->alerts_read = rc == 0;
	if (rc == 0 && hq_plan_get(ds->s, w->monday + 7, w->monday + 13,
	    &w->next_plan, &w->nnext_plan, e))
		rc = -1;
	return rc;
}

void
hq_week_done(struct hq_week *w)
{
	free(w->goals);
	free(w->alerts);
	free(w->next_plan);
	w->goals = NULL;
	w->alerts = NULL;
	w->next_plan = NULL;
	w->nnext_plan = 0;
	w->ngoals = w->nalerts = 0;
}
