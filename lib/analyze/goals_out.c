#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/catalog.h"
#include "hq/daily.h"
#include "hq/goals_out.h"
#include "hq/horizon.h"
#include "hq/rowdesc.h"
#include "hq/sense.h"
#include "hq/time.h"

/* Apple's rings: the ActivitySummary columns of each (schema.c). */
static const struct ring {
	const char *name, *unit, *value, *goal;
} ring_table[HQ_GOAL_RINGS] = {
	{ "move", "kcal", "active_energy", "active_energy_goal" },
	{ "exercise", "min", "exercise_time", "exercise_time_goal" },
	{ "stand", "h", "stand_hours", "stand_hours_goal" },
};

const char *
hq_goal_ring_at(size_t i)
{
	return i < HQ_GOAL_RINGS ? ring_table[i].name : NULL;
}

/* ---- rows ------------------------------------------------------------------ */

struct grow {
	const char *goal, *unit;
	const struct hq_goal_row *r;
};

static int
period_text(const void *row, char *buf, size_t n)
{
	snprintf(buf, n, "%s", ((const struct grow *)row)->r->period);
	return 0;
}

static double target_num(const void *row) { return ((const struct grow *)row)->r->target; }
static double actual_num(const void *row) { return ((const struct grow *)row)->r->actual; }
static double pct_num(const void *row) { return ((const struct grow *)row)->r->pct; }

/* A number with the goal's unit, to its sense, for a table: "10,000",
 * "7 h", "5 h 28 min", "72.0 kg". */
static int
with_unit(const struct grow *g, double v, char *buf, size_t n)
{
	if (isnan(v))
		return -1;
	hq_sense_value(v, g->unit, HQ_SENSE_UNIT, buf, n);
	return 0;
}

static int
target_text(const void *row, char *buf, size_t n)
{
	const struct grow *g = row;
	int rc = with_unit(g, g->r->target, buf + 2, n - 2);

	memcpy(buf, g->r->goal && g->r->goal->at_most ? "<=" : ">=", 2);
	return rc;
}

static int
actual_text(const void *row, char *buf, size_t n)
{
	const struct grow *g = row;
	return with_unit(g, g->r->actual, buf, n);
}

static int
pct_text(const void *row, char *buf, size_t n)
{
	double p = ((const struct grow *)row)->r->pct;

	if (!isfinite(p))
		return -1;
	snprintf(buf, n, "%.0f%%", p);
	return 0;
}

static int
op_text(const void *row, char *buf, size_t n)
{
	const struct grow *g = row;

	snprintf(buf, n, "%s", g->r->goal && g->r->goal->at_most ? "<=" : ">=");
	return 0;
}

static void
met_put(struct hq_out *o, const char *key, const void *row)
{
	int met = ((const struct grow *)row)->r->met;

	if (met < 0)
		hq_out_null(o, key);
	else
		hq_out_bool(o, key, met);
}

static int
met_text(const void *row, char *buf, size_t n)
{
	int met = ((const struct grow *)row)->r->met;

	snprintf(buf, n, "%s", met == HQ_GOAL_GOING_ON ? "going on" :
	    met == HQ_GOAL_NO_DATA ? "no data" : met ? "yes" : "no");
	return 0;
}

static double streak_num(const void *row) { return (double)((const struct grow *)row)->r->streak; }

#define G(k, t, f) HQ_COL_AT(k, t, struct grow, f)
#define T HQ_COL_TABLE
#define D HQ_COL_DATA
static const struct hq_col goal_cols[] = {
	{ G("goal", HQ_COL_STR, goal), .fit = { .min_width = 8 } },
	{ HQ_COL_FN("period", period_text) },
	{ HQ_COL_FN("op", op_text), .in = D },
	{ HQ_COL_N("target", target_num), .in = D },
	{ HQ_COL_FN("target", target_text), .in = T },
	{ HQ_COL_N("actual", actual_num), .in = D },
	{ HQ_COL_FN("actual", actual_text), .in = T },
	{ HQ_COL_N("pct", pct_num), .in = D },
	{ HQ_COL_FN("pct", pct_text), .in = T },
	{ HQ_COL_P("met", met_put), .in = D },
	{ HQ_COL_FN("met", met_text), .in = T },
	{ HQ_COL_N("streak", streak_num) },
	{ G("unit", HQ_COL_STR0, unit), .in = D },
	{ .key = NULL },
};

struct emit {
	struct hq_out *o;
	long rows;
};

static int
emit_row(void *arg, const struct hq_goal_row *r)
{
	struct emit *em = arg;
	struct grow g = { r->goal->name, r->goal->unit, r };

	hq_out_row(em->o, goal_cols, &g);
	em->rows++;
	return 0;
}

/* ---- the series ------------------------------------------------------------ */

/* The rows' callback, counted. */
struct each {
	hq_goal_row_fn *fn;
	void *arg;
	long rows;
};

static int
each_row(void *arg, const struct hq_goal_row *r)
{
	struct each *ea = arg;

	ea->rows++;
	return ea->fn(ea->arg, r);
}

/* One configured goal over its daily values up to day to; a metric the
 * store has never recorded is said in notes, and makes no row. */
static int
config_goal(struct hq_store *s, const struct hq_select *settings,
    const struct hq_goal *g, int64_t from, int64_t to, int64_t newest,
    struct hq_buf *notes, struct each *ea, struct hq_err *e)
{
	struct hq_daily_store ds = { s, settings };
	struct hq_daily_span span = { INT64_MIN, to };
	struct hq_daily sr;
	int64_t t;
	int rc, none;

