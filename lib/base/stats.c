#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/stats.h"

/* The aggregations by name; "mean" is another name for avg. */
static const struct { const char *name; enum hq_agg_kind kind; } names[] = {
	{ "avg", HQ_AGG_AVG }, { "mean", HQ_AGG_AVG }, { "min", HQ_AGG_MIN },
	{ "max", HQ_AGG_MAX }, { "sum", HQ_AGG_SUM }, { "count", HQ_AGG_COUNT },
	{ "median", HQ_AGG_MEDIAN }, { "stddev", HQ_AGG_STDDEV },
	{ "first", HQ_AGG_FIRST }, { "last", HQ_AGG_LAST },
};
#define NNAMES (sizeof names / sizeof names[0])

const char *
hq_stats_agg_at(size_t i)
{
	/* Any of p1..p99 parses; these are the ones asked for. */
	static const char *const pcts[] = { "p10", "p25", "p50", "p75", "p90", "p95", "p99" };

	for (size_t k = 0; k < NNAMES; k++)
		if (strcmp(names[k].name, "mean") != 0 && i-- == 0)
			return names[k].name;
	return i < sizeof pcts / sizeof pcts[0] ? pcts[i] : NULL;
}

int
hq_stats_parse_agg(const char *name, struct hq_agg *a)
{
	memset(a, 0, sizeof *a);
	for (size_t i = 0; i < NNAMES; i++)
		if (strcmp(name, names[i].name) == 0) {
			a->kind = names[i].kind;
			/* "mean" is accepted but the field is always "avg". */
			snprintf(a->name, sizeof a->name, "%s",
			    a->kind == HQ_AGG_AVG ? "avg" : names[i].name);
			return 0;
		}
	if (name[0] == 'p' && name[1] >= '1' && name[1] <= '9' &&
	    (name[2] == '\0' || (name[2] >= '0' && name[2] <= '9' && name[3] == '\0'))) {
		a->kind = HQ_AGG_PCT;
		a->pct = name[1] - '0';
		if (name[2])
			a->pct = a->pct * 10 + (name[2] - '0');
		snprintf(a->name, sizeof a->name, "p%d", a->pct);
		return 0;
	}
	return -1;
}

