#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/opts.h"
#include "hq/select.h"

/* ---- the description ----------------------------------------------------- */

void
hq_select_init(struct hq_select *sel)
{
	memset(sel, 0, sizeof *sel);
	sel->from = INT64_MIN;
	sel->to = INT64_MAX;
	sel->by = HQ_PERIOD_NONE;
}

void
hq_select_free(struct hq_select *sel)
{
	for (size_t i = 0; i < sel->nwhen; i++)
		hq_expr_free(sel->when[i]);
	for (size_t i = 0; i < sel->nwhere; i++)
		hq_expr_free(sel->where[i]);
	free(sel->when);
	free(sel->where);
	hq_merge_priority_free(&sel->priority);
	hq_select_init(sel);
}

static void
push_expr(struct hq_expr ***v, size_t *n, struct hq_expr *x)
{
	*v = hq_xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[(*n)++] = x;
}

/* Parse src into v; a parse error names the option it came from. */
static int
add_expr(struct hq_expr ***v, size_t *n, const char *option, const char *src,
    struct hq_err *e)
{
	struct hq_expr *x = hq_expr_parse(src, e);

	if (!x) {
		hq_err_prefix(e, "%s", option);
		return -1;
	}
	push_expr(v, n, x);
	return 0;
}

int
hq_select_add_when(struct hq_select *sel, const char *src, struct hq_err *e)
{
	return add_expr(&sel->when, &sel->nwhen, "--when", src, e);
}

int
hq_select_add_where(struct hq_select *sel, const char *src, struct hq_err *e)
{
	return add_expr(&sel->where, &sel->nwhere, "--where", src, e);
}

int
hq_select_config(struct hq_select *sel, const struct hq_config *cfg,
    struct hq_err *e)
{
	const char *cut = hq_config_get(cfg, "query", "sleep_cutoff");
	long cutoff = 18;

	if (cut && hq_opts_parse_long(cut, 1, 23, &cutoff)) {
		hq_err_set(e, "config [query] sleep_cutoff = %s: expected an hour "
		    "1..23", cut);
		return -1;
	}
	sel->sleep_cutoff = (int)cutoff;
	hq_merge_priority_free(&sel->priority);
	hq_merge_priority_parse(&sel->priority,
	    hq_config_get(cfg, "query", "source_priority"));
	return 0;
}

/* The query every metric of sel starts from. */
static void
base_query(const struct hq_select *sel, struct hq_query *q)
{
	memset(q, 0, sizeof *q);
	q->from = sel->from;
	q->to = sel->to;
	q->by = sel->by;
	q->whole = sel->whole;
	memcpy(q->aggs, sel->aggs, sizeof q->aggs);
	q->naggs = sel->naggs;
	q->source = sel->source;
	q->priority = sel->priority.n ? &sel->priority : NULL;
	q->sleep_cutoff = sel->sleep_cutoff;
	q->no_rollup = sel->no_rollup;
	q->day_from_hour = sel->day_from_hour;
	q->day_to_hour = sel->day_to_hour;
}

/* The aggregations a metric's rows carry: the selection's, or the kind's
 * default (as hq_query_run() chooses). */
static size_t
series_aggs(const struct hq_select *sel, enum hq_kind kind,
    struct hq_agg aggs[HQ_MAX_AGGS])
{
	if (sel->naggs) {
		memcpy(aggs, sel->aggs, sel->naggs * sizeof *aggs);
		return sel->naggs;
	}
	hq_query_default_agg(kind, &aggs[0]);
	return 1;
}

/* The index of a field name among aggs ("mean" finds avg), or -1. */
static int
agg_index(const struct hq_agg *aggs, size_t naggs, const char *field)
{
	struct hq_agg a;

	if (hq_stats_parse_agg(field, &a))
		return -1;
	for (size_t j = 0; j < naggs; j++)
		if (strcmp(aggs[j].name, a.name) == 0)
			return (int)j;
	return -1;
}

/* ---- daily values ---------------------------------------------------------- */

void
hq_select_daily_free(struct hq_select_daily *d)
{
	free(d->days);
	free(d->v);
	memset(d, 0, sizeof *d);
}

