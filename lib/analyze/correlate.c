#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hq/buf.h"
#include "hq/catalog.h"
#include "hq/correlate.h"
#include "hq/query.h"
#include "hq/term.h"
#include "hq/time.h"

/* ---- operands ------------------------------------------------------------ */

int
hq_corr_is_file(const char *operand)
{
	size_t n = strlen(operand);

	return strcmp(operand, "-") == 0 || strchr(operand, '/') != NULL ||
	    (n > 6 && strcmp(operand + n - 6, ".jsonl") == 0) ||
	    (n > 5 && strcmp(operand + n - 5, ".json") == 0);
}

void
hq_corr_lag(const struct hq_daily *b, int lag, int night, int *reported,
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
hq_corr_pair(const struct hq_daily *a, const struct hq_daily *b,
    int shift, struct hq_daily_span span, struct hq_corr_pairs *p)
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
	struct hq_daily *const *files;
	size_t nfiles;
	struct hq_select range;             /* a borrowing copy: never freed */
	struct hq_select_daysrc store;
};

/* The file a condition's metric names: by the rows' name, or a name the
 * catalog takes for the same metric (glucose for blood_glucose). */
static const struct hq_daily *
file_for(const struct corr_days *cd, const char *metric)
{
	const struct hq_metric_info *m = hq_catalog_lookup(metric);

	for (size_t i = 0; i < cd->nfiles; i++) {
		const struct hq_daily *f = cd->files[i];
		if (strcmp(f->metric, metric) == 0 ||
		    (m && m == hq_catalog_lookup(f->metric)))
			return f;
	}
	return NULL;
}

/* The column of a file's field: -1 value, -2 absent, else fields[j]. */
static int
file_field(const struct hq_daily *f, const char *field)
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
	const struct hq_daily *f = file_for(cd, metric);

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
	const struct hq_daily *f = file_for(cd, metric);

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
hq_corr_daysrc(struct hq_select_daysrc *src, struct hq_daily *const *files,
    size_t nfiles, const struct hq_daily_store *cs, const struct hq_select *range)
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
hq_corr_same_family(const struct hq_daily *a, const char *identifier)
{
	return strcasecmp(a->identifier, identifier) == 0;
}

/* ---- the questions, run ---------------------------------------------------- */

/* The days conditions read: A's span widened by their day offsets. */
static void
condition_range(struct hq_daily_span span, struct hq_expr *const *conds,
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
hq_corr_when(const struct hq_daily_store *cs, struct hq_daily *a,
    struct hq_daily *b, struct hq_expr *const *conds, size_t nconds,
    struct hq_daily_span span, int lag, int night, struct hq_corr_groups *g,
    struct hq_err *e)
{
	struct hq_daily *files[2];
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
candidates(const struct hq_daily_store *cs, const char *against,
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
hq_corr_against(const struct hq_daily_store *cs, const struct hq_daily *a,
    const char *against, struct hq_daily_span span, int lag, int night,
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
		struct hq_daily s;
		struct hq_corr_pairs p;
		char id[256];
		/* A's own family is left out before it costs a query. */
		if (hq_daily_identifier(cs, rk->names[i], id, sizeof id, e))
			goto fail;
		if (hq_corr_same_family(a, id))
			continue;
		if (hq_daily_load(cs, rk->names[i], span, lag, night, &s, e))
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
			hq_daily_free(&s);
		hq_corr_pairs_free(&p);
	}
	rk->n = k;
	hq_corr_rank(rk->r, idx, k, pearson);
	/* the series in the results' new order */
	struct hq_daily *b = hq_xcalloc(k + 1, sizeof *b);
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
		hq_daily_free(&rk->b[i]);
	for (size_t i = 0; i < rk->nnames; i++)
		free(rk->names[i]);
	free(rk->names);
	free(rk->b);
	free(rk->r);
	memset(rk, 0, sizeof *rk);
}
