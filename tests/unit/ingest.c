/* The import writer: values in canonical units, categories, natural-key
 * dedup, correlation members, JSON lines, abort and commit. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hq/ingest.h"
#include "hq/jsonl.h"
#include "hq/store.h"
#include "tap.h"

static double
one_double(struct hq_store *s, const char *sql)
{
	sqlite3_stmt *st;
	double v = NAN;
	struct hq_err e;

	if (hq_store_prepare(s, sql, &st, &e))
		return NAN;
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
		v = sqlite3_column_double(st, 0);
	sqlite3_finalize(st);
	return v;
}

static void
warn_count(void *arg, const char *msg)
{
	(void)msg;
	++*(int *)arg;
}

static void
warn_last(void *arg, const char *msg)
{
	snprintf(arg, 512, "%s", msg);
}

static void
where_here(void *arg, char *buf, size_t n)
{
	(void)arg;
	snprintf(buf, n, "here:7");
}

int
main(void)
{
	char dir[] = "/tmp/hq-unit-ingest.XXXXXX", path[256];
	struct hq_err e;
	struct hq_store *s;
	struct hq_ingest *ig;
	int64_t id = 0, id2 = 0;

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof path, "%s/hq.db", dir);
	s = hq_store_open(path, HQ_STORE_CREATE, &e);
	ok(s != NULL, "store opened");
	if (!s)
		return done_testing();

	ig = hq_ingest_start(s, "unit", "apple-xml", 0, &e);
	ok(ig != NULL, "import started");
	int64_t first = hq_ingest_first_sample_id(ig);
	is_int(first, 1, "the first sample id of an empty store is 1");
	struct hq_ingest_record r = {
		.type = "HKQuantityTypeIdentifierOxygenSaturation", .source = "Watch",
		.unit = "%", .value_str = "0.97", .percent_fraction = 1,
		.start = 1000, .end = 1000,
		.device = "<<HKDevice: 0x2829>, name:Apple Watch>",
	};
	is_int(hq_ingest_record(ig, &r, &id, &e), 1, "a record is inserted");
	is_int(id, first, "with the first id");
	is_dbl(one_double(s, "SELECT value FROM sample"), 97, 1e-9, "Apple's %% fraction is stored as percent");
	r.device = "<<HKDevice: 0xffff>, name:Apple Watch>";
	is_int(hq_ingest_record(ig, &r, &id2, &e), 0, "the same sample (another device pointer) is a duplicate");
	is_int(id2, id, "and finds the stored sample's id");

	struct hq_ingest_record w = { .type = "HKQuantityTypeIdentifierBodyMass",
	    .source = "Scale", .unit = "lb", .value_str = "200", .start = 2000, .end = 2000 };
	int64_t wid = 0;
	is_int(hq_ingest_record(ig, &w, &wid, &e), 1, "pounds");
	is_dbl(one_double(s, "SELECT value FROM sample WHERE unit = 'lb'"), 90.718474, 1e-6, "are stored as kilograms");
	struct hq_ingest_record z = { .type = "HKQuantityTypeIdentifierFutureThing",
	    .source = "X", .unit = "zorks", .value_str = "3.5", .start = 1, .end = 2 };
	is_int(hq_ingest_record(ig, &z, NULL, &e), 1, "an unknown type and unit");
	is_dbl(one_double(s, "SELECT value FROM sample WHERE unit = 'zorks'"), 3.5, 1e-12, "keep the value as written");
	struct hq_ingest_record c = { .type = "HKCategoryTypeIdentifierSleepAnalysis",
	    .source = "Watch", .value_str = "HKCategoryValueSleepAnalysisAsleep", .start = 10, .end = 20 };
	is_int(hq_ingest_record(ig, &c, NULL, &e), 1, "legacy Asleep");
	c.value_str = "HKCategoryValueSleepAnalysisAsleepUnspecified";
	is_int(hq_ingest_record(ig, &c, NULL, &e), 0, "is the same sample as AsleepUnspecified");
	struct hq_ingest_record bad = { .type = "HKQuantityTypeIdentifierHeartRate",
	    .source = "W", .unit = "count/min", .value_str = "12abc", .start = 5, .end = 5 };
	is_int(hq_ingest_record(ig, &bad, NULL, &e), 2, "a value that is not wholly a number is skipped");
	bad.value_str = "60";
	bad.end = 4;
	is_int(hq_ingest_record(ig, &bad, NULL, &e), 2, "end before start is skipped");
	bad.value_str = NULL;
	bad.end = 5;
	is_int(hq_ingest_record(ig, &bad, NULL, &e), 2, "a quantity without a value is skipped");

	/* A correlation member found at top level, or added once. */
	int64_t m = hq_ingest_member(ig, &w, &e);
	is_int(m, wid, "a member that is already stored is found");
	struct hq_ingest_record sys = { .type = "HKQuantityTypeIdentifierBloodPressureSystolic",
	    .source = "Cuff", .unit = "mmHg", .value_str = "120", .start = 3000, .end = 3000 };
	int64_t m2 = hq_ingest_member(ig, &sys, &e);
	ok(m2 > 0, "a member not yet at top level is added");
	is_int(hq_ingest_record(ig, &sys, &id, &e), 0, "and its top-level copy is then a duplicate");
	is_int(id, m2, "of that very row");

	const struct hq_ingest_counts *k = hq_ingest_counts(ig);
	is_int(k->records, 10, "records counted (members are not records)");
	is_int(k->inserted, 4, "inserted counted");
	is_int(k->duplicates, 3, "duplicates counted");
	is_int(k->skipped, 3, "skipped counted");
	hq_ingest_abort(ig);
	is_dbl(one_double(s, "SELECT count(*) FROM sample"), 0, 0, "abort leaves no sample");
	is_dbl(one_double(s, "SELECT count(*) FROM import"), 0, 0, "nor an import row");

	/* What the writer checks for every reader (ingest.h). */
	char where_msg[512] = "";
	ig = hq_ingest_start(s, "checks", "jsonl", -1, &e);
	hq_ingest_set_warn(ig, warn_last, where_msg);
	hq_ingest_set_where(ig, where_here, NULL);
	struct hq_ingest_record v = { .type = "steps", .by_name = 1, .source = "x",
	    .has_value = 1, .value_num = INFINITY, .start = 0, .end = 60 };
	is_int(hq_ingest_record(ig, &v, NULL, &e), 2, "an infinite value is skipped");
	is_str(e.msg, "value is not a finite number", "saying why");
	v.value_num = NAN;
	is_int(hq_ingest_record(ig, &v, NULL, &e), 2, "so is NaN");
	v.value_num = -5;
	is_int(hq_ingest_record(ig, &v, NULL, &e), 2, "a negative amount of steps");
	v.value_num = 2e12;
	is_int(hq_ingest_record(ig, &v, NULL, &e), 2, "a value past 1e12");
	v.value_num = 5;
	v.end = 7 * 86400 + 1;
	is_int(hq_ingest_record(ig, &v, NULL, &e), 2, "steps over more than 7 days");
	v.end = 7 * 86400;
	is_int(hq_ingest_record(ig, &v, NULL, &e), 1, "steps over exactly 7 days are taken");
	struct hq_ingest_record d = { .type = "heart_rate", .by_name = 1, .source = "x",
	    .has_value = 1, .value_num = 60, .start = 0, .end = (int64_t)3000 * 86400 };
	is_int(hq_ingest_record(ig, &d, NULL, &e), 1, "a discrete sample over 3000 days is taken");
	d.end = (int64_t)3654 * 86400;
	is_int(hq_ingest_record(ig, &d, NULL, &e), 2, "over ten years it is not");
	d.end = 0;
	d.source = "\xff";
	is_int(hq_ingest_record(ig, &d, NULL, &e), 2, "a source that is not UTF-8");
	is_str(e.msg, "source is not valid UTF-8", "saying why");
	char longname[HQ_INGEST_MAX_NAME + 2];
	memset(longname, 'n', sizeof longname - 1);
	longname[sizeof longname - 1] = '\0';
	d.source = "x";
	d.device = longname;
	is_int(hq_ingest_record(ig, &d, NULL, &e), 2, "a device name past %d bytes", HQ_INGEST_MAX_NAME);
	d.device = NULL;
	d.unit = "furlongs/fortnight";
	is_int(hq_ingest_record(ig, &d, NULL, &e), 1, "a unit hq cannot convert is stored");
	is_int(hq_ingest_counts(ig)->units_unconverted, 1, "counted");
	ok(strncmp(where_msg, "here:7: heart_rate: unit 'furlongs/fortnight'", 45) == 0,
	    "and warned about where the reader is (%s)", where_msg);
	struct hq_ingest_group g = { .type = "HKWorkoutActivityTypeRunning", .source = "W",
	    .start = 100, .end = 50, .duration = NAN, .distance = NAN, .energy = NAN };
	is_int(hq_ingest_workout(ig, &g, &id, &e), 2, "a workout ending before it starts is skipped");
	g.end = 200;
	g.duration = -1;
	is_int(hq_ingest_workout(ig, &g, &id, &e), 2, "a negative duration");
	g.duration = 100;
	g.energy = INFINITY;
	is_int(hq_ingest_workout(ig, &g, &id, &e), 2, "an infinite energy");
	g.energy = 10;
	is_int(hq_ingest_workout(ig, &g, &id, &e), 1, "a good workout is added");
	is_int(hq_ingest_correlation(ig, &(struct hq_ingest_group){ .type = "HKCorrelationTypeIdentifierBloodPressure",
	    .start = 10, .end = 5, .duration = NAN, .distance = NAN, .energy = NAN }, &id, &e), 2,
	    "a correlation ending before it starts is skipped");
	struct hq_ingest_summary a = { .date = "2024-02-30", .active_energy = NAN,
	    .active_energy_goal = NAN, .move_time = NAN, .move_time_goal = NAN,
	    .exercise_time = NAN, .exercise_time_goal = NAN, .stand_hours = NAN,
	    .stand_hours_goal = NAN };
	is_int(hq_ingest_activity_summary(ig, &a, &e), 2, "30 February is not a date");
	a.date = "2024-02-29";
	a.stand_hours = 25;
	is_int(hq_ingest_activity_summary(ig, &a, &e), 2, "25 stand hours are too many");
	a.stand_hours = 12;
	is_int(hq_ingest_activity_summary(ig, &a, &e), 1, "a good summary is added");
	hq_ingest_abort(ig);

	/* JSON lines through a descriptor, with a sniffed prefix: a bad line
	 * (line 4) fails the whole file, naming the line. */
	const char *badjson = "{\"metric\":\"weight\",\"start\":\"2024-01-01T00:00:00Z\",\"value\":80,\"unit\":\"kg\"}\n"
	    "\n{\"metric\":\"steps\",\"start\":0,\"end\":60,\"value\":12}\n"
	    "[1,2]\n{\"metric\":\"hrv\",\"start\":\"yesterday-ish\",\"value\":40}";
	const char *good = "{\"metric\":\"weight\",\"start\":\"2024-01-01T00:00:00Z\",\"value\":80,\"unit\":\"kg\"}\n"
	    "\n{\"metric\":\"steps\",\"start\":0,\"end\":60,\"value\":12}";
	size_t pre = 20;
	int warnings = 0;
	for (int pass = 0; pass < 2; pass++) {
		const char *lines = pass ? good : badjson;
		int fd = memfd_create("jsonl", 0);
		if (write(fd, lines + pre, strlen(lines) - pre) < 0)
			return 1;
		lseek(fd, 0, SEEK_SET);
		struct hq_input src = { .fd = fd, .name = "in.jsonl",
		    .pre = (const unsigned char *)lines, .prelen = pre };
		ig = hq_ingest_start(s, "in.jsonl", "jsonl", -1, &e);
		hq_ingest_set_warn(ig, warn_count, &warnings);
		int rc = hq_jsonl_read(&src, &(struct hq_read_opts){ 0 }, ig, &e);
		if (!pass) {
			is_int(rc, -1, "a bad JSON line fails the file");
			ok(strstr(e.msg, "in.jsonl:4: not a JSON object") != NULL,
			    "naming file and line (%s)", e.msg);
			hq_ingest_abort(ig);
			is_dbl(one_double(s, "SELECT count(*) FROM sample"), 0, 0,
			    "nothing of it is stored");
		} else {
			is_int(rc, 0, "JSON lines read");
			k = hq_ingest_counts(ig);
			is_int(k->inserted, 2, "two lines inserted");
			is_int(k->skipped, 0, "none skipped");
			is_int((long long)src.bytes, (long long)strlen(lines),
			    "every byte consumed, prefix first");
			ok(hq_ingest_commit(ig, &e) == 0, "committed");
			is_dbl(one_double(s, "SELECT count(*) FROM sample"), 2, 0, "two samples stored");
			is_dbl(one_double(s, "SELECT inserted FROM import"), 2, 0, "the import row has the counts");
		}
		close(fd);
	}
	is_int(warnings, 0, "no warnings: errors instead");

	hq_store_close(s);
	char p2[300];
	const char *sfx[] = { "", "-wal", "-shm" };
	for (int i = 0; i < 3; i++) {
		snprintf(p2, sizeof p2, "%s%s", path, sfx[i]);
		unlink(p2);
	}
	rmdir(dir);
	return done_testing();
}
