/* Unit tests for the per-workout figures kept between runs
 * (lib/analyze/athlete_cache.c, athlete_cache.h): on the generated data
 * (tests/data/athlete/generated.sql), the figures a walk gets from the
 * kept summaries are those computed from the samples, bit for bit, for
 * any settings; once kept, they are read without the samples (deleted
 * here, the figures stay); an import drops only the rows it could change
 * (one with heart rate outside every workout: none; one with heart rate
 * in a workout: that one), and the next walk computes those from the
 * store as it is then. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hq/athlete_load.h"
#include "hq/buf.h"
#include "hq/ingest.h"
#include "hq/store.h"
#include "hq/time.h"
#include "fixture.h"
#include "tap.h"

static struct hq_err e;

struct walk {
	int64_t id[64];
	struct hq_athlete_figures f[64];
	size_t n, cached;
};

static int
keep(void *arg, const struct hq_athlete_workout *w,
    const struct hq_athlete_figures *f)
{
	struct walk *k = arg;

	if (k->n == 64)
		return 1;
	k->id[k->n] = w->id;
	k->f[k->n++] = *f;
	k->cached += w->cached != 0;
	return 0;
}

static long
walk(struct hq_store *s, const struct hq_athlete *a, unsigned flags,
    struct walk *k)
{
	memset(k, 0, sizeof *k);
	return hq_athlete_each(s, a, NULL, 0, 0, 0, flags, keep, k, &e);
}

/* Every figure the same, NaN as NaN. */
static int
same_double(double x, double y)
{
	return (isnan(x) && isnan(y)) || x == y;
}

static int
same_at(const struct walk *x, const struct walk *y, size_t i)
{
	const struct hq_athlete_figures *f = &x->f[i], *g = &y->f[i];
	int ok = x->id[i] == y->id[i] &&
	    same_double(f->moving_min, g->moving_min) &&
	    same_double(f->hr_minutes, g->hr_minutes) &&
	    same_double(f->hr_coverage_pct, g->hr_coverage_pct) &&
	    same_double(f->trimp, g->trimp) && same_double(f->hrss, g->hrss) &&
	    same_double(f->edwards, g->edwards) &&
	    same_double(f->avg_hr, g->avg_hr) &&
	    same_double(f->max_hr, g->max_hr) && same_double(f->np, g->np) &&
	    same_double(f->if_, g->if_) && same_double(f->tss, g->tss) &&
	    same_double(f->power_s, g->power_s) &&
	    same_double(f->load, g->load) &&
	    same_double(f->elevation_gain_m, g->elevation_gain_m);
	for (int z = 0; z < 6; z++)
		ok = ok && same_double(f->z_min[z], g->z_min[z]);
	if (!ok)
		printf("# workout %lld differs\n", (long long)x->id[i]);
	return ok;
}

static int
same(const struct walk *x, const struct walk *y)
{
	if (x->n != y->n || x->n == 0)
		return 0;
	for (size_t i = 0; i < x->n; i++)
		if (!same_at(x, y, i))
			return 0;
	return 1;
}

static size_t
with_load(const struct walk *k)
{
	size_t n = 0;

	for (size_t i = 0; i < k->n; i++)
		n += !isnan(k->f[i].load);
	return n;
}

static int64_t
count(struct hq_store *s, const char *sql)
{
	sqlite3_stmt *q;
	int64_t n = -1;

	if (hq_store_prepare(s, sql, &q, &e))
		return -1;
	if (sqlite3_step(q) == SQLITE_ROW)
		n = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return n;
}

static int64_t
one(struct hq_store *s, const char *sql)
{
	return count(s, sql);
}

/* An import of n heart rates, 5 s apart from t (count/min v): how many
 * were inserted, -1. */
