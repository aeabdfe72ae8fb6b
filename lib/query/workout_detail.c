/*
 * workout_detail — the parts of one workout's record that are read apart
 * from its row (hq_workout_detail_more in workout.c): its events (pauses,
 * laps), the metadata people ask about, its route's summary; the kinds
 * of events, the great-circle distance of its route. Shared with
 * workout.c through query_int.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/geo.h"
#include "hq/query_int.h"
#include "hq/store.h"
#include "hq/workout.h"

static int
ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lf = strlen(suffix);

	return ls >= lf && strcmp(s + ls - lf, suffix) == 0;
}

enum hq_workout_event_kind
hq_workout_event_kind(const char *type)
{
	if (ends_with(type, "Pause") || ends_with(type, "MotionPaused"))
		return HQ_EVENT_PAUSE;
	if (ends_with(type, "Resume") || ends_with(type, "MotionResumed"))
		return HQ_EVENT_RESUME;
	if (ends_with(type, "Lap"))
		return HQ_EVENT_LAP;
	if (ends_with(type, "Segment"))
		return HQ_EVENT_SEGMENT;
	if (ends_with(type, "Marker"))
		return HQ_EVENT_MARKER;
	return HQ_EVENT_OTHER;
}

/* Events: counts by kind and the time spent paused (Pause → Resume, and
 * the Watch's automatic MotionPaused → MotionResumed). Workout-level
 * events are used when there are any, else those of the activities. */
int
hq_workout_out_events(struct hq_store *s, int64_t id, int64_t end,
    struct hq_out *out, struct hq_err *e)
{
	sqlite3_stmt *q;
	long pauses = 0, laps = 0, segments = 0, markers = 0, total = 0;
	int64_t paused_since = 0, paused = 0;
	int in_pause = 0, level = -1, rc;

	if (hq_store_prepare(s,
	    "SELECT type, date, activity_uuid IS NULL FROM workout_event"
	    " WHERE workout_id = ? ORDER BY activity_uuid IS NOT NULL, date",
	    &q, e) != 0)
		return -1;
	sqlite3_bind_int64(q, 1, id);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *type = hq_workout_col_text(q, 0);
		int64_t date = sqlite3_column_int64(q, 1);
		int top = sqlite3_column_int(q, 2);

		if (level < 0)
			level = top;
		if (top != level)
			break;
		total++;
		switch (hq_workout_event_kind(type)) {
		case HQ_EVENT_PAUSE:
			pauses++;
			if (!in_pause) {
				in_pause = 1;
				paused_since = date;
			}
			break;
		case HQ_EVENT_RESUME:
			if (in_pause) {
				paused += date - paused_since;
				in_pause = 0;
			}
			break;
		case HQ_EVENT_LAP:
			laps++;
			break;
		case HQ_EVENT_SEGMENT:
			segments++;
			break;
		case HQ_EVENT_MARKER:
			markers++;
			break;
		case HQ_EVENT_OTHER:
			break;
		}
	}
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		hq_err_set(e, "reading workout events: %s", sqlite3_errmsg(hq_store_db(s)));
		sqlite3_finalize(q);
		return -1;
	}
	sqlite3_finalize(q);
	if (in_pause && end > paused_since)
		paused += end - paused_since;
	hq_out_int(out, "events", total);
	hq_out_int(out, "pauses", pauses);
	hq_out_num(out, "paused_min", hq_workout_round((double)paused / 60, 2));
	hq_out_int(out, "laps", laps);
	hq_out_int(out, "segments", segments);
	hq_out_int(out, "markers", markers);
	return 0;
}

/* "217 cm" → 217 and "cm"; -1 when there is no number. */
static int
parse_quantity(const char *s, double *v, char *unit, size_t n)
{
	char *end;

	*v = strtod(s, &end);
	if (end == s || !isfinite(*v))
		return -1;
	while (*end == ' ')
		end++;
	snprintf(unit, n, "%s", end);
	return 0;
}

/* The metadata people ask about, in plain units. Keys can repeat in an
 * export (jshrake's has HKIndoorWorkout twice); the first one counts. */
int
hq_workout_out_metadata(struct hq_store *s, int64_t id, int64_t ascent_from,
    struct hq_out *out, struct hq_err *e)
{
	enum { TZ, INDOOR, ELEVATION, TEMP, HUMIDITY, METS, SUB, VIRTUAL,
	    PARTIAL, NKEYS };
	static const char *const keys[NKEYS] = {
		"HKTimeZone", "HKIndoorWorkout", "HKElevationAscended",
		"HKWeatherTemperature", "HKWeatherHumidity", "HKAverageMETs",
		"HQSubSport", "HQVirtualRoute", "HQPartial",
	};
	char *val[NKEYS] = { 0 };
	sqlite3_stmt *q;
	int rc, status = 0;
	double v;
	char unit[64];

