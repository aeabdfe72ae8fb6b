/* Unit tests for hq-report cgm over more than one source: the report read
 * in one pass (ranks from the rollups, the interval from the first
 * readings, both checked at the end) must print exactly what the two
 * passes printed (count, then count again through the double-source rule).
 *
 * The expected outputs were recorded from the code on main BEFORE the
 * one-pass change (commit b1a85fe, two passes), by running this test with
 * HQ_RECORD=1 there; they are a length and an FNV-1a 64 hash of the JSON
 * hq_cgm_report_print() writes, so every field of every row (and every AGP
 * slot) counts. Each case also runs on a store whose rollups are stale
 * (hq_rollup_current() is 0: the two-pass path) and must print the same.
 *
 * The store: source B ("Phone app", id 1) starts 12 hours late and has as
 * many readings as sensor A (id 2, a 3-hour hole), so they tie and B, the
 * lower id, ranks first; C (a 15-minute Libre) fills A's hole. Ranges not
 * on 15-minute slots, --from or --to alone, --by day/week, --agp, two
 * zones. Then stores where a guess must fail and be redone: a top source
 * whose spacing changes after its first readings (5 then 15 minutes), and
 * readings the rollups do not count (text set), which change the ranking. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hq/catalog.h"
#include "hq/cgm_out.h"
#include "hq/cgm_read.h"
#include "hq/rollup.h"
#include "hq/store.h"
#include "hq/time.h"
#include "tap.h"

#define T0 1709884800    /* 2024-03-08T00:00:00-08:00; DST on the 10th */
#define H 3600
#define D 86400

static struct hq_store *store;
static int64_t metric;
static uint32_t seed = 12345;
static int record;

static double
level(void)
{
	seed = seed * 1103515245u + 12345u;
	return 40 + (double)((seed >> 8) % 311);
}

static void
add(int64_t source, int64_t t, double v, const char *text)
{
	struct hq_sample x = { .metric_id = metric, .source_id = source,
	    .start = t, .end = t, .value = v, .unit = "mg/dL", .text = text };
	struct hq_err e;

	if (hq_store_add_sample(store, &x, &e) < 0)
		printf("# %s\n", e.msg);
}

/* n readings of source every step seconds from t, none in [hole_from,
 * hole_to). */
static void
series(int64_t source, int64_t t, long n, int64_t step, int64_t hole_from,
    int64_t hole_to)
{
	for (long i = 0; i < n; i++, t += step)
		if (t < hole_from || t >= hole_to)
			add(source, t, level(), NULL);
}

/* A new store at path; refresh: bring the rollups up to date, as every
 * import does. */
static void
open_store(const char *path)
{
	struct hq_err e;

	hq_store_close(store);
	unlink(path);
	store = hq_store_open(path, HQ_STORE_CREATE, &e);
	metric = hq_store_metric_id(store,
	    hq_catalog_lookup("blood_glucose")->identifier, 1, &e);
	hq_store_begin(store, &e);
}

static void
close_load(int refresh)
{
	struct hq_err e;

	if (refresh && hq_rollup_refresh(store, 1, &e))
		printf("# %s\n", e.msg);
	hq_store_commit(store, &e);
}

static int64_t
source(const char *name)
{
	struct hq_err e;

	return hq_store_source_id(store, name, 1, &e);
}

static void
ties(void)
{
	int64_t b = source("Phone app"), a = source("Sensor A"),
	    c = source("Libre C");

	series(a, T0 + 20, 864, 300, T0 + D + 2 * H, T0 + D + 5 * H);
	series(b, T0 + 12 * H + 50, 828, 300, 0, 0);
	series(c, T0 + D + 7, 200, 900, 0, 0);
}

/* The top source (A) 5-minutely for 1500 readings, then 15-minutely for
 * 4000: its median spacing is 15 minutes. B copies it 20 s late, less a
 * few. */
static void
spacing(void)
{
	int64_t a = source("Sensor A"), b = source("Phone app");

	seed = 99;
	for (long i = 0; i < 5500; i++) {
		int64_t t = T0 + (i < 1500 ? i * 300 : 1500 * 300 + (i - 1500) * 900);
		double v = level();
		add(a, t, v, NULL);
		if (i % 7)
			add(b, t + 20, v, NULL);
	}
}

/* X has most readings, but two thirds of them carry a text, which the
 * rollups leave out: Y looks first there. */
static void
texts(void)
{
	int64_t x = source("X"), y = source("Y");

	seed = 7;
	for (long i = 0; i < 900; i++)
		add(x, T0 + i * 300, level(), i % 3 ? "reading" : NULL);
	series(y, T0 + 100, 600, 300, 0, 0);
}

static uint64_t
fnv(const char *p, size_t n)
{
	uint64_t h = 14695981039346656037u;

	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)p[i];
		h *= 1099511628211u;
	}
	return h;
}

