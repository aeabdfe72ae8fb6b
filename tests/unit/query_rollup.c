/* Unit tests for lib/store/rollup.c and migration 2: rollups kept by
 * hq_rollup_refresh() at import equal those the migration builds from the
 * samples already in a store, refreshes never fold a sample twice, and
 * queries fall back to raw samples while rollups are stale. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hq/query.h"
#include "hq/rollup.h"
#include "hq/store.h"
#include "tap.h"

static void
add(struct hq_store *s, int64_t m, int64_t src, int64_t start, int64_t end,
    double v)
{
	struct hq_sample x = { .metric_id = m, .source_id = src, .start = start,
	    .end = end, .value = v };
	struct hq_err e;

	if (hq_store_add_sample(s, &x, &e) < 0)
		printf("# %s\n", e.msg);
}

static void
fill(struct hq_store *s, int64_t m, int64_t src, int from, int to)
{
	/* Per-minute values and 7-minute cumulative spans that cross slots. */
	for (int i = from; i < to; i++)
		add(s, m, src, 1733126400 + i * 60, 1733126400 + i * 60 + 420,
		    (double)(i % 17) + 0.25);
}

/* A digest of the rollup table: sums of every column, weighted by slot. */
static void
digest(struct hq_store *s, double out[6])
{
	sqlite3_stmt *st;
	struct hq_err e;

	for (int i = 0; i < 6; i++)
		out[i] = NAN;
	if (hq_store_prepare(s, "SELECT count(*), sum(n), sum(sum), sum(sumsq), "
	    "sum(psum * (slot % 7919)), sum(pn) FROM rollup", &st, &e))
		return;
	if (sqlite3_step(st) == SQLITE_ROW)
		for (int i = 0; i < 6; i++)
			out[i] = sqlite3_column_double(st, i);
	sqlite3_finalize(st);
}

/* Back to schema version 1: drop every table and view a later migration
 * added, so that reopening runs migrations 2... over the samples already
 * there. */
static int
rewind_to_1(struct hq_store *s)
{
	static const char *const v1 = " metric source device import sample "
	    "sample_meta hrv_beat correlation correlation_member workout "
	    "workout_meta workout_activity workout_stat workout_event route "
	    "route_point activity_summary clinical_record me ";
	sqlite3_stmt *st;
	struct hq_err e;
	char *names[64], *types[64];
	int n = 0, rc = 0;

	if (hq_store_prepare(s, "SELECT name, type FROM sqlite_master WHERE type IN "
	    "('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY type = 'table'", &st, &e))
		return -1;
	while (sqlite3_step(st) == SQLITE_ROW && n < 64) {
		char pat[128];
		const char *name = (const char *)sqlite3_column_text(st, 0);
		snprintf(pat, sizeof pat, " %s ", name);
		if (!strstr(v1, pat)) {
			types[n] = strdup((const char *)sqlite3_column_text(st, 1));
			names[n++] = strdup(name);
		}
	}
	sqlite3_finalize(st);
	for (int i = 0; i < n; i++) {
		char sql[160];
		/* IF EXISTS: a virtual table (search's, migration 13) takes
		 * its shadow tables with it */
		snprintf(sql, sizeof sql, "DROP %s IF EXISTS \"%s\"",
		    strcmp(types[i], "view") ? "TABLE" : "VIEW", names[i]);
		if (hq_store_exec(s, sql, &e))
			rc = -1;
		free(names[i]);
		free(types[i]);
	}
	return rc ? rc : hq_store_exec(s, "PRAGMA user_version = 1", &e);
}

