/* Unit tests for day windows in lib/query/bucket.c (hq-correlate --night): with
 * day_from_hour 18 and day_to_hour 12, day D's bucket is the evening of D
 * and the night after, 18:00 on D to 12:00 on D + 1 local time; samples
 * from noon to 18:00 count for no day. Worked out by hand in
 * America/Los_Angeles (L(m, d, h, min) is local wall time in 2024):
 *
 *   heart rate  10-30 17:59 50 (gap)  18:00 60  23:00 70
 *               10-31 02:00 80  11:59 90  12:00 100 (gap)  17:00 110 (gap)
 *               10-31 18:30 120
 *   steps       10-30 23:00-10-31 01:00 120 (all in 10-30's window)
 *               10-31 11:30-12:30 60 (half in 10-30's window, half in the gap)
 *               10-31 17:30-18:30 60 (half in the gap, half in 10-31's)
 *   DST         11-02 19:00 65, 11-03 01:30 PDT 75, 01:30 PST 85: one
 *               window of 19 hours
 *
 * Raw samples and rollups give the same rows; --when days pick windows. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hq/query.h"
#include "hq/rollup.h"
#include "hq/store.h"
#include "tap.h"

#define L(m, d, h, mi) hq_time_from_local(2024, m, d, h, mi, 0)

static int64_t
day_number(int m, int d)
{
	return hq_time_days_from_civil(2024, m, d);
}

static struct hq_store *
make_store(const char *path)
{
	struct hq_err e;
	struct hq_store *s = hq_store_open(path, HQ_STORE_CREATE, &e);
	int64_t hr, steps, watch;
	int64_t pdt130 = L(11, 3, 1, 30);
	struct { int64_t *metric; int64_t start, end; double v; } rows[] = {
		{ &hr, L(10, 30, 17, 59), 0, 50 }, { &hr, L(10, 30, 18, 0), 0, 60 },
		{ &hr, L(10, 30, 23, 0), 0, 70 }, { &hr, L(10, 31, 2, 0), 0, 80 },
		{ &hr, L(10, 31, 11, 59), 0, 90 }, { &hr, L(10, 31, 12, 0), 0, 100 },
		{ &hr, L(10, 31, 17, 0), 0, 110 }, { &hr, L(10, 31, 18, 30), 0, 120 },
		{ &hr, L(11, 2, 19, 0), 0, 65 }, { &hr, pdt130, 0, 75 },
		{ &hr, pdt130 + 3600, 0, 85 },
		{ &steps, L(10, 30, 23, 0), L(10, 31, 1, 0), 120 },
		{ &steps, L(10, 31, 11, 30), L(10, 31, 12, 30), 60 },
		{ &steps, L(10, 31, 17, 30), L(10, 31, 18, 30), 60 },
	};

	if (!s) {
		printf("# %s\n", e.msg);
		return NULL;
	}
	hr = hq_store_metric_id(s, "HKQuantityTypeIdentifierHeartRate", 1, &e);
	steps = hq_store_metric_id(s, "HKQuantityTypeIdentifierStepCount", 1, &e);
	watch = hq_store_source_id(s, "Apple Watch", 1, &e);
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct hq_sample x = { .metric_id = *rows[i].metric, .source_id = watch,
		    .start = rows[i].start, .end = rows[i].end ? rows[i].end : rows[i].start,
		    .value = rows[i].v };
		if (hq_store_add_sample(s, &x, &e) < 0)
			printf("# %s\n", e.msg);
	}
	return s;
}

/* Rows of metric by day (windows when night): "10-30 75 n=4; ...". */
static const char *
rows(struct hq_store *s, const char *metric, const char *aggs, int night,
    int no_rollup, const struct hq_dayset *days, int *from_rollup)
{
	static char text[512];
	struct hq_query q = { .from = L(10, 29, 0, 0), .to = L(11, 5, 0, 0), .by = HQ_DAY,
	    .no_rollup = no_rollup, .days = days };
	struct hq_series sr;
	struct hq_err e;
	size_t len = 0;

	if (hq_query_resolve(s, metric, &q.metric, &e) ||
	    hq_stats_parse_aggs(aggs, q.aggs, HQ_MAX_AGGS, &q.naggs, &e))
		return "bad test";
	if (night) {
		q.day_from_hour = 18;
		q.day_to_hour = 12;
	}
	if (hq_query_run(s, &q, &sr, &e)) {
		snprintf(text, sizeof text, "error: %.400s", e.msg);
		return text;
	}
	text[0] = '\0';
	for (size_t i = 0; i < sr.n; i++) {
		int y, m, d;
		hq_time_civil_from_days(sr.rows[i].day, &y, &m, &d);
		len += (size_t)snprintf(text + len, sizeof text - len, "%s%02d-%02d %.10g n=%ld",
		    i ? "; " : "", m, d, sr.rows[i].v[0], sr.rows[i].n);
		for (size_t k = 1; k < sr.naggs; k++)
			len += (size_t)snprintf(text + len, sizeof text - len, " %.10g",
			    sr.rows[i].v[k]);
	}
	if (from_rollup)
		*from_rollup = sr.from_rollup;
	hq_series_free(&sr);
	return text;
}