struct want {
	const char *name;
	size_t len;
	uint64_t hash;
};

static const struct want wants[] = {
#include "cgm_onepass_expected.h"
};

static void
check(const char *name, const char *zone, int64_t from, int64_t to,
    enum hq_period by, int agp, const char *store_kind)
{
	struct hq_cgm_report_opts o = { from, to, by, agp };
	struct hq_err e;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	uint64_t h;
	int rc;

	hq_time_set_zone(zone, &e);
	rc = hq_cgm_report_print(store, &o, "json", f, &e);
	fclose(f);
	h = fnv(buf, len);
	if (record) {
		if (strcmp(store_kind, "fresh") == 0)
			printf("{ \"%s\", %zu, 0x%016llxu },\n", name, len,
			    (unsigned long long)h);
	} else {
		const struct want *w = NULL;
		for (size_t i = 0; i < sizeof wants / sizeof wants[0]; i++)
			if (strcmp(wants[i].name, name) == 0)
				w = &wants[i];
		if (!ok(rc == 0 && w && w->len == len && w->hash == h,
		    "%s (%s rollups): as on main", name, store_kind))
			printf("#   rc %d len %zu hash 0x%016llx\n", rc, len,
			    (unsigned long long)h);
	}
	free(buf);
}

static void
cases_ties(const char *kind)
{
	int64_t f1 = T0 + 7 * H + 7 * 60 + 13, t1 = T0 + 2 * D + 3 * H + 61;

	check("ties all", "America/Los_Angeles", INT64_MIN, INT64_MAX,
	    HQ_PERIOD_NONE, 0, kind);
	check("ties all agp", "America/Los_Angeles", INT64_MIN, INT64_MAX,
	    HQ_PERIOD_NONE, 1, kind);
	check("ties by day", "America/Los_Angeles", INT64_MIN, INT64_MAX,
	    HQ_DAY, 0, kind);
	check("ties by week", "America/Los_Angeles", INT64_MIN, INT64_MAX,
	    HQ_WEEK, 0, kind);
	check("ties unaligned", "America/Los_Angeles", f1, t1,
	    HQ_PERIOD_NONE, 0, kind);
	check("ties unaligned by day agp", "America/Los_Angeles", f1, t1,
	    HQ_DAY, 1, kind);
	check("ties first day (A first)", "America/Los_Angeles", T0, T0 + D,
	    HQ_PERIOD_NONE, 0, kind);
	check("ties A's hole (B and C)", "America/Los_Angeles",
	    T0 + D + 2 * H, T0 + D + 5 * H, HQ_PERIOD_NONE, 0, kind);
	check("ties in one slot", "America/Los_Angeles", T0 + 100, T0 + 800,
	    HQ_PERIOD_NONE, 0, kind);
	check("ties to only", "America/Los_Angeles", INT64_MIN, T0 + 2 * D + 13,
	    HQ_DAY, 0, kind);
	check("ties from only", "America/Los_Angeles", T0 + D + 11 * H + 59 * 60,
	    INT64_MAX, HQ_PERIOD_NONE, 1, kind);
	check("ties Kolkata by day", "Asia/Kolkata", INT64_MIN, INT64_MAX,
	    HQ_DAY, 0, kind);
	check("ties Kolkata unaligned agp", "Asia/Kolkata", f1, t1,
	    HQ_PERIOD_NONE, 1, kind);
}

int
main(void)
{
	char dir[] = "/tmp/hq-cgm-onepass.XXXXXX", path[256];
	static const char *const kinds[] = { "fresh", "stale" };

	record = getenv("HQ_RECORD") != NULL;
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof path, "%s/hq.db", dir);
	for (int k = 0; k < 2; k++) {
		seed = 12345;
		open_store(path);
		ties();
		close_load(k == 0);
		ok(hq_rollup_current(store) == (k == 0), "rollups %s", kinds[k]);
		cases_ties(kinds[k]);

		open_store(path);
		spacing();
		close_load(k == 0);
		check("spacing all", "America/Los_Angeles", INT64_MIN, INT64_MAX,
		    HQ_PERIOD_NONE, 0, kinds[k]);
		check("spacing by week", "America/Los_Angeles", INT64_MIN,
		    INT64_MAX, HQ_WEEK, 1, kinds[k]);

		open_store(path);
		texts();
		close_load(k == 0);
		check("texts all", "America/Los_Angeles", INT64_MIN, INT64_MAX,
		    HQ_PERIOD_NONE, 0, kinds[k]);
		check("texts by day agp", "America/Los_Angeles", INT64_MIN,
		    INT64_MAX, HQ_DAY, 1, kinds[k]);
	}
	hq_store_close(store);
	unlink(path);
	ok(rmdir(dir) == 0, "nothing left behind");
	return done_testing();
}
