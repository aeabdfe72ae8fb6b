#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/correlate.h"
#include "hq/stats.h"
#include "hq/trend.h"

#define MAXK 4

/* One wanted order statistic of the slopes, narrowed pass by pass. */
struct target {
	int64_t k;          /* its rank among all slopes, 1-based */
	int64_t below;      /* slopes < lo */
	int64_t inside;     /* slopes in the window */
	double lo, hi;      /* the window [lo, hi]; every slope while all */
	double scale;       /* bins per unit of slope */
	int all, done, collect;
	double value;
	int64_t *count;     /* HQ_TREND_BINS each */
	double *bmin, *bmax;
	double *keep;       /* HQ_TREND_KEEP */
	size_t nkeep;
	struct target *twin; /* this pass: the target counting for it */
};

static double
slope(const int64_t *t, const double *v, size_t i, size_t j)
{
	/* The very operations R's (v[j] - v[i]) / (t[j] - t[i]) does. */
	return (v[j] - v[i]) / (double)(t[j] - t[i]);
}

/* The bin of slope s: monotone in s (every step rounds monotonely and the
 * ends are clamped), so slopes of a lower bin are below those of a
 * higher one, whatever the rounding. */
static size_t
bin_of(double s, double lo, double scale)
{
	double x = (s - lo) * scale;

	if (!(x >= 1))
		return 0;
	if (x >= HQ_TREND_BINS)
		return HQ_TREND_BINS - 1;
	return (size_t)x;
}

static void
swap(double *a, double *b)
{
	double x = *a;

	*a = *b;
	*b = x;
}

/* The k-th smallest (0-based) of a[0..n), reordering a: quickselect with a
 * pseudo-random pivot and a three-way partition (many equal slopes). */
static double
select_kth(double *a, size_t n, size_t k)
{
	size_t lo = 0, hi = n;
	uint64_t r = 0x9e3779b97f4a7c15u;

	while (hi - lo > 1) {
		r ^= r << 13;
		r ^= r >> 7;
		r ^= r << 17;
		double p = a[lo + (size_t)(r % (hi - lo))];
		size_t lt = lo, i = lo, gt = hi;
		while (i < gt) {
			if (a[i] < p)
				swap(&a[lt++], &a[i++]);
			else if (a[i] > p)
				swap(&a[i], &a[--gt]);
			else
				i++;
		}
		if (k < lt)
			hi = lt;
		else if (k >= gt)
			lo = gt;
		else
			return p;
	}
	return a[lo];
}

/* One pass over every slope, into each unfinished target's bins or keep.
 * Targets whose windows are the same (the two middle ranks, every target
 * in the first pass) share one histogram: the first of them counts, the
 * others copy it. The slopes from one day are computed as a row first (a
 * loop the compiler vectorises), then counted. */
static void
pass(const int64_t *t, const double *v, size_t n, struct target *tg, size_t m,
    double *row)
{
	struct target *act[MAXK], *copy[MAXK];
	size_t na = 0, nc = 0;

	for (size_t q = 0; q < m; q++) {
		struct target *g = &tg[q];
		if (g->done)
			continue;
		size_t a;
		for (a = 0; a < na; a++)
			if (act[a]->all == g->all && act[a]->collect == g->collect &&
			    act[a]->lo == g->lo && act[a]->hi == g->hi)
				break;
		if (a < na) {
			copy[nc++] = g;
			g->twin = act[a];
			continue;
		}
		act[na++] = g;
		if (g->collect) {
			g->nkeep = 0;
		} else {
			memset(g->count, 0, HQ_TREND_BINS * sizeof *g->count);
			for (size_t b = 0; b < HQ_TREND_BINS; b++) {
				g->bmin[b] = INFINITY;
				g->bmax[b] = -INFINITY;
			}
		}
	}
	for (size_t i = 0; i + 1 < n; i++) {
		size_t len = n - i - 1;
		for (size_t j = 0; j < len; j++)
			row[j] = slope(t, v, i, i + 1 + j);
		for (size_t q = 0; q < na; q++) {
			struct target *g = act[q];
			for (size_t j = 0; j < len; j++) {
				double s = row[j];
				if (!g->all && (s < g->lo || s > g->hi))
					continue;
				if (g->collect) {
					g->keep[g->nkeep++] = s;
					continue;
				}
				size_t b = bin_of(s, g->lo, g->scale);
				g->count[b]++;
				if (s < g->bmin[b])
					g->bmin[b] = s;
				if (s > g->bmax[b])
					g->bmax[b] = s;
			}
		}
	}
	for (size_t q = 0; q < nc; q++) {
		struct target *g = copy[q], *w = g->twin;
		if (g->collect) {
			memcpy(g->keep, w->keep, w->nkeep * sizeof *g->keep);
			g->nkeep = w->nkeep;
		} else {
			memcpy(g->count, w->count, HQ_TREND_BINS * sizeof *g->count);
			memcpy(g->bmin, w->bmin, HQ_TREND_BINS * sizeof *g->bmin);
			memcpy(g->bmax, w->bmax, HQ_TREND_BINS * sizeof *g->bmax);
		}
	}
}

