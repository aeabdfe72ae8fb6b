/* hq-report load, zones, bests and compare workouts (athlete_out.h): the
 * engine's figures (athlete_load.h, athlete_bests.h) as rows. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hq/athlete_bests.h"
#include "hq/athlete_out.h"
#include "hq/buf.h"
#include "hq/catalog.h"
#include "hq/config.h"
#include "hq/horizon.h"
#include "hq/plan.h"
#include "hq/rowdesc.h"
#include "hq/sense.h"
#include "hq/time.h"
#include "hq/workout.h"

#define T HQ_COL_TABLE
#define D HQ_COL_DATA
#define DEFAULT_DAYS 90
#define R { .right = 1 }

/* ---- settings and operands ------------------------------------------------ */

int
hq_athlete_setup(struct hq_athlete *a, const struct hq_config *cfg,
    struct hq_store *s, const char *const flags[HQ_ATH_NKEYS],
    const char *const flag_names[HQ_ATH_NKEYS], struct hq_err *e)
{
	hq_athlete_init(a);
	return hq_athlete_resolve(a, cfg, flags, flag_names, s, e);
}

int
hq_athlete_parse_types(struct hq_athlete_ask *ask, const char *list,
    const char *only, struct hq_err *e)
{
	char *p, *save = NULL, suggest[64];

	ask->ntypes = 0;
	if (!list)
		return 0;
	snprintf(ask->type_text, sizeof ask->type_text, "%s", list);
	snprintf(ask->typebuf, sizeof ask->typebuf, "%s", list);
	for (p = strtok_r(ask->typebuf, ",", &save); p;
	    p = strtok_r(NULL, ",", &save)) {
		const char *id = hq_workout_type_identifier(p, suggest,
		    sizeof suggest);
		if (!id) {
			hq_err_set(e, "--type %.64s: unknown workout type%s%s%s", p,
			    *suggest ? " (did you mean " : " (try running, walking, "
			    "cycling, swimming, hiking", suggest, ")");
			return -1;
		}
		if (only) {
			char name[64], want[96];
			hq_workout_type_name(id, name, sizeof name);
			snprintf(want, sizeof want, "|%s|", only);
			char pat[80];
			snprintf(pat, sizeof pat, "|%s|", name);
			if (!strstr(want, pat)) {
				hq_err_set(e, "--type %.64s: bests are for %s", p, only);
				return -1;
			}
		}
		if (ask->ntypes == HQ_ATHLETE_MAX_TYPES) {
			hq_err_set(e, "--type: at most %d types",
			    HQ_ATHLETE_MAX_TYPES);
			return -1;
		}
		ask->types[ask->ntypes++] = id;
	}
	if (!ask->ntypes) {
		hq_err_set(e, "--type: no type given");
		return -1;
	}
	return 0;
}

int
hq_athlete_parse_ids(struct hq_athlete_ask *ask, struct hq_store *s,
    const char *list, struct hq_err *e)
{
	char buf[512], *p, *save = NULL;
	struct hq_workout_ref w;
	struct hq_err why;
	int found;

	ask->nids = 0;
	snprintf(buf, sizeof buf, "%s", list);
	for (p = strtok_r(buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		if (ask->nids == HQ_ATHLETE_MAX_IDS) {
			hq_err_set(e, "--ids: at most %d workouts", HQ_ATHLETE_MAX_IDS);
			return -1;
		}
		if ((found = hq_workout_find(s, p, &w, &why)) <= 0) {
			hq_err_set(e, "--ids %.64s: %s", list, why.msg);
			return found < 0 ? -1 : 1;
		}
		ask->ids[ask->nids++] = w.id;
	}
	if (ask->nids < 2) {
		hq_err_set(e, "--ids %.64s: compare takes two workouts or more",
		    list);
		return -1;
	}
	return 0;
}

/* The settings a row carries. */
struct settings {
	double max_hr, rest_hr, lthr;
	const char *basis;
};

/* The values used and their basis (hq_athlete_basis_of). */
static void
settings_of(const struct hq_athlete *a, struct settings *s)
{
	s->max_hr = a->max_hr;
	s->rest_hr = a->rest_hr;
	s->lthr = a->lthr;
	s->basis = hq_athlete_basis_of(a);
}

/* "max_hr 190 (store), rest_hr 52 (store), lthr 169 (default)" */
static void
settings_text(const struct hq_athlete *a, char *buf, size_t n)
{
	static const enum hq_athlete_key keys[] = { HQ_ATH_MAX_HR,
		HQ_ATH_REST_HR, HQ_ATH_LTHR };
	static const char *const names[] = { "max_hr", "rest_hr", "lthr" };
	const double v[] = { a->max_hr, a->rest_hr, a->lthr };
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < 3 && len < n; i++) {
		char num[32];
		const char *b = hq_athlete_basis_name(a->basis[keys[i]]);
		hq_format_short(v[i], num, sizeof num);
		len += (size_t)snprintf(buf + len, n - len, "%s%s %s (%s)",
		    i ? ", " : "", names[i], num, b ? b : "unknown");
	}
}

