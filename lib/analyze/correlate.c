#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hq/buf.h"
#include "hq/catalog.h"
#include "hq/correlate.h"
#include "hq/dayrows.h"
#include "hq/output.h"
#include "hq/query.h"
#include "hq/svg.h"
#include "hq/term.h"
#include "hq/time.h"

/* ---- series and operands -------------------------------------------------- */

void
hq_corr_series_free(struct hq_corr_series *s)
{
	free(s->days);
	free(s->v);
	free(s->fields);
	free(s->fv);
	memset(s, 0, sizeof *s);
}

int
hq_corr_is_file(const char *operand)
{
	size_t n = strlen(operand);

	return strcmp(operand, "-") == 0 || strchr(operand, '/') != NULL ||
	    (n > 6 && strcmp(operand + n - 6, ".jsonl") == 0) ||
	    (n > 5 && strcmp(operand + n - 5, ".json") == 0);
}

int
hq_corr_parse_operand(const char *operand, char *metric, size_t n,
    struct hq_agg *agg, int *has_agg, struct hq_err *e)
{
	const char *dot = strrchr(operand, '.');
	size_t len = dot ? (size_t)(dot - operand) : strlen(operand);

	*has_agg = 0;
	if (len == 0 || len >= n) {
		hq_err_set(e, "'%s' is not a metric name (such as glucose or "
		    "glucose.max)", operand);
		return -1;
	}
	memcpy(metric, operand, len);
	metric[len] = '\0';
	if (!dot)
		return 0;
	if (hq_stats_parse_agg(dot + 1, agg)) {
		hq_err_set(e, "%s: unknown daily aggregate '%s'; use avg, min, max, "
		    "sum, count, median, stddev, p1..p99, first or last (%s.max)",
		    operand, dot + 1, metric);
		return -1;
	}
	*has_agg = 1;
	return 0;
}

/* Whether agg is what a metric of kind gives without one. */
static int
is_default_agg(enum hq_kind kind, const char *agg)
{
	struct hq_agg d;

	hq_query_default_agg(kind, &d);
	return !agg[0] || strcmp(agg, d.name) == 0;
}

static void
push_day(struct hq_corr_series *s, size_t *cap, int64_t day, double v)
{
	if (s->n == *cap) {
		*cap = *cap ? *cap * 2 : 256;
		s->days = hq_xrealloc(s->days, *cap * sizeof *s->days);
		s->v = hq_xrealloc(s->v, *cap * sizeof *s->v);
	}
	s->days[s->n] = day;
	s->v[s->n++] = v;
}

/* "2024-12-01" */
static void
fmt_day(int64_t day, char *buf, size_t n)
{
	int y, m, d;

	hq_time_civil_from_days(day, &y, &m, &d);
	snprintf(buf, n, "%04d-%02d-%02d", y, m, d);
}

/* ---- a file of hq-query day rows (read by lib/read/dayrows.c) ------------- */

int
hq_corr_read_file(const char *path, struct hq_corr_series *s, struct hq_err *e)
{
	const struct hq_metric_info *info;
	struct hq_dayrows d;

	memset(s, 0, sizeof *s);
	if (hq_dayrows_read(path, &d, e))
		return -1;
	s->path = path;
	memcpy(s->metric, d.metric, sizeof s->metric);
	memcpy(s->agg, d.agg, sizeof s->agg);
	memcpy(s->unit, d.unit, sizeof s->unit);
	s->days = d.days;
	s->v = d.v;
	s->n = d.n;
	s->fields = d.fields;
	s->nfields = d.nfields;
	s->fv = d.fv;
	if (s->n == 0)   /* every value null: the metric is all there is */
		return 0;
	/* What the metric means, as the store would say it. */
	info = hq_catalog_lookup(s->metric);
	if (info) {
		snprintf(s->identifier, sizeof s->identifier, "%s", info->identifier);
		s->nights = info->kind == HQ_KIND_SLEEP;
	} else {
		snprintf(s->identifier, sizeof s->identifier, "%s", s->metric);
	}
	s->agg_default = is_default_agg(info ? info->kind
	    : hq_catalog_guess_kind(s->metric), s->agg);
	return 0;
}