	if (hq_daily_load(&ds, g->metric->name, span, 0, 0, &sr, e))
		return -1;
	if (sr.n == 0) {
		if (hq_horizon_metric_newest(s, g->metric->name, &t, &none, e)) {
			hq_daily_free(&sr);
			return -1;
		}
		if (none && notes)
			hq_buf_printf(notes, "%s%sgoal '%s': the store holds no %s "
			    "at all: is it recorded, or imported?\n", g->where,
			    *g->where ? ": " : "", g->name, g->metric->name);
		if (none) {
			hq_daily_free(&sr);
			return 0;
		}
	}
	rc = hq_goal_eval(g, sr.days, sr.v, NULL, sr.n, from, to, newest,
	    each_row, ea);
	hq_daily_free(&sr);
	return rc;
}

/* The ring goals over the activity summaries up to day to. */
static int
ring_goals(struct hq_store *s, int64_t from, int64_t to, int64_t newest,
    const char *const *only, size_t nonly, struct each *ea, struct hq_err *e)
{
	for (size_t k = 0; k < HQ_GOAL_RINGS; k++) {
		const struct ring *rg = &ring_table[k];
		int named = !only;
		char sql[300];
		sqlite3_stmt *st;
		int64_t *day = NULL, d;
		double *v = NULL, *target = NULL;
		size_t n = 0, cap = 0;
		struct hq_goal g;
		int rc;

		for (size_t i = 0; i < nonly; i++)
			named |= strcmp(only[i], rg->name) == 0;
		if (!named)
			continue;
		snprintf(sql, sizeof sql, "SELECT date, %s, %s%s FROM activity_summary "
		    "WHERE %s IS NOT NULL ORDER BY date", rg->value, rg->goal,
		    k == 0 ? ", active_energy_unit" : "", rg->value);
		if (hq_store_prepare(s, sql, &st, e))
			return -1;
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			double x = sqlite3_column_double(st, 1), t = NAN;
			const char *unit = k == 0 ? (const char *)sqlite3_column_text(st, 3)
			    : NULL;
			if (hq_horizon_summary_day(sqlite3_column_text(st, 0), &d) || d > to)
				continue;
			if (sqlite3_column_type(st, 2) != SQLITE_NULL)
				t = sqlite3_column_double(st, 2);
			/* Energy written in kJ is a move ring in kcal. */
			if (unit && *unit && strcmp(unit, rg->unit) != 0 &&
			    (hq_unit_convert(x, unit, rg->unit, &x) ||
			    (!isnan(t) && hq_unit_convert(t, unit, rg->unit, &t))))
				continue;
			if (n == cap) {
				cap = cap ? cap * 2 : 256;
				day = hq_xrealloc(day, cap * sizeof *day);
				v = hq_xrealloc(v, cap * sizeof *v);
				target = hq_xrealloc(target, cap * sizeof *target);
			}
			day[n] = d;
			v[n] = x;
			target[n++] = t;
		}
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE) {
			hq_err_set(e, "store: activity summaries: %s",
			    sqlite3_errmsg(hq_store_db(s)));
			rc = -1;
		} else {
			rc = 0;
		}
		if (rc == 0 && n > 0) {
			memset(&g, 0, sizeof g);
			snprintf(g.name, sizeof g.name, "%s", rg->name);
			g.unit = rg->unit;
			g.target = target[n - 1];
			g.period = HQ_DAY;
			g.figure = HQ_GOAL_TOTAL;
			/* A day without its own goal keeps the one before. */
			for (size_t i = 0; i < n; i++)
				if (isnan(target[i]))
					target[i] = i ? target[i - 1] : NAN;
			rc = hq_goal_eval(&g, day, v, target, n, from, to, newest,
			    each_row, ea);
		}
		free(day);
		free(v);
		free(target);
		if (rc)
			return -1;
	}
	return 0;
}

int
hq_goals_each(struct hq_store *s, const struct hq_select *settings,
    const struct hq_goal *goals, size_t n, int64_t from, int64_t to,
    int64_t now, int rings, const char *const *only, size_t nonly,
    struct hq_buf *notes, hq_goal_row_fn *fn, void *arg, struct hq_err *e)
{
	struct each ea = { fn, arg, 0 };
	struct hq_horizon h;
	char why[120];

	if (hq_horizon_read(s, now, &h, e))
		return -1;
	if (h.none) {
		hq_err_set(e, "the store holds no data yet: import an export "
		    "(hq-ingest)");
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		if (config_goal(s, settings, &goals[i], from, to, h.last, notes,
		    &ea, e))
			return -1;
	if (rings && ring_goals(s, from, to, h.last, only, nonly, &ea, e))
		return -1;
	if (ea.rows == 0 && from > h.last) {
		hq_horizon_after(&h, from, why, sizeof why);
		hq_err_set(e, "no goal's period to show: %s", why);
		return 1;
	}
	if (ea.rows == 0) {
		hq_err_set(e, n ? "no period of a goal in the range" :
		    "no goals: write them under [goals] in the config (hq(7)), "
		    "or import an Apple Health export with activity rings");
		return 1;
	}
	return 0;
}

int
hq_goals_report_out(struct hq_store *s, const struct hq_select *settings,
    const struct hq_goal *goals, size_t n, int64_t from, int64_t to,
    int64_t now, int rings, const char *const *only, size_t nonly,
    struct hq_buf *notes, struct hq_out *o, struct hq_err *e)
{
	struct emit em = { o, 0 };

	hq_out_fit_cols(o, goal_cols);
	return hq_goals_each(s, settings, goals, n, from, to, now, rings, only,
	    nonly, notes, emit_row, &em, e);
}