/* The range asked, or the DEFAULT_DAYS local days ending today: [from, to)
 * UTC, and its first and last local day. */
static void
range_of(const struct hq_athlete_ask *ask, int64_t now, int64_t *from,
    int64_t *to, int64_t *day0, int64_t *day1)
{
	hq_time_day_range(ask->from, ask->to, now, DEFAULT_DAYS - 1, day0, day1);
	*from = hq_time_day_start(*day0);
	*to = hq_time_day_start(*day1 + 1);
}

static const char *
types_said(const struct hq_athlete_ask *ask)
{
	return ask->ntypes ? ask->type_text : "any type";
}

/* ---- load ----------------------------------------------------------------- */

struct load_row {
	int64_t day;
	long workouts, workouts_no_hr;
	double load, ctl, atl, tsb, ramp;
	struct settings st;
	int planned;
};

#define LOAD(k, t, f) HQ_COL_AT(k, t, struct load_row, f)
/* A day's figures, in both tables below. */
#define LOAD_FIGURES \
	{ LOAD("workouts", HQ_COL_LONG, workouts) }, \
	{ LOAD("workouts_no_hr", HQ_COL_LONG, workouts_no_hr), .in = D }, \
	{ LOAD("no_hr", HQ_COL_LONG, workouts_no_hr), .in = T }, \
	{ LOAD("load", HQ_COL_NUM, load), .in = D }, \
	{ LOAD("load", HQ_COL_SENSE, load), .konst = "", .in = T, .fit = R }, \
	{ LOAD("ctl", HQ_COL_NUM, ctl), .in = D }, \
	{ LOAD("fitness", HQ_COL_SENSE, ctl), .konst = "", .in = T, .fit = R }, \
	{ LOAD("atl", HQ_COL_NUM, atl), .in = D }, \
	{ LOAD("fatigue", HQ_COL_SENSE, atl), .konst = "", .in = T, .fit = R }, \
	{ LOAD("tsb", HQ_COL_NUM, tsb), .in = D }, \
	{ LOAD("form", HQ_COL_CHANGE, tsb), .konst = "", .in = T, .fit = R }, \
	{ LOAD("ramp", HQ_COL_NUM, ramp), .in = D }, \
	{ LOAD("ramp", HQ_COL_CHANGE, ramp), .konst = "", .in = T, .fit = R }, \
	{ LOAD("max_hr", HQ_COL_NUM, st.max_hr), .in = D }, \
	{ LOAD("rest_hr", HQ_COL_NUM, st.rest_hr), .in = D }, \
	{ LOAD("lthr", HQ_COL_NUM, st.lthr), .in = D }, \
	{ LOAD("basis", HQ_COL_STR, st.basis), .in = D },
static const struct hq_col load_cols[] = {
	{ LOAD("date", HQ_COL_DAY, day) },
	LOAD_FIGURES
	{ .key = NULL },
};
/* The same with the days ahead (--to past today): planned. */
static const struct hq_col load_plan_cols[] = {
	{ LOAD("date", HQ_COL_DAY, day) },
	{ LOAD("planned", HQ_COL_BOOL, planned), .in = D },
	LOAD_FIGURES
	{ LOAD("planned", HQ_COL_BOOL, planned), .in = T },
	{ .key = NULL },
};

/* The days after the series' last through last, each the plan's load of
 * the types asked (0 without one), planned; from the first planned day
 * after after when the series is empty. Then ctl, atl, tsb and ramp again
 * over the whole series: the recurrence from its first day, so the days
 * before are what they were. 0, or -1 with e. */
