/* Unit tests for lib/query/select.c: a selection run against a small store
 * whose answers are worked out by hand (UTC days 2024-12-01 = D0 ... D4):
 *
 *   exercise_time (min)  D0 70   D1 20       D2 65       D3 —   D4 90
 *   heart_rate           D0 60,80 D1 100     D2 50,70    D3 90  D4 75
 *                        (avg 70, max 80)    (avg 60, max 70)
 *   glucose (max)        D0 150  D1 120      D2 160      D3 100 D4 145
 *
 * --when with day offsets, several --when ANDed, --where on buckets,
 * --offset/--limit across metrics, errors, the same answers from the
 * rollups, and the day set over a day source that is not the store. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hq/config.h"
#include "hq/rollup.h"
#include "hq/select.h"
#include "hq/store.h"
#include "tap.h"

#define D0 20058            /* 2024-12-01, days since 1970-01-01 */
#define T(day, h) ((int64_t)(D0 + (day)) * 86400 + (h) * 3600)

static struct hq_store *
make_store(const char *path)
{
	enum { EX, HR, GL };
	static const char *const ids[] = { "HKQuantityTypeIdentifierAppleExerciseTime",
	    "HKQuantityTypeIdentifierHeartRate", "HKQuantityTypeIdentifierBloodGlucose" };
	/* metric, day, hour, value: exercise 30 minutes long, the others at
	 * an instant. */
	static const struct { int metric, day, hour; double value; } rows[] = {
		{ EX, 0, 10, 70 }, { EX, 1, 10, 20 }, { EX, 2, 10, 65 }, { EX, 4, 10, 90 },
		{ HR, 0, 8, 60 }, { HR, 0, 12, 80 }, { HR, 1, 8, 100 }, { HR, 2, 8, 50 },
		{ HR, 2, 12, 70 }, { HR, 3, 8, 90 }, { HR, 4, 8, 75 },
		{ GL, 0, 9, 150 }, { GL, 1, 9, 120 }, { GL, 2, 9, 160 }, { GL, 3, 9, 100 },
		{ GL, 4, 9, 145 },
	};
	struct hq_err e;
	struct hq_store *s = hq_store_open(path, HQ_STORE_CREATE, &e);
	int64_t metric[3], watch;

	if (!s) {
		printf("# %s\n", e.msg);
		return NULL;
	}
	for (int i = 0; i < 3; i++)
		metric[i] = hq_store_metric_id(s, ids[i], 1, &e);
	watch = hq_store_source_id(s, "Apple Watch", 1, &e);
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct hq_sample x = { .metric_id = metric[rows[i].metric],
		    .source_id = watch, .start = T(rows[i].day, rows[i].hour),
		    .value = rows[i].value };
		x.end = x.start + (rows[i].metric == EX ? 1800 : 0);
		if (hq_store_add_sample(s, &x, &e) < 0)
			printf("# %s\n", e.msg);
	}
	return s;
}

/* ---- a sink that writes rows down ---------------------------------------- */

struct got {
	char text[1024];          /* "heart_rate D0 70; ..." */
	size_t nseries, nsources_last;
	long rows, stop_after;    /* stop_after > 0: fail on that row */
	int from_rollup;
};

static int
on_series(void *ctx, const struct hq_select_series *sr, struct hq_err *e)
{
	struct got *g = ctx;

	(void)e;
	g->nseries++;
	g->nsources_last = sr->nsources;
	g->from_rollup = sr->from_rollup;
	return 0;
}

static int
on_row(void *ctx, const struct hq_select_series *sr, const struct hq_row *r,
    struct hq_err *e)
{
	struct got *g = ctx;
	size_t len = strlen(g->text);

	if (g->stop_after && g->rows == g->stop_after) {
		hq_err_set(e, "the sink is full");
		return -1;
	}
	g->rows++;
	snprintf(g->text + len, sizeof g->text - len, "%s%s D%lld %.10g",
	    len ? "; " : "", sr->metric->name, (long long)(r->day - D0), r->v[0]);
	for (size_t k = 1; k < sr->naggs; k++) {
		len = strlen(g->text);
		snprintf(g->text + len, sizeof g->text - len, " %s=%.10g",
		    sr->aggs[k].name, r->v[k]);
	}
	return 0;
}

