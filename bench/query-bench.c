/*
 * query-bench: the data and the baseline for bench/query.sh.
 *
 *   query-bench make DB [YEARS]   a store with YEARS (default 5) of
 *                                 per-minute heart rate from a Watch, and
 *                                 steps from a Watch and an iPhone that
 *                                 overlap, as one import (rollups refreshed
 *                                 in it, as hq-ingest does)
 *   query-bench baseline DB WHAT  times the straightforward SQL GROUP BY over
 *                                 the raw sample table, best of 3, and
 *                                 prints the seconds: WHAT is hr-day,
 *                                 steps-week, steps-day, hr-day-year or
 *                                 hr-day-when (heart rate by day on the
 *                                 days with at least 12000 steps: --when)
 *   query-bench hq DB WHAT        times hq_query_run() for the same
 *                                 question in the same way (in process,
 *                                 as the baseline, so neither pays for
 *                                 starting a process); hr-day-when goes
 *                                 through hq_select_run(), as hq-query.
 *                                 More questions, each against one of
 *                                 the baselines: hr-day-median (median
 *                                 and p90 by day), hr-median (the whole
 *                                 range's), steps-week-prio (a configured
 *                                 source priority: merged from raw
 *                                 samples), steps-day (in $TZ, which may
 *                                 be a zone whose days start on the
 *                                 half hour)
 *
 * Never installed (a helper of make bench).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hq/err.h"
#include "hq/query.h"
#include "hq/rollup.h"
#include "hq/select.h"
#include "hq/store.h"
#include "hq/time.h"

#include "bench.h"

/* hr-day-when: the days with at least this many steps (merged, in hq). */
#define WHEN_STEPS "12000"

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int
make(const char *path, int years)
{
	struct hq_err e;
	struct hq_store *s = hq_store_open(path, HQ_STORE_CREATE, &e);
	int64_t t0 = 1577865600;  /* 2020-01-01T08:00:00Z, midnight in LA */
	int64_t days = 365L * years + years / 4;
	long n = 0;
	double start = now(), t_ins, t_roll;

	if (!s) {
		fprintf(stderr, "query-bench: %s\n", e.msg);
		return 2;
	}
	int64_t hr = hq_store_metric_id(s, "HKQuantityTypeIdentifierHeartRate", 1, &e);
	int64_t st = hq_store_metric_id(s, "HKQuantityTypeIdentifierStepCount", 1, &e);
	int64_t watch = hq_store_source_id(s, "Sam's Apple Watch", 1, &e);
	int64_t phone = hq_store_source_id(s, "Sam's iPhone", 1, &e);
	if (hq_store_exec(s, "PRAGMA synchronous = OFF", &e) || hq_store_begin(s, &e))
		goto fail;
	for (int64_t d = 0; d < days; d++) {
		int64_t day = t0 + d * 86400;
		for (int m = 0; m < 1440; m++) {
			struct hq_sample x = { .metric_id = hr, .source_id = watch,
			    .start = day + m * 60 + 7, .value = 55 + 40 * uniform() };
			x.end = x.start;
			if (hq_store_add_sample(s, &x, &e) < 0)
				goto fail;
			n++;
		}
		/* Walking bouts from 07:00 to 22:00: the Watch writes one
		 * sample per bout, the phone in the pocket writes its own. */
		for (int64_t t = day + 7 * 3600; t < day + 22 * 3600;) {
			int len = 120 + (int)(uniform() * 600);
			struct hq_sample w = { .metric_id = st, .source_id = watch,
			    .start = t, .end = t + len, .value = (double)(int)(len * 1.6 * uniform()) };
			struct hq_sample p = { .metric_id = st, .source_id = phone,
			    .start = t + 30, .end = t + len + 90, .value = (double)(int)(len * 1.5 * uniform()) };
			if (uniform() < 0.8) {
				if (hq_store_add_sample(s, &w, &e) < 0)
					goto fail;
				n++;
			}
			if (uniform() < 0.7) {
				if (hq_store_add_sample(s, &p, &e) < 0)
					goto fail;
				n++;
			}
			t += len + 300 + (int)(uniform() * 1800);
		}
	}
	t_ins = now();
	if (hq_rollup_refresh(s, 1, &e) || hq_store_commit(s, &e))
		goto fail;
	t_roll = now();
	printf("samples %ld insert_s %.2f rollup_refresh_s %.2f\n", n,
	    t_ins - start, t_roll - t_ins);
	hq_store_close(s);
	return 0;
fail:
	fprintf(stderr, "query-bench: %s\n", e.msg);
	hq_store_close(s);
	return 2;
}