static int
plan_ahead(struct hq_store *s, const struct hq_athlete_ask *ask,
    int64_t after, int64_t last, struct hq_athlete_day **d, size_t *n,
    struct hq_err *e)
{
	struct hq_plan_day *p;
	size_t np, k = 0, m;
	int64_t first;

	if (hq_plan_get(s, after + 1, last, &p, &np, e))
		return -1;
	if (*n)
		first = (*d)[*n - 1].day + 1;
	else if (np)
		first = p[0].day;
	else
		first = last + 1;
	if (first <= last) {
		m = *n + (size_t)(last - first + 1);
		*d = hq_xrealloc(*d, m * sizeof **d);
		for (int64_t day = first; day <= last; day++) {
			struct hq_athlete_day *x = &(*d)[(*n)++];
			memset(x, 0, sizeof *x);
			x->day = day;
			x->planned = 1;
			for (; k < np && p[k].day < day; k++)
				;
			if (k < np && p[k].day == day) {
				int want = ask->ntypes == 0;
				for (size_t t = 0; t < ask->ntypes; t++)
					want |= strcmp(ask->types[t], p[k].type) == 0;
				x->load = want ? p[k].load : 0;
			}
		}
		hq_athlete_pmc(*d, *n);
	}
	free(p);
	return 0;
}

int
hq_athlete_load_out(struct hq_store *s, const struct hq_athlete_ask *ask,
    int64_t now, FILE *svg, struct hq_out *o, struct hq_err *e)
{
	struct hq_athlete_day *d;
	size_t n, i0, i1;
	int64_t from, to, day0, day1;
	struct settings st;
	struct hq_horizon h;
	char head[120], set[200], why[120];
	int64_t ahead;

	range_of(ask, now, &from, &to, &day0, &day1);
	/* No row past the newest data or today (a plan's rows would come
	 * after it, marked so). */
	if (hq_horizon_read(s, now, &h, e))
		return -1;
	/* Past the data onto days of a plan: the days after the data go on
	 * with the plan (without one, the rows end with the data, as ever). */
	ahead = 0;
	if (day1 > h.last) {
		struct hq_plan_day *p;
		size_t np;
		if (hq_plan_get(s, h.last + 1, day1, &p, &np, e))
			return -1;
		ahead = np ? day1 : 0;
		free(p);
	}
	if (day0 > h.last && !ahead) {
		hq_horizon_after(&h, day0, why, sizeof why);
		hq_err_set(e, "no training load to show: %s", why);
		return 1;
	}
	if (day1 > h.last)
		day1 = h.last;
	if (hq_athlete_days(s, &ask->ath, ask->types, ask->ntypes, day1, &d, &n,
	    e))
		return -1;
	if (ahead && plan_ahead(s, ask, h.last, ahead, &d, &n, e)) {
		free(d);
		return -1;
	}
	if (ahead)
		day1 = ahead;
	if (!n) {
		hq_err_set(e, "no workouts of %s in the store", types_said(ask));
		return 1;
	}
	/* The days shown: those of the range the series has. */
	for (i0 = 0; i0 < n && d[i0].day < day0; i0++)
		;
	for (i1 = i0; i1 < n && d[i1].day <= day1; i1++)
		;
	if (i0 == i1) {
		char a[16], b[16];
		hq_time_format_day(day0, a, sizeof a);
		hq_time_format_day(day1, b, sizeof b);
		hq_err_set(e, "no workouts of %s from %s to %s: the first is "
		    "later", types_said(ask), a, b);
		free(d);
		return 1;
	}
	if (svg) {
		int rc = hq_athlete_load_svg(svg, &ask->ath, d + i0, i1 - i0,
		    ask->ntypes ? ask->type_text : NULL);
		free(d);
		if (rc)
			hq_err_set(e, "writing the chart failed");
		return rc ? -1 : 0;
	}
	settings_of(&ask->ath, &st);
	settings_text(&ask->ath, set, sizeof set);
	snprintf(head, sizeof head, "Training load of %.60s", types_said(ask));
	hq_out_heading(o, head);
	hq_out_heading(o, set);
	hq_out_footnote(o, "fitness: ctl (42 days), fatigue: atl (7 days), "
	    "form: tsb (the day before's");
	hq_out_footnote(o, "fitness - fatigue); ramp: fitness - fitness 7 days "
	    "before");
	hq_out_fit_cols(o, ahead ? load_plan_cols : load_cols);
	for (size_t i = i0; i < i1; i++) {
		struct load_row r = { d[i].day, d[i].workouts, d[i].workouts_no_hr,
			d[i].load, d[i].ctl, d[i].atl, d[i].tsb, d[i].ramp, st,
			d[i].planned };
		hq_out_row(o, ahead ? load_plan_cols : load_cols, &r);
	}
	if (ahead && d[i1 - 1].day == ahead) {
		char day[16], line[64];
		double form = nearbyint(d[i1 - 1].tsb);
		hq_time_format_day(ahead, day, sizeof day);
		snprintf(line, sizeof line, "form on %s: %+.0f%s", day,
		    form == 0 ? 0.0 : form, d[i1 - 1].planned ? " (planned)" : "");
		hq_out_footnote(o, "");
		hq_out_footnote(o, line);
	}
	free(d);
	return 0;
}

