/*
 * quant — exact quantiles in bounded memory (quant.h): a table of distinct
 * values, and passes that narrow bins down to the wanted order statistics
 * when the table overflows. The accumulator of stats.c holds one.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/quant.h"
#include "hq/stats.h"

#define QBINS 4096
#define QMAXT (2 * HQ_MAX_AGGS)

/* A range of values being narrowed down to the order statistics in it. */
struct qrange {
	double lo, hi;        /* every value of the range is in [lo, hi] */
	long below;           /* values < lo */
	long count;           /* values in the range */
	int collect;          /* this pass: its distinct values, else bins */
	int stuck;            /* bins could not part its values: collect */
	long *bin;            /* QBINS counters, and each bin's min and max */
	double *bmin, *bmax;
};

struct hq_quant {
	size_t np;
	double p[HQ_MAX_AGGS];
	long limit;
	int pass;             /* 1, 2, ... */
	long n, total;        /* values of this pass; of the first */
	double min, max;
	/* distinct values: key is the value's bits, cnt 0 an empty slot */
	uint64_t *key;
	long *cnt;
	size_t cap, used;
	int overflow;
	/* the table sorted, when it held every value of a first pass */
	double *sv;
	long *cum;            /* values <= sv[i] */
	size_t ns, svcap;
	int sorted;
	/* the order statistics wanted (0-based ranks), and what they are */
	size_t nt;
	long rank[QMAXT];
	double stat[QMAXT];
	int found[QMAXT];
	size_t nr;
	struct qrange r[QMAXT];
	int ready;
	double ans[HQ_MAX_AGGS];
};

struct hq_quant *
hq_quant_new(const double *probs, size_t n, long limit)
{
	struct hq_quant *qt = hq_xcalloc(1, sizeof *qt);

	if (n > HQ_MAX_AGGS)
		n = HQ_MAX_AGGS;
	if (n)
		memcpy(qt->p, probs, n * sizeof *probs);
	qt->np = n;
	qt->limit = limit;
	hq_quant_reset(qt);
	return qt;
}

void
hq_quant_free(struct hq_quant *qt)
{
	if (!qt)
		return;
	for (size_t i = 0; i < QMAXT; i++) {
		free(qt->r[i].bin);
		free(qt->r[i].bmin);
		free(qt->r[i].bmax);
	}
	free(qt->key);
	free(qt->cnt);
	free(qt->sv);
	free(qt->cum);
	free(qt);
}

static void
table_clear(struct hq_quant *qt)
{
	if (qt->used)
		memset(qt->cnt, 0, qt->cap * sizeof *qt->cnt);
	qt->used = 0;
}

void
hq_quant_reset(struct hq_quant *qt)
{
	table_clear(qt);
	qt->pass = 1;
	qt->n = qt->total = 0;
	qt->min = INFINITY;
	qt->max = -INFINITY;
	qt->overflow = 0;
	qt->sorted = 0;
	qt->ns = 0;
	qt->nt = qt->nr = 0;
	qt->ready = 0;
}

static uint64_t
bits_of(double v)
{
	uint64_t b;

	if (v == 0)
		v = 0;    /* -0 and 0 are one value */
	memcpy(&b, &v, sizeof b);
	return b;
}

static double
value_of(uint64_t b)
{
	double v;

	memcpy(&v, &b, sizeof v);
	return v;
}

static size_t
slot_of(uint64_t b, size_t cap)
{
	b ^= b >> 31;
	b *= 0x9e3779b97f4a7c15ULL;
	return (size_t)(b >> 17) & (cap - 1);
}

static void table_add(struct hq_quant *qt, uint64_t b, long c);

static void
table_grow(struct hq_quant *qt)
{
	uint64_t *ok = qt->key;
	long *oc = qt->cnt;
	size_t ocap = qt->cap;

	qt->cap = ocap ? ocap * 2 : 256;
	qt->key = hq_xmalloc(qt->cap * sizeof *qt->key);
	qt->cnt = hq_xcalloc(qt->cap, sizeof *qt->cnt);
	qt->used = 0;
	for (size_t i = 0; i < ocap; i++)
		if (oc[i])
			table_add(qt, ok[i], oc[i]);
	free(ok);
	free(oc);
}

