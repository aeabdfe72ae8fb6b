/*
 * correlate_out — hq-correlate's results as they are given: rows (pairs,
 * groups, a ranking), charts, and the sentences a person reads (the
 * coefficients, a size, the timing, the serial-correlation note), wrapped
 * to the terminal. The engine (correlate.c) computes; this only formats.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/correlate.h"
#include "hq/output.h"
#include "hq/svg.h"
#include "hq/term.h"
#include "hq/time.h"

/* ---- rows and charts -------------------------------------------------------- */

static void
out_day(struct hq_out *o, const char *key, int64_t day)
{
	char buf[16];

	hq_time_format_day(day, buf, sizeof buf);
	hq_out_str(o, key, buf);
}

void
hq_corr_row_pair(struct hq_out *o, const struct hq_daily *a,
    const struct hq_daily *b, int lag, const struct hq_corr_result *r,
    long tested)
{
	hq_out_begin(o);
	hq_out_str(o, "a", a->metric);
	hq_out_str(o, "b", b->metric);
	hq_out_str(o, "a_agg", a->agg[0] ? a->agg : NULL);
	hq_out_str(o, "b_agg", b->agg[0] ? b->agg : NULL);
	hq_out_str(o, "a_unit", a->unit);
	hq_out_str(o, "b_unit", b->unit);
	hq_out_int(o, "lag", lag);
	out_day(o, "from", r->first);
	out_day(o, "to", r->last);
	hq_out_int(o, "n", (int64_t)r->n);
	hq_out_num(o, "r", r->pearson.r);
	hq_out_num(o, "p", r->pearson.p);
	hq_out_num(o, "ci_low", r->pearson.has_ci ? r->pearson.ci_low : NAN);
	hq_out_num(o, "ci_high", r->pearson.has_ci ? r->pearson.ci_high : NAN);
	hq_out_num(o, "rho", r->spearman.r);
	hq_out_num(o, "rho_p", r->spearman.p);
	hq_out_num(o, "slope", r->pearson.slope);
	hq_out_num(o, "intercept", r->pearson.intercept);
	if (tested >= 0) {
		hq_out_int(o, "tested", tested);
		hq_out_num(o, "p_adj", r->p_adj);
	}
	hq_out_end(o);
}

void
hq_corr_row_ranked(struct hq_out *o, const struct hq_daily *b,
    const struct hq_corr_result *r)
{
	hq_out_begin(o);
	hq_out_str(o, "b", b->metric);
	hq_out_str(o, "b_agg", b->agg);
	hq_out_int(o, "n", (int64_t)r->n);
	hq_out_num(o, "rho", r->spearman.r);
	hq_out_num(o, "rho_p", r->spearman.p);
	hq_out_num(o, "r", r->pearson.r);
	hq_out_num(o, "p_adj", r->p_adj);
	hq_out_end(o);
}

void
hq_corr_row_groups(struct hq_out *o, const struct hq_daily *a,
    const struct hq_daily *b, const char *condition, int lag,
    const struct hq_stats_welch *w)
{
	hq_out_begin(o);
	hq_out_str(o, "a", a->metric);
	hq_out_str(o, "b", b->metric);
	hq_out_str(o, "b_agg", b->agg[0] ? b->agg : NULL);
	hq_out_str(o, "unit", b->unit);
	hq_out_str(o, "condition", condition);
	hq_out_int(o, "lag", lag);
	hq_out_int(o, "n_with", (int64_t)w->n_x);
	hq_out_int(o, "n_without", (int64_t)w->n_y);
	hq_out_num(o, "mean_with", w->mean_x);
	hq_out_num(o, "mean_without", w->mean_y);
	hq_out_num(o, "median_with", w->median_x);
	hq_out_num(o, "median_without", w->median_y);
	hq_out_num(o, "diff", w->diff);
	hq_out_num(o, "t", w->t);
	hq_out_num(o, "df", w->df);
	hq_out_num(o, "p", w->p);
	hq_out_num(o, "g", w->g);
	hq_out_end(o);
}

/* Each pair's day, for the charts' tooltips; free_labels. */
static char **
day_labels(const struct hq_corr_pairs *p)
{
	char **l = hq_xcalloc(p->n + 1, sizeof *l);

	for (size_t i = 0; i < p->n; i++) {
		l[i] = hq_xmalloc(16);
		hq_time_format_day(p->days[i], l[i], 16);
	}
	return l;
}

static void
free_labels(char **l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(l[i]);
	free(l);
}

