#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hq/buf.h"
#include "hq/merge.h"

void
hq_merge_priority_parse(struct hq_priority *p, const char *list)
{
	memset(p, 0, sizeof *p);
	if (!list)
		return;
	for (const char *s = list; *s;) {
		const char *comma = strchr(s, ',');
		size_t len = comma ? (size_t)(comma - s) : strlen(s);
		const char *w = s;

		while (len && (*w == ' ' || *w == '\t'))
			w++, len--;
		while (len && (w[len - 1] == ' ' || w[len - 1] == '\t'))
			len--;
		if (len) {
			p->names = hq_xrealloc(p->names, (p->n + 1) * sizeof *p->names);
			p->names[p->n] = hq_xmalloc(len + 1);
			memcpy(p->names[p->n], w, len);
			p->names[p->n++][len] = '\0';
		}
		if (!comma)
			break;
		s = comma + 1;
	}
}

void
hq_merge_priority_free(struct hq_priority *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->names[i]);
	free(p->names);
	memset(p, 0, sizeof *p);
}

int
hq_merge_source_class(const struct hq_priority *p, const char *source,
    const char *device)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (source && strcasestr(source, p->names[i]))
			return (int)i;
	/* Unlisted sources come after the listed ones, by device class. */
	if ((device && strstr(device, "model:Watch")) ||
	    (source && strcasestr(source, "watch")))
		return (int)i;
	if ((device && strstr(device, "model:iPhone")) ||
	    (source && strcasestr(source, "iphone")))
		return (int)i + 1;
	return (int)i + 2;
}

int
hq_merge_device_matters(const struct hq_priority *p, const char *source)
{
	static const char *const devices[] = { NULL, "model:Watch", "model:iPhone" };
	struct hq_priority none = {0};
	int cls = hq_merge_source_class(p ? p : &none, source, NULL);

	for (size_t i = 1; i < sizeof devices / sizeof devices[0]; i++)
		if (hq_merge_source_class(p ? p : &none, source, devices[i]) != cls)
			return 1;
	return 0;
}

uint64_t
hq_merge_rank(const struct hq_priority *p, const char *source,
    const char *device, size_t order)
{
	struct hq_priority none = {0};
	int cls = hq_merge_source_class(p ? p : &none, source, device);

	return (uint64_t)cls << 32 | (uint64_t)order;
}

struct iv {
	int64_t s, e;
};

static const struct hq_merge_sample *sort_base;

static int
cmp_rank_start(const void *a, const void *b)
{
	const struct hq_merge_sample *x = &sort_base[*(const size_t *)a];
	const struct hq_merge_sample *y = &sort_base[*(const size_t *)b];

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x->start > y->start) - (x->start < y->start);
}

static int
cmp_piece(const void *a, const void *b)
{
	const struct hq_piece *x = a, *y = b;

	if (x->start != y->start)
		return (x->start > y->start) - (x->start < y->start);
	return (x->sample > y->sample) - (x->sample < y->sample);
}

static void
push_piece(struct hq_piece **out, size_t *n, size_t *cap, struct hq_piece pc)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 256;
		*out = hq_xrealloc(*out, *cap * sizeof **out);
	}
	(*out)[(*n)++] = pc;
}

/* First interval of cov[0..n) (sorted, disjoint) that ends after t. */
static size_t
first_ending_after(const struct iv *cov, size_t n, int64_t t)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cov[mid].e <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Whether t is in the sorted times[0..n). */
static int
has_time(const int64_t *times, size_t n, int64_t t)
{
	return n && bsearch(&t, times, n, sizeof *times, cmp_i64) != NULL;
}

/* Union of the sorted disjoint cov with the sorted intervals add. */
static struct iv *
union_sorted(const struct iv *cov, size_t nc, const struct iv *add, size_t na,
    size_t *nout)
{
	struct iv *r = hq_xmalloc((nc + na + 1) * sizeof *r);
	size_t i = 0, j = 0, n = 0;

	while (i < nc || j < na) {
		struct iv next = (j >= na || (i < nc && cov[i].s <= add[j].s))
		    ? cov[i++] : add[j++];
		if (n && next.s <= r[n - 1].e) {
			if (next.e > r[n - 1].e)
				r[n - 1].e = next.e;
		} else
			r[n++] = next;
	}
	*nout = n;
	return r;
}

static int
cmp_iv(const void *a, const void *b)
{
	const struct iv *x = a, *y = b;

	return (x->s > y->s) - (x->s < y->s);
}

/* order[] = the samples by rank, then start, ties in input order (as a
 * stable sort gives them). Input already in start order (queries read it
 * so) is split by rank in one pass per rank: sources are few. */
static void
rank_order(const struct hq_merge_sample *in, size_t n, size_t *order)
{
	uint64_t ranks[8];
	size_t nranks = 0, k = 0;
	int sorted = 1;

	for (size_t i = 0; i < n; i++)
		order[i] = i;
	for (size_t i = 1; i < n && sorted; i++)
		sorted = in[i - 1].start <= in[i].start;
	for (size_t i = 0; i < n && sorted; i++) {
		size_t r = 0;
		while (r < nranks && ranks[r] != in[i].rank)
			r++;
		if (r == nranks) {
			if (nranks == sizeof ranks / sizeof ranks[0])
				sorted = 0;
			else
				ranks[nranks++] = in[i].rank;
		}
	}
	if (!sorted) {
		sort_base = in;
		qsort(order, n, sizeof *order, cmp_rank_start);
		return;
	}
	/* The few ranks in order, then each one's samples in input order. */
	for (size_t i = 1; i < nranks; i++)
		for (size_t j = i; j > 0 && ranks[j - 1] > ranks[j]; j--) {
			uint64_t t = ranks[j];
			ranks[j] = ranks[j - 1];
			ranks[j - 1] = t;
		}
	for (size_t r = 0; r < nranks; r++)
		for (size_t i = 0; i < n; i++)
			if (in[i].rank == ranks[r])
				order[k++] = i;
}

