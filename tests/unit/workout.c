/* Unit tests for lib/query/workout.c: workouts of both export formats read back
 * in one shape, without double counting activity-level statistics; the
 * filters; events, metadata and the route summary against values worked
 * out by hand. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hq/catalog.h"
#include "hq/store.h"
#include "hq/time.h"
#include "hq/workout.h"
#include "fixture.h"
#include "tap.h"

static struct hq_store *s;
static struct hq_err e;

/* Run the list (or, with id > 0, the detail) into a JSON array. */
static cJSON *
run(const struct hq_workout_filter *f, int64_t id, long *ret)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	struct hq_out *o = hq_out_new(fp, HQ_FMT_JSON);

	*ret = id > 0 ? hq_workout_detail(s, id, o, &e) : hq_workout_list(s, f, o, &e);
	hq_out_free(o);
	fclose(fp);
	cJSON *j = cJSON_Parse(text);
	free(text);
	return j;
}

static double
num(const cJSON *row, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, key);

	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static const char *
str(const cJSON *row, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int
is_null(const cJSON *row, const char *key)
{
	return cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(row, key));
}

/* Ids of the rows a filter returns, as "1,3". */
static void
ids(const struct hq_workout_filter *f, char *buf, size_t n, long *ret)
{
	cJSON *j = run(f, 0, ret), *row;
	size_t o = 0;

	buf[0] = '\0';
	cJSON_ArrayForEach(row, j) {
		o += (size_t)snprintf(buf + o, n - o, "%s%d", o ? "," : "",
		    (int)num(row, "id"));
		if (o >= n)
			break;
	}
	cJSON_Delete(j);
}

/*
 * 1: old format, running, totals as attributes (5 km, 350 kcal, 30 min),
 *    no HR statistic but three heart-rate samples inside it (140, 150,
 *    160) and one after it (200); a three-point route.
 * 2: new format, walking, workout-level statistics repeated by two
 *    activities (which must not be added on top, nor win: their distance
 *    and average HR differ a little, as rounding makes them), pauses,
 *    metadata.
 * 3: new format, cycling, statistics only at activity level (summed, or
 *    averaged weighted by duration).
 * 4: swimming, 1500 m in the swimming metric's own unit (m), 20 minutes.
 */