long
hq_select_daily_find(const struct hq_select_daily *d, int64_t day)
{
	const struct hq_dayset ds = { d->days, d->n };

	return hq_dayset_find(&ds, day);
}

/* The store's daily values: each metric resolved once, on first sight. */
struct store_days {
	struct hq_store *s;
	const struct hq_select *sel;
	struct store_metric {
		char *name;              /* as written in the conditions */
		struct hq_metric_ref ref;
	} *m;
	size_t n;
};

static const struct hq_metric_ref *
store_metric(struct store_days *sd, const char *name, struct hq_err *e)
{
	struct hq_metric_ref ref;

	for (size_t i = 0; i < sd->n; i++)
		if (strcmp(sd->m[i].name, name) == 0)
			return &sd->m[i].ref;
	if (hq_query_resolve(sd->s, name, &ref, e))
		return NULL;
	sd->m = hq_xrealloc(sd->m, (sd->n + 1) * sizeof *sd->m);
	sd->m[sd->n].name = hq_xstrdup(name);
	sd->m[sd->n].ref = ref;
	return &sd->m[sd->n++].ref;
}

static int
store_check(void *ctx, const char *metric, const char *field, struct hq_err *e)
{
	struct hq_agg a;

	if (strcmp(field, "value") != 0 && strcmp(field, "n") != 0 &&
	    hq_stats_parse_agg(field, &a)) {
		hq_err_set(e, "unknown aggregation '%s' in %s.%s; use sum, avg, min, "
		    "max, count, median, p90...", field, metric, field);
		return -1;
	}
	return store_metric(ctx, metric, e) ? 0 : -1;
}

enum { COL_N = -1 };

/* One day query for every field: the metric's default aggregation first
 * (what "value" reads), then each other aggregation named. */
static int
store_load(void *ctx, const char *metric, const char *const *fields,
    size_t nfields, int lag_lo, int lag_hi, struct hq_select_daily *d,
    struct hq_err *e)
{
	struct store_days *sd = ctx;
	const struct hq_metric_ref *ref = store_metric(sd, metric, e);
	struct hq_series sr;
	struct hq_query q;
	int *col = hq_xcalloc(nfields + 1, sizeof *col), rc = -1;

	memset(d, 0, sizeof *d);
	if (!ref)
		goto out;
	base_query(sd->sel, &q);
	q.metric = *ref;
	q.by = HQ_DAY;
	q.whole = 0;
	q.source = NULL;
	if (q.from != INT64_MIN)
		q.from = hq_time_day_start(hq_time_local_day(q.from) + lag_lo);
	if (q.to != INT64_MAX)
		q.to = hq_time_day_start(hq_time_local_day(q.to - 1) + 1 + lag_hi);
	q.day_from_hour = q.day_to_hour = 0;   /* conditions: calendar days */
	hq_query_default_agg(ref->kind, &q.aggs[0]);
	q.naggs = 1;
	for (size_t j = 0; j < nfields; j++) {
		struct hq_agg a;
		if (store_check(sd, metric, fields[j], e))
			goto out;
		if (strcmp(fields[j], "value") == 0 || strcmp(fields[j], "n") == 0) {
			col[j] = fields[j][0] == 'n' ? COL_N : 0;
			continue;
		}
		if ((col[j] = agg_index(q.aggs, q.naggs, fields[j])) >= 0)
			continue;
		if (q.naggs == HQ_MAX_AGGS) {
			hq_err_set(e, "%s: at most %d aggregations of one metric in "
			    "conditions", metric, HQ_MAX_AGGS);
			goto out;
		}
		hq_stats_parse_agg(fields[j], &a);
		col[j] = (int)q.naggs;
		q.aggs[q.naggs++] = a;
	}
	if (hq_query_run(sd->s, &q, &sr, e))
		goto out;
	d->days = hq_xcalloc(sr.n + 1, sizeof *d->days);
	d->v = hq_xcalloc(sr.n * nfields + 1, sizeof *d->v);
	for (size_t i = 0; i < sr.n; i++) {
		d->days[i] = sr.rows[i].day;
		for (size_t j = 0; j < nfields; j++)
			d->v[i * nfields + j] = col[j] == COL_N ? (double)sr.rows[i].n
			    : sr.rows[i].v[col[j]];
	}
	d->n = sr.n;
	hq_series_free(&sr);
	rc = 0;
out:
	free(col);
	return rc;
}