static int
piece_before(const struct hq_piece *x, const struct hq_piece *y)
{
	return x->start < y->start || (x->start == y->start && x->sample < y->sample);
}

/* Pieces by start, then sample: they come as a few ascending runs (one or
 * more per rank), merged pairwise; what the same sort by qsort gives. */
static void
sort_pieces(struct hq_piece *p, size_t n)
{
	struct hq_piece *tmp;
	size_t *run, nrun = 0;

	if (n < 2)
		return;
	run = hq_xmalloc((n + 1) * sizeof *run);
	run[nrun++] = 0;
	for (size_t i = 1; i < n; i++)
		if (piece_before(&p[i], &p[i - 1]))
			run[nrun++] = i;
	if (nrun == 1) {
		free(run);
		return;
	}
	if (nrun > 64) {
		/* Not runs worth merging: sort. */
		free(run);
		qsort(p, n, sizeof *p, cmp_piece);
		return;
	}
	run[nrun] = n;
	tmp = hq_xmalloc(n * sizeof *tmp);
	while (nrun > 1) {
		/* Runs r and r + 1 into one; run[nrun] is n. */
		size_t m = 0;
		for (size_t r = 0; r < nrun; r += 2) {
			size_t a = run[r], mid = run[r + 1];
			size_t z = run[r + 2 < nrun ? r + 2 : nrun];
			size_t i = a, j = mid, k = a;
			while (i < mid && j < z)
				tmp[k++] = piece_before(&p[j], &p[i]) ? p[j++] : p[i++];
			while (i < mid)
				tmp[k++] = p[i++];
			while (j < z)
				tmp[k++] = p[j++];
			run[m++] = a;
		}
		memcpy(p, tmp, n * sizeof *p);
		run[m] = n;
		nrun = m;
	}
	free(tmp);
	free(run);
}

void
hq_merge_cumulative(const struct hq_merge_sample *in, size_t n,
    struct hq_piece **out, size_t *nout)
{
	size_t *order = hq_xmalloc((n + 1) * sizeof *order);
	struct iv *cov = NULL, *group = hq_xmalloc((n + 1) * sizeof *group);
	/* the instants of the ranks done, sorted: an instant of a lower rank
	 * at the same time is the same entry written twice (two apps logging
	 * one meal) */
	int64_t *inst = hq_xmalloc((n + 1) * sizeof *inst);
	size_t ncov = 0, cap = 0, ninst = 0;

	*out = NULL;
	*nout = 0;
	rank_order(in, n, order);

	for (size_t g = 0; g < n;) {
		size_t end = g, ng = 0, ninst0 = ninst;
		while (end < n && in[order[end]].rank == in[order[g]].rank)
			end++;
		for (size_t k = g; k < end; k++) {
			const struct hq_merge_sample *x = &in[order[k]];
			size_t j = first_ending_after(cov, ncov, x->start);
			struct hq_piece pc = { .sample = order[k] };

			if (x->end <= x->start) {
				/* An instant: covered when inside a higher interval
				 * or at a higher instant. */
				if ((j == ncov || cov[j].s > x->start) &&
				    !has_time(inst, ninst0, x->start)) {
					pc.start = pc.end = x->start;
					pc.value = x->value;
					push_piece(out, nout, &cap, pc);
				}
				inst[ninst++] = x->start;
				continue;
			}
			double rate = x->value / (double)(x->end - x->start);
			int64_t t = x->start;
			for (; j < ncov && cov[j].s < x->end && t < x->end; j++) {
				if (cov[j].s > t) {
					pc.start = t;
					pc.end = cov[j].s;
					pc.value = rate * (double)(pc.end - pc.start);
					push_piece(out, nout, &cap, pc);
				}
				if (cov[j].e > t)
					t = cov[j].e;
			}
			if (t < x->end) {
				pc.start = t;
				pc.end = x->end;
				/* The whole value when nothing covered it, not a
				 * product that rounds. */
				pc.value = t == x->start ? x->value
				    : rate * (double)(pc.end - pc.start);
				push_piece(out, nout, &cap, pc);
			}
			if (x->end > x->start)
				group[ng++] = (struct iv){ x->start, x->end };
		}
		if (ninst > ninst0)
			qsort(inst, ninst, sizeof *inst, cmp_i64);
		/* This rank now covers its intervals for every lower rank. */
		if (end < n && ng) {
			size_t nn;
			qsort(group, ng, sizeof *group, cmp_iv);
			struct iv *u = union_sorted(cov, ncov, group, ng, &nn);
			free(cov);
			cov = u;
			ncov = nn;
		}
		g = end;
	}
	sort_pieces(*out, *nout);
	free(order);
	free(group);
	free(cov);
	free(inst);
}