/* Run metrics by day (or as given) with conditions; rows as text. */
struct spec {
	const char *metrics[4];
	int64_t from, to;           /* 0: open */
	enum hq_period by;
	const char *agg;
	const char *when[4], *where[4];
	long offset, limit;
	int no_rollup;
};

static long
run(struct hq_store *s, const struct spec *sp, struct got *g, struct hq_err *e)
{
	struct hq_select sel;
	struct hq_select_sink sink = { on_series, on_row, g };
	size_t n = 0;
	long rc = -1;

	memset(g, 0, sizeof *g);
	hq_select_init(&sel);
	while (n < 4 && sp->metrics[n])
		n++;
	sel.metrics = sp->metrics;
	sel.nmetrics = n;
	sel.by = sp->by;
	if (sp->from)
		sel.from = sp->from;
	if (sp->to)
		sel.to = sp->to;
	sel.offset = sp->offset;
	sel.limit = sp->limit;
	sel.no_rollup = sp->no_rollup;
	if (sp->agg) {
		if (hq_stats_parse_aggs(sp->agg, sel.aggs, HQ_MAX_AGGS, &sel.naggs, e))
			goto out;
		sel.whole = sp->by == HQ_PERIOD_NONE;
	}
	for (size_t i = 0; i < 4 && sp->when[i]; i++)
		if (hq_select_add_when(&sel, sp->when[i], e))
			goto out;
	for (size_t i = 0; i < 4 && sp->where[i]; i++)
		if (hq_select_add_where(&sel, sp->where[i], e))
			goto out;
	rc = hq_select_run(s, &sel, &sink, e);
out:
	hq_select_free(&sel);
	return rc;
}

static const char *
rows_of(struct hq_store *s, const struct spec *sp, struct got *g)
{
	struct hq_err e;

	if (run(s, sp, g, &e) < 0)
		snprintf(g->text, sizeof g->text, "error: %.900s", e.msg);
	return g->text;
}

static const char *
error_of(struct hq_store *s, const struct spec *sp, struct got *g)
{
	static struct hq_err e;

	if (run(s, sp, g, &e) >= 0)
		return "(no error)";
	return e.msg;
}

/* ---- a day source that is not the store ---------------------------------- */

/* One metric, "lab.max", from a table in memory: what a file of daily rows
 * would give. */
struct mem_days {
	int64_t days[3];
	double max[3];
	size_t n;
	int checks, loads;
};

static int
mem_check(void *ctx, const char *metric, const char *field, struct hq_err *e)
{
	struct mem_days *m = ctx;

	m->checks++;
	if (strcmp(metric, "lab") != 0 || strcmp(field, "max") != 0) {
		hq_err_set(e, "no daily %s.%s in the file", metric, field);
		return -1;
	}
	return 0;
}

static int
mem_load(void *ctx, const char *metric, const char *const *fields,
    size_t nfields, int lag_lo, int lag_hi, struct hq_select_daily *d,
    struct hq_err *e)
{
	struct mem_days *m = ctx;

	(void)metric;
	(void)fields;
	(void)lag_lo;
	(void)lag_hi;
	(void)e;
	m->loads++;
	d->days = calloc(m->n + 1, sizeof *d->days);
	d->v = calloc(m->n * nfields + 1, sizeof *d->v);
	for (size_t i = 0; i < m->n; i++) {
		d->days[i] = m->days[i];
		d->v[i] = m->max[i];
	}
	d->n = m->n;
	return 0;
}