void
hq_select_store_days(struct hq_select_daysrc *src, struct hq_store *s,
    const struct hq_select *sel)
{
	struct store_days *sd = hq_xcalloc(1, sizeof *sd);

	sd->s = s;
	sd->sel = sel;
	src->check = store_check;
	src->load = store_load;
	src->ctx = sd;
}

void
hq_select_store_days_free(struct hq_select_daysrc *src)
{
	struct store_days *sd = src->ctx;

	if (!sd)
		return;
	for (size_t i = 0; i < sd->n; i++)
		free(sd->m[i].name);
	free(sd->m);
	free(sd);
	src->ctx = NULL;
}

/* ---- the days conditions pick ---------------------------------------------- */

/* One metric the conditions name: the fields they read of it, and its
 * daily values. */
struct day_metric {
	const char *name;
	const char **fields;
	size_t nfields;
	int lag_lo, lag_hi;      /* the day offsets the conditions read it at */
	struct hq_select_daily daily;
};

/* Where a condition's reference reads: metric, field, day offset. */
struct day_ref {
	size_t metric, field;
	int lag;
};

struct hq_select_days {
	struct hq_expr *const *conds;
	size_t nconds;
	struct day_metric *m;
	size_t nm;
	struct day_ref *refs;    /* every condition's references, in turn */
	size_t *first;           /* condition i's are refs[first[i]...] */
	size_t nrefs;
};

static size_t
day_metric(struct hq_select_days *d, const char *name)
{
	for (size_t k = 0; k < d->nm; k++)
		if (strcmp(d->m[k].name, name) == 0)
			return k;
	d->m = hq_xrealloc(d->m, (d->nm + 1) * sizeof *d->m);
	memset(&d->m[d->nm], 0, sizeof d->m[d->nm]);
	d->m[d->nm].name = name;
	return d->nm++;
}

static size_t
day_field(struct day_metric *m, const char *field)
{
	for (size_t j = 0; j < m->nfields; j++)
		if (strcmp(m->fields[j], field) == 0)
			return j;
	m->fields = hq_xrealloc(m->fields, (m->nfields + 1) * sizeof *m->fields);
	m->fields[m->nfields] = field;
	return m->nfields++;
}

/* Which metrics and fields the conditions read, checked in the order they
 * are written. */
static int
day_refs(struct hq_select_days *d, const struct hq_select_daysrc *src,
    struct hq_err *e)
{
	for (size_t i = 0; i < d->nconds; i++)
		d->nrefs += hq_expr_nrefs(d->conds[i]);
	d->refs = hq_xcalloc(d->nrefs + 1, sizeof *d->refs);
	d->first = hq_xcalloc(d->nconds + 1, sizeof *d->first);
	for (size_t i = 0, at = 0; i < d->nconds; i++) {
		const struct hq_expr *x = d->conds[i];
		d->first[i] = at;
		for (size_t r = 0; r < hq_expr_nrefs(x); r++, at++) {
			const struct hq_expr_ref *ref = hq_expr_ref(x, r);
			if (!ref->metric) {
				hq_err_set(e, "--when '%s': '%s' needs a metric, as in "
				    "exercise_time.sum>=60 (to filter this metric's own "
				    "values use --where)", hq_expr_source(x), ref->field);
				return -1;
			}
			if (src->check(src->ctx, ref->metric, ref->field, e)) {
				hq_err_prefix(e, "--when '%s'", hq_expr_source(x));
				return -1;
			}
			size_t k = day_metric(d, ref->metric);
			d->refs[at].metric = k;
			d->refs[at].field = day_field(&d->m[k], ref->field);
			d->refs[at].lag = ref->lag;
			if (ref->lag < d->m[k].lag_lo)
				d->m[k].lag_lo = ref->lag;
			if (ref->lag > d->m[k].lag_hi)
				d->m[k].lag_hi = ref->lag;
		}
	}
	return 0;
}

