/* Unit tests for lib/analyze/correlate.c: operands, files of hq-query day rows
 * (out of order, nulls, fields, errors with file:line), pairing by day with
 * a shift and a span, groups by a condition over a file's fields, the
 * --against ranking with Benjamini-Hochberg, and the sentences a terminal
 * gets, wrapped and with control characters escaped. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hq/correlate.h"
#include "tap.h"

#define D0 19814    /* 2024-04-01 */

static char dir[] = "/tmp/hq-correlate-test.XXXXXX";

static const char *
write_file(const char *name, const char *text)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
	return path;
}

static void
test_operands(void)
{
	char m[128];
	struct hq_agg a;
	int has;
	struct hq_err e;

	ok(hq_corr_is_file("-") && hq_corr_is_file("./steps") && hq_corr_is_file("hrv.jsonl") &&
	    hq_corr_is_file("x.json"), "files: -, a path, .jsonl, .json");
	ok(!hq_corr_is_file("glucose.max") && !hq_corr_is_file("steps"), "metrics: glucose.max, steps");
	ok(hq_daily_parse_operand("glucose.max", m, sizeof m, &a, &has, &e) == 0 && has &&
	    strcmp(m, "glucose") == 0 && strcmp(a.name, "max") == 0, "glucose.max: glucose, max");
	ok(hq_daily_parse_operand("sleep", m, sizeof m, &a, &has, &e) == 0 && !has &&
	    strcmp(m, "sleep") == 0, "sleep: the default aggregate");
	ok(hq_daily_parse_operand("heart_rate.mean", m, sizeof m, &a, &has, &e) == 0 &&
	    strcmp(a.name, "avg") == 0, "mean is avg");
	ok(hq_daily_parse_operand("glucose.maxx", m, sizeof m, &a, &has, &e) < 0 &&
	    strstr(e.msg, "unknown daily aggregate 'maxx'"), "an unknown aggregate: %s", e.msg);
	ok(hq_daily_parse_operand(".max", m, sizeof m, &a, &has, &e) < 0, "no metric before the dot");
}

