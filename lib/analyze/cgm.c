#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/cgm.h"

/* ---- metrics ---- */

void
hq_cgm_acc_init(struct hq_cgm_acc *a)
{
	memset(a, 0, sizeof *a);
}

/* Kovatchev's f(g) = ln(g)^1.084 - 5.381, remembered for whole mg/dL
 * values, which is what CGM files hold. */
static double
risk_f(double g)
{
	static double memo[1024];
	static unsigned char have[1024];
	int k = (int)g;

	if (k >= 0 && k < 1024 && (double)k == g) {
		if (!have[k]) {
			memo[k] = pow(log(g), 1.084) - 5.381;
			have[k] = 1;
		}
		return memo[k];
	}
	return pow(log(g), 1.084) - 5.381;
}

void
hq_cgm_acc_add(struct hq_cgm_acc *a, int64_t t, int64_t day, double g)
{
	double d, f;

	if (a->n == 0) {
		a->first = t;
		a->first_day = day;
	}
	if (a->n == 0 || day != a->last_day)
		a->days++;
	a->last = t;
	a->last_day = day;
	a->n++;
	d = g - a->mean;
	a->mean += d / (double)a->n;
	a->m2 += d * (g - a->mean);
	a->tbr += g < 70;
	a->tbr2 += g < 54;
	a->tar += g > 180;
	a->tar2 += g > 250;
	a->tir += g >= 70 && g <= 180;
	a->titr += g >= 70 && g <= 140;
	/* iglu's lbgi.R and hbgi.R, to the letter: each side by the sign of
	 * f and the 112.5 mg/dL threshold. */
	if (g > 0) {
		f = risk_f(g);
		if (g < 112.5 && f < 0)
			a->low_risk += f * f;
		else if (g >= 112.5 && f > 0)
			a->high_risk += f * f;
	}
}

void
hq_cgm_metrics(const struct hq_cgm_acc *a, int interval_min,
    int64_t span_start, int64_t span_end, struct hq_cgm_metrics *m)
{
	double n = (double)a->n, pct = 100.0 / n, expected;

	memset(m, 0, sizeof *m);
	m->readings = a->n;
	m->days = a->days;
	m->from_day = a->first_day;
	m->to_day = a->last_day;
	if (a->n == 0) {
		m->coverage_pct = m->mean = m->sd = m->cv = m->gmi = NAN;
		m->tir = m->titr = m->tbr = m->tbr2 = m->tar = m->tar2 = NAN;
		m->j_index = m->lbgi = m->hbgi = m->gri = NAN;
		return;
	}
	if (interval_min < 1)
		interval_min = 1;
	expected = (span_end > span_start ?
	    nearbyint((double)(span_end - span_start) / (60.0 * interval_min)) :
	    0) + 1;
	m->coverage_pct = 100.0 * n / expected;
	if (m->coverage_pct > 100)
		m->coverage_pct = 100;
	m->mean = a->mean;
	m->sd = a->n > 1 ? sqrt(a->m2 / (n - 1)) : NAN;
	m->cv = 100 * m->sd / m->mean;
	m->gmi = 3.31 + 0.02392 * m->mean;
	m->tir = a->tir * pct;
	m->titr = a->titr * pct;
	m->tbr = a->tbr * pct;
	m->tbr2 = a->tbr2 * pct;
	m->tar = a->tar * pct;
	m->tar2 = a->tar2 * pct;
	m->j_index = 0.001 * (m->mean + m->sd) * (m->mean + m->sd);
	m->lbgi = 22.77 * a->low_risk / n;
	m->hbgi = 22.77 * a->high_risk / n;
	m->gri = 3.0 * m->tbr2 + 2.4 * (m->tbr - m->tbr2) + 1.6 * m->tar2 +
	    0.8 * (m->tar - m->tar2);
	if (m->gri > 100)
		m->gri = 100;
}

static const struct {
	const char *name;
	size_t off;
	int is_long;
} fields[] = {
#define D(f) { #f, offsetof(struct hq_cgm_metrics, f), 0 }
#define L(f) { #f, offsetof(struct hq_cgm_metrics, f), 1 }
	L(days), L(readings), D(coverage_pct), D(mean), D(sd), D(cv), D(gmi),
	D(tir), D(titr), D(tbr), D(tbr2), D(tar), D(tar2), D(j_index), D(lbgi),
	D(hbgi), D(gri),
#undef D
#undef L
};

const char *
hq_cgm_field(size_t i)
{
	return i < sizeof fields / sizeof fields[0] ? fields[i].name : NULL;
}

double
hq_cgm_value(const struct hq_cgm_metrics *m, const char *name)
{
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		const char *p = (const char *)m + fields[i].off;
		if (strcmp(fields[i].name, name) != 0)
			continue;
		if (fields[i].is_long)
			return (double)*(const long *)(const void *)p;
		return *(const double *)(const void *)p;
	}
	return NAN;
}

/* ---- the sensor's interval ---- */

