/* hq-query workout ID --splits: a workout's route split every DIST
 * (athlete_rows.h; the rule is hq_athlete_splits', athlete_bests.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/athlete_bests.h"
#include "hq/athlete_rows.h"
#include "hq/opts.h"
#include "hq/rowdesc.h"
#include "hq/sense.h"

#define MILE_M 1609.344
#define MAX_SPLIT_M 1e6

int
hq_athlete_split_unit(const char *text, double *metres, struct hq_err *e)
{
	static const struct { const char *unit; double m; } units[] = {
		{ "", 1000 }, { "km", 1000 }, { "mi", MILE_M }, { "m", 1 },
	};
	const char *end;
	double v;

	if (hq_opts_scan_quantity(text, &end, &v)) {
		hq_err_set(e, "--splits '%.64s': expected a distance: 1 (km), 2km, "
		    "1mi, 400m", text);
		return -1;
	}
	while (*end == ' ')
		end++;
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (strcmp(end, units[i].unit) == 0) {
			*metres = v * units[i].m;
			if (!(*metres > 0)) {
				hq_err_set(e, "--splits '%.64s': a split must be longer "
				    "than 0", text);
				return -1;
			}
			if (*metres > MAX_SPLIT_M) {
				hq_err_set(e, "--splits '%.64s': at most 1000 km", text);
				return -1;
			}
			return 0;
		}
	hq_err_set(e, "--splits '%.64s': unknown unit '%.16s' (km, mi or m)",
	    text, end);
	return -1;
}

/* A split as a table shows it: in miles, with a pace per mile, when the
 * splits are miles (--splits 1mi), else in km. */
struct split_row {
	const struct hq_athlete_split *sp;
	int miles;
};

static int
number_text(const void *row, char *buf, size_t n)
{
	snprintf(buf, n, "%ld", ((const struct split_row *)row)->sp->split);
	return 0;
}

static int
dist_text(const void *row, char *buf, size_t n)
{
	const struct split_row *r = row;

	hq_sense_value(r->miles ? r->sp->km * 1000 / MILE_M : r->sp->km,
	    r->miles ? "mi" : "km", 0, buf, n);
	return 0;
}

static int
time_text(const void *row, char *buf, size_t n)
{
	hq_sense_clock(((const struct split_row *)row)->sp->seconds, buf, n);
	return 0;
}

static int
pace_text(const void *row, char *buf, size_t n)
{
	const struct split_row *r = row;
	double pace = r->sp->pace_min_per_km;

	if (isnan(pace))
		return -1;
	hq_sense_pace(r->miles ? pace * MILE_M / 1000 : pace, buf, n);
	snprintf(buf + strlen(buf), n - strlen(buf), "/%s", r->miles ? "mi" : "km");
	return 0;
}

static int
speed_text(const void *row, char *buf, size_t n)
{
	const struct split_row *r = row;
	double v = r->sp->speed_kmh;

	if (isnan(v))
		return -1;
	hq_sense_value(r->miles ? v * 1000 / MILE_M : v, r->miles ? "mph" :
	    "km/h", HQ_SENSE_UNIT, buf, n);
	return 0;
}

static int
hr_text(const void *row, char *buf, size_t n)
{
	double v = ((const struct split_row *)row)->sp->avg_hr;

	if (isnan(v))
		return -1;
	hq_sense_value(v, "bpm", 0, buf, n);
	return 0;
}

static int
gain_text(const void *row, char *buf, size_t n)
{
	double v = ((const struct split_row *)row)->sp->gain_m;

	if (isnan(v))
		return -1;
	hq_sense_value(v, "m", 0, buf, n);
	return 0;
}

/* The rows for scripts: every digit, in km whatever the split. */
#define SP(k, t, f) HQ_COL_AT(k, t, struct hq_athlete_split, f)
static const struct hq_col split_cols[] = {
	{ SP("split", HQ_COL_LONG, split) },
	{ SP("km", HQ_COL_NUM, km) },
	{ SP("seconds", HQ_COL_NUM, seconds) },
	{ SP("pace_min_per_km", HQ_COL_NUM, pace_min_per_km) },
	{ SP("speed_kmh", HQ_COL_NUM, speed_kmh) },
	{ SP("avg_hr", HQ_COL_NUM, avg_hr) },
	{ SP("gain_m", HQ_COL_NUM, gain_m) },
	{ .key = NULL },
};

/* The table for people; its second column's key is "mi" for miles. */
#define R { .right = 1 }
#define NTABLE 8
static const struct hq_col table_cols[NTABLE] = {
	{ HQ_COL_FN("split", number_text), .fit = R },
	{ HQ_COL_FN("km", dist_text), .fit = R },
	{ HQ_COL_FN("time", time_text), .fit = R },
	{ HQ_COL_FN("pace", pace_text), .fit = R },
	{ HQ_COL_FN("speed", speed_text), .fit = R },
	{ HQ_COL_FN("avg_hr", hr_text), .fit = R },
	{ HQ_COL_FN("gain_m", gain_text), .fit = R },
	{ .key = NULL },
};

long
hq_athlete_splits_write(struct hq_store *s, int64_t id, double unit_m,
    struct hq_out *out, struct hq_err *e)
{
	struct hq_athlete_workout w;
	struct hq_athlete_split *sp = NULL;
	struct hq_route_pt *pt = NULL;
	size_t n = 0;
	long ns;
	int rc = hq_athlete_read(s, id, &w, e);

	if (rc <= 0)
		return rc;
	if (hq_athlete_route(s, id, &pt, &n, e)) {
		hq_athlete_workout_free(&w);
		return -1;
	}
	ns = n ? hq_athlete_splits(pt, n, &w, unit_m, &sp, e) : 0;
	if (ns > 0 && hq_out_format(out) == HQ_FMT_TABLE) {
		/* miles when the split is a whole number of them, not of km */
		double mi = unit_m / MILE_M, km = unit_m / 1000;
		struct split_row r = { NULL, fabs(mi - round(mi)) < 1e-9 &&
		    fabs(km - round(km)) > 1e-9 };
		struct hq_col cols[NTABLE];
		memcpy(cols, table_cols, sizeof cols);
		if (r.miles)
			cols[1].key = "mi";
		hq_out_fit_cols(out, cols);
		for (long i = 0; i < ns; i++) {
			r.sp = &sp[i];
			hq_out_row(out, cols, &r);
		}
	} else if (ns > 0) {
		for (long i = 0; i < ns; i++)
			hq_out_row(out, split_cols, &sp[i]);
	}
	free(sp);
	free(pt);
	hq_athlete_workout_free(&w);
	return ns;
}
