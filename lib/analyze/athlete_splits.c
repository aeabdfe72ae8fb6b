/* hq-query workout ID --splits: a workout's route split every DIST
 * (athlete_rows.h; the rule is hq_athlete_splits', athlete.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hq/athlete.h"
#include "hq/athlete_rows.h"
#include "hq/opts.h"
#include "hq/rowdesc.h"

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

#define SP(k, t, f) HQ_COL_AT(k, t, struct hq_athlete_split, f)
static const struct hq_col split_cols[] = {
	{ SP("split", HQ_COL_LONG, split) },
	{ SP("km", HQ_COL_NUM, km), .in = HQ_COL_DATA },
	{ SP("km", HQ_COL_SHORT, km), .in = HQ_COL_TABLE },
	{ SP("seconds", HQ_COL_NUM, seconds) },
	{ SP("pace_min_per_km", HQ_COL_NUM, pace_min_per_km), .in = HQ_COL_DATA },
	{ SP("pace_min_per_km", HQ_COL_SHORT, pace_min_per_km), .in = HQ_COL_TABLE },
	{ SP("speed_kmh", HQ_COL_NUM, speed_kmh), .in = HQ_COL_DATA },
	{ SP("speed_kmh", HQ_COL_SHORT, speed_kmh), .in = HQ_COL_TABLE },
	{ SP("avg_hr", HQ_COL_NUM, avg_hr), .in = HQ_COL_DATA },
	{ SP("avg_hr", HQ_COL_SHORT, avg_hr), .in = HQ_COL_TABLE },
	{ SP("gain_m", HQ_COL_NUM, gain_m), .in = HQ_COL_DATA },
	{ SP("gain_m", HQ_COL_SHORT, gain_m), .in = HQ_COL_TABLE },
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
	if (ns > 0) {
		hq_out_fit_cols(out, split_cols);
		for (long i = 0; i < ns; i++)
			hq_out_row(out, split_cols, &sp[i]);
	}
	free(sp);
	free(pt);
	hq_athlete_workout_free(&w);
	return ns;
}