static void
fill(void)
{
	fixture_sql(s, "INSERT INTO source(id, name) VALUES (1, 'Apple Watch'), (2, 'iPhone');"
	    "INSERT INTO metric(id, identifier) VALUES"
	    " (1, 'HKQuantityTypeIdentifierHeartRate'),"
	    " (2, 'HKQuantityTypeIdentifierDistanceWalkingRunning'),"
	    " (3, 'HKQuantityTypeIdentifierActiveEnergyBurned'),"
	    " (4, 'HKQuantityTypeIdentifierDistanceCycling'),"
	    " (5, 'HKQuantityTypeIdentifierDistanceSwimming'),"
	    " (6, 'HKQuantityTypeIdentifierBasalEnergyBurned');"
	    /* 2024-03-10T07:00:00Z is 23:00 on the 9th in Los Angeles. */
	    "INSERT INTO workout(id, activity_type, source_id, start, end, duration, distance, energy) VALUES"
	    " (1, 'HKWorkoutActivityTypeRunning', 1, 1710054000, 1710055800, 1800, 5000, 350),"
	    " (2, 'HKWorkoutActivityTypeWalking', 1, 1710140400, 1710143400, 3000, NULL, NULL),"
	    " (3, 'HKWorkoutActivityTypeCycling', 2, 1710226800, 1710229800, 3000, NULL, NULL),"
	    " (4, 'HKWorkoutActivityTypeSwimming', 1, 1710313200, 1710314400, NULL, NULL, NULL);"
	    "INSERT INTO sample(metric_id, source_id, start, end, value) VALUES"
	    " (1, 1, 1710054060, 1710054060, 140),"
	    " (1, 1, 1710054900, 1710054900, 150),"
	    " (1, 1, 1710055800, 1710055800, 160),"
	    " (1, 1, 1710055801, 1710055801, 200);"
	    "INSERT INTO route(id, workout_id, source_id, start, end) VALUES (1, 1, 2, 1710054000, 1710054120);"
	    "INSERT INTO route_point(route_id, seq, time, lat, lon, ele) VALUES"
	    " (1, 0, 1710054000, 37.0, -122.0, 10),"
	    " (1, 1, 1710054060, 37.001, -122.0, 15),"
	    " (1, 2, 1710054120, 37.001, -121.999, 12);"
	    "INSERT INTO workout_activity(workout_id, uuid, activity_type, start, end, duration) VALUES"
	    " (2, 'A1', 'HKWorkoutActivityTypeWalking', 1710140400, 1710141900, 1500),"
	    " (2, 'A2', 'HKWorkoutActivityTypeWalking', 1710141900, 1710143400, 1500),"
	    " (3, 'B1', 'HKWorkoutActivityTypeCycling', 1710226800, 1710228000, 1200),"
	    " (3, 'B2', 'HKWorkoutActivityTypeCycling', 1710228000, 1710229800, 1800);"
	    "INSERT INTO workout_stat(workout_id, activity_uuid, metric_id, start, end, sum, average, minimum, maximum, unit) VALUES"
	    " (2, NULL, 2, 1710140400, 1710143400, 2.5, NULL, NULL, NULL, 'mi'),"
	    " (2, NULL, 3, 1710140400, 1710143400, 200, NULL, NULL, NULL, 'Cal'),"
	    " (2, NULL, 6, 1710140400, 1710143400, 80, NULL, NULL, NULL, 'Cal'),"
	    " (2, NULL, 1, 1710140400, 1710143400, NULL, 112, 80, 130, 'count/min'),"
	    " (2, 'A1', 2, 1710140400, 1710141900, 1.25, NULL, NULL, NULL, 'mi'),"
	    " (2, 'A2', 2, 1710141900, 1710143400, 1.2, NULL, NULL, NULL, 'mi'),"
	    " (2, 'A1', 3, 1710140400, 1710141900, 100, NULL, NULL, NULL, 'Cal'),"
	    " (2, 'A2', 3, 1710141900, 1710143400, 100, NULL, NULL, NULL, 'Cal'),"
	    " (2, 'A1', 1, 1710140400, 1710141900, NULL, 100, 80, 120, 'count/min'),"
	    " (2, 'A2', 1, 1710141900, 1710143400, NULL, 120, 90, 130, 'count/min'),"
	    " (3, 'B1', 4, 1710226800, 1710228000, 10, NULL, NULL, NULL, 'km'),"
	    " (3, 'B2', 4, 1710228000, 1710229800, 15, NULL, NULL, NULL, 'km'),"
	    " (3, 'B1', 3, 1710226800, 1710228000, 300, NULL, NULL, NULL, 'kcal'),"
	    " (3, 'B2', 3, 1710228000, 1710229800, 200, NULL, NULL, NULL, 'kcal'),"
	    " (3, 'B1', 1, 1710226800, 1710228000, NULL, 120, 95, 170, 'count/min'),"
	    " (3, 'B2', 1, 1710228000, 1710229800, NULL, 150, 100, 180, 'count/min'),"
	    " (4, NULL, 5, 1710313200, 1710314400, 1500, NULL, NULL, NULL, 'm');"
	    /* Workout 2: paused 600→720 (2 min) and motion-paused 1000→1030. */
	    "INSERT INTO workout_event(workout_id, activity_uuid, type, date, duration) VALUES"
	    " (2, NULL, 'HKWorkoutEventTypeLap', 1710140700, NULL),"
	    " (2, NULL, 'HKWorkoutEventTypePause', 1710141000, NULL),"
	    " (2, NULL, 'HKWorkoutEventTypeResume', 1710141120, NULL),"
	    " (2, NULL, 'HKWorkoutEventTypeMotionPaused', 1710141400, NULL),"
	    " (2, NULL, 'HKWorkoutEventTypeMotionResumed', 1710141430, NULL),"
	    " (2, NULL, 'HKWorkoutEventTypeSegment', 1710140400, 1500),"
	    " (2, NULL, 'HKWorkoutEventTypeSegment', 1710141900, 1500),"
	    " (2, 'A1', 'HKWorkoutEventTypeLap', 1710140700, NULL);"
	    "INSERT INTO workout_meta(workout_id, activity_uuid, key, value) VALUES"
	    " (2, NULL, 'HKIndoorWorkout', '0'),"
	    " (2, NULL, 'HKElevationAscended', '217 cm'),"
	    " (2, NULL, 'HKWeatherTemperature', '56 degF'),"
	    " (2, NULL, 'HKWeatherHumidity', '5700 %'),"
	    " (2, NULL, 'HKTimeZone', 'America/Los_Angeles'),"
	    " (2, NULL, 'HKIndoorWorkout', '1'),"
	    " (2, 'A1', 'HKTimeZone', 'Europe/Paris');");
}

