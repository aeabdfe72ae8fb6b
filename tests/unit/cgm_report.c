/* Unit tests for lib/analyze/cgm_report.c and cgm_svg.c over a store: the
 * real Clarity export's readings (tests/fixtures/cgm) give R's metrics
 * (tests/data/cgm/expected.R), alone and again when a second source holds
 * the same readings seconds apart (the Dexcom app's copy in Apple Health),
 * or fills a hole; buckets; the AGP; sensor sessions; an empty range.
 * HQ_SVG_KEEP=DIR keeps the AGP drawings. */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hq/catalog.h"
#include "hq/cgm_read.h"
#include "hq/cgm_svg.h"
#include "hq/cgmfile.h"
#include "fixture.h"
#include "tap.h"
#include "cgm_expected.h"

static struct hq_store *store;
static int64_t metric;

/* Readings of the Clarity export, stored as a reader hands them. */
struct load {
	const char *copy;       /* also store each under this source */
	int64_t shift;          /* seconds the copy is late by */
	int64_t hole_from, hole_to;  /* the original leaves this out */
};

static int
store_reading(void *arg, const struct hq_cgm_reading *r, struct hq_err *e)
{
	const struct load *l = arg;
	struct hq_sample s = { .metric_id = metric, .start = r->time,
	    .end = r->time, .value = r->mgdl, .unit = r->unit };

	if (!l->copy) {
		if (r->time >= l->hole_from && r->time < l->hole_to)
			return 0;
		s.source_id = hq_store_source_id(store, r->source, 1, e);
	} else {
		s.source_id = hq_store_source_id(store, l->copy, 1, e);
		s.start = s.end = r->time + l->shift;
	}
	return hq_store_add_sample(store, &s, e) < 0 ? -1 : 0;
}

static int
load(const struct load *l)
{
	const char *path = fixture_path("cgm", "dexcom-clarity-example.csv");
	struct hq_cgmfile_stats st;
	struct hq_err e;
	int fd, rc;

	if ((fd = open(path, O_RDONLY)) < 0)
		return -1;
	struct hq_cgmfile_input in = { path, hq_csv_fd_read, &fd, NULL, 0 };
	hq_store_begin(store, &e);
	rc = hq_cgmfile_read(&in, HQ_CGMFILE_DEXCOM, HQ_DATES_AUTO,
	    store_reading, (void *)l, &st, &e);
	if (rc)
		printf("# %s\n", e.msg);
	hq_store_commit(store, &e);
	close(fd);
	return rc;
}

static void
keep_svg(const struct hq_cgm_report *r, const char *name)
{
	const char *dir = getenv("HQ_SVG_KEEP");
	char path[1024];
	FILE *f;

	if (!dir)
		return;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	if ((f = fopen(path, "w"))) {
		if (strstr(name, ".html"))
			hq_cgm_html_write(f, r);
		else
			hq_cgm_svg_write(f, r);
		fclose(f);
	}
}

static int
same_metrics(const struct hq_cgm_metrics *a, const struct hq_cgm_metrics *b)
{
	const char *f;

	for (size_t i = 0; (f = hq_cgm_field(i)); i++)
		if (hq_cgm_value(a, f) != hq_cgm_value(b, f)) {
			printf("# %s: %.17g vs %.17g\n", f, hq_cgm_value(a, f),
			    hq_cgm_value(b, f));
			return 0;
		}
	return a->from_day == b->from_day && a->to_day == b->to_day;
}

static int
count_sessions(void *arg, const struct hq_cgm_session *s, struct hq_err *e)
{
	long *n = arg;

	(void)e;
	if (n[0]++ == 0)
		n[1] = s->days;
	n[2] += s->readings;
	return 0;
}

static void
empty_store(const char *path)
{
	struct hq_err e;

	hq_store_close(store);
	unlink(path);
	store = hq_store_open(path, HQ_STORE_CREATE, &e);
	metric = hq_store_metric_id(store, hq_catalog_lookup("blood_glucose")->identifier, 1, &e);
}