/* After a pass: the value, or the next window. */
static void
narrow(struct target *g, int passes)
{
	if (g->done)
		return;
	if (g->collect) {
		g->value = select_kth(g->keep, g->nkeep, (size_t)(g->k - g->below - 1));
		g->done = 1;
		return;
	}
	int64_t cum = 0;
	size_t b = 0;
	while (b + 1 < HQ_TREND_BINS && g->below + cum + g->count[b] < g->k)
		cum += g->count[b++];
	g->below += cum;
	g->inside = g->count[b];
	g->lo = g->bmin[b];
	g->hi = g->bmax[b];
	g->all = 0;
	if (g->lo == g->hi) {
		g->value = g->lo;
		g->done = 1;
		return;
	}
	/* Past 64 passes (values within a few ulps of each other), keep
	 * whatever is left. */
	if (g->inside <= HQ_TREND_KEEP || passes >= 64) {
		g->collect = 1;
		if (g->inside > HQ_TREND_KEEP)
			g->keep = hq_xrealloc(g->keep, (size_t)g->inside * sizeof *g->keep);
		return;
	}
	g->scale = HQ_TREND_BINS / (g->hi - g->lo);
	if (!isfinite(g->scale))
		g->scale = DBL_MAX;
}

void
hq_trend_slopes_kth(const int64_t *t, const double *v, size_t n,
    const int64_t *k, size_t m, double *out)
{
	struct target tg[MAXK];
	int64_t nslopes = (int64_t)n * (int64_t)(n - 1) / 2;
	double lo = INFINITY, hi = -INFINITY, *row;
	int left, passes = 0;

	if (m > MAXK)
		m = MAXK;
	/* The steepest and shallowest slopes are between neighbours (any
	 * slope is a weighted mean of the neighbours' between its ends):
	 * the first pass's bins span them (rounding aside: the ends clamp). */
	for (size_t i = 0; i + 1 < n; i++) {
		double s = slope(t, v, i, i + 1);
		lo = s < lo ? s : lo;
		hi = s > hi ? s : hi;
	}
	memset(tg, 0, sizeof tg);
	for (size_t q = 0; q < m; q++) {
		struct target *g = &tg[q];
		g->k = k[q];
		g->inside = nslopes;
		g->all = 1;
		g->lo = lo;
		g->hi = hi;
		if (nslopes <= HQ_TREND_KEEP) {
			g->collect = 1;
			g->keep = hq_xmalloc((size_t)nslopes * sizeof *g->keep);
			continue;
		}
		g->keep = hq_xmalloc(HQ_TREND_KEEP * sizeof *g->keep);
		g->count = hq_xmalloc(HQ_TREND_BINS * sizeof *g->count);
		g->bmin = hq_xmalloc(HQ_TREND_BINS * sizeof *g->bmin);
		g->bmax = hq_xmalloc(HQ_TREND_BINS * sizeof *g->bmax);
		g->scale = hi > lo ? HQ_TREND_BINS / (hi - lo) : 0;
		if (!isfinite(g->scale))
			g->scale = DBL_MAX;
	}
	row = hq_xmalloc(n * sizeof *row);
	do {
		pass(t, v, n, tg, m, row);
		passes++;
		left = 0;
		for (size_t q = 0; q < m; q++) {
			narrow(&tg[q], passes);
			left |= !tg[q].done;
		}
	} while (left);
	free(row);
	for (size_t q = 0; q < m; q++) {
		out[q] = tg[q].value;
		free(tg[q].keep);
		free(tg[q].count);
		free(tg[q].bmin);
		free(tg[q].bmax);
	}
}

/* Knight's count: sorts a (a copy of v in day order) and returns the
 * number of pairs i < j with a[i] > a[j], the discordant pairs. */
static int64_t
discordant(double *a, double *tmp, size_t n)
{
	int64_t d = 0;

	for (size_t w = 1; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n;
			size_t hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t i = lo, j = mid, o = lo;
			while (i < mid && j < hi) {
				if (a[i] <= a[j]) {
					tmp[o++] = a[i++];
				} else {
					d += (int64_t)(mid - i);
					tmp[o++] = a[j++];
				}
			}
			while (i < mid)
				tmp[o++] = a[i++];
			while (j < hi)
				tmp[o++] = a[j++];
		}
		memcpy(a, tmp, n * sizeof *a);
	}
	return d;
}

/* Kendall's S, its variance with the groups of equal values, tau, z and
 * p (with status) over the n values in day order. */
