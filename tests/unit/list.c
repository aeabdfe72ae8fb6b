/* Unit tests for lib/query/list.c: hq-query --list covers every kind of data
 * the store holds (metrics, nights, workouts and routes by type, activity
 * summaries, clinical records, Me), with sources as arrays; the extent of
 * one metric; and lib/store/zone.c's choice of zone from the store. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hq/list.h"
#include "hq/store.h"
#include "hq/time.h"
#include "hq/zone.h"
#include "fixture.h"
#include "tap.h"

static struct hq_store *s;
static struct hq_err e;

static char *
list(enum hq_format f, long *n)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	struct hq_out *o = hq_out_new(fp, f);

	hq_out_set_width(o, 200);
	*n = hq_list_run(s, o, &e);
	hq_out_free(o);
	fclose(fp);
	return text;
}

/* The row of metric (and type, when not NULL) from a JSON array. */
static const cJSON *
row(const cJSON *arr, const char *metric, const char *type)
{
	const cJSON *r;

	cJSON_ArrayForEach(r, arr) {
		const cJSON *m = cJSON_GetObjectItem(r, "metric");
		const cJSON *t = cJSON_GetObjectItem(r, "type");
		if (cJSON_IsString(m) && strcmp(m->valuestring, metric) == 0 &&
		    (!type || (cJSON_IsString(t) && strcmp(t->valuestring, type) == 0)))
			return r;
	}
	return NULL;
}

static char *
field(const cJSON *r, const char *key)
{
	return r ? cJSON_PrintUnformatted(cJSON_GetObjectItem(r, key)) : NULL;
}

static void
is_field(const cJSON *r, const char *key, const char *want, const char *name)
{
	char *got = field(r, key);

	is_str(got, want, "%s", name);
	free(got);
}