static void
test_types(void)
{
	const char *id;
	char name[128], sug[64];

	is_str(hq_workout_type_identifier("running", NULL, 0), "HKWorkoutActivityTypeRunning", "running");
	is_str(hq_workout_type_identifier("Run", NULL, 0), "HKWorkoutActivityTypeRunning", "alias, any case");
	is_str(hq_workout_type_identifier("bike", NULL, 0), "HKWorkoutActivityTypeCycling", "bike → cycling");
	is_str(hq_workout_type_identifier("ride", NULL, 0), "HKWorkoutActivityTypeCycling", "ride → cycling");
	is_str(hq_workout_type_identifier("hiit", NULL, 0), "HKWorkoutActivityTypeHighIntensityIntervalTraining", "hiit");
	is_str(hq_workout_type_identifier("strength", NULL, 0), "HKWorkoutActivityTypeTraditionalStrengthTraining", "strength");
	is_str(hq_workout_type_identifier("HKWorkoutActivityTypeYoga", NULL, 0), "HKWorkoutActivityTypeYoga", "raw identifier");
	is_str(hq_workout_type_identifier("FunctionalStrengthTraining", NULL, 0),
	    "HKWorkoutActivityTypeFunctionalStrengthTraining", "CamelCase name");
	is_str(hq_workout_type_identifier("functional-strength-training", NULL, 0),
	    "HKWorkoutActivityTypeFunctionalStrengthTraining", "dashes for underscores");
	is_str(hq_workout_type_identifier("HKWorkoutActivityTypeUnderwaterFencing", NULL, 0),
	    "HKWorkoutActivityTypeUnderwaterFencing", "a raw identifier the table does not know is taken as is");
	id = hq_workout_type_identifier("runing", sug, sizeof sug);
	ok(id == NULL, "a misspelt type is unknown");
	is_str(sug, "running", "and suggests running");
	id = hq_workout_type_identifier("xyzzy", sug, sizeof sug);
	ok(id == NULL && sug[0] == '\0', "no suggestion for nonsense");

	hq_workout_type_name("HKWorkoutActivityTypeTraditionalStrengthTraining", name, sizeof name);
	is_str(name, "traditional_strength_training", "type name");
	hq_workout_type_name("HKWorkoutActivityTypeHighIntensityIntervalTraining", name, sizeof name);
	is_str(name, "high_intensity_interval_training", "HIIT name");
	hq_workout_type_name("HKWorkoutActivityTypeUnderwaterFencing", name, sizeof name);
	is_str(name, "underwater_fencing", "an unknown type still gets a snake name");
	/* Every table entry's name is what the snake rule makes of it, so
	 * names read back agree with names typed. */
	int agree = 1;
	size_t ntypes = 0;
	for (const char *t; (t = hq_workout_type_at(ntypes)); ntypes++) {
		id = hq_workout_type_identifier(t, NULL, 0);
		char back[128] = "";
		if (id)
			hq_catalog_snake(id, back, sizeof back);
		if (!id || strcmp(back, t) != 0) {
			printf("# %s → %s → %s\n", t, id ? id : "(null)", back);
			agree = 0;
		}
	}
	ok(ntypes > 60, "the table lists every type HealthKit defines (%zu)", ntypes);
	ok(agree, "every listed name is the snake_case of its identifier");
}