int
hq_stats_parse_aggs(const char *list, struct hq_agg *aggs, size_t max,
    size_t *n, struct hq_err *e)
{
	const char *p = list;

	*n = 0;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char word[32];

		while (len && *p == ' ')
			p++, len--;
		while (len && p[len - 1] == ' ')
			len--;
		if (len == 0 || len >= sizeof word) {
			hq_err_set(e, "empty or overlong aggregation in '%s'; use a "
			    "comma-separated list such as avg,min,max", list);
			return -1;
		}
		memcpy(word, p, len);
		word[len] = '\0';
		if (*n == max) {
			hq_err_set(e, "too many aggregations (at most %zu)", max);
			return -1;
		}
		if (hq_stats_parse_agg(word, &aggs[*n])) {
			hq_err_set(e, "unknown aggregation '%s'; use avg, min, max, "
			    "sum, count, median, stddev, p1..p99, first or last", word);
			return -1;
		}
		for (size_t i = 0; i < *n; i++)
			if (strcmp(aggs[i].name, aggs[*n].name) == 0) {
				hq_err_set(e, "aggregation '%s' given twice", word);
				return -1;
			}
		(*n)++;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

int
hq_stats_needs_values(const struct hq_agg *a)
{
	return a->kind == HQ_AGG_MEDIAN || a->kind == HQ_AGG_PCT ||
	    a->kind == HQ_AGG_FIRST || a->kind == HQ_AGG_LAST;
}

double
hq_stats_mean(const double *v, size_t n)
{
	double s = 0;

	if (n == 0)
		return NAN;
	for (size_t i = 0; i < n; i++)
		s += v[i];
	return s / (double)n;
}

double
hq_stats_stddev(const double *v, size_t n)
{
	double m, ss = 0;

	if (n < 2)
		return NAN;
	m = hq_stats_mean(v, n);
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	return sqrt(ss / (double)(n - 1));
}

double
hq_stats_quantile_sorted(const double *v, size_t n, double q)
{
	double h, lo;
	size_t i;

	if (n == 0)
		return NAN;
	if (q <= 0)
		return v[0];
	if (q >= 1)
		return v[n - 1];
	h = (double)(n - 1) * q;
	lo = floor(h);
	i = (size_t)lo;
	if (i + 1 >= n)
		return v[n - 1];
	return v[i] + (h - lo) * (v[i + 1] - v[i]);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void
hq_stats_sort(double *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_double);
}

/* Sorts v in place. */
static double
hq_stats_median(double *v, size_t n)
{
	hq_stats_sort(v, n);
	return hq_stats_quantile_sorted(v, n, 0.5);
}

/* ---- the accumulator --------------------------------------------------- */

void
hq_stats_acc_init(struct hq_stats_acc *a, int keep_values)
{
	memset(a, 0, sizeof *a);
	if (keep_values)
		a->quant = hq_quant_new(NULL, 0, 0);
	hq_stats_acc_reset(a);
}

void
hq_stats_acc_init_aggs(struct hq_stats_acc *a, const struct hq_agg *aggs,
    size_t naggs, int bounded)
{
	double p[HQ_MAX_AGGS];
	size_t np = 0;

	memset(a, 0, sizeof *a);
	for (size_t k = 0; k < naggs && k < HQ_MAX_AGGS; k++) {
		if (aggs[k].kind != HQ_AGG_MEDIAN && aggs[k].kind != HQ_AGG_PCT)
			continue;
		p[np++] = aggs[k].kind == HQ_AGG_MEDIAN ? 0.5 : aggs[k].pct / 100.0;
	}
	if (np)
		a->quant = hq_quant_new(p, np, bounded ? HQ_QUANT_LIMIT : 0);
	hq_stats_acc_reset(a);
}

void
hq_stats_acc_reset(struct hq_stats_acc *a)
{
	a->n = 0;
	a->sum = a->sumsq = 0;
	a->min = INFINITY;
	a->max = -INFINITY;
	a->first = a->last = NAN;
	if (a->quant)
		hq_quant_reset(a->quant);
}

void
hq_stats_acc_add(struct hq_stats_acc *a, double v)
{
	if (a->n == 0)
		a->first = v;
	a->last = v;
	a->n++;
	a->sum += v;
	a->sumsq += v * v;
	if (v < a->min)
		a->min = v;
	if (v > a->max)
		a->max = v;
	if (a->quant)
		hq_quant_add(a->quant, v, 1);
}

void
hq_stats_acc_add_moments(struct hq_stats_acc *a, long n, double sum,
    double sumsq, double min, double max)
{
	if (n <= 0)
		return;
	a->n += n;
	a->sum += sum;
	a->sumsq += sumsq;
	if (min < a->min)
		a->min = min;
	if (max > a->max)
		a->max = max;
}

void
hq_stats_acc_add_values(struct hq_stats_acc *a, double v, long count)
{
	if (a->quant)
		hq_quant_add(a->quant, v, count);
}

int
hq_stats_acc_pass_done(struct hq_stats_acc *a)
{
	return a->quant ? hq_quant_pass_done(a->quant) : 1;
}

double
hq_stats_acc_value(struct hq_stats_acc *a, const struct hq_agg *g)
{
	double var;

	switch (g->kind) {
	case HQ_AGG_COUNT:
		return (double)a->n;
	case HQ_AGG_SUM:
		return a->n ? a->sum : NAN;
	case HQ_AGG_AVG:
		return a->n ? a->sum / (double)a->n : NAN;
	case HQ_AGG_MIN:
		return a->n ? a->min : NAN;
	case HQ_AGG_MAX:
		return a->n ? a->max : NAN;
	case HQ_AGG_STDDEV:
		if (a->n < 2)
			return NAN;
		/* From moments so that rollups and raw samples agree; clamp the
		 * rounding error of a constant series. */
		var = (a->sumsq - a->sum * a->sum / (double)a->n) / (double)(a->n - 1);
		return var > 0 ? sqrt(var) : 0;
	case HQ_AGG_FIRST:
		return a->first;
	case HQ_AGG_LAST:
		return a->last;
	case HQ_AGG_MEDIAN:
	case HQ_AGG_PCT:
		if (!a->quant)
			return NAN;
		return hq_quant_of(a->quant,
		    g->kind == HQ_AGG_MEDIAN ? 0.5 : g->pct / 100.0);
	}
	return NAN;
}

void
hq_stats_acc_free(struct hq_stats_acc *a)
{
	hq_quant_free(a->quant);
	a->quant = NULL;
}

/* ---- inference ----------------------------------------------------------- */

#define LN_SQRT_2PI 0.918938533204672741780329736406

/* log of the standard normal density and lower-tail CDF. Below -37, where
 * erfc() would soon underflow, Phi(x) comes from its asymptotic series
 * phi(x)/|x| (1 - 1/x^2 + 3/x^4 - 15/x^6 + 105/x^8), good to 1e-12 there. */
static double
log_dnorm(double x)
{
	return -0.5 * x * x - LN_SQRT_2PI;
}

static double
log_pnorm(double x)
{
	double z;

	if (x > -37)
		return log(0.5 * erfc(-x / M_SQRT2));
	z = 1 / (x * x);
	return log_dnorm(x) - log(-x) +
	    log1p(z * (-1 + z * (3 + z * (-15 + z * 105))));
}

double
hq_stats_qnorm(double p)
{
	double q, t, x, step;

	if (isnan(p) || p < 0 || p > 1)
		return NAN;
	if (p == 0)
		return -INFINITY;
	if (p == 1)
		return INFINITY;
	/* The lower tail q <= 1/2; 1 - p is exact for p >= 1/2. */
	q = p < 0.5 ? p : 1 - p;
	/* A start within 5e-4 (Abramowitz and Stegun 26.2.23), then Newton's
	 * method on log Phi(x) = log q, which converges to the last bit in a
	 * few steps and keeps its relative accuracy far into the tail. */
	t = sqrt(-2 * log(q));
	x = -(t - (2.515517 + t * (0.802853 + t * 0.010328)) /
	    (1 + t * (1.432788 + t * (0.189269 + t * 0.001308))));
	for (int i = 0; i < 50; i++) {
		step = (log_pnorm(x) - log(q)) / exp(log_dnorm(x) - log_pnorm(x));
		x -= step;
		if (fabs(step) <= 1e-16 * fabs(x) || fabs(step) < 1e-300)
			break;
	}
	return p < 0.5 ? x : -x;
}

/* lgamma(x) minus its Stirling approximation (x - 1/2) log x - x +
 * log sqrt(2 pi), for x >= 10: the series sum B_2k / (2k (2k - 1) x^(2k-1)),
 * whose first omitted term is below 2e-18 there. */
static double
stirling_rest(double x)
{
	static const double c[] = {
		1.0 / 12, -1.0 / 360, 1.0 / 1260, -1.0 / 1680, 1.0 / 1188,
		-691.0 / 360360, 1.0 / 156, -3617.0 / 122400,
	};
	double x2 = 1 / (x * x), s = 0;

	for (size_t i = sizeof c / sizeof c[0]; i-- > 0;)
		s = s * x2 + c[i];
	return s / x;
}

double
hq_stats_lbeta(double a, double b)
{
	double p = fmin(a, b), q = fmax(a, b), pq = p + q;

	/* lgamma(p) + lgamma(q) - lgamma(p + q) cancels most of its digits
	 * when q is large; with Stirling's formula written out, the large
	 * parts cancel algebraically instead. */
	if (p >= 10)
		return -0.5 * log(q) + LN_SQRT_2PI +
		    stirling_rest(p) + stirling_rest(q) - stirling_rest(pq) +
		    (p - 0.5) * log(p / pq) + q * log1p(-p / pq);
	if (q >= 10)
		return lgamma(p) + stirling_rest(q) - stirling_rest(pq) +
		    p - p * log(pq) + (q - 0.5) * log1p(-p / pq);
	return lgamma(p) + lgamma(q) - lgamma(pq);
}

/* log(1 - e^l) for l <= 0, without cancellation at either end. */
static double
log1mexp(double l)
{
	return l > -M_LN2 ? log(-expm1(l)) : log1p(-exp(l));
}

/* log I_x(a, b) by its continued fraction (modified Lentz), which
 * converges quickly for x < (a + 1) / (a + b + 2):
 *   I_x(a, b) = x^a y^b / (a B(a, b)) * 1 / (1 + d1 / (1 + d2 / (1 + ...)))
 *   d(2m+1) = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1))
 *   d(2m)   = m (b - m) x / ((a + 2m - 1)(a + 2m)) */
static double
log_ibeta_cf(double x, double y, double a, double b)
{
	const double tiny = 1e-300;
	double lx = y < 0.5 ? log1p(-y) : log(x);
	double ly = x < 0.5 ? log1p(-x) : log(y);
	double f, c, d, delta, num;

	f = c = 1;
	d = 0;
	for (int i = 1; i < 1000000; i++) {
		int m = i / 2;
		if (i % 2)
			num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		else
			num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1 + num * d;
		c = 1 + num / c;
		if (fabs(d) < tiny)
			d = tiny;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		delta = c * d;
		f *= delta;
		if (fabs(delta - 1) < 2 * DBL_EPSILON)
			break;
	}
	/* f approximates 1 + d1 / (1 + ...); the fraction wanted is 1 / f. */
	return a * lx + b * ly - hq_stats_lbeta(a, b) - log(a) - log(f);
}

double
hq_stats_log_ibeta(double x, double y, double a, double b, int upper)
{
	double l;

	if (x <= 0)
		return upper ? 0 : -INFINITY;
	if (y <= 0)
		return upper ? -INFINITY : 0;
	/* I_x(a, b) = 1 - I_y(b, a): the fraction is evaluated on the side
	 * where it converges. */
	if (x < (a + 1) / (a + b + 2)) {
		l = log_ibeta_cf(x, y, a, b);
		return upper ? log1mexp(l) : l;
	}
	l = log_ibeta_cf(y, x, b, a);
	return upper ? l : log1mexp(l);
}

/* log P(|T| >= |t|) = log I_x(df/2, 1/2), x = df / (df + t^2). */
static double
log_t_p2(double t, double df)
{
	double t2 = t * t;

	if (isnan(t) || isnan(df) || df <= 0)
		return NAN;
	if (isinf(t2))
		return -INFINITY;
	return hq_stats_log_ibeta(df / (df + t2), t2 / (df + t2), df / 2, 0.5, 0);
}

double
hq_stats_t_p2(double t, double df)
{
	return exp(log_t_p2(t, df));
}

double
hq_stats_pt(double t, double df)
{
	double half = exp(log_t_p2(t, df)) / 2;

	return t < 0 ? half : 1 - half;
}

/* A value and where it was, sorted ascending (ties by position). */
struct indexed {
	double v;
	size_t i;
};

static int
cmp_indexed(const void *a, const void *b)
{
	const struct indexed *x = a, *y = b;

	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

void
hq_stats_order(const double *v, size_t n, size_t *order)
{
	struct indexed *o = hq_xmalloc((n + 1) * sizeof *o);

	for (size_t i = 0; i < n; i++)
		o[i] = (struct indexed){ v[i], i };
	qsort(o, n, sizeof *o, cmp_indexed);
	for (size_t i = 0; i < n; i++)
		order[i] = o[i].i;
	free(o);
}

void
hq_stats_ranks(const double *v, size_t n, double *rank)
{
	size_t *o = hq_xmalloc((n + 1) * sizeof *o);

	hq_stats_order(v, n, o);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && v[o[j]] == v[o[i]]; j++)
			;
		/* positions i..j-1 (ranks i+1..j) share their mean */
		for (size_t k = i; k < j; k++)
			rank[o[k]] = (double)(i + 1 + j) / 2;
	}
	free(o);
}