static void
table_add(struct hq_quant *qt, uint64_t b, long c)
{
	size_t i;

	if ((qt->used + 1) * 2 > qt->cap)
		table_grow(qt);
	for (i = slot_of(b, qt->cap); qt->cnt[i]; i = (i + 1) & (qt->cap - 1))
		if (qt->key[i] == b) {
			qt->cnt[i] += c;
			return;
		}
	qt->key[i] = b;
	qt->cnt[i] = c;
	qt->used++;
}

struct vc {
	double v;
	long c;
};

static int
cmp_vc(const void *a, const void *b)
{
	double x = ((const struct vc *)a)->v, y = ((const struct vc *)b)->v;

	return (x > y) - (x < y);
}

/* The table's values in order, into qt->sv and qt->cum (counts so far). */
static void
table_sort(struct hq_quant *qt)
{
	struct vc *t = hq_xmalloc((qt->used + 1) * sizeof *t);
	size_t k = 0;
	long run = 0;

	for (size_t i = 0; i < qt->cap; i++)
		if (qt->cnt[i])
			t[k++] = (struct vc){ value_of(qt->key[i]), qt->cnt[i] };
	qsort(t, k, sizeof *t, cmp_vc);
	if (k > qt->svcap) {
		qt->svcap = k;
		qt->sv = hq_xrealloc(qt->sv, k * sizeof *qt->sv);
		qt->cum = hq_xrealloc(qt->cum, k * sizeof *qt->cum);
	}
	for (size_t i = 0; i < k; i++) {
		run += t[i].c;
		qt->sv[i] = t[i].v;
		qt->cum[i] = run;
	}
	qt->ns = k;
	free(t);
}

/* The value of 0-based rank r among sv[lo..hi) whose first has rank base. */
static double
sorted_stat(const struct hq_quant *qt, size_t lo, size_t hi, long base, long r)
{
	/* cum[i] - cum[lo - 1] values up to sv[i]: the first i where base +
	 * that passes r. */
	long before = lo ? qt->cum[lo - 1] : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (base + qt->cum[mid] - before > r)
			hi = mid;
		else
			lo = mid + 1;
	}
	return qt->sv[lo];
}

/* The ranks type 7 reads for p among n values (as hq_stats_quantile_sorted):
 * one or two. */
static size_t
ranks_of(double p, long n, long r[2], double *frac)
{
	double h, lo;

	*frac = 0;
	if (p <= 0) {
		r[0] = 0;
		return 1;
	}
	if (p >= 1) {
		r[0] = n - 1;
		return 1;
	}
	h = (double)(n - 1) * p;
	lo = floor(h);
	r[0] = (long)lo;
	if (r[0] + 1 >= n) {
		r[0] = n - 1;
		return 1;
	}
	r[1] = r[0] + 1;
	*frac = h - lo;
	return 2;
}

/* The quantile from the order statistics it reads, as
 * hq_stats_quantile_sorted() computes it. */
static double
interpolate(size_t k, const double x[2], double frac)
{
	return k == 1 ? x[0] : x[0] + frac * (x[1] - x[0]);
}

static double
sorted_quantile(const struct hq_quant *qt, double p)
{
	long r[2];
	double x[2], frac;
	size_t k;

	if (qt->n == 0)
		return NAN;
	k = ranks_of(p, qt->n, r, &frac);
	for (size_t j = 0; j < k; j++)
		x[j] = sorted_stat(qt, 0, qt->ns, 0, r[j]);
	return interpolate(k, x, frac);
}

/* The values of the given 0-based ranks (ascending) among x[0..n), whose
 * first has rank base, each value counted c times; x is reordered. A
 * selection that descends only into the parts holding a wanted rank: a
 * day's quantiles cost a few passes over its values, not a sort. */
