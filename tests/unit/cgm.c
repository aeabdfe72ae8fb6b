/* Unit tests for lib/analyze/cgm.c: the consensus metrics against iglu's
 * example data (the reference's §1.6 table at its printed precision, and
 * base R from the formulas at 1e-9: tests/data/cgm/expected.R writes
 * expected.txt), hand-worked series, the AGP's percentiles (R's type 7),
 * the sensor interval, coverage, and the double-source rule. */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hq/cgm.h"
#include "hq/csv.h"
#include "hq/time.h"
#include "tap.h"
#include "cgm_expected.h"

/* As printed with d decimals: the value rounds to the printed one. */
#define is_printed(got, want, d, ...) do { \
	double g_ = (got); \
	if (!ok(fabs(g_ - (want)) <= 0.5 * pow(10, -(d)) + 1e-12, __VA_ARGS__)) \
		printf("#   got: %.10g, printed: %.*f\n", g_, (d), (double)(want)); \
} while (0)

/* The reference's §1.6 table, at its printed precision (n as readings);
 * the columns hq has (not eA1c, 63-140, M, GRADE). */
static const struct {
	const char *field;
	int decimals;
} cols16[] = {
	{ "readings", 0 }, { "mean", 2 }, { "sd", 2 }, { "cv", 2 }, { "gmi", 3 },
	{ "j_index", 3 }, { "tir", 2 }, { "tbr", 2 }, { "tbr2", 2 }, { "tar", 2 },
	{ "tar2", 2 }, { "lbgi", 3 }, { "hbgi", 3 }, { "gri", 2 },
};
static const double table16[5][14] = {
	{ 2915, 123.67, 33.27, 26.90, 6.268, 24.628, 91.66, 0.14, 0.00, 8.20, 0.38, 0.432, 1.807, 7.19 },
	{ 2829, 218.45, 52.37, 23.97, 8.535, 73.346, 26.44, 0.00, 0.00, 73.56, 26.09, 0.005, 16.194, 79.72 },
	{ 1533, 154.04, 44.78, 29.07, 6.995, 39.531, 81.34, 0.33, 0.00, 18.33, 5.68, 0.142, 5.108, 19.99 },
	{ 3664, 129.67, 29.07, 22.42, 6.412, 25.199, 95.11, 0.27, 0.05, 4.61, 0.00, 0.356, 1.866, 4.38 },
	{ 2925, 174.61, 58.58, 33.55, 7.487, 54.375, 62.12, 0.10, 0.00, 37.78, 11.28, 0.195, 8.896, 39.49 },
};

struct subject {
	char id[32];
	struct hq_cgm_acc acc;
	struct hq_cgm_interval iv;
	int64_t prev;
	int sorted;
	struct hq_cgm_agp *agp;
};

static void
check_subject(struct subject *s, int k)
{
	struct hq_cgm_metrics m;
	char rname[32];
	int interval = hq_cgm_interval_minutes(&s->iv);

	hq_cgm_metrics(&s->acc, interval, s->acc.first, s->acc.last, &m);
	snprintf(rname, sizeof rname, "%s", s->id);
	for (char *p = rname; *p; p++)
		if (*p == ' ')
			*p = '_';
	ok(s->sorted, "%s: the file's times ascend", s->id);
	for (size_t i = 0; i < sizeof cols16 / sizeof cols16[0]; i++)
		is_printed(hq_cgm_value(&m, cols16[i].field), table16[k][i],
		    cols16[i].decimals, "%s: %s (§1.6)", s->id, cols16[i].field);
	against_r(&m, rname);
	is_r(interval, rname, "interval");
}

static void
agp_check(struct hq_cgm_agp *g, int slot, const char *name)
{
	struct hq_cgm_agp_row r;

	hq_cgm_agp_row(g, slot, &r);
	if (!isnan(expected(name, "n")))
		is_r(r.n, name, "n");
	is_r(r.p5, name, "5%");
	is_r(r.p25, name, "25%");
	is_r(r.p50, name, "50%");
	is_r(r.p75, name, "75%");
	is_r(r.p95, name, "95%");
}

