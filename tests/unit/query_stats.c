/* Unit tests for lib/base/stats.c: parsing aggregation lists, and values
 * checked against R (mean, sd, quantile type 7) on small vectors. */
#include <math.h>
#include <stdlib.h>

#include "hq/stats.h"
#include "tap.h"

int
main(void)
{
	struct hq_agg a[HQ_MAX_AGGS];
	struct hq_err e;
	size_t n;
	double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	double w[] = { 10, 1, 7, 3 };

	ok(hq_stats_parse_aggs("avg,p90,max,median", a, HQ_MAX_AGGS, &n, &e) == 0 && n == 4,
	    "parse a list of four");
	is_str(a[1].name, "p90", "p90 keeps its name");
	is_int(a[1].pct, 90, "p90 is the 90th percentile");
	ok(hq_stats_parse_aggs("avg,,max", a, HQ_MAX_AGGS, &n, &e) < 0, "empty item refused");
	ok(hq_stats_parse_aggs("avg,p0", a, HQ_MAX_AGGS, &n, &e) < 0, "p0 refused");
	ok(hq_stats_parse_aggs("p100", a, HQ_MAX_AGGS, &n, &e) < 0, "p100 refused");
	ok(hq_stats_parse_aggs("avg,avg", a, HQ_MAX_AGGS, &n, &e) < 0, "duplicate refused");
	ok(hq_stats_parse_aggs("mean", a, HQ_MAX_AGGS, &n, &e) == 0 && a[0].kind == HQ_AGG_AVG,
	    "mean is avg");
	ok(hq_stats_parse_aggs("bogus", a, HQ_MAX_AGGS, &n, &e) < 0 && strstr(e.msg, "bogus"),
	    "unknown aggregation named in the message");

	is_dbl(hq_stats_mean(v, 8), 5, 1e-12, "mean");
	/* R: sd(c(2,4,4,4,5,5,7,9)) = 2.138089935 */
	is_dbl(hq_stats_stddev(v, 8), 2.138089935299395, 1e-12, "sample sd as R's sd()");
	/* R: quantile(c(10,1,7,3), .9) = 9.1; median = 5 */
	hq_stats_sort(w, 4);
	is_dbl(hq_stats_quantile_sorted(w, 4, 0.9), 9.1, 1e-12, "p90 as R's quantile type 7");
	is_dbl(hq_stats_quantile_sorted(w, 4, 0.5), 5, 1e-12, "median of an even count");
	is_dbl(hq_stats_quantile_sorted(w, 4, 0.25), 2.5, 1e-12, "p25");
	ok(isnan(hq_stats_stddev(v, 1)), "sd of one value is NaN (null)");

	struct hq_stats_acc acc, mom;
	struct hq_agg g;
	hq_stats_acc_init(&acc, 1);
	hq_stats_acc_init(&mom, 0);
	for (int i = 0; i < 8; i++)
		hq_stats_acc_add(&acc, v[i]);
	/* The same values as two rollup slots. */
	hq_stats_acc_add_moments(&mom, 3, 10, 36, 2, 4);
	hq_stats_acc_add_moments(&mom, 5, 30, 196, 4, 9);
	hq_stats_parse_agg("stddev", &g);
	is_dbl(hq_stats_acc_value(&acc, &g), 2.138089935299395, 1e-9, "streamed sd");
	is_dbl(hq_stats_acc_value(&mom, &g), 2.138089935299395, 1e-9, "sd from merged moments");
	hq_stats_parse_agg("avg", &g);
	is_dbl(hq_stats_acc_value(&mom, &g), 5, 1e-12, "avg from moments");
	hq_stats_parse_agg("min", &g);
	is_dbl(hq_stats_acc_value(&mom, &g), 2, 0, "min from moments");
	hq_stats_parse_agg("first", &g);
	is_dbl(hq_stats_acc_value(&acc, &g), 2, 0, "first");
	hq_stats_parse_agg("last", &g);
	is_dbl(hq_stats_acc_value(&acc, &g), 9, 0, "last");
	hq_stats_parse_agg("p75", &g);
	/* R: quantile(c(2,4,4,4,5,5,7,9), .75) = 5.5 */
	is_dbl(hq_stats_acc_value(&acc, &g), 5.5, 1e-12, "p75 streamed");
	hq_stats_acc_reset(&acc);
	hq_stats_parse_agg("sum", &g);
	ok(isnan(hq_stats_acc_value(&acc, &g)), "sum of nothing is null, not 0");
	hq_stats_parse_agg("count", &g);
	is_dbl(hq_stats_acc_value(&acc, &g), 0, 0, "count of nothing is 0");
	hq_stats_acc_free(&acc);
	hq_stats_acc_free(&mom);
	return done_testing();
}