	if (hq_store_prepare(s,
	    "SELECT key, value FROM workout_meta WHERE workout_id = ?"
	    " AND activity_uuid IS NULL ORDER BY rowid", &q, e) != 0)
		return -1;
	sqlite3_bind_int64(q, 1, id);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW)
		for (int k = 0; k < NKEYS; k++)
			if (!val[k] && strcmp(hq_workout_col_text(q, 0), keys[k]) == 0)
				val[k] = hq_xstrdup(hq_workout_col_text(q, 1));
	/* The ascent of the recording it takes it from (filled_from). */
	if (rc == SQLITE_DONE && !val[ELEVATION] && ascent_from) {
		sqlite3_reset(q);
		sqlite3_bind_int64(q, 1, ascent_from);
		while ((rc = sqlite3_step(q)) == SQLITE_ROW)
			if (!val[ELEVATION] && strcmp(hq_workout_col_text(q, 0),
			    keys[ELEVATION]) == 0)
				val[ELEVATION] = hq_xstrdup(hq_workout_col_text(q, 1));
	}
	if (rc != SQLITE_DONE) {
		hq_err_set(e, "reading workout metadata: %s", sqlite3_errmsg(hq_store_db(s)));
		status = -1;
		goto done;
	}
	hq_out_str(out, "time_zone", val[TZ]);
	if (val[INDOOR])
		hq_out_bool(out, "indoor", strcmp(val[INDOOR], "1") == 0);
	else
		hq_out_null(out, "indoor");
	if (val[ELEVATION] && parse_quantity(val[ELEVATION], &v, unit, sizeof unit) == 0)
		hq_out_num(out, "elevation_ascended_m", hq_workout_round(hq_workout_convert(v, unit, "m"), 2));
	if (val[TEMP] && parse_quantity(val[TEMP], &v, unit, sizeof unit) == 0)
		hq_out_num(out, "temperature_c", hq_workout_round(hq_workout_convert(v, unit, "degC"), 1));
	if (val[HUMIDITY] && parse_quantity(val[HUMIDITY], &v, unit, sizeof unit) == 0)
		/* Some exports write humidity ×100 ("5700 %"). */
		hq_out_num(out, "humidity_pct", hq_workout_round(v > 100 ? v / 100 : v, 1));
	if (val[METS] && parse_quantity(val[METS], &v, unit, sizeof unit) == 0)
		hq_out_num(out, "average_mets", hq_workout_round(v, 2));
	/* Device files (activity.h): the sub-sport, a game's map. */
	hq_out_str(out, "sub_sport", val[SUB]);
	hq_out_bool(out, "virtual_route", val[VIRTUAL] &&
	    strcmp(val[VIRTUAL], "1") == 0);
	hq_out_bool(out, "partial", val[PARTIAL] &&
	    strcmp(val[PARTIAL], "1") == 0);
done:
	for (int k = 0; k < NKEYS; k++)
		free(val[k]);
	sqlite3_finalize(q);
	return status;
}

double
hq_workout_great_circle(double r, double lat1, double lon1, double lat2,
    double lon2)
{
	return hq_geo_distance(r, lat1, lon1, lat2, lon2);
}

double
hq_workout_haversine(double lat1, double lon1, double lat2, double lon2)
{
	return hq_workout_great_circle(6371008.8, lat1, lon1, lat2, lon2);
}

/* The route summary: distance is the sum of the great-circle steps within
 * each route; elevation gain the sum of the rises between points. */
int
hq_workout_out_route(struct hq_store *s, int64_t id, struct hq_out *out,
    struct hq_err *e)
{
	sqlite3_stmt *q;
	long n = 0;
	int64_t route = -1, tmin = 0, tmax = 0;
	double dist = 0, gain = 0, plat = 0, plon = 0, pele = NAN;
	double minlat = 0, maxlat = 0, minlon = 0, maxlon = 0;
	int rc, have_time = 0;

	if (hq_store_prepare(s,
	    /* ordered by columns it returns: athlete_load.c's Q_ELE */
	    "SELECT r.id, rp.time, rp.lat, rp.lon, rp.ele, rp.seq"
	    " FROM route r JOIN route_point rp ON rp.route_id = r.id"
	    " WHERE r.workout_id = " HQ_WORKOUT_FILLED("route", "?1")
	    " ORDER BY 1, 6", &q, e) != 0)
		return -1;
	sqlite3_bind_int64(q, 1, id);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		int64_t rid = sqlite3_column_int64(q, 0);
		double lat = sqlite3_column_double(q, 2);
		double lon = sqlite3_column_double(q, 3);
		double ele = hq_store_col_num(q, 4);

		if (sqlite3_column_type(q, 1) != SQLITE_NULL) {
			int64_t t = sqlite3_column_int64(q, 1);
			if (!have_time || t < tmin)
				tmin = t;
			if (!have_time || t > tmax)
				tmax = t;
			have_time = 1;
		}
		if (n == 0) {
			minlat = maxlat = lat;
			minlon = maxlon = lon;
		}
		minlat = lat < minlat ? lat : minlat;
		maxlat = lat > maxlat ? lat : maxlat;
		minlon = lon < minlon ? lon : minlon;
		maxlon = lon > maxlon ? lon : maxlon;
		if (rid == route) {
			dist += hq_workout_haversine(plat, plon, lat, lon);
			if (!isnan(ele) && !isnan(pele) && ele > pele)
				gain += ele - pele;
		}
		route = rid;
		plat = lat;
		plon = lon;
		if (!isnan(ele))
			pele = ele;
		n++;
	}
	if (rc != SQLITE_DONE) {
		hq_err_set(e, "reading the route: %s", sqlite3_errmsg(hq_store_db(s)));
		sqlite3_finalize(q);
		return -1;
	}
	sqlite3_finalize(q);
	if (n == 0)
		return 0;
	hq_out_int(out, "route_points", n);
	hq_out_num(out, "route_distance_km", hq_workout_round(dist / 1000, 3));
	hq_out_num(out, "route_elevation_gain_m", hq_workout_round(gain, 1));
	hq_out_num(out, "route_duration_min",
	    have_time ? hq_workout_round((double)(tmax - tmin) / 60, 2) : NAN);
	hq_out_num(out, "route_min_lat", minlat);
	hq_out_num(out, "route_min_lon", minlon);
	hq_out_num(out, "route_max_lat", maxlat);
	hq_out_num(out, "route_max_lon", maxlon);
	return 0;
}