static void
multiselect(struct vc *x, size_t n, long base, const long *rank, size_t nr,
    double *out)
{
	while (nr && n > 12) {
		/* Median of three as the pivot, moved to the end. */
		size_t a = 0, b = n / 2, c = n - 1, p;
		if (x[a].v > x[b].v) { struct vc t = x[a]; x[a] = x[b]; x[b] = t; }
		if (x[b].v > x[c].v) { struct vc t = x[b]; x[b] = x[c]; x[c] = t; }
		if (x[a].v > x[b].v) { struct vc t = x[a]; x[a] = x[b]; x[b] = t; }
		{ struct vc t = x[b]; x[b] = x[c]; x[c] = t; }
		double pv = x[c].v;
		long below = 0;
		p = 0;
		for (size_t i = 0; i < c; i++)
			if (x[i].v < pv) {
				struct vc t = x[i];
				x[i] = x[p];
				x[p++] = t;
				below += t.c;
			}
		{ struct vc t = x[p]; x[p] = x[c]; x[c] = t; }
		/* x[0..p) < pivot = x[p] < x[p+1..n) (the values are distinct). */
		long lo_end = base + below, hi_start = lo_end + x[p].c;
		size_t k = 0;
		while (k < nr && rank[k] < lo_end)
			k++;
		size_t m = k;
		while (m < nr && rank[m] < hi_start)
			out[m++] = x[p].v;
		/* The smaller side by recursion, the other by the loop. */
		if (k <= nr - m) {
			multiselect(x, p, base, rank, k, out);
			x += p + 1;
			n -= p + 1;
			base = hi_start;
			rank += m;
			out += m;
			nr -= m;
		} else {
			multiselect(x + p + 1, n - p - 1, hi_start, rank + m, nr - m,
			    out + m);
			n = p;
			nr = k;
		}
	}
	if (!nr)
		return;
	/* A few left: in order, then walked. */
	for (size_t i = 1; i < n; i++) {
		struct vc t = x[i];
		size_t j = i;
		while (j > 0 && x[j - 1].v > t.v) {
			x[j] = x[j - 1];
			j--;
		}
		x[j] = t;
	}
	long run = base;
	size_t i = 0;
	for (size_t r = 0; r < nr; r++) {
		while (i + 1 < n && run + x[i].c <= rank[r])
			run += x[i++].c;
		out[r] = x[i].v;
	}
}

static size_t
target_of(const struct hq_quant *qt, long rank)
{
	size_t t = 0;

	while (t < qt->nt && qt->rank[t] != rank)
		t++;
	return t;
}

static void
answers_from_targets(struct hq_quant *qt)
{
	for (size_t i = 0; i < qt->np; i++) {
		long r[2];
		double x[2], frac;
		size_t k = ranks_of(qt->p[i], qt->total, r, &frac);
		for (size_t j = 0; j < k; j++)
			x[j] = qt->stat[target_of(qt, r[j])];
		qt->ans[i] = interpolate(k, x, frac);
	}
}

static int
cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/* Every value is in the table: the order statistics the probabilities
 * read, selected from it. */
static void
answers_by_selection(struct hq_quant *qt)
{
	struct vc *x;
	size_t k = 0, nr = 0;

	if (qt->n == 0)
		return;
	qt->nt = 0;
	for (size_t i = 0; i < qt->np; i++) {
		long r[2];
		double frac;
		size_t m = ranks_of(qt->p[i], qt->n, r, &frac);
		for (size_t j = 0; j < m; j++)
			if (target_of(qt, r[j]) == qt->nt)
				qt->rank[qt->nt++] = r[j];
	}
	qsort(qt->rank, qt->nt, sizeof *qt->rank, cmp_long);
	nr = qt->nt;
	x = hq_xmalloc((qt->used + 1) * sizeof *x);
	for (size_t i = 0; i < qt->cap; i++)
		if (qt->cnt[i])
			x[k++] = (struct vc){ value_of(qt->key[i]), qt->cnt[i] };
	multiselect(x, k, 0, qt->rank, nr, qt->stat);
	free(x);
	answers_from_targets(qt);
}