/* ---- zones ---------------------------------------------------------------- */

struct zones_row {
	long zone;
	double lo, hi, minutes, pct;
	struct settings st;
};

/* The minutes in a zone as h:mm:ss. */
static int
zone_time(const void *row, char *buf, size_t n)
{
	hq_sense_clock(((const struct zones_row *)row)->minutes * 60, buf, n);
	return 0;
}

#define ZONE(k, t, f) HQ_COL_AT(k, t, struct zones_row, f)
static const struct hq_col zones_cols[] = {
	{ ZONE("zone", HQ_COL_LONG, zone) },
	{ ZONE("lo_bpm", HQ_COL_NUM, lo), .in = D },
	{ ZONE("lo_bpm", HQ_COL_SENSE, lo), .konst = "bpm", .in = T, .fit = R },
	{ ZONE("hi_bpm", HQ_COL_NUM, hi), .in = D },
	{ ZONE("hi_bpm", HQ_COL_SENSE, hi), .konst = "bpm", .in = T, .fit = R },
	{ ZONE("minutes", HQ_COL_NUM, minutes), .in = D },
	{ HQ_COL_FN("time", zone_time), .in = T, .fit = R },
	{ ZONE("pct", HQ_COL_NUM, pct), .in = D },
	{ ZONE("pct", HQ_COL_SENSE, pct), .konst = "%", .in = T, .fit = R },
	{ ZONE("max_hr", HQ_COL_NUM, st.max_hr), .in = D },
	{ ZONE("rest_hr", HQ_COL_NUM, st.rest_hr), .in = D },
	{ ZONE("lthr", HQ_COL_NUM, st.lthr), .in = D },
	{ ZONE("basis", HQ_COL_STR, st.basis), .in = D },
	{ .key = NULL },
};

struct zone_sum {
	double z[6];
	long workouts, with_hr;
};

static int
add_zones(void *arg, const struct hq_athlete_workout *w,
    const struct hq_athlete_figures *f)
{
	struct zone_sum *z = arg;

	(void)w;
	z->workouts++;
	if (isnan(f->z_min[0]))
		return 0;
	z->with_hr++;
	for (int i = 0; i < 6; i++)
		z->z[i] += f->z_min[i];
	return 0;
}

/* Workout id read and figured, or -1 with e when it is not there. */
static int
read_one(struct hq_store *s, const struct hq_athlete *a, int64_t id,
    hq_athlete_fn *fn, void *arg, struct hq_err *e)
{
	struct hq_athlete_workout w;
	struct hq_athlete_figures f;
	int got = hq_athlete_read(s, id, &w, e);

	if (got < 0)
		return -1;
	if (got == 0) {
		hq_err_set(e, "no workout %lld in the store (hq-query workouts "
		    "lists them)", (long long)id);
		return -1;
	}
	hq_athlete_figures(a, &w, &f);
	got = fn(arg, &w, &f);
	hq_athlete_workout_free(&w);
	return got;
}