const char *
hq_stats_status_str(enum hq_stats_status s)
{
	switch (s) {
	case HQ_STATS_OK:
		return "defined";
	case HQ_STATS_TOO_FEW:
		return "too few values";
	case HQ_STATS_CONSTANT_X:
		return "the first series is constant";
	case HQ_STATS_CONSTANT_Y:
		return "the second series is constant";
	case HQ_STATS_CONSTANT:
		return "both groups are constant";
	case HQ_STATS_RANGE:
		return "values too large to square";
	}
	return "undefined";
}

enum hq_stats_status
hq_stats_pearson(const double *x, const double *y, size_t n,
    struct hq_stats_cor *c)
{
	double mx, my, sxx = 0, syy = 0, sxy = 0, r, df;

	memset(c, 0, sizeof *c);
	c->n = n;
	if (n < 3)
		return c->status = HQ_STATS_TOO_FEW;
	/* Two passes: centred sums keep their digits where one-pass sums of
	 * squares would cancel. */
	mx = hq_stats_mean(x, n);
	my = hq_stats_mean(y, n);
	for (size_t i = 0; i < n; i++) {
		double dx = x[i] - mx, dy = y[i] - my;
		sxx += dx * dx;
		syy += dy * dy;
		sxy += dx * dy;
	}
	if (!isfinite(sxx) || !isfinite(syy) || !isfinite(sxy))
		return c->status = HQ_STATS_RANGE;
	if (sxx == 0)
		return c->status = HQ_STATS_CONSTANT_X;
	if (syy == 0)
		return c->status = HQ_STATS_CONSTANT_Y;
	r = sxy / sqrt(sxx) / sqrt(syy);
	c->slope = sxy / sxx;
	c->intercept = my - c->slope * mx;
	df = (double)n - 2;
	if (1 - fabs(r) <= 8 * DBL_EPSILON) {
		/* A straight line, up to rounding: the p of a rounding error
		 * would be noise. */
		c->perfect = 1;
		c->r = c->ci_low = c->ci_high = r > 0 ? 1 : -1;
		c->p = 0;
		c->has_ci = n > 3;
		return c->status = HQ_STATS_OK;
	}
	c->r = r;
	/* t^2 / (df + t^2) = r^2, so p = I_(1 - r^2)(df/2, 1/2) directly. */
	c->p = exp(hq_stats_log_ibeta((1 - fabs(r)) * (1 + fabs(r)), r * r,
	    df / 2, 0.5, 0));
	if (n > 3) {
		double z = atanh(r), h = hq_stats_qnorm(0.975) / sqrt((double)n - 3);
		c->ci_low = tanh(z - h);
		c->ci_high = tanh(z + h);
		c->has_ci = 1;
	}
	return c->status = HQ_STATS_OK;
}