static void
test_daysrc(void)
{
	struct mem_days m = { { D0, D0 + 1, D0 + 3 }, { 150, 120, 160 }, 3, 0, 0 };
	struct hq_select_daysrc src = { mem_check, mem_load, &m };
	struct hq_select_days *d;
	struct hq_dayset set = {0};
	struct hq_expr *x[2];
	struct hq_err e;
	int missing;

	x[0] = hq_expr_parse("lab.max > 140", &e);
	x[1] = hq_expr_parse("lab.max[-1] < 130 or lab.max > 155", &e);
	d = hq_select_days_new(x, 1, &src, &e);
	ok(d != NULL, "a day source other than the store");
	if (d) {
		hq_select_days_set(d, &set);
		is_int(set.n, 2, "lab.max > 140 on two days");
		ok(set.n == 2 && set.days[0] == D0 && set.days[1] == D0 + 3, "D0 and D3");
		free(set.days);
		hq_select_days_free(d);
	}
	is_int(m.loads, 1, "one load for the metric");
	d = hq_select_days_new(x, 2, &src, &e);
	ok(d != NULL, "two conditions over it");
	if (d) {
		/* D3: 160 > 140, and 160 > 155: holds; D1 (120) does not; D2
		 * has no row of its own, but D1 = 120 < 130 only satisfies the
		 * second, and the first has no value: no. */
		is_int(hq_select_days_eval(d, D0 + 3, &missing), 1, "D3 holds");
		is_int(missing, 1, "...with D2 (its [-1]) missing");
		is_int(hq_select_days_eval(d, D0 + 1, &missing), 0, "D1 does not");
		is_int(hq_select_days_eval(d, D0 + 2, &missing), 0, "D2 (no row) does not");
		is_int(missing, 1, "and has a missing value");
		hq_select_days_set(d, &set);
		ok(set.n == 1 && set.days[0] == D0 + 3, "the set is D3 alone");
		free(set.days);
		hq_select_days_free(d);
	}
	hq_expr_free(x[1]);
	x[1] = hq_expr_parse("lab.min > 1", &e);
	ok(hq_select_days_new(&x[1], 1, &src, &e) == NULL, "the source refuses a field");
	is_str(e.msg, "--when 'lab.min > 1': no daily lab.min in the file",
	    "its message, with the condition");
	/* Days out of order would make every lookup wrong: refused. */
	m.days[1] = D0 + 5;
	ok(hq_select_days_new(x, 1, &src, &e) == NULL, "days out of order refused");
	is_str(e.msg, "the daily values of lab are not one per day in order", "saying so");
	hq_expr_free(x[0]);
	hq_expr_free(x[1]);
}

/* ---- the store as a day source ------------------------------------------- */

static void
test_store_days(struct hq_store *s)
{
	static const char *const fields[] = { "max", "value", "n", "median" };
	struct hq_select sel;
	struct hq_select_daysrc src;
	struct hq_select_daily d;
	struct hq_err e;

	hq_select_init(&sel);
	hq_select_store_days(&src, s, &sel);
	ok(src.check(src.ctx, "heart_rate", "max", &e) == 0, "heart_rate.max checks");
	ok(src.check(src.ctx, "heart_rate", "bogus", &e) < 0, "heart_rate.bogus does not");
	ok(src.load(src.ctx, "heart_rate", fields, 4, 0, 0, &d, &e) == 0, "daily heart rate");
	is_int(d.n, 5, "five days");
	if (d.n == 5) {
		is_int(d.days[0], D0, "from D0");
		is_dbl(d.v[0], 80, 0, "D0 max");
		is_dbl(d.v[1], 70, 0, "D0 value: the default aggregation, avg");
		is_dbl(d.v[2], 2, 0, "D0 n");
		is_dbl(d.v[3], 70, 0, "D0 median");
		is_int(hq_select_daily_find(&d, D0 + 2), 2, "find D2");
		is_int(hq_select_daily_find(&d, D0 + 7), -1, "no D7");
		is_dbl(d.v[1 * 4 + 2], 1, 0, "D1 n");
	}
	hq_select_daily_free(&d);
	hq_select_store_days_free(&src);
	hq_select_free(&sel);
}

/* ---- the pipeline -------------------------------------------------------- */