int
hq_athlete_zones_out(struct hq_store *s, const struct hq_athlete_ask *ask,
    int64_t now, struct hq_out *o, struct hq_err *e)
{
	struct zone_sum z = { { 0 }, 0, 0 };
	double lo[6], total = 0;
	struct settings st;
	char head[300], set[200], what[120];

	if (ask->id) {
		if (read_one(s, &ask->ath, ask->id, add_zones, &z, e))
			return -1;
		snprintf(what, sizeof what, "workout %lld", (long long)ask->id);
	} else {
		int64_t from, to, d0, d1;
		char a[16], b[16];
		range_of(ask, now, &from, &to, &d0, &d1);
		if (hq_athlete_each(s, &ask->ath, ask->types, ask->ntypes, from, to,
		    HQ_ATHLETE_LOAD_ONLY, add_zones, &z, e) < 0)
			return -1;
		hq_time_format_day(d0, a, sizeof a);
		hq_time_format_day(d1, b, sizeof b);
		snprintf(what, sizeof what, "workouts of %.60s from %s to %s",
		    types_said(ask), a, b);
	}
	if (!z.with_hr) {
		hq_err_set(e, "%s: %s", what, !z.workouts ? "none in the store" :
		    ask->id ? "no heart rate recorded during it" :
		    "no heart rate recorded during them");
		return 1;
	}
	hq_athlete_zone_edges(&ask->ath, lo);
	for (int i = 0; i < 6; i++)
		total += z.z[i];
	settings_of(&ask->ath, &st);
	settings_text(&ask->ath, set, sizeof set);
	snprintf(head, sizeof head, "Time in heart-rate zones, %s", what);
	hq_out_heading(o, head);
	snprintf(head, sizeof head, "%ld workout%s with heart rate", z.with_hr,
	    z.with_hr == 1 ? "" : "s");
	hq_out_heading(o, head);
	hq_out_heading(o, set);
	hq_out_fit_cols(o, zones_cols);
	for (int i = 0; i < 6; i++) {
		struct zones_row r = { i, lo[i], i < 5 ? lo[i + 1] : NAN, z.z[i],
			total > 0 ? 100 * z.z[i] / total : NAN, st };
		hq_out_row(o, zones_cols, &r);
	}
	return 0;
}

/* ---- bests ---------------------------------------------------------------- */

static const double foot_km[] = { 0.4, 1, 1.609344, 5, 10, 21.0975, 42.195 };
static const char *const foot_names[] = { "400 m", "1 km", "1 mile", "5 km",
	"10 km", "half marathon", "marathon" };
static const double ride_km[] = { 5, 10, 20, 40, 100 };
static const char *const ride_names[] = { "5 km", "10 km", "20 km", "40 km",
	"100 km" };
static const int64_t power_s[] = { 5, 60, 300, 1200, 3600 };
static const char *const power_names[] = { "5 s", "1 min", "5 min",
	"20 min", "60 min" };
#define NPOWER (sizeof power_s / sizeof power_s[0])
#define MAX_TARGETS 7

struct best {
	int found;
	double value;           /* seconds, or watts */
	int64_t workout, start, offset;
};

struct bests {
	struct hq_store *s;
	const double *km;
	size_t nkm;
	struct best dist[MAX_TARGETS], power[NPOWER];
	struct hq_err *e;
	int failed;
};

/* Better: faster, or more watts; ties keep the earlier workout. */
static void
keep(struct best *b, double v, int lower, const struct hq_athlete_workout *w,
    int64_t t)
{
	if (b->found && (lower ? !(v < b->value) : !(v > b->value)))
		return;
	*b = (struct best){ 1, v, w->id, w->start, t - w->start };
}

static int
add_bests(void *arg, const struct hq_athlete_workout *w,
    const struct hq_athlete_figures *f)
{
	struct bests *x = arg;
	struct hq_route_pt *pt = NULL;
	size_t n = 0;
	double v;
	int64_t t;

	(void)f;
	/* One workout's route at a time: the memory is the longest route's. */
	if (hq_athlete_route(x->s, w->id, &pt, &n, x->e)) {
		x->failed = 1;
		return 1;
	}
	for (size_t i = 0; i < x->nkm && n > 1; i++)
		if (hq_athlete_best_distance(pt, n, w->start, w->end, w->pauses,
		    w->npauses, x->km[i] * 1000, &v, &t))
			keep(&x->dist[i], v, 1, w, t);
	free(pt);
	for (size_t i = 0; i < NPOWER && w->npower; i++)
		if (hq_athlete_best_power(w->power, w->npower, power_s[i], &v, &t))
			keep(&x->power[i], v, 0, w, t);
	return 0;
}

struct bests_row {
	const char *type, *target, *unit;
	double value;
	int64_t workout, start, offset;
};