enum hq_stats_status
hq_stats_spearman(const double *x, const double *y, size_t n,
    struct hq_stats_cor *c)
{
	double *rx, *ry;
	struct hq_stats_cor p;

	memset(c, 0, sizeof *c);
	c->n = n;
	if (n < 3)
		return c->status = HQ_STATS_TOO_FEW;
	rx = hq_xmalloc(n * sizeof *rx);
	ry = hq_xmalloc(n * sizeof *ry);
	hq_stats_ranks(x, n, rx);
	hq_stats_ranks(y, n, ry);
	hq_stats_pearson(rx, ry, n, &p);
	free(rx);
	free(ry);
	c->status = p.status;
	if (p.status == HQ_STATS_OK) {
		c->r = p.r;
		c->p = p.p;
		c->perfect = p.perfect;
	}
	return c->status;
}

enum hq_stats_status
hq_stats_welch(const double *x, size_t nx, const double *y, size_t ny,
    struct hq_stats_welch *w)
{
	double vx, vy, sx, sy, se2, pooled, *tmp;
	double N = (double)(nx + ny);

	memset(w, 0, sizeof *w);
	w->n_x = nx;
	w->n_y = ny;
	if (nx < 2 || ny < 2)
		return w->status = HQ_STATS_TOO_FEW;
	w->mean_x = hq_stats_mean(x, nx);
	w->mean_y = hq_stats_mean(y, ny);
	tmp = hq_xmalloc((nx > ny ? nx : ny) * sizeof *tmp);
	memcpy(tmp, x, nx * sizeof *tmp);
	w->median_x = hq_stats_median(tmp, nx);
	memcpy(tmp, y, ny * sizeof *tmp);
	w->median_y = hq_stats_median(tmp, ny);
	free(tmp);
	w->diff = w->mean_x - w->mean_y;
	vx = hq_stats_stddev(x, nx);
	vy = hq_stats_stddev(y, ny);
	vx *= vx;
	vy *= vy;
	if (!isfinite(vx) || !isfinite(vy))
		return w->status = HQ_STATS_RANGE;
	sx = vx / (double)nx;
	sy = vy / (double)ny;
	se2 = sx + sy;
	/* R's t.test refuses "essentially constant" data the same way. */
	if (sqrt(se2) < 10 * DBL_EPSILON * fmax(fabs(w->mean_x), fabs(w->mean_y)) ||
	    se2 == 0)
		return w->status = HQ_STATS_CONSTANT;
	w->t = w->diff / sqrt(se2);
	w->df = se2 * se2 / (sx * sx / (double)(nx - 1) + sy * sy / (double)(ny - 1));
	w->p = hq_stats_t_p2(w->t, w->df);
	pooled = sqrt(((double)(nx - 1) * vx + (double)(ny - 1) * vy) / (N - 2));
	w->g = w->diff / pooled * (1 - 3 / (4 * N - 9));
	return w->status = HQ_STATS_OK;
}