/* ---- the store ---------------------------------------------------------- */

struct collect {
	struct hq_corr_series *s;
	size_t cap;
};

static int
collect_series(void *ctx, const struct hq_select_series *sr, struct hq_err *e)
{
	struct hq_corr_series *s = ((struct collect *)ctx)->s;

	(void)e;
	snprintf(s->metric, sizeof s->metric, "%s", sr->metric->name);
	snprintf(s->identifier, sizeof s->identifier, "%s", sr->metric->identifier);
	snprintf(s->unit, sizeof s->unit, "%s", sr->metric->unit);
	snprintf(s->agg, sizeof s->agg, "%s", sr->aggs[0].name);
	s->agg_default = is_default_agg(sr->metric->kind, s->agg);
	s->nights = sr->metric->kind == HQ_KIND_SLEEP;
	return 0;
}

static int
collect_row(void *ctx, const struct hq_select_series *sr, const struct hq_row *r,
    struct hq_err *e)
{
	struct collect *c = ctx;

	(void)sr;
	(void)e;
	if (!isnan(r->v[0]))
		push_day(c->s, &c->cap, r->day, r->v[0]);
	return 0;
}

/* Local instants of days [from, to] (inclusive), at hours from_h on the
 * first and to_h on the day after the last. */
static void
span_instants(struct hq_corr_span sp, int from_h, int to_h, int64_t *from,
    int64_t *to)
{
	*from = sp.from_day == INT64_MIN ? INT64_MIN : hq_time_day_at(sp.from_day, from_h);
	*to = sp.to_day == INT64_MAX ? INT64_MAX : hq_time_day_at(sp.to_day + 1, to_h);
}

static struct hq_corr_span
span_shift(struct hq_corr_span sp, int by)
{
	if (sp.from_day != INT64_MIN)
		sp.from_day += by;
	if (sp.to_day != INT64_MAX)
		sp.to_day += by;
	return sp;
}

/* An operand's metric as the store knows it, and its aggregate. */
static int
resolve(const struct hq_corr_store *cs, const char *operand, char *metric,
    size_t n, struct hq_agg *agg, int *has_agg, struct hq_metric_ref *ref,
    struct hq_err *e)
{
	if (hq_corr_parse_operand(operand, metric, n, agg, has_agg, e))
		return -1;
	return hq_query_resolve(cs->s, metric, ref, e);
}

int
hq_corr_load(const struct hq_corr_store *cs, const char *operand,
    struct hq_corr_span span, int lag, int night, struct hq_corr_series *s,
    struct hq_err *e)
{
	struct hq_select sel = *cs->settings;   /* borrowed: never freed here */
	struct hq_metric_ref ref;
	struct collect c = { s, 0 };
	struct hq_select_sink sink = { collect_series, collect_row, &c };
	char metric[128];
	const char *names[1] = { metric };
	struct hq_agg agg;
	int has_agg;

	memset(s, 0, sizeof *s);
	if (resolve(cs, operand, metric, sizeof metric, &agg, &has_agg, &ref, e))
		return -1;
	sel.metrics = names;
	sel.nmetrics = 1;
	sel.by = HQ_DAY;
	sel.whole = 0;
	sel.naggs = 0;
	sel.offset = sel.limit = 0;
	sel.when = sel.where = NULL;
	sel.nwhen = sel.nwhere = 0;
	if (has_agg) {
		sel.aggs[0] = agg;
		sel.naggs = 1;
	}
	if (night && ref.kind != HQ_KIND_SLEEP) {
		/* the evening and night of day D itself */
		sel.day_from_hour = HQ_CORR_NIGHT_FROM;
		sel.day_to_hour = HQ_CORR_NIGHT_TO;
		span_instants(span, HQ_CORR_NIGHT_FROM, HQ_CORR_NIGHT_TO, &sel.from, &sel.to);
		s->window = 1;
	} else {
		sel.day_from_hour = sel.day_to_hour = 0;
		span_instants(span_shift(span, night ? 1 : lag), 0, 0, &sel.from, &sel.to);
	}
	if (hq_select_run(cs->s, &sel, &sink, e) < 0) {
		hq_corr_series_free(s);
		return -1;
	}
	return 0;
}