/* A time as h:mm:ss or m:ss, watts as they are. */
static int
best_value(const void *row, char *buf, size_t n)
{
	const struct bests_row *r = row;

	if (strcmp(r->unit, "s") != 0)
		snprintf(buf, n, "%.0f W", r->value);
	else
		hq_sense_clock(r->value, buf, n);
	return 0;
}

#define BEST(k, t, f) HQ_COL_AT(k, t, struct bests_row, f)
static const struct hq_col bests_cols[] = {
	{ BEST("type", HQ_COL_STR, type) },
	{ BEST("target", HQ_COL_STR, target) },
	{ BEST("unit", HQ_COL_STR, unit), .in = D },
	{ BEST("value", HQ_COL_NUM, value), .in = D },
	{ HQ_COL_FN("best", best_value), .in = T, .fit = { .right = 1 } },
	{ BEST("workout_id", HQ_COL_INT64, workout), .in = D },
	{ BEST("workout", HQ_COL_INT64, workout), .in = T },
	{ BEST("date", HQ_COL_DATE, start) },
	{ BEST("offset_s", HQ_COL_INT64, offset) },
	{ .key = NULL },
};

int
hq_athlete_bests_out(struct hq_store *s, const struct hq_athlete_ask *ask,
    struct hq_out *o, struct hq_err *e)
{
	static const char *const all[] = { "running", "walking", "cycling" };
	long rows = 0;
	char head[300];

	snprintf(head, sizeof head, "Bests of %.60s", ask->ntypes ?
	    ask->type_text : "running, walking and cycling");
	hq_out_heading(o, head);
	hq_out_heading(o, "(the fastest stretch inside one workout; the best "
	    "mean power)");
	hq_out_fit_cols(o, bests_cols);
	for (size_t k = 0; k < (ask->ntypes ? ask->ntypes : 3); k++) {
		const char *id = ask->ntypes ? ask->types[k] :
		    hq_workout_type_identifier(all[k], NULL, 0);
		char name[64];
		int ride;
		struct bests x = { .s = s, .e = e };

		hq_workout_type_name(id, name, sizeof name);
		ride = strcmp(name, "cycling") == 0;
		x.km = ride ? ride_km : foot_km;
		x.nkm = ride ? sizeof ride_km / sizeof ride_km[0] :
		    sizeof foot_km / sizeof foot_km[0];
		if (hq_athlete_each(s, &ask->ath, &id, 1, ask->from, ask->to,
		    HQ_ATHLETE_LOAD_ONLY, add_bests, &x, e) < 0 || x.failed)
			return -1;
		for (size_t i = 0; i < x.nkm; i++) {
			struct bests_row r = { name, ride ? ride_names[i] :
				foot_names[i], "s", x.dist[i].value, x.dist[i].workout,
				x.dist[i].start, x.dist[i].offset };
			if (x.dist[i].found) {
				hq_out_row(o, bests_cols, &r);
				rows++;
			}
		}
		for (size_t i = 0; i < NPOWER; i++) {
			struct bests_row r = { name, power_names[i], "W",
				x.power[i].value, x.power[i].workout, x.power[i].start,
				x.power[i].offset };
			if (x.power[i].found) {
				hq_out_row(o, bests_cols, &r);
				rows++;
			}
		}
	}
	if (!rows) {
		char range[120];
		hq_time_range_text(ask->from, ask->to, range, sizeof range);
		hq_err_set(e, "no routes with times (nor power) in workouts of %s%s",
		    ask->ntypes ? ask->type_text : "running, walking or cycling",
		    range);
		return 1;
	}
	return 0;
}

/* ---- compare workouts ----------------------------------------------------- */

enum { F_DURATION, F_DISTANCE, F_SPEED, F_PACE, F_AVG_HR, F_MAX_HR, F_ENERGY,
	F_LOAD, F_GAIN, F_EFFICIENCY, NFIELDS };

static const char *const field_names[NFIELDS] = { "duration_min",
	"distance_km", "speed_kmh", "pace_min_per_km", "avg_hr", "max_hr",
	"energy_kcal", "load", "elevation_gain_m", "efficiency" };
static const char *const field_units[NFIELDS] = { "min", "km", "km/h",
	"min/km", "bpm", "bpm", "kcal", "", "m", "m/beat" };
