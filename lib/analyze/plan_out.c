#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/athlete_load.h"
#include "hq/buf.h"
#include "hq/catalog.h"
#include "hq/plan_out.h"
#include "hq/rowdesc.h"
#include "hq/time.h"

struct done {
	int64_t day, id;
	char type[128];
	double min, load;
	int used;
};

struct dones {
	struct done *d;
	size_t n, cap;
};

static int
add_done(void *arg, const struct hq_athlete_workout *w,
    const struct hq_athlete_figures *f)
{
	struct dones *ds = arg;

	if (ds->n == ds->cap) {
		ds->cap = ds->cap ? 2 * ds->cap : 32;
		ds->d = hq_xrealloc(ds->d, ds->cap * sizeof *ds->d);
	}
	struct done *d = &ds->d[ds->n++];
	memset(d, 0, sizeof *d);
	d->day = hq_time_local_day(w->start);
	d->id = w->id;
	snprintf(d->type, sizeof d->type, "%s", w->type);
	d->min = f->moving_min;
	d->load = f->load;
	return 0;
}

struct plan_row {
	int64_t day;
	char type[64];
	const char *title;
	double planned_min, planned_load, done_min, done_load;
	int64_t workout_id;
	const char *status;
};

static double
workout_num(const void *row)
{
	const struct plan_row *r = row;

	return r->workout_id ? (double)r->workout_id : NAN;
}

#define PR(k, t, f) HQ_COL_AT(k, t, struct plan_row, f)
#define T HQ_COL_TABLE
#define D HQ_COL_DATA
static const struct hq_col plan_cols[] = {
	{ PR("date", HQ_COL_DAY, day) },
	{ PR("type", HQ_COL_CHARS, type), .fit = { .min_width = 8 } },
	{ PR("title", HQ_COL_STR0, title), .fit = { .drop = 2, .min_width = 6 } },
	{ PR("planned_min", HQ_COL_NUM, planned_min), .in = D },
	{ PR("plan_min", HQ_COL_SHORT, planned_min), .in = T, .fit = { .right = 1 } },
	{ PR("planned_load", HQ_COL_NUM, planned_load), .in = D },
	{ PR("plan_load", HQ_COL_SHORT, planned_load), .in = T, .fit = { .right = 1 } },
	{ PR("done_min", HQ_COL_NUM, done_min), .in = D },
	{ PR("done_min", HQ_COL_SHORT, done_min), .in = T, .fit = { .right = 1 } },
	{ PR("done_load", HQ_COL_NUM, done_load), .in = D },
	{ PR("done_load", HQ_COL_SHORT, done_load), .in = T, .fit = { .right = 1 } },
	{ HQ_COL_N("workout_id", workout_num), .fit = { .drop = 1 } },
	{ PR("status", HQ_COL_STR, status) },
	{ .key = NULL },
};

/* The status of planned day p with the day's workouts of its type summed
 * into r. */
static const char *
status_of(const struct hq_plan_day *p, const struct plan_row *r, int found,
    int64_t today)
{
	if (!found)
		return p->day >= today ? "ahead" : "missed";
	if (p->load == 0)
		return "done";
	if (!isnan(r->done_load))
		return r->done_load >= HQ_PLAN_DONE_SHARE * p->load ? "done" :
		    "partial";
	return r->done_min >= HQ_PLAN_DONE_SHARE * p->minutes ? "done" : "partial";
}

static void
extra_rows(struct dones *ds, int64_t day, struct hq_out *o)
{
	for (size_t j = 0; j < ds->n; j++) {
		struct done *d = &ds->d[j];
		if (d->day != day || d->used)
			continue;
		struct plan_row r = { .day = day, .planned_min = NAN,
		    .planned_load = NAN, .done_min = d->min, .done_load = d->load,
		    .workout_id = d->id, .status = "extra" };
		hq_workout_type_name(d->type, r.type, sizeof r.type);
		d->used = 1;
		hq_out_row(o, plan_cols, &r);
	}
}

int
hq_plan_report_out(struct hq_store *s, const struct hq_athlete *a,
    int64_t from, int64_t to, int64_t today, struct hq_out *o,
    struct hq_err *e)
{
	struct hq_plan_day *p = NULL;
	struct dones ds = { 0 };
	size_t np = 0, k = 0;
	int rc = -1;

	if (hq_plan_get(s, from, to, &p, &np, e) ||
	    hq_athlete_each(s, a, NULL, 0, hq_time_day_start(from),
	    hq_time_day_start(to + 1), HQ_ATHLETE_LOAD_ONLY | HQ_ATHLETE_CACHED,
	    add_done, &ds, e) < 0)
		goto out;
	if (np == 0 && ds.n == 0) {
		char x[16], y[16];
		hq_time_format_day(from, x, sizeof x);
		hq_time_format_day(to, y, sizeof y);
		hq_err_set(e, "no plan and no workouts from %s to %s (hq-ingest "
		    "--plan FILE imports a plan)", x, y);
		rc = 1;
		goto out;
	}
	hq_out_fit_cols(o, plan_cols);
	for (int64_t day = from; day <= to; day++) {
		if (k < np && p[k].day == day) {
			struct plan_row r = { .day = day, .title = p[k].title,
			    .planned_min = p[k].minutes, .planned_load = p[k].load,
			    .done_min = NAN, .done_load = NAN };
			int found = 0, loads = 0;
			hq_workout_type_name(p[k].type, r.type, sizeof r.type);
			for (size_t j = 0; j < ds.n; j++) {
				struct done *d = &ds.d[j];
				if (d->day != day || strcmp(d->type, p[k].type))
					continue;
				if (!found++) {
					r.workout_id = d->id;
					r.done_min = 0;
				}
				r.done_min += d->min;
				if (!isnan(d->load)) {
					r.done_load = loads++ ? r.done_load + d->load : d->load;
				}
				d->used = 1;
			}
			r.status = status_of(&p[k], &r, found, today);
			hq_out_row(o, plan_cols, &r);
			k++;
		}
		extra_rows(&ds, day, o);
	}
	rc = 0;
out:
	free(p);
	free(ds.d);
	return rc;
}