int
hq_corr_identifier(const struct hq_corr_store *cs, const char *operand,
    char *buf, size_t n, struct hq_err *e)
{
	struct hq_metric_ref ref;
	char metric[128];
	struct hq_agg agg;
	int has_agg;

	if (resolve(cs, operand, metric, sizeof metric, &agg, &has_agg, &ref, e))
		return -1;
	snprintf(buf, n, "%s", ref.identifier);
	return 0;
}

void
hq_corr_lag(const struct hq_corr_series *b, int lag, int night, int *reported,
    int *shift)
{
	*reported = night ? 1 : lag;
	*shift = !night ? lag : b->window ? 0 : 1;
}

/* ---- pairs ------------------------------------------------------------ */

static void
push_pair(struct hq_corr_pairs *p, size_t *cap, int64_t day, double a, double b)
{
	if (p->n == *cap) {
		*cap = *cap ? *cap * 2 : 256;
		p->days = hq_xrealloc(p->days, *cap * sizeof *p->days);
		p->a = hq_xrealloc(p->a, *cap * sizeof *p->a);
		p->b = hq_xrealloc(p->b, *cap * sizeof *p->b);
	}
	p->days[p->n] = day;
	p->a[p->n] = a;
	p->b[p->n++] = b;
}

void
hq_corr_pair(const struct hq_corr_series *a, const struct hq_corr_series *b,
    int shift, struct hq_corr_span span, struct hq_corr_pairs *p)
{
	size_t j = 0, cap = 0;

	memset(p, 0, sizeof *p);
	/* Both in day order: one walk. */
	for (size_t i = 0; i < a->n; i++) {
		int64_t d = a->days[i];
		if (d < span.from_day || d > span.to_day)
			continue;
		while (j < b->n && b->days[j] < d + shift)
			j++;
		if (j == b->n)
			break;
		if (b->days[j] == d + shift)
			push_pair(p, &cap, d, a->v[i], b->v[j]);
	}
}

void
hq_corr_pairs_free(struct hq_corr_pairs *p)
{
	free(p->days);
	free(p->a);
	free(p->b);
	memset(p, 0, sizeof *p);
}

enum hq_stats_status
hq_corr_stats(const struct hq_corr_pairs *p, struct hq_corr_result *r)
{
	memset(r, 0, sizeof *r);
	r->n = p->n;
	r->p_adj = NAN;
	if (p->n) {
		r->first = p->days[0];
		r->last = p->days[p->n - 1];
	}
	r->status = hq_stats_pearson(p->a, p->b, p->n, &r->pearson);
	if (r->status == HQ_STATS_OK)
		r->status = hq_stats_spearman(p->a, p->b, p->n, &r->spearman);
	if (r->status == HQ_STATS_OK) {
		r->sd_a = hq_stats_stddev(p->a, p->n);
		/* B's days are A's plus a fixed shift: consecutive alike */
		r->acf_a = hq_stats_acf1(p->days, p->a, p->n);
		r->acf_b = hq_stats_acf1(p->days, p->b, p->n);
		r->n_eff = hq_stats_n_eff(p->n, r->acf_a, r->acf_b);
	}
	return r->status;
}

int
hq_corr_serial(const struct hq_corr_result *r)
{
	return r->status == HQ_STATS_OK &&
	    r->n_eff < HQ_CORR_SERIAL_RATIO * (double)r->n &&
	    r->acf_a > HQ_CORR_SERIAL_ACF && r->acf_b > HQ_CORR_SERIAL_ACF;
}

/* ---- two groups ------------------------------------------------------------- */

/* The groups merged back into one series in day order (each is in day
 * order): the condition as 1/0 and B, for their autocorrelations. */