struct hq_select_days *
hq_select_days_new(struct hq_expr *const *conds, size_t n,
    const struct hq_select_daysrc *src, struct hq_err *e)
{
	struct hq_select_days *d = hq_xcalloc(1, sizeof *d);

	d->conds = conds;
	d->nconds = n;
	if (day_refs(d, src, e))
		goto fail;
	for (size_t k = 0; k < d->nm; k++) {
		struct day_metric *m = &d->m[k];
		if (src->load(src->ctx, m->name, m->fields, m->nfields, m->lag_lo,
		    m->lag_hi, &m->daily, e))
			goto fail;
		/* Lookups search by day: a source must give each day once, in
		 * order. */
		for (size_t i = 1; i < m->daily.n; i++)
			if (m->daily.days[i] <= m->daily.days[i - 1]) {
				hq_err_set(e, "the daily values of %s are not one per day "
				    "in order", m->name);
				goto fail;
			}
	}
	return d;
fail:
	hq_select_days_free(d);
	return NULL;
}

void
hq_select_days_free(struct hq_select_days *d)
{
	if (!d)
		return;
	for (size_t k = 0; k < d->nm; k++) {
		free(d->m[k].fields);
		hq_select_daily_free(&d->m[k].daily);
	}
	free(d->m);
	free(d->refs);
	free(d->first);
	free(d);
}

struct day_lookup {
	const struct hq_select_days *d;
	const struct day_ref *refs;  /* the condition's */
	int64_t day;
};

/* The value a reference reads on a day (its metric's day + offset). */
static double
day_ref_value(const struct hq_select_days *d, const struct day_ref *r,
    int64_t day)
{
	const struct day_metric *m = &d->m[r->metric];
	long i = hq_select_daily_find(&m->daily, day + r->lag);

	return i < 0 ? NAN : m->daily.v[(size_t)i * m->nfields + r->field];
}

static int
day_value(void *ctx, size_t ref, double *v)
{
	const struct day_lookup *dl = ctx;

	*v = day_ref_value(dl->d, &dl->refs[ref], dl->day);
	return isnan(*v) ? -1 : 0;
}