int
hq_corr_svg_pairs(FILE *fp, const struct hq_daily *a,
    const struct hq_daily *b, int lag, int night,
    const struct hq_corr_pairs *p, const struct hq_corr_result *r, int pearson)
{
	char la[160], lb[160], title[400], sub[200], when[32];
	char **labels = day_labels(p);
	int rc;

	hq_corr_label(a, la, sizeof la);
	hq_corr_label(b, lb, sizeof lb);
	hq_corr_timing(lag, night, when, sizeof when);
	snprintf(title, sizeof title, "%s and %s %s", la, lb, when);
	snprintf(sub, sizeof sub, "\u03c1 = %.2f, r = %.2f, p = %.2g, n = %zu days; "
	    "an association, not a cause", r->spearman.r, r->pearson.r,
	    pearson ? r->pearson.p : r->spearman.p, r->n);
	struct hq_scatter sc = { .title = title, .subtitle = sub, .xname = la,
	    .xunit = a->unit, .yname = lb, .yunit = b->unit, .x = p->a, .y = p->b,
	    .labels = (const char *const *)labels, .n = p->n, .has_line = 1,
	    .slope = r->pearson.slope, .intercept = r->pearson.intercept };
	rc = hq_svg_scatter(fp, &sc);
	free_labels(labels, p->n);
	return rc;
}

int
hq_corr_svg_groups(FILE *fp, const struct hq_daily *b,
    const char *condition, int lag, int night, const struct hq_corr_groups *g,
    const struct hq_stats_welch *w)
{
	char lb[160], title[400], sub[200];
	char **lw = day_labels(&g->with), **lo = day_labels(&g->without);
	const char *rel = night ? "the nights after" : lag == 0 ? "on"
	    : lag > 0 ? "after" : "before";
	int rc;

	hq_corr_label(b, lb, sizeof lb);
	snprintf(title, sizeof title, "%s %s days with %s, and %s the others", lb,
	    rel, condition, night ? "after" : rel);
	snprintf(sub, sizeof sub, "difference %.3g %s, p = %.2g, Hedges' g = %.2f; an "
	    "association, not a cause", w->diff, b->unit, w->p, w->g);
	struct hq_strip st[2] = {
		{ condition, g->with.b, (const char *const *)lw, g->with.n },
		{ "the other days", g->without.b, (const char *const *)lo, g->without.n },
	};
	struct hq_strips s = { .title = title, .subtitle = sub, .unit = b->unit,
	    .groups = st, .ngroups = 2 };
	rc = hq_svg_strips(fp, &s);
	free_labels(lw, g->with.n);
	free_labels(lo, g->without.n);
	return rc;
}

/* ---- words ------------------------------------------------------------------- */

void
hq_corr_label(const struct hq_daily *s, char *buf, size_t n)
{
	size_t k = 0;

	for (const char *p = s->metric; *p && k + 1 < n; p++)
		buf[k++] = *p == '_' ? ' ' : *p;
	buf[k] = '\0';
	if (!s->agg_default && k + 4 < n)
		snprintf(buf + k, n - k, " (%s)", s->agg);
}

/* About two significant digits, without an exponent for everyday sizes. */
static void
fmt2(double v, char *buf, size_t n)
{
	double a = fabs(v);
	int dec;

	if (a == 0) {
		snprintf(buf, n, "0");
		return;
	}
	if (a < 1e-4 || a >= 1e7) {
		snprintf(buf, n, "%.2g", v);
		return;
	}
	dec = 1 - (int)floor(log10(a));
	snprintf(buf, n, "%.*f", dec < 0 ? 0 : dec, v);
}

/* A coefficient to two decimals, never "-0.00". */
static void
fmt_coef(double v, char *buf, size_t n)
{
	snprintf(buf, n, "%.2f", fabs(v) < 0.005 ? 0.0 : v);
}

/* " mg/dL" after a number: nothing for a plain count. */
static const char *
unit_after(const char *unit, char *buf, size_t n)
{
	snprintf(buf, n, "%s%s", unit[0] && strcmp(unit, "count") ? " " : "",
	    strcmp(unit, "count") ? unit : "");
	return buf;
}

static void
fmt_p(double p, char *buf, size_t n)
{
	if (p == 0)
		snprintf(buf, n, "< 1e-300");
	else if (p < 1e-4)
		snprintf(buf, n, "= %.1e", p);
	else
		snprintf(buf, n, "= %.2g", p);
}

/* A number of days said roughly: whole days below 100, else two
 * significant digits ("about 140"). */
