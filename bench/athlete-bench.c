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
 *   athlete-bench export FILE   the same workouts, pauses, heart rates and
 *                               powers (not the routes) as an Apple Health
 *                               export.xml, for hq-ingest
 *   athlete-bench keep DB       every kept figure deleted, then what
 *                               hq-ingest does once its imports have
 *                               committed (hq_athlete_keep_figures): prints
 *                               its seconds
 *   athlete-bench kept DB       the daily load series on the store as it is
 *                               (as hq-ingest leaves it: every workout's
 *                               figures kept) and the SQL pass, alternately,
 *                               3 each: prints their medians
 *   athlete-bench bests DB      every route's bests (hq-report(1)'s distances) and
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
#include <time.h>

#include "hq/athlete_bests.h"
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

/* Where the generated data goes: the store's tables (make) or an Apple
 * Health export (export). Each returns 0, or -1 to stop. */
struct sink {
	int (*workout)(void *arg, int64_t id, const char *type, int64_t start,
	    int64_t end);
	int (*event)(void *arg, int64_t id, const char *type, int64_t date);
	int (*sample)(void *arg, int power, int64_t t, double v);
	int (*route)(void *arg, int64_t id);
	int (*point)(void *arg, int64_t route, int64_t k, int64_t t, double lat,
	    double lon, double ele);
	void *arg;
};

/* Ten years of workouts into k, the same for every sink (the random
 * numbers are drawn whatever a sink keeps): the number, or -1. */
static long
generate(const struct sink *k)
{
	int64_t t0 = 1451635200;                  /* 2016-01-01 08:00 UTC */
	int64_t end = 1767254400;                 /* 2026-01-01 */
	long n = 0;
	static const char *const types[3] = {
		"HKWorkoutActivityTypeRunning", "HKWorkoutActivityTypeCycling",
		"HKWorkoutActivityTypeWalking",
	};

	for (int64_t t = t0; t < end; t += 35 * 3600) {
		int kind = (int)(n % 3);
		int64_t len = 2700 + (int64_t)(uniform() * 2700), id = ++n;
		double base = 120 + 40 * uniform();

		if (k->workout(k->arg, id, types[kind], t, t + len))
			return -1;
		if (n % 3 == 0 &&
		    (k->event(k->arg, id, "HKWorkoutEventTypePause", t + len / 2) ||
		    k->event(k->arg, id, "HKWorkoutEventTypeResume", t + len / 2 + 120)))
			return -1;
		for (int64_t u = t; u < t + len; u += 5)
			if (k->sample(k->arg, 0, u, round(base + 25 * sin((double)(u - t) /
			    400) + 6 * uniform())))
				return -1;
		if (kind == 1 && n % 4 == 1)
			for (int64_t u = t; u < t + len; u++)
				if (k->sample(k->arg, 1, u, round(180 + 80 * uniform())))
					return -1;
		if (kind != 2 && t >= 1609488000) {      /* 2021 on */
			double lat = 37.7, lon = -122.4, v = kind ? 8 : 3;
			if (k->route(k->arg, id))
				return -1;
			for (int64_t u = t, j = 0; u < t + len; u += 2, j++) {
				lat += v * 2 * (0.7 + 0.6 * uniform()) / 111195.0;
				if (k->point(k->arg, id, j, u, lat, lon, 100 + 30 *
				    sin((double)j / 300) + uniform()))
					return -1;
			}
		}
	}
	return n;
}

/* ---- make: the store's tables ---- */

struct tables {
	sqlite3_stmt *w, *smp, *ev, *rt, *pt;
	int64_t metric[2], src;
};

static int
step(sqlite3_stmt *q)
{
	int rc = sqlite3_step(q);

	sqlite3_reset(q);
	return rc == SQLITE_DONE ? 0 : -1;
}

static int
t_workout(void *arg, int64_t id, const char *type, int64_t start, int64_t end)
{
	struct tables *b = arg;

	sqlite3_bind_int64(b->w, 1, id);
	sqlite3_bind_text(b->w, 2, type, -1, SQLITE_STATIC);
	sqlite3_bind_int64(b->w, 3, b->src);
	sqlite3_bind_int64(b->w, 4, start);
	sqlite3_bind_int64(b->w, 5, end);
	return step(b->w);
}

