/* Unit tests for medians and percentiles of lib/query's series: from the
 * rollups of values (table rollup_vals, lib/store/rollup.c; read by
 * lib/query/rollup_read.c) and from raw
 * samples, in bounded memory, against sorting every value
 * (hq_stats_quantile_sorted, checked against R in query_stats.c). More
 * distinct values than a pass holds
 * (HQ_QUANT_LIMIT) force the passes that read a bucket again. Also: the
 * blob a slot's values are kept in, merged when a later import adds to a
 * slot, and a store from before rollup_vals (they are not used until an
 * import has folded every sample in). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hq/query.h"
#include "hq/rollup.h"
#include "hq/store.h"
#include "tap.h"

#define T0 1733097600   /* 2024-12-02T00:00:00Z */
#define N 90000         /* samples, 81000 distinct: more than one pass holds */

static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static double
uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (double)(rng >> 11) / 9007199254740992.0;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Whole-range median and p90 of heart rate, with rollups or without. */
static int
whole(struct hq_store *s, int no_rollup, double out[2], int *from_rollup)
{
	struct hq_query q = {0};
	struct hq_series sr;
	struct hq_err e;

	hq_query_resolve(s, "heart_rate", &q.metric, &e);
	q.from = INT64_MIN;
	q.to = INT64_MAX;
	q.whole = 1;
	q.no_rollup = no_rollup;
	hq_stats_parse_agg("median", &q.aggs[0]);
	hq_stats_parse_agg("p90", &q.aggs[1]);
	q.naggs = 2;
	if (hq_query_run(s, &q, &sr, &e) || sr.n != 1) {
		printf("# %s\n", e.msg);
		return -1;
	}
	out[0] = sr.rows[0].v[0];
	out[1] = sr.rows[0].v[1];
	*from_rollup = sr.from_rollup;
	hq_series_free(&sr);
	return 0;
}

/* Daily medians with rollups and without: the number of days that differ. */
static int
daily_differ(struct hq_store *s, size_t *ndays)
{
	struct hq_query q = {0};
	struct hq_series a, b;
	struct hq_err e;
	int bad = 0;

	hq_query_resolve(s, "heart_rate", &q.metric, &e);
	q.from = INT64_MIN;
	q.to = INT64_MAX;
	q.by = HQ_DAY;
	hq_stats_parse_agg("median", &q.aggs[0]);
	hq_stats_parse_agg("p25", &q.aggs[1]);
	hq_stats_parse_agg("avg", &q.aggs[2]);
	q.naggs = 3;
	if (hq_query_run(s, &q, &a, &e))
		return -1;
	q.no_rollup = 1;
	if (hq_query_run(s, &q, &b, &e)) {
		hq_series_free(&a);
		return -1;
	}
	bad = a.n != b.n || !a.from_rollup || b.from_rollup;
	for (size_t i = 0; !bad && i < a.n; i++)
		for (int k = 0; k < 3; k++)
			bad += a.rows[i].v[k] != b.rows[i].v[k] && !(k == 2 &&
			    fabs(a.rows[i].v[k] - b.rows[i].v[k]) < 1e-9);
	*ndays = a.n;
	hq_series_free(&a);
	hq_series_free(&b);
	return bad;
}

int
main(void)
{
	char dir[] = "/tmp/hq-quant-test.XXXXXX", path[256];
	struct hq_store *s;
	struct hq_err e;
	double *v = malloc(N * sizeof *v), got[2];
	int fr;
	size_t ndays;

	/* The blob: integers and not, merged. */
	{
		struct hq_rollup_vals r;
		double x;
		long c;
		hq_rollup_vals_start(&r, "i\x02\x01", 3);
		ok(hq_rollup_vals_next(&r, &x, &c) && x == 1 && c == 1 &&
		    !hq_rollup_vals_next(&r, &x, &c), "an integer blob: 1 once");
		hq_rollup_vals_start(&r, "i\x02", 2);
		ok(!hq_rollup_vals_next(&r, &x, &c), "a cut blob gives nothing more");
		hq_rollup_vals_start(&r, "x", 1);
		ok(!hq_rollup_vals_next(&r, &x, &c), "not a blob: nothing");
	}

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof path, "%s/q.db", dir);
	s = hq_store_open(path, HQ_STORE_CREATE, &e);
	ok(s != NULL, "create a store");
	if (!s)
		return done_testing();
	hq_time_set_zone("UTC", &e);
	int64_t m = hq_store_metric_id(s, "HKQuantityTypeIdentifierHeartRate", 1, &e);
	int64_t w = hq_store_source_id(s, "Watch", 1, &e);
	int64_t o = hq_store_source_id(s, "Other", 1, &e);

	/* Two imports: the second adds to slots the first has (two sources,
	 * ties, integers and fractions), so blobs are merged. */
	for (int imp = 0; imp < 2; imp++) {
		hq_store_begin(s, &e);
		int64_t first = hq_store_last_id(s) + 1;
		for (int i = imp; i < N; i += 2) {
			double x = uniform() < 0.1 ? floor(60 + uniform() * 40)
			    : 55 + 40 * uniform();
			struct hq_sample smp = { .metric_id = m, .source_id = i % 3 ? w : o,
			    .start = T0 + i * 7, .value = x };
			smp.end = smp.start;
			v[i] = x;
			if (hq_store_add_sample(s, &smp, &e) != 1)
				printf("# %s\n", e.msg);
		}
		ok(hq_rollup_refresh(s, first, &e) == 0, "import %d refreshed", imp + 1);
		hq_store_commit(s, &e);
	}
	ok(hq_rollup_current(s) && hq_rollup_vals_current(s), "rollups current");
	qsort(v, N, sizeof *v, cmp_double);
	double want[2] = { hq_stats_quantile_sorted(v, N, 0.5),
	    hq_stats_quantile_sorted(v, N, 0.9) };

	ok(whole(s, 0, got, &fr) == 0 && fr, "whole range from the rollups");
	ok(got[0] == want[0] && got[1] == want[1],
	    "median %.17g and p90 %.17g as sorting all %d values", got[0], got[1], N);
	ok(whole(s, 1, got, &fr) == 0 && !fr, "whole range from raw samples");
	ok(got[0] == want[0] && got[1] == want[1], "the same values from raw samples");
	is_int(daily_differ(s, &ndays), 0, "daily median, p25, avg: rollups = raw samples");
	ok(ndays > 5, "over %zu days", ndays);

	/* A store from before rollup_vals: they cover nothing until an import
	 * refreshes them, and queries read raw samples meanwhile. */
	ok(hq_store_exec(s, "UPDATE rollup_vals_state SET last_sample_id = 0;"
	    "DELETE FROM rollup_vals", &e) == 0, "rollup_vals as a migrated store has them");
	ok(!hq_rollup_vals_current(s), "not current");
	ok(whole(s, 0, got, &fr) == 0 && !fr && got[0] == want[0],
	    "the median from raw samples meanwhile");
	hq_store_begin(s, &e);
	ok(hq_rollup_refresh(s, hq_store_last_id(s) + 1, &e) == 0,
	    "the next import's refresh folds every sample in");
	hq_store_commit(s, &e);
	ok(hq_rollup_vals_current(s), "current again");
	ok(whole(s, 0, got, &fr) == 0 && fr && got[0] == want[0] && got[1] == want[1],
	    "and answers from them, the same");
	is_int(daily_differ(s, &ndays), 0, "daily values too");

	hq_store_close(s);
	unlink(path);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
	free(v);
	return done_testing();
}