static void
test_select(struct hq_store *s)
{
	struct got g;

	is_str(rows_of(s, &(struct spec){ .metrics = { "heart_rate" }, .by = HQ_DAY,
	    .when = { "exercise_time.sum>=60" } }, &g),
	    "heart_rate D0 70; heart_rate D2 60; heart_rate D4 75",
	    "--when: the days with an hour of exercise");
	is_str(rows_of(s, &(struct spec){ .metrics = { "heart_rate" }, .by = HQ_DAY,
	    .when = { "exercise_time.sum>=60", "heart_rate.max>=75" } }, &g),
	    "heart_rate D0 70; heart_rate D4 75", "two --when are ANDed");
	is_str(rows_of(s, &(struct spec){ .metrics = { "heart_rate" }, .by = HQ_DAY,
	    .when = { "glucose.max[-1]>140" } }, &g),
	    "heart_rate D1 100; heart_rate D3 90",
	    "--when with [-1]: the days after glucose above 140");
	is_str(rows_of(s, &(struct spec){ .metrics = { "heart_rate" }, .by = HQ_DAY,
	    .from = T(1, 0), .to = T(2, 0), .when = { "glucose.max[-1]>140" } }, &g),
	    "heart_rate D1 100",
	    "--when with [-1] on the range's first day reads the day before it");
	is_str(rows_of(s, &(struct spec){ .metrics = { "heart_rate" }, .by = HQ_DAY,
	    .from = T(2, 0), .to = T(3, 0), .when = { "glucose.max[1]<130" } }, &g),
	    "heart_rate D2 60",
	    "--when with [1] on the range's last day reads the day after it");
	is_str(rows_of(s, &(struct spec){ .metrics = { "heart_rate" }, .by = HQ_DAY,
	    .when = { "glucose.max[1]<130" } }, &g),
	    "heart_rate D0 70; heart_rate D2 60",
	    "--when with [1]: the days before glucose under 130");
	is_str(rows_of(s, &(struct spec){ .metrics = { "heart_rate" }, .by = HQ_DAY,
	    .when = { "heart_rate.mean>=70" } }, &g),
	    "heart_rate D0 70; heart_rate D1 100; heart_rate D3 90; heart_rate D4 75",
	    "--when names mean: read as avg");
	is_str(rows_of(s, &(struct spec){ .metrics = { "heart_rate" }, .agg = "avg,count",
	    .when = { "exercise_time.sum>=60" } }, &g),
	    "heart_rate D0 67 count=5", "--when filters a whole-range aggregate: (60+80+50+70+75)/5");
	is_str(rows_of(s, &(struct spec){ .metrics = { "heart_rate" }, .by = HQ_DAY, .agg = "avg,max",
	    .where = { "max>=80" } }, &g),
	    "heart_rate D0 70 max=80; heart_rate D1 100 max=100; heart_rate D3 90 max=90",
	    "--where on buckets");
	is_str(rows_of(s, &(struct spec){ .metrics = { "heart_rate" }, .by = HQ_DAY, .agg = "avg,max",
	    .where = { "max>=80", "n<2" } }, &g),
	    "heart_rate D1 100 max=100; heart_rate D3 90 max=90", "two --where are ANDed");
	is_str(rows_of(s, &(struct spec){ .metrics = { "heart_rate" }, .where = { "value>=80" },
	    .when = { "exercise_time.sum>=60" } }, &g),
	    "heart_rate D0 80", "--where on samples, --when on their days");

	long n = 0;
	struct hq_err e;
	n = run(s, &(struct spec){ .metrics = { "heart_rate", "glucose" }, .by = HQ_DAY,
	    .offset = 3, .limit = 4 }, &g, &e);
	is_int(n, 4, "--offset 3 --limit 4 over two metrics: four rows");
	is_str(g.text, "heart_rate D3 90; heart_rate D4 75; blood_glucose D0 150; blood_glucose D1 120",
	    "counted across the metrics, in order");
	is_int(g.nseries, 2, "both series announced");
	n = run(s, &(struct spec){ .metrics = { "heart_rate", "glucose", "body_mass" }, .by = HQ_DAY,
	    .limit = 2 }, &g, &e);
	is_int(n, 2, "--limit 2");
	is_int(g.nseries, 3, "every metric is announced, even after the limit");
	is_int(g.nsources_last, 0, "one after the limit is not read");
	n = run(s, &(struct spec){ .metrics = { "heart_rate", "glucose" }, .by = HQ_DAY,
	    .offset = 10 }, &g, &e);
	is_int(n, 0, "an offset past the rows leaves none");
	is_int(g.nseries, 2, "but still announces the series");

	/* Many conditions: no fixed number of them. */
	{
		struct hq_select sel;
		struct hq_select_sink sink = { on_series, on_row, &g };
		const char *m[] = { "heart_rate" };
		int bad = 0;
		memset(&g, 0, sizeof g);
		hq_select_init(&sel);
		sel.metrics = m;
		sel.nmetrics = 1;
		sel.by = HQ_DAY;
		for (int i = 0; i < 40; i++) {
			char c[64];
			snprintf(c, sizeof c, "glucose.max[%d]>0 or heart_rate.n>%d",
			    i % 3 - 1, i);
			bad |= hq_select_add_when(&sel, c, &e);
			bad |= hq_select_add_where(&sel, "value>0 and n>=1", &e);
		}
		ok(!bad, "40 --when and 40 --where");
		n = hq_select_run(s, &sel, &sink, &e);
		is_int(n, 3, "all hold on D1-D3 (glucose on the day before and after)");
		is_str(g.text, "heart_rate D1 100; heart_rate D2 60; heart_rate D3 90", "those days");
		hq_select_free(&sel);
	}

	/* A sink can stop the run. */
	{
		struct hq_select sel;
		struct hq_select_sink sink = { NULL, on_row, &g };
		const char *m[] = { "heart_rate" };
		memset(&g, 0, sizeof g);
		g.stop_after = 2;
		hq_select_init(&sel);
		sel.metrics = m;
		sel.nmetrics = 1;
		sel.by = HQ_DAY;
		is_int(hq_select_run(s, &sel, &sink, &e), -1, "a sink that fails stops the run");
		is_str(e.msg, "the sink is full", "with its message");
		is_int(g.rows, 2, "after the rows it took");
		hq_select_free(&sel);
	}
}