static void
test_list(void)
{
	struct hq_workout_filter f = { 0 };
	long n;
	cJSON *j = run(&f, 0, &n), *r;

	is_int(n, 4, "four workouts");
	is_int(cJSON_GetArraySize(j), 4, "four rows");

	/* Newest first: 4, 3, 2, 1. */
	r = cJSON_GetArrayItem(j, 3);
	is_str(str(r, "type"), "running", "old format: type");
	is_str(str(r, "date"), "2024-03-09", "date is the local date (23:00 PST), not UTC's");
	is_str(str(r, "start"), "2024-03-09T23:00:00-08:00", "start in local time");
	is_dbl(num(r, "duration_min"), 30, 1e-9, "old format: duration");
	is_dbl(num(r, "distance_km"), 5, 1e-9, "old format: distance m → km");
	is_dbl(num(r, "energy_kcal"), 350, 1e-9, "old format: energy");
	is_dbl(num(r, "avg_hr"), 150, 1e-9, "no HR statistic: average of the samples inside the workout");
	is_dbl(num(r, "max_hr"), 160, 1e-9, "and their max (the 200 after the end is not counted)");
	ok(cJSON_IsTrue(cJSON_GetObjectItem(r, "has_route")), "has a route");
	is_str(str(r, "source"), "Apple Watch", "source");

	/* 5 km in 30 min: 6 min/km, 10 km/h. */
	is_dbl(num(r, "pace_min_per_km"), 6, 1e-9, "pace in minutes per km");
	is_dbl(num(r, "speed_kmh"), 10, 1e-9, "and speed in km/h");

	r = cJSON_GetArrayItem(j, 2);
	is_str(str(r, "type"), "walking", "new format: type");
	is_dbl(num(r, "distance_km"), 2.5, 1e-9, "workout-level distance; activity rows neither added (4.95) nor preferred (2.45)");
	is_dbl(num(r, "energy_kcal"), 200, 1e-9, "workout-level active energy (not 400, not +basal)");
	is_dbl(num(r, "avg_hr"), 112, 1e-9, "workout-level HR average, not the activities' (110)");
	is_dbl(num(r, "max_hr"), 130, 1e-9, "workout-level HR max");
	is_dbl(num(r, "duration_min"), 50, 1e-9, "duration");
	ok(cJSON_IsFalse(cJSON_GetObjectItem(r, "has_route")), "no route");

	r = cJSON_GetArrayItem(j, 1);
	is_dbl(num(r, "distance_km"), 25, 1e-9, "activity-only distance: summed across activities");
	is_dbl(num(r, "energy_kcal"), 500, 1e-9, "activity-only energy: summed");
	is_dbl(num(r, "avg_hr"), 138, 1e-9, "activity-only HR: duration-weighted (120×20 + 150×30)/50");
	is_dbl(num(r, "max_hr"), 180, 1e-9, "activity-only HR max: the larger");
	is_str(str(r, "source"), "iPhone", "source of workout 3");

	/* 25 km in 50 min: 30 km/h. */
	is_dbl(num(r, "speed_kmh"), 30, 1e-9, "speed of the ride");

	r = cJSON_GetArrayItem(j, 0);
	is_dbl(num(r, "distance_km"), 1.5, 1e-9, "swimming distance from metres");
	is_dbl(num(r, "duration_min"), 20, 1e-9, "no duration column: end - start");
	ok(is_null(r, "energy_kcal") && is_null(r, "avg_hr"), "absent values are null, not 0");
	cJSON_Delete(j);

	char got[64];
	ids(&(struct hq_workout_filter){ .limit = 3 }, got, sizeof got, &n);
	is_str(got, "4,3,2", "newest first: limit 3 gives the last three");
}

/* The list as a table reads as people read it: pace for a run, speed for
 * a ride, pace per 100 m for a swim, the duration as a clock. */
static void
test_list_table(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	struct hq_out *o = hq_out_new(fp, HQ_FMT_TABLE);
	long n;

	hq_out_set_width(o, 200);
	n = hq_workout_list(s, NULL, o, &e);
	hq_out_free(o);
	fclose(fp);
	is_int(n, 4, "table: four rows");
	like(text, "\n 1  2024-03-09  23:00  running +30:00 +5\\.00 +6:00/km +350 +150 +160 +yes +Apple Watch\n",
	    "table: the run: local date and time, 30:00, 6:00/km, whole kcal and beats");
	like(text, "\n 3  2024-03-12  00:00  cycling +50:00 +25\\.00 +30\\.0 km/h +500 +138 +180 +- +iPhone\n",
	    "table: the ride: km/h");
	like(text, "\n 4  2024-03-13  00:00  swimming +20:00 +1\\.50 +1:20/100m +- +- +- +- +Apple Watch\n",
	    "table: the swim: pace per 100 m");
	like(text, "^id  date        start  type +duration +km  pace/speed  kcal   hr  max  route  source\n",
	    "table: the header");
	free(text);

	text = NULL;
	fp = open_memstream(&text, &len);
	o = hq_out_new(fp, HQ_FMT_TABLE);
	hq_out_set_width(o, 60);
	hq_workout_list(s, NULL, o, &e);
	hq_out_free(o);
	fclose(fp);
	like(text, "^id  date        type +duration +km  pace/speed   hr\n",
	    "table in 60 columns: source, start, max, kcal and route give way");
	unlike(text, "\n[^\n]{61}", "and no line is wider than 60");
	free(text);
}