/* On a terminal: the field and its unit in one short label, so that six
 * workouts fit 80 columns. */
static const char *const field_labels[NFIELDS] = { "time", "distance km",
	"speed km/h", "pace /km", "avg HR bpm", "max HR bpm", "energy kcal",
	"load", "climb m", "m per beat" };

struct compared {
	int64_t id, start;
	char type[64];
	double v[NFIELDS];
};

struct compare {
	struct hq_store *s;
	sqlite3_stmt *energy;
	struct compared *w;
	size_t n;
	struct hq_err *e;
	int failed;
};

static int
add_compared(void *arg, const struct hq_athlete_workout *w,
    const struct hq_athlete_figures *f)
{
	struct compare *c = arg;
	struct compared *x = &c->w[c->n++];
	double km = w->distance_m / 1000, energy = NAN;
	int foot;
	int rc;

	x->id = w->id;
	x->start = w->start;
	hq_workout_type_name(w->type, x->type, sizeof x->type);
	foot = strcmp(x->type, "running") == 0 || strcmp(x->type, "walking") == 0;
	sqlite3_reset(c->energy);
	sqlite3_bind_int64(c->energy, 1, w->id);
	if ((rc = sqlite3_step(c->energy)) == SQLITE_ROW &&
	    sqlite3_column_type(c->energy, 0) != SQLITE_NULL)
		energy = sqlite3_column_double(c->energy, 0);
	else if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		hq_err_set(c->e, "%s: reading a workout's energy: %s",
		    hq_store_filename(c->s), sqlite3_errmsg(hq_store_db(c->s)));
		c->failed = 1;
		return 1;
	}
	x->v[F_DURATION] = f->moving_min;
	x->v[F_DISTANCE] = km;
	x->v[F_SPEED] = f->moving_min > 0 ? km / (f->moving_min / 60) : NAN;
	x->v[F_PACE] = foot && km > 0 ? f->moving_min / km : NAN;
	x->v[F_AVG_HR] = f->avg_hr;
	x->v[F_MAX_HR] = f->max_hr;
	x->v[F_ENERGY] = energy;
	x->v[F_LOAD] = f->load;
	x->v[F_GAIN] = f->elevation_gain_m;
	x->v[F_EFFICIENCY] = f->avg_hr > 0 && f->moving_min > 0 ?
	    w->distance_m / (f->avg_hr * f->moving_min) : NAN;
	return 0;
}

struct compare_row {
	const char *field, *unit;
	int64_t workout, start;
	double value, change;
};

#define CMP(k, t, f) HQ_COL_AT(k, t, struct compare_row, f)
static const struct hq_col compare_cols[] = {
	{ CMP("field", HQ_COL_STR, field) },
	{ CMP("unit", HQ_COL_STR0, unit) },
	{ CMP("workout_id", HQ_COL_INT64, workout) },
	{ CMP("date", HQ_COL_DATE, start) },
	{ CMP("value", HQ_COL_NUM, value) },
	{ CMP("change", HQ_COL_NUM, change) },
	{ .key = NULL },
};

/* The ids of the last n workouts of the types, newest first, into ids. */
static long
last_ids(struct hq_store *s, const struct hq_athlete_ask *ask, long n,
    int64_t *ids, struct hq_err *e)
{
	struct hq_buf b = { 0 };
	sqlite3_stmt *q;
	long k = 0;
	int rc, i = 1;

	hq_buf_puts(&b, "SELECT id FROM workout WHERE 1");
	if (hq_workout_has_same(s))
		hq_buf_puts(&b, " AND id NOT IN (SELECT workout_id FROM"
		    " workout_same)");
	if (ask->ntypes) {
		hq_buf_puts(&b, " AND activity_type IN (");
		for (size_t t = 0; t < ask->ntypes; t++)
			hq_buf_puts(&b, t ? ",?" : "?");
		hq_buf_puts(&b, ")");
	}
	hq_buf_puts(&b, " AND start >= ? AND start < ? ORDER BY start DESC,"
	    " id DESC LIMIT ?");
	rc = hq_store_prepare(s, b.data, &q, e);
	hq_buf_free(&b);
	if (rc)
		return -1;
	for (size_t t = 0; t < ask->ntypes; t++)
		sqlite3_bind_text(q, i++, ask->types[t], -1, SQLITE_STATIC);
	sqlite3_bind_int64(q, i++, ask->from);
	sqlite3_bind_int64(q, i++, ask->to);
	sqlite3_bind_int64(q, i++, n);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW && k < n)
		ids[k++] = sqlite3_column_int64(q, 0);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		hq_err_set(e, "%s: finding the last workouts: %s",
		    hq_store_filename(s), sqlite3_errmsg(hq_store_db(s)));
		k = -1;
	}
	sqlite3_finalize(q);
	return k;
}