static int
baseline(const char *path, const char *what)
{
	struct hq_err e;
	struct hq_store *s = hq_store_open(path, HQ_STORE_READONLY, &e);
	const char *sql;
	double best = 1e9;
	long rows = 0;

	if (!s) {
		fprintf(stderr, "query-bench: %s\n", e.msg);
		return 2;
	}
	/* What a careful person writes without hq: group the raw samples by
	 * a day (or week) in SQLite's own local time. */
	if (strcmp(what, "hr-day") == 0)
		sql = "SELECT date(start, 'unixepoch', 'localtime') AS d, avg(value), "
		    "count(*) FROM sample WHERE metric_id = (SELECT id FROM metric "
		    "WHERE identifier = 'HKQuantityTypeIdentifierHeartRate') GROUP BY d";
	else if (strcmp(what, "hr-day-year") == 0)
		sql = "SELECT date(start, 'unixepoch', 'localtime') AS d, avg(value), "
		    "count(*) FROM sample WHERE metric_id = (SELECT id FROM metric "
		    "WHERE identifier = 'HKQuantityTypeIdentifierHeartRate') AND "
		    "start >= 1672560000 AND start < 1704096000 GROUP BY d";
	else if (strcmp(what, "hr-day-when") == 0)
		/* The day's steps summed as stored: without hq, nobody merges
		 * the two devices, so this baseline does less than hq does. */
		sql = "SELECT date(start, 'unixepoch', 'localtime') AS d, avg(value), "
		    "count(*) FROM sample WHERE metric_id = (SELECT id FROM metric "
		    "WHERE identifier = 'HKQuantityTypeIdentifierHeartRate') AND "
		    "d IN (SELECT date(start, 'unixepoch', 'localtime') AS sd FROM "
		    "sample WHERE metric_id = (SELECT id FROM metric WHERE identifier "
		    "= 'HKQuantityTypeIdentifierStepCount') GROUP BY sd HAVING "
		    "sum(value) >= " WHEN_STEPS ") GROUP BY d";
	else if (strcmp(what, "steps-week") == 0)
		sql = "SELECT strftime('%Y-%W', start, 'unixepoch', 'localtime') AS w, "
		    "sum(value), count(*) FROM sample WHERE metric_id = (SELECT id FROM "
		    "metric WHERE identifier = 'HKQuantityTypeIdentifierStepCount') "
		    "GROUP BY w";
	else if (strcmp(what, "steps-day") == 0)
		sql = "SELECT date(start, 'unixepoch', 'localtime') AS d, "
		    "sum(value), count(*) FROM sample WHERE metric_id = (SELECT id FROM "
		    "metric WHERE identifier = 'HKQuantityTypeIdentifierStepCount') "
		    "GROUP BY d";
	else {
		fprintf(stderr, "query-bench: unknown baseline '%s'\n", what);
		hq_store_close(s);
		return 2;
	}
	for (int i = 0; i < 3; i++) {
		sqlite3_stmt *st;
		double t = now();
		if (hq_store_prepare(s, sql, &st, &e)) {
			fprintf(stderr, "query-bench: %s\n", e.msg);
			hq_store_close(s);
			return 2;
		}
		rows = 0;
		while (sqlite3_step(st) == SQLITE_ROW)
			rows++;
		sqlite3_finalize(st);
		t = now() - t;
		if (t < best)
			best = t;
	}
	printf("%.4f %ld\n", best, rows);
	hq_store_close(s);
	return 0;
}

