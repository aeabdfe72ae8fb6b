/*
 * athlete-bench: the data and the baselines for bench/athlete.sh.
 *
 *   athlete-bench make DB       ten years (2016-2025) of workouts, one every
 *                               35 hours (2,503), 45 to 90 minutes each, heart
 *                               rate every 5 s from the workout's own source,
 *                               a pause in one of three; a ride in four with
 *                               1 s power; the last five years' runs and
 *                               rides with a route (a point every 2 s,
 *                               altitudes)
 *   athlete-bench load DB       times the daily load series (the settings'
 *                               defaults from the store, then
 *                               hq_athlete_days over every workout) with
 *                               nothing kept and with every workout's
 *                               figures kept (athlete_cache.h), and one
 *                               plain SQL pass over the heart-rate samples
 *                               (count and sum), alternately, best of 3 each:
 *                               prints the first run's seconds, the SQL
 *                               pass's, the in-memory summaries' and the
 *                               second (kept) run's
 *   athlete-bench bests DB      every route's bests (SPEC's distances) and
 *                               every ride's best powers, one workout at a
 *                               time: prints seconds and the peak RSS in MB
 *
 * Engine level: the commands that will call it (hq-report load, bests) are
 * not wired yet. Never installed (a helper of make bench).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "hq/athlete.h"
#include "hq/err.h"
#include "hq/store.h"
#include "hq/time.h"

#include "bench.h"

#define HR_ID "HKQuantityTypeIdentifierHeartRate"
#define POWER_ID "HKQuantityTypeIdentifierCyclingPower"

static int
fail(struct hq_store *s, const struct hq_err *e)
{
	fprintf(stderr, "athlete-bench: %s\n", e->msg);
	hq_store_close(s);
	return 2;
}

static int
step(sqlite3_stmt *q)
{
	int rc = sqlite3_step(q);

	sqlite3_reset(q);
	return rc == SQLITE_DONE ? 0 : -1;
}

static int
make(const char *path)
{
	struct hq_err e;
	struct hq_store *s = hq_store_open(path, HQ_STORE_CREATE, &e);
	sqlite3_stmt *w, *smp, *ev, *rt, *pt;
	int64_t hr, pw, src, t0 = 1451635200;     /* 2016-01-01 08:00 UTC */
	int64_t end = 1767254400;                 /* 2026-01-01 */
	long n = 0;
	static const char *const types[3] = {
		"HKWorkoutActivityTypeRunning", "HKWorkoutActivityTypeCycling",
		"HKWorkoutActivityTypeWalking",
	};

	if (!s)
		return fail(s, &e);
	if (hq_store_begin(s, &e) ||
	    (hr = hq_store_metric_id(s, HR_ID, 1, &e)) < 0 ||
	    (pw = hq_store_metric_id(s, POWER_ID, 1, &e)) < 0 ||
	    (src = hq_store_source_id(s, "Apple Watch", 1, &e)) < 0 ||
	    hq_store_prepare(s, "INSERT INTO workout(id, activity_type, source_id,"
	    " start, end) VALUES (?,?,?,?,?)", &w, &e) ||
	    hq_store_prepare(s, "INSERT INTO sample(metric_id, source_id, start,"
	    " end, value) VALUES (?,?,?,?,?)", &smp, &e) ||
	    hq_store_prepare(s, "INSERT INTO workout_event(workout_id, type, date)"
	    " VALUES (?,?,?)", &ev, &e) ||
	    hq_store_prepare(s, "INSERT INTO route(id, workout_id) VALUES (?,?)",
	    &rt, &e) ||
	    hq_store_prepare(s, "INSERT INTO route_point(route_id, seq, time, lat,"
	    " lon, ele) VALUES (?,?,?,?,?,?)", &pt, &e))
		return fail(s, &e);
	for (int64_t t = t0; t < end; t += 35 * 3600) {
		int kind = (int)(n % 3);
		int64_t len = 2700 + (int64_t)(uniform() * 2700), id = ++n;
		double base = 120 + 40 * uniform();

		sqlite3_bind_int64(w, 1, id);
		sqlite3_bind_text(w, 2, types[kind], -1, SQLITE_STATIC);
		sqlite3_bind_int64(w, 3, src);
		sqlite3_bind_int64(w, 4, t);
		sqlite3_bind_int64(w, 5, t + len);
		if (step(w))
			goto sqlfail;
		if (n % 3 == 0) {
			sqlite3_bind_int64(ev, 1, id);
			sqlite3_bind_text(ev, 2, "HKWorkoutEventTypePause", -1, SQLITE_STATIC);
			sqlite3_bind_int64(ev, 3, t + len / 2);
			if (step(ev))
				goto sqlfail;
			sqlite3_bind_text(ev, 2, "HKWorkoutEventTypeResume", -1, SQLITE_STATIC);
			sqlite3_bind_int64(ev, 3, t + len / 2 + 120);
			if (step(ev))
				goto sqlfail;
		}
		for (int64_t u = t; u < t + len; u += 5) {
			sqlite3_bind_int64(smp, 1, hr);
			sqlite3_bind_int64(smp, 2, src);
			sqlite3_bind_int64(smp, 3, u);
			sqlite3_bind_int64(smp, 4, u);
			sqlite3_bind_double(smp, 5, round(base + 25 * sin((double)(u - t) /
			    400) + 6 * uniform()));
			if (step(smp))
				goto sqlfail;
		}
		if (kind == 1 && n % 4 == 1)
			for (int64_t u = t; u < t + len; u++) {
				sqlite3_bind_int64(smp, 1, pw);
				sqlite3_bind_int64(smp, 2, src);
				sqlite3_bind_int64(smp, 3, u);
				sqlite3_bind_int64(smp, 4, u);
				sqlite3_bind_double(smp, 5, round(180 + 80 * uniform()));
				if (step(smp))
					goto sqlfail;
			}
		if (kind != 2 && t >= 1609488000) {      /* 2021 on */
			double lat = 37.7, lon = -122.4, v = kind ? 8 : 3;
			sqlite3_bind_int64(rt, 1, id);
			sqlite3_bind_int64(rt, 2, id);
			if (step(rt))
				goto sqlfail;
			for (int64_t u = t, k = 0; u < t + len; u += 2, k++) {
				lat += v * 2 * (0.7 + 0.6 * uniform()) / 111195.0;
				sqlite3_bind_int64(pt, 1, id);
				sqlite3_bind_int64(pt, 2, k);
				sqlite3_bind_int64(pt, 3, u);
				sqlite3_bind_double(pt, 4, lat);
				sqlite3_bind_double(pt, 5, lon);
				sqlite3_bind_double(pt, 6, 100 + 30 * sin((double)k / 300) +
				    uniform());
				if (step(pt))
					goto sqlfail;
			}
		}
	}
	sqlite3_finalize(w);
	sqlite3_finalize(smp);
	sqlite3_finalize(ev);
	sqlite3_finalize(rt);
	sqlite3_finalize(pt);
	if (hq_store_commit(s, &e))
		return fail(s, &e);
	printf("%ld workouts\n", n);
	hq_store_close(s);
	return 0;