static int
import_hr(struct hq_store *s, int64_t t, int n, int v)
{
	struct hq_ingest *ig = hq_ingest_start(s, "hr.jsonl", "jsonl", -1, &e);
	char val[16];
	int got = 0;

	if (!ig)
		return -1;
	snprintf(val, sizeof val, "%d", v);
	for (int k = 0; k < n; k++) {
		struct hq_ingest_record r = {
			.type = "HKQuantityTypeIdentifierHeartRate",
			.source = "Strap", .unit = "count/min", .value_str = val,
			.start = t + 5 * k, .end = t + 5 * k,
		};
		got += hq_ingest_record(ig, &r, NULL, &e) == 1;
	}
	return hq_ingest_commit(ig, &e) ? -1 : got;
}

int
main(void)
{
	char dir[] = "/tmp/hq-athcache-XXXXXX", db[256];
	struct hq_store *s, *ro;
	struct hq_athlete a, b;
	struct walk plain, kept, other, other_plain;
	struct hq_buf sql = {0};
	char chunk[65536];
	size_t len;
	FILE *fp = fopen("tests/data/athlete/generated.sql", "r");
	double max_hr;
	int64_t t0;
	size_t i, j;
	char sqlbuf[128];
	int rc;

	if (fixture_zone() || !fp || !mkdtemp(dir))
		return 1;
	while ((len = fread(chunk, 1, sizeof chunk, fp)) > 0)
		hq_buf_append(&sql, chunk, len);
	fclose(fp);
	snprintf(db, sizeof db, "%s/hq.db", dir);
	if (!(s = hq_store_open(db, HQ_STORE_CREATE, &e)))
		return 1;
	fixture_sql(s, sql.data);
	hq_buf_free(&sql);
	hq_store_close(s);

	/* As commands open it: read-only, the cache writes on its own. */
	ro = hq_store_open(db, HQ_STORE_READONLY, &e);
	if (!ok(ro != NULL, "the store opened read-only"))
		return done_testing();
	is_int(count(ro, "SELECT count(*) FROM workout_figures"), 0,
	    "nothing kept before the first use");
	hq_athlete_init(&a);
	rc = hq_athlete_defaults(&a, ro, &e);
	ok(rc == 0 && !isnan(a.max_hr), "defaults: max_hr %g from the store",
	    a.max_hr);
	max_hr = a.max_hr;
	is_int(count(ro, "SELECT count(*) FROM workout_figures"),
	    count(ro, "SELECT count(*) FROM workout"),
	    "max_hr's default kept every workout's summary");
	rc = walk(ro, &a, 0, &plain) > 0;
	ok(rc, "a walk from the samples: %zu workouts", plain.n);
	rc = walk(ro, &a, HQ_ATHLETE_CACHED, &kept) > 0;
	ok(rc && kept.cached == kept.n,
	    "a cached walk: %zu of %zu from the kept summaries", kept.cached,
	    kept.n);
	ok(same(&plain, &kept), "the kept figures are the samples' figures, "
	    "bit for bit");
	ok(with_load(&kept) > 0, "%zu workouts have a load", with_load(&kept));

	/* Other settings: the same summaries, the figures of those settings. */
	hq_athlete_init(&b);
	ok(hq_athlete_flag(&b, HQ_ATH_MAX_HR, "--max-hr", "200", &e) == 0 &&
	    hq_athlete_flag(&b, HQ_ATH_REST_HR, "--rest-hr", "45", &e) == 0 &&
	    hq_athlete_flag(&b, HQ_ATH_FTP, "--ftp", "180", &e) == 0 &&
	    hq_athlete_defaults(&b, ro, &e) == 0, "other settings");
	walk(ro, &b, 0, &other_plain);
	ok(walk(ro, &b, HQ_ATHLETE_CACHED, &other) > 0 &&
	    other.cached == other.n && same(&other_plain, &other),
	    "changed settings: still from the kept summaries, the figures of "
	    "the new settings");
	ok(!same(&kept, &other), "and they differ from the first settings'");

	/* The heart rate and power gone (not by an import): the kept
	 * figures stay. (rest_hr's default, the median of the resting heart
	 * rate samples, is still read.) */
	hq_store_close(ro);
	s = hq_store_open(db, 0, &e);
	fixture_sql(s, "DELETE FROM sample WHERE metric_id IN (SELECT id FROM"
	    " metric WHERE identifier IN ('HKQuantityTypeIdentifierHeartRate',"
	    " 'HKQuantityTypeIdentifierCyclingPower'))");
	hq_store_close(s);
	ro = hq_store_open(db, HQ_STORE_READONLY, &e);
	is_int(count(ro, "SELECT count(*) FROM sample s JOIN metric m ON"
	    " m.id = s.metric_id WHERE m.identifier IN"
	    " ('HKQuantityTypeIdentifierHeartRate',"
	    " 'HKQuantityTypeIdentifierCyclingPower')"), 0,
	    "every heart-rate and power sample deleted");
	hq_athlete_init(&a);
	rc = hq_athlete_defaults(&a, ro, &e);
	ok(rc == 0 && a.max_hr == max_hr,
	    "max_hr's default still %g: read from the kept summaries", a.max_hr);
	ok(walk(ro, &a, HQ_ATHLETE_CACHED, &other) > 0 &&
	    other.cached == other.n && same(&kept, &other),
	    "a second run reads no samples: the same figures without them");

	/* An import with nothing the figures read keeps every row: an empty
	 * one, then heart rate on a day without a workout. The figures stay
	 * those of the deleted samples: no sample read. */
	hq_store_close(ro);
	s = hq_store_open(db, 0, &e);
	fixture_sql(s, "INSERT INTO import(path, format, started) VALUES"
	    " ('x', 'jsonl', 0)");
	t0 = one(s, "SELECT min(start) FROM workout") - 3 * 86400;
	ok(import_hr(s, t0, 3, 150) == 3, "an import of heart rate three days "
	    "before the first workout");
	is_int(count(s, "SELECT count(*) FROM workout_figures"),
	    count(s, "SELECT count(*) FROM workout"), "no row dropped");
	hq_store_close(s);
	ro = hq_store_open(db, HQ_STORE_READONLY, &e);
	ok(walk(ro, &a, HQ_ATHLETE_CACHED, &other) > 0 &&
	    other.cached == other.n && same(&kept, &other),
	    "after it every figure is read from the kept rows, as before");

	/* Heart rate inside one workout: that one alone computed again, from
	 * the store as it is (its other heart rate deleted above). */
	for (i = 0; i < kept.n && isnan(kept.f[i].load); i++)
		;
	ok(i < kept.n, "workout %lld has a load",
	    (long long)(i < kept.n ? kept.id[i] : 0));
	hq_store_close(ro);
	s = hq_store_open(db, 0, &e);
	snprintf(sqlbuf, sizeof sqlbuf, "SELECT start FROM workout WHERE id ="
	    " %lld", (long long)kept.id[i]);
	t0 = one(s, sqlbuf);
	ok(import_hr(s, t0 + 60, 5, 170) == 5, "an import of five heart rates "
	    "in it");
	is_int(count(s, "SELECT count(*) FROM workout_figures"),
	    count(s, "SELECT count(*) FROM workout") - 1, "one row dropped");
	hq_store_close(s);
	ro = hq_store_open(db, HQ_STORE_READONLY, &e);
	rc = walk(ro, &a, HQ_ATHLETE_CACHED, &other) > 0;
	ok(rc && other.cached == other.n - 1, "the next walk: %zu of %zu kept",
	    other.cached, other.n);
	for (j = 0; j < other.n && other.id[j] != kept.id[i]; j++)
		;
	/* Each held 5 s to the next, the last 120 s (the workout is longer). */
	ok(j < other.n && other.f[j].hr_minutes == (4 * 5 + 120) / 60.0 &&
	    other.f[j].load != kept.f[i].load, "workout %lld from the store "
	    "as it is: %g min of heart rate", (long long)kept.id[i],
	    j < other.n ? other.f[j].hr_minutes : NAN);
	walk(ro, &a, 0, &plain);
	ok(j < other.n && j < plain.n && same_at(&plain, &other, j),
	    "its figures as from the samples");
	ok(walk(ro, &a, HQ_ATHLETE_CACHED, &other) > 0 &&
	    other.cached == other.n, "and kept again for the next run");
	hq_store_close(ro);
	fixture_remove_store(dir);
	return done_testing();
}