int
main(void)
{
	char dir[] = "/tmp/hq-list-test.XXXXXX", path[300];
	struct hq_list_extent x;
	struct hq_metric_ref m = {0};
	struct hq_zone_choice z;
	long n;
	char *text;
	cJSON *j;

	if (!mkdtemp(dir) || hq_time_set_zone("America/Los_Angeles", &e) != 0)
		return 1;
	snprintf(path, sizeof path, "%s/hq.db", dir);
	s = hq_store_open(path, HQ_STORE_CREATE, &e);
	ok(s != NULL, "store created");
	if (!s)
		return done_testing();

	text = list(HQ_FMT_JSON, &n);
	ok(n == 0 && strcmp(text, "[]\n") == 0, "an empty store lists nothing");
	free(text);

	/* 2024-03-10T07:00:00Z is 23:00 on the 9th in Los Angeles. */
	fixture_sql(s, "INSERT INTO source(id, name) VALUES (1, 'Apple Watch'), (2, 'iPhone'), (3, 'Clinic');"
	    "INSERT INTO metric(id, identifier) VALUES (1, 'HKQuantityTypeIdentifierStepCount'),"
	    " (2, 'HKQuantityTypeIdentifierHeartRate');"
	    "INSERT INTO sample(metric_id, source_id, start, end, value) VALUES"
	    " (1, 1, 1710054000, 1710054600, 100), (1, 2, 1710054300, 1710054900, 50),"
	    " (2, 1, 1710054000, 1710054000, 60), (2, 1, 1710140400, 1710140400, 70);"
	    "INSERT INTO workout(id, activity_type, source_id, start, end) VALUES"
	    " (1, 'HKWorkoutActivityTypeRunning', 1, 1710054000, 1710055800),"
	    " (2, 'HKWorkoutActivityTypeRunning', 2, 1710140400, 1710143400),"
	    " (3, 'HKWorkoutActivityTypeCycling', 1, 1710226800, 1710229800);"
	    "INSERT INTO route(id, workout_id, source_id, start, end) VALUES"
	    " (1, 1, 2, 1710054000, 1710054120), (2, 3, NULL, NULL, NULL);"
	    "INSERT INTO route_point(route_id, seq, time, lat, lon) VALUES"
	    " (1, 0, 1710054000, 37, -122), (1, 1, 1710054060, 37.001, -122),"
	    " (2, 0, NULL, 37, -122), (2, 1, NULL, 37, -122.1), (2, 2, NULL, 37, -122.2);"
	    "INSERT INTO activity_summary(date) VALUES ('2024-03-09'), ('2024-03-10');"
	    "INSERT INTO clinical_record(type, identifier, source_id, received) VALUES"
	    " ('HKClinicalTypeIdentifierLabResultRecord', 'a', 3, 1710054000),"
	    " ('HKClinicalTypeIdentifierLabResultRecord', 'b', 3, 1710140400),"
	    " ('HKClinicalTypeIdentifierMedicationRecord', 'c', 3, 1710140400);"
	    "INSERT INTO me(key, value) VALUES ('HKCharacteristicTypeIdentifierDateOfBirth', '1990-01-01');"
	    /* two lab visits, one result superseded; a DEXA scan, and a
	     * report of kind dexa with no values (not a scan) */
	    "INSERT INTO report(id, kind, date, source) VALUES (1, 'labs', '2024-01-05', 'Quest'),"
	    " (2, 'labs', '2024-06-01', 'Stanford'), (3, 'dexa', '2024-02-01', 'BodySpec'),"
	    " (4, 'dexa', '2024-03-01', '');"
	    "INSERT INTO lab_result(report_id, test, name, time, has_time, date, value, superseded_by) VALUES"
	    " (1, 'ldl', 'LDL', 1704441600, 0, '2024-01-05', 120, NULL),"
	    " (2, 'ldl', 'LDL', 1717225200, 0, '2024-06-01', 110, 3),"
	    " (2, 'ldl', 'LDL', 1717225200, 0, '2024-06-01', 111, NULL);"
	    "INSERT INTO dexa_value(report_id, field, value, unit) VALUES (3, 'fat_mass', 15, 'kg');");

	text = list(HQ_FMT_JSON, &n);
	j = cJSON_Parse(text);
	free(text);
	is_int(n, 12, "twelve rows: two metrics, two workout types, two route types, "
	    "summaries, two clinical types, labs, dexa, Me");
	is_int(cJSON_GetArraySize(j), 12, "as many in the JSON array");
	const cJSON *r = row(j, "step_count", NULL);
	is_field(r, "sources", "[\"Apple Watch\",\"iPhone\"]", "sources: a JSON array, in name order");
	is_field(r, "count", "2", "step_count: two samples");
	is_field(r, "first", "\"2024-03-09T23:00:00-08:00\"", "first: a local time");
	is_field(r, "type", "null", "a metric has no type");
	r = row(j, "workouts", "running");
	is_field(r, "count", "2", "workouts (running): two");
	is_field(r, "identifier", "\"HKWorkoutActivityTypeRunning\"", "with the export's name");
	is_field(r, "sources", "[\"Apple Watch\",\"iPhone\"]", "and both sources");
	is_field(r, "kind", "\"workout\"", "kind workout");
	r = row(j, "routes", "running");
	is_field(r, "count", "2", "routes (running): two points");
	is_field(r, "unit", "\"points\"", "counted in points");
	is_field(r, "sources", "[\"iPhone\"]", "the route's own source");
	r = row(j, "routes", "cycling");
	is_field(r, "count", "3", "routes (cycling): three points");
	is_field(r, "sources", "[\"Apple Watch\"]", "a route without a source: its workout's");
	is_field(r, "first", "\"2024-03-12T00:00:00-07:00\"", "a route without times: its workout's");
	r = row(j, "activity_summaries", NULL);
	is_field(r, "count", "2", "two activity summaries");
	is_field(r, "first", "\"2024-03-09T00:00:00-08:00\"", "from their first date");
	is_field(r, "sources", "[]", "no sources: an empty array");
	r = row(j, "clinical_records", "lab_result");
	is_field(r, "count", "2", "clinical records by type: lab results");
	is_field(r, "sources", "[\"Clinic\"]", "with their source");
	ok(row(j, "clinical_records", "medication") != NULL, "and medications");
	r = row(j, "labs", NULL);
	is_field(r, "count", "2", "labs: the results in force (a superseded one is not counted)");
	is_field(r, "unit", "\"results\"", "counted in results");
	is_field(r, "first", "\"2024-01-05T00:00:00-08:00\"", "from the first visit's date");
	is_field(r, "last", "\"2024-06-01T00:00:00-07:00\"", "to the last");
	is_field(r, "sources", "[\"Quest\",\"Stanford\"]", "the labs");
	is_field(r, "kind", "\"report\"", "kind report");
	r = row(j, "dexa", NULL);
	is_field(r, "count", "1", "dexa: one scan (a report without values is none)");
	is_field(r, "sources", "[\"BodySpec\"]", "the scanner");
	r = row(j, "characteristics", NULL);
	is_field(r, "count", "1", "Me: one characteristic");
	is_field(r, "first", "null", "no times");
	cJSON_Delete(j);

	text = list(HQ_FMT_TABLE, &n);
	like(text, "\nworkouts \\(running\\) +HKWorkoutActivityTypeRunning +workout +- +2 +2024-03-09 +2024-03-11 +Apple Watch, iPhone\n",
	    "a table: metric and type in words, dates, sources joined");
	unlike(text, "\"", "no JSON in a table");
	free(text);
	text = list(HQ_FMT_CSV, &n);
	like(text, "^metric,identifier,kind,unit,count,first,last,sources,type\n",
	    "csv: every field, type included");
	free(text);

	/* the extent of one metric */
	snprintf(m.identifier, sizeof m.identifier, "HKQuantityTypeIdentifierHeartRate");
	snprintf(m.name, sizeof m.name, "heart_rate");
	ok(hq_list_extent(s, &m, 1710100000, INT64_MAX, &x, &e) == 0 && x.any &&
	    x.first == 1710054000 && x.last == 1710140400 && x.n_range == 1,
	    "extent: first and last start, and one sample in the range");
	snprintf(m.identifier, sizeof m.identifier, "HKQuantityTypeIdentifierBodyMass");
	ok(hq_list_extent(s, &m, INT64_MIN, INT64_MAX, &x, &e) == 0 && !x.any,
	    "a metric the store lacks: none");

	/* the zone the data records, most recent first; unknown zones skipped */
	unsetenv("HQ_TZ");
	unsetenv("TZ");
	fixture_sql(s, "INSERT INTO time_zone VALUES ('Europe/Paris', 100, 200, 5),"
	    " ('America/New_York', 100, 300, 1), ('Mars/Olympus', 100, 900, 9);");
	ok(hq_zone_choose(NULL, NULL, s, &z, &e) == 0 && z.from == HQ_ZONE_DATA &&
	    strcmp(z.name, "America/New_York") == 0 && z.data_last == 300,
	    "the most recent zone the machine knows: %s", z.name);
	is_str(hq_time_zone(), "America/New_York", "and it is set");
	ok(hq_zone_choose("Asia/Tokyo", NULL, s, &z, &e) == 0 && z.from == HQ_ZONE_OPTION,
	    "--tz first");
	setenv("TZ", "UTC", 1);
	ok(hq_zone_choose(NULL, NULL, s, &z, &e) == 0 && z.from == HQ_ZONE_TZ &&
	    strcmp(hq_time_zone(), "UTC") == 0, "$TZ before the data");
	setenv("HQ_TZ", "Nowhere/Land", 1);
	ok(hq_zone_choose(NULL, NULL, s, &z, &e) == -1 && strstr(e.msg, "'Nowhere/Land' (from $HQ_TZ)"),
	    "a zone named wrong is an error saying where: %s", e.msg);
	unsetenv("HQ_TZ");
	unsetenv("TZ");
	char note[512];
	ok(hq_zone_choose(NULL, NULL, s, &z, &e) == 0, "the data again");
	hq_zone_note(&z, note, sizeof note);
	like(note, "^days are in America/New_York, the zone your data records\n\\(to choose one: --tz ZONE, or tz = ZONE in .*config\\)$",
	    "the note, two lines");
	fixture_sql(s, "DELETE FROM time_zone;");
	unsetenv("TZ");   /* setting a zone sets $TZ (time.c) */
	ok(hq_zone_choose(NULL, NULL, s, &z, &e) == 0 && z.from == HQ_ZONE_SYSTEM,
	    "nothing recorded: the system's zone");
	hq_zone_note(&z, note, sizeof note);
	is_str(note, "", "and nothing to say");

	hq_store_close(s);
	unlink(path);
	snprintf(path, sizeof path, "%s/hq.db-wal", dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/hq.db-shm", dir);
	unlink(path);
	rmdir(dir);
	return done_testing();
}