sqlfail:
	hq_err_set(&e, "writing: %s", sqlite3_errmsg(hq_store_db(s)));
	return fail(s, &e);
}

static int
load_once(struct hq_store *s, double *secs, struct hq_err *e)
{
	struct hq_athlete a;
	struct hq_athlete_day *d;
	size_t n;
	double t = hq_time_monotonic();

	hq_athlete_init(&a);
	if (hq_athlete_defaults(&a, s, e) ||
	    hq_athlete_days(s, &a, NULL, 0, 0, &d, &n, e))
		return -1;
	*secs = hq_time_monotonic() - t;
	free(d);
	return n > 0 ? 0 : -1;
}

static int
sql_once(struct hq_store *s, double *secs, struct hq_err *e)
{
	sqlite3_stmt *q;
	double t = hq_time_monotonic();
	int rc;

	if (hq_store_prepare(s, "SELECT count(*), total(value) FROM sample"
	    " WHERE metric_id = (SELECT id FROM metric WHERE identifier = '"
	    HR_ID "')", &q, e))
		return -1;
	rc = sqlite3_step(q);
	sqlite3_finalize(q);
	*secs = hq_time_monotonic() - t;
	return rc == SQLITE_ROW ? 0 : -1;
}

/* The summaries a cache would keep, gathered once. */
struct sums {
	struct hq_athlete_summary *s;
	size_t n;
};

static int
keep_sum(void *arg, const struct hq_athlete_workout *w,
    const struct hq_athlete_figures *f)
{
	struct sums *k = arg;

	(void)f;
	k->s = realloc(k->s, (k->n + 1) * sizeof *k->s);
	if (!k->s)
		return 1;
	hq_athlete_summarize(w, &k->s[k->n++]);
	return 0;
}

/* The series from summaries alone: max_hr from their maxima, each
 * workout's figures, the days, the recurrences. */
static double
from_sums(const struct sums *k)
{
	struct hq_athlete a;
	struct hq_athlete_figures f;
	struct hq_athlete_day *d;
	double t = hq_time_monotonic();
	int64_t first, last;
	size_t n;

	hq_athlete_init(&a);
	a.max_hr = NAN;
	for (size_t i = 0; i < k->n; i++)
		if (isnan(a.max_hr) || k->s[i].hr_sample_max > a.max_hr)
			a.max_hr = k->s[i].hr_sample_max;
	a.rest_hr = 60;
	a.lthr = a.rest_hr + 0.85 * (a.max_hr - a.rest_hr);
	first = hq_time_local_day(k->s[0].start);
	last = hq_time_local_day(k->s[k->n - 1].start);
	n = (size_t)(last - first + 1);
	d = calloc(n, sizeof *d);
	for (size_t i = 0; d && i < k->n; i++) {
		hq_athlete_figures_of(&a, &k->s[i], &f);
		d[hq_time_local_day(k->s[i].start) - first].load +=
		    isnan(f.load) ? 0 : f.load;
	}
	if (d)
		hq_athlete_pmc(d, n);
	free(d);
	return hq_time_monotonic() - t;
}