void
hq_cgm_interval_add(struct hq_cgm_interval *iv, int64_t seconds)
{
	double min = nearbyint((double)seconds / 60.0);
	long k = min < 0 ? 0 : min > HQ_CGM_INTERVAL_BINS ?
	    HQ_CGM_INTERVAL_BINS : (long)min;

	iv->bin[k]++;
	iv->n++;
}

/* The k-th smallest spacing (0-based), in minutes. */
static long
interval_kth(const struct hq_cgm_interval *iv, long k)
{
	long seen = 0;

	for (long i = 0; i <= HQ_CGM_INTERVAL_BINS; i++) {
		seen += iv->bin[i];
		if (seen > k)
			return i;
	}
	return HQ_CGM_INTERVAL_BINS;
}

int
hq_cgm_interval_minutes(const struct hq_cgm_interval *iv)
{
	double med;

	if (iv->n == 0)
		return 5;
	med = iv->n % 2 ? (double)interval_kth(iv, iv->n / 2) :
	    ((double)interval_kth(iv, iv->n / 2 - 1) +
	    (double)interval_kth(iv, iv->n / 2)) / 2;
	med = nearbyint(med);
	return med < 1 ? 1 : (int)med;
}

/* ---- the AGP ---- */

/* A slot counts whole mg/dL values below AGP_INTS in an array (what CGM
 * files hold) and keeps any other value sorted with its count; those wait
 * unsorted in pend and join in batches (sort, then merge), so a value costs
 * a few comparisons however many distinct values there are. */
#define AGP_PEND 1024
#define AGP_INTS 1024

struct agp_slot {
	uint32_t *ints;    /* counts of 0 .. AGP_INTS - 1 mg/dL */
	double *v;         /* other distinct values, ascending */
	long *n;           /* how many of each */
	size_t len, cap;
	double *pend;
	size_t plen;
	long total;
};

struct hq_cgm_agp {
	struct agp_slot slot[HQ_CGM_AGP_SLOTS];
	long distinct;
};

struct hq_cgm_agp *
hq_cgm_agp_new(void)
{
	return hq_xcalloc(1, sizeof(struct hq_cgm_agp));
}

void
hq_cgm_agp_free(struct hq_cgm_agp *g)
{
	if (!g)
		return;
	for (int i = 0; i < HQ_CGM_AGP_SLOTS; i++) {
		free(g->slot[i].ints);
		free(g->slot[i].v);
		free(g->slot[i].n);
		free(g->slot[i].pend);
	}
	free(g);
}