static void
iglu_example(void)
{
	int fd = open(DATA "example_data_5_subject.csv", O_RDONLY);
	struct hq_csv *c;
	struct hq_err e;
	struct subject s = { .sorted = 1 };
	int k = 0, r;

	if (!ok(fd >= 0, "iglu's example_data_5_subject.csv is there"))
		return;
	c = hq_csv_new("example_data_5_subject.csv", hq_csv_fd_read, &fd, 0);
	is_int(hq_csv_next(c, &e), 1, "header read");
	is_str(hq_csv_field(c, 3), "gl", "header names gl");
	while ((r = hq_csv_next(c, &e)) == 1) {
		const char *id = hq_csv_field(c, 1);
		int64_t t;
		if (strcmp(id, s.id) != 0) {
			if (*s.id) {
				check_subject(&s, k++);
				if (k == 1) {
					hq_cgm_agp_finish(s.agp, &e);
					agp_check(s.agp, 0, "agp_s1_0000");
					agp_check(s.agp, 48, "agp_s1_1200");
				}
				hq_cgm_agp_free(s.agp);
			}
			memset(&s, 0, sizeof s);
			s.sorted = 1;
			s.agp = hq_cgm_agp_new();
			snprintf(s.id, sizeof s.id, "%s", id);
		}
		if (hq_time_parse(hq_csv_field(c, 2), &t) != 0) {
			ok(0, "time %s parsed", hq_csv_field(c, 2));
			break;
		}
		if (s.acc.n) {
			if (t < s.prev)
				s.sorted = 0;
			hq_cgm_interval_add(&s.iv, t - s.prev);
		}
		s.prev = t;
		double g = strtod(hq_csv_field(c, 3), NULL);
		hq_cgm_acc_add(&s.acc, t, hq_time_local_day(t), g);
		struct hq_local l;
		hq_time_to_local(t, &l);
		hq_cgm_agp_add(s.agp, hq_cgm_agp_slot(l.hour, l.min), g, &e);
	}
	is_int(r, 0, "the whole file read");
	if (*s.id)
		check_subject(&s, k++);
	hq_cgm_agp_free(s.agp);
	is_int(k, 5, "five subjects");
	hq_csv_free(c);
	close(fd);
}

static void
series(const char *name, const double *v, size_t n)
{
	struct hq_cgm_acc a;
	struct hq_cgm_metrics m;

	hq_cgm_acc_init(&a);
	for (size_t i = 0; i < n; i++)
		hq_cgm_acc_add(&a, 1000 + 300 * (int64_t)i, 0, v[i]);
	hq_cgm_metrics(&a, 5, a.first, a.last, &m);
	against_r(&m, name);
	is_int(m.readings, n, "%s: readings", name);
	is_dbl(m.coverage_pct, 100, 1e-12, "%s: readings every 5 minutes cover their span", name);
}

static void
hand_worked(void)
{
	/* Every band edge: 54, 70, 140, 180, 250 on both sides, Low/High as
	 * stored (39 is not here: 40 stands for a reading at the floor). */
	static const double a[] = { 40, 55, 69, 70, 100, 112, 113, 140, 141,
	    180, 181, 250, 251, 400 };
	static const double b[] = { 120.5, 88.25, 300, 65.125, 54, 53.5 };
	double c[15];
	struct hq_cgm_acc acc;
	struct hq_cgm_metrics m;

	for (int i = 0; i < 15; i++)
		c[i] = 100 + 50 * (i % 3);
	series("series_a", a, sizeof a / sizeof a[0]);
	series("series_b", b, sizeof b / sizeof b[0]);
	series("series_c", c, 15);

	/* By hand: 70..180 inclusive, 54 is not below 54, GRI capped. */
	hq_cgm_acc_init(&acc);
	hq_cgm_acc_add(&acc, 0, 0, 70);
	hq_cgm_acc_add(&acc, 300, 0, 180);
	hq_cgm_acc_add(&acc, 600, 0, 54);
	hq_cgm_acc_add(&acc, 900, 1, 250);
	hq_cgm_metrics(&acc, 5, 0, 900, &m);
	is_dbl(m.tir, 50, 1e-12, "70 and 180 are in range");
	is_dbl(m.tbr, 25, 1e-12, "54 is below 70");
	is_dbl(m.tbr2, 0, 1e-12, "54 is not below 54");
	is_dbl(m.tar, 25, 1e-12, "250 is above 180");
	is_dbl(m.tar2, 0, 1e-12, "250 is not above 250");
	is_dbl(m.gmi, 3.31 + 0.02392 * 138.5, 1e-12, "gmi from the mean");
	is_int(m.days, 2, "two local days");
	is_int(m.from_day, 0, "from the first day");
	is_int(m.to_day, 1, "to the last");

	/* One reading: sd, cv and j_index undefined, coverage of one. */
	hq_cgm_acc_init(&acc);
	hq_cgm_acc_add(&acc, 0, 0, 100);
	hq_cgm_metrics(&acc, 5, 0, 0, &m);
	ok(isnan(m.sd) && isnan(m.cv) && isnan(m.j_index), "one reading: no sd, cv, j_index");
	is_dbl(m.coverage_pct, 100, 1e-12, "one reading covers its instant");
	hq_cgm_acc_init(&acc);
	hq_cgm_metrics(&acc, 5, 0, 0, &m);
	ok(m.readings == 0 && isnan(m.mean), "no readings: nothing defined");

	/* Coverage: 7 readings over an hour at 5 minutes expect 13. */
	hq_cgm_acc_init(&acc);
	for (int i = 0; i < 7; i++)
		hq_cgm_acc_add(&acc, i * 600, 0, 100);
	hq_cgm_metrics(&acc, 5, 0, 3600, &m);
	is_dbl(m.coverage_pct, 100.0 * 7 / 13, 1e-12, "coverage: 7 of 13 expected");
	hq_cgm_metrics(&acc, 15, 0, 3600, &m);
	is_dbl(m.coverage_pct, 100, 1e-12, "coverage at most 100");
}