static void
groups_acf(struct hq_corr_groups *g)
{
	size_t n = g->with.n + g->without.n, i = 0, j = 0, k = 0;
	int64_t *day = hq_xcalloc(n + 1, sizeof *day);
	double *cond = hq_xcalloc(n + 1, sizeof *cond);
	double *b = hq_xcalloc(n + 1, sizeof *b);

	while (i < g->with.n || j < g->without.n) {
		int take_with = j == g->without.n || (i < g->with.n &&
		    g->with.days[i] < g->without.days[j]);
		const struct hq_corr_pairs *from = take_with ? &g->with : &g->without;
		size_t at = take_with ? i++ : j++;
		day[k] = from->days[at];
		cond[k] = take_with;
		b[k++] = from->b[at];
	}
	g->acf_cond = hq_stats_acf1(day, cond, n);
	g->acf_b = hq_stats_acf1(day, b, n);
	g->n_eff = hq_stats_n_eff(n, g->acf_cond, g->acf_b);
	free(day);
	free(cond);
	free(b);
}

void
hq_corr_split(const struct hq_corr_pairs *p, const struct hq_select_days *cond,
    struct hq_corr_groups *g)
{
	size_t cw = 0, co = 0;

	memset(g, 0, sizeof *g);
	for (size_t i = 0; i < p->n; i++) {
		int missing, holds = hq_select_days_eval(cond, p->days[i], &missing);
		if (missing)
			g->undefined++;
		else if (holds)
			push_pair(&g->with, &cw, p->days[i], p->a[i], p->b[i]);
		else
			push_pair(&g->without, &co, p->days[i], p->a[i], p->b[i]);
	}
	groups_acf(g);
}

int
hq_corr_groups_serial(const struct hq_corr_groups *g)
{
	size_t n = g->with.n + g->without.n;

	return n > 0 && g->n_eff < HQ_CORR_SERIAL_RATIO * (double)n &&
	    g->acf_cond > HQ_CORR_SERIAL_ACF && g->acf_b > HQ_CORR_SERIAL_ACF;
}

void
hq_corr_groups_free(struct hq_corr_groups *g)
{
	hq_corr_pairs_free(&g->with);
	hq_corr_pairs_free(&g->without);
	g->undefined = 0;
}

/* ---- conditions over files and the store ------------------------------------ */

struct corr_days {
	struct hq_corr_series *const *files;
	size_t nfiles;
	struct hq_select range;             /* a borrowing copy: never freed */
	struct hq_select_daysrc store;
};

/* The file a condition's metric names: by the rows' name, or a name the
 * catalog takes for the same metric (glucose for blood_glucose). */
static const struct hq_corr_series *
file_for(const struct corr_days *cd, const char *metric)
{
	const struct hq_metric_info *m = hq_catalog_lookup(metric);

	for (size_t i = 0; i < cd->nfiles; i++) {
		const struct hq_corr_series *f = cd->files[i];
		if (strcmp(f->metric, metric) == 0 ||
		    (m && m == hq_catalog_lookup(f->metric)))
			return f;
	}
	return NULL;
}

/* The column of a file's field: -1 value, -2 absent, else fields[j]. */
static int
file_field(const struct hq_corr_series *f, const char *field)
{
	struct hq_agg a;

	if (strcmp(field, "value") == 0 ||
	    (f->agg[0] && hq_stats_parse_agg(field, &a) == 0 && strcmp(a.name, f->agg) == 0))
		return -1;
	for (size_t j = 0; j < f->nfields; j++)
		if (strcmp(f->fields[j], field) == 0 ||
		    (hq_stats_parse_agg(field, &a) == 0 && strcmp(f->fields[j], a.name) == 0))
			return (int)j;
	return -2;
}

static int
corr_check(void *ctx, const char *metric, const char *field, struct hq_err *e)
{
	struct corr_days *cd = ctx;
	const struct hq_corr_series *f = file_for(cd, metric);

	if (!f)
		return cd->store.check(cd->store.ctx, metric, field, e);
	if (file_field(f, field) == -2) {
		struct hq_buf have = { 0 };
		hq_buf_puts(&have, "value");
		for (size_t j = 0; j < f->nfields; j++)
			hq_buf_printf(&have, ", %s", f->fields[j]);
		char x[HQ_TERM_EXCERPT_SIZE];
		hq_err_set(e, "%s has no daily %s.%s (its rows have %s)", f->path,
		    metric, field, hq_term_excerpt(x, sizeof x, have.data));
		hq_buf_free(&have);
		return -1;
	}
	return 0;
}