static int
load(const char *path)
{
	struct hq_err e;
	struct hq_store *s = hq_store_open(path, HQ_STORE_READONLY, &e), *w;
	double best_h = 1e9, best_b = 1e9, best_k = 1e9, h, b;

	if (!s)
		return fail(s, &e);
	/* First runs: nothing kept (the rows deleted through a writable
	 * connection, as a new import would make them stale); then runs
	 * that find every workout's figures kept. */
	for (int i = 0; i < 3; i++) {
		if (!(w = hq_store_open(path, 0, &e)) ||
		    hq_store_exec(w, "DELETE FROM workout_figures", &e))
			return fail(w, &e);
		hq_store_close(w);
		if (load_once(s, &h, &e) || sql_once(s, &b, &e))
			return fail(s, &e);
		best_h = h < best_h ? h : best_h;
		best_b = b < best_b ? b : best_b;
	}
	for (int i = 0; i < 3; i++) {
		if (load_once(s, &h, &e) || sql_once(s, &b, &e))
			return fail(s, &e);
		best_k = h < best_k ? h : best_k;
		best_b = b < best_b ? b : best_b;
	}
	/* The same from kept summaries (in memory: a cache's reading not
	 * counted). */
	struct sums k = {0};
	struct hq_athlete a;
	double best_c = 1e9;
	hq_athlete_init(&a);
	if (hq_athlete_each(s, &a, NULL, 0, 0, 0, HQ_ATHLETE_LOAD_ONLY, keep_sum,
	    &k, &e) < 0 || k.n == 0)
		return fail(s, &e);
	for (int i = 0; i < 3; i++) {
		double c = from_sums(&k);
		best_c = c < best_c ? c : best_c;
	}
	for (size_t i = 0; i < k.n; i++)
		hq_athlete_summary_free(&k.s[i]);
	free(k.s);
	printf("%.4f %.4f %.6f %.4f\n", best_h, best_b, best_c, best_k);
	hq_store_close(s);
	return 0;
}

static int
one_best(void *arg, const struct hq_athlete_workout *w,
    const struct hq_athlete_figures *f)
{
	static const double targets[] = { 400, 1000, 1609.344, 5000, 10000,
	    21097.5, 42195, 20000, 40000, 100000 };
	static const int64_t windows[] = { 5, 60, 300, 1200, 3600 };
	struct hq_store *s = arg;
	struct hq_route_pt *pt;
	struct hq_err e;
	size_t n;
	double v;
	int64_t from;

	(void)f;
	if (hq_athlete_route(s, w->id, &pt, &n, &e)) {
		fprintf(stderr, "athlete-bench: %s\n", e.msg);
		return 1;
	}
	for (size_t i = 0; n && i < sizeof targets / sizeof targets[0]; i++)
		hq_athlete_best_distance(pt, n, w->start, w->end, w->pauses,
		    w->npauses, targets[i], &v, &from);
	for (size_t i = 0; w->npower && i < sizeof windows / sizeof windows[0]; i++)
		hq_athlete_best_power(w->power, w->npower, windows[i], &v, &from);
	free(pt);
	return 0;
}

static int
bests(const char *path)
{
	struct hq_err e;
	struct hq_store *s = hq_store_open(path, HQ_STORE_READONLY, &e);
	struct hq_athlete a;
	struct rusage ru;
	double t = hq_time_monotonic();
	long n;

	if (!s)
		return fail(s, &e);
	hq_athlete_init(&a);
	/* Five years: 2021 on. */
	n = hq_athlete_each(s, &a, NULL, 0, 1609488000, 0, HQ_ATHLETE_LOAD_ONLY,
	    one_best, s, &e);
	if (n < 0)
		return fail(s, &e);
	getrusage(RUSAGE_SELF, &ru);
	printf("%.4f %.1f %ld\n", hq_time_monotonic() - t,
	    (double)ru.ru_maxrss / 1024, n);
	hq_store_close(s);
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "make") == 0)
		return make(argv[2]);
	if (argc == 3 && strcmp(argv[1], "load") == 0)
		return load(argv[2]);
	if (argc == 3 && strcmp(argv[1], "bests") == 0)
		return bests(argv[2]);
	fprintf(stderr, "usage: athlete-bench make|load|bests DB\n");
	return 2;
}