/* "17", "last", "last:TYPE" */
static void
test_find(void)
{
	struct hq_workout_ref w;
	struct hq_workout_count c;

	ok(hq_workout_find(s, "last", &w, &e) == 1 && w.id == 4, "last: the newest");
	is_str(w.type, "swimming", "with its type");
	ok(hq_workout_find(s, "last:run", &w, &e) == 1 && w.id == 1, "last:run");
	ok(hq_workout_find(s, "last:cycling", &w, &e) == 1 && w.id == 3 &&
	    w.start == 1710226800 && w.end == 1710229800, "last:cycling, with its start and end");
	ok(hq_workout_find(s, "2", &w, &e) == 1 && w.id == 2, "an ID");
	ok(hq_workout_find(s, "99", &w, &e) == 0, "an ID the store lacks: 0");
	ok(hq_workout_find(s, "last:yoga", &w, &e) == 0, "a type with no workouts: 0");
	ok(hq_workout_find(s, "last:runing", &w, &e) == -1 &&
	    strstr(e.msg, "did you mean last:running?") != NULL, "a misspelt type: %s", e.msg);
	ok(hq_workout_find(s, "first", &w, &e) == -1 && strstr(e.msg, "last:TYPE") != NULL,
	    "not a workout: says the forms");
	ok(hq_workout_find(s, "0", &w, &e) == -1, "0 is no ID");
	ok(hq_workout_find(s, "-1", &w, &e) == -1, "-1 is no ID");
	ok(hq_workout_find(s, "99999999999999999999", &w, &e) == -1, "an ID past int64: refused");

	ok(hq_workout_count(s, "run", 0, 0, &c, &e) == 0 && c.n == 1 && c.n_range == 1,
	    "count of runs");
	ok(hq_workout_count(s, NULL, 1710140400, 1710313200, &c, &e) == 0 && c.n == 4 &&
	    c.n_range == 2 && c.first == 1710054000 && c.last == 1710313200,
	    "count in a range, and the extent of all");
}

static void
test_filters(void)
{
	struct hq_workout_filter f = { 0 };
	char got[64];
	long n;

	f.type = "run";
	ids(&f, got, sizeof got, &n);
	is_str(got, "1", "--type run");
	f.type = "Walking";
	ids(&f, got, sizeof got, &n);
	is_str(got, "2", "--type Walking");
	f.type = "HKWorkoutActivityTypeSwimming";
	ids(&f, got, sizeof got, &n);
	is_str(got, "4", "--type with the raw identifier");
	f.type = "yoga";
	ids(&f, got, sizeof got, &n);
	ok(n == 0 && got[0] == '\0', "a known type with no workouts: no rows");
	f.type = "runing";
	ids(&f, got, sizeof got, &n);
	is_int(n, -1, "a misspelt type is an error");
	ok(strstr(e.msg, "did you mean running") != NULL, "that suggests the fix: %s", e.msg);

	f.type = NULL;
	f.min_duration = 40;
	ids(&f, got, sizeof got, &n);
	is_str(got, "3,2", "--min-duration 40 keeps the 50-minute workouts");
	f.min_duration = 30;
	ids(&f, got, sizeof got, &n);
	is_str(got, "3,2,1", "--min-duration is inclusive");
	f.min_duration = 0;

	f.from = 1710140400;
	f.to = 1710313200;
	ids(&f, got, sizeof got, &n);
	is_str(got, "3,2", "[from, to) on the start time");
	f.from = f.to = 0;
	f.limit = 2;
	f.offset = 1;
	ids(&f, got, sizeof got, &n);
	is_str(got, "3,2", "limit and offset, newest first");
}