static int
t_event(void *arg, int64_t id, const char *type, int64_t date)
{
	struct tables *b = arg;

	sqlite3_bind_int64(b->ev, 1, id);
	sqlite3_bind_text(b->ev, 2, type, -1, SQLITE_STATIC);
	sqlite3_bind_int64(b->ev, 3, date);
	return step(b->ev);
}

static int
t_sample(void *arg, int power, int64_t t, double v)
{
	struct tables *b = arg;

	sqlite3_bind_int64(b->smp, 1, b->metric[power]);
	sqlite3_bind_int64(b->smp, 2, b->src);
	sqlite3_bind_int64(b->smp, 3, t);
	sqlite3_bind_int64(b->smp, 4, t);
	sqlite3_bind_double(b->smp, 5, v);
	return step(b->smp);
}

static int
t_route(void *arg, int64_t id)
{
	struct tables *b = arg;

	sqlite3_bind_int64(b->rt, 1, id);
	sqlite3_bind_int64(b->rt, 2, id);
	return step(b->rt);
}

static int
t_point(void *arg, int64_t route, int64_t k, int64_t t, double lat,
    double lon, double ele)
{
	struct tables *b = arg;

	sqlite3_bind_int64(b->pt, 1, route);
	sqlite3_bind_int64(b->pt, 2, k);
	sqlite3_bind_int64(b->pt, 3, t);
	sqlite3_bind_double(b->pt, 4, lat);
	sqlite3_bind_double(b->pt, 5, lon);
	sqlite3_bind_double(b->pt, 6, ele);
	return step(b->pt);
}

static int
make(const char *path)
{
	struct hq_err e;
	struct hq_store *s = hq_store_open(path, HQ_STORE_CREATE, &e);
	struct tables b = {0};
	struct sink k = { t_workout, t_event, t_sample, t_route, t_point, &b };
	long n;

	if (!s)
		return fail(s, &e);
	if (hq_store_begin(s, &e) ||
	    (b.metric[0] = hq_store_metric_id(s, HR_ID, 1, &e)) < 0 ||
	    (b.metric[1] = hq_store_metric_id(s, POWER_ID, 1, &e)) < 0 ||
	    (b.src = hq_store_source_id(s, "Apple Watch", 1, &e)) < 0 ||
	    hq_store_prepare(s, "INSERT INTO workout(id, activity_type, source_id,"
	    " start, end) VALUES (?,?,?,?,?)", &b.w, &e) ||
	    hq_store_prepare(s, "INSERT INTO sample(metric_id, source_id, start,"
	    " end, value) VALUES (?,?,?,?,?)", &b.smp, &e) ||
	    hq_store_prepare(s, "INSERT INTO workout_event(workout_id, type, date)"
	    " VALUES (?,?,?)", &b.ev, &e) ||
	    hq_store_prepare(s, "INSERT INTO route(id, workout_id) VALUES (?,?)",
	    &b.rt, &e) ||
	    hq_store_prepare(s, "INSERT INTO route_point(route_id, seq, time, lat,"
	    " lon, ele) VALUES (?,?,?,?,?,?)", &b.pt, &e))
		return fail(s, &e);
	n = generate(&k);
	if (n < 0)
		hq_err_set(&e, "writing: %s", sqlite3_errmsg(hq_store_db(s)));
	sqlite3_finalize(b.w);
	sqlite3_finalize(b.smp);
	sqlite3_finalize(b.ev);
	sqlite3_finalize(b.rt);
	sqlite3_finalize(b.pt);
	if (n < 0 || hq_store_commit(s, &e))
		return fail(s, &e);
	printf("%ld workouts\n", n);
	hq_store_close(s);
	return 0;
}

/* ---- export: the same as an Apple Health export.xml, for hq-ingest ---- */

struct xml {
	FILE *f;
	int open;                  /* a Workout element open */
};

static void
xml_date(FILE *f, const char *name, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	char b[32];

	gmtime_r(&tt, &tm);
	strftime(b, sizeof b, "%Y-%m-%d %H:%M:%S +0000", &tm);
	fprintf(f, " %s=\"%s\"", name, b);
}

static void
xml_close(struct xml *x)
{
	if (x->open)
		fputs(" </Workout>\n", x->f);
	x->open = 0;
}