int
main(void)
{
	char dir[] = "/tmp/hq-rollup-test.XXXXXX", a[256], b[256];
	struct hq_store *s, *t;
	struct hq_err e;
	double da[6], db[6];

	if (!mkdtemp(dir))
		return 1;
	snprintf(a, sizeof a, "%s/a.db", dir);
	snprintf(b, sizeof b, "%s/b.db", dir);

	/* a: samples arrive in two imports, each refreshed. */
	s = hq_store_open(a, HQ_STORE_CREATE, &e);
	ok(s != NULL, "create a");
	if (!s)
		return done_testing();
	int64_t m = hq_store_metric_id(s, "HKQuantityTypeIdentifierStepCount", 1, &e);
	int64_t w = hq_store_source_id(s, "Watch", 1, &e);
	int64_t p = hq_store_source_id(s, "Phone", 1, &e);
	hq_store_begin(s, &e);
	fill(s, m, w, 0, 500);
	ok(hq_rollup_refresh(s, 1, &e) == 0, "first refresh");
	hq_store_commit(s, &e);
	ok(hq_rollup_current(s), "rollups are current after a refresh");
	hq_store_begin(s, &e);
	int64_t first = hq_store_last_id(s) + 1;
	fill(s, m, p, 250, 900);
	ok(!hq_rollup_current(s), "new samples make them stale");
	ok(hq_rollup_refresh(s, first, &e) == 0, "second refresh");
	ok(hq_rollup_refresh(s, first, &e) == 0, "a repeated refresh...");
	hq_store_commit(s, &e);
	digest(s, da);

	/* b: the same samples, no refresh; then the migration builds them. */
	t = hq_store_open(b, HQ_STORE_CREATE, &e);
	m = hq_store_metric_id(t, "HKQuantityTypeIdentifierStepCount", 1, &e);
	w = hq_store_source_id(t, "Watch", 1, &e);
	p = hq_store_source_id(t, "Phone", 1, &e);
	fill(t, m, w, 0, 500);
	fill(t, m, p, 250, 900);
	ok(rewind_to_1(t) == 0, "rewind b to schema 1 (drop every later table)");
	hq_store_close(t);
	t = hq_store_open(b, 0, &e);
	ok(t != NULL, "reopen b: migration 2 runs over the stored samples");
	if (!t)
		printf("# %s\n", e.msg);
	if (!t) {
		hq_store_close(s);
		return done_testing();
	}
	digest(t, db);
	for (int i = 0; i < 6; i++)
		is_dbl(da[i], db[i], 1e-6 * fabs(db[i]), "...folds nothing twice; rollup column %d: refreshed = migrated", i);
	ok(da[0] > 50, "there are rollup rows (%g)", da[0]);
	ok(hq_rollup_current(t), "migrated rollups are current");

	/* Stale rollups are not used: a sample added without a refresh shows
	 * up in the query all the same. */
	struct hq_query q = {0};
	struct hq_series r1, r2;
	hq_time_set_zone("UTC", &e);
	hq_query_resolve(t, "steps", &q.metric, &e);
	q.from = INT64_MIN;
	q.to = INT64_MAX;
	q.by = HQ_DAY;
	q.source = "Watch";
	ok(hq_query_run(t, &q, &r1, &e) == 0 && r1.n == 1, "one day of Watch steps");
	ok(r1.from_rollup, "answered from the rollups");
	add(t, m, w, 1733126400 + 3600 * 10, 1733126400 + 3600 * 10 + 60, 1000);
	ok(hq_query_run(t, &q, &r2, &e) == 0 && r2.n == 1, "again after an unrefreshed insert");
	ok(!r2.from_rollup, "answered from raw samples");
	is_dbl(r2.rows[0].v[0] - r1.rows[0].v[0], 1000, 1e-6, "and the new sample counts");
	hq_series_free(&r1);
	hq_series_free(&r2);

	/* Merged steps (Watch and Phone overlap) where days start on the half
	 * hour: from the 15-minute merged rollups, as from the samples. */
	static const char *const zones[] = { "America/Los_Angeles", "Asia/Kolkata",
		"Asia/Kathmandu" };
	for (size_t z = 0; z < 3; z++) {
		struct hq_query mq = {0};
		struct hq_series ra, rb;
		int same;
		hq_time_set_zone(zones[z], &e);
		hq_query_resolve(s, "steps", &mq.metric, &e);
		mq.from = INT64_MIN;
		mq.to = INT64_MAX;
		mq.by = z == 2 ? HQ_HOUR : HQ_DAY;
		hq_stats_parse_aggs("sum,count", mq.aggs, HQ_MAX_AGGS, &mq.naggs, &e);
		ok(hq_query_run(s, &mq, &ra, &e) == 0 && ra.from_rollup,
		    "%s: merged steps from the rollups", zones[z]);
		mq.no_rollup = 1;
		ok(hq_query_run(s, &mq, &rb, &e) == 0 && !rb.from_rollup && rb.n > 0,
		    "%s: and from the samples", zones[z]);
		same = ra.n == rb.n;
		for (size_t i = 0; same && i < ra.n; i++)
			same = ra.rows[i].start == rb.rows[i].start &&
			    fabs(ra.rows[i].v[0] - rb.rows[i].v[0]) < 1e-9 * fabs(rb.rows[i].v[0]) + 1e-9 &&
			    ra.rows[i].v[1] == rb.rows[i].v[1];
		ok(same, "%s: the same %zu rows", zones[z], rb.n);
		hq_series_free(&ra);
		hq_series_free(&rb);
	}

	hq_store_close(s);
	hq_store_close(t);
	unlink(a);
	unlink(b);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
	return done_testing();
}