static void
test_files(void)
{
	struct hq_daily s;
	struct hq_err e;
	const char *p;

	p = write_file("g.jsonl",
	    "{\"metric\":\"blood_glucose\",\"period\":\"2024-04-03\",\"start\":\"x\",\"end\":\"y\","
	    "\"value\":150,\"max\":150,\"avg\":101,\"n\":288,\"unit\":\"mg/dL\"}\n"
	    "\n"
	    "{\"metric\":\"blood_glucose\",\"period\":\"2024-04-01\",\"value\":130,\"max\":130,\"n\":280,\"unit\":\"mg/dL\"}\n"
	    "{\"metric\":\"blood_glucose\",\"period\":\"2024-04-02\",\"value\":null,\"max\":null,\"n\":0,\"unit\":\"mg/dL\"}\n"
	    "{\"metric\":\"blood_glucose\",\"period\":\"2024-04-04\",\"value\":145,\"max\":145,\"n\":288,\"unit\":\"mg/dL\"}\n");
	ok(hq_daily_read(p, &s, &e) == 0, "a file of glucose day rows");
	is_int(s.n, 3, "three days: a null value is a missing day, a blank line nothing");
	ok(s.n == 3 && s.days[0] == D0 && s.days[1] == D0 + 2 && s.days[2] == D0 + 3,
	    "in day order whatever the file's order");
	is_dbl(s.n == 3 ? s.v[0] : 0, 130, 0, "values follow their days");
	is_str(s.agg, "max", "the aggregate is the field after value");
	is_str(s.unit, "mg/dL", "the unit");
	is_str(s.identifier, "HKQuantityTypeIdentifierBloodGlucose", "the family, from the catalog");
	is_int(s.nfields, 3, "numeric fields kept: max, avg, n");
	ok(s.nfields == 3 && strcmp(s.fields[2], "n") == 0 && s.fv[0 * 3 + 2] == 280 &&
	    isnan(s.fv[0 * 3 + 1]), "n of the first day; avg absent there is NaN");
	hq_daily_free(&s);

	p = write_file("sleep.jsonl", "{\"metric\":\"sleep\",\"period\":\"2024-04-02\",\"value\":7.5,\"avg\":7.5,\"n\":1,\"unit\":\"h\"}\n");
	ok(hq_daily_read(p, &s, &e) == 0 && s.nights && s.agg_default,
	    "a file of sleep: nights, its default aggregate");
	hq_daily_free(&s);

	static const struct { const char *text, *want; } bad[] = {
		{ "{\"metric\":\"steps\",\"period\":\"2024-04-01\",\"value\":1}\n[1]\n", "b.jsonl:2: not a JSON object" },
		{ "{\"metric\":\"steps\",\"period\":\"2024-04-01\"}\n", "b.jsonl:1: a row needs metric, period and value" },
		{ "{\"metric\":\"steps\",\"period\":\"2024-02-30\",\"value\":1}\n", "b.jsonl:1: period '2024-02-30' is not a day" },
		{ "{\"metric\":\"steps\",\"period\":\"2024-04-01\",\"value\":\"7\"}\n", "b.jsonl:1: value is not a number" },
		{ "\n\n", "b.jsonl: no rows" },
		{ "{\"metric\":\"st\\u001b[31meps\",\"period\":\"2024-04-01\",\"value\":1}\n",
		  "b.jsonl:1: a control character in the metric's name" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		p = write_file("b.jsonl", bad[i].text);
		ok(hq_daily_read(p, &s, &e) < 0 && strstr(e.msg, bad[i].want),
		    "refused: %s", bad[i].want);
		if (!strstr(e.msg, bad[i].want))
			printf("#   got: %s\n", e.msg);
	}
}

/* A series by hand: days D0 + d[i] with values v[i]. */
static void
series(struct hq_daily *s, const char *metric, const int *d, const double *v,
    size_t n)
{
	memset(s, 0, sizeof *s);
	snprintf(s->metric, sizeof s->metric, "%s", metric);
	snprintf(s->identifier, sizeof s->identifier, "%s", metric);
	s->days = calloc(n + 1, sizeof *s->days);
	s->v = calloc(n + 1, sizeof *s->v);
	for (size_t i = 0; i < n; i++) {
		s->days[i] = D0 + d[i];
		s->v[i] = v[i];
	}
	s->n = n;
}

static void
test_pairs(void)
{
	static const int da[] = { 0, 1, 2, 3, 5, 6 }, db[] = { 1, 2, 3, 4, 6, 7 };
	static const double va[] = { 10, 11, 12, 13, 15, 16 }, vb[] = { 1, 2, 3, 4, 6, 7 };
	struct hq_daily a, b;
	struct hq_corr_pairs p;
	struct hq_daily_span all = { INT64_MIN, INT64_MAX }, some = { D0 + 1, D0 + 5 };
	int lag, shift;

	series(&a, "a", da, va, 6);
	series(&b, "b", db, vb, 6);
	hq_corr_pair(&a, &b, 0, all, &p);
	is_int(p.n, 4, "same day: days 1, 2, 3, 6");
	ok(p.n == 4 && p.days[3] == D0 + 6 && p.a[3] == 16 && p.b[3] == 6, "day 6: 16 with 6");
	hq_corr_pairs_free(&p);
	hq_corr_pair(&a, &b, 1, all, &p);
	is_int(p.n, 6, "shift 1: every day of A has B the day after");
	ok(p.n == 6 && p.days[0] == D0 && p.b[0] == 1 && p.b[4] == 6, "A's day, B's next day's value");
	hq_corr_pairs_free(&p);
	hq_corr_pair(&a, &b, 1, some, &p);
	is_int(p.n, 4, "the span bounds A's days: 1, 2, 3, 5");
	hq_corr_pairs_free(&p);
	hq_corr_pair(&a, &b, -1, all, &p);
	is_int(p.n, 3, "shift -1: days 2, 3 and 5 have B the day before");
	hq_corr_pairs_free(&p);

	b.nights = 1;
	hq_corr_lag(&b, 0, 1, &lag, &shift);
	ok(lag == 1 && shift == 1, "the night after, for sleep: the night dated D+1");
	b.nights = 0;
	b.window = 1;
	hq_corr_lag(&b, 0, 1, &lag, &shift);
	ok(lag == 1 && shift == 0, "for a window: keyed by D, reported as lag 1");
	hq_corr_lag(&b, -2, 0, &lag, &shift);
	ok(lag == -2 && shift == -2, "a lag as given");
	ok(!hq_corr_same_family(&a, b.identifier) && hq_corr_same_family(&a, "A"),
	    "families by identifier, whatever its case");
	hq_daily_free(&a);
	hq_daily_free(&b);
}

/* Split B's days by cond on the file series a ("lab.jsonl"), as
 * hq-correlate --when does without a store: 0, or -1 with e set (a
 * condition the file cannot answer). */
static int
split_by(struct hq_daily *a, struct hq_daily *b, const char *cond,
    struct hq_corr_groups *g, struct hq_err *e)
{
	struct hq_daily *files[1] = { a };
	struct hq_daily_span all = { INT64_MIN, INT64_MAX };
	struct hq_select settings, range;
	struct hq_daily_store cs = { NULL, &settings };
	struct hq_select_daysrc src;
	struct hq_select_days *days;
	struct hq_corr_pairs p;
	struct hq_expr *x;

	a->path = "lab.jsonl";
	hq_select_init(&settings);
	hq_select_init(&range);
	hq_corr_daysrc(&src, files, 1, &cs, &range);
	x = hq_expr_parse(cond, e);
	days = x ? hq_select_days_new(&x, 1, &src, e) : NULL;
	hq_corr_pair(b, b, 0, all, &p);
	if (days)
		hq_corr_split(&p, days, g);
	hq_select_days_free(days);
	hq_expr_free(x);
	hq_corr_pairs_free(&p);
	hq_corr_daysrc_free(&src);
	return days ? 0 : -1;
}

/* Groups by a condition on a file's metric (no store). */
static void
test_groups(void)
{
	static const int d[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	static const double va[] = { 1, 2, 3, 4, 5, 6, 7, 8 }, vb[] = { 5, 6, 5, 6, 9, 8, 9, 8 };
	struct hq_daily a, b;
	struct hq_corr_groups g;
	struct hq_err e;

	series(&a, "lab", d, va, 7);          /* day 7 has no lab value */
	series(&b, "b", d, vb, 8);
	if (ok(split_by(&a, &b, "lab.value > 4", &g, &e) == 0,
	    "a condition on a file's metric")) {
		is_int(g.with.n, 3, "lab > 4 on days 4, 5, 6");
		is_int(g.without.n, 4, "not on days 0-3");
		is_int(g.undefined, 1, "day 7, without lab, in neither group");
		ok(g.with.n == 3 && g.with.b[0] == 9 && g.without.b[3] == 6, "B's values by group");
		hq_corr_groups_free(&g);
	}
	ok(split_by(&a, &b, "lab.p90 > 4", &g, &e) < 0 && strstr(e.msg,
	    "lab.jsonl has no daily lab.p90 (its rows have value)"), "a field the file lacks: %s", e.msg);
	hq_daily_free(&a);
	hq_daily_free(&b);
}

/* The serial correlation behind --when, against R (the days and values
 * and R's commands are in tests/data/stats/groups-serial.R): days 0..39
 * but 10, 11 and 25; the condition holds in runs of five days; B follows
 * it and a slow wave. */
static void
groups_serial(int alternate)
{
	int d[40];
	double va[40], vb[40];
	size_t n = 0;
	struct hq_daily a, b;
	struct hq_corr_groups g;
	struct hq_err e;
	struct hq_buf buf = { 0 };
	struct hq_stats_welch w;

	for (int day = 0; day < 40; day++) {
		if (day == 10 || day == 11 || day == 25)
			continue;
		d[n] = day;
		va[n] = alternate ? day % 2 == 1 : (day / 5) % 2 == 1;
		vb[n] = 10 + 3 * va[n] + round(200 * sin(day / 3.0)) / 100;
		n++;
	}
	series(&a, "lab", d, va, n);
	series(&b, "b", d, vb, n);
	if (split_by(&a, &b, "lab.value > 0.5", &g, &e) != 0)
		ok(0, "the condition reads the file: %s", e.msg);
	else if (alternate) {
		ok(g.acf_cond < 0 && !hq_corr_groups_serial(&g),
		    "a condition on every other day: no runs, no warning");
		hq_corr_groups_free(&g);
	} else {
		is_int(g.with.n + g.without.n, 37, "37 days split");
		is_dbl(g.acf_cond, 0.685380116959064, 1e-12, "the condition's lag-1 autocorrelation (R)");
		is_dbl(g.acf_b, 0.782457185482595, 1e-12, "B's lag-1 autocorrelation (R)");
		is_dbl(g.n_eff, 11.1682839254633, 1e-9, "worth about 11 independent days (R)");
		ok(hq_corr_groups_serial(&g), "which the sentence says");
		if (hq_stats_welch(g.with.b, g.with.n, g.without.b, g.without.n, &w) ==
		    HQ_STATS_OK) {
			hq_corr_sentence_groups(&buf, &b, "lab.value>0.5", 0, 0, &g, &w);
			like(buf.data, "n = 19 vs 18 days\\. The days are not independent "
			    "\\(the condition's days and b \\(\\) come in runs\\), so p is smaller "
			    "than it should be: the 37 days are worth about 11 independent "
			    "ones\\. An association, not proof of a cause\\.$",
			    "the --when sentence warns");
		}
		hq_corr_groups_free(&g);
	}
	hq_buf_free(&buf);
	hq_daily_free(&a);
	hq_daily_free(&b);
}

static void
test_rank(void)
{
	struct hq_corr_result r[4];
	size_t idx[4] = { 0, 1, 2, 3 };
	static const double rho[] = { 0.1, -0.6, 0.3, -0.3 }, p[] = { 0.4, 0.001, 0.02, 0.03 };

	memset(r, 0, sizeof r);
	for (int i = 0; i < 4; i++) {
		r[i].spearman.r = rho[i];
		r[i].spearman.p = p[i];
		r[i].pearson.r = -rho[i] / 2;
		r[i].pearson.p = 0.5;
	}
	hq_corr_rank(r, idx, 4, 0);
	ok(idx[0] == 1 && idx[1] == 2 && idx[2] == 3 && idx[3] == 0,
	    "sorted by |rho|, ties in the given order: %zu %zu %zu %zu", idx[0], idx[1], idx[2], idx[3]);
	/* R: p.adjust(c(0.4, 0.001, 0.02, 0.03), "BH") = 0.4 0.004 0.04 0.04 */
	is_dbl(r[0].p_adj, 0.004, 1e-12, "BH: 0.001 * 4 / 1");
	is_dbl(r[1].p_adj, 0.04, 1e-12, "BH: 0.02 * 4 / 2 = 0.04");
	is_dbl(r[2].p_adj, 0.04, 1e-12, "BH: 0.03 * 4 / 3 = 0.04");
	is_dbl(r[3].p_adj, 0.4, 1e-12, "BH: 0.4 stays");
}

/* hq_corr_stats over pairs with gaps: A and B's lag-1 autocorrelations
 * over consecutive paired days only, and n_eff. The data are
 * tests/data/stats/lag1-gaps.tsv; the values R's (make-expected.R there). */
static void
test_serial(void)
{
	static const int64_t d[] = { 1, 2, 3, 5, 6, 9, 10, 11, 12, 14, 20, 21 };
	static const double x[] = { 7.1, 6.8, 6.9, 7.5, 7.7, 6.2, 6.0, 6.4, 6.6, 7.9, 7.2, 7.0 };
	static const double y[] = { 52, 54, 55, 49, 48, 58, 60, 57, 56, 47, 51, 53 };
	struct hq_corr_pairs p = { 0 };
	struct hq_corr_result r;

	p.n = sizeof d / sizeof d[0];
	p.days = hq_xmalloc(p.n * sizeof *p.days);
	p.a = hq_xmalloc(p.n * sizeof *p.a);
	p.b = hq_xmalloc(p.n * sizeof *p.b);
	for (size_t i = 0; i < p.n; i++) {
		p.days[i] = D0 + d[i];
		p.a[i] = x[i];
		p.b[i] = y[i];
	}
	is_int(hq_corr_stats(&p, &r), HQ_STATS_OK, "12 pairs with gaps: statistics");
	is_dbl(r.acf_a, 0.72250165819146539, 1e-12, "A's lag-1 autocorrelation as R's acf (na.pass)");
	is_dbl(r.acf_b, 0.72653429602888053, 1e-12, "B's");
	is_dbl(r.n_eff, 3.7385074930172855, 1e-12, "n_eff = n (1 - r1 r2) / (1 + r1 r2), as R");
	ok(hq_corr_serial(&r), "worth 3.7 of 12 days: serial");
	hq_corr_pairs_free(&p);
}

static void
test_words(void)
{
	struct hq_daily a = { .metric = "blood_glucose", .agg = "max", .unit = "mg/dL" };
	struct hq_daily b = { .metric = "sleep", .agg = "avg", .unit = "h", .agg_default = 1, .nights = 1 };
	struct hq_corr_result r = { .n = 53, .first = D0, .last = D0 + 60, .sd_a = 12 };
	struct hq_stats_welch w = { .n_x = 12, .n_y = 41, .mean_x = 6.41, .mean_y = 7.08,
	    .median_x = 6.45, .median_y = 7.1, .diff = -0.67, .p = 0.0031, .g = -0.93 };
	struct hq_buf buf = { 0 };
	char label[64], *text = NULL;
	size_t len = 0;
	FILE *fp;

	hq_corr_label(&a, label, sizeof label);
	is_str(label, "blood glucose (max)", "a label: words, and the aggregate asked for");
	hq_corr_label(&b, label, sizeof label);
	is_str(label, "sleep", "the default aggregate is not said");
	r.pearson.r = -0.38;
	r.pearson.p = 0.005;
	r.pearson.slope = -0.012;
	r.spearman.r = -0.41;
	r.spearman.p = 0.0024;
	hq_corr_sentence_pair(&buf, &a, &b, 1, 1, &r, 0);
	is_str(buf.data, "Days with more blood glucose (max) went with less sleep the night "
	    "after: \u03c1 = -0.41 (r = -0.38); each 10 mg/dL more blood glucose (max) went "
	    "with 0.12 h less sleep (p = 0.0024, n = 53 days, 2024-04-01 to 2024-05-31). "
	    "An association, not proof of a cause.", "a pair's sentence");
	hq_buf_reset(&buf);
	r.spearman.p = 0.3;
	hq_corr_sentence_pair(&buf, &a, &b, 0, 0, &r, 0);
	ok(strncmp(buf.data, "No clear link between blood glucose (max) and sleep the same day: "
	    "\u03c1 = -0.41 (p = 0.3,", strlen("No clear link between blood glucose (max) and "
	    "sleep the same day: \u03c1 = -0.41 (p = 0.3,")) == 0, "p >= 0.05: no clear link");
	hq_buf_reset(&buf);
	hq_corr_sentence_groups(&buf, &b, "glucose.max>140", 1, 1, NULL, &w);
	is_str(buf.data, "Nights after days with glucose.max>140: 0.67 h less sleep (6.4 vs "
	    "7.1 h on average; medians 6.5 vs 7.1), p = 0.0031, Hedges' g = -0.93, n = 12 vs "
	    "41 days. An association, not proof of a cause.", "hq-correlate(1)'s sentence for --when");
	hq_buf_reset(&buf);
	r.p_adj = 0.01;
	r.spearman.p = 0.0024;
	hq_corr_sentence_against(&buf, 2, &b, &a, -1, 0, &r, 0);
	is_str(buf.data, "2. blood glucose (max) the day before: lower with more sleep, 0.12 "
	    "mg/dL per 10 h (\u03c1 = -0.41, p = 0.0024, adjusted 0.01, n = 53 days).",
	    "an --against row: rank, direction, size, p, adjusted p, n");

	/* Serially correlated series: n_eff = 53 (1 - 0.3) / (1 + 0.3) = 28.5 */
	r.acf_a = 0.6;
	r.acf_b = 0.5;
	r.n_eff = 53 * 0.7 / 1.3;
	ok(hq_corr_serial(&r), "acf 0.6 and 0.5, n_eff 28.5 of 53: serial");
	hq_buf_reset(&buf);
	hq_corr_sentence_pair(&buf, &a, &b, 1, 1, &r, 0);
	is_str(buf.data, "Days with more blood glucose (max) went with less sleep the night "
	    "after: \u03c1 = -0.41 (r = -0.38); each 10 mg/dL more blood glucose (max) went "
	    "with 0.12 h less sleep (p = 0.0024, n = 53 days, 2024-04-01 to 2024-05-31). "
	    "The days are not independent (each series carries over from day to day), so p "
	    "is smaller than it should be: the 53 days are worth about 29 independent ones. "
	    "An association, not proof of a cause.", "a pair of serially correlated series: "
	    "the sentence says the days are not independent and what n is worth");
	hq_buf_reset(&buf);
	ok(hq_corr_sentence_against(&buf, 2, &b, &a, -1, 0, &r, 0) == 1,
	    "an --against row of such series says so to its caller");
	is_str(buf.data, "2. blood glucose (max) the day before: lower with more sleep, 0.12 "
	    "mg/dL per 10 h (\u03c1 = -0.41, p = 0.0024, adjusted 0.01, n = 53 days, worth "
	    "about 29 independent).", "an --against row: n and what it is worth");
	r.n_eff = 250.4;
	r.n = 420;
	hq_buf_reset(&buf);
	hq_corr_sentence_against(&buf, 1, &b, &a, 0, 0, &r, 0);
	ok(strstr(buf.data, "n = 420 days, worth about 250 independent).") != NULL,
	    "above 100 days: two significant digits (250.4 -> 250)");
	r.n = 53;
	r.n_eff = 53 * 0.7 / 1.3;
	r.p_adj = 0.2;
	hq_buf_reset(&buf);
	ok(hq_corr_sentence_against(&buf, 2, &b, &a, -1, 0, &r, 0) == 0 &&
	    !strstr(buf.data, "worth"), "no link after adjusting: nothing to warn about");
	r.p_adj = 0.01;
	r.spearman.p = 0.3;
	hq_buf_reset(&buf);
	hq_corr_sentence_pair(&buf, &a, &b, 0, 0, &r, 0);
	ok(!strstr(buf.data, "independent"), "no clear link: no warning that p is too small");
	r.spearman.p = 0.0024;
	r.acf_b = 0.15;
	ok(!hq_corr_serial(&r), "one series below 0.2: not serial");
	hq_buf_reset(&buf);
	hq_corr_sentence_pair(&buf, &a, &b, 0, 0, &r, 0);
	ok(!strstr(buf.data, "independent"), "and the sentence does not warn");
	r.acf_a = r.acf_b = 0.3;
	r.n_eff = 53 * 0.91 / 1.09;
	ok(!hq_corr_serial(&r), "acf 0.3 and 0.3: n_eff 44 of 53 is not well below n");
	r.acf_a = r.acf_b = NAN;
	r.n_eff = 53;
	ok(!hq_corr_serial(&r), "no consecutive days: not serial");

	fp = open_memstream(&text, &len);
	hq_corr_wrap(fp, "one two three four five six seven eight nine ten \x1b[31mred", 20);
	fclose(fp);
	is_str(text, "one two three four\n  five six seven\n  eight nine ten\n  ?[31mred\n",
	    "wrapped at 20 columns; an escape from a file's name is not sent to the terminal");
	free(text);
	hq_buf_free(&buf);
}

int
main(void)
{
	char path[300];

	if (!mkdtemp(dir))
		return 1;
	test_operands();
	test_files();
	test_pairs();
	test_groups();
	groups_serial(0);
	groups_serial(1);
	test_rank();
	test_serial();
	test_words();
	for (const char *const *f = (const char *const[]){ "g.jsonl", "b.jsonl",
	    "sleep.jsonl", NULL }; *f; f++) {
		snprintf(path, sizeof path, "%s/%s", dir, *f);
		unlink(path);
	}
	rmdir(dir);
	return done_testing();
}