static int
corr_load(void *ctx, const char *metric, const char *const *fields,
    size_t nfields, int lag_lo, int lag_hi, struct hq_select_daily *d,
    struct hq_err *e)
{
	struct corr_days *cd = ctx;
	const struct hq_corr_series *f = file_for(cd, metric);

	if (!f)
		return cd->store.load(cd->store.ctx, metric, fields, nfields, lag_lo,
		    lag_hi, d, e);
	d->days = hq_xcalloc(f->n + 1, sizeof *d->days);
	d->v = hq_xcalloc(f->n * nfields + 1, sizeof *d->v);
	d->n = f->n;
	for (size_t j = 0; j < nfields; j++) {
		int col = file_field(f, fields[j]);
		for (size_t i = 0; i < f->n; i++)
			d->v[i * nfields + j] = col == -1 ? f->v[i]
			    : col >= 0 ? f->fv[i * f->nfields + (size_t)col] : NAN;
	}
	memcpy(d->days, f->days, f->n * sizeof *d->days);
	return 0;
}

void
hq_corr_daysrc(struct hq_select_daysrc *src, struct hq_corr_series *const *files,
    size_t nfiles, const struct hq_corr_store *cs, const struct hq_select *range)
{
	struct corr_days *cd = hq_xcalloc(1, sizeof *cd);

	cd->files = files;
	cd->nfiles = nfiles;
	cd->range = *cs->settings;
	cd->range.from = range->from;
	cd->range.to = range->to;
	hq_select_store_days(&cd->store, cs->s, &cd->range);
	src->check = corr_check;
	src->load = corr_load;
	src->ctx = cd;
}

void
hq_corr_daysrc_free(struct hq_select_daysrc *src)
{
	struct corr_days *cd = src->ctx;

	if (!cd)
		return;
	hq_select_store_days_free(&cd->store);
	free(cd);
	src->ctx = NULL;
}

/* ---- --against ------------------------------------------------------------- */

void
hq_corr_rank(struct hq_corr_result *r, size_t *idx, size_t n, int pearson)
{
	double *p = hq_xcalloc(n + 1, sizeof *p), *key = hq_xcalloc(n + 1, sizeof *key);
	size_t *o = hq_xcalloc(n + 1, sizeof *o), *tidx = hq_xcalloc(n + 1, sizeof *tidx);
	struct hq_corr_result *tmp = hq_xcalloc(n + 1, sizeof *tmp);

	for (size_t i = 0; i < n; i++)
		p[i] = pearson ? r[i].pearson.p : r[i].spearman.p;
	hq_stats_p_adjust_bh(p, n, p);
	for (size_t i = 0; i < n; i++) {
		r[i].p_adj = p[i];
		/* largest |coefficient| first, ties in the given order */
		key[i] = -fabs(pearson ? r[i].pearson.r : r[i].spearman.r);
	}
	hq_stats_order(key, n, o);
	for (size_t k = 0; k < n; k++) {
		tmp[k] = r[o[k]];
		tidx[k] = idx[o[k]];
	}
	memcpy(r, tmp, n * sizeof *r);
	memcpy(idx, tidx, n * sizeof *idx);
	free(p);
	free(key);
	free(o);
	free(tmp);
	free(tidx);
}

int
hq_corr_same_family(const struct hq_corr_series *a, const char *identifier)
{
	return strcasecmp(a->identifier, identifier) == 0;
}

/* ---- the questions, run ---------------------------------------------------- */

/* The days conditions read: A's span widened by their day offsets. */
static void
condition_range(struct hq_corr_span span, struct hq_expr *const *conds,
    size_t n, struct hq_select *range)
{
	int64_t reach = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < hq_expr_nrefs(conds[i]); k++) {
			int lag = hq_expr_ref(conds[i], k)->lag;
			reach = lag < -reach ? -lag : lag > reach ? lag : reach;
		}
	hq_select_init(range);
	if (span.from_day != INT64_MIN)
		range->from = hq_time_day_start(span.from_day - reach);
	if (span.to_day != INT64_MAX)
		range->to = hq_time_day_start(span.to_day + reach + 1);
}

