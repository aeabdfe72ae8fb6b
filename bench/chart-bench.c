/*
 * chart-bench — how long hq_svg_write takes for N points, and how big the
 * chart is, against writing the same points as CSV (the least any output
 * of them costs), measured in the same run. Used by bench/chart.sh.
 *
 *     chart-bench N [bars]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "hq/err.h"
#include "hq/opts.h"
#include "hq/svg.h"

static double
now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int
main(int argc, char **argv)
{
	struct hq_err e;
	long n;
	int bars = argc > 2;
	double t0, t_svg, t_csv;
	long svg_bytes, csv_bytes;
	FILE *fp;

	hq_err_init(argv[0]);
	if (argc < 2 || hq_opts_parse_long(argv[1], 1, 100000000, &n) != 0) {
		fputs("usage: chart-bench N [bars]\n", stderr);
		return 2;
	}
	if (hq_time_set_zone("America/Los_Angeles", &e) != 0)
		hq_die(2, "%s", e.msg);
	struct hq_chart_point *p = malloc((size_t)n * sizeof *p);
	if (!p)
		hq_die(2, "out of memory");
	/* A minute apart, like a watch's heart rate, over a daily cycle. */
	for (long i = 0; i < n; i++) {
		p[i].start = 1577836800 + (int64_t)i * 60;
		p[i].end = bars ? p[i].start + 60 : p[i].start;
		p[i].value = 70 + 20 * sin((double)i / 1440 * 2 * M_PI) + (double)(i % 13);
	}
	struct hq_chart_series s = { .name = "heart_rate", .unit = "count/min", .bars = bars, .pts = p, .n = (size_t)n };
	struct hq_chart c = { .by = HQ_PERIOD_NONE, .series = &s, .nseries = 1 };

	if (!(fp = tmpfile()))
		hq_die(2, "cannot open a temporary file");
	t0 = now_ms();
	for (long i = 0; i < n; i++)
		fprintf(fp, "%lld,%lld,%.10g\n", (long long)p[i].start,
		    (long long)p[i].end, p[i].value);
	fflush(fp);
	t_csv = now_ms() - t0;
	csv_bytes = ftell(fp);
	t0 = now_ms();
	if (hq_svg_write(fp, &c) != 0)
		hq_die(2, "writing the chart failed");
	t_svg = now_ms() - t0;
	svg_bytes = ftell(fp) - csv_bytes;
	fclose(fp);
	printf("%ld points, %s: svg %.1f ms (%.2fx csv %.1f ms), %ld bytes (csv %ld)\n",
	    n, bars ? "bars" : "line", t_svg, t_svg / t_csv, t_csv, svg_bytes, csv_bytes);
	free(p);
	return 0;
}