static void
fmt_about(double v, char *buf, size_t n)
{
	double mag = v < 100 ? 1 : pow(10, floor(log10(v)) - 1);

	snprintf(buf, n, "%.0f", round(v / mag) * mag);
}

/* When B is taken, relative to A's day: "the night after", "the same
 * day", "2 days later". */
void
hq_corr_timing(int lag, int night, char *buf, size_t n)
{
	if (night)
		snprintf(buf, n, "the night after");
	else if (lag == 0)
		snprintf(buf, n, "the same day");
	else if (lag == 1)
		snprintf(buf, n, "the next day");
	else if (lag == -1)
		snprintf(buf, n, "the day before");
	else if (lag > 0)
		snprintf(buf, n, "%d days later", lag);
	else
		snprintf(buf, n, "%d days before", -lag);
}

/* 1, 2 or 5 times a power of ten, near v: the step a slope is told in. */
static double
round_step(double v)
{
	double mag = pow(10, floor(log10(v))), f = v / mag;

	return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * mag;
}

/* "each 10 mg/dL more blood glucose (max) went with 0.12 h less sleep" */
static void
size_clause(struct hq_buf *b, const struct hq_daily *a,
    const struct hq_daily *bs, const struct hq_corr_result *r)
{
	char la[160], lb[160], step[32], by[32], ua[40], ub[40];
	double st = r->sd_a > 0 ? round_step(r->sd_a) : 1;

	hq_corr_label(a, la, sizeof la);
	hq_corr_label(bs, lb, sizeof lb);
	snprintf(step, sizeof step, "%g", st);
	fmt2(fabs(r->pearson.slope * st), by, sizeof by);
	hq_buf_printf(b, "each %s%s more %s went with %s%s %s %s", step,
	    unit_after(a->unit, ua, sizeof ua), la, by,
	    unit_after(bs->unit, ub, sizeof ub), r->pearson.slope < 0 ? "less" : "more", lb);
}

void
hq_corr_sentence_pair(struct hq_buf *b, const struct hq_daily *a,
    const struct hq_daily *bs, int lag, int night,
    const struct hq_corr_result *r, int pearson)
{
	char la[160], lb[160], when[32], c[32], other[32], p[32], d0[16], d1[16];
	double coef = pearson ? r->pearson.r : r->spearman.r;
	double pv = pearson ? r->pearson.p : r->spearman.p;

	hq_corr_label(a, la, sizeof la);
	hq_corr_label(bs, lb, sizeof lb);
	hq_corr_timing(lag, night, when, sizeof when);
	fmt_coef(coef, c, sizeof c);
	fmt_coef(pearson ? r->spearman.r : r->pearson.r, other, sizeof other);
	fmt_p(pv, p, sizeof p);
	hq_time_format_day(r->first, d0, sizeof d0);
	hq_time_format_day(r->last, d1, sizeof d1);
	if (pv >= 0.05) {
		hq_buf_printf(b, "No clear link between %s and %s %s: %s = %s (p %s, "
		    "n = %zu days, %s to %s).", la, lb, when, pearson ? "r" : "\u03c1",
		    c, p, r->n, d0, d1);
		return;
	}
	hq_buf_printf(b, "Days with more %s went with %s %s %s: %s = %s (%s = %s); ",
	    la, coef < 0 ? "less" : "more", lb, when, pearson ? "r" : "\u03c1", c,
	    pearson ? "\u03c1" : "r", other);
	size_clause(b, a, bs, r);
	hq_buf_printf(b, " (p %s, n = %zu days, %s to %s).", p, r->n, d0, d1);
	if (hq_corr_serial(r))
		hq_corr_serial_caution(b, "each series carries over from day to day",
		    r->n, r->n_eff);
	hq_buf_printf(b, " An association, not proof of a cause.");
}