int
hq_select_days_eval(const struct hq_select_days *d, int64_t day, int *missing)
{
	struct day_lookup dl = { d, NULL, day };
	int holds = 1;

	for (size_t i = 0; holds && i < d->nconds; i++) {
		dl.refs = &d->refs[d->first[i]];
		holds = hq_expr_eval(d->conds[i], day_value, &dl);
	}
	if (missing) {
		/* Evaluation stops early (and, or): look at every name. */
		*missing = 0;
		for (size_t r = 0; r < d->nrefs && !*missing; r++)
			*missing = isnan(day_ref_value(d, &d->refs[r], day));
	}
	return holds;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

void
hq_select_days_set(const struct hq_select_days *d, struct hq_dayset *out)
{
	int64_t *cand;
	size_t ncand = 0, total = 0;

	/* The candidates: every day a reference has a row for, moved back by
	 * its offset; sorted once, each evaluated once. */
	for (size_t r = 0; r < d->nrefs; r++)
		total += d->m[d->refs[r].metric].daily.n;
	cand = hq_xcalloc(total + 1, sizeof *cand);
	for (size_t r = 0; r < d->nrefs; r++) {
		const struct hq_select_daily *dv = &d->m[d->refs[r].metric].daily;
		for (size_t i = 0; i < dv->n; i++)
			cand[ncand++] = dv->days[i] - d->refs[r].lag;
	}
	if (ncand)
		qsort(cand, ncand, sizeof *cand, cmp_i64);
	out->days = hq_xcalloc(ncand + 1, sizeof *out->days);
	out->n = 0;
	for (size_t i = 0; i < ncand; i++) {
		if (i && cand[i] == cand[i - 1])
			continue;
		if (hq_select_days_eval(d, cand[i], NULL))
			out->days[out->n++] = cand[i];
	}
	free(cand);
}

/* ---- --where ------------------------------------------------------------- */

enum { SLOT_VALUE = -1, SLOT_N = -2 };

/* Where each --where name reads in a row: value, n or an aggregation the
 * row carries. */
static int
where_slots(const struct hq_expr *x, const struct hq_agg *aggs, size_t naggs,
    int *slot, struct hq_err *e)
{
	for (size_t r = 0; r < hq_expr_nrefs(x); r++) {
		const struct hq_expr_ref *ref = hq_expr_ref(x, r);
		struct hq_agg a;
		if (ref->lag) {
			hq_err_set(e, "--where '%s': day offsets such as [%d] are for "
			    "--when", hq_expr_source(x), ref->lag);
			return -1;
		}
		if (ref->metric) {
			hq_err_set(e, "--where '%s': %s.%s names another metric; use "
			    "--when to filter days by another metric", hq_expr_source(x),
			    ref->metric, ref->field);
			return -1;
		}
		if (strcmp(ref->field, "value") == 0)
			slot[r] = SLOT_VALUE;
		else if (strcmp(ref->field, "n") == 0)
			slot[r] = SLOT_N;
		else if ((slot[r] = agg_index(aggs, naggs, ref->field)) >= 0)
			continue;
		else if (hq_stats_parse_agg(ref->field, &a) == 0) {
			hq_err_set(e, "--where '%s' uses %s, which --agg does not "
			    "compute; add it, e.g. --agg avg,%s", hq_expr_source(x),
			    ref->field, ref->field);
			return -1;
		} else {
			hq_err_set(e, "--where '%s': unknown name '%s'; use value, n "
			    "or an aggregation such as avg or max", hq_expr_source(x),
			    ref->field);
			return -1;
		}
	}
	return 0;
}

/* Every --where's slots for rows carrying aggs, one after another. */
static int
where_compile(const struct hq_select *sel, const struct hq_agg *aggs,
    size_t naggs, int *slots, struct hq_err *e)
{
	for (size_t w = 0; w < sel->nwhere; w++) {
		if (where_slots(sel->where[w], aggs, naggs, slots, e))
			return -1;
		slots += hq_expr_nrefs(sel->where[w]);
	}
	return 0;
}

struct where_row {
	const struct hq_row *row;
	const int *slot;
};

static int
where_value(void *ctx, size_t ref, double *v)
{
	const struct where_row *w = ctx;

	switch (w->slot[ref]) {
	case SLOT_N: *v = (double)w->row->n; break;
	case SLOT_VALUE: *v = w->row->v[0]; break;
	default: *v = w->row->v[w->slot[ref]];
	}
	return isnan(*v) ? -1 : 0;
}

static int
where_holds(const struct hq_select *sel, const int *slots,
    const struct hq_row *r)
{
	struct where_row w = { r, slots };

	for (size_t i = 0; i < sel->nwhere; i++) {
		if (!hq_expr_eval(sel->where[i], where_value, &w))
			return 0;
		w.slot += hq_expr_nrefs(sel->where[i]);
	}
	return 1;
}

/* ---- run ----------------------------------------------------------------- */

struct run {
	const struct hq_select *sel;
	const struct hq_select_sink *sink;
	struct hq_store *s;
	struct hq_query q;
	int *slots;
	long skipped, given;
};

static int
limit_reached(const struct run *rn)
{
	return rn->sel->limit && rn->given >= rn->sel->limit;
}

/* One metric's rows as hq_query_each() hands them on. */
struct metric_run {
	struct run *rn;
	struct hq_select_series info;
	int announced;
};

/* The sink learns of a series once, before its first row (or at its end
 * when none passes), when the series' description is complete. */
static int
announce(struct metric_run *mr, const struct hq_series *sr, struct hq_err *e)
{
	const struct hq_select_sink *sink = mr->rn->sink;

	if (mr->announced)
		return 0;
	mr->announced = 1;
	mr->info.aggs = sr->aggs;
	mr->info.naggs = sr->naggs;
	mr->info.sources = (const char *const *)sr->sources;
	mr->info.nsources = sr->nsources;
	mr->info.from_rollup = sr->from_rollup;
	return sink->series ? sink->series(sink->ctx, &mr->info, e) : 0;
}

/* A row through --where, --offset and --limit to the sink. */
static int
select_row(void *ctx, const struct hq_series *sr, const struct hq_row *r,
    struct hq_err *e)
{
	struct metric_run *mr = ctx;
	struct run *rn = mr->rn;
	const struct hq_select *sel = rn->sel;

	if (!where_holds(sel, rn->slots, r))
		return 0;
	if (rn->skipped < sel->offset) {
		rn->skipped++;
		return 0;
	}
	if (announce(mr, sr, e) ||
	    rn->sink->row(rn->sink->ctx, &mr->info, r, e))
		return -1;
	rn->given++;
	return limit_reached(rn) ? 1 : 0;
}

/* One metric's rows through --where, --offset and --limit to the sink, as
 * the query makes them: none is held here. */
static int
run_metric(struct run *rn, size_t i, const struct hq_metric_ref *ref,
    struct hq_err *e)
{
	const struct hq_select *sel = rn->sel;
	struct hq_series sr;
	struct metric_run mr = { rn, { .index = i, .metric = ref, .by = sel->by,
	    .whole = sel->whole }, 0 };
	struct hq_agg aggs[HQ_MAX_AGGS];
	int rc;

	if (limit_reached(rn)) {
		/* Nothing more can pass: announce it, read nothing. */
		mr.info.naggs = series_aggs(sel, ref->kind, aggs);
		mr.info.aggs = aggs;
		return rn->sink->series ? rn->sink->series(rn->sink->ctx, &mr.info,
		    e) : 0;
	}
	rn->q.metric = *ref;
	/* --where reads the aggregations the rows carry (the metric's). */
	mr.info.naggs = series_aggs(sel, ref->kind, aggs);
	if (where_compile(sel, aggs, mr.info.naggs, rn->slots, e))
		return -1;
	rc = hq_query_each(rn->s, &rn->q, select_row, &mr, &sr, e);
	if (rc == 0)
		rc = announce(&mr, &sr, e) ? -1 : 0;
	hq_series_free(&sr);
	return rc;
}

/* The days every --when holds on, from the store. */
static int
when_days(struct hq_store *s, const struct hq_select *sel,
    struct hq_dayset *out, struct hq_err *e)
{
	struct hq_select_daysrc src;
	struct hq_select_days *d;

	hq_select_store_days(&src, s, sel);
	d = hq_select_days_new(sel->when, sel->nwhen, &src, e);
	if (d)
		hq_select_days_set(d, out);
	hq_select_days_free(d);
	hq_select_store_days_free(&src);
	return d ? 0 : -1;
}

long
hq_select_run(struct hq_store *s, const struct hq_select *sel,
    const struct hq_select_sink *sink, struct hq_err *e)
{
	struct hq_metric_ref *refs = hq_xcalloc(sel->nmetrics + 1, sizeof *refs);
	struct hq_dayset days = {0};
	struct run rn = { .sel = sel, .sink = sink, .s = s };
	size_t nslots = 0;
	long rc = -1;

	/* Everything that can be wrong is found before the first row. */
	for (size_t i = 0; i < sel->nmetrics; i++)
		if (hq_query_resolve(s, sel->metrics[i], &refs[i], e))
			goto out;
	base_query(sel, &rn.q);
	if (sel->nwhen) {
		if (when_days(s, sel, &days, e))
			goto out;
		rn.q.days = &days;
	}
	for (size_t w = 0; w < sel->nwhere; w++)
		nslots += hq_expr_nrefs(sel->where[w]);
	rn.slots = hq_xcalloc(nslots + 1, sizeof *rn.slots);
	for (size_t i = 0; i < sel->nmetrics; i++) {
		struct hq_agg aggs[HQ_MAX_AGGS];
		size_t naggs = series_aggs(sel, refs[i].kind, aggs);
		if (where_compile(sel, aggs, naggs, rn.slots, e))
			goto out;
	}
	for (size_t i = 0; i < sel->nmetrics; i++)
		if (run_metric(&rn, i, &refs[i], e))
			goto out;
	rc = rn.given;
out:
	free(rn.slots);
	free(days.days);
	free(refs);
	return rc;
}