static void
test_detail(void)
{
	long n;
	cJSON *j = run(NULL, 2, &n), *r = cJSON_GetArrayItem(j, 0);

	is_int(n, 1, "detail of workout 2");
	is_dbl(num(r, "distance_km"), 2.5, 1e-9, "detail has the list fields");
	is_str(str(r, "hr_source"), "statistics", "HR came from the statistic");
	is_dbl(num(r, "distance_walking_running_sum"), 2.5, 1e-9, "statistic: distance sum");
	is_str(str(r, "distance_walking_running_unit"), "km", "with its unit");
	is_dbl(num(r, "basal_energy_burned_sum"), 80, 1e-9, "statistic: basal energy");
	is_dbl(num(r, "heart_rate_avg"), 112, 1e-9, "statistic: HR avg (workout level)");
	is_dbl(num(r, "heart_rate_min"), 80, 1e-9, "statistic: HR min");
	is_int(num(r, "activities"), 2, "two activities");
	is_int(num(r, "pauses"), 2, "a pause and a motion pause");
	is_dbl(num(r, "paused_min"), 2.5, 1e-9, "paused 120 s + 30 s");
	is_int(num(r, "laps"), 1, "one lap (the activity's copy is not counted)");
	is_int(num(r, "segments"), 2, "two segments");
	is_int(num(r, "events"), 7, "seven workout-level events");
	is_str(str(r, "time_zone"), "America/Los_Angeles", "time zone of the workout, not its activity's");
	ok(cJSON_IsFalse(cJSON_GetObjectItem(r, "indoor")), "outdoor (first of the repeated key)");
	is_dbl(num(r, "elevation_ascended_m"), 2.17, 1e-9, "217 cm ascended");
	is_dbl(num(r, "temperature_c"), 13.3, 1e-9, "56 °F in °C");
	is_dbl(num(r, "humidity_pct"), 57, 1e-9, "humidity written ×100 is read as 57 %%");
	ok(cJSON_GetObjectItem(r, "route_points") == NULL, "no route, no route fields");
	cJSON_Delete(j);

	j = run(NULL, 1, &n);
	r = cJSON_GetArrayItem(j, 0);
	is_int(n, 1, "detail of workout 1");
	is_str(str(r, "hr_source"), "samples", "HR from samples");
	is_int(num(r, "route_points"), 3, "three route points");
	/* North 0.001° = R·Δφ = 111.195 m; east 0.001° at 37.001° N =
	 * R·cos(37.001°)·Δλ = 88.803 m; sum 199.998 m. */
	is_dbl(num(r, "route_distance_km"), 0.2, 1e-9, "route distance 199.998 m → 0.200 km");
	is_dbl(num(r, "route_elevation_gain_m"), 5, 1e-9, "elevation gain counts the rise only (10→15→12)");
	is_dbl(num(r, "route_duration_min"), 2, 1e-9, "route duration");
	is_dbl(num(r, "route_min_lat"), 37.0, 1e-12, "bbox min lat");
	is_dbl(num(r, "route_max_lat"), 37.001, 1e-12, "bbox max lat");
	is_dbl(num(r, "route_min_lon"), -122.0, 1e-12, "bbox min lon");
	is_dbl(num(r, "route_max_lon"), -121.999, 1e-12, "bbox max lon");
	is_int(num(r, "events"), 0, "no events");
	ok(is_null(r, "time_zone"), "no time zone metadata: null");
	cJSON_Delete(j);

	j = run(NULL, 99, &n);
	is_int(n, 0, "no workout 99: 0");
	is_int(cJSON_GetArraySize(j), 0, "and no row");
	cJSON_Delete(j);

	is_dbl(hq_workout_haversine(0, 0, 0, 1), 111195.08, 0.01,
	    "one degree of longitude on the equator");
	is_dbl(hq_workout_haversine(37, -122, 37.001, -122), 111.19508, 1e-4,
	    "0.001° of latitude");
}

int
main(void)
{
	char dir[] = "/tmp/hq-workout-test.XXXXXX", path[300];

	if (!mkdtemp(dir) || hq_time_set_zone("America/Los_Angeles", &e) != 0)
		return 1;
	snprintf(path, sizeof path, "%s/hq.db", dir);
	s = hq_store_open(path, HQ_STORE_CREATE, &e);
	ok(s != NULL, "store created");
	if (!s)
		return done_testing();
	fill();
	test_types();
	test_list();
	test_list_table();
	test_find();
	test_filters();
	test_detail();
	hq_store_close(s);
	fixture_remove_store(dir);
	return done_testing();
}