static int
x_workout(void *arg, int64_t id, const char *type, int64_t start, int64_t end)
{
	struct xml *x = arg;

	(void)id;
	xml_close(x);
	fprintf(x->f, " <Workout workoutActivityType=\"%s\" duration=\"%.10g\""
	    " durationUnit=\"min\" sourceName=\"Apple Watch\"", type,
	    (double)(end - start) / 60);
	xml_date(x->f, "startDate", start);
	xml_date(x->f, "endDate", end);
	fputs(">\n", x->f);
	x->open = 1;
	return 0;
}

static int
x_event(void *arg, int64_t id, const char *type, int64_t date)
{
	struct xml *x = arg;

	(void)id;
	fprintf(x->f, "  <WorkoutEvent type=\"%s\"", type);
	xml_date(x->f, "date", date);
	fputs("/>\n", x->f);
	return 0;
}

static int
x_sample(void *arg, int power, int64_t t, double v)
{
	struct xml *x = arg;

	xml_close(x);
	fprintf(x->f, " <Record type=\"%s\" sourceName=\"Apple Watch\" unit=\"%s\"",
	    power ? POWER_ID : HR_ID, power ? "W" : "count/min");
	xml_date(x->f, "startDate", t);
	xml_date(x->f, "endDate", t);
	fprintf(x->f, " value=\"%.10g\"/>\n", v);
	return ferror(x->f) ? -1 : 0;
}

static int
x_route(void *arg, int64_t id)
{
	(void)arg;
	(void)id;
	return 0;
}

static int
x_point(void *arg, int64_t route, int64_t k, int64_t t, double lat,
    double lon, double ele)
{
	(void)arg, (void)route, (void)k, (void)t, (void)lat, (void)lon, (void)ele;
	return 0;
}

static int
export(const char *path)
{
	struct xml x = { fopen(path, "w"), 0 };
	struct sink k = { x_workout, x_event, x_sample, x_route, x_point, &x };
	long n;

	if (!x.f) {
		perror(path);
		return 2;
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<HealthData locale=\"en_US\">\n"
	    " <ExportDate value=\"2026-01-01 00:00:00 +0000\"/>\n", x.f);
	n = generate(&k);
	xml_close(&x);
	fputs("</HealthData>\n", x.f);
	if (n < 0 || fclose(x.f)) {
		fprintf(stderr, "athlete-bench: %s: cannot write\n", path);
		return 2;
	}
	printf("%ld workouts\n", n);
	return 0;
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
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The store as hq-ingest leaves it (every workout's figures kept at the
 * import): the daily load series and the SQL pass, alternately, 3 each;
 * prints their medians. */
static int
kept(const char *path)
{
	struct hq_err e;
	struct hq_store *s = hq_store_open(path, HQ_STORE_READONLY, &e);
	double h[3], b[3];

	if (!s)
		return fail(s, &e);
	for (int i = 0; i < 3; i++)
		if (load_once(s, &h[i], &e) || sql_once(s, &b[i], &e))
			return fail(s, &e);
	qsort(h, 3, sizeof *h, cmp_double);
	qsort(b, 3, sizeof *b, cmp_double);
	printf("%.4f %.4f\n", h[1], b[1]);
	hq_store_close(s);
	return 0;
}

/* What hq-ingest does after its imports: every workout's figures without
 * a kept row computed and kept (hq_athlete_keep_figures), after every
 * kept row is deleted (as an import of every workout would drop them);
 * prints its seconds. */
static int
keep(const char *path)
{
	struct hq_err e = { "" };
	struct hq_store *s = hq_store_open(path, 0, &e);
	double t;

	if (!s || hq_store_exec(s, "DELETE FROM workout_figures", &e))
		return fail(s, &e);
	hq_store_close(s);
	if (!(s = hq_store_open(path, HQ_STORE_READONLY, &e)))
		return fail(s, &e);
	t = hq_time_monotonic();
	if (hq_athlete_keep_figures(s, &e) != 1) {
		if (!e.msg[0])
			hq_err_set(&e, "%s: the figures not kept", path);
		return fail(s, &e);
	}
	printf("%.4f\n", hq_time_monotonic() - t);
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
	if (argc == 3 && strcmp(argv[1], "export") == 0)
		return export(argv[2]);
	if (argc == 3 && strcmp(argv[1], "keep") == 0)
		return keep(argv[2]);
	if (argc == 3 && strcmp(argv[1], "kept") == 0)
		return kept(argv[2]);
	fprintf(stderr, "usage: athlete-bench make|load|bests|keep|kept DB\n"
	    "       athlete-bench export FILE\n");
	return 2;
}