int
hq_corr_when(const struct hq_corr_store *cs, struct hq_corr_series *a,
    struct hq_corr_series *b, struct hq_expr *const *conds, size_t nconds,
    struct hq_corr_span span, int lag, int night, struct hq_corr_groups *g,
    struct hq_err *e)
{
	struct hq_corr_series *files[2];
	struct hq_select_daysrc src;
	struct hq_select_days *days;
	struct hq_select range;
	struct hq_corr_pairs p;
	size_t nfiles = 0;
	int reported, shift;

	memset(g, 0, sizeof *g);
	if (a->path)
		files[nfiles++] = a;
	if (b->path)
		files[nfiles++] = b;
	condition_range(span, conds, nconds, &range);
	hq_corr_daysrc(&src, files, nfiles, cs, &range);
	hq_corr_lag(b, lag, night, &reported, &shift);
	hq_corr_pair(a, b, shift, span, &p);
	if ((days = hq_select_days_new(conds, nconds, &src, e)))
		hq_corr_split(&p, days, g);
	hq_select_days_free(days);
	hq_corr_daysrc_free(&src);
	hq_corr_pairs_free(&p);
	return days ? 0 : -1;
}

static void
add_name(const char *name, void *ctx)
{
	struct hq_corr_ranking *rk = ctx;

	rk->names = hq_xrealloc(rk->names, (rk->nnames + 1) * sizeof *rk->names);
	rk->names[rk->nnames++] = hq_xstrdup(name);
}

/* A metric of the store for --against all: not the raw sleep analysis,
 * whose daily sum of stage and in-bed minutes from every source is no
 * measure of anything; its nights (sleep and the stages) come after it. */
static void
add_stored(const char *name, void *ctx)
{
	if (strcmp(name, "sleep_analysis") != 0)
		add_name(name, ctx);
}

/* --against's candidates: every metric in the store, or the list. */
static int
candidates(const struct hq_corr_store *cs, const char *against,
    struct hq_corr_ranking *rk, struct hq_err *e)
{
	const char *p = against;

	if (strcmp(p, "all") == 0)
		return hq_query_metric_names(cs->s, add_stored, rk, e);
	while (*p) {
		size_t len = strcspn(p, ",");
		char name[160];
		snprintf(name, sizeof name, "%.*s", (int)len, p);
		if (len && len < sizeof name)
			add_name(name, rk);
		p += len + (p[len] == ',');
	}
	return 0;
}

int
hq_corr_against(const struct hq_corr_store *cs, const struct hq_corr_series *a,
    const char *against, struct hq_corr_span span, int lag, int night,
    long min_n, int pearson, struct hq_corr_ranking *rk, struct hq_err *e)
{
	size_t *idx = NULL, k = 0;
	int shift;

	memset(rk, 0, sizeof *rk);
	if (candidates(cs, against, rk, e))
		return -1;
	rk->b = hq_xcalloc(rk->nnames + 1, sizeof *rk->b);
	rk->r = hq_xcalloc(rk->nnames + 1, sizeof *rk->r);
	idx = hq_xcalloc(rk->nnames + 1, sizeof *idx);
	for (size_t i = 0; i < rk->nnames; i++) {
		struct hq_corr_series s;
		struct hq_corr_pairs p;
		char id[256];
		/* A's own family is left out before it costs a query. */
		if (hq_corr_identifier(cs, rk->names[i], id, sizeof id, e))
			goto fail;
		if (hq_corr_same_family(a, id))
			continue;
		if (hq_corr_load(cs, rk->names[i], span, lag, night, &s, e))
			goto fail;
		hq_corr_lag(&s, lag, night, &rk->lag, &shift);
		hq_corr_pair(a, &s, shift, span, &p);
		/* The statistics and the names are kept, not the days. */
		if (p.n >= (size_t)min_n && hq_corr_stats(&p, &rk->r[k]) == HQ_STATS_OK) {
			free(s.days);
			free(s.v);
			s.days = NULL;
			s.v = NULL;
			s.n = 0;
			rk->b[k] = s;
			idx[k] = k;
			k++;
		} else
			hq_corr_series_free(&s);
		hq_corr_pairs_free(&p);
	}
	rk->n = k;
	hq_corr_rank(rk->r, idx, k, pearson);
	/* the series in the results' new order */
	struct hq_corr_series *b = hq_xcalloc(k + 1, sizeof *b);
	for (size_t i = 0; i < k; i++)
		b[i] = rk->b[idx[i]];
	free(rk->b);
	rk->b = b;
	free(idx);
	return 0;
fail:
	rk->n = k;
	free(idx);
	hq_corr_ranking_free(rk);
	return -1;
}