static int
cmp_range(const void *a, const void *b)
{
	double x = ((const struct qrange *)a)->lo, y = ((const struct qrange *)b)->lo;

	return (x > y) - (x < y);
}

/* How the next pass reads each range: the smallest ranges' distinct values
 * while they fit under the limit together, bins for the rest. */
static void
plan_pass(struct hq_quant *qt)
{
	long budget = qt->limit;
	int any;

	qsort(qt->r, qt->nr, sizeof *qt->r, cmp_range);
	do {
		size_t best = qt->nr;
		any = 0;
		for (size_t i = 0; i < qt->nr; i++)
			if (!qt->r[i].collect && qt->r[i].count <= budget &&
			    (best == qt->nr || qt->r[i].count < qt->r[best].count))
				best = i;
		if (best < qt->nr) {
			qt->r[best].collect = 1;
			budget -= qt->r[best].count;
			any = 1;
		}
	} while (any);
	for (size_t i = 0; i < qt->nr; i++) {
		struct qrange *g = &qt->r[i];
		if (g->stuck)
			g->collect = 1;
		if (g->collect)
			continue;
		if (!g->bin) {
			g->bin = hq_xmalloc(QBINS * sizeof *g->bin);
			g->bmin = hq_xmalloc(QBINS * sizeof *g->bmin);
			g->bmax = hq_xmalloc(QBINS * sizeof *g->bmax);
		}
		for (size_t b = 0; b < QBINS; b++) {
			g->bin[b] = 0;
			g->bmin[b] = INFINITY;
			g->bmax[b] = -INFINITY;
		}
	}
	table_clear(qt);
	qt->n = 0;
	qt->pass++;
}

/* The bin of v in g: monotone in v, so bins are ranges of values; the
 * range's lo and hi fall in the first and the last bin. */
static size_t
bin_of(const struct qrange *g, double v)
{
	double d = g->hi * 0.5 - g->lo * 0.5;
	double x = (v * 0.5 - g->lo * 0.5) * ((double)QBINS / d);

	if (!(x > 0))
		return 0;
	if (x >= QBINS - 1)
		return QBINS - 1;
	return (size_t)x;
}