static void
agp(void)
{
	static const double a[] = { 100, 150, 200, 120, 120, 90 };
	static const double c[] = { 54.04, 180.16, 99.5, 70.2, 70.2, 250, 39, 401, 140 };
	struct hq_cgm_agp *g = hq_cgm_agp_new();
	struct hq_cgm_agp_row r;
	struct hq_err e;

	for (size_t i = 0; i < sizeof a / sizeof a[0]; i++)
		hq_cgm_agp_add(g, 3, a[i], &e);
	hq_cgm_agp_add(g, 4, 111, &e);
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
		hq_cgm_agp_add(g, 95, c[i], &e);
	/* Past one batch (1024 waiting values), out of order: 1..5000. */
	for (int i = 0; i < 5000; i++)
		hq_cgm_agp_add(g, 10, (double)((i * 7919) % 5000 + 1), &e);
	is_int(hq_cgm_agp_finish(g, &e), 0, "agp finished");
	agp_check(g, 3, "agp_a");
	agp_check(g, 4, "agp_b");
	agp_check(g, 95, "agp_c");
	hq_cgm_agp_row(g, 10, &r);
	is_int(r.n, 5000, "1..5000: n");
	is_dbl(r.p5, 250.95, 1e-9, "1..5000: p5 = x[250] + 0.95 (x[251] - x[250])");
	is_dbl(r.p50, 2500.5, 1e-9, "1..5000: median");
	is_dbl(r.p95, 4750.05, 1e-9, "1..5000: p95");
	hq_cgm_agp_row(g, 0, &r);
	ok(r.n == 0 && isnan(r.p50), "an empty slot has n 0 and no percentiles");
	is_int(hq_cgm_agp_slot(0, 14), 0, "00:14 is slot 0");
	is_int(hq_cgm_agp_slot(0, 15), 1, "00:15 is slot 1");
	is_int(hq_cgm_agp_slot(23, 59), 95, "23:59 is slot 95");
	hq_cgm_agp_free(g);
}

static void
interval(void)
{
	struct hq_cgm_interval iv;

	memset(&iv, 0, sizeof iv);
	is_int(hq_cgm_interval_minutes(&iv), 5, "no spacing: 5 minutes");
	hq_cgm_interval_add(&iv, 300);
	hq_cgm_interval_add(&iv, 301);
	hq_cgm_interval_add(&iv, 299);
	hq_cgm_interval_add(&iv, 3000);
	hq_cgm_interval_add(&iv, 100000);
	is_int(hq_cgm_interval_minutes(&iv), 5, "median spacing, gaps aside");
	memset(&iv, 0, sizeof iv);
	hq_cgm_interval_add(&iv, 900);
	hq_cgm_interval_add(&iv, 905);
	hq_cgm_interval_add(&iv, 60);
	is_int(hq_cgm_interval_minutes(&iv), 15, "Libre: 15 minutes");
	memset(&iv, 0, sizeof iv);
	hq_cgm_interval_add(&iv, 0);
	hq_cgm_interval_add(&iv, 0);
	is_int(hq_cgm_interval_minutes(&iv), 1, "at least a minute");
}

