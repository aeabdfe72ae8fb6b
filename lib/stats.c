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

double
hq_stats_median(double *v, size_t n)
{
	hq_stats_sort(v, n);
	return hq_stats_quantile_sorted(v, n, 0.5);
}

void
hq_stats_acc_init(struct hq_stats_acc *a, int keep_values)
{
	memset(a, 0, sizeof *a);
	a->keep_values = keep_values;
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
	a->nvalues = 0;
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
	if (a->keep_values) {
		if (a->nvalues == a->cap) {
			a->cap = a->cap ? a->cap * 2 : 64;
			a->values = hq_xrealloc(a->values, a->cap * sizeof *a->values);
		}
		a->values[a->nvalues++] = v;
	}
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
		if (!a->keep_values || a->nvalues == 0)
			return NAN;
		hq_stats_sort(a->values, a->nvalues);
		return hq_stats_quantile_sorted(a->values, a->nvalues,
		    g->kind == HQ_AGG_MEDIAN ? 0.5 : g->pct / 100.0);
	}
	return NAN;
}

void
hq_stats_acc_free(struct hq_stats_acc *a)
{
	free(a->values);
	a->values = NULL;
	a->nvalues = a->cap = 0;
}
