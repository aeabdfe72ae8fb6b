#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/sleep.h"
#include "hq/time.h"

int
hq_sleep_stage_from_name(const char *name)
{
	static const char *const names[HQ_SLEEP_NSTAGES] = {
		"in_bed", "asleep_unspecified", "awake", "asleep_core",
		"asleep_deep", "asleep_rem",
	};

	for (int i = 0; i < HQ_SLEEP_NSTAGES; i++)
		if (strcmp(name, names[i]) == 0)
			return i;
	if (strcmp(name, "asleep") == 0)
		return HQ_SLEEP_UNSPECIFIED;
	return -1;
}

int64_t
hq_sleep_night_of(int64_t end, int cutoff_hour)
{
	struct hq_local l;

	hq_time_to_local(end, &l);
	return hq_time_days_from_civil(l.year, l.month, l.day) +
	    (l.hour >= cutoff_hour ? 1 : 0);
}

int64_t
hq_sleep_night_closes(int64_t day, int cutoff_hour)
{
	int y, m, d;

	hq_time_civil_from_days(day, &y, &m, &d);
	return hq_time_from_local(y, m, d, cutoff_hour, 0, 0);
}

int
hq_sleep_night_counts(const struct hq_night *night, int cutoff_hour,
    int64_t until)
{
	return hq_sleep_night_closes(night->day, cutoff_hour) <= until ||
	    night->end <= until - HQ_SLEEP_UP_SECONDS;
}

static int
is_asleep(int stage)
{
	return stage == HQ_SLEEP_UNSPECIFIED || stage == HQ_SLEEP_CORE ||
	    stage == HQ_SLEEP_DEEP || stage == HQ_SLEEP_REM;
}

struct keyed {
	int64_t night;
	const struct hq_sleep_sample *s;
};

static int
cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	if (x->night != y->night)
		return (x->night > y->night) - (x->night < y->night);
	return (x->s->start > y->s->start) - (x->s->start < y->s->start);
}

struct iv {
	int64_t s, e;
};

static int
cmp_iv(const void *a, const void *b)
{
	const struct iv *x = a, *y = b;

	return (x->s > y->s) - (x->s < y->s);
}

/* Seconds covered by the union of iv[0..n) (sorted here). */
static double
union_seconds(struct iv *iv, size_t n)
{
	double total = 0;
	int64_t cs = 0, ce = 0;
	int open = 0;

	qsort(iv, n, sizeof *iv, cmp_iv);
	for (size_t i = 0; i < n; i++) {
		if (open && iv[i].s <= ce) {
			if (iv[i].e > ce)
				ce = iv[i].e;
			continue;
		}
		if (open)
			total += (double)(ce - cs);
		cs = iv[i].s;
		ce = iv[i].e;
		open = 1;
	}
	if (open)
		total += (double)(ce - cs);
	return total;
}

/* Union of the intervals of group g[0..n) that pass the filter. */
static double
night_union(const struct keyed *g, size_t n, struct iv *tmp, int stage,
    int asleep_all, int any_rank, uint64_t rank)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		const struct hq_sleep_sample *s = g[i].s;
		if (!any_rank && s->rank != rank)
			continue;
		if (asleep_all ? !is_asleep(s->stage) : s->stage != stage)
			continue;
		if (s->end > s->start)
			tmp[m++] = (struct iv){ s->start, s->end };
	}
	return union_seconds(tmp, m);
}

void
hq_sleep_nights(const struct hq_sleep_sample *in, size_t n, int cutoff_hour,
    struct hq_night **out, size_t *nout)
{
	struct keyed *k = hq_xmalloc((n + 1) * sizeof *k);
	struct iv *tmp = hq_xmalloc((n + 1) * sizeof *tmp);
	size_t m = 0, nn = 0;

	for (size_t i = 0; i < n; i++)
		if (in[i].stage >= 0)
			k[m++] = (struct keyed){ hq_sleep_night_of(in[i].end, cutoff_hour), &in[i] };
	qsort(k, m, sizeof *k, cmp_keyed);
	*out = hq_xcalloc(m + 1, sizeof **out);
	for (size_t g = 0; g < m;) {
		size_t end = g;
		uint64_t best = UINT64_MAX;
		struct hq_night *night = &(*out)[nn];

		while (end < m && k[end].night == k[g].night)
			end++;
		memset(night, 0, sizeof *night);
		night->day = k[g].night;
		night->start = INT64_MAX;
		night->end = INT64_MIN;
		for (size_t i = g; i < end; i++)
			if (is_asleep(k[i].s->stage) && k[i].s->rank < best)
				best = k[i].s->rank;
		for (size_t i = g; i < end; i++) {
			const struct hq_sleep_sample *s = k[i].s;
			/* Only the preferred source's stages and anyone's in-bed
			 * make the night. */
			if (s->stage != HQ_SLEEP_IN_BED && s->rank != best)
				continue;
			night->n++;
			if (s->start < night->start)
				night->start = s->start;
			if (s->end > night->end)
				night->end = s->end;
		}
		night->in_bed = night_union(k + g, end - g, tmp, HQ_SLEEP_IN_BED, 0, 1, 0);
		night->stage[HQ_SLEEP_IN_BED] = night->in_bed;
		if (best != UINT64_MAX) {
			night->asleep = night_union(k + g, end - g, tmp, 0, 1, 0, best);
			for (int st = HQ_SLEEP_UNSPECIFIED; st < HQ_SLEEP_NSTAGES; st++)
				night->stage[st] = night_union(k + g, end - g, tmp, st, 0, 0, best);
		}
		nn++;
		g = end;
	}
	*nout = nn;
	free(k);
	free(tmp);
}

int
hq_sleep_metric_seconds(const char *metric, const struct hq_night *night,
    double *seconds)
{
	static const struct { const char *name; int stage; } m[] = {
		{ "sleep", -1 }, { "sleep_in_bed", HQ_SLEEP_IN_BED },
		{ "sleep_core", HQ_SLEEP_CORE }, { "sleep_deep", HQ_SLEEP_DEEP },
		{ "sleep_rem", HQ_SLEEP_REM }, { "sleep_awake", HQ_SLEEP_AWAKE },
		{ "sleep_unspecified", HQ_SLEEP_UNSPECIFIED },
	};

	for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
		if (strcmp(metric, m[i].name) == 0) {
			*seconds = m[i].stage < 0 ? night->asleep : night->stage[m[i].stage];
			return 0;
		}
	return -1;
}