static void
check_all(struct hq_store *s, int no_rollup, const char *how)
{
	int64_t d31 = day_number(10, 31);
	struct hq_dayset only31 = { &d31, 1 };
	int fr = -1;

	is_str(rows(s, "heart_rate", "avg,max", 1, no_rollup, NULL, &fr),
	    "10-30 75 n=4 90; 10-31 120 n=1 120; 11-02 75 n=3 85",
	    "%s: heart rate by evening-to-noon window; noon to 18:00 counts for no day", how);
	ok(fr == !no_rollup, "%s: %s", how, no_rollup ? "read from samples" : "answered by the rollups");
	is_str(rows(s, "heart_rate", "avg", 0, no_rollup, NULL, NULL),
	    "10-30 60 n=3; 10-31 100 n=5; 11-02 65 n=1; 11-03 80 n=2",
	    "%s: without a window, calendar days as before", how);
	is_str(rows(s, "steps", "sum", 1, no_rollup, NULL, &fr),
	    "10-30 150 n=2; 10-31 30 n=0",
	    "%s: steps split pro rata at 12:00 and 18:00; the gap's share counts nowhere"
	    " (n: samples starting in the window)", how);
	ok(fr == !no_rollup, "%s: steps %s", how, no_rollup ? "from samples" : "from the merged rollups");
	is_str(rows(s, "heart_rate", "avg", 1, no_rollup, &only31, NULL), "10-31 120 n=1",
	    "%s: --when days pick windows by their day", how);
}

int
main(void)
{
	char dir[] = "/tmp/hq-window-test.XXXXXX", path[256];
	struct hq_store *s;
	struct hq_err e;

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof path, "%s/hq.db", dir);
	ok(hq_time_set_zone("America/Los_Angeles", &e) == 0, "zone set");
	s = make_store(path);
	ok(s != NULL, "a store of a week around the November DST change");
	if (!s)
		return done_testing();
	check_all(s, 1, "raw");

	/* The DST night: its window is 19 hours long. */
	{
		struct hq_query q = { .from = L(11, 2, 0, 0), .to = L(11, 4, 0, 0), .by = HQ_DAY,
		    .day_from_hour = 18, .day_to_hour = 12, .no_rollup = 1 };
		struct hq_series sr;
		hq_query_resolve(s, "heart_rate", &q.metric, &e);
		ok(hq_query_run(s, &q, &sr, &e) == 0 && sr.n == 1, "one window over the DST night");
		if (sr.n == 1) {
			is_int(sr.rows[0].end - sr.rows[0].start, 19 * 3600, "from 18:00 PDT to 12:00 PST: 19 hours");
			is_int(sr.rows[0].start, L(11, 2, 18, 0), "starting 18:00 on the day it is keyed by");
		}
		hq_series_free(&sr);
	}

	/* Windows are for day buckets of samples. */
	{
		struct hq_query q = { .from = INT64_MIN, .to = INT64_MAX, .by = HQ_WEEK,
		    .day_from_hour = 18, .day_to_hour = 12 };
		struct hq_series sr;
		hq_query_resolve(s, "heart_rate", &q.metric, &e);
		ok(hq_query_run(s, &q, &sr, &e) < 0 && strstr(e.msg, "day buckets"),
		    "by week with a window: refused (%s)", e.msg);
		q.by = HQ_DAY;
		hq_query_resolve(s, "sleep", &q.metric, &e);
		ok(hq_query_run(s, &q, &sr, &e) < 0 && strstr(e.msg, "per night"),
		    "sleep with a window: refused, nights are keyed already");
		hq_query_resolve(s, "heart_rate", &q.metric, &e);
		q.day_from_hour = 6;
		q.day_to_hour = 12;
		ok(hq_query_run(s, &q, &sr, &e) < 0, "windows that would overlap: refused");
	}

	ok(hq_store_begin(s, &e) == 0 && hq_rollup_refresh(s, 1, &e) == 0 &&
	    hq_store_commit(s, &e) == 0, "rollups refreshed");
	check_all(s, 0, "rollups");

	hq_store_close(s);
	unlink(path);
	rmdir(dir);
	return done_testing();
}