/* The double-source rule. */
struct got {
	int64_t t[64];
	int src[64];
	int n;
};

static void
collect(void *arg, int64_t t, int source, double v)
{
	struct got *g = arg;

	(void)v;
	if (g->n < 64) {
		g->t[g->n] = t;
		g->src[g->n++] = source;
	}
}

static void
dedup(void)
{
	struct got g = { .n = 0 };
	struct hq_cgm_dedup *d;
	int in_order = 1, from_a = 0;

	/* A (rank 0) every 5 minutes with a 30-minute hole; B (rank 1) the
	 * same readings 20 s later, and the hole's. */
	d = hq_cgm_dedup_new(5, collect, &g);
	for (int i = 0; i < 24; i++) {
		int64_t t = 1000 + 300 * i;
		int hole = i >= 10 && i < 16;
		if (!hole)
			hq_cgm_dedup_push(d, t, 0, 'A', 100);
		hq_cgm_dedup_push(d, t + 20, 1, 'B', 100);
	}
	hq_cgm_dedup_finish(d);
	hq_cgm_dedup_free(d);
	is_int(g.n, 24, "two copies of 24 readings count as 24");
	for (int i = 0; i < g.n; i++) {
		from_a += g.src[i] == 'A';
		if (i && g.t[i] < g.t[i - 1])
			in_order = 0;
	}
	is_int(from_a, 18, "the first source's 18, the second fills its hole (6)");
	ok(in_order, "in time order");
	is_int(g.src[10], 'B', "the hole's first reading from B");
	is_int(g.t[10], 1000 + 300 * 10 + 20, "at B's time");

	/* The lower source first at the same instant, then the higher one. */
	memset(&g, 0, sizeof g);
	d = hq_cgm_dedup_new(5, collect, &g);
	hq_cgm_dedup_push(d, 500, 1, 'B', 1);
	hq_cgm_dedup_push(d, 500, 0, 'A', 1);
	hq_cgm_dedup_push(d, 800, 0, 'A', 1);
	hq_cgm_dedup_push(d, 1024, 1, 'B', 1);   /* 224 s < 225 s: covered */
	hq_cgm_dedup_push(d, 1250, 1, 'B', 1);   /* 450 s after A: a gap */
	hq_cgm_dedup_finish(d);
	hq_cgm_dedup_free(d);
	is_int(g.n, 3, "ties and near misses: three count");
	is_int(g.src[0], 'A', "the tie goes to the first source");
	is_int(g.t[2], 1250, "a reading 3/4 of an interval from any other counts");

	/* Half an interval out of phase: never both. */
	memset(&g, 0, sizeof g);
	d = hq_cgm_dedup_new(5, collect, &g);
	for (int i = 0; i < 10; i++) {
		hq_cgm_dedup_push(d, 300 * i, 0, 'A', 1);
		hq_cgm_dedup_push(d, 300 * i + 150, 1, 'B', 1);
	}
	hq_cgm_dedup_finish(d);
	hq_cgm_dedup_free(d);
	is_int(g.n, 10, "a copy 2.5 minutes out of phase adds nothing");

	/* Three sources: the third fills only what neither other covers,
	 * and a copy of the second does not count beside it. */
	memset(&g, 0, sizeof g);
	d = hq_cgm_dedup_new(5, collect, &g);
	hq_cgm_dedup_push(d, 0, 0, 'A', 1);
	hq_cgm_dedup_push(d, 600, 1, 'B', 1);
	hq_cgm_dedup_push(d, 610, 2, 'C', 1);
	hq_cgm_dedup_push(d, 1200, 2, 'C', 1);
	hq_cgm_dedup_push(d, 1500, 0, 'A', 1);
	hq_cgm_dedup_finish(d);
	hq_cgm_dedup_free(d);
	is_int(g.n, 4, "three sources: A, B, C, A");
	ok(g.n == 4 && g.src[1] == 'B' && g.src[2] == 'C' && g.t[2] == 1200,
	    "C counts where neither A nor B is");
}

int
main(void)
{
	struct hq_err e;

	if (hq_time_set_zone("UTC", &e))
		return 1;
	iglu_example();
	hand_worked();
	agp();
	interval();
	dedup();
	return done_testing();
}