void
hq_corr_ranking_free(struct hq_corr_ranking *rk)
{
	for (size_t i = 0; i < rk->n; i++)
		hq_corr_series_free(&rk->b[i]);
	for (size_t i = 0; i < rk->nnames; i++)
		free(rk->names[i]);
	free(rk->names);
	free(rk->b);
	free(rk->r);
	memset(rk, 0, sizeof *rk);
}

/* ---- rows and charts -------------------------------------------------------- */

static void
out_day(struct hq_out *o, const char *key, int64_t day)
{
	char buf[16];

	fmt_day(day, buf, sizeof buf);
	hq_out_str(o, key, buf);
}

void
hq_corr_row_pair(struct hq_out *o, const struct hq_corr_series *a,
    const struct hq_corr_series *b, int lag, const struct hq_corr_result *r,
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
hq_corr_row_ranked(struct hq_out *o, const struct hq_corr_series *b,
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
hq_corr_row_groups(struct hq_out *o, const struct hq_corr_series *a,
    const struct hq_corr_series *b, const char *condition, int lag,
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
		fmt_day(p->days[i], l[i], 16);
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
hq_corr_svg_pairs(FILE *fp, const struct hq_corr_series *a,
    const struct hq_corr_series *b, int lag, int night,
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
hq_corr_svg_groups(FILE *fp, const struct hq_corr_series *b,
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
hq_corr_label(const struct hq_corr_series *s, char *buf, size_t n)
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
size_clause(struct hq_buf *b, const struct hq_corr_series *a,
    const struct hq_corr_series *bs, const struct hq_corr_result *r)
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
hq_corr_sentence_pair(struct hq_buf *b, const struct hq_corr_series *a,
    const struct hq_corr_series *bs, int lag, int night,
    const struct hq_corr_result *r, int pearson)
{
	char la[160], lb[160], when[32], c[32], other[32], p[32], d0[16], d1[16];
	char ne[32];
	double coef = pearson ? r->pearson.r : r->spearman.r;
	double pv = pearson ? r->pearson.p : r->spearman.p;

	hq_corr_label(a, la, sizeof la);
	hq_corr_label(bs, lb, sizeof lb);
	hq_corr_timing(lag, night, when, sizeof when);
	fmt_coef(coef, c, sizeof c);
	fmt_coef(pearson ? r->spearman.r : r->pearson.r, other, sizeof other);
	fmt_p(pv, p, sizeof p);
	fmt_day(r->first, d0, sizeof d0);
	fmt_day(r->last, d1, sizeof d1);
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
	if (hq_corr_serial(r)) {
		fmt_about(r->n_eff, ne, sizeof ne);
		hq_buf_printf(b, " The days are not independent (each series carries "
		    "over from day to day), so p is smaller than it should be: the "
		    "%zu days are worth about %s independent ones.", r->n, ne);
	}
	hq_buf_printf(b, " An association, not proof of a cause.");
}

void
hq_corr_sentence_groups(struct hq_buf *b, const struct hq_corr_series *bs,
    const char *condition, int lag, int night, const struct hq_corr_groups *gr,
    const struct hq_stats_welch *w)
{
	char lb[160], d[32], mw[32], mo[32], dw[32], dwo[32], p[32], g[32], u[40];
	char ne[32];

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
		fmt_about(gr->n_eff, ne, sizeof ne);
		hq_buf_printf(b, " The days are not independent (the condition's "
		    "days and %s come in runs), so p is smaller than it should be: "
		    "the %zu days are worth about %s independent ones.", lb,
		    w->n_x + w->n_y, ne);
	}
	if (w->p < 0.05)
		hq_buf_printf(b, " An association, not proof of a cause.");
}

int
hq_corr_sentence_against(struct hq_buf *b, size_t rank,
    const struct hq_corr_series *a, const struct hq_corr_series *bs, int lag,
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