static void
kendall(const double *v, size_t n, struct hq_trend *tr)
{
	double *a, *tmp, tied = 0, vu = 0, dn = (double)n;
	int64_t disc, nslopes = (int64_t)n * (int64_t)(n - 1) / 2;

	a = hq_xmalloc(n * sizeof *a);
	tmp = hq_xmalloc(n * sizeof *tmp);
	memcpy(a, v, n * sizeof *a);
	disc = discordant(a, tmp, n);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && a[j] == a[i]; j++)
			;
		double u = (double)(j - i);
		tied += u * (u - 1) / 2;
		vu += u * (u - 1) * (2 * u + 5);
	}
	free(a);
	free(tmp);
	tr->s = nslopes - (int64_t)tied - 2 * disc;
	tr->var_s = (dn * (dn - 1) * (2 * dn + 5) - vu) / 18;
	if ((double)nslopes - tied > 0) {
		tr->tau = (double)tr->s / sqrt((double)nslopes * ((double)nslopes - tied));
		tr->z = (double)tr->s / sqrt(tr->var_s);
		tr->p = erfc(fabs(tr->z) / M_SQRT2);
		tr->status = HQ_STATS_OK;
	} else {
		tr->status = HQ_STATS_CONSTANT_Y;
	}
}

/* The detrended values' lag-1 autocorrelation, the independent days it
 * leaves and whether the sentence warns of them. */
static void
serial(const int64_t *t, const double *v, size_t n, struct hq_trend *tr)
{
	double *a = hq_xmalloc(n * sizeof *a), dn = (double)n;

	for (size_t i = 0; i < n; i++)
		a[i] = v[i] - tr->slope_day * (double)t[i];
	tr->acf1 = hq_stats_acf1(t, a, n);
	free(a);
	tr->n_eff = dn;
	if (tr->acf1 > 0) {
		tr->n_eff = dn * (1 - tr->acf1) / (1 + tr->acf1);
		tr->n_eff = tr->n_eff < 2 ? 2 : tr->n_eff > dn ? dn : tr->n_eff;
	}
	tr->serial = tr->acf1 > HQ_CORR_SERIAL_ACF &&
	    tr->n_eff < HQ_CORR_SERIAL_RATIO * dn;
}

int
hq_trend(const int64_t *t, const double *v, size_t n, struct hq_trend *tr,
    struct hq_err *e)
{
	double med[2], ci[2];
	int64_t k[MAXK], nslopes;
	size_t m = 0;

	memset(tr, 0, sizeof *tr);
	tr->n = n;
	tr->slope_day = tr->slope_week = tr->ci_low = tr->ci_high = NAN;
	tr->ci_low_day = tr->ci_high_day = NAN;
	tr->var_s = tr->c = tr->m1 = tr->m2 = tr->tau = tr->z = tr->p = NAN;
	tr->acf1 = NAN;
	tr->n_eff = (double)n;
	if (n > HQ_TREND_MAX_N) {
		hq_err_set(e, "%zu days are more than a trend takes (%d)", n,
		    HQ_TREND_MAX_N);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(v[i])) {
			hq_err_set(e, "the value of day %zu is not a number", i + 1);
			return -1;
		}
		if (i > 0 && t[i] <= t[i - 1]) {
			hq_err_set(e, "the days of a trend must ascend, each once");
			return -1;
		}
	}
	if (n < 3) {
		tr->status = HQ_STATS_TOO_FEW;
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		if (fabs(v[i]) > HQ_TREND_MAX_ABS) {
			tr->status = HQ_STATS_RANGE;
			return 0;
		}
	nslopes = (int64_t)n * (int64_t)(n - 1) / 2;
	tr->n_slopes = nslopes;

	kendall(v, n, tr);

	/* Gilbert's positions, then the order statistics in one selection. */
	tr->c = hq_stats_qnorm(0.975) * sqrt(tr->var_s);
	tr->m1 = nearbyint(((double)nslopes - tr->c) / 2);
	tr->m2 = nearbyint(((double)nslopes + tr->c) / 2) + 1;
	k[m++] = (nslopes + 1) / 2;
	if (nslopes % 2 == 0)
		k[m++] = nslopes / 2 + 1;
	size_t mci = m;
	int has_low = tr->m1 >= 1 && tr->m1 <= (double)nslopes;
	int has_high = tr->m2 >= 1 && tr->m2 <= (double)nslopes;
	if (has_low)
		k[m++] = (int64_t)tr->m1;
	if (has_high)
		k[m++] = (int64_t)tr->m2;
	double got[MAXK];
	hq_trend_slopes_kth(t, v, n, k, m, got);
	med[0] = got[0];
	med[1] = nslopes % 2 == 0 ? got[1] : got[0];
	tr->slope_day = nslopes % 2 == 0 ? (med[0] + med[1]) / 2 : med[0];
	tr->slope_week = 7 * tr->slope_day;
	ci[0] = has_low ? got[mci] : NAN;
	ci[1] = has_high ? got[mci + has_low] : NAN;
	tr->ci_low_day = ci[0];
	tr->ci_high_day = ci[1];
	tr->ci_low = 7 * ci[0];
	tr->ci_high = 7 * ci[1];

	serial(t, v, n, tr);
	return 0;
}