static void
test_errors(struct hq_store *s)
{
	struct got g;
	struct hq_select sel;
	struct hq_err e;

	is_str(error_of(s, &(struct spec){ .metrics = { "heart_rate" }, .by = HQ_DAY, .when = { "sum>60" } }, &g),
	    "--when 'sum>60': 'sum' needs a metric, as in exercise_time.sum>=60 "
	    "(to filter this metric's own values use --where)", "--when without a metric");
	is_str(error_of(s, &(struct spec){ .metrics = { "heart_rate" }, .by = HQ_DAY,
	    .when = { "exercise_time.bogus>1" } }, &g),
	    "--when 'exercise_time.bogus>1': unknown aggregation 'bogus' in "
	    "exercise_time.bogus; use sum, avg, min, max, count, median, p90...",
	    "--when with an unknown aggregation");
	is_str(error_of(s, &(struct spec){ .metrics = { "heart_rate" }, .by = HQ_DAY,
	    .when = { "exercise_time.sum>1", "hart_rate.max>1" } }, &g),
	    "--when 'hart_rate.max>1': unknown metric 'hart_rate' (did you mean heart_rate?)",
	    "--when with an unknown metric names the condition");
	is_str(error_of(s, &(struct spec){ .metrics = { "heart_rate" }, .where = { "value[-1]>3" } }, &g),
	    "--where 'value[-1]>3': day offsets such as [-1] are for --when",
	    "--where with a day offset");
	is_str(error_of(s, &(struct spec){ .metrics = { "heart_rate" }, .where = { "glucose.max>1" } }, &g),
	    "--where 'glucose.max>1': glucose.max names another metric; use --when "
	    "to filter days by another metric", "--where naming another metric");
	is_str(error_of(s, &(struct spec){ .metrics = { "heart_rate" }, .by = HQ_DAY, .where = { "p90>100" } }, &g),
	    "--where 'p90>100' uses p90, which --agg does not compute; add it, e.g. "
	    "--agg avg,p90", "--where on an aggregation not computed");
	is_str(error_of(s, &(struct spec){ .metrics = { "heart_rate" }, .by = HQ_DAY, .where = { "bogus>1" } }, &g),
	    "--where 'bogus>1': unknown name 'bogus'; use value, n or an aggregation "
	    "such as avg or max", "--where on an unknown name");
	is_str(error_of(s, &(struct spec){ .metrics = { "heart_rate", "hart_rate" }, .by = HQ_DAY }, &g),
	    "unknown metric 'hart_rate' (did you mean heart_rate?)", "an unknown metric");
	is_int(g.nseries, 0, "...found before any series runs");
	/* heart_rate's avg exists, exercise_time's rows carry only sum. */
	is_str(error_of(s, &(struct spec){ .metrics = { "heart_rate", "exercise_time" }, .by = HQ_DAY,
	    .where = { "avg>1" } }, &g),
	    "--where 'avg>1' uses avg, which --agg does not compute; add it, e.g. "
	    "--agg avg,avg", "a --where the second metric cannot answer");
	is_int(g.rows, 0, "...refused before the first metric's rows");

	{
		char many[512] = "heart_rate.p1>0";
		for (int i = 2; i <= 16; i++) {
			size_t len = strlen(many);
			snprintf(many + len, sizeof many - len, " and heart_rate.p%d>0", i);
		}
		is_str(error_of(s, &(struct spec){ .metrics = { "heart_rate" },
		    .by = HQ_DAY, .when = { many } }, &g),
		    "heart_rate: at most 16 aggregations of one metric in conditions",
		    "past 16 aggregations of one metric (a row's limit), a clear error");
	}

	hq_select_init(&sel);
	ok(hq_select_add_where(&sel, "value >", &e) < 0, "a bad --where is refused");
	is_str(e.msg, "--where: bad expression 'value >' at column 8: expected a "
	    "number or a name such as value or exercise_time.sum", "with the column");
	ok(hq_select_add_when(&sel, "glucose.max[x]>1", &e) < 0, "a bad --when is refused");
	ok(strncmp(e.msg, "--when: bad expression", 22) == 0, "named --when: %s", e.msg);
	is_int(sel.nwhen + sel.nwhere, 0, "and neither is kept");
	hq_select_free(&sel);
}

