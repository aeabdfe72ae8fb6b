/*
 * cgm-bench: the data and the baseline for bench/cgm.sh.
 *
 *   cgm-bench make DB [COPY]     a year (2023) of 5-minute glucose readings
 *                                (105,120) from one sensor in
 *                                America/Los_Angeles; with COPY, the same
 *                                readings again 15 s later from a second
 *                                source (the Dexcom app's copy in Apple
 *                                Health); the rollups brought up
 *                                to date, as hq-ingest does
 *   cgm-bench compare DB WHAT    times hq_cgm_report_run() for WHAT
 *                                (metrics: hq-report cgm, agp: --agp, day:
 *                                --by day) and the plain SQL over the raw
 *                                samples (count, mean, SD and the in-range
 *                                count), alternately, five runs each, and
 *                                prints the best seconds of each
 *
 * Both run in this process, so neither pays for starting one. Never
 * installed (a helper of make bench).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/catalog.h"
#include "hq/cgm_read.h"
#include "hq/err.h"
#include "hq/rollup.h"
#include "hq/store.h"
#include "hq/time.h"

#include "bench.h"

/* Say why, close the store: exit status 2. */
static int
fail(struct hq_store *s, const struct hq_err *e)
{
	fprintf(stderr, "cgm-bench: %s\n", e->msg);
	hq_store_close(s);
	return 2;
}

static int
make(const char *path, int copy)
{
	struct hq_err e;
	struct hq_store *s = hq_store_open(path, HQ_STORE_CREATE, &e);
	int64_t t0 = 1672560000;   /* 2023-01-01T08:00:00Z, midnight in LA */
	double g = 120;
	long n = 0;

	if (!s)
		return fail(s, &e);
	int64_t m = hq_store_metric_id(s, hq_catalog_lookup("blood_glucose")->identifier, 1, &e);
	int64_t sensor = hq_store_source_id(s, "Dexcom G7 (SN BENCH1)", 1, &e);
	int64_t apple = hq_store_source_id(s, "Dexcom G7", 1, &e);
	if (hq_store_exec(s, "PRAGMA synchronous = OFF", &e) || hq_store_begin(s, &e))
		goto fail;
	for (int64_t t = t0 + 41; t < t0 + 365 * 86400; t += 300) {
		/* A wandering level pulled back to 125, meals now and then. */
		g += (125 - g) * 0.02 + (uniform() - 0.5) * 9;
		if (uniform() < 0.004)
			g += 60 * uniform();
		g = fmin(401, fmax(39, g));
		struct hq_sample x = { .metric_id = m, .source_id = sensor,
		    .start = t, .end = t, .value = round(g), .unit = "mg/dL" };
		if (hq_store_add_sample(s, &x, &e) < 0)
			goto fail;
		n++;
		if (copy) {
			x.source_id = apple;
			x.start = x.end = t + 15;
			if (hq_store_add_sample(s, &x, &e) < 0)
				goto fail;
			n++;
		}
	}
	/* The rollups, as every import brings them up to date (hq-report cgm
	 * ranks the sources from them). */
	if (hq_rollup_refresh(s, 1, &e) || hq_store_commit(s, &e))
		goto fail;
	printf("samples %ld\n", n);
	hq_store_close(s);
	return 0;
fail:
	return fail(s, &e);
}

/* One run of the plain SQL: its seconds (and the mean it found), or -1. */
/* noinline: callgrind --toggle-collect=baseline_once counts it alone */
static __attribute__((noinline)) double
baseline_once(struct hq_store *s, double *mean, struct hq_err *e)
{
	sqlite3_stmt *st;
	double t = hq_time_monotonic();

	/* What a careful person writes without hq. */
	if (hq_store_prepare(s, "SELECT count(*), avg(value), "
	    "sqrt((sum(value * value) - sum(value) * sum(value) / count(*)) "
	    "/ (count(*) - 1)), sum(value BETWEEN 70 AND 180) FROM sample "
	    "WHERE metric_id = (SELECT id FROM metric WHERE identifier = "
	    "'HKQuantityTypeIdentifierBloodGlucose')", &st, e))
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		*mean = sqlite3_column_double(st, 1);
	sqlite3_finalize(st);
	return hq_time_monotonic() - t;
}

/* One run of hq-report cgm's engine for what. */
static __attribute__((noinline)) double
engine_once(struct hq_store *s, const char *what, double *mean,
    struct hq_err *e)
{
	struct hq_cgm_report_opts o = { INT64_MIN, INT64_MAX, HQ_PERIOD_NONE, 0 };
	struct hq_cgm_report r;
	double t = hq_time_monotonic();

	o.agp = strcmp(what, "agp") == 0;
	if (strcmp(what, "day") == 0)
		o.by = HQ_DAY;
	if (hq_cgm_report_run(s, &o, &r, e) != 1)
		return -1;
	t = hq_time_monotonic() - t;
	*mean = r.total.m.mean;
	hq_cgm_report_free(&r);
	return t;
}

/* The two alternately, five times each (a busy machine slows whichever
 * runs at the wrong moment): the best of each, and both means. */
static int
compare(const char *path, const char *what)
{
	struct hq_err e;
	struct hq_store *s = hq_store_open(path, HQ_STORE_READONLY, &e);
	double best_hq = 1e9, best_sql = 1e9, mean_hq = 0, mean_sql = 0, t;

	if (!s || hq_time_set_zone(NULL, &e))
		return fail(s, &e);
	for (int i = 0; i < 5; i++) {
		if ((t = baseline_once(s, &mean_sql, &e)) < 0)
			goto fail;
		best_sql = t < best_sql ? t : best_sql;
		if ((t = engine_once(s, what, &mean_hq, &e)) < 0)
			goto fail;
		best_hq = t < best_hq ? t : best_hq;
	}
	printf("%.4f %.4f mean %.6g %.6g\n", best_hq, best_sql, mean_hq, mean_sql);
	hq_store_close(s);
	return 0;
fail:
	return fail(s, &e);
}

int
main(int argc, char **argv)
{
	if (argc >= 3 && strcmp(argv[1], "make") == 0)
		return make(argv[2], argc > 3);
	if (argc == 4 && strcmp(argv[1], "compare") == 0)
		return compare(argv[2], argv[3]);
	fprintf(stderr, "usage: cgm-bench make DB [copy] | compare DB "
	    "metrics|agp|day\n");
	return 2;
}