int
hq_cgm_agp_slot(int hour, int min)
{
	int s = (hour * 60 + min) / 15;

	return s < 0 ? 0 : s >= HQ_CGM_AGP_SLOTS ? HQ_CGM_AGP_SLOTS - 1 : s;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Merge the waiting values into the sorted ones. */
static int
agp_flush(struct hq_cgm_agp *g, struct agp_slot *s, struct hq_err *e)
{
	size_t i = 0, j = 0, k = 0, cap;
	double *v;
	long *n;

	if (s->plen == 0)
		return 0;
	qsort(s->pend, s->plen, sizeof *s->pend, cmp_double);
	cap = s->len + s->plen;
	v = hq_xmalloc(cap * sizeof *v);
	n = hq_xmalloc(cap * sizeof *n);
	while (i < s->len || j < s->plen) {
		double x;
		long c;
		if (j == s->plen || (i < s->len && s->v[i] <= s->pend[j])) {
			x = s->v[i];
			c = s->n[i++];
		} else {
			x = s->pend[j++];
			c = 1;
		}
		if (k > 0 && v[k - 1] == x)
			n[k - 1] += c;
		else {
			v[k] = x;
			n[k++] = c;
		}
	}
	g->distinct += (long)k - (long)s->len;
	free(s->v);
	free(s->n);
	s->v = v;
	s->n = n;
	s->len = k;
	s->cap = cap;
	s->plen = 0;
	if (g->distinct > HQ_CGM_AGP_MAX_DISTINCT) {
		hq_err_set(e, "more than %ld distinct glucose values: too many "
		    "for an exact AGP; narrow the range with --from/--to",
		    HQ_CGM_AGP_MAX_DISTINCT);
		return -1;
	}
	return 0;
}

int
hq_cgm_agp_add(struct hq_cgm_agp *g, int slot, double v, struct hq_err *e)
{
	struct agp_slot *s = &g->slot[slot];
	int k = (int)v;

	s->total++;
	if (k >= 0 && k < AGP_INTS && (double)k == v) {
		if (!s->ints)
			s->ints = hq_xcalloc(AGP_INTS, sizeof *s->ints);
		s->ints[k]++;
		return 0;
	}
	if (!s->pend)
		s->pend = hq_xmalloc(AGP_PEND * sizeof *s->pend);
	s->pend[s->plen++] = v;
	return s->plen == AGP_PEND ? agp_flush(g, s, e) : 0;
}

int
hq_cgm_agp_finish(struct hq_cgm_agp *g, struct hq_err *e)
{
	for (int i = 0; i < HQ_CGM_AGP_SLOTS; i++)
		if (agp_flush(g, &g->slot[i], e))
			return -1;
	return 0;
}

/* The k-th smallest value of a slot (0-based): the whole values and the
 * others, merged in order. */
static double
slot_kth(const struct agp_slot *s, long k)
{
	long seen = 0;
	size_t j = 0;
	double last = NAN;

	for (int i = 0; i <= AGP_INTS; i++) {
		while (j < s->len && (i == AGP_INTS || s->v[j] < i)) {
			seen += s->n[j];
			last = s->v[j++];
			if (seen > k)
				return last;
		}
		if (i < AGP_INTS && s->ints && s->ints[i]) {
			seen += s->ints[i];
			last = i;
			if (seen > k)
				return last;
		}
	}
	return last;
}

/* R's quantile(type = 7), as quantile.default computes it. */
static double
slot_quantile(const struct agp_slot *s, double p)
{
	double index, lo, hi, xlo, xhi, h;

	if (s->total == 0)
		return NAN;
	index = 1 + (double)(s->total - 1) * p;
	lo = floor(index);
	hi = ceil(index);
	xlo = slot_kth(s, (long)lo - 1);
	if (!(index > lo))
		return xlo;
	xhi = slot_kth(s, (long)hi - 1);
	if (xhi == xlo)
		return xlo;
	h = index - lo;
	return (1 - h) * xlo + h * xhi;
}

void
hq_cgm_agp_row(const struct hq_cgm_agp *g, int slot, struct hq_cgm_agp_row *r)
{
	const struct agp_slot *s = &g->slot[slot];

	r->slot = slot;
	r->n = s->total;
	r->p5 = slot_quantile(s, 0.05);
	r->p25 = slot_quantile(s, 0.25);
	r->p50 = slot_quantile(s, 0.50);
	r->p75 = slot_quantile(s, 0.75);
	r->p95 = slot_quantile(s, 0.95);
}

/* ---- the double-source rule ---- */

struct pending {
	int64_t t;
	int rank, source, covered;
	double v;
};

#define DEDUP_MAX_PENDING 65536

struct hq_cgm_dedup {
	int64_t tol;               /* seconds: 3/4 of the interval */
	hq_cgm_emit_fn *emit;
	void *arg;
	struct pending *q;         /* a ring, in time order */
	size_t head, len, cap;
	int64_t *last;             /* last time seen per rank */
	unsigned char *seen;
	int nranks;
};

struct hq_cgm_dedup *
hq_cgm_dedup_new(int interval_min, hq_cgm_emit_fn *emit, void *arg)
{
	struct hq_cgm_dedup *d = hq_xcalloc(1, sizeof *d);

	d->tol = (int64_t)(interval_min < 1 ? 1 : interval_min) * 45;
	d->emit = emit;
	d->arg = arg;
	return d;
}

void
hq_cgm_dedup_free(struct hq_cgm_dedup *d)
{
	if (!d)
		return;
	free(d->q);
	free(d->last);
	free(d->seen);
	free(d);
}

static struct pending *
at(struct hq_cgm_dedup *d, size_t i)
{
	return &d->q[(d->head + i) % d->cap];
}

static void
pop(struct hq_cgm_dedup *d)
{
	struct pending *p = at(d, 0);

	if (!p->covered)
		d->emit(d->arg, p->t, p->source, p->v);
	d->head = (d->head + 1) % d->cap;
	d->len--;
}

void
hq_cgm_dedup_push(struct hq_cgm_dedup *d, int64_t t, int rank, int source,
    double v)
{
	struct pending *p;
	int covered = 0;

	if (rank >= d->nranks) {
		int n = rank + 1;
		d->last = hq_xrealloc(d->last, (size_t)n * sizeof *d->last);
		d->seen = hq_xrealloc(d->seen, (size_t)n);
		memset(d->seen + d->nranks, 0, (size_t)(n - d->nranks));
		d->nranks = n;
	}
	/* Lower-ranked readings waiting within reach of this one. */
	for (size_t i = d->len; i-- > 0;) {
		p = at(d, i);
		if (t - p->t >= d->tol)
			break;
		if (p->rank > rank)
			p->covered = 1;
	}
	/* Higher-ranked readings just before this one. */
	for (int j = 0; j < rank && !covered; j++)
		covered = d->seen[j] && t - d->last[j] < d->tol;
	while (d->len && (t - at(d, 0)->t >= d->tol || d->len >= DEDUP_MAX_PENDING))
		pop(d);
	if (d->len == d->cap) {
		size_t ncap = d->cap ? d->cap * 2 : 64;
		struct pending *nq = hq_xmalloc(ncap * sizeof *nq);
		for (size_t i = 0; i < d->len; i++)
			nq[i] = *at(d, i);
		free(d->q);
		d->q = nq;
		d->head = 0;
		d->cap = ncap;
	}
	p = &d->q[(d->head + d->len) % d->cap];
	*p = (struct pending){ t, rank, source, covered, v };
	d->len++;
	d->last[rank] = t;
	d->seen[rank] = 1;
}

void
hq_cgm_dedup_finish(struct hq_cgm_dedup *d)
{
	while (d->len)
		pop(d);
}