void
hq_stats_p_adjust_bh(const double *p, size_t m, double *adj)
{
	size_t *o = hq_xmalloc((m + 1) * sizeof *o);
	double run = 1;

	hq_stats_order(p, m, o);
	/* From the largest p (rank m) down: m/rank * p, never more than the
	 * one before it, never above 1. adj may be p: each p is read before
	 * its own adjusted value is written, and never after. */
	for (size_t k = m; k-- > 0;) {
		double v = (double)m / (double)(k + 1) * p[o[k]];
		if (v < run)
			run = v;
		adj[o[k]] = run;
	}
	free(o);
}

double
hq_stats_acf1(const int64_t *day, const double *v, size_t n)
{
	double m, s0 = 0, s1 = 0;
	size_t k = 0;

	if (n < 2)
		return NAN;
	m = hq_stats_mean(v, n);
	for (size_t i = 0; i < n; i++) {
		s0 += (v[i] - m) * (v[i] - m);
		if (i + 1 < n && day[i + 1] == day[i] + 1) {
			s1 += (v[i] - m) * (v[i + 1] - m);
			k++;
		}
	}
	if (!k || !(s0 > 0))
		return NAN;
	return s1 / (double)(k + 1) / (s0 / (double)n);
}

double
hq_stats_n_eff(size_t n, double r1, double r2)
{
	double rr = r1 * r2, ne;

	if (isnan(rr))
		return (double)n;
	/* r1 r2 = -1 divides by 0: +inf, which the clamp makes n */
	ne = (double)n * (1 - rr) / (1 + rr);
	if (!(ne >= 2))
		ne = 2;
	return ne > (double)n ? (double)n : ne;
}