static int
by_start(const void *a, const void *b)
{
	const struct compared *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* Whether any of the workouts has field f. */
static int
has_field(const struct compared *w, size_t n, int f)
{
	for (size_t k = 0; k < n; k++)
		if (!isnan(w[k].v[f]))
			return 1;
	return 0;
}

/* On a terminal: a row per field, a column per workout ("11-20 #12"),
 * each figure to its sense (a time as h:mm:ss, a pace as m:ss). */
static void
compare_table(struct hq_out *o, const struct compared *w, size_t n)
{
	char key[HQ_ATHLETE_MAX_IDS][48], line[200];

	for (size_t k = 0; k < n; k++) {
		char date[40];
		hq_time_format_date(w[k].start, date, sizeof date);
		snprintf(key[k], sizeof key[k], "%s #%lld", date + 5,
		    (long long)w[k].id);
		hq_time_format_local(w[k].start, date, sizeof date);
		snprintf(line, sizeof line, "#%lld  %.10s %.5s  %s",
		    (long long)w[k].id, date, date + 11, w[k].type);
		hq_out_heading(o, line);
	}
	for (int f = 0; f < NFIELDS; f++) {
		if (!has_field(w, n, f))
			continue;
		hq_out_begin(o);
		hq_out_str(o, "field", field_labels[f]);
		for (size_t k = 0; k < n; k++) {
			char v[32];
			if (f == F_DURATION)
				hq_sense_clock(w[k].v[f] * 60, v, sizeof v);
			else if (f == F_PACE)
				hq_sense_pace(w[k].v[f], v, sizeof v);
			else
				hq_sense_value(w[k].v[f], field_units[f], 0, v, sizeof v);
			hq_out_str(o, key[k], v);
			hq_out_fit(o, key[k], (struct hq_out_fit){ .right = 1 });
		}
		hq_out_end(o);
	}
}

int
hq_athlete_compare_out(struct hq_store *s, const struct hq_athlete_ask *ask,
    struct hq_out *o, struct hq_err *e)
{
	struct compared w[HQ_ATHLETE_MAX_IDS];
	struct compare c = { .s = s, .w = w, .e = e };
	int64_t ids[HQ_ATHLETE_MAX_IDS];
	long n;
	int rc = 0;

	if (ask->nids) {
		memcpy(ids, ask->ids, ask->nids * sizeof ids[0]);
		n = (long)ask->nids;
	} else if ((n = last_ids(s, ask, ask->last, ids, e)) < 0)
		return -1;
	if (n < 2) {
		hq_err_set(e, "%s workout%s of %s to compare", n ? "only one" :
		    "no", n ? "" : "s", types_said(ask));
		return 1;
	}
	if (hq_store_prepare(s, "SELECT coalesce(energy, (SELECT f.energy FROM"
	    " workout f WHERE f.id = " HQ_WORKOUT_FILLED("energy", "?1") "))"
	    " FROM workout WHERE id = ?1", &c.energy, e))
		return -1;
	for (long k = 0; k < n && !rc; k++) {
		if (read_one(s, &ask->ath, ids[k], add_compared, &c, e) ||
		    c.failed)
			rc = -1;
	}
	sqlite3_finalize(c.energy);
	if (rc)
		return -1;
	qsort(w, c.n, sizeof w[0], by_start);
	if (hq_out_format(o) == HQ_FMT_TABLE) {
		compare_table(o, w, c.n);
		return 0;
	}
	for (int f = 0; f < NFIELDS; f++)
		for (size_t k = 0; k < c.n && has_field(w, c.n, f); k++) {
			struct compare_row r = { field_names[f], field_units[f],
				w[k].id, w[k].start, w[k].v[f],
				k ? w[k].v[f] - w[k - 1].v[f] : NAN };
			hq_out_row(o, compare_cols, &r);
		}
	return 0;
}