int
main(void)
{
	char dir[] = "/tmp/hq-cgm-report.XXXXXX", path[256];
	struct hq_cgm_report_opts all = { INT64_MIN, INT64_MAX, HQ_PERIOD_NONE, 1 };
	struct hq_cgm_report one, r;
	struct hq_err e;
	long sess[3] = { 0, 0, 0 }, sum = 0;
	struct load plain = { 0 };

	if (hq_time_set_zone("America/Los_Angeles", &e) || !mkdtemp(dir))
		return 1;
	snprintf(path, sizeof path, "%s/hq.db", dir);
	store = hq_store_open(path, HQ_STORE_CREATE, &e);
	metric = hq_store_metric_id(store, hq_catalog_lookup("blood_glucose")->identifier, 1, &e);

	is_int(hq_cgm_report_run(store, &all, &one, &e), 0, "an empty store: no readings");

	/* The real export alone. */
	if (!ok(load(&plain) == 0, "the Clarity export stored"))
		return done_testing();
	is_int(hq_cgm_report_run(store, &all, &one, &e), 1, "report over the whole store");
	is_int(one.nrows, 1, "one row without --by");
	is_int(one.nsources, 9, "nine sensors");
	is_int(one.interval_min, 5, "5-minute readings");
	against_r(&one.rows[0].m, "clarity");
	is_int(one.rows[0].m.days, expected("clarity_days", "n"), "days with readings");
	ok(one.has_agp, "the AGP computed");
	for (int i = 0; i < HQ_CGM_AGP_SLOTS; i++)
		sum += one.agp[i].n;
	is_int(sum, 24542, "every reading in one AGP slot");
	is_r(one.agp[0].n, "clarity_agp_0000", "n");
	is_r(one.agp[0].p5, "clarity_agp_0000", "5%");
	is_r(one.agp[0].p50, "clarity_agp_0000", "50%");
	is_r(one.agp[0].p95, "clarity_agp_0000", "95%");
	is_r(one.agp[59].n, "clarity_agp_1445", "n");
	is_r(one.agp[59].p25, "clarity_agp_1445", "25%");
	is_r(one.agp[59].p75, "clarity_agp_1445", "75%");
	is_r(one.agp[59].p95, "clarity_agp_1445", "95%");
	keep_svg(&one, "agp-clarity.svg");
	keep_svg(&one, "agp-clarity.html");
	hq_cgm_sessions(store, count_sessions, sess, &e);
	is_int(sess[0], expected("clarity_sessions", "n"), "sessions: per sensor, split at 2-hour gaps");
	is_int(sess[2], 24542, "sessions hold every reading");

	/* By day and by month: the rows add up to the whole. */
	struct hq_cgm_report_opts byday = { INT64_MIN, INT64_MAX, HQ_DAY, 0 };
	is_int(hq_cgm_report_run(store, &byday, &r, &e), 1, "--by day");
	is_int(r.nrows, 90, "a row per local day");
	sum = 0;
	for (size_t i = 0; i < r.nrows; i++)
		sum += r.rows[i].m.readings;
	is_int(sum, 24542, "day rows add up");
	ok(r.rows[10].m.days == 1 && r.rows[10].m.from_day == r.rows[10].m.to_day,
	    "a day row spans its day");
	ok(r.rows[10].m.coverage_pct > 90 && r.rows[10].m.coverage_pct <= 100,
	    "a whole day's coverage against 288 readings (%.4g)", r.rows[10].m.coverage_pct);
	hq_cgm_report_free(&r);
	struct hq_cgm_report_opts june = { 0, 0, HQ_MONTH, 0 };
	hq_time_parse("2024-06-01T00:00:00-07:00", &june.from);
	hq_time_parse("2024-07-01T00:00:00-07:00", &june.to);
	is_int(hq_cgm_report_run(store, &june, &r, &e), 1, "--from/--to June, --by month");
	is_int(r.nrows, 1, "one month");
	is_int(r.rows[0].m.from_day, hq_time_days_from_civil(2024, 6, 6), "June: from the first reading");
	is_int(r.rows[0].m.to_day, hq_time_days_from_civil(2024, 6, 30), "June: to the 30th");
	hq_cgm_report_free(&r);
	struct hq_cgm_report_opts none = { 0, 1000, HQ_PERIOD_NONE, 1 };
	is_int(hq_cgm_report_run(store, &none, &r, &e), 0, "a range without readings: 0");

	/* The same readings again from a second source, 20 s late: the
	 * same metrics exactly, whichever source is ranked first. */
	struct load copy = { .copy = "Dexcom G7 (Apple Health)", .shift = 20 };
	load(&copy);
	is_int(hq_cgm_report_run(store, &all, &r, &e), 1, "report over two copies");
	is_int(r.nsources, 10, "ten sources");
	is_int(r.readings_stored, 2 * 24542, "every reading stored twice");
	is_int(r.rows[0].m.readings, 24542, "counted once");
	struct hq_cgm_metrics a = r.rows[0].m;
	hq_cgm_report_free(&r);
	ok(a.readings == one.rows[0].m.readings && fabs(a.mean - one.rows[0].m.mean) < 1e-9 &&
	    fabs(a.sd - one.rows[0].m.sd) < 1e-9 && a.tir == one.rows[0].m.tir &&
	    a.lbgi - one.rows[0].m.lbgi < 1e-12, "two copies: the metrics of one");

	/* The copy alone, then the copy plus an original with a week's hole:
	 * the copy counts (it has most), the original adds nothing. */
	empty_store(path);
	load(&copy);
	is_int(hq_cgm_report_run(store, &all, &r, &e), 1, "the Apple copy alone");
	struct hq_cgm_metrics apple = r.rows[0].m;
	hq_cgm_report_free(&r);
	ok(apple.readings == 24542 && fabs(apple.mean - one.rows[0].m.mean) < 1e-9,
	    "the copy alone: the same readings");
	struct load holed = { .hole_from = 0, .hole_to = 0 };
	hq_time_parse("2024-07-01T00:00:00-07:00", &holed.hole_from);
	hq_time_parse("2024-07-08T00:00:00-07:00", &holed.hole_to);
	load(&holed);
	is_int(hq_cgm_report_run(store, &all, &r, &e), 1, "copy and holed original");
	ok(same_metrics(&r.rows[0].m, &apple), "the original adds nothing the copy has");
	hq_cgm_report_free(&r);

	/* The other way round: the original (most readings, but a hole) and
	 * a copy that has only that week fills it. */
	empty_store(path);
	load(&holed);
	load(&copy);
	{
		/* Of the copy, keep the hole's week only. */
		char sql[256];
		snprintf(sql, sizeof sql, "DELETE FROM sample WHERE source_id = "
		    "(SELECT id FROM source WHERE name = '%s') AND (start < %lld "
		    "OR start >= %lld)", copy.copy, (long long)holed.hole_from + 20,
		    (long long)holed.hole_to + 20);
		hq_store_exec(store, sql, &e);
	}
	is_int(hq_cgm_report_run(store, &all, &r, &e), 1, "holed original and the week's copy");
	is_int(r.rows[0].m.readings, 24542, "the copy fills the hole: every reading once");
	ok(fabs(r.rows[0].m.mean - one.rows[0].m.mean) < 1e-9 &&
	    r.rows[0].m.tir == one.rows[0].m.tir, "and the metrics are those of the whole export");
	hq_cgm_report_free(&r);

	hq_cgm_report_free(&one);
	hq_store_close(store);   /* the last connection: SQLite removes the WAL */
	unlink(path);
	ok(rmdir(dir) == 0, "nothing left behind");
	return done_testing();
}