static void
test_config(const char *dir)
{
	char path[300];
	struct hq_select sel;
	struct hq_config *cfg;
	struct hq_err e;
	FILE *fp;

	snprintf(path, sizeof path, "%s/config", dir);
	fp = fopen(path, "w");
	if (!fp)
		return;
	fputs("[query]\nsource_priority = iPhone, Apple Watch\nsleep_cutoff = 20\n", fp);
	fclose(fp);
	hq_select_init(&sel);
	cfg = hq_config_load(path, &e);
	ok(cfg && hq_select_config(&sel, cfg, &e) == 0, "[query] read");
	is_int(sel.sleep_cutoff, 20, "sleep_cutoff");
	ok(sel.priority.n == 2 && strcmp(sel.priority.names[0], "iPhone") == 0,
	    "source_priority");
	hq_config_free(cfg);
	fp = fopen(path, "w");
	if (fp) {
		fputs("[query]\nsleep_cutoff = 30\n", fp);
		fclose(fp);
	}
	cfg = hq_config_load(path, &e);
	ok(cfg && hq_select_config(&sel, cfg, &e) < 0, "a cutoff past 23 is refused");
	is_str(e.msg, "config [query] sleep_cutoff = 30: expected an hour 1..23", "saying which");
	hq_config_free(cfg);
	hq_select_free(&sel);
	unlink(path);
}

int
main(void)
{
	char dir[] = "/tmp/hq-select-test.XXXXXX", path[256];
	struct hq_store *s;
	struct hq_err e;
	struct got a, b;

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof path, "%s/hq.db", dir);
	hq_time_set_zone("UTC", &e);
	s = make_store(path);
	ok(s != NULL, "a store of five days");
	if (!s)
		return done_testing();
	test_daysrc();
	test_store_days(s);
	test_select(s);
	test_errors(s);
	test_config(dir);

	/* The rollups give the same answers as the raw samples. */
	ok(hq_store_begin(s, &e) == 0 && hq_rollup_refresh(s, 1, &e) == 0 &&
	    hq_store_commit(s, &e) == 0, "rollups refreshed");
	struct spec sp = { .metrics = { "heart_rate", "exercise_time" }, .by = HQ_DAY, .when = {
	    "exercise_time.sum>=60", "glucose.max[-1]<155" } };
	rows_of(s, &sp, &a);
	ok(a.from_rollup, "from the rollups");
	sp.no_rollup = 1;
	rows_of(s, &sp, &b);
	ok(!b.from_rollup, "from the samples");
	is_str(a.text, b.text, "the same rows either way");
	is_str(a.text, "heart_rate D2 60; heart_rate D4 75; apple_exercise_time D2 65; apple_exercise_time D4 90",
	    "the days after glucose under 155 with an hour of exercise");

	hq_store_close(s);
	unlink(path);
	rmdir(dir);
	return done_testing();
}