void
hq_corr_sentence_groups(struct hq_buf *b, const struct hq_daily *bs,
    const char *condition, int lag, int night, const struct hq_corr_groups *gr,
    const struct hq_stats_welch *w)
{
	char lb[160], d[32], mw[32], mo[32], dw[32], dwo[32], p[32], g[32], u[40];

	hq_corr_label(bs, lb, sizeof lb);
	if (night)
		hq_buf_printf(b, "Nights after days with %s: ", condition);
	else if (lag == 0)
		hq_buf_printf(b, "On days with %s: ", condition);
	else if (lag == 1)
		hq_buf_printf(b, "The day after days with %s: ", condition);
	else if (lag == -1)
		hq_buf_printf(b, "The day before days with %s: ", condition);
	else
		hq_buf_printf(b, "%d days %s days with %s: ", lag > 0 ? lag : -lag,
		    lag > 0 ? "after" : "before", condition);
	unit_after(bs->unit, u, sizeof u);
	fmt2(fabs(w->diff), d, sizeof d);
	fmt2(w->mean_x, mw, sizeof mw);
	fmt2(w->mean_y, mo, sizeof mo);
	fmt2(w->median_x, dw, sizeof dw);
	fmt2(w->median_y, dwo, sizeof dwo);
	fmt_p(w->p, p, sizeof p);
	snprintf(g, sizeof g, "%.2f", w->g);
	if (w->p >= 0.05)
		hq_buf_printf(b, "no clear difference in %s", lb);
	else
		hq_buf_printf(b, "%s%s %s %s", d, u, w->diff < 0 ? "less" : "more", lb);
	hq_buf_printf(b, " (%s vs %s%s on average; medians %s vs %s), p %s, "
	    "Hedges' g = %s, n = %zu vs %zu days.", mw, mo, u, dw, dwo, p, g,
	    w->n_x, w->n_y);
	if (gr && hq_corr_groups_serial(gr)) {
		char why[220];
		snprintf(why, sizeof why, "the condition's days and %s come in runs",
		    lb);
		hq_corr_serial_caution(b, why, w->n_x + w->n_y, gr->n_eff);
	}
	if (w->p < 0.05)
		hq_buf_printf(b, " An association, not proof of a cause.");
}

int
hq_corr_sentence_against(struct hq_buf *b, size_t rank,
    const struct hq_daily *a, const struct hq_daily *bs, int lag,
    int night, const struct hq_corr_result *r, int pearson)
{
	char la[160], lb[160], when[32], c[32], p[32], q[32], ua[40], ub[40];
	char step[32], by[32], ne[32];
	int serial;
	double coef = pearson ? r->pearson.r : r->spearman.r;
	double pv = pearson ? r->pearson.p : r->spearman.p;
	double st = r->sd_a > 0 ? round_step(r->sd_a) : 1;

	hq_corr_label(a, la, sizeof la);
	hq_corr_label(bs, lb, sizeof lb);
	hq_corr_timing(lag, night, when, sizeof when);
	fmt_coef(coef, c, sizeof c);
	fmt_p(pv, p, sizeof p);
	fmt_p(r->p_adj, q, sizeof q);
	snprintf(step, sizeof step, "%g", st);
	fmt2(fabs(r->pearson.slope * st), by, sizeof by);
	hq_buf_printf(b, "%zu. %s %s: ", rank, lb, when);
	if (r->p_adj >= 0.05)
		hq_buf_printf(b, "no clear link with %s", la);
	else
		hq_buf_printf(b, "%s with more %s, %s%s per %s%s", coef < 0 ? "lower"
		    : "higher", la, by, unit_after(bs->unit, ub, sizeof ub), step,
		    unit_after(a->unit, ua, sizeof ua));
	hq_buf_printf(b, " (%s = %s, p %s, adjusted %s, n = %zu days",
	    pearson ? "r" : "\u03c1", c, p, q + 2, r->n);
	serial = r->p_adj < 0.05 && hq_corr_serial(r);
	if (serial) {
		fmt_about(r->n_eff, ne, sizeof ne);
		hq_buf_printf(b, ", worth about %s independent", ne);
	}
	hq_buf_printf(b, ").");
	return serial;
}

void
hq_corr_serial_caution(struct hq_buf *b, const char *why, size_t n,
    double n_eff)
{
	char ne[32];

	fmt_about(n_eff, ne, sizeof ne);
	hq_buf_printf(b, " The days are not independent (%s), so p is smaller "
	    "than it should be: the %zu days are worth about %s independent ones.",
	    why, n, ne);
}

void
hq_corr_format_p(double p, char *buf, size_t n)
{
	fmt_p(p, buf, n);
}

void
hq_corr_format2(double v, char *buf, size_t n)
{
	fmt2(v, buf, n);
}

void
hq_corr_serial_note(struct hq_buf *b)
{
	hq_buf_printf(b, "Where n is worth fewer independent days, both series "
	    "carry over from day to day, so the days are not independent and p is "
	    "smaller than it should be.");
}

void
hq_corr_wrap(FILE *fp, const char *text, size_t width)
{
	hq_term_wrap(fp, "", 0, 2, text, width);
}