void
hq_quant_add(struct hq_quant *qt, double v, long count)
{
	size_t lo, hi;

	if (count <= 0 || isnan(v))
		return;
	qt->n += count;
	if (qt->pass == 1) {
		if (v < qt->min)
			qt->min = v;
		if (v > qt->max)
			qt->max = v;
		if (qt->overflow)
			return;
		table_add(qt, bits_of(v), count);
		if (qt->limit && (long)qt->used > qt->limit)
			qt->overflow = 1;
		return;
	}
	/* The range holding v, if any (they do not overlap). */
	for (lo = 0, hi = qt->nr; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;
		if (qt->r[mid].hi < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == qt->nr || v < qt->r[lo].lo)
		return;
	struct qrange *g = &qt->r[lo];
	if (g->collect) {
		table_add(qt, bits_of(v), count);
		return;
	}
	size_t b = bin_of(g, v);
	g->bin[b] += count;
	if (v < g->bmin[b])
		g->bmin[b] = v;
	if (v > g->bmax[b])
		g->bmax[b] = v;
}

/* The first pass held too many distinct values: the order statistics to
 * find, all in one range so far. */
static void
start_narrowing(struct hq_quant *qt)
{
	qt->nt = 0;
	for (size_t i = 0; i < qt->np; i++) {
		long r[2];
		double frac;
		size_t k = ranks_of(qt->p[i], qt->total, r, &frac);
		for (size_t j = 0; j < k; j++)
			if (target_of(qt, r[j]) == qt->nt) {
				qt->rank[qt->nt] = r[j];
				qt->found[qt->nt++] = 0;
			}
	}
	qt->nr = 1;
	qt->r[0].lo = qt->min;
	qt->r[0].hi = qt->max;
	qt->r[0].below = 0;
	qt->r[0].count = qt->total;
	qt->r[0].collect = qt->r[0].stuck = 0;
}

/* A range's targets out of its bins: each target's bin becomes a range of
 * the next pass, or is one value and answers it. */
static void
narrow_bins(struct hq_quant *qt, const struct qrange *g, struct qrange *next,
    size_t *nnext)
{
	for (size_t t = 0; t < qt->nt; t++) {
		long r = qt->rank[t], run = g->below;
		if (qt->found[t] || r < g->below || r >= g->below + g->count)
			continue;
		size_t b = 0;
		for (; b < QBINS - 1 && run + g->bin[b] <= r; b++)
			run += g->bin[b];
		if (g->bmin[b] == g->bmax[b]) {
			qt->stat[t] = g->bmin[b];
			qt->found[t] = 1;
			continue;
		}
		size_t k = 0;
		while (k < *nnext && next[k].lo != g->bmin[b])
			k++;
		if (k < *nnext)
			continue;   /* another target's range already */
		struct qrange *x = &next[(*nnext)++];
		x->lo = g->bmin[b];
		x->hi = g->bmax[b];
		x->below = run;
		x->count = g->bin[b];
		x->collect = 0;
		/* No progress (values too close for the bins to part): read
		 * its distinct values, which are then few. */
		x->stuck = x->lo == g->lo && x->hi == g->hi;
	}
}

int
hq_quant_pass_done(struct hq_quant *qt)
{
	struct qrange next[QMAXT] = {{0}};
	size_t nnext = 0;

	if (qt->ready)
		return 1;
	if (qt->pass == 1) {
		qt->total = qt->n;
		if (qt->n == 0 || !qt->overflow) {
			answers_by_selection(qt);
			qt->ready = 1;
			return 1;
		}
		start_narrowing(qt);
		plan_pass(qt);
		return 0;
	}
	/* Ranges read whole answer their targets; binned ones narrow. */
	table_sort(qt);
	for (size_t i = 0; i < qt->nr; i++) {
		const struct qrange *g = &qt->r[i];
		if (!g->collect) {
			narrow_bins(qt, g, next, &nnext);
			continue;
		}
		size_t a = 0, z;
		while (a < qt->ns && qt->sv[a] < g->lo)
			a++;
		for (z = a; z < qt->ns && qt->sv[z] <= g->hi; z++)
			;
		for (size_t t = 0; t < qt->nt; t++)
			if (!qt->found[t] && qt->rank[t] >= g->below &&
			    qt->rank[t] < g->below + g->count) {
				qt->stat[t] = sorted_stat(qt, a, z, g->below, qt->rank[t]);
				qt->found[t] = 1;
			}
	}
	if (nnext == 0) {
		answers_from_targets(qt);
		qt->ready = 1;
		return 1;
	}
	/* The next ranges, in the slots (and bins' memory) of these. */
	for (size_t i = 0; i < nnext; i++) {
		struct qrange *g = &qt->r[i];
		g->lo = next[i].lo;
		g->hi = next[i].hi;
		g->below = next[i].below;
		g->count = next[i].count;
		g->collect = 0;
		g->stuck = next[i].stuck;
	}
	qt->nr = nnext;
	plan_pass(qt);
	return 0;
}

double
hq_quant_value(const struct hq_quant *qt, size_t i)
{
	return qt->ready && i < qt->np && qt->total ? qt->ans[i] : NAN;
}

/* Any probability's quantile, when the one pass held every value (limit
 * 0, or no more distinct values than the limit); NaN otherwise. */
static double
hq_quant_any(struct hq_quant *qt, double p)
{
	if (qt->pass != 1 || qt->overflow)
		return NAN;
	if (!qt->sorted) {
		table_sort(qt);
		qt->sorted = 1;
	}
	return sorted_quantile(qt, p);
}

double
hq_quant_of(struct hq_quant *qt, double p)
{
	/* A probability the accumulator was made for, once the passes
	 * are done; else from every value (one pass held them all). */
	if (qt->ready)
		for (size_t k = 0; k < qt->np; k++)
			if (qt->p[k] == p)
				return hq_quant_value(qt, k);
	return hq_quant_any(qt, p);
}