static int
count_row(void *ctx, const struct hq_select_series *sr, const struct hq_row *r,
    struct hq_err *e)
{
	(void)ctx;
	(void)sr;
	(void)r;
	(void)e;
	return 0;
}

/* heart_rate --by day --when 'steps.sum>=N', as hq-query runs it. */
static long
engine_when(struct hq_store *s, struct hq_err *e)
{
	static const char *const metrics[] = { "heart_rate" };
	struct hq_select sel;
	struct hq_select_sink sink = { NULL, count_row, NULL };
	long rows = -1;

	hq_select_init(&sel);
	sel.metrics = metrics;
	sel.nmetrics = 1;
	sel.by = HQ_DAY;
	if (hq_select_add_when(&sel, "steps.sum>=" WHEN_STEPS, e) == 0)
		rows = hq_select_run(s, &sel, &sink, e);
	hq_select_free(&sel);
	return rows;
}

static int
engine(const char *path, const char *what)
{
	struct hq_err e;
	struct hq_store *s = hq_store_open(path, HQ_STORE_READONLY, &e);
	struct hq_query q = {0};
	struct hq_priority prio;
	double best = 1e9;
	size_t rows = 0;

	if (!s || hq_time_set_zone(NULL, &e)) {
		fprintf(stderr, "query-bench: %s\n", e.msg);
		hq_store_close(s);
		return 2;
	}
	q.from = INT64_MIN;
	q.to = INT64_MAX;
	q.by = HQ_DAY;
	hq_merge_priority_parse(&prio, "iPhone, Watch");
	if (strncmp(what, "steps-", 6) == 0) {
		hq_query_resolve(s, "steps", &q.metric, &e);
		if (strncmp(what, "steps-week", 10) == 0)
			q.by = HQ_WEEK;
		if (strcmp(what, "steps-week-prio") == 0)
			q.priority = &prio;
	} else
		hq_query_resolve(s, "heart_rate", &q.metric, &e);
	if (strcmp(what, "hr-day-median") == 0 || strcmp(what, "hr-median") == 0) {
		hq_stats_parse_aggs("median,p90", q.aggs, HQ_MAX_AGGS, &q.naggs, &e);
		q.whole = strcmp(what, "hr-median") == 0;
		if (q.whole)
			q.by = HQ_PERIOD_NONE;
	}
	if (strcmp(what, "hr-day-year") == 0) {
		q.from = hq_time_from_local(2023, 1, 1, 0, 0, 0);
		q.to = hq_time_from_local(2024, 1, 1, 0, 0, 0);
	}
	for (int i = 0; i < 3; i++) {
		struct hq_series sr = {0};
		double t = now();
		long n = strcmp(what, "hr-day-when") == 0 ? engine_when(s, &e)
		    : hq_query_run(s, &q, &sr, &e) ? -1 : (long)sr.n;
		if (n < 0) {
			fprintf(stderr, "query-bench: %s\n", e.msg);
			hq_merge_priority_free(&prio);
			hq_store_close(s);
			return 2;
		}
		t = now() - t;
		rows = (size_t)n;
		hq_series_free(&sr);
		if (t < best)
			best = t;
	}
	printf("%.4f %zu\n", best, rows);
	hq_merge_priority_free(&prio);
	hq_store_close(s);
	return 0;
}

int
main(int argc, char **argv)
{
	long years = 5;

	if (argc >= 3 && strcmp(argv[1], "make") == 0) {
		if (argc > 3)
			years = strtol(argv[3], NULL, 10);
		if (years < 1 || years > 20)
			years = 5;
		return make(argv[2], (int)years);
	}
	if (argc == 4 && strcmp(argv[1], "baseline") == 0)
		return baseline(argv[2], argv[3]);
	if (argc == 4 && strcmp(argv[1], "hq") == 0)
		return engine(argv[2], argv[3]);
	fprintf(stderr, "usage: query-bench make DB [YEARS] | baseline|hq DB hr-day|steps-week|hr-day-year|hr-day-when\n");
	return 2;
}
